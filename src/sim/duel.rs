//! Many games of one matchup, in parallel, with paired starts.

use super::game::{GameEnd, Matchup};
use super::stats::{self, Interval};
use super::stream::StreamKey;
use crate::rules::Player;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::Add;

/// Pairs of games per chunk: one random stream, one unit of parallel work.
///
/// Large enough that rayon's scheduling cost vanishes (about a millisecond of work), small
/// enough that two cores stay balanced and `--precision` overshoots by little.
pub const CHUNK_PAIRS: u64 = 512;

/// Games per chunk (each pair is one game with A starting and one with B starting).
pub const CHUNK_GAMES: u64 = 2 * CHUNK_PAIRS;

/// Outcomes of the games in which one given player started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StartCounts {
    /// Games played.
    pub games: u64,
    /// Games die A won.
    pub a_wins: u64,
    /// Games die B won.
    pub b_wins: u64,
    /// Games that hit the roll cap or were proven never-ending.
    pub unfinished: u64,
    /// Of the unfinished games, those proven never-ending.
    pub endless: u64,
    /// Rolls in all finished games.
    pub rolls: u64,
}

impl StartCounts {
    fn record(&mut self, end: GameEnd) {
        self.games += 1;
        match end {
            GameEnd::Won { winner, rolls } => {
                self.rolls += rolls;
                if winner == 0 {
                    self.a_wins += 1;
                } else {
                    self.b_wins += 1;
                }
            }
            GameEnd::Capped => self.unfinished += 1,
            GameEnd::Endless => {
                self.unfinished += 1;
                self.endless += 1;
            }
        }
    }
}

impl Add for StartCounts {
    type Output = StartCounts;
    fn add(self, o: StartCounts) -> StartCounts {
        StartCounts {
            games: self.games + o.games,
            a_wins: self.a_wins + o.a_wins,
            b_wins: self.b_wins + o.b_wins,
            unfinished: self.unfinished + o.unfinished,
            endless: self.endless + o.endless,
            rolls: self.rolls + o.rolls,
        }
    }
}

/// Outcomes split by who started. Integer counts, so adding chunks in any order gives the
/// same totals: the reason results do not depend on the number of threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DuelCounts {
    /// Games in which die A started.
    pub a_started: StartCounts,
    /// Games in which die B started.
    pub b_started: StartCounts,
}

impl Add for DuelCounts {
    type Output = DuelCounts;
    fn add(self, o: DuelCounts) -> DuelCounts {
        DuelCounts {
            a_started: self.a_started + o.a_started,
            b_started: self.b_started + o.b_started,
        }
    }
}

impl DuelCounts {
    /// All games.
    pub fn total(&self) -> StartCounts {
        self.a_started + self.b_started
    }

    /// P(A wins) estimated over all games.
    pub fn p_a(&self) -> f64 {
        ratio(self.total().a_wins, self.total().games)
    }

    /// P(B wins) estimated over all games.
    pub fn p_b(&self) -> f64 {
        ratio(self.total().b_wins, self.total().games)
    }

    /// 95 % Wilson interval for P(A wins).
    pub fn ci95_a(&self) -> Interval {
        stats::wilson(self.total().a_wins, self.total().games, stats::Z95)
    }

    /// 95 % Wilson interval for P(B wins).
    pub fn ci95_b(&self) -> Interval {
        stats::wilson(self.total().b_wins, self.total().games, stats::Z95)
    }
}

fn ratio(k: u64, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    }
}

/// Plays chunk `chunk` of a duel: `pairs` pairs of games from the chunk's own stream.
///
/// With alternating starts each pair is one game with A starting and one with B starting;
/// under `roll-off` each game's starter is rolled out and a pair is just two games.
pub fn play_chunk(matchup: &Matchup, key: StreamKey, chunk: u64, pairs: u64) -> DuelCounts {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the features the function is compiled for were just detected.
        return unsafe { play_chunk_bmi2(matchup, key, chunk, pairs) };
    }
    play_chunk_portable(matchup, key, chunk, pairs)
}

/// [`play_chunk`] compiled for processors with BMI2, LZCNT and POPCNT (x86_64 since about
/// 2013): the rules are all variable shifts and bit counts, which these instructions do
/// in one step each. The same source as the portable version, selected at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
fn play_chunk_bmi2(matchup: &Matchup, key: StreamKey, chunk: u64, pairs: u64) -> DuelCounts {
    play_chunk_portable(matchup, key, chunk, pairs)
}

#[inline(always)]
fn play_chunk_portable(matchup: &Matchup, key: StreamKey, chunk: u64, pairs: u64) -> DuelCounts {
    let mut rng = key.rng(chunk);
    let mut counts = DuelCounts::default();
    for _ in 0..pairs {
        for default_first in [0 as Player, 1] {
            let first = matchup
                .first_player(default_first, &mut rng)
                .expect("roll-off decidability is checked before simulating");
            let end = matchup.play(first, &mut rng);
            let side = if first == 0 {
                &mut counts.a_started
            } else {
                &mut counts.b_started
            };
            side.record(end);
        }
    }
    counts
}

/// Plays chunks `chunks` (each [`CHUNK_PAIRS`] pairs, the last one cut to `total_pairs`)
/// in parallel and adds them up. `progress` is told how many games each chunk played.
pub fn play_chunks(
    matchup: &Matchup,
    key: StreamKey,
    chunks: std::ops::Range<u64>,
    total_pairs: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelCounts {
    chunks
        .into_par_iter()
        .map(|chunk| {
            let pairs = CHUNK_PAIRS.min(total_pairs.saturating_sub(chunk * CHUNK_PAIRS));
            let counts = play_chunk(matchup, key, chunk, pairs);
            progress(2 * pairs);
            counts
        })
        .reduce(DuelCounts::default, |a, b| a + b)
}

/// How long a duel runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stopping {
    /// Exactly this many games (even: each die starts half of them).
    Games(u64),
    /// Until the 95 % interval of P(A wins) has at most this half-width
    /// (see [`games_for_precision`] for the rule).
    Precision(f64),
}

/// Games of the pilot stage of the precision rule: 20 chunks.
pub const PILOT_GAMES: u64 = 20 * CHUNK_GAMES;

/// The sample size the precision rule fixes after the pilot stage.
///
/// # The rule, and why it keeps its coverage
/// Stopping the first time a data-dependent interval looks narrow enough is optional
/// stopping: it tends to stop when the estimate happens to sit where the interval is
/// narrowest, and coverage falls below the nominal 95 %. This rule instead decides the
/// sample size once, before the games that make up the answer are looked at again:
///
/// 1. a pilot of [`PILOT_GAMES`] games gives a 99.9 % Wilson interval for p;
/// 2. the Bernoulli variance p(1-p) is bounded by its largest value over that interval;
/// 3. N = z95^2 * bound / H^2 games are played in total (at least the pilot), and the
///    answer is the Wilson interval over all N games.
///
/// The bound exceeds the true variance with probability about 0.999, so the final
/// interval's half-width is at most H in all but rare cases, and the sample size hardly
/// depends on where the final estimate lands (the pilot is a small fraction of N), which
/// keeps the coverage at its fixed-N value. If the final half-width still exceeds H, the
/// duel extends to the worst-case size z95^2 / (4 H^2), which needs no estimate at all.
/// The experiments (`converge --stopping`) measure the resulting coverage.
pub fn games_for_precision(pilot: &DuelCounts, half_width: f64) -> u64 {
    let total = pilot.total();
    let bracket = stats::wilson(total.a_wins, total.games, stats::Z999);
    let needed = stats::games_for_half_width(stats::max_variance(&bracket), half_width, stats::Z95);
    round_up_to_chunks(needed.max(total.games))
}

/// The worst-case sample size for a half-width: p(1-p) <= 1/4.
pub fn worst_case_games(half_width: f64) -> u64 {
    round_up_to_chunks(stats::games_for_half_width(0.25, half_width, stats::Z95))
}

fn round_up_to_chunks(games: u64) -> u64 {
    games.div_ceil(CHUNK_GAMES) * CHUNK_GAMES
}

/// Runs a duel to the given stopping rule.
pub fn run_duel(
    matchup: &Matchup,
    key: StreamKey,
    stopping: Stopping,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelCounts {
    match stopping {
        Stopping::Games(games) => {
            let pairs = games / 2;
            play_chunks(
                matchup,
                key,
                0..pairs.div_ceil(CHUNK_PAIRS),
                pairs,
                progress,
            )
        }
        Stopping::Precision(h) => {
            let pilot_chunks = PILOT_GAMES / CHUNK_GAMES;
            let all_pairs = u64::MAX / 4;
            let mut counts = play_chunks(matchup, key, 0..pilot_chunks, all_pairs, progress);
            let mut chunks_done = pilot_chunks;
            for target in [games_for_precision(&counts, h), worst_case_games(h)] {
                let target_chunks = target / CHUNK_GAMES;
                if target_chunks > chunks_done {
                    counts = counts
                        + play_chunks(
                            matchup,
                            key,
                            chunks_done..target_chunks,
                            all_pairs,
                            progress,
                        );
                    chunks_done = target_chunks;
                }
                if counts.ci95_a().half_width() <= h {
                    break;
                }
            }
            counts
        }
    }
}
