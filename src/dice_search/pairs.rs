//! Which pairs of a family a search may play: all of them (racing, round robin), or under
//! the screening design only the pairs that touch one of a few *anchor* dice.
//!
//! The pairs are numbered by *slot*, the position of their counters. With every pair in
//! play the slot is [`pair_index`]; with anchors `a_0, .., a_{k-1}` row `q` holds the pairs
//! of `a_q` with every die except itself and the anchors before it, so the `k (n - 1) -
//! k (k - 1) / 2` pairs are stored once each, without gaps, and a family of 5,005 dice with
//! six anchors keeps 30,015 counters instead of 12.5 million.

use serde::{Deserialize, Serialize};

/// The index of the unordered pair `{i, j}` (`i != j`) among the pairs of `n` dice, in
/// the order (0,1), (0,2), .., (0,n-1), (1,2), ..
pub fn pair_index(n: usize, i: usize, j: usize) -> usize {
    let (i, j) = if i < j { (i, j) } else { (j, i) };
    i * n - i * (i + 1) / 2 + (j - i - 1)
}

/// The pairs a search may play (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StoredPairSet")]
pub struct PairSet {
    n: usize,
    /// `None`: every pair; else the anchors, in the order of their rows.
    anchors: Option<Vec<usize>>,
    /// Each die's row among the anchors (`None` for a die that is no anchor).
    #[serde(skip)]
    position: Vec<Option<usize>>,
}

impl PairSet {
    /// Every pair of `n` dice.
    pub fn all(n: usize) -> PairSet {
        PairSet {
            n,
            anchors: None,
            position: Vec::new(),
        }
    }

    /// The pairs of `n` dice that touch one of `anchors` (distinct indices below `n`).
    ///
    /// # Panics
    /// If an anchor is not below `n` or appears twice (a bug of the caller).
    pub fn anchored(n: usize, anchors: Vec<usize>) -> PairSet {
        let mut set = PairSet {
            n,
            anchors: Some(anchors),
            position: Vec::new(),
        };
        set.index_anchors();
        set
    }

    /// Builds the anchors' positions.
    fn index_anchors(&mut self) {
        // Only an anchored set has positions ([`PairSet::all`] keeps none), so a set read
        // back equals the one written.
        self.position = Vec::new();
        if let Some(anchors) = &self.anchors {
            self.position = vec![None; self.n];
            for (q, &a) in anchors.iter().enumerate() {
                assert!(a < self.n && self.position[a].is_none(), "anchor {a} twice");
                self.position[a] = Some(q);
            }
        }
    }

    /// Number of dice.
    pub fn dice(&self) -> usize {
        self.n
    }

    /// The anchors, if the set is anchored.
    pub fn anchors(&self) -> Option<&[usize]> {
        self.anchors.as_deref()
    }

    /// Number of pairs in the set (= number of slots).
    pub fn len(&self) -> usize {
        let n = self.n;
        match &self.anchors {
            None => n * (n - 1) / 2,
            Some(a) => {
                let k = a.len();
                k * (n - 1) - k * k.saturating_sub(1) / 2
            }
        }
    }

    /// Never true for a family (at least two dice, at least one anchor).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether die `i`'s every pair is in the set (all of them, or `i` is an anchor).
    pub fn full_row(&self, i: usize) -> bool {
        self.anchors.is_none() || self.position[i].is_some()
    }

    /// The slot of the pair `{i, j}` (`i != j`), `None` if the set does not hold it.
    pub fn slot(&self, i: usize, j: usize) -> Option<usize> {
        if self.anchors.is_none() {
            return Some(pair_index(self.n, i, j));
        }
        // The pair sits in the row of its anchor with the smaller position.
        let (q, other) = match (self.position[i], self.position[j]) {
            (Some(p), Some(r)) if p < r => (p, j),
            (Some(_), Some(r)) => (r, i),
            (Some(p), None) => (p, j),
            (None, Some(r)) => (r, i),
            (None, None) => return None,
        };
        let anchors = self.anchors.as_deref().unwrap_or(&[]);
        // Row q leaves out its own anchor and those of the rows before it; `other` is not
        // one of those before (they would hold the pair), so count the ones below it.
        let left_out_below = anchors[..=q].iter().filter(|&&a| a < other).count();
        Some(q * (self.n - 1) - q * q.saturating_sub(1) / 2 + other - left_out_below)
    }

    /// Whether the set holds the pair `{i, j}`.
    pub fn contains(&self, i: usize, j: usize) -> bool {
        i != j && self.slot(i, j).is_some()
    }

    /// Die `i`'s opponents in the set, in ascending order.
    pub fn opponents(&self, i: usize) -> Vec<usize> {
        match (&self.anchors, self.full_row(i)) {
            (Some(anchors), false) => {
                let mut v = anchors.clone();
                v.sort_unstable();
                v
            }
            _ => (0..self.n).filter(|&j| j != i).collect(),
        }
    }

    /// The pairs `(i, j)`, `i < j`, in slot order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut list = vec![(0, 0); self.len()];
        match &self.anchors {
            None => {
                for i in 0..self.n {
                    for j in i + 1..self.n {
                        list[pair_index(self.n, i, j)] = (i, j);
                    }
                }
            }
            Some(anchors) => {
                for &a in anchors {
                    for j in (0..self.n).filter(|&j| j != a) {
                        let slot = self.slot(a, j).expect("an anchor's pair");
                        list[slot] = (a.min(j), a.max(j));
                    }
                }
            }
        }
        list
    }
}

/// A set as written to a file ([`super::checkpoint`]), checked when read back: the anchors
/// distinct and below the number of dice, which must be at least two.
#[derive(Deserialize)]
struct StoredPairSet {
    n: usize,
    anchors: Option<Vec<usize>>,
}

impl TryFrom<StoredPairSet> for PairSet {
    type Error = String;

    fn try_from(stored: StoredPairSet) -> Result<PairSet, String> {
        let n = stored.n;
        if !(2..=super::family::MAX_SCREENED_DICE).contains(&n) {
            return Err(format!("{n} dice in the set of pairs"));
        }
        if let Some(anchors) = &stored.anchors {
            let mut seen = vec![false; n];
            for &a in anchors {
                if a >= n || std::mem::replace(&mut seen[a], true) {
                    return Err(format!("anchor {a} out of range or twice"));
                }
            }
        }
        let mut set = PairSet {
            n,
            anchors: stored.anchors,
            position: Vec::new(),
        };
        set.index_anchors();
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_indices_run_through_the_pairs_in_order() {
        let n = 7;
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                assert_eq!(pair_index(n, i, j), k);
                assert_eq!(pair_index(n, j, i), k);
                k += 1;
            }
        }
    }

    #[test]
    fn anchored_slots_number_the_anchors_pairs_once_without_gaps() {
        for anchors in [
            vec![3],
            vec![5, 0, 2],
            vec![6, 5, 4, 3, 2, 1, 0],
            vec![1, 4],
        ] {
            let n = 7;
            let set = PairSet::anchored(n, anchors.clone());
            let mut seen = vec![0; set.len()];
            for i in 0..n {
                for j in 0..n {
                    let touches = i != j && (anchors.contains(&i) || anchors.contains(&j));
                    assert_eq!(set.contains(i, j), touches, "{anchors:?} {i} {j}");
                    if i < j && touches {
                        let s = set.slot(i, j).unwrap();
                        assert_eq!(set.slot(j, i), Some(s));
                        seen[s] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{anchors:?}: {seen:?}");
            let pairs = set.pairs();
            for (s, &(i, j)) in pairs.iter().enumerate() {
                assert!(i < j);
                assert_eq!(set.slot(i, j), Some(s));
            }
            for i in 0..n {
                let expected: Vec<usize> = (0..n).filter(|&j| set.contains(i, j)).collect();
                assert_eq!(set.opponents(i), expected);
                assert_eq!(set.full_row(i), anchors.contains(&i));
            }
        }
        let all = PairSet::all(5);
        assert_eq!(all.len(), 10);
        assert_eq!(all.pairs()[4], (1, 2));
        assert!((0..5).all(|i| all.full_row(i)));
    }
}
