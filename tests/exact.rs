//! Cross-checks of the exact solver against independent computations: a dense LU solve of a
//! chain built here from `play_roll` alone, hand analysis, the Monte Carlo engine, symmetry.
//! Every result also passes `exact::checks::check_result`.

use approx::{abs_diff_eq, assert_abs_diff_eq};
use nalgebra::DMatrix;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;
use wuerfelglueck::cli::{Cli, run};
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::encode::{FullRanking, JointCoder, JointState, StateEncoder};
use wuerfelglueck::exact::reachable::player_configs;
use wuerfelglueck::exact::{
    ExactError, ExactResult, Model, SolveOptions, checks::check_result, estimate_memory,
    solve_matchup,
};
use wuerfelglueck::rules::{GameState, Rules};
use wuerfelglueck::sim::{Matchup, Stopping, StreamKey, run_duel};
use wuerfelglueck::stats::{Z999, wilson};

mod common;

use common::{die, options, rules};

const TOL: f64 = 1e-12;

/// Solves and checks the invariants every result must satisfy.
fn solve(board: &str, profile: &str, a: &str, b: &str) -> ExactResult {
    let r = solve_matchup(&rules(board, profile), &die(a), &die(b), &options(TOL)).unwrap();
    check_result(&r, TOL).unwrap_or_else(|e| panic!("{board} {profile} {a} vs {b}: {e}"));
    r
}

/// Absorption probabilities [A wins, B wins, never ends] from both openings, from a chain
/// built here with a hash map and `play_roll` (every face separately, self-loops kept as
/// diagonal entries) and solved by dense LU: independent of the solver's encoder, state
/// set, self-loop elimination, classification and iteration.
fn lu_reference(rules: &Rules, dice: [&Die; 2]) -> [[f64; 3]; 2] {
    let mut index: HashMap<GameState, usize> = HashMap::new();
    let mut states: Vec<GameState> = Vec::new();
    let mut rows: Vec<Vec<(usize, f64)>> = Vec::new();
    let mut absorb: Vec<[f64; 2]> = Vec::new();
    for first in 0..2 {
        let s = GameState::start(first);
        let fresh = states.len();
        if *index.entry(s).or_insert(fresh) == fresh {
            states.push(s);
        }
    }
    let mut k = 0;
    while k < states.len() {
        let state = states[k];
        let faces = dice[state.mover()].faces();
        let p = 1.0 / faces.len() as f64;
        let mut row = Vec::new();
        let mut abs = [0.0; 2];
        for &face in faces {
            let mut next = state;
            match rules.play_roll(&mut next, face).winner {
                Some(w) => abs[w] += p,
                None => {
                    let j = *index.entry(next).or_insert_with(|| {
                        states.push(next);
                        states.len() - 1
                    });
                    row.push((j, p));
                }
            }
        }
        rows.push(row);
        absorb.push(abs);
        k += 1;
    }
    let n = states.len();
    assert!(
        n <= 3000,
        "{n} states are too many for a dense LU in a test"
    );
    // States that can reach a win: reverse search from the absorbing rows.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, row) in rows.iter().enumerate() {
        for &(j, _) in row {
            preds[j].push(i);
        }
    }
    let mut can_win = vec![false; n];
    let mut stack: Vec<usize> = (0..n)
        .filter(|&i| absorb[i][0] + absorb[i][1] > 0.0)
        .collect();
    for &i in &stack {
        can_win[i] = true;
    }
    while let Some(j) = stack.pop() {
        for &i in &preds[j] {
            if !can_win[i] {
                can_win[i] = true;
                stack.push(i);
            }
        }
    }
    let transient: Vec<usize> = (0..n).filter(|&i| can_win[i]).collect();
    let mut pos = vec![usize::MAX; n];
    for (t, &i) in transient.iter().enumerate() {
        pos[i] = t;
    }
    let m = transient.len();
    let mut a = DMatrix::<f64>::identity(m, m);
    let mut rhs = DMatrix::<f64>::zeros(m, 3);
    for (t, &i) in transient.iter().enumerate() {
        rhs[(t, 0)] = absorb[i][0];
        rhs[(t, 1)] = absorb[i][1];
        for &(j, p) in &rows[i] {
            if can_win[j] {
                a[(t, pos[j])] -= p;
            } else {
                rhs[(t, 2)] += p;
            }
        }
    }
    if m == 0 {
        return [[0.0, 0.0, 1.0]; 2];
    }
    let x = a
        .lu()
        .solve(&rhs)
        .expect("I - Q is invertible on the transient states");
    [0, 1].map(|first| {
        let i = index[&GameState::start(first)];
        if can_win[i] {
            let t = pos[i];
            [x[(t, 0)], x[(t, 1)], x[(t, 2)]]
        } else {
            [0.0, 0.0, 1.0]
        }
    })
}

/// Matchups small enough for a dense LU, covering self-loops, never-ending games, every
/// profile switch and dice without a 6 or with only 6s.
const LU_CASES: [(&str, &str, &str, &str); 9] = [
    ("8/4/2/2", "bwinf", "1,6", "1,6"),
    ("8/4/2/2", "three-tries", "1,6", "1,6"),
    ("8/4/2/2", "goal-last+no-jump-in-goal", "1,6", "1,6"),
    ("10/5/1/2", "bwinf", "4,5", "4,5"),
    ("10/5/1/2", "bwinf", "1..6", "1..6"),
    ("9/3/2/2", "bwinf", "1..6", "6"),
    ("12/6/2/7", "bwinf", "6", "1..6"),
    ("10/5/1/2", "roll-off", "1..5", "0..9"),
    ("9/4/1/3", "three-tries+goal-last", "0,2,6", "1,6"),
];

#[test]
fn value_iteration_agrees_with_a_dense_lu_of_an_independent_chain() {
    for (board, profile, a, b) in LU_CASES {
        let r = solve(board, profile, a, b);
        let reference = lu_reference(&rules(board, profile), [&die(a), &die(b)]);
        let got = [
            [r.p_a_if_a_starts, r.p_b_if_a_starts, r.p_never_if_a_starts],
            [r.p_a_if_b_starts, r.p_b_if_b_starts, r.p_never_if_b_starts],
        ];
        for start in 0..2 {
            for k in 0..3 {
                let (x, y) = (got[start][k], reference[start][k]);
                assert!(
                    abs_diff_eq!(x, y, epsilon = 1e-10),
                    "{board} {profile} {a} vs {b}, start {start}, figure {k}: iteration {x}, LU {y}"
                );
            }
        }
    }
}

#[test]
fn every_state_agrees_with_a_dense_lu_of_the_solvers_own_matrix() {
    // The iteration against a direct solve of the very system it iterates, at every state.
    for (board, profile, a, b) in [
        ("8/4/2/2", "bwinf", "1,6", "1,2,6"),
        ("8/4/2/2", "three-tries", "1,6", "1,6"),
    ] {
        let (rules, a, b) = (rules(board, profile), die(a), die(b));
        let model = Model::build(&rules, &a, &b, &options(TOL)).unwrap();
        let opts = SolveOptions {
            tolerance: 1e-14,
            ..options(TOL)
        };
        let (_, values) = model.solve(&opts).unwrap();
        let chain = &model.chain;
        let n = chain.states();
        let mut m = DMatrix::<f64>::identity(n, n);
        let mut rhs = DMatrix::<f64>::zeros(n, 2);
        for i in 0..n {
            let (cols, probs) = chain.row(i);
            for (&j, &q) in cols.iter().zip(probs) {
                m[(i, j as usize)] -= q;
            }
            rhs[(i, 0)] = chain.absorb[i][0];
            rhs[(i, 1)] = chain.absorb[i][1];
        }
        assert_eq!(
            model.classes.never, 0,
            "{board}: LU needs an invertible system"
        );
        let x = m.lu().solve(&rhs).unwrap();
        for i in 0..n {
            let v = values.lower(i);
            assert_abs_diff_eq!(v[0], x[(i, 0)], epsilon = 1e-10);
            assert_abs_diff_eq!(v[1], x[(i, 1)], epsilon = 1e-10);
        }
    }
}

#[test]
fn hand_analysis_of_a_race_decided_by_the_first_winning_face() {
    // Board 8/4/1/1: the single piece starts on A, and the face 8 carries it straight onto
    // the only goal field; a 0 passes the turn. With winning chances p (A) and q (B) per
    // turn: P(A | A starts) = p / (1 - (1-p)(1-q)), P(A | B starts) = (1-q) P(A | A starts).
    let r = solve("8/4/1/1", "bwinf", "0,8", "0,8");
    assert_abs_diff_eq!(r.p_a_if_a_starts, 2.0 / 3.0, epsilon = TOL);
    assert_abs_diff_eq!(r.p_a_if_b_starts, 1.0 / 3.0, epsilon = TOL);
    let r = solve("8/4/1/1", "bwinf", "0,0,8", "0,8");
    assert_abs_diff_eq!(r.p_a_if_a_starts, 0.5, epsilon = TOL);
    assert_abs_diff_eq!(r.p_a_if_b_starts, 0.25, epsilon = TOL);
    assert_abs_diff_eq!(r.p_a, 0.375, epsilon = TOL);
    // Roll-off with a = {0, 8}, b = {0, 0, 8}: P(a > b) = 2/6, P(a = b) = 3/6, so A starts
    // with probability 2/3; P(A | A) = 3/4, P(A | B) = 1/2, P(A) = 2/3.
    let r = solve("8/4/1/1", "roll-off", "0,8", "0,0,8");
    assert_abs_diff_eq!(r.p_a_starts, 2.0 / 3.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.p_a_if_a_starts, 0.75, epsilon = TOL);
    assert_abs_diff_eq!(r.p_a_if_b_starts, 0.5, epsilon = TOL);
    assert_abs_diff_eq!(r.p_a, 2.0 / 3.0, epsilon = TOL);
}

#[test]
fn a_die_without_a_six_cannot_bring_its_second_piece_in() {
    // One piece: it starts on A and can win.
    let one = solve("10/5/1/2", "bwinf", "1..5", "1..6");
    assert!(one.p_a_if_a_starts > 0.3 && one.p_a_if_b_starts > 0.2);
    // Two pieces: the second one waits in B for ever, so A never wins: exactly 0.
    for board in ["10/5/2/2", "12/6/2/3"] {
        let two = solve(board, "bwinf", "1..5", "1..6");
        assert_eq!(two.p_a, 0.0);
        assert_eq!(two.bounds.p_a_if_a_starts.hi, 0.0);
        assert_eq!(two.bounds.p_a_if_b_starts.hi, 0.0);
        // B with 1..6 always wins in the end.
        assert_abs_diff_eq!(two.p_b, 1.0, epsilon = TOL);
    }
}

#[test]
fn identical_dice_on_a_symmetric_board_split_the_finished_games() {
    // With offset = track / 2 the board looks the same to both players, so
    // P(A | B starts) = P(B | A starts) and P(A | A) + P(A | B) = 1 - P(never | A starts).
    for (board, profile, d) in [
        ("10/5/2/2", "bwinf", "1..6"),
        ("10/5/1/2", "bwinf", "4,5"),
        ("12/6/2/3", "goal-last", "1,2,6"),
        ("8/4/2/2", "three-tries", "1..6"),
    ] {
        let r = solve(board, profile, d, d);
        let lhs = r.p_a_if_a_starts + r.p_a_if_b_starts;
        let rhs = 1.0 - r.p_never_if_a_starts;
        assert!(
            abs_diff_eq!(lhs, rhs, epsilon = TOL),
            "{board} {profile} {d}: {lhs} vs {rhs}"
        );
    }
    // The never-ending case is really exercised.
    assert!(solve("10/5/1/2", "bwinf", "4,5", "4,5").p_never > 0.1);
}

/// Simulated and exact figures agree within the 99.9 % Wilson interval of each start.
fn agrees_with_simulation(board: &str, profile: &str, a: &str, b: &str, games: u64, seed: u64) {
    let exact = solve(board, profile, a, b);
    let (rules, da, db) = (rules(board, profile), die(a), die(b));
    let matchup = Matchup::new(&rules, [&da, &db], 1_000_000).unwrap();
    let counts = run_duel(
        &matchup,
        StreamKey::new(seed),
        Stopping::games(games).unwrap(),
        &|_| {},
    )
    .unwrap();
    let checks = [
        (
            "P(A | A starts)",
            counts.a_started.a_wins,
            counts.a_started.games,
            exact.p_a_if_a_starts,
        ),
        (
            "P(B | A starts)",
            counts.a_started.b_wins,
            counts.a_started.games,
            exact.p_b_if_a_starts,
        ),
        (
            "P(A | B starts)",
            counts.b_started.a_wins,
            counts.b_started.games,
            exact.p_a_if_b_starts,
        ),
        (
            "P(B | B starts)",
            counts.b_started.b_wins,
            counts.b_started.games,
            exact.p_b_if_b_starts,
        ),
        (
            "P(never | A starts)",
            counts.a_started.unfinished,
            counts.a_started.games,
            exact.p_never_if_a_starts,
        ),
        (
            "P(never | B starts)",
            counts.b_started.unfinished,
            counts.b_started.games,
            exact.p_never_if_b_starts,
        ),
    ];
    for (what, k, n, p) in checks {
        let ci = wilson(k, n, Z999);
        assert!(
            ci.contains(p),
            "{board} {profile} {a} vs {b}: {what} exact {p}, simulated {k}/{n}, 99.9 % interval [{}, {}]",
            ci.lo,
            ci.hi
        );
    }
}

#[test]
fn simulation_agrees_with_the_exact_values() {
    // A die without a 6 (one piece, so it can win).
    agrees_with_simulation("10/5/1/2", "bwinf", "1..5", "1..6", 200_000, 11);
    // A die of only 6s: it never passes the turn, wins if its pieces can reach the goal.
    agrees_with_simulation("12/6/2/7", "bwinf", "6", "1..6", 200_000, 12);
    // 0..9 against the standard die.
    agrees_with_simulation("10/5/2/2", "bwinf", "0..9", "1..6", 200_000, 13);
    // 1..20 against a die of 1s and 6s.
    agrees_with_simulation("12/6/2/3", "bwinf", "1..20", "1,1,1,6,6,6", 200_000, 14);
    // Two identical dice.
    agrees_with_simulation("10/5/2/2", "bwinf", "1..6", "1..6", 200_000, 15);
    // Never-ending games: two dice without a 6 get stuck in front of their goals.
    agrees_with_simulation("10/5/1/2", "bwinf", "4,5", "4,5", 100_000, 16);
    // The tries counter in the state.
    agrees_with_simulation("9/3/2/2", "three-tries", "1..6", "2,6", 200_000, 17);
}

#[test]
fn simulated_roll_off_starts_and_wins_agree() {
    let (board, profile, a, b) = ("12/6/2/3", "roll-off", "1..20", "1,1,1,6,6,6");
    let exact = solve(board, profile, a, b);
    assert_abs_diff_eq!(exact.p_a_starts, 33.0 / 38.0, epsilon = 1e-15);
    let (rules, da, db) = (rules(board, profile), die(a), die(b));
    let matchup = Matchup::new(&rules, [&da, &db], 1_000_000).unwrap();
    let counts = run_duel(
        &matchup,
        StreamKey::new(21),
        Stopping::games(200_000).unwrap(),
        &|_| {},
    )
    .unwrap();
    let total = counts.total();
    let starts = wilson(counts.a_started.games, total.games, Z999);
    assert!(starts.contains(exact.p_a_starts), "{starts:?}");
    let wins = wilson(total.a_wins, total.games, Z999);
    assert!(wins.contains(exact.p_a), "{wins:?} vs {}", exact.p_a);
}

#[test]
fn roll_off_that_cannot_decide_is_an_error() {
    let e = solve_matchup(
        &rules("8/4/1/1", "roll-off"),
        &die("3"),
        &die("3,3"),
        &options(TOL),
    )
    .unwrap_err();
    assert_eq!(e, ExactError::RollOff);
    assert!(e.to_string().contains("roll-off"));
}

#[test]
fn the_memory_guard_refuses_with_states_bytes_and_limit() {
    let d = Die::standard();
    let opts = SolveOptions {
        max_memory: Some(1 << 20),
        ..options(TOL)
    };
    let e = solve_matchup(&rules("40/20/2/4", "bwinf"), &d, &d, &opts).unwrap_err();
    match &e {
        ExactError::Memory {
            states,
            bytes,
            limit,
            ..
        } => {
            assert!(*states > 100_000 && *bytes > *limit && *limit == 1 << 20)
        }
        other => panic!("expected a memory refusal, got {other}"),
    }
    let message = e.to_string();
    assert!(
        message.contains("states") && message.contains("1.00 MiB"),
        "{message}"
    );
    // The BwInf board is refused under any realistic limit, before anything large is built
    // (how fast: `cargo bench --bench exact`, "refuse the BwInf board").
    let estimate = estimate_memory(&Rules::bwinf(), &d, &d);
    assert!(estimate.bytes > 32 << 30);
    let opts = SolveOptions {
        max_memory: Some(16 << 30),
        ..options(TOL)
    };
    assert!(matches!(
        solve_matchup(&Rules::bwinf(), &d, &d, &opts),
        Err(ExactError::Memory {
            exact_count: false,
            ..
        })
    ));
}

#[test]
fn the_solve_command_prints_json_with_the_documented_names() {
    use clap::Parser;
    let cli = Cli::try_parse_from([
        "wuerfelglueck",
        "solve",
        "--a",
        "1..6",
        "--b",
        "1,1,6,6,6,6",
        "--track",
        "8",
        "--offset",
        "4",
        "--pieces",
        "2",
        "--goal-fields",
        "2",
        "--format",
        "json",
    ])
    .unwrap();
    let mut out = Vec::new();
    run(cli, &mut out).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    for name in [
        "p_a",
        "p_a_if_a_starts",
        "p_a_if_b_starts",
        "p_never_if_a_starts",
        "p_never_if_b_starts",
        "bounds",
        "states",
        "transitions",
        "iterations",
        "seconds",
    ] {
        assert!(json.get(name).is_some(), "missing {name}");
    }
    let r = solve("8/4/2/2", "bwinf", "1..6", "1,1,6,6,6,6");
    assert_eq!(json["p_a"].as_f64().unwrap(), r.p_a);
    let lo_hi = &json["bounds"]["p_a_if_a_starts"];
    assert_eq!(lo_hi[0].as_f64().unwrap(), r.bounds.p_a_if_a_starts.lo);

    let cli = Cli::try_parse_from([
        "wuerfelglueck",
        "solve",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--pieces",
        "2",
        "--max-memory",
        "1MB",
    ])
    .unwrap();
    let e = run(cli, &mut Vec::new()).unwrap_err();
    assert!(e.message.contains("limit"), "{}", e.message);
    let cli = Cli::try_parse_from([
        "wuerfelglueck",
        "solve",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--max-memory",
        "lots",
    ])
    .unwrap();
    assert_eq!(run(cli, &mut Vec::new()).unwrap_err().code, 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn full_ranking_round_trips_on_the_bwinf_board(bits in proptest::collection::btree_set(0u32..44, 0..=4)) {
        let r = FullRanking::new(44, 4).unwrap();
        let mask = bits.iter().fold(0u64, |m, &b| m | 1 << b);
        let rank = r.rank(mask);
        prop_assert!(rank < r.count());
        prop_assert_eq!(r.unrank(rank), mask);
    }

    #[test]
    fn joint_states_round_trip_on_the_bwinf_board(x in 0.0f64..1.0, y in 0.0f64..1.0, side in 0u8..2, tries in 0u8..3) {
        let enc = bwinf_encoder();
        let a = (x * enc.a.len() as f64) as u32;
        let b = (y * enc.b.len() as f64) as u32;
        let s = JointState { a, b, side, tries };
        let i = enc.coder.encode(s);
        prop_assert!(i < enc.coder.len());
        prop_assert_eq!(enc.coder.decode(i), s);
        // Through game states: decode to masks and back.
        let state = enc.decode(i);
        prop_assert_eq!(state.pieces, [enc.a.mask(a), enc.b.mask(b)]);
        prop_assert_eq!(enc.encode(&state), Some(i));
    }
}

/// The encoder of 1..6 against 1,1,1,6,6,6 on the BwInf board with three tries levels.
fn bwinf_encoder() -> &'static StateEncoder {
    static ENCODER: OnceLock<StateEncoder> = OnceLock::new();
    ENCODER.get_or_init(|| {
        let rules = Rules::bwinf();
        let a = player_configs(&rules, &Die::standard());
        let b = player_configs(&rules, &die("1,1,1,6,6,6"));
        StateEncoder::new(a, b, JointCoder::THREE_TRIES_LEVELS).unwrap()
    })
}

#[test]
fn reachable_configurations_of_the_bwinf_board_round_trip() {
    let configs = player_configs(&Rules::bwinf(), &Die::standard());
    let ranking = FullRanking::new(44, 4).unwrap();
    let mut seen = std::collections::HashSet::new();
    for (i, &m) in configs.masks().iter().enumerate() {
        assert_eq!(configs.index(m), Some(i as u32));
        assert!(seen.insert(ranking.rank(m)));
    }
}

#[test]
fn state_encoding_is_a_bijection_on_small_boards() {
    // Every joint index of the product decodes to a game state that encodes back to it,
    // and every reachable configuration round-trips through its index.
    for (board, a, b, levels) in [
        ("8/4/2/2", "1..6", "1,6", 1),
        ("9/3/3/3", "1..6", "2,3,6", 3),
    ] {
        let rules = rules(board, "bwinf");
        let ca = player_configs(&rules, &die(a));
        let cb = player_configs(&rules, &die(b));
        for configs in [&ca, &cb] {
            for (i, &m) in configs.masks().iter().enumerate() {
                assert_eq!(configs.index(m), Some(i as u32));
            }
        }
        let enc = StateEncoder::new(ca, cb, levels).unwrap();
        let mut seen = std::collections::HashSet::new();
        for i in 0..enc.coder.len() {
            let state = enc.decode(i);
            assert!(
                seen.insert(state),
                "{board}: two indices decode to {state:?}"
            );
            assert_eq!(enc.encode(&state), Some(i), "{board}: {state:?}");
        }
    }
}

/// The solvers of the rules-fixed game refuse `choice`: their figure would be that of
/// `frontmost` against `frontmost` passed off as the game where players choose.
#[test]
fn the_rules_fixed_solvers_refuse_choice() {
    for profile in ["choice", "choice+capture-duty"] {
        let r = rules("12/6/1/1", profile);
        let err = solve_matchup(&r, &die("1..6"), &die("1..6"), &options(TOL)).unwrap_err();
        assert!(matches!(err, ExactError::Profile(_)), "{profile}: {err}");
        let err = wuerfelglueck::exact::solve_matrix_free(
            &r,
            &die("1..6"),
            &die("1..6"),
            &options(TOL),
            (
                wuerfelglueck::exact::matrix_free::Storage::F64,
                wuerfelglueck::exact::matrix_free::Components::Auto,
            ),
            &wuerfelglueck::exact::progress::unobserved,
        )
        .unwrap_err();
        assert!(err.to_string().contains("choice"), "{profile}: {err}");
    }
}

/// Regression: a die of 65,536 faces had its sparse rows reserved by faces (8.8 GB at once,
/// an abort). Faces that move nothing share one successor; the solve fits a small limit.
#[test]
fn a_die_of_thousands_of_faces_is_solved_within_a_small_limit() {
    let wide: Die = "0..4095".parse().unwrap();
    let opts = SolveOptions {
        max_memory: Some(256 << 20),
        ..options(TOL)
    };
    let r = solve_matchup(&rules("16/8/2/2", "bwinf"), &wide, &Die::standard(), &opts).unwrap();
    assert!(r.p_a > 0.0 && r.p_b > 0.0, "{r:?}");
}
