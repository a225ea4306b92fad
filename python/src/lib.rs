//! `wuerfelglueck._native`: the Rust library behind the Python package.
//!
//! Thin glue only: options are checked by the command line's own validators
//! (`wuerfelglueck::cli::common`), so a bad value raises `ValueError` with the CLI's message;
//! the work is the library's; results leave as the CLI's report structs, serialized to JSON
//! (so `to_dict()` has exactly the CLI's field names), with the CLI's table and CSV text.
//! The public Python signatures, defaults and docstrings live in `wuerfelglueck/__init__.py`,
//! which passes every option to this module in one dict.
//!
//! Long calls run on a thread of their own while the calling thread waits without the GIL,
//! waking every 100 ms to poll `Python::check_signals` (Ctrl-C) and the progress callback.
//! On Ctrl-C the call raises `KeyboardInterrupt` at once and the work stops at its next
//! checkpoint (a chunk of games, the start of a pair, the next sweep of a value
//! iteration: [`wuerfelglueck::fixpoint::cancellable`]); a solve cut off is not stored, and
//! the store of solved pairs is only ever written atomically, so no record is left
//! half-written.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::json;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use wuerfelglueck::cli::common::{
    DEFAULT_PRECISION, RulesOptions, SimOptions, check_roll_off, memory_limit, parse_die, read_dice,
    seats, table_error,
};
use wuerfelglueck::cli::rank::ranking_strategy;
use wuerfelglueck::cli::strategy::StrategyOptions;
use wuerfelglueck::cli::{Cli, CliError, check_plot, plot_error, rule_error};
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::matrix_free::Storage;
use wuerfelglueck::exact::store::{PairStore, StoredPair};
use wuerfelglueck::exact::{SolveOptions, least_memory, solve_fitting, solve_matrix_free};
use wuerfelglueck::rank::{
    ExactPairOutcome, PairFailure, RankError, SimulationPlan, Tournament, exact_ranking_pair,
    exact_strategy_name, simulate_pair, simulate_tournament_playing, solve_tournament,
};
use wuerfelglueck::report::plot::heatmap_svg;
use wuerfelglueck::report::{
    self, DuelReport, Format, RankReport, Report, SolveReport, TableReport, TableSettings,
    write_duel,
};
use wuerfelglueck::rules::Rules;
use wuerfelglueck::sim::{DuelCounts, Seating, StartCounts, StreamKey, Table, run_duel_announced};
use wuerfelglueck::strategy::Strategy;

/// The CLI's error as a Python exception: bad input (exit code 2) is a `ValueError`, a
/// failure while running (exit code 1) a `RuntimeError`.
fn py_err(e: CliError) -> PyErr {
    if e.code == 2 {
        PyValueError::new_err(e.message)
    } else {
        PyRuntimeError::new_err(e.message)
    }
}

/// A die given from Python: text in the CLI's notation, or a list of faces.
#[derive(FromPyObject, Clone)]
enum DieArg {
    Text(String),
    Faces(Vec<i64>),
}

/// The die of option `option` (e.g. `--a`), refused with the CLI's message.
fn die_of(option: &str, arg: &DieArg) -> Result<Die, CliError> {
    match arg {
        DieArg::Text(text) => parse_die(option, text),
        DieArg::Faces(faces) => {
            let faces = faces
                .iter()
                .map(|&f| {
                    u32::try_from(f).map_err(|_| {
                        CliError::input(format!(
                            "{option}: face {f} is not a whole number from 0 to {}",
                            u32::MAX
                        ))
                    })
                })
                .collect::<Result<Vec<u32>, _>>()?;
            Die::new(faces).map_err(|e| CliError::input(format!("{option}: {e}")))
        }
    }
}

/// A whole number from Python for option `option`, in the range of the library's type `T`
/// (`wuerfelglueck/__init__.py` has checked that range already, naming the argument).
fn count<T: TryFrom<u64>>(option: &str, value: u64) -> Result<T, CliError> {
    T::try_from(value).map_err(|_| CliError::input(format!("{option} {value}: out of range")))
}

/// Every option of every command, as `wuerfelglueck/__init__.py` passes them (one dict,
/// all keys present: the defaults are set there, as the CLI sets them).
#[derive(FromPyObject, Clone)]
#[pyo3(from_item_all)]
struct Opts {
    games: Option<u64>,
    precision: Option<f64>,
    seed: u64,
    max_rolls: u64,
    threads: Option<u64>,
    track: u64,
    /// `None`: half the track, as the CLI's default.
    offset: Option<u64>,
    pieces: u64,
    goal_fields: u64,
    profile: String,
    tolerance: f64,
    max_sweeps: u64,
    max_memory: Option<String>,
    store: Option<PathBuf>,
    matrix_free: bool,
    f32: bool,
    plot: Option<PathBuf>,
    overwrite: bool,
    strategy: Option<String>,
    strategy_a: Option<String>,
    strategy_b: Option<String>,
}

impl Opts {
    fn rules_args(&self) -> Result<RulesOptions, CliError> {
        Ok(RulesOptions {
            track: count("--track", self.track)?,
            offset: self.offset.map(|o| count("--offset", o)).transpose()?,
            pieces: count("--pieces", self.pieces)?,
            goal_fields: count("--goal-fields", self.goal_fields)?,
            profile: Some(self.profile.clone()),
        })
    }

    fn rules(&self) -> Result<Rules, CliError> {
        self.rules_args()?.rules()
    }

    /// `--strategy`, `--strategy-a`, `--strategy-b`, checked by the CLI's own code.
    fn strategy_args(&self) -> StrategyOptions {
        StrategyOptions {
            strategy: self.strategy.clone(),
            strategy_a: self.strategy_a.clone(),
            strategy_b: self.strategy_b.clone(),
        }
    }

    fn sim(&self) -> Result<SimOptions, CliError> {
        Ok(SimOptions {
            games: self.games.map(|g| count("--games", g)).transpose()?,
            precision: self.precision,
            seed: count("--seed", self.seed)?,
            max_rolls: count("--max-rolls", self.max_rolls)?,
            // Always a pool of the call's own: a call stopped by Ctrl-C must never hold up
            // the next one on rayon's global pool.
            threads: Some(match self.threads {
                Some(t) => count("--threads", t)?,
                None => default_threads(),
            }),
        })
    }

    fn plan(&self) -> Result<SimulationPlan, CliError> {
        let sim = self.sim()?;
        Ok(SimulationPlan {
            stopping: sim.stopping()?,
            seed: sim.seed,
            max_rolls: sim.max_rolls()?,
        })
    }

    fn solve_options(&self) -> Result<SolveOptions, CliError> {
        SolveOptions::new(
            self.tolerance,
            count("--max-sweeps", self.max_sweeps)?,
            memory_limit(self.max_memory.as_deref())?,
        )
        .map_err(|e| rule_error(e.0))
    }

    fn store(&self) -> Result<Option<PairStore>, CliError> {
        self.store
            .as_deref()
            .map(|dir| PairStore::open(dir).map_err(|e| CliError::input(format!("--store {e}"))))
            .transpose()
    }
}

/// The threads of a call without `threads`: `RAYON_NUM_THREADS` if set (as the CLI), else
/// all cores.
fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A report as it leaves for Python: its JSON text, its table, its CSV text (if it has one).
type Native = (String, String, Option<String>);

/// The JSON, table and CSV forms of a report, by the CLI's one writer per format.
fn native<R: Report>(report: &R) -> Result<Native, CliError> {
    let text = |format| -> Result<String, CliError> {
        let mut out = Vec::new();
        report::write(&mut out, report, format)?;
        Ok(String::from_utf8(out).expect("reports are UTF-8"))
    };
    let csv = R::FORMATS
        .contains(&Format::Csv)
        .then(|| text(Format::Csv))
        .transpose()?;
    Ok((text(Format::Json)?, text(Format::Table)?, csv))
}

// ---------------------------------------------------------------------------------------
// Running long work off the Python thread.

/// Unwinds the work's thread when the caller has given up (Ctrl-C, an exception in the
/// progress callback); never seen by the caller, which has already returned.
struct Cancelled;

/// What the work tells the waiting Python thread, and how that thread stops it.
#[derive(Default)]
struct Monitor {
    games: AtomicU64,
    message: Mutex<String>,
    cancel: Arc<AtomicBool>,
}

impl Monitor {
    /// Runs `work` (on the thread that drives its iterations) so that every value
    /// iteration in it stops before its next sweep once the caller has given up: a solve
    /// ends within a sweep of Ctrl-C instead of running on in the background.
    fn cancellable<T>(&self, work: impl FnOnce() -> T) -> T {
        wuerfelglueck::fixpoint::cancellable(Arc::clone(&self.cancel), work)
    }

    /// Stops the work here if the caller has given up. Called only where the library calls
    /// back (between chunks of games and between pairs), where nothing half-done is left.
    fn checkpoint(&self) {
        if self.cancel.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }

    fn add_games(&self, n: u64) {
        self.games.fetch_add(n, Ordering::Relaxed);
        self.checkpoint();
    }

    fn set_message(&self, message: &str) {
        *self.message.lock().unwrap_or_else(|e| e.into_inner()) = message.to_string();
        self.checkpoint();
    }

    fn snapshot(&self) -> (u64, String) {
        let message = self
            .message
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (self.games.load(Ordering::Relaxed), message)
    }
}

/// Runs `work` on a thread of its own and waits for it without the GIL, polling Ctrl-C and
/// calling `progress(games_played, message)` (on this thread, with the GIL) when either
/// changed.
///
/// Ctrl-C is seen through Python's SIGINT handler (`check_signals` runs it every 0.1 s, and
/// a handler that raises in the progress callback stops the call too): with Python's
/// default handler the call raises `KeyboardInterrupt`. A process that ignores SIGINT (one
/// started in the background of a non-interactive shell inherits SIGINT ignored, and Python
/// then installs no handler) never sees the signal; that is the process's choice, and this
/// module installs no handler of its own.
fn run_detached<T: Send + 'static>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&Monitor) -> Result<T, CliError> + Send + 'static,
) -> PyResult<T> {
    let monitor = Arc::new(Monitor::default());
    let (tx, rx) = mpsc::channel();
    let shared = Arc::clone(&monitor);
    std::thread::Builder::new()
        .name("wuerfelglueck".into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| work(&shared)));
            // The receiver is gone when the caller gave up: nobody needs the result.
            let _ = tx.send(outcome);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let mut shown = (0, String::new());
    let give_up = |e: PyErr| {
        monitor.cancel.store(true, Ordering::Relaxed);
        Err(e)
    };
    let mut rx = rx;
    loop {
        // The receiver moves into the GIL-free closure and back (it is Send, not Sync).
        let (back, received) = py.detach(move || {
            let received = rx.recv_timeout(Duration::from_millis(100));
            (rx, received)
        });
        rx = back;
        if let Some(callback) = &progress {
            let now = monitor.snapshot();
            if now != shown {
                if let Err(e) = callback.call1(py, (now.0, now.1.clone())) {
                    return give_up(e);
                }
                shown = now;
            }
        }
        match received {
            Ok(Ok(result)) => return result.map_err(py_err),
            Ok(Err(panic)) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown".into());
                return Err(PyRuntimeError::new_err(format!("internal error: {what}")));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the work thread vanished",
                ));
            }
        }
        if let Err(e) = py.check_signals() {
            return give_up(e);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Values.

/// `Die(faces)`: the die's faces and its CLI notation, or `ValueError`.
#[pyfunction]
fn die(faces: DieArg) -> PyResult<(Vec<u32>, String)> {
    let die = die_of("die", &faces).map_err(py_err)?;
    Ok((die.faces().to_vec(), die.to_string()))
}

/// `Rules(...)`: the board and profile as the CLI names them, or `ValueError`.
#[pyfunction]
fn rules(opts: Opts) -> PyResult<(String, String)> {
    let rules = opts.rules().map_err(py_err)?;
    Ok((rules.board().to_string(), rules.profile().to_string()))
}

// ---------------------------------------------------------------------------------------
// Commands with progress and Ctrl-C.

/// `duel`: one matchup simulated (the CLI's `duel`).
#[pyfunction]
#[pyo3(signature = (a, b, opts, progress=None))]
fn duel(
    py: Python<'_>,
    a: DieArg,
    b: DieArg,
    opts: Opts,
    progress: Option<Py<PyAny>>,
) -> PyResult<Native> {
    run_detached(py, progress, move |monitor| {
        let rules = opts.rules()?;
        let a = die_of("--a", &a)?;
        let b = die_of("--b", &b)?;
        let strategies = opts.strategy_args().strategies(&rules)?;
        let sim = opts.sim()?;
        let stopping = sim.stopping()?;
        let matchup = sim
            .matchup(&rules, &a, &b)?
            .playing(strategies)
            .map_err(CliError::input)?;
        monitor.set_message(&format!("{a} vs {b}"));
        let counts = sim
            .in_pool(|| {
                run_duel_announced(
                    &matchup,
                    StreamKey::new(sim.seed),
                    stopping,
                    &|n| monitor.add_games(n),
                    &|_| {},
                )
            })?
            .map_err(CliError::failure)?;
        let report = DuelReport::new(
            [&a, &b],
            rules.profile().to_string(),
            rules.board().to_string(),
            &counts,
            sim.seed,
            matchup.max_rolls(),
            stopping.claimed_half_width(),
        )
        .with_strategies(matchup.strategies());
        let text = |format| -> Result<String, CliError> {
            let mut out = Vec::new();
            write_duel(&mut out, &report, format)?;
            Ok(String::from_utf8(out).expect("reports are UTF-8"))
        };
        Ok((
            text(Format::Json)?,
            text(Format::Table)?,
            Some(text(Format::Csv)?),
        ))
    })
}

/// The dice of a ranking: a dice file, or dice given one by one (`--die`).
#[derive(FromPyObject, Clone)]
enum DiceArg {
    File(PathBuf),
    Dice(Vec<DieArg>),
}

/// The dice of a ranking, checked as `rank` checks them.
fn rank_dice(dice: &DiceArg, rules: &Rules) -> Result<Vec<Die>, CliError> {
    let (dice, source) = match dice {
        DiceArg::File(file) => (read_dice(file)?, file.display().to_string()),
        DiceArg::Dice(list) => (
            list.iter()
                .map(|d| die_of("--die", d))
                .collect::<Result<Vec<_>, _>>()?,
            "--die".to_string(),
        ),
    };
    if dice.len() < 2 {
        return Err(CliError::input(format!(
            "{source}: rank needs at least two dice, found {}",
            dice.len()
        )));
    }
    for (i, a) in dice.iter().enumerate() {
        for b in &dice[i + 1..] {
            check_roll_off(rules, a, b)?;
        }
    }
    Ok(dice)
}

/// The report of a ranking, as `rank` builds it.
fn rank_report(
    t: &Tournament,
    rules: &Rules,
    exact: bool,
    strategy: &Strategy,
    seed: u64,
    started: Instant,
    notes: Vec<String>,
) -> Result<Native, CliError> {
    let report = RankReport::new(
        t,
        rules.profile().to_string(),
        rules.board().to_string(),
        Some(seed),
        started.elapsed().as_secs_f64(),
        notes,
    );
    native(&report.with_strategy(&if exact {
        exact_strategy_name(rules)
    } else {
        strategy.name()
    }))
}

/// `rank`: every pair of a list of dice (the CLI's `rank`), simulated or exact.
#[pyfunction]
#[pyo3(signature = (dice, exact, opts, progress=None))]
fn rank(
    py: Python<'_>,
    dice: DiceArg,
    exact: bool,
    opts: Opts,
    progress: Option<Py<PyAny>>,
) -> PyResult<Native> {
    run_detached(py, progress, move |monitor| {
        let rules = opts.rules()?;
        let strategy = ranking_strategy(&opts.strategy_args(), &rules, exact)?;
        // Checked before any work, as `rank --plot` does.
        let plot = check_plot(opts.plot.as_deref(), opts.overwrite)?;
        let dice = rank_dice(&dice, &rules)?;
        let plan = opts.plan()?;
        let sim = opts.sim()?;
        let started = Instant::now();
        let games = |n| monitor.add_games(n);
        let (tournament, notes) = if exact {
            let options = opts.solve_options()?;
            let store = opts.store()?;
            let pair_started = |pair: &str| monitor.set_message(&format!("exact {pair}"));
            sim.in_pool(|| {
                monitor.cancellable(|| {
                    solve_tournament(
                        &rules,
                        &dice,
                        &options,
                        &plan,
                        store.as_ref(),
                        &pair_started,
                        &games,
                    )
                })
            })?
            .map_err(CliError::failure)?
        } else {
            let announce = |pair: &str, _: &wuerfelglueck::sim::DuelPlan| monitor.set_message(pair);
            let t = sim
                .in_pool(|| {
                    simulate_tournament_playing(&rules, &dice, &strategy, &plan, &games, &announce)
                })?
                .map_err(CliError::failure)?;
            (t, Vec::new())
        };
        let report = rank_report(
            &tournament,
            &rules,
            exact,
            &strategy,
            plan.seed,
            started,
            notes,
        )?;
        if let Some(plot) = plot {
            plot.write(&heatmap_svg(&tournament).map_err(plot_error)?)
                .map_err(plot_error)?;
        }
        Ok(report)
    })
}

/// The command line's defaults, as the CLI's own definition holds them: for every command,
/// every long option with a default value (`--max-rolls` as `max_rolls`) and its default as
/// the CLI prints it. The package's signatures are tested against it.
#[pyfunction]
fn cli_defaults() -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>
{
    Cli::definition()
        .get_subcommands()
        .map(|command| {
            let defaults = command
                .get_arguments()
                .filter_map(|arg| {
                    let long = arg.get_long()?;
                    let value = arg.get_default_values().first()?;
                    Some((long.replace('-', "_"), value.to_string_lossy().into_owned()))
                })
                .collect();
            (command.get_name().to_string(), defaults)
        })
        .collect()
}

/// `solve`: one matchup solved exactly (the CLI's `solve`).
#[pyfunction]
#[pyo3(signature = (a, b, opts, progress=None))]
fn solve(
    py: Python<'_>,
    a: DieArg,
    b: DieArg,
    opts: Opts,
    progress: Option<Py<PyAny>>,
) -> PyResult<Native> {
    run_detached(py, progress, move |monitor| {
        let started = Instant::now();
        let rules = opts.rules()?;
        let a = die_of("--a", &a)?;
        let b = die_of("--b", &b)?;
        let options = opts.solve_options()?;
        let sim = opts.sim()?;
        monitor.set_message(&format!("exact {a} vs {b}"));
        let result = sim
            .in_pool(|| {
                monitor.cancellable(|| {
                    if opts.f32 {
                        solve_matrix_free(&rules, &a, &b, &options, Storage::F32)
                    } else if opts.matrix_free {
                        solve_matrix_free(&rules, &a, &b, &options, Storage::F64)
                    } else {
                        solve_fitting(&rules, &a, &b, &options)
                    }
                })
            })?
            .map_err(|e| {
                if e.is_input_error() {
                    CliError::input(e)
                } else {
                    CliError::failure(e)
                }
            })?;
        native(&SolveReport::new(
            [a.to_string(), b.to_string()],
            rules.board().to_string(),
            rules.profile().to_string(),
            opts.tolerance,
            &result.result,
            result.solver.to_string(),
            result.stalled,
            started.elapsed().as_secs_f64(),
        ))
    })
}

/// `table`: 2 to 4 dice at one table (the CLI's `table`).
#[pyfunction]
#[pyo3(signature = (dice, seating, opts, progress=None))]
fn table(
    py: Python<'_>,
    dice: Vec<DieArg>,
    seating: String,
    opts: Opts,
    progress: Option<Py<PyAny>>,
) -> PyResult<Native> {
    run_detached(py, progress, move |monitor| {
        let seating = <Seating as clap::ValueEnum>::from_str(&seating, false).map_err(|_| {
            CliError::input(format!(
                "invalid value '{seating}' for '--seating <SEATING>': expected all or fixed"
            ))
        })?;
        let rules = opts.rules()?;
        let dice: Vec<Die> = dice
            .iter()
            .map(|d| die_of("--die", d))
            .collect::<Result<_, _>>()?;
        let seats = seats(&rules, dice.len(), "--die (one per player)")?;
        let refs: Vec<&Die> = dice.iter().collect();
        let sim = opts.sim()?;
        let table = Table::new(&seats, &refs, sim.max_rolls()?, seating).map_err(table_error)?;
        let stop = table
            .stopping(sim.games, sim.precision.unwrap_or(DEFAULT_PRECISION))
            .map_err(table_error)?;
        let names: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
        monitor.set_message(&names.join(" | "));
        let counts = sim
            .in_pool(|| table.run(StreamKey::new(sim.seed), stop, &|n| monitor.add_games(n)))?
            .map_err(table_error)?;
        native(&TableReport::new(
            &refs,
            &counts,
            seating,
            TableSettings::new(&rules, sim.seed, table.max_rolls(), stop),
        ))
    })
}

/// Runs the CLI itself on `args` (without the program name) with `--format json`: for
/// `wubbel`, `pig` and `converge`, whose options map one to one. Returns the JSON text.
/// Errors carry the CLI's message; clap's own refusals are `ValueError`s (their first line).
#[pyfunction]
#[pyo3(signature = (args, format="json"))]
fn cli(py: Python<'_>, args: Vec<String>, format: &str) -> PyResult<String> {
    let format = format.to_string();
    run_detached(py, None, move |_| {
        let argv = std::iter::once("wuerfelglueck".to_string())
            .chain(args)
            .chain(["--format".to_string(), format]);
        let parsed = Cli::try_parse_args(argv).map_err(|e| {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            CliError::input(first.trim_start_matches("error: ").to_string())
        })?;
        let mut out = Vec::new();
        wuerfelglueck::cli::run(parsed, &mut out)?;
        Ok(String::from_utf8(out).expect("reports are UTF-8"))
    })
}

// ---------------------------------------------------------------------------------------
// One pair of a ranking at a time: the Dask tasks (`wuerfelglueck/distributed.py`).

/// The dice of a ranking (their faces) and its pairs `(i, j)` in the library's order (pair
/// `k` uses stream `k`), each with the least memory an exact solve needs ([`least_memory`]);
/// checks the dice and options as `rank` does, so a bad value fails before any task is sent.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn rank_plan(
    py: Python<'_>,
    dice: DiceArg,
    exact: bool,
    opts: Opts,
) -> PyResult<(Vec<Vec<u32>>, Vec<(usize, usize, u64)>)> {
    py.detach(|| {
        let rules = opts.rules()?;
        let dice = rank_dice(&dice, &rules)?;
        opts.plan()?;
        opts.sim()?.in_pool(|| ())?;
        if exact {
            opts.solve_options()?;
            opts.store()?;
        }
        let pairs = Tournament::new(dice.clone()).pairs();
        let pairs = pairs
            .into_iter()
            .map(|(i, j)| {
                let bytes = if exact {
                    least_memory(&rules, &dice[i], &dice[j])
                } else {
                    0
                };
                (i, j, bytes)
            })
            .collect();
        Ok((dice.iter().map(|d| d.faces().to_vec()).collect(), pairs))
    })
    .map_err(py_err)
}

/// `max_memory` in bytes, read as `--max-memory` reads it (`"16GiB"`, `"1000"`), or
/// `ValueError` with the CLI's message.
#[pyfunction]
fn memory_bytes(text: &str) -> PyResult<u64> {
    match memory_limit(Some(text)).map_err(py_err)? {
        Some(bytes) => Ok(bytes),
        None => Err(PyValueError::new_err(format!(
            "--max-memory {text}: expected a size"
        ))),
    }
}

/// The counts of a duel as a flat list (A started, then B started; each `games, a_wins,
/// b_wins, unfinished, endless, rolls`).
fn counts_to_list(c: &DuelCounts) -> Vec<u64> {
    [c.a_started, c.b_started]
        .iter()
        .flat_map(|s| {
            [
                s.games,
                s.a_wins,
                s.b_wins,
                s.unfinished,
                s.endless,
                s.rolls,
            ]
        })
        .collect()
}

/// The inverse of [`counts_to_list`], checking that the counts add up.
fn counts_from_list(v: &[u64]) -> Result<DuelCounts, String> {
    let start = |s: &[u64]| -> Result<StartCounts, String> {
        let c = StartCounts {
            games: s[0],
            a_wins: s[1],
            b_wins: s[2],
            unfinished: s[3],
            endless: s[4],
            rolls: s[5],
        };
        let sum = c
            .a_wins
            .checked_add(c.b_wins)
            .and_then(|x| x.checked_add(c.unfinished));
        if sum != Some(c.games) || c.endless > c.unfinished {
            return Err(format!("counts that do not add up: {s:?}"));
        }
        Ok(c)
    };
    if v.len() != 12 {
        return Err(format!("{} counts instead of 12", v.len()));
    }
    Ok(DuelCounts {
        a_started: start(&v[..6])?,
        b_started: start(&v[6..])?,
    })
}

/// One pair of a ranking, as the local `rank` computes it: pair number `stream`, dice `i`
/// and `j`. Returns a JSON payload for [`rank_assemble`]: `{"counts": [..]}` for a
/// simulated pair, `{"record": {..}}` (the store's record) for a solved one, with the
/// pair's `notes`, or `{"error": ".."}` if the pair failed.
#[pyfunction]
#[pyo3(signature = (dice, exact, opts, stream, i, j))]
fn rank_pair(
    py: Python<'_>,
    dice: DiceArg,
    exact: bool,
    opts: Opts,
    stream: usize,
    i: usize,
    j: usize,
) -> PyResult<String> {
    run_detached(py, None, move |monitor| {
        let rules = opts.rules()?;
        let dice = rank_dice(&dice, &rules)?;
        let plan = opts.plan()?;
        let sim = opts.sim()?;
        if i >= dice.len() || j >= dice.len() || i >= j {
            return Err(CliError::input(format!(
                "pair ({i}, {j}) is not a pair of the {} dice",
                dice.len()
            )));
        }
        let games = |n| monitor.add_games(n);
        let payload = if exact {
            let options = opts.solve_options()?;
            let store = opts.store()?;
            let mut notes = Vec::new();
            let outcome = sim.in_pool(|| {
                monitor.cancellable(|| {
                    exact_ranking_pair(
                        &rules,
                        &dice,
                        &options,
                        &plan,
                        store.as_ref(),
                        stream,
                        (i, j),
                        &games,
                        &mut notes,
                    )
                })
            })?;
            match outcome {
                Ok(ExactPairOutcome::Solved(record)) => json!({"record": record, "notes": notes}),
                Ok(ExactPairOutcome::Simulated(c)) => {
                    json!({"counts": counts_to_list(&c), "notes": notes})
                }
                Err(e) => json!({"error": e.to_string(), "notes": notes}),
            }
        } else {
            match sim.in_pool(|| {
                simulate_pair(
                    &rules,
                    &dice,
                    &Strategy::Frontmost,
                    &plan,
                    stream,
                    (i, j),
                    &games,
                    &|_| {},
                )
            })? {
                Ok(c) => json!({"counts": counts_to_list(&c), "notes": []}),
                Err(e) => json!({"error": e.to_string(), "notes": []}),
            }
        };
        Ok(payload.to_string())
    })
}

/// The ranking from the payloads of [`rank_pair`], one per pair in [`rank_plan`]'s order,
/// assembled as the local `rank` does: the same matrix, notes and report. A record is
/// checked as the store checks it (dice, board, profile, bounds) before it is used. The
/// first failed pair (in pair order) fails the ranking with the local ranking's message.
#[pyfunction]
fn rank_assemble(
    py: Python<'_>,
    dice: DiceArg,
    exact: bool,
    opts: Opts,
    payloads: Vec<String>,
    seconds: f64,
) -> PyResult<Native> {
    py.detach(|| {
        let rules = opts.rules()?;
        let dice = rank_dice(&dice, &rules)?;
        let plan = opts.plan()?;
        let mut tournament = Tournament::new(dice.clone());
        let pairs = tournament.pairs();
        if payloads.len() != pairs.len() {
            return Err(CliError::failure(format!(
                "{} results for {} pairs",
                payloads.len(),
                pairs.len()
            )));
        }
        let tolerance = if exact {
            opts.solve_options()?.tolerance
        } else {
            0.0
        };
        let mut notes = Vec::new();
        let mut solved = 0;
        for (k, (&(i, j), text)) in pairs.iter().zip(&payloads).enumerate() {
            let (a, b) = (&dice[i], &dice[j]);
            let bad = |what: String| {
                CliError::failure(format!(
                    "pair {}/{}, {a} vs {b}: {what}",
                    k + 1,
                    pairs.len()
                ))
            };
            let payload: serde_json::Value =
                serde_json::from_str(text).map_err(|e| bad(format!("unreadable result: {e}")))?;
            if let Some(list) = payload.get("notes").and_then(|n| n.as_array()) {
                notes.extend(list.iter().filter_map(|n| n.as_str().map(String::from)));
            }
            let outcome = if let Some(error) = payload.get("error") {
                let cause = PairFailure::Elsewhere(error.as_str().unwrap_or_default().to_string());
                return Err(CliError::failure(RankError {
                    pair: (k + 1, pairs.len()),
                    dice: (a.clone(), b.clone()),
                    cause,
                    solved_before: solved,
                    store: opts.store.clone(),
                    notes,
                }));
            } else if let Some(record) = payload.get("record") {
                let record: StoredPair = serde_json::from_value(record.clone())
                    .map_err(|e| bad(format!("unreadable record: {e}")))?;
                record
                    .check(&rules, a, b)
                    .map_err(|e| bad(format!("record refused: {e}")))?;
                ExactPairOutcome::Solved(Box::new(record))
            } else {
                let list: Vec<u64> = payload
                    .get("counts")
                    .and_then(|c| serde_json::from_value(c.clone()).ok())
                    .ok_or_else(|| bad("no counts, record or error".into()))?;
                ExactPairOutcome::Simulated(counts_from_list(&list).map_err(bad)?)
            };
            if exact {
                if tournament.record_exact_outcome(i, j, &outcome, tolerance, &mut notes) {
                    solved += 1;
                }
            } else if let ExactPairOutcome::Simulated(c) = &outcome {
                tournament.record_duel(i, j, c);
            } else {
                return Err(bad("an exact record in a simulated ranking".into()));
            }
        }
        let report = RankReport::new(
            &tournament,
            rules.profile().to_string(),
            rules.board().to_string(),
            Some(plan.seed),
            seconds,
            notes,
        );
        native(&if exact {
            report.with_strategy(&exact_strategy_name(&rules))
        } else {
            report
        })
    })
    .map_err(py_err)
}

/// The Rust core of the `wuerfelglueck` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(die, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(duel, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    m.add_function(wrap_pyfunction!(cli_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(rank_plan, m)?)?;
    m.add_function(wrap_pyfunction!(memory_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(rank_pair, m)?)?;
    m.add_function(wrap_pyfunction!(rank_assemble, m)?)?;
    Ok(())
}
