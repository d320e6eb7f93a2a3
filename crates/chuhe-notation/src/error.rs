//! The error type shared by every parser in this crate.
//!
//! Every `parse` function returns a [`ParseError`] that says, in one line,
//! which notation failed, where (a byte offset into the whole input), what was
//! expected there, what was found instead and, when the input only breaks a
//! canonical-form rule, what the canonical spelling of the whole input is.

use std::borrow::Cow;
use std::fmt;

/// Which notation an error came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// CELL: board coordinates such as `e4`.
    Cell,
    /// PIN: piece identifiers such as `G^`.
    Pin,
    /// EPIN: PIN plus an optional derivation marker `'`.
    Epin,
    /// SIN: one-letter style identifiers such as `X`.
    Sin,
    /// SNN: style names such as `Xiongqi`.
    Snn,
    /// QPI: `SIN:PIN` qualified piece identifiers such as `X:G^`.
    Qpi,
    /// FEEN: positions.
    Feen,
    /// PMN: moves.
    Pmn,
    /// CGSN: game status words.
    Cgsn,
}

impl Notation {
    /// The notation's name as written in error messages: `"CELL"`, `"FEEN"`, …
    ///
    /// ```
    /// use chuhe_notation::Notation;
    /// assert_eq!(Notation::Feen.name(), "FEEN");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Cell => "CELL",
            Notation::Pin => "PIN",
            Notation::Epin => "EPIN",
            Notation::Sin => "SIN",
            Notation::Snn => "SNN",
            Notation::Qpi => "QPI",
            Notation::Feen => "FEEN",
            Notation::Pmn => "PMN",
            Notation::Cgsn => "CGSN",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A parse error a person understands.
///
/// Displayed on one line as
///
/// ```text
/// invalid NOTATION[ (field)] at offset N: expected WHAT, found WHAT[; canonical form: 'TEXT']
/// ```
///
/// ```
/// use chuhe_notation::Cell;
/// let err = Cell::parse("a0").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid CELL at offset 1: expected a rank number from 1 without leading zeros, found '0'"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Which notation was being read.
    pub notation: Notation,
    /// The field of the notation, when it has several (FEEN: `"placement"`,
    /// `"hands"`, `"style-turn"`).
    pub field: Option<&'static str>,
    /// Byte offset in the whole input string where the problem is.
    pub offset: usize,
    /// What was expected at `offset`.
    pub expected: String,
    /// What was found at `offset` (a quoted token, or `end of input`).
    pub found: String,
    /// The canonical spelling of the whole input, when the input only breaks
    /// canonical-form rules and therefore has one.
    pub canonical: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}", self.notation)?;
        if let Some(field) = self.field {
            write!(f, " ({field})")?;
        }
        write!(
            f,
            " at offset {}: expected {}, found {}",
            self.offset, self.expected, self.found
        )?;
        if let Some(canonical) = &self.canonical {
            let canonical = shorten_to(canonical, LONG_ECHO_LIMIT);
            write!(f, "; canonical form: '{canonical}'")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// A scanner-level failure: where, what was expected, what was found.
/// Turned into a [`ParseError`] by the top-level parser of each notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    pub(crate) field: Option<&'static str>,
    pub(crate) offset: usize,
    pub(crate) expected: String,
    pub(crate) found: String,
}

impl Fail {
    /// A failure at `offset` in `input`, describing what is found there.
    pub(crate) fn at(input: &str, offset: usize, expected: impl Into<String>) -> Fail {
        Fail {
            field: None,
            offset,
            expected: expected.into(),
            found: found_at(input, offset),
        }
    }

    /// A failure with an explicit description of what was found.
    pub(crate) fn with(
        offset: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Fail {
        Fail {
            field: None,
            offset,
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// Marks the failure as belonging to `field` unless it already names one.
    pub(crate) fn in_field(mut self, field: &'static str) -> Fail {
        self.field.get_or_insert(field);
        self
    }

    pub(crate) fn into_error(self, notation: Notation, canonical: Option<String>) -> ParseError {
        ParseError {
            notation,
            field: self.field,
            offset: self.offset,
            expected: self.expected,
            found: self.found,
            canonical,
        }
    }
}

/// Describes the character at byte `offset` of `input`: `'x'`, or
/// `end of input`.
pub(crate) fn found_at(input: &str, offset: usize) -> String {
    match input.get(offset..).and_then(|rest| rest.chars().next()) {
        Some(c) => quote_char(c),
        None if offset >= input.len() => "end of input".to_string(),
        None => match input.as_bytes().get(offset) {
            Some(b) => format!("byte 0x{b:02x}"),
            None => "end of input".to_string(),
        },
    }
}

/// `'c'`, with control and other unprintable characters escaped.
pub(crate) fn quote_char(c: char) -> String {
    format!("'{}'", c.escape_debug())
}

/// `'text'`, escaped like [`quote_char`] and shortened by [`shorten`].
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::from("'");
    out.extend(shorten(text).chars().flat_map(char::escape_debug));
    out.push('\'');
    out
}

/// How many characters of someone's input an error message repeats (see [`shorten`]).
pub const ECHO_LIMIT: usize = 40;

/// Input as an error message repeats it: unchanged up to [`ECHO_LIMIT`] characters; longer
/// text is cut after that many characters, never inside a character, and followed by `…` and
/// its length. Every error of `chuhe_notation` and `chuhe` that quotes input goes through
/// this function, so a 10,000-character argument makes a short message.
///
/// ```
/// use chuhe_notation::error::shorten;
/// assert_eq!(shorten("e3-e4"), "e3-e4");
/// let long = "é".repeat(100);
/// assert_eq!(shorten(&long), format!("{}… (100 characters)", "é".repeat(40)));
/// ```
pub fn shorten(text: &str) -> Cow<'_, str> {
    shorten_to(text, ECHO_LIMIT)
}

/// [`shorten`] with another limit: at most `limit` characters of `text`, then `…` and the
/// length. For values a person may want to copy whole, such as a canonical FEEN.
///
/// ```
/// use chuhe_notation::error::shorten_to;
/// assert_eq!(shorten_to("abcdef", 3), "abc… (6 characters)");
/// assert_eq!(shorten_to("abc", 3), "abc");
/// ```
pub fn shorten_to(text: &str, limit: usize) -> Cow<'_, str> {
    match text.char_indices().nth(limit) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => {
            let n = text.chars().count();
            let noun = if n == 1 { "character" } else { "characters" };
            Cow::Owned(format!("{}… ({n} {noun})", &text[..cut]))
        }
    }
}

/// How many characters of a canonical form, or of a JSON parser's message, an error message
/// shows: any position of a Chinese-chess-sized board, hands included, in full.
const LONG_ECHO_LIMIT: usize = 256;

/// A `serde_json` error as chuhe shows it: the message (which may quote a string of the
/// input) shortened like a canonical form, then where it happened.
pub(crate) fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&place) {
        Some(message) if e.line() > 0 => {
            format!("{}{place}", shorten_to(message, LONG_ECHO_LIMIT))
        }
        _ => shorten_to(&full, LONG_ECHO_LIMIT).into_owned(),
    }
}

/// Turns the outcome of a lenient scan into the public result.
///
/// `soft` is the first canonical-form problem met (if any): the value is still
/// well defined, so when the scan otherwise succeeded the error carries the
/// canonical spelling of the whole input. When the scan also hit a hard error,
/// the earlier of the two problems is reported, without a canonical form.
pub(crate) fn settle<T: fmt::Display>(
    notation: Notation,
    result: Result<T, Fail>,
    soft: Option<Fail>,
) -> Result<T, ParseError> {
    match (result, soft) {
        (Ok(value), None) => Ok(value),
        (Ok(value), Some(soft)) => {
            let canonical = value.to_string();
            Err(soft.into_error(notation, Some(canonical)))
        }
        (Err(hard), Some(soft)) if soft.offset <= hard.offset => {
            Err(soft.into_error(notation, None))
        }
        (Err(hard), _) => Err(hard.into_error(notation, None)),
    }
}

/// Deserializes a value from its notation string through [`std::str::FromStr`].
pub(crate) fn deserialize_parsed<'de, T, D>(
    deserializer: D,
    what: &'static str,
) -> Result<T, D::Error>
where
    T: std::str::FromStr<Err = ParseError>,
    D: serde::Deserializer<'de>,
{
    struct Visit<T> {
        what: &'static str,
        marker: std::marker::PhantomData<T>,
    }
    impl<T: std::str::FromStr<Err = ParseError>> serde::de::Visitor<'_> for Visit<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.what)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
            v.parse().map_err(E::custom)
        }
    }
    deserializer.deserialize_str(Visit {
        what,
        marker: std::marker::PhantomData,
    })
}
