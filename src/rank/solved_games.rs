//! Whole games solved before by the layered solver (`solve --layered --values-out DIR`):
//! an exact ranking reads such a pair at its openings instead of solving it. That is how
//! pairs are ranked whose core no machine at hand can solve (the BwInf board under
//! `choice`), from values made elsewhere, on MPI ranks.

use crate::dice::Die;
use crate::exact::game::layered::LayeredValues;
use crate::exact::{ExactError, SolverUsed};
use crate::rank::store::StoredPair;
use crate::rules::Rules;
use std::path::{Path, PathBuf};

/// The values folders of whole games, one per pair of dice at most, each checked to be a
/// game of the ranking's rules and of two of its dice.
#[derive(Clone, Debug, Default)]
pub struct SolvedGames {
    folders: Vec<SolvedGame>,
}

/// One folder and the game its files name.
#[derive(Clone, Debug)]
struct SolvedGame {
    dir: PathBuf,
    dice: [Die; 2],
}

impl SolvedGame {
    /// Whether this is the game of `a` against `b`: `Some(false)` with `a` as A,
    /// `Some(true)` the other way round, `None` if it is another pair's.
    fn order_of(&self, a: &Die, b: &Die) -> Option<bool> {
        if self.dice[0] == *a && self.dice[1] == *b {
            Some(false)
        } else if self.dice[0] == *b && self.dice[1] == *a {
            Some(true)
        } else {
            None
        }
    }
}

impl SolvedGames {
    /// Reads the game each of `dirs` names. Refused, naming the folder: a folder without
    /// group files (or with files that name different games), a game of other rules than
    /// `rules`, of dice not both among `dice`, without the openings' group (a part), or a
    /// pair that another folder holds already.
    pub fn open(dirs: &[PathBuf], rules: &Rules, dice: &[Die]) -> Result<SolvedGames, String> {
        let mut folders: Vec<SolvedGame> = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let (game_rules, game_dice, _) =
                LayeredValues::game_of(dir).map_err(|e| e.to_string())?;
            if game_rules != *rules {
                return Err(format!(
                    "{}: a game on board {} under profile {}, not the ranking's {} under {}",
                    dir.display(),
                    game_rules.board(),
                    game_rules.profile(),
                    rules.board(),
                    rules.profile()
                ));
            }
            if let Some(die) = game_dice.iter().find(|d| !dice.contains(d)) {
                return Err(format!(
                    "{}: the game of {} against {}, and {die} is not one of the dice ranked",
                    dir.display(),
                    game_dice[0],
                    game_dice[1]
                ));
            }
            if !LayeredValues::openings_file(dir).exists() {
                return Err(format!(
                    "{}: no values of the openings' group (where neither side has a piece \
                     home; {} is missing): a ranking needs the whole game, solved without \
                     --part",
                    dir.display(),
                    LayeredValues::openings_file(dir).display()
                ));
            }
            if let Some(other) = folders
                .iter()
                .find(|other| other.order_of(&game_dice[0], &game_dice[1]).is_some())
            {
                return Err(format!(
                    "{} and {} both hold the game of {} against {}: give one",
                    other.dir.display(),
                    dir.display(),
                    game_dice[0],
                    game_dice[1]
                ));
            }
            folders.push(SolvedGame {
                dir: dir.clone(),
                dice: game_dice,
            });
        }
        Ok(SolvedGames { folders })
    }

    /// Whether no folder was given.
    pub fn is_empty(&self) -> bool {
        self.folders.is_empty()
    }

    /// Whether a folder holds the game of `a` against `b` (either way round).
    pub fn holds(&self, a: &Die, b: &Die) -> bool {
        self.find(a, b).is_some()
    }

    /// The folder of `a` against `b`, and whether it holds the game the other way round.
    fn find(&self, a: &Die, b: &Die) -> Option<(&Path, bool)> {
        self.folders
            .iter()
            .find_map(|g| g.order_of(a, b).map(|swapped| (g.dir.as_path(), swapped)))
    }

    /// The record of `a` (as A) against `b` from its folder, and the folder: `None` where no
    /// folder holds the pair. An error where the folder's files fail their checks, do not hold the
    /// openings' group (the values of a `--part` only), or where some play from the
    /// openings can go on forever (the value alone does not give the figures then).
    pub fn record(
        &self,
        rules: &Rules,
        a: &Die,
        b: &Die,
    ) -> Result<Option<(StoredPair, &Path)>, ExactError> {
        let Some((dir, swapped)) = self.find(a, b) else {
            return Ok(None);
        };
        let values = LayeredValues::open_dir(dir)?;
        let at = values.at_openings(swapped)?.ok_or_else(|| {
            ExactError::ValuesFile(format!(
                "{}: no values of the openings' group (where neither side has a piece home): \
                 a ranking needs the whole game, solved without --part",
                dir.display()
            ))
        })?;
        let figures = at.figures.ok_or_else(|| {
            ExactError::ValuesFile(format!(
                "{}: some play from the openings can go on forever, so the value [{:.9}, {:.9}] \
                 does not give P(A wins) alone",
                dir.display(),
                at.value.lo,
                at.value.hi
            ))
        })?;
        let record = StoredPair::new(
            rules,
            a,
            b,
            values.tolerance(),
            // The figures of optimal play, as a ranking's records under `choice` must be
            // (the note on the pair names the folder).
            SolverUsed::GameOptimal.to_string(),
            values.reports().iter().any(|r| r.stalled),
            figures,
        );
        Ok(Some((record, dir)))
    }
}
