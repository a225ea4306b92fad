//! State encoding: dense indices for one player's configurations and for joint states.
//!
//! A player's configuration is its piece mask (see [`crate::rules::Board`]): bit `f` set
//! means a piece on its own field `f`, and the pieces not on the mask wait in `B`. So the
//! number of waiting pieces is `pieces - popcount(mask)` and the mask alone is the whole
//! configuration.
//!
//! Three indices build on each other:
//! - [`FullRanking`]: the combinatorial number system over *all* configurations, masks
//!   over `fields()` bits with at most `pieces` bits set (149,986 on the BwInf board);
//! - [`ConfigIndex`]: a dense index over a chosen set of configurations, in practice the
//!   ones a player can reach (see [`super::reachable::player_configs`]), in the order the
//!   solver sweeps them;
//! - [`JointCoder`]: the product of both players' indices, the side to move and (under
//!   `three-tries`) the tries counter, as one `u64`. The flat value vector of a
//!   matrix-free solver is indexed by exactly this number.

use crate::rules::GameState;
use std::collections::HashMap;

/// Binomial coefficients `C(n, k)` for `n, k <= 64`, saturating at `u64::MAX`.
#[derive(Clone, Debug)]
pub struct Binomials {
    table: Vec<[u64; 65]>,
}

impl Binomials {
    /// Pascal's triangle up to `n = 64`.
    pub fn new() -> Binomials {
        let mut table = vec![[0u64; 65]; 65];
        for n in 0..=64 {
            table[n][0] = 1;
            for k in 1..=n {
                table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            }
        }
        Binomials { table }
    }

    /// `C(n, k)`, 0 when `k > n`.
    #[inline(always)]
    pub fn get(&self, n: u32, k: u32) -> u64 {
        if k > n {
            0
        } else {
            self.table[n as usize][k as usize]
        }
    }
}

impl Default for Binomials {
    fn default() -> Self {
        Binomials::new()
    }
}

/// The combinatorial number system over all masks of `fields` bits with at most `pieces`
/// bits set: a bijection onto `0 .. count()`.
///
/// Masks are ordered by popcount first, then colexicographically: a mask with set bits
/// `b_0 < b_1 < ... < b_{k-1}` has rank `offset(k) + sum_i C(b_i, i + 1)`, where
/// `offset(k) = sum_{j < k} C(fields, j)`.
#[derive(Clone, Debug)]
pub struct FullRanking {
    fields: u32,
    pieces: u32,
    binomials: Binomials,
    /// `offsets[k]`: the rank of the first mask with `k` bits; `offsets[pieces + 1] = count`.
    offsets: Vec<u64>,
}

impl FullRanking {
    /// The ranking for `fields` bits (at most 64) and at most `pieces` set bits;
    /// `None` if the count does not fit in a `u64`.
    pub fn new(fields: u32, pieces: u32) -> Option<FullRanking> {
        if fields > 64 {
            return None;
        }
        let binomials = Binomials::new();
        let pieces = pieces.min(fields);
        let mut offsets = vec![0u64];
        for k in 0..=pieces {
            let c = binomials.get(fields, k);
            if c == u64::MAX {
                return None;
            }
            offsets.push(offsets[k as usize].checked_add(c)?);
        }
        Some(FullRanking {
            fields,
            pieces,
            binomials,
            offsets,
        })
    }

    /// Number of configurations.
    pub fn count(&self) -> u64 {
        self.offsets[self.pieces as usize + 1]
    }

    /// Whether `mask` is a configuration of this ranking.
    pub fn contains(&self, mask: u64) -> bool {
        (self.fields == 64 || mask >> self.fields == 0) && mask.count_ones() <= self.pieces
    }

    /// The rank of `mask`; `mask` must be a configuration ([`FullRanking::contains`]).
    #[inline(always)]
    pub fn rank(&self, mask: u64) -> u64 {
        debug_assert!(self.contains(mask));
        let k = mask.count_ones();
        let mut rank = self.offsets[k as usize];
        let mut rest = mask;
        let mut i = 1;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rank += self.binomials.get(bit, i);
            rest &= rest - 1;
            i += 1;
        }
        rank
    }

    /// The mask of rank `rank < count()`.
    pub fn unrank(&self, rank: u64) -> u64 {
        debug_assert!(rank < self.count());
        let k = (0..=self.pieces)
            .rev()
            .find(|&k| self.offsets[k as usize] <= rank)
            .expect("offsets[0] = 0");
        let mut rest = rank - self.offsets[k as usize];
        let mut mask = 0u64;
        let mut top = self.fields;
        for i in (1..=k).rev() {
            // The largest bit b < top with C(b, i) <= rest.
            let mut b = top - 1;
            while self.binomials.get(b, i) > rest {
                b -= 1;
            }
            mask |= 1u64 << b;
            rest -= self.binomials.get(b, i);
            top = b;
        }
        mask
    }
}

/// How [`ConfigIndex`] finds the index of a mask.
#[derive(Clone, Debug)]
enum Lookup {
    /// `table[full rank]` is the index, or `u32::MAX` for masks outside the set.
    Dense(FullRanking, Vec<u32>),
    /// For rankings too large to tabulate.
    Hashed(HashMap<u64, u32>),
}

/// Full rankings up to this many configurations get a dense lookup table (4 bytes each).
const DENSE_LOOKUP_LIMIT: u64 = 1 << 26;

/// A dense index `0 .. len()` over a set of one player's configurations, in a given order.
///
/// Encoding is a table lookup through the [`FullRanking`] (or a hash map on boards whose
/// full ranking is too large to tabulate); decoding is an array access.
#[derive(Clone, Debug)]
pub struct ConfigIndex {
    masks: Vec<u64>,
    lookup: Lookup,
}

impl ConfigIndex {
    /// An index over `masks` (distinct configurations of `fields` bits with at most
    /// `pieces` set) in the given order. `None` if there are `u32::MAX` or more masks,
    /// a mask repeats or lies outside the ranking.
    pub fn new(masks: Vec<u64>, fields: u32, pieces: u32) -> Option<ConfigIndex> {
        if masks.len() >= u32::MAX as usize {
            return None;
        }
        let ranking = FullRanking::new(fields, pieces);
        let lookup = match ranking {
            Some(r) if r.count() <= DENSE_LOOKUP_LIMIT => {
                let mut table = vec![u32::MAX; r.count() as usize];
                for (i, &m) in masks.iter().enumerate() {
                    if !r.contains(m) {
                        return None;
                    }
                    let slot = &mut table[r.rank(m) as usize];
                    if *slot != u32::MAX {
                        return None;
                    }
                    *slot = i as u32;
                }
                Lookup::Dense(r, table)
            }
            _ => {
                let mut map = HashMap::with_capacity(masks.len());
                let limit = if fields >= 64 {
                    u64::MAX
                } else {
                    (1u64 << fields) - 1
                };
                for (i, &m) in masks.iter().enumerate() {
                    if m & !limit != 0
                        || m.count_ones() > pieces
                        || map.insert(m, i as u32).is_some()
                    {
                        return None;
                    }
                }
                Lookup::Hashed(map)
            }
        };
        Some(ConfigIndex { masks, lookup })
    }

    /// Number of configurations in the index.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Whether the index is empty.
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// The configurations in index order.
    pub fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// The configuration with index `i`.
    #[inline(always)]
    pub fn mask(&self, i: u32) -> u64 {
        self.masks[i as usize]
    }

    /// The index of `mask`, `None` if it is not in the set.
    #[inline(always)]
    pub fn index(&self, mask: u64) -> Option<u32> {
        match &self.lookup {
            Lookup::Dense(ranking, table) => {
                if !ranking.contains(mask) {
                    return None;
                }
                let i = table[ranking.rank(mask) as usize];
                (i != u32::MAX).then_some(i)
            }
            Lookup::Hashed(map) => map.get(&mask).copied(),
        }
    }

    /// Bytes this index occupies (masks and lookup).
    pub fn heap_bytes(&self) -> usize {
        let lookup = match &self.lookup {
            Lookup::Dense(_, table) => table.len() * 4,
            Lookup::Hashed(map) => map.capacity() * 16,
        };
        self.masks.len() * 8 + lookup
    }
}

/// A joint state in coordinates: both players' configuration indices, the side to move
/// and the tries counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JointState {
    /// Index of player A's configuration in its [`ConfigIndex`].
    pub a: u32,
    /// Index of player B's configuration in its [`ConfigIndex`].
    pub b: u32,
    /// The player to move: 0 (A) or 1 (B).
    pub side: u8,
    /// Rolls already used this turn under `three-tries`, 0 otherwise.
    pub tries: u8,
}

/// The joint index: a bijection between [`JointState`]s and `0 .. len()`.
///
/// `index = ((a * n_b + b) * 2 + side) * tries_levels + (tries_levels - 1 - tries)`.
/// With both players' configurations ordered most advanced first (as
/// [`super::reachable::player_configs`] does), increasing index follows the game backwards:
/// a move of either player leads to a smaller index, only captures and extra tries lead to
/// larger ones. That makes plain index order a good Gauss-Seidel order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointCoder {
    n_a: u64,
    n_b: u64,
    tries_levels: u64,
}

impl JointCoder {
    /// Tries levels under `three-tries` (`tries` in 0..=2).
    pub const THREE_TRIES_LEVELS: u8 = 3;

    /// A coder for `n_a` and `n_b` configurations and `tries_levels` values of the tries
    /// counter (1, or [`JointCoder::THREE_TRIES_LEVELS`]); `None` if the product overflows.
    pub fn new(n_a: usize, n_b: usize, tries_levels: u8) -> Option<JointCoder> {
        let coder = JointCoder {
            n_a: n_a as u64,
            n_b: n_b as u64,
            tries_levels: u64::from(tries_levels.max(1)),
        };
        coder
            .n_a
            .checked_mul(coder.n_b)?
            .checked_mul(2)?
            .checked_mul(coder.tries_levels)?;
        Some(coder)
    }

    /// Number of joint indices: `n_a * n_b * 2 * tries_levels`.
    pub fn len(&self) -> u64 {
        self.n_a * self.n_b * 2 * self.tries_levels
    }

    /// Whether there are no joint indices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Values of the tries counter (1 or 3).
    pub fn tries_levels(&self) -> u8 {
        self.tries_levels as u8
    }

    /// The index of a joint state.
    #[inline(always)]
    pub fn encode(&self, s: JointState) -> u64 {
        debug_assert!(u64::from(s.a) < self.n_a && u64::from(s.b) < self.n_b);
        debug_assert!(s.side < 2 && u64::from(s.tries) < self.tries_levels);
        ((u64::from(s.a) * self.n_b + u64::from(s.b)) * 2 + u64::from(s.side)) * self.tries_levels
            + (self.tries_levels - 1 - u64::from(s.tries))
    }

    /// The joint state of an index `< len()`.
    #[inline(always)]
    pub fn decode(&self, index: u64) -> JointState {
        let tries = (self.tries_levels - 1 - index % self.tries_levels) as u8;
        let rest = index / self.tries_levels;
        let side = (rest % 2) as u8;
        let rest = rest / 2;
        JointState {
            a: (rest / self.n_b) as u32,
            b: (rest % self.n_b) as u32,
            side,
            tries,
        }
    }
}

/// Translates between [`GameState`]s and joint indices for one matchup.
#[derive(Clone, Debug)]
pub struct StateEncoder {
    /// Player A's configurations.
    pub a: ConfigIndex,
    /// Player B's configurations.
    pub b: ConfigIndex,
    /// The joint index over both.
    pub coder: JointCoder,
}

impl StateEncoder {
    /// An encoder over two players' configuration sets; `None` if the product overflows.
    pub fn new(a: ConfigIndex, b: ConfigIndex, tries_levels: u8) -> Option<StateEncoder> {
        let coder = JointCoder::new(a.len(), b.len(), tries_levels)?;
        Some(StateEncoder { a, b, coder })
    }

    /// The joint index of a game state; `None` if a configuration is not in its set or the
    /// tries counter is out of range.
    #[inline(always)]
    pub fn encode(&self, state: &GameState) -> Option<u64> {
        if state.to_move > 1 || state.tries >= self.coder.tries_levels() {
            return None;
        }
        Some(self.coder.encode(JointState {
            a: self.a.index(state.pieces[0])?,
            b: self.b.index(state.pieces[1])?,
            side: state.to_move,
            tries: state.tries,
        }))
    }

    /// The game state of a joint index `< coder.len()`.
    #[inline(always)]
    pub fn decode(&self, index: u64) -> GameState {
        let s = self.coder.decode(index);
        GameState {
            pieces: [self.a.mask(s.a), self.b.mask(s.b)],
            to_move: s.side,
            tries: s.tries,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_known_values() {
        let b = Binomials::new();
        assert_eq!(b.get(44, 4), 135_751);
        assert_eq!(b.get(5, 7), 0);
        assert_eq!(b.get(64, 32), 1_832_624_140_942_590_534);
    }

    #[test]
    fn full_ranking_counts_the_bwinf_configurations() {
        // 1 + 44 + 946 + 13,244 + 135,751: the figure quoted in the issue.
        let r = FullRanking::new(44, 4).unwrap();
        assert_eq!(r.count(), 149_986);
    }

    #[test]
    fn full_ranking_is_a_bijection_on_small_boards() {
        for (fields, pieces) in [(10, 2), (12, 3), (9, 4), (6, 6), (1, 1)] {
            let r = FullRanking::new(fields, pieces).unwrap();
            // Every mask of `fields` bits with at most `pieces` set, by brute force.
            let mut seen = vec![false; r.count() as usize];
            let mut n = 0;
            for mask in 0u64..(1 << fields) {
                if mask.count_ones() > pieces {
                    assert!(!r.contains(mask));
                    continue;
                }
                n += 1;
                let rank = r.rank(mask);
                assert!(!seen[rank as usize], "rank {rank} twice");
                seen[rank as usize] = true;
                assert_eq!(r.unrank(rank), mask);
            }
            assert_eq!(n, r.count());
        }
    }

    #[test]
    fn config_index_rejects_duplicates_and_foreign_masks() {
        assert!(ConfigIndex::new(vec![1, 2, 1], 10, 2).is_none());
        assert!(ConfigIndex::new(vec![0b111], 10, 2).is_none());
        assert!(ConfigIndex::new(vec![1 << 10], 10, 2).is_none());
        let idx = ConfigIndex::new(vec![6, 1, 0], 10, 2).unwrap();
        assert_eq!(idx.index(1), Some(1));
        assert_eq!(idx.index(3), None);
        assert_eq!(idx.index(1 << 12), None);
    }

    #[test]
    fn joint_coder_round_trips_exhaustively() {
        for levels in [1, 3] {
            let c = JointCoder::new(5, 7, levels).unwrap();
            for i in 0..c.len() {
                let s = c.decode(i);
                assert!(s.a < 5 && s.b < 7 && s.side < 2 && s.tries < levels);
                assert_eq!(c.encode(s), i);
            }
        }
    }
}
