//! The report of `wubbel` and `pig`: optimal play, the decisions at one score pair, the
//! exact comparison with fixed strategies and its check by simulation.

use super::{CsvTable, Format, fixed};
use crate::pig::{Comparison, Decision, SimulatedPairing, Solution, Z_999};
use serde::Serialize;
use std::io::{self, Write};

/// `wubbel` / `pig`, in the shape of `--format json`.
///
/// Fields marked `skip` appear in the table only: they differ between runs (time) or name
/// the command (`Wubbel`, `Pig`), and `pig` must give the same JSON as `wubbel` with Pig's
/// parameters.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// `Wubbel` or `Pig`.
    #[serde(skip)]
    pub name: String,
    /// Points needed to win.
    pub goal: u32,
    /// The face that ends the turn and loses its points.
    pub bust: u32,
    /// The die's faces.
    pub faces: Vec<u32>,
    /// The die as given, e.g. `1..6`.
    #[serde(skip)]
    pub die: String,
    /// P(first player wins) under optimal play.
    pub p_start: f64,
    /// Sweeps summed over all blocks.
    pub iterations: usize,
    /// Most sweeps any block needed.
    pub max_block_sweeps: usize,
    /// Bound on the error of every value.
    pub error_bound: f64,
    /// Blocks solved.
    #[serde(skip)]
    pub blocks: usize,
    /// Milliseconds the solve took.
    #[serde(skip)]
    pub solve_ms: f64,
    /// The decisions at one score pair (`--query`).
    #[serde(flatten)]
    pub query: Option<QueryReport>,
    /// The exact comparison (`--compare`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<ComparisonReport>,
    /// The simulation (`--simulate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<SimulationReport>,
}

/// The decisions at own score `e` and opponent score `g`.
#[derive(Clone, Debug, Serialize)]
pub struct QueryReport {
    /// `[e, g]`.
    pub query: [u32; 2],
    /// P(the player to move wins) at `(e, g)` with turn total 0.
    pub p_query: f64,
    /// The smallest turn total at which to SAVE; `null` if the player rolls on to the goal.
    pub save_threshold: Option<u32>,
    /// The decision at every turn total `0 .. goal - e - 1`.
    pub decisions: Vec<Decision>,
}

impl QueryReport {
    /// The decisions of `solution` at `(e, g)`.
    pub fn new(solution: &Solution, e: u32, g: u32) -> QueryReport {
        QueryReport {
            query: [e, g],
            p_query: solution.value(e, g, 0),
            save_threshold: solution.save_threshold(e, g),
            decisions: solution.decisions(e, g),
        }
    }
}

/// Strategies against each other, exactly.
#[derive(Clone, Debug, Serialize)]
pub struct ComparisonReport {
    /// The strategies, optimal play first.
    pub strategies: Vec<String>,
    /// `first_player_wins[i][j]`: P(strategy i, moving first, beats strategy j).
    pub first_player_wins: Vec<Vec<f64>>,
    /// Sweeps of all evaluations.
    pub iterations: usize,
}

impl From<&Comparison> for ComparisonReport {
    fn from(c: &Comparison) -> ComparisonReport {
        ComparisonReport {
            strategies: c.strategies.clone(),
            first_player_wins: c.first_player_wins.clone(),
            iterations: c.sweeps,
        }
    }
}

/// Simulated pairings held against their exact values.
#[derive(Clone, Debug, Serialize)]
pub struct SimulationReport {
    /// The seed.
    pub seed: u64,
    /// The normal quantile of the intervals (99.9 %).
    pub z: f64,
    /// One row per pairing.
    pub pairings: Vec<SimulatedPairing>,
}

impl SimulationReport {
    /// The pairings of [`crate::pig::check_by_simulation`] run with `seed`.
    pub fn new(seed: u64, pairings: &[SimulatedPairing]) -> SimulationReport {
        SimulationReport {
            seed,
            z: Z_999,
            pairings: pairings.to_vec(),
        }
    }
}

impl GameReport {
    /// The report of an optimal solution; `query`, `compare` and `simulation` start empty.
    pub fn new(name: &str, solution: &Solution, solve_ms: f64) -> GameReport {
        let game = solution.game();
        let stats = solution.stats();
        GameReport {
            name: name.to_string(),
            goal: game.goal(),
            bust: game.bust(),
            faces: game.die().faces().to_vec(),
            die: game.die().to_string(),
            p_start: solution.p_start(),
            iterations: stats.sweeps,
            max_block_sweeps: stats.max_block_sweeps,
            error_bound: stats.error_bound,
            blocks: stats.blocks,
            solve_ms,
            query: None,
            compare: None,
            simulation: None,
        }
    }
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

impl super::Report for GameReport {
    /// Nested results (a matrix, a list of decisions): no CSV form.
    const FORMATS: &'static [Format] = &[Format::Table, Format::Json];

    fn csv(&self) -> Option<CsvTable> {
        None
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}: goal {}, die {}, bust face {} (every turn starts with a roll)",
            self.name, self.goal, self.die, self.bust
        )?;
        writeln!(
            out,
            "P(first player wins) = {}   (error <= {:.1e})",
            fixed(self.p_start, 10),
            self.error_bound
        )?;
        writeln!(
            out,
            "{} blocks, {} sweeps (at most {} per block), {:.0} ms",
            self.blocks, self.iterations, self.max_block_sweeps, self.solve_ms
        )?;
        if let Some(q) = &self.query {
            let [e, g] = q.query;
            writeln!(out)?;
            writeln!(
                out,
                "own score {e}, opponent {g}: P = {}",
                fixed(q.p_query, 10)
            )?;
            match q.save_threshold {
                Some(t) => writeln!(out, "SAVE from turn total {t} on")?,
                None => writeln!(out, "never SAVE: roll on to the goal")?,
            }
            writeln!(out, "{}", runs(&q.decisions))?;
        }
        if let Some(c) = &self.compare {
            write_comparison(c, out)?;
        }
        if let Some(s) = &self.simulation {
            write_simulation(s, out)?;
        }
        Ok(())
    }
}

fn write_comparison(c: &ComparisonReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "exact P(first player wins): rows move first, columns second"
    )?;
    write!(out, "{:<10}", "")?;
    for name in &c.strategies {
        write!(out, "{name:>12}")?;
    }
    writeln!(out)?;
    for (name, row) in c.strategies.iter().zip(&c.first_player_wins) {
        write!(out, "{name:<10}")?;
        for &p in row {
            write!(out, "{:>12}", fixed(p, 6))?;
        }
        writeln!(out)?;
    }
    let m = &c.first_player_wins;
    for (j, name) in c.strategies.iter().enumerate().skip(1) {
        let avg = 0.5 * (m[0][j] + 1.0 - m[j][0]);
        writeln!(
            out,
            "optimal vs {name}, first move to either at random: optimal wins {}",
            fixed(avg, 6)
        )?;
    }
    Ok(())
}

fn write_simulation(s: &SimulationReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "simulation (seed {}), first player's win rate against the exact value, 99.9% interval",
        s.seed
    )?;
    writeln!(
        out,
        "{:<10} {:<10} {:>10} {:>10} {:>10} {:>10}  agrees",
        "first", "second", "games", "rate", "exact", "+-"
    )?;
    for r in &s.pairings {
        writeln!(
            out,
            "{:<10} {:<10} {:>10} {:>10} {:>10} {:>10}  {}",
            r.first,
            r.second,
            r.games,
            fixed(r.rate, 6),
            fixed(r.exact, 6),
            fixed(r.half_width, 6),
            if r.agrees { "yes" } else { "NO" }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_runs_of_decisions() {
        use Decision::{Roll, Save};
        assert_eq!(runs(&[Roll, Roll, Save, Save]), "ROLL u=0..1, SAVE u=2..3");
        assert_eq!(runs(&[Roll, Save, Roll]), "ROLL u=0, SAVE u=1, ROLL u=2");
    }
}
