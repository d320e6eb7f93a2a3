//! The game arbiter: history, repetition (X6), game end (X7), undo.

use std::collections::HashMap;

use chuhe_notation::{Side, Status};

use super::moves::MoveError;
use super::position::Position;
use super::setup::FeenError;
use super::types::{Move, MoveList};
use crate::Outcome;

/// The X6 identity of a move: the moving piece (before moving), origin, destination, promotion.
#[inline]
pub(crate) fn move_key(pos: &Position, m: Move) -> u32 {
    let piece = pos.board[m.from().index()] as u32;
    (piece << 16) | m.bits() as u32
}

/// A Xiongqi game: a start position, the moves played, and the result.
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
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// (hash after, move key) → index into `positions` of the position it led to.
    seen: HashMap<(u64, u32), usize>,
    declared: Option<Outcome>,
    outcome: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameError(#[from] pub MoveError);

impl Game {
    /// A game from the start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a position (no history, X8).
    pub fn from_position(position: Position) -> Game {
        let mut game = Game {
            positions: vec![position],
            moves: Vec::new(),
            seen: HashMap::new(),
            declared: None,
            outcome: None,
        };
        game.outcome = game.compute_outcome();
        game
    }

    /// A game from a FEEN.
    pub fn from_feen(text: &str) -> Result<Game, FeenError> {
        Ok(Game::from_position(Position::from_feen(text)?))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions so far: the start, then one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Would `m` repeat an earlier (move, resulting position) pair (X6)? O(1).
    pub fn is_repetitive(&self, m: Move) -> bool {
        let pos = self.position();
        if self.seen.is_empty() || pos.is_capture(m) {
            return false;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        self.seen
            .get(&(after.hash(), move_key(pos, m)))
            .is_some_and(|&i| self.positions[i].same_identity(&after))
    }

    /// The legal moves: by the movement rules, minus repetitive moves, none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        let mut list = self.position().legal_moves();
        if !self.seen.is_empty() {
            list.retain(|m| !self.is_repetitive(m));
        }
        list
    }

    /// The result, once the game is over (X7, X6 and declared results).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Is the side to move in check (informative, X4)?
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Plays a move checked against the rules. A repetitive move (X6) is accepted, as a game
    /// record may contain one, and ends the game as `repetition`, its player losing.
    /// On error the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver {
                status: o.status.as_str(),
            }
            .into());
        }
        let pos = self.position();
        let mover = pos.turn();
        if !pos.is_pseudo_legal(m) {
            // Let the position explain why.
            let text = m.to_string();
            pos.parse_move(&text)?;
            return Err(MoveError::Illegal {
                reason: format!("{m} is not a legal move here"),
            }
            .into());
        }
        let repetitive = self.is_repetitive(m);
        self.push(m);
        if repetitive {
            self.outcome = Some(Outcome::win(Status::Repetition, !mover));
        }
        Ok(())
    }

    /// Parses (PMN or coordinates) and plays a move; returns it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver {
                status: o.status.as_str(),
            }
            .into());
        }
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    fn push(&mut self, m: Move) {
        let pos = self.position();
        let key = move_key(pos, m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let index = self.positions.len();
        self.seen.entry((after.hash(), key)).or_insert(index);
        self.positions.push(after);
        self.moves.push(m);
        self.outcome = self.compute_outcome();
    }

    /// Takes back the last move; declared results are cleared too.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let after = self.positions.pop()?;
        let index = self.positions.len();
        let key = move_key(self.position(), m);
        if self.seen.get(&(after.hash(), key)) == Some(&index) {
            self.seen.remove(&(after.hash(), key));
        }
        self.declared = None;
        self.outcome = self.compute_outcome();
        Some(m)
    }

    /// `side` resigns and loses (CGSN `resignation`).
    pub fn resign(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Resignation, !side));
    }

    /// `side`'s flag fell: it loses (CGSN `timelimit`).
    pub fn time_out(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Timelimit, !side));
    }

    /// Both players agree to a draw (CGSN `agreement`).
    pub fn agree_draw(&mut self) {
        self.declare(Outcome::draw(Status::Agreement));
    }

    fn declare(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.declared = Some(outcome);
            self.outcome = Some(outcome);
        }
    }

    /// X7 in order after the last move: mareking, insufficient, stalemate, movelimit.
    fn compute_outcome(&self) -> Option<Outcome> {
        if let Some(d) = self.declared {
            return Some(d);
        }
        let pos = self.position();
        if let Some(o) = pos.static_outcome() {
            return Some(o);
        }
        let mut list = pos.legal_moves();
        if !self.seen.is_empty() {
            list.retain(|m| !self.is_repetitive(m));
        }
        list.is_empty()
            .then(|| Outcome::win(Status::Stalemate, !pos.turn()))
    }
}
