//! Experiments that hold the simulation against the exact solver: how the error of a Monte
//! Carlo estimate shrinks with the number of games ([`convergence`]), which stopping rules
//! keep the precision they claim ([`stopping`]). Their tables, JSON, CSV and pictures are
//! in [`crate::report`].
//!
//! # The truth
//! Every experiment needs the exact win probability of its matchup. It comes from
//! [`crate::exact::solve_matchup`] on a board small enough for the solver (the `converge`
//! command defaults to 40/20/2/4, solved in well under a second) and is passed in as a
//! [`Reference`], so the experiments themselves do not depend on the solver and tests can
//! supply a known value.
//!
//! # What is estimated
//! A simulation's estimate is `a_wins / games`: games that hit the roll cap count as not
//! won by A, exactly as in `duel`. On boards where a game can never end the exact figure
//! `p_a` excludes those games as well, so the two agree.

pub mod convergence;
pub mod grading;
pub mod stopping;

use crate::exact::ExactResult;
use serde::Serialize;

/// The exact figures of a matchup that the experiments measure against.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Reference {
    /// P(A wins), averaged over the starting orders: what a simulation estimates.
    pub p_a: f64,
    /// P(A wins | A starts).
    pub p_a_if_a_starts: f64,
    /// P(A wins | B starts).
    pub p_a_if_b_starts: f64,
    /// P(the game never ends).
    pub p_never: f64,
    /// Whether the starts alternate (each die starts exactly half of the games, so a
    /// simulation is stratified by the starting player); false under `roll-off`, where
    /// every game's starter is random and the games are plain Bernoulli trials.
    pub alternating: bool,
}

impl Reference {
    /// The figures of an exact solve.
    pub fn from_exact(exact: &ExactResult, alternating: bool) -> Reference {
        Reference {
            p_a: exact.p_a,
            p_a_if_a_starts: exact.p_a_if_a_starts,
            p_a_if_b_starts: exact.p_a_if_b_starts,
            p_never: exact.p_never,
            alternating,
        }
    }

    /// A reference with one probability and no start effect (for tests and synthetic
    /// experiments).
    pub fn plain(p: f64) -> Reference {
        Reference {
            p_a: p,
            p_a_if_a_starts: p,
            p_a_if_b_starts: p,
            p_never: 0.0,
            alternating: false,
        }
    }

    /// `sqrt(p(1-p)/N)`: the standard deviation of a binomial estimate from `games` games.
    /// The reference line of the convergence plot.
    pub fn sd_binomial(&self, games: u64) -> f64 {
        (self.p_a * (1.0 - self.p_a) / games as f64).sqrt()
    }

    /// The true standard deviation of the simulation's estimate from `games` games (even).
    ///
    /// With alternating starts the estimate averages two binomials of `N/2` games each,
    /// so its variance is `(p1(1-p1) + p2(1-p2)) / (2N)` with `p1`, `p2` the two
    /// conditional probabilities. That is at most `p(1-p)/N` (by the concavity of
    /// `x(1-x)`); the difference is `((p1 - p2)/2)^2 / N`, small unless the start matters
    /// a lot. Under `roll-off` the games are plain Bernoulli trials: `p(1-p)/N`.
    pub fn sd_estimate(&self, games: u64) -> f64 {
        if !self.alternating {
            return self.sd_binomial(games);
        }
        let (p1, p2) = (self.p_a_if_a_starts, self.p_a_if_b_starts);
        ((p1 * (1.0 - p1) + p2 * (1.0 - p2)) / (2.0 * games as f64)).sqrt()
    }
}

/// The `q`-quantile (nearest rank: the smallest value with at least a fraction `q` of
/// the values at or below it) of `values`; NaN for an empty list.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stratified_sd_is_at_most_the_binomial_one() {
        let r = Reference {
            p_a: 0.3,
            p_a_if_a_starts: 0.4,
            p_a_if_b_starts: 0.2,
            p_never: 0.0,
            alternating: true,
        };
        // (0.24 + 0.16) / 2 = 0.2 against 0.21 = 0.2 + 0.1^2.
        assert!((r.sd_estimate(100) - (0.2f64 / 100.0).sqrt()).abs() < 1e-15);
        assert!((r.sd_binomial(100) - (0.21f64 / 100.0).sqrt()).abs() < 1e-15);
    }

    #[test]
    fn nearest_rank_quantiles() {
        let v = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.95), 5.0);
        assert_eq!(quantile(&v, 0.2), 1.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert!(quantile(&[], 0.5).is_nan());
    }
}
