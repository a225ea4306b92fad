//! The solve: the value iteration of both sides, the optimal pair extracted from it and
//! its exact evaluation (steps 4 and 5 of the pipeline in [`super`]), and what a solve
//! returns, needs and reports while it runs.

use super::classify::classify;
use super::evaluate::{PairSpace, classify_pair, new_pair_store, pair_sweep, pair_value_sweep};
use super::policy::{MovePolicy, Pick, PolicyTable, decide};
use super::space::{self, GameSpace, flag};
use super::sweep::Store;
use super::value::{Bracket, mirror_applies, never, new_bracket, target_value, value_sweep};
use crate::dice::Die;
use crate::exact::shared::bounds::{Bounds, StateBounds};
use crate::exact::shared::options::SolveOptions;
use crate::exact::shared::{ExactError, ExactResult, ResultBounds, SolveStats};
use crate::fixpoint::{self, Stall, SweepReport};
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

/// How one side plays.
#[derive(Clone, Copy)]
pub enum Side<'a> {
    /// It optimises (A maximises the value, B minimises it).
    Optimal,
    /// It plays this fixed policy.
    Fixed(&'a dyn MovePolicy),
}

/// The solution of the game with choices for one pair of dice.
#[derive(Debug)]
pub struct GameSolution {
    /// The value `P(A wins) - P(B wins)` when A starts (A and B playing as asked: optimal
    /// sides optimise, fixed sides play their policy).
    pub value_if_a_starts: Bounds,
    /// The value when B starts.
    pub value_if_b_starts: Bounds,
    /// The value with the starting player by the profile.
    pub value: Bounds,
    /// Whether both openings' value brackets are at most the tolerance wide.
    pub value_certified: bool,
    /// Whether the bracket stopped narrowing before the tolerance (end components).
    pub value_stalled: bool,
    /// States from which both players together can keep the game going forever (0: the
    /// game is stopping, and the value iteration converges).
    pub end_component_states: u64,
    /// The figures of the pair played (the greedy pair for optimal sides), from its exact
    /// evaluation; or, where the value alone gives them ([`GameRun::evaluate_pair`] not
    /// set, a stopping game in which every state can still be won), those of every optimal
    /// pair: P(A wins) = (1 + v) / 2, P(never) = 0.
    pub pair: ExactResult,
    /// Whether the pair's figures are certified to the tolerance.
    pub pair_certified: bool,
    /// Whether the pair's value `V - W` lies in the game's value bracket (widened by the
    /// tolerance) at both openings: the extracted pair is optimal to that precision. `None`
    /// where the pair was not evaluated (its figures are the value's).
    pub pair_attains_value: Option<bool>,
    /// Sweeps of the value iteration.
    pub value_sweeps: usize,
    /// Whether the value iteration used the game's mirror symmetry ([`GameRun::mirror`]).
    pub mirrored: bool,
    /// Sweeps of the pair's evaluation (0 where it was not evaluated).
    pub pair_sweeps: usize,
    /// The pair played, per joint index and face slot (fixed sides: their policy's move;
    /// `None` if a fixed side mixes, which a table cannot hold).
    pub policy: Option<PolicyTable>,
    /// The state space (tables and flags), for looking up positions.
    pub space: GameSpace,
    /// The value bracket per joint index, if kept ([`solve_game_keeping_values`]).
    pub values: Option<Bracket>,
}

impl std::fmt::Debug for GameSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameSpace({} indices)", self.len())
    }
}

impl std::fmt::Debug for Store<2> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store<2>")
    }
}

/// Peak bytes of a solve over `len` joint indices with `slots` face slots of `pieces`-piece
/// configurations: the flags, then either the value bracket (2 `f64`) or, with the bracket
/// freed, the pair's store and the packed pair (plus the bracket if kept). The pair's store
/// counted is the larger, `V`, `W`, `Z` (3 `f64`), which a game where some play can go on
/// forever needs; where every play ends, the pair's own bracket (2 `f64`) does.
pub fn memory_bytes(len: u64, slots: u64, pieces: u32, keep_values: bool) -> u64 {
    peak_bytes(len, slots, pieces, keep_values, PairEvaluation::Chain)
}

/// [`memory_bytes`] with the pair evaluated as `how` says.
fn peak_bytes(len: u64, slots: u64, pieces: u32, keep_values: bool, how: PairEvaluation) -> u64 {
    let bracket = len * Bracket::BYTES_PER_INDEX;
    let pair = len * how.bytes_per_index() + policy_bytes(len, slots, pieces);
    len + if keep_values {
        bracket + pair
    } else {
        bracket.max(pair)
    }
}

/// Peak bytes of the same solve when the value alone gives the figures (no pair's chain to
/// evaluate): the flags and the value bracket, and the packed pair if it is extracted.
pub fn value_only_memory_bytes(len: u64, slots: u64, pieces: u32, extract_policy: bool) -> u64 {
    let policy = if extract_policy {
        policy_bytes(len, slots, pieces)
    } else {
        0
    };
    len + len * Bracket::BYTES_PER_INDEX + policy
}

/// Bytes of the packed pair over `len` indices and `slots` face slots.
fn policy_bytes(len: u64, slots: u64, pieces: u32) -> u64 {
    (len * slots * u64::from(PolicyTable::bits_for(pieces))).div_ceil(8)
}

/// Checks what the game solver supports: `choice` on, no `three-tries` (a tries counter per
/// state is not modelled here).
pub fn check_profile(rules: &Rules) -> Result<(), ExactError> {
    let p = rules.profile();
    if !p.choice {
        return Err(ExactError::Profile(format!(
            "profile {p}: the game solver solves the game with choices; add the switch choice"
        )));
    }
    if p.three_tries {
        return Err(ExactError::Profile(format!(
            "profile {p}: three-tries is not supported by the game solver yet"
        )));
    }
    Ok(())
}

/// Solves the game of `a` (A) against `b` (B) under `rules` (with `choice`), each side
/// optimal or fixed as `sides` says. See the module docs for what is certified.
///
/// Errors: [`ExactError::Options`], [`ExactError::Profile`] (no `choice`, or
/// `three-tries`), [`ExactError::RollOff`], [`ExactError::Memory`] (checked before the
/// joint flags are allocated), [`ExactError::TooLarge`], [`ExactError::NotConverged`] (the
/// sweep limit in a stopping game), and [`ExactError::Profile`] if a fixed policy picks a
/// move that is not legal.
pub fn solve_game(
    rules: &Rules,
    dice: [&Die; 2],
    sides: [Side<'_>; 2],
    options: &SolveOptions,
) -> Result<GameSolution, ExactError> {
    solve_game_with(rules, dice, sides, options, &GameRun::default())
}

/// What a running solve has done so far ([`GameRun::observer`]): a large board takes
/// minutes, and its sweeps are the only sign of life.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// The solve is sized and about to allocate: its joint indices, the bytes it will hold
    /// at its peak where some play can go on forever (an upper bound), and the bytes where
    /// every play ends with a win (no end component, every state can be won: known only
    /// after the classification; then the value alone gives the optimal figures, and a
    /// pair's chain, where asked for, is evaluated by its value bracket). The memory limit is
    /// checked against the second here and against the one that applies after the
    /// classification, before any sweep.
    Planned {
        /// Joint indices.
        indices: u64,
        /// Estimated peak bytes: an upper bound.
        bytes: u64,
        /// Estimated peak bytes where every play ends with a win.
        ending_bytes: u64,
        /// Estimated seconds of the search and classification of the states
        /// ([`Preparation::GameClassification`](crate::exact::shared::progress::Preparation)).
        classify_seconds: f64,
    },
    /// The states are found and classified.
    Classified {
        /// Reachable states.
        states: u64,
        /// Seconds since the solve started.
        seconds: f64,
    },
    /// A fixed side's strategy is being asked its move in every decision (a costly one,
    /// such as `strong`, is tabulated before the sweeps): after each block of joint indices.
    Tabulating {
        /// The side (0: A, 1: B).
        side: usize,
        /// The share of the joint indices done.
        done: f64,
        /// Seconds since the tabulation began.
        elapsed: f64,
        /// Seconds since the solve started.
        seconds: f64,
    },
    /// A sweep of the value iteration (`pair: false`) or of the pair's evaluation.
    Sweep {
        /// Whether this is the pair's evaluation.
        pair: bool,
        /// Sweeps so far in this phase.
        sweep: usize,
        /// The width still to close.
        gap: f64,
        /// Seconds since the solve started.
        seconds: f64,
    },
}

/// How [`solve_game_with`] runs, beyond the [`SolveOptions`] every exact solver shares.
#[derive(Clone, Copy)]
pub struct GameRun<'a> {
    /// Keep the value bracket of every state ([`GameSolution::values`]), for the move
    /// advisor.
    pub keep_values: bool,
    /// Evaluate the extracted pair's Markov chain even where the value alone gives the
    /// optimal figures (a stopping game in which every reachable state can still be won:
    /// there P(A wins) = (1 + v) / 2 under every optimal pair). The evaluation about doubles
    /// the work and checks that the extracted table attains the value
    /// ([`GameSolution::pair_attains_value`]).
    pub evaluate_pair: bool,
    /// Told what the solve has done after each phase and sweep.
    pub observer: &'a (dyn Fn(Progress) + Sync),
    /// Extract the pair played into a [`PolicyTable`] ([`GameSolution::policy`]): a pass over
    /// every decision, needed for a policy file and for [`style::style_of`](super::style::style_of). Always done
    /// where the pair is evaluated.
    pub extract_policy: bool,
    /// Use the mirror symmetry where the game has one ([`GameSpace::symmetric`]: the same
    /// die on both sides of a symmetric board) and both sides optimise: each sweep then
    /// solves half the cells and writes their mirror images into the other half
    /// ([`sweep::Mirror`](super::sweep::Mirror)). Off only to check the mirrored solve against the plain one.
    pub mirror: bool,
}

fn ignore_progress(_: Progress) {}

impl Default for GameRun<'_> {
    /// No values kept, the pair always evaluated and extracted, nobody told, the mirror used.
    fn default() -> Self {
        GameRun {
            keep_values: false,
            evaluate_pair: true,
            observer: &ignore_progress,
            extract_policy: true,
            mirror: true,
        }
    }
}

/// [`solve_game`] that keeps the value bracket of every state ([`GameSolution::values`]),
/// for the move advisor.
pub fn solve_game_keeping_values(
    rules: &Rules,
    dice: [&Die; 2],
    sides: [Side<'_>; 2],
    options: &SolveOptions,
) -> Result<GameSolution, ExactError> {
    let run = GameRun {
        keep_values: true,
        ..GameRun::default()
    };
    solve_game_with(rules, dice, sides, options, &run)
}

/// An input error of the exact layer that is not about the solve options' tolerance.
pub(crate) fn options_error(what: String) -> ExactError {
    ExactError::Profile(what)
}

fn bad_policy() -> ExactError {
    ExactError::Profile("a fixed strategy picked a move that is not legal".into())
}

/// What a sweep reports to [`fixpoint`]: its change and the width still to close, told to
/// `tell`; a sweep that found an illegal fixed pick (`None`) sets `bad` and reports nothing
/// left, so that the iteration stops and the caller returns the error.
fn sweep_report(
    change: Option<f64>,
    gap: impl FnOnce() -> f64,
    bad: &mut bool,
    tell: impl FnOnce(f64),
) -> SweepReport {
    match change {
        Some(change) => {
            let gap = gap();
            tell(gap);
            SweepReport { change, gap }
        }
        None => {
            *bad = true;
            SweepReport {
                change: 0.0,
                gap: 0.0,
            }
        }
    }
}

/// The figures of every pair in a game where every play ends with a win, from the pair's
/// value bracket `[lo, hi]` of `v = P(A wins) - P(B wins)`: P(A wins) = (1 + v) / 2,
/// P(B wins) = (1 - v) / 2, P(never) = 0, each certified to half the bracket's width.
pub(crate) fn figures_from_value(v: &Bounds) -> StateBounds {
    StateBounds {
        a: Bounds {
            lo: 0.5 * (1.0 + v.lo),
            hi: 0.5 * (1.0 + v.hi),
        },
        b: Bounds {
            lo: 0.5 * (1.0 - v.hi),
            hi: 0.5 * (1.0 - v.lo),
        },
        never: Bounds::ZERO,
    }
}

/// A bracket `[lo, hi]` of the value as its certified interval: both ends within `[-1, 1]`,
/// where the value lies (rounding can carry an iterate a few ulps past either end), and the
/// upper end not below the lower one after the lower one is clamped.
pub(crate) fn value_bounds([lo, hi]: [f64; 2]) -> Bounds {
    let lo = lo.clamp(-1.0, 1.0);
    Bounds {
        lo,
        hi: hi.clamp(lo, 1.0),
    }
}

/// How the pair's chain is evaluated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PairEvaluation {
    /// Every play of the game ends with a win (no end component, every reached state can
    /// reach a win): the pair's value bracket, two values a state iterated from -1 and +1,
    /// gives all its figures ([`figures_from_value`]).
    Value,
    /// Some play can go on forever: `V`, `W`, `Z` iterated from 0, three values a state.
    Chain,
}

impl PairEvaluation {
    /// Bytes a joint index of its store.
    fn bytes_per_index(self) -> u64 {
        match self {
            PairEvaluation::Value => Store::<2>::BYTES_PER_INDEX,
            PairEvaluation::Chain => Store::<3>::BYTES_PER_INDEX,
        }
    }
}

/// The exact figures of the pair of `pair` at both openings, iterated to the stopping rule
/// as `how` says, and the sweeps it took.
fn evaluate_pair(
    pair: &PairSpace<'_>,
    how: PairEvaluation,
    openings: [usize; 2],
    rule: &fixpoint::StopRule,
    both_fixed: bool,
    tell: &dyn Fn(bool, usize, f64),
) -> Result<(StateBounds, StateBounds, usize), ExactError> {
    if how == PairEvaluation::Value {
        return evaluate_pair_value(pair, openings, rule, tell);
    }
    let space = pair.space;
    classify_pair(pair);
    let store: Store<3> = new_pair_store(pair);
    let certify = |o: usize, store: &Store<3>| {
        if pair.never(o) {
            StateBounds::NEVER
        } else {
            let f = space.flag(o);
            StateBounds::certified(
                store.load(o),
                [f & flag::PAIR_WIN_A != 0, f & flag::PAIR_WIN_B != 0, true],
            )
        }
    };
    let mut bad = false;
    let gap = |store: &Store<3>| {
        openings
            .iter()
            .map(|&o| {
                let s = certify(o, store);
                // With both sides fixed the value is `V - W`: certify it too.
                let value = if both_fixed {
                    s.a.width() + s.b.width()
                } else {
                    0.0
                };
                s.width().max(value)
            })
            .fold(0.0, f64::max)
    };
    let convergence = fixpoint::iterate(rule, |done| {
        sweep_report(
            pair_sweep(pair, &store),
            || gap(&store),
            &mut bad,
            |gap| tell(true, done + 1, gap),
        )
    })
    .map_err(ExactError::NotConverged)?;
    if bad {
        return Err(bad_policy());
    }
    let [sa, sb] = openings.map(|o| certify(o, &store));
    Ok((sa, sb, convergence.sweeps))
}

/// [`evaluate_pair`] by the pair's value bracket ([`PairEvaluation::Value`]).
fn evaluate_pair_value(
    pair: &PairSpace<'_>,
    openings: [usize; 2],
    rule: &fixpoint::StopRule,
    tell: &dyn Fn(bool, usize, f64),
) -> Result<(StateBounds, StateBounds, usize), ExactError> {
    let bracket = new_bracket(pair.space);
    let value_at = |o: usize| value_bounds(bracket.load(o));
    let width = || {
        openings
            .map(|o| value_at(o).width())
            .into_iter()
            .fold(0.0, f64::max)
    };
    let mut bad = false;
    let convergence = fixpoint::iterate(rule, |done| {
        sweep_report(pair_value_sweep(pair, &bracket), width, &mut bad, |gap| {
            tell(true, done + 1, gap)
        })
    })
    .map_err(ExactError::NotConverged)?;
    if bad {
        return Err(bad_policy());
    }
    let [sa, sb] = openings.map(|o| figures_from_value(&value_at(o)));
    Ok((sa, sb, convergence.sweeps))
}

/// [`solve_game`] run as `run` says.
pub fn solve_game_with(
    rules: &Rules,
    dice: [&Die; 2],
    sides: [Side<'_>; 2],
    options: &SolveOptions,
    run: &GameRun<'_>,
) -> Result<GameSolution, ExactError> {
    let observer = run.observer;
    let keep_values = run.keep_values;
    let started = Instant::now();
    options.validate().map_err(ExactError::Options)?;
    check_profile(rules)?;
    let w = crate::exact::shared::p_a_starts(rules, dice[0], dice[1])?;
    crate::exact::shared::memory::check_enumeration(rules, &dice, options.max_memory)?;
    let players = [
        space::PlayerTable::new(rules, 0, dice[0]),
        space::PlayerTable::new(rules, 1, dice[1]),
    ];
    let configs = players.each_ref().map(|p| p.configs.len() as u64);
    let slots = players[0].faces.len().max(players[1].faces.len());
    let states = configs[0]
        .checked_mul(configs[1])
        .and_then(|p| p.checked_mul(2))
        .filter(|&n| n < 1 << 58)
        .ok_or_else(|| ExactError::TooLarge("the joint index overflows".into()))?;
    let Some(len) = usize::try_from(states)
        .ok()
        .filter(|&l| l < usize::MAX / 64)
    else {
        // More states than this machine addresses (a 32-bit WebAssembly module): too large
        // for its memory, like any solve that does not fit, with what it would need.
        let bytes = if states < 1 << 50 {
            peak_bytes(
                states,
                slots as u64,
                rules.board().pieces(),
                keep_values,
                PairEvaluation::Value,
            )
        } else {
            u64::MAX // beyond any machine; the estimate itself would overflow
        };
        return Err(ExactError::Memory {
            states,
            exact_count: false,
            configs,
            bytes,
            limit: options
                .max_memory
                .unwrap_or(u64::MAX)
                .min(usize::MAX as u64),
        });
    };
    // A costly policy is asked once per decision and played from a table; so is one that
    // plays a single move wherever the value iteration would ask it in every sweep (the
    // other side optimises): a lookup instead of the heuristic's work (`safe` builds the
    // opponent's threats), and A from a table is swept a row at a time.
    let value_iterated = sides.iter().any(|s| matches!(s, Side::Optimal));
    let to_tabulate = sides.map(|s| {
        matches!(s, Side::Fixed(p) if p.table().is_none()
            && (p.tabulate_first() || (value_iterated && p.picks_one())))
    });
    let tables = to_tabulate.iter().filter(|&&t| t).count() as u64;
    let tables_bytes = if tables == 0 {
        0
    } else {
        PolicyTable::bytes_for(len, slots, rules.board().pieces())
            .and_then(|b| b.checked_mul(tables))
            .ok_or_else(|| ExactError::TooLarge("the policy table overflows".into()))?
    };
    let tables_and_tabulated = players[0].heap_bytes() + players[1].heap_bytes() + tables_bytes;
    let peak = |how| {
        peak_bytes(
            len as u64,
            slots as u64,
            rules.board().pieces(),
            keep_values,
            how,
        ) + tables_and_tabulated
    };
    let bytes = peak(PairEvaluation::Chain);
    let check_memory = |needed: u64| match options.max_memory {
        Some(limit) if needed > limit => Err(ExactError::Memory {
            states: len as u64,
            exact_count: false,
            configs,
            bytes: needed,
            limit,
        }),
        _ => Ok(()),
    };
    // Two fixed sides, or a pair asked for, always evaluate the pair's chain.
    let both_fixed = sides.iter().all(|s| matches!(s, Side::Fixed(_)));
    let pair_always = run.evaluate_pair || both_fixed;
    let ending_bytes = if pair_always {
        peak(PairEvaluation::Value)
    } else {
        (value_only_memory_bytes(
            len as u64,
            slots as u64,
            rules.board().pieces(),
            run.extract_policy,
        ) + tables_and_tabulated)
            .min(bytes)
    };
    // Up front, what the solve needs at least; whether some play can go on forever (and a
    // pair's chain needs `V`, `W`, `Z`) is known after the classification, checked there
    // before any sweep.
    check_memory(ending_bytes)?;
    observer(Progress::Planned {
        indices: len as u64,
        bytes,
        ending_bytes,
        classify_seconds: crate::exact::shared::progress::Preparation::GameClassification
            .seconds(len as u64),
    });
    let space = GameSpace::new(rules, dice)
        .ok_or_else(|| ExactError::TooLarge("the joint index overflows".into()))?;
    let end_component_states = classify(&space);
    // Where no play can go on forever (no end component) and every reachable state can
    // still be won, every pair ends with a win, so P(A wins) = (1 + v)/2 for *every* optimal
    // pair: the value alone gives the figures, certified to half its width, and the pair's
    // chain need not be evaluated unless asked (`evaluate_pair`), which also checks that the
    // extracted table attains the value.
    // Reached minus those that can reach a win (inclusion-exclusion), added before it is
    // subtracted: `reached + both >= can_a + can_b`, so no step goes below 0.
    let never_states = (space.count(flag::REACHED)
        + space.count(flag::REACHED | flag::WIN_A | flag::WIN_B))
        - space.count(flag::REACHED | flag::WIN_A)
        - space.count(flag::REACHED | flag::WIN_B);
    let every_play_wins = end_component_states == 0 && never_states == 0;
    let from_value = !pair_always && every_play_wins;
    // Where every play ends with a win, a pair's chain is evaluated by its value bracket,
    // two values a state where `V`, `W`, `Z` take three.
    let (how, needed_bytes) = if every_play_wins {
        (PairEvaluation::Value, ending_bytes)
    } else {
        (PairEvaluation::Chain, bytes)
    };
    check_memory(needed_bytes)?;
    let openings = space.openings();
    let build_seconds = started.elapsed().as_secs_f64();
    observer(Progress::Classified {
        states: space.count(flag::REACHED),
        seconds: build_seconds,
    });
    let tell = |pair: bool, sweep: usize, gap: f64| {
        observer(Progress::Sweep {
            pair,
            sweep,
            gap,
            seconds: started.elapsed().as_secs_f64(),
        })
    };

    // A fixed policy to tabulate is asked once per decision, here, and played from its table.
    let mut tabulated: [Option<PolicyTable>; 2] = [None, None];
    for side in 0..2 {
        if let Side::Fixed(p) = sides[side]
            && to_tabulate[side]
        {
            let began = Instant::now();
            let report = |done: f64| {
                observer(Progress::Tabulating {
                    side,
                    done,
                    elapsed: began.elapsed().as_secs_f64(),
                    seconds: started.elapsed().as_secs_f64(),
                })
            };
            tabulated[side] = Some(match p.afterstate_value(rules, side) {
                Some(how) => super::afterstates::tabulate(&space, how, side, slots, &report)?,
                None => tabulate(&space, p, side, len, slots, &report)?,
            });
        }
    }
    // The value, from both ends.
    let fixed: [Option<&dyn MovePolicy>; 2] =
        [0, 1].map(|side| match (&tabulated[side], sides[side]) {
            (Some(table), _) => Some(table as &dyn MovePolicy),
            (None, Side::Optimal) => None,
            (None, Side::Fixed(p)) => Some(p),
        });
    let bracket: Bracket = new_bracket(&space);
    let rule = options.stop_rule();
    let mut bad = false;
    let value_width = |b: &Bracket| {
        openings
            .iter()
            .map(|&o| {
                if never(&space, o) {
                    0.0
                } else {
                    let [lo, hi] = b.load(o);
                    hi - lo
                }
            })
            .fold(0.0f64, f64::max)
    };
    let mirrored = run.mirror && mirror_applies(&space, fixed);
    let mut sweep = |done: usize| {
        sweep_report(
            value_sweep(&space, &bracket, fixed, mirrored),
            || value_width(&bracket),
            &mut bad,
            |gap| tell(false, done + 1, gap),
        )
    };
    let convergence = if both_fixed {
        // A chain, not a game: its value is the pair's `V - W`, evaluated below.
        fixpoint::Convergence {
            sweeps: 0,
            last_change: 0.0,
            gap: 0.0,
            ending: fixpoint::Ending::Converged,
        }
    } else if end_component_states == 0 {
        fixpoint::iterate(&rule, &mut sweep).map_err(ExactError::NotConverged)?
    } else {
        match fixpoint::iterate_until_stall(&rule, Stall::DEFAULT, &mut sweep) {
            Ok(c) => c,
            Err(e) => e.0,
        }
    };
    if bad {
        return Err(bad_policy());
    }
    let value_at = |o: usize| {
        if never(&space, o) {
            Bounds::ZERO
        } else {
            value_bounds(bracket.load(o))
        }
    };
    let [mut va, mut vb] = openings.map(value_at);

    // The pair played (greedy for optimal sides), and whether a table can hold it.
    let extracted = if run.extract_policy || !from_value {
        Some(extract_pair(&space, &bracket, fixed, len, slots)?)
    } else {
        None
    };
    let values = keep_values.then_some(bracket);

    // The pair's figures: from the value where it gives them (above), else from the pair's
    // chain.
    let (sa, sb, pair_sweeps) = if from_value {
        (figures_from_value(&va), figures_from_value(&vb), 0)
    } else {
        let Some((table, representable)) = &extracted else {
            return Err(ExactError::TooLarge(
                "the pair to evaluate was not extracted".into(),
            ));
        };
        let representable = *representable;
        let policies: [&dyn MovePolicy; 2] = [0, 1].map(|p| match sides[p] {
            // The table holds a fixed side's picks too wherever it does not mix: reading
            // them from the table costs a lookup per decision, asking the policy again in
            // every sweep costs the heuristic's work (`safe` builds the opponent's threats).
            Side::Fixed(f) if !representable => f,
            _ => table as &dyn MovePolicy,
        });
        let pair = PairSpace {
            space: &space,
            policies,
        };
        evaluate_pair(&pair, how, openings, &rule, both_fixed, &tell)?
    };
    let pair_certified = sa.width().max(sb.width()) <= options.tolerance;
    if both_fixed {
        let difference = |s: &StateBounds| Bounds {
            lo: s.a.lo - s.b.hi,
            hi: s.a.hi - s.b.lo,
        };
        va = difference(&sa);
        vb = difference(&sb);
    }
    let value_certified = va.width().max(vb.width()) <= options.tolerance;
    let attains = |s: &StateBounds, v: &Bounds| {
        let lo = s.a.lo - s.b.hi;
        let hi = s.a.hi - s.b.lo;
        hi >= v.lo - options.tolerance && lo <= v.hi + options.tolerance
    };
    let pair_attains_value = (!from_value).then(|| attains(&sa, &va) && attains(&sb, &vb));
    let bounds = ResultBounds::from_openings(w, sa.to_array(), sb.to_array());
    let states = space.count(flag::REACHED);
    let result = ExactResult::from_bounds(
        w,
        bounds,
        SolveStats {
            configs,
            product: len as u64,
            states,
            never_states,
            transitions: 0,
            self_loops: 0,
            iterations: convergence.sweeps,
            // The upper bound: the figures after the classification leave out the process's
            // own fixed part, which dominates on small boards.
            memory_bytes: bytes,
            build_seconds,
            solve_seconds: started.elapsed().as_secs_f64() - build_seconds,
        },
    );
    Ok(GameSolution {
        value_if_a_starts: va,
        value_if_b_starts: vb,
        value: va.mix(w, &vb),
        value_certified,
        value_stalled: convergence.stalled() && !value_certified,
        end_component_states,
        pair: result,
        pair_certified,
        pair_attains_value,
        value_sweeps: convergence.sweeps,
        mirrored,
        pair_sweeps,
        policy: extracted.and_then(|(table, representable)| representable.then_some(table)),
        space,
        values,
    })
}

/// `policy`'s move in every decision of `side` (joint indices with `index & 1 == side`), as
/// a table; entries of the other side and of single moves stay 0. An illegal or mixed pick
/// is the policy's error ([`bad_policy`]), never a silent frontmost.
fn tabulate(
    space: &GameSpace,
    policy: &dyn MovePolicy,
    side: usize,
    len: usize,
    slots: usize,
    done: &(dyn Fn(f64) + Sync),
) -> Result<PolicyTable, ExactError> {
    let mut table = PolicyTable::new(len, slots, space.rules.board().pieces())
        .ok_or_else(|| ExactError::TooLarge("the policy table overflows".into()))?;
    let bad = AtomicBool::new(false);
    table.par_fill_observed(
        |i, k| {
            if i & 1 != side || space.flag(i) & flag::REACHED == 0 || k >= space.faces(i).len() {
                return None;
            }
            let n = space.options(i, k, |_, _| {});
            if n < 2 {
                return None;
            }
            match decide(space, policy, i, k) {
                Pick::One(m) if m < n => Some(m),
                _ => {
                    bad.store(true, Ordering::Relaxed);
                    None
                }
            }
        },
        done,
    );
    if bad.into_inner() {
        return Err(bad_policy());
    }
    Ok(table)
}

/// The pair played, greedy from the value bracket's midpoints for optimal sides (ties to
/// the frontmost piece) and the fixed policy's picks for fixed sides, with whether a table
/// holds it (`false` if a fixed side mixes its moves).
fn extract_pair(
    space: &GameSpace,
    bracket: &Bracket,
    fixed: [Option<&dyn MovePolicy>; 2],
    len: usize,
    slots: usize,
) -> Result<(PolicyTable, bool), ExactError> {
    let mut table = PolicyTable::new(len, slots, space.rules.board().pieces())
        .ok_or_else(|| ExactError::TooLarge("the policy table overflows".into()))?;
    let mixes = AtomicBool::new(false);
    let illegal = AtomicBool::new(false);
    table.par_fill(|i, k| {
        if space.flag(i) & flag::REACHED == 0 || never(space, i) || k >= space.faces(i).len() {
            return None;
        }
        // Only an optimal side reads its options' values: a fixed side's pick is its
        // policy's, and loading values it ignores would cost a sweep's scattered reads.
        let optimal = fixed[i & 1].is_none();
        let mut mids = [0.0f64; 64];
        let n = space.options(i, k, |m, t| {
            if optimal {
                let [lo, hi] = target_value(bracket, t);
                mids[m] = 0.5 * (lo + hi);
            }
        });
        if n < 2 {
            return None;
        }
        Some(match fixed[i & 1] {
            Some(p) => match decide(space, p, i, k) {
                Pick::One(m) if m < n => m,
                Pick::One(_) => {
                    illegal.store(true, Ordering::Relaxed);
                    0
                }
                Pick::Uniform => {
                    mixes.store(true, Ordering::Relaxed);
                    0
                }
            },
            None => {
                let better = |x: f64, y: f64| if i & 1 == 0 { x > y } else { x < y };
                (1..n).fold(
                    0,
                    |best, m| if better(mids[m], mids[best]) { m } else { best },
                )
            }
        })
    });
    if illegal.into_inner() {
        return Err(bad_policy());
    }
    Ok((table, !mixes.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An iterate rounded a few ulps past -1 or +1 gives an interval inside [-1, 1] whose
    /// upper end is not below its lower end, and so figures inside [0, 1].
    #[test]
    fn a_bracket_rounded_past_an_end_gives_a_valid_interval() {
        let below = -1.0 - 2.0 * f64::EPSILON;
        let above = 1.0 + 2.0 * f64::EPSILON;
        for bracket in [
            [below, below],
            [below, -1.0],
            [above, above],
            [0.5, above],
            [-0.25, 0.25],
        ] {
            let v = value_bounds(bracket);
            assert!(
                -1.0 <= v.lo && v.lo <= v.hi && v.hi <= 1.0,
                "{bracket:?}: {v:?}"
            );
            let s = figures_from_value(&v);
            for b in [s.a, s.b] {
                assert!(
                    0.0 <= b.lo && b.lo <= b.hi && b.hi <= 1.0,
                    "{bracket:?}: {b:?}"
                );
            }
        }
        assert_eq!(value_bounds([below, below]), Bounds { lo: -1.0, hi: -1.0 });
    }
    use crate::exact::game::policy::Decision;
    use crate::exact::game::small_test_space;
    use crate::strategy::Strategy;

    /// A policy asked in every decision of every sweep: the one it wraps, never tabulated.
    struct AskedEverySweep<'a>(&'a dyn MovePolicy);

    impl MovePolicy for AskedEverySweep<'_> {
        fn pick(&self, decision: &Decision<'_>) -> Pick {
            self.0.pick(decision)
        }
    }

    /// A heuristic against an optimising opponent is played from its table: the same
    /// figures to the last bit (one thread) as when it is asked in every sweep, in either
    /// seat, on dice with and without a repeated face.
    #[test]
    fn a_tabulated_heuristic_gives_the_figures_of_one_asked_every_sweep() {
        let rules = Rules::new("16/8/2/2".parse().unwrap(), "choice".parse().unwrap());
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
            let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
            let dice = [&dice[0], &dice[1]];
            for (name, seat) in [("safe", 0), ("capture", 1)] {
                let heuristic = name.parse::<Strategy>().unwrap().seated(dice, seat);
                assert!(heuristic.picks_one());
                let asked = AskedEverySweep(&heuristic);
                let figures = |fixed: &dyn MovePolicy| {
                    let mut sides = [Side::Optimal, Side::Optimal];
                    sides[seat] = Side::Fixed(fixed);
                    let solution = one_thread
                        .install(|| solve_game(&rules, dice, sides, &SolveOptions::default()))
                        .unwrap();
                    assert!(solution.value_certified);
                    [solution.value_if_a_starts, solution.value_if_b_starts]
                        .map(|v| [v.lo.to_bits(), v.hi.to_bits()])
                };
                assert_eq!(
                    figures(&heuristic),
                    figures(&asked),
                    "{name} in seat {seat}, {a} against {b}"
                );
            }
        }
    }

    /// Where every play ends with a win, a fixed pair's value bracket gives the figures its
    /// `V`, `W`, `Z` chain gives: two different heuristics on two different dice (with a
    /// repeated face), both certified to the tolerance and overlapping at both openings.
    #[test]
    fn the_pairs_value_bracket_gives_the_figures_of_its_chain() {
        let dice: [Die; 2] = ["1..6".parse().unwrap(), "1,2,2,4,5,6".parse().unwrap()];
        let dice = [&dice[0], &dice[1]];
        let (space, end_states) = small_test_space(dice);
        assert_eq!(end_states, 0, "no end component with these dice");
        let strategies: [Strategy; 2] = [
            "safe".parse::<Strategy>().unwrap().seated(dice, 0),
            "capture".parse::<Strategy>().unwrap().seated(dice, 1),
        ];
        let pair = PairSpace {
            space: &space,
            policies: [&strategies[0], &strategies[1]],
        };
        let tolerance = 1e-11;
        let options = SolveOptions {
            tolerance,
            ..SolveOptions::default()
        };
        let openings = space.openings();
        let [value, chain] = [PairEvaluation::Value, PairEvaluation::Chain].map(|how| {
            evaluate_pair(
                &pair,
                how,
                openings,
                &options.stop_rule(),
                true,
                &|_, _, _| {},
            )
            .unwrap()
        });
        assert!(value.2 > 0 && chain.2 > 0);
        for (v, c) in [(value.0, chain.0), (value.1, chain.1)] {
            assert!(v.width() <= tolerance && c.width() <= tolerance);
            assert_eq!(v.never, Bounds::ZERO);
            for (x, y) in [(v.a, c.a), (v.b, c.b)] {
                assert!(x.lo <= y.hi && y.lo <= x.hi, "{x:?} against {y:?}");
            }
            // Not a game that ends at once: each side wins a fair share.
            assert!(v.a.lo > 0.2 && v.b.lo > 0.2, "{v:?}");
        }
    }
}
