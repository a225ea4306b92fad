//! The Monte Carlo engine: symmetry, reproducibility, games that never end, stopping rules.

use approx::assert_relative_eq;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::{Board, Profile, Rules};
use wuerfelglueck::sim::{
    DuelCounts, MAX_GAMES, Matchup, MatchupError, PlanError, SimError, Stopping, StoppingRule,
    StreamKey, finest_precision, games_for_precision, run_duel, worst_case_games,
};
use wuerfelglueck::stats::{self, Z95};

mod common;

use common::die;

fn duel(
    rules: &Rules,
    a: &Die,
    b: &Die,
    stopping: Stopping,
    seed: u64,
    max_rolls: u64,
) -> DuelCounts {
    let matchup = Matchup::new(rules, [a, b], max_rolls).unwrap();
    run_duel(&matchup, StreamKey::new(seed), stopping, &|_| {}).unwrap()
}

#[test]
fn identical_dice_win_half_the_games_within_four_sigma() {
    let rules = Rules::bwinf();
    for (faces, seed) in [("1..6", 1), ("1,1,1,6,6,6", 2), ("1..20", 3)] {
        let d = die(faces);
        let n = 100_000;
        let counts = duel(&rules, &d, &d, Stopping::games(n).unwrap(), seed, 100_000);
        let total = counts.total();
        assert_eq!(total.games, n);
        assert_eq!(total.unfinished, 0, "{faces}: every game ends");
        // By symmetry P(A wins) = 1/2 exactly; the estimate's standard error is sqrt(1/4n).
        let sigma = (0.25 / n as f64).sqrt();
        let p = counts.p_a();
        approx::assert_abs_diff_eq!(p, 0.5, epsilon = 4.0 * sigma);
        // Paired starts: each die started exactly half the games.
        assert_eq!(counts.a_started.games, n / 2);
        assert_eq!(counts.b_started.games, n / 2);
    }
}

#[test]
fn the_same_seed_gives_the_same_counts_on_one_and_two_threads() {
    let rules = Rules::bwinf();
    let (a, b) = (die("1..6"), die("0..9"));
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                duel(
                    &rules,
                    &a,
                    &b,
                    Stopping::games(50_000).unwrap(),
                    42,
                    100_000,
                )
            })
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert_ne!(
        one,
        duel(
            &rules,
            &a,
            &b,
            Stopping::games(50_000).unwrap(),
            43,
            100_000
        )
    );
}

#[test]
fn the_starting_player_matters_and_is_reported() {
    // On a short board the first move is a real advantage: the two conditional figures of
    // identical dice lie on either side of 1/2 (checked at 5 sigma each).
    let rules = Rules::new(Board::new(8, 4, 1, 1).unwrap(), Profile::BWINF);
    let d = die("1..6");
    let counts = duel(
        &rules,
        &d,
        &d,
        Stopping::games(200_000).unwrap(),
        5,
        100_000,
    );
    let n = counts.a_started.games as f64;
    let sigma = (0.25 / n).sqrt();
    let p_first = counts.a_started.a_wins as f64 / n;
    let p_second = counts.b_started.a_wins as f64 / n;
    assert!(p_first > 0.5 + 5.0 * sigma, "{p_first}");
    assert!(p_second < 0.5 - 5.0 * sigma, "{p_second}");
}

#[test]
fn a_die_of_only_sixes_does_not_hang() {
    let rules = Rules::bwinf();
    // Only 6s against only 0s: pieces step by 6 until nothing can move; nobody ever wins.
    let counts = duel(
        &rules,
        &die("6"),
        &die("0"),
        Stopping::games(2_000).unwrap(),
        1,
        100_000,
    );
    let total = counts.total();
    assert_eq!(total.a_wins + total.b_wins, 0);
    assert_eq!(total.unfinished, 2_000);
    assert_eq!(
        total.endless, 2_000,
        "recognised as never-ending, not run to the cap"
    );
    // Against an ordinary die the 6-only die gets stuck with the turn: also never-ending,
    // unless the ordinary die wins first.
    let counts = duel(
        &rules,
        &die("6"),
        &die("1..6"),
        Stopping::games(2_000).unwrap(),
        1,
        100_000,
    );
    let total = counts.total();
    assert_eq!(total.a_wins + total.b_wins + total.unfinished, 2_000);
    assert_eq!(total.unfinished, total.endless);
}

#[test]
fn games_at_the_roll_cap_are_unfinished_not_won() {
    let rules = Rules::bwinf();
    let d = die("1..6");
    let counts = duel(&rules, &d, &d, Stopping::games(1_000).unwrap(), 1, 10);
    let total = counts.total();
    assert_eq!(
        (total.a_wins, total.b_wins),
        (0, 0),
        "no game ends within 10 rolls"
    );
    assert_eq!(total.unfinished, 1_000);
    assert_eq!(total.endless, 0);
}

#[test]
fn the_precision_rule_reaches_its_half_width() {
    let rules = Rules::bwinf();
    for (a, b) in [("1..6", "1..6"), ("1..6", "1,1,1,6,6,6")] {
        let h = 0.004;
        let counts = duel(
            &rules,
            &die(a),
            &die(b),
            Stopping::precision(h).unwrap(),
            9,
            100_000,
        );
        let ci = counts.ci95_a();
        assert!(ci.half_width() <= h, "{a} vs {b}: {ci:?}");
        // And it does not play more than the worst case needs (rounded up to a chunk).
        let worst = wuerfelglueck::sim::worst_case_games(h).unwrap();
        assert!(
            counts.total().games <= worst,
            "{} > {worst}",
            counts.total().games
        );
    }
}

// ---- plans: checked arithmetic, a cap, claims checked ----

#[test]
fn a_sample_size_beyond_u64_is_none_not_a_saturated_count() {
    // 1e-10 needs z^2 / (4 * 1e-20) = 9.6e19 games: more than u64::MAX = 1.8e19.
    assert_eq!(stats::games_for_half_width(0.25, 1e-10, Z95), None);
    assert_eq!(
        stats::games_for_half_width(0.25, f64::MIN_POSITIVE, Z95),
        None
    );
    assert_eq!(stats::games_for_half_width(0.25, 0.0, Z95), None);
    assert_eq!(stats::games_for_half_width(0.25, 0.001, Z95), Some(960_365));
}

#[test]
fn no_precision_plan_wraps_to_zero_games() {
    // Before: the count saturated at u64::MAX, and rounding it up to whole chunks wrapped
    // to 0, so the duel stopped after the pilot. Every fine half-width is now an error.
    let pilot = duel(
        &Rules::bwinf(),
        &die("1..6"),
        &die("2..7"),
        Stopping::games(wuerfelglueck::sim::PILOT_GAMES).unwrap(),
        1,
        100_000,
    );
    for h in [1e-7, 1e-9, 1e-10, 1e-12, 1e-300] {
        assert!(
            matches!(worst_case_games(h), Err(PlanError::PrecisionTooFine { .. })),
            "{h}: {:?}",
            worst_case_games(h)
        );
        assert!(
            matches!(
                games_for_precision(&pilot, h),
                Err(PlanError::PrecisionTooFine { .. })
            ),
            "{h}: {:?}",
            games_for_precision(&pilot, h)
        );
    }
    // Half-widths that can run are planned, in whole chunks, within the cap.
    let planned = games_for_precision(&pilot, 0.001).unwrap();
    assert!(planned > pilot.total().games && planned <= worst_case_games(0.001).unwrap());
    assert_eq!(planned % wuerfelglueck::sim::CHUNK_GAMES, 0);
}

#[test]
fn huge_plans_are_refused_naming_the_games_and_the_reachable_precision() {
    let Err(e) = Stopping::precision(1e-10) else {
        panic!("1e-10 accepted");
    };
    let PlanError::PrecisionTooFine { games, .. } = e else {
        panic!("{e:?}");
    };
    assert_relative_eq!(games, Z95 * Z95 / 4.0 * 1e20, max_relative = 1e-12);
    let message = e.to_string();
    assert!(message.contains("9.6e19 games"), "{message}");
    assert!(
        message.contains(&format!("{:.2e}", finest_precision())),
        "{message}"
    );
    assert!(Stopping::precision(finest_precision()).is_ok());
    assert_eq!(
        Stopping::games(MAX_GAMES + 2),
        Err(PlanError::TooManyGames(MAX_GAMES + 2))
    );
    assert!(Stopping::games(MAX_GAMES).is_ok());
}

#[test]
fn stopping_rules_are_checked_when_made() {
    for n in [0, 1, 3, 999] {
        assert_eq!(Stopping::games(n), Err(PlanError::OddGames(n)));
    }
    assert_eq!(Stopping::games(2).unwrap().rule(), StoppingRule::Games(2));
    for h in [0.0, -0.1, 0.5, 1.0, f64::NAN, f64::INFINITY] {
        assert!(
            matches!(Stopping::precision(h), Err(PlanError::BadPrecision(_))),
            "{h}"
        );
    }
    assert_eq!(
        Stopping::precision(0.01).unwrap().claimed_half_width(),
        Some(0.01)
    );
    assert_eq!(Stopping::games(10).unwrap().claimed_half_width(), None);
}

#[test]
fn a_precision_run_returns_only_answers_that_reach_the_claim() {
    // Also for lopsided pairs, where the Wilson interval is asymmetric and the pilot's
    // variance bound is small: every answer is within its promise.
    let rules = Rules::bwinf();
    for (a, b, h) in [
        ("0", "1..6", 0.003),
        ("1..6", "0..9", 0.005),
        ("1,6", "2..7", 0.01),
    ] {
        let stopping = Stopping::precision(h).unwrap();
        let (da, db) = (die(a), die(b));
        let matchup = Matchup::new(&rules, [&da, &db], 100_000).unwrap();
        match run_duel(&matchup, StreamKey::new(3), stopping, &|_| {}) {
            Ok(counts) => assert!(counts.ci95_a().half_width() <= h, "{a} vs {b}"),
            Err(SimError::PrecisionNotReached { claimed, reached }) => {
                assert!(
                    reached > claimed,
                    "{a} vs {b}: an error only when it is true"
                )
            }
            Err(e) => panic!("{a} vs {b}: {e}"),
        }
    }
}

#[test]
fn matchups_are_checked_when_made() {
    let rules = Rules::bwinf();
    let roll_off = Rules::new(*rules.board(), "roll-off".parse().unwrap());
    let (six, sixes, five) = (die("6"), die("6,6,6"), die("5,6"));
    assert_eq!(
        Matchup::new(&rules, [&six, &five], 0).unwrap_err(),
        MatchupError::NoRolls
    );
    assert_eq!(
        Matchup::new(&roll_off, [&six, &sixes], 10).unwrap_err(),
        MatchupError::RollOffUndecidable { face: 6 }
    );
    // Without roll-off the same dice are fine; with roll-off, dice that can differ too.
    assert!(Matchup::new(&rules, [&six, &sixes], 10).is_ok());
    assert!(Matchup::new(&roll_off, [&six, &five], 10).is_ok());
}

#[test]
fn a_ranking_announces_every_pair_plan_before_playing_it_out() {
    // `rank` says up front what each pair will play, as `duel` does: the announcement
    // names the pair and carries the planned games, here the fixed 40,960 of `--games`.
    use std::sync::Mutex;
    use wuerfelglueck::rank::{SimulationPlan, simulate_tournament};
    let rules = Rules::new("12/6/1/2".parse::<Board>().unwrap(), Profile::BWINF);
    let dice: Vec<Die> = ["1..6", "2..7", "1,1,1,6,6,6"]
        .iter()
        .map(|d| d.parse().unwrap())
        .collect();
    let plan = SimulationPlan {
        stopping: wuerfelglueck::sim::Stopping::games(40_960).unwrap(),
        seed: 7,
        max_rolls: 100_000,
    };
    let seen = Mutex::new(Vec::new());
    let t = simulate_tournament(&rules, &dice, &plan, &|_| {}, &|pair, p| {
        seen.lock()
            .unwrap()
            .push((pair.to_string(), p.games, p.played));
    })
    .unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(
        seen[0].0.contains("1/3") && seen[0].0.contains("1..6 vs 2..7"),
        "{seen:?}"
    );
    for (_, games, played) in &seen {
        assert_eq!(*games, 40_960);
        assert!(*played > 0 && *played <= *games);
    }
    assert_eq!(t.pairs().len(), 3);
}

/// A caller that gives up unwinds from the progress callback (the Python package on Ctrl-C):
/// the callback hears of each chunk before it is played, so after the first unwinding no
/// chunk is played at all. Regression test: the callback was called only after a chunk's
/// games, so every chunk still ran after the caller had given up.
#[test]
fn a_progress_callback_can_stop_a_duel_before_any_chunk_is_played() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let rules = Rules::new(Board::new(40, 20, 4, 4).unwrap(), Profile::default());
    let die = Die::standard();
    let matchup = wuerfelglueck::sim::Matchup::new(&rules, [&die, &die], 100_000).unwrap();
    let played = AtomicU64::new(0);
    let stop = |games: u64| {
        played.fetch_add(games, Ordering::Relaxed);
        std::panic::resume_unwind(Box::new("given up"));
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wuerfelglueck::sim::run_duel(
            &matchup,
            wuerfelglueck::sim::StreamKey::new(1),
            // Seconds of games, should the callback come only after a chunk.
            wuerfelglueck::sim::Stopping::games(1 << 22).unwrap(),
            &stop,
        )
    }));
    assert!(outcome.is_err());
    assert_eq!(played.load(Ordering::Relaxed), 0);
}

/// Every face of a die is equally likely: over many seeded rolls each face's count lies
/// within 5 binomial standard deviations of its share (a miss has probability below 1e-6
/// per face), for a die of 6 faces, one of 7 (whose sampler must reject some draws to stay
/// unbiased) and one with a repeated face.
#[test]
fn every_face_of_a_die_is_equally_likely() {
    use rand::SeedableRng;
    let rolls = 700_000u64;
    for (text, shares) in [
        (
            "1..6",
            vec![(1u32, 1.0 / 6.0), (2, 1.0 / 6.0), (6, 1.0 / 6.0)],
        ),
        ("0..6", vec![(0, 1.0 / 7.0), (3, 1.0 / 7.0), (6, 1.0 / 7.0)]),
        ("1,1,6", vec![(1, 2.0 / 3.0), (6, 1.0 / 3.0)]),
    ] {
        let d = die(text);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2021);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..rolls {
            *counts.entry(d.roll(&mut rng)).or_insert(0u64) += 1;
        }
        assert!(counts.keys().all(|f| d.faces().contains(f)), "{text}");
        for (face, p) in shares {
            let expected = rolls as f64 * p;
            let sd = (rolls as f64 * p * (1.0 - p)).sqrt();
            let got = counts.get(&face).copied().unwrap_or(0) as f64;
            assert!(
                (got - expected).abs() <= 5.0 * sd,
                "{text}: face {face} {got} times, expected {expected:.0} +- {sd:.0}"
            );
        }
    }
}

/// Runs the binary with `args` for `seconds` (or until it ends), then stops it; returns its
/// peak resident memory in bytes (`wait4`'s, for this child alone) and how it ended: `None`
/// if it was still running and stopped here, else its exit code.
#[cfg(target_os = "linux")]
// The child is reaped by `wait4` (which also returns its resource usage), not `wait`.
#[allow(clippy::zombie_processes)]
fn peak_memory_within(args: &[&str], seconds: f64) -> (u64, Option<i32>) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wuerfelglueck"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
    let pid = child.id() as libc::pid_t;
    let (mut status, mut ended) = (0, None);
    // SAFETY: an all-zero rusage is a valid value; wait4 reaps our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    while std::time::Instant::now() < deadline {
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            ended = Some(libc::WEXITSTATUS(status));
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if ended.is_none() {
        child.kill().unwrap();
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, pid, "{args:?}");
    }
    // ru_maxrss is in KiB on Linux.
    (u64::try_from(usage.ru_maxrss).unwrap() * 1024, ended)
}

/// What a simulation holds does not grow with its games: the largest runs (10^13 games, the
/// finest half-width's plan, a table of three), which once listed a group of chunks per 32
/// chunks before the first game (gigabytes within seconds), stay within a few megabytes
/// while they play, on one thread and on all. A run may end early only by being refused
/// as longer than a year on a slow machine.
#[cfg(target_os = "linux")]
#[test]
fn a_simulation_holds_the_same_memory_whatever_its_games() {
    let duel = ["duel", "--a", "1..6", "--b", "1..6"];
    let runs: [&[&str]; 4] = [
        &[&duel[..], &["--games", "10000000000000"]].concat(),
        &[&duel[..], &["--games", "10000000000000", "--threads", "1"]].concat(),
        &[&duel[..], &["--precision", "0.0000004"]].concat(),
        &[
            "table",
            "--die",
            "1..6",
            "--die",
            "1..6",
            "--die",
            "1..6",
            "--games",
            "9999999999996",
        ],
    ];
    for args in runs {
        let (peak, ended) = peak_memory_within(args, 2.5);
        assert!(
            ended.is_none() || ended == Some(2),
            "{args:?} ended with {ended:?}"
        );
        assert!(peak < 100 << 20, "{args:?}: {} MiB after 2.5 s", peak >> 20);
    }
}

/// `WUERFELGLUECK_LANES` forces each path this processor runs, and every one prints the same
/// duel and table for the same seed; a value that names no path, or a path the processor
/// lacks, is refused before any work (exit 2, naming the variable).
#[test]
fn every_simulation_path_gives_the_same_counts_and_bad_paths_are_refused() {
    use wuerfelglueck::sim::{LANES_VARIABLE, LanesPath};
    let commands: [&[&str]; 2] = [
        &[
            "duel",
            "--a",
            "1..6",
            "--b",
            "1,1,1,6,6,6",
            "--games",
            "200000",
            "--seed",
            "3",
            "--format",
            "json",
        ],
        &[
            "table", "--die", "1..6", "--die", "0..9", "--die", "2..7", "--games", "60000",
            "--seed", "3", "--format", "json",
        ],
    ];
    for args in commands {
        let run = |path: &str| {
            let out = common::binary()
                .env(LANES_VARIABLE, path)
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{path}: {out:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        let scalar = run("scalar");
        for path in LanesPath::ALL.into_iter().filter(|p| p.runs_here()) {
            assert_eq!(
                run(path.name()),
                scalar,
                "{} against scalar: {args:?}",
                path.name()
            );
        }
        assert_eq!(run("auto"), scalar);
    }
    let refused = |value: &str, expected: &str| {
        let out = common::binary()
            .env(LANES_VARIABLE, value)
            .args(["duel", "--a", "1..6", "--b", "1..6", "--games", "100"])
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{value}: {stderr}");
        assert!(out.stdout.is_empty(), "{value}");
        assert!(
            stderr.contains(LANES_VARIABLE) && stderr.contains(expected),
            "{value}: {stderr}"
        );
    };
    refused(
        "avx3",
        "expected auto, avx512, avx2, neon, portable or scalar",
    );
    refused("", "expected auto");
    for path in LanesPath::ALL.into_iter().filter(|p| !p.runs_here()) {
        refused(path.name(), "this processor cannot run");
    }
}
