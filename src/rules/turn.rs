//! One roll applied to a state: the single place where the rules of RULES.md live.

use super::{Board, GameState, Player, Profile, board::low_bits};

/// Which rule of RULES.md "A turn" decided the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveRule {
    /// Rule 1: a 6 brings a piece from `B` to `A`.
    BringIn,
    /// Rule 2: the piece on `A` moves on while pieces wait in `B`.
    ClearStart,
    /// Rule 3: the frontmost piece that can move, moves.
    Frontmost,
}

/// A piece's move in its owner's numbering; `from == None` means from `B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PieceMove {
    /// Field the piece leaves, `None` for the waiting area `B`.
    pub from: Option<u32>,
    /// Field the piece lands on.
    pub to: u32,
    /// The rule that chose this move.
    pub rule: MoveRule,
}

/// What one roll did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollOutcome {
    /// The player who rolled.
    pub mover: Player,
    /// The face rolled.
    pub face: u32,
    /// The move made, or `None` when nothing could move (rule 4).
    pub movement: Option<PieceMove>,
    /// Field of the captured opponent piece, in the opponent's numbering.
    pub captured: Option<u32>,
    /// The same player rolls again (a 6, or another try under `three-tries`).
    pub rolls_again: bool,
    /// Set when this roll won the game; the game ends at once.
    pub winner: Option<Player>,
}

/// A board with a profile: everything needed to play a roll.
///
/// The masks are computed once so that the hot path is a handful of bit operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    board: Board,
    profile: Profile,
    field_mask: u64,
    track_mask: u64,
    goal_mask: u64,
    last_field: u32,
    pieces: u32,
    /// The goal fields a full, immovable goal row of `k` pieces occupies, for `k = 0..=pieces`.
    packed_goal: [u64; 65],
}

impl Rules {
    /// Rules for a board under a profile.
    pub fn new(board: Board, profile: Profile) -> Rules {
        let mut packed_goal = [0u64; 65];
        for (k, slot) in packed_goal.iter_mut().enumerate().take(board.goal_len() as usize + 1) {
            // The top k goal fields: the only goal placement in which no goal piece can move up.
            *slot = board.field_mask() & !low_bits(board.fields() - k as u32);
        }
        Rules {
            board,
            profile,
            field_mask: board.field_mask(),
            track_mask: board.track_mask(),
            goal_mask: board.goal_mask(),
            last_field: board.last_field(),
            pieces: board.pieces(),
            packed_goal,
        }
    }

    /// The BwInf rules on the BwInf board.
    pub fn bwinf() -> Rules {
        Rules::new(Board::BWINF, Profile::BWINF)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Whether all of a player's pieces stand in the goal.
    #[inline(always)]
    pub fn has_won(&self, own: u64) -> bool {
        (own & self.goal_mask).count_ones() == self.pieces
    }

    /// The move a player whose pieces are `own` makes with `face` (rules 1 to 4).
    ///
    /// Moves depend on the player's own pieces only: opponent pieces are jumped over or
    /// captured, never block. That is what lets the exact solver tabulate moves per player.
    #[inline(always)]
    pub fn choose_move(&self, own: u64, face: u32) -> Option<PieceMove> {
        let waiting = self.pieces - own.count_ones();
        if face == 6 && waiting > 0 && own & 1 == 0 {
            return Some(PieceMove {
                from: None,
                to: 0,
                rule: MoveRule::BringIn,
            });
        }
        if face == 0 || face > self.last_field {
            // No piece moves 0 fields, and no piece can move further than the whole board.
            return None;
        }
        if waiting > 0 && own & 1 != 0 && self.can_move(own, 0, face) {
            return Some(PieceMove {
                from: Some(0),
                to: face,
                rule: MoveRule::ClearStart,
            });
        }
        let target = if self.profile.goal_last {
            match self.frontmost_target(own & self.track_mask, own, face) {
                Some(t) => Some(t),
                None => self.frontmost_target(own & self.goal_mask, own, face),
            }
        } else {
            self.frontmost_target(own, own, face)
        }?;
        Some(PieceMove {
            from: Some(target - face),
            to: target,
            rule: MoveRule::Frontmost,
        })
    }

    /// Whether the piece on `from` can move `face` fields (`face >= 1`).
    #[inline(always)]
    pub fn can_move(&self, own: u64, from: u32, face: u32) -> bool {
        let to = from + face;
        to <= self.last_field && own & (1u64 << to) == 0 && self.goal_path_clear(own, from, to)
    }

    /// Under `no-jump-in-goal`: no own goal piece strictly between `from` and `to`.
    #[inline(always)]
    fn goal_path_clear(&self, own: u64, from: u32, to: u32) -> bool {
        if !self.profile.no_jump_in_goal {
            return true;
        }
        let between = low_bits(to) & !low_bits(from + 1);
        own & self.goal_mask & between == 0
    }

    /// Target field of the frontmost piece among `sources` that can move `face`, if any.
    ///
    /// Shifting the source mask by `face` gives every target at once; the highest free
    /// target belongs to the frontmost movable piece, so one `leading_zeros` finds it.
    #[inline(always)]
    fn frontmost_target(&self, sources: u64, own: u64, face: u32) -> Option<u32> {
        let mut targets = (sources << face) & !own & self.field_mask;
        while targets != 0 {
            let to = 63 - targets.leading_zeros();
            if self.goal_path_clear(own, to - face, to) {
                return Some(to);
            }
            targets &= !(1u64 << to);
        }
        None
    }

    /// Under `three-tries`: the player has nothing in play, so only a 6 can help.
    ///
    /// RULES.md: "no piece on the track, and none in the goal that could still move up".
    /// Decision (see README, "Decisions on RULES.md"): a goal piece could still move up when
    /// a free goal field lies beyond it, whatever the die; so the player qualifies exactly
    /// when its goal pieces fill the top goal fields without a gap.
    #[inline(always)]
    pub fn nothing_in_play(&self, own: u64) -> bool {
        own & self.track_mask == 0 && own == self.packed_goal[own.count_ones() as usize]
    }

    /// Applies the rolled `face` to `state` and says what happened.
    ///
    /// After a win the state keeps the winner as `to_move`; the game is over.
    #[inline(always)]
    pub fn play_roll(&self, state: &mut GameState, face: u32) -> RollOutcome {
        let mover = state.mover();
        let own = state.pieces[mover];
        let movement = self.choose_move(own, face);
        let mut outcome = RollOutcome {
            mover,
            face,
            movement,
            captured: None,
            rolls_again: false,
            winner: None,
        };
        if let Some(m) = movement {
            let from_bit = m.from.map_or(0, |f| 1u64 << f);
            let new_own = (own & !from_bit) | (1u64 << m.to);
            state.pieces[mover] = new_own;
            if m.to < self.board.track_len() {
                let theirs = 1u64 << self.board.opponent_field(mover, m.to);
                let other = &mut state.pieces[1 - mover];
                if *other & theirs != 0 {
                    *other &= !theirs;
                    outcome.captured = Some(theirs.trailing_zeros());
                }
            }
            if self.has_won(new_own) {
                outcome.winner = Some(mover);
                state.tries = 0;
                return outcome;
            }
        }
        if face == 6 {
            outcome.rolls_again = true;
            state.tries = 0;
        } else if self.profile.three_tries
            && movement.is_none()
            && state.tries < 2
            && self.nothing_in_play(own)
        {
            outcome.rolls_again = true;
            state.tries += 1;
        } else {
            state.to_move ^= 1;
            state.tries = 0;
        }
        outcome
    }
}
