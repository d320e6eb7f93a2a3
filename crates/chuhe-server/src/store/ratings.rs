//! [`RatingStore`] over SQL, and the rating of a game inside the transaction that stores its
//! result ([`rate_if_due`]).

use super::sql::{params, Database, Row, Tx};
use super::{PlayerRef, RatingChange, RatingStore, SqlStore, StoreError};
use crate::rating::{rate, Perf, PerfRating, Score};

const RATING_COLUMNS: &str = "rating, deviation, volatility, games, wins, losses, draws";

/// A rating from [`RATING_COLUMNS`] starting at `at`.
fn rating_at(row: &Row, at: usize) -> Result<PerfRating, StoreError> {
    Ok(PerfRating {
        rating: row.real(at)?,
        deviation: row.real(at + 1)?,
        volatility: row.real(at + 2)?,
        games: row.int(at + 3)?,
        wins: row.int(at + 4)?,
        losses: row.int(at + 5)?,
        draws: row.int(at + 6)?,
    })
}

/// The player's rating in `perf`, if they have one.
pub(super) fn current(
    tx: &mut dyn Tx,
    user_id: &str,
    perf: &Perf,
) -> Result<Option<PerfRating>, StoreError> {
    tx.query_opt(
        &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND perf = $2"),
        params![user_id, perf.to_string()],
    )?
    .map(|r| rating_at(&r, 0))
    .transpose()
}

/// Rates the game `id` if it is rated, has a result that counts (not an abort), two players
/// and no rating yet: both players' ratings (their rows locked, in the order of their ids, so
/// that two games rated at once cannot deadlock) change by Glicko-2, each change is kept in
/// the history, and the game keeps the differences. Called in the transaction that stores the
/// result, so a result is rated exactly once, or not stored at all.
pub(super) fn rate_if_due(tx: &mut dyn Tx, id: &str, now: i64) -> Result<(), StoreError> {
    let row = tx.query_one(
        "SELECT rated, rated_ms, game, clock_initial_ms, clock_increment_ms, first_user, \
         second_user, status, winner FROM games WHERE id = $1",
        params![id],
    )?;
    let (Some(first), Some(second), Some(status)) =
        (row.opt_text(5)?, row.opt_text(6)?, row.opt_text(7)?)
    else {
        return Ok(());
    };
    if !row.bool(0)? || row.opt_int(1)?.is_some() || status == crate::round::ABORTED {
        return Ok(());
    }
    let (Some(initial), Some(increment)) = (row.opt_int(3)?, row.opt_int(4)?) else {
        return Ok(());
    };
    let Ok(kind) = row.text(2)?.parse() else {
        return Ok(());
    };
    let perf = Perf::new(
        kind,
        super::TimeControl {
            initial_ms: initial.max(0) as u64,
            increment_ms: increment.max(0) as u64,
        },
    );
    let score = Score::of_winner(&row.opt_text(8)?.unwrap_or_default());
    let key = perf.to_string();
    let lock = tx.dialect().for_update();
    let mut before = [PerfRating::default(); 2];
    let mut order = [(0, &first), (1, &second)];
    order.sort_by(|a, b| a.1.cmp(b.1));
    for (seat, user) in order {
        tx.execute(
            "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, wins, \
             losses, draws, updated_ms) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, $6) \
             ON CONFLICT (user_id, perf) DO NOTHING",
            params![
                user.as_str(),
                &key,
                before[seat].rating,
                before[seat].deviation,
                before[seat].volatility,
                now
            ],
        )?;
        let row = tx.query_one(
            &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND perf = $2{lock}"),
            params![user.as_str(), &key],
        )?;
        before[seat] = rating_at(&row, 0)?;
    }
    let (a, b) = rate(&before[0], &before[1], score);
    for (user, after) in [(&first, a), (&second, b)] {
        tx.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6, \
             wins = $7, losses = $8, draws = $9, updated_ms = $10 \
             WHERE user_id = $1 AND perf = $2",
            params![
                user.as_str(),
                &key,
                after.rating,
                after.deviation,
                after.volatility,
                after.games,
                after.wins,
                after.losses,
                after.draws,
                now
            ],
        )?;
        tx.execute(
            "INSERT INTO rating_history (user_id, perf, game_id, rating, deviation, volatility, \
             at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            params![
                user.as_str(),
                &key,
                id,
                after.rating,
                after.deviation,
                after.volatility,
                now
            ],
        )?;
    }
    let diff = |before: &PerfRating, after: &PerfRating| after.shown() - before.shown();
    tx.execute(
        "UPDATE games SET rated_ms = $2, first_diff = $3, second_diff = $4, \
         first_rating = COALESCE(first_rating, $5), second_rating = COALESCE(second_rating, $6) \
         WHERE id = $1",
        params![
            id,
            now,
            diff(&before[0], &a),
            diff(&before[1], &b),
            before[0].shown(),
            before[1].shown()
        ],
    )?;
    Ok(())
}

impl<D: Database> RatingStore for SqlStore<D> {
    fn ratings_of(&self, user_id: &str) -> Result<Vec<(Perf, PerfRating)>, StoreError> {
        self.read(|tx| {
            let rows = tx.query(
                &format!(
                    "SELECT perf, {RATING_COLUMNS} FROM ratings WHERE user_id = $1 ORDER BY perf"
                ),
                params![user_id],
            )?;
            let mut out = Vec::new();
            for r in &rows {
                if let Ok(perf) = r.text(0)?.parse() {
                    out.push((perf, rating_at(r, 1)?));
                }
            }
            Ok(out)
        })
    }

    fn rating_history(&self, user_id: &str, perf: &Perf) -> Result<Vec<(i64, f64)>, StoreError> {
        self.read(|tx| {
            tx.query(
                "SELECT at_ms, rating FROM rating_history WHERE user_id = $1 AND perf = $2 \
                 ORDER BY seq",
                params![user_id, perf.to_string()],
            )?
            .iter()
            .map(|r| Ok((r.int(0)?, r.real(1)?)))
            .collect()
        })
    }

    fn leaderboard(
        &self,
        perf: &Perf,
        limit: usize,
    ) -> Result<Vec<(PlayerRef, PerfRating)>, StoreError> {
        self.read(|tx| {
            tx.query(
                &format!(
                    "SELECT u.id, u.name, u.guest, {} FROM ratings r JOIN users u \
                     ON u.id = r.user_id WHERE r.perf = $1 AND u.disabled = $2 \
                     ORDER BY CASE WHEN r.deviation > $3 THEN 1 ELSE 0 END, r.rating DESC, \
                     u.name LIMIT $4",
                    RATING_COLUMNS
                        .split(", ")
                        .map(|c| format!("r.{c}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                params![
                    perf.to_string(),
                    false,
                    crate::rating::PROVISIONAL_DEVIATION,
                    limit as i64
                ],
            )?
            .iter()
            .map(|r| {
                Ok((
                    PlayerRef {
                        id: r.text(0)?,
                        name: r.text(1)?,
                        guest: r.bool(2)?,
                    },
                    rating_at(r, 3)?,
                ))
            })
            .collect()
        })
    }

    fn rating_log(&self) -> Result<Vec<RatingChange>, StoreError> {
        self.read(|tx| {
            tx.query(
                "SELECT user_id, perf, game_id, rating, deviation, volatility FROM \
                 rating_history ORDER BY seq",
                &[],
            )?
            .iter()
            .map(|r| {
                Ok(RatingChange {
                    user_id: r.text(0)?,
                    perf: r.text(1)?,
                    game_id: r.text(2)?,
                    rating: PerfRating {
                        rating: r.real(3)?,
                        deviation: r.real(4)?,
                        volatility: r.real(5)?,
                        ..PerfRating::default()
                    },
                })
            })
            .collect()
        })
    }
}
