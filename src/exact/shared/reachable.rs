//! Which configurations and joint states can occur.
//!
//! Per player ([`player_configs`]): a search from the opening configuration over the
//! player's own moves for every face of *its* die, plus "any one of its track pieces is
//! captured". A player's move depends on its own pieces only (opponents never block), so
//! this set is closed under everything the game can do to that player. Because rule 3
//! forces the frontmost movable piece to move, it is much smaller than the full ranking:
//! for the die 1..6 on the BwInf board 15,137 of 149,986 configurations.
//!
//! Jointly ([`joint_states`]): the states of the product index reachable from the two
//! opening positions (A to move, B to move) under both dice, found by the shared
//! reachability search ([`super::search::reach`]) with [`Rules::play_roll`] as the
//! successor function. Positions in which a player has won are absorbing and
//! not part of the set. The product of the per-player sets also contains positions the game
//! never reaches (two pieces of different players on one track field, for a start); the
//! search drops them, which is why the solver uses it rather than the plain product.

use super::encode::{ConfigIndex, StateEncoder};
use super::search::{self, Step, Successors};
use crate::dice::Die;
use crate::rules::{GameState, Rules};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// How far a configuration has come: the sum of `field + 1` over its pieces on the board
/// (pieces in `B` count 0). Every move of the player raises it, so sorting by decreasing
/// progress orders configurations "most advanced first".
#[inline(always)]
pub fn progress(mask: u64) -> u64 {
    let mut rest = mask;
    let mut sum = 0u64;
    while rest != 0 {
        sum += u64::from(rest.trailing_zeros()) + 1;
        rest &= rest - 1;
    }
    sum
}

/// The configurations the player with `die` can reach from the opening, most advanced first
/// (decreasing [`progress`], ties by increasing mask).
///
/// Moves out of a won configuration are not followed (the game is over), but the won
/// configurations themselves are in the set.
pub fn player_configs(rules: &Rules, die: &Die) -> ConfigIndex {
    configs_closed_under(rules, die, |mask, face, push| {
        push(rules.next_own(mask, face))
    })
}

/// The configurations reachable from the opening by `moves` (which calls its third argument
/// with every configuration a roll of `face` can lead the player's pieces `mask` to) for
/// every face of `die`, plus "any one track piece is captured", most advanced first as in
/// [`player_configs`]. The rules-fixed game moves the one piece rule 3 picks; the game with
/// choices ([`super::game`]) every piece a player may pick.
pub fn configs_closed_under(
    rules: &Rules,
    die: &Die,
    moves: impl Fn(u64, u32, &mut dyn FnMut(u64)),
) -> ConfigIndex {
    let board = rules.board();
    let track = board.track_mask();
    let faces: Vec<u32> = die.face_counts().iter().map(|&(f, _)| f).collect();
    let start = GameState::start(0).pieces[0];
    let mut seen: HashSet<u64> = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(mask) = stack.pop() {
        let mut found = Vec::new();
        // Captures: any one track piece goes back to B.
        let mut on_track = mask & track;
        while on_track != 0 {
            let bit = on_track & on_track.wrapping_neg();
            found.push(mask & !bit);
            on_track &= on_track - 1;
        }
        if !rules.has_won(mask) {
            for &face in &faces {
                moves(mask, face, &mut |m| found.push(m));
            }
        }
        for m in found {
            if seen.insert(m) {
                stack.push(m);
            }
        }
    }
    let mut masks: Vec<u64> = seen.into_iter().collect();
    masks.sort_unstable_by_key(|&m| (std::cmp::Reverse(progress(m)), m));
    ConfigIndex::new(masks, board.fields(), board.pieces())
        .expect("reachable configurations are distinct masks of the board")
}

/// A set of joint indices as a bit map, with the rank of each member: the members, in
/// increasing index order, are numbered `0 .. len()` (the solver's row numbers).
#[derive(Clone, Debug)]
pub struct StateSet {
    words: Vec<u64>,
    /// Members in all words before word `w`.
    before: Vec<u64>,
    len: u64,
    universe: u64,
}

impl StateSet {
    /// A set from its bit map over `0 .. universe`.
    pub fn from_words(words: Vec<u64>, universe: u64) -> StateSet {
        let mut before = Vec::with_capacity(words.len());
        let mut len = 0u64;
        for w in &words {
            before.push(len);
            len += u64::from(w.count_ones());
        }
        StateSet {
            words,
            before,
            len,
            universe,
        }
    }

    /// Number of members.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size of the index range the set lives in.
    pub fn universe(&self) -> u64 {
        self.universe
    }

    /// Whether `index` is a member.
    #[inline(always)]
    pub fn contains(&self, index: u64) -> bool {
        index < self.universe && self.words[(index / 64) as usize] >> (index % 64) & 1 != 0
    }

    /// The rank of `index` among the members, `None` if it is not a member.
    #[inline(always)]
    pub fn rank(&self, index: u64) -> Option<u64> {
        if !self.contains(index) {
            return None;
        }
        let w = (index / 64) as usize;
        let below = self.words[w] & ((1u64 << (index % 64)) - 1);
        Some(self.before[w] + u64::from(below.count_ones()))
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter_words(0..self.words.len())
    }

    /// The members in the words `range` (word `w` holds indices `64 w .. 64 w + 63`),
    /// in increasing order.
    pub fn iter_words(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = u64> + '_ {
        self.words[range.clone()]
            .iter()
            .zip(range)
            .flat_map(|(&word, w)| BitIter(word).map(move |b| w as u64 * 64 + u64::from(b)))
    }

    /// Number of 64-bit words of the bit map.
    pub fn word_count(&self) -> usize {
        self.words.len()
    }

    /// The rank of the first member in word `w` (the number of members before it).
    pub fn rank_of_word(&self, w: usize) -> u64 {
        self.before[w]
    }

    /// Bytes the set occupies.
    pub fn heap_bytes(&self) -> usize {
        self.words.len() * 16
    }
}

/// The set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// The product index as a [`Successors`] space, before there is a chain: two bits per
/// joint index (reached, spread), successors from [`Rules::play_roll`].
struct JointSpace<'r> {
    rules: &'r Rules,
    encoder: &'r StateEncoder,
    faces: [Vec<(u32, u32)>; 2],
    reached: Vec<AtomicU64>,
    spread: Vec<AtomicU64>,
}

/// The flag bits of a joint index.
const REACHED: u8 = 1;
const SPREAD: u8 = 2;

/// Words of the bit maps per unit of parallel work.
const WORDS_PER_CHUNK: usize = 256;

impl Successors for JointSpace<'_> {
    type State = u64;
    type Batch = ();

    /// Visits the reached indices not yet spread only (only [`search::reach`] runs on this
    /// space, and any other index has nothing to spread), in decreasing index order if
    /// `forwards`: a pass costs a scan of the bit maps plus the indices it spreads.
    fn pass(&self, forwards: bool, visit: impl Fn(&(), u64) -> bool + Sync) -> bool {
        search::in_order(
            self.reached.len(),
            WORDS_PER_CHUNK,
            forwards,
            true,
            |words| {
                let mut any = false;
                for w in words {
                    // Indices already spread have nothing left to do in a search forwards.
                    let mut word = self.reached[w].load(Ordering::Relaxed)
                        & !self.spread[w].load(Ordering::Relaxed);
                    while word != 0 {
                        // Highest bit first if forwards, else lowest.
                        let bit = if forwards {
                            63 - word.leading_zeros()
                        } else {
                            word.trailing_zeros()
                        };
                        word &= !(1u64 << bit);
                        any |= visit(&(), w as u64 * 64 + u64::from(bit));
                    }
                }
                any
            },
        )
    }

    fn for_each_successor(&self, _: &(), index: u64, mut f: impl FnMut(Step<u64>)) {
        let state = self.encoder.decode(index);
        for &(face, _) in &self.faces[state.mover()] {
            let mut next = state;
            match self.rules.play_roll(&mut next, face).winner {
                Some(p) => f(Step::Win(p)),
                None => {
                    f(Step::Next(self.encoder.encode(&next).expect(
                        "per-player sets are closed under moves and captures",
                    )))
                }
            }
        }
    }

    #[inline(always)]
    fn flags(&self, i: u64) -> u8 {
        let (w, b) = ((i / 64) as usize, i % 64);
        let bit = |map: &[AtomicU64]| (map[w].load(Ordering::Relaxed) >> b & 1) as u8;
        (bit(&self.reached) * REACHED) | (bit(&self.spread) * SPREAD)
    }

    #[inline(always)]
    fn add_flags(&self, i: u64, bits: u8) {
        let (w, b) = ((i / 64) as usize, 1u64 << (i % 64));
        for (flag, map) in [(REACHED, &self.reached), (SPREAD, &self.spread)] {
            // Most successors are known already; a plain load spares the locked
            // read-modify-write for them.
            if bits & flag != 0 && map[w].load(Ordering::Relaxed) & b == 0 {
                map[w].fetch_or(b, Ordering::Relaxed);
            }
        }
    }
}

/// The joint states reachable from the two opening positions, as a set over the encoder's
/// product index, by the shared reachability search ([`search::reach`]) with two bits per
/// product index.
pub fn joint_states(rules: &Rules, dice: [&Die; 2], encoder: &StateEncoder) -> StateSet {
    let universe = encoder.coder.len();
    let n_words = universe.div_ceil(64) as usize;
    let words = || (0..n_words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let space = JointSpace {
        rules,
        encoder,
        faces: [dice[0].face_counts(), dice[1].face_counts()],
        reached: words(),
        spread: words(),
    };
    let openings = [0, 1].map(|first| {
        encoder
            .encode(&GameState::start(first))
            .expect("opening configurations are reachable")
    });
    search::reach(&space, &openings, REACHED, SPREAD);
    StateSet::from_words(
        space
            .reached
            .into_iter()
            .map(AtomicU64::into_inner)
            .collect(),
        universe,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Profile};

    #[test]
    fn standard_die_on_the_bwinf_board_reaches_about_fifteen_thousand() {
        let rules = Rules::bwinf();
        let configs = player_configs(&rules, &Die::standard());
        // The issue quotes "about 15,000 of 149,986".
        assert!(
            (14_000..16_000).contains(&configs.len()),
            "{}",
            configs.len()
        );
        // Most advanced first: the won configuration with all goal fields taken leads.
        assert_eq!(
            progress(configs.mask(0)),
            (40..44).map(|f| f + 1).sum::<u64>()
        );
    }

    #[test]
    fn configurations_are_closed_under_moves_and_captures() {
        let rules = Rules::new("12/6/3/3".parse::<Board>().unwrap(), Profile::BWINF);
        let die: Die = "1..6".parse().unwrap();
        let configs = player_configs(&rules, &die);
        for &m in configs.masks() {
            let mut t = m & rules.board().track_mask();
            while t != 0 {
                assert!(configs.index(m & !(t & t.wrapping_neg())).is_some());
                t &= t - 1;
            }
            if !rules.has_won(m) {
                for face in 1..=6 {
                    assert!(configs.index(rules.next_own(m, face)).is_some());
                }
            }
        }
    }

    #[test]
    fn a_die_without_a_six_never_brings_a_piece_in() {
        let rules = Rules::new("12/6/2/2".parse::<Board>().unwrap(), Profile::BWINF);
        let configs = player_configs(&rules, &"1..5".parse::<Die>().unwrap());
        assert!(configs.masks().iter().all(|m| m.count_ones() <= 1));
    }

    #[test]
    fn state_set_ranks_members_in_order() {
        let mut words = vec![0u64; 3];
        for i in [0u64, 5, 63, 64, 130] {
            words[(i / 64) as usize] |= 1 << (i % 64);
        }
        let set = StateSet::from_words(words, 140);
        assert_eq!(set.len(), 5);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 130]);
        for (r, i) in set.iter().enumerate() {
            assert_eq!(set.rank(i), Some(r as u64));
        }
        assert_eq!(set.rank(6), None);
        assert!(!set.contains(200));
    }
}
