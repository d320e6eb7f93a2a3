//! The site over HTTP, as browsers use it (a session cookie each): accounts and guests,
//! sign-up closed, logins limited, names shown as text, the lobby's seeks and challenges,
//! rated games and their Glicko-2 ratings written once with the result, the archive's
//! filters, profiles and the leaderboard, `Idempotency-Key`, rematches between people.

use std::sync::Arc;
use std::time::Duration;

use chuhe_server::rating::{rate, PerfRating, Score};
use chuhe_server::store::prelude::*;
use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

use common::{TempDb, TestServer};

/// A browser: its session cookie, kept from answer to answer.
struct Browser<'a> {
    server: &'a TestServer,
    session: Option<String>,
}

impl<'a> Browser<'a> {
    fn new(server: &'a TestServer) -> Browser<'a> {
        Browser {
            server,
            session: None,
        }
    }

    fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<Value>,
        key: Option<&str>,
    ) -> (u16, Value) {
        let mut request = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(20))
            .redirects(0)
            .build()
            .request(method, &self.server.url(path));
        if let Some(s) = &self.session {
            request = request.set("Cookie", &format!("chuhe_session={s}"));
        }
        if let Some(k) = key {
            request = request.set("Idempotency-Key", k);
        }
        let response = match body {
            Some(b) => request.send_json(b),
            None => request.call(),
        };
        let response = match response {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        for cookie in response.all("set-cookie") {
            if let Some(value) = cookie
                .strip_prefix("chuhe_session=")
                .and_then(|v| v.split(';').next())
            {
                self.session = (!value.is_empty()).then(|| value.to_string());
            }
        }
        let status = response.status();
        (status, response.into_json().unwrap_or(Value::Null))
    }

    fn get(&mut self, path: &str) -> (u16, Value) {
        self.call("GET", path, None, None)
    }

    fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.call("POST", path, Some(body), None)
    }

    fn sign_up(&mut self, name: &str) -> Value {
        let (status, body) = self.post(
            "/api/signup",
            json!({"name": name, "password": "correct horse"}),
        );
        assert_eq!(status, 201, "{body}");
        body["user"].clone()
    }

    fn play(&mut self, id: &str, mv: &str) -> (u16, Value) {
        self.post(&format!("/api/games/{id}/move"), json!({"move": mv}))
    }
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("(no code)")
}

fn server(db: &TempDb, options: AppOptions) -> TestServer {
    TestServer::with_options(
        Arc::new(store::SqliteStore::open_shared(db).unwrap()),
        AppOptions {
            engine_movetime: Duration::from_millis(20),
            ..options
        },
    )
}

#[test]
fn accounts_guests_sessions_and_names() {
    let db = TempDb::new("accounts");
    let s = server(&db, AppOptions::default());
    let mut a = Browser::new(&s);
    assert_eq!(a.get("/api/me").1, json!({"user": null, "signup": "open"}));
    // A guest first: playing makes one.
    let (status, created) = a.post("/api/games", json!({"game": "xiangqi", "level": 0}));
    assert_eq!(status, 201, "{created}");
    let guest = a.get("/api/me").1["user"].clone();
    assert_eq!(guest["guest"], true);
    let guest_name = guest["name"].as_str().unwrap().to_string();
    assert!(guest_name.starts_with("Guest-"), "{guest}");
    let game = created["game"]["id"].as_str().unwrap().to_string();
    // Signing up keeps the guest's game, under the new name; the session is a new one.
    let before = a.session.clone();
    let user = a.sign_up("李小龙");
    assert_eq!(
        (user["name"].clone(), user["guest"].clone()),
        (json!("李小龙"), json!(false))
    );
    assert_ne!(a.session, before, "a fresh session id at sign-up");
    let (_, view) = a.get(&format!("/api/games/{game}"));
    assert_eq!(view["you"], "first");
    assert_eq!(view["players"][0]["name"], "李小龙");
    // The old guest session is over.
    let mut old = Browser::new(&s);
    old.session = before;
    assert_eq!(old.get("/api/me").1["user"], Value::Null);
    // Names: taken regardless of case and compatibility forms; refused with a reason.
    let mut b = Browser::new(&s);
    for (name, want) in [
        ("李小龙", "name_taken"),
        ("x", "bad_name"),
        ("a\u{200b}b", "bad_name"),
        ("Guest-me", "bad_name"),
    ] {
        let (status, body) = b.post(
            "/api/signup",
            json!({"name": name, "password": "correct horse"}),
        );
        assert_eq!(code(&body), want, "{name:?}: {status} {body}");
        assert!(body["error"]["message"].as_str().unwrap().len() > 5);
    }
    let (status, body) = b.post(
        "/api/signup",
        json!({"name": "Nguyễn Văn A", "password": "short"}),
    );
    assert_eq!((status, code(&body)), (400, "bad_password"));
    // A name that looks like markup is taken as it is, and given back as text.
    b.sign_up("<script>");
    let (status, profile) = b.get("/api/users/%3Cscript%3E");
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["user"]["name"], "<script>");
    // Logout ends the session; login starts a fresh one; a wrong password is refused.
    let (status, _) = a.post("/api/logout", json!({}));
    assert_eq!(status, 200);
    assert_eq!(a.session, None);
    let (status, body) = a.post(
        "/api/login",
        json!({"name": "李小龙", "password": "wrong one"}),
    );
    assert_eq!((status, code(&body)), (401, "wrong_login"));
    let (status, body) = a.post(
        "/api/login",
        json!({"name": "nobody here", "password": "wrong one"}),
    );
    assert_eq!(
        (status, code(&body)),
        (401, "wrong_login"),
        "no account and a wrong password read alike"
    );
    let (status, body) = a.post(
        "/api/login",
        json!({"name": "李小龙", "password": "correct horse"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(a.get("/api/me").1["user"]["name"], "李小龙");
    // The password change needs the old one and ends the other sessions.
    let mut other_device = Browser::new(&s);
    other_device.post(
        "/api/login",
        json!({"name": "李小龙", "password": "correct horse"}),
    );
    let (status, body) = a.post(
        "/api/password",
        json!({"old": "nope nope", "new": "battery staple"}),
    );
    assert_eq!((status, code(&body)), (401, "wrong_login"));
    let (status, body) = a.post(
        "/api/password",
        json!({"old": "correct horse", "new": "battery staple"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(other_device.get("/api/me").1["user"], Value::Null);
    assert_eq!(a.get("/api/me").1["user"]["name"], "李小龙");
    // Sessions are kept by their hash: the database never holds the cookie's secret.
    let secret = a.session.clone().unwrap();
    let raw = std::fs::read(&*db).unwrap_or_default();
    assert!(!raw.windows(secret.len()).any(|w| w == secret.as_bytes()));
}

#[test]
fn logins_are_limited_and_a_club_closes_sign_up() {
    let db = TempDb::new("closed");
    let s = server(
        &db,
        AppOptions {
            signup_open: false,
            ..AppOptions::default()
        },
    );
    let mut a = Browser::new(&s);
    assert_eq!(a.get("/api/me").1["signup"], "closed");
    let (status, body) = a.post(
        "/api/signup",
        json!({"name": "Newcomer", "password": "correct horse"}),
    );
    assert_eq!((status, code(&body)), (403, "signup_closed"));
    // The administrator makes the account (as `chuhe user create` does).
    chuhe_server::user::Users::new(
        Arc::new(store::SqliteStore::open_shared(&db).unwrap()),
        false,
    )
    .create_account("Member", "correct horse")
    .unwrap();
    let (status, _) = a.post(
        "/api/login",
        json!({"name": "member", "password": "correct horse"}),
    );
    assert_eq!(status, 200, "names are found regardless of case");
    // Ten tries a minute per name; the eleventh waits, even with the right password.
    let mut attacker = Browser::new(&s);
    let mut limited = None;
    for i in 0..12 {
        let (status, body) = attacker.post(
            "/api/login",
            json!({"name": "Member", "password": format!("guess {i}")}),
        );
        if status == 429 {
            limited = Some(body);
            break;
        }
        assert_eq!(status, 401);
    }
    let body = limited.expect("the attempts were limited");
    assert_eq!(code(&body), "too_many_attempts");
    assert!(body["error"]["params"]["retry_after"].as_u64().unwrap() >= 1);
}

/// Two accounts on `s`, signed in.
fn two_players<'a>(s: &'a TestServer, a: &str, b: &str) -> (Browser<'a>, Browser<'a>) {
    let (mut x, mut y) = (Browser::new(s), Browser::new(s));
    x.sign_up(a);
    y.sign_up(b);
    (x, y)
}

#[test]
fn seeks_challenges_and_rated_games_rate_once_with_the_result() {
    let db = TempDb::new("lobby");
    let s = server(&db, AppOptions::default());
    let (mut red, mut black) = two_players(&s, "Alice", "Bảo");
    let mut guest = Browser::new(&s);
    // A rated seek needs a clock and an account.
    let (status, body) = red.post("/api/seeks", json!({"game": "xiangqi", "rated": true}));
    assert_eq!((status, code(&body)), (400, "bad_terms"), "{body}");
    let (status, body) = guest.post(
        "/api/seeks",
        json!({"game": "xiangqi", "rated": true, "clock": {"initial_s": 180, "increment_s": 2}}),
    );
    assert_eq!((status, code(&body)), (403, "guests_unrated"), "{body}");
    let (status, body) = red.post(
        "/api/seeks",
        json!({"game": "xiangqi", "rated": true, "color": "first", "clock": {"initial_s": 180, "increment_s": 2}}),
    );
    assert_eq!(status, 201, "{body}");
    let seek = body["seek"]["id"].as_str().unwrap().to_string();
    let (_, list) = guest.get("/api/seeks");
    let listed = &list["seeks"][0];
    assert_eq!(
        (
            listed["player"]["name"].clone(),
            listed["clock"]["control"].clone(),
            listed["rated"].clone()
        ),
        (json!("Alice"), json!("180+2"), json!(true))
    );
    assert_eq!(listed["perf"], "xiangqi:blitz");
    // A guest cannot take a rated seek; the seeker cannot take their own.
    let (status, body) = guest.call("POST", &format!("/api/seeks/{seek}/accept"), None, None);
    assert_eq!((status, code(&body)), (403, "guests_unrated"), "{body}");
    let (status, body) = red.call("POST", &format!("/api/seeks/{seek}/accept"), None, None);
    assert_eq!((status, code(&body)), (409, "own_seek"), "{body}");
    // Black accepts, with a key; the same request again gets the same game.
    let (status, accepted) = black.call(
        "POST",
        &format!("/api/seeks/{seek}/accept"),
        None,
        Some("k-1"),
    );
    assert_eq!(status, 201, "{accepted}");
    let id = accepted["game"]["id"].as_str().unwrap().to_string();
    let (status, again) = black.call(
        "POST",
        &format!("/api/seeks/{seek}/accept"),
        None,
        Some("k-1"),
    );
    assert_eq!(
        (status, again["game"]["id"].as_str()),
        (200, Some(id.as_str())),
        "{again}"
    );
    let (status, body) = guest.call(
        "POST",
        &format!("/api/seeks/{seek}/accept"),
        None,
        Some("k-2"),
    );
    assert_eq!((status, code(&body)), (409, "gone"), "{body}");
    assert_eq!(
        guest.get("/api/seeks").1["seeks"],
        json!([]),
        "the seek is gone"
    );
    let view = red.get(&format!("/api/games/{id}")).1;
    assert_eq!(
        (view["you"].clone(), view["rated"].clone()),
        (json!("first"), json!(true))
    );
    assert_eq!(
        view["players"][0],
        json!({"name": "Alice", "guest": false, "engine": null, "rating": 1500, "provisional": true, "diff": null})
    );
    assert_eq!(view["players"][1]["name"], "Bảo");
    assert_eq!(view["clock"]["control"], "180+2");
    // Both play; it is being played, with a spectator watching.
    assert_eq!(red.play(&id, "h3e3").0, 200);
    assert_eq!(black.play(&id, "h10g8").0, 200);
    let playing = guest.get("/api/playing").1;
    assert_eq!(playing["games"][0]["id"], id.as_str());
    // Black resigns: the ratings change once, in the game and in the players' ratings.
    let (status, over) = black.post(&format!("/api/games/{id}/resign"), json!({}));
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["result"]["text"], "Red wins by resignation");
    let (a, b) = rate(
        &PerfRating::default(),
        &PerfRating::default(),
        Score::FirstWins,
    );
    let diff = |r: &PerfRating| r.shown() - 1500;
    assert_eq!(over["players"][0]["diff"], diff(&a));
    assert_eq!(over["players"][1]["diff"], diff(&b));
    let profile = guest.get("/api/users/alice").1;
    let blitz = &profile["ratings"][0];
    assert_eq!(
        (
            blitz["perf"].clone(),
            blitz["rating"].clone(),
            blitz["games"].clone(),
            blitz["wins"].clone()
        ),
        (json!("xiangqi:blitz"), json!(a.shown()), json!(1), json!(1))
    );
    assert_eq!(
        profile["record"],
        json!({"games": 1, "wins": 1, "losses": 0, "draws": 0, "playing": 0})
    );
    let store = store::SqliteStore::open_shared(&db).unwrap();
    let log = store.rating_log().unwrap();
    assert_eq!(log.len(), 2, "two rating changes: {log:?}");
    assert!(log.iter().all(|c| c.game_id == id));
    // The leaderboard and the chart.
    let board = guest.get("/api/leaderboard?perf=xiangqi:blitz").1;
    let names: Vec<&str> = board["leaderboard"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Alice", "Bảo"]);
    let chart = ureq::get(&s.url("/api/users/Alice/rating.svg?perf=xiangqi:blitz"))
        .call()
        .unwrap();
    assert_eq!(chart.content_type(), "image/svg+xml");
    assert!(chart.into_string().unwrap().contains("<polyline"));
    // A rematch: offered by one, accepted by the other, colours swapped; rated again.
    let (status, body) = black.post(
        &format!("/api/games/{id}/rematch"),
        json!({"action": "accept"}),
    );
    assert_eq!((status, code(&body)), (409, "no_rematch_offer"));
    let (status, offered) = red.post(&format!("/api/games/{id}/rematch"), json!({}));
    assert_eq!(
        (status, offered["rematch"]["offer"].clone()),
        (200, json!("first")),
        "{offered}"
    );
    assert_eq!(
        black.get(&format!("/api/games/{id}")).1["can"]["answer_rematch"],
        true
    );
    let (status, accepted) = black.post(
        &format!("/api/games/{id}/rematch"),
        json!({"action": "accept"}),
    );
    assert_eq!(status, 200, "{accepted}");
    let rematch = accepted["rematch"]["game"].as_str().unwrap().to_string();
    let r = black.get(&format!("/api/games/{rematch}")).1;
    assert_eq!(
        (
            r["you"].clone(),
            r["rated"].clone(),
            r["players"][0]["name"].clone()
        ),
        (json!("first"), json!(true), json!("Bảo"))
    );
    assert_eq!(
        r["players"][1]["rating"],
        a.shown(),
        "ratings at the start of the rematch"
    );
    // An abort before both have moved: no rating change.
    let (status, body) = red.post(&format!("/api/games/{rematch}/abort"), json!({}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(store.rating_log().unwrap().len(), 2);

    // A challenge by name: declined, then another accepted.
    let (status, body) = red.post(
        "/api/challenges",
        json!({"to": "nobody", "game": "xiongqi"}),
    );
    assert_eq!((status, code(&body)), (404, "unknown_player"));
    let (status, body) = red.post("/api/challenges", json!({"to": "alice", "game": "xiongqi"}));
    assert_eq!((status, code(&body)), (400, "self_challenge"));
    let (status, body) = red.post(
        "/api/challenges",
        json!({"to": "bảo", "game": "xiongqi", "color": "second"}),
    );
    assert_eq!(status, 201, "{body}");
    let challenge = body["challenge"]["id"].as_str().unwrap().to_string();
    let mine = black.get("/api/challenges").1;
    assert_eq!(
        (
            mine["challenges"][0]["incoming"].clone(),
            mine["challenges"][0]["from"]["name"].clone()
        ),
        (json!(true), json!("Alice"))
    );
    let (status, body) = red.call(
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        None,
        None,
    );
    assert_eq!(
        (status, code(&body)),
        (403, "forbidden"),
        "only the challenged accepts"
    );
    let (status, _) = black.post(&format!("/api/challenges/{challenge}/decline"), json!({}));
    assert_eq!(status, 200);
    assert_eq!(red.get("/api/challenges").1["challenges"], json!([]));
    let (_, body) = red.post(
        "/api/challenges",
        json!({"to": "Bảo", "game": "xiongqi", "color": "second"}),
    );
    let challenge = body["challenge"]["id"].as_str().unwrap().to_string();
    let (status, started) = black.call(
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        None,
        Some("c-1"),
    );
    assert_eq!(status, 201, "{started}");
    assert_eq!(
        started["game"]["you"], "first",
        "the challenger asked for second"
    );
    assert_eq!(started["game"]["game"], "xiongqi");
}

#[test]
fn the_archive_filters_and_pages() {
    let db = TempDb::new("archive");
    let s = server(&db, AppOptions::default());
    let (mut a, mut b) = two_players(&s, "Hùng", "Mei");
    // Three games: an engine game of Hùng's, a casual game between them that Mei wins, an
    // imported record.
    let (_, engine) = a.post(
        "/api/games",
        json!({"game": "xiangqi", "level": 3, "clock": {"initial_s": 300, "increment_s": 3}}),
    );
    let engine = engine["game"]["id"].as_str().unwrap().to_string();
    let (_, friendly) = a.post(
        "/api/games",
        json!({"game": "xiongqi", "opponent": "friend"}),
    );
    let friendly_id = friendly["game"]["id"].as_str().unwrap().to_string();
    let code = friendly["game"]["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let (status, _) = b.post(
        &format!("/api/games/{friendly_id}/join"),
        json!({"invite": code}),
    );
    assert_eq!(status, 200);
    let (status, _) = a.post(&format!("/api/games/{friendly_id}/resign"), json!({}));
    assert_eq!(status, 200);
    let (status, imported) = a.post(
        "/api/import",
        json!({"record": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"}),
    );
    assert_eq!(
        (status, imported["format"].clone()),
        (201, json!("fen")),
        "{imported}"
    );
    assert_eq!(imported["game"]["opponent"], "record");
    let ids = |q: &str| -> Vec<String> {
        let (status, body) = Browser::new(&s).get(&format!("/api/games?{q}"));
        assert_eq!(status, 200, "{q}: {body}");
        body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("player=h%C3%B9ng").len(), 2);
    assert_eq!(ids("player=Hùng&result=loss"), vec![friendly_id.clone()]);
    assert_eq!(ids("player=Mei&result=win"), vec![friendly_id.clone()]);
    assert_eq!(ids("player=Hùng&vs=Mei"), vec![friendly_id.clone()]);
    assert_eq!(ids("opponent=engine"), vec![engine.clone()]);
    assert_eq!(ids("tc=300%2B3"), vec![engine.clone()]);
    assert_eq!(ids("game=xiongqi"), vec![friendly_id.clone()]);
    assert_eq!(ids("result=ongoing"), vec![engine.clone()]);
    assert_eq!(ids("rated=true"), Vec::<String>::new());
    assert_eq!(ids("player=nobody"), Vec::<String>::new());
    assert_eq!(ids("since=2000-01-01&until=2999-12-31").len(), 3);
    assert_eq!(ids("until=2000-01-01"), Vec::<String>::new());
    let (_, page) = Browser::new(&s).get("/api/games?limit=2&offset=2");
    assert_eq!(
        (
            page["total"].clone(),
            page["games"].as_array().unwrap().len()
        ),
        (json!(3), 1)
    );
    // Lines name the players and the engine's level.
    let (_, all) = Browser::new(&s).get("/api/games?player=Hùng&opponent=engine");
    let row = &all["games"][0];
    assert_eq!(
        (
            row["players"][0]["name"].clone(),
            row["engine"]["level"].clone(),
            row["clock"]["control"].clone()
        ),
        (json!("Hùng"), json!(3), json!("300+3"))
    );
    for (q, field) in [
        ("result=lost", "result"),
        ("since=yesterday", "since"),
        ("tc=5min", "tc"),
        ("result=win", "result"),
        ("vs=Mei", "vs"),
    ] {
        let (status, body) = Browser::new(&s).get(&format!("/api/games?{q}"));
        assert_eq!(
            (status, body["error"]["params"]["field"].as_str()),
            (400, Some(field)),
            "{q}: {body}"
        );
    }
    // The PGN of a game between people names them, with the date and the result.
    let pgn = ureq::get(&s.url(&format!("/api/games/{engine}/pgn")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(
        pgn.contains("[White \"Hùng\"]") && pgn.contains("[Black \"chuhe level 3\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[TimeControl \"300+3\"]") && !pgn.contains("????.??.??"),
        "{pgn}"
    );
    let pcn: Value = ureq::get(&s.url(&format!("/api/games/{friendly_id}/pcn")))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(pcn["sides"]["first"]["name"], "Hùng");
    assert_eq!(pcn["sides"]["second"]["name"], "Mei");
    assert!(pcn["meta"]["started_at"].as_str().unwrap().ends_with('Z'));
    // An imported record is a board to replay: nobody can act in it.
    let record = imported["game"]["id"].as_str().unwrap();
    let (status, body) = a.post(&format!("/api/games/{record}/resign"), json!({}));
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("forbidden")),
        "{body}"
    );
}

#[test]
fn a_game_is_created_once_per_idempotency_key() {
    let db = TempDb::new("idem");
    let s = server(&db, AppOptions::default());
    let mut a = Browser::new(&s);
    a.sign_up("Keeper");
    let body = json!({"game": "xiangqi", "level": 1});
    let (status, first) = a.call("POST", "/api/games", Some(body.clone()), Some("same-key"));
    assert_eq!(status, 201, "{first}");
    let (status, again) = a.call("POST", "/api/games", Some(body.clone()), Some("same-key"));
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["game"]["id"], first["game"]["id"]);
    assert_eq!(again["token"], first["token"]);
    let (_, other) = a.call("POST", "/api/games", Some(body), Some("other-key"));
    assert_ne!(other["game"]["id"], first["game"]["id"]);
    let (_, list) = a.get("/api/games");
    assert_eq!(list["total"], 2);
    // The same key on another route is refused.
    let (status, body) = a.call("POST", "/api/seeks/nope/accept", None, Some("same-key"));
    assert_eq!(
        (status, code(&body)),
        (422, "idempotency_key_reused"),
        "{body}"
    );
    let (status, body) = a.call(
        "POST",
        "/api/games",
        Some(json!({"game": "xiangqi"})),
        Some("bad key with spaces"),
    );
    assert_eq!((status, code(&body)), (400, "bad_request"), "{body}");
}

/// Opens `path`'s WebSocket on `s` as `browser` (its session cookie); the socket.
fn socket_as(
    s: &TestServer,
    browser: &Browser,
    path: &str,
) -> tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>> {
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}{path}", s.addr)
        .into_client_request()
        .unwrap();
    if let Some(session) = &browser.session {
        request.headers_mut().insert(
            "Cookie",
            format!("chuhe_session={session}").parse().unwrap(),
        );
    }
    let (ws, _) = tungstenite::connect(request).unwrap();
    ws
}

/// The next message of `kind` on a socket.
fn next_of(
    ws: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
    kind: &str,
) -> Value {
    loop {
        if let tungstenite::Message::Text(text) = ws.read().unwrap() {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

#[test]
fn a_seek_goes_with_its_page_and_the_games_being_played_count_their_spectators() {
    let db = TempDb::new("presence");
    let s = server(
        &db,
        AppOptions {
            presence_every: Duration::from_millis(200),
            cookie_secure: true,
            ..AppOptions::default()
        },
    );
    let (mut a, mut b) = two_players(&s, "Seeker", "Taker");
    // The session cookie is Secure with --cookie-secure.
    let response = ureq::post(&s.url("/api/login"))
        .send_json(json!({"name": "Seeker", "password": "correct horse"}))
        .unwrap();
    let cookie = response.header("set-cookie").unwrap().to_string();
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    // A's lobby page names its socket; the seek made with it lives while the page does.
    let mut lobby = socket_as(&s, &a, "/api/lobby/ws");
    let socket = next_of(&mut lobby, "hello")["socket"]
        .as_str()
        .unwrap()
        .to_string();
    next_of(&mut lobby, "seeks");
    let (status, body) = a.post("/api/seeks", json!({"game": "xiangqi", "socket": socket}));
    assert_eq!(status, 201, "{body}");
    let pushed = next_of(&mut lobby, "seeks");
    assert_eq!(pushed["seeks"][0]["player"]["name"], "Seeker", "{pushed}");
    let (status, body) = a.post(
        "/api/seeks",
        json!({"game": "xiangqi", "socket": "not-open-here"}),
    );
    assert_eq!((status, code(&body)), (400, "bad_terms"), "{body}");
    lobby.close(None).unwrap();
    let _ = lobby.flush();
    let start = std::time::Instant::now();
    while !b.get("/api/seeks").1["seeks"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the seek outlived its page"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A game between them, watched by two spectators: the games being played say so.
    let (_, seek) = a.post("/api/seeks", json!({"game": "xiangqi"}));
    let seek = seek["seek"]["id"].as_str().unwrap().to_string();
    let (status, game) = b.call("POST", &format!("/api/seeks/{seek}/accept"), None, None);
    assert_eq!(status, 201, "{game}");
    let id = game["game"]["id"].as_str().unwrap().to_string();
    let mut watchers: Vec<_> = (0..2)
        .map(|_| socket_as(&s, &Browser::new(&s), &format!("/api/games/{id}/ws")))
        .collect();
    for w in &mut watchers {
        next_of(w, "state");
    }
    let start = std::time::Instant::now();
    loop {
        let playing = b.get("/api/playing").1;
        if playing["games"][0]["spectators"] == 2 {
            assert_eq!(playing["games"][0]["id"], id.as_str());
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{playing}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A challenge to a game from rule files, made on a server started with its rules, reaches
/// the challenged player on a server of the same database without them: listed there as not
/// served, and its acceptance refused (503 `game_not_served`), the challenge left open for
/// the server that plays it.
#[test]
fn a_challenge_for_a_rules_game_is_answered_where_its_rules_are() {
    let db = TempDb::new("site-rules-challenge");
    let lantern = chuhe::rules::load_dir(format!(
        "{}/../../examples/rules/lantern",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let kinds = chuhe_server::kinds::Kinds::new([lantern]).unwrap();
    let with = server(
        &db,
        AppOptions {
            kinds,
            ..AppOptions::default()
        },
    );
    let without = server(&db, AppOptions::default());
    let mut alice = Browser::new(&with);
    alice.sign_up("Alice");
    let mut bao = Browser::new(&without);
    bao.sign_up("Bảo");
    let (status, body) = alice.post("/api/challenges", json!({"to": "bảo", "game": "lantern"}));
    assert_eq!(status, 201, "{body}");
    let id = body["challenge"]["id"].as_str().unwrap().to_string();
    let mine = bao.get("/api/challenges").1;
    assert_eq!(mine["challenges"][0]["served"], false, "{mine}");
    let accept = format!("/api/challenges/{id}/accept");
    let (status, body) = bao.post(&accept, json!({}));
    assert_eq!((status, code(&body)), (503, "game_not_served"), "{body}");
    // Bảo's session is the database's: on Alice's server the challenge is served and taken.
    let mut bao_there = Browser::new(&with);
    bao_there.session = bao.session.clone();
    assert_eq!(
        bao_there.get("/api/challenges").1["challenges"][0]["served"],
        true
    );
    let (status, body) = bao_there.post(&accept, json!({}));
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["game"]["game"], "lantern", "{body}");
}
