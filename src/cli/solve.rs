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

/// Runs `solve`. Started by `mpirun` on several ranks, they solve together and rank 0
/// alone reports.
pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = SolveSettings::new(&args.options)?;
    let cluster = api::launched_cluster()?;
    if cluster.size() > 1 {
        let silent = api::Silent;
        let terminal = Terminal::default();
        let progress: &dyn api::Progress = if cluster.rank() == 0 {
            &terminal
        } else {
            &silent
        };
        let result = if api::solves_part(&settings) {
            api::solve_layers_on(&settings, progress, cluster.as_ref())
                .and_then(|r| report_on_rank_zero(out, &r, args.format, cluster.rank()))
        } else {
            api::solve_on(&settings, progress, cluster.as_ref())
                .and_then(|r| report_on_rank_zero(out, &r, args.format, cluster.rank()))
        };
        terminal.finish();
        return result;
    }
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

/// Writes `report` on rank 0; the other ranks print nothing.
fn report_on_rank_zero<R: crate::report::Report>(
    out: &mut dyn Write,
    report: &R,
    format: Format,
    rank: usize,
) -> Result<(), CliError> {
    if rank == 0 {
        crate::report::write(out, report, format)?;
    }
    Ok(())
}
