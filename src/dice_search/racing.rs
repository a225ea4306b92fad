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
//! convergence experiments ([`crate::stats::cs_half_width_at`]): with
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
use super::config::{Design, RaceConfig};
use super::family::Family;
use super::outcome::{ALPHA_95, Condorcet, PairCounts, Race, RaceOutcome, RaceStatus};
pub use super::pairs::{PairSet, pair_index};
use super::screening::{self, DieCounts};
use crate::rules::Rules;
use crate::sim::{CHUNK_GAMES, StreamKey, play_chunks};
use crate::stats::Interval;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

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

/// Checks that the dice can be played against each other before any game, in time linear
/// in the dice (a screened family has millions): the strategy against the profile and
/// with every die (consecutive pairs hold every die, and whether a strategy plays a die
/// depends on the die alone: `strong-search` looks ahead over its faces), and under
/// `roll-off` the first pair of dice that always show the same face (they never decide who
/// starts; no other pair fails), found among the dice of a single value.
fn check_matchups(rules: &Rules, family: &Family, config: &RaceConfig) -> Result<(), SearchError> {
    let dice = family.dice();
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
    for i in 1..dice.len() {
        check(i - 1, i)?;
    }
    if rules.profile().roll_off {
        // The first die of each single value; the first failing pair in pair order is the
        // one whose first die comes first, with the next die of its value.
        let mut first_of = std::collections::HashMap::new();
        let mut failing: Option<(usize, usize)> = None;
        for (j, die) in dice.iter().enumerate() {
            let faces = die.faces();
            if faces.iter().any(|&f| f != faces[0]) {
                continue;
            }
            let i = *first_of.entry(faces[0]).or_insert(j);
            if i != j && failing.is_none_or(|(first, _)| i < first) {
                failing = Some((i, j));
            }
        }
        if let Some((i, j)) = failing {
            check(i, j)?;
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
