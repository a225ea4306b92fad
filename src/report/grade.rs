//! `grade`: the graded strategies' errors against the exact values.

use super::{CsvTable, csv_number, header};
use crate::experiments::grading::GradingOutcome;
use serde::Serialize;
use std::io::{self, Write};

/// What `grade` reports.
#[derive(Clone, Debug, Serialize)]
pub struct GradeReport {
    /// Die A.
    pub a: String,
    /// Die B.
    pub b: String,
    /// Board.
    pub board: String,
    /// Rule profile.
    pub profile: String,
    /// The values folder.
    pub values: String,
    /// The tolerance its groups were solved to.
    pub tolerance: f64,
    /// The groups the folder held values for (of `part` where one was set aside), and the
    /// game's groups.
    pub groups_held: [usize; 2],
    /// The part of the game graded (`--part`), where the folder's other groups were set
    /// aside; `None`: every group it holds.
    pub part: Option<String>,
    /// The strategy both sides played.
    pub played: String,
    /// The seed.
    pub seed: u64,
    /// Decisions and errors.
    #[serde(flatten)]
    pub outcome: GradingOutcome,
}

impl super::Report for GradeReport {
    fn csv(&self) -> Option<CsvTable> {
        let against = self.outcome.entries.is_some();
        let best_response = self.outcome.best_response_entries.is_some();
        let mut columns = vec![
            "player",
            "games",
            "graded_decisions",
            "other_than_best",
            "beyond_doubt",
            "per_decision",
            "per_decision_lo",
            "per_decision_hi",
            "per_game",
            "per_game_lo",
            "per_game_hi",
        ];
        if against {
            columns.extend([
                "entries",
                "against_optimal_decisions",
                "against_optimal",
                "against_optimal_lo",
                "against_optimal_hi",
            ]);
        }
        if best_response {
            columns.extend([
                "best_response_entries",
                "against_best_response_as_a",
                "against_best_response_as_a_lo",
                "against_best_response_as_a_hi",
                "against_best_response_as_b",
                "against_best_response_as_b_lo",
                "against_best_response_as_b_hi",
            ]);
        }
        Some(CsvTable {
            header: header(&columns),
            rows: self
                .outcome
                .players
                .iter()
                .map(|p| {
                    let mut row = vec![
                        p.player.clone(),
                        self.outcome.games.to_string(),
                        self.outcome.graded_decisions.to_string(),
                        p.other_than_best.to_string(),
                        p.beyond_doubt.to_string(),
                        csv_number(p.per_decision.mean),
                        csv_number(p.per_decision.interval[0]),
                        csv_number(p.per_decision.interval[1]),
                        csv_number(p.per_game.mean),
                        csv_number(p.per_game.interval[0]),
                        csv_number(p.per_game.interval[1]),
                    ];
                    if let (Some(entries), Some(a)) = (self.outcome.entries, &p.against_optimal) {
                        row.extend([
                            entries.to_string(),
                            a.decisions.to_string(),
                            csv_number(a.per_entry.mean),
                            csv_number(a.per_entry.interval[0]),
                            csv_number(a.per_entry.interval[1]),
                        ]);
                    }
                    if let Some(entries) = self.outcome.best_response_entries {
                        row.push(entries.to_string());
                        let r = p.against_best_response.as_ref();
                        for seat in [r.and_then(|r| r.as_a), r.and_then(|r| r.as_b)] {
                            // Empty where that seat's values were not given.
                            row.extend(match seat {
                                Some(x) => [x.mean, x.interval[0], x.interval[1]].map(csv_number),
                                None => [String::new(), String::new(), String::new()],
                            });
                        }
                    }
                    row
                })
                .collect(),
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let o = &self.outcome;
        writeln!(
            out,
            "{} games of {} against itself, {} against {} on {} under {} (seed {})",
            o.games, self.played, self.a, self.b, self.board, self.profile, self.seed
        )?;
        writeln!(
            out,
            "values for {} of the game's {} groups{}",
            self.groups_held[0],
            self.groups_held[1],
            match &self.part {
                Some(part) => format!(" (those of the part {part} only)"),
                None => String::new(),
            }
        )?;
        writeln!(
            out,
            "decisions with a choice: {}; graded (every move's value in {}, solved to {:e}): {}; \
             unfinished games: {}",
            o.decisions, self.values, self.tolerance, o.graded_decisions, o.unfinished
        )?;
        writeln!(
            out,
            "error: value P(A wins) - P(B wins) given away against the best move, seen from the \
             mover; 95 % intervals over games"
        )?;
        writeln!(
            out,
            "{:<18} {:>9} {:>9}   {:>32}   {:>32}",
            "player", "not best", "beyond", "error per decision", "error per game"
        )?;
        for p in &o.players {
            let e = |x: &crate::experiments::grading::Estimate| {
                format!("{:.6} [{:.6}, {:.6}]", x.mean, x.interval[0], x.interval[1])
            };
            writeln!(
                out,
                "{:<18} {:>9} {:>9}   {:>32}   {:>32}",
                p.player,
                p.other_than_best,
                p.beyond_doubt,
                e(&p.per_decision),
                e(&p.per_game)
            )?;
        }
        if let Some(entries) = o.entries {
            writeln!(
                out,
                "the rest of the game against the optimal opponent, from each game's first graded \
                 decision ({entries} entries), as A and as B: value given away per entry, errors \
                 exact, games sampled; 95 % intervals over entries{}",
                match o.against_optimal_unfinished {
                    Some(n) if n > 0 => format!(" ({n} games reached the roll cap)"),
                    _ => String::new(),
                }
            )?;
            writeln!(
                out,
                "{:<18} {:>9}   {:>32}   {:>14}",
                "player", "decisions", "value given away per entry", "points of P(win)"
            )?;
            for p in &o.players {
                if let Some(a) = &p.against_optimal {
                    let x = &a.per_entry;
                    writeln!(
                        out,
                        "{:<18} {:>9}   {:>32}   {:>14}",
                        p.player,
                        a.decisions,
                        format!("{:.6} [{:.6}, {:.6}]", x.mean, x.interval[0], x.interval[1]),
                        format!("{:.3}", 50.0 * x.mean)
                    )?;
                }
            }
        }
        if let Some(entries) = o.best_response_entries {
            writeln!(
                out,
                "the rest of the game against a best response, from each game's first graded \
                 decision ({entries} entries): value given away per entry, exact per entry; 95 % \
                 intervals over entries"
            )?;
            writeln!(
                out,
                "{:<18} {:>32}   {:>32}   {:>14}",
                "player", "as A", "as B", "points of P(win)"
            )?;
            let e = |x: &Option<crate::experiments::grading::Estimate>| match x {
                Some(x) => format!("{:.6} [{:.6}, {:.6}]", x.mean, x.interval[0], x.interval[1]),
                None => "-".into(),
            };
            for p in &o.players {
                if let Some(r) = &p.against_best_response {
                    writeln!(
                        out,
                        "{:<18} {:>32}   {:>32}   {:>14}",
                        p.player,
                        e(&r.as_a),
                        e(&r.as_b),
                        r.per_entry
                            .map_or("-".into(), |x| format!("{:.3}", 50.0 * x.mean))
                    )?;
                }
            }
            for p in &o.players {
                if let Some(side) = p.against_best_response.as_ref().and_then(|r| r.by_mirror) {
                    writeln!(
                        out,
                        "{} as {}: read from its pair as {} by the mirror (both sides roll the \
                         same die)",
                        p.player,
                        ["A", "B"][side],
                        ["A", "B"][1 - side]
                    )?;
                }
            }
        }
        Ok(())
    }
}
