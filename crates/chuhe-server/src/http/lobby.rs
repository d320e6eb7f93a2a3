//! The routes of the lobby: seeks, challenges, the games being played, and the lobby's
//! WebSocket, which pushes the lists as they change on any server and tells a player when a
//! game of theirs begins.
//!
//! Lobby socket, server → client: `{"type":"hello","socket":ID}` (name it when seeking, so
//! the seek lives with the page), `{"type":"seeks","seeks":[…]}`,
//! `{"type":"challenges","challenges":[…]}`, `{"type":"start","game":ID}`,
//! `{"type":"pong"}`; client → server: `{"type":"ping"}`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use super::games::{created, earlier, game_kind, time_control, ClockRequest};
use super::{ok, to_json, with_session, ApiJson, PathId, Viewer};
use crate::app::App;
use crate::error::ApiError;
use crate::lobby::{LobbyError, LobbyEvent, Terms};
use crate::rating::{Perf, PerfRating};
use crate::round::rooms::blocking;
use crate::store::{Challenge, GameSummary, PlayerRef, Seek, StoreError, StoredGame, TimeControl};

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        let status = match &e {
            LobbyError::BadTerms(..) | LobbyError::SelfChallenge => StatusCode::BAD_REQUEST,
            LobbyError::GuestsUnrated | LobbyError::NotYours => StatusCode::FORBIDDEN,
            LobbyError::UnknownPlayer(_) => StatusCode::NOT_FOUND,
            LobbyError::TooManySeeks => StatusCode::TOO_MANY_REQUESTS,
            LobbyError::Gone(_) | LobbyError::OwnSeek => StatusCode::CONFLICT,
            LobbyError::NotServed(_) => StatusCode::SERVICE_UNAVAILABLE,
            LobbyError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let params = match &e {
            LobbyError::UnknownPlayer(name) => json!({"name": name}),
            LobbyError::Gone(what) => json!({"what": what}),
            LobbyError::BadTerms(reason, why) => json!({"reason": reason, "why": why}),
            LobbyError::NotServed(game) => json!({"game": game}),
            _ => json!({}),
        };
        match e {
            LobbyError::Store(store) => store.into(),
            e => ApiError::new(status, e.code(), e.to_string()).with_params(params),
        }
    }
}

fn clock_json(clock: Option<TimeControl>) -> Value {
    clock.map_or(Value::Null, |tc| {
        json!({"control": tc.to_string(), "initial_ms": tc.initial_ms, "increment_ms": tc.increment_ms})
    })
}

/// A player as lists show them, with their rating in `perf` when they have one.
/// An account without a rated game in a category shows the starting rating, provisional.
fn player_json(p: &PlayerRef, ratings: &ShownRatings, perf: Option<Perf>) -> Value {
    let start = PerfRating::default();
    let new = (start.shown(), true);
    let rating = perf
        .filter(|_| !p.guest)
        .map(|perf| ratings.get(&(p.id.clone(), perf)).unwrap_or(&new));
    json!({
        "name": p.name,
        "guest": p.guest,
        "rating": rating.map(|r| r.0),
        "provisional": rating.is_some_and(|r| r.1),
    })
}

/// Players' ratings as lists show them: `(player id, category)` → (rating, provisional).
type ShownRatings = HashMap<(String, Perf), (i64, bool)>;

/// The ratings of these players, in every category.
fn ratings_of(app: &App, players: &[&PlayerRef]) -> Result<ShownRatings, StoreError> {
    let mut out = HashMap::new();
    for p in players {
        if p.guest || out.keys().any(|(id, _)| id == &p.id) {
            continue;
        }
        for (perf, r) in app.store().ratings_of(&p.id)? {
            out.insert((p.id.clone(), perf), (r.shown(), r.provisional()));
        }
    }
    Ok(out)
}

fn perf_of(game: &str, clock: Option<TimeControl>) -> Option<Perf> {
    Some(Perf::new(game.parse().ok()?, clock?))
}

fn seeks_json(app: &App) -> Result<Value, ApiError> {
    let seeks: Vec<Seek> = app.store().seeks()?;
    let ratings = ratings_of(app, &seeks.iter().map(|s| &s.player).collect::<Vec<_>>())?;
    Ok(Value::Array(
        seeks
            .iter()
            .map(|s| {
                let perf = perf_of(&s.game, s.clock);
                json!({
                    "id": s.id,
                    "player": player_json(&s.player, &ratings, perf),
                    "game": s.game,
                    "clock": clock_json(s.clock),
                    "perf": perf.map(|p| p.to_string()),
                    "rated": s.rated,
                    "color": s.color,
                    "created_ms": s.created_ms,
                    // A seek made on another server of the database, for a game from rule
                    // files this one was not started with: not to be accepted here.
                    "served": app.kinds().find(&s.game).is_some(),
                })
            })
            .collect(),
    ))
}

fn challenges_json(app: &App, user_id: &str) -> Result<Value, ApiError> {
    let challenges: Vec<Challenge> = app.store().challenges_of(user_id)?;
    let people: Vec<&PlayerRef> = challenges.iter().flat_map(|c| [&c.from, &c.to]).collect();
    let ratings = ratings_of(app, &people)?;
    Ok(Value::Array(
        challenges
            .iter()
            .map(|c| {
                let perf = perf_of(&c.game, c.clock);
                json!({
                    "id": c.id,
                    "from": player_json(&c.from, &ratings, perf),
                    "to": player_json(&c.to, &ratings, perf),
                    "incoming": c.to.id == user_id,
                    "game": c.game,
                    "clock": clock_json(c.clock),
                    "rated": c.rated,
                    "color": c.color,
                    "created_ms": c.created_ms,
                    "served": app.kinds().find(&c.game).is_some(),
                })
            })
            .collect(),
    ))
}

/// An archive line (the games being played, the archive).
pub(super) fn summary_json(g: &GameSummary) -> Value {
    let seat = |i: usize| {
        let rating = g.ratings[i];
        json!({
            "name": g.players[i].as_ref().map(|p| p.name.clone()),
            "guest": g.players[i].as_ref().is_some_and(|p| p.guest),
            "rating": rating.map(|r| r.rating),
            "provisional": rating.is_some_and(|r| r.provisional),
            "diff": rating.and_then(|r| r.diff),
        })
    };
    let (level, engine_side) = match g.opponent {
        crate::store::Opponent::Engine { level, side } => (Some(level), Some(side.as_str())),
        _ => (None, None),
    };
    json!({
        "id": g.id,
        "game": g.game,
        "opponent": g.opponent.as_str(),
        "engine": level.map(|l| json!({"level": l, "side": engine_side})),
        "players": [seat(0), seat(1)],
        "rated": g.rated,
        "clock": clock_json(g.clock),
        "plies": g.plies,
        "result": g.result.as_ref().map(|r| json!({"status": r.status, "winner": r.winner, "reason": r.reason})),
        "created_ms": g.created_ms,
        "updated_ms": g.updated_ms,
        "spectators": g.spectators,
    })
}

/// `GET /api/seeks`: the open seeks.
pub(super) async fn seeks(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let app2 = app.clone();
    blocking(move || Ok(ok(json!({"seeks": seeks_json(&app2)?})))).await
}

/// A seek or challenge as forms send it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TermsBody {
    game: String,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
    /// The lobby socket the seek lives with.
    #[serde(default)]
    socket: Option<String>,
    /// The player challenged.
    #[serde(default)]
    to: Option<String>,
}

fn terms_of(app: &App, body: &TermsBody) -> Result<Terms, ApiError> {
    Ok(Terms {
        game: game_kind(app, &body.game)?,
        clock: time_control(body.clock)?,
        rated: body.rated,
        color: body.color.clone().unwrap_or_else(|| "random".into()),
    })
}

/// `POST /api/seeks`: offers a game to anyone (a guest is made for a browser without a
/// session; rated seeks need an account).
pub(super) async fn seek(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(body): ApiJson<TermsBody>,
) -> Result<Response, ApiError> {
    if body.to.is_some() {
        return Err(ApiError::bad_request(
            "a seek names nobody; challenge a player instead",
        ));
    }
    app.admit_creation(viewer.client)?;
    let terms = terms_of(&app, &body)?;
    let (user, session) = viewer.player(&app).await?;
    let app2 = app.clone();
    let seek = blocking(move || {
        app2.lobby()
            .seek(&user, &terms, body.socket)
            .map_err(ApiError::from)
    })
    .await?;
    Ok(with_session(
        (
            StatusCode::CREATED,
            axum::Json(json!({"seek": {"id": seek.id}})),
        )
            .into_response(),
        session.as_deref(),
        &app,
    ))
}

/// `DELETE /api/seeks/{id}`: withdraws one's seek.
pub(super) async fn cancel_seek(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let user = viewer.signed_in()?.clone();
    let app2 = app.clone();
    blocking(move || app2.lobby().cancel_seek(&user, &id).map_err(ApiError::from)).await?;
    Ok(ok(json!({"cancelled": true})))
}

/// Opens the game an acceptance made and answers with it, the acceptor's seat.
async fn started(
    app: &Arc<App>,
    game: StoredGame,
    acceptor: &str,
    session: Option<String>,
) -> Result<Response, ApiError> {
    let side = if game.players[1].as_ref().is_some_and(|p| p.id == acceptor) {
        chuhe::Side::Second
    } else {
        chuhe::Side::First
    };
    let (id, token) = (game.id.clone(), game.tokens[side.index()].clone());
    let app2 = app.clone();
    let view = blocking(move || {
        let table = app2.rooms().open(game)?;
        let view = table.lock().view(Some(side));
        Ok::<_, ApiError>(to_json(&view))
    })
    .await?;
    Ok(created(
        app,
        StatusCode::CREATED,
        view,
        &id,
        &token,
        session.as_deref(),
    ))
}

/// Answers an acceptance that found nothing to accept: the game an earlier request with the
/// same `Idempotency-Key` made, if it did; else the refusal.
async fn earlier_or(
    app: &Arc<App>,
    key: Option<crate::store::Idempotency>,
    route: &str,
    refusal: ApiError,
) -> Result<Response, ApiError> {
    if let Some(key) = key {
        let app2 = app.clone();
        let found = blocking(move || app2.store().earlier(&key).map_err(ApiError::from)).await?;
        if let Some(found) = found {
            return earlier(app, found, route).await;
        }
    }
    Err(refusal)
}

/// `POST /api/seeks/{id}/accept`: takes the seek; the game begins for both (the seeker's
/// pages hear it on their lobby socket). With an `Idempotency-Key`, a request made again
/// gets the same game.
pub(super) async fn accept_seek(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    const ROUTE: &str = "POST /api/seeks/{id}/accept";
    let (user, session) = viewer.player(&app).await?;
    let key = viewer.idempotency(ROUTE)?.map(|mut k| {
        // A guest made now has no earlier key.
        if viewer.user.is_none() {
            k.scope = format!("user:{}", user.id);
        }
        k
    });
    if let Some(key) = &key {
        let (app2, key2) = (app.clone(), key.clone());
        if let Some(found) =
            blocking(move || app2.store().earlier(&key2).map_err(ApiError::from)).await?
        {
            return earlier(&app, found, ROUTE).await;
        }
    }
    let (app2, key2, user2) = (app.clone(), key.clone(), user.clone());
    let accepted = blocking(move || {
        let serves = |game: &str| app2.kinds().find(game).is_some();
        app2.lobby()
            .accept_seek(&user2, &id, key2.as_ref(), &serves)
    })
    .await;
    match accepted {
        Ok(game) => started(&app, game, &user.id, session).await,
        Err(e @ (LobbyError::Gone(_) | LobbyError::Store(StoreError::Duplicate(_)))) => {
            earlier_or(&app, key, ROUTE, e.into()).await
        }
        Err(e) => Err(e.into()),
    }
}

/// `GET /api/challenges`: the open challenges to and from the player signed in.
pub(super) async fn challenges(
    State(app): State<Arc<App>>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let Some(user) = viewer.user.clone() else {
        return Ok(ok(json!({"challenges": []})));
    };
    let app2 = app.clone();
    blocking(move || Ok(ok(json!({"challenges": challenges_json(&app2, &user.id)?})))).await
}

/// `POST /api/challenges`: challenges the player named `to`.
pub(super) async fn challenge(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(body): ApiJson<TermsBody>,
) -> Result<Response, ApiError> {
    let Some(to) = body.to.clone() else {
        return Err(ApiError::bad_request("name the player challenged: \"to\""));
    };
    app.admit_creation(viewer.client)?;
    let terms = terms_of(&app, &body)?;
    let (user, session) = viewer.player(&app).await?;
    let app2 = app.clone();
    let c = blocking(move || {
        app2.lobby()
            .challenge(&user, &to, &terms)
            .map_err(ApiError::from)
    })
    .await?;
    Ok(with_session(
        (
            StatusCode::CREATED,
            axum::Json(json!({"challenge": {"id": c.id}})),
        )
            .into_response(),
        session.as_deref(),
        &app,
    ))
}

/// `POST /api/challenges/{id}/{accept|decline|cancel}`.
pub(super) async fn answer_challenge(
    State(app): State<Arc<App>>,
    Path((id, verb)): Path<(String, String)>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    const ROUTE: &str = "POST /api/challenges/{id}/accept";
    let user = viewer.signed_in()?.clone();
    match verb.as_str() {
        "accept" => {
            let key = viewer.idempotency(ROUTE)?;
            if let Some(key) = &key {
                let (app2, key2) = (app.clone(), key.clone());
                if let Some(found) =
                    blocking(move || app2.store().earlier(&key2).map_err(ApiError::from)).await?
                {
                    return earlier(&app, found, ROUTE).await;
                }
            }
            let (app2, key2, user2) = (app.clone(), key.clone(), user.clone());
            let accepted = blocking(move || {
                let serves = |game: &str| app2.kinds().find(game).is_some();
                app2.lobby()
                    .accept_challenge(&user2, &id, key2.as_ref(), &serves)
            })
            .await;
            match accepted {
                Ok(game) => started(&app, game, &user.id, None).await,
                Err(e @ (LobbyError::Gone(_) | LobbyError::Store(StoreError::Duplicate(_)))) => {
                    earlier_or(&app, key, ROUTE, e.into()).await
                }
                Err(e) => Err(e.into()),
            }
        }
        "decline" | "cancel" => {
            let app2 = app.clone();
            blocking(move || {
                app2.lobby()
                    .close_challenge(&user, &id)
                    .map_err(ApiError::from)
            })
            .await?;
            Ok(ok(json!({"closed": true})))
        }
        other => Err(ApiError::not_found(format!(
            "no answer '{}' (accept, decline, cancel)",
            chuhe::quote_input(other)
        ))),
    }
}

/// How recent a move must be for a game to count as being played.
const PLAYING_WITHIN_MS: i64 = 30 * 60_000;

/// `GET /api/playing`: the games between people being played now, with their spectators.
pub(super) async fn playing(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let app2 = app.clone();
    blocking(move || {
        let games = app2.store().playing(PLAYING_WITHIN_MS, 50)?;
        Ok(ok(
            json!({"games": games.iter().map(summary_json).collect::<Vec<_>>()}),
        ))
    })
    .await
}

/// `GET /api/lobby/ws`: the lobby's socket.
pub(super) async fn socket(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    upgrade: WebSocketUpgrade,
) -> Response {
    let user = viewer.user.map(|u| u.id);
    upgrade
        .max_message_size(1024)
        .on_upgrade(move |socket| lobby_session(app, user, socket))
}

async fn send_json(tx: &mut futures_util::stream::SplitSink<WebSocket, Message>, v: Value) -> bool {
    tx.send(Message::Text(v.to_string().into())).await.is_ok()
}

async fn lobby_session(app: Arc<App>, user: Option<String>, socket: WebSocket) {
    let id = app.lobby().open_socket();
    let mut seeks = app.lobby().watch_seeks();
    let mut events = app.lobby().events();
    let (mut tx, mut rx) = socket.split();
    let list = |app: &Arc<App>| {
        let app = app.clone();
        async move { blocking(move || seeks_json(&app)).await.ok() }
    };
    let mine = |app: &Arc<App>, user: String| {
        let app = app.clone();
        async move { blocking(move || challenges_json(&app, &user)).await.ok() }
    };
    let mut alive = send_json(&mut tx, json!({"type": "hello", "socket": id})).await;
    if alive {
        if let Some(list) = list(&app).await {
            alive = send_json(&mut tx, json!({"type": "seeks", "seeks": list})).await;
        }
    }
    if let (true, Some(user)) = (alive, &user) {
        if let Some(c) = mine(&app, user.clone()).await {
            alive = send_json(&mut tx, json!({"type": "challenges", "challenges": c})).await;
        }
    }
    while alive {
        tokio::select! {
            changed = seeks.changed() => {
                if changed.is_err() { break; }
                if let Some(list) = list(&app).await {
                    alive = send_json(&mut tx, json!({"type": "seeks", "seeks": list})).await;
                }
            }
            event = events.recv() => {
                match event {
                    Ok(LobbyEvent::Start { game, players }) => {
                        if user.as_ref().is_some_and(|u| players.contains(u)) {
                            alive = send_json(&mut tx, json!({"type": "start", "game": game})).await;
                        }
                    }
                    Ok(LobbyEvent::Challenges { user: who }) => {
                        if user.as_deref() == Some(who.as_str()) {
                            if let Some(c) = mine(&app, who).await {
                                alive = send_json(&mut tx, json!({"type": "challenges", "challenges": c})).await;
                            }
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => break,
                }
            }
            incoming = rx.next() => {
                match incoming {
                    Some(Ok(Message::Text(t))) => {
                        let reply = if serde_json::from_str::<Value>(t.as_str()).ok() == Some(json!({"type": "ping"})) {
                            json!({"type": "pong"})
                        } else {
                            json!({"type": "error", "error": ApiError::bad_request("the lobby socket takes only {\"type\":\"ping\"}").body()})
                        };
                        alive = send_json(&mut tx, reply).await;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                }
            }
        }
    }
    // On a blocking thread, with the server's last reference if this is it (dropping the
    // server closes its database connections, which blocks).
    let _ = blocking(move || {
        app.lobby().close_socket(&id);
        drop(app);
        Ok::<_, ApiError>(())
    })
    .await;
}
