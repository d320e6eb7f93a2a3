//! The object-safe faces of a game that the Python classes hold, implemented once for every
//! game over [`GamePosition`] (the text-level part is the library's [`AnyGame`]).

use std::any::Any;
use std::sync::Arc;

use crate::env::{
    decode_action, encode_move, spec_with_history, write_mask, write_observation, Layout, Spec,
};
use chuhe::{
    AnyGame, Game, GameKind, GameMove, GamePosition, GameVisitor, MoveError, MoveNotation,
    PositionFormat, SetupError, Side,
};

/// A position frozen at the time a move was made, to write that move in any notation.
pub trait DynPos: Send + Sync {
    /// The game.
    fn kind(&self) -> GameKind;
    /// The move with encoding `bits` written in `notation`.
    fn move_text(&self, bits: u16, notation: MoveNotation) -> Result<String, MoveError>;
    /// Origin and destination squares (CELL) and the choice (promotion) index.
    fn move_parts(&self, bits: u16) -> Option<(String, String, usize)>;
    /// The position as FEEN.
    fn feen(&self) -> String;
}

fn no_such_move(bits: u16) -> MoveError {
    MoveError::illegal(format!("no move has the encoding {bits}"))
}

impl<P: GamePosition> DynPos for P {
    fn kind(&self) -> GameKind {
        GamePosition::kind(self)
    }
    fn move_text(&self, bits: u16, notation: MoveNotation) -> Result<String, MoveError> {
        let m = P::Move::from_bits(bits).ok_or_else(|| no_such_move(bits))?;
        GamePosition::move_to_text(self, m, notation)
    }
    fn move_parts(&self, bits: u16) -> Option<(String, String, usize)> {
        let m = P::Move::from_bits(bits)?;
        Some((m.from().to_string(), m.to().to_string(), m.choice()))
    }
    fn feen(&self) -> String {
        self.to_feen()
    }
}

/// A game with its history, as the Python `Game` holds it.
pub trait DynGame: AnyGame + Send + Sync {
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The current position.
    fn position(&self) -> Arc<dyn DynPos>;
    /// The legal moves (history included), sorted by their default-notation text.
    fn legal_bits(&self) -> Vec<u16>;
    /// Reads a move in `notation`, or in any notation of the game when `None`.
    fn parse(&self, text: &str, notation: Option<MoveNotation>) -> Result<u16, MoveError>;
    /// Plays a move given by its encoding, checked by the arbiter.
    fn push_bits(&mut self, bits: u16) -> Result<(), MoveError>;
    /// Takes back the last move: it and the position it was played in.
    fn pop_bits(&mut self) -> Option<(u16, Arc<dyn DynPos>)>;
    /// The moves played, each with the position it was played in.
    fn stack(&self) -> Vec<(u16, Arc<dyn DynPos>)>;
    /// The start position and its half-move clock: a FEN where the game reads one back (so
    /// the move number is kept too), else a FEEN.
    fn start(&self) -> (String, u32);
    /// As `Any`: the `Game<P>` itself, for code written over one game type.
    fn as_any(&self) -> &dyn Any;
    /// As the library's text-level game (records are written from it).
    fn as_any_game(&self) -> &dyn AnyGame;
    /// The shape of the observation with `history` earlier positions, and of the actions.
    fn spec(&self, history: usize) -> Spec;
    /// Writes the observation (from the side to move's view, `history` earlier positions)
    /// and the legal-action mask of the current position: the environments' encoding.
    fn observe_into(&self, history: usize, obs: &mut [f32], mask: &mut [i8]);
    /// Writes the observation of the current position from `side`'s view.
    fn observe_as(&self, side: Side, history: usize, obs: &mut [f32]);
    /// The legal actions (history included), ascending; none once the game is over.
    fn legal_actions(&self) -> Vec<usize>;
    /// The move (encoding) an action stands for in the current position, legal or not.
    fn action_bits(&self, action: i64) -> Option<u16>;
    /// The action of a move (encoding) in the current position.
    fn bits_action(&self, bits: u16) -> Option<usize>;
}

impl<P: GamePosition> DynGame for Game<P> {
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn position(&self) -> Arc<dyn DynPos> {
        Arc::new(Game::position(self).clone())
    }

    fn legal_bits(&self) -> Vec<u16> {
        let pos = Game::position(self);
        let mut moves: Vec<(String, u16)> = self
            .legal_moves()
            .iter()
            .map(|&m| {
                let text = pos
                    .move_to_text(m, MoveNotation::Pmn)
                    .unwrap_or_else(|_| m.to_string());
                (text, m.bits())
            })
            .collect();
        moves.sort();
        moves.into_iter().map(|(_, bits)| bits).collect()
    }

    fn parse(&self, text: &str, notation: Option<MoveNotation>) -> Result<u16, MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver { outcome });
        }
        let pos = Game::position(self);
        let text = text.trim();
        if let Some(n) = notation {
            return pos.parse_move_as(text, n).map(|m| m.bits());
        }
        // Any notation: the first that reads it; else the most telling error (a move that
        // reads but is illegal beats a syntax error), the default notation's first.
        let mut best: Option<MoveError> = None;
        for &n in P::notations() {
            match pos.parse_move_as(text, n) {
                Ok(m) => return Ok(m.bits()),
                Err(e) => {
                    let telling = !matches!(e, MoveError::Syntax { .. });
                    if best.is_none() || (telling && matches!(best, Some(MoveError::Syntax { .. })))
                    {
                        best = Some(e);
                    }
                }
            }
        }
        Err(best.unwrap_or_else(|| MoveError::Syntax {
            text: text.to_string(),
            reason: "empty".into(),
        }))
    }

    fn push_bits(&mut self, bits: u16) -> Result<(), MoveError> {
        let m = P::Move::from_bits(bits).ok_or_else(|| no_such_move(bits))?;
        self.play(m)
    }

    fn pop_bits(&mut self) -> Option<(u16, Arc<dyn DynPos>)> {
        let m = self.undo()?;
        Some((m.bits(), DynGame::position(self)))
    }

    fn stack(&self) -> Vec<(u16, Arc<dyn DynPos>)> {
        self.moves()
            .iter()
            .zip(self.positions())
            .map(|(m, p)| (m.bits(), Arc::new(p.clone()) as Arc<dyn DynPos>))
            .collect()
    }

    fn start(&self) -> (String, u32) {
        let s = self.start_position();
        // FEN (what other programs read) when it says everything: a FEN has no hands.
        let text = s
            .to_text(PositionFormat::Fen)
            .ok()
            .filter(|fen| P::from_text(fen, s.config()).is_ok_and(|p| p.to_feen() == s.to_feen()))
            .unwrap_or_else(|| s.to_feen());
        (text, s.halfmove())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_game(&self) -> &dyn AnyGame {
        self
    }

    fn spec(&self, history: usize) -> Spec {
        spec_with_history(Game::position(self), history)
    }

    fn observe_into(&self, history: usize, obs: &mut [f32], mask: &mut [i8]) {
        let side = Game::position(self).turn();
        write_observation(self, side, history, obs);
        let layout = Layout::of(Game::position(self));
        write_mask::<P>(layout, &self.legal_moves(), side, mask);
    }

    fn observe_as(&self, side: Side, history: usize, obs: &mut [f32]) {
        write_observation(self, side, history, obs);
    }

    fn legal_actions(&self) -> Vec<usize> {
        let side = Game::position(self).turn();
        let layout = Layout::of(Game::position(self));
        let mut v: Vec<usize> = self
            .legal_moves()
            .iter()
            .map(|&m| encode_move::<P>(layout, m, side))
            .collect();
        v.sort_unstable();
        v
    }

    fn action_bits(&self, action: i64) -> Option<u16> {
        let pos = Game::position(self);
        decode_action::<P>(Layout::of(pos), action, pos.turn()).map(|m| m.bits())
    }

    fn bits_action(&self, bits: u16) -> Option<usize> {
        let m = P::Move::from_bits(bits)?;
        let pos = Game::position(self);
        Some(encode_move::<P>(Layout::of(pos), m, pos.turn()))
    }
}

/// Opens a game of `kind` from `start`, a FEEN, or (Xiangqi) a FEN.
pub fn new_game(kind: GameKind, position: &str) -> Result<Box<dyn DynGame>, SetupError> {
    struct Open<'a>(&'a str);
    impl GameVisitor for Open<'_> {
        type Output = Result<Box<dyn DynGame>, SetupError>;
        fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
            Ok(Box::new(Game::<P>::from_text(self.0, config)?))
        }
    }
    kind.visit(Open(position))
}

/// A game of `kind` from a FEEN or FEN with its half-move clock set to `halfmove`.
pub fn new_game_at(
    kind: GameKind,
    position: &str,
    halfmove: u32,
) -> Result<Box<dyn DynGame>, SetupError> {
    struct Open<'a>(&'a str, u32);
    impl GameVisitor for Open<'_> {
        type Output = Result<Box<dyn DynGame>, SetupError>;
        fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
            let mut start = P::from_text(self.0, config)?;
            start.set_halfmove(self.1);
            Ok(Box::new(Game::<P>::from_position(start)))
        }
    }
    kind.visit(Open(position, halfmove))
}

/// A position of `kind` (a FEEN or FEN), for a move to be written in.
pub fn new_pos(kind: GameKind, position: &str) -> Result<Arc<dyn DynPos>, SetupError> {
    struct Open<'a>(&'a str);
    impl GameVisitor for Open<'_> {
        type Output = Result<Arc<dyn DynPos>, SetupError>;
        fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
            Ok(Arc::new(P::from_text(self.0, config)?))
        }
    }
    kind.visit(Open(position))
}
