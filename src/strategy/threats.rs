//! What the `safe` strategy fears: the squares an opponent piece can hit with one roll.

use crate::dice::Die;
use crate::rules::{Player, Rules};

/// The reach of the opponent's die, as the `safe` strategy measures danger.
///
/// A piece of the mover standing on the shared track is *threatened* when one roll of the
/// opponent's die could land an opponent piece on it:
/// - an opponent piece on the track stands `d` fields behind it (counted in the opponent's
///   direction, never around the end of the opponent's track) and `d` is a face of the
///   opponent's die; or
/// - it stands on the opponent's start field `A`, the opponent has a piece waiting in `B`
///   and its die shows a 6 (rule 1 brings that piece in and captures).
///
/// Whether the opponent would (or under its own rules may) play that move is not asked:
/// a single roll that *can* reach the field is a threat. Chains of rolls after a 6 are not
/// counted. Pieces in the goal are never threatened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threats {
    /// Bit `d` set: the opponent's die shows `d` (only `1 ..= 63`; larger faces move nothing
    /// on any board the project supports, and 0 moves nothing).
    distances: u64,
    /// The opponent's die shows a 6: it can bring a piece in onto its `A`.
    brings_in: bool,
    /// Built from a die (see [`Threats::unresolved`]).
    resolved: bool,
}

impl Threats {
    /// The threats of an opponent rolling `die`.
    pub fn of_die(die: &Die) -> Threats {
        let distances = die
            .faces()
            .iter()
            .filter(|&&f| (1..64).contains(&f))
            .fold(0u64, |mask, &f| mask | 1u64 << f);
        Threats {
            distances,
            brings_in: die.faces().contains(&6),
            resolved: true,
        }
    }

    /// Not yet told the opponent's die: what `"safe".parse()` holds until
    /// [`Strategy::against`](super::Strategy::against) resolves it.
    pub const fn unresolved() -> Threats {
        Threats {
            distances: 0,
            brings_in: false,
            resolved: false,
        }
    }

    /// Whether the opponent's die is known.
    pub fn is_resolved(&self) -> bool {
        self.resolved
    }

    /// The opponent's faces that can hit, as a bit mask over distances.
    pub fn distances(&self) -> u64 {
        self.distances
    }

    /// How many of the mover's pieces `own` the opponent's pieces `other` (in the
    /// opponent's numbering) threaten; `mover` is the player owning `own`.
    pub fn threatened(&self, rules: &Rules, own: u64, other: u64, mover: Player) -> u32 {
        // The mover's track pieces, seen from the opponent: the fields it would land on.
        let targets = rules.board().track_in_other_view(mover, own);
        if targets == 0 {
            return 0;
        }
        (targets & self.reach(rules, other)).count_ones()
    }

    /// The track fields, in the opponent's own numbering, that one roll of the opponent's
    /// die can land one of its pieces `other` on (see the type's documentation).
    #[inline(always)]
    pub fn reach(&self, rules: &Rules, other: u64) -> u64 {
        let board = rules.board();
        let track = board.track_mask();
        let shooters = other & track;
        let mut reach = 0u64;
        let mut faces = self.distances;
        while faces != 0 {
            let d = faces.trailing_zeros();
            faces &= faces - 1;
            reach |= shooters << d;
        }
        reach &= track;
        let opponent_waits = other.count_ones() < board.pieces();
        if self.brings_in && opponent_waits {
            // Rule 1: the opponent's A is hit by bringing a piece in (its own piece cannot
            // stand there while another player's does).
            reach |= 1;
        }
        reach
    }
}
