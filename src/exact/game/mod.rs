//! The game where players choose their moves (profile `choice`, optionally `capture-duty`),
//! solved exactly as a two-player zero-sum stochastic game.
//!
//! # The game
//! A maximises `v = P(A wins) - P(B wins)` (a game that never ends counts 0), B minimises
//! it; for dice where every game ends this is "each maximises its own chance to win". A
//! state is `(A's pieces, B's pieces, side to move)`; a roll of face `f` gives the mover the
//! legal moves of [`crate::rules::Rules::legal_moves`], and the mover picks one after seeing
//! the face.
//!
//! # Pipeline (on the one exact layer)
//! 1. [`space::PlayerTable`]: each player's configurations, closed under every legal move
//!    and every capture ([`crate::exact::shared::reachable::configs_closed_under`], the same search
//!    the rules-fixed solver uses with its one move), most advanced first, with every legal
//!    move per configuration and face tabulated.
//! 2. [`space::GameSpace`]: the joint index `(A, B, side)` with a flag byte per index, a
//!    [`crate::exact::shared::search::Successors`] whose successors are *all* legal moves.
//!    [`crate::exact::shared::search::reach`] finds the states reachable when every move may be
//!    taken; [`crate::exact::shared::search::can_reach`] marks which wins each state can reach under
//!    some play. States that can reach no win have value 0 and P(never) = 1 under every
//!    pair of strategies.
//! 3. [`classify()`] also finds the end components: the greatest set of states from which
//!    both players together can keep the game going forever, whatever the dice show. If
//!    there is none the game is *stopping* (every play ends with probability 1, or falls
//!    into the never-ending set), and value iteration from both ends converges to the one
//!    value.
//! 4. [`value`]: Gauss-Seidel value iteration of a lower iterate from -1 and an upper
//!    iterate from +1 at once, A taking the maximum and B the minimum over its legal moves
//!    for each face (or a side playing a fixed [`policy::MovePolicy`]: a best response);
//!    the two sides of one configuration pair, linked by rolls that move nothing, are solved
//!    exactly per sweep ([`crate::exact::shared::group`]). With the same die on both sides of a
//!    symmetric board the game is its own mirror image, `v(a, b, s) = -v(b, a, 1 - s)`,
//!    and each sweep solves the cells `(a, b)` with `a <= b` and writes their mirror images
//!    into `(b, a)` ([`sweep::Mirror`]). Driven by [`crate::fixpoint`] with the one
//!    stopping rule of [`crate::exact::shared::SolveOptions`]. The bracket `[lower, upper]` holds the
//!    value at every sweep (monotone operator, `-1 <= v <= 1`); the solve stops when it is at
//!    most the tolerance wide at both openings. A *lower bound from 0 on P(A wins) and on
//!    P(B wins) separately* would not be one: under max/min the two probabilities are those
//!    of one strategy pair, and the pair changes as the iteration goes, so neither iterate
//!    bounds a fixed quantity.
//! 5. The optimal pair ([`policy::PolicyTable`]): for every decision, the move with the
//!    best midpoint value (ties to the frontmost piece). [`evaluate`] then solves the Markov
//!    chain of that pair (or of any fixed pair) exactly: where every play ends with a win,
//!    by the pair's own value bracket from -1 and +1 (two values a state, P(never) = 0);
//!    otherwise `V`, `W`, `Z` from 0 as the rules-fixed solver does, with the certified
//!    intervals of [`crate::exact::StateBounds::certified`]. This gives P(A wins), P(B wins)
//!    and P(never) under the pair; its value `V - W` lies in the game's bracket up to the
//!    tolerance when the greedy pair is optimal, which the result checks and reports.
//!
//! # End components, and what is certified
//! With dice that can leave pieces stuck (no small faces, or no 6) both players can keep a
//! game going forever by choice: for instance by never capturing a piece whose capture would
//! free the game. In such end components `T` has fixed points other than the value, and the
//! lower iterate can stay below it and the upper above (bounded value iteration would
//! deflate them to their best exit: Kelmendi, Krämer, Křetínský and Weininger, CAV 2018;
//! not done here). The solver detects end components by graph analysis and reports them
//! ([`GameSolution::end_component_states`]); the bracket stays sound, the iteration stops
//! when it no longer narrows, and [`GameSolution::value_certified`] says whether the width
//! reached is within the tolerance. Figures are never passed off as certified beyond what
//! the iteration reached.
//!
//! # Size
//! Under `choice` almost every placement of a player's pieces can occur, so the joint index
//! is close to the product of the full configuration counts: for `p` pieces on a board of
//! `F` fields, `(sum_{k <= p} C(F, k))^2 * 2` indices. The solver keeps 1 flag byte and two
//! `f64` per index while iterating the value, then for the pair's chain 2 `f64` per index
//! (3 where some play can go on forever) and the packed pair ([`memory_bytes`]).

pub mod advise;
pub(crate) mod afterstates;
pub(crate) mod classify;
pub mod differences;
pub(crate) mod evaluate;
pub mod exact_strategy;
pub mod file;
pub mod layered;
pub mod policy;
pub mod position;
pub mod solve;
pub mod space;
pub mod style;
pub(crate) mod sweep;
pub mod table_strategy;
pub(crate) mod value;

// The layered solver's parts under the paths they had before it got a folder of its own.
pub use layered::cluster;

pub use classify::classify;
pub use differences::{Difference, count_differences, differences_from_heuristics};
pub use solve::{
    GameRun, GameSolution, Progress, Side, check_profile, memory_bytes, solve_game,
    solve_game_keeping_values, solve_game_with,
};
pub use table_strategy::TableStrategy;

/// The space of 16/8/2/2 under `choice` with `dice`, classified, and its number of
/// end-component states: the small game the unit tests of the solver's parts share.
#[cfg(test)]
pub(crate) fn small_test_space(dice: [&crate::dice::Die; 2]) -> (space::GameSpace, u64) {
    let rules = crate::rules::Rules::new(
        "16/8/2/2".parse().expect("a valid board"),
        "choice".parse().expect("a valid profile"),
    );
    let space = space::GameSpace::new(&rules, dice).expect("a small space");
    let end_states = classify(&space);
    (space, end_states)
}

/// Two ways of sweeping that must agree bit for bit (a row at a time and cell by cell):
/// six sweeps of each, `sweep(bracket, by_rows)`, on one thread from a fresh bracket of
/// `space`; asserts that the sweeps narrow the bracket and that both ways give the same
/// changes and the same bracket to the last bit (`what` names the case).
#[cfg(test)]
pub(crate) fn assert_rows_sweep_as_cells(
    space: &space::GameSpace,
    sweep: impl Fn(&value::Bracket, bool) -> Option<f64> + Sync,
    what: &str,
) {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let [by_rows, by_cells] = [true, false].map(|rows| {
        let bracket = value::new_bracket(space);
        let changes: Vec<f64> = (0..6)
            .map(|_| {
                one_thread
                    .install(|| sweep(&bracket, rows))
                    .expect("legal picks")
            })
            .collect();
        let values: Vec<[u64; 2]> = (0..space.len())
            .map(|i| bracket.load(i).map(f64::to_bits))
            .collect();
        (changes, values)
    });
    assert!(
        by_cells.0[5] < by_cells.0[0],
        "{what}: the sweeps narrow the bracket"
    );
    assert_eq!(by_rows.0, by_cells.0, "{what}: changes");
    assert!(by_rows.1 == by_cells.1, "{what}: values");
}
