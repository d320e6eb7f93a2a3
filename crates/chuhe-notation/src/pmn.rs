//! PMN: moves (`e3-e4`, `d7+e8=R`, `d1~e1`, `...`, `P*e5`, `+d4`, `e4=+P`).

use std::fmt;
use std::str::FromStr;

use crate::cell::{scan_cell, Cell};
use crate::error::{settle, Fail, Notation, ParseError};
use crate::pin::{scan_epin, Epin};

/// The longest PMN string accepted, in bytes; longer input is rejected before
/// it is read.
pub const PMN_MAX_LEN: usize = 64;

/// The operator between the two squares of a board move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveOp {
    /// `-`: a quiet move to an empty square.
    Quiet,
    /// `+`: a capture on the destination square.
    Capture,
    /// `~`: a special move; the rules add implicit effects (in Xiongqi, the
    /// face-to-face transformation). It may capture.
    Special,
}

impl MoveOp {
    /// The operator character: `-`, `+` or `~`.
    pub const fn symbol(self) -> char {
        match self {
            MoveOp::Quiet => '-',
            MoveOp::Capture => '+',
            MoveOp::Special => '~',
        }
    }

    /// Whether a captured piece (`/P`) may be written after a move with this
    /// operator (`+` and `~`).
    pub const fn may_capture(self) -> bool {
        !matches!(self, MoveOp::Quiet)
    }
}

/// A PMN move.
///
/// `Display` gives back exactly the text that was parsed. A value built in
/// code must respect the same rules as the text to print as valid PMN: a
/// captured piece (`/P`) only on `Capture`/`Special` moves, capturing drops
/// and static captures.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pmn {
    /// `...`: the player passes.
    Pass,
    /// `src-dst`, `src+dst`, `src~dst`, each with an optional `=P` (the
    /// mover's new identity) and, unless quiet, an optional `/P` (the captured
    /// piece's identity in hand).
    Move {
        /// Source square.
        from: Cell,
        /// Destination square.
        to: Cell,
        /// `-`, `+` or `~`.
        op: MoveOp,
        /// `=P`: the mover's new identity.
        transform: Option<Epin>,
        /// `/P`: the captured piece's identity as it enters the hand.
        captured: Option<Epin>,
    },
    /// A drop from hand: `P*e5` (onto an empty square), `*e5` (piece left
    /// implicit) or `P.e5` (a capturing drop, which may carry `/P`).
    Drop {
        /// The dropped piece, if written.
        piece: Option<Epin>,
        /// Destination square.
        to: Cell,
        /// `true` for `.` (capturing drop), `false` for `*`.
        capture: bool,
        /// `=P`: the dropped piece's new identity.
        transform: Option<Epin>,
        /// `/P`: the captured piece's identity (capturing drops only).
        captured: Option<Epin>,
    },
    /// `+d4`: a piece is captured where it stands.
    StaticCapture {
        /// The square emptied.
        square: Cell,
        /// `/P`: the captured piece's identity in hand.
        captured: Option<Epin>,
    },
    /// `e4=+P`: a piece changes identity in place.
    Mutation {
        /// The square.
        square: Cell,
        /// The new identity.
        piece: Epin,
    },
}

impl Pmn {
    /// A quiet move `from-to`.
    pub const fn quiet(from: Cell, to: Cell) -> Pmn {
        Pmn::Move {
            from,
            to,
            op: MoveOp::Quiet,
            transform: None,
            captured: None,
        }
    }

    /// A capture `from+to`.
    pub const fn capture(from: Cell, to: Cell) -> Pmn {
        Pmn::Move {
            from,
            to,
            op: MoveOp::Capture,
            transform: None,
            captured: None,
        }
    }

    /// Reads a PMN move.
    ///
    /// ```
    /// use chuhe_notation::{Cell, MoveOp, Pmn};
    /// let m = Pmn::parse("e3-e4").unwrap();
    /// assert_eq!(m, Pmn::quiet(Cell::new(4, 2), Cell::new(4, 3)));
    /// assert_eq!(Pmn::parse("...").unwrap(), Pmn::Pass);
    /// let promo = Pmn::parse("d7+e8=R").unwrap();
    /// assert_eq!(promo.to_string(), "d7+e8=R");
    /// assert!(Pmn::parse("e3-e4/p").is_err()); // a quiet move captures nothing
    /// ```
    pub fn parse(s: &str) -> Result<Pmn, ParseError> {
        let mut soft = None;
        let result = scan_pmn(s, &mut soft);
        settle(Notation::Pmn, result, soft)
    }
}

impl fmt::Display for Pmn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix =
            |f: &mut fmt::Formatter<'_>, transform: &Option<Epin>, captured: &Option<Epin>| {
                if let Some(t) = transform {
                    write!(f, "={t}")?;
                }
                if let Some(c) = captured {
                    write!(f, "/{c}")?;
                }
                Ok(())
            };
        match self {
            Pmn::Pass => f.write_str("..."),
            Pmn::Move {
                from,
                to,
                op,
                transform,
                captured,
            } => {
                write!(f, "{from}{}{to}", op.symbol())?;
                suffix(f, transform, captured)
            }
            Pmn::Drop {
                piece,
                to,
                capture,
                transform,
                captured,
            } => {
                if let Some(p) = piece {
                    write!(f, "{p}")?;
                }
                write!(f, "{}{to}", if *capture { '.' } else { '*' })?;
                suffix(f, transform, captured)
            }
            Pmn::StaticCapture { square, captured } => {
                write!(f, "+{square}")?;
                suffix(f, &None, captured)
            }
            Pmn::Mutation { square, piece } => write!(f, "{square}={piece}"),
        }
    }
}

impl FromStr for Pmn {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Pmn, ParseError> {
        Pmn::parse(s)
    }
}

/// Whether a CELL coordinate (lowercase letters then a digit) starts at `pos`.
fn cell_ahead(bytes: &[u8], pos: usize) -> bool {
    let mut i = pos;
    while bytes.get(i).is_some_and(u8::is_ascii_lowercase) {
        i += 1;
    }
    i > pos && bytes.get(i).is_some_and(u8::is_ascii_digit)
}

const START: &str = "a square, a piece, '*', '.', '+' or '...'";

fn scan_pmn(s: &str, soft: &mut Option<Fail>) -> Result<Pmn, Fail> {
    if s.len() > PMN_MAX_LEN {
        return Err(Fail::with(
            PMN_MAX_LEN,
            format!("a move of at most {PMN_MAX_LEN} bytes"),
            format!("{} bytes", s.len()),
        ));
    }
    let bytes = s.as_bytes();
    match bytes.first() {
        None => Err(Fail::at(s, 0, START)),
        Some(b'.') if bytes.get(1) == Some(&b'.') => {
            if bytes.get(2) != Some(&b'.') {
                Err(Fail::at(s, 2, "'.' (a pass is written '...')"))
            } else if bytes.len() > 3 {
                Err(Fail::at(s, 3, "end of input"))
            } else {
                Ok(Pmn::Pass)
            }
        }
        Some(b'.' | b'*') => scan_drop(s, None, 0, soft),
        Some(b'+') if cell_ahead(bytes, 1) => {
            let (square, pos) = scan_cell(s, 1, soft)?;
            let (captured, end) = scan_suffix(s, pos, false)?;
            finish(
                s,
                end,
                if captured.is_some() {
                    "end of input"
                } else {
                    "'/' or end of input"
                },
            )?;
            Ok(Pmn::StaticCapture { square, captured })
        }
        Some(_) if cell_ahead(bytes, 0) => scan_board_move(s, soft),
        Some(&b) if b.is_ascii_alphabetic() || b == b'+' || b == b'-' => {
            let (piece, pos) = scan_epin(s, 0)?;
            match bytes.get(pos) {
                Some(b'*' | b'.') => scan_drop(s, Some(piece), pos, soft),
                _ => Err(Fail::at(s, pos, "'*' or '.' after the dropped piece")),
            }
        }
        Some(_) => Err(Fail::at(s, 0, START)),
    }
}

fn finish(s: &str, pos: usize, expected: &str) -> Result<(), Fail> {
    if pos == s.len() {
        Ok(())
    } else {
        Err(Fail::at(s, pos, expected))
    }
}

fn scan_board_move(s: &str, soft: &mut Option<Fail>) -> Result<Pmn, Fail> {
    let bytes = s.as_bytes();
    let (from, pos) = scan_cell(s, 0, soft)?;
    let op = match bytes.get(pos) {
        Some(b'-') => MoveOp::Quiet,
        Some(b'+') => MoveOp::Capture,
        Some(b'~') => MoveOp::Special,
        Some(b'=') => {
            let (piece, end) = scan_epin(s, pos + 1)?;
            finish(s, end, "end of input")?;
            return Ok(Pmn::Mutation {
                square: from,
                piece,
            });
        }
        _ => return Err(Fail::at(s, pos, "'-', '+', '~' or '=' after the square")),
    };
    let (to, pos) = scan_cell(s, pos + 1, soft)?;
    let why = "a quiet move '-' captures nothing, so it has no '/'";
    let (transform, captured) = scan_suffixes(s, pos, op.may_capture(), why)?;
    Ok(Pmn::Move {
        from,
        to,
        op,
        transform,
        captured,
    })
}

fn scan_drop(
    s: &str,
    piece: Option<Epin>,
    pos: usize,
    soft: &mut Option<Fail>,
) -> Result<Pmn, Fail> {
    let capture = s.as_bytes().get(pos) == Some(&b'.');
    let (to, pos) = scan_cell(s, pos + 1, soft)?;
    let why = "a drop with '*' captures nothing, so it has no '/'";
    let (transform, captured) = scan_suffixes(s, pos, capture, why)?;
    Ok(Pmn::Drop {
        piece,
        to,
        capture,
        transform,
        captured,
    })
}

/// What may still follow, given the suffixes already read.
fn ending(transform: bool, captured: bool, may_capture: bool) -> &'static str {
    match (transform, captured, may_capture) {
        (_, true, _) | (true, _, false) => "end of input",
        (true, false, true) => "'/' or end of input",
        (false, false, true) => "'=', '/' or end of input",
        (false, false, false) => "'=' or end of input",
    }
}

/// Reads an optional `=P` (when `transform`) or `/P` (otherwise) suffix at
/// `pos`.
fn scan_suffix(s: &str, pos: usize, transform: bool) -> Result<(Option<Epin>, usize), Fail> {
    let marker = if transform { b'=' } else { b'/' };
    if s.as_bytes().get(pos) == Some(&marker) {
        let (piece, end) = scan_epin(s, pos + 1)?;
        Ok((Some(piece), end))
    } else {
        Ok((None, pos))
    }
}

/// Reads the `[=P][/P]` suffixes of a move or drop; `/P` only when
/// `may_capture`, otherwise a `/` is reported with `why`.
fn scan_suffixes(
    s: &str,
    pos: usize,
    may_capture: bool,
    why: &str,
) -> Result<(Option<Epin>, Option<Epin>), Fail> {
    let (transform, pos) = scan_suffix(s, pos, true)?;
    let (captured, pos) = if may_capture {
        scan_suffix(s, pos, false)?
    } else {
        (None, pos)
    };
    let expected = ending(transform.is_some(), captured.is_some(), may_capture);
    if !may_capture && s.as_bytes().get(pos) == Some(&b'/') {
        return Err(Fail::at(s, pos, format!("{expected} ({why})")));
    }
    finish(s, pos, expected)?;
    Ok((transform, captured))
}
