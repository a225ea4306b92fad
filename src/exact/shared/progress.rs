//! What a running rules-fixed solve tells its caller ([`Progress`]): its size once the
//! states are known and before the values are allocated, then every sweep; and the estimate
//! of the time still to go that a caller builds from those reports ([`Estimator`]).
//!
//! # The estimate
//! The time of a solve is its work (cell updates, in units of one full sweep: "sweep
//! equivalents") times its pace (seconds per update over the last sweep's worth of updates:
//! a run slows as the matrix-free solver's blocks grow). The
//! work is known only once the iteration narrows the openings' width geometrically: from
//! then on [`crate::fixpoint::Eta`] extrapolates that narrowing. Before (the matrix-free
//! solver's blocks before the opening one, a sparse solve's first sweep) the work is taken
//! to be what such solves usually need ([`usual_sweeps`]).

use super::result::SolverUsed;
use crate::fixpoint::{Eta, Remaining};
use std::collections::VecDeque;

/// What a running rules-fixed solve has done so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// The solve is sized: the states are about to be searched.
    Sizing {
        /// Joint indices (the product of both players' configurations, the sides to move
        /// and the tries levels): an upper bound of the states.
        joint_indices: u64,
        /// Estimated seconds until the reachable states are found ([`Preparation`]).
        search_seconds: f64,
        /// The distinct moving faces of both dice, added
        /// ([`crate::exact::memory::effective_faces`]): the usual work depends on them
        /// ([`usual_sweeps`]).
        faces: u64,
    },
    /// The reachable states are found; the values (and, for the sparse solver, the matrix)
    /// are about to be allocated.
    Planned {
        /// The solver that will iterate.
        solver: SolverUsed,
        /// Reachable states.
        states: u64,
        /// The bytes the solve holds at its peak (the estimate the memory limit was
        /// checked against).
        bytes: u64,
        /// Seconds since the solve started.
        seconds: f64,
        /// Estimated seconds from here to the first sweep where that is more than
        /// allocating the values: the sparse solver builds its matrix
        /// ([`Preparation::SparseMatrix`]).
        build_seconds: Option<f64>,
    },
    /// One sweep is done.
    Sweep {
        /// Which part of the iteration it belonged to.
        phase: Phase,
        /// Updates (of a row or a pair of configurations) since the iteration began.
        updates: u64,
        /// Updates of one sweep over every state.
        per_sweep: u64,
        /// The openings' interval width after the sweep.
        width: f64,
        /// Seconds since the solve started.
        seconds: f64,
    },
}

/// The part of the iteration a sweep belonged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// One of the matrix-free solver's blocks before the opening block (1-based `block` of
    /// `blocks`): it narrows its own states, not the openings' width.
    Block {
        /// The block, counted from 1.
        block: usize,
        /// Blocks in all.
        blocks: usize,
        /// With one value at a time, a block of the second value's pass: the block of the
        /// first value's pass (numbered as `block`) over the same pairs of configurations,
        /// swept in the same order. Its work is the best guess of this one's.
        repeats: Option<usize>,
    },
    /// A sweep that narrows the openings' width: the opening block, a global sweep, every
    /// sweep of the sparse solver. With one value at a time only the second value's pass
    /// has one, its opening block, swept last: it repeats the first pass's last block.
    Openings,
}

/// Someone told what a rules-fixed solve does ([`Progress`]); shared with the solver's
/// threads.
pub type Observer<'a> = &'a (dyn Fn(Progress) + Sync);

/// An [`Observer`] who ignores everything.
pub fn unobserved(_: Progress) {}

/// What a solver does before its first sweep, whose time is estimated from its size alone
/// (nothing of it has run yet to give a pace): a fixed cost per joint index or state on one
/// thread, divided by `threads^0.75` (`threads^0.38` for the sparse matrix), with the
/// threads of the current pool, at most the machine's cores.
///
/// Fitted to the development machine (2 cores, idle or the other core busy with one more
/// solve; `results/estimates`, the book's performance chapter), in ns per unit on two
/// threads and one: the matrix-free search 59 to 100 (40/20/4/4 and 20/10/4/4) and 94 to
/// 115; the sparse search 5.4 to 7.8 per joint index and mean distinct face of the two
/// dice (it follows every face's move, so dice of 1s and 6s search three times faster
/// than 1..6) and 12; the sparse matrix 17 to 27 per state and face (its transitions) and 24;
/// the game solver's
/// classification 91 to 105 and 172 to 181. A machine with slower memory, or busy cores,
/// takes longer: the sweeps' estimates, which measure their own pace, follow it, these do
/// not; the command line's progress lines name the ratio at the end of the step where it
/// is off by more than half again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preparation {
    /// The sparse solver's search for the reachable states, per joint index, for dice with
    /// `faces` distinct moving faces together ([`crate::exact::memory::effective_faces`]).
    SparseSearch {
        /// The distinct faces of both dice, added.
        faces: u64,
    },
    /// The sparse solver's matrix: its transitions and classes, per reachable state, for
    /// dice with `faces` distinct moving faces together.
    SparseMatrix {
        /// The distinct faces of both dice, added.
        faces: u64,
    },
    /// The matrix-free solver's tables and searches (reachable, can reach a win, the
    /// never-ending set), per joint index, for dice with `faces` distinct moving faces
    /// together ([`super::memory::effective_faces`]): every state's successors are visited,
    /// so the pace grows with the faces beyond the 12 of two ordinary dice (flat below, where
    /// the tables' set-up and the flags dominate).
    MatrixFreeSearch {
        /// Distinct moving faces of both dice.
        faces: u64,
    },
    /// The game solver's search and classification, per joint index.
    GameClassification,
}

impl Preparation {
    /// Nanoseconds per unit on one thread, and the exponent of the threads' speed-up.
    fn pace(self) -> (f64, f64) {
        use super::costs::{
            GAME_CLASSIFICATION_NS, MATRIX_FREE_SEARCH_NS, SPARSE_MATRIX_NS_PER_FACE,
            SPARSE_SEARCH_NS_PER_FACE, THREADS_EXPONENT, THREADS_EXPONENT_SPARSE_MATRIX,
        };
        match self {
            Preparation::SparseSearch { faces } => {
                (SPARSE_SEARCH_NS_PER_FACE * faces as f64, THREADS_EXPONENT)
            }
            Preparation::SparseMatrix { faces } => (
                SPARSE_MATRIX_NS_PER_FACE * faces as f64,
                THREADS_EXPONENT_SPARSE_MATRIX,
            ),
            Preparation::MatrixFreeSearch { faces } => (
                MATRIX_FREE_SEARCH_NS * (faces as f64 / 12.0).max(1.0),
                THREADS_EXPONENT,
            ),
            Preparation::GameClassification => (GAME_CLASSIFICATION_NS, THREADS_EXPONENT),
        }
    }

    /// Estimated seconds for `units` (joint indices, or states for the sparse matrix) on
    /// `threads` threads.
    pub fn seconds_on(self, units: u64, threads: usize) -> f64 {
        let (ns, exponent) = self.pace();
        units as f64 * ns * 1e-9 / (threads.max(1) as f64).powf(exponent)
    }

    /// [`Preparation::seconds_on`] the threads the solver will use: the current rayon
    /// pool's, at most the machine's cores.
    pub fn seconds(self, units: u64) -> f64 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.seconds_on(units, rayon::current_num_threads().min(cores))
    }
}

/// The work (sweep equivalents) a rules-fixed solve usually needs to certify `tolerance`
/// with dice of `faces` distinct moving faces together
/// ([`crate::exact::memory::effective_faces`]): `1 + 14/9 log10(1 / tolerance)`, 15 at 1e-9,
/// for two dice of six faces, times `(12 / faces)^1.2` for fewer (faces taken between 6 and
/// 12, where it was measured): fewer faces spread the chances more slowly, so the width
/// narrows more slowly. Measured at 1e-9 with six faces a die: 10 to 15 sweep equivalents;
/// at 1e-6: 9 to 11 with ten to twelve faces, 13 to 18 with seven to nine (dice such as
/// 1,1,1,6,6,6 or 1,2,6), 24 with 1,3,6 against 2,4,6 (`results/estimates`).
pub fn usual_sweeps(tolerance: f64, faces: u64) -> f64 {
    let fewer = (12.0 / faces.clamp(6, 12) as f64).powf(1.2);
    (1.0 + 14.0 / 9.0 * (1.0 / tolerance).log10()).max(2.0) * fewer
}

/// The sweeps the solver of the game with choices ([`crate::exact::game`]) usually needs to
/// certify `tolerance` with `pieces` pieces a player: `(21 + 9 (pieces - 3)) / 9
/// log10(1 / tolerance)` (at least 12/9 of it), 21 sweeps at 1e-9 with three pieces and 30
/// with four. Measured at 1e-9, 1..6 against 1..6: 20 to 21 sweeps on 30/15/3/4, 23 on
/// 40/20/3/4, 27 on 20/10/4/4, 34 on 22/11/4/4 (the book's performance chapter).
pub fn usual_game_sweeps(tolerance: f64, pieces: u32) -> f64 {
    let at_1e9 = (21.0 + 9.0 * (f64::from(pieces) - 3.0)).max(12.0);
    (at_1e9 / 9.0 * (1.0 / tolerance).log10()).max(2.0)
}

/// Sweeps of the game solver after which its narrowing is trusted: its first five sweeps
/// narrow the width at about half the rate of the later ones (30/15/3/4, 1..6 against 1..6:
/// 0.25 to 0.43 decades a sweep, then 0.34 to 0.77), so an estimate from them is long by up
/// to a factor of two.
pub const GAME_NARROWING_AFTER: usize = 6;

/// How an estimate of the time still to go was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// From the narrowing and the pace of the last three sweeps ([`Eta`]).
    Narrowing,
    /// From the work such solves usually need ([`usual_sweeps`]) at the pace so far.
    UsualWork,
    /// With one value at a time, in the second value's pass: from the work the first
    /// value's pass took on the blocks still to sweep, scaled by the second pass's work so
    /// far against the first's on the same blocks, at the pace so far.
    FirstValue,
}

/// The sweeps' worth of updates over which the pace is measured: the last ones, since the
/// matrix-free solver's first blocks (many pieces in the goal) are small and cheap per
/// update, and a run's pace slows by a third and more as its blocks grow.
const PACE_OVER: f64 = 1.0;

/// The sweeps' worth of updates after the first report before the first estimate: the
/// pace of the first one is that of the cheapest blocks.
const FIRST_AFTER: f64 = 2.0;

/// Sweeps of the openings after which their narrowing is trusted: the first sweeps narrow
/// more slowly than the later ones (by half, then by two thirds and more), so an estimate
/// from the narrowing of the second or third sweep is long by half.
const NARROWING_AFTER: usize = 4;

/// Sweeps of the openings after which their narrowing is trusted in the second value's
/// pass of one value at a time: its opening block starts with every other block converged,
/// so it narrows geometrically at once (the full board, 1..12 against 1..20 to 4e-6:
/// 1.4e-2, 3.1e-4, 8.0e-6, 1.9e-6 in its four sweeps).
const REPEAT_NARROWING_AFTER: usize = 2;

/// The work of each block of one value at a time: the first value's pass, block by block,
/// and the second value's pass on the blocks it repeats ([`Phase::Block::repeats`]).
#[derive(Clone, Debug, Default)]
struct BlockWork {
    /// Updates per block of the first value's pass, by block number.
    first: std::collections::BTreeMap<usize, u64>,
    /// Updates per block of the second value's pass, by the number of the block it repeats.
    second: std::collections::BTreeMap<usize, u64>,
    /// The first pass's block that the second pass sweeps now.
    current: Option<usize>,
    /// Updates at the last report.
    updates: u64,
}

impl BlockWork {
    /// Records the updates of a sweep in `phase` (`updates` since the iteration began);
    /// returns the sweep's own updates.
    fn record(&mut self, phase: Phase, updates: u64) -> u64 {
        let sweep = updates.saturating_sub(self.updates);
        self.updates = updates;
        let block = match phase {
            Phase::Block {
                repeats: Some(k), ..
            } => k,
            Phase::Block { block, .. } => {
                *self.first.entry(block).or_default() += sweep;
                return sweep;
            }
            // The opening block of the second pass repeats the first pass's last block.
            Phase::Openings if self.current.is_some() => match self.first.keys().next_back() {
                Some(&last) => last,
                None => return sweep,
            },
            Phase::Openings => return sweep,
        };
        self.current = Some(block);
        *self.second.entry(block).or_default() += sweep;
        sweep
    }

    /// In the second value's pass: the updates still to go, the first pass's work on the
    /// blocks after the current one, and on the current one less what it has had, scaled
    /// by the second pass's work against the first's on the blocks it has finished (1
    /// before the first is finished). A current block that has outrun its share is given
    /// one more sweep of `last_sweep` updates.
    fn left(&self, last_sweep: u64) -> Option<f64> {
        let current = self.current?;
        let (mut done_second, mut done_first) = (0u64, 0u64);
        for (&block, &work) in self.second.range(..current) {
            done_second += work;
            done_first += self.first.get(&block).copied().unwrap_or(0);
        }
        let scale = if done_first > 0 && done_second > 0 {
            done_second as f64 / done_first as f64
        } else {
            1.0
        };
        let after: u64 = self.first.range(current + 1..).map(|(_, &w)| w).sum();
        let own = self.first.get(&current).copied().unwrap_or(0) as f64 * scale;
        let had = self.second.get(&current).copied().unwrap_or(0) as f64;
        Some(scale * after as f64 + (own - had).max(last_sweep as f64))
    }
}

/// Watches the reports of one solve and estimates the time still to go.
#[derive(Clone, Debug)]
pub struct Estimator {
    tolerance: f64,
    /// The work such solves usually need, in sweep equivalents.
    usual_sweeps: f64,
    /// The seconds and updates of the reports since the last [`PACE_OVER`] sweeps' worth
    /// of updates (and the one before): the pace counts only sweeps, never allocating the
    /// values before the first.
    recent: VecDeque<(f64, u64)>,
    /// The updates at the first report.
    first_updates: Option<u64>,
    /// Sweeps of the openings so far.
    narrowing_sweeps: usize,
    /// Sweeps of the openings after which their narrowing is trusted.
    narrowing_after: usize,
    eta: Eta,
    /// With one value at a time, the work of each block.
    blocks: BlockWork,
}

impl Estimator {
    /// A watch for a solve to `tolerance` that usually needs `usual_sweeps` sweep
    /// equivalents ([`usual_sweeps`] for the rules-fixed solvers).
    pub fn new(tolerance: f64, usual_sweeps: f64) -> Estimator {
        Estimator {
            tolerance,
            usual_sweeps,
            recent: VecDeque::new(),
            first_updates: None,
            narrowing_sweeps: 0,
            narrowing_after: NARROWING_AFTER,
            eta: Eta::new(),
            blocks: BlockWork::default(),
        }
    }

    /// The same watch trusting the narrowing of the openings only from their `sweeps`-th
    /// sweep on (the rules-fixed solvers: the fourth; the game solver:
    /// [`GAME_NARROWING_AFTER`]); until then the usual work at the pace so far.
    pub fn trusting_narrowing_after(self, sweeps: usize) -> Estimator {
        Estimator {
            narrowing_after: sweeps,
            ..self
        }
    }

    /// Takes the next report; after a sweep, returns the time still to go and its basis,
    /// or `None` when no basis gives one (before two sweeps' worth of updates after the
    /// first report, or once the work has outrun the usual work while the openings'
    /// narrowing is not yet trusted). The bases, the first that applies: the openings'
    /// narrowing once trusted; in the second value's pass of one value at a time, the first
    /// value's work on the blocks still to go ([`Basis::FirstValue`]); the usual work.
    pub fn report(&mut self, progress: Progress) -> Option<(Remaining, Basis)> {
        let Progress::Sweep {
            phase,
            updates,
            per_sweep,
            width,
            seconds,
        } = progress
        else {
            return None;
        };
        let window = (PACE_OVER * per_sweep as f64) as u64;
        self.recent.push_back((seconds, updates));
        // Keep the newest report at least a window back, and drop those before it.
        while self.recent.len() > 2 && updates.saturating_sub(self.recent[1].1) >= window {
            self.recent.pop_front();
        }
        let (began, updates_then) = self.recent[0];
        let last_sweep = self.blocks.record(phase, updates);
        let repeating = self.blocks.current.is_some();
        if phase == Phase::Openings {
            self.narrowing_sweeps += 1;
            let trusted_after = if repeating {
                REPEAT_NARROWING_AFTER
            } else {
                self.narrowing_after
            };
            let eta = self.eta.sweep(width, seconds, self.tolerance);
            if let Some(r) = eta
                && (r.sweeps == 0 || self.narrowing_sweeps >= trusted_after)
            {
                return Some((r, Basis::Narrowing));
            }
        }
        let first = *self.first_updates.get_or_insert(updates);
        let since_first = updates.saturating_sub(first) as f64;
        let paced = updates.saturating_sub(updates_then) as f64;
        let (left, basis) = match self.blocks.left(last_sweep) {
            Some(left) => (left, Basis::FirstValue),
            None => (
                self.usual_sweeps * per_sweep as f64 - updates as f64,
                Basis::UsualWork,
            ),
        };
        // Negated so that a NaN gives no estimate.
        if !(since_first >= FIRST_AFTER * per_sweep as f64
            && paced >= window as f64
            && paced > 0.0
            && left > 0.0)
        {
            return None;
        }
        Some((
            Remaining {
                sweeps: (left / per_sweep as f64).ceil() as u64,
                seconds: left * (seconds - began).max(0.0) / paced,
            },
            basis,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(phase: Phase, updates: u64, width: f64, seconds: f64) -> Progress {
        Progress::Sweep {
            phase,
            updates,
            per_sweep: 100,
            width,
            seconds,
        }
    }

    #[test]
    fn before_the_openings_narrow_the_usual_work_is_assumed() {
        let mut e = Estimator::new(1e-9, 16.0);
        assert!((usual_sweeps(1e-9, 12) - 15.0).abs() < 1e-9);
        e.report(Progress::Planned {
            solver: SolverUsed::Sparse,
            states: 10,
            bytes: 10,
            seconds: 1.0,
            build_seconds: None,
        });
        let block = Phase::Block {
            block: 1,
            blocks: 4,
            repeats: None,
        };
        // The first sweep's report starts the clock of the pace: no estimate yet, nor
        // after one sweep's worth of updates.
        assert_eq!(e.report(sweep(block, 0, 1.0, 4.0)), None);
        assert_eq!(e.report(sweep(block, 100, 1.0, 5.0)), None);
        // Two sweeps' worth, the last 100 updates in 1 s: 1,400 more of the usual 1,600 at
        // 0.01 s each.
        let (r, basis) = e.report(sweep(block, 200, 1.0, 6.0)).unwrap();
        assert_eq!(basis, Basis::UsualWork);
        assert_eq!(r.sweeps, 14);
        assert!((r.seconds - 14.0).abs() < 1e-6, "{r:?}");
        // Beyond the usual work no estimate is made from it.
        assert_eq!(e.report(sweep(block, 1700, 1.0, 20.0)), None);
    }

    #[test]
    fn once_the_openings_narrow_their_narrowing_decides() {
        let mut e = Estimator::new(2f64.powi(-20), 30.0);
        // The first two sweeps of the openings: no narrowing trusted, and too little work
        // for a pace.
        assert_eq!(e.report(sweep(Phase::Openings, 100, 0.5, 2.0)), None);
        assert_eq!(e.report(sweep(Phase::Openings, 200, 0.25, 4.0)), None);
        // The third: the usual work (30 sweeps) at 2 s a sweep, 27 more.
        let (r, basis) = e.report(sweep(Phase::Openings, 300, 0.125, 6.0)).unwrap();
        assert_eq!((basis, r.sweeps), (Basis::UsualWork, 27));
        assert!((r.seconds - 54.0).abs() < 1e-9);
        // From the fourth on, the narrowing: halving per sweep of 2 s, from 1/16 to 2^-20 in
        // 16 more sweeps, 32 s.
        let (r, basis) = e.report(sweep(Phase::Openings, 400, 0.0625, 8.0)).unwrap();
        assert_eq!(basis, Basis::Narrowing);
        assert_eq!(r.sweeps, 16);
        assert!((r.seconds - 32.0).abs() < 1e-9);
        // Done is done, whatever the number of sweeps.
        let mut e = Estimator::new(1e-6, 30.0);
        e.report(sweep(Phase::Openings, 100, 0.5, 2.0));
        let (r, _) = e.report(sweep(Phase::Openings, 200, 1e-7, 4.0)).unwrap();
        assert_eq!(r.sweeps, 0);
    }

    #[test]
    fn the_pace_is_that_of_the_last_sweeps_worth_of_updates() {
        let mut e = Estimator::new(1e-9, 16.0);
        let report = |updates, seconds| Progress::Sweep {
            phase: Phase::Block {
                block: 1,
                blocks: 2,
                repeats: None,
            },
            updates,
            per_sweep: 200,
            width: 1.0,
            seconds,
        };
        // Fast at first (0.01 s an update), then ten times slower.
        for (updates, seconds) in [(0, 0.0), (100, 1.0), (200, 2.0), (300, 12.0)] {
            e.report(report(updates, seconds));
        }
        // The last 200 updates took 20 s: 2,800 more at 0.1 s each.
        let (r, _) = e.report(report(400, 22.0)).unwrap();
        assert!((r.seconds - 280.0).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn the_first_sweep_alone_gives_no_estimate() {
        let mut e = Estimator::new(1e-6, 30.0);
        assert_eq!(e.report(sweep(Phase::Openings, 100, 0.5, 2.0)), None);
        // A second report with no new work has no pace either.
        assert_eq!(e.report(sweep(Phase::Openings, 100, 0.6, 3.0)), None);
    }

    /// The usual work against the work of every rules-fixed solve in `results/estimates`
    /// (tolerance, faces of both dice, sweep equivalents): within a factor of 1.5.
    #[test]
    fn the_usual_work_is_within_half_again_of_the_recorded_work() {
        let recorded = [
            (1e-9, 12, 15),
            (1e-9, 12, 10),
            (1e-9, 8, 17),
            (1e-9, 8, 20),
            (1e-9, 12, 13),
            (1e-9, 12, 13),
            (1e-9, 12, 12),
            (1e-9, 12, 11),
            (1e-6, 10, 11),
            (1e-6, 12, 9),
            (1e-6, 12, 9),
            (1e-6, 12, 10),
            (1e-6, 12, 9),
            (1e-6, 12, 9),
            (1e-6, 8, 15),
            (1e-6, 6, 24),
            (1e-6, 9, 17),
            (1e-6, 8, 18),
            (1e-6, 8, 13),
            (1e-6, 7, 17),
        ];
        for (tolerance, faces, sweeps) in recorded {
            let ratio = f64::from(sweeps) / usual_sweeps(tolerance, faces);
            assert!(
                (1.0 / 1.5..=1.5).contains(&ratio),
                "{tolerance:e}, {faces} faces: {sweeps} sweeps, ratio {ratio:.2}"
            );
        }
    }

    /// The preparations' estimates against every time they were fitted to (the sets
    /// `logs`, `logs-fresh`, `logs-search`, `logs-faces` and `logs-search-rows` of
    /// `results/estimates/estimates.jsonl`; the sparse search's form per face was chosen
    /// after `logs-search`, the sparse matrix's after `logs-faces`): each within a factor
    /// of 1.5.
    #[test]
    fn the_preparation_estimates_are_within_half_again_of_the_recorded_times() {
        let sparse = |faces| Preparation::SparseSearch { faces };
        let free = |faces| Preparation::MatrixFreeSearch { faces };
        let matrix = |faces| Preparation::SparseMatrix { faces };
        // (what, units, threads, seconds measured)
        let recorded = [
            // The matrix-free search since rows are visited whole by one thread each
            // (`logs-search-rows`, `search.sh`); the same ten solves as before, of dice with
            // at most 12 moving faces together (where the pace is flat).
            (free(12), 437_961_608, 2, 15.7),
            (free(12), 148_009_596, 2, 4.1),
            (free(12), 148_009_596, 1, 7.2),
            (free(12), 361_159_988, 2, 12.9),
            (free(12), 30_805_830, 2, 1.1),
            (free(12), 505_766_044, 2, 17.9),
            (free(12), 604_024_764, 2, 21.3),
            (free(12), 788_142_924, 2, 29.2),
            (free(12), 647_092_074, 2, 21.7),
            (free(12), 560_341_068, 1, 37.2),
            // Dice with more faces, the full board (`rank --die A --die B --exact`, the
            // searches' times in the records of `results/exact-pairs`): 0..9 vs 1..12, 1..8
            // vs 1..20, 0..9 vs 1..20 (the last beside a build for its final 1.5 minutes).
            (free(22), 2_786_153_112, 2, 163.4),
            (free(28), 3_726_235_746, 2, 372.7),
            (free(30), 4_566_689_496, 2, 557.1),
            (sparse(12), 46_541_952, 2, 1.8),
            (sparse(12), 46_541_952, 1, 3.4),
            (sparse(8), 148_009_596, 2, 3.8),
            (sparse(12), 42_697_570, 2, 2.0),
            (sparse(8), 189_367_866, 2, 4.1),
            (sparse(12), 75_031_250, 2, 2.8),
            (sparse(12), 103_275_744, 2, 3.8),
            (matrix(12), 26_017_574, 2, 7.5 - 1.8),
            (matrix(12), 26_017_574, 1, 10.8 - 3.4),
            (matrix(8), 69_196_466, 2, 15.4 - 3.8),
            (matrix(12), 23_753_380, 2, 8.6 - 2.0),
            (matrix(8), 87_401_043, 2, 16.0),
            (matrix(12), 42_713_130, 2, 10.2),
            (matrix(12), 59_442_428, 2, 15.7),
            (matrix(9), 25_208_848, 2, 5.2 - 1.4),
            (matrix(8), 80_824_200, 2, 20.7 - 3.6),
            (sparse(9), 50_299_392, 2, 1.4),
            (sparse(8), 170_924_178, 2, 3.6),
            (Preparation::GameClassification, 86_592_800, 2, 7.9),
            (Preparation::GameClassification, 27_128_978, 2, 2.5),
            (Preparation::GameClassification, 27_128_978, 1, 4.9),
            (Preparation::GameClassification, 79_196_880, 2, 8.3),
            (Preparation::GameClassification, 165_947_762, 2, 16.7),
            (Preparation::GameClassification, 121_898_498, 2, 12.4),
            (Preparation::GameClassification, 30_126_940, 1, 5.2),
        ];
        for (what, units, threads, measured) in recorded {
            let ratio = measured / what.seconds_on(units, threads);
            assert!(
                (1.0 / 1.5..=1.5).contains(&ratio),
                "{what:?}, {units}, {threads} threads: {measured} s measured, ratio {ratio:.2}"
            );
        }
        // More threads never take longer.
        for what in [matrix(12), Preparation::GameClassification] {
            assert!(what.seconds_on(1000, 2) < what.seconds_on(1000, 1));
        }
    }

    /// One value at a time: `V`'s pass over blocks 1 to 3 (100, 200 and 400 updates a
    /// sweep), then `W`'s over the same blocks (4 to 5 repeating 1 to 2, the opening block
    /// last), which the first pass's work predicts.
    #[test]
    fn the_second_value_goes_by_the_first_values_work_block_by_block() {
        let mut e = Estimator::new(1e-9, 100.0);
        let block = |block, repeats| Phase::Block {
            block,
            blocks: 6,
            repeats,
        };
        // A sweep of `added` updates in `phase`, at 0.01 s an update.
        let mut updates = 0;
        let mut step = |phase, added: u64, width| {
            updates += added;
            e.report(Progress::Sweep {
                phase,
                updates,
                per_sweep: 1400,
                width,
                seconds: updates as f64 / 100.0,
            })
        };
        // V: block 1 three sweeps, block 2 two, block 3 eight (its opening block, whose
        // width V alone cannot know): 300 + 400 + 3,200 = 3,900 updates. Until W begins,
        // the usual work (100 sweep equivalents).
        for (b, size, sweeps) in [(1, 100, 3), (2, 200, 2), (3, 400, 8)] {
            for _ in 0..sweeps {
                if let Some((_, basis)) = step(block(b, None), size, 1.0) {
                    assert_eq!(basis, Basis::UsualWork);
                }
            }
        }
        // W's block 4 (repeating 1), its first sweep: 200 more there, 400 and 3,200 after.
        let (r, basis) = step(block(4, Some(1)), 100, 1.0).unwrap();
        assert_eq!((basis, r.sweeps), (Basis::FirstValue, 3));
        assert!((r.seconds - 38.0).abs() < 1e-9, "{r:?}");
        // Block 4 done in one sweep (a third of V's): block 5 (repeating 2), first sweep.
        // W has taken a third of V's work, so 400 / 3 - 200 is less than the sweep just
        // done: one more such sweep (200) and a third of 3,200.
        let (r, basis) = step(block(5, Some(2)), 200, 1.0).unwrap();
        assert_eq!(basis, Basis::FirstValue);
        let expected = 200.0 + 3200.0 / 3.0;
        assert!((r.seconds - expected / 100.0).abs() < 1e-9, "{r:?}");
        // The opening block repeats V's last block; its second sweep's narrowing is trusted:
        // 1e-6 to 1e-9 at a thousandth a sweep of 4 s, one more.
        assert_eq!(
            step(Phase::Openings, 400, 1e-3).unwrap().1,
            Basis::FirstValue
        );
        let (r, basis) = step(Phase::Openings, 400, 1e-6).unwrap();
        assert_eq!((basis, r.sweeps), (Basis::Narrowing, 1));
        assert!((r.seconds - 4.0).abs() < 1e-9, "{r:?}");
    }

    /// Together (no block repeats another), the blocks say nothing: the usual work.
    #[test]
    fn blocks_that_repeat_none_leave_the_usual_work() {
        let mut e = Estimator::new(1e-9, 10.0);
        let phase = Phase::Block {
            block: 1,
            blocks: 2,
            repeats: None,
        };
        let mut last = None;
        for k in 1..=4u64 {
            last = e.report(sweep(phase, 100 * k, 1.0, k as f64));
        }
        assert_eq!(last.unwrap().1, Basis::UsualWork);
    }

    #[test]
    fn the_game_solver_assumes_its_usual_work_by_pieces_and_trusts_the_narrowing_later() {
        assert!((usual_game_sweeps(1e-9, 3) - 21.0).abs() < 1e-9);
        assert!((usual_game_sweeps(1e-9, 4) - 30.0).abs() < 1e-9);
        assert!((usual_game_sweeps(1e-6, 4) - 20.0).abs() < 1e-9);
        // Halving per sweep of 2 s: sweeps 3 to 5 still go by the usual work (21 sweeps
        // at 1e-9, 100 updates a sweep), the sixth by the narrowing.
        let mut e = Estimator::new(1e-9, usual_game_sweeps(1e-9, 3))
            .trusting_narrowing_after(GAME_NARROWING_AFTER);
        let mut last = None;
        for k in 1..=6u64 {
            last = e.report(sweep(
                Phase::Openings,
                100 * k,
                0.5f64.powi(k as i32),
                2.0 * k as f64,
            ));
            if (3..=5).contains(&k) {
                let (r, basis) = last.unwrap();
                assert_eq!((basis, r.sweeps), (Basis::UsualWork, 21 - k), "sweep {k}");
            }
        }
        // From 1/64 to 1e-9 at half a sweep: 24 more sweeps, 48 s.
        let (r, basis) = last.unwrap();
        assert_eq!((basis, r.sweeps), (Basis::Narrowing, 24));
        assert!((r.seconds - 48.0).abs() < 1e-6, "{r:?}");
    }
}
