//! One simulated game.

use crate::dice::Die;
use crate::rules::{GameState, LegalMoves, PieceMove, Player, Rules, rare};
use crate::strategy::Strategy;
use rand::Rng;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A player won after this many rolls.
    Won {
        /// The winner.
        winner: Player,
        /// Rolls in the game.
        rolls: u64,
    },
    /// The game hit the roll cap.
    Capped,
    /// The position can provably never change again (see [`never_ends`]).
    Endless,
}

/// Every this many rolls a game checks whether it is stuck (when that roll moved nothing).
/// One test against a precomputed roll number also covers the roll cap, so the hot loop
/// keeps no idle counter; a stuck game is recognised at most this many rolls late.
const STUCK_CHECK_INTERVAL: u64 = 64;

/// How [`Matchup::play_game`] picks the moves: the strategies choose...
pub(crate) const CHOOSING: u8 = 0;
/// ... the rules pick them ...
pub(crate) const BY_RULES: u8 = 1;
/// ... the rules pick them and are [`Rules::is_plain`].
pub(crate) const PLAIN: u8 = 2;

/// A game's rolls, counted down to the next check for a stuck game or the roll cap: one
/// register and one test in the hot loop.
pub(crate) struct Clock {
    /// Rolls left until the next check.
    pub(crate) left: u64,
    /// The roll count at which the check is due.
    next_check: u64,
}

impl Clock {
    pub(crate) fn new(max_rolls: u64) -> Clock {
        let next_check = STUCK_CHECK_INTERVAL.min(max_rolls);
        Clock {
            left: next_check,
            next_check,
        }
    }

    /// Rolls played so far.
    pub(crate) fn rolls(&self) -> u64 {
        self.next_check - self.left
    }

    /// After a check at `rolls` rolls that did not end the game (so `rolls < max_rolls`):
    /// the next check comes `STUCK_CHECK_INTERVAL` rolls later, or at the cap.
    pub(crate) fn wind(&mut self, rolls: u64, max_rolls: u64) {
        self.next_check = (rolls + STUCK_CHECK_INTERVAL).min(max_rolls);
        self.left = self.next_check - rolls;
    }
}

/// Is told every decision of a game played by the strategies' loop (see
/// [`Matchup::play_game_watched`]).
pub(crate) trait Watcher {
    /// `mover`, with `own` and `other` on the board, rolled `face`, had the moves `legal`
    /// and played `movement`.
    fn decision(
        &mut self,
        own: u64,
        other: u64,
        mover: Player,
        face: u32,
        legal: &LegalMoves,
        movement: Option<PieceMove>,
    );
}

/// Watches nothing: the plain game loop.
pub(crate) struct Unwatched;

impl Watcher for Unwatched {
    #[inline(always)]
    fn decision(
        &mut self,
        _: u64,
        _: u64,
        _: Player,
        _: u32,
        _: &LegalMoves,
        _: Option<PieceMove>,
    ) {
    }
}

/// A matchup ready to play: rules, both dice, both players' strategies and the roll cap,
/// checked by [`Matchup::new`] / [`Matchup::with_strategies`] so that every game of it ends.
#[derive(Clone, Debug)]
pub struct Matchup<'a> {
    rules: &'a Rules,
    dice: [&'a Die; 2],
    /// Each player's strategy, resolved against the other player's die
    /// ([`Strategy::against`]).
    strategies: [Strategy; 2],
    /// Both play `frontmost` and the move depends on the mover's own pieces only (no
    /// `capture-duty`): [`Rules::choose_move`] picks every move (the fast path).
    rules_pick: bool,
    max_rolls: u64,
}

/// Why two dice cannot be played against each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchupError {
    /// A roll cap of 0: no game could take a single roll.
    NoRolls,
    /// Under `roll-off` both dice show only this face, so nobody ever starts.
    RollOffUndecidable {
        /// The one face of both dice.
        face: u32,
    },
    /// A strategy other than `frontmost` without the `choice` profile, under which rule 3
    /// fixes every move and there is nothing to choose.
    StrategyNeedsChoice {
        /// The player (0 = die A) given the strategy.
        player: Player,
    },
    /// A `table:FILE` strategy was solved for another game (board, profile or dice), or a
    /// `strong` player trained for another board or profile: its moves would not be the
    /// ones it was made for, so it is refused rather than played.
    NotForThisGame {
        /// The player (0 = die A) given the strategy.
        player: Player,
        /// What differs.
        why: String,
    },
}

impl std::fmt::Display for MatchupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchupError::NoRolls => write!(f, "a roll cap of 0: expected at least 1 roll"),
            MatchupError::RollOffUndecidable { face } => write!(
                f,
                "the roll-off can never decide who starts: both dice show only {face}"
            ),
            MatchupError::StrategyNeedsChoice { player } => write!(
                f,
                "die {}'s strategy picks among moves, which needs the choice profile: without \
                 it rule 3 fixes every move (the frontmost piece that can move)",
                ["A", "B"][*player]
            ),
            MatchupError::NotForThisGame { player, why } => {
                write!(f, "die {}'s strategy: {why}", ["A", "B"][*player])
            }
        }
    }
}

impl std::error::Error for MatchupError {}

impl<'a> Matchup<'a> {
    /// Die A (`dice[0]`) against die B under `rules`; a game reaching `max_rolls` rolls is
    /// counted as unfinished. Both players play `frontmost` (see [`Matchup::playing`]).
    ///
    /// Refuses a cap of 0 and, under `roll-off`, two dice that always show the same face.
    /// Every other pair of dice can be played: the rules move a piece only for faces
    /// from 1 to the last field (others are rolls in which nothing moves), so no face is too
    /// large, and a game in which nobody can move any more is recognised as never-ending.
    pub fn new(rules: &'a Rules, dice: [&'a Die; 2], max_rolls: u64) -> Result<Self, MatchupError> {
        if max_rolls == 0 {
            return Err(MatchupError::NoRolls);
        }
        if rules.profile().roll_off && !roll_off_can_decide(dice) {
            return Err(MatchupError::RollOffUndecidable {
                face: dice[0].faces()[0],
            });
        }
        Ok(Matchup {
            rules,
            dice,
            strategies: [Strategy::Frontmost, Strategy::Frontmost],
            rules_pick: rules.profile().moves_depend_on_own_pieces_only(),
            max_rolls,
        })
    }

    /// As [`Matchup::new`], with die A playing `strategies[0]` and die B `strategies[1]`
    /// (see [`Matchup::playing`]).
    pub fn with_strategies(
        rules: &'a Rules,
        dice: [&'a Die; 2],
        strategies: [Strategy; 2],
        max_rolls: u64,
    ) -> Result<Self, MatchupError> {
        Self::new(rules, dice, max_rolls)?.playing(strategies)
    }

    /// The same matchup with die A playing `strategies[0]` and die B `strategies[1]`.
    ///
    /// Each strategy is resolved against the other player's die ([`Strategy::against`]:
    /// `safe` measures threats with it). Refuses a strategy other than `frontmost` unless
    /// the profile has `choice`, and a `table:FILE` policy or `strong` player made for another
    /// game.
    pub fn playing(self, strategies: [Strategy; 2]) -> Result<Self, MatchupError> {
        if let Some(player) = (0..2).find(|&p| !strategies[p].is_frontmost())
            && !self.rules.profile().choice
        {
            return Err(MatchupError::StrategyNeedsChoice { player });
        }
        for (player, strategy) in strategies.iter().enumerate() {
            strategy
                .check_game(self.rules, self.dice)
                .map_err(|why| MatchupError::NotForThisGame { player, why })?;
        }
        Ok(Matchup {
            rules_pick: strategies.iter().all(Strategy::is_frontmost)
                && self.rules.profile().moves_depend_on_own_pieces_only(),
            strategies: [
                strategies[0].seated(self.dice, 0),
                strategies[1].seated(self.dice, 1),
            ],
            ..self
        })
    }

    /// Die A's and die B's strategies, as played (resolved against the other die).
    pub fn strategies(&self) -> &[Strategy; 2] {
        &self.strategies
    }

    /// The rules.
    pub fn rules(&self) -> &'a Rules {
        self.rules
    }

    /// Die A and die B.
    pub fn dice(&self) -> [&'a Die; 2] {
        self.dice
    }

    /// The roll cap: a game reaching this many rolls is counted as unfinished.
    pub fn max_rolls(&self) -> u64 {
        self.max_rolls
    }

    /// Plays one game from the opening position with `first` to move.
    ///
    /// When both players play `frontmost` and the profile has no `capture-duty`, the rules
    /// pick every move from the mover's pieces alone ([`Rules::roll_from_view`], the
    /// `bwinf` fast path); otherwise each roll lists the legal moves and the mover's strategy
    /// picks one. The loops are the same code, compiled once for each case, so the fast
    /// path pays nothing for strategies, and the plainest rules ([`Rules::is_plain`], which
    /// `bwinf` is) nothing for the switches.
    #[inline(always)]
    pub fn play<R: Rng>(&self, first: Player, rng: &mut R) -> GameEnd {
        match self.how() {
            PLAIN => self.play_game::<PLAIN, R>(first, rng),
            BY_RULES => self.play_game::<BY_RULES, R>(first, rng),
            _ => self.play_game::<CHOOSING, R>(first, rng),
        }
    }

    /// Which copy of the game loop plays this matchup: [`CHOOSING`], [`BY_RULES`] or
    /// [`PLAIN`] (see [`Matchup::play_game`]).
    pub(crate) fn how(&self) -> u8 {
        if !self.rules_pick {
            CHOOSING
        } else if self.rules.is_plain() {
            PLAIN
        } else {
            BY_RULES
        }
    }

    /// One game; `HOW`: [`CHOOSING`] (the strategies pick the moves), [`BY_RULES`] (the
    /// rules do) or [`PLAIN`] (the rules do, and they are [`Rules::is_plain`]).
    ///
    /// The players' turns alternate in the code itself, A's turn then B's, so which player
    /// moves is a constant in each copy: no mover index, no swapping, and the position
    /// stays in registers. Ending a turn is a loop exit the processor predicts, so the
    /// next turn starts before this roll's result is known.
    #[inline(always)]
    pub(crate) fn play_game<const HOW: u8, R: Rng>(&self, first: Player, rng: &mut R) -> GameEnd {
        self.play_game_watched::<HOW, R, Unwatched>(first, rng, &mut Unwatched)
    }

    /// [`Matchup::play_game`] telling `watcher` every decision of the strategies' loop
    /// ([`CHOOSING`]): the same games from the same stream, since watching draws nothing.
    #[inline(always)]
    pub(crate) fn play_game_watched<const HOW: u8, R: Rng, W: Watcher>(
        &self,
        first: Player,
        rng: &mut R,
        watcher: &mut W,
    ) -> GameEnd {
        let [mut a, mut b] = GameState::start(first).pieces;
        let mut clock = Clock::new(self.max_rolls);
        if first == 1
            && let Some(end) =
                self.play_turn::<HOW, 1, R, W>(&mut b, &mut a, &mut clock, rng, watcher)
        {
            return end;
        }
        loop {
            if let Some(end) =
                self.play_turn::<HOW, 0, R, W>(&mut a, &mut b, &mut clock, rng, watcher)
            {
                return end;
            }
            if let Some(end) =
                self.play_turn::<HOW, 1, R, W>(&mut b, &mut a, &mut clock, rng, watcher)
            {
                return end;
            }
        }
    }

    /// The rolls of player `MOVER`, whose pieces are `own` (the opponent's `other`), until
    /// the turn passes (`None`) or the game ends.
    #[inline(always)]
    fn play_turn<const HOW: u8, const MOVER: Player, R: Rng, W: Watcher>(
        &self,
        own: &mut u64,
        other: &mut u64,
        clock: &mut Clock,
        rng: &mut R,
        watcher: &mut W,
    ) -> Option<GameEnd> {
        let mut tries = 0u8;
        loop {
            clock.left -= 1;
            let face = self.dice[MOVER].roll(rng);
            let turn = match HOW {
                CHOOSING => {
                    let legal = self.rules.legal_moves(*own, *other, MOVER, face);
                    let movement =
                        self.strategies[MOVER].choose(self.rules, *own, *other, MOVER, &legal, rng);
                    watcher.decision(*own, *other, MOVER, face, &legal, movement);
                    self.rules
                        .roll_with_move(*own, *other, MOVER, tries, face, movement)
                }
                PLAIN => self.rules.roll_plain(*own, *other, MOVER, face),
                _ => self.rules.roll_from_view(*own, *other, MOVER, tries, face),
            };
            *own = turn.own;
            // `turn.other`, written so that the common case (no capture) is a predicted
            // branch (see [`rare`]).
            if turn.captured_bit != 0 {
                rare();
                *other ^= turn.captured_bit;
            }
            // The three ways a game can end are rare; one combined test keeps the loop to a
            // single well-predicted branch.
            if turn.won | (clock.left == 0) {
                let rolls = clock.rolls();
                let mut pieces = [turn.own, turn.other];
                if MOVER == 1 {
                    pieces.swap(0, 1);
                }
                let state = GameState {
                    pieces,
                    to_move: (MOVER ^ usize::from(turn.passes)) as u8,
                    tries: turn.tries,
                };
                if let Some(end) = self.ending(&state, turn.won, turn.moved, MOVER, rolls) {
                    return Some(end);
                }
                clock.wind(rolls, self.max_rolls);
            }
            if turn.passes {
                return None;
            }
            tries = turn.tries;
        }
    }

    /// The rare path of [`Matchup::play`]: a win, a stuck position or the cap.
    #[cold]
    #[inline(never)]
    pub(crate) fn ending(
        &self,
        state: &GameState,
        won: bool,
        moved: bool,
        mover: Player,
        rolls: u64,
    ) -> Option<GameEnd> {
        if won {
            return Some(GameEnd::Won {
                winner: mover,
                rolls,
            });
        }
        if !moved && never_ends(self.rules, self.dice, state) {
            return Some(GameEnd::Endless);
        }
        (rolls >= self.max_rolls).then_some(GameEnd::Capped)
    }

    /// Who starts: under `roll-off` both roll and the higher face starts (ties re-roll);
    /// otherwise `default`. The roll-off ends with probability one: [`Matchup::new`]
    /// refuses dice that always tie.
    #[inline(always)]
    pub fn first_player<R: Rng>(&self, default: Player, rng: &mut R) -> Player {
        if !self.rules.profile().roll_off {
            return default;
        }
        loop {
            let a = self.dice[0].roll(rng);
            let b = self.dice[1].roll(rng);
            if a != b {
                return if a > b { 0 } else { 1 };
            }
        }
    }
}

/// Whether a roll-off between the two dice ends with probability one.
pub fn roll_off_can_decide(dice: [&Die; 2]) -> bool {
    let a = dice[0].faces();
    let b = dice[1].faces();
    !(a.iter().all(|&f| f == a[0]) && b.iter().all(|&f| f == a[0]))
}

/// Whether `player` with `die` can never move again until the opponent changes its pieces.
pub fn cannot_move(rules: &Rules, die: &Die, own: u64) -> bool {
    // Only faces 1..=63 can move a piece (the last field is at most 63); a bit mask of them
    // visits each distinct face once without allocating.
    let mut faces = die
        .faces()
        .iter()
        .filter(|&&f| (1..64).contains(&f))
        .fold(0u64, |mask, &f| mask | 1u64 << f);
    while faces != 0 {
        let face = faces.trailing_zeros();
        faces &= faces - 1;
        if rules.choose_move(own, face).is_some() {
            return false;
        }
    }
    true
}

/// Whether the game can provably never end from `state`: the player to move can never
/// move, and either it can never pass the turn (its die shows only 6s) or the other player
/// cannot move either. Then no roll changes anything, forever.
pub fn never_ends(rules: &Rules, dice: [&Die; 2], state: &GameState) -> bool {
    let mover = state.mover();
    let other = 1 - mover;
    cannot_move(rules, dice[mover], state.pieces[mover])
        && (dice[mover].only_sixes() || cannot_move(rules, dice[other], state.pieces[other]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::StreamKey;

    /// The strategies' loop with both players on `frontmost` plays exactly the games of the
    /// rules' fast path (frontmost draws nothing from the stream), under switches that
    /// change the move order or the turn too.
    #[test]
    fn the_strategies_loop_on_frontmost_equals_the_fast_path() {
        let (a, b): (Die, Die) = ("1..6".parse().unwrap(), "0..9".parse().unwrap());
        for profile in [
            "bwinf",
            "goal-last+no-jump-in-goal",
            "three-tries",
            "choice",
            "choice+capture-duty",
            "choice+goal-last",
        ] {
            let rules = Rules::new(crate::rules::Board::BWINF, profile.parse().unwrap());
            let m = Matchup::new(&rules, [&a, &b], 100_000).unwrap();
            assert_eq!(m.rules_pick, !rules.profile().capture_duty, "{profile}");
            let (mut fast, mut choosing) = (StreamKey::new(5).rng(0), StreamKey::new(5).rng(0));
            for game in 0..2000 {
                let first = game % 2;
                assert_eq!(
                    m.play(first, &mut fast),
                    m.play_game::<CHOOSING, _>(first, &mut choosing),
                    "{profile}, game {game}"
                );
            }
        }
    }
}
