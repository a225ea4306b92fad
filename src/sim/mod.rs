//! Monte Carlo: games played with the rules engine, in parallel chunks with reproducible
//! random streams, and the statistics that put an interval around every estimate.

mod duel;
mod game;
pub mod stats;
mod stream;

pub use duel::{
    CHUNK_GAMES, CHUNK_PAIRS, DuelCounts, PILOT_GAMES, StartCounts, Stopping, games_for_precision,
    play_chunk, play_chunks, run_duel, worst_case_games,
};
pub use game::{GameEnd, Matchup, cannot_move, never_ends, roll_off_can_decide};
pub use stream::{GameRng, StreamKey, splitmix64};
