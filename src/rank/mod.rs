//! Ranking a list of dice: every pair, the matrix of P(row die beats column die), the
//! ranking by mean win probability, undecided pairs and intransitive cycles.
//!
//! The matrix can come from simulation or from the exact solver; the analysis does not care
//! which, as long as every figure carries an interval (a confidence interval or certified
//! bounds).

pub mod table;

use crate::dice::Die;
use crate::exact::store::{Lookup, PairStore, StoreError, StoredPair};
use crate::exact::{Bounds, ExactError, ExactResult, SolveOptions};
use crate::rules::Rules;
use crate::sim::{
    DuelCounts, DuelPlan, Matchup, SimError, Stopping, StreamKey, run_duel_announced,
};
use crate::stats::{self, Interval};
use crate::strategy::Strategy;
use serde::Serialize;
use std::path::PathBuf;

/// How a pairwise figure was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Monte Carlo; the interval is a 95 % confidence interval.
    Simulated,
    /// Exact solver; the interval is a certified bound.
    Exact,
}

/// P(row die beats column die) with its interval.
///
/// Some games never end (dice whose pieces get stuck), so P(row wins) and P(column wins)
/// need not add up to 1. Who "beats" whom is therefore decided by the share of the
/// decided games the row die wins, P(row wins | the game ends): above 1/2 means the row
/// die wins more often than the column die. When every game ends this is the same as
/// P(row wins) > 1/2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairFigure {
    /// P(row die wins): the figure of merit, each die starting half the games.
    pub p: f64,
    /// 95 % confidence interval (simulation) or certified bounds (exact) of `p`.
    pub interval: Interval,
    /// P(row die wins | the game ends).
    pub share: f64,
    /// Interval of `share`, of the same kind as `interval`.
    pub share_interval: Interval,
    /// P(the game never ends), or the fraction of unfinished games in a simulation.
    pub unfinished: f64,
    /// How the figure was obtained.
    pub method: Method,
    /// Games played, for simulated figures.
    pub games: Option<u64>,
}

impl PairFigure {
    /// The row die wins more games than the column die, beyond doubt at the interval's level.
    pub fn beats(&self) -> bool {
        self.share_interval.lo > 0.5
    }
    /// Not decided: the interval of P(row wins | the game ends) contains 1/2.
    pub fn undecided(&self) -> bool {
        self.share_interval.contains(0.5)
    }
}

/// One die's line in the ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankEntry {
    /// Position of the die in the input list (0-based).
    #[serde(skip)]
    pub index: usize,
    /// The die.
    pub die: Die,
    /// Mean of P(this die beats the other) over all opponents.
    pub mean_p: f64,
    /// Opponents this die beats decidedly (interval above 0.5).
    pub beaten: usize,
    /// Opponents against which the result is undecided (interval contains 0.5).
    pub undecided: usize,
}

/// The pairwise results of a list of dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// The dice, in input order.
    pub dice: Vec<Die>,
    /// `matrix[i][j]`: P(die i beats die j); `None` on the diagonal.
    pub matrix: Vec<Vec<Option<PairFigure>>>,
}

impl Tournament {
    /// A tournament with no results yet.
    pub fn new(dice: Vec<Die>) -> Tournament {
        let n = dice.len();
        Tournament {
            dice,
            matrix: vec![vec![None; n]; n],
        }
    }

    /// The unordered pairs `(i, j)`, `i < j`, in a fixed order (their index is the pair's
    /// random stream in a simulated ranking).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.dice.len();
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    }

    /// Records a duel's counts for the pair (`i` as die A, `j` as die B).
    pub fn record_duel(&mut self, i: usize, j: usize, counts: &DuelCounts) {
        let total = counts.total();
        let decided = total.a_wins + total.b_wins;
        let unfinished = total.unfinished as f64 / total.games as f64;
        let figure = |wins: u64, p: f64, interval: Interval| PairFigure {
            p,
            interval,
            share: wins as f64 / decided as f64,
            share_interval: stats::wilson(wins, decided, stats::Z95),
            unfinished,
            method: Method::Simulated,
            games: Some(total.games),
        };
        self.matrix[i][j] = Some(figure(total.a_wins, counts.p_a(), counts.ci95_a()));
        self.matrix[j][i] = Some(figure(total.b_wins, counts.p_b(), counts.ci95_b()));
    }

    /// Records an exact result for the pair (`i` as die A, `j` as die B).
    pub fn record_exact(&mut self, i: usize, j: usize, result: &ExactResult) {
        let b = &result.bounds;
        let figure = |p: f64, mine: &Bounds, theirs: &Bounds| {
            let (p_lo, p_hi) = (mine.lo.max(0.0), mine.hi.min(1.0));
            let (q_lo, q_hi) = (theirs.lo.max(0.0), theirs.hi.min(1.0));
            let q = (q_lo + q_hi) / 2.0;
            let (mine, theirs) = (
                Interval { lo: p_lo, hi: p_hi },
                Interval { lo: q_lo, hi: q_hi },
            );
            PairFigure {
                p,
                interval: mine,
                share: share_of(p, q),
                share_interval: share_bounds(mine, theirs),
                unfinished: result.p_never,
                method: Method::Exact,
                games: None,
            }
        };
        self.matrix[i][j] = Some(figure(result.p_a, &b.p_a, &b.p_b));
        self.matrix[j][i] = Some(figure(result.p_b, &b.p_b, &b.p_a));
    }

    /// The ranking, best first: by mean win probability, then by opponents beaten.
    pub fn ranking(&self) -> Vec<RankEntry> {
        let n = self.dice.len();
        let mut entries: Vec<RankEntry> = (0..n)
            .map(|i| {
                let row: Vec<&PairFigure> = self.matrix[i].iter().flatten().collect();
                RankEntry {
                    index: i,
                    die: self.dice[i].clone(),
                    mean_p: row.iter().map(|f| f.p).sum::<f64>() / row.len().max(1) as f64,
                    beaten: row.iter().filter(|f| f.beats()).count(),
                    undecided: row.iter().filter(|f| f.undecided()).count(),
                }
            })
            .collect();
        entries.sort_by(|a, b| {
            b.mean_p
                .total_cmp(&a.mean_p)
                .then(b.beaten.cmp(&a.beaten))
                .then(a.index.cmp(&b.index))
        });
        entries
    }

    /// Pairs `(i, j)`, `i < j`, whose interval contains 0.5.
    pub fn undecided_pairs(&self) -> Vec<(usize, usize)> {
        self.pairs()
            .into_iter()
            .filter(|&(i, j)| self.matrix[i][j].is_some_and(|f| f.undecided()))
            .collect()
    }

    /// Intransitive triples: `[a, b, c]` with a beats b, b beats c, c beats a (decidedly),
    /// each listed once, starting from its smallest index.
    pub fn three_cycles(&self) -> Vec<[usize; 3]> {
        let n = self.dice.len();
        let beats = |i: usize, j: usize| self.matrix[i][j].is_some_and(|f| f.beats());
        let mut cycles = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in a + 1..n {
                    if b != c && beats(a, b) && beats(b, c) && beats(c, a) {
                        cycles.push([a, b, c]);
                    }
                }
            }
        }
        cycles
    }

    /// Groups of two or more dice that beat each other around in a cycle (the strongly
    /// connected components of the "beats decidedly" graph). Finds cycles of any length,
    /// also those that are not triangles because some pair is undecided.
    pub fn cyclic_groups(&self) -> Vec<Vec<usize>> {
        let n = self.dice.len();
        let beats = |i: usize, j: usize| self.matrix[i][j].is_some_and(|f| f.beats());
        // Reachability by Floyd-Warshall: lists have a handful of dice.
        let mut reach = vec![vec![false; n]; n];
        for (i, row) in reach.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = beats(i, j);
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if reach[i][k] && reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
        let mut seen = vec![false; n];
        let mut groups = Vec::new();
        for i in 0..n {
            if seen[i] || !reach[i][i] {
                continue;
            }
            let group: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
            for &j in &group {
                seen[j] = true;
            }
            groups.push(group);
        }
        groups
    }
}

/// P(row wins | the game ends) = `p / (p + q)` for P(row wins) `p` and P(column wins)
/// `q`; 1/2 when neither can win.
pub fn share_of(p: f64, q: f64) -> f64 {
    if p + q > 0.0 { p / (p + q) } else { 0.5 }
}

/// Bounds on P(row wins | the game ends) from bounds on P(row wins) (`mine`) and on
/// P(column wins) (`theirs`): `p / (p + q)` grows with `p` and falls with `q`, so its
/// bounds come from the corners.
pub fn share_bounds(mine: Interval, theirs: Interval) -> Interval {
    Interval {
        lo: share_of(mine.lo, theirs.hi),
        hi: share_of(mine.hi, theirs.lo),
    }
}

/// Settings of a simulated ranking.
#[derive(Clone, Copy, Debug)]
pub struct SimulationPlan {
    /// Games per pair, or the precision to reach per pair.
    pub stopping: Stopping,
    /// The user's seed; pair `k` uses stream `k`.
    pub seed: u64,
    /// Roll cap per game.
    pub max_rolls: u64,
}

/// Simulates every pair of `dice`, every die playing `frontmost`. `progress` is told of
/// every chunk of games played.
pub fn simulate_tournament(
    rules: &Rules,
    dice: &[Die],
    plan: &SimulationPlan,
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&str, &DuelPlan) + Sync),
) -> Result<Tournament, SimError> {
    simulate_tournament_playing(rules, dice, &Strategy::Frontmost, plan, progress, announce)
}

/// [`simulate_tournament`] with every die playing `strategy` (each pair resolves it against
/// the other die, see [`Matchup::playing`]); anything but `frontmost` needs `choice`.
pub fn simulate_tournament_playing(
    rules: &Rules,
    dice: &[Die],
    strategy: &Strategy,
    plan: &SimulationPlan,
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&str, &DuelPlan) + Sync),
) -> Result<Tournament, SimError> {
    let mut tournament = Tournament::new(dice.to_vec());
    let pairs = tournament.pairs();
    for (stream, &(i, j)) in pairs.iter().enumerate() {
        let name = format!(
            "pair {}/{} ({} vs {})",
            stream + 1,
            pairs.len(),
            dice[i],
            dice[j]
        );
        let counts = simulate_pair(
            rules,
            dice,
            strategy,
            plan,
            stream,
            (i, j),
            progress,
            &|p| announce(&name, p),
        )?;
        tournament.record_duel(i, j, &counts);
    }
    Ok(tournament)
}

/// One pair of a simulated ranking: dice `i` (as A) and `j` (as B) of `dice`, both playing
/// `strategy`, pair number `stream` in [`Tournament::pairs`] order, which selects the pair's
/// own random streams.
///
/// [`simulate_tournament`] runs this for every pair in turn; a caller that spreads the pairs
/// over processes or machines (the Python package's Dask ranking) runs it for one pair and
/// gets exactly the counts of the local ranking for the same seed.
#[allow(clippy::too_many_arguments)]
pub fn simulate_pair(
    rules: &Rules,
    dice: &[Die],
    strategy: &Strategy,
    plan: &SimulationPlan,
    stream: usize,
    (i, j): (usize, usize),
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&DuelPlan) + Sync),
) -> Result<DuelCounts, SimError> {
    let matchup = Matchup::new(rules, [&dice[i], &dice[j]], plan.max_rolls)?
        .playing([strategy.clone(), strategy.clone()])?;
    let key = StreamKey::new(plan.seed).with_stream(stream as u64);
    run_duel_announced(&matchup, key, plan.stopping, progress, announce)
}

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

/// Solves every pair of `dice` exactly (sparse-matrix solver, or the matrix-free one when
/// the matrix does not fit); a pair that fits neither is simulated instead (its figures are
/// marked [`Method::Simulated`]) and named in the returned notes. With a `store`, a pair
/// whose record there is valid and at most `options.tolerance` wide is read from it
/// instead of solved again, and each newly solved pair is written to it at once, so an
/// interrupted ranking resumes where it stopped; the notes name the pairs read, and the bad
/// records moved aside. `pair_started` hears of each pair before it is solved, as
/// "k/n: a vs b"; `progress` counts simulated games.
///
/// A pair whose solve fails stops the ranking with a [`RankError`] naming the pair and
/// saying where the pairs solved before it are kept.
pub fn solve_tournament(
    rules: &Rules,
    dice: &[Die],
    options: &SolveOptions,
    fallback: &SimulationPlan,
    store: Option<&PairStore>,
    pair_started: &dyn Fn(&str),
    progress: &(dyn Fn(u64) + Sync),
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
            store,
            stream,
            (i, j),
            progress,
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
/// `store` if it is valid and narrow enough, else a new solve (written to `store` at once),
/// else, if the pair does not fit, a simulation with `fallback` on the pair's own streams
/// (not under `choice`, where the solve is of optimal play, which no simulation plays: there a
/// pair that does not fit is an error). What the store held, why it was not used, and why a
/// pair was simulated go to `notes`.
///
/// A caller that spreads the pairs over processes or machines runs this for one pair each
/// and hands the outcomes, in pair order, to [`Tournament::record_exact_outcome`].
#[allow(clippy::too_many_arguments)]
pub fn exact_ranking_pair(
    rules: &Rules,
    dice: &[Die],
    options: &SolveOptions,
    fallback: &SimulationPlan,
    store: Option<&PairStore>,
    stream: usize,
    (i, j): (usize, usize),
    progress: &(dyn Fn(u64) + Sync),
    notes: &mut Vec<String>,
) -> Result<ExactPairOutcome, PairFailure> {
    // A pair that fits neither solver is simulated and marked; its failure is the pair's.
    match exact_pair(rules, &dice[i], &dice[j], options, store, notes)? {
        Some(record) => Ok(ExactPairOutcome::Solved(Box::new(record))),
        None => simulate_pair(
            rules,
            dice,
            &Strategy::Frontmost,
            fallback,
            stream,
            (i, j),
            progress,
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
/// simulated (under `choice`, an error instead: see [`exact_ranking_pair`]). What the store held and why it was not used goes to `notes`. Public for the
/// exact confirmation of [`crate::dice_search`], which solves a few pairs the same way.
pub fn exact_pair(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    store: Option<&PairStore>,
    notes: &mut Vec<String>,
) -> Result<Option<StoredPair>, PairFailure> {
    // A valid record wider than the tolerance (and the note on it): still better than a
    // simulation, and than a new solve that stalls wider.
    let mut too_wide = None;
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
            Lookup::Missing => {}
        }
    }
    let fitted = match crate::exact::solve_fitting(rules, a, b, options) {
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
    if let Some(store) = store {
        store
            .save(&record, rules, a, b)
            .map_err(PairFailure::Store)?;
    }
    Ok(Some(record))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A figure for a pair in which every game ends, so the share equals p.
    fn figure(p: f64, lo: f64, hi: f64) -> Option<PairFigure> {
        let interval = Interval { lo, hi };
        Some(PairFigure {
            p,
            interval,
            share: p,
            share_interval: interval,
            unfinished: 0.0,
            method: Method::Exact,
            games: None,
        })
    }

    /// Three dice in a rock-paper-scissors cycle, built by hand.
    fn cyclic() -> Tournament {
        let dice = ["1..6", "2..7", "3..8"]
            .map(|d| d.parse().unwrap())
            .to_vec();
        let mut t = Tournament::new(dice);
        let set = |t: &mut Tournament, i: usize, j: usize, p: f64| {
            t.matrix[i][j] = figure(p, p - 0.01, p + 0.01);
            t.matrix[j][i] = figure(1.0 - p, 0.99 - p, 1.01 - p);
        };
        set(&mut t, 0, 1, 0.6);
        set(&mut t, 1, 2, 0.6);
        set(&mut t, 2, 0, 0.7);
        t
    }

    #[test]
    fn finds_a_rock_paper_scissors_cycle() {
        let t = cyclic();
        assert_eq!(t.three_cycles(), vec![[0, 1, 2]]);
        assert_eq!(t.cyclic_groups(), vec![vec![0, 1, 2]]);
        assert!(t.undecided_pairs().is_empty());
    }

    #[test]
    fn a_pair_with_unfinished_games_is_decided_by_the_decided_games() {
        // Row wins 49.9 %, column 13 %, 37 % never end: the row die clearly beats the
        // column die although its P(win) interval contains 1/2.
        let mut t = Tournament::new(vec!["3..8".parse().unwrap(), "6..11".parse().unwrap()]);
        let counts = DuelCounts {
            a_started: crate::sim::StartCounts {
                games: 50_000,
                a_wins: 24_950,
                b_wins: 6_500,
                unfinished: 18_550,
                endless: 18_550,
                rolls: 0,
            },
            b_started: crate::sim::StartCounts {
                games: 50_000,
                a_wins: 24_950,
                b_wins: 6_500,
                unfinished: 18_550,
                endless: 18_550,
                rolls: 0,
            },
        };
        t.record_duel(0, 1, &counts);
        let row = t.matrix[0][1].unwrap();
        assert!(row.interval.contains(0.5));
        assert!(row.beats() && !row.undecided());
        assert!((row.share - 24_950.0 / 31_450.0).abs() < 1e-12);
        assert!((row.unfinished - 0.371).abs() < 1e-12);
        assert!(t.matrix[1][0].unwrap().share_interval.hi < 0.5);
    }

    #[test]
    fn ranks_by_mean_and_marks_undecided_pairs() {
        let mut t = cyclic();
        // Make 0 vs 1 a coin flip: the cycle disappears, the pair is undecided.
        t.matrix[0][1] = figure(0.5, 0.49, 0.51);
        t.matrix[1][0] = figure(0.5, 0.49, 0.51);
        assert!(t.three_cycles().is_empty());
        assert!(t.cyclic_groups().is_empty());
        assert_eq!(t.undecided_pairs(), vec![(0, 1)]);
        let ranking = t.ranking();
        // Means: die 2: (0.7 + 0.4) / 2 = 0.55; die 1: (0.5 + 0.6) / 2 = 0.55; die 0: 0.4.
        assert_eq!(ranking[2].index, 0);
        assert_eq!(ranking[0].beaten + ranking[1].beaten, 2);
        assert_eq!(ranking.iter().map(|e| e.undecided).sum::<usize>(), 2);
    }

    /// The pair-by-pair functions a distributed ranking uses give the local rankings'
    /// results, pair for pair, note for note.
    #[test]
    fn pair_by_pair_rankings_equal_the_local_ones() {
        use crate::rules::{Board, Profile};
        let rules = Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::default());
        let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "2..7"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        let plan = SimulationPlan {
            stopping: Stopping::games(2048).unwrap(),
            seed: 7,
            max_rolls: 100_000,
        };
        let none = |_: u64| {};
        let local = simulate_tournament(&rules, &dice, &plan, &none, &|_, _| {}).unwrap();
        let mut by_pair = Tournament::new(dice.clone());
        for (stream, &(i, j)) in by_pair.pairs().iter().enumerate() {
            let counts = simulate_pair(
                &rules,
                &dice,
                &Strategy::Frontmost,
                &plan,
                stream,
                (i, j),
                &none,
                &|_| {},
            );
            by_pair.record_duel(i, j, &counts.unwrap());
        }
        assert_eq!(by_pair, local);

        // A limit that the pair with 2..7 cannot meet, so both paths simulate some pairs.
        let options =
            SolveOptions::new(1e-9, 100_000, Some(crate::exact::memory::FIXED_BYTES)).unwrap();
        let (local, local_notes) =
            solve_tournament(&rules, &dice, &options, &plan, None, &|_| {}, &none).unwrap();
        let mut by_pair = Tournament::new(dice.clone());
        let mut notes = Vec::new();
        for (stream, &(i, j)) in by_pair.pairs().iter().enumerate() {
            let outcome = exact_ranking_pair(
                &rules,
                &dice,
                &options,
                &plan,
                None,
                stream,
                (i, j),
                &none,
                &mut notes,
            )
            .unwrap();
            by_pair.record_exact_outcome(i, j, &outcome, options.tolerance, &mut notes);
        }
        assert_eq!(by_pair, local);
        assert_eq!(notes, local_notes);
    }
}
