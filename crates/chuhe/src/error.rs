//! Errors shared by the games.

use crate::{MoveNotation, Outcome};

/// Why a move given as text, or as a value, is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in the expected notation.
    #[error("'{text}' is not a move: {reason}")]
    Syntax {
        /// The text as given.
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
    /// An [`MoveError::Illegal`] with this reason.
    pub fn illegal(reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            reason: reason.into(),
        }
    }
}
