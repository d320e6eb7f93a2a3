//! The routes of one game: create (against the engine, or a friend by an invite link), its
//! page, its state, its actions, joining its open seat, its board and its records.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use chuhe::{GameKind, MoveNotation, Side, SvgOptions};
use serde::Deserialize;
use serde_json::json;

use super::{to_json, with_session, ApiJson, ApiQuery, PathId, Viewer};
use crate::app::App;
use crate::error::ApiError;
use crate::ids::{random_id, random_token};
use crate::round::rooms::blocking;
use crate::round::{Action, Applied, Identity, Round, RoundError};
use crate::store::{now_ms, Created, Opponent, StoredGame, TimeControl};

/// A new game, as the page's form sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewGame {
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

/// A clock as forms send it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClockRequest {
    initial_s: f64,
    #[serde(default)]
    increment_s: f64,
}

/// The time control of a form's clock: 1 s to 3 h at the start, 0 to 10 min added per move.
pub(super) fn time_control(clock: Option<ClockRequest>) -> Result<Option<TimeControl>, ApiError> {
    let Some(c) = clock else { return Ok(None) };
    if !(c.initial_s.is_finite() && (1.0..=10_800.0).contains(&c.initial_s)) {
        return Err(ApiError::bad_request(format!(
            "clock.initial_s must be 1 to 10800 seconds, not {}",
            c.initial_s
        ))
        .with_params(json!({"field": "clock.initial_s"})));
    }
    if !(c.increment_s.is_finite() && (0.0..=600.0).contains(&c.increment_s)) {
        return Err(ApiError::bad_request(format!(
            "clock.increment_s must be 0 to 600 seconds, not {}",
            c.increment_s
        ))
        .with_params(json!({"field": "clock.increment_s"})));
    }
    Ok(Some(TimeControl {
        initial_ms: (c.initial_s * 1000.0).round() as u64,
        increment_ms: (c.increment_s * 1000.0).round() as u64,
    }))
}

/// A game's kind by name among the games `app` offers (the native ones and its `--rules`
/// games), or a 400 naming those offered.
pub(super) fn game_kind(app: &App, name: &str) -> Result<GameKind, ApiError> {
    app.kinds().kind(name).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, "unknown_game", e.to_string())
            .with_params(json!({"game": e.name, "offered": e.offered}))
    })
}

/// `GET /api/kinds`: the games this server offers, each with its board's size, its pieces
/// (for a game read from rule files: letters and names), whether it promotes and may be
/// rated.
pub(super) async fn kinds(State(app): State<Arc<App>>) -> Response {
    Json(app.kinds().listing()).into_response()
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

/// The answer to whoever made a game (or took its seat): its state, their seat's token and
/// own link (for API clients), and the cookie of a session made for them.
pub(super) fn created(
    app: &App,
    status: StatusCode,
    view: serde_json::Value,
    id: &str,
    token: &str,
    session: Option<&str>,
) -> Response {
    let body = json!({
        "game": view,
        "token": token,
        "link": format!("/g/{id}?token={token}"),
    });
    with_session((status, Json(body)).into_response(), session, app)
}

/// The answer for a game made earlier under the same `Idempotency-Key`.
pub(super) async fn earlier(
    app: &Arc<App>,
    found: Created,
    route: &str,
) -> Result<Response, ApiError> {
    let Created::Earlier {
        game_id,
        route: earlier_route,
        side,
    } = found
    else {
        return Err(ApiError::bad_request("no earlier request"));
    };
    if earlier_route != route {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            format!("this Idempotency-Key was used for {earlier_route}, not {route}"),
        ));
    }
    let side: Side = side.parse().unwrap_or(Side::First);
    let (view, token) = app
        .rooms()
        .read(&game_id, move |round| {
            (
                to_json(&round.view(Some(side))),
                round.record().tokens[side.index()].clone(),
            )
        })
        .await?;
    Ok(created(app, StatusCode::OK, view, &game_id, &token, None))
}

/// `POST /api/games`: a game against the engine, or against a friend who joins by the
/// invite link. The creator is the player signed in, or a guest made now.
pub(super) async fn create(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(request): ApiJson<NewGame>,
) -> Result<Response, ApiError> {
    const ROUTE: &str = "POST /api/games";
    let key = viewer.idempotency(ROUTE)?;
    if let Some(key) = &key {
        let (store_app, key2) = (app.clone(), key.clone());
        let found =
            blocking(move || store_app.store().earlier(&key2).map_err(ApiError::from)).await?;
        if let Some(found) = found {
            return earlier(&app, found, ROUTE).await;
        }
    }
    app.admit_creation(viewer.client)?;
    let kind = game_kind(&app, &request.game)?;
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
    let clock = time_control(request.clock)?;
    let position = request
        .position
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .unwrap_or("start");
    let start = kind.new_game(position).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_position", e.to_string())
            .with_params(crate::error::position_params(&e))
    })?;
    if let Some(outcome) = start.outcome() {
        let message = format!(
            "the position is already over: {}",
            crate::round::words::result(kind, &outcome)
        );
        return Err(
            ApiError::new(StatusCode::BAD_REQUEST, "bad_position", message.clone())
                .with_params(serde_json::json!({"message": message, "problems": []})),
        );
    }
    let (user, session) = viewer.player(&app).await?;
    let now = now_ms();
    let mut players = [None, None];
    players[creator.index()] = Some(user.player_ref());
    let record = StoredGame {
        id: random_id(10),
        game: kind.name().to_string(),
        start: crate::round::start_with_counters(start.as_ref()),
        opponent,
        creator,
        tokens: [random_token(), random_token()],
        players,
        invite: (opponent == Opponent::Friend).then(random_token),
        clock,
        created_ms: now,
        updated_ms: now,
        turn_ms: Some(now),
        ..StoredGame::default()
    };
    let (id, token) = (record.id.clone(), record.tokens[creator.index()].clone());
    let app2 = app.clone();
    let made = blocking(move || {
        let made = match &key {
            Some(key) => app2.store().create_once(&record, key, creator)?,
            None => {
                app2.store().create(&record)?;
                Created::New
            }
        };
        if made == Created::New {
            let table = app2.rooms().open(record)?;
            let view = table.lock().view(Some(creator));
            return Ok::<_, ApiError>(Ok(to_json(&view)));
        }
        Ok(Err(made))
    })
    .await?;
    match made {
        Ok(view) => Ok(created(
            &app,
            StatusCode::CREATED,
            view,
            &id,
            &token,
            session.as_deref(),
        )),
        Err(found) => earlier(&app, found, ROUTE).await,
    }
}

/// The seat of `identity`, or a 403.
fn seat(round: &Round, identity: &Identity) -> Result<Side, RoundError> {
    round.seat_of(identity).ok_or(RoundError::NotAPlayer)
}

/// `GET /api/games/{id}`: the state, as the viewer sees it.
pub(super) async fn state(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    viewer: Viewer,
) -> Result<Json<serde_json::Value>, ApiError> {
    let identity = viewer.identity(&id);
    let view = app
        .rooms()
        .read(&id, move |round| round.view(round.seat_of(&identity)))
        .await?;
    Ok(Json(to_json(&view)))
}

/// The action of `POST /api/games/{id}/{action}`: its name and its JSON body, if any.
fn action_of(name: &str, headers: &HeaderMap, body: &[u8]) -> Result<Action, ApiError> {
    let json_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    // Actions without fields take any body (a form posts one).
    let needs_fields = matches!(name, "move" | "draw");
    let mut fields = if body.iter().all(u8::is_ascii_whitespace) || (!json_type && !needs_fields) {
        serde_json::Map::new()
    } else {
        if !json_type {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "bad_content_type",
                "the body must be JSON (Content-Type: application/json)",
            ));
        }
        match serde_json::from_slice::<serde_json::Value>(body) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(_) => {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "bad_json",
                    "the body must be a JSON object",
                ))
            }
            Err(e) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "bad_json",
                    format!("the body is not JSON: {e}"),
                ))
            }
        }
    };
    if !matches!(
        name,
        "move" | "resign" | "draw" | "takeback" | "abort" | "rematch"
    ) {
        return Err(ApiError::not_found(format!(
            "no action '{}' (move, resign, draw, takeback, abort, rematch)",
            chuhe::quote_input(name)
        )));
    }
    fields.insert("type".into(), json!(name));
    serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_json", e.to_string()))
}

/// Carries out `action` of the player `identity` names, on a blocking thread under the
/// game's lock: what the HTTP routes and the WebSocket share. A rematch's game is opened
/// here too.
pub(super) async fn act_as(
    app: &Arc<App>,
    id: &str,
    identity: Identity,
    action: Action,
) -> Result<(Side, AfterAction), ApiError> {
    let applied = app
        .rooms()
        .act(id, move |round, store| {
            let side = seat(round, &identity)?;
            let applied = round.apply(side, &action, store)?;
            Ok((side, applied, round.view(Some(side)), round.game().plies()))
        })
        .await?;
    let (side, applied, view, plies) = applied;
    if let Applied::Rematch(game) = applied {
        let app2 = app.clone();
        // The actor's seat in the rematch is the other one.
        let rematch = (game.id.clone(), game.tokens[(!side).index()].clone());
        blocking(move || app2.rooms().open(*game).map(|_| ()).map_err(ApiError::from)).await?;
        let view = app
            .rooms()
            .read(id, move |round| round.view(Some(side)))
            .await?;
        return Ok((
            side,
            AfterAction {
                view,
                plies,
                rematch: Some(rematch),
            },
        ));
    }
    Ok((
        side,
        AfterAction {
            view,
            plies,
            rematch: None,
        },
    ))
}

/// A round after an action: its state for the actor, its moves, the rematch it made (its id
/// and the actor's token there, for API clients).
pub(super) struct AfterAction {
    pub view: crate::round::view::GameView,
    pub plies: usize,
    pub rematch: Option<(String, String)>,
}

/// `POST /api/games/{id}/{move|resign|draw|takeback|abort|rematch}`: a player's action;
/// the state after it.
pub(super) async fn act(
    State(app): State<Arc<App>>,
    Path((id, name)): Path<(String, String)>,
    viewer: Viewer,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let body = body.map_err(super::body_error)?;
    let action = action_of(&name, &headers, &body)?;
    let (_, after) = act_as(&app, &id, viewer.identity(&id), action).await?;
    let mut out = to_json(&after.view);
    if let Some((game, token)) = after.rematch {
        out["rematch"]["game"] = json!(game);
        out["rematch"]["token"] = json!(token);
    }
    Ok(Json(out))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinBody {
    /// The code of the invite link.
    invite: String,
}

/// `POST /api/games/{id}/join`: takes the open seat of a game between friends with the
/// invite link's code (a guest is made for a browser without a session). A player who holds
/// a seat keeps it; when someone else took the seat, 409 `seat_taken` (the asker watches).
pub(super) async fn join(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    viewer: Viewer,
    ApiJson(body): ApiJson<JoinBody>,
) -> Result<Response, ApiError> {
    const ROUTE: &str = "POST /api/games/{id}/join";
    let key = viewer.idempotency(ROUTE)?;
    if let Some(key) = &key {
        let (app2, key2) = (app.clone(), key.clone());
        let found = blocking(move || app2.store().earlier(&key2).map_err(ApiError::from)).await?;
        if let Some(found) = found {
            return earlier(&app, found, ROUTE).await;
        }
    }
    let identity = viewer.identity(&id);
    // A seat held already needs no new guest.
    if let Some(side) = app
        .rooms()
        .read(&id, {
            let identity = identity.clone();
            move |round| round.seat_of(&identity)
        })
        .await?
    {
        let (view, token) = app
            .rooms()
            .read(&id, move |round| {
                (
                    to_json(&round.view(Some(side))),
                    round.record().tokens[side.index()].clone(),
                )
            })
            .await?;
        return Ok(created(&app, StatusCode::OK, view, &id, &token, None));
    }
    let (user, session) = viewer.player(&app).await?;
    let tokens = identity.tokens.clone();
    let key2 = key.clone();
    let joined = app
        .rooms()
        .act(&id, move |round, store| {
            let side = round.join(&user, &tokens, &body.invite, key2.as_ref(), store)?;
            Ok((
                to_json(&round.view(Some(side))),
                round.record().tokens[side.index()].clone(),
            ))
        })
        .await;
    match joined {
        Ok((view, token)) => Ok(created(
            &app,
            StatusCode::OK,
            view,
            &id,
            &token,
            session.as_deref(),
        )),
        // The guest made for this browser is kept: it watches as that guest.
        Err(e) => Ok(with_session(
            ApiError::from(e).into_response(),
            session.as_deref(),
            &app,
        )),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct LinkQuery {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    invite: Option<String>,
}

/// `GET /g/{id}`: the page of a game. The page itself joins with `?invite=CODE`. An older
/// link with `?token=…` (a seat's secret) puts the token into the game's cookie — unless
/// the browser holds a seat of this game already, which it keeps — and sends the browser to
/// the plain address, so that the secret is not left in the address bar.
pub(super) async fn page(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    viewer: Viewer,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<LinkQuery>,
) -> Response {
    if !crate::ids::valid_id(&id) {
        return ApiError::no_game(&id).into_response();
    }
    let _ = q.invite;
    let Some(token) = q.token else {
        return super::page::index(headers).await.into_response();
    };
    let identity = viewer.identity(&id);
    let t = token.clone();
    let (valid, held) = app
        .rooms()
        .read(&id, move |round| {
            let link = Identity {
                user: None,
                tokens: vec![t],
            };
            (
                round.seat_of(&link).is_some(),
                round.seat_of(&identity).is_some(),
            )
        })
        .await
        .unwrap_or((false, false));
    let mut response = Redirect::to(&format!("/g/{id}")).into_response();
    if valid && !held {
        let (name, value) = super::set_cookie(
            &super::game_cookie_name(&id),
            &token,
            app.options().cookie_secure,
        );
        response.headers_mut().insert(name, value);
    }
    response
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BoardQuery {
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

/// `GET /api/games/{id}/board.svg`: the board at a ply, drawn by the library.
pub(super) async fn board_svg(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
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
    let svg = app
        .rooms()
        .read(&id, move |round| -> Result<String, ApiError> {
            let game = round.game();
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

/// Where a game says it was played.
fn site(id: &str) -> String {
    format!("chuhe serve, game {id}")
}

fn attachment(kind: &str, id: &str, ext: &str, text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chuhe-{id}.{ext}\""),
            ),
        ],
        text,
    )
        .into_response()
}

/// `GET /api/games/{id}/pcn`: the game as PCN.
pub(super) async fn pcn(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Response, ApiError> {
    let site = site(&id);
    let text = app
        .rooms()
        .read(&id, move |round| {
            crate::archive::pcn_of(round, &site).to_json_pretty()
        })
        .await?;
    Ok(attachment(
        "application/json; charset=utf-8",
        &id,
        "pcn",
        text,
    ))
}

/// `GET /api/games/{id}/pgn`: a Xiangqi game as PGN (pychess.org's dialect).
pub(super) async fn pgn(
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Response, ApiError> {
    let site = site(&id);
    let text = app
        .rooms()
        .read(&id, move |round| {
            chuhe::pgn::write(round.game(), &crate::archive::pgn_tags(round, &site))
                .map_err(|e| ApiError::conflict("no_pgn", e.to_string()))
        })
        .await??;
    Ok(attachment(
        "application/x-chess-pgn; charset=utf-8",
        &id,
        "pgn",
        text,
    ))
}
