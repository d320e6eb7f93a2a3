//! The engine's queue under load: 500 games created at once against the engine, through the
//! HTTP API, each get the engine's reply, while the process's threads and memory stay bounded
//! and requests are answered without waiting for the engine.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe_server::{http, store, App, AppOptions};
use serde_json::{json, Value};

const GAMES: usize = 500;
const CLIENTS: usize = 10;
const ENGINE_THREADS: usize = 2;

/// A number from `/proc/self/status` (`Threads`, `VmRSS` in kB).
fn proc_status(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}

fn call(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let request = agent.request(method, url);
    let response = match body {
        Some(b) => request
            .set("Content-Type", "application/json")
            .send_string(&b.to_string()),
        None => request.call(),
    };
    match response {
        Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{method} {url}: {e}"),
    }
}

#[test]
fn five_hundred_engine_games_wait_their_turn_on_a_bounded_pool() {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        // The runtime `chuhe serve` builds (bounded blocking threads).
        let runtime = chuhe_server::build_runtime().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            let store = Arc::new(store::SqliteStore::open(":memory:").unwrap());
            let hub = App::new(
                store,
                AppOptions {
                    engine_movetime: Duration::from_millis(20),
                    engine_threads: ENGINE_THREADS,
                    ..AppOptions::default()
                },
            );
            tokio::select! {
                _ = axum::serve(listener, http::router(hub)) => {}
                _ = stopped => {}
            }
        });
        runtime.shutdown_background();
    });
    let base = format!("http://{}", addr_rx.recv().unwrap());

    // Threads and memory, sampled all along.
    let sampling = Arc::new(AtomicBool::new(true));
    let (max_threads, max_rss_kb) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let sampler = {
        let (sampling, max_threads, max_rss_kb) =
            (sampling.clone(), max_threads.clone(), max_rss_kb.clone());
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                max_threads.fetch_max(proc_status("Threads"), Ordering::Relaxed);
                max_rss_kb.fetch_max(proc_status("VmRSS"), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };

    // 500 games at level 20 where the engine plays first, created by 10 clients at once.
    let started = Instant::now();
    let slowest_request = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (base, slowest_request) = (base.clone(), slowest_request.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(20))
                    .build();
                (0..GAMES / CLIENTS)
                    .map(|_| {
                        let t = Instant::now();
                        let (status, created) = call(
                            &agent,
                            "POST",
                            &format!("{base}/api/games"),
                            Some(json!({"game": "xiangqi", "level": 20, "side": "second"})),
                        );
                        let ms = t.elapsed().as_millis() as usize;
                        slowest_request.fetch_max(ms, Ordering::Relaxed);
                        assert_eq!(status, 201, "{created}");
                        (
                            created["game"]["id"].as_str().unwrap().to_string(),
                            created["token"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let games: Vec<(String, String)> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    let created_in = started.elapsed();
    assert_eq!(games.len(), GAMES);

    // While the queue is long, a state request is answered at once (it does not wait for the
    // engine): the last game created is still waiting, or just answered.
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .build();
    let t = Instant::now();
    let (status, _) = call(
        &agent,
        "GET",
        &format!("{base}/api/games/{}", games[GAMES - 1].0),
        None,
    );
    assert_eq!(status, 200);
    let state_ms = t.elapsed().as_millis();

    // Every game gets the engine's reply.
    let deadline = Instant::now() + Duration::from_secs(60);
    for (id, _) in &games {
        loop {
            let (status, s) = call(&agent, "GET", &format!("{base}/api/games/{id}"), None);
            assert_eq!(status, 200, "{s}");
            if s["ply"] == 1 && s["thinking"] == false {
                assert_eq!(s["turn"], "second");
                break;
            }
            assert!(Instant::now() < deadline, "game {id} got no reply: {s}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let replied_in = started.elapsed();

    // Replies come in order in each game: 20 games go on, two more moves each.
    for (id, token) in games.iter().take(20) {
        for ply in [3, 5] {
            let (_, s) = call(&agent, "GET", &format!("{base}/api/games/{id}"), None);
            let mv = s["legal"][0]["uci"].as_str().unwrap().to_string();
            let response = agent
                .post(&format!("{base}/api/games/{id}/move"))
                .set("Authorization", &format!("Bearer {token}"))
                .set("Content-Type", "application/json")
                .send_string(&json!({"move": mv, "ply": ply - 2}).to_string())
                .unwrap();
            assert_eq!(response.status(), 200);
            let until = Instant::now() + Duration::from_secs(20);
            loop {
                let (_, s) = call(&agent, "GET", &format!("{base}/api/games/{id}"), None);
                if s["ply"] == ply && s["thinking"] == false {
                    let moves = s["moves"].as_array().unwrap();
                    assert_eq!(moves.len(), ply);
                    assert_eq!(moves[ply - 2]["text"]["uci"], mv.as_str());
                    break;
                }
                assert!(Instant::now() < until, "no reply at ply {ply}: {s}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    sampling.store(false, Ordering::Relaxed);
    sampler.join().unwrap();
    let threads = max_threads.load(Ordering::Relaxed);
    let rss_mb = max_rss_kb.load(Ordering::Relaxed) / 1024;
    eprintln!(
        "{GAMES} engine games: created in {created_in:?} (slowest request {} ms), \
         all replied in {replied_in:?}; a state request in the queue took {state_ms} ms; \
         at most {threads} threads, {rss_mb} MB resident",
        slowest_request.load(Ordering::Relaxed)
    );
    // The test's own threads (harness, clients, sampler) and the server's: its runtime (a
    // thread per core, at most MAX_BLOCKING_THREADS blocking), the engine workers and their
    // searches. One thread per game (the old way) would be hundreds.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let bound = 4 + CLIENTS + cores + 2 * ENGINE_THREADS + 48;
    assert!(threads <= bound, "{threads} threads (bound {bound})");
    assert!(rss_mb < 400, "{rss_mb} MB resident");
    assert!(state_ms < 2_000, "a state request took {state_ms} ms");

    let _ = stop.send(());
    server.join().unwrap();
}
