//! Xiongqi (熊棋, "Panda Chess"): 8×8, the rules of `shared/docs/xiongqi-rules.md` (X1–X9).
//!
//! ```
//! use chuhe::xiongqi::{Game, Position};
//! use chuhe::GamePosition;
//! let mut game = Game::new();
//! game.play_text("e3-e4").unwrap();
//! assert_eq!(game.position().to_feen(), "rhbag^bhr/2c2c2/ssssssss/8/4S3/SSSS1SSS/2C2C2/RHBAG^BHR / x/X");
//! ```

mod attacks;
mod bitboard;
mod game;
mod moves;
mod perft;
mod position;
mod setup;
mod types;

pub use crate::perft::{divide, perft, perft_game};
pub use crate::setup_error::{Location, PositionError, Problem, SetupError};
pub use crate::MoveNotation;
pub use attacks::{bishop_attacks, cannon_captures, horse_attacks, rook_attacks};
pub use bitboard::{file_bb, rank_bb, squares, Square, SquareIter};
pub use game::Game;
pub use position::Position;
pub use setup::Setup;
pub use types::{Move, MoveList, Piece, Role};

/// The start position in FEEN.
pub const START_FEEN: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";
