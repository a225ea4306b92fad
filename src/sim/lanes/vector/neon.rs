//! [`Vector`] on NEON (64-bit ARM): the eight lanes in four 128-bit registers.
//!
//! NEON has what the games need in 64-bit lanes except a population count, a leading-zero
//! count and a multiply; they are made of byte and 32-bit instructions: the population count
//! by bytes (`cnt`) summed by pairwise widening adds, the highest bit from the 32-bit
//! leading-zero count, the multiply from 32-bit halves (`umull`), the table look-up by a
//! byte permutation (`tbl`) over the sixteen values as 32-bit numbers. Its variable shift
//! (`ushl`) reads a signed count from each lane's low byte, so the lanes whose count is 64
//! or more are zeroed apart. NEON has no gather: that is eight scalar loads.

use super::{Mask, Vector};
use crate::sim::lanes::LANES;
use std::arch::aarch64::*;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// Lanes 0 and 1 in the first register, 2 and 3 in the second, and so on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon([uint64x2_t; 4]);

/// A set of lanes: all ones in a lane of the set, 0 elsewhere, as NEON's comparisons give.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NeonMask([uint64x2_t; 4]);

/// An intrinsic on each register of one or two operands, written out as AVX2's are.
macro_rules! quads {
    ($f:ident, $a:expr) => {{
        let a = $a;
        // SAFETY: see the note above the impls.
        unsafe { [$f(a[0]), $f(a[1]), $f(a[2]), $f(a[3])] }
    }};
    ($f:ident, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        // SAFETY: see the note above the impls.
        unsafe {
            [
                $f(a[0], b[0]),
                $f(a[1], b[1]),
                $f(a[2], b[2]),
                $f(a[3], b[3]),
            ]
        }
    }};
}

/// One of the functions below (an operation of several instructions on one register) on
/// each register of one or two operands.
macro_rules! each {
    ($f:ident, $a:expr) => {{
        let a = $a;
        [$f(a[0]), $f(a[1]), $f(a[2]), $f(a[3])]
    }};
    ($f:ident, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        [
            $f(a[0], b[0]),
            $f(a[1], b[1]),
            $f(a[2], b[2]),
            $f(a[3], b[3]),
        ]
    }};
}

// SAFETY of every `unsafe` block below: the `Neon` values exist only where the processor
// has NEON (the trait's contract), and every intrinsic used is of NEON; loads and stores
// are of exactly the arrays they name.

/// Two 64-bit lanes from two `u64`.
#[inline(always)]
fn pair(low: u64, high: u64) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe { vsetq_lane_u64::<1>(high, vdupq_n_u64(low)) }
}

impl BitAnd for NeonMask {
    type Output = NeonMask;
    #[inline(always)]
    fn bitand(self, other: NeonMask) -> NeonMask {
        NeonMask(quads!(vandq_u64, self.0, other.0))
    }
}

impl BitOr for NeonMask {
    type Output = NeonMask;
    #[inline(always)]
    fn bitor(self, other: NeonMask) -> NeonMask {
        NeonMask(quads!(vorrq_u64, self.0, other.0))
    }
}

impl BitXor for NeonMask {
    type Output = NeonMask;
    #[inline(always)]
    fn bitxor(self, other: NeonMask) -> NeonMask {
        NeonMask(quads!(veorq_u64, self.0, other.0))
    }
}

impl Not for NeonMask {
    type Output = NeonMask;
    #[inline(always)]
    fn not(self) -> NeonMask {
        NeonMask(each!(not, self.0))
    }
}

impl Mask for NeonMask {
    #[inline(always)]
    fn from_bits(bits: u8) -> NeonMask {
        // Each lane tests its own bit of the broadcast bits.
        // SAFETY: see the note above the impls.
        let all = unsafe { vdupq_n_u64(u64::from(bits)) };
        let lanes = [pair(1, 2), pair(4, 8), pair(16, 32), pair(64, 128)];
        NeonMask(quads!(vtstq_u64, [all; 4], lanes))
    }

    #[inline(always)]
    fn bits(self) -> u8 {
        // Each lane's own bit kept, then the bits of all lanes gathered into one register
        // and its two lanes added (`addp`).
        let lanes = [pair(1, 2), pair(4, 8), pair(16, 32), pair(64, 128)];
        let [b0, b1, b2, b3] = quads!(vandq_u64, self.0, lanes);
        // SAFETY: see the note above the impls.
        unsafe { vpaddd_u64(vorrq_u64(vorrq_u64(b0, b1), vorrq_u64(b2, b3))) as u8 }
    }
}

unsafe impl Vector for Neon {
    type Mask = NeonMask;
    /// The sixteen values as 32-bit numbers, byte by byte in four registers: what `tbl`
    /// reads.
    type Table = uint8x16x4_t;

    #[inline(always)]
    fn splat(x: u64) -> Neon {
        // SAFETY: see the note above the impls.
        let v = unsafe { vdupq_n_u64(x) };
        Neon([v; 4])
    }

    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Neon {
        let p = a.as_ptr();
        // SAFETY: `p`, `p + 2`, `p + 4` and `p + 6` start the four pairs of lanes of `a`.
        unsafe {
            Neon([
                vld1q_u64(p),
                vld1q_u64(p.add(2)),
                vld1q_u64(p.add(4)),
                vld1q_u64(p.add(6)),
            ])
        }
    }

    #[inline(always)]
    fn store(self) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        let p = out.as_mut_ptr();
        // SAFETY: `p`, `p + 2`, `p + 4` and `p + 6` start the four pairs of lanes of `out`.
        unsafe {
            vst1q_u64(p, self.0[0]);
            vst1q_u64(p.add(2), self.0[1]);
            vst1q_u64(p.add(4), self.0[2]);
            vst1q_u64(p.add(6), self.0[3]);
        }
        out
    }

    #[inline(always)]
    fn add(self, other: Neon) -> Neon {
        Neon(quads!(vaddq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn sub(self, other: Neon) -> Neon {
        Neon(quads!(vsubq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn and(self, other: Neon) -> Neon {
        Neon(quads!(vandq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn or(self, other: Neon) -> Neon {
        Neon(quads!(vorrq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn xor(self, other: Neon) -> Neon {
        Neon(quads!(veorq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn and_not(self, other: Neon) -> Neon {
        // `bic` is `a & !b`.
        Neon(quads!(vbicq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn shl(self, by: Neon) -> Neon {
        Neon(each!(shl, self.0, by.0))
    }

    #[inline(always)]
    fn shr(self, by: Neon) -> Neon {
        Neon(each!(shr, self.0, by.0))
    }

    #[inline(always)]
    fn shl_by<const N: i32>(self) -> Neon {
        // SAFETY: see the note above the impls.
        let shift = |a| unsafe { vshlq_n_u64::<N>(a) };
        Neon(each!(shift, self.0))
    }

    #[inline(always)]
    fn shr_by<const N: i32>(self) -> Neon {
        // SAFETY: see the note above the impls.
        let shift = |a| unsafe { vshrq_n_u64::<N>(a) };
        Neon(each!(shift, self.0))
    }

    #[inline(always)]
    fn rotate_left<const L: i32, const R: i32>(self) -> Neon {
        debug_assert_eq!(L + R, 64);
        // Two instructions: the left shift, then `sri` inserts the lane shifted right by `R`
        // into the `L` low bits that the left shift cleared.
        // SAFETY: see the note above the impls.
        let rotate = |a| unsafe { vsriq_n_u64::<R>(vshlq_n_u64::<L>(a), a) };
        Neon(each!(rotate, self.0))
    }

    #[inline(always)]
    fn mul_low32(self, other: Neon) -> Neon {
        // `umull` multiplies 32-bit elements into 64-bit products: `uzp1` gathers the low
        // halves of four lanes into one register, whose lower and upper halves `umull` and
        // `umull2` multiply (eight instructions for eight lanes; narrowing each register
        // apart takes twelve).
        let [a0, a1, a2, a3] = self.0;
        let [b0, b1, b2, b3] = other.0;
        // SAFETY: see the note above the impls.
        unsafe {
            let low = |x: uint64x2_t, y: uint64x2_t| {
                vuzp1q_u32(vreinterpretq_u32_u64(x), vreinterpretq_u32_u64(y))
            };
            let (a01, a23, b01, b23) = (low(a0, a1), low(a2, a3), low(b0, b1), low(b2, b3));
            Neon([
                vmull_u32(vget_low_u32(a01), vget_low_u32(b01)),
                vmull_high_u32(a01, b01),
                vmull_u32(vget_low_u32(a23), vget_low_u32(b23)),
                vmull_high_u32(a23, b23),
            ])
        }
    }

    #[inline(always)]
    fn count_ones(self) -> Neon {
        Neon(each!(count_ones, self.0))
    }

    #[inline(always)]
    fn highest_bit(self) -> Neon {
        Neon(each!(highest_bit, self.0))
    }

    #[inline(always)]
    fn eq(self, other: Neon) -> NeonMask {
        NeonMask(quads!(vceqq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn lt(self, other: Neon) -> NeonMask {
        // `cmhi` with the operands swapped: unsigned, unlike AVX2's comparison.
        NeonMask(quads!(vcltq_u64, self.0, other.0))
    }

    #[inline(always)]
    fn nonzero(self) -> NeonMask {
        // `cmtst` of each lane with itself: all ones where any bit is set.
        NeonMask(quads!(vtstq_u64, self.0, self.0))
    }

    #[inline(always)]
    fn select(self, mask: NeonMask, if_set: Neon) -> Neon {
        let [m0, m1, m2, m3] = mask.0;
        let (a, b) = (self.0, if_set.0);
        // SAFETY: see the note above the impls.
        unsafe {
            Neon([
                vbslq_u64(m0, b[0], a[0]),
                vbslq_u64(m1, b[1], a[1]),
                vbslq_u64(m2, b[2], a[2]),
                vbslq_u64(m3, b[3], a[3]),
            ])
        }
    }

    #[inline(always)]
    fn table(values: &[u64; 16]) -> uint8x16x4_t {
        debug_assert!(values.iter().all(|&v| v <= u64::from(u32::MAX)));
        let bytes: [u8; 64] = std::array::from_fn(|b| (values[b / 4] as u32).to_le_bytes()[b % 4]);
        let p = bytes.as_ptr();
        // SAFETY: `p`, `p + 16`, `p + 32` and `p + 48` start the four quarters of `bytes`.
        unsafe {
            uint8x16x4_t(
                vld1q_u8(p),
                vld1q_u8(p.add(16)),
                vld1q_u8(p.add(32)),
                vld1q_u8(p.add(48)),
            )
        }
    }

    #[inline(always)]
    fn look_up(table: &uint8x16x4_t, index: Neon) -> Neon {
        let look_up = |index| look_up(table, index);
        Neon(each!(look_up, index.0))
    }

    #[inline(always)]
    unsafe fn gather(base: &[u64], index: Neon) -> Neon {
        // NEON has no gather: eight scalar loads.
        let index = index.store();
        // SAFETY: the caller's contract puts every lane's index inside `base`.
        let values = index.map(|i| unsafe { *base.get_unchecked(i as usize) });
        Neon::load(&values)
    }
}

/// [`Not`] on one register: `mvn` has no 64-bit form, but the bits are the same in 32-bit
/// elements.
#[inline(always)]
fn not(a: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe { vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(a))) }
}

/// [`Vector::shl`] on one register. `ushl` shifts by the signed low byte of the count's
/// lane (right where negative, and a count of 256 reads as 0), so the lanes whose count is
/// 64 or more are zeroed apart.
#[inline(always)]
fn shl(a: uint64x2_t, by: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe {
        let in_range = vcltq_u64(by, vdupq_n_u64(64));
        vandq_u64(vshlq_u64(a, vreinterpretq_s64_u64(by)), in_range)
    }
}

/// [`Vector::shr`] on one register: `ushl` by the negated count, which shifts right; counts
/// of 64 or more zeroed apart as in [`shl`].
#[inline(always)]
fn shr(a: uint64x2_t, by: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe {
        let in_range = vcltq_u64(by, vdupq_n_u64(64));
        let back = vnegq_s64(vreinterpretq_s64_u64(by));
        vandq_u64(vshlq_u64(a, back), in_range)
    }
}

/// [`Vector::count_ones`] on one register: `cnt` counts per byte, and pairwise widening
/// adds (`uaddlp`) sum the bytes into 16-, 32- and then 64-bit lanes.
#[inline(always)]
fn count_ones(a: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe {
        let per_byte = vcntq_u8(vreinterpretq_u8_u64(a));
        vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(per_byte)))
    }
}

/// [`Vector::highest_bit`] on one register. NEON counts leading zeros only up to 32-bit
/// elements: each 32-bit half's highest bit is its top bit shifted right by the half's
/// leading zeros (32 for a zero half, a shift that `ushl` makes 0); then, where the lane's
/// upper half has its bit, the lower half's is cleared (six instructions where smearing the
/// bit downwards takes thirteen).
#[inline(always)]
fn highest_bit(a: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe {
        let zeros = vreinterpretq_s32_u32(vclzq_u32(vreinterpretq_u32_u64(a)));
        let halves = vshlq_u32(vdupq_n_u32(1 << 31), vnegq_s32(zeros));
        let halves = vreinterpretq_u64_u32(halves);
        let upper = vtstq_u64(halves, vdupq_n_u64(0xffff_ffff_0000_0000));
        vbicq_u64(halves, vshrq_n_u64::<32>(upper))
    }
}

/// [`Vector::look_up`] on one register. Entry `i` is bytes `4i` to `4i + 3` of the table,
/// so a lane's byte indices are `4i + [0, 1, 2, 3]` in its low four bytes, made by one
/// multiply-add of its low 32-bit half (`4i` is below 64: no byte carries into the next),
/// and 64 in its high four, which `tbl` reads as 0 (past the table's 64 bytes).
#[inline(always)]
fn look_up(table: &uint8x16x4_t, index: uint64x2_t) -> uint64x2_t {
    // SAFETY: see the note above the impls.
    unsafe {
        let i = vreinterpretq_u32_u64(vandq_u64(index, vdupq_n_u64(15)));
        let offsets = vreinterpretq_u32_u64(vdupq_n_u64(0x4040_4040_0302_0100));
        let bytes = vmlaq_u32(offsets, i, vdupq_n_u32(0x0404_0404));
        vreinterpretq_u64_u8(vqtbl4q_u8(*table, vreinterpretq_u8_u32(bytes)))
    }
}
