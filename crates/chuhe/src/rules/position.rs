//! The generic position of a game read from rule files: a mailbox and square sets of the
//! board's own width, moves generated from the compiled tables, legality by the manifest's
//! royal rule, promotion, captures into hands and the facing transformation.

use std::fmt;

use chuhe_notation::{Epin, Feen, Hand, Placement, Side, StyleTurn};

use super::bits::Bits;
use super::compile::{Compiled, CAPTURE, HAND_KEYS, HOP, OFF, QUIET};
use super::manifest::{CaptureTo, Facing, RoyalRule};
use crate::setup_error::{FenSyntaxError, Location, PositionError, Problem};
use crate::variant::GameSquare;
use crate::{MoveList, SetupError};

/// The most piece kinds a game may have (16 pieces, two sides).
pub const MAX_KINDS: usize = 32;

/// A square of a board read from rule files: the face index `rank × 12 + file`, the same for
/// every board up to 12 × 12 (`GameSquare::FILES` and `RANKS` are 12; the game's own size is
/// in its [`Info`](super::Info)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

impl Square {
    /// The square at `(file, rank)`, from 0.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 12 && rank < 12).then_some(Square(rank * 12 + file))
    }
    fn index(self) -> usize {
        usize::from(self.0)
    }
    fn file(self) -> u8 {
        self.0 % 12
    }
    fn rank(self) -> u8 {
        self.0 / 12
    }
    fn from_index_u8(i: u8) -> Option<Square> {
        (usize::from(i) < 144).then_some(Square(i))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl GameSquare for Square {
    const FILES: u8 = 12;
    const RANKS: u8 = 12;
    const RANGE: &'static str = "a1–l12";
    fn index(self) -> usize {
        Square::index(self)
    }
    fn from_index(index: usize) -> Option<Self> {
        u8::try_from(index).ok().and_then(Square::from_index_u8)
    }
    fn file(self) -> u8 {
        Square::file(self)
    }
    fn rank(self) -> u8 {
        Square::rank(self)
    }
}

impl std::str::FromStr for Square {
    type Err = crate::MoveError;
    fn from_str(s: &str) -> Result<Self, crate::MoveError> {
        crate::variant::parse_square(s, s)
    }
}

/// A move of a game read from rule files: origin, destination and a choice (0: no promotion,
/// or the only one; 1…12: the promotion's `into` list in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Move {
    from: Square,
    to: Square,
    choice: u8,
}

impl Move {
    /// The move from `from` to `to` with `choice`.
    pub fn new(from: Square, to: Square, choice: u8) -> Move {
        Move { from, to, choice }
    }
    /// The choice.
    pub fn choice_index(self) -> u8 {
        self.choice
    }
    /// A drop on `to` of the piece of the game's `rule`-th drop rule (from 1): origin and
    /// destination are the same square, which no move on the board has.
    pub fn drop(to: Square, rule: u8) -> Move {
        Move {
            from: to,
            to,
            choice: rule,
        }
    }
    /// Is it a drop?
    pub fn is_drop(self) -> bool {
        self.from == self.to
    }
}

impl fmt::Display for Move {
    /// Coordinates: `e3e4`; a choice as `#N` (`e7e8#1`), for messages only — the position
    /// writes a promotion with its piece's letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_drop() {
            return write!(f, "*{}#{}", self.to, self.choice);
        }
        write!(f, "{}{}", self.from, self.to)?;
        if self.choice > 0 {
            write!(f, "#{}", self.choice)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Move {
    type Err = crate::MoveError;
    /// Coordinates without a promotion (`e3e4`).
    fn from_str(s: &str) -> Result<Move, crate::MoveError> {
        match crate::variant::split_coordinates(s) {
            Some((a, b, None)) => Ok(Move::new(
                crate::variant::parse_square(a, s)?,
                crate::variant::parse_square(b, s)?,
                0,
            )),
            _ => Err(crate::MoveError::syntax(
                s,
                "expected coordinates such as e3e4",
            )),
        }
    }
}

/// The 16-bit move code, for a board of up to 144 squares:
/// - `0..20736`: no choice, `from × 144 + to`;
/// - `20736..41472`: choice 1 (a promotion's first piece, or a drop of the first drop rule
///   when `from = to`), `from × 144 + to`;
/// - then choices 2 to 7 by their step (at most two files and ranks, checked when the game is
///   compiled; a drop's step is zero) and origin;
/// - then drops of rules 8 to 12, by square.
const PLAIN: u16 = 144 * 144;
const FIRST_CHOICE: u16 = 2 * PLAIN;
const STEPPED: u16 = FIRST_CHOICE + 6 * 25 * 144;
const LAST_DROP: u16 = STEPPED + 5 * 144;

impl crate::variant::GameMove for Move {
    type Square = Square;
    const CHOICES: usize = 13;
    fn from(self) -> Square {
        self.from
    }
    fn to(self) -> Square {
        self.to
    }
    fn bits(self) -> u16 {
        let (from, to) = (u16::from(self.from.0), u16::from(self.to.0));
        match self.choice {
            0 => from * 144 + to,
            1 => PLAIN + from * 144 + to,
            c @ 2..=7 => {
                let df = i16::from(self.to.file()) - i16::from(self.from.file());
                let dr = i16::from(self.to.rank()) - i16::from(self.from.rank());
                let step = ((df + 2) * 5 + dr + 2).clamp(0, 24) as u16;
                FIRST_CHOICE + ((u16::from(c) - 2) * 25 + step) * 144 + from
            }
            c => STEPPED + (u16::from(c).min(12) - 8) * 144 + to,
        }
    }
    fn from_bits(bits: u16) -> Option<Move> {
        let square = |i: u16| Square::from_index_u8(u8::try_from(i).ok()?);
        match bits {
            b if b < PLAIN => Some(Move::new(square(b / 144)?, square(b % 144)?, 0)),
            b if b < FIRST_CHOICE => {
                let b = b - PLAIN;
                Some(Move::new(square(b / 144)?, square(b % 144)?, 1))
            }
            b if b < STEPPED => {
                let rest = b - FIRST_CHOICE;
                let from = square(rest % 144)?;
                let (choice, step) = (rest / 144 / 25 + 2, rest / 144 % 25);
                let (df, dr) = (step as i16 / 5 - 2, step as i16 % 5 - 2);
                let file = u8::try_from(i16::from(from.file()) + df).ok()?;
                let rank = u8::try_from(i16::from(from.rank()) + dr).ok()?;
                Some(Move::new(from, Square::new(file, rank)?, choice as u8))
            }
            b if b < LAST_DROP => {
                let rest = b - STEPPED;
                Some(Move::drop(square(rest % 144)?, (rest / 144 + 8) as u8))
            }
            _ => None,
        }
    }
    fn choice(self) -> usize {
        usize::from(self.choice)
    }
    fn with_choice(from: Square, to: Square, choice: usize) -> Option<Move> {
        // From a square to itself only a drop, whose choice is its rule (from 1).
        (choice < 13 && (from != to || choice > 0)).then(|| Move::new(from, to, choice as u8))
    }
}

/// A move list big enough for any position of a game up to 12 × 12.
pub type Moves = MoveList<Move, 768>;

/// The rule set of a generic position: the compiled game. Equal when the same game.
pub struct RulesConfig<B: Bits>(pub &'static Compiled<B>);

impl<B: Bits> Clone for RulesConfig<B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Bits> Copy for RulesConfig<B> {}
impl<B: Bits> PartialEq for RulesConfig<B> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl<B: Bits> Eq for RulesConfig<B> {}
impl<B: Bits> fmt::Debug for RulesConfig<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RulesConfig({})", self.0.info.name)
    }
}

/// A position of a game read from rule files.
#[derive(Clone)]
pub struct Position<B: Bits> {
    pub(crate) game: &'static Compiled<B>,
    /// Per board index: kind + 1, 0 when empty.
    pub(crate) board: [u8; 144],
    pub(crate) by_side: [B; 2],
    pub(crate) royals: B,
    pub(crate) hands: [[u8; MAX_KINDS]; 2],
    pub(crate) turn: Side,
    pub(crate) halfmove: u32,
    pub(crate) hash: u64,
    pub(crate) fold: u8,
    /// The drop rule (from 1) of the move that led here when it was a drop, else 0: a drop
    /// that checkmates may lose (shogi's pawn). Not part of the position's identity.
    pub(crate) last_drop: u8,
}

impl<B: Bits> PartialEq for Position<B> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.game, other.game)
            && self.board == other.board
            && self.hands == other.hands
            && self.turn == other.turn
            && self.halfmove == other.halfmove
    }
}

impl<B: Bits> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.game.info.name, self.to_feen())
    }
}

impl<B: Bits> Position<B> {
    /// The game.
    pub fn game(&self) -> &'static Compiled<B> {
        self.game
    }

    fn empty(game: &'static Compiled<B>) -> Position<B> {
        let fold = match game.info.manifest.session.repetition {
            super::manifest::Repetition::Fold { fold, .. } => fold,
            _ => 0,
        };
        Position {
            game,
            board: [0; 144],
            by_side: [B::EMPTY; 2],
            royals: B::EMPTY,
            hands: [[0; MAX_KINDS]; 2],
            turn: Side::First,
            halfmove: 0,
            hash: 0,
            fold,
            last_drop: 0,
        }
    }

    #[inline(always)]
    fn put(&mut self, bit: usize, kind: u8) {
        let info = &self.game.info;
        let k = &info.kinds[usize::from(kind)];
        self.board[bit] = kind + 1;
        self.by_side[k.side.index()].set(bit);
        if k.royal {
            self.royals.set(bit);
        }
        self.hash ^= info.zobrist[usize::from(kind) * info.squares + bit];
    }

    #[inline(always)]
    fn remove(&mut self, bit: usize) -> u8 {
        let info = &self.game.info;
        let kind = self.board[bit] - 1;
        self.board[bit] = 0;
        self.by_side[0].clear(bit);
        self.by_side[1].clear(bit);
        self.royals.clear(bit);
        self.hash ^= info.zobrist[usize::from(kind) * info.squares + bit];
        kind
    }

    /// The Zobrist key of `n` pieces of `kind` in a hand (0 for none, and in games without
    /// drops, whose hands only grow).
    #[inline(always)]
    fn hand_key(&self, kind: usize, n: u8) -> u64 {
        let keys = &self.game.info.hand_zobrist;
        if n == 0 || keys.is_empty() {
            return 0;
        }
        keys[kind * HAND_KEYS + usize::from(n).min(HAND_KEYS) - 1]
    }

    /// Sets how many pieces of `kind` `side` holds.
    #[inline(always)]
    fn set_hand(&mut self, side: Side, kind: usize, n: u8) {
        let old = self.hands[side.index()][kind];
        self.hash ^= self.hand_key(kind, old) ^ self.hand_key(kind, n);
        self.hands[side.index()][kind] = n;
    }

    /// Does the game drop pieces from the hands?
    #[inline(always)]
    pub(crate) fn has_drops(&self) -> bool {
        !self.game.info.manifest.drops.is_empty()
    }

    /// The start position.
    pub fn start(game: &'static Compiled<B>) -> Position<B> {
        // The manifest's start was checked when the game was compiled.
        Position::from_feen_value(game, &game.info.start).unwrap_or_else(|_| Position::empty(game))
    }

    /// Reads and checks a FEEN.
    pub fn from_feen(game: &'static Compiled<B>, text: &str) -> Result<Position<B>, SetupError> {
        let feen = Feen::parse(text)?;
        Position::from_feen_value(game, &feen)
    }

    /// Reads a position in Fairy-Stockfish's FEN, as [`Position::to_fen`] writes it: pieces by
    /// their manifest `fen` letters (a `~` after a letter, Fairy-Stockfish's mark of a promoted
    /// piece, is read and dropped), the side to move, two fields chuhe's games do not use, the
    /// half-move clock and the move number (both optional). FEN has no hands: a hand is empty.
    ///
    /// The position is then checked as a FEEN is ([`Position::from_feen`]).
    pub fn from_fen(game: &'static Compiled<B>, text: &str) -> Result<Position<B>, SetupError> {
        let info = &game.info;
        let syntax =
            |offset: usize, message: String| SetupError::Fen(FenSyntaxError { offset, message });
        let fields: Vec<(usize, &str)> = text
            .split(' ')
            .scan(0, |at, f| {
                let start = *at;
                *at += f.len() + 1;
                Some((start, f))
            })
            .filter(|(_, f)| !f.is_empty())
            .collect();
        let Some(&(_, board_and_hands)) = fields.first() else {
            return Err(syntax(0, "empty FEN".into()));
        };
        // Fairy-Stockfish writes the hands of games with drops after the board: `[Pp]`.
        let (board, hands_text) = match board_and_hands.split_once('[') {
            Some((board, rest)) => match rest.strip_suffix(']') {
                Some(hands) if !hands.contains(['[', ']']) => (board, Some(hands)),
                _ => {
                    return Err(syntax(
                        board.len(),
                        "the hands must be written [...] at the end of the board".into(),
                    ))
                }
            },
            None => (board_and_hands, None),
        };
        let (files, ranks) = (usize::from(info.files), usize::from(info.ranks));
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != ranks {
            return Err(syntax(
                0,
                format!("{} ranks; {} has {ranks}", rows.len(), info.name),
            ));
        }
        let mut placement = Placement::empty(u16::from(info.files), u16::from(info.ranks));
        let mut offset = 0;
        for (row_index, row) in rows.iter().enumerate() {
            let rank = ranks - 1 - row_index;
            let mut file = 0usize;
            let mut plus = false;
            let mut chars = row.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                let at = offset + i;
                if plus && !c.is_alphabetic() {
                    return Err(syntax(
                        at - 1,
                        "'+' must stand before a piece's letter".into(),
                    ));
                }
                if let Some(d) = c.to_digit(10) {
                    let mut n = d as usize;
                    while let Some(&(_, next)) = chars.peek() {
                        match next.to_digit(10) {
                            Some(d) if n < 100 => {
                                n = n * 10 + d as usize;
                                chars.next();
                            }
                            _ => break,
                        }
                    }
                    if n == 0 {
                        return Err(syntax(at, "an empty run of 0 squares".into()));
                    }
                    file += n;
                } else if c == '~' {
                    continue;
                } else if c == '+' && !plus {
                    plus = true;
                    continue;
                } else {
                    // One letter may stand for a piece and its implied change (Xiangqi's soldier
                    // before and after the river): the one that can stand here.
                    let bit = rank * files + file;
                    let promoted = std::mem::take(&mut plus);
                    let mut letters = (0..info.kinds.len()).filter(|&k| {
                        info.kinds[k].fen == Some(c) && info.kinds[k].fen_plus == promoted
                    });
                    let Some(first) = letters.next() else {
                        let what = if promoted {
                            format!("'+{c}' is no piece's FEN token")
                        } else {
                            format!("'{c}' is no piece's FEN letter")
                        };
                        return Err(syntax(at, format!("{what} in {}", info.name)));
                    };
                    let k = std::iter::once(first)
                        .chain(letters)
                        .find(|&k| file < files && info.stands[k * info.squares + bit])
                        .unwrap_or(first);
                    if file < files {
                        let cell = chuhe_notation::Cell::new(file as u16, rank as u16);
                        placement.set(cell, Some(Epin::native(info.kinds[k].pin)));
                    }
                    file += 1;
                }
                if file > files {
                    return Err(syntax(
                        at,
                        format!("rank {} has more than {files} squares", rank + 1),
                    ));
                }
            }
            if plus {
                return Err(syntax(
                    offset + row.len() - 1,
                    "'+' must stand before a piece's letter".into(),
                ));
            }
            if file != files {
                return Err(syntax(
                    offset,
                    format!(
                        "rank {} has {file} squares; {} has {files}",
                        rank + 1,
                        info.name
                    ),
                ));
            }
            offset += row.len() + 1;
        }
        let turn = match fields.get(1) {
            Some(&(_, "w")) => Side::First,
            Some(&(_, "b")) => Side::Second,
            Some(&(at, other)) => {
                return Err(syntax(
                    at,
                    format!(
                        "side to move '{}': w or b",
                        chuhe_notation::error::shorten(other)
                    ),
                ))
            }
            None => return Err(syntax(text.len(), "no side to move (w or b)".into())),
        };
        if fields.len() > 6 {
            return Err(syntax(fields[6].0, "more than six fields".into()));
        }
        let number = |index: usize, least: u32| -> Result<Option<u32>, SetupError> {
            match fields.get(index) {
                None => Ok(None),
                Some(&(at, f)) => f
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n >= least)
                    .map(Some)
                    .ok_or_else(|| {
                        syntax(
                            at,
                            format!(
                                "'{}' is not a count (a whole number of at least {least})",
                                chuhe_notation::error::shorten(f)
                            ),
                        )
                    }),
            }
        };
        let halfmove = number(4, 0)?;
        number(5, 1)?;
        let mut hands = [Hand::new(), Hand::new()];
        for (i, c) in hands_text.unwrap_or("").char_indices() {
            if c == '-' {
                continue;
            }
            let side = if c.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            let Some(k) = (0..info.kinds.len())
                .find(|&k| info.kinds[k].fen == Some(c) && !info.kinds[k].fen_plus)
            else {
                return Err(syntax(
                    board.len() + 1 + i,
                    format!(
                        "'{c}' in the hands is no piece's FEN letter in {}",
                        info.name
                    ),
                ));
            };
            hands[side.index()].add_n(Epin::native(info.kinds[k].pin), 1);
        }
        let feen = Feen {
            placement,
            hands,
            style_turn: StyleTurn::new(info.styles[0], info.styles[1], turn),
        };
        let mut pos = Position::from_feen_value(game, &feen)?;
        if let Some(h) = halfmove {
            pos.halfmove = h;
        }
        Ok(pos)
    }

    fn from_feen_value(game: &'static Compiled<B>, feen: &Feen) -> Result<Position<B>, SetupError> {
        let info = &game.info;
        let mut pos = Position::empty(game);
        let mut problems = Vec::new();
        if (feen.placement.width(), feen.placement.height())
            != (u16::from(info.files), u16::from(info.ranks))
        {
            problems.push(Problem::new(
                Location::Board,
                format!(
                    "the board is {}x{}; {} is played on {}x{}",
                    feen.placement.width(),
                    feen.placement.height(),
                    info.name,
                    info.files,
                    info.ranks
                ),
            ));
            return Err(PositionError {
                game: info.name,
                problems,
            }
            .into());
        }
        let st = feen.style_turn;
        if [st.first_style(), st.second_style()] != info.styles {
            problems.push(Problem::new(
                Location::Turn,
                format!(
                    "styles {}/{}: {} is played in {}/{}",
                    st.first_style(),
                    st.second_style(),
                    info.name,
                    info.styles[0],
                    info.styles[1]
                ),
            ));
        }
        for (cell, epin) in feen.placement.iter() {
            let Some(bit) = info.bit_of(cell) else {
                continue;
            };
            match info.kind_of(epin.pin).filter(|_| !epin.derived) {
                Some(k) if info.stands[usize::from(k) * info.squares + bit] => pos.put(bit, k),
                Some(_) => problems.push(Problem::new(
                    Location::Square(cell),
                    format!(
                        "{} cannot stand on {cell} (no entry of the GGN table)",
                        epin.pin
                    ),
                )),
                None => problems.push(Problem::new(
                    Location::Square(cell),
                    format!("'{epin}' is not a piece of {}", info.name),
                )),
            }
        }
        for side in Side::BOTH {
            for (epin, n) in feen.hand(side).iter() {
                match info.kind_of(epin.pin).filter(|_| !epin.derived) {
                    Some(k) if info.manifest.join && info.kinds[usize::from(k)].side != side => {
                        problems.push(Problem::new(
                            Location::Hand(side),
                            format!(
                                "'{epin}' is the other side's: in {} captured pieces join the \
                                 capturer's hand",
                                info.name
                            ),
                        ))
                    }
                    Some(k) => {
                        pos.set_hand(side, usize::from(k), u8::try_from(n).unwrap_or(u8::MAX))
                    }
                    None => problems.push(Problem::new(
                        Location::Hand(side),
                        format!("'{epin}' is not a piece of {}", info.name),
                    )),
                }
            }
        }
        let checkmate = info.manifest.royal.rule == RoyalRule::Checkmate;
        for side in Side::BOTH {
            let n = pos.royals.and(pos.by_side[side.index()]).count();
            if n > 1 || (checkmate && n == 0) {
                problems.push(Problem::new(
                    Location::Board,
                    format!(
                        "{} has {n} royal pieces; {} needs {}",
                        side.as_str(),
                        info.name,
                        if checkmate {
                            "exactly one"
                        } else {
                            "at most one"
                        }
                    ),
                ));
            }
        }
        pos.set_turn(st.side_to_move());
        if problems.is_empty() {
            if let Facing::Transform(_) = info.manifest.royal.facing {
                if pos.transform_due() {
                    problems.push(Problem::new(
                        Location::Board,
                        "the royal pieces face each other: they would have changed already",
                    ));
                }
            }
        }
        if problems.is_empty() && checkmate && pos.royal_attacked(!pos.turn) {
            problems.push(Problem::new(
                Location::Board,
                format!("{} (not to move) is in check", (!pos.turn).as_str()),
            ));
        }
        if !problems.is_empty() {
            return Err(PositionError {
                game: info.name,
                problems,
            }
            .into());
        }
        Ok(pos)
    }

    pub(crate) fn set_turn(&mut self, side: Side) {
        if side != self.turn {
            self.hash ^= self.game.info.side_key;
            self.turn = side;
        }
    }

    /// The position as FEEN.
    pub fn to_feen(&self) -> String {
        let info = &self.game.info;
        let mut placement = Placement::empty(u16::from(info.files), u16::from(info.ranks));
        for bit in 0..info.squares {
            if let Some(k) = self.kind_at(bit) {
                placement.set(info.cell_of(bit), Some(Epin::native(info.kinds[k].pin)));
            }
        }
        let mut hands = [Hand::new(), Hand::new()];
        for side in Side::BOTH {
            for (k, &n) in self.hands[side.index()].iter().enumerate() {
                if n > 0 && k < info.kinds.len() {
                    hands[side.index()].add_n(Epin::native(info.kinds[k].pin), u32::from(n));
                }
            }
        }
        Feen {
            placement,
            hands,
            style_turn: StyleTurn::new(info.styles[0], info.styles[1], self.turn),
        }
        .to_string()
    }

    /// The position in Fairy-Stockfish's FEN (pieces by their manifest `fen` letters; `None`
    /// when a piece has none).
    pub fn to_fen(&self) -> Option<String> {
        let info = &self.game.info;
        let mut out = String::new();
        for rank in (0..usize::from(info.ranks)).rev() {
            let mut empty = 0;
            for file in 0..usize::from(info.files) {
                let bit = rank * usize::from(info.files) + file;
                match self.kind_at(bit) {
                    None => empty += 1,
                    Some(k) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if info.kinds[k].fen_plus {
                            out.push('+');
                        }
                        out.push(info.kinds[k].fen?);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if self.has_drops() {
            // Fairy-Stockfish's hands: `[`, the first player's pieces (uppercase) and the
            // second's, one letter a piece, `]`.
            out.push('[');
            for side in Side::BOTH {
                for (k, &n) in self.hands[side.index()].iter().enumerate() {
                    if n > 0 && k < info.kinds.len() {
                        let letter = info.kinds[k].fen?;
                        let letter = match side {
                            Side::First => letter.to_ascii_uppercase(),
                            Side::Second => letter.to_ascii_lowercase(),
                        };
                        out.extend(std::iter::repeat(letter).take(usize::from(n)));
                    }
                }
            }
            out.push(']');
        }
        let turn = if self.turn == Side::First { 'w' } else { 'b' };
        Some(format!("{out} {turn} - - {} 1", self.halfmove))
    }

    /// The kind on a board index.
    #[inline(always)]
    pub(crate) fn kind_at(&self, bit: usize) -> Option<usize> {
        self.board[bit].checked_sub(1).map(usize::from)
    }

    /// Board index of a face square, if on this board.
    #[inline(always)]
    pub(crate) fn bit(&self, sq: Square) -> Option<usize> {
        let b = self.game.info.face_to_bit[sq.index()];
        (b != OFF).then_some(usize::from(b))
    }

    #[inline(always)]
    pub(crate) fn face(&self, bit: usize) -> Square {
        Square(self.game.info.bit_to_face[bit])
    }

    /// Every occupied square.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> B {
        self.by_side[0].or(self.by_side[1])
    }

    /// The royal square of `side`, if any.
    pub(crate) fn royal_square(&self, side: Side) -> Option<usize> {
        let mut r = self.royals.and(self.by_side[side.index()]);
        r.pop()
    }

    /// Calls `emit(from, to)` for every pseudo-legal move of `side` (board indices; no
    /// promotion expanded).
    #[inline]
    pub(crate) fn pseudo(&self, side: Side, mut emit: impl FnMut(usize, usize)) {
        let g = self.game;
        let squares = g.info.squares;
        let own = self.by_side[side.index()];
        let enemy = self.by_side[(!side).index()];
        let occ = own.or(enemy);
        let mut pieces = own;
        while let Some(from) = pieces.pop() {
            let k = usize::from(self.board[from] - 1);
            let slot = g.slots[k * squares + from];
            let start = slot.dest_start as usize;
            let mut last = usize::MAX;
            for d in &g.dests[start..start + usize::from(slot.dest_len)] {
                let to = usize::from(d.to);
                if to == last {
                    continue;
                }
                let blockers = occ.and(d.between);
                let ok = if !occ.has(to) {
                    d.flags & QUIET != 0 && blockers.is_empty()
                } else if enemy.has(to) {
                    (d.flags & CAPTURE != 0 && blockers.is_empty())
                        || (d.flags & HOP != 0 && blockers.count() == 1)
                } else {
                    false
                };
                if ok {
                    emit(from, to);
                    last = to;
                }
            }
            let fb = slot.fb_start as usize;
            for f in &g.fallbacks[fb..fb + usize::from(slot.fb_len)] {
                let to = usize::from(f.to);
                if own.has(to) {
                    continue;
                }
                if self.fallback_holds(side, f.start as usize, usize::from(f.len)) {
                    emit(from, to);
                }
            }
        }
    }

    fn fallback_holds(&self, side: Side, start: usize, len: usize) -> bool {
        let occ = self.occupied();
        let enemy = self.by_side[(!side).index()];
        self.game.poss[start..start + len].iter().any(|p| {
            occ.and(p.must_empty).is_empty()
                && occ.and(p.must_occupied) == p.must_occupied
                && enemy.and(p.must_enemy) == p.must_enemy
                && enemy.and(p.deny_enemy).is_empty()
                && p.must_piece
                    .iter()
                    .all(|&(b, k)| self.board[usize::from(b)] == k)
                && !p
                    .deny_piece
                    .iter()
                    .any(|&(b, k)| self.board[usize::from(b)] == k)
        })
    }

    /// Can a piece of `by` on `from` capture on `target` (an enemy piece stands there)?
    fn attacks_from(&self, by: Side, from: usize, target: usize) -> bool {
        let g = self.game;
        let k = usize::from(self.board[from] - 1);
        let slot = g.slots[k * g.info.squares + from];
        let occ = self.occupied();
        let start = slot.dest_start as usize;
        for d in &g.dests[start..start + usize::from(slot.dest_len)] {
            if usize::from(d.to) == target {
                let blockers = occ.and(d.between).count();
                if (d.flags & CAPTURE != 0 && blockers == 0)
                    || (d.flags & HOP != 0 && blockers == 1)
                {
                    return true;
                }
            }
        }
        let fb = slot.fb_start as usize;
        g.fallbacks[fb..fb + usize::from(slot.fb_len)]
            .iter()
            .any(|f| {
                usize::from(f.to) == target
                    && self.fallback_holds(by, f.start as usize, usize::from(f.len))
            })
    }

    /// Is the piece on `target` attacked by a piece of `by`?
    pub(crate) fn attacked(&self, target: usize, by: Side) -> bool {
        let g = self.game;
        let mut candidates = g.reverse_any[target].and(self.by_side[by.index()]);
        while let Some(from) = candidates.pop() {
            let k = usize::from(self.board[from] - 1);
            if g.reverse[k * g.info.squares + target].has(from)
                && self.attacks_from(by, from, target)
            {
                return true;
            }
        }
        false
    }

    /// Do the royal pieces face each other: one file, the first player's below, nothing
    /// between?
    pub(crate) fn royals_face(&self) -> bool {
        let (Some(a), Some(b)) = (
            self.royal_square(Side::First),
            self.royal_square(Side::Second),
        ) else {
            return false;
        };
        let files = usize::from(self.game.info.files);
        if a % files != b % files || a > b {
            return false;
        }
        let occ = self.occupied();
        (a + files..b).step_by(files).all(|i| !occ.has(i))
    }

    fn transform_due(&self) -> bool {
        let info = &self.game.info;
        self.royals_face()
            && Side::BOTH.iter().all(|&s| {
                self.royal_square(s)
                    .and_then(|sq| self.kind_at(sq))
                    .is_some_and(|k| info.transform[k].is_some())
            })
    }

    /// Is `side`'s royal piece attacked (or, where facing is forbidden, facing the other)?
    pub(crate) fn royal_attacked(&self, side: Side) -> bool {
        let Some(sq) = self.royal_square(side) else {
            return false;
        };
        (self.game.info.manifest.royal.facing == Facing::Forbidden && self.royals_face())
            || self.attacked(sq, !side)
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        self.royal_attacked(self.turn)
    }

    /// Does the position have a royal piece of each side?
    pub(crate) fn both_royals(&self) -> bool {
        self.royal_square(Side::First).is_some() && self.royal_square(Side::Second).is_some()
    }

    /// The moves of one pseudo-legal (from, to): promotion choices expanded.
    #[inline]
    fn expand(&self, from: usize, to: usize, mut push: impl FnMut(Move)) {
        let (f, t) = (self.face(from), self.face(to));
        let info = &self.game.info;
        let k = usize::from(self.board[from] - 1);
        match &info.promos[k] {
            Some(p) if p.zone[to] || (p.from_zone && p.zone[from]) => {
                // Staying as it is needs a square the piece can stand on (shogi's pawn on
                // the last rank must promote).
                if p.optional && info.stands[k * info.squares + to] {
                    push(Move::new(f, t, 0));
                }
                for c in 1..=p.into.len() {
                    push(Move::new(f, t, c as u8));
                }
            }
            _ => push(Move::new(f, t, 0)),
        }
    }

    /// Does playing (from, to) leave the mover's royal piece safe? (Checkmate rule only.)
    #[inline]
    fn safe_after(&self, from: usize, to: usize) -> bool {
        let mut after = self.clone();
        after.apply(from, to, None);
        !after.royal_attacked(self.turn)
    }

    /// How the side to move's pseudo-legal moves are tested for the checkmate rule.
    fn legality(&self) -> Legality<B> {
        let info = &self.game.info;
        if info.manifest.royal.rule != RoyalRule::Checkmate {
            return Legality::Free;
        }
        let Some(royal) = self.royal_square(self.turn) else {
            return Legality::Free;
        };
        if matches!(info.manifest.royal.facing, Facing::Transform(_)) || self.is_check() {
            return Legality::Every;
        }
        let mut guard = self.game.guard[royal];
        guard.set(royal);
        if info.manifest.royal.facing == Facing::Forbidden {
            // Leaving the royal piece's file may open it to the other royal piece.
            let files = usize::from(info.files);
            for square in (royal % files..info.squares).step_by(files) {
                guard.set(square);
            }
        }
        Legality::Guarded(guard)
    }

    /// Is (from, to) legal by the test `legality` chose?
    #[inline]
    fn passes(&self, legality: &Legality<B>, from: usize, to: usize) -> bool {
        match legality {
            Legality::Free => true,
            Legality::Guarded(guard) if !guard.has(from) && !guard.has(to) => true,
            _ => self.safe_after(from, to),
        }
    }

    /// Appends the legal moves (history aside) to `out`; the position's own ends are not
    /// looked at.
    pub(crate) fn generate(&self, out: &mut Moves) {
        let legality = self.legality();
        self.pseudo(self.turn, |from, to| {
            if self.passes(&legality, from, to) {
                self.expand(from, to, |m| out.push(m));
            }
        });
        if self.has_drops() {
            self.legal_drops(&legality, |m| out.push(m));
        }
    }

    /// The number of legal moves (history aside).
    pub(crate) fn count(&self) -> u64 {
        let legality = self.legality();
        let mut n = 0;
        self.pseudo(self.turn, |from, to| {
            if self.passes(&legality, from, to) {
                self.expand(from, to, |_| n += 1);
            }
        });
        if self.has_drops() {
            self.legal_drops(&legality, |_| n += 1);
        }
        n
    }

    /// Calls `emit` for every legal drop of the side to move: a piece of its hand, by the
    /// game's drop rules in order, on each empty square of the rule's zone where the piece can
    /// stand; not on a file holding one already where the rule says so; one that would leave
    /// the mover's royal piece attacked (a drop can only block, so this is looked at in check)
    /// is left out.
    fn legal_drops(&self, legality: &Legality<B>, mut emit: impl FnMut(Move)) {
        let info = &self.game.info;
        let us = self.turn;
        let files = usize::from(info.files);
        for (d, rule) in info.drops[us.index()].iter().enumerate() {
            let kind = usize::from(rule.kind);
            if self.hands[us.index()][kind] == 0 {
                continue;
            }
            let mut taken_files = [false; 12];
            if rule.no_doubled {
                for bit in 0..info.squares {
                    if self.board[bit] == rule.kind + 1 {
                        taken_files[bit % files] = true;
                    }
                }
            }
            for to in 0..info.squares {
                if self.board[to] != 0 || !rule.squares[to] || taken_files[to % files] {
                    continue;
                }
                if !matches!(legality, Legality::Free | Legality::Guarded(_)) {
                    let mut after = self.clone();
                    after.drop_piece(d, to);
                    if after.royal_attacked(us) {
                        continue;
                    }
                }
                emit(Move::drop(self.face(to), d as u8 + 1));
            }
        }
    }

    /// Drops the piece of the side to move's `rule`-th drop rule (from 0) on `to`.
    fn drop_piece(&mut self, rule: usize, to: usize) {
        let info = &self.game.info;
        let us = self.turn;
        let kind = info.drops[us.index()][rule].kind;
        let held = self.hands[us.index()][usize::from(kind)];
        self.set_hand(us, usize::from(kind), held.saturating_sub(1));
        self.put(to, kind);
        if info.resets[usize::from(kind)] {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.last_drop = rule as u8 + 1;
        self.set_turn(!us);
    }

    /// Plays (from, to) with the promotion `choice` (`None`: the default; the
    /// transformation of facing royals is included).
    pub(crate) fn apply(&mut self, from: usize, to: usize, choice: Option<u8>) {
        let info = &self.game.info;
        self.last_drop = 0;
        let kind = self.remove(from);
        let us = self.turn;
        let mut captured_royal = false;
        let capture = self.board[to] != 0;
        if capture {
            let victim = self.remove(to);
            captured_royal = info.kinds[usize::from(victim)].royal;
            if info.manifest.capture == CaptureTo::Hand {
                let held = usize::from(info.demote[usize::from(victim)]);
                let n = self.hands[us.index()][held];
                self.set_hand(us, held, n.saturating_add(1));
            }
        }
        let mut placed = kind;
        if let Some(p) = &info.promos[usize::from(kind)] {
            if p.zone[to] || (p.from_zone && p.zone[from]) {
                let c = usize::from(choice.unwrap_or(0));
                if c >= 1 && c <= p.into.len() {
                    placed = p.into[c - 1];
                } else if !p.optional {
                    placed = p.into[0];
                }
            }
        }
        self.put(to, placed);
        if (capture && info.reset_capture) || info.resets[usize::from(kind)] {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if !captured_royal
            && matches!(info.manifest.royal.facing, Facing::Transform(_))
            && self.transform_due()
        {
            for side in Side::BOTH {
                if let Some(sq) = self.royal_square(side) {
                    if let Some(k) = self.kind_at(sq).and_then(|k| info.transform[k]) {
                        self.remove(sq);
                        self.put(sq, k);
                    }
                }
            }
        }
        self.set_turn(!us);
    }

    /// The piece a drop puts on the board, if `m` is a drop of this game (its choice names
    /// one of the side to move's drop rules, from 1).
    pub(super) fn dropped_kind(&self, m: Move) -> Option<usize> {
        if !m.is_drop() {
            return None;
        }
        let rules = &self.game.info.drops[self.turn.index()];
        let rule = rules.get(usize::from(m.choice).checked_sub(1)?)?;
        Some(usize::from(rule.kind))
    }

    /// Plays a legal move in place.
    pub fn play_move(&mut self, m: Move) {
        if m.is_drop() {
            if let (Some(to), Some(kind)) = (self.bit(m.to), self.dropped_kind(m)) {
                if self.board[to] == 0 && self.hands[self.turn.index()][kind] > 0 {
                    self.drop_piece(usize::from(m.choice) - 1, to);
                }
            }
            return;
        }
        if let (Some(from), Some(to)) = (self.bit(m.from), self.bit(m.to)) {
            if self.board[from] != 0 {
                self.apply(from, to, Some(m.choice));
            }
        }
    }

    /// Is `m` one of the legal moves (history aside)?
    pub(crate) fn is_legal(&self, m: Move) -> bool {
        let mut list = Moves::new();
        self.generate(&mut list);
        list.contains(&m)
    }

    /// Would `m` make the royal pieces face each other and change (the `~` of PMN)?
    pub(crate) fn transforms(&self, m: Move) -> bool {
        if !matches!(self.game.info.manifest.royal.facing, Facing::Transform(_)) {
            return false;
        }
        let mut after = self.clone();
        after.play_move(m);
        let before: Vec<Option<usize>> = Side::BOTH
            .iter()
            .map(|&s| self.royal_square(s).and_then(|q| self.kind_at(q)))
            .collect();
        let now: Vec<Option<usize>> = Side::BOTH
            .iter()
            .map(|&s| after.royal_square(s).and_then(|q| after.kind_at(q)))
            .collect();
        // The mover's own royal piece may have moved: compare the kinds only.
        before
            .iter()
            .zip(&now)
            .any(|(b, n)| b.is_some() && n.is_some() && b != n)
    }
}

/// The test a pseudo-legal move of the side to move needs under the checkmate rule.
enum Legality<B> {
    /// None: the game is won by capture, or the side has no royal piece.
    Free,
    /// Only moves that touch one of these squares (the royal piece's own, and those that
    /// decide whether anything reaches it) are played out and tested.
    Guarded(B),
    /// Every move is played out and tested (the side is in check, or royal pieces change).
    Every,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load_dir, RulesHandle};
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// The legal moves by the exhaustive test: every pseudo-legal move played out.
    fn every_move_tested<B: Bits>(p: &Position<B>) -> Vec<Move> {
        let checkmate = p.game.info.manifest.royal.rule == RoyalRule::Checkmate;
        let mut out = Vec::new();
        p.pseudo(p.turn, |from, to| {
            if !checkmate || p.safe_after(from, to) {
                p.expand(from, to, |m| out.push(m));
            }
        });
        out
    }

    fn random_games<B: Bits>(game: &'static Compiled<B>, seed: u64) -> usize {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut positions = 0;
        for _ in 0..30 {
            let mut p = Position::start(game);
            for _ in 0..200 {
                let mut fast = Moves::new();
                p.generate(&mut fast);
                let fast: Vec<Move> = fast.iter().copied().collect();
                assert_eq!(
                    fast,
                    every_move_tested(&p),
                    "{}: {}",
                    game.info.manifest.name,
                    p.to_feen()
                );
                assert_eq!(p.count(), fast.len() as u64);
                positions += 1;
                if fast.is_empty() || !p.both_royals() {
                    break;
                }
                p.play_move(fast[rng.gen_range(0..fast.len())]);
            }
        }
        positions
    }

    /// The guarded legality test (only moves near the royal piece played out) gives the
    /// moves that playing out every move gives, in every shipped game.
    #[test]
    fn guarded_legality_equals_playing_every_move_out() {
        let games = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games");
        for name in [
            "xiangqi",
            "minixiangqi",
            "manchu",
            "shatranj",
            "makruk",
            "xiongqi",
        ] {
            let handle = load_dir(format!("{games}/{name}")).expect(name);
            let positions = match handle {
                RulesHandle::Narrow(g) => random_games(g, 1),
                RulesHandle::Broad(g) => random_games(g, 1),
                RulesHandle::Wide(g) => random_games(g, 1),
            };
            assert!(positions > 300, "{name}: {positions} positions");
        }
    }
}
