//! `converge`: the simulation held against the exact solver. How the error shrinks with
//! the number of games and how often the 95 % intervals hold (default), or how honest the
//! stopping rules are (`--stopping`).

use super::options::{RulesOptions, check_threads, matchup, parse_die};
use super::{Error, PendingPlot, Plotted, Progress, check_plot, run_in_pool};
use crate::dice::Die;
use crate::exact::{SolveOptions, solve_matchup};
use crate::experiments::Reference;
use crate::experiments::convergence::{ConvergenceConfig, game_grid, run_convergence};
use crate::experiments::stopping::{Rule, StoppingConfig, compare_rules};
use crate::report::plot::{convergence_svg, stopping_svg};
use crate::report::{ConvergenceReport, Header, OutputFile, StoppingReport};
use crate::rules::Rules;
#[cfg(feature = "clap")]
use crate::sim::CHUNK_GAMES;
use serde::Serialize;
use std::path::PathBuf;

/// The options of `converge`: simulate a matchup many times and compare with the exact solver: error and interval
/// coverage against the number of games, or (--stopping) how many games each stopping rule
/// plays and how often it misses the exact value by more than it claims.
///
/// The board defaults to 40/20/2/4 (two pieces each), which the exact solver handles in
/// well under a second; any board the solver can handle may be given.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[cfg_attr(feature = "clap", command(mut_arg("pieces", |a| a.default_value("2").help(
    "Pieces per player (default 2 here: a reduced board the exact solver handles in well under a second; 4 on the BwInf board)"
))))]
pub struct ConvergeOptions {
    /// Die A, e.g. `1..6`.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: String,
    /// Die B.
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: String,
    /// Board and rule profile (default board 40/20/2/4).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Independent replicates (runs) per grid point or per stopping rule.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 100))]
    pub reps: u32,
    /// Smallest number of games of the grid.
    #[cfg_attr(
        feature = "clap",
        arg(long = "min-games", value_name = "N", default_value_t = 100)
    )]
    pub min_games: u64,
    /// Largest number of games of the grid (each replicate plays this many games).
    #[cfg_attr(
        feature = "clap",
        arg(long = "max-games", value_name = "N", default_value_t = 1_000_000)
    )]
    pub max_games: u64,
    /// Grid points per factor of ten.
    #[cfg_attr(
        feature = "clap",
        arg(long = "points-per-decade", value_name = "K", default_value_t = 4)
    )]
    pub points_per_decade: u32,
    /// Compare stopping rules instead of the fixed grid.
    #[cfg_attr(feature = "clap", arg(long))]
    pub stopping: bool,
    /// With --stopping: the rules, comma-separated: fixed-N (any even N), precision, change,
    /// naive-wilson, worst-case, conf-seq [default: fixed-1000, fixed-10000, fixed-1000000
    /// and all the others].
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "rules",
            value_name = "LIST",
            value_delimiter = ',',
            requires = "stopping"
        )
    )]
    pub rules_list: Option<Vec<String>>,
    /// With --stopping: the precision H (95 % half-width) that precision, naive-wilson,
    /// worst-case and conf-seq aim for.
    #[cfg_attr(feature = "clap", arg(long, value_name = "H", default_value_t = 0.01))]
    pub precision: f64,
    /// With --stopping: naive-wilson looks at its interval after every this many games
    /// (even; default one chunk of the engine).
    #[cfg_attr(feature = "clap", arg(long = "look-every", value_name = "N", default_value_t = CHUNK_GAMES))]
    pub look_every: u64,
    /// Seed: replicate r uses stream r of this seed.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// A game reaching this many rolls is counted as unfinished (not won by A).
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 100_000))]
    pub max_rolls: u64,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set).
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Also draw the results as an SVG picture into FILE (refused if FILE exists, unless
    /// --overwrite is given).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[cfg_attr(feature = "clap", arg(long, requires = "plot"))]
    pub overwrite: bool,
}

impl ConvergeOptions {
    fn validate(&self) -> Result<(), Error> {
        if self.reps == 0 {
            return Err(Error::input("--reps 0: expected at least 1 replicate"));
        }
        if self.stopping {
            crate::sim::Stopping::precision(self.precision)
                .map_err(|e| Error::input(format!("--precision: {e}")))?;
            if self.look_every < 2 || !self.look_every.is_multiple_of(2) {
                return Err(Error::input(format!(
                    "--look-every {}: expected an even number of games, at least 2",
                    self.look_every
                )));
            }
        } else {
            if self.min_games < 2 {
                return Err(Error::input(format!(
                    "--min-games {}: expected at least 2 games",
                    self.min_games
                )));
            }
            if self.max_games < self.min_games {
                return Err(Error::input(format!(
                    "--max-games {} is below --min-games {}",
                    self.max_games, self.min_games
                )));
            }
            // Every replicate plays up to --max-games: the whole plan must fit the one cap
            // every simulation has (checked, so a huge product cannot wrap).
            let max_games = crate::sim::MAX_GAMES;
            if u64::from(self.reps)
                .checked_mul(self.max_games)
                .is_none_or(|total| total > max_games)
            {
                return Err(Error::input(format!(
                    "--reps {} times --max-games {}: more than the {max_games} games a run may \
                     play",
                    self.reps, self.max_games
                )));
            }
            if self.points_per_decade == 0 {
                return Err(Error::input(
                    "--points-per-decade 0: expected at least 1 point per factor of ten",
                ));
            }
        }
        Ok(())
    }

    fn stopping_rules(&self) -> Result<Vec<Rule>, Error> {
        let rules: Vec<Rule> = match &self.rules_list {
            None => Rule::standard(),
            Some(names) => names
                .iter()
                .map(|n| n.parse().map_err(|e| Error::input(format!("--rules: {e}"))))
                .collect::<Result<_, _>>()?,
        };
        for &rule in &rules {
            if let Some(Err(e)) = crate::experiments::stopping::duel_stopping(rule, self.precision)
            {
                return Err(Error::input(format!("--rules {rule}: {e}")));
            }
        }
        Ok(rules)
    }
}

/// What the experiment is: the grid of game counts, or the stopping rules.
#[derive(Debug, Clone)]
enum Experiment {
    /// Error and coverage against the number of games.
    Convergence(ConvergenceConfig),
    /// The stopping rules compared.
    Stopping {
        config: StoppingConfig,
        rules: Vec<Rule>,
    },
}

/// A convergence experiment's options, checked.
#[derive(Debug, Clone)]
pub struct ConvergeSettings {
    rules: Rules,
    dice: [Die; 2],
    reps: u32,
    max_rolls: u64,
    threads: Option<usize>,
    experiment: Experiment,
    plot: Option<OutputFile>,
}

impl ConvergeSettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &ConvergeOptions) -> Result<ConvergeSettings, Error> {
        let args = options;
        check_threads(args.threads)?;
        args.validate()?;
        let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
        let rules = args.rules.rules()?;
        let a = parse_die("--a", &args.die_a)?;
        let b = parse_die("--b", &args.die_b)?;
        let stopping_rules = args.stopping_rules()?;
        // The matchup's own checks (roll cap, roll-off).
        matchup(&rules, &a, &b, args.max_rolls, "--max-rolls")?;
        let experiment = if args.stopping {
            Experiment::Stopping {
                config: StoppingConfig {
                    precision: args.precision,
                    reps: args.reps,
                    seed: args.seed,
                    look_every: args.look_every,
                    ..StoppingConfig::default()
                },
                rules: stopping_rules,
            }
        } else {
            Experiment::Convergence(ConvergenceConfig {
                min_games: args.min_games,
                max_games: args.max_games,
                points_per_decade: args.points_per_decade,
                reps: args.reps,
                seed: args.seed,
            })
        };
        Ok(ConvergeSettings {
            rules,
            dice: [a, b],
            reps: args.reps,
            max_rolls: args.max_rolls,
            threads: args.threads,
            experiment,
            plot,
        })
    }
}

/// What `converge` reports: the convergence experiment, or with `--stopping` the stopping
/// rules compared.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ConvergeOutput {
    /// Error and interval coverage against the number of games.
    Convergence(ConvergenceReport),
    /// How many games each stopping rule plays and how often it misses.
    Stopping(StoppingReport),
}

impl crate::report::Report for ConvergeOutput {
    fn write_table(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            ConvergeOutput::Convergence(r) => r.write_table(out),
            ConvergeOutput::Stopping(r) => r.write_table(out),
        }
    }

    fn csv(&self) -> Option<crate::report::CsvTable> {
        match self {
            ConvergeOutput::Convergence(r) => r.csv(),
            ConvergeOutput::Stopping(r) => r.csv(),
        }
    }
}

/// An experiment and its picture (with `--plot`).
pub type Converged = Plotted<ConvergeOutput>;

/// Runs `converge`: the exact solve, then the replicates of the simulation against it.
pub fn converge(settings: &ConvergeSettings, progress: &dyn Progress) -> Result<Converged, Error> {
    let s = settings;
    let rules = &s.rules;
    let [a, b] = &s.dice;
    let matchup = matchup(rules, a, b, s.max_rolls, "--max-rolls")?;
    run_in_pool(s.threads, progress, |watch| {
        let exact = solve_matchup(rules, a, b, &SolveOptions::default()).map_err(|e| {
            Error::failure(format!(
                "the exact solver cannot do {a} against {b} on board {}: {e}",
                rules.board()
            ))
        })?;
        let reference = Reference::from_exact(&exact, !rules.profile().roll_off);
        let header = Header::new(&matchup, &exact);
        let title_matchup = format!(
            "{a} against {b}, {} on board {}: exact P(A wins) = {:.6}",
            rules.profile(),
            rules.board(),
            exact.p_a
        );
        let started = web_time::Instant::now();
        let picture = |draw: &dyn Fn() -> Result<String, crate::report::PlotError>| {
            PendingPlot::drawn(s.plot.as_ref(), draw)
        };
        match &s.experiment {
            Experiment::Stopping { config, rules } => {
                let units = u64::from(s.reps) * rules.len() as u64;
                watch.begin("replicates", Some(units));
                let result =
                    compare_rules(&matchup, &reference, rules, config, &|n| watch.games(n));
                let seconds = started.elapsed().as_secs_f64();
                let title = format!(
                    "stopping rules, {} replicates each: {title_matchup}",
                    s.reps
                );
                let plot = picture(&|| stopping_svg(&result, &title))?;
                Ok(Plotted {
                    report: ConvergeOutput::Stopping(StoppingReport {
                        header,
                        result,
                        seconds,
                    }),
                    plot,
                })
            }
            Experiment::Convergence(config) => {
                let grid = game_grid(config.min_games, config.max_games, config.points_per_decade);
                // At most reps × max_games, checked in `validate`.
                let total = u64::from(s.reps) * grid.last().copied().unwrap_or(0);
                watch.begin("converge", Some(total));
                let result = run_convergence(&matchup, &reference, config, &|n| watch.games(n));
                let seconds = started.elapsed().as_secs_f64();
                let title = format!("convergence, {} replicates: {title_matchup}", s.reps);
                let plot = picture(&|| convergence_svg(&result, &title))?;
                Ok(Plotted {
                    report: ConvergeOutput::Convergence(ConvergenceReport {
                        header,
                        result,
                        seconds,
                    }),
                    plot,
                })
            }
        }
    })
}
