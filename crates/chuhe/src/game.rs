//! The game arbiter shared by every game: history, repetition look-ups, results, undo.
//!
//! A game's rules plug in through [`GameRules`]; what differs between games (Xiongqi's
//! forbidden repetitions, Xiangqi's n-fold repetition with perpetual check) is in the two
//! history hooks.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::ops::Deref;

use chuhe_notation::{Side, Status};

use crate::{MoveError, Outcome};

/// What the arbiter needs from a game's position type.
pub trait GameRules: Clone + fmt::Debug {
    /// A move.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display;
    /// A list of moves.
    type Moves: Deref<Target = [Self::Move]>;

    /// The side to move.
    fn turn(&self) -> Side;
    /// Hash of the repetition identity (placement and side to move).
    fn identity_hash(&self) -> u64;
    /// Same placement and side to move?
    fn same_identity(&self, other: &Self) -> bool;
    /// Is the side to move in check?
    fn is_check(&self) -> bool;
    /// The legal moves ignoring history; none when the position alone ends the game.
    fn legal_moves(&self) -> Self::Moves;
    /// Keeps only the moves for which `keep` is true.
    fn retain_moves(moves: &mut Self::Moves, keep: impl FnMut(Self::Move) -> bool);
    /// `Ok` when `m` is legal ignoring history, else why not.
    fn check_move(&self, m: Self::Move) -> Result<(), MoveError>;
    /// Resolves a move written in the game's default notation.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// Plays a legal move.
    fn play_unchecked(&mut self, m: Self::Move);

    /// The result of the game at the last position of `history`, in the game's order,
    /// given whether the side to move has a legal move (history included).
    fn outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome>;

    /// Is `m` forbidden by the history (Xiongqi X6)? Such a move may still be played by a
    /// game record: it then ends the game as `repetition`, its player losing.
    fn is_forbidden_by_history(_history: &History<Self>, _m: Self::Move) -> bool {
        false
    }
}

/// The positions and moves of a game, with O(1) look-up of earlier occurrences of a position.
#[derive(Clone, Debug)]
pub struct History<P: GameRules> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl<P: GameRules> History<P> {
    fn new(start: P) -> History<P> {
        let mut by_hash = HashMap::new();
        by_hash.insert(start.identity_hash(), vec![0]);
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
            .get(&p.identity_hash())
            .into_iter()
            .flatten()
            .copied()
            .filter(move |&i| self.positions[i].same_identity(p))
    }

    fn push(&mut self, m: P::Move, after: P) {
        self.by_hash
            .entry(after.identity_hash())
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
        if let Some(v) = self.by_hash.get_mut(&after.identity_hash()) {
            v.pop();
            if v.is_empty() {
                self.by_hash.remove(&after.identity_hash());
            }
        }
        self.moves.pop()
    }
}

/// A game: a start position, the moves played, and the result.
#[derive(Clone, Debug)]
pub struct Game<P: GameRules> {
    history: History<P>,
    declared: Option<Outcome>,
    outcome: Option<Outcome>,
    /// The ply whose move was forbidden by history (it ended the game).
    forbidden_at: Option<usize>,
}

impl<P: GameRules> Game<P> {
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
        let mut list = self.position().legal_moves();
        if self.outcome.is_some() {
            P::retain_moves(&mut list, |_| false);
        } else {
            P::retain_moves(&mut list, |m| !P::is_forbidden_by_history(&self.history, m));
        }
        list
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
            return Err(MoveError::GameOver {
                status: o.status.as_str(),
            });
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
            return Err(MoveError::GameOver {
                status: o.status.as_str(),
            });
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

    fn declare(&mut self, outcome: Outcome) {
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
        P::outcome(&self.history, has_legal)
    }
}
