//! The compact game state: both players' piece masks and whose turn it is.

use super::Board;

/// Index of a player: `0` is player 1 (die A), `1` is player 2 (die B).
pub type Player = usize;

/// A position of the game, small enough to copy freely (24 bytes).
///
/// Each player's pieces on the board are a bit mask over that player's own field numbers
/// (see [`Board`]); the pieces not on the mask wait in `B`, so the mask alone is a
/// player's whole configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameState {
    /// Piece masks of player 1 and player 2, each in its own numbering.
    pub pieces: [u64; 2],
    /// The player who rolls next.
    pub to_move: u8,
    /// Rolls already used in this turn under `three-tries` (always 0 otherwise).
    pub tries: u8,
}

impl GameState {
    /// The opening position: each player has one piece on `A`, the rest in `B`.
    pub fn start(first: Player) -> GameState {
        GameState {
            pieces: [1, 1],
            to_move: first as u8,
            tries: 0,
        }
    }

    /// The player to roll next.
    pub fn mover(&self) -> Player {
        self.to_move as Player
    }

    /// Number of `player`'s pieces waiting in `B`.
    pub fn waiting(&self, board: &Board, player: Player) -> u32 {
        board.pieces() - self.pieces[player].count_ones()
    }

    /// `player`'s occupied fields, lowest first, in that player's numbering.
    pub fn fields(&self, player: Player) -> impl Iterator<Item = u32> + '_ {
        let mut mask = self.pieces[player];
        std::iter::from_fn(move || {
            if mask == 0 {
                None
            } else {
                let f = mask.trailing_zeros();
                mask &= mask - 1;
                Some(f)
            }
        })
    }

    /// A readable line such as `B:2 A 17 c`, fields in the player's own numbering.
    pub fn describe(&self, board: &Board, player: Player) -> String {
        let mut parts = vec![format!("B:{}", self.waiting(board, player))];
        parts.extend(self.fields(player).map(|f| board.field_name(f)));
        parts.join(" ")
    }
}
