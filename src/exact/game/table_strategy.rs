//! `table:FILE`: a policy written by the exact solver (`solve --profile choice
//! --policy-out FILE`), played move by move: the [`MoveTable`] behind
//! [`Strategy::Table`].
//!
//! The file is read and validated when the strategy is parsed
//! ([`super::file::read`]: format, checksum, and every entry a legal move of
//! the game its header names). The header names board, profile and both dice; the table
//! can only be played in that game, which [`MoveTable::check_game`] checks (the
//! commands call it before any game).
//!
//! [`Strategy`]'s [`FromStr`] lives here, where both the strategies and the policy files
//! are visible: [`crate::strategy::parse_with`] with [`TableStrategy::load`].

use super::exact_strategy::ExactStrategy;
use super::file::{self, LoadedPolicy, PolicyFileError};
use super::space::GameSpace;
use crate::dice::Die;
use crate::rules::{Board, LegalMoves, PieceMove, Player, Profile, Rules};
use crate::strategy::{Loaders, MoveTable, Strategy, StrategyError, parse_with};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

/// A loaded policy file.
pub struct TableStrategy {
    path: PathBuf,
    rules: Rules,
    dice: [Die; 2],
    policy: LoadedPolicy,
}

impl std::fmt::Debug for TableStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableStrategy({})", self.path.display())
    }
}

impl PartialEq for TableStrategy {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.policy.header == other.policy.header
    }
}

impl TableStrategy {
    /// Reads and validates the policy file at `path`, for the game its header names.
    pub fn load(path: &Path) -> Result<TableStrategy, PolicyFileError> {
        let header = file::read_header(path)?;
        let invalid =
            |what: String| PolicyFileError::Invalid(format!("{}: header: {what}", path.display()));
        let board: Board = header
            .board
            .parse()
            .map_err(|e| invalid(format!("board: {e}")))?;
        let profile: Profile = header
            .profile
            .parse()
            .map_err(|e| invalid(format!("profile: {e}")))?;
        let die = |text: &str| -> Result<Die, PolicyFileError> {
            text.parse().map_err(|e| invalid(format!("die: {e}")))
        };
        let dice = [die(&header.die_a)?, die(&header.die_b)?];
        let rules = Rules::new(board, profile);
        let policy = file::read(path, &rules, [&dice[0], &dice[1]])?;
        Ok(TableStrategy {
            path: path.to_path_buf(),
            rules,
            dice,
            policy,
        })
    }

    /// The optimal pair's policy of a solve held in memory (no file), for the game it was
    /// solved for; `None` when the solve extracted no policy (`GameRun::extract_policy`).
    /// Its path, shown in messages, is `(solved in memory)`.
    pub fn solved(
        rules: &Rules,
        dice: [&Die; 2],
        solution: super::solve::GameSolution,
    ) -> Option<TableStrategy> {
        let table = solution.policy?;
        let header = file::header(
            rules,
            dice,
            ["optimal".into(), "optimal".into()],
            &solution.space,
            &table,
        );
        Some(TableStrategy {
            path: PathBuf::from("(solved in memory)"),
            rules: *rules,
            dice: [dice[0].clone(), dice[1].clone()],
            policy: LoadedPolicy {
                header,
                table,
                space: solution.space,
            },
        })
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The loaded table and its game's space.
    pub fn policy(&self) -> &LoadedPolicy {
        &self.policy
    }
}

impl MoveTable for TableStrategy {
    fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses a game other than the one the table was solved for: board, profile and
    /// die A, die B in this order.
    fn check_game(&self, rules: &Rules, dice: [&Die; 2]) -> Result<(), String> {
        if *rules != self.rules || dice[0] != &self.dice[0] || dice[1] != &self.dice[1] {
            return Err(format!(
                "policy file {} was solved for board {}, profile {}, A = {}, B = {}; this game \
                 is board {}, profile {}, A = {}, B = {}",
                self.path.display(),
                self.rules.board(),
                self.rules.profile(),
                self.dice[0],
                self.dice[1],
                rules.board(),
                rules.profile(),
                dice[0],
                dice[1]
            ));
        }
        Ok(())
    }

    /// The table's move for `mover` (pieces `own`) against `other` with the moves `legal`;
    /// the frontmost move if the position is not one of the table's game (which
    /// [`MoveTable::check_game`] rules out).
    fn choose(&self, own: u64, other: u64, mover: Player, legal: &LegalMoves) -> Option<PieceMove> {
        let space: &GameSpace = &self.policy.space;
        let masks = if mover == 0 {
            [own, other]
        } else {
            [other, own]
        };
        let found = (|| {
            let a = space.players[0].configs.index(masks[0])? as usize;
            let b = space.players[1].configs.index(masks[1])? as usize;
            let index = space.index(a, b, mover);
            let slot = space
                .faces(index)
                .iter()
                .position(|&(f, _)| f == legal.face())?;
            legal.iter().nth(self.policy.table.get(index, slot))
        })();
        debug_assert!(found.is_some(), "a position outside the table's game");
        found.or_else(|| legal.frontmost())
    }

    fn same_table(&self, other: &dyn MoveTable) -> bool {
        (other as &dyn Any)
            .downcast_ref::<TableStrategy>()
            .is_some_and(|other| self == other)
    }
}

impl FromStr for Strategy {
    type Err = StrategyError;

    /// Parses a strategy name ([`crate::strategy::STRATEGY_NAMES`]) or `table:FILE`, a
    /// policy file read and validated by [`TableStrategy::load`] (see
    /// [`crate::strategy::parse_with`]).
    fn from_str(s: &str) -> Result<Strategy, StrategyError> {
        parse_with(
            s,
            &Loaders {
                table: &|path| {
                    TableStrategy::load(path)
                        .map(|t| Arc::new(t) as Arc<dyn MoveTable>)
                        .map_err(|e| e.to_string())
                },
                exact: &|dir| {
                    ExactStrategy::load(dir, crate::exact::shared::memory::default_limit())
                        .map(|t| Arc::new(t) as Arc<dyn MoveTable>)
                },
            },
        )
    }
}
