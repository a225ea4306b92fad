//! Training the `strong` player: temporal-difference learning by self-play.
//!
//! The evaluator ([`crate::strategy::network`]) estimates, for a position before a roll, the
//! mover's P(win) - P(loss). Both sides play the move whose next position the evaluator
//! values highest (the dice supply the exploration). When a game ends, the value of every
//! position in it is moved towards its λ-return (Sutton and Barto, *Reinforcement
//! Learning*, 2nd ed., section 12.1, the offline λ-return algorithm): the mix, with weights
//! `1 - λ` and `λ`, of the next position's value and the λ-return of the next position,
//! each from the mover's side (negated when the turn passes), and 1 after the winning roll.
//! `λ = 0` is TD(0); the values used are those the evaluator gave while the game was
//! played. The step size falls linearly from its first to its last value over the games.
//!
//! # At a table of three or four
//! The evaluator ([`TableEvaluator`]) gives every seat's chance to win (a softmax over the
//! seats), each seat plays the move after which its own chance is highest, and the chances
//! of every position are moved towards its λ-return, a distribution over the seats: the mix
//! of the next position's chances and the next position's λ-return, the winner's certainty
//! after the winning roll (cross-entropy; the seats are turned to the mover's order for the
//! update). The first seat to move goes round the table from game to game.
//!
//! One game after another on one thread, from one seeded stream: the same settings give
//! the same parameters, bit for bit.
//!
//! # On the exact values of a solved game
//! Where the game is solved, [`exact_targets`] fits the network to the solved values
//! instead of λ-returns ([`TrainSettings::exact`]).

pub mod exact_targets;

use crate::dice::Die;
use crate::rules::{MAX_SEATS, Rules, Seats};
use crate::sim::GameRng;
use crate::strategy::network::{
    Encoder, Evaluator, MAX_OUTPUTS, Network, TableEncoder, TableEvaluator, TableFeatures,
};
use crate::strategy::strong::Training;
use crate::strategy::{StrongPlayer, TablePlayer, Trained};
use crate::work::{Error, Progress};
use rand::SeedableRng;
use std::sync::atomic::Ordering;

/// Games between two looks at the cancel flag and two progress reports.
const CHUNK: u64 = 1_000;

/// What a training run does.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// The game (board and profile; the profile must have `choice`).
    pub rules: Rules,
    /// Seats at the table: 2, or a table of 3 or 4.
    pub players: usize,
    /// The die both sides roll.
    pub die: Die,
    /// Hidden units of the network.
    pub hidden: usize,
    /// Games of self-play.
    pub games: u64,
    /// Seed of the random stream (weights and rolls).
    pub seed: u64,
    /// Step size at the first game and at the last.
    pub rate: [f32; 2],
    /// The λ of the λ-returns, in [0, 1].
    pub lambda: f32,
    /// A game reaching this many rolls is abandoned (no update from its end).
    pub max_rolls: u64,
    /// The command line that gives these settings, stored in the player file.
    pub command: String,
    /// Learn the exact values of the solved game instead of λ-returns (`lambda` is then
    /// unused); `None` for self-play.
    pub exact: Option<exact_targets::ExactTargets>,
}

/// What a training run reports besides the player.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TrainingCounts {
    /// Games played to the end.
    pub games_finished: u64,
    /// Games abandoned at the roll cap.
    pub games_capped: u64,
    /// Rolls played (each one update).
    pub rolls: u64,
    /// Decisions among at least two moves.
    pub decisions: u64,
    /// Games won by the side that moved first.
    pub first_player_wins: u64,
    /// Positions learned from their exact values (0 in self-play).
    pub targets: u64,
    /// Positions learned from their λ-returns where exact targets were asked for but the
    /// values had none (0 in self-play, which counts rolls instead, and in a whole solve).
    #[serde(skip_serializing_if = "is_zero")]
    pub returns: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Trains a player by self-play; see the module docs.
pub fn train(
    settings: &TrainSettings,
    progress: &dyn Progress,
) -> Result<(Trained, TrainingCounts), Error> {
    if let Some(exact) = &settings.exact {
        return exact_targets::train(settings, exact, progress);
    }
    let rules = &settings.rules;
    let mut rng = GameRng::seed_from_u64(settings.seed);
    let mut counts = TrainingCounts::default();
    if settings.players == 2 {
        let encoder = Encoder::new(rules);
        let network = Network::random(encoder.inputs(), settings.hidden, 1, &mut rng);
        let mut evaluator = Evaluator { encoder, network };
        let mut steps = Vec::new();
        self_play(settings, progress, |game, rate| {
            play_and_learn(
                &mut evaluator,
                settings,
                rate,
                (game % 2) as usize,
                &mut rng,
                &mut counts,
                &mut steps,
            )
        })?;
        let method = format!(
            "TD(lambda = {}) self-play (offline lambda-returns), greedy on the next position's value, {} hidden clipped linear units",
            settings.lambda, settings.hidden
        );
        let player = StrongPlayer::new(rules, evaluator.network, training(settings, method))
            .map_err(|e| Error::input(format!("training: {e}")))?;
        return Ok((Trained::Duel(player), counts));
    }
    let seats = Seats::new(*rules, settings.players)
        .map_err(|e| Error::input(format!("--players {}: {e}", settings.players)))?;
    if seats.players() < 3 {
        return Err(Error::input(
            "a table player is trained for three or four seats",
        ));
    }
    let encoder = TableEncoder::new(&seats);
    let network = Network::random(encoder.inputs(), settings.hidden, seats.players(), &mut rng);
    let mut evaluator = TableEvaluator { encoder, network };
    let mut steps = Vec::new();
    self_play(settings, progress, |game, rate| {
        let first = (game % seats.players() as u64) as usize;
        play_and_learn_at_table(
            &mut evaluator,
            &seats,
            settings,
            rate,
            first,
            &mut rng,
            &mut counts,
            &mut steps,
        )
    })?;
    let method = format!(
        "TD(lambda = {}) self-play at a table of {} (offline lambda-returns of the seats' chances, cross-entropy), each seat greedy on its own chance, {} hidden clipped linear units, softmax over the seats",
        settings.lambda,
        seats.players(),
        settings.hidden
    );
    let player = TablePlayer::new(&seats, evaluator.network, training(settings, method))
        .map_err(|e| Error::input(format!("training: {e}")))?;
    Ok((Trained::Table(player), counts))
}

/// The training record of `settings`.
fn training(settings: &TrainSettings, method: String) -> Training {
    Training {
        method,
        die: settings.die.to_string(),
        games: settings.games,
        seed: settings.seed,
        rate: settings.rate,
        command: settings.command.clone(),
    }
}

/// Plays the games of `settings` with `play_game(game, step size)`, the step size falling
/// linearly, reporting progress and looking at the cancel flag every [`CHUNK`] games.
fn self_play(
    settings: &TrainSettings,
    progress: &dyn Progress,
    mut play_game: impl FnMut(u64, f32),
) -> Result<(), Error> {
    let cancel = progress.cancel_flag();
    progress.begin("self-play", Some(settings.games));
    let [first_rate, last_rate] = settings.rate;
    let mut reported = 0;
    for game in 0..settings.games {
        if game % CHUNK == 0 && game > 0 {
            progress.games(game - reported);
            reported = game;
            if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(Error::cancelled());
            }
        }
        let done = game as f32 / settings.games as f32;
        play_game(game, first_rate + (last_rate - first_rate) * done);
    }
    progress.games(settings.games - reported);
    Ok(())
}

/// One roll of a game, as the λ-returns need it.
struct Step {
    /// The position before the roll.
    features: crate::strategy::network::Features,
    /// The value of the next position from this roll's mover's side (1 after a win).
    next_value: f32,
    /// Whether `next_value` is the next position's true value (after a win, or an exact
    /// value): the return ends there, not mixed with the returns of later rolls.
    ends: bool,
    /// 1 if the next roll is the same player's, -1 if the turn passed (0 where it ends).
    continues: f32,
}

/// The λ-return of every step of a game, in order: from the last step back, the mix with
/// weights `1 - λ` and `λ` of the next position's value and the next position's λ-return,
/// turned to the step's mover; a step whose next value is true ends its return there.
fn lambda_returns(steps: &[Step], lambda: f32) -> Vec<f32> {
    let mut later = 0.0f32;
    let mut targets: Vec<f32> = steps
        .iter()
        .rev()
        .map(|step| {
            let target = if step.ends {
                step.next_value
            } else {
                (1.0 - lambda) * step.next_value + lambda * step.continues * later
            };
            later = target;
            target
        })
        .collect();
    targets.reverse();
    targets
}

/// One game of self-play from the opening with `first` to move, then the updates.
#[allow(clippy::too_many_arguments)]
fn play_and_learn(
    evaluator: &mut Evaluator,
    settings: &TrainSettings,
    rate: f32,
    first: usize,
    rng: &mut GameRng,
    counts: &mut TrainingCounts,
    steps: &mut Vec<Step>,
) {
    let rules = &settings.rules;
    let (mut own, mut other, mut mover) = (1u64, 1u64, first);
    steps.clear();
    let mut finished = false;
    for _ in 0..settings.max_rolls {
        let face = settings.die.roll(rng);
        let legal = rules.legal_moves(own, other, mover, face);
        if legal.len() >= 2 {
            counts.decisions += 1;
        }
        let movement = evaluator.best_move(rules, own, other, mover, &legal);
        let turn = rules.roll_with_move(own, other, mover, 0, face, movement);
        counts.rolls += 1;
        let features = evaluator.encoder.encode(rules, own, other, mover);
        let next_value = evaluator.value_after(rules, &turn, mover);
        // How the later return turns to this position's side: none after a win.
        let next = turn.next_position(mover);
        let continues = next.map_or(0.0, |n| n.seen_by(mover, 1.0));
        steps.push(Step {
            features,
            next_value,
            ends: next.is_none(),
            continues,
        });
        let Some(n) = next else {
            counts.games_finished += 1;
            counts.first_player_wins += u64::from(mover == first);
            finished = true;
            break;
        };
        (own, other, mover) = (n.own, n.other, n.mover);
    }
    if !finished {
        // Abandoned at the roll cap: its last positions have no return to learn from.
        counts.games_capped += 1;
        return;
    }
    for (step, target) in steps.iter().zip(lambda_returns(steps, settings.lambda)) {
        evaluator.network.step_towards(&step.features, target, rate);
    }
}

/// One roll of a table game, as the λ-returns need it.
struct TableStep {
    /// The position before the roll, seen from its mover.
    features: TableFeatures,
    /// The roll's mover.
    mover: usize,
    /// The seats' chances after the roll (by seat; the winner's certainty after a win).
    next: [f32; MAX_SEATS],
}

/// One game of self-play at the table from the opening with `first` to move, then the
/// updates (see the module docs).
#[allow(clippy::too_many_arguments)]
fn play_and_learn_at_table(
    evaluator: &mut TableEvaluator,
    seats: &Seats,
    settings: &TrainSettings,
    rate: f32,
    first: usize,
    rng: &mut GameRng,
    counts: &mut TrainingCounts,
    steps: &mut Vec<TableStep>,
) {
    let mut pieces = seats.start().pieces;
    let mut mover = first;
    steps.clear();
    let mut finished = false;
    for _ in 0..settings.max_rolls {
        let face = settings.die.roll(rng);
        let legal = seats.legal_moves(&pieces, mover, face);
        if legal.len() >= 2 {
            counts.decisions += 1;
        }
        let movement = evaluator.best_move(seats, &pieces, mover, &legal);
        let features = evaluator.encoder.encode(seats, &pieces, mover);
        let turn = seats.roll_with_move(&mut pieces, mover, 0, face, movement);
        counts.rolls += 1;
        let next = evaluator.chances_after(seats, &pieces, &turn, mover);
        steps.push(TableStep {
            features,
            mover,
            next,
        });
        if turn.won {
            counts.games_finished += 1;
            counts.first_player_wins += u64::from(mover == first);
            finished = true;
            break;
        }
        if turn.passes {
            mover = seats.next_seat(mover);
        }
    }
    if !finished {
        counts.games_capped += 1;
        return;
    }
    let n = seats.players();
    let lambda = settings.lambda;
    // The λ-returns by seat, from the winning roll back to the first.
    let mut later = [0.0f32; MAX_SEATS];
    let mut targets = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().rev().enumerate() {
        let target: [f32; MAX_SEATS] = if i == 0 {
            step.next
        } else {
            std::array::from_fn(|s| (1.0 - lambda) * step.next[s] + lambda * later[s])
        };
        targets.push(target);
        later = target;
    }
    for (step, by_seat) in steps.iter().zip(targets.iter().rev()) {
        let mut by_turn = [0.0f32; MAX_OUTPUTS];
        for (k, slot) in by_turn.iter_mut().enumerate().take(n) {
            *slot = by_seat[(step.mover + k) % n];
        }
        evaluator
            .network
            .step_towards_chances(&step.features, &by_turn, rate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_return_ends_where_the_next_value_is_true() {
        let rules = Rules::bwinf();
        let features = Encoder::new(&rules).encode(&rules, 1, 1, 0);
        let step = |next_value, ends, continues| Step {
            features,
            next_value,
            ends,
            continues,
        };
        // The turn passes after the first roll, the second roll's next position has an exact
        // value (-0.5 from its mover's side), then a roll in a group without values that
        // goes on to the win.
        let steps = [
            step(0.25, false, -1.0),
            step(-0.5, true, 1.0),
            step(0.75, false, 1.0),
            step(1.0, true, 0.0),
        ];
        let lambda = 0.5;
        let returns = lambda_returns(&steps, lambda);
        // From the end: 1; 0.5 * 0.75 + 0.5 * 1; the exact -0.5, whatever follows;
        // 0.5 * 0.25 + 0.5 * (-1) * (-0.5).
        assert_eq!(returns, [0.375, -0.5, 0.875, 1.0]);
        // λ = 1 is the outcome (or the exact value) itself, λ = 0 the next value alone.
        assert_eq!(lambda_returns(&steps, 1.0), [0.5, -0.5, 1.0, 1.0]);
        assert_eq!(lambda_returns(&steps, 0.0), [0.25, -0.5, 0.75, 1.0]);
    }
}
