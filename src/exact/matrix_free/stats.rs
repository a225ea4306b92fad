//! The sparse solver's counts on the matrix-free game: the states reachable from the
//! openings (exactly the sparse solver's states, every tries level under `three-tries`
//! included, though only level 0 is stored), their never-ending states, transitions
//! and self-loops as [`crate::exact::sparse::transitions::Chain`] counts them: per state its
//! distinct successors other than itself plus one if a face wins; a self-loop when some
//! but not all of its faces lead back to it. Never-ending states count too, as there. A
//! test checks them equal.

use super::game::{Game, Target};
use super::layout::{CAN_WIN, REACHED};
use rayon::prelude::*;

/// What [`count_states`] counts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StateCounts {
    /// Pairs of configurations with at least one reachable side.
    pub cells: u64,
    /// Reachable states (pair and side).
    pub states: u64,
    /// Reachable states that cannot reach a win.
    pub never: u64,
    /// Distinct successors (a win counts as one).
    pub transitions: u64,
    /// States with a self-loop that is eliminated.
    pub self_loops: u64,
}

impl StateCounts {
    fn merge(self, y: StateCounts) -> StateCounts {
        StateCounts {
            cells: self.cells + y.cells,
            states: self.states + y.states,
            never: self.never + y.never,
            transitions: self.transitions + y.transitions,
            self_loops: self.self_loops + y.self_loops,
        }
    }
}

/// Counts the reachable states of `game` (after the reachability and "can reach a win"
/// searches).
pub(crate) fn count_states(game: &Game) -> StateCounts {
    (0..game.nb)
        .into_par_iter()
        .filter(|&b| !game.won_b(b))
        .map_init(Vec::new, |targets, b| {
            let row = game.row(b);
            let mut counts = StateCounts::default();
            for a in (0..game.na).filter(|&a| game.live(a, game.occ_b(b))) {
                let cell = game.cell(a, b);
                let sides = [game.side_flags(cell, 0), game.side_flags(cell, 1)];
                counts.cells += u64::from(sides.iter().any(|f| f & REACHED != 0));
                for (side, f) in sides.into_iter().enumerate() {
                    if f & REACHED == 0 {
                        continue;
                    }
                    // Every tries level of a reached state is reached, and never-ending
                    // exactly when level 0 is (see `super::tries`).
                    for tries in 0..game.levels(a, b, side) {
                        counts.states += 1;
                        counts.never += u64::from(f & CAN_WIN == 0);
                        let (t, l) = count_side(game, &row, a, (cell, side, tries), targets);
                        counts.transitions += t;
                        counts.self_loops += l;
                    }
                }
            }
            counts
        })
        .reduce(StateCounts::default, StateCounts::merge)
}

/// Counts of one state's row, `me` the state itself; returns (transitions, 1 if a
/// self-loop is eliminated).
fn count_side(
    game: &Game,
    row: &super::game::Row,
    a: usize,
    me: Target,
    targets: &mut Vec<Target>,
) -> (u64, u64) {
    targets.clear();
    let (mut wins, mut loops) = (false, false);
    game.for_each_move(row, a, (me.1, me.2), |_, m| match m {
        None => wins = true,
        Some(next) if next == me => loops = true,
        Some(next) => targets.push(next),
    });
    // Faces leading to the same state are one transition. Dice have few distinct faces:
    // comparing with the earlier ones is cheaper than sorting.
    let distinct = if targets.len() <= 16 {
        (0..targets.len())
            .filter(|&i| !targets[..i].contains(&targets[i]))
            .count()
    } else {
        targets.sort_unstable();
        targets.dedup();
        targets.len()
    };
    // Every face leads back: the sparse solver leaves such a row empty, no loop counted.
    let stuck = !wins && distinct == 0;
    (
        distinct as u64 + u64::from(wins),
        u64::from(loops && !stuck),
    )
}

/// The states (pair and side) whose flags have all bits of `bits`.
pub(crate) fn count_flag(game: &Game, bits: u8) -> u64 {
    (0..game.na * game.nb)
        .into_par_iter()
        .map(|cell| {
            (0..2)
                .filter(|&side| game.side_flags(cell, side) & bits == bits)
                .count() as u64
        })
        .sum()
}
