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
//!
//! # The rest of the game against the optimal opponent
//!
//! With [`Grading::against_optimal`], each game's first graded decision is an *entry*, and
//! from it every graded strategy plays the game on to its end, once as A and once as B,
//! against the optimal opponent (the best move by the values' midpoints), its errors summed
//! as above. The expected sum is exactly what the strategy gives away over the rest of the
//! game against the optimal pair's policy: the value of the entry under optimal play less
//! its value when the strategy plays one side and the optimal policy the other (the
//! performance difference lemma of reinforcement learning: a policy's shortfall is the sum
//! of its one-step shortfalls along its own games, each measured with the optimal values).
//! Every error in it is exact (to the values' certified brackets); only the games are
//! sampled, so the figure carries a 95 % interval over entries. A strategy's continuations
//! as A (and as B) share their rolls with every other strategy's until their moves differ.
//!
//! # The rest of the game against a best response
//!
//! With [`Grading::best_responses`], the values of a graded strategy playing one side
//! against its best response (`solve --layered --strategy-a NAME --values-out DIR`, the
//! other side optimal against it) are read at each entry: the value of the entry when that
//! pair plays on, against its value under optimal play, seen from the strategy's side, is
//! exactly what the strategy gives away to an opponent who knows its every move. Both
//! values are exact (to their certified brackets); only the entries are sampled, so the
//! figure carries a 95 % interval over entries.
//!
//! Where both sides roll the same die, one seat's pair serves the other seat too: the game
//! seen with the sides swapped (each side's pieces in its own numbering, the other side to
//! move) is the same game, so the value of an entry with the strategy as B is minus the
//! value of its mirror image with the strategy as A. That holds for a strategy that plays
//! either side alike ([`Strategy::plays_sides_alike`]: the heuristics and the learned players, whose
//! choice depends only on the position seen from the mover); a policy file or exact
//! values may answer the two sides differently and need their own pair. It halves the
//! solves a grading needs; a pair given for both seats is read for both.

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
    /// Also play every graded strategy from each game's first graded decision to the end
    /// against the optimal opponent (see the module's documentation).
    pub against_optimal: bool,
    /// The values of graded strategies against their best responses, read at each entry
    /// (see the module's documentation).
    pub best_responses: Vec<BestResponseValues<'a>>,
}

/// The values of a graded strategy playing one side, the other side its best response:
/// a layered solve with that strategy fixed on `seat` (the same game and part as
/// [`Grading::values`]).
pub struct BestResponseValues<'a> {
    /// The pair's values.
    pub values: &'a LayeredValues,
    /// The graded strategy's place in [`Grading::graded`].
    pub player: usize,
    /// The side it plays.
    pub seat: Player,
}

/// `state` with the sides swapped: each side's pieces (in its own numbering) given to the
/// other, the other side to move.
fn mirrored(state: &GameState) -> GameState {
    GameState {
        pieces: [state.pieces[1], state.pieces[0]],
        to_move: 1 - state.to_move,
        tries: state.tries,
    }
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
    /// With [`Grading::against_optimal`]: the rest of the game against the optimal opponent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against_optimal: Option<AgainstOptimal>,
    /// With [`Grading::best_responses`] for this strategy: the rest of the game against its
    /// best response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against_best_response: Option<AgainstBestResponse>,
}

/// What a strategy gives away from an entry to the game's end against its best response
/// ([`Grading::best_responses`]): the value `P(A wins) - P(B wins)` seen from its side,
/// 95 % intervals over entries.
#[derive(Clone, Debug, Serialize)]
pub struct AgainstBestResponse {
    /// Playing A (where its values as A were given).
    pub as_a: Option<Estimate>,
    /// Playing B.
    pub as_b: Option<Estimate>,
    /// The mean of as A and as B per entry, where both were given.
    pub per_entry: Option<Estimate>,
    /// The side read from the other side's pair by the mirror (both sides rolling the same
    /// die; see the module's documentation), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_mirror: Option<Player>,
}

/// What a strategy gives away over the rest of the game from an entry, playing one side
/// against the optimal opponent ([`Grading::against_optimal`]).
#[derive(Clone, Debug, Serialize)]
pub struct AgainstOptimal {
    /// Its decisions with a choice in those games, as A and as B.
    pub decisions: u64,
    /// The value `P(A wins) - P(B wins)` it gives away from an entry to the game's end,
    /// seen from its side, the mean of as A and as B; 95 % interval over entries.
    pub per_entry: Estimate,
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
    /// With [`Grading::against_optimal`]: the games with a graded decision, each an entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<u64>,
    /// With [`Grading::best_responses`]: the entries read (the games with a graded
    /// decision).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_response_entries: Option<u64>,
    /// With [`Grading::against_optimal`]: the games played on from entries that reached the
    /// roll cap (their errors up to it count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against_optimal_unfinished: Option<u64>,
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
    entries: u64,
    /// Per graded strategy: the sums over entries of its mean loss as A and as B (`e`), and
    /// its decisions in those games (`other_than_best` unused).
    against_optimal: Vec<Sums>,
    continued_decisions: Vec<u64>,
    continued_unfinished: u64,
    /// Entries read against best responses, and per graded strategy the sums over them
    /// of what it gives away as A, as B and (where both are read) their mean.
    best_response_entries: u64,
    best_response: Vec<[Sums; 3]>,
}

/// The value of the entry decision `d` (the position and roll) when the pair of
/// `br` plays on: the graded strategy (`strategy`, seated for `br.seat`) on its side, the
/// other side the best move by the pair's values.
fn value_against_best_response(
    br: &BestResponseValues<'_>,
    strategy: &Strategy,
    d: &Decision,
    rng: &mut crate::sim::GameRng,
) -> Result<f64, GradingError> {
    let (moves, best) = valued_moves(br.values, &d.state, d.face)?.ok_or_else(|| {
        GradingError::Input(
            "a best response's values do not hold every move of an entry: they must be of the \
             same part of the game as --values"
                .into(),
        )
    })?;
    let mover = d.state.mover();
    if mover != br.seat {
        return Ok(moves[best].value.mid());
    }
    if matches!(strategy, Strategy::Random) {
        // The uniform mix the solve evaluated.
        return Ok(moves.iter().map(|m| m.value.mid()).sum::<f64>() / moves.len() as f64);
    }
    let rules = br.values.rules();
    let (own, other) = (d.state.pieces[mover], d.state.pieces[1 - mover]);
    let legal = rules.legal_moves(own, other, mover, d.face);
    let chosen = strategy
        .choose(rules, own, other, mover, &legal, rng)
        .expect("a decision has moves");
    Ok(moves
        .iter()
        .find(|m| m.movement == chosen)
        .expect("a strategy plays a legal move")
        .value
        .mid())
}

/// The legal moves of `face` in `state` valued by `values`, and the index of the best one
/// seen from the mover (by midpoints; the first of equals); `None` where the values do
/// not hold every move.
fn valued_moves(
    values: &LayeredValues,
    state: &GameState,
    face: u32,
) -> Result<Option<(Vec<crate::exact::game::advise::MoveValue>, usize)>, GradingError> {
    let Some(moves) = advise_from_values(values, state, face).map_err(GradingError::Values)? else {
        return Ok(None);
    };
    let sign = if state.mover() == 0 { 1.0 } else { -1.0 };
    let best = (0..moves.len())
        .max_by(|&x, &y| {
            (sign * moves[x].value.mid())
                .total_cmp(&(sign * moves[y].value.mid()))
                .then(y.cmp(&x))
        })
        .expect("a decision has moves");
    Ok(Some((moves, best)))
}

/// Plays from `state` (before the roll of `face`) to the game's end with `strategy` (seated
/// for `side`) on `side` and the optimal opponent on the other, and returns the value
/// `strategy` gave away at its decisions, seen from `side`, how many decisions it made, and
/// whether the game ended before the roll cap (the errors up to the cap count). Its expectation is the value of the entry under optimal
/// play less its value under this pair (the module's documentation). A decision whose
/// moves the values do not hold is refused: the continuation would leave the values.
#[allow(clippy::too_many_arguments)]
fn play_against_optimal(
    values: &LayeredValues,
    dice: [&Die; 2],
    strategy: &Strategy,
    side: Player,
    mut state: GameState,
    mut face: u32,
    rng: &mut crate::sim::GameRng,
    max_rolls: u64,
) -> Result<(f64, u64, bool), GradingError> {
    let rules = values.rules();
    let sign = if side == 0 { 1.0 } else { -1.0 };
    let (mut given_away, mut decisions) = (0.0, 0u64);
    for _ in 0..max_rolls {
        let mover = state.mover();
        let (own, other) = (state.pieces[mover], state.pieces[1 - mover]);
        let legal = rules.legal_moves(own, other, mover, face);
        let movement = if legal.len() < 2 {
            legal.iter().next()
        } else {
            let (moves, best) = valued_moves(values, &state, face)?.ok_or_else(|| {
                GradingError::Input(format!(
                    "against the optimal opponent: the values do not hold every move of a \
                     position the game reaches ({}); they must hold every group after the \
                     entries' (all of a part, e.g. --part both-home)",
                    format_args!(
                        "A {}, B {}, {} to move",
                        state.describe(rules.board(), 0),
                        state.describe(rules.board(), 1),
                        if state.mover() == 0 { "A" } else { "B" }
                    )
                ))
            })?;
            if mover == side {
                let chosen = strategy
                    .choose(rules, own, other, mover, &legal, rng)
                    .expect("a decision has moves");
                let m = moves
                    .iter()
                    .find(|m| m.movement == chosen)
                    .expect("a strategy plays a legal move");
                given_away += (sign * moves[best].value.mid() - sign * m.value.mid()).max(0.0);
                decisions += 1;
                Some(chosen)
            } else {
                Some(moves[best].movement)
            }
        };
        let outcome = rules
            .play_move(&mut state, face, movement)
            .expect("the players pick legal moves");
        if outcome.winner.is_some() {
            return Ok((given_away, decisions, true));
        }
        face = dice[state.mover()].roll(rng);
    }
    Ok((given_away, decisions, false))
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
    for br in &g.best_responses {
        br.values.check_game(rules, dice).map_err(refuse)?;
        if br.player >= g.graded.len() || br.seat > 1 {
            return Err(refuse(format!(
                "a best response's strategy {} on side {}: expected one of the {} graded",
                br.player,
                br.seat,
                g.graded.len()
            )));
        }
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
    // Per best response, the other seat it also serves by the mirror, where no pair was
    // given for that seat.
    let given = |p: usize, seat: Player| {
        g.best_responses
            .iter()
            .any(|br| br.player == p && br.seat == seat)
    };
    let mirror_to: Vec<Option<Player>> = g
        .best_responses
        .iter()
        .map(|br| {
            let other = 1 - br.seat;
            (dice[0] == dice[1]
                && g.graded[br.player].plays_sides_alike()
                && !given(br.player, other))
            .then_some(other)
        })
        .collect();
    let mirror_of = |p: usize| {
        g.best_responses
            .iter()
            .zip(&mirror_to)
            .find_map(|(br, &to)| (br.player == p).then_some(to).flatten())
    };
    let chunks = g.games.div_ceil(CHUNK);
    let sums = (0..chunks)
        .into_par_iter()
        .map(|chunk| -> Result<ChunkSums, GradingError> {
            let mut rng = g.key.rng(chunk);
            let mut out = ChunkSums {
                players: vec![Sums::default(); seated.len()],
                against_optimal: vec![Sums::default(); seated.len()],
                continued_decisions: vec![0; seated.len()],
                best_response: vec![[Sums::default(); 3]; seated.len()],
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
                let mut entry = None;
                for d in &seen.0 {
                    out.decisions += 1;
                    let Some(moves) = advise_from_values(values, &d.state, d.face)
                        .map_err(GradingError::Values)?
                    else {
                        continue;
                    };
                    out.graded += 1;
                    entry.get_or_insert(*d);
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
                if let (false, Some(entry)) = (g.best_responses.is_empty(), entry) {
                    out.best_response_entries += 1;
                    // The entry's value under optimal play: its best move's.
                    let (moves, best) = valued_moves(values, &entry.state, entry.face)?
                        .expect("an entry's moves are valued");
                    let optimal = moves[best].value.mid();
                    let mut given_away = vec![[None; 2]; seated.len()];
                    for (br, &mirror) in g.best_responses.iter().zip(&mirror_to) {
                        let strategy = &seated[br.player][br.seat];
                        // Apart from the games' stream, which must not depend on this.
                        let mut rng = g.key.with_stream(3).rng(game);
                        let v = value_against_best_response(br, strategy, &entry, &mut rng)?;
                        let sign = |seat: Player| if seat == 0 { 1.0 } else { -1.0 };
                        given_away[br.player][br.seat] = Some(sign(br.seat) * (optimal - v));
                        if let Some(other) = mirror {
                            // The strategy in the other seat: the mirror image's value, negated.
                            let image = Decision {
                                state: mirrored(&entry.state),
                                face: entry.face,
                            };
                            let v = -value_against_best_response(br, strategy, &image, &mut rng)?;
                            given_away[br.player][other] = Some(sign(other) * (optimal - v));
                        }
                    }
                    for (sums, seats) in out.best_response.iter_mut().zip(&given_away) {
                        for (side, e) in seats.iter().enumerate() {
                            if let Some(e) = e {
                                sums[side].add_game(*e, 1.0);
                            }
                        }
                        if let [Some(a), Some(b)] = seats {
                            sums[2].add_game(0.5 * (a + b), 1.0);
                        }
                    }
                }
                if let (true, Some(entry)) = (g.against_optimal, entry) {
                    out.entries += 1;
                    for (p, strategy) in seated.iter().enumerate() {
                        let mut mean = 0.0;
                        for side in [0, 1] {
                            // The same rolls for every strategy on this side, until the
                            // moves differ; apart from the games' own streams (stream 0).
                            let mut rng = g.key.with_stream(1 + side as u64).rng(game);
                            let (e, d, ended) = play_against_optimal(
                                values,
                                dice,
                                &strategy[side],
                                side,
                                entry.state,
                                entry.face,
                                &mut rng,
                                g.max_rolls,
                            )?;
                            out.continued_unfinished += u64::from(!ended);
                            mean += 0.5 * e;
                            out.continued_decisions[p] += d;
                        }
                        out.against_optimal[p].add_game(mean, 1.0);
                    }
                }
            }
            progress(last_game - first_game);
            Ok(out)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut total = ChunkSums {
        players: vec![Sums::default(); seated.len()],
        against_optimal: vec![Sums::default(); seated.len()],
        continued_decisions: vec![0; seated.len()],
        best_response: vec![[Sums::default(); 3]; seated.len()],
        ..ChunkSums::default()
    };
    for c in &sums {
        total.best_response_entries += c.best_response_entries;
        for (t, s) in total.best_response.iter_mut().zip(&c.best_response) {
            for (t, s) in t.iter_mut().zip(s) {
                t.merge(s);
            }
        }
        total.unfinished += c.unfinished;
        total.decisions += c.decisions;
        total.graded += c.graded;
        total.entries += c.entries;
        total.continued_unfinished += c.continued_unfinished;
        for (t, s) in total.players.iter_mut().zip(&c.players) {
            t.merge(s);
        }
        for (t, s) in total.against_optimal.iter_mut().zip(&c.against_optimal) {
            t.merge(s);
        }
        for (t, d) in total
            .continued_decisions
            .iter_mut()
            .zip(&c.continued_decisions)
        {
            *t += d;
        }
    }
    let players = g
        .graded
        .iter()
        .zip(&total.players)
        .enumerate()
        .map(|(p, (s, sums))| {
            let (per_decision, per_game) = sums.estimates(g.games);
            let against_optimal = g.against_optimal.then(|| AgainstOptimal {
                decisions: total.continued_decisions[p],
                per_entry: total.against_optimal[p].estimates(total.entries).1,
            });
            let by_mirror = mirror_of(p);
            let read = |side: usize| given(p, side) || by_mirror == Some(side);
            let entries = total.best_response_entries;
            let over_entries = |k: usize| total.best_response[p][k].estimates(entries).1;
            let against_best_response = (read(0) || read(1)).then(|| AgainstBestResponse {
                as_a: read(0).then(|| over_entries(0)),
                as_b: read(1).then(|| over_entries(1)),
                per_entry: (read(0) && read(1)).then(|| over_entries(2)),
                by_mirror,
            });
            PlayerGrade {
                player: s.name(),
                other_than_best: sums.other_than_best,
                beyond_doubt: sums.beyond_doubt,
                per_decision,
                per_game,
                against_optimal,
                against_best_response,
            }
        })
        .collect();
    Ok(GradingOutcome {
        games: g.games,
        unfinished: total.unfinished,
        decisions: total.decisions,
        graded_decisions: total.graded,
        entries: g.against_optimal.then_some(total.entries),
        best_response_entries: (!g.best_responses.is_empty())
            .then_some(total.best_response_entries),
        against_optimal_unfinished: g.against_optimal.then_some(total.continued_unfinished),
        players,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Part, Silent, SolveOptions, SolveSettings, solve};
    use crate::rules::{Board, Rules};

    /// What a fixed strategy gives away from the opening against the optimal opponent, as
    /// the sum of its exact one-step errors along sampled games, agrees with the exact
    /// difference of the optimal value and the pair's value (both solved), within the
    /// sampling error: the performance difference lemma, checked on 16/8/2/2.
    #[test]
    fn errors_along_games_sum_to_the_pairs_exact_shortfall() {
        let rules = Rules::new(Board::new(16, 8, 2, 2).unwrap(), "choice".parse().unwrap());
        let (a, b): (Die, Die) = ("1..6".parse().unwrap(), "2..7".parse().unwrap());
        let dir = std::env::temp_dir().join(format!(
            "wuerfelglueck-grading-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let builder = SolveSettings::builder(rules, a.clone(), b.clone())
            .tolerance(1e-10)
            .threads(1);
        let optimal = solve(&builder.clone().build().unwrap(), &Silent).unwrap();
        solve(
            &builder.layered(Part::All).values_out(&dir).build().unwrap(),
            &Silent,
        )
        .unwrap();
        let values = LayeredValues::open_dir(&dir).unwrap();
        for (side, name) in [(0, "safe"), (1, "frontmost"), (0, "capture")] {
            // The pair's exact value: the strategy on `side`, the optimal policy on the other.
            let mut options = SolveOptions::new(&rules, &a, &b);
            options.tolerance = 1e-10;
            options.threads = Some(1);
            *[&mut options.strategy_a, &mut options.strategy_b][side] = Some(name.to_string());
            let pair = solve(&SolveSettings::new(&options).unwrap(), &Silent).unwrap();
            // Every game ends: the value P(A) - P(B) is 2 P(A) - 1; seen from `side`.
            let sign = if side == 0 { 1.0 } else { -1.0 };
            let exact = sign * 2.0 * (optimal.p_a_if_a_starts - pair.p_a_if_a_starts);
            assert!(
                exact > 0.01,
                "{name} gives away {exact}: too little to test with"
            );

            let strategy = name.parse::<Strategy>().unwrap().seated([&a, &b], side);
            let games = 20_000u64;
            let (mut sum, mut squares) = (0.0, 0.0);
            for game in 0..games {
                let mut rng = StreamKey::new(5).with_stream(side as u64).rng(game);
                let face = a.roll(&mut rng);
                let (e, _, ended) = play_against_optimal(
                    &values,
                    [&a, &b],
                    &strategy,
                    side,
                    GameState::start(0),
                    face,
                    &mut rng,
                    100_000,
                )
                .unwrap();
                assert!(ended, "every game ends");
                sum += e;
                squares += e * e;
            }
            let n = games as f64;
            let mean = sum / n;
            let se = ((squares - n * mean * mean) / (n - 1.0) / n).sqrt();
            // Four standard errors (a false alarm about once in 16,000 runs of a seed), and
            // the brackets' widths.
            assert!(
                (mean - exact).abs() <= 4.0 * se + 1e-8,
                "{name} as {side}: {mean} +- {se} from sampled games, {exact} exact"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
