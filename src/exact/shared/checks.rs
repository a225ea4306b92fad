//! Invariants every exact result must satisfy, for tests and for callers that want to
//! double-check a result before they rely on it.

use super::bounds::Bounds;
use super::result::ExactResult;
use crate::stats;

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

/// One conditional figure of an exact result against the same figure counted in
/// simulated games.
#[derive(Clone, Copy, Debug)]
pub struct SimulatedFigure {
    /// E.g. `P(A wins | A starts)`.
    pub name: &'static str,
    /// The certified interval.
    pub exact: Bounds,
    /// Games with the outcome, of `games` with that start.
    pub count: u64,
    /// Games with that start.
    pub games: u64,
    /// The Wilson interval of `count / games` at the `z` asked for.
    pub interval: stats::Interval,
    /// Whether the two agree ([`stats::agrees_with`]): the intervals overlap; for a figure
    /// that is exactly 0, no such game was seen at all.
    pub agrees: bool,
}

/// The six conditional figures of `result` (A wins, B wins, the game never ends; by who
/// starts) against the simulated `counts` of the same matchup, each with its Wilson
/// interval at `z` (e.g. [`stats::Z999`]). Unfinished games count as never
/// ending: with a roll cap far above any game's length, the rare capped game is within
/// the statistical error.
pub fn against_simulation(
    result: &ExactResult,
    counts: &crate::sim::DuelCounts,
    z: f64,
) -> [SimulatedFigure; 6] {
    let b = &result.bounds;
    let (sa, sb) = (&counts.a_started, &counts.b_started);
    let figure = |name, exact: Bounds, count, games| {
        let (interval, agrees) = stats::agrees_with(count, games, z, exact.lo, exact.hi);
        SimulatedFigure {
            name,
            exact,
            count,
            games,
            interval,
            agrees,
        }
    };
    [
        figure(
            "P(A wins | A starts)",
            b.p_a_if_a_starts,
            sa.a_wins,
            sa.games,
        ),
        figure(
            "P(A wins | B starts)",
            b.p_a_if_b_starts,
            sb.a_wins,
            sb.games,
        ),
        figure(
            "P(B wins | A starts)",
            b.p_b_if_a_starts,
            sa.b_wins,
            sa.games,
        ),
        figure(
            "P(B wins | B starts)",
            b.p_b_if_b_starts,
            sb.b_wins,
            sb.games,
        ),
        figure(
            "P(never | A starts)",
            b.p_never_if_a_starts,
            sa.unfinished,
            sa.games,
        ),
        figure(
            "P(never | B starts)",
            b.p_never_if_b_starts,
            sb.unfinished,
            sb.games,
        ),
    ]
}
