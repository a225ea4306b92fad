//! `solve`: one matchup solved exactly, with certified intervals.

use super::options::{RulesOptions, in_thread_pool, memory_limit, parse_die};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::exact::game::layered::Part;
use crate::exact::game::policy::MovePolicy;
use crate::exact::game::{GameRun, Progress as GameProgress, Side, file, solve_game_with};
use crate::exact::matrix_free::{Components, Storage};
use crate::exact::progress::{
    Basis, Estimator, GAME_NARROWING_AFTER, Phase, Progress as SolveProgress, usual_game_sweeps,
    usual_sweeps,
};
use crate::exact::{ExactError, solve_fitting_observed, solve_matrix_free};
use crate::report::SolveReport;
use crate::rules::Rules;
use crate::strategy::Strategy;
use clap::Args;
use std::path::PathBuf;
use web_time::Instant;

/// The options of `solve`: die A against die B, solved exactly.
#[derive(Args, Debug, Clone)]
pub struct SolveOptions {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesOptions,
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
    /// Matrix-free solver carrying one value a state at a time: P(A wins) to the end, then
    /// P(B wins); half the memory of the values, about 1.4 times the time, the same
    /// certificate (only where every game ends, without three-tries). Chosen by itself where
    /// both do not fit the memory limit.
    #[arg(long = "one-value-at-a-time")]
    pub one_value_at_a_time: bool,
    /// Matrix-free solver, one value at a time, each block's values given back to the
    /// system once no later block reads them (the flags packed to two bits a pair): the
    /// least memory, about 0.7 of one value at a time on the BwInf board. No sweep over the
    /// whole product can follow the blocks, so where the openings' block does not reach the
    /// tolerance by itself the interval it reached is reported as stalled. Chosen by itself
    /// where one value at a time does not fit the memory limit.
    #[arg(long = "release-blocks")]
    pub release_blocks: bool,
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
    /// Under `--profile choice` with both sides optimal: solve the game group by group
    /// (states grouped by which goal fields each side holds, solved from the last group
    /// back), keeping finished groups compactly; the JSON lists every group's states,
    /// sweeps, widest bracket and seconds. For games in which every play ends with a win.
    #[arg(long)]
    pub layered: bool,
    /// With `--layered`: which groups to solve. `all` (the default) gives the value at the
    /// openings; `outside-core` every group in which at least one side has a piece home,
    /// `both-home` those in which both have: each certified at every state, reported group
    /// by group instead of the figures.
    #[arg(long, value_name = "PART", default_value = "all", value_parser = ["all", "outside-core", "both-home"])]
    pub part: String,
    /// With `--layered`: write each solved group's values into this folder (a file per
    /// group, checksummed; made if missing), and read back the groups already there instead
    /// of solving them again, so that a stopped solve goes on where it stopped. Files made
    /// for another game are refused, never replaced.
    #[arg(long = "values-out", value_name = "DIR")]
    pub values_out: Option<PathBuf>,
    /// Under `--profile choice`: the value of this position under optimal play instead of
    /// the openings' figures, e.g. `A:0,17,c B:A,5 turn:A` (as `advise --position`): read
    /// from `--values DIR` if given, else solved (the whole game, both sides optimal).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// With `--position`: read the value from the group files of a layered solve of this
    /// game (`solve --layered --values-out DIR`) instead of solving; a position whose group
    /// they do not hold is refused.
    #[arg(long, value_name = "DIR")]
    pub values: Option<PathBuf>,
}

/// Which solver a `solve` runs.
#[derive(Debug, Clone)]
enum Solver {
    /// The rules fix every move: the sparse solver where it fits, else the matrix-free one
    /// (`Some` storage and components: the matrix-free one in any case).
    RulesFixed(Option<(Storage, Components)>),
    /// The game with choices, each side optimal or a fixed strategy.
    Game(Box<GameSettings>),
}

/// The settings of `solve --profile choice`.
#[derive(Debug, Clone)]
struct GameSettings {
    /// How A and B play: `optimal` or a strategy's name.
    strategies: [String; 2],
    /// A's and B's fixed strategies, read and checked against this game once (`None`:
    /// optimal).
    fixed: [Option<Strategy>; 2],
    policy_out: Option<PathBuf>,
    force: bool,
    evaluate_pair: bool,
    mirror: bool,
    style: bool,
    layered: bool,
    part: crate::exact::game::layered::Part,
    values_out: Option<PathBuf>,
    /// `--position`: as given, and parsed.
    position: Option<(String, crate::rules::GameState)>,
    /// `--values`.
    values: Option<PathBuf>,
}

/// A solve's options, checked.
#[derive(Debug, Clone)]
pub struct SolveSettings {
    rules: Rules,
    dice: [Die; 2],
    solve: crate::exact::SolveOptions,
    tolerance: f64,
    threads: Option<usize>,
    solver: Solver,
}

/// The first option given (`true`) among `options` (given, name), refused with the message
/// `refusal` makes of its name.
fn refuse_first(options: &[(bool, &str)], refusal: impl Fn(&str) -> String) -> Result<(), Error> {
    match options.iter().find(|(given, _)| *given) {
        Some((_, option)) => Err(Error::input(refusal(option))),
        None => Ok(()),
    }
}

impl SolveSettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &SolveOptions) -> Result<SolveSettings, Error> {
        let o = options;
        let rules = o.rules.rules()?;
        let a = parse_die("--a", &o.die_a)?;
        let b = parse_die("--b", &o.die_b)?;
        super::options::check_threads(o.threads)?;
        let max_memory = memory_limit(o.max_memory.as_deref())?;
        // The library's one rule for every solver (tolerance and sweep limit).
        let solve = crate::exact::SolveOptions::new(o.tolerance, o.max_sweeps, max_memory)
            .map_err(|e| super::rule_error(e.0))?;
        let solver = if rules.profile().choice {
            if o.f32 || o.matrix_free || o.one_value_at_a_time || o.release_blocks {
                return Err(Error::input(
                    "--f32, --matrix-free, --one-value-at-a-time and --release-blocks are \
                     options of the rules-fixed solver, not of --profile choice",
                ));
            }
            let strategies = [&o.strategy_a, &o.strategy_b].map(|s| {
                s.as_deref()
                    .map_or("optimal".to_string(), |s| s.trim().to_string())
            });
            // Each fixed strategy is read and checked against this game now, before any work.
            let mut fixed = [None, None];
            for (p, option) in ["--strategy-a", "--strategy-b"].into_iter().enumerate() {
                if strategies[p] != "optimal" {
                    fixed[p] = Some(fixed_strategy(option, &strategies[p], &rules, [&a, &b])?);
                }
            }
            if o.style && strategies.iter().any(|s| s != "optimal") {
                return Err(Error::input(
                    "--style tells how the optimal pair plays: leave --strategy-a and --strategy-b \
                     at optimal",
                ));
            }
            if o.values.is_some() && o.position.is_none() {
                return Err(Error::input(
                    "--values reads the value of one position: give --position",
                ));
            }
            if o.position.is_some() {
                refuse_first(
                    &[
                        (
                            strategies.iter().any(|s| s != "optimal"),
                            "--strategy-a and --strategy-b",
                        ),
                        (o.policy_out.is_some(), "--policy-out"),
                        (o.evaluate_pair, "--evaluate-pair"),
                        (o.style, "--style"),
                        (o.layered, "--layered"),
                        (o.values_out.is_some(), "--values-out"),
                    ],
                    |option| {
                        format!(
                            "--position gives one position's value with both sides optimal; \
                             {option}: only without --position"
                        )
                    },
                )?;
            }
            let position = match &o.position {
                Some(text) => Some((
                    text.clone(),
                    crate::exact::game::position::parse_position(&rules, text)
                        .map_err(|e| Error::input(format!("--position: {e}")))?,
                )),
                None => None,
            };
            if !o.layered && (o.part != "all" || o.values_out.is_some()) {
                return Err(Error::input(
                    "--part and --values-out are options of --layered",
                ));
            }
            if o.layered {
                refuse_first(
                    &[
                        (
                            strategies.iter().any(|s| s != "optimal"),
                            "--strategy-a and --strategy-b",
                        ),
                        (o.policy_out.is_some(), "--policy-out"),
                        (o.evaluate_pair, "--evaluate-pair"),
                        (o.style, "--style"),
                        (o.no_mirror, "--no-mirror"),
                    ],
                    |option| {
                        format!(
                            "--layered solves the value with both sides optimal, without the \
                             mirror; {option}: only without --layered"
                        )
                    },
                )?;
            }
            if let Some(path) = &o.policy_out {
                file::check_target(path, o.force)
                    .map_err(|e| Error::input(format!("--policy-out: {e}")))?;
            }
            Solver::Game(Box::new(GameSettings {
                strategies,
                fixed,
                policy_out: o.policy_out.clone(),
                force: o.force,
                evaluate_pair: o.evaluate_pair,
                mirror: !o.no_mirror,
                style: o.style,
                layered: o.layered,
                part: match o.part.as_str() {
                    "outside-core" => Part::OutsideCore,
                    "both-home" => Part::BothHome,
                    _ => Part::All,
                },
                values_out: o.values_out.clone(),
                position,
                values: o.values.clone(),
            }))
        } else {
            refuse_first(
                &[
                    (o.strategy_a.is_some(), "--strategy-a"),
                    (o.strategy_b.is_some(), "--strategy-b"),
                    (o.policy_out.is_some(), "--policy-out"),
                    (o.evaluate_pair, "--evaluate-pair"),
                    (o.no_mirror, "--no-mirror"),
                    (o.style, "--style"),
                    (o.layered, "--layered"),
                    (o.part != "all", "--part"),
                    (o.values_out.is_some(), "--values-out"),
                    (o.position.is_some(), "--position"),
                    (o.values.is_some(), "--values"),
                ],
                |option| {
                    format!("{option} needs --profile choice (without it rule 3 fixes every move)")
                },
            )?;
            let storage = if o.f32 {
                Storage::F32
            } else if o.matrix_free {
                Storage::F64
            } else {
                Storage::Auto
            };
            let components = if o.release_blocks {
                Components::OneAtATimeReleasing
            } else if o.one_value_at_a_time {
                Components::OneAtATime
            } else {
                Components::Auto
            };
            let forced = o.f32 || o.matrix_free || o.one_value_at_a_time || o.release_blocks;
            Solver::RulesFixed(forced.then_some((storage, components)))
        };
        Ok(SolveSettings {
            rules,
            dice: [a, b],
            solve,
            tolerance: o.tolerance,
            threads: o.threads,
            solver,
        })
    }
}

/// Maps a solver's error to the exit codes: the user's input (2) or a failure (1).
fn exact_error(e: ExactError) -> Error {
    if e.is_input_error() {
        Error::input(e)
    } else {
        Error::failure(e)
    }
}

/// Runs `solve`: the certified figures of the matchup (and, under `--profile choice`, the
/// policy file and the style of play if asked for).
pub fn solve(settings: &SolveSettings, progress: &dyn Progress) -> Result<SolveReport, Error> {
    // Those settings ask for another report: never the openings' figures in its place.
    if solves_position(settings) || solves_part(settings) {
        return Err(Error::input(
            "--position and --part outside-core|both-home give other reports: run them with \
             solve_position and solve_layers",
        ));
    }
    let started = Instant::now();
    let s = settings;
    let [a, b] = &s.dice;
    let game = match &s.solver {
        Solver::Game(game) => game,
        Solver::RulesFixed(storage) => {
            let observer = SolveNotes::new(s.tolerance, progress);
            let observer = |p| observer.report(p);
            let result = run_in_pool(s.threads, progress, |watch| {
                watch.status(&format!("exact {a} vs {b}"));
                match storage {
                    Some((storage, components)) => solve_matrix_free(
                        &s.rules,
                        a,
                        b,
                        &s.solve,
                        (*storage, *components),
                        &observer,
                    ),
                    None => solve_fitting_observed(&s.rules, a, b, &s.solve, &observer),
                }
                .map_err(exact_error)
            })?;
            let report = SolveReport::new(
                [a.to_string(), b.to_string()],
                s.rules.board().to_string(),
                s.rules.profile().to_string(),
                s.tolerance,
                &result.result,
                result.solver.to_string(),
                result.stalled,
                started.elapsed().as_secs_f64(),
            );
            if report.stalled {
                progress.note(&format!(
                    "warning: the iteration ({}) stopped narrowing the intervals before \
                     --tolerance {}; the certified intervals below are as wide as shown",
                    report.solver, s.tolerance
                ));
            }
            return Ok(report);
        }
    };
    if game.layered {
        if game.part != Part::All {
            return Err(Error::input(
                "--part outside-core and both-home report groups, not figures (the command \
                 line runs them with solve_layers)",
            ));
        }
        return solve_layered_game(s, game, started, progress);
    }
    solve_game(s, game, started, progress)
}

/// `solve --profile choice --layered`: the value with both sides optimal, group by group
/// ([`crate::exact::game::layered`]); a note per group that takes a second or more.
fn solve_layered_game(
    s: &SolveSettings,
    game: &GameSettings,
    started: Instant,
    progress: &dyn Progress,
) -> Result<SolveReport, Error> {
    use crate::exact::game::layered::{LayeredRun, solve_layered_with};
    let dice = [&s.dice[0], &s.dice[1]];
    let notes = GroupNotes::new(progress);
    let observer = |p: crate::exact::game::layered::LayerProgress<'_>| notes.report(p);
    let run = LayeredRun {
        part: Part::All,
        keep_values: false,
        values_out: game.values_out.as_deref(),
        observer: &observer,
    };
    let (solution, _) = run_in_pool(s.threads, progress, |_| {
        solve_layered_with(&s.rules, dice, &s.solve, &run).map_err(exact_error)
    })?;
    let figures = solution.figures.as_ref().ok_or_else(|| {
        Error::input(
            "--layered: with these dice some play from the opening can go on forever, so the \
             value alone does not give the figures; solve without --layered",
        )
    })?;
    let report = SolveReport::of_layered(
        [dice[0].to_string(), dice[1].to_string()],
        &s.rules,
        s.tolerance,
        &solution,
        figures,
        started.elapsed().as_secs_f64(),
    );
    if report.stalled {
        progress.note(&format!(
            "warning: not certified to --tolerance {}: the value bracket did not reach it; the \
             intervals below are as wide as shown",
            s.tolerance
        ));
    }
    Ok(report)
}

/// Whether `settings` ask for a part of the groups (`solve --layered --part outside-core`
/// or `both-home`), which [`solve_layers`] runs.
pub fn solves_part(settings: &SolveSettings) -> bool {
    matches!(&settings.solver, Solver::Game(g) if g.layered && g.part != Part::All)
}

/// Whether `settings` ask for one position's value (`solve --position`), which
/// [`solve_position`] gives.
pub fn solves_position(settings: &SolveSettings) -> bool {
    matches!(&settings.solver, Solver::Game(g) if g.position.is_some())
}

/// `solve --position P [--values DIR]`: the position's value under optimal play, read from
/// the values folder or solved.
pub fn solve_position(
    settings: &SolveSettings,
    progress: &dyn Progress,
) -> Result<crate::report::PositionReport, Error> {
    use crate::exact::game::layered::LayeredValues;
    let s = settings;
    let Solver::Game(game) = &s.solver else {
        return Err(Error::input("--position needs --profile choice"));
    };
    let (Some((text, position)), values) = (&game.position, &game.values) else {
        return Err(Error::input("solve_position needs --position"));
    };
    let dice = [&s.dice[0], &s.dice[1]];
    let (value, tolerance) = match values {
        Some(dir) => {
            let input = |e: ExactError| Error::input(format!("--values: {e}"));
            let values = LayeredValues::open_dir(dir).map_err(input)?;
            values
                .check_game(&s.rules, dice)
                .map_err(|e| Error::input(format!("--values {}: {e}", dir.display())))?;
            let value = values.bracket(position).map_err(input)?.ok_or_else(|| {
                Error::input(format!(
                    "--values {}: no values for this position's group (A's and B's goal \
                     fields as they stand: the core, where neither side has a piece home, or a \
                     group not solved); without --values the whole game is solved",
                    dir.display()
                ))
            })?;
            (value, values.tolerance())
        }
        None => {
            let notes = GameSolveNotes::new(
                s.tolerance,
                s.rules.board().pieces(),
                "solving the game",
                progress,
            );
            let value = run_in_pool(s.threads, progress, |_| {
                crate::exact::game::advise::position_value(
                    &s.rules,
                    dice,
                    position,
                    &s.solve,
                    &|p| notes.report(p),
                )
                .map_err(exact_error)
            })?;
            (value, s.tolerance)
        }
    };
    Ok(crate::report::PositionReport {
        a: dice[0].to_string(),
        b: dice[1].to_string(),
        board: s.rules.board().to_string(),
        profile: s.rules.profile().to_string(),
        position: text.clone(),
        to_move: ["A", "B"][position.mover()].into(),
        value: value.mid(),
        interval: [value.lo, value.hi],
        tolerance,
        values: values.as_ref().map(|p| p.display().to_string()),
    })
}

/// `solve --layered --part outside-core|both-home`: the groups of the part, each certified
/// at every state, written to `--values-out` if given.
pub fn solve_layers(
    settings: &SolveSettings,
    progress: &dyn Progress,
) -> Result<crate::report::LayersReport, Error> {
    let s = settings;
    let Solver::Game(game) = &s.solver else {
        return Err(Error::input("--part needs --profile choice --layered"));
    };
    let dice = [&s.dice[0], &s.dice[1]];
    let notes = GroupNotes::new(progress);
    let observer = |p: crate::exact::game::layered::LayerProgress<'_>| notes.report(p);
    let run = crate::exact::game::layered::LayeredRun {
        part: game.part,
        keep_values: false,
        values_out: game.values_out.as_deref(),
        observer: &observer,
    };
    let outcome = run_in_pool(s.threads, progress, |_| {
        crate::exact::game::layered::solve_layers(&s.rules, dice, &s.solve, &run)
            .map_err(exact_error)
    })?;
    if !outcome.certified {
        progress.note(&format!(
            "warning: some group's widest bracket is wider than --tolerance {}: see the \
             widths below",
            s.tolerance
        ));
    }
    Ok(crate::report::LayersReport {
        a: dice[0].to_string(),
        b: dice[1].to_string(),
        board: s.rules.board().to_string(),
        profile: s.rules.profile().to_string(),
        tolerance: s.tolerance,
        part: match game.part {
            Part::All => "all",
            Part::OutsideCore => "outside-core",
            Part::BothHome => "both-home",
        }
        .into(),
        values_out: game.values_out.as_ref().map(|p| p.display().to_string()),
        outcome,
    })
}

/// The progress of a layered solve: a status line per group, a note per group that took a
/// second or more, or was read back from `--values-out`.
struct GroupNotes<'a> {
    progress: &'a dyn Progress,
    current: std::sync::Mutex<String>,
}

impl<'a> GroupNotes<'a> {
    fn new(progress: &'a dyn Progress) -> GroupNotes<'a> {
        GroupNotes {
            progress,
            current: std::sync::Mutex::new(String::new()),
        }
    }

    fn report(&self, p: crate::exact::game::layered::LayerProgress<'_>) {
        use crate::exact::game::layered::LayerProgress;
        let current = || self.current.lock().unwrap_or_else(|e| e.into_inner());
        match p {
            LayerProgress::Group {
                number,
                of,
                goal_a,
                goal_b,
                states,
            } => {
                let name = format!("group {number}/{of} (goal fields A {goal_a:b}, B {goal_b:b})");
                self.progress.status(&format!("{name}: {states} states"));
                *current() = name;
            }
            LayerProgress::Sweep { .. } => {}
            LayerProgress::Done(r) if r.resumed => self
                .progress
                .note(&format!("{}: read back from --values-out", current())),
            LayerProgress::Done(r) if r.seconds >= 1.0 => self.progress.note(&format!(
                "{}: {} states, {} sweeps, widest bracket {:.3e}{}, {:.1} s",
                current(),
                r.states,
                r.sweeps,
                r.width,
                if r.stalled { " (stalled)" } else { "" },
                r.seconds
            )),
            LayerProgress::Done(_) => {}
        }
    }
}

/// Joint indices (states of a rules-fixed solve) from which a solve announces its size
/// before the work (a second or more of sweeping on this machine).
const LARGE_SOLVE: u64 = 10_000_000;

/// `; about N more sweeps, T (basis)`: the time still to go, for a progress line; empty
/// when there is no estimate or nothing is left.
fn remaining_text(remaining: Option<(crate::fixpoint::Remaining, Basis)>) -> String {
    let Some((r, basis)) = remaining.filter(|(r, _)| r.sweeps > 0) else {
        return String::new();
    };
    format!(
        "; about {} more {}, {} ({})",
        r.sweeps,
        if r.sweeps == 1 { "sweep" } else { "sweeps" },
        estimate_text(r.seconds),
        match basis {
            Basis::Narrowing => "at the last sweeps' pace and narrowing",
            Basis::UsualWork => "if the usual work, at the pace so far",
            Basis::FirstValue => "as the first value's blocks took, at the pace so far",
        }
    )
}

/// An estimated time: to a tenth of a second below ten seconds and of a minute from two
/// minutes up to two hours, precise enough to compare with the end.
fn estimate_text(seconds: f64) -> String {
    match seconds {
        s if (0.0..10.0).contains(&s) => format!("{s:.1} s"),
        s if (120.0..7200.0).contains(&s) => format!("{:.1} min", s / 60.0),
        s => super::options::human_duration(std::time::Duration::from_secs_f64(s.max(0.0))),
    }
}

/// Seconds between two progress lines of a long rules-fixed solve.
const NOTE_EVERY: f64 = 5.0;

/// How far a step may take from its printed estimate before its end line says so: the
/// estimates aim to be within a factor of 1.5.
const ESTIMATE_FACTOR: f64 = 1.5;

/// ` (2.13 times the estimate)` where a step that was said to take `said` seconds took `took`
/// and that is off by more than [`ESTIMATE_FACTOR`], else empty. The estimates before a
/// solve's first phase are fixed costs fitted on the development machine, so a slower
/// machine (or day, or dice unlike the fitted ones) makes them short; the line that ends the
/// step checks the claim against what happened rather than leaving it standing.
fn estimate_check(took: f64, said: f64) -> String {
    if !(said > 0.0 && took.is_finite()) {
        return String::new();
    }
    let ratio = took / said;
    if (1.0 / ESTIMATE_FACTOR..=ESTIMATE_FACTOR).contains(&ratio) {
        String::new()
    } else {
        format!(" ({} times the estimate)", significant(ratio))
    }
}

/// `ratio` to two decimals below 10 (`2.13`, `0.11`: `1.51` does not read as `1.5`), to
/// one from 10 on.
fn significant(ratio: f64) -> String {
    if ratio >= 10.0 {
        format!("{ratio:.1}")
    } else {
        format!("{ratio:.2}")
    }
}

/// The lines a large rules-fixed solve writes while it runs: its states and memory once they
/// are known, then, at most every [`NOTE_EVERY`] seconds, its work so far and the time
/// still to go ([`Estimator`]); the first estimate as soon as there is one. A small solve
/// stays silent. Each solve starts with its size ([`SolveProgress::Sizing`]), which starts
/// the notes afresh: one `SolveNotes` serves the pairs of a ranking one after another.
pub(crate) struct SolveNotes<'p> {
    progress: &'p dyn Progress,
    tolerance: f64,
    /// What the lines begin with: `solve`, or in a ranking the pair being solved.
    subject: std::sync::Mutex<String>,
    state: std::sync::Mutex<NoteState>,
}

/// What [`SolveNotes`] remembers between reports of one solve.
struct NoteState {
    estimator: Estimator,
    /// The solve is large enough to speak.
    large: bool,
    /// Seconds of the last line written.
    last_line: f64,
    /// A line with an estimate of the time still to go has been written.
    estimated: bool,
    /// The search's printed estimate, checked when the search ends.
    search_said: Option<f64>,
}

impl NoteState {
    /// For a solve of dice with `faces` distinct moving faces together.
    fn new(tolerance: f64, faces: u64) -> NoteState {
        NoteState {
            estimator: Estimator::new(tolerance, usual_sweeps(tolerance, faces)),
            large: false,
            last_line: 0.0,
            estimated: false,
            search_said: None,
        }
    }
}

impl<'p> SolveNotes<'p> {
    /// Lines for a solve to `tolerance`, written as notes of `progress`.
    pub(crate) fn new(tolerance: f64, progress: &'p dyn Progress) -> SolveNotes<'p> {
        SolveNotes {
            progress,
            tolerance,
            subject: std::sync::Mutex::new("solve".to_string()),
            // Replaced by each solve's own at its size report.
            state: std::sync::Mutex::new(NoteState::new(tolerance, 12)),
        }
    }

    /// The lines of the next solve begin with `subject` (e.g. `exact 2/15: 1..6 vs 2..7`).
    pub(crate) fn name_next(&self, subject: &str) {
        *self.subject.lock().unwrap_or_else(|e| e.into_inner()) = subject.to_string();
    }

    /// Takes a report of the solver.
    pub(crate) fn report(&self, p: SolveProgress) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *state;
        if let SolveProgress::Sizing { faces, .. } = p {
            *state = NoteState::new(self.tolerance, faces);
        }
        let remaining = state.estimator.report(p);
        let line = match p {
            SolveProgress::Sizing {
                joint_indices,
                search_seconds,
                ..
            } => {
                if joint_indices < LARGE_SOLVE {
                    return;
                }
                state.search_said = Some(search_seconds);
                format!(
                    "{joint_indices} joint indices; finding the reachable states, about {} \
                     (estimate)",
                    estimate_text(search_seconds)
                )
            }
            SolveProgress::Planned {
                solver,
                states,
                bytes,
                seconds,
                build_seconds,
            } => {
                state.large = states >= LARGE_SOLVE;
                if !state.large {
                    return;
                }
                state.last_line = seconds;
                let build = build_seconds.map_or(String::new(), |b| {
                    format!(
                        "; building the matrix, about {} (estimate)",
                        estimate_text(b)
                    )
                });
                let check = state
                    .search_said
                    .map_or(String::new(), |said| estimate_check(seconds, said));
                format!(
                    "{states} reachable states found in {seconds:.1} s{check}; {solver} solver, \
                     about {} at the peak (estimate){build}",
                    crate::exact::memory::format_bytes(bytes)
                )
            }
            SolveProgress::Sweep {
                phase,
                updates,
                per_sweep,
                width,
                seconds,
            } => {
                let first_estimate = remaining.is_some() && !state.estimated;
                if !state.large || !(first_estimate || seconds - state.last_line >= NOTE_EVERY) {
                    return;
                }
                state.last_line = seconds;
                state.estimated |= remaining.is_some();
                let phase = match phase {
                    Phase::Block { block, blocks, .. } => format!("block {block} of {blocks}"),
                    Phase::Openings => "openings".to_string(),
                };
                let left = remaining_text(remaining);
                format!(
                    "{phase}, {:.1} sweep equivalents, width {width:.3e}, {seconds:.1} \
                     s{left}",
                    updates as f64 / per_sweep.max(1) as f64
                )
            }
        };
        let subject = self.subject.lock().unwrap_or_else(|e| e.into_inner());
        self.progress.note(&format!("{subject}: {line}"));
    }
}

/// The lines a game solve ([`solve_game_with`]) writes while it runs: a long one (a board
/// like 40/20/3/4 takes minutes) says its size and memory before the work, its
/// classification and the tabulation of a costly fixed strategy, then every sweep from the
/// fifth second on with the time still to go at the pace and narrowing of the last sweeps;
/// a short one stays silent.
pub(crate) struct GameSolveNotes<'p> {
    progress: &'p dyn Progress,
    /// What the lines begin with, e.g. `solve`.
    subject: &'static str,
    tolerance: f64,
    pieces: u32,
    /// The phase the watch is timing (`true`: the pair's evaluation) and the watch.
    watch: std::sync::Mutex<(bool, Estimator)>,
    /// Seconds of the last line about a tabulation.
    tabulation_line: std::sync::Mutex<f64>,
    /// The classification's printed estimate, checked when it ends.
    classify_said: std::sync::Mutex<Option<f64>>,
}

impl<'p> GameSolveNotes<'p> {
    /// Lines for a game solve to `tolerance` with `pieces` pieces a side, beginning with
    /// `subject`, written as notes of `progress`.
    pub(crate) fn new(
        tolerance: f64,
        pieces: u32,
        subject: &'static str,
        progress: &'p dyn Progress,
    ) -> GameSolveNotes<'p> {
        GameSolveNotes {
            progress,
            subject,
            tolerance,
            pieces,
            watch: std::sync::Mutex::new((false, new_watch(tolerance, pieces))),
            tabulation_line: std::sync::Mutex::new(0.0),
            classify_said: std::sync::Mutex::new(None),
        }
    }

    /// Takes a report of the solver.
    pub(crate) fn report(&self, p: GameProgress) {
        let line = match p {
            GameProgress::Planned {
                indices,
                bytes,
                ending_bytes,
                classify_seconds,
            } if indices >= LARGE_SOLVE => {
                let size = crate::exact::memory::format_bytes;
                let memory = if ending_bytes < bytes {
                    format!(
                        "about {} at the peak, {} if some play can go on forever (estimates)",
                        size(ending_bytes),
                        size(bytes)
                    )
                } else {
                    format!("about {} at the peak (estimate)", size(bytes))
                };
                *self.classify_said.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(classify_seconds);
                format!(
                    "{indices} joint indices; {memory}; classifying the states, about {} \
                     (estimate)",
                    estimate_text(classify_seconds)
                )
            }
            GameProgress::Planned { .. } => return,
            GameProgress::Classified { seconds, .. } if seconds < NOTE_EVERY => return,
            GameProgress::Classified { states, seconds } => {
                let said = *self.classify_said.lock().unwrap_or_else(|e| e.into_inner());
                let check = said.map_or(String::new(), |said| estimate_check(seconds, said));
                format!("{states} reachable states classified after {seconds:.1} s{check}")
            }
            GameProgress::Tabulating {
                side,
                done,
                elapsed,
                seconds,
            } => {
                let mut last = self
                    .tabulation_line
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if elapsed < NOTE_EVERY || seconds - *last < NOTE_EVERY || done >= 1.0 {
                    return;
                }
                *last = seconds;
                // Blocks of joint indices cost alike on the whole (each thread takes its
                // share of the range), so the time to go is the pace so far.
                format!(
                    "asking {}'s strategy its move in every decision: {:.0} % after \
                     {elapsed:.1} s; about {} more (at the pace so far)",
                    ["A", "B"][side],
                    100.0 * done,
                    estimate_text(elapsed * (1.0 - done) / done.max(1e-9))
                )
            }
            GameProgress::Sweep {
                pair,
                sweep,
                gap,
                seconds,
            } => {
                let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
                // A new phase (the pair's evaluation after the value) starts a new watch.
                if watch.0 != pair {
                    *watch = (pair, new_watch(self.tolerance, self.pieces));
                }
                // Every sweep of the game solver narrows the openings' width. The watch
                // sees every sweep; a line is written from the fifth second on.
                let report = SolveProgress::Sweep {
                    phase: Phase::Openings,
                    updates: sweep as u64,
                    per_sweep: 1,
                    width: gap,
                    seconds,
                };
                let remaining = watch.1.report(report);
                if seconds < NOTE_EVERY {
                    return;
                }
                let left = remaining_text(remaining);
                format!(
                    "{} sweep {sweep}, width {gap:.3e}, {seconds:.1} s{left}",
                    if pair { "pair evaluation" } else { "value" }
                )
            }
        };
        self.progress.note(&format!("{}: {line}", self.subject));
    }
}

/// A fresh watch of a game solve's sweeps to `tolerance` with `pieces` pieces a side.
fn new_watch(tolerance: f64, pieces: u32) -> Estimator {
    Estimator::new(tolerance, usual_game_sweeps(tolerance, pieces))
        .trusting_narrowing_after(GAME_NARROWING_AFTER)
}

/// `solve --profile choice`: the game with choices ([`crate::exact::game`]).
fn solve_game(
    s: &SolveSettings,
    game: &GameSettings,
    started: Instant,
    progress: &dyn Progress,
) -> Result<SolveReport, Error> {
    let rules = &s.rules;
    let dice = [&s.dice[0], &s.dice[1]];
    // Each fixed strategy seated with both dice.
    let policies: [Option<Box<dyn MovePolicy>>; 2] = [0, 1].map(|p| {
        game.fixed[p]
            .as_ref()
            .map(|st| Box::new(st.seated(dice, p)) as Box<dyn MovePolicy>)
    });
    let sides: [Side<'_>; 2] = [0, 1].map(|p| match &policies[p] {
        None => Side::Optimal,
        Some(policy) => Side::Fixed(policy.as_ref()),
    });
    let notes = GameSolveNotes::new(s.tolerance, rules.board().pieces(), "solve", progress);
    let observer = |p: GameProgress| notes.report(p);
    // A written policy is checked to attain the value, so its pair is always evaluated.
    let run = GameRun {
        keep_values: false,
        evaluate_pair: game.evaluate_pair || game.policy_out.is_some(),
        observer: &observer,
        extract_policy: game.style || game.policy_out.is_some(),
        mirror: game.mirror,
    };
    let solution = run_in_pool(s.threads, progress, |_| {
        solve_game_with(rules, dice, sides, &s.solve, &run).map_err(exact_error)
    })?;
    if let Some(path) = &game.policy_out {
        let table = solution.policy.as_ref().ok_or_else(|| {
            Error::input(
                "--policy-out: a side playing random mixes its moves, which a policy file \
                 cannot hold",
            )
        })?;
        let header = file::header(rules, dice, game.strategies.clone(), &solution.space, table);
        file::write(path, &header, table, game.force).map_err(|e| match e {
            file::PolicyFileError::Exists(_) => Error::input(format!("--policy-out: {e}")),
            e => Error::failure(format!("--policy-out: {e}")),
        })?;
    }
    let mut report = SolveReport::of_game(
        [dice[0].to_string(), dice[1].to_string()],
        rules,
        s.tolerance,
        &solution,
        game.strategies.clone(),
        started.elapsed().as_secs_f64(),
    );
    if let (Some(table), Some(figures), true) = (&solution.policy, report.game.as_mut(), game.style)
    {
        let (differences, style) = in_thread_pool(s.threads, || {
            (
                crate::exact::game::differences_from_heuristics(
                    &solution.space,
                    table,
                    dice,
                    solution.mirrored,
                ),
                crate::exact::game::style::style_of(
                    &solution.space,
                    table,
                    dice,
                    solution.mirrored,
                ),
            )
        })?;
        figures.style = Some(style);
        for d in differences {
            figures.differs_from.push(crate::report::DifferenceReport {
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
        progress.note(&format!(
            "warning: not certified to --tolerance {}: {}; the intervals below are as wide as \
             shown",
            s.tolerance,
            report
                .game
                .as_ref()
                .map_or(String::new(), |g| g.not_certified_reason())
        ));
    }
    Ok(report)
}

/// The fixed strategy a name stands for under `choice` (`option` names the flag in errors):
/// a strategy of [`crate::strategy`], or a `table:FILE` read and checked against this game.
fn fixed_strategy(
    option: &str,
    text: &str,
    rules: &Rules,
    dice: [&Die; 2],
) -> Result<Strategy, Error> {
    let strategy: Strategy = text.parse().map_err(|e| match e {
        // Only a name can be unknown; here `optimal` is one more.
        crate::strategy::StrategyError::Unknown(given) => Error::input(format!(
            "{option}: unknown strategy {given}: expected optimal, one of {} (or table:FILE, strong:FILE, exact:DIR)",
            crate::strategy::STRATEGY_NAMES.join(", ")
        )),
        e => Error::input(format!("{option}: {e}")),
    })?;
    strategy
        .check_game(rules, dice)
        .map_err(|e| Error::input(format!("{option}: {e}")))?;
    Ok(strategy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::SolverUsed;
    use std::sync::Mutex;

    /// Keeps every note.
    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
    }

    fn sweep(phase: Phase, updates: u64, width: f64, seconds: f64) -> SolveProgress {
        SolveProgress::Sweep {
            phase,
            updates,
            per_sweep: 1000,
            width,
            seconds,
        }
    }

    #[test]
    fn a_large_rules_fixed_solve_says_its_size_then_its_time_to_go_every_few_seconds() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        report_large_plan(&watch, 10.0);
        let block = Phase::Block {
            block: 3,
            blocks: 25,
            repeats: None,
        };
        // The first sweep starts the pace's clock (and is within five seconds of the last
        // line: silent); after two sweeps' worth of updates comes the first estimate,
        // written at once: 15 sweep equivalents usual, 12,900 updates more at 1 ms each.
        watch.report(sweep(block, 100, 1.0, 11.0));
        watch.report(sweep(block, 2100, 1.0, 13.0));
        // Within five seconds of that line: nothing.
        watch.report(sweep(block, 4000, 1.0, 15.0));
        watch.report(sweep(Phase::Openings, 9000, 1e-3, 20.0));
        let lines = notes.0.lock().unwrap().clone();
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert!(
            lines[0].contains("30000000 joint indices; finding the reachable states, about 9.5 s"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("20000000 reachable states")
                && lines[1].contains("3.00 GiB")
                && lines[1].contains("matrix-free, f64 storage"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("block 3 of 25, 2.1 sweep equivalents")
                && lines[2].contains("about 13 more sweeps, 13 s")
                && lines[2].contains("usual work"),
            "{}",
            lines[2]
        );
        // The openings' first sweep tells no narrowing: 6,000 updates more at 9 s per 8,900.
        assert!(
            lines[3].contains(
                "openings, 9.0 sweep equivalents, width 1.000e-3, 20.0 s; about 6 more sweeps, 6.0 s"
            ),
            "{}",
            lines[3]
        );
    }

    /// The size and plan of a solve of 900 states (below the size that speaks).
    /// A large matrix-free solve's size (its search estimated at 9.5 s) and its plan, the
    /// states found after `found_after` seconds.
    fn report_large_plan(watch: &SolveNotes, found_after: f64) {
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(SolveProgress::Planned {
            solver: SolverUsed::MatrixFree(Storage::F64, Components::Together),
            states: 20_000_000,
            bytes: 3 << 30,
            seconds: found_after,
            build_seconds: None,
        });
    }

    fn report_small_plan(watch: &SolveNotes) {
        watch.report(SolveProgress::Sizing {
            joint_indices: 1000,
            search_seconds: 0.001,
            faces: 12,
        });
        watch.report(SolveProgress::Planned {
            solver: SolverUsed::Sparse,
            states: 900,
            bytes: 1 << 20,
            seconds: 0.1,
            build_seconds: Some(0.01),
        });
    }

    #[test]
    fn a_small_rules_fixed_solve_stays_silent() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        report_small_plan(&watch);
        for k in 1..40 {
            watch.report(sweep(
                Phase::Openings,
                1000 * k,
                0.5f64.powi(k as i32),
                k as f64,
            ));
        }
        assert!(notes.0.lock().unwrap().is_empty());
    }

    /// The pairs of an exact ranking share one `SolveNotes`: each solve's size starts its
    /// notes afresh, so a large pair after a small one speaks, and its first estimate comes
    /// at once, from its own pace, not the pair's before.
    #[test]
    fn each_solve_of_a_ranking_gets_its_own_notes() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        let large = |seconds| SolveProgress::Planned {
            solver: SolverUsed::Sparse,
            states: 20_000_000,
            bytes: 1 << 30,
            seconds,
            build_seconds: Some(65.0),
        };
        // A large pair: its lines, the first estimate at 13 s.
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(large(10.0));
        watch.report(sweep(Phase::Openings, 100, 1.0, 11.0));
        watch.report(sweep(Phase::Openings, 2100, 1.0, 13.0));
        // A small pair: silent, though it reports as often.
        report_small_plan(&watch);
        watch.report(sweep(Phase::Openings, 900, 0.5, 0.2));
        watch.name_next("exact 3/3: 1..6 vs 2..7");
        // The next large pair, with its own clock from 0 s: its first estimate at 6 s (the
        // first pair's last line was at 13 s), from its own pace of 4 s per 2,000 updates
        // (the first pair's was 2 s): 12,900 updates more, 26 s.
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(large(1.0));
        watch.report(sweep(Phase::Openings, 100, 1.0, 2.0));
        watch.report(sweep(Phase::Openings, 2100, 1.0, 6.0));
        let lines = notes.0.lock().unwrap().clone();
        assert_eq!(lines.len(), 6, "{lines:#?}");
        assert!(lines[2].contains("13.0 s; about"), "{}", lines[2]);
        // The sparse solver's plan says how long its matrix will take to build.
        assert!(
            lines[1].ends_with("building the matrix, about 65 s (estimate)"),
            "{}",
            lines[1]
        );
        assert!(
            lines[0].starts_with("solve: 30000000 joint indices"),
            "{}",
            lines[0]
        );
        assert!(
            lines[3].starts_with("exact 3/3: 1..6 vs 2..7: 30000000 joint indices"),
            "{}",
            lines[3]
        );
        assert!(
            lines[5].contains(
                "2.1 sweep equivalents, width 1.000e0, 6.0 s; about 13 more sweeps, 26 s"
            ),
            "{}",
            lines[5]
        );
    }

    #[test]
    fn an_estimate_off_by_more_than_half_again_is_named_at_the_end_of_its_step() {
        assert_eq!(estimate_check(32.0, 15.0), " (2.13 times the estimate)");
        assert_eq!(estimate_check(1.0, 9.5), " (0.11 times the estimate)");
        assert_eq!(estimate_check(22.7, 15.0), " (1.51 times the estimate)");
        assert_eq!(estimate_check(160.0, 10.0), " (16.0 times the estimate)");
        // Within a factor of 1.5 either way, the estimate held: nothing is added.
        for took in [10.0, 15.0, 22.5, 16.0] {
            assert_eq!(estimate_check(took, 15.0), "", "{took}");
        }
        // No estimate to check against.
        assert_eq!(estimate_check(5.0, 0.0), "");
    }

    #[test]
    fn the_search_line_says_how_far_the_search_took_from_its_estimate() {
        let lines = |took: f64| {
            let notes = Notes::default();
            let watch = SolveNotes::new(1e-9, &notes);
            report_large_plan(&watch, took);
            notes.0.lock().unwrap().clone()
        };
        let slow = lines(20.0);
        assert!(
            slow[1].starts_with(
                "solve: 20000000 reachable states found in 20.0 s (2.11 times the estimate); "
            ),
            "{}",
            slow[1]
        );
        let held = lines(10.0);
        assert!(
            held[1].starts_with("solve: 20000000 reachable states found in 10.0 s; "),
            "{}",
            held[1]
        );
    }

    #[test]
    fn the_classification_line_says_how_far_it_took_from_its_estimate() {
        let lines = |took: f64| {
            let notes = Notes::default();
            let watch = GameSolveNotes::new(1e-9, 3, "solve", &notes);
            watch.report(GameProgress::Planned {
                indices: 405_270_450,
                bytes: 10 << 30,
                ending_bytes: 6 << 30,
                classify_seconds: 40.0,
            });
            watch.report(GameProgress::Classified {
                states: 336_067_942,
                seconds: took,
            });
            notes.0.lock().unwrap().clone()
        };
        assert_eq!(
            lines(106.7)[1],
            "solve: 336067942 reachable states classified after 106.7 s (2.67 times the estimate)"
        );
        assert_eq!(
            lines(43.0)[1],
            "solve: 336067942 reachable states classified after 43.0 s"
        );
    }
}
