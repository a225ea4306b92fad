//! The game's value `v = P(A wins) - P(B wins)` by value iteration from both ends: a lower
//! iterate from -1 and an upper iterate from +1, A maximising and B minimising over the
//! legal moves of each roll (or a side playing a fixed policy), swept together.
//!
//! The Bellman operator `T` is monotone and the value `v*` is a fixed point of it with
//! `-1 <= v* <= 1`, so `T^k(-1) <= v* <= T^k(+1)` for every `k`, in any sweep order: the
//! bracket is certified at every sweep, whether or not it closes. Where the game is stopping
//! (every play ends with probability 1 under every pair of strategies, which the space's
//! graph decides: no end component, see [`super::classify`]), `T` has a unique fixed point
//! and both iterates converge to it. Where both players together can keep the game going
//! forever, the iterates can settle on other fixed points inside the end components and the
//! bracket may stay open; the solver then reports the width it reached.

use super::policy::{MovePolicy, Pick, decide};
use super::space::{GameSpace, Target, flag};
use super::sweep::{RowUpdate, Store, sweep};
use crate::rules::Player;

/// Lower and upper iterate of the value.
pub type Bracket = Store<2>;

/// Whether the game's value at `index` is exactly 0 (no win is reachable under any play).
#[inline(always)]
pub fn never(space: &GameSpace, index: usize) -> bool {
    space.flag(index) & (flag::WIN_A | flag::WIN_B) == 0
}

/// The value of a target under the bracket: `+1` / `-1` for a win, 0 in the never-ending
/// set, else the stored pair.
#[inline(always)]
pub fn target_value(space: &GameSpace, bracket: &Bracket, t: Target) -> [f64; 2] {
    match t {
        Target::Win(0) => [1.0, 1.0],
        Target::Win(_) => [-1.0, -1.0],
        Target::Next(j) if never(space, j) => [0.0, 0.0],
        Target::Next(j) => bracket.load(j),
    }
}

/// The options' values folded by the mover's rule: max for A, min for B, or the fixed
/// policy's pick (`None` if the policy picked a move that does not exist).
pub fn fold_options(
    space: &GameSpace,
    bracket: &Bracket,
    index: usize,
    k: usize,
    fixed: Option<&dyn MovePolicy>,
) -> Option<Option<[f64; 2]>> {
    let mover: Player = index & 1;
    let mut values: [[f64; 2]; 64] = [[0.0; 2]; 64];
    let n = space.options(index, k, |m, t| values[m] = target_value(space, bracket, t));
    if n == 0 {
        return Some(None);
    }
    let values = &values[..n];
    let folded = match fixed {
        Some(policy) if n > 1 => match decide(space, policy, index, k) {
            Pick::One(m) => *values.get(m)?,
            Pick::Uniform => {
                let w = 1.0 / n as f64;
                values
                    .iter()
                    .fold([0.0, 0.0], |acc, v| [acc[0] + w * v[0], acc[1] + w * v[1]])
            }
        },
        _ => {
            let pick = |a: f64, b: f64| if mover == 0 { a.max(b) } else { a.min(b) };
            values[1..].iter().fold(values[0], |acc, v| {
                [pick(acc[0], v[0]), pick(acc[1], v[1])]
            })
        }
    };
    Some(Some(folded))
}

/// One sweep of both iterates; `fixed[p]` is player `p`'s policy if it does not optimise.
/// Returns the largest change, or `None` if a fixed policy picked a move that does not
/// exist.
pub fn value_sweep(
    space: &GameSpace,
    bracket: &Bracket,
    fixed: [Option<&dyn MovePolicy>; 2],
) -> Option<f64> {
    let bad = std::sync::atomic::AtomicBool::new(false);
    let change = sweep(
        space,
        bracket,
        |_| [0.0, 0.0],
        |index| {
            let f = space.flag(index);
            if f & flag::REACHED == 0 || never(space, index) {
                return None;
            }
            let mut outside = [0.0; 2];
            let mut stay = [0.0; 2];
            for (k, &(face, p)) in space.faces(index).iter().enumerate() {
                match fold_options(space, bracket, index, k, fixed[index & 1]) {
                    Some(Some(v)) => {
                        outside[0] += p * v[0];
                        outside[1] += p * v[1];
                    }
                    Some(None) => stay[space.no_move_target(index, face) & 1] += p,
                    None => bad.store(true, std::sync::atomic::Ordering::Relaxed),
                }
            }
            Some(RowUpdate { outside, stay })
        },
    );
    (!bad.into_inner()).then_some(change)
}
