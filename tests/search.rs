//! The search for the best die held against exact values: on a family whose pairs the
//! exact solver computes on a small board, the race names the true best die (within its
//! indifference) in at least the share of seeded runs it promises, every interval it
//! states holds as often, and racing spends fewer games than the round robin with the same
//! intervals and the same stopping rule.

use approx::assert_abs_diff_eq;
use wuerfelglueck::dice::Die;
use wuerfelglueck::dice_search::{
    Condorcet, Design, Family, RaceConfig, RaceOutcome, RaceStatus, pair_index, race,
};
use wuerfelglueck::exact::{SolveOptions, solve_matchup};
use wuerfelglueck::rules::{Board, Profile, Rules};

mod common;

use common::output;

fn rules() -> Rules {
    Rules::new(
        "12/6/1/1".parse::<Board>().unwrap(),
        "bwinf".parse::<Profile>().unwrap(),
    )
}

/// Six 6-heavy dice whose exact means (on this board: 0.611, 0.566, 0.524, 0.503, 0.412,
/// 0.369) are close enough that the race needs several rounds.
fn family() -> Family {
    let dice: Vec<Die> = [
        "2,6,6,6,6,6",
        "3,6,6,6,6,6",
        "1,6,6,6,6,6",
        "2,2,6,6,6,6",
        "2,3,6,6,6,6",
        "4,6,6,6,6,6",
    ]
    .iter()
    .map(|d| d.parse().unwrap())
    .collect();
    Family::from_dice(dice, "test family".into()).unwrap()
}

/// The exact P(i beats j) of every ordered pair.
fn exact_matrix(rules: &Rules, family: &Family) -> Vec<Vec<f64>> {
    let n = family.len();
    let options = SolveOptions::new(1e-12, 100_000, None).unwrap();
    let mut m = vec![vec![f64::NAN; n]; n];
    for (i, a) in family.dice().iter().enumerate() {
        for (j, b) in family.dice().iter().enumerate().skip(i + 1) {
            let r = solve_matchup(rules, a, b, &options).unwrap();
            m[i][j] = r.p_a;
            m[j][i] = r.p_b;
        }
    }
    m
}

fn exact_means(m: &[Vec<f64>]) -> Vec<f64> {
    let n = m.len();
    (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| m[i][j]).sum::<f64>() / (n - 1) as f64)
        .collect()
}

/// The test family with every pair solved exactly ([`exact_matrix`]), each die's mean, and
/// the die of the highest mean.
struct Solved {
    rules: Rules,
    family: Family,
    m: Vec<Vec<f64>>,
    means: Vec<f64>,
    best: usize,
}

fn solved() -> Solved {
    let rules = rules();
    let family = family();
    let m = exact_matrix(&rules, &family);
    let means = exact_means(&m);
    let best = (0..means.len())
        .max_by(|&a, &b| means[a].total_cmp(&means[b]))
        .unwrap();
    Solved {
        rules,
        family,
        m,
        means,
        best,
    }
}

fn config(seed: u64, design: Design) -> RaceConfig {
    RaceConfig::new(DELTA, EPSILON, 1 << 18, 3, seed, 100_000, design).unwrap()
}

const DELTA: f64 = 0.1;
const EPSILON: f64 = 0.002;
const RUNS: u64 = 100;

/// Whether every interval the race states (every pair figure, the best die's mean)
/// contains the exact value.
fn intervals_hold(outcome: &RaceOutcome, m: &[Vec<f64>], means: &[f64]) -> bool {
    let n = m.len();
    let pairs_hold = (0..n).all(|i| {
        (0..n)
            .filter(|&j| j != i)
            .all(|j| outcome.p(i, j).1.contains(m[i][j]))
    });
    pairs_hold
        && outcome
            .best_mean
            .interval
            .contains(means[outcome.best_mean.leader])
}

#[test]
fn the_race_finds_the_true_best_die_as_often_as_it_promises() {
    let Solved {
        rules,
        family,
        m,
        means,
        best,
    } = solved();
    let mut sorted = means.clone();
    sorted.sort_by(|a, b| b.total_cmp(a));
    // The test is meaningful only if the best die is separated from the rest.
    assert!(sorted[0] - sorted[1] > 10.0 * EPSILON, "{means:?}");

    let (mut found, mut held) = (0, 0);
    for seed in 1..=RUNS {
        let outcome = race(
            &rules,
            &family,
            &config(seed, Design::Racing),
            &|_| {},
            &|_| {},
        )
        .unwrap();
        let r = &outcome.best_mean;
        if r.status != RaceStatus::Undecided && means[r.leader] >= means[best] - EPSILON {
            found += 1;
        }
        if intervals_hold(&outcome, &m, &means) {
            held += 1;
        }
    }
    // Promised: at least 1 - DELTA = 90 % of the runs. With a true failure rate of
    // 10 %, more than 18 failures in 100 runs have probability 0.009 (binomial tail);
    // the union-bounded sequences are conservative and should fail far less often.
    assert!(
        RUNS - found <= 18,
        "found the best die in {found} of {RUNS} runs"
    );
    assert!(
        RUNS - held <= 18,
        "all intervals held in {held} of {RUNS} runs"
    );
    println!("best die found in {found} of {RUNS} runs; all intervals held in {held}");
}

/// Every statement of a race, held against the exact matrix: the intervals it states
/// (every played pair's, every mean's it can state, the best die's), the best die (within
/// the indifference, unless undecided), the Condorcet answer, the maximin answer and the
/// cycles. `false` as soon as one is wrong.
fn every_statement_holds(outcome: &RaceOutcome, m: &[Vec<f64>], means: &[f64]) -> bool {
    let n = m.len();
    let beats = |i: usize, j: usize| m[i][j] > m[j][i];
    let worst = |i: usize| {
        (0..n)
            .filter(|&j| j != i)
            .map(|j| m[i][j])
            .fold(f64::INFINITY, f64::min)
    };
    let best_worst = (0..n).map(worst).fold(f64::NEG_INFINITY, f64::max);
    let best_mean = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pairs = (0..n).all(|i| {
        (0..n)
            .filter(|&j| j != i)
            .all(|j| outcome.p(i, j).1.contains(m[i][j]))
    });
    let mean_intervals = (0..n).all(|i| {
        outcome
            .mean_interval(i, outcome.mean_alpha)
            .is_none_or(|(_, b)| b.contains(means[i]))
    });
    let r = &outcome.best_mean;
    let best = r.interval.contains(means[r.leader])
        && (r.status == RaceStatus::Undecided || means[r.leader] >= best_mean - EPSILON)
        && (0..n)
            .filter(|&i| means[i] == best_mean)
            .all(|i| r.candidates.contains(&i) || r.status != RaceStatus::Undecided);
    let truly_condorcet = (0..n).find(|&c| (0..n).all(|j| j == c || beats(c, j)));
    let condorcet = match &outcome.condorcet {
        Condorcet::Winner(c) => truly_condorcet == Some(*c),
        Condorcet::None => truly_condorcet.is_none(),
        Condorcet::Undecided(cands) => truly_condorcet.is_none_or(|c| cands.contains(&c)),
    };
    let x = &outcome.maximin;
    let maximin = x.interval.contains(worst(x.leader))
        && match x.status {
            RaceStatus::Undecided => (0..n)
                .filter(|&i| worst(i) == best_worst)
                .all(|i| x.candidates.contains(&i)),
            _ => worst(x.leader) >= best_worst - EPSILON,
        };
    let t = &outcome.top;
    let cycles = {
        let mut ok = true;
        for a in 0..t.len() {
            for b in 0..t.len() {
                if a != b && outcome.figure(t[a], t[b]).beats() {
                    ok &= beats(t[a], t[b]);
                }
            }
        }
        ok
    };
    pairs && mean_intervals && best && condorcet && maximin && cycles
}

/// The screening design on the same family with three anchors of six dice (so the
/// Condorcet and maximin filters work on a part of the pairs): the best die found, and
/// every statement true, in at least the share of seeded runs promised.
#[test]
fn screening_finds_the_true_best_die_and_all_it_states_holds_as_often_as_it_promises() {
    let Solved {
        rules,
        family,
        m,
        means,
        best,
    } = solved();
    let (mut found, mut held) = (0, 0);
    let mut games = 0;
    for seed in 1..=RUNS {
        let config = config(seed, Design::Screening);
        let outcome = race(&rules, &family, &config, &|_| {}, &|_| {}).unwrap();
        // Only the anchors' pairs are in play: 3 (n - 1) - 3 = 12 of the 15.
        assert_eq!(outcome.counts.len(), 12);
        assert_eq!(outcome.pairs.anchors().unwrap().len(), 3);
        assert_eq!(
            outcome.pairs.anchors().unwrap()[0],
            outcome.best_mean.leader
        );
        let r = &outcome.best_mean;
        if r.status != RaceStatus::Undecided && means[r.leader] >= means[best] - EPSILON {
            found += 1;
        }
        if every_statement_holds(&outcome, &m, &means) {
            held += 1;
        }
        let screened: u64 = outcome
            .screened
            .as_ref()
            .unwrap()
            .iter()
            .map(|c| c.games)
            .sum();
        let paired: u64 = outcome.counts.iter().map(|c| c.games).sum();
        assert_eq!(screened + paired, outcome.games);
        games += outcome.games;
    }
    // As for racing: promised 90 %; more than 18 failures in 100 runs at a true failure
    // rate of 10 % has probability 0.009.
    assert!(
        RUNS - found <= 18,
        "found the best die in {found} of {RUNS} runs"
    );
    assert!(
        RUNS - held <= 18,
        "every statement held in {held} of {RUNS} runs"
    );
    println!(
        "screening: best die found in {found} of {RUNS} runs; every statement held in {held}; \
         {games} games"
    );
}

/// The racing design's statements, checked the same way.
#[test]
fn every_statement_of_racing_holds_as_often_as_it_promises() {
    let Solved {
        rules,
        family,
        m,
        means,
        ..
    } = solved();
    let held = (1..=RUNS)
        .filter(|&seed| {
            let outcome = race(
                &rules,
                &family,
                &config(seed, Design::Racing),
                &|_| {},
                &|_| {},
            )
            .unwrap();
            every_statement_holds(&outcome, &m, &means)
        })
        .count() as u64;
    assert!(
        RUNS - held <= 18,
        "every statement held in {held} of {RUNS} runs"
    );
}

/// Under `choice` every die plays the search's strategy: on a board where `safe` and
/// `frontmost` give different figures, every pair's interval holds the exact figure of both
/// playing `safe`, and misses the figure of both playing `frontmost` somewhere (so the test
/// would notice a search that ignored the strategy).
#[test]
fn a_search_under_choice_plays_its_strategy() {
    use wuerfelglueck::exact::game::{Side, solve_game};
    use wuerfelglueck::strategy::Strategy;
    let rules = Rules::new(
        "16/8/2/2".parse::<Board>().unwrap(),
        "choice".parse::<Profile>().unwrap(),
    );
    let dice: Vec<Die> = ["1..6", "1,6,6,6,6,6", "1,1,6,6,6,6"]
        .iter()
        .map(|d| d.parse().unwrap())
        .collect();
    let family = Family::from_dice(dice, "three dice".into()).unwrap();
    let options = SolveOptions::new(1e-10, 100_000, None).unwrap();
    let exact = |a: &Die, b: &Die, strategy: &Strategy| {
        let policies = [strategy.seated([a, b], 0), strategy.seated([a, b], 1)];
        solve_game(
            &rules,
            [a, b],
            [Side::Fixed(&policies[0]), Side::Fixed(&policies[1])],
            &options,
        )
        .unwrap()
        .pair
        .p_a
    };
    let safe: Strategy = "safe".parse().unwrap();
    let config = RaceConfig::new(0.01, 0.0, 1 << 17, 3, 5, 100_000, Design::RoundRobin)
        .unwrap()
        .playing(safe.clone())
        .unwrap();
    let outcome = race(&rules, &family, &config, &|_| {}, &|_| {}).unwrap();
    let d = family.dice();
    let mut frontmost_missed = false;
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                let interval = outcome.p(i, j).1;
                assert!(
                    interval.contains(exact(&d[i], &d[j], &safe)),
                    "{} vs {}: {interval:?}",
                    d[i],
                    d[j]
                );
                frontmost_missed |= !interval.contains(exact(&d[i], &d[j], &Strategy::Frontmost));
            }
        }
    }
    assert!(
        frontmost_missed,
        "the intervals cannot tell safe from frontmost"
    );
}

/// `--strategy` is refused as `rank` refuses it, and a policy table (solved for one pair of
/// dice) is refused with the reason, also when the file is a valid table.
#[test]
fn search_strategies_are_checked_before_any_game() {
    let dir = std::env::temp_dir().join(format!("wg-search-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("policy.txt");
    let board = [
        "--track",
        "8",
        "--offset",
        "4",
        "--pieces",
        "2",
        "--goal-fields",
        "2",
    ];
    let mut solve = vec!["solve", "--a", "1..6", "--b", "1..6", "--profile", "choice"];
    solve.extend(board);
    solve.extend(["--policy-out", table.to_str().unwrap()]);
    let out = output(&solve);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spec = format!("table:{}", table.display());
    let family = ["search", "--faces", "2", "--values", "5..6"];
    for (extra, expected) in [
        (vec!["--strategy", "safe"], "needs --profile choice"),
        (
            vec!["--profile", "choice", "--strategy", spec.as_str()],
            "policy table",
        ),
        (
            vec!["--profile", "choice", "--strategy-a", "safe"],
            "same strategy",
        ),
        (vec!["--max-die-games", "1024"], "--design screening"),
        (
            vec!["--design", "screening", "--max-die-games", "1000"],
            "--max-die-games",
        ),
    ] {
        let mut args = family.to_vec();
        args.extend(board);
        args.extend(extra.iter().copied());
        let out = output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    // Under choice the JSON names the strategy every die played.
    let mut args = family.to_vec();
    args.extend(board);
    args.extend([
        "--profile",
        "choice",
        "--strategy",
        "safe",
        "--format",
        "json",
        "--confirm",
        "0",
    ]);
    let out = output(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["strategy"], "safe");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn racing_spends_fewer_games_than_the_round_robin_for_the_same_guarantee() {
    let rules = rules();
    let family = family();
    let racing = race(
        &rules,
        &family,
        &config(7, Design::Racing),
        &|_| {},
        &|_| {},
    )
    .unwrap();
    let robin = race(
        &rules,
        &family,
        &config(7, Design::RoundRobin),
        &|_| {},
        &|_| {},
    )
    .unwrap();
    // The round robin plays every pair equally often.
    let n = family.len();
    let first = robin.counts[0].games;
    assert!(robin.counts.iter().all(|c| c.games == first));
    assert!(
        racing.games < robin.games,
        "racing {} games, round robin {}",
        racing.games,
        robin.games
    );
    // Both name the same best die here (the gap is wide).
    assert_eq!(racing.best_mean.leader, robin.best_mean.leader);
    // The counts add up.
    let total: u64 = racing.counts.iter().map(|c| c.games).sum();
    assert_eq!(total, racing.games);
    assert_eq!(racing.counts.len(), n * (n - 1) / 2);
    assert_eq!(pair_index(n, n - 2, n - 1), n * (n - 1) / 2 - 1);
}

#[test]
fn a_search_gives_the_same_counts_on_one_and_on_two_threads() {
    let rules = rules();
    let family = family();
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                race(
                    &rules,
                    &family,
                    &config(3, Design::Racing),
                    &|_| {},
                    &|_| {},
                )
            })
            .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.counts, two.counts);
    assert_eq!(one.best_mean, two.best_mean);
    assert_abs_diff_eq!(one.mean_estimate(0), two.mean_estimate(0), epsilon = 0.0);
}

/// A small search on a reduced board: every documented JSON field, the exact confirmation
/// agreeing with the race, the store read back on a rerun.
#[test]
fn search_json_has_the_documented_fields_and_the_store_is_reused() {
    let dir = std::env::temp_dir().join(format!("wg-search-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "search",
        "--faces",
        "2",
        "--values",
        "5..6",
        "--track",
        "12",
        "--offset",
        "6",
        "--pieces",
        "1",
        "--goal-fields",
        "1",
        "--confirm",
        "3",
        "--format",
        "json",
        "--store",
        dir.to_str().unwrap(),
    ];
    let out = output(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "family",
        "best_mean",
        "condorcet",
        "maximin",
        "cycles",
        "games",
        "error_probability",
        "seed",
        "confirmation",
        "dice",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["family"].as_array().unwrap().len(), 3);
    for key in ["die", "mean_p", "ci95"] {
        assert!(v["best_mean"].get(key).is_some(), "best_mean.{key}");
    }
    for key in ["die", "worst_p"] {
        assert!(v["maximin"].get(key).is_some(), "maximin.{key}");
    }
    let confirmed = v["confirmation"].as_array().unwrap();
    assert_eq!(confirmed.len(), 3);
    for c in confirmed {
        assert_eq!(c["status"], "exact");
        assert_eq!(c["agrees"], true);
    }
    // The rerun reads the three pairs from the store.
    let again = output(&args);
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    let notes: Vec<&str> = v["confirmation"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["note"].as_str())
        .collect();
    assert_eq!(notes.len(), 3);
    assert!(notes.iter().all(|n| n.contains("read from")), "{notes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_families_are_refused_with_the_option_named() {
    for (args, expected) in [
        (
            vec!["search", "--faces", "6", "--values", "0..19"],
            "177100 dice",
        ),
        (
            vec!["search", "--faces", "6", "--values", "6..1"],
            "backwards",
        ),
        (
            vec!["search", "--faces", "6", "--values", "1-6"],
            "--values",
        ),
        (
            vec!["search", "--faces", "0", "--values", "1..6"],
            "at least one face",
        ),
        (
            vec![
                "search",
                "--faces",
                "2",
                "--values",
                "1..6",
                "--max-games",
                "1000",
            ],
            "--max-games",
        ),
        (
            vec![
                "search",
                "--faces",
                "2",
                "--values",
                "1..6",
                "--error-probability",
                "0",
            ],
            "--error-probability",
        ),
        (
            vec!["search", "--faces", "1", "--values", "3..3"],
            "at least two",
        ),
    ] {
        let out = output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// A race stopped after round `k`, written to a store and read back, then resumed, gives
/// exactly the counts and answers of the race never interrupted: for racing, and for
/// screening stopped in stage 1 and in stage 2.
#[test]
fn an_interrupted_race_resumed_from_its_store_is_the_uninterrupted_race() {
    use wuerfelglueck::dice_search::{Checkpoint, RaceState, RunOptions, Stage, race_from};
    let rules = rules();
    let family = family();
    let dir = std::env::temp_dir().join(format!("wg-search-resume-{}", std::process::id()));
    for (design, stop_at) in [
        (Design::Racing, 2),
        (Design::Screening, 2),
        (Design::Screening, 8),
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = config(11, design);
        let whole = race(&rules, &family, &config, &|_| {}, &|_| {}).unwrap();
        assert!(
            whole.rounds > stop_at,
            "{design:?}: only {} rounds",
            whole.rounds
        );
        let checkpoint = Checkpoint::new(&dir, RunOptions::new(&rules, &family, &config));
        let mut save_and_stop = |s: &RaceState| {
            checkpoint.save(s).unwrap();
            Ok(s.outcome.rounds < stop_at)
        };
        let stopped = race_from(
            &rules,
            &family,
            &config,
            RaceState::start(&family, &config),
            &|_| {},
            &|_| {},
            &mut save_and_stop,
        )
        .unwrap();
        assert!(!stopped.finished);
        assert_eq!(stopped.outcome.rounds, stop_at);
        if design == Design::Screening {
            // Round 8 of this family's screening is a pair round, round 2 a sampled one.
            let expected = if stop_at == 2 {
                Stage::SampledOpponents
            } else {
                Stage::Pairs
            };
            assert_eq!(stopped.stage, expected);
        }
        let loaded = checkpoint
            .load(&config)
            .unwrap()
            .expect("a state was saved");
        // Compared as written (PartialEq would call the NaN pair risk of stage 1 unequal).
        let json = |s: &RaceState| serde_json::to_string(s).unwrap();
        assert_eq!(json(&loaded), json(&stopped));
        let resumed = race_from(
            &rules,
            &family,
            &config,
            loaded,
            &|_| {},
            &|_| {},
            &mut |_| Ok(true),
        )
        .unwrap();
        assert!(resumed.finished);
        assert_eq!(
            resumed.outcome, whole,
            "{design:?} stopped after round {stop_at}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn json_without_timing(stdout: &[u8]) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("notes");
    v
}

/// `search --store`: a search stopped after round 2 and run again reports exactly what a
/// search without a store reports; a state of other options, or a damaged one, is refused
/// with the file and the difference named, and left as it was.
#[test]
fn search_store_resumes_and_refuses_other_or_damaged_states() {
    let dir = std::env::temp_dir().join(format!("wg-search-cli-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let base = [
        "search",
        "results/search/test-family.txt",
        "--track",
        "12",
        "--offset",
        "6",
        "--pieces",
        "1",
        "--goal-fields",
        "1",
        "--top",
        "3",
        "--error-probability",
        "0.1",
        "--epsilon",
        "0.002",
        "--confirm",
        "0",
        "--format",
        "json",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        output(&args)
    };
    let store = dir.to_str().unwrap();
    for design in ["racing", "screening"] {
        let _ = std::fs::remove_dir_all(&dir);
        let plain = with(&["--design", design]);
        assert!(plain.status.success());
        let stopped = with(&[
            "--design",
            design,
            "--store",
            store,
            "--stop-after-round",
            "2",
        ]);
        assert!(
            stopped.status.success(),
            "{}",
            String::from_utf8_lossy(&stopped.stderr)
        );
        assert!(stopped.stdout.is_empty());
        let state = dir.join("search-state.json");
        assert!(state.exists());
        let resumed = with(&["--design", design, "--store", store]);
        assert!(
            resumed.status.success(),
            "{}",
            String::from_utf8_lossy(&resumed.stderr)
        );
        assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming from"));
        assert_eq!(
            json_without_timing(&resumed.stdout),
            json_without_timing(&plain.stdout),
            "{design}"
        );
        // Another seed: refused, the file named, the difference named, the file untouched.
        let before = std::fs::read(&state).unwrap();
        let other = with(&["--design", design, "--store", store, "--seed", "2"]);
        assert_eq!(other.status.code(), Some(2));
        let err = String::from_utf8_lossy(&other.stderr);
        assert!(
            err.contains("search-state.json") && err.contains("--seed: 1 there, 2 here"),
            "{err}"
        );
        assert_eq!(std::fs::read(&state).unwrap(), before);
        // A damaged file (cut in half; then one count changed): refused, left alone.
        for damaged in [
            before[..before.len() / 2].to_vec(),
            String::from_utf8(before.clone())
                .unwrap()
                .replacen("\"games\":", "\"games\":1", 1)
                .into_bytes(),
        ] {
            std::fs::write(&state, &damaged).unwrap();
            let out = with(&["--design", design, "--store", store]);
            assert_eq!(out.status.code(), Some(2));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("search-state.json") && err.contains("not a usable search state"),
                "{err}"
            );
            assert_eq!(std::fs::read(&state).unwrap(), damaged);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A family is sized by what its design plays: racing plays every pair and refuses the
/// 177,100 dice with six faces from 0..19 (15.7 billion pairs), screening plays games per
/// die and the pairs of the top dice and takes them; neither takes a family beyond its
/// chunks. Every check of the dice before the first game is linear in them.
#[test]
fn a_family_is_sized_by_the_games_its_design_plays() {
    use wuerfelglueck::api::{SearchOptions, SearchSettings, from_map};
    let settings = |design: &str, values: &str| {
        let map = serde_json::json!({"faces": 6, "values": values, "design": design});
        let options: SearchOptions = from_map("search", map.as_object().unwrap()).unwrap();
        SearchSettings::new(&options)
    };
    let racing = settings("racing", "0..19").unwrap_err();
    assert!(
        racing.to_string().contains("--design screening"),
        "{racing}"
    );
    assert!(settings("screening", "0..19").is_ok());
    let beyond = settings("screening", "0..99").unwrap_err();
    assert!(beyond.to_string().contains("can be screened"), "{beyond}");
    // Under roll-off only dice of one value can fail, and the first such pair is named:
    // 1,1 against 1,1,1, not found by trying every pair.
    let dir = std::env::temp_dir().join(format!("wg-search-roll-off-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dice.txt");
    std::fs::write(&file, "4\n2 1 1\n2 2 2\n2 3 4\n3 1 1 1\n").unwrap();
    let out = output(&[
        "search",
        file.to_str().unwrap(),
        "--profile",
        "bwinf+roll-off",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("1,1 vs 1,1,1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
