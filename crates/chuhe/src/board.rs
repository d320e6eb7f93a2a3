//! Boards as text, for every game: the grid with the river, pieces in Latin letters or
//! Chinese characters, file letters underneath.

use std::fmt;

use crate::variant::{GamePosition, GameSquare};

/// What a board looks like beyond its size: where the river runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The river runs just below this rank (from 0): 4 on Xiongqi's board, 5 on Xiangqi's.
    pub river_below_rank: u8,
    /// Does the board have palaces (Xiangqi)?
    pub palaces: bool,
    /// Do pieces stand on the points where the lines cross (Xiangqi), rather than in the
    /// squares between them (Xiongqi)?
    pub points: bool,
}

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Glyphs {
    /// Letters (uppercase = first player): PIN for Xiongqi, FEN letters for Xiangqi.
    #[default]
    Latin,
    /// Chinese characters.
    Chinese,
}

/// A position's board as text (`Display`), from [`GamePosition::board`].
///
/// ```
/// use chuhe::{xiongqi, GamePosition, Glyphs};
/// let board = xiongqi::Position::start().board().to_string();
/// assert!(board.starts_with("8   r  h  b  a g^  b  h  r\n"));
/// assert!(board.contains("~~~~~~~~~~~~~~~~~~~~~~~~ river"));
/// let chinese = xiongqi::Position::start().board().glyphs(Glyphs::Chinese).to_string();
/// assert!(chinese.contains('熊'));
/// ```
pub struct BoardText<'a, P: GamePosition> {
    position: &'a P,
    glyphs: Glyphs,
}

impl<'a, P: GamePosition> BoardText<'a, P> {
    /// The board of `position`, in Latin letters.
    pub fn new(position: &'a P) -> Self {
        BoardText {
            position,
            glyphs: Glyphs::Latin,
        }
    }

    /// Draws the pieces with `glyphs`.
    pub fn glyphs(self, glyphs: Glyphs) -> Self {
        BoardText { glyphs, ..self }
    }
}

impl<P: GamePosition> fmt::Display for BoardText<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (files, ranks) = self.position.board_size();
        let river = self.position.board_geometry().river_below_rank;
        let label = ranks.to_string().len();
        for rank in (0..ranks).rev() {
            write!(f, "{:>label$} ", rank + 1)?;
            for file in 0..files {
                let piece = P::Square::from_coords(file, rank)
                    .and_then(|sq| self.position.piece_glyphs(sq));
                match (piece, self.glyphs) {
                    (None, Glyphs::Latin) => f.write_str("  .")?,
                    (None, Glyphs::Chinese) => f.write_str(" ・")?,
                    (Some((latin, _)), Glyphs::Latin) => write!(f, "{latin:>3}")?,
                    (Some((_, chinese)), Glyphs::Chinese) => write!(f, " {chinese}")?,
                }
            }
            writeln!(f)?;
            if rank == river {
                let width = 3 * files as usize;
                writeln!(f, "{:label$} {:~<width$} river", "", "")?;
            }
        }
        let indent = label
            + match self.glyphs {
                Glyphs::Latin => 3,
                Glyphs::Chinese => 2,
            };
        let names: Vec<String> = (0..files)
            .map(|file| char::from(b'a' + file).to_string())
            .collect();
        writeln!(f, "{:indent$}{}", "", names.join("  "))
    }
}
