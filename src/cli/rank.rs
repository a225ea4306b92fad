//! `rank`: every pair of a dice list, the matrix and the ranking.

use super::common::{
    DEFAULT_PRECISION, RulesArgs, SimArgs, check_roll_off, memory_limit, parse_die, plan_line,
    progress_bar, read_dice, seats, status_line, table_error,
};
use super::strategy::StrategyArgs;
use super::{CliError, Format, check_plot, plot_error};
use crate::dice::Die;
use crate::exact::SolveOptions;
use crate::exact::store::PairStore;
use crate::rank::{
    SimulationPlan, exact_strategy_name, simulate_tournament_playing, solve_tournament,
};
use crate::report::plot::heatmap_svg;
use crate::report::{self, RankReport};
use crate::rules::Rules;
use crate::sim::{DuelPlan, StoppingRule};
use crate::strategy::Strategy;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Rank the dice of a BwInf dice file (first line n, then n lines `m f1 .. fm`), or dice
/// given with --die.
#[derive(Args, Debug)]
pub struct RankArgs {
    /// The dice file, e.g. data/wuerfel0.txt.
    #[arg(required_unless_present = "die", conflicts_with = "die")]
    pub file: Option<PathBuf>,
    /// A die, e.g. `--die 1..6 --die 1,1,1,6,6,6` (repeat for each die, instead of a file).
    #[arg(long, value_name = "FACES")]
    pub die: Vec<String>,
    /// Games, seed, threads.
    #[command(flatten)]
    pub sim: SimArgs,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Strategies under --profile choice: a ranking plays every die with --strategy
    /// (--strategy-a / --strategy-b are refused).
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Solve every pair exactly (value iteration); pairs too large for memory are simulated
    /// and marked.
    #[arg(long)]
    pub exact: bool,
    /// With --exact: width of the certified interval at which to stop.
    #[arg(long, default_value_t = 1e-9, requires = "exact")]
    pub tolerance: f64,
    /// With --exact: solve a pair exactly only if its estimated memory stays below this:
    /// bytes, or e.g. `16GiB` (default: 80 % of the machine's RAM); larger pairs are
    /// simulated and marked.
    #[arg(long = "max-memory", value_name = "SIZE", requires = "exact")]
    pub max_memory: Option<String>,
    /// With --exact: keep every solved pair in DIR (one JSON file per pair, created if
    /// missing; refused before any work if DIR cannot be written) and read pairs solved
    /// there before whose certified intervals are at most --tolerance wide, so an
    /// interrupted ranking resumes and rankings that share a pair solve it once. A record
    /// that fails its checks is moved aside (NAME.json.rejected), named in a note, and
    /// its pair solved again.
    #[arg(long, value_name = "DIR", requires = "exact")]
    pub store: Option<PathBuf>,
    /// Also play every N-subset of the dice at a table of N = 3 or 4 players and rank the
    /// dice by their mean P(win) there, beside the pairwise ranking.
    #[arg(long, value_name = "N", conflicts_with_all = ["exact", "plot"])]
    pub players: Option<usize>,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
    /// Also draw the matrix as a heat map into FILE (SVG; refused if FILE exists, unless
    /// --overwrite is given).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[arg(long, requires = "plot")]
    pub overwrite: bool,
}

/// Runs `rank`.
pub fn run(args: RankArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let strategy = ranking_strategy(&args.strategy, &rules, args.exact)?;
    let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
    let (dice, source) = match &args.file {
        Some(file) => (read_dice(file)?, file.display().to_string()),
        None => (
            args.die
                .iter()
                .map(|d| parse_die("--die", d))
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
    if let Some(players) = args.players {
        return rank_at_tables(&args, &rules, &dice, players, out);
    }
    for (i, a) in dice.iter().enumerate() {
        for b in &dice[i + 1..] {
            check_roll_off(&rules, a, b)?;
        }
    }
    let plan = SimulationPlan {
        stopping: args.sim.stopping()?,
        seed: args.sim.seed,
        max_rolls: args.sim.max_rolls()?,
    };
    let pairs = (dice.len() * (dice.len() - 1) / 2) as u64;
    let total = match plan.stopping.rule() {
        StoppingRule::Games(n) => n.checked_mul(pairs),
        StoppingRule::Precision(_) => None,
    };
    // Under --exact the status line below says which pair is being solved instead.
    let bar = if args.exact {
        indicatif::ProgressBar::hidden()
    } else {
        progress_bar(total, &format!("{} pairs", pairs))
    };
    let started = std::time::Instant::now();
    let (tournament, notes) = if args.exact {
        // The library's one rule for every solver.
        let options = SolveOptions::new(
            args.tolerance,
            SolveOptions::default().max_sweeps,
            memory_limit(args.max_memory.as_deref())?,
        )
        .map_err(|e| super::rule_error(e.0))?;
        let store = match &args.store {
            // Refused here, before any pair is solved, if DIR cannot be written.
            Some(dir) => {
                Some(PairStore::open(dir).map_err(|e| CliError::input(format!("--store {e}")))?)
            }
            None => None,
        };
        // One exact solve can take minutes: say which pair is being solved.
        let status = status_line("exact");
        let started = |pair: &str| status.set_message(format!("exact {pair}"));
        let solved = args.sim.in_pool(|| {
            solve_tournament(
                &rules,
                &dice,
                &options,
                &plan,
                store.as_ref(),
                &started,
                &|n| bar.inc(n),
            )
        })?;
        status.finish_and_clear();
        solved.map_err(CliError::failure)?
    } else {
        let t = args
            .sim
            .in_pool(|| {
                // A pair that will take long says so up front, as `duel` does.
                let announce = |pair: &str, p: &DuelPlan| {
                    if let Some(line) = plan_line(&format!("rank, {pair}"), p) {
                        bar.suspend(|| eprintln!("{line}"));
                    }
                };
                simulate_tournament_playing(
                    &rules,
                    &dice,
                    &strategy,
                    &plan,
                    &|n| bar.inc(n),
                    &announce,
                )
            })?
            .map_err(CliError::failure)?;
        (t, Vec::new())
    };
    bar.finish_and_clear();
    let report = RankReport::new(
        &tournament,
        rules.profile().to_string(),
        rules.board().to_string(),
        Some(plan.seed),
        started.elapsed().as_secs_f64(),
        notes,
    )
    .with_strategy(&if args.exact {
        exact_strategy_name(&rules)
    } else {
        strategy.name()
    });
    report::write(out, &report, args.format)?;
    if let Some(plot) = plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        plot.write(&heatmap_svg(&tournament).map_err(plot_error)?)
            .map_err(plot_error)?;
    }
    Ok(())
}

/// The one strategy every die plays in a ranking, checked as `rank` checks it (also by the
/// Python package): under `exact` the strategies are the solver's (the rules' own moves, or
/// under choice optimal play on both sides), so `--strategy` is refused there.
pub fn ranking_strategy(
    args: &StrategyArgs,
    rules: &Rules,
    exact: bool,
) -> Result<Strategy, CliError> {
    let strategy = rank_strategy(args, rules)?;
    // A heuristic is only simulated.
    if exact && args.strategy.is_some() {
        return Err(CliError::input(format!(
            "--strategy {strategy} with --exact: the exact ranking solves {}; leave out \
             --exact to simulate a strategy",
            if rules.profile().choice {
                "optimal play on both sides"
            } else {
                "the rules' own moves"
            }
        )));
    }
    Ok(strategy)
}

/// The one strategy every die plays in a ranking (or a search).
pub(super) fn rank_strategy(
    args: &StrategyArgs,
    rules: &crate::rules::Rules,
) -> Result<Strategy, CliError> {
    for (given, option) in [
        (&args.strategy_a, "--strategy-a"),
        (&args.strategy_b, "--strategy-b"),
    ] {
        if given.is_some() {
            return Err(CliError::input(format!(
                "{option}: a ranking (or a search) plays every die with the same strategy; use \
                 --strategy (duel plays two different ones)"
            )));
        }
    }
    let [strategy, _] = args.strategies(rules)?;
    Ok(strategy)
}

/// Runs `rank --players N`: every N-subset of `dice` at a table, and the pairwise ranking.
pub fn rank_at_tables(
    args: &RankArgs,
    rules: &Rules,
    dice: &[Die],
    players: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !(3..=4).contains(&players) {
        return Err(CliError::input(format!(
            "--players {players}: expected 3 or 4 (rank without --players is the two-player ranking)"
        )));
    }
    if dice.len() < players {
        return Err(CliError::input(format!(
            "--players {players}: the list has only {} dice, too few for one table",
            dice.len()
        )));
    }
    let seats = seats(rules, players, "--players")?;
    let max_rolls = args.sim.max_rolls()?;
    let precision = args.sim.precision.unwrap_or(DEFAULT_PRECISION);
    let plan = crate::rank::SimulationPlan {
        stopping: args.sim.stopping()?,
        seed: args.sim.seed,
        max_rolls,
    };
    let bar = progress_bar(None, &format!("tables of {players}"));
    let (tables, pairwise) = args.sim.in_pool(|| {
        let tables = crate::rank::table::simulate_tables(
            &seats,
            dice,
            args.sim.games,
            precision,
            args.sim.seed,
            max_rolls,
            &|n| bar.inc(n),
        );
        let pairwise =
            crate::rank::simulate_tournament(rules, dice, &plan, &|n| bar.inc(n), &|_, _| {});
        (tables, pairwise)
    })?;
    bar.finish_and_clear();
    let tables = tables.map_err(table_error)?;
    let pairwise = pairwise.map_err(CliError::failure)?;
    let report = crate::report::TableRankReport {
        players,
        fair_share: 1.0 / players as f64,
        dice: dice.to_vec(),
        ranking: tables.ranking,
        pairwise: pairwise.ranking(),
        tables: tables.tables,
        profile: rules.profile().to_string(),
        board: rules.board().to_string(),
        seed: args.sim.seed,
        precision: args.sim.games.is_none().then_some(precision),
        games: args.sim.games,
    };
    crate::report::write(out, &report, args.format)?;
    Ok(())
}
