//! A round: one game being played (or finished, kept for viewers) — the rules (a
//! [`chuhe::AnyGame`]), the seats, the clocks, the offers standing, and every action a
//! player can take, all through one [`Round::apply`]. Each action checks who asks, changes
//! the game, and writes the change to the store before it returns; when the write fails the
//! game is put back as it was. A result is final: once a game has one, every action but a
//! rematch is refused with [`RoundError::GameOver`].
//!
//! Everything here is synchronous and runs under the game's lock, on a blocking thread;
//! [`rooms::Rooms`] holds the rounds in memory and starts what follows a change (the
//! engine's move, the clock's watch).

pub mod error;
pub mod rooms;
pub mod view;
pub mod words;

use std::time::{Duration, Instant};

use chuhe::{
    AnyGame, GameKind, MoveError, MoveNotation, MoveTexts, Outcome, PositionFormat, Side, Status,
};
use chuhe_engine::{Engine, Limits, Score};
use serde::Deserialize;

pub use self::error::{Ended, RoundError};
use crate::ids::{random_id, random_token};
use crate::store::{
    Idempotency, Opponent, PlayerRef, Standing, Store, StoreError, StoredGame, StoredMove,
    StoredResult, User,
};

/// A move played, in every notation of its game, with the time its player took.
#[derive(Clone, Debug)]
struct Played {
    texts: MoveTexts,
    time_ms: u64,
}

/// The clocks of a game with a time control.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    /// Time left on each clock when the side to move started thinking.
    remaining_ms: [i64; 2],
}

/// The status stored for an aborted game. It is not a CGSN word (CGSN has none for a game
/// that never started): the server keeps it in its own `status` column, with winner `none`,
/// and shows it as `aborted` in the API and the archive; a PCN or PGN export of an aborted
/// game has no result. An aborted game is never rated.
pub const ABORTED: &str = "aborted";

/// The reason stored with an aborted game whose side to move did not make its first move in
/// time.
pub const NO_FIRST_MOVE: &str = "no_first_move";

/// The reason stored with a resignation that was a player leaving the game.
pub const ABANDONED: &str = "abandoned";

/// The number of moves played without clocks: each side's first (its clock starts with it).
pub const UNTIMED_PLIES: usize = 2;

/// How long a side has for its first move, by default, before the game is aborted.
pub const DEFAULT_ABORT_AFTER: Duration = Duration::from_secs(120);

/// Something that happened that the state does not show: an offer declined. It is shown
/// until the next move or the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notice {
    /// `draw_declined` (by `side`).
    pub code: &'static str,
    /// The side it concerns.
    pub side: Side,
    /// The moves played when it happened.
    ply: usize,
}

/// Who asks: the player signed in (a user id) and the seat tokens the request carries (an
/// API client's `Authorization: Bearer`, or an older game's own cookie).
#[derive(Clone, Debug, Default)]
pub struct Identity {
    /// The player of the session.
    pub user: Option<String>,
    /// Seat tokens.
    pub tokens: Vec<String>,
}

/// A draw offer's verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the other side's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// A rematch's verb.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RematchAction {
    /// Offer a rematch (against the engine: start it).
    #[default]
    Offer,
    /// Accept the other player's offer.
    Accept,
    /// Decline it (or withdraw one's own).
    Decline,
}

/// What a player does in a game: the one vocabulary of the HTTP routes and the WebSocket.
///
/// As JSON: `{"type":"move","move":"h3e3","ply":0}`, `{"type":"resign"}`,
/// `{"type":"draw","action":"offer"|"accept"|"decline"}`, `{"type":"takeback"}`,
/// `{"type":"abort"}`, `{"type":"rematch","action":"offer"|"accept"|"decline"}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Action {
    /// Play a move, in any notation of the game (coordinates first); `ply`, the number of
    /// moves the page has seen, turns a stale page's move into a conflict.
    Move {
        /// The move.
        #[serde(rename = "move")]
        text: String,
        /// Its notation (`uci`, `wxf`, `chinese`, …), if not coordinates.
        #[serde(default)]
        notation: Option<String>,
        /// The number of moves played before it.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Resign (at any moment of a game in play).
    Resign,
    /// Offer a draw (at any moment), or answer the other side's offer.
    Draw {
        /// The verb.
        action: DrawAction,
    },
    /// Take back one's last move, and the engine's answer (against the engine).
    Takeback,
    /// End the game without a result, before both sides have moved.
    Abort,
    /// After the result: offer, accept or decline a rematch with the colours swapped.
    Rematch {
        /// The verb (`offer` when left out).
        #[serde(default)]
        action: RematchAction,
    },
}

impl Action {
    /// The action's name in acknowledgements (`move`, `resign`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move { .. } => "move",
            Action::Resign => "resign",
            Action::Draw { .. } => "draw",
            Action::Takeback => "takeback",
            Action::Abort => "abort",
            Action::Rematch { .. } => "rematch",
        }
    }
}

/// The longest move text accepted.
pub const MAX_MOVE_TEXT: usize = 64;

/// What the engine is asked to do, taken out of the lock while it thinks.
#[derive(Clone, Debug)]
pub struct EngineJob {
    kind: GameKind,
    start: String,
    moves: Vec<String>,
    ply: usize,
    level: u8,
    limits: Limits,
}

impl EngineJob {
    /// The kind of game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The ply (from 0) of the move searched.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// A job for the start position at full strength (the pool's tests).
    #[cfg(test)]
    pub(crate) fn for_test(kind: GameKind, movetime: Duration) -> EngineJob {
        EngineJob {
            kind,
            start: "start".into(),
            moves: Vec::new(),
            ply: 0,
            level: 20,
            limits: Limits::movetime(movetime),
        }
    }

    /// Searches on a fresh engine; the move in coordinates and the score from the engine's
    /// side.
    pub fn run(&self) -> Option<(String, i32)> {
        self.run_on(&mut Engine::new(self.kind))
    }

    /// Searches on `engine` (an engine of the job's kind of game, which forgets its last game
    /// first).
    /// The engine's options are all set here: an engine of the pool may come from an
    /// analysis (MultiPV above one, full strength).
    pub fn run_on(&self, engine: &mut Engine) -> Option<(String, i32)> {
        engine.new_game().ok()?;
        engine.set_level(usize::from(self.level)).ok()?;
        engine.set_multipv(1).ok()?;
        engine.set_threads(1).ok()?;
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        engine.set_position(&self.start, &moves).ok()?;
        let best = engine.search(self.limits.clone()).ok()?;
        let score = match best.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000,
            Score::Mate(_) => -30_000,
        };
        Some((best.best?, score))
    }
}

/// The rows of a result.
fn stored_result(outcome: Outcome) -> StoredResult {
    StoredResult {
        status: outcome.status.as_str().to_string(),
        winner: outcome.winner_str().to_string(),
        reason: outcome.reason.map(|r| r.as_str().to_string()),
    }
}

/// The outcome of stored rows (a result the rules cannot infer: resignation, time, agreement).
fn outcome_of(result: &StoredResult) -> Result<Outcome, StoreError> {
    let status: Status = result
        .status
        .parse()
        .map_err(|_| StoreError::Backend(format!("unreadable status '{}'", result.status)))?;
    let winner = match result.winner.as_str() {
        "none" => None,
        other => Some(
            other
                .parse::<Side>()
                .map_err(|_| StoreError::Backend(format!("unreadable winner '{other}'")))?,
        ),
    };
    let mut outcome = Outcome::new(status, winner);
    if let Some(reason) = &result.reason {
        if let Ok(rule) = reason.parse() {
            outcome = outcome.by(rule);
        }
    }
    Ok(outcome)
}

/// A game being played (or finished, kept for viewers).
pub struct Round {
    record: StoredGame,
    game: Box<dyn AnyGame>,
    played: Vec<Played>,
    clocks: Option<Clocks>,
    /// When the side to move started thinking (for the times of the record and the clocks).
    turn_since: Instant,
    draw_offer: Option<Side>,
    /// The engine's last evaluation, from its own side (for draw offers).
    engine_score: Option<i32>,
    /// This server's engine is searching the game's next move.
    thinking: bool,
    /// Another server claimed the engine's move (see
    /// [`crate::store::GameStore::claim_engine_move`]); cleared when the game is read again
    /// or the claim is looked at again.
    engine_elsewhere: bool,
    notice: Option<Notice>,
    version: u64,
    /// How long each side has for its first move.
    abort_after: Duration,
}

impl Round {
    /// The game of a stored record, its moves replayed (a move the rules refuse means the
    /// record was damaged: an error, nothing guessed).
    /// A game whose kind is not offered by this server (a rules game of a directory it was
    /// not started with) is [`RoundError::NotServed`]; the record is left as it is.
    pub fn load(record: StoredGame, kinds: &crate::kinds::Kinds) -> Result<Round, RoundError> {
        let Some(kind) = kinds.find(&record.game) else {
            return Err(RoundError::NotServed {
                game: chuhe::quote_input(&record.game).into_owned(),
            });
        };
        Round::load_as(record, kind)
    }

    /// The game of a stored record of `kind`, its moves replayed. A start or a move its
    /// rules refuse is [`RoundError::RulesChanged`] for a game read from rule files (their
    /// files may change between starts) and a damaged record for a native game.
    fn load_as(record: StoredGame, kind: GameKind) -> Result<Round, RoundError> {
        let refused = |at: String, why: String| -> RoundError {
            if matches!(kind, GameKind::Rules(_)) {
                RoundError::RulesChanged {
                    game: chuhe::quote_input(&record.game).into_owned(),
                    at,
                    why,
                }
            } else {
                StoreError::Backend(format!("stored {at}: {why}")).into()
            }
        };
        let mut game = kind
            .new_game(&record.start)
            .map_err(|e| refused("start position".into(), e.to_string()))?;
        let mut played = Vec::with_capacity(record.moves.len());
        for (i, mv) in record.moves.iter().enumerate() {
            let texts = game.play_text(&mv.uci, MoveNotation::Uci).map_err(|e| {
                refused(
                    format!("move {} ('{}')", i + 1, chuhe::quote_input(&mv.uci)),
                    e.to_string(),
                )
            })?;
            played.push(Played {
                texts,
                time_ms: mv.time_ms,
            });
        }
        let aborted = record.result.as_ref().is_some_and(|r| r.status == ABORTED);
        if let (Some(result), None, false) = (&record.result, game.outcome(), aborted) {
            game.declare(outcome_of(result)?);
        }
        let draw_offer = if game.outcome().is_none() && !aborted {
            record.draw_offer
        } else {
            None
        };
        let turn_since = Instant::now()
            .checked_sub(Duration::from_millis(
                (crate::store::now_ms() - record.turn_ms.unwrap_or(record.updated_ms))
                    .clamp(0, 30 * 86_400_000) as u64,
            ))
            .unwrap_or_else(Instant::now);
        let mut round = Round {
            record,
            game,
            played,
            clocks: None,
            turn_since,
            draw_offer,
            engine_score: None,
            thinking: false,
            engine_elsewhere: false,
            notice: None,
            version: 0,
            abort_after: DEFAULT_ABORT_AFTER,
        };
        round.reset_clocks();
        Ok(round)
    }

    /// Replaces this copy with the database's newer `record` (another server changed the
    /// game); what only this server knows (the engine at work, its last score) is kept, and
    /// the version seen by watchers counts up. A move made elsewhere started the clock of the
    /// side to move when it was stored.
    pub fn reload(&mut self, record: StoredGame) -> Result<(), RoundError> {
        let same_turn = record.moves.len() == self.played.len();
        let same_moves = record.moves.iter().map(|m| &m.uci).eq(self
            .record
            .moves
            .iter()
            .map(|m| &m.uci));
        let mut fresh = Round::load_as(record, self.game.kind())?;
        fresh.version = self.version + 1;
        // A search of this server goes on only if its position is still the game's.
        fresh.thinking = self.thinking && same_moves;
        fresh.engine_score = self.engine_score;
        fresh.abort_after = self.abort_after;
        // A notice is not stored: a draw offer seen here that another server's copy has
        // since dropped, with no move and no result, was declined there; say so here too.
        if let (true, Some(offerer), None, false) = (
            same_turn,
            self.draw_offer,
            fresh.draw_offer,
            fresh.is_over(),
        ) {
            fresh.notice = Some(Notice {
                code: "draw_declined",
                side: !offerer,
                ply: fresh.played.len(),
            });
        } else if same_turn {
            fresh.notice = self.notice;
        }
        *self = fresh;
        Ok(())
    }

    /// Sets how long each side has for its first move.
    pub fn set_abort_after(&mut self, abort_after: Duration) {
        self.abort_after = abort_after;
    }

    /// Is the game over (a result, or aborted)?
    pub fn is_over(&self) -> bool {
        self.record.result.is_some() || self.game.outcome().is_some()
    }

    /// Was the game aborted?
    pub fn is_aborted(&self) -> bool {
        self.record
            .result
            .as_ref()
            .is_some_and(|r| r.status == ABORTED)
    }

    /// Is this an imported record (replayed, not played)?
    pub fn is_record(&self) -> bool {
        self.record.opponent == Opponent::Record
    }

    /// Do the clocks run (a game with clocks, not over, each side's first move made)?
    fn clock_runs(&self) -> bool {
        self.clocks.is_some() && !self.is_over() && self.played.len() >= UNTIMED_PLIES
    }

    /// The version of the game as stored (see [`crate::store::GameStore`]).
    pub fn stored_version(&self) -> i64 {
        self.record.version
    }

    /// The stored record (as of the last change made or read here).
    pub fn record(&self) -> &StoredGame {
        &self.record
    }

    /// Counts up with every change, for watchers.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The rules' game.
    pub fn game(&self) -> &dyn AnyGame {
        self.game.as_ref()
    }

    /// The times taken by each move, in seconds (for records).
    pub fn times(&self) -> Vec<f64> {
        self.played
            .iter()
            .map(|p| p.time_ms as f64 / 1000.0)
            .collect()
    }

    /// The seat of whoever asks: the seat of their account or guest session, else the seat
    /// whose token they carry.
    pub fn seat_of(&self, who: &Identity) -> Option<Side> {
        if self.is_record() {
            return None;
        }
        let by_user = who.user.as_deref().and_then(|user| {
            [Side::First, Side::Second].into_iter().find(|&side| {
                self.record.players[side.index()]
                    .as_ref()
                    .is_some_and(|p| p.id == user)
            })
        });
        by_user.or_else(|| {
            who.tokens.iter().find_map(|token| {
                [Side::First, Side::Second]
                    .into_iter()
                    .find(|&side| same_secret(&self.record.tokens[side.index()], token))
            })
        })
    }

    /// The engine's side, in a game against it.
    pub fn engine_side(&self) -> Option<Side> {
        match self.record.opponent {
            Opponent::Engine { side, .. } => Some(side),
            _ => None,
        }
    }

    /// The clocks from the stored times (the time the server was down is not counted).
    fn reset_clocks(&mut self) {
        self.clocks = self.record.clock.map(|tc| {
            let mut remaining_ms = [tc.initial_ms as i64; 2];
            let start_turn = self.first_mover();
            // Each side's first move is not on its clock.
            for (i, p) in self.played.iter().enumerate().skip(UNTIMED_PLIES) {
                let side = if i % 2 == 0 { start_turn } else { !start_turn };
                remaining_ms[side.index()] += tc.increment_ms as i64 - p.time_ms as i64;
            }
            // A game lost on time: the loser (to move when it ended) had none left.
            if self
                .record
                .result
                .as_ref()
                .is_some_and(|r| r.status == "timelimit")
            {
                remaining_ms[self.game.turn().index()] = 0;
            }
            Clocks { remaining_ms }
        });
    }

    /// The side that moved first.
    fn first_mover(&self) -> Side {
        if self.played.len() % 2 == 0 {
            self.game.turn()
        } else {
            !self.game.turn()
        }
    }

    /// The side that played ply `ply` (from 0).
    fn mover_of(&self, ply: usize) -> Side {
        let first = self.first_mover();
        if ply % 2 == 0 {
            first
        } else {
            !first
        }
    }

    /// How long the side to move has been thinking.
    fn elapsed_ms(&self) -> u64 {
        self.turn_since.elapsed().as_millis() as u64
    }

    /// Does the game wait for each side's first move against a deadline? Games with clocks,
    /// and games between people (a friend who never comes must not leave a game in play
    /// forever).
    fn first_moves_timed(&self) -> bool {
        self.clocks.is_some() || self.record.opponent == Opponent::Friend
    }

    /// The moment the side to move's clock runs out, or, before each side has made its first
    /// move, the moment the game is aborted.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline_from(self.turn_since, self.played.len(), self.clocks)
    }

    fn deadline_from(
        &self,
        since: Instant,
        plies: usize,
        clocks: Option<Clocks>,
    ) -> Option<Instant> {
        if self.is_over() || self.is_record() {
            return None;
        }
        if plies < UNTIMED_PLIES {
            return self.first_moves_timed().then(|| since + self.abort_after);
        }
        let c = clocks?;
        let left = c.remaining_ms[self.game.turn().index()].max(0) as u64;
        Some(since + Duration::from_millis(left))
    }

    /// A deadline as milliseconds since the epoch, for the store (any server's sweeper acts on
    /// it).
    fn wall_ms(deadline: Option<Instant>) -> Option<i64> {
        deadline.map(|d| {
            let now = Instant::now();
            let ahead = d.saturating_duration_since(now).as_millis() as i64;
            let behind = now.saturating_duration_since(d).as_millis() as i64;
            crate::store::now_ms() + ahead - behind
        })
    }

    /// The standing to write when only offers change (the turn goes on).
    fn standing(&self, result: Option<StoredResult>, draw_offer: Option<Side>) -> Standing {
        let deadline = if result.is_some() {
            None
        } else {
            self.deadline()
        };
        Standing {
            result,
            draw_offer,
            rematch_offer: None,
            deadline_ms: Self::wall_ms(deadline),
        }
    }

    /// Ends the game when its [`Round::deadline`] has passed: on time when the side to move's
    /// clock has run out, aborted when a side did not make its first move; true if it did.
    pub fn check_flag(&mut self, store: &dyn Store) -> Result<bool, RoundError> {
        match self.deadline() {
            Some(deadline) if Instant::now() >= deadline => {}
            _ => return Ok(false),
        }
        if self.played.len() < UNTIMED_PLIES {
            self.end_aborted(store, Some(NO_FIRST_MOVE))?;
            return Ok(true);
        }
        let loser = self.game.turn();
        let outcome = Outcome::win(Status::Timelimit, !loser);
        self.write_result(store, stored_result(outcome))?;
        if let Some(c) = &mut self.clocks {
            c.remaining_ms[loser.index()] = 0;
        }
        self.game.declare(outcome);
        self.changed();
        Ok(true)
    }

    /// Ends the game without a result; `reason`: [`NO_FIRST_MOVE`] when the side to move
    /// did not make its first move in time (`None`: a player aborted it).
    fn end_aborted(&mut self, store: &dyn Store, reason: Option<&str>) -> Result<(), RoundError> {
        self.write_result(
            store,
            StoredResult {
                status: ABORTED.into(),
                winner: "none".into(),
                reason: reason.map(str::to_string),
            },
        )?;
        self.changed();
        Ok(())
    }

    /// Writes a result (and no offers); the game in memory follows the stored record.
    fn write_result(&mut self, store: &dyn Store, result: StoredResult) -> Result<(), RoundError> {
        let standing = self.standing(Some(result), None);
        store.set_standing(&self.record.id, self.record.version, &standing)?;
        self.stored(&standing);
        self.read_ratings(store);
        Ok(())
    }

    /// After the result of a rated game: the rating changes the store made with it.
    fn read_ratings(&mut self, store: &dyn Store) {
        if !self.record.rated {
            return;
        }
        // Best effort: a failed read leaves the changes to the next load of the game.
        if let Ok(Some(stored)) = store.load(&self.record.id) {
            if stored.version == self.record.version {
                self.record.ratings = stored.ratings;
                self.record.rated_ms = stored.rated_ms;
            }
        }
    }

    /// Writes offers (the turn goes on).
    fn write_offers(
        &mut self,
        store: &dyn Store,
        draw_offer: Option<Side>,
    ) -> Result<(), RoundError> {
        let standing = self.standing(None, draw_offer);
        store.set_standing(&self.record.id, self.record.version, &standing)?;
        self.stored(&standing);
        Ok(())
    }

    /// Notes a change written to the store.
    fn stored(&mut self, standing: &Standing) {
        self.record.version += 1;
        self.record.result = standing.result.clone();
        self.record.draw_offer = standing.draw_offer;
        self.record.rematch_offer = standing.rematch_offer;
        self.record.deadline_ms = standing.deadline_ms;
        self.draw_offer = standing.draw_offer;
        if standing.result.is_some() {
            self.notice = None;
        }
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    /// How the game ended, for refusals.
    fn ended(&self) -> Ended {
        let kind = self.game.kind();
        if self.is_aborted() {
            return Ended {
                status: ABORTED,
                winner: "none",
                words: words::aborted(kind, None),
            };
        }
        match self.game.outcome() {
            Some(o) => Ended::of(&o, kind),
            None => Ended {
                status: "unknown",
                winner: "none",
                words: "the game is over".into(),
            },
        }
    }

    /// Refuses unless the game goes on (and is a game, not a record).
    fn expect_in_play(&self) -> Result<(), RoundError> {
        if self.is_record() {
            return Err(RoundError::ReviewOnly);
        }
        if self.is_over() {
            return Err(RoundError::GameOver {
                ended: self.ended(),
            });
        }
        Ok(())
    }

    /// Carries out `action` of the player in seat `side`.
    pub fn apply(
        &mut self,
        side: Side,
        action: &Action,
        store: &dyn Store,
    ) -> Result<Applied, RoundError> {
        if !matches!(action, Action::Rematch { .. }) {
            self.check_flag(store)?;
        }
        match action {
            Action::Move {
                text,
                notation,
                ply,
            } => {
                let notation = notation
                    .as_deref()
                    .map(|n| n.parse::<MoveNotation>())
                    .transpose()
                    .map_err(|e| RoundError::UnreadableMove {
                        text: chuhe::quote_input(text).into_owned(),
                        why: MoveError::syntax(text, &e.to_string()),
                    })?;
                self.play(side, text, notation, *ply, store)
                    .map(|_| Applied::Done)
            }
            Action::Resign => self.resign(side, store).map(|_| Applied::Done),
            Action::Draw { action } => self.draw(side, *action, store).map(|_| Applied::Done),
            Action::Takeback => self.take_back(side, store).map(|_| Applied::Done),
            Action::Abort => self.abort(store).map(|_| Applied::Done),
            Action::Rematch { action } => self.rematch(side, *action, store),
        }
    }

    /// `side` plays a move.
    fn play(
        &mut self,
        side: Side,
        text: &str,
        notation: Option<MoveNotation>,
        ply: Option<usize>,
        store: &dyn Store,
    ) -> Result<MoveTexts, RoundError> {
        self.expect_in_play()?;
        if self.game.turn() != side {
            return Err(RoundError::NotYourTurn {
                turn: self.game.turn(),
            });
        }
        if self.engine_thinks() {
            return Err(RoundError::EngineThinking);
        }
        if let Some(ply) = ply {
            if ply != self.played.len() {
                return Err(RoundError::WrongPly {
                    meant: ply,
                    played: self.played.len(),
                });
            }
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(RoundError::UnreadableMove {
                text: chuhe::quote_input(text).into_owned(),
                why: MoveError::syntax(text, "too long to be a move"),
            });
        }
        let texts = self.play_text(text, notation)?;
        let time_ms = self.elapsed_ms();
        self.commit_move(side, texts.clone(), time_ms, store)?;
        Ok(texts)
    }

    /// Plays `text` in `notation`, or in the first notation of the game that reads it
    /// (coordinates first). A notation that reads the text as a move that breaks the rules
    /// decides (no other reading is tried: the player meant that move); one that reads it as
    /// a move from an empty square, or from the other side's piece, is remembered and the
    /// next is tried; when none plays it, that error is the answer ("there is no piece on
    /// h3"), else the first notation's.
    fn play_text(
        &mut self,
        text: &str,
        notation: Option<MoveNotation>,
    ) -> Result<MoveTexts, RoundError> {
        let text = text.trim();
        let notations: Vec<MoveNotation> = match notation {
            Some(n) => vec![n],
            None => std::iter::once(MoveNotation::Uci)
                .chain(self.game.notations().iter().copied())
                .collect(),
        };
        let quoted = chuhe::quote_input(text).into_owned();
        let mut about_the_move: Option<MoveError> = None;
        let mut unreadable: Option<MoveError> = None;
        for n in notations {
            match self.game.play_text(text, n) {
                Ok(texts) => return Ok(texts),
                Err(e @ (MoveError::Illegal { .. } | MoveError::GameOver { .. })) => {
                    return Err(RoundError::IllegalMove {
                        text: quoted.clone(),
                        why: about_the_move.unwrap_or(e),
                    })
                }
                Err(e @ (MoveError::NoPiece { .. } | MoveError::NotYourPiece { .. })) => {
                    about_the_move.get_or_insert(e);
                }
                Err(e) => {
                    unreadable.get_or_insert(e);
                }
            }
        }
        Err(match (about_the_move, unreadable) {
            (Some(why), _) => RoundError::IllegalMove {
                text: quoted.clone(),
                why,
            },
            (None, Some(why)) => RoundError::UnreadableMove {
                text: quoted.clone(),
                why,
            },
            (None, None) => RoundError::UnreadableMove {
                text: quoted.clone(),
                why: MoveError::syntax(text, "no notation reads it"),
            },
        })
    }

    /// Writes the move just played to the store (with the result it brings), or takes it
    /// back when the store fails.
    fn commit_move(
        &mut self,
        side: Side,
        texts: MoveTexts,
        time_ms: u64,
        store: &dyn Store,
    ) -> Result<(), RoundError> {
        let ply = self.played.len();
        let outcome = self.game.outcome();
        let mv = StoredMove {
            uci: texts.get("uci").cloned().unwrap_or_default(),
            time_ms,
        };
        // A move answers the other side's draw offer (no); the mover's own offer stands.
        let draw_offer = match self.draw_offer {
            Some(offer) if offer == side && outcome.is_none() => Some(offer),
            _ => None,
        };
        let mut clocks = self.clocks;
        if let (Some(c), Some(tc), true) = (&mut clocks, self.record.clock, ply >= UNTIMED_PLIES) {
            c.remaining_ms[side.index()] += tc.increment_ms as i64 - time_ms as i64;
        }
        let now = Instant::now();
        let deadline = match outcome {
            Some(_) => None,
            None => Self::wall_ms(self.deadline_from(now, ply + 1, clocks)),
        };
        let standing = Standing {
            result: outcome.map(stored_result),
            draw_offer,
            rematch_offer: None,
            deadline_ms: deadline,
        };
        if let Err(e) = store.push_move(&self.record.id, self.record.version, ply, &mv, &standing) {
            self.game.undo();
            return Err(e.into());
        }
        self.stored(&standing);
        self.record.moves.push(mv);
        self.played.push(Played { texts, time_ms });
        if standing.result.is_some() {
            self.read_ratings(store);
        }
        self.clocks = clocks;
        self.turn_since = now;
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// `side` resigns (at any moment of a game in play).
    fn resign(&mut self, side: Side, store: &dyn Store) -> Result<(), RoundError> {
        self.expect_in_play()?;
        self.declare(Outcome::win(Status::Resignation, !side), store)
    }

    /// Ends the game with a result the rules do not see (resignation, agreement).
    fn declare(&mut self, outcome: Outcome, store: &dyn Store) -> Result<(), RoundError> {
        self.write_result(store, stored_result(outcome))?;
        // The clock that ran until now stops where it is (not where the turn began).
        let elapsed = self.elapsed_ms() as i64;
        let turn = self.game.turn();
        let runs = self.clocks.is_some() && self.played.len() >= UNTIMED_PLIES;
        if let (Some(c), true) = (&mut self.clocks, runs) {
            c.remaining_ms[turn.index()] -= elapsed;
        }
        self.game.declare(outcome);
        self.changed();
        Ok(())
    }

    /// `side` offers a draw (at any moment), or answers the other side's offer.
    fn draw(
        &mut self,
        side: Side,
        action: DrawAction,
        store: &dyn Store,
    ) -> Result<(), RoundError> {
        self.expect_in_play()?;
        match action {
            DrawAction::Offer => {
                if self.draw_offer == Some(side) {
                    return Err(RoundError::DrawAlreadyOffered);
                }
                if self.draw_offer == Some(!side) {
                    // Offering when the other side has offered is agreeing.
                    return self.declare(Outcome::draw(Status::Agreement), store);
                }
                if self.engine_side() == Some(!side) {
                    // The engine takes a draw only when it judges itself clearly worse.
                    if self.engine_score.is_some_and(|cp| cp <= -150) {
                        return self.declare(Outcome::draw(Status::Agreement), store);
                    }
                    self.notice = Some(Notice {
                        code: "draw_declined",
                        side: !side,
                        ply: self.played.len(),
                    });
                    self.changed();
                    return Ok(());
                }
                self.write_offers(store, Some(side))?;
                self.notice = None;
                self.changed();
                Ok(())
            }
            DrawAction::Accept | DrawAction::Decline => {
                if self.draw_offer != Some(!side) {
                    return Err(RoundError::NoDrawOffer);
                }
                if action == DrawAction::Accept {
                    return self.declare(Outcome::draw(Status::Agreement), store);
                }
                self.write_offers(store, None)?;
                self.notice = Some(Notice {
                    code: "draw_declined",
                    side,
                    ply: self.played.len(),
                });
                self.changed();
                Ok(())
            }
        }
    }

    /// The ply `side` would take back to: its last move (and the engine's answer after it);
    /// `None` when it has not moved.
    fn take_back_to(&self, side: Side) -> Option<usize> {
        (0..self.played.len())
            .rev()
            .find(|&p| self.mover_of(p) == side)
    }

    /// Can `side` take back a move now (a game against the engine, in play, the engine not
    /// thinking, a move of its own to take back)?
    pub fn can_take_back(&self, side: Side) -> bool {
        self.engine_side() == Some(!side)
            && !self.is_over()
            && !self.engine_thinks()
            && self.take_back_to(side).is_some()
    }

    /// `side` takes back its last move against the engine (and the engine's reply).
    fn take_back(&mut self, side: Side, store: &dyn Store) -> Result<(), RoundError> {
        self.expect_in_play()?;
        if self.engine_side() != Some(!side) {
            return Err(RoundError::TakeBackAgainstEngineOnly);
        }
        if self.engine_thinks() {
            return Err(RoundError::EngineThinking);
        }
        let Some(last_own) = self.take_back_to(side) else {
            return Err(RoundError::NothingToTakeBack);
        };
        let mut clocks = self.clocks;
        if let (Some(c), Some(tc)) = (&mut clocks, self.record.clock) {
            // The clocks as they were when `side` was to move at `last_own`.
            c.remaining_ms = [tc.initial_ms as i64; 2];
            for (i, p) in self
                .played
                .iter()
                .enumerate()
                .take(last_own)
                .skip(UNTIMED_PLIES)
            {
                c.remaining_ms[self.mover_of(i).index()] +=
                    tc.increment_ms as i64 - p.time_ms as i64;
            }
        }
        let now = Instant::now();
        let standing = Standing {
            result: None,
            draw_offer: None,
            rematch_offer: None,
            deadline_ms: Self::wall_ms(self.deadline_from(now, last_own, clocks)),
        };
        store.truncate(&self.record.id, self.record.version, last_own, &standing)?;
        self.stored(&standing);
        while self.played.len() > last_own {
            self.game.undo();
            self.played.pop();
            self.record.moves.pop();
        }
        self.notice = None;
        self.reset_clocks();
        self.turn_since = now;
        self.changed();
        Ok(())
    }

    /// Ends a game between people without clocks whose side to move left it: no page of
    /// theirs open (`present`, each seat's, on any server) for `abandon_after` while it is
    /// their move. They lose, as by resignation (the reason says `abandoned`); true if it
    /// ended. Games with clocks end by the clock instead.
    pub fn check_abandoned(
        &mut self,
        present: [bool; 2],
        abandon_after: Duration,
        store: &dyn Store,
    ) -> Result<bool, RoundError> {
        let turn = self.game.turn();
        let people = self.record.opponent == Opponent::Friend
            && self.record.players.iter().all(Option::is_some);
        if self.is_over()
            || !people
            || self.clocks.is_some()
            || self.played.len() < UNTIMED_PLIES
            || present[turn.index()]
            || self.turn_since.elapsed() < abandon_after
        {
            return Ok(false);
        }
        let outcome = Outcome::win(Status::Resignation, !turn);
        let mut result = stored_result(outcome);
        result.reason = Some(ABANDONED.to_string());
        self.write_result(store, result)?;
        self.game.declare(outcome);
        self.changed();
        Ok(true)
    }

    /// Can the game be aborted now (in play, not both sides have moved)?
    pub fn can_abort(&self) -> bool {
        !self.is_over() && !self.is_record() && self.played.len() < UNTIMED_PLIES
    }

    /// Ends the game without a result, before both sides have moved.
    fn abort(&mut self, store: &dyn Store) -> Result<(), RoundError> {
        self.expect_in_play()?;
        if self.played.len() >= UNTIMED_PLIES {
            return Err(RoundError::TooLateToAbort);
        }
        self.end_aborted(store, None)
    }

    /// After the result: the rematch. Against the engine an offer starts it at once; between
    /// people one offers and the other accepts (or declines).
    fn rematch(
        &mut self,
        side: Side,
        action: RematchAction,
        store: &dyn Store,
    ) -> Result<Applied, RoundError> {
        if self.is_record() {
            return Err(RoundError::ReviewOnly);
        }
        if !self.is_over() {
            return Err(RoundError::NotOver);
        }
        if let Some(game) = &self.record.rematch_id {
            return Err(RoundError::RematchMade { game: game.clone() });
        }
        let offer = self.record.rematch_offer;
        let starts = match action {
            RematchAction::Offer => self.engine_side().is_some() || offer == Some(!side),
            RematchAction::Accept => {
                if offer != Some(!side) {
                    return Err(RoundError::NoRematchOffer);
                }
                true
            }
            RematchAction::Decline => {
                if offer.is_none() {
                    return Err(RoundError::NoRematchOffer);
                }
                false
            }
        };
        if starts {
            let game = self.rematch_game();
            store.create_rematch(&self.record.id, self.record.version, &game)?;
            self.record.version += 1;
            self.record.rematch_offer = None;
            self.record.rematch_id = Some(game.id.clone());
            self.changed();
            return Ok(Applied::Rematch(Box::new(game)));
        }
        let rematch_offer = (action == RematchAction::Offer).then_some(side);
        let standing = Standing {
            result: self.record.result.clone(),
            draw_offer: None,
            rematch_offer,
            deadline_ms: None,
        };
        store.set_standing(&self.record.id, self.record.version, &standing)?;
        self.stored(&standing);
        self.changed();
        Ok(Applied::Done)
    }

    /// The rematch of this game: the same kind, start, clock and rating, colours swapped.
    fn rematch_game(&self) -> StoredGame {
        let r = &self.record;
        let now = crate::store::now_ms();
        let opponent = match r.opponent {
            Opponent::Engine { level, side } => Opponent::Engine { level, side: !side },
            other => other,
        };
        StoredGame {
            id: random_id(10),
            game: r.game.clone(),
            start: r.start.clone(),
            opponent,
            creator: !r.creator,
            tokens: [random_token(), random_token()],
            players: [r.players[1].clone(), r.players[0].clone()],
            invite: None,
            rated: r.rated,
            clock: r.clock,
            created_ms: now,
            updated_ms: now,
            ..StoredGame::default()
        }
    }

    /// Gives the open seat of a game between friends to `user`, who opened the invite link
    /// with `code`; the seat they hold already, if they hold one (a player who opens their own
    /// invite link keeps their seat).
    pub fn join(
        &mut self,
        user: &User,
        tokens: &[String],
        code: &str,
        key: Option<&Idempotency>,
        store: &dyn Store,
    ) -> Result<Side, RoundError> {
        let who = Identity {
            user: Some(user.id.clone()),
            tokens: tokens.to_vec(),
        };
        if let Some(side) = self.seat_of(&who) {
            return Ok(side);
        }
        if self.is_record() {
            return Err(RoundError::ReviewOnly);
        }
        let open = !self.record.creator;
        let valid = self.record.opponent == Opponent::Friend
            && self
                .record
                .invite
                .as_deref()
                .is_some_and(|invite| same_secret(invite, code));
        if !valid {
            return Err(RoundError::BadInvite);
        }
        if self.record.players[open.index()].is_some() {
            return Err(RoundError::SeatTaken);
        }
        self.expect_in_play()?;
        match store.take_seat(&self.record.id, self.record.version, open, &user.id, key) {
            Err(StoreError::SeatTaken { .. }) => return Err(RoundError::SeatTaken),
            other => other?,
        }
        self.record.version += 1;
        self.record.players[open.index()] = Some(PlayerRef {
            id: user.id.clone(),
            name: user.name.clone(),
            guest: user.guest,
        });
        self.changed();
        Ok(open)
    }

    /// The search the engine should start now, if it is the engine's move.
    pub fn engine_job(&mut self, movetime: Duration) -> Option<EngineJob> {
        let Opponent::Engine { level, side } = self.record.opponent else {
            return None;
        };
        if self.engine_thinks() || self.is_over() || self.game.turn() != side {
            return None;
        }
        let movetime = match self.clocks {
            Some(c) => {
                let left = c.remaining_ms[side.index()].max(0) as u64;
                let inc = self.record.clock.map_or(0, |tc| tc.increment_ms);
                movetime
                    .min(Duration::from_millis(left / 30 + inc / 2).max(Duration::from_millis(20)))
            }
            None => movetime,
        };
        self.thinking = true;
        self.changed();
        Some(EngineJob {
            kind: self.game.kind(),
            start: start_with_counters(self.game.as_ref()),
            moves: self.game.moves_uci(),
            ply: self.played.len(),
            level,
            limits: Limits::movetime(movetime),
        })
    }

    /// Is the engine thinking, on this server or another?
    fn engine_thinks(&self) -> bool {
        self.thinking || self.engine_elsewhere
    }

    /// `job` will not be searched here: another server claimed its move (`elsewhere`: this
    /// one waits, the view still shows the engine thinking), or the game moved on, or the
    /// database was away. Nothing changes when the game is no longer at `job`'s position.
    pub fn engine_not_started(&mut self, job: &EngineJob, elsewhere: bool) {
        if job.moves == self.game.moves_uci() {
            self.thinking = false;
            self.engine_elsewhere = elsewhere;
        }
    }

    /// Looks at the engine's claim again (the claim of another server may have expired).
    pub fn recheck_engine(&mut self) {
        self.engine_elsewhere = false;
    }

    /// The engine's answer could not be used (the database was away): it may think again.
    pub fn engine_failed(&mut self) {
        self.thinking = false;
        self.changed();
    }

    /// Plays the engine's answer to `job`, unless the game moved on meanwhile (then the
    /// answer is dropped, and a newer search, if any, goes on).
    pub fn engine_done(
        &mut self,
        job: &EngineJob,
        answer: Option<(String, i32)>,
        store: &dyn Store,
    ) -> Result<(), RoundError> {
        if job.moves != self.game.moves_uci() {
            return Ok(());
        }
        self.thinking = false;
        self.changed();
        let Some(side) = self.engine_side() else {
            return Ok(());
        };
        if self.is_over() || self.check_flag(store)? {
            return Ok(());
        }
        let Some((uci, score)) = answer else {
            return Ok(());
        };
        self.engine_score = Some(score);
        let texts = self.game.play_text(&uci, MoveNotation::Uci).map_err(|e| {
            RoundError::Store(StoreError::Backend(format!("the engine's move: {e}")))
        })?;
        let time_ms = self.elapsed_ms();
        self.commit_move(side, texts, time_ms, store)
    }
}

/// What an action led to.
#[derive(Clone, Debug)]
pub enum Applied {
    /// The action is done.
    Done,
    /// A rematch began: its game.
    Rematch(Box<StoredGame>),
}

/// Compares secrets in time independent of where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The position `game` started from as text that keeps its counters: a FEN where the game has
/// one (its half-move clock and move number), else a FEEN (which holds none, X8).
pub(crate) fn start_with_counters(game: &dyn AnyGame) -> String {
    // A game read from rule files keeps its FEEN: its FEN has no hands (Sashité's captures
    // go there), and its counters start at zero.
    if matches!(game.kind(), GameKind::Rules(_)) {
        return game.start_feen();
    }
    game.start_text(PositionFormat::Fen)
        .unwrap_or_else(|_| game.start_feen())
}
