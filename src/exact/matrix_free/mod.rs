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
//! ([`crate::exact::shared::search::reach`]) marks the reachable states in two bits of the flag
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
//! [`crate::exact::shared::search::can_reach`]), the update is monotone, so every iterate is a
//! lower bound everywhere, in any order and with any interleaving of threads. At the start
//! states `V <= P(A wins) <= 1 - W - Z` ([`StateBounds::certified`]); the solver stops
//! when that width is at most the tolerance at both openings. Without a never-ending state
//! every game ends with probability 1 and `P(never) = 0` exactly.
//!
//! Sizes, sweeps and times on the BwInf board are in the book (`docs/src/exact.md`,
//! `docs/src/performance.md`). With `f32` storage the certified width stalls near 1e-6.
//!
//! # Sparse `Z`
//! `Z` is exactly 0 at every state that cannot reach the never-ending set, and at every
//! state no game reaches. Where `f64` values with `Z` next to `V, W` for every state of the
//! product (dense, the fastest sweeps) do not fit the memory limit, one more boolean search
//! ([`crate::exact::shared::search::can_reach_never`], the "can reach a win" fixed point seeded
//! with the never-ending set) marks the reachable states that can reach it, and only they
//! keep `Z`, behind a rank index ([`storage::Values`]); the choice is `f64` dense, `f64`
//! sparse, `f32` dense, `f32` sparse, the first that fits, and the memory guard counts the
//! layout chosen ([`estimate_bytes`]). The certificate is unchanged (a `Z` not kept is the
//! exact 0), and so are the results: bit for bit on one thread.
//!
//! Nearly every reachable state can reach the never-ending set (while any piece can still
//! end short of the goal, so can the game), so the saving is the `Z` of the states of the
//! product no game reaches, about an eighth: enough to bring the three `wuerfel1.txt` pairs
//! among 4..9, 5..10 and 6..11 from `f32` into `f64` on the BwInf board ([`survey`] and
//! `cargo run --release --example z_storage -- BOARD bwinf A:B ..` measure it; the figures
//! are in `docs/src/performance.md`). Dice with a 1 and a 6 end every game and keep no `Z`.
//! Sparse `Z` costs time, because a read of `Z` touches the index and a second array
//! instead of the cache line of `V, W`; hence dense wherever it fits.
//!
//! # One value at a time
//! `V` and `W` satisfy separate linear systems over the same moves, so where both together
//! do not fit, `V` is iterated alone to the end (its openings kept, the rest dropped) and
//! then `W` alone in the same memory ([`storage::Components`], [`sweep::Run::go_apart`]):
//! half the memory of the values, for about 1.4 times the time on 20/10/4/4 (each sweep
//! moves half the bytes), the same certificate at the end. The plan tries `f64` together,
//! `f64` one at a time, `f32` together, `f32` one at a time, the first that fits; so a pair
//! that once fell to `f32` is certified in `f64` now where one value fits, and the pairs of
//! the example files too large for `f32` together (every game ends there, so no `Z`) fit
//! in `f32` one at a time. Not with a never-ending set (`Z` would be a third system with its
//! own fixed values) nor under `three-tries` (the tries levels are solved together).
//!
//! # Releasing finished blocks
//! One value at a time sweeps the blocks of goal counts one after another, and a block is
//! read only by itself and by the two blocks with one goal piece fewer of one player. So
//! once those are done its values can go ([`layout::release_schedule`]): they are given
//! back to the system ([`crate::exact::shared::huge::release`]) and read 0 afterwards, and the
//! values are allocated lazily, so a block takes memory only once it is swept
//! ([`Components::OneAtATimeReleasing`]). The sweeps then read only whether each side of a
//! pair is reachable, so the flag bytes of the searches are packed to those two bits
//! ([`layout::ReachedBits`]) and dropped. The peak is the values of the blocks held at
//! once, at the last block (no goal piece on either side) that block and the two it reads:
//! about two thirds of the values of one value at a time on the BwInf board, plus a
//! quarter byte a pair ([`releasing_bytes`]). Released values are gone, so no global sweep
//! can follow the block pass; the interval the openings' block reached is the result,
//! reported as stalled where it is wider than the tolerance. The plan tries it last within
//! each storage. On one thread the bounds are those of one value at a time to the last bit
//! wherever that needed no global sweep (a test checks it).
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
//! On the BwInf board the tries add states (the levels) but no memory and no sweeps;
//! `tests/full_board.rs` checks the values against the sparse solver and against simulation
//! (figures in `docs/src/performance.md`).

pub mod game;
pub(crate) mod layout;
pub(crate) mod stats;
pub(crate) mod storage;
pub(crate) mod sweep;
pub(crate) mod tries;

pub use storage::{Components, Storage, ZLayout};
pub use sweep::Work;

use crate::dice::Die;
use crate::exact::shared::bounds::StateBounds;
use crate::exact::shared::memory;
use crate::exact::shared::progress::{Observer, Preparation, Progress, unobserved};
use crate::exact::shared::search::{can_reach, can_reach_never, reach};
use crate::exact::shared::{
    ExactError, ExactResult, ResultBounds, SolveOptions, SolveStats, p_a_starts,
};
use crate::rules::Rules;
use game::Game;
use layout::{CAN_NEVER, CAN_WIN, GoalClass, REACHED, ReachedBits, SPREAD};
use storage::{F32Slot, F64Slot};
use sweep::{Iterated, Run};
use web_time::Instant;

/// Options of the matrix-free solver beyond [`SolveOptions`].
#[derive(Clone, Copy)]
pub struct FullOptions<'a> {
    /// Value storage.
    pub storage: Storage,
    /// Both values of a state in one sweep, or one at a time (half the memory).
    pub components: Components,
    /// Told the solve's size once its states are known and every sweep after
    /// ([`Progress`]).
    pub observer: Observer<'a>,
}

impl Default for FullOptions<'_> {
    /// Storage chosen by what fits; nobody told.
    fn default() -> Self {
        FullOptions {
            storage: Storage::Auto,
            components: Components::Auto,
            observer: &unobserved,
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
    /// The values carried by a sweep (never `Auto`).
    pub components: Components,
    /// How `Z` was kept (`None` without a never-ending state).
    pub z_layout: Option<ZLayout>,
    /// Passes of the "can reach a win" search.
    pub classify_sweeps: usize,
    /// Passes of the reachability search.
    pub reach_passes: usize,
    /// Passes of the "can reach the never-ending set" search (0 where it did not run: it
    /// runs only when dense `Z` does not fit).
    pub never_passes: usize,
    /// Reachable states that can reach the never-ending set (or are in it), the states that
    /// keep sparse `Z`; counted only when dense `Z` does not fit.
    pub z_states: Option<u64>,
    /// Under `f32` storage or with one value at a time: the iteration stopped gaining
    /// before the tolerance was reached; the intervals are as wide as they say.
    pub stalled: bool,
    /// Sweeps and cell updates of the value iteration.
    pub work: Work,
}

/// Bytes of the values, flags and tables of a matrix-free solve over `configs`
/// configurations, `value_bytes` bytes a value: `V` and `W` for every state of the
/// product (or one of them at a time, `components`), and with a never-ending set `z` =
/// `Some((layout, z_states))`: `Z` for every state or, sparse, for the `z_states` that can
/// reach it ([`storage::values_bytes`]); `tables` the per-player move tables
/// ([`memory::table_bytes`]).
pub fn estimate_bytes(
    configs: [u64; 2],
    components: Components,
    z: Option<(ZLayout, u64)>,
    value_bytes: u64,
    tables: u64,
) -> u64 {
    let cells = configs[0].saturating_mul(configs[1]);
    storage::values_bytes(
        cells.saturating_mul(2),
        components.per_state(),
        z,
        value_bytes,
    )
    .saturating_add(cells) // the flag byte per cell
    .saturating_add(tables)
    .saturating_add(memory::FIXED_BYTES)
}

/// Bytes of a solve with [`Components::OneAtATimeReleasing`] over the configurations in
/// the goal classes `classes` (of A, of B), `value_bytes` bytes a value, `tables` the move
/// tables: the larger of the searches (a flag byte per pair of configurations, and the
/// packed reachable bits made from them) and the sweeps (the values of the blocks held at
/// once, [`layout::releasing_peak_cells`], and the packed bits).
pub fn releasing_bytes(classes: [&[GoalClass]; 2], value_bytes: u64, tables: u64) -> u64 {
    let configs = classes.map(|c| c.iter().map(|k| k.range.len() as u64).sum::<u64>());
    let cells = configs[0].saturating_mul(configs[1]);
    let bits = ReachedBits::bytes(cells);
    let peak = layout::releasing_peak_cells(classes[0], classes[1]);
    let values = storage::values_bytes(peak.saturating_mul(2), 1, None, value_bytes);
    cells
        .max(values)
        .saturating_add(bits)
        .saturating_add(tables)
        .saturating_add(memory::FIXED_BYTES)
}

/// [`estimate_bytes`] or, releasing, [`releasing_bytes`], over the goal classes.
fn plan_bytes(
    classes: [&[GoalClass]; 2],
    components: Components,
    z: Option<(ZLayout, u64)>,
    value_bytes: u64,
    tables: u64,
) -> u64 {
    if components == Components::OneAtATimeReleasing {
        return releasing_bytes(classes, value_bytes, tables);
    }
    let configs = classes.map(|c| c.iter().map(|k| k.range.len() as u64).sum::<u64>());
    estimate_bytes(configs, components, z, value_bytes, tables)
}

/// What the boolean searches found, before any value is stored.
struct Searched {
    reach_passes: usize,
    classify_sweeps: usize,
    counts: stats::StateCounts,
}

/// Runs two boolean searches on a fresh game: the states reachable from the openings, and
/// those of them that can reach a win.
fn search_states(game: &Game) -> Searched {
    let (sa, sb) = game.start;
    let start = game.cell(sa, sb);
    // Either player may start: both sides of the opening pair.
    let reach_passes = reach(game, &[(start, 0), (start, 1)], REACHED, SPREAD);
    let classify_sweeps = can_reach(game, CAN_WIN, [CAN_WIN; 2], REACHED);
    Searched {
        reach_passes,
        classify_sweeps,
        counts: stats::count_states(game),
    }
}

/// The third search, needed only for sparse `Z`: marks the reachable states that can reach
/// the never-ending set; returns the passes and their number.
fn search_never(game: &Game) -> (usize, u64) {
    let passes = can_reach_never(game, CAN_WIN, CAN_NEVER, REACHED);
    (passes, stats::count_flag(game, CAN_NEVER))
}

/// What a matrix-free solve of a matchup would store, found by its searches alone (the
/// flag byte per pair of configurations and the tables, no values): for the memory plan
/// of pairs too large to solve here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Survey {
    /// Configurations of A and of B.
    pub configs: [u64; 2],
    /// Reachable states.
    pub states: u64,
    /// Reachable never-ending states.
    pub never_states: u64,
    /// Reachable states that keep `Z` (can reach the never-ending set).
    pub z_states: u64,
    /// [`estimate_bytes`] in `f64` with dense `Z` (no `Z` without a never-ending state).
    pub dense_f64_bytes: u64,
    /// [`estimate_bytes`] in `f64` with sparse `Z`.
    pub sparse_f64_bytes: u64,
    /// [`estimate_bytes`] in `f32` with dense `Z`.
    pub dense_f32_bytes: u64,
    /// [`estimate_bytes`] in `f32` with sparse `Z`.
    pub sparse_f32_bytes: u64,
}

/// Surveys die `a` (player 1) against die `b` (player 2): builds the game and runs the
/// searches of [`solve_full`], but stores no values. Needs one byte per pair of
/// configurations plus the tables.
pub fn survey(rules: &Rules, a: &Die, b: &Die) -> Result<Survey, ExactError> {
    if rules.profile().three_tries {
        return Err(ExactError::TooLarge(
            "the matrix-free solver does not support three-tries".into(),
        ));
    }
    let ordered = [Game::configs(rules, a), Game::configs(rules, b)];
    let configs = ordered.each_ref().map(|(c, _)| c.len() as u64);
    let tables = memory::table_bytes(rules, configs, [a, b]);
    let game = Game::new(rules, [a, b], ordered);
    let counts = search_states(&game).counts;
    let z_states = search_never(&game).1;
    let bytes = |layout: ZLayout, value_bytes: u64| {
        let z = (counts.never > 0).then_some((layout, z_states));
        estimate_bytes(configs, Components::Together, z, value_bytes, tables)
    };
    Ok(Survey {
        configs,
        states: counts.states,
        never_states: counts.never,
        z_states,
        dense_f64_bytes: bytes(ZLayout::Dense, 8),
        sparse_f64_bytes: bytes(ZLayout::Sparse, 8),
        dense_f32_bytes: bytes(ZLayout::Dense, 4),
        sparse_f32_bytes: bytes(ZLayout::Sparse, 4),
    })
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
    full: &FullOptions<'_>,
) -> Result<FullOutcome, ExactError> {
    let started = Instant::now();
    options.validate().map_err(ExactError::Options)?;
    crate::exact::shared::check_profile(rules)?;
    let p_start = p_a_starts(rules, a, b)?;
    memory::check_enumeration(rules, &[a, b], options.max_memory)?;
    let ordered = [Game::configs(rules, a), Game::configs(rules, b)];
    let configs = ordered.each_ref().map(|(c, _)| c.len() as u64);
    // The joint index as the sparse solver has it: sides and tries levels (only level 0
    // is stored, see `tries`).
    let product = memory::joint_indices(rules, configs);
    let fits = |bytes: u64| options.max_memory.is_none_or(|l| bytes <= l);
    let memory_error = |bytes: u64| ExactError::Memory {
        states: product,
        exact_count: false,
        configs,
        bytes,
        limit: options.max_memory.unwrap_or(u64::MAX),
    };
    // The least this solve can need: no `Z`, in the smallest allowed storage, one value at
    // a time, releasing, where that may be chosen.
    let tables = memory::table_bytes(rules, configs, [a, b]);
    let least_components = match full.components {
        _ if rules.profile().three_tries => Components::Together,
        Components::Together => Components::Together,
        _ => Components::OneAtATimeReleasing,
    };
    let classes = [&ordered[0].1[..], &ordered[1].1[..]];
    let first = plan_bytes(
        classes,
        least_components,
        None,
        full.storage.value_bytes(),
        tables,
    );
    if !fits(first) {
        return Err(memory_error(first));
    }
    let faces =
        memory::effective_faces(rules.board(), a) + memory::effective_faces(rules.board(), b);
    (full.observer)(Progress::Sizing {
        joint_indices: product,
        search_seconds: Preparation::MatrixFreeSearch { faces }.seconds(product),
        faces,
    });
    let mut game = Game::new(rules, [a, b], ordered);
    let Searched {
        reach_passes,
        classify_sweeps,
        counts,
    } = search_states(&game);
    let (sa, sb) = game.start;
    let start = game.cell(sa, sb);
    let never_states = counts.never;
    // The storage is chosen only now, when the never-ending set is known: `f64` before
    // `f32`, and dense `Z` (the fastest sweeps) before sparse `Z` (less memory).
    let k = if never_states > 0 { 3 } else { 2 };
    // One value at a time: only where `V` and `W` are all there is (no `Z`) and the cell
    // update has no tries levels ([`Components`]).
    let apart_possible = k == 2 && !game.three_tries;
    // Each storage with `V, W` together first, then one at a time; with `Z` dense first,
    // then sparse.
    let no_z = |c: Components| (c, None);
    let layouts: &[(Components, Option<ZLayout>)] = match full.components {
        c if c.one_at_a_time() && !apart_possible => {
            return Err(ExactError::Profile(format!(
                "one value at a time needs dice that end every game, without three-tries; \
                 {a} against {b} under {} has {}",
                rules.profile(),
                if never_states > 0 {
                    "games that never end"
                } else {
                    "three-tries"
                }
            )));
        }
        Components::OneAtATime => &[
            no_z(Components::OneAtATime),
            no_z(Components::OneAtATimeReleasing),
        ],
        Components::OneAtATimeReleasing => &[no_z(Components::OneAtATimeReleasing)],
        _ if k == 3 => &[
            (Components::Together, Some(ZLayout::Dense)),
            (Components::Together, Some(ZLayout::Sparse)),
        ],
        Components::Auto if apart_possible => &[
            no_z(Components::Together),
            no_z(Components::OneAtATime),
            no_z(Components::OneAtATimeReleasing),
        ],
        _ => &[no_z(Components::Together)],
    };
    let storages: &[Storage] = match full.storage {
        Storage::Auto => &[Storage::F64, Storage::F32],
        Storage::F64 => &[Storage::F64],
        Storage::F32 => &[Storage::F32],
    };
    // Sparse `Z` needs one more search: run only if no dense candidate before it fits.
    let mut never_search: Option<(usize, u64)> = None;
    let mut bytes_of = |storage: Storage, (components, layout): (Components, Option<ZLayout>)| {
        let z = layout.map(|l| match l {
            ZLayout::Dense => (l, 0),
            ZLayout::Sparse => (l, never_search.get_or_insert_with(|| search_never(&game)).1),
        });
        let classes = [&game.classes_a[..], &game.classes_b[..]];
        plan_bytes(classes, components, z, storage.value_bytes(), tables)
    };
    let mut candidates = storages
        .iter()
        .flat_map(|&s| layouts.iter().map(move |&l| (s, l)));
    let (storage, (components, z_layout), bytes) = loop {
        let Some((s, l)) = candidates.next() else {
            let smallest = bytes_of(
                *storages.last().expect("a storage"),
                layouts[layouts.len() - 1],
            );
            return Err(memory_error(smallest));
        };
        let bytes = bytes_of(s, l);
        if fits(bytes) {
            break (s, l, bytes);
        }
    };
    let (never_passes, z_states) = match never_search {
        Some((passes, z)) => (passes, Some(z)),
        None => (0, None),
    };
    let layout = z_layout.unwrap_or(ZLayout::Dense);
    // Releasing, the sweeps read the reachable bits alone: the flag bytes are given back.
    let reached = (components == Components::OneAtATimeReleasing).then(|| {
        let bits = ReachedBits::pack(&game.flags);
        game.flags = Vec::new();
        bits
    });
    let build_seconds = started.elapsed().as_secs_f64();
    (full.observer)(Progress::Planned {
        solver: crate::exact::shared::SolverUsed::MatrixFree(storage, components),
        states: counts.states,
        bytes,
        seconds: build_seconds,
        build_seconds: None,
    });
    // One value at a time sweeps every cell twice for the work of one sweep of both: so the
    // reports and `iterations` count sweeps of both, and the usual work stays the estimate.
    let sweep_unit = if components.one_at_a_time() {
        counts.cells.saturating_mul(2)
    } else {
        counts.cells
    };
    let run = Run {
        game: &game,
        rule: options.stop_rule(),
        cells: sweep_unit,
        observer: full.observer,
        started,
    };
    let solving = Instant::now();
    let Iterated {
        lower,
        stalled,
        work,
        sparse_z_states,
    } = match (storage, k) {
        _ if components.one_at_a_time() => match storage {
            Storage::F64 => run.go_apart::<F64Slot>(reached.as_ref())?,
            _ => run.go_apart::<F32Slot>(reached.as_ref())?,
        },
        (Storage::F64, 2) => run.go::<F64Slot, 2>(false, layout)?,
        (Storage::F64, _) => run.go::<F64Slot, 3>(false, layout)?,
        (_, 2) => run.go::<F32Slot, 2>(true, layout)?,
        _ => run.go::<F32Slot, 3>(true, layout)?,
    };
    let solve_seconds = solving.elapsed().as_secs_f64();
    if z_layout == Some(ZLayout::Sparse) && Some(sparse_z_states) != z_states {
        // The memory plan counted other states than the storage kept: a bug, not a result.
        return Err(ExactError::TooLarge(format!(
            "internal: {sparse_z_states} states keep Z, {z_states:?} were counted"
        )));
    }
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
            // Block sweeps cover part of the product: the work in units of full sweeps (of
            // both values).
            iterations: work.cell_updates.div_ceil(sweep_unit.max(1)) as usize,
            memory_bytes: bytes,
            build_seconds,
            solve_seconds,
        },
    );
    Ok(FullOutcome {
        result,
        storage,
        components,
        z_layout,
        classify_sweeps,
        reach_passes,
        never_passes,
        z_states,
        stalled,
        work,
    })
}
