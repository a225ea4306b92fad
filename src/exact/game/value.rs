//! The game's value `v = P(A wins) - P(B wins)` by value iteration from both ends: a lower
//! iterate from -1 and an upper iterate from +1, A maximising and B minimising over the
//! legal moves of each roll (or a side playing a fixed policy), swept together.
//!
//! The Bellman operator `T` is monotone and the value `v*` is a fixed point of it with
//! `-1 <= v* <= 1`, so `T^k(-1) <= v* <= T^k(+1)` for every `k`, in any sweep order: the
//! bracket is certified at every sweep, whether or not it closes. Where the game is stopping
//! (every play ends with probability 1 under every pair of strategies, which the space's
//! graph decides: no end component, see [`super::classify()`]), `T` has a unique fixed point
//! and both iterates converge to it. Where both players together can keep the game going
//! forever, the iterates can settle on other fixed points inside the end components and the
//! bracket may stay open; the solver then reports the width it reached.

use super::policy::{MovePolicy, Pick, PolicyTable, decide, table_target};
use super::space::{At, GameSpace, Target, flag};
use super::sweep::{FillRow, Mirror, ROW_CHUNK, RowOfA, RowUpdate, Store, sweep_by_rows};
use crate::rules::Player;

/// A fixed policy picked a move that is not in the list of legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IllegalPick;

/// Lower and upper iterate of the value.
pub(crate) type Bracket = Store<2>;

/// Whether the game's value at `index` is exactly 0 (no win is reachable under any play).
#[inline(always)]
pub(crate) fn never(space: &GameSpace, index: usize) -> bool {
    space.flag(index) & (flag::WIN_A | flag::WIN_B) == 0
}

/// The value of `index` where the game alone fixes it, whatever is played: 0 where no win
/// is reachable, +1 or -1 where only one side can win and every play ends with a win
/// ([`flag::SETTLED`]). Such states are held, not iterated, so no rounding reaches them.
#[inline(always)]
pub(crate) fn settled_value(space: &GameSpace, index: usize) -> Option<f64> {
    let f = space.flag(index);
    if f & (flag::WIN_A | flag::WIN_B) == 0 {
        Some(0.0)
    } else if f & flag::SETTLED != 0 {
        Some(if f & flag::WIN_A != 0 { 1.0 } else { -1.0 })
    } else {
        None
    }
}

/// The settled value of `index` as a bracket (`[0, 0]` for a state that is not settled:
/// the sweeps never ask for one).
#[inline(always)]
pub(crate) fn settled_bracket(space: &GameSpace, index: usize) -> [f64; 2] {
    let v = settled_value(space, index).unwrap_or(0.0);
    [v, v]
}

/// The value of a target under the bracket: `+1` / `-1` for a win, else the stored pair
/// (the never-ending set holds 0, see [`new_bracket`]).
#[inline(always)]
pub(crate) fn target_value(bracket: &Bracket, t: Target) -> [f64; 2] {
    match t {
        Target::Win(0) => [1.0, 1.0],
        Target::Win(_) => [-1.0, -1.0],
        Target::Next(j) => bracket.load(j),
    }
}

/// The bracket to start from: `[-1, +1]`, and the exact value where the game settles it
/// ([`settled_value`]).
pub(crate) fn new_bracket(space: &GameSpace) -> Bracket {
    let bracket = Store::new(space.len(), [-1.0, 1.0]);
    for i in 0..space.len() {
        if let Some(v) = settled_value(space, i) {
            bracket.store(i, [v, v]);
        }
    }
    bracket
}

/// An option's bracket `v` folded into the mover's best so far: max for A, min for B, at
/// both ends of the bracket.
#[inline(always)]
pub(crate) fn fold_best(mover: Player, best: Option<[f64; 2]>, v: [f64; 2]) -> [f64; 2] {
    match best {
        None => v,
        Some(b) if mover == 0 => [b[0].max(v[0]), b[1].max(v[1])],
        Some(b) => [b[0].min(v[0]), b[1].min(v[1])],
    }
}

/// The options' values folded by the mover's rule: max for A, min for B, or the fixed
/// policy's pick (`Err` if the policy picked a move that does not exist); `Ok(None)` if
/// nothing can move.
#[inline(always)]
pub(crate) fn fold_options(
    space: &GameSpace,
    bracket: &Bracket,
    at: &At,
    k: usize,
    fixed: Option<&dyn MovePolicy>,
) -> Result<Option<[f64; 2]>, IllegalPick> {
    let mover: Player = at.side;
    let Some(policy) = fixed else {
        let mut best: Option<[f64; 2]> = None;
        space.options_at(at, k, |_, t| {
            best = Some(fold_best(mover, best, target_value(bracket, t)));
        });
        return Ok(best);
    };
    if let Some(table) = policy.table() {
        // A tabulated side (a learned player, a policy file): only its move is walked.
        return match table_target(space, table, at, k) {
            Some(target) => Ok(target.map(|t| target_value(bracket, t))),
            None => Err(IllegalPick),
        };
    }
    let index = at.index;
    let mut result = Ok(None);
    space.with_options(at, k, |targets| {
        let values = |t: &Target| target_value(bracket, *t);
        result = match targets.len() {
            0 => Ok(None),
            1 => Ok(Some(values(&targets[0]))),
            n => match decide(space, policy, index, k) {
                Pick::One(m) => targets.get(m).map(|t| Some(values(t))).ok_or(IllegalPick),
                Pick::Uniform => {
                    let w = 1.0 / n as f64;
                    Ok(Some(
                        targets
                            .iter()
                            .map(values)
                            .fold([0.0, 0.0], |acc, v| [acc[0] + w * v[0], acc[1] + w * v[1]]),
                    ))
                }
            },
        };
    });
    result
}

/// The value bracket of a state's mirror image: `v(b, a, 1 - s) = -v(a, b, s)`, so
/// `[lo, hi]` becomes `[-hi, -lo]`.
pub(crate) const MIRROR: Mirror<2> = Mirror {
    map: |[lo, hi]| [-hi, -lo],
};

/// Whether a value sweep may use the mirror symmetry: the game is its own mirror image
/// ([`GameSpace::symmetric`]) and both players optimise (a fixed policy on one side only
/// breaks the symmetry).
pub(crate) fn mirror_applies(space: &GameSpace, fixed: [Option<&dyn MovePolicy>; 2]) -> bool {
    space.symmetric() && fixed.iter().all(Option::is_none)
}

/// One sweep of both iterates; `fixed[p]` is player `p`'s policy if it does not optimise;
/// with `use_mirror` (which [`mirror_applies`] must allow) only side-0 rows are computed
/// and side 1 is their mirror image. Returns the largest change, or `None` if a fixed
/// policy picked a move that does not exist.
///
/// The mirror keeps the bracket sound: the value written to `(b, a, 1)` is `-hi` of
/// `(a, b, 0)`, and `hi >= v(a, b, 0)` gives `-hi <= -v(a, b, 0) = v(b, a, 1)`.
pub(crate) fn value_sweep(
    space: &GameSpace,
    bracket: &Bracket,
    fixed: [Option<&dyn MovePolicy>; 2],
    use_mirror: bool,
) -> Option<f64> {
    // A's options lead out of the row, into rows done earlier in the sweep: where they are
    // A's whole choice (no capture duty narrows them) and A optimises or plays from a table,
    // a row's A-to-move updates are made together, each move's targets read along a row of
    // the bracket.
    let by_rows =
        !space.rules.profile().capture_duty && fixed[0].is_none_or(|p| p.table().is_some());
    value_sweep_with(space, bracket, fixed, use_mirror, by_rows)
}

/// [`value_sweep`], A's updates a row at a time ([`RowOfA`]) if `by_rows`, else cell by
/// cell.
fn value_sweep_with(
    space: &GameSpace,
    bracket: &Bracket,
    fixed: [Option<&dyn MovePolicy>; 2],
    use_mirror: bool,
    by_rows: bool,
) -> Option<f64> {
    debug_assert!(!use_mirror || mirror_applies(space, fixed));
    let bad = std::sync::atomic::AtomicBool::new(false);
    let iterated = |index: usize| {
        space.flag(index) & flag::REACHED != 0 && settled_value(space, index).is_none()
    };
    let a_table = fixed[0].and_then(|p| p.table());
    let change = sweep_by_rows(
        space,
        bracket,
        use_mirror.then_some(MIRROR),
        |index| settled_bracket(space, index),
        |a| {
            let mut ahead = by_rows.then(|| row_of_a(space, bracket, a, a_table));
            let bad = &bad;
            move |index: usize| {
                if !iterated(index) {
                    return None;
                }
                if let Some(row) = &mut ahead
                    && index & 1 == 0
                {
                    let update = row.update(space.decode(index).1);
                    if update.is_none() {
                        bad.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    return update;
                }
                let at = space.at(index);
                let mut outside = [0.0; 2];
                let mut stay = [0.0; 2];
                for (k, &(face, p)) in space.faces(index).iter().enumerate() {
                    match fold_options(space, bracket, &at, k, fixed[at.side]) {
                        Ok(Some(v)) => {
                            outside[0] += p * v[0];
                            outside[1] += p * v[1];
                        }
                        Ok(None) => stay[space.no_move_target(index, face) & 1] += p,
                        Err(IllegalPick) => bad.store(true, std::sync::atomic::Ordering::Relaxed),
                    }
                }
                Some(RowUpdate { outside, stay })
            }
        },
    );
    (!bad.into_inner()).then_some(change)
}

/// The A-to-move updates of row `a` ([`RowOfA`]), A optimising (`table` is `None`) or
/// playing from `table`; only where no capture duty narrows A's moves. The same sums in the
/// same order as a cell alone ([`fold_options`]), so the bracket is the cell-by-cell
/// sweep's.
pub(crate) fn row_of_a<'a>(
    space: &'a GameSpace,
    bracket: &'a Bracket,
    a: usize,
    table: Option<&'a PolicyTable>,
) -> RowOfA<impl FillRow + 'a> {
    let mut best = vec![[0.0; 2]; if table.is_none() { ROW_CHUNK } else { 0 }];
    RowOfA::new(
        space,
        a,
        move |start, sums: &mut [[f64; 2]], illegal: &mut [bool]| match table {
            None => fill_optimal(space, bracket, a, start, sums, &mut best[..sums.len()]),
            Some(table) => fill_from_table(space, bracket, table, a, start, sums, illegal),
        },
    )
}

/// A optimising in the cells `b = start + i` of row `a`: per face, each option's values
/// read for the cells in order, their maximum added to `sums[i]`.
fn fill_optimal(
    space: &GameSpace,
    bracket: &Bracket,
    a: usize,
    start: usize,
    sums: &mut [[f64; 2]],
    best: &mut [[f64; 2]],
) {
    let me = &space.players[0];
    for (k, &(face, p)) in me.faces.iter().enumerate() {
        let moves = me.moves(a, k);
        if moves.is_empty() {
            continue;
        }
        for (m, mv) in moves.iter().enumerate() {
            for (i, slot) in best.iter_mut().enumerate() {
                let v = target_value(bracket, space.a_target(mv, start + i, face));
                *slot = if m == 0 {
                    v
                } else {
                    [slot[0].max(v[0]), slot[1].max(v[1])]
                };
            }
        }
        for (sum, v) in sums.iter_mut().zip(best.iter()) {
            sum[0] += p * v[0];
            sum[1] += p * v[1];
        }
    }
}

/// A playing from `table` in the cells `b = start + i` of row `a`: per face, the value of
/// the table's move added to `sums[i]`, or `illegal[i]` marked where the table names a move
/// that does not exist.
fn fill_from_table(
    space: &GameSpace,
    bracket: &Bracket,
    table: &PolicyTable,
    a: usize,
    start: usize,
    sums: &mut [[f64; 2]],
    illegal: &mut [bool],
) {
    let me = &space.players[0];
    for (k, &(face, p)) in me.faces.iter().enumerate() {
        let moves = me.moves(a, k);
        for (i, sum) in sums.iter_mut().enumerate() {
            let b = start + i;
            // One legal move needs no decision: the table's entry is not read there (as in
            // `table_target`).
            let m = match moves.len() {
                0 => continue,
                1 => 0,
                _ => table.get(space.index(a, b, 0), k),
            };
            let Some(mv) = moves.get(m) else {
                illegal[i] = true;
                continue;
            };
            let v = target_value(bracket, space.a_target(mv, b, face));
            sum[0] += p * v[0];
            sum[1] += p * v[1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::exact::game::{assert_rows_sweep_as_cells, small_test_space};

    /// A's updates made a row at a time give the bracket the cell-by-cell sweep gives, bit
    /// for bit on one thread (A's options read rows finished earlier in the sweep either
    /// way): with the mirror (the same die) and without (two dice, a repeated face).
    #[test]
    fn a_row_at_a_time_sweeps_as_cell_by_cell() {
        for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
            let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
            let (space, _) = small_test_space([&dice[0], &dice[1]]);
            let use_mirror = mirror_applies(&space, [None, None]);
            assert_eq!(use_mirror, a == b);
            assert_rows_sweep_as_cells(
                &space,
                |bracket, rows| value_sweep_with(&space, bracket, [None, None], use_mirror, rows),
                &format!("{a} against {b}"),
            );
        }
    }

    /// The same with A played from a table against an optimising B (a best response to a
    /// fixed A): the table of `safe` against B's best response, as the solver extracts it.
    #[test]
    fn a_table_row_at_a_time_sweeps_as_cell_by_cell() {
        use crate::exact::game::{Side, solve_game};
        use crate::exact::shared::SolveOptions;
        use crate::strategy::Strategy;
        for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
            let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
            let dice = [&dice[0], &dice[1]];
            let safe = "safe".parse::<Strategy>().unwrap().seated(dice, 0);
            let (space, _) = small_test_space(dice);
            let solution = solve_game(
                &space.rules,
                dice,
                [Side::Fixed(&safe), Side::Optimal],
                &SolveOptions::default(),
            )
            .unwrap();
            let table = solution.policy.expect("safe against its best response");
            let fixed: [Option<&dyn MovePolicy>; 2] = [Some(&table), None];
            assert_rows_sweep_as_cells(
                &space,
                |bracket, rows| value_sweep_with(&space, bracket, fixed, false, rows),
                &format!("{a} against {b}, A safe's table"),
            );
        }
    }
}
