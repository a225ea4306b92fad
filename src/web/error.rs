//! Answers that are not results: a status and a message, as JSON `{"error": "..."}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A refusal or a failure, with the HTTP status it is answered with.
#[derive(Debug)]
pub(crate) struct HttpError {
    pub status: StatusCode,
    pub message: String,
}

impl HttpError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::NOT_FOUND, message)
    }

    pub(crate) fn busy(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

/// The library's error: bad input is 400, a failure while running 500, a job stopped
/// because its caller gave up or its time ran out 503.
impl From<crate::api::Error> for HttpError {
    fn from(e: crate::api::Error) -> Self {
        let status = if e.is_input() {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::INTERNAL_SERVER_ERROR
        };
        HttpError::new(status, e.message)
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// A request's body as a JSON object (the options of a command or a game, a move).
pub(crate) fn json_object(
    bytes: &[u8],
) -> Result<serde_json::Map<String, serde_json::Value>, HttpError> {
    match serde_json::from_slice(bytes) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err(HttpError::bad_request(
            "the request body must be a JSON object, e.g. {\"a\": \"1..6\", \"b\": \"0..9\"}",
        )),
        Err(e) => Err(HttpError::bad_request(format!(
            "the request body is not JSON: {e}"
        ))),
    }
}
