//! `train`: trains a `strong` player by self-play and writes its player file.

use super::progress::Terminal;
use super::{CliError, Format};
use crate::api::{self, TrainOptions, TrainSettings};
use crate::report::Report;
use clap::Args;
use std::io::Write;

/// Options of `train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// The training's options.
    #[command(flatten)]
    pub options: TrainOptions,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(api::train::TrainReport::FORMATS))]
    pub format: Format,
}

/// Runs `train`.
pub fn run(args: TrainArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = TrainSettings::new(&args.options)?;
    let progress = Terminal::default();
    let trained = api::train(&settings, &progress);
    progress.finish();
    crate::report::write(out, &trained?, args.format)?;
    Ok(())
}
