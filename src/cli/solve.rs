//! `solve`: one matchup solved exactly, with certified intervals.

use super::common::{RulesArgs, memory_limit, parse_die};
use super::{CliError, Format};
use crate::dice::Die;
use crate::exact::matrix_free::Storage;
use crate::exact::memory::format_bytes;
use crate::exact::{Bounds, ExactError, SolveOptions};
use crate::exact::{Fitted, solve_fitting, solve_matrix_free};
use clap::Args;
use serde::Serialize;
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
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The JSON document of `solve --format json`.
#[derive(Serialize)]
struct SolveReport {
    a: String,
    b: String,
    board: String,
    profile: String,
    tolerance: f64,
    p_a_starts: f64,
    p_a: f64,
    p_a_if_a_starts: f64,
    p_a_if_b_starts: f64,
    p_b: f64,
    p_never: f64,
    p_never_if_a_starts: f64,
    p_never_if_b_starts: f64,
    bounds: BoundsReport,
    states: u64,
    product_states: u64,
    never_states: u64,
    transitions: u64,
    iterations: usize,
    memory_bytes: u64,
    build_seconds: f64,
    solve_seconds: f64,
    seconds: f64,
    /// `sparse matrix`, `matrix-free, f64 storage` or `matrix-free, f32 storage`.
    solver: String,
    /// The f32 iteration stopped gaining before the tolerance (intervals as wide as shown).
    stalled: bool,
}

/// `[lo, hi]` of every figure.
#[derive(Serialize)]
struct BoundsReport {
    p_a: [f64; 2],
    p_a_if_a_starts: [f64; 2],
    p_a_if_b_starts: [f64; 2],
    p_b: [f64; 2],
    p_never: [f64; 2],
    p_never_if_a_starts: [f64; 2],
    p_never_if_b_starts: [f64; 2],
}

fn pair(b: &Bounds) -> [f64; 2] {
    [b.lo, b.hi]
}

impl SolveReport {
    fn new(args: &SolveArgs, dice: [&Die; 2], fitted: &Fitted, seconds: f64) -> SolveReport {
        let r = &fitted.result;
        let rules = args.rules.rules().expect("validated before");
        let b = &r.bounds;
        SolveReport {
            a: dice[0].to_string(),
            b: dice[1].to_string(),
            board: rules.board().to_string(),
            profile: rules.profile().to_string(),
            tolerance: args.tolerance,
            p_a_starts: r.p_a_starts,
            p_a: r.p_a,
            p_a_if_a_starts: r.p_a_if_a_starts,
            p_a_if_b_starts: r.p_a_if_b_starts,
            p_b: r.p_b,
            p_never: r.p_never,
            p_never_if_a_starts: r.p_never_if_a_starts,
            p_never_if_b_starts: r.p_never_if_b_starts,
            bounds: BoundsReport {
                p_a: pair(&b.p_a),
                p_a_if_a_starts: pair(&b.p_a_if_a_starts),
                p_a_if_b_starts: pair(&b.p_a_if_b_starts),
                p_b: pair(&b.p_b),
                p_never: pair(&b.p_never),
                p_never_if_a_starts: pair(&b.p_never_if_a_starts),
                p_never_if_b_starts: pair(&b.p_never_if_b_starts),
            },
            states: r.stats.states,
            product_states: r.stats.product,
            never_states: r.stats.never_states,
            transitions: r.stats.transitions,
            iterations: r.stats.iterations,
            memory_bytes: r.stats.memory_bytes,
            build_seconds: r.stats.build_seconds,
            solve_seconds: r.stats.solve_seconds,
            seconds,
            solver: fitted.solver.to_string(),
            stalled: fitted.stalled,
        }
    }

    /// The figures in table order: label, value, interval.
    fn figures(&self) -> [(&'static str, f64, [f64; 2]); 7] {
        let b = &self.bounds;
        [
            ("P(A wins)", self.p_a, b.p_a),
            (
                "P(A wins | A starts)",
                self.p_a_if_a_starts,
                b.p_a_if_a_starts,
            ),
            (
                "P(A wins | B starts)",
                self.p_a_if_b_starts,
                b.p_a_if_b_starts,
            ),
            ("P(B wins)", self.p_b, b.p_b),
            ("P(never ends)", self.p_never, b.p_never),
            (
                "P(never ends | A starts)",
                self.p_never_if_a_starts,
                b.p_never_if_a_starts,
            ),
            (
                "P(never ends | B starts)",
                self.p_never_if_b_starts,
                b.p_never_if_b_starts,
            ),
        ]
    }
}

/// Runs `solve`.
pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let started = Instant::now();
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    if !(args.tolerance > 0.0 && args.tolerance < 1.0) {
        return Err(CliError::input(format!(
            "--tolerance {}: expected a width between 0 and 1, e.g. 1e-12",
            args.tolerance
        )));
    }
    if args.max_sweeps == 0 {
        return Err(CliError::input("--max-sweeps 0: expected at least 1 sweep"));
    }
    let max_memory = memory_limit(args.max_memory.as_deref())?;
    let options = SolveOptions {
        tolerance: args.tolerance,
        max_sweeps: args.max_sweeps,
        max_memory,
    };
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
    .map_err(|e| match e {
        ExactError::RollOff | ExactError::TooLarge(_) | ExactError::Options(_) => {
            CliError::input(e)
        }
        ExactError::Memory { .. } | ExactError::NotConverged(_) => CliError::failure(e),
    })?;
    let report = SolveReport::new(&args, [&a, &b], &result, started.elapsed().as_secs_f64());
    if report.stalled {
        eprintln!(
            "warning: f32 storage stopped narrowing the intervals before --tolerance {}; \
             the certified intervals below are as wide as shown",
            args.tolerance
        );
    }
    write_report(out, &report, args.format)?;
    Ok(())
}

fn write_report(out: &mut dyn Write, r: &SolveReport, format: Format) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, r)?;
            writeln!(out)
        }
        Format::Csv => {
            let mut header = vec![
                "die_a",
                "die_b",
                "board",
                "profile",
                "tolerance",
                "p_a_starts",
            ];
            let names = [
                "p_a",
                "p_a_if_a_starts",
                "p_a_if_b_starts",
                "p_b",
                "p_never",
                "p_never_if_a_starts",
                "p_never_if_b_starts",
            ];
            let mut lo_hi = Vec::new();
            for n in names {
                lo_hi.push(format!("{n}_lo"));
                lo_hi.push(format!("{n}_hi"));
            }
            header.extend(names);
            header.extend(lo_hi.iter().map(String::as_str));
            header.extend(["states", "transitions", "iterations", "seconds"]);
            let mut row = vec![
                csv_field(&r.a),
                csv_field(&r.b),
                r.board.clone(),
                r.profile.clone(),
                format!("{:e}", r.tolerance),
                r.p_a_starts.to_string(),
            ];
            let figures = r.figures();
            let order = [0, 1, 2, 3, 4, 5, 6];
            row.extend(order.iter().map(|&k| figures[k].1.to_string()));
            for &k in &order {
                row.push(figures[k].2[0].to_string());
                row.push(figures[k].2[1].to_string());
            }
            row.extend([
                r.states.to_string(),
                r.transitions.to_string(),
                r.iterations.to_string(),
                format!("{:.3}", r.seconds),
            ]);
            writeln!(out, "{}", header.join(","))?;
            writeln!(out, "{}", row.join(","))
        }
        Format::Table => {
            writeln!(
                out,
                "Exact solve: A = {} against B = {}, board {}, profile {}",
                r.a, r.b, r.board, r.profile
            )?;
            if r.profile.contains("roll-off") {
                writeln!(
                    out,
                    "A starts with probability {:.12} (roll-off)",
                    r.p_a_starts
                )?;
            } else {
                writeln!(out, "Each die starts half of the games.")?;
            }
            writeln!(out)?;
            writeln!(out, "{:<26} {:>16}   certified interval", "figure", "value")?;
            for (label, value, [lo, hi]) in r.figures() {
                writeln!(out, "{label:<26} {value:>16.13}   [{lo:.15}, {hi:.15}]")?;
            }
            writeln!(out)?;
            writeln!(
                out,
                "states {} (of {} joint indices; {} never-ending), transitions {}, iterations {}",
                r.states, r.product_states, r.never_states, r.transitions, r.iterations
            )?;
            writeln!(out, "solver: {}", r.solver)?;
            writeln!(
                out,
                "memory about {} (estimate), time {:.3} s (build {:.3} s, iteration {:.3} s), tolerance {:e}",
                format_bytes(r.memory_bytes),
                r.seconds,
                r.build_seconds,
                r.solve_seconds,
                r.tolerance
            )
        }
    }
}

/// A die for a CSV field: its faces are comma-separated, so it is quoted.
fn csv_field(text: &str) -> String {
    if text.contains(',') {
        format!("\"{text}\"")
    } else {
        text.to_string()
    }
}
