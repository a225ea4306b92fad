//! The move advisor: every legal move of a roll in a given position, with its value
//! `P(A wins) - P(B wins)` after the move: exact from the solved game, or estimated by
//! simulation with fixed strategies (with a 95 % interval).

use super::layered::LayeredValues;
use super::solve::options_error;
use super::solve::{GameRun, GameSolution, Progress, Side, solve_game_with};
use super::space::Target;
use crate::dice::Die;
use crate::exact::shared::{Bounds, ExactError, SolveOptions};
use crate::rules::{GameState, PieceMove, Rules};
use crate::stats;
use crate::strategy::Strategy;
use crate::strategy::network::Evaluator;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::{Arc, Mutex};

/// One legal move and its value for A after it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MoveValue {
    /// The move.
    pub movement: PieceMove,
    /// The value `P(A wins) - P(B wins)` after the move: a certified interval (exact) or a
    /// 95 % confidence interval (simulated).
    pub value: Bounds,
    /// Games simulated (0 when exact).
    pub games: u64,
    /// Simulated: the move's gap to the leading move, measured on the same dice.
    pub gap: Option<Gap>,
}

/// A simulated move's gap to the leading move (the one whose mean is best for the mover),
/// measured game by game on the same dice: game `g` after every move draws from the same
/// random stream, so luck that helps one move helps the others, and the differences vary
/// far less than the values (common random numbers, as backgammon programs roll out).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Gap {
    /// The mean over the games of the leader's result minus this move's, as the mover sees
    /// them (in the value's units, `P(A wins) - P(B wins)`): 0 for the leader, positive
    /// where the leader did better.
    pub mean: f64,
    /// Its standard error (0 for the leader).
    pub standard_error: f64,
    /// Whether this is the leading move.
    pub leader: bool,
}

/// Games solved for advice, most recently used last: a game is asked about again and again
/// (every roll of a game in the browser), and its solve is the whole cost of an answer.
static SOLVED: Mutex<Vec<(SolvedKey, Arc<GameSolution>)>> = Mutex::new(Vec::new());

/// What a solve for advice depends on: the game, the stopping rule and the memory limit
/// (a call whose limit refuses the solve is refused, kept solve or not).
type SolvedKey = (Rules, Die, Die, u64, usize, Option<u64>);

/// Solved games kept for advice at most, each of at most [`KEPT_STATES`] states (so the
/// values kept stay within a few hundred megabytes).
const KEPT_GAMES: usize = 4;
/// The largest game kept for advice, in joint states.
const KEPT_STATES: usize = 1 << 22;

/// The game of `dice` under `rules` solved with both players optimal and its values kept:
/// from the games solved before in this process if it is one of them (the certified
/// intervals of one solve are as valid as those of the next), else solved now.
fn solved(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    observer: &(dyn Fn(Progress) + Sync),
) -> Result<Arc<GameSolution>, ExactError> {
    let key: SolvedKey = (
        *rules,
        dice[0].clone(),
        dice[1].clone(),
        options.tolerance.to_bits(),
        options.max_sweeps,
        options.max_memory,
    );
    let kept = |list: &mut Vec<(SolvedKey, Arc<GameSolution>)>| {
        let at = list.iter().position(|(k, _)| *k == key)?;
        let entry = list.remove(at);
        let solution = Arc::clone(&entry.1);
        list.push(entry);
        Some(solution)
    };
    if let Some(solution) = kept(&mut SOLVED.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(solution);
    }
    // Advice reads the values alone: the pair's chain is evaluated (and its table
    // extracted) only where the value does not give the figures (an end component, a state
    // that cannot be won), as the solver decides; elsewhere it would double the work and
    // add 16 to 24 bytes a joint index.
    let run = GameRun {
        keep_values: true,
        evaluate_pair: false,
        extract_policy: false,
        observer,
        ..GameRun::default()
    };
    let solution = Arc::new(solve_game_with(
        rules,
        dice,
        [Side::Optimal, Side::Optimal],
        options,
        &run,
    )?);
    if solution.space.len() <= KEPT_STATES {
        let mut list = SOLVED.lock().unwrap_or_else(|e| e.into_inner());
        if kept(&mut list).is_none() {
            if list.len() >= KEPT_GAMES {
                list.remove(0);
            }
            list.push((key, Arc::clone(&solution)));
        }
    }
    Ok(solution)
}

/// The legal moves of `face` in `position`, each with its exact value, from the game
/// solved with both players optimal (`observer` hears the solve's progress; a game solved
/// before in this process is not solved again). Errors as [`super::solve_game`], and
/// [`ExactError::Profile`] for a position the dice cannot reach.
pub fn advise_exact(
    rules: &Rules,
    dice: [&Die; 2],
    position: &GameState,
    face: u32,
    options: &SolveOptions,
    observer: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<MoveValue>, ExactError> {
    let g = solved(rules, dice, options, observer)?;
    let values = g.values.as_ref().expect("kept");
    let moves = moves_valued(rules, &g.space, position, face, |j| {
        let [lo, hi] = values.load(j);
        Ok(Some(Bounds { lo, hi }))
    })?;
    Ok(moves.expect("every state of a solved game has a value"))
}

/// The certified value of `position` in the game solved with both players optimal (as
/// [`advise_exact`] solves it, a game solved before in this process not again).
pub fn position_value(
    rules: &Rules,
    dice: [&Die; 2],
    position: &GameState,
    options: &SolveOptions,
    observer: &(dyn Fn(Progress) + Sync),
) -> Result<Bounds, ExactError> {
    let g = solved(rules, dice, options, observer)?;
    let index = g
        .space
        .encode(position)
        .ok_or_else(|| ExactError::Profile("this position cannot occur with these dice".into()))?;
    let [lo, hi] = g.values.as_ref().expect("kept").load(index);
    Ok(Bounds { lo, hi })
}

/// The legal moves of `face` in `position`, each with its certified value read from the
/// groups solved by a layered solve (`solve --layered --values-out DIR`, opened with
/// [`LayeredValues::open_dir`]); `Ok(None)` when a move leads into a group without values
/// (the core, or a group not solved yet). Errors: [`ExactError::Profile`] for a position
/// the dice cannot reach, and a group file that cannot be read or is damaged.
pub fn advise_from_values(
    values: &LayeredValues,
    position: &GameState,
    face: u32,
) -> Result<Option<Vec<MoveValue>>, ExactError> {
    moves_valued(values.rules(), values.space(), position, face, |j| {
        values.bracket_at(j)
    })
}

/// The legal moves of `face` in `position` with the values `value_of` gives the states
/// they lead to; `None` as soon as one has none.
fn moves_valued(
    rules: &Rules,
    space: &super::space::GameSpace,
    position: &GameState,
    face: u32,
    value_of: impl Fn(usize) -> Result<Option<Bounds>, ExactError>,
) -> Result<Option<Vec<MoveValue>>, ExactError> {
    let index = space
        .encode(position)
        .ok_or_else(|| ExactError::Profile("this position cannot occur with these dice".into()))?;
    let k = space
        .faces(index)
        .iter()
        .position(|&(f, _)| f == face)
        .ok_or_else(|| options_error(format!("the mover's die has no face {face}")))?;
    let mover = position.mover();
    let legal = rules.legal_moves(
        position.pieces[mover],
        position.pieces[1 - mover],
        mover,
        face,
    );
    let moves: Vec<PieceMove> = legal.iter().collect();
    let mut targets = Vec::new();
    space.options(index, k, |m, t| targets.push((m, t)));
    let mut out = Vec::with_capacity(targets.len());
    for (m, t) in targets {
        let value = match t {
            Target::Win(0) => Bounds { lo: 1.0, hi: 1.0 },
            Target::Win(_) => Bounds { lo: -1.0, hi: -1.0 },
            Target::Next(j) => match value_of(j)? {
                Some(v) => v,
                None => return Ok(None),
            },
        };
        out.push(MoveValue {
            gap: None,
            movement: moves[m],
            value,
            games: 0,
        });
    }
    Ok(Some(out))
}

/// The legal moves of `face` in `position`, each valued by `games` games played on from
/// the position after the move with `strategies` (resolved against the other die), seeded
/// by `seed`; a game reaching `max_rolls` rolls counts 0. The interval is a 95 % score
/// interval of the mean of +1 / -1 / 0 ([`stats::signed_mean_interval`]), which keeps a
/// width where every game ended the same way.
///
/// Under a caller's cancellation ([`crate::fixpoint::cancellable`]) the games stop once it
/// is set (it is looked at before every game); the values are then of fewer games than
/// claimed, and the caller, who gave up, discards them.
#[allow(clippy::too_many_arguments)]
pub fn advise_simulated(
    rules: &Rules,
    dice: [&Die; 2],
    strategies: [&Strategy; 2],
    position: &GameState,
    face: u32,
    games: u64,
    seed: u64,
    max_rolls: u64,
) -> Vec<MoveValue> {
    advise_simulated_with(
        rules, dice, strategies, position, face, games, seed, max_rolls, None,
    )
}

/// [`advise_simulated`], and with `luck` (a learned evaluator of this game) each game's
/// result reduced by the luck of its rolls, as backgammon programs reduce the variance of
/// their rollouts. At every roll of either player, with `h(f)` the evaluator's value (from
/// A's side) of the position after face `f` and the evaluator's best move for `f` (a roll
/// without a move: the position it leaves), the roll's luck is `h(rolled) - Σ_f p(f) h(f)`
/// (`p` from the die's face counts). Its mean given the past is 0 whatever the strategies
/// play, and it uses no random draw, so `result - Σ luck` estimates the same value with the
/// same dice after every move, and with less variance the better the evaluator follows the
/// game. A game at the roll cap counts 0 minus its luck.
///
/// The adjusted results are not bounded by ±1: with `luck` the value's interval is the
/// normal interval `mean ± 1.96 sd / √n` from their sample variance (clipped to [-1, 1],
/// where every value lies), and the gaps are of the adjusted results.
#[allow(clippy::too_many_arguments)]
pub fn advise_simulated_with(
    rules: &Rules,
    dice: [&Die; 2],
    strategies: [&Strategy; 2],
    position: &GameState,
    face: u32,
    games: u64,
    seed: u64,
    max_rolls: u64,
    luck: Option<&Evaluator>,
) -> Vec<MoveValue> {
    let strategies = [strategies[0].seated(dice, 0), strategies[1].seated(dice, 1)];
    let luck = luck.map(|evaluator| Luck::new(evaluator, dice));
    let mover = position.mover();
    let legal = rules.legal_moves(
        position.pieces[mover],
        position.pieces[1 - mover],
        mover,
        face,
    );
    // Each move's position after it, or its winner where the move wins.
    let afters: Vec<(PieceMove, GameState, Option<usize>)> = legal
        .iter()
        .map(|movement| {
            let mut after = *position;
            let first = rules
                .play_move(&mut after, face, Some(movement))
                .expect("a listed move is legal");
            (movement, after, first.winner)
        })
        .collect();
    let n = afters.len();
    // The sums of each move's results and of the products of every two moves' results in
    // the same game: what the means and the variances of the differences need.
    let mut sums = vec![0.0f64; n];
    let mut products = vec![vec![0.0f64; n]; n];
    let key = crate::sim::StreamKey::new(seed);
    let mut played = 0u64;
    let mut results = vec![0.0f64; n];
    for g in 0..games {
        if crate::fixpoint::cancelled() {
            break;
        }
        for (result, &(_, after, winner)) in results.iter_mut().zip(&afters) {
            *result = match winner {
                Some(0) => 1.0,
                Some(_) => -1.0,
                // Game `g` after every move from the same stream.
                None => play_on(
                    rules,
                    dice,
                    &strategies,
                    after,
                    max_rolls,
                    &mut key.rng(g),
                    luck.as_ref(),
                ),
            };
        }
        for m in 0..n {
            sums[m] += results[m];
            for k in 0..n {
                products[m][k] += results[m] * results[k];
            }
        }
        played += 1;
    }
    let count = played.max(1) as f64;
    let seen = if mover == 0 { 1.0 } else { -1.0 };
    let leader = (0..n).max_by(|&i, &j| (seen * sums[i]).total_cmp(&(seen * sums[j])));
    // The sample variance of values whose sum of squares is `squares` and mean `mean`.
    let sample_variance = |squares: f64, mean: f64| {
        if played > 1 {
            ((squares - count * mean * mean) / (count - 1.0)).max(0.0)
        } else {
            0.0
        }
    };
    afters
        .iter()
        .enumerate()
        .map(|(m, &(movement, _, _))| {
            let mean = sums[m] / count;
            let value = if luck.is_some() {
                // Adjusted results are unbounded: a normal interval from their spread.
                let half = stats::Z95 * (sample_variance(products[m][m], mean) / count).sqrt();
                Bounds {
                    lo: (mean - half).clamp(-1.0, 1.0),
                    hi: (mean + half).clamp(-1.0, 1.0),
                }
            } else {
                let interval = stats::signed_mean_interval(mean, played, stats::Z95);
                Bounds {
                    lo: interval.lo,
                    hi: interval.hi,
                }
            };
            let gap = leader.map(|l| {
                let mean = seen * (sums[l] - sums[m]) / count;
                // Σ (r_l - r_m)^2 over the games, then the sample variance of the differences.
                let squares = products[l][l] + products[m][m] - 2.0 * products[l][m];
                Gap {
                    mean,
                    standard_error: (sample_variance(squares, mean) / count).sqrt(),
                    leader: m == l,
                }
            });
            MoveValue {
                movement,
                value,
                games: played,
                gap,
            }
        })
        .collect()
}

/// The luck of rolls as a learned evaluator judges it: see [`advise_simulated_with`].
struct Luck<'a> {
    evaluator: &'a Evaluator,
    /// Each player's die: its distinct faces with their shares of the sides.
    faces: [Vec<(u32, f64)>; 2],
}

impl<'a> Luck<'a> {
    fn new(evaluator: &'a Evaluator, dice: [&Die; 2]) -> Luck<'a> {
        let faces = dice.map(|die| {
            let sides = die.faces().len() as f64;
            die.face_counts()
                .into_iter()
                .map(|(face, count)| (face, f64::from(count) / sides))
                .collect()
        });
        Luck { evaluator, faces }
    }

    /// The luck (from A's side) of `rolled` in `state`, before its move is played: the
    /// value after the evaluator's best move for `rolled` less the mean of that over the
    /// faces of the mover's die.
    fn of(&self, rules: &Rules, state: &GameState, rolled: u32) -> f64 {
        let mover = state.mover();
        let (own, other) = (state.pieces[mover], state.pieces[1 - mover]);
        let mut expected = 0.0;
        let mut actual = 0.0;
        for &(face, share) in &self.faces[mover] {
            let after = |movement| {
                let turn = rules.roll_with_move(own, other, mover, state.tries, face, movement);
                self.evaluator.value_after(rules, &turn, mover)
            };
            let legal = rules.legal_moves(own, other, mover, face);
            let best = if legal.is_empty() {
                after(None)
            } else {
                legal
                    .iter()
                    .map(|m| after(Some(m)))
                    .fold(f32::NEG_INFINITY, f32::max)
            };
            let h = if mover == 0 {
                f64::from(best)
            } else {
                -f64::from(best)
            };
            expected += share * h;
            if face == rolled {
                actual = h;
            }
        }
        actual - expected
    }
}

/// The learned evaluator's score of each legal move of `face` in `position`: the value
/// `P(A wins) - P(B wins)` after the move as the network estimates it (from A's side, like
/// every value here), 1 or -1 for a move that wins. An estimate, not a measurement: it has no
/// interval. In the order of [`Rules::legal_moves`], as the other advisors.
pub fn advise_by_evaluator(
    rules: &Rules,
    evaluator: &Evaluator,
    position: &GameState,
    face: u32,
) -> Vec<(PieceMove, f64)> {
    let mover = position.mover();
    let (own, other) = (position.pieces[mover], position.pieces[1 - mover]);
    let legal = rules.legal_moves(own, other, mover, face);
    legal
        .iter()
        .map(|movement| {
            let turn =
                rules.roll_with_move(own, other, mover, position.tries, face, Some(movement));
            let for_mover = f64::from(evaluator.value_after(rules, &turn, mover));
            (movement, if mover == 0 { for_mover } else { -for_mover })
        })
        .collect()
}

/// One game from `state` to its end: +1 if A wins, -1 if B wins, 0 at the roll cap; with
/// `luck`, less the luck of every roll.
fn play_on(
    rules: &Rules,
    dice: [&Die; 2],
    strategies: &[Strategy; 2],
    mut state: GameState,
    max_rolls: u64,
    rng: &mut Xoshiro256PlusPlus,
    luck: Option<&Luck<'_>>,
) -> f64 {
    let mut lucky = 0.0;
    for _ in 0..max_rolls {
        let mover = state.mover();
        let face = dice[mover].roll(rng);
        if let Some(luck) = luck {
            lucky += luck.of(rules, &state, face);
        }
        let (own, other) = (state.pieces[mover], state.pieces[1 - mover]);
        let legal = rules.legal_moves(own, other, mover, face);
        let movement = strategies[mover].choose(rules, own, other, mover, &legal, rng);
        let outcome = rules
            .play_move(&mut state, face, movement)
            .expect("strategies pick legal moves");
        if let Some(w) = outcome.winner {
            let result = if w == 0 { 1.0 } else { -1.0 };
            return result - lucky;
        }
    }
    0.0 - lucky
}
