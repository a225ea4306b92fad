//! The rules of "Mensch ärgere Dich nicht" as RULES.md states them: board, profile, state
//! and the one function that applies a rolled face. The simulator, the game viewer and the
//! exact solver all call [`Rules::play_roll`]; no other module knows the rules.

mod board;
mod profile;
mod seats;
mod state;
mod turn;

pub use board::{Board, BoardError};
pub use profile::{Profile, ProfileError};
pub use seats::{MAX_SEATS, SeatState, SeatTurn, Seats, SeatsError, TABLE_SWITCHES};
pub use state::{GameState, Player};
pub use turn::{IllegalMove, LegalMoves, MoveRule, PieceMove, RollOutcome, Rules, Turn};
