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

use crate::exact::shared::huge::{self, Zeroable, ZeroedArray};
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

pub use crate::exact::shared::result::{Components, Storage};

/// One stored value: an atomic bit pattern, all zero bits being the value 0 (so that value
/// arrays can be allocated and released lazily, [`crate::exact::shared::huge`]).
pub(crate) trait Slot: Sync + Send + Zeroable {
    /// A slot holding 0.
    fn zero() -> Self;
    /// The stored value.
    fn get(&self) -> f64;
    /// Stores `x`, rounded down if the slot is narrower than `f64`; returns what was
    /// stored (which the certificate sees), so it need not be read back.
    fn set(&self, x: f64) -> f64;
}

/// An `f64` slot.
#[repr(transparent)]
pub(crate) struct F64Slot(AtomicU64);
/// An `f32` slot, rounding down.
#[repr(transparent)]
pub(crate) struct F32Slot(AtomicU32);

// SAFETY: each is its atomic (`repr(transparent)`), valid at zero bits, which is 0.0.
unsafe impl Zeroable for F64Slot {}
// SAFETY: as above.
unsafe impl Zeroable for F32Slot {}

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
    fn set(&self, x: f64) -> f64 {
        self.0.store(x.to_bits(), Relaxed);
        x
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
    fn set(&self, x: f64) -> f64 {
        let mut f = x as f32;
        if f64::from(f) > x && f > 0.0 {
            f = f32::from_bits(f.to_bits() - 1);
        }
        self.0.store(f.to_bits(), Relaxed);
        f64::from(f)
    }
}

/// How `Z` is kept where a never-ending state exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ZLayout {
    /// Next to `V, W` for every state of the product: the fastest sweeps.
    Dense,
    /// Only for the states that can reach the never-ending set, through a rank index: less
    /// memory, slower sweeps (see [`Values`]).
    Sparse,
}

/// The values of a solve: `V` and `W` for every state of the product, and `Z` either next
/// to them for every state ([`ZLayout::Dense`]) or only for the states that can reach the
/// never-ending set ([`ZLayout::Sparse`]; everywhere else it is exactly 0). A state is
/// addressed as `cell * 2 + side`.
///
/// # Sparse `Z`
/// `Z` lives in a compact array indexed by rank: one bit per state says whether it is
/// stored, and per word of 64 bits the number of stored states before it; a state's
/// slot is that number plus the population count of the bits below its own. Bits and
/// count share 16 bytes, so a read of `Z` costs the bit test and, for a stored state, one
/// more load; the index takes 2 bits per state where `Z` takes 64 (`f64`) or 32 (`f32`).
pub(crate) struct Values<S> {
    /// `V, W` (and `Z` if dense) of state `s = cell * 2 + side` from
    /// `side * side_len + stride * cell` (see [`super::layout`]: one half per side).
    vw: ZeroedArray<S>,
    /// 3 with dense `Z`, else 2.
    stride: usize,
    /// Slots of the states of one side: side 1's follow side 0's.
    side_len: usize,
    /// The rank index over the states, empty unless `Z` is sparse.
    z_index: Vec<RankWord>,
    /// `Z` of the stored states, in state order (sparse `Z` only).
    z: Vec<S>,
}

/// 64 states of the rank index: which are stored, and how many are stored before them.
#[derive(Clone, Copy, Default)]
struct RankWord {
    bits: u64,
    before: u64,
}

/// Bytes of [`Values`] over `states` states, `value_bytes` a value: `V, W` everywhere
/// (`per_state` 2), or one of them (1, [`Components::OneAtATime`]), and with `z` =
/// `Some((layout, z_states))` `Z` for all states (dense) or for the `z_states` that can
/// reach the never-ending set (sparse, with the rank index).
pub(crate) fn values_bytes(
    states: u64,
    per_state: u64,
    z: Option<(ZLayout, u64)>,
    value_bytes: u64,
) -> u64 {
    let vw = states.saturating_mul(per_state * value_bytes);
    match z {
        None => vw,
        Some((ZLayout::Dense, _)) => vw.saturating_add(states.saturating_mul(value_bytes)),
        Some((ZLayout::Sparse, z_states)) => {
            let index = states
                .div_ceil(64)
                .saturating_mul(size_of::<RankWord>() as u64);
            vw.saturating_add(index)
                .saturating_add(z_states.saturating_mul(value_bytes))
        }
    }
}

impl<S: Slot> Values<S> {
    /// All values 0 over `states` states (two per pair of configurations); with `z` =
    /// `Some(layout)` `Z` is kept (sparse: where `keeps_z(state)`), and set to 1 where
    /// `never(state)`, a state of the never-ending set, which must keep `Z`.
    pub(crate) fn new(
        states: usize,
        z: Option<ZLayout>,
        keeps_z: impl Fn(usize) -> bool + Sync,
        never: impl Fn(usize) -> bool + Sync,
    ) -> Values<S> {
        use rayon::prelude::*;
        debug_assert_eq!(states % 2, 0, "two sides per pair of configurations");
        let stride = if z == Some(ZLayout::Dense) { 3 } else { 2 };
        let vw = (0..stride * states)
            .into_par_iter()
            .map(|_| S::zero())
            .collect::<Vec<S>>()
            .into();
        let mut values = Values {
            vw,
            stride,
            side_len: stride * (states / 2),
            z_index: Vec::new(),
            z: Vec::new(),
        };
        if z == Some(ZLayout::Sparse) {
            let mut z_index: Vec<RankWord> = (0..states.div_ceil(64))
                .into_par_iter()
                .map(|w| {
                    let bits = (w * 64..(w * 64 + 64).min(states))
                        .filter(|&s| keeps_z(s))
                        .fold(0u64, |bits, s| bits | 1 << (s % 64));
                    RankWord { bits, before: 0 }
                })
                .collect();
            let mut stored = 0u64;
            for word in &mut z_index {
                word.before = stored;
                stored += u64::from(word.bits.count_ones());
            }
            values.z = (0..stored).into_par_iter().map(|_| S::zero()).collect();
            values.z_index = z_index;
        }
        if z.is_some() {
            (0..states).into_par_iter().for_each(|s| {
                if never(s) {
                    values
                        .z_slot(s)
                        .expect("a never-ending state keeps Z")
                        .set(1.0);
                }
            });
        }
        values
    }

    /// One value (`V` or `W`, [`Components::OneAtATime`]) for each of `states` states, all
    /// 0, its memory taken only where a sweep first writes ([`ZeroedArray`]).
    pub(crate) fn single(states: usize) -> Values<S> {
        debug_assert_eq!(states % 2, 0, "two sides per pair of configurations");
        Values {
            vw: ZeroedArray::new(states),
            stride: 1,
            side_len: states / 2,
            z_index: Vec::new(),
            z: Vec::new(),
        }
    }

    /// Gives back the memory of the values of the cells `cells` (both sides; one value per
    /// state, [`Values::single`]): they read 0 afterwards, which is still a lower bound.
    pub(crate) fn release(&self, cells: Range<usize>) {
        debug_assert_eq!(self.stride, 1, "released only one value at a time");
        for side in 0..2 {
            let at = side * self.side_len;
            huge::release(&self.vw[at + cells.start..at + cells.end]);
        }
    }

    /// States that keep `Z` in a compact array (0 unless `Z` is sparse).
    pub(crate) fn sparse_z_states(&self) -> u64 {
        self.z.len() as u64
    }

    /// The slot of `Z` of `state`, `None` where `Z` is not kept (it is 0 there).
    #[inline(always)]
    fn z_slot(&self, state: usize) -> Option<&S> {
        if self.stride == 3 {
            return Some(&self.vw[self.at::<3>(state) + 2]);
        }
        let word = self.z_index.get(state / 64)?;
        let bit = 1u64 << (state % 64);
        if word.bits & bit == 0 {
            return None;
        }
        let rank = word.before + u64::from((word.bits & (bit - 1)).count_ones());
        Some(&self.z[rank as usize])
    }

    /// Where the state's first value is, in its side's half: with one value (`K = 1`, made
    /// by [`Values::single`]) or without `Z` (`K = 2`) the stride is `K`, known to the
    /// compiler.
    #[inline(always)]
    fn at<const K: usize>(&self, state: usize) -> usize {
        debug_assert!(K == 3 || K == self.stride, "loaded as stored");
        let stride = if K < 3 { K } else { self.stride };
        (state & 1) * self.side_len + (state >> 1) * stride
    }

    /// `[V, W]` (`K = 2`), `[V, W, Z]` (`K = 3`) of `state`, or its one value (`K = 1`).
    #[inline(always)]
    pub(crate) fn load<const K: usize>(&self, state: usize) -> [f64; K] {
        let at = self.at::<K>(state);
        std::array::from_fn(|k| match k {
            0 | 1 => self.vw[at + k].get(),
            _ => self.z_slot(state).map_or(0.0, Slot::get),
        })
    }

    /// Stores `x` (`[V, W]` or `[V, W, Z]`) at `state`; returns the largest change of a
    /// stored value and the sum of what is stored (rounded down under `f32`), which is what
    /// the certificate sees. A `Z` that is not kept is 0 by the search that decided so.
    #[inline(always)]
    pub(crate) fn store<const K: usize>(&self, state: usize, x: [f64; K]) -> (f64, f64) {
        let (mut change, mut assigned) = (0.0f64, 0.0);
        let mut put = |slot: &S, x: f64| {
            change = change.max((x - slot.get()).abs());
            assigned += slot.set(x);
        };
        let at = self.at::<K>(state);
        for (k, &x) in x.iter().enumerate().take(2) {
            put(&self.vw[at + k], x);
        }
        if K == 3 {
            match self.z_slot(state) {
                Some(slot) => put(slot, x[K - 1]),
                None => debug_assert_eq!(x[K - 1], 0.0, "Z of a state that cannot reach N"),
            }
        }
        (change, assigned)
    }
}
