//! The lobby: seeks (a game offered to anyone: its kind, time control, rated or casual, the
//! side wanted), challenges to a named player, and the games being played. Seeks and
//! challenges live in the database, so every server shows the same lobby; each change is
//! announced (PostgreSQL's `NOTIFY` on [`crate::store::LOBBY_CHANNEL`], or in the process on
//! SQLite) and every server pushes the new lists to its lobby sockets. A seek made from a
//! lobby page lives with that page's socket: it goes when the page goes (and when its server
//! dies, by the sweeper).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use chuhe::{GameKind, Side};
use tokio::sync::{broadcast, watch};

use crate::ids::{random_id, random_token};
use crate::store::{
    Challenge, Idempotency, Opponent, PlayerRef, Seek, Store, StoreError, StoredGame, TimeControl,
    User,
};

/// The longest and shortest clocks a seek or challenge may have.
pub const MAX_INITIAL_MS: u64 = 3 * 3_600_000;
/// The largest increment.
pub const MAX_INCREMENT_MS: u64 = 180_000;

/// Seeks a player may have open at once.
pub const MAX_SEEKS_PER_PLAYER: usize = 5;

/// A seek's socket that sent no sign of life for this long is gone (its server died).
pub const SEEK_STALE_MS: i64 = 30_000;
/// A seek made without a socket (an API client) lasts this long.
pub const SOCKETLESS_SEEK_MS: i64 = 10 * 60_000;

/// What a seek or challenge asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The kind of game.
    pub game: GameKind,
    /// The time control (`None`: no clocks; casual only).
    pub clock: Option<TimeControl>,
    /// Rated?
    pub rated: bool,
    /// The side of the one who offers: `first`, `second` or `random`.
    pub color: String,
}

/// Why a lobby request was refused.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    /// The terms break a rule.
    #[error("{1}")]
    BadTerms(&'static str, String),
    /// Rated games are for accounts.
    #[error("guests cannot play rated games: sign up or log in")]
    GuestsUnrated,
    /// The seek or challenge is gone (taken, withdrawn, answered).
    #[error("the {0} is no longer open")]
    Gone(&'static str),
    /// One's own seek cannot be accepted.
    #[error("this is your own seek")]
    OwnSeek,
    /// Too many seeks at once.
    #[error("you have {MAX_SEEKS_PER_PLAYER} seeks open already")]
    TooManySeeks,
    /// No player has this name.
    #[error("no player is named '{0}'")]
    UnknownPlayer(String),
    /// A challenge to oneself.
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    /// Only the challenged player can accept or decline; only the challenger can cancel.
    #[error("this challenge is not yours to answer")]
    NotYours,
    /// The seek or challenge is for a game this server does not serve (a game from rule
    /// files it was not started with, offered on another server of the same database).
    #[error(
        "this server does not serve the game '{0}' (it was not started with --rules for it): \
         accept it on a server that does"
    )]
    NotServed(String),
    /// The database failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl LobbyError {
    /// The stable code the API and the page use.
    pub fn code(&self) -> &'static str {
        match self {
            LobbyError::BadTerms(..) => "bad_terms",
            LobbyError::GuestsUnrated => "guests_unrated",
            LobbyError::Gone(_) => "gone",
            LobbyError::OwnSeek => "own_seek",
            LobbyError::TooManySeeks => "too_many_seeks",
            LobbyError::UnknownPlayer(_) => "unknown_player",
            LobbyError::SelfChallenge => "self_challenge",
            LobbyError::NotYours => "forbidden",
            LobbyError::NotServed(_) => "game_not_served",
            LobbyError::Store(_) => "database",
        }
    }
}

impl Terms {
    /// Checks the terms for `player`: clocks within bounds, a rated game with a clock and
    /// between accounts, a side that is one.
    pub fn check(&self, player: &User) -> Result<(), LobbyError> {
        if let Some(tc) = self.clock {
            if !(1_000..=MAX_INITIAL_MS).contains(&tc.initial_ms) {
                return Err(LobbyError::BadTerms(
                    "initial",
                    format!(
                        "the clock must start with 1 s to {} min",
                        MAX_INITIAL_MS / 60_000
                    ),
                ));
            }
            if tc.increment_ms > MAX_INCREMENT_MS {
                return Err(LobbyError::BadTerms(
                    "increment",
                    format!(
                        "the increment must be at most {} s",
                        MAX_INCREMENT_MS / 1000
                    ),
                ));
            }
        }
        if self.rated {
            if !crate::kinds::Kinds::rated(self.game) {
                return Err(LobbyError::BadTerms(
                    "rules_casual",
                    format!(
                        "'{}' is a game read from rule files: its games are casual only",
                        self.game.name()
                    ),
                ));
            }
            if player.guest {
                return Err(LobbyError::GuestsUnrated);
            }
            if self.clock.is_none() {
                return Err(LobbyError::BadTerms(
                    "rated_needs_clock",
                    "a rated game needs a clock".into(),
                ));
            }
        }
        if !matches!(self.color.as_str(), "first" | "second" | "random") {
            return Err(LobbyError::BadTerms(
                "side",
                format!(
                    "the side must be first, second or random, not '{}'",
                    chuhe::quote_input(&self.color)
                ),
            ));
        }
        Ok(())
    }
}

/// The side of the player who offered, by their `color` (`random` draws one).
fn offerer_side(color: &str) -> Side {
    match color {
        "first" => Side::First,
        "second" => Side::Second,
        _ => {
            let mut b = [0u8; 1];
            let _ = getrandom::getrandom(&mut b);
            if b[0] & 1 == 0 {
                Side::First
            } else {
                Side::Second
            }
        }
    }
}

/// The game two players agreed on: the offerer takes the side of `color`.
pub fn game_between(
    game: &str,
    clock: Option<TimeControl>,
    rated: bool,
    color: &str,
    offerer: &PlayerRef,
    other: &PlayerRef,
) -> StoredGame {
    let side = offerer_side(color);
    let mut players = [Some(offerer.clone()), Some(other.clone())];
    if side == Side::Second {
        players.swap(0, 1);
    }
    let now = crate::store::now_ms();
    StoredGame {
        id: random_id(10),
        game: game.to_string(),
        start: "start".into(),
        opponent: Opponent::Friend,
        creator: side,
        tokens: [random_token(), random_token()],
        players,
        rated,
        clock,
        created_ms: now,
        updated_ms: now,
        turn_ms: Some(now),
        ..StoredGame::default()
    }
}

/// Something for the lobby sockets of some players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyEvent {
    /// A game began between these players.
    Start {
        /// Its id.
        game: String,
        /// Its players' ids.
        players: Vec<String>,
    },
    /// The challenges of this player changed.
    Challenges {
        /// The player's id.
        user: String,
    },
}

/// The lobby of one server.
pub struct Lobby {
    store: Arc<dyn Store>,
    seeks_version: watch::Sender<u64>,
    events: broadcast::Sender<LobbyEvent>,
    sockets: Mutex<HashSet<String>>,
}

impl Lobby {
    /// The lobby over `store`.
    pub fn new(store: Arc<dyn Store>) -> Lobby {
        Lobby {
            store,
            seeks_version: watch::channel(0).0,
            events: broadcast::channel(256).0,
            sockets: Mutex::new(HashSet::new()),
        }
    }

    /// A notification of the lobby's channel (from any server, this one included): `seeks`,
    /// `start GAME USER…`, `challenge USER`.
    pub fn announce(&self, payload: &str) {
        let mut words = payload.split_whitespace();
        match words.next() {
            Some("seeks") => {
                self.seeks_version.send_modify(|v| *v += 1);
            }
            Some("start") => {
                if let Some(game) = words.next() {
                    let _ = self.events.send(LobbyEvent::Start {
                        game: game.to_string(),
                        players: words.map(str::to_string).collect(),
                    });
                }
            }
            Some("challenge") => {
                if let Some(user) = words.next() {
                    let _ = self.events.send(LobbyEvent::Challenges {
                        user: user.to_string(),
                    });
                }
            }
            _ => {}
        }
    }

    /// Everything may have changed (the listening connection was away): every socket reads
    /// the lists again.
    pub fn refresh_all(&self) {
        self.seeks_version.send_modify(|v| *v += 1);
    }

    /// A receiver woken at each change of the seeks.
    pub fn watch_seeks(&self) -> watch::Receiver<u64> {
        self.seeks_version.subscribe()
    }

    /// A receiver of the lobby's events.
    pub fn events(&self) -> broadcast::Receiver<LobbyEvent> {
        self.events.subscribe()
    }

    /// A lobby socket opened on this server: its id (seeks made with it live while it does).
    pub fn open_socket(&self) -> String {
        let id = random_id(16);
        self.sockets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone());
        id
    }

    /// A lobby socket closed: its seeks go.
    pub fn close_socket(&self, id: &str) {
        self.sockets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
        if matches!(self.store.remove_seeks_of_sockets(&[id.to_string()]), Ok(n) if n > 0) {
            self.announce("seeks");
        }
    }

    /// Is `id` a socket open on this server?
    pub fn has_socket(&self, id: &str) -> bool {
        self.sockets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(id)
    }

    /// Marks the seeks of this server's open sockets as wanted and drops those of sockets
    /// gone elsewhere (their server died) or too old.
    pub fn keep_alive(&self) {
        let sockets: Vec<String> = self
            .sockets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect();
        let _ = self.store.keep_seeks(&sockets);
        if matches!(self.store.expire_seeks(SEEK_STALE_MS, SOCKETLESS_SEEK_MS), Ok(n) if n > 0) {
            self.announce("seeks");
        }
    }

    /// `player` offers a game to anyone; `socket`: the lobby socket it lives with.
    pub fn seek(
        &self,
        player: &User,
        terms: &Terms,
        socket: Option<String>,
    ) -> Result<Seek, LobbyError> {
        terms.check(player)?;
        if let Some(s) = &socket {
            if !self.has_socket(s) {
                return Err(LobbyError::BadTerms(
                    "socket",
                    "the lobby socket named is not open on this server".into(),
                ));
            }
        }
        let open = self
            .store
            .seeks()?
            .iter()
            .filter(|s| s.player.id == player.id)
            .count();
        if open >= MAX_SEEKS_PER_PLAYER {
            return Err(LobbyError::TooManySeeks);
        }
        let seek = Seek {
            id: random_id(10),
            player: player.player_ref(),
            game: terms.game.name().to_string(),
            clock: terms.clock,
            rated: terms.rated,
            color: terms.color.clone(),
            socket,
            created_ms: crate::store::now_ms(),
        };
        self.store.add_seek(&seek)?;
        self.announce("seeks");
        Ok(seek)
    }

    /// `player` withdraws their seek.
    pub fn cancel_seek(&self, player: &User, id: &str) -> Result<(), LobbyError> {
        if !self.store.remove_seek(id, &player.id)? {
            return Err(LobbyError::Gone("seek"));
        }
        self.announce("seeks");
        Ok(())
    }

    /// `player` accepts the seek `id`: the game, stored in one transaction with the seek's
    /// removal (and the other seeks of both players).
    pub fn accept_seek(
        &self,
        player: &User,
        id: &str,
        key: Option<&Idempotency>,
        serves: &dyn Fn(&str) -> bool,
    ) -> Result<StoredGame, LobbyError> {
        let mut refused: Option<LobbyError> = None;
        let accepted = self.store.accept_seek(
            id,
            &player.player_ref(),
            &mut |seek: &Seek, acceptor: &PlayerRef| {
                let why = if !serves(&seek.game) {
                    Some(LobbyError::NotServed(
                        chuhe::quote_input(&seek.game).into_owned(),
                    ))
                } else if seek.player.id == acceptor.id {
                    Some(LobbyError::OwnSeek)
                } else if seek.rated && acceptor.guest {
                    Some(LobbyError::GuestsUnrated)
                } else {
                    None
                };
                if let Some(why) = why {
                    refused = Some(why);
                    return Err(StoreError::Backend("refused".into()));
                }
                Ok(game_between(
                    &seek.game,
                    seek.clock,
                    seek.rated,
                    &seek.color,
                    &seek.player,
                    acceptor,
                ))
            },
            key,
        );
        if let Some(why) = refused {
            return Err(why);
        }
        let (_, game) = accepted?.ok_or(LobbyError::Gone("seek"))?;
        self.announce("seeks");
        self.announce_start(&game);
        Ok(game)
    }

    /// Tells this server's sockets that `game` began (other servers hear it from the
    /// database).
    fn announce_start(&self, game: &StoredGame) {
        let players: Vec<&str> = game
            .players
            .iter()
            .flatten()
            .map(|p| p.id.as_str())
            .collect();
        self.announce(&format!("start {} {}", game.id, players.join(" ")));
    }

    /// `from` challenges the player named `to`.
    pub fn challenge(&self, from: &User, to: &str, terms: &Terms) -> Result<Challenge, LobbyError> {
        terms.check(from)?;
        let key = crate::user::check_name(to)
            .map(|n| n.key)
            .unwrap_or_else(|_| to.trim().to_lowercase());
        let Some((target, _)) = self.store.user_by_name(&key)? else {
            return Err(LobbyError::UnknownPlayer(to.to_string()));
        };
        if target.disabled {
            return Err(LobbyError::UnknownPlayer(to.to_string()));
        }
        if target.id == from.id {
            return Err(LobbyError::SelfChallenge);
        }
        if terms.rated && target.guest {
            return Err(LobbyError::GuestsUnrated);
        }
        let challenge = Challenge {
            id: random_id(10),
            from: from.player_ref(),
            to: target.player_ref(),
            game: terms.game.name().to_string(),
            clock: terms.clock,
            rated: terms.rated,
            color: terms.color.clone(),
            status: "open".into(),
            game_id: None,
            created_ms: crate::store::now_ms(),
        };
        self.store.add_challenge(&challenge)?;
        self.announce(&format!("challenge {}", challenge.to.id));
        self.announce(&format!("challenge {}", challenge.from.id));
        Ok(challenge)
    }

    /// The challenged player accepts: the game, stored in one transaction with the answer.
    pub fn accept_challenge(
        &self,
        player: &User,
        id: &str,
        key: Option<&Idempotency>,
        serves: &dyn Fn(&str) -> bool,
    ) -> Result<StoredGame, LobbyError> {
        let challenge = self
            .store
            .challenge(id)?
            .ok_or(LobbyError::Gone("challenge"))?;
        if challenge.to.id != player.id {
            return Err(LobbyError::NotYours);
        }
        if !serves(&challenge.game) {
            return Err(LobbyError::NotServed(
                chuhe::quote_input(&challenge.game).into_owned(),
            ));
        }
        let accepted = self.store.accept_challenge(
            id,
            &mut |c: &Challenge| {
                Ok(game_between(
                    &c.game, c.clock, c.rated, &c.color, &c.from, &c.to,
                ))
            },
            key,
        )?;
        let (c, game) = accepted.ok_or(LobbyError::Gone("challenge"))?;
        self.announce_start(&game);
        self.announce(&format!("challenge {}", c.from.id));
        self.announce(&format!("challenge {}", c.to.id));
        Ok(game)
    }

    /// The challenged player declines, or the challenger withdraws.
    pub fn close_challenge(&self, player: &User, id: &str) -> Result<(), LobbyError> {
        let challenge = self
            .store
            .challenge(id)?
            .ok_or(LobbyError::Gone("challenge"))?;
        let status = if challenge.to.id == player.id {
            "declined"
        } else if challenge.from.id == player.id {
            "cancelled"
        } else {
            return Err(LobbyError::NotYours);
        };
        if !self.store.close_challenge(id, status)? {
            return Err(LobbyError::Gone("challenge"));
        }
        self.announce(&format!("challenge {}", challenge.from.id));
        self.announce(&format!("challenge {}", challenge.to.id));
        Ok(())
    }
}
