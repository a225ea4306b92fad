//! Invariants every exact result must satisfy, for tests and for callers that want to
//! double-check a result before they rely on it.

use super::{Bounds, ExactResult};

/// Checks `result` against the invariants that hold for every matchup:
///
/// - every interval lies in `[0, 1]`, has `lo <= hi`, contains its figure and is at most
///   `tolerance` wide;
/// - for each start, and for the weighted figures, P(A) + P(B) + P(never) = 1 within
///   `2 * tolerance` (each figure is a midpoint within `tolerance / 2` of the truth);
/// - the weighted figures are the mixtures of the conditional ones with `p_a_starts`.
///
/// Returns a description of the first violation.
pub fn check_result(result: &ExactResult, tolerance: f64) -> Result<(), String> {
    let b = &result.bounds;
    let slack = 1e-15;
    let figures: [(&str, f64, &Bounds); 9] = [
        ("p_a", result.p_a, &b.p_a),
        (
            "p_a_if_a_starts",
            result.p_a_if_a_starts,
            &b.p_a_if_a_starts,
        ),
        (
            "p_a_if_b_starts",
            result.p_a_if_b_starts,
            &b.p_a_if_b_starts,
        ),
        ("p_b", result.p_b, &b.p_b),
        (
            "p_b_if_a_starts",
            result.p_b_if_a_starts,
            &b.p_b_if_a_starts,
        ),
        (
            "p_b_if_b_starts",
            result.p_b_if_b_starts,
            &b.p_b_if_b_starts,
        ),
        ("p_never", result.p_never, &b.p_never),
        (
            "p_never_if_a_starts",
            result.p_never_if_a_starts,
            &b.p_never_if_a_starts,
        ),
        (
            "p_never_if_b_starts",
            result.p_never_if_b_starts,
            &b.p_never_if_b_starts,
        ),
    ];
    for (name, value, bounds) in figures {
        if !(0.0 <= bounds.lo && bounds.lo <= bounds.hi && bounds.hi <= 1.0) {
            return Err(format!(
                "{name}: interval [{}, {}] is not inside [0, 1]",
                bounds.lo, bounds.hi
            ));
        }
        if !bounds.contains(value) {
            return Err(format!(
                "{name} = {value} lies outside [{}, {}]",
                bounds.lo, bounds.hi
            ));
        }
        if bounds.width() > tolerance + slack {
            return Err(format!(
                "{name}: interval width {:e} exceeds {tolerance:e}",
                bounds.width()
            ));
        }
    }
    let sums = [
        (
            "A starts",
            result.p_a_if_a_starts + result.p_b_if_a_starts + result.p_never_if_a_starts,
        ),
        (
            "B starts",
            result.p_a_if_b_starts + result.p_b_if_b_starts + result.p_never_if_b_starts,
        ),
        ("weighted", result.p_a + result.p_b + result.p_never),
    ];
    for (which, sum) in sums {
        if (sum - 1.0).abs() > 2.0 * tolerance + slack {
            return Err(format!("{which}: P(A) + P(B) + P(never) = {sum}, not 1"));
        }
    }
    let w = result.p_a_starts;
    let mixes = [
        (
            "p_a",
            result.p_a,
            result.p_a_if_a_starts,
            result.p_a_if_b_starts,
        ),
        (
            "p_b",
            result.p_b,
            result.p_b_if_a_starts,
            result.p_b_if_b_starts,
        ),
        (
            "p_never",
            result.p_never,
            result.p_never_if_a_starts,
            result.p_never_if_b_starts,
        ),
    ];
    for (name, mixed, if_a, if_b) in mixes {
        if (mixed - (w * if_a + (1.0 - w) * if_b)).abs() > tolerance + slack {
            return Err(format!(
                "{name} = {mixed} is not the mixture of {if_a} and {if_b} with weight {w}"
            ));
        }
    }
    Ok(())
}
