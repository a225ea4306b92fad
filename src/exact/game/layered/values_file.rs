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
//! Everything is checked before a value is used: the format, the version, the game (board,
//! profile, dice, tolerance), the group and state count, the length and the checksum, each
//! flag byte and each `f64` midpoint (in [-1, 1]) and the half-width (in [0, 2]).

use super::finished::{Bytes, Finished, GroupReport, Mids, Storage, bit};
use super::layers::Group;
use crate::exact::shared::ExactError;
use crate::files::{FNV1A_64_START, fnv1a_64, fnv1a_64_continued};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The `format` of every values file.
pub(crate) const FORMAT: &str = "wuerfelglueck group values";

/// The version this program writes and reads.
pub(crate) const VERSION: u32 = 1;

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
        }
    }
}

impl std::fmt::Display for GameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} against {} on {} under {}, tolerance {:e}",
            self.dice[0], self.dice[1], self.board, self.profile, self.tolerance
        )
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

/// The body's bytes in order, in pieces: the flag bytes, then the midpoints.
fn body_pieces(finished: &Finished, mut f: impl FnMut(&[u8])) {
    f(&finished.bits);
    const CHUNK: usize = 1 << 16;
    match &finished.mid {
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
}

/// FNV-1a over the body, fed piece by piece, and the body's length.
fn body_checksum(finished: &Finished) -> (u64, u64) {
    let mut hash = FNV1A_64_START;
    let mut len = 0u64;
    body_pieces(finished, |bytes| {
        len += bytes.len() as u64;
        hash = fnv1a_64_continued(hash, bytes);
    });
    (hash, len)
}

/// Writes the file of a solved group into `dir` (which must exist), atomically; an
/// existing file of that group is not replaced.
pub(super) fn write(
    dir: &Path,
    game: &GameKey,
    report: &GroupReport,
    finished: &Finished,
) -> Result<(), ExactError> {
    let group = Group {
        a: report.goal_a,
        b: report.goal_b,
    };
    let path = path_of(dir, group);
    let (hash, body_bytes) = body_checksum(finished);
    let header = GroupFileHeader {
        format: FORMAT.into(),
        version: VERSION,
        game: game.clone(),
        group: report.clone(),
        storage: finished.mid.storage(),
        half_width: finished.half,
        body_bytes,
        fnv1a64: format!("{hash:016x}"),
    };
    crate::files::write_atomic(&path, false, |out| {
        serde_json::to_writer(&mut *out, &header).map_err(std::io::Error::other)?;
        out.write_all(b"\n")?;
        let mut result = Ok(());
        body_pieces(finished, |bytes| {
            if result.is_ok() {
                result = out.write_all(bytes);
            }
        });
        result
    })
    .map_err(|e| ExactError::Write(format!("--values-out: {e}")))
}

/// The header line of a values file, parsed and checked for format and version.
fn parse_header(path: &Path, line: &[u8]) -> Result<GroupFileHeader, ExactError> {
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
    let header: GroupFileHeader = serde_json::from_slice(line)
        .map_err(|e| invalid(format!("line 1: expected the header of a values file: {e}")))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(invalid(format!(
            "line 1: expected format {FORMAT:?} version {VERSION}, found {:?} version {}",
            header.format, header.version
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
    game: &'g GameKey,
    group: Group,
    states: usize,
    storage: Storage,
}

impl Expected<'_> {
    /// The header `line` of the file at `path`, parsed and checked against what is
    /// expected.
    fn header(&self, path: &Path, line: &[u8]) -> Result<GroupFileHeader, ExactError> {
        let header = parse_header(path, line)?;
        self.check(path, &header)?;
        Ok(header)
    }

    fn check(&self, path: &Path, header: &GroupFileHeader) -> Result<(), ExactError> {
        let Expected {
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
        let expected = states.checked_mul(storage.bytes_per_state() as usize);
        if expected.map(|e| e as u64) != Some(header.body_bytes) {
            return Err(invalid(format!(
                "line 1: the header gives a body of {} bytes; {states} states of {} bytes take {}",
                header.body_bytes,
                storage.bytes_per_state(),
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
    Ok(parse_header(first, &first_line(first)?)?.game)
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
    let path = path_of(dir, group);
    if !path.exists() {
        return Ok(None);
    }
    let invalid = |what: String| ExactError::ValuesFile(format!("{}: {what}", path.display()));
    let file = Bytes::of_file(&path).map_err(|e| invalid(e.to_string()))?;
    let bytes: &[u8] = &file;
    let line_end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("expected a header line, found none (truncated?)".into()))?;
    let expected = Expected {
        game,
        group,
        states,
        storage,
    };
    let header = expected.header(&path, &bytes[..line_end])?;
    let per_state = storage.bytes_per_state() as usize;
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
    let (flags, values) = body.split_at(states);
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
    let mid = Mids::File(storage, file.slice(body_at + states, body.len() - states));
    let mut report = header.group;
    report.resumed = true;
    Ok(Some((
        report,
        Finished {
            bits: file.slice(body_at, states),
            mid,
            half: header.half_width,
        },
    )))
}
