//! One simulated game.

use crate::dice::Die;
use crate::rules::{GameState, Player, Rules};
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

/// After this many rolls in a row without a move the game checks whether it is stuck.
/// Idle streaks this long are rare in live games, so the check costs nothing on average.
const IDLE_CHECK_INTERVAL: u32 = 64;

/// A matchup ready to play: rules, both dice and the roll cap.
#[derive(Clone, Copy, Debug)]
pub struct Matchup<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// Die of player 1 (A) and player 2 (B).
    pub dice: [&'a Die; 2],
    /// A game that reaches this many rolls is counted as unfinished.
    pub max_rolls: u64,
}

impl Matchup<'_> {
    /// Plays one game from the opening position with `first` to move.
    ///
    /// The position lives in locals from the mover's view (its pieces, the opponent's,
    /// its die) and is swapped when the turn passes: the hot loop then never indexes by
    /// player, and the state stays in registers.
    #[inline(always)]
    pub fn play<R: Rng>(&self, first: Player, rng: &mut R) -> GameEnd {
        let start = GameState::start(first);
        let (mut own, mut other) = (start.pieces[first], start.pieces[1 - first]);
        let (mut mover, mut tries) = (first, 0u8);
        let mut dice = [self.dice[first], self.dice[1 - first]];
        let mut idle = 0u32;
        let mut rolls = 0u64;
        loop {
            rolls += 1;
            let face = dice[0].roll(rng);
            let turn = self.rules.roll_from_view(own, other, mover, tries, face);
            idle = if turn.moved { 0 } else { idle + 1 };
            // The three ways a game can end are rare; one combined test keeps the loop to a
            // single well-predicted branch.
            let check_stuck = !turn.moved & (idle % IDLE_CHECK_INTERVAL == 0);
            if turn.won | check_stuck | (rolls >= self.max_rolls) {
                let state = GameState {
                    pieces: if mover == 0 {
                        [turn.own, turn.other]
                    } else {
                        [turn.other, turn.own]
                    },
                    to_move: (mover ^ usize::from(turn.passes)) as u8,
                    tries: turn.tries,
                };
                if let Some(end) = self.ending(&state, turn.won, mover, rolls, check_stuck) {
                    return end;
                }
            }
            tries = turn.tries;
            if turn.passes {
                (own, other) = (turn.other, turn.own);
                mover ^= 1;
                dice.swap(0, 1);
            } else {
                (own, other) = (turn.own, turn.other);
            }
        }
    }

    /// The rare path of [`Matchup::play`]: a win, a stuck position or the cap.
    #[cold]
    #[inline(never)]
    fn ending(
        &self,
        state: &GameState,
        won: bool,
        mover: Player,
        rolls: u64,
        check_stuck: bool,
    ) -> Option<GameEnd> {
        if won {
            return Some(GameEnd::Won {
                winner: mover,
                rolls,
            });
        }
        if check_stuck && never_ends(self.rules, self.dice, state) {
            return Some(GameEnd::Endless);
        }
        (rolls >= self.max_rolls).then_some(GameEnd::Capped)
    }

    /// Who starts: under `roll-off` both roll and the higher face starts (ties re-roll);
    /// otherwise `default`. `None` if the roll-off cannot decide (both dice one equal face).
    #[inline(always)]
    pub fn first_player<R: Rng>(&self, default: Player, rng: &mut R) -> Option<Player> {
        if !self.rules.profile().roll_off {
            return Some(default);
        }
        if !roll_off_can_decide(self.dice) {
            return None;
        }
        loop {
            let a = self.dice[0].roll(rng);
            let b = self.dice[1].roll(rng);
            if a != b {
                return Some(if a > b { 0 } else { 1 });
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
    die.face_counts()
        .iter()
        .all(|&(face, _)| rules.choose_move(own, face).is_none())
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
