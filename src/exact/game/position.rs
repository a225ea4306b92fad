//! The position notation of `advise`: `A:0,17,c B:A,5 turn:A`.
//!
//! Three space-separated fields, in any order: `A:` and `B:` list each player's pieces on
//! the board, comma-separated, in that player's own numbering: a track field as a number
//! `0 .. track-1` (or `A` for the start field 0), a goal field as a letter `a`, `b`, ...;
//! the player's other pieces wait in `B`. An empty list is `A:` (or `A:-`). `turn:A` or
//! `turn:B` says who rolls (default A). Refused, naming what is wrong: an unknown field or
//! token, a field beyond the board, two pieces of one player on one field, more pieces than
//! the board has, two pieces of different players on one shared track field, a player who
//! has already won (the game is over).

use crate::rules::{GameState, Rules};
use std::fmt;

/// Why a position was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for PositionError {}

/// Parses a field name of `rules`' board: a track number, `A`, or a goal letter.
fn field(rules: &Rules, player: char, text: &str) -> Result<u32, PositionError> {
    let board = rules.board();
    let bad = |why: &str| {
        PositionError(format!(
            "player {player}: field {}: {why}",
            crate::dice::excerpt(text)
        ))
    };
    if text == "A" {
        return Ok(0);
    }
    if let Ok(n) = text.parse::<u32>() {
        return if n < board.track_len() {
            Ok(n)
        } else {
            Err(bad(&format!(
                "beyond the track (fields 0 to {}, goal fields a, b, ...)",
                board.track_len() - 1
            )))
        };
    }
    let mut chars = text.chars();
    if let (Some(c @ 'a'..='z'), None) = (chars.next(), chars.next()) {
        let k = c as u32 - 'a' as u32;
        return if k < board.goal_len() {
            Ok(board.track_len() + k)
        } else {
            Err(bad(&format!(
                "the board has {} goal fields",
                board.goal_len()
            )))
        };
    }
    Err(bad(
        "expected a track number, A (the start field) or a goal letter",
    ))
}

/// Parses a position (see the module docs) for `rules`' board.
pub fn parse_position(rules: &Rules, text: &str) -> Result<GameState, PositionError> {
    let board = rules.board();
    let mut pieces: [Option<u64>; 2] = [None, None];
    let mut turn = None;
    for token in text.split_whitespace() {
        let (key, value) = token.split_once(':').ok_or_else(|| {
            PositionError(format!(
                "{}: expected A:FIELDS, B:FIELDS or turn:A|B",
                crate::dice::excerpt(token)
            ))
        })?;
        match key {
            "A" | "B" => {
                let p = usize::from(key == "B");
                let name = if p == 0 { 'A' } else { 'B' };
                if pieces[p].is_some() {
                    return Err(PositionError(format!("player {name} is given twice")));
                }
                let mut mask = 0u64;
                for item in value.split(',').filter(|s| !s.is_empty() && *s != "-") {
                    let f = field(rules, name, item)?;
                    if mask >> f & 1 == 1 {
                        return Err(PositionError(format!(
                            "player {name}: two pieces on field {}",
                            board.field_name(f)
                        )));
                    }
                    mask |= 1u64 << f;
                }
                if mask.count_ones() > board.pieces() {
                    return Err(PositionError(format!(
                        "player {name}: {} pieces on the board, but each player has {}",
                        mask.count_ones(),
                        board.pieces()
                    )));
                }
                pieces[p] = Some(mask);
            }
            "turn" => {
                if turn.is_some() {
                    return Err(PositionError("turn is given twice".into()));
                }
                turn = Some(match value {
                    "A" => 0u8,
                    "B" => 1u8,
                    _ => {
                        return Err(PositionError(format!(
                            "turn:{}: expected turn:A or turn:B",
                            crate::dice::excerpt(value)
                        )));
                    }
                })
            }
            _ => {
                return Err(PositionError(format!(
                    "{}: expected A:FIELDS, B:FIELDS or turn:A|B",
                    crate::dice::excerpt(token)
                )));
            }
        }
    }
    let [Some(a), Some(b)] = pieces else {
        return Err(PositionError(
            "a position names both players' pieces, e.g. A:0,17,c B:A,5 turn:A".into(),
        ));
    };
    // Two pieces of different players on one shared track field.
    let a_seen_by_b = board.track_in_other_view(0, a);
    let clash = a_seen_by_b & b & board.track_mask();
    if clash != 0 {
        let f = clash.trailing_zeros();
        return Err(PositionError(format!(
            "A's piece on field {} and B's on field {f} stand on the same track field",
            board.opponent_field(1, f)
        )));
    }
    for (p, mask) in [a, b].into_iter().enumerate() {
        if rules.has_won(mask) {
            return Err(PositionError(format!(
                "player {} has all pieces in the goal: the game is over",
                if p == 0 { 'A' } else { 'B' }
            )));
        }
    }
    Ok(GameState {
        pieces: [a, b],
        to_move: turn.unwrap_or(0),
        tries: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Profile};

    fn rules() -> Rules {
        Rules::new(Board::BWINF, Profile::BWINF)
    }

    #[test]
    fn reads_the_documented_example_and_refuses_impossible_positions() {
        let s = parse_position(&rules(), "A:0,17,c B:A,5 turn:B").unwrap();
        assert_eq!(s.pieces, [1 | 1 << 17 | 1 << 42, 1 | 1 << 5]);
        assert_eq!(s.to_move, 1);
        for (bad, says) in [
            ("A:0,0 B:", "two pieces on field"),
            ("A:1,2,3,4,5 B:", "5 pieces"),
            ("A:40 B:", "beyond the track"),
            ("A:e B:", "4 goal fields"),
            ("A:0 B:20", "same track field"),
            ("A:a,b,c,d B:", "game is over"),
            ("A:0", "both players"),
            ("A:1.5 B:", "expected a track number"),
            ("A:0 B: turn:C", "turn:A or turn:B"),
            ("A:0 B: turn:A turn:B", "turn is given twice"),
            ("C:0", "expected A:FIELDS"),
        ] {
            let e = parse_position(&rules(), bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
