//! The settings of a search: the design, the error probability, the caps on games, and
//! the strategy every die plays.

use super::SearchError;
use crate::rules::Rules;
use crate::sim::{CHUNK_GAMES, MAX_GAMES, Matchup, MatchupError};
use crate::strategy::Strategy;
use serde::{Deserialize, Serialize};

/// How games are given to pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Design {
    /// Successive elimination: games go to the pairs that can still change an answer.
    Racing,
    /// Every pair plays in every round until every question is answered: the full round
    /// robin with the same intervals and the same stopping rule, for comparison.
    RoundRobin,
    /// For large families: the best mean on games against sampled opponents, the other
    /// questions on the pairs of the top dice ([`super::screening`]).
    Screening,
}

impl Design {
    /// The name of `--design`.
    pub fn name(self) -> &'static str {
        match self {
            Design::Racing => "racing",
            Design::RoundRobin => "round-robin",
            Design::Screening => "screening",
        }
    }
}

/// The default cap on a die's sampled games under [`Design::Screening`]: 2^22 (4.2
/// million), where the sequence of a die's mean is about 0.0015 wide on each side at the
/// risks of a 5,005-die family.
pub const DEFAULT_DIE_GAMES: u64 = 1 << 22;

/// Settings of a search, checked by [`RaceConfig::new`] (and [`RaceConfig::playing`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RaceConfig {
    /// The overall error probability `delta`: every statement holds together with
    /// probability at least `1 - delta`.
    pub error_probability: f64,
    /// Indifference: the best-mean and maximin races stop when the leader is provably
    /// within this of every other candidate.
    pub epsilon: f64,
    /// The most games any pair plays (a whole number of chunks).
    pub max_games_per_pair: u64,
    /// Under [`Design::Screening`]: the most sampled games any die plays (a whole number
    /// of chunks).
    pub max_games_per_die: u64,
    /// How many dice of highest mean are checked for intransitive cycles.
    pub top: usize,
    /// The seed of the random streams.
    pub seed: u64,
    /// A game reaching this many rolls is unfinished.
    pub max_rolls: u64,
    /// Racing or the round robin.
    pub design: Design,
    /// The strategy every die plays (`frontmost` unless the profile has `choice`).
    pub strategy: Strategy,
}

impl RaceConfig {
    /// Checks the settings: `error_probability` in (0, 0.5], `epsilon` in [0, 0.5),
    /// `max_games_per_pair` a positive multiple of [`CHUNK_GAMES`] of at most
    /// [`MAX_GAMES`], `top` at least 3 (a cycle needs three dice), `max_rolls` at least 1.
    pub fn new(
        error_probability: f64,
        epsilon: f64,
        max_games_per_pair: u64,
        top: usize,
        seed: u64,
        max_rolls: u64,
        design: Design,
    ) -> Result<RaceConfig, SearchError> {
        if !(error_probability > 0.0 && error_probability <= 0.5) {
            return Err(SearchError::ErrorProbability(error_probability));
        }
        if !(0.0..0.5).contains(&epsilon) {
            return Err(SearchError::Epsilon(epsilon));
        }
        if max_games_per_pair == 0
            || !max_games_per_pair.is_multiple_of(CHUNK_GAMES)
            || max_games_per_pair > MAX_GAMES
        {
            return Err(SearchError::GamesPerPair(max_games_per_pair));
        }
        if top < 3 {
            return Err(SearchError::Top(top));
        }
        if max_rolls == 0 {
            return Err(SearchError::NoRolls);
        }
        Ok(RaceConfig {
            error_probability,
            epsilon,
            max_games_per_pair,
            max_games_per_die: DEFAULT_DIE_GAMES,
            top,
            seed,
            max_rolls,
            design,
            strategy: Strategy::Frontmost,
        })
    }

    /// The same settings with at most `games` sampled games per die under screening (a
    /// positive multiple of [`CHUNK_GAMES`] of at most [`MAX_GAMES`]).
    pub fn with_die_cap(self, games: u64) -> Result<RaceConfig, SearchError> {
        if games == 0 || !games.is_multiple_of(CHUNK_GAMES) || games > MAX_GAMES {
            return Err(SearchError::GamesPerDie(games));
        }
        Ok(RaceConfig {
            max_games_per_die: games,
            ..self
        })
    }

    /// The same settings with every die playing `strategy` (under `choice`; [`race`](super::race)
    /// refuses anything but `frontmost` under another profile, as a ranking does).
    ///
    /// A `table:FILE` policy is refused: it is solved for one pair of dice on one board
    /// and refuses every other matchup, and a search plays every pair of a family.
    pub fn playing(self, strategy: Strategy) -> Result<RaceConfig, SearchError> {
        if let Strategy::Table(_) = strategy {
            return Err(SearchError::TableStrategy(strategy.name()));
        }
        Ok(RaceConfig { strategy, ..self })
    }

    /// The matchup of dice `a` (as A) and `b` (as B), both playing the search's strategy.
    pub fn matchup<'a>(
        &self,
        rules: &'a Rules,
        a: &'a crate::dice::Die,
        b: &'a crate::dice::Die,
    ) -> Result<Matchup<'a>, MatchupError> {
        Matchup::new(rules, [a, b], self.max_rolls)?
            .playing([self.strategy.clone(), self.strategy.clone()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_settings_that_cannot_run() {
        let ok = |d, e, g, t, r| RaceConfig::new(d, e, g, t, 1, r, Design::Racing);
        assert!(ok(0.01, 0.0, 1024, 3, 1).is_ok());
        assert!(ok(0.0, 0.0, 1024, 3, 1).is_err());
        assert!(ok(f64::NAN, 0.0, 1024, 3, 1).is_err());
        assert!(ok(0.6, 0.0, 1024, 3, 1).is_err());
        assert!(ok(0.01, 0.5, 1024, 3, 1).is_err());
        assert!(ok(0.01, -0.1, 1024, 3, 1).is_err());
        assert!(ok(0.01, 0.0, 1000, 3, 1).is_err());
        assert!(ok(0.01, 0.0, 0, 3, 1).is_err());
        assert!(ok(0.01, 0.0, 1024, 2, 1).is_err());
        assert!(ok(0.01, 0.0, 1024, 3, 0).is_err());
    }
}
