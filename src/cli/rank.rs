//! `rank`: every pair of a dice list, the matrix and the ranking.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, RankOptions, RankSettings};
use clap::Args;
use std::io::Write;

/// Rank the dice of a BwInf dice file (first line n, then n lines `m f1 .. fm`), or dice
/// given with --die.
#[derive(Args, Debug)]
pub struct RankArgs {
    /// The ranking's options.
    #[command(flatten)]
    pub options: RankOptions,
    /// Output format.
    // Listed in --help before --plot, where it has always been: the place of --plot among
    // the options (19), before it by name.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL), display_order = 19)]
    pub format: Format,
}

/// Runs `rank`.
pub fn run(args: RankArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = RankSettings::new(&args.options)?;
    let progress = Terminal::default();
    let ranked = api::rank(&settings, &progress);
    progress.finish();
    let ranked = ranked?;
    crate::report::write(out, &ranked.report, args.format)?;
    if let Some(plot) = ranked.plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        plot.write()?;
    }
    Ok(())
}
