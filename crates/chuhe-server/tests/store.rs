//! The store suite: the same checks on SQLite and on a real PostgreSQL server.
//!
//! PostgreSQL: `scripts/with-postgres` starts a throwaway cluster and sets
//! `CHUHE_TEST_POSTGRES` to its URL (`scripts/test` runs this file that way). Without the
//! variable the PostgreSQL test fails under CI (`CI=true`) and says so elsewhere.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

use chuhe::Side;
use chuhe_server::store::{
    Opponent, PostgresStore, SqliteStore, Standing, Store, StoreError, StoredGame, StoredMove,
    StoredResult, TimeControl,
};

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
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, m)| StoredMove {
                uci: m.to_string(),
                time_ms: 100 * i as u64,
            })
            .collect(),
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
        draw_offer: None,
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

fn results_and_take_backs(store: &dyn Store) {
    let id = fresh_id("rs");
    store.create(&game(&id, &["h3e3"])).unwrap();
    let mate = result("checkmate", "first", None);
    store
        .push_move(&id, 0, 1, &mv("h10g8"), &ends(Some(&mate)))
        .unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().result, Some(mate));
    store.truncate(&id, 1, 1, &ends(None)).unwrap();
    let back = store.load(&id).unwrap().unwrap();
    assert_eq!(back.moves.len(), 1);
    assert_eq!(back.result, None);
    let resigned = result("resignation", "second", None);
    store.set_standing(&id, 2, &ends(Some(&resigned))).unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().result, Some(resigned));
    store.set_standing(&id, 3, &ends(None)).unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().result, None);
    // A draw offer is stored with the game.
    let offer = Standing {
        result: None,
        draw_offer: Some(Side::Second),
    };
    store.set_standing(&id, 4, &offer).unwrap();
    assert_eq!(
        store.load(&id).unwrap().unwrap().draw_offer,
        Some(Side::Second)
    );
    store.truncate(&id, 5, 0, &ends(None)).unwrap();
    let back = store.load(&id).unwrap().unwrap();
    assert!(back.moves.is_empty());
    assert_eq!((back.draw_offer, back.version), (None, 6));
    // After a take-back the next move is written at the freed ply.
    store
        .push_move(&id, 6, 0, &mv("b3e3"), &ends(None))
        .unwrap();
    assert_eq!(store.load(&id).unwrap().unwrap().moves, vec![mv("b3e3")]);
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
    let Ok(url) = std::env::var("CHUHE_TEST_POSTGRES") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must run the PostgreSQL store suite: run the tests under scripts/with-postgres"
        );
        eprintln!(
            "CHUHE_TEST_POSTGRES is not set: run under scripts/with-postgres to test PostgreSQL"
        );
        return;
    };
    let store = PostgresStore::connect(&url).unwrap();
    suite(&store);
    // A second connection (another server process) sees the same games.
    let other = PostgresStore::connect(&url).unwrap();
    assert!(other.list(500, 0).unwrap().len() >= 8);
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
