//! The page and its assets, embedded in the binary: nothing to install or build at run time.

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use super::PathId;
use crate::error::ApiError;

const INDEX: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/app.js");
const STYLE: &str = include_str!("../../assets/style.css");
const ICON: &str = include_str!("../../assets/icon.svg");

/// The languages of the page, by their `lang` tag.
pub const LANGUAGES: [&str; 4] = ["en", "zh-Hans", "zh-Hant", "vi"];

/// The name of the cookie that keeps a player's choice of language.
pub const LANGUAGE_COOKIE: &str = "chuhe_lang";

/// The page's language for a request: the player's choice (the `chuhe_lang` cookie), else
/// the first of the browser's `Accept-Language` (by its `q`) that the page speaks —
/// Simplified Chinese for `zh`, `zh-CN`, `zh-SG`, `zh-Hans`; Traditional for `zh-TW`,
/// `zh-HK`, `zh-MO`, `zh-Hant`; Vietnamese for `vi` — else English.
///
/// ```
/// use axum::http::HeaderMap;
/// use chuhe_server::http::page_language;
/// let mut headers = HeaderMap::new();
/// headers.insert("accept-language", "fr-FR, zh-TW;q=0.8, en;q=0.5".parse().unwrap());
/// assert_eq!(page_language(&headers), "zh-Hant");
/// headers.insert("cookie", "chuhe_lang=vi".parse().unwrap());
/// assert_eq!(page_language(&headers), "vi");
/// ```
pub fn language(headers: &HeaderMap) -> &'static str {
    if let Some(chosen) = super::cookie(headers, LANGUAGE_COOKIE) {
        if let Some(tag) = LANGUAGES.iter().find(|t| t.eq_ignore_ascii_case(&chosen)) {
            return tag;
        }
    }
    let accepted = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut ranges: Vec<(f32, usize, String)> = accepted
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut pieces = part.split(';');
            let range = pieces.next()?.trim().to_ascii_lowercase();
            let q = pieces
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.parse::<f32>().ok())
                })
                .unwrap_or(1.0);
            (!range.is_empty() && q > 0.0).then_some((q, i, range))
        })
        .collect();
    ranges.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, _, range) in ranges {
        let tag = match range.as_str() {
            "zh-tw" | "zh-hk" | "zh-mo" | "zh-hant" => "zh-Hant",
            r if r.starts_with("zh-hant") => "zh-Hant",
            r if r == "zh" || r.starts_with("zh-") => "zh-Hans",
            r if r == "vi" || r.starts_with("vi-") => "vi",
            r if r == "en" || r.starts_with("en-") => "en",
            _ => continue,
        };
        return tag;
    }
    "en"
}

/// The one page (every view of the site is a view of it), in the request's language.
pub(crate) async fn index(headers: HeaderMap) -> Html<String> {
    Html(INDEX.replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\">", language(&headers)),
        1,
    ))
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
