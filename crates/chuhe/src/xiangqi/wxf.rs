//! WXF move notation, written exactly as Fairy-Stockfish (pyffish's
//! `get_san(…, NOTATION_XIANGQI_WXF)`) writes it, and read leniently.
//!
//! A move is four characters: the piece, the file it stands on, an operator and a number.
//!
//! - **Piece**: `K A E H R C P` (general, advisor, elephant, horse, chariot, cannon,
//!   soldier), uppercase for both sides.
//! - **Files** are numbered 1–9 from each player's *own* right: Red's file `a` is 9 and its
//!   file `i` is 1; Black's file `a` is 1 and its file `i` is 9.
//! - **Operator**: `+` forward (toward the opponent), `-` backward, `=` sideways.
//! - **Number**: for a general, chariot, cannon or soldier moving along its file, the number
//!   of points moved; otherwise (sideways, and every advisor, elephant and horse move) the
//!   file it lands on.
//!
//! Two pieces of one kind on one file (tandem pieces) are told apart by `+` (the front one,
//! nearer the opponent) or `-` (the rear one) in place of the file: `R++1`, `R-=9`, `H+-5`.
//! Fairy-Stockfish writes this form only when the other piece of the pair could make the
//! same-looking move on the board (its landing point lies on the board and, for the general,
//! advisors and elephants, in their area); otherwise the file is written, which is then
//! already unambiguous (`R7+4` for the rear of chariots on c1 and c9 going to c5).
//!
//! When three or more pieces of one kind stand on a file, or two or more files each hold two
//! or more of them (in practice: soldiers), the letter is replaced by the piece's place in its
//! file counted from the front (1 = nearest the opponent), followed by the file: `15+1` is the
//! frontmost soldier on file 5 moving one point forward, `27=6` the second soldier on file 7
//! stepping to file 6 (2018 World Xiangqi Rules, as Fairy-Stockfish implements them).
//!
//! No check or mate suffix is written.
//!
//! Input accepts everything written above and also: lowercase letters (playOK writes Black's
//! moves that way; the side to move decides whose piece it is, whatever the case), `.` for
//! `=`, the letters `B` (elephant) and `N` (horse), the tandem marker before the letter
//! (`+R=6` as well as `R+=6`), and surrounding spaces. A form that is not the canonical one is
//! accepted when it names exactly one legal move (`P5+1` with two soldiers on file 5 of which
//! only one can advance); otherwise the error lists the moves it could mean.
//!
//! ```
//! use chuhe::xiangqi::{MoveNotation, Position};
//! use chuhe::GamePosition;
//! let pos = Position::start();
//! let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
//! assert_eq!(pos.move_to_text(m, MoveNotation::Wxf).unwrap(), "C2=5");
//! assert_eq!(pos.parse_move_as("C2.5", MoveNotation::Wxf).unwrap(), m);
//! let horse = pos.parse_move_as("N8+7", MoveNotation::Wxf).unwrap();
//! assert_eq!(horse.to_string(), "b1c3");
//! assert!(pos.parse_move_as("H8+6", MoveNotation::Wxf).is_err());
//! ```

use super::described::{describe, resolve, Direction, Named, Place, Style, Which};
use super::position::Position;
use super::types::{Move, Role};
use crate::MoveError;

/// How WXF spells what [`resolve`]'s messages mention.
const WXF: Style = Style {
    file: |_, n| n.to_string(),
    sideways: "'='",
    along: "+ or -",
    write: to_wxf,
};

/// Writes a legal move of `pos` in WXF, as Fairy-Stockfish does.
pub(crate) fn to_wxf(pos: &Position, m: Move) -> String {
    let Some(d) = describe(pos, m) else {
        // Not a move of this position: fall back to coordinates rather than panic.
        return m.to_string();
    };
    let mut out = String::with_capacity(4);
    match d.which {
        Which::File(file) => {
            out.push(letter(d.role));
            out.push_str(&file.to_string());
        }
        Which::Tandem { front } => {
            out.push(letter(d.role));
            out.push(if front { '+' } else { '-' });
        }
        Which::Counted { place, file, .. } => {
            out.push_str(&place.to_string());
            out.push_str(&file.to_string());
        }
    }
    out.push(match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    });
    out.push_str(&d.number.to_string());
    out
}

/// Reads a WXF move (see the module documentation for the forms accepted) as a legal move of
/// `pos`.
pub(crate) fn parse_wxf(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if let Some(o) = pos.static_outcome() {
        return Err(MoveError::GameOver { outcome: o });
    }
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 4 {
        return Err(MoveError::syntax(
            text,
            "WXF has four characters: piece, file, operator (+ - =) and a number, like C2=5 or H8+7",
        ));
    }
    let piece_of = |c: char| -> Result<Role, MoveError> {
        role_of_letter(c).ok_or_else(|| {
            MoveError::syntax(
                text,
                &format!(
                    "'{c}' is not a WXF piece letter (K A E H R C P, also B for the elephant and N for the horse)"
                ),
            )
        })
    };
    let digit = |c: char, what: &str| -> Result<u8, MoveError> {
        match c {
            '1'..='9' => Ok(c as u8 - b'0'),
            _ => Err(MoveError::syntax(
                text,
                &format!("expected {what}, found '{c}'"),
            )),
        }
    };

    // The piece the first two characters name.
    let named = match (chars[0], chars[1]) {
        (c0, c1) if c0.is_ascii_digit() => Named::Counted {
            place: Place::Nth(digit(c0, "a soldier's place in its file (1–9)")?),
            file: digit(c1, "a file number (1–9)")?,
        },
        (c0 @ ('+' | '-'), c1) | (c1, c0 @ ('+' | '-')) if c1.is_ascii_alphabetic() => {
            Named::Placed {
                role: piece_of(c1)?,
                place: if c0 == '+' { Place::Front } else { Place::Rear },
                mark: c0,
            }
        }
        (c0, c1) if c0.is_ascii_alphabetic() => Named::OnFile {
            role: piece_of(c0)?,
            file: digit(
                c1,
                "a file number (1–9), or + or - for the front or rear of two pieces on a file",
            )?,
        },
        (c0, _) => {
            return Err(MoveError::syntax(
                text,
                &format!("'{c0}' cannot start a WXF move: expected a piece letter such as R, or a soldier's place in its file"),
            ))
        }
    };
    let direction = match chars[2] {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '=' | '.' => Direction::Sideways,
        c => {
            return Err(MoveError::syntax(
                text,
                &format!("'{c}' is not a WXF operator: + forward, - backward, = (or .) sideways"),
            ))
        }
    };
    let number = digit(chars[3], "a number of points or a file number (1–9)")?;
    resolve(pos, t, named, direction, number, &WXF)
}

/// The WXF (and SAN) letter of a role.
pub(super) fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// The role of a WXF letter, either case, with the aliases `B` (elephant) and `N` (horse).
pub(super) fn role_of_letter(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::General,
        'A' => Role::Advisor,
        'E' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Chariot,
        'C' => Role::Cannon,
        'P' => Role::Soldier,
        _ => return None,
    })
}
