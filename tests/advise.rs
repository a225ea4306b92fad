//! Simulated advice with and without the variance reduction by the luck of the rolls.

mod common;

use common::{die, rules};
use std::sync::Arc;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::game::advise::{MoveValue, advise_simulated, advise_simulated_with};
use wuerfelglueck::exact::game::position::parse_position;
use wuerfelglueck::exact::game::table_strategy::TableStrategy;
use wuerfelglueck::exact::game::{GameRun, Side, solve_game_with};
use wuerfelglueck::rules::{GameState, Rules};
use wuerfelglueck::strategy::{Strategy, Strong};

/// Plain rollouts of 16/8/2/2: each move's interval and gap, as bits.
fn plain_bits(strategy: &str) -> Vec<[u64; 4]> {
    let rules = rules("16/8/2/2", "choice");
    let (a, b) = (die("1..6"), die("1..6"));
    let s: Strategy = strategy.parse().unwrap();
    let position = parse_position(&rules, "A:3,9 B:2,12 turn:B").unwrap();
    let moves: Vec<MoveValue> =
        advise_simulated(&rules, [&a, &b], [&s, &s], &position, 5, 300, 3, 10_000);
    moves
        .iter()
        .map(|m| {
            let g = m.gap.unwrap();
            [
                m.value.lo.to_bits(),
                m.value.hi.to_bits(),
                g.mean.to_bits(),
                g.standard_error.to_bits(),
            ]
        })
        .collect()
}

/// The plain path is the rollout it was before the variance reduction came: the same
/// intervals and gaps to the bit (recorded from the code before it).
#[test]
fn plain_rollouts_are_unchanged_to_the_bit() {
    let pinned: [(&str, [[u64; 4]; 2]); 3] = [
        (
            "safe",
            [
                [
                    13822933283442033180,
                    13815782442498533344,
                    9223372036854775808,
                    0,
                ],
                [
                    13820597038847494856,
                    13773951627872493568,
                    4592350564027210575,
                    4588613650553992852,
                ],
            ],
        ),
        (
            "random",
            [
                [
                    13824883759090185278,
                    13820575376493636260,
                    9223372036854775808,
                    0,
                ],
                [
                    13822238146420356902,
                    13812871264829238744,
                    4594692435833443232,
                    4589647355230133278,
                ],
            ],
        ),
        (
            "strong",
            [
                [
                    13820362834560770640,
                    4574131933859062784,
                    9223372036854775808,
                    0,
                ],
                [
                    13818953823918920312,
                    4586843468943565024,
                    4585925428558828667,
                    4588974814779088526,
                ],
            ],
        ),
    ];
    for (strategy, bits) in pinned {
        assert_eq!(plain_bits(strategy), bits.to_vec(), "{strategy}");
    }
}

const Z95: f64 = 1.959963984540054;

/// The game of the tests: 16/8/2/2 with choice, 1..6 against 1..6.
fn game() -> (Rules, [Die; 2]) {
    (rules("16/8/2/2", "choice"), [die("1..6"), die("1..6")])
}

/// The optimal pair's moves of the game (solved in memory) as a strategy, and the exact
/// value after each move of `face` in `position`, both players optimal.
fn optimal(position: &GameState, face: u32) -> (Strategy, Vec<f64>) {
    let (rules, [a, b]) = game();
    let run = GameRun {
        keep_values: true,
        extract_policy: true,
        ..GameRun::default()
    };
    let solution = solve_game_with(
        &rules,
        [&a, &b],
        [Side::Optimal, Side::Optimal],
        &common::options(1e-12),
        &run,
    )
    .unwrap();
    let values = solution.values.as_ref().unwrap();
    let mover = position.mover();
    let legal = rules.legal_moves(
        position.pieces[mover],
        position.pieces[1 - mover],
        mover,
        face,
    );
    let exact = legal
        .iter()
        .map(|m| {
            let mut after = *position;
            match rules.play_move(&mut after, face, Some(m)).unwrap().winner {
                Some(0) => 1.0,
                Some(_) => -1.0,
                None => {
                    let [lo, hi] = values.load(solution.space.encode(&after).unwrap());
                    assert!(hi - lo < 1e-9, "certified: [{lo}, {hi}]");
                    (lo + hi) / 2.0
                }
            }
        })
        .collect();
    let table = TableStrategy::solved(&rules, [&a, &b], solution).unwrap();
    (Strategy::Table(Arc::new(table)), exact)
}

/// The rollouts of every move of `face` in `position` with `strategy` for both players,
/// reduced by the shipped learned player's luck (`reduce`) or plain.
fn rollouts(
    strategy: &Strategy,
    position: &GameState,
    face: u32,
    games: u64,
    seed: u64,
    reduce: bool,
) -> Vec<MoveValue> {
    let (rules, [a, b]) = game();
    let strong = Strong::shipped();
    let evaluator = strong.for_game(&rules).unwrap().evaluator();
    advise_simulated_with(
        &rules,
        [&a, &b],
        [strategy, strategy],
        position,
        face,
        games,
        seed,
        10_000,
        reduce.then_some(evaluator),
    )
}

fn position(text: &str) -> GameState {
    parse_position(&game().0, text).unwrap()
}

/// A value's standard error from its 95 % interval (normal with the reduction; the plain
/// score interval is close to normal away from ±1).
fn value_error(m: &MoveValue) -> f64 {
    (m.value.hi - m.value.lo) / (2.0 * Z95)
}

/// Positions with a choice: (position, face).
const CHOICES: [(&str, u32); 3] = [
    ("A:3,9 B:2,12 turn:A", 4),
    ("A:A,5 B:7,12 turn:B", 2),
    ("A:1,6 B:A,10 turn:A", 6),
];

/// The standard error of the gaps of a run of two moves: the non-leader's (the leader's
/// is 0; the difference's spread is the same whichever move leads).
fn gap_error(moves: &[MoveValue]) -> f64 {
    moves
        .iter()
        .map(|m| m.gap.unwrap().standard_error)
        .fold(0.0, f64::max)
}

/// With both players optimal the value after each move is known exactly: the reduced
/// estimate lies within four of its standard errors of it (the plain one within four of
/// its own), and the two agree within their combined errors. With the mean over the faces
/// left out of the luck (an estimate off by the luck's mean) it fails.
#[test]
fn reduced_rollouts_are_unbiased() {
    for (text, face) in CHOICES {
        let p = position(text);
        let (optimal, exact) = optimal(&p, face);
        let reduced = rollouts(&optimal, &p, face, 4000, 11, true);
        let plain = rollouts(&optimal, &p, face, 4000, 11, false);
        assert!(reduced.len() >= 2, "a choice: {reduced:?}");
        for ((r, q), e) in reduced.iter().zip(&plain).zip(&exact) {
            let (sr, sq) = (value_error(r), value_error(q));
            assert!(sr > 0.0 && r.value.lo > -1.0 && r.value.hi < 1.0, "{r:?}");
            assert!(
                (r.value.mid() - e).abs() <= 4.0 * sr,
                "{text} {face}: reduced {r:?} against exact {e}"
            );
            assert!(
                (q.value.mid() - e).abs() <= 4.0 * sq,
                "{text} {face}: plain {q:?} against exact {e}"
            );
            assert!(
                (r.value.mid() - q.value.mid()).abs() <= 4.0 * (sr * sr + sq * sq).sqrt(),
                "{text} {face}: reduced {r:?} against plain {q:?}"
            );
        }
    }
}

/// On the same games, the reduction leaves far less noise: with optimal or learned play
/// (measured: the standard errors of the values and of the gaps 0.021 to 0.037 of the
/// plain ones) below 0.15 of them; with random play, which the evaluator follows less well
/// (measured 0.25 to 0.34), below 0.6.
#[test]
fn reduced_rollouts_shrink_the_noise() {
    for (text, face) in CHOICES {
        let p = position(text);
        let (optimal, _) = optimal(&p, face);
        for (name, strategy, bound) in [
            ("optimal", optimal, 0.15),
            ("strong", "strong".parse().unwrap(), 0.15),
            ("random", "random".parse().unwrap(), 0.6),
        ] {
            let reduced = rollouts(&strategy, &p, face, 4000, 11, true);
            let plain = rollouts(&strategy, &p, face, 4000, 11, false);
            for (r, q) in reduced.iter().zip(&plain) {
                let ratio = value_error(r) / value_error(q);
                assert!(ratio < bound, "{name} {text} {face}: values {ratio}");
            }
            let (gr, gq) = (gap_error(&reduced), gap_error(&plain));
            assert!(gq > 0.0, "{name} {text} {face}: the moves differ");
            assert!(
                gr < bound * gq,
                "{name} {text} {face}: gaps {gr} against {gq}"
            );
        }
    }
}

/// The luck's mean is 0 whatever the strategies play: with random play (which the
/// evaluator does not follow), the reduced values agree with a plain run 25 times as long
/// on other dice within four combined standard errors.
#[test]
fn reduced_rollouts_of_random_play_are_unbiased() {
    let random: Strategy = "random".parse().unwrap();
    for (text, face) in CHOICES {
        let p = position(text);
        let reduced = rollouts(&random, &p, face, 4000, 11, true);
        let long = rollouts(&random, &p, face, 100_000, 12, false);
        for (r, q) in reduced.iter().zip(&long) {
            let bound = 4.0 * (value_error(r).powi(2) + value_error(q).powi(2)).sqrt();
            assert!(
                (r.value.mid() - q.value.mid()).abs() <= bound,
                "{text} {face}: reduced {r:?} against plain {q:?}"
            );
        }
    }
}

/// `advise --variance-reduction`: `on` reduces where a learned player plays the game and
/// says so, and refuses a game none plays, naming the games they play; `auto` simulates
/// that game plainly and says so; `off` (the default) reports plain rollouts.
#[test]
fn advise_reduces_where_a_learned_player_plays_the_game() {
    use serde_json::{Value, json};
    use wuerfelglueck::api;
    let advise = |pieces: u32, reduction: Option<&str>| {
        let mut options = json!({
            "a": "1..6",
            "b": "1..6",
            "track": 16,
            "offset": 8,
            "pieces": pieces,
            "goal-fields": pieces,
            "position": "A:3,9 B:2,12 turn:A",
            "face": 4,
            "max-memory": "0",
            "rollouts": 300,
        });
        if let Some(r) = reduction {
            options["variance-reduction"] = json!(r);
        }
        api::execute("advise", options.as_object().unwrap(), &api::Silent)
            .map(|o| serde_json::from_str::<Value>(&o.json).unwrap())
    };
    let reduced = advise(2, Some("on")).unwrap();
    assert_eq!(reduced["method"], "simulated", "{reduced}");
    assert_eq!(reduced["variance_reduced"], true, "{reduced}");
    assert!(
        reduced["note"]
            .as_str()
            .unwrap()
            .contains("Variance-reduced"),
        "{reduced}"
    );
    let plain = advise(2, None).unwrap();
    assert_eq!(plain["variance_reduced"], false, "{plain}");
    let refused = advise(3, Some("on")).unwrap_err().to_string();
    for part in ["--variance-reduction", "16/8/2/2", "board 16/8/3/3", "auto"] {
        assert!(refused.contains(part), "{refused}");
    }
    let auto = advise(3, Some("auto")).unwrap();
    assert_eq!(auto["variance_reduced"], false, "{auto}");
    assert!(
        auto["note"]
            .as_str()
            .unwrap()
            .contains("Not variance-reduced"),
        "{auto}"
    );
}
