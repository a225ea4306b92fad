//! The matrix-free exact solver for boards whose transition matrix does not fit: the full
//! BwInf board (40 fields, 4 pieces each) included.
//!
//! It is the shared exact layer ([`crate::exact`]) over one more successor function: the
//! per-player move and capture tables ([`game`]) instead of a stored matrix. Each file is
//! one idea: [`layout`] (the order of the configurations, the blocks, the flag bits),
//! [`game`] (the successor function over the tables), [`storage`] (`f64` or `f32` values),
//! [`sweep`] (the value iteration), [`stats`] (the sparse solver's counts).
//!
//! # Reachable states
//! Of the live pairs (those that can occur at all, see [`game`]) many states are still
//! never reached from the openings (the product pairs every configuration of A with every
//! one of B, whatever the captures this needs); the shared reachability search
//! ([`crate::exact::search::reach`]) marks the reachable states in two bits of the flag
//! byte the never-ending search already keeps, at no extra memory, and the sweeps update
//! only those. They are exactly the sparse solver's states, so `states`, `never_states`,
//! `transitions` and `self_loops` in [`SolveStats`] equal its counts ([`stats`]), which a
//! test checks.
//!
//! The reachable share of the live states: 1..6 vs 1..6 on 20/10/4/4 2.60e7 of 3.20e7; on
//! the BwInf board 1,1,1,6,6,6 vs 1,6,6,6,6,6 1.60e7 of 4.47e7. Single-threaded cell
//! updates at tolerance 1e-9 fell from 183.1e6 to 159.2e6 (-13 %) and from 327.5e6 to
//! 143.0e6 (-56 %); the results agree within the tolerance (2e-12 apart at 1e-9).
//!
//! # Certificate
//! As in [`crate::exact`]: `V`, `W`, `Z` start at 0 (with `Z = 1` held on the never-ending
//! set, found first by the shared boolean fixed point "can reach a win",
//! [`crate::exact::search::can_reach`]), the update is monotone, so every iterate is a
//! lower bound everywhere, in any order and with any interleaving of threads. At the start
//! states `V <= P(A wins) <= 1 - W - Z` ([`StateBounds::certified`]); the solver stops
//! when that width is at most the tolerance at both openings. Without a never-ending state
//! every game ends with probability 1 and `P(never) = 0` exactly.
//!
//! # Measured (BwInf board, tolerance 1e-9, 2 cores, global sweeps only)
//! | matchup | configurations | live states | memory | sweeps | time |
//! |---|---|---|---|---|---|
//! | 1,1,1,6,6,6 vs 1,6,6,6,6,6 | 5,001 × 5,001 | 4.47e7 | 0.89 GB | 16-18 | 8.4 s |
//! | 1..6 vs 1..6 | 14,798 × 14,798 | 3.76e8 | 7.3 GB | 19-21 | 147 s (261 s on a loaded machine) |
//!
//! With `f32` storage the first pair stalls at a certified width of about 1.4e-6.
//!
//! # `three-tries`
//! The tries counter (0, 1, 2) is part of the state, but only level 0 is stored: another
//! try moves nothing, so levels 1 and 2 are never read from outside their cell, and the
//! cell update solves all levels of the cell together exactly ([`tries`]). So `three-tries`
//! costs no memory (the estimate, [`estimate_bytes`], is the same as without it) and
//! changes nothing for the other profiles (the cell update is compiled without the tries
//! branch there). The reachability and "can reach a win" searches see a state's levels as
//! one turn; [`stats`] counts every level as the sparse solver does (the counts agree, a
//! test checks them, as it checks the values against the sparse solver under every
//! combination of switches).
//!
//! Measured on the BwInf board, tolerance 1e-9, `solve --a 1,1,1,6,6,6 --b 1,6,6,6,6,6
//! --profile bwinf+three-tries --tolerance 1e-9 --matrix-free`: 1.601e7 states (1.597e7
//! without the tries) of 1.50e8 joint indices, 0.85 GiB (as without), 15 sweep equivalents
//! (as without), 22.5-56 s on the loaded machine where the same run without the tries took
//! 18.7-29.7 s back to back; agrees with the sparse solver (which still fits here, at 1.44
//! GiB, and which `solve_fitting` chooses) to 5e-11, the same states and transitions.
//! 1..6 vs 1..6 under `three-tries` needs the same 7.3 GB as without (not run: the shared
//! machine did not have them free).

pub mod game;
pub mod layout;
pub mod stats;
pub mod storage;
pub mod sweep;
pub mod tries;

pub use storage::Storage;
pub use sweep::Work;

use super::bounds::StateBounds;
use super::search::{can_reach, reach};
use super::{ExactError, ExactResult, ResultBounds, SolveOptions, SolveStats, memory, p_a_starts};
use crate::dice::Die;
use crate::rules::Rules;
use game::Game;
use layout::{CAN_WIN, REACHED, SPREAD};
use std::time::Instant;
use storage::{F32Slot, F64Slot};
use sweep::{Iterated, Run};

/// Options of the matrix-free solver beyond [`SolveOptions`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullOptions {
    /// Value storage.
    pub storage: Storage,
}

impl Default for FullOptions {
    fn default() -> Self {
        FullOptions {
            storage: Storage::Auto,
        }
    }
}

/// A matrix-free solve with what the plain [`ExactResult`] does not say.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FullOutcome {
    /// The result (intervals certified in either storage).
    pub result: ExactResult,
    /// The storage used (`F64` or `F32`, never `Auto`).
    pub storage: Storage,
    /// Passes of the "can reach a win" search.
    pub classify_sweeps: usize,
    /// Passes of the reachability search.
    pub reach_passes: usize,
    /// Under `f32`: the iteration stopped gaining before the tolerance was reached; the
    /// intervals are as wide as they say.
    pub stalled: bool,
    /// Sweeps and cell updates of the value iteration.
    pub work: Work,
}

/// Bytes of the values, flags and tables of a matrix-free solve over `configs`
/// configurations, with `components` values per state of `value_bytes` bytes each.
pub fn estimate_bytes(configs: [u64; 2], components: u64, value_bytes: u64) -> u64 {
    let cells = configs[0].saturating_mul(configs[1]);
    cells
        .saturating_mul(2 * components * value_bytes)
        .saturating_add(cells) // the flag byte per cell
        .saturating_add(memory::FIXED_BYTES)
}

/// Solves die `a` (player 1) against die `b` (player 2) exactly without a transition matrix, with the
/// storage chosen automatically (`f64` if it fits `options.max_memory`, else `f32`).
///
/// Errors: [`ExactError::Options`] for options no solver can honour,
/// [`ExactError::Memory`] (with `states` the joint index `2 × configs(A) × configs(B)`,
/// times 3 tries levels under `three-tries`) when not even `f32` storage fits,
/// [`ExactError::RollOff`], [`ExactError::NotConverged`].
pub fn solve_full(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<ExactResult, ExactError> {
    solve_full_with(rules, a, b, options, &FullOptions::default()).map(|o| o.result)
}

/// [`solve_full`] with the storage chosen by `full`, and the details of the run.
pub fn solve_full_with(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
    full: &FullOptions,
) -> Result<FullOutcome, ExactError> {
    let started = Instant::now();
    options.validate().map_err(ExactError::Options)?;
    let p_start = p_a_starts(rules, a, b)?;
    let ordered = [Game::configs(rules, a), Game::configs(rules, b)];
    let configs = ordered.each_ref().map(|(c, _)| c.len() as u64);
    // The joint index as the sparse solver has it: sides and tries levels (only level 0
    // is stored, see `tries`).
    let product = configs[0] * configs[1] * 2 * u64::from(memory::tries_levels(rules));
    let fits = |bytes: u64| options.max_memory.is_none_or(|l| bytes <= l);
    let memory_error = |bytes: u64| ExactError::Memory {
        states: product,
        exact_count: false,
        configs,
        bytes,
        limit: options.max_memory.unwrap_or(u64::MAX),
    };
    // The least this solve can need: two components in the smallest allowed storage.
    let first = estimate_bytes(configs, 2, full.storage.value_bytes());
    if !fits(first) {
        return Err(memory_error(first));
    }
    let game = Game::new(rules, [a, b], ordered);
    let (sa, sb) = game.start;
    let start = game.cell(sa, sb);
    // Either player may start: both sides of the opening pair.
    let reach_passes = reach(&game, &[(start, 0), (start, 1)], REACHED, SPREAD);
    let classify_sweeps = can_reach(&game, CAN_WIN, [CAN_WIN; 2], REACHED);
    let counts = stats::count_states(&game);
    let never_states = counts.never;
    // The storage is chosen only now: a reachable never-ending state needs a third
    // component, and `f64` for two components may fit where it does not fit for three.
    let k = if never_states > 0 { 3 } else { 2 };
    let storage = match full.storage {
        Storage::Auto if fits(estimate_bytes(configs, k, 8)) => Storage::F64,
        Storage::Auto => Storage::F32,
        s => s,
    };
    let bytes = estimate_bytes(configs, k, storage.value_bytes());
    if !fits(bytes) {
        return Err(memory_error(bytes));
    }
    let build_seconds = started.elapsed().as_secs_f64();
    let run = Run {
        game: &game,
        rule: options.stop_rule(),
    };
    let solving = Instant::now();
    let Iterated {
        lower,
        stalled,
        work,
    } = match (storage, k) {
        (Storage::F64, 2) => run.go::<F64Slot, 2>(false)?,
        (Storage::F64, _) => run.go::<F64Slot, 3>(false)?,
        (_, 2) => run.go::<F32Slot, 2>(true)?,
        _ => run.go::<F32Slot, 3>(true)?,
    };
    let solve_seconds = solving.elapsed().as_secs_f64();
    let opening = |side: usize| {
        if k == 3 && game.side_flags(start, side) & CAN_WIN == 0 {
            StateBounds::NEVER
        } else {
            StateBounds::certified(lower[side], [true, true, never_states > 0])
        }
    };
    let bounds = ResultBounds::from_openings(p_start, opening(0).to_array(), opening(1).to_array());
    let result = ExactResult::from_bounds(
        p_start,
        bounds,
        SolveStats {
            configs,
            product,
            states: counts.states,
            never_states,
            transitions: counts.transitions,
            self_loops: counts.self_loops,
            // Block sweeps cover part of the product: the work in units of full sweeps.
            iterations: work.cell_updates.div_ceil(counts.cells.max(1)) as usize,
            memory_bytes: bytes,
            build_seconds,
            solve_seconds,
        },
    );
    Ok(FullOutcome {
        result,
        storage,
        classify_sweeps,
        reach_passes,
        stalled,
        work,
    })
}
