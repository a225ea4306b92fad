//! Confidence sequences: intervals that hold at every game at once, so that one may look
//! after every game and stop whenever one likes. The normal mixture for outcomes in
//! [0, 1] ([`cs_half_width`]), the Bernoulli mixture for games of one conditional win
//! probability ([`bernoulli_cs`]), and an estimate with its sequence ([`sequence`]).

use super::Interval;

/// Risk of the confidence sequence (two-sided): 5 %.
pub const CS_ALPHA: f64 = 0.05;

/// Half-width in probability of the normal-mixture confidence sequence after `games`
/// games with mixture precision `rho`:
/// `sqrt((n/4 + rho) ln((n/4 + rho) / (rho alpha^2))) / n`.
///
/// # Why it is valid at every game
/// For game `i` with win probability `p_i`, `X_i - p_i` lies in an interval of length 1,
/// so `E exp(l (X_i - p_i) - l^2 / 8) <= 1` (Hoeffding's lemma) for every real `l`. Mixing
/// `exp(l S_n - l^2 n / 8)`, `S_n = sum (X_i - p_i)`, over `l ~ N(0, 1/rho)` gives the
/// non-negative supermartingale `sqrt(rho / (v + rho)) exp(S_n^2 / (2 (v + rho)))` with
/// `v = n/4`, and Ville's inequality bounds the chance that it ever exceeds `1/alpha` by
/// `alpha`. Solving for `|S_n|` gives the boundary. With alternating starts the `p_i`
/// alternate between the two conditional probabilities; after every pair of games
/// `sum p_i = n p`, so at even `n` the interval is one for `p` itself. The rule looks only
/// after complete pairs.
pub fn cs_half_width(games: u64, rho: f64) -> f64 {
    cs_half_width_at(games, rho, CS_ALPHA)
}

/// [`cs_half_width`] at risk `alpha` instead of [`CS_ALPHA`]: the same boundary with
/// `alpha` in place of 0.05 (the search for the best die splits its error probability over
/// many sequences, see `dice_search`). Infinite for 0 games.
pub fn cs_half_width_at(games: u64, rho: f64, alpha: f64) -> f64 {
    let n = games as f64;
    let v = n / 4.0 + rho;
    (v * (v / (rho * alpha * alpha)).ln()).sqrt() / n
}

/// The estimate `wins / games` and its confidence sequence at risk `alpha`, clipped to
/// [0, 1]; the whole of [0, 1] before any game.
pub fn sequence(wins: u64, games: u64, rho: f64, alpha: f64) -> (f64, Interval) {
    if games == 0 {
        return (f64::NAN, Interval { lo: 0.0, hi: 1.0 });
    }
    let p = wins as f64 / games as f64;
    let h = cs_half_width_at(games, rho, alpha);
    (
        p,
        Interval {
            lo: (p - h).max(0.0),
            hi: (p + h).min(1.0),
        },
    )
}

/// The confidence sequence for the success probability `p` of wins that are Bernoulli
/// with the *same* conditional probability given everything before, at risk `alpha`:
/// the beta-binomial (uniform-prior) mixture of likelihood ratios (Robbins 1970).
///
/// # Why it is valid at every game
/// If every game is won with probability `p` given the past, then for each `q` the
/// product over the games of `(q / p)^x ((1 - q) / (1 - p))^(1 - x)` is a non-negative
/// martingale with mean 1, and so is its average over `q` uniform on [0, 1], which is
/// `B(1 + w, 1 + n - w) / (p^w (1 - p)^(n - w))` after `w` wins in `n` games. Ville's
/// inequality bounds the chance that it ever exceeds `1 / alpha` by `alpha`; the set of
/// `p` where it stays below is an interval around `w / n` (the log of the denominator is
/// convex in `p`), found by bisection.
///
/// # When to use it
/// Only where every game has the same conditional win probability: the screening of the
/// search for the best die, whose opponent and starting player are drawn afresh for every
/// game. Alternating starts (two conditional probabilities) break the condition; there
/// [`cs_half_width_at`] (valid for any outcomes in [0, 1]) applies. Near 0 and 1 it is
/// much narrower than that one, which must allow the largest variance 1/4: at `p` = 0.99
/// and risk 1e-6, 0.0006 instead of 0.0028 after a million games.
///
/// # Numerics
/// `ln Gamma` by Stirling's series after shifting the argument to at least 10 (error below
/// 1e-10); the threshold is widened by 1e-9 and the bisection keeps the outer end of its
/// bracket, so rounding only ever widens the interval. `[0, 1]` before any game.
pub fn bernoulli_cs(wins: u64, games: u64, alpha: f64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let (w, n) = (wins as f64, games as f64);
    let losses = n - w;
    let threshold = (1.0 / alpha).ln() - ln_beta(1.0 + w, 1.0 + losses) + 1e-9;
    // -ln of the likelihood denominator: ln M(p) = ln B + f(p) < ln(1 / alpha) inside.
    let f = |p: f64| -(w * p.ln() + losses * (1.0 - p).ln());
    let centre = w / n;
    // The lower end: f falls on (0, centre]; f(0) is infinite unless no game was won.
    let inside = |p: f64| f(p) < threshold;
    let lo = if wins == 0 {
        0.0
    } else {
        boundary(centre, 0.0, inside)
    };
    let hi = if wins == games {
        1.0
    } else {
        boundary(centre, 1.0, inside)
    };
    (lo, hi)
}

/// The edge of an interval by bisection between a point `inside` it and a point `outside`
/// (on either side), to the last representable `f64`: the outer end of the last step, so
/// the interval is never narrower than the true one.
fn boundary(mut inside: f64, mut outside: f64, is_inside: impl Fn(f64) -> bool) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (inside + outside);
        if mid == inside || mid == outside {
            break;
        }
        if is_inside(mid) {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    outside
}

/// `ln B(x, y) = ln Gamma(x) + ln Gamma(y) - ln Gamma(x + y)` for `x, y >= 1`.
fn ln_beta(x: f64, y: f64) -> f64 {
    ln_gamma(x) + ln_gamma(y) - ln_gamma(x + y)
}

/// `ln Gamma(x)` for `x >= 1`: the recurrence up to 10, then Stirling's series to the
/// `x^-5` term (the first term left out is below `1 / (1680 x^7)`, under 1e-10).
fn ln_gamma(x: f64) -> f64 {
    let (mut x, mut shift) = (x, 0.0);
    while x < 10.0 {
        shift += x.ln();
        x += 1.0;
    }
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    let series = inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 / 1260.0));
    (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series - shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_matches_factorials() {
        let mut log_factorial = 0.0f64;
        for n in 1..40u32 {
            // ln Gamma(n + 1) = ln n!
            log_factorial += f64::from(n).ln();
            let got = ln_gamma(f64::from(n) + 1.0);
            assert!(
                (got - log_factorial).abs() < 1e-9 * log_factorial.max(1.0),
                "{n}"
            );
        }
        // Stirling at 10 leaves out less than 1 / (1680 * 10^7) = 6e-11.
        assert!(ln_gamma(1.0).abs() < 1e-10 && ln_gamma(2.0).abs() < 1e-10);
        // ln Gamma(1.5) = ln(sqrt(pi) / 2)
        assert!((ln_gamma(1.5) - (std::f64::consts::PI.sqrt() / 2.0).ln()).abs() < 1e-10);
    }

    #[test]
    fn the_bernoulli_sequence_is_narrower_than_the_hoeffding_one_near_the_ends() {
        let alpha = 1e-6;
        let n = 1_000_000;
        let (lo, hi) = bernoulli_cs(990_000, n, alpha);
        assert!(lo < 0.99 && 0.99 < hi);
        let h = cs_half_width_at(n, 1024.0, alpha);
        assert!(hi - lo < 0.5 * h, "{lo} {hi} against +-{h}");
        // At 1/2 the two are of the same order (the variance is the largest there).
        let (lo, hi) = bernoulli_cs(500_000, n, alpha);
        assert!(
            hi - lo < 2.5 * h && hi - lo > 1.0 * h,
            "{lo} {hi} against +-{h}"
        );
        assert_eq!(bernoulli_cs(0, 0, alpha), (0.0, 1.0));
        assert_eq!(bernoulli_cs(0, 10, alpha).0, 0.0);
        assert_eq!(bernoulli_cs(10, 10, alpha).1, 1.0);
    }
}
