//! Squares (points) and 128-bit bitboards of the 9×10 Xiangqi board.
//!
//! Square index = `rank * 9 + file`: `a1` = 0, `i1` = 8, `a10` = 81, `i10` = 89.

use std::fmt;

use chuhe_notation::Cell;

/// A point of the 9×10 board.
///
/// ```
/// use chuhe::xiangqi::Square;
/// let e1 = Square::from_coords(4, 0).unwrap();
/// assert_eq!(e1.to_string(), "e1");
/// assert_eq!(Square::from_coords(8, 9).unwrap().to_string(), "i10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index (0..90), or `None`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), or `None` off the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// The index 0..90.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (0 = a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10 (0 = rank 1, Red's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The bitboard of this square.
    #[inline(always)]
    pub const fn bb(self) -> u128 {
        1u128 << self.0
    }

    /// The CELL coordinate.
    pub const fn cell(self) -> Cell {
        Cell::new(self.file() as u16, self.rank() as u16)
    }

    /// The square named by a CELL coordinate, or `None` off the board.
    pub fn from_cell(cell: Cell) -> Option<Square> {
        if cell.file() < 9 && cell.rank() < 10 {
            Square::from_coords(cell.file() as u8, cell.rank() as u8)
        } else {
            None
        }
    }

    /// The same point seen from the other side (ranks flipped).
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// All 90 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

crate::variant::impl_game_square!(Square, files: 9, ranks: 10, range: "a1–i10");

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterates the squares of a bitboard, lowest index first.
#[inline]
pub fn squares(bb: u128) -> SquareIter {
    SquareIter(bb)
}

/// Iterator returned by [`squares`].
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u128);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(s))
        }
    }
}

/// All 90 points.
pub const BOARD: u128 = (1u128 << 90) - 1;

/// Bitboard of one rank (0-based).
pub const fn rank_bb(rank: u8) -> u128 {
    0x1FFu128 << (9 * rank as u32)
}

/// Bitboard of one file (0-based).
pub const fn file_bb(file: u8) -> u128 {
    let mut bb = 0u128;
    let mut r = 0;
    while r < 10 {
        bb |= 1u128 << (r * 9 + file as u32);
        r += 1;
    }
    bb
}
