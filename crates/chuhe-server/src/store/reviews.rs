//! [`ReviewStore`] over SQL: the `reviews` table, claimed like the engine's moves (a holder
//! and its heartbeat on the database's clock), so that a review is computed once however many
//! servers share the database.

use std::time::Duration;

use super::sql::{params, Database, Row, Tx};
use super::{ReviewClaim, ReviewStore, SqlStore, StoreError, StoredReview};

const COLUMNS: &str = "game_id, nodes, total, done, positions, state, holder, heartbeat_ms";

/// A review from [`COLUMNS`], its heartbeat's age measured at `now`.
fn review_of(row: &Row, now: i64) -> Result<StoredReview, StoreError> {
    let count = |i: usize| -> Result<usize, StoreError> {
        usize::try_from(row.int(i)?)
            .map_err(|_| StoreError::Backend(format!("column {i} of a review is negative")))
    };
    Ok(StoredReview {
        game_id: row.text(0)?,
        nodes: u64::try_from(row.int(1)?)
            .map_err(|_| StoreError::Backend("a review's node budget is negative".into()))?,
        total: count(2)?,
        done: count(3)?,
        positions: row.text(4)?,
        state: row.text(5)?,
        holder: row.opt_text(6)?,
        heartbeat_age_ms: row.opt_int(7)?.map(|beat| now.saturating_sub(beat)),
    })
}

fn load(tx: &mut dyn Tx, id: &str, now: i64) -> Result<Option<StoredReview>, StoreError> {
    tx.query_opt(
        &format!("SELECT {COLUMNS} FROM reviews WHERE game_id = $1"),
        params![id],
    )?
    .map(|row| review_of(&row, now))
    .transpose()
}

/// The state of a review computed to its end.
pub const DONE: &str = "done";

/// The state of a review being computed.
pub const RUNNING: &str = "running";

impl<D: Database> ReviewStore for SqlStore<D> {
    fn claim_review(
        &self,
        id: &str,
        nodes: u64,
        total: usize,
        holder: &str,
        stale: Duration,
    ) -> Result<ReviewClaim, StoreError> {
        let stale_ms = i64::try_from(stale.as_millis()).unwrap_or(i64::MAX / 4);
        self.write(|tx| {
            // The game's row lock orders the claims of servers asking at once.
            let lock = tx.dialect().for_update();
            if tx
                .query_opt(
                    &format!("SELECT id FROM games WHERE id = $1{lock}"),
                    params![id],
                )?
                .is_none()
            {
                return Err(StoreError::NotFound(id.to_string()));
            }
            let now = tx.now_ms()?;
            let Some(found) = load(tx, id, now)? else {
                tx.execute(
                    "INSERT INTO reviews (game_id, nodes, total, done, positions, state, holder, \
                     heartbeat_ms, created_ms, updated_ms) \
                     VALUES ($1, $2, $3, 0, '[]', $4, $5, $6, $6, $6)",
                    params![
                        id,
                        i64::try_from(nodes).unwrap_or(i64::MAX),
                        total as i64,
                        RUNNING,
                        holder,
                        now
                    ],
                )?;
                let made = load(tx, id, now)?
                    .ok_or_else(|| StoreError::Backend("a review just made is missing".into()))?;
                return Ok(ReviewClaim::Won(made));
            };
            if found.state == DONE {
                return Ok(ReviewClaim::Done(found));
            }
            let free = match (&found.holder, found.heartbeat_age_ms) {
                (None, _) | (_, None) => true,
                (Some(h), Some(age)) => h == holder || age > stale_ms,
            };
            if !free {
                return Ok(ReviewClaim::Held(found));
            }
            tx.execute(
                "UPDATE reviews SET holder = $2, heartbeat_ms = $3, updated_ms = $3 \
                 WHERE game_id = $1",
                params![id, holder, now],
            )?;
            let taken = load(tx, id, now)?
                .ok_or_else(|| StoreError::Backend("a review just claimed is missing".into()))?;
            Ok(ReviewClaim::Won(taken))
        })
    }

    fn save_review(
        &self,
        id: &str,
        holder: &str,
        done: usize,
        positions: &str,
        finished: bool,
    ) -> Result<bool, StoreError> {
        self.write(|tx| {
            let now = tx.now_ms()?;
            let changed = tx.execute(
                "UPDATE reviews SET done = $3, positions = $4, state = $5, heartbeat_ms = $6, \
                 updated_ms = $6, holder = CASE WHEN $5 = 'done' THEN NULL ELSE holder END \
                 WHERE game_id = $1 AND holder = $2 AND state = 'running'",
                params![
                    id,
                    holder,
                    done as i64,
                    positions,
                    if finished { DONE } else { RUNNING },
                    now
                ],
            )?;
            Ok(changed == 1)
        })
    }

    fn heartbeat_review(&self, id: &str, holder: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            let now = tx.now_ms()?;
            let changed = tx.execute(
                "UPDATE reviews SET heartbeat_ms = $3 \
                 WHERE game_id = $1 AND holder = $2 AND state = 'running'",
                params![id, holder, now],
            )?;
            Ok(changed == 1)
        })
    }

    fn release_review(&self, id: &str, holder: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE reviews SET holder = NULL WHERE game_id = $1 AND holder = $2",
                params![id, holder],
            )
            .map(|_| ())
        })
    }

    fn review(&self, id: &str) -> Result<Option<StoredReview>, StoreError> {
        self.read(|tx| {
            let now = tx.now_ms()?;
            load(tx, id, now)
        })
    }
}

impl StoredReview {
    /// Is the review computed to its end?
    pub fn is_done(&self) -> bool {
        self.state == DONE
    }
}
