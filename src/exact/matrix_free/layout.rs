//! Where the matrix-free solver keeps things: the order of each player's configurations,
//! the classes of equal goal counts that form the blocks, and the flag bits of a cell.
//!
//! Each player's reachable configurations ([`crate::exact::shared::reachable::player_configs`])
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

use crate::exact::shared::encode::ConfigIndex;
use crate::rules::Board;
use std::ops::Range;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// Bits of a side's flags (see [`super::game::Game`]'s [`crate::exact::shared::search::Successors`]
/// implementation: the cell's byte holds them shifted by the side): the state can reach a
/// win.
pub(crate) const CAN_WIN: u8 = 1;
/// The state is reachable from an opening.
pub(crate) const REACHED: u8 = 4;
/// The state's successors have been marked reachable too.
pub(crate) const SPREAD: u8 = 16;
/// The state can reach the never-ending set (or is in it): only such a state keeps `Z`
/// ([`super::storage::Values`]).
pub(crate) const CAN_NEVER: u8 = 64;
/// The bits of side 0 in a cell's byte; side 1's are these shifted by one.
pub(crate) const SIDE_BITS: u8 = CAN_WIN | REACHED | SPREAD | CAN_NEVER;

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
pub(crate) fn by_goal_count(board: &Board, configs: ConfigIndex) -> (ConfigIndex, Vec<GoalClass>) {
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

/// The two bits of a pair of configurations that the sweeps of one value at a time read:
/// whether each side is reachable ([`REACHED`]), 32 pairs to a word: a quarter of the flag
/// bytes, which the searches need and the sweeps then do not.
pub(crate) struct ReachedBits(Vec<u64>);

impl ReachedBits {
    /// Packs the [`REACHED`] bits of both sides of every cell's flag byte.
    pub(crate) fn pack(flags: &[AtomicU8]) -> ReachedBits {
        use rayon::prelude::*;
        let words = flags
            .par_chunks(32)
            .map(|chunk| {
                chunk.iter().enumerate().fold(0u64, |word, (i, f)| {
                    let f = f.load(Relaxed);
                    let side = |s: u32| u64::from((f >> s) & REACHED != 0);
                    word | (side(0) | side(1) << 1) << (2 * i)
                })
            })
            .collect();
        ReachedBits(words)
    }

    /// Bytes of the bits of `cells` pairs.
    pub(crate) fn bytes(cells: u64) -> u64 {
        cells.div_ceil(32).saturating_mul(8)
    }

    /// Whether side 0 and side 1 of `cell` are reachable.
    #[inline(always)]
    pub(crate) fn sides(&self, cell: usize) -> [bool; 2] {
        let bits = self.0[cell / 32] >> (2 * (cell % 32));
        [bits & 1 != 0, bits & 2 != 0]
    }
}

/// A block of the block pass: (class of B's rows, class of A's columns), as indices into
/// the classes.
pub(crate) type Block = (usize, usize);

/// For each block in the order the block pass sweeps them (B's classes outer, A's inner,
/// most goal pieces first), the blocks whose values may be released once it is done: a
/// block is read only by itself and by the blocks with one goal piece fewer of one player
/// (a move brings at most one piece into the goal; a capture never takes one out), so
/// once those are done no later block reads it. The openings' block (no goal pieces, swept
/// last), whose values are read at the end, is never released.
pub(crate) fn release_schedule(
    classes_a: &[GoalClass],
    classes_b: &[GoalClass],
) -> Vec<Vec<Block>> {
    let none = |classes: &[GoalClass]| classes.iter().position(|k| k.goals == 0);
    let keep = (none(classes_b), none(classes_a));
    let order: Vec<Block> = (0..classes_b.len())
        .flat_map(|r| (0..classes_a.len()).map(move |c| (r, c)))
        .collect();
    let position = |b: Block| b.0 * classes_a.len() + b.1;
    // The blocks that read block `(r, c)` besides itself.
    let readers = |(r, c): Block| -> Vec<Block> {
        let fewer_b = classes_b
            .iter()
            .position(|k| k.goals + 1 == classes_b[r].goals);
        let fewer_a = classes_a
            .iter()
            .position(|k| k.goals + 1 == classes_a[c].goals);
        fewer_b
            .map(|r2| (r2, c))
            .into_iter()
            .chain(fewer_a.map(|c2| (r, c2)))
            .collect()
    };
    let mut released = vec![false; order.len()];
    order
        .iter()
        .enumerate()
        .map(|(done, _)| {
            let mut now = Vec::new();
            for &block in &order[..=done] {
                let i = position(block);
                let kept = keep == (Some(block.0), Some(block.1));
                if !released[i] && !kept && readers(block).iter().all(|&r| position(r) <= done) {
                    released[i] = true;
                    now.push(block);
                }
            }
            now
        })
        .collect()
}

/// The most pairs of configurations whose values are held at once under
/// [`release_schedule`]: while a block is swept, it and every block done but not yet
/// released.
pub(crate) fn releasing_peak_cells(classes_a: &[GoalClass], classes_b: &[GoalClass]) -> u64 {
    // Planned before anything is allocated: saturating, so a product too large for any
    // machine reads as the largest count and is refused by the memory check.
    let cells = |(r, c): Block| {
        (classes_b[r].range.len() as u64).saturating_mul(classes_a[c].range.len() as u64)
    };
    let schedule = release_schedule(classes_a, classes_b);
    let mut held = 0u64;
    let mut peak = 0u64;
    for (k, released) in schedule.iter().enumerate() {
        held = held.saturating_add(cells((k / classes_a.len(), k % classes_a.len())));
        peak = peak.max(held);
        // A block is released once, after it was added: never more than is held.
        let freed = released
            .iter()
            .fold(0u64, |sum, &b| sum.saturating_add(cells(b)));
        held = held.saturating_sub(freed);
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::{GoalClass, release_schedule, releasing_peak_cells};

    /// Classes of 2, 1 and 0 goal pieces of the given sizes, in index order.
    fn classes(sizes: [usize; 3]) -> Vec<GoalClass> {
        let mut start = 0;
        (0..3)
            .map(|i| {
                let range = start..start + sizes[i];
                start = range.end;
                GoalClass {
                    goals: 2 - i as u32,
                    range,
                }
            })
            .collect()
    }

    /// Worked by hand: a block goes once both blocks with one goal piece fewer (one row
    /// down, one column right) are done; the no-goal block stays.
    #[test]
    fn a_block_is_released_once_both_its_readers_are_done() {
        let (a, b) = (classes([1, 2, 4]), classes([1, 3, 5]));
        let expected: Vec<Vec<(usize, usize)>> = vec![
            vec![],
            vec![],
            vec![],
            vec![(0, 0)],
            vec![(0, 1)],
            vec![(0, 2)],
            vec![(1, 0)],
            vec![(1, 1), (2, 0)],
            vec![(1, 2), (2, 1)],
        ];
        assert_eq!(release_schedule(&a, &b), expected);
        // Held at the last block: it (5 × 4), its left neighbour (5 × 2) and the block
        // above it (3 × 4), 20 + 10 + 12 = 42 of the 63 cells.
        assert_eq!(releasing_peak_cells(&a, &b), 42);
    }
}
