//! Optimal play against "hold at n" strategies: exactly ([`compare`]) and by play
//! ([`check_by_simulation`]), the figures of `wubbel --compare --simulate`.

use super::policy::{HoldAt, Strategy, evaluate};
use super::sim::{Z_999, half_width, simulate};
use super::solve::{Solution, SolveError};
use crate::fixpoint::StopRule;

/// Strategies against each other, exactly: optimal play first, then the hold strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The strategies' names.
    pub strategies: Vec<String>,
    /// `first_player_wins[i][j]`: P(strategy i, moving first, beats strategy j).
    pub first_player_wins: Vec<Vec<f64>>,
    /// Sweeps of all evaluations.
    pub sweeps: usize,
}

/// Evaluates every pair of optimal play and the `holds` exactly, in both seats.
pub fn compare(
    solution: &Solution,
    holds: &[HoldAt],
    rule: &StopRule,
) -> Result<Comparison, SolveError> {
    let game = solution.game();
    let mut players: Vec<&dyn Strategy> = vec![solution];
    players.extend(holds.iter().map(|h| h as &dyn Strategy));
    let n = players.len();
    let mut matrix = vec![vec![0.0; n]; n];
    let mut sweeps = 0;
    for i in 0..n {
        for j in i..n {
            if i == 0 && j == 0 {
                // Optimal against optimal: the game's value.
                matrix[0][0] = solution.p_start();
                continue;
            }
            let ev = evaluate(game, players[i], players[j], rule)?;
            sweeps += ev.stats.sweeps;
            matrix[i][j] = ev.a_first;
            matrix[j][i] = ev.b_first;
        }
    }
    Ok(Comparison {
        strategies: players.iter().map(|p| p.name()).collect(),
        first_player_wins: matrix,
        sweeps,
    })
}

/// A simulated pairing and its exact counterpart (serialized as it is into the report).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SimulatedPairing {
    /// Strategy moving first.
    pub first: String,
    /// Strategy moving second.
    pub second: String,
    /// Games played.
    pub games: u64,
    /// Games the first player won.
    pub first_wins: u64,
    /// `first_wins / games`.
    pub rate: f64,
    /// The exact probability.
    pub exact: f64,
    /// Half-width of the [`Z_999`] interval around `exact` the rate must fall into.
    pub half_width: f64,
    /// Whether it does.
    pub agrees: bool,
}

/// Plays `games` games of optimal play against each hold strategy of `comparison` (made by
/// [`compare`] with the same `holds`), in both seats, each pairing on its own stream of
/// `seed`, and holds the win rates against the exact figures.
pub fn check_by_simulation(
    solution: &Solution,
    holds: &[HoldAt],
    comparison: &Comparison,
    games: u64,
    seed: u64,
) -> Vec<SimulatedPairing> {
    let game = solution.game();
    let exact = &comparison.first_player_wins;
    let mut pairings = Vec::new();
    for (k, hold) in holds.iter().enumerate() {
        let j = k + 1;
        let seats: [(&dyn Strategy, &dyn Strategy, f64); 2] =
            [(solution, hold, exact[0][j]), (hold, solution, exact[j][0])];
        for (seat, (first, second, exact)) in seats.into_iter().enumerate() {
            let stream = seed.wrapping_add(2 * k as u64 + seat as u64);
            let tally = simulate(game, first, second, games, stream);
            pairings.push(SimulatedPairing {
                first: first.name(),
                second: second.name(),
                games,
                first_wins: tally.first_wins,
                rate: tally.rate(),
                exact,
                half_width: half_width(exact, games, Z_999),
                agrees: tally.agrees_with(exact, Z_999),
            });
        }
    }
    pairings
}
