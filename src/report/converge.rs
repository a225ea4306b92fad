//! The experiments as aligned tables, CSV and JSON (`converge --format`).
//!
//! Undefined figures (a ratio over a zero standard deviation, a rate over no claims) are
//! `null` in JSON, empty in CSV and `-` in the tables.
//!
//! # CSV columns
//! `converge`: one line per grid point,
//! [`CONVERGENCE_CSV_HEADER`] =
//! `games,reps,mae,rmse,bias,sd_binomial,sd_estimate,wilson_coverage,normal_coverage,wilson_half_width`.
//!
//! `converge --stopping`: one line per rule, [`STOPPING_CSV_HEADER`] =
//! `rule,claim,claimed_half_width,reps,games_mean,games_min,games_max,mean_abs_error,rmse,median_abs_error,q95_abs_error,max_abs_error,misses,miss_rate,miss_rate_upper95,implicit_half_width,wilson_miss_rate`
//! (empty fields where a rule claims no precision).
//!
//! # JSON
//! One document: the matchup (`die_a`, `die_b`, `profile`, `board`), the exact figures
//! (`exact`), the settings (`config`), `seconds`, and either `points` plus
//! `estimates[k][r]` (convergence) or `rules`, each with every replicate's `outcomes`
//! (stopping rules).

use super::{CsvTable, csv_number, csv_optional, fixed, header, interval, thousands};
use crate::exact::ExactResult;
use crate::experiments::convergence::Convergence;
use crate::experiments::stopping::{Claim, StoppingComparison};
use crate::sim::Matchup;
use serde::Serialize;
use std::io::{self, Write};

/// Header of `converge --format csv`.
pub const CONVERGENCE_CSV_HEADER: [&str; 10] = [
    "games",
    "reps",
    "mae",
    "rmse",
    "bias",
    "sd_binomial",
    "sd_estimate",
    "wilson_coverage",
    "normal_coverage",
    "wilson_half_width",
];

/// Header of `converge --stopping --format csv`.
pub const STOPPING_CSV_HEADER: [&str; 17] = [
    "rule",
    "claim",
    "claimed_half_width",
    "reps",
    "games_mean",
    "games_min",
    "games_max",
    "mean_abs_error",
    "rmse",
    "median_abs_error",
    "q95_abs_error",
    "max_abs_error",
    "misses",
    "miss_rate",
    "miss_rate_upper95",
    "implicit_half_width",
    "wilson_miss_rate",
];

/// The exact figures as reported.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExactSummary {
    /// P(A wins), the value every estimate is compared with.
    pub p_a: f64,
    /// Its certified interval `[lo, hi]`.
    pub p_a_bounds: [f64; 2],
    /// P(A wins | A starts).
    pub p_a_if_a_starts: f64,
    /// P(A wins | B starts).
    pub p_a_if_b_starts: f64,
    /// P(the game never ends).
    pub p_never: f64,
    /// Transient states of the solved chain.
    pub states: u64,
    /// Seconds the solve took (build and iteration).
    pub seconds: f64,
}

/// What the matchup was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Header {
    /// Die A.
    pub die_a: String,
    /// Die B.
    pub die_b: String,
    /// Rule profile.
    pub profile: String,
    /// Board.
    pub board: String,
    /// Roll cap per simulated game.
    pub max_rolls: u64,
    /// The exact figures.
    pub exact: ExactSummary,
}

impl Header {
    /// The matchup and the exact figures it is measured against.
    pub fn new(matchup: &Matchup, exact: &ExactResult) -> Header {
        let [a, b] = matchup.dice();
        Header {
            die_a: a.to_string(),
            die_b: b.to_string(),
            profile: matchup.rules().profile().to_string(),
            board: matchup.rules().board().to_string(),
            max_rolls: matchup.max_rolls(),
            exact: ExactSummary {
                p_a: exact.p_a,
                p_a_bounds: [exact.bounds.p_a.lo, exact.bounds.p_a.hi],
                p_a_if_a_starts: exact.p_a_if_a_starts,
                p_a_if_b_starts: exact.p_a_if_b_starts,
                p_never: exact.p_never,
                states: exact.stats.states,
                seconds: exact.stats.build_seconds + exact.stats.solve_seconds,
            },
        }
    }
}

/// A convergence experiment, in the shape of `converge --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct ConvergenceReport {
    /// The matchup and its exact figures.
    #[serde(flatten)]
    pub header: Header,
    /// The results.
    #[serde(flatten)]
    pub result: Convergence,
    /// Seconds the experiment took.
    pub seconds: f64,
}

/// A stopping-rule comparison, in the shape of `converge --stopping --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct StoppingReport {
    /// The matchup and its exact figures.
    #[serde(flatten)]
    pub header: Header,
    /// The results.
    #[serde(flatten)]
    pub result: StoppingComparison,
    /// Seconds the experiment took.
    pub seconds: f64,
}

fn write_header(out: &mut dyn Write, h: &Header) -> io::Result<()> {
    writeln!(out, "die A         {}", h.die_a)?;
    writeln!(out, "die B         {}", h.die_b)?;
    writeln!(out, "rules         {} on board {}", h.profile, h.board)?;
    let e = &h.exact;
    writeln!(
        out,
        "exact         P(A wins) = {:.8}  (if A starts {:.6}, if B starts {:.6}; never ends {:.2e})",
        e.p_a, e.p_a_if_a_starts, e.p_a_if_b_starts, e.p_never
    )?;
    writeln!(
        out,
        "              certified in {}; {} states, {:.2} s",
        interval(e.p_a_bounds[0], e.p_a_bounds[1], 12),
        thousands(e.states),
        e.seconds
    )
}

impl super::Report for ConvergenceReport {
    fn csv(&self) -> Option<CsvTable> {
        let rows = self
            .result
            .points
            .iter()
            .map(|p| {
                vec![
                    p.games.to_string(),
                    p.reps.to_string(),
                    csv_number(p.mae),
                    csv_number(p.rmse),
                    csv_number(p.bias),
                    csv_number(p.sd_binomial),
                    csv_number(p.sd_estimate),
                    csv_number(p.wilson_coverage),
                    csv_number(p.normal_coverage),
                    csv_number(p.wilson_half_width),
                ]
            })
            .collect();
        Some(CsvTable {
            header: header(&CONVERGENCE_CSV_HEADER),
            rows,
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let (header, result, seconds) = (&self.header, &self.result, self.seconds);
        write_header(out, header)?;
        let c = &result.config;
        writeln!(
            out,
            "replicates    {} independent runs of {} games (seed {}, streams 0..{})",
            c.reps,
            thousands(c.max_games),
            c.seed,
            c.reps.saturating_sub(1)
        )?;
        writeln!(
            out,
            "              the estimate at N games is each run's first N games (nested:"
        )?;
        writeln!(
            out,
            "              correlated across N within a run, independent across runs)"
        )?;
        writeln!(out, "seconds       {seconds:.1}")?;
        writeln!(out)?;
        writeln!(
            out,
            "{:>10}  {:>10}  {:>10}  {:>10}  {:>7}  {:>10}  {:>8}  {:>8}  {:>9}",
            "games",
            "mean |err|",
            "RMSE",
            "sqrt(pq/N)",
            "RMSE/sd",
            "bias",
            "Wilson",
            "normal",
            "Wilson hw"
        )?;
        for p in &result.points {
            writeln!(
                out,
                "{:>10}  {:>10}  {:>10}  {:>10}  {:>7}  {:>10}  {:>8}  {:>8}  {:>9}",
                thousands(p.games),
                fixed(p.mae, 6),
                fixed(p.rmse, 6),
                fixed(p.sd_binomial, 6),
                // Undefined where the estimate cannot vary (p = 0 or 1).
                fixed(p.rmse / p.sd_estimate, 3),
                super::defined(p.bias).map_or("-".to_string(), |b| format!("{b:+.6}")),
                fixed(p.wilson_coverage, 3),
                fixed(p.normal_coverage, 3),
                fixed(p.wilson_half_width, 6)
            )?;
        }
        let reps = f64::from(c.reps.max(1));
        writeln!(out)?;
        writeln!(
            out,
            "RMSE/sd: RMSE over the true sd of the estimate (stratified by starter), about 1 +- {:.3};",
            (0.5 / reps).sqrt() * 1.96
        )?;
        writeln!(
            out,
            "Wilson, normal: share of runs whose 95 % interval contains the exact value, 0.95 +- {:.3}",
            1.96 * (0.95 * 0.05 / reps).sqrt()
        )?;
        writeln!(
            out,
            "(ranges: 95 % sampling ranges over {} runs for a correct method)",
            c.reps
        )
    }
}

fn claim_name(c: Claim) -> &'static str {
    match c {
        Claim::None => "none",
        Claim::Stated => "stated",
        Claim::Implied => "implied",
    }
}

impl super::Report for StoppingReport {
    /// One line per rule; empty fields where a rule claims no precision.
    fn csv(&self) -> Option<CsvTable> {
        let rows = self
            .result
            .rules
            .iter()
            .map(|r| {
                vec![
                    r.rule.clone(),
                    claim_name(r.claim).to_string(),
                    csv_optional(r.claimed_half_width),
                    r.reps.to_string(),
                    csv_number(r.games_mean),
                    r.games_min.to_string(),
                    r.games_max.to_string(),
                    csv_number(r.mean_abs_error),
                    csv_number(r.rmse),
                    csv_number(r.median_abs_error),
                    csv_number(r.q95_abs_error),
                    csv_number(r.max_abs_error),
                    r.misses.map_or(String::new(), |m| m.to_string()),
                    csv_optional(r.miss_rate),
                    csv_optional(r.miss_rate_upper95),
                    csv_number(r.implicit_half_width),
                    csv_number(r.wilson_miss_rate),
                ]
            })
            .collect();
        Some(CsvTable {
            header: header(&STOPPING_CSV_HEADER),
            rows,
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let (header, result, seconds) = (&self.header, &self.result, self.seconds);
        write_header(out, header)?;
        let c = &result.config;
        writeln!(
            out,
            "replicates    {} per rule (seed {}); target precision H = {}; naive-wilson looks every {} games",
            c.reps, c.seed, c.precision, c.look_every
        )?;
        writeln!(out, "seconds       {seconds:.1}")?;
        writeln!(out)?;
        writeln!(
            out,
            "{:<15} {:>15}  {:>11}  {:>10}  {:>9}  {:>9}  {:>9}  {:>17}  {:>9}  {:>7}",
            "rule",
            "claims",
            "games mean",
            "games max",
            "mean|err|",
            "q95 |err|",
            "max |err|",
            "miss rate (<=95%)",
            "1.96 sd^",
            "Wilson"
        )?;
        for r in &result.rules {
            let claims = match r.claimed_half_width {
                Some(h) => format!("{h} {}", claim_name(r.claim)),
                None => "none".to_string(),
            };
            let miss = match (r.misses, r.miss_rate_upper95) {
                (Some(m), Some(up)) => format!("{m}/{} (<={up:.3})", r.reps),
                _ => "-".to_string(),
            };
            writeln!(
                out,
                "{:<15} {:>15}  {:>11}  {:>10}  {:>9}  {:>9}  {:>9}  {:>17}  {:>9}  {:>7}",
                r.rule,
                claims,
                thousands(r.games_mean.round() as u64),
                thousands(r.games_max),
                fixed(r.mean_abs_error, 5),
                fixed(r.q95_abs_error, 5),
                fixed(r.max_abs_error, 5),
                miss,
                fixed(r.implicit_half_width, 5),
                fixed(r.wilson_miss_rate, 3)
            )?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "q95 |err|: the half-width achieved in 95 % of the replicates; miss rate: replicates with"
        )?;
        writeln!(
            out,
            "|estimate - exact| > claimed half-width (and the 95 % upper bound of that rate);"
        )?;
        writeln!(
            out,
            "1.96 sd^: mean half-width a 95 % normal interval at the stop would claim; Wilson: share"
        )?;
        writeln!(
            out,
            "of replicates whose 95 % Wilson interval at the stop misses the exact value (0.05 if honest)."
        )
    }
}
