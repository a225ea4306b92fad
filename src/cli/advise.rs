//! `advise`: the legal moves of one roll in a position, each with its value.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, AdviseOptions, AdviseSettings};
use clap::Args;
use std::io::Write;

/// Every legal move of a roll under --profile choice, with its value P(A wins) - P(B wins):
/// exact where the game fits in --max-memory, else simulated.
#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// The advice's options.
    #[command(flatten)]
    pub options: AdviseOptions,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Runs `advise`.
pub fn run(args: AdviseArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = AdviseSettings::new(&args.options)?;
    let progress = Terminal::default();
    let report = api::advise(&settings, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
