//! Running a table: chunks of rounds in parallel (eight games at once where the rules pick
//! every move, see [`super::lanes`]), and the stopping rules of a run. Apart from the table
//! itself ([`super::table`]), which the lanes read, so that the one does not import the
//! other back.

use super::lanes::path::LanesPath;
use super::plan::{DuelPlan, MAX_GAMES, PILOT_GAMES, PlanError, Stopping};
use super::stream::StreamKey;
use super::table::{Table, TableCounts, TableError, TableStop};
use crate::stats;
use rayon::prelude::*;

impl Table<'_> {
    /// The rounds of chunk `chunk` when `total_rounds` rounds are played in all (the last
    /// chunk cut), as [`Table::play_chunks`] plays them.
    pub(crate) fn rounds_of_chunk(&self, chunk: u64, total_rounds: u64) -> u64 {
        let chunk_rounds = self.chunk_games() / self.round_games();
        chunk_rounds.min(total_rounds.saturating_sub(chunk.saturating_mul(chunk_rounds)))
    }

    /// Plays chunks `chunks` in parallel (the last cut to `total_rounds` rounds in all) and
    /// adds them up; `progress` is told the games of each chunk, and 0 before each chunk
    /// starts, fused as in [`super::play_chunks`]: a caller that gives up unwinds from there
    /// and no thread starts another chunk.
    ///
    /// The games are played on the path of [`LanesPath::current`].
    pub fn play_chunks(
        &self,
        key: StreamKey,
        chunks: std::ops::Range<u64>,
        total_rounds: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> TableCounts {
        self.play_chunks_on(LanesPath::current(), key, chunks, total_rounds, progress)
    }

    /// [`Table::play_chunks`] on `path` (which must [run here](LanesPath::runs_here)): the
    /// same counts on every path, for benchmarks that set the paths side by side.
    pub fn play_chunks_on(
        &self,
        path: LanesPath,
        key: StreamKey,
        chunks: std::ops::Range<u64>,
        total_rounds: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> TableCounts {
        if path != LanesPath::Scalar
            && super::lanes::table::available(self)
            && chunks.end.saturating_sub(chunks.start) >= super::lanes::MIN_CHUNKS as u64
        {
            // As for a duel: groups of chunks dealt to eight lanes, the same counts.
            let rounds_of = |chunk| self.rounds_of_chunk(chunk, total_rounds);
            return super::lanes::sized_groups(chunks, rounds_of)
                .map(|group| {
                    progress(0);
                    let counts = super::lanes::play_group(
                        &group,
                        TableCounts::new(self.seats().players()),
                        |group| {
                            super::lanes::table::play(path, self, key, group)
                                .expect("a path with lanes")
                        },
                        |chunk, rounds| self.play_chunk(key, chunk, rounds),
                    );
                    progress(counts.games);
                    counts
                })
                .panic_fuse()
                .reduce(|| TableCounts::new(self.seats().players()), |a, b| a + b);
        }
        chunks
            .into_par_iter()
            .map(|chunk| {
                progress(0);
                let rounds = self.rounds_of_chunk(chunk, total_rounds);
                let counts = self.play_chunk(key, chunk, rounds);
                progress(rounds * self.round_games());
                counts
            })
            .panic_fuse()
            .reduce(|| TableCounts::new(self.seats().players()), |a, b| a + b)
    }

    /// Checks a fixed game count for this table: a positive multiple of
    /// [`Table::round_games`] and at most [`MAX_GAMES`].
    pub fn check_games(&self, games: u64) -> Result<u64, TableError> {
        if games == 0 || !games.is_multiple_of(self.round_games()) {
            return Err(TableError::Games {
                games,
                seatings: self.round_games(),
            });
        }
        if games > MAX_GAMES {
            return Err(PlanError::TooManyGames(games).into());
        }
        Ok(games)
    }

    /// A stopping rule for this table: exactly `games` games ([`Table::check_games`]), or
    /// until every die's 95 % half-width is at most `precision` (checked as
    /// [`Stopping::precision`] checks a duel's).
    pub fn stopping(&self, games: Option<u64>, precision: f64) -> Result<TableStop, TableError> {
        match games {
            Some(n) => Ok(TableStop::Games(self.check_games(n)?)),
            None => {
                Stopping::precision(precision)?;
                Ok(TableStop::Precision(precision))
            }
        }
    }

    /// Plays the table to `stop`. Under a precision rule every die's 95 % half-width is
    /// checked before the counts are returned.
    ///
    /// The precision rule is the duel's ([`super::games_for_precision`]): a pilot fixes the
    /// sample size from the largest variance bound of any die's P(win) over its 99.9 %
    /// interval; if the widest interval is still too wide, the table extends to the
    /// worst-case size, which needs no estimate.
    ///
    /// As a duel does, a table measures its speed on its first games (the pilot, or the
    /// first [`PILOT_GAMES`] of a fixed count) and refuses to play on if the rest would take
    /// longer than [`MAX_RUN_TIME`](super::plan::MAX_RUN_TIME) ([`PlanError::TooLong`]).
    pub fn run(
        &self,
        key: StreamKey,
        stop: TableStop,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<TableCounts, TableError> {
        let started = web_time::Instant::now();
        match stop {
            TableStop::Games(games) => {
                let games = self.check_games(games)?;
                let rounds = games / self.round_games();
                let chunks = games.div_ceil(self.chunk_games());
                // The first chunks measure the speed, as a duel's do.
                let first = chunks.min(PILOT_GAMES.div_ceil(self.chunk_games()));
                let counts = self.play_chunks(key, 0..first, rounds, progress);
                DuelPlan {
                    games,
                    played: counts.games,
                    elapsed: started.elapsed(),
                }
                .check_time()?;
                Ok(counts + self.play_chunks(key, first..chunks, rounds, progress))
            }
            TableStop::Precision(h) => {
                Stopping::precision(h)?;
                let uncut = u64::MAX;
                let pilot_chunks = PILOT_GAMES.div_ceil(self.chunk_games());
                let mut counts = self.play_chunks(key, 0..pilot_chunks, uncut, progress);
                let mut done = pilot_chunks;
                let variance = (0..self.dice().len())
                    .map(|i| {
                        let bracket = stats::wilson(counts.wins_of(i), counts.games, stats::Z999);
                        stats::max_variance(&bracket)
                    })
                    .fold(0.0, f64::max);
                let planned = self.whole_chunks(h, variance)?.max(counts.games);
                DuelPlan {
                    games: planned,
                    played: counts.games,
                    elapsed: started.elapsed(),
                }
                .check_time()?;
                for target in [planned, self.whole_chunks(h, 0.25)?] {
                    let target_chunks = target / self.chunk_games();
                    if target_chunks > done {
                        counts =
                            counts + self.play_chunks(key, done..target_chunks, uncut, progress);
                        done = target_chunks;
                    }
                    if counts.widest_half_width() <= h {
                        break;
                    }
                }
                let reached = counts.widest_half_width();
                if reached <= h {
                    Ok(counts)
                } else {
                    Err(TableError::PrecisionNotReached {
                        claimed: h,
                        reached,
                    })
                }
            }
        }
    }

    /// The games a half-width needs at a variance bound, in whole chunks, within the cap.
    fn whole_chunks(&self, half_width: f64, variance: f64) -> Result<u64, TableError> {
        let too_fine = || PlanError::PrecisionTooFine {
            half_width,
            games: stats::Z95 * stats::Z95 * variance / (half_width * half_width),
        };
        let games = stats::games_for_half_width(variance, half_width, stats::Z95)
            .and_then(|n| {
                n.div_ceil(self.chunk_games())
                    .checked_mul(self.chunk_games())
            })
            .ok_or_else(too_fine)?;
        if games > MAX_GAMES {
            return Err(too_fine().into());
        }
        Ok(games)
    }
}
