//! A bounded load test on loopback: many games at once, every move sent over WebSocket by
//! the player to move, then every acknowledged move looked up in the database.
//!
//! `LOAD_GAMES` (default 40) games of up to `LOAD_MOVES` (default 20) moves, on SQLite and,
//! when `CHUHE_TEST_POSTGRES` is set (scripts/with-postgres), on PostgreSQL. The figures
//! (moves/s, p50 and p99 latency from sending a move to its acknowledgement) are printed;
//! `scripts/bench-serve` runs 500 × 40 in release mode for docs/PERFORMANCE.md.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe_server::{http, store, App, AppOptions};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[allow(dead_code)]
mod common;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The next message of type `kind`, skipping others (old states included).
async fn next(ws: &mut Ws, kind: &str, min_ply: u64) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("no message within a minute")
            .expect("the socket closed")
            .expect("the socket failed");
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["type"] == "error" && kind != "error" {
                panic!("refused: {v}");
            }
            if v["type"] == kind && (kind != "state" || v["state"]["ply"].as_u64() >= Some(min_ply))
            {
                return v;
            }
        }
    }
}

/// One game between two sockets: the moves acknowledged and each one's latency.
async fn one_game(
    base: String,
    ws_base: String,
    moves: usize,
    seed: u64,
    opening: Arc<tokio::sync::Semaphore>,
) -> (String, Vec<String>, Vec<Duration>) {
    // Games are opened a few at a time (opening is not what is measured, and hundreds of
    // simultaneous connects overflow the listen queue); then all play at once.
    let permit = opening.acquire_owned().await.unwrap();
    let (created, joined): (Value, Value) = tokio::task::spawn_blocking(move || {
        let created: Value = ureq::post(&format!("{base}/api/games"))
            .send_json(json!({"game": "xiangqi", "opponent": "friend"}))
            .unwrap()
            .into_json()
            .unwrap();
        let id = created["game"]["id"].as_str().unwrap();
        let code = created["game"]["invite"]
            .as_str()
            .unwrap()
            .split("invite=")
            .nth(1)
            .unwrap();
        let joined = ureq::post(&format!("{base}/api/games/{id}/join"))
            .send_json(json!({"invite": code}))
            .unwrap()
            .into_json()
            .unwrap();
        (created, joined)
    })
    .await
    .unwrap();
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let black = joined["token"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for token in [&red, &black] {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("{ws_base}/api/games/{id}/ws?token={token}"))
                .await
                .unwrap();
        sockets.push(ws);
    }
    drop(permit);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = next(&mut sockets[0], "state", 0).await["state"].clone();
    let (mut acked, mut latencies) = (Vec::new(), Vec::new());
    for ply in 0..moves {
        let legal = state["legal"].as_array().unwrap();
        if !state["result"].is_null() || legal.is_empty() {
            break;
        }
        let mv = legal[rng.gen_range(0..legal.len())]["uci"]
            .as_str()
            .unwrap()
            .to_string();
        let mover = usize::from(state["turn"] != "first");
        let sent = Instant::now();
        let message = json!({"type": "move", "move": mv, "ply": ply}).to_string();
        sockets[mover]
            .send(Message::Text(message.into()))
            .await
            .unwrap();
        let ack = next(&mut sockets[mover], "ack", 0).await;
        latencies.push(sent.elapsed());
        assert_eq!(ack["ply"], ply + 1);
        acked.push(mv);
        state = next(&mut sockets[1 - mover], "state", ply as u64 + 1).await["state"].clone();
    }
    for mut ws in sockets {
        let _ = ws.close(None).await;
    }
    (id, acked, latencies)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Runs the load on a server over `db`, then checks the database; prints the figures.
fn load(db: &str, label: &str) {
    let games = env_or("LOAD_GAMES", 40);
    let moves = env_or("LOAD_MOVES", 20);
    let store: Arc<dyn store::Store> = Arc::from(store::open(db).unwrap());
    let server = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(64)
        .build()
        .unwrap();
    let listener = server
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let hub = App::new(store.clone(), AppOptions::default());
    server.spawn(async move { axum::serve(listener, http::router(hub)).await });

    let client = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    let results = client.block_on(async {
        let opening = Arc::new(tokio::sync::Semaphore::new(16));
        let tasks: Vec<_> = (0..games)
            .map(|g| {
                tokio::spawn(one_game(
                    format!("http://{addr}"),
                    format!("ws://{addr}"),
                    moves,
                    g as u64,
                    opening.clone(),
                ))
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    let wall = started.elapsed();
    server.shutdown_background();

    // Every acknowledged move is in the database, in order.
    let mut all: Vec<Duration> = Vec::new();
    let mut total = 0;
    for (id, acked, latencies) in &results {
        let stored = store.load(id).unwrap().expect("the game is stored");
        let stored: Vec<&str> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(
            stored,
            acked.iter().map(String::as_str).collect::<Vec<_>>(),
            "game {id}"
        );
        total += acked.len();
        all.extend(latencies);
    }
    all.sort();
    println!(
        "load {label}: {games} games × up to {moves} moves: {total} moves acknowledged and found \
         in the database in {:.2} s: {:.0} moves/s, latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        wall.as_secs_f64(),
        total as f64 / wall.as_secs_f64(),
        percentile(&all, 0.5).as_secs_f64() * 1e3,
        percentile(&all, 0.99).as_secs_f64() * 1e3,
        all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    assert!(total >= games, "each game got moves");
}

#[test]
fn load_on_sqlite() {
    let path = std::env::temp_dir().join(format!("chuhe-load-{}.sqlite3", std::process::id()));
    let db = path.display().to_string();
    load(&db, "sqlite");
    for ext in ["", "-wal", "-shm", "-lock"] {
        let _ = std::fs::remove_file(format!("{db}{ext}"));
    }
}

#[test]
fn load_on_postgres() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    load(&url, "postgresql");
}
