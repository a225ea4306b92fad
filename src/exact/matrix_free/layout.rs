//! Where the matrix-free solver keeps things: the order of each player's configurations,
//! the classes of equal goal counts that form the blocks, and the flag bits of a cell.
//!
//! Each player's reachable configurations ([`crate::exact::reachable::player_configs`])
//! are ordered by pieces in the goal (most first), then most advanced first. The values
//! live in one flat vector, one half per side to move, each half over the product
//! `b × a × component`, `a` (player A's configuration) innermost, with `V` = P(A wins) and
//! `W` = P(B wins); `Z`, the probability of falling into the never-ending set, next to them
//! or only for the states that can reach it, in a compact array
//! ([`super::storage::Values`]).
//!
//! The halves by side, rather than the two sides of a pair side by side: a move of B mostly
//! hands the turn to A (side 0), a move of A to B (side 1), so the rows a sweep reads from
//! other rows carry only the side it needs, half the bytes. On 20/10/4/4 with 1..6 against
//! 1..6 the whole solve took 0.92 times as long as with the sides side by side (the figures
//! are in `docs/src/performance.md`).

use crate::exact::encode::ConfigIndex;
use crate::rules::Board;
use std::ops::Range;

/// Bits of a side's flags (see [`super::game::Game`]'s [`crate::exact::search::Successors`]
/// implementation: the cell's byte holds them shifted by the side): the state can reach a
/// win.
pub const CAN_WIN: u8 = 1;
/// The state is reachable from an opening.
pub const REACHED: u8 = 4;
/// The state's successors have been marked reachable too.
pub const SPREAD: u8 = 16;
/// The state can reach the never-ending set (or is in it): only such a state keeps `Z`
/// ([`super::storage::Values`]).
pub const CAN_NEVER: u8 = 64;
/// The bits of side 0 in a cell's byte; side 1's are these shifted by one.
pub const SIDE_BITS: u8 = CAN_WIN | REACHED | SPREAD | CAN_NEVER;

/// Configurations with the same number of pieces in the goal: an index range, since
/// [`by_goal_count`] orders them so.
#[derive(Clone, Debug)]
pub struct GoalClass {
    /// Pieces in the goal.
    pub goals: u32,
    /// The configurations' indices.
    pub range: Range<usize>,
}

/// `configs` (most advanced first) reordered by pieces in the goal, most first, keeping the
/// order within each count, and the classes in index order. The order stays "most advanced
/// first" as the sweep needs it: a move raises the progress and never lowers the goal
/// count, a capture lowers the progress and keeps the goal count.
pub fn by_goal_count(board: &Board, configs: ConfigIndex) -> (ConfigIndex, Vec<GoalClass>) {
    let goal = board.goal_mask();
    let goals = |m: u64| (m & goal).count_ones();
    let mut masks = configs.masks().to_vec();
    drop(configs);
    // Stable: ties keep the order of `player_configs`.
    masks.sort_by_key(|&m| std::cmp::Reverse(goals(m)));
    let mut classes: Vec<GoalClass> = Vec::new();
    for (i, &m) in masks.iter().enumerate() {
        match classes.last_mut() {
            Some(c) if c.goals == goals(m) => c.range.end = i + 1,
            _ => classes.push(GoalClass {
                goals: goals(m),
                range: i..i + 1,
            }),
        }
    }
    let index = ConfigIndex::new(masks, board.fields(), board.pieces())
        .expect("a reordering of valid configurations");
    (index, classes)
}
