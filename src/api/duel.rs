//! `duel`: one matchup simulated, each die starting half the games.

use super::options::{RulesOptions, SimOptions, StrategyOptions, parse_die, plan_line};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::report::DuelReport;
use crate::rules::Rules;
use crate::sim::{Stopping, StoppingRule, StreamKey, duel_style, run_duel_announced};
use crate::strategy::Strategy;
use clap::Args;

/// The options of `duel`: die A against die B, each starting half the games.
#[derive(Args, Debug, Clone)]
pub struct DuelOptions {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Games, seed, threads.
    #[command(flatten)]
    pub sim: SimOptions,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Strategies under --profile choice.
    #[command(flatten)]
    pub strategy: StrategyOptions,
    /// Also count how each player decides (captures when it can, leaves the fewest pieces
    /// within reach, moves into the goal, moves the frontmost piece) over the decisions of
    /// the games, which are played a second time to watch them; needs --profile choice.
    #[arg(long)]
    pub style: bool,
}

/// A duel's options, checked: every value is one the simulation accepts.
#[derive(Debug, Clone)]
pub struct DuelSettings {
    rules: Rules,
    dice: [Die; 2],
    strategies: [Strategy; 2],
    stopping: Stopping,
    seed: u64,
    max_rolls: u64,
    threads: Option<usize>,
    style: bool,
}

impl DuelSettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &DuelOptions) -> Result<DuelSettings, Error> {
        let rules = options.rules.rules()?;
        let a = parse_die("--a", &options.die_a)?;
        let b = parse_die("--b", &options.die_b)?;
        let strategies = options.strategy.strategies(&rules)?;
        let stopping = options.sim.stopping()?;
        options.sim.check_threads()?;
        super::options::check_style(options.style, &rules)?;
        // The matchup's own checks (roll cap, roll-off, strategies under the profile).
        options
            .sim
            .matchup(&rules, &a, &b)?
            .playing(strategies.clone())
            .map_err(Error::input)?;
        Ok(DuelSettings {
            rules,
            dice: [a, b],
            strategies,
            stopping,
            seed: options.sim.seed,
            max_rolls: options.sim.max_rolls,
            threads: options.sim.threads,
            style: options.style,
        })
    }
}

/// Runs `duel`: the counts of both openings and the report built from them.
pub fn duel(settings: &DuelSettings, progress: &dyn Progress) -> Result<DuelReport, Error> {
    let s = settings;
    let [a, b] = &s.dice;
    let matchup = super::options::matchup(&s.rules, a, b, s.max_rolls, "--max-rolls")?
        .playing(s.strategies.clone())
        .map_err(Error::input)?;
    let total = match s.stopping.rule() {
        StoppingRule::Games(n) => Some(n),
        StoppingRule::Precision(_) => None,
    };
    let (counts, style) = run_in_pool(s.threads, progress, |watch| {
        watch.begin(&format!("{a} vs {b}"), total);
        let announce = |plan: &crate::sim::DuelPlan| {
            if let Some(line) = plan_line("duel", plan) {
                watch.note(&line);
            }
        };
        let key = StreamKey::new(s.seed);
        let counts = run_duel_announced(&matchup, key, s.stopping, &|n| watch.games(n), &announce)
            .map_err(super::options::sim_error)?;
        let style = if s.style {
            let games = counts.total().games;
            watch.begin("style: the same games again", Some(games));
            Some(duel_style(&matchup, key, &counts, &|n| watch.games(n)).map_err(Error::failure)?)
        } else {
            None
        };
        Ok((counts, style))
    })?;
    // run_duel_announced has checked that the precision rule reached its half-width.
    let report = DuelReport::new(
        [a, b],
        s.rules.profile().to_string(),
        s.rules.board().to_string(),
        &counts,
        s.seed,
        matchup.max_rolls(),
        s.stopping.claimed_half_width(),
    )
    .with_strategies(matchup.strategies());
    Ok(match style {
        Some(style) => report.with_style(style),
        None => report,
    })
}
