//! The two players of the Game Protocol.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the two players. The first player is written uppercase in every
/// Sashité notation, the second lowercase.
///
/// Serialized (serde) as `"first"` / `"second"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first player (uppercase; South in Xiongqi and Xiangqi).
    First,
    /// The second player (lowercase; North).
    Second,
}

impl Side {
    /// Both sides, first then second.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    ///
    /// ```
    /// use chuhe_notation::Side;
    /// assert_eq!(Side::First.opponent(), Side::Second);
    /// assert_eq!(!Side::Second, Side::First);
    /// ```
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `0` for the first player, `1` for the second: the index into per-side
    /// arrays such as [`Feen::hands`](crate::Feen::hands).
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// `"first"` or `"second"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    /// The side whose letters have this case: uppercase is the first player.
    pub(crate) const fn of_letter(letter: u8) -> Side {
        if letter.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        }
    }

    /// Writes `letter` (any case) in this side's case.
    pub(crate) const fn case_letter(self, letter: u8) -> char {
        match self {
            Side::First => letter.to_ascii_uppercase() as char,
            Side::Second => letter.to_ascii_lowercase() as char,
        }
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of [`Side::from_str`]: the text was neither `first` nor `second`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected 'first' or 'second', found '{0}'")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    /// Reads `"first"` or `"second"`.
    ///
    /// ```
    /// use chuhe_notation::Side;
    /// assert_eq!("second".parse::<Side>(), Ok(Side::Second));
    /// assert!("First".parse::<Side>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "first" => Ok(Side::First),
            "second" => Ok(Side::Second),
            _ => Err(ParseSideError(s.chars().take(40).collect())),
        }
    }
}
