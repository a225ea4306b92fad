//! Dice: a list of faces, drawn without bias, and the BwInf input format.

pub mod examples;
mod parse;

pub use parse::{DiceError, excerpt, parse_dice_file, parse_dice_text, read_dice_file};

use rand::Rng;
use std::fmt;

/// The most faces a die may have: 2^20, wherever the die comes from (`Die::new`, the
/// command line's `a..b` notation, a dice file).
///
/// Far more than any sensible die, yet small enough that a die costs at most 4 MiB and the
/// exact solver's tables of distinct faces stay bounded; one limit, so that a die a dice
/// file accepts is one the command line accepts, and the other way round.
pub const MAX_FACES: usize = 1 << 20;

/// Why a list of faces is not a die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieError {
    /// The list is empty.
    NoFaces,
    /// More than [`MAX_FACES`] faces; the number given.
    TooManyFaces(usize),
}

impl fmt::Display for DieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DieError::NoFaces => write!(f, "a die needs at least one face"),
            DieError::TooManyFaces(n) => {
                write!(
                    f,
                    "{n} faces: a die may have at most {MAX_FACES} (2^20) faces"
                )
            }
        }
    }
}

impl std::error::Error for DieError {}

/// A die: a non-empty list of non-negative faces, each equally likely. Faces may repeat.
///
/// Any `u32` is a valid face: the rules move a piece only for faces from 1 to the board's
/// last field, and a face outside that range is a roll in which nothing moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Die {
    faces: Vec<u32>,
    /// Lemire's rejection threshold `2^32 mod n`, see [`Die::roll`].
    reject_below: u32,
}

impl Die {
    /// A die with these faces: at least one and at most [`MAX_FACES`].
    pub fn new(faces: Vec<u32>) -> Result<Die, DieError> {
        if faces.is_empty() {
            return Err(DieError::NoFaces);
        }
        if faces.len() > MAX_FACES {
            return Err(DieError::TooManyFaces(faces.len()));
        }
        // At most 2^20 faces: the count fits in u32, as `roll` needs.
        let n = faces.len() as u32;
        Ok(Die {
            faces,
            reject_below: n.wrapping_neg() % n,
        })
    }

    /// The ordinary die 1..6.
    pub fn standard() -> Die {
        Die::new((1..=6).collect()).expect("six faces are a valid die")
    }

    /// The faces in the order given.
    pub fn faces(&self) -> &[u32] {
        &self.faces
    }

    /// Lemire's rejection threshold `2^32 mod n` of [`Die::roll`], for copies of the roll
    /// that must draw exactly as it does.
    pub(crate) fn reject_below(&self) -> u32 {
        self.reject_below
    }

    /// Each distinct face with the number of sides that show it, sorted by face.
    pub fn face_counts(&self) -> Vec<(u32, u32)> {
        let mut sorted = self.faces.clone();
        sorted.sort_unstable();
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for face in sorted {
            match counts.last_mut() {
                Some((f, c)) if *f == face => *c += 1,
                _ => counts.push((face, 1)),
            }
        }
        counts
    }

    /// Whether every face is a 6: such a die never passes the turn on.
    pub fn only_sixes(&self) -> bool {
        self.faces.iter().all(|&f| f == 6)
    }

    /// Rolls the die.
    ///
    /// # Bias
    /// Lemire's multiply-and-reject method: a 32-bit draw `x` times the number of faces `n`
    /// gives the face in the high word; the low word tells whether `x` fell into the
    /// `2^32 mod n` values that would favour some faces, and only those draws are repeated.
    /// Every face is therefore exactly equally likely, at one multiplication per roll.
    #[inline(always)]
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let n = self.faces.len() as u64;
        loop {
            let product = u64::from(rng.next_u32()) * n;
            if (product as u32) >= self.reject_below {
                return self.faces[(product >> 32) as usize];
            }
        }
    }
}

impl fmt::Display for Die {
    /// Faces separated by commas, with runs of three or more consecutive faces written
    /// `a..b`: `1..6`, `1,1,1,6,6,6`, `0..9`. [`Die::from_str`](std::str::FromStr) reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut i = 0;
        let faces = &self.faces;
        while i < faces.len() {
            let mut j = i;
            // `checked_add`: ..., u32::MAX, 0 is not a run (`a..b` could not be read back).
            while j + 1 < faces.len() && Some(faces[j + 1]) == faces[j].checked_add(1) {
                j += 1;
            }
            if i > 0 {
                write!(f, ",")?;
            }
            if j - i >= 2 {
                write!(f, "{}..{}", faces[i], faces[j])?;
                i = j + 1;
            } else {
                write!(f, "{}", faces[i])?;
                i += 1;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Die {
    type Err = String;

    /// Parses faces separated by commas (or spaces), where `a..b` stands for `a, a+1, .., b`.
    /// At most [`MAX_FACES`] faces in all, checked before a range is expanded.
    fn from_str(s: &str) -> Result<Die, String> {
        let mut faces = Vec::new();
        for item in s.split([',', ' ']).map(str::trim).filter(|t| !t.is_empty()) {
            let (lo, hi) = match item.split_once("..") {
                Some((lo, hi)) => (parse::parse_face(lo)?, parse::parse_face(hi)?),
                None => {
                    let face = parse::parse_face(item)?;
                    (face, face)
                }
            };
            if hi < lo {
                return Err(format!("range {} runs backwards", excerpt(item)));
            }
            let total = faces.len() as u64 + u64::from(hi - lo) + 1;
            if total > MAX_FACES as u64 {
                return Err(format!(
                    "more than {MAX_FACES} (2^20) faces: a die may have at most that many"
                ));
            }
            faces.extend(lo..=hi);
        }
        Die::new(faces).map_err(|e| match e {
            DieError::NoFaces => "no faces: expected e.g. 1,2,3,4,5,6 or 1..6".to_string(),
            other => other.to_string(),
        })
    }
}

impl serde::Serialize for Die {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
