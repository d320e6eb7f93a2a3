//! Xiongqi's rules for the shared arbiter: repetition (X6) and the end of the game (X7).

use chuhe_notation::Status;

use super::position::Position;
use super::setup::FeenError;
use super::types::{Move, MoveList};
use crate::game::{GameRules, History};
use crate::{MoveError, Outcome};

/// A Xiongqi game: the shared arbiter with Xiongqi's rules.
///
/// ```
/// use chuhe::xiongqi::Game;
/// use chuhe_notation::Status;
/// let mut game = Game::new();
/// for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] {
///     game.play_text(m).unwrap();
/// }
/// // Playing a1-a2 again would repeat the move that led to the same position (X6).
/// let again = game.position().parse_move("a1-a2").unwrap();
/// assert!(game.is_repetitive(again));
/// assert!(!game.legal_moves().contains(&again));
/// game.play(again).unwrap(); // a record may still play it: its player loses
/// assert_eq!(game.outcome().unwrap().status, Status::Repetition);
/// ```
pub type Game = crate::Game<Position>;

impl crate::Game<Position> {
    /// A game from the start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a FEEN (no history, clock 0: X8).
    pub fn from_feen(text: &str) -> Result<Game, FeenError> {
        Ok(Game::from_position(Position::from_feen(text)?))
    }
}

impl Default for crate::Game<Position> {
    fn default() -> Self {
        Game::new()
    }
}

/// The X6 identity of a move: the moving piece (before moving), origin, destination, promotion.
#[inline]
pub(crate) fn move_key(pos: &Position, m: Move) -> u32 {
    let piece = pos.board[m.from().index()] as u32;
    (piece << 16) | m.bits() as u32
}

impl GameRules for Position {
    type Move = Move;
    type Moves = MoveList;

    fn turn(&self) -> chuhe_notation::Side {
        self.turn
    }

    fn identity_hash(&self) -> u64 {
        self.hash
    }

    fn same_identity(&self, other: &Self) -> bool {
        Position::same_identity(self, other)
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }

    fn retain_moves(moves: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        moves.retain(keep);
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if let Some(o) = self.static_outcome() {
            return Err(MoveError::GameOver {
                status: o.status.as_str(),
            });
        }
        self.check_movement(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }

    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m)
    }

    /// X7 in order: mareking, insufficient, stalemate (repetitive moves do not count), movelimit.
    fn outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome> {
        let pos = history.current();
        if let Some(o) = pos.static_outcome() {
            return Some(o);
        }
        (!has_legal_move).then(|| Outcome::win(Status::Stalemate, !pos.turn))
    }

    /// X6: the same move (piece, origin, destination, promotion) leading to the same position
    /// (placement and side to move) as an earlier entry of the history.
    fn is_forbidden_by_history(history: &History<Self>, m: Move) -> bool {
        let pos = history.current();
        // A repetitive move never captures: pieces never come back to the board.
        if history.moves().is_empty() || pos.is_capture(m) {
            return false;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let key = move_key(pos, m);
        let positions = history.positions();
        let moves = history.moves();
        let repeated = history
            .occurrences(&after)
            .any(|i| i > 0 && move_key(&positions[i - 1], moves[i - 1]) == key);
        repeated
    }
}
