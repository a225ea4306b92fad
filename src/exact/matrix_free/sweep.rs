//! The value iteration: Gauss-Seidel sweeps over the product, first block by block, then
//! globally, all driven by [`crate::fixpoint`].
//!
//! # The sweep
//! Rows `b` in increasing index (most advanced first), `a` increasing in a row. Goal pieces
//! never leave the goal, so ordering by goal count first keeps "a move leads to a smaller
//! index" (the count stays or rises; with it equal, the progress rises). A move of A
//! leads to a more advanced `a' < a` in the same row (already updated in this sweep) or, on
//! a capture, to a row `capture(b) > b` (updated in the previous sweep); a move of B leads to
//! a row `b' < b`, already updated, and `a` or `capture(a)`. So without captures one sweep is
//! exact; captures run backwards and need further sweeps, about one per capture level.
//! Within a pair of configurations `(a, b)` the two sides are solved together exactly
//! ([`crate::exact::shared::group::solve_pair`]): a roll that moves nothing keeps the state (a 6:
//! same side, a self-loop) or passes the turn to the same pair; under `three-tries` the cells
//! whose mover may take another try are solved with their tries levels ([`super::tries`]).
//! Only the states the reachability search marked are updated; no reachable state leads to
//! another.
//!
//! # Blocks by goal occupancy
//! The pair (goal pieces of A, goal pieces of B) never decreases along a game, and each
//! pair of counts is a rectangle of rows and columns. The solver first solves these blocks
//! one by one, those with the most goal pieces first, each swept until the largest width
//! `1 - V - W - Z` among its states is at most its target (from the tolerance down to half
//! of it for the deepest block, see `Run::block_pass`), the opening block until the
//! openings are certified. So the late blocks are not swept again while the captures of
//! the early ones settle. If the openings are not certified after this pass, global sweeps
//! follow; the certificate alone decides stopping either way. `iterations` in the
//! stats is the work in units of full sweeps (cell updates / live pairs, rounded up).
//!
//! The block pass saves about a quarter of the cell updates where blocks settle in few
//! sweeps, less for dice of only 1s and 6s, whose every block needs nearly as many sweeps as
//! the whole (measurements in `docs/src/performance.md`). No block's target is looser than
//! the tolerance: looser targets for the blocks before the opening one helped some boards
//! and hurt others (the opening block inherited too much and needed global sweeps), so no
//! tuned constant.
//!
//! # One value at a time
//! With [`Components::OneAtATime`](super::storage::Components::OneAtATime) the same passes run twice
//! over one stored value: `V` (A's wins count, B's do not), then `W`. `V`'s blocks, its
//! opening block included, stop on their largest change ([`APART_CHANGE`]), since no width
//! can be known with one bound; `W`'s opening block and global sweeps stop on the
//! openings' certified width `1 - V - W`, or when it stops falling (what `V` left), which
//! is then reported as reached.
//!
//! Releasing ([`Components::OneAtATimeReleasing`](super::storage::Components::OneAtATimeReleasing)), the block pass gives back each block's
//! values once the blocks that read it are done ([`Releaser`]), and the sweeps read the
//! packed reachable bits ([`SideFlags`]); the pass is all there is, no global sweeps.
//!
//! # Threads
//! Each thread takes the next row and sweeps it whole, so the rows in flight are
//! neighbours. A row may read a neighbour's value from this sweep or the last
//! ([`super::storage`]), which keeps every property of the monotone iteration; a move
//! rarely leads into a neighbouring row (B's moves advance a piece, which changes the
//! row by a whole band of configurations), so two threads need no more sweeps than one.
//! Splitting each row among the threads instead, as before, handed every row over between
//! threads and back: on the BwInf board with 1..6 against 1..6 the sweeps took 98 s that
//! way and 68 s by whole rows (`docs/src/performance.md`). With one thread the result is
//! bit-for-bit reproducible.

use super::game::{Game, Row};
use super::layout::{
    Block, CAN_NEVER, CAN_WIN, GoalClass, REACHED, ReachedBits, SIDE_BITS, release_schedule,
};
use super::storage::{Slot, Values, ZLayout};
use super::tries;
use crate::exact::shared::ExactError;
use crate::exact::shared::group::{solve_one, solve_pair};
use crate::exact::shared::progress::{Observer, Phase, Progress};
use crate::exact::shared::search::in_order_fold;
use crate::fixpoint::{self, Stall, StopRule, SweepReport};
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use web_time::Instant;

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
    fn cell() -> Tally {
        Tally {
            change: 0.0,
            width: 0.0,
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

/// Where a cell's sums count a win of A (`[0]`) and of B (`[1]`): the component, or `None`
/// where the sweep does not carry it (one value at a time, [`Components::OneAtATime`](super::storage::Components::OneAtATime)).
#[derive(Clone, Copy, Debug)]
struct Wins([Option<usize>; 2]);

impl Wins {
    /// `V` and `W` together.
    const BOTH: Wins = Wins([Some(0), Some(1)]);

    /// Only component `c` (0: `V`, 1: `W`), stored as the one value.
    fn only(c: usize) -> Wins {
        let mut w = [None, None];
        w[c] = Some(0);
        Wins(w)
    }

    /// Where a win of `winner` (0: A, 1: B) counts; with two or three values it is the
    /// winner's component, known to the compiler.
    #[inline(always)]
    fn slot<const K: usize>(self, winner: usize) -> Option<usize> {
        if K >= 2 { Some(winner) } else { self.0[winner] }
    }
}

/// Where a sweep reads the flags of a pair's two sides ([`SIDE_BITS`]).
trait SideFlags: Sync {
    /// The flags of side 0 and side 1 of `cell`.
    fn sides(&self, game: &Game, cell: usize) -> [u8; 2];
}

/// The flag bytes the searches left in the game.
struct FlagBytes;

impl SideFlags for FlagBytes {
    #[inline(always)]
    fn sides(&self, game: &Game, cell: usize) -> [u8; 2] {
        // One load of the cell's flags for both sides.
        let f = game.flags[cell].load(Relaxed);
        [f & SIDE_BITS, (f >> 1) & SIDE_BITS]
    }
}

/// Only [`REACHED`], packed: enough for one value at a time, whose update reads no other
/// flag (`CAN_WIN` matters only with `Z`).
impl SideFlags for ReachedBits {
    #[inline(always)]
    fn sides(&self, _: &Game, cell: usize) -> [u8; 2] {
        self.sides(cell).map(|r| if r { REACHED } else { 0 })
    }
}

/// Updates the pair `(a, row.b)` (both sides) in place; `TRIES`: some configuration has
/// tries levels ([`super::tries`]).
#[inline(always)]
fn update_cell<S: Slot, F: SideFlags, const K: usize, const TRIES: bool>(
    game: &Game,
    flags: &F,
    vals: &Values<S>,
    wins: Wins,
    row: &Row,
    a: usize,
) -> Tally {
    let cell = game.cell(a, row.b);
    let sides = flags.sides(game, cell);
    if sides.iter().all(|f| f & REACHED == 0) {
        return Tally::default();
    }
    // A side no game reaches is not updated; no reachable state leads to it. So if the
    // other side leads to it (`c[0][1]`, `c[1][0]`), it is reachable after all: the
    // one-sided solves below only meet such a side with a probability of 0. A never-ending
    // side holds its exact value.
    let skip = sides.map(|f| f & REACHED == 0 || (K == 3 && f & CAN_WIN == 0));
    if skip[0] && skip[1] {
        return Tally::cell();
    }
    // The states of the cell: `base` (A to move) and `base + 1` (B to move), tries level 0.
    let base = cell * 2;
    let mut tally = Tally::cell();
    let mut put = |state: usize, x: [f64; K]| {
        // What is stored (rounded down under f32) is what the certificate sees.
        let (change, assigned) = vals.store(state, x);
        tally.change = tally.change.max(change);
        tally.width = tally.width.max(1.0 - assigned);
    };
    // One value at a time is refused under `three-tries` (`Run::go_apart`).
    if TRIES && K > 1 && (0..2).any(|side| !skip[side] && game.levels(a, row.b, side) > 1) {
        let x = tries::solve_cell(game, row, a, skip, |cell, side| {
            vals.load::<K>(cell * 2 + side)
        });
        for side in (0..2).filter(|&side| !skip[side]) {
            put(base + side, x[side]);
        }
        return tally;
    }
    let (mut s0, mut s1) = ([0.0f64; K], [0.0f64; K]);
    let mut c = [[0.0f64; 2]; 2];
    let add = |s: &mut [f64; K], p: f64, next: usize, side: usize| {
        let v = vals.load::<K>(next * 2 + side);
        for (x, v) in s.iter_mut().zip(v) {
            *x += p * v;
        }
    };
    // Written out per side (rather than through `Game::for_each_move`): this is the hot
    // loop, and constant indices keep the sums in registers. The targets come from the
    // row's look-ups (`Row::a_target`, `Game::b_target`).
    if !skip[0] {
        for (e, &(_, p)) in game.a_entries(a).iter().zip(&game.fa) {
            if e.won {
                // A wins: `V`.
                if let Some(k) = wins.slot::<K>(0) {
                    s0[k] += p;
                }
                continue;
            }
            let next = row.a_target(e);
            let side = usize::from(e.turn[0] & 4 == 0);
            if next == cell {
                c[0][side] += p;
            } else {
                add(&mut s0, p, next, side);
            }
        }
    }
    if !skip[1] {
        for m in &row.moves {
            if m.won {
                // B wins: `W`.
                if let Some(k) = wins.slot::<K>(1) {
                    s1[k] += m.p;
                }
                continue;
            }
            let next = game.b_target(m, a);
            let side = usize::from(m.same);
            if next == cell {
                c[1][side] += m.p;
            } else {
                add(&mut s1, m.p, next, side);
            }
        }
    }
    let s = [s0, s1];
    // The never-ending side's fixed value: Z = 1.
    let fixed = |k: usize| if k == 2 { 1.0 } else { 0.0 };
    match skip {
        [false, false] => {
            let [x0, x1] = solve_pair(c, s);
            put(base, x0);
            put(base + 1, x1);
        }
        [true, _] => {
            let s1 = std::array::from_fn(|k| s[1][k] + c[1][0] * fixed(k));
            put(base + 1, solve_one(c[1][1], s1));
        }
        _ => {
            let s0 = std::array::from_fn(|k| s[0][k] + c[0][1] * fixed(k));
            put(base, solve_one(c[0][0], s0));
        }
    }
    tally
}

/// One Gauss-Seidel sweep over the block of rows `rows` and columns `cols` (the whole
/// product for a global sweep), in the order of the module docs.
fn sweep<S: Slot, F: SideFlags, const K: usize>(
    game: &Game,
    flags: &F,
    vals: &Values<S>,
    wins: Wins,
    rows: Range<usize>,
    cols: Range<usize>,
) -> Tally {
    // Without tries levels the cell update is compiled without their branch.
    if game.three_tries {
        sweep_with::<S, F, K, true>(game, flags, vals, wins, rows, cols)
    } else {
        sweep_with::<S, F, K, false>(game, flags, vals, wins, rows, cols)
    }
}

/// [`sweep`] for a given `TRIES` ([`update_cell`]). Each thread takes the next row and
/// sweeps it whole ([`in_order_fold`]): rows in flight at once are neighbours, whose moves
/// rarely lead into each other, and a row needs no hand-over between threads.
fn sweep_with<S: Slot, F: SideFlags, const K: usize, const TRIES: bool>(
    game: &Game,
    flags: &F,
    vals: &Values<S>,
    wins: Wins,
    rows: Range<usize>,
    cols: Range<usize>,
) -> Tally {
    let first = rows.start;
    let sweep_row = |b: usize| {
        let mut tally = Tally::default();
        if game.won_b(b) {
            return tally;
        }
        let row = game.row(b);
        let occ = game.occ_b(b);
        for a in cols.clone() {
            if game.live(a, occ) {
                tally = tally.merge(update_cell::<S, F, K, TRIES>(
                    game, flags, vals, wins, &row, a,
                ));
            }
        }
        tally
    };
    in_order_fold(
        rows.len(),
        1,
        false,
        true,
        |rows| {
            rows.map(|i| sweep_row(first + i))
                .fold(Tally::default(), Tally::merge)
        },
        Tally::merge,
    )
}

/// The value iteration of one solve.
pub(crate) struct Run<'g> {
    /// The game, its flags set by the searches.
    pub game: &'g Game,
    /// The caller's stopping rule.
    pub rule: StopRule,
    /// Cell updates of a full sweep of every value (the work's unit in the reports): the
    /// pairs of configurations, twice with one value at a time.
    pub cells: u64,
    /// Told every sweep.
    pub observer: Observer<'g>,
    /// When the solve started (the reports' clock).
    pub started: Instant,
}

/// What [`Run::go`] found.
pub(crate) struct Iterated {
    /// Lower bounds `[V, W, Z]` at both openings.
    pub lower: [[f64; 3]; 2],
    /// Under `f32`: stopped gaining before the tolerance.
    pub stalled: bool,
    /// The work done.
    pub work: Work,
    /// States that kept `Z` in the compact array (sparse `Z` only).
    pub sparse_z_states: u64,
}

/// How a pass over the blocks reads and measures its progress.
struct Pass<'p, F> {
    /// Where the sweeps read which states are reachable.
    flags: &'p F,
    /// Each block's values are released once no later block reads them
    /// ([`release_schedule`]); no global sweep may follow.
    releasing: bool,
    /// Where the sums count the wins (which components are carried).
    wins: Wins,
    /// The openings' certified width now, `INFINITY` while it cannot be known (`V` alone).
    openings: &'p dyn Fn() -> f64,
    /// Blocks already reported before this pass (`W` after `V`) and in all.
    numbering: (usize, usize),
}

/// One value at a time: a block (and `V`'s opening block) is done when its largest change
/// in a sweep is this fraction of its target, since its own width is not known. The
/// sweeps of a block converge geometrically, by about a factor of 8 a sweep on the BwInf
/// board (8 to 13 sweeps from width 1 to 1e-9), so the error left after such a change is
/// well under the target; the certificate at the end decides anyway.
const APART_CHANGE: f64 = 0.05;

impl Run<'_> {
    /// Iterates to the tolerance: first block by block, then, if the openings are not yet
    /// certified, global sweeps; `may_stall` (rounded storage) lets the global sweeps end
    /// in a stall. `z` is how `Z` is kept (`K = 3` only).
    pub(crate) fn go<S: Slot, const K: usize>(
        &self,
        may_stall: bool,
        z: ZLayout,
    ) -> Result<Iterated, ExactError> {
        let g = self.game;
        let flags = |state: usize| g.side_flags(state / 2, state % 2);
        // Z is kept where the never-ending set can be reached (sparse; that search has run
        // then) or everywhere (dense), and is 1, held fixed, on the reachable part of it.
        let vals = Values::<S>::new(
            g.na * g.nb * 2,
            (K == 3).then_some(z),
            |s| flags(s) & CAN_NEVER != 0,
            |s| flags(s) & (REACHED | CAN_WIN) == REACHED,
        );
        let start = g.cell(g.start.0, g.start.1);
        let lower = |side: usize| -> [f64; 3] {
            let v = vals.load::<K>(start * 2 + side);
            std::array::from_fn(|k| if k < K { v[k] } else { 0.0 })
        };
        let width = |side: usize| {
            if K == 3 && g.side_flags(start, side) & CAN_WIN == 0 {
                return 0.0;
            }
            let [v, w, z] = lower(side);
            (1.0 - v - w - z).max(0.0)
        };
        let gap = || width(0).max(width(1));
        let blocks = g.classes_a.len() * g.classes_b.len();
        let pass = Pass {
            flags: &FlagBytes,
            releasing: false,
            wins: Wins::BOTH,
            openings: &gap,
            numbering: (0, blocks),
        };
        let mut work = Work::default();
        let stalled = self.iterate::<S, FlagBytes, K>(&vals, &pass, may_stall, &mut work)?;
        Ok(Iterated {
            lower: [lower(0), lower(1)],
            stalled,
            work,
            sparse_z_states: vals.sparse_z_states(),
        })
    }

    /// [`Components::OneAtATime`](super::storage::Components::OneAtATime): `V` alone from 0, block by block, each block swept until
    /// its largest change is [`APART_CHANGE`] of its target; its values are dropped but at
    /// the openings. Then `W` alone the same way, except that its opening block and any
    /// global sweeps after it see the openings' certified width `1 - V - W` and stop on it
    /// (or when it stops falling: the width `V` left cannot be narrowed by `W`, and is then
    /// reported as reached, `stalled`). Needs a game without a never-ending state and
    /// without tries levels.
    ///
    /// With `released` ([`Components::OneAtATimeReleasing`](super::storage::Components::OneAtATimeReleasing)) the sweeps read the packed
    /// reachable bits instead of the game's flag bytes (which the caller may then have
    /// dropped), each pass releases a block's values once no later block reads them, and
    /// no global sweep follows the block pass.
    pub(crate) fn go_apart<S: Slot>(
        &self,
        released: Option<&ReachedBits>,
    ) -> Result<Iterated, ExactError> {
        match released {
            Some(bits) => self.apart_with::<S, _>(bits, true),
            None => self.apart_with::<S, _>(&FlagBytes, false),
        }
    }

    /// [`Run::go_apart`] reading the flags from `flags`.
    fn apart_with<S: Slot, F: SideFlags>(
        &self,
        flags: &F,
        releasing: bool,
    ) -> Result<Iterated, ExactError> {
        let g = self.game;
        if g.three_tries {
            // `solve_full_with` never plans it so: a bug, not a result.
            return Err(ExactError::TooLarge(
                "internal: one value at a time under three-tries".into(),
            ));
        }
        let start = g.cell(g.start.0, g.start.1);
        let blocks = g.classes_a.len() * g.classes_b.len();
        let mut work = Work::default();
        let mut lower = [[0.0f64; 3]; 2];
        let v = {
            let vals = Values::<S>::single(g.na * g.nb * 2);
            let unknown = || f64::INFINITY;
            let pass = Pass {
                flags,
                releasing,
                wins: Wins::only(0),
                openings: &unknown,
                numbering: (0, 2 * blocks),
            };
            self.block_pass::<S, F, 1>(&vals, &pass, &mut work);
            [0, 1].map(|side| vals.load::<1>(start * 2 + side)[0])
        };
        let vals = Values::<S>::single(g.na * g.nb * 2);
        let w = |side: usize| vals.load::<1>(start * 2 + side)[0];
        let gap = || {
            (0..2)
                .map(|side| (1.0 - v[side] - w(side)).max(0.0))
                .fold(0.0, f64::max)
        };
        let pass = Pass {
            flags,
            releasing,
            wins: Wins::only(1),
            openings: &gap,
            numbering: (blocks, 2 * blocks),
        };
        let stalled = self.iterate::<S, F, 1>(&vals, &pass, true, &mut work)?;
        for side in 0..2 {
            lower[side][0] = v[side];
            lower[side][1] = w(side);
        }
        Ok(Iterated {
            lower,
            stalled,
            work,
            sparse_z_states: 0,
        })
    }

    /// The block pass, then global sweeps while the openings are not certified (not after a
    /// releasing pass: the values they would read are gone); returns whether the iteration
    /// stalled above the tolerance (only with `may_stall`, or releasing).
    fn iterate<S: Slot, F: SideFlags, const K: usize>(
        &self,
        vals: &Values<S>,
        pass: &Pass<'_, F>,
        may_stall: bool,
        work: &mut Work,
    ) -> Result<bool, ExactError> {
        let g = self.game;
        let gap = pass.openings;
        let opening_stalled = self.block_pass::<S, F, K>(vals, pass, work);
        if pass.releasing {
            // What the block pass reached is all there is: reported as it is.
            return Ok(gap() > self.rule.tolerance);
        }
        // Under f32 the global sweeps cannot gain where the opening block stopped gaining.
        let mut stalled = may_stall && opening_stalled && gap() > self.rule.tolerance;
        if gap() > self.rule.tolerance && !stalled {
            let global = |_| {
                let t = sweep::<S, F, K>(g, pass.flags, vals, pass.wins, 0..g.nb, 0..g.na);
                work.cell_updates += t.updates;
                work.global_sweeps += 1;
                let gap = gap();
                self.report(Phase::Openings, work.cell_updates, gap);
                SweepReport {
                    change: t.change,
                    gap,
                }
            };
            let convergence = if may_stall {
                fixpoint::iterate_until_stall(&self.rule, Stall::DEFAULT, global)
            } else {
                fixpoint::iterate(&self.rule, global)
            }
            .map_err(ExactError::NotConverged)?;
            stalled = convergence.stalled();
        }
        Ok(stalled)
    }

    /// Tells the observer of a sweep in `phase`: `updates` so far, the openings' `width`.
    fn report(&self, phase: Phase, updates: u64, width: f64) {
        (self.observer)(Progress::Sweep {
            phase,
            updates,
            per_sweep: self.cells,
            width,
            seconds: self.started.elapsed().as_secs_f64(),
        });
    }

    /// Solves the blocks of equal goal counts one after the other, those a game reaches
    /// last first (pieces never leave the goal, so a block's successors lie in it or in
    /// blocks with at least as many goal pieces of each player: already done). Within a
    /// block the captures still run backwards, so it is swept, by
    /// [`fixpoint::iterate_until_stall`], until the largest width `1 - V - W - Z` over its
    /// states is at most a target that falls from the tolerance (no goal pieces) to half of
    /// it (the most goal pieces): a block's converged width is an average of the widths it
    /// leads to, so each block inherits less than it may keep, and the opening block, swept
    /// until the openings are certified, can get there. With one value (`K = 1`) a block's
    /// width is not known and its largest change stands in for it ([`APART_CHANGE`]), and
    /// so for the opening block while the openings' width cannot be known. A block that
    /// stops gaining ([`Stall::DEFAULT`]: the rounding floor, or `f32` storage) or reaches
    /// the sweep limit is left as it is: the global sweeps and the certificate decide.
    /// Releasing ([`Pass::releasing`]), each block done gives back the values no later
    /// block reads ([`release_schedule`]).
    /// Adds to `work`; returns whether the opening block stalled.
    fn block_pass<S: Slot, F: SideFlags, const K: usize>(
        &self,
        vals: &Values<S>,
        pass: &Pass<'_, F>,
        work: &mut Work,
    ) -> bool {
        let g = self.game;
        let gap = pass.openings;
        let (sa, sb) = g.start;
        let mut releaser = pass.releasing.then(|| Releaser::new(g));
        let most = |classes: &[GoalClass]| classes.iter().map(|c| c.goals).max().unwrap_or(0);
        let deepest = f64::from((most(&g.classes_a) + most(&g.classes_b)).max(1));
        let (before, blocks) = pass.numbering;
        for (row_block, rows) in g.classes_b.iter().enumerate() {
            for (col_block, cols) in g.classes_a.iter().enumerate() {
                if gap() <= self.rule.tolerance {
                    return false;
                }
                // The opening block is measured by what the certificate needs, where it
                // can be known.
                let opening =
                    rows.range.contains(&sb) && cols.range.contains(&sa) && gap().is_finite();
                let level = f64::from(rows.goals + cols.goals);
                let rule = StopRule {
                    tolerance: if opening {
                        self.rule.tolerance
                    } else {
                        self.rule.tolerance * (1.0 - 0.5 * level / deepest)
                    },
                    ..self.rule
                };
                let outcome = fixpoint::iterate_until_stall(&rule, Stall::DEFAULT, |_| {
                    let t = sweep::<S, F, K>(
                        g,
                        pass.flags,
                        vals,
                        pass.wins,
                        rows.range.clone(),
                        cols.range.clone(),
                    );
                    work.cell_updates += t.updates;
                    work.block_sweeps += 1;
                    let openings = gap();
                    let own = row_block * g.classes_a.len() + col_block + 1;
                    let phase = if opening {
                        Phase::Openings
                    } else {
                        Phase::Block {
                            block: before + own,
                            blocks,
                            // A pass numbered after another (`W` after `V`) sweeps the same
                            // blocks in the same order.
                            repeats: (before > 0).then_some(own),
                        }
                    };
                    // While the openings' width cannot be known, nothing is certified.
                    self.report(phase, work.cell_updates, openings.min(1.0));
                    let gap = match (opening, t.updates) {
                        (true, _) => openings,
                        // A block without a reachable pair is done at once.
                        (false, 0) => 0.0,
                        (false, _) if K == 1 => t.change / APART_CHANGE,
                        (false, _) => t.width,
                    };
                    SweepReport {
                        change: t.change,
                        gap,
                    }
                });
                if opening && outcome.is_ok_and(|c| c.stalled()) {
                    return true;
                }
                if let Some(releaser) = &mut releaser {
                    releaser.block_done(vals, (row_block, col_block));
                }
            }
        }
        false
    }
}

/// Gives back the values of the blocks no later block reads, as the block pass finishes
/// them ([`release_schedule`]; the openings' block is kept).
struct Releaser<'g> {
    game: &'g Game,
    /// Per block in sweep order: the blocks released once it is done.
    schedule: Vec<Vec<Block>>,
    /// Per block: released.
    released: Vec<bool>,
}

impl<'g> Releaser<'g> {
    fn new(game: &'g Game) -> Releaser<'g> {
        let blocks = game.classes_a.len() * game.classes_b.len();
        Releaser {
            game,
            schedule: release_schedule(&game.classes_a, &game.classes_b),
            released: vec![false; blocks],
        }
    }

    /// Block `done` is done: releases what the schedule says. Within a row the values of
    /// neighbouring released blocks are released together, so that the pages they share
    /// at their border are given back too.
    fn block_done<S: Slot>(&mut self, vals: &Values<S>, done: Block) {
        let g = self.game;
        let columns = g.classes_a.len();
        let done = done.0 * columns + done.1;
        for &(r, c) in &self.schedule[done] {
            self.released[r * columns + c] = true;
            let released = |c: usize| self.released[r * columns + c];
            let lo = (0..c)
                .rev()
                .take_while(|&c| released(c))
                .last()
                .unwrap_or(c);
            let hi = (c + 1..columns)
                .take_while(|&c| released(c))
                .last()
                .unwrap_or(c);
            let rows = g.classes_b[r].range.clone();
            if lo == 0 && hi == columns - 1 {
                // Whole rows: one range.
                vals.release(g.cell(0, rows.start)..g.cell(0, rows.end));
                continue;
            }
            let cols = g.classes_a[lo].range.start..g.classes_a[hi].range.end;
            for b in rows {
                vals.release(g.cell(cols.start, b)..g.cell(cols.end, b));
            }
        }
    }
}
