//! The routes of the archive: the games, filtered and paged; importing a record.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::games::game_kind;
use super::lobby::summary_json;
use super::{ok, to_json, ApiQuery, Viewer};
use crate::app::App;
use crate::archive::date_ms;
use crate::error::ApiError;
use crate::round::rooms::blocking;
use crate::store::{ArchiveQuery, ResultFilter, TimeControl};

/// The archive's query string.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ListQuery {
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    offset: Option<usize>,
    /// A player's name.
    #[serde(default)]
    player: Option<String>,
    /// Their opponent's name.
    #[serde(default)]
    vs: Option<String>,
    #[serde(default)]
    game: Option<String>,
    /// `ongoing`, `finished`, `aborted`, `draw`, `win`, `loss` (the last two need a player).
    #[serde(default)]
    result: Option<String>,
    /// `YYYY-MM-DD`: games created that day or later.
    #[serde(default)]
    since: Option<String>,
    /// `YYYY-MM-DD`: games created that day or earlier.
    #[serde(default)]
    until: Option<String>,
    /// A time control (`180+2`) or `none`.
    #[serde(default)]
    tc: Option<String>,
    #[serde(default)]
    rated: Option<bool>,
    /// `engine`, `friend` or `record`.
    #[serde(default)]
    opponent: Option<String>,
}

fn field_error(field: &str, message: String) -> ApiError {
    ApiError::bad_request(message).with_params(json!({"field": field}))
}

/// The user id of a name in a filter; `None` when nobody has it (the filter then finds
/// nothing).
fn player_id(app: &App, name: &str) -> Result<Option<String>, ApiError> {
    Ok(app
        .store()
        .user_by_name(&name.trim().to_lowercase())?
        .map(|(u, _)| u.id))
}

fn query_of(app: &App, q: &ListQuery) -> Result<Option<ArchiveQuery>, ApiError> {
    let mut query = ArchiveQuery::default();
    if let Some(name) = q.player.as_deref().filter(|n| !n.trim().is_empty()) {
        match player_id(app, name)? {
            Some(id) => query.player = Some(id),
            None => return Ok(None),
        }
    }
    if let Some(name) = q.vs.as_deref().filter(|n| !n.trim().is_empty()) {
        if query.player.is_none() {
            return Err(field_error("vs", "vs needs a player".into()));
        }
        match player_id(app, name)? {
            Some(id) => query.opponent = Some(id),
            None => return Ok(None),
        }
    }
    if let Some(game) = q.game.as_deref().filter(|g| !g.is_empty()) {
        query.game = Some(game_kind(app, game)?.name().to_string());
    }
    query.result = match q.result.as_deref().filter(|r| !r.is_empty()) {
        None => None,
        Some("ongoing") => Some(ResultFilter::Ongoing),
        Some("finished") => Some(ResultFilter::Finished),
        Some("aborted") => Some(ResultFilter::Aborted),
        Some("draw") => Some(ResultFilter::Draw),
        Some(r @ ("win" | "loss")) => {
            if query.player.is_none() {
                return Err(field_error("result", format!("result={r} needs a player")));
            }
            Some(if r == "win" {
                ResultFilter::Win
            } else {
                ResultFilter::Loss
            })
        }
        Some(other) => {
            return Err(field_error(
                "result",
                format!(
                    "result must be ongoing, finished, aborted, draw, win or loss, not '{}'",
                    chuhe::quote_input(other)
                ),
            ))
        }
    };
    let date = |field: &str, text: &str| {
        date_ms(text).ok_or_else(|| {
            field_error(
                field,
                format!(
                    "{field} must be a date like 2026-11-28, not '{}'",
                    chuhe::quote_input(text)
                ),
            )
        })
    };
    if let Some(since) = q.since.as_deref().filter(|d| !d.is_empty()) {
        query.since_ms = Some(date("since", since)?);
    }
    if let Some(until) = q.until.as_deref().filter(|d| !d.is_empty()) {
        query.until_ms = Some(date("until", until)? + 86_400_000);
    }
    query.clock = match q.tc.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some("none") => Some(None),
        Some(text) => Some(Some(
            text.parse::<TimeControl>()
                .map_err(|e| field_error("tc", e))?,
        )),
    };
    query.rated = q.rated;
    query.opponent_kind = match q.opponent.as_deref().filter(|o| !o.is_empty()) {
        None => None,
        Some(o @ ("engine" | "friend" | "record")) => Some(o.to_string()),
        Some(other) => {
            return Err(field_error(
                "opponent",
                format!(
                    "opponent must be engine, friend or record, not '{}'",
                    chuhe::quote_input(other)
                ),
            ))
        }
    };
    Ok(Some(query))
}

/// `GET /api/games`: the archive, most recent first, filtered by player, opponent, game,
/// result, dates, time control, rated and kind of opponent, paged by `limit` (1–500, 50) and
/// `offset`.
pub(super) async fn list(
    State(app): State<Arc<App>>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Response, ApiError> {
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let offset = q.offset.unwrap_or(0);
    let app2 = app.clone();
    blocking(move || {
        let (games, total) = match query_of(&app2, &q)? {
            Some(query) => (
                app2.store().search(&query, limit, offset)?,
                app2.store().count(&query)?,
            ),
            None => (Vec::new(), 0),
        };
        Ok(ok(json!({
            "games": games.iter().map(summary_json).collect::<Vec<_>>(),
            "limit": limit,
            "offset": offset,
            "total": total,
        })))
    })
    .await
}

/// A record sent as JSON.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    /// A PCN record (JSON text or the object itself).
    #[serde(default)]
    pcn: Option<serde_json::Value>,
    /// A PGN.
    #[serde(default)]
    pgn: Option<String>,
    /// A FEN or FEEN, or any record as text (read by what it is).
    #[serde(default)]
    record: Option<String>,
    /// The game of a FEEN (`xiongqi`, `xiangqi`, `xiangqi-capture`).
    #[serde(default)]
    game: Option<String>,
}

/// `POST /api/import`: a record becomes a game in the archive, opened as a review board.
/// The body is JSON (`{"pcn": …}`, `{"pgn": "…"}`, `{"record": "…", "game": "…"}`) or the
/// file itself (an XQF upload, any other `Content-Type`). The answer says which format it
/// read.
pub(super) async fn import(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(super::body_error)?;
    app.admit_creation(viewer.client)?;
    let bad = |e: &dyn std::fmt::Display| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_record", e.to_string())
    };
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    let (bytes, kind): (Vec<u8>, Option<chuhe::GameKind>) = if is_json {
        let request: ImportBody = serde_json::from_slice(&body)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_json", e.to_string()))?;
        let kind = request
            .game
            .as_deref()
            .map(|g| game_kind(&app, g))
            .transpose()?;
        let text = match (&request.pcn, &request.pgn, &request.record) {
            (Some(serde_json::Value::String(text)), None, None) => text.clone(),
            (Some(pcn), None, None) => pcn.to_string(),
            (None, Some(pgn), None) => pgn.clone(),
            (None, None, Some(record)) => record.clone(),
            _ => {
                return Err(ApiError::bad_request(
                    "send one record: {\"pcn\": …}, {\"pgn\": \"…\"} or {\"record\": \"…\"}",
                ))
            }
        };
        (text.into_bytes(), kind)
    } else {
        (body.to_vec(), None)
    };
    let kinds = app.kinds().clone();
    let (format, record) = blocking(move || {
        let imported = crate::archive::read_in(&bytes, kind, &kinds).map_err(|e| bad(&e))?;
        let record = crate::archive::stored_of(&imported).map_err(|e| bad(&e))?;
        Ok::<_, ApiError>((imported.format, record))
    })
    .await?;
    let app3 = app.clone();
    let view = blocking(move || {
        app3.store().create(&record)?;
        let table = app3.rooms().open(record)?;
        let view = table.lock().view(None);
        Ok::<_, ApiError>(to_json(&view))
    })
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({"game": view, "format": format.as_str()})),
    )
        .into_response())
}
