//! `duel`: one matchup simulated.

use super::common::{RulesArgs, SimArgs, check_roll_off, parse_die, progress_bar};
use super::{CliError, Format};
use crate::report::{DuelReport, write_duel};
use crate::sim::{Matchup, Stopping, StreamKey, run_duel};
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `duel`.
pub fn run(args: DuelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    check_roll_off(&rules, &a, &b)?;
    let stopping = args.sim.stopping()?;
    let matchup = Matchup {
        rules: &rules,
        dice: [&a, &b],
        max_rolls: args.sim.max_rolls()?,
    };
    let total = match stopping {
        Stopping::Games(n) => Some(n),
        Stopping::Precision(_) => None,
    };
    let bar = progress_bar(total, &format!("{a} vs {b}"));
    let counts = args.sim.in_pool(|| {
        run_duel(&matchup, StreamKey::new(args.sim.seed), stopping, &|n| {
            bar.inc(n)
        })
    })?;
    bar.finish_and_clear();
    let precision = match stopping {
        Stopping::Precision(h) => Some(h),
        Stopping::Games(_) => None,
    };
    let report = DuelReport::new(
        [&a, &b],
        rules.profile().to_string(),
        rules.board().to_string(),
        &counts,
        args.sim.seed,
        matchup.max_rolls,
        precision,
    );
    write_duel(out, &report, args.format)?;
    Ok(())
}
