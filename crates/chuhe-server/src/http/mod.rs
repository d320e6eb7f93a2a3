//! HTTP and WebSocket: thin layers over the domains. Routes read the request into the
//! domain's terms (a [`Viewer`], an [`crate::round::Action`], a seek's terms), call the
//! domain, and write its answer or its error ([`ApiError`]) as JSON. The page and its assets
//! are embedded in the binary.
//!
//! The JSON API:
//! - players: `GET /api/me`, `POST /api/signup`, `POST /api/login`, `POST /api/logout`,
//!   `POST /api/password`, `GET /api/users/{name}`, `GET /api/users/{name}/rating.svg`,
//!   `GET /api/leaderboard`;
//! - lobby: `GET|POST /api/seeks`, `DELETE /api/seeks/{id}`, `POST /api/seeks/{id}/accept`,
//!   `GET|POST /api/challenges`, `POST /api/challenges/{id}/{accept|decline|cancel}`,
//!   `GET /api/playing`, `GET /api/lobby/ws`;
//! - games: `POST /api/games` (against the engine or a friend), `GET /api/games` (the
//!   archive, with filters), `POST /api/import`, `GET /api/games/{id}`,
//!   `POST /api/games/{id}/{move|resign|draw|takeback|abort|rematch|join}`,
//!   `GET /api/games/{id}/{board.svg|pcn|pgn|ws}`, `POST|GET /api/games/{id}/review` (the
//!   review after the game, see [`crate::review`]);
//! - analysis: `POST /api/analysis/position` (a position checked by the rules core and
//!   drawn), `GET /api/analysis/ws` (analyses streamed to the page; see `analysis.rs`).
//!
//! Every change is behind the origin check ([`guard`]); creations and acceptances take an
//! `Idempotency-Key`.

mod analysis;
mod archive;
mod games;
pub mod guard;
mod lobby;
mod page;

pub use page::language as page_language;
mod players;
mod socket;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;

use crate::app::App;
use crate::error::ApiError;
use crate::round::Identity;
use crate::store::{Idempotency, User};

/// The largest request body accepted (a record to import fits easily).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "chuhe_session";

/// The server's routes over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/archive", get(page::index))
        .route("/play", get(page::index))
        .route("/leaderboard", get(page::index))
        .route("/login", get(page::index))
        .route("/signup", get(page::index))
        .route("/account", get(page::index))
        .route("/@/{name}", get(page::index))
        .route("/analysis", get(page::index))
        .route("/editor", get(page::index))
        .route("/g/{id}", get(games::page))
        .route("/assets/{file}", get(page::asset))
        .route("/api/me", get(players::me))
        .route("/api/signup", post(players::sign_up))
        .route("/api/login", post(players::log_in))
        .route("/api/logout", post(players::log_out))
        .route("/api/password", post(players::change_password))
        .route("/api/users/{name}", get(players::profile))
        .route("/api/users/{name}/rating.svg", get(players::rating_chart))
        .route("/api/leaderboard", get(players::leaderboard))
        .route("/api/seeks", get(lobby::seeks).post(lobby::seek))
        .route("/api/seeks/{id}", axum::routing::delete(lobby::cancel_seek))
        .route("/api/seeks/{id}/accept", post(lobby::accept_seek))
        .route(
            "/api/challenges",
            get(lobby::challenges).post(lobby::challenge),
        )
        .route("/api/challenges/{id}/{verb}", post(lobby::answer_challenge))
        .route("/api/playing", get(lobby::playing))
        .route("/api/lobby/ws", get(lobby::socket))
        .route("/api/kinds", get(games::kinds))
        .route("/api/games", post(games::create).get(archive::list))
        .route("/api/import", post(archive::import))
        .route("/api/games/{id}", get(games::state))
        .route("/api/games/{id}/board.svg", get(games::board_svg))
        .route("/api/games/{id}/pcn", get(games::pcn))
        .route("/api/games/{id}/pgn", get(games::pgn))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/ws", get(socket::upgrade))
        .route(
            "/api/games/{id}/review",
            get(analysis::get_review).post(analysis::request_review),
        )
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/ws", get(analysis::socket))
        .route("/api/games/{id}/{action}", post(games::act))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::guard,
        ))
        .with_state(app)
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
/// limits count by; see [`ClientAddr`]).
pub fn service(
    app: Arc<App>,
) -> axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr> {
    router(app).into_make_service_with_connect_info::<SocketAddr>()
}

/// The address of the client: the last `X-Forwarded-For` entry when the server trusts the
/// balancer in front ([`crate::AppOptions::trust_forwarded_for`]), else the connection's
/// peer (served through [`service`]); the unspecified address when neither is known.
pub struct ClientAddr(pub IpAddr);

fn client_addr(parts: &Parts, app: &App) -> Result<IpAddr, ApiError> {
    if app.options().trust_forwarded_for {
        let forwarded = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .last()
            .map(str::trim);
        if let Some(text) = forwarded {
            return text.parse::<IpAddr>().map_err(|_| {
                ApiError::bad_request(format!(
                    "X-Forwarded-For names no address: {}",
                    chuhe::quote_input(text)
                ))
            });
        }
    }
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    Ok(peer.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)))
}

impl FromRequestParts<Arc<App>> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        client_addr(parts, app).map(ClientAddr)
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

/// A body that could not be read (too large, cut off) as an [`ApiError`].
pub(crate) fn body_error(rejection: axum::extract::rejection::BytesRejection) -> ApiError {
    let code = match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        _ => "bad_body",
    };
    ApiError::new(rejection.status(), code, rejection.body_text())
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
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// The first segment of the path after the route's prefix (a game id, a name); a malformed
/// path is a 404.
pub struct PathId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<Vec<String>>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(mut v)) if !v.is_empty() => Ok(PathId(v.swap_remove(0))),
            Ok(_) => Err(ApiError::not_found("nothing here")),
            Err(rejection) => Err(path_error(rejection)),
        }
    }
}

fn path_error(rejection: PathRejection) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", rejection.body_text())
}

/// The value of cookie `name`, if the request has it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The name of the cookie that holds a seat's token for game `id` (games before accounts:
/// their invite links set it).
pub fn game_cookie_name(id: &str) -> String {
    format!("chuhe_{id}")
}

/// A `Set-Cookie` header: `value` under `name`, for the whole site, kept for a year (or
/// removed when `value` is empty); `Secure` behind TLS.
pub fn set_cookie(name: &str, value: &str, secure: bool) -> (header::HeaderName, HeaderValue) {
    let age = if value.is_empty() { 0 } else { 31_536_000 };
    let secure = if secure { "; Secure" } else { "" };
    let text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={age}{secure}");
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("")),
    )
}

/// Who sends a request: the player of the session cookie (if any and valid), the seat token
/// of an `Authorization: Bearer` header, the cookies of older games' seats, and the client's
/// address. One extractor for every route; the session is looked up in the database, so
/// every server behind a balancer knows it.
pub struct Viewer {
    /// The player signed in (an account or a guest).
    pub user: Option<User>,
    /// The session's secret (never logged).
    session: Option<String>,
    bearer: Option<String>,
    headers: HeaderMap,
    /// The client's address.
    pub client: IpAddr,
}

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let client = client_addr(parts, app)?;
        let bearer = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|v| v.trim().to_string());
        let session =
            cookie(&parts.headers, SESSION_COOKIE).filter(|s| !s.is_empty() && s.len() <= 128);
        let user = match &session {
            Some(secret) => {
                let (app, secret) = (app.clone(), secret.clone());
                crate::round::rooms::blocking(move || {
                    app.users().session_user(&secret).map_err(ApiError::from)
                })
                .await?
            }
            None => None,
        };
        Ok(Viewer {
            session: user.as_ref().and(session),
            user,
            bearer,
            headers: parts.headers.clone(),
            client,
        })
    }
}

impl Viewer {
    /// Who asks, for game `id`: the player, and the seat tokens carried (the bearer token,
    /// the game's own cookie).
    pub fn identity(&self, id: &str) -> Identity {
        let mut tokens: Vec<String> = self.bearer.iter().cloned().collect();
        tokens.extend(cookie(&self.headers, &game_cookie_name(id)));
        Identity {
            user: self.user.as_ref().map(|u| u.id.clone()),
            tokens,
        }
    }

    /// The session's secret.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The player signed in, or 401.
    pub fn signed_in(&self) -> Result<&User, ApiError> {
        self.user
            .as_ref()
            .ok_or_else(|| crate::user::UserError::NotSignedIn.into())
    }

    /// The player, made a guest (with a new session, whose cookie the answer must set) when
    /// the request has none.
    pub async fn player(&self, app: &Arc<App>) -> Result<(User, Option<String>), ApiError> {
        if let Some(user) = &self.user {
            return Ok((user.clone(), None));
        }
        let app = app.clone();
        crate::round::rooms::blocking(move || {
            let (user, secret) = app.users().new_guest()?;
            Ok::<_, ApiError>((user, Some(secret)))
        })
        .await
    }

    /// The `Idempotency-Key` of the request on `route`, scoped to the player (or the
    /// client's address without one); a key must be 1–128 visible ASCII characters.
    pub fn idempotency(&self, route: &str) -> Result<Option<Idempotency>, ApiError> {
        let Some(value) = self.headers.get("idempotency-key") else {
            return Ok(None);
        };
        let key = value
            .to_str()
            .ok()
            .filter(|k| (1..=128).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
            .ok_or_else(|| {
                ApiError::bad_request("Idempotency-Key must be 1 to 128 visible ASCII characters")
            })?;
        let scope = match &self.user {
            Some(u) => format!("user:{}", u.id),
            None => format!("ip:{}", self.client),
        };
        Ok(Some(Idempotency {
            scope,
            key: key.to_string(),
            route: route.to_string(),
        }))
    }
}

/// Adds the session cookie of a new session (a guest just made, a login) to `response`.
pub fn with_session(mut response: Response, secret: Option<&str>, app: &App) -> Response {
    if let Some(secret) = secret {
        let (name, value) = set_cookie(SESSION_COOKIE, secret, app.options().cookie_secure);
        response.headers_mut().append(name, value);
    }
    response
}

/// A value as JSON.
pub(crate) fn to_json<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// An `OK` JSON answer.
pub(crate) fn ok(v: serde_json::Value) -> Response {
    Json(v).into_response()
}
