//! Solved matchups kept on disk, so that a long exact ranking can be resumed and two
//! rankings that share a pair solve it once.
//!
//! An exact ranking of `wuerfel1.txt` on the full board takes about an hour; one of
//! `wuerfel3.txt` longer. [`PairStore`] writes every solved pair to its own JSON file as
//! soon as it is solved and, before solving, looks for a file solved under the same board,
//! profile and dice with a tolerance at least as tight. Everything a record is matched on
//! is written into it and compared field by field on reading, so a renamed or hand-edited
//! file is refused, never trusted; a file that cannot be read is an error naming it, never
//! silently replaced.

use super::ExactResult;
use crate::dice::Die;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The version tag of a record: a file without it, or with another, is refused.
const FORMAT: &str = "wuerfelglueck exact pair 1";

/// A directory of solved pairs.
#[derive(Clone, Debug)]
pub struct PairStore {
    dir: PathBuf,
}

/// One solved pair, as written to disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredPair {
    /// The record format tag, `wuerfelglueck exact pair 1`.
    pub format: String,
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile, e.g. `bwinf`.
    pub profile: String,
    /// Die A's faces, in the order given.
    pub a: Vec<u32>,
    /// Die B's faces.
    pub b: Vec<u32>,
    /// The tolerance the pair was solved to.
    pub tolerance: f64,
    /// Which solver produced it, e.g. `matrix-free, f32 storage`.
    pub solver: String,
    /// Under `f32` storage: the iteration stopped before the tolerance was reached.
    pub stalled: bool,
    /// The result with its certified intervals.
    pub result: ExactResult,
}

/// A store that cannot be read or written.
#[derive(Debug)]
pub struct StoreError {
    /// The file or directory.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for StoreError {}

impl StoredPair {
    /// A record of `result`, solved for `a` against `b` under `rules` to `tolerance`.
    pub fn new(
        rules: &Rules,
        a: &Die,
        b: &Die,
        tolerance: f64,
        solver: String,
        stalled: bool,
        result: ExactResult,
    ) -> Self {
        StoredPair {
            format: FORMAT.to_string(),
            board: rules.board().to_string(),
            profile: rules.profile().to_string(),
            a: a.faces().to_vec(),
            b: b.faces().to_vec(),
            tolerance,
            solver,
            stalled,
            result,
        }
    }

    /// Whether this record answers `a` against `b` under `rules` to `tolerance`: the same
    /// board, profile and faces, solved to the same or a tighter tolerance.
    fn answers(&self, rules: &Rules, a: &Die, b: &Die, tolerance: f64) -> bool {
        self.board == rules.board().to_string()
            && self.profile == rules.profile().to_string()
            && self.a == a.faces()
            && self.b == b.faces()
            && self.tolerance <= tolerance
    }
}

impl PairStore {
    /// The store in `dir`, created (with its parents) if it does not exist.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError {
            path: dir.to_path_buf(),
            message: format!("cannot create the directory: {e}"),
        })?;
        Ok(PairStore {
            dir: dir.to_path_buf(),
        })
    }

    /// The file of a pair: readable, and distinct for every board, profile and pair of dice
    /// (`/` of the board becomes `-`; the dice as [`Die`]'s display, which reads back).
    pub fn path(&self, rules: &Rules, a: &Die, b: &Die) -> PathBuf {
        let board = rules.board().to_string().replace('/', "-");
        self.dir
            .join(format!("{}_{board}_{a}_vs_{b}.json", rules.profile()))
    }

    /// The stored answer for `a` against `b`, if there is one solved to `tolerance` or
    /// tighter. A file that exists but cannot be read, is not a record, or is a record of
    /// another matchup is an error.
    pub fn load(
        &self,
        rules: &Rules,
        a: &Die,
        b: &Die,
        tolerance: f64,
    ) -> Result<Option<StoredPair>, StoreError> {
        let path = self.path(rules, a, b);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(error(&path, format!("cannot read: {e}"))),
        };
        let record: StoredPair = serde_json::from_str(&text)
            .map_err(|e| error(&path, format!("not a solved-pair record: {e}")))?;
        if record.format != FORMAT {
            return Err(error(
                &path,
                format!("format {:?}, expected {FORMAT:?}", record.format),
            ));
        }
        let loose = StoredPair {
            tolerance: f64::INFINITY,
            ..record.clone()
        };
        if !loose.answers(rules, a, b, f64::INFINITY) {
            return Err(error(
                &path,
                format!(
                    "holds {} vs {} on {} ({}), not the pair its name says; move it away",
                    faces(&record.a),
                    faces(&record.b),
                    record.board,
                    record.profile
                ),
            ));
        }
        Ok(record.answers(rules, a, b, tolerance).then_some(record))
    }

    /// Writes `record` to its file (through a temporary file and a rename, so an
    /// interrupted run never leaves half a record). Replaces only a record of the same pair,
    /// which [`PairStore::load`] found too coarse.
    pub fn save(
        &self,
        record: &StoredPair,
        rules: &Rules,
        a: &Die,
        b: &Die,
    ) -> Result<(), StoreError> {
        let path = self.path(rules, a, b);
        let tmp = path.with_extension("json.partial");
        let text = serde_json::to_string_pretty(record)
            .map_err(|e| error(&path, format!("cannot encode: {e}")))?;
        std::fs::write(&tmp, text + "\n").map_err(|e| error(&tmp, format!("cannot write: {e}")))?;
        std::fs::rename(&tmp, &path).map_err(|e| error(&path, format!("cannot write: {e}")))
    }
}

fn error(path: &Path, message: String) -> StoreError {
    StoreError {
        path: path.to_path_buf(),
        message,
    }
}

fn faces(faces: &[u32]) -> String {
    Die::new(faces.to_vec()).map_or_else(|_| format!("{faces:?}"), |d| d.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::SolveOptions;
    use crate::exact::matrix_free::solve_fitting;
    use crate::rules::{Board, Profile};

    fn small() -> Rules {
        Rules::new("12/6/2/2".parse::<Board>().unwrap(), Profile::BWINF)
    }

    fn dice() -> (Die, Die) {
        ("1..6".parse().unwrap(), "2..7".parse().unwrap())
    }

    fn solved(rules: &Rules, a: &Die, b: &Die, tolerance: f64) -> StoredPair {
        let options = SolveOptions {
            tolerance,
            ..SolveOptions::default()
        };
        let fitted = solve_fitting(rules, a, b, &options).unwrap();
        StoredPair::new(
            rules,
            a,
            b,
            tolerance,
            fitted.solver.to_string(),
            fitted.stalled,
            fitted.result,
        )
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wg-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_saved_pair_reads_back_for_the_same_or_a_looser_tolerance_only() {
        let dir = temp_dir("roundtrip");
        let store = PairStore::open(&dir).unwrap();
        let rules = small();
        let (a, b) = dice();
        assert!(store.load(&rules, &a, &b, 1e-9).unwrap().is_none());
        let record = solved(&rules, &a, &b, 1e-9);
        store.save(&record, &rules, &a, &b).unwrap();
        assert_eq!(
            store.load(&rules, &a, &b, 1e-9).unwrap(),
            Some(record.clone())
        );
        assert_eq!(store.load(&rules, &a, &b, 1e-6).unwrap(), Some(record));
        assert!(store.load(&rules, &a, &b, 1e-12).unwrap().is_none());
        // The reverse pair, another board, another profile: other files, nothing found.
        assert!(store.load(&rules, &b, &a, 1e-9).unwrap().is_none());
        let goal_last = Rules::new(*rules.board(), "bwinf+goal-last".parse().unwrap());
        assert!(store.load(&goal_last, &a, &b, 1e-9).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_is_not_the_pair_it_names_is_refused() {
        let dir = temp_dir("refuse");
        let store = PairStore::open(&dir).unwrap();
        let rules = small();
        let (a, b) = dice();
        // A record of b against a, under a's-against-b file name.
        let other = solved(&rules, &b, &a, 1e-9);
        let path = store.path(&rules, &a, &b);
        std::fs::write(&path, serde_json::to_string(&other).unwrap()).unwrap();
        let e = store.load(&rules, &a, &b, 1e-9).unwrap_err();
        assert_eq!(e.path, path);
        assert!(e.message.contains("2..7 vs 1..6"), "{e}");
        // Not JSON at all.
        std::fs::write(&path, "half a record").unwrap();
        let e = store.load(&rules, &a, &b, 1e-9).unwrap_err();
        assert!(e.message.contains("not a solved-pair record"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
