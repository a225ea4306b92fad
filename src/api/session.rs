//! A game against the program, move by move: the engine under the web app's game protocol
//! and the static site's. A session holds the rules, the dice, the program's strategy for
//! its seat and the state; it rolls every die itself (from the seed it was made with), plays
//! the program's seat and the rolls that leave no choice, and stops at each roll where the
//! person (or bot) has a choice to make, which [`Session::choose`] plays.

use crate::api::Error;
use crate::api::options::{RulesOptions, parse_die};
use crate::api::play::{play_move, turn_record};
use crate::dice::Die;
use crate::report::{PlayMove, PlayTurn};
use crate::rules::{GameState, LegalMoves, PieceMove, Player, Rules};
use crate::sim::{GameRng, StreamKey};
use crate::strategy::Strategy;
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The options of a new game (`POST /api/games`), by the command line's conventions; read
/// from a request with [`crate::api::from_map`]`("games", ...)`.
#[derive(Args, Debug, Clone)]
pub struct SessionOptions {
    /// Die A (seat A, player 1).
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B (seat B, player 2).
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Board and rule profile (default profile: `choice`).
    #[command(flatten)]
    pub rules: RulesOptions,
    /// The client's seat: `a` or `b`; the server plays the other.
    #[arg(long, default_value = "a", value_parser = ["a", "b"])]
    pub seat: String,
    /// How the server plays its seat: `optimal` (the optimal pair's policy, solved when the
    /// game is created: boards whose solve fits the server's memory and time bounds) or a
    /// strategy: frontmost, rearmost, capture, safe, random, strong or strong-search
    /// (strong-search-2, strong-search-3).
    #[arg(long, default_value = "frontmost")]
    pub opponent: String,
    /// Who starts: `a` or `b` (under roll-off the dice decide).
    #[arg(long, default_value = "a", value_parser = ["a", "b"])]
    pub first: String,
    /// The game ends without a winner after this many rolls.
    #[arg(long = "max-rolls", default_value_t = 10_000)]
    pub max_rolls: u64,
}

const NAMES: [&str; 2] = ["A", "B"];

/// One game against the program.
pub struct Session {
    rules: Rules,
    dice: [Die; 2],
    /// The server's strategy for its seat, resolved against the client's die.
    opponent: Strategy,
    opponent_name: String,
    /// The client's seat.
    seat: Player,
    state: GameState,
    rng: GameRng,
    /// The client's roll waiting for a move, with its legal moves.
    pending: Option<(u32, LegalMoves)>,
    turns: Vec<PlayTurn>,
    /// `won`, `never_ends` or `max_rolls` once over.
    end: Option<&'static str>,
    winner: Option<Player>,
    max_rolls: u64,
}

/// A game as the client sees it (the JSON of the game protocol).
#[derive(Serialize)]
pub struct SessionView<'a> {
    id: &'a str,
    board: String,
    /// Track fields, start of seat B on A's track, pieces and goal fields.
    track: u32,
    offset: u32,
    pieces: u32,
    goal_fields: u32,
    profile: String,
    dice: [String; 2],
    you: &'static str,
    opponent: &'a str,
    /// The seat to roll or move next (`null` once the game is over).
    turn: Option<&'static str>,
    /// The client's roll waiting for a move.
    roll: Option<u32>,
    /// The legal moves of that roll, in the client's numbering (`B`: the waiting area).
    legal: Vec<PlayMove>,
    /// Each seat's pieces in its own numbering, e.g. `B:2 A 17 c`.
    position: BTreeMap<String, String>,
    /// The position in `advise`'s notation (`A:A,17,c B:5 turn:A`), for asking for advice.
    advise_position: String,
    /// Each seat's pieces for drawing: waiting pieces, track fields counted on A's track
    /// (0 is A's start field), goal fields (0 is the first).
    drawing: BTreeMap<String, Drawing>,
    /// Every roll so far, as `play --format json` lists them.
    turns: &'a [PlayTurn],
    end: Option<&'static str>,
    winner: Option<&'static str>,
}

/// Where a seat's pieces are, for drawing the board.
#[derive(Serialize)]
pub struct Drawing {
    waiting: u32,
    track: Vec<u32>,
    goal: Vec<u32>,
}

impl Session {
    /// The game as the client sees it, under the name `id`.
    pub fn view<'a>(&'a self, id: &'a str) -> SessionView<'a> {
        let board = self.rules.board();
        let track = board.track_len();
        let drawing = (0..2)
            .map(|p| {
                let start = if p == 0 { 0 } else { board.offset() };
                let fields: Vec<u32> = self.state.fields(p).collect();
                (
                    NAMES[p].to_string(),
                    Drawing {
                        waiting: self.state.waiting(board, p),
                        track: fields
                            .iter()
                            .filter(|&&f| f < track)
                            .map(|&f| (f + start) % track)
                            .collect(),
                        goal: fields
                            .iter()
                            .filter(|&&f| f >= track)
                            .map(|&f| f - track)
                            .collect(),
                    },
                )
            })
            .collect();
        SessionView {
            id,
            board: board.to_string(),
            track,
            offset: board.offset(),
            pieces: board.pieces(),
            goal_fields: board.goal_len(),
            profile: self.rules.profile().to_string(),
            dice: [self.dice[0].to_string(), self.dice[1].to_string()],
            you: NAMES[self.seat],
            opponent: &self.opponent_name,
            turn: self.end.is_none().then(|| NAMES[self.state.mover()]),
            roll: self.pending.as_ref().map(|(face, _)| *face),
            legal: self
                .pending
                .as_ref()
                .map(|(_, legal)| legal.iter().map(|m| play_move(&self.rules, &m)).collect())
                .unwrap_or_default(),
            position: (0..2)
                .map(|p| (NAMES[p].to_string(), self.state.describe(board, p)))
                .collect(),
            drawing,
            advise_position: self.advise_position(),
            turns: &self.turns,
            end: self.end,
            winner: self.winner.map(|w| NAMES[w]),
        }
    }

    /// The position in `advise`'s notation: each seat's pieces on the board, who rolls.
    fn advise_position(&self) -> String {
        let board = self.rules.board();
        let seat = |p: usize| {
            let fields: Vec<String> = self.state.fields(p).map(|f| board.field_name(f)).collect();
            format!(
                "{}:{}",
                NAMES[p],
                if fields.is_empty() {
                    "-".to_string()
                } else {
                    fields.join(",")
                }
            )
        };
        format!("{} {} turn:{}", seat(0), seat(1), NAMES[self.state.mover()])
    }

    /// Plays on until the client has a roll with a choice to make or the game is over:
    /// the server's seat by its strategy, the client's rolls without a choice (no legal
    /// move, or one) as the rules force them.
    pub fn advance(&mut self) -> Result<(), Error> {
        while self.end.is_none() && self.pending.is_none() {
            if self.turns.len() as u64 >= self.max_rolls {
                self.end = Some("max_rolls");
                return Ok(());
            }
            let mover = self.state.mover();
            let face = self.dice[mover].roll(&mut self.rng);
            let (own, other) = (self.state.pieces[mover], self.state.pieces[1 - mover]);
            let legal = self.rules.legal_moves(own, other, mover, face);
            let chosen = if mover == self.seat {
                if legal.len() >= 2 {
                    self.pending = Some((face, legal));
                    return Ok(());
                }
                legal.iter().next()
            } else {
                self.opponent
                    .choose(&self.rules, own, other, mover, &legal, &mut self.rng)
            };
            self.play(face, &legal, chosen)?;
        }
        Ok(())
    }

    /// Plays `chosen` (one of `legal`) for the mover's roll `face` and records it.
    fn play(
        &mut self,
        face: u32,
        legal: &LegalMoves,
        chosen: Option<PieceMove>,
    ) -> Result<(), Error> {
        let outcome = self
            .rules
            .play_move(&mut self.state, face, chosen)
            .map_err(|e| Error::failure(format!("internal error: {e}")))?;
        let roll = self.turns.len() as u64 + 1;
        self.turns
            .push(turn_record(&self.rules, roll, legal, &outcome, &self.state));
        if let Some(w) = outcome.winner {
            self.end = Some("won");
            self.winner = Some(w);
        } else if crate::sim::never_ends(&self.rules, [&self.dice[0], &self.dice[1]], &self.state) {
            self.end = Some("never_ends");
        }
        Ok(())
    }
}

/// The optimal pair's policy for `dice` under `rules`, solved now within `max_memory`.
fn optimal(rules: &Rules, dice: [&Die; 2], max_memory: u64) -> Result<Strategy, Error> {
    use crate::exact::game::{GameRun, Side, TableStrategy, solve_game_with};
    if !rules.profile().choice {
        return Err(Error::input(format!(
            "--opponent optimal: under --profile {} the rules fix every move; optimal play \
             needs a profile with choice",
            rules.profile()
        )));
    }
    let options = crate::exact::SolveOptions::new(
        1e-9,
        crate::exact::SolveOptions::default().max_sweeps,
        Some(max_memory),
    )
    .map_err(|e| crate::api::rule_error(e.0))?;
    let run = GameRun {
        keep_values: false,
        evaluate_pair: false,
        observer: &|_| {},
        extract_policy: true,
        mirror: true,
    };
    let solution = solve_game_with(rules, dice, [Side::Optimal, Side::Optimal], &options, &run)
        .map_err(|e| {
            if e.is_input_error() {
                Error::input(format!("--opponent optimal: {e}"))
            } else {
                Error::failure(format!("--opponent optimal: {e}"))
            }
        })?;
    let table = TableStrategy::solved(rules, dice, solution)
        .ok_or_else(|| Error::failure("--opponent optimal: the solve gave no policy"))?;
    Ok(Strategy::Table(Arc::new(table)))
}

impl Session {
    /// Checks the options of a new game and sets it up (not yet played on): its rolls come
    /// from `seed`; `optimal` is solved within `max_memory`, or read from `values` where
    /// they are of this game.
    pub fn new(
        options: &SessionOptions,
        seed: u64,
        max_memory: u64,
        values: Option<&Arc<crate::exact::game::layered::LayeredValues>>,
    ) -> Result<Session, Error> {
        let rules = options.rules.rules_with_default_profile("choice")?;
        let a = parse_die("--a", &options.die_a)?;
        let b = parse_die("--b", &options.die_b)?;
        let seat = usize::from(options.seat == "b");
        let of_this_game = values.filter(|v| v.check_game(&rules, [&a, &b]).is_ok());
        let opponent: Strategy = if options.opponent.trim() == "optimal"
            && let Some(values) = of_this_game
        {
            // The server's values: their best move where they hold every move's group, the
            // learned player (or frontmost) elsewhere.
            let exact = crate::exact::game::exact_strategy::ExactStrategy::of_loaded(
                Arc::clone(values),
                "the server's values",
            );
            let strong = Strategy::Strong(crate::strategy::Strong::shipped());
            let fallback = if strong.check_game(&rules, [&a, &b]).is_ok() {
                strong
            } else {
                Strategy::Frontmost
            };
            Strategy::Exact(Arc::new(exact), Box::new(fallback))
        } else if options.opponent.trim() == "optimal" {
            optimal(&rules, [&a, &b], max_memory)?
        } else {
            // Refused before parsing: parsing such a name would open the file.
            if crate::strategy::names_a_file(&options.opponent) {
                return Err(Error::input(
                    "--opponent: a table:FILE or strong:FILE strategy reads a file, which the server does not do",
                ));
            }
            let strategy: Strategy = options
                .opponent
                .parse()
                .map_err(|e| Error::input(format!("--opponent: {e}")))?;
            strategy
                .check_game(&rules, [&a, &b])
                .map_err(|e| Error::input(format!("--opponent: {e}")))?;
            strategy
        };
        let mut strategies = [Strategy::Frontmost, Strategy::Frontmost];
        strategies[1 - seat] = opponent.clone();
        let mut rng = StreamKey::new(seed).rng(0);
        let (first, played) = {
            let matchup =
                crate::api::options::matchup(&rules, &a, &b, options.max_rolls, "--max-rolls")?
                    .playing(strategies)
                    .map_err(|e| Error::input(format!("--opponent {opponent}: {e}")))?;
            (
                matchup.first_player(usize::from(options.first == "b"), &mut rng),
                matchup.strategies()[1 - seat].clone(),
            )
        };
        Ok(Session {
            opponent: played,
            // Said as it is played: the server's values reach only some positions.
            opponent_name: match &opponent {
                Strategy::Exact(_, fallback) => format!(
                    "optimal (the server's exact values where they hold every move, {} elsewhere)",
                    fallback.name()
                ),
                _ => options.opponent.trim().to_string(),
            },
            rules,
            dice: [a, b],
            seat,
            state: GameState::start(first),
            rng,
            pending: None,
            turns: Vec::new(),
            end: None,
            winner: None,
            max_rolls: options.max_rolls,
        })
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveRefused {
    /// The game is over, or the program is to move.
    NotYourTurn(String),
    /// No legal move of the roll starts from that field.
    Illegal(String),
}

impl std::fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveRefused::NotYourTurn(m) | MoveRefused::Illegal(m) => f.write_str(m),
        }
    }
}

impl Session {
    /// Plays the client's move for its roll, the piece on `from` (`B` for the waiting area,
    /// else the field's name in the client's numbering), then the game on to the client's
    /// next decision ([`Session::advance`]).
    pub fn choose(&mut self, from: &str) -> Result<Result<(), MoveRefused>, Error> {
        let Some((face, legal)) = self.pending else {
            return Ok(Err(MoveRefused::NotYourTurn(match self.end {
                Some(end) => format!("the game is over ({end})"),
                None => "not your turn".to_string(),
            })));
        };
        let Some(chosen) = legal
            .iter()
            .find(|m| play_move(&self.rules, m).from == from)
        else {
            let moves: Vec<String> = legal
                .iter()
                .map(|m| play_move(&self.rules, &m).from)
                .collect();
            return Ok(Err(MoveRefused::Illegal(format!(
                "no legal move from {} with a {face}: the legal moves start from {}",
                crate::dice::excerpt(from),
                moves.join(", ")
            ))));
        };
        self.pending = None;
        self.play(face, &legal, Some(chosen))?;
        self.advance()?;
        Ok(Ok(()))
    }

    /// The rolls played so far (nearly all of a session's memory).
    pub fn rolls(&self) -> usize {
        self.turns.len()
    }
}
