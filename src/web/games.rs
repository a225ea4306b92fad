//! The game protocol, for people in the pages and for bots: a client creates a game (dice,
//! board, profile, the server's strategy), reads its state and the legal moves of its roll,
//! and submits its move. The server rolls every die (from the system's random source: no
//! seed is taken, so no roll can be foreseen or chosen), plays the other seat, and checks
//! every move; a game is found only by its id, 128 random bits.

use super::Server;
use super::error::{Body, HttpError};
use crate::api::session::{MoveRefused, MoveRequest, Session, SessionOptions};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A game kept on the server, with when its client last asked for it.
struct Game {
    session: Session,
    last_used: Instant,
}

/// The games on the server, by id, bounded in number and in the rolls they hold together
/// (a game keeps every roll, and the rolls are nearly all of its memory).
pub(crate) struct Games {
    games: Mutex<HashMap<String, Game>>,
    max: usize,
    max_rolls: u64,
}

impl Games {
    pub(super) fn new(max: usize, max_rolls: u64) -> Games {
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
            games.values().map(|g| g.session.rolls() as u64).sum()
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

/// The seed of a game's rolls, from the operating system's generator: no roll can be
/// foreseen or chosen.
fn new_seed() -> u64 {
    use rand::RngExt;
    rand::rng().random()
}

/// 128 random bits from the operating system's generator, as hex: an id nobody can guess.
fn new_id() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    format!("{:016x}{:016x}", rng.random::<u64>(), rng.random::<u64>())
}

/// `POST /api/games`: a new game, played on to the client's first decision.
async fn create(
    State(server): State<Arc<Server>>,
    Body(request): Body<serde_json::Map<String, serde_json::Value>>,
) -> Result<Response, HttpError> {
    let options: SessionOptions = crate::api::from_map("games", &request)?;
    let seed = new_seed();
    // Every roll is kept (and in the answer): no game may hold more than the server keeps.
    let most = super::limits::MAX_ROLLS_HERE.min(server.games.max_rolls);
    super::limits::check_rolls(Some(&options.max_rolls.into()), most)?;
    let mut session = if options.opponent.trim() == "optimal" {
        // A solve: a job like any other, bounded in memory, time and number.
        let (memory, threads) = (server.limits.max_memory, server.limits.threads);
        let values = server.values.clone();
        super::jobs::start_work(&server, move |progress| {
            crate::api::run_in_pool(Some(threads), progress, |_| {
                Session::new(&options, seed, memory, values.as_ref())
            })
        })
        .await?
        .finish()
        .await?
    } else {
        Session::new(
            &options,
            seed,
            server.limits.max_memory,
            server.values.as_ref(),
        )?
    };
    session.advance()?;
    let id = new_id();
    let body = serde_json::to_string(&session.view(&id)).expect("a game view serializes");
    let mut games = server.games.lock();
    let last_used = Instant::now();
    games.insert(id.clone(), Game { session, last_used });
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
    Ok(axum::Json(game.session.view(&id)).into_response())
}

/// `POST /api/games/{id}/move` with `{"from": FIELD}` (`B` for a piece from the waiting
/// area, else the field's name in the client's numbering): plays the client's move for its
/// roll, then the game on to the client's next decision.
async fn play(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    Body(request): Body<MoveRequest>,
) -> Result<Response, HttpError> {
    let mut games = server.games.lock();
    let game = games.get_mut(&id).ok_or_else(|| unknown(&id))?;
    game.last_used = Instant::now();
    game.session
        .choose(&request.from)?
        .map_err(|refused| match refused {
            MoveRefused::NotYourTurn(m) => HttpError::new(StatusCode::CONFLICT, m),
            MoveRefused::Illegal(m) => HttpError::bad_request(m),
        })?;
    let answer = axum::Json(game.session.view(&id)).into_response();
    server.games.make_room(&mut games, &id);
    Ok(answer)
}

pub(crate) fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/move", post(play))
}
