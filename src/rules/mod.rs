//! The rules of "Mensch ärgere Dich nicht" as the book's rules chapter (`docs/src/rules.md`) states
//! them: board, profile, state and the one function that applies a rolled face. The simulator, the
//! game viewer and the exact solver all call [`Rules::play_roll`]; no other module knows the rules.

mod board;
mod profile;
mod seats;
mod state;
mod turn;

pub use board::{Board, BoardError};
pub use profile::{Profile, ProfileError};
pub use seats::{MAX_SEATS, SeatState, SeatTurn, Seats, SeatsError, TABLE_SWITCHES};
pub use state::{GameState, Player};
pub use turn::{
    IllegalMove, LegalMoves, MoveRule, NextPosition, PieceMove, RollOutcome, Rules, Turn,
};

/// Marks the path it is called on as rare: the compiler then keeps a branch there, which
/// the processor predicts, instead of a conditional move, which would make the common
/// case wait for the rare case's work. The simulators mark captures so: without a capture
/// the next player's pieces are known before the current roll's move is, and the next roll
/// starts at once. (`std::hint::cold_path` would say the same, but the crate builds with
/// Rust 1.89.)
#[cold]
#[inline(never)]
pub(crate) fn rare() {}
