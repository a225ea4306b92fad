//! Many games of one matchup, in parallel, with paired starts.

use super::counts::{CHUNK_GAMES, CHUNK_PAIRS, DuelCounts};
use super::game::{self, Matchup, MatchupError};
use super::lanes;
use super::lanes::path::LanesPath;
use super::plan::{
    DuelPlan, PILOT_GAMES, PlanError, Stopping, StoppingRule, games_for_precision, worst_case_games,
};
use super::stream::StreamKey;
use crate::rules::Player;
use rayon::prelude::*;
use std::fmt;
use web_time::Instant;

/// Plays chunk `chunk` of a duel: `pairs` pairs of games from the chunk's own stream.
///
/// With alternating starts each pair is one game with A starting and one with B starting;
/// under `roll-off` each game's starter is rolled out and a pair is just two games.
pub fn play_chunk(matchup: &Matchup, key: StreamKey, chunk: u64, pairs: u64) -> DuelCounts {
    play_chunk_watched(matchup, key, chunk, pairs, &|| {})
}

/// [`play_chunk`] that calls `checkpoint` before every pair of games of the strategies'
/// loop (a [`Matchup`] whose players choose their moves), so that a caller that gives up
/// unwinds from there: a strategy that searches plays a chunk for many seconds (about 25 s
/// for `strong-search-2` on the BwInf board), where the other loops play one in about a
/// millisecond and are never interrupted. The same games and counts as [`play_chunk`].
pub(super) fn play_chunk_watched(
    matchup: &Matchup,
    key: StreamKey,
    chunk: u64,
    pairs: u64,
    checkpoint: &dyn Fn(),
) -> DuelCounts {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the features the function is compiled for were just detected.
        return unsafe { play_chunk_bmi2(matchup, key, chunk, pairs, checkpoint) };
    }
    play_chunk_portable(matchup, key, chunk, pairs, checkpoint)
}

/// [`play_chunk`] compiled for processors with BMI2, LZCNT and POPCNT (x86_64 since about
/// 2013): the rules are all variable shifts and bit counts, which these instructions do
/// in one step each. The same source as the portable version, selected at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
fn play_chunk_bmi2(
    matchup: &Matchup,
    key: StreamKey,
    chunk: u64,
    pairs: u64,
    checkpoint: &dyn Fn(),
) -> DuelCounts {
    play_chunk_portable(matchup, key, chunk, pairs, checkpoint)
}

/// [`play_chunk`], one copy of the chunk loop for each copy of the game loop: each then
/// has its own generator, which stays in registers. (With one chunk loop around all three
/// game loops, the strategies' loop, which lends the generator to a strategy, kept it in
/// memory for the others too: measured 4 instructions more per roll.)
#[inline(always)]
fn play_chunk_portable(
    matchup: &Matchup,
    key: StreamKey,
    chunk: u64,
    pairs: u64,
    checkpoint: &dyn Fn(),
) -> DuelCounts {
    match matchup.how() {
        game::PLAIN => play_chunk_as::<{ game::PLAIN }>(matchup, key, chunk, pairs, checkpoint),
        game::BY_RULES => {
            play_chunk_as::<{ game::BY_RULES }>(matchup, key, chunk, pairs, checkpoint)
        }
        _ => play_chunk_as::<{ game::CHOOSING }>(matchup, key, chunk, pairs, checkpoint),
    }
}

#[inline(always)]
fn play_chunk_as<const HOW: u8>(
    matchup: &Matchup,
    key: StreamKey,
    chunk: u64,
    pairs: u64,
    checkpoint: &dyn Fn(),
) -> DuelCounts {
    let mut rng = key.rng(chunk);
    let mut counts = DuelCounts::default();
    for _ in 0..pairs {
        if HOW == game::CHOOSING {
            checkpoint();
        }
        for default_first in [0 as Player, 1] {
            let first = matchup.first_player(default_first, &mut rng);
            counts.record(first, matchup.play_game::<HOW, _>(first, &mut rng));
        }
    }
    counts
}

/// Plays chunks `chunks` (each [`CHUNK_PAIRS`] pairs, the last one cut to `total_pairs`)
/// in parallel and adds them up. `progress` is told how many games each chunk played, and
/// told 0 before each chunk starts: a caller that gives up (the Python package on Ctrl-C)
/// unwinds from there, so no further chunk is played. The iteration is fused
/// ([`ParallelIterator::panic_fuse`]): once one thread unwinds, the others start no chunk.
/// (Without the fuse rayon still runs the halves it had split off, each down to its first
/// report: hundreds of thousands of unwindings, seconds of a core, for 10^11 games.)
///
/// The counts cannot overflow in any run that can finish: a plan has at most
/// [`MAX_GAMES`](super::plan::MAX_GAMES) games, and their rolls stay far below `u64::MAX`.
///
/// The games are played on the path of [`LanesPath::current`].
pub fn play_chunks(
    matchup: &Matchup,
    key: StreamKey,
    chunks: std::ops::Range<u64>,
    total_pairs: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelCounts {
    play_chunks_on(
        LanesPath::current(),
        matchup,
        key,
        chunks,
        total_pairs,
        progress,
    )
}

/// [`play_chunks`] on `path` (which must [run here](LanesPath::runs_here)): the same counts
/// on every path, for benchmarks that set the paths side by side.
///
/// # Panics
///
/// If `path` does not run on this processor.
pub fn play_chunks_on(
    path: LanesPath,
    matchup: &Matchup,
    key: StreamKey,
    chunks: std::ops::Range<u64>,
    total_pairs: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelCounts {
    let pairs_of =
        |chunk: u64| CHUNK_PAIRS.min(total_pairs.saturating_sub(chunk.saturating_mul(CHUNK_PAIRS)));
    if path != LanesPath::Scalar
        && lanes::duel::available(matchup)
        && chunks.end.saturating_sub(chunks.start) >= lanes::MIN_CHUNKS as u64
    {
        // Groups of chunks, each group's chunks dealt to eight lanes: the same counts,
        // chunk for chunk.
        return lanes::sized_groups(chunks, pairs_of)
            .map(|group| {
                progress(0);
                let counts = lanes::play_group(
                    &group,
                    DuelCounts::default(),
                    |group| {
                        lanes::duel::play(path, matchup, key, group).expect("a path with lanes")
                    },
                    |chunk, pairs| play_chunk(matchup, key, chunk, pairs),
                );
                progress(2 * group.iter().map(|&(_, pairs)| pairs).sum::<u64>());
                counts
            })
            .panic_fuse()
            .reduce(DuelCounts::default, |a, b| a + b);
    }
    chunks
        .into_par_iter()
        .map(|chunk| {
            progress(0);
            let pairs = pairs_of(chunk);
            let counts = play_chunk_watched(matchup, key, chunk, pairs, &|| progress(0));
            progress(2 * pairs);
            counts
        })
        .panic_fuse()
        .reduce(DuelCounts::default, |a, b| a + b)
}

/// Why a duel could not give its answer.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// The two dice cannot be played against each other (see [`Matchup::new`]).
    Matchup(MatchupError),
    /// The sample size the pilot implies cannot run (see [`games_for_precision`]).
    Plan(PlanError),
    /// The precision rule ended wider than it promised. The worst-case extension makes
    /// this impossible in exact arithmetic; it is checked so that no answer ever claims a
    /// precision it did not reach.
    PrecisionNotReached {
        /// The half-width promised.
        claimed: f64,
        /// The half-width reached.
        reached: f64,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Matchup(e) => write!(f, "{e}"),
            SimError::Plan(e) => write!(f, "{e}"),
            SimError::PrecisionNotReached { claimed, reached } => write!(
                f,
                "the games played reached a half-width of {reached:.2e} only, not the {claimed:e} asked for"
            ),
        }
    }
}

impl std::error::Error for SimError {}

impl From<MatchupError> for SimError {
    fn from(e: MatchupError) -> SimError {
        SimError::Matchup(e)
    }
}

impl From<PlanError> for SimError {
    fn from(e: PlanError) -> SimError {
        SimError::Plan(e)
    }
}

/// Runs a duel to the given stopping rule.
///
/// Under [`StoppingRule::Precision`] the answer is checked before it is returned: its
/// 95 % half-width is at most the one promised, or the result is an error.
pub fn run_duel(
    matchup: &Matchup,
    key: StreamKey,
    stopping: Stopping,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DuelCounts, SimError> {
    run_duel_announced(matchup, key, stopping, progress, &|_| {})
}

/// [`run_duel`] that also tells `announce` how many games the duel will play and how fast
/// the first ones went, once: after the pilot (precision rule) or after the first
/// [`PILOT_GAMES`] games (fixed count). The counts are the same as [`run_duel`]'s.
///
/// A plan that would take longer than [`MAX_RUN_TIME`](super::plan::MAX_RUN_TIME) at the
/// speed of those first games is refused there, before the rest is played
/// ([`PlanError::TooLong`]).
///
/// What a duel holds while it plays does not grow with its games: the counts, and per
/// thread one chunk's game (or one group of chunks for the lanes) at a time.
pub fn run_duel_announced(
    matchup: &Matchup,
    key: StreamKey,
    stopping: Stopping,
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&DuelPlan) + Sync),
) -> Result<DuelCounts, SimError> {
    let started = Instant::now();
    let pilot_chunks = PILOT_GAMES / CHUNK_GAMES;
    match stopping.rule() {
        StoppingRule::Games(games) => {
            let pairs = games / 2;
            let chunks = pairs.div_ceil(CHUNK_PAIRS);
            let first = chunks.min(pilot_chunks);
            let counts = play_chunks(matchup, key, 0..first, pairs, progress);
            let plan = DuelPlan {
                games,
                played: counts.total().games,
                elapsed: started.elapsed(),
            };
            plan.check_time()?;
            announce(&plan);
            Ok(counts + play_chunks(matchup, key, first..chunks, pairs, progress))
        }
        StoppingRule::Precision(h) => {
            // Chunks are never cut: every target is a whole number of chunks.
            let uncut = u64::MAX;
            let mut counts = play_chunks(matchup, key, 0..pilot_chunks, uncut, progress);
            let mut chunks_done = pilot_chunks;
            let planned = games_for_precision(&counts, h)?;
            let plan = DuelPlan {
                games: planned,
                played: counts.total().games,
                elapsed: started.elapsed(),
            };
            plan.check_time()?;
            announce(&plan);
            for target in [planned, worst_case_games(h)?] {
                let target_chunks = target / CHUNK_GAMES;
                if target_chunks > chunks_done {
                    counts = counts
                        + play_chunks(matchup, key, chunks_done..target_chunks, uncut, progress);
                    chunks_done = target_chunks;
                }
                if counts.ci95_a().half_width() <= h {
                    break;
                }
            }
            let reached = counts.ci95_a().half_width();
            if reached <= h {
                Ok(counts)
            } else {
                Err(SimError::PrecisionNotReached {
                    claimed: h,
                    reached,
                })
            }
        }
    }
}
