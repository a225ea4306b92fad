//! The game with choices (`choice`): its exact solver against the rules-fixed solver, against
//! hand-checkable positions, and the optimal pair against fixed strategies.

use approx::assert_abs_diff_eq;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use wuerfelglueck::exact::game::policy::{Decision, FrontmostPolicy, MovePolicy, Pick};
use wuerfelglueck::exact::game::space::Target;
use wuerfelglueck::exact::game::{
    GameRun, GameSolution, Side, file, solve_game, solve_game_keeping_values, solve_game_with,
};
use wuerfelglueck::exact::{SolveOptions, solve_matchup};
use wuerfelglueck::rules::GameState;
use wuerfelglueck::sim::{Matchup, MatchupError};
use wuerfelglueck::strategy::Strategy;

mod common;

use common::{die, options, rules};

fn game(board: &str, profile: &str, a: &str, b: &str, sides: [Side<'_>; 2]) -> GameSolution {
    solve_game(
        &rules(board, profile),
        [&die(a), &die(b)],
        sides,
        &options(1e-12),
    )
    .expect("solves")
}

/// The last piece that can move (a heuristic to play against).
struct Rearmost;

impl MovePolicy for Rearmost {
    fn pick(&self, d: &Decision<'_>) -> Pick {
        Pick::One(d.legal.len() - 1)
    }
}

/// Uniformly random among the legal moves.
struct Uniform;

impl MovePolicy for Uniform {
    fn pick(&self, _: &Decision<'_>) -> Pick {
        Pick::Uniform
    }
}

const BOARDS: [&str; 3] = ["12/6/1/1", "16/8/2/2", "20/10/2/2"];

#[test]
fn both_players_frontmost_equal_the_rules_fixed_solver() {
    let front = FrontmostPolicy;
    for board in BOARDS {
        for (a, b) in [("1..6", "1..6"), ("1..6", "1,1,1,6,6,6"), ("2..7", "1..5")] {
            let fixed = solve_matchup(&rules(board, "bwinf"), &die(a), &die(b), &options(1e-12))
                .expect("rules-fixed solve");
            let g = game(
                board,
                "choice",
                a,
                b,
                [Side::Fixed(&front), Side::Fixed(&front)],
            );
            let p = &g.pair;
            for (x, y) in [
                (p.p_a_if_a_starts, fixed.p_a_if_a_starts),
                (p.p_a_if_b_starts, fixed.p_a_if_b_starts),
                (p.p_b_if_a_starts, fixed.p_b_if_a_starts),
                (p.p_b_if_b_starts, fixed.p_b_if_b_starts),
                (p.p_never_if_a_starts, fixed.p_never_if_a_starts),
                (p.p_never_if_b_starts, fixed.p_never_if_b_starts),
            ] {
                assert_abs_diff_eq!(x, y, epsilon = 1e-10);
            }
            // With both sides fixed the "game" is the chain: its value is the pair's.
            if g.value_certified {
                assert_abs_diff_eq!(
                    g.value_if_a_starts.mid(),
                    p.p_a_if_a_starts - p.p_b_if_a_starts,
                    epsilon = 1e-10
                );
            }
        }
    }
}

#[test]
fn the_optimal_pair_attains_the_value_and_beats_every_heuristic() {
    let front = FrontmostPolicy;
    let rear = Rearmost;
    let heuristics: [&dyn MovePolicy; 3] = [&front, &rear, &Uniform];
    for (board, profile) in [("12/6/1/1", "choice+capture-duty"), ("16/8/2/2", "choice")] {
        {
            let opt = game(
                board,
                profile,
                "1..6",
                "1..6",
                [Side::Optimal, Side::Optimal],
            );
            assert!(
                opt.value_certified && opt.pair_certified,
                "{board} {profile}"
            );
            assert_eq!(opt.end_component_states, 0, "1..6 against 1..6 always ends");
            assert_eq!(opt.pair_attains_value, Some(true));
            let v = opt.value_if_a_starts.mid();
            // Same dice, A starting: the value is the first player's edge.
            assert!(v > 0.0, "{board}: {v}");
            for h in heuristics {
                // Optimal A against a fixed B does at least as well as the value, and
                // exactly as well as the best response, which is at least the value.
                let vs = game(
                    board,
                    profile,
                    "1..6",
                    "1..6",
                    [Side::Optimal, Side::Fixed(h)],
                );
                assert!(vs.value_if_a_starts.lo >= opt.value_if_a_starts.lo - 1e-10);
                assert!(vs.value_if_b_starts.lo >= opt.value_if_b_starts.lo - 1e-10);
                for other in heuristics {
                    // Any fixed A against the same B does no better than the best response.
                    let fixed = game(
                        board,
                        profile,
                        "1..6",
                        "1..6",
                        [Side::Fixed(other), Side::Fixed(h)],
                    );
                    let pa = &fixed.pair;
                    assert!(
                        pa.p_a_if_a_starts - pa.p_b_if_a_starts <= vs.value_if_a_starts.hi + 1e-10
                    );
                    assert!(
                        pa.p_a_if_b_starts - pa.p_b_if_b_starts <= vs.value_if_b_starts.hi + 1e-10
                    );
                }
            }
        }
    }
}

#[test]
fn a_position_with_one_legal_move_has_that_moves_value() {
    let r = rules("16/8/2/2", "choice");
    let (a, b) = (die("1..6"), die("1..6"));
    let g = solve_game_keeping_values(
        &r,
        [&a, &b],
        [Side::Optimal, Side::Optimal],
        &options(1e-12),
    )
    .unwrap();
    let values = g.values.as_ref().unwrap();
    let space = &g.space;
    let mut checked = 0;
    for index in 0..space.len() {
        if !g.space.position(index).pieces.iter().all(|&m| m != 0) {
            continue;
        }
        // Reached rows whose every face has at most one legal move: the value is the mean
        // over the faces of that move's value (no choice anywhere).
        let mut single = true;
        let mut expected = [0.0; 2];
        for (k, &(face, p)) in space.faces(index).iter().enumerate() {
            let mut targets = Vec::new();
            space.options(index, k, |_, t| targets.push(t));
            let t = match targets.len() {
                0 => Target::Next(space.no_move_target(index, face)),
                1 => targets[0],
                _ => {
                    single = false;
                    break;
                }
            };
            let v = match t {
                Target::Win(0) => [1.0, 1.0],
                Target::Win(_) => [-1.0, -1.0],
                Target::Next(j) => values.load(j),
            };
            expected = [expected[0] + p * v[0], expected[1] + p * v[1]];
        }
        let [lo, hi] = values.load(index);
        if single && space.flag(index) & 1 != 0 && lo > -1.0 && hi < 1.0 && (hi - lo) < 1e-9 {
            // The fixed point holds for this row up to the last sweep's change.
            assert_abs_diff_eq!(lo, expected[0], epsilon = 1e-9);
            checked += 1;
        }
        // And where there is a choice, the row's value is the best move's (checked by the
        // optimality test); here only single-move rows.
    }
    assert!(checked > 100, "{checked}");
    // A hand-picked one: A rolls with one piece in B... A:12 alone with B far behind; every
    // face has one move (one piece on the board, the other in B, no 6 brings in: A is on
    // the track only), so advising it lists one move whose value is the position's.
    let s = GameState {
        pieces: [1 << 12, 1 << 3],
        to_move: 0,
        tries: 0,
    };
    let i = space.encode(&s).unwrap();
    let mut n = 0;
    space.options(i, 0, |_, _| n += 1);
    assert_eq!(n, 1, "face 1: only the piece on 12 can move");
}

#[test]
fn dice_without_small_faces_report_end_components_honestly() {
    // 4..9 cannot finish from the last track fields; with choices both players can keep a
    // game going forever, and the solver must say so rather than claim a tolerance.
    let r = rules("12/6/1/1", "choice");
    let g = solve_game(
        &r,
        [&die("4..9"), &die("4..9")],
        [Side::Optimal, Side::Optimal],
        &SolveOptions::new(1e-12, 2_000, None).unwrap(),
    )
    .expect("a result, certified or not");
    if g.end_component_states > 0 {
        // Sound bracket whatever happened, and a certificate only if it really closed.
        assert!(g.value_if_a_starts.lo <= g.value_if_a_starts.hi);
        assert_eq!(
            g.value_certified,
            g.value_if_a_starts.width().max(g.value_if_b_starts.width()) <= 1e-12
        );
    }
    // Dice without a 6 on a board of 2 pieces: nobody brings the second piece in, no win is
    // reachable, the value is 0 exactly and every game is endless.
    let g = game(
        "16/8/2/2",
        "choice",
        "1..5",
        "1..5",
        [Side::Optimal, Side::Optimal],
    );
    assert_eq!(g.value_if_a_starts, wuerfelglueck::exact::Bounds::ZERO);
    assert_abs_diff_eq!(g.pair.p_never, 1.0, epsilon = 0.0);
    assert!(g.value_certified);
}

/// Both optimal with every state's value bracket kept, the mirror symmetry used or not.
fn game_with_values(board: &str, profile: &str, a: &str, b: &str, mirror: bool) -> GameSolution {
    let run = GameRun {
        keep_values: true,
        mirror,
        ..GameRun::default()
    };
    solve_game_with(
        &rules(board, profile),
        [&die(a), &die(b)],
        [Side::Optimal, Side::Optimal],
        &options(1e-12),
        &run,
    )
    .expect("solves")
}

/// The reached states whose brackets are at most `width` wide in `g`, with their brackets;
/// checks that they are most of the reached states (so that a test over them tests much).
fn narrow_states(g: &GameSolution, width: f64) -> Vec<(usize, [f64; 2])> {
    use wuerfelglueck::exact::game::space::flag;
    let values = g.values.as_ref().expect("values kept");
    let reached: Vec<usize> = (0..g.space.len())
        .filter(|&i| g.space.flag(i) & flag::REACHED != 0)
        .collect();
    let narrow: Vec<(usize, [f64; 2])> = reached
        .iter()
        .map(|&i| (i, values.load(i)))
        .filter(|(_, [lo, hi])| hi - lo <= width)
        .collect();
    assert!(
        2 * narrow.len() >= reached.len(),
        "{} of {} reached states narrowed to {width}",
        narrow.len(),
        reached.len()
    );
    narrow
}

/// Games that are their own mirror image: board, profile, the die of both players.
const SYMMETRIC_GAMES: [(&str, &str, &str); 4] = [
    ("16/8/2/2", "choice", "1..6"),
    ("16/8/2/2", "choice+capture-duty", "1,1,6,6,6,6"),
    ("20/10/2/2", "choice", "1,2,3,4,6,6"),
    ("12/6/1/1", "choice+no-jump-in-goal", "1..6"),
];

#[test]
fn the_same_die_on_a_symmetric_board_is_its_own_mirror_image() {
    // The premise of the mirrored sweep, checked on the plain solve: with the same die on
    // both sides of a board whose second start is half a track away, the value of
    // (a, b, side) is minus the value of (b, a, other side).
    for (board, profile, d) in SYMMETRIC_GAMES {
        let plain = game_with_values(board, profile, d, d, false);
        assert!(plain.space.symmetric() && !plain.mirrored, "{board} {d}");
        let narrow = narrow_states(&plain, 1e-9);
        let values = plain.values.as_ref().unwrap();
        for (i, [lo, hi]) in narrow {
            let (a, b, side) = plain.space.decode(i);
            let [mlo, mhi] = values.load(plain.space.index(b, a, 1 - side));
            assert!(
                (lo + mhi).abs() <= 2e-9 && (hi + mlo).abs() <= 2e-9,
                "{board} {profile} {d}: state {i}: [{lo}, {hi}] against mirror [{mlo}, {mhi}]"
            );
        }
    }
}

#[test]
fn the_mirrored_value_iteration_agrees_with_the_plain_one_at_every_state() {
    for (board, profile, d) in SYMMETRIC_GAMES {
        let plain = game_with_values(board, profile, d, d, false);
        let mirrored = game_with_values(board, profile, d, d, true);
        assert!(mirrored.mirrored, "{board} {profile} {d} is symmetric");
        assert!(mirrored.value_certified && plain.value_certified);
        for (m, p) in [
            (mirrored.value_if_a_starts, plain.value_if_a_starts),
            (mirrored.value_if_b_starts, plain.value_if_b_starts),
        ] {
            assert_abs_diff_eq!(m.mid(), p.mid(), epsilon = 2e-12);
        }
        // Every state the mirrored solve has narrowed agrees with the plain bracket, and
        // no bracket of one excludes the other's (both are sound).
        let plain_values = plain.values.as_ref().unwrap();
        let narrow = narrow_states(&mirrored, 1e-9);
        for (i, [lo, hi]) in narrow {
            let [plo, phi] = plain_values.load(i);
            assert!(
                lo <= phi + 1e-12 && plo <= hi + 1e-12,
                "{board} {profile} {d}: state {i}: mirrored [{lo}, {hi}], plain [{plo}, {phi}]"
            );
            if phi - plo <= 1e-9 {
                assert_abs_diff_eq!(0.5 * (lo + hi), 0.5 * (plo + phi), epsilon = 2e-9);
            }
        }
    }
}

#[test]
fn a_mirrored_solution_counts_its_style_and_differences_from_one_side() {
    use wuerfelglueck::exact::game::differences_from_heuristics;
    use wuerfelglueck::exact::game::style::style_of;
    // The optimal table of a mirrored solve is its own mirror image, and the heuristics treat
    // both players alike: the counts over A's decisions, doubled, are those over both sides.
    for (board, profile) in [("16/8/2/2", "choice+capture-duty"), ("20/10/2/2", "choice")] {
        let d = die("1..6");
        let g = game(
            board,
            profile,
            "1..6",
            "1..6",
            [Side::Optimal, Side::Optimal],
        );
        assert!(g.mirrored);
        let table = g.policy.as_ref().unwrap();
        let both = style_of(&g.space, table, [&d, &d], false);
        assert!(both.decisions > 0 && both.safest.decisions > 0, "{both:?}");
        assert_eq!(style_of(&g.space, table, [&d, &d], true), both, "{board}");
        assert_eq!(
            differences_from_heuristics(&g.space, table, [&d, &d], true),
            differences_from_heuristics(&g.space, table, [&d, &d], false),
            "{board}"
        );
    }
}

#[test]
fn the_mirror_is_used_only_where_the_game_is_symmetric() {
    let front = FrontmostPolicy;
    // Different dice; a second start not half a track away; one side playing a fixed
    // policy: none of these is its own mirror image.
    assert!(!game_with_values("16/8/2/2", "choice", "1..6", "1,2,3,4,6,6", true).mirrored);
    let lopsided = game_with_values("16/5/2/2", "choice", "1..6", "1..6", true);
    assert!(!lopsided.space.symmetric() && !lopsided.mirrored);
    let fixed = game(
        "16/8/2/2",
        "choice",
        "1..6",
        "1..6",
        [Side::Optimal, Side::Fixed(&front)],
    );
    assert!(fixed.space.symmetric() && !fixed.mirrored);
}

/// [`game`] without evaluating the pair where the value alone gives the figures.
fn game_from_value(board: &str, profile: &str, a: &str, b: &str) -> GameSolution {
    let run = GameRun {
        evaluate_pair: false,
        ..GameRun::default()
    };
    let sides = [Side::Optimal, Side::Optimal];
    solve_game_with(
        &rules(board, profile),
        [&die(a), &die(b)],
        sides,
        &options(1e-12),
        &run,
    )
    .expect("solves")
}

#[test]
fn the_figures_from_the_value_are_those_of_the_evaluated_optimal_pair() {
    for (board, profile, a, b) in [
        ("16/8/2/2", "choice", "1..6", "1..6"),
        ("16/8/2/2", "choice+capture-duty", "1,1,6,6,6,6", "1..6"),
        ("20/10/2/2", "choice", "1..6", "2,2,3,3,5,6"),
    ] {
        let evaluated = game(board, profile, a, b, [Side::Optimal, Side::Optimal]);
        let derived = game_from_value(board, profile, a, b);
        assert_eq!(derived.end_component_states, 0, "{board} {a} {b}");
        assert_eq!(derived.pair_attains_value, None, "not evaluated");
        assert_eq!(derived.pair_sweeps, 0);
        assert_eq!(evaluated.pair_attains_value, Some(true));
        assert!(derived.value_certified && derived.pair_certified);
        let (e, d) = (&evaluated.pair, &derived.pair);
        for (x, y) in [
            (e.p_a_if_a_starts, d.p_a_if_a_starts),
            (e.p_a_if_b_starts, d.p_a_if_b_starts),
            (e.p_b_if_a_starts, d.p_b_if_a_starts),
            (e.p_a, d.p_a),
        ] {
            assert_abs_diff_eq!(x, y, epsilon = 2e-12);
        }
        assert_eq!(d.p_never, 0.0);
    }
    // Where a state cannot be won any more, P(never) is not 0 and the value does not give
    // P(A wins): the pair is evaluated even when not asked.
    let g = game_from_value("16/8/2/2", "choice", "1..5", "1..5");
    assert_eq!(g.pair_attains_value, Some(true));
    assert_abs_diff_eq!(g.pair.p_never, 1.0, epsilon = 0.0);
}

#[test]
fn simulation_with_the_optimal_tables_agrees_with_the_exact_figures() {
    let board = "16/8/2/2";
    let r = rules(board, "choice");
    let (a, b) = (die("1..6"), die("1,1,1,6,6,6"));
    let g = solve_game(
        &r,
        [&a, &b],
        [Side::Optimal, Side::Optimal],
        &options(1e-12),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("wg-game-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("opt.policy");
    let table = g.policy.as_ref().unwrap();
    let header = file::header(
        &r,
        [&a, &b],
        ["optimal".into(), "optimal".into()],
        &g.space,
        table,
    );
    file::write(&path, &header, table, true).unwrap();
    let strategy: Strategy = format!("table:{}", path.display()).parse().unwrap();
    // A damaged body is refused.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    let bad = dir.join("bad.policy");
    std::fs::write(&bad, &bytes).unwrap();
    let err = format!("table:{}", bad.display())
        .parse::<Strategy>()
        .unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    // A body longer than the game's table is refused by its length, before it is read.
    let mut longer = std::fs::read(&path).unwrap();
    longer.extend(std::iter::repeat_n(0u8, 1 << 20));
    std::fs::write(&bad, &longer).unwrap();
    let err = format!("table:{}", bad.display())
        .parse::<Strategy>()
        .unwrap_err();
    assert!(err.to_string().contains("header says"), "{err}");
    // The simulator plays the table only in the game it was solved for: with another die
    // its positions would silently fall back to frontmost, so the matchup is refused.
    let pair = [strategy.clone(), strategy.clone()];
    assert!(Matchup::with_strategies(&r, [&a, &b], pair.clone(), 10_000).is_ok());
    let other = die("2..7");
    let refused = Matchup::with_strategies(&r, [&a, &other], pair.clone(), 10_000).unwrap_err();
    assert!(
        matches!(refused, MatchupError::NotForThisGame { player: 0, .. }),
        "{refused}"
    );
    let other_board = rules("20/10/2/2", "choice");
    assert!(Matchup::with_strategies(&other_board, [&a, &b], pair, 10_000).is_err());

    // Play games with both players on the table (the rules' own roll with the chosen move).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let games = 40_000u32;
    for first in 0..2usize {
        let mut a_wins = 0u32;
        for _ in 0..games {
            let mut s = GameState::start(first);
            let mut rolls = 0;
            loop {
                rolls += 1;
                assert!(rolls < 100_000);
                let mover = s.mover();
                let face = [&a, &b][mover].roll(&mut rng);
                let legal = r.legal_moves(s.pieces[mover], s.pieces[1 - mover], mover, face);
                let m = strategy.choose(
                    &r,
                    s.pieces[mover],
                    s.pieces[1 - mover],
                    mover,
                    &legal,
                    &mut rng,
                );
                let out = r.play_move(&mut s, face, m).unwrap();
                if let Some(w) = out.winner {
                    a_wins += u32::from(w == 0);
                    break;
                }
            }
        }
        let p = if first == 0 {
            g.pair.p_a_if_a_starts
        } else {
            g.pair.p_a_if_b_starts
        };
        let sd = (p * (1.0 - p) / f64::from(games)).sqrt();
        let z = (f64::from(a_wins) / f64::from(games) - p) / sd;
        // 4.4 sd: a false alarm once in 100,000 runs.
        assert!(z.abs() < 4.4, "first {first}: z = {z}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn cli(args: &[&str]) -> (i32, String) {
    use clap::Parser;
    let cli = wuerfelglueck::cli::Cli::try_parse_from(
        std::iter::once("wuerfelglueck").chain(args.iter().copied()),
    )
    .expect("parses");
    let mut out = Vec::new();
    let code = match wuerfelglueck::cli::run(cli, &mut out) {
        Ok(()) => 0,
        Err(e) => {
            out.extend_from_slice(e.message.as_bytes());
            e.code
        }
    };
    (code, String::from_utf8(out).unwrap())
}

#[test]
fn solve_and_advise_on_the_command_line() {
    let board = [
        "--track",
        "16",
        "--offset",
        "8",
        "--pieces",
        "2",
        "--goal-fields",
        "2",
    ];
    let mut args = vec!["solve", "--a", "1..6", "--b", "1..6", "--profile", "choice"];
    args.extend(board);
    args.extend(["--strategy-b", "safe", "--format", "json"]);
    let (code, out) = cli(&args);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["strategy_a"], "optimal");
    assert_eq!(json["strategy_b"], "safe");
    assert_eq!(json["value_certified"], true);
    assert!(json["value_if_a_starts"].as_f64().unwrap() > 0.0);

    // The style of the optimal pair only when asked, and only of the optimal pair.
    let optimal = |extra: &[&'static str]| {
        let mut args = vec!["solve", "--a", "1..6", "--b", "1..6", "--profile", "choice"];
        args.extend(board);
        args.extend(["--format", "json"]);
        args.extend(extra);
        let (code, out) = cli(&args);
        let json = (code == 0).then(|| serde_json::from_str::<serde_json::Value>(&out).unwrap());
        (code, out, json)
    };
    // Two threads' sweeps interleave differently from run to run: values equal to the
    // tolerance.
    let value = |json: &serde_json::Value| json["value_if_a_starts"].as_f64().unwrap();
    let (_, out, plain) = optimal(&[]);
    let plain = plain.expect(&out);
    assert!(plain.get("style").is_none() && plain.get("differs_from").is_none());
    assert!(
        plain["solver"].as_str().unwrap().contains("mirror"),
        "{out}"
    );
    let (_, out, styled) = optimal(&["--style"]);
    let styled = styled.expect(&out);
    assert!((value(&styled) - value(&plain)).abs() <= 1e-9);
    assert!(styled["style"]["decisions"].as_u64().unwrap() > 0);
    // The five heuristics and the two learned players trained for this board.
    assert_eq!(styled["differs_from"].as_array().unwrap().len(), 7);
    // Regression: the uniform mix counted as "another move in 100 % of decisions". It plays
    // the optimal move with probability 1/m among m >= 2 moves: its expected share of other
    // moves lies in [1/2, 1).
    let random = styled["differs_from"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["strategy"] == "random")
        .unwrap();
    let share = random["share"].as_f64().unwrap();
    assert!((0.5..1.0).contains(&share), "{random}");
    let decisions = random["decisions"].as_f64().unwrap();
    assert_abs_diff_eq!(
        random["differing"].as_f64().unwrap(),
        share * decisions,
        epsilon = 1e-6 * decisions
    );
    let (code, out, _) = optimal(&["--style", "--strategy-b", "safe"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("--style"), "{out}");
    let (_, out, unmirrored) = optimal(&["--no-mirror"]);
    let unmirrored = unmirrored.expect(&out);
    assert!(!unmirrored["solver"].as_str().unwrap().contains("mirror"));
    assert!((value(&unmirrored) - value(&plain)).abs() <= 1e-9);

    let mut args = vec!["advise", "--a", "1..6", "--b", "1..6", "--face", "4"];
    args.extend(board);
    args.extend(["--position", "A:3,10 B:A,5 turn:A", "--format", "json"]);
    let (code, out) = cli(&args);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["method"], "exact");
    assert_eq!(json["moves"].as_array().unwrap().len(), 2);

    let mut args = vec!["advise", "--a", "1..6", "--b", "1..6", "--face", "4"];
    args.extend(board);
    args.extend(["--position", "A:3,3 B:"]);
    let (code, out) = cli(&args);
    assert_eq!(code, 2);
    assert!(out.contains("two pieces on field 3"), "{out}");
    // A strategy without choice, and a policy file for another game, are input errors.
    let (code, out) = cli(&[
        "solve",
        "--a",
        "1..6",
        "--b",
        "1..6",
        "--pieces",
        "1",
        "--strategy-a",
        "safe",
    ]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn the_style_counts_agree_with_the_heuristics_that_define_them() {
    use wuerfelglueck::exact::game::style::style_of;
    // `capture` captures whenever it can, `safe` leaves the fewest pieces within reach,
    // `frontmost` moves the frontmost piece: each one's table must score 100 % on its own
    // count, and `rearmost` (never the frontmost among two or more moves) 0 %.
    let board = "16/8/2/2";
    let (a, b) = (die("1..6"), die("1,2,2,5,6,6"));
    let style = |name: &str| {
        let strategy: Strategy = name.parse().unwrap();
        let [sa, sb] = [strategy.seated([&a, &b], 0), strategy.seated([&a, &b], 1)];
        let g = game(
            board,
            "choice",
            "1..6",
            "1,2,2,5,6,6",
            [Side::Fixed(&sa), Side::Fixed(&sb)],
        );
        style_of(&g.space, g.policy.as_ref().unwrap(), [&a, &b], false)
    };
    let capture = style("capture");
    assert!(capture.captures.decisions > 100);
    assert_eq!(capture.captures.taken, capture.captures.decisions);
    assert_eq!(
        capture.captures_at_a_risk.taken,
        capture.captures_at_a_risk.decisions
    );
    let safe = style("safe");
    assert!(safe.safest.decisions > 100);
    assert_eq!(safe.safest.taken, safe.safest.decisions);
    let front = style("frontmost");
    assert_eq!(front.frontmost.taken, front.decisions);
    let rear = style("rearmost");
    assert_eq!(rear.frontmost.taken, 0);
    assert_eq!(rear.decisions, front.decisions);
    // Frontmost is not the capture rule: some captures on offer it passes up.
    assert!(front.captures.taken < front.captures.decisions);
}

#[test]
fn the_style_of_simulated_play_agrees_with_the_heuristics_that_define_it() {
    // Counted over the decisions of the duel's own games: each heuristic scores 100 % on the
    // situation it is defined by, `rearmost` never moves the frontmost piece, and watching
    // changes no game.
    let duel = |a: &str, b: &str, style: bool| {
        let mut args = vec![
            "duel",
            "--a",
            "1..6",
            "--b",
            "2..7",
            "--track",
            "16",
            "--pieces",
            "2",
            "--goal-fields",
            "2",
            "--profile",
            "choice",
            "--strategy-a",
            a,
            "--strategy-b",
            b,
            "--games",
            "10000",
            "--seed",
            "9",
            "--format",
            "json",
        ];
        if style {
            args.push("--style");
        }
        common::json(&args)
    };
    let share = |report: &serde_json::Value, player: usize, situation: &str| {
        let tally = &report["style"]["players"][player][situation];
        assert!(
            tally["decisions"].as_u64().unwrap() >= 50,
            "{situation}: {tally}"
        );
        tally["taken"].as_f64().unwrap() / tally["decisions"].as_f64().unwrap()
    };
    let watched = duel("capture", "safe", true);
    assert_eq!(share(&watched, 0, "captures"), 1.0);
    assert_eq!(share(&watched, 0, "captures_at_a_risk"), 1.0);
    assert_eq!(share(&watched, 1, "safest"), 1.0);
    assert_eq!(share(&watched, 1, "captures_at_a_risk"), 0.0);
    let plain = duel("capture", "safe", false);
    for field in ["a_wins", "b_wins", "games_a_started", "mean_rolls"] {
        assert_eq!(watched[field], plain[field], "{field}");
    }
    assert!(plain["style"].is_null());
    let order = duel("frontmost", "rearmost", true);
    assert_eq!(share(&order, 0, "frontmost"), 1.0);
    assert_eq!(share(&order, 1, "frontmost"), 0.0);
    // Without `choice` there is nothing to count, and the command says so.
    let (code, _, err) = common::run_captured(&["duel", "--a", "1..6", "--b", "1..6", "--style"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--style") && err.contains("choice"), "{err}");
}

/// The memory limit holds what the solve will really keep: the pair's store only where the
/// pair's chain is evaluated. With every value kept (the trainer's and the advisor's solve),
/// a game whose value alone gives the figures fits in a limit below the pair's peak, and the
/// same game with the pair's evaluation asked for is refused, before any sweep.
#[test]
fn the_memory_limit_counts_the_pairs_store_only_where_the_pair_is_evaluated() {
    use std::sync::Mutex;
    use wuerfelglueck::exact::ExactError;
    use wuerfelglueck::exact::game::Progress;
    let r = rules("16/8/2/2", "choice");
    let d = die("1..6");
    let planned = Mutex::new(None);
    let observer = |p: Progress| {
        if let Progress::Planned {
            bytes,
            ending_bytes,
            indices,
            ..
        } = p
        {
            *planned.lock().unwrap() = Some((bytes, ending_bytes, indices));
        }
        if let Progress::Sweep { .. } = p {
            assert!(planned.lock().unwrap().is_some());
        }
    };
    let run = |evaluate_pair: bool, max_memory: Option<u64>| {
        let run = GameRun {
            keep_values: true,
            evaluate_pair,
            observer: &observer,
            ..GameRun::default()
        };
        let options = SolveOptions {
            max_memory,
            ..options(1e-9)
        };
        solve_game_with(&r, [&d, &d], [Side::Optimal, Side::Optimal], &options, &run)
    };
    let free = run(false, None).expect("solves");
    assert_eq!(
        free.pair_sweeps, 0,
        "the value alone gives the figures here"
    );
    let (bytes, value_only, indices) = planned.lock().unwrap().take().unwrap();
    assert!(value_only < bytes, "{value_only} {bytes}");
    let between = (value_only + bytes) / 2;
    let limited = run(false, Some(between)).expect("fits without the pair's store");
    assert!(limited.value_certified);
    // Threads may meet the states in another order: the same value within the tolerance.
    assert_abs_diff_eq!(limited.value.lo, free.value.lo, epsilon = 1e-9);
    // Every play ends here, so the pair asked for is evaluated by its own value bracket:
    // 8 bytes a joint index less than the `V`, `W`, `Z` of the upper bound, still above
    // the limit (the game's bracket is kept beside it).
    match run(true, Some(between)) {
        Err(ExactError::Memory {
            bytes: needed,
            limit,
            ..
        }) => assert_eq!((needed, limit), (bytes - 8 * indices, between)),
        other => panic!("expected the memory limit to refuse the pair's evaluation: {other:?}"),
    }
    let asked = run(true, Some(bytes - 8 * indices)).expect("fits with the pair's bracket");
    assert!(asked.pair_sweeps > 0 && asked.pair_attains_value == Some(true));
    // Below what the value alone needs, refused up front.
    assert!(matches!(
        run(false, Some(value_only - 1)),
        Err(ExactError::Memory { .. })
    ));
}

/// Whether a certified interval holds `truth`, compared exactly: the rounding of the
/// solver's sums must never carry a bound past an exact 0 or 1.
fn holds(bounds: &wuerfelglueck::exact::Bounds, truth: f64) -> bool {
    bounds.lo <= truth && truth <= bounds.hi
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A die of even faces only cannot win where a piece must reach an odd distance (the
    /// second of two goal fields on an even track; captures send it back to an even
    /// start): P(its side wins) = 0 exactly, so its interval must hold 0 and the other
    /// two figures' intervals must allow P(other wins) + P(never) = 1, under the value
    /// bracket and under the pair's evaluation, from either seat, against any opponent
    /// (another even die makes a game no one can win).
    #[test]
    fn a_side_that_cannot_win_gets_an_interval_holding_exactly_zero(
        even in proptest::sample::select(vec!["2,4,6", "6,2", "2,6,6", "4,6", "6,4,4,2"]),
        other in proptest::sample::select(vec!["1..6", "6,1", "1,2,6", "3,6", "2,4,6", "1,1,6,6,5"]),
        track in proptest::sample::select(vec![8u32, 10, 12, 14]),
        even_seat in 0usize..2,
        evaluate_pair in proptest::bool::ANY,
    ) {
        let rules = rules(&format!("{track}/{}/2/2", track / 2), "choice");
        let dice = if even_seat == 0 { [die(even), die(other)] } else { [die(other), die(even)] };
        let run = GameRun { evaluate_pair, ..GameRun::default() };
        let solved = solve_game_with(
            &rules,
            [&dice[0], &dice[1]],
            [Side::Optimal, Side::Optimal],
            &options(1e-12),
            &run,
        )
        .expect("solves");
        let b = &solved.pair.bounds;
        let (cannot, can) = if even_seat == 0 {
            ([b.p_a, b.p_a_if_a_starts, b.p_a_if_b_starts], [b.p_b, b.p_b_if_a_starts, b.p_b_if_b_starts])
        } else {
            ([b.p_b, b.p_b_if_a_starts, b.p_b_if_b_starts], [b.p_a, b.p_a_if_a_starts, b.p_a_if_b_starts])
        };
        let never = [b.p_never, b.p_never_if_a_starts, b.p_never_if_b_starts];
        for i in 0..3 {
            proptest::prop_assert!(holds(&cannot[i], 0.0), "{:?} of the even die {even}", cannot[i]);
            proptest::prop_assert!(
                can[i].lo + never[i].lo <= 1.0 && can[i].hi + never[i].hi >= 1.0,
                "{:?} and never {:?}: their sum cannot be 1", can[i], never[i]
            );
            for bounds in [cannot[i], can[i], never[i]] {
                proptest::prop_assert!(0.0 <= bounds.lo && bounds.lo <= bounds.hi && bounds.hi <= 1.0);
            }
        }
        // The value v = P(A) - P(B) at both openings holds the truth's sign: a side
        // that cannot win has v on its losing side of 0, or at 0.
        for v in [solved.value_if_a_starts, solved.value_if_b_starts] {
            let truth_side = if even_seat == 0 { v.lo <= 0.0 } else { v.hi >= 0.0 };
            proptest::prop_assert!(truth_side, "{v:?}");
        }
    }
}

/// The case that was reported: 2,4,6 against 1..6 on 12/6/2/2 under `choice` is lost by
/// 2,4,6 with probability 1 (every play ends, and only 1..6 can finish): both intervals are
/// points, [0, 0] and [1, 1], and so is the value's, [-1, -1], with or without the pair's
/// evaluation and from B's seat too.
#[test]
fn a_game_only_one_side_can_win_is_certified_as_exactly_lost() {
    for evaluate_pair in [false, true] {
        let run = GameRun {
            evaluate_pair,
            ..GameRun::default()
        };
        for (a, b, p_a) in [("2,4,6", "1..6", 0.0), ("1..6", "2,4,6", 1.0)] {
            let solved = solve_game_with(
                &rules("12/6/2/2", "choice"),
                [&die(a), &die(b)],
                [Side::Optimal, Side::Optimal],
                &options(1e-12),
                &run,
            )
            .unwrap();
            let b_ = &solved.pair.bounds;
            let point = |x: f64| wuerfelglueck::exact::Bounds { lo: x, hi: x };
            assert_eq!(
                b_.p_a,
                point(p_a),
                "{a} vs {b}, pair evaluated: {evaluate_pair}"
            );
            assert_eq!(b_.p_b, point(1.0 - p_a), "{a} vs {b}");
            assert_eq!(b_.p_never, point(0.0), "{a} vs {b}");
            assert_eq!(solved.value, point(2.0 * p_a - 1.0), "{a} vs {b}");
        }
    }
}

/// `solve --layered` gives the figures of the solver without it, within the tolerance, on
/// the same and on different dice, lists every group it solved (their states add up to the
/// joint indices, counting a mirrored group once for both), and refuses what it does not
/// do, naming the option.
#[test]
fn the_layered_solve_on_the_command_line_agrees_with_the_global_one() {
    let board = [
        &common::CHOICE_16_8_2_2[..],
        &["--tolerance", "1e-10", "--format", "json"][..],
    ]
    .concat();
    for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
        let solve = |extra: &[&str]| {
            let mut args = vec!["solve", "--a", a, "--b", b];
            args.extend(&board);
            args.extend(extra);
            let (code, out) = cli(&args);
            assert_eq!(code, 0, "{out}");
            serde_json::from_str::<serde_json::Value>(&out).unwrap()
        };
        let global = solve(&[]);
        let layered = solve(&["--layered"]);
        assert_eq!(layered["value_certified"], true, "{a} against {b}");
        for figure in ["p_a", "p_a_if_a_starts", "p_a_if_b_starts", "p_b", "value"] {
            let [g, l] = [&global, &layered].map(|j| j[figure].as_f64().unwrap());
            assert!((g - l).abs() <= 1e-10, "{a} against {b}: {figure} {g} {l}");
        }
        let groups = layered["groups"].as_array().unwrap();
        let mut states = 0;
        for g in groups {
            let (ga, gb) = (g["goal_a"].as_u64().unwrap(), g["goal_b"].as_u64().unwrap());
            let n = g["states"].as_u64().unwrap();
            states += if a == b && ga != gb { 2 * n } else { n };
            assert!(g["sweeps"].as_u64().unwrap() >= 1);
        }
        assert_eq!(states, global["product_states"].as_u64().unwrap());
        assert_eq!(groups.len(), if a == b { 10 } else { 16 });
    }
    for (extra, named) in [
        (&["--evaluate-pair"][..], "--evaluate-pair"),
        (&["--no-mirror"][..], "--no-mirror"),
    ] {
        let mut args = vec!["solve", "--a", "1..6", "--b", "1..6", "--layered"];
        args.extend(&board);
        args.extend(extra);
        let (code, out) = cli(&args);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains(named), "{out}");
    }
    let (code, out) = cli(&["solve", "--a", "1..6", "--b", "1..6", "--layered"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("--layered needs --profile choice"), "{out}");
    // Too little memory: refused before any work, naming the group where the need is
    // largest (the core: 137 configurations a side without a piece home, 137^2 cells of
    // two sides) and the part that leaves it out.
    let mut args = vec!["solve", "--a", "1..6", "--b", "1..6", "--layered"];
    args.extend(&board);
    args.extend(["--max-memory", "200KiB"]);
    let (code, out) = cli(&args);
    assert_eq!(code, 2, "{out}");
    for part in [
        "goal fields A 0, B 0: 37538 states",
        "--part outside-core",
        "200.0 KiB",
    ] {
        assert!(out.contains(part), "{out}");
    }
}

/// `solve --layered` with fixed strategies gives the figures of the solver without it:
/// one side fixed (its best response on the other) and both fixed, a heuristic, the
/// uniform mix of `random` and the learned player, on the same and on different dice
/// (where the mirror does not apply to the pair). The values folder of such a solve
/// records the pair: an optimal solve does not read it back, nor does `advise`.
#[test]
fn the_layered_solve_plays_fixed_strategies_as_the_global_one_does() {
    let board = [
        &common::CHOICE_16_8_2_2[..],
        &["--tolerance", "1e-10", "--format", "json"][..],
    ]
    .concat();
    let solve = |a: &str, b: &str, extra: &[&str]| {
        let mut args = vec!["solve", "--a", a, "--b", b];
        args.extend(&board);
        args.extend(extra);
        let (code, out) = cli(&args);
        assert_eq!(code, 0, "{args:?}: {out}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
        for strategies in [
            &["--strategy-a", "safe"][..],
            &["--strategy-b", "random"][..],
            &["--strategy-a", "strong", "--strategy-b", "capture"][..],
        ] {
            let global = solve(a, b, strategies);
            let layered = solve(a, b, &[strategies, &["--layered"][..]].concat());
            assert_eq!(layered["value_certified"], true, "{a} {b} {strategies:?}");
            for figure in ["p_a", "p_a_if_a_starts", "p_a_if_b_starts", "value"] {
                let [g, l] = [&global, &layered].map(|j| j[figure].as_f64().unwrap());
                assert!(
                    (g - l).abs() <= 1e-10,
                    "{a} against {b}, {strategies:?}: {figure} {g} {l}"
                );
            }
            // The pair's figures are not the optimal ones.
            let optimal = solve(a, b, &[]);
            let gap = (optimal["p_a"].as_f64().unwrap() - layered["p_a"].as_f64().unwrap()).abs();
            assert!(gap > 1e-4, "{a} {b} {strategies:?}: {gap}");
            assert_eq!(layered["game"]["strategy_a"], global["game"]["strategy_a"]);
        }
    }
    let dir = common::temp_dir("game", "layered-fixed");
    let folder = dir.join("safe");
    let folder = folder.to_str().unwrap();
    let part = ["--layered", "--part", "both-home", "--values-out", folder];
    let fixed = solve(
        "1..6",
        "2..7",
        &[&["--strategy-a", "safe"][..], &part].concat(),
    );
    assert_eq!(fixed["strategy_a"], "safe");
    assert_eq!(fixed["certified"], true);
    // The optimal solve refuses the folder of the pair, naming it.
    let mut args = vec!["solve", "--a", "1..6", "--b", "2..7"];
    args.extend(&board);
    args.extend(part);
    let (code, out) = cli(&args);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("A playing safe, B playing optimal"), "{out}");
    // So does every reader of optimal values.
    let mut args = vec!["advise", "--a", "1..6", "--b", "2..7", "--values", folder];
    args.extend(common::CHOICE_16_8_2_2);
    args.extend(["--position", "A:a,5 B:b,9 turn:A", "--face", "3"]);
    let (code, out) = cli(&args);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not optimal play's"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--checkpoint-minutes` is refused without the folder its checkpoints go into and for a
/// number that is not a duration; with the folder, a solve writing a checkpoint after every
/// sweep leaves none behind once its groups' files are written.
#[test]
fn checkpoints_need_their_folder_and_a_duration() {
    let dir = common::temp_dir("game", "checkpoint-cli");
    let folder = dir.join("values");
    let folder = folder.to_str().unwrap();
    let mut base = vec!["solve", "--a", "1..6", "--b", "2..7", "--format", "json"];
    base.extend(common::CHOICE_16_8_2_2);
    let with = |extra: &[&str]| cli(&[&base[..], extra].concat());
    let (code, out) = with(&["--layered", "--checkpoint-minutes", "5"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("--checkpoint-minutes") && out.contains("--values-out"),
        "{out}"
    );
    let part = ["--layered", "--part", "both-home", "--values-out", folder];
    for minutes in [
        "--checkpoint-minutes=-1",
        "--checkpoint-minutes=NaN",
        "--checkpoint-minutes=inf",
    ] {
        let (code, out) = with(&[&part[..], &[minutes]].concat());
        assert_eq!(code, 2, "{minutes}: {out}");
        assert!(
            out.contains("expected a number of minutes, 0 or more"),
            "{out}"
        );
    }
    let (code, out) = with(&[&part[..], &["--checkpoint-minutes", "0"]].concat());
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["certified"], true);
    let names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.ends_with(".values")), "{names:?}");
    assert!(
        !names.iter().any(|n| n.ends_with(".checkpoint")),
        "{names:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Rollouts play game `g` after every move on the same dice, so a move's gap to the leader
/// is measured on paired games: its mean agrees with the gap of a run fifty times as long
/// (within four standard errors of both), and its standard error is well below what two
/// independent runs of the same length would give.
#[test]
fn rollouts_measure_each_moves_gap_to_the_leader_on_the_same_dice() {
    use wuerfelglueck::exact::game::advise::advise_simulated;
    use wuerfelglueck::exact::game::position::parse_position;
    let rules = rules("16/8/2/2", "choice");
    let (a, b) = (die("1..6"), die("1..6"));
    let safe: Strategy = "safe".parse().unwrap();
    let position = parse_position(&rules, "A:3,9 B:2,12 turn:A").unwrap();
    let run = |games, seed| {
        advise_simulated(
            &rules,
            [&a, &b],
            [&safe, &safe],
            &position,
            4,
            games,
            seed,
            10_000,
        )
    };
    let (short, long) = (run(4_000, 7), run(200_000, 8));
    assert_eq!(short.len(), 2, "{short:?}");
    let leader = |moves: &[wuerfelglueck::exact::game::advise::MoveValue]| {
        moves.iter().position(|m| m.gap.unwrap().leader).unwrap()
    };
    let l = leader(&long);
    assert_eq!(leader(&short), l, "the runs lead with the same move");
    for (m, (s, r)) in short.iter().zip(&long).enumerate() {
        let (gs, gr) = (s.gap.unwrap(), r.gap.unwrap());
        if m == l {
            assert_eq!((gs.mean, gs.standard_error), (0.0, 0.0));
            continue;
        }
        let bound = 4.0 * (gs.standard_error.powi(2) + gr.standard_error.powi(2)).sqrt();
        assert!((gs.mean - gr.mean).abs() <= bound, "{gs:?} against {gr:?}");
        // Two independent runs: the variances of the two means added (results of ±1).
        let n = s.games as f64;
        let variance = |v: f64| 1.0 - v * v;
        let unpaired = ((variance(short[l].value.mid()) + variance(s.value.mid())) / n).sqrt();
        assert!(
            gs.standard_error < 0.8 * unpaired,
            "paired {} against unpaired {unpaired}",
            gs.standard_error
        );
    }
}

mod layered_files {
    use wuerfelglueck::dice::Die;
    use wuerfelglueck::exact::game::layered::{
        LayerProgress, LayeredRun, LayeredValues, LayersOutcome, Part, Storage, solve_layers,
    };
    use wuerfelglueck::exact::game::space::flag;
    use wuerfelglueck::exact::game::{Side, solve_game_keeping_values};
    use wuerfelglueck::exact::{ExactError, SolveOptions};
    use wuerfelglueck::rules::Rules;

    /// A fresh folder of its own, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("wg-layered-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn path(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn game() -> (Rules, [Die; 2]) {
        let rules = Rules::new("16/8/2/2".parse().unwrap(), "choice".parse().unwrap());
        (
            rules,
            ["1..6".parse().unwrap(), "1,2,2,4,5,6".parse().unwrap()],
        )
    }

    fn options(tolerance: f64) -> SolveOptions {
        SolveOptions {
            tolerance,
            ..SolveOptions::default()
        }
    }

    /// Solves `part` into `dir` on one thread (so that two runs give the same bits).
    fn solve_into(
        dir: &std::path::Path,
        part: Part,
        tolerance: f64,
    ) -> Result<Vec<bool>, ExactError> {
        solve_with_checkpoints(dir, part, &options(tolerance), None, &|_| {}).map(|o| {
            assert!(o.certified, "every group within the tolerance");
            o.groups.iter().map(|g| g.resumed).collect()
        })
    }

    /// [`solve_into`] with `options`, a checkpoint of the group being solved written every
    /// `checkpoint_every`, each step told to `observer`.
    fn solve_with_checkpoints(
        dir: &std::path::Path,
        part: Part,
        options: &SolveOptions,
        checkpoint_every: Option<std::time::Duration>,
        observer: &(dyn Fn(LayerProgress<'_>) + Sync),
    ) -> Result<LayersOutcome, ExactError> {
        solve_within(dir, part, options, (checkpoint_every, None), observer)
    }

    /// [`solve_with_checkpoints`], its files allowed `max_disk` bytes (`None`: the free
    /// space).
    fn solve_within(
        dir: &std::path::Path,
        part: Part,
        options: &SolveOptions,
        (checkpoint_every, max_disk): (Option<std::time::Duration>, Option<u64>),
        observer: &(dyn Fn(LayerProgress<'_>) + Sync),
    ) -> Result<LayersOutcome, ExactError> {
        let (rules, dice) = game();
        let run = LayeredRun {
            part,
            keep_values: false,
            values_out: Some(dir),
            observer,
            cluster: &wuerfelglueck::exact::game::cluster::OneProcess,
            fixed: [None, None],
            checkpoint_every,
            max_disk,
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        one.install(|| solve_layers(&rules, [&dice[0], &dice[1]], options, &run))
    }

    /// The files in `dir` whose names end with `suffix`, sorted.
    fn files_ending(dir: &std::path::Path, suffix: &str) -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(suffix))
            .collect();
        files.sort();
        files
    }

    /// A run stopped inside a group (here by its sweep limit) leaves a checkpoint of the
    /// group's brackets; the next run goes on from it, at the sweep it holds, and its values
    /// hold those of an uninterrupted run, certified to the tolerance; the checkpoint is
    /// removed once the group's file is written. A damaged or truncated checkpoint is
    /// refused, naming the file and how to start the group over.
    #[test]
    fn a_run_stopped_inside_a_group_goes_on_from_its_checkpoint() {
        let tolerance = 1e-7;
        let whole = Scratch::new("checkpoint-whole");
        let stopped = Scratch::new("checkpoint-stopped");
        solve_into(whole.path(), Part::BothHome, tolerance).unwrap();
        let every_sweep = Some(std::time::Duration::ZERO);
        let few_sweeps = SolveOptions {
            max_sweeps: 3,
            ..options(tolerance)
        };
        let e = solve_with_checkpoints(
            stopped.path(),
            Part::BothHome,
            &few_sweeps,
            every_sweep,
            &|_| {},
        )
        .unwrap_err();
        assert!(matches!(e, ExactError::NotConverged(_)), "{e:?}");
        let checkpoints = files_ending(stopped.path(), ".checkpoint");
        assert_eq!(checkpoints.len(), 1, "{checkpoints:?}");
        let checkpoint = checkpoints[0].clone();
        let stopped_group = checkpoint
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".checkpoint", ".values");
        assert!(!stopped.path().join(&stopped_group).exists());
        let original = std::fs::read(&checkpoint).unwrap();

        // Damaged or truncated: refused, and left as it is.
        let refused = |what: &str| {
            let e = solve_with_checkpoints(
                stopped.path(),
                Part::BothHome,
                &options(tolerance),
                every_sweep,
                &|_| {},
            )
            .unwrap_err();
            let text = e.to_string();
            assert!(matches!(e, ExactError::ValuesFile(_)), "{e:?}");
            assert!(text.contains(&checkpoint.display().to_string()), "{text}");
            assert!(text.contains(what) && text.contains("remove it"), "{text}");
        };
        let mut damaged = original.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        std::fs::write(&checkpoint, &damaged).unwrap();
        refused("checksum");
        assert_eq!(std::fs::read(&checkpoint).unwrap(), damaged);
        std::fs::write(&checkpoint, &original[..original.len() - 5]).unwrap();
        refused("truncated");
        std::fs::write(&checkpoint, &original).unwrap();

        // Going on: the stopped group from its checkpoint's sweep 3.
        let went_on = std::sync::Mutex::new(Vec::new());
        let outcome = solve_with_checkpoints(
            stopped.path(),
            Part::BothHome,
            &options(tolerance),
            every_sweep,
            &|p| {
                if let LayerProgress::FromCheckpoint { sweep, .. } = p {
                    went_on.lock().unwrap().push(sweep);
                }
            },
        )
        .unwrap();
        assert!(outcome.certified);
        assert_eq!(*went_on.lock().unwrap(), [3]);
        let from_checkpoint: Vec<_> = outcome
            .groups
            .iter()
            .filter(|g| g.from_checkpoint_at_sweep.is_some())
            .collect();
        assert_eq!(from_checkpoint.len(), 1);
        assert_eq!(from_checkpoint[0].from_checkpoint_at_sweep, Some(3));
        assert!(from_checkpoint[0].sweeps > 3);
        assert!(files_ending(stopped.path(), ".checkpoint").is_empty());
        assert_eq!(
            files_ending(stopped.path(), ".values").len(),
            files_ending(whole.path(), ".values").len()
        );

        // Every state's bracket overlaps the uninterrupted run's, each at most the tolerance
        // wide: the same values.
        let (rules, dice) = game();
        let dice = [&dice[0], &dice[1]];
        let open = |dir| LayeredValues::open(dir, &rules, dice, tolerance).unwrap();
        let (a, b) = (open(whole.path()), open(stopped.path()));
        let space = a.space();
        let mut compared = 0;
        for i in 0..space.len() {
            if let (Some(x), Some(y)) = (a.bracket_at(i).unwrap(), b.bracket_at(i).unwrap()) {
                assert!(x.width() <= tolerance && y.width() <= tolerance);
                assert!(x.lo <= y.hi && y.lo <= x.hi, "{x:?} against {y:?} at {i}");
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// The files' bodies and headers without the seconds (the group's and its sweeps'),
    /// which differ from run to run.
    fn contents(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| {
                let bytes = std::fs::read(p).unwrap();
                let end = bytes.iter().position(|&b| b == b'\n').unwrap();
                let mut header: serde_json::Value = serde_json::from_slice(&bytes[..end]).unwrap();
                header["group"]["seconds"] = serde_json::Value::Null;
                header["group"]["sweep_seconds"] = serde_json::Value::Null;
                (header.to_string(), bytes[end..].to_vec())
            })
            .collect()
    }

    /// Outside the core, every group's file: a run stopped after some groups and started
    /// again reads those back and writes the rest, and the files are those of an
    /// uninterrupted run; the values read back hold the global solver's at every state
    /// outside the core, each at most the tolerance wide, kept as 32-bit fixed point.
    #[test]
    fn a_resumed_solve_outside_the_core_writes_the_files_of_an_uninterrupted_one() {
        let tolerance = 1e-7;
        assert_eq!(Storage::for_tolerance(tolerance), Storage::Fixed32);
        let whole = Scratch::new("whole");
        let resumed = Scratch::new("resumed");
        let fresh = solve_into(whole.path(), Part::OutsideCore, tolerance).unwrap();
        assert!(fresh.iter().all(|r| !r) && fresh.len() >= 8, "{fresh:?}");
        // A stop after the groups where both sides have a piece home.
        let first = solve_into(resumed.path(), Part::BothHome, tolerance).unwrap();
        assert!(first.len() < fresh.len());
        let again = solve_into(resumed.path(), Part::OutsideCore, tolerance).unwrap();
        assert_eq!(
            again.iter().filter(|&&r| r).count(),
            first.len(),
            "{again:?}"
        );
        assert_eq!(contents(whole.path()), contents(resumed.path()));
        // A run with every file in place solves nothing.
        let done = solve_into(resumed.path(), Part::OutsideCore, tolerance).unwrap();
        assert!(done.iter().all(|&r| r));

        let (rules, dice) = game();
        let dice = [&dice[0], &dice[1]];
        let values = LayeredValues::open(whole.path(), &rules, dice, tolerance).unwrap();
        let global = solve_game_keeping_values(
            &rules,
            dice,
            [Side::Optimal, Side::Optimal],
            &options(1e-12),
        )
        .unwrap();
        let bracket = global.values.as_ref().unwrap();
        let space = &global.space;
        let (mut outside, mut core) = (0, 0);
        for i in 0..space.len() {
            if space.flag(i) & flag::REACHED == 0 {
                continue;
            }
            let [lo, hi] = bracket.load(i);
            match values.bracket(&space.position(i)).unwrap() {
                Some(l) => {
                    assert!(l.lo <= lo && hi <= l.hi, "{l:?} against [{lo}, {hi}]");
                    assert!(l.width() <= tolerance, "{l:?}");
                    outside += 1;
                }
                None => core += 1,
            }
        }
        assert!(outside > 1000 && core > 1000, "{outside} {core}");
    }

    /// A group's first checkpoint is timed from the group's start, so the work before its
    /// sweeps counts: where a fixed side's answers take longer than the interval (here the
    /// first answer sleeps), a checkpoint follows the group's first sweep.
    #[test]
    fn the_work_before_a_groups_sweeps_counts_towards_its_first_checkpoint() {
        use wuerfelglueck::exact::game::layered::FixedSide;
        use wuerfelglueck::exact::game::policy::{Decision, MovePolicy, Pick};
        /// The frontmost move, the first answer after a pause.
        struct SlowToStart(std::sync::Once);
        impl MovePolicy for SlowToStart {
            fn pick(&self, _: &Decision<'_>) -> Pick {
                self.0
                    .call_once(|| std::thread::sleep(std::time::Duration::from_millis(400)));
                Pick::One(0)
            }
        }
        let dir = Scratch::new("checkpoint-timed");
        let (rules, dice) = game();
        let slow = SlowToStart(std::sync::Once::new());
        let first_sweeps = std::sync::Mutex::new(Vec::new());
        let observer = |p: LayerProgress<'_>| {
            if let LayerProgress::Checkpoint {
                sweep: 1, written, ..
            } = p
            {
                first_sweeps.lock().unwrap().push(written.is_ok());
            }
        };
        let run = LayeredRun {
            part: Part::BothHome,
            keep_values: false,
            values_out: Some(dir.path()),
            observer: &observer,
            cluster: &wuerfelglueck::exact::game::cluster::OneProcess,
            fixed: [
                Some(FixedSide {
                    policy: &slow,
                    name: "frontmost",
                }),
                None,
            ],
            checkpoint_every: Some(std::time::Duration::from_millis(300)),
            max_disk: None,
        };
        solve_layers(&rules, [&dice[0], &dice[1]], &options(1e-7), &run).unwrap();
        // The group that waited for the first answer wrote one (others may, on a slow
        // machine), each written.
        let written = first_sweeps.lock().unwrap();
        assert!(
            !written.is_empty() && written.iter().all(|&ok| ok),
            "{written:?}"
        );
        assert!(files_ending(dir.path(), ".checkpoint").is_empty());
    }

    /// Bytes of the files in `dir` whose names end with `suffix`.
    fn bytes_ending(dir: &std::path::Path, suffix: &str) -> u64 {
        files_ending(dir, suffix)
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().len())
            .sum()
    }

    /// A run whose files need more disk than allowed is refused before it writes anything;
    /// the need it names is what its files then take (their headers allowed for), with the
    /// checkpoint of the group being written beside them where checkpoints are on; a
    /// resumed run counts only the groups it has still to write.
    #[test]
    fn a_run_needing_more_disk_than_allowed_is_refused_before_it_writes() {
        let tolerance = 1e-7;
        let dir = Scratch::new("disk");
        let hourly = Some(std::time::Duration::from_secs(3600));
        let planned = std::sync::Mutex::new(Vec::new());
        let observer = |p: LayerProgress<'_>| {
            if let LayerProgress::Disk {
                groups,
                files,
                fullest,
                limit,
                measured,
            } = p
            {
                planned
                    .lock()
                    .unwrap()
                    .push((groups, files, fullest, limit, measured));
            }
        };
        let run = |part, every, max_disk| {
            solve_within(
                dir.path(),
                part,
                &options(tolerance),
                (every, max_disk),
                &observer,
            )
        };
        let refused = |part, every| match run(part, every, Some(1)) {
            Err(ExactError::Disk {
                groups,
                files,
                fullest,
                limit: 1,
                measured: false,
                ..
            }) => (groups, files, fullest),
            other => panic!("expected a refusal for want of disk, got {other:?}"),
        };
        let (groups, files, fullest) = refused(Part::BothHome, hourly);
        assert!(files_ending(dir.path(), "").is_empty(), "nothing written");
        // The largest group's checkpoint: its file's bytes and a byte a state more.
        assert!(fullest > files && fullest < 3 * files, "{fullest} {files}");
        // Without checkpoints nothing is kept beside the files.
        assert_eq!(refused(Part::BothHome, None), (groups, files, files));

        // Allowed exactly its need, the run goes on and its files take what was planned.
        let outcome = run(Part::BothHome, hourly, Some(fullest)).unwrap();
        assert_eq!(outcome.groups.len(), groups);
        let written = bytes_ending(dir.path(), ".values");
        let headers = 1024 * groups as u64;
        assert!(
            written <= files && files - written <= headers,
            "{written} {files}"
        );
        assert!(files_ending(dir.path(), ".checkpoint").is_empty());
        assert_eq!(
            planned.lock().unwrap().last().copied(),
            Some((groups, files, fullest, fullest, false))
        );

        // Going on outside the core: only the groups without a file count.
        let (rest, rest_files, _) = refused(Part::OutsideCore, hourly);
        let outcome = run(Part::OutsideCore, hourly, None).unwrap();
        assert_eq!(outcome.groups.iter().filter(|g| !g.resumed).count(), rest);
        let all = bytes_ending(dir.path(), ".values");
        assert!(all - written <= rest_files && rest_files - (all - written) <= 1024 * rest as u64);
        // Measured on the disk where the platform tells its free space.
        let last = planned.lock().unwrap().last().copied().unwrap();
        assert_eq!(last.4, cfg!(unix), "{last:?}");
    }

    /// A run refused for want of disk leaves no folder it made.
    #[test]
    fn a_refused_run_leaves_no_folder_behind() {
        let scratch = Scratch::new("disk-made");
        let dir = scratch.path().join("values");
        let (rules, dice) = game();
        let run = LayeredRun {
            part: Part::OutsideCore,
            keep_values: false,
            values_out: Some(&dir),
            observer: &|_| {},
            cluster: &wuerfelglueck::exact::game::cluster::OneProcess,
            fixed: [None, None],
            checkpoint_every: None,
            max_disk: Some(0),
        };
        let refused = solve_layers(&rules, [&dice[0], &dice[1]], &options(1e-7), &run);
        assert!(
            matches!(refused, Err(ExactError::Disk { .. })),
            "{refused:?}"
        );
        assert!(!dir.exists());
    }

    /// A folder another process writes into (it holds the folder's lock) is refused before
    /// any work; once free, the run removes the temporary files that a run killed during a
    /// write left there (and nothing else), says so, and solves.
    #[cfg(unix)]
    #[test]
    fn one_run_writes_into_a_folder_and_clears_what_a_killed_one_left() {
        use std::os::fd::AsRawFd;
        let dir = Scratch::new("folder-lock");
        let other_run = std::fs::File::open(dir.path()).unwrap();
        // SAFETY: the descriptor is the open folder's.
        let locked = unsafe { libc::flock(other_run.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_eq!(locked, 0);
        let refused = solve_into(dir.path(), Part::BothHome, 1e-7);
        match &refused {
            Err(e @ ExactError::FolderInUse(folder)) => {
                assert_eq!(folder, &dir.path().display().to_string());
                assert!(e.is_input_error());
                assert!(e.to_string().contains("another run is writing"), "{e}");
            }
            other => panic!("expected the folder refused, got {other:?}"),
        }
        assert!(files_ending(dir.path(), "").is_empty(), "nothing written");
        drop(other_run);

        // What a killed run left: a group file's and a checkpoint's temporary files, beside
        // a temporary file that is not the solver's.
        let left = [
            ".group-a1-b1.values.4242-0.tmp",
            ".group-a1-b1.checkpoint.4242-1.tmp",
        ];
        for name in left {
            std::fs::write(dir.path().join(name), [0u8; 100]).unwrap();
        }
        std::fs::write(dir.path().join(".notes.txt.4242-2.tmp"), "mine").unwrap();
        let removed = std::sync::Mutex::new(Vec::new());
        let observer = |p: LayerProgress<'_>| {
            if let LayerProgress::Leftovers { files, bytes } = p {
                removed.lock().unwrap().push((files, bytes));
            }
        };
        let outcome =
            solve_with_checkpoints(dir.path(), Part::BothHome, &options(1e-7), None, &observer)
                .unwrap();
        assert!(outcome.certified);
        assert_eq!(*removed.lock().unwrap(), vec![(2, 200)]);
        for name in left {
            assert!(!dir.path().join(name).exists(), "{name}");
        }
        assert!(dir.path().join(".notes.txt.4242-2.tmp").exists());
        assert!(!files_ending(dir.path(), ".values").is_empty());
        // The lock ends with the run: the next one reads every group back.
        let again = solve_into(dir.path(), Part::BothHome, 1e-7).unwrap();
        assert!(again.iter().all(|&resumed| resumed));
    }

    /// A damaged, a truncated and another game's file are refused, naming the file and
    /// what was expected; nothing is overwritten.
    #[test]
    fn damaged_truncated_or_foreign_value_files_are_refused() {
        let tolerance = 1e-7;
        let dir = Scratch::new("damaged");
        solve_into(dir.path(), Part::BothHome, tolerance).unwrap();
        let mut files: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let file = files[0].clone();
        let original = std::fs::read(&file).unwrap();
        let refused = |what: &str| {
            let e = solve_into(dir.path(), Part::BothHome, tolerance).unwrap_err();
            assert!(matches!(e, ExactError::ValuesFile(_)), "{e:?}");
            let text = e.to_string();
            assert!(text.contains(&file.display().to_string()), "{text}");
            assert!(text.contains(what), "{text}");
        };
        let mut damaged = original.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        std::fs::write(&file, &damaged).unwrap();
        refused("checksum");
        assert_eq!(std::fs::read(&file).unwrap(), damaged, "not overwritten");
        std::fs::write(&file, &original[..original.len() - 3]).unwrap();
        refused("truncated");
        std::fs::write(&file, &original).unwrap();
        // The same folder for another tolerance: another game's values.
        let e = solve_into(dir.path(), Part::BothHome, 1e-6).unwrap_err();
        assert!(e.to_string().contains("made for another game"), "{e}");
        let again = solve_into(dir.path(), Part::BothHome, tolerance).unwrap();
        assert!(again.iter().all(|&r| r));
    }

    /// A whole solve into a folder, run again, reads every group back, the core too, and
    /// gives the same value at the openings.
    #[test]
    fn a_whole_solve_read_back_gives_the_same_value() {
        use wuerfelglueck::exact::game::layered::solve_layered_with;
        let (rules, dice) = game();
        let dir = Scratch::new("whole-again");
        let solve = || {
            let run = LayeredRun {
                part: Part::All,
                keep_values: false,
                values_out: Some(dir.path()),
                observer: &|_| {},
                cluster: &wuerfelglueck::exact::game::cluster::OneProcess,
                fixed: [None, None],
                checkpoint_every: None,
                max_disk: None,
            };
            solve_layered_with(&rules, [&dice[0], &dice[1]], &options(1e-9), &run)
                .unwrap()
                .0
        };
        let first = solve();
        let second = solve();
        assert!(first.groups.iter().all(|g| !g.resumed));
        assert!(second.groups.iter().all(|g| g.resumed));
        assert!(first.value_certified && second.value_certified);
        for (x, y) in [
            (first.value_if_a_starts, second.value_if_a_starts),
            (first.value_if_b_starts, second.value_if_b_starts),
        ] {
            // Read back: the stored midpoint and the group's half-width, which hold the
            // bracket solved.
            assert!(y.lo <= x.lo && x.hi <= y.hi, "{x:?} {y:?}");
            assert!(y.width() <= 1e-9, "{y:?}");
        }
    }

    /// The values of a layered solve, used: each move's value as the global solve gives it
    /// wherever the folder holds every move's group (`None` elsewhere), and `exact:DIR`'s move
    /// optimal within the tolerance, the optimal one wherever that is beyond doubt.
    #[test]
    fn the_values_folder_gives_every_moves_value_and_exact_plays_the_optimal_move() {
        use wuerfelglueck::exact::game::advise::advise_from_values;
        use wuerfelglueck::exact::game::exact_strategy::ExactStrategy;
        use wuerfelglueck::exact::game::space::Target;
        let tolerance = 1e-9;
        let dir = Scratch::new("use");
        solve_into(dir.path(), Part::OutsideCore, tolerance).unwrap();
        let exact = ExactStrategy::load(dir.path(), None).unwrap();
        // Mapped (on unix), the files keep nothing in this process's memory, so no limit
        // refuses them; read into memory, a limit below their size does.
        let one_byte = ExactStrategy::load(dir.path(), Some(1));
        if cfg!(unix) {
            assert_eq!(exact.values().bytes_held_when_loaded(), 0);
            assert!(one_byte.is_ok());
        } else {
            assert!(one_byte.unwrap_err().contains("read into memory"));
        }
        let (rules, dice) = game();
        let global = solve_game_keeping_values(
            &rules,
            [&dice[0], &dice[1]],
            [Side::Optimal, Side::Optimal],
            &options(1e-12),
        )
        .unwrap();
        let bracket = global.values.as_ref().unwrap();
        let space = &global.space;
        let (mut valued, mut outside, mut beyond_doubt) = (0, 0, 0);
        for i in 0..space.len() {
            if space.flag(i) & flag::REACHED == 0 {
                continue;
            }
            let position = space.position(i);
            let sign = if position.mover() == 0 { 1.0 } else { -1.0 };
            for (k, &(face, _)) in space.faces(i).iter().enumerate() {
                // Each move's global bracket, in the order of the legal moves.
                let mut truth = Vec::new();
                space.options(i, k, |m, t| {
                    let v = match t {
                        Target::Win(0) => [1.0, 1.0],
                        Target::Win(_) => [-1.0, -1.0],
                        Target::Next(j) => bracket.load(j),
                    };
                    truth.push((m, v));
                });
                truth.sort_by_key(|&(m, _)| m);
                let chosen = exact.best_move(&position, face);
                let Some(moves) = advise_from_values(exact.values(), &position, face).unwrap()
                else {
                    assert_eq!(chosen, None, "no move where a value is missing");
                    outside += 1;
                    continue;
                };
                assert_eq!(moves.len(), truth.len());
                for (m, &(_, [lo, hi])) in moves.iter().zip(&truth) {
                    assert!(m.value.lo <= lo && hi <= m.value.hi, "{m:?} [{lo}, {hi}]");
                    assert!(m.value.width() <= tolerance, "{m:?}");
                }
                valued += 1;
                if truth.is_empty() {
                    // No move: nothing to choose.
                    assert_eq!(chosen, None);
                    continue;
                }
                let mid = |[lo, hi]: [f64; 2]| 0.5 * (lo + hi);
                let best = truth
                    .iter()
                    .map(|&(_, v)| sign * mid(v))
                    .fold(f64::NEG_INFINITY, f64::max);
                let m = chosen.expect("a move where every value is there");
                assert!(
                    sign * mid(truth[m].1) >= best - 2.0 * tolerance,
                    "move {m} gives away {} at {position:?} face {face}",
                    best - sign * mid(truth[m].1)
                );
                // Where one move beats every other by more than both tolerances, it is the
                // one played.
                let clear: Vec<usize> = (0..truth.len())
                    .filter(|&n| sign * mid(truth[n].1) > best - 4.0 * tolerance)
                    .collect();
                if truth.len() > 1 && clear.len() == 1 {
                    assert_eq!(m, clear[0]);
                    beyond_doubt += 1;
                }
            }
        }
        assert!(
            valued > 1000 && outside > 1000 && beyond_doubt > 1000,
            "{valued} {outside} {beyond_doubt}"
        );
    }

    /// The values on the command line: `advise --values` and `solve --position --values`
    /// agree with the solves they replace, fall back or refuse where the folder lacks a
    /// group, and refuse another game's folder; `exact:DIR` plays a duel and refuses another
    /// game.
    #[test]
    fn advise_solve_and_duel_read_the_values_folder() {
        let tolerance = 1e-9;
        let dir = Scratch::new("cli");
        solve_into(dir.path(), Part::OutsideCore, tolerance).unwrap();
        let folder = dir.path().to_str().unwrap();
        let game = [
            &["--a", "1..6", "--b", "1,2,2,4,5,6"][..],
            &crate::common::CHOICE_16_8_2_2[..],
        ]
        .concat();
        let run = |args: &[&str]| super::cli(&[args, &game[..]].concat());
        let json = |out: &str| -> serde_json::Value { serde_json::from_str(out).unwrap() };
        let intervals = |report: &serde_json::Value| -> Vec<[f64; 2]> {
            report["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let i = m["interval"].as_array().unwrap();
                    [i[0].as_f64().unwrap(), i[1].as_f64().unwrap()]
                })
                .collect()
        };

        // A has a piece home (outside the core) and rolls 1: two moves.
        let outside = "A:5,a B:3 turn:A";
        let advise = [
            "advise",
            "--position",
            outside,
            "--face",
            "1",
            "--format",
            "json",
        ];
        let (code, read) = run(&[&advise[..], &["--values", folder]].concat());
        assert_eq!(code, 0, "{read}");
        let (code, solved) = run(&[&advise[..], &["--tolerance", "1e-12"]].concat());
        assert_eq!(code, 0, "{solved}");
        let (read, solved) = (json(&read), json(&solved));
        assert_eq!(read["method"], "exact");
        assert!(read["note"].as_str().unwrap().contains(folder), "{read}");
        let (r, s) = (intervals(&read), intervals(&solved));
        assert!(r.len() >= 2 && r.len() == s.len(), "{read} {solved}");
        for (r, s) in r.iter().zip(&s) {
            assert!(
                r[0] <= s[0] && s[1] <= r[1] && r[1] - r[0] <= tolerance,
                "{r:?} {s:?}"
            );
        }

        // The same position's value, read and solved.
        let value = |args: &[&str]| {
            let (code, out) = run(&[args, &["--format", "json"]].concat());
            assert_eq!(code, 0, "{out}");
            let v = json(&out);
            let i = v["interval"].as_array().unwrap();
            [i[0].as_f64().unwrap(), i[1].as_f64().unwrap()]
        };
        let read = value(&["solve", "--position", outside, "--values", folder]);
        let solved = value(&["solve", "--position", outside, "--tolerance", "1e-12"]);
        assert!(
            read[0] <= solved[0] && solved[1] <= read[1],
            "{read:?} {solved:?}"
        );
        assert!(read[1] - read[0] <= tolerance, "{read:?}");

        // In the core: the advice is solved instead (and says why), the value refused.
        let core = "A:5,1 B:3 turn:A";
        let (code, out) = run(&[
            "advise",
            "--position",
            core,
            "--face",
            "3",
            "--values",
            folder,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(
            json(&out)["note"]
                .as_str()
                .unwrap()
                .contains("no values for a group a move leads into"),
            "{out}"
        );
        let (code, out) = run(&["solve", "--position", core, "--values", folder]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("no values for this position's group"), "{out}");

        // exact:DIR plays (only legal moves: the simulator plays what the strategy picks
        // from the legal ones), named as given; in another game it is refused.
        let exact = format!("exact+frontmost:{folder}");
        let plain = format!("exact:{folder}");
        let (code, out) = run(&[
            "duel",
            "--games",
            "2000",
            "--strategy-a",
            &plain,
            "--strategy-b",
            "strong",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(&format!("\"{plain}\"")), "{out}");
        let (code, out) = run(&[
            "duel",
            "--games",
            "2000",
            "--strategy-a",
            &exact,
            "--strategy-b",
            "safe",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(&exact), "{out}");
        let (code, out) = super::cli(
            &[
                &["duel", "--a", "1..6", "--b", "1..6"][..],
                &crate::common::CHOICE_16_8_2_2[..],
                &["--games", "20", "--strategy-a", &exact][..],
            ]
            .concat(),
        );
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("the files hold the game"), "{out}");
        // A fallback that draws, a nested one, and a folder without values are refused.
        for (strategy, why) in [
            (format!("exact+random:{folder}"), "random draws"),
            (format!("exact+exact:{folder}"), "expected exact:DIR"),
            (
                "exact:/nonexistent/values".to_string(),
                "/nonexistent/values",
            ),
        ] {
            let (code, out) = run(&["duel", "--games", "20", "--strategy-a", &strategy]);
            assert_eq!(code, 2, "{out}");
            assert!(out.contains(why), "{strategy}: {out}");
        }
        // Another game's folder for advice and values.
        let (code, out) = super::cli(
            &[
                &["solve", "--a", "1..6", "--b", "1..6"][..],
                &crate::common::CHOICE_16_8_2_2[..],
                &["--position", outside, "--values", folder][..],
            ]
            .concat(),
        );
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("the files hold the game"), "{out}");
    }

    /// Grading against best responses: from each entry into the part where both sides have
    /// a piece home, what `frontmost` gives away to an opponent who knows its every move
    /// (read from the values of its pair with the best response, solved with it fixed) is
    /// positive beyond doubt on both sides, and at least what it gives away to the optimal
    /// pair's policy (sampled); the games and their per-decision figures are those of a
    /// grading without it. Folders of optimal play, of a strategy not graded or of another
    /// game are refused, naming the folder.
    #[test]
    fn grading_against_best_responses_reads_the_pairs_values_at_each_entry() {
        let dir = Scratch::new("best-response");
        let folder = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let solve = |dice, extra: &[&str], name: &str| solve_both_home(dice, extra, &folder(name));
        let dice = ["1..6", "2..7"];
        solve(dice, &[], "optimal");
        solve(dice, &["--strategy-a", "frontmost"], "a-frontmost");
        solve(dice, &["--strategy-b", "frontmost"], "b-frontmost");
        solve(
            ["1..6", "1..6"],
            &["--strategy-a", "frontmost"],
            "other-game",
        );
        // In `format`, with `extra`.
        let grade_as = |format: &str, extra: &[&str]| {
            let optimal = folder("optimal");
            let mut args = vec!["grade", "--values", &optimal, "--games", "2000"];
            args.extend(["--graded", "frontmost,safe", "--format", format]);
            args.extend(extra);
            super::cli(&args)
        };
        let grade = |extra: &[&str]| grade_as("json", extra);
        let [a, b] = ["a-frontmost", "b-frontmost"].map(folder);
        let (code, out) = grade(&[
            "--against-optimal",
            "--best-response",
            &a,
            "--best-response",
            &b,
        ]);
        assert_eq!(code, 0, "{out}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let entries = report["best_response_entries"].as_u64().unwrap();
        assert_eq!(Some(entries), report["entries"].as_u64());
        assert!(entries > 100, "{entries}");
        let frontmost = &report["players"][0];
        let br = &frontmost["against_best_response"];
        for seat in ["as_a", "as_b"] {
            let low = br[seat]["interval"][0].as_f64().unwrap();
            assert!(low > 0.0, "{seat}: {br}");
        }
        let mean = br["per_entry"]["mean"].as_f64().unwrap();
        let sampled = &frontmost["against_optimal"]["per_entry"];
        assert!(
            mean >= sampled["interval"][0].as_f64().unwrap(),
            "{mean} {sampled}"
        );
        assert!(report["players"][1]["against_best_response"].is_null());
        // The table and the CSV carry the same figures.
        let responses = ["--best-response", a.as_str(), "--best-response", b.as_str()];
        let (code, csv) = grade_as("csv", &responses);
        assert_eq!(code, 0, "{csv}");
        let lines: Vec<&str> = csv.lines().collect();
        let columns: Vec<&str> = lines[0].split(',').collect();
        let at = |name: &str| columns.iter().position(|c| *c == name).unwrap();
        let frontmost_row: Vec<&str> = lines[1].split(',').collect();
        let as_a: f64 = frontmost_row[at("against_best_response_as_a")]
            .parse()
            .unwrap();
        assert_eq!(as_a, br["as_a"]["mean"].as_f64().unwrap());
        assert_eq!(
            frontmost_row[at("best_response_entries")],
            entries.to_string()
        );
        let safe_row: Vec<&str> = lines[2].split(',').collect();
        assert_eq!(safe_row[at("against_best_response_as_b")], "");
        let (code, table) = grade_as("table", &responses);
        assert_eq!(code, 0, "{table}");
        assert!(
            table.contains(&format!("against a best response, from each game's first graded decision ({entries} entries)")),
            "{table}"
        );
        // The same games as without the best responses.
        let (_, plain) = grade(&[]);
        let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
        for p in 0..2 {
            assert_eq!(
                plain["players"][p]["per_decision"],
                report["players"][p]["per_decision"]
            );
        }
        for (given, expected) in [
            (folder("optimal"), "not of a fixed strategy's pair"),
            (folder("other-game"), "not the game of --values"),
        ] {
            let (code, out) = grade(&["--best-response", &given]);
            assert_eq!(code, 2, "{out}");
            assert!(out.contains(&given) && out.contains(expected), "{out}");
        }
        let optimal = folder("optimal");
        let (code, out) = super::cli(&[
            "grade",
            "--values",
            &optimal,
            "--graded",
            "safe",
            "--best-response",
            &a,
        ]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("frontmost is not among --graded"), "{out}");
        let (code, out) = super::cli(&[
            "grade",
            "--values",
            &optimal,
            "--graded",
            "safe,frontmost,safe",
        ]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("safe named twice"), "{out}");
    }

    /// Solves the part of 16/8/2/2 where both sides have a piece home, die `dice[0]` against
    /// `dice[1]`, to 1e-9 with `extra` options, into the folder `out_dir`.
    fn solve_both_home(dice: [&str; 2], extra: &[&str], out_dir: &str) {
        let mut args = vec!["solve", "--a", dice[0], "--b", dice[1]];
        args.extend(super::common::CHOICE_16_8_2_2);
        args.extend(["--layered", "--part", "both-home", "--tolerance", "1e-9"]);
        args.extend(extra);
        args.extend(["--values-out", out_dir]);
        let (code, out) = super::cli(&args);
        assert_eq!(code, 0, "{out}");
    }

    /// With both sides rolling the same die, one seat's best-response pair serves the
    /// other seat by the mirror: for every strategy that plays both sides alike, what it
    /// gives away as B read from its pair as A (and the other way round) equals what its
    /// own pair for that seat says, entry by entry to the solves' tolerance. With different
    /// dice nothing is mirrored.
    #[test]
    fn one_seats_pair_grades_the_other_seat_by_the_mirror_where_the_dice_are_equal() {
        let dir = Scratch::new("best-response-mirror");
        let folder = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let solve = |dice, extra: &[&str], name: &str| solve_both_home(dice, extra, &folder(name));
        let same = ["1..6", "1..6"];
        let strategies = ["frontmost", "capture", "safe", "strong", "strong-search"];
        solve(same, &[], "optimal");
        for s in strategies {
            solve(same, &["--strategy-a", s], &format!("a-{s}"));
            solve(same, &["--strategy-b", s], &format!("b-{s}"));
        }
        let grade = |values: &str, seats: &[&str]| -> serde_json::Value {
            let mut args = vec![
                "grade", "--values", values, "--games", "400", "--format", "json",
            ];
            let graded = strategies.join(",");
            args.extend(["--graded", &graded]);
            let folders: Vec<String> = strategies
                .iter()
                .flat_map(|s| seats.iter().map(move |seat| folder(&format!("{seat}-{s}"))))
                .collect();
            for f in &folders {
                args.extend(["--best-response", f]);
            }
            let (code, out) = super::cli(&args);
            assert_eq!(code, 0, "{out}");
            serde_json::from_str(&out).unwrap()
        };
        let optimal = folder("optimal");
        let both = grade(&optimal, &["a", "b"]);
        assert!(
            both["best_response_entries"].as_u64().unwrap() > 20,
            "{both}"
        );
        for (given, mirrored, seat) in [("a", "as_b", 1), ("b", "as_a", 0)] {
            let one = grade(&optimal, &[given]);
            for (p, s) in strategies.iter().enumerate() {
                let [solved, read] =
                    [&both, &one].map(|r| &r["players"][p]["against_best_response"]);
                assert_eq!(read["by_mirror"], seat, "{s}: {read}");
                assert!(solved["by_mirror"].is_null(), "{s}: {solved}");
                for field in ["as_a", "as_b", "per_entry"] {
                    let [x, y] = [solved, read].map(|r| r[field]["mean"].as_f64().unwrap());
                    // Each entry's value within the two solves' brackets of 1e-9.
                    assert!((x - y).abs() <= 4e-9, "{s} {field} ({mirrored}): {x} {y}");
                }
            }
        }
        // One strategy graded with one pair, in `format`.
        let grade_one = |values: &str, strategy: &str, pair: &str, format: &str| {
            let (code, out) = super::cli(&[
                "grade",
                "--values",
                values,
                "--games",
                "400",
                "--graded",
                strategy,
                "--best-response",
                pair,
                "--format",
                format,
            ]);
            assert_eq!(code, 0, "{out}");
            out
        };
        // The table says which side was read by the mirror.
        let table = grade_one(&optimal, "safe", &folder("a-safe"), "table");
        assert!(
            table.contains("safe as B: read from its pair as A by the mirror"),
            "{table}"
        );
        // Different dice: a seat's pair serves only its seat.
        let dice = ["1..6", "2..7"];
        solve(dice, &[], "optimal-2..7");
        solve(dice, &["--strategy-a", "frontmost"], "a-frontmost-2..7");
        let [optimal, pair] = ["optimal-2..7", "a-frontmost-2..7"].map(folder);
        let out = grade_one(&optimal, "frontmost", &pair, "json");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let read = &report["players"][0]["against_best_response"];
        assert!(
            read["as_a"]["mean"].is_f64() && read["as_b"].is_null(),
            "{read}"
        );
        assert!(read["by_mirror"].is_null(), "{read}");
    }

    /// A folder of the whole part outside the core, graded with `--part both-home`, grades
    /// exactly the decisions a folder of the part where both sides have a piece home
    /// grades, with the same figures, so that part's best responses can be read beside it;
    /// without `--part` the pair is refused (its values miss the earlier entries), and a
    /// folder holding none of the part is refused.
    #[test]
    fn a_folder_of_more_groups_is_graded_as_the_part_asked_for() {
        let dir = Scratch::new("grade-part");
        let folder = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let same = ["1..6", "1..6"];
        solve_both_home(same, &[], &folder("both-home"));
        solve_both_home(same, &["--strategy-a", "safe"], &folder("a-safe"));
        let mut args = vec!["solve", "--a", "1..6", "--b", "1..6"];
        args.extend(super::common::CHOICE_16_8_2_2);
        let outside = folder("outside-core");
        args.extend(["--layered", "--part", "outside-core", "--tolerance", "1e-9"]);
        args.extend(["--values-out", &outside]);
        let (code, out) = super::cli(&args);
        assert_eq!(code, 0, "{out}");
        let pair = folder("a-safe");
        let grade = |values: &str, part: Option<&str>| {
            let mut args = vec!["grade", "--values", values, "--games", "400"];
            args.extend(["--graded", "safe,strong", "--against-optimal"]);
            args.extend(["--best-response", &pair, "--format", "json"]);
            if let Some(part) = part {
                args.extend(["--part", part]);
            }
            super::cli(&args)
        };
        let (code, out) = grade(&outside, None);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("same part of the game"), "{out}");
        let [(code_all, all), (code_part, part)] = [
            grade(&folder("both-home"), None),
            grade(&outside, Some("both-home")),
        ];
        assert_eq!((code_all, code_part), (0, 0), "{all}\n{part}");
        let [mut all, mut part]: [serde_json::Value; 2] =
            [all, part].map(|o| serde_json::from_str(&o).unwrap());
        assert!(all["graded_decisions"].as_u64().unwrap() > 100, "{all}");
        assert_eq!(part["part"], "both-home");
        assert!(all["part"].is_null());
        assert_eq!(all["groups_held"], part["groups_held"]);
        // Everything else is the same: the counts exactly, the figures within the two
        // solves' brackets of 1e-9 (the part was solved twice); a move "not the best" by a
        // margin below that may differ, so those counts are left out.
        for report in [&mut all, &mut part] {
            let report = report.as_object_mut().unwrap();
            report.remove("values");
            report.remove("part");
            for player in report["players"].as_array_mut().unwrap() {
                player.as_object_mut().unwrap().remove("other_than_best");
            }
        }
        fn agree(x: &serde_json::Value, y: &serde_json::Value, at: &str) {
            use serde_json::Value::{Array, Number, Object};
            match (x, y) {
                (Object(x), Object(y)) => {
                    assert_eq!(
                        x.keys().collect::<Vec<_>>(),
                        y.keys().collect::<Vec<_>>(),
                        "{at}"
                    );
                    for (k, v) in x {
                        agree(v, &y[k], &format!("{at}.{k}"));
                    }
                }
                (Array(x), Array(y)) => {
                    assert_eq!(x.len(), y.len(), "{at}");
                    for (i, (v, w)) in x.iter().zip(y).enumerate() {
                        agree(v, w, &format!("{at}[{i}]"));
                    }
                }
                (Number(v), Number(w)) if v.is_f64() || w.is_f64() => {
                    let (v, w) = (v.as_f64().unwrap(), w.as_f64().unwrap());
                    assert!((v - w).abs() <= 4e-9, "{at}: {v} {w}");
                }
                _ => assert_eq!(x, y, "{at}"),
            }
        }
        agree(&all, &part, "grade");
        // A folder holding none of the part: the groups where only one side has a piece home.
        let one_side = dir.path().join("one-side");
        std::fs::create_dir(&one_side).unwrap();
        for entry in std::fs::read_dir(&outside).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.starts_with("group-a0-") || name.contains("-b0.") {
                std::fs::copy(
                    dir.path().join("outside-core").join(&name),
                    one_side.join(&name),
                )
                .unwrap();
            }
        }
        let one_side = one_side.to_str().unwrap();
        let (code, out) = grade(one_side, Some("both-home"));
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("holds no group of --part both-home"), "{out}");
    }

    /// Grading: the exact player loses nothing at any graded decision, `frontmost` loses
    /// beyond doubt; the figures are the same on one thread and on two. Played on against
    /// the optimal opponent, the exact player gives nothing away and `frontmost` more than
    /// `strong`; asking for that leaves the figures per decision as they were.
    #[test]
    fn grading_charges_the_exact_player_nothing_and_frontmost_beyond_doubt() {
        use wuerfelglueck::experiments::grading::{Grading, grade};
        use wuerfelglueck::sim::StreamKey;
        use wuerfelglueck::strategy::Strategy;
        let tolerance = 1e-9;
        let dir = Scratch::new("grade");
        solve_into(dir.path(), Part::OutsideCore, tolerance).unwrap();
        let values = LayeredValues::open_dir(dir.path()).unwrap();
        let parse = |name: &str| -> Strategy { name.parse().unwrap() };
        let exact = format!("exact+frontmost:{}", dir.path().display());
        let grading = Grading {
            values: &values,
            played: [parse("strong"), parse("safe")],
            graded: vec![parse(&exact), parse("frontmost"), parse("strong")],
            games: 600,
            key: StreamKey::new(7),
            max_rolls: 100_000,
            against_optimal: true,
            best_responses: Vec::new(),
        };
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| grade(&grading, &|_| {}).unwrap())
        };
        let (one, two) = (on(1), on(2));
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            serde_json::to_string(&two).unwrap()
        );
        let without = grade(
            &Grading {
                against_optimal: false,
                ..grading
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(without.entries, None);
        for (with, without) in one.players.iter().zip(&without.players) {
            assert_eq!(with.per_decision, without.per_decision);
            assert_eq!(with.per_game, without.per_game);
            assert!(without.against_optimal.is_none());
        }
        let entries = one.entries.unwrap();
        // Games that never reach a graded decision (the first graded one, which every
        // continuation starts from) have no entry.
        assert!(
            entries > 300 && entries <= 600,
            "{entries} of 600 games reached a graded decision"
        );
        assert_eq!(one.against_optimal_unfinished, Some(0));
        let against = |p: &wuerfelglueck::experiments::grading::PlayerGrade| {
            p.against_optimal.clone().unwrap()
        };
        assert!(
            one.graded_decisions > 300 && one.decisions > one.graded_decisions,
            "{one:?}"
        );
        let [exact, frontmost, strong] = &one.players[..] else {
            panic!("three players")
        };
        assert_eq!(
            (exact.other_than_best, exact.beyond_doubt),
            (0, 0),
            "{exact:?}"
        );
        assert_eq!(exact.per_decision.mean, 0.0);
        assert!(frontmost.beyond_doubt > 50, "{frontmost:?}");
        // frontmost's loss lies beyond strong's (their intervals apart).
        assert!(
            frontmost.per_decision.interval[0] > strong.per_decision.interval[1],
            "{frontmost:?} {strong:?}"
        );
        // Against the optimal opponent: the exact player plays the optimal policy itself.
        let (exact, frontmost, strong) = (against(exact), against(frontmost), against(strong));
        assert_eq!(exact.per_entry.mean, 0.0, "{exact:?}");
        assert!(exact.decisions > entries, "{exact:?}");
        assert!(
            frontmost.per_entry.interval[0] > strong.per_entry.interval[1],
            "{frontmost:?} {strong:?}"
        );
    }

    /// Over the whole game (the values of every group, so that every decision is graded
    /// and every game's first decision with a choice is an entry), what `grade
    /// --against-optimal` charges a strategy per game is what it gives away exactly: the
    /// mean of its loss as A against the optimal policy and as B, each from the exact
    /// evaluation of the strategy against `exact:DIR`. The sampled figure lies within 3.3
    /// of its standard errors of the exact one (a two-sided test at 0.1 %, its seed fixed),
    /// and the exact loss lies more than 10 of them above zero (the test can fail).
    #[test]
    fn over_the_whole_game_the_loss_against_optimal_play_is_the_exact_loss() {
        use wuerfelglueck::experiments::grading::{Grading, grade};
        use wuerfelglueck::sim::StreamKey;
        use wuerfelglueck::strategy::Strategy;
        let dir = Scratch::new("grade-whole-game");
        solve_into(dir.path(), Part::All, 1e-9).unwrap();
        let values = LayeredValues::open_dir(dir.path()).unwrap();
        let parse = |name: &str| -> Strategy { name.parse().unwrap() };
        let games = 40000;
        let graded = ["frontmost", "safe"];
        let report = grade(
            &Grading {
                values: &values,
                played: [parse("strong"), parse("strong")],
                graded: graded.iter().map(|name| parse(name)).collect(),
                games,
                key: StreamKey::new(11),
                max_rolls: 100_000,
                against_optimal: true,
                best_responses: Vec::new(),
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(
            report.graded_decisions, report.decisions,
            "every decision graded"
        );
        assert_eq!(report.against_optimal_unfinished, Some(0));
        let entries = report.entries.unwrap();
        let exact = format!("exact:{}", dir.path().display());
        let (rules, dice) = game();
        let p_a = |a: &str, b: &str| -> f64 {
            // The game of `game()`.
            assert_eq!(rules.board().to_string(), "16/8/2/2");
            let (die_a, die_b) = (dice[0].to_string(), dice[1].to_string());
            let args = [
                &["solve", "--a", &die_a, "--b", &die_b][..],
                &crate::common::CHOICE_16_8_2_2[..],
                &["--strategy-a", a, "--strategy-b", b, "--format", "json"][..],
            ]
            .concat();
            let (code, out) = super::cli(&args);
            assert_eq!(code, 0, "{out}");
            let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
            solved["p_a"].as_f64().unwrap()
        };
        let optimal = p_a(&exact, &exact);
        // Games without a decision with a choice give nothing away: per game, the figure
        // per entry times the share of games with an entry.
        let share = entries as f64 / games as f64;
        for (name, player) in graded.iter().zip(&report.players) {
            // In values P(A wins) - P(B wins) = 2 P(A wins) - 1, seen from the strategy.
            let as_a = 2.0 * (optimal - p_a(name, &exact));
            let as_b = 2.0 * (p_a(&exact, name) - optimal);
            let expected = (as_a + as_b) / 2.0;
            let against = player.against_optimal.clone().unwrap();
            let [lo, hi] = against.per_entry.interval;
            let (mean, standard_error) = (against.per_entry.mean * share, (hi - lo) / 3.92 * share);
            assert!(
                (mean - expected).abs() <= 3.3 * standard_error,
                "{name}: {mean} ± {standard_error} sampled, {expected} exactly"
            );
            assert!(expected > 10.0 * standard_error, "{name}: {expected}");
        }
    }
}
