//! The analysis board's routes: `POST /api/analysis/position` (a position checked and drawn,
//! stateless) and `GET /api/analysis/ws` (analyses streamed to the page); and the review of
//! a game, `POST|GET /api/games/{id}/review`.
//!
//! The socket (same origin check as the games' sockets; JSON text messages of at most
//! [`MAX_MESSAGE_BYTES`]). Client → server:
//! `{"type":"analyse","id":N,"game":G,"position":P,"moves":[UCI…],"multipv":1..5}` (a new
//! one replaces the socket's running analysis), `{"type":"stop"}`, `{"type":"ping"}`.
//! Server → client: `{"type":"queued","id","ahead"}`, `{"type":"line","id","depth",
//! "seldepth","multipv","score","wdl","bound","nodes","nps","ms","pv"}`, `{"type":"paused",
//! "id"}` (stopped for a game's move; `queued` and lines follow), `{"type":"done","id",
//! "reason":"limit"|"stopped"|"over"}`, `{"type":"error","id","error":{"code","message",
//! "params"}}`, `{"type":"pong"}`. Closing the socket stops its search.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;

use super::{ApiJson, ClientAddr, PathId};
use crate::analysis::{self, AddressSlot, Analysis, DoneReason, Opened, Outgoing, PositionView};
use crate::app::App;
use crate::error::ApiError;
use crate::review::{self, ReviewError, ReviewedGame};
use crate::round::rooms::blocking;

/// The largest message a client may send (an analysis of a long game: 2000 moves).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A position, as the analysis board asks for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PositionRequest {
    /// `xiongqi`, `xiangqi` or `xiangqi-capture`.
    game: String,
    /// `start` (the default), a FEEN, or a FEN for Xiangqi.
    #[serde(default)]
    position: Option<String>,
    /// Moves from it, in coordinates.
    #[serde(default)]
    moves: Vec<String>,
    /// The second player at the bottom of the board.
    #[serde(default)]
    flip: bool,
    /// `chinese` (the default) or `latin`.
    #[serde(default)]
    glyphs: Option<String>,
}

/// `chinese` or `latin`, or a 400.
fn glyphs(name: Option<&str>) -> Result<chuhe::Glyphs, ApiError> {
    match name.unwrap_or("chinese") {
        "chinese" => Ok(chuhe::Glyphs::Chinese),
        "latin" => Ok(chuhe::Glyphs::Latin),
        other => Err(ApiError::bad_request(format!(
            "glyphs must be chinese or latin, not '{}'",
            chuhe::quote_input(other)
        ))),
    }
}

/// Opens a position on a blocking thread (a long game is many moves to check).
async fn open(
    app: &App,
    game: String,
    position: String,
    moves: Vec<String>,
) -> Result<Opened, ApiError> {
    let kinds = app.kinds().clone();
    blocking(move || analysis::open_in(&kinds, &game, &position, &moves).map_err(ApiError::from))
        .await
}

/// `POST /api/analysis/position`: the position after the moves, checked by the rules core,
/// with its moves, legal moves, result and board.
pub(super) async fn position(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<PositionRequest>,
) -> Result<Response, ApiError> {
    let glyphs = glyphs(request.glyphs.as_deref())?;
    let opened = open(
        &app,
        request.game,
        request.position.unwrap_or_default(),
        request.moves,
    )
    .await?;
    let flip = request.flip;
    let view = blocking(move || Ok::<_, ApiError>(PositionView::of(&opened, flip, glyphs))).await?;
    Ok(Json(view).into_response())
}

/// A message from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    Analyse {
        id: u64,
        game: String,
        #[serde(default)]
        position: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default = "one")]
        multipv: usize,
    },
    Stop,
    Ping,
}

fn one() -> usize {
    1
}

/// The socket's running analysis.
struct Current {
    serial: u64,
    id: u64,
    analysis: Arc<Analysis>,
    ticket: u64,
    _slot: AddressSlot,
}

/// `GET /api/analysis/ws`: the analysis socket.
pub(super) async fn socket(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| session(app, client, socket))
}

fn text(message: &Value) -> Message {
    Message::Text(message.to_string().into())
}

fn error_message(id: Option<u64>, e: &ApiError) -> Value {
    json!({"type": "error", "id": id, "error": e.body()})
}

async fn session(app: Arc<App>, client: IpAddr, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let (out, mut outgoing) = tokio::sync::mpsc::unbounded_channel::<(u64, Outgoing)>();
    let mut current: Option<Current> = None;
    let mut serial = 0;
    'session: loop {
        tokio::select! {
            Some((from, message)) = outgoing.recv() => {
                // Messages of an analysis replaced or stopped meanwhile are dropped.
                if current.as_ref().map(|c| c.serial) != Some(from) {
                    continue;
                }
                if message.last {
                    current = None;
                }
                if tx.send(text(&message.message)).await.is_err() {
                    break;
                }
            }
            incoming = rx.next() => {
                let replies = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(t))) => {
                        handle(&app, client, &mut current, &mut serial, &out, t.as_str()).await
                    }
                    Some(Ok(Message::Binary(_))) => vec![error_message(
                        None,
                        &ApiError::bad_request("messages are JSON text, not binary"),
                    )],
                    Some(Ok(_)) => continue,
                };
                for reply in &replies {
                    if tx.send(text(reply)).await.is_err() {
                        break 'session;
                    }
                }
            }
        }
    }
    if let Some(c) = current.take() {
        app.analyses().stop(&c.analysis, c.ticket);
    }
    let _ = tx
        .send(Message::Close(Some(CloseFrame {
            code: axum::extract::ws::close_code::NORMAL,
            reason: "bye".into(),
        })))
        .await;
    // The server's last reference, if this is it, goes on a blocking thread (dropping the
    // server closes its database connections, which blocks).
    let _ = tokio::task::spawn_blocking(move || drop(app)).await;
}

/// Stops the socket's analysis, if any: the `done` message that says so.
fn stop(app: &App, current: &mut Option<Current>) -> Option<Value> {
    let c = current.take()?;
    app.analyses().stop(&c.analysis, c.ticket);
    Some(analysis::done_message(c.id, DoneReason::Stopped))
}

/// Carries out one message of the page; the replies to send (the analysis's own messages
/// come through `out`).
async fn handle(
    app: &Arc<App>,
    client: IpAddr,
    current: &mut Option<Current>,
    serial: &mut u64,
    out: &UnboundedSender<(u64, Outgoing)>,
    message: &str,
) -> Vec<Value> {
    let bad = |id: Option<u64>, why: String| {
        vec![error_message(
            id,
            &ApiError::bad_request(format!("not a message this socket understands: {why}")),
        )]
    };
    let value: Value = match serde_json::from_str(message) {
        Ok(v) => v,
        Err(e) => return bad(None, e.to_string()),
    };
    let asked_id = value.get("id").and_then(Value::as_u64);
    let parsed: ClientMessage = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => return bad(asked_id, e.to_string()),
    };
    let (id, game, position, moves, multipv) = match parsed {
        ClientMessage::Ping => return vec![json!({"type": "pong"})],
        ClientMessage::Stop => return stop(app, current).into_iter().collect(),
        ClientMessage::Analyse {
            id,
            game,
            position,
            moves,
            multipv,
        } => (id, game, position, moves, multipv),
    };
    let mut replies: Vec<Value> = stop(app, current).into_iter().collect();
    if !(1..=analysis::MAX_MULTIPV).contains(&multipv) {
        replies.extend(bad(
            Some(id),
            format!(
                "multipv must be 1 to {}, not {multipv}",
                analysis::MAX_MULTIPV
            ),
        ));
        return replies;
    }
    let opened = match open(app, game, position.unwrap_or_default(), moves).await {
        Ok(o) => o,
        Err(e) => {
            replies.push(error_message(Some(id), &e));
            return replies;
        }
    };
    if opened.game.outcome().is_some() {
        replies.push(analysis::done_message(id, DoneReason::Over));
        return replies;
    }
    let slot = match app.analyses().admit(client) {
        Ok(s) => s,
        Err(e) => {
            replies.push(error_message(Some(id), &e.into()));
            return replies;
        }
    };
    *serial += 1;
    let (from, out) = (*serial, out.clone());
    let task = Arc::new(Analysis::new(
        id,
        &opened,
        multipv,
        app.analyses().options(),
        Box::new(move |message| {
            let _ = out.send((from, message));
        }),
    ));
    match app.analyses().start(task.clone()) {
        Ok(ticket) => {
            *current = Some(Current {
                serial: from,
                id,
                analysis: task,
                ticket,
                _slot: slot,
            });
        }
        Err(e) => replies.push(error_message(Some(id), &e.into())),
    }
    replies
}

/// `POST /api/games/{id}/review`: asks for the review of a finished game (or an imported
/// record): 200 with it when done, 202 with its progress while it runs; 409 `game_not_over`.
pub(super) async fn request_review(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Response, ApiError> {
    review_answer(app, id, true).await
}

/// `GET /api/games/{id}/review`: the review, running or done, or `{"state": "none"}` when
/// nobody has asked for one (a page opening a game looks without an error in its console).
pub(super) async fn get_review(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Response, ApiError> {
    review_answer(app, id, false).await
}

async fn review_answer(app: Arc<App>, id: String, ask: bool) -> Result<Response, ApiError> {
    let game = app.rooms().read(&id, ReviewedGame::of).await?;
    let (app, reviewed) = (app.clone(), game.clone());
    let stored = blocking(move || {
        let reviews = app.reviews();
        let found = if ask {
            reviews.request(&id, &reviewed)
        } else {
            reviews.get(&id, &reviewed)
        };
        match found {
            Ok(stored) => Ok(Some(stored)),
            Err(ReviewError::NoReview(_)) if !ask => Ok(None),
            Err(e) => Err(ApiError::from(e)),
        }
    })
    .await?;
    let Some(stored) = stored else {
        return Ok(Json(json!({ "state": "none" })).into_response());
    };
    let status = if !ask || stored.is_done() {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(review::view(&stored, &game))).into_response())
}
