//! `exact:DIR`: the optimal move read from the group files of a layered solve (`solve
//! --layered --values-out DIR`), wherever every move of the roll leads into a group the
//! folder holds; elsewhere (on 40/20/4/4, the core) a named fallback strategy plays.
//!
//! The folder's files name their game; the strategy plays only that game
//! ([`MoveTable::check_game`]). Every group file is read and checked when the strategy is
//! parsed (not during play, where an unreadable file could only be played around), after a
//! memory check: the values must fit in the default memory limit.

use super::layered::LayeredValues;
use super::space::Target;
use crate::dice::Die;
use crate::rules::{GameState, LegalMoves, PieceMove, Player, Rules};
use crate::strategy::MoveTable;
use std::any::Any;
use std::path::{Path, PathBuf};

/// A loaded values folder, playing the move of highest value for the mover.
pub struct ExactStrategy {
    dir: PathBuf,
    values: std::sync::Arc<LayeredValues>,
}

impl std::fmt::Debug for ExactStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExactStrategy({})", self.dir.display())
    }
}

impl ExactStrategy {
    /// Opens the values folder `dir` and reads every group file in it, checked; refused
    /// when they would keep more than `max_memory` bytes in memory (`None`: no limit;
    /// mapped files keep none: [`LayeredValues::bytes_held_when_loaded`]).
    pub fn load(dir: &Path, max_memory: Option<u64>) -> Result<ExactStrategy, String> {
        let values = LayeredValues::open_dir(dir).map_err(|e| e.to_string())?;
        let bytes = values.bytes_held_when_loaded();
        if let Some(limit) = max_memory.filter(|&limit| bytes > limit) {
            return Err(format!(
                "{}: its group files hold {} of values, read into memory, more than the {} allowed (80 % of this \
                 machine's memory)",
                dir.display(),
                crate::exact::shared::memory::format_bytes(bytes),
                crate::exact::shared::memory::format_bytes(limit)
            ));
        }
        values.load_all().map_err(|e| e.to_string())?;
        Ok(ExactStrategy {
            dir: dir.to_path_buf(),
            values: std::sync::Arc::new(values),
        })
    }

    /// The strategy of values already opened and every group read
    /// ([`LayeredValues::load_all`], which a lookup then never has to do), named
    /// `exact:NAME`.
    pub fn of_loaded(values: std::sync::Arc<LayeredValues>, name: &str) -> ExactStrategy {
        ExactStrategy {
            dir: PathBuf::from(name),
            values,
        }
    }

    /// The values it plays from.
    pub fn values(&self) -> &LayeredValues {
        &self.values
    }

    /// The best move for the mover of `position` rolling `face` by the certified midpoints
    /// (A the highest, B the lowest; the first of equals in the order of the legal moves),
    /// with the value brackets of every legal move; `None` when a move leads where the
    /// folder holds no values, or the position is not one of the game.
    pub fn best_move(&self, position: &GameState, face: u32) -> Option<usize> {
        let space = self.values.space();
        let index = space.encode(position)?;
        let k = space.faces(index).iter().position(|&(f, _)| f == face)?;
        let mut targets = Vec::new();
        space.options(index, k, |m, t| targets.push((m, t)));
        let sign = if position.mover() == 0 { 1.0 } else { -1.0 };
        let mut best: Option<(usize, f64)> = None;
        for (m, t) in targets {
            let value = match t {
                Target::Win(0) => 1.0,
                Target::Win(_) => -1.0,
                // Every file was read when the strategy was loaded: no read fails here.
                Target::Next(j) => self.values.bracket_at(j).ok()??.mid(),
            };
            if best.is_none_or(|(_, v)| sign * value > sign * v) {
                best = Some((m, value));
            }
        }
        best.map(|(m, _)| m)
    }
}

impl MoveTable for ExactStrategy {
    fn path(&self) -> &Path {
        &self.dir
    }

    fn name(&self) -> String {
        format!("exact:{}", self.dir.display())
    }

    /// Refuses a game other than the one the folder's values were solved for.
    fn check_game(&self, rules: &Rules, dice: [&Die; 2]) -> Result<(), String> {
        self.values
            .check_game(rules, dice)
            .map_err(|e| format!("{}: {e}", self.dir.display()))
    }

    /// The best move by the folder's values; `None` where a move leads into a group the
    /// folder does not hold (the fallback strategy plays).
    fn choose(&self, own: u64, other: u64, mover: Player, legal: &LegalMoves) -> Option<PieceMove> {
        let mut pieces = [own, other];
        if mover == 1 {
            pieces.swap(0, 1);
        }
        let position = GameState {
            pieces,
            to_move: mover as u8,
            tries: 0,
        };
        let m = self.best_move(&position, legal.face())?;
        legal.iter().nth(m)
    }

    fn same_table(&self, other: &dyn MoveTable) -> bool {
        (other as &dyn Any)
            .downcast_ref::<ExactStrategy>()
            .is_some_and(|other| self.dir == other.dir && self.values.game() == other.values.game())
    }
}
