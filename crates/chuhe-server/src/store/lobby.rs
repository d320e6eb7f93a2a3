//! [`LobbyStore`] over SQL: seeks and challenges, each accepted in one transaction with the
//! game it makes.

use chuhe::Side;

use super::games::{earlier_in, insert_game, remember};
use super::sql::{params, Database, Dialect, Row, Tx, Value};
use super::{
    millis, Challenge, Created, Idempotency, LobbyStore, MakeChallengeGame, MakeSeekGame,
    PlayerRef, Seek, SqlStore, StoreError, StoredGame, TimeControl, LOBBY_CHANNEL,
};

const SEEK_COLUMNS: &str = "s.id, s.user_id, u.name, u.guest, s.game, s.initial_ms, \
     s.increment_ms, s.rated, s.color, s.socket, s.created_ms";

fn clock_at(row: &Row, at: usize) -> Result<Option<TimeControl>, StoreError> {
    Ok(match (row.opt_int(at)?, row.opt_int(at + 1)?) {
        (Some(i), Some(n)) => Some(TimeControl {
            initial_ms: i.max(0) as u64,
            increment_ms: n.max(0) as u64,
        }),
        _ => None,
    })
}

fn seek_at(row: &Row) -> Result<Seek, StoreError> {
    Ok(Seek {
        id: row.text(0)?,
        player: PlayerRef {
            id: row.text(1)?,
            name: row.text(2)?,
            guest: row.bool(3)?,
        },
        game: row.text(4)?,
        clock: clock_at(row, 5)?,
        rated: row.bool(7)?,
        color: row.text(8)?,
        socket: row.opt_text(9)?,
        created_ms: row.int(10)?,
    })
}

const CHALLENGE_COLUMNS: &str = "c.id, c.from_user, f.name, f.guest, c.to_user, t.name, \
     t.guest, c.game, c.initial_ms, c.increment_ms, c.rated, c.color, c.status, c.game_id, \
     c.created_ms";

const CHALLENGE_FROM: &str =
    "FROM challenges c JOIN users f ON f.id = c.from_user JOIN users t ON t.id = c.to_user";

fn challenge_at(row: &Row) -> Result<Challenge, StoreError> {
    Ok(Challenge {
        id: row.text(0)?,
        from: PlayerRef {
            id: row.text(1)?,
            name: row.text(2)?,
            guest: row.bool(3)?,
        },
        to: PlayerRef {
            id: row.text(4)?,
            name: row.text(5)?,
            guest: row.bool(6)?,
        },
        game: row.text(7)?,
        clock: clock_at(row, 8)?,
        rated: row.bool(10)?,
        color: row.text(11)?,
        status: row.text(12)?,
        game_id: row.opt_text(13)?,
        created_ms: row.int(14)?,
    })
}

fn clock_values(clock: Option<TimeControl>) -> Result<(Value, Value), StoreError> {
    Ok(match clock {
        Some(c) => (
            Value::Int(millis(c.initial_ms)?),
            Value::Int(millis(c.increment_ms)?),
        ),
        None => (Value::Null, Value::Null),
    })
}

/// The seat of `player` in `game`.
fn seat_of(game: &StoredGame, player: &str) -> Side {
    if game.players[1].as_ref().is_some_and(|p| p.id == player) {
        Side::Second
    } else {
        Side::First
    }
}

/// Writes `game` under `key` (when given): [`Created::Earlier`] when the key made a game
/// already (then nothing is written).
fn insert_once(
    tx: &mut dyn Tx,
    game: &StoredGame,
    key: Option<&Idempotency>,
    side: Side,
) -> Result<Created, StoreError> {
    if let Some(key) = key {
        if let earlier @ Created::Earlier { .. } = remember(tx, key, &game.id, side)? {
            return Ok(earlier);
        }
    }
    insert_game(tx, game)?;
    Ok(Created::New)
}

impl<D: Database> LobbyStore for SqlStore<D> {
    fn add_seek(&self, seek: &Seek) -> Result<(), StoreError> {
        self.write(|tx| {
            let (initial, increment) = clock_values(seek.clock)?;
            tx.execute(
                "INSERT INTO seeks (id, user_id, game, initial_ms, increment_ms, rated, color, \
                 socket, created_ms, seen_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
                &[
                    Value::from(&seek.id),
                    Value::from(&seek.player.id),
                    Value::from(&seek.game),
                    initial,
                    increment,
                    Value::Bool(seek.rated),
                    Value::from(&seek.color),
                    Value::from(seek.socket.as_deref()),
                    Value::Int(seek.created_ms),
                ],
            )?;
            tx.notify(LOBBY_CHANNEL, "seeks")
        })
    }

    fn seeks(&self) -> Result<Vec<Seek>, StoreError> {
        self.read(|tx| {
            tx.query(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks s JOIN users u ON u.id = s.user_id \
                     ORDER BY s.created_ms, s.id"
                ),
                &[],
            )?
            .iter()
            .map(seek_at)
            .collect()
        })
    }

    fn remove_seek(&self, id: &str, user_id: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            let n = tx.execute(
                "DELETE FROM seeks WHERE id = $1 AND user_id = $2",
                params![id, user_id],
            )?;
            if n > 0 {
                tx.notify(LOBBY_CHANNEL, "seeks")?;
            }
            Ok(n > 0)
        })
    }

    fn remove_seeks_of_sockets(&self, sockets: &[String]) -> Result<usize, StoreError> {
        if sockets.is_empty() {
            return Ok(0);
        }
        self.write(|tx| {
            let mut n = 0;
            for socket in sockets {
                n += tx.execute("DELETE FROM seeks WHERE socket = $1", params![socket])?;
            }
            if n > 0 {
                tx.notify(LOBBY_CHANNEL, "seeks")?;
            }
            Ok(n as usize)
        })
    }

    fn keep_seeks(&self, sockets: &[String]) -> Result<(), StoreError> {
        if sockets.is_empty() {
            return Ok(());
        }
        self.write(|tx| {
            let now = tx.now_ms()?;
            for socket in sockets {
                tx.execute(
                    "UPDATE seeks SET seen_ms = $2 WHERE socket = $1",
                    params![socket, now],
                )?;
            }
            Ok(())
        })
    }

    fn expire_seeks(&self, stale_ms: i64, socketless_ms: i64) -> Result<usize, StoreError> {
        // Most of the time there are none: a read finds that without a write.
        let any = self.read(|tx| {
            let now = tx.now_ms()?;
            Ok(tx
                .query_opt(
                    "SELECT id FROM seeks WHERE (socket IS NOT NULL AND seen_ms < $1) \
                     OR (socket IS NULL AND created_ms < $2) LIMIT 1",
                    params![now - stale_ms, now - socketless_ms],
                )?
                .is_some())
        })?;
        if !any {
            return Ok(0);
        }
        self.write(|tx| {
            let now = tx.now_ms()?;
            let n = tx.execute(
                "DELETE FROM seeks WHERE (socket IS NOT NULL AND seen_ms < $1) \
                 OR (socket IS NULL AND created_ms < $2)",
                params![now - stale_ms, now - socketless_ms],
            )?;
            if n > 0 {
                tx.notify(LOBBY_CHANNEL, "seeks")?;
            }
            Ok(n as usize)
        })
    }

    fn accept_seek(
        &self,
        id: &str,
        acceptor: &PlayerRef,
        make: MakeSeekGame<'_>,
        key: Option<&Idempotency>,
    ) -> Result<Option<(Seek, StoredGame)>, StoreError> {
        self.write(|tx| {
            let lock = match tx.dialect() {
                Dialect::Sqlite => "",
                Dialect::Postgres => " FOR UPDATE OF s",
            };
            let Some(row) = tx.query_opt(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks s JOIN users u ON u.id = s.user_id \
                     WHERE s.id = $1{lock}"
                ),
                params![id],
            )?
            else {
                return Ok(None);
            };
            let seek = seek_at(&row)?;
            let game = make(&seek, acceptor)?;
            if let Created::Earlier { .. } =
                insert_once(tx, &game, key, seat_of(&game, &acceptor.id))?
            {
                return Err(StoreError::Duplicate(game.id.clone()));
            }
            tx.execute("DELETE FROM seeks WHERE id = $1", params![id])?;
            // The seeker's other seeks go too: they are playing now.
            tx.execute(
                "DELETE FROM seeks WHERE user_id = $1 OR user_id = $2",
                params![&seek.player.id, &acceptor.id],
            )?;
            tx.notify(LOBBY_CHANNEL, "seeks")?;
            tx.notify(
                LOBBY_CHANNEL,
                &format!("start {} {} {}", game.id, seek.player.id, acceptor.id),
            )?;
            Ok(Some((seek, game)))
        })
    }

    fn add_challenge(&self, challenge: &Challenge) -> Result<(), StoreError> {
        self.write(|tx| {
            let (initial, increment) = clock_values(challenge.clock)?;
            tx.execute(
                "INSERT INTO challenges (id, from_user, to_user, game, initial_ms, increment_ms, \
                 rated, color, status, game_id, created_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                &[
                    Value::from(&challenge.id),
                    Value::from(&challenge.from.id),
                    Value::from(&challenge.to.id),
                    Value::from(&challenge.game),
                    initial,
                    increment,
                    Value::Bool(challenge.rated),
                    Value::from(&challenge.color),
                    Value::from(&challenge.status),
                    Value::from(challenge.game_id.as_deref()),
                    Value::Int(challenge.created_ms),
                ],
            )?;
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", challenge.to.id))?;
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", challenge.from.id))
        })
    }

    fn challenges_of(&self, user_id: &str) -> Result<Vec<Challenge>, StoreError> {
        self.read(|tx| {
            tx.query(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} \
                     WHERE (c.from_user = $1 OR c.to_user = $1) AND c.status = 'open' \
                     ORDER BY c.created_ms"
                ),
                params![user_id],
            )?
            .iter()
            .map(challenge_at)
            .collect()
        })
    }

    fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        self.read(|tx| {
            tx.query_opt(
                &format!("SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE c.id = $1"),
                params![id],
            )?
            .map(|r| challenge_at(&r))
            .transpose()
        })
    }

    fn close_challenge(&self, id: &str, status: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            let row = tx.query_opt(
                "UPDATE challenges SET status = $2 WHERE id = $1 AND status = 'open' \
                 RETURNING from_user, to_user",
                params![id, status],
            )?;
            let Some(row) = row else { return Ok(false) };
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", row.text(0)?))?;
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", row.text(1)?))?;
            Ok(true)
        })
    }

    fn accept_challenge(
        &self,
        id: &str,
        make: MakeChallengeGame<'_>,
        key: Option<&Idempotency>,
    ) -> Result<Option<(Challenge, StoredGame)>, StoreError> {
        self.write(|tx| {
            let lock = match tx.dialect() {
                Dialect::Sqlite => "",
                Dialect::Postgres => " FOR UPDATE OF c",
            };
            let Some(row) = tx.query_opt(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE c.id = $1 \
                     AND c.status = 'open'{lock}"
                ),
                params![id],
            )?
            else {
                return Ok(None);
            };
            let challenge = challenge_at(&row)?;
            let game = make(&challenge)?;
            if let Created::Earlier { .. } =
                insert_once(tx, &game, key, seat_of(&game, &challenge.to.id))?
            {
                return Err(StoreError::Duplicate(game.id.clone()));
            }
            tx.execute(
                "UPDATE challenges SET status = 'accepted', game_id = $2 WHERE id = $1",
                params![id, &game.id],
            )?;
            tx.notify(
                LOBBY_CHANNEL,
                &format!(
                    "start {} {} {}",
                    game.id, challenge.from.id, challenge.to.id
                ),
            )?;
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", challenge.from.id))?;
            tx.notify(LOBBY_CHANNEL, &format!("challenge {}", challenge.to.id))?;
            Ok(Some((challenge, game)))
        })
    }

    fn earlier(&self, key: &Idempotency) -> Result<Option<Created>, StoreError> {
        self.read(|tx| earlier_in(tx, key))
    }
}
