//! Which states matter: the states reached when every move may be taken, which wins each
//! can reach under some play, and the end components (steps 2 and 3 of the pipeline in
//! [`super`]).

use super::space::{GameSpace, Target, flag};
use super::value::never;
use crate::exact::search::{self, Successors};

/// Marks on `space` the reached states, what they can reach under some play, and the end
/// components ([`flag::STAY`]); returns the number of end-component states.
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
    space.count(flag::STAY)
}
