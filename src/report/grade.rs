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
    /// The groups the folder held values for, and the game's groups.
    pub groups_held: [usize; 2],
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
        Some(CsvTable {
            header: header(&[
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
            ]),
            rows: self
                .outcome
                .players
                .iter()
                .map(|p| {
                    vec![
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
                    ]
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
            "values for {} of the game's {} groups",
            self.groups_held[0], self.groups_held[1]
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
        Ok(())
    }
}
