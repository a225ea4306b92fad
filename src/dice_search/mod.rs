//! The search for the best die of a family ([`family`]): which die has the highest mean
//! P(win) against all the others, whether one die beats every other (a Condorcet winner),
//! which die has the best worst case (maximin), and which of the top dice beat each
//! other around in a cycle.
//!
//! A full round robin of the 462 six-sided dice with faces 1..6 has 106,491 pairs; most
//! of them are lopsided and decided after a thousand games, and the close ones matter only
//! near the top. [`racing`] therefore plays in rounds and gives games only to the pairs
//! that can still change an answer (successive elimination), with anytime-valid
//! confidence sequences and one overall error probability (see its documentation for the
//! guarantee and the union bound). [`confirm`] then solves the pairs among the top
//! candidates exactly, where they fit in memory, through the same store of solved pairs
//! as `rank --exact --store`.

pub mod checkpoint;
pub mod config;
pub mod family;
pub mod outcome;
pub mod pairs;
pub mod racing;
pub mod screening;

pub use checkpoint::{Checkpoint, CheckpointError, RunOptions};
pub use config::{DEFAULT_DIE_GAMES, Design, RaceConfig};
pub use family::{
    Family, FamilyError, MAX_DICE, MAX_FAMILY_FACES, MAX_PAIRS, MAX_SCREENED_DICE, max_dice,
    multiset_count, screened_units,
};
pub use outcome::{Condorcet, PairCounts, Race, RaceOutcome, RaceStatus};
pub use pairs::{PairSet, pair_index};
pub use racing::{RaceState, RoundInfo, Stage, race, race_from};
pub use screening::DieCounts;

use crate::exact::{ExactError, SolveOptions};
use crate::rank::store::PairStore;
use crate::rank::{PairFailure, exact_pair};
use crate::rules::Rules;
use crate::sim::MatchupError;
use crate::stats::Interval;
use crate::strategy::Strategy;
use serde::Serialize;
use std::fmt;

/// Why a search cannot run or stopped.
#[derive(Debug)]
pub enum SearchError {
    /// The family cannot be searched.
    Family(FamilyError),
    /// An error probability outside (0, 0.5].
    ErrorProbability(f64),
    /// An indifference outside [0, 0.5).
    Epsilon(f64),
    /// A game cap per pair that is not a positive whole number of chunks (1,024 games)
    /// of at most 10^13, or whose total over the pairs does not fit in 64 bits.
    GamesPerPair(u64),
    /// A cap on a die's sampled games (screening) that is not a positive whole number of
    /// chunks of at most 10^13.
    GamesPerDie(u64),
    /// Fewer than three top dice to look for cycles among.
    Top(usize),
    /// A roll cap of 0.
    NoRolls,
    /// A `table:FILE` strategy (its name): solved for one pair of dice, it cannot play a
    /// family.
    TableStrategy(String),
    /// Two dice of the family cannot be played against each other (roll-off).
    Matchup {
        /// One die.
        a: String,
        /// The other.
        b: String,
        /// Why.
        error: MatchupError,
    },
    /// The racing state could not be read back or written (`--store`).
    Checkpoint(CheckpointError),
    /// An exact confirmation failed (not for lack of memory: such pairs are marked).
    Confirmation {
        /// One die.
        a: String,
        /// The other.
        b: String,
        /// Why.
        cause: PairFailure,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Family(e) => write!(f, "{e}"),
            SearchError::ErrorProbability(d) => write!(
                f,
                "error probability {d}: expected a number in (0, 0.5], e.g. 0.01"
            ),
            SearchError::Epsilon(e) => write!(
                f,
                "indifference {e}: expected a number in [0, 0.5), e.g. 0.002"
            ),
            SearchError::GamesPerPair(g) => write!(
                f,
                "{g} games per pair: expected a positive multiple of {} of at most 10^13 \
                 whose total over all pairs fits in 64 bits",
                crate::sim::CHUNK_GAMES
            ),
            SearchError::GamesPerDie(g) => write!(
                f,
                "{g} sampled games per die: expected a positive multiple of {} of at most \
                 10^13",
                crate::sim::CHUNK_GAMES
            ),
            SearchError::Top(t) => {
                write!(f, "{t} top dice: a cycle needs at least 3")
            }
            SearchError::NoRolls => write!(f, "a roll cap of 0: expected at least 1 roll"),
            SearchError::TableStrategy(name) => write!(
                f,
                "{name}: a policy table is solved for one pair of dice on one board and \
                 refuses every other matchup, while a search plays every pair of the family; \
                 use one of the heuristics (safe is the strongest)"
            ),
            SearchError::Matchup { a, b, error } => write!(f, "{a} vs {b}: {error}"),
            SearchError::Checkpoint(e) => write!(f, "{e}"),
            SearchError::Confirmation { a, b, cause } => {
                write!(f, "exact confirmation of {a} vs {b}: {cause}")
            }
        }
    }
}

impl std::error::Error for SearchError {}

impl From<FamilyError> for SearchError {
    fn from(e: FamilyError) -> SearchError {
        SearchError::Family(e)
    }
}

/// One pair among the top candidates, solved exactly or marked as not solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Confirmation {
    /// Index of die A in the family.
    pub a: usize,
    /// Index of die B in the family.
    pub b: usize,
    /// P(A wins) from the race, with its interval at the search's risk.
    pub simulated: (f64, Interval),
    /// The exact figures, `None` when the pair does not fit in memory.
    pub exact: Option<ExactFigures>,
    /// Why the pair was not solved, or where its record came from.
    pub note: Option<String>,
}

/// The exact figures of a confirmed pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactFigures {
    /// P(A wins), exact.
    pub p_a: f64,
    /// Its certified bounds.
    pub interval: Interval,
    /// P(B wins), exact.
    pub p_b: f64,
    /// The solver that ran (or that the stored record names).
    pub solver: String,
    /// The certified bounds meet the race's interval: the simulation agrees.
    pub agrees: bool,
}

/// The dice the exact confirmation looks at: the best-mean candidates and the runner-up by
/// mean (the closest rival), the maximin die and its runner-up (unless that race is
/// undecided), the Condorcet winner,
/// then the next dice by mean; at most `limit`, in that order of priority.
pub fn confirmation_dice(outcome: &RaceOutcome, limit: usize) -> Vec<usize> {
    let mut by_mean: Vec<usize> = (0..outcome.n).collect();
    let means: Vec<f64> = by_mean.iter().map(|&i| outcome.mean_estimate(i)).collect();
    by_mean.sort_by(|&a, &b| means[b].total_cmp(&means[a]).then(a.cmp(&b)));
    let mut by_worst: Vec<usize> = (0..outcome.n).collect();
    let worst: Vec<f64> = by_worst.iter().map(|&i| outcome.worst(i).0).collect();
    by_worst.sort_by(|&a, &b| worst[b].total_cmp(&worst[a]).then(a.cmp(&b)));
    let mut wanted = vec![outcome.best_mean.leader];
    wanted.extend(&outcome.best_mean.candidates);
    wanted.extend(by_mean.iter().take(2));
    // An undecided maximin race names an arbitrary die among ties (e.g. every die's worst
    // case is 0 when some die lets no game end): no use confirming it.
    if outcome.maximin.status != RaceStatus::Undecided {
        wanted.push(outcome.maximin.leader);
        wanted.extend(by_worst.iter().take(2));
    }
    if let Condorcet::Winner(c) = outcome.condorcet {
        wanted.push(c);
    }
    // Room left: the next dice by mean.
    wanted.extend(by_mean.iter().take(limit));
    let mut chosen = Vec::new();
    for i in wanted {
        if chosen.len() < limit && !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen
}

/// Solves every pair among `dice` exactly where it fits in memory (`options.max_memory`),
/// reading and writing `store` as `rank --exact --store` does; a pair that does not fit
/// is kept with its simulated figure and a note.
///
/// Under `choice` the race simulated `strategy` on both sides, so the pair is solved with
/// both sides playing that fixed policy ([`crate::exact::game::solve_game`] with
/// [`Side::Fixed`](crate::exact::game::Side)), not under optimal play, whose figures would be
/// another game's. The pair store holds optimal-play records only under `choice`, so these
/// solves are not stored (a note says so); a solve that cannot certify the pair's figures
/// (games that can last forever under the two policies) is marked "not solved" too.
/// `pair_started` hears of each pair.
#[allow(clippy::too_many_arguments)]
pub fn confirm(
    rules: &Rules,
    family: &Family,
    outcome: &RaceOutcome,
    dice: &[usize],
    strategy: &Strategy,
    options: &SolveOptions,
    store: Option<&PairStore>,
    pair_started: &dyn Fn(&str),
) -> Result<Vec<Confirmation>, SearchError> {
    let mut confirmations = Vec::new();
    let total = dice.len() * dice.len().saturating_sub(1) / 2;
    for (x, &a) in dice.iter().enumerate() {
        for &b in &dice[x + 1..] {
            let (die_a, die_b) = (&family.dice()[a], &family.dice()[b]);
            pair_started(&format!(
                "{}/{total}: {die_a} vs {die_b}",
                confirmations.len() + 1
            ));
            let mut notes = Vec::new();
            let failure = |cause| SearchError::Confirmation {
                a: die_a.to_string(),
                b: die_b.to_string(),
                cause,
            };
            let solved = if rules.profile().choice {
                strategy_pair(rules, [die_a, die_b], strategy, options, &mut notes)
                    .map_err(|e| failure(PairFailure::Exact(e)))?
            } else {
                exact_pair(
                    rules,
                    die_a,
                    die_b,
                    options,
                    store,
                    &crate::exact::progress::unobserved,
                    &mut notes,
                )
                .map_err(failure)?
                .map(|r| (r.result, r.solver.clone()))
            };
            let simulated = outcome.p(a, b);
            let exact = solved.map(|(result, solver)| {
                let bounds = result.bounds.p_a;
                let interval = Interval {
                    lo: bounds.lo.max(0.0),
                    hi: bounds.hi.min(1.0),
                };
                ExactFigures {
                    p_a: result.p_a,
                    interval,
                    p_b: result.p_b,
                    solver,
                    agrees: interval.lo <= simulated.1.hi && simulated.1.lo <= interval.hi,
                }
            });
            confirmations.push(Confirmation {
                a,
                b,
                simulated,
                exact,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            });
        }
    }
    Ok(confirmations)
}

/// Under `choice`: `dice[0]` against `dice[1]`, both playing `strategy` (each resolved
/// against the other's die, as the simulation plays it), solved exactly; `None` with a note
/// when the pair does not fit in memory or its figures cannot be certified.
fn strategy_pair(
    rules: &Rules,
    dice: [&crate::dice::Die; 2],
    strategy: &Strategy,
    options: &SolveOptions,
    notes: &mut Vec<String>,
) -> Result<Option<(crate::exact::ExactResult, String)>, ExactError> {
    use crate::exact::game::{Side, solve_game};
    let policies = [strategy.seated(dice, 0), strategy.seated(dice, 1)];
    let sides = [Side::Fixed(&policies[0]), Side::Fixed(&policies[1])];
    let (a, b) = (dice[0], dice[1]);
    match solve_game(rules, dice, sides, options) {
        Ok(solution) if solution.pair_certified => {
            notes.push(format!(
                "{a} vs {b}: both playing {strategy}, solved exactly (not stored: the pair \
                 store keeps optimal-play records only under choice)"
            ));
            Ok(Some((
                solution.pair,
                format!("game with choices, both players {strategy}"),
            )))
        }
        Ok(_) => {
            notes.push(format!(
                "{a} vs {b}: not solved: the figures of both playing {strategy} could not \
                 be certified to the tolerance"
            ));
            Ok(None)
        }
        Err(e @ (ExactError::Memory { .. } | ExactError::TooLarge(_))) => {
            notes.push(format!("{a} vs {b}: not solved: {e}"));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}
