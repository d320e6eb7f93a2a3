//! `chuhe.Game` and `chuhe.Move`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use chuhe::{GameKind, Glyphs, MoveNotation, Outcome, PositionFormat, Side, Status};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::{new_game, new_game_at, new_pos, DynGame, DynPos};
use crate::errors::{move_error, position_error, InvalidMoveError};

/// Reads a game name.
pub fn parse_kind(name: &str) -> PyResult<GameKind> {
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
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (&'static str, String, u16))> {
        let restore = py
            .import("chuhe._chuhe")?
            .getattr("_restore_move")?
            .unbind();
        Ok((
            restore,
            (self.pos.kind().name(), self.pos.feen(), self.bits),
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
    &'static str,
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
    let mut inner =
        new_game_at(kind, start, halfmove).map_err(|e| position_error(&e, kind.name(), start))?;
    for text in &moves {
        let feen = inner.to_feen();
        let bits = inner
            .parse(text, Some(MoveNotation::Uci))
            .map_err(|e| move_error(&e, text, &feen))?;
        inner
            .push_bits(bits)
            .map_err(|e| move_error(&e, text, &feen))?;
    }
    if let (Some((status, winner)), None) = (outcome, inner.outcome()) {
        let status = status
            .parse::<Status>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let winner = winner.as_deref().map(side_named).transpose()?;
        inner.declare(Outcome::new(status, winner));
    }
    Ok(Game { inner })
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
                self.inner.kind().name(),
                start,
                halfmove,
                self.inner.moves_uci(),
                outcome,
            ),
        ))
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
