//! Errors shared by the games.

use chuhe_notation::error::shorten;

use crate::{MoveNotation, Outcome};

/// Why a move given as text, or as a value, is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in the expected notation.
    #[error("'{}' is not a move: {reason}", shorten(text))]
    Syntax {
        /// The text as given (shown cut short when long).
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A square outside the board.
    #[error("'{square}' is not a square of the board ({board})")]
    UnknownSquare {
        /// The square as written.
        square: String,
        /// The board's squares, e.g. `a1–h8`.
        board: &'static str,
    },
    /// Nothing stands on the origin.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The origin.
        square: String,
    },
    /// The piece on the origin belongs to the side not to move.
    #[error("the piece on {square} ('{piece}') is {owner}'s, and it is {turn}'s move")]
    NotYourPiece {
        /// The origin.
        square: String,
        /// The piece there.
        piece: String,
        /// Its owner (`first`/`second`).
        owner: &'static str,
        /// The side to move.
        turn: &'static str,
    },
    /// The move breaks the rules.
    #[error("{reason}")]
    Illegal {
        /// Why, for a person.
        reason: String,
    },
    /// The game is already over.
    #[error("the game is over ({outcome})")]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The game has no such notation.
    #[error("{game} moves are not written in {notation}")]
    UnsupportedNotation {
        /// The game's name.
        game: &'static str,
        /// The notation asked for.
        notation: MoveNotation,
    },
}

impl MoveError {
    /// A [`MoveError::Syntax`]: `text` (cut short when long) is not a move because of `reason`.
    pub fn syntax(text: &str, reason: &str) -> MoveError {
        MoveError::Syntax {
            text: shorten(text).into_owned(),
            reason: reason.to_string(),
        }
    }

    /// An [`MoveError::Illegal`] with this reason.
    pub fn illegal(reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            reason: reason.into(),
        }
    }
}

/// Does `text` start like a square (`e3`, `b10`: lowercase letters, then a digit)?
pub(crate) fn starts_with_square(text: &str) -> bool {
    let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
    letters > 0 && text.as_bytes().get(letters).is_some_and(u8::is_ascii_digit)
}

/// The error for text that is not a move of the game at all (it does not start with a
/// square): what a move looks like there, `example` being a quiet move in PMN and in
/// coordinates, rather than a guess of the PMN reader's (a drop, a pass).
pub(crate) fn not_a_move(text: &str, (pmn, coordinates): (&str, &str)) -> MoveError {
    MoveError::Syntax {
        text: text.to_string(),
        reason: format!("expected a move such as {pmn} or {coordinates}"),
    }
}
