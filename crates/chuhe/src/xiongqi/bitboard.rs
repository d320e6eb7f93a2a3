//! Squares and 64-bit bitboards of the 8×8 Xiongqi board.
//!
//! Square index = `rank * 8 + file`, so `a1` = 0, `h1` = 7, `a8` = 56, `h8` = 63.

use std::fmt;

use chuhe_notation::Cell;

/// A square of the 8×8 board.
///
/// ```
/// use chuhe::xiongqi::Square;
/// let e4 = Square::from_coords(4, 3).unwrap();
/// assert_eq!(e4.to_string(), "e4");
/// assert_eq!(e4.index(), 28);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index (0..64), or `None`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), or `None` off the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Trusted constructor for indices known to be in range.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index & 63)
    }

    /// The index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (0 = a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The bitboard with just this square.
    #[inline]
    pub const fn bb(self) -> u64 {
        1u64 << self.0
    }

    /// The CELL coordinate of this square.
    pub const fn cell(self) -> Cell {
        Cell::new(self.file() as u16, self.rank() as u16)
    }

    /// The square named by a CELL coordinate, or `None` off the 8×8 board.
    pub fn from_cell(cell: Cell) -> Option<Square> {
        if cell.file() < 8 && cell.rank() < 8 {
            Square::from_coords(cell.file() as u8, cell.rank() as u8)
        } else {
            None
        }
    }

    /// The same square seen from the other side (ranks flipped).
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

crate::variant::impl_game_square!(Square, files: 8, ranks: 8, range: "a1–h8");

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterates the squares of a bitboard, lowest index first.
///
/// ```
/// use chuhe::xiongqi::squares;
/// let v: Vec<String> = squares(0b101).map(|s| s.to_string()).collect();
/// assert_eq!(v, ["a1", "c1"]);
/// ```
#[inline]
pub fn squares(bb: u64) -> SquareIter {
    SquareIter(bb)
}

/// Iterator returned by [`squares`].
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(s))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}

/// Bitboard of one rank (0-based).
pub const fn rank_bb(rank: u8) -> u64 {
    0xFFu64 << (8 * rank as u32)
}

/// Bitboard of one file (0-based).
pub const fn file_bb(file: u8) -> u64 {
    0x0101_0101_0101_0101u64 << file
}
