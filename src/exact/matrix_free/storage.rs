//! How a value is stored: an `f64` or `f32` bit pattern in an atomic, so that the threads
//! of a sweep may read a neighbour's value from this sweep or the last (relaxed ordering,
//! plain moves on x86), which keeps every property of the monotone iteration.
//!
//! # `f32` storage
//! Values are stored rounded *down* to `f32` (accumulation is in `f64`), so they stay lower
//! bounds and the interval is still certified, but the iteration stalls once a sweep's
//! gain is below `f32` resolution: each stored value loses up to `2^-24` relative, and the
//! loss is carried along a game, so the certified width cannot fall below about `1e-7`
//! times the expected number of rolls (in practice 1e-6 .. 1e-5). The solver then stops
//! and reports the width it reached (see [`super::FullOutcome::stalled`]); in the block
//! pass a block that stops gaining is left as it is, and when the opening block does,
//! global sweeps could not gain either and are skipped.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

/// How the values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Storage {
    /// `f64`: certified widths down to about 1e-13.
    F64,
    /// `f32`, rounded down: half the memory, widths no smaller than about 1e-6.
    F32,
    /// `f64` if it fits the memory limit, else `f32`.
    Auto,
}

impl Storage {
    /// Bytes per stored value (`Auto` counts as its smallest choice, `f32`).
    pub fn value_bytes(self) -> u64 {
        if self == Storage::F64 { 8 } else { 4 }
    }
}

/// One stored value: an atomic bit pattern.
pub trait Slot: Sync + Send {
    /// A slot holding 0.
    fn zero() -> Self;
    /// The stored value.
    fn get(&self) -> f64;
    /// Stores `x`, rounded down if the slot is narrower than `f64`.
    fn set(&self, x: f64);
}

/// An `f64` slot.
pub struct F64Slot(AtomicU64);
/// An `f32` slot, rounding down.
pub struct F32Slot(AtomicU32);

impl Slot for F64Slot {
    #[inline(always)]
    fn zero() -> Self {
        F64Slot(AtomicU64::new(0))
    }
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Relaxed))
    }
    #[inline(always)]
    fn set(&self, x: f64) {
        self.0.store(x.to_bits(), Relaxed)
    }
}

impl Slot for F32Slot {
    #[inline(always)]
    fn zero() -> Self {
        F32Slot(AtomicU32::new(0))
    }
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from(f32::from_bits(self.0.load(Relaxed)))
    }
    /// Rounds down (values are non-negative), so a stored lower bound stays one.
    #[inline(always)]
    fn set(&self, x: f64) {
        let mut f = x as f32;
        if f64::from(f) > x && f > 0.0 {
            f = f32::from_bits(f.to_bits() - 1);
        }
        self.0.store(f.to_bits(), Relaxed)
    }
}
