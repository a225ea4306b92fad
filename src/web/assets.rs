//! The pages and the example dice files, compiled into the binary.

use super::Server;
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use std::sync::Arc;

/// The organisers' example files, byte for byte (`data/`).
const EXAMPLES: [(&str, &str); 4] = [
    ("wuerfel0.txt", include_str!("../../data/wuerfel0.txt")),
    ("wuerfel1.txt", include_str!("../../data/wuerfel1.txt")),
    ("wuerfel2.txt", include_str!("../../data/wuerfel2.txt")),
    ("wuerfel3.txt", include_str!("../../data/wuerfel3.txt")),
];

/// The dice of example file `name` (`wuerfel0.txt`, also as `data/wuerfel0.txt`) in the
/// command line's notation; `None` for any other name.
pub(crate) fn example_dice(name: &str) -> Option<Vec<String>> {
    let name = name.strip_prefix("data/").unwrap_or(name);
    let (_, text) = EXAMPLES.iter().find(|(n, _)| *n == name)?;
    let dice = crate::dice::parse_dice_text(text, name).expect("the example files are valid");
    Some(dice.iter().map(|d| d.to_string()).collect())
}

/// Every example file with its dice, for the pages.
async fn examples() -> impl IntoResponse {
    let list: Vec<_> = EXAMPLES
        .iter()
        .map(|(name, _)| serde_json::json!({"name": name, "dice": example_dice(name)}))
        .collect();
    axum::Json(list)
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
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", include_str!("pages/style.css")) }),
        )
        .route("/api/examples", get(examples))
}
