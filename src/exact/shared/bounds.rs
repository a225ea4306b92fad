//! Certified intervals: what the lower bounds `V`, `W`, `Z` of a monotone value iteration
//! prove about a state, the same for every solver.

/// A closed interval `[lo, hi]` that provably contains a probability.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Bounds {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Bounds {
    /// The interval `[0, 0]`: a figure a state cannot reach.
    pub const ZERO: Bounds = Bounds { lo: 0.0, hi: 0.0 };
    /// The interval `[1, 1]`: a certain figure.
    pub const ONE: Bounds = Bounds { lo: 1.0, hi: 1.0 };

    /// `hi - lo`.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }

    /// The midpoint, the reported value: within `width() / 2` of the truth.
    pub fn mid(&self) -> f64 {
        if self.lo == self.hi {
            self.lo
        } else {
            0.5 * (self.lo + self.hi)
        }
    }

    /// `w * self + (1 - w) * other`, the interval of a mixture.
    pub fn mix(&self, w: f64, other: &Bounds) -> Bounds {
        Bounds {
            lo: w * self.lo + (1.0 - w) * other.lo,
            hi: w * self.hi + (1.0 - w) * other.hi,
        }
    }

    /// The certificate of a monotone iteration from 0 for outcome `k` of a state whose
    /// outcomes' probabilities sum to 1, given the lower bounds `lower` of all of them:
    /// `lower[k] <= P(k) <= 1 - sum of the others' lower bounds` (any number of outcomes:
    /// two players and never, or N seats and never).
    pub fn certified_among(lower: &[f64], k: usize) -> Bounds {
        let others: f64 = lower
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, v)| v)
            .sum();
        // Rounding can push a sum of probabilities a few ulps past 1.
        let lo = lower[k].clamp(0.0, 1.0);
        let hi = (1.0 - others).clamp(lo, 1.0);
        Bounds { lo, hi }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// The certified intervals of one state: A wins, B wins, the game never ends.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StateBounds {
    /// P(A wins).
    pub a: Bounds,
    /// P(B wins).
    pub b: Bounds,
    /// P(the game never ends).
    pub never: Bounds,
}

impl StateBounds {
    /// The largest width of the three intervals.
    pub fn width(&self) -> f64 {
        self.a.width().max(self.b.width()).max(self.never.width())
    }

    /// A state of the never-ending set: `P(never) = 1` exactly.
    pub const NEVER: StateBounds = StateBounds {
        a: Bounds::ZERO,
        b: Bounds::ZERO,
        never: Bounds::ONE,
    };

    /// The certificate of a monotone iteration from 0 (see [`crate::exact`]): the lower
    /// bounds `lower = [V, W, Z]` of P(A wins), P(B wins), P(never) at a transient state,
    /// whose three probabilities sum to 1, prove `V <= P(A wins) <= 1 - W - Z` and so on.
    /// A figure the state cannot reach (`reachable[k]` false: no path to it) is exactly 0.
    pub fn certified(lower: [f64; 3], reachable: [bool; 3]) -> StateBounds {
        let [a, b, never] = [0, 1, 2].map(|k| {
            if reachable[k] {
                Bounds::certified_among(&lower, k)
            } else {
                Bounds::ZERO
            }
        });
        StateBounds { a, b, never }
    }

    /// `[A wins, B wins, never]`.
    pub fn to_array(self) -> [Bounds; 3] {
        [self.a, self.b, self.never]
    }
}
