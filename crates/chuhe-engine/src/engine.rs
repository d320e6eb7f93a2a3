//! The engine façade, apart from any protocol: choose a game, set a position (a typed error
//! leaves the previous one), search with limits, receive the lines and the best move
//! through a callback, stop.
//!
//! ```
//! use chuhe_engine::{Engine, Limits};
//! use chuhe::GameKind;
//! let mut engine = Engine::new(GameKind::Xiangqi);
//! engine.set_position("start", &["h3e3", "h10g8"]).unwrap();
//! let best = engine.search(Limits::depth(3)).unwrap();
//! assert!(engine.legal_moves().contains(best.best.as_ref().unwrap()));
//! // A bad move is refused and the position stays as it was.
//! assert!(engine.set_position("start", &["h3h4x"]).is_err());
//! assert_eq!(engine.position_feen(), "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / X/x");
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use chuhe::{
    xiangqi, xiongqi, Game, GameKind, GameOptions, GamePosition, MoveBuffer, MoveError,
    MoveNotation, Outcome, SetupError, Side,
};

use crate::eval::xiangqi_net::{NetworkError, XiangqiNet};
use crate::game::{Networks, SearchGame};
use crate::history::SearchTables;
use crate::limits::{Limits, TimeBudget};
use crate::score::Score;
use crate::search::{LineReport, SearchParams, Searcher, Shared, MAX_PLY};
use crate::tt::Bound;

/// Engine settings (the UCI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB (1–65536).
    pub hash_mb: usize,
    /// Search threads (1–256).
    pub threads: usize,
    /// Lines reported (1–64).
    pub multipv: usize,
    /// Strength from 0 (weakest) to 20 (full strength).
    pub level: u8,
    /// `UCI_LimitStrength`: play at the strength [`Options::elo`] asks for instead of
    /// [`Options::level`].
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for under `limit_strength`, on the scale of
    /// [`LEVEL_ELO`].
    pub elo: u32,
    /// Time kept per move for the communication with the GUI.
    pub move_overhead: Duration,
    /// Evaluate by material alone (a baseline for measuring the evaluation).
    pub material_only: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            level: MAX_LEVEL,
            limit_strength: false,
            elo: ranges::ELO.start().to_owned() as u32,
            move_overhead: Duration::from_millis(10),
            material_only: false,
        }
    }
}

/// Full strength.
pub const MAX_LEVEL: u8 = 20;

/// The Elo of each `Skill Level` (index 0–20) on chuhe's `UCI_Elo` scale: standard Xiangqi
/// at 100 ms a move, where Debian's Fairy-Stockfish 11.1 at the same time is 2500 by
/// convention. Measured by matches between levels two apart and of level 20 against
/// Fairy-Stockfish, 20 games each (`scripts/calibrate-skill`, `docs/STRENGTH.md`, "Skill
/// Level and UCI_Elo"; each step is known to about ±150 Elo); odd levels are interpolated.
pub const LEVEL_ELO: [i32; 21] = [
    241, 432, 623, 774, 924, 1075, 1225, 1333, 1440, 1591, 1741, 1932, 2123, 2231, 2338, 2383,
    2427, 2501, 2574, 2601, 2627,
];

impl Options {
    /// The level the search plays at: [`Options::level`], or under `UCI_LimitStrength` the
    /// highest level whose Elo ([`LEVEL_ELO`]) is at most [`Options::elo`].
    ///
    /// ```
    /// use chuhe_engine::{Options, LEVEL_ELO};
    /// let mut options = Options { level: 7, ..Options::default() };
    /// assert_eq!(options.playing_level(), 7);
    /// options.limit_strength = true;
    /// options.elo = LEVEL_ELO[12] as u32;
    /// assert_eq!(options.playing_level(), 12);
    /// ```
    pub fn playing_level(&self) -> u8 {
        if !self.limit_strength {
            return self.level;
        }
        let elo = i64::from(self.elo);
        LEVEL_ELO
            .iter()
            .rposition(|&e| i64::from(e) <= elo)
            .map_or(0, |level| level as u8)
    }
}

/// The range of each numeric option, as the protocols announce it.
pub mod ranges {
    use std::ops::RangeInclusive;
    /// Transposition table size in MB.
    pub const HASH_MB: RangeInclusive<usize> = 1..=65_536;
    /// Search threads.
    pub const THREADS: RangeInclusive<usize> = 1..=256;
    /// Lines reported.
    pub const MULTIPV: RangeInclusive<usize> = 1..=64;
    /// Strength level.
    pub const LEVEL: RangeInclusive<usize> = 0..=super::MAX_LEVEL as usize;
    /// `UCI_Elo`: from the weakest level's Elo to the strongest's.
    pub const ELO: RangeInclusive<usize> =
        super::LEVEL_ELO[0] as usize..=super::LEVEL_ELO[super::MAX_LEVEL as usize] as usize;
    /// Milliseconds kept per move for communication.
    pub const MOVE_OVERHEAD_MS: RangeInclusive<usize> = 0..=5_000;
}

/// Whether a reported score is exact or a bound (after a failed aspiration window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One line of a search in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, from 1.
    pub multipv: u32,
    /// The score from the side to move's view.
    pub score: Score,
    /// Set when the score is only a bound.
    pub bound: Option<ScoreBound>,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the transposition table written in this search.
    pub hashfull: u32,
    /// The line, in the engine's move notation.
    pub pv: Vec<String>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play (`None` when the game is over).
    pub best: Option<String>,
    /// The expected reply.
    pub ponder: Option<String>,
    /// Its score.
    pub score: Score,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<String>,
}

/// What a running search tells its listener.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// A line (after each iteration, or a bound after a failed aspiration).
    Info(SearchInfo),
    /// The search has ended.
    BestMove(BestMove),
}

/// Why the engine refused a request; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The position text is not a position of the game.
    #[error("invalid position: {0}")]
    Position(#[from] SetupError),
    /// A move of the list is not legal there.
    #[error("move {index} of the list: {error}")]
    Move {
        /// 1-based index in the list.
        index: usize,
        /// What is wrong with it.
        error: MoveError,
    },
    /// A `searchmoves` entry is not a legal move.
    #[error("search move: {0}")]
    SearchMove(MoveError),
    /// An option value out of range or of the wrong kind.
    #[error("option {name}: {message}")]
    Option {
        /// The option.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// The request needs the engine idle, but it is searching.
    #[error("the engine is searching; stop it first")]
    Busy,
    /// A network file was refused; the engine keeps its network.
    #[error(transparent)]
    Network(#[from] NetworkError),
}

type Listener = Box<dyn FnMut(SearchEvent) + Send>;

/// The engine: a game, its position with history, the shared search state and options.
pub struct Engine {
    session: Box<dyn Session>,
    shared: Arc<Shared>,
    /// The networks the searches evaluate with.
    networks: Networks,
    /// The file the Xiangqi network was loaded from (`None`: the embedded one).
    eval_file: Option<PathBuf>,
    options: Options,
    notation: MoveNotation,
    running: Option<JoinHandle<BestMove>>,
}

impl Engine {
    /// An engine for `kind`, at its start position, moves written as coordinates.
    pub fn new(kind: GameKind) -> Engine {
        let options = Options::default();
        Engine {
            session: new_session(kind),
            shared: Arc::new(Shared::new(options.hash_mb)),
            networks: Networks::default(),
            eval_file: None,
            options,
            notation: MoveNotation::Uci,
            running: None,
        }
    }

    /// The game being played.
    pub fn game(&self) -> GameKind {
        self.session.kind()
    }

    /// Switches to another game at its start position (the table is cleared).
    pub fn set_game(&mut self, kind: GameKind) -> Result<(), EngineError> {
        self.idle()?;
        if !kind.notations().contains(&self.notation) {
            self.notation = MoveNotation::Uci;
        }
        self.session = new_session(kind);
        self.shared.tt.clear();
        Ok(())
    }

    /// How moves are read and written (default: coordinates, [`MoveNotation::Uci`]).
    pub fn move_notation(&self) -> MoveNotation {
        self.notation
    }

    /// Reads and writes moves in `notation`, if the game has it.
    pub fn set_move_notation(&mut self, notation: MoveNotation) -> Result<(), EngineError> {
        if !self.game().notations().contains(&notation) {
            return Err(EngineError::Option {
                name: "notation".into(),
                message: format!("{} has no {notation} notation", self.game()),
            });
        }
        self.notation = notation;
        Ok(())
    }

    /// Sets the position: `start` (or `startpos`), a FEEN, or a FEN where the game has one,
    /// then `moves` in the engine's notation. On error the previous position stays.
    pub fn set_position(&mut self, position: &str, moves: &[&str]) -> Result<(), EngineError> {
        self.set_position_with(position, GameOptions::default(), moves)
    }

    /// [`Engine::set_position`] with options for the starting position: its half-move clock
    /// and (Xiangqi) the repetition count.
    pub fn set_position_with(
        &mut self,
        position: &str,
        options: GameOptions,
        moves: &[&str],
    ) -> Result<(), EngineError> {
        self.idle()?;
        let position = match position.trim() {
            "startpos" => "start",
            other => other,
        };
        self.session
            .set_position(position, options, moves, self.notation)
    }

    /// The side to move in the current position.
    pub fn turn(&self) -> Side {
        self.session.turn()
    }

    /// The current position as FEEN.
    pub fn position_feen(&self) -> String {
        self.session.feen()
    }

    /// The moves the engine may answer with in the current position, sorted, in the engine's
    /// notation: the legal moves (history included), and past a result the rules see (a
    /// position sent after a claimable repetition or the move limit) the moves the pieces
    /// can still make ([`chuhe::Game::moves_past_end`]). Empty only when the side to move
    /// has no move at all.
    pub fn legal_moves(&self) -> Vec<String> {
        self.session.legal_moves(self.notation)
    }

    /// The material of the current position as the win/draw/loss model reads it: the pieces
    /// on the board other than the terminal ones ([`crate::wdl::material`]).
    pub fn material(&self) -> u32 {
        self.session.material()
    }

    /// The static evaluation of the current position in centipawns, from the side to move's
    /// point of view, under the loaded network (what the search's leaves start from; the
    /// UCI command `eval` prints it).
    ///
    /// ```
    /// use chuhe_engine::Engine;
    /// use chuhe::GameKind;
    /// let mut engine = Engine::new(GameKind::Xiangqi);
    /// let start = engine.static_evaluation();
    /// engine.set_position("startpos", &["h3e3"]).unwrap();
    /// assert!(engine.static_evaluation() != start);
    /// ```
    pub fn static_evaluation(&self) -> i32 {
        self.session.static_evaluation(&self.networks)
    }

    /// Win, draw and loss in permille (summing to 1000) for the side to move of the current
    /// position at `score`, by the game's fitted model ([`crate::wdl`]): what `UCI_ShowWDL`
    /// prints.
    ///
    /// ```
    /// use chuhe_engine::{Engine, Score};
    /// use chuhe::GameKind;
    /// let engine = Engine::new(GameKind::Xiangqi);
    /// let (w, d, l) = engine.wdl(Score::Cp(300));
    /// assert_eq!(w + d + l, 1000);
    /// assert!(w > l);
    /// ```
    pub fn wdl(&self, score: Score) -> (u32, u32, u32) {
        crate::wdl::wdl(self.game(), score, self.material())
    }

    /// The result the rules see, if the game is over at the current position (the engine
    /// still searches such a position while [`Engine::legal_moves`] has a move).
    pub fn outcome(&self) -> Option<Outcome> {
        self.session.outcome()
    }

    /// Writes a line of moves from the current position in another notation (moves that do
    /// not follow are left out).
    pub fn line_in(&self, line: &[String], notation: MoveNotation) -> Vec<String> {
        self.session.line_in(line, self.notation, notation)
    }

    /// A new game: forgets the table and what the search learnt (its move-ordering and
    /// correction statistics).
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.idle()?;
        self.shared.tt.clear();
        self.session.forget();
        Ok(())
    }

    /// The networks the searches evaluate with.
    pub fn networks(&self) -> &Networks {
        &self.networks
    }

    /// The file the Xiangqi network was loaded from, `None` for the embedded network.
    pub fn eval_file(&self) -> Option<&Path> {
        self.eval_file.as_deref()
    }

    /// Loads the Xiangqi network from the network file at `path` (`None`: the embedded
    /// network again) for the searches from now on. A file that cannot be read or is
    /// damaged is refused ([`EngineError::Network`]) and the engine keeps its network.
    ///
    /// ```
    /// use chuhe_engine::{Engine, EngineError};
    /// use chuhe::GameKind;
    /// let mut engine = Engine::new(GameKind::Xiangqi);
    /// let refused = engine.load_eval_file(Some("no/such/file.nnue".as_ref()));
    /// assert!(matches!(refused, Err(EngineError::Network(_))));
    /// assert_eq!(engine.eval_file(), None);
    /// ```
    pub fn load_eval_file(&mut self, path: Option<&Path>) -> Result<(), EngineError> {
        self.idle()?;
        let net = match path {
            Some(path) => Arc::new(XiangqiNet::load(path)?),
            None => XiangqiNet::embedded(),
        };
        self.networks.xiangqi = net;
        self.eval_file = path.map(Path::to_path_buf);
        Ok(())
    }

    /// Evaluates Xiangqi with `net` from now on (the file name shown is then `None`).
    pub fn set_xiangqi_network(&mut self, net: Arc<XiangqiNet>) -> Result<(), EngineError> {
        self.idle()?;
        self.networks.xiangqi = net;
        self.eval_file = None;
        Ok(())
    }

    /// The settings.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Resizes the transposition table (1–65536 MB); the table is cleared. A size whose
    /// memory cannot be had is refused ([`EngineError::Option`]) and the old table stays.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("Hash", megabytes, ranges::HASH_MB)?;
        let shared = Shared::try_new(megabytes).map_err(|e| EngineError::Option {
            name: "Hash".into(),
            message: e.to_string(),
        })?;
        self.options.hash_mb = megabytes;
        self.shared = Arc::new(shared);
        Ok(())
    }

    /// Search threads (1–256).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("Threads", threads, ranges::THREADS)?;
        self.options.threads = threads;
        Ok(())
    }

    /// Lines to report (1–64).
    pub fn set_multipv(&mut self, lines: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("MultiPV", lines, ranges::MULTIPV)?;
        self.options.multipv = lines;
        Ok(())
    }

    /// Strength level, 0 (weakest) to 20 (full strength).
    pub fn set_level(&mut self, level: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("Skill Level", level, ranges::LEVEL)?;
        self.options.level = level as u8;
        Ok(())
    }

    /// `UCI_LimitStrength`: play at the strength of [`Engine::set_elo`] (`true`) or of the
    /// Skill Level (`false`, the default).
    pub fn set_limit_strength(&mut self, on: bool) -> Result<(), EngineError> {
        self.idle()?;
        self.options.limit_strength = on;
        Ok(())
    }

    /// `UCI_Elo`: the strength played at under `UCI_LimitStrength` ([`ranges::ELO`]).
    pub fn set_elo(&mut self, elo: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("UCI_Elo", elo, ranges::ELO)?;
        self.options.elo = elo as u32;
        Ok(())
    }

    /// Time kept per move for communication (0–5000 ms).
    pub fn set_move_overhead(&mut self, ms: usize) -> Result<(), EngineError> {
        self.idle()?;
        check_range("Move Overhead", ms, ranges::MOVE_OVERHEAD_MS)?;
        self.options.move_overhead = Duration::from_millis(ms as u64);
        Ok(())
    }

    /// Evaluates by material alone (`true`) or with the full evaluation (`false`, the
    /// default): the material-only engine is the baseline of strength measurements.
    pub fn set_material_only(&mut self, on: bool) -> Result<(), EngineError> {
        self.idle()?;
        self.options.material_only = on;
        Ok(())
    }

    /// Starts a search in the background; `listener` gets each line and, at the end, the
    /// best move. Stop it with [`Engine::stop`]; collect it with [`Engine::wait`].
    pub fn go(
        &mut self,
        limits: Limits,
        listener: impl FnMut(SearchEvent) + Send + 'static,
    ) -> Result<(), EngineError> {
        self.idle()?;
        self.shared.stop.store(false, Ordering::SeqCst);
        let handle = self.session.spawn(
            Arc::clone(&self.shared),
            self.networks.clone(),
            limits,
            self.options.clone(),
            self.notation,
            Box::new(listener),
        )?;
        self.running = Some(handle);
        Ok(())
    }

    /// Asks a running search to stop as soon as it can (it still reports its best move).
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Is a search running (or finished but not yet collected)?
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Waits for the running search and returns its result (`None` when none was started).
    pub fn wait(&mut self) -> Option<BestMove> {
        self.running.take().and_then(|h| h.join().ok())
    }

    /// Searches and waits for the result.
    pub fn search(&mut self, limits: Limits) -> Result<BestMove, EngineError> {
        self.search_with(limits, |_| {})
    }

    /// Searches, giving each event to `listener`, and waits for the result.
    pub fn search_with(
        &mut self,
        limits: Limits,
        listener: impl FnMut(SearchEvent) + Send + 'static,
    ) -> Result<BestMove, EngineError> {
        self.go(limits, listener)?;
        self.wait().ok_or(EngineError::Busy)
    }

    /// Refuses requests while a search runs; collects a finished one.
    fn idle(&mut self) -> Result<(), EngineError> {
        match &self.running {
            Some(h) if !h.is_finished() => Err(EngineError::Busy),
            Some(_) => {
                self.wait();
                Ok(())
            }
            None => Ok(()),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

fn check_range(
    name: &str,
    value: usize,
    range: std::ops::RangeInclusive<usize>,
) -> Result<(), EngineError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(EngineError::Option {
            name: name.into(),
            message: format!(
                "{value} is out of range {}..={}",
                range.start(),
                range.end()
            ),
        })
    }
}

/// The one place that maps a game to the search of its position type.
fn new_session(kind: GameKind) -> Box<dyn Session> {
    match kind {
        GameKind::Xiongqi => Box::new(GameSession::<xiongqi::Position>::new(())),
        GameKind::Xiangqi => Box::new(GameSession::<xiangqi::Position>::new(
            xiangqi::RuleSet::Standard,
        )),
        GameKind::XiangqiCapture => Box::new(GameSession::<xiangqi::Position>::new(
            xiangqi::RuleSet::Capture,
        )),
        GameKind::Rules(handle) => {
            use chuhe::rules::{Position, RulesConfig, RulesHandle, Wide};
            match handle {
                RulesHandle::Narrow(c) => {
                    Box::new(GameSession::<Position<u64>>::new(RulesConfig(c)))
                }
                RulesHandle::Broad(c) => {
                    Box::new(GameSession::<Position<u128>>::new(RulesConfig(c)))
                }
                RulesHandle::Wide(c) => {
                    Box::new(GameSession::<Position<Wide>>::new(RulesConfig(c)))
                }
            }
        }
    }
}

/// The game-specific half of the engine, behind an object-safe face.
trait Session: Send {
    fn kind(&self) -> GameKind;
    fn set_position(
        &mut self,
        position: &str,
        options: GameOptions,
        moves: &[&str],
        notation: MoveNotation,
    ) -> Result<(), EngineError>;
    fn turn(&self) -> Side;
    fn feen(&self) -> String;
    fn outcome(&self) -> Option<Outcome>;
    fn material(&self) -> u32;
    fn static_evaluation(&self, networks: &Networks) -> i32;
    fn legal_moves(&self, notation: MoveNotation) -> Vec<String>;
    fn line_in(&self, line: &[String], from: MoveNotation, to: MoveNotation) -> Vec<String>;
    /// Forgets the search statistics kept between searches.
    fn forget(&mut self);
    fn spawn(
        &self,
        shared: Arc<Shared>,
        networks: Networks,
        limits: Limits,
        options: Options,
        notation: MoveNotation,
        listener: Listener,
    ) -> Result<JoinHandle<BestMove>, EngineError>;
}

struct GameSession<P: SearchGame> {
    config: P::Config,
    game: Game<P>,
    /// The statistics of each search thread, kept from one search of the game to the next.
    tables: Arc<Mutex<Vec<SearchTables<P>>>>,
}

impl<P: SearchGame> GameSession<P> {
    fn new(config: P::Config) -> Self {
        GameSession {
            config,
            game: Game::start(config),
            tables: Arc::new(Mutex::new(Vec::new())),
        }
    }
}

/// A line of moves written in `notation`, each from the position it is played in.
fn write_line<P: GamePosition>(root: &P, line: &[P::Move], notation: MoveNotation) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    let mut playable = P::Moves::default();
    for &m in line {
        // The moves the pieces can make, past a result the position decides too (a root
        // sent after the move limit or with too little material left).
        playable.clear();
        pos.moves_past_end_into(&mut playable);
        if !playable.contains(&m) {
            break;
        }
        match pos.move_to_text(m, notation) {
            Ok(t) => out.push(t),
            Err(_) => break,
        }
        pos.play_unchecked(m);
    }
    out
}

impl<P: SearchGame> Session for GameSession<P> {
    fn kind(&self) -> GameKind {
        self.game.position().kind()
    }

    fn set_position(
        &mut self,
        position: &str,
        options: GameOptions,
        moves: &[&str],
        notation: MoveNotation,
    ) -> Result<(), EngineError> {
        let mut start = P::from_text(position, self.config)?;
        if let Some(h) = options.halfmove {
            start.set_halfmove(h);
        }
        if let Some(fold) = options.repetition_fold {
            start
                .set_repetition_fold(fold)
                .map_err(|e| EngineError::Position(SetupError::from(e)))?;
        }
        let mut game = Game::from_position(start);
        // The moves are the GUI's: they may go on past a result the rules see (a claimable
        // repetition, the move limit); each must still be one the pieces can make.
        for (i, text) in moves.iter().enumerate() {
            let m =
                game.parse_move_past_end(text, notation)
                    .map_err(|error| EngineError::Move {
                        index: i + 1,
                        error,
                    })?;
            game.play_past_end(m).map_err(|error| EngineError::Move {
                index: i + 1,
                error,
            })?;
        }
        self.game = game;
        Ok(())
    }

    fn turn(&self) -> Side {
        self.game.position().turn()
    }

    fn feen(&self) -> String {
        self.game.position().to_feen()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn material(&self) -> u32 {
        crate::wdl::material(self.game.position())
    }

    fn static_evaluation(&self, networks: &Networks) -> i32 {
        let pos = self.game.position();
        let net = P::network(networks);
        pos.evaluate_with_state(net, &pos.eval_state(net))
    }

    fn legal_moves(&self, notation: MoveNotation) -> Vec<String> {
        let pos = self.game.position();
        let mut out: Vec<String> = self
            .game
            .moves_past_end()
            .iter()
            .filter_map(|&m| pos.move_to_text(m, notation).ok())
            .collect();
        out.sort();
        out
    }

    fn line_in(&self, line: &[String], from: MoveNotation, to: MoveNotation) -> Vec<String> {
        let mut pos = self.game.position().clone();
        let mut out = Vec::new();
        for text in line {
            let Ok(m) = pos.parse_move_as(text, from) else {
                break;
            };
            let Ok(t) = pos.move_to_text(m, to) else {
                break;
            };
            out.push(t);
            pos.play_unchecked(m);
        }
        out
    }

    fn forget(&mut self) {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
            .for_each(SearchTables::clear);
    }

    fn spawn(
        &self,
        shared: Arc<Shared>,
        networks: Networks,
        limits: Limits,
        options: Options,
        notation: MoveNotation,
        mut listener: Listener,
    ) -> Result<JoinHandle<BestMove>, EngineError> {
        let game = self.game.clone();
        let tables = Arc::clone(&self.tables);
        let mut only = Vec::new();
        let playable = game.moves_past_end();
        for text in &limits.search_moves {
            let m = game
                .parse_move_past_end(text, notation)
                .map_err(EngineError::SearchMove)?;
            if !playable.contains(&m) {
                return Err(EngineError::SearchMove(MoveError::Syntax {
                    text: text.clone(),
                    reason: "it repeats an earlier move and position (X6)".into(),
                }));
            }
            only.push(m);
        }
        Ok(std::thread::spawn(move || {
            // A search that panicked left its tables as they were: still usable statistics.
            let mut tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
            let result = run_search(
                &game,
                &only,
                &mut tables,
                &shared,
                P::network(&networks),
                &limits,
                &options,
                notation,
                &mut listener,
            );
            listener(SearchEvent::BestMove(result.clone()));
            result
        }))
    }
}

/// The whole search of one `go`: helper threads, the main thread, the choice of move.
#[allow(clippy::too_many_arguments)]
fn run_search<P: SearchGame>(
    game: &Game<P>,
    only: &[P::Move],
    tables: &mut Vec<SearchTables<P>>,
    shared: &Shared,
    net: &P::Network,
    limits: &Limits,
    options: &Options,
    notation: MoveNotation,
    listener: &mut Listener,
) -> BestMove {
    let start = Instant::now();
    shared.tt.new_search();
    shared.nodes.store(0, Ordering::SeqCst);
    let root = game.position().clone();
    let level = options.playing_level();
    let weakened = level < MAX_LEVEL;
    let mut max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
        d.clamp(1, MAX_PLY as u32 - 8) as i32
    });
    if weakened {
        max_depth = max_depth.min(1 + i32::from(level) / 2);
    }
    let params = SearchParams {
        max_depth,
        budget: TimeBudget::new(limits, root.turn(), options.move_overhead),
        start,
        node_limit: limits.nodes,
        mate_limit: limits.mate,
        multipv: if weakened {
            options.multipv.max(4)
        } else {
            options.multipv
        },
        main_thread: true,
        material_only: options.material_only,
    };
    let hashfull_shared = shared;
    if tables.len() < options.threads {
        tables.resize_with(options.threads, SearchTables::new);
    }
    let (main_tables, helper_tables) = tables.split_at_mut(1);
    // The first move of the last line shown: the best move must be it (below).
    let mut last_shown: Option<P::Move> = None;
    let outcome = std::thread::scope(|scope| {
        for helper_tables in helper_tables.iter_mut().take(options.threads - 1) {
            let helper = SearchParams {
                main_thread: false,
                multipv: 1,
                ..params.clone()
            };
            let game = game.clone();
            scope.spawn(move || {
                let mut s = Searcher::new(shared, helper_tables, helper, &game, only, net);
                s.run(&mut |_| {});
            });
        }
        let mut searcher =
            Searcher::new(shared, &mut main_tables[0], params.clone(), game, only, net);
        let mut report = |line: &LineReport<P::Move>| {
            if weakened && line.multipv > options.multipv {
                return;
            }
            if line.multipv == 1 {
                last_shown = line.pv.first().copied();
            }
            listener(SearchEvent::Info(info_of(
                &root,
                line,
                hashfull_shared,
                start,
                notation,
            )));
        };
        let outcome = searcher.run(&mut report);
        shared.stop.store(true, Ordering::SeqCst);
        let local = searcher.nodes();
        (outcome, local)
    });
    let (outcome, _) = outcome;
    let elapsed = start.elapsed();
    let nodes = shared.nodes.load(Ordering::SeqCst).max(outcome.nodes);
    let chosen = if weakened {
        weakened_choice(&outcome.lines, level)
    } else {
        outcome.lines.first()
    };
    // A GUI takes the last line shown for the move played: when the move differs (a search
    // stopped inside an iteration, a weakened choice), its line is shown last.
    if let Some(line) = chosen {
        if line.pv.first().copied() != last_shown {
            let shown = LineReport {
                multipv: 1,
                ..line.clone()
            };
            listener(SearchEvent::Info(info_of(
                &root, &shown, shared, start, notation,
            )));
        }
    }
    match chosen {
        None => BestMove {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes,
            time: elapsed,
            pv: Vec::new(),
        },
        Some(line) => {
            let pv = write_line(&root, &line.pv, notation);
            BestMove {
                best: pv.first().cloned(),
                ponder: pv.get(1).cloned(),
                score: Score::from_internal(line.score),
                depth: outcome.depth.max(1) as u32,
                nodes,
                time: elapsed,
                pv,
            }
        }
    }
}

fn info_of<P: GamePosition>(
    root: &P,
    line: &LineReport<P::Move>,
    shared: &Shared,
    start: Instant,
    notation: MoveNotation,
) -> SearchInfo {
    let time = start.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
    SearchInfo {
        depth: line.depth.max(1) as u32,
        seldepth: line.seldepth as u32,
        multipv: line.multipv as u32,
        score: Score::from_internal(line.score),
        bound: match line.bound {
            Bound::Exact => None,
            Bound::Lower => Some(ScoreBound::Lower),
            Bound::Upper => Some(ScoreBound::Upper),
        },
        nodes,
        nps,
        time,
        hashfull: shared.tt.hashfull(),
        pv: write_line(root, &line.pv, notation),
    }
}

/// Below full strength: among the best few lines, a choice that gets worse and more random
/// as the level drops (a loss of up to about 15 cp per level below 20).
fn weakened_choice<M>(lines: &[LineReport<M>], level: u8) -> Option<&LineReport<M>> {
    let top = lines.first()?;
    let spread = i64::from(MAX_LEVEL - level) * 15;
    // Noise seeded by the wall clock: each search chooses afresh.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut seed = nanos ^ 0x9E37_79B9_7F4A_7C15 | 1;
    let mut noise = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % (spread.max(1) as u64 + 1)) as i64
    };
    lines
        .iter()
        .filter(|l| i64::from(top.score) - i64::from(l.score) <= spread * 2)
        .max_by_key(|l| i64::from(l.score) + noise())
}
