//! The moves of a side that plays a fixed strategy, in the group being solved.
//!
//! A fixed strategy is asked once per decision of the group (state and roll with at least
//! two options), before the group's sweeps, and its answers are played from this table in
//! every sweep: a learned player's evaluation costs far more than a sweep's update, and a
//! heuristic's answer does not change between sweeps either.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use super::Geometry;
use super::finished::held_value;
use crate::exact::game::policy::{MovePolicy, Pick, decide};
use crate::exact::game::space::GameSpace;
use crate::exact::shared::ExactError;

/// The entry of a decision where the mover optimises (or has fewer than two options).
pub(super) const OPTIMAL: u8 = u8::MAX;
/// The entry of a decision where the fixed strategy mixes its moves uniformly.
pub(super) const UNIFORM: u8 = u8::MAX - 1;

/// Per state this process owns and face slot, the option its fixed mover plays
/// (its place among the options), [`UNIFORM`] or [`OPTIMAL`].
pub(super) struct Picks {
    slots: usize,
    table: Option<Vec<AtomicU8>>,
}

impl Picks {
    /// No side fixed: every decision optimises.
    pub(super) fn none() -> Picks {
        Picks {
            slots: 0,
            table: None,
        }
    }

    /// Bytes a state costs where some side plays a fixed strategy (one entry per face slot
    /// of the side with the most).
    pub(super) fn bytes_per_state(space: &GameSpace, fixed: [Option<&dyn MovePolicy>; 2]) -> u64 {
        if fixed.iter().all(Option::is_none) {
            0
        } else {
            space
                .players
                .iter()
                .map(|p| p.faces.len())
                .max()
                .unwrap_or(0) as u64
        }
    }

    /// Asks the fixed sides of `fixed` their move in every decision of the states `own` of
    /// `geometry` (whole cells) that the sweeps iterate: not those whose classification
    /// flags (`bits`, from `own.start`) hold their value. Refused where a strategy picks a
    /// move that is not legal.
    pub(super) fn tabulate(
        space: &GameSpace,
        geometry: &Geometry<'_>,
        (own, bits): (std::ops::Range<usize>, &[AtomicU8]),
        fixed: [Option<&dyn MovePolicy>; 2],
    ) -> Result<Picks, ExactError> {
        let slots = Picks::bytes_per_state(space, fixed) as usize;
        if slots == 0 {
            return Ok(Picks::none());
        }
        let len = own.len().checked_mul(slots).ok_or_else(|| {
            ExactError::TooLarge("the fixed strategy's table of moves overflows".into())
        })?;
        let table = crate::exact::shared::huge::huge_vec(len, |_| AtomicU8::new(OPTIMAL));
        let illegal = AtomicBool::new(false);
        geometry.for_cells_in(own.start / 2..own.end / 2, |c| {
            for local in [2 * c, 2 * c + 1] {
                if held_value(bits[local - own.start].load(Relaxed)).is_some() {
                    continue;
                }
                let at = geometry.at(space, local);
                let Some(policy) = fixed[at.side] else {
                    continue;
                };
                for slot in 0..space.faces(at.index).len() {
                    let options = space.cell_options_at(&at, slot, |_, _| {});
                    if options < 2 {
                        continue;
                    }
                    let entry = match decide(space, policy, at.index, slot) {
                        Pick::One(m) if m < options && m < usize::from(UNIFORM) => m as u8,
                        Pick::One(_) => {
                            illegal.store(true, Relaxed);
                            continue;
                        }
                        Pick::Uniform => UNIFORM,
                    };
                    table[(local - own.start) * slots + slot].store(entry, Relaxed);
                }
            }
            false
        });
        if illegal.into_inner() {
            return Err(ExactError::Profile(
                "a fixed strategy picked a move that is not legal".into(),
            ));
        }
        Ok(Picks {
            slots,
            table: Some(table),
        })
    }

    /// The entry of the state `k` (counted from the first this process owns) and face
    /// slot `slot`.
    #[inline(always)]
    pub(super) fn at(&self, k: usize, slot: usize) -> u8 {
        match &self.table {
            Some(table) => table[k * self.slots + slot].load(Relaxed),
            None => OPTIMAL,
        }
    }
}

/// The value of a roll's options where its mover plays a fixed strategy, by its [`Picks`]
/// entry (not [`OPTIMAL`]: the sweeps fold the optimising mover's rolls in a loop of their
/// own): their mean ([`UNIFORM`]) or the one picked; each option is [`OptionFold::add`]ed
/// in its place.
pub(super) struct OptionFold {
    entry: u8,
    picked: Option<[f64; 2]>,
    sum: [f64; 2],
    n: usize,
}

impl OptionFold {
    /// A fold for the roll whose entry is `entry`.
    #[inline(always)]
    pub(super) fn new(entry: u8) -> OptionFold {
        debug_assert_ne!(entry, OPTIMAL);
        OptionFold {
            entry,
            picked: None,
            sum: [0.0; 2],
            n: 0,
        }
    }

    /// The option in place `m`, of value bracket `v`.
    #[inline(always)]
    pub(super) fn add(&mut self, m: usize, v: [f64; 2]) {
        if self.entry == UNIFORM {
            self.sum[0] += v[0];
            self.sum[1] += v[1];
            self.n += 1;
        } else if usize::from(self.entry) == m {
            self.picked = Some(v);
        }
    }

    /// The roll's value; `None` without options.
    #[inline(always)]
    pub(super) fn value(self) -> Option<[f64; 2]> {
        if self.entry == UNIFORM && self.n > 0 {
            // The sum of `n` values in [-1, 1] and its division round by less than
            // `n` epsilons: the mean of the lower ends is lowered and of the upper ends
            // raised by that much, so that the bracket still holds the mixed value.
            let (count, slack) = (self.n as f64, self.n as f64 * f64::EPSILON);
            return Some([self.sum[0] / count - slack, self.sum[1] / count + slack]);
        }
        self.picked
    }
}
