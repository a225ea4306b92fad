//! The working brackets of the group being solved: `f64` pairs (16 bytes a state), or,
//! where those do not fit in memory and the tolerance allows, 32-bit fixed point pairs
//! (8 bytes a state), each end rounded outward so that the bracket stays certified.
//!
//! Why fixed point and not `f32`: a Gauss-Seidel sweep reads states it has just written,
//! so the outward roundings add up along the sweep. With `f32` (24-bit mantissa, steps of
//! 6e-8 near 1) the groups of 16/8/3/3 stalled at widths of 1.7e-6 to 2e-6, short of 1e-6;
//! steps of 2^-30 (9.3e-10) everywhere in [-1, 1] certify 1e-6 in the sweeps an `f64`
//! solve takes. Each sweep compiles for one kind (the solver is generic over [`Brackets`]),
//! so the common `f64` case pays nothing for the other.

use crate::exact::game::sweep::{Store, Values};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// The working brackets of a group: `[lo, hi]` per state, readable and writable from every
/// thread.
pub(super) trait Brackets: Values<2> + Sized {
    /// Bytes a state.
    const BYTES_PER_STATE: u64;
    /// `len` states, each starting at `init`.
    fn filled(len: usize, init: [f64; 2]) -> Self;
}

impl Brackets for Store<2> {
    const BYTES_PER_STATE: u64 = Store::<2>::BYTES_PER_INDEX;

    fn filled(len: usize, init: [f64; 2]) -> Self {
        Store::new(len, init)
    }
}

/// The narrowest tolerance at which a group may be solved with [`Fixed32Brackets`]: its
/// brackets then need at least a thousand of the grid's steps.
pub(crate) const NARROW_FROM: f64 = 1e-6;

/// Steps of the grid per unit: 2^30, so that [-1, 1] (and the rounding beyond it) fits
/// an `i32`.
const SCALE: f64 = 1_073_741_824.0;

/// Brackets in 32-bit fixed point: `lo` rounded down and `hi` rounded up to multiples of
/// 2^-30, both in one 64-bit word (one load and one store a state).
pub(super) struct Fixed32Brackets {
    slots: Vec<AtomicU64>,
}

impl Fixed32Brackets {
    #[inline(always)]
    fn pack([lo, hi]: [f64; 2]) -> u64 {
        // Multiplying by a power of two is exact, so floor and ceil round outward.
        let lo = (lo * SCALE).floor() as i32;
        let hi = (hi * SCALE).ceil() as i32;
        u64::from(lo as u32) | (u64::from(hi as u32) << 32)
    }

    #[inline(always)]
    fn unpack(word: u64) -> [f64; 2] {
        [
            f64::from(word as u32 as i32) / SCALE,
            f64::from((word >> 32) as u32 as i32) / SCALE,
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
        // Values on the grid (and -1, 0, 1) are kept exactly; a change is measured on what
        // is kept.
        let change = brackets.store(1, [0.0, 0.25]);
        assert_eq!(brackets.load(1), [0.0, 0.25]);
        assert_eq!(change, 1.0);
        // Between grid points, lo goes down and hi up, by less than a step.
        let step = 1.0 / SCALE;
        for &x in &[1.0 / 3.0, -0.7, 1e-12, -1e-12, 0.999_999_999_9] {
            brackets.store(2, [x, x]);
            let [lo, hi] = brackets.load(2);
            assert!(lo <= x && x <= hi, "{x}: [{lo}, {hi}]");
            assert!(x - lo < step && hi - x < step, "{x}: [{lo}, {hi}]");
        }
        assert_eq!(Fixed32Brackets::BYTES_PER_STATE, 8);
    }
}
