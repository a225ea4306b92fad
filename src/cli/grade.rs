//! `grade`: strategies graded decision by decision against exact values.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, GradeOptions};
use clap::Args;
use std::io::Write;

/// Grade strategies decision by decision against the exact values of a layered solve.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// The grading's options.
    #[command(flatten)]
    pub options: GradeOptions,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Runs `grade`.
pub fn run(args: GradeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let progress = Terminal::default();
    let report = api::grade(&args.options, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
