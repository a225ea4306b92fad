//! What a race has found so far: every pair's counts, the answers to the four questions,
//! and the confidence sequences that bound every figure (see [`super::racing`] for the
//! guarantee).

use super::family::Family;
use super::pairs::PairSet;
use super::screening::DieCounts;
use crate::rank::{Method, PairFigure, Tournament, share_bounds, share_of};
use crate::stats::{Interval, bernoulli_cs, sequence};
use serde::{Deserialize, Serialize};

/// The mixture precision of a pair's confidence sequences, in games: one chunk. At the
/// small risks of a search (1e-8 per sequence for the 462 six-sided dice) the `ln(1 /
/// alpha^2)` term dominates the boundary, and a small mixture precision keeps it narrow
/// from the first chunk on (half-width 0.21 after 1,024 games, where 8,192 would give
/// 0.54) while costing under 3 % at 10^5 to 10^6 games. A die's mean uses this times its
/// number of opponents.
pub const RHO_PAIR: f64 = 1024.0;

/// The games of one unordered pair `(i, j)`, `i < j`, die `i` playing as A. Written as
/// `[games, a_wins, b_wins]` (a search's state holds millions of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u64; 3]", into = "[u64; 3]")]
pub struct PairCounts {
    /// Games played.
    pub games: u64,
    /// Games die `i` won.
    pub a_wins: u64,
    /// Games die `j` won.
    pub b_wins: u64,
}

impl From<[u64; 3]> for PairCounts {
    fn from([games, a_wins, b_wins]: [u64; 3]) -> PairCounts {
        PairCounts {
            games,
            a_wins,
            b_wins,
        }
    }
}

impl From<PairCounts> for [u64; 3] {
    fn from(c: PairCounts) -> [u64; 3] {
        [c.games, c.a_wins, c.b_wins]
    }
}

/// How a race for one question ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceStatus {
    /// One candidate is left: it is the answer.
    Decided,
    /// Several are left, but the leader is within `epsilon` of each.
    WithinEpsilon,
    /// The pairs reached the game cap with several candidates left.
    Undecided,
}

/// The answer to "which die is best" for one criterion, as it stood when its race ended
/// (later rounds for other questions do not change it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// The die named (the candidate with the highest lower bound).
    pub leader: usize,
    /// The dice still in the race at the end (the leader included).
    pub candidates: Vec<usize>,
    /// How it ended.
    pub status: RaceStatus,
    /// The leader's figure (mean P(win), or worst P(win)), estimated (NaN before any
    /// game).
    #[serde(with = "nan_as_null")]
    pub value: f64,
    /// Its interval at the search's risk: holds with every other statement together with
    /// probability at least `1 - error_probability`.
    pub interval: Interval,
    /// Its 95 % confidence sequence on its own (risk 0.05, no union bound).
    pub ci95: Interval,
    /// Games per pair when the race ended (the most any of the leader's pairs had played).
    pub games_per_pair: u64,
}

/// The Condorcet question's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condorcet {
    /// This die beats every other die.
    Winner(usize),
    /// Every die is beaten by some other die.
    None,
    /// The game cap came first; these dice are beaten by nobody so far.
    Undecided(Vec<usize>),
}

/// The result of a race: every pair's counts and the four answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceOutcome {
    /// Number of dice.
    pub n: usize,
    /// The pairs the race may play: all of them, or under screening those of the anchors
    /// (empty until stage 1 is over).
    pub pairs: PairSet,
    /// Counts per pair, by slot of [`RaceOutcome::pairs`] ([`pair_index`](super::pair_index) when every pair
    /// is in play).
    pub counts: Vec<PairCounts>,
    /// Under screening: every die's games against sampled opponents, by die.
    pub screened: Option<Vec<DieCounts>>,
    /// The per-die risk of the mean sequences.
    pub mean_alpha: f64,
    /// The per-figure risk of the pair sequences (NaN under screening until the anchors
    /// are chosen).
    #[serde(with = "nan_as_null")]
    pub pair_alpha: f64,
    /// The best mean P(win).
    pub best_mean: Race,
    /// The best worst case.
    pub maximin: Race,
    /// The Condorcet winner.
    pub condorcet: Condorcet,
    /// The dice of highest mean estimate checked for cycles, best first.
    pub top: Vec<usize>,
    /// Games played in all.
    pub games: u64,
    /// Rounds played.
    pub rounds: u32,
}

impl RaceOutcome {
    /// The counts of pair `{i, j}`; none for a pair outside [`RaceOutcome::pairs`].
    pub(super) fn pair(&self, i: usize, j: usize) -> PairCounts {
        self.pairs
            .slot(i, j)
            .map_or_else(PairCounts::default, |s| self.counts[s])
    }

    /// Games die `i` won against die `j`, and games of the pair.
    fn wins(&self, i: usize, j: usize) -> (u64, u64) {
        let c = self.pair(i, j);
        (if i < j { c.a_wins } else { c.b_wins }, c.games)
    }

    /// P(die `i` beats die `j`) estimated, with its confidence sequence at the pair risk
    /// (NaN in [0, 1] for a pair that has not played).
    pub fn p(&self, i: usize, j: usize) -> (f64, Interval) {
        let (wins, games) = self.wins(i, j);
        sequence(wins, games, RHO_PAIR, self.pair_alpha)
    }

    /// The pair (row `i`, column `j`) as a ranking figure: P(i wins) with its sequence,
    /// P(i wins | the game ends) with the bounds from both figures' sequences.
    pub fn figure(&self, i: usize, j: usize) -> PairFigure {
        let (p, mine) = self.p(i, j);
        let (q, theirs) = self.p(j, i);
        let games = self.pair(i, j).games;
        PairFigure {
            p,
            interval: mine,
            share: share_of(p, q),
            share_interval: share_bounds(mine, theirs),
            unfinished: 1.0 - p - q,
            method: Method::Simulated,
            games: Some(games),
        }
    }

    /// Die `i`'s mean P(win) against the others: the mean of its sampled games under
    /// screening, else the mean of the pairs' estimates.
    pub fn mean_estimate(&self, i: usize) -> f64 {
        if let Some(screened) = &self.screened {
            let c = screened[i];
            return c.wins as f64 / c.games as f64;
        }
        let others = (0..self.n).filter(|&j| j != i);
        others.map(|j| self.p(i, j).0).sum::<f64>() / (self.n - 1) as f64
    }

    /// Die `i`'s mean with its confidence sequence at risk `alpha` (e.g. the search's
    /// per-die risk, or 0.05 for a 95 % sequence). Under screening, the Bernoulli sequence
    /// of its sampled games ([`bernoulli_cs`]); else that of all its pair games, `None` when its opponents have not all
    /// played the same number of games against it (a die that left the best-mean race),
    /// where the sequence of the pooled games does not hold for the mean.
    pub fn mean_interval(&self, i: usize, alpha: f64) -> Option<(f64, Interval)> {
        if let Some(screened) = &self.screened {
            // Every sampled game is won with the same probability, the mean, given the
            // past: the Bernoulli mixture holds, and near 1 it is far narrower.
            let c = screened[i];
            let (lo, hi) = bernoulli_cs(c.wins, c.games, alpha);
            return Some((self.mean_estimate(i), Interval { lo, hi }));
        }
        let mut games = None;
        let (mut wins, mut total) = (0u64, 0u64);
        for j in (0..self.n).filter(|&j| j != i) {
            let (w, g) = self.wins(i, j);
            if *games.get_or_insert(g) != g {
                return None;
            }
            wins += w;
            total += g;
        }
        let rho = RHO_PAIR * (self.n - 1) as f64;
        Some(sequence(wins, total, rho, alpha))
    }

    /// Die `i`'s worst P(win) over its opponents, with the interval for the worst case from
    /// the pair sequences at risk `alpha`: [min of the lower ends, min of the upper ends]
    /// over the pairs played. The estimate is the smallest of the played pairs'. When not
    /// all of `i`'s pairs are in play (screening, a die that is no anchor) the worst case
    /// may be any of the others, so the lower end is 0.
    pub(super) fn worst_at(&self, i: usize, alpha: f64) -> (f64, Interval) {
        let mut estimate = f64::INFINITY;
        let mut bound = Interval {
            lo: f64::INFINITY,
            hi: f64::INFINITY,
        };
        for j in self.pairs.opponents(i) {
            let (wins, games) = self.wins(i, j);
            let (p, interval) = sequence(wins, games, RHO_PAIR, alpha);
            estimate = estimate.min(p);
            bound.lo = bound.lo.min(interval.lo);
            bound.hi = bound.hi.min(interval.hi);
        }
        if !self.pairs.full_row(i) {
            bound.lo = 0.0;
        }
        (estimate, bound)
    }

    /// Die `i`'s worst P(win) over its opponents (see [`RaceOutcome::worst_at`]) at the
    /// pair risk.
    pub fn worst(&self, i: usize) -> (f64, Interval) {
        self.worst_at(i, self.pair_alpha)
    }

    /// The opponents die `i` is not shown to beat (its pair's interval of P(i wins | the
    /// game ends) is not above 1/2, or the pair was not played): what stands between a
    /// Condorcet candidate and the title.
    pub fn not_beaten(&self, i: usize) -> Vec<usize> {
        (0..self.n)
            .filter(|&j| j != i && !self.figure(i, j).beats())
            .collect()
    }

    /// Games die `i` played in all: its pair games, and under screening its sampled games
    /// (those in which it was drawn as an opponent count for the die that drew it).
    pub fn games_of(&self, i: usize) -> u64 {
        let sampled = self.screened.as_ref().map_or(0, |s| s[i].games);
        sampled
            + self
                .pairs
                .opponents(i)
                .into_iter()
                .map(|j| self.pair(i, j).games)
                .sum::<u64>()
    }

    /// The pairs among [`RaceOutcome::top`] as a ranking's tournament (dice in the order of
    /// `top`), for its cycle analysis.
    pub fn top_tournament(&self, family: &Family) -> Tournament {
        let dice = self.top.iter().map(|&i| family.dice()[i].clone()).collect();
        let mut t = Tournament::new(dice);
        for (a, &i) in self.top.iter().enumerate() {
            for (b, &j) in self.top.iter().enumerate() {
                if a != b {
                    t.matrix[a][b] = Some(self.figure(i, j));
                }
            }
        }
        t
    }
}

impl Race {
    /// A race that has not started: every die a candidate.
    pub(super) fn open(n: usize) -> Race {
        let all = Interval { lo: 0.0, hi: 1.0 };
        Race {
            leader: 0,
            candidates: (0..n).collect(),
            status: RaceStatus::Undecided,
            value: f64::NAN,
            interval: all,
            ci95: all,
            games_per_pair: 0,
        }
    }
}

/// JSON has no NaN: a NaN is written as `null` and read back from it (serde_json would
/// write `null` and then refuse to read it as a number).
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_nan() {
            s.serialize_none()
        } else {
            s.serialize_some(x)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// The 95 % risk of the `ci95` figures.
pub(super) const ALPHA_95: f64 = 0.05;
