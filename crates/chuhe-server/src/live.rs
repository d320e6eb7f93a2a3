//! A game being played: the rules (a [`chuhe::AnyGame`]), the clocks, a pending draw offer,
//! and every action a player can take. Each action checks who asks, changes the game, and
//! writes the change to the [`Store`] before it returns; when the write fails the game is put
//! back as it was.
//!
//! Everything here is synchronous and runs under the game's lock, on a blocking thread.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use chuhe::{
    AnyGame, GameKind, MoveError, MoveNotation, MoveTexts, Outcome, PositionFormat, Side, Status,
};
use chuhe_engine::{Engine, Limits, Score};
use serde::Serialize;

use crate::error::ApiError;
use crate::store::{Opponent, Standing, Store, StoreError, StoredGame, StoredMove, StoredResult};

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

/// A game in play (or finished, kept for viewers).
pub struct LiveGame {
    record: StoredGame,
    game: Box<dyn AnyGame>,
    played: Vec<Played>,
    clocks: Option<Clocks>,
    /// When the side to move started thinking (for the times of the record).
    turn_since: Instant,
    draw_offer: Option<Side>,
    /// The engine's last evaluation, from its own side (for draw offers).
    engine_score: Option<i32>,
    /// This server's engine is searching the game's next move.
    thinking: bool,
    /// Another server claimed the engine's move (see [`crate::store::Store::claim_engine_move`]);
    /// cleared when the game is read again or the claim is looked at again.
    engine_elsewhere: bool,
    /// The last thing that happened that is not in the state (a declined draw offer).
    notice: Option<String>,
    version: u64,
    /// Ended because a side did not make its first move in time (see [`ABORTED`]).
    aborted: bool,
    /// How long each side has for its first move in a game with clocks.
    abort_after: Duration,
}

/// The status stored for an aborted game. It is not a CGSN word (CGSN has none for a game
/// that never started): the server keeps it in its own `status` column, with winner `none`,
/// and shows it as `aborted` in the API and the archive; a PCN or PGN export of an aborted
/// game has no result.
pub const ABORTED: &str = "aborted";

/// The number of moves played without clocks: each side's first (its clock starts with it).
pub const UNTIMED_PLIES: usize = 2;

/// How long a side has for its first move, by default, before the game is aborted.
pub const DEFAULT_ABORT_AFTER: Duration = Duration::from_secs(120);

/// What a player sends to move: the move in any notation of the game (coordinates by
/// default) and, optionally, the ply it is meant for (a stale page then gets a conflict
/// instead of playing into a changed position).
#[derive(Clone, Debug, Default)]
pub struct MoveRequest {
    /// The move as written.
    pub text: String,
    /// Its notation; `None` tries coordinates, then every other notation of the game.
    pub notation: Option<MoveNotation>,
    /// The number of moves played before it.
    pub ply: Option<usize>,
}

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

    /// Searches on a fresh engine; the move in coordinates and the score from the engine's
    /// side.
    pub fn run(&self) -> Option<(String, i32)> {
        self.run_on(&mut Engine::new(self.kind))
    }

    /// Searches on `engine` (an engine of the job's kind of game, which forgets its last game
    /// first).
    pub fn run_on(&self, engine: &mut Engine) -> Option<(String, i32)> {
        engine.new_game().ok()?;
        engine.set_level(usize::from(self.level)).ok()?;
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

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first (South/Red)",
        Side::Second => "second (North/Black)",
    }
}

/// The notice that `side` declined the other's draw offer.
fn declined_text(side: Side) -> String {
    format!("{} declined the draw", side_name(side))
}

impl LiveGame {
    /// The game of a stored record, its moves replayed (a move the rules refuse means the
    /// record was damaged: an error, nothing guessed).
    pub fn load(record: StoredGame) -> Result<LiveGame, StoreError> {
        let kind: GameKind = record
            .game
            .parse()
            .map_err(|_| StoreError::Backend(format!("unknown game '{}'", record.game)))?;
        let mut game = kind
            .new_game(&record.start)
            .map_err(|e| StoreError::Backend(format!("stored start position: {e}")))?;
        let mut played = Vec::with_capacity(record.moves.len());
        for (i, mv) in record.moves.iter().enumerate() {
            let texts = game.play_text(&mv.uci, MoveNotation::Uci).map_err(|e| {
                StoreError::Backend(format!("stored move {} ('{}'): {e}", i + 1, mv.uci))
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
        let mut live = LiveGame {
            record,
            game,
            played,
            clocks: None,
            turn_since: Instant::now(),
            draw_offer,
            engine_score: None,
            thinking: false,
            engine_elsewhere: false,
            notice: None,
            version: 0,
            aborted,
            abort_after: DEFAULT_ABORT_AFTER,
        };
        live.reset_clocks();
        Ok(live)
    }

    /// Replaces this copy with the database's newer `record` (another server changed the
    /// game); what only this server knows (the engine at work, its last score) is kept, and
    /// the version seen by watchers counts up. A move made elsewhere started the clock of the
    /// side to move when it was stored.
    pub fn reload(&mut self, record: StoredGame) -> Result<(), StoreError> {
        let updated_ms = record.updated_ms;
        let same_turn = record.moves.len() == self.played.len();
        let same_moves = record.moves.iter().map(|m| &m.uci).eq(self
            .record
            .moves
            .iter()
            .map(|m| &m.uci));
        let mut fresh = LiveGame::load(record)?;
        fresh.version = self.version + 1;
        // A search of this server goes on only if its position is still the game's.
        fresh.thinking = self.thinking && same_moves;
        fresh.engine_score = self.engine_score;
        fresh.abort_after = self.abort_after;
        // The notice is not stored: a draw offer seen here that another server's copy has
        // since dropped, with no move and no result, was declined there; say so here too.
        if let (true, Some(offerer), None, false) = (
            same_turn,
            self.draw_offer,
            fresh.draw_offer,
            fresh.is_over(),
        ) {
            fresh.notice = Some(declined_text(!offerer));
        }
        fresh.turn_since = if same_turn {
            self.turn_since
        } else {
            let ago = (crate::store::now_ms() - updated_ms).clamp(0, 86_400_000) as u64;
            Instant::now()
                .checked_sub(Duration::from_millis(ago))
                .unwrap_or_else(Instant::now)
        };
        *self = fresh;
        Ok(())
    }

    /// Sets how long each side has for its first move in a game with clocks.
    pub fn set_abort_after(&mut self, abort_after: Duration) {
        self.abort_after = abort_after;
    }

    /// Is the game over (a result, or aborted)?
    pub fn is_over(&self) -> bool {
        self.aborted || self.game.outcome().is_some()
    }

    /// Was the game aborted (a side did not make its first move in time)?
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// Do the clocks run (a game with clocks, not over, each side's first move made)?
    fn clock_runs(&self) -> bool {
        self.clocks.is_some() && !self.is_over() && self.played.len() >= UNTIMED_PLIES
    }

    /// The version of the game as stored (see [`Store`]).
    pub fn stored_version(&self) -> i64 {
        self.record.version
    }

    /// Writes the standing (result and draw offer) on the stored version; counts it up.
    fn write_standing(&mut self, store: &dyn Store, standing: &Standing) -> Result<(), ApiError> {
        store.set_standing(&self.record.id, self.record.version, standing)?;
        self.stored(standing);
        Ok(())
    }

    /// Notes a change written to the store.
    fn stored(&mut self, standing: &Standing) {
        self.record.version += 1;
        self.record.result = standing.result.clone();
        self.record.draw_offer = standing.draw_offer;
        self.draw_offer = standing.draw_offer;
    }

    /// The stored record (without later changes to its moves).
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

    /// The side whose secret is `token`, if any.
    pub fn side_of_token(&self, token: &str) -> Option<Side> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|&side| same_secret(&self.record.tokens[side.index()], token))
    }

    /// The engine's side, in a game against it.
    pub fn engine_side(&self) -> Option<Side> {
        match self.record.opponent {
            Opponent::Engine { side, .. } => Some(side),
            Opponent::Friend => None,
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

    /// How long the side to move has been thinking.
    fn elapsed_ms(&self) -> u64 {
        self.turn_since.elapsed().as_millis() as u64
    }

    /// The moment the side to move's clock runs out, or, before each side has made its first
    /// move in a game with clocks, the moment the game is aborted.
    pub fn deadline(&self) -> Option<Instant> {
        if self.is_over() {
            return None;
        }
        let c = self.clocks?;
        if self.played.len() < UNTIMED_PLIES {
            return Some(self.turn_since + self.abort_after);
        }
        let left = c.remaining_ms[self.game.turn().index()].max(0) as u64;
        Some(self.turn_since + Duration::from_millis(left))
    }

    /// Ends the game when its [`LiveGame::deadline`] has passed: on time when the side to
    /// move's clock has run out, aborted when a side did not make its first move; true if it
    /// did.
    pub fn check_flag(&mut self, store: &dyn Store) -> Result<bool, ApiError> {
        match self.deadline() {
            Some(deadline) if Instant::now() >= deadline => {}
            _ => return Ok(false),
        }
        if self.played.len() < UNTIMED_PLIES {
            self.write_standing(
                store,
                &Standing {
                    result: Some(StoredResult {
                        status: ABORTED.into(),
                        winner: "none".into(),
                        reason: None,
                    }),
                    draw_offer: None,
                },
            )?;
            self.aborted = true;
            self.changed();
            return Ok(true);
        }
        let loser = self.game.turn();
        let outcome = Outcome::win(Status::Timelimit, !loser);
        self.write_standing(
            store,
            &Standing {
                result: Some(stored_result(outcome)),
                draw_offer: None,
            },
        )?;
        if let Some(c) = &mut self.clocks {
            c.remaining_ms[loser.index()] = 0;
        }
        self.game.declare(outcome);
        self.changed();
        Ok(true)
    }

    /// An aborted game in words.
    fn aborted_text(&self) -> String {
        format!(
            "the game was aborted: {} did not make a first move in time",
            side_name(self.game.turn())
        )
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    /// Refuses unless the game goes on and `side` is to move.
    fn expect_turn(&self, side: Side, action: &str) -> Result<(), ApiError> {
        if self.aborted {
            return Err(ApiError::conflict("game_over", self.aborted_text()));
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::conflict(
                "game_over",
                format!("the game is over: {}", outcome.in_words()),
            ));
        }
        if self.game.turn() != side {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!(
                    "only the player to move can {action}, and it is {}'s move",
                    side_name(self.game.turn())
                ),
            ));
        }
        Ok(())
    }

    /// `side` plays a move.
    pub fn play(
        &mut self,
        side: Side,
        request: &MoveRequest,
        store: &dyn Store,
    ) -> Result<MoveTexts, ApiError> {
        self.check_flag(store)?;
        self.expect_turn(side, "move")?;
        if self.engine_thinks() {
            return Err(ApiError::conflict(
                "not_your_turn",
                "the engine is thinking",
            ));
        }
        if let Some(ply) = request.ply {
            if ply != self.played.len() {
                return Err(ApiError::conflict(
                    "stale",
                    format!(
                        "the move was meant for ply {ply}, but {} moves have been played; \
                         reload the game",
                        self.played.len()
                    ),
                ));
            }
        }
        let texts = self.play_text(&request.text, request.notation)?;
        let time_ms = self.elapsed_ms();
        self.commit_move(side, texts.clone(), time_ms, store)?;
        Ok(texts)
    }

    /// Plays `text` in `notation`, or in the first notation of the game that reads it.
    fn play_text(
        &mut self,
        text: &str,
        notation: Option<MoveNotation>,
    ) -> Result<MoveTexts, ApiError> {
        let text = text.trim();
        let notations: Vec<MoveNotation> = match notation {
            Some(n) => vec![n],
            None => std::iter::once(MoveNotation::Uci)
                .chain(self.game.notations().iter().copied())
                .collect(),
        };
        let mut first_error = None;
        for n in notations {
            match self.game.play_text(text, n) {
                Ok(texts) => return Ok(texts),
                Err(e) => {
                    // An error about the move itself (not about its spelling) decides.
                    if matches!(e, MoveError::Illegal { .. } | MoveError::GameOver { .. }) {
                        return Err(move_error(text, e));
                    }
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(move_error(
            text,
            first_error.unwrap_or_else(|| MoveError::illegal("no notation reads it")),
        ))
    }

    /// Writes the move just played to the store (with the result it brings), or takes it
    /// back when the store fails.
    fn commit_move(
        &mut self,
        side: Side,
        texts: MoveTexts,
        time_ms: u64,
        store: &dyn Store,
    ) -> Result<(), ApiError> {
        let ply = self.played.len();
        let result = self.game.outcome().map(stored_result);
        let mv = StoredMove {
            uci: texts.get("uci").cloned().unwrap_or_default(),
            time_ms,
        };
        // A move answers the other side's draw offer (no); the mover's own offer stands.
        let draw_offer = match self.draw_offer {
            Some(offer) if offer == side && result.is_none() => Some(offer),
            _ => None,
        };
        let standing = Standing { result, draw_offer };
        if let Err(e) = store.push_move(&self.record.id, self.record.version, ply, &mv, &standing) {
            self.game.undo();
            return Err(e.into());
        }
        self.stored(&standing);
        self.record.moves.push(mv);
        self.played.push(Played { texts, time_ms });
        if let (Some(c), Some(tc), true) =
            (&mut self.clocks, self.record.clock, ply >= UNTIMED_PLIES)
        {
            c.remaining_ms[side.index()] += tc.increment_ms as i64 - time_ms as i64;
        }
        self.turn_since = Instant::now();
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side, store: &dyn Store) -> Result<(), ApiError> {
        self.check_flag(store)?;
        self.expect_turn(side, "resign")?;
        self.declare(Outcome::win(Status::Resignation, !side), store)
    }

    fn declare(&mut self, outcome: Outcome, store: &dyn Store) -> Result<(), ApiError> {
        self.write_standing(
            store,
            &Standing {
                result: Some(stored_result(outcome)),
                draw_offer: None,
            },
        )?;
        // The clock that ran until now stops where it is (not where the turn began).
        let elapsed = self.elapsed_ms() as i64;
        let turn = self.game.turn();
        let runs = self.clock_runs();
        if let (Some(c), true) = (&mut self.clocks, runs) {
            c.remaining_ms[turn.index()] -= elapsed;
        }
        self.game.declare(outcome);
        self.changed();
        Ok(())
    }

    /// `side` offers a draw (on its move), or answers the other side's offer.
    pub fn draw(
        &mut self,
        side: Side,
        action: DrawAction,
        store: &dyn Store,
    ) -> Result<(), ApiError> {
        self.check_flag(store)?;
        match action {
            DrawAction::Offer => {
                self.expect_turn(side, "offer a draw")?;
                if self.draw_offer == Some(side) {
                    return Err(ApiError::conflict(
                        "draw_offered",
                        "you have offered a draw already",
                    ));
                }
                if self.engine_side() == Some(!side) {
                    // The engine takes a draw only when it judges itself clearly worse.
                    if self.engine_score.is_some_and(|cp| cp <= -150) {
                        return self.declare(Outcome::draw(Status::Agreement), store);
                    }
                    self.notice = Some("the engine declines the draw".into());
                    self.changed();
                    return Ok(());
                }
                self.write_standing(
                    store,
                    &Standing {
                        result: None,
                        draw_offer: Some(side),
                    },
                )?;
                self.notice = None;
                self.changed();
                Ok(())
            }
            DrawAction::Accept | DrawAction::Decline => {
                if self.is_over() {
                    return self.expect_turn(side, "answer a draw offer");
                }
                if self.draw_offer != Some(!side) {
                    return Err(ApiError::conflict(
                        "no_draw_offer",
                        "there is no draw offer from the other player to answer",
                    ));
                }
                if action == DrawAction::Accept {
                    return self.declare(Outcome::draw(Status::Agreement), store);
                }
                self.write_standing(store, &Standing::default())?;
                self.notice = Some(declined_text(side));
                self.changed();
                Ok(())
            }
        }
    }

    /// `side` takes back its last move against the engine (and the engine's reply).
    pub fn take_back(&mut self, side: Side, store: &dyn Store) -> Result<(), ApiError> {
        if self.aborted {
            return Err(ApiError::conflict("game_over", self.aborted_text()));
        }
        if self.engine_side() != Some(!side) {
            return Err(ApiError::conflict(
                "no_takeback",
                "moves can be taken back only in a game against the engine",
            ));
        }
        if self.engine_thinks() {
            return Err(ApiError::conflict(
                "engine_thinking",
                "the engine is thinking; take back after its move",
            ));
        }
        // Back to the last position where `side` was to move before it moved.
        let first = self.first_mover();
        let mover = |ply: usize| if ply % 2 == 0 { first } else { !first };
        let Some(last_own) = (0..self.played.len()).rev().find(|&p| mover(p) == side) else {
            return Err(ApiError::conflict(
                "no_takeback",
                "you have no move to take back",
            ));
        };
        // A resignation or draw is taken back with the move.
        let standing = Standing::default();
        store.truncate(&self.record.id, self.record.version, last_own, &standing)?;
        self.stored(&standing);
        while self.played.len() > last_own {
            self.game.undo();
            self.played.pop();
            self.record.moves.pop();
        }
        self.notice = None;
        self.reset_clocks();
        self.turn_since = Instant::now();
        self.changed();
        Ok(())
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
    ) -> Result<(), ApiError> {
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
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "engine", e.to_string())
        })?;
        let time_ms = self.elapsed_ms();
        self.commit_move(side, texts, time_ms, store)
    }
}

/// A draw offer's verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the other side's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// A refused move as an API error: 400 when it cannot be read, 422 when it breaks the rules,
/// 409 when the game is over.
fn move_error(text: &str, e: MoveError) -> ApiError {
    let quoted = chuhe::quote_input(text);
    match e {
        MoveError::GameOver { outcome } => ApiError::conflict(
            "game_over",
            format!("the game is over: {}", outcome.in_words()),
        ),
        MoveError::Syntax { .. }
        | MoveError::UnknownSquare { .. }
        | MoveError::UnsupportedNotation { .. } => {
            ApiError::bad_request(format!("cannot read the move '{quoted}': {e}"))
        }
        _ => ApiError::unprocessable("illegal_move", format!("'{quoted}' cannot be played: {e}")),
    }
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The state of a game as a client sees it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// `xiongqi`, `xiangqi`, `xiangqi-capture`.
    pub game: &'static str,
    /// `engine` or `friend`.
    pub opponent: &'static str,
    /// The engine's level and side, in a game against it.
    pub engine: Option<EngineView>,
    /// The viewer's side, when the request carries a player's token.
    pub you: Option<&'static str>,
    /// The link that lets the other player join (for the game's creator, in a game between
    /// friends).
    pub invite: Option<String>,
    /// The link for spectators.
    pub watch: String,
    /// The start position (FEEN).
    pub start: String,
    /// The current position (FEEN).
    pub feen: String,
    /// The current position as FEN (Xiangqi).
    pub fen: Option<String>,
    /// `first` or `second`.
    pub turn: &'static str,
    /// Moves played.
    pub ply: usize,
    /// Is the side to move in check?
    pub check: bool,
    /// The moves played.
    pub moves: Vec<MoveView>,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// The clocks.
    pub clock: Option<ClockView>,
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<&'static str>,
    /// Is the engine thinking?
    pub thinking: bool,
    /// The last event not visible in the state (a declined draw offer).
    pub notice: Option<String>,
    /// Counts up with every change.
    pub version: u64,
}

/// The engine's part in a game.
#[derive(Clone, Debug, Serialize)]
pub struct EngineView {
    /// Strength, 0–20.
    pub level: u8,
    /// The side it plays.
    pub side: &'static str,
}

/// A move played.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Its number, from 1.
    pub ply: usize,
    /// In every notation of the game (`uci`, `pmn`, `wxf`, …).
    pub text: MoveTexts,
    /// Milliseconds its player took.
    pub time_ms: u64,
}

/// A legal move with its squares, for a board that is clicked.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// Coordinates, as sent back to play it.
    pub uci: String,
    /// Origin square.
    pub from: String,
    /// Destination square.
    pub to: String,
    /// In PMN (the promotion choice shows here).
    pub pmn: String,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// The CGSN status, or `aborted` (see [`ABORTED`]).
    pub status: &'static str,
    /// `first`, `second` or `none`.
    pub winner: &'static str,
    /// The repetition rule that decided it.
    pub reason: Option<&'static str>,
    /// In words.
    pub text: String,
}

/// The clocks, as of the moment the state was sent.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Milliseconds at the start.
    pub initial_ms: u64,
    /// Milliseconds added per move.
    pub increment_ms: u64,
    /// Milliseconds left for first and second.
    pub remaining_ms: [i64; 2],
    /// The side whose clock runs, if any (none before each side has made its first move:
    /// a side's clock starts with its first move).
    pub running: Option<&'static str>,
    /// Before each side has made its first move: the milliseconds the side to move has left
    /// to make it before the game is aborted.
    pub first_move_ms: Option<i64>,
}

/// Splits coordinates `e3e4`, `b10b3`, `e7e8e` into origin and destination.
fn squares_of(uci: &str) -> (String, String) {
    let bytes = uci.as_bytes();
    let mut i = 0;
    let mut parts = Vec::new();
    while i < bytes.len() && parts.len() < 2 {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            break;
        }
        parts.push(uci[start..i].to_string());
    }
    let to = parts.pop().unwrap_or_default();
    let from = parts.pop().unwrap_or_default();
    (from, to)
}

impl LiveGame {
    /// The state as `viewer` sees it (`None`: a spectator).
    pub fn view(&self, viewer: Option<Side>) -> GameView {
        let game = self.game.as_ref();
        let over = game.outcome();
        let legal = if self.is_over() {
            Vec::new()
        } else {
            game.legal_moves_in(&[MoveNotation::Uci, MoveNotation::Pmn])
                .unwrap_or_default()
                .into_iter()
                .map(|texts| {
                    let [uci, pmn]: [String; 2] = texts.try_into().unwrap_or_default();
                    let (from, to) = squares_of(&uci);
                    LegalMove { uci, from, to, pmn }
                })
                .collect()
        };
        let id = &self.record.id;
        let invite = match (self.record.opponent, viewer) {
            (Opponent::Friend, Some(side)) if side == self.record.creator => Some(format!(
                "/g/{id}?token={}",
                self.record.tokens[(!side).index()]
            )),
            _ => None,
        };
        let clock = self.record.clock.zip(self.clocks).map(|(tc, c)| {
            let mut remaining_ms = c.remaining_ms;
            let running = self.clock_runs().then(|| game.turn());
            if let Some(side) = running {
                remaining_ms[side.index()] -= self.elapsed_ms() as i64;
            }
            let first_move_ms = (!self.is_over() && self.played.len() < UNTIMED_PLIES)
                .then(|| (self.abort_after.as_millis() as i64 - self.elapsed_ms() as i64).max(0));
            ClockView {
                initial_ms: tc.initial_ms,
                increment_ms: tc.increment_ms,
                remaining_ms,
                running: running.map(Side::as_str),
                first_move_ms,
            }
        });
        GameView {
            id: id.clone(),
            game: game.kind().name(),
            opponent: match self.record.opponent {
                Opponent::Engine { .. } => "engine",
                Opponent::Friend => "friend",
            },
            engine: match self.record.opponent {
                Opponent::Engine { level, side } => Some(EngineView {
                    level,
                    side: side.as_str(),
                }),
                Opponent::Friend => None,
            },
            you: viewer.map(Side::as_str),
            invite,
            watch: format!("/g/{id}"),
            start: game.start_feen(),
            feen: game.to_feen(),
            fen: game.to_text(chuhe::PositionFormat::Fen).ok(),
            turn: game.turn().as_str(),
            ply: self.played.len(),
            check: game.is_check(),
            moves: self
                .played
                .iter()
                .enumerate()
                .map(|(i, p)| MoveView {
                    ply: i + 1,
                    text: p.texts.clone(),
                    time_ms: p.time_ms,
                })
                .collect(),
            legal,
            result: if self.aborted {
                Some(ResultView {
                    status: ABORTED,
                    winner: "none",
                    reason: None,
                    text: self.aborted_text(),
                })
            } else {
                over.map(|o| ResultView {
                    status: o.status.as_str(),
                    winner: o.winner_str(),
                    reason: o.reason.map(|r| r.as_str()),
                    text: o.in_words(),
                })
            },
            clock,
            draw_offer: self.draw_offer.map(Side::as_str),
            thinking: self.engine_thinks(),
            notice: self.notice.clone(),
            version: self.version,
        }
    }
}

/// The position `game` started from as text that keeps its counters: a FEN where the game has
/// one (its half-move clock and move number), else a FEEN (which holds none, X8).
pub(crate) fn start_with_counters(game: &dyn AnyGame) -> String {
    game.start_text(PositionFormat::Fen)
        .unwrap_or_else(|_| game.start_feen())
}
