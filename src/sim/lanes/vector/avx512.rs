//! [`Vector`] on AVX-512 (F, CD and VPOPCNTDQ): the eight lanes in one 512-bit register,
//! sets of lanes as the processor's mask registers, every operation one instruction.

use super::{Mask, Vector};
use crate::sim::lanes::LANES;
use std::arch::x86_64::*;

/// The eight lanes of one register.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(__m512i);

// A set of lanes is the processor's mask: bit `l` for lane `l`.
impl Mask for __mmask8 {
    #[inline(always)]
    fn from_bits(bits: u8) -> __mmask8 {
        bits
    }

    #[inline(always)]
    fn bits(self) -> u8 {
        self
    }
}

// SAFETY of every `unsafe` block below: the `Avx512` values exist only where the processor
// has AVX-512 F, CD and VPOPCNTDQ (the trait's contract), and every intrinsic used is of
// those; loads and stores are unaligned ones of exactly the arrays they name.

unsafe impl Vector for Avx512 {
    type Mask = __mmask8;
    /// Two registers: a permutation of both reads a value without touching memory.
    type Table = [__m512i; 2];

    #[inline(always)]
    fn splat(x: u64) -> Avx512 {
        Avx512(unsafe { _mm512_set1_epi64(x as i64) })
    }

    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Avx512 {
        Avx512(unsafe { _mm512_loadu_si512(a.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) };
        out
    }

    #[inline(always)]
    fn add(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn sub(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_sub_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_and_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn or(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_or_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_xor_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_andnot_si512(other.0, self.0) })
    }

    #[inline(always)]
    fn shl(self, by: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_sllv_epi64(self.0, by.0) })
    }

    #[inline(always)]
    fn shr(self, by: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_srlv_epi64(self.0, by.0) })
    }

    #[inline(always)]
    fn shl_by<const N: i32>(self) -> Avx512 {
        // A shift by a constant vector: the compiler emits the immediate form.
        self.shl(Avx512::splat(N as u64))
    }

    #[inline(always)]
    fn shr_by<const N: i32>(self) -> Avx512 {
        self.shr(Avx512::splat(N as u64))
    }

    #[inline(always)]
    fn rotate_left<const L: i32, const R: i32>(self) -> Avx512 {
        Avx512(unsafe { _mm512_rol_epi64::<L>(self.0) })
    }

    #[inline(always)]
    fn mul_low32(self, other: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_mul_epu32(self.0, other.0) })
    }

    #[inline(always)]
    fn count_ones(self) -> Avx512 {
        Avx512(unsafe { _mm512_popcnt_epi64(self.0) })
    }

    #[inline(always)]
    fn highest_bit(self) -> Avx512 {
        // The top bit shifted down by the leading zeros: 0 for a lane of 0 (64 of them).
        let down = Avx512(unsafe { _mm512_lzcnt_epi64(self.0) });
        Avx512::splat(1 << 63).shr(down).and(self)
    }

    #[inline(always)]
    fn eq(self, other: Avx512) -> __mmask8 {
        unsafe { _mm512_cmpeq_epi64_mask(self.0, other.0) }
    }

    #[inline(always)]
    fn lt(self, other: Avx512) -> __mmask8 {
        unsafe { _mm512_cmplt_epu64_mask(self.0, other.0) }
    }

    #[inline(always)]
    fn nonzero(self) -> __mmask8 {
        unsafe { _mm512_test_epi64_mask(self.0, self.0) }
    }

    #[inline(always)]
    fn select(self, mask: __mmask8, if_set: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_mask_blend_epi64(mask, self.0, if_set.0) })
    }

    #[inline(always)]
    fn table(values: &[u64; 16]) -> [__m512i; 2] {
        let p: *const __m512i = values.as_ptr().cast();
        // `p` and `p + 1` are the two halves of `values`.
        unsafe { [_mm512_loadu_si512(p), _mm512_loadu_si512(p.add(1))] }
    }

    #[inline(always)]
    fn look_up(table: &[__m512i; 2], index: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_permutex2var_epi64(table[0], index.0, table[1]) })
    }

    #[inline(always)]
    unsafe fn gather(base: &[u64], index: Avx512) -> Avx512 {
        // SAFETY: the caller's contract puts every lane's index inside `base`.
        Avx512(unsafe { _mm512_i64gather_epi64::<8>(index.0, base.as_ptr().cast()) })
    }
}
