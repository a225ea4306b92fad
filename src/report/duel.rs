//! The report of one simulated duel.

use super::{csv_error, prob, thousands};
use crate::dice::Die;
use crate::sim::DuelCounts;
use crate::sim::stats::Interval;
use serde::Serialize;
use std::io::{self, Write};

/// A simulated duel, in the shape of `duel --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct DuelReport {
    /// Die A (player 1).
    pub die_a: Die,
    /// Die B (player 2).
    pub die_b: Die,
    /// Rule profile, e.g. `bwinf`.
    pub profile: String,
    /// Board, e.g. `40/20/4/4`.
    pub board: String,
    /// Games played.
    pub games: u64,
    /// Games die A won.
    pub a_wins: u64,
    /// Games die B won.
    pub b_wins: u64,
    /// Games that hit the roll cap or were proven never-ending (counted for neither).
    pub unfinished: u64,
    /// Of the unfinished games, those proven never-ending.
    pub endless: u64,
    /// P(A wins), averaged over both starting orders.
    pub p_a: f64,
    /// 95 % Wilson interval of `p_a`.
    pub ci95: [f64; 2],
    /// P(B wins).
    pub p_b: f64,
    /// P(A wins) in the games A started.
    pub p_a_if_a_starts: f64,
    /// P(A wins) in the games B started.
    pub p_a_if_b_starts: f64,
    /// Games A started.
    pub games_a_started: u64,
    /// Mean rolls of a finished game.
    pub mean_rolls: f64,
    /// The seed: the same seed gives the same counts, whatever the number of threads.
    pub seed: u64,
    /// The roll cap.
    pub max_rolls: u64,
    /// `games` or `precision`.
    pub stopping: String,
    /// The requested half-width under `precision`, else `null`.
    pub precision: Option<f64>,
}

impl DuelReport {
    /// Builds the report from the counts.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dice: [&Die; 2],
        profile: String,
        board: String,
        counts: &DuelCounts,
        seed: u64,
        max_rolls: u64,
        precision: Option<f64>,
    ) -> DuelReport {
        let total = counts.total();
        let Interval { lo, hi } = counts.ci95_a();
        let share = |k: u64, n: u64| {
            if n == 0 {
                f64::NAN
            } else {
                k as f64 / n as f64
            }
        };
        DuelReport {
            die_a: dice[0].clone(),
            die_b: dice[1].clone(),
            profile,
            board,
            games: total.games,
            a_wins: total.a_wins,
            b_wins: total.b_wins,
            unfinished: total.unfinished,
            endless: total.endless,
            p_a: counts.p_a(),
            ci95: [lo, hi],
            p_b: counts.p_b(),
            p_a_if_a_starts: share(counts.a_started.a_wins, counts.a_started.games),
            p_a_if_b_starts: share(counts.b_started.a_wins, counts.b_started.games),
            games_a_started: counts.a_started.games,
            mean_rolls: share(total.rolls, total.a_wins + total.b_wins),
            seed,
            max_rolls,
            stopping: if precision.is_some() {
                "precision"
            } else {
                "games"
            }
            .to_string(),
            precision,
        }
    }
}

/// Writes a duel report in the chosen format.
pub fn write_duel(out: &mut dyn Write, r: &DuelReport, format: super::Format) -> io::Result<()> {
    use super::Format;
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, r)?;
            writeln!(out)
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record([
                "die_a",
                "die_b",
                "profile",
                "board",
                "games",
                "a_wins",
                "b_wins",
                "unfinished",
                "endless",
                "p_a",
                "ci95_lo",
                "ci95_hi",
                "p_b",
                "p_a_if_a_starts",
                "p_a_if_b_starts",
                "mean_rolls",
                "seed",
                "max_rolls",
            ])
            .map_err(csv_error)?;
            w.write_record([
                r.die_a.to_string(),
                r.die_b.to_string(),
                r.profile.clone(),
                r.board.clone(),
                r.games.to_string(),
                r.a_wins.to_string(),
                r.b_wins.to_string(),
                r.unfinished.to_string(),
                r.endless.to_string(),
                r.p_a.to_string(),
                r.ci95[0].to_string(),
                r.ci95[1].to_string(),
                r.p_b.to_string(),
                r.p_a_if_a_starts.to_string(),
                r.p_a_if_b_starts.to_string(),
                r.mean_rolls.to_string(),
                r.seed.to_string(),
                r.max_rolls.to_string(),
            ])
            .map_err(csv_error)?;
            w.flush()
        }
        Format::Table => {
            writeln!(out, "die A         {}", r.die_a)?;
            writeln!(out, "die B         {}", r.die_b)?;
            writeln!(out, "rules         {} on board {}", r.profile, r.board)?;
            let rule = match r.precision {
                Some(h) => format!("until the 95 % half-width is at most {h}"),
                None => "fixed count".to_string(),
            };
            writeln!(
                out,
                "games         {} ({}; A started {}), seed {}",
                thousands(r.games),
                rule,
                thousands(r.games_a_started),
                r.seed
            )?;
            writeln!(
                out,
                "P(A wins)     {}   95 % CI [{}, {}]",
                prob(r.p_a),
                prob(r.ci95[0]),
                prob(r.ci95[1])
            )?;
            writeln!(
                out,
                "  if A starts {}   if B starts {}",
                prob(r.p_a_if_a_starts),
                prob(r.p_a_if_b_starts)
            )?;
            writeln!(out, "P(B wins)     {}", prob(r.p_b))?;
            writeln!(
                out,
                "unfinished    {} ({} proven never-ending, the rest hit {} rolls)",
                thousands(r.unfinished),
                thousands(r.endless),
                thousands(r.max_rolls)
            )?;
            writeln!(out, "mean rolls    {:.1} per finished game", r.mean_rolls)
        }
    }
}
