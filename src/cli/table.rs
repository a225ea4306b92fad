//! `table`: three or four dice (or two) at one table, simulated.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, TableOptions, TableSettings};
use clap::Args;
use std::io::Write;

/// Simulate N dice at one table of N players (N = 2, 3 or 4), every seating equally often.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The table's options.
    #[command(flatten)]
    pub options: TableOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `table`.
pub fn run(args: TableArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = TableSettings::new(&args.options)?;
    let progress = Terminal::default();
    let report = api::table(&settings, &progress);
    progress.finish();
    crate::report::write(out, &report?, args.format)?;
    Ok(())
}
