//! The analysis board's server side: a position opened from a request (game, start, moves)
//! and checked by the rules core ([`open`]), the board as the page draws it
//! ([`PositionView`], `POST /api/analysis/position`), and analyses streamed to pages over a
//! WebSocket ([`Analysis`], a [`Task`] of the engine pool; [`Analyses`], the limits per
//! client address and on the queue).
//!
//! An analysis searches at full strength, with MultiPV 1–5, for at most
//! [`AnalysisOptions::seconds`] of search in all and to [`AnalysisOptions::depth`]. It runs on
//! the pool shared with the engine players, whose moves go first: stopped for one, it is
//! told `paused`, queued again and resumes, sending no line shallower than one it sent.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chuhe::{AnyGame, GameKind, MoveError, MoveNotation, MoveTexts, SetupError, SvgOptions};
use chuhe_engine::{Engine, Limits, Score, ScoreBound, SearchInfo};
use serde::Serialize;
use serde_json::{json, Value};

use crate::engines::{supervise, EnginePool, Ran, Task, Turn, Yield};
use crate::round::view::{legal_moves, LegalMove, MoveView, ResultView};

/// The most moves a request may play from its start position.
pub const MAX_MOVES: usize = 2000;

/// The longest position text accepted.
pub const MAX_POSITION_CHARS: usize = 500;

/// The longest move text accepted.
pub const MAX_MOVE_CHARS: usize = 16;

/// The most lines an analysis may ask for.
pub const MAX_MULTIPV: usize = 5;

/// The seconds a client is asked to wait when the analysis is refused as busy.
pub const BUSY_RETRY_AFTER: u64 = 5;

/// Why a position or an analysis was refused. Nothing was searched.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The game's name is none of the games.
    #[error("unknown game '{0}' (xiongqi, xiangqi, xiangqi-capture, or a game the server was started with --rules for)")]
    BadGame(String),
    /// The position is not one of the game's (the rules core's typed error).
    #[error("invalid position: {0}")]
    BadPosition(SetupError),
    /// A move of the list cannot be played where it stands.
    #[error("move {index} ('{text}'): {error}")]
    BadMove {
        /// 1-based index in the list.
        index: usize,
        /// The move as sent (cut short).
        text: String,
        /// Why (the rules core's typed error).
        error: MoveError,
    },
    /// The request is too large, or a value out of range.
    #[error("{0}")]
    BadRequest(String),
    /// Too many analyses: this client's searching pages, or the pool's queue.
    #[error("{}", match scope {
        BusyScope::Address => format!("this address has {limit} analyses running already; stop one or try again shortly"),
        BusyScope::Queue => format!("{limit} analyses are waiting for the engine already; try again shortly"),
    })]
    Busy {
        /// Which bound.
        scope: BusyScope,
        /// The bound.
        limit: usize,
    },
}

/// Which bound refused an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusyScope {
    /// The client address's searching pages ([`AnalysisOptions::per_address`]).
    Address,
    /// The pool's queue ([`AnalysisOptions::queue`]).
    Queue,
}

impl BusyScope {
    /// `address` or `queue`.
    pub fn as_str(self) -> &'static str {
        match self {
            BusyScope::Address => "address",
            BusyScope::Queue => "queue",
        }
    }
}

/// A position opened from a request: the game with the moves played, and each move in every
/// notation of the game.
pub struct Opened {
    /// The game, at the position after the moves.
    pub game: Box<dyn AnyGame>,
    /// The moves played, in every notation.
    pub texts: Vec<MoveTexts>,
}

impl Opened {
    /// The start as the engine reads it with its counters (a FEN where the game has one).
    pub fn start_text(&self) -> String {
        crate::round::start_with_counters(self.game.as_ref())
    }
}

/// Opens `position` (`start`, a FEEN, or a FEN for Xiangqi) of `game` and plays `moves` (in
/// coordinates, as [`LegalMove::uci`]), every one checked by the rules core; bounded sizes
/// ([`MAX_MOVES`], [`MAX_POSITION_CHARS`]).
pub fn open(game: &str, position: &str, moves: &[String]) -> Result<Opened, AnalysisError> {
    open_in(&crate::kinds::Kinds::default(), game, position, moves)
}

/// [`open`] among the games `kinds` offers (the native ones and the server's `--rules`).
pub fn open_in(
    kinds: &crate::kinds::Kinds,
    game: &str,
    position: &str,
    moves: &[String],
) -> Result<Opened, AnalysisError> {
    let kind: GameKind = kinds
        .find(game)
        .ok_or_else(|| AnalysisError::BadGame(chuhe::quote_input(game).into_owned()))?;
    if position.chars().count() > MAX_POSITION_CHARS {
        return Err(AnalysisError::BadRequest(format!(
            "the position is longer than {MAX_POSITION_CHARS} characters"
        )));
    }
    if moves.len() > MAX_MOVES {
        return Err(AnalysisError::BadRequest(format!(
            "{} moves: at most {MAX_MOVES} are analysed",
            moves.len()
        )));
    }
    let position = match position.trim() {
        "" => "start",
        p => p,
    };
    let mut opened = kind
        .new_game(position)
        .map_err(AnalysisError::BadPosition)?;
    let mut texts = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let bad = |error| AnalysisError::BadMove {
            index: i + 1,
            text: chuhe::quote_input(text).into_owned(),
            error,
        };
        if text.chars().count() > MAX_MOVE_CHARS {
            return Err(bad(MoveError::Syntax {
                text: chuhe::quote_input(text).into_owned(),
                reason: format!("longer than {MAX_MOVE_CHARS} characters"),
            }));
        }
        texts.push(opened.play_text(text, MoveNotation::Uci).map_err(bad)?);
    }
    Ok(Opened {
        game: opened,
        texts,
    })
}

/// A position as the analysis board shows it: the answer of `POST /api/analysis/position`.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    /// `xiongqi`, `xiangqi`, `xiangqi-capture`.
    pub game: &'static str,
    /// The start position (FEEN).
    pub start: String,
    /// The position after the moves (FEEN).
    pub feen: String,
    /// The same as FEN (Xiangqi), else `None`.
    pub fen: Option<String>,
    /// The side to move: `first` or `second`.
    pub turn: &'static str,
    /// Moves played.
    pub ply: usize,
    /// Is the side to move in check?
    pub check: bool,
    /// The moves played, in every notation, with coordinates.
    pub moves: Vec<MoveView>,
    /// The legal moves (none when the position is over).
    pub legal: Vec<LegalMove>,
    /// The result, when the rules end the game here.
    pub result: Option<ResultView>,
    /// The board, drawn by the library (last move marked, a target on every square).
    pub svg: String,
}

impl PositionView {
    /// The view of `opened`, the board drawn with `glyphs` and turned when `flip`.
    pub fn of(opened: &Opened, flip: bool, glyphs: chuhe::Glyphs) -> PositionView {
        let game = opened.game.as_ref();
        let options = SvgOptions {
            glyphs,
            flipped: flip,
            size: None,
            last_move: true,
            arrows: Vec::new(),
            square_targets: true,
        };
        let outcome = game.outcome();
        PositionView {
            game: game.kind().name(),
            start: game.start_feen(),
            feen: game.to_feen(),
            fen: game.to_text(chuhe::PositionFormat::Fen).ok(),
            turn: game.turn().as_str(),
            ply: game.plies(),
            check: game.is_check(),
            moves: opened
                .texts
                .iter()
                .enumerate()
                .map(|(i, t)| MoveView::new(i + 1, t.clone(), None))
                .collect(),
            legal: if outcome.is_some() {
                Vec::new()
            } else {
                legal_moves(game)
            },
            result: outcome.map(|o| ResultView::of(game.kind(), &o)),
            svg: game.board_svg(&options).unwrap_or_default(),
        }
    }
}

/// A score as the API writes it: `{"cp": 35}` or `{"mate": -3}`, from the side to move.
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(v) => json!({ "cp": v }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// A line of moves from the engine's position (coordinates) in every notation of its game.
pub fn line_json(engine: &Engine, pv: &[String]) -> Value {
    let lines: serde_json::Map<String, Value> = engine
        .game()
        .notations()
        .iter()
        .map(|&n| (n.name().to_string(), json!(engine.line_in(pv, n))))
        .collect();
    Value::Object(lines)
}

/// Settings of the analysis.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisOptions {
    /// Search time an analysis may use in all (its slices added up).
    pub seconds: Duration,
    /// The deepest iteration searched.
    pub depth: u32,
    /// Searching pages per client address.
    pub per_address: usize,
    /// Tasks that may wait in the pool's queue.
    pub queue: usize,
}

/// What `chuhe serve` allows by default.
impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            seconds: Duration::from_secs(30),
            depth: 40,
            per_address: 4,
            queue: 256,
        }
    }
}

/// Why an analysis ended: `limit` (its time or depth), `stopped` (its page asked, or asked
/// for another), `over` (the position is finished: no search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoneReason {
    /// The search reached its time or depth.
    Limit,
    /// Its page stopped it (or asked for another position).
    Stopped,
    /// The position is finished; nothing to search.
    Over,
}

impl DoneReason {
    /// `limit`, `stopped` or `over`.
    pub fn as_str(self) -> &'static str {
        match self {
            DoneReason::Limit => "limit",
            DoneReason::Stopped => "stopped",
            DoneReason::Over => "over",
        }
    }
}

/// A message for an analysis's page, and whether it is the analysis's last.
pub struct Outgoing {
    /// The JSON message (`queued`, `line`, `paused`, `done`, `error`).
    pub message: Value,
    /// The analysis is over (`done` or `error`).
    pub last: bool,
}

/// Where an analysis sends its messages (a page's socket): never blocks.
pub type Sink = Box<dyn Fn(Outgoing) + Send + Sync>;

/// The `done` message of analysis `id`.
pub fn done_message(id: u64, reason: DoneReason) -> Value {
    json!({"type": "done", "id": id, "reason": reason.as_str()})
}

#[derive(Default)]
struct Progress {
    /// Search time used in earlier slices.
    spent: Duration,
    /// Nodes searched in earlier slices.
    nodes: u64,
    /// The deepest line sent.
    depth: u32,
}

/// One page's analysis of one position, run by the pool a slice at a time.
pub struct Analysis {
    id: u64,
    kind: GameKind,
    start: String,
    moves: Vec<String>,
    multipv: usize,
    options: AnalysisOptions,
    sink: Sink,
    cancel: AtomicBool,
    progress: Mutex<Progress>,
}

impl Analysis {
    /// The analysis `id` (the page's number for it) of `opened`'s position with `multipv`
    /// lines, sending its messages to `sink`.
    pub fn new(
        id: u64,
        opened: &Opened,
        multipv: usize,
        options: AnalysisOptions,
        sink: Sink,
    ) -> Analysis {
        Analysis {
            id,
            kind: opened.game.kind(),
            start: opened.start_text(),
            moves: opened.game.moves_uci(),
            multipv: multipv.clamp(1, MAX_MULTIPV),
            options,
            sink,
            cancel: AtomicBool::new(false),
            progress: Mutex::new(Progress::default()),
        }
    }

    /// Stops it: dropped from the queue, its search stopped; it sends nothing more.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn send(&self, message: Value, last: bool) {
        if !self.cancelled() {
            (self.sink)(Outgoing { message, last });
        }
    }

    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends a line of the search, unless shallower than a line sent before.
    fn line(&self, engine: &Engine, info: &SearchInfo) {
        let (spent, nodes) = {
            let mut p = self.progress();
            if info.depth < p.depth {
                return;
            }
            p.depth = info.depth;
            (p.spent, p.nodes)
        };
        let (win, draw, loss) = engine.wdl(info.score);
        let message = json!({
            "type": "line",
            "id": self.id,
            "depth": info.depth,
            "seldepth": info.seldepth,
            "multipv": info.multipv,
            "score": score_json(info.score),
            "wdl": {"win": win, "draw": draw, "loss": loss},
            "bound": match info.bound {
                None => Value::Null,
                Some(ScoreBound::Lower) => json!("lower"),
                Some(ScoreBound::Upper) => json!("upper"),
            },
            "nodes": nodes + info.nodes,
            "nps": info.nps,
            "ms": (spent + info.time).as_millis() as u64,
            "pv": line_json(engine, &info.pv),
        });
        self.send(message, false);
    }

    fn done(&self, reason: DoneReason) -> Ran {
        self.send(done_message(self.id, reason), true);
        Ran::Finished
    }

    /// The engine set for this analysis: full strength, its lines, one thread, its position.
    fn prepare(&self, engine: &mut Engine) -> Result<(), chuhe_engine::EngineError> {
        engine.new_game()?;
        engine.set_level(usize::from(chuhe_engine::MAX_LEVEL))?;
        engine.set_multipv(self.multipv)?;
        engine.set_threads(1)?;
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        engine.set_position(&self.start, &moves)
    }
}

impl Task for Analysis {
    fn kind(&self) -> GameKind {
        self.kind
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    fn queued(&self, ahead: usize) {
        self.send(
            json!({"type": "queued", "id": self.id, "ahead": ahead}),
            false,
        );
    }

    fn paused(&self) {
        self.send(json!({"type": "paused", "id": self.id}), false);
    }

    fn run(&self, engine: &mut Engine, fresh: bool, turn: &Turn<'_>) -> Ran {
        if self.cancelled() {
            return Ran::Finished;
        }
        if fresh {
            if let Err(e) = self.prepare(engine) {
                let error = crate::ApiError::new(
                    axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    format!("the engine refused the position: {e}"),
                );
                self.send(
                    json!({"type": "error", "id": self.id, "error": error.body()}),
                    true,
                );
                return Ran::Finished;
            }
        }
        let left = self.options.seconds.saturating_sub(self.progress().spent);
        if left.is_zero() {
            return self.done(DoneReason::Limit);
        }
        let mut why = None;
        let searched = supervise(
            engine,
            Limits::depth(self.options.depth),
            |engine, info| self.line(engine, info),
            || {
                if self.cancelled() || turn.elapsed() >= left {
                    return true;
                }
                why = turn.should_yield();
                why.is_some()
            },
        );
        {
            let mut p = self.progress();
            p.spent += turn.elapsed();
            if let Ok((best, _)) = &searched {
                p.nodes += best.nodes;
            }
        }
        match (searched, why) {
            _ if self.cancelled() => Ran::Finished,
            (Ok((_, true)), Some(y @ (Yield::Preempted | Yield::SliceOver))) => Ran::Yielded(y),
            _ => self.done(DoneReason::Limit),
        }
    }
}

/// A client address's searching page, counted while it lives.
pub struct AddressSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    client: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.client);
            }
        }
    }
}

/// The analyses of a server: their settings, the pages searching per client address, the
/// pool they run on.
pub struct Analyses {
    pool: Arc<EnginePool>,
    options: AnalysisOptions,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Analyses {
    /// The analyses on `pool`.
    pub fn new(pool: Arc<EnginePool>, options: AnalysisOptions) -> Analyses {
        Analyses {
            pool,
            options,
            counts: Arc::default(),
        }
    }

    /// The settings.
    pub fn options(&self) -> AnalysisOptions {
        self.options
    }

    /// The pool.
    pub fn pool(&self) -> &Arc<EnginePool> {
        &self.pool
    }

    /// Counts a searching page of `client`, or refuses it when the address has
    /// [`AnalysisOptions::per_address`] already.
    pub fn admit(&self, client: IpAddr) -> Result<AddressSlot, AnalysisError> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = counts.entry(client).or_insert(0);
        if *n >= self.options.per_address {
            return Err(AnalysisError::Busy {
                scope: BusyScope::Address,
                limit: self.options.per_address,
            });
        }
        *n += 1;
        Ok(AddressSlot {
            counts: self.counts.clone(),
            client,
        })
    }

    /// Queues `analysis` on the pool: its ticket, or a refusal when the queue is full.
    pub fn start(&self, analysis: Arc<Analysis>) -> Result<u64, AnalysisError> {
        self.pool
            .enqueue(analysis, self.options.queue)
            .map_err(|_| AnalysisError::Busy {
                scope: BusyScope::Queue,
                limit: self.options.queue,
            })
    }

    /// Stops `analysis` (queued under `ticket`): out of the queue, its search stopped.
    pub fn stop(&self, analysis: &Analysis, ticket: u64) {
        analysis.cancel();
        self.pool.withdraw(ticket);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_open_with_every_move_checked() {
        let opened = open("xiangqi", "start", &["h3e3".into(), "h10g8".into()]).unwrap();
        assert_eq!(opened.game.plies(), 2);
        assert_eq!(opened.texts[0]["wxf"], "C2=5");
        assert!(matches!(
            open("chess", "start", &[]),
            Err(AnalysisError::BadGame(_))
        ));
        assert!(matches!(
            open("xiangqi", "nonsense", &[]),
            Err(AnalysisError::BadPosition(_))
        ));
        match open("xiangqi", "start", &["h3e3".into(), "h3e3".into()]) {
            Err(AnalysisError::BadMove { index: 2, .. }) => {}
            other => panic!("{:?}", other.err()),
        }
        assert!(matches!(
            open("xiongqi", &"x".repeat(501), &[]),
            Err(AnalysisError::BadRequest(_))
        ));
        let many = vec!["a1a2".to_string(); MAX_MOVES + 1];
        assert!(matches!(
            open("xiongqi", "start", &many),
            Err(AnalysisError::BadRequest(_))
        ));
    }

    #[test]
    fn the_view_of_a_position_has_its_moves_legal_moves_and_board() {
        let opened = open("xiangqi", "", &["h3e3".into()]).unwrap();
        let view = PositionView::of(&opened, true, chuhe::Glyphs::Latin);
        assert_eq!((view.ply, view.turn), (1, "second"));
        assert_eq!(view.moves[0].coords, "h3-e3");
        assert!(view.moves[0].time_ms.is_none());
        let legal = opened.game.legal_moves_text(MoveNotation::Uci).unwrap();
        assert_eq!(view.legal.len(), legal.len());
        assert!(legal.contains(&view.legal[0].uci));
        assert!(view.svg.starts_with("<svg"));
        assert!(view.result.is_none());
        let value = serde_json::to_value(&view).unwrap();
        assert!(value["moves"][0].get("time_ms").is_none());
    }

    #[test]
    fn each_address_has_its_bound() {
        let analyses = Analyses::new(
            Arc::new(EnginePool::new(1)),
            AnalysisOptions {
                per_address: 2,
                ..AnalysisOptions::default()
            },
        );
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = analyses.admit(a).unwrap();
        let _second = analyses.admit(a).unwrap();
        assert!(analyses.admit(a).is_err());
        let _other = analyses.admit(b).unwrap();
        drop(first);
        assert!(analyses.admit(a).is_ok());
    }
}
