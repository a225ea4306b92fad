//! The commands as a user runs them: output shapes, field names, determinism.

use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&run(args)).unwrap()
}

#[test]
fn duel_json_has_the_documented_fields() {
    let v = json(&[
        "duel",
        "--a",
        "1..6",
        "--b",
        "1,1,1,6,6,6",
        "--games",
        "20000",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    for key in [
        "die_a",
        "die_b",
        "profile",
        "games",
        "a_wins",
        "b_wins",
        "unfinished",
        "p_a",
        "ci95",
        "p_a_if_a_starts",
        "p_a_if_b_starts",
        "seed",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["games"], 20000);
    assert_eq!(v["die_b"], "1,1,1,6,6,6");
    let a = v["a_wins"].as_u64().unwrap();
    let b = v["b_wins"].as_u64().unwrap();
    let u = v["unfinished"].as_u64().unwrap();
    assert_eq!(a + b + u, 20000);
    let ci = v["ci95"].as_array().unwrap();
    let p = v["p_a"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= p && p <= ci[1].as_f64().unwrap());
    let mean =
        (v["p_a_if_a_starts"].as_f64().unwrap() + v["p_a_if_b_starts"].as_f64().unwrap()) / 2.0;
    assert!(
        (mean - p).abs() < 1e-12,
        "equal halves: p_a is the mean of the two starts"
    );
}

#[test]
fn duel_is_reproducible_from_its_seed_and_independent_of_threads() {
    let args = |threads: &'static str| {
        vec![
            "duel",
            "--a",
            "1..6",
            "--b",
            "0..9",
            "--games",
            "30000",
            "--seed",
            "11",
            "--threads",
            threads,
            "--format",
            "csv",
        ]
    };
    let one = run(&args("1"));
    let two = run(&args("2"));
    assert_eq!(one, two);
    let other_seed = run(&[
        "duel", "--a", "1..6", "--b", "0..9", "--games", "30000", "--seed", "12", "--format", "csv",
    ]);
    assert_ne!(one, other_seed, "another seed gives other games");
    assert!(one.starts_with("die_a,die_b,profile,board,games,a_wins"));
}

#[test]
fn rank_json_has_matrix_and_ranking() {
    let v = json(&[
        "rank",
        "data/wuerfel2.txt",
        "--games",
        "4000",
        "--format",
        "json",
    ]);
    let dice = v["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 5);
    let matrix = v["matrix"].as_array().unwrap();
    for (i, row) in matrix.iter().enumerate() {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), 5);
        assert!(row[i].is_null(), "diagonal is null");
        for (j, cell) in row.iter().enumerate() {
            if i != j {
                let p = cell.as_f64().unwrap();
                let q = matrix[j][i].as_f64().unwrap();
                assert!(
                    p + q <= 1.0 + 1e-12,
                    "wins of both sides cannot exceed all games"
                );
            }
        }
    }
    let ranking = v["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 5);
    let means: Vec<f64> = ranking
        .iter()
        .map(|e| e["mean_p"].as_f64().unwrap())
        .collect();
    assert!(
        means.windows(2).all(|w| w[0] >= w[1]),
        "best first: {means:?}"
    );
    for e in ranking {
        assert!(e["die"].is_string() && e["beaten"].is_u64());
    }
}

#[test]
fn rank_table_and_csv_are_readable() {
    let table = run(&["rank", "data/wuerfel1.txt", "--games", "2000"]);
    assert!(table.contains("Ranking"), "{table}");
    assert!(table.contains("1..6") && table.contains("6..11"));
    let csv = run(&[
        "rank",
        "data/wuerfel1.txt",
        "--games",
        "2000",
        "--format",
        "csv",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "row_die,col_die,p_row_wins,ci95_lo,ci95_hi,p_row_wins_given_end,unfinished,method,games,undecided"
    );
    assert_eq!(lines.len(), 1 + 6 * 5, "one line per ordered pair");
}

#[test]
fn rank_takes_dice_from_the_command_line() {
    let v = json(&[
        "rank", "--die", "1..6", "--die", "1..4", "--games", "2000", "--format", "json",
    ]);
    assert_eq!(v["dice"], serde_json::json!(["1..6", "1..4"]));
    // 1..4 has no 6, so it never brings a piece in and never wins.
    assert_eq!(v["matrix"][1][0], 0.0);
    assert_eq!(v["ranking"][0]["die"], "1..6");
}

#[test]
fn play_shows_a_game_roll_by_roll() {
    let text = run(&["play", "--a", "1..6", "--b", "1..6", "--seed", "4"]);
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("rolls."), "ends with the winner: {last}");
    assert!(text.contains("B -> A (brought in)"));
    assert!(text.contains("rolls again"));
    let rolls = text
        .lines()
        .filter(|l| l.contains(" rolls ") && l.contains(':'))
        .count();
    assert!(rolls > 20, "a game has many rolls, found {rolls}");
}

#[test]
fn play_stops_a_game_that_can_never_end() {
    // Only sixes: after all pieces are in or stuck, the player rolls forever.
    let text = run(&["play", "--a", "6", "--b", "0", "--seed", "1"]);
    assert!(text.contains("never ends"), "{text}");
}

/// `rank --exact --store DIR`: the second run reads every pair from DIR, gives the same
/// matrix and says so; a file in DIR that is not a record is not trusted: the run warns
/// with its path, moves it aside unchanged and solves the pair again.
#[test]
fn rank_exact_store_resumes_and_refuses_a_damaged_record() {
    let dir = std::env::temp_dir().join(format!("wg-cli-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = dir.to_str().unwrap();
    let args = [
        "rank",
        "--die",
        "1..6",
        "--die",
        "2..7",
        "--die",
        "1,1,1,6,6,6",
        "--track",
        "20",
        "--offset",
        "10",
        "--pieces",
        "2",
        "--goal-fields",
        "2",
        "--exact",
        "--store",
        store,
        "--format",
        "json",
    ];
    let first = json(&args);
    let read_note = |v: &Value| {
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n.as_str().unwrap().contains("read from"))
            .count()
    };
    assert_eq!(read_note(&first), 0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    let second = json(&args);
    assert_eq!(read_note(&second), 3);
    assert_eq!(first["matrix"], second["matrix"]);
    assert_eq!(first["ranking"], second["ranking"]);

    let damaged = dir.join("bwinf_20-10-2-2_1..6_vs_2..7.json");
    std::fs::write(&damaged, "{ half a record").unwrap();
    let third = json(&args);
    assert_eq!(read_note(&third), 2);
    assert_eq!(first["matrix"], third["matrix"]);
    let notes = third["notes"].as_array().unwrap();
    let warning = notes
        .iter()
        .map(|n| n.as_str().unwrap())
        .find(|n| n.contains("bad record"))
        .unwrap();
    assert!(warning.contains(damaged.to_str().unwrap()), "{warning}");
    // The damaged file is kept as it was, for the user to look at.
    let rejected = dir.join("bwinf_20-10-2-2_1..6_vs_2..7.json.rejected");
    assert!(warning.contains(rejected.to_str().unwrap()), "{warning}");
    assert_eq!(
        std::fs::read_to_string(&rejected).unwrap(),
        "{ half a record"
    );
    assert_eq!(json(&args)["matrix"], first["matrix"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `--store` that cannot be written is refused before any pair is solved.
#[test]
fn rank_exact_refuses_a_store_that_cannot_be_written() {
    let dir = std::env::temp_dir().join(format!("wg-cli-bad-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    // Under a regular file: refused even for root, whom permission bits do not stop.
    let store = file.join("store");
    let out = Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(["rank", "--die", "1..6", "--die", "2..7", "--track", "20"])
        .args([
            "--offset",
            "10",
            "--pieces",
            "2",
            "--goal-fields",
            "2",
            "--exact",
        ])
        .arg("--store")
        .arg(&store)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("--store {}", store.display())),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
