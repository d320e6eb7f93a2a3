//! The HTTP and WebSocket API over a real socket: games against the engine and between
//! friends, every rejection (each a 4xx JSON error that changes nothing), a restart in the
//! middle of a game, clocks, records.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe_server::{http, store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

/// A server on a loopback port, in its own runtime; dropping it stops it abruptly.
type Server = common::TestServer;
use common::TempDb;

impl common::TestServer {
    /// A server on the SQLite file `db`, opened without its one-process lock: a test may
    /// start the next server before the last one's threads have all ended.
    fn start(db: &str) -> Server {
        Server::with_store(Arc::new(store::SqliteStore::open_shared(db).unwrap()))
    }

    fn with_store(store: Arc<dyn store::Store>) -> Server {
        Server::with_options(
            store,
            AppOptions {
                engine_movetime: Duration::from_millis(30),
                ..AppOptions::default()
            },
        )
    }
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .redirects(0)
        .build()
}

/// A request: the status and the JSON body (`Value::Null` when the body is not JSON).
fn call(method: &str, url: &str, token: Option<&str>, body: Option<&str>) -> (u16, Value) {
    let mut request = agent().request(method, url);
    if let Some(t) = token {
        request = request.set("Authorization", &format!("Bearer {t}"));
    }
    let response = match body {
        Some(b) => request
            .set("Content-Type", "application/json")
            .send_string(b),
        None => request.call(),
    };
    let response = match response {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = response.status();
    let text = response.into_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    call("POST", url, token, Some(&body.to_string()))
}

fn get(url: &str, token: Option<&str>) -> (u16, Value) {
    call("GET", url, token, None)
}

/// Creates a game; its state and the creator's token.
fn create(server: &Server, body: Value) -> (Value, String) {
    let (status, created) = post(&server.url("/api/games"), None, body);
    assert_eq!(status, 201, "{created}");
    let token = created["token"].as_str().unwrap().to_string();
    (created["game"].clone(), token)
}

fn state(server: &Server, id: &str, token: Option<&str>) -> Value {
    let (status, s) = get(&server.url(&format!("/api/games/{id}")), token);
    assert_eq!(status, 200, "{s}");
    s
}

fn play(server: &Server, id: &str, token: &str, mv: &str) -> (u16, Value) {
    post(
        &server.url(&format!("/api/games/{id}/move")),
        Some(token),
        json!({"move": mv}),
    )
}

/// Waits until `done` holds for the game's state.
fn wait_for(
    server: &Server,
    id: &str,
    token: Option<&str>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let s = state(server, id, token);
        if done(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "gave up waiting: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn error_code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("(no error code)")
}

#[test]
fn a_game_against_the_engine() {
    let db = TempDb::new("engine");
    let server = Server::start(&db);
    let (game, token) = create(&server, json!({"game": "xiangqi", "level": 3}));
    assert_eq!(game["you"], "first");
    assert_eq!(game["engine"], json!({"level": 3, "side": "second"}));
    assert_eq!(game["legal"].as_array().unwrap().len(), 44);
    assert!(game["invite"].is_null());
    let id = game["id"].as_str().unwrap().to_string();
    let (status, after) = play(&server, &id, &token, "C2=5");
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"][0]["text"]["uci"], "h3e3");
    assert_eq!(after["moves"][0]["text"]["pmn"], "h3-e3");
    assert_eq!(after["moves"][0]["text"]["chinese"], "炮二平五");
    let s = wait_for(&server, &id, Some(&token), |s| s["ply"] == 2);
    assert_eq!(s["turn"], "first");
    assert_eq!(s["thinking"], false);
    // The engine's move is a legal reply and is in the record.
    let (status, record) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    assert_eq!(status, 200);
    assert_eq!(record["moves"].as_array().unwrap().len(), 2);
    let replayed = chuhe::record::read(&record.to_string()).unwrap();
    assert_eq!(replayed.plies(), 2);
}

#[test]
fn the_engine_moves_first_when_it_plays_first() {
    let db = TempDb::new("engine-first");
    let server = Server::start(&db);
    let (game, token) = create(
        &server,
        json!({"game": "xiongqi", "side": "second", "level": 0}),
    );
    assert_eq!(game["you"], "second");
    let id = game["id"].as_str().unwrap();
    let s = wait_for(&server, id, Some(&token), |s| s["ply"] == 1);
    assert_eq!(s["turn"], "second");
}

#[test]
fn every_bad_request_is_a_json_error_that_changes_nothing() {
    let db = TempDb::new("bad");
    let server = Server::start(&db);
    let (game, token) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    let move_url = server.url(&format!("/api/games/{id}/move"));
    let (status, _) = play(&server, &id, &token, "h3e3");
    assert_eq!(status, 200);
    let before = state(&server, &id, Some(&token));

    let cases: Vec<(&str, (u16, Value), u16, &str)> = vec![
        (
            "malformed JSON",
            call("POST", &move_url, Some(&token), Some("{\"move\": ")),
            400,
            "bad_json",
        ),
        (
            "not an object",
            call("POST", &move_url, Some(&token), Some("[1,2]")),
            422,
            "bad_json",
        ),
        (
            "an unknown field",
            post(&move_url, Some(&token), json!({"move": "h10g8", "x": 1})),
            422,
            "bad_json",
        ),
        (
            "no token",
            post(&move_url, None, json!({"move": "h10g8"})),
            403,
            "forbidden",
        ),
        (
            "a wrong token",
            post(
                &move_url,
                Some("0123456789abcdef0123456789abcdef"),
                json!({"move": "h10g8"}),
            ),
            403,
            "forbidden",
        ),
        (
            "the other player's turn",
            play(&server, &id, &token, "h1g3"),
            409,
            "not_your_turn",
        ),
        (
            "an unknown game",
            post(
                &server.url("/api/games/NoSuchGame/move"),
                Some(&token),
                json!({"move": "a1a2"}),
            ),
            404,
            "not_found",
        ),
        (
            "a malformed id",
            get(&server.url("/api/games/..%2F..%2Fetc"), None),
            404,
            "not_found",
        ),
        (
            "an unknown route",
            get(&server.url("/api/nothing"), None),
            404,
            "not_found",
        ),
        (
            "a wrong method",
            call(
                "DELETE",
                &server.url(&format!("/api/games/{id}")),
                None,
                None,
            ),
            405,
            "method_not_allowed",
        ),
        (
            "an unknown game kind",
            post(&server.url("/api/games"), None, json!({"game": "chess"})),
            400,
            "unknown_game",
        ),
        (
            "a bad level",
            post(
                &server.url("/api/games"),
                None,
                json!({"game": "xiangqi", "level": 99}),
            ),
            400,
            "bad_request",
        ),
        (
            "a bad side",
            post(
                &server.url("/api/games"),
                None,
                json!({"game": "xiangqi", "side": "red"}),
            ),
            400,
            "bad_request",
        ),
        (
            "a bad position",
            post(
                &server.url("/api/games"),
                None,
                json!({"game": "xiangqi", "position": "rnbakabnr/9 w"}),
            ),
            400,
            "bad_position",
        ),
        (
            "a bad clock",
            post(
                &server.url("/api/games"),
                None,
                json!({"game": "xiangqi", "clock": {"initial_s": -5}}),
            ),
            400,
            "bad_request",
        ),
        (
            "a bad import",
            post(
                &server.url("/api/import"),
                None,
                json!({"pcn": "{\"setup\": 5}"}),
            ),
            400,
            "bad_record",
        ),
        (
            "a bad page query",
            get(&server.url("/api/games?limit=lots"), None),
            400,
            "bad_request",
        ),
        (
            "a board past the end",
            get(
                &server.url(&format!("/api/games/{id}/board.svg?ply=9")),
                None,
            ),
            400,
            "bad_request",
        ),
        (
            "bad glyphs",
            get(
                &server.url(&format!("/api/games/{id}/board.svg?glyphs=emoji")),
                None,
            ),
            400,
            "bad_request",
        ),
    ];
    for (what, (status, body), want_status, want_code) in cases {
        assert_eq!(status, want_status, "{what}: {body}");
        assert_eq!(error_code(&body), want_code, "{what}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.len() > 10, "{what}: the message says why: {body}");
    }
    // Black to move now: the black player's token is needed; join through the invite.
    let second = invited(&server, &before);
    let before = state(&server, &id, Some(&token));
    let (status, body) = play(&server, &id, &second, "h10h3");
    assert_eq!((status, error_code(&body)), (422, "illegal_move"), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("h10h3"));
    let (status, body) = play(&server, &id, &second, "zz99");
    assert_eq!((status, error_code(&body)), (400, "bad_move"), "{body}");
    // A move from an empty square says so (not what another notation made of it).
    let (status, body) = play(&server, &id, &second, "h3h10");
    assert_eq!((status, error_code(&body)), (422, "illegal_move"), "{body}");
    assert_eq!(body["error"]["params"]["reason"], "no_piece", "{body}");
    assert_eq!(body["error"]["params"]["square"], "h3", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no piece on h3"),
        "{body}"
    );
    let (status, body) = post(&move_url, Some(&second), json!({"move": "h10g8", "ply": 0}));
    assert_eq!((status, error_code(&body)), (409, "stale"), "{body}");
    let (status, body) = post(
        &move_url,
        Some(&second),
        json!({"move": "h10g8", "notation": "fancy"}),
    );
    assert_eq!((status, error_code(&body)), (400, "bad_move"), "{body}");
    let big = format!(
        "{{\"move\": \"{}\"}}",
        "x".repeat(http::MAX_BODY_BYTES + 10)
    );
    let (status, body) = call("POST", &move_url, Some(&second), Some(&big));
    assert_eq!((status, error_code(&body)), (413, "too_large"), "{body}");

    let after = state(&server, &id, Some(&token));
    assert_eq!(after["feen"], before["feen"]);
    assert_eq!(after["ply"], 1);
    assert_eq!(after["version"], before["version"]);
}

#[test]
fn friends_play_through_the_invite_link_and_spectators_only_watch() {
    let db = TempDb::new("friends");
    let server = Server::start(&db);
    let (game, red) = create(&server, json!({"game": "xiongqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    let invite = game["invite"].as_str().unwrap().to_string();
    assert!(invite.starts_with(&format!("/g/{id}?invite=")), "{invite}");
    assert_eq!(game["watch"], format!("/g/{id}"));
    // The invite link opens the page, which joins by itself.
    let page = agent().get(&server.url(&invite)).call().unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.header("set-cookie").is_none());
    // A wrong code takes no seat.
    let join = server.url(&format!("/api/games/{id}/join"));
    let (status, body) = post(&join, None, json!({"invite": "nope"}));
    assert_eq!((status, error_code(&body)), (403, "bad_invite"), "{body}");
    // The creator opening their own invite link keeps their seat.
    let (status, body) = post(&join, Some(&red), json!({"invite": invite_code(&game)}));
    assert_eq!(
        (status, &body["game"]["you"]),
        (200, &json!("first")),
        "{body}"
    );
    // The first other browser takes the open seat, with a cookie of its own session.
    let response = agent()
        .post(&join)
        .send_json(json!({"invite": invite_code(&game)}))
        .unwrap();
    let cookie = response.header("set-cookie").unwrap().to_string();
    assert!(
        cookie.starts_with("chuhe_session=") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap().to_string();
    let joined: Value = response.into_json().unwrap();
    assert_eq!(joined["game"]["you"], "second");
    let black = joined["token"].as_str().unwrap().to_string();
    // That browser is Black by its session, on every request.
    let seen = agent()
        .get(&server.url(&format!("/api/games/{id}")))
        .set("Cookie", &format!("other=1; {session}"))
        .call()
        .unwrap()
        .into_json::<Value>()
        .unwrap();
    assert_eq!(seen["you"], "second");
    assert!(seen["invite"].is_null(), "only the creator sees the invite");
    assert!(seen["players"][1]["name"]
        .as_str()
        .unwrap()
        .starts_with("Guest-"));
    // A third browser with the same link watches: the seat is taken.
    let (status, body) = post(&join, None, json!({"invite": invite_code(&game)}));
    assert_eq!((status, error_code(&body)), (409, "seat_taken"), "{body}");
    assert!(
        state(&server, &id, Some(&red))["invite"].is_null(),
        "the seat is filled"
    );
    // An older game's link (a seat's token) still sets that game's cookie.
    let legacy = agent()
        .get(&server.url(&format!("/g/{id}?token={black}")))
        .call()
        .unwrap();
    assert_eq!(legacy.status(), 303);
    assert!(legacy
        .header("set-cookie")
        .unwrap()
        .starts_with(&format!("chuhe_{id}=")));
    // ... but not in a browser that holds a seat of the game already.
    let kept = agent()
        .get(&server.url(&format!("/g/{id}?token={black}")))
        .set("Authorization", &format!("Bearer {red}"))
        .call()
        .unwrap();
    assert!(kept.header("set-cookie").is_none());
    let bad = agent()
        .get(&server.url(&format!("/g/{id}?token=nope")))
        .call()
        .unwrap();
    assert!(bad.header("set-cookie").is_none());
    let watcher = state(&server, &id, None);
    assert!(watcher["you"].is_null() && watcher["invite"].is_null());
    assert_eq!(watcher["can"]["move"], false);

    // Before both sides have moved the game can be aborted, not resigned (in the page).
    let mine = state(&server, &id, Some(&red));
    assert_eq!(
        (mine["can"]["abort"].clone(), mine["can"]["resign"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(play(&server, &id, &red, "e3e4").0, 200);
    assert_eq!(play(&server, &id, &black, "e6e5").0, 200);
    let (status, body) = post(
        &server.url(&format!("/api/games/{id}/abort")),
        Some(&red),
        json!({}),
    );
    assert_eq!((status, error_code(&body)), (409, "cannot_abort"), "{body}");
    // Draws are offered at any moment, and answered by the other side.
    let draw = server.url(&format!("/api/games/{id}/draw"));
    let (status, body) = post(&draw, Some(&red), json!({"action": "accept"}));
    assert_eq!((status, error_code(&body)), (409, "no_draw_offer"));
    let (status, s) = post(&draw, Some(&black), json!({"action": "offer"}));
    assert_eq!((status, &s["draw_offer"]), (200, &json!("second")), "{s}");
    let (status, body) = post(&draw, Some(&black), json!({"action": "offer"}));
    assert_eq!((status, error_code(&body)), (409, "draw_offered"));
    let (status, s) = post(&draw, Some(&red), json!({"action": "decline"}));
    assert_eq!(status, 200);
    assert!(s["draw_offer"].is_null());
    assert_eq!(
        s["notice"],
        json!({"code": "draw_declined", "side": "first", "text": "South declined the draw"})
    );
    // The notice goes with the next move.
    assert_eq!(play(&server, &id, &red, "d3d4").0, 200);
    assert!(state(&server, &id, None)["notice"].is_null());
    post(&draw, Some(&red), json!({"action": "offer"}));
    let (status, s) = post(&draw, Some(&black), json!({"action": "accept"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["result"]["status"], "agreement");
    assert_eq!(s["result"]["winner"], "none");
    assert_eq!(s["result"]["text"], "Draw by agreement");
    // The result is final: no move, draw, resignation, abort or take-back is taken.
    let (status, body) = play(&server, &id, &black, "d6d5");
    assert_eq!((status, error_code(&body)), (409, "game_over"));
    assert_eq!(body["error"]["params"]["status"], "agreement", "{body}");
    for (action, body) in [
        ("resign", json!({})),
        ("draw", json!({"action": "offer"})),
        ("abort", json!({})),
        ("takeback", json!({})),
    ] {
        let (status, body) = post(
            &server.url(&format!("/api/games/{id}/{action}")),
            Some(&red),
            body,
        );
        assert_eq!(
            (status, error_code(&body)),
            (409, "game_over"),
            "{action}: {body}"
        );
    }
    // The archive lists it with its result and players.
    let (_, list) = get(&server.url("/api/games"), None);
    let row = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(row["plies"], 3);
    assert_eq!(row["result"]["status"], "agreement");
    assert_eq!(row["opponent"], "friend");
    assert!(row["players"][0]["name"]
        .as_str()
        .unwrap()
        .starts_with("Guest-"));
}

#[test]
fn a_result_is_final_and_a_take_back_needs_a_move_to_take_back() {
    let db = TempDb::new("resign");
    let server = Server::start(&db);
    // The engine plays first: at move 1 the player has nothing to take back.
    let (game, token) = create(
        &server,
        json!({"game": "xiangqi", "level": 0, "side": "second"}),
    );
    let id = game["id"].as_str().unwrap().to_string();
    let s = wait_for(&server, &id, Some(&token), |s| s["ply"] == 1);
    assert_eq!(s["can"]["take_back"], false, "{s}");
    let takeback = server.url(&format!("/api/games/{id}/takeback"));
    let (status, body) = post(&takeback, Some(&token), json!({}));
    assert_eq!((status, error_code(&body)), (409, "no_takeback"), "{body}");
    assert_eq!(body["error"]["params"]["reason"], "nothing");
    let reply = s["legal"][0]["uci"].as_str().unwrap().to_string();
    assert_eq!(play(&server, &id, &token, &reply).0, 200);
    let s = wait_for(&server, &id, Some(&token), |s| s["ply"] == 3);
    assert_eq!(s["can"]["take_back"], true, "{s}");
    let (status, s) = post(&takeback, Some(&token), json!({}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        s["ply"], 1,
        "the engine's reply and the player's move are taken back"
    );
    // Resigning ends the game for good: the take-back is refused and not offered.
    let (status, s) = post(
        &server.url(&format!("/api/games/{id}/resign")),
        Some(&token),
        json!({}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["result"]["status"], "resignation");
    assert_eq!(s["result"]["winner"], "first");
    assert_eq!(s["result"]["text"], "Red wins by resignation");
    assert_eq!(s["can"]["take_back"], false);
    let (status, body) = post(&takeback, Some(&token), json!({}));
    assert_eq!((status, error_code(&body)), (409, "game_over"), "{body}");
    let s = state(&server, &id, Some(&token));
    assert_eq!(
        (s["ply"].clone(), s["result"]["status"].clone()),
        (json!(1), json!("resignation"))
    );
    // So does a server started afresh.
    drop(server);
    let server = Server::start(&db);
    let (status, body) = post(
        &server.url(&format!("/api/games/{id}/takeback")),
        Some(&token),
        json!({}),
    );
    assert_eq!((status, error_code(&body)), (409, "game_over"), "{body}");
    // Against the engine a rematch starts at once, colours swapped.
    let (status, s) = post(
        &server.url(&format!("/api/games/{id}/rematch")),
        Some(&token),
        json!({}),
    );
    assert_eq!(status, 200, "{s}");
    let rematch = s["rematch"]["game"].as_str().unwrap().to_string();
    let r = state(&server, &rematch, s["rematch"]["token"].as_str());
    assert_eq!(
        (r["you"].clone(), r["engine"]["side"].clone()),
        (json!("first"), json!("second")),
        "{r}"
    );
    let (status, body) = post(
        &server.url(&format!("/api/games/{id}/rematch")),
        Some(&token),
        json!({}),
    );
    assert_eq!((status, error_code(&body)), (409, "rematch_made"), "{body}");
    assert_eq!(body["error"]["params"]["game"], rematch.as_str());
    // Resigning at once, before any move of one's own, is taken too.
    let (game, token) = create(&server, json!({"game": "xiangqi", "level": 0}));
    let id = game["id"].as_str().unwrap();
    let (status, s) = post(
        &server.url(&format!("/api/games/{id}/resign")),
        Some(&token),
        json!({}),
    );
    assert_eq!(
        (status, s["result"]["winner"].clone()),
        (200, json!("second")),
        "{s}"
    );
}

#[test]
fn a_restart_in_the_middle_of_a_game_loses_nothing() {
    let db = TempDb::new("restart");
    let server = Server::start(&db);
    let (game, red) = create(
        &server,
        json!({"game": "xiangqi", "opponent": "friend", "clock": {"initial_s": 600, "increment_s": 2}}),
    );
    let id = game["id"].as_str().unwrap().to_string();
    let black = invited(&server, &game);
    for (token, mv) in [(&red, "h3e3"), (&black, "h10g8"), (&red, "h1g3")] {
        assert_eq!(play(&server, &id, token, mv).0, 200);
    }
    let before = state(&server, &id, Some(&red));
    drop(server);
    let server = Server::start(&db);
    let after = state(&server, &id, Some(&red));
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["feen"], before["feen"]);
    assert_eq!(after["turn"], "second");
    let clock = &after["clock"];
    assert_eq!(clock["initial_ms"], 600_000);
    let red_left = clock["remaining_ms"][0].as_i64().unwrap();
    assert!((600_000..=604_000).contains(&red_left), "{clock}");
    // The same tokens still play.
    assert_eq!(play(&server, &id, &black, "b8e8").0, 200);
    assert_eq!(play(&server, &id, &red, "b1c3").0, 200);
    assert_eq!(state(&server, &id, None)["ply"], 5);
}

/// The code of a game's invite link (`/g/ID?invite=CODE`).
fn invite_code(game: &Value) -> String {
    let invite = game["invite"]
        .as_str()
        .expect("the creator sees the invite link");
    invite.split("invite=").nth(1).unwrap().to_string()
}

/// A friend joins through the invite link of a game (as a new guest); their seat's token.
fn invited(server: &Server, game: &Value) -> String {
    let id = game["id"].as_str().unwrap();
    let (status, joined) = post(
        &server.url(&format!("/api/games/{id}/join")),
        None,
        json!({"invite": invite_code(game)}),
    );
    assert_eq!(status, 200, "{joined}");
    joined["token"].as_str().unwrap().to_string()
}

/// A server on `db` whose games abort when a first move is not made within `abort_after`.
fn server_aborting_after(db: &str, abort_after: Duration) -> Server {
    Server::with_options(
        Arc::new(store::SqliteStore::open_shared(db).unwrap()),
        AppOptions {
            engine_movetime: Duration::from_millis(30),
            abort_after,
            ..AppOptions::default()
        },
    )
}

#[test]
fn a_clock_that_runs_out_ends_the_game() {
    let db = TempDb::new("clock");
    let server = Server::start(&db);
    let (game, red) = create(
        &server,
        json!({"game": "xiongqi", "opponent": "friend", "clock": {"initial_s": 1, "increment_s": 0}}),
    );
    let id = game["id"].as_str().unwrap().to_string();
    let black = invited(&server, &game);
    // No clock runs before each side's first move.
    assert_eq!(game["clock"]["running"], Value::Null);
    assert_eq!(play(&server, &id, &red, "e3e4").0, 200);
    assert_eq!(play(&server, &id, &black, "e6e5").0, 200);
    let s = state(&server, &id, None);
    assert_eq!(s["clock"]["running"], "first");
    assert_eq!(s["clock"]["remaining_ms"][1], 1000, "{}", s["clock"]);
    let s = wait_for(&server, &id, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "timelimit");
    assert_eq!(s["result"]["winner"], "second");
    assert_eq!(s["result"]["text"], "North wins on time");
    // The loser's clock stops at zero, not where the turn began.
    assert_eq!(s["clock"]["remaining_ms"][0], 0, "{}", s["clock"]);
    assert_eq!(s["clock"]["running"], Value::Null);
    let (status, body) = play(&server, &id, &red, "d3d4");
    assert_eq!((status, error_code(&body)), (409, "game_over"));
}

#[test]
fn a_sides_clock_starts_with_its_first_move() {
    // A 1 s game whose creator plays second: the friend joins late, and neither clock has
    // run meanwhile (it used to be lost on time at ply 0).
    let db = TempDb::new("first-move");
    let server = server_aborting_after(&db, Duration::from_secs(10));
    let (game, black) = create(
        &server,
        json!({"game": "xiongqi", "opponent": "friend", "side": "second",
               "clock": {"initial_s": 1, "increment_s": 0}}),
    );
    let id = game["id"].as_str().unwrap().to_string();
    let red = invited(&server, &game);
    std::thread::sleep(Duration::from_millis(1500));
    let s = state(&server, &id, None);
    assert!(s["result"].is_null(), "{s}");
    assert_eq!(s["clock"]["running"], Value::Null);
    assert_eq!(s["clock"]["remaining_ms"], json!([1000, 1000]));
    let first_move_ms = s["clock"]["first_move_ms"].as_i64().unwrap();
    assert!((7_000..=8_600).contains(&first_move_ms), "{s}");
    assert_eq!(play(&server, &id, &red, "e3e4").0, 200);
    std::thread::sleep(Duration::from_millis(1500));
    let (status, s) = play(&server, &id, &black, "e6e5");
    assert_eq!(status, 200, "{s}");
    // Both first moves were off the clocks, and their times are still in the record.
    assert_eq!(s["clock"]["remaining_ms"][1], 1000, "{}", s["clock"]);
    assert!(s["moves"][1]["time_ms"].as_u64().unwrap() >= 1400, "{s}");
    assert_eq!(s["clock"]["running"], "first");
    assert_eq!(s["clock"]["first_move_ms"], Value::Null);
    // From the third move on the clocks run: Red, to move, loses on time.
    let s = wait_for(&server, &id, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "timelimit");
    assert_eq!(s["result"]["winner"], "second");
}

#[test]
fn a_game_whose_side_never_makes_its_first_move_is_aborted() {
    let db = TempDb::new("abort");
    let server = server_aborting_after(&db, Duration::from_millis(800));
    let clock = json!({"initial_s": 60, "increment_s": 0});
    // Nobody moves: aborted, nobody wins.
    let (game, red) = create(
        &server,
        json!({"game": "xiangqi", "opponent": "friend", "clock": clock}),
    );
    let silent = game["id"].as_str().unwrap().to_string();
    let first_move_ms = game["clock"]["first_move_ms"].as_i64().unwrap();
    assert!((500..=800).contains(&first_move_ms), "{game}");
    // Red moves, the friend never answers: aborted too, counted from Red's move.
    let (game, red2) = create(
        &server,
        json!({"game": "xiangqi", "opponent": "friend", "clock": clock}),
    );
    let unanswered = game["id"].as_str().unwrap().to_string();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(play(&server, &unanswered, &red2, "h3e3").0, 200);
    // A game between friends without clocks is aborted too when nobody comes; against the
    // engine it waits.
    let (game, _) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let untimed = game["id"].as_str().unwrap().to_string();
    let (game, _) = create(&server, json!({"game": "xiangqi", "level": 0}));
    let engine_game = game["id"].as_str().unwrap().to_string();

    let s = wait_for(&server, &silent, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "aborted", "{s}");
    assert_eq!(s["result"]["winner"], "none");
    assert_eq!(
        s["result"]["text"],
        "Game aborted: Red did not make a first move in time"
    );
    assert_eq!(s["result"]["reason"], "no_first_move");
    assert_eq!(s["legal"], json!([]));
    assert_eq!(s["clock"]["remaining_ms"], json!([60_000, 60_000]));
    let (status, body) = play(&server, &silent, &red, "h3e3");
    assert_eq!((status, error_code(&body)), (409, "game_over"), "{body}");

    let s = wait_for(&server, &unanswered, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "aborted", "{s}");
    assert_eq!(s["ply"], 1);
    assert_eq!(
        s["result"]["text"],
        "Game aborted: Black did not make a first move in time"
    );
    let s = wait_for(&server, &untimed, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "aborted", "{s}");
    assert!(state(&server, &engine_game, None)["result"].is_null());

    // The archive shows both as aborted, and so does a server started afresh.
    let (_, archive) = get(&server.url("/api/games"), None);
    let status_of = |archive: &Value, id: &str| {
        archive["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["result"]["status"].clone())
            .unwrap()
    };
    assert_eq!(status_of(&archive, &silent), "aborted");
    assert_eq!(status_of(&archive, &unanswered), "aborted");
    assert_eq!(status_of(&archive, &untimed), "aborted");
    assert_eq!(status_of(&archive, &engine_game), Value::Null);
    drop(server);
    let server = Server::start(&db);
    let s = state(&server, &unanswered, None);
    assert_eq!(s["result"]["status"], "aborted", "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    // An aborted game's record carries no result (CGSN has no word for it).
    let (status, pcn) = get(&server.url(&format!("/api/games/{unanswered}/pcn")), None);
    assert_eq!(status, 200);
    assert!(pcn.get("status").is_none(), "{pcn}");
}

#[test]
fn records_go_out_and_come_back() {
    let db = TempDb::new("records");
    let server = Server::start(&db);
    let (game, red) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    let black = invited(&server, &game);
    for (token, mv) in [(&red, "h3e3"), (&black, "h10g8")] {
        assert_eq!(play(&server, &id, token, mv).0, 200);
    }
    let (_, record) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    let (status, imported) = post(
        &server.url("/api/import"),
        None,
        json!({"pcn": record.to_string()}),
    );
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["feen"], state(&server, &id, None)["feen"]);
    assert_eq!(imported["game"]["ply"], 2);
    // PGN out and in (Xiangqi only).
    let pgn = agent()
        .get(&server.url(&format!("/api/games/{id}/pgn")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(
        pgn.contains("[Variant \"Xiangqi\"]") && pgn.contains("1. Che3 Hg8 *"),
        "{pgn}"
    );
    let (status, imported) = post(&server.url("/api/import"), None, json!({"pgn": pgn}));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["ply"], 2);
    let (status, body) = post(&server.url("/api/import"), None, json!({"pgn": "1. Rz9 *"}));
    assert_eq!((status, error_code(&body)), (400, "bad_record"), "{body}");
    let (xq, _) = create(&server, json!({"game": "xiongqi", "opponent": "friend"}));
    let (status, body) = get(
        &server.url(&format!("/api/games/{}/pgn", xq["id"].as_str().unwrap())),
        None,
    );
    assert_eq!((status, error_code(&body)), (409, "no_pgn"), "{body}");
    // An earlier position of the game, drawn with its squares as click targets (v=, the
    // game's version that the page adds, is taken and ignored).
    let svg = agent()
        .get(&server.url(&format!(
            "/api/games/{id}/board.svg?ply=1&targets=true&flip=true&glyphs=latin&v=7"
        )))
        .call()
        .unwrap();
    assert_eq!(svg.content_type(), "image/svg+xml");
    let svg = svg.into_string().unwrap();
    assert_eq!(svg.matches(r#"class="square" data-square="#).count(), 90);
    // Each of the 32 pieces names its square and side, for the page that drags it.
    assert_eq!(svg.matches(r#"<g class="piece" data-square="#).count(), 32);
    assert!(svg.contains("last-move"));
    // A game from a FEN.
    let (status, body) = post(
        &server.url("/api/games"),
        None,
        json!({"game": "xiangqi", "opponent": "friend", "position": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"}),
    );
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["game"]["fen"], "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
}

// ---------------------------------------------------------------- WebSocket

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn socket(server: &Server, id: &str, token: Option<&str>) -> Socket {
    let mut url = format!("ws://{}/api/games/{id}/ws", server.addr);
    if let Some(t) = token {
        url.push_str(&format!("?token={t}"));
    }
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    ws
}

/// The next message of `kind` (`state`, `ack`, `error`, `pong`), skipping others.
fn next(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let message = ws.read().unwrap();
        if let tungstenite::Message::Text(text) = message {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

/// The first state with `ply` moves.
fn state_at(ws: &mut Socket, ply: u64) -> Value {
    loop {
        let s = next(ws, "state");
        if s["state"]["ply"] == ply {
            return s["state"].clone();
        }
    }
}

fn send(ws: &mut Socket, v: Value) {
    ws.send(tungstenite::Message::Text(v.to_string().into()))
        .unwrap();
}

#[test]
fn websockets_carry_moves_live_to_both_players_and_spectators() {
    let db = TempDb::new("ws");
    let server = Server::start(&db);
    let (game, red) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    let black = invited(&server, &game);
    let mut a = socket(&server, &id, Some(&red));
    let mut b = socket(&server, &id, Some(&black));
    let mut watcher = socket(&server, &id, None);
    assert_eq!(next(&mut a, "state")["state"]["you"], "first");
    assert_eq!(next(&mut b, "state")["state"]["you"], "second");
    assert!(next(&mut watcher, "state")["state"]["you"].is_null());

    send(&mut a, json!({"type": "move", "move": "h3e3", "ply": 0}));
    assert_eq!(next(&mut a, "ack")["ply"], 1);
    let seen = state_at(&mut b, 1);
    assert_eq!(seen["moves"][0]["text"]["wxf"], "C2=5");
    assert_eq!(state_at(&mut watcher, 1)["turn"], "second");

    // Refusals come back as errors on the socket; nothing changes.
    send(&mut a, json!({"type": "move", "move": "h1g3"}));
    assert_eq!(next(&mut a, "error")["error"]["code"], "not_your_turn");
    send(&mut watcher, json!({"type": "move", "move": "h10g8"}));
    assert_eq!(next(&mut watcher, "error")["error"]["code"], "forbidden");
    ws_raw(&mut b, "{not json");
    assert_eq!(next(&mut b, "error")["error"]["code"], "bad_json");
    send(&mut b, json!({"type": "castle"}));
    assert_eq!(next(&mut b, "error")["error"]["code"], "bad_json");
    send(&mut b, json!({"type": "ping"}));
    next(&mut b, "pong");
    send(&mut b, json!({"type": "move", "move": "h10g8", "ply": 1}));
    assert_eq!(next(&mut b, "ack")["ply"], 2);
    assert_eq!(state_at(&mut a, 2)["moves"][1]["text"]["uci"], "h10g8");
    assert_eq!(state(&server, &id, None)["ply"], 2);

    // An oversized message closes that connection and changes nothing.
    let big = json!({"type": "move", "move": "x".repeat(10_000)}).to_string();
    let _ = b.send(tungstenite::Message::Text(big.into()));
    let closed = (0..10).any(|_| !matches!(b.read(), Ok(tungstenite::Message::Text(_))));
    assert!(closed, "the server closes a connection that sends too much");
    assert_eq!(state(&server, &id, None)["ply"], 2);

    // A wrong token is refused before the upgrade.
    let refused = tungstenite::connect(format!(
        "ws://{}/api/games/{id}/ws?token=wrong",
        server.addr
    ));
    assert!(refused.is_err());
    let missing = tungstenite::connect(format!("ws://{}/api/games/nosuch/ws", server.addr));
    assert!(missing.is_err());
}

fn ws_raw(ws: &mut Socket, text: &str) {
    ws.send(tungstenite::Message::Text(text.to_string().into()))
        .unwrap();
}

#[test]
fn the_page_and_its_assets_are_served() {
    let db = TempDb::new("page");
    let server = Server::start(&db);
    for (path, kind) in [
        ("/", "text/html"),
        ("/archive", "text/html"),
        ("/g/abc", "text/html"),
        ("/assets/app.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
        ("/assets/icon.svg", "image/svg+xml"),
    ] {
        let r = agent().get(&server.url(path)).call().unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(
            r.content_type()
                .starts_with(kind.split(';').next().unwrap()),
            "{path}: {}",
            r.content_type()
        );
    }
    let (status, body) = get(&server.url("/assets/../../etc/passwd"), None);
    assert_eq!(status, 404, "{body}");
    let (status, body) = get(&server.url("/g/a%20b?token=x"), None);
    assert_eq!((status, error_code(&body)), (404, "not_found"));
}

#[test]
fn imported_move_times_must_be_finite_non_negative_and_bounded() {
    let db = TempDb::new("times");
    let server = Server::start(&db);
    let (game, red) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    let black = invited(&server, &game);
    assert_eq!(play(&server, &id, &red, "h3e3").0, 200);
    assert_eq!(play(&server, &id, &black, "h10g8").0, 200);
    let (_, pcn) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    let record = |seconds: Value| {
        let mut pcn = pcn.clone();
        pcn["moves"][0][1] = json!(2.5);
        pcn["moves"][1][1] = seconds;
        json!({ "pcn": pcn })
    };
    for bad in [json!(1e300), json!(-1), json!(-0.001), json!(2_592_001)] {
        let (status, body) = post(&server.url("/api/import"), None, record(bad.clone()));
        assert_eq!(
            (status, error_code(&body)),
            (400, "bad_record"),
            "{bad}: {body}"
        );
    }
    assert_eq!(
        get(&server.url("/api/games"), None).1["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (status, body) = post(&server.url("/api/import"), None, record(json!(2_592_000)));
    assert_eq!(status, 201, "{body}");
    let id = body["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(body["game"]["moves"][1]["time_ms"], 2_592_000_000u64);
    // The times come back the same after a restart.
    drop(server);
    let server = Server::start(&db);
    let s = state(&server, &id, None);
    assert_eq!(s["moves"][0]["time_ms"], 2_500);
    assert_eq!(s["moves"][1]["time_ms"], 2_592_000_000u64);
    let (_, pcn) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    assert_eq!(pcn["moves"][1][1], 2_592_000.0, "{pcn}");
}

#[test]
fn a_sqlite_file_serves_one_process() {
    let db = TempDb::new("lock");
    let first = store::open(&db).unwrap();
    let Err(second) = store::open(&db) else {
        panic!("a second store opened the same SQLite file");
    };
    let message = second.to_string();
    assert!(
        message.contains("in use by another chuhe serve") && message.contains("PostgreSQL"),
        "{message}"
    );
    // The lock goes with the store.
    drop(first);
    let again = store::open(&db).unwrap();
    assert!(again.load("nope").unwrap().is_none());
}

/// A POST with an `Origin` header, as a browser sends it.
fn post_from(origin: &str, url: &str, token: &str, body: Value) -> (u16, Value) {
    let response = agent()
        .post(url)
        .set("Origin", origin)
        .set("Authorization", &format!("Bearer {token}"))
        .send_json(body);
    let response = match response {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST {url}: {e}"),
    };
    let status = response.status();
    (status, response.into_json().unwrap_or(Value::Null))
}

#[test]
fn pages_of_other_origins_cannot_change_games() {
    let db = TempDb::new("origin");
    let server = Server::start(&db);
    let own = format!("http://{}", server.addr);
    let foreign = format!("http://127.0.0.1:{}", server.addr.port().wrapping_add(1));
    let (game, red) = create(&server, json!({"game": "xiangqi", "level": 0}));
    let id = game["id"].as_str().unwrap().to_string();
    let url = |action: &str| server.url(&format!("/api/games/{id}/{action}"));
    let (status, body) = post_from(&own, &url("move"), &red, json!({"move": "h3e3"}));
    assert_eq!(status, 200, "{body}");
    let s = wait_for(&server, &id, None, |s| {
        s["ply"] == 2 && s["thinking"] == false
    });
    // Another port of the same host, a page of another site, a sandboxed page: refused,
    // nothing changed.
    for origin in [foreign.as_str(), "https://evil.example", "null"] {
        for (action, body) in [
            ("move", json!({"move": "h1g3"})),
            ("resign", json!({})),
            ("takeback", json!({})),
            ("draw", json!({"action": "offer"})),
        ] {
            let (status, reply) = post_from(origin, &url(action), &red, body);
            assert_eq!(
                (status, error_code(&reply)),
                (403, "cross_origin"),
                "{origin} {action}: {reply}"
            );
        }
        let (status, _) = post_from(
            origin,
            &server.url("/api/games"),
            &red,
            json!({"game": "xiangqi"}),
        );
        assert_eq!(status, 403, "{origin}: create");
    }
    assert_eq!(state(&server, &id, None)["moves"], s["moves"]);
    assert!(state(&server, &id, None)["result"].is_null());
    // A WebSocket opened by a foreign page is refused before the upgrade; one of the
    // server's own page is accepted.
    let ws_request = |origin: &str| {
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/games/{id}/ws?token={red}",
            server.addr
        ))
        .unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        request
    };
    match tungstenite::connect(ws_request(&foreign)) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!(
            "a foreign WebSocket was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    let (mut ws, _) = tungstenite::connect(ws_request(&own)).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    assert_eq!(next(&mut ws, "state")["state"]["ply"], 2);
    // The own origin takes back and resigns.
    let (status, body) = post_from(&own, &url("takeback"), &red, json!({}));
    assert_eq!((status, &body["ply"]), (200, &json!(0)), "{body}");
    let (status, body) = post_from(&own, &url("resign"), &red, json!({}));
    assert_eq!(
        (status, &body["result"]["status"]),
        (200, &json!("resignation")),
        "{body}"
    );
}

#[test]
fn every_response_carries_the_security_headers() {
    let db = TempDb::new("headers");
    let server = Server::start(&db);
    for path in [
        "/",
        "/g/abc",
        "/assets/app.js",
        "/api/games",
        "/api/games/nosuch",
        "/nothing",
    ] {
        let response = match agent().get(&server.url(path)).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        let csp = response
            .header("Content-Security-Policy")
            .unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(response.header("X-Frame-Options"), Some("DENY"), "{path}");
        assert_eq!(
            response.header("X-Content-Type-Options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            response.header("Referrer-Policy"),
            Some("same-origin"),
            "{path}"
        );
    }
    // The player's cookie stays out of scripts and of requests from other sites.
    let response = agent()
        .post(&server.url("/api/games"))
        .send_json(json!({"game": "xiangqi", "opponent": "friend"}))
        .unwrap();
    let cookie = response.header("Set-Cookie").unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
}

#[test]
fn imported_players_metadata_and_tags_come_back_out() {
    let db = TempDb::new("meta");
    let server = Server::start(&db);
    let (game, red) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(play(&server, &id, &red, "h3e3").0, 200);
    let (_, mut pcn) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    pcn["sides"] = json!({"first": {"name": "Lü Qin", "elo": 2600},
                          "second": {"name": "Xu Yinchuan", "club": "Guangdong"}});
    pcn["meta"]["event"] = json!("National Championship");
    pcn["meta"]["round"] = json!(7);
    pcn["meta"]["started_at"] = json!("1999-05-01T10:00:00Z");
    pcn["meta"]["annotator"] = json!({"name": "anon", "stars": [1, 2]});
    pcn["meta"].as_object_mut().unwrap().remove("site");
    let (status, body) = post(&server.url("/api/import"), None, json!({ "pcn": pcn }));
    assert_eq!(status, 201, "{body}");
    let imported = body["game"]["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        &server.url("/api/import"),
        None,
        json!({"pgn": "[Event \"Asian Cup\"]\n[Site \"Macau\"]\n[Date \"2004.11.02\"]\n\
                       [Round \"3\"]\n[White \"Hu Ronghua\"]\n[Black \"Liu Dahua\"]\n\
                       [Result \"*\"]\n[Annotator \"Wang \\\"Wu\\\"\"]\n\
                       [Variant \"Xiangqi\"]\n\n1. Che3 Hg8 *\n"}),
    );
    assert_eq!(status, 201, "{body}");
    let from_pgn = body["game"]["id"].as_str().unwrap().to_string();
    // Kept in the database: they survive a restart.
    drop(server);
    let server = Server::start(&db);
    let (_, out) = get(&server.url(&format!("/api/games/{imported}/pcn")), None);
    assert_eq!(out["sides"], pcn["sides"], "{out}");
    for key in ["event", "round", "started_at", "annotator", "game"] {
        assert_eq!(out["meta"][key], pcn["meta"][key], "{key}: {out}");
    }
    let pgn = agent()
        .get(&server.url(&format!("/api/games/{from_pgn}/pgn")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    for tag in [
        "[Event \"Asian Cup\"]",
        "[Site \"Macau\"]",
        "[Date \"2004.11.02\"]",
        "[Round \"3\"]",
        "[White \"Hu Ronghua\"]",
        "[Black \"Liu Dahua\"]",
        "[Annotator \"Wang \\\"Wu\\\"\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing from {pgn}");
    }
    let (_, out) = get(&server.url(&format!("/api/games/{from_pgn}/pcn")), None);
    assert_eq!(out["sides"]["first"]["name"], "Hu Ronghua", "{out}");
    assert_eq!(out["meta"]["event"], "Asian Cup", "{out}");
    // A game played here is still signed by the server.
    let (_, out) = get(&server.url(&format!("/api/games/{id}/pcn")), None);
    assert_eq!(out["meta"]["site"], format!("chuhe serve, game {id}"));
}

#[test]
fn imported_fen_counters_come_back_out() {
    let db = TempDb::new("counters");
    let server = Server::start(&db);
    // A half-move clock of 97 and move number 40 are kept through the database and a
    // restart, and come back in the export.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 97 40";
    let pgn = format!(
        "[Event \"Counters\"]\n[Variant \"Xiangqi\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
         [Result \"*\"]\n\n40. Che3 Hg8 *\n"
    );
    let (status, body) = post(&server.url("/api/import"), None, json!({ "pgn": pgn }));
    assert_eq!(status, 201, "{body}");
    let id = body["game"]["id"].as_str().unwrap().to_string();
    drop(server);
    let server = Server::start(&db);
    let out = agent()
        .get(&server.url(&format!("/api/games/{id}/pgn")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(out.contains(&format!("[FEN \"{fen}\"]")), "{out}");
    assert!(out.contains("40. Che3"), "{out}");
}

#[test]
fn a_player_who_leaves_a_game_without_clocks_loses_it() {
    let db = TempDb::new("abandon");
    let server = Server::with_options(
        Arc::new(store::SqliteStore::open_shared(&db).unwrap()),
        AppOptions {
            engine_movetime: Duration::from_millis(30),
            abandon_after: Duration::from_millis(1500),
            ..AppOptions::default()
        },
    );
    // Two games between friends, no clocks, both sides have moved; Red is to move in both.
    let mut games = Vec::new();
    for _ in 0..2 {
        let (game, red) = create(&server, json!({"game": "xiangqi", "opponent": "friend"}));
        let id = game["id"].as_str().unwrap().to_string();
        let black = invited(&server, &game);
        assert_eq!(play(&server, &id, &red, "h3e3").0, 200);
        assert_eq!(play(&server, &id, &black, "h10g8").0, 200);
        games.push((id, red));
    }
    // In the second, Red's page stays open (its WebSocket): Red is thinking, not gone.
    let mut present = socket(&server, &games[1].0, Some(&games[1].1));
    next(&mut present, "state");
    // In the first, nobody's page is open: Red, to move, has left and loses.
    let s = wait_for(&server, &games[0].0, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["status"], "resignation", "{s}");
    assert_eq!(s["result"]["winner"], "second");
    assert_eq!(s["result"]["reason"], "abandoned");
    assert_eq!(s["result"]["text"], "Black wins: Red left the game");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(state(&server, &games[1].0, None)["result"].is_null());
    // Once that page goes too, so does the game.
    drop(present);
    let s = wait_for(&server, &games[1].0, None, |s| !s["result"].is_null());
    assert_eq!(s["result"]["reason"], "abandoned", "{s}");
}
