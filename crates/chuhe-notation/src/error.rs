//! The error type shared by every parser in this crate.
//!
//! Every `parse` function returns a [`ParseError`] that says, in one line,
//! which notation failed, where (a byte offset into the whole input), what was
//! expected there, what was found instead and, when the input only breaks a
//! canonical-form rule, what the canonical spelling of the whole input is.

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

/// `'text'`, escaped like [`quote_char`] and shortened past 40 characters.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::from("'");
    for (count, c) in text.chars().enumerate() {
        if count == 40 {
            out.push_str("...");
            break;
        }
        out.extend(c.escape_debug());
    }
    out.push('\'');
    out
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
