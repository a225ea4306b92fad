//! Options shared by several subcommands: the board, the rules, the simulation settings.

use super::CliError;
use crate::dice::{Die, read_dice_file};
use crate::rules::{Board, Profile, Rules};
use crate::sim::Stopping;
use clap::Args;
use std::path::Path;

/// The board and the rule profile.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Track fields (40 on the BwInf board).
    #[arg(long, default_value_t = 40)]
    pub track: u32,
    /// Player 2's start field, counted on player 1's track (20 on the BwInf board).
    #[arg(long, default_value_t = 20)]
    pub offset: u32,
    /// Pieces per player (4 on the BwInf board).
    #[arg(long, default_value_t = 4)]
    pub pieces: u32,
    /// Goal fields per player (4 on the BwInf board).
    #[arg(long = "goal-fields", default_value_t = 4)]
    pub goal_fields: u32,
    /// Rule profile: `bwinf`, optionally with switches joined by `+`:
    /// goal-last, no-jump-in-goal, three-tries, roll-off (e.g. `bwinf+goal-last`).
    #[arg(long, default_value = "bwinf")]
    pub profile: String,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> Result<Rules, CliError> {
        let board = Board::new(self.track, self.offset, self.pieces, self.goal_fields)
            .map_err(CliError::input)?;
        let profile: Profile = self
            .profile
            .parse()
            .map_err(|e| CliError::input(format!("--profile: {e}")))?;
        Ok(Rules::new(board, profile))
    }
}

/// How many games, which seed, how many threads.
#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// Play exactly N games per matchup (N even: each die starts half of them).
    #[arg(long, value_name = "N", conflicts_with = "precision")]
    pub games: Option<u64>,
    /// Play until the 95 % interval's half-width is at most H (default 0.002 when --games is not given).
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// Seed of the random streams: the same seed gives the same counts on any number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game reaching this many rolls is counted as unfinished.
    #[arg(long = "max-rolls", default_value_t = 100_000)]
    pub max_rolls: u64,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The default `--precision` when neither `--games` nor `--precision` is given.
pub const DEFAULT_PRECISION: f64 = 0.002;

impl SimArgs {
    /// The validated stopping rule.
    pub fn stopping(&self) -> Result<Stopping, CliError> {
        match (self.games, self.precision) {
            (Some(n), _) => {
                if n < 2 || n % 2 != 0 {
                    return Err(CliError::input(format!(
                        "--games {n}: expected an even number of at least 2, so that each die starts exactly half of the games"
                    )));
                }
                Ok(Stopping::Games(n))
            }
            (None, Some(h)) => {
                if !(h > 0.0 && h < 0.5) {
                    return Err(CliError::input(format!(
                        "--precision {h}: expected a half-width between 0 and 0.5, e.g. 0.001"
                    )));
                }
                Ok(Stopping::Precision(h))
            }
            (None, None) => Ok(Stopping::Precision(DEFAULT_PRECISION)),
        }
    }

    /// Checks the roll cap.
    pub fn max_rolls(&self) -> Result<u64, CliError> {
        if self.max_rolls == 0 {
            return Err(CliError::input("--max-rolls 0: expected at least 1 roll"));
        }
        Ok(self.max_rolls)
    }

    /// Runs `work` on a pool of `--threads` threads, or on rayon's global pool.
    pub fn in_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T, CliError> {
        match self.threads {
            None => Ok(work()),
            Some(0) => Err(CliError::input("--threads 0: expected at least 1 thread")),
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| CliError::failure(format!("cannot start {n} threads: {e}")))?;
                Ok(pool.install(work))
            }
        }
    }
}

/// Parses a die given on the command line (`--die`, `--a`, `--b`).
pub fn parse_die(option: &str, text: &str) -> Result<Die, CliError> {
    text.parse()
        .map_err(|e| CliError::input(format!("{option} '{text}': {e}")))
}

/// Reads a dice file, mapping errors to exit code 2.
pub fn read_dice(path: &Path) -> Result<Vec<Die>, CliError> {
    read_dice_file(path).map_err(CliError::input)
}

/// Fails under `roll-off` when the two dice cannot decide who starts.
pub fn check_roll_off(rules: &Rules, a: &Die, b: &Die) -> Result<(), CliError> {
    if rules.profile().roll_off && !crate::sim::roll_off_can_decide([a, b]) {
        return Err(CliError::input(format!(
            "roll-off between {a} and {b} can never decide who starts (both always show the same face)"
        )));
    }
    Ok(())
}

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

/// The memory limit of an exact solve: `--max-memory SIZE` (bytes, or e.g. `2GiB`), else
/// 80 % of the machine's RAM.
pub fn memory_limit(max_memory: Option<&str>) -> Result<Option<u64>, CliError> {
    match max_memory {
        Some(text) => crate::exact::memory::parse_bytes(text)
            .map(Some)
            .map_err(|e| CliError::input(format!("--max-memory: {e}"))),
        None => Ok(crate::exact::memory::default_limit()),
    }
}
