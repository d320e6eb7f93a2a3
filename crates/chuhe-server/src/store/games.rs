//! [`GameStore`] over SQL: games, moves, results (with the ratings they change), seats,
//! rematches, the archive's queries, engine claims and presence.

use std::time::Duration;

use chuhe::Side;

use super::sql::{params, Database, Row, Tx, Value};
use super::{
    millis, ratings, side_of, ArchiveQuery, Created, EngineClaim, GameStore, GameSummary,
    Idempotency, Opponent, PlayerRef, Presence, ResultFilter, SeatRating, SqlStore, Standing,
    StoreError, StoredGame, StoredMove, StoredResult, Tally, TimeControl, CHANGES_CHANNEL,
};

/// The columns of a game, from `games g` joined with its players `u1` and `u2` (read by
/// [`game_of`]).
const GAME_COLUMNS: &str = "g.id, g.game, g.start, g.opponent, g.engine_level, g.engine_side, \
     g.creator, g.first_token, g.second_token, g.clock_initial_ms, g.clock_increment_ms, \
     g.status, g.winner, g.reason, g.created_ms, g.updated_ms, g.record_info, g.version, \
     g.draw_offer, g.invite, g.rated, g.rated_ms, g.deadline_ms, g.rematch_offer, g.rematch_id, g.turn_ms, \
     g.first_user, u1.name, u1.guest, g.second_user, u2.name, u2.guest, \
     g.first_rating, g.first_provisional, g.first_diff, \
     g.second_rating, g.second_provisional, g.second_diff";

const WITH_PLAYERS: &str = "FROM games g LEFT JOIN users u1 ON u1.id = g.first_user \
     LEFT JOIN users u2 ON u2.id = g.second_user";

/// The columns of an archive line (read by [`summary_of`]).
const SUMMARY_COLUMNS: &str = "g.id, g.game, g.opponent, g.engine_level, g.engine_side, \
     g.creator, g.clock_initial_ms, g.clock_increment_ms, g.status, g.winner, g.reason, \
     g.created_ms, g.updated_ms, g.rated, \
     g.first_user, u1.name, u1.guest, g.second_user, u2.name, u2.guest, \
     g.first_rating, g.first_provisional, g.first_diff, \
     g.second_rating, g.second_provisional, g.second_diff, \
     (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)";

fn opponent_columns(opponent: Opponent) -> (&'static str, Option<i64>, Option<&'static str>) {
    match opponent {
        Opponent::Engine { level, side } => ("engine", Some(i64::from(level)), Some(side.as_str())),
        other => (other.as_str(), None, None),
    }
}

fn opponent_of(kind: &str, level: Option<i64>, side: Option<&str>) -> Result<Opponent, StoreError> {
    match (kind, level, side) {
        ("friend", _, _) => Ok(Opponent::Friend),
        ("record", _, _) => Ok(Opponent::Record),
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

/// A seat's player from `(id, name, guest)` columns starting at `at`.
fn player_at(row: &Row, at: usize) -> Result<Option<PlayerRef>, StoreError> {
    let Some(id) = row.opt_text(at)? else {
        return Ok(None);
    };
    Ok(Some(PlayerRef {
        id,
        name: row.opt_text(at + 1)?.unwrap_or_default(),
        guest: row.bool(at + 2)?,
    }))
}

/// A seat's rating from `(rating, provisional, diff)` columns starting at `at`.
fn seat_rating_at(row: &Row, at: usize) -> Result<Option<SeatRating>, StoreError> {
    Ok(row.opt_int(at)?.map(|rating| SeatRating {
        rating,
        provisional: row.bool(at + 1).unwrap_or(false),
        diff: row.opt_int(at + 2).ok().flatten(),
    }))
}

fn game_of(row: &Row, moves: Vec<StoredMove>) -> Result<StoredGame, StoreError> {
    let opponent = row.text(3)?;
    Ok(StoredGame {
        id: row.text(0)?,
        game: row.text(1)?,
        start: row.text(2)?,
        opponent: opponent_of(&opponent, row.opt_int(4)?, row.opt_text(5)?.as_deref())?,
        creator: side_of(&row.text(6)?)?,
        tokens: [row.text(7)?, row.text(8)?],
        clock: clock_of(row.opt_int(9)?, row.opt_int(10)?),
        result: result_of(row.opt_text(11)?, row.opt_text(12)?, row.opt_text(13)?),
        created_ms: row.int(14)?,
        updated_ms: row.int(15)?,
        record_info: row.opt_text(16)?,
        version: row.int(17)?,
        draw_offer: row.opt_text(18)?.as_deref().map(side_of).transpose()?,
        invite: row.opt_text(19)?,
        rated: row.bool(20)?,
        rated_ms: row.opt_int(21)?,
        deadline_ms: row.opt_int(22)?,
        rematch_offer: row.opt_text(23)?.as_deref().map(side_of).transpose()?,
        rematch_id: row.opt_text(24)?,
        turn_ms: row.opt_int(25)?,
        players: [player_at(row, 26)?, player_at(row, 29)?],
        ratings: [seat_rating_at(row, 32)?, seat_rating_at(row, 35)?],
        moves,
    })
}

fn summary_of(row: &Row) -> Result<GameSummary, StoreError> {
    let opponent = row.text(2)?;
    Ok(GameSummary {
        id: row.text(0)?,
        game: row.text(1)?,
        opponent: opponent_of(&opponent, row.opt_int(3)?, row.opt_text(4)?.as_deref())?,
        creator: side_of(&row.text(5)?)?,
        clock: clock_of(row.opt_int(6)?, row.opt_int(7)?),
        result: result_of(row.opt_text(8)?, row.opt_text(9)?, row.opt_text(10)?),
        created_ms: row.int(11)?,
        updated_ms: row.int(12)?,
        rated: row.bool(13)?,
        players: [player_at(row, 14)?, player_at(row, 17)?],
        ratings: [seat_rating_at(row, 20)?, seat_rating_at(row, 23)?],
        plies: row.int(26)?.max(0) as usize,
        spectators: row
            .0
            .get(27)
            .map(|_| row.int(27))
            .transpose()?
            .unwrap_or(0)
            .max(0) as u64,
    })
}

/// Writes a new game in `tx`; a rated game gets its players' current ratings.
pub(super) fn insert_game(tx: &mut dyn Tx, game: &StoredGame) -> Result<(), StoreError> {
    let (opponent, level, engine_side) = opponent_columns(game.opponent);
    let result = game.result.as_ref();
    let mut seat_ratings = game.ratings;
    if game.rated {
        if let Some(perf) = game.perf() {
            for (seat, player) in seat_ratings.iter_mut().zip(&game.players) {
                if let (None, Some(p)) = (&seat, player) {
                    let r = ratings::current(tx, &p.id, &perf)?.unwrap_or_default();
                    *seat = Some(SeatRating {
                        rating: r.shown(),
                        provisional: r.provisional(),
                        diff: None,
                    });
                }
            }
        }
    }
    let rating = |i: usize| seat_ratings[i].map(|r| r.rating);
    let provisional = |i: usize| seat_ratings[i].is_some_and(|r| r.provisional);
    let diff = |i: usize| seat_ratings[i].and_then(|r| r.diff);
    let inserted = tx.execute(
        "INSERT INTO games (id, game, start, opponent, engine_level, engine_side, creator, \
         first_token, second_token, clock_initial_ms, clock_increment_ms, status, winner, \
         reason, created_ms, updated_ms, record_info, version, draw_offer, invite, rated, \
         rated_ms, deadline_ms, rematch_offer, rematch_id, first_user, second_user, \
         first_rating, first_provisional, first_diff, second_rating, second_provisional, \
         second_diff, turn_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, \
         $34) \
         ON CONFLICT (id) DO NOTHING",
        params![
            &game.id,
            &game.game,
            &game.start,
            opponent,
            level,
            engine_side,
            game.creator.as_str(),
            &game.tokens[0],
            &game.tokens[1],
            game.clock.map(|c| millis(c.initial_ms)).transpose()?,
            game.clock.map(|c| millis(c.increment_ms)).transpose()?,
            result.map(|r| r.status.as_str()),
            result.map(|r| r.winner.as_str()),
            result.and_then(|r| r.reason.as_deref()),
            game.created_ms,
            game.updated_ms,
            game.record_info.as_deref(),
            game.version,
            game.draw_offer.map(Side::as_str),
            game.invite.as_deref(),
            game.rated,
            game.rated_ms,
            game.deadline_ms,
            game.rematch_offer.map(Side::as_str),
            game.rematch_id.as_deref(),
            game.players[0].as_ref().map(|p| p.id.as_str()),
            game.players[1].as_ref().map(|p| p.id.as_str()),
            rating(0),
            provisional(0),
            diff(0),
            rating(1),
            provisional(1),
            diff(1),
            game.turn_ms.unwrap_or(game.created_ms),
        ],
    )?;
    if inserted == 0 {
        return Err(StoreError::Duplicate(game.id.clone()));
    }
    for (ply, mv) in game.moves.iter().enumerate() {
        tx.execute(
            "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES ($1, $2, $3, $4)",
            params![&game.id, ply as i64, &mv.uci, millis(mv.time_ms)?],
        )?;
    }
    Ok(())
}

/// Reads the game `id` in `tx`.
pub(super) fn load_game(tx: &mut dyn Tx, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = tx.query_opt(
        &format!("SELECT {GAME_COLUMNS} {WITH_PLAYERS} WHERE g.id = $1"),
        params![id],
    )?
    else {
        return Ok(None);
    };
    let moves = tx
        .query(
            "SELECT uci, time_ms FROM moves WHERE game_id = $1 ORDER BY ply",
            params![id],
        )?
        .iter()
        .map(|r| {
            Ok(StoredMove {
                uci: r.text(0)?,
                time_ms: r.int(1)?.max(0) as u64,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    game_of(&row, moves).map(Some)
}

/// What a change begins with: the game's row locked (PostgreSQL), its move count, and whether
/// it has a result.
struct Begun {
    plies: usize,
    finished: Option<StoredResult>,
}

/// Starts a change of the game made on `version`: [`StoreError::NotFound`] without the game,
/// [`StoreError::Stale`] when it is at another version.
fn begin_change(tx: &mut dyn Tx, id: &str, version: i64) -> Result<Begun, StoreError> {
    let lock = tx.dialect().for_update();
    let Some(row) = tx.query_opt(
        &format!("SELECT version, status, winner, reason FROM games WHERE id = $1{lock}"),
        params![id],
    )?
    else {
        return Err(StoreError::NotFound(id.to_string()));
    };
    let found = row.int(0)?;
    if found != version {
        return Err(StoreError::Stale {
            id: id.to_string(),
            expected: version,
            found,
        });
    }
    let plies = tx
        .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", params![id])?
        .int(0)?;
    Ok(Begun {
        plies: plies.max(0) as usize,
        finished: result_of(row.opt_text(1)?, row.opt_text(2)?, row.opt_text(3)?),
    })
}

/// Writes the standing, counts the version up, announces the change, and rates the game
/// when this change brings the result of a rated game; `new_turn`: the side to move begins
/// thinking now (a move, a take-back).
fn finish_change(
    tx: &mut dyn Tx,
    id: &str,
    standing: &Standing,
    new_turn: bool,
) -> Result<(), StoreError> {
    let result = standing.result.as_ref();
    let now = super::now_ms();
    let turn = if new_turn { ", turn_ms = $8" } else { "" };
    let version = tx
        .query_one(
            &format!(
                "UPDATE games SET status = $2, winner = $3, reason = $4, draw_offer = $5, \
                 rematch_offer = $6, deadline_ms = $7, version = version + 1, \
                 updated_ms = $8{turn} WHERE id = $1 RETURNING version"
            ),
            params![
                id,
                result.map(|r| r.status.as_str()),
                result.map(|r| r.winner.as_str()),
                result.and_then(|r| r.reason.as_deref()),
                standing.draw_offer.map(Side::as_str),
                standing.rematch_offer.map(Side::as_str),
                standing.deadline_ms,
                now,
            ],
        )?
        .int(0)?;
    if result.is_some() {
        ratings::rate_if_due(tx, id, now)?;
    }
    tx.notify(CHANGES_CHANNEL, &format!("{id} {version}"))
}

/// Refuses a change that would undo or replace the result `finished` of game `id`.
fn keep_result(
    id: &str,
    finished: &Option<StoredResult>,
    standing: &Standing,
) -> Result<(), StoreError> {
    match finished {
        Some(r) if standing.result.as_ref() != Some(r) => Err(StoreError::Finished(id.into())),
        _ => Ok(()),
    }
}

/// Keeps the answer of a creation under an `Idempotency-Key`, or finds the earlier one.
pub(super) fn remember(
    tx: &mut dyn Tx,
    key: &Idempotency,
    game_id: &str,
    side: Side,
) -> Result<Created, StoreError> {
    let body = serde_json::json!({"game_id": game_id, "side": side.as_str()}).to_string();
    let kept = tx.execute(
        "INSERT INTO idempotency (scope, key, route, status, body, created_ms) \
         VALUES ($1, $2, $3, 201, $4, $5) ON CONFLICT (scope, key) DO NOTHING",
        params![&key.scope, &key.key, &key.route, body, super::now_ms()],
    )?;
    if kept == 1 {
        return Ok(Created::New);
    }
    earlier_in(tx, key)?.ok_or_else(|| StoreError::Backend("an idempotency key vanished".into()))
}

/// The creation kept under `key`, if any.
pub(super) fn earlier_in(
    tx: &mut dyn Tx,
    key: &Idempotency,
) -> Result<Option<Created>, StoreError> {
    let Some(row) = tx.query_opt(
        "SELECT route, body FROM idempotency WHERE scope = $1 AND key = $2",
        params![&key.scope, &key.key],
    )?
    else {
        return Ok(None);
    };
    let body: serde_json::Value = serde_json::from_str(&row.text(1)?)
        .map_err(|e| StoreError::Backend(format!("an unreadable idempotency record: {e}")))?;
    Ok(Some(Created::Earlier {
        game_id: body["game_id"].as_str().unwrap_or_default().to_string(),
        route: row.text(0)?,
        side: body["side"].as_str().unwrap_or("first").to_string(),
    }))
}

/// The archive's `WHERE` for a query, and its parameters (from `$1`).
fn archive_filter(query: &ArchiveQuery) -> (String, Vec<Value>) {
    let mut conditions: Vec<String> = Vec::new();
    let mut values: Vec<Value> = Vec::new();
    let param = |values: &mut Vec<Value>, v: Value| {
        values.push(v);
        format!("${}", values.len())
    };
    if let Some(player) = &query.player {
        let p = param(&mut values, player.into());
        conditions.push(format!("(g.first_user = {p} OR g.second_user = {p})"));
        if let Some(opponent) = &query.opponent {
            let o = param(&mut values, opponent.into());
            conditions.push(format!(
                "((g.first_user = {p} AND g.second_user = {o}) OR \
                 (g.second_user = {p} AND g.first_user = {o}))"
            ));
        }
        match query.result {
            Some(ResultFilter::Win) => conditions.push(format!(
                "((g.winner = 'first' AND g.first_user = {p}) OR \
                 (g.winner = 'second' AND g.second_user = {p}))"
            )),
            Some(ResultFilter::Loss) => conditions.push(format!(
                "((g.winner = 'second' AND g.first_user = {p}) OR \
                 (g.winner = 'first' AND g.second_user = {p}))"
            )),
            _ => {}
        }
    }
    match query.result {
        Some(ResultFilter::Ongoing) => {
            conditions.push("g.status IS NULL AND g.opponent <> 'record'".into())
        }
        Some(ResultFilter::Finished) => conditions.push("g.status IS NOT NULL".into()),
        Some(ResultFilter::Aborted) => conditions.push("g.status = 'aborted'".into()),
        Some(ResultFilter::Draw) => conditions
            .push("g.status IS NOT NULL AND g.status <> 'aborted' AND g.winner = 'none'".into()),
        _ => {}
    }
    if let Some(game) = &query.game {
        let g = param(&mut values, game.into());
        conditions.push(format!("g.game = {g}"));
    }
    if let Some(since) = query.since_ms {
        let s = param(&mut values, since.into());
        conditions.push(format!("g.created_ms >= {s}"));
    }
    if let Some(until) = query.until_ms {
        let u = param(&mut values, until.into());
        conditions.push(format!("g.created_ms < {u}"));
    }
    match query.clock {
        Some(Some(tc)) => {
            let i = param(&mut values, (tc.initial_ms as i64).into());
            let n = param(&mut values, (tc.increment_ms as i64).into());
            conditions.push(format!(
                "g.clock_initial_ms = {i} AND g.clock_increment_ms = {n}"
            ));
        }
        Some(None) => conditions.push("g.clock_initial_ms IS NULL".into()),
        None => {}
    }
    if let Some(rated) = query.rated {
        let r = param(&mut values, rated.into());
        conditions.push(format!("g.rated = {r}"));
    }
    if let Some(kind) = &query.opponent_kind {
        let k = param(&mut values, kind.into());
        conditions.push(format!("g.opponent = {k}"));
    }
    let filter = if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conditions.join(" AND "))
    };
    (filter, values)
}

impl<D: Database> GameStore for SqlStore<D> {
    fn create(&self, game: &StoredGame) -> Result<(), StoreError> {
        self.write(|tx| insert_game(tx, game))
    }

    fn create_once(
        &self,
        game: &StoredGame,
        key: &Idempotency,
        side: Side,
    ) -> Result<Created, StoreError> {
        self.write(|tx| {
            let created = remember(tx, key, &game.id, side)?;
            if created == Created::New {
                insert_game(tx, game)?;
            }
            Ok(created)
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
        self.write(|tx| {
            let begun = begin_change(tx, id, version)?;
            if begun.finished.is_some() {
                return Err(StoreError::Finished(id.to_string()));
            }
            if begun.plies != ply {
                return Err(StoreError::Conflict {
                    id: id.to_string(),
                    plies: begun.plies,
                    ply,
                });
            }
            tx.execute(
                "INSERT INTO moves (game_id, ply, uci, time_ms) VALUES ($1, $2, $3, $4)",
                params![id, ply as i64, &mv.uci, millis(mv.time_ms)?],
            )?;
            // A claim on the engine's move at this ply is done with: the move is stored.
            tx.execute(
                "DELETE FROM engine_claims WHERE game_id = $1 AND ply <= $2",
                params![id, ply as i64],
            )?;
            finish_change(tx, id, standing, true)
        })
    }

    fn truncate(
        &self,
        id: &str,
        version: i64,
        plies: usize,
        standing: &Standing,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            let begun = begin_change(tx, id, version)?;
            if begun.finished.is_some() {
                return Err(StoreError::Finished(id.to_string()));
            }
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                params![id, plies as i64],
            )?;
            finish_change(tx, id, standing, true)
        })
    }

    fn set_standing(&self, id: &str, version: i64, standing: &Standing) -> Result<(), StoreError> {
        self.write(|tx| {
            let begun = begin_change(tx, id, version)?;
            keep_result(id, &begun.finished, standing)?;
            if begun.finished.is_some() {
                // Only the rematch offer may change on a finished game: the rating (if any)
                // was made when the result was stored.
                let version = tx
                    .query_one(
                        "UPDATE games SET rematch_offer = $2, deadline_ms = NULL, \
                         version = version + 1, updated_ms = $3 WHERE id = $1 RETURNING version",
                        params![
                            id,
                            standing.rematch_offer.map(Side::as_str),
                            super::now_ms()
                        ],
                    )?
                    .int(0)?;
                return tx.notify(CHANGES_CHANNEL, &format!("{id} {version}"));
            }
            finish_change(tx, id, standing, false)
        })
    }

    fn take_seat(
        &self,
        id: &str,
        version: i64,
        side: Side,
        player: &str,
        key: Option<&Idempotency>,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            let begun = begin_change(tx, id, version)?;
            if let Some(key) = key {
                if let Created::Earlier { .. } = remember(tx, key, id, side)? {
                    return Err(StoreError::Duplicate(id.to_string()));
                }
            }
            if begun.finished.is_some() {
                return Err(StoreError::Finished(id.to_string()));
            }
            let column = match side {
                Side::First => "first_user",
                Side::Second => "second_user",
            };
            let taken = tx.execute(
                &format!(
                    "UPDATE games SET {column} = $2, version = version + 1, updated_ms = $3 \
                     WHERE id = $1 AND {column} IS NULL"
                ),
                params![id, player, super::now_ms()],
            )?;
            if taken == 0 {
                return Err(StoreError::SeatTaken {
                    id: id.to_string(),
                    side: side.as_str(),
                });
            }
            tx.notify(CHANGES_CHANNEL, &format!("{id} {}", version + 1))
        })
    }

    fn create_rematch(&self, id: &str, version: i64, game: &StoredGame) -> Result<(), StoreError> {
        self.write(|tx| {
            let begun = begin_change(tx, id, version)?;
            if begun.finished.is_none() {
                return Err(StoreError::Backend(format!(
                    "game '{id}' is not over: no rematch yet"
                )));
            }
            insert_game(tx, game)?;
            let version = tx
                .query_one(
                    "UPDATE games SET rematch_offer = NULL, rematch_id = $2, \
                     version = version + 1, updated_ms = $3 WHERE id = $1 RETURNING version",
                    params![id, &game.id, super::now_ms()],
                )?
                .int(0)?;
            tx.notify(CHANGES_CHANNEL, &format!("{id} {version}"))
        })
    }

    fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.read_one(|tx| {
            tx.query_opt("SELECT version FROM games WHERE id = $1", params![id])?
                .map(|r| r.int(0))
                .transpose()
        })
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.read(|tx| load_game(tx, id))
    }

    fn search(
        &self,
        query: &ArchiveQuery,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let (filter, mut values) = archive_filter(query);
        values.push(Value::Int(limit as i64));
        values.push(Value::Int(offset as i64));
        let n = values.len();
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} {WITH_PLAYERS} {filter} \
             ORDER BY g.created_ms DESC, g.id LIMIT ${} OFFSET ${n}",
            n - 1
        );
        self.read(|tx| tx.query(&sql, &values)?.iter().map(summary_of).collect())
    }

    fn count(&self, query: &ArchiveQuery) -> Result<u64, StoreError> {
        let (filter, values) = archive_filter(query);
        let sql = format!("SELECT COUNT(*) FROM games g {filter}");
        self.read(|tx| Ok(tx.query_one(&sql, &values)?.int(0)?.max(0) as u64))
    }

    fn tally(&self, user_id: &str) -> Result<Tally, StoreError> {
        self.read(|tx| {
            let row = tx.query_one(
                "SELECT \
                 CAST(COALESCE(SUM(CASE WHEN status IS NOT NULL AND status <> 'aborted' THEN 1 ELSE 0 END), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN (winner = 'first' AND first_user = $1) \
                   OR (winner = 'second' AND second_user = $1) THEN 1 ELSE 0 END), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN (winner = 'second' AND first_user = $1) \
                   OR (winner = 'first' AND second_user = $1) THEN 1 ELSE 0 END), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN winner = 'none' AND status <> 'aborted' THEN 1 ELSE 0 END), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN status IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
                 FROM games WHERE first_user = $1 OR second_user = $1",
                params![user_id],
            )?;
            let n = |i| row.int(i).map(|v| v.max(0) as u64);
            Ok(Tally {
                games: n(0)?,
                wins: n(1)?,
                losses: n(2)?,
                draws: n(3)?,
                playing: n(4)?,
            })
        })
    }

    fn list(&self, limit: usize, offset: usize) -> Result<Vec<GameSummary>, StoreError> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} {WITH_PLAYERS} \
             ORDER BY g.updated_ms DESC, g.id LIMIT $1 OFFSET $2"
        );
        self.read(|tx| {
            tx.query(&sql, params![limit as i64, offset as i64])?
                .iter()
                .map(summary_of)
                .collect()
        })
    }

    fn playing(&self, active_ms: i64, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, \
             CAST(COALESCE((SELECT SUM(p.spectators) FROM presence p \
               WHERE p.game_id = g.id AND p.seen_ms >= $1), 0) AS BIGINT) \
             {WITH_PLAYERS} WHERE g.status IS NULL AND g.opponent = 'friend' \
             AND g.first_user IS NOT NULL AND g.second_user IS NOT NULL \
             AND g.updated_ms >= $2 ORDER BY g.updated_ms DESC, g.id LIMIT $3"
        );
        self.read(|tx| {
            let now = tx.now_ms()?;
            tx.query(&sql, params![now - 60_000, now - active_ms, limit as i64])?
                .iter()
                .map(summary_of)
                .collect()
        })
    }

    fn overdue(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(|tx| {
            let now = tx.now_ms()?;
            tx.query(
                "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms < $1 \
                 AND status IS NULL ORDER BY deadline_ms LIMIT $2",
                params![now, limit as i64],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }

    fn unattended(&self, idle_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(|tx| {
            let now = tx.now_ms()?;
            tx.query(
                "SELECT g.id FROM games g WHERE g.status IS NULL AND g.opponent = 'friend' \
                 AND g.clock_initial_ms IS NULL AND g.first_user IS NOT NULL \
                 AND g.second_user IS NOT NULL AND g.turn_ms < $1 \
                 AND (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) >= 2 \
                 ORDER BY g.turn_ms LIMIT $2",
                params![now - idle_ms, limit as i64],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }

    fn claim_engine_move(
        &self,
        id: &str,
        ply: usize,
        holder: &str,
        lease: Duration,
    ) -> Result<EngineClaim, StoreError> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 4);
        self.write(|tx| {
            // The game's row lock orders the claim with the moves being stored (a move's
            // transaction holds it too): the count below, read after it, is the latest.
            let lock = tx.dialect().for_update();
            let Some(row) = tx.query_opt(
                &format!("SELECT status FROM games WHERE id = $1{lock}"),
                params![id],
            )?
            else {
                return Err(StoreError::NotFound(id.to_string()));
            };
            let moves = tx
                .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", params![id])?
                .int(0)?;
            if usize::try_from(moves) != Ok(ply) || row.opt_text(0)?.is_some() {
                return Ok(EngineClaim::MovedOn);
            }
            // The database's clock, so that servers whose clocks differ agree on expiry.
            let now = tx.now_ms()?;
            let won = tx.query_opt(
                "INSERT INTO engine_claims (game_id, ply, holder, until_ms) \
                 VALUES ($1, $2, $3, CAST($4 AS BIGINT) + CAST($5 AS BIGINT)) \
                 ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, \
                 holder = excluded.holder, until_ms = excluded.until_ms \
                 WHERE engine_claims.ply <> excluded.ply \
                 OR engine_claims.holder = excluded.holder OR engine_claims.until_ms < $4 \
                 RETURNING holder",
                params![id, ply as i64, holder, now, lease_ms],
            )?;
            if won.is_some() {
                return Ok(EngineClaim::Won);
            }
            let row = tx.query_one(
                "SELECT holder, until_ms FROM engine_claims WHERE game_id = $1",
                params![id],
            )?;
            Ok(EngineClaim::Held {
                by: row.text(0)?,
                remaining: Duration::from_millis(row.int(1)?.saturating_sub(now).max(0) as u64),
            })
        })
    }

    fn release_engine_move(&self, id: &str, ply: usize, holder: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "DELETE FROM engine_claims WHERE game_id = $1 AND ply = $2 AND holder = $3",
                params![id, ply as i64, holder],
            )
            .map(|_| ())
        })
    }

    fn report_presence(&self, server: &str, games: &[Presence]) -> Result<(), StoreError> {
        self.write(|tx| {
            let now = tx.now_ms()?;
            tx.execute("DELETE FROM presence WHERE server_id = $1", params![server])?;
            // Reports of servers that stopped reporting.
            tx.execute(
                "DELETE FROM presence WHERE seen_ms < $1",
                params![now - 10 * 60_000],
            )?;
            for p in games {
                tx.execute(
                    "INSERT INTO presence (server_id, game_id, first_here, second_here, \
                     spectators, seen_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                    params![
                        server,
                        &p.game_id,
                        p.seats[0],
                        p.seats[1],
                        p.spectators as i64,
                        now
                    ],
                )?;
            }
            Ok(())
        })
    }

    fn seats_present(&self, id: &str, fresh_ms: i64) -> Result<[bool; 2], StoreError> {
        self.read(|tx| {
            let now = tx.now_ms()?;
            let rows = tx.query(
                "SELECT first_here, second_here FROM presence \
                 WHERE game_id = $1 AND seen_ms >= $2",
                params![id, now - fresh_ms],
            )?;
            let mut here = [false; 2];
            for r in &rows {
                here[0] |= r.bool(0)?;
                here[1] |= r.bool(1)?;
            }
            Ok(here)
        })
    }
}
