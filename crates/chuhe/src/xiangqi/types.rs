//! Xiangqi pieces, roles, moves and rule sets.

use std::fmt;

use chuhe_notation::{Epin, PieceState, Pin, Side};

use super::bitboard::Square;

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// General (帥/將): FEN `k`, FEEN `G^`.
    General = 0,
    /// Advisor (仕/士): FEN `a`, FEEN `A`.
    Advisor = 1,
    /// Elephant (相/象): FEN `b` (or `e`), FEEN `E`.
    Elephant = 2,
    /// Horse (傌/馬): FEN `n` (or `h`), FEEN `H`.
    Horse = 3,
    /// Chariot (俥/車): FEN `r`, FEEN `R`.
    Chariot = 4,
    /// Cannon (炮/砲): FEN `c`, FEEN `C`.
    Cannon = 5,
    /// Soldier (兵/卒): FEN `p`, FEEN `S` (`+S` across the river).
    Soldier = 6,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// Index 0..7.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The standard FEN letter (lowercase): `k a b n r c p`.
    pub const fn fen_letter(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// The role of a FEN letter (either case), accepting the aliases `h` and `e`.
    pub fn from_fen_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::General,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Chariot,
            'c' => Role::Cannon,
            'p' => Role::Soldier,
            _ => return None,
        })
    }

    /// The uppercase Sashité letter: `G A E H R C S`.
    pub const fn feen_letter(self) -> char {
        match self {
            Role::General => 'G',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'S',
        }
    }

    /// Is this a chariot, horse, cannon or soldier (the pieces S5 counts as material)?
    pub const fn is_attacking(self) -> bool {
        matches!(
            self,
            Role::Horse | Role::Chariot | Role::Cannon | Role::Soldier
        )
    }
}

/// A piece: side and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner: `First` = Red, `Second` = Black.
    pub side: Side,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `side` with `role`.
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// Dense index 0..14 (`side * 7 + role`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.side as usize) * 7 + self.role as usize
    }

    /// The piece with this dense index.
    pub const fn from_index(i: usize) -> Piece {
        let side = if i >= 7 { Side::Second } else { Side::First };
        Piece::new(side, Role::ALL[i % 7])
    }

    /// The FEN character: uppercase for Red.
    pub fn fen_char(self) -> char {
        match self.side {
            Side::First => self.role.fen_letter().to_ascii_uppercase(),
            Side::Second => self.role.fen_letter(),
        }
    }

    /// The PIN of this piece; `crossed` marks a soldier across the river (`+S`).
    pub fn pin(self, crossed: bool) -> Pin {
        let state = if self.role == Role::Soldier && crossed {
            PieceState::Enhanced
        } else {
            PieceState::Normal
        };
        Pin::new(
            self.role.feen_letter() as u8,
            self.side,
            state,
            self.role == Role::General,
        )
    }

    /// The piece a native EPIN names in Xiangqi with whether it says "across the river".
    pub fn from_epin(epin: Epin) -> Option<(Piece, bool)> {
        if epin.derived {
            return None;
        }
        let pin = epin.pin;
        let role = match (pin.letter(), pin.state(), pin.is_terminal()) {
            ('G', PieceState::Normal, true) => Role::General,
            ('A', PieceState::Normal, false) => Role::Advisor,
            ('E', PieceState::Normal, false) => Role::Elephant,
            ('H', PieceState::Normal, false) => Role::Horse,
            ('R', PieceState::Normal, false) => Role::Chariot,
            ('C', PieceState::Normal, false) => Role::Cannon,
            ('S', PieceState::Normal, false) => Role::Soldier,
            ('S', PieceState::Enhanced, false) => {
                return Some((Piece::new(pin.side(), Role::Soldier), true))
            }
            _ => return None,
        };
        Some((Piece::new(pin.side(), role), false))
    }

    /// The Chinese character (Red's and Black's differ).
    pub const fn chinese(self) -> char {
        let red = matches!(self.side, Side::First);
        match (self.role, red) {
            (Role::General, true) => '帥',
            (Role::General, false) => '將',
            (Role::Advisor, true) => '仕',
            (Role::Advisor, false) => '士',
            (Role::Elephant, true) => '相',
            (Role::Elephant, false) => '象',
            (Role::Horse, true) => '傌',
            (Role::Horse, false) => '馬',
            (Role::Chariot, true) => '俥',
            (Role::Chariot, false) => '車',
            (Role::Cannon, true) => '炮',
            (Role::Cannon, false) => '砲',
            (Role::Soldier, true) => '兵',
            (Role::Soldier, false) => '卒',
        }
    }
}

impl fmt::Display for Piece {
    /// The FEN character.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// Which rules a position follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// `xiangqi`: standard rules S1–S5, as Fairy-Stockfish / pyffish play them.
    #[default]
    Standard,
    /// `xiangqi-capture`: the teaching rules C1–C4 (capture the general).
    Capture,
}

impl RuleSet {
    /// The `--game` name.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Standard => "xiangqi",
            RuleSet::Capture => "xiangqi-capture",
        }
    }
}

/// A Xiangqi move: origin and destination (14 bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 7))
    }

    /// Origin.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 127) as u8)
    }

    /// Destination.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as u8)
    }

    /// The 14-bit encoding: origin index, destination index × 128.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this encoding (as given by [`Move::bits`]), if both points are on the board.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let (from, to) = (bits & 127, bits >> 7);
        (from < 90 && to < 90).then_some(Move(bits))
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
    fn with_choice(from: Square, to: Square, choice: usize) -> Option<Move> {
        (choice == 0 && from != to).then(|| Move::new(from, to))
    }
}

/// Reads UCI coordinates (`h3e3`, `b3b10`), syntax only: whether the move is legal depends on
/// a position ([`crate::GamePosition::parse_move_as`]).
///
/// ```
/// use chuhe::xiangqi::Move;
/// assert_eq!("b3b10".parse::<Move>().unwrap().to_string(), "b3b10");
/// assert!("b3b11".parse::<Move>().is_err());
/// ```
impl std::str::FromStr for Move {
    type Err = crate::MoveError;
    fn from_str(text: &str) -> Result<Move, crate::MoveError> {
        match crate::variant::split_coordinates(text) {
            Some((from, to, None)) => Ok(Move::new(
                crate::variant::parse_square(from, text)?,
                crate::variant::parse_square(to, text)?,
            )),
            _ => Err(crate::MoveError::Syntax {
                text: chuhe_notation::error::shorten(text).into_owned(),
                reason: "expected two points such as h3e3 or b3b10".into(),
            }),
        }
    }
}

/// UCI coordinates as Fairy-Stockfish writes them (ranks 1–10): `h3e3`, `b3b10`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}
