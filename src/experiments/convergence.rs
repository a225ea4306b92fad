//! How the error of a simulated win probability shrinks with the number of games, and how
//! often the 95 % intervals around it contain the exact value.
//!
//! # Design: nested sample sizes
//! Each replicate `r` is one long simulation of `max_games` games from the stream family
//! `StreamKey::new(seed).with_stream(r)`, and the estimate at every smaller grid point `N`
//! is its prefix of `N` games. The prefix is exactly the duel
//! `run_duel(matchup, key, Stopping::Games(N))` with the same key (the chunks `0..` of
//! [`CHUNK_PAIRS`] pairs, the last one cut short, see [`crate::sim::play_chunks`]); so
//! replicate 0 reproduces `duel --games N --seed S` for every `N`. A chunk that a grid
//! point cuts is played twice (cut and in full); that costs at most one chunk per point.
//!
//! Consequence: within one replicate the estimates at different `N` are correlated (the
//! run at 10^5 games contains the run at 10^4), so the curves over `N` are smoother than
//! independent runs would draw. Across replicates everything is independent, and each
//! point's statistics (mean absolute error, RMSE, coverage) are averages over independent
//! replicates, exactly as if every `N` had its own runs.

use super::Reference;
use crate::sim::{CHUNK_PAIRS, DuelCounts, Matchup, StreamKey, play_chunk};
use crate::stats::{self, Z95};
use rayon::prelude::*;
use serde::Serialize;

/// The settings of a convergence experiment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ConvergenceConfig {
    /// Smallest number of games (the first grid point).
    pub min_games: u64,
    /// Largest number of games (the last grid point, the length of every replicate).
    pub max_games: u64,
    /// Grid points per factor of ten.
    pub points_per_decade: u32,
    /// Independent replicates.
    pub reps: u32,
    /// Seed: replicate `r` uses stream `r` of this seed.
    pub seed: u64,
}

impl Default for ConvergenceConfig {
    /// 10^2 .. 10^6 games, 4 points per decade, 100 replicates, seed 1.
    fn default() -> Self {
        ConvergenceConfig {
            min_games: 100,
            max_games: 1_000_000,
            points_per_decade: 4,
            reps: 100,
            seed: 1,
        }
    }
}

/// A log-spaced grid from `min` to `max` games: `min * 10^(k / per_decade)`, each rounded
/// to the nearest even number (each die starts half of the games), duplicates dropped,
/// `max` (rounded up to even) always the last point. Empty if `min > max`.
pub fn game_grid(min: u64, max: u64, per_decade: u32) -> Vec<u64> {
    let even = |x: f64| ((x / 2.0).round() as u64).max(1) * 2;
    let max = max.div_ceil(2) * 2;
    let min = even(min as f64);
    if min > max || per_decade == 0 {
        return Vec::new();
    }
    let mut grid = Vec::new();
    for k in 0.. {
        let n = even(min as f64 * 10f64.powf(f64::from(k) / f64::from(per_decade)));
        if n >= max {
            break;
        }
        if grid.last() != Some(&n) {
            grid.push(n);
        }
    }
    grid.push(max);
    grid
}

/// The statistics at one grid point, over all replicates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ConvergencePoint {
    /// Games per replicate.
    pub games: u64,
    /// Replicates.
    pub reps: u32,
    /// Mean of |estimate - exact|.
    pub mae: f64,
    /// Root of the mean of (estimate - exact)^2.
    pub rmse: f64,
    /// Mean of (estimate - exact).
    pub bias: f64,
    /// `sqrt(p(1-p)/N)` with the exact p: the reference line.
    pub sd_binomial: f64,
    /// The true standard deviation of the estimate (stratified by starting player, see
    /// [`Reference::sd_estimate`]): what the RMSE estimates.
    pub sd_estimate: f64,
    /// Fraction of replicates whose 95 % Wilson interval contains the exact value.
    pub wilson_coverage: f64,
    /// Fraction of replicates whose plain 95 % normal (Wald) interval contains it.
    pub normal_coverage: f64,
    /// Mean half-width of the 95 % Wilson interval.
    pub wilson_half_width: f64,
}

/// The result of a convergence experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Convergence {
    /// The settings.
    pub config: ConvergenceConfig,
    /// The exact figures.
    pub reference: Reference,
    /// One line per grid point, increasing games.
    pub points: Vec<ConvergencePoint>,
    /// `estimates[k][r]`: replicate `r`'s estimate of P(A wins) at grid point `k`.
    pub estimates: Vec<Vec<f64>>,
}

/// Plays the replicates of one experiment and returns the counts at every grid point:
/// `counts[r][k]` is replicate `r`'s prefix of `grid[k]` games. `progress` is told how many
/// games each chunk played.
pub fn nested_counts(
    matchup: &Matchup,
    seed: u64,
    reps: u32,
    grid: &[u64],
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Vec<DuelCounts>> {
    let total_pairs = grid.last().copied().unwrap_or(0) / 2;
    let chunks = total_pairs.div_ceil(CHUNK_PAIRS);
    (0..u64::from(reps))
        .into_par_iter()
        .map(|rep| {
            let key = StreamKey::new(seed).with_stream(rep);
            let mut at_points = Vec::with_capacity(grid.len());
            let mut done = DuelCounts::default();
            let mut next = 0;
            for chunk in 0..chunks {
                let start = chunk * CHUNK_PAIRS;
                let full = CHUNK_PAIRS.min(total_pairs - start);
                // Grid points that end inside this chunk (not at its end) need a cut run.
                while next < grid.len() && grid[next] / 2 < start + full {
                    let cut = grid[next] / 2 - start;
                    at_points.push(done + play_chunk(matchup, key, chunk, cut));
                    next += 1;
                }
                done = done + play_chunk(matchup, key, chunk, full);
                progress(2 * full);
                while next < grid.len() && grid[next] / 2 == start + full {
                    at_points.push(done);
                    next += 1;
                }
            }
            at_points
        })
        .collect()
}

/// Runs the experiment: for every grid point, error and coverage over the replicates.
pub fn run_convergence(
    matchup: &Matchup,
    reference: &Reference,
    config: &ConvergenceConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Convergence {
    let grid = game_grid(config.min_games, config.max_games, config.points_per_decade);
    let counts = nested_counts(matchup, config.seed, config.reps, &grid, progress);
    summarise(reference, config, &grid, &counts)
}

/// The statistics of counts from [`nested_counts`] (`counts[r][k]` at `grid[k]` games).
pub fn summarise(
    reference: &Reference,
    config: &ConvergenceConfig,
    grid: &[u64],
    counts: &[Vec<DuelCounts>],
) -> Convergence {
    let p = reference.p_a;
    let reps = counts.len();
    let mut points = Vec::with_capacity(grid.len());
    let mut estimates = Vec::with_capacity(grid.len());
    for (k, &games) in grid.iter().enumerate() {
        let (mut abs, mut sq, mut sum, mut wilson, mut normal, mut width) =
            (0.0, 0.0, 0.0, 0u32, 0u32, 0.0);
        let mut column = Vec::with_capacity(reps);
        for rep in counts {
            let total = rep[k].total();
            debug_assert_eq!(total.games, games);
            let estimate = total.a_wins as f64 / total.games as f64;
            let error = estimate - p;
            abs += error.abs();
            sq += error * error;
            sum += error;
            let w = stats::wilson(total.a_wins, total.games, Z95);
            wilson += u32::from(w.contains(p));
            width += w.half_width();
            normal += u32::from(stats::normal(total.a_wins, total.games, Z95).contains(p));
            column.push(estimate);
        }
        let n = reps as f64;
        points.push(ConvergencePoint {
            games,
            reps: reps as u32,
            mae: abs / n,
            rmse: (sq / n).sqrt(),
            bias: sum / n,
            sd_binomial: reference.sd_binomial(games),
            sd_estimate: reference.sd_estimate(games),
            wilson_coverage: f64::from(wilson) / n,
            normal_coverage: f64::from(normal) / n,
            wilson_half_width: width / n,
        });
        estimates.push(column);
    }
    Convergence {
        config: *config,
        reference: *reference,
        points,
        estimates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::rules::{Board, Profile, Rules};
    use crate::sim::{Stopping, run_duel};

    #[test]
    fn grid_is_log_spaced_even_and_ends_at_the_maximum() {
        assert_eq!(
            game_grid(100, 10_000, 2),
            vec![100, 316, 1000, 3162, 10_000]
        );
        let g = game_grid(100, 1_000_000, 4);
        assert_eq!(g.len(), 17);
        assert!(g.iter().all(|n| n % 2 == 0));
        assert!(g.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(g[4], 1000);
        assert_eq!(game_grid(10, 25, 1), vec![10, 26]);
        assert_eq!(game_grid(2, 3, 10), vec![2, 4]);
        assert!(game_grid(100, 10, 3).is_empty());
    }

    #[test]
    fn prefixes_are_the_duels_of_that_many_games() {
        let rules = Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::BWINF);
        let (a, b): (Die, Die) = ("1..6".parse().unwrap(), "2..7".parse().unwrap());
        let m = Matchup::new(&rules, [&a, &b], 10_000).unwrap();
        // Points inside a chunk, on a chunk's end and in the last, cut chunk.
        let grid = [10, 1024, 1500, 2048, 3000];
        let counts = nested_counts(&m, 7, 2, &grid, &|_| {});
        for (rep, row) in counts.iter().enumerate() {
            for (k, &games) in grid.iter().enumerate() {
                let key = StreamKey::new(7).with_stream(rep as u64);
                let duel = run_duel(&m, key, Stopping::games(games).unwrap(), &|_| {}).unwrap();
                assert_eq!(row[k], duel, "rep {rep}, {games} games");
            }
        }
    }
}
