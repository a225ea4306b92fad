//! One API under every front end: for each command an options type (the command's options,
//! with their defaults defined once), validated into settings, and a function that runs the
//! command and returns its report (whose serde form is the command's JSON).
//!
//! The command line (`cli`) parses flags into these options and prints the reports; the
//! Python package turns keyword arguments into the same options (through serde, with the
//! command line's option names) and wraps the same reports. Neither checks an option,
//! sets a default, chooses a solver or assembles a ranking itself.
//!
//! Long work reports progress and can be cancelled through one small trait, [`Progress`].
//! Errors are [`Error`]s: bad input (exit code 2, `ValueError` in Python) or a failure while
//! running (exit code 1, `RuntimeError`), each message naming the option at fault by its
//! command-line name (`--games`), so every front end tells the same thing.

pub mod advise;
pub mod converge;
pub mod duel;
pub mod grade;
pub mod options;
mod output;
pub mod play;
pub mod rank;
pub mod request;
pub mod search;
pub mod session;
pub mod solve;
pub mod table;
pub mod train;
pub mod wubbel;

pub use advise::{AdviseOptions, AdviseSettings, advise};
pub use converge::{ConvergeOptions, ConvergeOutput, ConvergeSettings, Converged, converge};
pub use duel::{DuelBuilder, DuelOptions, DuelSettings, duel};
pub use grade::{GradeOptions, grade};
#[cfg(feature = "clap")]
pub use options::from_map;
pub use options::{RulesOptions, SimOptions, StrategyOptions};
pub use output::{COMMANDS, Output};
#[cfg(feature = "clap")]
pub use output::{execute, execute_advise_with_values};
pub use play::{PlayOptions, PlaySettings, play};
pub use rank::{RankOptions, RankOutput, RankSettings, Ranked, rank};
pub use search::{SearchOptions, SearchSettings, Searched, search};
pub use solve::{
    Part, SolveBuilder, SolveOptions, SolveSettings, launched_cluster, solve, solve_layers,
    solve_layers_on, solve_on, solve_position, solves_part, solves_position,
};
pub use table::{TableOptions, TableSettings, table};
pub use train::{TrainOptions, TrainSettings, train};
pub use wubbel::{Variant, WubbelOptions, WubbelSettings, Wubbelled, wubbel};

/// The errors and the progress of every command, defined below the front ends (the
/// training of the learned players reports through them too); here under their old paths.
pub use crate::work::{Error, Progress, Recorder, Silent};

use crate::report::{OutputFile, PlotError};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The unwinding payload that stops work at a checkpoint once the caller has given up;
/// caught by [`run_in_pool`], never seen outside this module.
struct Cancelled;

/// A command's view of its caller's [`Progress`]: forwards the reports and, at every
/// report, stops the work if the caller has given up.
pub(crate) struct Watch<'a> {
    progress: &'a dyn Progress,
    flag: Option<Arc<AtomicBool>>,
}

impl<'a> Watch<'a> {
    fn new(progress: &'a dyn Progress) -> Self {
        Watch {
            progress,
            flag: progress.cancel_flag(),
        }
    }

    /// Stops the work here (by unwinding to [`run_in_pool`]) if the caller has given up.
    /// Called only where the library calls back (between chunks of games, between pairs),
    /// where nothing half-done is left.
    pub(crate) fn checkpoint(&self) {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }

    pub(crate) fn begin(&self, label: &str, total_games: Option<u64>) {
        self.progress.begin(label, total_games);
        self.checkpoint();
    }

    /// `n` more games were played; 0 is a checkpoint only (the simulation's loops report 0
    /// before each chunk, and within a chunk of slow games), not passed on.
    pub(crate) fn games(&self, n: u64) {
        if n > 0 {
            self.progress.games(n);
        }
        self.checkpoint();
    }

    pub(crate) fn status(&self, text: &str) {
        self.progress.status(text);
        self.checkpoint();
    }

    pub(crate) fn note(&self, line: &str) {
        self.progress.note(line);
    }

    pub(crate) fn round(&self, line: &str, seconds: f64) {
        self.progress.round(line, seconds);
        self.checkpoint();
    }
}

/// Runs a command's `work` on a pool of `threads` threads (rayon's global pool when `None`,
/// after [`options::check_threads`]), with the caller's cancellation in force: every value
/// iteration inside stops before its next sweep ([`crate::fixpoint::cancellable`]) and every
/// checkpoint of [`Watch`] unwinds to here, returning [`Error::cancelled`].
pub(crate) fn run_in_pool<T: Send>(
    threads: Option<usize>,
    progress: &dyn Progress,
    work: impl FnOnce(&Watch<'_>) -> Result<T, Error> + Send,
) -> Result<T, Error> {
    let watch = Watch::new(progress);
    options::in_thread_pool(threads, || {
        let flag = watch.flag.clone().unwrap_or_default();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::fixpoint::cancellable(flag, || work(&watch))
        }));
        match outcome {
            Ok(result) => result,
            Err(payload)
                if payload.is::<Cancelled>() || payload.is::<crate::fixpoint::Cancelled>() =>
            {
                Err(Error::cancelled())
            }
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })?
    .and_then(|result| {
        // A solve stopped by the flag ends as "not converged": the caller gave up.
        if watch
            .flag
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            Err(Error::cancelled())
        } else {
            Ok(result)
        }
    })
}

/// Maps a refused stopping rule (the one rule every solver follows,
/// [`crate::fixpoint::StopRule::validate`]) to the option that set it.
pub fn rule_error(e: crate::fixpoint::RuleError) -> Error {
    let option = match e {
        crate::fixpoint::RuleError::Tolerance(_) => "--tolerance",
        crate::fixpoint::RuleError::NoSweeps => "--max-sweeps",
    };
    Error::input(format!("{option}: {e}"))
}

/// Maps a plotting error to the exit codes: a refused target is the user's input (2), a
/// failure while drawing or writing is not (1). The message names `--plot`.
pub fn plot_error(e: PlotError) -> Error {
    file_error("--plot", e)
}

/// Maps the error of an output file given to `option` (`--plot`, `train`'s `--out`) to the
/// exit codes, as [`plot_error`] does, naming `option`.
pub fn file_error(option: &str, e: PlotError) -> Error {
    if e.is_bad_target() {
        Error::input(format!("{option}: {e}"))
    } else {
        Error::failure(format!("{option}: {e}"))
    }
}

/// Checks the `--plot` target before any work starts (see [`OutputFile::check`]).
pub fn check_plot(path: Option<&Path>, overwrite: bool) -> Result<Option<OutputFile>, Error> {
    if path.is_some() && !crate::report::plot::DRAWS {
        return Err(Error::input(format!(
            "--plot: {}",
            crate::report::plot::NOT_BUILT
        )));
    }
    path.map(|p| OutputFile::check(p, overwrite))
        .transpose()
        .map_err(plot_error)
}

/// A command's report and the picture it drew (with `--plot`), to be written by the front
/// end after it has printed the report.
#[derive(Debug)]
pub struct Plotted<R> {
    /// The report.
    pub report: R,
    /// The picture, drawn, its target checked.
    pub plot: Option<PendingPlot>,
}

/// A picture drawn and its target checked, written by the front end after it has printed
/// the results (so a failing picture does not take them along).
#[derive(Debug)]
pub struct PendingPlot {
    target: OutputFile,
    svg: String,
}

impl PendingPlot {
    /// The picture `draw` makes, for `target` (the checked `--plot` file), or `None` when no
    /// picture was asked for (then nothing is drawn).
    pub fn drawn(
        target: Option<&OutputFile>,
        draw: impl FnOnce() -> Result<String, PlotError>,
    ) -> Result<Option<PendingPlot>, Error> {
        target
            .map(|target| {
                Ok(PendingPlot {
                    target: target.clone(),
                    svg: draw().map_err(plot_error)?,
                })
            })
            .transpose()
    }

    /// The file the picture goes to.
    pub fn path(&self) -> &Path {
        self.target.path()
    }

    /// Writes the picture to its checked target.
    pub fn write(self) -> Result<(), Error> {
        self.target.write(&self.svg).map_err(plot_error)
    }
}

/// The book's chapter on this API, whose examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/api.md")]
struct ApiChapter;

#[cfg(test)]
mod tests {
    /// `--plot` is refused before any work where the build draws no pictures (without the
    /// cargo feature `plot`), and only its target is checked where it does.
    #[test]
    fn plot_is_refused_where_the_build_draws_none() {
        let target = std::env::temp_dir().join("wuerfelglueck-check-plot.svg");
        let checked = super::check_plot(Some(&target), true);
        if crate::report::plot::DRAWS {
            assert!(checked.unwrap().is_some());
        } else {
            let e = checked.unwrap_err();
            assert!(e.is_input(), "{}", e.message);
            assert!(
                e.message.starts_with("--plot: ") && e.message.contains("cargo feature `plot`"),
                "{}",
                e.message
            );
        }
        assert!(super::check_plot(None, false).unwrap().is_none());
    }
}
