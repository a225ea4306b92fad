// wuerfelglueck's pages: plain JavaScript, no libraries. Every command goes through
// transport.js (post, stream, examples): the server's API, or the static site's Web Worker.
'use strict';
const $ = id => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const BOARDS = ['16/8/2/2', '20/10/2/2', '40/20/4/4'];
const STRATEGIES = ['frontmost', 'rearmost', 'capture', 'safe', 'random', 'strong', 'strong-search'];
const COLORS = ['#d62d20', '#1f63c6', '#1e9e4a', '#e0a800'];
const LIGHT = ['#f7c9c5', '#c6d8f5', '#c7ebd3', '#f7e6a8'];
const SEATS = ['A', 'B', 'C', 'D'];

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids.flat()) e.append(k instanceof Node ? k : String(k));
  return e;
}
function s(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.append(e);
  return e;
}
const f3 = p => (p === null || p === undefined) ? '–' : p.toFixed(3);
const iv = a => a ? `[${f3(a[0])}, ${f3(a[1])}]` : '';
const iv4 = a => `[${a[0].toFixed(4)}, ${a[1].toFixed(4)}]`;
function boardOpts(b) {
  const [track, offset, pieces, goal] = b.split('/').map(Number);
  return {track, offset, pieces, 'goal-fields': goal};
}
// The labels of the options on the pages, by their command-line names.
const LABELS = {a: 'die A', b: 'die B', die: 'the dice', games: 'games', precision: 'precision',
  seed: 'seed', track: 'board', offset: 'board', pieces: 'board', 'goal-fields': 'board',
  profile: 'profile', players: 'players', opponent: 'opponent', seat: 'your seat', first: 'first',
  rollouts: 'rollouts', position: 'position', face: 'roll', 'max-rolls': 'rolls',
  'max-memory': 'the memory limit', strategy: 'strategy', 'strategy-a': 'strategy A',
  'strategy-b': 'strategy B', 'strategy-c': 'strategy C', 'strategy-d': 'strategy D'};
// A refusal as a sentence for a person at the page: the command line's remedies (a flag to
// raise, a program to run) become what can be done here, option names become the labels
// of the fields, and the sentence starts with a capital and ends with a full stop.
function sentence(message) {
  let m = String(message)
    .replace(/; train one with `wuerfelglueck train[^`]*` and play it as strong:FILE/g,
      '; choose another player for this game')
    .replace(/; raise --max-memory or use a smaller board/g, '; choose a smaller board')
    .replace(/give --rollouts N \(at least 2\) to simulate, or a player trained for this game as --strategy-[a-d] strong:FILE/g,
      'set rollouts to 2 or more to simulate the moves instead')
    .replace(/more than --max-memory allows/g, 'more than this server allows')
    .replace(/^--([a-z-]+)/, (_, name) => LABELS[name] ? LABELS[name][0].toUpperCase() + LABELS[name].slice(1) : name)
    .replace(/--([a-z][a-z-]*)/g, (_, name) => LABELS[name] || name);
  m = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(m) ? m : m + '.';
}
function setMsg(id, text, error) {
  const e = $(id);
  e.textContent = error ? sentence(text) : text;
  e.classList.toggle('err', !!error);
}

// ---- tabs and shared controls
document.querySelectorAll('nav button').forEach(b => b.addEventListener('click', () => showTab(b.dataset.tab)));
function showTab(name) {
  document.querySelectorAll('nav button').forEach(b => b.classList.toggle('on', b.dataset.tab === name));
  document.querySelectorAll('.tab').forEach(t => t.classList.toggle('on', t.id === name));
}
document.querySelectorAll('select.preset').forEach(sel => BOARDS.forEach(b => sel.append(h('option', {}, b))));
document.querySelectorAll('select.strategy').forEach(sel => STRATEGIES.forEach(b => sel.append(h('option', {}, b))));
$('rp-sb').value = 'capture';
// The Dice page opens on the board of the task (BwInf's 40/20/4/4), whose figures a student
// compares; the other pages open on a small board, where games are exact and quick.
$('board-preset').value = '40/20/4/4';

let examples = [];
exampleFiles().then(list => {
  examples = list;
  for (const e of list) $('example').append(h('option', {value: e.name}, `${e.name} (${e.dice.length} dice)`));
}).catch(() => {});
$('dice-text').addEventListener('input', () => { $('example').value = ''; });
$('example').addEventListener('change', () => {
  const e = examples.find(x => x.name === $('example').value);
  if (e) $('dice-text').value = e.dice.join('\n');
});

// ---- Dice: rank and duel
function commonOptions() {
  const o = Object.assign(boardOpts($('board-preset').value),
    {profile: $('rank-profile').value, seed: Number($('seed').value)});
  const v = Number($('stop-value').value);
  if ($('stop-kind').value === 'games') o.games = v; else o.precision = v;
  return o;
}
$('stop-kind').addEventListener('change', () => {
  $('stop-value').value = $('stop-kind').value === 'games' ? '4000' : '0.01';
});

let rankJob = null;
$('rank-form').addEventListener('submit', async e => {
  e.preventDefault();
  const dice = $('dice-text').value.split('\n').map(x => x.trim()).filter(Boolean);
  const o = commonOptions();
  o.die = dice;
  if ($('exact').checked) o.exact = true;
  const total = o.games && !o.exact ? o.games * dice.length * (dice.length - 1) / 2 : 0;
  const bar = $('rank-progress');
  bar.value = 0;
  $('rank-go').disabled = true; $('rank-cancel').disabled = false;
  setMsg('rank-msg', 'starting…');
  rankJob = stream('rank', o, p => {
    if (total) { bar.max = total; bar.value = Math.min(p.games, total); } else bar.removeAttribute('value');
    setMsg('rank-msg', `${p.games.toLocaleString()} games${p.message ? ' · ' + p.message : ''}`);
  });
  try {
    const r = await rankJob.promise;
    bar.max = 1; bar.value = 1;
    setMsg('rank-msg', `done in ${r.seconds.toFixed(2)} s`);
    showRank(r);
  } catch (err) {
    bar.max = 1; bar.value = 0;
    setMsg('rank-msg', err.message, true);
  } finally {
    $('rank-go').disabled = false; $('rank-cancel').disabled = true; rankJob = null;
  }
});
$('rank-cancel').addEventListener('click', () => rankJob && rankJob.cancel());

function heatColor(p) {
  // 0 red, 1/2 white, 1 blue
  const lo = [192, 57, 43], mid = [255, 255, 255], hi = [36, 113, 163];
  const [a, b, t] = p < 0.5 ? [lo, mid, p * 2] : [mid, hi, (p - 0.5) * 2];
  return `rgb(${a.map((x, i) => Math.round(x + (b[i] - x) * t)).join(',')})`;
}

function showRank(r) {
  const n = r.dice.length, out = $('rank-out');
  out.textContent = '';
  const c = n <= 8 ? 52 : n <= 16 ? 34 : 22, label = 12 + 7 * Math.max(...r.dice.map(d => d.length + 4));
  const w = label + n * c + 4, top = 22;
  const svg = s('svg', {viewBox: `0 0 ${w} ${top + n * c + 4}`, width: w, class: 'heat', id: 'heatmap'});
  for (let i = 0; i < n; i++) {
    s('text', {x: label - 6, y: top + i * c + c / 2 + 4, 'text-anchor': 'end', 'font-size': 12}, svg, `${i + 1}: ${r.dice[i]}`);
    s('text', {x: label + i * c + c / 2, y: 15, 'text-anchor': 'middle', 'font-size': 12}, svg, i + 1);
    for (let j = 0; j < n; j++) {
      const p = r.matrix[i][j], x = label + j * c, y = top + i * c;
      const exact = r.method && r.method[i] && r.method[i][j] === 'exact';
      const cell = s('rect', {x, y, width: c - 1, height: c - 1, class: 'cell', 'data-i': i, 'data-j': j,
        'data-p': p === null ? '' : String(p), 'data-method': exact ? 'exact' : (p === null ? '' : 'simulated'),
        fill: p === null ? '#ddd' : heatColor(p)}, svg);
      if (p === null) continue;
      const ci = r.ci95 && r.ci95[i] && r.ci95[i][j];
      s('title', {}, cell, `${r.dice[i]} beats ${r.dice[j]}: ${p.toFixed(4)} ${iv(ci)} (${exact ? 'exact' : 'simulated'})`);
      if (c >= 30) {
        s('text', {x: x + c / 2, y: y + c / 2 + 4, 'text-anchor': 'middle', 'font-size': c > 40 ? 13 : 10,
          'font-weight': exact ? 'bold' : 'normal', 'pointer-events': 'none'}, svg, p.toFixed(c > 40 ? 3 : 2));
      }
      if (exact) s('circle', {cx: x + c - 6, cy: y + 6, r: 2.5, fill: '#000', 'pointer-events': 'none'}, svg);
    }
  }
  out.append(h('h2', {}, `P(row beats column) · ${r.board} · ${r.profile}`), h('div', {class: 'scroll'}, svg),
    h('p', {class: 'note'}, 'Red: the row die loses, blue: it wins. A dot and bold figures: solved exactly; the rest simulated. Every pair with its interval is listed below.'));
  // Every pair once, with its interval and its games that never end, readable without
  // hovering (phones, projectors).
  const pairs = h('table', {id: 'pairs'}, h('tr', {}, h('th', {class: 'l'}, 'pair'), h('th', {}, 'P(first wins)'),
    h('th', {}, '95 % interval'), h('th', {}, 'never ends'), h('th', {class: 'l'}, 'how')));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const p = r.matrix[i][j];
    if (p === null) continue;
    const exact = r.method && r.method[i] && r.method[i][j] === 'exact';
    const never = r.unfinished && r.unfinished[i] ? r.unfinished[i][j] : null;
    pairs.append(h('tr', {class: 'pair'}, h('td', {class: 'l'}, `${r.dice[i]} vs ${r.dice[j]}`), h('td', {}, f3(p)),
      h('td', {}, exact ? 'exact' : iv(r.ci95 && r.ci95[i] && r.ci95[i][j])),
      h('td', {}, never === null ? '–' : never > 0 ? `${(100 * never).toFixed(1)} %` : '0'),
      h('td', {class: 'l'}, exact ? 'solved exactly' : 'simulated')));
  }
  out.append(h('h2', {}, 'Pairs'), h('div', {class: 'scroll'}, pairs));
  const t = h('table', {id: 'ranking'}, h('tr', {}, h('th', {}, '#'), h('th', {class: 'l'}, 'die'),
    h('th', {}, 'mean P(win)'), h('th', {class: 'l'}, 'beats'), h('th', {class: 'l'}, 'undecided')));
  const names = v => Array.isArray(v) ? v.join('; ') : String(v);
  r.ranking.forEach((x, k) => t.append(h('tr', {}, h('td', {}, k + 1), h('td', {class: 'l'}, x.die),
    h('td', {}, f3(x.mean_p)), h('td', {class: 'l'}, names(x.beaten)), h('td', {class: 'l'}, names(x.undecided)))));
  out.append(h('h2', {}, 'Ranking'), h('div', {class: 'scroll'}, t));
  if (r.cycles && r.cycles.length) out.append(h('p', {}, 'Intransitive: ' + r.cycles.map(c3 => c3.join(' > ')).join('; ')));
  if (r.notes && r.notes.length) out.append(h('p', {class: 'note'}, r.notes.join(' ')));
}

$('duel-form').addEventListener('submit', async e => {
  e.preventDefault();
  const o = commonOptions();
  o.a = $('duel-a').value.trim(); o.b = $('duel-b').value.trim();
  $('duel-go').disabled = true;
  setMsg('duel-out', 'playing…');
  try {
    const d = await stream('duel', o, p => setMsg('duel-out', `${p.games.toLocaleString()} games…`)).promise;
    const out = $('duel-out');
    out.textContent = '';
    out.append(h('p', {class: 'status', id: 'duel-p'}, `P(A wins) = ${f3(d.p_a)} ${iv(d.ci95)} (95 %)`),
      h('p', {}, `If A starts: ${f3(d.p_a_if_a_starts)} · if B starts: ${f3(d.p_a_if_b_starts)} · ` +
        `${d.games.toLocaleString()} games, ${d.unfinished} unfinished, ${d.board} ${d.profile}`),
      h('details', {}, h('summary', {}, 'The result as JSON (as duel --format json prints it)'),
        h('pre', {id: 'result'}, JSON.stringify(d, null, 2))));
  } catch (err) {
    setMsg('duel-out', err.message, true);
  } finally {
    $('duel-go').disabled = false;
  }
});

// ---- the board drawing
// geom: {track, starts: [ring index of each seat's start field], pieces, goal}
function geometry(track, starts, pieces, goal) {
  const R = 150, cx = 200, cy = 200;
  const ang = i => Math.PI / 2 + 2 * Math.PI * i / track;
  const fr = Math.min(12, Math.PI * R / track * 0.8);
  return {
    track, starts, pieces, goal, fr,
    ring: i => [cx + R * Math.cos(ang(i)), cy + R * Math.sin(ang(i))],
    lane: (seat, j) => {
      const a = ang(starts[seat] - 0.5), r = R - (j + 1) * Math.min(2.4 * fr, (R - 20) / (goal + 0.5));
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    },
    label: seat => {
      const r = R + 1.2 * fr + 16, a = ang(starts[seat]) + ((pieces + 1) / 2 + 0.4) * 2.3 * fr / r;
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    },
    home: (seat, k) => {
      const r = R + 1.2 * fr + 16, a = ang(starts[seat]) + (k - (pieces - 1) / 2) * 2.3 * fr / r;
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    },
  };
}

// The classic cross-shaped board of 40 fields on an 11 x 11 grid, for 40-field boards with
// up to 4 pieces and 4 goal fields whose seats start a quarter apart; the same interface as
// geometry(). PATH is the track from the bottom arm's start field (A's), clockwise.
const CROSS_PATH = (() => {
  const path = [];
  const run = (x, y, dx, dy, n) => { for (let k = 0; k < n; k++) path.push([x + k * dx, y + k * dy]); };
  run(4, 10, 0, -1, 5); run(3, 6, -1, 0, 4); run(0, 5, 0, -1, 1);
  run(0, 4, 1, 0, 5); run(4, 3, 0, -1, 4); run(5, 0, 1, 0, 1);
  run(6, 0, 0, 1, 5); run(7, 4, 1, 0, 4); run(10, 5, 0, 1, 1);
  run(10, 6, -1, 0, 5); run(6, 7, 0, 1, 4); run(5, 10, -1, 0, 1);
  return path;
})();
// Per quarter of the track (the seat's start field / 10): the goal lane's first field and
// its direction, the waiting area's corner and the label's cell.
const CROSS_QUARTERS = [
  {lane: [5, 9, 0, -1], home: [0, 9], label: [2.4, 10]},
  {lane: [1, 5, 1, 0], home: [0, 0], label: [0, 2.4]},
  {lane: [5, 1, 0, 1], home: [9, 0], label: [7.6, 0]},
  {lane: [9, 5, -1, 0], home: [9, 9], label: [10, 7.6]},
];
function crossFits(track, starts, pieces, goal) {
  return track === 40 && pieces <= 4 && goal <= 4 && starts.every(st => st % 10 === 0);
}
function crossGeometry(track, starts, pieces, goal) {
  const cell = 400 / 11, at = ([x, y]) => [(x + 0.5) * cell, (y + 0.5) * cell];
  const quarter = seat => CROSS_QUARTERS[starts[seat] / 10];
  return {
    track, starts, pieces, goal, fr: cell * 0.44, cross: true,
    ring: i => at(CROSS_PATH[i % 40]),
    lane: (seat, j) => { const [x, y, dx, dy] = quarter(seat).lane; return at([x + j * dx, y + j * dy]); },
    label: seat => at(quarter(seat).label),
    home: (seat, k) => { const [x, y] = quarter(seat).home; return at([x + k % 2, y + Math.floor(k / 2)]); },
  };
}
// The board people know where it fits, else the ring.
function boardGeometry(track, starts, pieces, goal) {
  return crossFits(track, starts, pieces, goal) ? crossGeometry(track, starts, pieces, goal)
    : geometry(track, starts, pieces, goal);
}

// A seat's pieces as play writes them ("B:2 A 17 c") on the drawing: waiting, ring, goal.
function placed(text, seat, g) {
  const parts = text.trim().split(/\s+/), d = {waiting: 0, track: [], goal: []};
  for (const p of parts) {
    if (p.startsWith('B:')) d.waiting = Number(p.slice(2));
    else if (p === 'A') d.track.push(g.starts[seat] % g.track);
    else if (/^\d+$/.test(p)) d.track.push((Number(p) + g.starts[seat]) % g.track);
    else d.goal.push(p.charCodeAt(0) - 97);
  }
  return d;
}
// A field name in seat's own numbering → a drawing key ("w", "t<ring>", "g<index>").
function fieldKey(name, seat, g) {
  if (name === 'B') return 'w';
  if (name === 'A') return 't' + (g.starts[seat] % g.track);
  if (/^\d+$/.test(name)) return 't' + ((Number(name) + g.starts[seat]) % g.track);
  return 'g' + (name.charCodeAt(0) - 97);
}

// opts: {movable: {key: from} for seat opts.seat, targets: [[seat, key]], onMove(from)}
function drawBoard(svg, g, seats, opts) {
  opts = opts || {};
  svg.textContent = '';
  svg.setAttribute('data-shape', g.cross ? 'cross' : 'ring');
  const fr = g.fr;
  for (let i = 0; i < g.track; i++) {
    const [x, y] = g.ring(i), seat = g.starts.indexOf(i);
    s('circle', {cx: x, cy: y, r: fr, fill: seat >= 0 ? LIGHT[seat] : '#fff',
      stroke: seat >= 0 ? COLORS[seat] : '#999', 'stroke-width': seat >= 0 ? 2.5 : 1}, svg);
    const own = (i - g.starts[opts.seat || 0] + g.track) % g.track;  // the player's own numbering
    const size = g.cross ? 11 : 9;
    if (fr >= 8) s('text', {x, y: y + size * 0.38, 'text-anchor': 'middle', 'font-size': size, fill: '#999'}, svg, own || 'A');
  }
  g.starts.forEach((st, seat) => {
    for (let j = 0; j < g.goal; j++) {
      const [x, y] = g.lane(seat, j);
      s('circle', {cx: x, cy: y, r: fr * 0.9, fill: LIGHT[seat], stroke: COLORS[seat]}, svg);
    }
    for (let k = 0; k < g.pieces; k++) {
      const [x, y] = g.home(seat, k);
      s('circle', {cx: x, cy: y, r: fr * 0.8, fill: 'none', stroke: COLORS[seat], 'stroke-dasharray': '2 2'}, svg);
    }
    const [x, y] = g.label(seat);
    s('text', {x, y: y + 5, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 'bold', fill: COLORS[seat]}, svg, SEATS[seat]);
  });
  const pos = (seat, key, k) => key === 'w' ? g.home(seat, k) : key[0] === 't' ? g.ring(Number(key.slice(1))) : g.lane(seat, Number(key.slice(1)));
  for (const [seat, key] of opts.targets || []) {
    const [x, y] = pos(seat, key, 0);
    s('circle', {cx: x, cy: y, r: fr + 3, class: 'target'}, svg);
  }
  const movable = [];
  seats.forEach((d, seat) => {
    if (!d) return;
    const keys = [];
    for (let k = 0; k < d.waiting; k++) keys.push(['w', k]);
    d.track.forEach(t => keys.push(['t' + t, 0]));
    d.goal.forEach(j => keys.push(['g' + j, 0]));
    for (const [key, k] of keys) {
      const [x, y] = pos(seat, key, k);
      const from = opts.movable && seat === opts.seat && (key !== 'w' || k === d.waiting - 1) ? opts.movable[key] : undefined;
      s('circle', {cx: x, cy: y, r: fr * 0.68, fill: COLORS[seat], class: 'piece' + (from !== undefined ? ' can-move' : ''),
        'data-seat': SEATS[seat], 'data-field': key}, svg);
      if (from !== undefined) movable.push([x, y, from, key]);
    }
  });
  // Over each piece that may move, a transparent target at least 48 units across (over 40 px
  // where the board is 340 px wide or more, as on a 390 px phone): it takes the click.
  for (const [x, y, from, key] of movable) {
    const hit = s('circle', {cx: x, cy: y, r: Math.max(fr, 24), class: 'piece movable hit', 'data-from': from,
      'data-seat': SEATS[opts.seat], 'data-field': key}, svg);
    s('title', {}, hit, `move ${from}`);
    hit.addEventListener('click', () => opts.onMove(from));
  }
}

// An empty board until a game is loaded.
for (const id of ['game-svg', 'rp-svg']) {
  const g = geometry(16, [0, 8], 2, 2);
  drawBoard($(id), g, [0, 1].map(k => placed('B:1 A', k, g)));
}

// ---- Board: a game against the server
let game = null, lastGame = null;
function gameGeometry(st) {
  return boardGeometry(st.track, st.starts, st.pieces, st.goal_fields);
}
// Players that play only games of two (the optimal pair's policy, the searching players):
// not offered at a table of three or four.
const TWO_ONLY = ['optimal', 'strong-search', 'strong-search-2', 'strong-search-3'];
function offerFor(select, players) {
  for (const option of select.options) {
    option.disabled = players > 2 && TWO_ONLY.includes(option.value);
  }
  if (select.selectedOptions[0].disabled) select.value = 'strong';
}
function showSeats(players, form, tableClass, fourClass) {
  form.querySelectorAll('.' + tableClass).forEach(e => { e.hidden = players < 3; });
  form.querySelectorAll('.' + fourClass).forEach(e => { e.hidden = players < 4; });
}
$('game-players').addEventListener('change', () => {
  const players = Number($('game-players').value);
  showSeats(players, $('game-form'), 'table-only', 'four-only');
  $('game-form').querySelectorAll('.two-only').forEach(e => { e.hidden = players > 2; });
  offerFor($('game-opponent'), players);
});
$('game-form').addEventListener('submit', async e => {
  e.preventDefault();
  const players = Number($('game-players').value);
  const o = Object.assign(boardOpts($('game-board').value), {profile: $('game-profile').value,
    opponent: $('game-opponent').value});
  if (players > 2) {
    // At a table you sit in seat A, which moves first; the other seats play the opponent.
    o.players = players;
    o.die = ['game-a', 'game-b', 'game-c', 'game-d'].slice(0, players).map(id => $(id).value.trim());
  } else {
    Object.assign(o, {a: $('game-a').value.trim(), b: $('game-b').value.trim(), first: $('game-first').value,
      seat: $('game-seat').value});
  }
  try {
    game = await post('games', o);
    $('advice').textContent = '';
    renderGame();
  } catch (err) {
    setMsg('game-status', err.message, true);
  }
});
function describeTurn(t) {
  const m = t.move ? `${t.move.from}→${t.move.to}` : 'no move';
  return `${t.player} rolled ${t.face}: ${m}${t.captured ? ' (captures)' : ''}${t.winner ? ' — wins' : ''}`;
}
function renderGame() {
  const st = game, g = gameGeometry(st), you = SEATS.indexOf(st.you);
  // The review takes games of two: a table's game is not offered to it.
  if (st.players === 2) {
    lastGame = {dice: st.dice, board: st.board, profile: st.profile, turns: st.turns,
      start: {A: `B:${st.pieces - 1} A`, B: `B:${st.pieces - 1} A`}, you: st.you};
  }
  const movable = {}, targets = [];
  for (const m of st.legal) {
    movable[fieldKey(m.from, you, g)] = m.from;
    targets.push([you, fieldKey(m.to, you, g)]);
  }
  const seats = SEATS.slice(0, st.players).map(seat => st.drawing[seat]);
  const move = from => playMove(from);
  drawBoard($('game-svg'), g, seats, {seat: you, movable, targets, onMove: move});
  const legal = $('game-legal');
  legal.textContent = '';
  if (st.end) {
    const text = st.winner ? `Game over: ${st.winner} wins${st.winner === st.you ? ' — you won!' : ''}` : `Game over (${st.end})`;
    setMsg('game-status', text);
    $('game-status').setAttribute('data-winner', st.winner || st.end);
  } else {
    $('game-status').removeAttribute('data-winner');
    $('game-status').textContent = '';
    $('game-status').append(`You (${st.you}, ${st.dice[you]}) rolled `, h('span', {class: 'die', id: 'game-roll'}, st.roll),
      ' — click a piece with a thick outline.');
    for (const m of st.legal) legal.append(h('button', {'data-from': m.from, onclick: () => move(m.from)}, `${m.from}→${m.to}`));
  }
  // The advisor and the review value games of two.
  const table = st.players > 2;
  $('advise-go').disabled = !!st.end || table;
  $('advise-go').title = table ? 'The advisor values games of two players.' : '';
  $('game-review').disabled = table || !st.turns.some(t => t.player === st.you && t.choices.length > 1);
  const since = [];
  for (let i = st.turns.length - 1; i >= 0 && since.length < 8; i--) {
    since.unshift(describeTurn(st.turns[i]));
    if (st.turns[i].player === st.you && st.turns[i].choices.length) break;
  }
  $('game-last').textContent = since.join(' · ');
}
// Full screen for a projector: the board and its panel fill the screen.
$('game-full').addEventListener('click', () => {
  const game = document.querySelector('#board .game');
  if (document.fullscreenElement) document.exitFullscreen(); else game.requestFullscreen().catch(() => {});
});
let moving = false;
async function playMove(from) {
  if (moving || !game || game.end) return;
  moving = true;
  try {
    game = await post(`games/${game.id}/move`, {from});
    $('advice').textContent = '';
    renderGame();
  } catch (err) {
    setMsg('game-status', err.message, true);
  } finally {
    moving = false;
  }
}

// A seat's pieces ("B:2 A 17 c") as advise's field list ("A,17,c"; "-" for none).
const fieldList = text => text.trim().split(/\s+/).filter(t => !t.startsWith('B:')).join(',') || '-';
const positionOf = (pieces, turn) => `A:${fieldList(pieces.A)} B:${fieldList(pieces.B)} turn:${turn}`;
const withChoice = p => p.includes('choice') ? p : p + '+choice';

// `reduce`: rollouts less the luck of their rolls as the learned player judges it, where one
// plays the game (the same values with far less noise; plain rollouts elsewhere).
function adviseOptions(dice, board, profile, pieces, turn, face, rollouts, reduce) {
  return Object.assign(boardOpts(board), {a: dice[0], b: dice[1], profile: withChoice(profile),
    position: positionOf(pieces, turn), face, rollouts}, reduce ? {'variance-reduction': 'auto'} : {});
}
// The standard normal quantile at p (0 < p < 1): Acklam's rational approximation, relative
// error below 1.2e-9, ample for an interval's width.
function normalQuantile(p) {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = q => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}
// P(seat wins) from advise's value P(A wins) - P(B wins) (and its interval).
function pWin(value, seat) { return seat === 'A' ? (1 + value) / 2 : (1 - value) / 2; }
function pInterval(i, seat) { return seat === 'A' ? [pWin(i[0], 'A'), pWin(i[1], 'A')] : [pWin(i[1], 'B'), pWin(i[0], 'B')]; }

$('advise-go').addEventListener('click', async () => {
  if (!game || game.end) return;
  const st = game, out = $('advice');
  out.textContent = 'thinking…';
  $('advise-go').disabled = true;
  try {
    const a = await post('advise', adviseOptions(st.dice, st.board, st.profile, st.position, st.you, st.roll,
      Number($('advise-games').value)));
    out.textContent = '';
    const scored = a.method !== 'evaluator' && a.moves.some(m => m.strong != null);
    const t = h('table', {id: 'advice-table'}, h('tr', {}, h('th', {class: 'l'}, 'move'), h('th', {}, `P(${st.you} wins)`),
      h('th', {}, {exact: 'certified bounds', evaluator: 'no interval'}[a.method] || '95 % interval'),
      ...(scored ? [h('th', {}, 'strong’s estimate')] : []), h('th', {}, '')));
    for (const m of a.moves) {
      t.append(h('tr', {class: m.best ? 'best' : ''}, h('td', {class: 'l'}, `${m.from}→${m.to}`),
        h('td', {class: 'value'}, pWin(m.value, st.you).toFixed(4)),
        h('td', {}, m.interval ? iv4(pInterval(m.interval, st.you)) : '—'),
        ...(scored ? [h('td', {}, m.strong == null ? '' : pWin(m.strong, st.you).toFixed(4))] : []),
        h('td', {}, m.best ? (a.method === 'evaluator' ? 'strong’s choice' : 'best') : '')));
    }
    const how = {exact: 'Exact: both play optimally after the move.',
      evaluator: `Scored by the learned player ${a.scored_by} alone: estimates, not measurements.`}[a.method]
      || `Simulated: ${a.games} games per move, then ${a.strategies.join(' vs ')}.`;
    out.append(t, h('p', {class: 'note'}, how + (scored ? ` “strong’s estimate”: the learned player’s own score of each move.` : '')));
    if (a.undecided && a.undecided.length) {
      out.append(h('p', {class: 'note'}, `No move is best beyond doubt: the intervals of ${a.undecided.join(', ')} overlap`
        + (a.method === 'exact' ? '.' : '; more games would tell them apart.')));
    }
  } catch (err) {
    out.textContent = sentence(err.message);
  } finally {
    $('advise-go').disabled = !game || !!game.end;
  }
});

// ---- Board: replay a seeded game, or watch two strategies
let replay = null, frame = 0, timer = null;
$('replay-form').addEventListener('submit', async e => {
  e.preventDefault();
  stopPlaying();
  const players = Number($('rp-players').value);
  const o = Object.assign(boardOpts($('rp-board').value), {a: $('rp-a').value.trim(), b: $('rp-b').value.trim(),
    seed: Number($('rp-seed').value), profile: $('rp-profile').value});
  if (o.profile === 'bwinf') o.profile = 'choice';
  ['a', 'b', 'c', 'd'].slice(0, players).forEach(seat => { o['strategy-' + seat] = $('rp-s' + seat).value; });
  if (players > 2) {
    o.players = players;
    o.die = $('rp-more').value.trim().split(/\s+/).slice(0, players - 2);
  }
  try {
    replay = await post('play', o);
    const [track, offset, pieces, goal] = replay.board.split('/').map(Number);
    const n = replay.dice.length;
    const starts = n === 2 ? [0, offset] : [...Array(n).keys()].map(k => Math.floor(k * track / 4));
    replay.geom = boardGeometry(track, starts, pieces, goal);
    $('rp-pos').max = replay.turns.length;
    $('rp-review').disabled = n !== 2;
    showFrame(0);
  } catch (err) {
    setMsg('rp-status', err.message, true);
  }
});
$('rp-players').addEventListener('change', () => {
  const players = Number($('rp-players').value);
  showSeats(players, $('replay-form'), 'rp-table', 'rp-four');
  ['rp-sa', 'rp-sb', 'rp-sc', 'rp-sd'].forEach(id => offerFor($(id), players));
});
function showFrame(k) {
  if (!replay) return;
  frame = Math.max(0, Math.min(k, replay.turns.length));
  $('rp-pos').value = frame;
  const g = replay.geom, pieces = frame ? replay.turns[frame - 1].pieces : replay.start;
  const seats = replay.dice.map((_, i) => placed(pieces[SEATS[i]], i, g));
  const t = frame ? replay.turns[frame - 1] : null, targets = [];
  if (t && t.move) targets.push([SEATS.indexOf(t.player), fieldKey(t.move.to, SEATS.indexOf(t.player), g)]);
  drawBoard($('rp-svg'), g, seats, {targets});
  const who = replay.strategies ? replay.dice.map((d, i) => `${SEATS[i]} ${d} (${replay.strategies[i]})`) : replay.dice.map((d, i) => `${SEATS[i]} ${d}`);
  let text = `${who.join(' vs ')} · roll ${frame} of ${replay.turns.length}`;
  if (t) text += ` · ${describeTurn(t)}${t.choices.length ? ` (choices ${t.choices.join(', ')})` : ''}`;
  if (frame === replay.turns.length) text += ` · end: ${replay.end}${replay.winner ? ', winner ' + replay.winner : ''}`;
  setMsg('rp-status', text);
}
function stopPlaying() { clearInterval(timer); timer = null; $('rp-play').textContent = 'Play'; }
$('rp-first').addEventListener('click', () => { stopPlaying(); showFrame(0); });
$('rp-back').addEventListener('click', () => { stopPlaying(); showFrame(frame - 1); });
$('rp-fwd').addEventListener('click', () => { stopPlaying(); showFrame(frame + 1); });
$('rp-pos').addEventListener('input', () => { stopPlaying(); showFrame(Number($('rp-pos').value)); });
$('rp-play').addEventListener('click', () => {
  if (timer) return stopPlaying();
  if (!replay) return;
  if (frame >= replay.turns.length) showFrame(0);
  $('rp-play').textContent = 'Pause';
  timer = setInterval(() => { if (frame >= replay.turns.length) stopPlaying(); else showFrame(frame + 1); }, 350);
});
$('rp-review').addEventListener('click', () => {
  if (!replay) return;
  $('review-text').value = JSON.stringify({dice: replay.dice, board: replay.board, profile: replay.profile,
    start: replay.start, turns: replay.turns, end: replay.end, winner: replay.winner});
  showTab('review');
});

$('game-review').addEventListener('click', () => {
  $('review-text').value = '';
  $('review-player').value = game.you;
  showTab('review');
  $('review-go').click();
});

// ---- Review: every decision of one player, with what it gave away
let reviewStop = false;
$('review-cancel').addEventListener('click', () => { reviewStop = true; });
$('review-go').addEventListener('click', async () => {
  let trace;
  try {
    trace = $('review-text').value.trim() ? JSON.parse($('review-text').value) : lastGame;
  } catch (err) {
    return setMsg('review-msg', 'not JSON: ' + err.message, true);
  }
  if (!trace || !trace.turns) return setMsg('review-msg', 'play a game on the Board page first, or paste a trace', true);
  if (trace.dice.length !== 2) return setMsg('review-msg', 'the advisor knows two players only', true);
  const player = $('review-player').value, games = Number($('review-games').value);
  const decisions = [];
  trace.turns.forEach((t, i) => {
    if (t.player === player && t.move && t.choices.length > 1) decisions.push({t, before: i ? trace.turns[i - 1].pieces : trace.start});
  });
  const out = $('review-out'), table = h('table', {id: 'review-table'}, h('tr', {}, h('th', {}, 'roll'), h('th', {}, 'face'),
    h('th', {class: 'l'}, 'made'), h('th', {class: 'l'}, 'best'), h('th', {}, 'P(win) made'), h('th', {}, 'P(win) best'),
    h('th', {}, 'given away'), h('th', {class: 'l'}, 'method')));
  out.textContent = '';
  $('review-chart').textContent = '';
  out.append(h('div', {class: 'scroll'}, table));
  if (!decisions.length) return setMsg('review-msg', `${player} made no decision in this game`);
  reviewStop = false;
  $('review-go').disabled = true; $('review-cancel').disabled = false;
  const points = [];
  // Only a choice the advice shows to be worse beyond doubt is a mistake; a gap within the
  // noise is shown but not charged. Exact: the certified intervals do not overlap.
  // Simulated: the made move's gap to the leading move, measured on the same dice, lies
  // above 0 with its interval widened (Bonferroni) so that all the game's comparisons
  // together err with at most 5 %: a review of a good player charges nothing by chance.
  let lost = 0, lostLo = 0, lostHi = 0, mistakes = 0, noise = 0, reduced = 0;
  const seen = m => pInterval(m.interval || [m.value, m.value], player);
  const comparisons = decisions.reduce((n, d) => n + d.t.choices.length - 1, 0);
  const z = normalQuantile(1 - 0.05 / (2 * Math.max(1, comparisons)));
  try {
    for (const [k, d] of decisions.entries()) {
      if (reviewStop) { setMsg('review-msg', `stopped after ${k} of ${decisions.length}`); break; }
      setMsg('review-msg', `decision ${k + 1} of ${decisions.length}…`);
      const a = await post('advise', adviseOptions(trace.dice, trace.board, trace.profile, d.before, player, d.t.face, games, $('review-reduce').checked));
      if (a.variance_reduced) reduced += 1;
      const made = a.moves.find(m => m.from === d.t.move.from) || a.moves[0];
      const best = a.moves.reduce((x, m) => pWin(m.value, player) > pWin(x.value, player) ? m : x);
      const pm = pWin(made.value, player), pb = pWin(best.value, player);
      let away, awayIv, beyond;
      if (made.gap) {
        // The gap is in the value's units, P(A wins) - P(B wins): half of it in P(win).
        const g = made.gap;
        away = Math.max(0, g.mean) / 2;
        awayIv = [(g.mean - z * g.standard_error) / 2, (g.mean + z * g.standard_error) / 2];
        beyond = made !== best && awayIv[0] > 0;
      } else {
        const [bi, mi] = [seen(best), seen(made)];
        away = Math.max(0, pb - pm);
        awayIv = [bi[0] - mi[1], bi[1] - mi[0]];
        beyond = made !== best && bi[0] > mi[1];
      }
      if (beyond) { mistakes += 1; lost += away; lostLo += awayIv[0]; lostHi += awayIv[1]; }
      else if (away > 0) noise += 1;
      points.push({roll: d.t.roll, p: pm, i: pInterval(made.interval, player)});
      const exact = a.method === 'exact';
      table.append(h('tr', {class: beyond ? 'bad decision' : 'decision'}, h('td', {}, d.t.roll), h('td', {}, d.t.face),
        h('td', {class: 'l'}, `${made.from}→${made.to}`), h('td', {class: 'l'}, made === best || pb - pm <= 0 ? 'same' : `${best.from}→${best.to}`),
        h('td', {}, exact ? pm.toFixed(4) : `${pm.toFixed(3)} ${iv(pInterval(made.interval, player))}`), h('td', {}, pb.toFixed(4)),
        h('td', {}, beyond ? away.toFixed(4) : away > 0 ? `${away.toFixed(4)}, within noise` : '0'),
        h('td', {class: 'l'}, exact ? 'exact' : `simulated, ${a.games} games${a.variance_reduced ? ', variance-reduced' : ''}`)));
      drawChart(points, trace.turns.length, player);
    }
    if (!reviewStop) setMsg('review-msg', `${decisions.length} decisions of ${player}; mistakes beyond doubt: ${mistakes}, ` +
      `P(win) given away by them: ${lost.toFixed(4)} [${lostLo.toFixed(4)}, ${lostHi.toFixed(4)}]; ${noise} gaps within noise (not charged)` +
      (comparisons > 1 ? `; simulated moves compared on the same dice, ${comparisons} comparisons together at 95 %` : '') +
      (reduced ? `; ${reduced} decisions variance-reduced by the learned player's judgement of the rolls' luck` : ''));
  } catch (err) {
    setMsg('review-msg', err.message, true);
  } finally {
    $('review-go').disabled = false; $('review-cancel').disabled = true;
  }
});
function drawChart(points, rolls, player) {
  const W = 640, H = 230, L = 36, B = 34, x = r => L + (W - L - 10) * r / Math.max(1, rolls), y = p => 8 + (H - B - 8) * (1 - p);
  const svg = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'chart', id: 'review-svg'});
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    s('line', {x1: L, x2: W - 10, y1: y(p), y2: y(p), stroke: p === 0.5 ? '#999' : '#ddd'}, svg);
    s('text', {x: L - 4, y: y(p) + 4, 'text-anchor': 'end', 'font-size': 11}, svg, p);
  }
  const step = Math.max(1, Math.ceil(rolls / 10 / 5) * 5);
  for (let r = 0; r <= rolls; r += step) s('text', {x: x(r), y: H - B + 12, 'text-anchor': 'middle', 'font-size': 10, fill: '#777'}, svg, r);
  s('text', {x: W / 2, y: H - 1, 'text-anchor': 'middle', 'font-size': 11}, svg, `roll (of ${rolls}) · P(${player} wins) after each decision`);
  for (const p of points) s('line', {x1: x(p.roll), x2: x(p.roll), y1: y(p.i[0]), y2: y(p.i[1]), stroke: '#9ab'}, svg);
  s('polyline', {points: points.map(p => `${x(p.roll)},${y(p.p)}`).join(' '), fill: 'none', stroke: COLORS[SEATS.indexOf(player)], 'stroke-width': 2}, svg);
  for (const p of points) s('circle', {cx: x(p.roll), cy: y(p.p), r: 3, fill: COLORS[SEATS.indexOf(player)]}, svg);
  $('review-chart').textContent = '';
  $('review-chart').append(svg);
}

// ---- Search: the landscape of a family
$('search-file').addEventListener('change', async () => {
  const file = $('search-file').files[0];
  if (file) { $('search-text').value = await file.text(); showSearch(); }
});
$('search-go').addEventListener('click', showSearch);
function showSearch() {
  let r;
  try { r = JSON.parse($('search-text').value); } catch (err) { return setMsg('search-msg', 'not JSON: ' + err.message, true); }
  if (!r || !Array.isArray(r.dice)) return setMsg('search-msg', 'no "dice" list: is this search --format json output?', true);
  const marks = {};
  const mark = (die, m) => { if (die) (marks[die] = marks[die] || []).push(m); };
  mark(r.best_mean && r.best_mean.die, 'best mean');
  mark(r.condorcet, 'Condorcet');
  mark(r.maximin && r.maximin.die, 'maximin');
  const dice = r.dice.slice().sort((a, b) => b.mean_p - a.mean_p).map(d => {
    const half = 1.96 * Math.sqrt(Math.max(d.mean_p * (1 - d.mean_p), 1e-12) / Math.max(d.games, 1));
    const exact = r.best_mean && d.die === r.best_mean.die && r.best_mean.ci95;
    return Object.assign({}, d, {iv: exact || [Math.max(0, d.mean_p - half), Math.min(1, d.mean_p + half)]});
  });
  const n = dice.length, W = 720, H = 300, L = 40, B = 26, x = k => L + (W - L - 10) * (k + 0.5) / n, y = p => 10 + (H - B - 10) * (1 - p);
  const svg = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'chart', id: 'landscape'});
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    s('line', {x1: L, x2: W - 10, y1: y(p), y2: y(p), stroke: '#ddd'}, svg);
    s('text', {x: L - 4, y: y(p) + 4, 'text-anchor': 'end', 'font-size': 11}, svg, p);
  }
  s('text', {x: W / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 11}, svg, `${n} dice, sorted by mean P(win) (bars: ≈95 % interval)`);
  if (n <= 1500) dice.forEach((d, k) => s('line', {x1: x(k), x2: x(k), y1: y(d.iv[0]), y2: y(d.iv[1]), stroke: '#9ab'}, svg));
  s('polyline', {points: dice.map((d, k) => `${x(k).toFixed(1)},${y(d.mean_p).toFixed(1)}`).join(' '), fill: 'none', stroke: '#2b3a4a', 'stroke-width': 1.5}, svg);
  const markColor = {'best mean': '#e67e22', Condorcet: '#8e44ad', maximin: '#16a085'};
  dice.forEach((d, k) => (marks[d.die] || []).forEach((m, q) => {
    const c = s('circle', {cx: x(k), cy: y(d.mean_p), r: 6 + 3 * q, fill: 'none', stroke: markColor[m], 'stroke-width': 2.5}, svg);
    s('title', {}, c, `${d.die}: ${m}`);
  }));
  let lx = L + 10;
  for (const [m, c] of Object.entries(markColor)) {
    s('circle', {cx: lx, cy: H - B - 14, r: 5, fill: 'none', stroke: c, 'stroke-width': 2.5}, svg);
    s('text', {x: lx + 9, y: H - B - 10, 'font-size': 11}, svg, m);
    lx += 90;
  }
  const out = $('search-out');
  out.textContent = '';
  const st = [`${r.family_description || n + ' dice'} · board ${r.board} · ${r.profile}`,
    `best mean: ${r.best_mean ? `${r.best_mean.die} ${f3(r.best_mean.mean_p)} ${iv(r.best_mean.interval)} (${r.best_mean.status})` : '–'}`,
    `Condorcet: ${r.condorcet || 'none'} (${r.condorcet_status})`,
    `maximin: ${r.maximin ? `${r.maximin.die} worst ${f3(r.maximin.worst_p)} (${r.maximin.status})` : '–'}`,
    `${(r.games || 0).toLocaleString()} games`];
  out.append(h('p', {}, st.join(' · ')), h('div', {class: 'scroll'}, svg));
  const t = h('table', {id: 'landscape-table'}, h('tr', {}, h('th', {}, '#'), h('th', {class: 'l'}, 'die'), h('th', {}, 'mean P(win)'),
    h('th', {}, '≈95 %'), h('th', {}, 'worst P'), h('th', {}, 'games'), h('th', {class: 'l'}, '')));
  dice.forEach((d, k) => {
    if (k >= 30 && !marks[d.die]) return;
    t.append(h('tr', {class: marks[d.die] ? 'best' : ''}, h('td', {}, k + 1), h('td', {class: 'l'}, d.die), h('td', {}, f3(d.mean_p)),
      h('td', {}, iv4(d.iv)), h('td', {}, f3(d.worst_p)), h('td', {}, d.games.toLocaleString()), h('td', {class: 'l'}, (marks[d.die] || []).join(', '))));
  });
  out.append(h('div', {class: 'scroll'}, t), h('p', {class: 'note'}, 'The top 30 and the marked dice; the intervals are normal approximations from each die\'s games (the best-mean die\'s is its confidence sequence).'));
  setMsg('search-msg', `${n} dice`);
}

// ---- a duel named in the address, played when the page opens:
// #duel=A;B (or #duel=1..6,1,1,1,6,6,6, where a range such as 1..6 is a die of its own)
// &games=N&seed=S&board=40/20/4/4&profile=bwinf; the result shows as JSON in #result.
function duelOfAddress(text) {
  if (text.includes(';')) return text.split(';');
  const tokens = text.split(',');
  const range = t => t.includes('..');
  if (tokens.length > 1 && range(tokens[0])) return [tokens[0], tokens.slice(1).join(',')];
  if (tokens.length > 1 && range(tokens[tokens.length - 1])) {
    return [tokens.slice(0, -1).join(','), tokens[tokens.length - 1]];
  }
  return null;
}
function runFromAddress() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (!q.has('duel')) return;
  showTab('dice');
  const dice = duelOfAddress(q.get('duel'));
  if (!dice || dice.length !== 2) {
    setMsg('duel-out', `The address names the duel "${q.get('duel')}", which is not two dice: ` +
      'write them as #duel=A;B, for example #duel=1..6;1,1,1,6,6,6.', true);
    return;
  }
  [$('duel-a').value, $('duel-b').value] = dice;
  if (q.has('board')) $('board-preset').value = q.get('board');
  if (q.has('profile')) $('rank-profile').value = q.get('profile');
  if (q.has('seed')) $('seed').value = q.get('seed');
  if (q.has('games')) { $('stop-kind').value = 'games'; $('stop-value').value = q.get('games'); }
  $('duel-form').requestSubmit();
}
runFromAddress();
window.addEventListener('hashchange', runFromAddress);
