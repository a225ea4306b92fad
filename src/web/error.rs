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

/// What a request body must be: its type, and the sentence that says so when the body is
/// JSON of another shape.
pub(crate) trait RequestBody: serde::de::DeserializeOwned {
    /// What was expected, for the refusal of a body of another shape.
    const EXPECTED: &'static str;
}

/// The options of a command or a game: a JSON object, checked key by key as the command
/// line checks its options ([`crate::api::from_map`]).
impl RequestBody for serde_json::Map<String, serde_json::Value> {
    const EXPECTED: &'static str =
        "the request body must be a JSON object, e.g. {\"a\": \"1..6\", \"b\": \"0..9\"}";
}

impl RequestBody for crate::api::session::MoveRequest {
    const EXPECTED: &'static str =
        "expected {\"from\": FIELD}: the field of the piece to move, B for the waiting area";
}

/// A request body read by axum's [`Json`] extractor into its type `T`, refused as the API
/// refuses: a 400 with `{"error": ...}` saying what was expected (axum's own rejections
/// are plain text, with 422 for JSON of another shape).
pub(crate) struct Body<T>(pub T);

impl<T: RequestBody, S: Send + Sync> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = HttpError;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, HttpError> {
        use axum::extract::rejection::JsonRejection;
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(JsonRejection::JsonSyntaxError(e)) => Err(HttpError::bad_request(format!(
                "the request body is not JSON: {}",
                innermost(&e)
            ))),
            Err(JsonRejection::JsonDataError(e)) => Err(HttpError::bad_request(format!(
                "{} ({})",
                T::EXPECTED,
                innermost(&e)
            ))),
            Err(other) => Err(HttpError::new(other.status(), other.body_text())),
        }
    }
}

/// The first cause of `error` that has none: serde's message, without axum's wrapping.
fn innermost(error: &(dyn std::error::Error + 'static)) -> String {
    let mut inner = error;
    while let Some(source) = inner.source() {
        inner = source;
    }
    inner.to_string()
}

/// The options of the event stream, which come as JSON text in its query (an `EventSource`
/// can only GET): refused as [`Body`] refuses a body.
pub(crate) fn json_object(
    text: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, HttpError> {
    match serde_json::from_str(text) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err(HttpError::bad_request(
            <serde_json::Map<String, serde_json::Value> as RequestBody>::EXPECTED,
        )),
        Err(e) => Err(HttpError::bad_request(format!(
            "the request body is not JSON: {e}"
        ))),
    }
}
