//! The policy file: both players' moves of a solved game, compact and validated on read.
//!
//! # Format (version 1)
//! One line of JSON, the header ([`PolicyHeader`]), ending in `\n`; then the body: the
//! packed [`PolicyTable`] as little-endian 64-bit words. Entry `(index, slot)` sits at bit
//! `(index * slots + slot) * bits` of the body; `index` is the joint index
//! `(a * nb + b) * 2 + side` over the configurations of A and B as
//! [`super::space::PlayerTable`] numbers them (every configuration closed under the legal
//! moves and captures of the board, profile and die in the header, most advanced first,
//! ties by increasing bit mask), `side` the player to move; `slot` numbers the distinct
//! faces of the mover's die in increasing order. An entry is the position of the chosen
//! move in the list of [`crate::rules::Rules::legal_moves`] (frontmost first); decisions
//! with fewer than two legal moves, and positions the game cannot reach, hold 0.
//!
//! A reader rebuilds the configurations from the header and checks everything: format and
//! version, that board, profile and dice are the ones expected, the counts, the body's
//! length and its FNV-1a checksum, and that every entry names a legal move.

use super::policy::PolicyTable;
use super::space::GameSpace;
use crate::dice::Die;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The format name in every header.
pub const FORMAT: &str = "wuerfelglueck-choice-policy";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

/// The header line of a policy file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Board, e.g. `16/8/2/2`.
    pub board: String,
    /// Profile, e.g. `choice`.
    pub profile: String,
    /// Die of A.
    pub die_a: String,
    /// Die of B.
    pub die_b: String,
    /// How A's and B's moves were chosen (`optimal` or a strategy's name).
    pub strategies: [String; 2],
    /// Configurations of A and of B.
    pub configs: [u64; 2],
    /// Face slots per joint index.
    pub slots: usize,
    /// Bits per entry.
    pub bits: u32,
    /// Joint indices.
    pub states: u64,
    /// Bytes of the body.
    pub body_bytes: u64,
    /// FNV-1a (64-bit) of the body, in hex.
    pub fnv1a64: String,
}

/// Why a policy file was not written or not accepted.
#[derive(Debug)]
pub enum PolicyFileError {
    /// The file exists and `--force` was not given.
    Exists(String),
    /// Reading or writing failed.
    Io(String),
    /// The file is not a valid policy file for this game; says what is wrong.
    Invalid(String),
}

impl fmt::Display for PolicyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyFileError::Exists(p) => {
                write!(f, "{p} exists; give --force to replace it")
            }
            PolicyFileError::Io(e) => write!(f, "{e}"),
            PolicyFileError::Invalid(e) => write!(f, "not a valid policy file: {e}"),
        }
    }
}

impl std::error::Error for PolicyFileError {}

fn body_of(table: &PolicyTable) -> Vec<u8> {
    table.words().iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The header for `table` of a game of `dice` under `rules`.
pub fn header(
    rules: &Rules,
    dice: [&Die; 2],
    strategies: [String; 2],
    space: &GameSpace,
    table: &PolicyTable,
) -> PolicyHeader {
    let body = body_of(table);
    PolicyHeader {
        format: FORMAT.into(),
        version: VERSION,
        board: rules.board().to_string(),
        profile: rules.profile().to_string(),
        die_a: dice[0].to_string(),
        die_b: dice[1].to_string(),
        strategies,
        configs: space.players.each_ref().map(|p| p.configs.len() as u64),
        slots: table.slots,
        bits: table.bits,
        states: table.states as u64,
        body_bytes: body.len() as u64,
        fnv1a64: format!("{:016x}", crate::files::fnv1a_64(&body)),
    }
}

/// Checks `path` as the target of a policy file before a solve starts (and again when
/// writing; see [`crate::files::check_target`]): its folder exists, it is not a folder, a
/// device, a FIFO, a socket or a dangling link (whatever `force` says), and an existing
/// file is refused unless `force`.
pub fn check_target(path: &Path, force: bool) -> Result<(), PolicyFileError> {
    crate::files::check_target(path, force)
        .map(|_| ())
        .map_err(target_error)
}

fn target_error(e: crate::files::TargetError) -> PolicyFileError {
    match e {
        crate::files::TargetError::Exists(p) => PolicyFileError::Exists(p.display().to_string()),
        e => PolicyFileError::Io(e.to_string()),
    }
}

/// Writes the policy file whole or not at all ([`crate::files::write_atomic`]: a temporary
/// file next to `path`, flushed to disk, then moved into place); without `force` an
/// existing file (even one that appeared meanwhile) is kept.
pub fn write(
    path: &Path,
    header: &PolicyHeader,
    table: &PolicyTable,
    force: bool,
) -> Result<(), PolicyFileError> {
    let line = serde_json::to_string(header).expect("a header serializes");
    crate::files::write_atomic(path, force, |f| {
        f.write_all(line.as_bytes())?;
        f.write_all(b"\n")?;
        f.write_all(&body_of(table))
    })
    .map_err(|e| match e {
        crate::files::WriteError::Target(e) => target_error(e),
        e @ crate::files::WriteError::Io { .. } => PolicyFileError::Io(e.to_string()),
    })
}

/// A policy file read and checked against the game it is used for.
pub struct LoadedPolicy {
    /// The header.
    pub header: PolicyHeader,
    /// The moves.
    pub table: PolicyTable,
    /// The game's space (configurations and moves), to look positions up.
    pub space: GameSpace,
}

/// The header line of `bytes`, checked for format and version, and where the body starts.
fn split(path: &Path, bytes: &[u8]) -> Result<(PolicyHeader, usize), PolicyFileError> {
    let invalid = |what: String| PolicyFileError::Invalid(format!("{}: {what}", path.display()));
    let newline = bytes
        .iter()
        .take(1 << 16)
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("no header line".into()))?;
    let header: PolicyHeader =
        serde_json::from_slice(&bytes[..newline]).map_err(|e| invalid(format!("header: {e}")))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(invalid(format!(
            "format {} version {}, expected {FORMAT} version {VERSION}",
            crate::dice::excerpt(&header.format),
            header.version
        )));
    }
    Ok((header, newline + 1))
}

/// At most `limit` bytes of `path`, which must be a regular file.
fn read_bytes(path: &Path, limit: Option<u64>) -> Result<Vec<u8>, PolicyFileError> {
    crate::files::read_regular(path, limit)
        .map_err(|e| PolicyFileError::Io(format!("{}: {e}", path.display())))
}

/// Reads only the header of the policy file at `path` (format and version checked).
pub fn read_header(path: &Path) -> Result<PolicyHeader, PolicyFileError> {
    split(path, &read_bytes(path, Some(1 << 16))?).map(|(h, _)| h)
}

/// Reads `path` and checks it against `rules` and `dice` (see the module docs).
pub fn read(path: &Path, rules: &Rules, dice: [&Die; 2]) -> Result<LoadedPolicy, PolicyFileError> {
    let invalid = |what: String| PolicyFileError::Invalid(format!("{}: {what}", path.display()));
    // The header first: the game it names, and the length that implies, are checked
    // before the body is read, so a file far longer than its game is refused unread.
    let (header, body_start) = split(path, &read_bytes(path, Some(1 << 16))?)?;
    let expect = [
        ("board", header.board.clone(), rules.board().to_string()),
        (
            "profile",
            header.profile.clone(),
            rules.profile().to_string(),
        ),
        ("die A", header.die_a.clone(), dice[0].to_string()),
        ("die B", header.die_b.clone(), dice[1].to_string()),
    ];
    for (what, found, wanted) in expect {
        if found != wanted {
            return Err(invalid(format!(
                "{what} is {}, but this game has {wanted}",
                crate::dice::excerpt(&found)
            )));
        }
    }
    // The header names the game; a game whose tables alone would not fit this machine is
    // refused before they are built.
    crate::exact::shared::memory::check_enumeration(
        rules,
        &dice,
        crate::exact::shared::memory::default_limit(),
    )
    .map_err(|e| invalid(format!("the game it names: {e}")))?;
    let space = GameSpace::new(rules, dice)
        .ok_or_else(|| invalid("the game's joint index overflows".into()))?;
    let configs = space.players.each_ref().map(|p| p.configs.len() as u64);
    if configs != header.configs || space.len() as u64 != header.states {
        return Err(invalid(format!(
            "{:?} configurations and {} states, this game has {configs:?} and {}",
            header.configs,
            header.states,
            space.len()
        )));
    }
    let slots = space.players[0]
        .faces
        .len()
        .max(space.players[1].faces.len());
    let bits = PolicyTable::bits_for(rules.board().pieces());
    let body_bytes = space
        .len()
        .checked_mul(slots)
        .and_then(|e| e.checked_mul(bits as usize))
        .map(|b| b.div_ceil(64) as u64 * 8)
        .ok_or_else(|| invalid("the game's table overflows".into()))?;
    let file_bytes = std::fs::metadata(path)
        .map_err(|e| PolicyFileError::Io(format!("{}: {e}", path.display())))?
        .len();
    if header.body_bytes != body_bytes || file_bytes != body_start as u64 + body_bytes {
        return Err(invalid(format!(
            "a file of {file_bytes} bytes whose header says its body has {} bytes, but this \
             game's table has {body_bytes} bytes (after a header of {body_start})",
            header.body_bytes
        )));
    }
    let bytes = read_bytes(path, Some(body_start as u64 + body_bytes))?;
    let body = &bytes[body_start.min(bytes.len())..];
    if body.len() as u64 != body_bytes {
        return Err(invalid(format!(
            "body of {} bytes, header says {}",
            body.len(),
            header.body_bytes
        )));
    }
    if format!("{:016x}", crate::files::fnv1a_64(body)) != header.fnv1a64 {
        return Err(invalid("checksum mismatch (the body is damaged)".into()));
    }
    let words = body
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let table = PolicyTable::from_words(space.len(), header.slots, header.bits, words)
        .filter(|t| {
            header.slots == slots && t.bits == PolicyTable::bits_for(rules.board().pieces())
        })
        .ok_or_else(|| invalid("slots, bits or length do not fit the game".into()))?;
    for index in 0..space.len() {
        for k in 0..space.faces(index).len() {
            let n = space.options(index, k, |_, _| {});
            let entry = table.get(index, k);
            if entry >= n.max(1) {
                let p = space.position(index);
                return Err(invalid(format!(
                    "entry {entry} for face {} in position A {:#x} B {:#x} (side {}) names no \
                     legal move ({n} legal)",
                    space.faces(index)[k].0,
                    p.pieces[0],
                    p.pieces[1],
                    index & 1
                )));
            }
        }
    }
    Ok(LoadedPolicy {
        header,
        table,
        space,
    })
}
