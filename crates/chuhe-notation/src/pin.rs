//! PIN and EPIN: piece identifiers (`G^`, `+s`, `d^`, `S'`).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::{settle, Fail, Notation, ParseError};
use crate::side::Side;

/// A piece's state modifier in PIN.
///
/// Ordered as FEEN orders hand items: `Diminished` (`-`), then `Enhanced`
/// (`+`), then `Normal` (no modifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PieceState {
    /// No modifier.
    #[default]
    Normal,
    /// `+`: enhanced (e.g. a soldier that crossed the river, `+S`).
    Enhanced,
    /// `-`: diminished.
    Diminished,
}

impl PieceState {
    /// The PIN prefix: `""`, `"+"` or `"-"`.
    pub const fn prefix(self) -> &'static str {
        match self {
            PieceState::Normal => "",
            PieceState::Enhanced => "+",
            PieceState::Diminished => "-",
        }
    }

    const fn order(self) -> u8 {
        match self {
            PieceState::Diminished => 0,
            PieceState::Enhanced => 1,
            PieceState::Normal => 2,
        }
    }
}

impl PartialOrd for PieceState {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PieceState {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

/// A PIN piece identifier: `^[+-]?[A-Za-z]\^?$`.
///
/// The letter's case is the side (uppercase = [`Side::First`]); it is stored
/// uppercase with the side kept apart. A trailing `^` marks a terminal piece
/// (a general, a king).
///
/// Ordered as FEEN orders hand items: letter A→Z ignoring case, then
/// uppercase before lowercase, then state (`-`, `+`, none), then
/// non-terminal before terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pin {
    letter: u8,
    side: Side,
    state: PieceState,
    terminal: bool,
}

impl Pin {
    /// A piece with `letter` (either case; stored uppercase), `side`, `state`
    /// and terminal flag.
    ///
    /// # Panics
    ///
    /// If `letter` is not an ASCII letter.
    ///
    /// ```
    /// use chuhe_notation::{Pin, PieceState, Side};
    /// let general = Pin::new(b'g', Side::First, PieceState::Normal, true);
    /// assert_eq!(general.to_string(), "G^");
    /// ```
    pub const fn new(letter: u8, side: Side, state: PieceState, terminal: bool) -> Pin {
        assert!(
            letter.is_ascii_alphabetic(),
            "Pin::new: the letter must be an ASCII letter"
        );
        Pin {
            letter: letter.to_ascii_uppercase(),
            side,
            state,
            terminal,
        }
    }

    /// The piece letter, uppercase.
    pub fn letter(self) -> char {
        char::from(self.letter)
    }

    /// The side that owns the piece (the letter's case).
    pub fn side(self) -> Side {
        self.side
    }

    /// The state modifier.
    pub fn state(self) -> PieceState {
        self.state
    }

    /// Whether the piece is terminal (`^`).
    pub fn is_terminal(self) -> bool {
        self.terminal
    }

    /// The same piece owned by `side`.
    pub fn with_side(self, side: Side) -> Pin {
        Pin { side, ..self }
    }

    /// The same piece with state `state`.
    pub fn with_state(self, state: PieceState) -> Pin {
        Pin { state, ..self }
    }

    /// The same piece with the terminal flag set to `terminal`.
    pub fn with_terminal(self, terminal: bool) -> Pin {
        Pin { terminal, ..self }
    }

    /// Reads a PIN token.
    ///
    /// ```
    /// use chuhe_notation::{Pin, PieceState, Side};
    /// let soldier = Pin::parse("+s").unwrap();
    /// assert_eq!(soldier.side(), Side::Second);
    /// assert_eq!(soldier.state(), PieceState::Enhanced);
    /// assert!(Pin::parse("G^").unwrap().is_terminal());
    /// assert!(Pin::parse("^G").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Pin, ParseError> {
        let result = scan_pin(s, 0).and_then(|(pin, end)| {
            if end == s.len() {
                Ok(pin)
            } else if pin.terminal {
                Err(Fail::at(s, end, "end of input"))
            } else {
                Err(Fail::at(s, end, "'^' or end of input"))
            }
        });
        settle(Notation::Pin, result, None)
    }
}

impl PartialOrd for Pin {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pin {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.letter, self.side, self.state, self.terminal).cmp(&(
            other.letter,
            other.side,
            other.state,
            other.terminal,
        ))
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.state.prefix())?;
        fmt::Write::write_char(f, self.side.case_letter(self.letter))?;
        if self.terminal {
            f.write_str("^")?;
        }
        Ok(())
    }
}

impl FromStr for Pin {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Pin, ParseError> {
        Pin::parse(s)
    }
}

/// An EPIN piece identifier: a [`Pin`] plus an optional trailing `'` marking
/// a piece of the *derived* style (the opponent's style) rather than its
/// side's native one. Not used by Xiongqi or Xiangqi, but read and written.
///
/// Ordered exactly as FEEN orders hand items with equal counts: by the
/// [`Pin`] order, then native before derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Epin {
    /// The piece.
    pub pin: Pin,
    /// Whether the trailing `'` (derived style) is present.
    pub derived: bool,
}

impl Epin {
    /// A native-style piece (no `'`).
    pub const fn native(pin: Pin) -> Epin {
        Epin {
            pin,
            derived: false,
        }
    }

    /// A piece with an explicit derivation flag.
    pub const fn new(pin: Pin, derived: bool) -> Epin {
        Epin { pin, derived }
    }

    /// The side that owns the piece.
    pub fn side(self) -> Side {
        self.pin.side()
    }

    /// The same piece owned by `side`.
    pub fn with_side(self, side: Side) -> Epin {
        Epin {
            pin: self.pin.with_side(side),
            ..self
        }
    }

    /// Reads an EPIN token.
    ///
    /// ```
    /// use chuhe_notation::{Epin, Pin};
    /// let e = Epin::parse("S'").unwrap();
    /// assert!(e.derived);
    /// assert_eq!(e.pin, Pin::parse("S").unwrap());
    /// assert_eq!(Epin::parse("+s").unwrap().to_string(), "+s");
    /// assert!(Epin::parse("'S").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Epin, ParseError> {
        let result = scan_epin(s, 0).and_then(|(epin, end)| {
            if end == s.len() {
                Ok(epin)
            } else if epin.derived {
                Err(Fail::at(s, end, "end of input"))
            } else if epin.pin.terminal {
                Err(Fail::at(s, end, "an apostrophe or end of input"))
            } else {
                Err(Fail::at(s, end, "'^', an apostrophe or end of input"))
            }
        });
        settle(Notation::Epin, result, None)
    }
}

impl From<Pin> for Epin {
    fn from(pin: Pin) -> Epin {
        Epin::native(pin)
    }
}

impl PartialOrd for Epin {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Epin {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.pin, self.derived).cmp(&(other.pin, other.derived))
    }
}

impl fmt::Display for Epin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pin.fmt(f)?;
        if self.derived {
            f.write_str("'")?;
        }
        Ok(())
    }
}

impl FromStr for Epin {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Epin, ParseError> {
        Epin::parse(s)
    }
}

serde_as_string!(Pin, "a PIN piece identifier such as \"G^\"");
serde_as_string!(Epin, "an EPIN piece identifier such as \"+S\"");

pub(crate) const PIECE_LETTER: &str = "a piece letter A-Z or a-z";

/// Scans a PIN token at byte `pos`: returns the piece and the offset after it.
pub(crate) fn scan_pin(input: &str, pos: usize) -> Result<(Pin, usize), Fail> {
    let bytes = input.as_bytes();
    let (state, at) = match bytes.get(pos) {
        Some(b'+') => (PieceState::Enhanced, pos + 1),
        Some(b'-') => (PieceState::Diminished, pos + 1),
        _ => (PieceState::Normal, pos),
    };
    let letter = match bytes.get(at) {
        Some(&b) if b.is_ascii_alphabetic() => b,
        _ if at > pos => return Err(Fail::at(input, at, PIECE_LETTER)),
        _ => return Err(Fail::at(input, at, "'+', '-' or a piece letter")),
    };
    let terminal = bytes.get(at + 1) == Some(&b'^');
    let end = at + 1 + usize::from(terminal);
    Ok((
        Pin::new(letter, Side::of_letter(letter), state, terminal),
        end,
    ))
}

/// Scans an EPIN token at byte `pos`: returns the piece and the offset after it.
pub(crate) fn scan_epin(input: &str, pos: usize) -> Result<(Epin, usize), Fail> {
    let (pin, end) = scan_pin(input, pos)?;
    let derived = input.as_bytes().get(end) == Some(&b'\'');
    Ok((Epin { pin, derived }, end + usize::from(derived)))
}
