//! Output: the figures of a duel or a ranking as aligned tables, JSON and CSV.
//!
//! The JSON and CSV field names are part of the interface and documented in the README.

mod duel;
mod ranking;

pub use duel::{DuelReport, write_duel};
pub use ranking::{RankReport, write_rank};

/// Output format of `duel`, `rank` and the other reporting commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Table,
    /// One JSON document on stdout.
    Json,
    /// Comma-separated values with a header line.
    Csv,
}

/// `0.51234` with a fixed number of decimals, for tables.
pub(crate) fn prob(p: f64) -> String {
    if p.is_nan() {
        "-".to_string()
    } else {
        format!("{p:.4}")
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Converts a CSV error into an I/O error for the writers.
pub(crate) fn csv_error(e: csv::Error) -> std::io::Error {
    std::io::Error::other(e)
}
