//! `solve`: one matchup solved exactly, with certified intervals.

use super::common::{RulesArgs, memory_limit, parse_die};
use super::{CliError, Format};
use crate::exact::matrix_free::Storage;
use crate::exact::{ExactError, SolveOptions};
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
    /// Under `--profile choice`: how A plays, `optimal` (the default) or a strategy's name
    /// (A then plays it, and the figures are those of that pair).
    #[arg(long = "strategy-a", value_name = "STRATEGY")]
    pub strategy_a: Option<String>,
    /// Under `--profile choice`: how B plays (as `--strategy-a`).
    #[arg(long = "strategy-b", value_name = "STRATEGY")]
    pub strategy_b: Option<String>,
    /// Under `--profile choice`: write the pair played (both players' moves) to this policy
    /// file (format in `src/exact/game/file.rs`); an existing file only with `--force`.
    #[arg(long = "policy-out", value_name = "FILE")]
    pub policy_out: Option<std::path::PathBuf>,
    /// Replace an existing `--policy-out` file.
    #[arg(long)]
    pub force: bool,
    /// Under `--profile choice`: evaluate the extracted pair's Markov chain exactly even
    /// where the value alone gives the optimal figures (a game in which every play ends
    /// and every state can still be won: P(A wins) = (1 + value) / 2 for every optimal
    /// pair). About doubles the time; checks that the extracted pair attains the value.
    /// Implied by `--policy-out`.
    #[arg(long = "evaluate-pair")]
    pub evaluate_pair: bool,
    /// Under `--profile choice`: do not use the mirror symmetry of the same die on both
    /// sides of a symmetric board (which halves the value iteration's work). For checking
    /// the mirrored solve against the plain one.
    #[arg(long = "no-mirror")]
    pub no_mirror: bool,
    /// Under `--profile choice` with both sides optimal: also tell how the optimal pair plays
    /// (`style`: captures, moves into the goal, pieces left within reach) and how often each
    /// built-in heuristic plays another move (`differs_from`). A pass over every decision
    /// per heuristic, which adds noticeably to the time of a large solve.
    #[arg(long)]
    pub style: bool,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Maps a solver's error to the exit codes: the user's input (2) or a failure (1).
fn exact_error(e: ExactError) -> CliError {
    if e.is_input_error() {
        CliError::input(e)
    } else {
        CliError::failure(e)
    }
}

/// Runs `f` on `threads` worker threads (all cores by default).
fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    super::common::in_thread_pool(threads, f)
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
    if rules.profile().choice {
        return run_game(&args, &rules, [&a, &b], &options, started, out);
    }
    for (given, option) in [
        (args.strategy_a.is_some(), "--strategy-a"),
        (args.strategy_b.is_some(), "--strategy-b"),
        (args.policy_out.is_some(), "--policy-out"),
        (args.evaluate_pair, "--evaluate-pair"),
        (args.no_mirror, "--no-mirror"),
        (args.style, "--style"),
    ] {
        if given {
            return Err(CliError::input(format!(
                "{option} needs --profile choice (without it rule 3 fixes every move)"
            )));
        }
    }
    let solve = || {
        if args.f32 {
            solve_matrix_free(&rules, &a, &b, &options, Storage::F32)
        } else if args.matrix_free {
            solve_matrix_free(&rules, &a, &b, &options, Storage::F64)
        } else {
            solve_fitting(&rules, &a, &b, &options)
        }
    };
    let result = with_threads(args.threads, solve)?.map_err(exact_error)?;
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

/// `solve --profile choice`: the game with choices ([`crate::exact::game`]).
fn run_game(
    args: &SolveArgs,
    rules: &crate::rules::Rules,
    dice: [&crate::dice::Die; 2],
    options: &SolveOptions,
    started: Instant,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use crate::exact::game::{GameRun, Progress, Side, file, solve_game_with};
    if args.f32 || args.matrix_free {
        return Err(CliError::input(
            "--f32 and --matrix-free are options of the rules-fixed solver, not of \
             --profile choice",
        ));
    }
    let names = [
        ("--strategy-a", &args.strategy_a, dice[1]),
        ("--strategy-b", &args.strategy_b, dice[0]),
    ];
    let mut policies = Vec::new();
    for (option, name, opponent) in names {
        policies.push(match name.as_deref().map(str::trim) {
            None | Some("optimal") => None,
            Some(text) => Some(move_policy(option, text, rules, dice, opponent)?),
        });
    }
    let sides: [Side<'_>; 2] = [0, 1].map(|p| match &policies[p] {
        None => Side::Optimal,
        Some(policy) => Side::Fixed(policy.as_ref()),
    });
    let strategy_names = [0, 1].map(|p| {
        names[p]
            .1
            .as_deref()
            .map_or("optimal".to_string(), |s| s.trim().to_string())
    });
    if args.style && policies.iter().any(Option::is_some) {
        return Err(CliError::input(
            "--style tells how the optimal pair plays: leave --strategy-a and --strategy-b \
             at optimal",
        ));
    }
    if let Some(path) = &args.policy_out {
        file::check_target(path, args.force)
            .map_err(|e| CliError::input(format!("--policy-out: {e}")))?;
    }
    // A long solve says what it is doing on stderr (a board like 40/20/3/4 takes
    // minutes); a short one stays silent.
    let observer = |p: Progress| {
        let seconds = match p {
            Progress::Classified { seconds, .. } | Progress::Sweep { seconds, .. } => seconds,
        };
        if seconds < 5.0 {
            return;
        }
        match p {
            Progress::Classified { states, seconds } => {
                eprintln!("solve: {states} reachable states classified after {seconds:.1} s")
            }
            Progress::Sweep {
                pair,
                sweep,
                gap,
                seconds,
            } => eprintln!(
                "solve: {} sweep {sweep}, width {gap:.3e}, {seconds:.1} s",
                if pair { "pair evaluation" } else { "value" }
            ),
        }
    };
    // A written policy is checked to attain the value, so its pair is always evaluated.
    let run = GameRun {
        keep_values: false,
        evaluate_pair: args.evaluate_pair || args.policy_out.is_some(),
        observer: &observer,
        extract_policy: args.style || args.policy_out.is_some(),
        mirror: !args.no_mirror,
    };
    let solution = with_threads(args.threads, || {
        solve_game_with(rules, dice, sides, options, &run)
    })?
    .map_err(exact_error)?;
    if let Some(path) = &args.policy_out {
        let table = solution.policy.as_ref().ok_or_else(|| {
            CliError::input("--policy-out: a side playing random mixes its moves, which a policy file cannot hold")
        })?;
        let header = file::header(rules, dice, strategy_names.clone(), &solution.space, table);
        file::write(path, &header, table, args.force).map_err(|e| match e {
            file::PolicyFileError::Exists(_) => CliError::input(format!("--policy-out: {e}")),
            e => CliError::failure(format!("--policy-out: {e}")),
        })?;
    }
    let mut report = SolveReport::of_game(
        [dice[0].to_string(), dice[1].to_string()],
        rules,
        args.tolerance,
        &solution,
        strategy_names,
        started.elapsed().as_secs_f64(),
    );
    if let (Some(table), Some(game), true) = (&solution.policy, report.game.as_mut(), args.style) {
        let differences = with_threads(args.threads, || {
            crate::exact::game::differences_from_heuristics(
                &solution.space,
                table,
                dice,
                solution.mirrored,
            )
        })?;
        game.style = Some(with_threads(args.threads, || {
            crate::exact::game::style::style_of(&solution.space, table, dice, solution.mirrored)
        })?);
        for d in differences {
            game.differs_from.push(crate::report::DifferenceReport {
                strategy: d.strategy.to_string(),
                decisions: d.decisions,
                differing: d.differing,
                share: if d.decisions == 0 {
                    0.0
                } else {
                    d.differing / d.decisions as f64
                },
            });
        }
    }
    if report.stalled {
        eprintln!(
            "warning: not certified to --tolerance {}: {}; the intervals below are as wide as \
             shown",
            args.tolerance,
            report
                .game
                .as_ref()
                .map_or(String::new(), |g| g.not_certified_reason())
        );
    }
    report::write(out, &report, args.format)?;
    Ok(())
}

/// The fixed policy a strategy name stands for under `choice` (`option` names the flag in
/// errors): a strategy of [`crate::strategy`] resolved against the opponent's die, a
/// `table:FILE` checked against this game.
pub fn move_policy(
    option: &str,
    text: &str,
    rules: &crate::rules::Rules,
    dice: [&crate::dice::Die; 2],
    opponent: &crate::dice::Die,
) -> Result<Box<dyn crate::exact::game::policy::MovePolicy>, CliError> {
    use crate::strategy::Strategy;
    let strategy: Strategy = text.parse().map_err(|e| match e {
        // Only a name can be unknown; here `optimal` is one more.
        crate::strategy::StrategyError::Unknown(given) => CliError::input(format!(
            "{option}: unknown strategy {given}: expected optimal, one of {} (or table:FILE)",
            crate::strategy::STRATEGY_NAMES.join(", ")
        )),
        e => CliError::input(format!("{option}: {e}")),
    })?;
    if let Strategy::Table(t) = &strategy {
        t.check_game(rules, dice)
            .map_err(|e| CliError::input(format!("{option}: {e}")))?;
    }
    Ok(Box::new(strategy.against(opponent)))
}
