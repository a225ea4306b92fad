//! [`Vector`] in plain Rust: eight `u64` lane by lane, which the compiler vectorizes for
//! the target (NEON on ARM, SIMD128 in WebAssembly, SSE2 on any x86-64).

use super::{Mask, Vector};
use crate::sim::lanes::LANES;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// Eight lanes as an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Portable([u64; LANES]);

/// A set of lanes: all ones in a lane of the set, 0 elsewhere (as vector comparisons give
/// it, so selections stay vector code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortableMask([u64; LANES]);

impl Portable {
    #[inline(always)]
    fn map(self, f: impl Fn(u64) -> u64) -> Portable {
        Portable(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, other: Portable, f: impl Fn(u64, u64) -> u64) -> Portable {
        Portable(std::array::from_fn(|l| f(self.0[l], other.0[l])))
    }

    #[inline(always)]
    fn compare(self, other: Portable, f: impl Fn(u64, u64) -> bool) -> PortableMask {
        PortableMask(std::array::from_fn(|l| {
            0u64.wrapping_sub(u64::from(f(self.0[l], other.0[l])))
        }))
    }
}

impl PortableMask {
    #[inline(always)]
    fn zip(self, other: PortableMask, f: impl Fn(u64, u64) -> u64) -> PortableMask {
        PortableMask(std::array::from_fn(|l| f(self.0[l], other.0[l])))
    }
}

impl BitAnd for PortableMask {
    type Output = PortableMask;
    #[inline(always)]
    fn bitand(self, other: PortableMask) -> PortableMask {
        self.zip(other, |a, b| a & b)
    }
}

impl BitOr for PortableMask {
    type Output = PortableMask;
    #[inline(always)]
    fn bitor(self, other: PortableMask) -> PortableMask {
        self.zip(other, |a, b| a | b)
    }
}

impl BitXor for PortableMask {
    type Output = PortableMask;
    #[inline(always)]
    fn bitxor(self, other: PortableMask) -> PortableMask {
        self.zip(other, |a, b| a ^ b)
    }
}

impl Not for PortableMask {
    type Output = PortableMask;
    #[inline(always)]
    fn not(self) -> PortableMask {
        PortableMask(self.0.map(|a| !a))
    }
}

impl Mask for PortableMask {
    #[inline(always)]
    fn from_bits(bits: u8) -> PortableMask {
        PortableMask(std::array::from_fn(|l| {
            0u64.wrapping_sub(u64::from(bits >> l & 1))
        }))
    }

    #[inline(always)]
    fn bits(self) -> u8 {
        (0..LANES).fold(0, |bits, l| bits | u8::from(self.0[l] != 0) << l)
    }
}

/// Plain Rust needs no processor feature.
unsafe impl Vector for Portable {
    type Mask = PortableMask;
    type Table = [u64; 16];

    #[inline(always)]
    fn splat(x: u64) -> Portable {
        Portable([x; LANES])
    }

    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Portable {
        Portable(*a)
    }

    #[inline(always)]
    fn store(self) -> [u64; LANES] {
        self.0
    }

    #[inline(always)]
    fn add(self, other: Portable) -> Portable {
        self.zip(other, u64::wrapping_add)
    }

    #[inline(always)]
    fn sub(self, other: Portable) -> Portable {
        self.zip(other, u64::wrapping_sub)
    }

    #[inline(always)]
    fn and(self, other: Portable) -> Portable {
        self.zip(other, |a, b| a & b)
    }

    #[inline(always)]
    fn or(self, other: Portable) -> Portable {
        self.zip(other, |a, b| a | b)
    }

    #[inline(always)]
    fn xor(self, other: Portable) -> Portable {
        self.zip(other, |a, b| a ^ b)
    }

    #[inline(always)]
    fn and_not(self, other: Portable) -> Portable {
        self.zip(other, |a, b| a & !b)
    }

    #[inline(always)]
    fn shl(self, by: Portable) -> Portable {
        self.zip(by, |a, by| if by < 64 { a << by } else { 0 })
    }

    #[inline(always)]
    fn shr(self, by: Portable) -> Portable {
        self.zip(by, |a, by| if by < 64 { a >> by } else { 0 })
    }

    #[inline(always)]
    fn shl_by<const N: i32>(self) -> Portable {
        self.map(|a| a << N)
    }

    #[inline(always)]
    fn shr_by<const N: i32>(self) -> Portable {
        self.map(|a| a >> N)
    }

    #[inline(always)]
    fn rotate_left<const L: i32, const R: i32>(self) -> Portable {
        self.map(|a| a.rotate_left(L as u32))
    }

    #[inline(always)]
    fn mul_low32(self, other: Portable) -> Portable {
        self.zip(other, |a, b| (a & 0xffff_ffff) * (b & 0xffff_ffff))
    }

    #[inline(always)]
    fn count_ones(self) -> Portable {
        self.map(|a| u64::from(a.count_ones()))
    }

    #[inline(always)]
    fn highest_bit(self) -> Portable {
        // The top bit shifted down by the leading zeros: 0 for a lane of 0 (64 of them).
        self.map(|a| (1u64 << 63).checked_shr(a.leading_zeros()).unwrap_or(0))
    }

    #[inline(always)]
    fn eq(self, other: Portable) -> PortableMask {
        self.compare(other, |a, b| a == b)
    }

    #[inline(always)]
    fn lt(self, other: Portable) -> PortableMask {
        self.compare(other, |a, b| a < b)
    }

    #[inline(always)]
    fn nonzero(self) -> PortableMask {
        self.compare(Portable::splat(0), |a, _| a != 0)
    }

    #[inline(always)]
    fn select(self, mask: PortableMask, if_set: Portable) -> Portable {
        Portable(std::array::from_fn(|l| {
            (if_set.0[l] & mask.0[l]) | (self.0[l] & !mask.0[l])
        }))
    }

    #[inline(always)]
    fn table(values: &[u64; 16]) -> [u64; 16] {
        *values
    }

    #[inline(always)]
    fn look_up(table: &[u64; 16], index: Portable) -> Portable {
        index.map(|i| table[(i & 15) as usize])
    }

    #[inline(always)]
    unsafe fn gather(base: &[u64], index: Portable) -> Portable {
        index.map(|i| base[i as usize])
    }
}
