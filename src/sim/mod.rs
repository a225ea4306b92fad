//! Monte Carlo: games played with the rules engine, in parallel chunks with reproducible
//! random streams; the intervals around every estimate come from [`crate::stats`].

mod counts;
mod duel;
pub(crate) mod game;
mod lanes;
mod plan;
mod stream;
mod style;
mod table;
mod table_run;

/// The statistics, now [`crate::stats`]; kept under the old path.
pub use crate::stats;
pub use counts::{CHUNK_GAMES, CHUNK_PAIRS, DuelCounts, StartCounts};
pub use duel::{SimError, play_chunk, play_chunks, play_chunks_on, run_duel, run_duel_announced};
pub use game::{GameEnd, Matchup, MatchupError, cannot_move, never_ends, roll_off_can_decide};
pub use lanes::path::{LANES_VARIABLE, LanesError, LanesPath};
pub use plan::{
    DuelPlan, MAX_GAMES, PILOT_GAMES, PlanError, Stopping, StoppingRule, finest_precision,
    games_for_precision, worst_case_games,
};
pub use stream::{GameRng, StreamKey, splitmix64};
pub use style::{DuelStyle, TableStyle, duel_style, table_style};
pub use table::{
    Seating, Table, TableCounts, TableEnd, TableError, TableStop, permutations, table_never_ends,
};
