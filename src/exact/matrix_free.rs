//! The matrix-free exact solver for boards whose transition matrix does not fit: the full
//! BwInf board (40 fields, 4 pieces each) included.
//!
//! # Layout
//! Each player's reachable configurations ([`super::reachable::player_configs`]) ordered
//! by pieces in the goal (most first), then most advanced first, and move/capture tables
//! ([`PlayerTables`]) are all the solver stores besides the values. The values live in one
//! flat vector over the whole product `b × a × side × component`, `a` (player A's
//! configuration) innermost after the side, with `K = 2` components (`V` = P(A wins),
//! `W` = P(B wins)) or `K = 3` (plus `Z`, the probability of falling into the never-ending
//! set) when such a set exists. The two sides of one pair of configurations are neighbours,
//! so the exact two-state elimination below touches one cache line.
//!
//! Pairs that cannot occur in a game (two pieces on one track field, a configuration that
//! has already won) are part of the product but never the successor of a pair that can
//! occur; the sweeps skip them (their slots stay 0 and are never read). Of the other pairs,
//! "live", many states are still never reached from the openings (the product pairs every
//! configuration of A with every one of B, whatever the captures this needs); a forward
//! search (`Game::reach`) marks the reachable states in two bits of the flag byte the
//! never-ending search already keeps, at no extra memory, and the sweeps update only those.
//! They are exactly the sparse solver's states, so `states`, `never_states`, `transitions`
//! and `self_loops` in [`SolveStats`] equal its counts (one transition per distinct
//! successor other than the state itself, plus one for a winning face; a self-loop where
//! some but not all faces lead back), which a test checks.
//!
//! The reachable share of the live states: 1..6 vs 1..6 on 20/10/4/4 2.60e7 of 3.20e7; on
//! the BwInf board 1,1,1,6,6,6 vs 1,6,6,6,6,6 1.60e7 of 4.47e7. Single-threaded cell
//! updates at tolerance 1e-9 fell from 183.1e6 to 159.2e6 (-13 %) and from 327.5e6 to
//! 143.0e6 (-56 %); the results agree within the tolerance (2e-12 apart at 1e-9).
//!
//! # The sweep
//! Rows `b` in increasing index (most advanced first), `a` increasing in a row. Goal pieces
//! never leave the goal, so ordering by goal count first keeps "a move leads to a smaller
//! index" (the count stays or rises; with it equal, the progress rises). A move of A
//! leads to a more advanced `a' < a` in the same row (already updated in this sweep) or, on
//! a capture, to a row `capture(b) > b` (updated in the previous sweep); a move of B leads to
//! a row `b' < b`, already updated, and `a` or `capture(a)`. So without captures one sweep is
//! exact; captures run backwards and need further sweeps, about one per capture level.
//! Within a pair of configurations `(a, b)` the two sides are solved together exactly: a
//! roll that moves nothing keeps the state (a 6: same side, a self-loop) or passes the turn
//! to the same pair, and the 2×2 system
//! `x0 = s0 + p00 x0 + p01 x1`, `x1 = s1 + p10 x0 + p11 x1` is solved in closed form.
//!
//! # Blocks by goal occupancy
//! The pair (goal pieces of A, goal pieces of B) never decreases along a game, and each
//! pair of counts is a rectangle of rows and columns. The solver first solves these blocks
//! one by one, those with the most goal pieces first, each swept until the largest width
//! `1 - V - W - Z` among its states is at most its target (from the tolerance down to half
//! of it for the deepest block, see `Run::block_pass`), the opening block until the
//! openings are certified. So the late blocks are not swept again while the captures of
//! the early ones settle. If the openings are not certified after this pass, global sweeps
//! follow; the certificate below alone decides stopping either way. `iterations` in the
//! stats is the work in units of full sweeps (cell updates / live pairs, rounded up).
//!
//! Measured single-threaded in cell updates (pairs updated, both sides at once), global
//! sweeps before, blocks after, `f64`, tolerance 1e-9 (1e-12): 1..6 vs 1..6 on 20/10/4/4
//! 239.7e6 -> 183.1e6 (303.6e6 -> 232.8e6), on 24/12/4/4 547.7e6 -> 405.5e6 (684.6e6 ->
//! 520.0e6), about -25 %; on the BwInf board 1..6 vs 1,1,1,6,6,6 1417e6 -> 1043e6 (-26 %,
//! 22 sweeps -> 17 sweep equivalents), but 1,1,1,6,6,6 vs 1,6,6,6,6,6 only 357.2e6 ->
//! 327.5e6 (468.9e6 -> 416.0e6), -8 % (-11 %): with dice of only 1s and 6s every block needs
//! 13-16 sweeps by itself, its own captures, where the global iteration needs 16. Under
//! `f32` (same certified width) 25 -> 20 and 25 -> 22 sweep equivalents. (Later, with
//! the reachability search and "stopped gaining" as 3 sweeps under 1 % instead of 10 under
//! 0.1 %, `f32` at tolerance 1e-6 fell from 22 to 15 sweep equivalents on the BwInf pair
//! and from 18 to 11 on 4..9 vs 5..10 on 20/10/4/4, the certified widths 1.33e-6 and
//! 1.40e-6 unchanged; `f64` needs 11 and 8 there.) Looser targets
//! for the blocks other than the opening one, 3, 10, 30 times the tolerance, gave -5 %,
//! -9 %, -11 % on the second pair but -5 %, +15 %, +17 % on 20/10/4/4, whose opening block
//! then inherited too much and needed global sweeps; not worth a tuned constant.
//!
//! # Certificate
//! As in [`crate::exact`]: `V`, `W`, `Z` start at 0 (with `Z = 1` held on the never-ending
//! set, found first by a boolean fixed point "can reach a win": the least fixed point of
//! "wins in one roll, or has a successor that can"), the update is monotone, so every
//! iterate is a lower bound everywhere, in any order and with any interleaving of threads.
//! At the start states `V <= P(A wins) <= 1 - W - Z`; the solver stops when that width is
//! at most the tolerance at both openings. Without a never-ending state every game ends
//! with probability 1 and `P(never) = 0` exactly.
//!
//! # Threads
//! Each row is split into chunks of `a` that rayon runs on all threads. Values are `f64`
//! (or `f32`) bit patterns in atomics, read and written with relaxed ordering (plain moves
//! on x86): a chunk may read a neighbour's value from this sweep or the last, which keeps
//! every property above. With one thread the result is bit-for-bit reproducible.
//!
//! # `f32` storage
//! Values are stored rounded *down* to `f32` (accumulation is in `f64`), so they stay lower
//! bounds and the interval is still certified, but the iteration stalls once a sweep's
//! gain is below `f32` resolution: each stored value loses up to `2^-24` relative, and the
//! loss is carried along a game, so the certified width cannot fall below about `1e-7`
//! times the expected number of rolls (in practice 1e-6 .. 1e-5). The solver then stops
//! and reports the width it reached (see [`FullOutcome::stalled`]); in the block pass a
//! block that stops gaining is left as it is, and when the opening block does, global
//! sweeps could not gain either and are skipped.
//!
//! # Measured (BwInf board, tolerance 1e-9, 2 cores, global sweeps only)
//! | matchup | configurations | live states | memory | sweeps | time |
//! |---|---|---|---|---|---|
//! | 1,1,1,6,6,6 vs 1,6,6,6,6,6 | 5,001 × 5,001 | 4.47e7 | 0.89 GB | 16-18 | 8.4 s |
//! | 1..6 vs 1..6 | 14,798 × 14,798 | 3.76e8 | 7.3 GB | 19-21 | 147 s (261 s on a loaded machine) |
//!
//! With `f32` storage the first pair stalls at a certified width of about 1.4e-6.
//! `three-tries` is not supported (it would add the tries counter to the state).

use super::encode::ConfigIndex;
use super::tables::{NO_LANDING, PlayerTables};
use super::{
    Bounds, ExactError, ExactResult, ResultBounds, SolveOptions, SolveStats, memory, p_a_starts,
    reachable,
};
use crate::dice::Die;
use crate::fixpoint::{self, StopRule, SweepReport};
use crate::rules::{Board, GameState, Rules};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};
use std::time::Instant;

/// How the values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Storage {
    /// `f64`: certified widths down to about 1e-13.
    F64,
    /// `f32`, rounded down: half the memory, widths no smaller than about 1e-6.
    F32,
    /// `f64` if it fits the memory limit, else `f32`.
    Auto,
}

/// Options of the matrix-free solver beyond [`SolveOptions`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullOptions {
    /// Value storage.
    pub storage: Storage,
}

impl Default for FullOptions {
    fn default() -> Self {
        FullOptions {
            storage: Storage::Auto,
        }
    }
}

/// A matrix-free solve with what the plain [`ExactResult`] does not say.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FullOutcome {
    /// The result (intervals certified in either storage).
    pub result: ExactResult,
    /// The storage used (`F64` or `F32`, never `Auto`).
    pub storage: Storage,
    /// Sweeps of the "can reach a win" search.
    pub classify_sweeps: usize,
    /// Passes of the reachability search.
    pub reach_passes: usize,
    /// Under `f32`: the iteration stopped gaining before the tolerance was reached; the
    /// intervals are as wide as they say.
    pub stalled: bool,
    /// Sweeps and cell updates of the value iteration.
    pub work: Work,
}

/// Bytes of the values, flags and tables of a matrix-free solve over `configs`
/// configurations, with `components` values per state of `value_bytes` bytes each.
pub fn estimate_bytes(configs: [u64; 2], components: u64, value_bytes: u64) -> u64 {
    let cells = configs[0].saturating_mul(configs[1]);
    cells
        .saturating_mul(2 * components * value_bytes)
        .saturating_add(cells) // can-win flags
        .saturating_add(memory::FIXED_BYTES)
}

/// One stored value: an atomic bit pattern.
trait Slot: Sync + Send {
    fn zero() -> Self;
    fn get(&self) -> f64;
    fn set(&self, x: f64);
}

struct F64Slot(AtomicU64);
struct F32Slot(AtomicU32);

impl Slot for F64Slot {
    #[inline(always)]
    fn zero() -> Self {
        F64Slot(AtomicU64::new(0))
    }
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Relaxed))
    }
    #[inline(always)]
    fn set(&self, x: f64) {
        self.0.store(x.to_bits(), Relaxed)
    }
}

impl Slot for F32Slot {
    #[inline(always)]
    fn zero() -> Self {
        F32Slot(AtomicU32::new(0))
    }
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from(f32::from_bits(self.0.load(Relaxed)))
    }
    /// Rounds down (values are non-negative), so a stored lower bound stays one.
    #[inline(always)]
    fn set(&self, x: f64) {
        let mut f = x as f32;
        if f64::from(f) > x && f > 0.0 {
            f = f32::from_bits(f.to_bits() - 1);
        }
        self.0.store(f.to_bits(), Relaxed)
    }
}

/// Configurations with the same number of pieces in the goal: an index range, since
/// [`by_goal_count`] orders them so.
#[derive(Clone, Debug)]
struct GoalClass {
    goals: u32,
    range: Range<usize>,
}

/// `configs` (most advanced first) reordered by pieces in the goal, most first, keeping the
/// order within each count, and the classes in index order. The order stays "most advanced
/// first" as the sweep needs it: a move raises the progress and never lowers the goal
/// count, a capture lowers the progress and keeps the goal count.
fn by_goal_count(board: &Board, configs: ConfigIndex) -> (ConfigIndex, Vec<GoalClass>) {
    let goal = board.goal_mask();
    let goals = |m: u64| (m & goal).count_ones();
    let mut masks = configs.masks().to_vec();
    drop(configs);
    // Stable: ties keep the order of `player_configs`.
    masks.sort_by_key(|&m| std::cmp::Reverse(goals(m)));
    let mut classes: Vec<GoalClass> = Vec::new();
    for (i, &m) in masks.iter().enumerate() {
        match classes.last_mut() {
            Some(c) if c.goals == goals(m) => c.range.end = i + 1,
            _ => classes.push(GoalClass {
                goals: goals(m),
                range: i..i + 1,
            }),
        }
    }
    let index = ConfigIndex::new(masks, board.fields(), board.pieces())
        .expect("a reordering of valid configurations");
    (index, classes)
}

/// B's move with one face from the configuration of the current row.
#[derive(Clone, Copy)]
struct RowMove {
    p: f64,
    won: bool,
    same: bool,
    next: usize,
    landing: u8,
}

/// The game in table form.
struct Game {
    ta: PlayerTables,
    tb: PlayerTables,
    na: usize,
    nb: usize,
    /// `(face index, probability)` of A's and B's distinct faces.
    fa: Vec<(usize, f64)>,
    fb: Vec<(usize, f64)>,
    won_a: Vec<bool>,
    won_b: Vec<bool>,
    /// Track fields each configuration occupies, in A's numbering; a pair that shares one
    /// cannot occur in a game (nor follow from one that can) and is skipped.
    occ_a: Vec<u64>,
    occ_b: Vec<u64>,
    /// Each player's configurations by pieces in the goal, in index order.
    classes_a: Vec<GoalClass>,
    classes_b: Vec<GoalClass>,
}

/// Rows of `a` below this run on one thread.
const MIN_CHUNK: usize = 1024;

/// Bits of a cell's flag byte. Bits 0 and 1 (side 0, A to move; side 1, B to move): the
/// state can reach a win. `REACHED << side`: the state is reachable from an opening;
/// `SPREAD << side`: its successors have been marked reachable too.
const REACHED: u8 = 4;
const SPREAD: u8 = 16;

impl Game {
    /// Whether the pair `(a, b)` can occur: nobody has won, no shared track field.
    #[inline(always)]
    fn live(&self, a: usize, occ_b: u64) -> bool {
        !self.won_a[a] && self.occ_a[a] & occ_b == 0
    }

    fn probs(t: &PlayerTables) -> Vec<(usize, f64)> {
        let total: u32 = t.faces.iter().map(|&(_, c)| c).sum();
        t.faces
            .iter()
            .enumerate()
            .map(|(k, &(_, c))| (k, f64::from(c) / f64::from(total)))
            .collect()
    }

    fn row_moves(&self, b: usize) -> Vec<RowMove> {
        self.fb
            .iter()
            .map(|&(k, p)| {
                let e = self.tb.entry(b as u32, k);
                RowMove {
                    p,
                    won: e.won,
                    same: e.turn[0] & 4 != 0,
                    next: e.next as usize,
                    landing: e.landing,
                }
            })
            .collect()
    }

    /// Where A's face `k` leads from the pair `(a, b)`: the successor's cell and side to
    /// move, or `None` when A wins. A face that moves nothing leads to the cell itself.
    #[inline(always)]
    fn a_moves(&self, a: usize, b: usize, k: usize) -> Option<(usize, usize)> {
        let e = self.ta.entry(a as u32, k);
        if e.won {
            return None;
        }
        let b2 = if e.landing == NO_LANDING {
            b
        } else {
            self.tb.capture(b as u32, e.landing) as usize
        };
        Some((
            b2 * self.na + e.next as usize,
            usize::from(e.turn[0] & 4 == 0),
        ))
    }

    /// Where B's move `m` (of the current row) leads from A's configuration `a`, as
    /// [`Game::a_moves`].
    #[inline(always)]
    fn b_moves(&self, m: &RowMove, a: usize) -> Option<(usize, usize)> {
        if m.won {
            return None;
        }
        let a2 = if m.landing == NO_LANDING {
            a
        } else {
            self.ta.capture(a as u32, m.landing) as usize
        };
        Some((m.next * self.na + a2, usize::from(m.same)))
    }

    /// One pass of the "can reach a win" search over the pair `(a, b)`; bit `s` of the flag
    /// is set when side `s` to move can reach a win. Returns whether it changed.
    #[inline(always)]
    fn classify_cell(&self, flags: &[AtomicU8], row: &[RowMove], a: usize, b: usize) -> bool {
        let cell = b * self.na + a;
        let old = flags[cell].load(Relaxed);
        // Only reachable sides are classified: no reachable state leads to another.
        let reachable = (old / REACHED) & 3;
        if reachable & !old & 3 == 0 {
            return false;
        }
        let mut f = old;
        for _ in 0..2 {
            let before = f;
            // A successor in the same cell is read from `f`, which may have just changed.
            let wins = |f: u8, m: Option<(usize, usize)>| match m {
                None => true,
                Some((next, side)) => {
                    let g = if next == cell {
                        f
                    } else {
                        flags[next].load(Relaxed)
                    };
                    g >> side & 1 != 0
                }
            };
            let open = reachable & !f;
            if open & 1 != 0 && self.fa.iter().any(|&(k, _)| wins(f, self.a_moves(a, b, k))) {
                f |= 1;
            }
            if open & 2 != 0 && row.iter().any(|m| wins(f, self.b_moves(m, a))) {
                f |= 2;
            }
            if f == before {
                break;
            }
        }
        if f != old {
            flags[cell].store(f, Relaxed);
            true
        } else {
            false
        }
    }

    /// The least fixed point of "can reach a win" by sweeps over the reachable states
    /// (after [`Game::reach`]), in flag bits 0 and 1; returns the sweeps.
    fn classify(&self, flags: &[AtomicU8]) -> usize {
        let mut sweeps = 1;
        while self.pass(false, |row, a, b| self.classify_cell(flags, row, a, b)) {
            sweeps += 1;
        }
        sweeps
    }

    /// Marks the states reachable from the opening pair `(a, b)` (both sides: either player
    /// may start) in the flag bits [`REACHED`]; returns the passes. A pass runs from the
    /// least advanced row down, so moves spread within the pass; a capture leads to a less
    /// advanced row and is spread by the next pass. Each state spreads once ([`SPREAD`]),
    /// so a pass costs little more than a scan of the flags.
    fn reach(&self, flags: &[AtomicU8], (a, b): (usize, usize)) -> usize {
        flags[b * self.na + a].fetch_or(REACHED | REACHED << 1, Relaxed);
        let mut passes = 1;
        while self.pass(true, |row, a, b| self.spread_cell(flags, row, a, b)) {
            passes += 1;
        }
        passes
    }

    /// One pass of a boolean search over the live pairs: `visit(row, a, b)` on each, rows
    /// most advanced first (least advanced first if `backwards`), the pairs of a row on all
    /// threads; returns whether any visit changed something.
    fn pass(
        &self,
        backwards: bool,
        visit: impl Fn(&[RowMove], usize, usize) -> bool + Sync,
    ) -> bool {
        let mut changed = false;
        for i in 0..self.nb {
            let b = if backwards { self.nb - 1 - i } else { i };
            if self.won_b[b] {
                continue;
            }
            let row = self.row_moves(b);
            let occ = self.occ_b[b];
            changed |= (0..self.na)
                .into_par_iter()
                .with_min_len(MIN_CHUNK)
                .map(|k| if backwards { self.na - 1 - k } else { k })
                .map(|a| self.live(a, occ) && visit(&row, a, b))
                .reduce(|| false, |x, y| x | y);
        }
        changed
    }

    /// Marks the successors of the reachable, not yet spread sides of `(a, b)`; returns
    /// whether there were any.
    #[inline(always)]
    fn spread_cell(&self, flags: &[AtomicU8], row: &[RowMove], a: usize, b: usize) -> bool {
        let cell = b * self.na + a;
        let f = flags[cell].load(Relaxed);
        // Bit `side` of `sides(bit)`: the flag `bit << side` is set.
        let sides = |bit: u8| (f / bit) & 3;
        let pending = sides(REACHED) & !sides(SPREAD);
        if pending == 0 {
            return false;
        }
        flags[cell].fetch_or(pending * SPREAD, Relaxed);
        let mark = |m: Option<(usize, usize)>| {
            if let Some((next, side)) = m {
                flags[next].fetch_or(REACHED << side, Relaxed);
            }
        };
        if pending & 1 != 0 {
            self.fa
                .iter()
                .for_each(|&(k, _)| mark(self.a_moves(a, b, k)));
        }
        if pending & 2 != 0 {
            row.iter().for_each(|m| mark(self.b_moves(m, a)));
        }
        true
    }

    /// Updates the pair `(a, b)` (both sides) in place.
    #[inline(always)]
    fn update_cell<S: Slot, const K: usize>(
        &self,
        vals: &[S],
        flags: &[AtomicU8],
        row: &[RowMove],
        a: usize,
        b: usize,
    ) -> Tally {
        let cell = b * self.na + a;
        let f = flags[cell].load(Relaxed);
        let (never0, never1) = if K == 3 {
            (f & 1 == 0, f & 2 == 0)
        } else {
            (false, false)
        };
        // A side no game reaches is not updated; no reachable state leads to it. So if the
        // other side leads to it (`p01`, `p10`), it is reachable after all: the one-sided
        // solves below only meet such a side with a probability of 0.
        let skip0 = never0 || f & REACHED == 0;
        let skip1 = never1 || f & REACHED << 1 == 0;
        if f & (REACHED | REACHED << 1) == 0 {
            return Tally::default();
        }
        if skip0 && skip1 {
            return Tally::cell(0.0, 0.0);
        }
        let mut s0 = [0.0f64; K];
        let mut s1 = [0.0f64; K];
        let (mut p00, mut p01, mut p10, mut p11) = (0.0, 0.0, 0.0, 0.0);
        let add = |s: &mut [f64; K], p: f64, next: usize, side: usize| {
            let at = (next * 2 + side) * K;
            for c in 0..K {
                s[c] += p * vals[at + c].get();
            }
        };
        if !skip0 {
            for &(k, p) in &self.fa {
                match self.a_moves(a, b, k) {
                    None => s0[0] += p,
                    Some((next, 0)) if next == cell => p00 += p,
                    Some((next, _)) if next == cell => p01 += p,
                    Some((next, side)) => add(&mut s0, p, next, side),
                }
            }
        }
        if !skip1 {
            for m in row {
                match self.b_moves(m, a) {
                    None => s1[1] += m.p,
                    Some((next, 1)) if next == cell => p11 += m.p,
                    Some((next, _)) if next == cell => p10 += m.p,
                    Some((next, side)) => add(&mut s1, m.p, next, side),
                }
            }
        }
        let base = cell * 2 * K;
        let mut tally = Tally::cell(0.0, 0.0);
        let mut put = |at: usize, x: [f64; K]| {
            let mut assigned = 0.0;
            for c in 0..K {
                let old = vals[at + c].get();
                tally.change = tally.change.max((x[c] - old).abs());
                vals[at + c].set(x[c]);
                // What is stored (rounded down under f32) is what the certificate sees.
                assigned += vals[at + c].get();
            }
            tally.width = tally.width.max(1.0 - assigned);
        };
        // The never-ending side's fixed value: Z = 1.
        let fixed = |c: usize| if c == 2 { 1.0 } else { 0.0 };
        if !skip0 && !skip1 {
            let d = (1.0 - p00) * (1.0 - p11) - p01 * p10;
            let x0: [f64; K] = std::array::from_fn(|c| (s0[c] * (1.0 - p11) + p01 * s1[c]) / d);
            let x1: [f64; K] = std::array::from_fn(|c| (s1[c] * (1.0 - p00) + p10 * s0[c]) / d);
            put(base, x0);
            put(base + K, x1);
        } else if skip0 {
            let x1: [f64; K] = std::array::from_fn(|c| (s1[c] + p10 * fixed(c)) / (1.0 - p11));
            put(base + K, x1);
        } else {
            let x0: [f64; K] = std::array::from_fn(|c| (s0[c] + p01 * fixed(c)) / (1.0 - p00));
            put(base, x0);
        }
        tally
    }

    /// One Gauss-Seidel sweep over the block of rows `rows` and columns `cols` (the whole
    /// product for a global sweep), in the order of the module docs.
    fn sweep<S: Slot, const K: usize>(
        &self,
        vals: &[S],
        flags: &[AtomicU8],
        rows: Range<usize>,
        cols: Range<usize>,
    ) -> Tally {
        let mut tally = Tally::default();
        for b in rows {
            if self.won_b[b] {
                continue;
            }
            let row = self.row_moves(b);
            let occ = self.occ_b[b];
            let t = cols
                .clone()
                .into_par_iter()
                .with_min_len(MIN_CHUNK)
                .map(|a| {
                    if self.live(a, occ) {
                        self.update_cell::<S, K>(vals, flags, &row, a, b)
                    } else {
                        Tally::default()
                    }
                })
                .reduce(Tally::default, Tally::merge);
            tally = tally.merge(t);
        }
        tally
    }

    /// The states reachable from the openings (the sparse solver's states), and their
    /// never-ending states, transitions and self-loops as the sparse solver counts them
    /// (see [`super::transitions::Chain`]): per state, its distinct successors other than
    /// itself plus one if a face wins; a self-loop when some but not all of its faces lead
    /// back to it. Never-ending states count too, as there.
    fn count_states(&self, flags: &[AtomicU8]) -> StateCounts {
        (0..self.nb)
            .into_par_iter()
            .filter(|&b| !self.won_b[b])
            .map_init(Vec::new, |targets, b| {
                let row = self.row_moves(b);
                let mut counts = StateCounts::default();
                for a in (0..self.na).filter(|&a| self.live(a, self.occ_b[b])) {
                    let cell = b * self.na + a;
                    let f = flags[cell].load(Relaxed);
                    counts.cells += u64::from(f & (REACHED | REACHED << 1) != 0);
                    for side in 0..2 {
                        if f & REACHED << side == 0 {
                            continue;
                        }
                        counts.states += 1;
                        counts.never += u64::from(f >> side & 1 == 0);
                        let (t, l) = if side == 0 {
                            let moves = self.fa.iter().map(|&(k, _)| self.a_moves(a, b, k));
                            count_side(moves, (cell, 0), targets)
                        } else {
                            let moves = row.iter().map(|m| self.b_moves(m, a));
                            count_side(moves, (cell, 1), targets)
                        };
                        counts.transitions += t;
                        counts.self_loops += l;
                    }
                }
                counts
            })
            .reduce(StateCounts::default, |x, y| StateCounts {
                cells: x.cells + y.cells,
                states: x.states + y.states,
                never: x.never + y.never,
                transitions: x.transitions + y.transitions,
                self_loops: x.self_loops + y.self_loops,
            })
    }
}

/// What [`Game::count_states`] counts.
#[derive(Clone, Copy, Debug, Default)]
struct StateCounts {
    /// Pairs of configurations with at least one reachable side.
    cells: u64,
    /// Reachable states (pair and side).
    states: u64,
    /// Reachable states that cannot reach a win.
    never: u64,
    transitions: u64,
    self_loops: u64,
}

/// Counts of one state's row: its successors (`None` for a win) from each distinct face,
/// `me` the state itself; returns (transitions, 1 if a self-loop is eliminated).
fn count_side(
    moves: impl Iterator<Item = Option<(usize, usize)>>,
    me: (usize, usize),
    targets: &mut Vec<(usize, usize)>,
) -> (u64, u64) {
    targets.clear();
    let (mut wins, mut loops) = (false, false);
    for m in moves {
        match m {
            None => wins = true,
            Some(next) if next == me => loops = true,
            Some(next) => targets.push(next),
        }
    }
    targets.sort_unstable();
    targets.dedup();
    // Every face leads back: the sparse solver leaves such a row empty, no loop counted.
    let stuck = !wins && targets.is_empty();
    (
        targets.len() as u64 + u64::from(wins),
        u64::from(loops && !stuck),
    )
}

/// What a sweep (or one cell update) did: the largest change of a stored value, the largest
/// width `1 - V - W - Z` left at an updated state (0 on the never-ending set), and the
/// number of cells updated.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    change: f64,
    width: f64,
    updates: u64,
}

impl Tally {
    fn cell(change: f64, width: f64) -> Tally {
        Tally {
            change,
            width,
            updates: 1,
        }
    }

    fn merge(self, o: Tally) -> Tally {
        Tally {
            change: self.change.max(o.change),
            width: self.width.max(o.width),
            updates: self.updates + o.updates,
        }
    }
}

/// Certified intervals `[A wins, B wins, never]` of one start side.
fn start_bounds(lower: [f64; 3], never_state: bool, never_possible: bool) -> [Bounds; 3] {
    if never_state {
        let zero = Bounds { lo: 0.0, hi: 0.0 };
        return [zero, zero, Bounds { lo: 1.0, hi: 1.0 }];
    }
    let [v, w, z] = lower;
    let bound = |lo: f64, others: f64| {
        let lo = lo.clamp(0.0, 1.0);
        Bounds {
            lo,
            hi: (1.0 - others).clamp(lo, 1.0),
        }
    };
    let never = if never_possible {
        bound(z, v + w)
    } else {
        Bounds { lo: 0.0, hi: 0.0 }
    };
    [bound(v, w + z), bound(w, v + z), never]
}

/// Solves die `a` (player 1) against die `b` exactly without a transition matrix, with the
/// storage chosen automatically (`f64` if it fits `options.max_memory`, else `f32`).
///
/// Errors: [`ExactError::Memory`] (with `states` the product `2 × configs(A) × configs(B)`)
/// when not even `f32` storage fits, [`ExactError::TooLarge`] under `three-tries` (not
/// supported by this solver), [`ExactError::RollOff`], [`ExactError::NotConverged`].
pub fn solve_full(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<ExactResult, ExactError> {
    solve_full_with(rules, a, b, options, &FullOptions::default()).map(|o| o.result)
}

/// [`solve_full`] with the storage chosen by `full`, and the details of the run.
pub fn solve_full_with(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    full: &FullOptions,
) -> Result<FullOutcome, ExactError> {
    let started = Instant::now();
    if rules.profile().three_tries {
        return Err(ExactError::TooLarge(
            "the matrix-free solver does not support three-tries".into(),
        ));
    }
    let p_start = p_a_starts(rules, a, b)?;
    let board = rules.board();
    let (ca, classes_a) = by_goal_count(board, reachable::player_configs(rules, a));
    let (cb, classes_b) = by_goal_count(board, reachable::player_configs(rules, b));
    let configs = [ca.len() as u64, cb.len() as u64];
    let product = configs[0] * configs[1] * 2;
    let fits = |bytes: u64| options.max_memory.is_none_or(|l| bytes <= l);
    let memory_error = |bytes: u64| ExactError::Memory {
        states: product,
        exact_count: false,
        configs,
        bytes,
        limit: options.max_memory.unwrap_or(u64::MAX),
    };
    let bytes_per_value = |storage: Storage| if storage == Storage::F64 { 8 } else { 4 };
    // The least this solve can need: two components in the smallest allowed storage.
    let least = match full.storage {
        Storage::F64 => Storage::F64,
        _ => Storage::F32,
    };
    let first = estimate_bytes(configs, 2, bytes_per_value(least));
    if !fits(first) {
        return Err(memory_error(first));
    }
    let ta = PlayerTables::new(rules, 0, a, &ca);
    let tb = PlayerTables::new(rules, 1, b, &cb);
    let track = board.track_mask();
    let start = GameState::start(0).pieces;
    let sa = ca.index(start[0]).expect("opening configuration") as usize;
    let sb = cb.index(start[1]).expect("opening configuration") as usize;
    let game = Game {
        fa: Game::probs(&ta),
        fb: Game::probs(&tb),
        won_a: ca.masks().iter().map(|&m| rules.has_won(m)).collect(),
        won_b: cb.masks().iter().map(|&m| rules.has_won(m)).collect(),
        occ_a: ca.masks().iter().map(|&m| m & track).collect(),
        occ_b: cb
            .masks()
            .iter()
            .map(|&m| board.track_in_other_view(1, m))
            .collect(),
        na: ca.len(),
        nb: cb.len(),
        classes_a,
        classes_b,
        ta,
        tb,
    };
    drop((ca, cb));
    let flags: Vec<AtomicU8> = (0..game.na * game.nb).map(|_| AtomicU8::new(0)).collect();
    let reach_passes = game.reach(&flags, (sa, sb));
    let classify_sweeps = game.classify(&flags);
    let counts = game.count_states(&flags);
    let never_states = counts.never;
    // The storage is chosen only now: a reachable never-ending state needs a third
    // component, and `f64` for two components may fit where it does not fit for three.
    let k = if never_states > 0 { 3 } else { 2 };
    let storage = match full.storage {
        Storage::Auto if fits(estimate_bytes(configs, k, 8)) => Storage::F64,
        Storage::Auto => Storage::F32,
        s => s,
    };
    let bytes = estimate_bytes(configs, k, bytes_per_value(storage));
    if !fits(bytes) {
        return Err(memory_error(bytes));
    }
    let build_seconds = started.elapsed().as_secs_f64();
    let rule = StopRule {
        tolerance: options.tolerance,
        max_sweeps: options.max_sweeps,
    };
    let run = Run {
        game: &game,
        flags: &flags,
        rule,
        start: (sa, sb),
    };
    let solving = Instant::now();
    let iterated = match (storage, k) {
        (Storage::F64, 2) => run.go::<F64Slot, 2>(false)?,
        (Storage::F64, _) => run.go::<F64Slot, 3>(false)?,
        (_, 2) => run.go::<F32Slot, 2>(true)?,
        _ => run.go::<F32Slot, 3>(true)?,
    };
    let solve_seconds = solving.elapsed().as_secs_f64();
    let Iterated {
        lower,
        stalled,
        work,
        ..
    } = iterated;
    let f = flags[sb * game.na + sa].load(Relaxed);
    let never_possible = never_states > 0;
    let [ba, bb, bn] = start_bounds(lower[0], k == 3 && f & 1 == 0, never_possible);
    let [ca_, cb_, cn] = start_bounds(lower[1], k == 3 && f & 2 == 0, never_possible);
    let w = p_start;
    let bounds = ResultBounds::from_openings(w, [ba, bb, bn], [ca_, cb_, cn]);
    let result = ExactResult::from_bounds(
        w,
        bounds,
        SolveStats {
            configs,
            product,
            states: counts.states,
            never_states,
            transitions: counts.transitions,
            self_loops: counts.self_loops,
            // Block sweeps cover part of the product: the work in units of full sweeps.
            iterations: work.cell_updates.div_ceil(counts.cells.max(1)) as usize,
            memory_bytes: bytes,
            build_seconds,
            solve_seconds,
        },
    );
    Ok(FullOutcome {
        result,
        storage,
        classify_sweeps,
        reach_passes,
        stalled,
        work,
    })
}

struct Run<'g> {
    game: &'g Game,
    flags: &'g [AtomicU8],
    rule: StopRule,
    start: (usize, usize),
}

/// What [`Run::go`] found.
struct Iterated {
    /// Lower bounds `[V, W, Z]` at both openings.
    lower: [[f64; 3]; 2],
    /// Under `f32`: stopped gaining before the tolerance.
    stalled: bool,
    work: Work,
}

/// The work of the value iteration, independent of threads and timing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Work {
    /// Sweeps over single blocks (one pair of goal counts) in the block pass.
    pub block_sweeps: usize,
    /// Sweeps over the whole product after the block pass.
    pub global_sweeps: usize,
    /// Pairs of configurations updated (both sides at once), over both phases.
    pub cell_updates: u64,
}

impl Work {
    fn add(&mut self, t: &Tally) {
        self.cell_updates += t.updates;
    }
}

/// Whether the width stopped falling: three sweeps gained less than 1 %. While a block
/// (or the whole) still converges, a sweep cuts the width by a quarter or more; once it has
/// settled at the `f32` floor or at the width it inherits, the width moves by ulps only.
fn stopped_gaining(widths: &[f64]) -> bool {
    let h = widths.len();
    h > 3 && widths[h - 1] >= 0.99 * widths[h - 4]
}

impl Run<'_> {
    /// Iterates to the tolerance: first block by block, then, if the openings are not yet
    /// certified, global sweeps.
    fn go<S: Slot, const K: usize>(&self, may_stall: bool) -> Result<Iterated, ExactError> {
        let g = self.game;
        let n = g.na * g.nb * 2 * K;
        let vals: Vec<S> = (0..n).map(|_| S::zero()).collect();
        if K == 3 {
            // Z = 1 on the never-ending states, held fixed.
            vals.par_chunks(2 * K)
                .zip(self.flags.par_iter())
                .for_each(|(cell, f)| {
                    let f = f.load(Relaxed);
                    for side in 0..2 {
                        if f >> side & 1 == 0 {
                            cell[side * K + 2].set(1.0);
                        }
                    }
                });
        }
        let (sa, sb) = self.start;
        let base = (sb * g.na + sa) * 2 * K;
        let lower = |side: usize| -> [f64; 3] {
            std::array::from_fn(|c| {
                if c < K {
                    vals[base + side * K + c].get()
                } else {
                    0.0
                }
            })
        };
        let start_flags = self.flags[sb * g.na + sa].load(Relaxed);
        let width = |side: usize| {
            if K == 3 && start_flags >> side & 1 == 0 {
                return 0.0;
            }
            let [v, w, z] = lower(side);
            (1.0 - v - w - z).max(0.0)
        };
        let gap = || width(0).max(width(1));
        let (mut work, opening_stalled) = self.block_pass::<S, K>(&vals, &gap);
        // Under f32 the global sweeps cannot gain where the opening block stopped gaining.
        let mut stalled = may_stall && opening_stalled;
        let mut last_gap = gap();
        if last_gap > self.rule.tolerance && !stalled {
            let mut history: Vec<f64> = Vec::new();
            let convergence = fixpoint::iterate(&self.rule, |_| {
                let t = g.sweep::<S, K>(&vals, self.flags, 0..g.nb, 0..g.na);
                work.add(&t);
                work.global_sweeps += 1;
                let gap = gap();
                history.push(gap);
                // f32 storage: stop once the width stopped falling.
                if may_stall && (t.change == 0.0 || stopped_gaining(&history)) {
                    stalled = true;
                    return SweepReport {
                        change: t.change,
                        gap: 0.0,
                    };
                }
                SweepReport {
                    change: t.change,
                    gap,
                }
            })
            .map_err(ExactError::NotConverged)?;
            last_gap = *history.last().unwrap_or(&convergence.gap);
        }
        if stalled && last_gap <= self.rule.tolerance {
            stalled = false;
        }
        Ok(Iterated {
            lower: [lower(0), lower(1)],
            stalled,
            work,
        })
    }

    /// Solves the blocks of equal goal counts one after the other, those a game reaches
    /// last first (pieces never leave the goal, so a block's successors lie in it or in
    /// blocks with at least as many goal pieces of each player: already done). Within a
    /// block the captures still run backwards, so it is swept until the largest width
    /// `1 - V - W - Z` over its states is at most a target that falls from the tolerance
    /// (no goal pieces) to half of it (the most goal pieces): a block's converged width is
    /// an average of the widths it leads to, so each block inherits less than it may keep,
    /// and the opening block, swept until the openings are certified, can get there. A
    /// block that stops gaining (the rounding floor, or `f32` storage) is left as it is.
    /// Returns the work and whether the opening block stopped gaining.
    fn block_pass<S: Slot, const K: usize>(
        &self,
        vals: &[S],
        gap: &dyn Fn() -> f64,
    ) -> (Work, bool) {
        let g = self.game;
        let (sa, sb) = self.start;
        let mut work = Work::default();
        let most = |classes: &[GoalClass]| classes.iter().map(|c| c.goals).max().unwrap_or(0);
        let deepest = f64::from((most(&g.classes_a) + most(&g.classes_b)).max(1));
        for rows in &g.classes_b {
            for cols in &g.classes_a {
                let opening = rows.range.contains(&sb) && cols.range.contains(&sa);
                let level = f64::from(rows.goals + cols.goals);
                let target = self.rule.tolerance * (1.0 - 0.5 * level / deepest);
                // The opening block is measured by what the certificate needs.
                let mut widths = Vec::new();
                while widths.len() < self.rule.max_sweeps {
                    let t =
                        g.sweep::<S, K>(vals, self.flags, rows.range.clone(), cols.range.clone());
                    work.add(&t);
                    work.block_sweeps += 1;
                    if gap() <= self.rule.tolerance {
                        return (work, false);
                    }
                    widths.push(if opening { gap() } else { t.width });
                    let stopped = t.change == 0.0 || stopped_gaining(&widths);
                    if opening && stopped {
                        return (work, true);
                    }
                    if t.updates == 0 || t.width <= target || stopped {
                        break;
                    }
                }
            }
        }
        (work, false)
    }
}

/// Which solver produced an [`ExactResult`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverUsed {
    /// The sparse-matrix solver ([`super::solve_matchup`]).
    Sparse,
    /// The matrix-free solver with this storage (`F64` or `F32`).
    MatrixFree(Storage),
}

impl std::fmt::Display for SolverUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolverUsed::Sparse => write!(f, "sparse matrix"),
            SolverUsed::MatrixFree(Storage::F32) => write!(f, "matrix-free, f32 storage"),
            SolverUsed::MatrixFree(_) => write!(f, "matrix-free, f64 storage"),
        }
    }
}

/// An exact answer with the solver that produced it.
#[derive(Clone, Copy, Debug)]
pub struct Fitted {
    /// The result; its intervals are certified whichever solver ran.
    pub result: ExactResult,
    /// The solver that ran.
    pub solver: SolverUsed,
    /// Under `f32` storage: the iteration stopped gaining before the tolerance; the
    /// intervals are as wide as they say.
    pub stalled: bool,
}

/// The exact answer by whichever solver fits: the sparse-matrix solver (fastest on small
/// boards) where its chain fits in memory, else the matrix-free one, which stores no
/// transitions (`f64` values if they fit, else `f32`). `three-tries` has no matrix-free
/// form, so its refusal stands.
pub fn solve_fitting(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<Fitted, ExactError> {
    match super::solve_matchup(rules, a, b, options) {
        Err(ExactError::Memory { .. }) if !rules.profile().three_tries => {
            solve_matrix_free(rules, a, b, options, Storage::Auto)
        }
        other => other.map(|result| Fitted {
            result,
            solver: SolverUsed::Sparse,
            stalled: false,
        }),
    }
}

/// The matrix-free solver with the given storage, reported as a [`Fitted`].
pub fn solve_matrix_free(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    storage: Storage,
) -> Result<Fitted, ExactError> {
    let outcome = solve_full_with(rules, a, b, options, &FullOptions { storage })?;
    Ok(Fitted {
        result: outcome.result,
        solver: SolverUsed::MatrixFree(outcome.storage),
        stalled: outcome.stalled,
    })
}
