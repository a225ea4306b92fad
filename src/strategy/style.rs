//! How a player decides, counted in the situations a player recognises at the table: a
//! capture is on offer, a piece can go home into the goal, a move would leave pieces where
//! the opponent's next roll can hit them. Each is counted over the decisions where it
//! actually divides the legal moves (some moves capture and some do not, say), so the shares
//! read as "when it has the choice, it captures in x % of the cases". The simulator counts
//! them over the decisions its games meet ([`crate::sim::style`]), the exact solver over
//! every reachable state of a policy (`exact::game::style::style_of`).

use super::{Threats, captures, exposed_at_table};
use crate::rules::{LegalMoves, MAX_SEATS, PieceMove, Player, Rules, Seats};
use serde::Serialize;

/// Decisions where a situation divided the legal moves, and how often the table took the
/// side named by the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Decisions in which the situation arose.
    pub decisions: u64,
    /// Of these, the ones where the table's move is of the named kind.
    pub taken: u64,
}

impl Tally {
    fn add(&mut self, arose: bool, taken: bool) {
        if arose {
            self.decisions += 1;
            self.taken += u64::from(taken);
        }
    }

    fn merge(self, o: Tally) -> Tally {
        Tally {
            decisions: self.decisions + o.decisions,
            taken: self.taken + o.taken,
        }
    }

    /// `taken / decisions` (0 without decisions).
    pub fn share(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.taken as f64 / self.decisions as f64
        }
    }
}

/// How a table plays, over both players' decisions with at least two legal moves in the
/// reachable states that can still be won (each state and face counted once, not weighted
/// by how often play reaches it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Style {
    /// Decisions counted.
    pub decisions: u64,
    /// Some moves capture and some do not: the table captures.
    pub captures: Tally,
    /// Some moves end in the goal and some do not: the table moves into the goal.
    pub enters_goal: Tally,
    /// The moves leave different numbers of the mover's pieces within reach of the
    /// opponent's next roll: the table's move leaves the fewest.
    pub safest: Tally,
    /// Every capture leaves more pieces within reach than the safest move does: the table
    /// captures all the same.
    pub captures_at_a_risk: Tally,
    /// Every decision: the table moves the frontmost piece (the `bwinf` rule).
    pub frontmost: Tally,
}

impl Style {
    /// Counts one decision: `mover`, with `own` and `other` on the board, rolled `face`, whose
    /// legal moves are `legal`, played the move at index `chosen()` of them (asked only when
    /// there are two or more moves: a single move is no decision). `threats` measures the
    /// opponent's next roll, as the `safe` heuristic does.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        rules: &Rules,
        threats: &Threats,
        own: u64,
        other: u64,
        mover: Player,
        face: u32,
        legal: &LegalMoves,
        chosen: impl FnOnce() -> usize,
    ) {
        let n = legal.len();
        if n < 2 {
            return;
        }
        let track = rules.board().track_len();
        let mut kinds = [Kind::default(); 64];
        for (kind, m) in kinds.iter_mut().zip(legal.iter()) {
            let after = rules.roll_with_move(own, other, mover, 0, face, Some(m));
            *kind = Kind {
                captures: captures(rules, other, mover, &m),
                enters_goal: entered_goal(&m, track),
                danger: threats.threatened(rules, after.own, after.other, mover),
            };
        }
        self.tally(&kinds[..n], chosen());
    }

    /// Counts one decision at a table: seat `mover`, with every seat's `pieces` on the
    /// board, had the moves `legal` and played the one at index `chosen()` (asked only when
    /// there are two or more). A capture takes a piece of any seat; the danger of a move is
    /// how many of the mover's pieces one roll of any other seat can reach after it, seat
    /// `j` rolling `reach[j]` ([`exposed_at_table`], as `safe` measures it at a table).
    pub fn record_at_table<const N: usize>(
        &mut self,
        seats: &Seats,
        pieces: &[u64; N],
        mover: usize,
        legal: &LegalMoves,
        reach: &[Threats; MAX_SEATS],
        chosen: impl FnOnce() -> usize,
    ) {
        let n = legal.len();
        if n < 2 {
            return;
        }
        let track = seats.board().track_len();
        let mut kinds = [Kind::default(); 64];
        for (kind, m) in kinds.iter_mut().zip(legal.iter()) {
            let mut after = *pieces;
            let turn = seats.roll_with_move(&mut after, mover, 0, legal.face(), Some(m));
            *kind = Kind {
                captures: turn.captured.is_some(),
                enters_goal: entered_goal(&m, track),
                danger: exposed_at_table(seats, &after, mover, reach),
            };
        }
        self.tally(&kinds[..n], chosen());
    }

    /// Counts the decision among moves of `kinds` in which the one at `index` was played.
    fn tally(&mut self, kinds: &[Kind], index: usize) {
        let chosen = kinds[index];
        let divides = |f: fn(&Kind) -> bool| kinds.iter().any(f) && !kinds.iter().all(f);
        let least = kinds.iter().map(|k| k.danger).min().unwrap_or(0);
        let most = kinds.iter().map(|k| k.danger).max().unwrap_or(0);
        let safest_capture = kinds.iter().filter(|k| k.captures).map(|k| k.danger).min();
        self.decisions += 1;
        self.captures.add(divides(|k| k.captures), chosen.captures);
        self.enters_goal
            .add(divides(|k| k.enters_goal), chosen.enters_goal);
        self.safest.add(least < most, chosen.danger == least);
        self.captures_at_a_risk
            .add(safest_capture.is_some_and(|d| d > least), chosen.captures);
        self.frontmost.add(true, index == 0);
    }

    /// Both counts added.
    pub fn merge(self, o: Style) -> Style {
        Style {
            decisions: self.decisions + o.decisions,
            captures: self.captures.merge(o.captures),
            enters_goal: self.enters_goal.merge(o.enters_goal),
            safest: self.safest.merge(o.safest),
            captures_at_a_risk: self.captures_at_a_risk.merge(o.captures_at_a_risk),
            frontmost: self.frontmost.merge(o.frontmost),
        }
    }
}

/// What a move is, in the terms of [`Style`].
#[derive(Clone, Copy, Default)]
struct Kind {
    captures: bool,
    enters_goal: bool,
    /// The mover's pieces within reach of the opponent's next roll after the move.
    danger: u32,
}

/// Whether `m` ends in the goal after starting outside it.
fn entered_goal(m: &PieceMove, track: u32) -> bool {
    m.to >= track && m.from.is_none_or(|f| f < track)
}
