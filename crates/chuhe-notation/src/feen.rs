//! FEEN: positions (`placement hands style-turn`).
//!
//! chuhe reads only canonical FEEN: input that breaks a canonical-form rule
//! (a `1` count, unmerged or misordered hand items, a leading zero) is
//! rejected with an error whose [`ParseError::canonical`] holds the canonical
//! spelling of the whole position. Printing always yields canonical FEEN.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::cell::{scan_number, Cell};
use crate::error::{quote, settle, Fail, Notation, ParseError};
use crate::pin::{scan_epin, Epin};
use crate::side::Side;
use crate::style::{scan_sin, Sin};

/// The largest number of squares a [`Placement`] may have (parsed or built):
/// 1 048 576, far above any real board and small enough that a hostile FEEN
/// cannot make the parser allocate without bound.
pub const MAX_SQUARES: usize = 1 << 20;

/// The board part of a position: a `width` × `height` rectangle of squares,
/// each empty or holding one [`Epin`] piece.
///
/// Squares are indexed by [`Cell::to_index`]`(width)`: rank 0 (rank `1`, the
/// first player's side, the *last* FEEN segment) comes first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    width: u16,
    height: u16,
    squares: Vec<Option<Epin>>,
}

impl Placement {
    /// An empty board `width` files wide and `height` ranks tall.
    ///
    /// # Panics
    ///
    /// If `width` or `height` is 0, or the board has more than
    /// [`MAX_SQUARES`] squares.
    ///
    /// ```
    /// use chuhe_notation::Placement;
    /// assert_eq!(Placement::empty(9, 10).to_string(), "9/9/9/9/9/9/9/9/9/9");
    /// ```
    pub fn empty(width: u16, height: u16) -> Placement {
        assert!(
            width > 0 && height > 0,
            "Placement::empty: the board must be at least 1x1"
        );
        let size = usize::from(width) * usize::from(height);
        assert!(
            size <= MAX_SQUARES,
            "Placement::empty: more than MAX_SQUARES squares"
        );
        Placement {
            width,
            height,
            squares: vec![None; size],
        }
    }

    /// Number of files.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Number of squares (`width * height`).
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Always `false`: a board has at least one square.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Whether `cell` lies on the board.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.file() < self.width && cell.rank() < self.height
    }

    /// The piece on `cell`; `None` if the square is empty or off the board.
    pub fn get(&self, cell: Cell) -> Option<Epin> {
        if self.contains(cell) {
            self.squares[cell.to_index(self.width)]
        } else {
            None
        }
    }

    /// Puts `piece` on `cell` (or empties it with `None`).
    ///
    /// # Panics
    ///
    /// If `cell` is off the board (see [`Placement::contains`]).
    pub fn set(&mut self, cell: Cell, piece: Option<Epin>) {
        assert!(
            self.contains(cell),
            "Placement::set: {cell} is off the {}x{} board",
            self.width,
            self.height
        );
        let index = cell.to_index(self.width);
        self.squares[index] = piece;
    }

    /// The occupied squares, in index order (rank 1 first, file a first).
    pub fn iter(&self) -> impl Iterator<Item = (Cell, Epin)> + '_ {
        let width = self.width;
        self.squares
            .iter()
            .enumerate()
            .filter_map(move |(index, square)| {
                square.map(|piece| (Cell::from_index(index, width), piece))
            })
    }

    /// All squares, indexed by [`Cell::to_index`].
    pub fn squares(&self) -> &[Option<Epin>] {
        &self.squares
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.squares
            .iter()
            .filter(|square| square.is_some())
            .count()
    }
}

impl fmt::Display for Placement {
    /// The canonical FEEN placement field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = usize::from(self.width);
        for (n, row) in self.squares.chunks(width.max(1)).rev().enumerate() {
            if n > 0 {
                f.write_char('/')?;
            }
            let mut run = 0usize;
            for square in row {
                match square {
                    None => run += 1,
                    Some(piece) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{piece}")?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        Ok(())
    }
}

/// A player's hand: a multiset of pieces, kept in FEEN canonical order
/// (count descending, then the [`Epin`] order).
///
/// Displayed as its canonical FEEN hand text: `3s2hc`, or `""` when empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    items: Vec<(Epin, u32)>,
}

impl Hand {
    /// An empty hand.
    pub fn new() -> Hand {
        Hand::default()
    }

    /// Adds one `piece`.
    pub fn add(&mut self, piece: Epin) {
        self.add_n(piece, 1);
    }

    /// Adds `n` copies of `piece` (the count saturates at `u32::MAX`).
    pub fn add_n(&mut self, piece: Epin, n: u32) {
        if n == 0 {
            return;
        }
        match self.items.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, count)) => *count = count.saturating_add(n),
            None => self.items.push((piece, n)),
        }
        self.sort();
    }

    /// Removes one `piece`; `false` if the hand held none.
    pub fn remove(&mut self, piece: Epin) -> bool {
        let Some(position) = self.items.iter().position(|(p, _)| *p == piece) else {
            return false;
        };
        let count = &mut self.items[position].1;
        *count -= 1;
        if *count == 0 {
            self.items.remove(position);
        }
        self.sort();
        true
    }

    /// How many copies of `piece` the hand holds.
    pub fn count(&self, piece: Epin) -> u32 {
        self.items
            .iter()
            .find(|(p, _)| *p == piece)
            .map_or(0, |&(_, n)| n)
    }

    /// Total number of pieces (saturating at `u32::MAX`).
    pub fn len(&self) -> u32 {
        self.items
            .iter()
            .fold(0u32, |total, &(_, n)| total.saturating_add(n))
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The distinct pieces with their counts, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Epin, u32)> + '_ {
        self.items.iter().copied()
    }

    fn sort(&mut self) {
        self.items
            .sort_by_key(|&(piece, count)| (Reverse(count), piece));
    }
}

impl FromIterator<Epin> for Hand {
    fn from_iter<I: IntoIterator<Item = Epin>>(iter: I) -> Hand {
        let mut hand = Hand::new();
        for piece in iter {
            hand.add(piece);
        }
        hand
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &(piece, count) in &self.items {
            if count >= 2 {
                write!(f, "{count}")?;
            }
            write!(f, "{piece}")?;
        }
        Ok(())
    }
}

/// The style-turn field: the active player's style, then the inactive
/// player's. The two [`Sin`]s belong to opposite sides; the uppercase one is
/// the first player's. `X/x`: first player to move; `x/X`: second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StyleTurn {
    /// The style of the player to move.
    pub active: Sin,
    /// The style of the other player.
    pub inactive: Sin,
}

impl StyleTurn {
    /// The style-turn for styles `first` and `second` (their sides are set to
    /// the first and second player) with `to_move` to move.
    ///
    /// ```
    /// use chuhe_notation::{Side, Sin, StyleTurn};
    /// let x = Sin::new(b'X', Side::First);
    /// assert_eq!(StyleTurn::new(x, x, Side::Second).to_string(), "x/X");
    /// ```
    pub fn new(first: Sin, second: Sin, to_move: Side) -> StyleTurn {
        let first = first.with_side(Side::First);
        let second = second.with_side(Side::Second);
        match to_move {
            Side::First => StyleTurn {
                active: first,
                inactive: second,
            },
            Side::Second => StyleTurn {
                active: second,
                inactive: first,
            },
        }
    }

    /// The side to move (the active style's side).
    pub fn side_to_move(self) -> Side {
        self.active.side()
    }

    /// The first player's style (the uppercase one).
    pub fn first_style(self) -> Sin {
        if self.active.side() == Side::First {
            self.active
        } else {
            self.inactive
        }
    }

    /// The second player's style (the lowercase one).
    pub fn second_style(self) -> Sin {
        if self.active.side() == Side::First {
            self.inactive
        } else {
            self.active
        }
    }

    /// The same styles with the other player to move.
    pub fn flipped(self) -> StyleTurn {
        StyleTurn {
            active: self.inactive,
            inactive: self.active,
        }
    }
}

impl fmt::Display for StyleTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.active, self.inactive)
    }
}

/// A FEEN position: placement, both hands and the style-turn field.
///
/// `Display` writes canonical FEEN; [`Feen::parse`] accepts only canonical
/// FEEN, so `parse` and `to_string` are inverse on valid text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Feen {
    /// The board.
    pub placement: Placement,
    /// The hands, indexed by [`Side::index`]: `[first, second]`.
    pub hands: [Hand; 2],
    /// Styles and side to move.
    pub style_turn: StyleTurn,
}

impl Feen {
    /// Reads a canonical FEEN string.
    ///
    /// ```
    /// use chuhe_notation::{Cell, Feen, Side};
    /// let start = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";
    /// let feen = Feen::parse(start).unwrap();
    /// assert_eq!((feen.placement.width(), feen.placement.height()), (8, 8));
    /// assert_eq!(feen.placement.get(Cell::new(4, 0)).unwrap().to_string(), "G^");
    /// assert_eq!(feen.side_to_move(), Side::First);
    /// assert_eq!(feen.to_string(), start);
    ///
    /// // Non-canonical input is rejected, with the canonical form attached.
    /// let err = Feen::parse("8/8 ss/ X/x").unwrap_err();
    /// assert_eq!(err.canonical.as_deref(), Some("8/8 2s/ X/x"));
    /// ```
    pub fn parse(s: &str) -> Result<Feen, ParseError> {
        let mut soft = None;
        let result = scan_feen(s, &mut soft);
        settle(Notation::Feen, result, soft)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.style_turn.side_to_move()
    }

    /// The hand of `side`.
    pub fn hand(&self, side: Side) -> &Hand {
        &self.hands[side.index()]
    }

    /// The hand of `side`, mutably.
    pub fn hand_mut(&mut self, side: Side) -> &mut Hand {
        &mut self.hands[side.index()]
    }
}

impl fmt::Display for Feen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}/{} {}",
            self.placement, self.hands[0], self.hands[1], self.style_turn
        )
    }
}

impl FromStr for Feen {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Feen, ParseError> {
        Feen::parse(s)
    }
}

const PLACEMENT: &str = "placement";
const HANDS: &str = "hands";
const STYLE_TURN: &str = "style-turn";

/// Records `fail` as the first soft (canonical-form) problem unless one is
/// already recorded.
fn note(soft: &mut Option<Fail>, fail: Fail) {
    if soft.is_none() {
        *soft = Some(fail);
    }
}

fn scan_feen(input: &str, soft: &mut Option<Fail>) -> Result<Feen, Fail> {
    if let Some(offset) = input.bytes().position(|b| !b.is_ascii()) {
        return Err(Fail::at(input, offset, "ASCII text (FEEN is ASCII only)"));
    }
    let bytes = input.as_bytes();

    let (placement, mut pos) = scan_placement(input, soft).map_err(|f| f.in_field(PLACEMENT))?;
    if bytes.get(pos) != Some(&b' ') {
        return Err(
            Fail::at(input, pos, "a piece, an empty-square count, '/' or ' '").in_field(PLACEMENT),
        );
    }
    pos += 1;

    let hands_start = pos;
    let squares = placement.len() as u64;
    let (first, next) = scan_hand(input, pos, squares, soft).map_err(|f| f.in_field(HANDS))?;
    if bytes.get(next) != Some(&b'/') {
        return Err(Fail::at(
            input,
            next,
            "a hand piece, a count or '/' between the two hands",
        )
        .in_field(HANDS));
    }
    let (second, next) =
        scan_hand(input, next + 1, squares, soft).map_err(|f| f.in_field(HANDS))?;
    if bytes.get(next) != Some(&b' ') {
        return Err(Fail::at(input, next, "a hand piece, a count or ' '").in_field(HANDS));
    }
    pos = next + 1;

    let style_turn = scan_style_turn(input, pos).map_err(|f| f.in_field(STYLE_TURN))?;

    let on_board = placement.piece_count() as u64;
    let in_hands = first
        .values()
        .chain(second.values())
        .fold(0u64, |t, &n| t.saturating_add(n));
    let pieces = on_board.saturating_add(in_hands);
    if pieces > squares {
        return Err(Fail::with(
            hands_start,
            format!(
                "at most {squares} piece{} in all (one per square)",
                if squares == 1 { "" } else { "s" }
            ),
            format!("{pieces} pieces ({on_board} on the board, {in_hands} in hand)"),
        ));
    }
    // Every count is now at most `squares <= MAX_SQUARES`, so fits in a u32.
    let to_hand = |counts: BTreeMap<Epin, u64>| {
        let mut hand = Hand::new();
        for (piece, n) in counts {
            hand.add_n(piece, u32::try_from(n).unwrap_or(u32::MAX));
        }
        hand
    };
    Ok(Feen {
        placement,
        hands: [to_hand(first), to_hand(second)],
        style_turn,
    })
}

enum Token {
    Piece(Epin),
    Empty(usize),
}

const COUNT_EXPECTED: &str = "an empty-square count from 1 without leading zeros";

fn scan_placement(input: &str, soft: &mut Option<Fail>) -> Result<(Placement, usize), Fail> {
    let bytes = input.as_bytes();
    let mut pos = 0;
    let mut width: Option<usize> = None;
    let mut rows: Vec<Vec<Option<Epin>>> = Vec::new();
    loop {
        let rank_start = pos;
        let mut tokens = Vec::new();
        let mut size = 0usize;
        while let Some(&b) = bytes.get(pos) {
            if b.is_ascii_digit() {
                let (end, value, leading_zero) = scan_number(bytes, pos, u64::from(u16::MAX));
                let text = &input[pos..end];
                let Some(value) = value else {
                    return Err(Fail::with(
                        pos,
                        format!("an empty-square count of at most {}", u16::MAX),
                        quote(text),
                    ));
                };
                if leading_zero {
                    note(
                        soft,
                        Fail::with(pos, COUNT_EXPECTED, quote(text)).in_field(PLACEMENT),
                    );
                }
                // value <= u16::MAX
                let run = value as usize;
                size = size.saturating_add(run);
                if run > 0 {
                    tokens.push(Token::Empty(run));
                }
                pos = end;
            } else if b.is_ascii_alphabetic() || b == b'+' || b == b'-' {
                let (piece, end) = scan_epin(input, pos)?;
                size = size.saturating_add(1);
                tokens.push(Token::Piece(piece));
                pos = end;
            } else {
                break;
            }
        }
        if pos == rank_start {
            return Err(Fail::at(input, pos, "a piece or an empty-square count"));
        }
        let rank_size = |n: usize| format!("a rank of {n} square{}", if n == 1 { "" } else { "s" });
        match width {
            None => {
                let limit = usize::from(u16::MAX).min(MAX_SQUARES);
                if size == 0 || size > limit {
                    return Err(Fail::with(
                        rank_start,
                        format!("a rank of 1 to {limit} squares"),
                        rank_size(size),
                    ));
                }
                width = Some(size);
            }
            Some(w) if w != size => {
                return Err(Fail::with(
                    rank_start,
                    format!("{} like the first rank", rank_size(w)),
                    rank_size(size),
                ));
            }
            Some(_) => {}
        }
        let rank_count = rows.len() + 1;
        if rank_count > usize::from(u16::MAX) || rank_count.saturating_mul(size) > MAX_SQUARES {
            return Err(Fail::with(
                rank_start,
                format!(
                    "a board of at most {} ranks and {MAX_SQUARES} squares",
                    u16::MAX
                ),
                format!("rank {rank_count} of {}", rank_size(size)),
            ));
        }
        let mut row = Vec::with_capacity(size);
        for token in tokens {
            match token {
                Token::Piece(piece) => row.push(Some(piece)),
                Token::Empty(run) => row.resize(row.len() + run, None),
            }
        }
        rows.push(row);
        if bytes.get(pos) == Some(&b'/') {
            pos += 1;
        } else {
            break;
        }
    }
    // Checked above: 1 <= width <= u16::MAX and 1 <= rows <= u16::MAX.
    let width = width.unwrap_or(1);
    let placement = Placement {
        width: u16::try_from(width).unwrap_or(u16::MAX),
        height: u16::try_from(rows.len()).unwrap_or(u16::MAX),
        squares: rows.into_iter().rev().flatten().collect(),
    };
    Ok((placement, pos))
}

/// Scans one hand starting at `pos`; returns the counts per piece and the
/// offset after the hand.
fn scan_hand(
    input: &str,
    mut pos: usize,
    squares: u64,
    soft: &mut Option<Fail>,
) -> Result<(BTreeMap<Epin, u64>, usize), Fail> {
    let bytes = input.as_bytes();
    let mut counts: BTreeMap<Epin, u64> = BTreeMap::new();
    let mut previous: Option<(u64, Epin, usize)> = None;
    while let Some(&b) = bytes.get(pos) {
        let item_start = pos;
        let mut count = 1u64;
        let mut written_count = false;
        let mut leading_zero = false;
        if b.is_ascii_digit() {
            let (end, value, zero) = scan_number(bytes, pos, squares);
            let Some(value) = value else {
                return Err(Fail::with(
                    pos,
                    format!("a count of at most {squares} (the number of squares)"),
                    quote(&input[pos..end]),
                ));
            };
            count = value;
            written_count = true;
            leading_zero = zero;
            pos = end;
            match bytes.get(pos) {
                Some(&c) if c.is_ascii_alphabetic() || c == b'+' || c == b'-' => {}
                _ => return Err(Fail::at(input, pos, "a piece after the count")),
            }
        } else if !(b.is_ascii_alphabetic() || b == b'+' || b == b'-') {
            break;
        }
        let piece_start = pos;
        let (piece, end) = scan_epin(input, pos)?;
        pos = end;
        let item = &input[item_start..end];
        let piece_text = &input[piece_start..end];
        if written_count && count < 2 {
            note(
                soft,
                Fail::with(item_start, "a count of at least 2", quote(item)).in_field(HANDS),
            );
        } else if leading_zero {
            note(
                soft,
                Fail::with(item_start, "a count without leading zeros", quote(item))
                    .in_field(HANDS),
            );
        }
        if counts.contains_key(&piece) {
            note(
                soft,
                Fail::with(
                    item_start,
                    "identical pieces aggregated into one count",
                    format!("{} listed again", quote(piece_text)),
                )
                .in_field(HANDS),
            );
        } else if let Some((prev_count, prev_piece, prev_start)) = previous {
            if (Reverse(count), piece) < (Reverse(prev_count), prev_piece) {
                note(
                    soft,
                    Fail::with(
                        item_start,
                        "hand items in canonical order (larger counts first, then by piece)",
                        format!(
                            "{} after {}",
                            quote(item),
                            quote(&input[prev_start..item_start])
                        ),
                    )
                    .in_field(HANDS),
                );
            }
        }
        let total = counts.entry(piece).or_insert(0);
        *total = total.saturating_add(count);
        previous = Some((count, piece, item_start));
    }
    counts.retain(|_, n| *n > 0);
    Ok((counts, pos))
}

fn scan_style_turn(input: &str, pos: usize) -> Result<StyleTurn, Fail> {
    let (active, next) = scan_sin(input, pos)?;
    if input.as_bytes().get(next) != Some(&b'/') {
        return Err(Fail::at(input, next, "'/' between the two style letters"));
    }
    let (inactive, end) = scan_sin(input, next + 1)?;
    if inactive.side() == active.side() {
        return Err(Fail::with(
            next + 1,
            format!("a style letter of the opposite case to '{active}'"),
            quote(&input[next + 1..end]),
        ));
    }
    if end != input.len() {
        return Err(Fail::at(input, end, "end of input"));
    }
    Ok(StyleTurn { active, inactive })
}
