//! The review of a finished game: every position of the game evaluated by the engine at a
//! fixed node budget, each move judged by the expected score its player lost, and an accuracy
//! figure per player.
//!
//! **Positions.** The game's start and the position after each move (`plies + 1` of them,
//! each with the game's history, as `chuhe analyze --position START --moves m1…mi --nodes N
//! --json` sees it), each searched with [`ReviewOptions::nodes`] nodes, one thread, a 16 MB
//! table, MultiPV 1, at full strength, on an engine whose table and learnt statistics are
//! cleared first ([`chuhe_engine::Engine::new_game`]): a fixed-node search of one thread is
//! then deterministic, and gives what `chuhe analyze` gives. A position the rules end has no
//! search: no score, no best move.
//!
//! **Expected score.** For each position, the expected score of the first player in permille
//! (0–1000): win + draw/2 from the engine's win/draw/loss model at the position's score
//! ([`chuhe_engine::Engine::wdl`], turned to the first player's view), or for a position the
//! rules end, its result (1000, 500 or 0).
//!
//! **Moves.** A move's *loss* is the expected score (permille) its player had before it minus
//! what they have after it, never below 0. Its class: `best` when it is the engine's best move
//! in the position before; otherwise `blunder` at a loss of 150 or more, `mistake` at 100,
//! `inaccuracy` at 50, else `good`. Its *accuracy* (0–100) is lichess's curve of the win
//! percentage lost Δ (the loss in percentage points, loss / 10):
//! `103.1668 · exp(−0.04354 · Δ) − 3.1669`, clamped to 0–100.
//!
//! **Players.** A player's accuracy is the mean of the arithmetic and the harmonic mean of
//! their moves' accuracies (a move of accuracy 0 makes the harmonic mean 0); with their
//! counts of inaccuracies, mistakes and blunders.
//!
//! **Once, behind several servers.** A review is stored with the game ([`ReviewStore`]): the
//! first server asked claims it and heartbeats while it computes, storing each position as it
//! is evaluated; others read its progress from the store; a review whose heartbeat is stale
//! (its server died) is taken over, from the positions stored. Each position is one task of
//! the engine pool at analysis priority, so games keep moving.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chuhe::{GameKind, Outcome, Side};
use chuhe_engine::{Engine, EngineError, Limits, Score};
use serde::{Deserialize, Serialize};

use crate::engines::{supervise, EnginePool, Ran, Task, Turn};
use crate::round::Round;
use crate::store::{ReviewClaim, Store, StoreError, StoredReview};

/// A score in a review: centipawns or moves to a forced end, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalScore {
    /// Centipawns.
    Cp(i32),
    /// A forced end in this many moves (positive: the side to move wins).
    Mate(i32),
}

impl From<Score> for EvalScore {
    fn from(s: Score) -> EvalScore {
        match s {
            Score::Cp(v) => EvalScore::Cp(v),
            Score::Mate(n) => EvalScore::Mate(n),
        }
    }
}

/// The engine's evaluation of one position of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionEval {
    /// Moves played before it (0: the start).
    pub ply: usize,
    /// The score from the side to move's view; `None` when the rules end the game here.
    pub score: Option<EvalScore>,
    /// The engine's best move (coordinates); `None` when the game is over.
    pub best: Option<String>,
    /// The engine's line (coordinates), the best move first.
    pub pv: Vec<String>,
    /// The depth the search completed (0: no search).
    pub depth: u32,
    /// The first player's expected score in permille (0–1000).
    pub expected: u32,
}

/// A move's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveClass {
    /// The engine's best move.
    Best,
    /// Lost less than 50 permille.
    Good,
    /// Lost 50 permille or more.
    Inaccuracy,
    /// Lost 100 permille or more.
    Mistake,
    /// Lost 150 permille or more.
    Blunder,
}

/// A loss (permille) from which a move is an inaccuracy.
pub const INACCURACY: u32 = 50;
/// A loss from which a move is a mistake.
pub const MISTAKE: u32 = 100;
/// A loss from which a move is a blunder.
pub const BLUNDER: u32 = 150;

/// The class of a move that lost `loss` permille of its player's expected score; `best`: it
/// is the engine's best move.
///
/// ```
/// use chuhe_server::review::{classify, MoveClass};
/// assert_eq!(classify(300, true), MoveClass::Best);
/// assert_eq!(classify(49, false), MoveClass::Good);
/// assert_eq!(classify(50, false), MoveClass::Inaccuracy);
/// assert_eq!(classify(100, false), MoveClass::Mistake);
/// assert_eq!(classify(150, false), MoveClass::Blunder);
/// ```
pub fn classify(loss: u32, best: bool) -> MoveClass {
    match loss {
        _ if best => MoveClass::Best,
        l if l >= BLUNDER => MoveClass::Blunder,
        l if l >= MISTAKE => MoveClass::Mistake,
        l if l >= INACCURACY => MoveClass::Inaccuracy,
        _ => MoveClass::Good,
    }
}

/// The accuracy (0–100) of a move that lost `loss` permille of expected score: lichess's
/// `103.1668 · exp(−0.04354 · Δ) − 3.1669` with Δ the win percentage lost (`loss / 10`),
/// clamped to 0–100.
///
/// ```
/// use chuhe_server::review::move_accuracy;
/// assert!((move_accuracy(0) - 100.0).abs() < 0.001);
/// assert!((move_accuracy(100) - 63.6).abs() < 0.1);
/// assert_eq!(move_accuracy(1000), 0.0);
/// ```
pub fn move_accuracy(loss: u32) -> f64 {
    let delta = f64::from(loss) / 10.0;
    (103.1668 * (-0.04354 * delta).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A player's accuracy from their moves': the mean of the arithmetic and the harmonic mean
/// (0 when a move has accuracy 0); `None` without moves.
///
/// ```
/// use chuhe_server::review::player_accuracy;
/// assert_eq!(player_accuracy(&[]), None);
/// assert_eq!(player_accuracy(&[80.0, 80.0]), Some(80.0));
/// // Arithmetic 50, harmonic 2·100·0/(100+0) = 0.
/// assert_eq!(player_accuracy(&[100.0, 0.0]), Some(25.0));
/// ```
pub fn player_accuracy(accuracies: &[f64]) -> Option<f64> {
    if accuracies.is_empty() {
        return None;
    }
    let n = accuracies.len() as f64;
    let arithmetic = accuracies.iter().sum::<f64>() / n;
    let harmonic = if accuracies.iter().any(|&a| a <= 0.0) {
        0.0
    } else {
        n / accuracies.iter().map(|a| 1.0 / a).sum::<f64>()
    };
    Some((arithmetic + harmonic) / 2.0)
}

/// One decimal, as the review shows figures.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A move as the review judges it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// Its number, from 1.
    pub ply: usize,
    /// Who played it: `first` or `second`.
    pub side: &'static str,
    /// The move (coordinates).
    pub uci: String,
    /// The engine's best move in the position before it.
    pub best: Option<String>,
    /// Permille of expected score its player lost (≥ 0).
    pub loss: u32,
    /// Its class.
    pub class: MoveClass,
    /// Its accuracy, 0–100 (one decimal).
    pub accuracy: f64,
}

/// A player's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerReview {
    /// 0–100 (one decimal); `None` before they have a move judged.
    pub accuracy: Option<f64>,
    /// Moves classed `inaccuracy`.
    pub inaccuracies: usize,
    /// Moves classed `mistake`.
    pub mistakes: usize,
    /// Moves classed `blunder`.
    pub blunders: usize,
}

/// Both players' figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayersReview {
    /// The first player.
    pub first: PlayerReview,
    /// The second player.
    pub second: PlayerReview,
}

/// Judges the moves of a game from the evaluations of its positions (`positions[i]` after
/// `moves[..i]`; those not evaluated yet are missing from the end): every move whose
/// positions before and after are evaluated, and each player's figures. `start_turn`: the
/// side to move at the start (sides alternate).
pub fn judge(
    positions: &[PositionEval],
    moves: &[String],
    start_turn: Side,
) -> (Vec<MoveReview>, PlayersReview) {
    let mut judged = Vec::new();
    let mut accuracies: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut players = PlayersReview::default();
    for (i, pair) in positions.windows(2).enumerate().take(moves.len()) {
        let (before, after) = (&pair[0], &pair[1]);
        let side = if i % 2 == 0 { start_turn } else { !start_turn };
        let mine = |p: &PositionEval| match side {
            Side::First => p.expected,
            Side::Second => 1000 - p.expected.min(1000),
        };
        let loss = mine(before).saturating_sub(mine(after));
        let uci = moves[i].clone();
        let class = classify(loss, before.best.as_deref() == Some(uci.as_str()));
        let accuracy = move_accuracy(loss);
        accuracies[side.index()].push(accuracy);
        let player = match side {
            Side::First => &mut players.first,
            Side::Second => &mut players.second,
        };
        match class {
            MoveClass::Inaccuracy => player.inaccuracies += 1,
            MoveClass::Mistake => player.mistakes += 1,
            MoveClass::Blunder => player.blunders += 1,
            MoveClass::Best | MoveClass::Good => {}
        }
        judged.push(MoveReview {
            ply: i + 1,
            side: side.as_str(),
            uci,
            best: before.best.clone(),
            loss,
            class,
            accuracy: tenths(accuracy),
        });
    }
    players.first.accuracy = player_accuracy(&accuracies[0]).map(tenths);
    players.second.accuracy = player_accuracy(&accuracies[1]).map(tenths);
    (judged, players)
}

/// The first player's expected score (permille) at a position whose side to move is `turn`,
/// from that side's win, draw and loss (permille).
fn expected_for_first(turn: Side, (win, draw, _loss): (u32, u32, u32)) -> u32 {
    let mine = (2 * win + draw).div_ceil(2);
    match turn {
        Side::First => mine.min(1000),
        Side::Second => 1000 - mine.min(1000),
    }
}

/// The first player's expected score at a position the rules end with `outcome`.
fn expected_of_result(outcome: &Outcome) -> u32 {
    match outcome.winner {
        Some(Side::First) => 1000,
        Some(Side::Second) => 0,
        None => 500,
    }
}

/// Evaluates the position after `moves` from `start` on `engine` (of the game's kind) as a
/// review does: a cleared engine at full strength, one thread, one line, a 16 MB table,
/// `nodes` nodes. `stop` is asked every few milliseconds; when it says so the search is
/// stopped and `None` returned (evaluate again later: the result does not depend on it).
pub fn evaluate(
    engine: &mut Engine,
    start: &str,
    moves: &[String],
    nodes: u64,
    stop: impl FnMut() -> bool,
) -> Result<Option<PositionEval>, EngineError> {
    engine.new_game()?;
    engine.set_level(usize::from(chuhe_engine::MAX_LEVEL))?;
    engine.set_multipv(1)?;
    engine.set_threads(1)?;
    if engine.options().hash_mb != REVIEW_HASH_MB {
        engine.set_hash(REVIEW_HASH_MB)?;
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(start, &refs)?;
    let ply = moves.len();
    if let Some(outcome) = engine.outcome() {
        return Ok(Some(PositionEval {
            ply,
            score: None,
            best: None,
            pv: Vec::new(),
            depth: 0,
            expected: expected_of_result(&outcome),
        }));
    }
    let (best, stopped) = supervise(engine, Limits::nodes(nodes), |_, _| {}, stop)?;
    if stopped {
        return Ok(None);
    }
    Ok(Some(PositionEval {
        ply,
        score: Some(best.score.into()),
        expected: expected_for_first(engine.turn(), engine.wdl(best.score)),
        best: best.best,
        pv: best.pv,
        depth: best.depth,
    }))
}

/// The table size of a review's searches (`chuhe analyze`'s default).
pub const REVIEW_HASH_MB: usize = 16;

/// What a review needs of a game.
#[derive(Clone, Debug)]
pub struct ReviewedGame {
    /// The kind of game.
    pub kind: GameKind,
    /// Its start as the engine reads it (a FEN with its counters where the game has one).
    pub start: String,
    /// Its moves (coordinates).
    pub moves: Vec<String>,
    /// The side to move at the start.
    pub start_turn: Side,
    /// Finished (a result), or an imported record.
    pub over: bool,
}

impl ReviewedGame {
    /// The review's view of `round`.
    pub fn of(round: &Round) -> ReviewedGame {
        let game = round.game();
        ReviewedGame {
            kind: game.kind(),
            start: crate::round::start_with_counters(game),
            moves: game.moves_uci(),
            start_turn: game.start_game().turn(),
            over: round.is_over() || round.is_record(),
        }
    }
}

/// A review as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewView {
    /// `running` or `done`.
    pub state: String,
    /// Positions evaluated.
    pub done: usize,
    /// Positions to evaluate.
    pub total: usize,
    /// The node budget per position.
    pub nodes: u64,
    /// The positions evaluated, the start first.
    pub positions: Vec<PositionEval>,
    /// The moves judged (those whose two positions are evaluated).
    pub moves: Vec<MoveReview>,
    /// Each player's figures.
    pub players: PlayersReview,
}

/// The positions of a stored review (an unreadable list is none).
fn positions_of(stored: &StoredReview) -> Vec<PositionEval> {
    serde_json::from_str(&stored.positions).unwrap_or_default()
}

/// The view of `stored`, the review of `game`.
pub fn view(stored: &StoredReview, game: &ReviewedGame) -> ReviewView {
    let positions = positions_of(stored);
    let (moves, players) = judge(&positions, &game.moves, game.start_turn);
    ReviewView {
        state: stored.state.clone(),
        done: positions.len(),
        total: stored.total,
        nodes: stored.nodes,
        positions,
        moves,
        players,
    }
}

/// Settings of the reviews.
#[derive(Clone, Copy, Debug)]
pub struct ReviewOptions {
    /// Nodes searched per position.
    pub nodes: u64,
    /// A review whose server has not beaten its heartbeat for this long is taken over.
    pub stale: Duration,
    /// Tasks that may wait in the pool's queue (a review waits there as one).
    pub queue: usize,
}

/// The node budget of a review's positions by default.
pub const DEFAULT_REVIEW_NODES: u64 = 300_000;

/// How long a review's server may be silent before another takes it over, by default.
pub const DEFAULT_REVIEW_STALE: Duration = Duration::from_secs(30);

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            nodes: DEFAULT_REVIEW_NODES,
            stale: DEFAULT_REVIEW_STALE,
            queue: crate::analysis::AnalysisOptions::default().queue,
        }
    }
}

/// Why a review was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game is being played.
    #[error("the game is not over: it can be reviewed once it has a result")]
    NotOver,
    /// Nobody asked for this game's review.
    #[error("no review of game '{0}' has been asked for")]
    NoReview(String),
    /// The pool's queue is full.
    #[error("{limit} analyses are waiting for the engine already; try again shortly")]
    Busy {
        /// The queue's bound.
        limit: usize,
    },
    /// The database failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// A review being computed on this server: the pool's task for its positions.
struct ReviewTask {
    id: String,
    game: ReviewedGame,
    nodes: u64,
    positions: Mutex<Vec<PositionEval>>,
    store: Arc<dyn Store>,
    holder: String,
    /// The claim is lost (another server took it over) or the pool failed it.
    lost: AtomicBool,
    /// Computed and stored, or given up.
    ended: AtomicBool,
    evaluated: Arc<AtomicUsize>,
}

impl ReviewTask {
    fn end(&self) -> Ran {
        self.ended.store(true, Ordering::Relaxed);
        Ran::Finished
    }

    /// Stores the positions evaluated; false when it should stop (claim lost).
    fn save(&self, positions: &[PositionEval]) -> Result<bool, StoreError> {
        let json = serde_json::to_string(positions)
            .map_err(|e| StoreError::Backend(format!("a review's positions: {e}")))?;
        let total = self.game.moves.len() + 1;
        self.store.save_review(
            &self.id,
            &self.holder,
            positions.len(),
            &json,
            positions.len() >= total,
        )
    }
}

impl Task for ReviewTask {
    fn kind(&self) -> GameKind {
        self.game.kind
    }

    fn cancelled(&self) -> bool {
        self.lost.load(Ordering::Relaxed)
    }

    fn run(&self, engine: &mut Engine, _fresh: bool, turn: &Turn<'_>) -> Ran {
        let total = self.game.moves.len() + 1;
        let next = self
            .positions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len();
        if next < total {
            let mut why = None;
            let evaluated = evaluate(
                engine,
                &self.game.start,
                &self.game.moves[..next],
                self.nodes,
                || {
                    why = turn.should_yield();
                    why.is_some() || self.cancelled()
                },
            );
            match evaluated {
                Ok(Some(p)) => {
                    self.evaluated.fetch_add(1, Ordering::Relaxed);
                    self.positions
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(p);
                }
                Ok(None) if self.cancelled() => return self.end(),
                Ok(None) => return why.map_or(Ran::Finished, Ran::Yielded),
                Err(e) => {
                    eprintln!("chuhe serve: the review of game {}: {e}", self.id);
                    self.lost.store(true, Ordering::Relaxed);
                    return self.end();
                }
            }
        }
        let positions = self
            .positions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        match self.save(&positions) {
            Ok(true) if positions.len() >= total => self.end(),
            Ok(true) => Ran::Yielded(crate::engines::Yield::SliceOver),
            Ok(false) => {
                self.lost.store(true, Ordering::Relaxed);
                self.end()
            }
            Err(e) => {
                // The database is away: the positions stay here, saved with the next one
                // (or tried again after a pause).
                eprintln!("chuhe serve: the review of game {}: {e}", self.id);
                std::thread::sleep(Duration::from_millis(200));
                Ran::Yielded(crate::engines::Yield::SliceOver)
            }
        }
    }
}

/// The reviews of a server: the ones it computes, on the shared pool.
pub struct Reviews {
    store: Arc<dyn Store>,
    pool: Arc<EnginePool>,
    server_id: String,
    options: ReviewOptions,
    running: Mutex<HashMap<String, Arc<ReviewTask>>>,
    evaluated: Arc<AtomicUsize>,
}

impl Reviews {
    /// The reviews of the server `server_id` over `store`, computed on `pool`.
    pub fn new(
        store: Arc<dyn Store>,
        pool: Arc<EnginePool>,
        server_id: String,
        options: ReviewOptions,
    ) -> Reviews {
        Reviews {
            store,
            pool,
            server_id,
            options,
            running: Mutex::new(HashMap::new()),
            evaluated: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The settings.
    pub fn options(&self) -> ReviewOptions {
        self.options
    }

    /// Positions this server has evaluated for reviews.
    pub fn evaluated(&self) -> usize {
        self.evaluated.load(Ordering::Relaxed)
    }

    /// Reviews this server is computing now.
    pub fn computing(&self) -> usize {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running
            .values()
            .filter(|t| !t.ended.load(Ordering::Relaxed))
            .count()
    }

    fn computing_here(&self, id: &str) -> bool {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running
            .get(id)
            .is_some_and(|t| !t.ended.load(Ordering::Relaxed))
    }

    /// Asks for the review of game `id` (blocking: the store): the stored review, done or
    /// running — computed here when this server claims it, or by the server that holds it.
    pub fn request(&self, id: &str, game: &ReviewedGame) -> Result<StoredReview, ReviewError> {
        if !game.over {
            return Err(ReviewError::NotOver);
        }
        if self.computing_here(id) {
            return self
                .store
                .review(id)?
                .ok_or_else(|| ReviewError::NoReview(id.to_string()));
        }
        let total = game.moves.len() + 1;
        let claim = self.store.claim_review(
            id,
            self.options.nodes,
            total,
            &self.server_id,
            self.options.stale,
        )?;
        let stored = match claim {
            ReviewClaim::Done(r) | ReviewClaim::Held(r) => return Ok(r),
            ReviewClaim::Won(r) => r,
        };
        let mut positions = positions_of(&stored);
        positions.truncate(total);
        let task = Arc::new(ReviewTask {
            id: id.to_string(),
            game: game.clone(),
            nodes: stored.nodes,
            positions: Mutex::new(positions),
            store: self.store.clone(),
            holder: self.server_id.clone(),
            lost: AtomicBool::new(false),
            ended: AtomicBool::new(false),
            evaluated: self.evaluated.clone(),
        });
        if self.pool.enqueue(task.clone(), self.options.queue).is_err() {
            let _ = self.store.release_review(id, &self.server_id);
            return Err(ReviewError::Busy {
                limit: self.options.queue,
            });
        }
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.to_string(), task);
        Ok(stored)
    }

    /// The review of game `id` (blocking: the store), if one was asked for; a running review
    /// whose server went silent is taken over here first.
    pub fn get(&self, id: &str, game: &ReviewedGame) -> Result<StoredReview, ReviewError> {
        let stored = self
            .store
            .review(id)?
            .ok_or_else(|| ReviewError::NoReview(id.to_string()))?;
        let stale_ms = self.options.stale.as_millis() as i64;
        let silent = stored.heartbeat_age_ms.map_or(true, |age| age > stale_ms);
        if !stored.is_done() && silent && !self.computing_here(id) {
            return self.request(id, game);
        }
        Ok(stored)
    }

    /// Beats the heartbeat of every review computed here (a lost claim stops its task), and
    /// forgets those that ended.
    pub fn heartbeat(&self) {
        let tasks: Vec<Arc<ReviewTask>> = {
            let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
            running.retain(|_, t| !t.ended.load(Ordering::Relaxed));
            running.values().cloned().collect()
        };
        for task in tasks {
            if let Ok(false) = self.store.heartbeat_review(&task.id, &self.server_id) {
                task.lost.store(true, Ordering::Relaxed);
                task.ended.store(true, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: usize, expected: u32, best: &str) -> PositionEval {
        PositionEval {
            ply,
            score: Some(EvalScore::Cp(0)),
            best: Some(best.to_string()),
            pv: vec![best.to_string()],
            depth: 10,
            expected,
        }
    }

    #[test]
    fn moves_are_judged_by_the_expected_score_their_player_lost() {
        // First plays the best move; second loses 20 % (a blunder); first then gains.
        let positions = [
            at(0, 520, "h3e3"),
            at(1, 530, "h10g8"),
            at(2, 730, "a1a2"),
            at(3, 760, "x"),
        ];
        let moves: Vec<String> = ["h3e3", "c7c6", "b1c3"].map(String::from).to_vec();
        let (judged, players) = judge(&positions, &moves, Side::First);
        assert_eq!(judged.len(), 3);
        assert_eq!(
            (judged[0].side, judged[0].class, judged[0].loss),
            ("first", MoveClass::Best, 0)
        );
        assert_eq!(
            (judged[1].side, judged[1].class, judged[1].loss),
            ("second", MoveClass::Blunder, 200)
        );
        assert_eq!(judged[1].best.as_deref(), Some("h10g8"));
        assert_eq!((judged[2].class, judged[2].loss), (MoveClass::Good, 0));
        assert_eq!(players.second.blunders, 1);
        assert_eq!(players.first.accuracy, Some(100.0));
        // One move of accuracy 103.1668·e^(−0.04354·20) − 3.1669 = 40.0.
        assert_eq!(players.second.accuracy, Some(40.0));
        assert_eq!(judged[1].accuracy, 40.0);
    }

    #[test]
    fn only_moves_whose_positions_are_evaluated_are_judged() {
        let moves: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let (judged, players) = judge(&[at(0, 500, "a"), at(1, 500, "b")], &moves, Side::Second);
        assert_eq!(judged.len(), 1);
        assert_eq!(judged[0].side, "second");
        assert_eq!(players.first.accuracy, None);
        let (none, _) = judge(&[], &moves, Side::First);
        assert!(none.is_empty());
    }

    #[test]
    fn classes_and_accuracy_follow_the_documented_thresholds() {
        for (loss, class) in [
            (0, MoveClass::Good),
            (49, MoveClass::Good),
            (50, MoveClass::Inaccuracy),
            (99, MoveClass::Inaccuracy),
            (100, MoveClass::Mistake),
            (149, MoveClass::Mistake),
            (150, MoveClass::Blunder),
            (1000, MoveClass::Blunder),
        ] {
            assert_eq!(classify(loss, false), class, "{loss}");
        }
        let mut last = 101.0;
        for loss in (0..=1000).step_by(10) {
            let a = move_accuracy(loss);
            assert!((0.0..=100.0).contains(&a));
            assert!(a <= last, "accuracy falls as the loss grows");
            last = a;
        }
    }

    #[test]
    fn expected_scores_are_the_first_players() {
        assert_eq!(expected_for_first(Side::First, (600, 200, 200)), 700);
        assert_eq!(expected_for_first(Side::Second, (600, 200, 200)), 300);
        assert_eq!(expected_for_first(Side::First, (0, 1, 999)), 1);
        let mate = Outcome::new(chuhe::Status::Checkmate, Some(Side::Second));
        assert_eq!(expected_of_result(&mate), 0);
    }
}
