//! Helpers shared by the integration tests: each test file takes them with `mod common;`.
//! Not every file uses every helper.
#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::SolveOptions;
use wuerfelglueck::rules::{Board, Profile, Rules};

/// The reduced board 20/10/2/2 as command-line options.
pub const SMALL_BOARD: [&str; 8] = [
    "--track",
    "20",
    "--offset",
    "10",
    "--pieces",
    "2",
    "--goal-fields",
    "2",
];

/// The die written as `faces` (e.g. `1..6`, `1,1,1,6,6,6`).
pub fn die(faces: &str) -> Die {
    faces.parse().unwrap()
}

/// The rules of `board` (e.g. `20/10/2/2`) under `profile` (e.g. `bwinf+three-tries`).
pub fn rules(board: &str, profile: &str) -> Rules {
    Rules::new(
        board.parse::<Board>().unwrap(),
        profile.parse::<Profile>().unwrap(),
    )
}

/// The piece mask of pieces on `fields`.
pub fn pieces(fields: &[u32]) -> u64 {
    fields.iter().fold(0, |m, &f| m | 1u64 << f)
}

/// Exact solves to `tolerance`, at most 100,000 sweeps, no memory limit.
pub fn options(tolerance: f64) -> SolveOptions {
    SolveOptions {
        tolerance,
        max_sweeps: 100_000,
        max_memory: None,
    }
}

/// The arguments of the small board under `choice` that the layered solver's tests play:
/// 16 track fields, player 2 starting at 8, two pieces and two goal fields each.
#[allow(dead_code)]
pub const CHOICE_16_8_2_2: [&str; 10] = [
    "--track",
    "16",
    "--offset",
    "8",
    "--pieces",
    "2",
    "--goal-fields",
    "2",
    "--profile",
    "choice",
];

/// The binary, to be given arguments.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
}

/// Runs the binary with `args` and returns its output whatever the exit code.
pub fn output(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

/// Runs the binary with `args`: its exit code (-1 when a signal ended it), stdout and
/// stderr.
pub fn run_captured(args: &[&str]) -> (i32, String, String) {
    let out = output(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs the binary with `args`, which must succeed, and returns its stdout.
pub fn stdout_of(args: &[&str]) -> String {
    let out = output(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the binary with `args`, which must succeed, and parses its stdout as one JSON
/// document.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).expect("one JSON document")
}

/// A fresh, empty directory `wg-{prefix}-{process}-{name}` in the system's temporary
/// directory.
pub fn temp_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wg-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
