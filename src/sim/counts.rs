//! The counts of a duel: games per chunk, and the outcomes split by who started.

use super::game::GameEnd;
use crate::rules::Player;
use crate::stats::{self, Interval};
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
    pub(crate) fn record(&mut self, end: GameEnd) {
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
    /// Counts one game that `first` started.
    pub(crate) fn record(&mut self, first: Player, end: GameEnd) {
        let side = if first == 0 {
            &mut self.a_started
        } else {
            &mut self.b_started
        };
        side.record(end);
    }

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
