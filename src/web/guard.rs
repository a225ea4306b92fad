//! What keeps other web sites' pages from using a server on this machine: a page on any site
//! can make the browser send requests to `localhost`, and a name of the attacker's can be
//! made to resolve to 127.0.0.1 (DNS rebinding). Such requests cannot read the answers,
//! but each could start a job. So, before any handler runs:
//!
//! * a server bound to a loopback address answers only requests whose `Host` names a
//!   loopback host (`localhost`, `127.0.0.1`, `[::1]`) and, where it names a port, the
//!   bound one: a rebound name arrives with its own name as `Host` (403);
//! * a request to the API that carries an `Origin` (a browser sends one on every
//!   cross-origin request, and on same-origin POSTs) must come from the server's own
//!   origin, `http://` and the `Host` it was sent to (403);
//! * a `POST` must declare a JSON body (`Content-Type: application/json`): the bodies a
//!   page of another site may send without the browser asking the server first
//!   (`text/plain`, forms) are refused (415).
//!
//! A server bound to another address was asked to serve other machines, under any name:
//! there only the `Origin` and `Content-Type` checks apply.

use super::error::HttpError;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;

/// Checks a request as the module documentation says; `bound` is the address served.
pub(crate) async fn guard(
    State(bound): State<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match refusal(bound, &request) {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    }
}

/// Why `request` is refused, if it is.
fn refusal(bound: SocketAddr, request: &Request) -> Option<HttpError> {
    let headers = request.headers();
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text(header::HOST);
    if bound.ip().is_loopback()
        && let Some(host) = host
        && !is_loopback_host(host, bound.port())
    {
        return Some(HttpError::new(
            StatusCode::FORBIDDEN,
            format!(
                "this server answers only to localhost:{} (the request was addressed to {host:?}); \
                 serve with --bind to be reached under another name",
                bound.port()
            ),
        ));
    }
    let api = request.uri().path().starts_with("/api/");
    if api
        && let Some(origin) = text(header::ORIGIN)
        && host.is_none_or(|host| origin != format!("http://{host}"))
    {
        return Some(HttpError::new(
            StatusCode::FORBIDDEN,
            format!("requests from the pages of another site ({origin}) are refused"),
        ));
    }
    if request.method() == Method::POST {
        let declared = text(header::CONTENT_TYPE).unwrap_or("");
        let media_type = declared.split(';').next().unwrap_or("").trim();
        if !media_type.eq_ignore_ascii_case("application/json") {
            return Some(HttpError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "send the body as JSON, with the header Content-Type: application/json \
                     (it was {:?})",
                    declared
                ),
            ));
        }
    }
    None
}

/// Whether `host` (a `Host` header: a name or address, perhaps with a port) names this
/// machine's loopback interface and, if it names a port, `port`.
fn is_loopback_host(host: &str, port: u16) -> bool {
    let (name, named_port) = match host.rsplit_once(':') {
        // `[::1]:8080`, `localhost:8080`; not the colons inside `[::1]`.
        Some((name, p)) if !p.ends_with(']') => (name, Some(p)),
        _ => (host, None),
    };
    let loopback = name.eq_ignore_ascii_case("localhost")
        || name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    loopback && named_port.is_none_or(|p| p.parse::<u16>() == Ok(port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_on_the_bound_port_are_this_machine() {
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST:8080",
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:8080",
            "[::1]",
            "127.1.2.3:8080",
        ] {
            assert!(is_loopback_host(host, 8080), "{host}");
        }
        for host in [
            "evil.example:8080",
            "localhost.evil.example:8080",
            "localhost:8081",
            "127.0.0.1:80",
            "192.168.1.2:8080",
            "[::1]:9",
            "localhost:",
            "",
        ] {
            assert!(!is_loopback_host(host, 8080), "{host}");
        }
    }
}
