//! # chuhe — rules for the Chinese-chess family
//!
//! The rules core: exact move generation, game arbiters and perft for
//! [Xiongqi](xiongqi) (8×8). No I/O: notations come from [`chuhe_notation`], and the
//! command line, engine and server are thin users of this crate.
//!
//! ```
//! use chuhe::xiongqi::{perft, Position};
//! let start = Position::start();
//! assert_eq!(perft(&start, 3), 17585);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod feen_out;
pub mod game;
mod movelist;
pub mod perft;
mod setup_error;
pub mod suite;
pub mod xiangqi;
pub mod xiongqi;
mod zobrist;

pub use error::MoveError;
pub use game::{Game, GameRules, History};
pub use movelist::MoveList;
pub use setup_error::{Location, PositionError, Problem};

pub use chuhe_notation::{Side, Status};

/// How a game ended: a CGSN status word and the winner (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game ended.
    pub status: Status,
    /// Who won; `None` is a draw.
    pub winner: Option<Side>,
}

impl Outcome {
    /// `winner` won by `status`.
    pub const fn win(status: Status, winner: Side) -> Outcome {
        Outcome {
            status,
            winner: Some(winner),
        }
    }

    /// A draw by `status`.
    pub const fn draw(status: Status) -> Outcome {
        Outcome {
            status,
            winner: None,
        }
    }

    /// The winner as the CLI and PCN write it: `first`, `second` or `none`.
    pub fn winner_str(&self) -> &'static str {
        match self.winner {
            Some(side) => side.as_str(),
            None => "none",
        }
    }
}
