//! How many games a duel plays: the stopping rule, checked when it is made, and the sample
//! sizes it implies, computed with checked arithmetic and refused beyond what can run.
//!
//! # The cap
//! No plan may exceed [`MAX_GAMES`] = 10^13 games. The simulator plays on the order of a
//! million games per second and core on the BwInf board, so 10^13 games are about four
//! months of one core, or two days of 64: the most any run can sensibly ask for. Every
//! count stays far inside `u64` below the cap (games, rolls of finished games, chunk
//! indices times chunk sizes), so refusing bigger plans up front is also what keeps the
//! counts from overflowing. The finest precision the cap allows is [`finest_precision`],
//! about 3.1e-7.
//!
//! # The time
//! A run within the cap can still take longer than anyone waits: the cap is about four
//! months of one core for the plainest game, and a strategy that searches plays a
//! thousand times slower. Once the first games have measured the speed (the pilot of the
//! precision rule, or the first [`PILOT_GAMES`] of a fixed count), a run planned to take
//! more than [`MAX_RUN_TIME`] (a year) at that speed is refused before it plays on
//! ([`DuelPlan::check_time`], [`PlanError::TooLong`]).

use super::counts::{CHUNK_GAMES, DuelCounts};
use crate::stats;
use std::fmt;
use std::time::Duration;

/// The most games one duel (one pair of a ranking) may play: 10^13, a whole number of chunks.
pub const MAX_GAMES: u64 = 10_000_000_000_000;

/// Games of the pilot stage of the precision rule: 20 chunks.
pub const PILOT_GAMES: u64 = 20 * CHUNK_GAMES;

/// The longest a run may be planned to take at the speed of its first games: a year (365
/// days). Nobody waits for more, and a plan that long is a typo or the wrong options.
pub(super) const MAX_RUN_TIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// A stopping rule or sample size that cannot run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanError {
    /// A fixed number of games that is odd or zero: each die must start exactly half.
    OddGames(u64),
    /// A fixed number of games above [`MAX_GAMES`].
    TooManyGames(u64),
    /// A half-width that is not a number strictly between 0 and 0.5.
    BadPrecision(f64),
    /// A half-width whose worst case needs more than [`MAX_GAMES`] games.
    PrecisionTooFine {
        /// The half-width asked for.
        half_width: f64,
        /// The games it can need (as a float: it may not fit in `u64`).
        games: f64,
    },
    /// A plan whose remaining games would take more than [`MAX_RUN_TIME`] at the speed of
    /// the games played so far ([`DuelPlan::check_time`]).
    TooLong(DuelPlan),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlanError::OddGames(n) => write!(
                f,
                "{n} games: expected an even number of at least 2, so that each die starts exactly half of the games"
            ),
            PlanError::TooManyGames(n) => write!(
                f,
                "{n} games: more than the {MAX_GAMES} (10^13) games a run may play, months of computing"
            ),
            PlanError::BadPrecision(h) => write!(
                f,
                "half-width {h}: expected a number between 0 and 0.5, e.g. 0.001"
            ),
            PlanError::PrecisionTooFine { half_width, games } => write!(
                f,
                "half-width {half_width:e} can need {games:.1e} games, more than the 10^13 a run may play; \
                 the finest half-width within that is {:.2e}",
                finest_precision()
            ),
            PlanError::TooLong(plan) => {
                let years =
                    plan.remaining_seconds().unwrap_or(f64::INFINITY) / MAX_RUN_TIME.as_secs_f64();
                let years = if years < 1000.0 {
                    format!("{years:.1}")
                } else {
                    format!("{years:.1e}")
                };
                write!(
                    f,
                    "{} games planned would take about {years} years at the {:.0} games/s of \
                     the first {} games, more than the year a run may take; ask for fewer \
                     games (--games) or a coarser half-width (--precision)",
                    plan.games,
                    plan.played as f64 / plan.elapsed.as_secs_f64(),
                    plan.played
                )
            }
        }
    }
}

impl std::error::Error for PlanError {}

/// How long a duel runs: a checked rule, made only by [`Stopping::games`] and
/// [`Stopping::precision`], so every `Stopping` can run to its end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stopping(StoppingRule);

/// The two kinds of [`Stopping`], as [`Stopping::rule`] tells them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StoppingRule {
    /// Exactly this many games (even: each die starts half of them).
    Games(u64),
    /// Until the 95 % interval of P(A wins) has at most this half-width
    /// (see [`games_for_precision`] for the rule).
    Precision(f64),
}

impl Stopping {
    /// Exactly `games` games: even, at least 2 and at most [`MAX_GAMES`].
    pub fn games(games: u64) -> Result<Stopping, PlanError> {
        if games < 2 || !games.is_multiple_of(2) {
            return Err(PlanError::OddGames(games));
        }
        if games > MAX_GAMES {
            return Err(PlanError::TooManyGames(games));
        }
        Ok(Stopping(StoppingRule::Games(games)))
    }

    /// Until the 95 % half-width of P(A wins) is at most `half_width`: a number in (0, 0.5)
    /// whose worst case ([`worst_case_games`]) fits in [`MAX_GAMES`].
    pub fn precision(half_width: f64) -> Result<Stopping, PlanError> {
        if !(half_width > 0.0 && half_width < 0.5) {
            return Err(PlanError::BadPrecision(half_width));
        }
        worst_case_games(half_width)?;
        Ok(Stopping(StoppingRule::Precision(half_width)))
    }

    /// Which rule, with its parameter.
    pub fn rule(&self) -> StoppingRule {
        self.0
    }

    /// The half-width this rule promises, if it promises one.
    pub fn claimed_half_width(&self) -> Option<f64> {
        match self.0 {
            StoppingRule::Precision(h) => Some(h),
            StoppingRule::Games(_) => None,
        }
    }
}

/// The finest half-width [`Stopping::precision`] accepts: `z95 / (2 sqrt(MAX_GAMES))`,
/// rounded up to three significant digits (so that the printed figure is accepted).
pub fn finest_precision() -> f64 {
    let exact = stats::Z95 / (2.0 * (MAX_GAMES as f64).sqrt());
    let unit = 10f64.powf(exact.log10().floor() - 2.0);
    (exact / unit).ceil() * unit
}

/// The sample size the precision rule fixes after the pilot stage.
///
/// # The rule, and why it keeps its coverage
/// Stopping the first time a data-dependent interval looks narrow enough is optional
/// stopping: it tends to stop when the estimate happens to sit where the interval is
/// narrowest, and coverage falls below the nominal 95 %. This rule instead decides the
/// sample size once, before the games that make up the answer are looked at again:
///
/// 1. a pilot of [`PILOT_GAMES`] games gives a 99.9 % Wilson interval for p;
/// 2. the Bernoulli variance p(1-p) is bounded by its largest value over that interval;
/// 3. N = z95^2 * bound / H^2 games are played in total (at least the pilot), and the
///    answer is the Wilson interval over all N games.
///
/// The bound exceeds the true variance with probability about 0.999, so the final
/// interval's half-width is at most H in all but rare cases, and the sample size hardly
/// depends on where the final estimate lands (the pilot is a small fraction of N), which
/// keeps the coverage at its fixed-N value. If the final half-width still exceeds H, the
/// duel extends to the worst-case size z95^2 / (4 H^2), which needs no estimate at all.
/// The experiments (`converge --stopping`) measure the resulting coverage.
///
/// Rounded up to whole chunks; an error if that is more than [`MAX_GAMES`].
pub fn games_for_precision(pilot: &DuelCounts, half_width: f64) -> Result<u64, PlanError> {
    let total = pilot.total();
    let bracket = stats::wilson(total.a_wins, total.games, stats::Z999);
    let variance = stats::max_variance(&bracket);
    let needed =
        stats::games_for_half_width(variance, half_width, stats::Z95).map(|n| n.max(total.games));
    whole_chunks(needed, half_width, variance)
}

/// The worst-case sample size for a half-width (p(1-p) <= 1/4), rounded up to whole
/// chunks; an error if that is more than [`MAX_GAMES`]. The Wilson half-width after this
/// many games is at most `half_width` whatever the wins.
pub fn worst_case_games(half_width: f64) -> Result<u64, PlanError> {
    let needed = stats::games_for_half_width(0.25, half_width, stats::Z95);
    whole_chunks(needed, half_width, 0.25)
}

/// `needed` games (`None`: beyond `u64`) rounded up to whole chunks, or the error naming
/// how many games the half-width needs.
fn whole_chunks(needed: Option<u64>, half_width: f64, variance: f64) -> Result<u64, PlanError> {
    let too_fine = || PlanError::PrecisionTooFine {
        half_width,
        games: stats::Z95 * stats::Z95 * variance / (half_width * half_width),
    };
    let games = needed
        .and_then(|n| n.div_ceil(CHUNK_GAMES).checked_mul(CHUNK_GAMES))
        .ok_or_else(too_fine)?;
    if games > MAX_GAMES {
        return Err(too_fine());
    }
    Ok(games)
}

/// What a duel is about to play, told once the number of games is fixed and a first
/// stretch has measured the speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelPlan {
    /// Games the duel will play in all (for the precision rule: unless the final check
    /// sends it on to the worst case, see [`games_for_precision`]).
    pub games: u64,
    /// Games played so far (the pilot).
    pub played: u64,
    /// Time the games played so far took.
    pub elapsed: std::time::Duration,
}

impl DuelPlan {
    /// The time the remaining games will take at the speed of the games played so far;
    /// `None` when nothing measurable was played.
    pub fn remaining_time(&self) -> Option<std::time::Duration> {
        std::time::Duration::try_from_secs_f64(self.remaining_seconds()?).ok()
    }

    /// [`DuelPlan::remaining_time`] in seconds, however many (a `Duration` ends at 2^64 s).
    pub fn remaining_seconds(&self) -> Option<f64> {
        let seconds = self.elapsed.as_secs_f64();
        if self.played == 0 || seconds <= 0.0 {
            return None;
        }
        let remaining = self.games.saturating_sub(self.played) as f64;
        Some(remaining * seconds / self.played as f64)
    }

    /// Refuses a plan whose remaining games would take more than [`MAX_RUN_TIME`] at the
    /// speed of the games played so far; a plan without a measured speed passes.
    pub fn check_time(&self) -> Result<(), PlanError> {
        match self.remaining_seconds() {
            Some(s) if s > MAX_RUN_TIME.as_secs_f64() => Err(PlanError::TooLong(*self)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_finest_precision_is_accepted_and_a_finer_one_is_not() {
        let h = finest_precision();
        assert!(h > 3.0e-7 && h < 3.2e-7, "{h}");
        assert!(Stopping::precision(h).is_ok());
        assert!(matches!(
            Stopping::precision(h * 0.99),
            Err(PlanError::PrecisionTooFine { .. })
        ));
        assert!(worst_case_games(h).unwrap() <= MAX_GAMES);
    }

    #[test]
    fn the_cap_is_a_whole_number_of_chunks() {
        assert_eq!(MAX_GAMES % CHUNK_GAMES, 0);
        assert!(Stopping::games(MAX_GAMES).is_ok());
        assert_eq!(
            Stopping::games(MAX_GAMES + 2),
            Err(PlanError::TooManyGames(MAX_GAMES + 2))
        );
    }

    #[test]
    fn the_remaining_time_scales_with_the_games_left() {
        let plan = DuelPlan {
            games: 1_000_000,
            played: 1_000,
            elapsed: std::time::Duration::from_millis(10),
        };
        let t = plan.remaining_time().unwrap().as_secs_f64();
        approx::assert_relative_eq!(t, 9.99, max_relative = 1e-9);
    }

    /// A plan is refused when its remaining games would take more than a year at the speed
    /// measured, however far beyond (no `Duration` overflow lets one through), and passes
    /// just within it or without a measured speed.
    #[test]
    fn a_plan_longer_than_a_year_is_refused() {
        let year = MAX_RUN_TIME.as_secs_f64();
        let plan = |games: u64, played: u64, seconds: f64| DuelPlan {
            games,
            played,
            elapsed: std::time::Duration::from_secs_f64(seconds),
        };
        // 1,000 games a second: a year is 3.15e10 games.
        let per_year = year as u64 * 1000;
        assert_eq!(plan(per_year, 1000, 1.0).check_time(), Ok(()));
        let long = plan(per_year + 2000, 1000, 1.0);
        assert_eq!(long.check_time(), Err(PlanError::TooLong(long)));
        let message = PlanError::TooLong(long).to_string();
        assert!(
            message.contains("1.0 years at the 1000 games/s"),
            "{message}"
        );
        // 10^13 games at one game in 10^9 s: far beyond what a Duration holds.
        let endless = plan(MAX_GAMES, 1, 1e9);
        assert!(endless.remaining_time().is_none());
        assert_eq!(endless.check_time(), Err(PlanError::TooLong(endless)));
        assert!(PlanError::TooLong(endless).to_string().contains("e"));
        assert_eq!(plan(MAX_GAMES, 0, 0.0).check_time(), Ok(()));
    }
}
