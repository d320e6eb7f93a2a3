//! The store suite: the same checks on SQLite and on a real PostgreSQL server.
//!
//! PostgreSQL: `scripts/with-postgres` starts a throwaway cluster and sets
//! `CHUHE_TEST_POSTGRES` to its URL (`scripts/test` runs this file that way). Without the
//! variable the PostgreSQL test fails under CI (`CI=true`) and says so elsewhere.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use chuhe::Side;
use chuhe_server::store::prelude::*;
use chuhe_server::store::{
    EngineClaim, Opponent, PostgresStore, ReviewClaim, SqliteStore, Standing, StoreError,
    StoredGame, StoredMove, StoredResult, TimeControl,
};
use common::postgres_url;

#[allow(dead_code)]
mod common;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A game id no other test uses, in this run or an earlier one on the same database.
fn fresh_id(tag: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{tag}{}x{n}x{}", std::process::id(), nanos % 1_000_000_000)
}

fn game(id: &str, moves: &[&str]) -> StoredGame {
    StoredGame {
        id: id.to_string(),
        game: "xiangqi".into(),
        start: "start".into(),
        opponent: Opponent::Engine {
            level: 7,
            side: Side::Second,
        },
        creator: Side::First,
        tokens: ["a".repeat(32), "b".repeat(32)],
        clock: Some(TimeControl {
            initial_ms: 300_000,
            increment_ms: 3_000,
        }),
        result: None,
        created_ms: 1_000,
        updated_ms: 1_000,
        record_info: Some(r#"{"meta":{"event":"Club"},"sides":null}"#.into()),
        version: 0,
        draw_offer: None,
        turn_ms: Some(1_000),
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, m)| StoredMove {
                uci: m.to_string(),
                time_ms: 100 * i as u64,
            })
            .collect(),
        ..StoredGame::default()
    }
}

fn mv(uci: &str) -> StoredMove {
    StoredMove {
        uci: uci.into(),
        time_ms: 1234,
    }
}

fn result(status: &str, winner: &str, reason: Option<&str>) -> StoredResult {
    StoredResult {
        status: status.into(),
        winner: winner.into(),
        reason: reason.map(String::from),
    }
}

/// The standing with this result and no draw offer.
fn ends(result: Option<&StoredResult>) -> Standing {
    Standing {
        result: result.cloned(),
        ..Standing::default()
    }
}

/// The stored version of a game.
fn version(store: &dyn Store, id: &str) -> i64 {
    store.version(id).unwrap().expect("the game is stored")
}

/// Every check of the suite, on one store.
fn suite(store: &dyn Store) {
    round_trip(store);
    moves_in_order(store);
    results_and_take_backs(store);
    unknown_games(store);
    duplicates(store);
    listing(store);
    racing_writers(store);
    stale_changes(store);
    engine_claims(store);
    racing_engine_claims(store);
    review_claims(store);
    racing_review_claims(store);
}

/// A review is claimed by one server, which alone stores its progress; a holder that went
/// silent is replaced by the next server, which goes on from the positions stored; a done
/// review is nobody's and stays done; a released claim passes at once.
fn review_claims(store: &dyn Store) {
    let minute = Duration::from_secs(60);
    assert!(matches!(
        store.claim_review("no-such-game", 10, 1, "s1", minute),
        Err(StoreError::NotFound(_))
    ));
    assert!(store.review("no-such-game").unwrap().is_none());
    let id = fresh_id("rv");
    store.create(&game(&id, &["h3e3", "h10g8"])).unwrap();
    let ReviewClaim::Won(first) = store.claim_review(&id, 500, 3, "s1", minute).unwrap() else {
        panic!("the first claim wins");
    };
    assert_eq!((first.nodes, first.total, first.done), (500, 3, 0));
    assert_eq!(
        (first.positions.as_str(), first.state.as_str()),
        ("[]", "running")
    );
    assert_eq!(first.holder.as_deref(), Some("s1"));
    let ReviewClaim::Held(held) = store.claim_review(&id, 900, 3, "s2", minute).unwrap() else {
        panic!("a live holder keeps it");
    };
    assert_eq!(held.holder.as_deref(), Some("s1"));
    assert!(matches!(
        store.claim_review(&id, 500, 3, "s1", minute).unwrap(),
        ReviewClaim::Won(_)
    ));
    assert!(store.save_review(&id, "s1", 1, "[1]", false).unwrap());
    assert!(!store.save_review(&id, "s2", 2, "[2]", false).unwrap());
    assert!(store.heartbeat_review(&id, "s1").unwrap());
    assert!(!store.heartbeat_review(&id, "s2").unwrap());
    // s1 goes silent: s2 takes over with what s1 stored (its node budget too).
    std::thread::sleep(Duration::from_millis(20));
    let ReviewClaim::Won(taken) = store
        .claim_review(&id, 900, 3, "s2", Duration::from_millis(5))
        .unwrap()
    else {
        panic!("a silent holder's review is taken over");
    };
    assert_eq!(
        (taken.nodes, taken.done, taken.positions.as_str()),
        (500, 1, "[1]")
    );
    assert!(!store.save_review(&id, "s1", 2, "[1,2]", false).unwrap());
    assert!(!store.heartbeat_review(&id, "s1").unwrap());
    assert!(store.save_review(&id, "s2", 3, "[1,2,3]", true).unwrap());
    let done = store.review(&id).unwrap().unwrap();
    assert!(done.is_done());
    assert_eq!((done.done, done.holder), (3, None));
    assert!(matches!(
        store
            .claim_review(&id, 500, 3, "s3", Duration::ZERO)
            .unwrap(),
        ReviewClaim::Done(_)
    ));
    assert!(
        !store.save_review(&id, "s2", 3, "[]", true).unwrap(),
        "done stays done"
    );
    // A claim given up passes at once.
    let other = fresh_id("rv");
    store.create(&game(&other, &[])).unwrap();
    assert!(matches!(
        store.claim_review(&other, 10, 1, "s1", minute).unwrap(),
        ReviewClaim::Won(_)
    ));
    store.release_review(&other, "s1").unwrap();
    assert!(matches!(
        store.claim_review(&other, 10, 1, "s2", minute).unwrap(),
        ReviewClaim::Won(_)
    ));
}

/// Servers claiming one review at the same moment: exactly one wins.
fn racing_review_claims(store: &dyn Store) {
    for _ in 0..5 {
        let id = fresh_id("rr");
        store.create(&game(&id, &["h3e3"])).unwrap();
        let barrier = Barrier::new(4);
        let won = std::thread::scope(|s| {
            let claims: Vec<_> = (0..4)
                .map(|i| {
                    let (barrier, id) = (&barrier, &id);
                    s.spawn(move || {
                        barrier.wait();
                        store.claim_review(id, 10, 2, &format!("s{i}"), Duration::from_secs(60))
                    })
                })
                .collect();
            claims
                .into_iter()
                .map(|c| c.join().unwrap())
                .filter(|c| matches!(c, Ok(ReviewClaim::Won(_))))
                .count()
        });
        assert_eq!(won, 1);
    }
}

/// One server at a time holds the engine's move of a ply; its own claim is renewed; a
/// released or expired claim passes to the next server; a ply the game has passed (or a
/// finished game) is no one's.
fn engine_claims(store: &dyn Store) {
    let id = fresh_id("cl");
    store.create(&game(&id, &["h3e3"])).unwrap();
    let minute = Duration::from_secs(60);
    assert_eq!(
        store.claim_engine_move(&id, 1, "s1", minute).unwrap(),
        EngineClaim::Won
    );
    match store.claim_engine_move(&id, 1, "s2", minute).unwrap() {
        EngineClaim::Held { by, remaining } => {
            assert_eq!(by, "s1");
            assert!(
                remaining > Duration::from_secs(50) && remaining <= minute,
                "{remaining:?}"
            );
        }
        other => panic!("two servers hold the move of ply 1: {other:?}"),
    }
    assert_eq!(
        store.claim_engine_move(&id, 1, "s1", minute).unwrap(),
        EngineClaim::Won
    );
    // Released: free at once (another holder's release changes nothing).
    store.release_engine_move(&id, 1, "s2").unwrap();
    assert!(matches!(
        store.claim_engine_move(&id, 1, "s2", minute).unwrap(),
        EngineClaim::Held { .. }
    ));
    store.release_engine_move(&id, 1, "s1").unwrap();
    assert_eq!(
        store.claim_engine_move(&id, 1, "s2", minute).unwrap(),
        EngineClaim::Won
    );
    // Expired: the holder died; the next server takes the move over.
    store.release_engine_move(&id, 1, "s2").unwrap();
    let short = Duration::from_millis(30);
    assert_eq!(
        store.claim_engine_move(&id, 1, "s1", short).unwrap(),
        EngineClaim::Won
    );
    std::thread::sleep(Duration::from_millis(80));
    assert_eq!(
        store.claim_engine_move(&id, 1, "s2", minute).unwrap(),
        EngineClaim::Won
    );
    assert!(matches!(
        store.claim_engine_move(&id, 1, "s1", minute).unwrap(),
        EngineClaim::Held { .. }
    ));
    // Plies the game is not at, and a finished game: nothing to claim.
    for ply in [0, 2] {
        assert_eq!(
            store.claim_engine_move(&id, ply, "s3", minute).unwrap(),
            EngineClaim::MovedOn
        );
    }
    let v = version(store, &id);
    store
        .push_move(&id, v, 1, &mv("h10g8"), &ends(None))
        .unwrap();
    assert_eq!(
        store.claim_engine_move(&id, 2, "s3", minute).unwrap(),
        EngineClaim::Won
    );
    let v = version(store, &id);
    let resigned = result("resignation", "second", None);
    store.set_standing(&id, v, &ends(Some(&resigned))).unwrap();
    assert_eq!(
        store.claim_engine_move(&id, 2, "s3", minute).unwrap(),
        EngineClaim::MovedOn
    );
    assert!(matches!(
        store.claim_engine_move("no-such-game", 0, "s1", minute),
        Err(StoreError::NotFound(_))
    ));
}

/// Eight servers claim the same move at once: exactly one wins, round after round.
fn racing_engine_claims(store: &dyn Store) {
    let id = fresh_id("rc");
    store.create(&game(&id, &[])).unwrap();
    for round in 0..6 {
        let barrier = Arc::new(Barrier::new(8));
        let wins = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..8 {
                let (barrier, wins, id) = (barrier.clone(), &wins, &id);
                s.spawn(move || {
                    barrier.wait();
                    let claim = store
                        .claim_engine_move(id, 0, &format!("s{t}"), Duration::from_secs(60))
                        .unwrap();
                    if claim == EngineClaim::Won {
                        wins.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(wins.load(Ordering::Relaxed), 1, "round {round}");
        for t in 0..8 {
            store.release_engine_move(&id, 0, &format!("s{t}")).unwrap();
        }
    }
}

fn round_trip(store: &dyn Store) {
    let id = fresh_id("rt");
    let mut g = game(&id, &["h3e3", "h10g8"]);
    g.result = Some(result("repetition", "second", Some("perpetual chase")));
    store.create(&g).unwrap();
    let back = store.load(&id).unwrap().expect("the game is stored");
    assert_eq!(back, g);
    let mut friend = game(&fresh_id("rf"), &[]);
    friend.opponent = Opponent::Friend;
    friend.creator = Side::Second;
    friend.clock = None;
    store.create(&friend).unwrap();
    assert_eq!(store.load(&friend.id).unwrap().unwrap(), friend);
}

fn moves_in_order(store: &dyn Store) {
    let id = fresh_id("mo");
    store.create(&game(&id, &[])).unwrap();
    assert_eq!(version(store, &id), 0);
    store
        .push_move(&id, 0, 0, &mv("h3e3"), &ends(None))
        .unwrap();
    store
        .push_move(&id, 1, 1, &mv("h10g8"), &ends(None))
        .unwrap();
    assert_eq!(version(store, &id), 2);
    for wrong in [0, 1, 3] {
        match store.push_move(&id, 2, wrong, &mv("a1a2"), &ends(None)) {
            Err(StoreError::Conflict { plies: 2, ply, .. }) => assert_eq!(ply, wrong),
            other => panic!("ply {wrong}: expected a conflict, got {other:?}"),
        }
    }
    let back = store.load(&id).unwrap().unwrap();
    assert_eq!(back.moves, vec![mv("h3e3"), mv("h10g8")]);
    assert_eq!(back.version, 2);
    assert!(back.updated_ms >= back.created_ms);
}

/// Take-backs and offers change a game in play; a result, once stored, is final: no move,
/// take-back or standing replaces or removes it (only a rematch offer may follow it).
fn results_and_take_backs(store: &dyn Store) {
    let id = fresh_id("rs");
    store.create(&game(&id, &["h3e3"])).unwrap();
    // A draw offer is stored with the game.
    let offer = Standing {
        draw_offer: Some(Side::Second),
        ..Standing::default()
    };
    store.set_standing(&id, 0, &offer).unwrap();
    assert_eq!(
        store.load(&id).unwrap().unwrap().draw_offer,
        Some(Side::Second)
    );
    store.truncate(&id, 1, 0, &ends(None)).unwrap();
    let back = store.load(&id).unwrap().unwrap();
    assert!(back.moves.is_empty());
    assert_eq!((back.draw_offer, back.version), (None, 2));
    // After a take-back the next move is written at the freed ply.
    store
        .push_move(&id, 2, 0, &mv("b3e3"), &ends(None))
        .unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().moves, vec![mv("b3e3")]);
    let mate = result("checkmate", "first", None);
    store
        .push_move(&id, 3, 1, &mv("h10g8"), &ends(Some(&mate)))
        .unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().result, Some(mate.clone()));
    let finished =
        |r: Result<(), StoreError>| assert!(matches!(r, Err(StoreError::Finished(_))), "{r:?}");
    finished(store.truncate(&id, 4, 1, &ends(None)));
    finished(store.push_move(&id, 4, 2, &mv("h1g3"), &ends(None)));
    finished(store.set_standing(&id, 4, &ends(None)));
    let resigned = result("resignation", "second", None);
    finished(store.set_standing(&id, 4, &ends(Some(&resigned))));
    // A rematch offer may follow the result, which stays.
    let rematch = Standing {
        result: Some(mate.clone()),
        rematch_offer: Some(Side::First),
        ..Standing::default()
    };
    store.set_standing(&id, 4, &rematch).unwrap();
    let back = store.load(&id).unwrap().unwrap();
    assert_eq!(
        (back.result, back.rematch_offer, back.moves.len()),
        (Some(mate), Some(Side::First), 2)
    );
}

fn unknown_games(store: &dyn Store) {
    let id = fresh_id("no");
    assert_eq!(store.load(&id).unwrap(), None);
    assert_eq!(store.version(&id).unwrap(), None);
    assert!(matches!(
        store.push_move(&id, 0, 0, &mv("h3e3"), &ends(None)),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.truncate(&id, 0, 0, &ends(None)),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.set_standing(&id, 0, &ends(None)),
        Err(StoreError::NotFound(_))
    ));
}

/// A change made on an old version is refused and writes nothing, whatever it is.
fn stale_changes(store: &dyn Store) {
    let id = fresh_id("st");
    store.create(&game(&id, &["h3e3"])).unwrap();
    store
        .push_move(&id, 0, 1, &mv("h10g8"), &ends(None))
        .unwrap();
    let resigned = result("resignation", "first", None);
    let stale = |r: Result<(), StoreError>| {
        assert!(
            matches!(
                r,
                Err(StoreError::Stale {
                    expected: 0,
                    found: 1,
                    ..
                })
            ),
            "{r:?}"
        )
    };
    stale(store.push_move(&id, 0, 2, &mv("h1g3"), &ends(None)));
    stale(store.set_standing(&id, 0, &ends(Some(&resigned))));
    stale(store.truncate(&id, 0, 0, &ends(None)));
    let back = store.load(&id).unwrap().unwrap();
    assert_eq!((back.moves.len(), back.result, back.version), (2, None, 1));
}

fn duplicates(store: &dyn Store) {
    let id = fresh_id("du");
    store.create(&game(&id, &["h3e3"])).unwrap();
    let mut other = game(&id, &[]);
    other.game = "xiongqi".into();
    assert!(matches!(store.create(&other), Err(StoreError::Duplicate(d)) if d == id));
    // The first game is untouched.
    let back = store.load(&id).unwrap().unwrap();
    assert_eq!((back.game.as_str(), back.moves.len()), ("xiangqi", 1));
}

fn listing(store: &dyn Store) {
    let ids: Vec<String> = (0..3).map(|_| fresh_id("ls")).collect();
    for id in &ids {
        store.create(&game(id, &["h3e3", "h10g8"])).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    // A change moves a game to the top.
    store
        .push_move(&ids[0], 0, 2, &mv("h1g3"), &ends(None))
        .unwrap();
    let listed = store.list(500, 0).unwrap();
    assert_eq!(listed[0].id, ids[0], "the last changed game comes first");
    assert_eq!(listed[0].plies, 3);
    assert_eq!(listed[0].game, "xiangqi");
    let first_two = store.list(2, 0).unwrap();
    let next = store.list(2, 2).unwrap();
    assert_eq!(first_two.len(), 2);
    assert!(next.iter().all(|g| first_two.iter().all(|f| f.id != g.id)));
}

/// Eight threads race to write each ply: exactly one wins every time.
fn racing_writers(store: &dyn Store) {
    let id = fresh_id("ra");
    store.create(&game(&id, &[])).unwrap();
    let plies = 12;
    for ply in 0..plies {
        let barrier = Arc::new(Barrier::new(8));
        let wins = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..8 {
                let (barrier, wins, id) = (barrier.clone(), &wins, &id);
                s.spawn(move || {
                    barrier.wait();
                    let v = ply as i64;
                    match store.push_move(id, v, ply, &mv(&format!("t{t}")), &ends(None)) {
                        Ok(()) => {
                            wins.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(StoreError::Conflict { .. } | StoreError::Stale { .. }) => {}
                        // PostgreSQL may also refuse the loser on the primary key.
                        Err(StoreError::Backend(e)) if e.contains("duplicate key") => {}
                        Err(e) => panic!("unexpected error: {e}"),
                    }
                });
            }
        });
        assert_eq!(wins.load(Ordering::Relaxed), 1, "ply {ply}");
    }
    assert_eq!(store.load(&id).unwrap().unwrap().moves.len(), plies);
}

fn temp_path(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("chuhe-store-{tag}-{}.sqlite3", fresh_id("")))
}

#[test]
fn sqlite_passes_the_store_suite() {
    let path = temp_path("suite");
    let store = SqliteStore::open(path.to_str().unwrap()).unwrap();
    suite(&store);
    drop(store);
    // Reopened, the file still holds everything.
    let again = SqliteStore::open(path.to_str().unwrap()).unwrap();
    assert!(again.list(500, 0).unwrap().len() >= 8);
    for ext in ["", "-wal", "-shm", "-lock"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

#[test]
fn sqlite_in_memory_passes_the_store_suite() {
    suite(&SqliteStore::open(":memory:").unwrap());
}

#[test]
fn sqlite_refuses_a_path_it_cannot_create() {
    let err = SqliteStore::open("/nonexistent-dir/x/games.sqlite3")
        .err()
        .expect("no database in a missing directory");
    assert!(err.to_string().contains("cannot open"), "{err}");
}

#[test]
fn postgres_passes_the_store_suite() {
    let Some(url) = postgres_url() else {
        return;
    };
    let store = PostgresStore::connect(&url).unwrap();
    suite(&store);
    // A second connection (another server process) sees the same games.
    let other = PostgresStore::connect(&url).unwrap();
    assert!(other.list(500, 0).unwrap().len() >= 8);
}

/// The last handle on a store may go on a thread that drives the server's async runtime (a
/// finished connection task dropping the router); closing its connections there must not
/// panic (the synchronous client runs a runtime of its own to close).
#[test]
fn a_postgres_store_dropped_inside_the_runtime_closes_quietly() {
    let Some(url) = postgres_url() else {
        return;
    };
    let store = PostgresStore::connect(&url).unwrap();
    assert!(store.list(1, 0).is_ok());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    runtime
        .block_on(runtime.spawn(async move { drop(store) }))
        .expect("the store drops without a panic");
}

#[test]
fn postgres_connection_errors_are_typed() {
    let err = PostgresStore::connect("postgres://nobody:pw@127.0.0.1:1/none")
        .err()
        .expect("nothing listens on port 1");
    let text = err.to_string();
    assert!(text.contains("cannot connect"), "{text}");
    assert!(!text.contains("pw@"), "the password is not shown: {text}");
}

/// The tables of a database made before schema versions were kept (chuhe 0.1.0's), with
/// one game in it.
const UNVERSIONED: &str = "
CREATE TABLE games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, start TEXT NOT NULL, opponent TEXT NOT NULL,
    engine_level BIGINT, engine_side TEXT, creator TEXT NOT NULL, first_token TEXT NOT NULL,
    second_token TEXT NOT NULL, clock_initial_ms BIGINT, clock_increment_ms BIGINT,
    status TEXT, winner TEXT, reason TEXT, created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id), ply BIGINT NOT NULL, uci TEXT NOT NULL,
    time_ms BIGINT NOT NULL, PRIMARY KEY (game_id, ply)
);
INSERT INTO games VALUES ('old', 'xiangqi', 'start', 'friend', NULL, NULL, 'first', 'a', 'b',
    NULL, NULL, NULL, NULL, NULL, 1, 2);
INSERT INTO moves VALUES ('old', 0, 'h3e3', 1500);
";

/// An old database's game after its schema was brought up to date.
fn check_upgraded(store: &dyn Store) {
    let old = store.load("old").unwrap().expect("the old game is kept");
    assert_eq!(
        (old.moves.len(), old.version, old.record_info),
        (1, 0, None)
    );
    store
        .push_move("old", 0, 1, &mv("h10g8"), &ends(None))
        .unwrap();
    assert_eq!(store.version("old").unwrap(), Some(1));
}

#[test]
fn sqlite_schemas_are_upgraded_once_and_newer_ones_refused() {
    let path = temp_path("schema");
    let file = path.to_str().unwrap();
    rusqlite::Connection::open(file)
        .unwrap()
        .execute_batch(UNVERSIONED)
        .unwrap();
    check_upgraded(&SqliteStore::open(file).unwrap());
    // Opened again: nothing left to do, nothing done twice.
    check_upgraded_again(&SqliteStore::open(file).unwrap());
    let newest: i64 = rusqlite::Connection::open(file)
        .unwrap()
        .query_row("SELECT version FROM chuhe_schema", [], |r| r.get(0))
        .unwrap();
    rusqlite::Connection::open(file)
        .unwrap()
        .execute("UPDATE chuhe_schema SET version = ?1", [newest + 1])
        .unwrap();
    let err = SqliteStore::open(file)
        .err()
        .expect("a newer schema is refused");
    assert!(err.to_string().contains("newer than this chuhe"), "{err}");
    for ext in ["", "-wal", "-shm", "-lock"] {
        let _ = std::fs::remove_file(format!("{file}{ext}"));
    }
}

fn check_upgraded_again(store: &dyn Store) {
    assert_eq!(store.load("old").unwrap().unwrap().moves.len(), 2);
}

/// A new, empty PostgreSQL database beside the test one; its URL.
fn empty_postgres_database(url: &str, tag: &str) -> String {
    let name = format!("chuhe_{tag}_{}", fresh_id("").to_lowercase());
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let (base, _) = url.rsplit_once('/').unwrap();
    format!("{base}/{name}")
}

fn drop_postgres_database(url: &str, empty: &str) {
    let name = empty.rsplit_once('/').unwrap().1;
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .unwrap();
}

/// The PostgreSQL URL of the test cluster, or `None` (and a note) outside scripts/with-postgres.

#[test]
fn postgres_servers_starting_together_set_up_one_schema() {
    let Some(url) = postgres_url() else { return };
    for round in 0..10 {
        let empty = empty_postgres_database(&url, "together");
        let barrier = Barrier::new(3);
        let opened: Vec<Result<PostgresStore, StoreError>> = std::thread::scope(|s| {
            let starts: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        PostgresStore::connect(&empty)
                    })
                })
                .collect();
            starts.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for store in &opened {
            assert!(store.is_ok(), "round {round}: {:?}", store.as_ref().err());
        }
        let mut client = postgres::Client::connect(&empty, postgres::NoTls).unwrap();
        let rows = client
            .query("SELECT version FROM chuhe_schema", &[])
            .unwrap();
        assert_eq!(rows.len(), 1, "round {round}: one schema version row");
        let tables: i64 = client
            .query_one(
                "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(
            tables, 13,
            "round {round}: games, moves, engine_claims, chuhe_schema, users, sessions, \
             ratings, rating_history, seeks, challenges, idempotency, presence, reviews"
        );
        // Every server works on it.
        let id = fresh_id("tg");
        opened[0].as_ref().unwrap().create(&game(&id, &[])).unwrap();
        for store in &opened {
            assert!(store.as_ref().unwrap().load(&id).unwrap().is_some());
        }
        drop(opened);
        drop(client);
        drop_postgres_database(&url, &empty);
    }
}

#[test]
fn postgres_schemas_are_upgraded_and_problems_named() {
    let Some(url) = postgres_url() else { return };
    // A database of chuhe 0.1.0 is brought up to date, its games kept.
    let empty = empty_postgres_database(&url, "upgrade");
    postgres::Client::connect(&empty, postgres::NoTls)
        .unwrap()
        .batch_execute(UNVERSIONED)
        .unwrap();
    check_upgraded(&PostgresStore::connect(&empty).unwrap());
    check_upgraded_again(&PostgresStore::connect(&empty).unwrap());
    // A schema from a newer chuhe is refused.
    postgres::Client::connect(&empty, postgres::NoTls)
        .unwrap()
        .batch_execute("UPDATE chuhe_schema SET version = version + 1")
        .unwrap();
    let err = PostgresStore::connect(&empty)
        .err()
        .expect("a newer schema");
    assert!(err.to_string().contains("newer than this chuhe"), "{err}");
    drop_postgres_database(&url, &empty);
    // A missing database, a refused login, nothing listening: each said in words.
    let (base, _) = url.rsplit_once('/').unwrap();
    let err = PostgresStore::connect(&format!("{base}/no_such_database")).err();
    let text = err.expect("no such database").to_string();
    assert!(
        text.contains("does not exist") && text.contains("createdb"),
        "{text}"
    );
    let (scheme, rest) = url.split_once("://").unwrap();
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    let err = PostgresStore::connect(&format!("{scheme}://no_such_role@{host}")).err();
    let text = err.expect("no such role").to_string();
    assert!(text.contains("refused the login"), "{text}");
    assert!(!text.contains("db error"), "{text}");
    let err = PostgresStore::connect("postgres://chuhe@127.0.0.1:1/none").err();
    let text = err.expect("nothing listens on port 1").to_string();
    assert!(text.contains("cannot be reached"), "{text}");
}
