//! The sparse-matrix solver: a matchup's chain built as a sparse matrix
//! ([`transitions`]), its states classified and the certified value iteration run on it
//! ([`solve`]). Steps 1 to 5 of the pipeline in [`crate::exact`]; [`Model`] holds the built
//! chain, [`solve_matchup`] builds and solves it. Fastest where the chain fits in memory
//! ([`crate::exact::choose`] picks it then).

pub mod solve;
pub(crate) mod transitions;

use crate::dice::Die;
use crate::exact::shared::SolverUsed;
use crate::exact::shared::encode::StateEncoder;
use crate::exact::shared::memory;
use crate::exact::shared::progress::{Observer, Phase, Preparation, Progress, unobserved};
use crate::exact::shared::reachable::{self, StateSet};
use crate::exact::shared::{
    ExactError, ExactResult, MemoryEstimate, ResultBounds, SolveOptions, SolveStats, check_profile,
    p_a_starts,
};
use crate::rules::Rules;
use solve::{Classes, Values};
use transitions::Chain;
use web_time::Instant;

/// A matchup's chain, built and classified, ready to iterate.
#[derive(Clone, Debug)]
pub struct Model {
    /// State encoder (both players' configuration indices and the joint index).
    pub encoder: StateEncoder,
    /// The reachable transient states over the joint index.
    pub states: StateSet,
    /// The transition matrix and absorption probabilities.
    pub chain: Chain,
    /// What each state can reach.
    pub classes: Classes,
    /// P(A starts).
    pub p_a_starts: f64,
    /// Estimated peak memory.
    pub memory_bytes: u64,
    /// Seconds spent building.
    pub build_seconds: f64,
}

impl Model {
    /// Enumerates, builds and classifies the chain of `a` (player 1) against `b`, refusing
    /// when the memory estimate exceeds `options.max_memory`.
    pub fn build(
        rules: &Rules,
        a: &Die,
        b: &Die,
        options: &SolveOptions,
    ) -> Result<Model, ExactError> {
        Model::build_observed(rules, a, b, options, &unobserved)
    }

    /// [`Model::build`] telling `observer` the states and bytes once they are known,
    /// before the matrix is built ([`Progress::Planned`]).
    pub fn build_observed(
        rules: &Rules,
        a: &Die,
        b: &Die,
        options: &SolveOptions,
        observer: Observer<'_>,
    ) -> Result<Model, ExactError> {
        let started = Instant::now();
        options.validate().map_err(ExactError::Options)?;
        check_profile(rules)?;
        let p_a_starts = p_a_starts(rules, a, b)?;
        let check = |e: &MemoryEstimate, exact_count: bool| match options.max_memory {
            Some(limit) if e.bytes > limit => Err(ExactError::Memory {
                states: e.states,
                exact_count,
                configs: e.configs,
                bytes: e.bytes,
                limit,
            }),
            _ => Ok(()),
        };
        memory::check_enumeration(rules, &[a, b], options.max_memory)?;
        let configs = [
            reachable::player_configs(rules, a),
            reachable::player_configs(rules, b),
        ];
        let sizes = [configs[0].len() as u64, configs[1].len() as u64];
        let max_faces = memory::max_outcomes(rules, a, b);
        let estimate_of = |states: u64| {
            MemoryEstimate::new(
                sizes,
                memory::joint_indices(rules, sizes),
                states,
                max_faces,
            )
        };
        let levels = memory::tries_levels(rules);
        let [ca, cb] = configs;
        let encoder = StateEncoder::new(ca, cb, levels)
            .ok_or_else(|| ExactError::TooLarge("the joint index overflows 64 bits".into()))?;
        let product = encoder.coder.len();
        // Before the search, with the states bounded from above.
        // The bound visits every pair of configurations: where the product's bit map alone
        // is over the limit, the product is bound enough (and the bound would take hours).
        check(
            &MemoryEstimate {
                states: product,
                ..estimate_of(0)
            },
            false,
        )?;
        let bound = memory::state_bound(rules, &encoder.a, &encoder.b);
        check(&estimate_of(bound), false)?;
        if product / 64 > usize::MAX as u64 / 8 {
            return Err(ExactError::TooLarge(format!("{product} joint indices")));
        }
        // Both searches follow every distinct face's move (`Preparation`).
        let faces =
            memory::effective_faces(rules.board(), a) + memory::effective_faces(rules.board(), b);
        observer(Progress::Sizing {
            joint_indices: product,
            search_seconds: Preparation::SparseSearch { faces }.seconds(product),
            faces,
        });
        let states = reachable::joint_states(rules, [a, b], &encoder);
        if states.len() >= u64::from(u32::MAX) {
            return Err(ExactError::TooLarge(format!(
                "{} states exceed the 32-bit row index",
                states.len()
            )));
        }
        let estimate = estimate_of(states.len());
        check(&estimate, true)?;
        observer(Progress::Planned {
            solver: SolverUsed::Sparse,
            states: states.len(),
            bytes: estimate.bytes,
            seconds: started.elapsed().as_secs_f64(),
            build_seconds: Some(Preparation::SparseMatrix { faces }.seconds(states.len())),
        });
        let chain = transitions::build_chain(rules, [a, b], &encoder, &states);
        let classes = Classes::of(&chain);
        Ok(Model {
            encoder,
            states,
            chain,
            classes,
            p_a_starts,
            memory_bytes: estimate.bytes,
            build_seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Runs the value iteration and summarises the two openings.
    pub fn solve(&self, options: &SolveOptions) -> Result<(ExactResult, Values), ExactError> {
        self.solve_observed(options, &unobserved)
    }

    /// [`Model::solve`] telling `observer` every sweep ([`Progress::Sweep`]; its seconds
    /// count from the start of the build).
    pub fn solve_observed(
        &self,
        options: &SolveOptions,
        observer: Observer<'_>,
    ) -> Result<(ExactResult, Values), ExactError> {
        let started = Instant::now();
        options.validate().map_err(ExactError::Options)?;
        let mut values = Values::new(&self.classes);
        let rule = options.stop_rule();
        let convergence = solve::iterate(
            &self.chain,
            &self.classes,
            &mut values,
            &self.chain.openings,
            &rule,
            &|updates, width| {
                observer(Progress::Sweep {
                    phase: Phase::Openings,
                    updates,
                    per_sweep: self.chain.states() as u64,
                    width,
                    seconds: self.build_seconds + started.elapsed().as_secs_f64(),
                })
            },
        )
        .map_err(ExactError::NotConverged)?;
        let solve_seconds = started.elapsed().as_secs_f64();
        let [sa, sb] = self
            .chain
            .openings
            .map(|i| values.bounds(&self.classes, i as usize));
        let w = self.p_a_starts;
        let bounds = ResultBounds::from_openings(w, sa.to_array(), sb.to_array());
        let result = ExactResult::from_bounds(
            w,
            bounds,
            SolveStats {
                configs: [self.encoder.a.len() as u64, self.encoder.b.len() as u64],
                product: self.encoder.coder.len(),
                states: self.chain.states() as u64,
                never_states: self.classes.never,
                transitions: self.chain.transitions(),
                self_loops: self.chain.self_loops,
                iterations: convergence.sweeps,
                memory_bytes: self.memory_bytes,
                build_seconds: self.build_seconds,
                solve_seconds,
            },
        );
        Ok((result, values))
    }
}

/// Solves die `a` (player 1) against die `b` (player 2) exactly under `rules`.
///
/// Errors: [`ExactError::Options`] for options no solver can honour (checked first),
/// [`ExactError::Memory`] when the estimated peak memory exceeds
/// `options.max_memory` (checked before anything large is built),
/// [`ExactError::RollOff`] under `roll-off` with dice that always tie, and
/// [`ExactError::NotConverged`] if `options.max_sweeps` sweeps were not enough.
pub fn solve_matchup(
    rules: &Rules,
    a: &Die,
    b: &Die,
    options: &SolveOptions,
) -> Result<ExactResult, ExactError> {
    let model = Model::build(rules, a, b, options)?;
    model.solve(options).map(|(result, _)| result)
}
