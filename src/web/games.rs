//! The game protocol, for people in the pages and for bots: a client creates a game (dice,
//! board, profile, the server's strategy), reads its state and the legal moves of its roll,
//! and submits its move. The server rolls every die (from the system's random source: no
//! seed is taken, so no roll can be foreseen or chosen), plays the other seat, and checks
//! every move; a game is found only by its id, 128 random bits.

use super::Server;
use super::error::HttpError;
use crate::api::options::{RulesOptions, parse_die};
use crate::api::play::{play_move, turn_record};
use crate::dice::Die;
use crate::report::{PlayMove, PlayTurn};
use crate::rules::{GameState, LegalMoves, PieceMove, Player, Rules};
use crate::sim::{GameRng, StreamKey};
use crate::strategy::Strategy;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::Args;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The options of a new game (`POST /api/games`), by the command line's conventions.
#[derive(Args, Debug, Clone)]
struct GameOptions {
    /// Die A (seat A, player 1).
    #[arg(long = "a", value_name = "FACES")]
    die_a: String,
    /// Die B (seat B, player 2).
    #[arg(long = "b", value_name = "FACES")]
    die_b: String,
    /// Board and rule profile (default profile: `choice`).
    #[command(flatten)]
    rules: RulesOptions,
    /// The client's seat: `a` or `b`; the server plays the other.
    #[arg(long, default_value = "a", value_parser = ["a", "b"])]
    seat: String,
    /// How the server plays its seat: `optimal` (the optimal pair's policy, solved when the
    /// game is created: boards whose solve fits the server's memory and time bounds) or a
    /// strategy: frontmost, rearmost, capture, safe, random, strong or strong-search
    /// (strong-search-2, strong-search-3).
    #[arg(long, default_value = "frontmost")]
    opponent: String,
    /// Who starts: `a` or `b` (under roll-off the dice decide).
    #[arg(long, default_value = "a", value_parser = ["a", "b"])]
    first: String,
    /// The game ends without a winner after this many rolls.
    #[arg(long = "max-rolls", default_value_t = 10_000)]
    max_rolls: u64,
}

const NAMES: [&str; 2] = ["A", "B"];

/// One game on the server.
struct Game {
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
    last_used: Instant,
}

/// A game as the client sees it.
#[derive(Serialize)]
struct GameView<'a> {
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

#[derive(Serialize)]
struct Drawing {
    waiting: u32,
    track: Vec<u32>,
    goal: Vec<u32>,
}

impl Game {
    fn view<'a>(&'a self, id: &'a str) -> GameView<'a> {
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
        GameView {
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
    fn advance(&mut self) -> Result<(), HttpError> {
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
    ) -> Result<(), HttpError> {
        let outcome = self
            .rules
            .play_move(&mut self.state, face, chosen)
            .map_err(|e| {
                HttpError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("internal error: {e}"),
                )
            })?;
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

/// The games on the server, by id, bounded in number and in the rolls they hold together
/// (a game keeps every roll, and the rolls are nearly all of its memory).
pub(crate) struct Games {
    games: Mutex<HashMap<String, Game>>,
    max: usize,
    max_rolls: u64,
}

impl Games {
    pub fn new(max: usize, max_rolls: u64) -> Games {
        Games {
            games: Mutex::new(HashMap::new()),
            max,
            max_rolls,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Game>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops the games idle longest, `current` (the game just played) excepted, until at
    /// most `max` games with at most `max_rolls` rolls together are kept.
    fn make_room(&self, games: &mut HashMap<String, Game>, current: &str) {
        let rolls = |games: &HashMap<String, Game>| -> u64 {
            games.values().map(|g| g.turns.len() as u64).sum()
        };
        let mut dropped = false;
        while games.len() > self.max || rolls(games) > self.max_rolls {
            let Some(oldest) = games
                .iter()
                .filter(|(id, _)| id.as_str() != current)
                .min_by_key(|(_, g)| g.last_used)
                .map(|(id, _)| id.clone())
            else {
                break;
            };
            games.remove(&oldest);
            dropped = true;
        }
        if dropped {
            give_back_freed_memory();
        }
    }
}

/// Returns the heap's free pages to the operating system: a dropped game frees many small
/// allocations (its rolls), which glibc's allocator would otherwise keep for the process.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds free.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// 128 random bits from the operating system's generator, as hex: an id nobody can guess.
fn new_id() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    format!("{:016x}{:016x}", rng.random::<u64>(), rng.random::<u64>())
}

/// The optimal pair's policy for `dice` under `rules`, solved now within `max_memory`.
fn optimal(rules: &Rules, dice: [&Die; 2], max_memory: u64) -> Result<Strategy, crate::api::Error> {
    use crate::api::Error;
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

/// Checks the options of a new game and sets it up (not yet played on); `optimal` is
/// solved within `max_memory`.
fn new_game(
    options: &GameOptions,
    max_memory: u64,
    values: Option<&Arc<crate::exact::game::layered::LayeredValues>>,
) -> Result<Game, crate::api::Error> {
    use crate::api::Error;
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
    let mut rng = StreamKey::new({
        use rand::RngExt;
        rand::rng().random()
    })
    .rng(0);
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
    Ok(Game {
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
        last_used: Instant::now(),
    })
}

/// `POST /api/games`: a new game, played on to the client's first decision.
async fn create(State(server): State<Arc<Server>>, body: Bytes) -> Result<Response, HttpError> {
    let request = super::error::json_object(&body)?;
    let options: GameOptions = crate::api::from_map("games", &request)?;
    // Every roll is kept (and in the answer): no game may hold more than the server keeps.
    let most = super::limits::MAX_ROLLS_HERE.min(server.games.max_rolls);
    super::limits::check_rolls(Some(&options.max_rolls.into()), most)?;
    let mut game = if options.opponent.trim() == "optimal" {
        // A solve: a job like any other, bounded in memory, time and number.
        let (memory, threads) = (server.limits.max_memory, server.limits.threads);
        let values = server.values.clone();
        super::jobs::start_work(&server, move |progress| {
            crate::api::run_in_pool(Some(threads), progress, |_| {
                new_game(&options, memory, values.as_ref())
            })
        })
        .await?
        .finish()
        .await?
    } else {
        new_game(&options, server.limits.max_memory, server.values.as_ref())?
    };
    game.advance()?;
    let id = new_id();
    let body = serde_json::to_string(&game.view(&id)).expect("a game view serializes");
    let mut games = server.games.lock();
    games.insert(id.clone(), game);
    server.games.make_room(&mut games, &id);
    Ok((
        StatusCode::CREATED,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

fn unknown(id: &str) -> HttpError {
    let shown: String = id.chars().take(40).collect();
    HttpError::not_found(format!(
        "no game {shown} here (it ended long ago, or never was)"
    ))
}

/// `GET /api/games/{id}`: the game's state.
async fn read(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, HttpError> {
    let mut games = server.games.lock();
    let game = games.get_mut(&id).ok_or_else(|| unknown(&id))?;
    game.last_used = Instant::now();
    Ok(axum::Json(game.view(&id)).into_response())
}

/// `POST /api/games/{id}/move` with `{"from": FIELD}` (`B` for a piece from the waiting
/// area, else the field's name in the client's numbering): plays the client's move for its
/// roll, then the game on to the client's next decision.
async fn play(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, HttpError> {
    let request = super::error::json_object(&body)?;
    let from = match request.get("from") {
        Some(serde_json::Value::String(s)) => s.clone(),
        _ => {
            return Err(HttpError::bad_request(
                "expected {\"from\": FIELD}: the field of the piece to move, B for the waiting area",
            ));
        }
    };
    if let Some(key) = request.keys().find(|k| *k != "from") {
        return Err(HttpError::bad_request(format!(
            "unknown key '{key}': expected only \"from\""
        )));
    }
    let mut games = server.games.lock();
    let game = games.get_mut(&id).ok_or_else(|| unknown(&id))?;
    game.last_used = Instant::now();
    let Some((face, legal)) = game.pending else {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            match game.end {
                Some(end) => format!("the game is over ({end})"),
                None => "not your turn".to_string(),
            },
        ));
    };
    let chosen = legal
        .iter()
        .find(|m| play_move(&game.rules, m).from == from)
        .ok_or_else(|| {
            let moves: Vec<String> = legal
                .iter()
                .map(|m| play_move(&game.rules, &m).from)
                .collect();
            HttpError::bad_request(format!(
                "no legal move from {} with a {face}: the legal moves start from {}",
                crate::dice::excerpt(&from),
                moves.join(", ")
            ))
        })?;
    game.pending = None;
    game.play(face, &legal, Some(chosen))?;
    game.advance()?;
    let answer = axum::Json(game.view(&id)).into_response();
    server.games.make_room(&mut games, &id);
    Ok(answer)
}

pub(crate) fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/move", post(play))
}
