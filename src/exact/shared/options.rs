//! How to solve: the options every exact solver takes, checked where they enter.

use crate::fixpoint::{RuleError, StopRule};
use std::fmt;

/// How to solve. Build it with [`SolveOptions::new`]; every solver also checks the options
/// it is given ([`SolveOptions::validate`]) before any work, so options built field by
/// field cannot drive it into an iteration that can never certify its tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// Stop when every reported interval is at most this wide.
    pub tolerance: f64,
    /// Give up after this many sweeps.
    pub max_sweeps: usize,
    /// Refuse matchups whose estimated peak memory exceeds this many bytes; `None` for no
    /// limit.
    pub max_memory: Option<u64>,
}

/// Solve options no solver can honour: the tolerance or the sweep limit (the rule shared
/// by every solver, [`crate::fixpoint::StopRule::new`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionsError(pub RuleError);

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "solve options: {}", self.0)
    }
}

impl std::error::Error for OptionsError {}

impl SolveOptions {
    /// Options with the given tolerance, sweep limit and memory limit; refuses a tolerance
    /// that is not finite, below [`crate::fixpoint::TOLERANCE_FLOOR`] (what `f64` can
    /// certify) or above 1, and a sweep limit of 0.
    pub fn new(
        tolerance: f64,
        max_sweeps: usize,
        max_memory: Option<u64>,
    ) -> Result<SolveOptions, OptionsError> {
        let options = SolveOptions {
            tolerance,
            max_sweeps,
            max_memory,
        };
        options.validate().map(|()| options)
    }

    /// Checks the options as [`SolveOptions::new`] does.
    pub fn validate(&self) -> Result<(), OptionsError> {
        self.stop_rule().validate().map_err(OptionsError)
    }

    /// The value iteration's stopping rule.
    pub fn stop_rule(&self) -> StopRule {
        StopRule {
            tolerance: self.tolerance,
            max_sweeps: self.max_sweeps,
        }
    }
}

impl Default for SolveOptions {
    /// Tolerance 1e-12, at most 100,000 sweeps, 80 % of the machine's RAM.
    fn default() -> Self {
        SolveOptions {
            tolerance: 1e-12,
            max_sweeps: 100_000,
            max_memory: crate::sizes::default_limit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixpoint::TOLERANCE_FLOOR;

    #[test]
    fn refuses_tolerances_and_sweep_limits_no_solver_can_honour() {
        for bad in [f64::NAN, f64::INFINITY, 0.0, -1.0, 1e-16, 2.0] {
            assert!(SolveOptions::new(bad, 100, None).is_err(), "{bad} accepted");
        }
        assert!(SolveOptions::new(1e-9, 0, None).is_err());
        let ok = SolveOptions::new(TOLERANCE_FLOOR, 1, Some(1 << 30)).unwrap();
        assert_eq!(ok.stop_rule().max_sweeps, 1);
        assert!(SolveOptions::default().validate().is_ok());
        let e = SolveOptions::new(1e-20, 10, None).unwrap_err();
        assert!(e.to_string().contains("tolerance"), "{e}");
    }
}
