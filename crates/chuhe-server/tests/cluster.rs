//! Two servers on one database behave as one: each change is checked against the version
//! stored with the game, and a server whose copy is stale reloads it from the database.
//!
//! On one SQLite file (opened without its one-process lock, for the test only) and, when
//! `CHUHE_TEST_POSTGRES` is set (`scripts/with-postgres`), on PostgreSQL; without the
//! variable the PostgreSQL test fails under CI (`CI=true`) and says so elsewhere.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

/// A server on a loopback port over a store, in its own runtime.
type Server = common::TestServer;

impl common::TestServer {
    fn start(store: Arc<dyn store::Store>) -> Server {
        Server::with_options(
            store,
            AppOptions {
                engine_movetime: Duration::from_millis(20),
                ..AppOptions::default()
            },
        )
    }

    fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        call(
            ureq::post(&self.url(path)).set("Authorization", &format!("Bearer {token}")),
            Some(body),
        )
    }

    fn state(&self, id: &str) -> Value {
        let (status, body) = call(ureq::get(&self.url(&format!("/api/games/{id}"))), None);
        assert_eq!(status, 200, "{body}");
        body
    }
}

use common::call;

fn uci_moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"]["uci"].as_str().unwrap().to_string())
        .collect()
}

/// A game between friends created on `server`: its id and the two players' tokens.
fn friend_game(server: &Server) -> (String, String, String) {
    let (status, created) = call(
        ureq::post(&server.url("/api/games")),
        Some(json!({"game": "xiangqi", "opponent": "friend"})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let code = created["game"]["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap();
    let (status, joined) = call(
        ureq::post(&server.url(&format!("/api/games/{id}/join"))),
        Some(json!({"invite": code})),
    );
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().unwrap().to_string();
    (id, red, black)
}

fn error_code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("(no error code)")
}

/// Every scenario, on two servers over stores of one database.
fn scenarios(s1: &Server, s2: &Server, db: &dyn store::Store) {
    players_on_different_servers(s1, s2);
    a_resignation_on_one_server_ends_the_game_on_the_other(s1, s2, db);
    draw_offers_cross_servers(s1, s2);
    a_draw_declined_on_one_server_is_told_on_the_other(s1, s2);
    a_take_back_on_one_server_shows_on_the_other(s1, s2);
    racing_changes_never_both_win(s1, s2, db);
    an_engine_move_is_searched_by_one_server(s1, s2);
    a_claim_left_by_a_dead_server_is_taken_over(s1, s2, db);
}

/// An engine game created on `server` (the engine plays Black): its id and Red's token.
fn engine_game(server: &Server) -> (String, String) {
    let (status, created) = call(
        ureq::post(&server.url("/api/games")),
        Some(json!({"game": "xiangqi", "level": 0})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    (id, created["token"].as_str().unwrap().to_string())
}

/// Asks both servers for the game until it has `ply` moves (each ask may make a server
/// read the game again and want to search the engine's move).
fn wait_for_ply(servers: [&Server; 2], id: &str, ply: usize, within: Duration) {
    let start = Instant::now();
    while servers.iter().any(|s| s.state(id)["ply"] != ply) {
        assert!(
            start.elapsed() < within,
            "ply {ply} not reached in {within:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Both servers hold an engine game and see each of Red's moves (played on either): the
/// engine's reply is searched once, by one of them, and stored once.
fn an_engine_move_is_searched_by_one_server(s1: &Server, s2: &Server) {
    let (id, red) = engine_game(s1);
    let searched = || s1.hub.engines().searched() + s2.hub.engines().searched();
    let before = searched();
    for (i, m) in ["h3e3", "h1g3", "i1h1"].iter().enumerate() {
        let server = if i % 2 == 0 { s2 } else { s1 };
        let (status, body) = server.post(
            &format!("/api/games/{id}/move"),
            &red,
            json!({"move": m, "ply": 2 * i}),
        );
        assert_eq!(status, 200, "{body}");
        wait_for_ply([s1, s2], &id, 2 * i + 2, Duration::from_secs(20));
    }
    assert_eq!(searched() - before, 3, "three engine moves, three searches");
}

/// A server stored Red's move, claimed the engine's reply and died before storing it (its
/// claim stands in the database, nobody renews it): when the claim expires, a living server
/// searches the move.
fn a_claim_left_by_a_dead_server_is_taken_over(s1: &Server, s2: &Server, db: &dyn store::Store) {
    // What the dead server left: a game with Red's first move, and its claim on the reply.
    let (template, _) = engine_game(s1);
    let mut record = db.load(&template).unwrap().unwrap();
    record.id = format!("{template}x");
    record.moves.push(store::StoredMove {
        uci: "h3e3".into(),
        time_ms: 1_000,
    });
    db.create(&record).unwrap();
    let id = record.id;
    let lease = Duration::from_millis(1500);
    let start = Instant::now();
    let claimed = db
        .claim_engine_move(&id, 1, "a-server-that-died", lease)
        .unwrap();
    assert_eq!(claimed, store::EngineClaim::Won);
    let state = s2.state(&id);
    assert_eq!(
        (&state["ply"], &state["thinking"]),
        (&json!(1), &json!(true)),
        "{state}"
    );
    wait_for_ply([s1, s2], &id, 2, Duration::from_secs(20));
    let waited = start.elapsed();
    assert!(
        waited >= lease - Duration::from_millis(100),
        "moved after {waited:?}, inside the dead server's claim"
    );
}

/// Red moves on S1, Black on S2, and on: each server sees the other's moves.
fn players_on_different_servers(s1: &Server, s2: &Server) {
    let (id, red, black) = friend_game(s1);
    let path = format!("/api/games/{id}/move");
    for (i, mv) in ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1"]
        .iter()
        .enumerate()
    {
        let (server, token) = if i % 2 == 0 { (s1, &red) } else { (s2, &black) };
        let (status, body) = server.post(&path, token, json!({"move": mv, "ply": i}));
        assert_eq!(status, 200, "move {i} ({mv}): {body}");
        assert_eq!(body["ply"], i + 1);
    }
    let (a, b) = (s1.state(&id), s2.state(&id));
    assert_eq!(uci_moves(&a), ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1"]);
    assert_eq!(uci_moves(&a), uci_moves(&b));
    assert_eq!(
        (a["turn"].as_str(), b["turn"].as_str()),
        (Some("second"), Some("second"))
    );
}

/// Black resigns on S1; Red's move on S2 is then refused, and the database holds the
/// resignation and no move after it.
fn a_resignation_on_one_server_ends_the_game_on_the_other(
    s1: &Server,
    s2: &Server,
    db: &dyn store::Store,
) {
    let (id, red, black) = friend_game(s1);
    let mv = format!("/api/games/{id}/move");
    assert_eq!(s1.post(&mv, &red, json!({"move": "h3e3"})).0, 200);
    assert_eq!(s2.post(&mv, &black, json!({"move": "h10g8"})).0, 200);
    assert_eq!(s2.post(&mv, &red, json!({"move": "h1g3"})).0, 200);
    // S1 last saw ply 1; Black (to move) resigns there.
    let (status, body) = s1.post(&format!("/api/games/{id}/resign"), &black, json!({}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["status"], "resignation");
    assert_eq!(body["ply"], 3);
    let (status, body) = s2.post(&mv, &red, json!({"move": "i1h1"}));
    assert_eq!((status, error_code(&body)), (409, "game_over"), "{body}");
    let stored = db.load(&id).unwrap().unwrap();
    assert_eq!(stored.moves.len(), 3);
    assert_eq!(stored.result.unwrap().status, "resignation");
    assert_eq!(s2.state(&id)["result"]["status"], "resignation");
}

/// A draw offered on S1 is seen and accepted on S2; S1 then shows the draw.
fn draw_offers_cross_servers(s1: &Server, s2: &Server) {
    let (id, red, black) = friend_game(s1);
    let draw = format!("/api/games/{id}/draw");
    let (status, body) = s1.post(&draw, &red, json!({"action": "offer"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(s2.state(&id)["draw_offer"], "first");
    let (status, body) = s2.post(&draw, &black, json!({"action": "accept"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(s1.state(&id)["result"]["status"], "agreement");
}

/// Red offers a draw on S1, Black declines it on S2: S1 (where Red watches) says that the
/// offer was declined, as S2 does, not only that it is gone.
fn a_draw_declined_on_one_server_is_told_on_the_other(s1: &Server, s2: &Server) {
    let (id, red, black) = friend_game(s1);
    let draw = format!("/api/games/{id}/draw");
    let (status, body) = s1.post(&draw, &red, json!({"action": "offer"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(s2.state(&id)["draw_offer"], "first");
    let (status, body) = s2.post(&draw, &black, json!({"action": "decline"}));
    assert_eq!(status, 200, "{body}");
    let told =
        json!({"code": "draw_declined", "side": "second", "text": "Black declined the draw"});
    assert_eq!(body["notice"], told, "{body}");
    let seen = s1.state(&id);
    assert_eq!(seen["draw_offer"], Value::Null, "{seen}");
    assert_eq!(seen["notice"], told, "{seen}");
    // The notice goes with the next move, on both servers.
    let (status, body) = s1.post(
        &format!("/api/games/{id}/move"),
        &red,
        json!({"move": "h3e3"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(s1.state(&id)["notice"], Value::Null);
    assert_eq!(s2.state(&id)["notice"], Value::Null);
}

/// An engine game: a take-back on S1 is what S2 shows next.
fn a_take_back_on_one_server_shows_on_the_other(s1: &Server, s2: &Server) {
    let (status, created) = call(
        ureq::post(&s1.url("/api/games")),
        Some(json!({"game": "xiangqi", "level": 0})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let mv = format!("/api/games/{id}/move");
    for (ply, m) in [(0, "h3e3"), (2, "h1g3")] {
        let (status, body) = s1.post(&mv, &red, json!({"move": m, "ply": ply}));
        assert_eq!(status, 200, "{body}");
        let start = Instant::now();
        while s1.state(&id)["ply"] != ply + 2 {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the engine did not answer"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert_eq!(s2.state(&id)["ply"], 4);
    let (status, body) = s1.post(&format!("/api/games/{id}/takeback"), &red, json!({}));
    assert_eq!((status, &body["ply"]), (200, &json!(2)), "{body}");
    let seen = s2.state(&id);
    assert_eq!(seen["ply"], 2, "{seen}");
    assert_eq!(uci_moves(&seen), uci_moves(&s1.state(&id)));
}

/// Red resigns on S1 while aborting on S2, at the same moment, many times: both end the game,
/// so one of the two wins each time, the other is refused (the result is final), and the
/// database agrees with the winner.
fn racing_changes_never_both_win(s1: &Server, s2: &Server, db: &dyn store::Store) {
    for round in 0..6 {
        let (id, red, _) = friend_game(s1);
        // Both servers hold the game.
        s1.state(&id);
        s2.state(&id);
        let barrier = Arc::new(Barrier::new(2));
        let (resigned, aborted) = std::thread::scope(|s| {
            let b = barrier.clone();
            let (id, red) = (&id, &red);
            let resign = s.spawn(move || {
                b.wait();
                s1.post(&format!("/api/games/{id}/resign"), red, json!({}))
            });
            let b = barrier.clone();
            let abort = s.spawn(move || {
                b.wait();
                s2.post(&format!("/api/games/{id}/abort"), red, json!({}))
            });
            (resign.join().unwrap(), abort.join().unwrap())
        });
        let stored = db.load(&id).unwrap().unwrap();
        match (resigned.0, aborted.0) {
            (200, 409) => {
                assert_eq!(
                    stored.result.unwrap().status,
                    "resignation",
                    "round {round}"
                );
                assert_eq!(aborted.1["error"]["code"], "game_over");
            }
            (409, 200) => {
                assert_eq!(stored.result.unwrap().status, "aborted", "round {round}");
                assert_eq!(resigned.1["error"]["code"], "game_over");
            }
            other => {
                panic!("round {round}: both or neither won: {other:?} {resigned:?} {aborted:?}")
            }
        }
        assert_eq!(s1.state(&id)["ply"], s2.state(&id)["ply"]);
        assert_eq!(s1.state(&id)["result"], s2.state(&id)["result"]);
    }
}

#[test]
fn two_servers_on_one_sqlite_file_act_as_one() {
    let path = std::env::temp_dir().join(format!("chuhe-cluster-{}.sqlite3", std::process::id()));
    let db = path.display().to_string();
    let stores: Vec<Arc<dyn store::Store>> = (0..3)
        .map(|_| Arc::new(store::SqliteStore::open_shared(&db).unwrap()) as Arc<dyn store::Store>)
        .collect();
    {
        let s1 = Server::start(stores[0].clone());
        let s2 = Server::start(stores[1].clone());
        scenarios(&s1, &s2, stores[2].as_ref());
    }
    drop(stores);
    for ext in ["", "-wal", "-shm", "-lock"] {
        let _ = std::fs::remove_file(format!("{db}{ext}"));
    }
}

#[test]
fn two_servers_on_one_postgresql_database_act_as_one() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let stores: Vec<Arc<dyn store::Store>> = (0..3)
        .map(|_| Arc::new(store::PostgresStore::connect(&url).unwrap()) as Arc<dyn store::Store>)
        .collect();
    let s1 = Server::start(stores[0].clone());
    let s2 = Server::start(stores[1].clone());
    scenarios(&s1, &s2, stores[2].as_ref());
    a_websocket_on_one_server_sees_moves_made_on_the_other(&s1, &s2);
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

/// The next state the socket receives; fails after `within` without one.
fn next_state(ws: &mut Socket, within: Duration) -> Value {
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(within)).unwrap();
    }
    loop {
        let message = ws.read().expect("no state came over the WebSocket in time");
        if let tungstenite::Message::Text(text) = message {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["type"] == "state" {
                return v["state"].clone();
            }
        }
    }
}

/// PostgreSQL's `LISTEN`/`NOTIFY`: a spectator's WebSocket on S2 receives each move made on
/// S1 without sending anything.
fn a_websocket_on_one_server_sees_moves_made_on_the_other(s1: &Server, s2: &Server) {
    let (id, red, black) = friend_game(s1);
    let url = format!("{}/api/games/{id}/ws", s2.base.replace("http://", "ws://"));
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    let first = next_state(&mut ws, Duration::from_secs(5));
    assert_eq!(first["ply"], 0, "{first}");
    for (ply, token, mv) in [(1, &red, "h3e3"), (2, &black, "h10g8")] {
        let t = Instant::now();
        let (status, body) = s1.post(&format!("/api/games/{id}/move"), token, json!({"move": mv}));
        assert_eq!(status, 200, "{body}");
        loop {
            let s = next_state(&mut ws, Duration::from_secs(5));
            if s["ply"] == ply {
                assert_eq!(uci_moves(&s).last().unwrap(), mv);
                eprintln!("S2's WebSocket had S1's move {ply} after {:?}", t.elapsed());
                break;
            }
        }
    }
}

/// A TCP relay in front of PostgreSQL that the test can take down (refusing connections and
/// cutting those open, as a database restart does) and bring back on the same port.
struct Relay {
    port: u16,
    target: String,
    stop: Arc<std::sync::atomic::AtomicBool>,
    open: Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Relay {
    fn start(port: u16, target: &str) -> Relay {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let open = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (stop2, open2, target2) = (stop.clone(), open.clone(), target.to_string());
        let thread = std::thread::spawn(move || {
            while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
                let Ok((client, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                client.set_nonblocking(false).unwrap();
                let Ok(server) = std::net::TcpStream::connect(&target2) else {
                    continue;
                };
                let mut open = open2.lock().unwrap();
                open.push(client.try_clone().unwrap());
                open.push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Relay {
            port,
            target: target.to_string(),
            stop,
            open,
            thread: Some(thread),
        }
    }

    /// Refuses new connections and cuts the open ones.
    fn take_down(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
    }

    fn bring_back(&mut self) {
        *self = Relay::start(self.port, &self.target);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.take_down();
    }
}

fn get_raw(url: &str) -> (u16, Option<String>, Value) {
    let response = match ureq::get(url).timeout(Duration::from_secs(20)).call() {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let retry = response.header("Retry-After").map(String::from);
    (
        response.status(),
        retry,
        response.into_json().unwrap_or(Value::Null),
    )
}

#[test]
fn a_server_heals_when_postgresql_restarts_or_comes_back() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    // postgres://USER@HOST:PORT/DB, reached through the relay.
    let (head, rest) = url.split_once('@').unwrap();
    let (target, db) = rest.split_once('/').unwrap();
    let mut relay = Relay::start(0, target);
    let relayed = format!(
        "{head}@127.0.0.1:{}/{db}?application_name=chuhe-heal-test",
        relay.port
    );
    let store: Arc<dyn store::Store> = Arc::new(store::PostgresStore::connect(&relayed).unwrap());
    let server = Server::start(store);
    let (id, red, black) = friend_game(&server);
    let mv = format!("/api/games/{id}/move");
    assert_eq!(server.post(&mv, &red, json!({"move": "h3e3"})).0, 200);

    // Every connection of the server is cut (as a restart of PostgreSQL does): the next
    // requests open new ones and answer as if nothing happened.
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let cut: i64 = admin
        .query_one(
            "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = 'chuhe-heal-test') AS cut",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(cut >= 1, "the server's connections were cut");
    for _ in 0..6 {
        let (status, _, body) = get_raw(&server.url(&format!("/api/games/{id}")));
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(server.post(&mv, &black, json!({"move": "h10g8"})).0, 200);

    // The database is away: 503 with Retry-After, nothing changed.
    relay.take_down();
    let (status, retry, body) = get_raw(&server.url(&format!("/api/games/{id}")));
    assert_eq!((status, retry.as_deref()), (503, Some("1")), "{body}");
    assert_eq!(error_code(&body), "database_unavailable");
    let (status, body) = server.post(&mv, &red, json!({"move": "h1g3"}));
    assert_eq!(
        (status, error_code(&body)),
        (503, "database_unavailable"),
        "{body}"
    );

    // It is back: the server heals within the back-off, without a restart of its own.
    relay.bring_back();
    let start = Instant::now();
    loop {
        let (status, _, body) = get_raw(&server.url(&format!("/api/games/{id}")));
        if status == 200 {
            assert_eq!(uci_moves(&body), ["h3e3", "h10g8"]);
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "did not heal: {body}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, body) = server.post(&mv, &red, json!({"move": "h1g3"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ply"], 3);
}
