//! The games the command line knows, behind one interface.

use chuhe::xiongqi::{divide, perft_game, Game, Position};
use chuhe::{Outcome, Side};

use crate::{GameKind, Glyphs};

/// A game being replayed by a command.
pub trait GameSession {
    /// The `--game` name.
    fn game_name(&self) -> &'static str;
    /// Plays one move given as text; on error the game is unchanged.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// The legal moves, canonical PMN, sorted.
    fn legal_moves(&self) -> Vec<String>;
    /// FEEN of the current position.
    fn feen(&self) -> String;
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
    /// Perft split by move (PMN, count), sorted by move.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The board as text.
    fn render(&self, glyphs: Glyphs) -> String;
}

/// Opens a game at `position` (`start` or a FEEN) with a half-move clock.
pub fn open_game(
    kind: GameKind,
    position: &str,
    halfmove: u32,
) -> Result<Box<dyn GameSession>, String> {
    match kind {
        GameKind::Xiongqi => {
            let mut pos = if position.trim() == "start" {
                Position::start()
            } else {
                Position::from_feen(position.trim()).map_err(|e| e.to_string())?
            };
            pos.set_halfmove(halfmove);
            Ok(Box::new(Game::from_position(pos)))
        }
    }
}

impl GameSession for Game {
    fn game_name(&self) -> &'static str {
        "xiongqi"
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        self.play_text(text).map(|_| ()).map_err(|e| e.to_string())
    }

    fn legal_moves(&self) -> Vec<String> {
        let pos = self.position();
        let mut v: Vec<String> = Game::legal_moves(self)
            .iter()
            .map(|&m| pos.to_pmn(m))
            .collect();
        v.sort();
        v
    }

    fn feen(&self) -> String {
        self.position().to_feen()
    }

    fn turn(&self) -> Side {
        self.position().turn()
    }

    fn halfmove(&self) -> u32 {
        self.position().halfmove()
    }

    fn is_check(&self) -> bool {
        Game::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft_game(self, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let pos = self.position();
        let mut v: Vec<(String, u64)> = divide(self, depth)
            .into_iter()
            .map(|(m, n)| (pos.to_pmn(m), n))
            .collect();
        v.sort();
        v
    }

    fn render(&self, glyphs: Glyphs) -> String {
        crate::render::xiongqi(self, glyphs)
    }
}
