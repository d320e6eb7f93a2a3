//! Xiangqi moves as text: PMN, UCI coordinates, ICCS, WXF, the teaching notation and the
//! Chinese notation.

use chuhe_notation::error::shorten;
use chuhe_notation::{Cell, MoveOp, Pmn};

use super::bitboard::Square;
use super::position::Position;
use super::types::{Move, Role};
use crate::error::{not_a_move, starts_with_square};
use crate::{MoveError, MoveNotation};

impl Position {
    /// The canonical PMN of a move: `h3-e3`; a capture `b3+b10`. The river crossing
    /// (`S` → `+S`) is implied by the rules and not written.
    ///
    /// ```
    /// use chuhe::xiangqi::{MoveNotation, Position};
    /// use chuhe::GamePosition;
    /// let pos = Position::start();
    /// let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
    /// assert_eq!(pos.to_pmn(m), "h3-e3");
    /// assert_eq!(pos.move_to_text(m, MoveNotation::Iccs).unwrap(), "h2e2");
    /// ```
    pub fn to_pmn(&self, m: Move) -> String {
        let op = if self.is_capture(m) { '+' } else { '-' };
        format!("{}{op}{}", m.from(), m.to())
    }

    /// Writes a move in a notation (every notation is Xiangqi's).
    pub(crate) fn write_move(&self, m: Move, notation: MoveNotation) -> String {
        match notation {
            MoveNotation::Pmn => self.to_pmn(m),
            MoveNotation::Uci => m.to_string(),
            MoveNotation::Iccs => format!("{}{}", iccs_square(m.from()), iccs_square(m.to())),
            MoveNotation::Teaching => {
                format!("{}{}", teaching_square(m.from()), teaching_square(m.to()))
            }
            MoveNotation::Wxf => super::wxf::to_wxf(self, m),
            MoveNotation::Chinese => super::chinese::to_chinese(self, m),
            MoveNotation::San => super::san::to_san(self, m),
        }
    }

    /// Resolves a move in PMN or UCI coordinates (the two are told apart by their shape).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let result = if text.contains(['-', '+', '~', '*', '.', '=']) || text.is_empty() {
            self.parse_pmn(text)
        } else {
            self.read_move(text, MoveNotation::Uci)
        };
        match result {
            Err(MoveError::Syntax { .. }) if !starts_with_square(text) => {
                Err(not_a_move(text, ("h3-e3", "h3e3")))
            }
            other => other,
        }
    }

    /// Resolves a move written in `notation` to a legal move of this position (PMN input
    /// also accepts UCI coordinates, as Xiongqi's does).
    pub(crate) fn read_move(&self, text: &str, notation: MoveNotation) -> Result<Move, MoveError> {
        let m = match notation {
            MoveNotation::Pmn => return self.parse_move(text),
            MoveNotation::Uci => coordinates(text, text, parse_cell)?,
            MoveNotation::Iccs => {
                let t = text.to_ascii_lowercase().replace('-', "");
                coordinates(&t, text, parse_iccs_square)?
            }
            MoveNotation::Teaching => {
                if text.len() != 4 || !text.is_ascii() {
                    return Err(MoveError::syntax(
                        text,
                        "the teaching notation has four characters, like h1g3",
                    ));
                }
                let from = parse_teaching_square(&text[..2], text)?;
                let to = parse_teaching_square(&text[2..], text)?;
                Move::new(from, to)
            }
            MoveNotation::Wxf => return super::wxf::parse_wxf(self, text),
            MoveNotation::Chinese => return super::chinese::parse_chinese(self, text),
            MoveNotation::San => return super::san::parse_san(self, text),
        };
        self.check_move(m)?;
        Ok(m)
    }

    fn parse_pmn(&self, text: &str) -> Result<Move, MoveError> {
        let pmn = Pmn::parse(text).map_err(|e| {
            MoveError::syntax(
                text,
                &format!("expected PMN such as h3-e3 or coordinates such as h3e3 ({e})"),
            )
        })?;
        let Pmn::Move {
            from,
            to,
            op,
            transform,
            captured,
        } = pmn
        else {
            return Err(MoveError::illegal(
                "Xiangqi has only moves from one point to another (no drops, passes or changes in place)",
            ));
        };
        let m = Move::new(square(from)?, square(to)?);
        self.check_move(m)?;
        if captured.is_some() {
            return Err(MoveError::illegal(
                "a captured piece enters the hand unchanged: write no '/' suffix",
            ));
        }
        if let Some(t) = transform {
            let piece = self.piece_at(m.from());
            let implied = piece.is_some_and(|p| {
                p.role == Role::Soldier
                    && Position::is_across_river(p.side, m.to())
                    && t.pin == p.pin(true)
                    && !t.derived
            });
            if !implied {
                return Err(MoveError::illegal(format!(
                    "Xiangqi pieces never change, except the soldier crossing the river ('{t}' is not that): write {}",
                    self.to_pmn(m)
                )));
            }
        }
        let capture = self.is_capture(m);
        match op {
            MoveOp::Quiet if capture => Err(MoveError::illegal(format!(
                "{} holds an enemy piece, so this is a capture: write {}",
                m.to(),
                self.to_pmn(m)
            ))),
            MoveOp::Capture if !capture => Err(MoveError::illegal(format!(
                "{} is empty, so nothing is captured: write {}",
                m.to(),
                self.to_pmn(m)
            ))),
            MoveOp::Special => Err(MoveError::illegal(format!(
                "Xiangqi has no special moves ('~'): write {}",
                self.to_pmn(m)
            ))),
            _ => Ok(m),
        }
    }

    /// `Ok` when `m` is legal here (history aside), else a reason a person understands.
    pub fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if let Some(o) = self.static_outcome() {
            return Err(MoveError::GameOver { outcome: o });
        }
        let piece = self.piece_at(m.from()).ok_or(MoveError::NoPiece {
            square: m.from().to_string(),
        })?;
        if piece.side != self.turn {
            return Err(MoveError::NotYourPiece {
                square: m.from().to_string(),
                piece: piece.to_string(),
                owner: piece.side.as_str(),
                turn: self.turn.as_str(),
            });
        }
        if self.is_legal(m) {
            return Ok(());
        }
        let name = role_name(piece.role);
        if self.piece_at(m.to()).is_some_and(|p| p.side == piece.side) {
            return Err(MoveError::illegal(format!(
                "the {name} on {} cannot go to {}: its own piece stands there",
                m.from(),
                m.to()
            )));
        }
        let mut probe = self.clone();
        probe.rules = super::types::RuleSet::Capture;
        if probe.is_legal(m) {
            Err(MoveError::illegal(format!(
                "the {name} on {} cannot go to {}: its general would be in check or face the other general",
                m.from(),
                m.to()
            )))
        } else {
            Err(MoveError::illegal(format!(
                "the {name} on {} cannot go to {} by its movement rules",
                m.from(),
                m.to()
            )))
        }
    }
}

/// The English name of a role.
pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::General => "general",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Chariot => "chariot",
        Role::Cannon => "cannon",
        Role::Soldier => "soldier",
    }
}

fn square(cell: Cell) -> Result<Square, MoveError> {
    Square::from_cell(cell).ok_or(MoveError::UnknownSquare {
        square: cell.to_string(),
        board: "a1–i10",
    })
}

fn parse_cell(s: &str, text: &str) -> Result<Square, MoveError> {
    let cell = Cell::parse(s).map_err(|e| MoveError::syntax(text, &e.to_string()))?;
    square(cell)
}

fn iccs_square(s: Square) -> String {
    format!("{}{}", (b'a' + s.file()) as char, s.rank())
}

fn teaching_square(s: Square) -> String {
    format!("{}{}", (b'a' + s.file()) as char, (s.rank() + 1) % 10)
}

fn parse_iccs_square(s: &str, text: &str) -> Result<Square, MoveError> {
    match s.as_bytes() {
        [f @ b'a'..=b'i', r @ b'0'..=b'9'] => {
            Ok(Square::from_coords(f - b'a', r - b'0').expect("in range"))
        }
        _ => Err(MoveError::syntax(
            text,
            &format!(
                "'{}' is not an ICCS point (files a–i, ranks 0–9)",
                shorten(s)
            ),
        )),
    }
}

fn parse_teaching_square(s: &str, text: &str) -> Result<Square, MoveError> {
    match s.as_bytes() {
        [f @ b'a'..=b'i', r @ b'0'..=b'9'] => {
            let rank = if *r == b'0' { 9 } else { r - b'1' };
            Ok(Square::from_coords(f - b'a', rank).expect("in range"))
        }
        _ => Err(MoveError::syntax(
            text,
            &format!(
                "'{}' is not a point of the teaching notation (files a–i, ranks 1–9 and 0)",
                shorten(s)
            ),
        )),
    }
}

/// Splits `e3e4`-like text into two squares (letters then digits, twice).
fn coordinates(
    t: &str,
    text: &str,
    parse: fn(&str, &str) -> Result<Square, MoveError>,
) -> Result<Move, MoveError> {
    let b = t.as_bytes();
    let cell_end = |start: usize| -> Option<usize> {
        let mut i = start;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        let d = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > d && d > start).then_some(i)
    };
    let first = cell_end(0);
    let second = first.and_then(cell_end);
    match (first, second) {
        (Some(f), Some(s)) if s == b.len() => {
            Ok(Move::new(parse(&t[..f], text)?, parse(&t[f..], text)?))
        }
        _ => Err(MoveError::syntax(text, "expected two points such as h3e3")),
    }
}
