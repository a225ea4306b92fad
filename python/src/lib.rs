//! `wuerfelglueck._native`: the Rust library behind the Python package.
//!
//! Glue only. A command's options arrive as JSON text with the command line's option names
//! (`{"a": "1..6", "max_rolls": 1000}`); the library reads them by the command line's own
//! definition ([`wuerfelglueck::api::from_map`]: the same defaults, checks and messages),
//! runs the command ([`wuerfelglueck::api::execute`]) and returns its report in every form
//! it has (JSON, table, CSV), so `to_dict()` has exactly the CLI's field names. Bad input
//! raises `ValueError` with the CLI's message, a failure `RuntimeError`.

mod detach;

use detach::{py_err, run_detached};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Map, Value};
use wuerfelglueck::api::{self, Error, rank as ranking};
use wuerfelglueck::cli::Cli;
use wuerfelglueck::dice::Die;

/// A report as it leaves for Python: its JSON text, its table, its CSV text (if it has one).
type Native = (String, String, Option<String>);

/// A command's output as it leaves for Python, its picture (if any) written first.
fn native(output: api::Output) -> Result<Native, Error> {
    if let Some(plot) = output.plot {
        plot.write()?;
    }
    Ok((output.json, output.table, output.csv))
}

/// The options of a call: a JSON object.
fn options_of(json: &str) -> Result<Map<String, Value>, Error> {
    match serde_json::from_str(json) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Error::input(format!(
            "options: expected an object, got {other}"
        ))),
        Err(e) => Err(Error::input(format!("options: {e}"))),
    }
}

/// The commands whose work runs on a pool of threads (they take `--threads`).
const POOLED: [&str; 6] = ["duel", "rank", "table", "solve", "converge", "search"];

/// `options` with `threads` set when not given: a call gets a pool of its own, so that a
/// call stopped by Ctrl-C never holds up the next one on rayon's global pool. The pool's
/// size is the command line's default: `RAYON_NUM_THREADS` if set, else all cores, and a
/// variable above the cap is refused as the command line refuses it
/// ([`api::options::default_threads`]).
fn own_pool(command: &str, mut options: Map<String, Value>) -> Result<Map<String, Value>, Error> {
    if POOLED.contains(&command) && options.get("threads").is_none_or(Value::is_null) {
        let threads = api::options::default_threads()?;
        options.insert("threads".into(), Value::from(threads));
    }
    Ok(options)
}

/// `Die(faces)`: the die's faces and its CLI notation, or `ValueError`.
#[pyfunction]
fn die(text: &str) -> PyResult<(Vec<u32>, String)> {
    let die: Die = api::options::parse_die("die", text).map_err(py_err)?;
    Ok((die.faces().to_vec(), die.to_string()))
}

/// `Rules(...)`: the board and profile as the CLI names them, or `ValueError`.
#[pyfunction]
fn rules(options: &str) -> PyResult<(String, String)> {
    let options = options_of(options).map_err(py_err)?;
    let rules = api::from_map::<api::RulesOptions>("rules", &options)
        .and_then(|o| o.rules())
        .map_err(py_err)?;
    Ok((rules.board().to_string(), rules.profile().to_string()))
}

/// Runs `command` (its options as JSON text) with progress and Ctrl-C; a picture asked for
/// with `plot` is written before the call returns.
#[pyfunction]
#[pyo3(signature = (command, options, progress=None))]
fn run(
    py: Python<'_>,
    command: String,
    options: String,
    progress: Option<Py<PyAny>>,
) -> PyResult<Native> {
    run_detached(py, progress, move |monitor| {
        let options = own_pool(&command, options_of(&options)?)?;
        native(api::execute(&command, &options, monitor)?)
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

/// `max_memory` in bytes, read as `--max-memory` reads it (`"16GiB"`, `"1000"`), or
/// `ValueError` with the CLI's message.
#[pyfunction]
fn memory_bytes(text: &str) -> PyResult<u64> {
    match api::options::memory_limit(Some(text)).map_err(py_err)? {
        Some(bytes) => Ok(bytes),
        None => Err(PyValueError::new_err(format!(
            "--max-memory {text}: expected a size"
        ))),
    }
}

// ---------------------------------------------------------------------------------------
// One pair of a ranking at a time: the Dask tasks (`wuerfelglueck/distributed.py`), each a
// library function ([`wuerfelglueck::api::rank`]).

/// The settings of a ranking from its options (JSON text).
fn rank_settings(options: &str) -> Result<ranking::RankSettings, Error> {
    let options = own_pool("rank", options_of(options)?)?;
    ranking::RankSettings::new(&api::from_map("rank", &options)?)
}

/// The dice of a ranking (in the CLI's notation, so a worker needs no dice file) and its
/// pairs `(a, b, least_memory)` in the library's order (pair `k` uses stream `k`); checks the
/// options as `rank` does, so a bad value fails before any task is sent.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn rank_plan(py: Python<'_>, options: &str) -> PyResult<(Vec<String>, Vec<(usize, usize, u64)>)> {
    py.detach(|| {
        let settings = rank_settings(options)?;
        let pairs = ranking::plan(&settings)?;
        Ok((
            settings.dice().iter().map(|d| d.to_string()).collect(),
            pairs.iter().map(|p| (p.a, p.b, p.least_memory)).collect(),
        ))
    })
    .map_err(py_err)
}

/// Pair number `stream` (dice `a` and `b`) of a ranking: its payload as JSON text for
/// [`rank_assemble`].
#[pyfunction]
fn rank_pair(
    py: Python<'_>,
    options: String,
    stream: usize,
    a: usize,
    b: usize,
) -> PyResult<String> {
    run_detached(py, None, move |monitor| {
        let settings = rank_settings(&options)?;
        let payload = ranking::rank_pair(&settings, stream, (a, b), monitor)?;
        serde_json::to_string(&payload).map_err(Error::failure)
    })
}

/// The ranking from the payloads of [`rank_pair`], one per pair in [`rank_plan`]'s order,
/// assembled as the local `rank` does.
#[pyfunction]
fn rank_assemble(
    py: Python<'_>,
    options: &str,
    payloads: Vec<String>,
    seconds: f64,
) -> PyResult<Native> {
    py.detach(|| {
        let settings = rank_settings(options)?;
        let payloads = payloads
            .iter()
            .enumerate()
            .map(|(k, text)| {
                serde_json::from_str(text).map_err(|e| {
                    Error::failure(format!(
                        "pair {}/{}: unreadable result: {e}",
                        k + 1,
                        payloads.len()
                    ))
                })
            })
            .collect::<Result<Vec<ranking::PairPayload>, Error>>()?;
        native(api::Output::of_plotted(ranking::assemble(
            &settings, &payloads, seconds,
        )?)?)
    })
    .map_err(py_err)
}

/// The Rust core of the `wuerfelglueck` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A simulation path forced by the environment that names none, or that this processor
    // cannot run, fails the import, as the command line refuses it.
    wuerfelglueck::sim::LanesPath::from_environment()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    m.add_function(wrap_pyfunction!(die, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(cli_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(memory_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(rank_plan, m)?)?;
    m.add_function(wrap_pyfunction!(rank_pair, m)?)?;
    m.add_function(wrap_pyfunction!(rank_assemble, m)?)?;
    Ok(())
}
