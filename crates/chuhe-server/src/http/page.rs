//! The page and its assets, embedded in the binary: nothing to install or build at run time.

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use super::PathId;
use crate::error::ApiError;

const INDEX: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/app.js");
const STYLE: &str = include_str!("../../assets/style.css");
const ICON: &str = include_str!("../../assets/icon.svg");

/// The one page (the game, the new-game form and the archive are views of it).
pub(crate) async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `/assets/{file}`.
pub(crate) async fn asset(PathId(file): PathId) -> Response {
    let (body, kind) = match file.as_str() {
        "app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "icon.svg" => (ICON, "image/svg+xml"),
        _ => {
            return ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no asset '{}'", chuhe::quote_input(&file)),
            )
            .into_response()
        }
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
