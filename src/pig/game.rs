//! The rules as parameters (goal, die, bust face), the decisions, and the layout of the
//! state space `(e, g, u)`.

use crate::dice::Die;
use std::fmt;
use std::ops::Range;

/// The largest goal accepted by [`Game::new`]: the solver keeps one `f64` for each of the
/// `goal² (goal + 1) / 2` states (goal 300: 13.5 million states, 108 MB).
pub const MAX_GOAL: u32 = 300;

/// One game of the family: first to `goal` banked points wins; a roll of the bust face ends
/// the turn and loses its points, any other face adds its value to the turn's points.
///
/// Wubbel is goal 50 with bust face 6, Pig goal 100 with bust face 1, both with the die 1..6.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    goal: u32,
    die: Die,
    bust: u32,
    bust_probability: f64,
    steps: Vec<(u32, f64)>,
}

/// Parameters that do not make a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The goal is 0: the game would be over before it starts.
    GoalZero,
    /// The goal is above [`MAX_GOAL`].
    GoalTooLarge(u32),
    /// No side of the die shows the bust face.
    BustNotOnDie {
        /// The bust face asked for.
        bust: u32,
        /// The die.
        die: String,
    },
    /// Every side of the die is the bust face or 0: nobody could ever score.
    NoScoringFace {
        /// The bust face.
        bust: u32,
        /// The die.
        die: String,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GoalZero => write!(f, "the goal must be at least 1"),
            GameError::GoalTooLarge(goal) => {
                write!(
                    f,
                    "goal {goal} is too large: at most {MAX_GOAL} is supported"
                )
            }
            GameError::BustNotOnDie { bust, die } => {
                write!(f, "bust face {bust} is not on the die {die}")
            }
            GameError::NoScoringFace { bust, die } => write!(
                f,
                "the die {die} has no face that scores (every face is the bust face {bust} or 0)"
            ),
        }
    }
}

impl std::error::Error for GameError {}

impl Game {
    /// The game to `goal` points with this die and bust face.
    ///
    /// A face 0 that is not the bust face changes nothing but costs a roll after which the
    /// player faces the same decision again, so it is the same as rolling again: the solver
    /// works with the die conditioned on a face other than such a 0 (the simulation rolls the
    /// real die; both give the same probabilities).
    pub fn new(goal: u32, die: Die, bust: u32) -> Result<Game, GameError> {
        if goal == 0 {
            return Err(GameError::GoalZero);
        }
        if goal > MAX_GOAL {
            return Err(GameError::GoalTooLarge(goal));
        }
        let counts = die.face_counts();
        let busts = counts
            .iter()
            .find(|&&(f, _)| f == bust)
            .map_or(0, |&(_, c)| c);
        if busts == 0 {
            return Err(GameError::BustNotOnDie {
                bust,
                die: die.to_string(),
            });
        }
        let scoring: Vec<(u32, u32)> = counts
            .iter()
            .copied()
            .filter(|&(f, _)| f != bust && f != 0)
            .collect();
        if scoring.is_empty() {
            return Err(GameError::NoScoringFace {
                bust,
                die: die.to_string(),
            });
        }
        let effective = f64::from(busts + scoring.iter().map(|&(_, c)| c).sum::<u32>());
        let steps = scoring
            .iter()
            .map(|&(f, c)| (f, f64::from(c) / effective))
            .collect();
        Ok(Game {
            goal,
            die,
            bust,
            bust_probability: f64::from(busts) / effective,
            steps,
        })
    }

    /// Wubbel: goal 50, die 1..6, bust face 6.
    pub fn wubbel() -> Game {
        Game::new(50, Die::standard(), 6).expect("valid parameters")
    }

    /// Pig: goal 100, die 1..6, bust face 1.
    pub fn pig() -> Game {
        Game::new(100, Die::standard(), 1).expect("valid parameters")
    }

    /// Points needed to win.
    pub fn goal(&self) -> u32 {
        self.goal
    }

    /// The die.
    pub fn die(&self) -> &Die {
        &self.die
    }

    /// The face that ends the turn and loses its points.
    pub fn bust(&self) -> u32 {
        self.bust
    }

    /// Probability that a roll busts, given it is not a non-busting 0.
    pub fn bust_probability(&self) -> f64 {
        self.bust_probability
    }

    /// The scoring faces (not the bust face, not 0), each with its probability given the
    /// roll is not a non-busting 0; sorted by face.
    pub fn scoring_faces(&self) -> &[(u32, f64)] {
        &self.steps
    }

    /// Whether `face` ends the turn.
    pub fn is_bust(&self, face: u32) -> bool {
        face == self.bust
    }
}

/// What the player to move does after a roll that did not bust.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Decision {
    /// Roll again.
    #[serde(rename = "ROLL")]
    Roll,
    /// Bank the turn's points; the other player moves.
    #[serde(rename = "SAVE")]
    Save,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Roll => "ROLL",
            Decision::Save => "SAVE",
        })
    }
}

/// Where the value of state `(e, g, u)` lives in a flat table: for each own score `e` a
/// block of `goal` rows (opponent scores `g`) of `goal - e` turn totals `u`. The states of one
/// half `(e, g, ·)` are contiguous.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    goal: usize,
    offsets: Vec<usize>,
}

impl Layout {
    pub(crate) fn new(goal: u32) -> Layout {
        let goal = goal as usize;
        let mut offsets = Vec::with_capacity(goal + 1);
        let mut next = 0;
        for e in 0..=goal {
            offsets.push(next);
            if e < goal {
                next += goal * (goal - e);
            }
        }
        Layout { goal, offsets }
    }

    /// Number of states.
    pub(crate) fn total(&self) -> usize {
        self.offsets[self.goal]
    }

    /// The indices of `(e, g, 0..goal - e)`.
    #[inline]
    pub(crate) fn half(&self, e: usize, g: usize) -> Range<usize> {
        debug_assert!(e < self.goal && g < self.goal);
        let len = self.goal - e;
        let start = self.offsets[e] + g * len;
        start..start + len
    }

    /// The index of `(e, g, 0)`.
    #[inline]
    pub(crate) fn start(&self, e: usize, g: usize) -> usize {
        self.offsets[e] + g * (self.goal - e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_games_that_cannot_be_played() {
        let d6 = Die::standard();
        assert_eq!(Game::new(0, d6.clone(), 6), Err(GameError::GoalZero));
        assert!(matches!(
            Game::new(50, d6.clone(), 7),
            Err(GameError::BustNotOnDie { bust: 7, .. })
        ));
        assert!(matches!(
            Game::new(MAX_GOAL + 1, d6, 6),
            Err(GameError::GoalTooLarge(_))
        ));
        let no_score: Die = "0,0,6".parse().unwrap();
        assert!(matches!(
            Game::new(10, no_score, 6),
            Err(GameError::NoScoringFace { .. })
        ));
    }

    #[test]
    fn conditions_away_non_busting_zeros() {
        let game = Game::new(10, "0,0,1,2,3,3".parse().unwrap(), 3).unwrap();
        assert_eq!(game.bust_probability(), 0.5);
        assert_eq!(game.scoring_faces(), &[(1, 0.25), (2, 0.25)]);
    }

    #[test]
    fn layout_halves_tile_the_table() {
        let layout = Layout::new(7);
        let mut seen = vec![false; layout.total()];
        for e in 0..7 {
            for g in 0..7 {
                let half = layout.half(e, g);
                assert_eq!(half.len(), 7 - e);
                assert_eq!(half.start, layout.start(e, g));
                for i in half {
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(layout.total(), 7 * 7 * 8 / 2);
    }
}
