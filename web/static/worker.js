// The static site's worker: wuerfelglueck in WebAssembly answering the pages' calls, as the
// server's API does (POST /api/COMMAND, the game protocol, the example files).
import init, {execute, examples, Game} from './wuerfelglueck_web.js';

const ready = init();

// The games of this page, by id; the oldest is dropped beyond MAX_GAMES.
const MAX_GAMES = 20;
const games = new Map();

function randomHex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), b => b.toString(16).padStart(2, '0')).join('');
}

// A game's rolls come from the browser's cryptographic generator: none can be foreseen.
function newSeed() {
  return crypto.getRandomValues(new BigUint64Array(1))[0];
}

function answer(path, body, progress) {
  if (path === 'examples') return JSON.parse(examples());
  if (path === 'games') {
    const id = randomHex(16);
    const game = new Game(id, JSON.stringify(body || {}), newSeed());
    games.set(id, game);
    if (games.size > MAX_GAMES) {
      const [oldest] = games.keys();
      games.get(oldest).free();
      games.delete(oldest);
    }
    return JSON.parse(game.view());
  }
  const m = /^games\/([^/]+)(\/move)?$/.exec(path);
  if (m) {
    const game = games.get(m[1]);
    if (!game) throw new Error(`no game ${m[1].slice(0, 40)} here (it ended long ago, or never was)`);
    if (!m[2]) return JSON.parse(game.view());
    const keys = Object.keys(body || {});
    if (typeof (body || {}).from !== 'string' || keys.length !== 1) {
      throw new Error('expected {"from": FIELD}: the field of the piece to move, B for the waiting area');
    }
    return JSON.parse(game.move(body.from));
  }
  return JSON.parse(execute(path, JSON.stringify(body || {}), progress));
}

onmessage = async ({data: {id, path, body}}) => {
  try {
    await ready;
    const progress = (games, message) => postMessage({id, progress: {games, message}});
    postMessage({id, result: answer(path, body, progress)});
  } catch (e) {
    postMessage({id, error: e instanceof Error ? e.message : String(e)});
  }
};
