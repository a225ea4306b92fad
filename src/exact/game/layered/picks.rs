//! The moves of a side that plays a fixed strategy, in the group being solved.
//!
//! A fixed strategy is asked once per decision of the group (state and roll with at least
//! two options), before the group's sweeps, and its answers are played from this table in
//! every sweep: a learned player's evaluation costs far more than a sweep's update, and a
//! heuristic's answer does not change between sweeps either.
//!
//! A learned player (`strong`, `strong-search-N`) judges a move by a value of the position it
//! leads to alone. Asked per decision, it evaluates its network for every legal move of
//! every face (and, with look-ahead, for every move of every face after those); here its
//! network values each of the group's positions once, each roll of look-ahead is one more
//! pass over them reading the pass before, and each decision picks from those values
//! ([`GroupAfterstates`]). A move that leaves the group (into a group solved before) is
//! valued directly, as the player would; such moves are few. The arithmetic is the
//! player's own ([`crate::exact::game::afterstates`]), so the table holds its moves.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering::Relaxed};

use super::finished::held_value;
use super::layers::Group;
use super::{Geometry, Layout};
use crate::exact::game::afterstates::{faces_in_die_order, mean_of_best_moves};
use crate::exact::game::policy::{AfterstateValue, MovePolicy, Pick, decide};
use crate::exact::game::space::{At, CellTarget, GameSpace};
use crate::exact::shared::ExactError;
use crate::strategy::network::Evaluator;

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

    /// Bytes a state costs where some side plays a fixed strategy: one entry per face slot
    /// of the side with the most, and while the table is made, where a side is a learned
    /// player, two `f32` values (a pass of its look-ahead and the one it reads).
    pub(super) fn bytes_per_state(space: &GameSpace, fixed: [Option<&dyn MovePolicy>; 2]) -> u64 {
        if fixed.iter().all(Option::is_none) {
            return 0;
        }
        let entries = space
            .players
            .iter()
            .map(|p| p.faces.len())
            .max()
            .unwrap_or(0) as u64;
        let learned = (0..2).any(|side| {
            fixed[side].is_some_and(|p| p.afterstate_value(&space.rules, side).is_some())
        });
        entries + if learned { 8 } else { 0 }
    }

    /// Asks the fixed sides of `fixed` their move in every decision of the states `own` of
    /// `geometry` (whole cells) that the sweeps iterate: not those whose classification
    /// flags (`bits`, from `own.start`) hold their value. Refused where a strategy picks a
    /// move that is not legal.
    pub(super) fn tabulate(
        space: &GameSpace,
        (layout, geometry): (&Layout, &Geometry<'_>),
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
        // Learned sides from their values of the group's positions, one side at a time.
        let mut asked = fixed;
        for side in 0..2 {
            let Some(how) = fixed[side].and_then(|p| p.afterstate_value(&space.rules, side)) else {
                continue;
            };
            // Only one process solves a group with a fixed side: it owns every state.
            debug_assert_eq!(own, 0..geometry.len());
            let values = GroupAfterstates::new(space, layout, geometry.group, how)?;
            let level = values.fill(geometry);
            geometry.for_cells_in(0..geometry.len() / 2, |c| {
                let local = 2 * c + side;
                if held_value(bits[local].load(Relaxed)).is_some() {
                    return false;
                }
                let at = geometry.at(space, local);
                for slot in 0..space.faces(at.index).len() {
                    let mut best: Option<(f32, usize)> = None;
                    let options = space.cell_options_at(&at, slot, |m, t| {
                        let v = values.value_of(values.rolls, Some(&level[..]), t, side);
                        if best.is_none_or(|(b, _)| v > b) {
                            best = Some((v, m));
                        }
                    });
                    if let (true, Some((_, m))) = (options >= 2, best) {
                        // At most 255 options: a roll moves one of at most 8 pieces.
                        table[local * slots + slot].store(m as u8, Relaxed);
                    }
                }
                false
            });
            asked[side] = None;
        }
        let illegal = AtomicBool::new(false);
        geometry.for_cells_in(own.start / 2..own.end / 2, |c| {
            for local in [2 * c, 2 * c + 1] {
                if held_value(bits[local - own.start].load(Relaxed)).is_some() {
                    continue;
                }
                let at = geometry.at(space, local);
                let Some(policy) = asked[at.side] else {
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

/// A learned player's values of the positions of the group being solved: its network's
/// (`rolls` 0, `strong`) or its look-ahead's `rolls` rolls ahead (`strong-search-N`), each
/// from the position's mover's side.
struct GroupAfterstates<'a> {
    space: &'a GameSpace,
    layout: &'a Layout,
    group: Group,
    evaluator: &'a Evaluator,
    /// Rolls of look-ahead.
    rolls: u32,
    /// Per player, the face slots of its die in the die's order (with look-ahead).
    order: [Vec<usize>; 2],
}

impl<'a> GroupAfterstates<'a> {
    fn new(
        space: &'a GameSpace,
        layout: &'a Layout,
        group: Group,
        how: AfterstateValue<'a>,
    ) -> Result<GroupAfterstates<'a>, ExactError> {
        let (evaluator, rolls, order) = match how {
            AfterstateValue::Network(evaluator) => (evaluator, 0, [Vec::new(), Vec::new()]),
            AfterstateValue::RollsAhead(evaluator, dice, rolls) => {
                (evaluator, rolls.max(1), faces_in_die_order(space, dice)?)
            }
        };
        Ok(GroupAfterstates {
            space,
            layout,
            group,
            evaluator,
            rolls,
            order,
        })
    }

    /// The values `rolls` ahead of every position of the group, by local index: the
    /// network's, then one pass per roll, each reading the one before.
    fn fill(&self, geometry: &Geometry<'_>) -> Vec<AtomicU32> {
        let pass = |level: u32, before: Option<&[AtomicU32]>| {
            let values =
                crate::exact::shared::huge::huge_vec(geometry.len(), |_| AtomicU32::new(0));
            geometry.for_cells_in(0..geometry.len() / 2, |c| {
                for local in [2 * c, 2 * c + 1] {
                    let at = geometry.at(self.space, local);
                    let v = match before {
                        None => self.network(&at),
                        Some(before) => self.ahead(level, Some(before), &at),
                    };
                    values[local].store(v.to_bits(), Relaxed);
                }
                false
            });
            values
        };
        let mut values = pass(0, None);
        for level in 1..=self.rolls {
            values = pass(level, Some(&values[..]));
        }
        values
    }

    /// The network's value at `at`, for its mover.
    fn network(&self, at: &At) -> f32 {
        let position = self.space.position(at.index);
        let mover = position.mover();
        self.evaluator.value(
            &self.space.rules,
            position.pieces[mover],
            position.pieces[1 - mover],
            mover,
        )
    }

    /// The value `level` rolls ahead at `at` (at least one), for its mover: its moves'
    /// targets valued `level - 1` rolls ahead, from `before` where they lie in the group.
    fn ahead(&self, level: u32, before: Option<&[AtomicU32]>, at: &At) -> f32 {
        mean_of_best_moves(self.space, at, &self.order[at.side], |t| {
            self.value_of(level - 1, before, t, at.side)
        })
    }

    /// The value for the mover `side` of reaching `target`, `level` rolls ahead: 1 for a
    /// win, else the target's value (from `values` where it lies in the group, else
    /// computed), turned to `side`.
    fn value_of(
        &self,
        level: u32,
        values: Option<&[AtomicU32]>,
        target: CellTarget,
        side: usize,
    ) -> f32 {
        let CellTarget::Next { a, b, side: next } = target else {
            return 1.0;
        };
        // A fixed side turns the mirror off: every position is stored as itself.
        let (group, local, _) = self.layout.stored_cell(a, b, next);
        let v = match values {
            Some(values) if group == self.group => f32::from_bits(values[local].load(Relaxed)),
            // Outside the group (a later one, which never leads back): as the player does.
            _ => {
                let at = self.space.at_cell(a, b, next);
                if level == 0 {
                    self.network(&at)
                } else {
                    self.ahead(level, None, &at)
                }
            }
        };
        if next == side { v } else { -v }
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
