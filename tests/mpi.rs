//! The layered game solver over MPI ranks (`--features mpi`): `mpirun -np 2` and `-np 4`
//! (oversubscribed on a small machine) give the single process's values within the
//! tolerance, write the same value files, resume from them, and refuse damaged ones. Where
//! `mpirun` is missing, each test says so and checks nothing (as the browser tests do
//! without a browser); CI installs OpenMPI.
#![cfg(feature = "mpi")]

mod common;

use common::{stdout_of, temp_dir};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use wuerfelglueck::exact::game::layered::LayeredValues;

/// Whether `mpirun` runs here; if not, says why the test checks nothing.
fn mpirun_present() -> bool {
    let present = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        eprintln!("mpirun not found: MPI test skipped (install openmpi-bin)");
    }
    present
}

/// The binary on `ranks` MPI ranks, one thread each.
fn on_ranks(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        .arg(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(args)
        .args(["--threads", "1"])
        .output()
        .expect("mpirun runs")
}

/// [`on_ranks`], which must succeed; its stdout as JSON.
fn json_on_ranks(ranks: usize, args: &[&str]) -> Value {
    let out = on_ranks(ranks, args);
    assert!(
        out.status.success(),
        "mpirun -np {ranks} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document, from rank 0 alone")
}

fn bracket(report: &Value, key: &str) -> [f64; 2] {
    let b = &report["value_bounds"][key];
    [b[0].as_f64().unwrap(), b[1].as_f64().unwrap()]
}

/// Both openings' brackets of a whole layered solve: certified, overlapping the single
/// process's, on the same dice (the mirror) and on different dice.
#[test]
fn the_ranks_give_the_single_processs_value() {
    if !mpirun_present() {
        return;
    }
    let tolerance = 1e-9;
    for (board, a, b) in [
        (["16", "2", "2"], "1..6", "1..6"),
        (["16", "3", "3"], "1..6", "2..7"),
        (["22", "2", "3"], "1,1,1,6,6,6", "1..6"),
    ] {
        let args = [
            "solve",
            "--a",
            a,
            "--b",
            b,
            "--profile",
            "choice",
            "--layered",
            "--track",
            board[0],
            "--pieces",
            board[1],
            "--goal-fields",
            board[2],
            "--tolerance",
            "1e-9",
            "--format",
            "json",
        ];
        let single: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
        for ranks in [2, 4] {
            let shared = json_on_ranks(ranks, &args);
            assert_eq!(
                shared["value_certified"], true,
                "{board:?} on {ranks} ranks"
            );
            for key in ["value_if_a_starts", "value_if_b_starts"] {
                let [lo, hi] = bracket(&shared, key);
                let [slo, shi] = bracket(&single, key);
                assert!(
                    hi - lo <= tolerance,
                    "{board:?} {ranks} ranks {key}: {lo} {hi}"
                );
                assert!(
                    lo <= shi && slo <= hi,
                    "{board:?} {ranks} ranks {key}: [{lo}, {hi}] against [{slo}, {shi}]"
                );
            }
            assert_eq!(
                shared["groups"].as_array().unwrap().len(),
                single["groups"].as_array().unwrap().len()
            );
        }
    }
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `solve --part outside-core` of 1..6 against 2..7 on 16/8/3/3 to `tolerance`, its JSON
/// report on stdout, its values into `dir`; then `extra`.
fn outside_core_args(dir: &Path, tolerance: &str, extra: &[String]) -> Vec<String> {
    [
        "solve",
        "--a",
        "1..6",
        "--b",
        "2..7",
        "--profile",
        "choice",
        "--layered",
        "--part",
        "outside-core",
        "--track",
        "16",
        "--pieces",
        "3",
        "--goal-fields",
        "3",
        "--tolerance",
        tolerance,
        "--format",
        "json",
        "--values-out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([dir.display().to_string()])
    .chain(extra.iter().cloned())
    .collect()
}

/// Every state's bracket in two value folders: each at most `2 * half-width` apart from
/// the other and overlapping it; returns how many states were compared.
fn compare_folders(one: &Path, other: &Path, tolerance: f64) -> usize {
    let one = LayeredValues::open_dir(one).unwrap();
    let other = LayeredValues::open_dir(other).unwrap();
    assert_eq!(one.groups_held(), other.groups_held());
    let mut compared = 0;
    for index in 0..one.space().len() {
        let (Some(x), Some(y)) = (
            one.bracket_at(index).unwrap(),
            other.bracket_at(index).unwrap(),
        ) else {
            assert_eq!(one.covers(index), other.covers(index), "state {index}");
            continue;
        };
        assert!(
            x.hi - x.lo <= tolerance && y.hi - y.lo <= tolerance,
            "state {index}"
        );
        assert!(
            x.lo <= y.hi && y.lo <= x.hi,
            "state {index}: {x:?} against {y:?}"
        );
        compared += 1;
    }
    compared
}

/// The policy the values of two folders give (the move of `exact:DIR`): at every decision
/// where the first folder holds every move's value, the second folder's move is optimal by
/// the first's values within the two brackets' widths (so wherever the first's best move
/// beats every other by more than that, the second plays it). Returns the decisions
/// compared and how many of them had a move best beyond doubt.
fn compare_policies(one: &Path, other: &Path, tolerance: f64) -> (usize, usize) {
    use wuerfelglueck::exact::game::exact_strategy::ExactStrategy;
    use wuerfelglueck::exact::game::space::Target;
    let one = ExactStrategy::load(one, None).unwrap();
    let other = ExactStrategy::load(other, None).unwrap();
    let space = one.values().space();
    let (mut decisions, mut clear) = (0, 0);
    for index in 0..space.len() {
        if !one.values().covers(index) {
            continue;
        }
        let position = space.position(index);
        let sign = if position.mover() == 0 { 1.0 } else { -1.0 };
        for (k, &(face, _)) in space.faces(index).iter().enumerate() {
            let mut values = Vec::new();
            space.options(index, k, |_, t| {
                values.push(match t {
                    Target::Win(0) => Some(1.0),
                    Target::Win(_) => Some(-1.0),
                    Target::Next(j) => one.values().bracket_at(j).unwrap().map(|b| sign * b.mid()),
                })
            });
            let Some(values) = values.into_iter().collect::<Option<Vec<f64>>>() else {
                continue;
            };
            if values.len() < 2 {
                continue;
            }
            let chosen = other
                .best_move(&position, face)
                .unwrap_or_else(|| panic!("state {index}, face {face}: no move"));
            let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert!(
                values[chosen] >= best - 2.0 * tolerance,
                "state {index}, face {face}: move {chosen} of {values:?}"
            );
            // A move best beyond doubt: the bound above then admits it alone.
            let beaten = values
                .iter()
                .filter(|&&v| v < best - 2.0 * tolerance)
                .count();
            clear += usize::from(beaten == values.len() - 1);
            decisions += 1;
        }
    }
    (decisions, clear)
}

/// The groups outside the core written by two ranks hold the single process's values at
/// every state and give its policy; a run stopped short (its last groups' files gone) resumes and writes the
/// same files again; a damaged file is refused by every rank, with its path.
#[test]
fn the_ranks_write_resume_and_check_the_value_files() {
    if !mpirun_present() {
        return;
    }
    let single_dir = temp_dir("mpi", "single");
    let ranks_dir = temp_dir("mpi", "ranks");
    let args = |dir: &Path| outside_core_args(dir, "1e-6", &[]);
    let single = args(&single_dir);
    stdout_of(&strs(&single));
    let shared = args(&ranks_dir);
    let first = json_on_ranks(2, &strs(&shared));
    assert_eq!(first["certified"], true);
    let compared = compare_folders(&single_dir, &ranks_dir, 1e-6);
    assert!(compared > 10_000, "{compared} states compared");
    // The same policy: the ranks' values choose the single process's moves.
    let (decisions, clear) = compare_policies(&single_dir, &ranks_dir, 1e-6);
    assert!(
        decisions > 10_000 && clear > decisions / 2,
        "{decisions} decisions, {clear} clear"
    );

    // Stopped short: the files of the last two groups solved are gone.
    let groups = first["groups"].as_array().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&ranks_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let kept: Vec<(std::path::PathBuf, Vec<u8>)> = files
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    let last_two: Vec<&Value> = groups.iter().rev().take(2).collect();
    for g in &last_two {
        let name = format!(
            "group-a{}-b{}.values",
            g["goal_a"].as_u64().unwrap(),
            g["goal_b"].as_u64().unwrap()
        );
        let file = files
            .iter()
            .find(|p| p.file_name().unwrap().to_string_lossy() == name)
            .unwrap_or_else(|| panic!("no file named like {name} in {files:?}"));
        std::fs::remove_file(file).unwrap();
    }
    let resumed = json_on_ranks(2, &strs(&shared));
    let flags: Vec<bool> = resumed["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["resumed"].as_bool().unwrap())
        .collect();
    assert_eq!(flags.iter().filter(|&&r| !r).count(), 2, "{flags:?}");
    assert!(!flags[flags.len() - 1] && !flags[flags.len() - 2]);
    // The same values (the header's report differs only in its seconds).
    let body = |bytes: &[u8]| -> Vec<u8> {
        let header = bytes.iter().position(|&b| b == b'\n').unwrap();
        bytes[header..].to_vec()
    };
    for (path, bytes) in &kept {
        assert!(
            body(&std::fs::read(path).unwrap()) == body(bytes),
            "{} holds other values after resuming",
            path.display()
        );
    }

    // A damaged file: every rank refuses it, the path named, a non-zero exit.
    let (victim, bytes) = &kept[kept.len() / 2];
    std::fs::write(victim, &bytes[..bytes.len() - 7]).unwrap();
    let out = on_ranks(2, &strs(&shared));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&*victim.file_name().unwrap().to_string_lossy()),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&single_dir);
    let _ = std::fs::remove_dir_all(&ranks_dir);
}

/// Ranks whose finished groups do not fit the memory allowed write each group's file in
/// parts (each rank its share, straight from its brackets), joined by rank 0, and read
/// the finished groups back from the files, mapped: the files are those of ranks that hold
/// every finished group in memory, byte for byte, and no part file is left. A rank that
/// cannot write its part stops every rank.
#[test]
fn ranks_that_map_their_finished_groups_write_the_same_files() {
    if !mpirun_present() {
        return;
    }
    // Below 1e-6, so that the brackets stay in `f64` and only the mapping differs.
    let args = |dir: &Path, limit: Option<u64>| {
        let limit: Vec<String> = limit
            .map(|l| vec!["--max-memory".to_string(), l.to_string()])
            .unwrap_or_default();
        outside_core_args(dir, "1e-7", &limit)
    };
    let held_dir = temp_dir("mpi", "held");
    let held = json_on_ranks(2, &strs(&args(&held_dir, None)));
    assert_eq!(held["finished_mapped"], false);
    let peak = held["peak_bytes"].as_u64().unwrap();
    let mapped_dir = temp_dir("mpi", "mapped");
    let mapped = json_on_ranks(2, &strs(&args(&mapped_dir, Some(peak - 1))));
    assert_eq!(mapped["finished_mapped"], true);
    assert_eq!(mapped["narrow_brackets"], false);
    assert_eq!(mapped["certified"], true);
    assert!(mapped["peak_bytes"].as_u64().unwrap() < peak);
    let files = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let body = std::fs::read(&p).unwrap();
                let header = body.iter().position(|&b| b == b'\n').unwrap_or(0);
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    body[header..].to_vec(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let (held_files, mapped_files) = (files(&held_dir), files(&mapped_dir));
    let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
        files.iter().map(|(n, _)| n.clone()).collect()
    };
    assert_eq!(names(&held_files), names(&mapped_files));
    assert_eq!(
        held_files.len(),
        held["groups"].as_array().unwrap().len(),
        "one file a group, no part left: {:?}",
        names(&mapped_files)
    );
    for ((name, held), (_, mapped)) in held_files.iter().zip(&mapped_files) {
        assert!(held == mapped, "{name}: other values when mapped");
    }

    // Rank 1 cannot write its part of the first group (a folder stands under the part's
    // name): every rank stops with an error, the part named, and no group file is written.
    let blocked_dir = temp_dir("mpi", "blocked");
    let first = &held["groups"][0];
    let part = format!(
        "group-a{}-b{}.rank1-of-2.part",
        first["goal_a"].as_u64().unwrap(),
        first["goal_b"].as_u64().unwrap()
    );
    std::fs::create_dir_all(blocked_dir.join(&part)).unwrap();
    let out = on_ranks(2, &strs(&args(&blocked_dir, Some(peak - 1))));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&part), "{stderr}");
    let written = std::fs::read_dir(&blocked_dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".values")
        })
        .count();
    assert_eq!(written, 0);
    let _ = std::fs::remove_dir_all(&held_dir);
    let _ = std::fs::remove_dir_all(&mapped_dir);
    let _ = std::fs::remove_dir_all(&blocked_dir);
}

/// On several ranks only the layered game solver runs: anything else (each rank would
/// solve it all and print it) is refused with a sentence, by a non-zero exit.
#[test]
fn what_does_not_share_its_work_is_refused_on_ranks() {
    if !mpirun_present() {
        return;
    }
    let out = on_ranks(
        2,
        &[
            "solve",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--track",
            "16",
            "--pieces",
            "2",
            "--goal-fields",
            "2",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("only `solve --profile choice --layered`"),
        "{stderr}"
    );
    // A fixed strategy's layered solve runs on one process.
    let mut args = vec!["solve", "--a", "1..6", "--b", "1..6"];
    args.extend(common::CHOICE_16_8_2_2);
    args.extend(["--layered", "--strategy-a", "safe"]);
    let out = on_ranks(2, &args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("with both sides optimal"), "{stderr}");
}

/// `results/mpi/scaling.sh` and `summarize.py`, which made the book's scaling figures, still
/// run: on 16/8/2/2 with one and two ranks, a table row per run.
#[test]
fn the_scaling_scripts_run_on_a_small_board() {
    if !mpirun_present() {
        return;
    }
    let out = temp_dir("mpi", "scaling");
    let root = env!("CARGO_MANIFEST_DIR");
    let run = Command::new("bash")
        .arg(format!("{root}/results/mpi/scaling.sh"))
        .arg(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .arg(&out)
        .args([
            "1..6",
            "2..7",
            "--track",
            "16",
            "--pieces",
            "2",
            "--goal-fields",
            "2",
        ])
        .env("RANKS", "1 2")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut reports: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    reports.sort();
    assert_eq!(reports.len(), 2, "{reports:?}");
    let table = Command::new("python3")
        .arg(format!("{root}/results/mpi/summarize.py"))
        .args(&reports)
        .output()
        .unwrap();
    assert!(
        table.status.success(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );
    let table = String::from_utf8(table.stdout).unwrap();
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(
        rows[0].contains("| 1 |") && rows[1].contains("| 2 |"),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
