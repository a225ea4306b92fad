//! The values of one solved group on disk (`solve --layered --values-out DIR`): a file per
//! group, written once its group is solved, read back to resume a stopped solve and to
//! look positions up.
//!
//! # Format (version 1)
//! A file `group-a{A}-b{B}.values` (`A`, `B`: the goal configurations in decimal) holds one
//! line of JSON ([`GroupFileHeader`]: the format and version, the game it was made for, the
//! group, its state count, the storage of its midpoints, the certified half-width, the
//! group's report, the body's length and FNV-1a checksum), then the body: one flag byte per
//! state (bits of [`super::finished::bit`]), then one midpoint per state, little-endian,
//! `u32` fixed point or `f64` as the storage says. A state's certified bracket is its
//! midpoint plus and minus the half-width, rounded outward, except where its flags fix its
//! value exactly.
//!
//! # Checkpoints (version 2)
//! While a long group is solved with `--values-out`, its working brackets are written now
//! and then to `group-a{A}-b{B}.checkpoint` in the same format under the `format`
//! [`CHECKPOINT_FORMAT`] and [`CHECKPOINT_VERSION`]: the flags, each state's midpoint, and
//! after them one byte per state, its half-width as a code relative to the group's widest
//! ([`super::finished::width_scale`]: eighths of an octave, rounded up), the header's report
//! holding the sweeps and seconds so far. A run that finds it goes on from those brackets
//! instead of `[-1, +1]`: they hold the group's values, so the certificate is unchanged,
//! and a group of hours loses the sweeps since the last checkpoint only. Version 1, without
//! the codes (every state within the widest half-width), is still read; going on from it
//! costs a sweep or two more. The checkpoint is removed once the group's file is written.
//!
//! Everything is checked before a value is used: the format, the version, the game (board,
//! profile, dice, tolerance), the group and state count, the length and the checksum, each
//! flag byte and each `f64` midpoint (in [-1, 1]) and the half-width (in [0, 2]).

use super::finished::{
    Bytes, Finished, GroupReport, Mids, Storage, bit, solved_body, solved_width_codes, width_scale,
};
use super::layers::Group;
use crate::exact::game::sweep::Values;
use crate::exact::shared::ExactError;
use crate::files::{FNV1A_64_START, fnv1a_64, fnv1a_64_continued};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU8;

/// The `format` of every values file.
pub(crate) const FORMAT: &str = "wuerfelglueck group values";

/// The `format` of a checkpoint: a group's brackets while it is solved.
pub(crate) const CHECKPOINT_FORMAT: &str = "wuerfelglueck group checkpoint";

/// The version of the values files this program writes and reads.
pub(crate) const VERSION: u32 = 1;

/// The version of the checkpoints this program writes: each state's half-width code after
/// the midpoints. It reads version 1 too (one half-width for every state).
pub(crate) const CHECKPOINT_VERSION: u32 = 2;

/// The game a values file belongs to: everything its values depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameKey {
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile.
    pub profile: String,
    /// Die A and die B.
    pub dice: [String; 2],
    /// The tolerance the groups were solved to.
    pub tolerance: f64,
    /// How A and B play where a side plays a fixed strategy (`optimal` for a side that
    /// does not), by name; absent where both sides are optimal. The values of a fixed
    /// strategy are those of its pair, never read as optimal play's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategies: Option<[String; 2]>,
}

impl GameKey {
    /// The key of the game of `dice` under `rules` solved to `tolerance`.
    pub fn new(
        rules: &crate::rules::Rules,
        dice: [&crate::dice::Die; 2],
        tolerance: f64,
    ) -> GameKey {
        GameKey {
            board: rules.board().to_string(),
            profile: rules.profile().to_string(),
            dice: [dice[0].to_string(), dice[1].to_string()],
            tolerance,
            strategies: None,
        }
    }

    /// The same game with A and B playing `strategies` (their names, `optimal` for a side
    /// that is); both optimal is the key of [`GameKey::new`].
    pub fn with_strategies(self, strategies: [&str; 2]) -> GameKey {
        GameKey {
            strategies: strategies
                .iter()
                .any(|s| *s != "optimal")
                .then(|| strategies.map(str::to_string)),
            ..self
        }
    }
}

impl std::fmt::Display for GameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} against {} on {} under {}, tolerance {:e}",
            self.dice[0], self.dice[1], self.board, self.profile, self.tolerance
        )?;
        match &self.strategies {
            Some([a, b]) => write!(f, ", A playing {a}, B playing {b}"),
            None => Ok(()),
        }
    }
}

/// The first line of a values file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct GroupFileHeader {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The game.
    pub game: GameKey,
    /// The group's solve: goal configurations, states, sweeps, width, seconds.
    pub group: GroupReport,
    /// How the midpoints are stored.
    pub storage: Storage,
    /// The certified half-width around every midpoint.
    pub half_width: f64,
    /// Bytes of the body.
    pub body_bytes: u64,
    /// FNV-1a (64 bits) of the body, 16 hexadecimal digits.
    pub fnv1a64: String,
}

/// The file of `group` in `dir`.
pub(crate) fn path_of(dir: &Path, group: Group) -> PathBuf {
    dir.join(format!("group-a{}-b{}.values", group.a, group.b))
}

/// The checkpoint of `group` in `dir`: its brackets while it is solved.
pub(crate) fn checkpoint_path(dir: &Path, group: Group) -> PathBuf {
    dir.join(format!("group-a{}-b{}.checkpoint", group.a, group.b))
}

/// The body of a group file, fed piece by piece in order (the flag bytes of every state,
/// then every midpoint), the same bytes each time it is asked.
pub(super) trait Body {
    /// How the midpoints are stored.
    fn storage(&self) -> Storage;
    /// Bytes a state of the body.
    fn bytes_per_state(&self) -> u64 {
        self.storage().bytes_per_state()
    }
    /// Feeds the body to `f`; returns the certified half-width its header names.
    fn pieces(&self, f: &mut dyn FnMut(&[u8])) -> Result<f64, ExactError>;
}

impl Body for Finished {
    fn storage(&self) -> Storage {
        self.mid.storage()
    }

    fn pieces(&self, f: &mut dyn FnMut(&[u8])) -> Result<f64, ExactError> {
        f(&self.bits);
        const CHUNK: usize = 1 << 16;
        match &self.mid {
            Mids::Fixed32(q) => {
                for chunk in q.chunks(CHUNK) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
                    f(&bytes);
                }
            }
            Mids::F64(m) => {
                for chunk in m.chunks(CHUNK) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
                    f(&bytes);
                }
            }
            // Already as the file holds them.
            Mids::File(_, bytes) => f(bytes),
        }
        Ok(self.half)
    }
}

/// A group just solved by one process, its values still in its working brackets: the body
/// is computed from them as it is written, with no compact copy of the group in memory.
pub(super) struct SolvedBody<'a, V> {
    pub bits: &'a [AtomicU8],
    pub values: &'a V,
    pub storage: Storage,
}

impl<V: Values<2>> Body for SolvedBody<'_, V> {
    fn storage(&self) -> Storage {
        self.storage
    }

    fn pieces(&self, f: &mut dyn FnMut(&[u8])) -> Result<f64, ExactError> {
        let half = solved_body(self.bits, self.values, self.storage, f);
        // The distances were rounded to nearest: one step up covers them (as a group
        // compacted in memory does).
        Ok(half.next_up())
    }
}

/// Bytes a state in a checkpoint of a group whose file stores its midpoints so: those of
/// the file, and a byte for the state's own half-width code.
pub(super) fn checkpoint_bytes_per_state(storage: Storage) -> u64 {
    storage.bytes_per_state() + 1
}

/// The body of a checkpoint of a group being solved, from its working brackets: the body
/// of [`SolvedBody`], then each state's half-width code
/// ([`super::finished::solved_width_codes`]).
pub(super) struct CheckpointBody<'a, V>(pub SolvedBody<'a, V>);

impl<V: Values<2>> Body for CheckpointBody<'_, V> {
    fn storage(&self) -> Storage {
        self.0.storage
    }

    fn bytes_per_state(&self) -> u64 {
        checkpoint_bytes_per_state(self.0.storage)
    }

    fn pieces(&self, f: &mut dyn FnMut(&[u8])) -> Result<f64, ExactError> {
        let SolvedBody {
            bits,
            values,
            storage,
        } = self.0;
        let half = self.0.pieces(f)?;
        solved_width_codes(bits, values, storage, half, f);
        Ok(half)
    }
}

/// The file of rank `rank`'s share of `group` in `dir`, among `ranks`: the share's part of
/// the body (its flag bytes, then its midpoints), until rank 0 has joined the parts.
pub(super) fn part_path(dir: &Path, group: Group, rank: usize, ranks: usize) -> PathBuf {
    dir.join(format!(
        "group-a{}-b{}.rank{rank}-of-{ranks}.part",
        group.a, group.b
    ))
}

/// Writes this rank's share of a group just solved (`body`, its states in order) as its
/// part file in `dir`, replacing one a stopped run left; returns the share's largest
/// distance from a midpoint to its bracket, unrounded (the ranks' largest, rounded up,
/// is the group's half-width).
pub(super) fn write_part<V: Values<2>>(
    dir: &Path,
    group: Group,
    (rank, ranks): (usize, usize),
    body: &SolvedBody<'_, V>,
) -> Result<f64, ExactError> {
    let path = part_path(dir, group, rank, ranks);
    let mut half = 0.0;
    crate::files::write_atomic(&path, true, |out| {
        let mut result = Ok(());
        half = solved_body(body.bits, body.values, body.storage, &mut |bytes| {
            if result.is_ok() {
                result = out.write_all(bytes);
            }
        });
        result
    })
    .map_err(|e| ExactError::Write(format!("--values-out: {e}")))?;
    Ok(half)
}

/// A group's body in the part files of the ranks that solved it (each: its states' flag
/// bytes, then their midpoints), in the order of the ranks' shares.
pub(super) struct Parts {
    /// Each part's file and its number of states.
    pub parts: Vec<(PathBuf, usize)>,
    pub storage: Storage,
    /// The group's half-width: the ranks' largest, rounded up.
    pub half: f64,
}

impl Parts {
    /// Feeds `f` the bytes `range` of the file `path`, in pieces.
    fn copy(
        path: &Path,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(&[u8]),
    ) -> Result<(), ExactError> {
        use std::io::{Read, Seek};
        let failed = |e: std::io::Error| ExactError::ValuesFile(format!("{}: {e}", path.display()));
        let mut file = crate::files::open_regular(path).map_err(failed)?;
        file.seek(std::io::SeekFrom::Start(range.start))
            .map_err(failed)?;
        let mut left = range.end - range.start;
        let mut buffer = vec![0u8; 1 << 20];
        while left > 0 {
            let n = buffer
                .len()
                .min(usize::try_from(left).unwrap_or(usize::MAX));
            file.read_exact(&mut buffer[..n]).map_err(failed)?;
            f(&buffer[..n]);
            left -= n as u64;
        }
        Ok(())
    }
}

impl Body for Parts {
    fn storage(&self) -> Storage {
        self.storage
    }

    fn pieces(&self, f: &mut dyn FnMut(&[u8])) -> Result<f64, ExactError> {
        // Every part's length checked before a byte is fed: (path, states, bytes).
        let mut parts = Vec::with_capacity(self.parts.len());
        for (path, states) in &self.parts {
            let states = *states as u64;
            let expected = states.checked_mul(self.storage.bytes_per_state());
            let found = std::fs::metadata(path)
                .map_err(|e| ExactError::ValuesFile(format!("{}: {e}", path.display())))?
                .len();
            if expected != Some(found) {
                return Err(ExactError::ValuesFile(format!(
                    "{}: expected {} bytes ({states} states), found {found}",
                    path.display(),
                    expected.map_or("too many".into(), |e| e.to_string()),
                )));
            }
            parts.push((path, states, found));
        }
        for &(path, states, _) in &parts {
            Self::copy(path, 0..states, f)?;
        }
        for &(path, states, bytes) in &parts {
            Self::copy(path, states..bytes, f)?;
        }
        Ok(self.half)
    }
}

/// Writes the file of a solved group into `dir` (which must exist), atomically; an
/// existing file of that group is not replaced. The body is read twice, for its checksum
/// and to be written, and must give the same bytes both times.
pub(super) fn write(
    dir: &Path,
    game: &GameKey,
    report: &GroupReport,
    body: &dyn Body,
) -> Result<(), ExactError> {
    let group = Group {
        a: report.goal_a,
        b: report.goal_b,
    };
    write_file(
        &path_of(dir, group),
        (FORMAT, VERSION),
        false,
        game,
        report,
        body,
    )
}

/// Writes the checkpoint of a group being solved (`report`: its sweeps and seconds so far)
/// into `dir`, replacing the one before; returns its bytes. The one before is removed first,
/// so that the folder never holds two (those of the largest groups are gigabytes): a run
/// stopped while it writes finds none and starts the group over.
pub(super) fn write_checkpoint<V: Values<2>>(
    dir: &Path,
    game: &GameKey,
    report: &GroupReport,
    body: &CheckpointBody<'_, V>,
) -> Result<u64, ExactError> {
    let path = checkpoint_path(
        dir,
        Group {
            a: report.goal_a,
            b: report.goal_b,
        },
    );
    remove_checkpoint_file(&path)?;
    let format = (CHECKPOINT_FORMAT, CHECKPOINT_VERSION);
    write_file(&path, format, true, game, report, body)?;
    std::fs::metadata(&path)
        .map(|m| m.len())
        .map_err(|e| ExactError::Write(format!("--values-out: {}: {e}", path.display())))
}

/// Removes the checkpoint of `group` in `dir` if there is one (its group's file is written).
pub(super) fn remove_checkpoint(dir: &Path, group: Group) -> Result<(), ExactError> {
    remove_checkpoint_file(&checkpoint_path(dir, group))
}

fn remove_checkpoint_file(path: &Path) -> Result<(), ExactError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(ExactError::Write(format!(
            "--values-out: removing {}: {e}",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Writes a group's header (of `format` and its version) and body to `path`, atomically,
/// replacing a file there only if `overwrite`.
fn write_file(
    path: &Path,
    (format, version): (&str, u32),
    overwrite: bool,
    game: &GameKey,
    report: &GroupReport,
    body: &dyn Body,
) -> Result<(), ExactError> {
    let storage = body.storage();
    let per_state = body.bytes_per_state();
    let (mut hash, mut body_bytes) = (FNV1A_64_START, 0u64);
    let half_width = body.pieces(&mut |bytes| {
        body_bytes += bytes.len() as u64;
        hash = fnv1a_64_continued(hash, bytes);
    })?;
    let expected = report.states.checked_mul(per_state);
    if expected != Some(body_bytes) {
        return Err(ExactError::Write(format!(
            "--values-out: {}: a body of {body_bytes} bytes for {} states of {per_state} bytes",
            path.display(),
            report.states,
        )));
    }
    let header = GroupFileHeader {
        format: format.into(),
        version,
        game: game.clone(),
        group: report.clone(),
        storage,
        half_width,
        body_bytes,
        fnv1a64: format!("{hash:016x}"),
    };
    crate::files::write_atomic(path, overwrite, |out| {
        serde_json::to_writer(&mut *out, &header).map_err(std::io::Error::other)?;
        out.write_all(b"\n")?;
        let mut result = Ok(());
        let mut again = FNV1A_64_START;
        body.pieces(&mut |bytes| {
            again = fnv1a_64_continued(again, bytes);
            if result.is_ok() {
                result = out.write_all(bytes);
            }
        })
        .map_err(std::io::Error::other)?;
        result?;
        if again != hash {
            return Err(std::io::Error::other(
                "the group's values changed while they were written",
            ));
        }
        Ok(())
    })
    .map_err(|e| ExactError::Write(format!("--values-out: {e}")))
}

/// The header line of a values file, parsed and checked for format and version (one of
/// `versions`).
fn parse_header(
    path: &Path,
    line: &[u8],
    (format, versions): (&str, &[u32]),
) -> Result<GroupFileHeader, ExactError> {
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
    let header: GroupFileHeader = serde_json::from_slice(line)
        .map_err(|e| invalid(format!("line 1: expected the header of a values file: {e}")))?;
    if header.format != format || !versions.contains(&header.version) {
        let versions: Vec<String> = versions.iter().map(u32::to_string).collect();
        return Err(invalid(format!(
            "line 1: expected format {format:?} version {}, found {:?} version {}",
            versions.join(" or "),
            header.format,
            header.version
        )));
    }
    if !(0.0..=2.0).contains(&header.half_width) {
        return Err(invalid(format!(
            "line 1: half-width {}: expected a number in [0, 2]",
            header.half_width
        )));
    }
    Ok(header)
}

/// The first line of the file at `path` (at most a mebibyte: a header is far shorter).
fn first_line(path: &Path) -> Result<Vec<u8>, ExactError> {
    use std::io::{BufRead, Read};
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
    // A FIFO or device under a group file's name is refused, not waited on.
    let file = crate::files::open_regular(path).map_err(|e| invalid(e.to_string()))?;
    let mut line = Vec::new();
    std::io::BufReader::new(file)
        .take(1 << 20)
        .read_until(b'\n', &mut line)
        .map_err(|e| invalid(e.to_string()))?;
    if line.pop() != Some(b'\n') {
        return Err(invalid(
            "expected a header line ending within its first mebibyte, found none (truncated?)"
                .into(),
        ));
    }
    Ok(line)
}

/// What a group file must be: of this game and group, of this many states, in this storage.
struct Expected<'g> {
    /// [`FORMAT`] or [`CHECKPOINT_FORMAT`].
    format: &'static str,
    /// The versions of that format read.
    versions: &'static [u32],
    game: &'g GameKey,
    group: Group,
    states: usize,
    storage: Storage,
}

impl Expected<'_> {
    /// The header `line` of the file at `path`, parsed and checked against what is
    /// expected.
    fn header(&self, path: &Path, line: &[u8]) -> Result<GroupFileHeader, ExactError> {
        let header = parse_header(path, line, (self.format, self.versions))?;
        self.check(path, &header)?;
        Ok(header)
    }

    /// Whether the body of a file with `header` ends in a half-width code per state (a
    /// checkpoint from version 2 on).
    fn has_width_codes(&self, header: &GroupFileHeader) -> bool {
        self.format == CHECKPOINT_FORMAT && header.version >= 2
    }

    /// Bytes a state of the body of a file with `header`.
    fn bytes_per_state(&self, header: &GroupFileHeader) -> u64 {
        self.storage.bytes_per_state() + u64::from(self.has_width_codes(header))
    }

    fn check(&self, path: &Path, header: &GroupFileHeader) -> Result<(), ExactError> {
        let per_state = self.bytes_per_state(header);
        let Expected {
            format: _,
            versions: _,
            game,
            group,
            states,
            storage,
        } = *self;
        let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
        if &header.game != game {
            return Err(invalid(format!(
                "made for another game: {}; expected {}",
                header.game, game
            )));
        }
        if (header.group.goal_a, header.group.goal_b) != (group.a, group.b)
            || header.group.states != states as u64
        {
            return Err(invalid(format!(
                "expected group A {} B {} of {states} states, found group A {} B {} of {} states",
                group.a, group.b, header.group.goal_a, header.group.goal_b, header.group.states
            )));
        }
        if header.storage != storage {
            return Err(invalid(format!(
                "expected storage {storage:?} (the tolerance decides it), found {:?}",
                header.storage
            )));
        }
        let expected = (states as u64).checked_mul(per_state);
        if expected != Some(header.body_bytes) {
            return Err(invalid(format!(
                "line 1: the header gives a body of {} bytes; {states} states of {per_state} \
                 bytes take {}",
                header.body_bytes,
                expected.map_or("too many".into(), |e| e.to_string()),
            )));
        }
        Ok(())
    }
}

/// The header of the file of `group` in `dir` if there is one, checked as [`read`] checks
/// it (the body is not read).
pub(super) fn read_header(
    dir: &Path,
    game: &GameKey,
    group: Group,
    states: usize,
    storage: Storage,
) -> Result<Option<GroupFileHeader>, ExactError> {
    let path = path_of(dir, group);
    if !path.exists() {
        return Ok(None);
    }
    let expected = Expected {
        format: FORMAT,
        versions: &[VERSION],
        game,
        group,
        states,
        storage,
    };
    Ok(Some(expected.header(&path, &first_line(&path)?)?))
}

/// The game the group files in `dir` were made for: the one named by the first file found
/// (every file is checked against it when the values are opened).
pub(crate) fn game_in(dir: &Path) -> Result<GameKey, ExactError> {
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", dir.display()));
    let entries = std::fs::read_dir(dir).map_err(|e| invalid(e.to_string()))?;
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("group-a") && n.ends_with(".values"))
        })
        .collect();
    names.sort();
    let Some(first) = names.first() else {
        return Err(invalid(
            "expected group files (group-a*-b*.values, written by solve --layered \
             --values-out), found none"
                .into(),
        ));
    };
    Ok(parse_header(first, &first_line(first)?, (FORMAT, &[VERSION]))?.game)
}

/// Reads the file of `group` from `dir` if there is one, checked against `game`, the
/// group's `states` and the `storage` this solve keeps; `Ok(None)` if there is none.
pub(super) fn read(
    dir: &Path,
    game: &GameKey,
    group: Group,
    states: usize,
    storage: Storage,
) -> Result<Option<(GroupReport, Finished)>, ExactError> {
    let expected = Expected {
        format: FORMAT,
        versions: &[VERSION],
        game,
        group,
        states,
        storage,
    };
    let found = read_file(&path_of(dir, group), &expected)?;
    Ok(found.map(|(mut report, values, _)| {
        report.resumed = true;
        (report, values)
    }))
}

/// A group's checkpoint, read back: its report (sweeps and seconds so far), flags and
/// midpoints with the group's widest half-width, and each state's half-width code where
/// the checkpoint has them (version 2).
pub(super) struct Checkpoint {
    pub(super) report: GroupReport,
    pub(super) saved: Finished,
    pub(super) width_codes: Option<Bytes>,
}

impl Checkpoint {
    /// The bracket of local index `local` to go on from: within its own half-width where
    /// the checkpoint has it, else within the group's widest.
    pub(super) fn bracket(&self, local: usize) -> [f64; 2] {
        match &self.width_codes {
            Some(codes) => self
                .saved
                .bracket_within(local, self.saved.half * width_scale(codes[local])),
            None => self.saved.bracket(local),
        }
    }
}

/// Reads the checkpoint of `group` from `dir` if there is one, checked as [`read`] checks a
/// group's file.
pub(super) fn read_checkpoint(
    dir: &Path,
    game: &GameKey,
    group: Group,
    states: usize,
    storage: Storage,
) -> Result<Option<Checkpoint>, ExactError> {
    let expected = Expected {
        format: CHECKPOINT_FORMAT,
        versions: &[1, CHECKPOINT_VERSION],
        game,
        group,
        states,
        storage,
    };
    let found = read_file(&checkpoint_path(dir, group), &expected);
    found
        .map(|found| {
            found.map(|(report, saved, width_codes)| Checkpoint {
                report,
                saved,
                width_codes,
            })
        })
        .map_err(|e| match e {
            ExactError::ValuesFile(what) => ExactError::ValuesFile(format!(
                "{what} (a checkpoint, written while the group was solved: remove it to solve \
             the group from the start)"
            )),
            e => e,
        })
}

/// The group file at `path` if there is one, checked against `expected`: its report, its
/// flags and midpoints, and its half-width codes if it has them.
fn read_file(
    path: &Path,
    expected: &Expected<'_>,
) -> Result<Option<(GroupReport, Finished, Option<Bytes>)>, ExactError> {
    let &Expected {
        states, storage, ..
    } = expected;
    if !path.exists() {
        return Ok(None);
    }
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
    let file = Bytes::of_file(path).map_err(|e| invalid(e.to_string()))?;
    let bytes: &[u8] = &file;
    let line_end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("expected a header line, found none (truncated?)".into()))?;
    let header = expected.header(path, &bytes[..line_end])?;
    let codes = expected.has_width_codes(&header);
    let per_state = expected.bytes_per_state(&header) as usize;
    let body = &bytes[line_end + 1..];
    let expected = states.checked_mul(per_state);
    if expected != Some(body.len()) || header.body_bytes != body.len() as u64 {
        return Err(invalid(format!(
            "expected a body of {} bytes ({states} states of {per_state} bytes), found {} \
             (header says {}): truncated or damaged",
            expected.map_or("too many".into(), |e| e.to_string()),
            body.len(),
            header.body_bytes
        )));
    }
    if format!("{:016x}", fnv1a_64(body)) != header.fnv1a64 {
        return Err(invalid("checksum mismatch: the body is damaged".into()));
    }
    let (flags, rest) = body.split_at(states);
    // The midpoints, then the codes (any byte is a code).
    let mids_bytes = states * (storage.bytes_per_state() as usize - 1);
    let values = &rest[..mids_bytes];
    let known = bit::WIN_A | bit::WIN_B | bit::STAY | bit::ENDLESS | bit::SETTLED | bit::OVER;
    if let Some(i) = flags.iter().position(|&f| f & !known != 0) {
        return Err(invalid(format!(
            "state {i}: flag byte {:#04x} has unknown bits",
            flags[i]
        )));
    }
    if storage == Storage::F64 {
        let m = values
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")));
        if let Some((i, v)) = m.enumerate().find(|(_, v)| !(-1.0..=1.0).contains(v)) {
            return Err(invalid(format!(
                "state {i}: midpoint {v}: expected a value in [-1, 1]"
            )));
        }
    }
    // The flags and midpoints stay where they are (in the mapped file, checked above).
    let body_at = line_end + 1;
    let mid = Mids::File(storage, file.slice(body_at + states, mids_bytes));
    let width_codes = codes.then(|| file.slice(body_at + states + mids_bytes, states));
    Ok(Some((
        header.group,
        Finished {
            bits: file.slice(body_at, states),
            mid,
            half: header.half_width,
        },
        width_codes,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::game::sweep::Store;
    use rand::{RngExt, SeedableRng};

    /// Brackets of `states` states as a solve leaves them (some exact, some flagged as
    /// fixed, most narrow around a value), and their flags.
    fn solved(states: usize, seed: u64) -> (Vec<AtomicU8>, Store<2>) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let bits = (0..states)
            .map(|k| AtomicU8::new(if k % 7 == 0 { bit::WIN_A } else { 0 }))
            .collect();
        let values = Store::new(states, [-1.0, 1.0]);
        for k in 0..states {
            let v: f64 = rng.random_range(-1.0..=1.0);
            let w: f64 = rng.random_range(0.0..1e-6);
            values.store(k, [(v - w).max(-1.0), (v + w).min(1.0)]);
        }
        (bits, values)
    }

    fn report(states: usize) -> GroupReport {
        GroupReport {
            goal_a: 1,
            goal_b: 2,
            states: states as u64,
            end_component_states: 0,
            sweeps: 3,
            width: 1e-6,
            stalled: false,
            seconds: 0.5,
            sweep_seconds: 0.25,
            resumed: false,
            ranks: None,
            narrow_brackets: Some(false),
            from_checkpoint_at_sweep: None,
        }
    }

    fn game() -> GameKey {
        GameKey {
            board: "16/8/3/3".into(),
            profile: "choice".into(),
            dice: ["1..6".into(), "2..7".into()],
            tolerance: 1e-6,
            strategies: None,
        }
    }

    /// A checkpoint keeps each state's own half-width: every bracket read back holds the
    /// working bracket it was written from and is at most an eighth of an octave wider (and
    /// the storage's rounding), so a narrow state stays narrow. A checkpoint of version 1
    /// (the same body without the codes) is still read, every state within the widest
    /// half-width; one cut short is refused, naming it.
    #[test]
    fn a_checkpoint_keeps_each_states_half_width() {
        let states = 100_003;
        let (_, values) = solved(states, 11);
        // Every fifth state's value fixed by its flags (no win reachable: 0), the others
        // open to both wins.
        let open = bit::WIN_A | bit::WIN_B;
        let bits: Vec<AtomicU8> = (0..states)
            .map(|k| AtomicU8::new(if k % 5 == 0 { 0 } else { open }))
            .collect();
        // A third of the states far narrower than the widest.
        for k in (0..states).step_by(3) {
            let [lo, hi] = values.load(k);
            let m = 0.5 * (lo + hi);
            values.store(k, [m - 1e-12, m + 1e-12]);
        }
        let root =
            std::env::temp_dir().join(format!("wuerfelglueck-checkpoint-{}", std::process::id()));
        let group = Group { a: 1, b: 2 };
        for storage in [Storage::Fixed32, Storage::F64] {
            let dir = root.join(format!("{storage:?}"));
            std::fs::create_dir_all(&dir).unwrap();
            let body = CheckpointBody(SolvedBody {
                bits: &bits,
                values: &values,
                storage,
            });
            let bytes = write_checkpoint(&dir, &game(), &report(states), &body).unwrap();
            let path = checkpoint_path(&dir, group);
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
            let back = read_checkpoint(&dir, &game(), group, states, storage)
                .unwrap()
                .unwrap();
            assert!(back.width_codes.is_some());
            // The storage's rounding of a midpoint: half a step of 2^-31, or none.
            let rounding = match storage {
                Storage::Fixed32 => 2.4e-10,
                Storage::F64 => 0.0,
            };
            let mut narrow = 0;
            for k in 0..states {
                if k % 5 == 0 {
                    assert_eq!(back.bracket(k), [0.0, 0.0]);
                    continue;
                }
                let [lo, hi] = values.load(k);
                let [back_lo, back_hi] = back.bracket(k);
                assert!(back_lo <= lo && hi <= back_hi, "{storage:?}, state {k}");
                let allowed = 1.1 * (hi - lo + 2.0 * rounding) + 1e-15;
                assert!(
                    back_hi - back_lo <= allowed,
                    "{storage:?}, state {k}: {back_lo}..{back_hi} from {lo}..{hi}"
                );
                narrow += usize::from(back_hi - back_lo < 1e-9);
            }
            // The narrow third, less the fixed fifth among them.
            assert!(
                narrow >= states / 3 - states / 15 - 1,
                "{storage:?}: {narrow}"
            );

            // Version 1: a group file's body under the checkpoint's format.
            let old = root.join(format!("{storage:?}-version-1"));
            std::fs::create_dir_all(&old).unwrap();
            write(&old, &game(), &report(states), &body.0).unwrap();
            let file = std::fs::read(path_of(&old, group)).unwrap();
            let text = String::from_utf8_lossy(&file[..200]).to_string();
            let from = format!("\"format\":\"{FORMAT}\"");
            assert!(text.contains(&from), "{text}");
            let to = format!("\"format\":\"{CHECKPOINT_FORMAT}\"");
            let header_end = file.iter().position(|&b| b == b'\n').unwrap();
            let header = String::from_utf8(file[..header_end].to_vec()).unwrap();
            let mut version_1 = header.replace(&from, &to).into_bytes();
            version_1.extend_from_slice(&file[header_end..]);
            std::fs::remove_file(path_of(&old, group)).unwrap();
            std::fs::write(checkpoint_path(&old, group), &version_1).unwrap();
            let back_1 = read_checkpoint(&old, &game(), group, states, storage)
                .unwrap()
                .unwrap();
            assert!(back_1.width_codes.is_none());
            for k in (1..states).step_by(97).filter(|k| k % 5 != 0) {
                let [lo, hi] = values.load(k);
                let [back_lo, back_hi] = back_1.bracket(k);
                assert!(back_lo <= lo && hi <= back_hi, "{storage:?}, state {k}");
                assert_eq!(back_1.bracket(k), back_1.saved.bracket(k));
            }

            // Cut short by its last code: refused, naming the file.
            let whole = std::fs::read(&path).unwrap();
            std::fs::write(&path, &whole[..whole.len() - 1]).unwrap();
            let refused = read_checkpoint(&dir, &game(), group, states, storage)
                .err()
                .expect("a truncated checkpoint is refused");
            let message = refused.to_string();
            assert!(
                message.contains("group-a1-b2.checkpoint") && message.contains("truncated"),
                "{message}"
            );
        }
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A group written straight from its working brackets, or joined from the parts of its
    /// shares, is the file of the same group compacted in memory, byte for byte, in both
    /// storages; and reads back as it.
    #[test]
    fn a_group_written_from_its_brackets_or_from_parts_is_the_file_compacted_in_memory() {
        let states = 200_003;
        let (bits, values) = solved(states, 7);
        let root = std::env::temp_dir().join(format!("wuerfelglueck-body-{}", std::process::id()));
        let group = Group { a: 1, b: 2 };
        for storage in [Storage::Fixed32, Storage::F64] {
            let file = |name: &str, body: &dyn Body| -> Vec<u8> {
                let dir = root.join(format!("{name}-{storage:?}"));
                std::fs::create_dir_all(&dir).unwrap();
                write(&dir, &game(), &report(states), body).unwrap();
                std::fs::read(path_of(&dir, group)).unwrap()
            };
            let compacted = Finished::from_solved(&bits, &values, storage);
            let in_memory = file("in-memory", &compacted);
            let body = SolvedBody {
                bits: &bits,
                values: &values,
                storage,
            };
            assert!(file("streamed", &body) == in_memory, "{storage:?}");

            // Three shares, written as parts and joined.
            let dir = root.join(format!("parts-{storage:?}"));
            std::fs::create_dir_all(&dir).unwrap();
            let bounds = [0, 70_001, 70_001 + 99_999, states];
            let mut parts = Vec::new();
            let mut half = 0.0f64;
            for r in 0..3 {
                let own = bounds[r]..bounds[r + 1];
                let share_values = Store::new(own.len(), [-1.0, 1.0]);
                for (k, i) in own.clone().enumerate() {
                    share_values.store(k, values.load(i));
                }
                let share = SolvedBody {
                    bits: &bits[own.clone()],
                    values: &share_values,
                    storage,
                };
                half = half.max(write_part(&dir, group, (r, 3), &share).unwrap());
                parts.push((part_path(&dir, group, r, 3), own.len()));
            }
            assert_eq!(half.next_up(), compacted.half);
            let joined = Parts {
                parts,
                storage,
                half: half.next_up(),
            };
            write(&dir, &game(), &report(states), &joined).unwrap();
            assert!(
                std::fs::read(path_of(&dir, group)).unwrap() == in_memory,
                "{storage:?}"
            );
            let (_, back) = read(&dir, &game(), group, states, storage)
                .unwrap()
                .unwrap();
            for i in (0..states).step_by(101) {
                assert_eq!(
                    back.bracket(i),
                    compacted.bracket(i),
                    "{storage:?}, state {i}"
                );
            }

            // A part cut short is refused, naming it; no group file is written.
            let dir = root.join(format!("short-{storage:?}"));
            std::fs::create_dir_all(&dir).unwrap();
            let short = part_path(&dir, group, 0, 1);
            std::fs::write(&short, vec![0u8; 10]).unwrap();
            let cut = Parts {
                parts: vec![(short.clone(), states)],
                storage,
                half: half.next_up(),
            };
            let refused = write(&dir, &game(), &report(states), &cut).unwrap_err();
            assert!(refused.to_string().contains("rank0-of-1.part"), "{refused}");
            assert!(!path_of(&dir, group).exists());
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
