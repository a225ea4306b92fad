//! What a long computation tells its caller and how it fails: the user's [`Error`] (with
//! the exit code it maps to) and [`Progress`] (what is being done, how many games, the
//! caller's wish to stop), with two ready callers, [`Recorder`] and [`Silent`]; and the
//! lines a long solve writes while it runs ([`notes`]).
//!
//! They sit below every front end and below the command layer ([`crate::api`], which
//! re-exports them), so that the library's own long work, such as training the learned
//! players, reports through them without importing the commands.

pub mod notes;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// An error for the user, with the process exit code it maps to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, in a sentence that names the input at fault.
    pub message: String,
    /// Exit code: 2 for bad input, 1 for failures while running.
    pub code: i32,
}

impl Error {
    /// Bad input from the user (exit code 2).
    pub fn input(message: impl fmt::Display) -> Error {
        Error {
            message: message.to_string(),
            code: 2,
        }
    }

    /// A failure while running (exit code 1).
    pub fn failure(message: impl fmt::Display) -> Error {
        Error {
            message: message.to_string(),
            code: 1,
        }
    }

    /// The caller gave up ([`Progress::cancel_flag`] was set): a failure, nothing returned.
    pub fn cancelled() -> Error {
        Error::failure("cancelled")
    }

    /// Whether this is bad input (exit code 2) rather than a failure while running.
    pub fn is_input(&self) -> bool {
        self.code == 2
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::failure(format!("output error: {e}"))
    }
}

/// What a command tells its caller while it runs, and how the caller stops it.
///
/// Every method has a default that does nothing, so a caller implements only what it shows.
/// Calls may come from several worker threads at once.
pub trait Progress: Sync {
    /// A stage of work starts: its label (e.g. `1..6 vs 0..9`) and, when known, the games
    /// it will play.
    fn begin(&self, _label: &str, _total_games: Option<u64>) {}
    /// `n` more games were played.
    fn games(&self, _n: u64) {}
    /// What is being done now, without a count (e.g. which pair is being solved).
    fn status(&self, _text: &str) {}
    /// A line for the user beside the results: a plan of a long run, a warning.
    fn note(&self, _line: &str) {}
    /// A long run starts its next round (e.g. a search's): what it will play, in `line`,
    /// and the seconds since it started. A caller showing a bar shows `line` on it; by
    /// default it is a note, `line [12 s]`.
    fn round(&self, line: &str, seconds: f64) {
        self.note(&format!("{line} [{seconds:.0} s]"));
    }
    /// The flag the caller sets to give up. The work stops at its next checkpoint (a chunk
    /// of games, the start of a pair, the next sweep of a value iteration) and the command
    /// returns [`Error::cancelled`]; nothing half-done is stored.
    fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        None
    }
}

/// A [`Progress`] for callers that look at the work from elsewhere (another thread, a
/// client over the network): it records the games played and the latest label, status or
/// note, and holds a cancel flag the caller sets with [`Recorder::cancel`].
#[derive(Debug, Default)]
pub struct Recorder {
    games: AtomicU64,
    message: Mutex<String>,
    cancel: Arc<AtomicBool>,
}

impl Recorder {
    fn set_message(&self, text: &str) {
        *self.message.lock().unwrap_or_else(|e| e.into_inner()) = text.to_string();
    }

    /// The games played so far and the latest message.
    pub fn snapshot(&self) -> (u64, String) {
        let message = self
            .message
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (self.games.load(Ordering::Relaxed), message)
    }

    /// Gives up: the work stops at its next checkpoint.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Progress for Recorder {
    fn begin(&self, label: &str, _total_games: Option<u64>) {
        self.set_message(label);
    }

    fn games(&self, n: u64) {
        self.games.fetch_add(n, Ordering::Relaxed);
    }

    fn status(&self, text: &str) {
        self.set_message(text);
    }

    fn note(&self, line: &str) {
        self.set_message(line);
    }

    fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        Some(Arc::clone(&self.cancel))
    }
}

/// Shows nothing and never cancels.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {}
