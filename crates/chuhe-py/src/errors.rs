//! The typed Python exceptions and the mapping of chuhe's errors onto them.

use chuhe::{MoveError, SetupError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    chuhe,
    InvalidMoveError,
    PyValueError,
    "A move that cannot be read: bad syntax, a square off the board, a notation the game lacks."
);
create_exception!(
    chuhe,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that the rules refuse here (or any move once the game is over)."
);
create_exception!(
    chuhe,
    InvalidPositionError,
    PyValueError,
    "A position text (FEEN, FEN or keyword) that is not a valid position of the game."
);
create_exception!(
    chuhe,
    RulesError,
    PyValueError,
    "A game directory (rules.json, its GGN table) that does not compile: the message names the \
     file, the key and what is wrong."
);

/// The exception for a move error; the message names the move and the position.
pub fn move_error(err: &MoveError, text: &str, feen: &str) -> PyErr {
    let text = chuhe::quote_input(text);
    match err {
        MoveError::Syntax { .. }
        | MoveError::UnknownSquare { .. }
        | MoveError::UnsupportedNotation { .. } => {
            InvalidMoveError::new_err(format!("invalid move '{text}' in position {feen}: {err}"))
        }
        MoveError::NoPiece { .. }
        | MoveError::NotYourPiece { .. }
        | MoveError::Illegal { .. }
        | MoveError::GameOver { .. } => {
            IllegalMoveError::new_err(format!("illegal move '{text}' in position {feen}: {err}"))
        }
    }
}

/// The exception for a position that does not read.
pub fn position_error(err: &SetupError, game: &str, text: &str) -> PyErr {
    InvalidPositionError::new_err(format!(
        "invalid {game} position '{}': {err}",
        chuhe::quote_input(text)
    ))
}
