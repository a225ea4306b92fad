//! `duel`: one matchup simulated, each die starting half the games.

use super::options::{RulesOptions, SimOptions, StrategyOptions, parse_die, plan_line};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::report::DuelReport;
use crate::rules::Rules;
use crate::sim::{Stopping, StoppingRule, StreamKey, duel_style, run_duel_announced};
use crate::strategy::Strategy;

/// The options of `duel`: die A against die B, each starting half the games.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DuelOptions {
    /// Die A, e.g. `1,2,3,4,5,6` or `1..6`.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: String,
    /// Die B.
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: String,
    /// Games, seed, threads.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub sim: SimOptions,
    /// Board and rule profile.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Strategies under --profile choice.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub strategy: StrategyOptions,
    /// Also count how each player decides (captures when it can, leaves the fewest pieces
    /// within reach, moves into the goal, moves the frontmost piece) over the decisions of
    /// the games, which are played a second time to watch them; needs --profile choice.
    #[cfg_attr(feature = "clap", arg(long))]
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
        DuelBuilder(DuelSettings {
            strategies,
            stopping: options.sim.stopping()?,
            seed: options.sim.seed,
            max_rolls: options.sim.max_rolls,
            threads: options.sim.threads,
            style: options.style,
            ..DuelSettings::builder(rules, a, b).0
        })
        .build()
    }

    /// A duel built from typed values, for Rust users: die `a` against die `b` under
    /// `rules`, with the command line's defaults (both players `frontmost`, until the 95 %
    /// interval is at most 0.002 wide each side, seed 1, at most 100,000 rolls a game, every
    /// core); [`DuelBuilder::build`] checks it as [`DuelSettings::new`] checks the options.
    ///
    /// ```
    /// use wuerfelglueck::api::{DuelSettings, Silent, duel};
    /// use wuerfelglueck::dice::Die;
    /// use wuerfelglueck::rules::Rules;
    /// use wuerfelglueck::sim::Stopping;
    ///
    /// let settings = DuelSettings::builder(
    ///     Rules::bwinf(),
    ///     "1..6".parse::<Die>()?,
    ///     "1,1,1,6,6,6".parse::<Die>()?,
    /// )
    /// .stopping(Stopping::games(20_000)?)
    /// .seed(7)
    /// .threads(1)
    /// .build()?;
    /// let report = duel(&settings, &Silent)?;
    /// assert_eq!(report.games, 20_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn builder(rules: Rules, a: Die, b: Die) -> DuelBuilder {
        DuelBuilder(DuelSettings {
            rules,
            dice: [a, b],
            strategies: [Strategy::Frontmost, Strategy::Frontmost],
            stopping: Stopping::precision(super::options::DEFAULT_PRECISION)
                .expect("the default precision is a valid half-width"),
            seed: SimOptions::DEFAULT.seed,
            max_rolls: SimOptions::DEFAULT.max_rolls,
            threads: SimOptions::DEFAULT.threads,
            style: false,
        })
    }
}

/// The typed way to [`DuelSettings`]: see [`DuelSettings::builder`]. It holds the settings
/// unchecked until [`DuelBuilder::build`].
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until it is built"]
pub struct DuelBuilder(DuelSettings);

impl DuelBuilder {
    /// Die A's and die B's strategies (anything but `frontmost` needs the `choice` profile).
    pub fn strategies(mut self, a: Strategy, b: Strategy) -> DuelBuilder {
        self.0.strategies = [a, b];
        self
    }

    /// When to stop: after a number of games, or at a precision ([`Stopping`] checks it).
    pub fn stopping(mut self, stopping: Stopping) -> DuelBuilder {
        self.0.stopping = stopping;
        self
    }

    /// The seed of the random streams.
    pub fn seed(mut self, seed: u64) -> DuelBuilder {
        self.0.seed = seed;
        self
    }

    /// The rolls after which a game counts as unfinished (at least 1).
    pub fn max_rolls(mut self, max_rolls: u64) -> DuelBuilder {
        self.0.max_rolls = max_rolls;
        self
    }

    /// Worker threads (1 to [`super::options::MAX_THREADS`]); every core when not set.
    pub fn threads(mut self, threads: usize) -> DuelBuilder {
        self.0.threads = Some(threads);
        self
    }

    /// Whether to count how each player decides (needs the `choice` profile).
    pub fn style(mut self, style: bool) -> DuelBuilder {
        self.0.style = style;
        self
    }

    /// The checked settings; the first bad value is refused with a message naming the
    /// command-line option it stands for.
    pub fn build(self) -> Result<DuelSettings, Error> {
        let s = self.0;
        let [a, b] = &s.dice;
        for (strategy, option) in s.strategies.iter().zip(["--strategy-a", "--strategy-b"]) {
            super::options::check_strategy(&s.rules, strategy, option)?;
        }
        super::options::check_threads(s.threads)?;
        super::options::check_style(s.style, &s.rules)?;
        // The matchup's own checks (roll cap, roll-off, strategies under the profile).
        super::options::matchup(&s.rules, a, b, s.max_rolls, "--max-rolls")?
            .playing(s.strategies.clone())
            .map_err(Error::input)?;
        Ok(s)
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
