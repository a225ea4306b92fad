//! The `wubbel` and `pig` commands, run as the built binary.
//!
//! Expected figures come from outside the code: Neller & Presser's published Pig value and
//! small games solved by hand.

use approx::assert_abs_diff_eq;
use serde_json::Value;

mod common;

use common::{json, output, temp_dir};

fn input_error(args: &[&str], mentions: &str) {
    let out = output(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(mentions), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn wubbel_json_has_the_fields() {
    let v = json(&["wubbel", "--format", "json"]);
    assert_eq!(v["goal"], 50);
    assert_eq!(v["bust"], 6);
    assert_eq!(v["faces"], serde_json::json!([1, 2, 3, 4, 5, 6]));
    assert!(v["iterations"].as_u64().unwrap() > 0);
    let p = v["p_start"].as_f64().unwrap();
    // Moving first is an advantage; a turn cannot win 50 points often enough to make it
    // anywhere near decisive.
    assert!(p > 0.5 && p < 0.6, "{p}");
    assert!(v.get("decisions").is_none());
}

#[test]
fn pig_query_json_matches_the_published_value() {
    let v = json(&["pig", "--query", "0,0", "--format", "json"]);
    assert_eq!(v["goal"], 100);
    assert_eq!(v["bust"], 1);
    let p = v["p_start"].as_f64().unwrap();
    // Neller & Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004:
    // the first player wins with probability 0.5306 under optimal play.
    assert_abs_diff_eq!(p, 0.5306, epsilon = 0.00005);
    let decisions: Vec<&str> = v["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(decisions.len(), 100);
    assert!(decisions.iter().all(|d| *d == "ROLL" || *d == "SAVE"));
    // u = 0: every turn starts with a roll.
    assert_eq!(decisions[0], "ROLL");
    // Some SAVE: a player who always rolls on at (0, 0) reaches 100 in one turn with
    // probability at most (5/6)^17 < 0.05 (at least 17 rolls of at most 6), else busts, so
    // P <= 0.05 + (1 - P), P < 0.53: less than the value.
    assert!(decisions.contains(&"SAVE"));
}

#[test]
fn pig_is_wubbel_with_pig_parameters() {
    let a = json(&["pig", "--format", "json"]);
    let b = json(&[
        "wubbel",
        "--goal",
        "100",
        "--bust",
        "1",
        "--faces",
        "1,2,3,4,5,6",
        "--format",
        "json",
    ]);
    assert_eq!(a, b);
    let c = json(&["wubbel", "--goal", "50", "--bust", "6", "--format", "json"]);
    assert_eq!(c, json(&["wubbel", "--format", "json"]));
}

#[test]
fn small_games_solved_by_hand() {
    // Goal 1: P = 5/6 + 1/6 (1 - P), P = 6/7.
    let v = json(&["wubbel", "--goal", "1", "--format", "json"]);
    assert_abs_diff_eq!(v["p_start"].as_f64().unwrap(), 6.0 / 7.0, epsilon = 1e-10);
    // A coin (heads 1 scores, tails 2 busts) to 2 points: P(0,0,0) = 4/7.
    let v = json(&[
        "wubbel", "--goal", "2", "--faces", "1,2", "--bust", "2", "--query", "0,1", "--format",
        "json",
    ]);
    assert_abs_diff_eq!(v["p_start"].as_f64().unwrap(), 4.0 / 7.0, epsilon = 1e-10);
    assert_abs_diff_eq!(v["p_query"].as_f64().unwrap(), 0.4, epsilon = 1e-10);
    assert_eq!(v["decisions"], serde_json::json!(["ROLL", "ROLL"]));
}

#[test]
fn compare_and_simulate() {
    let v = json(&[
        "wubbel",
        "--compare",
        "--simulate",
        "20000",
        "--format",
        "json",
    ]);
    let p = v["p_start"].as_f64().unwrap();
    let names = v["compare"]["strategies"].as_array().unwrap();
    assert_eq!(names.len(), 3);
    let m = v["compare"]["first_player_wins"].as_array().unwrap();
    let at = |i: usize, j: usize| m[i][j].as_f64().unwrap();
    assert_eq!(at(0, 0), p);
    for j in 1..3 {
        // The optimal strategy guarantees the game's value in either seat.
        assert!(at(0, j) >= p - 1e-9 && at(j, 0) <= p + 1e-9);
    }
    let rows = v["simulation"]["pairings"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        assert_eq!(r["games"], 20000);
        assert_eq!(r["agrees"], true, "{r}");
    }
}

#[test]
fn table_output_and_plot() {
    let path = std::env::temp_dir().join(format!("wubbel-test-{}.svg", std::process::id()));
    let out = output(&[
        "wubbel",
        "--query",
        "10,20",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("P(first player wins) = 0.5"));
    assert!(text.contains("ROLL u=0"));
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg") && svg.contains("own score e"));
}

#[test]
fn bad_input_is_refused() {
    input_error(&["wubbel", "--goal", "0"], "goal");
    input_error(&["wubbel", "--bust", "7"], "bust face 7");
    input_error(
        &["wubbel", "--faces", "6,6", "--bust", "6"],
        "no face that scores",
    );
    input_error(&["pig", "--query", "100,0"], "out of range");
    input_error(&["wubbel", "--query", "3,50"], "out of range");
    input_error(&["wubbel", "--format", "csv"], "csv");
    input_error(&["wubbel", "--tolerance", "0"], "tolerance");
    input_error(&["wubbel", "--compare", "--hold", "0"], "at least 1");
    // clap's own errors also exit with 2.
    input_error(&["wubbel", "--query", "3"], "E,G");
    input_error(&["wubbel", "--simulate", "10"], "--compare");
}

/// The decision map never replaces an existing file without --overwrite (it used to be
/// written over silently), and the refusal comes before the solve.
#[test]
fn decision_map_is_refused_without_overwrite() {
    let dir = temp_dir("pig", "overwrite");
    for command in ["wubbel", "pig"] {
        let path = dir.join(format!("{command}.svg"));
        std::fs::write(&path, "keep me").unwrap();
        let out = output(&[command, "--plot", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--overwrite"));
        assert!(out.stdout.is_empty(), "refused before solving");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
        let out = output(&[command, "--plot", path.to_str().unwrap(), "--overwrite"]);
        assert!(out.status.success());
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A decision map whose folder is missing, or that is a folder, is refused before the
/// solve: exit 2, the path and the problem named, nothing printed.
#[test]
fn decision_map_target_is_checked_before_the_solve() {
    let dir = temp_dir("pig", "targets");
    let missing = dir.join("no-such-folder").join("map.svg");
    for command in ["wubbel", "pig"] {
        for (target, problem) in [(&missing, "folder does not exist"), (&dir, "is a folder")] {
            let target = target.to_str().unwrap();
            input_error(&[command, "--plot", target], problem);
            input_error(&[command, "--plot", target], target);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The results come first: when the decision map cannot be written (here: a file in
/// `/proc`, a folder that passes the check before the work but where no file can be
/// created, even by root), they are printed all the same and the exit code says that
/// something failed. The map used to be written before the results, so a
/// failing map took them along.
#[cfg(target_os = "linux")]
#[test]
fn results_are_printed_when_the_decision_map_fails() {
    for command in ["wubbel", "pig"] {
        let out = output(&[
            command,
            "--plot",
            "/proc/wuerfelglueck-test-map.svg",
            "--overwrite",
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("/proc/wuerfelglueck-test-map.svg"));
        let v: Value = serde_json::from_slice(&out.stdout).expect("the results, printed");
        assert!(v["p_start"].as_f64().unwrap() > 0.5);
    }
}
