//! The report of a ranking.

use super::{csv_error, prob, thousands};
use crate::rank::{Method, PairFigure, RankEntry, Tournament};
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
    /// The seed of the simulated figures.
    pub seed: Option<u64>,
    /// Seconds the ranking took.
    pub seconds: f64,
    /// Remarks, e.g. pairs simulated because the exact solve did not fit.
    pub notes: Vec<String>,
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
                .map(|row| row.iter().map(|f| f.map(|f| f.share)).collect())
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
            seed,
            seconds,
            notes,
        }
    }
}

/// Writes a ranking in the chosen format.
pub fn write_rank(
    out: &mut dyn Write,
    t: &Tournament,
    report: &RankReport,
    format: super::Format,
) -> io::Result<()> {
    use super::Format;
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        Format::Csv => {
            // One line per ordered pair: the long form that pandas and spreadsheets pivot.
            let mut w = csv::Writer::from_writer(out);
            w.write_record([
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
            ])
            .map_err(csv_error)?;
            for (i, row) in t.matrix.iter().enumerate() {
                for (j, f) in row.iter().enumerate() {
                    let Some(f) = f else { continue };
                    w.write_record([
                        t.dice[i].to_string(),
                        t.dice[j].to_string(),
                        f.p.to_string(),
                        f.interval.lo.to_string(),
                        f.interval.hi.to_string(),
                        f.share.to_string(),
                        f.unfinished.to_string(),
                        format!("{:?}", f.method).to_lowercase(),
                        f.games.map_or(String::new(), |g| g.to_string()),
                        f.undecided().to_string(),
                    ])
                    .map_err(csv_error)?;
                }
            }
            w.flush()
        }
        Format::Table => write_table(out, t, report),
    }
}

fn write_table(out: &mut dyn Write, t: &Tournament, report: &RankReport) -> io::Result<()> {
    let labels: Vec<String> = (0..t.dice.len()).map(|i| format!("D{}", i + 1)).collect();
    writeln!(out, "Rules {} on board {}.", report.profile, report.board)?;
    writeln!(out, "Dice:")?;
    for (label, die) in labels.iter().zip(&t.dice) {
        writeln!(out, "  {label:>4}  {die}")?;
    }
    let exact = t
        .matrix
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
        if t.matrix
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
    let width = 26;
    write!(out, "{:>5}", "")?;
    for label in &labels {
        write!(out, "{label:>width$}")?;
    }
    writeln!(out)?;
    for (i, row) in t.matrix.iter().enumerate() {
        write!(out, "{:>5}", labels[i])?;
        for f in row {
            let text = match f {
                None => "-".to_string(),
                Some(f) => {
                    let mark = if f.undecided() { "*" } else { " " };
                    let sim = if exact && f.method == Method::Simulated {
                        "~"
                    } else {
                        ""
                    };
                    format!(
                        "{sim}{} [{},{}]{mark}",
                        prob(f.p),
                        prob(f.interval.lo),
                        prob(f.interval.hi)
                    )
                }
            };
            write!(out, "{text:>width$}")?;
        }
        writeln!(out)?;
    }
    let unfinished: Vec<String> = t
        .pairs()
        .into_iter()
        .filter_map(|(i, j)| {
            let f = t.matrix[i][j]?;
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
    let games: u64 = t
        .matrix
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
