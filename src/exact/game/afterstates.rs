//! A learned player's move in every decision of the solved space, from one value per
//! position.
//!
//! `strong` plays the legal move whose next position its network values highest;
//! `strong-search` the move whose next position has the highest mean, over the faces of the
//! die rolled there, of the best move's network value (`strong-search-N`: of the best move's
//! value `N - 1` rolls further). Either way the value a move is judged by is a function of
//! the position it leads to alone. Asking the player in each decision evaluates the network
//! for every legal move of every face of every state (billions of evaluations on 40/20/3/4,
//! and six times as many for each roll of look-ahead); here the network values every
//! reachable position once, each roll of look-ahead is one more pass over the positions
//! reading the values of the pass before, and each decision picks from the values.
//!
//! The arithmetic is the player's own, in the same order and in the same `f32`
//! ([`Evaluator::value_after`], [`Evaluator::value_one_roll_ahead`]), and ties go to the
//! first move as the player breaks them, so the table holds the same moves as asking the
//! player would (a test holds it).

use super::policy::{AfterstateValue, PolicyTable};
use super::space::{At, CellTarget, GameSpace, Target, flag};
use crate::dice::Die;
use crate::exact::shared::ExactError;
use crate::rules::Player;
use crate::strategy::network::Evaluator;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Distinct faces a die may have in the look-ahead (a stack array per position): the bound
/// every searching player is seated under ([`crate::strategy::MAX_SEARCH_FACES`]).
const MAX_SLOTS: usize = crate::strategy::MAX_SEARCH_FACES;

/// Joint indices per block of the parallel passes (each tells `done` once).
const BLOCK: usize = 1 << 16;

/// The move of the player valued by `how` in every decision of `side` (joint indices with
/// `index & 1 == side`), as a table; entries of the other side and of single moves stay 0.
/// `done` hears the share of the work done.
pub(super) fn tabulate(
    space: &GameSpace,
    how: AfterstateValue<'_>,
    side: Player,
    slots: usize,
    done: &(dyn Fn(f64) + Sync),
) -> Result<PolicyTable, ExactError> {
    let len = space.len();
    let mut table = PolicyTable::new(len, slots, space.rules.board().pieces())
        .ok_or_else(|| ExactError::TooLarge("the policy table overflows".into()))?;
    // The passes' shares of the work, about as they take on 40/20/3/4.
    let (values, share) = match how {
        AfterstateValue::Network(evaluator) => {
            (network_values(space, evaluator, &|d| done(0.6 * d)), 0.6)
        }
        AfterstateValue::RollsAhead(evaluator, dice, rolls) => {
            // Each roll of look-ahead is one pass over the positions, reading the values one
            // roll further: the player's recursion, unrolled.
            let rolls = rolls.max(1);
            let pass = 0.3 / f64::from(rolls);
            let mut values = network_values(space, evaluator, &|d| done(0.4 * d));
            for roll in 0..rolls {
                let first = 0.4 + pass * f64::from(roll);
                values = one_roll_ahead(space, &values, dice, &|d| done(first + pass * d))?;
            }
            (values, 0.7)
        }
    };
    table.par_fill_observed(
        |i, k| {
            if i & 1 != side || space.flag(i) & flag::REACHED == 0 || k >= space.faces(i).len() {
                return None;
            }
            let mut best: Option<(f32, usize)> = None;
            let n = space.options(i, k, |m, t| {
                let v = value_of(t, i, &values);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, m));
                }
            });
            if n < 2 { None } else { best.map(|(_, m)| m) }
        },
        |d| done(share + (1.0 - share) * d),
    );
    Ok(table)
}

/// The value for the mover at `from` of reaching `target`: 1 for a win, else the next
/// position's value turned to the mover's side (the values are each position's mover's).
#[inline(always)]
fn value_of(target: Target, from: usize, values: &[f32]) -> f32 {
    match target {
        Target::Win(_) => 1.0,
        Target::Next(j) if j & 1 == from & 1 => values[j],
        Target::Next(j) => -values[j],
    }
}

/// The network's value of every reached position, from its mover's side (0 elsewhere).
fn network_values(
    space: &GameSpace,
    evaluator: &Evaluator,
    done: &(dyn Fn(f64) + Sync),
) -> Vec<f32> {
    let rules = &space.rules;
    fill(space.len(), done, |i| {
        if space.flag(i) & flag::REACHED == 0 {
            return 0.0;
        }
        let position = space.position(i);
        let mover = position.mover();
        evaluator.value(
            rules,
            position.pieces[mover],
            position.pieces[1 - mover],
            mover,
        )
    })
}

/// The one-roll look-ahead's value of every reached position from the network's `values`:
/// the mean over the faces of the mover's die, in the die's order, of the best move's value,
/// a roll without a move giving the value of where it leads.
fn one_roll_ahead(
    space: &GameSpace,
    values: &[f32],
    dice: [&Die; 2],
    done: &(dyn Fn(f64) + Sync),
) -> Result<Vec<f32>, ExactError> {
    let order = faces_in_die_order(space, dice)?;
    Ok(fill(space.len(), done, |i| {
        if space.flag(i) & flag::REACHED == 0 {
            return 0.0;
        }
        mean_of_best_moves(space, &space.at(i), &order[i & 1], |t| {
            let t = match t {
                CellTarget::Win(p) => Target::Win(p),
                CellTarget::Next { a, b, side } => Target::Next(space.index(a, b, side)),
            };
            value_of(t, i, values)
        })
    }))
}

/// The face slots of each player's die in the die's order (a face as often as the die has
/// it), as the look-ahead averages them; refused where the dice are not the game's or have
/// more distinct faces than the look-ahead holds.
pub(super) fn faces_in_die_order(
    space: &GameSpace,
    dice: [&Die; 2],
) -> Result<[Vec<usize>; 2], ExactError> {
    let slots_in_die_order = |player: usize| -> Result<Vec<usize>, ExactError> {
        // Joint index 0 is player 0's to move, 1 player 1's.
        let slots = space.faces(player);
        dice[player]
            .faces()
            .iter()
            .map(|&face| {
                slots.iter().position(|&(f, _)| f == face).ok_or_else(|| {
                    ExactError::Profile(format!(
                        "strong-search was seated with the die {}, not the solved game's",
                        dice[player]
                    ))
                })
            })
            .collect()
    };
    let order = [slots_in_die_order(0)?, slots_in_die_order(1)?];
    if space.faces(0).len().max(space.faces(1).len()) > MAX_SLOTS {
        return Err(ExactError::TooLarge(format!(
            "the look-ahead holds at most {MAX_SLOTS} distinct faces a die"
        )));
    }
    Ok(order)
}

/// The one-roll look-ahead's value at `at` for its mover, as the player computes it: the
/// mean over the faces `order` (face slots in the die's order) of the best move's `value`
/// (of where it leads, for the mover at `at`), a roll without a move giving the value of
/// where it leads.
#[inline]
pub(super) fn mean_of_best_moves(
    space: &GameSpace,
    at: &At,
    order: &[usize],
    mut value: impl FnMut(CellTarget) -> f32,
) -> f32 {
    let faces = space.faces(at.index);
    let mut best_by_slot = [f32::NEG_INFINITY; MAX_SLOTS];
    for (k, best) in best_by_slot.iter_mut().enumerate().take(faces.len()) {
        let n = space.cell_options_at(at, k, |_, t| *best = best.max(value(t)));
        if n == 0 {
            let (a, b, side) = space.decode(space.no_move_target(at.index, faces[k].0));
            *best = value(CellTarget::Next { a, b, side });
        }
    }
    let mut total = 0.0f32;
    for &k in order {
        total += best_by_slot[k];
    }
    total / order.len() as f32
}

/// A value for every joint index below `len`, computed in parallel blocks; `done` hears the
/// share of the blocks filled.
fn fill(len: usize, done: &(dyn Fn(f64) + Sync), value: impl Fn(usize) -> f32 + Sync) -> Vec<f32> {
    let mut values = vec![0.0f32; len];
    let blocks = len.div_ceil(BLOCK).max(1);
    let filled = AtomicUsize::new(0);
    values
        .par_chunks_mut(BLOCK)
        .enumerate()
        .for_each(|(block, chunk)| {
            let first = block * BLOCK;
            for (offset, v) in chunk.iter_mut().enumerate() {
                *v = value(first + offset);
            }
            done((filled.fetch_add(1, Relaxed) + 1) as f64 / blocks as f64);
        });
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::game::policy::{MovePolicy, Pick, decide};
    use crate::exact::game::small_test_space;
    use crate::strategy::Strategy;

    /// In every decision of both sides, the table built from one value per position holds
    /// the move the player picks when asked, for `strong`, `strong-search` and
    /// `strong-search-2` (the passes against the player's recursion; with two different
    /// dice, one with a repeated face, so the look-ahead's faces and order count).
    #[test]
    fn the_table_from_position_values_is_the_players_own_picks() {
        let dice: [Die; 2] = ["1..6".parse().unwrap(), "1,2,2,4,5,6".parse().unwrap()];
        let dice = [&dice[0], &dice[1]];
        let (space, _) = small_test_space(dice);
        let rules = space.rules;
        let slots = space.faces(0).len().max(space.faces(1).len());
        for name in ["strong", "strong-search", "strong-search-2"] {
            let strategy: Strategy = name.parse().unwrap();
            for side in 0..2 {
                let seated = strategy.seated(dice, side);
                let how = seated.afterstate_value(&rules, side).expect(name);
                let table = tabulate(&space, how, side, slots, &|_| {}).unwrap();
                let mut decisions = 0;
                for i in (side..space.len()).step_by(2) {
                    if space.flag(i) & flag::REACHED == 0 {
                        continue;
                    }
                    for k in 0..space.faces(i).len() {
                        if space.options(i, k, |_, _| {}) < 2 {
                            continue;
                        }
                        decisions += 1;
                        let Pick::One(asked) = decide(&space, &seated, i, k) else {
                            panic!("{name} mixes")
                        };
                        assert_eq!(table.get(i, k), asked, "{name}, side {side}, index {i}");
                    }
                }
                assert!(decisions > 1000, "{name}: {decisions}");
            }
        }
    }
}
