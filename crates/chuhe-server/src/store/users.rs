//! [`UserStore`] over SQL: players and their sessions.

use super::sql::{params, Database, Row};
use super::{SqlStore, StoreError, User, UserStore};

const USER_COLUMNS: &str = "u.id, u.name, u.guest, u.disabled, u.created_ms";

fn user_at(row: &Row) -> Result<User, StoreError> {
    Ok(User {
        id: row.text(0)?,
        name: row.text(1)?,
        guest: row.bool(2)?,
        disabled: row.bool(3)?,
        created_ms: row.int(4)?,
    })
}

impl<D: Database> UserStore for SqlStore<D> {
    fn create_user(
        &self,
        user: &User,
        name_key: &str,
        password_hash: Option<&str>,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO users (id, name, name_key, password_hash, guest, disabled, \
                 created_ms, seen_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
                params![
                    &user.id,
                    &user.name,
                    name_key,
                    password_hash,
                    user.guest,
                    user.disabled,
                    user.created_ms
                ],
            )
            .map(|_| ())
        })
    }

    fn register_guest(
        &self,
        id: &str,
        name: &str,
        name_key: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET name = $2, name_key = $3, password_hash = $4, guest = $5 \
                 WHERE id = $1 AND guest = $6",
                params![id, name, name_key, password_hash, false, true],
            )?;
            if n == 0 {
                return Err(StoreError::Backend(format!("'{id}' is not a guest")));
            }
            Ok(())
        })
    }

    fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        self.read_one(|tx| {
            tx.query_opt(
                &format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"),
                params![id],
            )?
            .map(|r| user_at(&r))
            .transpose()
        })
    }

    fn user_by_name(&self, name_key: &str) -> Result<Option<(User, Option<String>)>, StoreError> {
        self.read_one(|tx| {
            tx.query_opt(
                &format!(
                    "SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.name_key = $1"
                ),
                params![name_key],
            )?
            .map(|r| Ok((user_at(&r)?, r.opt_text(5)?)))
            .transpose()
        })
    }

    fn accounts(&self) -> Result<Vec<User>, StoreError> {
        self.read(|tx| {
            tx.query(
                &format!(
                    "SELECT {USER_COLUMNS} FROM users u WHERE u.guest = $1 ORDER BY u.name_key"
                ),
                params![false],
            )?
            .iter()
            .map(user_at)
            .collect()
        })
    }

    fn set_password(&self, id: &str, password_hash: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            Ok(tx.execute(
                "UPDATE users SET password_hash = $2 WHERE id = $1 AND guest = $3",
                params![id, password_hash, false],
            )? == 1)
        })
    }

    fn set_disabled(&self, id: &str, disabled: bool) -> Result<bool, StoreError> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET disabled = $2 WHERE id = $1",
                params![id, disabled],
            )?;
            if disabled {
                tx.execute("DELETE FROM sessions WHERE user_id = $1", params![id])?;
                tx.execute("DELETE FROM seeks WHERE user_id = $1", params![id])?;
            }
            Ok(n == 1)
        })
    }

    fn create_session(&self, id_hash: &str, user_id: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            let now = super::now_ms();
            tx.execute(
                "INSERT INTO sessions (id_hash, user_id, created_ms, seen_ms) \
                 VALUES ($1, $2, $3, $3)",
                params![id_hash, user_id, now],
            )
            .map(|_| ())
        })
    }

    fn session_user(&self, id_hash: &str) -> Result<Option<User>, StoreError> {
        self.read_one(|tx| {
            tx.query_opt(
                &format!(
                    "SELECT {USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id \
                     WHERE s.id_hash = $1 AND u.disabled = $2"
                ),
                params![id_hash, false],
            )?
            .map(|r| user_at(&r))
            .transpose()
        })
    }

    fn end_session(&self, id_hash: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("DELETE FROM sessions WHERE id_hash = $1", params![id_hash])
                .map(|_| ())
        })
    }

    fn end_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2",
                params![user_id, keep.unwrap_or("")],
            )
            .map(|_| ())
        })
    }
}
