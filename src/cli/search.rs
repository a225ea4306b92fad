//! `search`: the best die of a family.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, SearchOptions, SearchSettings};
use clap::Args;
use std::io::Write;

/// Search a family of dice for the best one: every die with --faces K faces from
/// --values A..B (e.g. --faces 6 --values 1..6, the 462 six-sided dice), or the dice of a
/// BwInf dice file.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The search's options.
    #[command(flatten)]
    pub options: SearchOptions,
    /// Output format.
    // Listed in --help before --plot, where it has always been: the place of --plot among
    // the options (24), before it by name.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL), display_order = 24)]
    pub format: Format,
}

/// Runs `search`.
pub fn run(args: SearchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = SearchSettings::new(&args.options)?;
    let progress = Terminal::default();
    let searched = api::search(&settings, &progress);
    progress.finish();
    let searched = searched?;
    // Stopped early (--stop-after-round): the note said so, nothing to print.
    let Some(report) = searched.report else {
        return Ok(());
    };
    crate::report::write(out, &report, args.format)?;
    if let Some(plot) = searched.plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        plot.write()?;
    }
    Ok(())
}
