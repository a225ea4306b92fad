//! Commands over HTTP: `POST /api/{command}` answers with the command's JSON, `GET
//! /api/{command}/events?options=...` streams its progress (server-sent events) and then
//! its result. Every job holds one of the `max_jobs` permits while it runs, is stopped
//! after `job_seconds`, and is cancelled when its client goes away.

use super::Server;
use super::error::HttpError;
use crate::api::{self, Progress};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

/// How long a request waits for a job permit before it is answered with 503: a burst of
/// short jobs (advice on a small board takes milliseconds) queues instead of failing.
const QUEUE_WAIT: Duration = Duration::from_secs(2);

/// The permits of the jobs running at once.
pub(crate) struct Jobs {
    permits: Arc<Semaphore>,
    max: usize,
}

impl Jobs {
    pub fn new(max: usize) -> Jobs {
        Jobs {
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// A permit, waiting up to [`QUEUE_WAIT`] for one; 503 when `max` jobs are still
    /// running then.
    async fn permit(&self) -> Result<OwnedSemaphorePermit, HttpError> {
        let waited = tokio::time::timeout(QUEUE_WAIT, Arc::clone(&self.permits).acquire_owned());
        match waited.await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(HttpError::busy(format!(
                "busy: {} jobs are running, the most this server runs at once; try again later",
                self.max
            ))),
        }
    }
}

/// What a running job tells its client, and the flag that stops it.
#[derive(Default)]
struct JobProgress {
    games: AtomicU64,
    message: Mutex<String>,
    cancel: Arc<AtomicBool>,
}

impl JobProgress {
    fn set_message(&self, text: &str) {
        *self.message.lock().unwrap_or_else(|e| e.into_inner()) = text.to_string();
    }

    fn snapshot(&self) -> (u64, String) {
        let message = self
            .message
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (self.games.load(Ordering::Relaxed), message)
    }
}

impl Progress for JobProgress {
    fn begin(&self, label: &str, _total_games: Option<u64>) {
        self.set_message(label);
    }
    fn games(&self, n: u64) {
        self.games.fetch_add(n, Ordering::Relaxed);
    }
    fn status(&self, text: &str) {
        self.set_message(text);
    }
    fn note(&self, line: &str) {
        self.set_message(line);
    }
    fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        Some(Arc::clone(&self.cancel))
    }
}

/// Stops the job when dropped: the handler (or the event stream) is dropped when the
/// client goes away, and the job then stops at its next checkpoint.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A job started: its progress, its work and what stops it.
pub(crate) struct Job<T> {
    progress: Arc<JobProgress>,
    work: JoinHandle<Result<T, api::Error>>,
    deadline: Instant,
    seconds: u64,
    _cancel: CancelOnDrop,
}

/// The options of a request: a JSON object.
fn options_of(bytes: &[u8]) -> Result<Map<String, Value>, HttpError> {
    match serde_json::from_slice(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(HttpError::bad_request(
            "the request body must be a JSON object of options, e.g. {\"a\": \"1..6\", \"b\": \"0..9\"}",
        )),
        Err(e) => Err(HttpError::bad_request(format!(
            "the request body is not JSON: {e}"
        ))),
    }
}

/// Checks the request and starts its command as a job.
async fn start(
    server: &Server,
    command: &str,
    options: Map<String, Value>,
) -> Result<Job<api::Output>, HttpError> {
    let options = server.limits.check(command, options)?;
    let command = command.to_string();
    start_work(server, move |progress| {
        api::execute(&command, &options, progress)
    })
    .await
}

/// Starts `work` as a job on a thread of its own, holding one of the job permits (503 when
/// none is free in time) until it has stopped, also after a timeout.
pub(crate) async fn start_work<T: Send + 'static>(
    server: &Server,
    work: impl FnOnce(&dyn Progress) -> Result<T, api::Error> + Send + 'static,
) -> Result<Job<T>, HttpError> {
    let permit = server.jobs.permit().await?;
    let progress = Arc::new(JobProgress::default());
    let cancel = CancelOnDrop(Arc::clone(&progress.cancel));
    let shared = Arc::clone(&progress);
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&*shared)
    });
    let seconds = server.limits.job_seconds;
    Ok(Job {
        progress,
        work,
        deadline: Instant::now() + Duration::from_secs(seconds),
        seconds,
        _cancel: cancel,
    })
}

impl<T> Job<T> {
    /// The job's result, or 503 once its time is up (the job is then stopped).
    pub(crate) async fn finish(self) -> Result<T, HttpError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, self.work).await {
            Ok(outcome) => ended(outcome),
            // Dropping the job's guard stops the work.
            Err(_) => Err(timed_out(self.seconds)),
        }
    }
}

/// The answer to a job that has ended.
fn ended<T>(
    outcome: Result<Result<T, api::Error>, tokio::task::JoinError>,
) -> Result<T, HttpError> {
    match outcome {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(e)) => Err(e.into()),
        Err(e) => Err(HttpError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: {e}"),
        )),
    }
}

fn timed_out(seconds: u64) -> HttpError {
    HttpError::busy(format!(
        "stopped after {seconds} s, the most a job may run here: ask for fewer games or a \
         coarser precision"
    ))
}

/// `POST /api/{command}`: the command's JSON for the options in the body.
async fn run(
    State(server): State<Arc<Server>>,
    Path(command): Path<String>,
    body: Bytes,
) -> Result<Response, HttpError> {
    let options = options_of(&body)?;
    let output = start(&server, &command, options).await?.finish().await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], output.json).into_response())
}

/// The query of the event stream: the options as JSON text (an `EventSource` can only GET).
#[derive(serde::Deserialize)]
struct EventsQuery {
    options: String,
}

/// `GET /api/{command}/events?options=JSON`: `progress` events (`{"games", "message"}`)
/// while the job runs, then one `result` event (the command's JSON) or one `error` event
/// (`{"status", "error"}`). Closing the stream cancels the job.
async fn events(
    State(server): State<Arc<Server>>,
    Path(command): Path<String>,
    Query(query): Query<EventsQuery>,
) -> Result<Response, HttpError> {
    let options = options_of(query.options.as_bytes())?;
    let job = start(&server, &command, options).await?;
    let stream = futures_util::stream::unfold(Some((job, (0, String::new()))), |state| async {
        let (mut job, mut shown) = state?;
        loop {
            if job.work.is_finished() {
                let event = match ended((&mut job.work).await) {
                    Ok(output) => Event::default().event("result").data(output.json),
                    Err(e) => error_event(&e),
                };
                return Some((Ok::<_, std::convert::Infallible>(event), None));
            }
            if Instant::now() >= job.deadline {
                let event = error_event(&timed_out(job.seconds));
                return Some((Ok(event), None));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
            let now = job.progress.snapshot();
            if now != shown {
                shown = now.clone();
                let data = serde_json::json!({"games": now.0, "message": now.1}).to_string();
                let event = Event::default().event("progress").data(data);
                return Some((Ok(event), Some((job, shown))));
            }
        }
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn error_event(e: &HttpError) -> Event {
    let data = serde_json::json!({"status": e.status.as_u16(), "error": e.message}).to_string();
    Event::default().event("error").data(data)
}

pub(crate) fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route("/api/{command}", post(run))
        .route("/api/{command}/events", get(events))
}
