//! `wubbel` and `pig`: optimal play of the dice games, exact comparison with fixed
//! strategies, simulation, and the decision map.

use super::{Error, PendingPlot, Plotted, Progress, check_plot, run_in_pool};
use crate::dice::Die;
use crate::fixpoint::StopRule;
use crate::pig::{Game, HoldAt, check_by_simulation, compare, solve};
use crate::report::plot::decision_map_svg;
use crate::report::{ComparisonReport, GameReport, OutputFile, QueryReport, SimulationReport};
use std::path::PathBuf;
use std::str::FromStr;
use web_time::Instant;

/// Sweeps allowed per block before the solver gives up.
const MAX_SWEEPS_PER_BLOCK: usize = 1_000_000;

/// Options of `wubbel` and `pig` (the same options; only the defaults differ).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct WubbelOptions {
    /// Points needed to win [default: 50 for wubbel, 100 for pig].
    #[cfg_attr(feature = "clap", arg(long))]
    pub goal: Option<u32>,
    /// The face that ends the turn and loses its points [default: 6 for wubbel, 1 for pig].
    #[cfg_attr(feature = "clap", arg(long))]
    pub bust: Option<u32>,
    /// The die's faces, e.g. 1,2,3,4,5,6 or 1..6.
    #[cfg_attr(feature = "clap", arg(long, default_value = "1..6"))]
    pub faces: Die,
    /// Stop each block's iteration when its bracket is at most this wide (at least 1e-14).
    #[cfg_attr(feature = "clap", arg(long, default_value = "1e-12"))]
    pub tolerance: f64,
    /// Show the decisions for own score E and opponent score G.
    #[cfg_attr(feature = "clap", arg(long, value_name = "E,G"))]
    pub query: Option<Query>,
    /// Write the decision map (turn total at which to SAVE for every score pair) as SVG
    /// (refused if FILE exists, unless --overwrite is given).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE.svg"))]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[cfg_attr(feature = "clap", arg(long, requires = "plot"))]
    pub overwrite: bool,
    /// Evaluate optimal play and the --hold strategies exactly against each other.
    #[cfg_attr(feature = "clap", arg(long))]
    pub compare: bool,
    /// Thresholds of the "hold at n" strategies for --compare.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_delimiter = ',',
            default_value = "20,25",
            value_name = "N,.."
        )
    )]
    pub hold: Vec<u32>,
    /// With --compare: also play N games of optimal play against each hold strategy, in
    /// both seats, and check them against the exact figures.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", requires = "compare"))]
    pub simulate: Option<u64>,
    /// Seed of the simulation.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 2004))]
    pub seed: u64,
}

/// A pair of scores `e,g`: own and opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// Own banked score.
    pub own: u32,
    /// Opponent's banked score.
    pub opponent: u32,
}

impl FromStr for Query {
    type Err = String;

    fn from_str(s: &str) -> Result<Query, String> {
        let (e, g) = s
            .split_once(',')
            .ok_or_else(|| format!("'{s}' is not a score pair: expected E,G, e.g. 0,0"))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("'{}' in '{s}' is not a score", t.trim()))
        };
        Ok(Query {
            own: parse(e)?,
            opponent: parse(g)?,
        })
    }
}

/// Which game's defaults apply: `wubbel` and `pig` share their options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Wubbel: goal 50, bust face 6.
    Wubbel,
    /// Pig: goal 100, bust face 1.
    Pig,
}

impl Variant {
    /// The game's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Wubbel => "Wubbel",
            Variant::Pig => "Pig",
        }
    }

    /// The default `--goal`.
    pub fn goal(self) -> u32 {
        match self {
            Variant::Wubbel => 50,
            Variant::Pig => 100,
        }
    }

    /// The default `--bust`.
    pub fn bust(self) -> u32 {
        match self {
            Variant::Wubbel => 6,
            Variant::Pig => 1,
        }
    }
}

/// The options of `wubbel` or `pig`, checked under that game's defaults.
#[derive(Debug, Clone)]
pub struct WubbelSettings {
    variant: Variant,
    game: Game,
    rule: StopRule,
    query: Option<Query>,
    holds: Vec<HoldAt>,
    compare: bool,
    simulate: Option<u64>,
    seed: u64,
    plot: Option<OutputFile>,
}

impl WubbelSettings {
    /// Checks `options` under Wubbel's defaults (goal 50, bust face 6); the first bad value
    /// is refused with a message naming its option.
    pub fn new(options: &WubbelOptions) -> Result<WubbelSettings, Error> {
        Self::of(Variant::Wubbel, options)
    }

    /// Checks `options` under Pig's defaults (goal 100, bust face 1).
    pub fn pig(options: &WubbelOptions) -> Result<WubbelSettings, Error> {
        Self::of(Variant::Pig, options)
    }

    /// Checks `options` under `variant`'s defaults.
    pub fn of(variant: Variant, options: &WubbelOptions) -> Result<WubbelSettings, Error> {
        let args = options;
        // The library's one rule for every solver.
        let rule =
            StopRule::new(args.tolerance, MAX_SWEEPS_PER_BLOCK).map_err(super::rule_error)?;
        let goal = args.goal.unwrap_or(variant.goal());
        let bust = args.bust.unwrap_or(variant.bust());
        let game = Game::new(goal, args.faces.clone(), bust).map_err(Error::input)?;
        if let Some(q) = args.query.filter(|q| q.own >= goal || q.opponent >= goal) {
            return Err(Error::input(format!(
                "--query {},{} is out of range: both scores must be below the goal {goal}",
                q.own, q.opponent
            )));
        }
        if let Some(&k) = args.hold.iter().find(|&&k| k == 0) {
            return Err(Error::input(format!(
                "--hold {k}: a hold threshold must be at least 1"
            )));
        }
        if args.simulate == Some(0) {
            return Err(Error::input("--simulate needs at least 1 game"));
        }
        let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
        Ok(WubbelSettings {
            variant,
            game,
            rule,
            query: args.query,
            holds: args.hold.iter().map(|&k| HoldAt(k)).collect(),
            compare: args.compare,
            simulate: args.simulate,
            seed: args.seed,
            plot,
        })
    }
}

/// A game solved and its decision map (with `--plot`).
pub type Wubbelled = Plotted<GameReport>;

/// Runs `wubbel` or `pig`: optimal play, with `--compare` the hold strategies against it.
pub fn wubbel(settings: &WubbelSettings, progress: &dyn Progress) -> Result<Wubbelled, Error> {
    let s = settings;
    run_in_pool(None, progress, |_| {
        let started = Instant::now();
        let solution = solve(&s.game, &s.rule).map_err(Error::failure)?;
        let solve_ms = started.elapsed().as_secs_f64() * 1e3;
        let mut report = GameReport::new(s.variant.name(), &solution, solve_ms);
        report.query = s
            .query
            .map(|q| QueryReport::new(&solution, q.own, q.opponent));
        if s.compare {
            let comparison = compare(&solution, &s.holds, &s.rule).map_err(Error::failure)?;
            if let Some(games) = s.simulate {
                let pairings = check_by_simulation(&solution, &s.holds, &comparison, games, s.seed);
                report.simulation = Some(SimulationReport::new(s.seed, &pairings));
            }
            report.compare = Some(ComparisonReport::from(&comparison));
        }
        let plot = PendingPlot::drawn(s.plot.as_ref(), || decision_map_svg(&solution))?;
        Ok(Plotted { report, plot })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_queries() {
        assert_eq!(
            "3, 17".parse::<Query>(),
            Ok(Query {
                own: 3,
                opponent: 17
            })
        );
        assert!("3".parse::<Query>().is_err());
        assert!("a,1".parse::<Query>().is_err());
    }
}
