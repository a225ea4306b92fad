//! Monte Carlo play of two strategies: the exact figures of [`super::policy::evaluate`],
//! checked by playing.
//!
//! Games are played in chunks of [`CHUNK`] games; chunk `i` uses the generator
//! `Xoshiro256PlusPlus::seed_from_u64(seed)` advanced by `i` jumps of `2^128` draws, so the
//! chunks' streams never overlap and the result depends only on the seed and the number of
//! games, not on the number of threads.

use super::game::Game;
use super::policy::Strategy;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// Games per chunk (one generator stream each).
pub const CHUNK: u64 = 4096;

/// The two-sided 99.9% quantile of the standard normal distribution, `Φ⁻¹(0.9995)`.
pub const Z_999: f64 = 3.290_526_731_491_926;

/// Plays one game, `first` moving first; returns whether `first` wins.
///
/// Rolls the real die with [`crate::dice::Die::roll`] (unbiased). A turn total of 0 (only
/// after rolling non-busting zeros) cannot be banked, so the strategies are asked only for
/// `turn >= 1`.
pub fn play<R: Rng + ?Sized>(
    game: &Game,
    first: &dyn Strategy,
    second: &dyn Strategy,
    rng: &mut R,
) -> bool {
    let goal = u64::from(game.goal());
    let die = game.die();
    let players = [first, second];
    let mut scores = [0u32; 2];
    let mut mover = 0;
    let mut turn = 0u32;
    loop {
        let face = die.roll(rng);
        if game.is_bust(face) {
            turn = 0;
            mover ^= 1;
            continue;
        }
        let total = u64::from(scores[mover]) + u64::from(turn) + u64::from(face);
        if total >= goal {
            return mover == 0;
        }
        turn += face;
        if turn > 0 && players[mover].saves(scores[mover], scores[1 - mover], turn) {
            scores[mover] += turn;
            turn = 0;
            mover ^= 1;
        }
    }
}

/// Result of a simulation: games played and games won by the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games won by the player who moved first.
    pub first_wins: u64,
}

impl Tally {
    /// The first player's observed win rate.
    pub fn rate(&self) -> f64 {
        self.first_wins as f64 / self.games as f64
    }

    /// Whether the observed rate lies within `z` binomial standard errors of the exact
    /// probability `p` (see [`half_width`]).
    pub fn agrees_with(&self, p: f64, z: f64) -> bool {
        (self.rate() - p).abs() <= half_width(p, self.games, z)
    }
}

/// Half-width `z · sqrt(p (1 - p) / n)` of the normal-approximation interval for the rate of
/// `n` independent games won with probability `p` (the binomial standard error, times `z`).
pub fn half_width(p: f64, games: u64, z: f64) -> f64 {
    z * (p * (1.0 - p) / games as f64).sqrt()
}

/// Plays `games` games of `first` (moving first) against `second`, in parallel chunks.
///
/// Under a caller's cancellation ([`crate::fixpoint::cancellable`]) that is set, the chunks
/// not yet begun are not played: the tally then counts fewer games than `games`.
pub fn simulate(
    game: &Game,
    first: &dyn Strategy,
    second: &dyn Strategy,
    games: u64,
    seed: u64,
) -> Tally {
    let chunks = games.div_ceil(CHUNK);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let starts: Vec<Xoshiro256PlusPlus> = (0..chunks)
        .map(|_| {
            let start = rng.clone();
            rng.jump();
            start
        })
        .collect();
    let cancel = crate::fixpoint::cancel_flag();
    let (games, first_wins) = starts
        .into_par_iter()
        .enumerate()
        .map(|(i, mut rng)| {
            if cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                return (0, 0);
            }
            let n = CHUNK.min(games - i as u64 * CHUNK);
            let wins = (0..n)
                .filter(|_| play(game, first, second, &mut rng))
                .count() as u64;
            (n, wins)
        })
        .reduce(|| (0, 0), |(n, w), (m, v)| (n + m, w + v));
    Tally { games, first_wins }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixpoint::StopRule;
    use crate::pig::{HoldAt, evaluate, solve};

    fn check(game: &Game, games: u64, seed: u64) {
        let rule = StopRule::default();
        let optimal = solve(game, &rule).unwrap();
        for k in [20, 25] {
            let hold = HoldAt(k);
            let exact = evaluate(game, &optimal, &hold, &rule).unwrap();
            let a = simulate(game, &optimal, &hold, games, seed);
            let b = simulate(game, &hold, &optimal, games, seed + 1);
            assert!(
                a.agrees_with(exact.a_first, Z_999),
                "optimal first vs hold {k}: simulated {} exact {}",
                a.rate(),
                exact.a_first
            );
            assert!(
                b.agrees_with(exact.b_first, Z_999),
                "hold {k} first vs optimal: simulated {} exact {}",
                b.rate(),
                exact.b_first
            );
            // The test has teeth: two percentage points off would be caught.
            assert!(!a.agrees_with(exact.a_first + 0.02, Z_999));
            assert!(!a.agrees_with(exact.a_first - 0.02, Z_999));
        }
    }

    #[test]
    fn simulation_agrees_with_exact_evaluation_in_wubbel() {
        check(&Game::wubbel(), 100_000, 4);
    }

    #[test]
    fn simulation_agrees_with_exact_evaluation_in_pig() {
        check(&Game::pig(), 50_000, 2004);
    }

    #[test]
    fn zero_faces_are_rerolls() {
        // The solver conditions non-busting zeros away; the simulation rolls them.
        let game = Game::new(30, "0,0,1,2,3,4,5,6".parse().unwrap(), 6).unwrap();
        check(&game, 100_000, 7);
    }

    #[test]
    fn same_seed_same_result_any_chunking() {
        let game = Game::wubbel();
        let a = simulate(&game, &HoldAt(20), &HoldAt(15), 10_000, 99);
        let b = simulate(&game, &HoldAt(20), &HoldAt(15), 10_000, 99);
        assert_eq!(a, b);
        assert_eq!(a.games, 10_000);
        let c = simulate(&game, &HoldAt(20), &HoldAt(15), 10_000, 100);
        assert_ne!(a, c);
    }
}
