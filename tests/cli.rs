//! The commands as a user runs them: output shapes, field names, determinism.

use approx::assert_abs_diff_eq;
use serde_json::Value;

mod common;

use common::{SMALL_BOARD, binary, json, output, run_captured, stdout_of};

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
    // Equal halves: p_a is the mean of the two starts.
    assert_abs_diff_eq!(mean, p, epsilon = 1e-12);
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
    let one = stdout_of(&args("1"));
    let two = stdout_of(&args("2"));
    assert_eq!(one, two);
    let other_seed = stdout_of(&[
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
    let table = stdout_of(&["rank", "data/wuerfel1.txt", "--games", "2000"]);
    assert!(table.contains("Ranking"), "{table}");
    assert!(table.contains("1..6") && table.contains("6..11"));
    let csv = stdout_of(&[
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
fn a_table_never_prints_an_interval_as_a_point() {
    // Regression: 1..4 never wins, and over 100,000 games the table printed
    // `[0.0000, 0.0000]` where the JSON's Wilson interval ends at 3.8e-5.
    let args = [
        "duel", "--a", "1..4", "--b", "1..6", "--games", "100000", "--seed", "1",
    ];
    let v = json(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(v["p_a"], 0.0);
    let hi = v["ci95"][1].as_f64().unwrap();
    assert!(hi > 3.8e-5 && hi < 3.9e-5, "{hi}");
    let table = stdout_of(&args);
    assert!(table.contains("95 % CI [0.0000, 3.8e-5]"), "{table}");
    assert!(table.contains("P(B wins)     1.0000"), "{table}");
    // The ranking's matrix likewise, both ways round: 1 - 3.8e-5 is not 1.
    let ranked = stdout_of(&[
        "rank", "--die", "1..6", "--die", "1..4", "--games", "100000",
    ]);
    assert!(ranked.contains("[0.99996, 1.00000]"), "{ranked}");
    assert!(ranked.contains("[0.0000, 3.8e-5]"), "{ranked}");
}

#[test]
fn play_shows_a_game_roll_by_roll() {
    let text = stdout_of(&["play", "--a", "1..6", "--b", "1..6", "--seed", "4"]);
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
    let text = stdout_of(&["play", "--a", "6", "--b", "0", "--seed", "1"]);
    assert!(text.contains("never ends"), "{text}");
}

/// `play --format json` is the game the table narrates: one turn per roll line, the same
/// faces and movers in the same order, and the same end.
#[test]
fn play_json_lists_every_roll_the_table_prints() {
    for extra in [
        &[][..],
        &["--profile", "choice", "--strategy-a", "capture"][..],
        &["--players", "3", "--die", "2..7"][..],
        &[
            "--players",
            "4",
            "--die",
            "2..7",
            "--die",
            "1..6",
            "--profile",
            "choice",
            "--strategy",
            "strong",
        ][..],
    ] {
        let mut args = vec!["play", "--a", "1..6", "--b", "1..6", "--seed", "4"];
        args.extend_from_slice(extra);
        let text = stdout_of(&args);
        let rolls: Vec<(String, u32)> = text
            .lines()
            .filter_map(|l| {
                let (head, _) = l.split_once(':')?;
                let mut words = head.split_whitespace();
                let _number: u64 = words.next()?.parse().ok()?;
                let player = words.next()?.to_string();
                (words.next()? == "rolls").then_some(())?;
                Some((player, words.next()?.parse().ok()?))
            })
            .collect();
        args.extend_from_slice(&["--format", "json"]);
        let v = json(&args);
        let turns = v["turns"].as_array().unwrap();
        assert_eq!(
            turns.len(),
            rolls.len(),
            "{extra:?}: one turn per roll line"
        );
        assert!(rolls.len() > 10, "{extra:?}: a game has many rolls");
        for (turn, (player, face)) in turns.iter().zip(&rolls) {
            assert_eq!(turn["player"], player.as_str());
            assert_eq!(turn["face"], *face);
        }
        let winner = v["winner"].as_str().unwrap();
        assert_eq!(v["end"], "won");
        assert!(
            text.lines()
                .last()
                .unwrap()
                .starts_with(&format!("{winner} wins after {} rolls", rolls.len()))
        );
        assert_eq!(turns.last().unwrap()["winner"], winner);
    }
}

/// `play --players N` under `choice` plays each seat's strategy: `rearmost` seats always
/// take the last of their choices, a seat given none plays `--strategy`, and the report
/// names them; a strategy for a seat the table does not have, or one that plays only games
/// of two, is refused.
#[test]
fn play_at_a_table_plays_each_seats_strategy() {
    let v = json(&[
        "play",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--die",
        "1..6",
        "--die",
        "1..6",
        "--players",
        "4",
        "--profile",
        "choice",
        "--strategy",
        "capture",
        "--strategy-a",
        "rearmost",
        "--strategy-c",
        "rearmost",
        "--seed",
        "9",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["strategies"],
        serde_json::json!(["rearmost", "capture", "rearmost", "capture"])
    );
    let mut decided = [0; 4];
    for turn in v["turns"].as_array().unwrap() {
        let choices = turn["choices"].as_array().unwrap();
        if choices.is_empty() {
            continue;
        }
        let seat = ["A", "B", "C", "D"]
            .iter()
            .position(|s| turn["player"] == *s)
            .unwrap();
        decided[seat] += 1;
        let made = format!(
            "{}->{}",
            turn["move"]["from"].as_str().unwrap(),
            turn["move"]["to"].as_str().unwrap()
        );
        assert!(choices.iter().any(|c| c == made.as_str()), "{turn}");
        if seat == 0 || seat == 2 {
            assert_eq!(choices.last().unwrap(), made.as_str(), "{turn}");
        }
    }
    // The rearmost seats' checks above ran (a seat whose pieces stay out may never choose).
    assert!(decided[0] > 0 && decided[2] > 0, "{decided:?}");
    for (args, expected) in [
        (
            &["--players", "3", "--die", "1..6", "--strategy-d", "safe"][..],
            "--strategy-d: there is no such seat at a table of 3",
        ),
        (
            &[
                "--players",
                "3",
                "--die",
                "1..6",
                "--strategy-c",
                "strong-search",
            ][..],
            "made for games of two players",
        ),
    ] {
        let mut all = vec!["play", "--a", "1..6", "--b", "1..6", "--profile", "choice"];
        all.extend_from_slice(args);
        let (code, _, err) = run_captured(&all);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(expected), "{err}");
    }
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
    let out = binary()
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

/// Parses CSV text with the `csv` crate: the header and the rows. Fails on rows of another
/// length than the header, on `NaN` or infinite fields, and on an empty document.
fn parse_csv(text: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert!(!rows.is_empty(), "no rows in {text}");
    for row in &rows {
        for (name, field) in header.iter().zip(row) {
            let lower = field.to_ascii_lowercase();
            assert!(
                !["nan", "inf", "-inf", "infinity"].contains(&lower.as_str()),
                "{name} = {field}: an undefined figure must be an empty field"
            );
        }
    }
    (header, rows)
}

/// Every CSV has the columns `docs/src/output.md` promises, is parsed back by the `csv` crate (dice
/// such as `1,1,1,6,6,6` quoted), and leaves an undefined figure empty instead of `NaN`:
/// with 1..4 against 1..4 no piece ever enters, no game ends, so P(row wins | the game
/// ends) and the mean length of a finished game are undefined.
#[test]
fn csv_has_the_promised_columns_and_no_nan() {
    let duel = stdout_of(&[
        "duel", "--a", "1..4", "--b", "1..4", "--games", "20", "--format", "csv",
    ]);
    let (header, rows) = parse_csv(&duel);
    // `docs/src/output.md`: the scalar fields of the JSON, `ci95` as `ci95_lo`, `ci95_hi`.
    let scalar_fields = [
        "die_a",
        "die_b",
        "profile",
        "board",
        "games",
        "a_wins",
        "b_wins",
        "unfinished",
        "endless",
        "p_a",
        "ci95_lo",
        "ci95_hi",
        "p_b",
        "p_a_if_a_starts",
        "p_a_if_b_starts",
        "games_a_started",
        "mean_rolls",
        "seed",
        "max_rolls",
        "stopping",
        "precision",
        "strategy_a",
        "strategy_b",
    ];
    assert_eq!(header, scalar_fields);
    let json = json(&[
        "duel", "--a", "1..4", "--b", "1..4", "--games", "20", "--format", "json",
    ]);
    for (name, field) in header.iter().zip(&rows[0]) {
        let name = name.trim_end_matches("_lo").trim_end_matches("_hi");
        let value = json
            .get(name)
            .unwrap_or_else(|| panic!("{name} not in {json}"));
        // `null` in JSON is an empty CSV field, and only then.
        assert_eq!(
            value.is_null(),
            field.is_empty(),
            "{name}: {value} / {field}"
        );
    }
    assert_eq!(
        &rows[0][header.iter().position(|h| h == "mean_rolls").unwrap()],
        ""
    );

    let rank = stdout_of(&[
        "rank",
        "--die",
        "1..4",
        "--die",
        "1..4",
        "--die",
        "1,1,1,6,6,6",
        "--games",
        "20",
        "--max-rolls",
        "2000",
        "--format",
        "csv",
    ]);
    let (header, rows) = parse_csv(&rank);
    assert_eq!(
        header,
        [
            "row_die",
            "col_die",
            "p_row_wins",
            "ci95_lo",
            "ci95_hi",
            "p_row_wins_given_end",
            "unfinished",
            "method",
            "games",
            "undecided"
        ]
    );
    assert_eq!(rows.len(), 6, "one line per ordered pair");
    assert_eq!(&rows[0][0], "1..4");
    assert_eq!(&rows[0][5], "", "no game of 1..4 against 1..4 ends");
    assert!(rows.iter().any(|r| &r[1] == "1,1,1,6,6,6"));

    let mut solve = vec!["solve", "--a", "1..6", "--b", "1,1,1,6,6,6"];
    solve.extend(SMALL_BOARD);
    solve.extend(["--tolerance", "1e-9", "--format", "csv"]);
    let (header, rows) = parse_csv(&stdout_of(&solve));
    assert_eq!(rows.len(), 1);
    // The JSON names of `docs/src/output.md`, the intervals as `NAME_lo`, `NAME_hi`.
    for name in [
        "p_a",
        "p_a_if_a_starts",
        "p_a_if_b_starts",
        "p_b",
        "p_never",
        "p_never_if_a_starts",
        "p_never_if_b_starts",
    ] {
        for column in [name.to_string(), format!("{name}_lo"), format!("{name}_hi")] {
            assert!(header.contains(&column), "missing {column} in {header:?}");
        }
    }
    for name in [
        "states",
        "transitions",
        "iterations",
        "seconds",
        "p_a_starts",
        "product_states",
        "never_states",
        "memory_bytes",
        "build_seconds",
        "solve_seconds",
    ] {
        assert!(header.iter().any(|h| h == name), "missing {name}");
    }
    assert_eq!(&rows[0][1], "1,1,1,6,6,6");
    let at = |name: &str| -> f64 {
        rows[0][header.iter().position(|h| h == name).unwrap()]
            .parse()
            .unwrap()
    };
    assert!(at("p_a_lo") <= at("p_a") && at("p_a") <= at("p_a_hi"));
}

/// The values `--format` lists in a command's help are exactly the values it accepts.
#[test]
fn every_listed_format_is_accepted() {
    let small: Vec<&str> = SMALL_BOARD.to_vec();
    let commands: Vec<Vec<&str>> = vec![
        vec!["duel", "--a", "1..6", "--b", "2..7", "--games", "200"],
        vec!["rank", "--die", "1..6", "--die", "2..7", "--games", "200"],
        [vec!["solve", "--a", "1..6", "--b", "2..7"], small.clone()].concat(),
        [
            vec!["converge", "--a", "1..6", "--b", "2..7", "--reps", "2"],
            vec!["--max-games", "200"],
            small,
        ]
        .concat(),
        vec!["wubbel", "--goal", "10"],
        vec!["pig", "--goal", "10"],
    ];
    for command in commands {
        let help = stdout_of(&[command[0], "-h"]);
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with("--format"))
            .unwrap_or_else(|| panic!("{}: no --format in {help}", command[0]));
        let listed = line
            .split("[possible values: ")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .unwrap_or_else(|| panic!("{line}"));
        let listed: Vec<&str> = listed.split(", ").collect();
        assert!(
            listed.contains(&"table") && listed.contains(&"json"),
            "{line}"
        );
        for format in ["table", "json", "csv"] {
            let mut args = command.clone();
            args.extend(["--format", format]);
            let out = output(&args);
            if listed.contains(&format) {
                assert!(
                    out.status.success(),
                    "{args:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                assert!(!out.stdout.is_empty());
            } else {
                // Refused by the parser, before any work, naming the accepted values.
                assert_eq!(out.status.code(), Some(2), "{args:?}");
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(
                    err.contains(format) && err.contains("possible values"),
                    "{err}"
                );
                assert!(out.stdout.is_empty());
            }
        }
    }
}

#[test]
fn every_solver_refuses_a_tolerance_below_what_f64_can_certify() {
    // One rule for every solver (`fixpoint::TOLERANCE_FLOOR`, 1e-14): below it no bracket can
    // close, and before this rule `rank --exact` accepted any positive width and `solve`
    // anything in (0, 1).
    let commands: [&[&str]; 4] = [
        &["solve", "--a", "1..6", "--b", "1..6", "--pieces", "1"],
        &[
            "rank", "--die", "1..6", "--die", "2..7", "--pieces", "1", "--exact",
        ],
        &["wubbel"],
        &["pig"],
    ];
    for command in commands {
        for tolerance in ["1e-15", "0", "NaN", "2"] {
            let args: Vec<&str> = command
                .iter()
                .copied()
                .chain(["--tolerance", tolerance])
                .collect();
            let out = output(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains("--tolerance") && stderr.contains("1e-14"),
                "{args:?}: {stderr}"
            );
            assert!(out.stdout.is_empty(), "{args:?} printed a result");
        }
    }
    let out = output(&["solve", "--a", "1..6", "--b", "1..6", "--max-sweeps", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-sweeps"));
}

#[test]
fn converge_refuses_a_plan_beyond_the_game_cap_before_any_game() {
    // 10^6 replicates of 10^8 games are 10^14 games, above the 10^13 every simulation is
    // capped at; before, the product was neither checked nor capped.
    let out = output(&[
        "converge",
        "--a",
        "1..6",
        "--b",
        "2..7",
        "--pieces",
        "1",
        "--reps",
        "1000000",
        "--max-games",
        "100000000",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--max-games"), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// The board of the `choice` ranking tests: small enough that every pair solves in well
/// under a second.
const CHOICE_BOARD: [&str; 10] = [
    "--profile",
    "choice",
    "--track",
    "12",
    "--offset",
    "6",
    "--pieces",
    "2",
    "--goal-fields",
    "2",
];

#[test]
fn an_exact_ranking_under_choice_is_optimal_play_pair_by_pair() {
    // Every cell of `rank --exact --profile choice` is P(row die wins) under optimal play
    // on both sides: checked against `solve --profile choice` of the same pair, a separate
    // command (both openings averaged there too).
    let dice = ["1..6", "1,1,1,6,6,6", "2..7"];
    let mut args = vec!["rank", "--exact", "--format", "json"];
    for d in &dice {
        args.extend(["--die", d]);
    }
    args.extend(CHOICE_BOARD);
    let ranking = json(&args);
    assert_eq!(ranking["strategy_a"], "optimal");
    assert_eq!(ranking["strategy_b"], "optimal");
    for i in 0..dice.len() {
        for j in 0..dice.len() {
            if i == j {
                continue;
            }
            let mut solve = vec!["solve", "--a", dice[i], "--b", dice[j], "--format", "json"];
            solve.extend(CHOICE_BOARD);
            let pair = json(&solve);
            assert_eq!(pair["strategy_a"], "optimal");
            assert_eq!(pair["strategy_b"], "optimal");
            let p = ranking["matrix"][i][j].as_f64().unwrap();
            assert_abs_diff_eq!(p, pair["p_a"].as_f64().unwrap(), epsilon = 1e-9);
        }
    }
    // Optimal play differs from the rules' own moves: the bwinf ranking of the same dice
    // gives other figures (the test would pass vacuously if choice were ignored).
    let mut bwinf = vec!["rank", "--exact", "--format", "json"];
    for d in &dice {
        bwinf.extend(["--die", d]);
    }
    bwinf.extend(&CHOICE_BOARD[2..]);
    let bwinf = json(&bwinf);
    assert_eq!(bwinf["strategy_a"], "frontmost");
    let (p_choice, p_bwinf) = (
        ranking["matrix"][0][2].as_f64().unwrap(),
        bwinf["matrix"][0][2].as_f64().unwrap(),
    );
    assert!((p_choice - p_bwinf).abs() > 1e-3, "{p_choice} {p_bwinf}");
}

#[test]
fn an_exact_ranking_under_choice_refuses_a_heuristic_and_never_simulates() {
    // --strategy names what a simulation plays; the exact ranking solves optimal play.
    let mut args = vec!["rank", "--die", "1..6", "--die", "2..7", "--exact"];
    args.extend(["--strategy", "safe"]);
    args.extend(CHOICE_BOARD);
    let out = output(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("optimal play"), "{stderr}");
    assert!(out.stdout.is_empty());
    // A pair that does not fit in memory is an error under choice: a simulation would
    // play frontmost and label it optimal.
    let mut args = vec!["rank", "--die", "1..6", "--die", "2..7", "--exact"];
    args.extend(["--max-memory", "1KiB"]);
    args.extend(CHOICE_BOARD);
    let out = output(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A ranking that stops at a pair is a failure of the run (exit 1), whatever the cause:
    // the pairs before it may have been solved and kept.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("more than the limit"), "{stderr}");
    assert!(out.stdout.is_empty());
}
