//! Binomial confidence intervals and the sample sizes they imply.

use serde::Serialize;

/// Two-sided 95 % standard normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;
/// Two-sided 99 % standard normal quantile.
pub const Z99: f64 = 2.575_829_303_548_901;
/// Two-sided 99.9 % standard normal quantile.
pub const Z999: f64 = 3.290_526_731_491_926;

/// A closed interval `[lo, hi]` of probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// Writes an interval as `[lo, hi]`, the form of every `ci95` in the JSON reports.
pub fn as_pair<S: serde::Serializer>(interval: &Interval, s: S) -> Result<S::Ok, S::Error> {
    use serde::Serialize;
    [interval.lo, interval.hi].serialize(s)
}

impl Interval {
    /// Half the width.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
    /// Whether `x` lies inside (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// Wilson score interval for `successes` out of `n` at normal quantile `z`.
///
/// Unlike the plain normal interval it stays inside [0, 1] and keeps its coverage near
/// 0 and 1, which matters for lopsided matchups (a die without a 6 wins almost nothing).
pub fn wilson(successes: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    score_interval(successes as f64 / n as f64, n as f64, z)
}

/// The Wilson score interval around an estimate `p` of a mean in [0, 1] whose variance is
/// at most `mu (1 - mu) / n` when the true mean is `mu`.
///
/// That bound holds for a binomial proportion (with equality), for the mean of any
/// variable bounded in [0, 1] (Bhatia-Davis: its variance is at most `mu (1 - mu)`), and
/// for a mean of independent proportions (Jensen). Solving `|p - mu| <= z sd(mu)` for `mu`
/// gives an interval that never collapses: at `p = 0` its upper end is `z^2 / (n + z^2)`.
/// `n` may be fractional (an effective number of games); `n <= 0` gives [0, 1].
pub fn score_interval(p: f64, n: f64, z: f64) -> Interval {
    // NaN fails the test too (a mean of nothing), and gives the interval that claims nothing.
    if !(n > 0.0 && (0.0..=1.0).contains(&p)) {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 (or 1) the end is exactly 0 (or 1): centre and half are then equal in exact
    // arithmetic, but not after rounding.
    Interval {
        lo: if p == 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if p == 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// A 95 % interval for the mean of independent proportions `(p_t, n_t)` (each `p_t` the
/// share of `n_t` games), e.g. a die's mean P(win) over the tables it sits at.
///
/// The variance of the mean is `sum p_t (1 - p_t) / n_t / T^2`, at most
/// `mu (1 - mu) / (T n_min)` by Jensen's inequality, so [`score_interval`] with
/// `T n_min` games covers at least as often as a Wilson interval does. With equal game
/// counts it is the Wilson interval of the pooled wins. A normal interval around the mean
/// (mean +- z sd) would collapse to a point when every table's share is 0 or 1.
pub fn mean_of_proportions(shares: &[(f64, u64)], z: f64) -> Interval {
    let Some(fewest) = shares.iter().map(|&(_, n)| n).min() else {
        return Interval { lo: 0.0, hi: 1.0 };
    };
    let mean = shares.iter().map(|&(p, _)| p).sum::<f64>() / shares.len() as f64;
    score_interval(mean, shares.len() as f64 * fewest as f64, z)
}

/// A 95 %-type interval for the mean of `n` independent outcomes in [-1, 1] (a game's
/// value: +1 won, -1 lost, 0 unfinished), from their sample mean: [`score_interval`] on
/// the outcomes mapped to [0, 1]. Valid where every outcome was the same, unlike
/// mean +- z sd, which is then a point.
pub fn signed_mean_interval(mean: f64, n: u64, z: f64) -> Interval {
    let unit = score_interval((mean + 1.0) / 2.0, n as f64, z);
    Interval {
        lo: 2.0 * unit.lo - 1.0,
        hi: 2.0 * unit.hi - 1.0,
    }
}

/// The plain normal (Wald) interval `p ± z sqrt(p(1-p)/n)`, clipped to [0, 1].
pub fn normal(successes: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let p = successes as f64 / n as f64;
    let half = z * (p * (1.0 - p) / n as f64).sqrt();
    Interval {
        lo: (p - half).max(0.0),
        hi: (p + half).min(1.0),
    }
}

/// Games needed so that a binomial estimate with variance `p(1-p) <= variance` has a
/// normal-approximation half-width of at most `half_width` at quantile `z`; `None` when
/// that is not a number of games a `u64` can hold (a tiny or zero half-width, a NaN).
pub fn games_for_half_width(variance: f64, half_width: f64, z: f64) -> Option<u64> {
    let games = (z * z * variance / (half_width * half_width)).ceil();
    // 2^64 as f64 is exact; every f64 below it converts to u64 without saturating.
    (0.0..18_446_744_073_709_551_616.0)
        .contains(&games)
        .then_some(games as u64)
}

/// The largest `p(1-p)` for `p` in the interval: an upper bound on the Bernoulli variance.
pub fn max_variance(interval: &Interval) -> f64 {
    let p = 0.5_f64.clamp(interval.lo, interval.hi);
    p * (1.0 - p)
}

/// Whether `count` of `games` agrees with a probability known to lie in `[lo, hi]`: the
/// Wilson interval of `count / games` at `z` overlaps `[lo, hi]`; for a probability that
/// is exactly 0 (`hi == 0`), no such game was seen at all. Returns the Wilson interval too.
pub fn agrees_with(count: u64, games: u64, z: f64, lo: f64, hi: f64) -> (Interval, bool) {
    let interval = wilson(count, games, z);
    let agrees = if hi == 0.0 {
        count == 0
    } else {
        interval.lo <= hi && lo <= interval.hi
    };
    (interval, agrees)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_hand_computation() {
        // 8 of 10 at z = 1.96 (Wilson 1927): centre (0.8 + 0.19208)/1.38416 = 0.71676,
        // half 1.96/1.38416 * sqrt(0.016 + 0.009604) = 0.22659.
        let i = wilson(8, 10, 1.96);
        approx::assert_abs_diff_eq!(i.lo, 0.49016, epsilon = 1e-4);
        approx::assert_abs_diff_eq!(i.hi, 0.94335, epsilon = 1e-4);
    }

    #[test]
    fn wilson_stays_inside_the_unit_interval_at_the_edges() {
        let none = wilson(0, 100, Z95);
        assert_eq!(none.lo, 0.0);
        assert!(none.hi > 0.0 && none.hi < 0.05);
        let all = wilson(100, 100, Z95);
        assert_eq!(all.hi, 1.0);
        assert!(all.lo > 0.95);
    }

    #[test]
    fn a_mean_of_proportions_is_never_a_point_at_the_edges() {
        // Four tables of 24 games, a die that won none of them: a normal interval around the
        // mean would be [0, 0]; the score interval's upper end is z^2 / (96 + z^2).
        let none = mean_of_proportions(&[(0.0, 24); 4], Z95);
        assert_eq!(none.lo, 0.0);
        approx::assert_abs_diff_eq!(none.hi, Z95 * Z95 / (96.0 + Z95 * Z95), epsilon = 1e-12);
        // Equal game counts: the Wilson interval of the pooled wins.
        let mixed = mean_of_proportions(&[(3.0 / 24.0, 24), (0.0, 24), (9.0 / 24.0, 24)], Z95);
        let pooled = wilson(12, 72, Z95);
        approx::assert_abs_diff_eq!(mixed.lo, pooled.lo, epsilon = 1e-12);
        approx::assert_abs_diff_eq!(mixed.hi, pooled.hi, epsilon = 1e-12);
        // Unequal counts: the fewest games set the width (conservative).
        let uneven = mean_of_proportions(&[(0.5, 10), (0.5, 1000)], Z95);
        let fewest = score_interval(0.5, 20.0, Z95);
        assert_eq!(uneven, fewest);
        assert_eq!(mean_of_proportions(&[], Z95), Interval { lo: 0.0, hi: 1.0 });
    }

    #[test]
    fn a_signed_mean_is_never_a_point_when_every_game_agrees() {
        let won = signed_mean_interval(1.0, 20, Z95);
        assert_eq!(won.hi, 1.0);
        assert!(won.lo < 1.0 && won.lo > 0.5, "{won:?}");
        let lost = signed_mean_interval(-1.0, 20, Z95);
        approx::assert_abs_diff_eq!(lost.lo, -1.0, epsilon = 1e-15);
        assert!(lost.hi > -1.0);
        // The map to [0, 1] and back keeps the centre: 0 stays the middle of its interval.
        let even = signed_mean_interval(0.0, 100, Z95);
        approx::assert_abs_diff_eq!(even.lo, -even.hi, epsilon = 1e-12);
    }

    proptest::proptest! {
        /// Every interval the reports print, from few games: never a point, and it holds
        /// its estimate.
        #[test]
        fn no_printed_interval_has_width_zero(
            wins in proptest::collection::vec(0u64..=24, 1..6),
            games in 1u64..=24,
        ) {
            let wins: Vec<u64> = wins.into_iter().map(|w| w.min(games)).collect();
            let shares: Vec<(f64, u64)> =
                wins.iter().map(|&w| (w as f64 / games as f64, games)).collect();
            let mean = shares.iter().map(|s| s.0).sum::<f64>() / shares.len() as f64;
            for (estimate, i) in [
                (mean, mean_of_proportions(&shares, Z95)),
                (shares[0].0, wilson(wins[0], games, Z95)),
                (2.0 * mean - 1.0, signed_mean_interval(2.0 * mean - 1.0, games, Z95)),
            ] {
                proptest::prop_assert!(i.hi - i.lo > 1e-6, "{i:?}");
                proptest::prop_assert!(i.lo <= estimate + 1e-12 && estimate <= i.hi + 1e-12);
            }
        }
    }

    #[test]
    fn sample_size_for_the_worst_case() {
        // The textbook figure: +-0.001 at 95 % needs 1.96^2 / 4 / 1e-6 = 960,365 games.
        assert_eq!(games_for_half_width(0.25, 0.001, Z95), Some(960_365));
        // 1e-10 needs 9.6e19 games: more than a u64 holds, not a saturated or wrapped count.
        assert_eq!(games_for_half_width(0.25, 1e-10, Z95), None);
        assert_eq!(games_for_half_width(0.25, 0.0, Z95), None);
        assert_eq!(games_for_half_width(0.25, f64::NAN, Z95), None);
        assert_eq!(max_variance(&Interval { lo: 0.1, hi: 0.2 }), 0.2 * 0.8);
        assert_eq!(max_variance(&Interval { lo: 0.3, hi: 0.9 }), 0.25);
    }
}
