//! Training on the exact values of a solved game.
//!
//! Where the game with choices is solved (the boards of [`crate::exact::game`]), the value
//! of every position is known: self-play's λ-returns, estimates of an estimate, are then
//! not the best a network can learn from. Here the game is solved first (both players
//! optimal, the value bracket of every state kept), and the network is fitted to the
//! bracket's midpoints by the same squared-error step as self-play's
//! ([`crate::strategy::network::Network::step_towards`]).
//!
//! Which positions it learns matters as much: the player compares the positions its legal
//! moves lead to, so at every decision (a roll with two or more legal moves) of the games
//! played during training, *every* legal move's next position is a training example, not
//! only the one played. The games cover the positions the player will meet: in one game of
//! three both sides play the network's choice, in the other two one side (A, then B) plays
//! the exact best move, so the network also sees where strong opponents lead it; and every
//! move is a uniformly random legal one with a small probability, so that positions after
//! mistakes are seen too. The first side to move alternates from game to game. With
//! [`Positions::EveryRoll`] the position before every roll is learnt as well: play also
//! reaches positions after forced moves and after rolls without a move, which the
//! decisions' next positions do not include, and `strong-search` looks at them.
//!
//! # Exact only where the values are known
//! On a board too large to solve whole, such as the real one, a layered solve gives the
//! values of some groups only: those outside the opening's core (`solve --layered --part
//! outside-core --values-out DIR`). With [`ExactTargets::values`] the targets are read from
//! such a folder, and a position of a group it does not hold is learnt as self-play learns
//! ([`super::lambda_returns`]): its λ-return, which ends in the exact value where the game
//! enters a group the folder holds (a game never leaves the groups a piece home has
//! reached, so from the core on it enters them once and for all). There the side that
//! would play the exact best move plays the network's choice, unless every legal move's
//! next position has an exact value.
//!
//! The solve runs on the threads of the pool; the training on one thread from one seeded
//! stream. On one thread the solve's midpoints are the same from run to run, and so are
//! the parameters, bit for bit; on several, the last bits of a midpoint can differ with the
//! order in which the threads met the states.

use super::{Step, TrainSettings, TrainingCounts, lambda_returns, self_play, training};
use crate::exact::SolveOptions;
use crate::exact::game::layered::LayeredValues;
use crate::exact::game::{GameRun, GameSolution, Side, solve_game_with};
use crate::rules::{GameState, PieceMove, Player, Rules};
use crate::sim::GameRng;
use crate::strategy::network::{Encoder, Evaluator, Network};
use crate::strategy::{StrongPlayer, Trained};
use crate::work::notes::GameSolveNotes;
use crate::work::{Error, Progress};
use rand::{RngExt, SeedableRng};
use std::cell::Cell;

/// How the exact targets are made and the positions chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactTargets {
    /// The solve's tolerance: the widest value bracket at the openings (the midpoints are
    /// then within half of it of the value there). Unused with [`ExactTargets::values`].
    pub tolerance: f64,
    /// Read the values from this folder of a layered solve (`--values-out`) instead of
    /// solving the game; positions of the groups it does not hold learn λ-returns.
    pub values: Option<std::path::PathBuf>,
    /// The probability that a move of the training games is a uniformly random legal one.
    pub explore: f32,
    /// Which positions of the training games are learnt.
    pub positions: Positions,
    /// The solve is refused, before it allocates, if its estimated memory exceeds this.
    pub max_memory: Option<u64>,
}

/// The positions of a training game whose exact values are learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// At each decision, every legal move's next position: what `strong` compares.
    AfterMoves,
    /// Those, and the position before every roll: play also reaches positions after
    /// forced moves and rolls without one, and the look-ahead of `strong-search` values
    /// them.
    EveryRoll,
}

impl Positions {
    /// The name of the command line's `--positions`.
    pub fn name(self) -> &'static str {
        match self {
            Positions::AfterMoves => "after-moves",
            Positions::EveryRoll => "every-roll",
        }
    }
}

/// The most sweeps the solve may take: far more than any solved board needs at the
/// tolerances allowed; a solve that has not closed its bracket by then is refused.
const MAX_SWEEPS: usize = 10_000;

/// Where the exact values come from.
enum Source {
    /// The game solved here, every state's bracket kept.
    Solved(Box<GameSolution>),
    /// The groups of a layered solve's folder; positions of other groups have none.
    Folder(Box<LayeredValues>),
}

/// A position's exact value from the side to move, and the width of its bracket.
#[derive(Clone, Copy)]
struct Exact {
    value: f64,
    width: f64,
}

/// The exact value of every position the source holds, from the side to move.
struct ExactValues {
    source: Source,
    /// The widest bracket looked up so far: the stopping rule certifies those of the
    /// openings only, and the player file says how wide the learnt ones really were.
    widest: Cell<f64>,
}

impl ExactValues {
    /// The value `P(mover wins) - P(other wins)` of the position before `mover` rolls,
    /// `own` being `mover`'s pieces: the midpoint of its certified bracket, and the
    /// bracket's width; `None` where the source holds no value for it (a folder without its
    /// group).
    fn for_mover(&self, own: u64, other: u64, mover: Player) -> Result<Option<Exact>, Error> {
        let pieces = if mover == 0 {
            [own, other]
        } else {
            [other, own]
        };
        let state = GameState {
            pieces,
            to_move: mover as u8,
            tries: 0,
        };
        let space = match &self.source {
            Source::Solved(solution) => &solution.space,
            Source::Folder(values) => values.space(),
        };
        // Every position of legal play lies in the game's space (it is closed under every
        // legal move): one outside it is a bug, never a silent zero.
        let index = space.encode(&state).ok_or_else(|| {
            Error::failure(format!(
                "training on exact values: the position {pieces:?} with {mover} to move is not in the solved game"
            ))
        })?;
        let [lo, hi] = match &self.source {
            Source::Solved(solution) => solution
                .values
                .as_ref()
                .expect("the solve keeps its values")
                .load(index),
            Source::Folder(values) => match values
                .bracket_at(index)
                .map_err(|e| Error::input(format!("--values: {e}")))?
            {
                Some(b) => [b.lo, b.hi],
                None => return Ok(None),
            },
        };
        let value = 0.5 * (lo + hi);
        Ok(Some(Exact {
            value: if mover == 0 { value } else { -value },
            width: hi - lo,
        }))
    }

    /// The value of `exact`, learnt: the widest bracket learnt grows to its width.
    fn learnt(&self, exact: Exact) -> f64 {
        self.widest.set(self.widest.get().max(exact.width));
        exact.value
    }

    /// How the values were obtained, for the player file's record.
    fn describe(&self, tolerance: f64, lambda: f32) -> String {
        match &self.source {
            Source::Solved(_) => format!(
                "fitted to the exact values of the solved game (brackets' midpoints; certified to {tolerance:e} at the openings, the widest bracket learnt {:.1e})",
                self.widest.get()
            ),
            Source::Folder(values) => {
                let (held, groups) = values.groups_held();
                format!(
                    "fitted to exact values where a layered solve holds them ({held} of {groups} groups, solved to {:e}; brackets' midpoints, the widest learnt {:.1e}), elsewhere TD(lambda = {lambda}) returns ending in those values",
                    values.tolerance(),
                    self.widest.get()
                )
            }
        }
    }
}

/// Solves the game of `settings` and trains a player on its exact values; see the module
/// docs.
pub(super) fn train(
    settings: &TrainSettings,
    exact: &ExactTargets,
    progress: &dyn Progress,
) -> Result<(Trained, TrainingCounts), Error> {
    if settings.players != 2 {
        return Err(Error::input(
            "exact targets: the game is solved for two players only; a table player learns by self-play",
        ));
    }
    if !(0.0..=1.0).contains(&exact.explore) {
        return Err(Error::input(format!(
            "exact targets: the share of random moves {} is not between 0 and 1",
            exact.explore
        )));
    }
    let values = solve(settings, exact, progress)?;
    let rules = &settings.rules;
    let mut rng = GameRng::seed_from_u64(settings.seed);
    let encoder = Encoder::new(rules);
    let network = Network::random(encoder.inputs(), settings.hidden, 1, &mut rng);
    let mut evaluator = Evaluator { encoder, network };
    let mut counts = TrainingCounts::default();
    let mut failure = None;
    let mut steps = Vec::new();
    self_play(settings, progress, |game, rate| {
        if failure.is_none()
            && let Err(e) = learn_from_game(
                &mut evaluator,
                &values,
                settings,
                exact,
                rate,
                game,
                &mut rng,
                &mut counts,
                &mut steps,
            )
        {
            failure = Some(e);
        }
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    let method = format!(
        "{}: every legal move's next position at each decision{} of games where both sides \
         play the network (one game of three) or one side plays the exact best move, a random \
         legal move with probability {}, {} hidden clipped linear units",
        values.describe(exact.tolerance, settings.lambda),
        match exact.positions {
            Positions::AfterMoves => "",
            Positions::EveryRoll => " and the position before every roll",
        },
        exact.explore,
        settings.hidden
    );
    let player = StrongPlayer::new(rules, evaluator.network, training(settings, method))
        .map_err(|e| Error::input(format!("training: {e}")))?;
    Ok((Trained::Duel(player), counts))
}

/// The game of `settings` solved with both players optimal and every value kept, its
/// bracket closed to the tolerance (else refused).
fn solve(
    settings: &TrainSettings,
    exact: &ExactTargets,
    progress: &dyn Progress,
) -> Result<ExactValues, Error> {
    if let Some(dir) = &exact.values {
        let die = &settings.die;
        let values = LayeredValues::open_dir(dir)
            .map_err(|e| Error::input(format!("--values {}: {e}", dir.display())))?;
        values
            .check_game(&settings.rules, [die, die])
            .map_err(|e| Error::input(format!("--values {}: {e}", dir.display())))?;
        return Ok(ExactValues {
            source: Source::Folder(Box::new(values)),
            widest: Cell::new(0.0),
        });
    }
    let options = SolveOptions::new(exact.tolerance, MAX_SWEEPS, exact.max_memory)
        .map_err(|e| Error::input(format!("exact targets: {e}")))?;
    // A board like 22/11/4/4 takes many minutes to solve: the solver's usual lines, with
    // the memory and the time still to go.
    let notes = GameSolveNotes::new(
        exact.tolerance,
        settings.rules.board().pieces(),
        "exact targets: solving the game first",
        progress,
    );
    let observer = |p| notes.report(p);
    let run = GameRun {
        keep_values: true,
        evaluate_pair: false,
        observer: &observer,
        extract_policy: false,
        mirror: true,
    };
    let die = &settings.die;
    let solution = solve_game_with(
        &settings.rules,
        [die, die],
        [Side::Optimal, Side::Optimal],
        &options,
        &run,
    )
    .map_err(|e| Error::input(format!("exact targets: {e}")))?;
    if !solution.value_certified {
        return Err(Error::failure(format!(
            "exact targets: the solve's bracket stayed {:.3e} wide, not within the tolerance {:e}",
            solution.value.width(),
            exact.tolerance
        )));
    }
    Ok(ExactValues {
        source: Source::Solved(Box::new(solution)),
        widest: Cell::new(0.0),
    })
}

/// Which side plays the exact best move in training game `game`: neither in one game of
/// three, A in the next, B in the third.
fn optimal_side(game: u64) -> Option<Player> {
    match (game / 2) % 3 {
        0 => None,
        k => Some(k as usize - 1),
    }
}

/// One training game (see the module docs): at every decision, a step towards the exact
/// value of every legal move's next position that has one (and with
/// [`Positions::EveryRoll`] of the position before every roll), then the move played; at
/// the end, the positions without an exact value step towards their λ-returns.
#[allow(clippy::too_many_arguments)]
fn learn_from_game(
    evaluator: &mut Evaluator,
    values: &ExactValues,
    settings: &TrainSettings,
    exact: &ExactTargets,
    rate: f32,
    game: u64,
    rng: &mut GameRng,
    counts: &mut TrainingCounts,
    steps: &mut Vec<Step>,
) -> Result<(), Error> {
    let rules: &Rules = &settings.rules;
    let first = (game % 2) as usize;
    let optimal = optimal_side(game);
    let positions = exact.positions;
    let explore = exact.explore;
    let (mut own, mut other, mut mover) = (1u64, 1u64, first);
    let mut here = values.for_mover(own, other, mover)?;
    steps.clear();
    for _ in 0..settings.max_rolls {
        if positions == Positions::EveryRoll
            && let Some(exact) = here
        {
            let target = values.learnt(exact);
            let features = evaluator.encoder.encode(rules, own, other, mover);
            evaluator
                .network
                .step_towards(&features, target as f32, rate);
            counts.targets += 1;
        }
        let face = settings.die.roll(rng);
        let legal = rules.legal_moves(own, other, mover, face);
        let movement = if legal.len() >= 2 {
            counts.decisions += 1;
            // The exact best move, if every legal move's next position has an exact value.
            let mut best: Option<(f64, PieceMove)> = None;
            let mut all_exact = true;
            for m in legal.iter() {
                let turn = rules.roll_with_move(own, other, mover, 0, face, Some(m));
                // The exact value for `mover`: 1 for a win, else the next position's, which
                // (from its own mover's side, as the network values positions) is learnt.
                let value = match turn.next_position(mover) {
                    None => Some(1.0),
                    Some(n) => values.for_mover(n.own, n.other, n.mover)?.map(|exact| {
                        let target = values.learnt(exact);
                        let features = evaluator.encoder.encode(rules, n.own, n.other, n.mover);
                        evaluator
                            .network
                            .step_towards(&features, target as f32, rate);
                        counts.targets += 1;
                        n.seen_by(mover, target)
                    }),
                };
                match value {
                    Some(v) if best.is_none_or(|(b, _)| v > b) => best = Some((v, m)),
                    Some(_) => {}
                    None => all_exact = false,
                }
            }
            if rng.random::<f32>() < explore {
                legal.iter().nth(rng.random_range(0..legal.len()))
            } else if optimal == Some(mover) && all_exact {
                best.map(|(_, m)| m)
            } else {
                evaluator.best_move(rules, own, other, mover, &legal)
            }
        } else {
            legal.frontmost()
        };
        let turn = rules.roll_with_move(own, other, mover, 0, face, movement);
        counts.rolls += 1;
        let next = turn.next_position(mover);
        let next_exact = match next {
            Some(n) => values.for_mover(n.own, n.other, n.mover)?,
            None => None,
        };
        if here.is_none() {
            // Learnt from its λ-return at the end: the next position's exact value where it
            // has one (the return ends there), else the network's.
            let features = evaluator.encoder.encode(rules, own, other, mover);
            let (next_value, ends) = match (next, next_exact) {
                (None, _) => (1.0, true),
                (Some(n), Some(exact)) => (n.seen_by(mover, values.learnt(exact) as f32), true),
                (Some(_), None) => (evaluator.value_after(rules, &turn, mover), false),
            };
            steps.push(Step {
                features,
                next_value,
                ends,
                continues: next.map_or(0.0, |n| n.seen_by(mover, 1.0)),
            });
        }
        let Some(n) = next else {
            counts.games_finished += 1;
            counts.first_player_wins += u64::from(mover == first);
            learn_returns(evaluator, settings, rate, counts, steps);
            return Ok(());
        };
        (own, other, mover) = (n.own, n.other, n.mover);
        here = next_exact;
    }
    // Abandoned at the roll cap: the positions without exact values have no return.
    counts.games_capped += 1;
    Ok(())
}

/// Steps the positions of `steps` towards their λ-returns.
fn learn_returns(
    evaluator: &mut Evaluator,
    settings: &TrainSettings,
    rate: f32,
    counts: &mut TrainingCounts,
    steps: &[Step],
) {
    for (step, target) in steps.iter().zip(lambda_returns(steps, settings.lambda)) {
        evaluator.network.step_towards(&step.features, target, rate);
    }
    counts.returns += steps.len() as u64;
}
