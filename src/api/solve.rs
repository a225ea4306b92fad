//! `solve`: one matchup solved exactly, with certified intervals.

use super::options::{RulesOptions, in_thread_pool, memory_limit, parse_die};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::exact::game::cluster::{Cluster, OneProcess};
pub use crate::exact::game::layered::Part;
use crate::exact::game::policy::MovePolicy;
use crate::exact::game::{GameRun, Progress as GameProgress, Side, file, solve_game_with};
use crate::exact::matrix_free::{Components, Storage};
use crate::exact::{ExactError, solve_fitting_observed, solve_matrix_free};
use crate::report::SolveReport;
use crate::rules::Rules;
use crate::strategy::Strategy;
use crate::work::notes::{GameSolveNotes, GroupNotes, SolveNotes};
use std::path::PathBuf;
use web_time::Instant;

/// The options of `solve`: die A against die B, solved exactly.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SolveOptions {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: String,
    /// Die B.
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: String,
    /// Board and rule profile.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Stop when every certified interval is at most this wide.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SolveOptions::DEFAULT_TOLERANCE))]
    pub tolerance: f64,
    /// Give up after this many Gauss-Seidel sweeps.
    #[cfg_attr(feature = "clap", arg(long = "max-sweeps", default_value_t = SolveOptions::DEFAULT_MAX_SWEEPS))]
    pub max_sweeps: usize,
    /// Refuse when the estimated memory exceeds this: bytes, or e.g. `2GiB`, `500MB`
    /// (default: 80 % of the machine's RAM).
    #[cfg_attr(feature = "clap", arg(long = "max-memory", value_name = "SIZE"))]
    pub max_memory: Option<String>,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set). The sparse solver
    /// builds its matrix on them and iterates on one thread, so its result is the same to
    /// the last bit on any number of threads; the matrix-free solver sweeps on all of them
    /// (results agree within the tolerance).
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Use the matrix-free solver even where the sparse matrix would fit (by default it
    /// runs only when the matrix does not fit, as on the full BwInf board).
    #[cfg_attr(feature = "clap", arg(long = "matrix-free"))]
    pub matrix_free: bool,
    /// Matrix-free solver with `f32` value storage (half the memory; values rounded down so
    /// the intervals stay certified, but no narrower than about 1e-6).
    #[cfg_attr(feature = "clap", arg(long))]
    pub f32: bool,
    /// Matrix-free solver carrying one value a state at a time: P(A wins) to the end, then
    /// P(B wins); half the memory of the values, about 1.4 times the time, the same
    /// certificate (only where every game ends, without three-tries). Chosen by itself where
    /// both do not fit the memory limit.
    #[cfg_attr(feature = "clap", arg(long = "one-value-at-a-time"))]
    pub one_value_at_a_time: bool,
    /// Matrix-free solver, one value at a time, each block's values given back to the
    /// system once no later block reads them (the flags packed to two bits a pair): the
    /// least memory, about 0.7 of one value at a time on the BwInf board. No sweep over the
    /// whole product can follow the blocks, so where the openings' block does not reach the
    /// tolerance by itself the interval it reached is reported as stalled. Chosen by itself
    /// where one value at a time does not fit the memory limit.
    #[cfg_attr(feature = "clap", arg(long = "release-blocks"))]
    pub release_blocks: bool,
    /// Under `--profile choice`: how A plays, `optimal` (the default) or a strategy's name
    /// (A then plays it, and the figures are those of that pair).
    #[cfg_attr(feature = "clap", arg(long = "strategy-a", value_name = "STRATEGY"))]
    pub strategy_a: Option<String>,
    /// Under `--profile choice`: how B plays (as `--strategy-a`).
    #[cfg_attr(feature = "clap", arg(long = "strategy-b", value_name = "STRATEGY"))]
    pub strategy_b: Option<String>,
    /// Under `--profile choice`: write the pair played (both players' moves) to this policy
    /// file (format in `src/exact/game/file.rs`); an existing file only with `--force`.
    #[cfg_attr(feature = "clap", arg(long = "policy-out", value_name = "FILE"))]
    pub policy_out: Option<std::path::PathBuf>,
    /// Replace an existing `--policy-out` file.
    #[cfg_attr(feature = "clap", arg(long))]
    pub force: bool,
    /// Under `--profile choice`: evaluate the extracted pair's Markov chain exactly even
    /// where the value alone gives the optimal figures (a game in which every play ends
    /// and every state can still be won: P(A wins) = (1 + value) / 2 for every optimal
    /// pair). About doubles the time; checks that the extracted pair attains the value.
    /// Implied by `--policy-out`.
    #[cfg_attr(feature = "clap", arg(long = "evaluate-pair"))]
    pub evaluate_pair: bool,
    /// Under `--profile choice`: do not use the mirror symmetry of the same die on both
    /// sides of a symmetric board (which halves the value iteration's work). For checking
    /// the mirrored solve against the plain one.
    #[cfg_attr(feature = "clap", arg(long = "no-mirror"))]
    pub no_mirror: bool,
    /// Under `--profile choice` with both sides optimal: also tell how the optimal pair plays
    /// (`style`: captures, moves into the goal, pieces left within reach) and how often each
    /// built-in heuristic plays another move (`differs_from`). A pass over every decision
    /// per heuristic, which adds noticeably to the time of a large solve.
    #[cfg_attr(feature = "clap", arg(long))]
    pub style: bool,
    /// Under `--profile choice` with both sides optimal: solve the game group by group
    /// (states grouped by which goal fields each side holds, solved from the last group
    /// back), keeping finished groups compactly; the JSON lists every group's states,
    /// sweeps, widest bracket and seconds. For games in which every play ends with a win.
    #[cfg_attr(feature = "clap", arg(long))]
    pub layered: bool,
    /// With `--layered`: which groups to solve. `all` (the default) gives the value at the
    /// openings; `outside-core` every group in which at least one side has a piece home,
    /// `both-home` those in which both have: each certified at every state, reported group
    /// by group instead of the figures.
    #[cfg_attr(feature = "clap", arg(long, value_name = "PART", default_value = "all", value_parser = ["all", "outside-core", "both-home"]))]
    pub part: String,
    /// With `--layered`: write each solved group's values into this folder (a file per
    /// group, checksummed; made if missing), and read back the groups already there instead
    /// of solving them again, so that a stopped solve goes on where it stopped. Files made
    /// for another game are refused, never replaced.
    #[cfg_attr(feature = "clap", arg(long = "values-out", value_name = "DIR"))]
    pub values_out: Option<PathBuf>,
    /// With `--values-out`: while a group is solved, write its brackets to a checkpoint in
    /// the folder (`group-a*-b*.checkpoint`, a byte a state larger than the group's file)
    /// once this many minutes have passed since the group began or since its last
    /// checkpoint, so that a stopped run goes on from there instead of starting the group
    /// over; removed once the group's file is written. 0: after every sweep. Default 30.
    /// Not over MPI ranks.
    #[cfg_attr(
        feature = "clap",
        arg(long = "checkpoint-minutes", value_name = "MINUTES")
    )]
    pub checkpoint_minutes: Option<f64>,
    /// With `--values-out`: refuse before any work when the files still to write, with the
    /// checkpoint (or the MPI ranks' parts) of the group being written beside them, need
    /// more disk than this: bytes, or e.g. `80GB` (default: the folder's free space, plus
    /// the run's own checkpoints there). Larger than the free space where space will be
    /// freed while the run goes on, or where the file system compresses.
    #[cfg_attr(feature = "clap", arg(long = "max-disk", value_name = "SIZE"))]
    pub max_disk: Option<String>,
    /// Under `--profile choice`: the value of this position under optimal play instead of
    /// the openings' figures, e.g. `A:0,17,c B:A,5 turn:A` (as `advise --position`): read
    /// from `--values DIR` if given, else solved (the whole game, both sides optimal).
    #[cfg_attr(feature = "clap", arg(long, value_name = "POSITION"))]
    pub position: Option<String>,
    /// With `--position`: read the value from the group files of a layered solve of this
    /// game (`solve --layered --values-out DIR`) instead of solving; a position whose group
    /// they do not hold is refused.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub values: Option<PathBuf>,
}

impl SolveOptions {
    /// `--tolerance` when not given.
    pub const DEFAULT_TOLERANCE: f64 = 1e-12;
    /// `--max-sweeps` when not given.
    pub const DEFAULT_MAX_SWEEPS: usize = 100_000;
    /// `--checkpoint-minutes` when not given: a checkpoint of the largest groups of the
    /// real board costs about a minute to write.
    pub const DEFAULT_CHECKPOINT_MINUTES: f64 = 30.0;

    /// The options of a solve of die `a` against die `b` under `rules`, every other option
    /// at the command line's default.
    pub fn new(rules: &Rules, a: &Die, b: &Die) -> SolveOptions {
        SolveOptions {
            die_a: a.to_string(),
            die_b: b.to_string(),
            rules: RulesOptions::of(rules),
            tolerance: SolveOptions::DEFAULT_TOLERANCE,
            max_sweeps: SolveOptions::DEFAULT_MAX_SWEEPS,
            max_memory: None,
            threads: None,
            matrix_free: false,
            f32: false,
            one_value_at_a_time: false,
            release_blocks: false,
            strategy_a: None,
            strategy_b: None,
            policy_out: None,
            force: false,
            evaluate_pair: false,
            no_mirror: false,
            style: false,
            layered: false,
            part: Part::All.name().to_string(),
            values_out: None,
            checkpoint_minutes: None,
            max_disk: None,
            position: None,
            values: None,
        }
    }
}

/// `--checkpoint-minutes` as a duration: a finite number of minutes, 0 or more.
fn checkpoint_every(minutes: f64) -> Result<std::time::Duration, Error> {
    std::time::Duration::try_from_secs_f64(minutes * 60.0).map_err(|_| {
        Error::input(format!(
            "--checkpoint-minutes {minutes}: expected a number of minutes, 0 or more"
        ))
    })
}

/// `--max-disk` in bytes.
fn disk_limit(text: &str) -> Result<u64, Error> {
    crate::sizes::parse_bytes(text).map_err(|_| {
        Error::input(format!(
            "--max-disk {}: expected a size, e.g. 80GB, 500MiB or a number of bytes",
            crate::dice::excerpt(text)
        ))
    })
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
    /// `--checkpoint-minutes`.
    checkpoint_every: std::time::Duration,
    /// `--max-disk`, in bytes.
    max_disk: Option<u64>,
    /// `--position`: as given, and parsed.
    position: Option<(String, crate::rules::GameState)>,
    /// `--values`.
    values: Option<PathBuf>,
}

impl GameSettings {
    /// Each fixed strategy seated with both dice (`None`: the side optimises).
    fn seated_policies(&self, dice: [&Die; 2]) -> [Option<Box<dyn MovePolicy>>; 2] {
        [0, 1].map(|p| {
            self.fixed[p]
                .as_ref()
                .map(|st| Box::new(st.seated(dice, p)) as Box<dyn MovePolicy>)
        })
    }

    /// The fixed sides of a layered solve: `policies` (from [`GameSettings::seated_policies`])
    /// with their names.
    fn fixed_sides<'a>(
        &'a self,
        policies: &'a [Option<Box<dyn MovePolicy>>; 2],
    ) -> [Option<crate::exact::game::layered::FixedSide<'a>>; 2] {
        [0, 1].map(|p| {
            policies[p]
                .as_ref()
                .map(|policy| crate::exact::game::layered::FixedSide {
                    policy: policy.as_ref(),
                    name: &self.strategies[p],
                })
        })
    }
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

/// The typed way to [`SolveSettings`]: see [`SolveSettings::builder`]. It holds the
/// options until [`SolveBuilder::build`] checks them.
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until it is built"]
pub struct SolveBuilder(SolveOptions);

impl SolveBuilder {
    /// Stop when every certified interval is at most this wide.
    pub fn tolerance(mut self, tolerance: f64) -> SolveBuilder {
        self.0.tolerance = tolerance;
        self
    }

    /// Give up after this many sweeps.
    pub fn max_sweeps(mut self, sweeps: usize) -> SolveBuilder {
        self.0.max_sweeps = sweeps;
        self
    }

    /// Refuse before any work when the estimated memory exceeds this many bytes (default:
    /// 80 % of the machine's memory).
    pub fn max_memory(mut self, bytes: u64) -> SolveBuilder {
        self.0.max_memory = Some(bytes.to_string());
        self
    }

    /// Worker threads (1 to [`super::options::MAX_THREADS`]); every core when not set.
    pub fn threads(mut self, threads: usize) -> SolveBuilder {
        self.0.threads = Some(threads);
        self
    }

    /// Under `choice`: solve group by group ([`Part`]: which groups), as `--layered --part`.
    pub fn layered(mut self, part: Part) -> SolveBuilder {
        self.0.layered = true;
        self.0.part = part.name().to_string();
        self
    }

    /// With [`SolveBuilder::layered`]: the folder of the groups' value files, as
    /// `--values-out`.
    pub fn values_out(mut self, folder: impl Into<PathBuf>) -> SolveBuilder {
        self.0.values_out = Some(folder.into());
        self
    }

    /// With [`SolveBuilder::values_out`]: refuse before any work when the files need more
    /// disk than this many bytes (default: the folder's free space), as `--max-disk`.
    pub fn max_disk(mut self, bytes: u64) -> SolveBuilder {
        self.0.max_disk = Some(bytes.to_string());
        self
    }

    /// Under `choice`: evaluate the extracted optimal pair's chain exactly, as
    /// `--evaluate-pair`.
    pub fn evaluate_pair(mut self, evaluate: bool) -> SolveBuilder {
        self.0.evaluate_pair = evaluate;
        self
    }

    /// Under `choice` with the same die on both sides: whether to use the mirror symmetry
    /// (the default; `false` is `--no-mirror`).
    pub fn mirror(mut self, mirror: bool) -> SolveBuilder {
        self.0.no_mirror = !mirror;
        self
    }

    /// The checked settings, by [`SolveSettings::new`]: the first bad value is refused
    /// with a message naming the command-line option it stands for.
    pub fn build(self) -> Result<SolveSettings, Error> {
        SolveSettings::new(&self.0)
    }
}

impl SolveSettings {
    /// A solve built from typed values, for Rust users: die `a` against die `b` under
    /// `rules`, with the command line's defaults (certified to 1e-12, at most 100,000
    /// sweeps, memory up to 80 % of the machine's, every core, both sides optimal under
    /// `choice`); [`SolveBuilder::build`] checks it as [`SolveSettings::new`] checks the
    /// options.
    ///
    /// ```
    /// use wuerfelglueck::api::{SolveSettings, Silent, solve};
    /// use wuerfelglueck::dice::Die;
    /// use wuerfelglueck::rules::{Board, Rules};
    ///
    /// let rules = Rules::new(Board::new(16, 8, 2, 2)?, "choice".parse()?);
    /// let settings = SolveSettings::builder(rules, "1..6".parse::<Die>()?, "2..7".parse::<Die>()?)
    ///     .tolerance(1e-9)
    ///     .threads(1)
    ///     .build()?;
    /// let report = solve(&settings, &Silent)?;
    /// let [low, high] = report.bounds.p_a;
    /// assert!(low <= report.p_a && report.p_a <= high && high - low <= 1e-9);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn builder(rules: Rules, a: Die, b: Die) -> SolveBuilder {
        SolveBuilder(SolveOptions::new(&rules, &a, &b))
    }

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
            if o.checkpoint_minutes.is_some() && o.values_out.is_none() {
                return Err(Error::input(
                    "--checkpoint-minutes: checkpoints are written into --values-out, which \
                     is not given",
                ));
            }
            if o.max_disk.is_some() && o.values_out.is_none() {
                return Err(Error::input(
                    "--max-disk bounds what is written into --values-out, which is not given",
                ));
            }
            if o.layered {
                refuse_first(
                    &[
                        (o.policy_out.is_some(), "--policy-out"),
                        (o.evaluate_pair, "--evaluate-pair"),
                        (o.style, "--style"),
                        (o.no_mirror, "--no-mirror"),
                    ],
                    |option| {
                        format!(
                            "--layered solves the value (of both sides optimal, or of the \
                             strategies given), the mirror where it applies; {option}: only \
                             without --layered"
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
                part: Part::named(&o.part).ok_or_else(|| {
                    Error::input(format!(
                        "--part {}: expected one of all, outside-core, both-home",
                        o.part
                    ))
                })?,
                values_out: o.values_out.clone(),
                checkpoint_every: checkpoint_every(
                    o.checkpoint_minutes
                        .unwrap_or(SolveOptions::DEFAULT_CHECKPOINT_MINUTES),
                )?,
                max_disk: o.max_disk.as_deref().map(disk_limit).transpose()?,
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
                    (o.checkpoint_minutes.is_some(), "--checkpoint-minutes"),
                    (o.max_disk.is_some(), "--max-disk"),
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
    solve_on(settings, progress, &OneProcess)
}

/// [`solve`] on the processes of `cluster` (MPI's ranks, [`crate::exact::game::cluster`]):
/// over more than one, only the layered game solver runs, each group shared among them.
pub fn solve_on(
    settings: &SolveSettings,
    progress: &dyn Progress,
    cluster: &dyn Cluster,
) -> Result<SolveReport, Error> {
    refuse_unshared(settings, cluster)?;
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
        return solve_layered_game(s, game, started, progress, cluster);
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
    cluster: &dyn Cluster,
) -> Result<SolveReport, Error> {
    use crate::exact::game::layered::{LayeredRun, solve_layered_with};
    let dice = [&s.dice[0], &s.dice[1]];
    let notes = GroupNotes::new(progress);
    let observer = |p: crate::exact::game::layered::LayerProgress<'_>| notes.report(p);
    let policies = game.seated_policies(dice);
    let run = LayeredRun {
        part: Part::All,
        keep_values: false,
        values_out: game.values_out.as_deref(),
        observer: &observer,
        cluster,
        fixed: game.fixed_sides(&policies),
        checkpoint_every: Some(game.checkpoint_every),
        max_disk: game.max_disk,
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
        game.strategies.clone(),
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

/// The processes this one was started among: MPI's ranks where `mpirun` started more than
/// one (with the cargo feature `mpi`; a build without it is refused there, since every
/// process would solve the whole game and print it), else this process alone.
pub fn launched_cluster() -> Result<Box<dyn Cluster>, Error> {
    let Some(ranks) = crate::exact::game::cluster::launched_ranks() else {
        return Ok(Box::new(OneProcess));
    };
    #[cfg(feature = "mpi")]
    {
        let _ = ranks;
        crate::exact::game::cluster::mpi_ranks::MpiRanks::start()
            .map(|r| Box::new(r) as Box<dyn Cluster>)
            .map_err(exact_error)
    }
    #[cfg(not(feature = "mpi"))]
    Err(Error::input(format!(
        "started as one of {ranks} MPI ranks, but this build has no MPI: build it with \
         `cargo build --release --features mpi`"
    )))
}

/// Refuses what does not run across several processes: everything but the layered game
/// solver (each process would solve it all and print it again).
fn refuse_unshared(settings: &SolveSettings, cluster: &dyn Cluster) -> Result<(), Error> {
    let layered = matches!(&settings.solver, Solver::Game(g) if g.layered);
    let fixed = matches!(&settings.solver, Solver::Game(g) if g.fixed.iter().any(Option::is_some));
    if cluster.size() > 1 && (!layered || fixed || solves_position(settings)) {
        return Err(Error::input(format!(
            "started on {} MPI ranks: only `solve --profile choice --layered` (with or without \
             --part) with both sides optimal runs across ranks; run this one as a single \
             process",
            cluster.size()
        )));
    }
    Ok(())
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
    solve_layers_on(settings, progress, &OneProcess)
}

/// [`solve_layers`] on the processes of `cluster`, each group shared among them.
pub fn solve_layers_on(
    settings: &SolveSettings,
    progress: &dyn Progress,
    cluster: &dyn Cluster,
) -> Result<crate::report::LayersReport, Error> {
    refuse_unshared(settings, cluster)?;
    let s = settings;
    let Solver::Game(game) = &s.solver else {
        return Err(Error::input("--part needs --profile choice --layered"));
    };
    let dice = [&s.dice[0], &s.dice[1]];
    let notes = GroupNotes::new(progress);
    let observer = |p: crate::exact::game::layered::LayerProgress<'_>| notes.report(p);
    let policies = game.seated_policies(dice);
    let run = crate::exact::game::layered::LayeredRun {
        part: game.part,
        keep_values: false,
        values_out: game.values_out.as_deref(),
        observer: &observer,
        cluster,
        fixed: game.fixed_sides(&policies),
        checkpoint_every: Some(game.checkpoint_every),
        max_disk: game.max_disk,
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
        strategy_a: game.strategies[0].clone(),
        strategy_b: game.strategies[1].clone(),
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

/// `solve --profile choice`: the game with choices ([`crate::exact::game`]).
fn solve_game(
    s: &SolveSettings,
    game: &GameSettings,
    started: Instant,
    progress: &dyn Progress,
) -> Result<SolveReport, Error> {
    let rules = &s.rules;
    let dice = [&s.dice[0], &s.dice[1]];
    let policies = game.seated_policies(dice);
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
