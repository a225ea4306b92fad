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
//!
//! # Stalling
//! A solver whose stored values are rounded (the matrix-free solver's `f32` storage) can
//! stop gaining before its gap reaches the tolerance: each sweep then moves the gap by a
//! few ulps only. [`iterate_until_stall`] watches the gap for that ([`Stall`]) and ends
//! with [`Ending::Stalled`] and the gap actually reached: a stall is an outcome reported
//! as such, never a converged run with a made-up gap.
//!
//! # Tolerances
//! Every solver takes its tolerance through [`StopRule::new`] (or checks it with
//! [`StopRule::validate`]), one rule for all: finite, at least [`TOLERANCE_FLOOR`], at most
//! 1, and at least one sweep.

mod eta;

pub use eta::{Eta, Remaining};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The narrowest tolerance any solver accepts. The certified gaps are differences of
/// probabilities near 1 computed in `f64`, whose spacing near 1 is `2^-52 = 2.2e-16`;
/// every update adds a rounding error of a few ulps, carried along a game of tens of
/// rolls. Below about 1e-14 (some 50 ulps of 1) a gap would measure rounding, not
/// convergence, and an iteration asked for it could run to its sweep limit without ever
/// certifying anything.
pub const TOLERANCE_FLOOR: f64 = 1e-14;

/// When to stop iterating. Build it with [`StopRule::new`], which checks the values; the
/// fields stay public for reading and for the struct-update syntax, and every solver
/// checks the rule it is given with [`StopRule::validate`] before it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StopRule {
    /// Stop once a sweep reports a gap at most this large.
    pub tolerance: f64,
    /// Give up after this many sweeps.
    pub max_sweeps: usize,
}

/// A [`StopRule`] no solver can honour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RuleError {
    /// The tolerance is not a number in `[TOLERANCE_FLOOR, 1]`.
    Tolerance(f64),
    /// At most zero sweeps were allowed.
    NoSweeps,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Tolerance(t) => write!(
                f,
                "tolerance {t:e}: expected a width between {TOLERANCE_FLOOR:e} (what f64 can \
                 certify) and 1"
            ),
            RuleError::NoSweeps => write!(f, "max sweeps 0: expected at least 1 sweep"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Checks a tolerance against the one rule every solver follows (see [`TOLERANCE_FLOOR`]).
pub fn check_tolerance(tolerance: f64) -> Result<f64, RuleError> {
    // Written so that NaN fails too.
    if (TOLERANCE_FLOOR..=1.0).contains(&tolerance) {
        Ok(tolerance)
    } else {
        Err(RuleError::Tolerance(tolerance))
    }
}

impl StopRule {
    /// A rule stopping at a gap of `tolerance` or after `max_sweeps` sweeps; refuses a
    /// tolerance that is not finite, below [`TOLERANCE_FLOOR`] or above 1, and zero sweeps.
    pub fn new(tolerance: f64, max_sweeps: usize) -> Result<StopRule, RuleError> {
        let rule = StopRule {
            tolerance,
            max_sweeps,
        };
        rule.validate().map(|()| rule)
    }

    /// Checks the rule as [`StopRule::new`] does (for rules built field by field).
    pub fn validate(&self) -> Result<(), RuleError> {
        check_tolerance(self.tolerance)?;
        if self.max_sweeps == 0 {
            return Err(RuleError::NoSweeps);
        }
        Ok(())
    }
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

/// Why an iteration stopped without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Ending {
    /// The gap fell to the tolerance.
    Converged,
    /// The gap stopped falling above the tolerance (see [`Stall`]); `gap` is what was
    /// reached and certifies no more than that.
    Stalled,
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
    /// Converged or stalled.
    pub ending: Ending,
}

impl Convergence {
    /// Whether the iteration stalled above the tolerance.
    pub fn stalled(&self) -> bool {
        self.ending == Ending::Stalled
    }
}

/// When an iteration has stopped gaining: no value changed in the last sweep, or the gap
/// of the last `sweeps` sweeps fell by less than the fraction `min_gain`. While an
/// iteration converges, a sweep cuts the gap by a quarter or more; once it has settled (at
/// the resolution of rounded storage, or at a gap a block inherits from the blocks it leads
/// to) the gap moves by ulps only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stall {
    /// How many sweeps to look back.
    pub sweeps: usize,
    /// The least relative fall of the gap over those sweeps that counts as gaining.
    pub min_gain: f64,
}

impl Stall {
    /// Three sweeps gaining less than 1 %.
    pub const DEFAULT: Stall = Stall {
        sweeps: 3,
        min_gain: 0.01,
    };

    /// Whether the history of gaps (`gaps[k]` after sweep `k`) and the last change say the
    /// iteration stopped gaining.
    pub fn stopped(&self, gaps: &[f64], last_change: f64) -> bool {
        let h = gaps.len();
        last_change == 0.0
            || (h > self.sweeps && gaps[h - 1] >= (1.0 - self.min_gain) * gaps[h - 1 - self.sweeps])
    }
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
/// A `NaN` gap never satisfies the rule, so a broken sweep cannot pass as converged. The
/// run ends after at most `rule.max_sweeps` sweeps whatever the rule says; a rule from
/// [`StopRule::new`] also has a tolerance the gap can reach.
pub fn iterate(
    rule: &StopRule,
    sweep: impl FnMut(usize) -> SweepReport,
) -> Result<Convergence, NotConverged> {
    drive(rule, None, sweep)
}

/// [`iterate`] that also ends, with [`Ending::Stalled`], once the gap stops falling by
/// `stall`: for iterations whose rounding can keep them above the tolerance for good.
pub fn iterate_until_stall(
    rule: &StopRule,
    stall: Stall,
    sweep: impl FnMut(usize) -> SweepReport,
) -> Result<Convergence, NotConverged> {
    drive(rule, Some(stall), sweep)
}

thread_local! {
    /// The cancellation flag of the iterations driven on this thread ([`cancellable`]).
    static CANCEL: std::cell::RefCell<Option<Arc<AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `work` with `flag` as the cancellation of every iteration driven on this thread:
/// once the flag is set, an iteration stops before its next sweep and ends in
/// [`NotConverged`], so nothing is certified, returned as a result or stored from it. For
/// front ends whose caller can give up mid-solve (Ctrl-C in Python); the sweeps themselves
/// may run on other threads, the loop that drives them runs here.
pub fn cancellable<T>(flag: Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    /// Puts back the flag that was in place, also when `work` unwinds.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CANCEL.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CANCEL.with(|c| c.replace(Some(flag))));
    work()
}

/// The cancellation in force on this thread ([`cancellable`]), to hand to work that runs
/// on other threads: the threads of a pool do not see this thread's flag, so an iteration
/// driven there runs under [`cancellable_under`] with this flag.
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    CANCEL.with(|c| c.borrow().clone())
}

/// Runs `work` under `flag` (the [`cancel_flag`] of the thread that handed the work out),
/// or as it is when there is none.
pub fn cancellable_under<T>(flag: Option<&Arc<AtomicBool>>, work: impl FnOnce() -> T) -> T {
    match flag {
        Some(flag) => cancellable(Arc::clone(flag), work),
        None => work(),
    }
}

/// Whether the caller of [`cancellable`] on this thread has given up.
pub fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// The unwinding payload of [`checkpoint`], caught by the front end that set the flag
/// (the library API's pool, which returns its "cancelled" error).
#[derive(Debug)]
pub struct Cancelled;

/// Stops the work here, by unwinding with [`Cancelled`], if the caller of [`cancellable`]
/// on this thread has given up: for the long steps outside a value iteration (a solver's
/// search of its states, the build of its transitions), between pieces of work that keep
/// nothing half-done. Without a caller's flag it does nothing.
pub fn checkpoint() {
    if cancelled() {
        std::panic::resume_unwind(Box::new(Cancelled));
    }
}

fn drive(
    rule: &StopRule,
    stall: Option<Stall>,
    mut sweep: impl FnMut(usize) -> SweepReport,
) -> Result<Convergence, NotConverged> {
    let mut last = Convergence {
        sweeps: 0,
        last_change: f64::INFINITY,
        gap: f64::INFINITY,
        ending: Ending::Converged,
    };
    let mut gaps = Vec::new();
    while last.sweeps < rule.max_sweeps {
        if cancelled() {
            return Err(NotConverged(last));
        }
        let report = sweep(last.sweeps);
        last = Convergence {
            sweeps: last.sweeps + 1,
            last_change: report.change,
            gap: report.gap,
            ending: Ending::Converged,
        };
        if report.gap <= rule.tolerance {
            return Ok(last);
        }
        if let Some(stall) = stall {
            gaps.push(report.gap);
            if stall.stopped(&gaps, report.change) {
                last.ending = Ending::Stalled;
                return Ok(last);
            }
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
    fn a_cancelled_iteration_stops_before_its_next_sweep_and_certifies_nothing() {
        let flag = Arc::new(AtomicBool::new(false));
        let rule = StopRule::new(1e-9, 1000).unwrap();
        let mut sweeps = 0;
        let outcome = cancellable(Arc::clone(&flag), || {
            iterate(&rule, |k| {
                sweeps += 1;
                if k == 2 {
                    flag.store(true, Ordering::Relaxed);
                }
                SweepReport::by_change(0.5)
            })
        });
        assert!(outcome.is_err());
        assert_eq!(sweeps, 3);
        // The flag belongs to the scope: outside it nothing is cancelled.
        assert!(!cancelled());
        assert!(iterate(&rule, |_| SweepReport::by_change(0.0)).is_ok());
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

    #[test]
    fn a_stall_is_reported_with_the_gap_reached() {
        // The gap settles at 1e-6, above the tolerance: three sweeps without 1 % gain.
        let rule = StopRule::new(1e-9, 1000).unwrap();
        let mut gap = 1.0;
        let c = iterate_until_stall(&rule, Stall::DEFAULT, |_| {
            gap = (gap * 0.5f64).max(1e-6);
            SweepReport { change: 1e-3, gap }
        })
        .unwrap();
        assert_eq!(c.ending, Ending::Stalled);
        assert!(c.stalled());
        assert_eq!(c.gap, 1e-6);
        // 2^-20 < 1e-6 after 20 halvings; then three more sweeps of no gain.
        assert_eq!(c.sweeps, 23);
        // A sweep that changes nothing stalls at once.
        let c = iterate_until_stall(&rule, Stall::DEFAULT, |_| SweepReport {
            change: 0.0,
            gap: 0.5,
        })
        .unwrap();
        assert_eq!((c.sweeps, c.ending), (1, Ending::Stalled));
        // Without stall detection the same iteration runs to its limit and says so.
        let rule = StopRule::new(1e-9, 50).unwrap();
        assert!(
            iterate(&rule, |_| SweepReport {
                change: 0.0,
                gap: 0.5
            })
            .is_err()
        );
    }

    #[test]
    fn the_rule_refuses_what_no_solver_can_honour() {
        for bad in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -1e-9,
            1e-15,
            TOLERANCE_FLOOR / 2.0,
            1.5,
        ] {
            assert!(
                matches!(StopRule::new(bad, 10), Err(RuleError::Tolerance(_))),
                "{bad} accepted"
            );
        }
        assert_eq!(StopRule::new(1e-9, 0), Err(RuleError::NoSweeps));
        for good in [TOLERANCE_FLOOR, 1e-12, 0.5, 1.0] {
            assert_eq!(StopRule::new(good, 1).unwrap().tolerance, good);
        }
        assert!(RuleError::Tolerance(1e-16).to_string().contains("1e-14"));
        let literal = StopRule {
            tolerance: 0.0,
            max_sweeps: 10,
        };
        assert!(literal.validate().is_err());
    }
}
