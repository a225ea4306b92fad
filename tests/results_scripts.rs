//! Every script in `results/` still runs: each on a small case (a small board, few games,
//! one solve of seconds) into a temporary folder, with the binary under test; the table
//! scripts also on the records kept in `results/`, and where it is cheap their output is
//! checked against the book's or against the records'. `results/` holds records, not
//! logs: no progress log, no name with a comma, and no script this file does not run.
//!
//! The scripts need `bash`, `python3` (standard library only) and `/usr/bin/time`.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::temp_dir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_wuerfelglueck")
}

/// Runs `command` from the repository root and returns its stdout; fails with its stderr.
fn run(command: &mut Command) -> String {
    let output = command
        .current_dir(root())
        .output()
        .expect("the command starts");
    assert!(
        output.status.success(),
        "{command:?}: {}\nstdout: {}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn bash(script: &str) -> Command {
    let mut command = Command::new("bash");
    command.arg(root().join(script));
    command
}

fn python(script: &str) -> Command {
    let mut command = Command::new("python3");
    command.arg(root().join(script));
    command
}

fn book(chapter: &str) -> String {
    std::fs::read_to_string(root().join("docs/src").join(chapter)).unwrap()
}

/// The rows of the Markdown tables in `text`: lines starting with `| `, but for each
/// table's header (the line before its `|---` separator).
fn rows(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .filter(|&i| {
            lines[i].starts_with("| ")
                && !lines
                    .get(i + 1)
                    .is_some_and(|next| next.starts_with("|---"))
        })
        .map(|i| lines[i])
        .collect()
}

const SMALL_BOARD: &str = "--track 16 --offset 8 --pieces 2 --goal-fields 2";

/// `run.sh small` solves one pair of seconds under `time -v` into a folder, `extract.py`
/// (which it calls) adds its row, `table.py` reads it; `search.sh small` times one search.
#[test]
fn the_estimates_scripts_run_on_a_small_solve() {
    let dir = temp_dir("results_scripts", "estimates");
    let rows_file = dir.join("rows.jsonl");
    run(bash("results/estimates/run.sh")
        .arg(binary())
        .arg("small")
        .arg(dir.join("logs"))
        .arg(&rows_file));
    let table = run(python("results/estimates/table.py")
        .arg("small")
        .arg("--data")
        .arg(&rows_file));
    let found = rows(&table);
    assert_eq!(found.len(), 1, "{table}");
    // The states of 14/7/4/4, 1..6 against 1..6, and a measured peak.
    assert!(
        found[0].starts_with("| 14-7-4-4-1..6-vs-1..6 | 5985900 | -, 0."),
        "{table}"
    );
    // extract.py again over the same logs: the set's row replaced, not added.
    run(python("results/estimates/extract.py")
        .arg("logs-small")
        .arg(dir.join("logs"))
        .arg(&rows_file));
    let text = std::fs::read_to_string(&rows_file).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let out = run(bash("results/estimates/search.sh")
        .arg(binary())
        .arg(dir.join("search"))
        .arg(&rows_file)
        .arg("small"));
    assert!(out.contains("reachable states found in"), "{out}");
    let text = std::fs::read_to_string(&rows_file).unwrap();
    let search = text
        .lines()
        .find(|l| l.contains("\"set\":\"logs-small-search\""))
        .unwrap();
    assert!(search.contains("\"search_took_s\":"), "{search}");
    assert!(
        search.contains("\"command\":\"BIN solve --a 1..6"),
        "{search}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `table.py` gives a table for every set kept in `estimates.jsonl`, the book's (set
/// `sweeps`) row for row; `replay_first_value.py` replays the kept lines of the 1..12 vs
/// 1..20 run.
#[test]
fn the_estimates_tables_come_from_the_kept_rows() {
    let data = std::fs::read_to_string(root().join("results/estimates/estimates.jsonl")).unwrap();
    assert_eq!(data.lines().count(), 45);
    let performance = book("performance.md");
    for set in [
        "logs",
        "fresh",
        "games",
        "search",
        "faces",
        "check",
        "sweeps",
        "first-value",
    ] {
        let table = run(python("results/estimates/table.py").arg(set));
        assert!(!rows(&table).is_empty(), "{set}: {table}");
        if set == "sweeps" {
            for row in rows(&table) {
                assert!(performance.contains(row), "not in the book: {row}");
            }
        }
    }
    let replay = run(python("results/estimates/replay_first_value.py")
        .arg("full-1..12-vs-1..20-released-4e-6")
        .arg("4294"));
    assert!(replay.lines().count() > 20, "{replay}");
    assert!(replay.lines().all(|l| l.contains("ratio")), "{replay}");
}

/// `scaling.sh` on one rank (no `mpi` feature needed; `tests/mpi.rs` runs two ranks) writes
/// a report, a log and a row of `runs.csv`; `summarize.py` makes a row of it, and of each
/// kept report the row of results/mpi/README.md.
#[test]
fn the_mpi_scripts_run_on_one_rank() {
    let dir = temp_dir("results_scripts", "mpi");
    run(bash("results/mpi/scaling.sh")
        .arg(binary())
        .arg(&dir)
        .args(["1..6", "2..7"])
        .args(SMALL_BOARD.split(' '))
        .env("RANKS", "1"));
    let reports: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let csv = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "report,ranks,wall_seconds,peak_kib");
    assert_eq!(lines.len(), 2, "{csv}");
    assert_eq!(lines[1].split(',').nth(1), Some("1"), "{csv}");
    let table = run(python("results/mpi/summarize.py").args(&reports));
    assert_eq!(rows(&table).len(), 1, "{table}");
    // From the groups outside the core, solved before: the run solves the core alone.
    let outside = dir.join("outside");
    run(std::process::Command::new(binary())
        .args(["solve", "--a", "1..6", "--b", "2..7", "--profile", "choice"])
        .args(SMALL_BOARD.split(' '))
        .args(["--layered", "--part", "outside-core", "--tolerance", "1e-6"])
        .arg("--values-out")
        .arg(&outside)
        .args(["--format", "json"]));
    let from = dir.join("from-outside");
    run(bash("results/mpi/scaling.sh")
        .arg(binary())
        .arg(&from)
        .args(["1..6", "2..7"])
        .args(SMALL_BOARD.split(' '))
        .env("RANKS", "1")
        .env("TOLERANCE", "1e-6")
        .env("VALUES_FROM", &outside));
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(from.join("1..6-vs-2..7-ranks1.json")).unwrap(),
    )
    .unwrap();
    let groups = report["groups"].as_array().unwrap();
    let solved: Vec<_> = groups.iter().filter(|g| g["resumed"] != true).collect();
    assert_eq!(solved.len(), 1, "{report}");
    assert_eq!(
        (&solved[0]["goal_a"], &solved[0]["goal_b"]),
        (&0.into(), &0.into())
    );
    assert!(groups.len() > 10, "{report}");
    assert!(!from.join("values-ranks1").exists(), "the copy is removed");
    // The table counts the group the run solved, not those read back.
    let table = run(python("results/mpi/summarize.py").arg(from.join("1..6-vs-2..7-ranks1.json")));
    let cells: Vec<String> = rows(&table)[0].split(" | ").map(str::to_string).collect();
    assert_eq!(cells[5], solved[0]["sweeps"].to_string(), "{table}");
    assert!(
        std::fs::read_dir(&outside).unwrap().count() == groups.len() - 1,
        "the folder copied from is left as it was"
    );
    let readme = std::fs::read_to_string(root().join("results/mpi/README.md")).unwrap();
    for folder in ["24-12-3-4", "40-20-3-4", "22-11-4-4"] {
        let mut kept: Vec<PathBuf> = std::fs::read_dir(root().join("results/mpi").join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        kept.sort();
        let table = run(python("results/mpi/summarize.py").args(&kept));
        for row in rows(&table) {
            // The report's name, then its figures up to the states sent (which the README
            // rounds): the README's row has the folder and the commit between them.
            let cells: Vec<&str> = row.split(" | ").collect();
            let name = cells[0].trim_start_matches("| ").trim_end_matches(".json");
            let figures = cells[1..10].join(" | ");
            let line = readme
                .lines()
                .find(|l| l.starts_with(&format!("| {folder} | {name} |")))
                .unwrap_or_else(|| panic!("{folder}/{name} not in the README"));
            assert!(line.contains(&figures), "{line}\n{figures}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `run.py` on 16/8/2/2 alone gives the book's rows of that board.
#[test]
fn the_heuristics_exact_script_gives_the_books_rows_of_16_8_2_2() {
    let dir = temp_dir("results_scripts", "heuristics-exact");
    let table = run(python("results/heuristics-exact/run.py")
        .arg(binary())
        .args(["--boards", "16/8/2/2", "--out"])
        .arg(dir.join("heuristics.json")));
    let found = rows(&table);
    assert_eq!(found.len(), 5, "{table}");
    let choice = book("choice.md");
    for row in found {
        assert!(choice.contains(row), "not in the book: {row}");
    }
    assert!(dir.join("heuristics.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `run.py` measures one exploitability on 16/8/2/2 into a folder, which `table.py` reads;
/// `table.py` reads the kept records of every board.
#[test]
fn the_strong_exact_scripts_run_on_16_8_2_2() {
    let dir = temp_dir("results_scripts", "strong-exact");
    run(python("results/strong-exact/run.py")
        .args([
            "16/8/2/2",
            "safe",
            "--seat",
            "a",
            "--opponent",
            "best-response",
        ])
        .args(["--binary", binary(), "--out-dir"])
        .arg(&dir));
    let solves = std::fs::read_to_string(dir.join("16-8-2-2-solves.jsonl")).unwrap();
    assert_eq!(solves.lines().count(), 1, "{solves}");
    let table = run(python("results/strong-exact/table.py").env("RESULTS_DIR", &dir));
    assert!(
        rows(&table)
            .iter()
            .any(|r| r.starts_with("| 16/8/2/2 | `safe` | at most ")),
        "{table}"
    );
    let kept = run(&mut python("results/strong-exact/table.py"));
    for board in ["16/8/2/2", "20/10/2/2", "40/20/2/4", "40/20/3/4"] {
        assert!(kept.contains(&format!("| {board} | `strong`")), "{kept}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The round robin of the heuristics on 16/8/2/2, 200 games a duel, and its table.
#[test]
fn the_strategies_scripts_run_on_a_small_board() {
    let dir = temp_dir("results_scripts", "strategies");
    run(Command::new("sh")
        .arg(root().join("results/strategies/run.sh"))
        .arg(binary())
        .env("OUT", &dir)
        .env("GAMES", "200")
        .env("BOARD", SMALL_BOARD));
    let table = run(python("results/strategies/table.py").env("RESULTS_DIR", &dir));
    // Two profiles, five strategies each.
    assert_eq!(rows(&table).len(), 10, "{table}");
    assert!(table.contains("| **safe** | "), "{table}");
    let kept = run(&mut python("results/strategies/table.py"));
    assert_eq!(rows(&kept).len(), 10, "{kept}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `run.sh 16-8-2-2` solves again what `results/strategy-exact/` keeps for that board, and
/// `table.py` gives the kept records' table from the new ones.
#[test]
fn the_strategy_exact_scripts_give_the_kept_table_of_16_8_2_2() {
    let dir = temp_dir("results_scripts", "strategy-exact");
    run(Command::new("sh")
        .arg(root().join("results/strategy-exact/run.sh"))
        .arg(binary())
        .arg("16-8-2-2")
        .env("OUT", &dir));
    let table = run(python("results/strategy-exact/table.py")
        .arg("16-8-2-2")
        .env("RESULTS_DIR", &dir));
    let kept = run(python("results/strategy-exact/table.py").arg("16-8-2-2"));
    assert_eq!(rows(&table).len(), 4, "{table}");
    assert_eq!(table, kept);
    for board in ["40-20-1-4", "20-10-2-2", "40-20-2-4"] {
        let kept = run(python("results/strategy-exact/table.py").arg(board));
        assert_eq!(rows(&kept).len(), 4, "{board}: {kept}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The learned player's duels and rankings, 20 games each, and the table.
#[test]
fn the_strong_full_scripts_run_with_few_games() {
    let dir = temp_dir("results_scripts", "strong-full");
    run(bash("results/strong-full/run.sh")
        .arg(binary())
        .env("OUT", &dir)
        .env("GAMES", "20"));
    for name in [
        "strong-vs-safe.json",
        "strong-search-vs-strong.json",
        "strong-search-2-vs-safe.json",
        "rank-wuerfel3.json",
        "style-40-20-4-4-strong.json",
    ] {
        assert!(dir.join(name).exists(), "{name}");
    }
    let table = run(python("results/strong-full/table.py").env("RESULTS_DIR", &dir));
    assert!(table.contains("| `safe` | "), "{table}");
    assert!(table.contains("| 20 |"), "{table}");
    run(&mut python("results/strong-full/table.py"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tables of three and four, 48 games each (every seating of four twice), and the table.
#[test]
fn the_tables_choice_scripts_run_with_few_games() {
    let dir = temp_dir("results_scripts", "tables-choice");
    run(bash("results/tables-choice/run.sh")
        .env("BIN", binary())
        .env("OUT", &dir)
        .env("GAMES", "48"));
    let table = run(python("results/tables-choice/table.py").env("RESULTS_DIR", &dir));
    let kept = run(&mut python("results/tables-choice/table.py"));
    // The table of every table (19 rows), then the decisions of the tables with `strong`.
    assert!(rows(&kept).len() > 19, "{kept}");
    assert_eq!(rows(&table).len(), rows(&kept).len(), "{table}");
    assert!(table.contains("| 48 |"), "{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One setting of the training grid on 16/8/2/2 with 2,000 games: a line with its
/// exploitability.
#[test]
fn the_training_grid_runs_one_small_setting() {
    let dir = temp_dir("results_scripts", "strong-training");
    let out = dir.join("grid.jsonl");
    run(bash("results/strong-training/grid.sh")
        .arg(binary())
        .env("OUT", &out)
        .env("BOARD", SMALL_BOARD)
        .env("GAMES", "2000")
        .env("MEASURES", "1"));
    let lines = std::fs::read_to_string(&out).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert!(lines.contains("\"exploitability_points\": "), "{lines}");
    assert!(lines.contains("--games 2000 --hidden 64"), "{lines}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `path`, recursively.
fn files(path: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// `run.sh` counts guest instructions of every lanes path under QEMU, where the machine has
/// QEMU's user-mode emulation and the ARM cross tools (as the development chapter installs
/// them; elsewhere it says so and compares nothing): every path plays the same games.
#[test]
fn the_neon_instruction_count_runs_where_qemu_is() {
    let here = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !here("qemu-aarch64") || !here("aarch64-linux-gnu-gcc") {
        eprintln!(
            "no qemu-aarch64 or aarch64-linux-gnu-gcc here: \
             results/neon-instructions/run.sh NOT run"
        );
        return;
    }
    let out = run(bash("results/neon-instructions/run.sh").env("GAMES", "2000"));
    let games: Vec<&str> = out.lines().filter(|l| l.contains("games 2000 ")).collect();
    assert_eq!(games.len(), 3, "one line per path:\n{out}");
    // From "games" to the plugin's counts: the games, wins, unfinished games and rolls.
    let counts = |line: &str| {
        let from = line.find("games ").unwrap();
        let to = line.find("insns:").unwrap_or(line.len());
        line[from..to].to_string()
    };
    assert!(
        games
            .iter()
            .all(|l| counts(l) == counts(games[0]) && l.contains("insns: ")),
        "the same games on every path, each counted:\n{out}"
    );
}

/// The player trained with exact values outside the core, on 16/8/2/2 with few games, into
/// a folder: the solve, the player and its two exploitability records; and the comparison of
/// lambdas, one line per player and strategy.
#[test]
fn the_strong_outside_core_scripts_run_on_16_8_2_2() {
    let dir = temp_dir("results_scripts", "strong-outside-core");
    run(bash("results/strong-outside-core/run.sh")
        .args(["16/8/2/2", binary()])
        .env("GAMES", "2000")
        .env("LAMBDA", "0")
        .env("HIDDEN", "24")
        .env("OUT", &dir));
    let player = std::fs::read_to_string(dir.join("strong-16-8-2-2-choice.json")).unwrap();
    assert!(player.contains("where a layered solve holds them"));
    assert!(
        player.contains("\"hidden\":24,"),
        "HIDDEN reaches the training"
    );
    assert!(
        player.contains("TD(lambda = 0)"),
        "LAMBDA reaches the training"
    );
    let solves = std::fs::read_to_string(dir.join("16-8-2-2-solves.jsonl")).unwrap();
    assert_eq!(solves.lines().count(), 2, "{solves}");
    assert!(
        solves
            .lines()
            .all(|l| l.contains("\"trained\": \"exact values outside the core\"")),
        "{solves}"
    );
    let out = run(bash("results/strong-outside-core/lambda-40-20-2-4.sh")
        .arg(binary())
        .env("BOARD", "16/8/2/2")
        .env("GAMES", "2000")
        .env("WORK", dir.join("lambda")));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("lambda ") && l.contains(" exploitability "))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `best-response/run.sh` solves the part where both sides have a piece home, each
/// strategy's pair with its best response (here A's only: B's figures are read from it by
/// the mirror), and grades against them; run again, it reads every group back.
#[test]
fn the_best_response_script_runs_on_a_small_board() {
    let dir = temp_dir("results_scripts", "best-response");
    let script = || {
        run(bash("results/best-response/run.sh")
            .args(["16/8/2/2", binary()])
            .env("GAMES", "200")
            .env("STRATEGIES", "frontmost,strong")
            .env("SEATS", "a")
            .env("OUT", &dir));
    };
    script();
    let grade = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let report = grade("grade-16-8-2-2-200.json");
    let players = report["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["strong", "strong-search", "strong-search-2", "frontmost"]
    );
    for p in [&players[0], &players[3]] {
        let read = &p["against_best_response"];
        assert!(read["per_entry"]["mean"].as_f64().unwrap() > 0.0, "{read}");
        assert_eq!(read["by_mirror"], 1, "{read}");
    }
    assert!(!dir.join("b-strong").exists());
    script();
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a-strong.json")).unwrap()).unwrap();
    let groups = again["groups"].as_array().unwrap();
    assert!(groups.iter().all(|g| g["resumed"] == true), "{again}");
    assert_eq!(
        grade("grade-16-8-2-2-200.json")["players"],
        report["players"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `real-board/run.sh` makes every record of a board's part outside its core from one
/// values folder (here on 16/8/2/2): the solve, the grading, each best response graded and
/// its pair's folder removed, the player trained on the values and its duel, the other
/// dice's part; run again, it solves nothing and writes nothing anew.
#[test]
fn the_real_board_script_runs_every_step_on_a_small_board() {
    let dir = temp_dir("results_scripts", "real-board");
    let (values, out) = (dir.join("values"), dir.join("out"));
    let script = || {
        run(bash("results/real-board/run.sh")
            .args([values.to_str().unwrap(), binary()])
            .env("BOARD", "16/8/2/2")
            .env("GAMES", "200")
            .env("DUEL", "2000")
            .env("TRAIN_GAMES", "2000")
            .env("STRATEGIES", "frontmost,strong")
            .env("THREADS", "1")
            .env("OUT", &out));
    };
    script();
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(name)).unwrap()).unwrap()
    };
    assert_eq!(json("outside-core-1..6.json")["certified"], true);
    assert!(json("grade-strong-200.json")["entries"].as_u64().unwrap() > 0);
    for s in ["frontmost", "strong"] {
        let report = json(&format!("best-response/grade-16-8-2-2-200-{s}.json"));
        assert_eq!(report["part"], "both-home");
        let read = &report["players"][0]["against_best_response"];
        assert_eq!(report["players"][0]["player"], s);
        assert!(read["per_entry"]["mean"].is_f64(), "{read}");
        assert_eq!(read["by_mirror"], 1, "{read}");
        assert!(
            !out.join(format!("best-response/a-{s}")).exists(),
            "{s}'s pair removed"
        );
    }
    let player =
        std::fs::read_to_string(out.join("strong-16-8-2-2-choice-outside-core.json")).unwrap();
    assert!(player.contains("where a layered solve holds them"));
    assert_eq!(
        json("duel-outside-core-player-vs-strong-2000.json")["games"],
        2000
    );
    let graded = json("grade-outside-core-player-200.json");
    assert_eq!(graded["players"].as_array().unwrap().len(), 6);
    assert_eq!(json("both-home-1..6-vs-2..7.json")["certified"], true);
    let written = |name: &str| {
        std::fs::metadata(out.join(name))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before = written("best-response/grade-16-8-2-2-200-strong.json");
    script();
    for name in ["outside-core-1..6.json", "both-home-1..6-vs-2..7.json"] {
        let groups = json(name)["groups"].as_array().unwrap().clone();
        assert!(groups.iter().all(|g| g["resumed"] == true), "{name}");
    }
    assert_eq!(
        written("best-response/grade-16-8-2-2-200-strong.json"),
        before
    );
    assert!(!out.join("best-response/a-strong").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Records, not logs: `results/` has no progress log (`.log`, `.err`), no file name with a
/// comma, and no script this file does not run; each folder with a script has a README
/// naming it.
#[test]
fn results_holds_records_and_every_script_is_run_here() {
    let this = include_str!("results_scripts.rs");
    let results = root().join("results");
    for path in files(&results) {
        let relative = path.strip_prefix(root()).unwrap().to_str().unwrap();
        if relative.contains("__pycache__") {
            continue;
        }
        assert!(!relative.contains(','), "a name with a comma: {relative}");
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        assert!(
            !matches!(extension, "log" | "err"),
            "a log in results/: {relative}"
        );
        if matches!(extension, "sh" | "py") {
            assert!(
                this.contains(&format!("\"{relative}\"")),
                "{relative} is not run by tests/results_scripts.rs"
            );
            let readme = path.parent().unwrap().join("README.md");
            let readme = std::fs::read_to_string(&readme)
                .unwrap_or_else(|_| panic!("no README.md beside {relative}"));
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(readme.contains(name), "its README does not name {relative}");
        }
    }
}
