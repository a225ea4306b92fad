//! The report of a search for the best die (`search`).

use super::{
    CsvTable, Report, csv_number, csv_optional, defined, header, interval, prob, thousands,
};
use crate::dice::Die;
use crate::dice_search::{
    Condorcet, Confirmation, Family, Race, RaceConfig, RaceOutcome, RaceStatus,
};
use serde::Serialize;
use std::io::{self, Write};

/// The best-mean answer: `{die, mean_p, ci95}` and how sure it is.
#[derive(Clone, Debug, Serialize)]
pub struct BestMean {
    /// The die with the highest mean P(win) against the family.
    pub die: String,
    /// Its mean P(win), estimated.
    pub mean_p: f64,
    /// Its 95 % confidence sequence on its own.
    pub ci95: [f64; 2],
    /// Its interval at the search's error probability (holds together with every other
    /// statement).
    pub interval: [f64; 2],
    /// `decided` (the last candidate), `within-epsilon` or `undecided` (game cap).
    pub status: RaceStatus,
    /// The dice still in the race at its end.
    pub candidates: Vec<String>,
    /// Games per pair of the candidates when the race ended.
    pub games_per_pair: u64,
}

/// The maximin answer: `{die, worst_p}` and how sure it is.
#[derive(Clone, Debug, Serialize)]
pub struct Maximin {
    /// The die with the best worst case.
    pub die: String,
    /// Its worst P(win) over the family, estimated.
    pub worst_p: f64,
    /// The interval of the worst case at the search's error probability.
    pub interval: [f64; 2],
    /// `decided`, `within-epsilon` or `undecided`.
    pub status: RaceStatus,
    /// The dice still in the race at its end.
    pub candidates: Vec<String>,
}

/// A Condorcet candidate and the opponents it is not shown to beat.
#[derive(Clone, Debug, Serialize)]
pub struct OpenCandidate {
    /// The candidate.
    pub die: String,
    /// Opponents it is not shown to beat (undecided, games that never end, or under
    /// screening pairs not played), at most [`NAMED_OPPONENTS`] of them.
    pub not_beaten: Vec<String>,
    /// How many opponents it is not shown to beat.
    pub not_beaten_count: usize,
}

/// The most opponents an open Condorcet candidate names (under screening a die that is no
/// anchor has not played thousands of its pairs).
pub(super) const NAMED_OPPONENTS: usize = 100;

/// Where the error probability went: the union bound over the confidence sequences.
#[derive(Clone, Debug, Serialize)]
pub struct RiskSplit {
    /// Mean sequences (one per die).
    pub means: u64,
    /// The risk of each.
    pub means_alpha: f64,
    /// One-sided pair figures (two per pair in play).
    pub pair_figures: u64,
    /// The risk of each.
    pub pairs_alpha: f64,
}

/// One die's figures, for the landscape.
#[derive(Clone, Debug, Serialize)]
pub struct DieLine {
    /// The die.
    pub die: String,
    /// Mean P(win) against the family, estimated.
    pub mean_p: f64,
    /// Worst P(win) over the opponents it played in pairs, estimated (under screening a die
    /// that is no anchor played the anchors only: an upper estimate of its worst case).
    pub worst_p: f64,
    /// Games it played.
    pub games: u64,
    /// Faces showing 6.
    pub sixes: usize,
    /// Its smallest face.
    pub smallest_face: u32,
    /// The mean of its faces.
    pub mean_face: f64,
}

impl DieLine {
    fn new(die: &Die, outcome: &RaceOutcome, i: usize) -> DieLine {
        let faces = die.faces();
        DieLine {
            die: die.to_string(),
            mean_p: outcome.mean_estimate(i),
            worst_p: outcome.worst(i).0,
            games: outcome.games_of(i),
            sixes: faces.iter().filter(|&&f| f == 6).count(),
            smallest_face: faces.iter().copied().min().unwrap_or(0),
            mean_face: faces.iter().map(|&f| f64::from(f)).sum::<f64>() / faces.len() as f64,
        }
    }
}

/// One exactly confirmed pair.
#[derive(Clone, Debug, Serialize)]
pub struct ConfirmationLine {
    /// Die A.
    pub die_a: String,
    /// Die B.
    pub die_b: String,
    /// P(A wins) simulated by the search.
    pub p_a_simulated: f64,
    /// Its interval at the search's error probability.
    pub interval_simulated: [f64; 2],
    /// P(A wins), exact; `null` when the pair was not solved.
    pub p_a_exact: Option<f64>,
    /// The certified bounds of `p_a_exact`.
    pub bounds: Option<[f64; 2]>,
    /// P(B wins), exact.
    pub p_b_exact: Option<f64>,
    /// The exact solver.
    pub solver: Option<String>,
    /// The certified bounds meet the simulated interval; `null` when not solved.
    pub agrees: Option<bool>,
    /// `exact`, or `not solved` (the pair does not fit in memory).
    pub status: &'static str,
    /// Where the record came from, or why the pair was not solved.
    pub note: Option<String>,
}

/// A search, in the shape of `search --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct SearchReport {
    /// The dice of the family, in family order.
    pub family: Vec<String>,
    /// What the family is, e.g. "all 462 dice with 6 faces from 1..6".
    pub family_description: String,
    /// The die with the highest mean P(win).
    pub best_mean: BestMean,
    /// The die that beats every other die, `null` if there is none or it is undecided.
    pub condorcet: Option<String>,
    /// `winner`, `none` (every die is beaten by another) or `undecided` (game cap).
    pub condorcet_status: &'static str,
    /// Under `undecided`: the dice nobody was shown to beat.
    pub condorcet_candidates: Vec<String>,
    /// Under `undecided`: each candidate with the opponents it is not shown to beat.
    pub condorcet_open: Vec<OpenCandidate>,
    /// The die with the best worst case.
    pub maximin: Maximin,
    /// Intransitive triples among the top dice `[a, b, c]`: a beats b beats c beats a.
    pub cycles: Vec<[String; 3]>,
    /// Groups of top dice that beat each other around in a cycle of any length.
    pub cyclic_groups: Vec<Vec<String>>,
    /// The top dice by mean P(win) among which cycles were looked for, best first.
    pub top: Vec<String>,
    /// Games played in all.
    pub games: u64,
    /// Games a round robin would play giving every pair as many games as the most-played
    /// pair of this search got (`null` if that does not fit in 64 bits).
    pub round_robin_games: Option<u64>,
    /// Rounds played.
    pub rounds: u32,
    /// Every statement holds together with probability at least 1 minus this.
    pub error_probability: f64,
    /// The indifference of the best-mean and maximin races.
    pub epsilon: f64,
    /// The most games a pair may play.
    pub max_games_per_pair: u64,
    /// `racing` or `round-robin`.
    pub design: crate::dice_search::Design,
    /// The seed.
    pub seed: u64,
    /// Where the error probability went (union bound).
    pub risk: RiskSplit,
    /// Under screening: the anchor dice whose every pair was raced (else empty).
    pub anchors: Vec<String>,
    /// Under screening: the most sampled games a die could play.
    pub max_games_per_die: Option<u64>,
    /// Rule profile.
    pub profile: String,
    /// The strategy every die played (`frontmost`, rule 3, unless the profile has `choice`).
    pub strategy: String,
    /// Board.
    pub board: String,
    /// The pairs among the top candidates, solved exactly where they fit.
    pub confirmation: Vec<ConfirmationLine>,
    /// Every die's figures.
    pub dice: Vec<DieLine>,
    /// Seconds the search took.
    pub seconds: f64,
    /// Remarks.
    pub notes: Vec<String>,
}

fn pair(i: crate::stats::Interval) -> [f64; 2] {
    [i.lo, i.hi]
}

impl SearchReport {
    /// Builds the report.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        family: &Family,
        outcome: &RaceOutcome,
        config: &RaceConfig,
        confirmations: &[Confirmation],
        profile: String,
        board: String,
        seconds: f64,
        notes: Vec<String>,
    ) -> SearchReport {
        let dice = family.dice();
        let name = |i: usize| dice[i].to_string();
        let names = |v: &[usize]| v.iter().map(|&i| name(i)).collect::<Vec<_>>();
        let race = |r: &Race| (name(r.leader), names(&r.candidates));
        let (best, best_candidates) = race(&outcome.best_mean);
        let (maximin, maximin_candidates) = race(&outcome.maximin);
        let (condorcet, condorcet_status, condorcet_candidates) = match &outcome.condorcet {
            Condorcet::Winner(c) => (Some(name(*c)), "winner", Vec::new()),
            Condorcet::None => (None, "none", Vec::new()),
            Condorcet::Undecided(c) => (None, "undecided", names(c)),
        };
        let tournament = outcome.top_tournament(family);
        let top_name = |k: usize| name(outcome.top[k]);
        let most_played = outcome.counts.iter().map(|c| c.games).max().unwrap_or(0);
        SearchReport {
            family: names(&(0..family.len()).collect::<Vec<_>>()),
            family_description: family.description().to_string(),
            best_mean: BestMean {
                die: best,
                mean_p: outcome.best_mean.value,
                ci95: pair(outcome.best_mean.ci95),
                interval: pair(outcome.best_mean.interval),
                status: outcome.best_mean.status,
                candidates: best_candidates,
                games_per_pair: outcome.best_mean.games_per_pair,
            },
            condorcet,
            condorcet_status,
            condorcet_open: match &outcome.condorcet {
                Condorcet::Undecided(c) => c
                    .iter()
                    .map(|&i| {
                        let open = outcome.not_beaten(i);
                        OpenCandidate {
                            die: name(i),
                            not_beaten: names(&open[..open.len().min(NAMED_OPPONENTS)]),
                            not_beaten_count: open.len(),
                        }
                    })
                    .collect(),
                _ => Vec::new(),
            },
            condorcet_candidates,
            maximin: Maximin {
                die: maximin,
                worst_p: outcome.maximin.value,
                interval: pair(outcome.maximin.interval),
                status: outcome.maximin.status,
                candidates: maximin_candidates,
            },
            cycles: tournament
                .three_cycles()
                .iter()
                .map(|c| c.map(top_name))
                .collect(),
            cyclic_groups: tournament
                .cyclic_groups()
                .iter()
                .map(|g| g.iter().map(|&k| top_name(k)).collect())
                .collect(),
            top: names(&outcome.top),
            games: outcome.games,
            round_robin_games: family.pairs().checked_mul(most_played),
            rounds: outcome.rounds,
            error_probability: config.error_probability,
            epsilon: config.epsilon,
            max_games_per_pair: config.max_games_per_pair,
            design: config.design,
            seed: config.seed,
            risk: RiskSplit {
                means: outcome.n as u64,
                means_alpha: outcome.mean_alpha,
                pair_figures: 2 * outcome.pairs.len() as u64,
                pairs_alpha: outcome.pair_alpha,
            },
            anchors: names(outcome.pairs.anchors().unwrap_or(&[])),
            max_games_per_die: (config.design == crate::dice_search::Design::Screening)
                .then_some(config.max_games_per_die),
            profile,
            strategy: config.strategy.name(),
            board,
            confirmation: confirmations
                .iter()
                .map(|c| ConfirmationLine {
                    die_a: name(c.a),
                    die_b: name(c.b),
                    p_a_simulated: c.simulated.0,
                    interval_simulated: pair(c.simulated.1),
                    p_a_exact: c.exact.as_ref().map(|e| e.p_a),
                    bounds: c.exact.as_ref().map(|e| pair(e.interval)),
                    p_b_exact: c.exact.as_ref().map(|e| e.p_b),
                    solver: c.exact.as_ref().map(|e| e.solver.clone()),
                    agrees: c.exact.as_ref().map(|e| e.agrees),
                    status: if c.exact.is_some() {
                        "exact"
                    } else {
                        "not solved"
                    },
                    note: c.note.clone(),
                })
                .collect(),
            dice: (0..family.len())
                .map(|i| DieLine::new(&dice[i], outcome, i))
                .collect(),
            seconds,
            notes,
        }
    }
}

fn status_text(s: RaceStatus, epsilon: f64) -> String {
    match s {
        RaceStatus::Decided => "decided: the last candidate left".to_string(),
        RaceStatus::WithinEpsilon => {
            format!("within {epsilon} of every remaining candidate")
        }
        RaceStatus::Undecided => "undecided: the game cap came first".to_string(),
    }
}

fn interval_text(i: &[f64; 2]) -> String {
    interval(i[0], i[1], 4)
}

impl Report for SearchReport {
    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} ({} pairs), {} board, profile {}, every die playing {}, seed {}",
            self.family_description,
            thousands((self.family.len() * (self.family.len() - 1) / 2) as u64),
            self.board,
            self.profile,
            self.strategy,
            self.seed
        )?;
        writeln!(
            out,
            "Every statement below holds together with probability at least {} ({}).",
            1.0 - self.error_probability,
            match self.design {
                crate::dice_search::Design::Racing => "racing".to_string(),
                crate::dice_search::Design::RoundRobin => "round robin".to_string(),
                crate::dice_search::Design::Screening => format!(
                    "screening: the best mean on sampled opponents, the other questions on the \
                     pairs of {} anchor dice",
                    self.anchors.len()
                ),
            }
        )?;
        writeln!(
            out,
            "  (union bound: {} over {} mean sequences, {} over {} pair figures)",
            self.risk.means_alpha,
            thousands(self.risk.means),
            self.risk.pairs_alpha,
            thousands(self.risk.pair_figures)
        )?;
        writeln!(out)?;
        let b = &self.best_mean;
        writeln!(
            out,
            "best mean P(win):  {}  {} (95 % {}, simultaneous {}); {}",
            b.die,
            prob(b.mean_p),
            interval_text(&b.ci95),
            interval_text(&b.interval),
            status_text(b.status, self.epsilon)
        )?;
        if b.candidates.len() > 1 {
            writeln!(out, "  candidates left: {}", b.candidates.join("  "))?;
        }
        match (self.condorcet_status, &self.condorcet) {
            ("winner", Some(c)) => writeln!(out, "Condorcet winner:  {c} (beats every other die)")?,
            ("none", _) => writeln!(
                out,
                "Condorcet winner:  none (every die is beaten by another)"
            )?,
            _ => {
                writeln!(
                    out,
                    "Condorcet winner:  undecided; beaten by nobody so far: {}",
                    self.condorcet_candidates.join("  ")
                )?;
                for open in &self.condorcet_open {
                    let shown: Vec<&String> = open.not_beaten.iter().take(8).collect();
                    writeln!(
                        out,
                        "  {} is not shown to beat {} dice: {}{}",
                        open.die,
                        open.not_beaten_count,
                        shown
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join("  "),
                        if open.not_beaten_count > 8 {
                            "  .."
                        } else {
                            ""
                        }
                    )?;
                }
            }
        }
        let m = &self.maximin;
        writeln!(
            out,
            "maximin:           {}  worst P(win) {} (simultaneous {}); {}",
            m.die,
            prob(m.worst_p),
            interval_text(&m.interval),
            status_text(m.status, self.epsilon)
        )?;
        if m.candidates.len() > 1 {
            writeln!(out, "  candidates left: {}", m.candidates.join("  "))?;
        }
        if self.cycles.is_empty() && self.cyclic_groups.is_empty() {
            writeln!(out, "cycles among the top {}: none", self.top.len())?;
        } else {
            for c in &self.cycles {
                writeln!(out, "cycle: {} > {} > {} > {}", c[0], c[1], c[2], c[0])?;
            }
            for g in &self.cyclic_groups {
                writeln!(out, "cyclic group: {}", g.join("  "))?;
            }
        }
        writeln!(out)?;
        let mut ranked: Vec<&DieLine> = self.dice.iter().collect();
        ranked.sort_by(|a, b| b.mean_p.total_cmp(&a.mean_p));
        writeln!(out, "top dice by mean P(win):")?;
        for d in ranked.iter().take(self.top.len().max(5)) {
            writeln!(
                out,
                "  {:<24} mean {}  worst {}  {} games",
                d.die,
                prob(d.mean_p),
                prob(d.worst_p),
                thousands(d.games)
            )?;
        }
        if !self.confirmation.is_empty() {
            writeln!(out)?;
            writeln!(out, "exact confirmation (P(A wins)):")?;
            for c in &self.confirmation {
                let exact = match (c.p_a_exact, c.agrees) {
                    (Some(p), Some(agrees)) => format!(
                        "exact {} {}",
                        prob(p),
                        if agrees { "agrees" } else { "DISAGREES" }
                    ),
                    _ => "not solved".to_string(),
                };
                writeln!(
                    out,
                    "  {} vs {}: simulated {} {}; {}",
                    c.die_a,
                    c.die_b,
                    prob(c.p_a_simulated),
                    interval_text(&c.interval_simulated),
                    exact
                )?;
            }
        }
        writeln!(out)?;
        writeln!(
            out,
            "{} games in {} rounds ({} for a round robin at the most-played pair's count), {:.1} s",
            thousands(self.games),
            self.rounds,
            self.round_robin_games
                .map_or("more than 2^64".to_string(), thousands),
            self.seconds
        )?;
        for note in &self.notes {
            writeln!(out, "note: {note}")?;
        }
        Ok(())
    }

    /// One row per die: its figures for the landscape.
    fn csv(&self) -> Option<CsvTable> {
        let best: std::collections::HashSet<&String> = self.best_mean.candidates.iter().collect();
        let maximin: std::collections::HashSet<&String> = self.maximin.candidates.iter().collect();
        Some(CsvTable {
            header: header(&[
                "die",
                "mean_p",
                "worst_p",
                "games",
                "sixes",
                "smallest_face",
                "mean_face",
                "best_mean_candidate",
                "maximin_candidate",
            ]),
            rows: self
                .dice
                .iter()
                .map(|d| {
                    vec![
                        d.die.clone(),
                        csv_number(d.mean_p),
                        csv_optional(defined(d.worst_p)),
                        d.games.to_string(),
                        d.sixes.to_string(),
                        d.smallest_face.to_string(),
                        csv_number(d.mean_face),
                        best.contains(&d.die).to_string(),
                        maximin.contains(&d.die).to_string(),
                    ]
                })
                .collect(),
        })
    }
}
