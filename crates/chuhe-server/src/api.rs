//! The HTTP routes: the page and its assets, the JSON API under `/api`, and the WebSocket of
//! each game. Every handler answers bad input with a 4xx [`ApiError`].

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chuhe::notation::pcn::{Meta, Pcn, SideInfo, Sides};
use chuhe::{GameKind, MoveNotation, Side, SvgOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::hub::{random_id, random_token, Hub};
use crate::live::{DrawAction, LiveGame, MoveRequest};
use crate::store::{now_ms, Opponent, StoredGame, StoredMove, TimeControl};
use crate::{page, ws};

/// The largest request body accepted (a PCN record to import fits easily).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The server's routes over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/archive", get(page::index))
        .route("/g/{id}", get(game_page))
        .route("/assets/{file}", get(page::asset))
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/import", post(import_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/board.svg", get(board_svg))
        .route("/api/games/{id}/pcn", get(game_pcn))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/takeback", post(take_back))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            crate::guard::guard,
        ))
        .with_state(hub)
}

async fn not_found(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("nothing at {}", chuhe::quote_input(request.uri().path())),
    )
}

async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed on {}",
            request.method(),
            chuhe::quote_input(request.uri().path())
        ),
    )
}

/// The server's routes as a service that knows each connection's peer address (what the
/// limit on new games counts by; see [`ClientAddr`]).
pub fn service(
    hub: Arc<Hub>,
) -> axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr> {
    router(hub).into_make_service_with_connect_info::<SocketAddr>()
}

/// The address of the client: the last `X-Forwarded-For` entry when the hub trusts the
/// balancer in front ([`crate::HubOptions::trust_forwarded_for`]), else the connection's peer
/// (served through [`service`]); the unspecified address when neither is known.
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<Arc<Hub>> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        hub: &Arc<Hub>,
    ) -> Result<Self, Self::Rejection> {
        if hub.options().trust_forwarded_for {
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .last()
                .map(str::trim);
            if let Some(text) = forwarded {
                let addr = text.parse::<IpAddr>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "X-Forwarded-For names no address: {}",
                        chuhe::quote_input(text)
                    ))
                })?;
                return Ok(ClientAddr(addr));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip());
        Ok(ClientAddr(
            peer.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
        ))
    }
}

/// A JSON body; a malformed one is a 4xx [`ApiError`] saying what was wrong.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    let code = match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
        _ => "bad_json",
    };
    ApiError::new(rejection.status(), code, rejection.body_text())
}

/// Query parameters; bad ones are a 400 [`ApiError`].
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(rejection @ QueryRejection::FailedToDeserializeQueryString(_)) => {
                Err(ApiError::bad_request(rejection.body_text()))
            }
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// The game id of the path; a malformed path is a 404.
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<String>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(id)) => Ok(GameId(id)),
            Err(rejection) => Err(path_error(rejection)),
        }
    }
}

fn path_error(rejection: PathRejection) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", rejection.body_text())
}

/// The name of the cookie that holds a player's token for game `id`.
pub fn cookie_name(id: &str) -> String {
    format!("chuhe_{id}")
}

/// The token a request carries for game `id`: `Authorization: Bearer …`, else the cookie.
pub fn token_of(headers: &HeaderMap, id: &str) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_string());
    }
    let name = cookie_name(id);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The cookie that keeps a player's token in the browser.
fn set_cookie(id: &str, token: &str) -> (header::HeaderName, HeaderValue) {
    let value = format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000",
        cookie_name(id)
    );
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("")),
    )
}

/// The viewer's side: a player's when the token matches, else a spectator (`None`).
fn viewer(live: &LiveGame, token: Option<&str>) -> Option<Side> {
    token.and_then(|t| live.side_of_token(t))
}

/// The side acting; 403 without the token of a player of this game.
pub(crate) fn acting_side(live: &LiveGame, token: Option<&str>) -> Result<Side, ApiError> {
    match token {
        None => Err(ApiError::forbidden(
            "this needs a player's token (the cookie set by the game's link, or \
             'Authorization: Bearer TOKEN'); spectators can only watch",
        )),
        Some(t) => live
            .side_of_token(t)
            .ok_or_else(|| ApiError::forbidden("the token is not one of this game's players'")),
    }
}

/// A new game, as the page's form sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGameRequest {
    /// `xiongqi`, `xiangqi` or `xiangqi-capture`.
    game: String,
    /// `engine` (the default) or `friend`.
    #[serde(default)]
    opponent: Option<String>,
    /// The engine's level, 0–20 (default 10).
    #[serde(default)]
    level: Option<u8>,
    /// The creator's side: `first` (the default), `second` or `random`.
    #[serde(default)]
    side: Option<String>,
    /// A FEEN (or, for Xiangqi, a FEN) to start from; the start position when missing.
    #[serde(default)]
    position: Option<String>,
    /// Clocks: seconds at the start and added per move.
    #[serde(default)]
    clock: Option<ClockRequest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    initial_s: f64,
    #[serde(default)]
    increment_s: f64,
}

fn time_control(clock: Option<&ClockRequest>) -> Result<Option<TimeControl>, ApiError> {
    let Some(c) = clock else { return Ok(None) };
    if !(c.initial_s.is_finite() && (1.0..=10_800.0).contains(&c.initial_s)) {
        return Err(ApiError::bad_request(format!(
            "clock.initial_s must be 1 to 10800 seconds, not {}",
            c.initial_s
        )));
    }
    if !(c.increment_s.is_finite() && (0.0..=600.0).contains(&c.increment_s)) {
        return Err(ApiError::bad_request(format!(
            "clock.increment_s must be 0 to 600 seconds, not {}",
            c.increment_s
        )));
    }
    Ok(Some(TimeControl {
        initial_ms: (c.initial_s * 1000.0) as u64,
        increment_ms: (c.increment_s * 1000.0) as u64,
    }))
}

fn game_kind(name: &str) -> Result<GameKind, ApiError> {
    name.parse().map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "unknown_game",
            format!(
                "unknown game '{}' (xiongqi, xiangqi, xiangqi-capture)",
                chuhe::quote_input(name)
            ),
        )
    })
}

fn creator_side(side: Option<&str>) -> Result<Side, ApiError> {
    match side.unwrap_or("first") {
        "first" => Ok(Side::First),
        "second" => Ok(Side::Second),
        "random" => {
            let mut b = [0u8; 1];
            getrandom::getrandom(&mut b)
                .map_err(|e| ApiError::bad_request(format!("no random side: {e}")))?;
            Ok(if b[0] & 1 == 0 {
                Side::First
            } else {
                Side::Second
            })
        }
        other => Err(ApiError::bad_request(format!(
            "side must be first, second or random, not '{}'",
            chuhe::quote_input(other)
        ))),
    }
}

/// The answer to the creator of a game: its state, the creator's token and own link, and the
/// cookie that keeps the token.
fn created(id: &str, view: serde_json::Value, token: &str) -> Response {
    let body = json!({
        "game": view,
        "token": token,
        "link": format!("/g/{id}?token={token}"),
    });
    let mut response = (StatusCode::CREATED, Json(body)).into_response();
    let (name, value) = set_cookie(id, token);
    response.headers_mut().insert(name, value);
    response
}

async fn create_game(
    State(hub): State<Arc<Hub>>,
    ClientAddr(client): ClientAddr,
    ApiJson(request): ApiJson<NewGameRequest>,
) -> Result<Response, ApiError> {
    hub.admit_creation(client)?;
    let kind = game_kind(&request.game)?;
    let creator = creator_side(request.side.as_deref())?;
    let opponent = match request.opponent.as_deref().unwrap_or("engine") {
        "engine" => {
            let level = request.level.unwrap_or(10);
            if level > chuhe_engine::MAX_LEVEL {
                return Err(ApiError::bad_request(format!(
                    "level must be 0 to {}, not {level}",
                    chuhe_engine::MAX_LEVEL
                )));
            }
            Opponent::Engine {
                level,
                side: !creator,
            }
        }
        "friend" => Opponent::Friend,
        other => {
            return Err(ApiError::bad_request(format!(
                "opponent must be engine or friend, not '{}'",
                chuhe::quote_input(other)
            )))
        }
    };
    let clock = time_control(request.clock.as_ref())?;
    let position = request
        .position
        .as_deref()
        .map(str::trim)
        .unwrap_or("start");
    let start = kind
        .new_game(if position.is_empty() {
            "start"
        } else {
            position
        })
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_position", e.to_string()))?;
    if let Some(outcome) = start.outcome() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_position",
            format!("the position is already over: {}", outcome.in_words()),
        ));
    }
    let now = now_ms();
    let record = StoredGame {
        id: random_id(10),
        game: kind.name().to_string(),
        start: crate::live::start_with_counters(start.as_ref()),
        opponent,
        creator,
        tokens: [random_token(), random_token()],
        clock,
        result: None,
        created_ms: now,
        updated_ms: now,
        moves: Vec::new(),
        version: 0,
        draw_offer: None,
        record_info: None,
    };
    let (id, token) = (record.id.clone(), record.tokens[creator.index()].clone());
    let hub2 = hub.clone();
    let view = tokio::task::spawn_blocking(move || {
        let table = hub2.create(record)?;
        let view = table.lock().view(Some(creator));
        Ok::<_, ApiError>(view)
    })
    .await
    .map_err(|e| ApiError::bad_request(format!("the game could not be created: {e}")))??;
    Ok(created(&id, to_json(&view), &token))
}

fn to_json<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// What an imported record says besides its moves (its players, its metadata but the game's
/// kind), kept to be given back on export; `None` when it says nothing more.
fn record_info_of(pcn: &Pcn) -> Option<String> {
    let mut meta = pcn.meta.clone();
    meta.extra.remove("game");
    if meta.is_empty() && pcn.sides.is_none() {
        return None;
    }
    Some(json!({"meta": meta, "sides": pcn.sides}).to_string())
}

/// The players and metadata kept from an imported record.
fn stored_info(live: &LiveGame) -> (Meta, Option<Sides>) {
    let parsed = live
        .record()
        .record_info
        .as_deref()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
    let Some(mut info) = parsed else {
        return (Meta::default(), None);
    };
    let meta = serde_json::from_value(info["meta"].take()).unwrap_or_default();
    let sides = serde_json::from_value(info["sides"].take()).unwrap_or_default();
    (meta, sides)
}

/// The game as PCN, with the players and metadata of the record it was imported from.
fn pcn_of(live: &LiveGame, id: &str) -> Pcn {
    let mut pcn = chuhe::record::to_pcn(live.game(), &live.times());
    let (meta, sides) = stored_info(live);
    let game = pcn.meta.extra.remove("game");
    pcn.meta = meta;
    if let Some(game) = game {
        pcn.meta.extra.insert("game".into(), game);
    }
    if pcn.meta.location.is_none() && !pcn.meta.extra.contains_key("site") {
        pcn.meta
            .extra
            .insert("site".into(), json!(format!("chuhe serve, game {id}")));
    }
    pcn.sides = sides;
    pcn
}

/// The PGN tags of the game: those of the record it was imported from (PGN's own tags, or
/// PCN's event, site, round and players), the site of this server otherwise.
fn pgn_tags(live: &LiveGame, id: &str) -> Vec<(String, String)> {
    let (meta, sides) = stored_info(live);
    let mut tags = Vec::new();
    let mut tag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            tags.push((name.to_string(), v));
        }
    };
    tag("Event", meta.event.clone());
    tag(
        "Site",
        Some(
            meta.location
                .clone()
                .unwrap_or_else(|| format!("chuhe serve, game {id}")),
        ),
    );
    tag("Round", meta.round.map(|r| r.to_string()));
    let name = |info: Option<&SideInfo>| info.and_then(|i| i.name.clone());
    tag("White", name(sides.as_ref().and_then(|s| s.first.as_ref())));
    tag(
        "Black",
        name(sides.as_ref().and_then(|s| s.second.as_ref())),
    );
    if let Some(serde_json::Value::Object(rest)) = meta.extra.get("pgn") {
        for (k, v) in rest {
            if let Some(v) = v.as_str() {
                tags.push((k.clone(), v.to_string()));
            }
        }
    }
    tags
}

/// The longest time a move of an imported record may have taken: 30 days.
pub const MAX_MOVE_SECONDS: f64 = 30.0 * 86_400.0;

/// The milliseconds of an imported move's time: a finite number of seconds from 0 to
/// [`MAX_MOVE_SECONDS`], else a 400.
fn move_time_ms(index: usize, seconds: f64) -> Result<u64, ApiError> {
    if !(seconds.is_finite() && (0.0..=MAX_MOVE_SECONDS).contains(&seconds)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_record",
            format!(
                "move {}: its time must be 0 to {MAX_MOVE_SECONDS} seconds, not {seconds}",
                index + 1
            ),
        ));
    }
    Ok((seconds * 1000.0).round() as u64)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    /// A PCN record (JSON text or the object itself).
    #[serde(default)]
    pcn: Option<serde_json::Value>,
    /// A Xiangqi game in PGN (pychess.org's form).
    #[serde(default)]
    pgn: Option<String>,
}

async fn import_game(
    State(hub): State<Arc<Hub>>,
    ClientAddr(client): ClientAddr,
    ApiJson(request): ApiJson<ImportRequest>,
) -> Result<Response, ApiError> {
    hub.admit_creation(client)?;
    let bad = |e: &dyn std::fmt::Display| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_record", e.to_string())
    };
    let pcn = match (&request.pcn, &request.pgn) {
        (Some(serde_json::Value::String(text)), None) if !text.trim_start().starts_with('{') => {
            // A PGN pasted where PCN was expected.
            chuhe::pgn::to_pcn(&chuhe::pgn::read(text).map_err(|e| bad(&e))?)
        }
        (Some(pcn), None) => {
            let text = match pcn {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            chuhe::notation::pcn::Pcn::from_json(&text).map_err(|e| bad(&e))?
        }
        (None, Some(pgn)) => chuhe::pgn::to_pcn(&chuhe::pgn::read(pgn).map_err(|e| bad(&e))?),
        _ => {
            return Err(ApiError::bad_request(
                "send one record: {\"pcn\": …} or {\"pgn\": \"…\"}",
            ))
        }
    };
    let game = chuhe::record::game_of(&pcn).map_err(|e| bad(&e))?;
    let now = now_ms();
    let times = pcn
        .moves
        .iter()
        .enumerate()
        .map(|(i, (_, seconds))| move_time_ms(i, *seconds))
        .collect::<Result<Vec<u64>, ApiError>>()?;
    let moves = game
        .moves_uci()
        .into_iter()
        .zip(times)
        .map(|(uci, time_ms)| StoredMove { uci, time_ms })
        .collect();
    let record = StoredGame {
        record_info: record_info_of(&pcn),
        version: 0,
        draw_offer: None,
        id: random_id(10),
        game: game.kind().name().to_string(),
        start: crate::live::start_with_counters(game.as_ref()),
        opponent: Opponent::Friend,
        creator: Side::First,
        tokens: [random_token(), random_token()],
        clock: None,
        result: game.outcome().map(|o| crate::store::StoredResult {
            status: o.status.as_str().to_string(),
            winner: o.winner_str().to_string(),
            reason: o.reason.map(|r| r.as_str().to_string()),
        }),
        created_ms: now,
        updated_ms: now,
        moves,
    };
    let (id, token) = (record.id.clone(), record.tokens[0].clone());
    let hub2 = hub.clone();
    let view = tokio::task::spawn_blocking(move || {
        let table = hub2.create(record)?;
        let view = table.lock().view(Some(Side::First));
        Ok::<_, ApiError>(view)
    })
    .await
    .map_err(|e| ApiError::bad_request(format!("the game could not be imported: {e}")))??;
    Ok(created(&id, to_json(&view), &token))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Page {
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    offset: Option<usize>,
}

async fn list_games(
    State(hub): State<Arc<Hub>>,
    ApiQuery(page): ApiQuery<Page>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let limit = page.limit.unwrap_or(50).clamp(1, 500);
    let offset = page.offset.unwrap_or(0);
    let hub2 = hub.clone();
    let games = tokio::task::spawn_blocking(move || hub2.store().list(limit, offset))
        .await
        .map_err(|e| ApiError::bad_request(format!("the archive could not be read: {e}")))??;
    let games: Vec<_> = games
        .into_iter()
        .map(|g| {
            json!({
                "id": g.id,
                "game": g.game,
                "opponent": match g.opponent { Opponent::Engine { .. } => "engine", Opponent::Friend => "friend" },
                "plies": g.plies,
                "result": g.result.map(|r| json!({"status": r.status, "winner": r.winner, "reason": r.reason})),
                "created_ms": g.created_ms,
                "updated_ms": g.updated_ms,
            })
        })
        .collect();
    Ok(Json(
        json!({"games": games, "limit": limit, "offset": offset}),
    ))
}

async fn game_state(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let token = token_of(&headers, &id);
    let view = hub
        .read(&id, move |live| live.view(viewer(live, token.as_deref())))
        .await?;
    Ok(Json(to_json(&view)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardQuery {
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    flip: Option<bool>,
    #[serde(default)]
    glyphs: Option<String>,
    #[serde(default)]
    size: Option<u32>,
    #[serde(default)]
    targets: Option<bool>,
    /// The game's version, which the page adds so that no cache hands back an older picture
    /// of the same address; ignored here.
    #[serde(default, rename = "v")]
    _version: Option<u64>,
}

async fn board_svg(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    ApiQuery(q): ApiQuery<BoardQuery>,
) -> Result<Response, ApiError> {
    let glyphs = match q.glyphs.as_deref().unwrap_or("chinese") {
        "chinese" => chuhe::Glyphs::Chinese,
        "latin" => chuhe::Glyphs::Latin,
        other => {
            return Err(ApiError::bad_request(format!(
                "glyphs must be chinese or latin, not '{}'",
                chuhe::quote_input(other)
            )))
        }
    };
    let size = q.size.unwrap_or(480);
    if !(16..=4096).contains(&size) {
        return Err(ApiError::bad_request(format!(
            "size must be 16 to 4096 pixels, not {size}"
        )));
    }
    let options = SvgOptions {
        glyphs,
        flipped: q.flip.unwrap_or(false),
        size: Some(size),
        last_move: true,
        arrows: Vec::new(),
        square_targets: q.targets.unwrap_or(false),
    };
    let ply = q.ply;
    let svg = hub
        .read(&id, move |live| -> Result<String, ApiError> {
            let game = live.game();
            let plies = game.plies();
            let at = ply.unwrap_or(plies);
            if at > plies {
                return Err(ApiError::bad_request(format!(
                    "ply {at} is past the end of the game ({plies} moves)"
                )));
            }
            if at == plies {
                return game
                    .board_svg(&options)
                    .map_err(|e| ApiError::bad_request(e.to_string()));
            }
            let mut earlier = game.start_game();
            for m in game.moves_uci().iter().take(at) {
                earlier
                    .play_text(m, MoveNotation::Uci)
                    .map_err(|e| ApiError::bad_request(e.to_string()))?;
            }
            earlier
                .board_svg(&options)
                .map_err(|e| ApiError::bad_request(e.to_string()))
        })
        .await??;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

async fn game_pcn(State(hub): State<Arc<Hub>>, GameId(id): GameId) -> Result<Response, ApiError> {
    let id2 = id.clone();
    let text = hub
        .read(&id, move |live| pcn_of(live, &id2).to_json_pretty())
        .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/json; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chuhe-{id}.pcn\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn game_pgn(State(hub): State<Arc<Hub>>, GameId(id): GameId) -> Result<Response, ApiError> {
    let id2 = id.clone();
    let text = hub
        .read(&id, move |live| {
            chuhe::pgn::write(live.game(), &pgn_tags(live, &id2))
                .map_err(|e| ApiError::conflict("no_pgn", e.to_string()))
        })
        .await??;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chuhe-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// A move as the page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The move, in any notation of the game (coordinates by default).
    #[serde(rename = "move")]
    pub text: String,
    /// The notation it is written in, if not coordinates.
    #[serde(default)]
    pub notation: Option<String>,
    /// The number of moves played before it (optional; a stale page gets a conflict).
    #[serde(default)]
    pub ply: Option<usize>,
}

impl MoveBody {
    /// The request for [`LiveGame::play`]; an unknown notation is a 400.
    pub fn request(self) -> Result<MoveRequest, ApiError> {
        let notation = match self.notation.as_deref() {
            None => None,
            Some(name) => Some(
                name.parse::<MoveNotation>()
                    .map_err(|e| ApiError::bad_request(e.to_string()))?,
            ),
        };
        if self.text.len() > 64 {
            return Err(ApiError::bad_request(format!(
                "'{}' is too long to be a move",
                chuhe::quote_input(&self.text)
            )));
        }
        Ok(MoveRequest {
            text: self.text,
            notation,
            ply: self.ply,
        })
    }
}

/// Runs an action of the player whose token the request carries (403 without one), on a
/// blocking thread under the game's lock: what the HTTP routes and the WebSocket share.
pub(crate) async fn act_as_player<T: Send + 'static>(
    hub: &Arc<Hub>,
    id: &str,
    token: Option<String>,
    action: impl Fn(&mut LiveGame, Side, &dyn crate::store::Store) -> Result<T, ApiError>
        + Send
        + 'static,
) -> Result<T, ApiError> {
    hub.act(id, move |live, store| {
        let side = acting_side(live, token.as_deref())?;
        action(live, side, store)
    })
    .await
}

/// The state after an action, as the acting player sees it.
fn state_after(live: &LiveGame, side: Side) -> Json<serde_json::Value> {
    Json(to_json(&live.view(Some(side))))
}

async fn play_move(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    headers: HeaderMap,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let request = body.request()?;
    act_as_player(
        &hub,
        &id,
        token_of(&headers, &id),
        move |live, side, store| {
            live.play(side, &request, store)?;
            Ok(state_after(live, side))
        },
    )
    .await
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    act_as_player(&hub, &id, token_of(&headers, &id), |live, side, store| {
        live.resign(side, store)?;
        Ok(state_after(live, side))
    })
    .await
}

/// A draw offer's verb.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    /// `offer`, `accept` or `decline`.
    pub action: DrawAction,
}

async fn draw(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    headers: HeaderMap,
    ApiJson(body): ApiJson<DrawBody>,
) -> Result<Json<serde_json::Value>, ApiError> {
    act_as_player(
        &hub,
        &id,
        token_of(&headers, &id),
        move |live, side, store| {
            live.draw(side, body.action, store)?;
            Ok(state_after(live, side))
        },
    )
    .await
}

async fn take_back(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    act_as_player(&hub, &id, token_of(&headers, &id), |live, side, store| {
        live.take_back(side, store)?;
        Ok(state_after(live, side))
    })
    .await
}

#[derive(Debug, Deserialize)]
struct LinkQuery {
    #[serde(default)]
    token: Option<String>,
}

/// The page of a game. With `?token=…` (an invite or a player's own link) the token goes
/// into a cookie and the browser is sent to the plain address, so that the secret is not
/// left in the address bar.
async fn game_page(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    ApiQuery(q): ApiQuery<LinkQuery>,
) -> Response {
    if !crate::hub::valid_id(&id) {
        return ApiError::no_game(&id).into_response();
    }
    let Some(token) = q.token else {
        return page::index().await.into_response();
    };
    let t = token.clone();
    let valid = hub
        .read(&id, move |live| live.side_of_token(&t).is_some())
        .await
        .unwrap_or(false);
    let mut response = Redirect::to(&format!("/g/{id}")).into_response();
    if valid {
        let (name, value) = set_cookie(&id, &token);
        response.headers_mut().insert(name, value);
    }
    response
}
