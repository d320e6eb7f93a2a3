//! The UCI and UCCI text protocols, driving an [`Engine`].
//!
//! [`run`] reads commands line by line from any [`BufRead`] and answers on any [`Write`], so
//! the same driver serves `chuhe uci` (standard input and output) and tests (in memory).
//!
//! # UCI (the default dialect)
//!
//! Moves are written in coordinates as Fairy-Stockfish writes them: Xiangqi under
//! `UCI_Variant xiangqi` with files `a`–`i` and ranks 1–10 (`h3e3`, `b3b10`), Xiongqi `e3e4`,
//! promotion `e7e8e`. The commands: `uci`, `isready`, `ucinewgame`,
//! `setoption name N [value V]` (names case-insensitive: `Hash`, `Clear Hash`, `Threads`,
//! `MultiPV`, `Skill Level`, `Move Overhead`, `UCI_Variant`, `Evaluation` — `full`, or
//! `material` for the material-only baseline; `UCI_LimitStrength` and `UCI_Elo`, the
//! strength on a scale measured against Fairy-Stockfish, see [`crate::LEVEL_ELO`]; `Ponder`
//! and `UCI_AnalyseMode`, which GUIs send, are accepted and leave the search as it is;
//! `UCI_ShowWDL`, off by default, adds `wdl W D L` after each score: the permille chances
//! of a win, a draw and a loss for the side to move, from the model of [`crate::wdl`];
//! `EvalFile`, the Xiangqi network file the evaluation reads, `<embedded>` for the one
//! compiled in — a file that cannot be loaded is refused in an `info string` and the engine
//! keeps its network, see [`crate::eval::xiangqi_net`]; the value is the rest of the line as
//! sent, so runs of spaces in a file name survive),
//! `position startpos|fen TEXT
//! [moves …]` (`TEXT` is everything between `fen` and `moves`: a FEEN, which holds spaces,
//! or a Xiangqi FEN), `go` with `wtime btime winc binc movestogo movetime nodes depth mate
//! infinite ponder searchmoves` (and `go perft N`; a `go` without any limit is `go
//! infinite`), `stop`, `ponderhit`, `quit`, `d` (the board, FEN and FEEN), `eval`
//! (`static evaluation: N cp (side to move)`, under the loaded network). Each line of a
//! search is reported as
//! `info depth … seldepth … multipv … score cp|mate … [wdl W D L] [lowerbound|upperbound]
//! nodes … nps …
//! time … hashfull … pv …`, then `bestmove M [ponder P]`, or `bestmove (none)` when the game
//! is over.
//!
//! # UCCI
//!
//! The command `ucci` switches the session to UCCI, for Xiangqi GUIs: `ucciok`, options as
//! UCCI writes them (`setoption NAME VALUE`, `evalfile` among them; the UCI form is
//! accepted too), moves in ICCS
//! (ranks 0–9: `h2e2`), `go [ponder|draw] time T [increment I | movestogo M] [opptime T2
//! [oppincrement I2 | oppmovestogo M2]]`, `go depth D`, `go nodes N`, `go infinite`,
//! `banmoves …`, `nobestmove` when there is no move, `quit` → `bye`. Scores are plain
//! numbers (centipawns; a forced win is `10000 − plies`, a forced loss its negative), and
//! carry no `wdl` (UCCI's `info` has no such field; `UCI_ShowWDL` is not announced there).
//!
//! UCCI times are in **seconds** unless the GUI sends `setoption usemillisec true` (or
//! `on`), as the UCCI 3.0 specification and ElephantEye have it; GUIs that know milliseconds
//! send that option after `ucciok`.
//!
//! # Bad input and searches in progress
//!
//! The position is the GUI's: `position` accepts every list of moves the pieces can make,
//! also past a result the rules see (a claimable repetition, the move limit, a Xiongqi X6
//! repetition: the GUI judges the game); such a result is said in an `info string`, and `go`
//! searches the position exactly as sent. `bestmove (none)` (UCCI `nobestmove`) means the
//! side to move has no move at all.
//!
//! Bad input is answered by one `info string …` line that says what was wrong, quoting the
//! input cut short: an unknown command, a bad option value, or a `go` with parameters it does
//! not know (nothing changes). A `position` with a bad FEN or an illegal move is refused
//! whole, and the next `go` answers `bestmove (none)` (never a move for an older position)
//! until a `position` is accepted. While a search runs, `stop`, `ponderhit` and `quit` are
//! handled at once, and `isready` too unless a command received before it waits; every
//! other command waits until the search has reported its best move, then runs in order (so
//! `isready` is answered after every command received before it, as in Stockfish). A search
//! under `go infinite` or `go ponder` that ends by itself holds its best move until `stop`
//! (or `ponderhit`). The best move is always the first move of the last `info … pv` line.
//! The end of the input acts as `quit` ([`EndOfInput`]).
//!
//! ```
//! use chuhe::GameKind;
//! let input = "uci\nposition startpos moves h3e3\ngo depth 2\nquit\n";
//! let mut out = Vec::new();
//! chuhe_engine::uci::run_blocking(GameKind::Xiangqi, input.as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("uciok"));
//! assert!(text.lines().any(|l| l.starts_with("bestmove ")));
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chuhe::{quote_input, AnyGame, GameKind, Glyphs, MoveNotation, Outcome, PositionFormat, Side};

use crate::engine::{
    ranges, BestMove, Engine, EngineError, ScoreBound, SearchEvent, SearchInfo, MAX_LEVEL,
};
use crate::limits::{Clock, Limits};
use crate::score::Score;
use crate::wdl::WdlModel;

/// The engine's name, as `id name` gives it (followed by [`VERSION`]).
pub const ENGINE_NAME: &str = "chuhe";
/// The engine's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// `id author`.
pub const AUTHOR: &str = "the chuhe developers";

/// A forced win in UCCI scores: `MATE_UCCI - plies`.
const MATE_UCCI: i32 = 10_000;
/// The value of `EvalFile` that names the network compiled into the binary.
pub const EMBEDDED_EVAL_FILE: &str = "<embedded>";

/// Runs the protocol on `input` and `output` until `quit` or the end of the input (which
/// acts as `quit`: [`EndOfInput::Quit`]), for an engine that starts with `game` (the
/// `UCI_Variant` default). Returns an error only when the output cannot be written or the
/// input cannot be read.
///
/// The input is read on a thread of its own, so that commands can be answered while the
/// engine searches.
pub fn run<R, W>(game: GameKind, input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_until(game, input, output, EndOfInput::Quit)
}

/// What the end of the input means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndOfInput {
    /// As `quit`, once every command received has run: the running search stops and its
    /// best move is written; a command that waited for it then runs, a search it starts
    /// being stopped at once; then the driver returns. A GUI that crashed or closed the
    /// pipe leaves no search burning the CPU. This is [`run`]'s.
    Quit,
    /// The commands run to the end as if typed one after the other: each finite search
    /// finishes (an infinite one is stopped), then the driver returns. This is
    /// [`run_blocking`]'s, for scripts and tests that hold their whole input at once.
    FinishSearches,
}

/// [`run`], with the meaning of the end of the input chosen.
pub fn run_until<R, W>(game: GameKind, input: R, output: W, at_eof: EndOfInput) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_lines(input, &reader_tx));
    let sink = Arc::new(Sink::new(output));
    let mut driver = Driver::new(game, Arc::clone(&sink), tx, at_eof);
    let result = loop {
        let Ok(message) = rx.recv() else {
            break Ok(());
        };
        let flow = match message {
            Message::Line(line) => driver.command(&line),
            Message::Eof => driver.end_of_input(),
            Message::ReadError(e) => {
                driver.shut_down();
                break Err(e);
            }
            Message::Done(best) => driver.search_done(best),
        };
        if let Some(e) = sink.take_error() {
            driver.shut_down();
            break Err(e);
        }
        if flow.is_break() || driver.finished() {
            break Ok(());
        }
    };
    driver.shut_down();
    match sink.take_error() {
        Some(e) => Err(e),
        None => result,
    }
}

/// [`run`] for borrowed input and output (a test, a script): all of `input` is read first,
/// then the commands run as if typed one after the other, each finite search to its end
/// ([`EndOfInput::FinishSearches`]); the answers are copied to `output` at the end.
pub fn run_blocking<W: Write>(game: GameKind, input: &[u8], output: &mut W) -> io::Result<()> {
    let buffer = SharedBuffer::default();
    run_until(
        game,
        io::Cursor::new(input.to_vec()),
        buffer.clone(),
        EndOfInput::FinishSearches,
    )?;
    let bytes = buffer.take();
    output.write_all(&bytes)?;
    output.flush()
}

/// A clonable in-memory output.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the main loop waits for.
enum Message {
    /// A line of input.
    Line(String),
    /// The input has ended.
    Eof,
    /// The input could not be read.
    ReadError(io::Error),
    /// The running search has ended with this result.
    Done(BestMove),
}

fn read_lines<R: BufRead>(mut input: R, tx: &Sender<Message>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => {
                let _ = tx.send(Message::Eof);
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                if tx.send(Message::Line(line)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Message::ReadError(e));
                return;
            }
        }
    }
}

/// The output, shared with the search thread: whole lines, flushed at once; the first write
/// error is kept and later writes are skipped.
struct Sink<W> {
    state: Mutex<SinkState<W>>,
}

struct SinkState<W> {
    writer: W,
    error: Option<io::Error>,
}

impl<W: Write> Sink<W> {
    fn new(writer: W) -> Sink<W> {
        Sink {
            state: Mutex::new(SinkState {
                writer,
                error: None,
            }),
        }
    }

    /// Writes `text` (one or more lines) and a final newline, then flushes.
    fn say(&self, text: &str) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.error.is_some() {
            return;
        }
        let SinkState { writer, .. } = &mut *state;
        let result = writer
            .write_all(text.as_bytes())
            .and_then(|()| writer.write_all(b"\n"))
            .and_then(|()| writer.flush());
        if let Err(e) = result {
            state.error = Some(e);
        }
    }

    fn take_error(&self) -> Option<io::Error> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .error
            .take()
    }
}

/// The protocol spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ucci,
}

/// The position as last set: its text, its moves and the notation they were written in.
#[derive(Clone, Debug)]
struct PositionCommand {
    text: String,
    moves: Vec<String>,
    notation: MoveNotation,
}

impl PositionCommand {
    fn start() -> PositionCommand {
        PositionCommand {
            text: "start".into(),
            moves: Vec::new(),
            notation: MoveNotation::Uci,
        }
    }
}

/// A search as the GUI sees it: from `go` until `bestmove` is written.
struct Active {
    /// `go infinite` or `go ponder`: the best move waits for `stop` or `ponderhit`.
    infinite: bool,
    /// `stop` (or `quit`) has been received.
    stopped: bool,
    /// While pondering: the limits of the real search, which starts at `ponderhit`.
    after_ponder: Option<Limits>,
    /// `ponderhit` has stopped the pondering search: start the real one when it ends.
    restart: bool,
    /// The result of a search that ended before it was asked to.
    held: Option<BestMove>,
}

/// Commands answered while a search runs; all others wait for its end.
const URGENT: [&str; 4] = ["isready", "stop", "ponderhit", "quit"];

struct Driver<W: Write + Send + 'static> {
    engine: Engine,
    sink: Arc<Sink<W>>,
    tx: Sender<Message>,
    dialect: Dialect,
    /// UCCI `usemillisec`: times in milliseconds rather than seconds.
    millis: bool,
    position: PositionCommand,
    /// UCCI `banmoves` for the current position.
    banned: Vec<String>,
    active: Option<Active>,
    pending: VecDeque<String>,
    eof: bool,
    /// What ends the session at the end of the input.
    at_eof: EndOfInput,
    /// Why the last `position` command was refused, until the next one is accepted.
    refused: Option<String>,
    /// `Ponder`: the GUI says it may send `go ponder` (the search is the same either way).
    ponder: bool,
    /// `UCI_AnalyseMode`: the GUI analyses rather than plays (the search is the same).
    analyse_mode: bool,
    /// `UCI_ShowWDL`: each UCI `info` line with a score also gives `wdl W D L`.
    show_wdl: bool,
}

impl<W: Write + Send + 'static> Driver<W> {
    fn new(
        game: GameKind,
        sink: Arc<Sink<W>>,
        tx: Sender<Message>,
        at_eof: EndOfInput,
    ) -> Driver<W> {
        Driver {
            engine: Engine::new(game),
            sink,
            tx,
            dialect: Dialect::Uci,
            millis: false,
            position: PositionCommand::start(),
            banned: Vec::new(),
            active: None,
            pending: VecDeque::new(),
            eof: false,
            at_eof,
            refused: None,
            ponder: false,
            analyse_mode: false,
            show_wdl: false,
        }
    }

    fn say(&self, text: &str) {
        self.sink.say(text);
    }

    /// One `info string` line about bad input.
    fn complain(&self, message: &str) {
        let message: String = message
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        self.say(&format!("info string {message}"));
    }

    /// Nothing more to do: the input has ended and every command has run.
    fn finished(&self) -> bool {
        self.eof && self.active.is_none() && self.pending.is_empty()
    }

    /// Stops any search and waits for it.
    fn shut_down(&mut self) {
        self.engine.stop();
        self.engine.wait();
        self.active = None;
    }

    /// One line of input.
    fn command(&mut self, line: &str) -> ControlFlow<()> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = tokens.split_first() else {
            return ControlFlow::Continue(());
        };
        // `isready` is answered after every command received before it, so it waits behind
        // commands that wait for the search (but not for the search itself).
        let waits = !URGENT.contains(&name) || (name == "isready" && !self.pending.is_empty());
        if self.active.is_some() && waits {
            self.pending.push_back(line.to_string());
            return ControlFlow::Continue(());
        }
        match name {
            "uci" => self.hello(Dialect::Uci),
            "ucci" => self.hello(Dialect::Ucci),
            "isready" => self.say("readyok"),
            "ucinewgame" => self.new_game(),
            "setoption" => self.set_option(after_first_word(line)),
            "position" => self.set_position(args),
            "banmoves" => self.ban_moves(args),
            "go" => self.go(args),
            "stop" => return self.stop(),
            "ponderhit" => return self.ponder_hit(),
            "quit" => return self.quit(),
            "d" => self.show(),
            "eval" => self.say(&format!(
                "static evaluation: {} cp (side to move)",
                self.engine.static_evaluation()
            )),
            // UCI commands with nothing to do here.
            "debug" | "register" => {}
            _ => self.complain(&format!(
                "unknown command '{}' (uci, ucci, isready, ucinewgame, setoption, position, go, stop, ponderhit, quit, d, eval)",
                quote_input(name)
            )),
        }
        ControlFlow::Continue(())
    }

    /// The `EvalFile` option's value as the handshake shows it.
    fn eval_file_shown(&self) -> String {
        self.engine
            .eval_file()
            .map_or(EMBEDDED_EVAL_FILE.into(), |p| p.display().to_string())
    }

    fn hello(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.apply_notation();
        let options = self.engine.options().clone();
        let mut text = format!("id name {ENGINE_NAME} {VERSION}\nid author {AUTHOR}\n");
        match dialect {
            Dialect::Uci => {
                let variants: String = GameKind::ALL
                    .iter()
                    .map(|g| format!(" var {}", g.name()))
                    .collect();
                text.push_str(&format!(
                    "option name Hash type spin default {} min {} max {}\n\
                     option name Clear Hash type button\n\
                     option name Threads type spin default {} min {} max {}\n\
                     option name MultiPV type spin default {} min {} max {}\n\
                     option name Skill Level type spin default {} min 0 max {MAX_LEVEL}\n\
                     option name Move Overhead type spin default {} min {} max {}\n\
                     option name UCI_Variant type combo default {}{variants}\n\
                     option name Evaluation type combo default {} var full var material\n\
                     option name Ponder type check default {}\n\
                     option name UCI_AnalyseMode type check default {}\n\
                     option name UCI_ShowWDL type check default {}\n\
                     option name UCI_LimitStrength type check default {}\n\
                     option name UCI_Elo type spin default {} min {} max {}\n\
                     option name EvalFile type string default {}\n\
                     uciok",
                    options.hash_mb,
                    ranges::HASH_MB.start(),
                    ranges::HASH_MB.end(),
                    options.threads,
                    ranges::THREADS.start(),
                    ranges::THREADS.end(),
                    options.multipv,
                    ranges::MULTIPV.start(),
                    ranges::MULTIPV.end(),
                    options.level,
                    options.move_overhead.as_millis(),
                    ranges::MOVE_OVERHEAD_MS.start(),
                    ranges::MOVE_OVERHEAD_MS.end(),
                    self.engine.game().name(),
                    if options.material_only {
                        "material"
                    } else {
                        "full"
                    },
                    self.ponder,
                    self.analyse_mode,
                    self.show_wdl,
                    options.limit_strength,
                    options.elo,
                    ranges::ELO.start(),
                    ranges::ELO.end(),
                    self.eval_file_shown(),
                ));
            }
            Dialect::Ucci => {
                text.push_str(&format!(
                    "option usemillisec type check default {}\n\
                     option hashsize type spin min {} max {} default {}\n\
                     option threads type spin min {} max {} default {}\n\
                     option multipv type spin min {} max {} default {}\n\
                     option skilllevel type spin min 0 max {MAX_LEVEL} default {}\n\
                     option moveoverhead type spin min {} max {} default {}\n\
                     option newgame type button\n\
                     option evalfile type string default {}\n\
                     ucciok",
                    self.millis,
                    ranges::HASH_MB.start(),
                    ranges::HASH_MB.end(),
                    options.hash_mb,
                    ranges::THREADS.start(),
                    ranges::THREADS.end(),
                    options.threads,
                    ranges::MULTIPV.start(),
                    ranges::MULTIPV.end(),
                    options.multipv,
                    options.level,
                    ranges::MOVE_OVERHEAD_MS.start(),
                    ranges::MOVE_OVERHEAD_MS.end(),
                    options.move_overhead.as_millis(),
                    self.eval_file_shown(),
                ));
            }
        }
        self.say(&text);
    }

    /// The move notation of the dialect: ICCS under UCCI where the game has it, coordinates
    /// otherwise.
    fn apply_notation(&mut self) {
        let wanted = match self.dialect {
            Dialect::Ucci if self.engine.game().notations().contains(&MoveNotation::Iccs) => {
                MoveNotation::Iccs
            }
            _ => MoveNotation::Uci,
        };
        if self.engine.move_notation() != wanted {
            // Idle here (commands wait for searches), and the game has the notation.
            if let Err(e) = self.engine.set_move_notation(wanted) {
                self.complain(&e.to_string());
            }
        }
    }

    fn new_game(&mut self) {
        if let Err(e) = self.engine.new_game() {
            self.complain(&e.to_string());
        }
    }

    // ----- options -----------------------------------------------------------------------

    /// `raw`: the line after `setoption`, spacing kept (a file name's runs of spaces).
    fn set_option(&mut self, raw: &str) {
        let (name, value) = match parse_setoption(raw) {
            Ok(parsed) => parsed,
            Err(message) => {
                self.complain(&format!("setoption refused: {message}"));
                return;
            }
        };
        if let Err(message) = self.apply_option(&name, value.as_deref()) {
            self.complain(&format!(
                "setoption refused: {message}; the option keeps its value"
            ));
        }
    }

    fn apply_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let key: String = name.to_ascii_lowercase();
        let shown = quote_input(name);
        let spin = |value: Option<&str>| -> Result<usize, String> {
            let value = value.ok_or_else(|| format!("option {shown} needs a value"))?;
            value.parse::<usize>().map_err(|_| {
                format!(
                    "option {shown}: '{}' is not a whole number",
                    quote_input(value)
                )
            })
        };
        let engine_error = |e: EngineError| e.to_string();
        match key.as_str() {
            "hash" => self.engine.set_hash(spin(value)?).map_err(engine_error),
            // UCCI: 0 lets the engine choose.
            "hashsize" => {
                let mb = match spin(value)? {
                    0 => crate::engine::Options::default().hash_mb,
                    mb => mb,
                };
                self.engine.set_hash(mb).map_err(engine_error)
            }
            "threads" => {
                let n = match spin(value)? {
                    0 if self.dialect == Dialect::Ucci => 1,
                    n => n,
                };
                self.engine.set_threads(n).map_err(engine_error)
            }
            "multipv" => self.engine.set_multipv(spin(value)?).map_err(engine_error),
            "skill level" | "skilllevel" | "skill_level" => {
                self.engine.set_level(spin(value)?).map_err(engine_error)
            }
            "move overhead" | "moveoverhead" | "move_overhead" => self
                .engine
                .set_move_overhead(spin(value)?)
                .map_err(engine_error),
            "clear hash" | "clearhash" | "newgame" => self.engine.new_game().map_err(engine_error),
            "uci_variant" => {
                let value = value.ok_or("option UCI_Variant needs a value")?;
                let kind: GameKind = value.to_ascii_lowercase().parse().map_err(|_| {
                    format!(
                        "UCI_Variant '{}' is not a game (xiongqi, xiangqi, xiangqi-capture)",
                        quote_input(value)
                    )
                })?;
                self.engine.set_game(kind).map_err(engine_error)?;
                self.position = PositionCommand::start();
                self.banned.clear();
                self.apply_notation();
                Ok(())
            }
            "evaluation" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("full") => self.engine.set_material_only(false).map_err(engine_error),
                Some("material") => self.engine.set_material_only(true).map_err(engine_error),
                _ => Err(format!(
                    "option Evaluation: '{}' is not full or material",
                    quote_input(value.unwrap_or(""))
                )),
            },
            "uci_limitstrength" => {
                let on = parse_check(value).ok_or_else(|| {
                    format!(
                        "option {shown}: '{}' is not true or false",
                        quote_input(value.unwrap_or(""))
                    )
                })?;
                self.engine.set_limit_strength(on).map_err(engine_error)
            }
            "uci_elo" => self.engine.set_elo(spin(value)?).map_err(engine_error),
            "ponder" | "uci_analysemode" | "uci_showwdl" => {
                let on = parse_check(value).ok_or_else(|| {
                    format!(
                        "option {shown}: '{}' is not true or false",
                        quote_input(value.unwrap_or(""))
                    )
                })?;
                match key.as_str() {
                    "ponder" => self.ponder = on,
                    "uci_analysemode" => self.analyse_mode = on,
                    _ => self.show_wdl = on,
                }
                Ok(())
            }
            "evalfile" => {
                let value = value.ok_or("option EvalFile needs a file name or <embedded>")?;
                let path = (!value.eq_ignore_ascii_case(EMBEDDED_EVAL_FILE))
                    .then(|| std::path::Path::new(value));
                self.engine.load_eval_file(path).map_err(engine_error)?;
                let net = &self.engine.networks().xiangqi;
                self.say(&format!(
                    "info string EvalFile: Xiangqi network {:08x} from {}",
                    net.checksum(),
                    path.map_or(EMBEDDED_EVAL_FILE.into(), |p| p.display().to_string())
                ));
                Ok(())
            }
            "usemillisec" => {
                self.millis = parse_check(value).ok_or_else(|| {
                    format!(
                        "option usemillisec: '{}' is not true or false",
                        quote_input(value.unwrap_or(""))
                    )
                })?;
                Ok(())
            }
            _ => Err(match self.dialect {
                Dialect::Uci => format!(
                    "no option '{shown}' (Hash, Clear Hash, Threads, MultiPV, Skill Level, Move Overhead, UCI_Variant, Evaluation, Ponder, UCI_AnalyseMode, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, EvalFile)"
                ),
                Dialect::Ucci => format!(
                    "no option '{shown}' (usemillisec, hashsize, threads, multipv, skilllevel, moveoverhead, newgame, evalfile)"
                ),
            }),
        }
    }

    // ----- position ----------------------------------------------------------------------

    fn set_position(&mut self, args: &[&str]) {
        let (text, moves) = match parse_position(args) {
            Ok(parsed) => parsed,
            Err(message) => {
                self.refuse_position(message);
                return;
            }
        };
        let move_refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        match self.engine.set_position(&text, &move_refs) {
            Ok(()) => {
                self.position = PositionCommand {
                    text,
                    moves,
                    notation: self.engine.move_notation(),
                };
                self.banned.clear();
                self.refused = None;
                if let Some(outcome) = self.engine.outcome() {
                    self.complain(&format!("the rules see the game as over here: {outcome}"));
                }
            }
            Err(e) => self.refuse_position(e.to_string()),
        }
    }

    /// A `position` that cannot be set: said at once, and the next `go` answers
    /// `bestmove (none)` instead of searching the previous position.
    fn refuse_position(&mut self, message: String) {
        self.complain(&format!(
            "position refused: {message}; no position is set until the next position command"
        ));
        self.refused = Some(message);
        self.banned.clear();
    }

    /// The engine's position as a game of the library (history included), for the side to
    /// move, the board and perft.
    fn mirror(&self) -> Option<Box<dyn AnyGame>> {
        let kind = self.engine.game();
        let replayed = kind
            .new_game(&self.position.text)
            .ok()
            .and_then(|mut game| {
                for m in &self.position.moves {
                    game.play_text(m, self.position.notation).ok()?;
                }
                Some(game)
            });
        replayed
            .filter(|g| g.to_feen() == self.engine.position_feen())
            .or_else(|| kind.new_game(&self.engine.position_feen()).ok())
    }

    fn ban_moves(&mut self, args: &[&str]) {
        let legal = self.engine.legal_moves();
        if let Some(bad) = args.iter().find(|m| !legal.iter().any(|l| l == *m)) {
            self.complain(&format!(
                "banmoves refused: '{}' is not a legal move here; nothing is banned",
                quote_input(bad)
            ));
            return;
        }
        self.banned = args.iter().map(|m| m.to_string()).collect();
    }

    fn show(&self) {
        let Some(game) = self.mirror() else {
            self.say(&format!("feen: {}", self.engine.position_feen()));
            return;
        };
        let mut text = game.board_text(Glyphs::Latin);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let turn = match game.turn() {
            Side::First => "first (South/Red)",
            Side::Second => "second (North/Black)",
        };
        text.push_str(&format!("game: {}\nturn: {turn}\n", self.engine.game()));
        match game.outcome() {
            Some(o) => text.push_str(&format!("status: {o}\n")),
            None => text.push_str("status: ongoing\n"),
        }
        if let Ok(fen) = game.to_text(PositionFormat::Fen) {
            text.push_str(&format!("fen: {fen}\n"));
        }
        text.push_str(&format!("feen: {}", self.engine.position_feen()));
        self.say(&text);
    }

    // ----- searching ---------------------------------------------------------------------

    fn go(&mut self, args: &[&str]) {
        let turn = self.engine.turn();
        let go = match parse_go(args, self.dialect, self.millis, turn) {
            Ok(go) => go,
            Err(message) => {
                self.complain(&format!("go refused: {message}; no search started"));
                return;
            }
        };
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        if let Some(why) = &self.refused {
            // Never an answer for an older position than the one the GUI sent.
            self.complain(&format!(
                "no position to search: the last position command was refused ({why})"
            ));
            self.emit_best(None, None);
            return;
        }
        if let Some(outcome) = self.engine.outcome() {
            if self.engine.legal_moves().is_empty() {
                self.game_over(outcome, turn);
                return;
            }
            // The GUI judges the game: the rules' result is said, and the position searched.
            self.complain(&format!(
                "the rules see the game as over ({outcome}); searching the position as sent"
            ));
        }
        let mut limits = go.limits;
        if !self.banned.is_empty() {
            let allowed: Vec<String> = if limits.search_moves.is_empty() {
                self.engine.legal_moves()
            } else {
                limits.search_moves.clone()
            };
            limits.search_moves = allowed
                .into_iter()
                .filter(|m| !self.banned.contains(m))
                .collect();
            if limits.search_moves.is_empty() {
                self.complain("every legal move is banned (banmoves)");
                self.emit_best(None, None);
                return;
            }
        }
        let searched = if go.ponder {
            Limits {
                infinite: true,
                ..limits.clone()
            }
        } else {
            limits.clone()
        };
        let listener = self.listener();
        match self.engine.go(searched, listener) {
            Ok(()) => {
                self.active = Some(Active {
                    infinite: go.ponder || limits.infinite,
                    stopped: false,
                    after_ponder: go.ponder.then_some(limits),
                    restart: false,
                    held: None,
                });
                let nobody_stops = match self.at_eof {
                    EndOfInput::Quit => true,
                    EndOfInput::FinishSearches => self.active.as_ref().is_some_and(|a| a.infinite),
                };
                if self.eof && nobody_stops {
                    // Nobody will send `stop`.
                    let _ = self.stop();
                }
            }
            Err(e) => self.complain(&format!("go refused: {e}; no search started")),
        }
    }

    /// What the search thread does with its events: lines are written at once, the result
    /// goes to the main loop.
    fn listener(&self) -> impl FnMut(SearchEvent) + Send + 'static {
        let sink = Arc::clone(&self.sink);
        let tx = self.tx.clone();
        let dialect = self.dialect;
        // The model's figures for the root position (UCI only: UCCI lines have no field).
        let wdl_model = (self.show_wdl && dialect == Dialect::Uci)
            .then(|| (WdlModel::of(self.engine.game()), self.engine.material()));
        move |event| match event {
            SearchEvent::Info(info) => {
                let wdl = wdl_model.map(|(model, material)| model.wdl(info.score, material));
                if let Some(line) = format_info(&info, dialect, wdl) {
                    sink.say(&line);
                }
            }
            SearchEvent::BestMove(best) => {
                let _ = tx.send(Message::Done(best));
            }
        }
    }

    fn search_done(&mut self, best: BestMove) -> ControlFlow<()> {
        self.engine.wait();
        let Some(active) = self.active.as_mut() else {
            return ControlFlow::Continue(());
        };
        if active.restart {
            if let Some(limits) = active.after_ponder.take() {
                let listener = self.listener();
                match self.engine.go(limits.clone(), listener) {
                    Ok(()) => {
                        self.active = Some(Active {
                            infinite: limits.infinite,
                            stopped: false,
                            after_ponder: None,
                            restart: false,
                            held: None,
                        });
                        return ControlFlow::Continue(());
                    }
                    Err(e) => self.complain(&format!("the search after ponderhit failed: {e}")),
                }
            }
        } else if active.infinite && !active.stopped {
            active.held = Some(best);
            return ControlFlow::Continue(());
        }
        self.active = None;
        self.emit_best(best.best.as_deref(), best.ponder.as_deref());
        self.run_pending()
    }

    /// Runs the commands that waited for the search, until one starts another search.
    fn run_pending(&mut self) -> ControlFlow<()> {
        while self.active.is_none() {
            let Some(line) = self.pending.pop_front() else {
                break;
            };
            self.command(&line)?;
        }
        ControlFlow::Continue(())
    }

    fn stop(&mut self) -> ControlFlow<()> {
        let Some(active) = self.active.as_mut() else {
            return ControlFlow::Continue(());
        };
        active.stopped = true;
        active.restart = false;
        active.after_ponder = None;
        match active.held.take() {
            Some(best) => {
                self.active = None;
                self.emit_best(best.best.as_deref(), best.ponder.as_deref());
                self.run_pending()
            }
            None => {
                self.engine.stop();
                ControlFlow::Continue(())
            }
        }
    }

    fn ponder_hit(&mut self) -> ControlFlow<()> {
        let Some(active) = self.active.as_mut() else {
            return ControlFlow::Continue(());
        };
        if active.after_ponder.is_none() {
            return ControlFlow::Continue(());
        }
        match active.held.take() {
            // The pondering search ended by itself: its move is final.
            Some(best) => {
                self.active = None;
                self.emit_best(best.best.as_deref(), best.ponder.as_deref());
                self.run_pending()
            }
            None => {
                active.restart = true;
                self.engine.stop();
                ControlFlow::Continue(())
            }
        }
    }

    fn quit(&mut self) -> ControlFlow<()> {
        if let Some(mut active) = self.active.take() {
            self.engine.stop();
            let best = active.held.take().or_else(|| self.engine.wait());
            if let Some(best) = best {
                self.emit_best(best.best.as_deref(), best.ponder.as_deref());
            }
        }
        if self.dialect == Dialect::Ucci {
            self.say("bye");
        }
        ControlFlow::Break(())
    }

    fn end_of_input(&mut self) -> ControlFlow<()> {
        self.eof = true;
        let stop_now = match self.at_eof {
            // A GUI that went away leaves no search running.
            EndOfInput::Quit => self.active.is_some(),
            EndOfInput::FinishSearches => self.active.as_ref().is_some_and(|a| a.infinite),
        };
        if stop_now {
            return self.stop();
        }
        ControlFlow::Continue(())
    }

    fn emit_best(&self, best: Option<&str>, ponder: Option<&str>) {
        let line = match (self.dialect, best) {
            (Dialect::Uci, None) => "bestmove (none)".to_string(),
            (Dialect::Ucci, None) => "nobestmove".to_string(),
            (_, Some(m)) => match ponder {
                Some(p) => format!("bestmove {m} ponder {p}"),
                None => format!("bestmove {m}"),
            },
        };
        self.say(&line);
    }

    /// `go` on a finished game: the result as a score, and no move.
    fn game_over(&self, outcome: Outcome, turn: Side) {
        self.say(&format!("info string the game is over: {outcome}"));
        let score = match outcome.winner {
            None => Some(Score::Cp(0)),
            Some(w) if w != turn => Some(Score::Mate(0)),
            Some(_) => None,
        };
        if let Some(score) = score {
            match self.dialect {
                Dialect::Uci => {
                    // The game is decided: a draw is certain, not the model's guess.
                    let wdl = match score {
                        _ if !self.show_wdl => String::new(),
                        Score::Cp(_) => " wdl 0 1000 0".to_string(),
                        Score::Mate(_) => " wdl 0 0 1000".to_string(),
                    };
                    self.say(&format!("info depth 0 score {score}{wdl}"));
                }
                Dialect::Ucci => self.say(&format!("info depth 0 score {}", ucci_score(score))),
            }
        }
        self.emit_best(None, None);
    }

    /// `go perft N`: each move's count, then the total.
    fn perft(&self, depth: u32) {
        let Some(game) = self.mirror() else {
            self.complain("perft: the position could not be rebuilt");
            return;
        };
        let mut total = 0u64;
        let mut text = String::new();
        let result = game.divide_each(depth, self.engine.move_notation(), &mut |m, n| {
            total += n;
            text.push_str(&format!("{m}: {n}\n"));
            ControlFlow::Continue(())
        });
        match result {
            Ok(()) => {
                let total = if depth == 0 { 1 } else { total };
                self.say(&format!("{text}\nNodes searched: {total}"));
            }
            Err(e) => self.complain(&format!("perft: {e}")),
        }
    }
}

// ----- parsing ---------------------------------------------------------------------------

/// `line` without its first word and the spaces after it.
fn after_first_word(line: &str) -> &str {
    let line = line.trim_start();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    line[end..].trim_start()
}

/// The words of `text` with the byte offset where each starts.
fn words_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// `setoption name N [value V]` (UCI), or `setoption N [V]` (UCCI), given the text after
/// `setoption`: the name (its words joined by one space) and the value, which is the rest
/// of the line as sent, inner spacing kept, so that a file name with runs of spaces
/// survives.
///
/// ```text
/// name EvalFile value /nets/my  net.nnue  ->  ("EvalFile", Some("/nets/my  net.nnue"))
/// ```
fn parse_setoption(raw: &str) -> Result<(String, Option<String>), String> {
    let raw = raw.trim_end();
    let mut words = words_at(raw);
    let value_from = |start: usize| Some(raw[start..].to_string());
    match words.next() {
        None => Err("setoption needs an option name".into()),
        Some((_, first)) if first.eq_ignore_ascii_case("name") => {
            let mut name: Vec<&str> = Vec::new();
            let mut saw_value = false;
            let mut value = None;
            for (at, word) in words.by_ref() {
                if saw_value {
                    value = value_from(at);
                    break;
                }
                if word.eq_ignore_ascii_case("value") {
                    saw_value = true;
                } else {
                    name.push(word);
                }
            }
            if name.is_empty() {
                return Err("setoption name needs an option name".into());
            }
            if saw_value && value.is_none() {
                return Err(format!("option {} has an empty value", name.join(" ")));
            }
            Ok((name.join(" "), value))
        }
        // UCCI: the name is one word, the value the rest.
        Some((_, name)) => Ok((
            name.to_string(),
            words.next().and_then(|(at, _)| value_from(at)),
        )),
    }
}

/// A check option's value: `true`/`false` (UCCI also `on`/`off`); none means true.
fn parse_check(value: Option<&str>) -> Option<bool> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("true" | "on") => Some(true),
        Some("false" | "off") => Some(false),
        Some(_) => None,
    }
}

/// `startpos [moves …]` or `fen TEXT… [moves …]`: the position text and the moves.
fn parse_position(args: &[&str]) -> Result<(String, Vec<String>), String> {
    let (text, rest) = match args.split_first() {
        None => return Err("position needs startpos or fen".into()),
        Some((&"startpos", rest)) => ("start".to_string(), rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position fen needs a FEN or FEEN".into());
            }
            (rest[..end].join(" "), &rest[end..])
        }
        Some((other, _)) => {
            return Err(format!(
                "position needs startpos or fen, not '{}'",
                quote_input(other)
            ))
        }
    };
    match rest.split_first() {
        None => Ok((text, Vec::new())),
        Some((&"moves", moves)) => Ok((text, moves.iter().map(|m| m.to_string()).collect())),
        Some((other, _)) => Err(format!(
            "'{}' after the position is neither moves nor part of it",
            quote_input(other)
        )),
    }
}

/// A parsed `go`.
#[derive(Debug, Default)]
struct Go {
    limits: Limits,
    ponder: bool,
    perft: Option<u32>,
}

/// The keywords of `go` in both dialects (UCCI's only under UCCI).
const GO_KEYWORDS: [&str; 19] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "draw",
    "time",
    "increment",
    "opptime",
    "oppincrement",
    "oppmovestogo",
];

fn is_ucci_only(keyword: &str) -> bool {
    matches!(
        keyword,
        "draw" | "time" | "increment" | "opptime" | "oppincrement" | "oppmovestogo"
    )
}

/// Reads `go`'s parameters; `turn` (the side to move) places UCCI's own and opponent's times.
fn parse_go(args: &[&str], dialect: Dialect, millis: bool, turn: Side) -> Result<Go, String> {
    fn number<T: std::str::FromStr>(
        key: &str,
        value: Option<&&str>,
        what: &str,
    ) -> Result<T, String> {
        let value = value.ok_or_else(|| format!("go {key} needs {what}"))?;
        value
            .parse::<T>()
            .map_err(|_| format!("go {key}: '{}' is not {what}", quote_input(value)))
    }
    // UCI clock values: milliseconds, a negative one (a flag already fallen) read as 0.
    fn millis_value(key: &str, value: Option<&&str>) -> Result<Duration, String> {
        let v: i64 = number(key, value, "a number of milliseconds")?;
        Ok(Duration::from_millis(v.max(0) as u64))
    }
    // UCCI times: seconds, or milliseconds after `usemillisec`.
    let ucci_time = |key: &str, value: Option<&&str>| -> Result<Duration, String> {
        let what = if millis {
            "a number of milliseconds"
        } else {
            "a number of seconds"
        };
        let v: f64 = number(key, value, what)?;
        if !v.is_finite() {
            return Err(format!("go {key}: not {what}"));
        }
        let seconds = if millis { v / 1000.0 } else { v };
        Ok(Duration::from_secs_f64(seconds.clamp(0.0, 1e9)))
    };
    let mut go = Go::default();
    let mut clock = Clock::default();
    let mut clock_set = false;
    let me = turn.index();
    let them = 1 - me;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        let known = GO_KEYWORDS.contains(&key) && (dialect == Dialect::Ucci || !is_ucci_only(key));
        if !known {
            return Err(format!("unknown go parameter '{}'", quote_input(key)));
        }
        let mut takes_value = true;
        match key {
            "searchmoves" => {
                let moves: Vec<String> = args[i + 1..]
                    .iter()
                    .take_while(|w| !GO_KEYWORDS.contains(w))
                    .map(|w| w.to_string())
                    .collect();
                if moves.is_empty() {
                    return Err("go searchmoves needs at least one move".into());
                }
                i += moves.len();
                go.limits.search_moves = moves;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "infinite" => {
                go.limits.infinite = true;
                takes_value = false;
            }
            "draw" => takes_value = false,
            "wtime" => {
                clock.time[Side::First.index()] = millis_value(key, value)?;
                clock_set = true;
            }
            "btime" => {
                clock.time[Side::Second.index()] = millis_value(key, value)?;
                clock_set = true;
            }
            "winc" => clock.increment[Side::First.index()] = millis_value(key, value)?,
            "binc" => clock.increment[Side::Second.index()] = millis_value(key, value)?,
            "movestogo" | "oppmovestogo" => {
                let n: u32 = number(key, value, "a number of moves")?;
                // UCCI's opponent count does not limit this move.
                if key == "movestogo" {
                    clock.moves_to_go = (n > 0).then_some(n);
                }
            }
            "movetime" => {
                let ms: u64 = number(key, value, "a number of milliseconds")?;
                go.limits.movetime = Some(Duration::from_millis(ms));
            }
            "nodes" => go.limits.nodes = Some(number(key, value, "a number of nodes")?),
            "depth" => go.limits.depth = Some(number(key, value, "a depth in plies")?),
            "mate" => go.limits.mate = Some(number(key, value, "a number of moves")?),
            "perft" => go.perft = Some(number(key, value, "a depth in plies")?),
            "time" => {
                clock.time[me] = ucci_time(key, value)?;
                clock_set = true;
            }
            "increment" => clock.increment[me] = ucci_time(key, value)?,
            "opptime" => clock.time[them] = ucci_time(key, value)?,
            "oppincrement" => clock.increment[them] = ucci_time(key, value)?,
            _ => return Err(format!("unknown go parameter '{}'", quote_input(key))),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if clock_set {
        go.limits.clock = Some(clock);
    }
    // No limit at all: search until `stop`, as `go infinite`.
    let l = &go.limits;
    if l.clock.is_none()
        && l.movetime.is_none()
        && l.nodes.is_none()
        && l.depth.is_none()
        && l.mate.is_none()
    {
        go.limits.infinite = true;
    }
    Ok(go)
}

/// One `info` line of the dialect (UCCI shows the first line only); `wdl` (UCI) follows the
/// score, before a bound, as in Stockfish.
fn format_info(
    info: &SearchInfo,
    dialect: Dialect,
    wdl: Option<(u32, u32, u32)>,
) -> Option<String> {
    let pv = if info.pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", info.pv.join(" "))
    };
    match dialect {
        Dialect::Uci => {
            let bound = match info.bound {
                None => "",
                Some(ScoreBound::Lower) => " lowerbound",
                Some(ScoreBound::Upper) => " upperbound",
            };
            let wdl = wdl.map_or(String::new(), |(w, d, l)| format!(" wdl {w} {d} {l}"));
            Some(format!(
                "info depth {} seldepth {} multipv {} score {}{wdl}{bound} nodes {} nps {} time {} hashfull {}{pv}",
                info.depth,
                info.seldepth,
                info.multipv,
                info.score,
                info.nodes,
                info.nps,
                info.time.as_millis(),
                info.hashfull,
            ))
        }
        Dialect::Ucci => (info.multipv == 1).then(|| {
            format!(
                "info depth {} score {} time {} nodes {}{pv}",
                info.depth,
                ucci_score(info.score),
                info.time.as_millis(),
                info.nodes,
            )
        }),
    }
}

/// A score as UCCI writes it: centipawns, or ±(10000 − plies) for a forced end.
fn ucci_score(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE_UCCI - (2 * n - 1),
        Score::Mate(n) => -(MATE_UCCI + 2 * n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_text_is_everything_between_fen_and_moves() {
        let args: Vec<&str> = "fen rheag^aehr/9 / X/x moves h3e3 h10g8"
            .split_whitespace()
            .collect();
        let (text, moves) = parse_position(&args).unwrap();
        assert_eq!(text, "rheag^aehr/9 / X/x");
        assert_eq!(moves, ["h3e3", "h10g8"]);
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["fen", "moves", "a1a2"]).is_err());
        assert!(parse_position(&["startpos", "h3e3"]).is_err());
        assert!(parse_position(&["start"]).is_err());
        assert_eq!(parse_position(&["startpos"]).unwrap().0, "start");
    }

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            parse_setoption("name Skill Level value 3").unwrap(),
            ("Skill Level".into(), Some("3".into()))
        );
        assert_eq!(
            parse_setoption("name  Clear   Hash ").unwrap(),
            ("Clear Hash".into(), None)
        );
        assert_eq!(
            parse_setoption("usemillisec true").unwrap(),
            ("usemillisec".into(), Some("true".into()))
        );
        assert!(parse_setoption("name Hash value").is_err());
        assert!(parse_setoption("name Hash value   ").is_err());
        assert!(parse_setoption("").is_err());
        assert!(parse_setoption("name value 3").is_err());
    }

    #[test]
    fn setoption_values_keep_their_spacing() {
        assert_eq!(
            parse_setoption("name EvalFile value /nets/my  net\tv2.nnue \r").unwrap(),
            ("EvalFile".into(), Some("/nets/my  net\tv2.nnue".into()))
        );
        // The first `value` separates; later ones belong to the value.
        assert_eq!(
            parse_setoption("name EvalFile value a value  b").unwrap(),
            ("EvalFile".into(), Some("a value  b".into()))
        );
        assert_eq!(
            parse_setoption("evalfile /nets/two  spaces.nnue").unwrap(),
            ("evalfile".into(), Some("/nets/two  spaces.nnue".into()))
        );
        assert_eq!(after_first_word("  setoption  name X"), "name X");
        assert_eq!(after_first_word("setoption"), "");
    }

    #[test]
    fn go_reads_clocks_and_refuses_garbage() {
        let args: Vec<&str> = "wtime 1000 btime -5 winc 10 binc 20 movestogo 7"
            .split_whitespace()
            .collect();
        let go = parse_go(&args, Dialect::Uci, false, Side::First).unwrap();
        let clock = go.limits.clock.unwrap();
        assert_eq!(clock.time, [Duration::from_millis(1000), Duration::ZERO]);
        assert_eq!(
            clock.increment,
            [Duration::from_millis(10), Duration::from_millis(20)]
        );
        assert_eq!(clock.moves_to_go, Some(7));
        for bad in [
            "depth",
            "depth x",
            "frobnicate",
            "time 5",
            "searchmoves",
            "nodes -1",
        ] {
            let args: Vec<&str> = bad.split_whitespace().collect();
            assert!(
                parse_go(&args, Dialect::Uci, false, Side::First).is_err(),
                "{bad}"
            );
        }
        let args: Vec<&str> = "searchmoves h3e3 b3e3 depth 3".split_whitespace().collect();
        let go = parse_go(&args, Dialect::Uci, false, Side::First).unwrap();
        assert_eq!(go.limits.search_moves, ["h3e3", "b3e3"]);
        assert_eq!(go.limits.depth, Some(3));
    }

    #[test]
    fn ucci_times_are_seconds_unless_milliseconds_are_asked_for() {
        let args: Vec<&str> = "time 60 increment 2 opptime 30"
            .split_whitespace()
            .collect();
        let go = parse_go(&args, Dialect::Ucci, false, Side::Second).unwrap();
        let clock = go.limits.clock.unwrap();
        assert_eq!(
            clock.time,
            [Duration::from_secs(30), Duration::from_secs(60)]
        );
        assert_eq!(clock.increment[1], Duration::from_secs(2));
        let go = parse_go(&args, Dialect::Ucci, true, Side::First).unwrap();
        assert_eq!(go.limits.clock.unwrap().time[0], Duration::from_millis(60));
    }

    #[test]
    fn ucci_scores() {
        assert_eq!(ucci_score(Score::Cp(-35)), -35);
        assert_eq!(ucci_score(Score::Mate(1)), 9_999);
        assert_eq!(ucci_score(Score::Mate(-1)), -9_998);
        assert_eq!(ucci_score(Score::Mate(0)), -10_000);
    }
}
