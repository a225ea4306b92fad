//! `duel`: one matchup simulated.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, DuelOptions, DuelSettings};
use clap::Args;
use std::io::Write;

/// Simulate die A against die B, each starting half the games.
#[derive(Args, Debug)]
pub struct DuelArgs {
    /// The duel's options.
    #[command(flatten)]
    pub options: DuelOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `duel`.
pub fn run(args: DuelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = DuelSettings::new(&args.options)?;
    let progress = Terminal::default();
    let report = api::duel(&settings, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
