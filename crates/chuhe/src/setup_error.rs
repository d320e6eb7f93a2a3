//! Errors for positions that are well formed text but not valid for a game.

use std::fmt;

use chuhe_notation::{Cell, ParseError, Side};

/// Where a problem in a setup is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A square of the board.
    Square(Cell),
    /// The hand of a side.
    Hand(Side),
    /// The board as a whole.
    Board,
    /// The side-to-move (or style-turn) field.
    Turn,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Square(c) => write!(f, "{c}"),
            Location::Hand(side) => write!(f, "{} hand", side.as_str()),
            Location::Board => f.write_str("board"),
            Location::Turn => f.write_str("side to move"),
        }
    }
}

/// One reason a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where.
    pub location: Location,
    /// What is wrong, for a person (in English).
    pub message: String,
    /// What is wrong, for a program: a code (`no_general`, `general_outside_palace`…, or
    /// `other`) that a program words in its own language with [`Problem::params`].
    pub code: &'static str,
    /// The code's parameters by name (`side`: `first` or `second`; `square`, `piece`…).
    pub params: Vec<(&'static str, String)>,
}

impl Problem {
    /// A problem at `location`, told in words only (code `other`).
    pub fn new(location: Location, message: impl Into<String>) -> Problem {
        Problem {
            location,
            message: message.into(),
            code: "other",
            params: Vec::new(),
        }
    }

    /// A problem at `location` with its code and parameters as well as its words.
    ///
    /// ```
    /// use chuhe::{Location, Problem};
    /// let p = Problem::coded(Location::Board, "no_general", &[("side", "first")], "Red has no general");
    /// assert_eq!((p.code, p.params[0].1.as_str()), ("no_general", "first"));
    /// ```
    pub fn coded(
        location: Location,
        code: &'static str,
        params: &[(&'static str, &str)],
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            location,
            message: message.into(),
            code,
            params: params.iter().map(|&(k, v)| (k, v.to_string())).collect(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Every reason a setup is not a valid position of a game, never just the first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    /// The game (`Xiongqi`, `Xiangqi`).
    pub game: &'static str,
    /// Every problem found, in board order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} position: ", self.game)?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// A FEN that could not be read, with the character offset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct FenSyntaxError {
    /// Byte offset in the FEN.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN at offset {}: {}", self.offset, self.message)
    }
}

/// Why a text did not give a position of a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not a standard Xiangqi FEN.
    #[error(transparent)]
    Fen(#[from] FenSyntaxError),
    /// Not canonical FEEN.
    #[error(transparent)]
    Feen(#[from] ParseError),
    /// Well formed, but not a valid position of the game.
    #[error(transparent)]
    Invalid(#[from] PositionError),
    /// A rule option the game does not have (or a value it refuses).
    #[error(transparent)]
    Option(#[from] crate::RuleOptionError),
    /// A single word that is not the keyword `start`.
    #[error("unknown position keyword '{word}': write start, or a position in {formats}")]
    UnknownKeyword {
        /// The word as given (cut when long).
        word: String,
        /// The formats the game reads, for the message (`FEEN`, `FEN or FEEN`).
        formats: &'static str,
    },
}
