//! An exact ranking: every pair solved (or read from the store of solved pairs), a pair
//! that does not fit in memory simulated instead (an error under `choice`).

use super::{SimulationPlan, Tournament, simulate_pair};
use crate::dice::Die;
use crate::exact::progress::Observer;
use crate::exact::{ExactError, SolveOptions};
use crate::rank::solved_games::SolvedGames;
use crate::rank::store::{Lookup, PairStore, StoreError, StoredPair};
use crate::rules::Rules;
use crate::sim::{DuelCounts, SimError};
use crate::strategy::Strategy;
use std::path::PathBuf;

/// Why an exact ranking stopped: the pair at fault, what went wrong, and what was kept.
#[derive(Debug)]
pub struct RankError {
    /// The failing pair's number (1-based) and the number of pairs.
    pub pair: (usize, usize),
    /// Die A and die B of the failing pair.
    pub dice: (Die, Die),
    /// What went wrong.
    pub cause: PairFailure,
    /// Pairs solved exactly (or read from the store) before the failing one.
    pub solved_before: usize,
    /// The store directory that keeps them, if there is one.
    pub store: Option<PathBuf>,
    /// The notes of the pairs before (e.g. bad records moved aside), which would otherwise
    /// be lost with the report.
    pub notes: Vec<String>,
}

/// What went wrong with one pair of an exact ranking.
#[derive(Debug)]
pub enum PairFailure {
    /// The solve failed for another reason than size (e.g. it did not converge).
    Exact(ExactError),
    /// The store of solved pairs could not be read or written.
    Store(StoreError),
    /// A pair simulated because it does not fit could not be simulated.
    Sim(SimError),
    /// The pair failed in another process (e.g. a cluster worker), which reported this.
    Elsewhere(String),
}

impl std::fmt::Display for PairFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairFailure::Exact(e) => write!(f, "{e}"),
            PairFailure::Store(e) => write!(f, "{e}"),
            PairFailure::Sim(e) => write!(f, "{e}"),
            PairFailure::Elsewhere(e) => f.write_str(e),
        }
    }
}

impl std::fmt::Display for RankError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ((k, n), (a, b)) = (self.pair, &self.dice);
        write!(f, "pair {k}/{n}, {a} vs {b}: {}", self.cause)?;
        let before = match self.solved_before {
            1 => "the 1 pair solved before it is".to_string(),
            s => format!("the {s} pairs solved before it are"),
        };
        match (&self.store, self.solved_before) {
            (Some(dir), _) => write!(
                f,
                "; {before} kept in {}, where a rerun with the same --store reads them",
                dir.display()
            )?,
            (None, 0) => {}
            (None, _) => write!(f, "; {before} lost: --store DIR would have kept them")?,
        }
        for note in &self.notes {
            write!(f, "\nnote: {note}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RankError {}

/// Who hears what the pairs of an exact ranking do.
#[derive(Clone, Copy)]
pub struct ExactListeners<'a> {
    /// What each solve does: its size, plan and sweeps, as
    /// [`solve_fitting_observed`](crate::exact::solve_fitting_observed) reports them (the
    /// rules-fixed solvers only).
    pub solve: Observer<'a>,
    /// The games a pair simulated instead (it did not fit the memory), as they finish.
    pub games: &'a (dyn Fn(u64) + Sync),
}

impl ExactListeners<'_> {
    /// Nobody listens.
    pub fn none() -> ExactListeners<'static> {
        ExactListeners {
            solve: &crate::exact::progress::unobserved,
            games: &|_| {},
        }
    }
}

/// Solves every pair of `dice` exactly (sparse-matrix solver, or the matrix-free one when
/// the matrix does not fit); a pair that fits neither is simulated instead (its figures are
/// marked [`Method::Simulated`](super::Method::Simulated)) and named in the returned notes.
/// A pair whose whole game `solved` holds is read at its openings there. With a `store`, a pair
/// whose record there is valid and at most `options.tolerance` wide is read from it
/// instead of solved again, and each newly solved pair is written to it at once, so an
/// interrupted ranking resumes where it stopped; the notes name the pairs read, and the bad
/// records moved aside. `pair_started` hears of each pair before it is solved, as
/// "k/n: a vs b"; `listeners` of each solve and each simulated game.
///
/// A pair whose solve fails stops the ranking with a [`RankError`] naming the pair and
/// saying where the pairs solved before it are kept.
pub fn solve_tournament(
    rules: &Rules,
    dice: &[Die],
    options: &SolveOptions,
    fallback: &SimulationPlan,
    (store, solved_games): (Option<&PairStore>, &SolvedGames),
    pair_started: &dyn Fn(&str),
    listeners: ExactListeners<'_>,
) -> Result<(Tournament, Vec<String>), Box<RankError>> {
    let mut tournament = Tournament::new(dice.to_vec());
    let mut notes = Vec::new();
    let mut solved = 0;
    let pairs = tournament.pairs();
    for (stream, &(i, j)) in pairs.iter().enumerate() {
        let (a, b) = (&dice[i], &dice[j]);
        pair_started(&format!("{}/{}: {a} vs {b}", stream + 1, pairs.len()));
        let outcome = match exact_ranking_pair(
            rules,
            dice,
            options,
            fallback,
            (store, solved_games),
            stream,
            (i, j),
            listeners,
            &mut notes,
        ) {
            Ok(outcome) => outcome,
            Err(cause) => {
                return Err(Box::new(RankError {
                    pair: (stream + 1, pairs.len()),
                    dice: (a.clone(), b.clone()),
                    cause,
                    solved_before: solved,
                    store: store.map(|s| s.dir().to_path_buf()),
                    notes,
                }));
            }
        };
        if tournament.record_exact_outcome(i, j, &outcome, options.tolerance, &mut notes) {
            solved += 1;
        }
    }
    Ok((tournament, notes))
}

/// What one pair of an exact ranking came to.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactPairOutcome {
    /// Solved exactly, or read from the store (boxed: a record is five times the counts).
    Solved(Box<StoredPair>),
    /// Too large to solve under the memory limit: simulated with the fallback plan.
    Simulated(DuelCounts),
}

/// One pair of an exact ranking, as [`solve_tournament`] does it: dice `i` (as A) and `j`
/// (as B) of `dice`, pair number `stream` in [`Tournament::pairs`] order. The record from
/// `solved` where it holds the pair's whole game, else from
/// `store` if it is valid and narrow enough, else a new solve (written to `store` at once),
/// else, if the pair does not fit, a simulation with `fallback` on the pair's own streams
/// (not under `choice`, where the solve is of optimal play, which no simulation plays: there a
/// pair that does not fit is an error). What the store held, why it was not used, and why a
/// pair was simulated go to `notes`; `listeners` hear what the solve or the simulation does.
///
/// A caller that spreads the pairs over processes or machines runs this for one pair each
/// and hands the outcomes, in pair order, to [`Tournament::record_exact_outcome`].
#[allow(clippy::too_many_arguments)]
pub fn exact_ranking_pair(
    rules: &Rules,
    dice: &[Die],
    options: &SolveOptions,
    fallback: &SimulationPlan,
    (store, solved): (Option<&PairStore>, &SolvedGames),
    stream: usize,
    (i, j): (usize, usize),
    listeners: ExactListeners<'_>,
    notes: &mut Vec<String>,
) -> Result<ExactPairOutcome, PairFailure> {
    // A whole game solved before is read at its openings.
    if let Some((record, folder)) = solved
        .record(rules, &dice[i], &dice[j])
        .map_err(PairFailure::Exact)?
    {
        notes.push(format!(
            "{} vs {}: read from the layered values in {} (certified width {:.1e})",
            dice[i],
            dice[j],
            folder.display(),
            record.certified_width()
        ));
        return Ok(ExactPairOutcome::Solved(Box::new(record)));
    }
    // A pair that fits neither solver is simulated and marked; its failure is the pair's.
    match exact_pair(
        rules,
        &dice[i],
        &dice[j],
        options,
        store,
        listeners.solve,
        notes,
    )? {
        Some(record) => Ok(ExactPairOutcome::Solved(Box::new(record))),
        None => simulate_pair(
            rules,
            dice,
            &Strategy::Frontmost,
            fallback,
            stream,
            (i, j),
            listeners.games,
            &|_| {},
        )
        .map(ExactPairOutcome::Simulated)
        .map_err(PairFailure::Sim),
    }
}

impl Tournament {
    /// Records the outcome of pair (`i` as die A, `j` as die B) of an exact ranking solved
    /// to `tolerance`; a solved pair whose certified width stayed above the tolerance gets a
    /// note. True if the pair was solved exactly (or read from the store).
    pub fn record_exact_outcome(
        &mut self,
        i: usize,
        j: usize,
        outcome: &ExactPairOutcome,
        tolerance: f64,
        notes: &mut Vec<String>,
    ) -> bool {
        match outcome {
            ExactPairOutcome::Simulated(counts) => {
                self.record_duel(i, j, counts);
                false
            }
            ExactPairOutcome::Solved(record) => {
                let width = record.certified_width();
                if width > tolerance {
                    notes.push(format!(
                        "{} vs {}: {} reached a certified width of {width:.1e} only",
                        self.dice[i], self.dice[j], record.solver
                    ));
                }
                self.record_exact(i, j, &record.result);
                true
            }
        }
    }
}

/// The strategy an exact ranking reports for every die
/// ([`crate::report::RankReport::with_strategy`]): what [`exact_pair`] solves, the rules' own
/// moves (`frontmost`), or under `choice` optimal play on both sides (`optimal`).
pub fn exact_strategy_name(rules: &Rules) -> String {
    if rules.profile().choice {
        "optimal".to_string()
    } else {
        Strategy::Frontmost.name()
    }
}

/// One pair of an exact ranking: the record from `store` if it is valid and narrow enough,
/// else a new solve (written to `store`), else `None` if the pair does not fit and is to be
/// simulated (under `choice`, an error instead: see [`exact_ranking_pair`]). What the store
/// held and why it was not used goes to `notes`; `observer` hears what the solve does.
/// Public for the
/// exact confirmation of [`crate::dice_search`], which solves a few pairs the same way.
pub fn exact_pair(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    store: Option<&PairStore>,
    observer: Observer<'_>,
    notes: &mut Vec<String>,
) -> Result<Option<StoredPair>, PairFailure> {
    // A valid record wider than the tolerance (and the note on it): still better than a
    // simulation, and than a new solve that stalls wider.
    let mut too_wide = None;
    // A record without a checksum (format 1): compared with the new solve, never used.
    let mut unverified = None;
    if let Some(store) = store {
        let path = store.path(rules, a, b);
        match store
            .load(rules, a, b, options.tolerance)
            .map_err(PairFailure::Store)?
        {
            Lookup::Usable(record) => {
                notes.push(format!(
                    "{a} vs {b}: read from {} (certified width {:.1e}, {})",
                    path.display(),
                    record.certified_width(),
                    record.solver
                ));
                return Ok(Some(record));
            }
            Lookup::TooWide(record) => {
                // What became of it is added when the new solve is done.
                let width = record.certified_width();
                too_wide = Some((
                    record,
                    format!(
                        "{a} vs {b}: the record in {} reached a certified width of {width:.1e} \
                         only, more than the tolerance {:e}",
                        path.display(),
                        options.tolerance
                    ),
                ));
            }
            Lookup::Rejected(rejection) => {
                notes.push(format!("{a} vs {b}: {rejection}; treated as missing"));
            }
            Lookup::Unverified(record) => {
                unverified = Some((
                    record,
                    format!(
                        "{a} vs {b}: the record in {} has no checksum (format 1, written \
                         before checksums existed), so its figures are not certified",
                        path.display()
                    ),
                ));
            }
            Lookup::Missing => {}
        }
    }
    let fitted = match crate::exact::solve_fitting_observed(rules, a, b, options, observer) {
        Ok(fitted) => fitted,
        Err(e @ (ExactError::Memory { .. } | ExactError::TooLarge(_))) => {
            if rules.profile().choice {
                // No simulation stands in for optimal play: the simulator plays heuristics,
                // whose figures would be labelled as the optimal pair's.
                return Err(PairFailure::Exact(e));
            }
            if let Some((record, note)) = too_wide {
                notes.push(format!(
                    "{note}; used, because a new solve does not fit: {e}"
                ));
                return Ok(Some(record));
            }
            if let Some((_, note)) = unverified {
                notes.push(format!("{note}; not used, and not verified: {e}"));
            }
            notes.push(format!("{a} vs {b}: simulated, because {e}"));
            return Ok(None);
        }
        Err(e) => return Err(PairFailure::Exact(e)),
    };
    let record = StoredPair::new(
        rules,
        a,
        b,
        options.tolerance,
        fitted.solver.to_string(),
        fitted.stalled,
        fitted.result,
    );
    if let Some((old, note)) = too_wide {
        let width = record.certified_width();
        if old.certified_width() <= width {
            notes.push(format!(
                "{note}; solved again to {width:.1e}, no narrower: the record is kept"
            ));
            return Ok(Some(old));
        }
        notes.push(format!("{note}; solved again"));
    }
    if let (Some((old, note)), Some(store)) = (unverified, store) {
        if old.agrees_with(&record.result) {
            notes.push(format!(
                "{note}; solved again, the new solve agrees: rewritten with a checksum"
            ));
        } else {
            let moved_to = store.move_aside(rules, a, b).map_err(PairFailure::Store)?;
            notes.push(format!(
                "{note}; solved again, and the new solve contradicts it: moved to {}",
                moved_to.display()
            ));
        }
    }
    if let Some(store) = store {
        store
            .save(&record, rules, a, b)
            .map_err(PairFailure::Store)?;
    }
    Ok(Some(record))
}
