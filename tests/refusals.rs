//! The refusals the documentation promises (`docs/src/refusals.md`), run as written: each
//! must end with exit code 2 (never a signal) and the documented message.

mod common;

use common::binary;

/// Splits a command line as a shell would for the documented examples: blanks separate
/// words, double quotes group them.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quotes in {line}");
    if started {
        out.push(word);
    }
    out
}

/// A documented command: the environment set before it (`NAME=value` words before
/// `wuerfelglueck`), its arguments and the message after `error:`.
type Refusal = (Vec<(String, String)>, Vec<String>, String);

/// Every ```refusal block: the environment and the arguments of the `$ ... wuerfelglueck`
/// line and the message after `error:`.
fn documented() -> Vec<Refusal> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/refusals.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```refusal" {
            continue;
        }
        let command = lines.next().unwrap();
        let message = lines.next().unwrap();
        assert_eq!(lines.next().map(str::trim), Some("```"), "{command}");
        let line = command
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("not a command: {command}"));
        let mut env = Vec::new();
        let mut rest = line;
        while let Some((word, after)) = rest.split_once(' ')
            && let Some((name, value)) = word.split_once('=')
        {
            env.push((name.to_string(), value.to_string()));
            rest = after;
        }
        let args = rest
            .strip_prefix("wuerfelglueck")
            .filter(|a| a.is_empty() || a.starts_with(' '))
            .unwrap_or_else(|| panic!("not a command: {command}"));
        let message = message
            .strip_prefix("error: ")
            .unwrap_or_else(|| panic!("not an error line: {message}"));
        found.push((env, words(args), message.to_string()));
    }
    found
}

#[test]
fn the_quoting_of_the_examples_is_read_as_a_shell_reads_it() {
    assert_eq!(
        words(r#"advise --position "A:3,10 B:A,5" --face 4"#),
        ["advise", "--position", "A:3,10 B:A,5", "--face", "4"]
    );
    assert_eq!(words(""), Vec::<String>::new());
}

#[test]
fn every_documented_refusal_is_refused_as_documented() {
    let refusals = documented();
    assert!(
        refusals.len() >= 10,
        "{} refusals documented",
        refusals.len()
    );
    for (env, args, message) in refusals {
        let out = binary()
            .args(&args)
            .envs(env)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // `code()` is None when a signal (an abort) ended the process.
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

// ---- Files (docs/src/refusals.md, "Files"): tests that need a FIFO or a link. ----

use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

/// Runs the binary with `args` in `dir`, killed after a minute (a reader given a FIFO used
/// to wait forever): exit code (`None` if a signal ended it), stdout and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new("timeout")
        .args(["-s", "KILL", "60"])
        .arg(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().filter(|&c| c != 137),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Two dice on the board 12/6/2/2, quick to rank exactly.
const DICE: &str = "2\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n";
const SMALL: [&str; 6] = ["--track", "12", "--pieces", "2", "--goal-fields", "2"];
const TINY: [&str; 8] = [
    "--track",
    "8",
    "--offset",
    "4",
    "--pieces",
    "2",
    "--goal-fields",
    "2",
];

/// Every file the program reads is read only if it is a regular file, checked before it
/// is opened: a FIFO (whose opening waits for a writer) given as a dice file, a player file
/// (`strong:`, `strong-search:`), a policy file (`table:`), a pair record of `--store` or a
/// search state is refused at once, naming the file, and left as it is.
#[test]
fn every_file_read_is_a_regular_file_and_a_fifo_never_waits() {
    let dir = common::temp_dir("refusals", "read-fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    std::fs::write(dir.join("dice.txt"), DICE).unwrap();
    // The record of the one pair of dice.txt in the store `records`.
    let records = dir.join("records");
    let store = wuerfelglueck::rank::store::PairStore::open(&records).unwrap();
    let record = store.path(
        &common::rules("12/6/2/2", "bwinf"),
        &common::die("1..6"),
        &common::die("1,1,1,6,6,6"),
    );
    mkfifo(&record);
    let search = dir.join("search");
    std::fs::create_dir(&search).unwrap();
    let state = search.join(wuerfelglueck::dice_search::checkpoint::STATE_FILE);
    mkfifo(&state);
    // A values folder whose one group file is a FIFO.
    let values = dir.join("values");
    std::fs::create_dir(&values).unwrap();
    let group = values.join("group-a1-b1.values");
    mkfifo(&group);
    let duel = [
        "duel",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--games",
        "100",
        "--profile",
        "choice",
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [base, extra].concat()
    }
    let record_name = record.file_name().unwrap().to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["rank", "fifo"], "fifo"),
        (
            with(&duel, &["--strategy-a", "strong:fifo"]),
            "strong:'fifo'",
        ),
        (
            with(&duel, &["--strategy-a", "strong-search:fifo"]),
            "strong:'fifo'",
        ),
        (with(&duel, &["--strategy-b", "table:fifo"]), "table:'fifo'"),
        (
            with(
                &["rank", "dice.txt", "--exact", "--store", "records"],
                &SMALL,
            ),
            &record_name,
        ),
        (
            with(
                &[
                    "search", "--faces", "2", "--values", "5..6", "--store", "search",
                ],
                &TINY,
            ),
            "search-state.json",
        ),
        (vec!["grade", "--values", "values"], "group-a1-b1.values"),
        (
            with(&duel, &["--strategy-a", "exact:values"]),
            "group-a1-b1.values",
        ),
    ];
    for (args, names) in cases {
        let (code, _, err) = run_in(&dir, &args);
        assert!(matches!(code, Some(1 | 2)), "{args:?}: {code:?} {err}");
        assert!(
            err.contains("not a regular file (it is a FIFO)") && err.contains(names),
            "{args:?}: {err}"
        );
    }
    for left in [&fifo, &record, &state, &group] {
        assert!(is_fifo(left), "{} is left as it is", left.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The commands that write a file, with the option naming it and the flag that lets it
/// replace a file: `train --out`, `rank --plot`, `solve --policy-out`.
fn writers() -> Vec<(Vec<&'static str>, &'static str, &'static str)> {
    vec![
        (
            [&["train", "--games", "10"][..], &TINY].concat(),
            "--out",
            "--overwrite",
        ),
        (
            [&["rank", "dice.txt", "--games", "200"][..], &SMALL].concat(),
            "--plot",
            "--overwrite",
        ),
        (
            [
                &["solve", "--a", "1..6", "--b", "1..6", "--profile", "choice"][..],
                &TINY,
            ]
            .concat(),
            "--policy-out",
            "--force",
        ),
    ]
}

/// A target that exists and is not a regular file (a device, a FIFO), or a dangling
/// symbolic link, is refused before the work, with or without the flag that lets a
/// regular file be replaced, naming the option and the file; it is left as it is.
#[test]
fn every_written_file_refuses_a_special_target_before_the_work() {
    let dir = common::temp_dir("refusals", "special-targets");
    std::fs::write(dir.join("dice.txt"), DICE).unwrap();
    mkfifo(&dir.join("fifo"));
    std::os::unix::fs::symlink("nowhere", dir.join("dangling")).unwrap();
    for (command, option, flag) in writers() {
        for (target, what) in [
            (
                "/dev/full",
                "/dev/full is a character device, not a regular file",
            ),
            ("fifo", "fifo is a FIFO, not a regular file"),
            ("dangling", "dangling is a symbolic link to no file"),
        ] {
            for flags in [&[flag][..], &[]] {
                let args = [&command[..], &[option, target], flags].concat();
                let (code, out, err) = run_in(&dir, &args);
                assert_eq!(code, Some(2), "{args:?}: {err}");
                assert!(
                    err.contains(&format!("{option}: {what}")),
                    "{args:?}: {err}"
                );
                assert!(out.is_empty(), "{args:?}: refused before the work");
            }
        }
    }
    let full = std::fs::metadata("/dev/full").unwrap();
    assert!(full.file_type().is_char_device());
    assert!(is_fifo(&dir.join("fifo")));
    assert!(
        std::fs::symlink_metadata(dir.join("dangling"))
            .unwrap()
            .is_symlink()
    );
    assert!(!dir.join("nowhere").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file written with the flag replaces the old one whole: a new file, written beside it
/// and renamed over it (a reader of the old one still reads all of it), never the old one
/// truncated and written into, which a full disk left as a fragment. No temporary file
/// stays behind. A symbolic link to the file is kept and names the new content.
#[test]
fn every_written_file_is_replaced_whole_never_written_into() {
    use std::io::Read;
    for (k, (command, option, flag)) in writers().into_iter().enumerate() {
        let dir = common::temp_dir("refusals", &format!("whole-{k}"));
        std::fs::write(dir.join("dice.txt"), DICE).unwrap();
        let out = dir.join("out");
        let args = [&command[..], &[option, "out"]].concat();
        let (code, _, err) = run_in(&dir, &args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        // Without the flag: refused, untouched.
        let (code, _, err) = run_in(&dir, &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(&format!("{option}: out exists")), "{err}");
        let old = std::fs::read(&out).unwrap();
        let inode = std::fs::metadata(&out).unwrap().ino();
        let mut reader = std::fs::File::open(&out).unwrap();
        std::os::unix::fs::symlink("out", dir.join("link")).unwrap();
        let again = [&command[..], &[option, "link", flag]].concat();
        let (code, _, err) = run_in(&dir, &again);
        assert_eq!(code, Some(0), "{again:?}: {err}");
        assert_ne!(std::fs::metadata(&out).unwrap().ino(), inode, "{again:?}");
        assert!(
            std::fs::symlink_metadata(dir.join("link"))
                .unwrap()
                .is_symlink()
        );
        let mut before = Vec::new();
        reader.read_to_end(&mut before).unwrap();
        assert_eq!(before, old, "{again:?}: the old file was not written into");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["dice.txt", "link", "out"], "{again:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// `train`'s errors about its file name `--out`, the option it was given to, in the check
/// before the work and when writing fails after it (here: a file in `/proc`, where no file
/// can be created, even by root).
#[test]
fn train_errors_name_out_not_plot() {
    let dir = common::temp_dir("refusals", "train-out");
    std::fs::write(dir.join("p.json"), "mine").unwrap();
    let train = [&["train", "--games", "10"][..], &TINY].concat();
    for (target, code, message) in [
        ("p.json", 2, "--out: p.json exists; not overwriting it"),
        (
            "/proc/wuerfelglueck-test-player.json",
            1,
            "--out: could not write /proc/wuerfelglueck-test-player.json",
        ),
    ] {
        let args = [&train[..], &["--out", target]].concat();
        let (got, _, err) = run_in(&dir, &args);
        assert_eq!(got, Some(code), "{args:?}: {err}");
        assert!(err.contains(message) && !err.contains("plot"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(dir.join("p.json")).unwrap(), "mine");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the binary with `args` and `env` in the repository; a run still going after
/// `seconds` is killed and fails the test (a refusal comes before any work).
fn refused_within(args: &[&str], env: &[(&str, &str)], seconds: u64) -> (i32, String) {
    let mut child = binary()
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still ran after {seconds} s instead of being refused");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (out.status.code().unwrap_or(-1), stderr)
}

/// The thread cap holds for the variable that sizes rayon's global pool as for `--threads`,
/// in every command, before any work; with `--threads` the variable sizes nothing.
#[test]
fn rayon_num_threads_above_the_cap_is_refused_by_every_command() {
    let never_written = std::env::temp_dir().join("wuerfelglueck-refused-train.json");
    let never_written = never_written.to_str().unwrap();
    let commands: [&[&str]; 12] = [
        &["duel", "--a", "1..6", "--b", "1..6", "--games", "100"],
        &["rank", "data/wuerfel0.txt", "--games", "100"],
        &[
            "table", "--die", "1..6", "--die", "2..7", "--die", "3..8", "--games", "6",
        ],
        &[
            "solve", "--a", "1..6", "--b", "1..6", "--track", "12", "--pieces", "2",
        ],
        &[
            "advise",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--position",
            "A:3,10 B:A,5",
            "--face",
            "4",
        ],
        &["search", "--faces", "2", "--values", "1..3"],
        &["converge", "--a", "1..6", "--b", "1..6"],
        &["play", "--a", "1..6", "--b", "1..6"],
        &["wubbel"],
        &["pig"],
        &["train", "--games", "10", "--out", never_written],
        &["serve", "--bind", "127.0.0.1:0"],
    ];
    for args in commands {
        let (code, stderr) = refused_within(args, &[("RAYON_NUM_THREADS", "1000000")], 20);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("RAYON_NUM_THREADS=1000000: at most 1024 threads"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!std::path::Path::new(never_written).exists());
    // The deprecated name rayon still reads.
    let (code, stderr) = refused_within(commands[0], &[("RAYON_RS_NUM_CPUS", "5000")], 20);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("RAYON_RS_NUM_CPUS=5000: at most"),
        "{stderr}"
    );
    // --threads builds the pool itself: the variable is not read.
    let mut args = commands[0].to_vec();
    args.extend(["--threads", "1"]);
    let (code, stderr) = refused_within(&args, &[("RAYON_NUM_THREADS", "1000000")], 60);
    assert_eq!(code, 0, "{stderr}");
}

/// `strong-search` looks ahead over every face of both dice: a die beyond the bound is
/// refused wherever a searching player is seated, before any game or solve, as `solve`
/// refuses it.
#[test]
fn look_ahead_over_a_die_of_too_many_faces_is_refused_wherever_it_plays() {
    let choice = ["--profile", "choice"];
    let cases: [&[&str]; 6] = [
        &[
            "duel",
            "--a",
            "1..6",
            "--b",
            "1..65535",
            "--strategy-a",
            "strong-search-3",
        ],
        &[
            "duel",
            "--a",
            "1..65",
            "--b",
            "1..6",
            "--strategy-b",
            "strong-search",
        ],
        &[
            "play",
            "--a",
            "1..6",
            "--b",
            "1..65",
            "--strategy",
            "strong-search-2",
        ],
        &[
            "rank",
            "--die",
            "1..6",
            "--die",
            "1..65",
            "--strategy",
            "strong-search",
        ],
        &[
            "solve",
            "--a",
            "1..6",
            "--b",
            "1..65",
            "--strategy-a",
            "strong-search",
        ],
        &[
            "search",
            "--faces",
            "65",
            "--values",
            "1..2",
            "--strategy",
            "strong-search",
        ],
    ];
    for case in cases {
        let args: Vec<&str> = case.iter().chain(&choice).copied().collect();
        let (code, stderr) = refused_within(&args, &[], 20);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("at most 64 faces a die"),
            "{args:?}: {stderr}"
        );
    }
    // A repeated face is looked ahead over as often as the die has it.
    let many_sixes = vec!["6"; 65].join(",");
    let args = [
        "duel",
        "--a",
        "1..6",
        "--b",
        &many_sixes,
        "--strategy",
        "strong-search",
    ];
    let args: Vec<&str> = args.iter().chain(&choice).copied().collect();
    let (code, stderr) = refused_within(&args, &[], 20);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("has 65"), "{stderr}");
}

/// A ranking at tables counts its tables and their memory before any game: 300 dice at
/// tables of four and 3,000 at tables of three are refused at once with the figures.
#[test]
fn a_ranking_at_tables_too_large_for_memory_is_refused_before_any_game() {
    let dir = std::env::temp_dir().join(format!("wuerfelglueck-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (dice, players, tables) in [(300, "4", "330,791,175"), (3000, "3", "4,495,501,000")] {
        // Distinct dice of six faces: 1..6 with one face raised.
        let mut text = format!("{dice}\n");
        for i in 0..dice {
            text.push_str(&format!("6 1 2 3 4 5 {}\n", 6 + i));
        }
        let file = dir.join(format!("dice-{dice}.txt"));
        std::fs::write(&file, text).unwrap();
        let file = file.to_str().unwrap();
        let (code, stderr) = refused_within(&["rank", file, "--players", players], &[], 20);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("needs about"), "{stderr}");
        assert!(stderr.contains(&format!("{tables} tables")), "{stderr}");
        // --max-memory is the limit where given, as for a solve.
        let args = ["rank", file, "--players", players, "--max-memory", "1GB"];
        let (code, stderr) = refused_within(&args, &[], 20);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("more than the limit of 953.7 MiB"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A build without the `mpi` feature, started as one of several ranks (as `mpirun` starts
/// it: here its variable set by hand), refuses to solve, since every rank would solve the
/// whole game and print it: exit 2, with how to build one that can.
#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_started_on_ranks_refuses() {
    let out = binary()
        .args([
            "solve", "--a", "1..6", "--b", "1..6", "--track", "16", "--pieces", "2",
        ])
        .args(["--goal-fields", "2", "--profile", "choice", "--layered"])
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("this build has no MPI"), "{stderr}");
    assert!(stderr.contains("--features mpi"), "{stderr}");
    assert!(out.stdout.is_empty());
}
