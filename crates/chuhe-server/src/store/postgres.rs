//! The PostgreSQL store: the same tables as SQLite, a few connections, and row locks so that
//! several server processes can share one database.

use std::time::Duration;

use postgres::{Client, NoTls, Transaction};
use r2d2::Pool;
use r2d2_postgres::PostgresConnectionManager;

use super::{
    check_version, clock_of, draw_offer_of, millis, now_ms, opponent_columns, opponent_of,
    result_of, side_of, EngineClaim, GameSummary, Standing, Store, StoreError, StoredGame,
    StoredMove,
};

/// The schema's steps: step `i` brings a database from version `i` to `i + 1` (a database
/// made before versions were kept has the tables of step 0 and no version: step 0 keeps them).
const MIGRATIONS: &[&str] = &[
    SCHEMA_1,
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS record_info TEXT;",
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS version BIGINT NOT NULL DEFAULT 0; \
     ALTER TABLE games ADD COLUMN IF NOT EXISTS draw_offer TEXT;",
    super::ENGINE_CLAIMS,
];

/// The key of the advisory lock under which the schema is changed.
const SCHEMA_LOCK: i64 = 7165;

const SCHEMA_1: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    opponent TEXT NOT NULL,
    engine_level BIGINT,
    engine_side TEXT,
    creator TEXT NOT NULL,
    first_token TEXT NOT NULL,
    second_token TEXT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    status TEXT,
    winner TEXT,
    reason TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated_ms DESC);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply BIGINT NOT NULL,
    uci TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
";

/// How many connections one server process keeps.
const CONNECTIONS: usize = 4;

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    url: String,
    config: postgres::Config,
    pool: Pool<PostgresConnectionManager<NoTls>>,
}

/// The first wait before the change listener connects again after a failure; it doubles up
/// to [`MAX_BACKOFF`].
const MIN_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How long a request waits for a connection (the pool opens new ones in the background,
/// with back-off, while the database is away) before it is answered "unavailable".
const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(1);

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`, or `host=/run/dir` for a socket)
    /// and brings the schema up to date. Call it outside an async runtime (the server opens
    /// its store before starting one). Connections come from an r2d2 pool of
    /// [`CONNECTIONS`]: one that breaks later (the database restarted) is dropped and the
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
        Ok(PostgresStore {
            url: shown,
            config,
            pool,
        })
    }

    /// Runs `work` on a connection of the pool. When the connection turns out to be broken
    /// (the database restarted) before a change was committed, the pool drops it and `work`
    /// runs again on another (each idle connection may have been cut: up to one more try
    /// than the pool holds); a break during the commit itself is
    /// [`StoreError::Interrupted`] at once, as the change may be stored (run again, an action
    /// would be made twice: its second try refused as stale, the game read again and the
    /// action carried out on it anew).
    fn run<T>(&self, work: impl Fn(&mut Client) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let mut client = self.pool.get().map_err(|e| {
                StoreError::Unavailable(format!("{} cannot be reached: {e}", self.url))
            })?;
            let out = work(&mut client);
            let broken = client.is_closed();
            match out {
                Err(e @ StoreError::Interrupted(_)) => return Err(e),
                Err(e) if broken || matches!(e, StoreError::Unavailable(_)) => {
                    if tries > CONNECTIONS {
                        return Err(StoreError::Unavailable(format!(
                            "the connection to {} broke: {e}",
                            self.url
                        )));
                    }
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
    } else {
        StoreError::Backend(describe(&e))
    }
}

/// Commits a change. When the connection breaks on the way, the database may have committed
/// it or not: [`StoreError::Interrupted`], which [`PostgresStore::run`] does not try again.
fn commit(tx: Transaction<'_>) -> Result<(), StoreError> {
    tx.commit().map_err(|e| {
        if connection_lost(&e) {
            StoreError::Interrupted(describe(&e))
        } else {
            backend(e)
        }
    })
}

/// Whether the error says the connection is gone (closed, or the server shutting down or
/// starting up) rather than that the request was wrong.
fn connection_lost(e: &postgres::Error) -> bool {
    e.is_closed()
        || e.code().is_some_and(|c| {
            let class = &c.code()[..2];
            class == "08" || class == "57"
        })
        || (e.as_db_error().is_none()
            && std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>()))
}

/// The server's own words for an error it sent (the driver's text is only `db error`), or
/// the driver's with its cause.
fn describe(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    match std::error::Error::source(e) {
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
    let failed = |e: postgres::Error| {
        StoreError::Backend(format!(
            "cannot set up the tables of {shown}: {}",
            describe(&e)
        ))
    };
    let mut tx = client.transaction().map_err(failed)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
        .map_err(failed)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS chuhe_schema (version BIGINT NOT NULL);")
        .map_err(failed)?;
    let found: Option<i64> = tx
        .query_one("SELECT MAX(version) FROM chuhe_schema", &[])
        .map_err(failed)?
        .get(0);
    let from = super::check_schema(found.unwrap_or(0), MIGRATIONS.len(), shown)?;
    if from == MIGRATIONS.len() {
        return Ok(());
    }
    for step in &MIGRATIONS[from..] {
        tx.batch_execute(step).map_err(failed)?;
    }
    tx.execute("DELETE FROM chuhe_schema", &[])
        .map_err(failed)?;
    tx.execute(
        "INSERT INTO chuhe_schema (version) VALUES ($1)",
        &[&(MIGRATIONS.len() as i64)],
    )
    .map_err(failed)?;
    tx.commit().map_err(failed)
}

/// Starts a change of the game made on `version`: locks the game's row for the transaction;
/// [`StoreError::NotFound`] without the game, [`StoreError::Stale`] when it is at another
/// version; its move count.
fn begin_change(tx: &mut Transaction<'_>, id: &str, version: i64) -> Result<usize, StoreError> {
    let found = tx
        .query_opt("SELECT version FROM games WHERE id = $1 FOR UPDATE", &[&id])
        .map_err(backend)?;
    let Some(found) = found else {
        return Err(StoreError::NotFound(id.to_string()));
    };
    check_version(id, version, found.get(0))?;
    let n: i64 = tx
        .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&id])
        .map_err(backend)?
        .get(0);
    Ok(n as usize)
}

/// Writes the standing and counts the version up.
fn finish_change(
    tx: &mut Transaction<'_>,
    id: &str,
    standing: &Standing,
) -> Result<(), StoreError> {
    let result = standing.result.as_ref();
    let row = tx
        .query_one(
            "UPDATE games SET status = $2, winner = $3, reason = $4, draw_offer = $5, \
             version = version + 1, updated_ms = $6 WHERE id = $1 RETURNING version",
            &[
                &id,
                &result.map(|r| r.status.as_str()),
                &result.map(|r| r.winner.as_str()),
                &result.and_then(|r| r.reason.as_deref()),
                &standing.draw_offer.map(|s| s.as_str()),
                &now_ms(),
            ],
        )
        .map_err(backend)?;
    let version: i64 = row.get(0);
    // Delivered to every listening server when the transaction commits, not before.
    tx.execute(
        "SELECT pg_notify($1, $2)",
        &[&super::CHANGES_CHANNEL, &format!("{id} {version}")],
    )
    .map_err(backend)?;
    Ok(())
}

/// Listens on [`super::CHANGES_CHANNEL`] on a connection of its own and hands each change to
/// `changed`; connects again (with back-off) when the connection breaks. Changes announced
/// while it was away are not replayed: each game is still checked against the database
/// before it is read or changed.
fn listen(config: &postgres::Config, changed: &super::ChangeWatcher) {
    use postgres::fallible_iterator::FallibleIterator;
    let mut backoff = MIN_BACKOFF;
    loop {
        if !changed(None) {
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
        if client
            .batch_execute(&format!("LISTEN {}", super::CHANGES_CHANNEL))
            .is_err()
        {
            std::thread::sleep(backoff);
            continue;
        }
        backoff = MIN_BACKOFF;
        loop {
            let next = client
                .notifications()
                .timeout_iter(Duration::from_millis(500))
                .next();
            match next {
                Ok(Some(note)) => {
                    let parsed = note
                        .payload()
                        .split_once(' ')
                        .and_then(|(id, v)| Some((id, v.parse::<i64>().ok()?)));
                    if let Some(change) = parsed {
                        if !changed(Some(change)) {
                            return;
                        }
                    }
                }
                Ok(None) if !client.is_closed() => {
                    if !changed(None) {
                        return;
                    }
                }
                _ => break,
            }
        }
    }
}

impl Store for PostgresStore {
    fn watch_changes(&self, changed: super::ChangeWatcher) -> bool {
        let config = self.config.clone();
        std::thread::Builder::new()
            .name("chuhe-listen".into())
            .spawn(move || listen(&config, &changed))
            .is_ok()
    }

    fn describe(&self) -> String {
        format!("postgresql {}", self.url)
    }

    fn create(&self, game: &StoredGame) -> Result<(), StoreError> {
        self.run(|client| {
            let mut tx = client.transaction().map_err(backend)?;
            let (opponent, level, engine_side) = opponent_columns(game.opponent);
            let inserted = tx.execute(
            "INSERT INTO games (id, game, start, opponent, engine_level, engine_side, creator, \
             first_token, second_token, clock_initial_ms, clock_increment_ms, status, winner, \
             reason, created_ms, updated_ms, record_info, version, draw_offer) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
             $18, $19) \
             ON CONFLICT (id) DO NOTHING",
            &[
                &game.id,
                &game.game,
                &game.start,
                &opponent,
                &level,
                &engine_side,
                &game.creator.as_str(),
                &game.tokens[0],
                &game.tokens[1],
                &game.clock.map(|c| millis(c.initial_ms)).transpose()?,
                &game.clock.map(|c| millis(c.increment_ms)).transpose()?,
                &game.result.as_ref().map(|r| r.status.as_str()),
                &game.result.as_ref().map(|r| r.winner.as_str()),
                &game.result.as_ref().and_then(|r| r.reason.as_deref()),
                &game.created_ms,
                &game.updated_ms,
                &game.record_info,
                &game.version,
                &game.draw_offer.map(|s| s.as_str()),
            ],
        );
            if inserted.map_err(backend)? == 0 {
                return Err(StoreError::Duplicate(game.id.clone()));
            }
            for (ply, mv) in game.moves.iter().enumerate() {
                tx.execute(
                    "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES ($1, $2, $3, $4)",
                    &[&game.id, &(ply as i64), &mv.uci, &millis(mv.time_ms)?],
                )
                .map_err(backend)?;
            }
            commit(tx)
        })
    }

    fn push_move(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        mv: &StoredMove,
        standing: &Standing,
    ) -> Result<(), StoreError> {
        self.run(|client| {
            let mut tx = client.transaction().map_err(backend)?;
            let plies = begin_change(&mut tx, id, version)?;
            if plies != ply {
                return Err(StoreError::Conflict {
                    id: id.to_string(),
                    plies,
                    ply,
                });
            }
            tx.execute(
                "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES ($1, $2, $3, $4)",
                &[&id, &(ply as i64), &mv.uci, &millis(mv.time_ms)?],
            )
            .map_err(backend)?;
            finish_change(&mut tx, id, standing)?;
            commit(tx)
        })
    }

    fn truncate(
        &self,
        id: &str,
        version: i64,
        plies: usize,
        standing: &Standing,
    ) -> Result<(), StoreError> {
        self.run(|client| {
            let mut tx = client.transaction().map_err(backend)?;
            begin_change(&mut tx, id, version)?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                &[&id, &(plies as i64)],
            )
            .map_err(backend)?;
            finish_change(&mut tx, id, standing)?;
            commit(tx)
        })
    }

    fn set_standing(&self, id: &str, version: i64, standing: &Standing) -> Result<(), StoreError> {
        self.run(|client| {
            let mut tx = client.transaction().map_err(backend)?;
            begin_change(&mut tx, id, version)?;
            finish_change(&mut tx, id, standing)?;
            commit(tx)
        })
    }

    fn claim_engine_move(
        &self,
        id: &str,
        ply: usize,
        holder: &str,
        lease: Duration,
    ) -> Result<EngineClaim, StoreError> {
        self.run(|client| {
            // The database's clock, so that servers whose clocks differ agree on expiry.
            let mut tx = client.transaction().map_err(backend)?;
            // The game's row lock orders the claim with the moves being stored (a move's
            // transaction holds it too): the count below, read after it, is the latest.
            let Some(status) = tx
                .query_opt("SELECT status FROM games WHERE id = $1 FOR UPDATE", &[&id])
                .map_err(backend)?
            else {
                return Err(StoreError::NotFound(id.to_string()));
            };
            let moves: i64 = tx
                .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&id])
                .map_err(backend)?
                .get(0);
            if !super::waits_for(ply, moves, status.get(0)) {
                return Ok(EngineClaim::MovedOn);
            }
            let now: i64 = tx
                .query_one(
                    "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT",
                    &[],
                )
                .map_err(backend)?
                .get(0);
            let won = tx
                .query_opt(
                    super::CLAIM_UPSERT,
                    &[&id, &(ply as i64), &holder, &now, &super::lease_ms(lease)],
                )
                .map_err(backend)?;
            let claim = match won {
                Some(_) => EngineClaim::Won,
                None => {
                    let row = tx
                        .query_one(
                            "SELECT holder, until_ms FROM engine_claims WHERE game_id = $1",
                            &[&id],
                        )
                        .map_err(backend)?;
                    super::held_claim(row.get(0), row.get(1), now)
                }
            };
            tx.commit().map_err(backend)?;
            Ok(claim)
        })
    }

    fn release_engine_move(&self, id: &str, ply: usize, holder: &str) -> Result<(), StoreError> {
        self.run(|client| {
            client
                .execute(
                    "DELETE FROM engine_claims WHERE game_id = $1 AND ply = $2 AND holder = $3",
                    &[&id, &(ply as i64), &holder],
                )
                .map_err(backend)?;
            Ok(())
        })
    }

    fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.run(|client| {
            Ok(client
                .query_opt("SELECT version FROM games WHERE id = $1", &[&id])
                .map_err(backend)?
                .map(|row| row.get(0)))
        })
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.run(|client| {
            // One snapshot: the game's row and its moves as of one moment.
            let mut client = client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(backend)?;
            let Some(row) = client
            .query_opt(
                "SELECT game, start, opponent, engine_level, engine_side, creator, first_token, \
                 second_token, clock_initial_ms, clock_increment_ms, status, winner, reason, \
                 created_ms, updated_ms, record_info, version, draw_offer FROM games WHERE id = $1",
                &[&id],
            )
            .map_err(backend)?
        else {
            return Ok(None);
        };
            let moves = client
                .query(
                    "SELECT uci, time_ms FROM moves WHERE game_id = $1 ORDER BY ply",
                    &[&id],
                )
                .map_err(backend)?
                .iter()
                .map(|r| StoredMove {
                    uci: r.get(0),
                    time_ms: r.get::<_, i64>(1).max(0) as u64,
                })
                .collect();
            let opponent: String = row.get(2);
            let engine_side: Option<String> = row.get(4);
            let creator: String = row.get(5);
            Ok(Some(StoredGame {
                id: id.to_string(),
                game: row.get(0),
                start: row.get(1),
                opponent: opponent_of(&opponent, row.get(3), engine_side.as_deref())?,
                creator: side_of(&creator)?,
                tokens: [row.get(6), row.get(7)],
                clock: clock_of(row.get(8), row.get(9)),
                result: result_of(row.get(10), row.get(11), row.get(12)),
                created_ms: row.get(13),
                updated_ms: row.get(14),
                moves,
                record_info: row.get(15),
                version: row.get(16),
                draw_offer: draw_offer_of(row.get::<_, Option<String>>(17).as_deref())?,
            }))
        })
    }

    fn list(&self, limit: usize, offset: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.run(|client| {
            let rows = client
                .query(
                    "SELECT g.id, g.game, g.opponent, g.engine_level, g.engine_side, g.status, \
                 g.winner, g.reason, g.created_ms, g.updated_ms, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
                 FROM games g ORDER BY g.updated_ms DESC, g.id LIMIT $1 OFFSET $2",
                    &[&(limit as i64), &(offset as i64)],
                )
                .map_err(backend)?;
            rows.iter()
                .map(|r| {
                    let opponent: String = r.get(2);
                    let side: Option<String> = r.get(4);
                    Ok(GameSummary {
                        id: r.get(0),
                        game: r.get(1),
                        opponent: opponent_of(&opponent, r.get(3), side.as_deref())?,
                        result: result_of(r.get(5), r.get(6), r.get(7)),
                        plies: r.get::<_, i64>(10).max(0) as usize,
                        created_ms: r.get(8),
                        updated_ms: r.get(9),
                    })
                })
                .collect()
        })
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
