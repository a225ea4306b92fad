//! The choice between the exact solvers: the sparse-matrix solver where its chain fits in
//! memory (fastest on small boards), else the matrix-free one, which stores no
//! transitions; under `choice` the solver of the game with choices, both players optimal.

use super::matrix_free::{Components, FullOptions, Storage, solve_full_with};
pub use super::shared::result::SolverUsed;
use super::shared::{ExactError, ExactResult, SolveOptions};
use super::sparse::Model;
use crate::dice::Die;
use crate::exact::shared::progress::{Observer, unobserved};
use crate::rules::Rules;

/// An exact answer with the solver that produced it.
#[derive(Clone, Copy, Debug)]
pub struct Fitted {
    /// The result; its intervals are certified whichever solver ran.
    pub result: ExactResult,
    /// The solver that ran.
    pub solver: SolverUsed,
    /// Under `f32` storage or with one value at a time: the iteration stopped gaining
    /// before the tolerance was reached; the intervals are as wide as they say.
    pub stalled: bool,
}

/// The exact answer by whichever solver fits: the sparse-matrix solver where its chain fits
/// in memory, else the matrix-free one (`f64` values if they fit, else `f32`), under every
/// profile without `choice`; under `choice`, [`solve_optimal_play`].
pub fn solve_fitting(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<Fitted, ExactError> {
    solve_fitting_observed(rules, a, b, options, &unobserved)
}

/// [`solve_fitting`] telling `observer` what the rules-fixed solvers do
/// ([`Progress`](crate::exact::shared::progress::Progress); the
/// game with choices reports nothing here).
pub fn solve_fitting_observed(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    observer: Observer<'_>,
) -> Result<Fitted, ExactError> {
    if rules.profile().choice {
        return solve_optimal_play(rules, a, b, options);
    }
    let sparse = Model::build_observed(rules, a, b, options, observer)
        .and_then(|model| model.solve_observed(options, observer));
    match sparse {
        Err(ExactError::Memory { .. }) => solve_matrix_free(
            rules,
            a,
            b,
            options,
            (Storage::Auto, Components::Auto),
            observer,
        ),
        other => other.map(|(result, _)| Fitted {
            result,
            solver: SolverUsed::Sparse,
            stalled: false,
        }),
    }
}

/// Under `choice`: the game solved with both players optimal, and the figures (P(A wins),
/// P(B wins), P(never), both openings) of the optimal pair it extracts.
///
/// The figures count only with their certificate, so anything less is an error
/// ([`ExactError::Uncertified`]), never a result: the value bracket must have closed to the
/// tolerance, the pair's own figures must be certified, and the pair must attain the value
/// (otherwise it would not be an optimal pair, and its P(A wins) not the one optimal play
/// gives). Where games can last forever under some play, the value iteration may stall
/// (end components are not deflated): that, too, is reported as uncertified.
pub fn solve_optimal_play(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<Fitted, ExactError> {
    use super::game::{GameRun, Side, solve_game_with};
    // A ranking needs P(A wins) under optimal play, not the table that attains it: where the
    // value alone gives it (a stopping game), the pair is neither extracted nor evaluated.
    let run = GameRun {
        evaluate_pair: false,
        extract_policy: false,
        ..GameRun::default()
    };
    let solution = solve_game_with(rules, [a, b], [Side::Optimal, Side::Optimal], options, &run)?;
    let missing: Vec<&str> = [
        (
            solution.value_certified,
            "the value bracket did not close to the tolerance",
        ),
        (
            solution.pair_certified,
            "the optimal pair's figures are wider than the tolerance",
        ),
        (
            solution.pair_attains_value != Some(false),
            "the extracted pair does not attain the value",
        ),
    ]
    .into_iter()
    .filter(|(ok, _)| !ok)
    .map(|(_, what)| what)
    .collect();
    if !missing.is_empty() {
        return Err(ExactError::Uncertified(format!(
            "{a} vs {b} under {}: {} ({} states from which both players together can keep \
             the game going forever)",
            rules.profile(),
            missing.join("; "),
            solution.end_component_states
        )));
    }
    Ok(Fitted {
        result: solution.pair,
        solver: SolverUsed::GameOptimal,
        stalled: false,
    })
}

/// The matrix-free solver with the given storage and components (either may be `Auto`),
/// reported as a [`Fitted`]; `observer` is told its size and every sweep
/// ([`Progress`](crate::exact::shared::progress::Progress)).
pub fn solve_matrix_free(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    (storage, components): (Storage, Components),
    observer: Observer<'_>,
) -> Result<Fitted, ExactError> {
    let full = FullOptions {
        storage,
        components,
        observer,
    };
    let outcome = solve_full_with(rules, a, b, options, &full)?;
    Ok(Fitted {
        result: outcome.result,
        solver: SolverUsed::MatrixFree(outcome.storage, outcome.components),
        stalled: outcome.stalled,
    })
}

/// The least memory (bytes) with which [`solve_fitting`] can solve `a` against `b` exactly:
/// the smaller of the sparse solver's estimate ([`super::shared::estimate_memory`]) and the
/// matrix-free solver's smallest plan (`f32` values one at a time, blocks released, no
/// never-ending set). Below this
/// limit every solver refuses for memory (and `rank --exact` simulates the pair); at or
/// above it a solve may still need more (a never-ending set, the sparse estimate's slack),
/// so this is for planning where to run a pair, e.g. on which machine of a cluster.
///
/// Takes what [`super::shared::estimate_memory`] takes: well under a second on the BwInf board.
pub fn least_memory(rules: &Rules, a: &Die, b: &Die) -> u64 {
    let sparse = super::shared::estimate_memory(rules, a, b);
    if rules.profile().three_tries {
        // The matrix-free solver does not support three-tries.
        return sparse.bytes;
    }
    let tables = crate::exact::shared::memory::table_bytes(rules, sparse.configs, [a, b]);
    let classes = [a, b].map(|d| super::matrix_free::game::Game::configs(rules, d).1);
    let matrix_free = super::matrix_free::releasing_bytes([&classes[0], &classes[1]], 4, tables);
    sparse.bytes.min(matrix_free)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Profile};

    #[test]
    fn below_the_least_memory_every_solver_refuses_and_at_it_one_solves() {
        let rules = Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::default());
        let a: Die = "1..6".parse().unwrap();
        let b: Die = "1,1,1,6,6,6".parse().unwrap();
        let least = least_memory(&rules, &a, &b);
        assert!(least <= super::super::shared::estimate_memory(&rules, &a, &b).bytes);
        let options = |limit| SolveOptions::new(1e-9, 100_000, Some(limit)).unwrap();
        assert!(matches!(
            solve_fitting(&rules, &a, &b, &options(least - 1)),
            Err(ExactError::Memory { .. })
        ));
        // These dice always bring their pieces home: no never-ending set, so the least
        // plan is enough.
        assert!(solve_fitting(&rules, &a, &b, &options(least)).is_ok());
    }
}
