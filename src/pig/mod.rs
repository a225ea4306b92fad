//! Wubbel and Pig: optimal play by value iteration.
//!
//! Two players take turns. The player to move rolls a die again and again; the bust face
//! ends the turn and loses the points of this turn, any other face adds its value to the
//! turn's points. After each roll that did not bust the player may ROLL again or SAVE: bank
//! the turn's points and hand over the move. Whoever reaches the goal first wins; a turn
//! total that reaches the goal wins at once (`e + u >= goal`). Wubbel (Linux-Magazin dice
//! contest) is goal 50 with bust face 6, Pig goal 100 with bust face 1, both with the die
//! 1..6. [`Game`] holds the three parameters.
//!
//! `P(e, g, u)` is the probability that the player to move wins with `e` banked points, the
//! opponent `g`, and `u` points this turn, when both play optimally:
//!
//! ```text
//! roll(e, g, u) = p · (1 − P(g, e, 0)) + Σ_f w_f · (1 if e + u + f ≥ goal else P(e, g, u + f))
//! save(e, g, u) = 1 − P(g, e + u, 0)                                     (only for u ≥ 1)
//! P(e, g, u)    = max(roll, save) for u ≥ 1,   P(e, g, 0) = roll(e, g, 0)
//! ```
//!
//! with bust probability `p` and scoring faces `f` of probability `w_f`.
//!
//! # No SAVE at u = 0
//! Saving with nothing in hand would be a pass. We forbid it, as the usual Pig rules do
//! (every turn starts with a roll), for two reasons. A pass is a move with no bust and no
//! progress: two players who pass forever never finish, the equations get a whole family of
//! solutions at those states, and the contraction below breaks. And it costs nothing: at
//! `u = 0` a bust hands the opponent exactly the position a pass would, so rolling first can
//! only be better as long as having the move is worth at least as much as giving it away,
//! `P(e, g, 0) + P(g, e, 0) >= 1`. The tests check that this holds everywhere in Wubbel and
//! Pig, so the values are also a solution of the equations with passing allowed.
//!
//! # Blocks, levels and why the iteration converges
//! A scoring roll stays in the half `(e, g, ·)` at a higher `u`; a bust moves to the other
//! half `(g, e, 0)` of the same block; a SAVE moves to `(g, e + u, 0)` with a larger score sum
//! `e + g + u`. So the blocks `{(e, g, ·), (g, e, ·)}` are solved level by level, `e + g` from
//! `2 (goal − 1)` down to 0, and in each block everything from higher levels is a known
//! number. The two halves of a block depend on each other only through their start values
//! `x₀ = P(e, g, 0)` and `y₀ = P(g, e, 0)`.
//!
//! That a roll busts with probability `p` (1/6) is not enough by itself: one application of
//! the equations puts weight `p` on the other half's start value and `1 − p` on the same
//! half, all inside the block, so as a map on the block's values it only has Lipschitz
//! constant 1. What contracts is a whole turn. Every scoring face is at least 1 (a scoring 0
//! is the same as rolling again and is conditioned away, see [`Game::new`]), so `u` rises with
//! each scoring roll and a turn makes at most `L = goal − e` rolls (fewer with larger faces). Fix `y₀`: then the half
//! `(e, g, ·)` follows by backward induction from `u = goal − e − 1` down to 0, `x = F(y₀)`.
//! For any fixed way of deciding, `x_u = a_u + b_u · (1 − y₀)` where `b_u` is the probability
//! that the turn continued from `u` ends in a bust; it ends without one at least when all of
//! its (at most `L`) rolls score, so `b_u ≤ β_e = 1 − (1 − p)^L < 1`. The optimum is the
//! maximum over ways of deciding, so `F` is nonincreasing in `y₀` and `β_e`-Lipschitz. In
//! the same way `y = G(x₀)` with `β_g`. A sweep (first `x` from `y₀`, then `y` from the new
//! `x₀`) maps `y₀` to `G(F(y₀)₀)₀`: a contraction with modulus at most `β_e · β_g < 1`, so
//! it has one fixed point, the block's solution, and the iteration reaches it from any
//! start. A block `e = g` in self-play is a single half whose busts lead to its own start
//! value: `x₀ ↦ F(x₀)₀`, modulus at most `β_e`.
//!
//! The bound `β_e β_g` can be very close to 1 (Pig at `(0, 0)`: `L = 50` rolls of at least 2,
//! `1 − (5/6)^50 ≈ 1 − 10⁻⁴`), which would make the Banach bound
//! ([`crate::fixpoint::contraction_gap`]) a poor stopping test. The true rate is the bust
//! probability of the turns actually played, about `1 − (5/6)^5` per turn for a player who
//! banks after five rolls. So each block stops on a certificate instead: since `F` and `G`
//! are nonincreasing, a sweep maps a lower bound of `y₀` to upper bounds of `x` and back to a
//! lower bound of `y`. The solver iterates from `y₀ = 0` and from `y₀ = 1` at once; the
//! first sequence rises, the second falls, both bracket every value of the block, and the
//! largest width is the gap reported to [`crate::fixpoint::iterate`]. The stored value is
//! the midpoint, within half the tolerance of the block's exact solution.
//!
//! A block's exact solution moves by at most as much as the higher-level values it uses
//! (it is a game whose payoffs are those values, reached with total probability 1), so the
//! errors of the levels add up: [`SolveStats::error_bound`] sums half the final width over
//! the levels, about `goal · tolerance`.
//!
//! # Checking by play
//! [`evaluate`] computes the exact win probabilities of two fixed strategies ([`HoldAt`],
//! the optimal [`Solution`]) against each other on the same block engine, with the decisions
//! fixed instead of maximised; [`simulate`] plays them with the real die and a seeded
//! `Xoshiro256PlusPlus`. The decision map
//! ([`crate::report::plot::decision_map_svg`]) draws the smallest turn total at which to
//! SAVE for every `(e, g)`.

pub mod compare;
pub mod game;
pub mod policy;
pub mod sim;
pub mod solve;

pub use compare::{Comparison, SimulatedPairing, check_by_simulation, compare};
pub use game::{Decision, Game, GameError, MAX_GOAL};
pub use policy::{Evaluation, HoldAt, Strategy, evaluate};
pub use sim::{Tally, Z_999, simulate};
pub use solve::{Solution, SolveError, SolveStats, solve};
