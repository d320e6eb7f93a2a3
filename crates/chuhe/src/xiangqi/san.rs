//! Xiangqi SAN: the algebraic notation Fairy-Stockfish writes (pyffish's `get_san`), and so
//! the move text of pychess.org's PGN: `Che3`, `Hg8`, `Cxb10`, `Rae2`, `Re9+`, `Rd1#`.
//!
//! - **Piece**: `K A E H R C P` (general, advisor, elephant, horse, chariot, cannon, soldier),
//!   uppercase for both sides; soldiers have a letter too.
//! - **Disambiguation**, when another legal move of a piece of the same kind lands on the same
//!   point: the origin's file if that tells them apart, else its rank, else both (`Hcd6`,
//!   `R2e3`, `Ra2e3`).
//! - `x` before the destination for a capture; the destination with ranks 1–10 (as UCI
//!   coordinates); `+` when the move gives check, `#` when it also leaves no legal move.
//!
//! Input accepts that, and also the FEN letters `B` (elephant) and `N` (horse), a missing
//! soldier letter, a missing or superfluous `x`, `+` or `#`, and a disambiguation that is not
//! needed; a text that names no legal move or several is an error that says so.
//!
//! ```
//! use chuhe::xiangqi::{MoveNotation, Position};
//! use chuhe::GamePosition;
//! let pos = Position::start();
//! let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
//! assert_eq!(pos.move_to_text(m, MoveNotation::San).unwrap(), "Che3");
//! assert_eq!(pos.parse_move_as("Che3", MoveNotation::San).unwrap(), m);
//! assert!(pos.parse_move_as("Ce3", MoveNotation::San).is_err()); // b3 or h3?
//! ```

use super::bitboard::Square;
use super::position::Position;
use super::types::{Move, Role};
use crate::error::MoveError;

/// The role of a SAN piece letter: uppercase only (a lowercase letter starts a soldier's
/// destination), with FEN's `B` and `N` as WXF reads them.
fn role_of(c: char) -> Option<Role> {
    c.is_ascii_uppercase()
        .then(|| super::wxf::role_of_letter(c))
        .flatten()
}

fn file_char(sq: Square) -> char {
    (b'a' + sq.file()) as char
}

/// Writes `m` (a legal move of `pos`) in SAN.
pub(crate) fn to_san(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let mut out = String::new();
    // The same letters as WXF's.
    out.push(super::wxf::letter(piece.role));
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|o| o.to() == m.to() && o.from() != m.from())
        .filter(|o| pos.piece_at(o.from()).is_some_and(|p| p.role == piece.role))
        .map(|o| o.from())
        .collect();
    if !rivals.is_empty() {
        let from = m.from();
        if rivals.iter().all(|r| r.file() != from.file()) {
            out.push(file_char(from));
        } else if rivals.iter().all(|r| r.rank() != from.rank()) {
            out.push_str(&(from.rank() + 1).to_string());
        } else {
            out.push_str(&from.to_string());
        }
    }
    if pos.is_capture(m) {
        out.push('x');
    }
    out.push_str(&m.to().to_string());
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_check() {
        out.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    out
}

/// Splits a trailing point (`e3`, `b10`) off `s`: the rest and the point.
fn split_point(s: &str) -> Option<(&str, Square)> {
    let digits = s.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (rest, rank) = s.split_at(s.len() - digits);
    let (rest, file) = rest.split_at(rest.len().checked_sub(1)?);
    let file = file.bytes().next().filter(|b| (b'a'..=b'i').contains(b))?;
    let rank: u8 = rank.parse().ok().filter(|r| (1..=10).contains(r))?;
    if rank.to_string().len() != digits {
        return None;
    }
    Square::from_coords(file - b'a', rank - 1).map(|sq| (rest, sq))
}

/// Reads a SAN move of `pos`.
pub(crate) fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() || !t.is_ascii() {
        return Err(MoveError::syntax(
            text,
            "SAN is written in ASCII, like Che3, Hg8 or Cxb10",
        ));
    }
    let (role, rest) = match t.chars().next().and_then(role_of) {
        Some(role) => (role, &t[1..]),
        None if t.starts_with(|c: char| c.is_ascii_uppercase()) => {
            return Err(MoveError::syntax(
                text,
                "the piece letter is one of K A E H R C P (or B, N as in FEN)",
            ))
        }
        None => (Role::Soldier, t),
    };
    let Some((rest, to)) = split_point(rest) else {
        return Err(MoveError::syntax(
            text,
            "SAN ends with the destination point, a1 to i10 (like Che3)",
        ));
    };
    let rest = rest.strip_suffix('x').unwrap_or(rest);
    let (file, rank) = match rest {
        "" => (None, None),
        r if r.len() == 1 && (b'a'..=b'i').contains(&r.as_bytes()[0]) => {
            (Some(r.as_bytes()[0] - b'a'), None)
        }
        r if r.bytes().all(|b| b.is_ascii_digit()) => match r.parse::<u8>() {
            Ok(n @ 1..=10) => (None, Some(n - 1)),
            _ => return Err(MoveError::syntax(text, "a rank is 1 to 10")),
        },
        r => match split_point(r) {
            Some(("", sq)) => (Some(sq.file()), Some(sq.rank())),
            _ => return Err(MoveError::syntax(
                text,
                "between the piece and the destination only a file, a rank or a point may stand",
            )),
        },
    };
    let candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.to() == to)
        .filter(|m| pos.piece_at(m.from()).is_some_and(|p| p.role == role))
        .filter(|m| file.map_or(true, |f| m.from().file() == f))
        .filter(|m| rank.map_or(true, |r| m.from().rank() == r))
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::illegal(format!(
            "no legal move of a {} reaches {to} as '{}' says",
            super::notation::role_name(role),
            chuhe_notation::error::shorten(text)
        ))),
        several => Err(MoveError::illegal(format!(
            "'{}' is ambiguous: it could be {}",
            chuhe_notation::error::shorten(text),
            several
                .iter()
                .map(|m| to_san(pos, *m))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}
