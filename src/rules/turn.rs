//! One roll applied to a state: the single place where the rules of `docs/src/rules.md` live.

use super::{Board, GameState, Player, Profile, board::low_bits};

/// Which rule of "One turn" (`docs/src/rules.md`) decided the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveRule {
    /// Rule 1: a 6 brings a piece from `B` to `A`.
    BringIn,
    /// Rule 2: the piece on `A` moves on while pieces wait in `B`.
    ClearStart,
    /// Rule 3: the frontmost piece that can move, moves.
    Frontmost,
    /// Rule 3 under `choice`: the player chose this piece among those that can move.
    Chosen,
}

/// The moves one roll allows the player to move, from the mover's view (see
/// [`Rules::legal_moves`]): none (rule 4), one compulsory move (rules 1 and 2, and rule 3
/// without `choice`), or under `choice` one move for each piece the player may pick.
///
/// A move is named by the field its piece leaves; all moves of one roll go `face` fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    face: u32,
    rule: MoveRule,
    /// Fields whose piece may move `face`; empty when bringing in or when nothing moves.
    sources: u64,
    /// Rule 1: the one move brings a piece from `B` to `A`.
    bring_in: bool,
}

impl LegalMoves {
    const NONE: LegalMoves = LegalMoves {
        face: 0,
        rule: MoveRule::Frontmost,
        sources: 0,
        bring_in: false,
    };

    /// Number of moves to choose from (0 when nothing can move).
    pub fn len(&self) -> usize {
        usize::from(self.bring_in) + self.sources.count_ones() as usize
    }

    /// Nothing can move (rule 4).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The face rolled.
    pub fn face(&self) -> u32 {
        self.face
    }

    /// The rule that decides among these moves: [`MoveRule::Chosen`] when the player picks.
    pub fn rule(&self) -> MoveRule {
        self.rule
    }

    /// Bit mask of the fields whose piece may move (empty for rule 1 and rule 4).
    pub fn sources(&self) -> u64 {
        self.sources
    }

    /// The move of the piece on `from` (`None`: from `B`), if it is one of these moves.
    pub fn get(&self, from: Option<u32>) -> Option<PieceMove> {
        let legal = match from {
            None => self.bring_in,
            Some(f) => f < 64 && self.sources >> f & 1 == 1,
        };
        legal.then(|| PieceMove {
            from,
            to: from.map_or(0, |f| f + self.face),
            rule: self.rule,
        })
    }

    /// Whether `movement` is one of these moves (same piece, same target, same rule).
    pub fn contains(&self, movement: &PieceMove) -> bool {
        self.get(movement.from) == Some(*movement)
    }

    /// The moves, frontmost piece first (the order [`Rules::legal_moves`] documents).
    pub fn iter(&self) -> impl Iterator<Item = PieceMove> + '_ {
        let bring_in = self.bring_in.then_some(PieceMove {
            from: None,
            to: 0,
            rule: self.rule,
        });
        let mut rest = self.sources;
        let face = self.face;
        let rule = self.rule;
        bring_in.into_iter().chain(std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let from = 63 - rest.leading_zeros();
                rest &= !(1u64 << from);
                PieceMove {
                    from: Some(from),
                    to: from + face,
                    rule,
                }
            })
        }))
    }

    /// The frontmost of these moves: what `frontmost` (the `bwinf` rule 3) plays.
    pub fn frontmost(&self) -> Option<PieceMove> {
        self.iter().next()
    }
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

/// A move the rules do not allow for the roll (see [`Rules::play_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The face rolled.
    pub face: u32,
    /// The move asked for (`None`: no move although one is possible).
    pub movement: Option<PieceMove>,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.movement {
            None => write!(
                f,
                "a {} must move a piece: passing is not allowed",
                self.face
            ),
            Some(m) => {
                let from = m.from.map_or("B".to_string(), |x| x.to_string());
                write!(
                    f,
                    "moving {from} to {} is not a legal move for a {}",
                    m.to, self.face
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

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
    /// `capture[m][f]`: what a piece of player `m` landing on its field `f` captures, as a
    /// bit in the opponent's numbering: the opponent's number of `f` for a track field, 0
    /// for a goal field and for `f = 64`, "no landing" (the trailing zeros of an empty mask).
    /// One load in the hot path instead of an addition modulo the track length.
    capture: [[u64; 65]; 2],
    /// No switch changes which piece moves (`goal-last`, `no-jump-in-goal` and
    /// `capture-duty` are off).
    plain_order: bool,
    /// `capture-duty` is on: rule 3 must capture if it can, so the move depends on the
    /// opponent's pieces too.
    capture_duty: bool,
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

/// The move selected for a roll, in the form the hot path needs.
#[derive(Clone, Copy, Debug)]
struct Decision {
    /// The bit of the field the piece leaves (none when it comes from `B`) and the bit of
    /// the field it lands on; 0 when nothing moves. The first is an own piece and the second
    /// a free field, so `own ^ step` is the mover's pieces afterwards: one instruction, and
    /// neither the fields' numbers nor a "moved" flag are needed on the simulator's path.
    step: u64,
    rule: MoveRule,
}

/// The position a two-player roll leads to, from the side of whoever rolls next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextPosition {
    /// The pieces of the side to roll next.
    pub own: u64,
    /// The other side's pieces.
    pub other: u64,
    /// The side to roll next.
    pub mover: Player,
}

impl Turn {
    /// Where this roll of `mover`'s (two players) leaves the game, from the side of whoever
    /// rolls next; `None` after the winning roll.
    #[inline]
    pub fn next_position(&self, mover: Player) -> Option<NextPosition> {
        if self.won {
            None
        } else if self.passes {
            Some(NextPosition {
                own: self.other,
                other: self.own,
                mover: 1 - mover,
            })
        } else {
            Some(NextPosition {
                own: self.own,
                other: self.other,
                mover,
            })
        }
    }
}

impl NextPosition {
    /// `value`, a value of this position from its mover's side (the mover's chance to win
    /// minus the other's), from `side`'s: the same, or negated.
    #[inline]
    pub fn seen_by<T: std::ops::Neg<Output = T>>(&self, side: Player, value: T) -> T {
        if self.mover == side { value } else { -value }
    }
}

impl Decision {
    /// The decision that plays `movement` (nothing when `None`).
    #[inline(always)]
    fn of(movement: Option<PieceMove>) -> Decision {
        match movement {
            Some(m) => Decision {
                step: m.from.map_or(0, |f| 1u64 << f) | 1u64 << m.to,
                rule: m.rule,
            },
            None => Decision {
                step: 0,
                rule: MoveRule::Frontmost,
            },
        }
    }

    #[inline(always)]
    fn moved(&self) -> bool {
        self.step != 0
    }

    /// The move as a [`PieceMove`], for the player whose pieces were `own` before it.
    #[inline(always)]
    fn movement(&self, own: u64) -> Option<PieceMove> {
        let from = self.step & own;
        self.moved().then(|| PieceMove {
            from: (from != 0).then(|| from.trailing_zeros()),
            to: (self.step & !own).trailing_zeros(),
            rule: self.rule,
        })
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
            plain_order: !profile.goal_last && !profile.no_jump_in_goal && !profile.capture_duty,
            capture_duty: profile.capture_duty,
            capture: [0, 1].map(|mover| {
                std::array::from_fn(|field| {
                    let field = field as u32;
                    if field < board.track_len() {
                        1u64 << board.opponent_field(mover, field)
                    } else {
                        0
                    }
                })
            }),
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
        self.decide(own, face).movement(own)
    }

    /// The player's pieces after rolling `face`: `own` itself when nothing moves.
    #[inline(always)]
    pub fn next_own(&self, own: u64, face: u32) -> u64 {
        own ^ self.decide(own, face).step
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
    /// All candidate moves are computed first and one is selected, which the compiler may
    /// turn into branches or conditional moves as it sees fit (forcing conditional moves
    /// with `select_unpredictable` measured 7 % slower: the branches it keeps, on whether a
    /// piece waits and on rule 1, are well predicted and shorten the path to the next
    /// roll). Shifting the piece mask by the face gives every target at once
    /// (none for a face of 0, and none beyond the last field); the highest target belongs
    /// to the frontmost movable piece. Rule 2 needs no extra test: the piece on `A` can move
    /// exactly when field `face` is a target, and it is then the lowest one.
    #[inline(always)]
    fn decide_plain(&self, own: u64, face: u32) -> Decision {
        let someone_waits = own.count_ones() < self.pieces;
        let targets = own.checked_shl(face).unwrap_or(0) & !own & self.field_mask;
        // `wrapping_shl`: a face of 64 or more has no targets, so the bit is masked away.
        let from_start = targets & 1u64.wrapping_shl(face);
        let clear_start = someone_waits & (from_start != 0);
        // The highest target; none when there is no target (`& targets` clears the bit
        // that a shift by 64 & 63 = 0 leaves).
        let frontmost = (1u64 << 63).wrapping_shr(targets.leading_zeros()) & targets;
        let to = if clear_start { from_start } else { frontmost };
        // `&` rather than `&&`: no short-circuit, so no branch.
        let bring_in = (face == 6) & someone_waits & (own & 1 == 0);
        let step = if bring_in {
            1
        } else {
            to | to.wrapping_shr(face)
        };
        let rule = if bring_in {
            MoveRule::BringIn
        } else if clear_start {
            MoveRule::ClearStart
        } else {
            MoveRule::Frontmost
        };
        Decision { step, rule }
    }

    /// Rules 1 to 4 tried one after another, for the profiles that change the move order:
    /// the one move the rules fix, read off the legal-move list built without a choice.
    fn decide_general(&self, own: u64, face: u32) -> Decision {
        Decision::of(self.moves_by_rules(own, || 0, face, false).frontmost())
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

    /// Under `three-tries`: the player has nothing in play, so only a 6 can help.
    ///
    /// The rules (`docs/src/rules.md`): "no goal piece that could still move up". Decision 1 of
    /// `docs/src/rules.md` ("Decisions where the rules are open"): a goal piece could still move up
    /// when a free goal field lies beyond it, whatever the die; so the player qualifies exactly
    /// when its goal pieces fill the top goal fields without a gap.
    #[inline(always)]
    pub fn nothing_in_play(&self, own: u64) -> bool {
        own & self.track_mask == 0 && own == self.packed_goal[own.count_ones() as usize]
    }

    /// The moves rolling `face` allows the player to move, whose pieces are `own`, against
    /// the opponent's pieces `other` (in the opponent's numbering), by rules 1 to 4.
    ///
    /// Rules 1 and 2 are compulsory and come first. Otherwise, without `choice`, rule 3
    /// fixes the one move (the frontmost piece that can move); under `choice` every piece
    /// not in `B` that can move `face` may be picked, narrowed by the switches that
    /// restrict rule 3: under `goal-last` goal pieces only when no track piece can move
    /// (the switch read as a restriction of the choice), under `no-jump-in-goal` no jump
    /// over own goal pieces, under `capture-duty` only the capturing moves when one
    /// captures. Listed frontmost piece first, so [`LegalMoves::frontmost`] is what the
    /// `bwinf` rule 3 would play among them.
    #[inline(always)]
    pub fn legal_moves(&self, own: u64, other: u64, mover: Player, face: u32) -> LegalMoves {
        let opponents = || self.board.track_in_other_view(1 - mover, other);
        self.moves_by_rules(own, opponents, face, self.profile.choice)
    }

    /// [`Rules::legal_moves`] with the opponents given as `opponents`: the track fields, in
    /// the mover's numbering, where any other player's piece stands (what `capture-duty`
    /// asks; at a table of three or four, every other seat's pieces).
    pub fn legal_moves_seeing(&self, own: u64, opponents: u64, face: u32) -> LegalMoves {
        self.moves_by_rules(own, || opponents, face, self.profile.choice)
    }

    /// [`Rules::legal_moves`] with the choice switched on or off: without it rule 3 keeps
    /// the frontmost of the movable pieces alone (and `capture-duty`, a rule about choosing,
    /// does not apply), which is also how [`Rules::play_roll`] reads the slower profiles.
    #[inline(always)]
    fn moves_by_rules(
        &self,
        own: u64,
        opponents: impl FnOnce() -> u64,
        face: u32,
        choosing: bool,
    ) -> LegalMoves {
        let someone_waits = own.count_ones() < self.pieces;
        let start_taken = own & 1 != 0;
        let can_step = face != 0 && face <= self.last_field;
        let only = |rule, sources, bring_in| LegalMoves {
            face,
            rule,
            sources,
            bring_in,
        };
        if face == 6 && someone_waits && !start_taken {
            return only(MoveRule::BringIn, 0, true);
        }
        if someone_waits && start_taken && can_step && self.can_move(own, 0, face) {
            return only(MoveRule::ClearStart, 1, false);
        }
        if !can_step {
            return LegalMoves {
                face,
                ..LegalMoves::NONE
            };
        }
        let mut sources = if self.profile.goal_last {
            match self.movable(own & self.track_mask, own, face) {
                0 => self.movable(own & self.goal_mask, own, face),
                on_track => on_track,
            }
        } else {
            self.movable(own, own, face)
        };
        if !choosing {
            // Rule 3 of `bwinf`: the frontmost of them, alone.
            sources &= (1u64 << 63)
                .checked_shr(sources.leading_zeros())
                .unwrap_or(0);
            return only(MoveRule::Frontmost, sources, false);
        }
        if self.capture_duty {
            let capturing = (opponents() >> face) & sources;
            if capturing != 0 {
                sources = capturing;
            }
        }
        only(MoveRule::Chosen, sources, false)
    }

    /// The fields among `candidates` whose piece can move `face` (`1 <= face <= last_field`).
    #[inline(always)]
    fn movable(&self, candidates: u64, own: u64, face: u32) -> u64 {
        let mut sources = ((candidates << face) & !own & self.field_mask) >> face;
        if self.profile.no_jump_in_goal {
            let mut rest = sources;
            while rest != 0 {
                let from = rest.trailing_zeros();
                rest &= rest - 1;
                if !self.goal_path_clear(own, from, from + face) {
                    sources &= !(1u64 << from);
                }
            }
        }
        sources
    }

    /// Applies the rolled `face` to `state` and says what happened; the rules alone pick the
    /// move (rule 3 plays the frontmost piece, under `capture-duty` the frontmost capturing
    /// one). Under `choice` use [`Rules::play_move`] to play a chosen move.
    ///
    /// After a win the state keeps the winner as `to_move`; the game is over.
    #[inline(always)]
    pub fn play_roll(&self, state: &mut GameState, face: u32) -> RollOutcome {
        let mover = state.mover();
        let turn = self.roll_from_view(
            state.pieces[mover],
            state.pieces[1 - mover],
            mover,
            state.tries,
            face,
        );
        self.record(state, face, turn)
    }

    /// Applies the rolled `face` with the move the player chose (`None` only when nothing
    /// can move); refuses a move [`Rules::legal_moves`] does not allow.
    pub fn play_move(
        &self,
        state: &mut GameState,
        face: u32,
        movement: Option<PieceMove>,
    ) -> Result<RollOutcome, IllegalMove> {
        let mover = state.mover();
        let (own, other) = (state.pieces[mover], state.pieces[1 - mover]);
        let legal = self.legal_moves(own, other, mover, face);
        let allowed = match &movement {
            None => legal.is_empty(),
            Some(m) => legal.contains(m),
        };
        if !allowed {
            return Err(IllegalMove { face, movement });
        }
        let turn = self.roll_with_move(own, other, mover, state.tries, face, movement);
        Ok(self.record(state, face, turn))
    }

    /// Writes a roll's effect into `state` and describes it.
    #[inline(always)]
    fn record(&self, state: &mut GameState, face: u32, turn: Turn) -> RollOutcome {
        let mover = state.mover();
        state.pieces[mover] = turn.own;
        state.pieces[1 - mover] = turn.other;
        state.tries = turn.tries;
        state.to_move ^= u8::from(turn.passes);
        RollOutcome {
            mover,
            face,
            // The pieces before the roll: the step undone.
            movement: turn.decision.movement(turn.own ^ turn.decision.step),
            captured: (turn.captured_bit != 0).then(|| turn.captured_bit.trailing_zeros()),
            rolls_again: !turn.won && !turn.passes,
            winner: turn.won.then_some(mover),
        }
    }

    /// One roll seen from the player to move: its pieces `own`, the opponent's `other`,
    /// `tries` used this turn; the rules pick the move as in [`Rules::play_roll`]. The core
    /// of [`Rules::play_roll`]; the simulator calls it directly so that its state stays in
    /// registers (it swaps `own` and `other` when the turn passes instead of indexing by
    /// player).
    #[inline(always)]
    pub fn roll_from_view(
        &self,
        own: u64,
        other: u64,
        mover: Player,
        tries: u8,
        face: u32,
    ) -> Turn {
        self.roll_assuming(false, own, other, mover, tries, face)
    }

    /// Whether no switch changes which piece moves or how often a player rolls (only
    /// `roll-off` and `choice` may be on): [`Rules::roll_plain`] then plays every roll.
    pub fn is_plain(&self) -> bool {
        self.plain_order && !self.profile.three_tries
    }

    /// [`Rules::roll_from_view`] for rules that are [`Rules::is_plain`] (so `tries` is
    /// always 0): the same code with the switches' tests known to fail, so that a hot loop
    /// specialised for these rules carries neither the tests nor the count of tries.
    #[inline(always)]
    pub fn roll_plain(&self, own: u64, other: u64, mover: Player, face: u32) -> Turn {
        debug_assert!(self.is_plain());
        self.roll_assuming(true, own, other, mover, 0, face)
    }

    /// [`Rules::roll_from_view`]; `plain`: the caller knows the rules are
    /// [`Rules::is_plain`], a constant that lets the compiler drop the switches' tests.
    #[inline(always)]
    fn roll_assuming(
        &self,
        plain: bool,
        own: u64,
        other: u64,
        mover: Player,
        tries: u8,
        face: u32,
    ) -> Turn {
        let d = if plain || self.plain_order {
            self.decide_plain(own, face)
        } else if self.capture_duty {
            // Rare profile: the move depends on the opponent, so go through the list.
            Decision::of(self.legal_moves(own, other, mover, face).frontmost())
        } else {
            self.decide_general(own, face)
        };
        let three_tries = !plain && self.profile.three_tries;
        self.finish(own, other, mover, tries, face, d, three_tries)
    }

    /// One roll seen from the player to move, playing `movement`, which must be one of
    /// [`Rules::legal_moves`] for this roll (`None` when there is none). The strategies'
    /// path of the simulator; the caller guarantees legality ([`Rules::play_move`] checks it).
    #[inline(always)]
    pub fn roll_with_move(
        &self,
        own: u64,
        other: u64,
        mover: Player,
        tries: u8,
        face: u32,
        movement: Option<PieceMove>,
    ) -> Turn {
        debug_assert!(match &movement {
            None => self.legal_moves(own, other, mover, face).is_empty(),
            Some(m) => self.legal_moves(own, other, mover, face).contains(m),
        });
        let three_tries = self.profile.three_tries;
        self.finish(
            own,
            other,
            mover,
            tries,
            face,
            Decision::of(movement),
            three_tries,
        )
    }

    /// Everything after the move is known: capture, win, who rolls next. `three_tries`:
    /// the profile's switch, passed in so that a caller can make it a constant.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        own: u64,
        other: u64,
        mover: Player,
        tries: u8,
        face: u32,
        d: Decision,
        three_tries: bool,
    ) -> Turn {
        let new_own = own ^ d.step;
        // A landing on a track field captures whatever opponent piece stands there.
        let landing = d.step & new_own;
        let theirs = self.capture[mover][landing.trailing_zeros() as usize];
        let won = self.has_won(new_own);
        let extra_try = three_tries
            && !won
            && face != 6
            && !d.moved()
            && tries < 2
            && self.nothing_in_play(own);
        Turn {
            own: new_own,
            other: other & !theirs,
            moved: d.moved(),
            won,
            // A 6 rolls again, every other face passes the turn (unless a try is left).
            passes: !won & (face != 6) & !extra_try,
            tries: if extra_try { tries + 1 } else { 0 },
            captured_bit: other & theirs,
            decision: d,
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
            prop_assert_eq!(fast.step, slow.step);
            if fast.moved() {
                prop_assert_eq!(fast.rule, slow.rule);
            }
        }
    }

    proptest! {
        /// Without `choice` the legal moves are the one move rule 3 fixes, under every
        /// switch that changes the order.
        #[test]
        fn without_choice_the_one_legal_move_is_the_rules_move(
            own in bwinf_mask(),
            face in 0u32..70,
            profile in proptest::sample::select(vec!["bwinf", "goal-last", "no-jump-in-goal", "goal-last+no-jump-in-goal"]),
        ) {
            let rules = Rules::new(Board::BWINF, profile.parse().unwrap());
            let legal = rules.legal_moves(own, 0, 0, face);
            prop_assert!(legal.len() <= 1);
            prop_assert_eq!(legal.frontmost(), rules.choose_move(own, face));
        }

        /// Under `choice` the rules' own pick (frontmost) is among the legal moves and is the
        /// first of them, and every listed move lands on a field free of own pieces.
        #[test]
        fn under_choice_the_frontmost_move_is_legal(
            own in bwinf_mask(),
            other in bwinf_mask(),
            face in 0u32..70,
        ) {
            let rules = Rules::new(Board::BWINF, "choice".parse().unwrap());
            let legal = rules.legal_moves(own, other, 0, face);
            let frontmost = rules.choose_move(own, face).map(|m| m.to);
            prop_assert_eq!(legal.frontmost().map(|m| m.to), frontmost);
            for m in legal.iter() {
                prop_assert!(own & (1u64 << m.to) == 0);
                prop_assert!(m.to <= 43);
            }
        }
    }
}
