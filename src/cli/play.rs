//! `play`: one game, roll by roll, for checking the rules by eye.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, PlayOptions, PlaySettings};
use crate::report::PlayReport;
use clap::Args;
use std::io::Write;

/// Play one game and print every roll.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game's options.
    #[command(flatten)]
    pub options: PlayOptions,
    /// Output format: the game narrated roll by roll, or the same game as data.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(<PlayReport as crate::report::Report>::FORMATS))]
    pub format: Format,
}

/// Runs `play`.
pub fn run(args: PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = PlaySettings::new(&args.options)?;
    let progress = Terminal::default();
    let report = api::play(&settings, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
