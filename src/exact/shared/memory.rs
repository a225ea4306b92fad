//! The memory guard: what a solve will need, against what the machine has
//! ([`crate::sizes`]).
//!
//! # The estimate
//! With `P` joint indices in the product of both players' reachable configurations, `n`
//! reachable transient states and `m` stored transitions, the solver holds at its peak
//! (while iterating, after the matrix is built and classified):
//!
//! | what | bytes |
//! |---|---|
//! | state set: bit map and rank directory over the product | `P / 4` |
//! | matrix: row pointers, column indices, probabilities | `8 n + 12 m` |
//! | absorption probabilities | `16 n` |
//! | values `V, W, Z` and class flags | `25 n` |
//! | group starts, a bit per row | `n / 8` |
//!
//! plus the per-player lookup tables and a bounded build buffer. The search for the
//! reachable states needs `3 P / 8` bytes before any of this exists, and the classification
//! searches the matrix itself (no reverse graph). `m` is bounded by `n` times the number of
//! distinct faces of the larger die (faces leading to the same state are merged, wins are
//! not stored), so the estimate is an upper bound up to allocator overhead; measured peaks
//! are 0.7 to 0.9 of it (the book's performance chapter), the gap being mostly merged
//! faces. Before the search `n` is bounded by [`state_bound`] (pairs of configurations
//! that share no track field); after it, `n` is known exactly and the solver checks again.

use super::encode::ConfigIndex;
use super::reachable::player_configs;
use crate::dice::Die;
use crate::rules::Rules;
use rayon::prelude::*;

/// Bytes per transient state at the peak (see the module documentation).
pub const BYTES_PER_STATE: u64 = 8 + 16 + 25;
/// Bytes per stored transition at the peak.
pub const BYTES_PER_TRANSITION: u64 = 12;
/// The fixed part: lookup tables, build buffers, slack.
pub const FIXED_BYTES: u64 = 64 << 20;

/// What a matchup's exact solve needs, before anything large is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemoryEstimate {
    /// Reachable configurations of player A and of player B.
    pub configs: [u64; 2],
    /// Joint indices: product of both configuration counts, two sides, tries levels.
    pub product: u64,
    /// Upper bound on the transient states (the product until the search has run).
    pub states: u64,
    /// Upper bound on the stored transitions.
    pub transitions: u64,
    /// Estimated peak bytes.
    pub bytes: u64,
}

impl MemoryEstimate {
    /// The estimate for `states` transient states in a product of `product` indices, with at
    /// most `max_faces` distinct faces per roll.
    pub fn new(configs: [u64; 2], product: u64, states: u64, max_faces: u64) -> MemoryEstimate {
        let transitions = states.saturating_mul(max_faces);
        let bytes = (product / 4)
            .max(product.div_ceil(8).saturating_mul(3))
            .saturating_add(states.saturating_mul(BYTES_PER_STATE))
            .saturating_add(states.div_ceil(8)) // the group starts
            .saturating_add(transitions.saturating_mul(BYTES_PER_TRANSITION))
            .saturating_add(FIXED_BYTES);
        MemoryEstimate {
            configs,
            product,
            states,
            transitions,
            bytes,
        }
    }
}

/// Bytes per configuration while a player's configurations are enumerated and tabulated:
/// the hash set entry and search stack, the sorted index, the lookup of a configuration.
pub const ENUMERATION_BYTES_PER_CONFIG: u64 = 64;
/// Bytes per tabulated move (configuration, face and piece): a move entry of the largest
/// per-player table (the game with choices keeps one per legal move).
pub const TABLE_BYTES_PER_MOVE: u64 = 16;

/// The most configurations a player can have on `board`, known before any enumeration:
/// `sum_{k <= pieces} C(fields, k)`, the ways to put up to all pieces on the track and goal
/// fields (the rest wait off the board). Saturates at `u64::MAX`.
pub fn configuration_bound(board: &crate::rules::Board) -> u64 {
    let fields = u64::from(board.fields());
    let mut term = 1u64; // C(fields, 0)
    let mut sum = 1u64;
    for k in 1..=u64::from(board.pieces()).min(fields) {
        // C(n, k) = C(n, k - 1) (n - k + 1) / k, exact in u128 before the division.
        let next = u128::from(term) * u128::from(fields - k + 1) / u128::from(k);
        term = u64::try_from(next).unwrap_or(u64::MAX);
        sum = sum.saturating_add(term);
        if term == u64::MAX {
            break;
        }
    }
    sum
}

/// Distinct faces of `die` that can move a piece on `board`, plus one for all the others
/// (0, and faces longer than the whole way home): faces that move no piece all lead to the
/// same next state, so this bounds the distinct successors of a roll.
pub fn effective_faces(board: &crate::rules::Board, die: &Die) -> u64 {
    let reach = board.fields();
    let counts = die.face_counts();
    let movable = counts
        .iter()
        .filter(|&&(f, _)| (1..=reach).contains(&f))
        .count() as u64;
    movable + u64::from(movable < counts.len() as u64)
}

/// An upper bound on the bytes the per-player tables take before the joint space exists:
/// [`configuration_bound`] configurations per die, each with its enumeration cost, a
/// capture entry per track field, an offset per distinct face and a move per movable face
/// and piece.
pub fn enumeration_bytes(rules: &Rules, dice: &[&Die]) -> u64 {
    let board = rules.board();
    let configs = configuration_bound(board);
    dice.iter()
        .map(|die| {
            let per_config = ENUMERATION_BYTES_PER_CONFIG
                .saturating_add(4 * u64::from(board.track_len()))
                .saturating_add(4 * die.face_counts().len() as u64)
                .saturating_add(
                    effective_faces(board, die)
                        .saturating_mul(u64::from(board.pieces()))
                        .saturating_mul(TABLE_BYTES_PER_MOVE),
                );
            configs.saturating_mul(per_config)
        })
        .fold(0u64, u64::saturating_add)
}

/// Refuses, before any configuration is enumerated, a board whose per-player tables
/// alone could exceed `limit` ([`enumeration_bytes`]): every exact solver starts with
/// them, so no solver grows past the limit before it can count its states.
pub fn check_enumeration(
    rules: &Rules,
    dice: &[&Die],
    limit: Option<u64>,
) -> Result<(), super::error::ExactError> {
    let Some(limit) = limit else {
        return Ok(());
    };
    let bytes = enumeration_bytes(rules, dice);
    if bytes <= limit {
        return Ok(());
    }
    let configs = configuration_bound(rules.board());
    Err(super::error::ExactError::Memory {
        states: configs.saturating_mul(configs).saturating_mul(2),
        exact_count: false,
        configs: [configs; 2],
        bytes,
        limit,
    })
}

/// Distinct faces of the die with more of them.
pub fn max_distinct_faces(a: &Die, b: &Die) -> u64 {
    a.face_counts().len().max(b.face_counts().len()) as u64
}

/// The most distinct successors of one roll of either die: [`effective_faces`] of the die
/// with more of them (a row of the sparse matrix has at most this many entries).
pub fn max_outcomes(rules: &Rules, a: &Die, b: &Die) -> u64 {
    let board = rules.board();
    effective_faces(board, a).max(effective_faces(board, b))
}

/// Bytes of the per-player move tables the matrix-free solver builds
/// ([`super::tables::PlayerTables`]): an entry per configuration and distinct face (at most
/// 16 bytes) and a capture entry per track field. The sparse solver builds none.
pub fn table_bytes(rules: &Rules, configs: [u64; 2], dice: [&Die; 2]) -> u64 {
    let track = u64::from(rules.board().track_len());
    (0..2)
        .map(|p| {
            configs[p].saturating_mul(
                (dice[p].face_counts().len() as u64)
                    .saturating_mul(TABLE_BYTES_PER_MOVE)
                    .saturating_add(4 * track),
            )
        })
        .fold(0u64, u64::saturating_add)
}

/// The joint indices over two configuration sets of these sizes: every pair, both sides to
/// move, every tries level (saturating).
pub fn joint_indices(rules: &Rules, configs: [u64; 2]) -> u64 {
    configs[0]
        .saturating_mul(configs[1])
        .saturating_mul(2 * u64::from(tries_levels(rules)))
}

/// Tries levels of the joint index under these rules: 3 under `three-tries`, else 1.
pub fn tries_levels(rules: &Rules) -> u8 {
    if rules.profile().three_tries { 3 } else { 1 }
}

/// An upper bound on the transient joint states over two configuration sets: the pairs in
/// which nobody has won and no two pieces share a track field, times the sides to move and
/// tries levels. 1.2 to 1.4 times the reachable count on the boards measured, and
/// a fraction of a second even for the BwInf board's 2.2e8 pairs.
pub fn state_bound(rules: &Rules, a: &ConfigIndex, b: &ConfigIndex) -> u64 {
    let board = rules.board();
    let track = board.track_mask();
    // B's track pieces in A's numbering; won configurations never occur in a transient state.
    let b_track: Vec<u64> = b
        .masks()
        .iter()
        .filter(|&&m| !rules.has_won(m))
        .map(|&m| board.track_in_other_view(1, m))
        .collect();
    let pairs: u64 = a
        .masks()
        .par_iter()
        .filter(|&&m| !rules.has_won(m))
        .map(|&m| {
            let own = m & track;
            b_track.iter().filter(|&&t| t & own == 0).count() as u64
        })
        .sum();
    pairs.saturating_mul(2 * u64::from(tries_levels(rules)))
}

/// An upper bound on the memory an exact solve of `a` against `b` needs, from the
/// per-player reachable configurations alone (well under a second even on the BwInf
/// board), with the states bounded by [`state_bound`].
///
/// The solver itself checks again once it knows the exact number of reachable states;
/// [`super::solve_matchup`]'s refusal is the authoritative answer.
pub fn estimate_memory(rules: &Rules, a: &Die, b: &Die) -> MemoryEstimate {
    let ca = player_configs(rules, a);
    let cb = player_configs(rules, b);
    let (na, nb) = (ca.len() as u64, cb.len() as u64);
    let product = joint_indices(rules, [na, nb]);
    // The bound visits every pair of configurations; beyond 2^40 indices the state set's
    // bit map alone (P / 4 bytes) exceeds any machine, so the product itself is the bound.
    let states = if product > 1 << 40 {
        product
    } else {
        state_bound(rules, &ca, &cb)
    };
    MemoryEstimate::new([na, nb], product, states, max_outcomes(rules, a, b))
}

pub use crate::sizes::{default_limit, format_bytes, machine_memory, parse_bytes};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Profile};

    #[test]
    fn the_bwinf_board_needs_far_more_than_a_reduced_one() {
        let d = Die::standard();
        let big = estimate_memory(&Rules::bwinf(), &d, &d);
        let small = estimate_memory(
            &Rules::new("40/20/2/4".parse::<Board>().unwrap(), Profile::BWINF),
            &d,
            &d,
        );
        assert!(big.bytes > 20 << 30, "{}", format_bytes(big.bytes));
        assert!(small.bytes < 200 << 20, "{}", format_bytes(small.bytes));
        assert_eq!(small.product, small.configs[0] * small.configs[1] * 2);
    }

    #[test]
    fn the_configuration_bound_is_the_binomial_sum() {
        // 40/20/4/4: 44 fields, up to 4 pieces on them: 1 + 44 + 946 + 13244 + 135751.
        assert_eq!(
            configuration_bound(&Board::new(40, 20, 4, 4).unwrap()),
            149_986
        );
        // Every configuration of 1..6 on a small board is among them.
        let rules = Rules::new(Board::new(12, 6, 2, 2).unwrap(), Default::default());
        let found = player_configs(&rules, &Die::standard()).len() as u64;
        assert!(found <= configuration_bound(rules.board()), "{found}");
        let all = Board::new(60, 30, 4, 4).unwrap();
        assert_eq!(configuration_bound(&all), 1 + 64 + 2016 + 41664 + 635376);
    }

    #[test]
    fn faces_that_move_nothing_are_one_outcome() {
        let board = Board::new(16, 8, 2, 2).unwrap();
        let wide: Die = "0..65535".parse().unwrap();
        // 1..18 can move a piece; 0 and 19..65535 cannot.
        assert_eq!(effective_faces(&board, &wide), 19);
        assert_eq!(effective_faces(&board, &Die::standard()), 6);
    }
}
