//! How a policy table plays, told in the situations a player recognises at the table: a
//! capture is on offer, a piece can go home into the goal, a move would leave pieces where
//! the opponent's next roll can hit them. Each is counted over the decisions where it
//! actually divides the legal moves (some moves capture and some do not, say), so the shares
//! read as "when it has the choice, it captures in x % of the cases".

use super::policy::PolicyTable;
use super::space::GameSpace;
use super::space::flag;
use super::value::never;
use crate::dice::Die;
use crate::strategy::Threats;
pub use crate::strategy::style::{Style, Tally};

/// The [`Style`] of `table` on `space`, whose players roll `dice` (the danger of a move is
/// measured on the opponent's die, as the `safe` heuristic measures it). `mirrored`: the
/// table is its own mirror image ([`super::GameSolution::mirrored`]), so B's decisions are
/// A's seen from the other side: only A's are visited, and every count is doubled.
pub fn style_of(space: &GameSpace, table: &PolicyTable, dice: [&Die; 2], mirrored: bool) -> Style {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 16;
    let threats = [Threats::of_die(dice[1]), Threats::of_die(dice[0])];
    let rules = &space.rules;
    let states = space.len();
    let style = (0..states.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut style = Style::default();
            for i in chunk * CHUNK..((chunk + 1) * CHUNK).min(states) {
                if (mirrored && i & 1 == 1) || space.flag(i) & flag::REACHED == 0 || never(space, i)
                {
                    continue;
                }
                let position = space.position(i);
                let mover = position.mover();
                let (own, other) = (position.pieces[mover], position.pieces[1 - mover]);
                for (k, &(face, _)) in space.faces(i).iter().enumerate() {
                    let legal = rules.legal_moves(own, other, mover, face);
                    style.record(
                        rules,
                        &threats[mover],
                        own,
                        other,
                        mover,
                        face,
                        &legal,
                        || table.get(i, k),
                    );
                }
            }
            style
        })
        .reduce(Style::default, Style::merge);
    if mirrored { style.merge(style) } else { style }
}
