//! [`Vector`] on AVX2: the eight lanes in two 256-bit registers.
//!
//! AVX2 has the variable shifts (0 past 63, as the rules need) and the 32-bit multiply; what
//! it lacks is made of them: rotations of two shifts, the unsigned comparison by flipping
//! the top bit, population counts by a nibble table (`pshufb`) summed by `psadbw`, the
//! highest bit by smearing it downwards, the table look-up by 32-bit permutations.

use super::{Mask, Vector};
use crate::sim::lanes::LANES;
use std::arch::x86_64::*;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// Lanes 0 to 3 in the first register, 4 to 7 in the second.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2([__m256i; 2]);

/// A set of lanes: all ones in a lane of the set, 0 elsewhere, as AVX2's comparisons give.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Mask([__m256i; 2]);

/// An intrinsic on each register of one or two operands (both halves of the lanes), written
/// out rather than through a closure: a closure is compiled apart from the function that
/// enables AVX2, and its intrinsics would become calls.
macro_rules! halves {
    ($f:ident, $a:expr) => {{
        let a = $a;
        // SAFETY: see the note above the impls.
        unsafe { [$f(a[0]), $f(a[1])] }
    }};
    ($f:ident, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        // SAFETY: see the note above the impls.
        unsafe { [$f(a[0], b[0]), $f(a[1], b[1])] }
    }};
}

// SAFETY of every `unsafe` block below: the `Avx2` values exist only where the processor
// has AVX2 (the trait's contract), and every intrinsic used is of AVX or AVX2; loads and
// stores are unaligned ones of exactly the arrays they name.

impl BitAnd for Avx2Mask {
    type Output = Avx2Mask;
    #[inline(always)]
    fn bitand(self, other: Avx2Mask) -> Avx2Mask {
        Avx2Mask(halves!(_mm256_and_si256, self.0, other.0))
    }
}

impl BitOr for Avx2Mask {
    type Output = Avx2Mask;
    #[inline(always)]
    fn bitor(self, other: Avx2Mask) -> Avx2Mask {
        Avx2Mask(halves!(_mm256_or_si256, self.0, other.0))
    }
}

impl BitXor for Avx2Mask {
    type Output = Avx2Mask;
    #[inline(always)]
    fn bitxor(self, other: Avx2Mask) -> Avx2Mask {
        Avx2Mask(halves!(_mm256_xor_si256, self.0, other.0))
    }
}

impl Not for Avx2Mask {
    type Output = Avx2Mask;
    #[inline(always)]
    fn not(self) -> Avx2Mask {
        // SAFETY: see the note above the impls.
        let ones = unsafe { _mm256_set1_epi64x(-1) };
        Avx2Mask(halves!(_mm256_xor_si256, self.0, [ones, ones]))
    }
}

impl Mask for Avx2Mask {
    #[inline(always)]
    fn from_bits(bits: u8) -> Avx2Mask {
        // Each lane tests its own bit of the broadcast bits.
        unsafe {
            let all = _mm256_set1_epi64x(i64::from(bits));
            let low = _mm256_setr_epi64x(1, 2, 4, 8);
            let high = _mm256_setr_epi64x(16, 32, 64, 128);
            Avx2Mask([
                _mm256_cmpeq_epi64(_mm256_and_si256(all, low), low),
                _mm256_cmpeq_epi64(_mm256_and_si256(all, high), high),
            ])
        }
    }

    #[inline(always)]
    fn bits(self) -> u8 {
        let [low, high] = self.0;
        let (low, high) = unsafe {
            (
                _mm256_movemask_pd(_mm256_castsi256_pd(low)),
                _mm256_movemask_pd(_mm256_castsi256_pd(high)),
            )
        };
        (low | high << 4) as u8
    }
}

unsafe impl Vector for Avx2 {
    type Mask = Avx2Mask;
    /// The sixteen values as 32-bit numbers in two registers: a permutation reads them
    /// without touching memory.
    type Table = [__m256i; 2];

    #[inline(always)]
    fn splat(x: u64) -> Avx2 {
        let v = unsafe { _mm256_set1_epi64x(x as i64) };
        Avx2([v, v])
    }

    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Avx2 {
        let p: *const __m256i = a.as_ptr().cast();
        // `p` and `p + 1` are the two halves of `a`.
        unsafe { Avx2([_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))]) }
    }

    #[inline(always)]
    fn store(self) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        let p: *mut __m256i = out.as_mut_ptr().cast();
        // `p` and `p + 1` are the two halves of `out`.
        unsafe {
            _mm256_storeu_si256(p, self.0[0]);
            _mm256_storeu_si256(p.add(1), self.0[1]);
        }
        out
    }

    #[inline(always)]
    fn add(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_add_epi64, self.0, other.0))
    }

    #[inline(always)]
    fn sub(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_sub_epi64, self.0, other.0))
    }

    #[inline(always)]
    fn and(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_and_si256, self.0, other.0))
    }

    #[inline(always)]
    fn or(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_or_si256, self.0, other.0))
    }

    #[inline(always)]
    fn xor(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_xor_si256, self.0, other.0))
    }

    #[inline(always)]
    fn and_not(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_andnot_si256, other.0, self.0))
    }

    #[inline(always)]
    fn shl(self, by: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_sllv_epi64, self.0, by.0))
    }

    #[inline(always)]
    fn shr(self, by: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_srlv_epi64, self.0, by.0))
    }

    #[inline(always)]
    fn shl_by<const N: i32>(self) -> Avx2 {
        // SAFETY: see the note above the impls.
        unsafe {
            Avx2([
                _mm256_slli_epi64::<N>(self.0[0]),
                _mm256_slli_epi64::<N>(self.0[1]),
            ])
        }
    }

    #[inline(always)]
    fn shr_by<const N: i32>(self) -> Avx2 {
        // SAFETY: see the note above the impls.
        unsafe {
            Avx2([
                _mm256_srli_epi64::<N>(self.0[0]),
                _mm256_srli_epi64::<N>(self.0[1]),
            ])
        }
    }

    #[inline(always)]
    fn rotate_left<const L: i32, const R: i32>(self) -> Avx2 {
        debug_assert_eq!(L + R, 64);
        self.shl_by::<L>().or(self.shr_by::<R>())
    }

    #[inline(always)]
    fn mul_low32(self, other: Avx2) -> Avx2 {
        Avx2(halves!(_mm256_mul_epu32, self.0, other.0))
    }

    #[inline(always)]
    fn count_ones(self) -> Avx2 {
        Avx2([count_ones_256(self.0[0]), count_ones_256(self.0[1])])
    }

    #[inline(always)]
    fn highest_bit(self) -> Avx2 {
        // Every bit below the highest set, then the highest alone.
        let mut smeared = self;
        smeared = smeared.or(smeared.shr_by::<1>());
        smeared = smeared.or(smeared.shr_by::<2>());
        smeared = smeared.or(smeared.shr_by::<4>());
        smeared = smeared.or(smeared.shr_by::<8>());
        smeared = smeared.or(smeared.shr_by::<16>());
        smeared = smeared.or(smeared.shr_by::<32>());
        smeared.and_not(smeared.shr_by::<1>())
    }

    #[inline(always)]
    fn eq(self, other: Avx2) -> Avx2Mask {
        Avx2Mask(halves!(_mm256_cmpeq_epi64, self.0, other.0))
    }

    #[inline(always)]
    fn lt(self, other: Avx2) -> Avx2Mask {
        // Unsigned order is the signed order of the values with the top bit flipped.
        let top = Avx2::splat(1 << 63);
        let (a, b) = (self.xor(top), other.xor(top));
        Avx2Mask(halves!(_mm256_cmpgt_epi64, b.0, a.0))
    }

    #[inline(always)]
    fn nonzero(self) -> Avx2Mask {
        !self.eq(Avx2::splat(0))
    }

    #[inline(always)]
    fn select(self, mask: Avx2Mask, if_set: Avx2) -> Avx2 {
        let [m0, m1] = mask.0;
        // SAFETY: see the note above the impls.
        unsafe {
            Avx2([
                _mm256_blendv_epi8(self.0[0], if_set.0[0], m0),
                _mm256_blendv_epi8(self.0[1], if_set.0[1], m1),
            ])
        }
    }

    #[inline(always)]
    fn table(values: &[u64; 16]) -> [__m256i; 2] {
        debug_assert!(values.iter().all(|&v| v <= u64::from(u32::MAX)));
        let low: [u32; 8] = std::array::from_fn(|k| values[k] as u32);
        let high: [u32; 8] = std::array::from_fn(|k| values[8 + k] as u32);
        // SAFETY: see the note above the impls.
        unsafe {
            [
                _mm256_loadu_si256(low.as_ptr().cast()),
                _mm256_loadu_si256(high.as_ptr().cast()),
            ]
        }
    }

    #[inline(always)]
    fn look_up(table: &[__m256i; 2], index: Avx2) -> Avx2 {
        Avx2([
            look_up_256(table, index.0[0]),
            look_up_256(table, index.0[1]),
        ])
    }

    #[inline(always)]
    unsafe fn gather(base: &[u64], index: Avx2) -> Avx2 {
        // SAFETY: the caller's contract puts every lane's index inside `base`.
        let p: *const i64 = base.as_ptr().cast();
        unsafe {
            Avx2([
                _mm256_i64gather_epi64::<8>(p, index.0[0]),
                _mm256_i64gather_epi64::<8>(p, index.0[1]),
            ])
        }
    }
}

/// Each 64-bit lane's number of set bits: each nibble's count from a table (`pshufb`), the
/// lane's bytes summed (`psadbw`).
#[inline(always)]
fn count_ones_256(a: __m256i) -> __m256i {
    // SAFETY: see the note above the impls.
    unsafe {
        let nibble_ones = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low_nibbles = _mm256_set1_epi8(0x0f);
        let low = _mm256_and_si256(a, low_nibbles);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(a), low_nibbles);
        let per_byte = _mm256_add_epi8(
            _mm256_shuffle_epi8(nibble_ones, low),
            _mm256_shuffle_epi8(nibble_ones, high),
        );
        _mm256_sad_epu8(per_byte, _mm256_setzero_si256())
    }
}

/// [`Vector::look_up`] on four lanes: each lane's value from the 32-bit permutations of both
/// halves of the table (a lane's index `i`, read as two 32-bit indices `i` and 0, picks
/// entry `i mod 8` into the lane's low half), the half picked by bit 3 of the index.
#[inline(always)]
fn look_up_256(table: &[__m256i; 2], index: __m256i) -> __m256i {
    // SAFETY: see the note above the impls.
    unsafe {
        let low = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(table[0], index));
        let high = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(table[1], index));
        // `blendv_pd` picks by each lane's top bit: bit 3 of the index moved there.
        let upper_half = _mm256_castsi256_pd(_mm256_slli_epi64::<60>(index));
        let both = _mm256_castpd_si256(_mm256_blendv_pd(low, high, upper_half));
        _mm256_and_si256(both, _mm256_set1_epi64x(i64::from(u32::MAX)))
    }
}
