//! A game chosen at run time, used through text: [`AnyGame`], implemented once for every
//! [`Game`] and opened by name with [`GameKind::new_game`].

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use chuhe_notation::Side;

use crate::board::Glyphs;
use crate::game::Game;
use crate::svg::SvgOptions;
use crate::variant::{GameKind, GameMove, GamePosition, GameVisitor, MoveNotation, PositionFormat};
use crate::{MoveError, Outcome, SetupError, UnsupportedFormat};

/// A move in every notation its game writes, keyed by notation name.
pub type MoveTexts = BTreeMap<&'static str, String>;

/// A game of any kind behind one object-safe interface, moves as text: for front ends that
/// pick the game by name and speak text (the command line, the server, Python).
///
/// ```
/// use chuhe::{GameKind, MoveNotation};
/// let mut game = GameKind::Xiangqi.new_game("start").unwrap();
/// let texts = game.play_text("C2=5", MoveNotation::Wxf).unwrap();
/// assert_eq!(texts["uci"], "h3e3");
/// assert_eq!(game.legal_moves_text(MoveNotation::Iccs).unwrap().len(), 45);
/// assert!(game.to_text(chuhe::PositionFormat::Fen).unwrap().ends_with("b - - 1 1"));
/// ```
pub trait AnyGame: Send + Sync {
    /// The game's registry entry.
    fn kind(&self) -> GameKind;
    /// The notations the game writes, its default first.
    fn notations(&self) -> &'static [MoveNotation];
    /// Plays a move written in `notation`; returns it in every notation of the game. On
    /// error the game is unchanged.
    fn play_text(&mut self, text: &str, notation: MoveNotation) -> Result<MoveTexts, MoveError>;
    /// A legal move written in `notation`, in every notation of the game, without playing it.
    fn move_texts(&self, text: &str, notation: MoveNotation) -> Result<MoveTexts, MoveError>;
    /// Takes back the last move (and any declared result); its PMN, if there was one.
    fn undo(&mut self) -> Option<String>;
    /// The legal moves (history included) written in `notation`, sorted.
    fn legal_moves_text(&self, notation: MoveNotation) -> Result<Vec<String>, MoveError>;
    /// Each legal move (history included) written in every one of `notations`, in the order
    /// of the moves generated: `[[uci, pmn], …]` for `&[Uci, Pmn]`.
    fn legal_moves_in(&self, notations: &[MoveNotation]) -> Result<Vec<Vec<String>>, MoveError>;
    /// The current position in `format`.
    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat>;
    /// The current position as FEEN.
    fn to_feen(&self) -> String;
    /// The side to move.
    fn turn(&self) -> Side;
    /// The half-move clock.
    fn halfmove(&self) -> u32;
    /// The number of moves played.
    fn plies(&self) -> usize;
    /// Is the side to move in check?
    fn is_check(&self) -> bool;
    /// The result, once the game is over (history and declarations included).
    fn outcome(&self) -> Option<Outcome>;
    /// `side` resigns.
    fn resign(&mut self, side: Side);
    /// Both sides agree to a draw.
    fn agree_draw(&mut self);
    /// Ends the game with a result decided outside the rules (see [`Game::declare`]).
    fn declare(&mut self, outcome: Outcome);
    /// The moves played, in coordinate form (`MoveNotation::Uci`).
    fn moves_uci(&self) -> Vec<String>;
    /// The moves played, in PMN (as game records write them).
    fn moves_pmn(&self) -> Vec<String>;
    /// The position the game started from, as FEEN.
    fn start_feen(&self) -> String;
    /// The position the game started from in `format` (a Xiangqi FEN keeps its half-move
    /// clock and move number, which a FEEN cannot hold).
    fn start_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat>;
    /// The half-move clock of the position the game started from.
    fn start_halfmove(&self) -> u32;
    /// A new game from the position this one started from, with its counters and rule
    /// options (the half-move clock, the repetition count), no move played.
    fn start_game(&self) -> Box<dyn AnyGame>;
    /// Perft from the current position, history counting where the rules say so.
    fn perft(&self, depth: u32) -> u64;
    /// The number of root moves [`AnyGame::divide_each`] will report.
    fn root_move_count(&self, depth: u32) -> usize;
    /// Perft split by root move, each written in `notation`, reported as it finishes;
    /// `on_move` returns `ControlFlow::Break` to stop the count early.
    fn divide_each(
        &self,
        depth: u32,
        notation: MoveNotation,
        on_move: &mut dyn FnMut(String, u64) -> ControlFlow<()>,
    ) -> Result<(), MoveError>;
    /// The board as text.
    fn board_text(&self, glyphs: Glyphs) -> String;
    /// The board as an SVG picture (see [`crate::SvgBoard`]); an arrow that is not two
    /// squares of the board is an error.
    fn board_svg(&self, options: &SvgOptions) -> Result<String, MoveError>;
}

impl<P: GamePosition> AnyGame for Game<P> {
    fn kind(&self) -> GameKind {
        self.position().kind()
    }

    fn notations(&self) -> &'static [MoveNotation] {
        P::notations()
    }

    fn play_text(&mut self, text: &str, notation: MoveNotation) -> Result<MoveTexts, MoveError> {
        let (m, texts) = read_move(self, text, notation)?;
        self.play(m)?;
        Ok(texts)
    }

    fn move_texts(&self, text: &str, notation: MoveNotation) -> Result<MoveTexts, MoveError> {
        read_move(self, text, notation).map(|(_, texts)| texts)
    }

    fn undo(&mut self) -> Option<String> {
        let m = Game::undo(self)?;
        self.position()
            .move_to_text(m, MoveNotation::Pmn)
            .ok()
            .or_else(|| Some(m.to_string()))
    }

    fn legal_moves_text(&self, notation: MoveNotation) -> Result<Vec<String>, MoveError> {
        let pos = self.position();
        let mut out = self
            .legal_moves()
            .iter()
            .map(|&m| pos.move_to_text(m, notation))
            .collect::<Result<Vec<_>, _>>()?;
        if out.is_empty() && !P::notations().contains(&notation) {
            return Err(MoveError::UnsupportedNotation {
                game: pos.game_name(),
                notation,
            });
        }
        out.sort();
        Ok(out)
    }

    fn legal_moves_in(&self, notations: &[MoveNotation]) -> Result<Vec<Vec<String>>, MoveError> {
        let pos = self.position();
        self.legal_moves()
            .iter()
            .map(|&m| notations.iter().map(|&n| pos.move_to_text(m, n)).collect())
            .collect()
    }

    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat> {
        self.position().to_text(format)
    }

    fn to_feen(&self) -> String {
        self.position().to_feen()
    }

    fn turn(&self) -> Side {
        self.position().turn()
    }

    fn halfmove(&self) -> u32 {
        self.position().halfmove()
    }

    fn plies(&self) -> usize {
        self.moves().len()
    }

    fn is_check(&self) -> bool {
        Game::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn resign(&mut self, side: Side) {
        Game::resign(self, side)
    }

    fn agree_draw(&mut self) {
        Game::agree_draw(self)
    }

    fn declare(&mut self, outcome: Outcome) {
        Game::declare(self, outcome)
    }

    fn moves_pmn(&self) -> Vec<String> {
        self.positions()
            .iter()
            .zip(self.moves())
            .map(|(pos, &m)| {
                pos.move_to_text(m, MoveNotation::Pmn)
                    .unwrap_or_else(|_| m.to_string())
            })
            .collect()
    }

    fn start_feen(&self) -> String {
        self.start_position().to_feen()
    }

    fn start_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat> {
        self.start_position().to_text(format)
    }

    fn start_halfmove(&self) -> u32 {
        self.start_position().halfmove()
    }

    fn start_game(&self) -> Box<dyn AnyGame> {
        Box::new(Game::from_position(self.start_position().clone()))
    }

    fn moves_uci(&self) -> Vec<String> {
        // Each move as its position writes it: a game read from rule files writes a promotion
        // with its piece's letter (`f2f1t`), where the move alone has only its choice.
        self.moves()
            .iter()
            .zip(self.positions())
            .map(|(&m, before)| {
                before
                    .move_to_text(m, MoveNotation::Uci)
                    .unwrap_or_else(|_| m.to_string())
            })
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_game(self, depth)
    }

    fn root_move_count(&self, depth: u32) -> usize {
        crate::perft::root_moves(self, depth).len()
    }

    fn divide_each(
        &self,
        depth: u32,
        notation: MoveNotation,
        on_move: &mut dyn FnMut(String, u64) -> ControlFlow<()>,
    ) -> Result<(), MoveError> {
        let pos = self.position();
        if !P::notations().contains(&notation) {
            return Err(MoveError::UnsupportedNotation {
                game: pos.game_name(),
                notation,
            });
        }
        let mut failed = None;
        crate::perft::divide_each(self, depth, |m, n| match pos.move_to_text(m, notation) {
            Ok(text) => on_move(text, n),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        });
        failed.map_or(Ok(()), Err)
    }

    fn board_text(&self, glyphs: Glyphs) -> String {
        self.position().board().glyphs(glyphs).to_string()
    }

    fn board_svg(&self, options: &SvgOptions) -> Result<String, MoveError> {
        let mut board = self
            .position()
            .svg()
            .glyphs(options.glyphs)
            .flipped(options.flipped)
            .square_targets(options.square_targets);
        if let Some(size) = options.size {
            board = board.size(size);
        }
        if let (true, Some(&m)) = (options.last_move, self.moves().last()) {
            board = board.last_move(m.from(), m.to());
        }
        for text in &options.arrows {
            let (from, to) = crate::svg::parse_arrow(text)?;
            board = board.arrow(from, to);
        }
        Ok(board.to_string())
    }
}

/// A legal move of `game` written in `notation`, and the move in every notation of the game.
fn read_move<P: GamePosition>(
    game: &Game<P>,
    text: &str,
    notation: MoveNotation,
) -> Result<(P::Move, MoveTexts), MoveError> {
    if let Some(outcome) = game.outcome() {
        return Err(MoveError::GameOver { outcome });
    }
    let pos = game.position();
    let m = pos.parse_move_as(text, notation)?;
    pos.check_move(m)?;
    let texts = P::notations()
        .iter()
        .filter_map(|&n| Some((n.name(), pos.move_to_text(m, n).ok()?)))
        .collect();
    Ok((m, texts))
}

/// How [`GameKind::new_game_with`] sets up the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// The half-move clock of the position (a FEEN holds none).
    pub halfmove: Option<u32>,
    /// How many occurrences of a position end the game by repetition (Xiangqi's S3).
    pub repetition_fold: Option<u8>,
}

struct NewGame<'a> {
    text: &'a str,
    options: GameOptions,
}

impl GameVisitor for NewGame<'_> {
    type Output = Result<Box<dyn AnyGame>, SetupError>;
    fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
        let mut pos = P::from_text(self.text, config)?;
        if let Some(h) = self.options.halfmove {
            pos.set_halfmove(h);
        }
        if let Some(fold) = self.options.repetition_fold {
            pos.set_repetition_fold(fold)?;
        }
        Ok(Box::new(Game::from_position(pos)))
    }
}

impl GameKind {
    /// A new game of this kind from `start`, a FEEN, or a FEN for Xiangqi.
    pub fn new_game(self, position: &str) -> Result<Box<dyn AnyGame>, SetupError> {
        self.new_game_with(position, GameOptions::default())
    }

    /// A new game with options for the position.
    pub fn new_game_with(
        self,
        position: &str,
        options: GameOptions,
    ) -> Result<Box<dyn AnyGame>, SetupError> {
        self.visit(NewGame {
            text: position,
            options,
        })
    }
}
