//! The matrix-free solver (`exact::matrix_free`) against the sparse-matrix solver on reduced
//! boards, against itself on one thread, and against the Monte Carlo engine on the full
//! BwInf board.

use approx::{abs_diff_eq, assert_abs_diff_eq};
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::checks::against_simulation;
use wuerfelglueck::exact::matrix_free::{
    Components, FullOptions, Storage, ZLayout, estimate_bytes, game::Game, releasing_bytes,
    solve_full, solve_full_with, survey,
};
use wuerfelglueck::exact::memory::table_bytes;
use wuerfelglueck::exact::progress::{Phase, Progress};
use wuerfelglueck::exact::sparse::solve::CAN_NEVER;
use wuerfelglueck::exact::{
    ExactError, ExactResult, Model, SolveOptions, SolverUsed, checks::check_result, solve_fitting,
    solve_matchup,
};
use wuerfelglueck::rules::Rules;
use wuerfelglueck::sim::{Matchup, Stopping, StreamKey, run_duel};
use wuerfelglueck::stats::Z999;

mod common;

use common::{die, options, rules};

/// The full-board tests need about 1 GB each: they run one at a time, whatever the test
/// threads.
static FULL_BOARD: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_full_board_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    // A failed test poisons the lock; the others still run.
    FULL_BOARD.lock().unwrap_or_else(|e| e.into_inner())
}

fn figures(r: &ExactResult) -> [f64; 9] {
    [
        r.p_a,
        r.p_a_if_a_starts,
        r.p_a_if_b_starts,
        r.p_b,
        r.p_b_if_a_starts,
        r.p_b_if_b_starts,
        r.p_never,
        r.p_never_if_a_starts,
        r.p_never_if_b_starts,
    ]
}

fn assert_close(x: &ExactResult, y: &ExactResult, eps: f64, what: &str) {
    for (i, (p, q)) in figures(x).iter().zip(figures(y)).enumerate() {
        assert!(
            abs_diff_eq!(*p, q, epsilon = eps),
            "{what}: figure {i}: {p} vs {q}"
        );
    }
}

/// The matrix-free result equals the sparse solver's to 1e-9 and passes every invariant.
fn cross_check(board: &str, profile: &str, a: &str, b: &str) -> ExactResult {
    let (r, da, db) = (rules(board, profile), die(a), die(b));
    let sparse = solve_matchup(&r, &da, &db, &options(1e-11)).unwrap();
    let full = solve_full(&r, &da, &db, &options(1e-11)).unwrap();
    check_result(&full, 1e-11).unwrap_or_else(|e| panic!("{board} {a} vs {b}: {e}"));
    assert_close(
        &full,
        &sparse,
        1e-9,
        &format!("{board} {profile} {a} vs {b}"),
    );
    assert_eq!(full.stats.configs, sparse.stats.configs);
    let counts = |r: &ExactResult| {
        let s = r.stats;
        [
            s.product,
            s.states,
            s.never_states,
            s.transitions,
            s.self_loops,
        ]
    };
    assert_eq!(
        counts(&full),
        counts(&sparse),
        "{board} {profile} {a} vs {b}: joint indices, states, never, transitions, self-loops"
    );
    full
}

#[test]
fn equals_the_sparse_solver_on_reduced_boards() {
    cross_check("20/10/2/2", "bwinf", "1..6", "1..6");
    cross_check("20/10/2/2", "bwinf", "1,1,1,6,6,6", "1,6,6,6,6,6");
    cross_check("24/12/3/3", "bwinf", "1..6", "2,3,4,5,6,6");
    cross_check("40/20/2/4", "bwinf", "1..6", "1,1,1,6,6,6");
    cross_check("12/6/2/2", "goal-last+no-jump-in-goal", "1..6", "0,1,6");
}

#[test]
fn never_ending_games_are_found_and_bounded() {
    // Without a 6 B never brings a second piece in; with only 2s and 6s a piece can be stuck
    // in front of the goal: some games never end.
    let r = cross_check("12/6/2/2", "bwinf", "2,6", "1..5");
    assert!(r.p_never > 0.0 && r.stats.never_states > 0, "{r:?}");
    let r = cross_check("20/10/2/2", "bwinf", "6", "1..6");
    assert!(r.stats.never_states > 0);
    // Every die with a 1 and a 6 ends every game.
    let r = cross_check("20/10/2/2", "bwinf", "1..6", "1,6");
    assert_eq!(r.stats.never_states, 0);
    assert_eq!(r.p_never, 0.0);
}

#[test]
fn roll_off_start_is_weighted() {
    cross_check("12/6/2/2", "roll-off", "1..6", "2,3,4,5,6,6");
}

/// `three-tries`: the tries levels are solved inside each cell and not stored (see
/// `matrix_free::tries`); the results, states and transitions equal the sparse solver's,
/// which keeps every level as a state of its own, alone and with every other switch, with
/// dice that take many tries (1,1,1,6,6,6), none (only 6s), that never end a turn with a 6
/// (1..5), and 0..9.
#[test]
fn three_tries_equals_the_sparse_solver() {
    let mut never = 0;
    for (board, profile, a, b) in [
        ("12/6/2/2", "three-tries", "1..6", "1..6"),
        ("12/6/2/2", "three-tries", "1,1,1,6,6,6", "6"),
        ("12/6/2/2", "three-tries+goal-last", "0..9", "1..5"),
        (
            "12/6/2/2",
            "three-tries+no-jump-in-goal",
            "2,6",
            "1,1,1,6,6,6",
        ),
        ("12/6/2/2", "three-tries+roll-off", "1..6", "0..9"),
        ("16/8/3/3", "three-tries", "1,1,1,6,6,6", "1,6,6,6,6,6"),
        ("16/8/3/3", "three-tries+goal-last", "1..6", "1,1,1,6,6,6"),
        ("16/8/3/3", "three-tries+no-jump-in-goal", "0..9", "1..6"),
        ("16/8/3/3", "three-tries+roll-off", "1,6,6,6,6,6", "1..5"),
        ("20/10/2/4", "three-tries", "1..6", "6"),
        (
            "20/10/2/4",
            "three-tries+goal-last+no-jump-in-goal",
            "1,1,1,6,6,6",
            "0..9",
        ),
        (
            "20/10/2/4",
            "three-tries+goal-last+no-jump-in-goal+roll-off",
            "1..6",
            "1,1,1,6,6,6",
        ),
    ] {
        let r = cross_check(board, profile, a, b);
        never += r.stats.never_states;
        // The tries levels are reached: more states than without them. (Not so with a die
        // of only 6s: it rolls again for ever once it is stuck, and its opponent never
        // gets the turn.)
        if a != "6" && b != "6" {
            let plain = profile.replace("three-tries", "bwinf");
            let without = solve_full(&rules(board, &plain), &die(a), &die(b), &options(1e-11));
            assert!(
                r.stats.states > without.unwrap().stats.states,
                "{board} {profile} {a} vs {b}: no tries level reached"
            );
        }
    }
    assert!(never > 0, "no never-ending state under three-tries");
}

/// Under `three-tries` the choice of solver falls back to the matrix-free one when the
/// sparse matrix does not fit (it once kept the refusal), with the sparse answer.
#[test]
fn three_tries_falls_back_to_the_matrix_free_solver() {
    let (r, a, b) = (
        rules("20/10/3/4", "three-tries"),
        die("1..6"),
        die("1,1,1,6,6,6"),
    );
    let reference = solve_matchup(&r, &a, &b, &options(1e-10)).unwrap();
    let cells = reference.stats.configs[0] * reference.stats.configs[1];
    let limit = SolveOptions {
        max_memory: Some(estimate_bytes(
            reference.stats.configs,
            Components::Together,
            None,
            8,
            table_bytes(&r, reference.stats.configs, [&a, &b]),
        )),
        ..options(1e-10)
    };
    assert!(cells > 0);
    assert!(
        matches!(
            solve_matchup(&r, &a, &b, &limit),
            Err(ExactError::Memory { .. })
        ),
        "the sparse solver fits: the test does not test the fallback"
    );
    let fitted = solve_fitting(&r, &a, &b, &limit).unwrap();
    assert_eq!(
        fitted.solver,
        SolverUsed::MatrixFree(Storage::F64, Components::Together)
    );
    assert_close(
        &fitted.result,
        &reference,
        1e-9,
        "fallback under three-tries",
    );
    assert_abs_diff_eq!(fitted.result.p_never, 0.0);
}

/// The matrix-free solver iterates exactly the states reachable from the openings, as the
/// sparse solver does, and counts their transitions, self-loops and never-ending states as
/// the sparse solver's chain has them.
#[test]
fn counts_equal_the_sparse_chain() {
    let (mut self_loops, mut stuck_rows) = (0, 0);
    for (board, profile, a, b) in [
        ("20/10/2/2", "bwinf", "1..6", "1,1,1,6,6,6"),
        ("24/12/2/3", "bwinf", "1..6", "2,3,4,5,6,6"),
        // Never-ending states; a die of 6s whose pieces get stuck (rows that only loop).
        ("12/6/2/2", "bwinf", "2,6", "1..5"),
        ("8/4/2/2", "bwinf", "6", "1..6"),
        // The tries levels count as states of their own, as in the sparse chain.
        ("16/8/3/3", "three-tries", "1..6", "1,1,1,6,6,6"),
        ("12/6/2/2", "three-tries+goal-last", "2,6", "1..5"),
        ("8/4/2/2", "three-tries", "6", "1..6"),
    ] {
        let (r, da, db) = (rules(board, profile), die(a), die(b));
        let full = solve_full(&r, &da, &db, &options(1e-9)).unwrap().stats;
        let model = Model::build(&r, &da, &db, &options(1e-9)).unwrap();
        let what = format!("{board} {profile} {a} vs {b}");
        assert_eq!(full.states, model.chain.states() as u64, "{what}");
        assert_eq!(full.transitions, model.chain.transitions(), "{what}");
        assert_eq!(full.self_loops, model.chain.self_loops, "{what}");
        assert_eq!(full.never_states, model.classes.never, "{what}");
        self_loops += full.self_loops;
        stuck_rows += model.chain.stuck;
    }
    assert!(self_loops > 0, "no self-loop is counted");
    assert!(
        stuck_rows > 0,
        "the rule for rows that only loop is not exercised"
    );
}

#[test]
fn one_thread_and_all_threads_agree() {
    let (r, a, b) = (rules("40/20/2/4", "bwinf"), die("1..6"), die("1,6,6,6,6,6"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let one = pool.install(|| solve_full(&r, &a, &b, &options(1e-11)).unwrap());
    let again = pool.install(|| solve_full(&r, &a, &b, &options(1e-11)).unwrap());
    // One thread: bit for bit reproducible.
    assert_eq!(figures(&one), figures(&again));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let many = pool.install(|| solve_full(&r, &a, &b, &options(1e-11)).unwrap());
    assert_close(&one, &many, 1e-11, "threads");
}

#[test]
fn f32_storage_is_certified_but_coarser() {
    let (r, a, b) = (rules("40/20/2/4", "bwinf"), die("1..6"), die("1,1,1,6,6,6"));
    let exact = solve_full(&r, &a, &b, &options(1e-12)).unwrap();
    let full = FullOptions {
        storage: Storage::F32,
        ..FullOptions::default()
    };
    let coarse = solve_full_with(&r, &a, &b, &options(1e-9), &full).unwrap();
    assert_eq!(coarse.storage, Storage::F32);
    // f32 cannot certify 1e-9: the run ends as a stall, reported as such.
    assert!(coarse.stalled);
    assert!(coarse.result.bounds.p_a.width() > 1e-9);
    // Rounding down keeps the lower ends below the truth (up to f64 rounding).
    assert_truth_inside(&coarse.result, &exact, 1e-12, 1e-4, "f32");
}

/// Each of `result`'s four conditional intervals (who wins, who starts) holds the figure of
/// `truth` (to `slack`, the rounding of sums) and is narrower than `max_width`.
fn assert_truth_inside(
    result: &ExactResult,
    truth: &ExactResult,
    slack: f64,
    max_width: f64,
    what: &str,
) {
    let bounds = result.bounds;
    for (iv, truth) in [
        (bounds.p_a_if_a_starts, truth.p_a_if_a_starts),
        (bounds.p_a_if_b_starts, truth.p_a_if_b_starts),
        (bounds.p_b_if_a_starts, truth.p_b_if_a_starts),
        (bounds.p_b_if_b_starts, truth.p_b_if_b_starts),
    ] {
        assert!(
            iv.lo <= truth + slack && truth <= iv.hi + slack,
            "{what}: {iv:?} {truth}"
        );
        assert!(iv.width() < max_width, "{what}: {iv:?}");
    }
}

/// One value at a time (`V` to the end, then `W`) gives the sparse solver's figures within
/// the tolerance, certified, in `f64` and (coarser, still containing the truth) in `f32`,
/// on boards with and without captures in the opening block.
#[test]
fn one_value_at_a_time_is_certified_and_equals_the_sparse_solver() {
    for (board, a, b) in [
        ("20/10/2/2", "1..6", "2..7"),
        ("24/12/3/3", "1..6", "1,1,1,6,6,6"),
        ("40/20/2/4", "1..6", "1..6"),
    ] {
        let (r, da, db) = (rules(board, "bwinf"), die(a), die(b));
        let sparse = solve_matchup(&r, &da, &db, &options(1e-12)).unwrap();
        assert_eq!(sparse.stats.never_states, 0, "{board}: every game ends");
        for storage in [Storage::F64, Storage::F32] {
            let full = FullOptions {
                storage,
                components: Components::OneAtATime,
                ..FullOptions::default()
            };
            let apart = solve_full_with(&r, &da, &db, &options(1e-9), &full).unwrap();
            let what = format!("{board} {a} vs {b} {storage:?}");
            assert_eq!(apart.components, Components::OneAtATime, "{what}");
            assert_eq!(apart.result.stats.states, sparse.stats.states, "{what}");
            let claimed = if storage == Storage::F64 { 1e-9 } else { 1e-4 };
            check_result(&apart.result, claimed).unwrap_or_else(|e| panic!("{what}: {e}"));
            // The reference is 1e-12 wide: the truth lies in both intervals.
            assert_truth_inside(&apart.result, &sparse, 2e-12, 1e-4, &what);
            let bounds = apart.result.bounds;
            if storage == Storage::F64 {
                assert!(!apart.stalled, "{what}");
                assert!(bounds.p_a.width() <= 1e-9, "{what}: {:?}", bounds.p_a);
                assert_close(&apart.result, &sparse, 1e-9, &what);
            } else {
                // Rounded down each step: certified, but not to 1e-9 (said so).
                assert!(bounds.p_a.width() < 1e-4, "{what}: {:?}", bounds.p_a);
                assert_eq!(apart.stalled, bounds.p_a.width() > 1e-9, "{what}");
            }
        }
    }
}

/// One value at a time reports `W`'s blocks as repeats of `V`'s (what the estimate of the
/// time still to go reads them by): `V`'s blocks first, numbered from 1, then `W`'s, each
/// numbered after `V`'s and naming the block of `V` it repeats, in `V`'s order, and last
/// `W`'s opening block, which repeats `V`'s last.
#[test]
fn the_second_values_blocks_are_reported_as_repeats_of_the_first_values() {
    let (r, a, b) = (rules("20/10/2/2", "bwinf"), die("1..6"), die("2..7"));
    let reports = std::sync::Mutex::new(Vec::new());
    let observer = |p: Progress| reports.lock().unwrap().push(p);
    let full = FullOptions {
        storage: Storage::F64,
        components: Components::OneAtATime,
        observer: &observer,
    };
    solve_full_with(&r, &a, &b, &options(1e-9), &full).unwrap();
    let phases: Vec<Phase> = reports
        .into_inner()
        .unwrap()
        .into_iter()
        .filter_map(|p| match p {
            Progress::Sweep { phase, .. } => Some(phase),
            _ => None,
        })
        .collect();
    // Each block once, in the order swept.
    let distinct = |blocks: Vec<usize>| {
        let mut d: Vec<usize> = Vec::new();
        for b in blocks {
            if d.last() != Some(&b) {
                d.push(b);
            }
        }
        d
    };
    let first = distinct(
        phases
            .iter()
            .filter_map(|p| match *p {
                Phase::Block {
                    block,
                    repeats: None,
                    ..
                } => Some(block),
                _ => None,
            })
            .collect(),
    );
    let second = distinct(
        phases
            .iter()
            .filter_map(|p| match *p {
                Phase::Block {
                    block,
                    blocks,
                    repeats: Some(k),
                } => {
                    assert_eq!(block, blocks / 2 + k, "{p:?}");
                    Some(k)
                }
                _ => None,
            })
            .collect(),
    );
    let n = first.len();
    assert!(n >= 3, "{first:?}");
    assert_eq!(first, (1..=n).collect::<Vec<_>>());
    assert_eq!(second, first[..n - 1], "{phases:?}");
    // V's blocks, then W's, then W's opening block.
    let first_of_w = phases
        .iter()
        .position(|p| {
            matches!(
                p,
                Phase::Block {
                    repeats: Some(_),
                    ..
                }
            )
        })
        .unwrap();
    assert!(
        phases[..first_of_w]
            .iter()
            .all(|p| matches!(p, Phase::Block { repeats: None, .. }))
    );
    let openings = phases.iter().position(|p| *p == Phase::Openings).unwrap();
    assert!(openings > first_of_w);
    assert!(phases[openings..].iter().all(|p| *p == Phase::Openings));
}

/// Where `V, W` together do not fit the memory limit but one of them does, the automatic
/// plan carries one at a time, in `f64` before `f32`, and releasing the blocks after that in
/// each storage; below that it refuses, naming the least memory. One value at a time is
/// refused where a game may never end (it needs `Z`).
#[test]
fn one_value_at_a_time_is_planned_where_both_do_not_fit() {
    let (r, a, b) = (rules("24/12/3/3", "bwinf"), die("1..6"), die("2..7"));
    let configs = solve_full(&r, &a, &b, &options(1e-9))
        .unwrap()
        .stats
        .configs;
    let tables = table_bytes(&r, configs, [&a, &b]);
    let classes = [&a, &b].map(|d| Game::configs(&r, d).1);
    let bytes = |c, value_bytes| match c {
        Components::OneAtATimeReleasing => {
            releasing_bytes([&classes[0], &classes[1]], value_bytes, tables)
        }
        _ => estimate_bytes(configs, c, None, value_bytes, tables),
    };
    let apart_f64 = bytes(Components::OneAtATime, 8);
    let released_f64 = bytes(Components::OneAtATimeReleasing, 8);
    let (apart_f32, released_f32) = (
        bytes(Components::OneAtATime, 4),
        bytes(Components::OneAtATimeReleasing, 4),
    );
    assert!(apart_f64 < bytes(Components::Together, 8));
    assert_eq!(apart_f64, bytes(Components::Together, 4));
    // The blocks held at once are a part of the product.
    assert!(
        released_f64 < apart_f64 && apart_f32 < released_f64,
        "{released_f64}"
    );
    assert!(released_f32 < apart_f32);
    for (limit, storage, components) in [
        (
            bytes(Components::Together, 8),
            Storage::F64,
            Components::Together,
        ),
        (apart_f64, Storage::F64, Components::OneAtATime),
        (released_f64, Storage::F64, Components::OneAtATimeReleasing),
        (released_f64 - 1, Storage::F32, Components::OneAtATime),
        (released_f32, Storage::F32, Components::OneAtATimeReleasing),
    ] {
        let limited = SolveOptions {
            max_memory: Some(limit),
            ..options(1e-9)
        };
        let outcome = solve_full_with(&r, &a, &b, &limited, &FullOptions::default()).unwrap();
        assert_eq!((outcome.storage, outcome.components), (storage, components));
        assert!(outcome.result.stats.memory_bytes <= limit);
    }
    let least = released_f32;
    let too_little = SolveOptions {
        max_memory: Some(least - 1),
        ..options(1e-9)
    };
    assert!(matches!(
        solve_full_with(&r, &a, &b, &too_little, &FullOptions::default()),
        Err(ExactError::Memory { bytes, .. }) if bytes == least
    ));
    // Without a 1 B's pieces can be stuck: games that never end need `Z`.
    let (never_a, never_b) = (die("2,6"), die("1..5"));
    let forced = FullOptions {
        components: Components::OneAtATime,
        ..FullOptions::default()
    };
    let refused = solve_full_with(
        &rules("12/6/2/2", "bwinf"),
        &never_a,
        &never_b,
        &options(1e-9),
        &forced,
    );
    assert!(
        matches!(&refused, Err(ExactError::Profile(m)) if m.contains("never end")),
        "{refused:?}"
    );
}

/// Releasing the blocks no later block reads changes no value: on one thread the bounds are
/// those of one value at a time to the last bit wherever that needed no global sweep (and
/// the test needs at least one such case), since a released value read again would read 0.
/// Otherwise the releasing solve stops after the blocks and reports what it reached, which
/// still holds the truth.
#[test]
fn releasing_blocks_changes_no_value() {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut compared = 0;
    for (board, a, b) in [
        ("20/10/2/2", "1..6", "2..7"),
        ("24/12/3/3", "1..6", "1,1,1,6,6,6"),
        ("20/10/3/3", "1..6", "1..6"),
        ("40/20/2/4", "1..6", "1..6"),
    ] {
        let (r, da, db) = (rules(board, "bwinf"), die(a), die(b));
        let sparse = solve_matchup(&r, &da, &db, &options(1e-12)).unwrap();
        for storage in [Storage::F64, Storage::F32] {
            let what = format!("{board} {a} vs {b} {storage:?}");
            let solve = |components| {
                let full = FullOptions {
                    storage,
                    components,
                    ..FullOptions::default()
                };
                one_thread.install(|| solve_full_with(&r, &da, &db, &options(1e-9), &full).unwrap())
            };
            let apart = solve(Components::OneAtATime);
            let released = solve(Components::OneAtATimeReleasing);
            assert_eq!(
                released.components,
                Components::OneAtATimeReleasing,
                "{what}"
            );
            assert_eq!(released.work.global_sweeps, 0, "{what}");
            assert!(released.result.stats.memory_bytes < apart.result.stats.memory_bytes);
            assert_truth_inside(&released.result, &sparse, 2e-12, 1e-4, &what);
            if apart.work.global_sweeps == 0 {
                assert_eq!(figures(&released.result), figures(&apart.result), "{what}");
                assert_eq!(released.result.bounds, apart.result.bounds, "{what}");
                assert_eq!(released.stalled, apart.stalled, "{what}");
                assert_eq!(released.work, apart.work, "{what}");
                compared += 1;
            } else {
                let width = released.result.bounds.p_a.width();
                assert_eq!(released.stalled, width > 1e-9, "{what}: {width}");
            }
        }
    }
    assert!(compared >= 4, "only {compared} cases without global sweeps");
}

/// A never-ending set needs a third stored component, `Z`: next to `V, W` for every state
/// (fastest), or only where the never-ending set can be reached (less memory). The choice is
/// made after the never-ending search (it once chose `f64` before the never-ending set was
/// known, and then refused): `f64` with dense `Z` where it fits, else `f64` with sparse
/// `Z`, else `f32`, and every choice answers within its certified interval.
#[test]
fn auto_storage_is_chosen_after_the_never_ending_search() {
    let (r, a, b) = (rules("12/6/2/2", "bwinf"), die("2,6"), die("1..5"));
    let auto = FullOptions::default();
    let reference = solve_full_with(&r, &a, &b, &options(1e-11), &auto).unwrap();
    assert!(reference.result.stats.never_states > 0);
    assert_eq!(reference.z_layout, Some(ZLayout::Dense));
    // Dense `Z` fits: the search for the states that keep sparse `Z` does not even run.
    assert_eq!((reference.z_states, reference.never_passes), (None, 0));
    let configs = reference.result.stats.configs;
    let z = survey(&r, &a, &b).unwrap().z_states;
    let tables = table_bytes(&r, configs, [&a, &b]);
    let bytes = |layout, value_bytes| {
        estimate_bytes(
            configs,
            Components::Together,
            Some((layout, z)),
            value_bytes,
            tables,
        )
    };
    let (dense_f64, sparse_f64) = (bytes(ZLayout::Dense, 8), bytes(ZLayout::Sparse, 8));
    assert!(
        estimate_bytes(configs, Components::Together, None, 8, tables) < sparse_f64
            && sparse_f64 < dense_f64
    );
    assert!(bytes(ZLayout::Dense, 4) < sparse_f64);
    for (limit, storage, layout) in [
        (dense_f64, Storage::F64, ZLayout::Dense),
        (dense_f64 - 1, Storage::F64, ZLayout::Sparse),
        (sparse_f64, Storage::F64, ZLayout::Sparse),
        (sparse_f64 - 1, Storage::F32, ZLayout::Dense),
    ] {
        let opts = SolveOptions {
            max_memory: Some(limit),
            ..options(1e-9)
        };
        let run = solve_full_with(&r, &a, &b, &opts, &auto).unwrap();
        assert_eq!(
            (run.storage, run.z_layout),
            (storage, Some(layout)),
            "{limit}"
        );
        assert_eq!(
            run.result.stats.memory_bytes,
            bytes(layout, storage.value_bytes())
        );
        if layout == ZLayout::Sparse {
            assert_eq!(run.z_states, Some(z));
        }
        let p = run.result.bounds.p_a;
        let truth = reference.result.p_a;
        assert!(
            p.lo <= truth + 1e-12 && truth <= p.hi + 1e-12,
            "{limit}: {p:?}"
        );
        if storage == Storage::F64 {
            assert_abs_diff_eq!(run.result.p_a, truth, epsilon = 1e-9);
        }
    }
}

/// `Z` is kept exactly for the states that can reach the never-ending set: their number
/// equals the sparse chain's own reverse search ([`CAN_NEVER`] rows), on boards where
/// all, part or none of the states can reach it; the values agree with the sparse solver,
/// and the memory counted is that of the kept `Z`.
#[test]
fn z_is_kept_where_the_never_ending_set_can_be_reached() {
    let mut partial = 0;
    for (board, a, b) in [
        ("12/6/2/2", "2,6", "1..5"),
        ("20/10/2/2", "6", "1..6"),
        ("8/4/2/2", "6", "1..6"),
        ("12/6/2/2", "5,6", "4,6"),
        ("20/10/2/2", "4..9", "5..10"),
        ("16/8/3/3", "3..8", "6..11"),
        ("20/10/2/2", "1..6", "1,6"),
    ] {
        let (r, da, db) = (rules(board, "bwinf"), die(a), die(b));
        let what = format!("{board} {a} vs {b}");
        let full = solve_full_with(&r, &da, &db, &options(1e-11), &FullOptions::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let model = Model::build(&r, &da, &db, &options(1e-11)).unwrap();
        let can_never = model
            .classes
            .flags
            .iter()
            .filter(|&&f| f & CAN_NEVER != 0)
            .count() as u64;
        let z_states = survey(&r, &da, &db).unwrap().z_states;
        assert_eq!(z_states, can_never, "{what}");
        let stats = full.result.stats;
        assert!(z_states >= stats.never_states, "{what}");
        assert_eq!(z_states == 0, stats.never_states == 0, "{what}");
        if z_states > 0 && z_states < stats.states {
            partial += 1;
        }
        let sparse = model.solve(&options(1e-11)).unwrap().0;
        check_result(&full.result, 1e-11).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_close(&full.result, &sparse, 1e-9, &what);
        if z_states == 0 {
            assert_eq!(full.z_layout, None, "{what}");
            continue;
        }
        // The same solve with `Z` kept only where it is needed: the memory counted is that
        // of the kept `Z`, the figures those of the sparse solver.
        let tables = table_bytes(&r, stats.configs, [&da, &db]);
        let dense = estimate_bytes(
            stats.configs,
            Components::Together,
            Some((ZLayout::Dense, z_states)),
            8,
            tables,
        );
        let opts = SolveOptions {
            max_memory: Some(dense - 1),
            ..options(1e-11)
        };
        let kept = solve_full_with(&r, &da, &db, &opts, &FullOptions::default()).unwrap();
        assert_eq!(kept.z_layout, Some(ZLayout::Sparse), "{what}");
        assert_eq!(kept.storage, Storage::F64, "{what}");
        assert_eq!(kept.z_states, Some(z_states), "{what}");
        assert_eq!(
            kept.result.stats.memory_bytes,
            estimate_bytes(
                stats.configs,
                Components::Together,
                Some((ZLayout::Sparse, z_states)),
                8,
                tables
            ),
            "{what}"
        );
        check_result(&kept.result, 1e-11).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_close(&kept.result, &sparse, 1e-9, &what);
    }
    assert!(
        partial >= 2,
        "no board where only part of the states keeps Z"
    );
}

#[test]
fn memory_guard_names_the_product() {
    let (r, a, b) = (rules("40/20/2/4", "bwinf"), die("1..6"), die("1..6"));
    let opts = SolveOptions {
        max_memory: Some(1 << 20),
        ..options(1e-9)
    };
    match solve_full(&r, &a, &b, &opts) {
        Err(ExactError::Memory { states, bytes, .. }) => {
            assert!(states > 0 && bytes > 1 << 20);
        }
        other => panic!("{other:?}"),
    }
    // Under three-tries the guard names the joint index with its three tries levels.
    match solve_full(&rules("40/20/2/4", "three-tries"), &a, &b, &opts) {
        Err(ExactError::Memory {
            states: tries_states,
            ..
        }) => {
            let states = match solve_full(&r, &a, &b, &opts) {
                Err(ExactError::Memory { states, .. }) => states,
                other => panic!("{other:?}"),
            };
            assert_eq!(tries_states, 3 * states);
        }
        other => panic!("{other:?}"),
    }
}

/// Options no solver can honour are refused before any work, by every entry point; a
/// tolerance below what f64 can certify once ran every sweep it was allowed.
#[test]
fn options_the_command_line_refuses_are_refused_by_the_library() {
    let (r, a, b) = (rules("10/5/2/2", "bwinf"), die("1..6"), die("1..6"));
    for (tolerance, max_sweeps) in [
        (f64::NAN, 100),
        (0.0, 100),
        (-1e-9, 100),
        (1e-15, 100),
        (1e-300, usize::MAX),
        (f64::INFINITY, 100),
        (2.0, 100),
        (1e-9, 0),
    ] {
        let opts = SolveOptions {
            tolerance,
            max_sweeps,
            max_memory: None,
        };
        assert!(SolveOptions::new(tolerance, max_sweeps, None).is_err());
        for result in [
            solve_full(&r, &a, &b, &opts).map(|_| ()),
            solve_matchup(&r, &a, &b, &opts).map(|_| ()),
            solve_fitting(&r, &a, &b, &opts).map(|_| ()),
            Model::build(&r, &a, &b, &opts).map(|_| ()),
        ] {
            match result {
                Err(e @ ExactError::Options(_)) => {
                    assert!(e.to_string().contains("tolerance") || e.to_string().contains("sweep"))
                }
                other => panic!("{tolerance} / {max_sweeps}: {other:?}"),
            }
        }
    }
    // The floor itself is accepted and certified.
    let floor = SolveOptions::new(wuerfelglueck::fixpoint::TOLERANCE_FLOOR, 100_000, None).unwrap();
    let sharp = solve_full(&r, &a, &b, &floor).unwrap();
    assert!(sharp.bounds.p_a.width() <= wuerfelglueck::fixpoint::TOLERANCE_FLOOR);
}

/// `games` simulated games of `a` against `b` put every conditional figure of `exact` (A
/// wins, B wins, never ends, by who starts) inside its 99.9 % Wilson interval.
fn assert_simulation_agrees(r: &Rules, a: &Die, b: &Die, exact: &ExactResult, games: u64) {
    let matchup = Matchup::new(r, [a, b], 1_000_000).unwrap();
    let counts = run_duel(
        &matchup,
        StreamKey::new(20_260_523),
        Stopping::games(games).unwrap(),
        &|_| {},
    )
    .unwrap();
    for f in against_simulation(exact, &counts, Z999) {
        assert!(f.agrees, "{a} vs {b}: {f:?}");
    }
}

/// The full board: 1,1,1,6,6,6 against 1,6,6,6,6,6 exactly, and 200,000 simulated games
/// inside the 99.9 % Wilson interval of each start's figures.
#[test]
fn full_board_agrees_with_simulation() {
    let _one = one_full_board_at_a_time();
    let (r, a, b) = (Rules::bwinf(), die("1,1,1,6,6,6"), die("1,6,6,6,6,6"));
    let exact = solve_full(&r, &a, &b, &options(1e-9)).unwrap();
    check_result(&exact, 1e-9).unwrap();
    assert_eq!(exact.stats.never_states, 0);
    assert_eq!(exact.p_never, 0.0);
    assert_simulation_agrees(&r, &a, &b, &exact, 200_000);
}

/// The full board with games that never end: 5,6 against 4,6 (neither die has a 1, so a
/// piece short of the goal can be stuck for good; 92 % of the games never end). The
/// matrix-free solver agrees with the sparse one to 1e-9 and with 200,000 simulated games,
/// never-ending share included.
#[test]
fn full_board_never_ending_agrees_with_sparse_and_simulation() {
    let _one = one_full_board_at_a_time();
    let (r, a, b) = (Rules::bwinf(), die("5,6"), die("4,6"));
    let exact = solve_full(&r, &a, &b, &options(1e-10)).unwrap();
    check_result(&exact, 1e-10).unwrap();
    assert!(
        exact.stats.never_states > 0 && exact.p_never > 0.5,
        "{exact:?}"
    );
    let sparse = solve_matchup(&r, &a, &b, &options(1e-10)).unwrap();
    assert_close(&exact, &sparse, 1e-9, "5,6 vs 4,6 on the full board");
    assert_simulation_agrees(&r, &a, &b, &exact, 200_000);
}

/// The full board under `three-tries`: 1,1,1,6,6,6 against 1,6,6,6,6,6 exactly (about 1 GB,
/// as without the tries: the tries levels are not stored), and 200,000 simulated games
/// inside the 99.9 % Wilson interval of each start's figures.
#[test]
fn full_board_three_tries_agrees_with_simulation() {
    let _one = one_full_board_at_a_time();
    let r = rules("40/20/4/4", "three-tries");
    let (a, b) = (die("1,1,1,6,6,6"), die("1,6,6,6,6,6"));
    let exact = solve_full(&r, &a, &b, &options(1e-9)).unwrap();
    check_result(&exact, 1e-9).unwrap();
    assert_eq!(exact.stats.never_states, 0);
    assert_abs_diff_eq!(exact.p_never, 0.0);
    // The tries levels are reached (A wins 0.1935 % here, 0.2033 % without them).
    let plain = solve_full(&Rules::bwinf(), &a, &b, &options(1e-9)).unwrap();
    assert!(exact.stats.states > plain.stats.states);
    assert_simulation_agrees(&r, &a, &b, &exact, 200_000);
}

/// What the solvers report while they run agrees with what they return: the states and bytes
/// planned, the work, the width at the end; the matrix-free blocks before the opening one
/// come first and are counted in order.
#[test]
fn the_reports_of_a_running_solve_agree_with_its_result() {
    let (r, a, b) = (rules("20/10/2/2", "bwinf"), die("1..6"), die("2..7"));
    let reports = std::sync::Mutex::new(Vec::new());
    let observer = |p: Progress| reports.lock().unwrap().push(p);
    let full = FullOptions {
        storage: Storage::F64,
        observer: &observer,
        ..FullOptions::default()
    };
    let outcome = solve_full_with(&r, &a, &b, &options(1e-9), &full).unwrap();
    let reports = std::mem::take(&mut *reports.lock().unwrap());
    let stats = outcome.result.stats;
    let [
        Progress::Sizing { joint_indices, .. },
        Progress::Planned { states, bytes, .. },
        sweeps @ ..,
    ] = &reports[..]
    else {
        panic!("no size and plan first: {reports:?}")
    };
    assert_eq!(*joint_indices, stats.product);
    assert_eq!((*states, *bytes), (stats.states, stats.memory_bytes));
    assert_eq!(
        sweeps.len(),
        outcome.work.block_sweeps + outcome.work.global_sweeps
    );
    let mut last_block = 0;
    let mut last_updates = 0;
    for (k, p) in sweeps.iter().enumerate() {
        let Progress::Sweep {
            phase,
            updates,
            per_sweep,
            ..
        } = *p
        else {
            panic!("a plan among the sweeps: {p:?}")
        };
        assert!(updates >= last_updates, "sweep {k}: work went back");
        last_updates = updates;
        // The unit of the reported work is the unit of the result's sweep equivalents.
        assert_eq!(
            outcome.work.cell_updates.div_ceil(per_sweep),
            stats.iterations as u64
        );
        match phase {
            Phase::Block { block, blocks, .. } => {
                assert!(block >= last_block && block <= blocks, "sweep {k}: {p:?}");
                last_block = block;
            }
            Phase::Openings => last_block = usize::MAX,
        }
    }
    let Some(Progress::Sweep { updates, width, .. }) = sweeps.last() else {
        panic!("no sweep")
    };
    assert_eq!(*updates, outcome.work.cell_updates);
    assert!(*width <= 1e-9, "ended at width {width}");
    assert!(outcome.result.bounds.p_a.width() <= 1e-9);

    // The sparse solver: a plan with its states and bytes, then one report per sweep.
    let reports = std::sync::Mutex::new(Vec::new());
    let observer = |p: Progress| reports.lock().unwrap().push(p);
    let model = Model::build_observed(&r, &a, &b, &options(1e-9), &observer).unwrap();
    let (result, _) = model.solve_observed(&options(1e-9), &observer).unwrap();
    let reports = reports.into_inner().unwrap();
    assert_eq!(reports.len(), 2 + result.stats.iterations);
    assert!(matches!(
        reports[0],
        Progress::Sizing { joint_indices, search_seconds, faces }
            if joint_indices == result.stats.product && search_seconds > 0.0 && faces == 12
    ));
    assert!(matches!(
        reports[1],
        Progress::Planned { states, bytes, build_seconds: Some(b), .. }
            if states == result.stats.states && bytes == result.stats.memory_bytes && b > 0.0
    ));
    for (k, p) in reports[2..].iter().enumerate() {
        assert!(
            matches!(*p, Progress::Sweep { phase: Phase::Openings, updates, per_sweep, .. }
                if per_sweep == result.stats.states && updates == (k as u64 + 1) * per_sweep),
            "sweep {k}: {p:?}"
        );
    }
}
