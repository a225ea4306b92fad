//! `converge`: the simulation held against the exact solver.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, ConvergeOptions, ConvergeSettings};
use clap::Args;
use std::io::Write;

/// Simulate a matchup many times and compare with the exact solver: error and interval
/// coverage against the number of games, or (--stopping) how many games each stopping rule
/// plays and how often it misses the exact value by more than it claims.
#[derive(Args, Debug)]
pub struct ConvergeArgs {
    /// The experiment's options.
    #[command(flatten)]
    pub options: ConvergeOptions,
    /// Output format.
    // Listed in --help before --plot, where it has always been: the place of --plot among
    // the options (18), before it by name.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL), display_order = 18)]
    pub format: Format,
}

/// Runs `converge`.
pub fn run(args: ConvergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = ConvergeSettings::new(&args.options)?;
    let progress = Terminal::default();
    let converged = api::converge(&settings, &progress);
    progress.finish();
    let converged = converged?;
    crate::report::write(out, &converged.report, args.format)?;
    if let Some(plot) = converged.plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        plot.write()?;
    }
    Ok(())
}
