//! Players: accounts with a name and a password (hashed with Argon2id), guests who play
//! without one under a generated name, and sessions kept in the database (so every server
//! behind the balancer knows them) by the SHA-256 hash of their secret. A session secret is
//! new at every login; login attempts are rate-limited per name and per client address.
//!
//! ```
//! use chuhe_server::user::check_name;
//! assert_eq!(check_name("  Lý Thường Kiệt ").unwrap().name, "Lý Thường Kiệt");
//! assert_eq!(check_name("楚河").unwrap().key, "楚河");
//! assert!(check_name("a\u{200b}b").is_err()); // an invisible character
//! assert!(check_name("Ｒｅｄ").unwrap().name == "Red"); // NFKC
//! ```

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::UnicodeNormalization;

use crate::ids::{random_id, random_token};
use crate::store::{Store, StoreError, User};

/// The shortest and longest names, in characters.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=24;

/// The shortest and longest passwords, in characters and bytes.
pub const PASSWORD_CHARS: usize = 8;
/// The longest password, in bytes.
pub const PASSWORD_MAX_BYTES: usize = 1024;

/// The prefix of guests' names, which accounts may not take.
pub const GUEST_PREFIX: &str = "Guest-";

/// Login attempts a minute per name and per client address.
pub const LOGINS_PER_MINUTE: u32 = 10;

/// A checked name: as shown, and the key that makes it unique (names differing only in
/// case or in compatibility forms are the same player).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// As shown (NFKC, trimmed).
    pub name: String,
    /// Lower case: what must be unique.
    pub key: String,
}

/// Why a name or password was refused, or a login failed.
#[derive(Debug, thiserror::Error)]
pub enum UserError {
    /// The name breaks a rule: which (`length`, `invisible`, `spaces`, `no_letter`,
    /// `guest_prefix`), and how, in words.
    #[error("the name {1}")]
    BadName(&'static str, String),
    /// Somebody has the name.
    #[error("the name '{0}' is taken")]
    NameTaken(String),
    /// The password breaks a rule: which (`short`, `long`), and how, in words.
    #[error("the password {1}")]
    BadPassword(&'static str, String),
    /// No such account, or the password is wrong (which one is not said).
    #[error("wrong name or password")]
    WrongLogin,
    /// Too many attempts: wait.
    #[error("too many login attempts; try again in {retry_after} s")]
    TooManyAttempts {
        /// Seconds to wait.
        retry_after: u64,
    },
    /// This server does not take new accounts (`--signup closed`).
    #[error("sign-up is closed on this server: ask its administrator for an account")]
    SignupClosed,
    /// The request needs a player signed in.
    #[error("sign in first")]
    NotSignedIn,
    /// A guest cannot do this (rated games).
    #[error("guests cannot play rated games: sign up or log in")]
    GuestsUnrated,
    /// The database failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl UserError {
    /// The stable code the API and the page use.
    pub fn code(&self) -> &'static str {
        match self {
            UserError::BadName(..) => "bad_name",
            UserError::NameTaken(_) => "name_taken",
            UserError::BadPassword(..) => "bad_password",
            UserError::WrongLogin => "wrong_login",
            UserError::TooManyAttempts { .. } => "too_many_attempts",
            UserError::SignupClosed => "signup_closed",
            UserError::NotSignedIn => "not_signed_in",
            UserError::GuestsUnrated => "guests_unrated",
            UserError::Store(_) => "database",
        }
    }
}

/// Checks a name: NFKC, trimmed, 2–24 characters, letters or digits in it, no control,
/// invisible, private or unassigned characters, no spacing but single spaces, not a guest's.
pub fn check_name(raw: &str) -> Result<Name, UserError> {
    let name: String = raw.nfkc().collect::<String>().trim().to_string();
    let count = name.chars().count();
    if !NAME_CHARS.contains(&count) {
        return Err(UserError::BadName(
            "length",
            format!(
                "must have {} to {} characters, not {count}",
                NAME_CHARS.start(),
                NAME_CHARS.end()
            ),
        ));
    }
    if let Some(c) = name.chars().find(|&c| !visible(c)) {
        return Err(UserError::BadName(
            "invisible",
            format!("has the invisible or control character U+{:04X}", c as u32),
        ));
    }
    if name.contains("  ") {
        return Err(UserError::BadName(
            "spaces",
            "has two spaces in a row".into(),
        ));
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(UserError::BadName(
            "no_letter",
            "needs a letter or a digit".into(),
        ));
    }
    let key = name.to_lowercase();
    if key.starts_with(&GUEST_PREFIX.to_lowercase()) {
        return Err(UserError::BadName(
            "guest_prefix",
            format!("may not begin with '{GUEST_PREFIX}' (guests' names do)"),
        ));
    }
    Ok(Name { name, key })
}

/// A character a name may hold: anything shown, the plain space included; no control,
/// format (zero-width, direction marks), separator but the space, private or unassigned
/// character.
fn visible(c: char) -> bool {
    use GeneralCategory as G;
    match get_general_category(c) {
        G::Control
        | G::Format
        | G::LineSeparator
        | G::ParagraphSeparator
        | G::PrivateUse
        | G::Surrogate
        | G::Unassigned => false,
        G::SpaceSeparator => c == ' ',
        // Fillers that render as nothing (Hangul fillers, braille blank).
        _ => !matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
        ),
    }
}

/// Checks a new password: 8 characters or more, at most 1024 bytes.
pub fn check_password(password: &str) -> Result<(), UserError> {
    if password.chars().count() < PASSWORD_CHARS {
        return Err(UserError::BadPassword(
            "short",
            format!("needs {PASSWORD_CHARS} characters or more"),
        ));
    }
    if password.len() > PASSWORD_MAX_BYTES {
        return Err(UserError::BadPassword(
            "long",
            format!("may have at most {PASSWORD_MAX_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// The Argon2id hash of a password, as a PHC string (`$argon2id$v=19$…`), with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, UserError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| UserError::Store(StoreError::Backend(format!("cannot hash: {e}"))))
}

/// Whether `password` matches the PHC string `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// The hash a session is kept by (hex SHA-256 of its secret).
pub fn session_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A hash of nothing anyone knows, checked when a name has no account, so that a login takes
/// as long whether the name exists or not.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password(&random_token()).unwrap_or_default())
}

/// The players' service: sign-up, login, sessions, guests.
pub struct Users {
    store: Arc<dyn Store>,
    signup_open: bool,
    by_name: DefaultKeyedRateLimiter<String>,
    by_client: DefaultKeyedRateLimiter<IpAddr>,
}

impl Users {
    /// The service over `store`; `signup_open`: whether anyone may make an account.
    pub fn new(store: Arc<dyn Store>, signup_open: bool) -> Users {
        let quota =
            Quota::per_minute(NonZeroU32::new(LOGINS_PER_MINUTE).unwrap_or(NonZeroU32::MIN));
        Users {
            store,
            signup_open,
            by_name: RateLimiter::keyed(quota),
            by_client: RateLimiter::keyed(quota),
        }
    }

    /// Does this server take new accounts?
    pub fn signup_open(&self) -> bool {
        self.signup_open
    }

    /// Starts a session for `user`: its secret (for the cookie; only its hash is stored).
    pub fn start_session(&self, user: &User) -> Result<String, UserError> {
        let secret = format!("{}{}", random_token(), random_token());
        self.store
            .create_session(&session_hash(&secret), &user.id)?;
        Ok(secret)
    }

    /// The player of a session secret, unless the session ended or the account is disabled.
    pub fn session_user(&self, secret: &str) -> Result<Option<User>, UserError> {
        Ok(self.store.session_user(&session_hash(secret))?)
    }

    /// Ends a session.
    pub fn end_session(&self, secret: &str) -> Result<(), UserError> {
        Ok(self.store.end_session(&session_hash(secret))?)
    }

    /// A new guest with a generated name, and its session.
    pub fn new_guest(&self) -> Result<(User, String), UserError> {
        let user = User {
            id: random_id(12),
            name: format!("{GUEST_PREFIX}{}", random_id(6)),
            guest: true,
            disabled: false,
            created_ms: crate::store::now_ms(),
        };
        self.store
            .create_user(&user, &user.name.to_lowercase(), None)?;
        let secret = self.start_session(&user)?;
        Ok((user, secret))
    }

    /// Makes an account, or turns the guest `current` into one (their games stay theirs).
    /// An administrator's accounts come through [`Users::create_account`], open or not.
    pub fn sign_up(
        &self,
        name: &str,
        password: &str,
        current: Option<&User>,
    ) -> Result<User, UserError> {
        if !self.signup_open {
            return Err(UserError::SignupClosed);
        }
        let checked = check_name(name)?;
        check_password(password)?;
        let hash = hash_password(password)?;
        match current.filter(|u| u.guest) {
            Some(guest) => {
                self.store
                    .register_guest(&guest.id, &checked.name, &checked.key, &hash)
                    .map_err(|e| taken(e, &checked.name))?;
                Ok(User {
                    name: checked.name,
                    guest: false,
                    ..guest.clone()
                })
            }
            None => self.create_account(name, password),
        }
    }

    /// Makes an account (`chuhe user create`, or sign-up).
    pub fn create_account(&self, name: &str, password: &str) -> Result<User, UserError> {
        let checked = check_name(name)?;
        check_password(password)?;
        let hash = hash_password(password)?;
        let user = User {
            id: random_id(12),
            name: checked.name.clone(),
            guest: false,
            disabled: false,
            created_ms: crate::store::now_ms(),
        };
        self.store
            .create_user(&user, &checked.key, Some(&hash))
            .map_err(|e| taken(e, &checked.name))?;
        Ok(user)
    }

    /// Checks a login: the account with this name and password, not disabled. At most
    /// [`LOGINS_PER_MINUTE`] attempts a minute per name and per client address.
    pub fn log_in(&self, name: &str, password: &str, client: IpAddr) -> Result<User, UserError> {
        let key = name.nfkc().collect::<String>().trim().to_lowercase();
        for check in [
            self.by_client
                .check_key(&client)
                .map_err(|n| n.wait_time_from(DefaultClock::default().now())),
            self.by_name
                .check_key(&key)
                .map_err(|n| n.wait_time_from(DefaultClock::default().now())),
        ] {
            if let Err(wait) = check {
                return Err(UserError::TooManyAttempts {
                    retry_after: wait.as_secs().max(1),
                });
            }
        }
        let found = self.store.user_by_name(&key)?;
        match found {
            Some((user, Some(hash))) if !user.guest => {
                if verify_password(password, &hash) && !user.disabled {
                    Ok(user)
                } else {
                    Err(UserError::WrongLogin)
                }
            }
            _ => {
                let _ = verify_password(password, decoy_hash());
                Err(UserError::WrongLogin)
            }
        }
    }

    /// Changes `user`'s password after checking the old one; every other session of theirs
    /// ends (`keep`: the one asking).
    pub fn change_password(
        &self,
        user: &User,
        old: &str,
        new: &str,
        keep: &str,
    ) -> Result<(), UserError> {
        check_password(new)?;
        let Some((_, Some(hash))) = self.store.user_by_name(&user.name.to_lowercase())? else {
            return Err(UserError::WrongLogin);
        };
        if !verify_password(old, &hash) {
            return Err(UserError::WrongLogin);
        }
        self.store.set_password(&user.id, &hash_password(new)?)?;
        self.store
            .end_sessions_of(&user.id, Some(&session_hash(keep)))?;
        Ok(())
    }

    /// Forgets the clients and names whose attempts are long past (keeps the tables small).
    pub fn forget_idle(&self) {
        self.by_name.retain_recent();
        self.by_client.retain_recent();
    }
}

/// A store's refusal of a unique name, in words.
fn taken(e: StoreError, name: &str) -> UserError {
    match e {
        StoreError::Constraint(_) => UserError::NameTaken(name.to_string()),
        other => UserError::Store(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_keyed() {
        for ok in ["楚河", "Lý Thường Kiệt", "<script>", "a b", "李白_99", "Đỗ"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        assert_eq!(check_name("RedGeneral").unwrap().key, "redgeneral");
        // NFKC: full-width letters and the ideographic space become plain.
        assert_eq!(check_name("Ｒｅｄ\u{3000}Ｘ").unwrap().name, "Red X");
        for bad in [
            "a",
            "",
            "   ",
            &"x".repeat(25),
            "a\u{200b}b",
            "a\u{202e}b",
            "a\u{0007}b",
            "a\tb",
            "a  b",
            "a\u{e000}b",
            "!!!",
            "guest-abc",
            "GUEST-x",
            "a\u{3164}b",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn passwords_are_hashed_with_argon2id_and_verified() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsE", &hash));
        assert!(!verify_password("x", "not a hash"));
        assert_ne!(
            hash,
            hash_password("correct horse").unwrap(),
            "a fresh salt each time"
        );
        assert!(check_password("short").is_err());
        assert!(check_password(&"x".repeat(2000)).is_err());
        assert!(check_password("long enough").is_ok());
    }

    #[test]
    fn sessions_are_kept_by_hash() {
        let h = session_hash("secret");
        assert_eq!(h.len(), 64);
        assert_ne!(h, session_hash("secreT"));
    }
}
