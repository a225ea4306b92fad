//! `solve`: one matchup solved exactly, with certified intervals.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, SolveOptions, SolveSettings};
use clap::Args;
use std::io::Write;

/// Solve die A against die B exactly: win probabilities with certified intervals.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The solve's options.
    #[command(flatten)]
    pub options: SolveOptions,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Runs `solve`.
pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = SolveSettings::new(&args.options)?;
    let progress = Terminal::default();
    if api::solves_position(&settings) {
        let report = api::solve_position(&settings, &progress);
        progress.finish();
        crate::report::write(out, &report?, args.format)?;
        return Ok(());
    }
    if api::solves_part(&settings) {
        let report = api::solve_layers(&settings, &progress);
        progress.finish();
        crate::report::write(out, &report?, args.format)?;
        return Ok(());
    }
    let report = api::solve(&settings, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
