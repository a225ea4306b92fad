//! Three and four players (`docs/src/rules.md`, "Three and four players"): each rule on a
//! hand-built position, the two-seat table against the duel engine roll by roll, and the
//! simulator's counts.

// Seats are numbers in these positions; indexing by seat reads like the rules.
#![allow(clippy::needless_range_loop)]

use approx::assert_abs_diff_eq;
use rand::RngExt;
use wuerfelglueck::dice::Die;
use wuerfelglueck::rules::{
    Board, GameState, MAX_SEATS, Profile, Rules, SeatState, Seats, SeatsError,
};
use wuerfelglueck::sim::{Seating, StreamKey, Table, TableError, TableStop};
use wuerfelglueck::stats;

mod common;

use common::pieces as mask;

fn table(players: usize) -> Seats {
    Seats::new(Rules::bwinf(), players).unwrap()
}

fn state(pieces: [u64; MAX_SEATS], to_move: u8) -> SeatState {
    SeatState {
        pieces,
        to_move,
        tries: 0,
    }
}

#[test]
fn seats_start_a_quarter_of_the_track_apart() {
    let four = table(4);
    let starts: Vec<u32> = (0..4).map(|s| four.start_field(s)).collect();
    assert_eq!(starts, [0, 10, 20, 30]);
    // Seat 3's field 15 is seat 0's field 45 mod 40 = 5, and seat 1's field 35.
    assert_eq!(four.field_for(3, 0, 15), 5);
    assert_eq!(four.field_for(3, 1, 15), 35);
    assert_eq!(four.field_for(0, 2, 25), 5);
    // Three players use seats 0, 1 and 2; seat 3's place stays empty.
    let three = table(3);
    let starts: Vec<u32> = (0..3).map(|s| three.start_field(s)).collect();
    assert_eq!(starts, [0, 10, 20]);
    assert_eq!(three.start().pieces, [1, 1, 1, 0]);
    // On a track of 20 fields the seats are 5 apart.
    let small = Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::BWINF);
    let small = Seats::new(small, 4).unwrap();
    let starts: Vec<u32> = (0..4).map(|s| small.start_field(s)).collect();
    assert_eq!(starts, [0, 5, 10, 15]);
    // Two players keep the board's offset, whatever it is.
    let two = Rules::new(Board::new(40, 13, 4, 4).unwrap(), Profile::BWINF);
    assert_eq!(Seats::new(two, 2).unwrap().start_field(1), 13);
}

#[test]
fn a_landing_captures_a_piece_of_any_other_seat() {
    let four = table(4);
    // Seat 0: one piece on 5, three fill the goal's top fields: a 3 moves the piece to 8.
    let own = mask(&[5, 41, 42, 43]);
    for victim in 1..4 {
        let there = four.field_for(0, victim, 8);
        let mut pieces = [0u64; MAX_SEATS];
        pieces[0] = own;
        for seat in 1..4 {
            // Every other seat has a piece elsewhere, the victim one on the landing field.
            pieces[seat] = if seat == victim {
                mask(&[there, 2])
            } else {
                mask(&[2])
            };
        }
        let mut s = state(pieces, 0);
        let turn = four.play_roll(&mut s, 3);
        assert!(turn.moved);
        assert_eq!(turn.captured, Some((victim, there)));
        assert_eq!(s.pieces[0], mask(&[8, 41, 42, 43]));
        for seat in 1..4 {
            assert_eq!(s.pieces[seat], mask(&[2]), "seat {seat}");
        }
    }
    // Goal fields are no shared fields: moving into the goal captures nothing.
    let mut pieces = [0u64; MAX_SEATS];
    pieces[0] = mask(&[38, 41, 42, 43]);
    // Seat 1's field 30 is seat 0's 40 mod 40 = 0: not the goal field a.
    pieces[1] = mask(&[30]);
    let mut s = state(pieces, 0);
    let turn = four.play_roll(&mut s, 2);
    assert_eq!(turn.captured, None);
    assert_eq!(s.pieces[0], mask(&[40, 41, 42, 43]));
    assert_eq!(s.pieces[1], mask(&[30]));
}

#[test]
fn bringing_a_piece_in_captures_any_other_seat_on_that_start_field() {
    for players in [3, 4] {
        let t = table(players);
        for mover in 0..players {
            for victim in (0..players).filter(|&v| v != mover) {
                let mut pieces = [0u64; MAX_SEATS];
                for seat in 0..players {
                    // Everyone has a piece on its field 3 (distinct shared fields).
                    pieces[seat] = mask(&[3]);
                }
                // The victim's piece stands on the mover's A.
                let on_a = t.field_for(mover, victim, 0);
                pieces[victim] |= mask(&[on_a]);
                let mut s = state(pieces, mover as u8);
                let turn = t.play_roll(&mut s, 6);
                assert_eq!(turn.captured, Some((victim, on_a)));
                assert_eq!(s.pieces[mover], mask(&[0, 3]));
                assert_eq!(s.pieces[victim], mask(&[3]));
                // A 6 rolls again.
                assert!(!turn.passes);
                assert_eq!(s.to_move as usize, mover);
            }
        }
    }
}

#[test]
fn turns_go_round_the_table_and_a_six_rolls_again() {
    for players in [2, 3, 4] {
        let t = table(players);
        let mut s = t.start();
        let mut order = vec![s.to_move];
        for face in [2, 6, 3, 1, 5, 4] {
            t.play_roll(&mut s, face);
            order.push(s.to_move);
        }
        let p = players as u8;
        // 2 passes, 6 stays, then one seat on per roll.
        assert_eq!(order, [0, 1, 1, 2 % p, 3 % p, 4 % p, 5 % p]);
    }
}

#[test]
fn the_first_seat_with_every_piece_home_wins() {
    let four = table(4);
    for mover in 0..4 {
        let mut pieces = [mask(&[5]); MAX_SEATS];
        pieces[mover] = mask(&[39, 41, 42, 43]);
        let mut s = state(pieces, mover as u8);
        let turn = four.play_roll(&mut s, 1);
        assert!(turn.won);
        assert!(!turn.passes);
        assert_eq!(s.to_move as usize, mover);
        assert!(four.rules().has_won(s.pieces[mover]));
    }
    // A simulated game ends at the first winner: every win is one seat's.
    let dice = [Die::standard(), Die::standard(), Die::standard()];
    let three = table(3);
    let refs: Vec<&Die> = dice.iter().collect();
    let t = Table::new(&three, &refs, 100_000, Seating::Fixed).unwrap();
    let counts = t.play_chunk(StreamKey::new(4), 0, 300);
    let wins: u64 = (0..3).map(|i| counts.wins_of(i)).sum();
    assert_eq!(counts.games, 300);
    assert_eq!(wins + counts.unfinished, counts.games);
}

/// The two-seat table and the duel engine make the same moves on the same faces.
#[test]
fn two_seats_play_exactly_as_a_duel() {
    let boards = [
        (Board::BWINF, "bwinf"),
        (Board::new(40, 13, 4, 4).unwrap(), "bwinf+goal-last"),
        (Board::new(20, 10, 2, 2).unwrap(), "bwinf+three-tries"),
        (Board::new(12, 5, 3, 4).unwrap(), "bwinf+no-jump-in-goal"),
    ];
    let mut rng = StreamKey::new(9).rng(0);
    for (board, profile) in boards {
        let rules = Rules::new(board, profile.parse().unwrap());
        let seats = Seats::new(rules, 2).unwrap();
        for _ in 0..200 {
            let mut duel = GameState::start(0);
            let mut at_table = seats.start();
            for _ in 0..2_000 {
                let face = rng.random_range(0..8u32);
                let outcome = rules.play_roll(&mut duel, face);
                let turn = seats.play_roll(&mut at_table, face);
                assert_eq!(at_table.pieces[..2], duel.pieces);
                assert_eq!(at_table.to_move, duel.to_move);
                assert_eq!(at_table.tries, duel.tries);
                assert_eq!(turn.captured.map(|(_, f)| f), outcome.captured);
                assert_eq!(turn.won, outcome.winner.is_some());
                if turn.won {
                    break;
                }
            }
        }
    }
}

#[test]
fn switches_without_a_meaning_at_a_table_are_refused() {
    let roll_off = Rules::new(Board::BWINF, "bwinf+roll-off".parse().unwrap());
    for players in [2, 3, 4] {
        let e = Seats::new(roll_off, players).unwrap_err();
        assert!(matches!(&e, SeatsError::Switch { name, .. } if name == "roll-off"));
        assert!(e.to_string().contains("roll-off"), "{e}");
    }
    // `choice` and `capture-duty` have a meaning at a table: every seat picks its own moves.
    for switch in ["choice", "choice+capture-duty"] {
        let profile = format!("bwinf+{switch}").parse::<Profile>().unwrap();
        assert!(Seats::new(Rules::new(Board::BWINF, profile), 3).is_ok());
    }
    let fine = Rules::new(
        Board::BWINF,
        "goal-last+no-jump-in-goal+three-tries".parse().unwrap(),
    );
    assert!(Seats::new(fine, 4).is_ok());
    assert_eq!(
        Seats::new(Rules::bwinf(), 5).unwrap_err(),
        SeatsError::Players(5)
    );
    assert_eq!(
        Seats::new(Rules::bwinf(), 1).unwrap_err(),
        SeatsError::Players(1)
    );
    let skewed = Rules::new(Board::new(40, 15, 4, 4).unwrap(), Profile::BWINF);
    assert_eq!(
        Seats::new(skewed, 3).unwrap_err(),
        SeatsError::Offset {
            offset: 15,
            expected: 20
        }
    );
}

#[test]
fn a_table_needs_one_die_per_seat_and_whole_rounds() {
    let four = table(4);
    let d = Die::standard();
    let e = Table::new(&four, &[&d, &d, &d], 100, Seating::All).unwrap_err();
    assert_eq!(
        e,
        TableError::DiceCount {
            dice: 3,
            players: 4
        }
    );
    assert_eq!(
        Table::new(&four, &[&d, &d, &d, &d], 0, Seating::All).unwrap_err(),
        TableError::NoRolls
    );
    let t = Table::new(&four, &[&d, &d, &d, &d], 100, Seating::All).unwrap();
    assert_eq!(t.round_games(), 24);
    assert!(matches!(t.check_games(25), Err(TableError::Games { .. })));
    assert!(matches!(t.check_games(0), Err(TableError::Games { .. })));
    assert_eq!(t.check_games(48), Ok(48));
    let fixed = Table::new(&four, &[&d, &d, &d, &d], 100, Seating::Fixed).unwrap();
    assert_eq!(fixed.check_games(25), Ok(25));
    assert!(t.stopping(None, 0.0).is_err());
    assert!(t.stopping(None, 1e-9).is_err());
}

#[test]
fn every_die_sits_in_every_seat_equally_often_and_the_counts_add_up() {
    let four = table(4);
    let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "0..9", "1..20"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let refs: Vec<&Die> = dice.iter().collect();
    let t = Table::new(&four, &refs, 100_000, Seating::All).unwrap();
    let games = 24 * 200;
    let counts = t
        .run(StreamKey::new(3), TableStop::Games(games), &|_| {})
        .unwrap();
    assert_eq!(counts.games, games);
    for s in 0..4 {
        for i in 0..4 {
            assert_eq!(counts.seated[s][i], games / 4);
        }
    }
    let wins: u64 = (0..4).map(|i| counts.wins_of(i)).sum();
    assert_eq!(wins + counts.unfinished, games);
    // The same seed gives the same counts on one thread and on two.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| t.run(StreamKey::new(3), TableStop::Games(games), &|_| {}))
        .unwrap();
    assert_eq!(one, counts);
}

/// Four equal dice at a table in every seating: each wins a quarter, within the sampling error.
#[test]
fn equal_dice_share_the_wins_evenly() {
    let four = table(4);
    let d = Die::standard();
    let t = Table::new(&four, &[&d, &d, &d, &d], 100_000, Seating::All).unwrap();
    let games = 24 * 2_000;
    let counts = t
        .run(StreamKey::new(11), TableStop::Games(games), &|_| {})
        .unwrap();
    assert_eq!(counts.unfinished, 0);
    for i in 0..4 {
        // Five standard errors: a false alarm about once in 1.7 million runs per die.
        let se = (0.25f64 * 0.75 / games as f64).sqrt();
        assert_abs_diff_eq!(counts.p_win(i), 0.25, epsilon = 5.0 * se);
    }
}

/// Dice without a 6 at a table of four pieces each: nobody brings a second piece in, so no
/// game ends, and each is recognised as never-ending, not counted for anybody.
#[test]
fn games_that_cannot_end_are_counted_apart() {
    let three = table(3);
    let d: Die = "1..5".parse().unwrap();
    let t = Table::new(&three, &[&d, &d, &d], 100_000, Seating::All).unwrap();
    let counts = t
        .run(StreamKey::new(5), TableStop::Games(60), &|_| {})
        .unwrap();
    assert_eq!(counts.games, 60);
    assert_eq!(counts.unfinished, 60);
    assert_eq!(counts.endless, 60);
    assert_eq!((0..3).map(|i| counts.wins_of(i)).sum::<u64>(), 0);
}

/// A precision run keeps its promise for every die, not only the first.
#[test]
fn the_precision_rule_holds_for_every_die() {
    let three = table(3);
    let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "2..7"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let refs: Vec<&Die> = dice.iter().collect();
    let t = Table::new(&three, &refs, 100_000, Seating::All).unwrap();
    let stop = t.stopping(None, 0.01).unwrap();
    let counts = t.run(StreamKey::new(2), stop, &|_| {}).unwrap();
    for i in 0..3 {
        let ci = stats::wilson(counts.wins_of(i), counts.games, stats::Z95);
        assert!(ci.half_width() <= 0.01);
    }
    assert_eq!(counts.games % 6, 0);
}

mod exact {
    //! The exact N-player chain against the two-player solver and against simulation.

    use super::*;
    use wuerfelglueck::exact::SolveOptions;
    use wuerfelglueck::exact::seats::{solve_all_seatings, solve_seats};

    fn options(tolerance: f64) -> SolveOptions {
        SolveOptions::new(tolerance, 1_000_000, None).unwrap()
    }

    fn seats_on(board: &str, profile: &str, players: usize) -> Seats {
        let rules = Rules::new(board.parse().unwrap(), profile.parse().unwrap());
        Seats::new(rules, players).unwrap()
    }

    /// With two seats the chain is the duel's: the same figures as the two-player solver.
    #[test]
    fn two_seats_agree_with_the_two_player_solver() {
        for (board, profile, a, b) in [
            ("12/6/2/2", "bwinf", "1..6", "1,1,1,6,6,6"),
            ("10/3/2/3", "bwinf+three-tries", "1..6", "2..7"),
            ("10/5/2/2", "bwinf+goal-last+no-jump-in-goal", "1,6", "1..6"),
        ] {
            let seats = seats_on(board, profile, 2);
            let (da, db): (Die, Die) = (a.parse().unwrap(), b.parse().unwrap());
            let mine = solve_seats(&seats, &[&da, &db], &options(1e-12)).unwrap();
            let theirs =
                wuerfelglueck::exact::solve_matchup(seats.rules(), &da, &db, &options(1e-12))
                    .unwrap();
            approx::assert_abs_diff_eq!(mine.p(0), theirs.p_a_if_a_starts, epsilon = 1e-10);
            approx::assert_abs_diff_eq!(mine.p(1), theirs.p_b_if_a_starts, epsilon = 1e-10);
            approx::assert_abs_diff_eq!(
                mine.p_never.lo,
                theirs.p_never_if_a_starts,
                epsilon = 1e-10
            );
            for s in 0..2 {
                assert!(mine.p_win[s].hi - mine.p_win[s].lo <= 1e-12 + 1e-15);
            }
        }
    }

    /// `z = (simulated - exact) / standard error` for every seat, within 4.5 (a false
    /// alarm about once in 150,000 comparisons), plus the certified width.
    fn assert_agrees(exact: &[(f64, f64)], wins: &[u64], games: u64, what: &str) {
        for (s, (&(lo, hi), &w)) in exact.iter().zip(wins).enumerate() {
            let p = (lo + hi) / 2.0;
            let se = (p * (1.0 - p) / games as f64).sqrt().max(1e-12);
            let sim = w as f64 / games as f64;
            let z = (sim - p).abs() / se;
            assert!(
                z <= 4.5 + (hi - lo) / se,
                "{what}, seat/die {s}: simulated {sim}, exact [{lo}, {hi}], z = {z:.2}"
            );
        }
    }

    #[test]
    fn fixed_seats_agree_with_simulation() {
        let standard = Die::standard();
        let sixes: Die = "1,1,1,6,6,6".parse().unwrap();
        let wide: Die = "0..9".parse().unwrap();
        for (board, players, dice) in [
            // One piece each on the full track, three players.
            ("40/20/1/4", 3, vec![&standard, &sixes, &wide]),
            // One piece each, four players on a shorter track.
            ("20/10/1/2", 4, vec![&standard, &sixes, &wide, &standard]),
            // Two pieces each on a small board, three players.
            ("10/5/2/2", 3, vec![&wide, &standard, &sixes]),
        ] {
            let seats = seats_on(board, "bwinf", players);
            let exact = solve_seats(&seats, &dice, &options(1e-10)).unwrap();
            let bounds: Vec<(f64, f64)> = exact.p_win.iter().map(|b| (b.lo, b.hi)).collect();
            let sum: f64 = (0..players).map(|s| exact.p(s)).sum::<f64>() + exact.p_never.lo;
            approx::assert_abs_diff_eq!(sum, 1.0, epsilon = 1e-9);
            let table = Table::new(&seats, &dice, 1_000_000, Seating::Fixed).unwrap();
            let games = 60_000;
            let counts = table
                .run(StreamKey::new(21), TableStop::Games(games), &|_| {})
                .unwrap();
            let wins: Vec<u64> = (0..players).map(|s| counts.wins[s][s]).collect();
            assert_agrees(&bounds, &wins, games, board);
        }
    }

    #[test]
    fn all_seatings_agree_with_simulation() {
        let seats = seats_on("20/10/1/2", "bwinf", 3);
        let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "2..7"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        let refs: Vec<&Die> = dice.iter().collect();
        let exact = solve_all_seatings(&seats, &refs, &options(1e-10)).unwrap();
        let table = Table::new(&seats, &refs, 1_000_000, Seating::All).unwrap();
        let games = 6 * 10_000;
        let counts = table
            .run(StreamKey::new(8), TableStop::Games(games), &|_| {})
            .unwrap();
        let bounds: Vec<(f64, f64)> = exact.iter().map(|b| (b.lo, b.hi)).collect();
        let wins: Vec<u64> = (0..3).map(|i| counts.wins_of(i)).collect();
        assert_agrees(&bounds, &wins, games, "all seatings");
    }
}

mod cli {
    //! `table`, `rank --players` and `play --players` as a user runs them.

    use crate::common::run_captured;

    #[test]
    fn a_ranking_at_tables_never_prints_an_interval_of_width_zero() {
        // Regression: with 24 games at one table of four, a die that won no game got
        // `0.0000 [0.0000, 0.0000]` (a normal interval around a mean of 0).
        let dir = std::env::temp_dir().join(format!("wg-zero-width-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("dice.txt");
        std::fs::write(
            &file,
            "4\n6 1 1 1 1 1 6\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n6 1 6 6 6 6 6\n",
        )
        .unwrap();
        let (code, out, err) = run_captured(&[
            "rank",
            file.to_str().unwrap(),
            "--players",
            "4",
            "--games",
            "24",
            "--track",
            "16",
            "--pieces",
            "2",
            "--goal-fields",
            "2",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let ranking = v["ranking"].as_array().unwrap();
        assert_eq!(ranking.len(), 4);
        for e in ranking {
            let (lo, hi) = (
                e["ci95"][0].as_f64().unwrap(),
                e["ci95"][1].as_f64().unwrap(),
            );
            let p = e["mean_p_win"].as_f64().unwrap();
            assert!(hi - lo > 0.01 && lo <= p && p <= hi, "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn table_json_has_the_documented_fields() {
        let (code, out, err) = run_captured(&[
            "table",
            "--die",
            "1..6",
            "--die",
            "1,1,1,6,6,6",
            "--die",
            "0..9",
            "--die",
            "1..20",
            "--games",
            "2400",
            "--seed",
            "5",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for key in [
            "dice",
            "players",
            "p_win",
            "ci95",
            "unfinished",
            "per_seat",
            "games",
            "seed",
            "profile",
            "board",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["players"], 4);
        assert_eq!(v["games"], 2400);
        assert_eq!(v["dice"][1], "1,1,1,6,6,6");
        assert_eq!(v["p_win"].as_array().unwrap().len(), 4);
        assert_eq!(v["per_seat"].as_array().unwrap().len(), 4);
        let sum: f64 = v["p_win"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .sum();
        let unfinished = v["unfinished"].as_f64().unwrap() / 2400.0;
        approx::assert_abs_diff_eq!(sum + unfinished, 1.0, epsilon = 1e-12);
        for i in 0..4 {
            let ci = &v["ci95"][i];
            let p = v["p_win"][i].as_f64().unwrap();
            assert!(ci[0].as_f64().unwrap() <= p && p <= ci[1].as_f64().unwrap());
        }
        // CSV: one row per die after the header.
        let (code, csv, _) = run_captured(&[
            "table", "--die", "1..6", "--die", "2..7", "--die", "0..9", "--games", "600",
            "--format", "csv",
        ]);
        assert_eq!(code, 0);
        assert_eq!(csv.lines().count(), 4);
        assert!(csv.starts_with("die,strategy,p_win,ci95_lo,ci95_hi,p_win_seat0"));
    }

    #[test]
    fn bad_tables_are_refused_with_the_option_at_fault() {
        for (args, needle) in [
            (vec!["table", "--die", "1..6"], "--die"),
            (
                vec![
                    "table", "--die", "1..6", "--die", "1..6", "--die", "1..6", "--games", "7",
                ],
                "--games",
            ),
            (
                vec![
                    "table",
                    "--die",
                    "1..6",
                    "--die",
                    "1..6",
                    "--die",
                    "1..6",
                    "--profile",
                    "roll-off",
                ],
                "roll-off",
            ),
            (
                vec![
                    "table", "--die", "1..6", "--die", "1..6", "--die", "1..6", "--offset", "7",
                ],
                "--offset",
            ),
            (
                vec!["rank", "data/wuerfel0.txt", "--players", "5"],
                "--players",
            ),
            (
                vec!["rank", "data/wuerfel2.txt", "--players", "4", "--exact"],
                "--exact",
            ),
            (
                vec!["play", "--a", "1..6", "--b", "1..6", "--players", "3"],
                "--die",
            ),
        ] {
            let (code, _, err) = run_captured(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }

    #[test]
    fn rank_at_tables_marks_the_fair_share_and_the_pairwise_rank() {
        let (code, out, err) = run_captured(&[
            "rank",
            "data/wuerfel2.txt",
            "--players",
            "4",
            "--games",
            "2400",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["players"], 4);
        approx::assert_abs_diff_eq!(v["fair_share"].as_f64().unwrap(), 0.25);
        // Five dice: C(5, 4) = 5 tables, each die at 4 of them.
        assert_eq!(v["tables"].as_array().unwrap().len(), 5);
        assert_eq!(v["ranking"].as_array().unwrap().len(), 5);
        assert_eq!(v["pairwise"].as_array().unwrap().len(), 5);
        for e in v["ranking"].as_array().unwrap() {
            assert_eq!(e["tables"], 4);
        }
        let (code, text, _) = run_captured(&[
            "rank",
            "data/wuerfel2.txt",
            "--players",
            "3",
            "--games",
            "600",
        ]);
        assert_eq!(code, 0);
        assert!(text.contains("1/3 = 0.3333"), "{text}");
        assert!(text.contains("pairwise"), "{text}");
    }

    #[test]
    fn play_at_a_table_shows_every_seat() {
        let (code, out, err) = run_captured(&[
            "play",
            "--players",
            "4",
            "--a",
            "1..6",
            "--b",
            "1..6",
            "--die",
            "1..6",
            "--die",
            "1,1,1,6,6,6",
            "--seed",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        let first_roll = out
            .lines()
            .find(|l| l.trim_start().starts_with("1 "))
            .unwrap();
        for seat in ["A:", "B:", "C:", "D:"] {
            assert!(first_roll.contains(seat), "{first_roll}");
        }
        assert!(out.trim_end().ends_with("rolls."), "{out}");
    }
}

/// The larger cross-check of `docs/src/tables.md`: one piece each on the full 40-field track, three
/// and four players, exact against 4,000,000 simulated games per table (fixed seats).
/// A second for three players, a minute or two for four (1.3 GB): run by hand with
/// `cargo test --release --test players -- --ignored --nocapture`.
#[test]
#[ignore]
fn one_piece_each_on_the_full_track_exact_against_simulation() {
    use wuerfelglueck::exact::SolveOptions;
    use wuerfelglueck::exact::seats::solve_seats;
    let all: Vec<Die> = ["1..6", "1,1,1,6,6,6", "0..9", "2..7"]
        .iter()
        .map(|d| d.parse().unwrap())
        .collect();
    for players in [3, 4] {
        let rules = Rules::new("40/20/1/4".parse().unwrap(), Profile::BWINF);
        let seats = Seats::new(rules, players).unwrap();
        let dice: Vec<&Die> = all.iter().take(players).collect();
        let started = std::time::Instant::now();
        let exact = solve_seats(
            &seats,
            &dice,
            &SolveOptions::new(1e-9, 1_000_000, None).unwrap(),
        )
        .unwrap();
        let solved = started.elapsed().as_secs_f64();
        let table = Table::new(&seats, &dice, 1_000_000, Seating::Fixed).unwrap();
        let games = 4_000_000;
        let counts = table
            .run(StreamKey::new(1), TableStop::Games(games), &|_| {})
            .unwrap();
        println!(
            "{players} players, 40/20/1/4, fixed seats: {} reachable states, {} sweeps, {solved:.0} s",
            exact.reachable, exact.sweeps
        );
        for s in 0..players {
            let p = exact.p(s);
            let sim = counts.wins[s][s] as f64 / games as f64;
            let se = (p * (1.0 - p) / games as f64).sqrt();
            println!(
                "  seat {s} {:<12} exact [{:.10}, {:.10}]  simulated {sim:.6}  z = {:+.2}",
                dice[s].to_string(),
                exact.p_win[s].lo,
                exact.p_win[s].hi,
                (sim - p) / se
            );
            assert!(((sim - p) / se).abs() < 4.5);
        }
    }
}

/// A table of four under `profile` (seats start at 0, 10, 20 and 30 of seat 0's numbering).
fn choosing_table(profile: &str) -> Seats {
    Seats::new(Rules::new(Board::BWINF, profile.parse().unwrap()), 4).unwrap()
}

#[test]
fn capture_duty_at_a_table_asks_for_a_capture_of_any_seat() {
    // Seat 0 on 5 and 12 rolls 3: 5->8 lands on seat 2's piece (its field 28 is seat 0's 8),
    // 12->15 captures nothing. Under capture-duty only the capture is legal, though the
    // frontmost piece is on 12; under choice alone both are.
    let mut pieces = [mask(&[5, 12]), 0, mask(&[28]), 0];
    let duty = choosing_table("choice+capture-duty");
    let legal = duty.legal_moves(&pieces, 0, 3);
    assert_eq!(legal.iter().map(|m| m.from).collect::<Vec<_>>(), [Some(5)]);
    let free = choosing_table("choice");
    assert_eq!(free.legal_moves(&pieces, 0, 3).len(), 2);
    // The rules' own move under capture-duty is that capture: seat 2's piece goes home.
    let turn = duty.roll(&mut pieces, 0, 0, 3);
    assert_eq!(turn.captured, Some((2, 28)));
    assert_eq!(pieces, [mask(&[8, 12]), 0, 0, 0]);
}

#[test]
fn capture_and_safe_at_a_table_see_every_other_seat() {
    use rand::SeedableRng;
    use wuerfelglueck::strategy::{Strategy, Threats};
    let seats = choosing_table("choice");
    let d = Die::standard();
    let reach = [Threats::of_die(&d); MAX_SEATS];
    let rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let pick = |name: &str, pieces: &[u64; 4]| {
        let legal = seats.legal_moves(pieces, 0, 3);
        name.parse::<Strategy>()
            .unwrap()
            .choose_at_table(&seats, pieces, 0, &legal, &reach, &mut rng.clone())
            .and_then(|m| m.from)
    };
    // `capture` takes seat 2's piece on seat 0's field 8 with the rear piece.
    let target = [mask(&[5, 12]), 0, mask(&[28]), 0];
    assert_eq!(pick("capture", &target), Some(5));
    assert_eq!(pick("frontmost", &target), Some(12));
    // Seat 3's piece on seat 0's field 13 (its own 23) reaches 14 to 19: `safe` keeps the
    // piece on 12 behind it and moves 5->8, which nothing reaches; seat 1, the next seat,
    // has no piece on the board, so only a look at every seat finds the danger.
    let danger = [mask(&[5, 12]), 0, 0, mask(&[23])];
    assert_eq!(pick("safe", &danger), Some(5));
    assert_eq!(
        wuerfelglueck::strategy::exposed_at_table(
            &seats,
            &[mask(&[5, 15]), 0, 0, mask(&[23])],
            0,
            &reach
        ),
        1
    );
}

#[test]
fn two_seats_choose_exactly_as_two_players_do() {
    // At a table of two the heuristics' picks and the legal moves are the duel's, roll by
    // roll, over random games (the two code paths share only the picking rules).
    use rand::SeedableRng;
    use wuerfelglueck::strategy::{Strategy, Threats};
    let (a, b): (Die, Die) = ("1..6".parse().unwrap(), "0..9".parse().unwrap());
    for profile in ["choice", "choice+capture-duty"] {
        let rules = Rules::new(Board::BWINF, profile.parse().unwrap());
        let seats = Seats::new(rules, 2).unwrap();
        let reach = [
            Threats::of_die(&a),
            Threats::of_die(&b),
            Threats::of_die(&a),
            Threats::of_die(&a),
        ];
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut decisions = 0;
        for _game in 0..200 {
            let mut duel = GameState::start(0);
            let mut at_table = seats.start();
            for _roll in 0..2000 {
                let mover = duel.mover();
                let face = [&a, &b][mover].roll(&mut rng);
                let (own, other) = (duel.pieces[mover], duel.pieces[1 - mover]);
                let legal = rules.legal_moves(own, other, mover, face);
                let mut table_pieces = [at_table.pieces[0], at_table.pieces[1]];
                assert_eq!(seats.legal_moves(&table_pieces, mover, face), legal);
                // The learned player at a table of two is the duel's (played for `choice`,
                // the game it was trained for).
                let names: &[&str] = if profile == "choice" {
                    &["capture", "safe", "rearmost", "strong"]
                } else {
                    &["capture", "safe", "rearmost"]
                };
                for &name in names {
                    let strategy = name.parse::<Strategy>().unwrap().seated([&a, &b], mover);
                    let two = strategy.choose(&rules, own, other, mover, &legal, &mut rng);
                    let n = strategy.choose_at_table(
                        &seats,
                        &table_pieces,
                        mover,
                        &legal,
                        &reach,
                        &mut rng,
                    );
                    assert_eq!(two, n, "{profile} {name}: {duel:?}, face {face}");
                }
                decisions += usize::from(legal.len() > 1);
                // Both go on with a random legal move.
                let movement = legal.iter().nth(rng.random_range(0..legal.len().max(1)));
                let outcome = rules.play_move(&mut duel, face, movement).unwrap();
                let turn =
                    seats.roll_with_move(&mut table_pieces, mover, at_table.tries, face, movement);
                at_table.pieces[..2].copy_from_slice(&table_pieces);
                at_table.tries = turn.tries;
                if turn.passes {
                    at_table.to_move = seats.next_seat(mover) as u8;
                }
                assert_eq!(at_table.pieces[..2], duel.pieces);
                assert_eq!(at_table.to_move, duel.to_move);
                if outcome.winner.is_some() {
                    break;
                }
            }
        }
        assert!(decisions > 1000, "{profile}: {decisions}");
    }
}

#[test]
fn a_table_plays_the_strategies_it_is_given_and_refuses_the_others() {
    use wuerfelglueck::strategy::Strategy;
    let seats = choosing_table("choice");
    let d = Die::standard();
    let dice = [&d, &d, &d, &d];
    let table = || Table::new(&seats, &dice, 100_000, Seating::All).unwrap();
    let names =
        |list: &[&str]| -> Vec<Strategy> { list.iter().map(|n| n.parse().unwrap()).collect() };
    assert_eq!(
        table().playing(names(&["safe", "safe"])).unwrap_err(),
        TableError::StrategyCount {
            strategies: 2,
            dice: 4
        }
    );
    assert_eq!(
        table()
            .playing(names(&["safe", "safe", "strong-search", "safe"]))
            .unwrap_err(),
        TableError::NotAtTables { die: 2 }
    );
    // `strong` plays where a table player was trained: not under capture-duty.
    assert!(
        table()
            .playing(names(&["safe", "safe", "strong", "safe"]))
            .is_ok()
    );
    let duty = choosing_table("choice+capture-duty");
    let duty_table = Table::new(&duty, &dice, 100_000, Seating::All).unwrap();
    let refused = duty_table
        .playing(names(&["safe", "strong", "safe", "safe"]))
        .unwrap_err();
    assert!(
        matches!(
            refused,
            TableError::NoTablePlayer {
                die: 1,
                players: 4,
                ..
            }
        ),
        "{refused}"
    );
    // It names the table's board and what the shipped players play.
    let message = refused.to_string();
    assert!(
        message.contains("capture-duty, 4 seats")
            && message.contains("the shipped players play")
            && message.contains("40/20/4/4 with profile bwinf+choice at a table of 4"),
        "{message}"
    );
    // At a table of two `strong` is the two-player player of the game, where there is one.
    let two = Seats::new(Rules::new(Board::BWINF, "choice".parse().unwrap()), 2).unwrap();
    let pair = [&d, &d];
    let two_table = || Table::new(&two, &pair, 100_000, Seating::All).unwrap();
    assert!(two_table().playing(names(&["strong", "safe"])).is_ok());
    let short = Seats::new(common::rules("18/9/2/2", "choice"), 2).unwrap();
    let short_table = Table::new(&short, &pair, 100_000, Seating::All).unwrap();
    let refused = short_table.playing(names(&["strong", "safe"])).unwrap_err();
    assert!(
        matches!(
            refused,
            TableError::NoTablePlayer {
                die: 0,
                players: 2,
                ..
            }
        ),
        "{refused}"
    );
    assert!(refused.to_string().contains("game of two"), "{refused}");
    let bwinf = Seats::new(Rules::bwinf(), 4).unwrap();
    let plain = Table::new(&bwinf, &dice, 100_000, Seating::All).unwrap();
    assert_eq!(
        plain
            .playing(names(&["frontmost", "safe", "frontmost", "frontmost"]))
            .unwrap_err(),
        TableError::StrategyNeedsChoice { die: 1 }
    );
    // Four equal dice, one `safe` among three `frontmost`: every die sits in every seat, so
    // the counts add up and the better player wins more than a fair share beyond doubt.
    let mixed = table()
        .playing(names(&["safe", "frontmost", "frontmost", "frontmost"]))
        .unwrap();
    let counts = mixed
        .run(StreamKey::new(7), TableStop::Games(24 * 400), &|_| {})
        .unwrap();
    assert_eq!(counts.games, 9600);
    let ci = counts.ci95(0);
    assert!(ci.lo > 0.25, "safe at a table of frontmost players: {ci:?}");
}

#[test]
fn the_style_at_a_table_agrees_with_the_heuristics_that_define_it() {
    // Counted by die over the table's own games (every seating): each heuristic scores
    // 100 % on the situation it is defined by at a table, `rearmost` never moves the
    // frontmost piece, `frontmost` always does (also where the rules' own loop plays it), and
    // watching changes no game.
    let table = |strategies: &[&str], style: bool| {
        let mut args = vec![
            "table",
            "--profile",
            "choice",
            "--track",
            "24",
            "--pieces",
            "3",
        ];
        for s in strategies {
            args.extend(["--die", "1..6", "--strategy", s]);
        }
        args.extend(["--goal-fields", "3", "--games", "6000", "--seed", "9"]);
        args.extend(["--format", "json"]);
        if style {
            args.push("--style");
        }
        common::json(&args)
    };
    let share = |report: &serde_json::Value, die: usize, situation: &str| {
        let tally = &report["style"]["dice"][die][situation];
        assert!(
            tally["decisions"].as_u64().unwrap() >= 50,
            "{situation}: {tally}"
        );
        tally["taken"].as_f64().unwrap() / tally["decisions"].as_f64().unwrap()
    };
    let watched = table(&["capture", "safe", "rearmost"], true);
    assert_eq!(share(&watched, 0, "captures"), 1.0);
    assert_eq!(share(&watched, 0, "captures_at_a_risk"), 1.0);
    assert_eq!(share(&watched, 1, "safest"), 1.0);
    assert_eq!(share(&watched, 1, "captures_at_a_risk"), 0.0);
    assert_eq!(share(&watched, 2, "frontmost"), 0.0);
    let plain = table(&["capture", "safe", "rearmost"], false);
    for field in ["p_win", "per_seat", "games", "mean_rolls"] {
        assert_eq!(watched[field], plain[field], "{field}");
    }
    assert!(plain["style"].is_null());
    // All frontmost: the rules' own (fast) loop plays the games, the replay watches them.
    let frontmost = table(&["frontmost", "frontmost", "frontmost", "frontmost"], true);
    for die in 0..4 {
        assert_eq!(share(&frontmost, die, "frontmost"), 1.0);
    }
    // Without `choice` there is nothing to count, and the command says so.
    let (code, _, err) = common::run_captured(&[
        "table", "--die", "1..6", "--die", "1..6", "--die", "1..6", "--style",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--style") && err.contains("choice"), "{err}");
}
