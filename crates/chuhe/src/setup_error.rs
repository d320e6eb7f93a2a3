//! Errors for positions that are well formed text but not valid for a game.

use std::fmt;

use chuhe_notation::{Cell, Side};

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
    /// What is wrong, for a person.
    pub message: String,
}

impl Problem {
    /// A problem at `location`.
    pub fn new(location: Location, message: impl Into<String>) -> Problem {
        Problem {
            location,
            message: message.into(),
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
