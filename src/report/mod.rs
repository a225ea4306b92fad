//! Output: every command's results as serializable structs, written as aligned tables,
//! JSON or CSV by one writer per format ([`write()`]), and the pictures ([`plot`]) written
//! under one file rule ([`files`]).
//!
//! The JSON and CSV field names are part of the interface and documented in the book
//! (`docs/src/output.md`).
//!
//! # Undefined figures
//! A figure that is not defined (P(row wins | the game ends) when no game ended, a mean
//! over no games) is `null` in JSON, an empty field in CSV and `-` in tables; never `NaN`.

pub mod advise;
mod converge;
mod duel;
pub mod files;
pub mod grade;
mod pig;
mod play;
pub mod plot;
mod ranking;
mod search;
mod solve;
mod table;

pub use advise::{AdviseReport, EvaluatorScores};
pub use converge::{
    CONVERGENCE_CSV_HEADER, ConvergenceReport, ExactSummary, Header, STOPPING_CSV_HEADER,
    StoppingReport,
};
pub use duel::{DuelReport, write_duel};
pub use files::{OutputFile, PlotError};
pub use grade::GradeReport;
pub use pig::{ComparisonReport, GameReport, QueryReport, SimulationReport};
pub use play::{PlayCapture, PlayMove, PlayReport, PlayTurn};
pub use ranking::RankReport;
pub use search::{BestMean, ConfirmationLine, DieLine, Maximin, OpenCandidate, SearchReport};
pub use solve::{BoundsReport, DifferenceReport, LayersReport, PositionReport, SolveReport};
pub use table::{TableRankReport, TableReport, TableSettings};

use serde::Serialize;
use std::fmt;
use std::io::{self, Write};

/// Output format of the reporting commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Table,
    /// One JSON document on stdout.
    Json,
    /// Comma-separated values with a header line.
    Csv,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Table, Format::Json, Format::Csv];

    /// The name on the command line, e.g. `csv`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Json => "json",
            Format::Csv => "csv",
        }
    }

    /// A clap parser that accepts (and lists in `--help`) only the formats in `accepted`,
    /// e.g. [`Report::FORMATS`] of the command's report: so a command never lists a format
    /// it refuses, nor accepts one it cannot write.
    #[cfg(feature = "clap")]
    pub fn parser(
        accepted: &'static [Format],
    ) -> impl clap::builder::TypedValueParser<Value = Format> {
        use clap::ValueEnum;
        use clap::builder::TypedValueParser;
        clap::builder::PossibleValuesParser::new(
            accepted.iter().filter_map(|f| f.to_possible_value()),
        )
        .map(|name| {
            Format::from_str(&name, false).expect("the parser only passes listed format names")
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A command's results: serializable (the JSON form), with a table form and, where the
/// results are tabular, a CSV form.
pub trait Report: Serialize {
    /// The formats this report can be written in.
    const FORMATS: &'static [Format] = &Format::ALL;

    /// Writes the aligned table for people.
    fn write_table(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The CSV form: a header and rows of the same length. `None` exactly when
    /// [`Report::FORMATS`] lacks [`Format::Csv`].
    fn csv(&self) -> Option<CsvTable>;
}

/// The CSV form of a report. Fields are text (numbers through [`csv_number`]); the `csv`
/// crate quotes them where needed (dice such as `1,1,6`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CsvTable {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// Writes `report` in `format`: the one writer per format every command uses.
pub fn write<R: Report>(out: &mut dyn Write, report: &R, format: Format) -> io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        Format::Table => report.write_table(out),
        Format::Csv => {
            let table = report.csv().ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "this output has no CSV form; use --format table or json",
                )
            })?;
            // Not flexible: a row of another length than the header is an error.
            let mut w = csv::Writer::from_writer(out);
            w.write_record(&table.header).map_err(io::Error::other)?;
            for row in &table.rows {
                w.write_record(row).map_err(io::Error::other)?;
            }
            w.flush()
        }
    }
}

/// A figure that is defined: `None` for NaN and infinities (JSON `null`, empty in CSV).
pub fn defined(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A number for a CSV field: the shortest text that reads back to the same `f64`; empty
/// where the figure is undefined (NaN or infinite).
pub fn csv_number(x: f64) -> String {
    defined(x).map_or(String::new(), |v| v.to_string())
}

/// An optional number for a CSV field: empty when absent or undefined.
pub fn csv_optional(x: Option<f64>) -> String {
    x.map_or(String::new(), csv_number)
}

/// `x` with `decimals` decimals for tables, `-` where it is undefined.
pub fn fixed(x: f64, decimals: usize) -> String {
    match defined(x) {
        Some(v) => format!("{v:.decimals$}"),
        None => "-".to_string(),
    }
}

/// `0.51234` with four decimals, for tables; `-` where undefined.
pub(crate) fn prob(p: f64) -> String {
    fixed(p, 4)
}

/// The most decimals [`interval`] tries before it writes both ends in full (`{:e}`): beyond
/// 17 decimals an `f64` in `[-1, 1]` has no more to tell.
const MAX_DECIMALS: usize = 17;

/// An interval `[lo, hi]` for tables, the one way every table prints one: each end with
/// `decimals` decimals, or as many more as the text needs to say what the numbers say:
///
/// - two different ends never read the same (an interval never reads as a point);
/// - an end that is not 0 never reads as 0: written in scientific notation instead
///   (`[0.0000, 3.8e-5]`), with more significant digits where the ends need them apart;
/// - an end that is not a whole number never reads as one (`0.99996` is not `1.0000`, nor
///   `-0.99999` `-1.0000`).
///
/// Both ends get the same decimals. An undefined end (NaN, infinite) is `-`, as in
/// [`fixed`]. Equal ends stay equal: a point is printed as one.
pub(crate) fn interval(lo: f64, hi: f64, decimals: usize) -> String {
    let (lo, hi) = interval_ends(lo, hi, decimals);
    format!("[{lo}, {hi}]")
}

/// The texts of the ends of [`interval`].
fn interval_ends(lo: f64, hi: f64, decimals: usize) -> (String, String) {
    // `x` with `k` decimals, or in scientific notation (`extra + 1` significant digits)
    // where the decimals would round it to 0.
    let end = |x: f64, k: usize, extra: usize| -> String {
        let Some(v) = defined(x) else {
            return "-".to_string();
        };
        let text = format!("{v:.k$}");
        if v != 0.0 && text.parse::<f64>().is_ok_and(|r| r == 0.0) {
            format!("{v:.extra$e}", extra = extra + 1)
        } else {
            text
        }
    };
    // Whether `text` says what `x` is, as far as an interval needs.
    let honest = |x: f64, text: &str| match (defined(x), text.parse::<f64>()) {
        (Some(v), Ok(read)) => read == v || read.fract() != 0.0,
        _ => true,
    };
    for k in decimals..=decimals.max(MAX_DECIMALS) {
        let (a, b) = (end(lo, k, k - decimals), end(hi, k, k - decimals));
        let apart = a != b || lo == hi || defined(lo).is_none() || defined(hi).is_none();
        if apart && honest(lo, &a) && honest(hi, &b) {
            return (a, b);
        }
    }
    // Every digit there is: the shortest texts that read back as the numbers themselves.
    let full = |x: f64| defined(x).map_or("-".to_string(), |v| format!("{v:e}"));
    (full(lo), full(hi))
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Strings for a CSV header.
pub(crate) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_figures_are_empty_or_dashes() {
        assert_eq!(csv_number(f64::NAN), "");
        assert_eq!(csv_number(f64::INFINITY), "");
        assert_eq!(csv_number(0.25), "0.25");
        assert_eq!(csv_optional(None), "");
        assert_eq!(fixed(f64::NAN, 3), "-");
        assert_eq!(fixed(0.5, 3), "0.500");
        assert_eq!(prob(f64::NEG_INFINITY), "-");
        assert_eq!(defined(f64::NAN), None);
    }

    #[test]
    fn an_interval_has_its_decimals_where_they_tell_the_truth() {
        assert_eq!(interval(0.2, 0.3, 4), "[0.2000, 0.3000]");
        assert_eq!(interval(0.51234, 0.51236, 4), "[0.5123, 0.5124]");
        assert_eq!(interval(0.25, 0.75, 10), "[0.2500000000, 0.7500000000]");
        // A point is printed as one; undefined ends are dashes.
        assert_eq!(interval(0.5, 0.5, 4), "[0.5000, 0.5000]");
        assert_eq!(interval(0.0, 0.0, 4), "[0.0000, 0.0000]");
        assert_eq!(interval(f64::NAN, 0.5, 4), "[-, 0.5000]");
        assert_eq!(interval(f64::NAN, f64::INFINITY, 4), "[-, -]");
    }

    #[test]
    fn an_interval_never_reads_as_a_point() {
        // Regression: p = 0 over 100,000 games printed `[0.0000, 0.0000]`.
        assert_eq!(interval(0.0, 3.8e-5, 4), "[0.0000, 3.8e-5]");
        assert_eq!(interval(0.51231, 0.51234, 4), "[0.51231, 0.51234]");
        assert_eq!(
            interval(0.503763089, 0.503763090, 4),
            "[0.503763089, 0.503763090]"
        );
        // Tiny ends apart in scientific notation too.
        assert_eq!(interval(1e-20, 1.04e-20, 15), "[1.00e-20, 1.04e-20]");
        assert_eq!(interval(0.0, 1e-20, 15), "[0.000000000000000, 1.0e-20]");
    }

    #[test]
    fn an_interval_never_rounds_an_end_to_a_whole_number_it_is_not() {
        assert_eq!(interval(0.99996, 1.0, 4), "[0.99996, 1.00000]");
        assert_eq!(
            interval(0.9, 1.0 - 1e-12, 4),
            "[0.900000000000, 0.999999999999]"
        );
        assert_eq!(interval(-0.99999, -0.5, 4), "[-0.99999, -0.50000]");
        assert_eq!(interval(-2e-7, 0.1, 4), "[-2.0e-7, 0.1000]");
        assert_eq!(interval(0.0, 1.0, 4), "[0.0000, 1.0000]");
    }

    #[test]
    fn any_two_different_numbers_give_two_different_texts() {
        let mut x = 1.0f64;
        for _ in 0..2000 {
            let y = f64::from_bits(x.to_bits() - 1);
            for (lo, hi) in [(y, x), (1.0 - x, 1.0 - y), (y / 3.0, x / 3.0)] {
                if lo < hi {
                    let text = interval(lo, hi, 4);
                    let (a, b) = text[1..text.len() - 1].split_once(", ").unwrap();
                    assert_ne!(a, b, "{lo} {hi}");
                }
            }
            x *= 0.97;
        }
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
