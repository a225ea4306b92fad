//! Eight games at once: the rules' fast path in the eight 64-bit lanes of the processor's
//! vectors (one AVX-512 register, two AVX2 registers, four NEON registers, or plain Rust
//! that the compiler vectorizes for other processors: [`vector`]; which one runs: [`path`]).
//!
//! Each of the eight lanes of a vector plays one chunk's games from that chunk's own
//! generator, draw for draw as the one-game loops play them: the same Xoshiro256++ step, the
//! same Lemire rejection (a rejected draw moves nothing and counts no roll: the lane waits a
//! step and draws again), the same rules as
//! [`Rules::roll_plain`](crate::rules::Rules::roll_plain) in bit operations, the same checks
//! for a stuck game and the roll cap. So a chunk's counts are the same whichever path plays
//! it, and no result depends on the processor. What changes is that one instruction does a
//! step of eight games, and that no branch depends on a roll: the choices are blends under
//! lane masks, the turn passing is a change of masks.
//!
//! The paths play what the one-game loops play with both players (or every seat) on
//! `frontmost` under rules that are [`Rules::is_plain`](crate::rules::Rules::is_plain) (so
//! `bwinf`), except a duel under `roll-off`, whose starting rolls would need the generator
//! outside the vectors. The ends of games and the checks for a stuck game leave the vectors
//! for scalar bookkeeping, which the one-game loops' own functions do.
//!
//! [`duel`] plays two players, [`table`] three and four, each written once over
//! [`vector::Vector`]; this module holds what they share: the generators, the dice and the
//! move.

pub(crate) mod duel;
pub(crate) mod path;
pub(crate) mod table;
pub(crate) mod vector;

use crate::dice::Die;
use crate::rules::{Board, MAX_SEATS};
use rayon::prelude::*;
use std::ops::Range;
use vector::Vector;

/// Games played side by side: the 64-bit lanes of a 512-bit vector.
pub(crate) const LANES: usize = 8;

/// Fewest chunks worth a call of the lanes: one chunk alone keeps seven lanes idle, and the
/// one-game loop plays it faster (1.3 ms against 2.0 ms for a chunk of 1..6 against 1..6;
/// two chunks take 1.0 ms each in lanes, 1.25 ms one by one).
pub(crate) const MIN_CHUNKS: usize = 2;

/// `chunks` in groups, each group's chunks to be dealt to the lanes of one call: groups of
/// up to four rounds of lanes leave fewer lanes idle at a group's end, and at least four
/// groups per thread keep the threads balanced.
///
/// The groups are computed by their index, never listed: a run of 10^13 games has about
/// 3 * 10^8 groups, and what a simulation holds must not grow with its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Groups {
    start: u64,
    end: u64,
    size: u64,
}

impl Groups {
    /// The groups of `chunks`, sized for the threads of the current pool.
    pub(crate) fn new(chunks: Range<u64>) -> Groups {
        Groups::for_threads(chunks, rayon::current_num_threads())
    }

    /// The groups of `chunks` for `threads` threads.
    fn for_threads(chunks: Range<u64>, threads: usize) -> Groups {
        let count = chunks.end.saturating_sub(chunks.start);
        let lanes = LANES as u64;
        let size = (count / (4 * threads as u64)).clamp(lanes, 4 * lanes);
        Groups {
            start: chunks.start,
            end: chunks.start + count,
            size,
        }
    }

    /// How many groups.
    pub(crate) fn len(&self) -> u64 {
        (self.end - self.start).div_ceil(self.size)
    }

    /// Group `g` (below [`Groups::len`]): its chunks.
    pub(crate) fn get(&self, g: u64) -> Range<u64> {
        let first = self.start + g * self.size;
        first..self.end.min(first + self.size)
    }
}

/// The [`Groups`] of `chunks` in parallel, each chunk with its size (pairs or rounds) as
/// `size_of` gives it: a group's list is made when a thread takes the group, so at most one
/// list per thread (of at most `4 * LANES` chunks) exists at a time.
pub(crate) fn sized_groups(
    chunks: Range<u64>,
    size_of: impl Fn(u64) -> u64 + Sync + Send,
) -> impl ParallelIterator<Item = Vec<(u64, u64)>> {
    let groups = Groups::new(chunks);
    (0..groups.len())
        .into_par_iter()
        .map(move |g| groups.get(g).map(|chunk| (chunk, size_of(chunk))).collect())
}

/// The counts of one group of `(chunk, size)`: by `in_lanes` if it has [`MIN_CHUNKS`]
/// chunks, else chunk by chunk by `one_chunk`, added to `zero`.
pub(crate) fn play_group<C: std::ops::Add<Output = C>>(
    group: &[(u64, u64)],
    zero: C,
    in_lanes: impl FnOnce(&[(u64, u64)]) -> C,
    one_chunk: impl Fn(u64, u64) -> C,
) -> C {
    if group.len() >= MIN_CHUNKS {
        in_lanes(group)
    } else {
        group
            .iter()
            .fold(zero, |sum, &(chunk, size)| sum + one_chunk(chunk, size))
    }
}

/// Eight Xoshiro256++ generators, one per lane, as `rand_xoshiro` steps them.
struct Generators<V>([V; 4]);

impl<V: Vector> Generators<V> {
    /// Lane `l` of word `w` in `words[w][l]`.
    #[inline(always)]
    fn load(words: &[[u64; LANES]; 4]) -> Generators<V> {
        // Written out, not mapped: a closure would be compiled apart from the function that
        // enables the vector instructions.
        let [s0, s1, s2, s3] = words;
        Generators([V::load(s0), V::load(s1), V::load(s2), V::load(s3)])
    }

    #[inline(always)]
    fn store(&self) -> [[u64; LANES]; 4] {
        let [s0, s1, s2, s3] = self.0;
        [s0.store(), s1.store(), s2.store(), s3.store()]
    }

    /// Every lane's next 64-bit output.
    #[inline(always)]
    fn next(&mut self) -> V {
        let [s0, s1, s2, s3] = &mut self.0;
        let out = s0.add(*s3).rotate_left::<23, 41>().add(*s0);
        let t = s1.shl_by::<17>();
        *s2 = s2.xor(*s0);
        *s3 = s3.xor(*s1);
        *s1 = s1.xor(*s2);
        *s0 = s0.xor(*s3);
        *s2 = s2.xor(t);
        *s3 = s3.rotate_left::<45, 19>();
        out
    }
}

/// Writes the state of the generator `seed` (as [`Xoshiro256PlusPlus::state`]'s bytes) into
/// lane `l` of `words`.
///
/// [`Xoshiro256PlusPlus::state`]: rand_xoshiro::Xoshiro256PlusPlus::state
fn seed_lane(words: &mut [[u64; LANES]; 4], l: usize, seed: [u8; 32]) {
    for (word, bytes) in words.iter_mut().zip(seed.chunks_exact(8)) {
        word[l] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    }
}

/// The distinct dice of a game (at most four), rolled lane by lane as [`Die::roll`] rolls
/// them.
struct LaneDice<V: Vector> {
    /// How many dice.
    dice: usize,
    /// Each die's number of faces, in every lane.
    count: [V; MAX_SEATS],
    /// Each die's rejection threshold `2^32 mod n`.
    reject_below: [V; MAX_SEATS],
    /// Every die has at most 16 faces: each die's faces in a [`Vector::look_up`] table.
    in_tables: bool,
    tables: [V::Table; MAX_SEATS],
    /// Otherwise every die's faces in one table for a gather, and where each die's begin.
    faces: Vec<u64>,
    start: [V; MAX_SEATS],
}

impl<V: Vector> LaneDice<V> {
    /// `dice` (at most four).
    #[inline(always)]
    fn new(dice: &[&Die]) -> LaneDice<V> {
        assert!((1..=MAX_SEATS).contains(&dice.len()));
        let faces = |die: &Die| {
            die.faces()
                .iter()
                .map(|&f| u64::from(f))
                .collect::<Vec<u64>>()
        };
        let in_tables = dice.iter().all(|d| d.faces().len() <= 16);
        let mut lane_dice = LaneDice {
            dice: dice.len(),
            count: [V::splat(0); MAX_SEATS],
            reject_below: [V::splat(0); MAX_SEATS],
            in_tables,
            tables: [V::table(&[0; 16]); MAX_SEATS],
            faces: Vec::new(),
            start: [V::splat(0); MAX_SEATS],
        };
        for (d, die) in dice.iter().enumerate() {
            lane_dice.count[d] = V::splat(die.faces().len() as u64);
            lane_dice.reject_below[d] = V::splat(u64::from(die.reject_below()));
            if in_tables {
                let mut padded = [0u64; 16];
                padded[..die.faces().len()].copy_from_slice(&faces(die));
                lane_dice.tables[d] = V::table(&padded);
            }
            lane_dice.start[d] = V::splat(lane_dice.faces.len() as u64);
            lane_dice.faces.extend(faces(die));
        }
        lane_dice
    }

    /// Die `d`'s value of `per_die` in the lanes of `rolling[d]`, die 0's in the rest.
    #[inline(always)]
    fn pick(&self, per_die: &[V; MAX_SEATS], rolling: &[V::Mask; MAX_SEATS]) -> V {
        let mut v = per_die[0];
        for (&x, &mask) in per_die[1..self.dice].iter().zip(&rolling[1..]) {
            v = v.select(mask, x);
        }
        v
    }

    /// Rolls, in each lane, die `d` where the lane is in `rolling[d]` (die 0 where in no
    /// die's set), from the generators' output `draw`: the faces, and the lanes whose draw
    /// was accepted (the others draw again, as [`Die::roll`] does).
    #[inline(always)]
    fn roll(&self, draw: V, rolling: &[V::Mask; MAX_SEATS]) -> (V, V::Mask) {
        let product = draw
            .shr_by::<32>()
            .mul_low32(self.pick(&self.count, rolling));
        let low_word = product.and(V::splat(u64::from(u32::MAX)));
        let accepted = !low_word.lt(self.pick(&self.reject_below, rolling));
        let side = product.shr_by::<32>();
        let face = if self.in_tables {
            let mut face = V::look_up(&self.tables[0], side);
            for (table, &mask) in self.tables[1..self.dice].iter().zip(&rolling[1..]) {
                face = face.select(mask, V::look_up(table, side));
            }
            face
        } else {
            let index = side.add(self.pick(&self.start, rolling));
            // SAFETY: `side` is below the rolled die's number of faces, so the index lies in
            // that die's part of `faces`.
            unsafe { V::gather(&self.faces, index) }
        };
        (face, accepted)
    }
}

/// The rules' fast path ([`Rules::roll_plain`](crate::rules::Rules::roll_plain)) on a
/// board, lane by lane.
struct LaneRules<V> {
    one: V,
    six: V,
    field_mask: V,
    goal_mask: V,
    track_mask: V,
    track_len: V,
    pieces: V,
}

impl<V: Vector> LaneRules<V> {
    #[inline(always)]
    fn new(board: &Board) -> LaneRules<V> {
        LaneRules {
            one: V::splat(1),
            six: V::splat(6),
            field_mask: V::splat(board.field_mask()),
            goal_mask: V::splat(board.goal_mask()),
            track_mask: V::splat(board.track_mask()),
            track_len: V::splat(u64::from(board.track_len())),
            pieces: V::splat(u64::from(board.pieces())),
        }
    }

    /// `Rules::decide_plain`: the move of a player with pieces `own` who rolled `face`, as
    /// the bits of the field left and the field reached (0 if nothing moves).
    #[inline(always)]
    fn step(&self, own: V, face: V) -> V {
        let someone_waits = own.count_ones().lt(self.pieces);
        // A shift by 64 or more gives 0 in a lane, as `checked_shl(..).unwrap_or(0)` does.
        let targets = own.shl(face).and_not(own).and(self.field_mask);
        let from_start = targets.and(self.one.shl(face));
        let clear_start = someone_waits & from_start.nonzero();
        let to = targets.highest_bit().select(clear_start, from_start);
        let bring_in = face.eq(self.six) & someone_waits & !own.and(self.one).nonzero();
        to.or(to.shr(face)).select(bring_in, self.one)
    }

    /// The track field a `step` that gave `new_own` landed on, as a bit (0 for a goal field
    /// or no move): where it captures.
    #[inline(always)]
    fn landing_on_track(&self, step: V, new_own: V) -> V {
        step.and(new_own).and(self.track_mask)
    }

    /// [`Board::turn_track`] lane by lane: track bits turned by `shift` (below the track's
    /// length) into another seat's numbering.
    #[inline(always)]
    fn turn_track(&self, on_track: V, shift: V) -> V {
        let back = self.track_len.sub(shift);
        on_track
            .shl(shift)
            .or(on_track.shr(back))
            .and(self.track_mask)
    }

    /// The lanes in which `new_own` has every piece in the goal.
    #[inline(always)]
    fn won(&self, new_own: V) -> V::Mask {
        new_own.and(self.goal_mask).count_ones().eq(self.pieces)
    }

    /// The lanes whose roll `face` passes the turn (no 6, no win).
    #[inline(always)]
    fn passes(&self, face: V, won: V::Mask) -> V::Mask {
        !won & !face.eq(self.six)
    }
}

/// The distinct dice among `dice` and, for each die of `dice`, its index among them (equal
/// dice are one die to the lanes: fewer blends per roll).
fn distinct<'a>(dice: &[&'a Die]) -> (Vec<&'a Die>, Vec<usize>) {
    let mut distinct: Vec<&Die> = Vec::new();
    let index = dice
        .iter()
        .map(
            |&die| match distinct.iter().position(|d| d.faces() == die.faces()) {
                Some(i) => i,
                None => {
                    distinct.push(die);
                    distinct.len() - 1
                }
            },
        )
        .collect();
    (distinct, index)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::path::LanesPath;
    use super::*;
    use crate::sim::{CHUNK_GAMES, MAX_GAMES};

    /// The paths with lanes that run on this processor: each is compared with the one-game
    /// loop (the portable one always; AVX2, AVX-512 and NEON where the processor has them).
    pub(crate) fn lanes_here() -> Vec<LanesPath> {
        let here: Vec<LanesPath> = LanesPath::ALL
            .into_iter()
            .filter(|&path| path != LanesPath::Scalar && path.runs_here())
            .collect();
        let missing: Vec<&str> = LanesPath::ALL
            .into_iter()
            .filter(|path| !path.runs_here())
            .map(LanesPath::name)
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "not on this processor, so not compared: {}",
                missing.join(", ")
            );
        }
        here
    }

    /// The groups of the largest run are a few numbers, whatever the chunks: group `g` is
    /// computed from its index, and the groups tile the chunks without gap or overlap.
    #[test]
    fn the_groups_of_any_run_are_computed_by_index_without_a_list() {
        assert_eq!(
            std::mem::size_of::<Groups>(),
            3 * std::mem::size_of::<u64>()
        );
        for threads in [1, 2, 64] {
            let chunks = 3..MAX_GAMES / CHUNK_GAMES;
            let groups = Groups::for_threads(chunks.clone(), threads);
            let n = groups.len();
            assert!(n > 300_000_000, "{n} groups");
            assert_eq!(groups.get(0).start, chunks.start);
            assert_eq!(groups.get(n - 1).end, chunks.end);
            for g in [0, 1, n / 2, n - 2] {
                assert_eq!(groups.get(g).end, groups.get(g + 1).start);
                assert_eq!(groups.get(g).count() as u64, 4 * LANES as u64);
            }
        }
        // Small runs: groups of a round of lanes at least, the last one cut.
        let groups = Groups::for_threads(5..26, 2);
        let listed: Vec<Range<u64>> = (0..groups.len()).map(|g| groups.get(g)).collect();
        assert_eq!(listed, [5..13, 13..21, 21..26]);
        assert_eq!(Groups::for_threads(7..7, 2).len(), 0);
    }

    /// The parallel groups of the largest run start at once and hold one list per group
    /// taken: the first few arrive without anything listed for the other 3 * 10^8.
    #[test]
    fn the_sized_groups_of_the_largest_run_are_made_as_they_are_taken() {
        let seen = std::sync::atomic::AtomicU64::new(0);
        let found = sized_groups(0..MAX_GAMES / CHUNK_GAMES, |c| {
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            c % 7
        })
        .find_any(|group| group.len() == 4 * LANES);
        assert!(found.is_some());
        // Each thread lists at most a few groups before one is found.
        let listed = seen.load(std::sync::atomic::Ordering::Relaxed);
        assert!(listed < 1_000_000, "{listed} chunks listed");
    }
}
