//! Bad input gets a message naming file, line and what was expected, and exit code 2.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;
use wuerfelglueck::cli::common::{MAX_THREADS, plan_line};
use wuerfelglueck::dice::{Die, DieError, MAX_FACES, excerpt, parse_dice_text};
use wuerfelglueck::sim::DuelPlan;

mod common;

use common::binary;

fn parse(text: &str) -> Result<Vec<String>, (usize, String)> {
    parse_dice_text(text, "dice.txt")
        .map(|dice| dice.iter().map(|d| d.to_string()).collect())
        .map_err(|e| (e.line, e.message))
}

/// Asserts a parse error on `line` whose message contains `expected`.
fn rejects(text: &str, line: usize, expected: &str) {
    match parse(text) {
        Ok(dice) => panic!("accepted {text:?} as {dice:?}"),
        Err((l, message)) => {
            assert_eq!(l, line, "line of the error for {text:?}: {message}");
            assert!(
                message.contains(expected),
                "message for {text:?} is {message:?}, expected to mention {expected:?}"
            );
        }
    }
}

#[test]
fn reads_the_bwinf_format() {
    assert_eq!(
        parse("3\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n4 1 2 3 4\n").unwrap(),
        vec!["1..6", "1,1,1,6,6,6", "1..4"]
    );
}

#[test]
fn accepts_crlf_bom_extra_spaces_and_trailing_blank_lines() {
    let text = "\u{feff}2\r\n  6   1 2 3 4 5 6 \r\n\t1\t6\r\n\r\n\n   \n";
    assert_eq!(parse(text).unwrap(), vec!["1..6", "6"]);
}

#[test]
fn rejects_an_empty_file() {
    rejects("", 0, "empty");
    rejects("\n\n  \n", 0, "empty");
}

#[test]
fn rejects_n_that_does_not_match_the_lines() {
    rejects("3\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n", 4, "n = 3");
    rejects("1\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n", 3, "n = 1");
}

#[test]
fn rejects_m_that_does_not_match_the_faces() {
    rejects(
        "2\n6 1 2 3 4 5 6\n6 1 1 1 6 6\n",
        3,
        "m = 6 announces 6 faces, found 5",
    );
    rejects("1\n2 1 2 3\n", 2, "found 3");
}

#[test]
fn rejects_a_die_without_faces() {
    rejects("1\n0\n", 2, "m = 0");
}

#[test]
fn rejects_non_integer_and_negative_faces() {
    rejects("1\n3 1 x 3\n", 2, "'x'");
    rejects("1\n3 1 -2 3\n", 2, "'-2'");
    rejects("1\n2 1.5 3\n", 2, "'1.5'");
    rejects("two\n", 1, "'two'");
    rejects("1 2\n1 6\n", 1, "alone");
}

#[test]
fn rejects_numbers_too_large_for_the_type() {
    rejects("1\n1 4294967296\n", 2, "too large");
    rejects("99999999999999999999\n", 1, "too large");
    // The largest face that fits is a valid (useless) face.
    assert_eq!(parse("1\n1 4294967295\n").unwrap(), vec!["4294967295"]);
}

#[test]
fn rejects_a_blank_line_inside_the_list() {
    rejects("2\n6 1 2 3 4 5 6\n\n6 1 2 3 4 5 6\n", 3, "blank line");
}

// ---- the binary: messages on stderr, exit code 2, no panic ----

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuerfelglueck-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn assert_input_error(output: &Output, expected: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for e in expected {
        assert!(stderr.contains(e), "stderr {stderr:?} should mention {e:?}");
    }
}

#[test]
fn the_binary_names_file_and_line() {
    let path = temp_file("bad-m.txt", b"2\n6 1 2 3 4 5 6\n6 1 1 1 6 6\n");
    let out = binary().arg("rank").arg(&path).output().unwrap();
    assert_input_error(&out, &["bad-m.txt", "line 3", "m = 6"]);
}

#[test]
fn the_binary_refuses_rank_with_fewer_than_two_dice() {
    let path = temp_file("one.txt", b"1\n6 1 2 3 4 5 6\n");
    let out = binary().arg("rank").arg(&path).output().unwrap();
    assert_input_error(&out, &["one.txt", "at least two dice"]);
    let out = binary().args(["rank", "--die", "1..6"]).output().unwrap();
    assert_input_error(&out, &["--die", "at least two dice"]);
}

#[test]
fn the_binary_reports_a_missing_file() {
    let out = binary()
        .args(["rank", "no/such/file.txt"])
        .output()
        .unwrap();
    assert_input_error(&out, &["no/such/file.txt", "cannot read"]);
}

#[test]
fn the_binary_rejects_bad_dice_and_options() {
    let out = binary()
        .args(["duel", "--a", "1,x", "--b", "1..6"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--a", "'x'"]);
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "1..6", "--games", "7"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--games", "7 games", "even"]);
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "1..6", "--precision", "0"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--precision"]);
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "1..6", "--track", "5"])
        .output()
        .unwrap();
    assert_input_error(&out, &["track length 5"]);
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "1..6", "--profile", "fast"])
        .output()
        .unwrap();
    assert_input_error(&out, &["unknown profile switch 'fast'"]);
    let out = binary()
        .args(["duel", "--a", "6", "--b", "6", "--profile", "roll-off"])
        .output()
        .unwrap();
    assert_input_error(&out, &["roll-off"]);
}

// ---- one face limit for every source of dice ----

#[test]
fn die_new_refuses_no_faces_and_too_many() {
    assert_eq!(Die::new(vec![]), Err(DieError::NoFaces));
    assert_eq!(
        Die::new(vec![1; MAX_FACES + 1]),
        Err(DieError::TooManyFaces(MAX_FACES + 1))
    );
    assert_eq!(
        Die::new(vec![1; MAX_FACES]).unwrap().faces().len(),
        MAX_FACES
    );
}

#[test]
fn the_command_line_and_the_dice_file_share_the_face_limit() {
    let top = MAX_FACES - 1;
    // Exactly MAX_FACES faces: accepted both ways.
    let notation: Die = format!("0..{top}").parse().unwrap();
    let faces: Vec<String> = (0..MAX_FACES).map(|f| f.to_string()).collect();
    let file = format!("1\n{MAX_FACES} {}\n", faces.join(" "));
    assert_eq!(parse_dice_text(&file, "big.txt").unwrap(), vec![notation]);
    // One more: refused both ways, naming the limit.
    let err = format!("0..{}", top + 1).parse::<Die>().unwrap_err();
    assert!(err.contains(&MAX_FACES.to_string()), "{err}");
    rejects(
        &format!("1\n{} 1\n", MAX_FACES + 1),
        2,
        &MAX_FACES.to_string(),
    );
    // Many ranges in one argument are counted together, before any is expanded.
    let many = vec!["0..1000000"; 4000].join(",");
    let err = many.parse::<Die>().unwrap_err();
    assert!(err.contains(&MAX_FACES.to_string()), "{err}");
}

#[test]
fn a_die_with_the_largest_faces_reads_back_from_its_display() {
    // Before: ..., 4294967295, 0 counted as a run and printed as the unreadable
    // "4294967294..0".
    let die = Die::new(vec![u32::MAX - 2, u32::MAX - 1, u32::MAX, 0]).unwrap();
    let text = die.to_string();
    assert_eq!(text, "4294967293..4294967295,0");
    assert_eq!(text.parse::<Die>().unwrap(), die);
}

// ---- bad input is quoted short and escaped ----

#[test]
fn an_excerpt_is_short_and_escapes_control_characters() {
    assert_eq!(excerpt("x"), "'x'");
    assert_eq!(excerpt("a\u{1b}[31mb\n"), "'a\\u{1b}[31mb\\n'");
    let long = "z".repeat(10_000);
    let quoted = excerpt(&long);
    assert!(quoted.len() < 80, "{quoted}");
    assert!(quoted.contains("10000 characters"), "{quoted}");
}

#[test]
fn a_10_kb_garbage_line_is_not_echoed_whole() {
    let garbage = format!("1\n6 1 2 3 4 5 {}\u{1b}[2J\n", "x".repeat(10_000));
    let path = temp_file("garbage.txt", garbage.as_bytes());
    let out = binary().arg("rank").arg(&path).output().unwrap();
    assert_input_error(&out, &["garbage.txt", "line 2", "characters"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.len() < 400, "{} bytes: {stderr}", stderr.len());
    assert!(
        !stderr.contains('\u{1b}'),
        "raw escape character in {stderr:?}"
    );
    let arg = format!("1,{}\u{1b}", "y".repeat(10_000));
    let out = binary()
        .args(["duel", "--a", &arg, "--b", "1..6"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--a", "characters"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.len() < 400, "{} bytes: {stderr}", stderr.len());
    assert!(
        !stderr.contains('\u{1b}'),
        "raw escape character in {stderr:?}"
    );
}

#[test]
fn the_binary_refuses_a_die_with_too_many_faces() {
    let out = binary()
        .args(["duel", "--a", "0..2000000", "--b", "1..6"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--a", &MAX_FACES.to_string()]);
    let path = temp_file("many-faces.txt", b"2\n2000000 1\n6 1 2 3 4 5 6\n");
    let out = binary().arg("rank").arg(&path).output().unwrap();
    assert_input_error(&out, &["many-faces.txt", "line 2", &MAX_FACES.to_string()]);
}

// ---- plans that cannot run are refused before any game ----

#[test]
fn a_precision_beyond_the_game_cap_is_refused_up_front() {
    // Before: 1e-10 overflowed the planned count, which wrapped to 0 games; the duel
    // stopped after the pilot with a half-width of 0.007 and claimed 1e-10 (exit 0).
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "2..7", "--precision", "1e-10"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--precision", "9.6e19 games", "10^13", "3.10e-7"]);
    assert!(out.stdout.is_empty());
    let out = binary()
        .args([
            "rank",
            "--die",
            "1..6",
            "--die",
            "2..7",
            "--precision",
            "1e-12",
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["--precision", "10^13"]);
}

#[test]
fn a_game_count_beyond_the_cap_is_refused_up_front() {
    let out = binary()
        .args([
            "duel",
            "--a",
            "1..6",
            "--b",
            "2..7",
            "--games",
            "20000000000000",
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["--games", "20000000000000 games", "10^13"]);
}

#[test]
fn a_precision_claim_in_the_output_is_one_that_was_reached() {
    let out = binary()
        .args([
            "duel",
            "--a",
            "1..6",
            "--b",
            "2..7",
            "--precision",
            "0.004",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let claimed = report["precision"].as_f64().unwrap();
    approx::assert_relative_eq!(claimed, 0.004);
    let games = report["games"].as_u64().unwrap();
    let a_wins = report["a_wins"].as_u64().unwrap();
    // The Wilson half-width recomputed from the counts, and the one printed.
    let interval = wuerfelglueck::stats::wilson(a_wins, games, wuerfelglueck::stats::Z95);
    assert!(
        interval.half_width() <= claimed,
        "{interval:?} after {games} games"
    );
    let printed = &report["ci95"];
    let half = (printed[1].as_f64().unwrap() - printed[0].as_f64().unwrap()) / 2.0;
    assert!(half <= claimed, "{printed} after {games} games");
}

#[test]
fn a_long_run_is_announced_with_its_games_and_time() {
    let long = DuelPlan {
        games: 1_000_000_000,
        played: 20_480,
        elapsed: Duration::from_millis(20),
    };
    let line = plan_line("duel", &long).expect("a run of about 16 minutes is announced");
    assert!(line.contains("1,000,000,000 games"), "{line}");
    assert!(line.contains("16 min"), "{line}");
    let short = DuelPlan {
        games: 40_960,
        ..long
    };
    assert_eq!(plan_line("duel", &short), None);
}

// ---- resource limits ----

#[test]
fn threads_beyond_the_cap_are_refused_and_beyond_the_cores_warned() {
    let too_many = (MAX_THREADS + 1).to_string();
    let out = binary()
        .args([
            "duel",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--games",
            "2",
            "--threads",
            &too_many,
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["--threads", &MAX_THREADS.to_string()]);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if cores < MAX_THREADS {
        let more = (cores + 1).to_string();
        let out = binary()
            .args([
                "duel",
                "--a",
                "1..6",
                "--b",
                "1..6",
                "--games",
                "2",
                "--threads",
                &more,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("warning: --threads"), "{stderr}");
    }
}

#[test]
fn max_memory_above_the_machine_is_refused() {
    if wuerfelglueck::exact::memory::machine_memory().is_none() {
        return; // nothing to compare with on this system
    }
    let out = binary()
        .args([
            "solve",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--track",
            "8",
            "--offset",
            "4",
            "--pieces",
            "1",
            "--goal-fields",
            "1",
            "--max-memory",
            "1000TiB",
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["--max-memory", "'1000TiB'", "this machine has"]);
    let garbage = format!("{}GiB", "9".repeat(5_000));
    let out = binary()
        .args([
            "solve",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--max-memory",
            &garbage,
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["--max-memory", "characters"]);
    assert!(out.stderr.len() < 400);
}

#[test]
fn matchups_that_cannot_be_played_are_refused() {
    let out = binary()
        .args(["duel", "--a", "1..6", "--b", "1..6", "--max-rolls", "0"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--max-rolls 0"]);
    let out = binary()
        .args(["play", "--a", "6,6", "--b", "6", "--profile", "roll-off"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--profile", "roll-off", "never decide"]);
    let out = binary()
        .args(["play", "--a", "1..6", "--b", "1..6", "--max-rolls", "0"])
        .output()
        .unwrap();
    assert_input_error(&out, &["--max-rolls 0"]);
}

#[test]
fn a_board_too_large_for_a_bit_mask_is_refused_even_when_the_sum_wraps() {
    let out = binary()
        .args([
            "duel",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--games",
            "2",
            "--track",
            "4294967295",
        ])
        .output()
        .unwrap();
    assert_input_error(&out, &["64 fields"]);
}
