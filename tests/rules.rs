//! Every rule and switch of the rules chapter (`docs/src/rules.md`): a position built by hand
//! and the one move it allows.
//!
//! Fields are in the moving player's own numbering: 0 = A, 1..39 track, 40..43 = goal a..d.

use wuerfelglueck::rules::{Board, GameState, MoveRule, PieceMove, Profile, Rules};

mod common;

use common::pieces;

fn rules(profile: &str) -> Rules {
    Rules::new(Board::BWINF, profile.parse().unwrap())
}

/// Player 1 (A) to move with `own`, player 2 with `theirs`.
fn state(own: &[u32], theirs: &[u32]) -> GameState {
    GameState {
        pieces: [pieces(own), pieces(theirs)],
        to_move: 0,
        tries: 0,
    }
}

fn mv(from: Option<u32>, to: u32, rule: MoveRule) -> Option<PieceMove> {
    Some(PieceMove { from, to, rule })
}

#[test]
fn a_six_brings_a_piece_in() {
    let r = rules("bwinf");
    // One piece on 17, three wait; A is free. The 6 must bring a piece in, not move 17.
    let mut s = state(&[17], &[]);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, mv(None, 0, MoveRule::BringIn));
    assert_eq!(s.pieces[0], pieces(&[0, 17]));
    assert!(o.rolls_again, "a 6 rolls again");
    assert_eq!(s.to_move, 0);
}

#[test]
fn bringing_in_captures_an_opponent_on_a() {
    let r = rules("bwinf");
    // Player 1's A is player 2's field 20.
    let mut s = state(&[17], &[20, 5]);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, mv(None, 0, MoveRule::BringIn));
    assert_eq!(o.captured, Some(20));
    assert_eq!(
        s.pieces[1],
        pieces(&[5]),
        "the captured piece went back to B"
    );
}

#[test]
fn the_piece_on_a_moves_on_with_the_six() {
    let r = rules("bwinf");
    // A is taken by an own piece and pieces wait: the 6 moves the piece on A, not 30.
    let mut s = state(&[0, 30], &[]);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, mv(Some(0), 6, MoveRule::ClearStart));
    assert_eq!(s.pieces[0], pieces(&[6, 30]));
}

#[test]
fn the_piece_on_a_moves_on_with_any_other_face() {
    let r = rules("bwinf");
    let mut s = state(&[0, 30], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(0), 3, MoveRule::ClearStart));
    assert_eq!(s.to_move, 1, "a 3 passes the turn");
}

#[test]
fn a_blocked_piece_on_a_lets_the_frontmost_move() {
    let r = rules("bwinf");
    // The piece on A cannot move 3 (own piece on 3): rule 3 picks the frontmost movable.
    let mut s = state(&[0, 3, 30], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(30), 33, MoveRule::Frontmost));
}

#[test]
fn with_nobody_waiting_the_piece_on_a_is_not_preferred() {
    let r = rules("bwinf");
    // All four pieces out: no clearing rule, the frontmost moves.
    let mut s = state(&[0, 10, 20, 30], &[]);
    let o = r.play_roll(&mut s, 2);
    assert_eq!(o.movement, mv(Some(30), 32, MoveRule::Frontmost));
}

#[test]
fn frontmost_counts_goal_pieces() {
    let r = rules("bwinf");
    // A piece on goal field b (41) is ahead of every track piece: it moves 1 to c.
    let mut s = state(&[41, 10, 25, 39], &[]);
    let o = r.play_roll(&mut s, 1);
    assert_eq!(o.movement, mv(Some(41), 42, MoveRule::Frontmost));
}

#[test]
fn goal_last_moves_track_pieces_first() {
    let r = rules("goal-last");
    let mut s = state(&[41, 10, 25, 39], &[]);
    let o = r.play_roll(&mut s, 1);
    // 39 -> 40 (goal a) is a track piece's move; the goal piece waits.
    assert_eq!(o.movement, mv(Some(39), 40, MoveRule::Frontmost));
}

#[test]
fn goal_last_moves_a_goal_piece_when_no_track_piece_can() {
    let r = rules("goal-last");
    // The only track piece (39) is blocked by the own piece on 40; the goal pieces on 42
    // and 43 cannot move 1: so the goal piece on 40 moves to 41.
    let mut s = state(&[40, 39, 42, 43], &[]);
    let o = r.play_roll(&mut s, 1);
    assert_eq!(o.movement, mv(Some(40), 41, MoveRule::Frontmost));
}

#[test]
fn no_piece_overshoots_the_last_goal_field() {
    let r = rules("bwinf");
    // 42 + 3 = 45 > 43: the frontmost cannot move; the next one does.
    let mut s = state(&[42, 12, 20, 30], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(30), 33, MoveRule::Frontmost));
}

#[test]
fn an_own_piece_blocks_the_landing_field() {
    let r = rules("bwinf");
    // 40 + 3 = 43 is taken by an own piece, 43 cannot move at all: 10 moves.
    let mut s = state(&[40, 43, 10, 5], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(10), 13, MoveRule::Frontmost));
}

#[test]
fn opponents_are_jumped_over_and_captured_on_the_landing_field() {
    let r = rules("bwinf");
    // Player 1's field 14 is player 2's field 34: captured. Player 2's piece on its 32
    // (player 1's 12) stands in between and is jumped over.
    let mut s = state(&[10], &[34, 32]);
    let o = r.play_roll(&mut s, 4);
    assert_eq!(o.movement, mv(Some(10), 14, MoveRule::Frontmost));
    assert_eq!(o.captured, Some(34));
    assert_eq!(s.pieces[1], pieces(&[32]));
}

#[test]
fn player_two_captures_in_its_own_numbering() {
    let r = rules("bwinf");
    // Player 2 moves 3 -> 5; its field 5 is player 1's field 25.
    let mut s = GameState {
        pieces: [pieces(&[25]), pieces(&[3])],
        to_move: 1,
        tries: 0,
    };
    let o = r.play_roll(&mut s, 2);
    assert_eq!(o.movement, mv(Some(3), 5, MoveRule::Frontmost));
    assert_eq!(o.captured, Some(25));
    assert_eq!(s.pieces[0], 0);
}

#[test]
fn goal_pieces_are_never_captured() {
    let r = rules("bwinf");
    // Player 2's goal field 40 is not on the shared track: landing on player 1's field 20
    // (player 2's A) captures only a piece on the track.
    let mut s = state(&[17], &[40]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(17), 20, MoveRule::Frontmost));
    assert_eq!(o.captured, None);
    assert_eq!(s.pieces[1], pieces(&[40]));
}

#[test]
fn pieces_jump_inside_the_goal() {
    let r = rules("bwinf");
    // 40 -> 43 jumps over the own piece on 41: allowed in bwinf.
    let mut s = state(&[40, 41, 10, 5], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, mv(Some(40), 43, MoveRule::Frontmost));
}

#[test]
fn no_jump_in_goal_forbids_jumping_goal_pieces() {
    let r = rules("no-jump-in-goal");
    let mut s = state(&[40, 41, 10, 5], &[]);
    let o = r.play_roll(&mut s, 3);
    // 41 -> 44 overshoots, 40 -> 43 would jump 41: the track piece moves.
    assert_eq!(o.movement, mv(Some(10), 13, MoveRule::Frontmost));
    // Entering the goal over a goal piece is a jump too: 38 -> 42 over 40.
    let mut s = state(&[38, 40, 5, 6], &[]);
    let o = r.play_roll(&mut s, 4);
    assert_eq!(o.movement, mv(Some(6), 10, MoveRule::Frontmost));
    // Without the switch the piece on 38 jumps into the goal.
    let mut s = state(&[38, 40, 5, 6], &[]);
    let o = rules("bwinf").play_roll(&mut s, 4);
    assert_eq!(o.movement, mv(Some(38), 42, MoveRule::Frontmost));
}

#[test]
fn a_six_that_moves_nothing_still_rolls_again() {
    let r = rules("bwinf");
    // Nobody waits, every piece would overshoot with a 6.
    let mut s = state(&[38, 41, 42, 43], &[]);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, None);
    assert!(o.rolls_again);
    assert_eq!(s.to_move, 0);
}

#[test]
fn a_face_without_a_move_passes_the_turn() {
    let r = rules("bwinf");
    // Three wait, one stands in the goal's last field: a 3 moves nothing.
    let mut s = state(&[43], &[]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(o.movement, None);
    assert!(!o.rolls_again);
    assert_eq!(s.to_move, 1);
}

#[test]
fn face_zero_moves_nothing() {
    let r = rules("bwinf");
    let mut s = state(&[0, 10], &[]);
    let before = s.pieces;
    let o = r.play_roll(&mut s, 0);
    assert_eq!(o.movement, None);
    assert_eq!(s.pieces, before);
    assert_eq!(s.to_move, 1);
}

#[test]
fn a_face_larger_than_the_board_moves_nothing() {
    let r = rules("bwinf");
    // Pieces on A, on the track and in the goal, one waiting: 44 fields lie between B and
    // the last goal field, so a face of 44 or more overshoots with every piece.
    for face in [44, 45, 1000, u32::MAX] {
        let mut s = state(&[0, 17, 41], &[5]);
        let before = s.pieces;
        let o = r.play_roll(&mut s, face);
        assert_eq!(o.movement, None, "face {face}");
        assert_eq!(o.captured, None);
        assert_eq!(s.pieces, before, "face {face}");
        assert!(!o.rolls_again);
        assert_eq!(s.to_move, 1, "face {face}: the turn passes");
    }
}

#[test]
fn the_game_starts_with_one_piece_on_a_and_the_rest_in_b() {
    for first in 0..2 {
        let s = GameState::start(first);
        // Field 0 is A in each player's own numbering; the other three wait in B.
        assert_eq!(s.pieces, [pieces(&[0]), pieces(&[0])]);
        assert_eq!(s.mover(), first);
        assert_eq!(s.tries, 0);
    }
}

#[test]
fn three_tries_gives_three_rolls_with_nothing_in_play() {
    let r = rules("three-tries");
    // Nothing on the track, the goal piece on d cannot move up: up to three rolls for a 6.
    let mut s = state(&[43], &[]);
    for tries in 1..=2 {
        let o = r.play_roll(&mut s, 3);
        assert!(
            o.rolls_again,
            "try {tries} of 3 failed, the player rolls again"
        );
        assert_eq!((s.to_move, s.tries), (0, tries));
    }
    let o = r.play_roll(&mut s, 3);
    assert!(!o.rolls_again, "third failure passes the turn");
    assert_eq!((s.to_move, s.tries), (1, 0));
}

#[test]
fn three_tries_ends_with_the_six() {
    let r = rules("three-tries");
    let mut s = state(&[43], &[]);
    r.play_roll(&mut s, 2);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, mv(None, 0, MoveRule::BringIn));
    assert!(o.rolls_again);
    assert_eq!(s.tries, 0);
}

#[test]
fn three_tries_does_not_apply_with_a_goal_piece_that_can_move_up() {
    let r = rules("three-tries");
    // The piece on goal a (40) could still move up: one roll only. With a 3 it moves to d.
    let mut s = state(&[40], &[]);
    let o = r.play_roll(&mut s, 5);
    assert_eq!(o.movement, None);
    assert!(!o.rolls_again);
    assert_eq!(s.to_move, 1);
    // And a piece on the track is in play: no extra tries either.
    let mut s = state(&[40, 12], &[]);
    let o = r.play_roll(&mut s, 40);
    assert_eq!(o.movement, None);
    assert_eq!(s.to_move, 1);
}

#[test]
fn without_three_tries_one_failed_roll_passes_the_turn() {
    let r = rules("bwinf");
    let mut s = state(&[43], &[]);
    r.play_roll(&mut s, 3);
    assert_eq!(s.to_move, 1);
}

#[test]
fn the_win_ends_the_game_at_once() {
    let r = rules("bwinf");
    // The last piece reaches the goal with a 6: the game ends, no further roll.
    let mut s = state(&[34, 41, 42, 43], &[5]);
    let o = r.play_roll(&mut s, 6);
    assert_eq!(o.movement, mv(Some(34), 40, MoveRule::Frontmost));
    assert_eq!(o.winner, Some(0));
    assert!(!o.rolls_again);
}

#[test]
fn a_goal_piece_counts_its_fields_one_by_one() {
    let r = rules("bwinf");
    // From 39 a 1 reaches a (40) and a 4 reaches d (43).
    let mut s = state(&[39], &[]);
    assert_eq!(
        r.play_roll(&mut s, 1).movement,
        mv(Some(39), 40, MoveRule::Frontmost)
    );
    let mut s = state(&[39], &[]);
    assert_eq!(
        r.play_roll(&mut s, 4).movement,
        mv(Some(39), 43, MoveRule::Frontmost)
    );
    let mut s = state(&[39], &[]);
    assert_eq!(r.play_roll(&mut s, 5).movement, None);
}

#[test]
fn a_reduced_board_plays_by_the_same_rules() {
    // 8 track fields, player 2 starts on player 1's field 4, one piece, one goal field.
    let board = Board::new(8, 4, 1, 1).unwrap();
    let r = Rules::new(board, Profile::BWINF);
    // Field 8 is the only goal field: 5 + 3 wins.
    let mut s = GameState {
        pieces: [pieces(&[5]), pieces(&[2])],
        to_move: 0,
        tries: 0,
    };
    let o = r.play_roll(&mut s.clone(), 3);
    assert_eq!(o.winner, Some(0));
    // 5 + 1 = 6 is player 2's field (6 - 4) = 2: a capture.
    let o = r.play_roll(&mut s, 1);
    assert_eq!(o.movement, mv(Some(5), 6, MoveRule::Frontmost));
    assert_eq!(o.captured, Some(2));
    // 5 + 4 = 9 overshoots the one goal field.
    let mut s = GameState {
        pieces: [pieces(&[5]), 0],
        to_move: 0,
        tries: 0,
    };
    assert_eq!(r.play_roll(&mut s, 4).movement, None);
}

#[test]
fn an_asymmetric_offset_maps_fields_both_ways() {
    let board = Board::new(12, 3, 2, 2).unwrap();
    // Player 2's field r is player 1's field (r + 3) mod 12.
    for r in 0..12 {
        let p1 = (r + 3) % 12;
        assert_eq!(board.opponent_field(1, r), p1);
        assert_eq!(board.opponent_field(0, p1), r);
    }
    // Player 2's pieces on its 0 and 10 and in its goal (12): player 1 sees 3 and 1 only.
    assert_eq!(
        board.track_in_other_view(1, pieces(&[0, 10, 12])),
        pieces(&[3, 1])
    );
}

#[test]
fn boards_that_cannot_be_played_are_refused() {
    assert!(Board::new(7, 3, 1, 1).is_err(), "track below 8");
    assert!(Board::new(40, 0, 4, 4).is_err(), "offset 0");
    assert!(
        Board::new(40, 40, 4, 4).is_err(),
        "offset outside the track"
    );
    assert!(Board::new(40, 20, 0, 4).is_err(), "no pieces");
    assert!(
        Board::new(40, 20, 4, 3).is_err(),
        "more pieces than goal fields"
    );
    assert!(Board::new(62, 20, 4, 4).is_err(), "more than 64 fields");
    assert_eq!("40/20/4/4".parse::<Board>().unwrap(), Board::BWINF);
    assert!("40/20/4".parse::<Board>().is_err());
}

#[test]
fn profiles_parse_and_print() {
    let p: Profile = "bwinf+goal-last+three-tries".parse().unwrap();
    assert!(p.goal_last && p.three_tries && !p.no_jump_in_goal && !p.roll_off);
    assert_eq!(p.to_string(), "bwinf+goal-last+three-tries");
    assert_eq!(
        "goal-last,roll-off".parse::<Profile>().unwrap().to_string(),
        "bwinf+goal-last+roll-off"
    );
    assert!("bwinf+fast".parse::<Profile>().is_err());
}

#[test]
fn a_board_whose_field_count_wraps_around_u32_is_refused() {
    // Before: 4294967295 + 4 wrapped to 3 fields, the board was accepted and every game
    // came out "never-ending" with exit code 0.
    let err = Board::new(u32::MAX, 20, 4, 4).unwrap_err();
    assert!(err.to_string().contains("64 fields"), "{err}");
    assert!(Board::new(20, 10, 4, u32::MAX - 10).is_err());
    assert!(Board::new(60, 30, 4, 4).is_ok());
}

// ---- `choice` and `capture-duty` (`docs/src/rules.md`, profiles) ----

/// The moves `rules` allows player 1 with `own` against player 2's `theirs` after `face`.
fn legal(rules: &Rules, own: &[u32], theirs: &[u32], face: u32) -> Vec<Option<PieceMove>> {
    rules
        .legal_moves(pieces(own), pieces(theirs), 0, face)
        .iter()
        .map(Some)
        .collect()
}

#[test]
fn under_choice_any_piece_that_can_move_may_be_chosen() {
    let r = rules("choice");
    // Pieces on 10 and 30, two in B, A free, a 3: both may move, frontmost listed first.
    assert_eq!(
        legal(&r, &[10, 30], &[], 3),
        vec![
            mv(Some(30), 33, MoveRule::Chosen),
            mv(Some(10), 13, MoveRule::Chosen)
        ]
    );
    // The player picks the rear piece: it moves, the front one stays.
    let mut s = state(&[10, 30], &[]);
    let o = r
        .play_move(&mut s, 3, mv(Some(10), 13, MoveRule::Chosen))
        .unwrap();
    assert_eq!(o.movement, mv(Some(10), 13, MoveRule::Chosen));
    assert_eq!(s.pieces[0], pieces(&[13, 30]));
    assert_eq!(s.to_move, 1, "a 3 passes the turn");
    // The same position under `bwinf`: rule 3 allows the frontmost move alone.
    assert_eq!(
        legal(&rules("bwinf"), &[10, 30], &[], 3),
        vec![mv(Some(30), 33, MoveRule::Frontmost)]
    );
}

#[test]
fn under_choice_a_six_still_must_bring_a_piece_in() {
    let r = rules("choice");
    assert_eq!(
        legal(&r, &[10, 30], &[], 6),
        vec![mv(None, 0, MoveRule::BringIn)]
    );
    let mut s = state(&[10, 30], &[]);
    let err = r
        .play_move(&mut s, 6, mv(Some(30), 36, MoveRule::Chosen))
        .unwrap_err();
    assert!(err.to_string().contains("not a legal move"), "{err}");
    assert_eq!(s, state(&[10, 30], &[]), "a refused move changes nothing");
}

#[test]
fn under_choice_the_start_field_must_still_be_cleared() {
    let r = rules("choice");
    // A piece on A while two wait: the 4 must move it, not 30.
    assert_eq!(
        legal(&r, &[0, 30], &[], 4),
        vec![mv(Some(0), 4, MoveRule::ClearStart)]
    );
    // The piece on A is blocked by its own piece on 4: rule 3 with a choice applies.
    assert_eq!(
        legal(&r, &[0, 4, 30], &[], 4),
        vec![
            mv(Some(30), 34, MoveRule::Chosen),
            mv(Some(4), 8, MoveRule::Chosen)
        ]
    );
}

#[test]
fn under_choice_a_player_must_move_when_a_move_exists_and_passes_only_when_none_does() {
    let r = rules("choice");
    let mut s = state(&[10], &[]);
    assert!(r.play_move(&mut s, 3, None).is_err(), "passing with a 3");
    // A piece on d cannot move: the 2 moves nothing, and passing is the only move.
    let mut s = state(&[43], &[]);
    assert!(r.legal_moves(pieces(&[43]), 0, 0, 2).is_empty());
    let o = r.play_move(&mut s, 2, None).unwrap();
    assert_eq!(o.movement, None);
    assert_eq!(s.to_move, 1);
}

#[test]
fn capture_duty_leaves_only_the_capturing_moves() {
    let r = rules("choice+capture-duty");
    // Player 2's field 33 is player 1's field 13: the 3 from 10 captures there.
    assert_eq!(
        legal(&r, &[10, 30], &[33], 3),
        vec![mv(Some(10), 13, MoveRule::Chosen)]
    );
    let mut s = state(&[10, 30], &[33]);
    let o = r.play_roll(&mut s, 3);
    assert_eq!(
        o.captured,
        Some(33),
        "play_roll plays the frontmost capturing move"
    );
    assert_eq!(s.pieces, [pieces(&[13, 30]), 0]);
    // Without the duty the non-capturing move is allowed too.
    assert_eq!(legal(&rules("choice"), &[10, 30], &[33], 3).len(), 2);
    // Nothing to capture: every move stays allowed.
    assert_eq!(legal(&r, &[10, 30], &[5], 3).len(), 2);
}

#[test]
fn capture_duty_needs_choice() {
    let err = "capture-duty".parse::<Profile>().unwrap_err();
    assert!(err.to_string().contains("needs choice"), "{err}");
    let p: Profile = "choice+capture-duty".parse().unwrap();
    assert!(p.choice && p.capture_duty);
    assert_eq!(p.to_string(), "bwinf+choice+capture-duty");
}

#[test]
fn goal_last_under_choice_allows_goal_pieces_only_when_no_track_piece_can_move() {
    let r = rules("choice+goal-last");
    assert_eq!(
        legal(&r, &[10, 41], &[], 1),
        vec![mv(Some(10), 11, MoveRule::Chosen)]
    );
    // The track piece on 39 cannot move 2 (41 is its own): now the goal piece may.
    assert_eq!(
        legal(&r, &[39, 41], &[], 2),
        vec![mv(Some(41), 43, MoveRule::Chosen)]
    );
}

#[test]
fn no_jump_in_goal_under_choice_removes_the_jumping_move() {
    let r = rules("choice+no-jump-in-goal");
    // 38 + 4 = 42 jumps over the own piece on 41 (b): only 10 -> 14 remains.
    assert_eq!(
        legal(&r, &[10, 38, 41], &[], 4),
        vec![mv(Some(10), 14, MoveRule::Chosen)]
    );
    assert_eq!(legal(&rules("choice"), &[10, 38, 41], &[], 4).len(), 2);
}
