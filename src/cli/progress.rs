//! Progress on the terminal: a bar (or a spinner) on stderr when stderr is a terminal,
//! notes printed above it.

use crate::api::Progress;
use std::sync::Mutex;

/// A status line on stderr for long steps without a count (e.g. one exact solve after
/// another): a spinner, the message and the elapsed time; hidden when stderr is not a
/// terminal, like [`progress_bar`].
pub fn status_line(message: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let line = indicatif::ProgressBar::new_spinner();
    line.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
            .expect("valid template"),
    );
    line.set_message(message.to_string());
    line.enable_steady_tick(std::time::Duration::from_millis(250));
    line
}

/// A progress bar on stderr when stderr is a terminal; hidden otherwise.
pub fn progress_bar(total: Option<u64>, message: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = match total {
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::no_length(),
    };
    let style = indicatif::ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} games ({per_sec})",
    )
    .expect("valid template");
    bar.set_style(style);
    bar.set_message(message.to_string());
    bar
}

/// The command line's [`Progress`]: one bar at a time on stderr (hidden when stderr is not
/// a terminal); notes are printed above it whether or not it shows.
#[derive(Default)]
pub struct Terminal {
    /// The bar shown, or none yet; `true` when it is a status spinner.
    bar: Mutex<Option<(indicatif::ProgressBar, bool)>>,
}

impl Terminal {
    fn bar(&self) -> indicatif::ProgressBar {
        // A bar is a shared handle: clone it out of the lock.
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        bar.as_ref()
            .map_or_else(indicatif::ProgressBar::hidden, |(b, _)| b.clone())
    }

    /// Shows `bar` instead of the bar shown until now.
    fn replace(&self, bar: indicatif::ProgressBar, spinner: bool) {
        let mut shown = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((old, _)) = shown.take() {
            old.finish_and_clear();
        }
        *shown = Some((bar, spinner));
    }

    /// Clears the bar off the terminal (before the results are printed).
    pub fn finish(&self) {
        self.bar().finish_and_clear();
    }
}

impl Progress for Terminal {
    fn begin(&self, label: &str, total_games: Option<u64>) {
        self.replace(progress_bar(total_games, label), false);
    }

    fn games(&self, n: u64) {
        self.bar().inc(n);
    }

    fn status(&self, text: &str) {
        let spinner = self
            .bar
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|(_, spinner)| *spinner);
        if spinner {
            self.bar().set_message(text.to_string());
        } else {
            self.replace(status_line(text), true);
        }
    }

    fn note(&self, line: &str) {
        self.bar().suspend(|| eprintln!("{line}"));
    }

    /// On the bar where it shows; otherwise (stderr not a terminal: a long run in the
    /// background) one line per round.
    fn round(&self, line: &str, seconds: f64) {
        let bar = self.bar();
        if bar.is_hidden() {
            self.note(&format!("{line} [{seconds:.0} s]"));
        } else {
            bar.set_message(line.to_string());
        }
    }
}
