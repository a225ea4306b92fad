//! `wubbel` and `pig`: optimal play of the dice games, exact comparison with fixed
//! strategies, simulation, and the decision map.

use super::{CliError, Format};
use crate::dice::Die;
use crate::fixpoint::StopRule;
use crate::pig::{
    Decision, Game, HoldAt, Solution, Strategy, Z_999, evaluate, simulate, solve,
    write_decision_map,
};
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

/// Sweeps allowed per block before the solver gives up.
const MAX_SWEEPS_PER_BLOCK: usize = 1_000_000;

/// The smallest `--tolerance`: a bracket of a few units in the last place of 1 cannot close.
const MIN_TOLERANCE: f64 = 1e-14;

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
    /// Output format (csv is not supported here).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the decision map (turn total at which to SAVE for every score pair) as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
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

/// One row of the exact comparison: `matrix[i][j]` = P(strategy i, moving first, beats j).
struct Comparison {
    names: Vec<String>,
    matrix: Vec<Vec<f64>>,
    sweeps: usize,
}

/// A simulated pairing and its exact counterpart.
struct SimRow {
    first: String,
    second: String,
    games: u64,
    wins: u64,
    rate: f64,
    half_width: f64,
    exact: f64,
    agrees: bool,
}

fn validate(variant: Variant, args: &WubbelArgs) -> Result<(Game, StopRule), CliError> {
    if args.format == Format::Csv {
        return Err(CliError::input(format!(
            "{}: --format csv is not supported, use table or json",
            variant.name().to_lowercase()
        )));
    }
    if !(args.tolerance.is_finite() && args.tolerance >= MIN_TOLERANCE && args.tolerance < 1.0) {
        return Err(CliError::input(format!(
            "--tolerance {:e} must be at least {MIN_TOLERANCE:e} (below that, rounding keeps \
             the brackets from closing) and below 1",
            args.tolerance
        )));
    }
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
    let rule = StopRule {
        tolerance: args.tolerance,
        max_sweeps: MAX_SWEEPS_PER_BLOCK,
    };
    Ok((game, rule))
}

fn run_variant(
    variant: Variant,
    args: WubbelArgs,
    out: &mut dyn std::io::Write,
) -> Result<(), CliError> {
    let (game, rule) = validate(variant, &args)?;
    let started = Instant::now();
    let solution = solve(&game, &rule).map_err(CliError::failure)?;
    let solve_time = started.elapsed();
    if let Some(path) = &args.plot {
        write_decision_map(&solution, path).map_err(CliError::failure)?;
    }
    let holds: Vec<HoldAt> = args.hold.iter().map(|&k| HoldAt(k)).collect();
    let comparison = if args.compare {
        Some(compare(&game, &solution, &holds, &rule)?)
    } else {
        None
    };
    let simulation = match (&comparison, args.simulate) {
        (Some(c), Some(n)) => simulate_rows(&game, &solution, &holds, c, n, args.seed),
        _ => Vec::new(),
    };
    match args.format {
        Format::Json => {
            let doc = json_report(&args, &solution, comparison.as_ref(), &simulation);
            writeln!(out, "{doc}")?;
        }
        _ => {
            table_report(variant, &args, &solution, solve_time, out)?;
            if let Some(c) = &comparison {
                table_comparison(c, out)?;
            }
            if !simulation.is_empty() {
                table_simulation(&simulation, args.seed, out)?;
            }
            if let Some(path) = &args.plot {
                writeln!(out, "decision map written to {}", path.display())?;
            }
        }
    }
    Ok(())
}

fn compare(
    game: &Game,
    solution: &Solution,
    holds: &[HoldAt],
    rule: &StopRule,
) -> Result<Comparison, CliError> {
    let mut players: Vec<&dyn Strategy> = vec![solution];
    players.extend(holds.iter().map(|h| h as &dyn Strategy));
    let n = players.len();
    let mut matrix = vec![vec![f64::NAN; n]; n];
    let mut sweeps = 0;
    for i in 0..n {
        for j in i..n {
            if i == 0 && j == 0 {
                matrix[0][0] = solution.p_start();
                continue;
            }
            let ev = evaluate(game, players[i], players[j], rule).map_err(CliError::failure)?;
            sweeps += ev.stats.sweeps;
            matrix[i][j] = ev.a_first;
            matrix[j][i] = ev.b_first;
        }
    }
    Ok(Comparison {
        names: players.iter().map(|p| p.name()).collect(),
        matrix,
        sweeps,
    })
}

fn simulate_rows(
    game: &Game,
    solution: &Solution,
    holds: &[HoldAt],
    comparison: &Comparison,
    games: u64,
    seed: u64,
) -> Vec<SimRow> {
    let mut rows = Vec::new();
    for (k, hold) in holds.iter().enumerate() {
        let j = k + 1;
        let pairings: [(&dyn Strategy, &dyn Strategy, f64); 2] = [
            (solution, hold, comparison.matrix[0][j]),
            (hold, solution, comparison.matrix[j][0]),
        ];
        for (seat, (first, second, exact)) in pairings.into_iter().enumerate() {
            let stream = seed.wrapping_add(2 * k as u64 + seat as u64);
            let tally = simulate(game, first, second, games, stream);
            rows.push(SimRow {
                first: first.name(),
                second: second.name(),
                games,
                wins: tally.first_wins,
                rate: tally.rate(),
                half_width: crate::pig::sim::half_width(exact, games, Z_999),
                exact,
                agrees: tally.agrees_with(exact, Z_999),
            });
        }
    }
    rows
}

fn json_report(
    args: &WubbelArgs,
    solution: &Solution,
    comparison: Option<&Comparison>,
    simulation: &[SimRow],
) -> Value {
    let game = solution.game();
    let stats = solution.stats();
    let mut doc = json!({
        "goal": game.goal(),
        "bust": game.bust(),
        "faces": game.die().faces(),
        "p_start": solution.p_start(),
        "iterations": stats.sweeps,
        "max_block_sweeps": stats.max_block_sweeps,
        "error_bound": stats.error_bound,
    });
    if let Some(q) = args.query {
        let decisions: Vec<Decision> = solution.decisions(q.own, q.opponent);
        doc["query"] = json!([q.own, q.opponent]);
        doc["p_query"] = json!(solution.value(q.own, q.opponent, 0));
        doc["save_threshold"] = json!(solution.save_threshold(q.own, q.opponent));
        doc["decisions"] = json!(decisions);
    }
    if let Some(c) = comparison {
        doc["compare"] = json!({
            "strategies": c.names,
            "first_player_wins": c.matrix,
            "iterations": c.sweeps,
        });
    }
    if !simulation.is_empty() {
        doc["simulation"] = json!({
            "seed": args.seed,
            "z": Z_999,
            "pairings": simulation.iter().map(|r| json!({
                "first": r.first,
                "second": r.second,
                "games": r.games,
                "first_wins": r.wins,
                "rate": r.rate,
                "exact": r.exact,
                "half_width": r.half_width,
                "agrees": r.agrees,
            })).collect::<Vec<_>>(),
        });
    }
    doc
}

/// Runs of equal decisions, e.g. `ROLL u=0..19, SAVE u=20..49`.
fn runs(decisions: &[Decision]) -> String {
    let mut parts = Vec::new();
    let mut start = 0;
    for u in 1..=decisions.len() {
        if u == decisions.len() || decisions[u] != decisions[start] {
            let range = if u - 1 == start {
                format!("{start}")
            } else {
                format!("{start}..{}", u - 1)
            };
            parts.push(format!("{} u={range}", decisions[start]));
            start = u;
        }
    }
    parts.join(", ")
}

fn table_report(
    variant: Variant,
    args: &WubbelArgs,
    solution: &Solution,
    solve_time: std::time::Duration,
    out: &mut dyn std::io::Write,
) -> Result<(), CliError> {
    let game = solution.game();
    let stats = solution.stats();
    writeln!(
        out,
        "{}: goal {}, die {}, bust face {} (every turn starts with a roll)",
        variant.name(),
        game.goal(),
        game.die(),
        game.bust()
    )?;
    writeln!(
        out,
        "P(first player wins) = {:.10}   (error <= {:.1e})",
        solution.p_start(),
        stats.error_bound
    )?;
    writeln!(
        out,
        "{} blocks, {} sweeps (at most {} per block), {:.0} ms",
        stats.blocks,
        stats.sweeps,
        stats.max_block_sweeps,
        solve_time.as_secs_f64() * 1e3
    )?;
    if let Some(q) = args.query {
        let (e, g) = (q.own, q.opponent);
        writeln!(out)?;
        writeln!(
            out,
            "own score {e}, opponent {g}: P = {:.10}",
            solution.value(e, g, 0)
        )?;
        match solution.save_threshold(e, g) {
            Some(t) => writeln!(out, "SAVE from turn total {t} on")?,
            None => writeln!(out, "never SAVE: roll on to the goal")?,
        }
        writeln!(out, "{}", runs(&solution.decisions(e, g)))?;
    }
    Ok(())
}

fn table_comparison(c: &Comparison, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    writeln!(out)?;
    writeln!(
        out,
        "exact P(first player wins): rows move first, columns second"
    )?;
    write!(out, "{:<10}", "")?;
    for name in &c.names {
        write!(out, "{name:>12}")?;
    }
    writeln!(out)?;
    for (name, row) in c.names.iter().zip(&c.matrix) {
        write!(out, "{name:<10}")?;
        for p in row {
            write!(out, "{p:>12.6}")?;
        }
        writeln!(out)?;
    }
    for (j, name) in c.names.iter().enumerate().skip(1) {
        let avg = 0.5 * (c.matrix[0][j] + 1.0 - c.matrix[j][0]);
        writeln!(
            out,
            "optimal vs {name}, first move to either at random: optimal wins {avg:.6}"
        )?;
    }
    Ok(())
}

fn table_simulation(
    rows: &[SimRow],
    seed: u64,
    out: &mut dyn std::io::Write,
) -> Result<(), CliError> {
    writeln!(out)?;
    writeln!(
        out,
        "simulation (seed {seed}), first player's win rate against the exact value, 99.9% interval"
    )?;
    writeln!(
        out,
        "{:<10} {:<10} {:>10} {:>10} {:>10} {:>10}  agrees",
        "first", "second", "games", "rate", "exact", "+-"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<10} {:<10} {:>10} {:>10.6} {:>10.6} {:>10.6}  {}",
            r.first,
            r.second,
            r.games,
            r.rate,
            r.exact,
            r.half_width,
            if r.agrees { "yes" } else { "NO" }
        )?;
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

    #[test]
    fn describes_runs_of_decisions() {
        use Decision::{Roll, Save};
        assert_eq!(runs(&[Roll, Roll, Save, Save]), "ROLL u=0..1, SAVE u=2..3");
        assert_eq!(runs(&[Roll, Save, Roll]), "ROLL u=0, SAVE u=1, ROLL u=2");
    }
}
