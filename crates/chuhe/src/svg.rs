//! Boards as SVG pictures, for every game, in the spirit of python-chess's `chess.svg`: the
//! grid with the river (and the palaces for Xiangqi), pieces as discs with Chinese characters
//! or Latin letters, coordinates, the last move, a check mark and arrows. The picture is one
//! self-contained SVG document (no scripts, no external files).
//!
//! ```
//! use chuhe::{xiangqi, GamePosition, Glyphs};
//! let pos = xiangqi::Position::start();
//! let svg = pos.svg().glyphs(Glyphs::Chinese).flipped(true).size(450).to_string();
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert!(svg.contains("帥") && svg.contains("將"));
//! ```

use std::fmt::{self, Write as _};

use crate::board::Glyphs;
use crate::variant::{parse_square, GamePosition, GameSquare};
use crate::{MoveError, Side};

/// The side of a length of the grid, in the picture's own units.
const CELL: f64 = 50.0;
/// The band around the grid that holds the coordinates.
const LABEL: f64 = 24.0;

const BOARD_FILL: &str = "#f2d49b";
const LINE: &str = "#5b3a1a";
const RIVER: &str = "#8fb8d8";
const PIECE_FILL: &str = "#fbf1dc";
const FIRST_COLOUR: &str = "#b8231b";
const SECOND_COLOUR: &str = "#1f1f1f";
const LAST_MOVE: &str = "#f3c623";
const ARROW: &str = "#2e7d32";
const CHECK: &str = "#e53935";

/// A position's board as an SVG document (`Display`), from [`GamePosition::svg`].
#[derive(Clone, Debug)]
pub struct SvgBoard<'a, P: GamePosition> {
    position: &'a P,
    glyphs: Glyphs,
    flipped: bool,
    size: u32,
    last_move: Option<(P::Square, P::Square)>,
    arrows: Vec<(P::Square, P::Square)>,
    check: bool,
    square_targets: bool,
}

impl<'a, P: GamePosition> SvgBoard<'a, P> {
    /// The board of `position`: Latin letters, the first player at the bottom, 400 pixels
    /// wide, the general in check marked.
    pub fn new(position: &'a P) -> Self {
        SvgBoard {
            position,
            glyphs: Glyphs::Latin,
            flipped: false,
            size: 400,
            last_move: None,
            arrows: Vec::new(),
            check: true,
            square_targets: false,
        }
    }

    /// Draws the pieces with `glyphs`.
    pub fn glyphs(self, glyphs: Glyphs) -> Self {
        SvgBoard { glyphs, ..self }
    }

    /// Turns the board so that the second player sits at the bottom.
    pub fn flipped(self, flipped: bool) -> Self {
        SvgBoard { flipped, ..self }
    }

    /// The picture's width in pixels (the height follows the board's shape).
    pub fn size(self, size: u32) -> Self {
        SvgBoard { size, ..self }
    }

    /// Marks the origin and destination of the last move.
    pub fn last_move(self, from: P::Square, to: P::Square) -> Self {
        SvgBoard {
            last_move: Some((from, to)),
            ..self
        }
    }

    /// Adds an arrow from `from` to `to`.
    pub fn arrow(mut self, from: P::Square, to: P::Square) -> Self {
        self.arrows.push((from, to));
        self
    }

    /// Marks (the default) or not the general of the side to move when it is in check.
    pub fn check_mark(self, check: bool) -> Self {
        SvgBoard { check, ..self }
    }

    /// Adds, over everything else, a transparent `<rect class="square" data-square="e3">`
    /// on every square, for a page that makes the board clickable and highlights squares
    /// with CSS; each piece's `<g class="piece">` then names its square and side too
    /// (`data-square="e1" data-side="first"`), for a page that drags it.
    ///
    /// ```
    /// use chuhe::{xiongqi, GamePosition};
    /// let svg = xiongqi::Position::start().svg().square_targets(true).to_string();
    /// assert_eq!(svg.matches(r#"class="square" data-square="#).count(), 64);
    /// assert!(svg.contains(r#"data-square="e3""#));
    /// assert!(svg.contains(r#"<g class="piece" data-square="e1" data-side="first">"#));
    /// ```
    pub fn square_targets(self, square_targets: bool) -> Self {
        SvgBoard {
            square_targets,
            ..self
        }
    }

    /// Is `square` on this position's board (a board read from rule files may be smaller
    /// than its square type)?
    fn on_board(&self, square: P::Square) -> bool {
        let (files, ranks) = self.position.board_size();
        square.file() < files && square.rank() < ranks
    }

    /// The centre of a square (or point) in the picture's units.
    fn centre(&self, square: P::Square) -> (f64, f64) {
        let (files, ranks) = self.position.board_size();
        let (column, row) = if self.flipped {
            (files - 1 - square.file(), square.rank())
        } else {
            (square.file(), ranks - 1 - square.rank())
        };
        (
            LABEL + CELL / 2.0 + f64::from(column) * CELL,
            LABEL + CELL / 2.0 + f64::from(row) * CELL,
        )
    }

    /// The picture's width and height in its own units.
    fn extent(&self) -> (f64, f64) {
        let (files, ranks) = self.position.board_size();
        (
            2.0 * LABEL + f64::from(files) * CELL,
            2.0 * LABEL + f64::from(ranks) * CELL,
        )
    }

    /// The grid: lines through the points (Xiangqi) or around the squares (Xiongqi), the
    /// river and the palaces.
    fn grid(&self, out: &mut String) -> fmt::Result {
        let geometry = self.position.board_geometry();
        let (files, ranks) = self.position.board_size();
        let river = geometry.river_below_rank;
        // A board without a river (a game read from rule files may have none).
        let has_river = river > 0 && river < ranks;
        let square = |file: u8, rank: u8| P::Square::from_coords(file, rank);
        let (Some(first), Some(last)) = (square(0, 0), square(files - 1, ranks - 1)) else {
            return Ok(());
        };
        let (x0, y0) = self.centre(first);
        let (x1, y1) = self.centre(last);
        let (left, right) = (x0.min(x1), x0.max(x1));
        let (top, bottom) = (y0.min(y1), y0.max(y1));
        // The river's middle: halfway between its two ranks.
        let river_y = match (square(0, river.saturating_sub(1)), square(0, river)) {
            (Some(a), Some(b)) => (self.centre(a).1 + self.centre(b).1) / 2.0,
            _ => (top + bottom) / 2.0,
        };
        if geometry.points {
            let half = CELL / 2.0;
            let fill = format!(r#"fill="{BOARD_FILL}""#);
            rect(
                out,
                (left - half, top - half, right + half, bottom + half),
                &fill,
            )?;
            if has_river {
                let river = format!(r#"fill="{RIVER}" opacity="0.35""#);
                rect(out, (left, river_y - half, right, river_y + half), &river)?;
            }
            let mut path = String::new();
            for rank in 0..ranks {
                let y = self.centre(square(0, rank).unwrap_or(first)).1;
                write!(path, "M{left} {y}H{right}")?;
            }
            for file in 0..files {
                let x = self.centre(square(file, 0).unwrap_or(first)).0;
                if file == 0 || file == files - 1 || !has_river {
                    write!(path, "M{x} {top}V{bottom}")?;
                } else {
                    // Inner files stop at the river.
                    let half_river = CELL / 2.0;
                    write!(
                        path,
                        "M{x} {top}V{}M{x} {}V{bottom}",
                        river_y - half_river,
                        river_y + half_river
                    )?;
                }
            }
            if geometry.palaces && files >= 3 && ranks >= 3 {
                // The middle three files (d–f on Xiangqi's nine).
                let (west, east) = (files / 2 - 1, files / 2 + 1);
                for (low, high) in [(0, 2), (ranks - 3, ranks - 1)] {
                    for (a, b) in [((west, low), (east, high)), ((east, low), (west, high))] {
                        if let (Some(a), Some(b)) = (square(a.0, a.1), square(b.0, b.1)) {
                            let ((ax, ay), (bx, by)) = (self.centre(a), self.centre(b));
                            write!(path, "M{ax} {ay}L{bx} {by}")?;
                        }
                    }
                }
            }
            writeln!(out, r#"<path d="{path}" {LINES}/>"#)?;
            rect(out, (left, top, right, bottom), BORDER)?;
            let (chu, han) = if self.flipped {
                ("漢界", "楚河")
            } else {
                ("楚河", "漢界")
            };
            let words = [
                (chu, left + (right - left) * 0.25),
                (han, left + (right - left) * 0.75),
            ];
            for (text, x) in words.into_iter().filter(|_| has_river) {
                writeln!(
                    out,
                    r#"<text x="{x}" y="{river_y}" dy="0.35em" font-size="{}" text-anchor="middle" fill="{LINE}" font-family="{}">{text}</text>"#,
                    CELL * 0.5,
                    FONTS
                )?;
            }
        } else {
            let half = CELL / 2.0;
            let (left, right, top, bottom) = (left - half, right + half, top - half, bottom + half);
            rect(
                out,
                (left, top, right, bottom),
                &format!(r#"fill="{BOARD_FILL}""#),
            )?;
            let mut path = String::new();
            for i in 1..ranks {
                let y = top + f64::from(i) * CELL;
                write!(path, "M{left} {y}H{right}")?;
            }
            for i in 1..files {
                let x = left + f64::from(i) * CELL;
                write!(path, "M{x} {top}V{bottom}")?;
            }
            writeln!(out, r#"<path d="{path}" {LINES}/>"#)?;
            if has_river {
                writeln!(
                    out,
                    r#"<path d="M{left} {river_y}H{right}" stroke="{RIVER}" stroke-width="6"/>"#
                )?;
            }
            rect(out, (left, top, right, bottom), BORDER)?;
        }
        Ok(())
    }

    /// File letters under and over the grid, rank numbers left and right of it.
    fn coordinates(&self, out: &mut String) -> fmt::Result {
        let (width, height) = self.extent();
        for file in 0..self.position.board_size().0 {
            let Some(sq) = P::Square::from_coords(file, 0) else {
                continue;
            };
            let x = self.centre(sq).0;
            let name = char::from(b'a' + file);
            for y in [LABEL / 2.0, height - LABEL / 2.0] {
                writeln!(
                    out,
                    r#"<text x="{x}" y="{y}" dy="0.35em" {COORD}>{name}</text>"#
                )?;
            }
        }
        for rank in 0..self.position.board_size().1 {
            let Some(sq) = P::Square::from_coords(0, rank) else {
                continue;
            };
            let y = self.centre(sq).1;
            for x in [LABEL / 2.0, width - LABEL / 2.0] {
                writeln!(
                    out,
                    r#"<text x="{x}" y="{y}" dy="0.35em" {COORD}>{}</text>"#,
                    rank + 1
                )?;
            }
        }
        Ok(())
    }

    fn pieces(&self, out: &mut String) -> fmt::Result {
        let radius = CELL * 0.44;
        for index in 0..P::Square::COUNT {
            let Some(sq) = P::Square::from_index(index).filter(|&sq| self.on_board(sq)) else {
                continue;
            };
            let Some((latin, chinese)) = self.position.piece_glyphs(sq) else {
                continue;
            };
            let colour = match self.position.piece_role(sq) {
                Some((Side::Second, _)) => SECOND_COLOUR,
                _ => FIRST_COLOUR,
            };
            let (x, y) = self.centre(sq);
            // An interactive board names each piece's square and side (a page drags it).
            let named = if self.square_targets {
                let side = match self.position.piece_role(sq) {
                    Some((Side::Second, _)) => "second",
                    _ => "first",
                };
                format!(r#" data-square="{sq}" data-side="{side}""#)
            } else {
                String::new()
            };
            writeln!(
                out,
                r#"<g class="piece"{named}><circle cx="{x}" cy="{y}" r="{radius}" fill="{PIECE_FILL}" stroke="{colour}" stroke-width="2.5"/><circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{colour}" stroke-width="1"/>"#,
                radius - 4.0
            )?;
            let (text, size) = match self.glyphs {
                Glyphs::Chinese => (chinese.to_string(), CELL * 0.52),
                Glyphs::Latin => {
                    let size = if latin.chars().count() > 2 {
                        0.32
                    } else {
                        0.42
                    };
                    (escape(&latin), CELL * size)
                }
            };
            writeln!(
                out,
                r#"<text x="{x}" y="{y}" dy="0.35em" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{colour}" font-family="{FONTS}">{text}</text></g>"#
            )?;
        }
        Ok(())
    }

    fn marks(&self, out: &mut String) -> fmt::Result {
        if let Some((from, to)) = self.last_move {
            for sq in [from, to] {
                let (x, y) = self.centre(sq);
                let h = CELL / 2.0 - 1.0;
                writeln!(
                    out,
                    r#"<rect class="last-move" x="{}" y="{}" width="{}" height="{}" rx="6" fill="{LAST_MOVE}" opacity="0.55"/>"#,
                    x - h,
                    y - h,
                    2.0 * h,
                    2.0 * h
                )?;
            }
        }
        if self.check && self.position.is_check() {
            if let Some(sq) = self.position.terminal_square(self.position.turn()) {
                let (x, y) = self.centre(sq);
                writeln!(
                    out,
                    r#"<circle class="check" cx="{x}" cy="{y}" r="{}" fill="url(#check)"/>"#,
                    CELL * 0.62
                )?;
            }
        }
        Ok(())
    }

    fn arrows(&self, out: &mut String) -> fmt::Result {
        for &(from, to) in &self.arrows {
            let ((x0, y0), (x1, y1)) = (self.centre(from), self.centre(to));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let length = (dx * dx + dy * dy).sqrt();
            if length < 1.0 {
                writeln!(
                    out,
                    r#"<circle class="arrow" cx="{x0}" cy="{y0}" r="{}" fill="none" stroke="{ARROW}" stroke-width="4" opacity="0.8"/>"#,
                    CELL * 0.45
                )?;
                continue;
            }
            // Stop short of the centre so the head does not hide the destination's piece.
            let shorten = CELL * 0.2;
            let (ex, ey) = (x1 - dx / length * shorten, y1 - dy / length * shorten);
            writeln!(
                out,
                r#"<line class="arrow" x1="{x0}" y1="{y0}" x2="{ex}" y2="{ey}" stroke="{ARROW}" stroke-width="{}" stroke-linecap="round" opacity="0.8" marker-end="url(#arrowhead)"/>"#,
                CELL * 0.16
            )?;
        }
        Ok(())
    }

    fn targets(&self, out: &mut String) -> fmt::Result {
        if !self.square_targets {
            return Ok(());
        }
        let h = CELL / 2.0;
        for index in 0..P::Square::COUNT {
            let Some(sq) = P::Square::from_index(index).filter(|&sq| self.on_board(sq)) else {
                continue;
            };
            let (x, y) = self.centre(sq);
            writeln!(
                out,
                r#"<rect class="square" data-square="{sq}" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="transparent"/>"#,
                x - h,
                y - h,
            )?;
        }
        Ok(())
    }

    fn write(&self, out: &mut String) -> fmt::Result {
        let (width, height) = self.extent();
        let pixels_high = (f64::from(self.size) * height / width).round();
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{pixels_high}" viewBox="0 0 {width} {height}">"#,
            self.size
        )?;
        writeln!(
            out,
            r#"<defs><radialGradient id="check"><stop offset="0%" stop-color="{CHECK}" stop-opacity="1"/><stop offset="70%" stop-color="{CHECK}" stop-opacity="0.9"/><stop offset="100%" stop-color="{CHECK}" stop-opacity="0"/></radialGradient><marker id="arrowhead" markerWidth="3" markerHeight="3" refX="1.5" refY="1.5" orient="auto"><path d="M0 0L3 1.5L0 3z" fill="{ARROW}"/></marker></defs>"#
        )?;
        writeln!(
            out,
            r##"<rect width="{width}" height="{height}" fill="#e8c17a"/>"##
        )?;
        self.grid(out)?;
        self.coordinates(out)?;
        self.marks(out)?;
        self.pieces(out)?;
        self.arrows(out)?;
        self.targets(out)?;
        writeln!(out, "</svg>")
    }
}

impl<P: GamePosition> fmt::Display for SvgBoard<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out)?;
        f.write_str(&out)
    }
}

/// What a board picture shows, for a game chosen at run time ([`crate::AnyGame::board_svg`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Latin letters or Chinese characters.
    pub glyphs: Glyphs,
    /// The second player at the bottom.
    pub flipped: bool,
    /// The width in pixels (400 when `None`).
    pub size: Option<u32>,
    /// Mark the last move played.
    pub last_move: bool,
    /// Arrows, each as two squares (`e3e5`, `b10b3`, or with a dash: `e3-e5`).
    pub arrows: Vec<String>,
    /// A transparent target on every square ([`SvgBoard::square_targets`]).
    pub square_targets: bool,
}

/// Reads an arrow: two squares, side by side (`e3e5`, `b10b3`) or with a dash (`e3-e5`).
///
/// ```
/// use chuhe::{svg::parse_arrow, xiangqi::Square};
/// let (from, to): (Square, Square) = parse_arrow("b10b3").unwrap();
/// assert_eq!((from.to_string(), to.to_string()), ("b10".to_string(), "b3".to_string()));
/// assert!(parse_arrow::<Square>("b10").is_err());
/// ```
pub fn parse_arrow<S: GameSquare>(text: &str) -> Result<(S, S), MoveError> {
    let (from, to) = match text.split_once('-') {
        Some(halves) => halves,
        None => {
            // The destination starts at the second letter.
            let second = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_alphabetic())
                .nth(1)
                .map(|(i, _)| i);
            match second {
                Some(i) => text.split_at(i),
                None => {
                    return Err(MoveError::Syntax {
                        text: text.to_string(),
                        reason: "an arrow is two squares, such as e3e5".to_string(),
                    })
                }
            }
        }
    };
    Ok((parse_square(from, text)?, parse_square(to, text)?))
}

/// The style of the grid's lines and of its border.
const LINES: &str = r##"stroke="#5b3a1a" stroke-width="1.5" fill="none""##;
const BORDER: &str = r##"stroke="#5b3a1a" stroke-width="3" fill="none""##;

/// A rectangle from (left, top) to (right, bottom) with the attributes `style`.
fn rect(
    out: &mut String,
    (left, top, right, bottom): (f64, f64, f64, f64),
    style: &str,
) -> fmt::Result {
    writeln!(
        out,
        r#"<rect x="{left}" y="{top}" width="{}" height="{}" {style}/>"#,
        right - left,
        bottom - top
    )
}

/// Fonts with the Chinese characters, most specific first.
const FONTS: &str = "Noto Serif CJK SC, Noto Sans CJK SC, Source Han Serif SC, SimSun, Songti SC, \
                     WenQuanYi Micro Hei, WenQuanYi Zen Hei, AR PL UKai CN, Droid Sans Fallback, serif";

/// The attributes of a coordinate label.
const COORD: &str = r##"font-size="14" text-anchor="middle" fill="#5b3a1a" font-family="DejaVu Sans, Arial, sans-serif""##;

/// `text` with the characters XML gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{xiangqi, xiongqi};

    #[test]
    fn every_piece_is_drawn_once() {
        let svg = xiangqi::Position::start().svg().to_string();
        assert_eq!(svg.matches(r#"<g class="piece">"#).count(), 32);
        let svg = xiongqi::Position::start().svg().to_string();
        assert_eq!(svg.matches(r#"<g class="piece">"#).count(), 36);
    }

    #[test]
    fn flipping_moves_the_first_player_to_the_top() {
        let pos = xiangqi::Position::start();
        let e1: xiangqi::Square = "e1".parse().unwrap();
        let board = SvgBoard::new(&pos);
        let (x, y) = board.centre(e1);
        let (fx, fy) = board.flipped(true).centre(e1);
        assert!(y > fy, "e1 is at the bottom unless flipped");
        assert_eq!(x, fx, "the middle file stays in the middle");
    }

    #[test]
    fn a_check_is_marked_on_the_general_in_check() {
        // Red's chariot checks Black's general on the open e-file.
        let pos: xiangqi::Position = "4k4/9/9/9/9/9/9/9/9/4RK3 b - - 0 1".parse().unwrap();
        assert!(pos.is_check());
        let svg = pos.svg().to_string();
        assert_eq!(svg.matches(r#"class="check""#).count(), 1);
        assert_eq!(
            pos.svg()
                .check_mark(false)
                .to_string()
                .matches(r#"class="check""#)
                .count(),
            0
        );
    }
}
