//! The report of a ranking.

use super::{CsvTable, csv_number, defined, header, interval, prob, thousands};
use crate::rank::{Method, PairFigure, RankEntry, Tournament};
use crate::strategy::Strategy;

/// `simulated` or `exact`, as in the JSON.
fn method_name(m: Method) -> &'static str {
    match m {
        Method::Simulated => "simulated",
        Method::Exact => "exact",
    }
}
use serde::Serialize;
use std::io::{self, Write};

/// A ranking, in the shape of `rank --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct RankReport {
    /// The dice in input order.
    pub dice: Vec<String>,
    /// `matrix[i][j]`: P(die i beats die j); `null` on the diagonal.
    pub matrix: Vec<Vec<Option<f64>>>,
    /// `ci95[i][j]`: the interval of `matrix[i][j]` (95 % confidence, or certified bounds
    /// for exact figures); `null` on the diagonal.
    pub ci95: Vec<Vec<Option<[f64; 2]>>>,
    /// `share[i][j]`: P(die i wins | the game ends); "beats" and "undecided" use it.
    pub share: Vec<Vec<Option<f64>>>,
    /// `unfinished[i][j]`: P(the game never ends), or the simulated fraction of unfinished games.
    pub unfinished: Vec<Vec<Option<f64>>>,
    /// `method[i][j]`: `simulated` or `exact`.
    pub method: Vec<Vec<Option<Method>>>,
    /// Best first.
    pub ranking: Vec<RankEntry>,
    /// Pairs `[i, j]` whose interval contains 0.5.
    pub undecided: Vec<[usize; 2]>,
    /// Intransitive triples `[a, b, c]`: a beats b beats c beats a.
    pub cycles: Vec<[usize; 3]>,
    /// Groups of dice that beat each other around in a cycle of any length.
    pub cyclic_groups: Vec<Vec<usize>>,
    /// Rule profile.
    pub profile: String,
    /// Board.
    pub board: String,
    /// The strategy of the row die in every pair (`frontmost` unless the profile has
    /// `choice`); a ranking plays every die with the same strategy.
    pub strategy_a: String,
    /// The strategy of the column die (the same as `strategy_a`).
    pub strategy_b: String,
    /// The seed of the simulated figures.
    pub seed: Option<u64>,
    /// Seconds the ranking took.
    pub seconds: f64,
    /// Remarks, e.g. pairs simulated because the exact solve did not fit.
    pub notes: Vec<String>,
    /// The full figures of every cell, for the table and the CSV.
    #[serde(skip)]
    figures: Vec<Vec<Option<PairFigure>>>,
}

impl RankReport {
    /// Builds the report.
    pub fn new(
        t: &Tournament,
        profile: String,
        board: String,
        seed: Option<u64>,
        seconds: f64,
        notes: Vec<String>,
    ) -> RankReport {
        let cell = |f: &Option<PairFigure>| f.map(|f| f.p);
        RankReport {
            dice: t.dice.iter().map(|d| d.to_string()).collect(),
            matrix: t
                .matrix
                .iter()
                .map(|row| row.iter().map(cell).collect())
                .collect(),
            ci95: t
                .matrix
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|f| f.map(|f| [f.interval.lo, f.interval.hi]))
                        .collect()
                })
                .collect(),
            share: t
                .matrix
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|f| f.and_then(|f| defined(f.share)))
                        .collect()
                })
                .collect(),
            unfinished: t
                .matrix
                .iter()
                .map(|row| row.iter().map(|f| f.map(|f| f.unfinished)).collect())
                .collect(),
            method: t
                .matrix
                .iter()
                .map(|row| row.iter().map(|f| f.map(|f| f.method)).collect())
                .collect(),
            ranking: t.ranking(),
            undecided: t
                .undecided_pairs()
                .into_iter()
                .map(|(i, j)| [i, j])
                .collect(),
            cycles: t.three_cycles(),
            cyclic_groups: t.cyclic_groups(),
            profile,
            board,
            strategy_a: Strategy::Frontmost.name(),
            strategy_b: Strategy::Frontmost.name(),
            seed,
            seconds,
            notes,
            figures: t.matrix.clone(),
        }
    }

    /// The report of a ranking in which every die played the strategy named `strategy`
    /// ([`RankReport::new`] assumes `frontmost`): a [`Strategy::name`], or `optimal` for an
    /// exact ranking under `choice`.
    pub fn with_strategy(self, strategy: &str) -> RankReport {
        RankReport {
            strategy_a: strategy.to_string(),
            strategy_b: strategy.to_string(),
            ..self
        }
    }
}

impl super::Report for RankReport {
    /// One line per ordered pair: the long form that pandas and spreadsheets pivot.
    fn csv(&self) -> Option<CsvTable> {
        let mut rows = Vec::new();
        for (i, row) in self.figures.iter().enumerate() {
            for (j, f) in row.iter().enumerate() {
                let Some(f) = f else { continue };
                rows.push(vec![
                    self.dice[i].clone(),
                    self.dice[j].clone(),
                    csv_number(f.p),
                    csv_number(f.interval.lo),
                    csv_number(f.interval.hi),
                    csv_number(f.share),
                    csv_number(f.unfinished),
                    method_name(f.method).to_string(),
                    f.games.map_or(String::new(), |g| g.to_string()),
                    f.undecided().to_string(),
                ]);
            }
        }
        Some(CsvTable {
            header: header(&[
                "row_die",
                "col_die",
                "p_row_wins",
                "ci95_lo",
                "ci95_hi",
                "p_row_wins_given_end",
                "unfinished",
                "method",
                "games",
                "undecided",
            ]),
            rows,
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        write_table(out, self)
    }
}

fn write_table(out: &mut dyn Write, report: &RankReport) -> io::Result<()> {
    let matrix = &report.figures;
    let labels: Vec<String> = (0..report.dice.len())
        .map(|i| format!("D{}", i + 1))
        .collect();
    write!(out, "Rules {} on board {}", report.profile, report.board)?;
    if report.profile.contains("choice") || report.strategy_a != "frontmost" {
        write!(out, "; every die plays the strategy {}", report.strategy_a)?;
    }
    writeln!(out, ".")?;
    writeln!(out, "Dice:")?;
    for (label, die) in labels.iter().zip(&report.dice) {
        writeln!(out, "  {label:>4}  {die}")?;
    }
    let exact = matrix
        .iter()
        .flatten()
        .flatten()
        .any(|f| f.method == Method::Exact);
    writeln!(out)?;
    writeln!(
        out,
        "P(row die wins), each die starting half the games; [interval]{}; * = undecided{}:",
        if exact {
            ", exact figures with certified bounds"
        } else {
            " at 95 %"
        },
        if matrix
            .iter()
            .flatten()
            .flatten()
            .any(|f| f.method == Method::Simulated)
            && exact
        {
            "; ~ = simulated"
        } else {
            ""
        }
    )?;
    let cells: Vec<Vec<String>> = matrix
        .iter()
        .map(|row| {
            row.iter()
                .map(|f| match f {
                    None => "-".to_string(),
                    Some(f) => {
                        let mark = if f.undecided() { "*" } else { " " };
                        let sim = if exact && f.method == Method::Simulated {
                            "~"
                        } else {
                            ""
                        };
                        format!(
                            "{sim}{} {}{mark}",
                            prob(f.p),
                            interval(f.interval.lo, f.interval.hi, 4)
                        )
                    }
                })
                .collect()
        })
        .collect();
    // Wide enough for every cell: an interval takes the digits it needs.
    let width = cells
        .iter()
        .flatten()
        .map(|c| c.len() + 2)
        .fold(26, usize::max);
    write!(out, "{:>5}", "")?;
    for label in &labels {
        write!(out, "{label:>width$}")?;
    }
    writeln!(out)?;
    for (i, row) in cells.iter().enumerate() {
        write!(out, "{:>5}", labels[i])?;
        for text in row {
            write!(out, "{text:>width$}")?;
        }
        writeln!(out)?;
    }
    let n = matrix.len();
    let unfinished: Vec<String> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter_map(|(i, j)| {
            let f = matrix[i][j]?;
            (f.unfinished > 0.0).then(|| {
                format!(
                    "{} vs {}: {:.2} %",
                    labels[i],
                    labels[j],
                    100.0 * f.unfinished
                )
            })
        })
        .collect();
    if !unfinished.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Games without a winner (never-ending, or at the roll cap): {}.",
            unfinished.join(", ")
        )?;
        writeln!(
            out,
            "Row and column probabilities then add up to less than 1; who beats whom is decided by\n\
             P(row wins | the game ends), whose interval is the one tested against 1/2."
        )?;
    }
    writeln!(out)?;
    writeln!(out, "Ranking (by mean win probability against the others):")?;
    writeln!(out, "  rank  die   mean P   beaten  undecided  faces")?;
    for (pos, e) in report.ranking.iter().enumerate() {
        writeln!(
            out,
            "  {:>4}  {:<4}  {}   {:>6}  {:>9}  {}",
            pos + 1,
            labels[e.index],
            prob(e.mean_p),
            e.beaten,
            e.undecided,
            e.die
        )?;
    }
    writeln!(out)?;
    if report.undecided.is_empty() {
        writeln!(out, "Every pair is decided.")?;
    } else {
        let list: Vec<String> = report
            .undecided
            .iter()
            .map(|[i, j]| format!("{} vs {}", labels[*i], labels[*j]))
            .collect();
        writeln!(out, "Undecided pairs: {}", list.join(", "))?;
    }
    if report.cyclic_groups.is_empty() {
        writeln!(
            out,
            "No intransitive cycles: \"beats\" is a consistent order on the decided pairs."
        )?;
    } else {
        for [a, b, c] in &report.cycles {
            writeln!(
                out,
                "Intransitive cycle: {} beats {} beats {} beats {}",
                labels[*a], labels[*b], labels[*c], labels[*a]
            )?;
        }
        for group in &report.cyclic_groups {
            let names: Vec<&str> = group.iter().map(|&i| labels[i].as_str()).collect();
            writeln!(
                out,
                "Dice that beat each other around in a cycle: {}",
                names.join(", ")
            )?;
        }
    }
    let games: u64 = matrix
        .iter()
        .flatten()
        .flatten()
        .filter_map(|f| f.games)
        .sum::<u64>()
        / 2;
    if games > 0 {
        write!(out, "{} games simulated", thousands(games))?;
        if let Some(seed) = report.seed {
            write!(out, ", seed {seed}")?;
        }
        write!(out, "; ")?;
    }
    writeln!(out, "{:.2} s.", report.seconds)?;
    for note in &report.notes {
        writeln!(out, "Note: {note}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Format, write};
    use crate::stats::Interval;

    /// A pair in which no game ended: P(row wins | the game ends) is undefined.
    fn no_game_ended() -> Tournament {
        let dice = vec!["1..6".parse().unwrap(), "6,6".parse().unwrap()];
        let mut t = Tournament::new(dice);
        let figure = PairFigure {
            p: 0.0,
            interval: Interval { lo: 0.0, hi: 0.01 },
            share: f64::NAN,
            share_interval: Interval { lo: 0.0, hi: 1.0 },
            unfinished: 1.0,
            method: Method::Simulated,
            games: Some(100),
        };
        t.matrix[0][1] = Some(figure);
        t.matrix[1][0] = Some(figure);
        t
    }

    #[test]
    fn an_undefined_share_is_null_empty_and_a_dash() {
        let t = no_game_ended();
        let r = RankReport::new(
            &t,
            "bwinf".into(),
            "40/20/4/4".into(),
            None,
            0.0,
            Vec::new(),
        );
        let mut text = Vec::new();
        write(&mut text, &r, Format::Json).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert!(v["share"][0][1].is_null());
        let mut text = Vec::new();
        write(&mut text, &r, Format::Csv).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(!text.contains("NaN"), "{text}");
        let mut rows = csv::Reader::from_reader(text.as_bytes());
        for row in rows.records() {
            assert_eq!(&row.unwrap()[5], "");
        }
        let mut text = Vec::new();
        write(&mut text, &r, Format::Table).unwrap();
        assert!(!String::from_utf8(text).unwrap().contains("NaN"));
    }
}
