//! Which states matter: the states reached when every move may be taken, which wins each
//! can reach under some play, and the end components (steps 2 and 3 of the pipeline in
//! [`super`]).

use super::space::{GameSpace, Target, flag};
use super::value::never;
use crate::exact::shared::search::{self, Successors};

/// Marks on `space` the reached states, what they can reach under some play, the end
/// components ([`flag::STAY`]) and, where every play ends with a win, the states that only
/// one side can win ([`flag::SETTLED`]); returns the number of end-component states.
pub fn classify(space: &GameSpace) -> u64 {
    let openings = space.openings();
    search::reach(space, &openings, flag::REACHED, flag::SPREAD);
    search::can_reach(
        space,
        flag::WIN_A | flag::WIN_B,
        [flag::WIN_A, flag::WIN_B],
        flag::REACHED,
    );
    // The greatest fixed point of "for every face some move (or no move) stays in the set",
    // from the reached states that can reach a win: states are only ever removed.
    space.pass(false, |_, i| {
        if space.flag(i) & flag::REACHED != 0 && !never(space, i) {
            space.add_flags(i, flag::STAY);
        }
        false
    });
    let stays = |t: Target| match t {
        Target::Win(_) => false,
        Target::Next(j) => space.flag(j) & flag::STAY != 0,
    };
    while space.pass(false, |_, i| {
        if space.flag(i) & flag::STAY == 0 {
            return false;
        }
        let leaves = space.faces(i).iter().enumerate().any(|(k, &(face, _))| {
            let mut any = false;
            let n = space.options(i, k, |_, t| any |= stays(t));
            if n == 0 {
                any = stays(Target::Next(space.no_move_target(i, face)));
            }
            !any
        });
        if leaves {
            space.remove_flags(i, flag::STAY);
        }
        leaves
    }) {}
    let end_component_states = space.count(flag::STAY);
    settle(space, end_component_states);
    end_component_states
}

/// Marks [`flag::SETTLED`] the reached states that only one side can win, where every play
/// of the game ends with a win (no end component, no reached state from which no win is
/// reachable): there that side wins with probability 1, whatever is played. Held at exactly
/// +1 or -1, such a state's value never carries the rounding of the sweeps' sums (with
/// probabilities such as 1/6 a sum of `-1` over every face rounds to `-1 + 1e-16`, and
/// Gauss-Seidel sweeps compound it): a side that cannot win gets P(win) = 0 exactly.
fn settle(space: &GameSpace, end_component_states: u64) {
    let reached = |i: usize| space.flag(i) & flag::REACHED != 0;
    let never_reached = space.pass(false, |_, i| reached(i) && never(space, i));
    if end_component_states > 0 || never_reached {
        return;
    }
    space.pass(false, |_, i| {
        let wins = space.flag(i) & (flag::WIN_A | flag::WIN_B);
        if reached(i) && (wins == flag::WIN_A || wins == flag::WIN_B) {
            space.add_flags(i, flag::SETTLED);
        }
        false
    });
}
