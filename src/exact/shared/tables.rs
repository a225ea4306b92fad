//! Per-player move and capture tables: the rules engine tabulated over one player's
//! reachable configurations, for solvers that compute transitions on the fly instead of
//! storing a matrix (the BwInf board has about 4.4e8 joint states, too many for one).
//!
//! Every entry comes from [`Rules::play_roll`] itself. The trick that makes this possible
//! is that a move depends on the mover's own pieces only: playing a roll in a position
//! where the opponent fills *every* track field yields the mover's new pieces, whether it
//! won, who moves next, and (as the captured field) where the moving piece landed in the
//! opponent's numbering. [`PlayerTables::step`] then combines an entry with the capture
//! table; the unit tests check it against `play_roll` on every reachable joint state.

use super::encode::ConfigIndex;
#[cfg(test)]
use super::encode::JointState;
use crate::dice::Die;
use crate::rules::{GameState, Player, Rules};

/// The landing field code for "no opponent piece can be hit" (no move, or a goal field).
pub(crate) const NO_LANDING: u8 = u8::MAX;

/// What one face does to one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// Index of the mover's configuration afterwards.
    pub next: u32,
    /// The track field the piece landed on, in the opponent's numbering, or [`NO_LANDING`].
    pub landing: u8,
    /// The roll won the game.
    pub won: bool,
    /// For each tries counter before the roll (0, 1, 2): bit 2 set if the same player rolls
    /// again, bits 0-1 the tries counter afterwards.
    pub turn: [u8; 3],
}

/// Where a roll leads, per [`PlayerTables::step`].
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The mover won.
    Won(Player),
    /// The game goes on in this state.
    Next(JointState),
}

/// One player's tables over its [`ConfigIndex`].
#[derive(Clone, Debug)]
pub(crate) struct PlayerTables {
    /// The player these tables are for (read by the reference [`PlayerTables::step`] the
    /// tests hold the solvers' own stepping against).
    #[cfg_attr(not(test), allow(dead_code))]
    pub player: Player,
    /// Distinct faces of the die and how many sides show each.
    pub faces: Vec<(u32, u32)>,
    /// `moves[config * faces.len() + face_index]`.
    pub moves: Vec<MoveEntry>,
    /// `captures[config * track_len + field]`: the configuration after the piece on its own
    /// track field `field` is captured (unchanged if no piece stands there).
    pub captures: Vec<u32>,
    track_len: usize,
}

impl PlayerTables {
    /// Tabulates `player`'s moves with `die` over `configs` (which must be closed under the
    /// player's moves and captures, as [`super::reachable::player_configs`] is).
    pub(crate) fn new(
        rules: &Rules,
        player: Player,
        die: &Die,
        configs: &ConfigIndex,
    ) -> PlayerTables {
        let board = rules.board();
        let track_len = board.track_len() as usize;
        let faces = die.face_counts();
        let full_track = board.track_mask();
        let mut moves = Vec::with_capacity(configs.len() * faces.len());
        for &own in configs.masks() {
            for &(face, _) in &faces {
                let mut turn = [0u8; 3];
                let mut first: Option<(GameState, Option<u32>, bool)> = None;
                for (tries, slot) in turn.iter_mut().enumerate() {
                    let mut pieces = [full_track; 2];
                    pieces[player] = own;
                    let mut state = GameState {
                        pieces,
                        to_move: player as u8,
                        tries: tries as u8,
                    };
                    let outcome = rules.play_roll(&mut state, face);
                    *slot = (u8::from(state.mover() == player) << 2) | state.tries;
                    if first.is_none() {
                        first = Some((state, outcome.captured, outcome.winner.is_some()));
                    }
                }
                let (state, captured, won) = first.expect("three tries levels");
                let next = configs
                    .index(state.pieces[player])
                    .expect("configuration set closed under moves");
                moves.push(MoveEntry {
                    next,
                    landing: captured.map_or(NO_LANDING, |f| f as u8),
                    won,
                    turn,
                });
            }
        }
        let mut captures = Vec::with_capacity(configs.len() * track_len);
        for &own in configs.masks() {
            for field in 0..track_len {
                let after = own & !(1u64 << field);
                captures.push(
                    configs
                        .index(after)
                        .expect("configuration set closed under captures"),
                );
            }
        }
        PlayerTables {
            player,
            faces,
            moves,
            captures,
            track_len,
        }
    }

    /// The entry of configuration `config` and the `face_index`-th distinct face.
    #[inline(always)]
    pub(crate) fn entry(&self, config: u32, face_index: usize) -> &MoveEntry {
        &self.moves[config as usize * self.faces.len() + face_index]
    }

    /// The moves of `config`, one per distinct face in the order of [`PlayerTables::faces`].
    #[inline(always)]
    pub(crate) fn entries(&self, config: u32) -> &[MoveEntry] {
        let faces = self.faces.len();
        &self.moves[config as usize * faces..][..faces]
    }

    /// The configuration after the piece on own track field `field` is captured.
    #[inline(always)]
    pub(crate) fn capture(&self, config: u32, field: u8) -> u32 {
        self.captures[config as usize * self.track_len + field as usize]
    }

    /// Where the `face_index`-th face leads from `state`; `self` must be the mover's tables
    /// and `opponent` the other player's.
    #[cfg(test)]
    pub(crate) fn step(
        &self,
        opponent: &PlayerTables,
        state: JointState,
        face_index: usize,
    ) -> Step {
        debug_assert_eq!(usize::from(state.side), self.player);
        let (own, theirs) = if self.player == 0 {
            (state.a, state.b)
        } else {
            (state.b, state.a)
        };
        let e = self.entry(own, face_index);
        if e.won {
            return Step::Won(self.player);
        }
        let theirs = if e.landing == NO_LANDING {
            theirs
        } else {
            opponent.capture(theirs, e.landing)
        };
        let turn = e.turn[state.tries as usize];
        let side = if turn & 4 != 0 {
            state.side
        } else {
            1 - state.side
        };
        let (a, b) = if self.player == 0 {
            (e.next, theirs)
        } else {
            (theirs, e.next)
        };
        Step::Next(JointState {
            a,
            b,
            side,
            tries: turn & 3,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::encode::StateEncoder;
    use crate::exact::reachable::{joint_states, player_configs};
    use crate::rules::{Board, Profile};

    /// The tables agree with `play_roll` on every reachable state and face.
    fn agrees(board: &str, profile: &str, a: &str, b: &str) {
        let rules = Rules::new(
            board.parse::<Board>().unwrap(),
            profile.parse::<Profile>().unwrap(),
        );
        let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
        let configs = [
            player_configs(&rules, &dice[0]),
            player_configs(&rules, &dice[1]),
        ];
        let tables = [
            PlayerTables::new(&rules, 0, &dice[0], &configs[0]),
            PlayerTables::new(&rules, 1, &dice[1], &configs[1]),
        ];
        let levels = if rules.profile().three_tries { 3 } else { 1 };
        let [ca, cb] = configs;
        let enc = StateEncoder::new(ca, cb, levels).unwrap();
        let set = joint_states(&rules, [&dice[0], &dice[1]], &enc);
        let mut checked = 0;
        for index in set.iter() {
            let state = enc.decode(index);
            let joint = enc.coder.decode(index);
            let mover = state.mover();
            for (k, &(face, _)) in tables[mover].faces.iter().enumerate() {
                let mut next = state;
                let outcome = rules.play_roll(&mut next, face);
                let step = tables[mover].step(&tables[1 - mover], joint, k);
                match outcome.winner {
                    Some(w) => assert_eq!(step, Step::Won(w)),
                    None => assert_eq!(
                        step,
                        Step::Next(enc.coder.decode(enc.encode(&next).unwrap()))
                    ),
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn tables_agree_with_play_roll() {
        agrees("12/6/2/2", "bwinf", "1..6", "1,1,6,6,6,6");
    }

    #[test]
    fn tables_agree_with_play_roll_under_every_switch() {
        agrees(
            "10/5/2/3",
            "goal-last+no-jump-in-goal+three-tries",
            "1..6",
            "0..9",
        );
        agrees("10/3/3/3", "three-tries", "2,6", "1..6");
    }
}
