//! SQLite: one file, write-ahead log, `synchronous = FULL` (a committed move survives the
//! process being killed and the machine losing power), served by one process.

use std::sync::{Mutex, MutexGuard};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, TransactionBehavior};

use super::sql::{migrations, Database, Dialect, Migration, Row, Tx, Value};
use super::{SqlStore, StoreError};

/// The schema's steps, `migrations/sqlite/` (kept in step with PostgreSQL's by a test).
pub(crate) const MIGRATIONS: &[Migration] = migrations!("sqlite":
    1 => "0001_games.sql",
    2 => "0002_record_info.sql",
    3 => "0003_versions.sql",
    4 => "0004_engine_claims.sql",
    5 => "0005_players.sql",
    6 => "0006_reviews.sql",
);

/// Games in a SQLite file, served by one process: [`SqliteStore::open`] holds the file
/// `PATH-lock` locked for as long as the store lives, and refuses a file another store holds
/// (several processes go on PostgreSQL).
///
/// ```
/// use chuhe_server::store::{SqliteStore, GameStore};
/// let store = SqliteStore::open(":memory:").unwrap();
/// assert!(store.load("nope").unwrap().is_none());
/// ```
pub type SqliteStore = SqlStore<SqliteDb>;

/// The SQLite database under a [`SqliteStore`].
pub struct SqliteDb {
    path: String,
    connection: Mutex<Connection>,
    /// The connection that keeps `PATH-lock` locked (none for `:memory:` and for
    /// [`SqliteStore::open_shared`]).
    _lock: Option<Mutex<Connection>>,
}

impl SqlStore<SqliteDb> {
    /// Opens (creating when missing) the database at `path`; `:memory:` for a throwaway one.
    /// Refused while another store, in this process or another, has the same file open.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let lock = if path == ":memory:" {
            None
        } else {
            Some(hold_lock(path)?)
        };
        let mut db = SqliteDb::open(path)?;
        db._lock = lock.map(Mutex::new);
        Ok(SqlStore::new(db))
    }

    /// Opens the database without taking its lock: for tests that put two servers on one
    /// file. Never for serving: SQLite is the store of one process.
    #[doc(hidden)]
    pub fn open_shared(path: &str) -> Result<SqliteStore, StoreError> {
        Ok(SqlStore::new(SqliteDb::open(path)?))
    }
}

impl SqliteDb {
    fn open(path: &str) -> Result<SqliteDb, StoreError> {
        let connection = Connection::open(path)
            .map_err(|e| StoreError::Backend(format!("cannot open '{path}': {e}")))?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                 PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
            )
            .map_err(|e| StoreError::Backend(format!("cannot set up '{path}': {e}")))?;
        let db = SqliteDb {
            path: path.to_string(),
            connection: Mutex::new(connection),
            _lock: None,
        };
        // The write lock keeps other connections out while the schema changes.
        let name = format!("'{path}'");
        db.write(&mut |tx| super::sql::migrate(tx, MIGRATIONS, &name))
            .map_err(|e| match e {
                StoreError::Backend(m) if !m.contains(path) => {
                    StoreError::Backend(format!("cannot set up '{path}': {m}"))
                }
                other => other,
            })?;
        Ok(db)
    }

    fn connection(&self) -> MutexGuard<'_, Connection> {
        // A panic while the lock was held cannot leave a half-written transaction behind
        // (rusqlite rolls back on drop), so the connection stays usable.
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
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
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            StoreError::Constraint(e.to_string())
        }
        e => StoreError::Backend(e.to_string()),
    }
}

/// `$1`-style parameters as SQLite's numbered `?1` (outside quoted text).
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c == '$' && !quoted && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn bind(value: &Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    match value {
        Value::Null => V::Null,
        Value::Int(v) => V::Integer(*v),
        Value::Real(v) => V::Real(*v),
        Value::Text(s) => V::Text(s.clone()),
        Value::Bool(b) => V::Integer(i64::from(*b)),
    }
}

fn column(value: ValueRef<'_>) -> Result<Value, StoreError> {
    Ok(match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(t) => Value::Text(
            std::str::from_utf8(t)
                .map_err(|e| StoreError::Backend(format!("text that is not UTF-8: {e}")))?
                .to_string(),
        ),
        ValueRef::Blob(_) => return Err(StoreError::Backend("an unexpected blob".into())),
    })
}

/// A transaction on the connection.
struct SqliteTx<'c>(&'c Connection);

impl Tx for SqliteTx<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut statement = self.0.prepare_cached(&numbered(sql)).map_err(backend)?;
        let values: Vec<_> = params.iter().map(bind).collect();
        let n = statement
            .execute(rusqlite::params_from_iter(values))
            .map_err(backend)?;
        Ok(n as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut statement = self.0.prepare_cached(&numbered(sql)).map_err(backend)?;
        let width = statement.column_count();
        let values: Vec<_> = params.iter().map(bind).collect();
        let mut rows = statement
            .query(rusqlite::params_from_iter(values))
            .map_err(backend)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(backend)? {
            let mut cells = Vec::with_capacity(width);
            for i in 0..width {
                cells.push(column(row.get_ref(i).map_err(backend)?)?);
            }
            out.push(Row(cells));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.0.execute_batch(sql).map_err(backend)
    }

    fn now_ms(&mut self) -> Result<i64, StoreError> {
        Ok(super::now_ms())
    }

    fn notify(&mut self, _channel: &str, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

impl Database for SqliteDb {
    fn describe(&self) -> String {
        format!("sqlite {}", self.path)
    }

    fn write(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        work(&mut SqliteTx(&tx))?;
        tx.commit().map_err(backend)
    }

    fn read(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut conn = self.connection();
        let tx = conn.transaction().map_err(backend)?;
        work(&mut SqliteTx(&tx))?;
        tx.commit().map_err(backend)
    }
}

#[cfg(test)]
mod tests {
    use super::numbered;

    #[test]
    fn parameters_are_numbered_outside_quotes() {
        assert_eq!(
            numbered("SELECT $1, '$2', $10 WHERE a = $2"),
            "SELECT ?1, '$2', ?10 WHERE a = ?2"
        );
        assert_eq!(numbered("SELECT 'it''s $1'"), "SELECT 'it''s $1'");
    }
}
