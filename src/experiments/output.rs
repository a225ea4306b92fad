//! The experiments as aligned tables, CSV and JSON (`converge --format`).
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

use super::convergence::Convergence;
use super::stopping::{Claim, StoppingComparison};
use crate::report::Format;
use crate::report::thousands;
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

#[derive(Serialize)]
struct Document<'a, T: Serialize> {
    #[serde(flatten)]
    header: &'a Header,
    #[serde(flatten)]
    result: &'a T,
    seconds: f64,
}

fn csv_err(e: csv::Error) -> io::Error {
    io::Error::other(e)
}

fn opt(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| v.to_string())
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
        "              certified in [{:.12}, {:.12}]; {} states, {:.2} s",
        e.p_a_bounds[0],
        e.p_a_bounds[1],
        thousands(e.states),
        e.seconds
    )
}

/// Writes a convergence experiment.
pub fn write_convergence(
    out: &mut dyn Write,
    header: &Header,
    result: &Convergence,
    seconds: f64,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let doc = Document {
                header,
                result,
                seconds,
            };
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(CONVERGENCE_CSV_HEADER).map_err(csv_err)?;
            for p in &result.points {
                w.write_record([
                    p.games.to_string(),
                    p.reps.to_string(),
                    p.mae.to_string(),
                    p.rmse.to_string(),
                    p.bias.to_string(),
                    p.sd_binomial.to_string(),
                    p.sd_estimate.to_string(),
                    p.wilson_coverage.to_string(),
                    p.normal_coverage.to_string(),
                    p.wilson_half_width.to_string(),
                ])
                .map_err(csv_err)?;
            }
            w.flush()
        }
        Format::Table => {
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
                    "{:>10}  {:>10.6}  {:>10.6}  {:>10.6}  {:>7.3}  {:>+10.6}  {:>8.3}  {:>8.3}  {:>9.6}",
                    thousands(p.games),
                    p.mae,
                    p.rmse,
                    p.sd_binomial,
                    p.rmse / p.sd_estimate,
                    p.bias,
                    p.wilson_coverage,
                    p.normal_coverage,
                    p.wilson_half_width
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
}

fn claim_name(c: Claim) -> &'static str {
    match c {
        Claim::None => "none",
        Claim::Stated => "stated",
        Claim::Implied => "implied",
    }
}

/// Writes a stopping-rule comparison.
pub fn write_stopping(
    out: &mut dyn Write,
    header: &Header,
    result: &StoppingComparison,
    seconds: f64,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let doc = Document {
                header,
                result,
                seconds,
            };
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(STOPPING_CSV_HEADER).map_err(csv_err)?;
            for r in &result.rules {
                w.write_record([
                    r.rule.clone(),
                    claim_name(r.claim).to_string(),
                    opt(r.claimed_half_width),
                    r.reps.to_string(),
                    r.games_mean.to_string(),
                    r.games_min.to_string(),
                    r.games_max.to_string(),
                    r.mean_abs_error.to_string(),
                    r.rmse.to_string(),
                    r.median_abs_error.to_string(),
                    r.q95_abs_error.to_string(),
                    r.max_abs_error.to_string(),
                    r.misses.map_or(String::new(), |m| m.to_string()),
                    opt(r.miss_rate),
                    opt(r.miss_rate_upper95),
                    r.implicit_half_width.to_string(),
                    r.wilson_miss_rate.to_string(),
                ])
                .map_err(csv_err)?;
            }
            w.flush()
        }
        Format::Table => {
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
                    "{:<15} {:>15}  {:>11}  {:>10}  {:>9.5}  {:>9.5}  {:>9.5}  {:>17}  {:>9.5}  {:>7.3}",
                    r.rule,
                    claims,
                    thousands(r.games_mean.round() as u64),
                    thousands(r.games_max),
                    r.mean_abs_error,
                    r.q95_abs_error,
                    r.max_abs_error,
                    miss,
                    r.implicit_half_width,
                    r.wilson_miss_rate
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
}
