//! The dice a search looks at: every multiset of faces from a range, or a given list.
//!
//! A die with faces `f1 <= .. <= fk` drawn from `lo..=hi` is a multiset; there are
//! `C(m + k - 1, k)` of them for `m = hi - lo + 1` values (462 for six faces from 1..6,
//! 5,005 for six faces from 0..9). The counts are computed with checked arithmetic and
//! refused above what the design can search ([`max_dice`]: [`MAX_DICE`] where every pair
//! plays) before any die is built.

use super::config::Design;
use crate::dice::{Die, MAX_FACES};
use std::fmt;

/// The most dice a family may have: 5,793, the largest number whose pairs
/// (`n (n - 1) / 2`) stay at most [`MAX_PAIRS`].
pub const MAX_DICE: usize = 5_793;

/// The most pairs a family may have: 2^24 (16.8 million). The search keeps three 64-bit
/// counters per pair (400 MiB at the limit) and plays at least one chunk of games for each,
/// about 1.7e10 games: days of one core, the most a single machine can sensibly run.
pub const MAX_PAIRS: u64 = 1 << 24;

/// The most dice any design may search: the screening design's limit with the fewest top
/// dice (3), [`max_dice`]`(Design::Screening, 3)`.
pub const MAX_SCREENED_DICE: usize = 4_194_305;

/// The most faces a family of every multiset may hold in all (dice times faces): 2^25, 128
/// MiB of faces, just above the most a family of [`MAX_DICE`] multisets can have (5,793
/// dice of 5,792 faces from two values).
pub const MAX_FAMILY_FACES: u64 = 1 << 25;

/// The units of play of a screening of `dice` dice with `top` top dice, each of which needs
/// at least one chunk of games: every die's sampled games (stage 1) and every pair of a die
/// with one of the `min(top, dice)` anchors (stage 2, see [`super::screening`]); `None`
/// beyond `u64`.
pub fn screened_units(dice: u64, top: u64) -> Option<u64> {
    let k = top.min(dice);
    let anchored = k
        .checked_mul(dice.checked_sub(1)?)?
        .checked_sub(k * k.saturating_sub(1) / 2)?;
    dice.checked_add(anchored)
}

/// The most dice `design` can search with `top` top dice (`--top`): [`MAX_DICE`] where every
/// pair plays (racing, round robin: their pairs at most [`MAX_PAIRS`]); under screening, which
/// plays games per die and then only the pairs of the top dice, as many as keep its
/// [`screened_units`] within the same [`MAX_PAIRS`] chunks.
pub fn max_dice(design: Design, top: usize) -> usize {
    if design != Design::Screening {
        return MAX_DICE;
    }
    let fits = |n: u64| screened_units(n, top as u64).is_some_and(|u| u <= MAX_PAIRS);
    // The units grow with the dice: the largest n that fits, by bisection (2 always fits).
    let (mut lo, mut hi) = (2u64, MAX_PAIRS + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo as usize
}

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
    /// More dice than the design can search ([`max_dice`]); the count, or `None` beyond
    /// `u64`.
    TooLarge {
        /// The number of dice the family would have.
        dice: Option<u64>,
        /// The most dice the design can search.
        limit: usize,
        /// Under screening: the top dice (`--top`) whose pairs it plays.
        screening_top: Option<usize>,
    },
    /// Multisets whose faces in all (dice times faces) exceed [`MAX_FAMILY_FACES`].
    TooManyFacesInAll {
        /// The number of dice.
        dice: u64,
        /// Faces per die.
        faces: u32,
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
            FamilyError::TooLarge {
                dice,
                limit,
                screening_top,
            } => {
                let count = dice.map_or("more than 2^64".to_string(), |n| n.to_string());
                match screening_top {
                    None => write!(
                        f,
                        "the family has {count} dice: at most {limit} can be searched \
                         (their {MAX_PAIRS} pairs each need at least one chunk of games); \
                         use fewer faces or a smaller value range, or --design screening, \
                         which plays games per die"
                    ),
                    Some(top) => write!(
                        f,
                        "the family has {count} dice: at most {limit} can be screened with \
                         --top {top} (each die, and each pair of a die with one of the {top} \
                         top dice, needs at least one chunk of games, at most {MAX_PAIRS} in \
                         all); use fewer faces or a smaller value range"
                    ),
                }
            }
            FamilyError::TooManyFacesInAll { dice, faces } => write!(
                f,
                "the family has {dice} dice of {faces} faces, {} faces in all: at most \
                 {MAX_FAMILY_FACES} (2^25) can be held; use fewer faces",
                u128::from(*dice) * u128::from(*faces)
            ),
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

/// A family of distinct dice to search, at least two and at most [`MAX_SCREENED_DICE`]
/// (at most [`MAX_DICE`] unless built for the screening design).
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    dice: Vec<Die>,
    description: String,
}

impl Family {
    /// Every die with `faces` faces from the values `lo..=hi` (each multiset once, faces in
    /// ascending order), in lexicographic order of the faces: at most [`MAX_DICE`].
    pub fn multisets(faces: u32, lo: u32, hi: u32) -> Result<Family, FamilyError> {
        Family::multisets_for(faces, lo, hi, Design::Racing, 3)
    }

    /// [`Family::multisets`] for `design` with `top` top dice: at most [`max_dice`] dice,
    /// and at most [`MAX_FAMILY_FACES`] faces in all, both counted before any die is built.
    pub fn multisets_for(
        faces: u32,
        lo: u32,
        hi: u32,
        design: Design,
        top: usize,
    ) -> Result<Family, FamilyError> {
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
        let limit = max_dice(design, top);
        let dice = match count {
            Some(n) if n <= limit as u64 => n,
            _ => return Err(too_large(count, design, top)),
        };
        if u128::from(dice) * u128::from(faces) > u128::from(MAX_FAMILY_FACES) {
            return Err(FamilyError::TooManyFacesInAll { dice, faces });
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
        Family::new(dice, description, design, top)
    }

    /// A family of the given dice (e.g. a dice file): at least two, at most [`MAX_DICE`],
    /// no die twice (dice with the same faces in another order are the same die).
    pub fn from_dice(dice: Vec<Die>, description: String) -> Result<Family, FamilyError> {
        Family::new(dice, description, Design::Racing, 3)
    }

    /// [`Family::from_dice`] for `design` with `top` top dice: at most [`max_dice`] dice.
    pub fn from_dice_for(
        dice: Vec<Die>,
        description: String,
        design: Design,
        top: usize,
    ) -> Result<Family, FamilyError> {
        Family::new(dice, description, design, top)
    }

    fn new(
        dice: Vec<Die>,
        description: String,
        design: Design,
        top: usize,
    ) -> Result<Family, FamilyError> {
        if dice.len() < 2 {
            return Err(FamilyError::TooSmall(dice.len()));
        }
        if dice.len() > max_dice(design, top) {
            return Err(too_large(Some(dice.len() as u64), design, top));
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

    /// Number of unordered pairs, `n (n - 1) / 2` (at most [`MAX_PAIRS`] unless built for
    /// screening, which plays few of them).
    pub fn pairs(&self) -> u64 {
        let n = self.dice.len() as u64;
        n * (n - 1) / 2
    }

    /// What the family is, for reports: e.g. "all 462 dice with 6 faces from 1..6".
    pub fn description(&self) -> &str {
        &self.description
    }
}

/// The refusal of a family of `dice` dice (`None`: beyond `u64`) too large for `design`.
fn too_large(dice: Option<u64>, design: Design, top: usize) -> FamilyError {
    FamilyError::TooLarge {
        dice,
        limit: max_dice(design, top),
        screening_top: (design == Design::Screening).then_some(top),
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
                dice: Some(177_100),
                limit: MAX_DICE,
                screening_top: None,
            })
        ));
        assert!(matches!(
            Family::multisets(1000, 0, 1_000_000),
            Err(FamilyError::TooLarge { dice: None, .. })
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

    /// Screening plays games per die and the pairs of a few top dice, not every pair: its
    /// limit counts those, and a family far beyond the pairs' limit is screened, while the
    /// faces in all stay bounded for every design.
    #[test]
    fn screening_is_sized_by_the_games_it_plays() {
        assert_eq!(max_dice(Design::Racing, 3), MAX_DICE);
        assert_eq!(max_dice(Design::RoundRobin, 50), MAX_DICE);
        assert_eq!(max_dice(Design::Screening, 3), MAX_SCREENED_DICE);
        for top in [3, 10, 1000] {
            let n = max_dice(Design::Screening, top) as u64;
            assert!(screened_units(n, top as u64).unwrap() <= MAX_PAIRS, "{top}");
            assert!(
                screened_units(n + 1, top as u64).unwrap() > MAX_PAIRS,
                "{top}"
            );
        }
        // Every pair of 4,000 dice touches one of 3 top dice only 3 n - 6 times.
        assert_eq!(screened_units(4000, 3), Some(4000 + 3 * 3999 - 3));
        // The 177,100 dice with six faces from 0..19: refused by racing, screened.
        let screened = Family::multisets_for(6, 0, 19, Design::Screening, 3).unwrap();
        assert_eq!(screened.len(), 177_100);
        assert_eq!(screened.pairs(), 177_100 * 177_099 / 2);
        assert!(matches!(
            Family::multisets_for(6, 0, 99, Design::Screening, 3),
            Err(FamilyError::TooLarge {
                screening_top: Some(3),
                ..
            })
        ));
        // Two values and many faces: few dice, but each holds its faces.
        assert_eq!(
            Family::multisets_for(1 << 20, 1, 2, Design::Screening, 3),
            Err(FamilyError::TooManyFacesInAll {
                dice: (1 << 20) + 1,
                faces: 1 << 20
            })
        );
        // The most faces a family of racing holds: 5,793 dice of 5,792 faces.
        assert_eq!(multiset_count(5792, 2), Some(MAX_DICE as u64));
        let racing_faces = MAX_DICE as u64 * (MAX_DICE as u64 - 1);
        assert_eq!(racing_faces, 33_553_056);
        assert!(racing_faces <= MAX_FAMILY_FACES);
    }
}
