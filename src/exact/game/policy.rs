//! Policies: which of the legal moves a player takes, as the exact layer sees them.
//!
//! A move is named by its position in [`crate::rules::Rules::legal_moves`]'s list (frontmost
//! first), the same numbering the simulator's strategies and the policy file use.

use super::space::{At, GameSpace, Target};
use crate::rules::{LegalMoves, Player, Rules};

/// What a policy plays in one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The move with this position in the list of legal moves.
    One(usize),
    /// Every legal move with the same probability (a random strategy, evaluated exactly).
    Uniform,
}

/// One decision: the position and the roll, from the mover's view.
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// The joint index of the position.
    pub index: usize,
    /// The slot of the face among the mover's distinct faces.
    pub face_slot: usize,
    /// The player to move.
    pub mover: Player,
    /// The mover's pieces.
    pub own: u64,
    /// The opponent's pieces (in the opponent's numbering).
    pub other: u64,
    /// The legal moves (at least two: single moves need no policy).
    pub legal: &'a LegalMoves,
}

/// A fixed way to choose among legal moves.
pub trait MovePolicy: Sync {
    /// The move (or mix) played in `decision`.
    fn pick(&self, decision: &Decision<'_>) -> Pick;

    /// The table behind the policy, if it is one (read directly, without building the
    /// decision).
    fn table(&self) -> Option<&PolicyTable> {
        None
    }

    /// Whether the policy is costly to ask (a learned evaluator): the solver then asks it
    /// once per decision and plays its answers from a table, instead of asking in every
    /// sweep. Only for policies that never mix their moves.
    fn tabulate_first(&self) -> bool {
        false
    }

    /// Whether the policy always plays one move (never mixes): the solver may then ask it
    /// once per decision and play its answers from a table wherever the value iteration
    /// would ask it again in every sweep.
    fn picks_one(&self) -> bool {
        false
    }

    /// For a learned player that picks the move whose next position it values highest, how
    /// it values a position, seated as `side` in the game of `rules`: the solver then values
    /// every position once and picks from the values ([`super::afterstates`]) instead of
    /// asking it in every decision.
    fn afterstate_value(&self, _rules: &Rules, _side: Player) -> Option<AfterstateValue<'_>> {
        None
    }
}

/// The `bwinf` rule 3: the frontmost piece that can move.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrontmostPolicy;

impl MovePolicy for FrontmostPolicy {
    fn pick(&self, _: &Decision<'_>) -> Pick {
        Pick::One(0)
    }

    fn picks_one(&self) -> bool {
        true
    }
}

/// A strategy of the simulator as a policy: `random` is the uniform mix over the legal
/// moves, every other strategy its one pick (resolve `safe` with
/// [`crate::strategy::Strategy::against`] first).
impl MovePolicy for crate::strategy::Strategy {
    fn tabulate_first(&self) -> bool {
        matches!(
            self,
            crate::strategy::Strategy::Strong(..) | crate::strategy::Strategy::StrongSearch(..)
        )
    }

    fn picks_one(&self) -> bool {
        !matches!(self, crate::strategy::Strategy::Random)
    }

    fn afterstate_value(&self, rules: &Rules, side: Player) -> Option<AfterstateValue<'_>> {
        use crate::strategy::Strategy;
        match self {
            Strategy::Strong(s) => s
                .for_game(rules)
                .map(|p| AfterstateValue::Network(p.evaluator())),
            Strategy::StrongSearch(s, Some(dice), rolls) => {
                // Seated dice are the seat's own first.
                let [mine, theirs] = &**dice;
                let by_player = if side == 0 {
                    [mine, theirs]
                } else {
                    [theirs, mine]
                };
                s.for_game(rules)
                    .map(|p| AfterstateValue::RollsAhead(p.evaluator(), by_player, *rolls))
            }
            _ => None,
        }
    }

    fn pick(&self, d: &Decision<'_>) -> Pick {
        use crate::strategy::Strategy;
        match self {
            Strategy::Random => Pick::Uniform,
            Strategy::Frontmost => Pick::One(0),
            other => {
                // Only `random` draws; the generator is never used.
                let mut unused =
                    <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(0);
                let chosen = other.choose(d.rules, d.own, d.other, d.mover, d.legal, &mut unused);
                let position = chosen.and_then(|m| d.legal.iter().position(|l| l == m));
                // A pick outside the list is reported by the solver as an illegal move.
                Pick::One(position.unwrap_or(usize::MAX))
            }
        }
    }
}

/// How a learned player values the position a move leads to.
#[derive(Clone, Copy)]
pub enum AfterstateValue<'a> {
    /// `strong`: the network's value of the next position, from its mover's side.
    Network(&'a crate::strategy::network::Evaluator),
    /// `strong-search` (`strong-search-N`): this many rolls of look-ahead (at least 1), with
    /// the die of each player (by player).
    RollsAhead(
        &'a crate::strategy::network::Evaluator,
        [&'a crate::dice::Die; 2],
        u32,
    ),
}

/// Both players' moves for every joint index and face slot, packed in `bits` bits each: the
/// optimal pair the solver extracts, and what a policy file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyTable {
    /// Bits per move (enough for the position of the last of `pieces` moves).
    pub bits: u32,
    /// Face slots per joint index (the larger number of distinct faces of the two dice).
    pub slots: usize,
    /// Joint indices.
    pub states: usize,
    words: Vec<u64>,
}

impl PolicyTable {
    /// An all-frontmost table (every entry 0) for `states` joint indices, `slots` face slots
    /// each, for boards of `pieces` pieces. `None` if its size overflows.
    pub fn new(states: usize, slots: usize, pieces: u32) -> Option<PolicyTable> {
        let bits = Self::bits_for(pieces);
        let total = states.checked_mul(slots)?.checked_mul(bits as usize)?;
        Some(PolicyTable {
            bits,
            slots,
            states,
            words: vec![0; total.div_ceil(64)],
        })
    }

    /// The bytes of a table of `states` joint indices, `slots` face slots each, for boards of
    /// `pieces` pieces (what [`PolicyTable::new`] would allocate); `None` if it overflows.
    pub fn bytes_for(states: usize, slots: usize, pieces: u32) -> Option<u64> {
        let bits = states
            .checked_mul(slots)?
            .checked_mul(Self::bits_for(pieces) as usize)?;
        (bits.div_ceil(64) as u64).checked_mul(8)
    }

    /// Bits per move for boards of `pieces` pieces: a player chooses among at most
    /// `pieces` moves.
    pub fn bits_for(pieces: u32) -> u32 {
        (32 - pieces.saturating_sub(1).leading_zeros()).max(1)
    }

    /// A table from its packed words (as read from a file); `None` if the length is wrong.
    pub fn from_words(
        states: usize,
        slots: usize,
        bits: u32,
        words: Vec<u64>,
    ) -> Option<PolicyTable> {
        if !(1..=8).contains(&bits) {
            return None;
        }
        let total = states.checked_mul(slots)?.checked_mul(bits as usize)?;
        (words.len() == total.div_ceil(64)).then_some(PolicyTable {
            bits,
            slots,
            states,
            words,
        })
    }

    /// The packed words.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The move at joint index `index`, face slot `k`.
    #[inline(always)]
    pub fn get(&self, index: usize, k: usize) -> usize {
        let at = (index * self.slots + k) * self.bits as usize;
        let (w, o) = (at / 64, at % 64);
        let mask = (1u64 << self.bits) - 1;
        let mut v = self.words[w] >> o;
        if o + self.bits as usize > 64 {
            v |= self.words[w + 1] << (64 - o);
        }
        (v & mask) as usize
    }

    /// Sets the move at `index`, slot `k` (`choice` must fit in `bits`).
    pub fn set(&mut self, index: usize, k: usize, choice: usize) {
        let at = (index * self.slots + k) * self.bits as usize;
        put(&mut self.words, at, self.bits as usize, choice);
    }

    /// Sets every entry for which `pick(index, k)` answers, on all threads (entries it
    /// answers `None` for keep their value). The table is split into blocks of whole words
    /// (64 joint indices make `slots * bits` words), so no two threads share a word.
    pub fn par_fill(&mut self, pick: impl Fn(usize, usize) -> Option<usize> + Sync) {
        self.par_fill_observed(pick, |_| {});
    }

    /// [`PolicyTable::par_fill`] telling `done` the share of the joint indices filled after
    /// each block of them (from the block's thread).
    pub fn par_fill_observed(
        &mut self,
        pick: impl Fn(usize, usize) -> Option<usize> + Sync,
        done: impl Fn(f64) + Sync,
    ) {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        const BLOCK_STATES: usize = 64 * 256;
        let (slots, bits, states) = (self.slots, self.bits as usize, self.states);
        let block_words = BLOCK_STATES * slots * bits / 64;
        let blocks = states.div_ceil(BLOCK_STATES).max(1);
        let filled = AtomicUsize::new(0);
        self.words
            .par_chunks_mut(block_words)
            .enumerate()
            .for_each(|(block, words)| {
                let first = block * BLOCK_STATES;
                for index in first..(first + BLOCK_STATES).min(states) {
                    for k in 0..slots {
                        let Some(choice) = pick(index, k) else {
                            continue;
                        };
                        put(words, ((index - first) * slots + k) * bits, bits, choice);
                    }
                }
                done((filled.fetch_add(1, Relaxed) + 1) as f64 / blocks as f64);
            });
    }

    /// Bytes of the table.
    pub fn heap_bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
}

/// Writes `choice` into the `bits` bits of `words` starting at bit `at`.
#[inline(always)]
fn put(words: &mut [u64], at: usize, bits: usize, choice: usize) {
    let (w, o) = (at / 64, at % 64);
    let mask = (1u64 << bits) - 1;
    let v = choice as u64 & mask;
    words[w] = (words[w] & !(mask << o)) | (v << o);
    if o + bits > 64 {
        let spill = 64 - o;
        words[w + 1] = (words[w + 1] & !(mask >> spill)) | (v >> spill);
    }
}

impl MovePolicy for PolicyTable {
    fn pick(&self, d: &Decision<'_>) -> Pick {
        Pick::One(self.get(d.index, d.face_slot))
    }

    fn table(&self) -> Option<&PolicyTable> {
        Some(self)
    }
}

/// Where the move `table` holds for `at`, face slot `k`, leads: `Some(None)` if the roll
/// moves nothing, `None` if the table names a move that does not exist. Walks only the one
/// move (no capture duty: see [`GameSpace::option_at`]): the hot path of every sweep with a
/// side played from a table. A single move needs no decision, and the table's entry
/// there is not read.
#[inline(always)]
pub fn table_target(
    space: &GameSpace,
    table: &PolicyTable,
    at: &At,
    k: usize,
) -> Option<Option<Target>> {
    let wanted = table.get(at.index, k);
    match space.option_at(at, k, wanted) {
        (0, _) => Some(None),
        (1, _) if wanted != 0 => space.option_at(at, k, 0).1.map(Some),
        (_, picked) => picked.map(Some),
    }
}

/// What `policy` plays at `index`, face slot `k` of `space` (a decision with at least two
/// legal moves).
pub fn decide(space: &GameSpace, policy: &dyn MovePolicy, index: usize, k: usize) -> Pick {
    if let Some(table) = policy.table() {
        return Pick::One(table.get(index, k));
    }
    let position = space.position(index);
    let mover = position.mover();
    let (own, other) = (position.pieces[mover], position.pieces[1 - mover]);
    let face = space.faces(index)[k].0;
    let legal = space.rules.legal_moves(own, other, mover, face);
    policy.pick(&Decision {
        rules: &space.rules,
        index,
        face_slot: k,
        mover,
        own,
        other,
        legal: &legal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_entries_read_back_across_word_edges() {
        for pieces in [1, 2, 3, 4, 5, 9] {
            let mut t = PolicyTable::new(97, 7, pieces).unwrap();
            let top = (1usize << t.bits) - 1;
            for i in 0..97 {
                for k in 0..7 {
                    t.set(i, k, (i * 7 + k * 3) % (top + 1));
                }
            }
            for i in 0..97 {
                for k in 0..7 {
                    assert_eq!(t.get(i, k), (i * 7 + k * 3) % (top + 1), "{pieces}");
                }
            }
        }
        assert_eq!(PolicyTable::bits_for(4), 2);
        assert_eq!(PolicyTable::bits_for(1), 1);
        assert_eq!(PolicyTable::bits_for(5), 3);
    }

    /// The filled shares come once per block, the last one whole, and the table holds what
    /// was picked.
    #[test]
    fn a_fill_tells_its_progress_block_by_block() {
        let states = 3 * 64 * 256 + 5;
        let mut t = PolicyTable::new(states, 2, 4).unwrap();
        let shares = std::sync::Mutex::new(Vec::new());
        t.par_fill_observed(
            |i, k| Some((i + k) % 4),
            |done| shares.lock().unwrap().push(done),
        );
        let mut shares = shares.into_inner().unwrap();
        shares.sort_by(f64::total_cmp);
        assert_eq!(shares, [0.25, 0.5, 0.75, 1.0]);
        assert!((0..states).all(|i| t.get(i, 0) == i % 4 && t.get(i, 1) == (i + 1) % 4));
    }
}
