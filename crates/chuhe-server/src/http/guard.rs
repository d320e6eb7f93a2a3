//! Who may change games, and what every response tells the browser.
//!
//! A request that changes something (any method but GET, HEAD and OPTIONS) and every
//! WebSocket upgrade must come from the server's own origin when it names one: a browser
//! always sends `Origin` with them, so a page of another site, or of another port of the same
//! host, is refused with a 403 before anything happens. Requests without `Origin` (scripts,
//! `curl`) carry the player's token themselves and pass. Every response carries a
//! `Content-Security-Policy` that allows only the server's own scripts, styles and
//! connections and no framing, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`
//! and `Referrer-Policy: same-origin`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::App;
use crate::error::ApiError;

/// The page's policy: its own scripts, styles, pictures and connections (the WebSocket
/// included), no plugins, no framing by any page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Checks an origin named by `--allowed-origin`: `http://HOST[:PORT]` or `https://…`, no
/// path; returned without a trailing slash, in lower case.
pub fn parse_origin(origin: &str) -> Result<String, String> {
    let trimmed = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let rest = trimmed
        .strip_prefix("http://")
        .or_else(|| trimmed.strip_prefix("https://"));
    match rest {
        Some(host)
            if !host.is_empty() && !host.contains(['/', '?', '#', '@', ' ']) && host.is_ascii() =>
        {
            Ok(trimmed)
        }
        _ => Err(format!(
            "--allowed-origin '{}' is not an origin like https://chuhe.example or \
             http://127.0.0.1:8080",
            chuhe::quote_input(origin)
        )),
    }
}

/// Whether a request's `Origin` may change things: one of `allowed`, or, when that list is
/// empty, the server's own origin as the request's `Host` names it.
fn origin_allowed(origin: &str, headers: &HeaderMap, allowed: &[String]) -> bool {
    let origin = origin.to_ascii_lowercase();
    if !allowed.is_empty() {
        return allowed.contains(&origin);
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    [("http://"), ("https://")]
        .iter()
        .any(|scheme| origin.strip_prefix(scheme) == Some(host.as_str()))
}

/// Whether the request can change something: a write, or a WebSocket (whose messages are
/// actions).
fn changes_state(request: &Request) -> bool {
    !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) || request.headers().contains_key(header::UPGRADE)
}

/// The middleware: refuses foreign origins, then adds the headers to the answer.
pub(crate) async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut response = match request.headers().get(header::ORIGIN) {
        Some(origin) if changes_state(&request) => {
            let origin = origin.to_str().unwrap_or("(unreadable)").to_string();
            if origin_allowed(&origin, request.headers(), &app.options().allowed_origins) {
                next.run(request).await
            } else {
                ApiError::new(
                    axum::http::StatusCode::FORBIDDEN,
                    "cross_origin",
                    format!(
                        "requests from '{}' may not change games here: only pages of this \
                         server's own origin may",
                        chuhe::quote_input(&origin)
                    ),
                )
                .into_response()
            }
        }
        _ => next.run(request).await,
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked() {
        assert_eq!(
            parse_origin("HTTPS://Chuhe.example/").as_deref(),
            Ok("https://chuhe.example")
        );
        assert!(parse_origin("chuhe.example").is_err());
        assert!(parse_origin("http://a/b").is_err());
        assert!(parse_origin("http://").is_err());
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(origin_allowed("http://127.0.0.1:8080", &headers, &[]));
        assert!(!origin_allowed("http://127.0.0.1:9999", &headers, &[]));
        assert!(!origin_allowed("null", &headers, &[]));
        let list = ["https://chuhe.example".to_string()];
        assert!(origin_allowed("https://chuhe.example", &headers, &list));
        assert!(!origin_allowed("http://127.0.0.1:8080", &headers, &list));
        assert!(!origin_allowed("http://x", &HeaderMap::new(), &[]));
    }
}
