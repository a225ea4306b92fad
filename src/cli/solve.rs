//! `solve`: one matchup solved exactly, with certified intervals.

use super::common::{RulesArgs, memory_limit, parse_die};
use super::{CliError, Format};
use crate::exact::SolveOptions;
use crate::exact::matrix_free::Storage;
use crate::exact::{solve_fitting, solve_matrix_free};
use crate::report::{self, SolveReport};
use clap::Args;
use std::io::Write;
use std::time::Instant;

/// Solve die A against die B exactly: win probabilities with certified intervals.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Stop when every certified interval is at most this wide.
    #[arg(long, default_value_t = 1e-12)]
    pub tolerance: f64,
    /// Give up after this many Gauss-Seidel sweeps.
    #[arg(long = "max-sweeps", default_value_t = 100_000)]
    pub max_sweeps: usize,
    /// Refuse when the estimated memory exceeds this: bytes, or e.g. `2GiB`, `500MB`
    /// (default: 80 % of the machine's RAM).
    #[arg(long = "max-memory", value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set). The sparse solver
    /// builds its matrix on them and iterates on one thread, so its result is the same to
    /// the last bit on any number of threads; the matrix-free solver sweeps on all of them
    /// (results agree within the tolerance).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Use the matrix-free solver even where the sparse matrix would fit (by default it
    /// runs only when the matrix does not fit, as on the full BwInf board).
    #[arg(long = "matrix-free")]
    pub matrix_free: bool,
    /// Matrix-free solver with `f32` value storage (half the memory; values rounded down so
    /// the intervals stay certified, but no narrower than about 1e-6).
    #[arg(long)]
    pub f32: bool,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Runs `solve`.
pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let started = Instant::now();
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    let max_memory = memory_limit(args.max_memory.as_deref())?;
    // The library's one rule for every solver (tolerance and sweep limit).
    let options = SolveOptions::new(args.tolerance, args.max_sweeps, max_memory)
        .map_err(|e| super::rule_error(e.0))?;
    let solve = || {
        if args.f32 {
            solve_matrix_free(&rules, &a, &b, &options, Storage::F32)
        } else if args.matrix_free {
            solve_matrix_free(&rules, &a, &b, &options, Storage::F64)
        } else {
            solve_fitting(&rules, &a, &b, &options)
        }
    };
    let result = match args.threads {
        None => solve(),
        Some(0) => return Err(CliError::input("--threads 0: expected at least 1 thread")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| CliError::failure(format!("cannot start {n} threads: {e}")))?
            .install(solve),
    }
    .map_err(|e| {
        if e.is_input_error() {
            CliError::input(e)
        } else {
            CliError::failure(e)
        }
    })?;
    let report = SolveReport::new(
        [a.to_string(), b.to_string()],
        rules.board().to_string(),
        rules.profile().to_string(),
        args.tolerance,
        &result.result,
        result.solver.to_string(),
        result.stalled,
        started.elapsed().as_secs_f64(),
    );
    if report.stalled {
        eprintln!(
            "warning: f32 storage stopped narrowing the intervals before --tolerance {}; \
             the certified intervals below are as wide as shown",
            args.tolerance
        );
    }
    report::write(out, &report, args.format)?;
    Ok(())
}
