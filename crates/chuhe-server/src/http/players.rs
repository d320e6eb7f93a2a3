//! The routes of players: who am I, sign-up, login (a fresh session each time), logout,
//! password change, profiles with ratings and record, the rating chart, the leaderboard.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{ok, set_cookie, with_session, ApiJson, ApiQuery, PathId, Viewer, SESSION_COOKIE};
use crate::app::App;
use crate::error::ApiError;
use crate::rating::{Perf, PerfRating};
use crate::round::rooms::blocking;
use crate::store::User;
use crate::user::UserError;

fn user_json(user: &User) -> serde_json::Value {
    json!({"id": user.id, "name": user.name, "guest": user.guest})
}

/// `GET /api/me`: the player of the session (`null` without one), and whether sign-up is
/// open.
pub(super) async fn me(State(app): State<Arc<App>>, viewer: Viewer) -> Response {
    ok(json!({
        "user": viewer.user.as_ref().map(user_json),
        "signup": if app.users().signup_open() { "open" } else { "closed" },
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Credentials {
    name: String,
    password: String,
}

/// `POST /api/signup`: makes an account (a guest's session becomes the account, keeping its
/// games) and signs in with a new session.
pub(super) async fn sign_up(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    // New accounts count against the client's limit on new things, as new games do.
    app.admit_creation(viewer.client)?;
    let current = viewer.user.clone();
    let old_session = viewer.session().map(str::to_string);
    let app2 = app.clone();
    let (user, secret) = blocking(move || {
        let user = app2
            .users()
            .sign_up(&body.name, &body.password, current.as_ref())?;
        // A fresh session id at every sign-in; the guest's old one ends.
        if let Some(old) = old_session {
            app2.users().end_session(&old)?;
        }
        let secret = app2.users().start_session(&user)?;
        // A guest's games now show the account's name.
        app2.rooms().player_renamed(&user.id);
        Ok::<_, UserError>((user, secret))
    })
    .await?;
    Ok(with_session(
        (
            axum::http::StatusCode::CREATED,
            Json(json!({"user": user_json(&user)})),
        )
            .into_response(),
        Some(&secret),
        &app,
    ))
}

/// `POST /api/login`: checks the name and password (rate-limited per name and per address)
/// and signs in with a new session; the old session of this browser ends.
pub(super) async fn log_in(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let old_session = viewer.session().map(str::to_string);
    let client = viewer.client;
    let app2 = app.clone();
    let (user, secret) = blocking(move || {
        let user = app2.users().log_in(&body.name, &body.password, client)?;
        if let Some(old) = old_session {
            app2.users().end_session(&old)?;
        }
        let secret = app2.users().start_session(&user)?;
        Ok::<_, UserError>((user, secret))
    })
    .await?;
    Ok(with_session(
        ok(json!({"user": user_json(&user)})),
        Some(&secret),
        &app,
    ))
}

/// `POST /api/logout`: ends the session and removes its cookie.
pub(super) async fn log_out(
    State(app): State<Arc<App>>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    if let Some(secret) = viewer.session().map(str::to_string) {
        let app2 = app.clone();
        blocking(move || app2.users().end_session(&secret).map_err(ApiError::from)).await?;
    }
    let mut response = ok(json!({"user": null}));
    let (name, value) = set_cookie(SESSION_COOKIE, "", app.options().cookie_secure);
    response.headers_mut().append(name, value);
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewPassword {
    old: String,
    new: String,
}

/// `POST /api/password`: changes the password of the account signed in (the old one must
/// be given); its other sessions end.
pub(super) async fn change_password(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    ApiJson(body): ApiJson<NewPassword>,
) -> Result<Response, ApiError> {
    let user = viewer.signed_in()?.clone();
    if user.guest {
        return Err(UserError::NotSignedIn.into());
    }
    let keep = viewer.session().unwrap_or_default().to_string();
    let app2 = app.clone();
    blocking(move || {
        app2.users()
            .change_password(&user, &body.old, &body.new, &keep)
            .map_err(ApiError::from)
    })
    .await?;
    Ok(ok(json!({"changed": true})))
}

fn rating_json(perf: &Perf, r: &PerfRating) -> serde_json::Value {
    json!({
        "perf": perf.to_string(),
        "game": perf.kind.name(),
        "speed": perf.speed.as_str(),
        "rating": r.shown(),
        "deviation": r.deviation.round() as i64,
        "provisional": r.provisional(),
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
    })
}

/// The player named `name` (by its key), or a 404.
fn user_named(app: &App, name: &str) -> Result<User, ApiError> {
    let key = name.trim().to_lowercase();
    let found = app.store().user_by_name(&key)?;
    match found {
        Some((user, _)) if !user.disabled => Ok(user),
        _ => Err(
            ApiError::not_found(format!("no player is named '{}'", chuhe::quote_input(name)))
                .with_params(json!({"name": name})),
        ),
    }
}

/// `GET /api/users/{name}`: a player's profile: name, since when, ratings and record.
pub(super) async fn profile(
    State(app): State<Arc<App>>,
    PathId(name): PathId,
) -> Result<Response, ApiError> {
    let app2 = app.clone();
    blocking(move || {
        let user = user_named(&app2, &name)?;
        let ratings = app2.store().ratings_of(&user.id)?;
        let tally = app2.store().tally(&user.id)?;
        Ok(ok(json!({
            "user": user_json(&user),
            "created_ms": user.created_ms,
            "ratings": ratings.iter().map(|(p, r)| rating_json(p, r)).collect::<Vec<_>>(),
            "record": {
                "games": tally.games,
                "wins": tally.wins,
                "losses": tally.losses,
                "draws": tally.draws,
                "playing": tally.playing,
            },
        })))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PerfQuery {
    #[serde(default)]
    perf: Option<String>,
    #[serde(default)]
    limit: Option<usize>,
}

fn perf_of(text: &str) -> Result<Perf, ApiError> {
    text.parse()
        .map_err(|e: String| ApiError::bad_request(e).with_params(json!({"field": "perf"})))
}

/// `GET /api/users/{name}/rating.svg?perf=xiangqi:blitz`: the rating chart.
pub(super) async fn rating_chart(
    State(app): State<Arc<App>>,
    PathId(name): PathId,
    ApiQuery(q): ApiQuery<PerfQuery>,
) -> Result<Response, ApiError> {
    let perf = perf_of(q.perf.as_deref().unwrap_or("xiangqi:blitz"))?;
    let app2 = app.clone();
    let svg = blocking(move || {
        let user = user_named(&app2, &name)?;
        let points = app2.store().rating_history(&user.id, &perf)?;
        Ok::<_, ApiError>(crate::chart::rating_chart(&points, 360, 140))
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

/// `GET /api/leaderboard[?perf=xiangqi:blitz]`: the best players of a category, or of every
/// category that has players.
pub(super) async fn leaderboard(
    State(app): State<Arc<App>>,
    ApiQuery(q): ApiQuery<PerfQuery>,
) -> Result<Response, ApiError> {
    let limit = q.limit.unwrap_or(20).clamp(1, 200);
    let perfs: Vec<Perf> = match &q.perf {
        Some(text) => vec![perf_of(text)?],
        None => chuhe::GameKind::ALL
            .iter()
            .flat_map(|&kind| {
                crate::rating::Speed::ALL
                    .iter()
                    .map(move |&speed| Perf { kind, speed })
            })
            .collect(),
    };
    let app2 = app.clone();
    blocking(move || {
        let mut out = Vec::new();
        for perf in perfs {
            let players = app2.store().leaderboard(&perf, limit)?;
            if players.is_empty() && q.perf.is_none() {
                continue;
            }
            out.push(json!({
                "perf": perf.to_string(),
                "players": players.iter().map(|(p, r)| {
                    let mut row = rating_json(&perf, r);
                    row["name"] = json!(p.name);
                    row
                }).collect::<Vec<_>>(),
            }));
        }
        Ok(ok(json!({"leaderboard": out})))
    })
    .await
}
