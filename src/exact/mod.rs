//! The exact solver: the win probabilities of a matchup as the absorption probabilities of
//! a finite Markov chain, with a certified interval around each.
//!
//! # Pipeline (the sparse-matrix solver, [`sparse`])
//! 1. [`reachable::player_configs`]: each player's reachable configurations, indexed
//!    densely ([`encode::ConfigIndex`]), most advanced first.
//! 2. [`reachable::joint_states`]: the joint states reachable from the two opening
//!    positions, as a bit set over the product index [`encode::JointCoder`]
//!    (configuration of A × configuration of B × side to move × tries). Their rank in
//!    that set is their row number.
//! 3. [`sparse::transitions::build_chain`]: for each state and face, the successor from
//!    [`crate::rules::Rules::play_roll`], into a sparse matrix `Q` of transient-to-transient
//!    probabilities and the absorption probabilities `a` (A wins) and `b` (B wins), with
//!    self-loops eliminated exactly.
//! 4. [`sparse::solve::Classes`]: which states can reach a win of A, of B (the reverse graph
//!    search from the winning states, computed by [`search::can_reach`] as the least fixed
//!    point of "wins in one step or has a successor that can"). The states that reach no win form the
//!    never-ending set `N`; its value is known exactly (`P(never) = 1`), everything else is
//!    the transient set `T`.
//! 5. [`sparse::solve::iterate`]: Gauss-Seidel value iteration on `T` for three vectors at once,
//!    `V <- a + Q V`, `W <- b + Q W`, `Z <- Q Z` (with `Z = 1` held fixed on `N`), all
//!    from 0, through [`crate::fixpoint::iterate`]; it stops when the certified intervals
//!    of the reported figures are at most the tolerance wide. Rows with the same pieces of
//!    both players (the two sides to move, and the tries counter) form a group of at most
//!    six that each sweep solves exactly ([`group`], block Gauss-Seidel): a roll that
//!    moves nothing and passes the turn links them, and without this the pair where both
//!    players wait for a 6 alone would need four to six times as many sweeps.
//!
//! The matrix-free solver ([`matrix_free`]) runs the same steps without a matrix, over
//! per-player tables; [`choose::solve_fitting`] picks the solver that fits.
//!
//! # One exact layer, several successor functions
//! What the solvers share is written once: the reachability search and the "can reach a
//! win" fixed point ([`search`], over the [`search::Successors`] trait), the exact solve of
//! the rows of one configuration pair ([`group`]), the certified interval `[V, 1 - W - Z]`
//! ([`bounds::StateBounds::certified`]), the options and their one tolerance rule
//! ([`options`]), and the iteration driver with its stopping and stall rules
//! ([`crate::fixpoint`]). A solver is a state space with a successor function and a value
//! sweep. A new one (the game where players choose their moves, N players) plugs in by
//! implementing [`search::Successors`] for its states (where a roll leads, and where it
//! keeps a few flag bits per state), running [`search::reach`] and [`search::can_reach`]
//! on it to find its states and its never-ending set, writing its sweep as a monotone
//! update from 0 that solves each group of rows linked by "nothing moved" with [`group`],
//! driving the sweeps with [`crate::fixpoint::iterate`] (or `iterate_until_stall` for
//! rounded storage), and reporting [`bounds::StateBounds::certified`] at its openings.
//! A game with choices takes the maximum (or minimum) over the mover's options in its
//! sweep: the update stays monotone, so the iterate from 0 stays a lower bound, but the
//! upper end no longer follows from "the figures sum to 1" (the other player's figure is
//! iterated under other choices), so such a solver needs an upper iteration of its own
//! (bounded value iteration; Kelmendi, Krämer, Křetínský, Weininger, CAV 2018).
//!
//! # Why the iteration converges, and what is certified
//! Write `F(x) = r + Q_T x` for the restriction to `T` (`r` the one-step absorption
//! probability of the component at hand; for `Z` it is the probability of stepping into
//! `N`). `Q_T` is non-negative and substochastic, but most of its rows sum to exactly 1 (a
//! move that wins or falls into `N` is rare), so `F` is **not** a contraction in the plain
//! maximum norm after one step. What holds:
//!
//! * Every state of `T` has a path to a win of at most `|T|` steps, so with some
//!   probability `delta > 0` the chain leaves `T` within `L = |T|` steps from anywhere:
//!   `||Q_T^L||_inf <= 1 - delta < 1`. Hence the spectral radius of `Q_T` is below 1,
//!   `I - Q_T` is invertible, the fixed point `x* = (I - Q_T)^-1 r` is unique, and the
//!   `L`-fold map is a contraction in the maximum norm.
//! * One step is a contraction in a weighted norm: with `u = (I - Q_T)^-1 1`, the expected
//!   number of rolls spent in `T` (so `u >= 1`), `Q_T u = u - 1 <= q u` for
//!   `q = 1 - 1 / max u`. In `||x||_u = max_s |x_s| / u_s` this gives
//!   `||F(x) - F(y)||_u <= q ||x - y||_u`. The Gauss-Seidel sweep has the same modulus: a
//!   component updated late in the sweep sees errors already reduced below `||e||_u u_j`,
//!   and `sum_j Q_sj u_j = u_s - 1 <= q u_s`. So does the exact solve of a group `G` with
//!   internal probabilities `C`: its error is `(I - C)^-1 Q_G,out e`, and from
//!   `(I - C) u_G = 1 + Q_G,out u` follows `(I - C)^-1 Q_G,out u = u_G - (I - C)^-1 1 <=
//!   u_G - 1 <= q u_G`.
//!
//! The statement is about `T` only: on `N` (say two dice without a 6 whose pieces are
//! stuck) `Q` has rows summing to 1 forever and no contraction of any kind holds; those
//! rows are not iterated but fixed at their known value.
//!
//! `q` is one minus the reciprocal of the longest expected game, close to 1 and unknown
//! beforehand, so the Banach bound `change * q / (1 - q)` is of no practical use. The
//! solver certifies by monotonicity instead: `Q_T >= 0` makes `F` monotone, and starting
//! from `0 <= x*` every iterate (Jacobi or Gauss-Seidel) stays below `x*` and rises. So
//! `V, W, Z` are lower bounds of P(A wins), P(B wins), P(never). Since the chain leaves `T`
//! with probability 1, the three probabilities sum to 1, which gives the upper bounds
//! `P(A wins) <= 1 - W - Z` and so on. A figure a state cannot reach at all (no path to
//! it in the graph) is exactly 0. The interval width `1 - V - W - Z` is the probability
//! mass the iteration has not yet assigned; it falls like `q^k` after `k` sweeps.
//!
//! The certificate holds in exact arithmetic. In floating point each update is a sum of
//! at most `d + 2` non-negative products (`d` distinct faces) and so carries a relative
//! rounding error of about `(d + 2) 2^-53`; the contraction keeps the accumulated error
//! below that times `max u`, the longest expected remaining game in rolls (a worst-case
//! bound that random rounding does not come near). The tests compare with dense LU
//! solves to 1e-10.
//!
//! # Starting player
//! Without `roll-off` each die starts half of the games, so the headline figures are the
//! means of the two openings. Under `roll-off` A starts with probability
//! `P(a > b) / (1 - P(a == b))`; dice that always tie cannot decide ([`ExactError::RollOff`]).

pub mod bounds;
pub mod checks;
pub mod choose;
pub mod encode;
pub mod game;
pub mod group;
pub mod huge;
pub mod matrix_free;
pub mod memory;
pub mod options;
pub mod progress;
pub mod reachable;
pub mod search;
pub mod seats;
pub mod sparse;
pub mod store;
pub mod tables;

pub use bounds::{Bounds, StateBounds};
pub use choose::{
    Fitted, SolverUsed, least_memory, solve_fitting, solve_fitting_observed, solve_matrix_free,
};
pub use memory::{MemoryEstimate, estimate_memory};
pub use options::{OptionsError, SolveOptions};
pub use sparse::{Model, solve_matchup};

use crate::dice::Die;
use crate::fixpoint::NotConverged;
use crate::rules::Rules;
use std::fmt;

/// Why a matchup was not solved.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactError {
    /// The estimated memory exceeds the limit.
    Memory {
        /// Transient states, or an upper bound on them (see `exact_count`).
        states: u64,
        /// Whether `states` is the exact count (after enumeration) or a bound (before).
        exact_count: bool,
        /// Reachable configurations of player A and of player B: the state count is their
        /// product (times the sides to move), less the pairs that cannot occur.
        configs: [u64; 2],
        /// Estimated peak bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Under `roll-off` both dice always show the same face, so nobody ever starts.
    RollOff,
    /// The state space does not fit the solver's index types.
    TooLarge(String),
    /// The iteration hit its sweep limit before the intervals were narrow enough.
    NotConverged(NotConverged),
    /// The options cannot be honoured (tolerance or sweep limit).
    Options(OptionsError),
    /// The profile lets players choose their moves (`choice`, `capture-duty`), which the
    /// solvers of the rules-fixed game do not model.
    Profile(String),
    /// The solve ended without the certificate its figures need (under `choice`: the value
    /// bracket did not close, or the extracted pair does not attain it); what is missing.
    Uncertified(String),
    /// A layered solve's estimate exceeds the limit: at its largest group.
    GroupMemory {
        /// A's goal configuration of the group where the need is largest.
        goal_a: u32,
        /// B's goal configuration of that group.
        goal_b: u32,
        /// Its states.
        states: u64,
        /// Bytes of the finished groups held beside it.
        finished_bytes: u64,
        /// Estimated peak bytes (with the tables).
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
        /// Whether that group is the core of a whole solve (`--part outside-core` leaves it
        /// out).
        core_last: bool,
        /// The processes (MPI ranks) the estimate is for: each holds its share.
        ranks: usize,
    },
    /// A file of solved values given to read back or resume from does not fit (damaged,
    /// truncated, or made for another game): the path and what was expected.
    ValuesFile(String),
    /// Writing solved values failed (e.g. the disk is full): the path and the reason.
    Write(String),
    /// The processes of a solve over MPI ranks disagree (they see different value files)
    /// or sent what does not fit: what happened.
    Ranks(String),
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::Memory {
                states,
                exact_count,
                configs,
                bytes,
                limit,
            } => write!(
                f,
                "the exact solve needs about {} for {}{states} states ({} configurations of A \
                 times {} of B), more than the limit of {}; raise --max-memory or use a smaller \
                 board",
                memory::format_bytes(*bytes),
                if *exact_count { "" } else { "up to " },
                configs[0],
                configs[1],
                memory::format_bytes(*limit)
            ),
            ExactError::RollOff => write!(
                f,
                "the roll-off cannot decide who starts: both dice always show the same face"
            ),
            ExactError::TooLarge(what) => write!(f, "state space too large: {what}"),
            ExactError::Ranks(what) => write!(f, "MPI ranks: {what}"),
            ExactError::NotConverged(e) => write!(f, "{e}"),
            ExactError::Options(e) => write!(f, "{e}"),
            ExactError::Profile(what) => write!(f, "{what}"),
            ExactError::Uncertified(what) => write!(f, "not certified: {what}"),
            ExactError::GroupMemory {
                goal_a,
                goal_b,
                states,
                finished_bytes,
                bytes,
                limit,
                core_last,
                ranks,
            } => write!(
                f,
                "the layered solve needs about {} {}at its largest group (goal fields A \
                 {goal_a:b}, B {goal_b:b}: {states} states, beside {} of finished groups it \
                 reads), more than the limit of {}{}",
                memory::format_bytes(*bytes),
                if *ranks > 1 {
                    format!("on each of {ranks} MPI ranks ")
                } else {
                    String::new()
                },
                memory::format_bytes(*finished_bytes),
                memory::format_bytes(*limit),
                if *core_last {
                    core_plan(
                        *states,
                        *finished_bytes,
                        (*ranks == 1).then_some(*bytes),
                        *limit,
                    )
                } else {
                    "; raise --max-memory, run on more MPI ranks, or use a smaller board"
                        .to_string()
                }
            ),
            ExactError::ValuesFile(what) => write!(f, "{what}"),
            ExactError::Write(what) => write!(f, "{what}"),
        }
    }
}

impl ExactError {
    /// Whether the error lies in what was asked (dice, profile, options, a game too large
    /// for the memory allowed, refused before the large work: exit code 2 in the CLI,
    /// `ValueError` in Python) rather than in what the run could reach (sweeps, a
    /// certificate).
    pub fn is_input_error(&self) -> bool {
        match self {
            ExactError::RollOff
            | ExactError::TooLarge(_)
            | ExactError::Options(_)
            | ExactError::Profile(_)
            | ExactError::Memory { .. }
            | ExactError::GroupMemory { .. }
            | ExactError::ValuesFile(_) => true,
            ExactError::NotConverged(_)
            | ExactError::Uncertified(_)
            | ExactError::Write(_)
            | ExactError::Ranks(_) => false,
        }
    }
}

impl std::error::Error for ExactError {}

/// What solving the core (the group where neither side has a piece home) takes: one
/// machine, or MPI ranks of the limit's memory or, where no number of those suffices, of
/// 128 and 256 GiB; time at the measured costs.
fn core_plan(states: u64, finished_bytes: u64, one_machine: Option<u64>, limit: u64) -> String {
    use game::layered::{COST_MEASURED_ON, REFERENCE_SWEEPS, SECONDS_PER_STATE_SWEEP, rank_plan};
    let single_hours = states as f64 * SECONDS_PER_STATE_SWEEP * REFERENCE_SWEEPS as f64 / 3600.0;
    let plans: Vec<_> = [limit, 128 << 30, 256 << 30]
        .into_iter()
        .filter_map(|rank_bytes| Some((rank_bytes, rank_plan(states, finished_bytes, rank_bytes)?)))
        .collect();
    let of_limit = plans.first().is_some_and(|(b, _)| *b == limit);
    let shown: Vec<_> = if of_limit { plans[..1].to_vec() } else { plans };
    let listed = shown
        .iter()
        .map(|(b, p)| {
            format!(
                "{} ranks of {} (about {} each)",
                p.ranks,
                memory::format_bytes(*b),
                memory::format_bytes(p.bytes_per_rank)
            )
        })
        .collect::<Vec<_>>()
        .join(" or ");
    let hours = shown.first().map_or(String::new(), |(_, p)| {
        format!(
            ", some {:.1} core-hours for {} sweeps",
            p.core_hours, p.sweeps
        )
    });
    let over_ranks = if of_limit {
        format!("{listed}{hours}")
    } else {
        format!(
            "no number of ranks of {} suffices, since each rank holds the finished groups it \
             reads whole ({}); {listed}{hours}",
            memory::format_bytes(limit),
            memory::format_bytes(finished_bytes),
        )
    };
    let machine = one_machine.map_or(String::new(), |b| {
        format!(
            "one machine with about {} of memory, ",
            memory::format_bytes(b)
        )
    });
    format!(
        "; that group is the core, where neither side has a piece home. It takes {machine}some \
         {single_hours:.1} core-hours for {REFERENCE_SWEEPS} sweeps (as many as the largest \
         groups solved took to 1e-6) at the measured {:.2} microseconds of one core per state \
         and sweep ({COST_MEASURED_ON}); over MPI ranks (`mpirun -np N wuerfelglueck solve \
         ... --layered`, built with --features mpi): {over_ranks}. --part outside-core solves \
         every other group",
        SECONDS_PER_STATE_SWEEP * 1e6,
    )
}

/// The certified intervals of every reported figure.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ResultBounds {
    /// P(A wins), starting player by the profile.
    pub p_a: Bounds,
    /// P(A wins | A starts).
    pub p_a_if_a_starts: Bounds,
    /// P(A wins | B starts).
    pub p_a_if_b_starts: Bounds,
    /// P(B wins), starting player by the profile.
    pub p_b: Bounds,
    /// P(B wins | A starts).
    pub p_b_if_a_starts: Bounds,
    /// P(B wins | B starts).
    pub p_b_if_b_starts: Bounds,
    /// P(the game never ends), starting player by the profile.
    pub p_never: Bounds,
    /// P(the game never ends | A starts).
    pub p_never_if_a_starts: Bounds,
    /// P(the game never ends | B starts).
    pub p_never_if_b_starts: Bounds,
}

impl ResultBounds {
    /// Every interval from those at the two openings, `[A wins, B wins, never]` when A
    /// starts and when B starts; `w` = P(A starts) weighs the overall figures.
    pub fn from_openings(w: f64, if_a_starts: [Bounds; 3], if_b_starts: [Bounds; 3]) -> Self {
        let [aa, ab, an] = if_a_starts;
        let [ba, bb, bn] = if_b_starts;
        ResultBounds {
            p_a: aa.mix(w, &ba),
            p_a_if_a_starts: aa,
            p_a_if_b_starts: ba,
            p_b: ab.mix(w, &bb),
            p_b_if_a_starts: ab,
            p_b_if_b_starts: bb,
            p_never: an.mix(w, &bn),
            p_never_if_a_starts: an,
            p_never_if_b_starts: bn,
        }
    }
}

impl ExactResult {
    /// The result whose figures are the midpoints of `bounds` (any solver's certificate).
    pub fn from_bounds(p_a_starts: f64, bounds: ResultBounds, stats: SolveStats) -> Self {
        ExactResult {
            p_a_starts,
            p_a: bounds.p_a.mid(),
            p_a_if_a_starts: bounds.p_a_if_a_starts.mid(),
            p_a_if_b_starts: bounds.p_a_if_b_starts.mid(),
            p_b: bounds.p_b.mid(),
            p_b_if_a_starts: bounds.p_b_if_a_starts.mid(),
            p_b_if_b_starts: bounds.p_b_if_b_starts.mid(),
            p_never: bounds.p_never.mid(),
            p_never_if_a_starts: bounds.p_never_if_a_starts.mid(),
            p_never_if_b_starts: bounds.p_never_if_b_starts.mid(),
            bounds,
            stats,
        }
    }
}

/// Size and cost of a solve.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SolveStats {
    /// Reachable configurations of A and of B.
    pub configs: [u64; 2],
    /// Joint indices in the product of both configuration sets.
    pub product: u64,
    /// Reachable transient states (the matrix dimension).
    pub states: u64,
    /// States from which no win is reachable.
    pub never_states: u64,
    /// Stored transitions: matrix entries plus non-zero absorption probabilities.
    pub transitions: u64,
    /// States whose self-loop was eliminated.
    pub self_loops: u64,
    /// Gauss-Seidel sweeps; for the matrix-free solver, which sweeps block by block, the
    /// cell updates divided by the live pairs, rounded up (work in whole-sweep units).
    pub iterations: usize,
    /// Estimated peak memory in bytes.
    pub memory_bytes: u64,
    /// Seconds to enumerate, build and classify.
    pub build_seconds: f64,
    /// Seconds of value iteration.
    pub solve_seconds: f64,
}

/// The exact answer for one matchup. Each figure is the midpoint of its certified interval
/// (so within half the tolerance of the truth); figures a start cannot reach are exactly 0.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExactResult {
    /// P(A starts): 1/2, or the roll-off's probability under `roll-off`.
    pub p_a_starts: f64,
    /// P(A wins), weighted by who starts (the figure of merit).
    pub p_a: f64,
    /// P(A wins | A starts).
    pub p_a_if_a_starts: f64,
    /// P(A wins | B starts).
    pub p_a_if_b_starts: f64,
    /// P(B wins), weighted by who starts.
    pub p_b: f64,
    /// P(B wins | A starts).
    pub p_b_if_a_starts: f64,
    /// P(B wins | B starts).
    pub p_b_if_b_starts: f64,
    /// P(the game never ends), weighted by who starts.
    pub p_never: f64,
    /// P(the game never ends | A starts).
    pub p_never_if_a_starts: f64,
    /// P(the game never ends | B starts).
    pub p_never_if_b_starts: f64,
    /// The certified intervals.
    pub bounds: ResultBounds,
    /// Size and cost.
    pub stats: SolveStats,
}

/// Refuses the profiles the Markov-chain solvers cannot express: they solve the one game
/// the rules fix (rule 3 plays the frontmost piece), so under `choice`, where the players
/// pick their moves, their answer would be that of one strategy pair passed off as the
/// game's; and their move tables hold each player's move per own configuration and face,
/// which `capture-duty` breaks. The game with choices has its own solver.
pub fn check_profile(rules: &Rules) -> Result<(), ExactError> {
    let profile = rules.profile();
    if profile.choice || !profile.moves_depend_on_own_pieces_only() {
        Err(ExactError::Profile(format!(
            "profile {profile}: under choice the players pick their moves, which the \
             Markov-chain solver of the rules-fixed game does not model"
        )))
    } else {
        Ok(())
    }
}

/// P(A starts) under the rules: 1/2, or under `roll-off` `P(a > b) / (1 - P(a == b))`.
pub fn p_a_starts(rules: &Rules, a: &Die, b: &Die) -> Result<f64, ExactError> {
    if !rules.profile().roll_off {
        return Ok(0.5);
    }
    let (mut greater, mut equal) = (0u128, 0u128);
    for &(fa, ca) in &a.face_counts() {
        for &(fb, cb) in &b.face_counts() {
            let pairs = u128::from(ca) * u128::from(cb);
            if fa > fb {
                greater += pairs;
            } else if fa == fb {
                equal += pairs;
            }
        }
    }
    let all = a.faces().len() as u128 * b.faces().len() as u128;
    if equal == all {
        return Err(ExactError::RollOff);
    }
    Ok(greater as f64 / (all - equal) as f64)
}
