//! The memory estimate a solve reports (`memory_bytes`, the figure `--max-memory` is
//! checked against) holds the solve's real peak, and is at most 1.5 times it, for each
//! exact solver on a board large enough that the process's fixed part does not dominate.
//! Alone in its test binary: the peak is read per child process with `wait4`.

#![cfg(target_os = "linux")]

use std::io::Read;
use std::process::{Command, Stdio};

/// Runs the binary with `args`; returns its JSON output and its peak resident memory.
// The child is reaped by `wait4` (which also returns its resource usage), not `wait`.
#[allow(clippy::zombie_processes)]
fn solve_with_peak(args: &[&str]) -> (serde_json::Value, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 reaps our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "{args:?}");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{args:?}"
    );
    // ru_maxrss is in KiB on Linux.
    let peak = u64::try_from(usage.ru_maxrss).unwrap() * 1024;
    (serde_json::from_str(&out).unwrap(), peak)
}

#[test]
fn every_solver_estimates_its_peak_within_a_factor_of_one_and_a_half() {
    let pair = ["solve", "--a", "1..6", "--b", "2..7", "--format", "json"];
    // The sparse-matrix solver (about 0.8 GB), the matrix-free one (about 0.15 GB) and the
    // game solver under choice (about 40 MB).
    for extra in [
        &["--pieces", "3"][..],
        &["--pieces", "3", "--matrix-free"],
        &["--pieces", "2", "--profile", "choice"],
    ] {
        let args: Vec<&str> = pair.iter().chain(extra).copied().collect();
        let (json, peak) = solve_with_peak(&args);
        let estimate = json["memory_bytes"].as_u64().unwrap();
        let ratio = estimate as f64 / peak as f64;
        assert!(
            (1.0..=1.5).contains(&ratio),
            "{args:?}: estimate {estimate} B, peak {peak} B, ratio {ratio:.3}"
        );
    }
}
