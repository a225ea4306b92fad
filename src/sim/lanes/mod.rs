//! Eight games at once: the rules' fast path on the 512-bit vectors of AVX-512.
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
//! [`duel`] plays two players, [`table`] three and four; this module holds what they share:
//! the generators, the dice and the move.

pub(crate) mod duel;
pub(crate) mod table;

use crate::dice::Die;
use crate::rules::{Board, MAX_SEATS};
use rayon::prelude::*;
use std::arch::x86_64::*;
use std::ops::Range;

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

/// Whether this processor has the AVX-512 parts the lanes use: the foundation, leading-zero
/// counts (CD) and population counts (VPOPCNTDQ).
fn processor_has_lanes() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512vpopcntdq")
}

/// Every lane holding `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn splat(x: u64) -> __m512i {
    _mm512_set1_epi64(x as i64)
}

/// A vector of the eight lanes `a`.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(a: &[u64; LANES]) -> __m512i {
    // SAFETY: `a` holds eight 64-bit lanes; `loadu` needs no alignment.
    unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
}

/// The eight lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: __m512i) -> [u64; LANES] {
    let mut out = [0u64; LANES];
    // SAFETY: `out` has room for the eight 64-bit lanes; `storeu` needs no alignment.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
    out
}

/// Eight Xoshiro256++ generators, one per lane, as `rand_xoshiro` steps them.
struct Generators([__m512i; 4]);

impl Generators {
    /// Lane `l` of word `w` in `words[w][l]`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load(words: &[[u64; LANES]; 4]) -> Generators {
        Generators(words.map(|w| load(&w)))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn store(&self) -> [[u64; LANES]; 4] {
        self.0.map(|v| store(v))
    }

    /// Writes the state of the generator `seed` (as [`Xoshiro256PlusPlus::state`]'s bytes)
    /// into lane `l` of `words`.
    ///
    /// [`Xoshiro256PlusPlus::state`]: rand_xoshiro::Xoshiro256PlusPlus::state
    fn seed_lane(words: &mut [[u64; LANES]; 4], l: usize, seed: [u8; 32]) {
        for (word, bytes) in words.iter_mut().zip(seed.chunks_exact(8)) {
            word[l] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        }
    }

    /// Every lane's next 64-bit output.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn next(&mut self) -> __m512i {
        let [s0, s1, s2, s3] = &mut self.0;
        let out = _mm512_add_epi64(_mm512_rol_epi64::<23>(_mm512_add_epi64(*s0, *s3)), *s0);
        let t = _mm512_slli_epi64::<17>(*s1);
        *s2 = _mm512_xor_si512(*s2, *s0);
        *s3 = _mm512_xor_si512(*s3, *s1);
        *s1 = _mm512_xor_si512(*s1, *s2);
        *s0 = _mm512_xor_si512(*s0, *s3);
        *s2 = _mm512_xor_si512(*s2, t);
        *s3 = _mm512_rol_epi64::<45>(*s3);
        out
    }
}

/// The distinct dice of a game (at most four), rolled lane by lane as [`Die::roll`] rolls
/// them.
struct LaneDice {
    /// How many dice.
    dice: usize,
    /// Each die's number of faces, in every lane.
    count: [__m512i; MAX_SEATS],
    /// Each die's rejection threshold `2^32 mod n`.
    reject_below: [__m512i; MAX_SEATS],
    /// Every die has at most 16 faces: a permutation reads a face from `registers` (each
    /// die's first eight and next eight faces), no memory access.
    in_registers: bool,
    registers: [[__m512i; 2]; MAX_SEATS],
    /// Otherwise every die's faces in one table for a gather, and where each die's begin.
    table: Vec<u64>,
    start: [__m512i; MAX_SEATS],
}

impl LaneDice {
    /// `dice` (at most four).
    #[target_feature(enable = "avx512f")]
    fn new(dice: &[&Die]) -> LaneDice {
        assert!((1..=MAX_SEATS).contains(&dice.len()));
        let faces = |die: &Die| {
            die.faces()
                .iter()
                .map(|&f| u64::from(f))
                .collect::<Vec<u64>>()
        };
        let mut lane_dice = LaneDice {
            dice: dice.len(),
            count: [splat(0); MAX_SEATS],
            reject_below: [splat(0); MAX_SEATS],
            in_registers: dice.iter().all(|d| d.faces().len() <= 16),
            registers: [[splat(0); 2]; MAX_SEATS],
            table: Vec::new(),
            start: [splat(0); MAX_SEATS],
        };
        for (d, die) in dice.iter().enumerate() {
            lane_dice.count[d] = splat(die.faces().len() as u64);
            lane_dice.reject_below[d] = splat(u64::from(die.reject_below()));
            if lane_dice.in_registers {
                let mut padded = [0u64; 16];
                padded[..die.faces().len()].copy_from_slice(&faces(die));
                let (low, high) = padded.split_at(LANES);
                lane_dice.registers[d] = [low, high].map(|half| load(half.try_into().expect("8")));
            }
            lane_dice.start[d] = splat(lane_dice.table.len() as u64);
            lane_dice.table.extend(faces(die));
        }
        lane_dice
    }

    /// Die `d`'s value of `per_die` in the lanes of `rolling[d]`, die 0's in the rest.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn pick(&self, per_die: &[__m512i; MAX_SEATS], rolling: &[__mmask8; MAX_SEATS]) -> __m512i {
        let mut v = per_die[0];
        for (&x, &mask) in per_die[1..self.dice].iter().zip(&rolling[1..]) {
            v = _mm512_mask_blend_epi64(mask, v, x);
        }
        v
    }

    /// Rolls, in each lane, die `d` where bit `l` of `rolling[d]` is set (die 0 where no
    /// die's bit is), from the generators' output `draw`: the faces, and the lanes whose draw
    /// was accepted (the others draw again, as [`Die::roll`] does).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn roll(&self, draw: __m512i, rolling: &[__mmask8; MAX_SEATS]) -> (__m512i, __mmask8) {
        let product = _mm512_mul_epu32(
            _mm512_srli_epi64::<32>(draw),
            self.pick(&self.count, rolling),
        );
        let low_word = _mm512_and_si512(product, splat(u64::from(u32::MAX)));
        let accepted = _mm512_cmpge_epu64_mask(low_word, self.pick(&self.reject_below, rolling));
        let side = _mm512_srli_epi64::<32>(product);
        let face = if self.in_registers {
            let [low, high] = self.registers[0];
            let mut face = _mm512_permutex2var_epi64(low, side, high);
            for (&[low, high], &mask) in self.registers[1..self.dice].iter().zip(&rolling[1..]) {
                face =
                    _mm512_mask_blend_epi64(mask, face, _mm512_permutex2var_epi64(low, side, high));
            }
            face
        } else {
            self.gather(side, rolling)
        };
        (face, accepted)
    }

    /// The faces at `side` of the rolled dice, read from memory (dice of more than 16 faces).
    #[target_feature(enable = "avx512f")]
    fn gather(&self, side: __m512i, rolling: &[__mmask8; MAX_SEATS]) -> __m512i {
        let index = _mm512_add_epi64(side, self.pick(&self.start, rolling));
        // SAFETY: `side` is below the rolled die's number of faces, so the index lies in that
        // die's part of `table`.
        unsafe { _mm512_i64gather_epi64::<8>(index, self.table.as_ptr().cast()) }
    }
}

/// The rules' fast path ([`Rules::roll_plain`](crate::rules::Rules::roll_plain)) on a
/// board, lane by lane.
struct LaneRules {
    one: __m512i,
    six: __m512i,
    top: __m512i,
    field_mask: __m512i,
    goal_mask: __m512i,
    track_mask: __m512i,
    track_len: __m512i,
    pieces: __m512i,
}

impl LaneRules {
    #[target_feature(enable = "avx512f")]
    fn new(board: &Board) -> LaneRules {
        LaneRules {
            one: splat(1),
            six: splat(6),
            top: splat(1 << 63),
            field_mask: splat(board.field_mask()),
            goal_mask: splat(board.goal_mask()),
            track_mask: splat(board.track_mask()),
            track_len: splat(u64::from(board.track_len())),
            pieces: splat(u64::from(board.pieces())),
        }
    }

    /// `Rules::decide_plain`: the move of a player with pieces `own` who rolled `face`, as
    /// the bits of the field left and the field reached (0 if nothing moves).
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq")]
    fn step(&self, own: __m512i, face: __m512i) -> __m512i {
        let someone_waits = _mm512_cmplt_epu64_mask(_mm512_popcnt_epi64(own), self.pieces);
        // A shift by 64 or more gives 0 in a lane, as `checked_shl(..).unwrap_or(0)` does.
        let targets = _mm512_and_si512(
            _mm512_andnot_si512(own, _mm512_sllv_epi64(own, face)),
            self.field_mask,
        );
        let from_start = _mm512_and_si512(targets, _mm512_sllv_epi64(self.one, face));
        let clear_start = someone_waits & _mm512_test_epi64_mask(from_start, from_start);
        let frontmost = _mm512_and_si512(
            _mm512_srlv_epi64(self.top, _mm512_lzcnt_epi64(targets)),
            targets,
        );
        let to = _mm512_mask_blend_epi64(clear_start, frontmost, from_start);
        let bring_in = _mm512_cmpeq_epi64_mask(face, self.six)
            & someone_waits
            & _mm512_testn_epi64_mask(own, self.one);
        _mm512_mask_blend_epi64(
            bring_in,
            _mm512_or_si512(to, _mm512_srlv_epi64(to, face)),
            self.one,
        )
    }

    /// The track field a `step` that gave `new_own` landed on, as a bit (0 for a goal field
    /// or no move): where it captures.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn landing_on_track(&self, step: __m512i, new_own: __m512i) -> __m512i {
        _mm512_and_si512(_mm512_and_si512(step, new_own), self.track_mask)
    }

    /// [`Board::turn_track`] lane by lane: track bits turned by `shift` (below the track's
    /// length) into another seat's numbering.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn turn_track(&self, on_track: __m512i, shift: __m512i) -> __m512i {
        let back = _mm512_sub_epi64(self.track_len, shift);
        _mm512_and_si512(
            _mm512_or_si512(
                _mm512_sllv_epi64(on_track, shift),
                _mm512_srlv_epi64(on_track, back),
            ),
            self.track_mask,
        )
    }

    /// The lanes in which `new_own` has every piece in the goal.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn won(&self, new_own: __m512i) -> __mmask8 {
        _mm512_cmpeq_epi64_mask(
            _mm512_popcnt_epi64(_mm512_and_si512(new_own, self.goal_mask)),
            self.pieces,
        )
    }

    /// The lanes whose roll `face` passes the turn (no 6, no win).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn passes(&self, face: __m512i, won: __mmask8) -> __mmask8 {
        !won & _mm512_cmpneq_epi64_mask(face, self.six)
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
mod tests {
    use super::*;
    use crate::sim::{CHUNK_GAMES, MAX_GAMES};

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
