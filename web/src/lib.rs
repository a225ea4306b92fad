//! wuerfelglueck in a browser: the library's commands ([`execute`], as the web app's server
//! runs them), games against the program ([`Game`], the server's game protocol) and the
//! example dice, for the static site's Web Worker (`web/worker.js`).
//!
//! The browser gives a module one thread: rayon's global pool then runs its work on it,
//! so every count equals the command line's for the same seed.

use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wuerfelglueck::api::session::{MoveRefused, Session, SessionOptions};
use wuerfelglueck::api::{self, Progress, Recorder};

// The `Sync` below holds only where nothing runs beside the one thread.
#[cfg(target_feature = "atomics")]
compile_error!("this crate calls JavaScript from `Progress`, which must stay on one thread");

/// How often progress is posted to the page, in milliseconds.
const PROGRESS_EVERY_MS: f64 = 100.0;

/// Progress recorded as the server's jobs record it, and posted to the page through
/// `post(games, message)` at most every [`PROGRESS_EVERY_MS`].
struct Posting {
    recorder: Recorder,
    post: js_sys::Function,
    last: Cell<f64>,
}

// SAFETY: a browser module without the `atomics` feature (checked above) runs on one
// thread, so the function and the cell are never touched from two threads.
unsafe impl Sync for Posting {}

impl Posting {
    fn maybe_post(&self) {
        let now = js_sys::Date::now();
        if now - self.last.get() >= PROGRESS_EVERY_MS {
            self.last.set(now);
            let (games, message) = self.recorder.snapshot();
            // A page that cannot take progress loses only the progress.
            let _ = self.post.call2(
                &JsValue::NULL,
                &JsValue::from_f64(games as f64),
                &JsValue::from_str(&message),
            );
        }
    }
}

impl Progress for Posting {
    fn begin(&self, label: &str, total_games: Option<u64>) {
        self.recorder.begin(label, total_games);
        self.maybe_post();
    }
    fn games(&self, n: u64) {
        self.recorder.games(n);
        self.maybe_post();
    }
    fn status(&self, text: &str) {
        self.recorder.status(text);
        self.maybe_post();
    }
    fn note(&self, line: &str) {
        self.recorder.note(line);
        self.maybe_post();
    }
}

/// The options of a request: a JSON object of option names (the command line's) to values.
fn options_of(json: &str) -> Result<serde_json::Map<String, serde_json::Value>, JsError> {
    match serde_json::from_str(json) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err(JsError::new("expected a JSON object of options")),
        Err(e) => Err(JsError::new(&format!("options are not JSON: {e}"))),
    }
}

/// Runs `command` (`duel`, `rank`, `advise`, `play`, `solve`, ...) with `options_json`, as
/// `POST /api/{command}` does on the server, calling `progress(games, message)` as it goes;
/// returns the command's JSON report. A request for threads or files is refused: the page
/// has one thread and no files. Exact solves are bounded as on a machine of 4 GiB (what a
/// module addresses): a board too large is refused before any work, with the estimate.
#[wasm_bindgen]
pub fn execute(
    command: &str,
    options_json: &str,
    progress: js_sys::Function,
) -> Result<String, JsError> {
    // No path of the request's choosing (the browser has no files to give), and no threads.
    let options = api::request::without_paths(options_of(options_json)?)
        .map_err(|e| JsError::new(&e.message))?;
    if options.contains_key("threads") {
        return Err(JsError::new(
            "threads: refused here (the page plays on one thread)",
        ));
    }
    let posting = Posting {
        recorder: Recorder::default(),
        post: progress,
        last: Cell::new(0.0),
    };
    api::execute(command, &options, &posting)
        .map(|output| output.json)
        .map_err(|e| JsError::new(&e.message))
}

/// The organisers' example files with their dice: `[{"name", "dice"}]`.
#[wasm_bindgen]
pub fn examples() -> String {
    wuerfelglueck::dice::examples::examples_json().to_string()
}

/// A game against the program, as the server's game protocol plays it.
#[wasm_bindgen]
pub struct Game {
    session: Session,
    id: String,
}

#[wasm_bindgen]
impl Game {
    /// A new game from `POST /api/games`'s options (JSON), its rolls from `seed` (the page
    /// draws it from the browser's cryptographic generator), played on to the client's
    /// first decision; `id` is the name the page gives it.
    #[wasm_bindgen(constructor)]
    pub fn new(id: String, options_json: &str, seed: u64) -> Result<Game, JsError> {
        let options: SessionOptions = api::from_map("games", &options_of(options_json)?)
            .map_err(|e| JsError::new(&e.message))?;
        let max_memory = wuerfelglueck::exact::memory::default_limit().unwrap_or(u64::MAX);
        let mut session =
            Session::new(&options, seed, max_memory, None).map_err(|e| JsError::new(&e.message))?;
        session.advance().map_err(|e| JsError::new(&e.message))?;
        Ok(Game { session, id })
    }

    /// The game as the protocol shows it (JSON).
    pub fn view(&self) -> String {
        serde_json::to_string(&self.session.view(&self.id)).expect("a game view serializes")
    }

    /// Plays the client's move from field `from` (`B`: the waiting area), then on to its
    /// next decision; returns the new view.
    #[wasm_bindgen(js_name = "move")]
    pub fn choose(&mut self, from: &str) -> Result<String, JsError> {
        match self
            .session
            .choose(from)
            .map_err(|e| JsError::new(&e.message))?
        {
            Ok(()) => Ok(self.view()),
            Err(MoveRefused::NotYourTurn(m) | MoveRefused::Illegal(m)) => Err(JsError::new(&m)),
        }
    }
}
