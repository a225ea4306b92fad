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
    /// What to add (mod track length) to a field of player 1 or 2 to get the opponent's number.
    shift_to_opponent: [u32; 2],
    /// No switch changes which piece moves (`goal-last` and `no-jump-in-goal` are off).
    plain_order: bool,
}

/// A roll's effect as [`Rules::roll_from_view`] reports it, from the mover's view.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The mover's pieces afterwards.
    pub own: u64,
    /// The opponent's pieces afterwards.
    pub other: u64,
    /// A piece moved.
    pub moved: bool,
    /// The roll won the game for the mover.
    pub won: bool,
    /// The other player rolls next.
    pub passes: bool,
    /// Rolls used in this turn under `three-tries` (0 when the turn passes or after a 6).
    pub tries: u8,
    /// Bit of the captured opponent piece in the opponent's numbering, 0 if none.
    pub captured_bit: u64,
    decision: Decision,
}

/// Everything one roll did, before it is described.
#[derive(Clone, Copy, Debug)]
struct Step {
    decision: Decision,
    /// Bit of the captured opponent piece in the opponent's numbering, 0 if none.
    captured_bit: u64,
    won: bool,
}

/// The move selected for a roll, in the form the hot path needs.
#[derive(Clone, Copy, Debug)]
struct Decision {
    moved: bool,
    to: u32,
    /// Bit of the field the piece leaves (0 when it comes from `B`).
    from_bit: u64,
    rule: MoveRule,
}

impl Decision {
    #[inline(always)]
    fn new_own(&self, own: u64) -> u64 {
        if self.moved {
            (own & !self.from_bit) | (1u64 << self.to)
        } else {
            own
        }
    }
}

impl Rules {
    /// Rules for a board under a profile.
    pub fn new(board: Board, profile: Profile) -> Rules {
        let mut packed_goal = [0u64; 65];
        for (k, slot) in packed_goal
            .iter_mut()
            .enumerate()
            .take(board.goal_len() as usize + 1)
        {
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
            plain_order: !profile.goal_last && !profile.no_jump_in_goal,
            shift_to_opponent: [board.opponent_field(0, 0), board.opponent_field(1, 0)],
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
        let d = self.decide(own, face);
        d.moved.then(|| PieceMove {
            from: (d.from_bit != 0).then(|| d.from_bit.trailing_zeros()),
            to: d.to,
            rule: d.rule,
        })
    }

    /// The player's pieces after rolling `face`: `own` itself when nothing moves.
    #[inline(always)]
    pub fn next_own(&self, own: u64, face: u32) -> u64 {
        self.decide(own, face).new_own(own)
    }

    /// Rules 1 to 4 in one pass.
    #[inline(always)]
    fn decide(&self, own: u64, face: u32) -> Decision {
        if self.plain_order {
            self.decide_plain(own, face)
        } else {
            self.decide_general(own, face)
        }
    }

    /// Rules 1 to 4 when neither `goal-last` nor `no-jump-in-goal` changes the move order.
    ///
    /// All candidate moves are computed first and one is selected: a random face makes
    /// every "which rule applies" branch unpredictable, while selects compile to
    /// conditional moves. Shifting the piece mask by the face gives every target at once;
    /// the highest free target belongs to the frontmost movable piece. Rule 2 needs no
    /// extra test: the piece on `A` can move exactly when field `face` is such a target.
    #[inline(always)]
    fn decide_plain(&self, own: u64, face: u32) -> Decision {
        let someone_waits = own.count_ones() < self.pieces;
        let start_taken = own & 1 != 0;
        // 1 <= face <= last_field, else nothing moves by rules 2 and 3.
        let can_step = face.wrapping_sub(1) < self.last_field;
        let shifted = own.wrapping_shl(face);
        let targets = if can_step {
            shifted & !own & self.field_mask
        } else {
            0
        };
        // `&` rather than `&&`: no short-circuit, so no branch.
        let bring_in = (face == 6) & someone_waits & !start_taken;
        let clear_start = someone_waits & start_taken & ((targets >> (face & 63)) & 1 != 0);
        let frontmost_to = 63 - (targets | 1).leading_zeros();
        let to_if_moving = if clear_start { face } else { frontmost_to };
        let to = if bring_in { 0 } else { to_if_moving };
        let from_bit = if bring_in {
            0
        } else {
            1u64 << (to.wrapping_sub(face) & 63)
        };
        let rule = if bring_in {
            MoveRule::BringIn
        } else if clear_start {
            MoveRule::ClearStart
        } else {
            MoveRule::Frontmost
        };
        Decision {
            moved: bring_in | clear_start | (targets != 0),
            to,
            from_bit,
            rule,
        }
    }

    /// Rules 1 to 4 tried one after another, for the profiles that change the move order.
    fn decide_general(&self, own: u64, face: u32) -> Decision {
        let someone_waits = own.count_ones() < self.pieces;
        let start_taken = own & 1 != 0;
        let can_step = face != 0 && face <= self.last_field;
        let (moved, to, from_bit, rule) = if face == 6 && someone_waits && !start_taken {
            (true, 0, 0, MoveRule::BringIn)
        } else if someone_waits && start_taken && can_step && self.can_move(own, 0, face) {
            (true, face, 1, MoveRule::ClearStart)
        } else {
            match can_step.then(|| self.frontmost_target(own, face)).flatten() {
                Some(to) => (true, to, 1u64 << (to - face), MoveRule::Frontmost),
                None => (false, 0, 0, MoveRule::Frontmost),
            }
        };
        Decision {
            moved,
            to,
            from_bit,
            rule,
        }
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

    /// Target field of the frontmost own piece that can move `face` (`1 <= face <= last_field`).
    #[inline(always)]
    fn frontmost_target(&self, own: u64, face: u32) -> Option<u32> {
        if self.profile.goal_last {
            self.frontmost_among(own & self.track_mask, own, face)
                .or_else(|| self.frontmost_among(own & self.goal_mask, own, face))
        } else {
            self.frontmost_among(own, own, face)
        }
    }

    /// Target field of the frontmost piece among `sources` that can move `face`, if any.
    ///
    /// Shifting the source mask by `face` gives every target at once; the highest free
    /// target belongs to the frontmost movable piece, so one `leading_zeros` finds it.
    #[inline(always)]
    fn frontmost_among(&self, sources: u64, own: u64, face: u32) -> Option<u32> {
        let mut targets = (sources << face) & !own & self.field_mask;
        if !self.profile.no_jump_in_goal {
            return (targets != 0).then(|| 63 - targets.leading_zeros());
        }
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
        let step = self.advance(state, face);
        let d = step.decision;
        RollOutcome {
            mover,
            face,
            movement: d.moved.then(|| PieceMove {
                from: (d.from_bit != 0).then(|| d.from_bit.trailing_zeros()),
                to: d.to,
                rule: d.rule,
            }),
            captured: (step.captured_bit != 0).then(|| step.captured_bit.trailing_zeros()),
            rolls_again: !step.won && state.mover() == mover,
            winner: step.won.then_some(mover),
        }
    }

    /// Applies `face`: moves, captures, decides who rolls next.
    #[inline(always)]
    fn advance(&self, state: &mut GameState, face: u32) -> Step {
        let mover = state.mover();
        let turn = self.roll_from_view(
            state.pieces[mover],
            state.pieces[1 - mover],
            mover,
            state.tries,
            face,
        );
        state.pieces[mover] = turn.own;
        state.pieces[1 - mover] = turn.other;
        state.tries = turn.tries;
        state.to_move ^= u8::from(turn.passes);
        Step {
            decision: turn.decision,
            captured_bit: turn.captured_bit,
            won: turn.won,
        }
    }

    /// One roll seen from the player to move: its pieces `own`, the opponent's `other`,
    /// `tries` used this turn. The core of [`Rules::play_roll`]; the simulator calls it
    /// directly so that its state stays in registers (it swaps `own` and `other` when the
    /// turn passes instead of indexing by player).
    #[inline(always)]
    pub fn roll_from_view(
        &self,
        own: u64,
        other: u64,
        mover: Player,
        tries: u8,
        face: u32,
    ) -> Turn {
        let d = self.decide(own, face);
        let new_own = d.new_own(own);
        // A landing on a track field captures whatever opponent piece stands there.
        let lands_on_track = d.moved & (d.to < self.board.track_len());
        let theirs = u64::from(lands_on_track) << (self.opponent_field_of(mover, d.to) & 63);
        let won = self.has_won(new_own);
        let extra_try = self.profile.three_tries
            && !won
            && face != 6
            && !d.moved
            && tries < 2
            && self.nothing_in_play(own);
        Turn {
            own: new_own,
            other: other & !theirs,
            moved: d.moved,
            won,
            // A 6 rolls again, every other face passes the turn (unless a try is left).
            passes: !won & (face != 6) & !extra_try,
            tries: if extra_try { tries + 1 } else { 0 },
            captured_bit: other & theirs,
            decision: d,
        }
    }

    /// A track field seen by `mover` in the opponent's numbering (see [`Board::opponent_field`]).
    #[inline(always)]
    fn opponent_field_of(&self, mover: Player, field: u32) -> u32 {
        let f = field + self.shift_to_opponent[mover];
        if f >= self.board.track_len() {
            f - self.board.track_len()
        } else {
            f
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Any mask with at most 4 pieces on the 44 BwInf fields.
    fn bwinf_mask() -> impl Strategy<Value = u64> {
        proptest::collection::btree_set(0u32..44, 0..=4)
            .prop_map(|fields| fields.iter().fold(0u64, |m, &f| m | 1 << f))
    }

    proptest! {
        /// The branch-free fast path and the rule-by-rule path agree on every position and
        /// face (faces beyond the board included).
        #[test]
        fn fast_path_equals_rule_by_rule(own in bwinf_mask(), face in 0u32..70) {
            let rules = Rules::bwinf();
            let fast = rules.decide_plain(own, face);
            let slow = rules.decide_general(own, face);
            prop_assert_eq!(fast.moved, slow.moved);
            if fast.moved {
                prop_assert_eq!((fast.to, fast.from_bit, fast.rule), (slow.to, slow.from_bit, slow.rule));
            }
        }
    }
}
