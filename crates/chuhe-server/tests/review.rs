//! Reviews after a game: a planted blunder (Black's chariot left to a cannon) is classed a
//! blunder; the review is stored with the game and computed once — again on one server, and
//! behind two servers on one database asked at the same moment; a review whose server died
//! is taken over; every position equals a fresh engine's evaluation at the same budget, even
//! with an analysis sharing the pool.
//!
//! On one SQLite file (two servers, for the test only) and, when `CHUHE_TEST_POSTGRES` is set
//! (`scripts/with-postgres`), on PostgreSQL.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use chuhe::GameKind;
use chuhe_engine::Engine;
use chuhe_server::review::{self, PositionEval, ReviewOptions};
use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

use common::{call, TestServer};

/// Black's chariot goes to b9 (its third move), where Red's cannon takes it over Black's
/// cannon; then Black resigns.
const MOVES: [&str; 7] = ["h3e3", "b10c8", "h1g3", "a10a9", "i1h1", "a9b9", "b3b9"];

/// The nodes of each position in these tests.
const NODES: u64 = 20_000;

fn options(threads: usize, stale: Duration) -> AppOptions {
    AppOptions {
        engine_threads: threads,
        analysis_slice: Duration::from_millis(100),
        review: ReviewOptions {
            nodes: NODES,
            stale,
            ..ReviewOptions::default()
        },
        ..AppOptions::default()
    }
}

fn post(server: &TestServer, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = ureq::post(&server.url(path));
    if let Some(t) = token {
        request = request.set("Authorization", &format!("Bearer {t}"));
    }
    call(request, Some(body))
}

fn get(server: &TestServer, path: &str) -> (u16, Value) {
    call(ureq::get(&server.url(path)), None)
}

/// A game between friends with `moves` played: its id and the two seats' tokens.
fn friends_play(server: &TestServer, moves: &[&str]) -> (String, String, String) {
    let (status, created) = post(
        server,
        "/api/games",
        None,
        json!({"game": "xiangqi", "opponent": "friend"}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let invite = created["game"]["invite"].as_str().unwrap();
    let code = invite.split("invite=").nth(1).unwrap();
    let (status, joined) = post(
        server,
        &format!("/api/games/{id}/join"),
        None,
        json!({"invite": code}),
    );
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().unwrap().to_string();
    for (i, m) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &red } else { &black };
        let (status, body) = post(
            server,
            &format!("/api/games/{id}/move"),
            Some(token),
            json!({"move": m}),
        );
        assert_eq!(status, 200, "{m}: {body}");
    }
    (id, red, black)
}

/// The planted game, finished by Black's resignation.
fn planted_game(server: &TestServer) -> String {
    let (id, _, black) = friends_play(server, &MOVES);
    let (status, body) = post(
        server,
        &format!("/api/games/{id}/resign"),
        Some(&black),
        json!({}),
    );
    assert_eq!(status, 200, "{body}");
    id
}

/// Asks `server` for the review until it is done.
fn wait_for_review(server: &TestServer, id: &str, within: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (status, review) = get(server, &format!("/api/games/{id}/review"));
        assert_eq!(status, 200, "{review}");
        if review["state"] == "done" {
            return review;
        }
        assert!(start.elapsed() < within, "not done in {within:?}: {review}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Each position evaluated on a fresh engine, as `chuhe analyze` does.
fn fresh_evaluations() -> Vec<PositionEval> {
    let moves: Vec<String> = MOVES.iter().map(|m| m.to_string()).collect();
    (0..=moves.len())
        .map(|i| {
            let mut engine = Engine::new(GameKind::Xiangqi);
            review::evaluate(&mut engine, "start", &moves[..i], NODES, || false)
                .unwrap()
                .unwrap()
        })
        .collect()
}

fn positions(review: &Value) -> Vec<PositionEval> {
    serde_json::from_value(review["positions"].clone()).unwrap()
}

#[test]
fn a_review_needs_a_finished_game() {
    let server = TestServer::with_options(
        Arc::new(store::SqliteStore::open(":memory:").unwrap()),
        options(1, Duration::from_secs(30)),
    );
    let (id, _, _) = friends_play(&server, &MOVES[..2]);
    let path = format!("/api/games/{id}/review");
    let (status, body) = get(&server, &path);
    assert_eq!((status, &body), (200, &json!({"state": "none"})));
    let (status, body) = post(&server, &path, None, json!({}));
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("game_not_over")),
        "{body}"
    );
    let (status, body) = post(&server, "/api/games/nosuchgame/review", None, json!({}));
    assert_eq!((status, &body["error"]["code"]), (404, &json!("not_found")));
    // A position imported as a record can be reviewed at once.
    let (status, imported) = post(
        &server,
        "/api/import",
        None,
        json!({"game": "xiangqi", "record": "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"}),
    );
    assert_eq!(status, 201, "{imported}");
    let record = imported["game"]["id"].as_str().unwrap();
    let (status, body) = post(
        &server,
        &format!("/api/games/{record}/review"),
        None,
        json!({}),
    );
    assert!(status == 200 || status == 202, "{status}: {body}");
    let review = wait_for_review(&server, record, Duration::from_secs(20));
    assert_eq!(
        (&review["total"], &review["moves"]),
        (&json!(1), &json!([]))
    );
    assert_eq!(review["players"]["first"]["accuracy"], Value::Null);
}

#[test]
fn the_planted_blunder_is_found_and_the_review_is_kept() {
    let server = TestServer::with_options(
        Arc::new(store::SqliteStore::open(":memory:").unwrap()),
        options(1, Duration::from_secs(30)),
    );
    let id = planted_game(&server);
    // An analysis shares the one worker meanwhile (MultiPV 3 on a reused engine).
    let (mut ws, _) =
        tungstenite::connect(format!("ws://{}/api/analysis/ws", server.addr)).unwrap();
    ws.send(tungstenite::Message::Text(
        json!({"type": "analyse", "id": 1, "game": "xiangqi", "moves": ["h3e3"], "multipv": 3})
            .to_string()
            .into(),
    ))
    .unwrap();
    let path = format!("/api/games/{id}/review");
    let (status, first) = post(&server, &path, None, json!({}));
    assert!(status == 202 || status == 200, "{status}: {first}");
    let total = MOVES.len() + 1;
    assert_eq!(
        (&first["total"], &first["nodes"]),
        (&json!(total), &json!(NODES))
    );
    if status == 202 {
        assert_eq!(first["state"], "running");
    }
    let review = wait_for_review(&server, &id, Duration::from_secs(60));
    drop(ws);
    let keys: Vec<&String> = review.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "state",
            "done",
            "total",
            "nodes",
            "positions",
            "moves",
            "players"
        ]
    );
    assert_eq!(
        (&review["done"], &review["total"]),
        (&json!(total), &json!(total))
    );

    // The blunder: Black's chariot to b9, which Red's cannon takes.
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), MOVES.len());
    let blunder = &moves[5];
    assert_eq!(
        (&blunder["ply"], &blunder["side"], &blunder["uci"]),
        (&json!(6), &json!("second"), &json!("a9b9"))
    );
    assert_eq!(blunder["class"], "blunder", "{review}");
    assert!(blunder["loss"].as_u64().unwrap() >= 150);
    assert!(blunder["accuracy"].as_f64().unwrap() < 30.0);
    assert_eq!(moves[6]["class"], "best", "Red takes the chariot: {review}");
    assert_eq!(review["positions"][6]["best"], "b3b9");
    assert_eq!(review["players"]["second"]["blunders"], 1);
    assert!(
        review["players"]["first"]["accuracy"].as_f64().unwrap()
            > review["players"]["second"]["accuracy"].as_f64().unwrap()
    );
    for p in review["positions"].as_array().unwrap() {
        assert!(p["depth"].as_u64().unwrap() > 0, "{p}");
        assert!(p["expected"].as_u64().unwrap() <= 1000);
    }

    // Every position as a fresh engine evaluates it: the analysis left nothing behind.
    assert_eq!(positions(&review), fresh_evaluations());

    // Kept: asked again, the same review at once, nothing searched again.
    let evaluated = server.hub.reviews().evaluated();
    assert_eq!(evaluated, total);
    let (status, again) = post(&server, &path, None, json!({}));
    assert_eq!(status, 200);
    assert_eq!(again, review);
    assert_eq!(server.hub.reviews().evaluated(), total);
}

/// Both servers are asked for the review at the same moment: one computes it, both show it;
/// then a review left by a server that died is taken over when asked for.
fn two_servers(s1: &TestServer, s2: &TestServer, db: &dyn store::Store) {
    let id = planted_game(s1);
    let barrier = Barrier::new(2);
    let path = format!("/api/games/{id}/review");
    std::thread::scope(|s| {
        for server in [s1, s2] {
            let (barrier, path) = (&barrier, &path);
            s.spawn(move || {
                barrier.wait();
                let (status, body) = post(server, path, None, json!({}));
                assert!(status == 200 || status == 202, "{status}: {body}");
            });
        }
    });
    let (a, b) = (
        wait_for_review(s1, &id, Duration::from_secs(60)),
        wait_for_review(s2, &id, Duration::from_secs(60)),
    );
    assert_eq!(a, b);
    let evaluated = s1.hub.reviews().evaluated() + s2.hub.reviews().evaluated();
    assert_eq!(evaluated, MOVES.len() + 1, "each position searched once");

    // A server claimed a review and died after two positions.
    let other = planted_game(s1);
    let claim = db
        .claim_review(
            &other,
            NODES,
            MOVES.len() + 1,
            "a-server-that-died",
            Duration::from_secs(60),
        )
        .unwrap();
    assert!(matches!(claim, store::ReviewClaim::Won(_)));
    let two = serde_json::to_string(&fresh_evaluations()[..2]).unwrap();
    assert!(db
        .save_review(&other, "a-server-that-died", 2, &two, false)
        .unwrap());
    let (status, running) = get(s2, &format!("/api/games/{other}/review"));
    assert_eq!(status, 200);
    assert_eq!(
        (&running["state"], &running["done"]),
        (&json!("running"), &json!(2))
    );
    let before = s1.hub.reviews().evaluated() + s2.hub.reviews().evaluated();
    // Its heartbeat goes stale: the next look takes it over and finishes it.
    let review = wait_for_review(s2, &other, Duration::from_secs(60));
    assert_eq!(positions(&review), fresh_evaluations());
    let after = s1.hub.reviews().evaluated() + s2.hub.reviews().evaluated();
    assert_eq!(after - before, MOVES.len() - 1, "the positions left");
}

#[test]
fn two_servers_on_one_sqlite_file_compute_a_review_once() {
    let db = common::TempDb::new("review");
    let stores: Vec<Arc<dyn store::Store>> = (0..3)
        .map(|_| Arc::new(store::SqliteStore::open_shared(&db).unwrap()) as Arc<dyn store::Store>)
        .collect();
    let s1 = TestServer::with_options(stores[0].clone(), options(2, Duration::from_millis(500)));
    let s2 = TestServer::with_options(stores[1].clone(), options(2, Duration::from_millis(500)));
    two_servers(&s1, &s2, stores[2].as_ref());
}

#[test]
fn two_servers_on_one_postgresql_database_compute_a_review_once() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let stores: Vec<Arc<dyn store::Store>> = (0..3)
        .map(|_| Arc::new(store::PostgresStore::connect(&url).unwrap()) as Arc<dyn store::Store>)
        .collect();
    let s1 = TestServer::with_options(stores[0].clone(), options(2, Duration::from_millis(500)));
    let s2 = TestServer::with_options(stores[1].clone(), options(2, Duration::from_millis(500)));
    two_servers(&s1, &s2, stores[2].as_ref());
}
