//! The one error answer of the API: an HTTP status, a stable machine-readable code, the
//! parameters the page needs to word it in the player's language, and an English message,
//! sent as `{"error": {"code": …, "message": …, "params": {…}}}`. The domains' own errors
//! ([`RoundError`], [`UserError`], [`StoreError`]) become one here, and only here.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::analysis::AnalysisError;
use crate::review::ReviewError;
use crate::round::RoundError;
use crate::store::StoreError;
use crate::user::UserError;

/// An API error. Everything a client can send wrongly is a 4xx; a 5xx means the database
/// failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code: `bad_request`, `not_found`, `forbidden`, `illegal_move`, `game_over`, …
    pub code: &'static str,
    /// What was wrong, in English words.
    pub message: String,
    /// The code's parameters (an object; boxed, to keep the error small).
    pub params: Box<Value>,
    /// Seconds after which trying again may succeed (sent as `Retry-After`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            params: Box::new(json!({})),
            retry_after: None,
        }
    }

    /// The same error with parameters for the page.
    pub fn with_params(mut self, params: Value) -> ApiError {
        self.params = Box::new(params);
        self
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 404: no game with this id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no game with id '{}'", chuhe::quote_input(id)),
        )
    }

    /// 404: nothing of this kind with this name.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 403: the request lacks the right to act.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 409: the state does not allow this.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 422: a move that cannot be played.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// The JSON body of the error (also a WebSocket's `error` message).
    pub fn body(&self) -> Value {
        json!({"code": self.code, "message": self.message, "params": self.params})
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::NotFound(id) => ApiError::no_game(&id),
            StoreError::Conflict { .. } | StoreError::Stale { .. } => ApiError::conflict(
                "stale",
                format!("{e}: the game changed meanwhile; reload it"),
            ),
            StoreError::Finished(_) => ApiError::conflict("game_over", e.to_string()),
            StoreError::SeatTaken { .. } => ApiError::conflict("seat_taken", e.to_string()),
            StoreError::Unavailable(_) => ApiError {
                retry_after: Some(RETRY_AFTER_SECONDS),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    UNAVAILABLE,
                    format!("the database is away; nothing was changed; try again shortly ({e})"),
                )
            },
            StoreError::Interrupted(_) => ApiError {
                retry_after: Some(RETRY_AFTER_SECONDS),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    UNAVAILABLE,
                    format!(
                        "the connection to the database broke while the change was being \
                         committed: it may or may not have been stored; read the game again \
                         before sending it again ({e})"
                    ),
                )
            },
            StoreError::Duplicate(_) | StoreError::Constraint(_) | StoreError::Backend(_) => {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "database",
                    format!("the database failed; nothing was changed ({e})"),
                )
            }
        }
    }
}

impl From<RoundError> for ApiError {
    fn from(e: RoundError) -> ApiError {
        let status = match &e {
            RoundError::Store(_) | RoundError::Internal(_) => None,
            RoundError::NoGame(_) => Some(StatusCode::NOT_FOUND),
            RoundError::NotServed { .. } => Some(StatusCode::SERVICE_UNAVAILABLE),
            RoundError::UnreadableMove { .. } => Some(StatusCode::BAD_REQUEST),
            RoundError::IllegalMove { .. } => Some(StatusCode::UNPROCESSABLE_ENTITY),
            RoundError::NotAPlayer => Some(StatusCode::FORBIDDEN),
            RoundError::BadInvite => Some(StatusCode::FORBIDDEN),
            _ => Some(StatusCode::CONFLICT),
        };
        match (status, e) {
            (_, RoundError::Store(store)) => store.into(),
            (_, RoundError::Internal(why)) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the request failed inside the server: {why}"),
            ),
            (Some(status), e) => {
                ApiError::new(status, e.code(), e.to_string()).with_params(e.params())
            }
            (None, e) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.code(), e.to_string()),
        }
    }
}

impl From<UserError> for ApiError {
    fn from(e: UserError) -> ApiError {
        let status = match &e {
            UserError::BadName(..) | UserError::BadPassword(..) => StatusCode::BAD_REQUEST,
            UserError::NameTaken(_) => StatusCode::CONFLICT,
            UserError::WrongLogin | UserError::NotSignedIn => StatusCode::UNAUTHORIZED,
            UserError::TooManyAttempts { .. } => StatusCode::TOO_MANY_REQUESTS,
            UserError::SignupClosed | UserError::GuestsUnrated => StatusCode::FORBIDDEN,
            UserError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let params = match &e {
            UserError::BadName(reason, why) | UserError::BadPassword(reason, why) => {
                json!({"reason": reason, "why": why})
            }
            UserError::NameTaken(name) => json!({"name": name}),
            UserError::TooManyAttempts { retry_after } => json!({"retry_after": retry_after}),
            _ => json!({}),
        };
        let retry_after = match &e {
            UserError::TooManyAttempts { retry_after } => Some(*retry_after),
            _ => None,
        };
        match e {
            UserError::Store(store) => store.into(),
            e => ApiError {
                retry_after,
                ..ApiError::new(status, e.code(), e.to_string()).with_params(params)
            },
        }
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> ApiError {
        let message = e.to_string();
        match e {
            AnalysisError::BadGame(game) => {
                ApiError::new(StatusCode::BAD_REQUEST, "bad_game", message)
                    .with_params(json!({"game": game}))
            }
            AnalysisError::BadPosition(why) => {
                ApiError::new(StatusCode::BAD_REQUEST, "bad_position", message)
                    .with_params(position_params(&why))
            }
            AnalysisError::BadMove { index, text, error } => {
                ApiError::new(StatusCode::BAD_REQUEST, "bad_move", message).with_params(
                    json!({"index": index, "move": text, "message": error.to_string()}),
                )
            }
            AnalysisError::BadRequest(_) => ApiError::bad_request(message),
            AnalysisError::Busy { scope, limit } => busy(message, scope.as_str(), limit),
        }
    }
}

/// A refused position's parameters: its `message` in English, and (when the text was read
/// but the rules refuse it) its `game` (`xiangqi`, `xiongqi`) and `problems` as codes a page
/// words, `[{code, location, params, message}]`, where `location` is a square (`e1`), `first
/// hand`/`second hand`, `board` or `turn`.
pub(crate) fn position_params(why: &chuhe::SetupError) -> Value {
    let chuhe::SetupError::Invalid(e) = why else {
        return json!({"message": why.to_string(), "problems": []});
    };
    let list: Vec<Value> = e
        .problems
        .iter()
        .map(|p| {
            let location = match p.location {
                chuhe::Location::Square(cell) => cell.to_string(),
                chuhe::Location::Hand(side) => format!("{} hand", side.as_str()),
                chuhe::Location::Board => "board".into(),
                chuhe::Location::Turn => "turn".into(),
            };
            let params: serde_json::Map<String, Value> = p
                .params
                .iter()
                .map(|(k, v)| (k.to_string(), Value::String(v.clone())))
                .collect();
            json!({"code": p.code, "location": location, "params": params, "message": p.message})
        })
        .collect();
    json!({"message": why.to_string(), "game": e.game.to_lowercase(), "problems": list})
}

/// 503 `analysis_busy`: too many analyses (`scope`: `address` or `queue`, `limit` the bound).
fn busy(message: String, scope: &str, limit: usize) -> ApiError {
    let retry_after = crate::analysis::BUSY_RETRY_AFTER;
    ApiError {
        retry_after: Some(retry_after),
        ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "analysis_busy", message)
            .with_params(json!({"scope": scope, "limit": limit, "retry_after": retry_after}))
    }
}

impl From<ReviewError> for ApiError {
    fn from(e: ReviewError) -> ApiError {
        let message = e.to_string();
        match e {
            ReviewError::NotOver => ApiError::conflict("game_not_over", message),
            ReviewError::NoReview(_) => ApiError::new(StatusCode::NOT_FOUND, "no_review", message),
            ReviewError::Busy { limit } => busy(message, "queue", limit),
            ReviewError::Store(store) => store.into(),
        }
    }
}

/// The code of a 503: the database is away for now.
pub const UNAVAILABLE: &str = "database_unavailable";

/// The seconds a client is asked to wait when the database is away.
pub const RETRY_AFTER_SECONDS: u64 = 1;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.body()});
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}
