//! Successive elimination ("racing") over the pairs of a family, with anytime-valid
//! confidence sequences and one overall error probability.
//!
//! # The design
//! The search plays in rounds. Every pair that is still *live* gets one more batch of
//! chunks of games (the batch grows by half the games scheduled so far, so rounds stay
//! few); a pair is live while one of the four questions still needs it:
//!
//! * **best mean**: every pair touching a die that can still have the highest mean
//!   P(win) (an *active* die). Such pairs are live in every round, so an active die has
//!   played exactly the same number of games against every opponent, and its mean is
//!   the mean of all its games: one confidence sequence for the sum of those games.
//!   A die leaves when its upper bound falls below another active die's lower bound.
//! * **Condorcet winner**: for every die that no other die beats yet, its undecided pair
//!   most likely to show it beaten (the lowest upper bound); for the one of them with
//!   the highest mean, every undecided pair (all must be decided to name it the winner).
//! * **maximin**: for each die that can still have the best worst case, the pair with
//!   the lowest upper bound (it decides when the die can be dropped); for the two with
//!   the highest lower bounds, every pair that can still be their worst.
//! * **cycles**: the undecided pairs among the [`RaceConfig::top`] dice of highest mean.
//!
//! No pair plays more than [`RaceConfig::max_games_per_pair`] games; a question still
//! open when its pairs reach the cap is reported as undecided, with its candidates.
//!
//! [`Design::Screening`] runs the best-mean race on games against sampled opponents
//! instead, then the other three questions on the pairs of a few anchor dice
//! ([`super::screening`]); the pair rounds below are the same, restricted to those pairs
//! ([`PairSet`]).
//!
//! # The guarantee, and where the error probability goes
//! Every interval is Robbins' normal-mixture confidence sequence measured by the
//! convergence experiments ([`crate::experiments::stopping::cs_half_width_at`]): with
//! probability `1 - alpha` it holds at *every* game at once, so looking after every round
//! and stopping on what one sees costs nothing, and no union bound over rounds is needed.
//! The overall error probability `delta` is split by a union bound over the sequences:
//!
//! * `delta / 2` over the `n` dice's means (`delta / (2 n)` each);
//! * `delta / 2` over the `2 P` one-sided figures P(i beats j), P(j beats i) of the
//!   `P = n (n - 1) / 2` pairs (`delta / (4 P)` each).
//!
//! With probability at least `1 - delta` all of them hold at all times; then the true best
//! die is never eliminated, every "beats" (the interval of P(i wins | the game ends),
//! from the corners of the two figures' intervals, [`crate::rank::share_bounds`]) is
//! true, and so is every statement the search makes: the die it names best has a mean at
//! most `epsilon` below the best one's (exactly the best when it is the last one left),
//! the Condorcet winner beats every other die, "no Condorcet winner" holds, and each
//! reported cycle is one.
//!
//! # Why the sums are valid sequences
//! A game's outcome lies in [0, 1] whatever the opponent and the starting player, so the
//! Hoeffding-lemma argument of the experiments applies to any sequence of games whose
//! win probabilities are fixed before they are played: the centred sum is a mixture
//! supermartingale. A die's mean is looked at only after complete batches, when every
//! opponent has played the same number of games against it, half of them starting; the
//! sum of the games' win probabilities is then exactly the number of games times its mean.
//!
//! # Reproducibility
//! Pair `k` (in the order of [`pair_index`]) draws chunk `c` from stream `k` of the seed,
//! as a ranking does ([`crate::sim::StreamKey`]), so a search gives the same games, the
//! same counts and the same answer on any number of threads.

use super::SearchError;
use super::family::Family;
pub use super::pairs::{PairSet, pair_index};
use super::screening::{self, DieCounts};
use crate::experiments::stopping::{bernoulli_cs, cs_half_width_at};
use crate::rank::{Method, PairFigure, Tournament, share_bounds, share_of};
use crate::rules::Rules;
use crate::sim::stats::Interval;
use crate::sim::{CHUNK_GAMES, MAX_GAMES, Matchup, MatchupError, StreamKey, play_chunks};
use crate::strategy::Strategy;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The mixture precision of a pair's confidence sequences, in games: one chunk. At the
/// small risks of a search (1e-8 per sequence for the 462 six-sided dice) the `ln(1 /
/// alpha^2)` term dominates the boundary, and a small mixture precision keeps it narrow
/// from the first chunk on (half-width 0.21 after 1,024 games, where 8,192 would give
/// 0.54) while costing under 3 % at 10^5 to 10^6 games. A die's mean uses this times its
/// number of opponents.
pub const RHO_PAIR: f64 = 1024.0;

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

    /// The same settings with every die playing `strategy` (under `choice`; [`race`]
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

/// What a round is about to play, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundInfo {
    /// Round number, from 1.
    pub round: u32,
    /// Pairs playing in this round.
    pub live_pairs: usize,
    /// Under screening, stage 1: dice playing sampled games in this round (else 0).
    pub screened_dice: usize,
    /// Dice still in the best-mean race.
    pub mean_candidates: usize,
    /// Games played before this round.
    pub games_so_far: u64,
}

/// The result of a race: every pair's counts and the four answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceOutcome {
    /// Number of dice.
    pub n: usize,
    /// The pairs the race may play: all of them, or under screening those of the anchors
    /// (empty until stage 1 is over).
    pub pairs: PairSet,
    /// Counts per pair, by slot of [`RaceOutcome::pairs`] ([`pair_index`] when every pair
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
    fn pair(&self, i: usize, j: usize) -> PairCounts {
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
    fn worst_at(&self, i: usize, alpha: f64) -> (f64, Interval) {
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

/// The estimate `wins / games` and its confidence sequence at risk `alpha`, clipped to
/// [0, 1]; the whole of [0, 1] before any game.
fn sequence(wins: u64, games: u64, rho: f64, alpha: f64) -> (f64, Interval) {
    if games == 0 {
        return (f64::NAN, Interval { lo: 0.0, hi: 1.0 });
    }
    let p = wins as f64 / games as f64;
    let h = cs_half_width_at(games, rho, alpha);
    (
        p,
        Interval {
            lo: (p - h).max(0.0),
            hi: (p + h).min(1.0),
        },
    )
}

/// Which stage a race is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Screening, stage 1: dice play sampled games for the best-mean race.
    SampledOpponents,
    /// Pair rounds (every design's, screening's stage 2).
    Pairs,
}

/// The state of a race between two rounds: the outcome so far and who is still in which
/// race. Everything the next rounds depend on is here, so a race resumed from a saved
/// state plays exactly the games, and reaches exactly the answer, of one never
/// interrupted ([`race_from`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceState {
    /// The counts and answers so far.
    pub outcome: RaceOutcome,
    /// Dice still in the best-mean race.
    pub mean_active: Vec<bool>,
    /// Dice still in the maximin race.
    pub maximin_active: Vec<bool>,
    /// The best-mean race is over: its answer is kept in `outcome.best_mean`.
    pub mean_over: bool,
    /// The maximin race is over: its answer is kept in `outcome.maximin`.
    pub maximin_over: bool,
    /// Chunks scheduled per live unit (pair or die) so far in this stage: sets the size
    /// of the next batch.
    pub scheduled_chunks: u64,
    /// The stage.
    pub stage: Stage,
    /// The race is over: no round is left to play.
    pub finished: bool,
}

impl RaceState {
    /// The state before the first round of a race of `family` under `config`.
    pub fn start(family: &Family, config: &RaceConfig) -> RaceState {
        let n = family.len();
        let delta = config.error_probability;
        let screening = config.design == Design::Screening;
        let pairs = if screening {
            // Stage 2's anchors are chosen when stage 1 is over.
            PairSet::anchored(n, Vec::new())
        } else {
            PairSet::all(n)
        };
        RaceState {
            outcome: RaceOutcome {
                n,
                counts: vec![PairCounts::default(); pairs.len()],
                pairs,
                screened: screening.then(|| vec![DieCounts::default(); n]),
                mean_alpha: delta / 2.0 / n as f64,
                pair_alpha: if screening {
                    // Set with the anchors (stage 2).
                    f64::NAN
                } else {
                    delta / 2.0 / (2 * family.pairs()) as f64
                },
                best_mean: Race::open(n),
                maximin: Race::open(n),
                condorcet: Condorcet::Undecided((0..n).collect()),
                top: Vec::new(),
                games: 0,
                rounds: 0,
            },
            mean_active: vec![true; n],
            maximin_active: vec![true; n],
            mean_over: false,
            maximin_over: false,
            scheduled_chunks: 0,
            stage: if screening {
                Stage::SampledOpponents
            } else {
                Stage::Pairs
            },
            finished: false,
        }
    }

    fn active(flags: &[bool]) -> Vec<usize> {
        (0..flags.len()).filter(|&i| flags[i]).collect()
    }

    /// Drops the dice whose upper bound is below another candidate's lower bound; then
    /// whether the race is over (one left, or the leader within epsilon of all).
    fn eliminate(
        flags: &mut [bool],
        bounds: &dyn Fn(usize) -> Option<Interval>,
        epsilon: f64,
    ) -> (usize, bool) {
        let active = RaceState::active(flags);
        let intervals: Vec<(usize, Interval)> = active
            .iter()
            .filter_map(|&i| bounds(i).map(|b| (i, b)))
            .collect();
        let best_lo = intervals
            .iter()
            .map(|(_, b)| b.lo)
            .fold(f64::NEG_INFINITY, f64::max);
        for &(i, b) in &intervals {
            if b.hi < best_lo {
                flags[i] = false;
            }
        }
        let left: Vec<&(usize, Interval)> = intervals.iter().filter(|(i, _)| flags[*i]).collect();
        let Some((leader, lead)) = left
            .iter()
            .max_by(|a, b| a.1.lo.total_cmp(&b.1.lo).then(b.0.cmp(&a.0)))
            .map(|&&(i, b)| (i, b))
        else {
            // No candidate has an interval (cannot happen in a race: see `race`).
            return (active.first().copied().unwrap_or(0), false);
        };
        let within = left
            .iter()
            .all(|(i, b)| *i == leader || b.hi <= lead.lo + epsilon);
        (leader, left.len() == 1 || within)
    }

    /// The best-mean race on the counts so far (while it is open): drops the dice that
    /// cannot be best, records the answer, and tells whether the race is over.
    fn update_best_mean(&mut self, epsilon: f64) -> bool {
        if self.mean_over {
            return true;
        }
        let o = &self.outcome;
        let mean_alpha = o.mean_alpha;
        let (leader, over) = RaceState::eliminate(
            &mut self.mean_active,
            &|i| o.mean_interval(i, mean_alpha).map(|(_, b)| b),
            epsilon,
        );
        let (value, interval) = o
            .mean_interval(leader, mean_alpha)
            .expect("a die in the best-mean race has played every opponent equally often");
        let (_, ci95) = o
            .mean_interval(leader, ALPHA_95)
            .expect("the same games as above");
        let games_per_pair = match &o.screened {
            Some(s) => s[leader].games,
            None => o.pair(leader, if leader == 0 { 1 } else { 0 }).games,
        };
        self.outcome.best_mean = Race {
            leader,
            candidates: RaceState::active(&self.mean_active),
            status: race_status(&self.mean_active, over),
            value,
            interval,
            ci95,
            games_per_pair,
        };
        self.mean_over = over;
        over
    }
}

/// Checks that the dice can be played against each other before any game: the strategy
/// against the profile on one pair (the same for all), and under `roll-off` every pair (two
/// dice that always show the same face never decide who starts).
fn check_matchups(rules: &Rules, family: &Family, config: &RaceConfig) -> Result<(), SearchError> {
    let dice = family.dice();
    let n = dice.len();
    let check = |i: usize, j: usize| {
        config
            .matchup(rules, &dice[i], &dice[j])
            .map(|_| ())
            .map_err(|error| SearchError::Matchup {
                a: dice[i].to_string(),
                b: dice[j].to_string(),
                error,
            })
    };
    check(0, 1)?;
    if rules.profile().roll_off {
        for i in 0..n {
            for j in i + 1..n {
                check(i, j)?;
            }
        }
    }
    Ok(())
}

/// Runs the race over `family` under `rules`. `progress` hears of every chunk's games,
/// `round` of every round before it plays.
pub fn race(
    rules: &Rules,
    family: &Family,
    config: &RaceConfig,
    progress: &(dyn Fn(u64) + Sync),
    round: &dyn Fn(&RoundInfo),
) -> Result<RaceOutcome, SearchError> {
    let state = RaceState::start(family, config);
    let finished = race_from(rules, family, config, state, progress, round, &mut |_| {
        Ok(true)
    })?;
    Ok(finished.outcome)
}

/// Runs the race from `state` (a new one, [`RaceState::start`], or one saved after a
/// round) until it is over or `after_round` returns `false`. `after_round` sees the state
/// after every round (e.g. to save it); its error stops the race. Returns the state
/// reached: [`RaceState::finished`] tells whether the race is over, and then its
/// `outcome` holds the answers.
pub fn race_from(
    rules: &Rules,
    family: &Family,
    config: &RaceConfig,
    mut state: RaceState,
    progress: &(dyn Fn(u64) + Sync),
    round: &dyn Fn(&RoundInfo),
    after_round: &mut dyn FnMut(&RaceState) -> Result<bool, SearchError>,
) -> Result<RaceState, SearchError> {
    let dice = family.dice();
    check_matchups(rules, family, config)?;
    family
        .pairs()
        .checked_mul(config.max_games_per_pair)
        .and_then(|g| {
            // Under screening the dice's sampled games come on top.
            (family.len() as u64)
                .checked_mul(config.max_games_per_die)
                .and_then(|d| g.checked_add(d))
        })
        .ok_or(SearchError::GamesPerPair(config.max_games_per_pair))?;
    let key = StreamKey::new(config.seed);
    let top = config.top.min(family.len());
    while !state.finished {
        let batch = (state.scheduled_chunks / 2).max(1);
        let played = match state.stage {
            Stage::SampledOpponents => {
                // The race on the counts so far first, so that a die just dropped plays no
                // more.
                let over = state.scheduled_chunks > 0 && state.update_best_mean(config.epsilon);
                let cap_chunks = config.max_games_per_die / CHUNK_GAMES;
                let screened = state.outcome.screened.as_ref().expect("screening");
                let work: Vec<(usize, u64, u64)> = RaceState::active(&state.mean_active)
                    .into_iter()
                    .filter_map(|i| {
                        let done = screened[i].games / CHUNK_GAMES;
                        let chunks = batch.min(cap_chunks - done);
                        (chunks > 0).then_some((i, done, chunks))
                    })
                    .collect();
                if over || work.is_empty() {
                    // Stage 1 is over: decided, within epsilon, or every candidate at the
                    // cap (then the answer stays undecided). On to the anchors' pairs.
                    state.mean_over = true;
                    start_anchored_pairs(&mut state, config, top);
                    continue;
                }
                state.outcome.rounds += 1;
                round(&RoundInfo {
                    round: state.outcome.rounds,
                    live_pairs: 0,
                    screened_dice: work.len(),
                    mean_candidates: state.mean_active.iter().filter(|&&a| a).count(),
                    games_so_far: state.outcome.games,
                });
                state.scheduled_chunks += batch;
                let played: Vec<(usize, DieCounts)> = work
                    .par_iter()
                    .map(|&(i, done, chunks)| {
                        let stream = key.with_stream(screening::die_stream(family, i));
                        let mut total = DieCounts::default();
                        for chunk in done..done + chunks {
                            progress(0);
                            let c = screening::play_sampled_chunk(
                                rules, dice, i, config, stream, chunk,
                            );
                            progress(c.games);
                            total.games += c.games;
                            total.wins += c.wins;
                        }
                        (i, total)
                    })
                    .collect();
                let screened = state.outcome.screened.as_mut().expect("screening");
                let mut games = 0u64;
                for (i, c) in played {
                    screened[i].games += c.games;
                    screened[i].wins += c.wins;
                    games += c.games;
                }
                games
            }
            Stage::Pairs => {
                // The first round of the stage plays every pair in play: every answer needs
                // an estimate of each.
                let live: Vec<bool> = if state.scheduled_chunks == 0 {
                    vec![true; state.outcome.counts.len()]
                } else {
                    live_pairs(&mut state, config, top)
                };
                let pair_list = state.outcome.pairs.pairs();
                let cap_chunks = config.max_games_per_pair / CHUNK_GAMES;
                let work: Vec<(usize, u64, u64)> = (0..pair_list.len())
                    .filter(|&k| live[k])
                    .filter_map(|k| {
                        let done = state.outcome.counts[k].games / CHUNK_GAMES;
                        let chunks = batch.min(cap_chunks - done);
                        (chunks > 0).then_some((k, done, chunks))
                    })
                    .collect();
                if work.is_empty() {
                    // Settle the answers on the final counts; a race still open is
                    // undecided.
                    live_pairs(&mut state, config, top);
                    state.finished = true;
                    after_round(&state)?;
                    break;
                }
                state.outcome.rounds += 1;
                round(&RoundInfo {
                    round: state.outcome.rounds,
                    live_pairs: work.len(),
                    screened_dice: 0,
                    mean_candidates: state.mean_active.iter().filter(|&&a| a).count(),
                    games_so_far: state.outcome.games,
                });
                state.scheduled_chunks += batch;
                let n = family.len();
                let played: Vec<(usize, PairCounts)> = work
                    .par_iter()
                    .map(|&(k, done, chunks)| {
                        let (i, j) = pair_list[k];
                        let matchup = config
                            .matchup(rules, &dice[i], &dice[j])
                            .expect("checked before the first round");
                        // The pair's stream is its index among all pairs, in every design.
                        let stream = key.with_stream(pair_index(n, i, j) as u64);
                        let counts =
                            play_chunks(&matchup, stream, done..done + chunks, u64::MAX, progress)
                                .total();
                        (
                            k,
                            PairCounts {
                                games: counts.games,
                                a_wins: counts.a_wins,
                                b_wins: counts.b_wins,
                            },
                        )
                    })
                    .collect();
                let mut games = 0u64;
                for (k, c) in played {
                    let pair = &mut state.outcome.counts[k];
                    pair.games += c.games;
                    pair.a_wins += c.a_wins;
                    pair.b_wins += c.b_wins;
                    games += c.games;
                }
                games
            }
        };
        state.outcome.games = state
            .outcome
            .games
            .checked_add(played)
            .expect("at most pairs * max_games_per_pair + dice * max_games_per_die games, checked to fit in u64");
        // The answers on the round's counts, so that a saved state's answers are those of
        // its own counts (the next round's updates find them unchanged: they are
        // idempotent on the same counts, so the path of the race is the same).
        settle(&mut state, config).expect("a round leaves every race with a candidate");
        if !after_round(&state)? {
            break;
        }
    }
    Ok(state)
}

/// Brings the answers of `state` (leaders, candidates, Condorcet, top dice) up to its
/// counts, as the next round's start would. Idempotent: on the same counts the races drop
/// no further die (the best lower bound stays) and every answer is a function of the
/// counts and the candidates. `Err` names why a state (read back from a file) has no
/// answer: a race left without a candidate that has an interval.
pub(crate) fn settle(state: &mut RaceState, config: &RaceConfig) -> Result<(), String> {
    let o = &state.outcome;
    if !state.mean_over
        && (state.scheduled_chunks > 0 || state.stage == Stage::Pairs)
        && !RaceState::active(&state.mean_active)
            .into_iter()
            .any(|i| o.mean_interval(i, o.mean_alpha).is_some())
    {
        return Err("no die left in the best-mean race has an estimate".into());
    }
    if !state.maximin_over && !state.maximin_active.contains(&true) {
        return Err("no die is left in the maximin race".into());
    }
    match state.stage {
        // Before the first round of stage 1 there are no counts to answer from.
        Stage::SampledOpponents if state.scheduled_chunks == 0 => {}
        Stage::SampledOpponents => {
            state.update_best_mean(config.epsilon);
        }
        Stage::Pairs => {
            live_pairs(state, config, config.top.min(state.outcome.n));
        }
    }
    Ok(())
}

/// Screening: stage 1 is over; the anchors are the leader and the dice of highest mean
/// estimate, and stage 2 races their pairs, with the pair risk spread over them.
fn start_anchored_pairs(state: &mut RaceState, config: &RaceConfig, top: usize) {
    let o = &mut state.outcome;
    let means: Vec<f64> = (0..o.n).map(|i| o.mean_estimate(i)).collect();
    let anchors = screening::choose_anchors(o.best_mean.leader, &means, top);
    o.pairs = PairSet::anchored(o.n, anchors);
    o.counts = vec![PairCounts::default(); o.pairs.len()];
    o.pair_alpha = config.error_probability / 2.0 / (2 * o.pairs.len()) as f64;
    state.stage = Stage::Pairs;
    state.scheduled_chunks = 0;
}

impl Race {
    /// A race that has not started: every die a candidate.
    fn open(n: usize) -> Race {
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

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_nan() {
            s.serialize_none()
        } else {
            s.serialize_some(x)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// The 95 % risk of the `ci95` figures.
const ALPHA_95: f64 = 0.05;

/// Updates every race on the counts so far and returns the pairs (by slot) that must play
/// on.
fn live_pairs(state: &mut RaceState, config: &RaceConfig, top: usize) -> Vec<bool> {
    // Best mean (kept as it was once over: the leader's pairs may play on for other
    // questions, after which its games are no longer balanced).
    let mean_over = state.update_best_mean(config.epsilon);
    let n = state.outcome.n;
    let o = &state.outcome;
    let mut live = vec![false; o.counts.len()];
    let mut mark = |i: usize, j: usize| {
        if let Some(s) = o.pairs.slot(i, j) {
            live[s] = true;
        }
    };
    // Maximin.
    let mut maximin = None;
    if !state.maximin_over {
        let (leader, over) = RaceState::eliminate(
            &mut state.maximin_active,
            &|i| Some(o.worst(i).1),
            config.epsilon,
        );
        let (value, interval) = o.worst(leader);
        let ci95 = o.worst_at(leader, ALPHA_95).1;
        let games_per_pair = o
            .pairs
            .opponents(leader)
            .into_iter()
            .map(|j| o.pair(leader, j).games)
            .max()
            .unwrap_or(0);
        maximin = Some(Race {
            leader,
            candidates: RaceState::active(&state.maximin_active),
            status: race_status(&state.maximin_active, over),
            value,
            interval,
            ci95,
            games_per_pair,
        });
        state.maximin_over = over;
    }
    let maximin_over = state.maximin_over;
    // Condorcet: a die is out once another die beats it; only a die whose every pair is in
    // play can be shown to beat all.
    let beaten: Vec<bool> = (0..n)
        .map(|c| {
            o.pairs
                .opponents(c)
                .into_iter()
                .any(|j| o.figure(j, c).beats())
        })
        .collect();
    let winner = (0..n).find(|&c| {
        o.pairs.full_row(c)
            && o.pairs
                .opponents(c)
                .into_iter()
                .all(|j| o.figure(c, j).beats())
    });
    let candidates: Vec<usize> = (0..n).filter(|&c| !beaten[c]).collect();
    let condorcet = match winner {
        Some(c) => Condorcet::Winner(c),
        None if candidates.is_empty() => Condorcet::None,
        None => Condorcet::Undecided(candidates.clone()),
    };
    // The top dice by mean estimate, for the cycles: under screening the anchors, whose
    // pairs are all in play.
    let mut mean_of = vec![0.0; n];
    for (i, m) in mean_of.iter_mut().enumerate() {
        *m = o.mean_estimate(i);
    }
    let by_mean_of = |i: usize| mean_of[i];
    let mut pool: Vec<usize> = match o.pairs.anchors() {
        Some(anchors) => anchors.to_vec(),
        None => (0..n).collect(),
    };
    pool.sort_by(|&a, &b| mean_of[b].total_cmp(&mean_of[a]).then(a.cmp(&b)));
    let top_dice: Vec<usize> = pool.into_iter().take(top).collect();

    let round_robin = config.design == Design::RoundRobin;
    let all_over = mean_over
        && maximin_over
        && !matches!(condorcet, Condorcet::Undecided(_))
        && top_dice.iter().enumerate().all(|(a, &i)| {
            top_dice[a + 1..]
                .iter()
                .all(|&j| !o.figure(i, j).undecided())
        });
    if round_robin {
        if !all_over {
            live.fill(true);
        }
    } else {
        if !mean_over {
            for i in RaceState::active(&state.mean_active) {
                o.pairs.opponents(i).into_iter().for_each(|j| mark(i, j));
            }
        }
        if !maximin_over {
            // Each candidate's pair with the lowest upper bound (it decides how soon the
            // die can be dropped); the two leaders' every pair that can still be their
            // worst (they decide the lower bound the others are measured against).
            // Each die's worst case computed once: O(n) per die.
            let mut active: Vec<(usize, Interval)> = RaceState::active(&state.maximin_active)
                .into_iter()
                .map(|i| (i, o.worst(i).1))
                .collect();
            active.sort_by(|a, b| b.1.lo.total_cmp(&a.1.lo));
            // While the best lower bound is 0 no upper bound can fall below it, so the
            // others' pairs would play in vain until the leaders' pairs raise it. (With a die
            // that lets no game end, such as 6,6,6,6,6,6, it stays 0: every die's worst case
            // is 0, and this saves the cap's games for every die.)
            let best_lo = active.first().map_or(0.0, |a| a.1.lo);
            for (rank, &(i, worst)) in active.iter().enumerate() {
                let others = o.pairs.opponents(i).into_iter();
                if rank < 2 {
                    others
                        .filter(|&j| o.p(i, j).1.lo <= worst.hi)
                        .for_each(|j| mark(i, j));
                } else if best_lo <= 0.0 {
                    continue;
                } else if let Some(j) =
                    others.min_by(|&a, &b| o.p(i, a).1.hi.total_cmp(&o.p(i, b).1.hi))
                {
                    mark(i, j);
                }
            }
        }
        if let Condorcet::Undecided(cands) = &condorcet {
            // Each candidate's undecided pair most likely to show it beaten; every
            // undecided pair of the candidate with the highest mean (the likely winner).
            let favourite = cands
                .iter()
                .copied()
                .max_by(|&a, &b| by_mean_of(a).total_cmp(&by_mean_of(b)).then(b.cmp(&a)));
            for &c in cands {
                let undecided = o
                    .pairs
                    .opponents(c)
                    .into_iter()
                    .filter(|&j| o.figure(c, j).undecided());
                if Some(c) == favourite {
                    undecided.for_each(|j| mark(c, j));
                } else if let Some(j) = undecided.min_by(|&a, &b| {
                    o.figure(c, a)
                        .share_interval
                        .hi
                        .total_cmp(&o.figure(c, b).share_interval.hi)
                }) {
                    mark(c, j);
                }
            }
        }
        for (a, &i) in top_dice.iter().enumerate() {
            for &j in &top_dice[a + 1..] {
                if o.figure(i, j).undecided() {
                    mark(i, j);
                }
            }
        }
    }
    let o = &mut state.outcome;
    if let Some(race) = maximin {
        o.maximin = race;
    }
    o.condorcet = condorcet;
    o.top = top_dice;
    live
}

fn race_status(flags: &[bool], over: bool) -> RaceStatus {
    match (flags.iter().filter(|&&a| a).count(), over) {
        (1, _) => RaceStatus::Decided,
        (_, true) => RaceStatus::WithinEpsilon,
        _ => RaceStatus::Undecided,
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
