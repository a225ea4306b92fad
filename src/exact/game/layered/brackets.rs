//! The working brackets of the group being solved: `f64` pairs (16 bytes a state), or,
//! where those do not fit in memory and the tolerance allows, 32-bit fixed point pairs
//! (8 bytes a state), each end rounded outward so that the bracket stays certified.
//!
//! Why fixed point and not `f32`: a Gauss-Seidel sweep reads states it has just written,
//! so the outward roundings add up along the sweep. With `f32` (24-bit mantissa, steps of
//! 6e-8 near 1) the groups of 16/8/3/3 stalled at widths of 1.7e-6 to 2e-6, short of 1e-6;
//! steps of 2^-31 (4.7e-10) everywhere in [-1, 1] certify 1e-6 in about one sweep more
//! than an `f64` solve takes. Each sweep compiles for one kind (the solver is generic over [`Brackets`]),
//! so the common `f64` case pays nothing for the other.

use crate::exact::game::sweep::{Store, Values};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// The working brackets of a group: `[lo, hi]` per state, readable and writable from every
/// thread.
pub(super) trait Brackets: Values<2> + Sized {
    /// Bytes a state.
    const BYTES_PER_STATE: u64;
    /// Whether these are the 32-bit brackets (a group's report says which it used).
    const NARROW: bool;
    /// `len` states, each starting at `init`.
    fn filled(len: usize, init: [f64; 2]) -> Self;
}

impl Brackets for Store<2> {
    const BYTES_PER_STATE: u64 = Store::<2>::BYTES_PER_INDEX;
    const NARROW: bool = false;

    fn filled(len: usize, init: [f64; 2]) -> Self {
        Store::new(len, init)
    }
}

/// The narrowest tolerance at which a group may be solved with [`Fixed32Brackets`]: its
/// brackets then need at least a thousand of the grid's steps.
pub(crate) const NARROW_FROM: f64 = 1e-6;

/// Steps of the grid per unit: 2^31, the finest that [-1, 1) fits in an `i32`.
const SCALE: f64 = 2_147_483_648.0;

/// Brackets in 32-bit fixed point on a grid of 2^-31 (4.7e-10): `lo` rounded down and `-hi`
/// rounded down (so `hi` up), both in one 64-bit word (one load and one store a state).
/// Storing `-hi` lets both ends reach the side of [-1, 1] they need exactly (`lo = -1`,
/// `hi = 1`); the other side, `lo = 1` or `hi = -1`, is kept one step inside, which
/// widens the bracket outward as well.
pub(super) struct Fixed32Brackets {
    slots: Vec<AtomicU64>,
}

impl Fixed32Brackets {
    /// `x` rounded down to the grid, as a count of steps (saturated at `i32::MAX`, which
    /// rounds down further).
    #[inline(always)]
    fn down(x: f64) -> u32 {
        // Multiplying by a power of two is exact, so the floor rounds down; `as` saturates.
        (x * SCALE).floor() as i32 as u32
    }

    #[inline(always)]
    fn pack([lo, hi]: [f64; 2]) -> u64 {
        u64::from(Self::down(lo)) | (u64::from(Self::down(-hi)) << 32)
    }

    #[inline(always)]
    fn unpack(word: u64) -> [f64; 2] {
        [
            f64::from(word as u32 as i32) / SCALE,
            -f64::from((word >> 32) as u32 as i32) / SCALE,
        ]
    }
}

impl Values<2> for Fixed32Brackets {
    #[inline(always)]
    fn load(&self, index: usize) -> [f64; 2] {
        Self::unpack(self.slots[index].load(Relaxed))
    }

    #[inline(always)]
    fn store(&self, index: usize, x: [f64; 2]) -> f64 {
        let slot = &self.slots[index];
        let [old_lo, old_hi] = Self::unpack(slot.load(Relaxed));
        let word = Self::pack(x);
        slot.store(word, Relaxed);
        let [lo, hi] = Self::unpack(word);
        (lo - old_lo).abs().max((hi - old_hi).abs())
    }
}

impl Brackets for Fixed32Brackets {
    const BYTES_PER_STATE: u64 = 8;
    const NARROW: bool = true;

    fn filled(len: usize, init: [f64; 2]) -> Self {
        let word = Self::pack(init);
        Fixed32Brackets {
            slots: crate::exact::shared::huge::huge_vec(len, |_| AtomicU64::new(word)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_brackets_round_outward_and_keep_the_grid_exactly() {
        let brackets = Fixed32Brackets::filled(3, [-1.0, 1.0]);
        assert_eq!(brackets.load(0), [-1.0, 1.0]);
        // Values on the grid are kept exactly; a change is measured on what is kept.
        let change = brackets.store(1, [0.0, 0.25]);
        assert_eq!(brackets.load(1), [0.0, 0.25]);
        assert_eq!(change, 1.0);
        // Between grid points, lo goes down and hi up, by less than a step; at the far
        // ends one step inside, outward too.
        let step = 1.0 / SCALE;
        for &x in &[1.0 / 3.0, -0.7, 1e-12, -1e-12, 0.999_999_999_9, 1.0, -1.0] {
            brackets.store(2, [x, x]);
            let [lo, hi] = brackets.load(2);
            assert!(lo <= x && x <= hi, "{x}: [{lo}, {hi}]");
            assert!(x - lo <= step && hi - x <= step, "{x}: [{lo}, {hi}]");
        }
        brackets.store(2, [1.0, -1.0]);
        assert_eq!(brackets.load(2), [1.0 - step, -1.0 + step]);
        assert_eq!(Fixed32Brackets::BYTES_PER_STATE, 8);
    }
}
