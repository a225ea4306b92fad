//! The report of one simulated table of N players.

use super::{CsvTable, csv_number, csv_optional, defined, interval, prob, thousands};
use crate::dice::Die;
use crate::sim::{TableCounts, TableStyle};
use serde::Serialize;
use std::io::{self, Write};

/// A simulated table, in the shape of `table --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct TableReport {
    /// The dice in the order given.
    pub dice: Vec<Die>,
    /// Each die's strategy, in the same order (`frontmost` unless the profile has `choice`).
    pub strategies: Vec<String>,
    /// Players at the table.
    pub players: usize,
    /// `all` (every seating equally often) or `fixed` (die `i` in seat `i`).
    pub seating: String,
    /// P(die `i` wins), over all games (all seatings).
    pub p_win: Vec<f64>,
    /// 95 % Wilson interval `[lo, hi]` of each `p_win`.
    pub ci95: Vec<[f64; 2]>,
    /// Games won by nobody: they hit the roll cap or were proven never-ending.
    pub unfinished: u64,
    /// Of the unfinished games, those proven never-ending.
    pub endless: u64,
    /// `per_seat[s][i]`: P(die `i` wins | it sits in seat `s`); `null` where it never sat there.
    pub per_seat: Vec<Vec<Option<f64>>>,
    /// Games played.
    pub games: u64,
    /// The seed: the same seed gives the same counts, whatever the number of threads.
    pub seed: u64,
    /// Rule profile, e.g. `bwinf`.
    pub profile: String,
    /// Board, e.g. `40/20/4/4` (with 3 or 4 players seat `s` starts at `s * track / 4`).
    pub board: String,
    /// The roll cap.
    pub max_rolls: u64,
    /// Mean rolls of a finished game (`null` if no game finished).
    pub mean_rolls: Option<f64>,
    /// The requested half-width under `--precision` (every die's interval is at most this
    /// wide), else `null`.
    pub precision: Option<f64>,
    /// With `--style`: how each die decided over the games' decisions, else `null`.
    pub style: Option<TableStyle>,
}

impl TableReport {
    /// Builds the report from the counts.
    pub fn new(
        dice: &[&Die],
        strategies: &[crate::strategy::Strategy],
        counts: &TableCounts,
        seating: crate::sim::Seating,
        settings: TableSettings,
    ) -> TableReport {
        let n = counts.players;
        TableReport {
            dice: dice.iter().map(|d| (*d).clone()).collect(),
            strategies: strategies.iter().map(|s| s.name()).collect(),
            players: n,
            seating: seating.name().to_string(),
            p_win: (0..n).map(|i| counts.p_win(i)).collect(),
            ci95: (0..n)
                .map(|i| {
                    let c = counts.ci95(i);
                    [c.lo, c.hi]
                })
                .collect(),
            unfinished: counts.unfinished,
            endless: counts.endless,
            per_seat: (0..n)
                .map(|s| {
                    (0..n)
                        .map(|i| defined(counts.p_win_in_seat(s, i)))
                        .collect()
                })
                .collect(),
            games: counts.games,
            seed: settings.seed,
            profile: settings.profile,
            board: settings.board,
            max_rolls: settings.max_rolls,
            mean_rolls: defined(counts.rolls as f64 / (counts.games - counts.unfinished) as f64),
            precision: settings.precision,
            style: None,
        }
    }

    /// The report with the style counts of its games.
    pub fn with_style(self, style: TableStyle) -> TableReport {
        TableReport {
            style: Some(style),
            ..self
        }
    }
}

/// The settings a table report repeats.
#[derive(Clone, Debug)]
pub struct TableSettings {
    /// The seed.
    pub seed: u64,
    /// The profile's name.
    pub profile: String,
    /// The board.
    pub board: String,
    /// The roll cap.
    pub max_rolls: u64,
    /// The half-width promised, if any.
    pub precision: Option<f64>,
}

impl TableSettings {
    /// The settings of a table played under `rules` from `seed`, with the roll cap and the
    /// stopping rule it ran with (a half-width is promised only under `--precision`).
    pub fn new(
        rules: &crate::rules::Rules,
        seed: u64,
        max_rolls: u64,
        stop: crate::sim::TableStop,
    ) -> TableSettings {
        TableSettings {
            seed,
            profile: rules.profile().to_string(),
            board: rules.board().to_string(),
            max_rolls,
            precision: match stop {
                crate::sim::TableStop::Precision(h) => Some(h),
                crate::sim::TableStop::Games(_) => None,
            },
        }
    }
}

impl super::Report for TableReport {
    fn csv(&self) -> Option<CsvTable> {
        let mut header: Vec<String> = ["die", "strategy", "p_win", "ci95_lo", "ci95_hi"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        header.extend((0..self.players).map(|s| format!("p_win_seat{s}")));
        header.extend(
            [
                "players",
                "seating",
                "games",
                "unfinished",
                "endless",
                "seed",
                "profile",
                "board",
                "max_rolls",
                "mean_rolls",
                "precision",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        let rows = (0..self.players)
            .map(|i| {
                let mut row = vec![
                    self.dice[i].to_string(),
                    self.strategies[i].clone(),
                    csv_number(self.p_win[i]),
                    csv_number(self.ci95[i][0]),
                    csv_number(self.ci95[i][1]),
                ];
                row.extend((0..self.players).map(|s| csv_optional(self.per_seat[s][i])));
                row.extend([
                    self.players.to_string(),
                    self.seating.clone(),
                    self.games.to_string(),
                    self.unfinished.to_string(),
                    self.endless.to_string(),
                    self.seed.to_string(),
                    self.profile.clone(),
                    self.board.clone(),
                    self.max_rolls.to_string(),
                    csv_optional(self.mean_rolls),
                    csv_optional(self.precision),
                ]);
                row
            })
            .collect();
        Some(CsvTable { header, rows })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} players, rules {} on board {}, seating {}",
            self.players, self.profile, self.board, self.seating
        )?;
        let rule = match self.precision {
            Some(h) => format!("until every 95 % half-width is at most {h}"),
            None => "fixed count".to_string(),
        };
        writeln!(
            out,
            "games {} ({rule}), seed {}; a fair share is 1/{} = {}",
            thousands(self.games),
            self.seed,
            self.players,
            prob(1.0 / self.players as f64)
        )?;
        // A die is shown with its strategy where some die does not play frontmost.
        let choosing = self.strategies.iter().any(|s| s != "frontmost");
        let label = |i: usize| {
            if choosing {
                format!("{} ({})", self.dice[i], self.strategies[i])
            } else {
                self.dice[i].to_string()
            }
        };
        let width = (0..self.players)
            .map(|i| label(i).len())
            .max()
            .unwrap_or(0)
            .max(4);
        let intervals: Vec<String> = (0..self.players)
            .map(|i| interval(self.ci95[i][0], self.ci95[i][1], 4))
            .collect();
        let ci_width = intervals.iter().map(String::len).fold(16, usize::max);
        write!(
            out,
            "{:<width$}  P(win)  {:<ci_width$}",
            "die",
            "95 % CI",
            width = width
        )?;
        for s in 0..self.players {
            write!(out, "  seat {s}")?;
        }
        writeln!(out)?;
        for (i, ci) in intervals.iter().enumerate() {
            write!(
                out,
                "{:<width$}  {}  {ci:<ci_width$}",
                label(i),
                prob(self.p_win[i]),
                width = width
            )?;
            for s in 0..self.players {
                let p = self.per_seat[s][i].map_or("-".to_string(), prob);
                write!(out, "  {p:>6}")?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "unfinished {} ({} proven never-ending, the rest hit {} rolls)",
            thousands(self.unfinished),
            thousands(self.endless),
            thousands(self.max_rolls)
        )?;
        match self.mean_rolls {
            Some(m) => writeln!(out, "mean rolls {m:.1} per finished game")?,
            None => writeln!(out, "mean rolls - (no game finished)")?,
        }
        if let Some(style) = &self.style {
            let names: Vec<String> = (0..self.players).map(label).collect();
            super::duel::write_style(out, &style.dice, &names)?;
        }
        Ok(())
    }
}

/// A ranking at tables of N players beside the pairwise ranking, in the shape of
/// `rank FILE --players N --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct TableRankReport {
    /// Players per table.
    pub players: usize,
    /// The share of a die as good as the others: `1 / players`.
    pub fair_share: f64,
    /// The dice in input order.
    pub dice: Vec<Die>,
    /// Best first: each die's mean P(win) over its tables and its interval.
    pub ranking: Vec<crate::rank::table::TableEntry>,
    /// The pairwise ranking of the same dice (duels), best first.
    pub pairwise: Vec<crate::rank::RankEntry>,
    /// Every table: its dice (indices), their P(win), games.
    pub tables: Vec<crate::rank::table::TableResult>,
    /// Rule profile.
    pub profile: String,
    /// Board.
    pub board: String,
    /// The seed (tables use streams from 2^32 on, the pairs 0, 1, ...).
    pub seed: u64,
    /// The requested half-width of every figure under `--precision`, else `null`.
    pub precision: Option<f64>,
    /// Games per table and per pair under `--games`, else `null`.
    pub games: Option<u64>,
}

impl super::Report for TableRankReport {
    fn csv(&self) -> Option<CsvTable> {
        let pairwise_rank = |index: usize| {
            self.pairwise
                .iter()
                .position(|e| e.index == index)
                .map_or(String::new(), |r| (r + 1).to_string())
        };
        let pairwise_mean = |index: usize| {
            self.pairwise
                .iter()
                .find(|e| e.index == index)
                .map_or(String::new(), |e| csv_number(e.mean_p))
        };
        let header = [
            "rank",
            "die",
            "players",
            "mean_p_win",
            "ci95_lo",
            "ci95_hi",
            "fair_share",
            "tables",
            "pairwise_rank",
            "pairwise_mean_p",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let rows = self
            .ranking
            .iter()
            .enumerate()
            .map(|(r, e)| {
                vec![
                    (r + 1).to_string(),
                    e.die.to_string(),
                    self.players.to_string(),
                    csv_number(e.mean_p_win),
                    csv_number(e.ci95.lo),
                    csv_number(e.ci95.hi),
                    csv_number(self.fair_share),
                    e.tables.to_string(),
                    pairwise_rank(e.index),
                    pairwise_mean(e.index),
                ]
            })
            .collect();
        Some(CsvTable { header, rows })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} dice at every table of {} (every seating equally often), rules {} on board {}, seed {}",
            self.dice.len(),
            self.players,
            self.profile,
            self.board,
            self.seed
        )?;
        let plan = match (self.games, self.precision) {
            (Some(n), _) => format!("{} games per table and per pair", thousands(n)),
            (None, Some(h)) => format!("every figure to a 95 % half-width of at most {h}"),
            (None, None) => String::new(),
        };
        writeln!(
            out,
            "{plan}; a fair share at a table is 1/{} = {}",
            self.players,
            prob(self.fair_share)
        )?;
        let width = self
            .dice
            .iter()
            .map(|d| d.to_string().len())
            .max()
            .unwrap_or(0)
            .max(4);
        let intervals: Vec<String> = self
            .ranking
            .iter()
            .map(|e| interval(e.ci95.lo, e.ci95.hi, 4))
            .collect();
        let ci_width = intervals.iter().map(String::len).fold(16, usize::max);
        writeln!(
            out,
            "rank  {:<width$}  mean P(win) at {}  {:<ci_width$}  vs 1/{}  tables   pairwise: rank  mean P",
            "die",
            self.players,
            "95 % CI",
            self.players,
            width = width
        )?;
        for (r, e) in self.ranking.iter().enumerate() {
            let versus = if e.ci95.lo > self.fair_share {
                "above"
            } else if e.ci95.hi < self.fair_share {
                "below"
            } else {
                "even"
            };
            let (pair_rank, pair_mean) = self
                .pairwise
                .iter()
                .enumerate()
                .find(|(_, p)| p.index == e.index)
                .map_or(("-".to_string(), "-".to_string()), |(k, p)| {
                    ((k + 1).to_string(), prob(p.mean_p))
                });
            writeln!(
                out,
                "{:>4}  {:<width$}  {:>16}  {:<ci_width$}  {:>6}  {:>6}   {:>14}  {}",
                r + 1,
                e.die.to_string(),
                prob(e.mean_p_win),
                intervals[r],
                versus,
                e.tables,
                pair_rank,
                pair_mean,
                width = width
            )?;
        }
        Ok(())
    }
}
