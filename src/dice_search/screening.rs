//! The screening design for large families: the best-mean race on games against sampled
//! opponents, then pairs only against a few anchor dice.
//!
//! A full first round of racing gives every pair of the family a chunk of games: for the
//! 5,005 dice with six faces from 0..9 that is 12.5 million pairs and 12.8 billion games
//! before anything is decided. Screening spends games per *die* instead of per pair.
//!
//! # Stage 1: the best mean, on sampled opponents
//! A *sampled game* of die `X` is one game of `X` against an opponent drawn uniformly from
//! the `n - 1` other dice of the family (X's own pair is not a pair: the mean of the other
//! designs is over the `n - 1` opponents too), the starting player by a fair coin (under
//! `roll-off` the roll-off decides, as in every pair). Given everything before it, the game
//! is won with probability exactly
//! `m_X = (1 / (n - 1)) sum_{Y != X} P(X beats Y)`, X's mean P(win) against the family,
//! each pair's P(win) averaged over the two starting orders. So X's sampled games are
//! Bernoulli trials with the same conditional success probability `m_X`, and the
//! Bernoulli mixture sequence ([`crate::stats::bernoulli_cs`]) holds for
//! `m_X` at every game. (It needs that sameness, which the pairs' alternating starts do
//! not give; where it holds it is much narrower near 0 and 1 than the pairs' sequence,
//! and the best dice win 99 % of their games.) The best-mean race runs on one sequence per
//! die, at a cost that does not grow with the family: a die far from the top leaves after
//! a few thousand games, whatever `n` is. A game that never ends counts as not won, as in
//! P(win).
//!
//! # Stage 2: pairs against anchors
//! When the mean race is over, the `top` dice of highest estimated mean (the race's leader
//! first) become *anchors*, and the pairs that touch an anchor are raced as in
//! [`super::racing`] with the best mean fixed ([`super::pairs::PairSet::anchored`]). They
//! give sound filters for the other questions:
//!
//! * **Condorcet**: a die that an anchor is shown to beat is no Condorcet winner; only an
//!   anchor, whose every pair is played, can be shown to beat every other die. A die that
//!   no anchor beats stays a candidate, so the answer is "winner", "none" or "undecided"
//!   with the candidates, never a die that was not checked against every other.
//! * **maximin**: an anchor's worst case is bounded on both sides by its pairs; another
//!   die's worst case lies below its upper bound against every anchor (its lower bound is
//!   0: most of its pairs are not played). A die whose upper bound lies below an anchor's
//!   lower bound cannot have the best worst case.
//! * **cycles**: among the anchors, whose pairs are all played.
//!
//! # The error probability
//! `delta / 2` over the `n` dice's mean sequences (stage 1), `delta / 2` over the
//! `2 U` one-sided figures of the `U = k (n - 1) - k (k - 1) / 2` anchored pairs (stage 2,
//! `k` anchors). The anchors depend on stage 1's games, but stage 2 plays fresh games on
//! streams of its own: given stage 1, its `2 U` sequences are fixed in number and each
//! holds with probability `1 - delta / (4 U)`, so the union bound holds given every
//! outcome of stage 1, hence overall.
//!
//! # Streams
//! Die `i`'s chunk `c` of sampled games draws from stream `P + i` of the seed, `P` the
//! number of pairs of the family, so it shares no stream with any pair (pair `k` uses
//! stream `k`, in every design).

use super::config::RaceConfig;
use super::family::Family;
use crate::dice::Die;
use crate::rules::Rules;
use crate::sim::{CHUNK_GAMES, GameEnd, StreamKey};
use crate::strategy::uniform_below;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The sampled games of one die, written as `[games, wins]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u64; 2]", into = "[u64; 2]")]
pub struct DieCounts {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
}

impl From<[u64; 2]> for DieCounts {
    fn from([games, wins]: [u64; 2]) -> DieCounts {
        DieCounts { games, wins }
    }
}

impl From<DieCounts> for [u64; 2] {
    fn from(c: DieCounts) -> [u64; 2] {
        [c.games, c.wins]
    }
}

/// The stream of die `i`'s sampled games: after every pair's stream.
pub fn die_stream(family: &Family, i: usize) -> u64 {
    family.pairs() + i as u64
}

/// Plays chunk `chunk` of die `i`'s sampled games ([`CHUNK_GAMES`] games, see the module
/// documentation) on stream `key`.
///
/// Every matchup of die `i` must have been checked to be playable
/// ([`RaceConfig::matchup`]) before.
pub fn play_sampled_chunk(
    rules: &Rules,
    dice: &[Die],
    i: usize,
    config: &RaceConfig,
    key: StreamKey,
    chunk: u64,
) -> DieCounts {
    let mut rng = key.rng(chunk);
    let others = u32::try_from(dice.len() - 1).expect("at most MAX_SCREENED_DICE dice");
    let mut counts = DieCounts::default();
    for _ in 0..CHUNK_GAMES {
        let drawn = uniform_below(&mut rng, others) as usize;
        let j = if drawn >= i { drawn + 1 } else { drawn };
        let matchup = config
            .matchup(rules, &dice[i], &dice[j])
            .expect("every matchup checked before the first round");
        // A fair coin: one bit of a fresh word, so every game draws the same way.
        let coin = (rng.next_u32() & 1) as usize;
        let first = matchup.first_player(coin, &mut rng);
        counts.games += 1;
        if let GameEnd::Won { winner: 0, .. } = matchup.play(first, &mut rng) {
            counts.wins += 1;
        }
    }
    counts
}

/// The anchors of stage 2: `leader` (the best-mean race's answer), then the dice of highest
/// `mean` estimate, `k` in all (at most the family).
pub fn choose_anchors(leader: usize, mean: &[f64], k: usize) -> Vec<usize> {
    let mut by_mean: Vec<usize> = (0..mean.len()).collect();
    by_mean.sort_by(|&a, &b| mean[b].total_cmp(&mean[a]).then(a.cmp(&b)));
    let mut anchors = vec![leader];
    anchors.extend(by_mean.into_iter().filter(|&i| i != leader));
    anchors.truncate(k.min(mean.len()));
    anchors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_start_with_the_leader_then_follow_the_mean() {
        let mean = [0.1, 0.9, 0.5, 0.7, 0.3];
        assert_eq!(choose_anchors(2, &mean, 3), vec![2, 1, 3]);
        assert_eq!(choose_anchors(1, &mean, 9).len(), 5);
    }
}
