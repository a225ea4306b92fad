//! `play`: one game, roll by roll. The table is the narration `play` has always printed;
//! the JSON form is the same game as data: the dice, board, profile, seed, who starts, and
//! one entry per roll.

use super::{CsvTable, Format, Report};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// A move: from a field (`B` for the waiting area) to a field, in the mover's numbering
/// (the names the table prints, e.g. `A`, `17`, `c`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayMove {
    /// The field the piece left (`B`: brought in from the waiting area).
    pub from: String,
    /// The field the piece reached.
    pub to: String,
}

/// A piece captured by a roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayCapture {
    /// Whose piece (`A`, `B`, `C` or `D`).
    pub player: String,
    /// Its field, in its owner's numbering.
    pub field: String,
}

/// One roll of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayTurn {
    /// The roll's number, from 1.
    pub roll: u64,
    /// Who rolled (`A`, `B`, `C` or `D`).
    pub player: String,
    /// The face rolled.
    pub face: u32,
    /// The move made; `null` when no piece could move.
    #[serde(rename = "move")]
    pub movement: Option<PlayMove>,
    /// The rule that chose the move (`brought in`, `clears the start field`, `frontmost
    /// that can move`, `chosen`); `null` without a move or at a table of 3 or 4.
    pub rule: Option<String>,
    /// The legal moves where the roll left a choice (as `5->8`); empty otherwise.
    pub choices: Vec<String>,
    /// The piece captured, if any.
    pub captured: Option<PlayCapture>,
    /// The same player rolls again.
    pub rolls_again: bool,
    /// The player this roll made the winner, if it won the game.
    pub winner: Option<String>,
    /// Every player's pieces after the roll, as the table describes them.
    pub pieces: BTreeMap<String, String>,
}

/// One game of `play`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayReport {
    /// The dice, seat A first.
    pub dice: Vec<String>,
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile.
    pub profile: String,
    /// The seed of the game's random stream.
    pub seed: u64,
    /// Who rolls first.
    pub first: String,
    /// Each seat's strategy (two players; `null` at a table of 3 or 4, which plays the rules'
    /// own moves).
    pub strategies: Option<Vec<String>>,
    /// Every player's pieces before the first roll.
    pub start: BTreeMap<String, String>,
    /// The rolls, in order.
    pub turns: Vec<PlayTurn>,
    /// How the game ended: `won`, `never_ends` (nobody can ever move again) or `max_rolls`.
    pub end: String,
    /// The winner, if any.
    pub winner: Option<String>,
    /// The text `play --format table` prints.
    #[serde(skip)]
    pub table: String,
}

impl Report for PlayReport {
    const FORMATS: &'static [Format] = &[Format::Table, Format::Json];

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.table.as_bytes())
    }

    fn csv(&self) -> Option<CsvTable> {
        None
    }
}
