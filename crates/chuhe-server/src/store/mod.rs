//! Where games are kept: one small [`Store`] trait, implemented on SQLite ([`SqliteStore`],
//! the default, a file created on first start) and on PostgreSQL ([`PostgresStore`], for many
//! games served by several processes). Both pass the same test suite
//! (`crates/chuhe-server/tests/store.rs`).
//!
//! A game is one row (its kind, start position, players and their secret tokens, clock,
//! result) and one row per move. A move is appended with the ply it must have, in one
//! transaction with the result it brings: two processes (or two requests) cannot both write
//! ply 7, and a move that was acknowledged is on disk.

mod postgres;
mod sqlite;

pub use self::postgres::PostgresStore;
pub use self::sqlite::SqliteStore;

use std::time::Duration;

use chuhe::Side;

/// Who plays against the game's creator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// chuhe's engine plays `side` at strength `level` (0–20).
    Engine {
        /// The engine's strength level.
        level: u8,
        /// The side the engine plays.
        side: Side,
    },
    /// A person, invited by a link.
    Friend,
}

/// A time control: the same for both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on each clock at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
}

/// How a game ended, as stored: the CGSN status, `first`/`second`/`none`, and the
/// repetition rule that decided it, if any (`perpetual check`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// CGSN status word (`checkmate`, `resignation`, `timelimit`, …).
    pub status: String,
    /// `first`, `second` or `none`.
    pub winner: String,
    /// The repetition rule, for Xiangqi repetitions.
    pub reason: Option<String>,
}

/// One move as stored: coordinates (`h3e3`, `e7e8e`) and the time its player took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// The move in coordinate form (`MoveNotation::Uci`).
    pub uci: String,
    /// Milliseconds the player took.
    pub time_ms: u64,
}

/// A whole game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's public id (in its links).
    pub id: String,
    /// `xiongqi`, `xiangqi` or `xiangqi-capture`.
    pub game: String,
    /// The start position as FEEN.
    pub start: String,
    /// Who plays the creator.
    pub opponent: Opponent,
    /// The side of the player who created the game.
    pub creator: Side,
    /// The secret tokens of the first and second player.
    pub tokens: [String; 2],
    /// The time control, if the game has clocks.
    pub clock: Option<TimeControl>,
    /// The result, once over.
    pub result: Option<StoredResult>,
    /// Milliseconds since the Unix epoch at creation.
    pub created_ms: i64,
    /// Milliseconds since the Unix epoch at the last change.
    pub updated_ms: i64,
    /// The moves, in order.
    pub moves: Vec<StoredMove>,
    /// Counts the changes stored (see [`Store`]).
    pub version: i64,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// What an imported record said besides its moves: its players and metadata, as PCN's
    /// JSON (`{"sides": {…}, "meta": {…}}`), given back when the game is exported.
    pub record_info: Option<String>,
}

/// A line of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// Its kind.
    pub game: String,
    /// Who played the creator.
    pub opponent: Opponent,
    /// Its result, if over.
    pub result: Option<StoredResult>,
    /// Moves played.
    pub plies: usize,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// Last change (ms since the epoch).
    pub updated_ms: i64,
}

/// What went wrong in a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No game has this id.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// A game with this id exists already.
    #[error("a game with id '{0}' exists already")]
    Duplicate(String),
    /// The move was not the next one (another request wrote first).
    #[error("game '{id}' has {plies} moves; move {ply} cannot be written")]
    Conflict {
        /// The game.
        id: String,
        /// Moves stored.
        plies: usize,
        /// The ply (from 0) that was to be written.
        ply: usize,
    },
    /// The game changed since the copy the change was made on.
    #[error("game '{id}' is at version {found}, not {expected}")]
    Stale {
        /// The game.
        id: String,
        /// The version the change was made on.
        expected: i64,
        /// The version stored.
        found: i64,
    },
    /// The database cannot be reached now (it is restarting, or away); worth trying again.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The connection broke after a change's commit was sent and before its answer came: the
    /// change may or may not be stored, so it is not made again (the game's version says).
    #[error("the connection to the database broke during a commit: {0}")]
    Interrupted(String),
    /// The database failed or holds something unreadable.
    #[error("database: {0}")]
    Backend(String),
}

/// What a change leaves besides the moves: the result and the standing draw offer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The result, once over.
    pub result: Option<StoredResult>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
}

/// Storage for games, synchronous: the server calls it from blocking threads.
///
/// Every change names the version of the game it was made on and is one transaction that
/// writes only when the stored version is still that one ([`StoreError::Stale`] otherwise),
/// then counts the version up: of two servers acting on one copy of a game, one wins and the
/// other learns that its copy is old.
pub trait Store: Send + Sync {
    /// Which database this is, for people: `sqlite chuhe-games.sqlite3`.
    fn describe(&self) -> String;
    /// Writes a new game, with its moves if it has any.
    fn create(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// Appends the move with index `ply` (from 0) and sets the standing it leaves (the result
    /// when it ends the game); [`StoreError::Conflict`] if the game does not have exactly
    /// `ply` moves.
    fn push_move(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        mv: &StoredMove,
        standing: &Standing,
    ) -> Result<(), StoreError>;
    /// Keeps only the first `plies` moves and sets the standing (a take-back clears the
    /// result).
    fn truncate(
        &self,
        id: &str,
        version: i64,
        plies: usize,
        standing: &Standing,
    ) -> Result<(), StoreError>;
    /// Sets the result (resignation, agreement, time) and the draw offer.
    fn set_standing(&self, id: &str, version: i64, standing: &Standing) -> Result<(), StoreError>;
    /// The stored version of the game, if there is such a game.
    fn version(&self, id: &str) -> Result<Option<i64>, StoreError>;
    /// The game with this id, if any (its moves and version read together).
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The games, most recently changed first.
    fn list(&self, limit: usize, offset: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Tells of changes committed by any server on this database: from a thread of its own,
    /// calls `changed(Some((id, version)))` for each change and `changed(None)` now and then;
    /// stops when `changed` answers false. True when the store has such a feed (PostgreSQL's
    /// `LISTEN`/`NOTIFY`); false (the default) when it has none (SQLite: one process).
    fn watch_changes(&self, changed: ChangeWatcher) -> bool {
        let _ = changed;
        false
    }
    /// Claims the engine's move at `ply` of the game for the server `holder` for `lease`
    /// (one transaction): won when the game still has exactly `ply` moves and no result and
    /// no other server holds an unexpired claim on that ply, so that of several servers
    /// holding the game one searches; a claim whose holder died expires and another server
    /// takes the move over.
    fn claim_engine_move(
        &self,
        id: &str,
        ply: usize,
        holder: &str,
        lease: Duration,
    ) -> Result<EngineClaim, StoreError>;
    /// Gives up `holder`'s claim on the engine's move at `ply` (its move is stored, or it
    /// has none): the next claim need not wait for the lease.
    fn release_engine_move(&self, id: &str, ply: usize, holder: &str) -> Result<(), StoreError>;
}

/// The answer to [`Store::claim_engine_move`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineClaim {
    /// This server searches the move.
    Won,
    /// The game has moved on (another server stored the move, or the game ended).
    MovedOn,
    /// Another server does, for up to `remaining` more.
    Held {
        /// The server holding the claim.
        by: String,
        /// How long until its claim expires.
        remaining: Duration,
    },
}

/// What [`Store::watch_changes`] calls: `Some((game id, version))` for a change, `None` to
/// ask whether it is still wanted; false to stop.
pub type ChangeWatcher = Box<dyn Fn(Option<(&str, i64)>) -> bool + Send>;

/// The PostgreSQL channel on which every committed change is announced as `ID VERSION`.
pub const CHANGES_CHANNEL: &str = "chuhe_games";

/// The claims table's schema step (the same SQL on SQLite and PostgreSQL): one row per game
/// whose engine move a server has claimed.
pub(crate) const ENGINE_CLAIMS: &str = "CREATE TABLE IF NOT EXISTS engine_claims (\
    game_id TEXT PRIMARY KEY REFERENCES games (id), \
    ply BIGINT NOT NULL, \
    holder TEXT NOT NULL, \
    until_ms BIGINT NOT NULL);";

/// The claim upsert shared by both stores (`$1` game, `$2` ply, `$3` holder, `$4` the
/// database's time in ms, `$5` the lease in ms; numbered in order of first use, which is how
/// SQLite numbers them): it takes the row over when it is for another ply, is
/// this holder's own, or has expired, and returns the holder then; no row when another
/// server's claim stands.
pub(crate) const CLAIM_UPSERT: &str = "INSERT INTO engine_claims (game_id, ply, holder, until_ms) \
     VALUES ($1, $2, $3, CAST($4 AS BIGINT) + CAST($5 AS BIGINT)) \
     ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, holder = excluded.holder, \
     until_ms = excluded.until_ms \
     WHERE engine_claims.ply <> excluded.ply OR engine_claims.holder = excluded.holder \
     OR engine_claims.until_ms < $4 \
     RETURNING holder";

/// The claim standing against a lost [`CLAIM_UPSERT`]: `(holder, until_ms)` read at `now_ms`.
pub(crate) fn held_claim(holder: String, until_ms: i64, now_ms: i64) -> EngineClaim {
    EngineClaim::Held {
        by: holder,
        remaining: Duration::from_millis(until_ms.saturating_sub(now_ms).max(0) as u64),
    }
}

/// Whether a game with `moves` moves and `status` still waits for the move at `ply`.
pub(crate) fn waits_for(ply: usize, moves: i64, status: Option<&str>) -> bool {
    usize::try_from(moves) == Ok(ply) && status.is_none()
}

/// A lease in whole milliseconds for the database.
pub(crate) fn lease_ms(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 4)
}

/// Refuses a change made on `expected` when the game is at `found`.
fn check_version(id: &str, expected: i64, found: i64) -> Result<(), StoreError> {
    if expected == found {
        Ok(())
    } else {
        Err(StoreError::Stale {
            id: id.to_string(),
            expected,
            found,
        })
    }
}

fn draw_offer_of(text: Option<&str>) -> Result<Option<Side>, StoreError> {
    text.map(side_of).transpose()
}

/// Refuses a database whose schema is newer than this program knows (`found` steps applied,
/// `known` known).
fn check_schema(found: i64, known: usize, database: &str) -> Result<usize, StoreError> {
    match usize::try_from(found) {
        Ok(n) if n <= known => Ok(n),
        _ => Err(StoreError::Backend(format!(
            "the schema of {database} is version {found}, newer than this chuhe knows \
             (version {known}): a newer chuhe has upgraded it; run that one"
        ))),
    }
}

/// Opens the store named on the command line: a `postgres://` or `postgresql://` URL, or
/// the path of a SQLite file (created when missing).
pub fn open(spec: &str) -> Result<Box<dyn Store>, StoreError> {
    if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
        Ok(Box::new(PostgresStore::connect(spec)?))
    } else {
        Ok(Box::new(SqliteStore::open(spec)?))
    }
}

/// The columns `opponent`, `engine_level`, `engine_side` of an [`Opponent`].
fn opponent_columns(opponent: Opponent) -> (&'static str, Option<i64>, Option<&'static str>) {
    match opponent {
        Opponent::Engine { level, side } => ("engine", Some(i64::from(level)), Some(side.as_str())),
        Opponent::Friend => ("friend", None, None),
    }
}

/// An [`Opponent`] from its columns.
fn opponent_of(kind: &str, level: Option<i64>, side: Option<&str>) -> Result<Opponent, StoreError> {
    match (kind, level, side) {
        ("friend", _, _) => Ok(Opponent::Friend),
        ("engine", Some(level), Some(side)) => Ok(Opponent::Engine {
            level: u8::try_from(level)
                .map_err(|_| StoreError::Backend(format!("engine level {level} out of range")))?,
            side: side_of(side)?,
        }),
        _ => Err(StoreError::Backend(format!(
            "unreadable opponent '{kind}' (level {level:?}, side {side:?})"
        ))),
    }
}

fn side_of(text: &str) -> Result<Side, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Backend(format!("unreadable side '{text}'")))
}

fn clock_of(initial: Option<i64>, increment: Option<i64>) -> Option<TimeControl> {
    match (initial, increment) {
        (Some(i), Some(n)) if i >= 0 && n >= 0 => Some(TimeControl {
            initial_ms: i as u64,
            increment_ms: n as u64,
        }),
        _ => None,
    }
}

fn result_of(
    status: Option<String>,
    winner: Option<String>,
    reason: Option<String>,
) -> Option<StoredResult> {
    Some(StoredResult {
        status: status?,
        winner: winner.unwrap_or_else(|| "none".into()),
        reason,
    })
}

/// A stored count of milliseconds; more than a signed 64-bit column holds is refused (a
/// number that would come back negative or as something else).
fn millis(ms: u64) -> Result<i64, StoreError> {
    i64::try_from(ms).map_err(|_| StoreError::Backend(format!("{ms} ms is out of range")))
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
