//! `converge`: the simulation held against the exact solver. How the error shrinks with
//! the number of games and how often the 95 % intervals hold (default), or how honest the
//! stopping rules are (`--stopping`).

use super::common::{RulesOptions, SimOptions, parse_die, progress_bar};
use super::{CliError, Format, check_plot, plot_error};
use crate::exact::{SolveOptions, solve_matchup};
use crate::experiments::Reference;
use crate::experiments::convergence::{ConvergenceConfig, game_grid, run_convergence};
use crate::experiments::stopping::{Rule, StoppingConfig, compare_rules};
use crate::report::plot::{convergence_svg, stopping_svg};
use crate::report::{self, ConvergenceReport, Header, StoppingReport};
use crate::sim::CHUNK_GAMES;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Simulate a matchup many times and compare with the exact solver: error and interval
/// coverage against the number of games, or (--stopping) how many games each stopping rule
/// plays and how often it misses the exact value by more than it claims.
///
/// The board defaults to 40/20/2/4 (two pieces each), which the exact solver handles in
/// well under a second; any board the solver can handle may be given.
#[derive(Args, Debug)]
#[command(mut_arg("pieces", |a| a.default_value("2").help(
    "Pieces per player (default 2 here: a reduced board the exact solver handles in well under a second; 4 on the BwInf board)"
)))]
pub struct ConvergeArgs {
    /// Die A, e.g. `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Board and rule profile (default board 40/20/2/4).
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Independent replicates (runs) per grid point or per stopping rule.
    #[arg(long, default_value_t = 100)]
    pub reps: u32,
    /// Smallest number of games of the grid.
    #[arg(long = "min-games", value_name = "N", default_value_t = 100)]
    pub min_games: u64,
    /// Largest number of games of the grid (each replicate plays this many games).
    #[arg(long = "max-games", value_name = "N", default_value_t = 1_000_000)]
    pub max_games: u64,
    /// Grid points per factor of ten.
    #[arg(long = "points-per-decade", value_name = "K", default_value_t = 4)]
    pub points_per_decade: u32,
    /// Compare stopping rules instead of the fixed grid.
    #[arg(long)]
    pub stopping: bool,
    /// With --stopping: the rules, comma-separated: fixed-N (any even N), precision, change,
    /// naive-wilson, worst-case, conf-seq [default: fixed-1000, fixed-10000, fixed-1000000
    /// and all the others].
    #[arg(
        long = "rules",
        value_name = "LIST",
        value_delimiter = ',',
        requires = "stopping"
    )]
    pub rules_list: Option<Vec<String>>,
    /// With --stopping: the precision H (95 % half-width) that precision, naive-wilson,
    /// worst-case and conf-seq aim for.
    #[arg(long, value_name = "H", default_value_t = 0.01)]
    pub precision: f64,
    /// With --stopping: naive-wilson looks at its interval after every this many games
    /// (even; default one chunk of the engine).
    #[arg(long = "look-every", value_name = "N", default_value_t = CHUNK_GAMES)]
    pub look_every: u64,
    /// Seed: replicate r uses stream r of this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game reaching this many rolls is counted as unfinished (not won by A).
    #[arg(long = "max-rolls", default_value_t = 100_000)]
    pub max_rolls: u64,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
    /// Also draw the results as an SVG picture into FILE (refused if FILE exists, unless
    /// --overwrite is given).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[arg(long, requires = "plot")]
    pub overwrite: bool,
}

impl ConvergeArgs {
    fn validate(&self) -> Result<(), CliError> {
        if self.reps == 0 {
            return Err(CliError::input("--reps 0: expected at least 1 replicate"));
        }
        if self.stopping {
            crate::sim::Stopping::precision(self.precision)
                .map_err(|e| CliError::input(format!("--precision: {e}")))?;
            if self.look_every < 2 || !self.look_every.is_multiple_of(2) {
                return Err(CliError::input(format!(
                    "--look-every {}: expected an even number of games, at least 2",
                    self.look_every
                )));
            }
        } else {
            if self.min_games < 2 {
                return Err(CliError::input(format!(
                    "--min-games {}: expected at least 2 games",
                    self.min_games
                )));
            }
            if self.max_games < self.min_games {
                return Err(CliError::input(format!(
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
                return Err(CliError::input(format!(
                    "--reps {} times --max-games {}: more than the {max_games} games a run may \
                     play",
                    self.reps, self.max_games
                )));
            }
            if self.points_per_decade == 0 {
                return Err(CliError::input(
                    "--points-per-decade 0: expected at least 1 point per factor of ten",
                ));
            }
        }
        Ok(())
    }

    fn stopping_rules(&self) -> Result<Vec<Rule>, CliError> {
        let rules: Vec<Rule> = match &self.rules_list {
            None => Rule::standard(),
            Some(names) => names
                .iter()
                .map(|n| {
                    n.parse()
                        .map_err(|e| CliError::input(format!("--rules: {e}")))
                })
                .collect::<Result<_, _>>()?,
        };
        for &rule in &rules {
            if let Some(Err(e)) = crate::experiments::stopping::duel_stopping(rule, self.precision)
            {
                return Err(CliError::input(format!("--rules {rule}: {e}")));
            }
        }
        Ok(rules)
    }
}

/// Runs `converge`.
pub fn run(args: ConvergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    args.validate()?;
    let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    let stopping_rules = args.stopping_rules()?;
    let sim = SimOptions {
        games: None,
        precision: None,
        seed: args.seed,
        max_rolls: args.max_rolls,
        threads: args.threads,
    };
    let matchup = sim.matchup(&rules, &a, &b)?;

    let exact = sim.in_pool(|| solve_matchup(&rules, &a, &b, &SolveOptions::default()))?;
    let exact = exact.map_err(|e| {
        CliError::failure(format!(
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

    let started = std::time::Instant::now();
    if args.stopping {
        let config = StoppingConfig {
            precision: args.precision,
            reps: args.reps,
            seed: args.seed,
            look_every: args.look_every,
            ..StoppingConfig::default()
        };
        let units = u64::from(args.reps) * stopping_rules.len() as u64;
        let bar = progress_bar(Some(units), "replicates");
        let result = sim.in_pool(|| {
            compare_rules(&matchup, &reference, &stopping_rules, &config, &|n| {
                bar.inc(n)
            })
        })?;
        bar.finish_and_clear();
        let report = StoppingReport {
            header,
            result: &result,
            seconds: started.elapsed().as_secs_f64(),
        };
        report::write(out, &report, args.format)?;
        if let Some(plot) = plot {
            let title = format!(
                "stopping rules, {} replicates each: {title_matchup}",
                args.reps
            );
            // The results are out first: a failing picture does not take them along.
            out.flush()?;
            plot.write(&stopping_svg(&result, &title).map_err(plot_error)?)
                .map_err(plot_error)?;
        }
    } else {
        let config = ConvergenceConfig {
            min_games: args.min_games,
            max_games: args.max_games,
            points_per_decade: args.points_per_decade,
            reps: args.reps,
            seed: args.seed,
        };
        let grid = game_grid(config.min_games, config.max_games, config.points_per_decade);
        // At most reps × max_games, checked in `validate`.
        let total = u64::from(args.reps) * grid.last().copied().unwrap_or(0);
        let bar = progress_bar(Some(total), "converge");
        let result =
            sim.in_pool(|| run_convergence(&matchup, &reference, &config, &|n| bar.inc(n)))?;
        bar.finish_and_clear();
        let report = ConvergenceReport {
            header,
            result: &result,
            seconds: started.elapsed().as_secs_f64(),
        };
        report::write(out, &report, args.format)?;
        if let Some(plot) = plot {
            let title = format!("convergence, {} replicates: {title_matchup}", args.reps);
            out.flush()?;
            plot.write(&convergence_svg(&result, &title).map_err(plot_error)?)
                .map_err(plot_error)?;
        }
    }
    Ok(())
}
