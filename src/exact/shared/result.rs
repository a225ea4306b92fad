//! What an exact solve answers: the figures of a matchup with their certified intervals,
//! its size and cost, which solver made it, and the checks every solver makes before it
//! starts (the profile it can express, who starts).

use super::bounds::Bounds;
use super::error::ExactError;
use crate::dice::Die;
use crate::rules::Rules;

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

/// Which solver produced an [`ExactResult`](ExactResult).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverUsed {
    /// The sparse-matrix solver ([`crate::exact::solve_matchup`]).
    Sparse,
    /// The matrix-free solver with this storage (`F64` or `F32`), its sweeps carrying the
    /// values of a state together or one at a time (never `Auto`).
    MatrixFree(Storage, Components),
    /// The solver of the game with choices ([`crate::exact::game::solve_game`]), both players
    /// optimal: the figures are those of an optimal pair of strategies.
    GameOptimal,
}

impl std::fmt::Display for SolverUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolverUsed::Sparse => write!(f, "sparse matrix"),
            SolverUsed::MatrixFree(storage, components) => {
                let bits = if *storage == Storage::F32 { 32 } else { 64 };
                write!(f, "matrix-free, f{bits} storage")?;
                match components {
                    Components::OneAtATime => write!(f, ", one value at a time")?,
                    Components::OneAtATimeReleasing => {
                        write!(f, ", one value at a time, blocks released")?
                    }
                    _ => {}
                }
                Ok(())
            }
            SolverUsed::GameOptimal => write!(f, "game with choices, both players optimal"),
        }
    }
}

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

impl Storage {
    /// Bytes per stored value (`Auto` counts as its smallest choice, `f32`).
    pub fn value_bytes(self) -> u64 {
        if self == Storage::F64 { 8 } else { 4 }
    }
}

/// Whether a sweep carries every value of a state at once or one at a time.
///
/// `V` (P(A wins)) and `W` (P(B wins)) satisfy two separate linear systems over the same
/// moves: a state's `V` is the average of its successors' `V` plus the probability that A
/// wins at once, and the same for `W`. So they can be iterated one after the other, each
/// from 0, each a lower bound at every step, with half the values in memory: the values of
/// `V` are dropped (their openings kept) before `W` is iterated. The certificate is the
/// same, `V <= P(A wins) <= 1 - W` at the openings, but the sweeps cannot watch the width
/// while `V` runs (it needs both): `V`'s blocks are swept until their largest change is a
/// twentieth of their target (or they stop gaining, under `f32`), and `W`'s opening block
/// until the openings' width `1 - V - W` is within the tolerance or stops falling; an
/// interval wider than the tolerance is reported as stalled, as wide as it is.
///
/// Only without a never-ending state (no `Z`) and without `three-tries` (whose cell update
/// solves the levels together): the pairs that do not fit otherwise have neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Components {
    /// `V` and `W` in one sweep: the fastest.
    Together,
    /// `V` to the end, then `W`: half the memory of the values, about 1.4 times the time
    /// (20/10/4/4, `docs/src/performance.md`).
    OneAtATime,
    /// One at a time, and each block's values given back to the system as soon as no block
    /// still to be swept reads them, with the flag byte of a pair packed to the two bits the
    /// sweeps read (whether each side is reachable): the least memory, the peak that of the
    /// blocks live at once ([`crate::exact::matrix_free::releasing_bytes`]). The released values are gone, so
    /// no global sweep can follow the block pass: where the opening block does not
    /// certify the tolerance by itself, the interval it reached is reported as stalled.
    OneAtATimeReleasing,
    /// `Together` if it fits the memory limit in the storage chosen, else `OneAtATime`.
    Auto,
}

impl Components {
    /// Values stored per state: 2 together, 1 one at a time (`Auto` counts as its smaller
    /// choice).
    pub fn per_state(self) -> u64 {
        if self == Components::Together { 2 } else { 1 }
    }

    /// Whether the sweeps carry one value at a time (released or not).
    pub fn one_at_a_time(self) -> bool {
        matches!(
            self,
            Components::OneAtATime | Components::OneAtATimeReleasing
        )
    }
}
