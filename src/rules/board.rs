//! The board: track length, start offset of player 2, pieces per player, goal fields.

use std::fmt;

/// Geometry of a (possibly reduced) board.
///
/// Fields are numbered from the moving player's own view: `0` is its start field `A`,
/// `1 .. track_len - 1` the rest of the shared track, `track_len .. track_len + goal_len - 1`
/// its own goal fields. A player's pieces are stored as a bit mask over these fields
/// (bit `f` set = a piece on field `f`); pieces not on the mask wait in `B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Board {
    track_len: u32,
    offset: u32,
    pieces: u32,
    goal_len: u32,
}

/// Why a board description was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError(pub String);

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid board: {}", self.0)
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The BwInf board: 40 track fields, player 2 starts 20 fields on, 4 pieces, 4 goal fields.
    pub const BWINF: Board = Board {
        track_len: 40,
        offset: 20,
        pieces: 4,
        goal_len: 4,
    };

    /// Smallest track the project supports (a 6 must fit on the track, see `docs/src/rules.md`).
    pub const MIN_TRACK: u32 = 8;

    /// Builds a board, checking that it can be played and that every field fits in a `u64` mask.
    pub fn new(
        track_len: u32,
        offset: u32,
        pieces: u32,
        goal_len: u32,
    ) -> Result<Board, BoardError> {
        if track_len < Self::MIN_TRACK {
            return Err(BoardError(format!(
                "track length {track_len} is below the minimum of {}",
                Self::MIN_TRACK
            )));
        }
        if offset == 0 || offset >= track_len {
            return Err(BoardError(format!(
                "offset {offset} must lie in 1 to {} (player 2's start field on player 1's track of {track_len} fields)",
                track_len - 1
            )));
        }
        if pieces == 0 {
            return Err(BoardError("a player needs at least one piece".into()));
        }
        if goal_len < pieces {
            return Err(BoardError(format!(
                "{pieces} pieces cannot all reach {goal_len} goal fields, so nobody could win"
            )));
        }
        // In u64: the sum of two u32 must not wrap around to a small number.
        if u64::from(track_len) + u64::from(goal_len) > 64 {
            return Err(BoardError(format!(
                "track {track_len} + goal {goal_len} fields exceed the 64 fields a bit mask holds"
            )));
        }
        Ok(Board {
            track_len,
            offset,
            pieces,
            goal_len,
        })
    }

    /// Number of shared track fields (40 on the BwInf board).
    pub fn track_len(&self) -> u32 {
        self.track_len
    }
    /// Player 2's start field, counted on player 1's track.
    pub fn offset(&self) -> u32 {
        self.offset
    }
    /// Pieces per player.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }
    /// Goal fields per player.
    pub fn goal_len(&self) -> u32 {
        self.goal_len
    }
    /// Track plus goal fields: the fields a piece can stand on (44 on the BwInf board).
    pub fn fields(&self) -> u32 {
        self.track_len + self.goal_len
    }
    /// The last goal field (`d`, 43 on the BwInf board).
    pub fn last_field(&self) -> u32 {
        self.fields() - 1
    }
    /// Bit mask of every field a piece can stand on.
    pub fn field_mask(&self) -> u64 {
        low_bits(self.fields())
    }
    /// Bit mask of the shared track fields.
    pub fn track_mask(&self) -> u64 {
        low_bits(self.track_len)
    }
    /// Bit mask of the player's goal fields.
    pub fn goal_mask(&self) -> u64 {
        self.field_mask() & !self.track_mask()
    }
    /// Whether `field` is a goal field.
    pub fn is_goal(&self, field: u32) -> bool {
        field >= self.track_len
    }

    /// Translates a track field seen by `mover` into the opponent's numbering.
    ///
    /// Player 2's field `r` is player 1's field `(r + offset) mod track_len`, so going from
    /// player 1's view to player 2's subtracts the offset and the other way adds it.
    #[inline(always)]
    pub fn opponent_field(&self, mover: usize, field: u32) -> u32 {
        let shift = if mover == 0 {
            self.track_len - self.offset
        } else {
            self.offset
        };
        let f = field + shift;
        if f >= self.track_len {
            f - self.track_len
        } else {
            f
        }
    }

    /// The track pieces of `player`'s mask, as fields in the other player's numbering
    /// (pieces in the goal are on no shared field and are left out).
    #[inline]
    pub fn track_in_other_view(&self, player: usize, mask: u64) -> u64 {
        self.turn_track(mask, self.opponent_field(player, 0))
    }

    /// The track pieces of `mask` (other bits ignored) with every field `f` moved to
    /// `(f + shift) mod track_len`: the same pieces numbered from a start `shift` fields
    /// back. One rotation of the track's bits (`shift < track_len <= 63`, so both shifts are
    /// in range; bits pushed past bit 63 by the left shift are the ones the right shift
    /// brings round).
    #[inline]
    pub fn turn_track(&self, mask: u64, shift: u32) -> u64 {
        debug_assert!(shift < self.track_len);
        let track = self.track_mask();
        let mask = mask & track;
        ((mask << shift) | (mask >> (self.track_len - shift))) & track
    }

    /// Human name of a field from its owner's view: `A`, a track number, or goal `a`, `b`, ...
    pub fn field_name(&self, field: u32) -> String {
        if field == 0 {
            "A".to_string()
        } else if field < self.track_len {
            field.to_string()
        } else {
            let goal = field - self.track_len;
            if goal < 26 {
                char::from(b'a' + goal as u8).to_string()
            } else {
                format!("goal{goal}")
            }
        }
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::BWINF
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}",
            self.track_len, self.offset, self.pieces, self.goal_len
        )
    }
}

impl std::str::FromStr for Board {
    type Err = BoardError;

    /// Parses `track/offset/pieces/goal`, e.g. `40/20/4/4`, or the name `bwinf`.
    fn from_str(s: &str) -> Result<Board, BoardError> {
        if s.eq_ignore_ascii_case("bwinf") {
            return Ok(Board::BWINF);
        }
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() != 4 {
            return Err(BoardError(format!(
                "{} is not of the form track/offset/pieces/goal, e.g. 40/20/4/4",
                crate::dice::excerpt(s)
            )));
        }
        let mut numbers = [0u32; 4];
        for (slot, part) in numbers.iter_mut().zip(&parts) {
            *slot = part.trim().parse().map_err(|_| {
                BoardError(format!(
                    "{} in {} is not a non-negative integer",
                    crate::dice::excerpt(part),
                    crate::dice::excerpt(s)
                ))
            })?;
        }
        Board::new(numbers[0], numbers[1], numbers[2], numbers[3])
    }
}

/// A mask of the lowest `n` bits (`n <= 64`).
#[inline(always)]
pub(crate) fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}
