//! Running long work off the Python thread: the work runs on a thread of its own while the
//! calling thread waits without the GIL, waking every 100 ms to poll `Python::check_signals`
//! (Ctrl-C) and the progress callback, both seen through the library's
//! [`wuerfelglueck::api::Recorder`]. On Ctrl-C the call raises `KeyboardInterrupt` at once
//! and the work stops at its next checkpoint (the library's cancellation:
//! [`wuerfelglueck::api::Progress::cancel_flag`]); a solve cut off is not stored, and the
//! store of solved pairs is only ever written atomically, so no record is left half-written.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, mpsc};
use std::time::Duration;
use wuerfelglueck::api::{Error, Recorder};

/// The library's error as a Python exception: bad input (exit code 2) is a `ValueError`, a
/// failure while running (exit code 1) a `RuntimeError`.
pub fn py_err(e: Error) -> PyErr {
    if e.is_input() {
        PyValueError::new_err(e.message)
    } else {
        PyRuntimeError::new_err(e.message)
    }
}

/// Runs `work` on a thread of its own and waits for it without the GIL, polling Ctrl-C and
/// calling `progress(games_played, message)` (on this thread, with the GIL) when either
/// changed.
///
/// Ctrl-C is seen through Python's SIGINT handler (`check_signals` runs it every 0.1 s, and
/// a handler that raises in the progress callback stops the call too): with Python's
/// default handler the call raises `KeyboardInterrupt`. A process that ignores SIGINT (one
/// started in the background of a non-interactive shell inherits SIGINT ignored, and Python
/// then installs no handler) never sees the signal; that is the process's choice, and this
/// module installs no handler of its own.
pub fn run_detached<T: Send + 'static>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&Recorder) -> Result<T, Error> + Send + 'static,
) -> PyResult<T> {
    let monitor = Arc::new(Recorder::default());
    let (tx, rx) = mpsc::channel();
    let shared = Arc::clone(&monitor);
    std::thread::Builder::new()
        .name("wuerfelglueck".into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| work(&shared)));
            // The receiver is gone when the caller gave up: nobody needs the result.
            let _ = tx.send(outcome);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let mut shown = (0, String::new());
    let give_up = |e: PyErr| {
        monitor.cancel();
        Err(e)
    };
    let mut rx = rx;
    loop {
        // The receiver moves into the GIL-free closure and back (it is Send, not Sync).
        let (back, received) = py.detach(move || {
            let received = rx.recv_timeout(Duration::from_millis(100));
            (rx, received)
        });
        rx = back;
        if let Some(callback) = &progress {
            let now = monitor.snapshot();
            if now != shown {
                if let Err(e) = callback.call1(py, (now.0, now.1.clone())) {
                    return give_up(e);
                }
                shown = now;
            }
        }
        match received {
            Ok(Ok(result)) => return result.map_err(py_err),
            Ok(Err(panic)) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown".into());
                return Err(PyRuntimeError::new_err(format!("internal error: {what}")));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the work thread vanished",
                ));
            }
        }
        if let Err(e) = py.check_signals() {
            return give_up(e);
        }
    }
}
