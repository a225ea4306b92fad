//! What the solvers cost, as measured: every constant fitted to measured runs, with the
//! machine it was measured on, in one place. The time estimates of a running solve
//! ([`super::progress`]) and the plans printed for solves too large to run
//! ([`super::error::ExactError::GroupMemory`]) are made from these; on another machine
//! they are off by that machine's speed, and `docs/src/performance.md` says how to measure
//! them again.

// The preparation paces: fitted on an AMD EPYC with AVX-512, 2 cores, 2026-11-26, to the runs
// of `results/estimates/estimates.jsonl` (`docs/src/performance.md` holds them against what
// the solves took).

/// The sparse solver's search for the reachable states: nanoseconds of one thread per joint
/// index and distinct moving face of both dice together.
pub(crate) const SPARSE_SEARCH_NS_PER_FACE: f64 = 5.25;

/// The sparse solver's matrix (transitions and classes): nanoseconds of one thread per
/// reachable state and distinct moving face.
pub(crate) const SPARSE_MATRIX_NS_PER_FACE: f64 = 27.3;

/// The matrix-free solver's tables and searches: nanoseconds of one thread per joint index
/// for up to 12 distinct moving faces (in proportion beyond).
pub(crate) const MATRIX_FREE_SEARCH_NS: f64 = 58.0;

/// The game solver's search and classification: nanoseconds of one thread per joint index.
pub(crate) const GAME_CLASSIFICATION_NS: f64 = 165.0;

/// How a preparation speeds up with threads: by the threads to this power.
pub(crate) const THREADS_EXPONENT: f64 = 0.75;

/// How the sparse matrix's build speeds up with threads (less, as measured).
pub(crate) const THREADS_EXPONENT_SPARSE_MATRIX: f64 = 0.38;

/// The layered solve's measured cost in seconds of one core per state and sweep: a group
/// with a single piece home on each side of the BwInf board, 1..6 against 1..6 (229,022,802
/// states, 19 sweeps to 1e-6 in 893 s on 2 threads), on [`COST_MEASURED_ON`]. What the
/// estimate for the core multiplies by its states.
pub(crate) const SECONDS_PER_STATE_SWEEP: f64 = 893.0 * 2.0 / (229_022_802.0 * 19.0);

/// The machine [`SECONDS_PER_STATE_SWEEP`] was measured on.
pub(crate) const COST_MEASURED_ON: &str = "AMD EPYC with AVX-512, 2 cores, 2026-11-28";

/// The sweeps the largest solved groups took to 1e-6, for the estimate of the core.
pub(crate) const REFERENCE_SWEEPS: u32 = 19;

/// Ghosts a rank holds per state of its share of a group: measured on 24/12/3/4 with 4
/// ranks (1..6 against 1..6: 6.1 million ghosts for 10.8 million states).
pub(crate) const RANK_GHOSTS_PER_OWN_STATE: f64 = 0.56;

/// Bytes a rank of a solve over MPI holds per state of its share of a group, with brackets
/// of `bracket_bytes` a state (16 in `f64`, 8 in 32 bits): the flags and the bracket and,
/// for its ghosts, their flags, brackets and indices and the lists the other ranks keep to
/// serve them (16 bytes a ghost beside its flags and bracket).
pub(crate) fn rank_bytes_per_own_state(bracket_bytes: u64) -> f64 {
    let state = 1.0 + bracket_bytes as f64;
    state + RANK_GHOSTS_PER_OWN_STATE * (state + 16.0)
}

/// A rank's time per state of its share and sweep against one thread's per state in a
/// single process: 24/12/3/4, 1..6 against 2..7, its core (9,523,200 states) on 2 ranks of
/// one thread, 21.9 s for 15 sweeps, against 23.5 s for 12 sweeps in one process of one
/// thread, on [`COST_MEASURED_ON`].
pub(crate) const RANK_COST_FACTOR: f64 = (21.9 / 15.0 / 4_761_600.0) / (23.5 / 12.0 / 9_523_200.0);

/// The sweeps a group takes over ranks against one process (their states read from each
/// other once a sweep, not in place): the core of 40/20/3/4, 1..6 against 2..7, took 25
/// sweeps on 4 ranks against 16 in one process (18 on 2 ranks; 24/12/3/4's core: 15 on 2
/// ranks against 12), to 1e-9 on [`COST_MEASURED_ON`]'s machine, 2026-11-29. More ranks
/// were not measured; their sweeps may be more.
pub(crate) const RANK_SWEEP_FACTOR: f64 = 25.0 / 16.0;

/// A plan for solving one group of `states` states over MPI ranks of `rank_bytes` memory
/// each, with brackets of `bracket_bytes` a state, each rank holding `fixed_bytes` beside
/// its share (the finished groups it reads, where it holds them whole; 0 where it reads
/// them from their files, mapped): the ranks needed, the bytes of each, and core-hours at
/// the measured cost, or `None` where no number of ranks suffices.
pub(crate) fn rank_plan(
    states: u64,
    (bracket_bytes, fixed_bytes): (u64, u64),
    rank_bytes: u64,
) -> Option<RankPlan> {
    let room = rank_bytes.checked_sub(fixed_bytes).filter(|&r| r > 0)? as f64;
    let share = states as f64 * rank_bytes_per_own_state(bracket_bytes);
    let ranks = (share / room).ceil().max(1.0) as u64;
    let per_rank = fixed_bytes as f64 + share / ranks as f64;
    let sweeps = (REFERENCE_SWEEPS as f64 * RANK_SWEEP_FACTOR).ceil();
    let core_hours = states as f64 * SECONDS_PER_STATE_SWEEP * RANK_COST_FACTOR * sweeps / 3600.0;
    Some(RankPlan {
        ranks,
        bytes_per_rank: per_rank as u64,
        sweeps: sweeps as u32,
        core_hours,
    })
}

/// What [`rank_plan`] plans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RankPlan {
    /// MPI ranks (`mpirun -np`).
    pub ranks: u64,
    /// Bytes each rank holds at its peak.
    pub bytes_per_rank: u64,
    /// Sweeps expected ([`REFERENCE_SWEEPS`] times [`RANK_SWEEP_FACTOR`]).
    pub sweeps: u32,
    /// Core-hours of all ranks together for those sweeps.
    pub core_hours: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan over ranks gives each rank what it holds whole and a share of the rest that
    /// fits its memory, with no rank more than needed; ranks smaller than what each holds
    /// whole get no plan. Brackets in 32 bits and finished groups read from their files
    /// need fewer ranks.
    #[test]
    fn a_plan_over_ranks_fits_each_rank_and_uses_no_more_than_needed() {
        let (states, finished) = (20_845_144_562u64, 78_700_000_000u64);
        for bracket_bytes in [16, 8] {
            for fixed in [finished, 0] {
                for rank_bytes in [32u64 << 30, 128 << 30, 256 << 30, 1 << 40] {
                    let Some(plan) = rank_plan(states, (bracket_bytes, fixed), rank_bytes) else {
                        assert!(fixed >= rank_bytes, "{rank_bytes}");
                        continue;
                    };
                    assert!(plan.bytes_per_rank <= rank_bytes);
                    let share = states as f64 * rank_bytes_per_own_state(bracket_bytes);
                    let room = (rank_bytes - fixed) as f64;
                    assert!(share / plan.ranks as f64 <= room);
                    assert!(plan.ranks == 1 || share / (plan.ranks - 1) as f64 > room);
                }
            }
        }
        assert_eq!(rank_plan(states, (16, finished), finished), None);
        assert_eq!(rank_plan(states, (16, finished), 16 << 30), None);
        let ranks = |bracket_bytes, fixed| {
            rank_plan(states, (bracket_bytes, fixed), 128 << 30)
                .unwrap()
                .ranks
        };
        assert!(ranks(8, 0) < ranks(16, 0) && ranks(16, 0) < ranks(16, finished));
        assert_eq!(rank_bytes_per_own_state(16), 17.0 + 0.56 * 33.0);
    }
}
