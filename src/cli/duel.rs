//! `duel`: one matchup simulated.

use super::common::{RulesArgs, SimArgs, parse_die, plan_line, progress_bar};
use super::strategy::StrategyArgs;
use super::{CliError, Format};
use crate::report::{DuelReport, write_duel};
use crate::sim::{StoppingRule, StreamKey, run_duel_announced};
use clap::Args;
use std::io::Write;

/// Simulate die A against die B, each starting half the games.
#[derive(Args, Debug)]
pub struct DuelArgs {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Games, seed, threads.
    #[command(flatten)]
    pub sim: SimArgs,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Strategies under --profile choice.
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `duel`.
pub fn run(args: DuelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    let strategies = args.strategy.strategies(&rules)?;
    let stopping = args.sim.stopping()?;
    let matchup = args
        .sim
        .matchup(&rules, &a, &b)?
        .playing(strategies)
        .map_err(CliError::input)?;
    let total = match stopping.rule() {
        StoppingRule::Games(n) => Some(n),
        StoppingRule::Precision(_) => None,
    };
    let bar = progress_bar(total, &format!("{a} vs {b}"));
    let announce = |plan: &crate::sim::DuelPlan| {
        if let Some(line) = plan_line("duel", plan) {
            bar.suspend(|| eprintln!("{line}"));
        }
    };
    let key = StreamKey::new(args.sim.seed);
    let counts = args
        .sim
        .in_pool(|| run_duel_announced(&matchup, key, stopping, &|n| bar.inc(n), &announce))?
        .map_err(CliError::failure)?;
    bar.finish_and_clear();
    // run_duel_announced has checked that the precision rule reached its half-width.
    let report = DuelReport::new(
        [&a, &b],
        rules.profile().to_string(),
        rules.board().to_string(),
        &counts,
        args.sim.seed,
        matchup.max_rolls(),
        stopping.claimed_half_width(),
    )
    .with_strategies(matchup.strategies());
    write_duel(out, &report, args.format)?;
    Ok(())
}
