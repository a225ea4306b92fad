//! The pages and the example dice files, compiled into the binary.

use super::Server;
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use std::sync::Arc;

/// Every example file with its dice, for the pages.
async fn examples() -> impl IntoResponse {
    axum::Json(crate::dice::examples::examples_json())
}

/// A page or asset: its bytes and content type, embedded.
fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse + Clone {
    ([(header::CONTENT_TYPE, content_type)], body)
}

pub(crate) fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", include_str!("pages/index.html")) }),
        )
        .route(
            "/app.js",
            get(|| async {
                asset(
                    "text/javascript; charset=utf-8",
                    include_str!("pages/app.js"),
                )
            }),
        )
        .route(
            "/transport.js",
            get(|| async {
                asset(
                    "text/javascript; charset=utf-8",
                    include_str!("pages/transport.js"),
                )
            }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", include_str!("pages/style.css")) }),
        )
        .route("/api/examples", get(examples))
}
