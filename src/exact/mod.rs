//! The exact solver: the win probabilities of a matchup as the absorption probabilities of
//! a finite Markov chain, with a certified interval around each.
//!
//! # Pipeline (the sparse-matrix solver, [`sparse`])
//! 1. [`shared::reachable::player_configs`]: each player's reachable configurations, indexed
//!    densely ([`shared::encode::ConfigIndex`]), most advanced first.
//! 2. [`shared::reachable::joint_states`]: the joint states reachable from the two opening
//!    positions, as a bit set over the product index [`shared::encode::JointCoder`]
//!    (configuration of A × configuration of B × side to move × tries). Their rank in
//!    that set is their row number.
//! 3. [`sparse::transitions::build_chain`]: for each state and face, the successor from
//!    [`crate::rules::Rules::play_roll`], into a sparse matrix `Q` of transient-to-transient
//!    probabilities and the absorption probabilities `a` (A wins) and `b` (B wins), with
//!    self-loops eliminated exactly.
//! 4. [`sparse::solve::Classes`]: which states can reach a win of A, of B (the reverse graph
//!    search from the winning states, computed by [`shared::search::can_reach`] as the least fixed
//!    point of "wins in one step or has a successor that can"). The states that reach no win form the
//!    never-ending set `N`; its value is known exactly (`P(never) = 1`), everything else is
//!    the transient set `T`.
//! 5. [`sparse::solve::iterate`]: Gauss-Seidel value iteration on `T` for three vectors at once,
//!    `V <- a + Q V`, `W <- b + Q W`, `Z <- Q Z` (with `Z = 1` held fixed on `N`), all
//!    from 0, through [`crate::fixpoint::iterate`]; it stops when the certified intervals
//!    of the reported figures are at most the tolerance wide. Rows with the same pieces of
//!    both players (the two sides to move, and the tries counter) form a group of at most
//!    six that each sweep solves exactly ([`shared::group`], block Gauss-Seidel): a roll that
//!    moves nothing and passes the turn links them, and without this the pair where both
//!    players wait for a 6 alone would need four to six times as many sweeps.
//!
//! The matrix-free solver ([`matrix_free`]) runs the same steps without a matrix, over
//! per-player tables; [`choose::solve_fitting`] picks the solver that fits.
//!
//! # One exact layer, several successor functions
//! What the solvers share is written once: the reachability search and the "can reach a
//! win" fixed point ([`shared::search`], over the [`shared::search::Successors`] trait), the exact solve of
//! the rows of one configuration pair ([`shared::group`]), the certified interval `[V, 1 - W - Z]`
//! ([`shared::bounds::StateBounds::certified`]), the options and their one tolerance rule
//! ([`shared::options`]), and the iteration driver with its stopping and stall rules
//! ([`crate::fixpoint`]). A solver is a state space with a successor function and a value
//! sweep. A new one (the game where players choose their moves, N players) plugs in by
//! implementing [`shared::search::Successors`] for its states (where a roll leads, and where it
//! keeps a few flag bits per state), running [`shared::search::reach`] and [`shared::search::can_reach`]
//! on it to find its states and its never-ending set, writing its sweep as a monotone
//! update from 0 that solves each group of rows linked by "nothing moved" with [`shared::group`],
//! driving the sweeps with [`crate::fixpoint::iterate`] (or `iterate_until_stall` for
//! rounded storage), and reporting [`shared::bounds::StateBounds::certified`] at its openings.
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
//!
//! # Layout
//! The folders follow the pipeline: [`shared`] holds what every solver uses (the encoding,
//! the reachability searches, the exact solve of a group of rows, the certified intervals,
//! the options, the memory and time estimates with the costs they are fitted to, the
//! result and error types); each solver has its folder ([`sparse`], [`matrix_free`],
//! [`game`] for the game with choices, [`seats`] for tables of three and four); [`choose`]
//! picks the solver that fits, above them all.

pub mod choose;
pub mod game;
pub mod matrix_free;
pub mod seats;
pub mod shared;
pub mod sparse;

pub use choose::{Fitted, least_memory, solve_fitting, solve_fitting_observed, solve_matrix_free};
pub use shared::bounds::{Bounds, StateBounds};
pub use shared::error::ExactError;
pub use shared::memory::{MemoryEstimate, estimate_memory};
pub use shared::options::{OptionsError, SolveOptions};
pub use shared::result::{
    ExactResult, ResultBounds, SolveStats, SolverUsed, check_profile, p_a_starts,
};
// The shared modules under the paths they had before the solvers got folders of their own.
pub use shared::{bounds, checks, encode, memory, options, progress, reachable};
pub use sparse::{Model, solve_matchup};
