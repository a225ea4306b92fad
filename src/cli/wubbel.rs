//! `wubbel` and `pig`: optimal play of the dice games, exact comparison with fixed
//! strategies, simulation, and the decision map.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, Variant, WubbelOptions, WubbelSettings};
use crate::report::{GameReport, Report};
use clap::Args;
use std::io::Write;

/// Options of `wubbel` and `pig` (the same options; only the defaults differ).
#[derive(Args, Debug, Clone)]
pub struct WubbelArgs {
    /// The game's options.
    #[command(flatten)]
    pub options: WubbelOptions,
    /// Output format.
    // Listed in --help between --query and --plot, where it has always been: the place of
    // --plot among the options (5), before it by name.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(GameReport::FORMATS), display_order = 5)]
    pub format: Format,
}

/// Runs `wubbel` (defaults: goal 50, bust face 6).
pub fn run(args: WubbelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    run_variant(Variant::Wubbel, args, out)
}

/// Runs `pig` (defaults: goal 100, bust face 1).
pub fn run_pig(args: WubbelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    run_variant(Variant::Pig, args, out)
}

fn run_variant(variant: Variant, args: WubbelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = WubbelSettings::of(variant, &args.options)?;
    let progress = Terminal::default();
    let solved = api::wubbel(&settings, &progress);
    progress.finish();
    let solved = solved?;
    crate::report::write(out, &solved.report, args.format)?;
    if let Some(plot) = solved.plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        let path = plot.path().to_path_buf();
        plot.write()?;
        if args.format == Format::Table {
            writeln!(out, "decision map written to {}", path.display())?;
        }
    }
    Ok(())
}
