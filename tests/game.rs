//! The game with choices (`choice`): its exact solver against the rules-fixed solver, against
//! hand-checkable positions, and the optimal pair against fixed strategies.

use approx::assert_abs_diff_eq;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::game::policy::{Decision, FrontmostPolicy, MovePolicy, Pick};
use wuerfelglueck::exact::game::{GameSolution, Side, solve_game};
use wuerfelglueck::exact::{SolveOptions, solve_matchup};
use wuerfelglueck::rules::{Board, Rules};

fn rules(board: &str, profile: &str) -> Rules {
    Rules::new(
        board.parse::<Board>().unwrap(),
        profile.parse().expect("profile"),
    )
}

fn die(faces: &str) -> Die {
    faces.parse().unwrap()
}

fn options() -> SolveOptions {
    SolveOptions::new(1e-12, 100_000, None).unwrap()
}

fn game(board: &str, profile: &str, a: &str, b: &str, sides: [Side<'_>; 2]) -> GameSolution {
    solve_game(
        &rules(board, profile),
        [&die(a), &die(b)],
        sides,
        &options(),
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
            let fixed = solve_matchup(&rules(board, "bwinf"), &die(a), &die(b), &options())
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
    for board in ["12/6/1/1", "16/8/2/2"] {
        for profile in ["choice", "choice+capture-duty"] {
            let opt = game(board, profile, "1..6", "1..6", [Side::Optimal, Side::Optimal]);
            assert!(opt.value_certified && opt.pair_certified, "{board} {profile}");
            assert_eq!(opt.end_component_states, 0, "1..6 against 1..6 always ends");
            assert!(opt.pair_attains_value);
            let v = opt.value_if_a_starts.mid();
            // Same dice, A starting: the value is the first player's edge.
            assert!(v > 0.0, "{board}: {v}");
            for h in heuristics {
                // Optimal A against a fixed B does at least as well as the value, and
                // exactly as well as the best response, which is at least the value.
                let vs = game(board, profile, "1..6", "1..6", [Side::Optimal, Side::Fixed(h)]);
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
                        pa.p_a_if_a_starts - pa.p_b_if_a_starts
                            <= vs.value_if_a_starts.hi + 1e-10
                    );
                    assert!(
                        pa.p_a_if_b_starts - pa.p_b_if_b_starts
                            <= vs.value_if_b_starts.hi + 1e-10
                    );
                }
            }
        }
    }
}
