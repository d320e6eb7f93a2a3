//! The one error type of the API: an HTTP status, a stable machine-readable code and a
//! message for people, sent as `{"error": {"code": …, "message": …}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::store::StoreError;

/// An API error. Everything a client can send wrongly is a 4xx; a 5xx means the database
/// failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code: `bad_request`, `not_found`, `forbidden`, `illegal_move`, …
    pub code: &'static str,
    /// What was wrong, in words.
    pub message: String,
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
            retry_after: None,
        }
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

    /// 403: the request lacks the token of the player it acts for.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 409: the game is not in a state that allows this.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 422: a move that cannot be played.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
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
            StoreError::Duplicate(_) | StoreError::Backend(_) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "database",
                format!("the database failed; nothing was changed ({e})"),
            ),
        }
    }
}

/// The code of a 503: the database is away for now.
pub const UNAVAILABLE: &str = "database_unavailable";

/// The seconds a client is asked to wait when the database is away.
pub const RETRY_AFTER_SECONDS: u64 = 1;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
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
