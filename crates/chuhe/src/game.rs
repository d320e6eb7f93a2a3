//! The game arbiter shared by every game: history, repetition look-ups, results, undo.
//!
//! A game's rules plug in through [`GamePosition`]; what differs between games (Xiongqi's
//! forbidden repetitions, Xiangqi's n-fold repetition with perpetual check) is in its two
//! history hooks, [`GamePosition::game_outcome`] and [`GamePosition::is_forbidden_by_history`].

use std::collections::HashMap;

use chuhe_notation::{Side, Status};

use crate::variant::{GamePosition, MoveBuffer};
use crate::{MoveError, Outcome};

/// The positions and moves of a game, with O(1) look-up of earlier occurrences of a position.
#[derive(Clone, Debug)]
pub struct History<P: GamePosition> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl<P: GamePosition> History<P> {
    /// A history that starts at `start`, no move played.
    pub fn new(start: P) -> History<P> {
        let mut by_hash = HashMap::new();
        by_hash.insert(start.zobrist_hash(), vec![0]);
        History {
            positions: vec![start],
            moves: Vec::new(),
            by_hash,
        }
    }

    /// The positions: the start, then one after each move.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The current position.
    pub fn current(&self) -> &P {
        self.positions.last().expect("a history is never empty")
    }

    /// Indices (into [`History::positions`]) of every position with the same identity as `p`.
    pub fn occurrences<'a>(&'a self, p: &'a P) -> impl Iterator<Item = usize> + 'a {
        self.by_hash
            .get(&p.zobrist_hash())
            .into_iter()
            .flatten()
            .copied()
            .filter(move |&i| self.positions[i].same_identity(p))
    }

    fn push(&mut self, m: P::Move, after: P) {
        self.by_hash
            .entry(after.zobrist_hash())
            .or_default()
            .push(self.positions.len());
        self.positions.push(after);
        self.moves.push(m);
    }

    fn pop(&mut self) -> Option<P::Move> {
        if self.moves.is_empty() {
            return None;
        }
        let after = self.positions.pop()?;
        if let Some(v) = self.by_hash.get_mut(&after.zobrist_hash()) {
            v.pop();
            if v.is_empty() {
                self.by_hash.remove(&after.zobrist_hash());
            }
        }
        self.moves.pop()
    }
}

/// A game: a start position, the moves played, and the result.
#[derive(Clone, Debug)]
pub struct Game<P: GamePosition> {
    history: History<P>,
    declared: Option<Outcome>,
    outcome: Option<Outcome>,
    /// The ply whose move was forbidden by history (it ended the game).
    forbidden_at: Option<usize>,
}

impl<P: GamePosition> Game<P> {
    /// A game from the start position of a rule set (see [`GamePosition::start`]).
    pub fn start(config: P::Config) -> Game<P> {
        Game::from_position(P::start(config))
    }

    /// A game from `start`, a FEEN or (Xiangqi) a FEN, as [`GamePosition::from_text`].
    pub fn from_text(text: &str, config: P::Config) -> Result<Game<P>, crate::SetupError> {
        Ok(Game::from_position(P::from_text(text, config)?))
    }

    /// A game from a position (no history).
    pub fn from_position(position: P) -> Game<P> {
        let mut game = Game {
            history: History::new(position),
            declared: None,
            outcome: None,
            forbidden_at: None,
        };
        game.outcome = game.compute_outcome();
        game
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.history.current()
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &P {
        &self.history.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        self.history.moves()
    }

    /// The positions so far: the start, then one after each move.
    pub fn positions(&self) -> &[P] {
        self.history.positions()
    }

    /// The whole history.
    pub fn history(&self) -> &History<P> {
        &self.history
    }

    /// Is `m` forbidden by the history (Xiongqi's X6; never in Xiangqi)?
    pub fn is_repetitive(&self, m: P::Move) -> bool {
        P::is_forbidden_by_history(&self.history, m)
    }

    /// The legal moves, history included; none once the game is over.
    pub fn legal_moves(&self) -> P::Moves {
        let mut list = P::Moves::default();
        self.legal_moves_into(&mut list);
        list
    }

    /// Appends the legal moves, history included, to `out`; none once the game is over.
    pub fn legal_moves_into(&self, out: &mut P::Moves) {
        if self.outcome.is_some() {
            return;
        }
        let start = out.len();
        self.position().legal_moves_into(out);
        let mut i = 0;
        out.retain(|m| {
            i += 1;
            i <= start || !P::is_forbidden_by_history(&self.history, m)
        });
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Plays a move checked against the rules; on error the game is unchanged. A move that
    /// the history forbids (X6) is accepted, as a game record may contain one, and loses.
    pub fn play(&mut self, m: P::Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver { outcome: o });
        }
        self.position().check_move(m)?;
        let forbidden = P::is_forbidden_by_history(&self.history, m);
        let mut after = self.position().clone();
        after.play_unchecked(m);
        self.history.push(m, after);
        if forbidden {
            self.forbidden_at = Some(self.history.moves.len());
        }
        self.outcome = self.compute_outcome();
        Ok(())
    }

    /// Parses a move in the game's default notation and plays it; returns it.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver { outcome: o });
        }
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move (and any declared result).
    pub fn undo(&mut self) -> Option<P::Move> {
        let m = self.history.pop()?;
        if self
            .forbidden_at
            .is_some_and(|ply| ply > self.history.moves.len())
        {
            self.forbidden_at = None;
        }
        self.declared = None;
        self.outcome = self.compute_outcome();
        Some(m)
    }

    /// `side` resigns and loses (CGSN `resignation`).
    pub fn resign(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Resignation, !side));
    }

    /// `side`'s time ran out: it loses (CGSN `timelimit`).
    pub fn time_out(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Timelimit, !side));
    }

    /// Both players agree to a draw (CGSN `agreement`).
    pub fn agree_draw(&mut self) {
        self.declare(Outcome::draw(Status::Agreement));
    }

    /// Ends the game with a result decided outside the rules: a resignation, a time or
    /// illegal-move forfeit, an agreed draw, an adjudication. Ignored once the game is over;
    /// [`Game::undo`] takes it back.
    pub fn declare(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.declared = Some(outcome);
            self.outcome = Some(outcome);
        }
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        if let Some(d) = self.declared {
            return Some(d);
        }
        if self.forbidden_at.is_some() {
            // The player who made the forbidden move loses; the side to move now won.
            return Some(Outcome::win(Status::Repetition, self.position().turn()));
        }
        let moves = self.position().legal_moves();
        let has_legal = moves
            .iter()
            .any(|&m| !P::is_forbidden_by_history(&self.history, m));
        P::game_outcome(&self.history, has_legal)
    }
}
