//! Every command behind one entry point for front ends that name the command and pass its
//! options as data (the Python package, programs over HTTP): `execute`, which reads the
//! options by the command line's definition (the feature `clap`).

#[cfg(feature = "clap")]
use super::Progress;
use super::{Error, PendingPlot, Plotted};
use crate::report::{self, Format, Report};
#[cfg(feature = "clap")]
use serde_json::{Map, Value};

/// A command's report in every form it has, and the picture it drew (if asked to), still
/// to be written by the caller.
#[derive(Debug)]
pub struct Output {
    /// The command's `--format json` text.
    pub json: String,
    /// The command's `--format table` text.
    pub table: String,
    /// The command's `--format csv` text, where it has one.
    pub csv: Option<String>,
    /// The picture of `--plot`, checked and drawn, not yet written.
    pub plot: Option<PendingPlot>,
}

impl Output {
    /// `report` in every format it has.
    pub fn of<R: Report>(report: &R) -> Result<Output, Error> {
        let text = |format| -> Result<String, Error> {
            let mut out = Vec::new();
            report::write(&mut out, report, format)?;
            Ok(String::from_utf8(out).expect("reports are UTF-8"))
        };
        let csv = R::FORMATS
            .contains(&Format::Csv)
            .then(|| text(Format::Csv))
            .transpose()?;
        Ok(Output {
            json: text(Format::Json)?,
            table: text(Format::Table)?,
            csv,
            plot: None,
        })
    }

    /// `plotted`'s report in every format it has, with its picture.
    pub fn of_plotted<R: Report>(plotted: Plotted<R>) -> Result<Output, Error> {
        Ok(Output {
            plot: plotted.plot,
            ..Output::of(&plotted.report)?
        })
    }
}

/// [`execute`] of `advise`, reading `values` (opened once by the caller) where they are of
/// the advice's game.
#[cfg(feature = "clap")]
pub fn execute_advise_with_values(
    options: &Map<String, Value>,
    values: &std::sync::Arc<crate::exact::game::layered::LayeredValues>,
    progress: &dyn Progress,
) -> Result<Output, Error> {
    let settings = super::AdviseSettings::new(&super::options::from_map("advise", options)?)?
        .with_values_of_its_game(values);
    Output::of(&super::advise(&settings, progress)?)
}

/// The commands [`execute`] runs, by their command-line names.
pub const COMMANDS: [&str; 11] = [
    "duel", "table", "solve", "rank", "advise", "play", "wubbel", "pig", "converge", "search",
    "train",
];

/// Runs `command` with `options` (option names to values, read as [`from_map`] reads them,
/// so with the command line's defaults, checks and messages) and returns its report in
/// every form. An unknown command is bad input.
#[cfg(feature = "clap")]
pub fn execute(
    command: &str,
    options: &Map<String, Value>,
    progress: &dyn Progress,
) -> Result<Output, Error> {
    use super::*;
    match command {
        "duel" => {
            let settings = DuelSettings::new(&from_map(command, options)?)?;
            Output::of(&duel(&settings, progress)?)
        }
        "table" => {
            let settings = TableSettings::new(&from_map(command, options)?)?;
            Output::of(&table(&settings, progress)?)
        }
        "solve" => {
            let settings = SolveSettings::new(&from_map(command, options)?)?;
            if solves_position(&settings) {
                Output::of(&solve_position(&settings, progress)?)
            } else if solves_part(&settings) {
                Output::of(&solve_layers(&settings, progress)?)
            } else {
                Output::of(&solve(&settings, progress)?)
            }
        }
        "rank" => Output::of_plotted(rank(
            &RankSettings::new(&from_map(command, options)?)?,
            progress,
        )?),
        "advise" => {
            let settings = AdviseSettings::new(&from_map(command, options)?)?;
            Output::of(&advise(&settings, progress)?)
        }
        "play" => {
            let settings = PlaySettings::new(&from_map(command, options)?)?;
            Output::of(&play(&settings, progress)?)
        }
        "wubbel" | "pig" => {
            let variant = if command == "pig" {
                Variant::Pig
            } else {
                Variant::Wubbel
            };
            let settings = WubbelSettings::of(variant, &from_map(command, options)?)?;
            Output::of_plotted(wubbel(&settings, progress)?)
        }
        "converge" => {
            let settings = ConvergeSettings::new(&from_map(command, options)?)?;
            Output::of_plotted(converge(&settings, progress)?)
        }
        "search" => {
            let settings = SearchSettings::new(&from_map(command, options)?)?;
            let searched = search(&settings, progress)?;
            let report = searched.report.ok_or_else(|| {
                Error::failure(
                    "search: stopped by --stop-after-round before its answer; run it again to \
                     resume from its --store",
                )
            })?;
            Output::of_plotted(Plotted {
                report,
                plot: searched.plot,
            })
        }
        "train" => {
            let settings = TrainSettings::new(&from_map(command, options)?)?;
            Output::of(&train(&settings, progress)?)
        }
        _ => Err(Error::input(format!(
            "unknown command '{command}': expected one of {}",
            COMMANDS.join(", ")
        ))),
    }
}
