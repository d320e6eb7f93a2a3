//! Pieces, roles and moves of Xiongqi.

use std::fmt;

use chuhe_notation::{Epin, PieceState, Pin, Side};

use super::bitboard::Square;
use crate::MoveError;

/// What a piece is, independent of its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// `G^`: one orthogonal step; the initial terminal piece.
    General = 0,
    /// `D^`: quiet one orthogonal step, captures like a chariot; the general after face to face.
    Dragon = 1,
    /// `A`: one diagonal step.
    Advisor = 2,
    /// `B`: bishop.
    Bear = 3,
    /// `R`: rook.
    Chariot = 4,
    /// `C`: rook-like quiet moves, captures over exactly one screen.
    Cannon = 5,
    /// `H`: blockable knight.
    Horse = 6,
    /// `E`: rook plus free knight leaps.
    Empress = 7,
    /// `S`: soldier before the river.
    Soldier = 8,
    /// `+S`: soldier after the river.
    CrossedSoldier = 9,
}

impl Role {
    /// All roles, in index order.
    pub const ALL: [Role; 10] = [
        Role::General,
        Role::Dragon,
        Role::Advisor,
        Role::Bear,
        Role::Chariot,
        Role::Cannon,
        Role::Horse,
        Role::Empress,
        Role::Soldier,
        Role::CrossedSoldier,
    ];

    /// The six promotion choices of X2, in the order moves are generated.
    pub const PROMOTIONS: [Role; 6] = [
        Role::Empress,
        Role::Advisor,
        Role::Cannon,
        Role::Chariot,
        Role::Bear,
        Role::Horse,
    ];

    /// Index 0..10.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase PIN letter.
    pub const fn letter(self) -> char {
        match self {
            Role::General => 'G',
            Role::Dragon => 'D',
            Role::Advisor => 'A',
            Role::Bear => 'B',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Horse => 'H',
            Role::Empress => 'E',
            Role::Soldier | Role::CrossedSoldier => 'S',
        }
    }

    /// Is this a terminal piece (general or dragon)?
    #[inline]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Role::General | Role::Dragon)
    }

    /// Is this a soldier (before or after the river)?
    #[inline]
    pub const fn is_soldier(self) -> bool {
        matches!(self, Role::Soldier | Role::CrossedSoldier)
    }

    /// The promotion role for a letter (`E A C R B H`, either case).
    pub fn promotion_from_letter(letter: char) -> Option<Role> {
        Role::PROMOTIONS
            .into_iter()
            .find(|r| r.letter() == letter.to_ascii_uppercase())
    }
}

/// A piece: side and role.
///
/// ```
/// use chuhe::xiongqi::{Piece, Role};
/// use chuhe::Side;
/// let p = Piece::new(Side::Second, Role::CrossedSoldier);
/// assert_eq!(p.to_string(), "+s");
/// assert_eq!(Piece::from_pin_text("G^"), Some(Piece::new(Side::First, Role::General)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub side: Side,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `side` with `role`.
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// Dense index 0..20 (`side * 10 + role`).
    #[inline]
    pub const fn index(self) -> usize {
        (self.side as usize) * 10 + self.role as usize
    }

    /// The piece with this dense index.
    pub const fn from_index(i: usize) -> Piece {
        let side = if i >= 10 { Side::Second } else { Side::First };
        Piece::new(side, Role::ALL[i % 10])
    }

    /// The PIN of this piece (`+S` for a soldier after the river, `^` on terminals).
    pub fn pin(self) -> Pin {
        let state = if self.role == Role::CrossedSoldier {
            PieceState::Enhanced
        } else {
            PieceState::Normal
        };
        Pin::new(
            self.role.letter() as u8,
            self.side,
            state,
            self.role.is_terminal(),
        )
    }

    /// The piece a native EPIN names in Xiongqi, or `None` if it names no Xiongqi piece.
    pub fn from_epin(epin: Epin) -> Option<Piece> {
        if epin.derived {
            return None;
        }
        let pin = epin.pin;
        let role = match (pin.letter(), pin.state(), pin.is_terminal()) {
            ('G', PieceState::Normal, true) => Role::General,
            ('D', PieceState::Normal, true) => Role::Dragon,
            ('A', PieceState::Normal, false) => Role::Advisor,
            ('B', PieceState::Normal, false) => Role::Bear,
            ('R', PieceState::Normal, false) => Role::Chariot,
            ('C', PieceState::Normal, false) => Role::Cannon,
            ('H', PieceState::Normal, false) => Role::Horse,
            ('E', PieceState::Normal, false) => Role::Empress,
            ('S', PieceState::Normal, false) => Role::Soldier,
            ('S', PieceState::Enhanced, false) => Role::CrossedSoldier,
            _ => return None,
        };
        Some(Piece::new(pin.side(), role))
    }

    /// Parses PIN text such as `G^` or `+s` into a Xiongqi piece.
    pub fn from_pin_text(text: &str) -> Option<Piece> {
        Epin::parse(text).ok().and_then(Piece::from_epin)
    }

    /// The Chinese character of seed 001 for this piece.
    pub const fn chinese(self) -> char {
        let first = matches!(self.side, Side::First);
        match (self.role, first) {
            (Role::Advisor, true) => '仕',
            (Role::Advisor, false) => '士',
            (Role::Bear, true) => '雄',
            (Role::Bear, false) => '熊',
            (Role::Cannon, true) => '炮',
            (Role::Cannon, false) => '砲',
            (Role::Dragon, true) => '鳳',
            (Role::Dragon, false) => '龍',
            (Role::Empress, true) => '妃',
            (Role::Empress, false) => '騛',
            (Role::General, true) => '帥',
            (Role::General, false) => '將',
            (Role::Horse, true) => '傌',
            (Role::Horse, false) => '馬',
            (Role::Chariot, true) => '俥',
            (Role::Chariot, false) => '車',
            (Role::Soldier | Role::CrossedSoldier, true) => '兵',
            (Role::Soldier | Role::CrossedSoldier, false) => '卒',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pin())
    }
}

/// A move: origin, destination and an optional promotion (X2). 16 bits.
///
/// The moving piece, capture and face-to-face effect follow from the position it is played in.
///
/// ```
/// use chuhe::xiongqi::{Move, Role, Square};
/// let m = Move::new(Square::from_coords(4, 6).unwrap(), Square::from_coords(4, 7).unwrap(), Some(Role::Empress));
/// assert_eq!(m.to_string(), "e7e8e");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    const NO_PROMOTION: u16 = 7;

    /// A move from `from` to `to`, promoting to `promotion` (one of [`Role::PROMOTIONS`]).
    #[inline]
    pub fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        let p = match promotion {
            None => Self::NO_PROMOTION,
            Some(r) => Role::PROMOTIONS.iter().position(|&x| x == r).unwrap_or(0) as u16,
        };
        Move::raw(from, to, p)
    }

    #[inline(always)]
    pub(crate) const fn raw(from: Square, to: Square, promotion_code: u16) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 6) | (promotion_code << 12))
    }

    /// Origin.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// Destination.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 63) as u8)
    }

    /// The promotion choice, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        let p = (self.0 >> 12) as usize;
        if p < 6 {
            Some(Role::PROMOTIONS[p])
        } else {
            None
        }
    }

    /// The 16-bit encoding.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this encoding (as given by [`Move::bits`]), if it is well formed.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let p = bits >> 12;
        if p < 6 || p == Self::NO_PROMOTION {
            Some(Move(bits))
        } else {
            None
        }
    }
}

/// The coordinate form: `e3e4`, `e7e8e`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(r) = self.promotion() {
            write!(f, "{}", r.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl crate::GameMove for Move {
    type Square = Square;
    #[inline(always)]
    fn from(self) -> Square {
        Move::from(self)
    }
    #[inline(always)]
    fn to(self) -> Square {
        Move::to(self)
    }
    #[inline(always)]
    fn bits(self) -> u16 {
        Move::bits(self)
    }
    #[inline]
    fn from_bits(bits: u16) -> Option<Move> {
        Move::from_bits(bits)
    }
    /// 0: no promotion; 1–6: [`Role::PROMOTIONS`] in order.
    const CHOICES: usize = 1 + Role::PROMOTIONS.len();
    fn choice(self) -> usize {
        self.promotion()
            .and_then(|r| Role::PROMOTIONS.iter().position(|&x| x == r))
            .map_or(0, |i| i + 1)
    }
    fn with_choice(from: Square, to: Square, choice: usize) -> Option<Move> {
        if from == to {
            return None;
        }
        match choice {
            0 => Some(Move::new(from, to, None)),
            c => Role::PROMOTIONS
                .get(c - 1)
                .map(|&r| Move::new(from, to, Some(r))),
        }
    }
}

/// Reads the coordinate form (`e3e4`, `e7e8e`), syntax only: whether the move is legal
/// depends on a position ([`crate::GamePosition::parse_move_as`]).
///
/// ```
/// use chuhe::xiongqi::{Move, Role};
/// let m: Move = "e7e8e".parse().unwrap();
/// assert_eq!(m.promotion(), Some(Role::Empress));
/// assert!("e7e9".parse::<Move>().is_err());
/// ```
impl std::str::FromStr for Move {
    type Err = MoveError;
    fn from_str(text: &str) -> Result<Move, MoveError> {
        let (from, to, promotion) =
            crate::variant::split_coordinates(text).ok_or_else(|| MoveError::Syntax {
                text: chuhe_notation::error::shorten(text).into_owned(),
                reason: "expected coordinates such as e3e4, or e7e8e to promote".into(),
            })?;
        let from = crate::variant::parse_square(from, text)?;
        let to = crate::variant::parse_square(to, text)?;
        let promotion = match promotion {
            None => None,
            Some(c) => Some(
                Role::promotion_from_letter(c).ok_or_else(|| MoveError::Syntax {
                    text: chuhe_notation::error::shorten(text).into_owned(),
                    reason: "the promotion letter must be one of e a c r b h".into(),
                })?,
            ),
        };
        Ok(Move::new(from, to, promotion))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A list of moves, large enough for any valid Xiongqi position (62 pieces × 22 destinations).
pub type MoveList = crate::MoveList<Move, 1400>;
