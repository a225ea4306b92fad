//! Eight 64-bit lanes: the operations the lanes' games are written in, once, and their
//! implementations for each processor.
//!
//! The games ([`super::duel`], [`super::table`]) are generic over [`Vector`]. Each
//! implementation is a thin layer over one instruction set: [`avx512`] (one 512-bit
//! register) and [`avx2`] (two 256-bit registers) on x86-64, `neon` (four 128-bit
//! registers) on 64-bit ARM, [`portable`] (eight `u64`, which the compiler turns into
//! whatever vectors the target has: NEON on ARM, SIMD128 in WebAssembly, SSE2 on any
//! x86-64). Their methods are `#[inline(always)]`, so the game's loop, compiled inside a
//! function that enables the instruction set (see [`super::path`]), becomes straight vector
//! code with no call per operation.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
pub(crate) mod portable;

use super::LANES;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of lanes: which of the eight lanes an operation applies to.
pub(crate) trait Mask:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    /// The lanes whose bit is set in `bits` (bit `l` for lane `l`).
    fn from_bits(bits: u8) -> Self;
    /// Bit `l` set for each lane `l` in the set.
    fn bits(self) -> u8;
}

/// Eight unsigned 64-bit lanes.
///
/// # Safety
///
/// An implementation may use the instructions of one processor family: its values may be
/// made and used only in code that runs where the processor has them, which
/// [`super::path::Path::run`] ensures.
pub(crate) unsafe trait Vector: Copy {
    /// A set of lanes, as the comparisons give it.
    type Mask: Mask;
    /// Sixteen values for [`Vector::look_up`], held as the processor reads them fastest.
    type Table: Copy;

    /// Every lane holding `x`.
    fn splat(x: u64) -> Self;
    /// The lanes `a`.
    fn load(a: &[u64; LANES]) -> Self;
    /// The lanes.
    fn store(self) -> [u64; LANES];

    /// Lane by lane, wrapping.
    fn add(self, other: Self) -> Self;
    /// Lane by lane, wrapping.
    fn sub(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;

    /// Each lane shifted left by `by`'s lane, 0 where that is 64 or more (as
    /// `checked_shl(..).unwrap_or(0)`).
    fn shl(self, by: Self) -> Self;
    /// Each lane shifted right by `by`'s lane, 0 where that is 64 or more.
    fn shr(self, by: Self) -> Self;
    /// Each lane shifted left by `N` (below 64).
    fn shl_by<const N: i32>(self) -> Self;
    /// Each lane shifted right by `N` (below 64).
    fn shr_by<const N: i32>(self) -> Self;
    /// Each lane rotated left by `L`; `R` is `64 - L` (spelled out for the processors that
    /// rotate by two shifts).
    fn rotate_left<const L: i32, const R: i32>(self) -> Self;
    /// The low 32 bits of each lane times the low 32 bits of `other`'s, as 64 bits.
    fn mul_low32(self, other: Self) -> Self;

    /// Each lane's number of set bits.
    fn count_ones(self) -> Self;
    /// Each lane's highest set bit alone (0 where the lane is 0).
    fn highest_bit(self) -> Self;

    /// The lanes equal to `other`'s.
    fn eq(self, other: Self) -> Self::Mask;
    /// The lanes below `other`'s, unsigned.
    fn lt(self, other: Self) -> Self::Mask;
    /// The lanes that are not 0.
    fn nonzero(self) -> Self::Mask;
    /// `if_set` in the lanes of `mask`, `self` in the others.
    fn select(self, mask: Self::Mask, if_set: Self) -> Self;

    /// `values` (each below 2^32) made ready for [`Vector::look_up`].
    fn table(values: &[u64; 16]) -> Self::Table;
    /// In each lane, the table's value at the lane's index (its low four bits).
    fn look_up(table: &Self::Table, index: Self) -> Self;
    /// In each lane, `base[index]`.
    ///
    /// # Safety
    ///
    /// Every lane of `index` is below `base.len()`.
    unsafe fn gather(base: &[u64], index: Self) -> Self;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes covering the edges of each operation: 0, 1, the top bit, all ones, shifts of
    /// 63, 64 and far more, values above 2^32.
    const CASES: [[u64; LANES]; 4] = [
        [0, 1, 2, 63, 64, 65, 1 << 63, u64::MAX],
        [
            u64::MAX,
            0x8000_0000_0000_0001,
            5,
            1 << 40,
            7,
            6,
            0x1_0000_0003,
            3 << 32,
        ],
        [
            12,
            0,
            63,
            1,
            1 << 32,
            40,
            0xdead_beef_f00d,
            0x0123_4567_89ab_cdef,
        ],
        [6, 6, 0, 15, 16, 3, 9, 2],
    ];

    /// `V`'s result of every operation on every pair of cases, as plain numbers.
    fn results<V: Vector>() -> Vec<[u64; LANES]> {
        let mut out = Vec::new();
        let values: [u64; 16] = std::array::from_fn(|i| (i as u64 + 1) * 0x0f0f_0f0f);
        let table = V::table(&values);
        let base: Vec<u64> = (0..100u64).map(|i| i * 3 + 1).collect();
        let mask = |m: V::Mask| {
            let bits = m.bits();
            assert_eq!(V::Mask::from_bits(bits).bits(), bits);
            [u64::from(bits); LANES]
        };
        for a in CASES {
            let x = V::load(&a);
            out.push(x.store());
            out.push(x.count_ones().store());
            out.push(x.highest_bit().store());
            out.push(x.shl_by::<3>().store());
            out.push(x.shr_by::<32>().store());
            out.push(x.rotate_left::<23, 41>().store());
            out.push(x.rotate_left::<45, 19>().store());
            out.push(mask(x.nonzero()));
            out.push(V::look_up(&table, x).store());
            let index = V::load(&a.map(|v| v % 100));
            // SAFETY: every index is below 100.
            out.push(unsafe { V::gather(&base, index) }.store());
            for b in CASES {
                let y = V::load(&b);
                out.push(x.add(y).store());
                out.push(x.sub(y).store());
                out.push(x.and(y).store());
                out.push(x.or(y).store());
                out.push(x.xor(y).store());
                out.push(x.and_not(y).store());
                out.push(x.shl(y).store());
                out.push(x.shr(y).store());
                out.push(x.mul_low32(y).store());
                out.push(mask(x.eq(y)));
                out.push(mask(x.lt(y)));
                let m = x.lt(y);
                out.push(x.select(m, y).store());
                out.push(mask(!m & x.nonzero() | m ^ y.eq(x)));
                out.push(x.select(V::Mask::from_bits(0b1010_0110), y).store());
            }
        }
        out
    }

    /// What the operations mean, lane by lane in plain Rust.
    fn expected() -> Vec<[u64; LANES]> {
        let lanes = |f: &dyn Fn(usize) -> u64| std::array::from_fn::<u64, LANES, _>(f);
        let bits = |f: &dyn Fn(usize) -> bool| {
            [(0..LANES).fold(0u64, |m, l| m | u64::from(f(l)) << l); LANES]
        };
        let mut out = Vec::new();
        for a in CASES {
            out.push(a);
            out.push(lanes(&|l| u64::from(a[l].count_ones())));
            out.push(lanes(&|l| {
                if a[l] == 0 {
                    0
                } else {
                    1 << (63 - a[l].leading_zeros())
                }
            }));
            out.push(lanes(&|l| a[l] << 3));
            out.push(lanes(&|l| a[l] >> 32));
            out.push(lanes(&|l| a[l].rotate_left(23)));
            out.push(lanes(&|l| a[l].rotate_left(45)));
            out.push(bits(&|l| a[l] != 0));
            out.push(lanes(&|l| ((a[l] & 15) + 1) * 0x0f0f_0f0f));
            out.push(lanes(&|l| (a[l] % 100) * 3 + 1));
            for b in CASES {
                let shift = |v: u64, by: u64, left: bool| match (by < 64, left) {
                    (false, _) => 0,
                    (true, true) => v << by,
                    (true, false) => v >> by,
                };
                out.push(lanes(&|l| a[l].wrapping_add(b[l])));
                out.push(lanes(&|l| a[l].wrapping_sub(b[l])));
                out.push(lanes(&|l| a[l] & b[l]));
                out.push(lanes(&|l| a[l] | b[l]));
                out.push(lanes(&|l| a[l] ^ b[l]));
                out.push(lanes(&|l| a[l] & !b[l]));
                out.push(lanes(&|l| shift(a[l], b[l], true)));
                out.push(lanes(&|l| shift(a[l], b[l], false)));
                out.push(lanes(&|l| (a[l] & 0xffff_ffff) * (b[l] & 0xffff_ffff)));
                out.push(bits(&|l| a[l] == b[l]));
                out.push(bits(&|l| a[l] < b[l]));
                out.push(lanes(&|l| if a[l] < b[l] { b[l] } else { a[l] }));
                out.push(bits(&|l| {
                    let m = a[l] < b[l];
                    (!m && a[l] != 0) || (m ^ (a[l] == b[l]))
                }));
                out.push(lanes(&|l| {
                    if 0b1010_0110 >> l & 1 == 1 {
                        b[l]
                    } else {
                        a[l]
                    }
                }));
            }
        }
        out
    }

    #[test]
    fn the_portable_lanes_mean_what_the_operations_say() {
        assert_eq!(results::<portable::Portable>(), expected());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_lanes_mean_what_the_operations_say() {
        if !crate::sim::LanesPath::Avx2.runs_here() {
            eprintln!("no AVX2 here: nothing compared");
            return;
        }
        // The processor has AVX2 (checked above), as `Avx2` needs.
        assert_eq!(results::<avx2::Avx2>(), expected());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx512_lanes_mean_what_the_operations_say() {
        if !crate::sim::LanesPath::Avx512.runs_here() {
            eprintln!("no AVX-512 here: nothing compared");
            return;
        }
        // The processor has AVX-512 (checked above), as `Avx512` needs.
        assert_eq!(results::<avx512::Avx512>(), expected());
    }

    #[cfg(target_arch = "aarch64")]
    #[test]
    fn the_neon_lanes_mean_what_the_operations_say() {
        if !crate::sim::LanesPath::Neon.runs_here() {
            eprintln!("no NEON here: nothing compared");
            return;
        }
        // The processor has NEON (checked above), as `Neon` needs.
        assert_eq!(results::<neon::Neon>(), expected());
    }
}
