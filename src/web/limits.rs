//! What a request may ask for: the commands served, the options refused (paths, files,
//! threads), and the bounds of every job (games, memory, time, jobs at once).

use super::ServeOptions;
use super::error::HttpError;
use crate::api::{Error, options::memory_limit};
use serde_json::{Map, Value};

/// The largest request body read, in bytes (a dice list or a game move is far smaller).
pub(crate) const MAX_BODY_BYTES: usize = 64 * 1024;

/// The most rolls a game played here may have (`play`'s `max-rolls` and a game's): every
/// roll is kept in the answer, so the cap bounds its size (about 200 bytes a roll) before
/// anything is played.
pub(crate) const MAX_ROLLS_HERE: u64 = 100_000;

/// The commands served over HTTP: those whose work a bound on games, memory and time
/// keeps small. (`search`, `converge` and the dice games run for minutes to hours.)
pub(super) const HTTP_COMMANDS: [&str; 6] = ["duel", "rank", "table", "solve", "advise", "play"];

/// Options a request may not set beyond those that name paths
/// ([`crate::api::request::without_paths`]): the machine's threads, the answer's form.
const REFUSED: [(&str, &str); 2] = [
    (
        "threads",
        "the server gives each job its share of the cores",
    ),
    ("format", "the answer is always the command's JSON"),
];

/// The bounds of the jobs run over HTTP.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Jobs at once.
    pub max_jobs: usize,
    /// Seconds a job may run.
    pub job_seconds: u64,
    /// Games one job may ask for.
    pub max_games: u64,
    /// Bytes one exact solve may use.
    pub max_memory: u64,
    /// Worker threads of one job: the cores shared among the jobs.
    pub threads: usize,
    /// Games kept at once.
    pub max_games_kept: usize,
    /// Rolls all kept games hold together.
    pub max_rolls_kept: u64,
}

impl Limits {
    /// Checks the options of `serve`.
    pub fn new(o: &ServeOptions) -> Result<Limits, Error> {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let max_jobs = o.max_jobs.unwrap_or(cores);
        if !(1..=crate::api::options::MAX_THREADS).contains(&max_jobs) {
            return Err(Error::input(format!(
                "--max-jobs {max_jobs}: expected 1 to {}",
                crate::api::options::MAX_THREADS
            )));
        }
        if !(1..=86_400).contains(&o.job_seconds) {
            return Err(Error::input(format!(
                "--job-seconds {}: expected 1 to 86400 (a day)",
                o.job_seconds
            )));
        }
        if o.max_games < 2 {
            return Err(Error::input(format!(
                "--max-games {}: expected at least 2",
                o.max_games
            )));
        }
        if o.max_games_kept == 0 {
            return Err(Error::input("--max-games-kept 0: expected at least 1"));
        }
        if o.max_rolls_kept < 2 {
            return Err(Error::input(format!(
                "--max-rolls-kept {}: expected at least 2",
                o.max_rolls_kept
            )));
        }
        let max_memory =
            memory_limit(Some(&o.max_memory))?.expect("a given size is always a limit");
        Ok(Limits {
            max_jobs,
            job_seconds: o.job_seconds,
            max_games: o.max_games,
            max_memory,
            threads: (cores / max_jobs).max(1),
            max_games_kept: o.max_games_kept,
            max_rolls_kept: o.max_rolls_kept,
        })
    }

    /// The options of `command` as the server runs them: refused where they name a path,
    /// ask for more than the bounds or pick their own threads; the server's bounds added.
    pub(crate) fn check(
        &self,
        command: &str,
        mut options: Map<String, Value>,
    ) -> Result<Map<String, Value>, HttpError> {
        if !HTTP_COMMANDS.contains(&command) {
            return Err(HttpError::not_found(format!(
                "no command '{command}' here: expected one of {}",
                HTTP_COMMANDS.join(", ")
            )));
        }
        // By their command-line names, without a path of their own choosing.
        options = crate::api::request::without_paths(options)?;
        for (key, why) in REFUSED {
            if options.contains_key(key) {
                return Err(HttpError::bad_request(format!(
                    "{key}: refused here ({why})"
                )));
            }
        }
        if command == "play" {
            check_rolls(options.get("max-rolls"), MAX_ROLLS_HERE)?;
        }
        // `advise` names its games `rollouts` (`games` is its alias).
        for key in ["games", "rollouts"] {
            if let Some(games) = options.get(key) {
                match games.as_u64() {
                    Some(n) if n <= self.max_games => {}
                    _ => {
                        return Err(HttpError::bad_request(format!(
                            "{key} {games}: at most {} games here",
                            self.max_games
                        )));
                    }
                }
            }
        }
        let solves = match command {
            "solve" | "advise" => true,
            "rank" => options.get("exact") == Some(&Value::Bool(true)),
            _ => false,
        };
        if solves {
            let asked = match options.get("max-memory") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(memory_limit(Some(s))?.unwrap_or(u64::MAX)),
                Some(Value::Number(n)) => Some(n.as_u64().ok_or_else(|| {
                    HttpError::bad_request(format!("max-memory {n}: expected a size"))
                })?),
                Some(other) => {
                    return Err(HttpError::bad_request(format!(
                        "max-memory {other}: expected a size"
                    )));
                }
            };
            if asked.is_some_and(|bytes| bytes > self.max_memory) {
                return Err(HttpError::bad_request(format!(
                    "max-memory: at most {} here",
                    crate::exact::memory::format_bytes(self.max_memory)
                )));
            }
            let bytes = asked.unwrap_or(self.max_memory);
            options.insert("max-memory".into(), bytes.to_string().into());
        }
        if matches!(command, "duel" | "rank" | "table" | "solve") {
            options.insert("threads".into(), self.threads.into());
        }
        Ok(options)
    }
}

/// Refuses a `max-rolls` above `most` (a value that is no whole number is left to the
/// command's own check).
pub(crate) fn check_rolls(max_rolls: Option<&Value>, most: u64) -> Result<(), HttpError> {
    match max_rolls.and_then(Value::as_u64) {
        Some(n) if n > most => Err(HttpError::bad_request(format!(
            "max-rolls {n}: at most {most} rolls here (every roll is kept and in the answer)"
        ))),
        _ => Ok(()),
    }
}
