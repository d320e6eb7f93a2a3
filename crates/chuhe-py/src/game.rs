//! `chuhe.Game` and `chuhe.Move`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use chuhe::{AnyGame, GameKind, Glyphs, MoveNotation, Outcome, PositionFormat, Side, Status};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::{new_game, new_game_at, new_pos, DynGame, DynPos};
use crate::errors::{move_error, position_error, IllegalMoveError, InvalidMoveError};
use crate::pyenv::{buffer, items, read_action};

/// The most earlier positions an observation shows.
pub const MAX_HISTORY: usize = 64;

/// Checks an observation's `history` (0 to [`MAX_HISTORY`]).
pub fn check_history(history: usize) -> PyResult<()> {
    if history > MAX_HISTORY {
        return Err(PyValueError::new_err(format!(
            "history must be 0 to {MAX_HISTORY}, not {history}"
        )));
    }
    Ok(())
}

/// Reads a game name: a native game's, or `rules:DIR` for a game directory ([`crate::rules`]).
pub fn parse_kind(name: &str) -> PyResult<GameKind> {
    if let Some(dir) = name.strip_prefix(crate::rules::PREFIX) {
        return crate::rules::kind_of(dir);
    }
    name.parse::<GameKind>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Reads a notation name, checking the game writes it.
pub fn parse_notation(kind: GameKind, name: &str) -> PyResult<MoveNotation> {
    let n: MoveNotation = name
        .parse()
        .map_err(|e: chuhe::UnknownNotation| InvalidMoveError::new_err(e.to_string()))?;
    if !kind.notations().contains(&n) {
        let names: Vec<_> = kind.notations().iter().map(|n| n.name()).collect();
        return Err(InvalidMoveError::new_err(format!(
            "{kind} moves are not written in {n} ({})",
            names.join(", ")
        )));
    }
    Ok(n)
}

/// A move, bound to the position it was generated or read in (so that it can be written in
/// every notation of its game). `str(move)` is its default notation (PMN).
#[pyclass(module = "chuhe", frozen)]
#[derive(Clone)]
pub struct Move {
    pub(crate) pos: Arc<dyn DynPos>,
    pub(crate) bits: u16,
}

impl Move {
    pub(crate) fn text_in(&self, n: MoveNotation) -> PyResult<String> {
        self.pos
            .move_text(self.bits, n)
            .map_err(|e| move_error(&e, &self.bits.to_string(), &self.pos.feen()))
    }
}

#[pymethods]
impl Move {
    /// The move in `notation` (`pmn`, `uci`; Xiangqi also `iccs`, `wxf`, `teaching`, `chinese`).
    #[pyo3(signature = (notation = "pmn"))]
    fn text(&self, notation: &str) -> PyResult<String> {
        self.text_in(parse_notation(self.pos.kind(), notation)?)
    }

    /// Coordinate form (`e3e4`, `e7e8e`, `b3b10`).
    #[getter]
    fn uci(&self) -> PyResult<String> {
        self.text_in(MoveNotation::Uci)
    }

    /// Origin square (CELL, `e3`).
    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn from_square(&self) -> String {
        self.pos
            .move_parts(self.bits)
            .map(|p| p.0)
            .unwrap_or_default()
    }

    /// Destination square (CELL).
    #[getter]
    fn to_square(&self) -> String {
        self.pos
            .move_parts(self.bits)
            .map(|p| p.1)
            .unwrap_or_default()
    }

    /// The choice among moves joining the same squares: 0, or 1–6 for Xiongqi's promotions
    /// (E, A, C, R, B, H).
    #[getter]
    fn choice(&self) -> usize {
        self.pos.move_parts(self.bits).map_or(0, |p| p.2)
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.pos.kind().name()
    }

    /// The FEEN of the position the move is played from.
    #[getter]
    fn position(&self) -> String {
        self.pos.feen()
    }

    fn __str__(&self) -> PyResult<String> {
        self.text_in(MoveNotation::Pmn)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Move('{}')", self.text_in(MoveNotation::Pmn)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Move>().is_ok_and(|o| {
            let o = o.get();
            o.bits == self.bits && o.pos.kind() == self.pos.kind()
        })
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.bits, self.pos.kind()).hash(&mut h);
        h.finish()
    }

    /// Pickles as its game, position and encoding.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String, String, u16))> {
        let restore = py
            .import("chuhe._chuhe")?
            .getattr("_restore_move")?
            .unbind();
        Ok((
            restore,
            (
                crate::rules::game_id(self.pos.kind()),
                self.pos.feen(),
                self.bits,
            ),
        ))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        // Frozen: a move never changes, so a copy may be the move itself.
        slf
    }
}

/// Rebuilds a pickled `Move`: the move with encoding `bits` in the position `feen`.
#[pyfunction]
pub fn _restore_move(game: &str, feen: &str, bits: u16) -> PyResult<Move> {
    let kind = parse_kind(game)?;
    let pos = new_pos(kind, feen).map_err(|e| position_error(&e, kind.name(), feen))?;
    if pos.move_parts(bits).is_none() {
        return Err(InvalidMoveError::new_err(format!(
            "no {kind} move has the encoding {bits}"
        )));
    }
    Ok(Move { pos, bits })
}

/// Every move the pieces of the side to move can make in the `xiangqi-capture` position
/// `position` (FEN or FEEN), as (from, to) squares, even when a general is gone and the game
/// is over. gym-xiangqi's environment (`chuhe.gym_xiangqi.XiangQiEnv`) still lists the moves
/// of both sides after a general's capture; nothing else should need this.
#[pyfunction]
pub fn _capture_moves_past_end(position: &str) -> PyResult<Vec<(String, String)>> {
    use chuhe::xiangqi::{MoveList, Position, RuleSet};
    let kind = GameKind::XiangqiCapture;
    let pos = Position::from_text(position, RuleSet::Capture)
        .map_err(|e| position_error(&e, kind.name(), position))?;
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    Ok(list
        .iter()
        .map(|m| (m.from().to_string(), m.to().to_string()))
        .collect())
}

/// A pickled game: name, start FEEN, its half-move clock, the moves in coordinate form and
/// the result (status, winner) if the game is over.
type GameState = (
    String,
    String,
    u32,
    Vec<String>,
    Option<(String, Option<String>)>,
);

/// Rebuilds a pickled `Game`: the moves are replayed through the arbiter, then a result
/// declared outside the rules (a resignation, an agreed draw) is declared again.
#[pyfunction]
#[pyo3(signature = (game, start, halfmove, moves, outcome))]
pub fn _restore_game(
    game: &str,
    start: &str,
    halfmove: u32,
    moves: Vec<String>,
    outcome: Option<(String, Option<String>)>,
) -> PyResult<Game> {
    let kind = parse_kind(game)?;
    let outcome = match outcome {
        Some((status, winner)) => {
            let status = status
                .parse::<Status>()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let winner = winner.as_deref().map(side_named).transpose()?;
            Some(Outcome::new(status, winner))
        }
        None => None,
    };
    Ok(Game {
        inner: rebuild(kind, start, halfmove, &moves, outcome)?,
    })
}

/// A game of `kind` from `start` (FEN or FEEN) with its half-move clock, the `moves` (in
/// coordinate form) replayed through the arbiter, then `outcome` declared when the rules
/// reach none (a resignation, an agreed draw).
fn rebuild(
    kind: GameKind,
    start: &str,
    halfmove: u32,
    moves: &[String],
    outcome: Option<Outcome>,
) -> PyResult<Box<dyn DynGame>> {
    let mut inner =
        new_game_at(kind, start, halfmove).map_err(|e| position_error(&e, kind.name(), start))?;
    for text in moves {
        let feen = inner.to_feen();
        let bits = inner
            .parse(text, Some(MoveNotation::Uci))
            .map_err(|e| move_error(&e, text, &feen))?;
        inner
            .push_bits(bits)
            .map_err(|e| move_error(&e, text, &feen))?;
    }
    if let (Some(outcome), None) = (outcome, inner.outcome()) {
        inner.declare(outcome);
    }
    Ok(inner)
}

/// The `Game` of a game read from a record (PCN or PGN), through its start and moves.
fn of_record(game: &dyn AnyGame) -> PyResult<Game> {
    let kind = game.kind();
    let start = game
        .start_text(PositionFormat::Fen)
        .unwrap_or_else(|_| game.start_feen());
    Ok(Game {
        inner: rebuild(
            kind,
            &start,
            game.start_halfmove(),
            &game.moves_uci(),
            game.outcome(),
        )?,
    })
}

/// Every game of a PGN text, in order (Xiangqi; SAN or the coordinate notations the
/// `Format` tag names). A game the rules refuse raises `ValueError` with its line.
#[pyfunction]
pub fn _read_pgn(text: &str) -> PyResult<Vec<Game>> {
    let mut games = Vec::new();
    for (i, read) in chuhe::pgn::read_all(text).enumerate() {
        let pgn = read.map_err(|refusal| {
            PyValueError::new_err(format!("PGN game {}: {}", i + 1, refusal.error))
        })?;
        games.push(of_record(pgn.game.as_ref())?);
    }
    Ok(games)
}

fn side_named(name: &str) -> PyResult<Side> {
    match name {
        "first" => Ok(Side::First),
        "second" => Ok(Side::Second),
        other => Err(PyValueError::new_err(format!(
            "unknown side '{}' (first, second)",
            chuhe::quote_input(other)
        ))),
    }
}

/// A game of `xiongqi`, `xiangqi` or `xiangqi-capture` with its history, judged by chuhe's
/// arbiter: `Game("xiangqi")`, `Game("xiongqi", position=FEEN)`.
#[pyclass(module = "chuhe")]
pub struct Game {
    pub(crate) inner: Box<dyn DynGame>,
}

impl Game {
    fn mv(&self, bits: u16, pos: &Arc<dyn DynPos>) -> Move {
        Move {
            pos: pos.clone(),
            bits,
        }
    }

    /// Reads a `Move` (of this position) or move text into an encoding.
    pub(crate) fn read_move(&self, m: &Bound<'_, PyAny>, notation: Option<&str>) -> PyResult<u16> {
        let kind = self.inner.kind();
        if let Ok(mv) = m.downcast::<Move>() {
            let mv = mv.get();
            if mv.pos.kind() != kind {
                return Err(InvalidMoveError::new_err(format!(
                    "a {} move cannot be played in a {kind} game",
                    mv.pos.kind()
                )));
            }
            return Ok(mv.bits);
        }
        let text: String = m.extract().map_err(|_| {
            PyTypeError::new_err("a move is a chuhe.Move or its text (str), e.g. 'e3-e4'")
        })?;
        let n = notation.map(|n| parse_notation(kind, n)).transpose()?;
        self.inner
            .parse(&text, n)
            .map_err(|e| move_error(&e, &text, &self.inner.to_feen()))
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game = "xiongqi", position = None))]
    fn new(game: &str, position: Option<&str>) -> PyResult<Game> {
        let kind = parse_kind(game)?;
        let text = position.unwrap_or("start");
        let inner = new_game(kind, text).map_err(|e| position_error(&e, kind.name(), text))?;
        Ok(Game { inner })
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.kind().name()
    }

    /// The name that `Game(...)` and the environments read back: the game's name, or
    /// `rules:DIR` for a game read from rule files.
    #[getter]
    fn _game_id(&self) -> String {
        crate::rules::game_id(self.inner.kind())
    }

    /// The notations the game writes, its default first.
    #[getter]
    fn notations(&self) -> Vec<&'static str> {
        self.inner.notations().iter().map(|n| n.name()).collect()
    }

    /// The legal moves (history included), sorted by their text; none once the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        let pos = self.inner.position();
        self.inner
            .legal_bits()
            .into_iter()
            .map(|b| self.mv(b, &pos))
            .collect()
    }

    /// Reads a move of this position: in `notation`, or any notation of the game when omitted.
    #[pyo3(signature = (text, notation = None))]
    fn parse_move(&self, text: &Bound<'_, PyAny>, notation: Option<&str>) -> PyResult<Move> {
        let bits = self.read_move(text, notation)?;
        Ok(self.mv(bits, &self.inner.position()))
    }

    /// Plays a move (a `Move`, or text in any notation of the game); returns it.
    #[pyo3(signature = (move_, notation = None))]
    fn push(&mut self, move_: &Bound<'_, PyAny>, notation: Option<&str>) -> PyResult<Move> {
        let bits = self.read_move(move_, notation)?;
        let pos = self.inner.position();
        let feen = self.inner.to_feen();
        self.inner.push_bits(bits).map_err(|e| {
            let text = pos
                .move_text(bits, MoveNotation::Pmn)
                .unwrap_or_else(|_| bits.to_string());
            move_error(&e, &text, &feen)
        })?;
        Ok(self.mv(bits, &pos))
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let (bits, pos) = self.inner.pop_bits().ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err("pop from a game with no moves")
        })?;
        Ok(self.mv(bits, &pos))
    }

    /// The moves played.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.inner
            .stack()
            .into_iter()
            .map(|(b, p)| Move { pos: p, bits: b })
            .collect()
    }

    /// The CGSN status once the game is over (`checkmate`, `stalemate`, `repetition`, …),
    /// else `None`.
    #[getter]
    fn status(&self) -> Option<&'static str> {
        self.inner.outcome().map(|o| o.status.as_str())
    }

    /// `"first"`, `"second"`, or `None` (a draw, or the game goes on).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner
            .outcome()
            .and_then(|o| o.winner)
            .map(|s| s.as_str())
    }

    /// Is the game over?
    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// Is the side to move in check?
    fn is_check(&self) -> bool {
        self.inner.is_check()
    }

    /// `"first"` or `"second"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.inner.turn().as_str()
    }

    /// The half-move clock.
    #[getter]
    fn halfmove(&self) -> u32 {
        self.inner.halfmove()
    }

    /// The current position as FEEN.
    #[getter]
    fn feen(&self) -> String {
        self.inner.to_feen()
    }

    /// The current position as a standard FEN (Xiangqi only).
    #[getter]
    fn fen(&self) -> PyResult<String> {
        self.inner
            .to_text(PositionFormat::Fen)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Perft from the current position, history counting where the rules say so. The GIL is
    /// released while counting.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let inner = &self.inner;
        py.allow_threads(|| inner.perft(depth))
    }

    /// The board as text; `glyphs="chinese"` for Chinese characters.
    #[pyo3(signature = (glyphs = "latin"))]
    fn board(&self, glyphs: &str) -> PyResult<String> {
        Ok(self.inner.board_text(glyphs_of(glyphs)?))
    }

    /// The board as an SVG picture: `flipped` puts the second player at the bottom,
    /// `last_move` marks the last move played, `arrows` are pairs of squares (`"e3e5"`).
    #[pyo3(signature = (glyphs = "chinese", flipped = false, size = 400, last_move = true, arrows = Vec::new()))]
    fn svg(
        &self,
        glyphs: &str,
        flipped: bool,
        size: u32,
        last_move: bool,
        arrows: Vec<String>,
    ) -> PyResult<String> {
        if !(16..=4096).contains(&size) {
            return Err(PyValueError::new_err(format!(
                "size {size} is out of range (16–4096 pixels)"
            )));
        }
        let options = chuhe::SvgOptions {
            glyphs: glyphs_of(glyphs)?,
            flipped,
            size: Some(size),
            last_move,
            arrows,
            square_targets: false,
        };
        self.inner
            .board_svg(&options)
            .map_err(|e| PyValueError::new_err(format!("arrows: {e}")))
    }

    /// The board for notebooks (Jupyter shows SVG).
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg("chinese", false, 400, true, Vec::new())
    }

    /// A copy with the same history.
    fn copy(&self) -> Game {
        Game {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    /// Pickles as its start, moves and result (the moves are replayed when unpickled).
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, GameState)> {
        let restore = py
            .import("chuhe._chuhe")?
            .getattr("_restore_game")?
            .unbind();
        let (start, halfmove) = self.inner.start();
        let outcome = self.inner.outcome().map(|o| {
            (
                o.status.as_str().to_string(),
                o.winner.map(|w| w.as_str().to_string()),
            )
        });
        Ok((
            restore,
            (
                crate::rules::game_id(self.inner.kind()),
                start,
                halfmove,
                self.inner.moves_uci(),
                outcome,
            ),
        ))
    }

    /// The observation of the current position as the environments give it:
    /// `float32[planes, ranks, files]` from the side to move's view (or `side`'s:
    /// `"first"`, `"second"`), with the piece planes of `history` earlier positions (0 to
    /// 64). `chuhe.observe` does many games at once.
    ///
    /// ```python
    /// obs = chuhe.Game("xiangqi").observation(history=2)   # shape (44, 10, 9)
    /// ```
    #[pyo3(signature = (history = 0, side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        history: usize,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        check_history(history)?;
        let side = match side {
            Some(name) => side_named(name)?,
            None => self.inner.turn(),
        };
        let spec = self.inner.spec(history);
        let np = py.import("numpy")?;
        let obs = np.call_method1("empty", ((spec.planes, spec.ranks, spec.files), "float32"))?;
        let ob = buffer::<f32>(&obs, spec.obs_len(), "obs")?;
        // SAFETY: the array was made above and is held for the call.
        self.inner.observe_as(side, history, unsafe { items(&ob) });
        Ok(obs)
    }

    /// The legal actions (the environments' integer encoding, from the side to move's
    /// view), ascending; none once the game is over.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// Plays the move an action stands for (an int of the action space); returns it. An
    /// action that is no legal move raises `IllegalMoveError`, one outside the space
    /// `ValueError`; a move the history forbids (Xiongqi's X6) is played and loses, as
    /// `push` does.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Move> {
        let spec = self.inner.spec(0);
        let a = read_action(action, spec.actions)?;
        let feen = self.inner.to_feen();
        let bits = self.inner.action_bits(a).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "action {a} stands for no move in position {feen} (its two squares are one)"
            ))
        })?;
        let pos = self.inner.position();
        self.inner.push_bits(bits).map_err(|e| {
            let text = pos
                .move_text(bits, MoveNotation::Uci)
                .unwrap_or_else(|_| bits.to_string());
            move_error(&e, &format!("{text} (action {a})"), &feen)
        })?;
        Ok(self.mv(bits, &pos))
    }

    /// The action of a move of the current position (a `Move` or its text).
    fn encode_move(&self, move_: &Bound<'_, PyAny>) -> PyResult<usize> {
        let bits = self.read_move(move_, None)?;
        self.inner
            .bits_action(bits)
            .ok_or_else(|| InvalidMoveError::new_err("not a move of this game"))
    }

    /// The move an action stands for in the current position (legal or not), or `None`
    /// when its two squares are one; an action outside the space raises `ValueError`.
    fn decode_action(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
        let a = read_action(action, self.inner.spec(0).actions)?;
        Ok(self
            .inner
            .action_bits(a)
            .map(|bits| self.mv(bits, &self.inner.position())))
    }

    /// The game as a PCN record (JSON): start, moves in PMN, status and winner once over,
    /// the game's name in `meta.game`.
    fn to_pcn(&self) -> String {
        chuhe::record::to_pcn(self.inner.as_any_game(), &[]).to_json_pretty()
    }

    /// The game of a PCN record (JSON), every move checked by the rules; its status and
    /// winner checked too (a result the rules cannot see, such as a resignation, is
    /// declared).
    #[staticmethod]
    fn from_pcn(text: &str) -> PyResult<Game> {
        let game = chuhe::record::read(text)
            .map_err(|e| PyValueError::new_err(format!("PCN record: {e}")))?;
        of_record(game.as_ref())
    }

    /// The game as PGN (Xiangqi only): `tags` (a dict, or a list of pairs) adds to or
    /// replaces the default tags; moves in `notation` (`san`, or `iccs`, `wxf`, `chinese`,
    /// `uci` with a `Format` tag).
    #[pyo3(signature = (tags = None, notation = "san"))]
    fn to_pgn(&self, tags: Option<&Bound<'_, PyAny>>, notation: &str) -> PyResult<String> {
        let tags: Option<Vec<(String, String)>> = match tags {
            None => None,
            Some(t) => {
                let pairs = match t.downcast::<pyo3::types::PyDict>() {
                    Ok(d) => d.items().into_any(),
                    Err(_) => t.clone(),
                };
                Some(pairs.extract().map_err(|_| {
                    PyTypeError::new_err("tags: a dict of str to str, or a list of (str, str)")
                })?)
            }
        };
        let n: MoveNotation = notation
            .parse()
            .map_err(|e: chuhe::UnknownNotation| PyValueError::new_err(e.to_string()))?;
        chuhe::pgn::write_in(
            self.inner.as_any_game(),
            &tags.unwrap_or_default(),
            &[],
            &[],
            n,
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The first game of a PGN text (see `chuhe.read_pgn` for all of them).
    #[staticmethod]
    fn from_pgn(text: &str) -> PyResult<Game> {
        let pgn = chuhe::pgn::read(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        of_record(pgn.game.as_ref())
    }

    /// `side` (`"first"` or `"second"`) resigns: the game ends, won by the other side.
    fn resign(&mut self, side: &str) -> PyResult<()> {
        let side = side_named(side)?;
        self.inner.resign(side);
        Ok(())
    }

    /// The players agree to a draw: the game ends drawn.
    fn agree_draw(&mut self) {
        self.inner.agree_draw();
    }

    fn __str__(&self) -> String {
        self.inner.board_text(Glyphs::Latin)
    }

    fn __repr__(&self) -> String {
        format!("Game('{}', '{}')", self.inner.kind(), self.inner.to_feen())
    }
}

/// The glyph set named `name`.
fn glyphs_of(name: &str) -> PyResult<Glyphs> {
    match name {
        "latin" => Ok(Glyphs::Latin),
        "chinese" => Ok(Glyphs::Chinese),
        other => Err(PyValueError::new_err(format!(
            "unknown glyphs '{}' (latin, chinese)",
            chuhe::quote_input(other)
        ))),
    }
}
