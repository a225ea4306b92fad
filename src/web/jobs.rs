//! Commands over HTTP: `POST /api/{command}` answers with the command's JSON, `GET
//! /api/{command}/events?options=...` streams its progress (server-sent events) and then
//! its result. Every job holds one of the `max_jobs` permits while it runs, is stopped
//! after `job_seconds`, and is cancelled when its client goes away.

use super::Server;
use super::error::{Body, HttpError};
use crate::api::{self, Progress, Recorder};
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value};
use std::sync::Arc;
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
    pub(super) fn new(max: usize) -> Jobs {
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

/// Stops the job when dropped: the handler (or the event stream) is dropped when the
/// client goes away, and the job then stops at its next checkpoint.
struct CancelOnDrop(Arc<Recorder>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A job started: its progress, its work and what stops it.
pub(crate) struct Job<T> {
    progress: Arc<Recorder>,
    work: JoinHandle<Result<T, api::Error>>,
    deadline: Instant,
    seconds: u64,
    _cancel: CancelOnDrop,
}

/// Checks the request and starts its command as a job.
async fn start(
    server: &Server,
    command: &str,
    options: Map<String, Value>,
) -> Result<Job<api::Output>, HttpError> {
    let options = server.limits.check(command, options)?;
    if command == "advise"
        && let Some(values) = &server.values
    {
        let values = Arc::clone(values);
        return start_work(server, move |progress| {
            api::execute_advise_with_values(&options, &values, progress)
        })
        .await;
    }
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
    let progress = Arc::new(Recorder::default());
    let cancel = CancelOnDrop(Arc::clone(&progress));
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
    Body(options): Body<Map<String, Value>>,
) -> Result<Response, HttpError> {
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
///
/// A job that cannot start (options refused, an unknown command, every slot still taken
/// after the wait) is that one `error` event too: a browser's `EventSource` reads no body
/// of an HTTP error, and would say only that the connection failed.
async fn events(
    State(server): State<Arc<Server>>,
    Path(command): Path<String>,
    Query(query): Query<EventsQuery>,
) -> Response {
    let started = match super::error::json_object(&query.options) {
        Ok(options) => start(&server, &command, options).await,
        Err(e) => Err(e),
    };
    let job = match started {
        Ok(job) => job,
        Err(e) => {
            let only = futures_util::stream::once(async move {
                Ok::<_, std::convert::Infallible>(error_event(&e))
            });
            return Sse::new(only).into_response();
        }
    };
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
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
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
