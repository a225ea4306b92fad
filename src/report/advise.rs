//! The report of `advise`: every legal move of a roll with its value.

use super::{CsvTable, csv_number, header};
use crate::exact::game::advise::MoveValue;
use serde::Serialize;
use std::io::{self, Write};

/// One move as `advise` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct AdvisedMove {
    /// The field the piece leaves (`B` for a piece brought in), in the mover's numbering.
    pub from: String,
    /// The field it lands on.
    pub to: String,
    /// `P(A wins) - P(B wins)` after the move (midpoint of `interval`).
    pub value: f64,
    /// Certified interval (exact) or 95 % confidence interval (simulated).
    pub interval: [f64; 2],
    /// Whether this is the mover's best move (highest value for A, lowest for B).
    pub best: bool,
}

/// `advise --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct AdviseReport {
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile (always with `choice`).
    pub profile: String,
    /// The position as given.
    pub position: String,
    /// `A` or `B`.
    pub mover: String,
    /// The face rolled.
    pub face: u32,
    /// `exact` or `simulated`.
    pub method: String,
    /// Strategies of A and B in the simulation (`optimal` when exact).
    pub strategies: [String; 2],
    /// Games per move (0 when exact).
    pub games: u64,
    /// The legal moves, frontmost first.
    pub moves: Vec<AdvisedMove>,
    /// Why the method was chosen, or nothing.
    pub note: String,
}

impl AdviseReport {
    /// The report of `moves` for `mover` (0 = A).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: &crate::rules::Rules,
        position: String,
        mover: usize,
        face: u32,
        method: &str,
        strategies: [String; 2],
        moves: &[MoveValue],
        note: String,
    ) -> AdviseReport {
        let key = |m: &MoveValue| {
            if mover == 0 {
                m.value.mid()
            } else {
                -m.value.mid()
            }
        };
        let best = moves.iter().map(key).fold(f64::NEG_INFINITY, f64::max);
        let board = rules.board();
        AdviseReport {
            board: board.to_string(),
            profile: rules.profile().to_string(),
            position,
            mover: if mover == 0 { "A" } else { "B" }.into(),
            face,
            method: method.into(),
            strategies,
            games: moves.first().map_or(0, |m| m.games),
            moves: moves
                .iter()
                .map(|m| AdvisedMove {
                    from: m
                        .movement
                        .from
                        .map_or("B".to_string(), |f| board.field_name(f)),
                    to: board.field_name(m.movement.to),
                    value: m.value.mid(),
                    interval: [m.value.lo, m.value.hi],
                    best: key(m) == best,
                })
                .collect(),
            note,
        }
    }
}

impl super::Report for AdviseReport {
    fn csv(&self) -> Option<CsvTable> {
        Some(CsvTable {
            header: header(&["from", "to", "value", "lo", "hi", "best", "method"]),
            rows: self
                .moves
                .iter()
                .map(|m| {
                    vec![
                        m.from.clone(),
                        m.to.clone(),
                        csv_number(m.value),
                        csv_number(m.interval[0]),
                        csv_number(m.interval[1]),
                        m.best.to_string(),
                        self.method.clone(),
                    ]
                })
                .collect(),
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "Position {} — {} to move, rolled {} (rules {} on board {}, {}{})",
            self.position,
            self.mover,
            self.face,
            self.profile,
            self.board,
            self.method,
            if self.method == "exact" {
                String::new()
            } else {
                format!(
                    ", {} games per move, A plays {}, B plays {}",
                    self.games, self.strategies[0], self.strategies[1]
                )
            }
        )?;
        if self.moves.is_empty() {
            return writeln!(out, "No piece can move: the roll is lost.");
        }
        writeln!(
            out,
            "{:<6} {:<6} {:>14}   interval (value = P(A wins) - P(B wins))",
            "from", "to", "value"
        )?;
        for m in &self.moves {
            writeln!(
                out,
                "{:<6} {:<6} {:>14.10}   [{:.10}, {:.10}]{}",
                m.from,
                m.to,
                m.value,
                m.interval[0],
                m.interval[1],
                if m.best { "  best" } else { "" }
            )?;
        }
        if !self.note.is_empty() {
            writeln!(out, "{}", self.note)?;
        }
        Ok(())
    }
}
