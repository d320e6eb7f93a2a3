//! Xiangqi (象棋): 9×10, standard rules (S1–S6) and capture-the-king teaching rules (C1–C4).

mod attacks;
mod bitboard;
mod chase;
mod chinese;
mod described;
mod game;
mod notation;
mod position;
mod san;
mod setup;
mod types;
mod wxf;

pub use crate::perft::{divide, perft, perft_game};
pub use crate::setup_error::{FenSyntaxError, Location, PositionError, Problem, SetupError};
pub use crate::MoveNotation;
pub use attacks::{
    cannon_captures, elephant_attacks, file_attacks, horse_attacks, own_half, palace, rook_attacks,
    ADVISOR_STEPS, GENERAL_STEPS, SOLDIER_STEPS,
};
pub use bitboard::{file_bb, rank_bb, squares, Square, SquareIter};
pub(crate) use game::chase_verdict;
pub use game::Game;
pub use position::Position;
pub use position::RepetitionFoldError;
pub use setup::looks_like_feen;
pub use types::{Move, Piece, Role, RuleSet};

/// A list of Xiangqi moves, large enough for any position a FEN can describe
/// (89 pieces of one side × 17 destinations at most).
pub type MoveList = crate::MoveList<Move, 1536>;

/// The standard start position in FEEN.
pub const START_FEEN: &str = "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x";

/// The standard start position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
