//! `table:FILE`: a strategy that plays the moves of a table, as the simulator sees it.
//!
//! The simulator needs two things of a table: its move in a position, and whether it
//! belongs to the game being played. [`MoveTable`] is that much; the table read from a
//! policy file written by the exact solver (`solve --profile choice --policy-out FILE`)
//! implements it in the exact layer (`exact::game::TableStrategy`), which also parses
//! `table:FILE` (through [`super::parse_with`]).

use crate::dice::Die;
use crate::rules::{LegalMoves, PieceMove, Player, Rules};
use std::any::Any;
use std::fmt;
use std::path::Path;

/// A table of moves, one per decision of one game: what [`super::Strategy::Table`] plays.
pub trait MoveTable: Send + Sync + fmt::Debug + Any {
    /// The file it was read from (the strategy is named `table:` and this path).
    fn path(&self) -> &Path;

    /// The strategy's name: `table:` and the path.
    fn name(&self) -> String {
        format!("table:{}", self.path().display())
    }

    /// Refuses a game other than the one the table was made for: board, profile and
    /// die A, die B in this order.
    fn check_game(&self, rules: &Rules, dice: [&Die; 2]) -> Result<(), String>;

    /// The table's move for `mover` (pieces `own`) against `other` with the moves `legal`;
    /// `None` where the table holds no move for the position (a policy file holds every
    /// position of its game, which [`MoveTable::check_game`] checks; the values of a
    /// layered solve leave out the groups not solved).
    fn choose(&self, own: u64, other: u64, mover: Player, legal: &LegalMoves) -> Option<PieceMove>;

    /// Whether `other` is the same table: the equality of [`super::Strategy`].
    fn same_table(&self, other: &dyn MoveTable) -> bool;
}

impl PartialEq for dyn MoveTable {
    fn eq(&self, other: &Self) -> bool {
        self.same_table(other)
    }
}
