//! The SQLite store: one file, write-ahead log, `synchronous = FULL` (a committed move
//! survives the process being killed and the machine losing power).

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use super::{
    check_version, clock_of, draw_offer_of, millis, now_ms, opponent_columns, opponent_of,
    result_of, side_of, EngineClaim, GameSummary, Standing, Store, StoreError, StoredGame,
    StoredMove,
};

/// The schema's steps: step `i` brings a database from version `i` to `i + 1` (a database
/// made before versions were kept has the tables of step 0 and no version: step 0 keeps them).
const MIGRATIONS: &[&str] = &[
    SCHEMA_1,
    "ALTER TABLE games ADD COLUMN record_info TEXT;",
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0; \
     ALTER TABLE games ADD COLUMN draw_offer TEXT;",
    super::ENGINE_CLAIMS,
];

const SCHEMA_1: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    opponent TEXT NOT NULL,
    engine_level INTEGER,
    engine_side TEXT,
    creator TEXT NOT NULL,
    first_token TEXT NOT NULL,
    second_token TEXT NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    status TEXT,
    winner TEXT,
    reason TEXT,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated_ms DESC);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
";

/// Games in a SQLite file, served by one process: [`SqliteStore::open`] holds the file
/// `PATH-lock` locked for as long as the store lives, and refuses a file another store holds
/// (several processes go on PostgreSQL).
///
/// ```
/// use chuhe_server::store::{SqliteStore, Store};
/// let store = SqliteStore::open(":memory:").unwrap();
/// assert!(store.load("nope").unwrap().is_none());
/// ```
pub struct SqliteStore {
    path: String,
    connection: Mutex<Connection>,
    /// The connection that keeps `PATH-lock` locked (none for `:memory:` and for
    /// [`SqliteStore::open_shared`]).
    _lock: Option<Mutex<Connection>>,
}

impl SqliteStore {
    /// Opens (creating when missing) the database at `path`; `:memory:` for a throwaway one.
    /// Refused while another store, in this process or another, has the same file open.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let lock = if path == ":memory:" {
            None
        } else {
            Some(hold_lock(path)?)
        };
        let mut store = SqliteStore::open_shared(path)?;
        store._lock = lock.map(Mutex::new);
        Ok(store)
    }

    /// Opens the database without taking its lock: for tests that put two servers on one
    /// file. Never for serving: SQLite is the store of one process.
    #[doc(hidden)]
    pub fn open_shared(path: &str) -> Result<SqliteStore, StoreError> {
        let connection = Connection::open(path)
            .map_err(|e| StoreError::Backend(format!("cannot open '{path}': {e}")))?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                 PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
            )
            .map_err(|e| StoreError::Backend(format!("cannot set up '{path}': {e}")))?;
        let mut connection = connection;
        migrate(&mut connection, path)?;
        Ok(SqliteStore {
            path: path.to_string(),
            connection: Mutex::new(connection),
            _lock: None,
        })
    }

    fn connection(&self) -> MutexGuard<'_, Connection> {
        // A panic while the lock was held cannot leave a half-written transaction behind
        // (rusqlite rolls back on drop), so the connection stays usable.
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Brings the schema up to date in one transaction (the write lock keeps other connections
/// out meanwhile); refuses a schema newer than this program.
fn migrate(connection: &mut Connection, path: &str) -> Result<(), StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Backend(format!("cannot set up '{path}': {e}"));
    let tx = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS chuhe_schema (version INTEGER NOT NULL);")
        .map_err(failed)?;
    let found: Option<i64> = tx
        .query_row("SELECT MAX(version) FROM chuhe_schema", [], |r| r.get(0))
        .map_err(failed)?;
    let from = super::check_schema(found.unwrap_or(0), MIGRATIONS.len(), &format!("'{path}'"))?;
    if from == MIGRATIONS.len() {
        return Ok(());
    }
    for step in &MIGRATIONS[from..] {
        tx.execute_batch(step).map_err(failed)?;
    }
    tx.execute("DELETE FROM chuhe_schema", []).map_err(failed)?;
    tx.execute(
        "INSERT INTO chuhe_schema (version) VALUES (?1)",
        [MIGRATIONS.len() as i64],
    )
    .map_err(failed)?;
    tx.commit().map_err(failed)
}

/// Locks `PATH-lock` (a small SQLite file in exclusive locking mode, so the lock is the
/// operating system's and goes with the process, even one killed with `kill -9`), or says
/// that another server has the database.
fn hold_lock(path: &str) -> Result<Connection, StoreError> {
    let lock_path = format!("{path}-lock");
    let lock = Connection::open(&lock_path)
        .map_err(|e| StoreError::Backend(format!("cannot open '{path}': {e}")))?;
    let taken = lock.execute_batch(
        "PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; \
         PRAGMA journal_mode = DELETE; BEGIN EXCLUSIVE; \
         CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY, since_ms INTEGER); \
         INSERT OR REPLACE INTO holder (id, since_ms) VALUES (1, 0); COMMIT;",
    );
    match taken {
        Ok(()) => Ok(lock),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ) =>
        {
            Err(StoreError::Backend(format!(
                "'{path}' is in use by another chuhe serve: a SQLite file serves one process; \
                 to run several servers on one database, use PostgreSQL \
                 (--db postgres://USER@HOST/DATABASE)"
            )))
        }
        Err(e) => Err(StoreError::Backend(format!(
            "cannot lock '{lock_path}': {e}"
        ))),
    }
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// Starts a change of the game made on `version`: [`StoreError::NotFound`] without the game,
/// [`StoreError::Stale`] when it is at another version; its move count.
fn begin_change(tx: &Connection, id: &str, version: i64) -> Result<usize, StoreError> {
    let found: Option<i64> = tx
        .query_row("SELECT version FROM games WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()
        .map_err(backend)?;
    let Some(found) = found else {
        return Err(StoreError::NotFound(id.to_string()));
    };
    check_version(id, version, found)?;
    let n: i64 = tx
        .query_row("SELECT COUNT(*) FROM moves WHERE game_id = ?1", [id], |r| {
            r.get(0)
        })
        .map_err(backend)?;
    Ok(n as usize)
}

/// Writes the standing and counts the version up.
fn finish_change(tx: &Connection, id: &str, standing: &Standing) -> Result<(), StoreError> {
    let result = standing.result.as_ref();
    tx.execute(
        "UPDATE games SET status = ?2, winner = ?3, reason = ?4, draw_offer = ?5, \
         version = version + 1, updated_ms = ?6 WHERE id = ?1",
        params![
            id,
            result.map(|r| r.status.as_str()),
            result.map(|r| r.winner.as_str()),
            result.and_then(|r| r.reason.as_deref()),
            standing.draw_offer.map(|s| s.as_str()),
            now_ms()
        ],
    )
    .map_err(backend)?;
    Ok(())
}

impl Store for SqliteStore {
    fn describe(&self) -> String {
        format!("sqlite {}", self.path)
    }

    fn create(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let (opponent, level, engine_side) = opponent_columns(game.opponent);
        let inserted = tx.execute(
            "INSERT INTO games (id, game, start, opponent, engine_level, engine_side, creator, \
             first_token, second_token, clock_initial_ms, clock_increment_ms, status, winner, \
             reason, created_ms, updated_ms, record_info, version, draw_offer) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
             ?18, ?19)",
            params![
                game.id,
                game.game,
                game.start,
                opponent,
                level,
                engine_side,
                game.creator.as_str(),
                game.tokens[0],
                game.tokens[1],
                game.clock.map(|c| millis(c.initial_ms)).transpose()?,
                game.clock.map(|c| millis(c.increment_ms)).transpose()?,
                game.result.as_ref().map(|r| r.status.as_str()),
                game.result.as_ref().map(|r| r.winner.as_str()),
                game.result.as_ref().and_then(|r| r.reason.as_deref()),
                game.created_ms,
                game.updated_ms,
                game.record_info,
                game.version,
                game.draw_offer.map(|s| s.as_str()),
            ],
        );
        match inserted {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                return Err(StoreError::Duplicate(game.id.clone()))
            }
            other => other.map_err(backend)?,
        };
        for (ply, mv) in game.moves.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES (?1, ?2, ?3, ?4)",
                params![game.id, ply as i64, mv.uci, millis(mv.time_ms)?],
            )
            .map_err(backend)?;
        }
        tx.commit().map_err(backend)
    }

    fn push_move(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        mv: &StoredMove,
        standing: &Standing,
    ) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let plies = begin_change(&tx, id, version)?;
        if plies != ply {
            return Err(StoreError::Conflict {
                id: id.to_string(),
                plies,
                ply,
            });
        }
        tx.execute(
            "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES (?1, ?2, ?3, ?4)",
            params![id, ply as i64, mv.uci, millis(mv.time_ms)?],
        )
        .map_err(backend)?;
        finish_change(&tx, id, standing)?;
        tx.commit().map_err(backend)
    }

    fn truncate(
        &self,
        id: &str,
        version: i64,
        plies: usize,
        standing: &Standing,
    ) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        begin_change(&tx, id, version)?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, plies as i64],
        )
        .map_err(backend)?;
        finish_change(&tx, id, standing)?;
        tx.commit().map_err(backend)
    }

    fn set_standing(&self, id: &str, version: i64, standing: &Standing) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        begin_change(&tx, id, version)?;
        finish_change(&tx, id, standing)?;
        tx.commit().map_err(backend)
    }

    fn claim_engine_move(
        &self,
        id: &str,
        ply: usize,
        holder: &str,
        lease: Duration,
    ) -> Result<EngineClaim, StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let (moves, status): (i64, Option<String>) = tx
            .query_row(
                "SELECT (SELECT COUNT(*) FROM moves WHERE game_id = ?1), status \
                 FROM games WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        if !super::waits_for(ply, moves, status.as_deref()) {
            return Ok(EngineClaim::MovedOn);
        }
        let now = now_ms();
        let won: Option<String> = tx
            .query_row(
                super::CLAIM_UPSERT,
                params![id, ply as i64, holder, now, super::lease_ms(lease)],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?;
        let claim = match won {
            Some(_) => EngineClaim::Won,
            None => {
                let (by, until): (String, i64) = tx
                    .query_row(
                        "SELECT holder, until_ms FROM engine_claims WHERE game_id = ?1",
                        [id],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .map_err(backend)?;
                super::held_claim(by, until, now)
            }
        };
        tx.commit().map_err(backend)?;
        Ok(claim)
    }

    fn release_engine_move(&self, id: &str, ply: usize, holder: &str) -> Result<(), StoreError> {
        self.connection()
            .execute(
                "DELETE FROM engine_claims WHERE game_id = ?1 AND ply = ?2 AND holder = ?3",
                params![id, ply as i64, holder],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.connection()
            .query_row("SELECT version FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(backend)
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.connection();
        // One read transaction: the game's row and its moves as of one moment.
        let conn = conn.transaction().map_err(backend)?;
        let row = conn
            .query_row(
                "SELECT game, start, opponent, engine_level, engine_side, creator, first_token, \
                 second_token, clock_initial_ms, clock_increment_ms, status, winner, reason, \
                 created_ms, updated_ms, record_info, version, draw_offer FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, Option<i64>>(3)?,
                            r.get::<_, Option<String>>(4)?,
                            r.get::<_, String>(5)?,
                        ),
                        (
                            r.get::<_, String>(6)?,
                            r.get::<_, String>(7)?,
                            r.get::<_, Option<i64>>(8)?,
                            r.get::<_, Option<i64>>(9)?,
                        ),
                        (
                            r.get::<_, Option<String>>(10)?,
                            r.get::<_, Option<String>>(11)?,
                            r.get::<_, Option<String>>(12)?,
                            r.get::<_, i64>(13)?,
                            r.get::<_, i64>(14)?,
                            r.get::<_, Option<String>>(15)?,
                            r.get::<_, i64>(16)?,
                            r.get::<_, Option<String>>(17)?,
                        ),
                    ))
                },
            )
            .optional()
            .map_err(backend)?;
        let Some((
            (game, start, opponent, level, engine_side, creator),
            (first_token, second_token, initial, increment),
            (status, winner, reason, created_ms, updated_ms, record_info, version, draw_offer),
        )) = row
        else {
            return Ok(None);
        };
        let mut statement = conn
            .prepare("SELECT uci, time_ms FROM moves WHERE game_id = ?1 ORDER BY ply")
            .map_err(backend)?;
        let moves = statement
            .query_map([id], |r| {
                Ok(StoredMove {
                    uci: r.get(0)?,
                    time_ms: r.get::<_, i64>(1)?.max(0) as u64,
                })
            })
            .and_then(Iterator::collect::<Result<Vec<_>, _>>)
            .map_err(backend)?;
        Ok(Some(StoredGame {
            id: id.to_string(),
            game,
            start,
            opponent: opponent_of(&opponent, level, engine_side.as_deref())?,
            creator: side_of(&creator)?,
            tokens: [first_token, second_token],
            clock: clock_of(initial, increment),
            result: result_of(status, winner, reason),
            created_ms,
            updated_ms,
            moves,
            version,
            draw_offer: draw_offer_of(draw_offer.as_deref())?,
            record_info,
        }))
    }

    fn list(&self, limit: usize, offset: usize) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.connection();
        let mut statement = conn
            .prepare(
                "SELECT g.id, g.game, g.opponent, g.engine_level, g.engine_side, g.status, \
                 g.winner, g.reason, g.created_ms, g.updated_ms, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
                 FROM games g ORDER BY g.updated_ms DESC, g.id LIMIT ?1 OFFSET ?2",
            )
            .map_err(backend)?;
        let rows = statement
            .query_map(params![limit as i64, offset as i64], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    (
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, Option<String>>(6)?,
                        r.get::<_, Option<String>>(7)?,
                    ),
                    r.get::<_, i64>(8)?,
                    r.get::<_, i64>(9)?,
                    r.get::<_, i64>(10)?,
                ))
            })
            .and_then(Iterator::collect::<Result<Vec<_>, _>>)
            .map_err(backend)?;
        rows.into_iter()
            .map(
                |(
                    id,
                    game,
                    opponent,
                    level,
                    side,
                    (status, winner, reason),
                    created,
                    updated,
                    n,
                )| {
                    Ok(GameSummary {
                        id,
                        game,
                        opponent: opponent_of(&opponent, level, side.as_deref())?,
                        result: result_of(status, winner, reason),
                        plies: n.max(0) as usize,
                        created_ms: created,
                        updated_ms: updated,
                    })
                },
            )
            .collect()
    }
}
