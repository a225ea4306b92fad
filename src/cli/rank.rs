//! `rank`: every pair of a dice list, the matrix and the ranking.

use super::common::{RulesArgs, SimArgs, check_roll_off, progress_bar, read_dice};
use super::{CliError, Format};
use crate::exact::SolveOptions;
use crate::rank::{SimulationPlan, simulate_tournament, solve_tournament};
use crate::report::{RankReport, write_rank};
use crate::sim::Stopping;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Rank the dice of a BwInf dice file (first line n, then n lines `m f1 .. fm`).
#[derive(Args, Debug)]
pub struct RankArgs {
    /// The dice file, e.g. data/wuerfel0.txt.
    pub file: PathBuf,
    /// Games, seed, threads.
    #[command(flatten)]
    pub sim: SimArgs,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Solve every pair exactly (value iteration); pairs too large for memory are simulated
    /// and marked.
    #[arg(long)]
    pub exact: bool,
    /// With --exact: width of the certified interval at which to stop.
    #[arg(long, default_value_t = 1e-9, requires = "exact")]
    pub tolerance: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `rank`.
pub fn run(args: RankArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let dice = read_dice(&args.file)?;
    if dice.len() < 2 {
        return Err(CliError::input(format!(
            "{}: rank needs at least two dice, the file has {}",
            args.file.display(),
            dice.len()
        )));
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
    let total = match plan.stopping {
        Stopping::Games(n) => Some(n * pairs),
        Stopping::Precision(_) => None,
    };
    let bar = progress_bar(total, &format!("{} pairs", pairs));
    let started = std::time::Instant::now();
    let (tournament, notes) = if args.exact {
        if !(args.tolerance > 0.0) {
            return Err(CliError::input(format!(
                "--tolerance {}: expected a positive width, e.g. 1e-9",
                args.tolerance
            )));
        }
        let options = SolveOptions {
            tolerance: args.tolerance,
            ..SolveOptions::default()
        };
        args.sim
            .in_pool(|| solve_tournament(&rules, &dice, &options, &plan, &|n| bar.inc(n)))?
            .map_err(CliError::failure)?
    } else {
        let t = args
            .sim
            .in_pool(|| simulate_tournament(&rules, &dice, &plan, &|n| bar.inc(n)))?;
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
    );
    write_rank(out, &tournament, &report, args.format)?;
    Ok(())
}
