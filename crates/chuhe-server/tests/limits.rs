//! What one server holds and lets in: games nobody uses leave memory (and come back from the
//! database when asked for), and one client creates at most so many games a minute.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

use common::{TempDb, TestServer};

fn store_at(db: &TempDb) -> Arc<dyn store::Store> {
    Arc::new(store::SqliteStore::open(db).unwrap())
}

/// Sends `request` with `body`: the status, the `Retry-After` header and the JSON body.
fn call(request: ureq::Request, body: Value) -> (u16, Option<String>, Value) {
    let response = match request.timeout(Duration::from_secs(20)).send_json(body) {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let retry = response.header("retry-after").map(str::to_string);
    (
        response.status(),
        retry,
        response.into_json().unwrap_or(Value::Null),
    )
}

fn new_game(server: &TestServer, forwarded_for: Option<&str>) -> (u16, Option<String>, Value) {
    let mut request = ureq::post(&server.url("/api/games"));
    if let Some(addr) = forwarded_for {
        request = request.set("X-Forwarded-For", addr);
    }
    call(request, json!({"game": "xiangqi", "opponent": "friend"}))
}

/// Waits until the server holds `n` games in memory.
fn wait_for_games_in_memory(server: &TestServer, n: usize, within: Duration) {
    let start = Instant::now();
    while server.hub.games_in_memory() != n {
        assert!(
            start.elapsed() < within,
            "{} games in memory after {within:?}, not {n}",
            server.hub.games_in_memory()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn idle_games_leave_memory_and_come_back_from_the_database() {
    let db = TempDb::new("idle");
    let server = TestServer::with_options(
        store_at(&db),
        AppOptions {
            idle_after: Duration::from_millis(200),
            ..AppOptions::default()
        },
    );
    let (status, _, created) = new_game(&server, None);
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let (status, _, body) = call(
        ureq::post(&server.url(&format!("/api/games/{id}/move")))
            .set("Authorization", &format!("Bearer {token}")),
        json!({"move": "h3e3"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.hub.games_in_memory(), 1);
    wait_for_games_in_memory(&server, 0, Duration::from_secs(5));

    // Asked for again: read from the database, as it was.
    let state: Value = ureq::get(&server.url(&format!("/api/games/{id}")))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(state["ply"], 1, "{state}");
    assert_eq!(server.hub.games_in_memory(), 1);

    // Watched through a WebSocket: kept however long; dropped once the watcher leaves.
    let url = format!("ws://{}/api/games/{id}/ws", server.addr);
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(
        server.hub.games_in_memory(),
        1,
        "a watched game left memory"
    );
    ws.close(None).unwrap();
    while ws.read().is_ok() {}
    wait_for_games_in_memory(&server, 0, Duration::from_secs(5));
}

#[test]
fn one_client_creates_at_most_so_many_games_a_minute() {
    let db = TempDb::new("create");
    let server = TestServer::with_options(
        store_at(&db),
        AppOptions {
            games_per_minute: 3,
            ..AppOptions::default()
        },
    );
    for i in 0..3 {
        let (status, _, body) = new_game(&server, None);
        assert_eq!(status, 201, "game {i}: {body}");
    }
    let (status, retry, body) = new_game(&server, None);
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("too_many_games")),
        "{body}"
    );
    let retry: u64 = retry.expect("a Retry-After header").parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    // Importing is creating too.
    let (status, _, body) = call(
        ureq::post(&server.url("/api/import")),
        json!({"pgn": "[Game \"Chinese Chess\"]\n\n1. C2.5 *\n"}),
    );
    assert_eq!(status, 429, "{body}");
    // The X-Forwarded-For header is not trusted unless told: it changes nothing.
    let (status, _, _) = new_game(&server, Some("192.0.2.1"));
    assert_eq!(status, 429);
}

#[test]
fn behind_a_balancer_clients_are_counted_by_x_forwarded_for() {
    let db = TempDb::new("forwarded");
    let server = TestServer::with_options(
        store_at(&db),
        AppOptions {
            games_per_minute: 2,
            trust_forwarded_for: true,
            ..AppOptions::default()
        },
    );
    // The balancer appends the address it saw; a client may have sent its own before it.
    for _ in 0..2 {
        let (status, _, body) = new_game(&server, Some("203.0.113.9, 192.0.2.1"));
        assert_eq!(status, 201, "{body}");
    }
    let (status, _, _) = new_game(&server, Some("198.51.100.4, 192.0.2.1"));
    assert_eq!(status, 429, "the last entry is the client");
    let (status, _, body) = new_game(&server, Some("2001:db8::7"));
    assert_eq!(status, 201, "{body}");
    let (status, _, body) = new_game(&server, Some("not an address"));
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("X-Forwarded-For"),
        "{body}"
    );
}
