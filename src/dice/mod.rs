//! Dice: a list of faces, drawn without bias, and the BwInf input format.

mod parse;

pub use parse::{DiceError, parse_dice_file, parse_dice_text, read_dice_file};

use rand::Rng;
use std::fmt;

/// A die: a non-empty list of non-negative faces, each equally likely. Faces may repeat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Die {
    faces: Vec<u32>,
    /// Lemire's rejection threshold `2^32 mod n`, see [`Die::roll`].
    reject_below: u32,
}

impl Die {
    /// A die with these faces; `None` when the list is empty.
    pub fn new(faces: Vec<u32>) -> Option<Die> {
        if faces.is_empty() || faces.len() > u32::MAX as usize {
            return None;
        }
        let n = faces.len() as u32;
        Some(Die {
            faces,
            reject_below: n.wrapping_neg() % n,
        })
    }

    /// The ordinary die 1..6.
    pub fn standard() -> Die {
        Die::new((1..=6).collect()).expect("six faces")
    }

    /// The faces in the order given.
    pub fn faces(&self) -> &[u32] {
        &self.faces
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
            while j + 1 < faces.len() && faces[j + 1] == faces[j].wrapping_add(1) {
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
    fn from_str(s: &str) -> Result<Die, String> {
        let mut faces = Vec::new();
        for item in s.split([',', ' ']).map(str::trim).filter(|t| !t.is_empty()) {
            if let Some((lo, hi)) = item.split_once("..") {
                let lo = parse::parse_face(lo)?;
                let hi = parse::parse_face(hi)?;
                if hi < lo {
                    return Err(format!("range '{item}' runs backwards"));
                }
                if (hi - lo) as usize >= 1 << 20 {
                    return Err(format!("range '{item}' has more than 2^20 faces"));
                }
                faces.extend(lo..=hi);
            } else {
                faces.push(parse::parse_face(item)?);
            }
        }
        Die::new(faces).ok_or_else(|| format!("'{s}' has no faces: expected e.g. 1,2,3,4,5,6"))
    }
}

impl serde::Serialize for Die {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
