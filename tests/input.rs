//! Bad input gets a message naming file, line and what was expected, and exit code 2.

use std::path::PathBuf;
use std::process::{Command, Output};
use wuerfelglueck::dice::parse_dice_text;

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

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
}

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
    assert_input_error(&out, &["--games 7", "even"]);
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
