//! The WebSocket of a game (`/api/games/{id}/ws`): the server sends the game's state when the
//! connection opens and after every change; a player sends actions as JSON messages.
//!
//! Client → server (one JSON object per text message, at most [`MAX_MESSAGE_BYTES`]):
//! `{"type":"move","move":"h3e3","ply":0}`, `{"type":"resign"}`,
//! `{"type":"draw","action":"offer"|"accept"|"decline"}`, `{"type":"takeback"}`,
//! `{"type":"ping"}`.
//!
//! Server → client: `{"type":"state","state":{…}}` (the same object as
//! `GET /api/games/{id}`), `{"type":"ack","action":"move","ply":N}` once an action is
//! stored, `{"type":"error","error":{"code":…,"message":…}}` for a refused one (nothing
//! changed), `{"type":"pong"}`.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;

use crate::api::{act_as_player, token_of, ApiQuery, GameId, MoveBody};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::DrawAction;

/// The largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 4096;

#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
}

/// An action sent over the socket.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        text: String,
        #[serde(default)]
        notation: Option<String>,
        #[serde(default)]
        ply: Option<usize>,
    },
    Resign,
    Draw {
        action: DrawAction,
    },
    Takeback,
    Ping,
}

/// Opens the socket of a game (404 when there is no such game).
pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    ApiQuery(q): ApiQuery<WsQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let token = q.token.or_else(|| token_of(&headers, &id));
    // The game must exist before the connection is accepted.
    let t = token.clone();
    let side = hub
        .read(&id, move |live| {
            t.as_deref().and_then(|t| live.side_of_token(t))
        })
        .await?;
    if token.is_some() && side.is_none() {
        return Err(ApiError::forbidden(
            "the token is not one of this game's players'",
        ));
    }
    Ok(upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| session(hub, id, token, socket)))
}

fn error_message(e: &ApiError) -> Message {
    Message::Text(
        json!({"type": "error", "error": {"code": e.code, "message": e.message}})
            .to_string()
            .into(),
    )
}

async fn state_message(hub: &Arc<Hub>, id: &str, token: Option<String>) -> Option<Message> {
    let view = hub
        .read(id, move |live| {
            let side = token.as_deref().and_then(|t| live.side_of_token(t));
            live.view(side)
        })
        .await
        .ok()?;
    let text = json!({"type": "state", "state": view}).to_string();
    Some(Message::Text(text.into()))
}

async fn session(hub: Arc<Hub>, id: String, token: Option<String>, socket: WebSocket) {
    let Ok(table) = hub.get(&id) else { return };
    let mut changes = table.subscribe();
    drop(table);
    let (mut tx, mut rx) = socket.split();
    let Some(first) = state_message(&hub, &id, token.clone()).await else {
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
                let Some(m) = state_message(&hub, &id, token.clone()).await else { break };
                if tx.send(m).await.is_err() {
                    break;
                }
            }
            incoming = rx.next() => {
                let reply = match incoming {
                    None | Some(Err(_)) => break,
                    Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => handle(&hub, &id, token.as_deref(), text.as_str()).await,
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
}

/// Carries out one client message; the reply to send.
async fn handle(
    hub: &Arc<Hub>,
    id: &str,
    token: Option<&str>,
    text: &str,
) -> Result<Message, ApiError> {
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "bad_json",
            format!("not a message this socket understands: {e}"),
        )
    })?;
    let token = token.map(str::to_string);
    let (action, ply) = match message {
        ClientMessage::Ping => {
            return Ok(Message::Text(json!({"type": "pong"}).to_string().into()));
        }
        ClientMessage::Move {
            text,
            notation,
            ply,
        } => {
            let request = MoveBody {
                text,
                notation,
                ply,
            }
            .request()?;
            let ply = act_as_player(hub, id, token, move |live, side, store| {
                live.play(side, &request, store)?;
                Ok(live.game().plies())
            })
            .await?;
            ("move", ply)
        }
        ClientMessage::Resign => {
            let ply = act_as_player(hub, id, token, |live, side, store| {
                live.resign(side, store)?;
                Ok(live.game().plies())
            })
            .await?;
            ("resign", ply)
        }
        ClientMessage::Draw { action } => {
            let ply = act_as_player(hub, id, token, move |live, side, store| {
                live.draw(side, action, store)?;
                Ok(live.game().plies())
            })
            .await?;
            ("draw", ply)
        }
        ClientMessage::Takeback => {
            let ply = act_as_player(hub, id, token, |live, side, store| {
                live.take_back(side, store)?;
                Ok(live.game().plies())
            })
            .await?;
            ("takeback", ply)
        }
    };
    Ok(Message::Text(
        json!({"type": "ack", "action": action, "ply": ply})
            .to_string()
            .into(),
    ))
}
