//! Players graded decision by decision against exact values, as GNU Backgammon grades the
//! moves of a match with its evaluator; here the evaluator is exact.
//!
//! Games are played by one pair of strategies (by default `strong` against `strong`, each
//! side starting half of them). At every decision with at least two legal moves where the
//! values of a layered solve ([`LayeredValues`]) hold every move's next state, each graded
//! strategy is asked which move it would play, and its *error* is what that move gives
//! away against the best move: `best - chosen` in the value `P(A wins) - P(B wins)` seen
//! from the mover (A's value, or minus it for B), by the certified midpoints. A choice is
//! a *mistake beyond doubt* when the best move's bracket lies wholly beyond the chosen
//! move's. The graded strategies do not play: every one is asked at the same decisions.
//!
//! Decisions are correlated within a game, so the intervals are over games: the error per
//! game is a mean of independent games' totals, and the error per decision a ratio of two
//! such means, its interval by the delta method.

use crate::dice::Die;
use crate::exact::ExactError;
use crate::exact::game::advise::advise_from_values;
use crate::exact::game::layered::LayeredValues;
use crate::rules::{GameState, LegalMoves, PieceMove, Player};
use crate::sim::game::{CHOOSING, Watcher};
use crate::sim::{GameEnd, Matchup, StreamKey};
use crate::strategy::Strategy;
use rayon::prelude::*;
use serde::Serialize;

/// Games per stream chunk: the same games on any number of threads.
const CHUNK: u64 = 64;

/// The normal quantile of the 95 % intervals.
const Z95: f64 = 1.959_963_984_540_054;

/// What a grading plays and asks.
pub struct Grading<'a> {
    /// The exact values (their game is the one played).
    pub values: &'a LayeredValues,
    /// The strategies that play the games, A's and B's.
    pub played: [Strategy; 2],
    /// The strategies asked at every decision.
    pub graded: Vec<Strategy>,
    /// Games, each side starting half (an even number).
    pub games: u64,
    /// The random streams.
    pub key: StreamKey,
    /// A game reaching this many rolls ends unfinished (its decisions still count).
    pub max_rolls: u64,
}

/// Why a grading could not run.
#[derive(Debug)]
pub enum GradingError {
    /// A strategy that cannot play the values' game, an odd number of games: the user's.
    Input(String),
    /// A group file that cannot be read or is damaged.
    Values(ExactError),
}

impl std::fmt::Display for GradingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GradingError::Input(e) => f.write_str(e),
            GradingError::Values(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GradingError {}

/// A mean with its 95 % interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Its 95 % interval.
    pub interval: [f64; 2],
}

/// One graded strategy's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerGrade {
    /// The strategy's name.
    pub player: String,
    /// Decisions where it chose a move other than a best one (by the midpoints).
    pub other_than_best: u64,
    /// Decisions where the best move's bracket lies wholly beyond its move's.
    pub beyond_doubt: u64,
    /// The value given away per graded decision.
    pub per_decision: Estimate,
    /// The value given away per game, summed over its graded decisions.
    pub per_game: Estimate,
}

/// A grading's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct GradingOutcome {
    /// Games played.
    pub games: u64,
    /// Games that reached the roll cap.
    pub unfinished: u64,
    /// Decisions with at least two legal moves.
    pub decisions: u64,
    /// Those where the values hold every move (the ones graded).
    pub graded_decisions: u64,
    /// Per graded strategy.
    pub players: Vec<PlayerGrade>,
}

/// One decision met in a game: the position before the roll and the face.
#[derive(Clone, Copy)]
struct Decision {
    state: GameState,
    face: u32,
}

/// Collects a game's decisions with a choice.
#[derive(Default)]
struct Decisions(Vec<Decision>);

impl Watcher for Decisions {
    fn decision(
        &mut self,
        own: u64,
        other: u64,
        mover: Player,
        face: u32,
        legal: &LegalMoves,
        _movement: Option<PieceMove>,
    ) {
        if legal.len() >= 2 {
            let mut pieces = [own, other];
            if mover == 1 {
                pieces.swap(0, 1);
            }
            self.0.push(Decision {
                state: GameState {
                    pieces,
                    to_move: mover as u8,
                    tries: 0,
                },
                face,
            });
        }
    }
}

/// Sums over games of one strategy's error `e` and graded decisions `d`, for the
/// intervals over games.
#[derive(Clone, Copy, Default)]
struct Sums {
    other_than_best: u64,
    beyond_doubt: u64,
    e: f64,
    ee: f64,
    d: f64,
    dd: f64,
    ed: f64,
}

impl Sums {
    fn add_game(&mut self, e: f64, d: f64) {
        self.e += e;
        self.ee += e * e;
        self.d += d;
        self.dd += d * d;
        self.ed += e * d;
    }

    fn merge(&mut self, o: &Sums) {
        self.other_than_best += o.other_than_best;
        self.beyond_doubt += o.beyond_doubt;
        self.e += o.e;
        self.ee += o.ee;
        self.d += o.d;
        self.dd += o.dd;
        self.ed += o.ed;
    }

    /// The per-game mean and the per-decision ratio over `n` games, with intervals.
    fn estimates(&self, n: u64) -> (Estimate, Estimate) {
        let n_f = n as f64;
        let mean = self.e / n_f;
        let var = if n > 1 {
            ((self.ee - n_f * mean * mean) / (n_f - 1.0)).max(0.0)
        } else {
            f64::INFINITY
        };
        let half = Z95 * (var / n_f).sqrt();
        let per_game = Estimate {
            mean,
            interval: [mean - half, mean + half],
        };
        let per_decision = if self.d > 0.0 {
            let r = self.e / self.d;
            // Var(e - r d) over games, by the delta method for a ratio of means.
            let s2 = if n > 1 {
                ((self.ee - 2.0 * r * self.ed + r * r * self.dd) / (n_f - 1.0)).max(0.0)
            } else {
                f64::INFINITY
            };
            let half = Z95 * (s2 / n_f).sqrt() / (self.d / n_f);
            Estimate {
                mean: r,
                interval: [r - half, r + half],
            }
        } else {
            Estimate {
                mean: 0.0,
                interval: [0.0, 0.0],
            }
        };
        (per_decision, per_game)
    }
}

/// What a chunk of games gave.
#[derive(Clone, Default)]
struct ChunkSums {
    unfinished: u64,
    decisions: u64,
    graded: u64,
    players: Vec<Sums>,
}

/// Plays the games and grades the decisions. `progress` hears the games played, chunk by
/// chunk. Errors: a group file that cannot be read or is damaged; a strategy that cannot
/// play the values' game (checked first).
pub fn grade(
    grading: &Grading<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GradingOutcome, GradingError> {
    let g = grading;
    let values = g.values;
    let rules = values.rules();
    let dice: [&Die; 2] = values.dice();
    let refuse = GradingError::Input;
    for s in g.played.iter().chain(&g.graded) {
        s.check_game(rules, dice).map_err(refuse)?;
    }
    if g.games == 0 || !g.games.is_multiple_of(2) {
        return Err(refuse(format!(
            "{} games: expected an even number, at least 2 (each side starts half)",
            g.games
        )));
    }
    let matchup = Matchup::with_strategies(rules, dice, g.played.clone(), g.max_rolls)
        .map_err(|e| GradingError::Input(e.to_string()))?;
    // Each graded strategy as seated for A and for B.
    let seated: Vec<[Strategy; 2]> = g
        .graded
        .iter()
        .map(|s| [s.seated(dice, 0), s.seated(dice, 1)])
        .collect();
    let chunks = g.games.div_ceil(CHUNK);
    let sums = (0..chunks)
        .into_par_iter()
        .map(|chunk| -> Result<ChunkSums, GradingError> {
            let mut rng = g.key.rng(chunk);
            let mut out = ChunkSums {
                players: vec![Sums::default(); seated.len()],
                ..ChunkSums::default()
            };
            let first_game = chunk * CHUNK;
            let last_game = (first_game + CHUNK).min(g.games);
            for game in first_game..last_game {
                let mut seen = Decisions::default();
                let first = (game % 2) as Player;
                if let GameEnd::Capped =
                    matchup.play_game_watched::<CHOOSING, _, _>(first, &mut rng, &mut seen)
                {
                    out.unfinished += 1;
                }
                let mut game_sums = vec![(0.0f64, 0.0f64); seated.len()];
                for d in &seen.0 {
                    out.decisions += 1;
                    let Some(moves) = advise_from_values(values, &d.state, d.face)
                        .map_err(GradingError::Values)?
                    else {
                        continue;
                    };
                    out.graded += 1;
                    let mover = d.state.mover();
                    let sign = if mover == 0 { 1.0 } else { -1.0 };
                    // From the mover's side: its value and bracket.
                    let seen_by_mover = |m: &crate::exact::game::advise::MoveValue| {
                        let (lo, hi) = if mover == 0 {
                            (m.value.lo, m.value.hi)
                        } else {
                            (-m.value.hi, -m.value.lo)
                        };
                        (sign * m.value.mid(), lo, hi)
                    };
                    let best = moves
                        .iter()
                        .map(seen_by_mover)
                        .max_by(|x, y| x.0.total_cmp(&y.0))
                        .expect("two moves at least");
                    let own = d.state.pieces[mover];
                    let other = d.state.pieces[1 - mover];
                    let legal = rules.legal_moves(own, other, mover, d.face);
                    for (p, strategy) in seated.iter().enumerate() {
                        let chosen = strategy[mover]
                            .choose(rules, own, other, mover, &legal, &mut rng)
                            .expect("a decision has moves");
                        let m = moves
                            .iter()
                            .find(|m| m.movement == chosen)
                            .expect("a strategy plays a legal move");
                        let (value, _, hi) = seen_by_mover(m);
                        let error = (best.0 - value).max(0.0);
                        if error > 0.0 {
                            out.players[p].other_than_best += 1;
                        }
                        if best.1 > hi {
                            out.players[p].beyond_doubt += 1;
                        }
                        game_sums[p].0 += error;
                        game_sums[p].1 += 1.0;
                    }
                }
                for (sums, &(e, d)) in out.players.iter_mut().zip(&game_sums) {
                    sums.add_game(e, d);
                }
            }
            progress(last_game - first_game);
            Ok(out)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut total = ChunkSums {
        players: vec![Sums::default(); seated.len()],
        ..ChunkSums::default()
    };
    for c in &sums {
        total.unfinished += c.unfinished;
        total.decisions += c.decisions;
        total.graded += c.graded;
        for (t, s) in total.players.iter_mut().zip(&c.players) {
            t.merge(s);
        }
    }
    let players = g
        .graded
        .iter()
        .zip(&total.players)
        .map(|(s, sums)| {
            let (per_decision, per_game) = sums.estimates(g.games);
            PlayerGrade {
                player: s.name(),
                other_than_best: sums.other_than_best,
                beyond_doubt: sums.beyond_doubt,
                per_decision,
                per_game,
            }
        })
        .collect();
    Ok(GradingOutcome {
        games: g.games,
        unfinished: total.unfinished,
        decisions: total.decisions,
        graded_decisions: total.graded,
        players,
    })
}
