//! A ranking spread over processes, pair by pair: the plan of its pairs, one pair computed
//! as the local ranking computes it, and the ranking assembled from the pairs.

use super::{Mode, RankOutput, RankSettings, Ranked, heatmap, ranking_report};
use crate::api::{Error, Plotted, Progress, run_in_pool};
use crate::rank::store::StoredPair;
use crate::rank::{
    ExactListeners, ExactPairOutcome, PairFailure, RankError, Tournament, exact_ranking_pair,
    simulate_pair,
};
use crate::sim::DuelCounts;
use crate::work::notes::SolveNotes;
use serde::{Deserialize, Serialize};

/// A pair of a ranking as [`plan`] lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedPair {
    /// Die A's index.
    pub a: usize,
    /// Die B's index.
    pub b: usize,
    /// The least memory an exact solve of the pair needs, in bytes (0 in a simulated
    /// ranking, and where the pair is read from a values folder of `--values`): a
    /// scheduler places the pair on a worker that has it.
    pub least_memory: u64,
}

/// The pairs of a ranking in the library's order (pair `k` uses random stream `k`).
pub fn plan(settings: &RankSettings) -> Result<Vec<PlannedPair>, Error> {
    if matches!(settings.mode, Mode::Tables { .. }) {
        return Err(Error::input(
            "--players: the tables of a ranking are not spread pair by pair",
        ));
    }
    let solved = match &settings.mode {
        Mode::Exact { solved, .. } => Some(solved),
        _ => None,
    };
    let dice = &settings.dice;
    Ok(Tournament::new(dice.clone())
        .pairs()
        .into_iter()
        .map(|(a, b)| PlannedPair {
            a,
            b,
            least_memory: match solved {
                Some(solved) if !solved.holds(&dice[a], &dice[b]) => {
                    crate::exact::least_memory(&settings.rules, &dice[a], &dice[b])
                }
                _ => 0,
            },
        })
        .collect())
}

/// What one pair of a ranking came to, as it travels from the process that computed it
/// to the one that assembles the ranking (JSON): the counts of a simulated pair, the
/// store's record of a solved one, or the pair's failure; and the pair's notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairPayload {
    /// The counts of a simulated pair: A started, then B started; each `games, a_wins,
    /// b_wins, unfinished, endless, rolls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<u64>>,
    /// The record of a solved pair, checked again when the ranking is assembled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<Box<StoredPair>>,
    /// Why the pair failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The pair's notes (e.g. a record of the store moved aside).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Pair number `stream` of a ranking, dice `a` and `b`, as the local ranking computes it.
/// A pair that fails is a payload with its error (the ranking fails when it is assembled,
/// with the local ranking's message); bad arguments are an [`Error`].
pub fn rank_pair(
    settings: &RankSettings,
    stream: usize,
    (a, b): (usize, usize),
    progress: &dyn Progress,
) -> Result<PairPayload, Error> {
    let s = settings;
    let n = s.dice.len();
    if a >= n || b >= n || a >= b {
        return Err(Error::input(format!(
            "pair ({a}, {b}) is not a pair of the {n} dice"
        )));
    }
    run_in_pool(s.threads, progress, |watch| {
        let games = |g| watch.games(g);
        Ok(match &s.mode {
            Mode::Exact {
                solve,
                store,
                solved,
            } => {
                let mut notes = Vec::new();
                let solve_notes = SolveNotes::new(solve.tolerance, progress);
                solve_notes.name_next(&format!("exact {} vs {}", s.dice[a], s.dice[b]));
                let outcome = exact_ranking_pair(
                    &s.rules,
                    &s.dice,
                    solve,
                    &s.plan,
                    (store.as_ref(), solved),
                    stream,
                    (a, b),
                    ExactListeners {
                        solve: &|p| solve_notes.report(p),
                        games: &games,
                    },
                    &mut notes,
                );
                match outcome {
                    Ok(ExactPairOutcome::Solved(record)) => PairPayload {
                        record: Some(record),
                        ..PairPayload::failed(None, notes)
                    },
                    Ok(ExactPairOutcome::Simulated(c)) => PairPayload {
                        counts: Some(counts_to_list(&c)),
                        ..PairPayload::failed(None, notes)
                    },
                    Err(e) => PairPayload::failed(Some(e.to_string()), notes),
                }
            }
            _ => match simulate_pair(
                &s.rules,
                &s.dice,
                &s.strategy,
                &s.plan,
                stream,
                (a, b),
                &games,
                &|_| {},
            ) {
                Ok(c) => PairPayload {
                    counts: Some(counts_to_list(&c)),
                    ..PairPayload::failed(None, Vec::new())
                },
                Err(e) => PairPayload::failed(Some(e.to_string()), Vec::new()),
            },
        })
    })
}

impl PairPayload {
    fn failed(error: Option<String>, notes: Vec<String>) -> PairPayload {
        PairPayload {
            counts: None,
            record: None,
            error,
            notes,
        }
    }
}

/// The ranking from the payloads of [`rank_pair`], one per pair in [`plan`]'s order,
/// assembled as the local ranking does: the same matrix, notes and report. A record is
/// checked as the store checks it (dice, board, profile, bounds) before it is used. The
/// first failed pair (in pair order) fails the ranking with the local ranking's message.
pub fn assemble(
    settings: &RankSettings,
    payloads: &[PairPayload],
    seconds: f64,
) -> Result<Ranked, Error> {
    let s = settings;
    let exact = match &s.mode {
        Mode::Exact { solve, .. } => Some(solve.tolerance),
        Mode::Simulated => None,
        Mode::Tables { .. } => plan(s).map(|_| None)?,
    };
    let mut tournament = Tournament::new(s.dice.clone());
    let pairs = tournament.pairs();
    if payloads.len() != pairs.len() {
        return Err(Error::failure(format!(
            "{} results for {} pairs",
            payloads.len(),
            pairs.len()
        )));
    }
    let mut notes = Vec::new();
    let mut solved = 0;
    for (k, (&(i, j), payload)) in pairs.iter().zip(payloads).enumerate() {
        let (a, b) = (&s.dice[i], &s.dice[j]);
        let bad = |what: String| {
            Error::failure(format!(
                "pair {}/{}, {a} vs {b}: {what}",
                k + 1,
                pairs.len()
            ))
        };
        notes.extend(payload.notes.iter().cloned());
        let outcome = if let Some(error) = &payload.error {
            return Err(Error::failure(RankError {
                pair: (k + 1, pairs.len()),
                dice: (a.clone(), b.clone()),
                cause: PairFailure::Elsewhere(error.clone()),
                solved_before: solved,
                store: s.store_dir.clone(),
                notes,
            }));
        } else if let Some(record) = &payload.record {
            record
                .check(&s.rules, a, b)
                .map_err(|e| bad(format!("record refused: {e}")))?;
            ExactPairOutcome::Solved(record.clone())
        } else {
            let list = payload
                .counts
                .as_ref()
                .ok_or_else(|| bad("no counts, record or error".into()))?;
            ExactPairOutcome::Simulated(counts_from_list(list).map_err(bad)?)
        };
        match (exact, &outcome) {
            (Some(tolerance), _) => {
                if tournament.record_exact_outcome(i, j, &outcome, tolerance, &mut notes) {
                    solved += 1;
                }
            }
            (None, ExactPairOutcome::Simulated(c)) => tournament.record_duel(i, j, c),
            (None, ExactPairOutcome::Solved(_)) => {
                return Err(bad("an exact record in a simulated ranking".into()));
            }
        }
    }
    Ok(Plotted {
        report: RankOutput::Pairs(ranking_report(s, &tournament, seconds, notes)),
        plot: heatmap(s, &tournament)?,
    })
}

/// The counts of a duel as a flat list (A started, then B started; each `games, a_wins,
/// b_wins, unfinished, endless, rolls`).
fn counts_to_list(c: &DuelCounts) -> Vec<u64> {
    [c.a_started, c.b_started]
        .iter()
        .flat_map(|s| {
            [
                s.games,
                s.a_wins,
                s.b_wins,
                s.unfinished,
                s.endless,
                s.rolls,
            ]
        })
        .collect()
}

/// The inverse of [`counts_to_list`], checking that the counts add up.
fn counts_from_list(v: &[u64]) -> Result<DuelCounts, String> {
    use crate::sim::StartCounts;
    let start = |s: &[u64]| -> Result<StartCounts, String> {
        let c = StartCounts {
            games: s[0],
            a_wins: s[1],
            b_wins: s[2],
            unfinished: s[3],
            endless: s[4],
            rolls: s[5],
        };
        let sum = c
            .a_wins
            .checked_add(c.b_wins)
            .and_then(|x| x.checked_add(c.unfinished));
        if sum != Some(c.games) || c.endless > c.unfinished {
            return Err(format!("counts that do not add up: {s:?}"));
        }
        Ok(c)
    };
    if v.len() != 12 {
        return Err(format!("{} counts instead of 12", v.len()));
    }
    Ok(DuelCounts {
        a_started: start(&v[..6])?,
        b_started: start(&v[6..])?,
    })
}
