//! Options shared by several commands (the board and rules, the simulation, the
//! strategies), their checks, and the reading of a command's options from a map of option
//! names to values ([`from_map`]), by the command line's own definition.

use super::Error;
use crate::dice::{Die, excerpt, read_dice_file};
use crate::rules::{Board, Profile, Rules, Seats};
use crate::sim::{DuelPlan, Matchup, PlanError, SimError, Stopping, TableError};
use crate::strategy::Strategy;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The board and the rule profile.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RulesOptions {
    /// Track fields (40 on the BwInf board).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = RulesOptions::DEFAULT.track))]
    pub track: u32,
    /// Player 2's start field, counted on player 1's track (default: half the track, 20 on
    /// the BwInf board).
    #[cfg_attr(feature = "clap", arg(long))]
    pub offset: Option<u32>,
    /// Pieces per player (4 on the BwInf board).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = RulesOptions::DEFAULT.pieces))]
    pub pieces: u32,
    /// Goal fields per player (4 on the BwInf board).
    #[cfg_attr(feature = "clap", arg(long = "goal-fields", default_value_t = RulesOptions::DEFAULT.goal_fields))]
    pub goal_fields: u32,
    /// Rule profile: `bwinf`, optionally with switches joined by `+`:
    /// goal-last, no-jump-in-goal, three-tries, roll-off, choice (players pick the piece
    /// under rule 3), capture-duty (with choice) (e.g. `bwinf+goal-last`, `choice+capture-duty`).
    /// Default: `bwinf` (`choice` for `advise`).
    #[cfg_attr(feature = "clap", arg(long))]
    pub profile: Option<String>,
}

/// The profile every command but `advise` plays when `--profile` is not given.
pub const DEFAULT_PROFILE: &str = "bwinf";

impl RulesOptions {
    /// The command line's defaults: the BwInf board (40 fields, the opponent starting at
    /// 20, 4 pieces, 4 goal fields) under [`DEFAULT_PROFILE`].
    pub const DEFAULT: RulesOptions = RulesOptions {
        track: 40,
        offset: None,
        pieces: 4,
        goal_fields: 4,
        profile: None,
    };
}

impl RulesOptions {
    /// `rules` as options: [`RulesOptions::rules`] gives them back.
    pub fn of(rules: &Rules) -> RulesOptions {
        let board = rules.board();
        RulesOptions {
            track: board.track_len(),
            offset: Some(board.offset()),
            pieces: board.pieces(),
            goal_fields: board.goal_len(),
            profile: Some(rules.profile().to_string()),
        }
    }
}

impl Default for RulesOptions {
    fn default() -> Self {
        RulesOptions::DEFAULT
    }
}

impl RulesOptions {
    /// The validated rules, under [`DEFAULT_PROFILE`] when `--profile` is not given.
    pub fn rules(&self) -> Result<Rules, Error> {
        self.rules_with_default_profile(DEFAULT_PROFILE)
    }

    /// The validated rules, under `default_profile` when `--profile` is not given.
    pub fn rules_with_default_profile(&self, default_profile: &str) -> Result<Rules, Error> {
        // Half the track: the opponent starts opposite, as on the BwInf board (40, 20).
        let offset = self.offset.unwrap_or(self.track / 2);
        let board =
            Board::new(self.track, offset, self.pieces, self.goal_fields).map_err(Error::input)?;
        let profile: Profile = self
            .profile
            .as_deref()
            .unwrap_or(default_profile)
            .parse()
            .map_err(|e| Error::input(format!("--profile: {e}")))?;
        Ok(Rules::new(board, profile))
    }
}

/// How many games, which seed, how many threads.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SimOptions {
    /// Play exactly N games per matchup (at most 10^13): for two dice N even, each starting
    /// half of them; at a table of P players a multiple of P! under `--seating all`, every
    /// seating equally often.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", conflicts_with = "precision")
    )]
    pub games: Option<u64>,
    /// Play until the 95 % interval's half-width is at most H (default 0.002 when --games is
    /// not given; at least 3.1e-7, the finest that 10^13 games reach).
    #[cfg_attr(feature = "clap", arg(long, value_name = "H"))]
    pub precision: Option<f64>,
    /// Seed of the random streams: the same seed gives the same counts on any number of threads.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SimOptions::DEFAULT.seed))]
    pub seed: u64,
    /// A game reaching this many rolls is counted as unfinished.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = SimOptions::DEFAULT.max_rolls))]
    pub max_rolls: u64,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set; more than the cores
    /// are allowed with a warning, more than 1024 are refused).
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
}

/// The default `--precision` when neither `--games` nor `--precision` is given.
pub const DEFAULT_PRECISION: f64 = 0.002;

impl SimOptions {
    /// The command line's defaults: until the 95 % interval's half-width is at most
    /// [`DEFAULT_PRECISION`], seed 1, at most 100,000 rolls a game, every core.
    pub const DEFAULT: SimOptions = SimOptions {
        games: None,
        precision: None,
        seed: 1,
        max_rolls: 100_000,
        threads: None,
    };
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions::DEFAULT
    }
}

/// The most `--threads` accepted.
///
/// The simulation and the exact solvers are compute-bound: threads beyond the cores only
/// take turns on them (hence the warning above the core count). Each thread reserves a
/// stack, and thousands of them are a typo rather than a plan, so a fixed cap, the same on
/// every machine, refuses them: 1024 is more than the cores of any machine this runs on.
pub const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value, the same way and with the same message for every command
/// (and the Python package): 1 to [`MAX_THREADS`]. Without `--threads` the work runs on
/// rayon's global pool, whose size `RAYON_NUM_THREADS` sets: that is checked the same way
/// ([`env_threads`]).
pub fn check_threads(threads: Option<usize>) -> Result<(), Error> {
    match threads {
        Some(0) => Err(Error::input("--threads 0: expected at least 1 thread")),
        Some(n) if n > MAX_THREADS => Err(Error::input(format!(
            "--threads {n}: at most {MAX_THREADS} threads (the work is compute-bound: more \
             threads than cores only take turns)"
        ))),
        Some(_) => Ok(()),
        None => env_threads().map(|_| ()),
    }
}

/// The variable that sizes rayon's global pool, the default when `--threads` is not given.
pub const THREADS_VARIABLE: &str = "RAYON_NUM_THREADS";

/// The threads rayon's global pool would start, as rayon reads the environment: a number
/// in `RAYON_NUM_THREADS` (0 meaning all cores), else one in the deprecated
/// `RAYON_RS_NUM_CPUS`; `None` for all cores. More than [`MAX_THREADS`] is refused with
/// `--threads`' message, naming the variable.
pub fn env_threads() -> Result<Option<usize>, Error> {
    threads_in(|name| std::env::var(name).ok())
}

/// [`env_threads`] in the environment `var` reads.
fn threads_in(var: impl Fn(&str) -> Option<String>) -> Result<Option<usize>, Error> {
    let read = |name: &str| var(name)?.parse::<usize>().ok();
    let (name, n) = match read(THREADS_VARIABLE) {
        Some(0) => return Ok(None),
        Some(n) => (THREADS_VARIABLE, n),
        None => match read("RAYON_RS_NUM_CPUS") {
            Some(n) if n > 0 => ("RAYON_RS_NUM_CPUS", n),
            _ => return Ok(None),
        },
    };
    if n > MAX_THREADS {
        return Err(Error::input(format!(
            "{name}={n}: at most {MAX_THREADS} threads (the work is compute-bound: more \
             threads than cores only take turns)"
        )));
    }
    Ok(Some(n))
}

/// The threads of a pool when none are given: `RAYON_NUM_THREADS` ([`env_threads`]) if
/// set, else all cores, as rayon's global pool has. For callers that build a pool of their
/// own (the Python package gives every call one).
pub fn default_threads() -> Result<usize, Error> {
    Ok(env_threads()?
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())))
}

/// Runs `work` on a pool of `threads` threads, or on rayon's global pool when `None`, after
/// [`check_threads`].
pub fn in_thread_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Error> {
    check_threads(threads)?;
    let Some(n) = threads else {
        return Ok(work());
    };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n > cores && !WARNED_ABOUT_THREADS.swap(true, Ordering::Relaxed) {
        eprintln!(
            "warning: --threads {n} is more than the {cores} cores of this machine; the extra threads only take turns"
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::failure(format!("cannot start {n} threads: {e}")))?;
    Ok(pool.install(work))
}

/// Set once the warning about more threads than cores has been printed.
static WARNED_ABOUT_THREADS: AtomicBool = AtomicBool::new(false);

impl SimOptions {
    /// The validated stopping rule.
    pub fn stopping(&self) -> Result<Stopping, Error> {
        match (self.games, self.precision) {
            (Some(n), _) => Stopping::games(n).map_err(|e| Error::input(format!("--games: {e}"))),
            (None, Some(h)) => {
                Stopping::precision(h).map_err(|e| Error::input(format!("--precision: {e}")))
            }
            (None, None) => Ok(Stopping::precision(DEFAULT_PRECISION)
                .expect("the default precision is a valid half-width")),
        }
    }

    /// Checks the roll cap.
    pub fn max_rolls(&self) -> Result<u64, Error> {
        if self.max_rolls == 0 {
            return Err(Error::input("--max-rolls 0: expected at least 1 roll"));
        }
        Ok(self.max_rolls)
    }

    /// Die A against die B with `--max-rolls`, checked by [`Matchup::new`].
    pub fn matchup<'a>(
        &self,
        rules: &'a Rules,
        a: &'a Die,
        b: &'a Die,
    ) -> Result<Matchup<'a>, Error> {
        matchup(rules, a, b, self.max_rolls()?, "--max-rolls")
    }

    /// Runs `work` on a pool of `--threads` threads, or on rayon's global pool.
    ///
    /// `--threads` above the machine's cores is allowed with a warning on stderr (once per
    /// process); above [`MAX_THREADS`], or 0, it is refused.
    pub fn in_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T, Error> {
        in_thread_pool(self.threads, work)
    }

    /// Checks `--threads` ([`check_threads`]).
    pub fn check_threads(&self) -> Result<(), Error> {
        check_threads(self.threads)
    }
}

/// A plan announced this far ahead gets a line on stderr: shorter runs just run.
const ANNOUNCE_ABOVE: Duration = Duration::from_secs(5);

/// The line on stderr that says up front how many games a long duel will play and about
/// how long that takes (from the speed of its first games); `None` for short runs.
pub fn plan_line(what: &str, plan: &DuelPlan) -> Option<String> {
    let remaining = plan.remaining_time()?;
    if remaining < ANNOUNCE_ABOVE {
        return None;
    }
    let rate = plan.played as f64 / plan.elapsed.as_secs_f64();
    Some(format!(
        "{what}: {} games planned, about {} at the {} games/s of the first {} games",
        crate::report::thousands(plan.games),
        crate::work::notes::human_duration(remaining),
        human_count(rate),
        crate::report::thousands(plan.played)
    ))
}

/// A rate for people: `850k`, `1.2M`.
fn human_count(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.0}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// Die A against die B under `rules` with roll cap `max_rolls` (the option named
/// `rolls_option`), with [`Matchup::new`]'s refusals as input errors.
pub fn matchup<'a>(
    rules: &'a Rules,
    a: &'a Die,
    b: &'a Die,
    max_rolls: u64,
    rolls_option: &str,
) -> Result<Matchup<'a>, Error> {
    Matchup::new(rules, [a, b], max_rolls).map_err(|e| match e {
        crate::sim::MatchupError::NoRolls => {
            Error::input(format!("{rolls_option} 0: expected at least 1 roll"))
        }
        roll_off => Error::input(format!("--profile {}: {roll_off}", rules.profile())),
    })
}

/// Parses a die given on the command line (`--die`, `--a`, `--b`).
pub fn parse_die(option: &str, text: &str) -> Result<Die, Error> {
    text.parse()
        .map_err(|e| Error::input(format!("{option} {}: {e}", excerpt(text))))
}

/// Reads a dice file, mapping errors to exit code 2.
pub fn read_dice(path: &Path) -> Result<Vec<Die>, Error> {
    read_dice_file(path).map_err(Error::input)
}

/// Fails under `roll-off` when the two dice cannot decide who starts ([`Matchup::new`]'s
/// check, for commands that do not simulate).
pub fn check_roll_off(rules: &Rules, a: &Die, b: &Die) -> Result<(), Error> {
    matchup(rules, a, b, 1, "--max-rolls").map(|_| ())
}

/// The memory limit of an exact solve: `--max-memory SIZE` (bytes, or e.g. `2GiB`), else
/// 80 % of the machine's RAM.
///
/// A limit above the machine's memory is refused: the solver would plan for memory that is
/// not there and be killed (or swap for days) instead of falling back or stopping with a
/// message. Where the machine's memory cannot be read, any size is accepted.
pub fn memory_limit(max_memory: Option<&str>) -> Result<Option<u64>, Error> {
    use crate::exact::memory::{default_limit, format_bytes, machine_memory, parse_bytes};
    let Some(text) = max_memory else {
        return Ok(default_limit());
    };
    let bytes = parse_bytes(text).map_err(|e| {
        // The parser quotes the whole text: pass its message on only for a short, clean one.
        let quoted = excerpt(text);
        if quoted == format!("'{text}'") {
            Error::input(format!("--max-memory: {e}"))
        } else {
            Error::input(format!(
                "--max-memory {quoted}: expected a size, e.g. 2GiB, 500MB or a number of bytes"
            ))
        }
    })?;
    match machine_memory() {
        Some(machine) if bytes > machine => Err(Error::input(format!(
            "--max-memory {}: more than the {} of memory this machine has",
            excerpt(text.trim()),
            format_bytes(machine)
        ))),
        _ => Ok(Some(bytes)),
    }
}

/// The table of `players` seats under the command line's rules, refusals as input errors.
pub fn seats(rules: &Rules, players: usize, option: &str) -> Result<Seats, Error> {
    Seats::new(*rules, players).map_err(|e| match e {
        crate::rules::SeatsError::Players(_) => Error::input(format!("{option}: {e}")),
        crate::rules::SeatsError::Switch { .. } => Error::input(format!("--profile: {e}")),
        crate::rules::SeatsError::Offset { .. } => Error::input(format!("--offset: {e}")),
    })
}

/// Maps a duel's error: a plan that would take too long is the options' fault (they name
/// the games), anything else a failure while running.
pub fn sim_error(e: SimError) -> Error {
    match e {
        SimError::Plan(PlanError::TooLong(_)) => Error::input(e),
        e => Error::failure(e),
    }
}

/// Maps a table error to the option at fault (input) or a failure while running.
pub fn table_error(e: TableError) -> Error {
    match e {
        TableError::DiceCount { .. } => Error::input(format!("--die: {e}")),
        TableError::NoRolls => Error::input("--max-rolls 0: expected at least 1 roll"),
        TableError::Games { .. } => Error::input(format!("--games: {e}")),
        TableError::Plan(crate::sim::PlanError::TooManyGames(_)) => {
            Error::input(format!("--games: {e}"))
        }
        // The message names both options.
        TableError::Plan(crate::sim::PlanError::TooLong(_)) => Error::input(e),
        TableError::Plan(_) => Error::input(format!("--precision: {e}")),
        TableError::PrecisionNotReached { .. } => Error::failure(e),
        TableError::StrategyCount { .. }
        | TableError::StrategyNeedsChoice { .. }
        | TableError::NotAtTables { .. }
        | TableError::NoTablePlayer { .. } => Error::input(format!("--strategy: {e}")),
    }
}

/// The players' strategies (options shared by `duel`, `rank` and `play`).
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct StrategyOptions {
    /// Strategy of both players under --profile choice (default frontmost, the bwinf rule 3):
    /// frontmost, rearmost, capture, safe, random, the learned strong or strong-search (one
    /// roll of look-ahead; strong-search-2 and strong-search-3: two and three) on the boards
    /// they were trained for, strong:FILE or strong-search:FILE (a player written by train),
    /// table:FILE, or exact:DIR (the values of `solve --layered --values-out DIR`;
    /// exact+FALLBACK:DIR names who plays where they hold none, strong if not given). Other
    /// strategies than frontmost need --profile choice (or choice+capture-duty).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub strategy: Option<String>,
    /// Strategy of die A (player 1); overrides --strategy for A.
    #[cfg_attr(feature = "clap", arg(long = "strategy-a", value_name = "NAME"))]
    pub strategy_a: Option<String>,
    /// Strategy of die B (player 2); overrides --strategy for B.
    #[cfg_attr(feature = "clap", arg(long = "strategy-b", value_name = "NAME"))]
    pub strategy_b: Option<String>,
}

impl StrategyOptions {
    /// Die A's and die B's strategies, checked against the profile: anything but
    /// `frontmost` needs `choice`.
    pub fn strategies(&self, rules: &Rules) -> Result<[Strategy; 2], Error> {
        let parse = |option: &str, text: &Option<String>| -> Result<Option<Strategy>, Error> {
            text.as_deref()
                .map(|t| {
                    t.parse::<Strategy>()
                        .map_err(|e| Error::input(format!("{option}: {e}")))
                })
                .transpose()
        };
        let both = parse("--strategy", &self.strategy)?;
        let a = parse("--strategy-a", &self.strategy_a)?;
        let b = parse("--strategy-b", &self.strategy_b)?;
        let chosen = [
            (a.or_else(|| both.clone()), self.option_for(0)),
            (b.or(both), self.option_for(1)),
        ];
        let mut strategies = [Strategy::Frontmost, Strategy::Frontmost];
        for (slot, (strategy, option)) in strategies.iter_mut().zip(chosen) {
            let Some(strategy) = strategy else { continue };
            check_strategy(rules, &strategy, option)?;
            *slot = strategy;
        }
        Ok(strategies)
    }

    /// The option that set player `player`'s strategy, for messages.
    fn option_for(&self, player: usize) -> &'static str {
        match (player, &self.strategy_a, &self.strategy_b) {
            (0, Some(_), _) => "--strategy-a",
            (1, _, Some(_)) => "--strategy-b",
            _ => "--strategy",
        }
    }

    /// Whether any strategy option was given.
    pub fn given(&self) -> bool {
        self.strategy.is_some() || self.strategy_a.is_some() || self.strategy_b.is_some()
    }
}

/// Refuses a strategy other than `frontmost` where the rules fix every move (anything but
/// `choice`); `option` names where it was given, for the message.
pub fn check_strategy(rules: &Rules, strategy: &Strategy, option: &str) -> Result<(), Error> {
    if !strategy.is_frontmost() && !rules.profile().choice {
        return Err(Error::input(format!(
            "{option} {}: a strategy picks among moves, which needs --profile choice \
             (or choice+capture-duty); under --profile {} rule 3 fixes every move \
             (the frontmost piece that can move)",
            strategy.name(),
            rules.profile()
        )));
    }
    Ok(())
}

/// A command's options from a map of option names to values, read by the options' own
/// command-line definition: the same defaults, checks and messages as the command line.
///
/// A key is an option's long name (`max-rolls`, or `max_rolls` as Python spells it) or a
/// positional argument's name (`file`). A value is a string or number (given as the
/// option's text), `true` for a switch (`false` and `null` leave the option out), or an
/// array: one option per element for a repeated option (`die`), else its elements joined by
/// commas (`values`). An unknown key is refused with the known ones listed.
#[cfg(feature = "clap")]
pub fn from_map<T: clap::Args + clap::FromArgMatches>(
    command: &str,
    map: &serde_json::Map<String, serde_json::Value>,
) -> Result<T, Error> {
    use clap::ArgAction;
    use serde_json::Value;
    let definition = T::augment_args(clap::Command::new("options"))
        .no_binary_name(true)
        .allow_negative_numbers(true)
        .disable_help_flag(true);
    let mut positional = Vec::new();
    let mut argv: Vec<String> = Vec::new();
    for (key, value) in map {
        let name = key.replace('_', "-");
        let arg = definition
            .get_arguments()
            .find(|a| {
                a.get_long() == Some(name.as_str())
                    || a.get_all_aliases()
                        .is_some_and(|aliases| aliases.contains(&name.as_str()))
                    || (a.is_positional() && a.get_id().as_str() == key.as_str())
            })
            .ok_or_else(|| {
                let known: Vec<String> = definition
                    .get_arguments()
                    .map(|a| match a.get_long() {
                        Some(long) => long.to_string(),
                        None => a.get_id().to_string(),
                    })
                    .collect();
                Error::input(format!(
                    "{command}: unknown option '{key}' (expected one of: {})",
                    known.join(", ")
                ))
            })?;
        let text = |v: &Value| -> Result<String, Error> {
            match v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                other => Err(Error::input(format!(
                    "{command}: option '{key}': expected a string or a number, got {other}"
                ))),
            }
        };
        let flag = matches!(arg.get_action(), ArgAction::SetTrue);
        let repeated = matches!(arg.get_action(), ArgAction::Append);
        let values: Vec<String> = match value {
            Value::Null | Value::Bool(false) if flag => continue,
            Value::Null => continue,
            Value::Bool(true) if flag => {
                argv.push(format!("--{name}"));
                continue;
            }
            Value::Bool(_) => {
                return Err(Error::input(format!(
                    "{command}: option '{key}' takes a value, not {value}"
                )));
            }
            _ if flag => {
                return Err(Error::input(format!(
                    "{command}: option '{key}' is a switch: true or false, not {value}"
                )));
            }
            Value::Array(items) if repeated => items.iter().map(text).collect::<Result<_, _>>()?,
            Value::Array(items) => vec![
                items
                    .iter()
                    .map(text)
                    .collect::<Result<Vec<_>, _>>()?
                    .join(","),
            ],
            Value::Object(_) => {
                return Err(Error::input(format!(
                    "{command}: option '{key}': expected a string or a number, got an object"
                )));
            }
            v => vec![text(v)?],
        };
        for v in values {
            if arg.is_positional() {
                positional.push(v);
            } else {
                // `--name=value`: a value starting with `-` stays a value.
                argv.push(format!("--{name}={v}"));
            }
        }
    }
    if !positional.is_empty() {
        argv.push("--".to_string());
        argv.extend(positional);
    }
    let mut matches = definition
        .try_get_matches_from(argv)
        .map_err(|e| Error::input(clap_message(&e)))?;
    T::from_arg_matches_mut(&mut matches).map_err(|e| Error::input(e.to_string()))
}

/// The message of clap's refusal on one line: its first paragraph (without `error: `, the
/// usage and the tips), lines joined by spaces, e.g. "the following required arguments
/// were not provided: --exact".
#[cfg(feature = "clap")]
pub fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    text.lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// Refuses `--style` (counting how the players choose) under a profile without `choice`,
/// where rule 3 leaves nothing to choose.
pub(super) fn check_style(style: bool, rules: &Rules) -> Result<(), Error> {
    if style && !rules.profile().choice {
        return Err(Error::input(format!(
            "--style counts how the players choose among their legal moves, and under \
             --profile {} rule 3 leaves no choice (the frontmost piece moves); use \
             --profile choice",
            rules.profile()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults a Rust user gets without the command line are the command line's: the
    /// options parsed from no arguments equal `Default` (compared as their `Debug` text).
    #[cfg(feature = "clap")]
    #[test]
    fn the_shared_options_default_as_the_command_line_does() {
        use clap::{Args, FromArgMatches};
        fn parsed<T: Args + FromArgMatches>() -> T {
            let command = T::augment_args(clap::Command::new("options")).no_binary_name(true);
            let matches = command.try_get_matches_from(Vec::<String>::new()).unwrap();
            T::from_arg_matches(&matches).unwrap()
        }
        assert_eq!(
            format!("{:?}", parsed::<RulesOptions>()),
            format!("{:?}", RulesOptions::default())
        );
        assert_eq!(
            format!("{:?}", parsed::<SimOptions>()),
            format!("{:?}", SimOptions::default())
        );
        assert_eq!(
            format!("{:?}", parsed::<StrategyOptions>()),
            format!("{:?}", StrategyOptions::default())
        );
        // And they are the BwInf game: a mistaken default would not be caught by the above.
        assert_eq!(
            RulesOptions::default().rules().unwrap(),
            crate::rules::Rules::bwinf()
        );
    }

    /// `solve`'s options made by the typed builder's constructor are the command line's
    /// for the same dice and rules (compared as their `Debug` text).
    #[cfg(feature = "clap")]
    #[test]
    fn solve_options_new_defaults_as_the_command_line_does() {
        use super::super::SolveOptions;
        use clap::{Args, FromArgMatches};
        let command = SolveOptions::augment_args(clap::Command::new("solve")).no_binary_name(true);
        let args = [
            "--a",
            "1..6",
            "--b",
            "1,1,1,6,6,6",
            "--offset",
            "20",
            "--profile",
            "bwinf",
        ];
        let parsed =
            SolveOptions::from_arg_matches(&command.try_get_matches_from(args).unwrap()).unwrap();
        let typed = SolveOptions::new(
            &crate::rules::Rules::bwinf(),
            &"1..6".parse().unwrap(),
            &"1,1,1,6,6,6".parse().unwrap(),
        );
        assert_eq!(format!("{parsed:?}"), format!("{typed:?}"));
    }

    /// Rules turned into options give the same rules back, on every board shape and
    /// profile switch.
    #[test]
    fn rules_as_options_give_the_rules_back() {
        use crate::rules::{Board, Profile};
        for (track, offset, pieces, goal) in
            [(40, 20, 4, 4), (16, 8, 2, 2), (22, 11, 4, 4), (12, 3, 1, 3)]
        {
            for profile in [
                "bwinf",
                "bwinf+goal-last+three-tries",
                "choice",
                "choice+capture-duty",
                "bwinf+roll-off+no-jump-in-goal",
            ] {
                let rules = Rules::new(
                    Board::new(track, offset, pieces, goal).unwrap(),
                    profile.parse::<Profile>().unwrap(),
                );
                assert_eq!(
                    RulesOptions::of(&rules).rules().unwrap(),
                    rules,
                    "{track}/{offset}/{pieces}/{goal} {profile}"
                );
            }
        }
    }

    /// `RAYON_NUM_THREADS` (and the deprecated `RAYON_RS_NUM_CPUS`) are read as rayon reads
    /// them, and a count above the cap is refused with `--threads`' message, naming the
    /// variable: the global pool never starts a million threads.
    #[test]
    fn the_thread_variables_are_capped_as_threads_is() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            threads_in(move |name| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(env(&[]).unwrap(), None);
        assert_eq!(env(&[("RAYON_NUM_THREADS", "3")]).unwrap(), Some(3));
        assert_eq!(env(&[("RAYON_NUM_THREADS", "1024")]).unwrap(), Some(1024));
        // 0 and what is not a number mean all cores, as in rayon.
        assert_eq!(env(&[("RAYON_NUM_THREADS", "0")]).unwrap(), None);
        assert_eq!(env(&[("RAYON_NUM_THREADS", "many")]).unwrap(), None);
        let refused = env(&[("RAYON_NUM_THREADS", "1000000")]).unwrap_err();
        assert!(refused.is_input());
        assert!(
            refused
                .to_string()
                .contains("RAYON_NUM_THREADS=1000000: at most 1024 threads"),
            "{refused}"
        );
        // rayon reads the old name where the new one says nothing, and so does the check.
        let old = env(&[("RAYON_NUM_THREADS", "x"), ("RAYON_RS_NUM_CPUS", "5000")]);
        assert!(
            old.unwrap_err()
                .to_string()
                .contains("RAYON_RS_NUM_CPUS=5000")
        );
        assert_eq!(
            env(&[("RAYON_NUM_THREADS", "0"), ("RAYON_RS_NUM_CPUS", "5000")]).unwrap(),
            None
        );
    }
}
