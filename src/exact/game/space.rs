//! The state space of the game with choices: both players' configurations, every legal move
//! of every configuration and face tabulated once, and the joint index
//! `(configuration of A, configuration of B, side to move)` with a flag byte per index.

use crate::dice::Die;
use crate::exact::shared::encode::ConfigIndex;
use crate::exact::shared::reachable::configs_closed_under;
use crate::exact::shared::search::{self, Step, Successors};
use crate::rules::{GameState, Player, Rules};
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// One legal move of a configuration for one face, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The mover's configuration afterwards.
    pub next: u32,
    /// Field the piece leaves, [`FROM_B`] for a piece brought in.
    pub from: u8,
    /// Field the piece lands on.
    pub to: u8,
    /// The landing field in the opponent's numbering, [`NO_HIT`] if it is a goal field (a
    /// piece there can capture nothing): precomputed because the sweeps ask it of every
    /// option of every state.
    pub hit: u8,
    /// Whether the mover has won after this move.
    pub wins: bool,
}

/// [`TableMove::hit`] of a move into the goal.
pub const NO_HIT: u8 = u8::MAX;

/// [`TableMove::from`] of a piece brought in from `B`.
pub const FROM_B: u8 = u8::MAX;

/// One player's configurations and, per configuration and distinct face of its die, the
/// moves [`Rules::legal_moves`] allows (frontmost first; without `capture-duty` they depend
/// on the player's own pieces only, and `capture-duty` only narrows them, see
/// [`GameSpace::options`]).
#[derive(Clone, Debug)]
pub struct PlayerTable {
    /// The configurations, most advanced first.
    pub configs: ConfigIndex,
    /// The distinct faces of the die and their probabilities.
    pub faces: Vec<(u32, f64)>,
    offsets: Vec<u32>,
    moves: Vec<TableMove>,
    /// `capture[f * configs + i]`: configuration `i` without its piece on track field `f`
    /// (`u32::MAX` if it has none there). By field, then configuration: a row of the sweeps
    /// asks one field of consecutive configurations, which this order keeps side by side.
    capture: Vec<u32>,
    won: Vec<bool>,
    track: usize,
}

impl PlayerTable {
    /// Tabulates the moves of `player` with `die` under `rules` (which must have `choice`).
    pub fn new(rules: &Rules, player: Player, die: &Die) -> PlayerTable {
        let legal = |own: u64, face: u32| rules.legal_moves(own, 0, player, face);
        let configs = configs_closed_under(rules, die, |own, face, push| {
            for m in legal(own, face).iter() {
                push(apply(own, m.from, m.to));
            }
        });
        let total: u32 = die.face_counts().iter().map(|&(_, c)| c).sum();
        let faces: Vec<(u32, f64)> = die
            .face_counts()
            .iter()
            .map(|&(f, c)| (f, f64::from(c) / f64::from(total)))
            .collect();
        let board = rules.board();
        let track = board.track_len() as usize;
        let mut offsets = Vec::with_capacity(configs.len() * faces.len() + 1);
        let mut moves = Vec::new();
        let n = configs.len();
        let mut capture = vec![u32::MAX; n * track];
        let mut won = Vec::with_capacity(configs.len());
        for (i, &own) in configs.masks().iter().enumerate() {
            won.push(rules.has_won(own));
            for &(face, _) in &faces {
                offsets.push(moves.len() as u32);
                if rules.has_won(own) {
                    continue;
                }
                for m in legal(own, face).iter() {
                    let after = apply(own, m.from, m.to);
                    let next = configs
                        .index(after)
                        .expect("the configurations are closed under the legal moves");
                    moves.push(TableMove {
                        next,
                        from: m.from.map_or(FROM_B, |f| f as u8),
                        to: m.to as u8,
                        hit: if board.is_goal(m.to) {
                            NO_HIT
                        } else {
                            board.opponent_field(player, m.to) as u8
                        },
                        wins: rules.has_won(after),
                    });
                }
            }
            let mut on_track = own & rules.board().track_mask();
            while on_track != 0 {
                let f = on_track.trailing_zeros() as usize;
                capture[f * n + i] = configs
                    .index(own & !(1u64 << f))
                    .expect("the configurations are closed under captures");
                on_track &= on_track - 1;
            }
        }
        offsets.push(moves.len() as u32);
        PlayerTable {
            configs,
            faces,
            offsets,
            moves,
            capture,
            won,
            track,
        }
    }

    /// The legal moves of configuration `i` for face slot `k` (empty once it has won).
    #[inline(always)]
    pub fn moves(&self, i: usize, k: usize) -> &[TableMove] {
        let at = i * self.faces.len() + k;
        &self.moves[self.offsets[at] as usize..self.offsets[at + 1] as usize]
    }

    /// This player's configuration `i` (its pieces `pieces`) after the opponent's move `m`:
    /// without the piece `m` lands on, if one stands there.
    #[inline(always)]
    pub fn after_move_of_other(&self, i: usize, pieces: u64, m: &TableMove) -> usize {
        // `hit` is below 64 whenever it is not NO_HIT, so the shift is in range.
        if m.hit != NO_HIT && pieces >> (m.hit & 63) & 1 != 0 {
            self.captured(i, m.hit as usize)
        } else {
            i
        }
    }

    /// Whether configuration `i` has all its pieces in the goal.
    #[inline(always)]
    pub fn won(&self, i: usize) -> bool {
        self.won[i]
    }

    /// Configuration `i` after its piece on track field `f` was captured (`i` if none).
    #[inline(always)]
    pub fn captured(&self, i: usize, f: usize) -> usize {
        match self.capture[f * self.configs.len() + i] {
            u32::MAX => i,
            j => j as usize,
        }
    }

    /// Whether `other` is this table move for move: the same configurations in the same
    /// order, the same faces, moves, landings in the opponent's numbering and captures.
    /// Two players' tables are the same exactly when their dice are and the board is
    /// symmetric (the opponent's start half a track away), see [`GameSpace::symmetric`].
    pub fn same_as(&self, other: &PlayerTable) -> bool {
        self.configs.masks() == other.configs.masks()
            && self.faces == other.faces
            && self.offsets == other.offsets
            && self.moves == other.moves
            && self.capture == other.capture
            && self.won == other.won
            && self.track == other.track
    }

    /// Bytes of the tables.
    pub fn heap_bytes(&self) -> u64 {
        (self.configs.heap_bytes()
            + self.offsets.len() * 4
            + self.moves.len() * std::mem::size_of::<TableMove>()
            + self.capture.len() * 4
            + self.won.len()) as u64
    }
}

/// `own` after the piece on `from` (`None`: from `B`) moved to `to`.
#[inline(always)]
fn apply(own: u64, from: Option<u32>, to: u32) -> u64 {
    (own & !from.map_or(0, |f| 1u64 << f)) | (1u64 << to)
}

/// A joint index decoded once ([`GameSpace::at`]).
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// The joint index.
    pub index: usize,
    /// The player to move.
    pub side: usize,
    own: usize,
    other: usize,
    other_pieces: u64,
}

impl At {
    /// The mover's configuration.
    #[inline(always)]
    pub fn own(&self) -> usize {
        self.own
    }

    /// The opponent's configuration.
    #[inline(always)]
    pub fn other(&self) -> usize {
        self.other
    }
}

/// Where one option of a roll leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The mover won.
    Win(Player),
    /// The game goes on in this joint index.
    Next(usize),
}

/// Where one option of a roll leads, as configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellTarget {
    /// The mover won.
    Win(Player),
    /// The game goes on with A's configuration `a`, B's `b` and `side` to move.
    Next {
        /// A's configuration.
        a: usize,
        /// B's configuration.
        b: usize,
        /// The side to move.
        side: usize,
    },
}

/// Flag bits of a joint index.
pub mod flag {
    /// Reachable from an opening when every legal move may be taken.
    pub const REACHED: u8 = 1;
    /// Its successors are marked reached.
    pub const SPREAD: u8 = 2;
    /// A can win from here under some play.
    pub const WIN_A: u8 = 4;
    /// B can win from here under some play.
    pub const WIN_B: u8 = 8;
    /// Both players together can keep the game going forever with probability 1
    /// (a state of an end component outside the never-ending set).
    pub const STAY: u8 = 16;
    /// A can win from here under the policy pair being evaluated.
    pub const PAIR_WIN_A: u8 = 32;
    /// B can win from here under the policy pair being evaluated.
    pub const PAIR_WIN_B: u8 = 64;
    /// Only one side can win from here, and every play of the game ends with a win: its
    /// value is exactly +1 or -1 whatever is played (set by
    /// [`classify`](super::super::classify::classify)).
    pub const SETTLED: u8 = 128;
}

/// The joint state space of the game with choices.
pub struct GameSpace {
    /// The rules (with `choice`).
    pub rules: Rules,
    /// A's and B's tables.
    pub players: [PlayerTable; 2],
    nb: usize,
    len: usize,
    symmetric: bool,
    /// One flag byte per joint index; empty in a space made by [`GameSpace::tables_only`].
    flags: Vec<AtomicU8>,
}

impl GameSpace {
    /// The space of `dice` under `rules`, with every flag clear. `None` if the joint index
    /// overflows `usize`.
    pub fn new(rules: &Rules, dice: [&Die; 2]) -> Option<GameSpace> {
        let mut space = Self::tables_only(rules, dice)?;
        space.flags = crate::exact::shared::huge::huge_vec(space.len, |_| AtomicU8::new(0));
        Some(space)
    }

    /// The space of `dice` under `rules` without its flag bytes: the tables and the joint
    /// index only, for solvers that keep their own flags for a part of the space at a time
    /// ([`super::layered`]); [`GameSpace::flag`] must not be asked of it. `None` if the
    /// joint index overflows `usize`.
    pub fn tables_only(rules: &Rules, dice: [&Die; 2]) -> Option<GameSpace> {
        let players = [
            PlayerTable::new(rules, 0, dice[0]),
            PlayerTable::new(rules, 1, dice[1]),
        ];
        let len = Self::len_of(&players)?;
        Some(GameSpace {
            rules: *rules,
            nb: players[1].configs.len(),
            len,
            symmetric: players[0].same_as(&players[1]),
            players,
            flags: Vec::new(),
        })
    }

    /// The number of joint indices of two tables (`None` on overflow).
    pub fn len_of(players: &[PlayerTable; 2]) -> Option<usize> {
        players[0]
            .configs
            .len()
            .checked_mul(players[1].configs.len())?
            .checked_mul(2)
    }

    /// Joint indices: configurations of A × of B × 2 sides.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the space is empty (never: the openings are in it).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Configuration pairs (cells); cell `c` holds the joint indices `2c` and `2c + 1`.
    pub fn cells(&self) -> usize {
        self.len() / 2
    }

    /// The joint index of configurations `a`, `b` with `side` to move.
    #[inline(always)]
    pub fn index(&self, a: usize, b: usize, side: usize) -> usize {
        ((a * self.nb + b) << 1) | side
    }

    /// Whether the game is its own mirror image: both players have the same table
    /// ([`PlayerTable::same_as`]), so the state `(a, b, side)` is the state `(b, a, other
    /// side)` with the players' roles swapped, and its value is the negated value there:
    /// `v(a, b, s) = -v(b, a, 1 - s)`. Nothing else in the game tells the players apart
    /// (the rules' switches treat both alike).
    pub fn symmetric(&self) -> bool {
        self.symmetric
    }

    /// The mirror image of cell `c` = `(a, b)`: the cell `(b, a)` (meaningful where
    /// [`GameSpace::symmetric`]; both players then have the same number of configurations).
    #[inline(always)]
    pub fn mirror_cell(&self, c: usize) -> usize {
        (c % self.nb) * self.nb + c / self.nb
    }

    /// `(a, b, side)` of a joint index.
    #[inline(always)]
    pub fn decode(&self, index: usize) -> (usize, usize, usize) {
        let cell = index >> 1;
        (cell / self.nb, cell % self.nb, index & 1)
    }

    /// The joint index of a position, `None` if a configuration is not in the tables.
    pub fn encode(&self, state: &GameState) -> Option<usize> {
        let a = self.players[0].configs.index(state.pieces[0])? as usize;
        let b = self.players[1].configs.index(state.pieces[1])? as usize;
        Some(self.index(a, b, state.mover()))
    }

    /// The position of a joint index.
    pub fn position(&self, index: usize) -> GameState {
        let (a, b, side) = self.decode(index);
        GameState {
            pieces: [
                self.players[0].configs.mask(a as u32),
                self.players[1].configs.mask(b as u32),
            ],
            to_move: side as u8,
            tries: 0,
        }
    }

    /// The two openings: A to move, B to move.
    pub fn openings(&self) -> [usize; 2] {
        [0, 1].map(|first| {
            self.encode(&GameState::start(first))
                .expect("the opening configuration is in every table")
        })
    }

    /// The face slots of the mover at `index`: `(face, probability)`.
    #[inline(always)]
    pub fn faces(&self, index: usize) -> &[(u32, f64)] {
        &self.players[index & 1].faces
    }

    /// `index` decoded for [`GameSpace::options_at`]: the sweeps ask every face of a state,
    /// so the division of the decoding and the opponent's pieces are looked up once.
    #[inline(always)]
    pub fn at(&self, index: usize) -> At {
        let (a, b, side) = self.decode(index);
        let (own, other) = if side == 0 { (a, b) } else { (b, a) };
        At {
            index,
            side,
            own,
            other,
            other_pieces: self.players[1 - side].configs.mask(other as u32),
        }
    }

    /// Calls `f(option, target)` for each legal move of the roll of face slot `k` at
    /// `index`, numbered as [`Rules::legal_moves`] lists them (frontmost first); returns the
    /// number of moves. With none, calls nothing and returns 0: the roll moves nothing,
    /// see [`GameSpace::no_move_target`].
    #[inline(always)]
    pub fn options(&self, index: usize, k: usize, f: impl FnMut(usize, Target)) -> usize {
        self.options_at(&self.at(index), k, f)
    }

    /// [`GameSpace::options`] of a decoded index.
    #[inline(always)]
    pub fn options_at(&self, at: &At, k: usize, mut f: impl FnMut(usize, Target)) -> usize {
        self.cell_options_at(at, k, |n, t| {
            f(
                n,
                match t {
                    CellTarget::Win(p) => Target::Win(p),
                    CellTarget::Next { a, b, side } => Target::Next(self.index(a, b, side)),
                },
            )
        })
    }

    /// Where move `m` of the mover at `at` leads (`them`: the opponent's table).
    #[inline(always)]
    fn target_of(&self, at: &At, m: &TableMove, them: &PlayerTable, next_side: usize) -> Target {
        match self.cell_target_of(at, m, them, next_side) {
            CellTarget::Win(p) => Target::Win(p),
            CellTarget::Next { a, b, side } => Target::Next(self.index(a, b, side)),
        }
    }

    /// [`GameSpace::target_of`] as configurations, for solvers that index the space their
    /// own way (and would otherwise divide the joint index apart again).
    #[inline(always)]
    fn cell_target_of(
        &self,
        at: &At,
        m: &TableMove,
        them: &PlayerTable,
        next_side: usize,
    ) -> CellTarget {
        if m.wins {
            return CellTarget::Win(at.side);
        }
        let other_after = them.after_move_of_other(at.other, at.other_pieces, m);
        let (a, b) = if at.side == 0 {
            (m.next as usize, other_after)
        } else {
            (other_after, m.next as usize)
        };
        CellTarget::Next {
            a,
            b,
            side: next_side,
        }
    }

    /// [`GameSpace::options_at`] with each target as configurations ([`CellTarget`]).
    #[inline(always)]
    pub fn cell_options_at(
        &self,
        at: &At,
        k: usize,
        mut f: impl FnMut(usize, CellTarget),
    ) -> usize {
        let side = at.side;
        let me = &self.players[side];
        let them = &self.players[1 - side];
        let face = me.faces[k].0;
        let moves = me.moves(at.own, k);
        // Under capture-duty the opponent narrows the choice: ask the rules which remain.
        let allowed = if moves.len() > 1 && self.rules.profile().capture_duty {
            let legal =
                self.rules
                    .legal_moves(me.configs.mask(at.own as u32), at.other_pieces, side, face);
            Some(legal.sources())
        } else {
            None
        };
        let next_side = if face == 6 { side } else { 1 - side };
        let mut n = 0;
        for m in moves {
            if let Some(sources) = allowed
                && (m.from == FROM_B || sources >> m.from & 1 == 0)
            {
                continue;
            }
            f(n, self.cell_target_of(at, m, them, next_side));
            n += 1;
        }
        n
    }

    /// The decoded index of A's configuration `a`, B's `b` and `side` to move (as
    /// [`GameSpace::at`] gives it, without dividing a joint index apart).
    #[inline(always)]
    pub fn at_cell(&self, a: usize, b: usize, side: usize) -> At {
        let (own, other) = if side == 0 { (a, b) } else { (b, a) };
        At {
            index: self.index(a, b, side),
            side,
            own,
            other,
            other_pieces: self.players[1 - side].configs.mask(other as u32),
        }
    }

    /// Where A's move `m` with `face` leads from a pair with B's configuration `b`: the
    /// target of [`GameSpace::option_at`] for side 0, from `b` alone (A's own configuration
    /// is in `m`), for the sweeps that make a row of A's updates at a time.
    #[inline(always)]
    pub fn a_target(&self, m: &TableMove, b: usize, face: u32) -> Target {
        if m.wins {
            return Target::Win(0);
        }
        let them = &self.players[1];
        let b_after = them.after_move_of_other(b, them.configs.mask(b as u32), m);
        Target::Next(self.index(m.next as usize, b_after, if face == 6 { 0 } else { 1 }))
    }

    /// Where option `m` of the roll of face slot `k` at `at` leads, with the number of
    /// options: `(0, None)` if nothing moves, `(n, None)` if `m >= n`. Walks only the
    /// one move when no capture duty narrows the list (the evaluation of a fixed pair
    /// needs one option per roll, not all of them).
    #[inline(always)]
    pub fn option_at(&self, at: &At, k: usize, m: usize) -> (usize, Option<Target>) {
        if self.rules.profile().capture_duty {
            let mut picked = None;
            let n = self.options_at(at, k, |i, t| {
                if i == m {
                    picked = Some(t);
                }
            });
            return (n, picked);
        }
        let side = at.side;
        let me = &self.players[side];
        let moves = me.moves(at.own, k);
        let next_side = if me.faces[k].0 == 6 { side } else { 1 - side };
        let picked = moves
            .get(m)
            .map(|mv| self.target_of(at, mv, &self.players[1 - side], next_side));
        (moves.len(), picked)
    }

    /// Calls `f` with the targets of [`GameSpace::options`] in order, collected on the stack
    /// (on the heap for boards of more than 8 pieces).
    #[inline(always)]
    pub fn with_options(&self, at: &At, k: usize, f: impl FnOnce(&[Target])) {
        const INLINE: usize = 8;
        if self.rules.board().pieces() as usize <= INLINE {
            let mut buf = [Target::Win(0); INLINE];
            let n = self.options_at(at, k, |m, t| buf[m] = t);
            f(&buf[..n]);
        } else {
            let mut buf = Vec::new();
            self.options_at(at, k, |_, t| buf.push(t));
            f(&buf);
        }
    }

    /// Where a roll of `face` that moves nothing leads from `index`: the same pieces, the
    /// same side after a 6, else the other side.
    #[inline(always)]
    pub fn no_move_target(&self, index: usize, face: u32) -> usize {
        if face == 6 { index } else { index ^ 1 }
    }

    /// The flag byte of a joint index.
    #[inline(always)]
    pub fn flag(&self, index: usize) -> u8 {
        self.flags[index].load(Relaxed)
    }

    /// Clears `bits` on one index.
    #[inline(always)]
    pub fn remove_flags(&self, index: usize, bits: u8) {
        self.flags[index].fetch_and(!bits, Relaxed);
    }

    /// Clears `bits` on every index.
    pub fn clear_flags(&self, bits: u8) {
        for f in &self.flags {
            f.fetch_and(!bits, Relaxed);
        }
    }

    /// Runs `visit(cell)` over every cell, most advanced first (least advanced first if
    /// `forwards`), on all threads if `parallel`; returns whether any call returned true.
    ///
    /// A unit of parallel work is one row, the cells of one configuration of A. A Gauss-Seidel
    /// sweep reads B's moves from the same row, which the row's own thread has just written,
    /// and A's moves from rows of a higher progress (every move advances a piece), which lie
    /// before the row's whole block of equal progress and are done. With smaller units the
    /// other thread would be writing the same row, and its values would be one sweep old,
    /// which nearly doubles the sweeps (see `docs/src/performance.md`).
    pub fn for_cells(
        &self,
        forwards: bool,
        parallel: bool,
        visit: impl Fn(usize) -> bool + Sync,
    ) -> bool {
        self.for_rows(forwards, parallel, |_, cells| {
            let mut any = false;
            for c in cells {
                any |= visit(c);
            }
            any
        })
    }

    /// [`GameSpace::for_cells`] a row at a time: `visit(a, cells)` gets the configuration
    /// of A of one row and its cells in order, so that work shared by the row's cells is
    /// done once.
    pub fn for_rows(
        &self,
        forwards: bool,
        parallel: bool,
        visit: impl Fn(usize, &mut dyn Iterator<Item = usize>) -> bool + Sync,
    ) -> bool {
        // One unit of `in_order` is `nb` cells: exactly one row.
        search::in_order(self.cells(), self.nb, forwards, parallel, |mut cells| {
            let mut cells = cells.by_ref().peekable();
            match cells.peek() {
                Some(&first) => visit(first / self.nb, &mut cells),
                None => false,
            }
        })
    }

    /// Bytes of the tables and flags.
    pub fn heap_bytes(&self) -> u64 {
        self.players[0].heap_bytes() + self.players[1].heap_bytes() + self.flags.len() as u64
    }

    /// The number of indices with all of `bits` set.
    pub fn count(&self, bits: u8) -> u64 {
        self.flags
            .iter()
            .filter(|f| f.load(Relaxed) & bits == bits)
            .count() as u64
    }
}

/// The space searched with every legal move as a successor (the game's own graph).
impl Successors for GameSpace {
    type State = usize;
    type Batch = ();

    fn pass(&self, forwards: bool, visit: impl Fn(&(), usize) -> bool + Sync) -> bool {
        self.for_cells(forwards, true, |c| {
            let first = visit(&(), 2 * c);
            visit(&(), 2 * c + 1) | first
        })
    }

    fn for_each_successor(&self, _: &(), index: usize, mut f: impl FnMut(Step<usize>)) {
        for (k, &(face, _)) in self.faces(index).iter().enumerate() {
            let n = self.options(index, k, |_, t| match t {
                Target::Win(p) => f(Step::Win(p)),
                Target::Next(j) => f(Step::Next(j)),
            });
            if n == 0 {
                f(Step::Next(self.no_move_target(index, face)));
            }
        }
    }

    #[inline(always)]
    fn flags(&self, index: usize) -> u8 {
        self.flag(index)
    }

    #[inline(always)]
    fn add_flags(&self, index: usize, bits: u8) {
        if self.flags[index].load(Relaxed) & bits != bits {
            self.flags[index].fetch_or(bits, Relaxed);
        }
    }
}
