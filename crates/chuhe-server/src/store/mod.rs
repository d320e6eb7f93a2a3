//! Where the site is kept: one trait per domain — [`GameStore`] (games, their moves, results
//! and the ratings a result brings, in one transaction), [`UserStore`] (players and their
//! sessions), [`RatingStore`] (ratings, their history, the leaderboard) and [`LobbyStore`]
//! (seeks, challenges, answers kept for `Idempotency-Key`) — gathered in [`Store`], and one
//! implementation of them all, [`SqlStore`], over SQLite ([`SqliteStore`], the default, a
//! file created on first start) or PostgreSQL ([`PostgresStore`], for several servers on one
//! database). Every query is written once ([`sql`]); the schema's steps are SQL files,
//! `migrations/sqlite/` and `migrations/postgres/`, kept in step by a test. Both databases
//! pass the same suite (`crates/chuhe-server/tests/store.rs`).
//!
//! A game is one row (its kind, start position, seats and their secret tokens, clock, result,
//! ratings) and one row per move. A move is appended with the ply it must have, in one
//! transaction with the result it brings and the ratings that result changes: two processes
//! (or two requests) cannot both write ply 7, a move that was acknowledged is on disk, and a
//! rated game is rated exactly once, with its result.

mod games;
mod lobby;
mod postgres;
mod ratings;
mod reviews;
pub mod sql;
mod sqlite;
mod users;

pub use self::postgres::{PostgresDb, PostgresStore};

/// The store traits, to call their methods on a `dyn Store`: `use
/// chuhe_server::store::prelude::*`.
pub mod prelude {
    pub use super::{GameStore, LobbyStore, RatingStore, ReviewStore, Store, UserStore};
}
pub use self::sqlite::{SqliteDb, SqliteStore};

use std::time::Duration;

use chuhe::Side;

use crate::rating::{Perf, PerfRating};

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
    /// A person: invited by a link, or met in the lobby.
    Friend,
    /// Nobody plays: an imported record, shown for review.
    Record,
}

impl Opponent {
    /// `engine`, `friend` or `record`, as stored and as the API says.
    pub fn as_str(self) -> &'static str {
        match self {
            Opponent::Engine { .. } => "engine",
            Opponent::Friend => "friend",
            Opponent::Record => "record",
        }
    }
}

/// A time control: the same for both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Time on each clock at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// The standard form of PGN's `TimeControl` tag and of the lobby: seconds at the start,
    /// `+`, seconds added per move (`180+2`; fractions where the milliseconds need them).
    ///
    /// ```
    /// use chuhe_server::store::TimeControl;
    /// let tc = TimeControl { initial_ms: 180_000, increment_ms: 2_000 };
    /// assert_eq!(tc.to_string(), "180+2");
    /// assert_eq!("180+2".parse::<TimeControl>().unwrap(), tc);
    /// assert_eq!(TimeControl { initial_ms: 1_500, increment_ms: 0 }.to_string(), "1.5+0");
    /// ```
    pub fn seconds(ms: u64) -> String {
        if ms % 1000 == 0 {
            (ms / 1000).to_string()
        } else {
            let text = format!("{:.3}", ms as f64 / 1000.0);
            text.trim_end_matches('0').to_string()
        }
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            TimeControl::seconds(self.initial_ms),
            TimeControl::seconds(self.increment_ms)
        )
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `BASE+INCREMENT` in seconds (`180+2`, `600+0`, `90+0.5`).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "'{}' is not a time control like 180+2",
                chuhe::quote_input(s)
            )
        };
        let (base, inc) = s.trim().split_once('+').ok_or_else(bad)?;
        let ms = |t: &str| -> Result<u64, String> {
            let v: f64 = t.trim().parse().map_err(|_| bad())?;
            if v.is_finite() && (0.0..=1e7).contains(&v) {
                Ok((v * 1000.0).round() as u64)
            } else {
                Err(bad())
            }
        };
        Ok(TimeControl {
            initial_ms: ms(base)?,
            increment_ms: ms(inc)?,
        })
    }
}

/// How a game ended, as stored: the CGSN status, `first`/`second`/`none`, and the
/// repetition rule that decided it, if any (`perpetual check`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// CGSN status word (`checkmate`, `resignation`, `timelimit`, …), or `aborted`.
    pub status: String,
    /// `first`, `second` or `none`.
    pub winner: String,
    /// The repetition rule, for Xiangqi repetitions; `abandoned` for a player who left.
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

/// A player as a game or a list names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    /// The player's id.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// A guest (no account, not rated).
    pub guest: bool,
}

/// A seat's rating in a rated game: at the start, and the change the result brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatRating {
    /// The rating when the game began, rounded.
    pub rating: i64,
    /// Was it provisional (few games, a wide deviation)?
    pub provisional: bool,
    /// The change the result made, once rated.
    pub diff: Option<i64>,
}

/// A whole game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's public id (in its links).
    pub id: String,
    /// `xiongqi`, `xiangqi` or `xiangqi-capture`.
    pub game: String,
    /// The start position as FEEN, or FEN for Xiangqi.
    pub start: String,
    /// Who plays the creator.
    pub opponent: Opponent,
    /// The side of the player who created the game.
    pub creator: Side,
    /// The secret tokens of the first and second seat (for API clients:
    /// `Authorization: Bearer`).
    pub tokens: [String; 2],
    /// Who holds each seat (first, second); `None`: the engine's seat, a seat nobody has
    /// taken yet, or one held only by its token.
    pub players: [Option<PlayerRef>; 2],
    /// The code of the invite link that lets one person take the open seat.
    pub invite: Option<String>,
    /// Does the result change the players' ratings?
    pub rated: bool,
    /// The seats' ratings in a rated game (filled in when the game is stored).
    pub ratings: [Option<SeatRating>; 2],
    /// When the ratings were changed by the result (ms since the epoch).
    pub rated_ms: Option<i64>,
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
    /// Counts the changes stored (see [`GameStore`]).
    pub version: i64,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// The side that offered a rematch, after the result.
    pub rematch_offer: Option<Side>,
    /// The game the rematch made.
    pub rematch_id: Option<String>,
    /// The next moment the game must be looked at (a clock that runs out, a first move not
    /// made), in ms since the epoch; the sweeper of any server acts on it.
    pub deadline_ms: Option<i64>,
    /// When the side to move began thinking (the last move or take-back), in ms since the
    /// epoch: the clocks go on from it on any server.
    pub turn_ms: Option<i64>,
    /// What an imported record said besides its moves: its players and metadata, as PCN's
    /// JSON (`{"sides": {…}, "meta": {…}}`), given back when the game is exported.
    pub record_info: Option<String>,
}

impl Default for StoredGame {
    /// An empty Xiangqi game between friends, for filling in.
    fn default() -> StoredGame {
        StoredGame {
            id: String::new(),
            game: "xiangqi".into(),
            start: "start".into(),
            opponent: Opponent::Friend,
            creator: Side::First,
            tokens: [String::new(), String::new()],
            players: [None, None],
            invite: None,
            rated: false,
            ratings: [None, None],
            rated_ms: None,
            clock: None,
            result: None,
            created_ms: 0,
            updated_ms: 0,
            moves: Vec::new(),
            version: 0,
            draw_offer: None,
            rematch_offer: None,
            rematch_id: None,
            deadline_ms: None,
            turn_ms: None,
            record_info: None,
        }
    }
}

impl StoredGame {
    /// The rating category of the game (its kind and speed), when it has a clock.
    pub fn perf(&self) -> Option<Perf> {
        let kind = self.game.parse().ok()?;
        Some(Perf::new(kind, self.clock?))
    }
}

/// A line of the archive or of the games being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// Its kind.
    pub game: String,
    /// Who played the creator.
    pub opponent: Opponent,
    /// The creator's side.
    pub creator: Side,
    /// The seats' players.
    pub players: [Option<PlayerRef>; 2],
    /// The seats' ratings, in a rated game.
    pub ratings: [Option<SeatRating>; 2],
    /// Rated?
    pub rated: bool,
    /// The time control.
    pub clock: Option<TimeControl>,
    /// Its result, if over.
    pub result: Option<StoredResult>,
    /// Moves played.
    pub plies: usize,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// Last change (ms since the epoch).
    pub updated_ms: i64,
    /// Spectators watching now (the games being played).
    pub spectators: u64,
}

/// A player's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Finished games (not aborted).
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// Games in play.
    pub playing: u64,
}

/// What the archive is asked for: every field narrows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveQuery {
    /// Games with this player (a user id).
    pub player: Option<String>,
    /// Games against this player (a user id), with `player`.
    pub opponent: Option<String>,
    /// Games of this kind.
    pub game: Option<String>,
    /// By result: see [`ResultFilter`].
    pub result: Option<ResultFilter>,
    /// Created at or after this moment (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Created before this moment (ms since the epoch).
    pub until_ms: Option<i64>,
    /// With this time control (`Some(None)`: without clocks).
    pub clock: Option<Option<TimeControl>>,
    /// Rated or casual.
    pub rated: Option<bool>,
    /// Engine games, games between people, or imported records.
    pub opponent_kind: Option<String>,
}

/// Which results the archive shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// Games still in play.
    Ongoing,
    /// Finished games (aborted ones included).
    Finished,
    /// Aborted games.
    Aborted,
    /// Draws.
    Draw,
    /// Won by `player` (needs [`ArchiveQuery::player`]).
    Win,
    /// Lost by `player` (needs [`ArchiveQuery::player`]).
    Loss,
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
    /// The game has a result, which no change may undo or replace.
    #[error("game '{0}' is over: its result is final")]
    Finished(String),
    /// The seat has a player already.
    #[error("the {side} seat of game '{id}' is taken")]
    SeatTaken {
        /// The game.
        id: String,
        /// The seat.
        side: &'static str,
    },
    /// A unique value exists already (a player's name).
    #[error("already taken: {0}")]
    Constraint(String),
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

/// What a change leaves besides the moves: the result, the standing draw offer, the rematch
/// offer after the result, and the next deadline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The result, once over.
    pub result: Option<StoredResult>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// The side whose rematch offer stands (after the result).
    pub rematch_offer: Option<Side>,
    /// The next moment the game must be looked at (ms since the epoch).
    pub deadline_ms: Option<i64>,
}

/// The scope, key and route of an `Idempotency-Key`: a request made again with the same key
/// gets the first one's answer instead of a second game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Idempotency {
    /// Whose key: `user:ID`, or `ip:ADDRESS` for a client without a session.
    pub scope: String,
    /// The key the client sent.
    pub key: String,
    /// The route it was sent to (`POST /api/games`): the same key on another route is a
    /// mistake, refused.
    pub route: String,
}

/// What a creation kept under an `Idempotency-Key` returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Created {
    /// Made now.
    New,
    /// Made by an earlier request with the same key: its game id and the seat it gave.
    Earlier {
        /// The game made then.
        game_id: String,
        /// The route of the earlier request.
        route: String,
        /// The seat its client took (`first` / `second`).
        side: String,
    },
}

/// Games: each change names the version of the game it was made on and is one transaction
/// that writes only when the stored version is still that one ([`StoreError::Stale`]
/// otherwise), then counts the version up: of two servers acting on one copy of a game, one
/// wins and the other learns that its copy is old. A result, once stored, is final: no change
/// replaces or removes it ([`StoreError::Finished`]); the result of a rated game changes both
/// players' ratings in the same transaction, once.
pub trait GameStore: Send + Sync {
    /// Writes a new game, with its moves if it has any; a rated game gets its players'
    /// ratings as they stand.
    fn create(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// Writes a new game unless `key` made one already ([`Created::Earlier`]: nothing new).
    fn create_once(
        &self,
        game: &StoredGame,
        key: &Idempotency,
        side: Side,
    ) -> Result<Created, StoreError>;
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
    /// Keeps only the first `plies` moves and sets the standing (a take-back).
    fn truncate(
        &self,
        id: &str,
        version: i64,
        plies: usize,
        standing: &Standing,
    ) -> Result<(), StoreError>;
    /// Sets the standing: a result (resignation, agreement, time), a draw offer, a rematch
    /// offer.
    fn set_standing(&self, id: &str, version: i64, standing: &Standing) -> Result<(), StoreError>;
    /// Gives the open seat `side` to `player` (a user id), remembered under `key` when one is
    /// given; [`StoreError::SeatTaken`] when it has a player.
    fn take_seat(
        &self,
        id: &str,
        version: i64,
        side: Side,
        player: &str,
        key: Option<&Idempotency>,
    ) -> Result<(), StoreError>;
    /// Writes the rematch `game` of the finished game `id` and links the two (one
    /// transaction).
    fn create_rematch(&self, id: &str, version: i64, game: &StoredGame) -> Result<(), StoreError>;
    /// The stored version of the game, if there is such a game.
    fn version(&self, id: &str) -> Result<Option<i64>, StoreError>;
    /// The game with this id, if any (its moves and version read together).
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The games the query asks for, most recently created first.
    fn search(
        &self,
        query: &ArchiveQuery,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<GameSummary>, StoreError>;
    /// How many games the query finds.
    fn count(&self, query: &ArchiveQuery) -> Result<u64, StoreError>;
    /// A player's record: finished games, won, lost, drawn (aborted games not counted).
    fn tally(&self, user_id: &str) -> Result<Tally, StoreError>;
    /// The games, most recently changed first.
    fn list(&self, limit: usize, offset: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Games between people being played now (changed within `active_ms`), most recently
    /// changed first, with their spectators as the servers report them.
    fn playing(&self, active_ms: i64, limit: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Games whose deadline has passed at `now_ms` (the database's clock on PostgreSQL).
    fn overdue(&self, limit: usize) -> Result<Vec<String>, StoreError>;
    /// Games between people without clocks, in play with both seats taken and both sides
    /// having moved, whose side to move has been thinking for longer than `idle_ms`: perhaps
    /// left (the round decides, by who has a page open).
    fn unattended(&self, idle_ms: i64, limit: usize) -> Result<Vec<String>, StoreError>;
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
    /// This server's view of who is at its games (replaces its earlier report); a server's
    /// report older than a minute is not counted.
    fn report_presence(&self, server: &str, games: &[Presence]) -> Result<(), StoreError>;
    /// Whether each seat of the game has a page open on any server (reported within
    /// `fresh_ms`).
    fn seats_present(&self, id: &str, fresh_ms: i64) -> Result<[bool; 2], StoreError>;
}

/// Who is at a game on one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presence {
    /// The game.
    pub game_id: String,
    /// Is each seat's player here?
    pub seats: [bool; 2],
    /// Spectators here.
    pub spectators: u64,
}

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The player's id.
    pub id: String,
    /// The name shown (NFKC).
    pub name: String,
    /// A guest: made for a browser without an account; not rated.
    pub guest: bool,
    /// Refused at login (set by `chuhe user disable`).
    pub disabled: bool,
    /// When the account was made (ms since the epoch).
    pub created_ms: i64,
}

impl User {
    /// The player as games name them.
    pub fn player_ref(&self) -> PlayerRef {
        PlayerRef {
            id: self.id.clone(),
            name: self.name.clone(),
            guest: self.guest,
        }
    }
}

/// Players and their sessions. Sessions are kept by the hash of their secret, never the
/// secret itself.
pub trait UserStore: Send + Sync {
    /// Makes a player (a guest when `password_hash` is `None`);
    /// [`StoreError::Constraint`] when the name (by its key) is taken.
    fn create_user(
        &self,
        user: &User,
        name_key: &str,
        password_hash: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Turns the guest `id` into an account with this name and password (its games stay its
    /// own); [`StoreError::Constraint`] when the name is taken.
    fn register_guest(
        &self,
        id: &str,
        name: &str,
        name_key: &str,
        password_hash: &str,
    ) -> Result<(), StoreError>;
    /// The player with this id.
    fn user(&self, id: &str) -> Result<Option<User>, StoreError>;
    /// The player with this name key, and the hash of their password (accounts).
    fn user_by_name(&self, name_key: &str) -> Result<Option<(User, Option<String>)>, StoreError>;
    /// Every account (not guests), by name.
    fn accounts(&self) -> Result<Vec<User>, StoreError>;
    /// Sets an account's password hash; false when there is no such account.
    fn set_password(&self, id: &str, password_hash: &str) -> Result<bool, StoreError>;
    /// Disables or enables an account (a disabled one's sessions end); false when there is
    /// no such account.
    fn set_disabled(&self, id: &str, disabled: bool) -> Result<bool, StoreError>;
    /// Starts a session for `user_id`, known by `id_hash`.
    fn create_session(&self, id_hash: &str, user_id: &str) -> Result<(), StoreError>;
    /// The player of the session `id_hash`, unless it ended or the account is disabled.
    fn session_user(&self, id_hash: &str) -> Result<Option<User>, StoreError>;
    /// Ends a session.
    fn end_session(&self, id_hash: &str) -> Result<(), StoreError>;
    /// Ends every session of the player but `keep`.
    fn end_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<(), StoreError>;
}

/// Ratings: the current ones, their history, the leaderboard.
pub trait RatingStore: Send + Sync {
    /// The player's ratings in every category they have played rated games in.
    fn ratings_of(&self, user_id: &str) -> Result<Vec<(Perf, PerfRating)>, StoreError>;
    /// The player's rating after each rated game of a category: `(ms, rating)`, in order.
    fn rating_history(&self, user_id: &str, perf: &Perf) -> Result<Vec<(i64, f64)>, StoreError>;
    /// The best `limit` players of a category (established ratings first).
    fn leaderboard(
        &self,
        perf: &Perf,
        limit: usize,
    ) -> Result<Vec<(PlayerRef, PerfRating)>, StoreError>;
    /// Every rating change, in the order they were made: for checking the ratings against
    /// the games (`(user, perf, game, rating, deviation, volatility)`).
    fn rating_log(&self) -> Result<Vec<RatingChange>, StoreError>;
}

/// One rating change as the history keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub user_id: String,
    /// The category.
    pub perf: String,
    /// The game whose result made it.
    pub game_id: String,
    /// The rating after it.
    pub rating: PerfRating,
}

/// A seek in the lobby: a game someone offers to anyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub player: PlayerRef,
    /// The kind of game.
    pub game: String,
    /// The time control (`None`: no clocks).
    pub clock: Option<TimeControl>,
    /// Rated?
    pub rated: bool,
    /// The side the seeker wants: `first`, `second` or `random`.
    pub color: String,
    /// The lobby socket it lives with (it goes when the socket closes).
    pub socket: Option<String>,
    /// When it was made (ms since the epoch).
    pub created_ms: i64,
}

/// A challenge from one player to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who challenges.
    pub from: PlayerRef,
    /// Who is challenged.
    pub to: PlayerRef,
    /// The kind of game.
    pub game: String,
    /// The time control.
    pub clock: Option<TimeControl>,
    /// Rated?
    pub rated: bool,
    /// The challenger's side: `first`, `second` or `random`.
    pub color: String,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    /// The game made when it was accepted.
    pub game_id: Option<String>,
    /// When it was made (ms since the epoch).
    pub created_ms: i64,
}

/// Makes the game of an accepted seek (for the player accepting it) inside the transaction
/// that takes it; an error refuses the seek and changes nothing.
pub type MakeSeekGame<'a> = &'a mut dyn FnMut(&Seek, &PlayerRef) -> Result<StoredGame, StoreError>;

/// Makes the game of an accepted challenge inside the transaction that answers it.
pub type MakeChallengeGame<'a> = &'a mut dyn FnMut(&Challenge) -> Result<StoredGame, StoreError>;

/// The lobby: seeks and challenges.
pub trait LobbyStore: Send + Sync {
    /// Adds a seek.
    fn add_seek(&self, seek: &Seek) -> Result<(), StoreError>;
    /// The open seeks, oldest first.
    fn seeks(&self) -> Result<Vec<Seek>, StoreError>;
    /// Removes the seek `id` of `user_id`; false when there was none.
    fn remove_seek(&self, id: &str, user_id: &str) -> Result<bool, StoreError>;
    /// Removes the seeks made on these lobby sockets (closed); how many.
    fn remove_seeks_of_sockets(&self, sockets: &[String]) -> Result<usize, StoreError>;
    /// Marks the seeks of these sockets as still wanted (their sockets are open).
    fn keep_seeks(&self, sockets: &[String]) -> Result<(), StoreError>;
    /// Removes seeks not kept for `stale_ms` (their server died) and socketless ones older
    /// than `socketless_ms`; how many.
    fn expire_seeks(&self, stale_ms: i64, socketless_ms: i64) -> Result<usize, StoreError>;
    /// Takes the seek `id` for `acceptor` and writes the game `make` makes of it, in one
    /// transaction; `None` when the seek is gone (taken or withdrawn).
    fn accept_seek(
        &self,
        id: &str,
        acceptor: &PlayerRef,
        make: MakeSeekGame<'_>,
        key: Option<&Idempotency>,
    ) -> Result<Option<(Seek, StoredGame)>, StoreError>;
    /// Adds a challenge.
    fn add_challenge(&self, challenge: &Challenge) -> Result<(), StoreError>;
    /// The open challenges from or to `user_id`.
    fn challenges_of(&self, user_id: &str) -> Result<Vec<Challenge>, StoreError>;
    /// The challenge `id`.
    fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError>;
    /// Closes the open challenge `id` as `status` (`declined`, `cancelled`); false when it
    /// was not open.
    fn close_challenge(&self, id: &str, status: &str) -> Result<bool, StoreError>;
    /// Accepts the open challenge `id` and writes the game `make` makes of it, in one
    /// transaction; `None` when it is not open any more.
    fn accept_challenge(
        &self,
        id: &str,
        make: MakeChallengeGame<'_>,
        key: Option<&Idempotency>,
    ) -> Result<Option<(Challenge, StoredGame)>, StoreError>;
    /// The game made by an earlier request with this `Idempotency-Key`, if any.
    fn earlier(&self, key: &Idempotency) -> Result<Option<Created>, StoreError>;
}

/// A game's review as stored: the evaluations of its positions so far and who computes it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredReview {
    /// The game.
    pub game_id: String,
    /// The node budget of each position's search.
    pub nodes: u64,
    /// Positions to evaluate (the game's moves and one).
    pub total: usize,
    /// Positions evaluated.
    pub done: usize,
    /// Their evaluations, a JSON array (see [`crate::review::PositionEval`]).
    pub positions: String,
    /// `running` or `done`.
    pub state: String,
    /// The server computing it while it runs.
    pub holder: Option<String>,
    /// Milliseconds since the holder's last heartbeat, by the database's clock.
    pub heartbeat_age_ms: Option<i64>,
}

/// The answer to [`ReviewStore::claim_review`].
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewClaim {
    /// This server computes it (from the positions already stored, if any).
    Won(StoredReview),
    /// Another server computes it and is alive.
    Held(StoredReview),
    /// It is done.
    Done(StoredReview),
}

/// Reviews of finished games (`reviews`): computed once, by the server that claims them,
/// whatever the number of servers.
pub trait ReviewStore: Send + Sync {
    /// Claims the review of game `id` for `holder`: a new review of `total` positions at
    /// `nodes` nodes each; or one whose holder is `holder`, nobody, or silent for `stale`
    /// (a server that died), taken over with its positions; else who holds it, or the done
    /// review. In one transaction under the game's row lock.
    fn claim_review(
        &self,
        id: &str,
        nodes: u64,
        total: usize,
        holder: &str,
        stale: Duration,
    ) -> Result<ReviewClaim, StoreError>;
    /// Stores the positions evaluated so far (`done` of them; the review is done when
    /// `finished`), and beats the heartbeat; false when `holder` no longer holds it.
    fn save_review(
        &self,
        id: &str,
        holder: &str,
        done: usize,
        positions: &str,
        finished: bool,
    ) -> Result<bool, StoreError>;
    /// The holder is alive; false when it no longer holds the review.
    fn heartbeat_review(&self, id: &str, holder: &str) -> Result<bool, StoreError>;
    /// Gives the claim up (another server may take the review at once).
    fn release_review(&self, id: &str, holder: &str) -> Result<(), StoreError>;
    /// The review of game `id`, if one was asked for.
    fn review(&self, id: &str) -> Result<Option<StoredReview>, StoreError>;
}

/// Everything the site keeps.
pub trait Store: GameStore + UserStore + RatingStore + LobbyStore + ReviewStore {
    /// Which database this is, for people: `sqlite chuhe-games.sqlite3`.
    fn describe(&self) -> String;
    /// Tells of changes committed by any server on this database: from a thread of its own,
    /// calls `changed` for each notification and now and then with [`Change::Idle`]; stops
    /// when `changed` answers false. True when the store has such a feed (PostgreSQL's
    /// `LISTEN`/`NOTIFY`); false when it has none (SQLite: one process).
    fn watch_changes(&self, changed: ChangeWatcher) -> bool;
}

/// A notification from the database, for [`Store::watch_changes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    /// A notification on one of [`CHANNELS`].
    Note {
        /// The channel.
        channel: &'a str,
        /// What it says.
        payload: &'a str,
    },
    /// The listening connection is (again) in place: what was announced while it was away
    /// is lost, so read again what is held.
    Reconnected,
    /// Nothing new: is the watcher still wanted?
    Idle,
}

/// What [`Store::watch_changes`] calls; false to stop.
pub type ChangeWatcher = Box<dyn Fn(Change<'_>) -> bool + Send>;

/// The PostgreSQL channel on which every committed change of a game is announced as
/// `ID VERSION`.
pub const CHANGES_CHANNEL: &str = "chuhe_games";

/// The PostgreSQL channel on which the lobby's changes are announced: `seeks` (the list
/// changed), `start GAME USER…` (a game began for these players), `challenge USER` (a
/// challenge to or from this player changed).
pub const LOBBY_CHANNEL: &str = "chuhe_lobby";

/// Every channel a server listens on.
pub const CHANNELS: [&str; 2] = [CHANGES_CHANNEL, LOBBY_CHANNEL];

/// The answer to [`GameStore::claim_engine_move`].
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

/// The one implementation of every store trait, over a SQL [`sql::Database`].
pub struct SqlStore<D> {
    db: D,
}

impl<D: sql::Database> SqlStore<D> {
    fn new(db: D) -> SqlStore<D> {
        SqlStore { db }
    }

    fn write<T>(
        &self,
        work: impl FnMut(&mut dyn sql::Tx) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        sql::write(&self.db, work)
    }

    fn read<T>(
        &self,
        work: impl FnMut(&mut dyn sql::Tx) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        sql::read(&self.db, work)
    }

    /// A read of one statement, outside any transaction.
    fn read_one<T>(
        &self,
        work: impl FnMut(&mut dyn sql::Tx) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        sql::read_one(&self.db, work)
    }
}

impl<D: sql::Database> Store for SqlStore<D> {
    fn describe(&self) -> String {
        self.db.describe()
    }

    fn watch_changes(&self, changed: ChangeWatcher) -> bool {
        self.db.watch(changed)
    }
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

fn side_of(text: &str) -> Result<Side, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Backend(format!("unreadable side '{text}'")))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The two sets of migrations have the same steps, and each step makes the same tables,
    /// columns and indexes (the SQL differs only in types and in PostgreSQL's `IF NOT
    /// EXISTS`); the stores' suite checks that both databases then work alike.
    #[test]
    fn the_migrations_of_both_databases_are_in_step() {
        let (lite, pg) = (sqlite::MIGRATIONS, postgres::MIGRATIONS);
        assert_eq!(lite.len(), pg.len());
        for (i, (a, b)) in lite.iter().zip(pg).enumerate() {
            assert_eq!((a.version, b.version), (i + 1, i + 1));
            assert_eq!(a.name, b.name, "step {}", i + 1);
            assert_eq!(shape(a.sql), shape(b.sql), "step {} ({})", i + 1, a.name);
        }
    }

    /// What a migration makes: `CREATE TABLE t (column…)`, `ADD COLUMN`, `CREATE INDEX` names,
    /// without types.
    fn shape(sql: &str) -> Vec<String> {
        let text = sql
            .lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join(" ")
            .replace("IF NOT EXISTS ", "");
        let mut out = Vec::new();
        for statement in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let words: Vec<&str> = statement.split_whitespace().collect();
            match words.as_slice() {
                ["CREATE", "TABLE", name, ..] => {
                    out.push(format!("table {name}"));
                    let body = &statement[statement.find('(').unwrap() + 1..];
                    for column in body.split(',') {
                        if let Some(first) = column.split_whitespace().next() {
                            out.push(format!("  {}", first.trim_start_matches('(')));
                        }
                    }
                }
                ["ALTER", "TABLE", table, "ADD", "COLUMN", column, ..] => {
                    out.push(format!("column {table}.{column}"));
                }
                ["CREATE", "INDEX", name, ..] => out.push(format!("index {name}")),
                other => out.push(other.join(" ")),
            }
        }
        out
    }

    #[test]
    fn time_controls_read_and_write_their_standard_form() {
        for (text, initial, inc) in [("180+2", 180_000, 2_000), ("90+0.5", 90_000, 500)] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!((tc.initial_ms, tc.increment_ms), (initial, inc));
            assert_eq!(tc.to_string(), text);
        }
        for bad in ["180", "a+b", "-1+0", "1e99+0", "+"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }
}
