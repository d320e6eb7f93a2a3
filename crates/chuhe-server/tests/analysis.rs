//! The analysis board's server side: positions checked and drawn
//! (`POST /api/analysis/position`), and analyses streamed over `GET /api/analysis/ws` within
//! their limits — a closed page stops its search, a new request replaces the old, a game's
//! move preempts an analysis (which is paused, then resumes), the queue and each client
//! address have their bounds, bad input gets the rules core's typed errors.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe::{GameKind, MoveNotation};
use chuhe_server::analysis::AnalysisOptions;
use chuhe_server::{store, AppOptions};
use serde_json::{json, Value};

#[allow(dead_code)]
mod common;

use common::{call, TestServer};

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn server(options: AppOptions) -> TestServer {
    let store = Arc::new(store::SqliteStore::open(":memory:").unwrap());
    TestServer::with_options(store, options)
}

/// A server with `threads` engine workers and these analysis settings.
fn server_with(threads: usize, analysis: AnalysisOptions) -> TestServer {
    server(AppOptions {
        engine_threads: threads,
        engine_movetime: Duration::from_millis(100),
        analysis,
        ..AppOptions::default()
    })
}

fn connect(server: &TestServer) -> Socket {
    let (mut ws, _) =
        tungstenite::connect(format!("ws://{}/api/analysis/ws", server.addr)).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    }
    ws
}

fn send(ws: &mut Socket, message: Value) {
    ws.send(tungstenite::Message::Text(message.to_string().into()))
        .unwrap();
}

fn analyse(ws: &mut Socket, id: u64, position: &str, moves: &[&str], multipv: usize) {
    send(
        ws,
        json!({"type": "analyse", "id": id, "game": "xiangqi", "position": position,
               "moves": moves, "multipv": multipv}),
    );
}

/// The next message, if one comes within `within`.
fn next_within(ws: &mut Socket, within: Duration) -> Option<Value> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        match ws.read() {
            Ok(tungstenite::Message::Text(text)) => {
                return Some(serde_json::from_str(text.as_str()).unwrap())
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("the socket failed: {e}"),
        }
    }
    None
}

/// The messages up to and including the first that `until` accepts; fails after `within`.
fn read_until(ws: &mut Socket, within: Duration, until: impl Fn(&Value) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(m) = next_within(ws, left) else {
            panic!("nothing matched within {within:?}; seen: {seen:?}");
        };
        let done = until(&m);
        seen.push(m);
        if done {
            return seen;
        }
    }
}

fn is(kind: &str, id: u64) -> impl Fn(&Value) -> bool + '_ {
    move |m| m["type"] == kind && m["id"] == id
}

fn wait_until(what: &str, within: Duration, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < within, "{what} (after {within:?})");
        std::thread::sleep(Duration::from_millis(5));
    }
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn a_position_is_checked_and_drawn_by_the_rules_core() {
    let server = server(AppOptions::default());
    let url = server.url("/api/analysis/position");
    let (status, view) = call(
        ureq::post(&url),
        Some(
            json!({"game": "xiangqi", "position": "start", "moves": ["h3e3", "h10g8"],
                    "flip": true, "glyphs": "latin"}),
        ),
    );
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["game"], "xiangqi");
    assert_eq!(
        view["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!((&view["turn"], &view["ply"]), (&json!("first"), &json!(2)));
    assert_eq!(view["check"], false);
    assert_eq!(view["moves"][0]["ply"], 1);
    assert_eq!(view["moves"][0]["coords"], "h3-e3");
    let texts = &view["moves"][0]["text"];
    assert_eq!(
        (
            &texts["uci"],
            &texts["wxf"],
            &texts["chinese"],
            &texts["pmn"]
        ),
        (
            &json!("h3e3"),
            &json!("C2=5"),
            &json!("炮二平五"),
            &json!("h3-e3")
        )
    );
    assert!(view["moves"][0].get("time_ms").is_none());
    let legal = view["legal"].as_array().unwrap();
    assert!(legal.iter().any(|m| m["uci"] == "h1g3"
        && m["from"] == "h1"
        && m["to"] == "g3"
        && m["pmn"] == "h1-g3"));
    assert!(view["result"].is_null());
    let svg = view["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    let keys: Vec<&String> = view.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "game", "start", "feen", "fen", "turn", "ply", "check", "moves", "legal", "result",
            "svg"
        ]
    );

    // Mate: the result, no legal move.
    let (status, over) = call(
        ureq::post(&url),
        Some(
            json!({"game": "xiangqi", "position": "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
                    "moves": ["a1d1"]}),
        ),
    );
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["result"]["status"], "checkmate");
    assert_eq!(over["result"]["winner"], "first");
    assert_eq!(over["check"], true);
    assert_eq!(over["legal"], json!([]));
    // Xiongqi has no FEN.
    let (status, xiongqi) = call(ureq::post(&url), Some(json!({"game": "xiongqi"})));
    assert_eq!(status, 200, "{xiongqi}");
    assert!(xiongqi["fen"].is_null());
    assert_eq!(xiongqi["moves"], json!([]));
}

#[test]
fn bad_positions_and_moves_get_the_rules_cores_typed_errors() {
    let server = server(AppOptions::default());
    let url = server.url("/api/analysis/position");
    let post = |body: Value| call(ureq::post(&url), Some(body));

    let (status, body) = post(json!({"game": "chess"}));
    assert_eq!((status, &body["error"]["code"]), (400, &json!("bad_game")));

    // A position the rules refuse: two red generals.
    let bad = "4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1";
    let expected = GameKind::Xiangqi.new_game(bad).err().unwrap().to_string();
    let (status, body) = post(json!({"game": "xiangqi", "position": bad}));
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_position"))
    );
    assert_eq!(body["error"]["params"]["message"], expected);
    // Each problem also as a code with parameters, for the page to word in its language.
    let problems = body["error"]["params"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["code"], "generals_count");
    assert_eq!(problems[0]["params"], json!({"side": "first", "n": "2"}));
    assert_eq!(problems[0]["location"], "board");
    // No black general, and an elephant off its points: two problems.
    let (_, body) =
        post(json!({"game": "xiangqi", "position": "9/9/9/9/9/9/9/9/4E4/4K4 w - - 0 1"}));
    let codes: Vec<(&str, &str)> = body["error"]["params"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["code"].as_str().unwrap(), p["location"].as_str().unwrap()))
        .collect();
    assert_eq!(
        codes,
        [("no_general", "board"), ("elephant_point", "e2")],
        "{body}"
    );
    // A hand holding one's own piece: coded too, with both sides named.
    let own = "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR R/ X/x";
    let (_, body) = post(json!({"game": "xiangqi", "position": own}));
    let problem = &body["error"]["params"]["problems"][0];
    assert_eq!(problem["code"], "hand_own", "{body}");
    assert_eq!(problem["location"], "first hand");
    assert_eq!(
        problem["params"],
        json!({"piece": "R", "side": "first", "other": "second"})
    );

    // The second move is illegal where it stands.
    let mut game = GameKind::Xiangqi.new_game("start").unwrap();
    game.play_text("h3e3", MoveNotation::Uci).unwrap();
    let why = game
        .play_text("h3e3", MoveNotation::Uci)
        .err()
        .unwrap()
        .to_string();
    let (status, body) = post(json!({"game": "xiangqi", "moves": ["h3e3", "h3e3"]}));
    assert_eq!((status, &body["error"]["code"]), (400, &json!("bad_move")));
    assert_eq!(
        body["error"]["params"],
        json!({"index": 2, "move": "h3e3", "message": why})
    );

    // Bounded input.
    let many = vec!["h3e3"; 2001];
    let (status, body) = post(json!({"game": "xiangqi", "moves": many}));
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_request"))
    );
    let (status, body) = post(json!({"game": "xiangqi", "position": "x".repeat(501)}));
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_request"))
    );
    let (status, body) = post(json!({"game": "xiangqi", "glyphs": "runes"}));
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_request"))
    );
    let (status, body) = post(json!({"game": "xiangqi", "colour": "red"}));
    assert_eq!((status, &body["error"]["code"]), (422, &json!("bad_json")));

    // The page's own routes.
    for page in ["/analysis", "/editor"] {
        let response = ureq::get(&server.url(page)).call().unwrap();
        assert_eq!(response.status(), 200);
        assert!(response.into_string().unwrap().contains("<html"));
    }
}

#[test]
fn lines_stream_in_every_notation_until_the_limit_or_a_stop() {
    let server = server_with(
        2,
        AnalysisOptions {
            depth: 5,
            ..AnalysisOptions::default()
        },
    );
    let mut ws = connect(&server);
    analyse(&mut ws, 7, "start", &["h3e3"], 2);
    let seen = read_until(&mut ws, 10 * SECOND, is("done", 7));
    assert_eq!(seen[0], json!({"type": "queued", "id": 7, "ahead": 0}));
    assert_eq!(
        seen.last().unwrap(),
        &json!({"type": "done", "id": 7, "reason": "limit"})
    );
    let lines: Vec<&Value> = seen.iter().filter(|m| m["type"] == "line").collect();
    assert!(lines.iter().any(|l| l["multipv"] == 2));
    assert!(lines.iter().any(|l| l["depth"] == 5));
    for line in &lines {
        assert_eq!(line["id"], 7);
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "type", "id", "depth", "seldepth", "multipv", "score", "wdl", "bound", "nodes",
                "nps", "ms", "pv"
            ]
        );
        assert!(line["score"].get("cp").is_some() || line["score"].get("mate").is_some());
        let wdl = &line["wdl"];
        let sum = ["win", "draw", "loss"]
            .iter()
            .map(|k| wdl[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(sum, 1000);
        let pv = line["pv"].as_object().unwrap();
        for notation in ["uci", "pmn", "wxf", "chinese", "iccs"] {
            assert_eq!(
                pv[notation].as_array().unwrap().len(),
                pv["uci"].as_array().unwrap().len(),
                "{notation}"
            );
        }
    }
    // Black to move: the first line's first move is Black's, in every notation.
    let first = &lines[0]["pv"];
    let mut game = GameKind::Xiangqi.new_game("start").unwrap();
    game.play_text("h3e3", MoveNotation::Uci).unwrap();
    let texts = game
        .move_texts(first["uci"][0].as_str().unwrap(), MoveNotation::Uci)
        .unwrap();
    assert_eq!(first["wxf"][0], texts["wxf"]);
    assert_eq!(first["chinese"][0], texts["chinese"]);

    // A stop: `done` with `stopped`, and the search ends.
    let deep = server_with(1, AnalysisOptions::default());
    let mut ws = connect(&deep);
    analyse(&mut ws, 8, "start", &[], 1);
    read_until(&mut ws, 10 * SECOND, is("line", 8));
    send(&mut ws, json!({"type": "stop"}));
    read_until(&mut ws, 5 * SECOND, is("done", 8))
        .iter()
        .filter(|m| m["type"] == "done")
        .for_each(|m| assert_eq!(m["reason"], "stopped"));
    wait_until("the search stops", SECOND, || {
        deep.hub.engines().tasks_running() == 0
    });
    assert!(
        next_within(&mut ws, Duration::from_millis(300)).is_none(),
        "nothing after done"
    );
    send(&mut ws, json!({"type": "ping"}));
    assert_eq!(
        next_within(&mut ws, 5 * SECOND),
        Some(json!({"type": "pong"}))
    );
}

#[test]
fn closing_the_page_stops_its_search() {
    let server = server_with(1, AnalysisOptions::default());
    let mut ws = connect(&server);
    analyse(&mut ws, 1, "start", &[], 3);
    read_until(&mut ws, 10 * SECOND, is("line", 1));
    assert_eq!(server.hub.engines().tasks_running(), 1);
    ws.close(None).unwrap();
    let _ = next_within(&mut ws, Duration::from_millis(100));
    drop(ws);
    let closed = Instant::now();
    wait_until("the search stops", 2 * SECOND, || {
        server.hub.engines().tasks_running() == 0
    });
    eprintln!(
        "the search stopped {:?} after the page closed",
        closed.elapsed()
    );
    assert_eq!(server.hub.engines().tasks_waiting(), 0);
}

#[test]
fn a_new_request_replaces_the_running_one() {
    let server = server_with(2, AnalysisOptions::default());
    let mut ws = connect(&server);
    analyse(&mut ws, 1, "start", &[], 1);
    read_until(&mut ws, 10 * SECOND, is("line", 1));
    analyse(&mut ws, 2, "start", &["h3e3"], 1);
    let seen = read_until(&mut ws, 10 * SECOND, is("line", 2));
    let done = seen
        .iter()
        .position(is("done", 1))
        .expect("the first is done");
    assert_eq!(seen[done]["reason"], "stopped");
    let queued = seen.iter().position(is("queued", 2)).unwrap();
    assert!(done < queued, "{seen:?}");
    assert!(
        seen[done..]
            .iter()
            .all(|m| m["id"] != 1 || m["type"] == "done"),
        "no line of the first after its done: {seen:?}"
    );
    // One search for the socket.
    assert_eq!(server.hub.engines().tasks_running(), 1);
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..20 {
        if let Some(m) = next_within(&mut ws, Duration::from_millis(10)) {
            assert_eq!(m["id"], 2, "{m}");
        }
    }
}

#[test]
fn a_games_move_goes_first_and_the_analysis_resumes() {
    let server = server_with(1, AnalysisOptions::default());
    let mut ws = connect(&server);
    analyse(&mut ws, 5, "start", &[], 1);
    let lines = read_until(&mut ws, 10 * SECOND, |m| {
        m["type"] == "line" && m["depth"].as_u64() >= Some(6)
    });
    let deepest = lines.last().unwrap()["depth"].as_u64().unwrap();
    // The engine plays Red: its first move needs the one worker.
    let asked = Instant::now();
    let (status, created) = call(
        ureq::post(&server.url("/api/games")),
        Some(json!({"game": "xiangqi", "level": 20, "side": "second"})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let seen = read_until(&mut ws, 10 * SECOND, is("paused", 5));
    assert!(seen.iter().all(|m| m["type"] != "done"), "{seen:?}");
    let after_pause = read_until(&mut ws, 10 * SECOND, is("line", 5));
    assert!(
        after_pause.iter().any(is("queued", 5)),
        "queued again before its lines: {after_pause:?}"
    );
    let resumed = after_pause.last().unwrap();
    assert!(
        resumed["depth"].as_u64().unwrap() >= deepest,
        "no line shallower than one sent: {resumed} after depth {deepest}"
    );
    assert!(server.hub.engines().preempted() >= 1);
    // The engine's move was made meanwhile, in about its time.
    wait_until("the engine moves", 5 * SECOND, || {
        let (_, state) = call(ureq::get(&server.url(&format!("/api/games/{id}"))), None);
        state["ply"] == 1
    });
    let (_, state) = call(ureq::get(&server.url(&format!("/api/games/{id}"))), None);
    let took = state["moves"][0]["time_ms"].as_u64().unwrap();
    eprintln!(
        "the engine's move took {took} ms (movetime 100 ms), answered {:?} after the game was asked for",
        asked.elapsed()
    );
    assert!(took < 400, "the engine's move waited: {took} ms");
}

#[test]
fn the_queue_has_its_bound() {
    let server = server_with(
        1,
        AnalysisOptions {
            queue: 1,
            ..AnalysisOptions::default()
        },
    );
    let (mut a, mut b, mut c) = (connect(&server), connect(&server), connect(&server));
    analyse(&mut a, 1, "start", &[], 1);
    read_until(&mut a, 10 * SECOND, is("line", 1));
    analyse(&mut b, 2, "start", &["h3e3"], 1);
    let queued = read_until(&mut b, 5 * SECOND, is("queued", 2));
    assert_eq!(queued.last().unwrap()["ahead"], 0);
    // The queue holds one: the next is refused, and told when to try again.
    analyse(&mut c, 3, "start", &["h1g3"], 1);
    let refused = read_until(&mut c, 5 * SECOND, is("error", 3));
    let error = &refused.last().unwrap()["error"];
    assert_eq!(error["code"], "analysis_busy", "{error}");
    assert_eq!(
        (&error["params"]["scope"], &error["params"]["limit"]),
        (&json!("queue"), &json!(1))
    );
    assert!(error["params"]["retry_after"].as_u64().unwrap() >= 1);
    // The waiting page goes: its place in the queue is free.
    drop(b);
    wait_until("b's analysis leaves the queue", 2 * SECOND, || {
        server.hub.engines().tasks_waiting() == 0
    });
    analyse(&mut c, 4, "start", &["h1g3"], 1);
    read_until(&mut c, 5 * SECOND, is("queued", 4));
    // Both share the one worker in slices: c's lines come while a's page is open.
    read_until(&mut c, 10 * SECOND, is("line", 4));
}

#[test]
fn each_client_address_has_its_bound() {
    let server = server_with(
        2,
        AnalysisOptions {
            per_address: 2,
            ..AnalysisOptions::default()
        },
    );
    let mut pages: Vec<Socket> = (0..3).map(|_| connect(&server)).collect();
    for (i, ws) in pages.iter_mut().take(2).enumerate() {
        analyse(ws, i as u64, "start", &[], 1);
        read_until(ws, 10 * SECOND, is("queued", i as u64));
    }
    analyse(&mut pages[2], 9, "start", &[], 1);
    let refused = read_until(&mut pages[2], 5 * SECOND, is("error", 9));
    let error = &refused.last().unwrap()["error"];
    assert_eq!(error["code"], "analysis_busy", "{error}");
    assert_eq!(
        (&error["params"]["scope"], &error["params"]["limit"]),
        (&json!("address"), &json!(2))
    );
    // A page that stops frees its place.
    send(&mut pages[0], json!({"type": "stop"}));
    read_until(&mut pages[0], 5 * SECOND, is("done", 0));
    analyse(&mut pages[2], 10, "start", &[], 1);
    read_until(&mut pages[2], 5 * SECOND, is("line", 10));
}

#[test]
fn bad_requests_on_the_socket_are_answered_with_typed_errors() {
    let server = server_with(1, AnalysisOptions::default());
    let mut ws = connect(&server);
    let bad = "4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1";
    analyse(&mut ws, 1, bad, &[], 1);
    let error = read_until(&mut ws, 5 * SECOND, is("error", 1))
        .pop()
        .unwrap();
    assert_eq!(error["error"]["code"], "bad_position");
    assert_eq!(
        error["error"]["params"]["message"],
        GameKind::Xiangqi.new_game(bad).err().unwrap().to_string()
    );
    analyse(&mut ws, 2, "start", &["h3e3", "e3e3"], 1);
    let error = read_until(&mut ws, 5 * SECOND, is("error", 2))
        .pop()
        .unwrap();
    assert_eq!(error["error"]["code"], "bad_move");
    assert_eq!(error["error"]["params"]["index"], 2);
    send(
        &mut ws,
        json!({"type": "analyse", "id": 3, "game": "go", "moves": []}),
    );
    let error = read_until(&mut ws, 5 * SECOND, is("error", 3))
        .pop()
        .unwrap();
    assert_eq!(error["error"]["code"], "bad_game");
    analyse(&mut ws, 4, "start", &[], 6);
    let error = read_until(&mut ws, 5 * SECOND, is("error", 4))
        .pop()
        .unwrap();
    assert_eq!(error["error"]["code"], "bad_request");
    send(&mut ws, json!({"type": "analyse", "game": "xiangqi"}));
    let error = next_within(&mut ws, 5 * SECOND).unwrap();
    assert_eq!(
        (&error["type"], &error["id"]),
        (&json!("error"), &Value::Null)
    );
    assert_eq!(error["error"]["code"], "bad_request");
    ws.send(tungstenite::Message::Text("{not json".into()))
        .unwrap();
    let error = next_within(&mut ws, 5 * SECOND).unwrap();
    assert_eq!(error["error"]["code"], "bad_request");
    // A finished position: `done` with `over`, no search.
    analyse(
        &mut ws,
        5,
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        &["a1d1"],
        1,
    );
    let done = read_until(&mut ws, 5 * SECOND, is("done", 5));
    assert_eq!(
        done,
        [json!({"type": "done", "id": 5, "reason": "over"})],
        "no queued, no line"
    );
    assert_eq!(server.hub.engines().tasks_running(), 0);
}

#[test]
fn pages_of_other_origins_cannot_open_the_socket() {
    let server = server(AppOptions::default());
    let request = |origin: &str| {
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/analysis/ws",
            server.addr
        ))
        .unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        request
    };
    match tungstenite::connect(request("https://evil.example")) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!("a foreign page's socket opened: {:?}", other.map(|_| ())),
    }
    assert!(tungstenite::connect(request(&server.base)).is_ok());
}
