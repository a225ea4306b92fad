//! The value-iteration core shared by every solver of the project (the board game's exact
//! solver and the Wubbel/Pig solver): a driver that repeats in-place sweeps until a
//! certified gap is below the tolerance, and the bookkeeping every sweep needs.
//!
//! A solver owns its state space and writes one sweep (Jacobi or Gauss-Seidel, any order);
//! the driver owns the stopping rule, so every game stops by the same, documented test.
//!
//! # Stopping
//! Each sweep reports two numbers: the largest change of any value in that sweep, and a
//! `gap`, the quantity that must fall below the tolerance. A solver that brackets its answer
//! (the board game iterates win probabilities of both players up from 0, so the truth lies
//! between `V` and `1 - W - never`) reports the width of that bracket: a certificate, not a
//! guess. A solver that only has a contraction estimate reports
//! `change * q / (1 - q)` for its contraction modulus `q` (see [`contraction_gap`]).

use std::fmt;

/// When to stop iterating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StopRule {
    /// Stop once a sweep reports a gap at most this large.
    pub tolerance: f64,
    /// Give up after this many sweeps.
    pub max_sweeps: usize,
}

impl Default for StopRule {
    fn default() -> Self {
        StopRule {
            tolerance: 1e-12,
            max_sweeps: 1_000_000,
        }
    }
}

/// What one sweep measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepReport {
    /// Largest absolute change of any value during the sweep.
    pub change: f64,
    /// The certified distance to the fixed point (or a bracket width) after the sweep.
    pub gap: f64,
}

impl SweepReport {
    /// A report whose gap is the change itself: for iterations whose error is bounded by
    /// the last change (e.g. monotone iterations checked separately).
    pub fn by_change(change: f64) -> SweepReport {
        SweepReport {
            change,
            gap: change,
        }
    }
}

/// How an iteration ended.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Convergence {
    /// Number of sweeps run.
    pub sweeps: usize,
    /// Largest change in the last sweep.
    pub last_change: f64,
    /// Gap reported by the last sweep.
    pub gap: f64,
}

/// The iteration hit [`StopRule::max_sweeps`] before its gap fell below the tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotConverged(pub Convergence);

impl fmt::Display for NotConverged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "value iteration did not converge in {} sweeps (gap {:.3e}, last change {:.3e})",
            self.0.sweeps, self.0.gap, self.0.last_change
        )
    }
}

impl std::error::Error for NotConverged {}

/// Runs `sweep` (given the 0-based sweep number) until its gap is at most the tolerance.
///
/// A `NaN` gap never satisfies the rule, so a broken sweep cannot pass as converged.
pub fn iterate(
    rule: &StopRule,
    mut sweep: impl FnMut(usize) -> SweepReport,
) -> Result<Convergence, NotConverged> {
    let mut last = Convergence {
        sweeps: 0,
        last_change: f64::INFINITY,
        gap: f64::INFINITY,
    };
    while last.sweeps < rule.max_sweeps {
        let report = sweep(last.sweeps);
        last = Convergence {
            sweeps: last.sweeps + 1,
            last_change: report.change,
            gap: report.gap,
        };
        if report.gap <= rule.tolerance {
            return Ok(last);
        }
    }
    Err(NotConverged(last))
}

/// Bound on the distance to the fixed point of a `q`-contraction after a step that moved by
/// `change`: `||x_k - x*|| <= q / (1 - q) * ||x_k - x_{k-1}||` (Banach).
pub fn contraction_gap(change: f64, modulus: f64) -> f64 {
    if modulus < 1.0 {
        change * modulus / (1.0 - modulus)
    } else {
        f64::INFINITY
    }
}

/// Writes `new` into `slot` and returns the absolute change: the Gauss-Seidel step.
#[inline(always)]
pub fn update(slot: &mut f64, new: f64) -> f64 {
    let change = (new - *slot).abs();
    *slot = new;
    change
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_first_sweep_within_tolerance() {
        // x <- x/2 + 1 converges to 2; gap by the Banach bound with q = 1/2.
        let mut x = 0.0;
        let rule = StopRule {
            tolerance: 1e-9,
            max_sweeps: 1000,
        };
        let result = iterate(&rule, |_| {
            let next = x / 2.0 + 1.0;
            let change = update(&mut x, next);
            SweepReport {
                change,
                gap: contraction_gap(change, 0.5),
            }
        })
        .unwrap();
        assert!((x - 2.0).abs() <= 1e-9);
        // 2 - x_k = 2^(1-k); the gap after sweep k equals that distance exactly.
        assert_eq!(result.sweeps, 31);
    }

    #[test]
    fn reports_failure_instead_of_a_false_answer() {
        let rule = StopRule {
            tolerance: 1e-12,
            max_sweeps: 5,
        };
        let err = iterate(&rule, |_| SweepReport::by_change(f64::NAN)).unwrap_err();
        assert_eq!(err.0.sweeps, 5);
    }
}
