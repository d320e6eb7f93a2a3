//! The review of a game after it (`chuhe serve`'s `POST /api/games/{id}/review`) equals
//! `chuhe analyze` at the same node budget on every position of the game: the same scores,
//! best moves and depths. The review runs on a server's engine pool (one worker, reused from
//! position to position, after an analysis with MultiPV 3 ran on it); each position is then
//! given to `chuhe analyze --position START --moves "m1 … mi" --nodes N --json`, a new
//! process with a new engine.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe_server::review::{EvalScore, ReviewOptions, ReviewedGame};
use chuhe_server::store::{self, Store, StoredGame, StoredMove, StoredResult};
use chuhe_server::{App, AppOptions};
use serde_json::Value;

/// Nodes per position.
const NODES: u64 = 5_000;

/// The last line of `chuhe analyze --json` for the position after `moves`.
fn analyze(game: &str, start: &str, moves: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["analyze", "--game", game, "--position", start])
        .args(["--notation", "uci", "--moves", &moves.join(" ")])
        .args(["--nodes", &NODES.to_string(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// Reviews the finished game of `game` from `start` with `moves` on a server and compares
/// each position with `chuhe analyze`.
fn review_equals_analyze(
    app: &App,
    store: &dyn Store,
    (game, start, id): (&str, &str, &str),
    moves: &[&str],
) {
    store
        .create(&StoredGame {
            id: id.to_string(),
            game: game.to_string(),
            start: start.to_string(),
            tokens: ["a".repeat(32), "b".repeat(32)],
            moves: moves
                .iter()
                .map(|m| StoredMove {
                    uci: m.to_string(),
                    time_ms: 1000,
                })
                .collect(),
            result: Some(StoredResult {
                status: "agreement".into(),
                winner: "none".into(),
                reason: None,
            }),
            ..StoredGame::default()
        })
        .unwrap();
    let reviewed: ReviewedGame = app.rooms().read_now(id, ReviewedGame::of).unwrap();
    assert!(reviewed.over);
    app.reviews().request(id, &reviewed).unwrap();
    let asked = Instant::now();
    let stored = loop {
        let stored = app.reviews().get(id, &reviewed).unwrap();
        if stored.is_done() {
            break stored;
        }
        assert!(asked.elapsed() < Duration::from_secs(60), "{stored:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let review = chuhe_server::review::view(&stored, &reviewed);
    assert_eq!(review.positions.len(), moves.len() + 1);
    for (i, position) in review.positions.iter().enumerate() {
        let analyzed = analyze(game, start, &moves[..i]);
        let what = format!(
            "{game} after {:?}: review {position:?}, analyze {analyzed}",
            &moves[..i]
        );
        assert_eq!(position.ply, i);
        match analyzed["best"]["uci"].as_str() {
            None => {
                // A finished position: no search on either side.
                assert_eq!(position.best, None, "{what}");
                assert_eq!(position.score, None, "{what}");
                continue;
            }
            Some(best) => assert_eq!(position.best.as_deref(), Some(best), "{what}"),
        }
        let score = match (position.score.unwrap(), &analyzed["score"]) {
            (EvalScore::Cp(v), s) => (i64::from(v), s["cp"].as_i64()),
            (EvalScore::Mate(n), s) => (i64::from(n), s["mate"].as_i64()),
        };
        assert_eq!(Some(score.0), score.1, "{what}");
        assert_eq!(
            Some(u64::from(position.depth)),
            analyzed["depth"].as_u64(),
            "{what}"
        );
        let pv: Vec<&str> = analyzed["pv"]["uci"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(position.pv, pv, "{what}");
    }
}

#[test]
fn a_review_equals_chuhe_analyze_on_every_position() {
    let store: Arc<dyn Store> = Arc::new(store::SqliteStore::open(":memory:").unwrap());
    let app = App::new(
        store.clone(),
        AppOptions {
            engine_threads: 1,
            review: ReviewOptions {
                nodes: NODES,
                ..ReviewOptions::default()
            },
            ..AppOptions::default()
        },
    );
    // An analysis with three lines runs on the one worker first: the engine it leaves is the
    // one the review's positions are searched on.
    let opened = chuhe_server::analysis::open("xiangqi", "start", &["h3e3".into()]).unwrap();
    let analysis = Arc::new(chuhe_server::analysis::Analysis::new(
        1,
        &opened,
        3,
        app.analyses().options(),
        Box::new(|_| {}),
    ));
    let ticket = app.analyses().start(analysis.clone()).unwrap();
    let start = Instant::now();
    while app.engines().tasks_running() == 0 {
        assert!(start.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(300));
    app.analyses().stop(&analysis, ticket);
    // Standard Xiangqi: Black leaves a chariot to Red's cannon.
    review_equals_analyze(
        &app,
        store.as_ref(),
        ("xiangqi", "start", "reviewxiangqi"),
        &["h3e3", "b10c8", "h1g3", "a10a9", "i1h1", "a9b9", "b3b9"],
    );
    // A game that ends in mate: its last position has no search.
    review_equals_analyze(
        &app,
        store.as_ref(),
        (
            "xiangqi",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "reviewmate",
        ),
        &["a1d1"],
    );
    // Xiongqi.
    review_equals_analyze(
        &app,
        store.as_ref(),
        ("xiongqi", "start", "reviewxiongqi"),
        &["e3e4", "e6e5", "e4e5", "d6d5", "e5d5"],
    );
}
