//! The Markov chain of a matchup as a sparse matrix.
//!
//! Rows and columns are the reachable joint states of [`crate::exact::shared::reachable::joint_states`],
//! numbered by their rank in increasing joint index (which is the Gauss-Seidel order, see
//! [`crate::exact::shared::encode::JointCoder`]). For every state and every distinct face of the mover's
//! die the successor comes from [`Rules::play_roll`]; faces leading to the same successor
//! are merged, a successor in which a player has won goes into that player's absorption
//! probability instead of the matrix.
//!
//! # Self-loops
//! A 6 keeps the same player to move, so a 6 that moves nothing leads back to the very same
//! state. With self-loop probability `s < 1` the state's equation
//! `x = s x + sum_{j != i} q_j x_j + r` is solved for `x` exactly:
//! `x = (sum_{j != i} q_j x_j + r) / (1 - s)`. The matrix stores the rescaled row, so the
//! iteration never sees the loop. Probabilities are kept as face counts until this point,
//! so each entry is one division `count / (faces - self_count)`. A state whose every face
//! loops (`s = 1`, e.g. a die of only 6s that cannot move) gets an empty row: it never
//! leaves and can reach no win, so the classification puts it into the never-ending set.

use crate::dice::Die;
use crate::exact::shared::encode::StateEncoder;
use crate::exact::shared::reachable::StateSet;
use crate::rules::{GameState, Rules};
use rayon::prelude::*;
use sprs::CsMatI;

/// Row-major sparse matrix of transient-to-transient probabilities: `f64` values, `u32`
/// column indices, `usize` row pointers.
pub(crate) type TransitionMatrix = CsMatI<f64, u32, usize>;

/// The chain restricted to the reachable transient states, self-loops eliminated.
#[derive(Clone, Debug)]
pub struct Chain {
    /// Transient-to-transient probabilities (row `i`, column `j`: from `i` to `j`).
    pub matrix: TransitionMatrix,
    /// Per row: probability that the next step ends the game with a win of A, of B.
    pub absorb: Vec<[f64; 2]>,
    /// Rows of the two opening positions: A to move, B to move.
    pub openings: [u32; 2],
    /// Rows whose every face leads back to the row itself (self-loop probability 1).
    pub stuck: u64,
    /// Number of rows that had a self-loop eliminated.
    pub self_loops: u64,
    /// Bit `i` set: row `i` holds other configurations than row `i - 1`, i.e. starts a
    /// group. A group is the run of rows with the same pieces of both players, differing
    /// only in the side to move and the tries counter (at most `2 * tries_levels` rows);
    /// the sweep solves each group exactly.
    pub group_starts: Vec<u64>,
}

impl Chain {
    /// Number of transient states.
    pub fn states(&self) -> usize {
        self.absorb.len()
    }

    /// Stored transitions: matrix entries plus non-zero absorption probabilities.
    pub fn transitions(&self) -> u64 {
        let absorbing: u64 = self
            .absorb
            .iter()
            .map(|r| u64::from(r[0] > 0.0) + u64::from(r[1] > 0.0))
            .sum();
        self.matrix.nnz() as u64 + absorbing
    }

    /// Whether row `i` starts a group (see [`Chain::group_starts`]); true for `i = states()`.
    #[inline(always)]
    pub fn starts_group(&self, i: usize) -> bool {
        i >= self.states() || self.group_starts[i / 64] >> (i % 64) & 1 != 0
    }

    /// The entries of row `i`: column indices and probabilities.
    #[inline(always)]
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let ptr = self.matrix.indptr();
        let ptr = ptr.raw_storage();
        let range = ptr[i]..ptr[i + 1];
        (
            &self.matrix.indices()[range.clone()],
            &self.matrix.data()[range],
        )
    }
}

/// One row before it goes into the matrix.
#[derive(Default)]
struct RowBuilder {
    /// (column, face count), sorted and merged at the end.
    entries: Vec<(u32, u64)>,
    absorb: [u64; 2],
    self_count: u64,
}

/// Rows built by one parallel task.
#[derive(Default)]
struct Piece {
    lengths: Vec<u32>,
    indices: Vec<u32>,
    data: Vec<f64>,
    absorb: Vec<[f64; 2]>,
    stuck: u64,
    self_loops: u64,
}

/// Words of the state bit map handled by one task; batches of tasks bound the memory that
/// finished pieces hold before they are appended to the matrix.
const WORDS_PER_TASK: usize = 256;
const TASKS_PER_BATCH: usize = 32;

/// Builds the chain over `states` (a set over `encoder`'s joint index closed under
/// [`Rules::play_roll`], e.g. from [`crate::exact::shared::reachable::joint_states`]), in parallel.
///
/// Panics if a successor is not in `states` or there are `u32::MAX` states or more.
pub(crate) fn build_chain(
    rules: &Rules,
    dice: [&Die; 2],
    encoder: &StateEncoder,
    states: &StateSet,
) -> Chain {
    assert!(
        states.len() < u64::from(u32::MAX),
        "too many states for u32 rows"
    );
    let counts = [dice[0].face_counts(), dice[1].face_counts()];
    let totals = [dice[0].faces().len() as u64, dice[1].faces().len() as u64];
    let n = states.len() as usize;
    let mut indptr: Vec<usize> = Vec::with_capacity(n + 1);
    indptr.push(0);
    // At most one entry per distinct successor of a roll (faces that move nothing share
    // one). Reserving the bound up front costs address space only (pages are touched as
    // they fill) and spares the copies of a growing vector; the memory estimate counts it.
    let outcomes = crate::exact::shared::memory::max_outcomes(rules, dice[0], dice[1]);
    let max_entries = n.saturating_mul(usize::try_from(outcomes).unwrap_or(usize::MAX));
    let mut indices: Vec<u32> = Vec::with_capacity(max_entries);
    let mut data: Vec<f64> = Vec::with_capacity(max_entries);
    let mut absorb: Vec<[f64; 2]> = Vec::with_capacity(n);
    let (mut stuck, mut self_loops) = (0, 0);
    let words = states.word_count();
    let tasks = words.div_ceil(WORDS_PER_TASK);
    for batch in (0..tasks).step_by(TASKS_PER_BATCH) {
        // A caller that gave up stops the build here, between batches.
        crate::fixpoint::checkpoint();
        let pieces: Vec<Piece> = (batch..(batch + TASKS_PER_BATCH).min(tasks))
            .into_par_iter()
            .map(|task| {
                let range = task * WORDS_PER_TASK..((task + 1) * WORDS_PER_TASK).min(words);
                let mut piece = Piece::default();
                let mut row = RowBuilder::default();
                let first = states.rank_of_word(range.start) as u32;
                for (me, index) in (first..).zip(states.iter_words(range)) {
                    let state = encoder.decode(index);
                    build_row(rules, &counts, encoder, states, &state, me, &mut row);
                    let mover = state.mover();
                    finish_row(&mut row, totals[mover], &mut piece);
                }
                piece
            })
            .collect();
        for piece in pieces {
            for len in piece.lengths {
                indptr.push(indptr.last().unwrap() + len as usize);
            }
            indices.extend_from_slice(&piece.indices);
            data.extend_from_slice(&piece.data);
            absorb.extend_from_slice(&piece.absorb);
            stuck += piece.stuck;
            self_loops += piece.self_loops;
        }
    }
    indices.shrink_to_fit();
    data.shrink_to_fit();
    let matrix = TransitionMatrix::try_new((n, n), indptr, indices, data)
        .map_err(|(_, _, _, e)| e)
        .expect("rows are sorted and in range");
    let opening = |first| {
        let i = encoder
            .encode(&GameState::start(first))
            .expect("opening encodes");
        states.rank(i).expect("openings are reachable") as u32
    };
    Chain {
        matrix,
        absorb,
        openings: [opening(0), opening(1)],
        stuck,
        self_loops,
        group_starts: find_groups(encoder, states),
    }
}

/// The first row of each group of rows that differ only in the side to move and the tries
/// counter (see [`Chain::group_starts`]).
fn find_groups(encoder: &StateEncoder, states: &StateSet) -> Vec<u64> {
    let n = states.len() as usize;
    let mut starts = vec![0u64; n.div_ceil(64)];
    // Side and tries are the lowest digits of the joint index.
    let per_group = 2 * u64::from(encoder.coder.tries_levels());
    let mut previous: Option<u64> = None;
    for (row, index) in states.iter().enumerate() {
        let group = index / per_group;
        if previous != Some(group) {
            starts[row / 64] |= 1 << (row % 64);
        }
        previous = Some(group);
    }
    starts
}

/// Fills `row` with the successors of `state` (row number `me`), merged by column.
#[inline(always)]
fn build_row(
    rules: &Rules,
    counts: &[Vec<(u32, u32)>; 2],
    encoder: &StateEncoder,
    states: &StateSet,
    state: &GameState,
    me: u32,
    row: &mut RowBuilder,
) {
    row.entries.clear();
    row.absorb = [0, 0];
    row.self_count = 0;
    for &(face, count) in &counts[state.mover()] {
        let mut next = *state;
        let outcome = rules.play_roll(&mut next, face);
        let count = u64::from(count);
        if let Some(winner) = outcome.winner {
            row.absorb[winner] += count;
            continue;
        }
        let j = encoder
            .encode(&next)
            .and_then(|i| states.rank(i))
            .expect("the state set is closed under play_roll") as u32;
        if j == me {
            row.self_count += count;
        } else {
            row.entries.push((j, count));
        }
    }
}

/// Sorts and merges `row`, eliminates its self-loop and appends it to `piece`.
#[inline(always)]
fn finish_row(row: &mut RowBuilder, total: u64, piece: &mut Piece) {
    let rest = total - row.self_count;
    if rest == 0 {
        piece.stuck += 1;
        piece.lengths.push(0);
        piece.absorb.push([0.0, 0.0]);
        return;
    }
    if row.self_count > 0 {
        piece.self_loops += 1;
    }
    let scale = rest as f64;
    row.entries.sort_unstable_by_key(|e| e.0);
    let mut len = 0u32;
    let mut k = 0;
    while k < row.entries.len() {
        let col = row.entries[k].0;
        let mut c = 0;
        while k < row.entries.len() && row.entries[k].0 == col {
            c += row.entries[k].1;
            k += 1;
        }
        piece.indices.push(col);
        piece.data.push(c as f64 / scale);
        len += 1;
    }
    piece.lengths.push(len);
    piece
        .absorb
        .push([row.absorb[0] as f64 / scale, row.absorb[1] as f64 / scale]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::shared::reachable::{joint_states, player_configs};
    use crate::rules::{Board, Profile};

    fn chain(board: &str, a: &str, b: &str) -> Chain {
        let rules = Rules::new(board.parse::<Board>().unwrap(), Profile::BWINF);
        let (a, b): (Die, Die) = (a.parse().unwrap(), b.parse().unwrap());
        let enc =
            StateEncoder::new(player_configs(&rules, &a), player_configs(&rules, &b), 1).unwrap();
        let set = joint_states(&rules, [&a, &b], &enc);
        build_chain(&rules, [&a, &b], &enc, &set)
    }

    #[test]
    fn rows_are_stochastic() {
        let c = chain("10/5/2/2", "1..6", "1,1,6,6,6,6");
        assert!(c.self_loops > 0);
        for i in 0..c.states() {
            let (cols, p) = c.row(i);
            let sum: f64 = p.iter().sum::<f64>() + c.absorb[i][0] + c.absorb[i][1];
            assert!((sum - 1.0).abs() < 1e-14, "row {i} sums to {sum}");
            assert!(
                cols.iter().all(|&j| j as usize != i),
                "self-loop left in row {i}"
            );
            assert!(cols.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn a_die_of_sixes_that_cannot_move_is_stuck() {
        // Board 8/4/2/2: with only 6s, A's pieces end on 0 and 6 and can never move again.
        let c = chain("8/4/2/2", "6", "1..6");
        assert!(c.stuck > 0);
    }
}
