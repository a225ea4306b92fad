//! Three and four players (`docs/src/rules.md`, "Three and four players"): N seats around
//! one shared track, each with its own start field, `B` and goal.
//!
//! This module adds only what N seats change: where each seat's start field lies, whose
//! pieces a landing captures, and whose turn is next. Which piece moves, whether the mover
//! wins, rolls again or gets another try is decided by [`Rules::roll_from_view`] from the
//! mover's own pieces alone (moves never depend on other players' pieces: those are jumped
//! over or captured, never block), so the rules of a turn stay in one place.

use super::{Board, LegalMoves, PieceMove, Profile, Rules, Turn, rare};
use std::fmt;

/// The most seats a table has.
pub const MAX_SEATS: usize = 4;

/// The profile switches that keep their meaning at a table of N players: they change
/// which of the mover's own pieces moves, or how often it rolls, or let each seat choose its
/// move (`choice`; `capture-duty` then asks whether a move captures a piece of *any* other
/// seat). Every other switch is refused by [`Seats::new`] (never silently ignored):
/// `roll-off` defines a start between two players.
pub const TABLE_SWITCHES: [&str; 5] = [
    "goal-last",
    "no-jump-in-goal",
    "three-tries",
    "choice",
    "capture-duty",
];

/// Why a table of players cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatsError {
    /// The number of players is not 2, 3 or 4.
    Players(usize),
    /// A profile switch that has no meaning at a table of N players.
    Switch {
        /// The switch, e.g. `roll-off`.
        name: String,
        /// The number of players.
        players: usize,
    },
    /// With three or four players the seats sit at `s * T / 4`; another `--offset` than
    /// the one seat 2 gets would be silently ignored, so it is refused.
    Offset {
        /// The board's offset.
        offset: u32,
        /// The offset seat 2 gets on this track (`T / 2`).
        expected: u32,
    },
}

impl fmt::Display for SeatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatsError::Players(n) => write!(f, "{n} players: expected 2, 3 or 4"),
            SeatsError::Switch { name, players } => write!(
                f,
                "profile switch {name} is not defined for a table of {players} players \
                 (allowed: {}){}",
                TABLE_SWITCHES.join(", "),
                if *players == 2 {
                    "; for two players use duel, solve or rank without --players"
                } else {
                    ""
                }
            ),
            SeatsError::Offset { offset, expected } => write!(
                f,
                "offset {offset}: with 3 or 4 players seat s starts at s * track / 4, so the \
                 offset is fixed at {expected} (leave it out or give {expected})"
            ),
        }
    }
}

impl std::error::Error for SeatsError {}

/// A table: the rules of one turn, the number of players and where their seats are.
///
/// Each seat numbers the fields from its own view, as `docs/src/rules.md` does for a player: `0`
/// its start field, `1 .. T-1` the shared track, then its goal. Seat `s`'s field `r` is seat 0's
/// field `(r + start[s]) mod T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seats {
    rules: Rules,
    players: usize,
    start: [u32; MAX_SEATS],
    /// `shift[m][j]`: what to add (mod T) to a track field of seat `m` to get seat `j`'s number.
    shift: [[u32; MAX_SEATS]; MAX_SEATS],
    /// `capture[m][f][j]`: what a piece of seat `m` landing on its field `f` captures of
    /// seat `j`, as a bit in `j`'s numbering: `j`'s number of `f` for a track field and
    /// another seat, else 0 (goal fields, `j = m`, unused seats, and `f = 64`, "no landing",
    /// the trailing zeros of an empty mask). One load per seat in the hot path.
    capture: [[[u64; MAX_SEATS]; 65]; MAX_SEATS],
    track_len: u32,
}

/// A position at a table: every seat's pieces in its own numbering, and who rolls next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatState {
    /// Piece masks of the seats (unused seats stay 0), each in its own numbering.
    pub pieces: [u64; MAX_SEATS],
    /// The seat that rolls next.
    pub to_move: u8,
    /// Rolls already used in this turn under `three-tries` (always 0 otherwise).
    pub tries: u8,
}

/// What one roll did at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatTurn {
    /// A piece moved.
    pub moved: bool,
    /// The roll won the game for the mover.
    pub won: bool,
    /// The next seat rolls (otherwise the mover rolls again).
    pub passes: bool,
    /// Rolls used in this turn under `three-tries`.
    pub tries: u8,
    /// The captured piece: its seat and field in that seat's numbering.
    pub captured: Option<(usize, u32)>,
}

impl Seats {
    /// A table of `players` seats under `rules`.
    ///
    /// Two players sit where the board puts them (`0` and `--offset`), exactly as in a duel;
    /// three or four at `s * T / 4` (rounded down), which requires the board's offset to be
    /// seat 2's, `T / 2`. Refuses any profile switch outside [`TABLE_SWITCHES`].
    pub fn new(rules: Rules, players: usize) -> Result<Seats, SeatsError> {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(SeatsError::Players(players));
        }
        refuse_switches(rules.profile(), players)?;
        let board = rules.board();
        let t = board.track_len();
        let mut start = [0u32; MAX_SEATS];
        if players == 2 {
            start[1] = board.offset();
        } else {
            if board.offset() != t / 2 {
                return Err(SeatsError::Offset {
                    offset: board.offset(),
                    expected: t / 2,
                });
            }
            for (s, slot) in start.iter_mut().enumerate().take(players) {
                // s < 4 and t <= 64: no overflow.
                *slot = s as u32 * t / 4;
            }
        }
        let mut shift = [[0u32; MAX_SEATS]; MAX_SEATS];
        for m in 0..players {
            for j in 0..players {
                // Seat m's field r is seat 0's field r + start[m], which is seat j's field
                // r + start[m] - start[j].
                shift[m][j] = (start[m] + t - start[j]) % t;
            }
        }
        let mut capture = [[[0u64; MAX_SEATS]; 65]; MAX_SEATS];
        for m in 0..players {
            for (f, row) in capture[m].iter_mut().enumerate().take(t as usize) {
                for j in (0..players).filter(|&j| j != m) {
                    let field = (f as u32 + shift[m][j]) % t;
                    row[j] = 1u64 << field;
                }
            }
        }
        Ok(Seats {
            rules,
            players,
            start,
            shift,
            capture,
            track_len: t,
        })
    }

    /// The rules of a turn.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.rules.board()
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Seat `s`'s start field `A` on seat 0's numbering.
    pub fn start_field(&self, seat: usize) -> u32 {
        self.start[seat]
    }

    /// Seat `from`'s track field `field` in seat `to`'s numbering.
    #[inline(always)]
    pub fn field_for(&self, from: usize, to: usize, field: u32) -> u32 {
        let f = field + self.shift[from][to];
        if f >= self.track_len {
            f - self.track_len
        } else {
            f
        }
    }

    /// The opening: every seat has one piece on its `A`, the rest in `B`; seat 0 moves.
    pub fn start(&self) -> SeatState {
        let mut pieces = [0u64; MAX_SEATS];
        pieces[..self.players].fill(1);
        SeatState {
            pieces,
            to_move: 0,
            tries: 0,
        }
    }

    /// The seat after `seat` in turn order.
    #[inline(always)]
    pub fn next_seat(&self, seat: usize) -> usize {
        if seat + 1 == self.players {
            0
        } else {
            seat + 1
        }
    }

    /// Applies `face` rolled by `mover` to the seats' `pieces` (indexed by seat), with
    /// `tries` used this turn; see [`Seats::roll_seated`].
    #[inline(always)]
    pub fn roll(
        &self,
        pieces: &mut [u64; MAX_SEATS],
        mover: usize,
        tries: u8,
        face: u32,
    ) -> SeatTurn {
        self.roll_seated(pieces, mover, tries, face)
    }

    /// Applies `face` rolled by seat `mover` with `tries` used this turn to the seats'
    /// `pieces` (`N` at least the number of players; unused seats hold 0).
    ///
    /// The mover's move, win, extra roll and tries come from [`Rules::roll_from_view`]
    /// (called with no opponent pieces, so it captures nothing); this function adds the
    /// capture of whatever piece of another seat stands on the landing field, if that is a
    /// track field. At most one piece stands on a field, so at most one is captured.
    #[inline(always)]
    pub fn roll_seated<const N: usize>(
        &self,
        pieces: &mut [u64; N],
        mover: usize,
        tries: u8,
        face: u32,
    ) -> SeatTurn {
        self.roll_assuming(false, pieces, mover, tries, face)
    }

    /// [`Seats::roll_seated`] for rules that are [`Rules::is_plain`] (so no tries): the
    /// same code with the switches' tests known to fail (see [`Rules::roll_plain`]).
    #[inline(always)]
    pub fn roll_seated_plain<const N: usize>(
        &self,
        pieces: &mut [u64; N],
        mover: usize,
        face: u32,
    ) -> SeatTurn {
        debug_assert!(self.rules.is_plain());
        self.roll_assuming(true, pieces, mover, 0, face)
    }

    /// [`Seats::roll_seated`]; `plain`: the caller knows the rules are [`Rules::is_plain`].
    #[inline(always)]
    fn roll_assuming<const N: usize>(
        &self,
        plain: bool,
        pieces: &mut [u64; N],
        mover: usize,
        tries: u8,
        face: u32,
    ) -> SeatTurn {
        debug_assert!(N >= self.players);
        if !plain && self.rules.profile().capture_duty {
            // The rule-3 move depends on the other seats' pieces: the frontmost of the legal
            // moves, which capture-duty narrows to the capturing ones.
            let legal = self.legal_moves(pieces, mover, face);
            return self.roll_with_move(pieces, mover, tries, face, legal.frontmost());
        }
        let own = pieces[mover];
        let turn = if plain {
            self.rules.roll_plain(own, 0, 0, face)
        } else {
            self.rules.roll_from_view(own, 0, 0, tries, face)
        };
        self.apply(pieces, mover, turn)
    }

    /// Writes the mover's side of `turn` (a roll seen from the mover alone) into `pieces`
    /// and captures whatever piece of another seat stands on the landing field.
    #[inline(always)]
    fn apply<const N: usize>(&self, pieces: &mut [u64; N], mover: usize, turn: Turn) -> SeatTurn {
        let own = pieces[mover];
        pieces[mover] = turn.own;
        // The landing field is the one bit the move set (a move never lands where it left).
        let hits = &self.capture[mover][(turn.own & !own).trailing_zeros() as usize];
        let mut captured = None;
        // One test for all seats, on the rare path only the seat hit (see [`rare`]).
        if (0..N).fold(0, |any, j| any | (pieces[j] & hits[j])) != 0 {
            rare();
            for j in 0..N {
                let bit = pieces[j] & hits[j];
                if bit != 0 {
                    pieces[j] ^= bit;
                    captured = Some((j, bit.trailing_zeros()));
                }
            }
        }
        SeatTurn {
            moved: turn.moved,
            won: turn.won,
            passes: turn.passes,
            tries: turn.tries,
            captured,
        }
    }

    /// Applies `face` to `state` (see [`Seats::roll`]) and moves the turn on.
    pub fn play_roll(&self, state: &mut SeatState, face: u32) -> SeatTurn {
        let mover = usize::from(state.to_move);
        let turn = self.roll(&mut state.pieces, mover, state.tries, face);
        state.tries = turn.tries;
        if turn.passes {
            state.to_move = self.next_seat(mover) as u8;
        }
        turn
    }

    /// What to add (mod the track's length) to a track field of seat `from` to get seat
    /// `to`'s number of it.
    pub(crate) fn shift(&self, from: usize, to: usize) -> u32 {
        self.shift[from][to]
    }

    /// Seat `from`'s track pieces `mask` (in `from`'s numbering; other bits ignored) in seat
    /// `to`'s numbering: the shared track turned by the distance between their starts.
    #[inline]
    pub fn track_for(&self, from: usize, to: usize, mask: u64) -> u64 {
        self.board().turn_track(mask, self.shift[from][to])
    }

    /// The track fields, in `mover`'s numbering, on which a piece of another seat stands.
    #[inline]
    pub fn others_in_view<const N: usize>(&self, pieces: &[u64; N], mover: usize) -> u64 {
        (0..self.players.min(N))
            .filter(|&j| j != mover)
            .fold(0, |seen, j| seen | self.track_for(j, mover, pieces[j]))
    }

    /// The legal moves of `face` for seat `mover` (see [`Rules::legal_moves`]): they depend
    /// on the mover's own pieces, and under `capture-duty` on whether a move lands on a
    /// piece of any other seat.
    #[inline]
    pub fn legal_moves<const N: usize>(
        &self,
        pieces: &[u64; N],
        mover: usize,
        face: u32,
    ) -> LegalMoves {
        let others = if self.rules.profile().capture_duty {
            self.others_in_view(pieces, mover)
        } else {
            0
        };
        self.rules.legal_moves_seeing(pieces[mover], others, face)
    }

    /// [`Seats::roll_seated`] playing `movement`, one of [`Seats::legal_moves`] for this roll
    /// (`None` when there is none): the chosen move, with the same capture, win, extra roll
    /// and tries.
    #[inline(always)]
    pub fn roll_with_move<const N: usize>(
        &self,
        pieces: &mut [u64; N],
        mover: usize,
        tries: u8,
        face: u32,
        movement: Option<PieceMove>,
    ) -> SeatTurn {
        let turn = self
            .rules
            .roll_with_move(pieces[mover], 0, 0, tries, face, movement);
        self.apply(pieces, mover, turn)
    }

    /// A readable line such as `B:2 A 17 c` for `seat`, fields in its own numbering.
    pub fn describe(&self, state: &SeatState, seat: usize) -> String {
        let board = self.board();
        let mask = state.pieces[seat];
        let mut parts = vec![format!("B:{}", board.pieces() - mask.count_ones())];
        let mut rest = mask;
        while rest != 0 {
            parts.push(board.field_name(rest.trailing_zeros()));
            rest &= rest - 1;
        }
        parts.join(" ")
    }
}

/// Refuses the switches of `profile` that are not in [`TABLE_SWITCHES`], by name.
///
/// Goes through every switch that is on ([`Profile::switches_on`]), so a switch added to
/// [`Profile`] later is refused here until someone decides what it means at a table.
fn refuse_switches(profile: &Profile, players: usize) -> Result<(), SeatsError> {
    match profile
        .switches_on()
        .find(|name| !TABLE_SWITCHES.contains(name))
    {
        Some(name) => Err(SeatsError::Switch {
            name: name.to_string(),
            players,
        }),
        None => Ok(()),
    }
}
