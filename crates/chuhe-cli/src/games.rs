//! The games the command line knows, behind one interface.

use std::collections::BTreeMap;

use chuhe::perft::{divide, perft_game};
use chuhe::{xiangqi, xiongqi, Outcome, Side};

use crate::{GameKind, Glyphs, Notation};

/// A move in every notation its game writes, keyed by notation name.
pub type MoveTexts = BTreeMap<&'static str, String>;

/// A game being replayed by a command.
pub trait GameSession {
    /// The `--game` name.
    fn game_name(&self) -> &'static str;
    /// `Ok` when the game's moves can be written in `notation`.
    fn check_notation(&self, _notation: Notation) -> Result<(), String> {
        Ok(())
    }
    /// Plays one move written in `notation`; returns it in every notation of the game.
    /// On error the game is unchanged.
    fn play(&mut self, text: &str, notation: Notation) -> Result<MoveTexts, String>;
    /// The legal moves written in `notation`, sorted.
    fn legal_moves(&self, notation: Notation) -> Vec<String>;
    /// FEEN of the current position.
    fn feen(&self) -> String;
    /// Standard FEN of the current position, for games that have one.
    fn fen(&self) -> Option<String>;
    /// Side to move.
    fn turn(&self) -> Side;
    /// Half-move clock.
    fn halfmove(&self) -> u32;
    /// Is the side to move in check?
    fn is_check(&self) -> bool;
    /// The result, if the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Perft from here.
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by move, moves written in `notation`, sorted.
    fn divide(&self, depth: u32, notation: Notation) -> Vec<(String, u64)>;
    /// The board as text.
    fn render(&self, glyphs: Glyphs) -> String;
}

/// How a session starts.
pub struct Opening<'a> {
    /// The game.
    pub game: GameKind,
    /// `start`, a FEEN, or (Xiangqi) a FEN.
    pub position: &'a str,
    /// Half-move clock to set, if given.
    pub halfmove: Option<u32>,
    /// Xiangqi's repetition fold count (S3).
    pub repetition_count: u8,
}

/// Opens a game session.
pub fn open_game(o: &Opening) -> Result<Box<dyn GameSession>, String> {
    let text = o.position.trim();
    match o.game {
        GameKind::Xiongqi => {
            let mut pos = if text == "start" {
                xiongqi::Position::start()
            } else {
                xiongqi::Position::from_feen(text).map_err(|e| e.to_string())?
            };
            if let Some(h) = o.halfmove {
                pos.set_halfmove(h);
            }
            Ok(Box::new(xiongqi::Game::from_position(pos)))
        }
        GameKind::Xiangqi | GameKind::XiangqiCapture => {
            let rules = if o.game == GameKind::Xiangqi {
                xiangqi::RuleSet::Standard
            } else {
                xiangqi::RuleSet::Capture
            };
            let mut pos = if text == "start" {
                xiangqi::Position::start_with(rules)
            } else {
                xiangqi::Position::from_text(text, rules).map_err(|e| e.to_string())?
            };
            if let Some(h) = o.halfmove {
                pos.set_halfmove(h);
            }
            pos.set_repetition_fold(o.repetition_count);
            Ok(Box::new(xiangqi::Game::from_position(pos)))
        }
    }
}

/// A Xiongqi move in `notation`: PMN, or the coordinate form (`e3e4`, `e7e8e`) for `uci`.
fn xiongqi_text(pos: &xiongqi::Position, m: xiongqi::Move, notation: Notation) -> String {
    match notation {
        Notation::Uci => m.to_string(),
        _ => pos.to_pmn(m),
    }
}

impl GameSession for xiongqi::Game {
    fn game_name(&self) -> &'static str {
        GameKind::Xiongqi.name()
    }

    fn check_notation(&self, notation: Notation) -> Result<(), String> {
        match notation {
            Notation::Pmn | Notation::Uci => Ok(()),
            other => Err(format!(
                "--notation {} is for Xiangqi; Xiongqi moves are pmn, or uci for the coordinate form e3e4",
                other.name()
            )),
        }
    }

    fn play(&mut self, text: &str, notation: Notation) -> Result<MoveTexts, String> {
        self.check_notation(notation)?;
        let before = self.position().clone();
        let m = self.play_text(text).map_err(|e| e.to_string())?;
        Ok(MoveTexts::from([
            ("pmn", before.to_pmn(m)),
            ("uci", m.to_string()),
        ]))
    }

    fn legal_moves(&self, notation: Notation) -> Vec<String> {
        let pos = self.position();
        let mut v: Vec<String> = xiongqi::Game::legal_moves(self)
            .iter()
            .map(|&m| xiongqi_text(pos, m, notation))
            .collect();
        v.sort();
        v
    }

    fn feen(&self) -> String {
        self.position().to_feen()
    }

    fn fen(&self) -> Option<String> {
        None
    }

    fn turn(&self) -> Side {
        self.position().turn()
    }

    fn halfmove(&self) -> u32 {
        self.position().halfmove()
    }

    fn is_check(&self) -> bool {
        xiongqi::Game::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        xiongqi::Game::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft_game(self, depth)
    }

    fn divide(&self, depth: u32, notation: Notation) -> Vec<(String, u64)> {
        let pos = self.position();
        let mut v: Vec<(String, u64)> = divide(self, depth)
            .into_iter()
            .map(|(m, n)| (xiongqi_text(pos, m, notation), n))
            .collect();
        v.sort();
        v
    }

    fn render(&self, glyphs: Glyphs) -> String {
        crate::render::xiongqi(self, glyphs)
    }
}

fn xiangqi_notation(n: Notation) -> xiangqi::MoveNotation {
    match n {
        Notation::Pmn => xiangqi::MoveNotation::Pmn,
        Notation::Uci => xiangqi::MoveNotation::Uci,
        Notation::Iccs => xiangqi::MoveNotation::Iccs,
        Notation::Wxf => xiangqi::MoveNotation::Wxf,
        Notation::Teaching => xiangqi::MoveNotation::Teaching,
    }
}

impl GameSession for xiangqi::Game {
    fn game_name(&self) -> &'static str {
        self.position().rules().name()
    }

    fn play(&mut self, text: &str, notation: Notation) -> Result<MoveTexts, String> {
        if let Some(o) = self.outcome() {
            let over = chuhe::MoveError::GameOver {
                status: o.status.as_str(),
            };
            return Err(over.to_string());
        }
        let before = self.position().clone();
        let m = before
            .parse_move_as(text, xiangqi_notation(notation))
            .map_err(|e| e.to_string())?;
        xiangqi::Game::play(self, m).map_err(|e| e.to_string())?;
        Ok(xiangqi::MoveNotation::ALL
            .into_iter()
            .map(|n| (n.name(), before.move_to_text(m, n)))
            .collect())
    }

    fn legal_moves(&self, notation: Notation) -> Vec<String> {
        let pos = self.position();
        let n = xiangqi_notation(notation);
        let mut v: Vec<String> = xiangqi::Game::legal_moves(self)
            .iter()
            .map(|&m| pos.move_to_text(m, n))
            .collect();
        v.sort();
        v
    }

    fn feen(&self) -> String {
        self.position().to_feen()
    }

    fn fen(&self) -> Option<String> {
        Some(self.position().to_fen())
    }

    fn turn(&self) -> Side {
        self.position().turn()
    }

    fn halfmove(&self) -> u32 {
        self.position().halfmove()
    }

    fn is_check(&self) -> bool {
        xiangqi::Game::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        xiangqi::Game::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft_game(self, depth)
    }

    fn divide(&self, depth: u32, notation: Notation) -> Vec<(String, u64)> {
        let pos = self.position();
        let n = xiangqi_notation(notation);
        let mut v: Vec<(String, u64)> = divide(self, depth)
            .into_iter()
            .map(|(m, c)| (pos.move_to_text(m, n), c))
            .collect();
        v.sort();
        v
    }

    fn render(&self, glyphs: Glyphs) -> String {
        crate::render::xiangqi(self, glyphs)
    }
}
