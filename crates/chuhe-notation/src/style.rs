//! SIN, SNN and QPI: style identifiers, style names and qualified pieces.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::{quote, settle, Fail, Notation, ParseError};
use crate::pin::{scan_pin, Pin};
use crate::side::Side;

/// A SIN style identifier: one ASCII letter whose case is the side
/// (`X` = the first player's Xiongqi style, `x` = the second player's).
///
/// Ordered by letter, then uppercase before lowercase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sin {
    letter: u8,
    side: Side,
}

impl Sin {
    /// The style `letter` (either case; stored uppercase) of `side`.
    ///
    /// # Panics
    ///
    /// If `letter` is not an ASCII letter.
    ///
    /// ```
    /// use chuhe_notation::{Side, Sin};
    /// assert_eq!(Sin::new(b'X', Side::Second).to_string(), "x");
    /// ```
    pub const fn new(letter: u8, side: Side) -> Sin {
        assert!(
            letter.is_ascii_alphabetic(),
            "Sin::new: the letter must be an ASCII letter"
        );
        Sin {
            letter: letter.to_ascii_uppercase(),
            side,
        }
    }

    /// The style letter, uppercase.
    pub fn letter(self) -> char {
        char::from(self.letter)
    }

    /// The side (the letter's case).
    pub fn side(self) -> Side {
        self.side
    }

    /// The same style letter for `side`.
    pub fn with_side(self, side: Side) -> Sin {
        Sin { side, ..self }
    }

    /// Reads a SIN token.
    ///
    /// ```
    /// use chuhe_notation::{Side, Sin};
    /// let s = Sin::parse("x").unwrap();
    /// assert_eq!((s.letter(), s.side()), ('X', Side::Second));
    /// assert!(Sin::parse("XX").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Sin, ParseError> {
        let result = scan_sin(s, 0).and_then(|(sin, end)| {
            if end == s.len() {
                Ok(sin)
            } else {
                Err(Fail::at(s, end, "end of input"))
            }
        });
        settle(Notation::Sin, result, None)
    }
}

pub(crate) const STYLE_LETTER: &str = "a style letter A-Z or a-z";

/// Scans a SIN token at byte `pos`.
pub(crate) fn scan_sin(input: &str, pos: usize) -> Result<(Sin, usize), Fail> {
    match input.as_bytes().get(pos) {
        Some(&b) if b.is_ascii_alphabetic() => Ok((Sin::new(b, Side::of_letter(b)), pos + 1)),
        _ => Err(Fail::at(input, pos, STYLE_LETTER)),
    }
}

impl PartialOrd for Sin {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Sin {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.letter, self.side).cmp(&(other.letter, other.side))
    }
}

impl fmt::Display for Sin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.side.case_letter(self.letter))
    }
}

impl FromStr for Sin {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Sin, ParseError> {
        Sin::parse(s)
    }
}

/// The longest SNN name accepted.
pub const SNN_MAX_LEN: usize = 32;

/// An SNN style name: PascalCase ASCII letters starting with an uppercase
/// letter, optionally followed by digits (`Xiongqi`, `Xiangqi`, `Chess960`);
/// at most [`SNN_MAX_LEN`] bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Snn(String);

impl Snn {
    /// Reads an SNN name.
    ///
    /// ```
    /// use chuhe_notation::Snn;
    /// assert_eq!(Snn::parse("Xiongqi").unwrap().as_str(), "Xiongqi");
    /// assert!(Snn::parse("Chess960").is_ok());
    /// assert!(Snn::parse("xiongqi").is_err());
    /// assert!(Snn::parse("XIONG-QI").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Snn, ParseError> {
        let result = scan_snn(s);
        settle(Notation::Snn, result, None)
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn scan_snn(s: &str) -> Result<Snn, Fail> {
    let bytes = s.as_bytes();
    match bytes.first() {
        Some(b) if b.is_ascii_uppercase() => {}
        _ => {
            return Err(Fail::at(
                s,
                0,
                "an uppercase letter A-Z starting the style name",
            ))
        }
    }
    let mut i = 1;
    while bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if i < bytes.len() {
        let expected = if bytes[i - 1].is_ascii_digit() {
            "a digit or end of input"
        } else {
            "a letter, a digit or end of input"
        };
        return Err(Fail::at(s, i, expected));
    }
    if s.len() > SNN_MAX_LEN {
        return Err(Fail::with(
            SNN_MAX_LEN,
            format!("a style name of at most {SNN_MAX_LEN} characters"),
            format!("{} characters", s.len()),
        ));
    }
    Ok(Snn(s.to_string()))
}

impl fmt::Display for Snn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Snn {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Snn, ParseError> {
        Snn::parse(s)
    }
}

impl AsRef<str> for Snn {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A QPI qualified piece identifier, `SIN:PIN` (`X:G^`, `x:+s`): a piece
/// together with its style. The two must belong to the same side (same case).
///
/// Ordered by style, then piece. Serialized (serde) as its string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Qpi {
    /// The style.
    pub sin: Sin,
    /// The piece.
    pub pin: Pin,
}

impl Qpi {
    /// A qualified piece; `None` if the style and the piece belong to
    /// different sides.
    pub fn new(sin: Sin, pin: Pin) -> Option<Qpi> {
        (sin.side() == pin.side()).then_some(Qpi { sin, pin })
    }

    /// The side owning the piece.
    pub fn side(self) -> Side {
        self.pin.side()
    }

    /// Reads a QPI token.
    ///
    /// ```
    /// use chuhe_notation::{Qpi, Side};
    /// let q = Qpi::parse("x:+s").unwrap();
    /// assert_eq!(q.side(), Side::Second);
    /// assert_eq!(q.to_string(), "x:+s");
    /// assert!(Qpi::parse("X:g^").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Qpi, ParseError> {
        settle(Notation::Qpi, scan_qpi(s), None)
    }
}

fn scan_qpi(s: &str) -> Result<Qpi, Fail> {
    let (sin, at) = scan_sin(s, 0)?;
    if s.as_bytes().get(at) != Some(&b':') {
        return Err(Fail::at(s, at, "':' after the style letter"));
    }
    let (pin, end) = scan_pin(s, at + 1)?;
    if pin.side() != sin.side() {
        let letter_at = end - 1 - usize::from(pin.is_terminal());
        let case = match sin.side() {
            Side::First => "an uppercase",
            Side::Second => "a lowercase",
        };
        return Err(Fail::with(
            letter_at,
            format!("{case} piece letter, like the style '{sin}'"),
            quote(&s[letter_at..letter_at + 1]),
        ));
    }
    if end != s.len() {
        let expected = if pin.is_terminal() {
            "end of input"
        } else {
            "'^' or end of input"
        };
        return Err(Fail::at(s, end, expected));
    }
    Ok(Qpi { sin, pin })
}

impl fmt::Display for Qpi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.sin, self.pin)
    }
}

impl FromStr for Qpi {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Qpi, ParseError> {
        Qpi::parse(s)
    }
}

serde_as_string!(Sin, "a SIN style letter such as \"X\"");
serde_as_string!(Snn, "an SNN style name such as \"Xiongqi\"");
serde_as_string!(Qpi, "a QPI piece identifier such as \"X:G^\"");
