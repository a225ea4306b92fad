//! `wubbel` and `pig`: optimal play of the dice games, exact comparison with fixed
//! strategies, simulation, and the decision map.

use super::{CliError, Format, check_plot, plot_error};
use crate::dice::Die;
use crate::fixpoint::StopRule;
use crate::pig::{Game, HoldAt, check_by_simulation, compare, solve};
use crate::report::plot::decision_map_svg;
use crate::report::{self, ComparisonReport, GameReport, QueryReport, Report, SimulationReport};
use clap::Args;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

/// Sweeps allowed per block before the solver gives up.
const MAX_SWEEPS_PER_BLOCK: usize = 1_000_000;

/// Options of `wubbel` and `pig` (the same options; only the defaults differ).
#[derive(Args, Debug, Clone)]
pub struct WubbelArgs {
    /// Points needed to win [default: 50 for wubbel, 100 for pig].
    #[arg(long)]
    pub goal: Option<u32>,
    /// The face that ends the turn and loses its points [default: 6 for wubbel, 1 for pig].
    #[arg(long)]
    pub bust: Option<u32>,
    /// The die's faces, e.g. 1,2,3,4,5,6 or 1..6.
    #[arg(long, default_value = "1..6")]
    pub faces: Die,
    /// Stop each block's iteration when its bracket is at most this wide (at least 1e-14).
    #[arg(long, default_value = "1e-12")]
    pub tolerance: f64,
    /// Show the decisions for own score E and opponent score G.
    #[arg(long, value_name = "E,G")]
    pub query: Option<Query>,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(GameReport::FORMATS))]
    pub format: Format,
    /// Write the decision map (turn total at which to SAVE for every score pair) as SVG
    /// (refused if FILE exists, unless --overwrite is given).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[arg(long, requires = "plot")]
    pub overwrite: bool,
    /// Evaluate optimal play and the --hold strategies exactly against each other.
    #[arg(long)]
    pub compare: bool,
    /// Thresholds of the "hold at n" strategies for --compare.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "20,25",
        value_name = "N,.."
    )]
    pub hold: Vec<u32>,
    /// With --compare: also play N games of optimal play against each hold strategy, in
    /// both seats, and check them against the exact figures.
    #[arg(long, value_name = "N", requires = "compare")]
    pub simulate: Option<u64>,
    /// Seed of the simulation.
    #[arg(long, default_value_t = 2004)]
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

/// Which game's defaults apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Wubbel,
    Pig,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Wubbel => "Wubbel",
            Variant::Pig => "Pig",
        }
    }

    fn goal(self) -> u32 {
        match self {
            Variant::Wubbel => 50,
            Variant::Pig => 100,
        }
    }

    fn bust(self) -> u32 {
        match self {
            Variant::Wubbel => 6,
            Variant::Pig => 1,
        }
    }
}

/// Runs `wubbel` (defaults: goal 50, bust face 6).
pub fn run(args: WubbelArgs, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    run_variant(Variant::Wubbel, args, out)
}

/// Runs `pig` (defaults: goal 100, bust face 1).
pub fn run_pig(args: WubbelArgs, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    run_variant(Variant::Pig, args, out)
}

fn validate(variant: Variant, args: &WubbelArgs) -> Result<(Game, StopRule), CliError> {
    // The library's one rule for every solver.
    let rule = StopRule::new(args.tolerance, MAX_SWEEPS_PER_BLOCK).map_err(super::rule_error)?;
    let goal = args.goal.unwrap_or(variant.goal());
    let bust = args.bust.unwrap_or(variant.bust());
    let game = Game::new(goal, args.faces.clone(), bust).map_err(CliError::input)?;
    if let Some(q) = args.query.filter(|q| q.own >= goal || q.opponent >= goal) {
        return Err(CliError::input(format!(
            "--query {},{} is out of range: both scores must be below the goal {goal}",
            q.own, q.opponent
        )));
    }
    if let Some(&k) = args.hold.iter().find(|&&k| k == 0) {
        return Err(CliError::input(format!(
            "--hold {k}: a hold threshold must be at least 1"
        )));
    }
    if args.simulate == Some(0) {
        return Err(CliError::input("--simulate needs at least 1 game"));
    }
    Ok((game, rule))
}

fn run_variant(
    variant: Variant,
    args: WubbelArgs,
    out: &mut dyn std::io::Write,
) -> Result<(), CliError> {
    let (game, rule) = validate(variant, &args)?;
    let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
    let started = Instant::now();
    let solution = solve(&game, &rule).map_err(CliError::failure)?;
    let solve_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut report = GameReport::new(variant.name(), &solution, solve_ms);
    report.query = args
        .query
        .map(|q| QueryReport::new(&solution, q.own, q.opponent));
    let holds: Vec<HoldAt> = args.hold.iter().map(|&k| HoldAt(k)).collect();
    if args.compare {
        let comparison = compare(&solution, &holds, &rule).map_err(CliError::failure)?;
        if let Some(games) = args.simulate {
            let pairings = check_by_simulation(&solution, &holds, &comparison, games, args.seed);
            report.simulation = Some(SimulationReport::new(args.seed, &pairings));
        }
        report.compare = Some(ComparisonReport::from(&comparison));
    }
    report::write(out, &report, args.format)?;
    if let Some(plot) = plot {
        // The results are out first: a failing picture does not take them along.
        out.flush()?;
        plot.write(&decision_map_svg(&solution).map_err(plot_error)?)
            .map_err(plot_error)?;
        if args.format == Format::Table {
            writeln!(out, "decision map written to {}", plot.path().display())?;
        }
    }
    Ok(())
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
