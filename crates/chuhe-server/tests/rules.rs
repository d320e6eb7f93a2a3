//! Games read from rule files on the site (`chuhe serve --rules DIR`): listed beside the
//! native games, played between friends through the API to the end the rules give, refused
//! moves answered with typed errors, the record read back and imported again, the review
//! after the game; casual only;
//! a stored rules game on a server started without its rules answers a clear error and is
//! left unchanged.

use std::sync::Arc;
use std::time::Duration;

use chuhe_server::kinds::{Kinds, KindsError};
use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

use common::{TempDb, TestServer};

fn rules_dir(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

fn lantern() -> Kinds {
    let handle = chuhe::rules::load_dir(rules_dir("examples/rules/lantern")).unwrap();
    Kinds::new([handle]).unwrap()
}

fn server(db: &str, kinds: Kinds) -> TestServer {
    TestServer::with_options(
        Arc::new(store::SqliteStore::open_shared(db).unwrap()),
        AppOptions {
            engine_movetime: Duration::from_millis(30),
            kinds,
            ..AppOptions::default()
        },
    )
}

fn send(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut request = ureq::request(method, url);
    if let Some(t) = token {
        request = request.set("Authorization", &format!("Bearer {t}"));
    }
    common::call(request, body)
}

/// A friend game of `game` from `position`: its id and the two seats' tokens.
fn friend_game(s: &TestServer, game: &str, position: Option<&str>) -> (String, String, String) {
    let mut body = json!({"game": game, "opponent": "friend"});
    if let Some(p) = position {
        body["position"] = json!(p);
    }
    let (status, created) = send("POST", &s.url("/api/games"), None, Some(body));
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let first = created["token"].as_str().unwrap().to_string();
    let code = created["game"]["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let (status, joined) = send(
        "POST",
        &s.url(&format!("/api/games/{id}/join")),
        None,
        Some(json!({"invite": code})),
    );
    assert_eq!(status, 200, "{joined}");
    let second = joined["token"].as_str().unwrap().to_string();
    (id, first, second)
}

fn play(s: &TestServer, id: &str, token: &str, mv: &str) -> (u16, Value) {
    send(
        "POST",
        &s.url(&format!("/api/games/{id}/move")),
        Some(token),
        Some(json!({"move": mv})),
    )
}

#[test]
fn the_rules_games_are_listed_beside_the_native_ones() {
    let db = TempDb::new("rules-kinds");
    let s = server(&db, lantern());
    let (status, body) = send("GET", &s.url("/api/kinds"), None, None);
    assert_eq!(status, 200, "{body}");
    let kinds = body["kinds"].as_array().unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["xiongqi", "xiangqi", "xiangqi-capture", "lantern"]);
    let lantern = &kinds[3];
    assert_eq!(
        (&lantern["files"], &lantern["ranks"]),
        (&json!(7), &json!(7))
    );
    assert_eq!(lantern["native"], false);
    assert_eq!(lantern["rated"], false);
    assert_eq!(lantern["promotes"], true);
    assert!(lantern["title"].as_str().unwrap().starts_with("Lantern"));
    assert!(
        lantern["pieces"]
            .as_array()
            .unwrap()
            .contains(&json!({"letter": "T", "name": "tiger", "royal": false, "chinese": null})),
        "{lantern}"
    );
    assert_eq!(kinds[1]["native"], true);
    // A game no directory gave is refused, naming those offered.
    let (status, body) = send(
        "POST",
        &s.url("/api/games"),
        None,
        Some(json!({"game": "shatranj", "opponent": "friend"})),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "unknown_game", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("xiangqi-capture, lantern"),
        "{body}"
    );
}

#[test]
fn a_lantern_game_between_friends_is_played_to_its_end_and_read_back() {
    let db = TempDb::new("rules-friend");
    let s = server(&db, lantern());
    let (id, first, second) = friend_game(&s, "lantern", None);
    let (status, state) = send("GET", &s.url(&format!("/api/games/{id}")), None, None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["game"], "lantern");

    // A move the rules refuse: typed, nothing changed.
    let (status, body) = play(&s, &id, &first, "b2b4");
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "illegal_move", "{body}");
    assert_eq!(body["error"]["params"]["reason"], "illegal", "{body}");
    // A square the 7×7 board does not have.
    let (status, body) = play(&s, &id, &first, "h1h2");
    assert!(status == 400 || status == 422, "{body}");
    // Out of turn.
    let (status, body) = play(&s, &id, &second, "b6b5");
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "not_your_turn", "{body}");

    // The wisp runs to the lord and takes it: the rules end the game.
    for (token, mv) in [(&first, "b1f5"), (&second, "b6b5"), (&first, "f5d7")] {
        let (status, body) = play(&s, &id, token, mv);
        assert_eq!(status, 200, "{mv}: {body}");
    }
    let (_, state) = send("GET", &s.url(&format!("/api/games/{id}")), None, None);
    assert_eq!(state["result"]["winner"], "first", "{state}");
    assert_eq!(state["result"]["status"], "mareking", "{state}");
    assert_eq!(
        state["result"]["text"], "Red wins: Black's lord was captured",
        "{state}"
    );
    let (status, body) = play(&s, &id, &second, "a7a6");
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "game_over", "{body}");

    // The review after the game: every position scored by the engine in the rules game, the
    // lord-taking move the engine's best, the last position the rules' end.
    let review_url = s.url(&format!("/api/games/{id}/review"));
    let (status, body) = send("POST", &review_url, None, Some(json!({})));
    assert!(status == 200 || status == 202, "{status}: {body}");
    let started = std::time::Instant::now();
    let review = loop {
        let (status, review) = send("GET", &review_url, None, None);
        assert_eq!(status, 200, "{review}");
        if review["state"] == "done" {
            break review;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{review}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4, "{review}");
    for p in &positions[..3] {
        assert!(p["depth"].as_u64().unwrap() > 0, "searched: {review}");
        assert!(p["best"].is_string(), "{review}");
    }
    assert_eq!(
        positions[2]["best"], "f5d7",
        "the lord is taken at once: {review}"
    );
    assert!(
        positions[3]["score"].is_null() && positions[3]["best"].is_null(),
        "{review}"
    );
    assert_eq!(review["moves"].as_array().unwrap().len(), 3, "{review}");

    // The record: PCN with the game's name and the moves.
    let (status, pcn) = send("GET", &s.url(&format!("/api/games/{id}/pcn")), None, None);
    assert_eq!(status, 200, "{pcn}");
    assert_eq!(pcn["meta"]["game"], "lantern", "{pcn}");
    assert_eq!(pcn["moves"].as_array().unwrap().len(), 3, "{pcn}");
    // It is listed in the archive (filtered by the game's name) …
    let (status, list) = send("GET", &s.url("/api/games?game=lantern"), None, None);
    assert_eq!(status, 200, "{list}");
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()),
        "{list}"
    );
    // … and its record imports again as a review board.
    let (status, imported) = send(
        "POST",
        &s.url("/api/import"),
        None,
        Some(json!({"pcn": pcn})),
    );
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["game"], "lantern", "{imported}");
    assert_eq!(imported["game"]["moves"].as_array().unwrap().len(), 3);
}

#[test]
fn a_lantern_promotion_offers_each_piece_and_resigning_ends_it() {
    let db = TempDb::new("rules-promote");
    let s = server(&db, lantern());
    let (id, first, second) =
        friend_game(&s, "lantern", Some("t1ck^cwt/1P5/7/7/7/7/TWCK^CWT / L/l"));
    let (_, state) = send(
        "GET",
        &s.url(&format!("/api/games/{id}")),
        Some(&first),
        None,
    );
    let to_b7: Vec<&str> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "b6" && m["to"] == "b7")
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(to_b7.len(), 2, "{state}");
    // Without a choice it cannot be played.
    let (status, body) = play(&s, &id, &first, "b6b7");
    assert!(status == 400 || status == 422, "{body}");
    let (status, body) = play(&s, &id, &first, to_b7[0]);
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(
        "POST",
        &s.url(&format!("/api/games/{id}/resign")),
        Some(&second),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{body}");
    let (_, state) = send("GET", &s.url(&format!("/api/games/{id}")), None, None);
    assert_eq!(state["result"]["status"], "resignation", "{state}");
    assert_eq!(state["result"]["winner"], "first", "{state}");
}

#[test]
fn rules_games_are_casual_only() {
    let db = TempDb::new("rules-casual");
    let s = server(&db, lantern());
    let (status, body) = send(
        "POST",
        &s.url("/api/seeks"),
        None,
        Some(
            json!({"game": "lantern", "rated": true, "clock": {"initial_s": 180, "increment_s": 2}}),
        ),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("casual only"),
        "{body}"
    );
    let (status, body) = send(
        "POST",
        &s.url("/api/seeks"),
        None,
        Some(json!({"game": "lantern", "clock": {"initial_s": 180, "increment_s": 2}})),
    );
    assert_eq!(status, 201, "{body}");
}

#[test]
fn a_stored_rules_game_without_its_rules_answers_a_clear_error_and_is_kept() {
    let db = TempDb::new("rules-missing");
    let id = {
        let s = server(&db, lantern());
        let (id, first, _) = friend_game(&s, "lantern", None);
        let (status, body) = play(&s, &id, &first, "b2b3");
        assert_eq!(status, 200, "{body}");
        id
    };
    {
        let s = server(&db, Kinds::default());
        for path in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}/pcn"),
            format!("/api/games/{id}/board.svg"),
        ] {
            let (status, body) = send("GET", &s.url(&path), None, None);
            assert_eq!(status, 503, "{path}: {body}");
            assert_eq!(body["error"]["code"], "game_not_served", "{path}: {body}");
            assert_eq!(body["error"]["params"]["game"], "lantern", "{body}");
            let message = body["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("'lantern'") && message.contains("--rules"),
                "{message}"
            );
        }
        // The archive still lists it; the lobby's game is refused by name.
        let (status, list) = send("GET", &s.url("/api/games"), None, None);
        assert_eq!(status, 200, "{list}");
        let (status, body) = send(
            "POST",
            &s.url("/api/games"),
            None,
            Some(json!({"game": "lantern"})),
        );
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"]["code"], "unknown_game", "{body}");
    }
    // Started with the rules again, the game goes on as it was.
    let s = server(&db, lantern());
    let (status, state) = send("GET", &s.url(&format!("/api/games/{id}")), None, None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 1, "{state}");
}

#[test]
fn a_rules_game_named_like_a_native_one_is_refused() {
    let xiangqi = chuhe::rules::load_dir(rules_dir("games/xiangqi")).unwrap();
    assert_eq!(
        Kinds::new([xiangqi]).unwrap_err(),
        KindsError::NativeName("xiangqi".into())
    );
    let lantern = chuhe::rules::load_dir(rules_dir("examples/rules/lantern")).unwrap();
    // The same directory twice is one game.
    assert_eq!(Kinds::new([lantern, lantern]).unwrap().rules().len(), 1);
    let err = chuhe_server::kinds_of(&[rules_dir("games/xiangqi").into()]).unwrap_err();
    assert!(
        err.to_string().contains("one of chuhe's own games"),
        "{err}"
    );
}

#[test]
fn the_analysis_board_opens_a_rules_game_position() {
    let db = TempDb::new("rules-analysis");
    let s = server(&db, lantern());
    let (status, view) = send(
        "POST",
        &s.url("/api/analysis/position"),
        None,
        Some(json!({"game": "lantern", "moves": ["b1f5", "b6b5", "f5d7"]})),
    );
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["game"], "lantern");
    assert_eq!(view["result"]["status"], "mareking", "{view}");
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    let (status, body) = send(
        "POST",
        &s.url("/api/analysis/position"),
        None,
        Some(json!({"game": "lantern", "moves": ["b2b4"]})),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "bad_move", "{body}");
    // Without the rules the game is unknown there too.
    let plain_db = TempDb::new("rules-analysis-plain");
    let plain = server(&plain_db, Kinds::default());
    let (status, body) = send(
        "POST",
        &plain.url("/api/analysis/position"),
        None,
        Some(json!({"game": "lantern"})),
    );
    assert_eq!(status, 400, "{body}");
}

/// Two servers of one database, one started with Lantern's rules and one without: the seek
/// made on the first is listed on the second as not served there, and accepting it there is
/// refused (503 `game_not_served`) with the seek left open, so that it is played where its
/// rules are.
#[test]
fn a_seek_for_a_rules_game_is_not_taken_by_a_server_without_its_rules() {
    let db = TempDb::new("rules-seek-elsewhere");
    let with = server(&db, lantern());
    let without = server(&db, Kinds::default());
    let (status, body) = send(
        "POST",
        &with.url("/api/seeks"),
        None,
        Some(json!({"game": "lantern", "clock": {"initial_s": 180, "increment_s": 2}})),
    );
    assert_eq!(status, 201, "{body}");
    let seeks = |s: &TestServer| send("GET", &s.url("/api/seeks"), None, None).1;
    let listed = seeks(&without);
    let seek = &listed["seeks"][0];
    assert_eq!(seek["game"], "lantern", "{listed}");
    assert_eq!(seek["served"], false, "{listed}");
    assert_eq!(seeks(&with)["seeks"][0]["served"], true);
    let id = seek["id"].as_str().unwrap();
    let accept = format!("/api/seeks/{id}/accept");
    let (status, body) = send("POST", &without.url(&accept), None, None);
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "game_not_served", "{body}");
    assert_eq!(body["error"]["params"]["game"], "lantern", "{body}");
    // Still open, and taken where Lantern is served.
    assert_eq!(seeks(&without)["seeks"].as_array().unwrap().len(), 1);
    let (status, body) = send("POST", &with.url(&accept), None, None);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["game"]["game"], "lantern", "{body}");
}
