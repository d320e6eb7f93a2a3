//! The few things the stores ask of a SQL database, so that every query of every domain is
//! written once for SQLite and PostgreSQL: a transaction ([`Tx`]) that runs statements with
//! `$1`-style parameters ([`Value`]) and returns rows of values, the database's clock, and a
//! notification sent when the transaction commits.
//!
//! The SQL itself is the subset both databases speak (`INSERT … ON CONFLICT`, `RETURNING`,
//! `CAST(… AS BIGINT)`); where they differ, [`Dialect`] says how (`FOR UPDATE` exists only on
//! PostgreSQL: SQLite's write transactions lock the whole file anyway).

use super::StoreError;

/// A value bound to a parameter or read from a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL `NULL`.
    Null,
    /// An integer (`BIGINT`).
    Int(i64),
    /// A floating-point number (`DOUBLE PRECISION` / `REAL`).
    Real(f64),
    /// Text.
    Text(String),
    /// A truth value (`BOOLEAN`; SQLite keeps it as 0 or 1).
    Bool(bool),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The parameters of a statement: `params![id, 3_i64, None::<&str>]`.
macro_rules! params {
    ($($v:expr),* $(,)?) => {
        &[$($crate::store::sql::Value::from($v)),*][..]
    };
}
pub(crate) use params;

/// One row of a query's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> Result<&Value, StoreError> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::Backend(format!("a row has no column {i}")))
    }

    /// Column `i` as an integer (`NULL` is refused).
    pub fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?
            .ok_or_else(|| StoreError::Backend(format!("column {i} is NULL, not a number")))
    }

    /// Column `i` as an integer or `NULL`.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            Value::Bool(b) => Ok(Some(i64::from(*b))),
            other => Err(StoreError::Backend(format!(
                "column {i} is {other:?}, not an integer"
            ))),
        }
    }

    /// Column `i` as a number (an integer column is read as one too).
    pub fn real(&self, i: usize) -> Result<f64, StoreError> {
        match self.at(i)? {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(StoreError::Backend(format!(
                "column {i} is {other:?}, not a number"
            ))),
        }
    }

    /// Column `i` as text (`NULL` is refused).
    pub fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?
            .ok_or_else(|| StoreError::Backend(format!("column {i} is NULL, not text")))
    }

    /// Column `i` as text or `NULL`.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(s) => Ok(Some(s.clone())),
            other => Err(StoreError::Backend(format!(
                "column {i} is {other:?}, not text"
            ))),
        }
    }

    /// Column `i` as a truth value (SQLite's 0 and 1 too; `NULL` is false).
    pub fn bool(&self, i: usize) -> Result<bool, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(false),
            Value::Bool(b) => Ok(*b),
            Value::Int(v) => Ok(*v != 0),
            other => Err(StoreError::Backend(format!(
                "column {i} is {other:?}, not a truth value"
            ))),
        }
    }
}

/// Which database a statement goes to, where their SQL differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: one writer at a time; no row locks.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl Dialect {
    /// ` FOR UPDATE` on PostgreSQL (locks the rows read until the transaction ends); nothing
    /// on SQLite, whose write transactions hold the whole database.
    pub fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }
}

/// A transaction in progress. Statements use `$1`, `$2`, … for their parameters.
pub trait Tx {
    /// Which database this is.
    fn dialect(&self) -> Dialect;
    /// Runs a statement; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a query; its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;
    /// Runs statements without parameters, separated by `;` (migrations).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;
    /// The database's clock in milliseconds since the Unix epoch (PostgreSQL's own, so that
    /// servers whose clocks differ agree; this process's on SQLite).
    fn now_ms(&mut self) -> Result<i64, StoreError>;
    /// Announces `payload` on `channel` to every listening server when the transaction
    /// commits (PostgreSQL's `NOTIFY`; on SQLite, one process, nothing).
    fn notify(&mut self, channel: &str, payload: &str) -> Result<(), StoreError>;

    /// The first row of a query, if any.
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// The one row of a query (none is an error).
    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Row, StoreError> {
        self.query_opt(sql, params)?
            .ok_or_else(|| StoreError::Backend(format!("no row from: {}", first_words(sql))))
    }
}

/// A database that runs transactions: SQLite ([`super::sqlite::SqliteDb`]) or PostgreSQL
/// ([`super::postgres::PostgresDb`]).
pub trait Database: Send + Sync + 'static {
    /// Which database this is, for people: `sqlite chuhe-games.sqlite3`.
    fn describe(&self) -> String;
    /// Runs `work` in one read-write transaction and commits it. A connection found broken
    /// before the commit is replaced and `work` run again; a break during the commit is
    /// [`StoreError::Interrupted`] (the change may be stored).
    fn write(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;
    /// Runs `work` in one read-only transaction: every query sees one moment.
    fn read(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;
    /// Runs `work`, one statement that reads, outside any transaction (one round trip on
    /// PostgreSQL); by default in a read transaction.
    fn read_one(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.read(work)
    }
    /// Hands every change announced with [`Tx::notify`] by any server to `changed`, from a
    /// thread of its own (see [`super::Store::watch_changes`]); false when the database has
    /// no such feed (SQLite: one process).
    fn watch(&self, changed: super::ChangeWatcher) -> bool {
        let _ = changed;
        false
    }
}

/// Runs `work` in a write transaction of `db` and returns what it made.
pub fn write<T>(
    db: &dyn Database,
    mut work: impl FnMut(&mut dyn Tx) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut out = None;
    db.write(&mut |tx| {
        out = Some(work(tx)?);
        Ok(())
    })?;
    out.ok_or_else(|| StoreError::Backend("a transaction ended without its answer".into()))
}

/// Runs `work` in a read transaction of `db` and returns what it read.
pub fn read<T>(
    db: &dyn Database,
    mut work: impl FnMut(&mut dyn Tx) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut out = None;
    db.read(&mut |tx| {
        out = Some(work(tx)?);
        Ok(())
    })?;
    out.ok_or_else(|| StoreError::Backend("a transaction ended without its answer".into()))
}

/// Runs `work`, a single read, in `db` outside any transaction, and returns what it read.
pub fn read_one<T>(
    db: &dyn Database,
    mut work: impl FnMut(&mut dyn Tx) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut out = None;
    db.read_one(&mut |tx| {
        out = Some(work(tx)?);
        Ok(())
    })?;
    out.ok_or_else(|| StoreError::Backend("a read ended without its answer".into()))
}

/// The first words of a statement, for messages.
fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(6).collect::<Vec<_>>().join(" ")
}

/// A schema migration: its number (from 1), its file's name, and its SQL.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// The schema version it brings the database to.
    pub version: usize,
    /// The file it was read from (`0005_players.sql`).
    pub name: &'static str,
    /// Its statements.
    pub sql: &'static str,
}

/// The migrations of one database, embedded from `migrations/DIR/NNNN_name.sql`, in order.
macro_rules! migrations {
    ($dir:literal: $($n:literal => $file:literal),* $(,)?) => {
        &[$($crate::store::sql::Migration {
            version: $n,
            name: $file,
            sql: include_str!(concat!("../../migrations/", $dir, "/", $file)),
        }),*]
    };
}
pub(crate) use migrations;

/// Brings the schema up to date inside `tx` (the caller holds the database's schema lock):
/// applies the migrations after the version recorded in `chuhe_schema`; refuses a database
/// whose schema is newer than `migrations`.
pub fn migrate(
    tx: &mut dyn Tx,
    migrations: &[Migration],
    database: &str,
) -> Result<(), StoreError> {
    tx.batch("CREATE TABLE IF NOT EXISTS chuhe_schema (version BIGINT NOT NULL)")?;
    let found = tx
        .query_one("SELECT MAX(version) FROM chuhe_schema", &[])?
        .opt_int(0)?
        .unwrap_or(0);
    let from = super::check_schema(found, migrations.len(), database)?;
    if from == migrations.len() {
        return Ok(());
    }
    for m in &migrations[from..] {
        tx.batch(m.sql).map_err(|e| {
            StoreError::Backend(format!("migration {} of {database} failed: {e}", m.name))
        })?;
    }
    tx.execute("DELETE FROM chuhe_schema", &[])?;
    tx.execute(
        "INSERT INTO chuhe_schema (version) VALUES ($1)",
        params![migrations.len() as i64],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_their_columns_or_say_why_not() {
        let row = Row(vec![
            Value::Int(3),
            Value::Null,
            Value::Text("x".into()),
            Value::Bool(true),
            Value::Real(1.5),
        ]);
        assert_eq!(row.int(0).unwrap(), 3);
        assert_eq!(row.opt_int(1).unwrap(), None);
        assert!(row.int(1).is_err());
        assert_eq!(row.text(2).unwrap(), "x");
        assert!(row.text(0).is_err());
        assert!(row.bool(3).unwrap());
        assert!(row.bool(0).unwrap(), "SQLite's 1 is true");
        assert_eq!(row.real(4).unwrap(), 1.5);
        assert_eq!(row.real(0).unwrap(), 3.0);
        assert!(row.int(9).is_err());
    }

    #[test]
    fn parameters_convert_from_rust_values() {
        let p: &[Value] = params![1_i64, "a", None::<i64>, Some(true), 2.5];
        assert_eq!(
            p,
            &[
                Value::Int(1),
                Value::Text("a".into()),
                Value::Null,
                Value::Bool(true),
                Value::Real(2.5)
            ]
        );
    }
}
