//! CELL: board coordinates (`a1`, `e4`, `i10`, `aa27`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{quote, Fail, Notation, ParseError};

/// The largest file or rank number (1-based) a [`Cell`] can hold: 0-based
/// coordinates are `u16`.
pub const MAX_COORDINATE: u32 = u16::MAX as u32 + 1;

/// A board square: a 0-based file (column, from the first player's left) and
/// a 0-based rank (row, from the first player's side).
///
/// Written in CELL as lowercase file letters (`a`…`z`, then `aa`, `ab`, … —
/// bijective base 26) followed by the 1-based rank number without leading
/// zeros: `a1` is `(0, 0)`, `i10` is `(8, 9)`.
///
/// Ordered by file, then rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    file: u16,
    rank: u16,
}

impl Cell {
    /// The cell at 0-based `file` and `rank`.
    pub const fn new(file: u16, rank: u16) -> Cell {
        Cell { file, rank }
    }

    /// The 0-based file (`a` = 0).
    pub const fn file(self) -> u16 {
        self.file
    }

    /// The 0-based rank (`1` = 0).
    pub const fn rank(self) -> u16 {
        self.rank
    }

    /// Reads a CELL coordinate.
    ///
    /// ```
    /// use chuhe_notation::Cell;
    /// assert_eq!(Cell::parse("i10"), Ok(Cell::new(8, 9)));
    /// assert_eq!(Cell::parse("aa1"), Ok(Cell::new(26, 0)));
    /// assert!(Cell::parse("a0").is_err());
    /// assert_eq!(Cell::parse("a01").unwrap_err().canonical.as_deref(), Some("a1"));
    /// ```
    pub fn parse(s: &str) -> Result<Cell, ParseError> {
        let mut soft = None;
        let result = scan_cell(s, 0, &mut soft).and_then(|(cell, end)| {
            if end == s.len() {
                Ok(cell)
            } else {
                Err(Fail::at(s, end, "end of input"))
            }
        });
        crate::error::settle(Notation::Cell, result, soft)
    }

    /// The index of this cell in a rank-major array of a board `width` files
    /// wide: `rank * width + file`.
    pub fn to_index(self, width: u16) -> usize {
        usize::from(self.rank) * usize::from(width) + usize::from(self.file)
    }

    /// The inverse of [`Cell::to_index`].
    ///
    /// # Panics
    ///
    /// If `width` is 0, or if the rank `index / width` does not fit in a `u16`.
    pub fn from_index(index: usize, width: u16) -> Cell {
        assert!(width > 0, "Cell::from_index: width must be at least 1");
        let width = usize::from(width);
        let rank = u16::try_from(index / width).expect("Cell::from_index: rank out of range");
        // `index % width < width <= u16::MAX`, so this conversion is lossless.
        let file = (index % width) as u16;
        Cell { file, rank }
    }

    /// The cell moved by `(df, dr)`, or `None` if that leaves the `u16`
    /// coordinate range (callers check the board size themselves).
    pub fn offset(self, df: i32, dr: i32) -> Option<Cell> {
        let file = u16::try_from(i32::from(self.file) + df).ok()?;
        let rank = u16::try_from(i32::from(self.rank) + dr).ok()?;
        Some(Cell { file, rank })
    }
}

/// Writes the file letters of 0-based `file` (bijective base 26).
pub(crate) fn write_file(f: &mut impl fmt::Write, file: u16) -> fmt::Result {
    let mut n = u32::from(file) + 1;
    let mut buf = [0u8; 4];
    let mut len = 0;
    while n > 0 {
        n -= 1;
        buf[len] = b'a' + (n % 26) as u8;
        len += 1;
        n /= 26;
    }
    for &b in buf[..len].iter().rev() {
        f.write_char(char::from(b))?;
    }
    Ok(())
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_file(f, self.file)?;
        write!(f, "{}", u32::from(self.rank) + 1)
    }
}

impl FromStr for Cell {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Cell, ParseError> {
        Cell::parse(s)
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        crate::error::deserialize_parsed(deserializer, "a CELL coordinate such as \"e4\"")
    }
}

/// Reads a decimal number starting at `pos`: returns the end of the digit run,
/// the value (or `None` when it exceeds `limit`), and whether the run starts
/// with a `0`.
pub(crate) fn scan_number(bytes: &[u8], pos: usize, limit: u64) -> (usize, Option<u64>, bool) {
    let mut end = pos;
    let mut value: Option<u64> = Some(0);
    while let Some(&b) = bytes.get(end) {
        if !b.is_ascii_digit() {
            break;
        }
        value = value
            .and_then(|v| v.checked_mul(10))
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .filter(|&v| v <= limit);
        end += 1;
    }
    let leading_zero = bytes.get(pos) == Some(&b'0');
    (end, value, leading_zero)
}

pub(crate) const RANK_EXPECTED: &str = "a rank number from 1 without leading zeros";

/// Scans a CELL coordinate at byte `pos` of `input`. Returns the cell and the
/// byte offset just after it. A rank with leading zeros (`a01`) is a soft
/// problem, recorded in `soft` when that is still empty.
pub(crate) fn scan_cell(
    input: &str,
    pos: usize,
    soft: &mut Option<Fail>,
) -> Result<(Cell, usize), Fail> {
    let bytes = input.as_bytes();
    let mut i = pos;
    let mut value: Option<u32> = Some(0);
    while let Some(&b) = bytes.get(i) {
        if !b.is_ascii_lowercase() {
            break;
        }
        value = value
            .and_then(|v| v.checked_mul(26))
            .and_then(|v| v.checked_add(u32::from(b - b'a') + 1))
            .filter(|&v| v <= MAX_COORDINATE);
        i += 1;
    }
    if i == pos {
        return Err(Fail::at(input, pos, "a lowercase file letter a-z"));
    }
    let Some(file_number) = value else {
        return Err(Fail::with(
            pos,
            format!("a file of at most {MAX_COORDINATE} (letters up to 'crxp')"),
            quote(&input[pos..i]),
        ));
    };
    let digits = i;
    let (end, rank_value, leading_zero) = scan_number(bytes, digits, u64::from(MAX_COORDINATE));
    if end == digits {
        return Err(Fail::at(input, digits, RANK_EXPECTED));
    }
    let text = &input[digits..end];
    let rank_number = match rank_value {
        None => {
            return Err(Fail::with(
                digits,
                format!("a rank number of at most {MAX_COORDINATE}"),
                quote(text),
            ))
        }
        Some(0) => return Err(Fail::with(digits, RANK_EXPECTED, quote(text))),
        Some(n) => n,
    };
    if leading_zero && soft.is_none() {
        *soft = Some(Fail::with(digits, RANK_EXPECTED, quote(text)));
    }
    // Both numbers are in 1..=65536, so the 0-based values fit in a u16.
    let cell = Cell::new((file_number - 1) as u16, (rank_number - 1) as u16);
    Ok((cell, end))
}
