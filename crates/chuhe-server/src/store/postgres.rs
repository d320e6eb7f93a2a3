//! PostgreSQL: the same tables as SQLite, a few pooled connections, row locks so that several
//! server processes can share one database, and `LISTEN`/`NOTIFY` to tell each other of
//! changes.

use std::error::Error as StdError;
use std::time::Duration;

use bytes::BytesMut;
use postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use postgres::{Client, NoTls};
use r2d2::Pool;
use r2d2_postgres::PostgresConnectionManager;

use super::sql::{migrations, Database, Dialect, Migration, Row, Tx, Value};
use super::{SqlStore, StoreError};

/// The schema's steps, `migrations/postgres/` (kept in step with SQLite's by a test).
pub(crate) const MIGRATIONS: &[Migration] = migrations!("postgres":
    1 => "0001_games.sql",
    2 => "0002_record_info.sql",
    3 => "0003_versions.sql",
    4 => "0004_engine_claims.sql",
    5 => "0005_players.sql",
    6 => "0006_reviews.sql",
);

/// The key of the advisory lock under which the schema is changed.
const SCHEMA_LOCK: i64 = 7165;

/// How many connections one server process keeps.
const CONNECTIONS: usize = 4;

/// Games, players and the lobby in a PostgreSQL database.
pub type PostgresStore = SqlStore<PostgresDb>;

/// The PostgreSQL database under a [`PostgresStore`].
pub struct PostgresDb {
    url: String,
    config: postgres::Config,
    /// Always `Some` until the database is dropped (see the `Drop` below).
    pool: Option<Pool<PostgresConnectionManager<NoTls>>>,
}

impl Drop for PostgresDb {
    /// Closing a synchronous `postgres` connection runs a small runtime of its own, which
    /// panics on a thread that drives an async runtime — where the last handle on the store
    /// may well go (a finished connection task dropping the router). The pool is then
    /// closed on a thread of its own.
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                std::thread::spawn(move || drop(pool));
            }
        }
    }
}

/// The first wait before the change listener connects again after a failure; it doubles up
/// to [`MAX_BACKOFF`].
const MIN_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How long a request waits for a connection (the pool opens new ones in the background,
/// with back-off, while the database is away) before it is answered "unavailable".
const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(1);

impl SqlStore<PostgresDb> {
    /// Connects to `url` (`postgres://user@host:port/db`, or `host=/run/dir` for a socket)
    /// and brings the schema up to date. Call it outside an async runtime (the server opens
    /// its store before starting one). Connections come from an r2d2 pool of
    /// four: one that breaks later (the database restarted) is dropped and the
    /// pool opens another.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let shown = redact(url);
        let mut config: postgres::Config = url.parse().map_err(|e: postgres::Error| {
            StoreError::Backend(format!("{shown} is not a PostgreSQL URL: {}", describe(&e)))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        // One connection first, so that an unreachable host, a refused login or a missing
        // database is told in words at start.
        let mut first = config
            .connect(NoTls)
            .map_err(|e| connect_error(&shown, &e))?;
        migrate(&mut first, &shown)?;
        drop(first);
        let pool = Pool::builder()
            .max_size(CONNECTIONS as u32)
            .min_idle(Some(1))
            .test_on_check_out(false)
            .connection_timeout(CHECKOUT_TIMEOUT)
            .build_unchecked(PostgresConnectionManager::new(config.clone(), NoTls));
        Ok(SqlStore::new(PostgresDb {
            url: shown,
            config,
            pool: Some(pool),
        }))
    }
}

impl PostgresDb {
    /// Runs `work` on a connection of the pool. When the connection turns out to be broken
    /// (the database restarted) before a change was committed, the pool drops it and `work`
    /// runs again on another, after a short pause (each idle connection may have been cut:
    /// up to two more tries than the pool holds); a break during the commit itself is
    /// [`StoreError::Interrupted`] at once, as the change may be stored (run again, an action
    /// would be made twice: its second try refused as stale, the game read again and the
    /// action carried out on it anew).
    fn run(
        &self,
        work: &mut dyn FnMut(&mut Client) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let pool = self
                .pool
                .as_ref()
                .expect("the pool lives as long as the database");
            let mut client = pool.get().map_err(|e| {
                StoreError::Unavailable(format!("{} cannot be reached: {e}", self.url))
            })?;
            let out = work(&mut client);
            let broken = client.is_closed();
            match out {
                Err(e @ StoreError::Interrupted(_)) => return Err(e),
                Err(e) if broken || matches!(e, StoreError::Unavailable(_)) => {
                    if !broken {
                        // The server said it is ending the connection (57P01 after a restart
                        // or pg_terminate_backend) before the socket was seen closed: one
                        // more round trip lets the client see it, so that the pool drops the
                        // connection rather than lending it again.
                        let _ = client.simple_query("");
                    }
                    if tries > CONNECTIONS + 1 {
                        return Err(StoreError::Unavailable(format!(
                            "the connection to {} broke: {e}",
                            self.url
                        )));
                    }
                    // Backends told to end do so one by one; give the others a moment.
                    std::thread::sleep(Duration::from_millis(5 * tries as u64));
                }
                out => return out,
            }
        }
    }
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme + 3],
                    &credentials[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

fn backend(e: postgres::Error) -> StoreError {
    if connection_lost(&e) {
        StoreError::Unavailable(describe(&e))
    } else if e
        .code()
        .is_some_and(|c| *c == postgres::error::SqlState::UNIQUE_VIOLATION)
    {
        StoreError::Constraint(describe(&e))
    } else {
        StoreError::Backend(describe(&e))
    }
}

/// Whether the error says the connection is gone (closed, or the server shutting down or
/// starting up) rather than that the request was wrong.
fn connection_lost(e: &postgres::Error) -> bool {
    e.is_closed()
        || e.code().is_some_and(|c| {
            let class = &c.code()[..2];
            class == "08" || class == "57"
        })
        || (e.as_db_error().is_none() && e.source().is_some_and(|s| s.is::<std::io::Error>()))
}

/// The server's own words for an error it sent (the driver's text is only `db error`), or
/// the driver's with its cause.
fn describe(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    match e.source() {
        Some(cause) if !e.to_string().contains(&cause.to_string()) => format!("{e}: {cause}"),
        _ => e.to_string(),
    }
}

/// Why connecting failed, in words that name the problem.
fn connect_error(shown: &str, e: &postgres::Error) -> StoreError {
    use postgres::error::SqlState;
    let why = describe(e);
    let message = match e.code() {
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => {
            format!("the database of {shown} does not exist ({why}); create it with createdb")
        }
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            format!("the PostgreSQL server refused the login of {shown}: {why}")
        }
        Some(_) => format!("cannot connect to {shown}: {why}"),
        None => format!("cannot connect to {shown}: the server cannot be reached ({why})"),
    };
    StoreError::Backend(message)
}

/// Brings the schema up to date: one transaction under an advisory lock, so that servers
/// starting together change it once, one after the other; refuses a schema newer than this
/// program.
fn migrate(client: &mut Client, shown: &str) -> Result<(), StoreError> {
    let failed =
        |e: StoreError| StoreError::Backend(format!("cannot set up the tables of {shown}: {e}"));
    let mut tx = client.transaction().map_err(backend).map_err(failed)?;
    let mut pg = PgTx(&mut tx);
    pg.execute(
        "SELECT pg_advisory_xact_lock($1)",
        &[Value::Int(SCHEMA_LOCK)],
    )
    .map_err(failed)?;
    super::sql::migrate(&mut pg, MIGRATIONS, shown).map_err(|e| match e {
        e @ StoreError::Backend(_) if e.to_string().contains("newer than this chuhe") => e,
        e => failed(e),
    })?;
    tx.commit().map_err(backend).map_err(failed)
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Text(s) => s.as_str().to_sql(ty, out),
            Value::Bool(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn cell(row: &postgres::Row, i: usize) -> Result<Value, StoreError> {
    let ty = row.columns()[i].type_();
    let value = match *ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i).map(Value::from),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)
            .map(|v| Value::from(v.map(i64::from))),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)
            .map(|v| Value::from(v.map(i64::from))),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i).map(Value::from),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)
            .map(|v| Value::from(v.map(f64::from))),
        Type::BOOL => row.try_get::<_, Option<bool>>(i).map(Value::from),
        Type::TEXT | Type::VARCHAR | Type::NAME | Type::BPCHAR => {
            row.try_get::<_, Option<String>>(i).map(Value::from)
        }
        Type::NUMERIC => {
            return Err(StoreError::Backend(format!(
                "column {i} is NUMERIC: cast it to BIGINT or DOUBLE PRECISION"
            )))
        }
        _ => {
            return Err(StoreError::Backend(format!(
                "column {i} has the unexpected type {ty}"
            )))
        }
    };
    value.map_err(backend)
}

/// A transaction on a pooled connection (or, for a single read, the connection itself).
struct PgTx<'a, C: postgres::GenericClient>(&'a mut C);

fn refs(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

impl<C: postgres::GenericClient> Tx for PgTx<'_, C> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        self.0.execute(sql, &refs(params)).map_err(backend)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let rows = self.0.query(sql, &refs(params)).map_err(backend)?;
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| cell(r, i))
                    .collect::<Result<_, _>>()
                    .map(Row)
            })
            .collect()
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.0.batch_execute(sql).map_err(backend)
    }

    fn now_ms(&mut self) -> Result<i64, StoreError> {
        self.query_one(
            "SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)",
            &[],
        )?
        .int(0)
    }

    fn notify(&mut self, channel: &str, payload: &str) -> Result<(), StoreError> {
        // Delivered to every listening server when the transaction commits, not before.
        self.execute(
            "SELECT pg_notify($1, $2)",
            &[Value::from(channel), Value::from(payload)],
        )
        .map(|_| ())
    }
}

/// Commits a change. When the connection breaks on the way, the database may have committed
/// it or not: [`StoreError::Interrupted`], which [`PostgresDb::run`] does not try again.
fn commit(tx: postgres::Transaction<'_>) -> Result<(), StoreError> {
    tx.commit().map_err(|e| {
        if connection_lost(&e) {
            StoreError::Interrupted(describe(&e))
        } else {
            backend(e)
        }
    })
}

impl Database for PostgresDb {
    fn describe(&self) -> String {
        format!("postgresql {}", self.url)
    }

    fn write(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.run(&mut |client| {
            let mut tx = client.transaction().map_err(backend)?;
            work(&mut PgTx(&mut tx))?;
            commit(tx)
        })
    }

    fn read(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.run(&mut |client| {
            let mut tx = client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(backend)?;
            work(&mut PgTx(&mut tx))?;
            // Nothing to keep: a read-only transaction ends without a commit.
            tx.rollback().map_err(backend)
        })
    }

    fn read_one(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.run(&mut |client| work(&mut PgTx(client)))
    }

    fn watch(&self, changed: super::ChangeWatcher) -> bool {
        let config = self.config.clone();
        std::thread::Builder::new()
            .name("chuhe-listen".into())
            .spawn(move || listen(&config, &changed))
            .is_ok()
    }
}

/// Listens on every channel of [`super::CHANNELS`] on a connection of its own and hands each
/// notification to `changed`; connects again (with back-off) when the connection breaks.
/// Notifications sent while it was away are not replayed: each game is still checked against
/// the database before it is read or changed, and the lobby is read again when it comes back
/// (`changed` is told with [`super::Change::Reconnected`]).
fn listen(config: &postgres::Config, changed: &super::ChangeWatcher) {
    use postgres::fallible_iterator::FallibleIterator;
    let mut backoff = MIN_BACKOFF;
    loop {
        if !changed(super::Change::Idle) {
            return;
        }
        let mut client = match config.connect(NoTls) {
            Ok(c) => c,
            Err(_) => {
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        let listening = super::CHANNELS
            .iter()
            .map(|c| format!("LISTEN {c};"))
            .collect::<String>();
        if client.batch_execute(&listening).is_err() {
            std::thread::sleep(backoff);
            continue;
        }
        backoff = MIN_BACKOFF;
        if !changed(super::Change::Reconnected) {
            return;
        }
        loop {
            let next = client
                .notifications()
                .timeout_iter(Duration::from_millis(500))
                .next();
            match next {
                Ok(Some(note)) => {
                    if !changed(super::Change::Note {
                        channel: note.channel(),
                        payload: note.payload(),
                    }) {
                        return;
                    }
                }
                Ok(None) if !client.is_closed() => {
                    if !changed(super::Change::Idle) {
                        return;
                    }
                }
                _ => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redact("postgres://chuhe:secret@127.0.0.1:5433/games"),
            "postgres://chuhe:***@127.0.0.1:5433/games"
        );
        assert_eq!(
            redact("postgres://chuhe@host/db"),
            "postgres://chuhe@host/db"
        );
        assert_eq!(redact("host=/tmp user=x"), "host=/tmp user=x");
    }
}
