//! How far the built-in heuristics are from a policy table: on how many decisions they
//! play another move.

use super::policy::{MovePolicy, Pick, PolicyTable, decide};
use super::space::{GameSpace, flag};
use super::value::never;
use crate::dice::Die;

/// How often `policy` picks another move than `table` over `side`'s decisions in the
/// reachable states that can still be won (every state and face with at least two legal moves,
/// counted once, unweighted by how often play reaches it): `(decisions, differing)`.
/// `differing` is the expected number of decisions where the policy plays another move: a
/// whole number for a policy that picks one move, and for the uniform mix the sum of
/// `1 - 1/m` over the decisions with `m` legal moves (it plays the table's move with
/// probability `1/m`).
pub fn count_differences(
    space: &GameSpace,
    table: &PolicyTable,
    policy: &dyn MovePolicy,
    side: usize,
) -> (u64, f64) {
    use rayon::prelude::*;
    // A heuristic like `safe` does real work per decision, and the larger boards have
    // billions of decisions: the count runs on every thread, in chunks of states.
    const CHUNK: usize = 1 << 16;
    let states = space.len();
    (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let (mut decisions, mut differing) = (0u64, 0.0f64);
            let end = ((chunk + 1) * CHUNK).min(states);
            // CHUNK is even, so `side` keeps its parity at every chunk's start.
            for i in (chunk * CHUNK + side..end).step_by(2) {
                if space.flag(i) & flag::REACHED == 0 || never(space, i) {
                    continue;
                }
                let at = space.at(i);
                for k in 0..space.faces(i).len() {
                    let moves = space.options_at(&at, k, |_, _| {});
                    if moves < 2 {
                        continue;
                    }
                    decisions += 1;
                    differing += match decide(space, policy, i, k) {
                        Pick::One(m) if m == table.get(i, k) => 0.0,
                        Pick::One(_) => 1.0,
                        Pick::Uniform => 1.0 - 1.0 / moves as f64,
                    };
                }
            }
            (decisions, differing)
        })
        .reduce(|| (0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1))
}

/// How often one built-in heuristic plays another move than a policy table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// The heuristic's name ([`crate::strategy::STRATEGY_NAMES`]).
    pub strategy: &'static str,
    /// Decisions compared (both players' decisions with at least two legal moves).
    pub decisions: u64,
    /// Of these, the expected number where the heuristic plays another move (a whole
    /// number but for `random`, see [`count_differences`]).
    pub differing: f64,
}

/// [`count_differences`] of every built-in strategy against `table` (the learned players
/// where one was trained for the game), on A's and B's
/// decisions alike (`safe` measured against each mover's opponent's die). `mirrored`: the
/// table is its own mirror image ([`GameSolution::mirrored`](super::GameSolution::mirrored); the heuristics treat both
/// players alike), so B's decisions are A's seen from the other side: A's are counted twice.
pub fn differences_from_heuristics(
    space: &GameSpace,
    table: &PolicyTable,
    dice: [&Die; 2],
    mirrored: bool,
) -> Vec<Difference> {
    use crate::strategy::{STRATEGY_NAMES, Strategy};
    STRATEGY_NAMES
        .iter()
        .filter_map(|&name| {
            let strategy: Strategy = name.parse().ok()?;
            // The learned players only where one was trained for this game.
            strategy.check_game(&space.rules, dice).ok()?;
            let (mut decisions, mut differing) = (0, 0.0);
            let sides: &[usize] = if mirrored { &[0] } else { &[0, 1] };
            for &side in sides {
                let resolved = strategy.seated(dice, side);
                let (d, x) = count_differences(space, table, &resolved, side);
                decisions += d;
                differing += x;
            }
            if mirrored {
                decisions *= 2;
                differing *= 2.0;
            }
            Some(Difference {
                strategy: name,
                decisions,
                differing,
            })
        })
        .collect()
}
