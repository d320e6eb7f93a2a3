//! The WebSocket of a game (`/api/games/{id}/ws`): the server sends the game's state when
//! the connection opens and after every change; a player sends actions as JSON messages. The
//! socket counts its viewer as present at the game (a seat's player, or a spectator).
//!
//! Client → server (one JSON object per text message, at most [`MAX_MESSAGE_BYTES`]): an
//! [`Action`] — `{"type":"move","move":"h3e3","ply":0}`, `{"type":"resign"}`,
//! `{"type":"draw","action":"offer"|"accept"|"decline"}`, `{"type":"takeback"}`,
//! `{"type":"abort"}`, `{"type":"rematch","action":"offer"|"accept"|"decline"}` — or
//! `{"type":"ping"}`.
//!
//! Server → client: `{"type":"state","state":{…}}` (the same object as
//! `GET /api/games/{id}`), `{"type":"ack","action":"move","ply":N}` once an action is
//! stored (with `"rematch":ID` when it made a rematch), `{"type":"error","error":{"code":…,
//! "message":…,"params":{…}}}` for a refused one (nothing changed), `{"type":"pong"}`.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;

use super::{ApiQuery, PathId, Viewer};
use crate::app::App;
use crate::error::ApiError;
use crate::round::{Action, Identity};

/// The largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 4096;

#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
}

/// Opens the socket of a game (404 when there is no such game; 403 for a token that is not
/// one of its seats').
pub(super) async fn upgrade(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    ApiQuery(q): ApiQuery<WsQuery>,
    viewer: Viewer,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let mut identity = viewer.identity(&id);
    if let Some(token) = &q.token {
        identity.tokens.insert(0, token.clone());
    }
    // The game must exist before the connection is accepted.
    let asked = q.token.clone();
    let (side, token_valid) = {
        let identity = identity.clone();
        app.rooms()
            .read(&id, move |round| {
                let by_token = asked.map(|t| {
                    round
                        .seat_of(&Identity {
                            user: None,
                            tokens: vec![t],
                        })
                        .is_some()
                });
                (round.seat_of(&identity), by_token)
            })
            .await?
    };
    if token_valid == Some(false) {
        return Err(ApiError::forbidden(
            "the token is not one of this game's players'",
        ));
    }
    Ok(upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| session(app, id, identity, side, socket)))
}

fn error_message(e: &ApiError) -> Message {
    Message::Text(
        json!({"type": "error", "error": e.body()})
            .to_string()
            .into(),
    )
}

async fn state_message(app: &Arc<App>, id: &str, identity: &Identity) -> Option<Message> {
    let identity = identity.clone();
    let view = app
        .rooms()
        .read(id, move |round| round.view(round.seat_of(&identity)))
        .await
        .ok()?;
    let text = json!({"type": "state", "state": view}).to_string();
    Some(Message::Text(text.into()))
}

async fn session(
    app: Arc<App>,
    id: String,
    identity: Identity,
    side: Option<chuhe::Side>,
    socket: WebSocket,
) {
    let Ok(table) = app.rooms().get(&id) else {
        return;
    };
    let mut changes = table.subscribe();
    let _present = table.enter(side);
    drop(table);
    let (mut tx, mut rx) = socket.split();
    let Some(first) = state_message(&app, &id, &identity).await else {
        return;
    };
    if tx.send(first).await.is_err() {
        return;
    }
    // A change after the subscription (even while the first state was being sent) wakes the
    // loop below, which then sends the latest state.
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    break;
                }
                let Some(m) = state_message(&app, &id, &identity).await else { break };
                if tx.send(m).await.is_err() {
                    break;
                }
            }
            incoming = rx.next() => {
                let reply = match incoming {
                    None | Some(Err(_)) => break,
                    Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => handle(&app, &id, &identity, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Err(ApiError::bad_request(
                        "messages are JSON text, not binary",
                    )),
                    Some(Ok(_)) => continue,
                };
                let out = match reply {
                    Ok(m) => m,
                    Err(e) => error_message(&e),
                };
                if tx.send(out).await.is_err() {
                    break;
                }
            }
        }
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

/// Carries out one client message; the reply to send.
async fn handle(
    app: &Arc<App>,
    id: &str,
    identity: &Identity,
    text: &str,
) -> Result<Message, ApiError> {
    let bad = |e: serde_json::Error| {
        ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "bad_json",
            format!("not a message this socket understands: {e}"),
        )
    };
    let message: serde_json::Value = serde_json::from_str(text).map_err(bad)?;
    if message == json!({"type": "ping"}) {
        return Ok(Message::Text(json!({"type": "pong"}).to_string().into()));
    }
    let action: Action = serde_json::from_value(message).map_err(bad)?;
    let name = action.name();
    let (_, after) = super::games::act_as(app, id, identity.clone(), action).await?;
    let mut ack = json!({"type": "ack", "action": name, "ply": after.plies});
    if let Some((game, _)) = after.rematch {
        ack["rematch"] = json!(game);
    }
    Ok(Message::Text(ack.to_string().into()))
}
