//! `serve`: the library over HTTP, for people (pages in a browser) and for programs (the
//! commands' JSON, and a game protocol for bots).
//!
//! One process: axum on tokio, every page and the example dice files compiled into the
//! binary, so it works offline and no path from a request is ever opened. The handlers only
//! translate: a command runs through [`crate::api::execute`], a game through the rules
//! engine, exactly as the command line does.
//!
//! Every job is bounded (games, memory, time: [`Limits`]) and the jobs running at once are
//! capped; beyond a bound the answer is a 4xx or 503 with a message. A client that goes away
//! cancels its job (the library's cancellation, [`crate::api::Progress::cancel_flag`]).

mod assets;
mod error;
mod games;
mod guard;
mod jobs;
mod limits;

pub use limits::Limits;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use clap::Args;
use std::net::SocketAddr;
use std::sync::Arc;

/// The options of `serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeOptions {
    /// Address and port to listen on. The default serves this machine only; any other
    /// address lets other machines run jobs here (a warning says so).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDRESS:PORT")]
    pub bind: SocketAddr,
    /// Jobs (commands run over HTTP) at once; more are answered with 503 (default: the
    /// machine's cores).
    #[arg(long = "max-jobs", value_name = "N")]
    pub max_jobs: Option<usize>,
    /// Seconds a job may run before it is stopped and answered with 503.
    #[arg(long = "job-seconds", default_value_t = 60, value_name = "S")]
    pub job_seconds: u64,
    /// Games one job may play at most (`games` beyond it are refused; a precision is
    /// stopped by the time limit).
    #[arg(long = "max-games", default_value_t = 20_000_000, value_name = "N")]
    pub max_games: u64,
    /// Memory one exact solve may use: bytes, or e.g. `1GiB`.
    #[arg(long = "max-memory", default_value = "1GiB", value_name = "SIZE")]
    pub max_memory: String,
    /// Games kept in memory at once (the oldest idle one is dropped beyond it).
    #[arg(long = "max-games-kept", default_value_t = 1000, value_name = "N")]
    pub max_games_kept: usize,
    /// Rolls all kept games hold together (each game keeps every roll, about 1 KB each);
    /// beyond it the games idle longest are dropped, and no game may ask for more.
    #[arg(long = "max-rolls-kept", default_value_t = 250_000, value_name = "N")]
    pub max_rolls_kept: u64,
    /// The group files of a layered solve (`solve --layered --values-out DIR`), read and
    /// checked when the server starts: on their game the advice reads every move's exact
    /// value from them wherever they hold it, and the opponent `optimal` plays their best
    /// move there (`strong`, or `frontmost` where no learned player was trained, elsewhere).
    #[arg(long, value_name = "DIR")]
    pub values: Option<std::path::PathBuf>,
}

/// The state every handler shares.
pub(crate) struct Server {
    limits: Limits,
    jobs: jobs::Jobs,
    games: games::Games,
    /// `--values`, opened.
    values: Option<Arc<crate::exact::game::layered::LayeredValues>>,
}

/// The application served at `bound`: every route, on the shared state, behind the checks
/// that keep other sites' pages out ([`guard`]).
pub fn router(limits: Limits, bound: SocketAddr) -> Router {
    router_with_values(limits, bound, None)
}

/// [`router`] whose advice reads `values` where they are of the advice's game.
pub fn router_with_values(
    limits: Limits,
    bound: SocketAddr,
    values: Option<Arc<crate::exact::game::layered::LayeredValues>>,
) -> Router {
    let state = Arc::new(Server {
        jobs: jobs::Jobs::new(limits.max_jobs),
        games: games::Games::new(limits.max_games_kept, limits.max_rolls_kept),
        values,
        limits,
    });
    Router::new()
        .merge(assets::routes())
        .merge(jobs::routes())
        .merge(games::routes())
        .layer(DefaultBodyLimit::max(limits::MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(bound, guard::guard))
        .with_state(state)
}

/// Checks the options, binds the address and serves until Ctrl-C. `ready` is told the
/// address actually bound (with port 0, the one the system chose) before the first request.
///
/// The jobs without a pool of their own (advice, games) run on rayon's global pool, so a
/// `RAYON_NUM_THREADS` above the cap is refused here, as every command refuses it.
pub fn serve(
    options: &ServeOptions,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), crate::api::Error> {
    crate::api::options::check_threads(None)?;
    let limits = Limits::new(options)?;
    let values = match &options.values {
        Some(dir) => Some(Arc::new(open_values(dir)?)),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| crate::api::Error::failure(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.bind)
            .await
            .map_err(|e| crate::api::Error::input(format!("--bind {}: {e}", options.bind)))?;
        let address = listener
            .local_addr()
            .map_err(|e| crate::api::Error::failure(format!("--bind {}: {e}", options.bind)))?;
        ready(address);
        axum::serve(listener, router_with_values(limits, address, values))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| crate::api::Error::failure(format!("server error: {e}")))
    })
}

/// The values of `serve --values DIR`, every group file read and checked now (so that no
/// game or advice meets an unreadable file later), if what they keep in memory fits in
/// 80 % of it (mapped files keep none).
fn open_values(
    dir: &std::path::Path,
) -> Result<crate::exact::game::layered::LayeredValues, crate::api::Error> {
    use crate::api::Error;
    let values = crate::exact::game::layered::LayeredValues::open_dir(dir)
        .map_err(|e| Error::input(format!("--values: {e}")))?;
    let bytes = values.bytes_held_when_loaded();
    if let Some(limit) = crate::exact::memory::default_limit().filter(|&l| bytes > l) {
        return Err(Error::input(format!(
            "--values {}: its group files hold {} of values, read into memory, more than the {} allowed (80 % of \
             this machine's memory)",
            dir.display(),
            crate::exact::memory::format_bytes(bytes),
            crate::exact::memory::format_bytes(limit)
        )));
    }
    values
        .load_all()
        .map_err(|e| Error::input(format!("--values: {e}")))?;
    Ok(values)
}

/// Serves `options` on a thread of its own, for as long as the process runs (for tests and
/// load tests in one process), and returns the address bound once it listens.
pub fn spawn(options: ServeOptions) -> Result<SocketAddr, crate::api::Error> {
    use crate::api::Error;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("wuerfelglueck-serve".into())
        .spawn(move || {
            let ready = tx.clone();
            if let Err(e) = serve(&options, |address| {
                let _ = ready.send(Ok(address));
            }) {
                let _ = tx.send(Err(e));
            }
        })
        .map_err(|e| Error::failure(format!("cannot start the server's thread: {e}")))?;
    rx.recv()
        .map_err(|_| Error::failure("the server's thread ended before it listened"))?
}
