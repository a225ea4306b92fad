//! Solved matchups kept on disk, so that a long exact ranking can be resumed and two
//! rankings that share a pair solve it once.
//!
//! An exact ranking of an example file on the full board runs for hours (see
//! `docs/src/performance.md`). [`PairStore`] writes every solved pair to its own JSON file as
//! soon as it is solved and, before solving, looks for the file of the same board, profile
//! and dice. A record is used only if it passes every check below *and* its certified
//! intervals are at most as wide as the tolerance asked for.
//!
//! # The record
//! One JSON object per file ([`StoredPair`]):
//!
//! | field | meaning |
//! |---|---|
//! | `format` | `wuerfelglueck exact pair 2` (or `... 1`, written before the checksum existed) |
//! | `board`, `profile` | e.g. `40/20/4/4`, `bwinf` |
//! | `a`, `b` | the faces of die A and die B, in the order given |
//! | `tolerance` | the tolerance the solve was *asked* for; informative only |
//! | `width_reached` | the largest width of the nine certified intervals (absent in records written
//! before it existed) |
//! | `solver` | which solver produced it, e.g. `matrix-free, f32 storage` |
//! | `stalled` | the solve stopped before it reached `tolerance` (`f32` storage) |
//! | `result` | the [`ExactResult`]: nine figures, their [`Bounds`], the solve's size and cost |
//! | `checksum` | FNV-1a (64 bit) of the record's JSON without this field (format 2) |
//!
//! Whether a record is narrow enough is decided by the width computed from its bounds,
//! never by `tolerance`: a solve that stalled at 2.6e-6 was asked for 1e-9 and says so in
//! `tolerance`. Records without `width_reached` (all those written before it existed) are
//! read as before, with the width computed from their bounds.
//!
//! # Validation on load
//! A record is *bad* ([`BadRecord`]) unless
//! - it parses as a record (a truncated or half-written file does not) of format 2 whose
//!   checksum is that of its content, or of format 1 without a checksum (which, passing
//!   every other check, is read as [`Lookup::Unverified`]: see below);
//! - board, profile and faces are those of the pair its file name is looked up for;
//! - `0 <= p_a_starts <= 1`;
//! - for each of the nine figures, `0 <= lo <= value <= hi <= 1` (all finite; `value` is
//!   the figure as stored, the midpoint of its interval);
//! - for each opening and for the weighted figures, P(A) + P(B) + P(never) = 1 is possible
//!   within the intervals: the lower ends sum to at most 1, the upper ends to at least 1;
//! - the weighted intervals are the mixtures of the two openings' with weight
//!   `p_a_starts`;
//! - `width_reached`, if present, is the width computed from the bounds.
//!
//! The checks against 0, 1 and sums allow [`ROUNDING`] (1e-14, about what `f64` can
//! certify), as the solvers' bounds are sums of rounded products; the order
//! `lo <= value <= hi` is exact, as the solvers clamp and take midpoints. A bad record is
//! treated as missing: [`PairStore::load`] moves it aside to `NAME.json.rejected` (or
//! `.rejected2`, `.rejected3`, ...: an earlier rejected file is never replaced) and reports
//! the problem and the new name in [`Lookup::Rejected`], so the caller can warn and solve
//! the pair again without overwriting anything the user might want to look at. A file
//! that cannot be read at all (permissions, I/O) is an error.
//!
//! # What a record can and cannot guarantee
//! The checks catch a damaged file (truncated, half-written, bits flipped) and any edit by
//! hand that leaves the checksum as it was, however consistent the edited figures are. The
//! checksum is not a signature: whoever edits the figures and computes the checksum again
//! is believed. A record is as trustworthy as the directory it lies in; solve again
//! (without `--store`) to check a record independently.
//!
//! A format-1 record has no checksum, so an edit that keeps its figures plausible (A's and
//! B's figures swapped, which reverses a ranking) cannot be detected by reading it. It is
//! therefore never certified as it stands: [`PairStore::load`] returns it as
//! [`Lookup::Unverified`], and a ranking solves the pair again, compares
//! ([`StoredPair::agrees_with`]: every interval of the new solve meets the record's), says
//! which it found, and writes the new solve's record with a checksum; a record the new
//! solve contradicts is first moved aside as a bad record is. Verified once, a store of
//! format-1 records reads as any other afterwards.
//!
//! # File names
//! `{profile}_{board}_{a}_vs_{b}.json` with `/` of the board as `-` and the dice as
//! [`Die`]'s display with `+` for its commas (`bwinf_40-20-4-4_1..6_vs_2..7.json`). A name
//! longer than [`MAX_NAME_BYTES`] (long dice lists, e.g. 300 faces that are not one run) is
//! replaced by an abbreviated readable part and the FNV-1a hash of the full name
//! (`..._fnv0123456789abcdef.json`), so no name nor its `.rejectedN` companions (nor the
//! temporary files of writing, whose names are shorter) exceed the 255 bytes file systems
//! allow.
//!
//! A die whose display lists faces (`1,1,1,6,6,6`) is spelt with `+` between them
//! (`bwinf_40-20-4-4_1..6_vs_1+1+1+6+6+6.json`), so no name has a comma (they trouble
//! shells, spreadsheets and some tools). Records were written under the display with
//! commas before; such a record is read where no record has the new name
//! ([`PairStore::path`]), never renamed nor removed, and a record written anew for the
//! pair goes under the new name.
//!
//! # Writing
//! [`PairStore::save`] writes a record whole or not at all ([`crate::files::write_atomic`]):
//! a temporary file beside it (`.NAME.json.PID-N.tmp`, the name cut to 64 bytes), flushed
//! to disk and renamed to `NAME.json`, so a crash or a full disk leaves at most a temporary
//! file, which is never read. It refuses to write a record that would fail the checks
//! above. A record is read only if it is a regular file ([`crate::files::read_regular`]).

use crate::dice::Die;
use crate::exact::{Bounds, ExactResult, SolverUsed};
pub use crate::files::{FNV1A_64_START, fnv1a_64, fnv1a_64_continued, json_checksum};
use crate::rules::Rules;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The version tag of the records written: a file without a known tag is a bad record.
const FORMAT: &str = "wuerfelglueck exact pair 2";

/// The tag of the records written before the checksum existed: still read (with every
/// check but the checksum), never written.
const FORMAT_WITHOUT_CHECKSUM: &str = "wuerfelglueck exact pair 1";

/// What the checks of a record allow for rounding: the solvers' bounds are sums of rounded
/// products, and about 1e-14 is what an `f64` probability can certify.
pub const ROUNDING: f64 = 1e-14;

/// The longest record read: two dice of [`crate::dice::MAX_FACES`] faces each, written one
/// number to an indented line (at most 16 bytes a face), fit with room to spare.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// The longest file name of a record, `.json` included. Leaves room for the `.rejected999`
/// (12 bytes) companions within the usual 255-byte limit.
pub const MAX_NAME_BYTES: usize = 240;

/// The most rejected copies of one record kept side by side (`.rejected` to
/// `.rejected999`).
const MAX_REJECTED: usize = 999;

/// A directory of solved pairs.
#[derive(Clone, Debug)]
pub struct PairStore {
    dir: PathBuf,
}

/// One solved pair, as written to disk (see the module documentation for the checks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredPair {
    /// The record format tag, `wuerfelglueck exact pair 2` (`... 1`: an older record
    /// without a checksum).
    pub format: String,
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile, e.g. `bwinf`.
    pub profile: String,
    /// Die A's faces, in the order given.
    pub a: Vec<u32>,
    /// Die B's faces.
    pub b: Vec<u32>,
    /// The tolerance the solve was asked for. Not what it reached (see `width_reached`),
    /// and never used to decide whether the record is narrow enough.
    pub tolerance: f64,
    /// The largest width of the certified intervals, [`certified_width`] of `result`;
    /// `None` in records written before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width_reached: Option<f64>,
    /// Which solver produced it, e.g. `matrix-free, f32 storage`.
    pub solver: String,
    /// Under `f32` storage: the iteration stopped before the tolerance was reached.
    pub stalled: bool,
    /// The result with its certified intervals.
    pub result: ExactResult,
    /// FNV-1a (64 bit, hexadecimal) of the record's JSON without this field
    /// ([`StoredPair::content_checksum`]); absent only in format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
}

/// What [`PairStore::load`] found for a pair.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup {
    /// No record.
    Missing,
    /// A valid record at most as wide as the tolerance asked for.
    Usable(StoredPair),
    /// A valid record, but wider than the tolerance asked for: solve again.
    TooWide(StoredPair),
    /// A bad record, now moved aside: solve again.
    Rejected(Rejection),
    /// A record of format 1, written before the checksum existed, that passes every other
    /// check. Without a checksum an edit that keeps the figures plausible (A's and B's
    /// swapped, say) cannot be told from the solver's own output, so its figures are not
    /// certified: solve the pair again and compare ([`StoredPair::agrees_with`]).
    Unverified(StoredPair),
}

/// A bad record, and where it was moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    /// The file the record was read from.
    pub path: PathBuf,
    /// Where it is now.
    pub moved_to: PathBuf,
    /// What is wrong with it.
    pub problem: BadRecord,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: bad record, not used: {}; moved aside to {}",
            self.path.display(),
            self.problem,
            self.moved_to.display()
        )
    }
}

/// Why a record cannot be trusted.
#[derive(Clone, Debug, PartialEq)]
pub enum BadRecord {
    /// Not a record at all: not JSON, truncated, a field missing or of the wrong type.
    NotARecord(String),
    /// Another format tag.
    Format(String),
    /// A record of another matchup (described as `a vs b on board (profile)`).
    OtherMatchup(String),
    /// `p_a_starts` is not a probability.
    StartWeight(f64),
    /// A figure and its interval violate `0 <= lo <= value <= hi <= 1`.
    Figure {
        /// The figure, e.g. `p_a_if_b_starts`.
        name: &'static str,
        /// Its interval.
        bounds: Bounds,
        /// Its value.
        value: f64,
    },
    /// P(A) + P(B) + P(never) = 1 is impossible within the intervals.
    Sum {
        /// `A starts`, `B starts` or `weighted`.
        start: &'static str,
        /// Sum of the lower ends.
        lo: f64,
        /// Sum of the upper ends.
        hi: f64,
    },
    /// A weighted interval is not the mixture of the openings'.
    Mixture {
        /// The figure, e.g. `p_a`.
        name: &'static str,
        /// As stored.
        stored: Bounds,
        /// The mixture of the openings' intervals.
        mixed: Bounds,
    },
    /// The checksum is missing (format 2) or is not that of the content: the file was
    /// changed after it was written.
    Checksum {
        /// As stored (`None`: missing).
        stored: Option<String>,
        /// Of the content read.
        content: String,
    },
    /// `width_reached` is not the width of the intervals.
    Width {
        /// As stored.
        stored: f64,
        /// From the bounds.
        bounds: f64,
    },
}

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRecord::NotARecord(e) => write!(f, "not a solved-pair record ({e})"),
            BadRecord::Format(tag) => {
                write!(f, "format {:?}, expected {FORMAT:?}", abbreviate(tag, 40))
            }
            BadRecord::OtherMatchup(holds) => {
                write!(f, "holds {holds}, not the pair its name says")
            }
            BadRecord::StartWeight(w) => write!(f, "p_a_starts = {w} is not a probability"),
            BadRecord::Figure {
                name,
                bounds: Bounds { lo, hi },
                value,
            } => {
                if lo.is_nan() || hi.is_nan() || lo > hi {
                    write!(f, "{name}: interval [{lo}, {hi}] has lo > hi")
                } else if !bounds_in_unit(lo, hi) {
                    write!(f, "{name}: interval [{lo}, {hi}] is not inside [0, 1]")
                } else {
                    write!(f, "{name} = {value} lies outside its interval [{lo}, {hi}]")
                }
            }
            BadRecord::Sum { start, lo, hi } => write!(
                f,
                "{start}: P(A) + P(B) + P(never) cannot be 1, its intervals sum to [{lo}, {hi}]"
            ),
            BadRecord::Mixture {
                name,
                stored,
                mixed,
            } => write!(
                f,
                "{name}: interval [{}, {}] is not the mixture [{}, {}] of the two openings",
                stored.lo, stored.hi, mixed.lo, mixed.hi
            ),
            BadRecord::Checksum {
                stored: None,
                content,
            } => write!(f, "no checksum (the content's is {content})"),
            BadRecord::Checksum {
                stored: Some(stored),
                content,
            } => write!(
                f,
                "checksum {} does not match the content's {content} (the file was changed \
                 after it was written)",
                abbreviate(stored, 40)
            ),
            BadRecord::Width { stored, bounds } => write!(
                f,
                "width_reached = {stored:e}, but its intervals are {bounds:e} wide"
            ),
        }
    }
}

impl std::error::Error for BadRecord {}

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

/// The nine figures of `result` with their intervals, by name.
fn figures(result: &ExactResult) -> [(&'static str, f64, Bounds); 9] {
    let b = &result.bounds;
    [
        ("p_a", result.p_a, b.p_a),
        ("p_a_if_a_starts", result.p_a_if_a_starts, b.p_a_if_a_starts),
        ("p_a_if_b_starts", result.p_a_if_b_starts, b.p_a_if_b_starts),
        ("p_b", result.p_b, b.p_b),
        ("p_b_if_a_starts", result.p_b_if_a_starts, b.p_b_if_a_starts),
        ("p_b_if_b_starts", result.p_b_if_b_starts, b.p_b_if_b_starts),
        ("p_never", result.p_never, b.p_never),
        (
            "p_never_if_a_starts",
            result.p_never_if_a_starts,
            b.p_never_if_a_starts,
        ),
        (
            "p_never_if_b_starts",
            result.p_never_if_b_starts,
            b.p_never_if_b_starts,
        ),
    ]
}

/// The width a solve reached: the largest width of the nine certified intervals of
/// `result`.
pub fn certified_width(result: &ExactResult) -> f64 {
    figures(result)
        .iter()
        .map(|(_, _, bounds)| bounds.width())
        .fold(0.0, f64::max)
}

fn bounds_in_unit(lo: &f64, hi: &f64) -> bool {
    -ROUNDING <= *lo && *hi <= 1.0 + ROUNDING
}

/// Checks the figures of `result` as the module documentation lists them.
fn check_figures(result: &ExactResult) -> Result<(), BadRecord> {
    let w = result.p_a_starts;
    if !(0.0..=1.0).contains(&w) {
        return Err(BadRecord::StartWeight(w));
    }
    for (name, value, bounds) in figures(result) {
        // Written so that NaN fails too.
        let Bounds { lo, hi } = bounds;
        if !(lo <= value && value <= hi && bounds_in_unit(&lo, &hi)) {
            return Err(BadRecord::Figure {
                name,
                bounds,
                value,
            });
        }
    }
    let b = &result.bounds;
    let starts = [
        (
            "A starts",
            [b.p_a_if_a_starts, b.p_b_if_a_starts, b.p_never_if_a_starts],
        ),
        (
            "B starts",
            [b.p_a_if_b_starts, b.p_b_if_b_starts, b.p_never_if_b_starts],
        ),
        ("weighted", [b.p_a, b.p_b, b.p_never]),
    ];
    for (start, three) in starts {
        let lo: f64 = three.iter().map(|x| x.lo).sum();
        let hi: f64 = three.iter().map(|x| x.hi).sum();
        if !(lo <= 1.0 + ROUNDING && hi >= 1.0 - ROUNDING) {
            return Err(BadRecord::Sum { start, lo, hi });
        }
    }
    let mixtures = [
        ("p_a", b.p_a, b.p_a_if_a_starts, b.p_a_if_b_starts),
        ("p_b", b.p_b, b.p_b_if_a_starts, b.p_b_if_b_starts),
        (
            "p_never",
            b.p_never,
            b.p_never_if_a_starts,
            b.p_never_if_b_starts,
        ),
    ];
    for (name, stored, if_a, if_b) in mixtures {
        let mixed = if_a.mix(w, &if_b);
        let close = |x: f64, y: f64| (x - y).abs() <= ROUNDING;
        if !(close(stored.lo, mixed.lo) && close(stored.hi, mixed.hi)) {
            return Err(BadRecord::Mixture {
                name,
                stored,
                mixed,
            });
        }
    }
    Ok(())
}

impl StoredPair {
    /// A record of `result`, solved for `a` against `b` under `rules`, asked for
    /// `tolerance`; the width reached is taken from `result`'s bounds.
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
            width_reached: Some(certified_width(&result)),
            solver,
            stalled,
            result,
            checksum: None,
        }
        .with_checksum()
    }

    /// Whether the record carries a checksum (format 2); a format-1 record has none and is
    /// certified only once a new solve agrees with it ([`Lookup::Unverified`]).
    pub fn has_checksum(&self) -> bool {
        self.format == FORMAT
    }

    /// Whether a new solve's figures `fresh` agree with this record's: every certified
    /// interval of one meets the other's (allowing [`ROUNDING`]). Both contain the truth if
    /// both are right, so intervals that do not meet show that one of them is not.
    pub fn agrees_with(&self, fresh: &ExactResult) -> bool {
        let meet = |x: &Bounds, y: &Bounds| x.lo <= y.hi + ROUNDING && y.lo <= x.hi + ROUNDING;
        figures(&self.result)
            .iter()
            .zip(figures(fresh).iter())
            .all(|((_, _, x), (_, _, y))| meet(x, y))
    }

    /// The record with its checksum set to that of its content.
    fn with_checksum(mut self) -> Self {
        self.checksum = Some(self.content_checksum());
        self
    }

    /// FNV-1a (64 bit) of the record's JSON with the checksum left out, in hexadecimal.
    /// The JSON of a record read back is byte for byte the JSON it was written from
    /// (fields in declaration order, floats written shortest and read back exactly).
    pub fn content_checksum(&self) -> String {
        json_checksum(&StoredPair {
            checksum: None,
            ..self.clone()
        })
    }

    /// The width this record's solve reached, from its bounds (not from the stored
    /// fields).
    pub fn certified_width(&self) -> f64 {
        certified_width(&self.result)
    }

    /// Checks the record as the module documentation lists them, for `a` against `b`
    /// under `rules`; returns the width reached.
    pub fn check(&self, rules: &Rules, a: &Die, b: &Die) -> Result<f64, BadRecord> {
        let with_checksum = match self.format.as_str() {
            FORMAT => true,
            FORMAT_WITHOUT_CHECKSUM if self.checksum.is_none() => false,
            _ => return Err(BadRecord::Format(self.format.clone())),
        };
        if self.board != rules.board().to_string()
            || self.profile != rules.profile().to_string()
            || self.a != a.faces()
            || self.b != b.faces()
        {
            return Err(BadRecord::OtherMatchup(format!(
                "{} vs {} on {} ({})",
                faces(&self.a),
                faces(&self.b),
                abbreviate(&self.board, 40),
                abbreviate(&self.profile, 60)
            )));
        }
        // Under choice the figures depend on how the players choose: a ranking's records
        // are of optimal play, and nothing else may be read back as such.
        let optimal = SolverUsed::GameOptimal.to_string();
        if rules.profile().choice && self.solver != optimal {
            return Err(BadRecord::OtherMatchup(format!(
                "figures of the solver '{}' under {}, not of optimal play ('{optimal}')",
                abbreviate(&self.solver, 60),
                abbreviate(&self.profile, 60)
            )));
        }
        check_figures(&self.result)?;
        let width = self.certified_width();
        if let Some(stored) = self.width_reached {
            // Written so that NaN fails too.
            let agrees = (stored - width).abs() <= ROUNDING;
            if !agrees {
                return Err(BadRecord::Width {
                    stored,
                    bounds: width,
                });
            }
        }
        // Last, so that figures that cannot be right are named as such; what is left is an
        // edit that kept every figure plausible.
        if with_checksum {
            let content = self.content_checksum();
            if self.checksum.as_deref() != Some(content.as_str()) {
                return Err(BadRecord::Checksum {
                    stored: self.checksum.clone(),
                    content,
                });
            }
        }
        Ok(width)
    }
}

impl PairStore {
    /// The store in `dir`, created (with its parents) if it does not exist. Refused, with
    /// an error naming `dir`, unless a file can be created in it (a probe file, removed
    /// again): a ranking must not solve for hours and then fail to keep the result.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        let refuse = |what: &str, e: std::io::Error| error(dir, format!("{what}: {e}"));
        if dir.exists() && !dir.is_dir() {
            return Err(error(
                dir,
                "is a file, not a directory: --store names the directory the records go into"
                    .into(),
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| refuse("cannot create the directory", e))?;
        // A fresh file (never one that exists, such as a probe left by a crashed run, or a
        // FIFO, whose opening would wait), as the records' temporary files are.
        let (probe, mut file) = crate::files::create_temporary(dir, "wuerfelglueck-probe")
            .map_err(|e| refuse("cannot write in the directory", e))?;
        let written = file.write_all(b"probe");
        drop(file);
        // Remove the probe even if writing to it failed half way.
        let removed = std::fs::remove_file(&probe);
        written.map_err(|e| refuse("cannot write in the directory", e))?;
        removed.map_err(|e| refuse("cannot remove a file from the directory", e))?;
        Ok(PairStore {
            dir: dir.to_path_buf(),
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of a pair's record: its name is distinct for every board, profile and pair
    /// of dice, readable, without commas, at most [`MAX_NAME_BYTES`] long (see the module
    /// documentation). If no file has that name but one has the name records had before
    /// (the dice with commas, `1,1,1,6,6,6`), that one: a store written then is read as it
    /// is, never renamed. [`PairStore::save`] writes under the new name.
    pub fn path(&self, rules: &Rules, a: &Die, b: &Die) -> PathBuf {
        let path = self.new_path(rules, a, b);
        let legacy = self.dir.join(legacy_file_name(rules, a, b));
        // `symlink_metadata`: a dangling link under the new name is the new name's.
        if legacy != path
            && std::fs::symlink_metadata(&path).is_err()
            && std::fs::symlink_metadata(&legacy).is_ok()
        {
            return legacy;
        }
        path
    }

    /// The file [`PairStore::save`] writes: the name without commas.
    fn new_path(&self, rules: &Rules, a: &Die, b: &Die) -> PathBuf {
        self.dir.join(file_name(rules, a, b))
    }

    /// What the store holds for `a` against `b` under `rules`, for a solve to `tolerance`.
    /// A bad record is moved aside (and reported as [`Lookup::Rejected`]); a file that
    /// cannot be read, one that is not a regular file (a FIFO, which would make the reading
    /// wait forever, a device, a folder; never opened), a dangling symbolic link, or a bad
    /// record that cannot be moved, is an error.
    pub fn load(
        &self,
        rules: &Rules,
        a: &Die,
        b: &Die,
        tolerance: f64,
    ) -> Result<Lookup, StoreError> {
        let path = self.path(rules, a, b);
        // A record is a few kilobytes (more for dice of many faces): a file past the bound
        // is not one, and is not read whole to find that out.
        let bytes = match crate::files::read_regular(&path, Some(MAX_RECORD_BYTES + 1)) {
            Ok(bytes) => bytes,
            // A dangling link would be found only when the solved pair is written.
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && std::fs::symlink_metadata(&path).is_err() =>
            {
                return Ok(Lookup::Missing);
            }
            Err(e) => return Err(error(&path, format!("cannot read: {e}"))),
        };
        let checked = if bytes.len() as u64 > MAX_RECORD_BYTES {
            Err(BadRecord::NotARecord(format!(
                "longer than the {MAX_RECORD_BYTES} bytes a record can have"
            )))
        } else {
            serde_json::from_slice::<StoredPair>(&bytes)
                .map_err(|e| BadRecord::NotARecord(e.to_string()))
        }
        .and_then(|record| record.check(rules, a, b).map(|width| (record, width)));
        match checked {
            Ok((record, _)) if !record.has_checksum() => Ok(Lookup::Unverified(record)),
            Ok((record, width)) if width <= tolerance => Ok(Lookup::Usable(record)),
            Ok((record, _)) => Ok(Lookup::TooWide(record)),
            Err(problem) => {
                let moved_to = move_aside(&path)?;
                Ok(Lookup::Rejected(Rejection {
                    path,
                    moved_to,
                    problem,
                }))
            }
        }
    }

    /// Moves the record of `a` against `b` under `rules` aside, as [`PairStore::load`]
    /// does with a bad one (a record without a checksum that a new solve contradicts), and
    /// returns where it went.
    pub fn move_aside(&self, rules: &Rules, a: &Die, b: &Die) -> Result<PathBuf, StoreError> {
        move_aside(&self.path(rules, a, b))
    }

    /// Writes `record` to the file of `a` against `b` under `rules` (whole or not at all,
    /// [`crate::files::write_atomic`]: a temporary file, flushed to disk, and a rename, so
    /// an interrupted run or a full disk never leaves half a record) and returns its path.
    /// Replaces a record of the same pair that [`PairStore::load`] found too wide (one under
    /// the name with commas stays, and is no longer read); refuses a record that fails its
    /// checks.
    pub fn save(
        &self,
        record: &StoredPair,
        rules: &Rules,
        a: &Die,
        b: &Die,
    ) -> Result<PathBuf, StoreError> {
        let path = self.new_path(rules, a, b);
        record
            .check(rules, a, b)
            .map_err(|e| error(&path, format!("refusing to write a bad record: {e}")))?;
        let text = serde_json::to_string_pretty(record)
            .map_err(|e| error(&path, format!("cannot encode: {e}")))?;
        crate::files::write_atomic(&path, true, |file| {
            file.write_all(text.as_bytes())?;
            file.write_all(b"\n")
        })
        .map_err(|e| match e {
            crate::files::WriteError::Target(e) => error(&path, format!("cannot write: {e}")),
            crate::files::WriteError::Io { error: e, .. } => {
                error(&path, format!("cannot write: {e}"))
            }
        })?;
        Ok(path)
    }
}

/// `{profile}_{board}_{a}_vs_{b}.json` with the faces of a die joined by `+` where its
/// display has commas (`1+1+1+6+6+6`; runs stay `1..6`), or, if that is longer than
/// [`MAX_NAME_BYTES`], an abbreviation of it with the FNV-1a hash of the full name.
fn file_name(rules: &Rules, a: &Die, b: &Die) -> String {
    let die = |d: &Die| d.to_string().replace(',', "+");
    name_from(rules, &die(a), &die(b), '+')
}

/// The name [`file_name`] gave before names had no commas: the dice as their display
/// (`1,1,1,6,6,6`). Read when a record is missing under its name, never written.
fn legacy_file_name(rules: &Rules, a: &Die, b: &Die) -> String {
    name_from(rules, &a.to_string(), &b.to_string(), ',')
}

/// The name of a record from the dice as spelt in it, `separator` the one between faces
/// (where [`abbreviate_at`] cuts a long list).
fn name_from(rules: &Rules, a: &str, b: &str, separator: char) -> String {
    let profile = rules.profile().to_string();
    let board = rules.board().to_string().replace('/', "-");
    let full = format!("{profile}_{board}_{a}_vs_{b}.json");
    if full.len() <= MAX_NAME_BYTES {
        return full;
    }
    let hash = format!("_fnv{:016x}.json", fnv1a_64(full.as_bytes()));
    let readable = format!(
        "{profile}_{board}_{}_vs_{}",
        abbreviate_at(a, 60, separator),
        abbreviate_at(b, 60, separator)
    );
    format!(
        "{}{hash}",
        abbreviate_at(&readable, MAX_NAME_BYTES - hash.len(), separator)
    )
}

/// `text` if it has at most `max` bytes, else its longest prefix that leaves room for a
/// trailing `~`, which marks the cut; cut after a comma if there is one, so that a list of
/// faces does not end in part of a number.
fn abbreviate(text: &str, max: usize) -> String {
    abbreviate_at(text, max, ',')
}

/// [`abbreviate`], cut after a `separator` (the one between faces) instead of a comma.
fn abbreviate_at(text: &str, max: usize, separator: char) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub(1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end]
        .rfind(separator)
        .map_or(end, |at| at + separator.len_utf8());
    format!("{}~", &text[..end])
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Renames the bad record at `path` to the first free `path.rejected`, `path.rejected2`,
/// ...; never replaces an existing file.
fn move_aside(path: &Path) -> Result<PathBuf, StoreError> {
    for k in 1..=MAX_REJECTED {
        let target = match k {
            1 => with_suffix(path, ".rejected"),
            _ => with_suffix(path, &format!(".rejected{k}")),
        };
        // A hard link fails if the target exists, where a rename would replace it.
        match std::fs::hard_link(path, &target) {
            Ok(()) => {
                std::fs::remove_file(path)
                    .map_err(|e| error(path, format!("cannot remove a bad record: {e}")))?;
                return Ok(target);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links: check, then rename.
            Err(_) => match target.try_exists() {
                Ok(true) => continue,
                _ => {
                    std::fs::rename(path, &target)
                        .map_err(|e| error(path, format!("cannot move a bad record aside: {e}")))?;
                    return Ok(target);
                }
            },
        }
    }
    Err(error(
        path,
        format!("bad record, and {MAX_REJECTED} rejected copies of it exist already"),
    ))
}

fn error(path: &Path, message: String) -> StoreError {
    StoreError {
        path: path.to_path_buf(),
        message,
    }
}

/// A record's faces as a short die display (`1..6`), for messages.
fn faces(faces: &[u32]) -> String {
    let listed: Vec<String> = faces.iter().map(u32::to_string).collect();
    let listed = listed.join(",");
    let shown = listed.parse::<Die>().map_or(listed, |die| die.to_string());
    abbreviate(&shown, 40)
}
