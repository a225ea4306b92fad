//! The dice a search looks at: every multiset of faces from a range, or a given list.
//!
//! A die with faces `f1 <= .. <= fk` drawn from `lo..=hi` is a multiset; there are
//! `C(m + k - 1, k)` of them for `m = hi - lo + 1` values (462 for six faces from 1..6,
//! 5,005 for six faces from 0..9). The counts are computed with checked arithmetic and
//! refused above [`MAX_DICE`] before any die is built.

use crate::dice::{Die, MAX_FACES};
use std::fmt;

/// The most dice a family may have: 5,793, the largest number whose pairs
/// (`n (n - 1) / 2`) stay at most [`MAX_PAIRS`].
pub const MAX_DICE: usize = 5_793;

/// The most pairs a family may have: 2^24 (16.8 million). The search keeps three 64-bit
/// counters per pair (400 MiB at the limit) and plays at least one chunk of games for each,
/// about 1.7e10 games: days of one core, the most a single machine can sensibly run.
pub const MAX_PAIRS: u64 = 1 << 24;

/// Why a family of dice cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FamilyError {
    /// `--faces 0`.
    NoFaces,
    /// More faces per die than a die may have.
    TooManyFaces(u64),
    /// A value range whose end lies below its start.
    EmptyRange {
        /// The first value.
        lo: u32,
        /// The last value.
        hi: u32,
    },
    /// More dice than [`MAX_DICE`]; the count, or `None` beyond `u64`.
    TooLarge {
        /// The number of dice the family would have.
        dice: Option<u64>,
    },
    /// Fewer than two dice: nothing to compare.
    TooSmall(usize),
    /// The same die twice in a list (its faces in sorted order).
    Duplicate(String),
}

impl fmt::Display for FamilyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FamilyError::NoFaces => write!(f, "a die needs at least one face"),
            FamilyError::TooManyFaces(k) => {
                write!(f, "{k} faces: a die may have at most {MAX_FACES} faces")
            }
            FamilyError::EmptyRange { lo, hi } => {
                write!(f, "values {lo}..{hi}: the range runs backwards")
            }
            FamilyError::TooLarge { dice } => {
                let count = dice.map_or("more than 2^64".to_string(), |n| n.to_string());
                write!(
                    f,
                    "the family has {count} dice: at most {MAX_DICE} can be searched \
                     (their {MAX_PAIRS} pairs each need at least one chunk of games); \
                     use fewer faces or a smaller value range"
                )
            }
            FamilyError::TooSmall(n) => write!(f, "{n} dice: a search needs at least two"),
            FamilyError::Duplicate(d) => write!(
                f,
                "the die {d} appears twice (faces compared in sorted order)"
            ),
        }
    }
}

impl std::error::Error for FamilyError {}

/// The number of multisets of `faces` faces from `values` values, `C(values + faces - 1,
/// faces)`; `None` when it does not fit in `u64`.
pub fn multiset_count(faces: u64, values: u64) -> Option<u64> {
    if values == 0 {
        return Some(u64::from(faces == 0));
    }
    // C(n, r) with r = min(faces, values - 1), built up as C(n - r + i, i): each step's
    // division is exact. u128 holds the product of a u64 and the step index.
    let n = values.checked_add(faces)? - 1;
    let r = faces.min(values - 1);
    let mut c: u128 = 1;
    for i in 1..=r {
        c = c * u128::from(n - r + i) / u128::from(i);
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// A family of distinct dice to search, at least two and at most [`MAX_DICE`].
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    dice: Vec<Die>,
    description: String,
}

impl Family {
    /// Every die with `faces` faces from the values `lo..=hi` (each multiset once, faces in
    /// ascending order), in lexicographic order of the faces.
    pub fn multisets(faces: u32, lo: u32, hi: u32) -> Result<Family, FamilyError> {
        if faces == 0 {
            return Err(FamilyError::NoFaces);
        }
        if faces as usize > MAX_FACES {
            return Err(FamilyError::TooManyFaces(u64::from(faces)));
        }
        if hi < lo {
            return Err(FamilyError::EmptyRange { lo, hi });
        }
        let values = u64::from(hi - lo) + 1;
        let count = multiset_count(u64::from(faces), values);
        match count {
            Some(n) if n <= MAX_DICE as u64 => {}
            _ => return Err(FamilyError::TooLarge { dice: count }),
        }
        let mut dice = Vec::new();
        let mut current = vec![lo; faces as usize];
        loop {
            dice.push(Die::new(current.clone()).expect("1 ..= MAX_FACES faces"));
            // The next multiset: raise the last face below hi, reset those after it to it.
            let Some(pos) = current.iter().rposition(|&f| f < hi) else {
                break;
            };
            let next = current[pos] + 1;
            current[pos..].fill(next);
        }
        let description = format!("all {} dice with {faces} faces from {lo}..{hi}", dice.len());
        Family::new(dice, description)
    }

    /// A family of the given dice (e.g. a dice file): at least two, at most [`MAX_DICE`],
    /// no die twice (dice with the same faces in another order are the same die).
    pub fn from_dice(dice: Vec<Die>, description: String) -> Result<Family, FamilyError> {
        Family::new(dice, description)
    }

    fn new(dice: Vec<Die>, description: String) -> Result<Family, FamilyError> {
        if dice.len() < 2 {
            return Err(FamilyError::TooSmall(dice.len()));
        }
        if dice.len() > MAX_DICE {
            return Err(FamilyError::TooLarge {
                dice: Some(dice.len() as u64),
            });
        }
        let mut seen = std::collections::HashSet::new();
        for die in &dice {
            let mut sorted = die.faces().to_vec();
            sorted.sort_unstable();
            if !seen.insert(sorted) {
                return Err(FamilyError::Duplicate(die.to_string()));
            }
        }
        Ok(Family { dice, description })
    }

    /// The dice.
    pub fn dice(&self) -> &[Die] {
        &self.dice
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.dice.len()
    }

    /// Never true: a family has at least two dice.
    pub fn is_empty(&self) -> bool {
        self.dice.is_empty()
    }

    /// Number of unordered pairs, `n (n - 1) / 2` (at most [`MAX_PAIRS`]).
    pub fn pairs(&self) -> u64 {
        let n = self.dice.len() as u64;
        n * (n - 1) / 2
    }

    /// What the family is, for reports: e.g. "all 462 dice with 6 faces from 1..6".
    pub fn description(&self) -> &str {
        &self.description
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_multisets() {
        assert_eq!(multiset_count(6, 6), Some(462));
        assert_eq!(multiset_count(6, 10), Some(5005));
        assert_eq!(multiset_count(1, 7), Some(7));
        assert_eq!(multiset_count(3, 1), Some(1));
        assert_eq!(multiset_count(60, 1 << 20), None);
        assert_eq!(multiset_count(u64::MAX, 2), None);
    }

    #[test]
    fn builds_every_multiset_once() {
        let f = Family::multisets(6, 1, 6).unwrap();
        assert_eq!(f.len(), 462);
        assert_eq!(f.pairs(), 462 * 461 / 2);
        assert_eq!(f.dice()[0].faces(), &[1; 6]);
        assert_eq!(f.dice()[461].faces(), &[6; 6]);
        assert_eq!(Family::multisets(6, 0, 9).unwrap().len(), 5005);
    }

    #[test]
    fn refuses_what_cannot_be_searched() {
        assert!(matches!(
            Family::multisets(6, 0, 19),
            Err(FamilyError::TooLarge {
                dice: Some(177_100)
            })
        ));
        assert!(matches!(
            Family::multisets(1000, 0, 1_000_000),
            Err(FamilyError::TooLarge { dice: None })
        ));
        assert_eq!(Family::multisets(0, 1, 6), Err(FamilyError::NoFaces));
        assert_eq!(
            Family::multisets(2, 6, 1),
            Err(FamilyError::EmptyRange { lo: 6, hi: 1 })
        );
        assert_eq!(Family::multisets(1, 3, 3), Err(FamilyError::TooSmall(1)));
        let twice = vec!["1,2".parse().unwrap(), "2,1".parse().unwrap()];
        assert!(matches!(
            Family::from_dice(twice, "x".into()),
            Err(FamilyError::Duplicate(_))
        ));
        assert!(MAX_DICE as u64 * (MAX_DICE as u64 - 1) / 2 <= MAX_PAIRS);
        assert!((MAX_DICE as u64 + 1) * MAX_DICE as u64 / 2 > MAX_PAIRS);
    }
}
