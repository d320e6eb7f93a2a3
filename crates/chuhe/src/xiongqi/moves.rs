//! Moves as text: canonical PMN out, PMN or coordinate form in.

use std::fmt;

use chuhe_notation::{Cell, MoveOp, Pmn, Side};

use super::bitboard::Square;
use super::position::{across_river, far_rank, Position};
use super::types::{Move, Piece, Role};
use crate::error::{not_a_move, starts_with_square};
use crate::MoveError;

impl Position {
    /// The canonical PMN of a move in this position: `e3-e4`, `e4+e5`, `d7-d8=E`, `d1~e1`.
    ///
    /// ```
    /// use chuhe::xiongqi::Position;
    /// let pos = Position::start();
    /// let m = pos.parse_move("e3e4").unwrap();
    /// assert_eq!(pos.to_pmn(m), "e3-e4");
    /// ```
    pub fn to_pmn(&self, m: Move) -> String {
        let op = if self.triggers_face_to_face(m) {
            '~'
        } else if self.is_capture(m) {
            '+'
        } else {
            '-'
        };
        let mut s = format!("{}{}{}", m.from(), op, m.to());
        if let Some(role) = m.promotion() {
            let letter = match self.turn {
                Side::First => role.letter(),
                Side::Second => role.letter().to_ascii_lowercase(),
            };
            s.push('=');
            s.push(letter);
        }
        s
    }

    /// Resolves a move written in PMN (`e3-e4`, `d7+e8=R`, `d1~e1`; the implied `=+S` of a
    /// river crossing is accepted) or in coordinate form (`e3e4`, `e7e8e`) against this
    /// position. Game end and repetition are the [`crate::xiongqi::Game`]'s business.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = |reason: &str| MoveError::Syntax {
            text: chuhe_notation::error::shorten(text).into_owned(),
            reason: reason.to_string(),
        };
        if let Some((from, to, promo)) = crate::variant::split_coordinates(text) {
            let from = square_of(from, text)?;
            let to = square_of(to, text)?;
            let promotion = match promo {
                None => None,
                Some(c) => Some(
                    Role::promotion_from_letter(c)
                        .ok_or_else(|| syntax("the promotion letter must be one of e a c r b h"))?,
                ),
            };
            let m = Move::new(from, to, promotion);
            self.check_movement(m)?;
            return Ok(m);
        }
        let pmn = Pmn::parse(text).map_err(|e| {
            if starts_with_square(text) {
                syntax(&format!(
                    "expected PMN such as e3-e4 or coordinates such as e3e4 ({e})"
                ))
            } else {
                not_a_move(text, ("e3-e4", "e3e4"))
            }
        })?;
        let (from, to, op, transform, captured) = match pmn {
            Pmn::Move {
                from,
                to,
                op,
                transform,
                captured,
            } => (from, to, op, transform, captured),
            Pmn::Pass => return Err(illegal("Xiongqi has no pass move")),
            Pmn::Drop { .. } => {
                return Err(illegal(
                    "captured pieces can never be dropped in Xiongqi (X5)",
                ))
            }
            Pmn::StaticCapture { .. } | Pmn::Mutation { .. } => {
                return Err(illegal("Xiongqi has only moves from one square to another"))
            }
        };
        let from = square_from_cell(from)?;
        let to = square_from_cell(to)?;
        let piece = self.mover(from)?;
        if captured.is_some() {
            return Err(illegal(
                "a captured piece enters the hand unchanged (X5): write no '/' suffix",
            ));
        }
        let promotion = match transform.map(Piece::from_epin) {
            None => None,
            Some(None) => {
                return Err(illegal("the '=' suffix names no Xiongqi piece"));
            }
            Some(Some(new)) if new.side != piece.side => {
                return Err(illegal(&format!(
                    "a promoted piece keeps its side: write '={}'",
                    Piece::new(piece.side, new.role)
                )));
            }
            Some(Some(new))
                if new.role == Role::CrossedSoldier
                    && piece.role == Role::Soldier
                    && across_river(piece.side) & to.bb() != 0 =>
            {
                None
            }
            Some(Some(new)) if Role::PROMOTIONS.contains(&new.role) => Some(new.role),
            Some(Some(new)) => {
                return Err(illegal(&format!(
                    "a soldier may promote to E, A, C, R, B or H, not '{new}' (X2)"
                )));
            }
        };
        let m = Move::new(from, to, promotion);
        self.check_movement(m)?;
        let capture = self.is_capture(m);
        let canonical = self.to_pmn(m);
        match op {
            MoveOp::Special if !self.triggers_face_to_face(m) => Err(illegal(&format!(
                "'~' marks a move that turns the generals into dragons (X3); write {canonical}"
            ))),
            MoveOp::Quiet if capture => Err(illegal(&format!(
                "{} holds an enemy piece, so this is a capture: write {canonical}",
                m.to()
            ))),
            MoveOp::Capture if !capture => Err(illegal(&format!(
                "{} is empty, so nothing is captured: write {canonical}",
                m.to()
            ))),
            _ => Ok(m),
        }
    }

    fn mover(&self, from: Square) -> Result<Piece, MoveError> {
        let piece = self.piece_at(from).ok_or(MoveError::NoPiece {
            square: from.to_string(),
        })?;
        if piece.side != self.turn {
            return Err(MoveError::NotYourPiece {
                square: from.to_string(),
                piece: piece.to_string(),
                owner: piece.side.as_str(),
                turn: self.turn.as_str(),
            });
        }
        Ok(piece)
    }

    /// Checks a move against the movement rules with a reason a person understands.
    pub(crate) fn check_movement(&self, m: Move) -> Result<(), MoveError> {
        let piece = self.mover(m.from())?;
        if m.promotion().is_some() {
            if !piece.role.is_soldier() {
                return Err(illegal(&format!(
                    "only a soldier promotes, and the piece on {} is {} (X2)",
                    m.from(),
                    describe(piece)
                )));
            }
            if far_rank(piece.side) & m.to().bb() == 0 {
                return Err(illegal(&format!(
                    "a soldier promotes only on the far rank, and {} is not on it (X2)",
                    m.to()
                )));
            }
        }
        if !self.is_pseudo_legal(m) {
            let why = match self.piece_at(m.to()) {
                Some(p) if p.side == piece.side => {
                    format!("{} is occupied by its own side's '{p}'", m.to())
                }
                _ => "not by its movement rules".to_string(),
            };
            return Err(illegal(&format!(
                "{} on {} cannot go to {}: {why}",
                describe(piece),
                m.from(),
                m.to()
            )));
        }
        Ok(())
    }
}

fn describe(piece: Piece) -> String {
    let name = match piece.role {
        Role::General => "general",
        Role::Dragon => "dragon",
        Role::Advisor => "advisor",
        Role::Bear => "bear",
        Role::Chariot => "chariot",
        Role::Cannon => "cannon",
        Role::Horse => "horse",
        Role::Empress => "empress",
        Role::Soldier => "soldier",
        Role::CrossedSoldier => "soldier (across the river)",
    };
    format!("the {name} '{piece}'")
}

fn illegal(reason: &str) -> MoveError {
    MoveError::illegal(reason)
}

fn square_from_cell(cell: Cell) -> Result<Square, MoveError> {
    Square::from_cell(cell).ok_or(MoveError::UnknownSquare {
        square: cell.to_string(),
        board: "a1–h8",
    })
}

fn square_of(cell_text: &str, text: &str) -> Result<Square, MoveError> {
    let cell = Cell::parse(cell_text).map_err(|e| MoveError::Syntax {
        text: chuhe_notation::error::shorten(text).into_owned(),
        reason: e.to_string(),
    })?;
    square_from_cell(cell)
}

impl fmt::Display for Position {
    /// The FEEN of the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_feen())
    }
}
