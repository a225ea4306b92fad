//! The matrix-free exact solver for boards whose transition matrix does not fit: the full
//! BwInf board (40 fields, 4 pieces each) included.
//!
//! # Layout
//! Each player's reachable configurations ([`super::reachable::player_configs`], most
//! advanced first) and move/capture tables ([`PlayerTables`]) are all the solver stores
//! besides the values. The values live in one flat vector over the whole product
//! `b × a × side × component`, `a` (player A's configuration) innermost after the side,
//! with `K = 2` components (`V` = P(A wins), `W` = P(B wins)) or `K = 3` (plus `Z`, the
//! probability of falling into the never-ending set) when such a set exists. The two sides
//! of one pair of configurations are neighbours, so the exact two-state elimination below
//! touches one cache line.
//!
//! Pairs that cannot occur in a game (two pieces on one track field, a configuration that
//! has already won) are part of the product but never the successor of a pair that can
//! occur; the sweeps skip them (their slots stay 0 and are never read).
//!
//! # The sweep
//! Rows `b` in increasing index (most advanced first), `a` increasing in a row. A move of A
//! leads to a more advanced `a' < a` in the same row (already updated in this sweep) or, on
//! a capture, to a row `capture(b) > b` (updated in the previous sweep); a move of B leads to
//! a row `b' < b`, already updated, and `a` or `capture(a)`. So without captures one sweep is
//! exact; captures run backwards and need further sweeps, about one per capture level.
//! Within a pair of configurations `(a, b)` the two sides are solved together exactly: a
//! roll that moves nothing keeps the state (a 6: same side, a self-loop) or passes the turn
//! to the same pair, and the 2×2 system
//! `x0 = s0 + p00 x0 + p01 x1`, `x1 = s1 + p10 x0 + p11 x1` is solved in closed form.
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
//! and reports the width it reached (see [`FullOutcome::stalled`]).
//!
//! # Measured (BwInf board, tolerance 1e-9, 2 cores)
//! | matchup | configurations | live states | memory | sweeps | time |
//! |---|---|---|---|---|---|
//! | 1,1,1,6,6,6 vs 1,6,6,6,6,6 | 5,001 × 5,001 | 4.47e7 | 0.89 GB | 16-18 | 8.4 s |
//! | 1..6 vs 1..6 | 14,798 × 14,798 | 3.76e8 | 7.3 GB | 19-21 | 147 s (261 s on a loaded machine) |
//!
//! With `f32` storage the first pair stalls at a certified width of about 1.4e-6.
//! `three-tries` is not supported (it would add the tries counter to the state).

use super::tables::{NO_LANDING, PlayerTables};
use super::{
    Bounds, ExactError, ExactResult, ResultBounds, SolveOptions, SolveStats, memory, p_a_starts,
    reachable,
};
use crate::dice::Die;
use crate::fixpoint::{self, Convergence, StopRule, SweepReport};
use crate::rules::{GameState, Rules};
use rayon::prelude::*;
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
    /// Under `f32`: the iteration stopped gaining before the tolerance was reached; the
    /// intervals are as wide as they say.
    pub stalled: bool,
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
}

/// Rows of `a` below this run on one thread.
const MIN_CHUNK: usize = 1024;

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

    /// One pass of the "can reach a win" search over the pair `(a, b)`; bit `s` of the flag
    /// is set when side `s` to move can reach a win. Returns whether it changed.
    #[inline(always)]
    fn classify_cell(&self, flags: &[AtomicU8], row: &[RowMove], a: usize, b: usize) -> bool {
        let cell = b * self.na + a;
        let old = flags[cell].load(Relaxed);
        if old == 3 {
            return false;
        }
        let mut f = old;
        for _ in 0..2 {
            let before = f;
            if f & 1 == 0 {
                for &(k, _) in &self.fa {
                    let e = self.ta.entry(a as u32, k);
                    let ok = e.won || {
                        let b2 = if e.landing == NO_LANDING {
                            b
                        } else {
                            self.tb.capture(b as u32, e.landing) as usize
                        };
                        let side = usize::from(e.turn[0] & 4 == 0);
                        let g = if b2 == b && e.next as usize == a {
                            f
                        } else {
                            flags[b2 * self.na + e.next as usize].load(Relaxed)
                        };
                        g >> side & 1 != 0
                    };
                    if ok {
                        f |= 1;
                        break;
                    }
                }
            }
            if f & 2 == 0 {
                for m in row {
                    let ok = m.won || {
                        let a2 = if m.landing == NO_LANDING {
                            a
                        } else {
                            self.ta.capture(a as u32, m.landing) as usize
                        };
                        let side = usize::from(m.same);
                        let g = if m.next == b && a2 == a {
                            f
                        } else {
                            flags[m.next * self.na + a2].load(Relaxed)
                        };
                        g >> side & 1 != 0
                    };
                    if ok {
                        f |= 2;
                        break;
                    }
                }
            }
            if f == before || f == 3 {
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

    /// The least fixed point of "can reach a win" by sweeps; returns the flags, the number
    /// of never-ending states among the pairs where nobody has won, and the sweeps.
    fn classify(&self) -> (Vec<AtomicU8>, u64, usize) {
        let flags: Vec<AtomicU8> = (0..self.na * self.nb).map(|_| AtomicU8::new(0)).collect();
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            let mut changed = false;
            for b in 0..self.nb {
                if self.won_b[b] {
                    continue;
                }
                let row = self.row_moves(b);
                let occ = self.occ_b[b];
                changed |= (0..self.na)
                    .into_par_iter()
                    .with_min_len(MIN_CHUNK)
                    .map(|a| self.live(a, occ) && self.classify_cell(&flags, &row, a, b))
                    .reduce(|| false, |x, y| x | y);
            }
            if !changed {
                break;
            }
        }
        let never: u64 = (0..self.nb)
            .into_par_iter()
            .filter(|&b| !self.won_b[b])
            .map(|b| {
                let mut n = 0u64;
                for a in 0..self.na {
                    if self.live(a, self.occ_b[b]) {
                        n += u64::from(2 - flags[b * self.na + a].load(Relaxed).count_ones());
                    }
                }
                n
            })
            .sum();
        (flags, never, sweeps)
    }

    /// Updates the pair `(a, b)` (both sides) in place; returns the largest change.
    #[inline(always)]
    fn update_cell<S: Slot, const K: usize>(
        &self,
        vals: &[S],
        flags: &[AtomicU8],
        row: &[RowMove],
        a: usize,
        b: usize,
    ) -> f64 {
        let cell = b * self.na + a;
        let (never0, never1) = if K == 3 {
            let f = flags[cell].load(Relaxed);
            (f & 1 == 0, f & 2 == 0)
        } else {
            (false, false)
        };
        if never0 && never1 {
            return 0.0;
        }
        let na = self.na;
        let mut s0 = [0.0f64; K];
        let mut s1 = [0.0f64; K];
        let (mut p00, mut p01, mut p10, mut p11) = (0.0, 0.0, 0.0, 0.0);
        if !never0 {
            for &(k, p) in &self.fa {
                let e = self.ta.entry(a as u32, k);
                if e.won {
                    s0[0] += p;
                    continue;
                }
                let same = e.turn[0] & 4 != 0;
                if e.next as usize == a {
                    if same {
                        p00 += p;
                    } else {
                        p01 += p;
                    }
                    continue;
                }
                let b2 = if e.landing == NO_LANDING {
                    b
                } else {
                    self.tb.capture(b as u32, e.landing) as usize
                };
                let at = ((b2 * na + e.next as usize) * 2 + usize::from(!same)) * K;
                for c in 0..K {
                    s0[c] += p * vals[at + c].get();
                }
            }
        }
        if !never1 {
            for m in row {
                if m.won {
                    s1[1] += m.p;
                    continue;
                }
                if m.next == b {
                    if m.same {
                        p11 += m.p;
                    } else {
                        p10 += m.p;
                    }
                    continue;
                }
                let a2 = if m.landing == NO_LANDING {
                    a
                } else {
                    self.ta.capture(a as u32, m.landing) as usize
                };
                let at = ((m.next * na + a2) * 2 + usize::from(m.same)) * K;
                for c in 0..K {
                    s1[c] += m.p * vals[at + c].get();
                }
            }
        }
        let base = cell * 2 * K;
        let mut change = 0.0f64;
        let mut put = |at: usize, x: [f64; K]| {
            for c in 0..K {
                let old = vals[at + c].get();
                change = change.max((x[c] - old).abs());
                vals[at + c].set(x[c]);
            }
        };
        // The never-ending side's fixed value: Z = 1.
        let fixed = |c: usize| if c == 2 { 1.0 } else { 0.0 };
        if !never0 && !never1 {
            let d = (1.0 - p00) * (1.0 - p11) - p01 * p10;
            let x0: [f64; K] = std::array::from_fn(|c| (s0[c] * (1.0 - p11) + p01 * s1[c]) / d);
            let x1: [f64; K] = std::array::from_fn(|c| (s1[c] * (1.0 - p00) + p10 * s0[c]) / d);
            put(base, x0);
            put(base + K, x1);
        } else if never0 {
            let x1: [f64; K] = std::array::from_fn(|c| (s1[c] + p10 * fixed(c)) / (1.0 - p11));
            put(base + K, x1);
        } else {
            let x0: [f64; K] = std::array::from_fn(|c| (s0[c] + p01 * fixed(c)) / (1.0 - p00));
            put(base, x0);
        }
        change
    }

    /// One Gauss-Seidel sweep; returns the largest change.
    fn sweep<S: Slot, const K: usize>(&self, vals: &[S], flags: &[AtomicU8]) -> f64 {
        let mut change = 0.0f64;
        for b in 0..self.nb {
            if self.won_b[b] {
                continue;
            }
            let row = self.row_moves(b);
            let occ = self.occ_b[b];
            let c = (0..self.na)
                .into_par_iter()
                .with_min_len(MIN_CHUNK)
                .map(|a| {
                    if self.live(a, occ) {
                        self.update_cell::<S, K>(vals, flags, &row, a, b)
                    } else {
                        0.0
                    }
                })
                .reduce(|| 0.0, f64::max);
            change = change.max(c);
        }
        change
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
    let ca = reachable::player_configs(rules, a);
    let cb = reachable::player_configs(rules, b);
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
    let board = rules.board();
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
        ta,
        tb,
    };
    drop((ca, cb));
    let (flags, never_states, classify_sweeps) = game.classify();
    // The storage is chosen only now: a never-ending set needs a third component, and
    // `f64` for two components may fit where it does not fit for three.
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
    let states = 2
        * (0..game.nb)
            .into_par_iter()
            .filter(|&b| !game.won_b[b])
            .map(|b| {
                (0..game.na)
                    .filter(|&a| game.live(a, game.occ_b[b]))
                    .count() as u64
            })
            .sum::<u64>();
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
    let (lower, convergence, stalled) = match (storage, k) {
        (Storage::F64, 2) => run.go::<F64Slot, 2>(false)?,
        (Storage::F64, _) => run.go::<F64Slot, 3>(false)?,
        (_, 2) => run.go::<F32Slot, 2>(true)?,
        _ => run.go::<F32Slot, 3>(true)?,
    };
    let solve_seconds = solving.elapsed().as_secs_f64();
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
            states,
            never_states,
            // Matrix-free: nothing is stored per transition.
            transitions: 0,
            self_loops: 0,
            iterations: convergence.sweeps,
            memory_bytes: bytes,
            build_seconds,
            solve_seconds,
        },
    );
    Ok(FullOutcome {
        result,
        storage,
        classify_sweeps,
        stalled,
    })
}

struct Run<'g> {
    game: &'g Game,
    flags: &'g [AtomicU8],
    rule: StopRule,
    start: (usize, usize),
}

impl Run<'_> {
    /// Iterates to the tolerance; returns the lower bounds `[V, W, Z]` of both openings.
    #[allow(clippy::type_complexity)]
    fn go<S: Slot, const K: usize>(
        &self,
        may_stall: bool,
    ) -> Result<([[f64; 3]; 2], Convergence, bool), ExactError> {
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
        let mut stalled = false;
        let mut history: Vec<f64> = Vec::new();
        let convergence = fixpoint::iterate(&self.rule, |_| {
            let change = g.sweep::<S, K>(&vals, self.flags);
            let gap = width(0).max(width(1));
            history.push(gap);
            // f32 storage: stop once ten sweeps gained less than 0.1 % of the width.
            let h = history.len();
            if may_stall && (change == 0.0 || (h > 10 && gap >= 0.999 * history[h - 11])) {
                stalled = true;
                return SweepReport { change, gap: 0.0 };
            }
            SweepReport { change, gap }
        })
        .map_err(ExactError::NotConverged)?;
        let convergence = Convergence {
            gap: *history.last().unwrap_or(&f64::INFINITY),
            ..convergence
        };
        if stalled && convergence.gap <= self.rule.tolerance {
            stalled = false;
        }
        Ok(([lower(0), lower(1)], convergence, stalled))
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
