//! One face for every game: the [`GamePosition`] trait that the front ends (engine search,
//! Python environments, the server, game records) are generic over, and [`GameKind`], the
//! one registry that maps a game's name to its implementation.
//!
//! Adding a game means implementing [`GamePosition`] (with [`GameSquare`] and [`GameMove`])
//! and naming it in [`GameKind`]; nothing else.
//!
//! ```
//! use chuhe::{GameKind, GamePosition, GameVisitor, MoveNotation};
//!
//! /// Generic code: the first legal move of the start position, as PMN.
//! struct FirstMove;
//! impl GameVisitor for FirstMove {
//!     type Output = String;
//!     fn visit<P: GamePosition>(self, config: P::Config) -> String {
//!         let pos = P::start(config);
//!         let mut moves = pos.legal_moves();
//!         moves.sort();
//!         pos.move_to_text(moves[0], MoveNotation::Pmn).unwrap()
//!     }
//! }
//! let kind: GameKind = "xiangqi".parse().unwrap();
//! assert_eq!(kind.visit(FirstMove), "a1-a2");
//! assert_eq!(GameKind::Xiongqi.visit(FirstMove), "a1-a2");
//! ```

use std::fmt;
use std::hash::Hash;
use std::ops::{Deref, DerefMut};
use std::str::FromStr;

use chuhe_notation::Side;

use crate::board::{BoardGeometry, BoardText};
use crate::game::History;
use crate::svg::SvgBoard;
use crate::{MoveError, MoveList, Outcome, SetupError};

/// A square of a game's board.
pub trait GameSquare:
    Copy + Eq + Ord + Hash + fmt::Debug + fmt::Display + FromStr + Send + Sync + 'static
{
    /// The board's width.
    const FILES: u8;
    /// The board's height.
    const RANKS: u8;
    /// `FILES × RANKS`.
    const COUNT: usize = Self::FILES as usize * Self::RANKS as usize;
    /// The board's squares for messages: `a1–h8`.
    const RANGE: &'static str;

    /// Index `rank × FILES + file`, in `0..COUNT`.
    fn index(self) -> usize;
    /// The square with this index, if on the board.
    fn from_index(index: usize) -> Option<Self>;
    /// File from 0 (`a`).
    fn file(self) -> u8;
    /// Rank from 0 (the first player's back rank).
    fn rank(self) -> u8;
    /// The square at `(file, rank)`, if on the board.
    fn from_coords(file: u8, rank: u8) -> Option<Self> {
        if file < Self::FILES && rank < Self::RANKS {
            Self::from_index(rank as usize * Self::FILES as usize + file as usize)
        } else {
            None
        }
    }
}

/// A move of a game: origin, destination and, for some games, a choice (Xiongqi's promotion).
///
/// `Display` writes the coordinate form (`e3e4`, `e7e8e`, Xiangqi `b3b10`), and `FromStr` reads
/// it back without a position (syntax only; use [`GamePosition::parse_move_as`] for a legal move).
pub trait GameMove:
    Copy + Eq + Ord + Hash + Default + fmt::Debug + fmt::Display + FromStr + Send + Sync + 'static
{
    /// The game's square type.
    type Square: GameSquare;

    /// Origin.
    fn from(self) -> Self::Square;
    /// Destination.
    fn to(self) -> Self::Square;
    /// A compact, stable 16-bit encoding (for transposition tables and action spaces).
    fn bits(self) -> u16;
    /// The move with this encoding, if well formed (not necessarily legal anywhere).
    fn from_bits(bits: u16) -> Option<Self>;

    /// How many moves can join the same two squares: 1, or 7 for Xiongqi (the plain move,
    /// then each promotion choice of X2). Fixed action spaces are `from × to × CHOICES`.
    const CHOICES: usize = 1;
    /// This move's choice, in `0..CHOICES` (0: the plain move).
    fn choice(self) -> usize {
        0
    }
    /// The move from `from` to `to` with `choice`, if `choice < CHOICES` (not necessarily
    /// legal anywhere); none from a square to itself, but a drop from the hand in a game read
    /// from rule files (its choice is its drop rule, from 1).
    fn with_choice(from: Self::Square, to: Self::Square, choice: usize) -> Option<Self>;
}

/// A list of moves that generation appends to: [`MoveList`] for both games.
pub trait MoveBuffer<M>: Default + Clone + fmt::Debug + Deref<Target = [M]> + DerefMut {
    /// Appends a move.
    fn push(&mut self, m: M);
    /// Empties the list.
    fn clear(&mut self);
    /// Keeps only the moves for which `keep` is true, in order.
    fn retain(&mut self, keep: impl FnMut(M) -> bool);
}

impl<M: Copy + Default + fmt::Debug, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline(always)]
    fn push(&mut self, m: M) {
        MoveList::push(self, m)
    }
    #[inline(always)]
    fn clear(&mut self) {
        MoveList::clear(self)
    }
    fn retain(&mut self, keep: impl FnMut(M) -> bool) {
        MoveList::retain(self, keep)
    }
}

/// The ways of writing a move, across all games. Each game writes some of them
/// ([`GamePosition::notations`]); asking for another is a typed error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum MoveNotation {
    /// Sashité PMN: `e3-e4`, `e4+e5`, `e7-e8=E`, `e4~a4`; Xiangqi `h3-e3`, `b3+b10`.
    Pmn,
    /// Coordinates, ranks from 1 (Fairy-Stockfish's UCI): `e3e4`, `e7e8e`, `b3b10`.
    Uci,
    /// Xiangqi ICCS / UCCI coordinates, ranks from 0: `h2e2`.
    Iccs,
    /// Xiangqi WXF: `C2=5`, `H8+7`.
    Wxf,
    /// Xiangqi's teaching notation (ranks 1–9, `0` for the tenth): `h1g3`.
    Teaching,
    /// Xiangqi's Chinese notation: `炮二平五`, `马8进7`, `前车进一`.
    Chinese,
    /// Xiangqi SAN as Fairy-Stockfish and pychess.org's PGN write it: `Che3`, `Hg8`, `Cxb10`.
    San,
}

impl MoveNotation {
    /// Every notation.
    pub const ALL: [MoveNotation; 7] = [
        MoveNotation::Pmn,
        MoveNotation::Uci,
        MoveNotation::Iccs,
        MoveNotation::Wxf,
        MoveNotation::Teaching,
        MoveNotation::Chinese,
        MoveNotation::San,
    ];

    /// The name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Pmn => "pmn",
            MoveNotation::Uci => "uci",
            MoveNotation::Iccs => "iccs",
            MoveNotation::Wxf => "wxf",
            MoveNotation::Teaching => "teaching",
            MoveNotation::Chinese => "chinese",
            MoveNotation::San => "san",
        }
    }
}

impl fmt::Display for MoveNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown move notation '{0}' (pmn, uci, iccs, wxf, teaching, chinese, san)")]
pub struct UnknownNotation(pub String);

impl FromStr for MoveNotation {
    type Err = UnknownNotation;
    fn from_str(s: &str) -> Result<Self, UnknownNotation> {
        MoveNotation::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| UnknownNotation(chuhe_notation::error::shorten(s).into_owned()))
    }
}

/// How a whole position is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum PositionFormat {
    /// Sashité FEEN: every game.
    Feen,
    /// The standard FEN: Xiangqi only.
    Fen,
}

impl PositionFormat {
    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            PositionFormat::Feen => "feen",
            PositionFormat::Fen => "fen",
        }
    }
}

/// A rule option that a game does not have, or a value it does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game}: {message}")]
pub struct RuleOptionError {
    /// The game's name.
    pub game: &'static str,
    /// What is wrong.
    pub message: String,
}

/// A position of one game, with everything the front ends need, and the hooks by which the
/// shared arbiter ([`crate::Game`]) and perft ([`crate::perft`]) apply the game's rules.
///
/// A position is valid by construction: it comes from [`GamePosition::start`],
/// [`GamePosition::from_text`] (validated) or from playing legal moves.
///
/// ```
/// use chuhe::{xiangqi, xiongqi, GamePosition, MoveNotation, PositionFormat};
/// fn after_first_move<P: GamePosition>(pos: &P) -> String {
///     let moves = pos.legal_moves();
///     pos.play(moves[0]).unwrap().to_feen()
/// }
/// let x = xiongqi::Position::start();
/// assert!(after_first_move(&x).ends_with("/ x/X"));
/// let q = xiangqi::Position::start();
/// assert_eq!(q.to_text(PositionFormat::Fen).unwrap(), xiangqi::START_FEN);
/// assert!(x.to_text(PositionFormat::Fen).is_err());
/// assert!(x.move_to_text(x.legal_moves()[0], MoveNotation::Wxf).is_err());
/// ```
pub trait GamePosition: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's squares.
    type Square: GameSquare;
    /// The game's moves.
    type Move: GameMove<Square = Self::Square>;
    /// A move list sized for any valid position of the game.
    type Moves: MoveBuffer<Self::Move> + Send + Sync;
    /// The rule set chosen when the game is named (`()` for Xiongqi; standard or capture
    /// rules for Xiangqi): what [`GameKind::visit`] passes.
    type Config: Copy + Eq + fmt::Debug + Send + Sync + 'static;
    /// State kept along a perft path for history-dependent legality (Xiongqi's X6).
    type PerftPath;

    // ----- identity and setup -----------------------------------------------------------

    /// The registry entry of this position's game and rule set.
    fn kind(&self) -> GameKind;
    /// The rule set of this position.
    fn config(&self) -> Self::Config;
    /// The rule set of a registry entry, if this type plays that game.
    fn config_for(kind: GameKind) -> Option<Self::Config>;
    /// The start position.
    fn start(config: Self::Config) -> Self;
    /// Reads a position: the keyword `start`, a FEEN, or another format the game has (a
    /// Xiangqi FEN), validated.
    fn from_text(text: &str, config: Self::Config) -> Result<Self, SetupError>;
    /// The position as FEEN (every game can write it; it always reads back).
    fn to_feen(&self) -> String;
    /// The formats this game writes, FEEN first.
    fn position_formats() -> &'static [PositionFormat];
    /// The position in `format`, or a typed error when the game has no such format.
    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat>;
    /// The half-move clock (plies since the last capture, as the game counts them).
    fn halfmove(&self) -> u32;
    /// Sets the half-move clock (a FEEN holds none).
    fn set_halfmove(&mut self, halfmove: u32);
    /// Sets how many occurrences of a position end the game by repetition. Only games with
    /// such a rule (Xiangqi's S3) accept it; the count is at least 2.
    fn set_repetition_fold(&mut self, fold: u8) -> Result<(), RuleOptionError> {
        let _ = fold;
        Err(RuleOptionError {
            game: self.kind().name(),
            message: "this game has no repetition count to set".into(),
        })
    }

    // ----- state ------------------------------------------------------------------------

    /// The side to move.
    fn turn(&self) -> Side;
    /// Is the side to move in check? (Reported only in Xiongqi, where check constrains nothing.)
    fn is_check(&self) -> bool;
    /// The outcome decided by this position alone, without history, in the game's order.
    fn outcome(&self) -> Option<Outcome>;
    /// The Zobrist hash of the position's identity: the placement (every piece on every
    /// square) and the side to move. Hands and clocks are not covered: two positions with
    /// the same hash and [`GamePosition::same_identity`] repeat each other.
    fn zobrist_hash(&self) -> u64;
    /// Same placement and side to move (the repetition identity)?
    fn same_identity(&self, other: &Self) -> bool;
    /// The piece on `square` as drawn: its Latin text (PIN, or FEN letter for Xiangqi) and its
    /// Chinese character.
    fn piece_glyphs(&self, square: Self::Square) -> Option<(String, char)>;
    /// The river and palaces, for drawing the board.
    fn geometry() -> BoardGeometry;
    /// This position's board drawing: [`GamePosition::geometry`], except for games read from
    /// rule files, whose boards differ by game.
    fn board_geometry(&self) -> BoardGeometry {
        Self::geometry()
    }
    /// This position's board size (files, ranks): the square type's, except for games read
    /// from rule files (up to 12 × 12 in one square type).
    fn board_size(&self) -> (u8, u8) {
        (Self::Square::FILES, Self::Square::RANKS)
    }
    /// The square of `side`'s terminal piece (the general), when it is on the board.
    fn terminal_square(&self, side: Side) -> Option<Self::Square>;
    /// The names of the game's piece roles, in index order (observation planes use one
    /// plane per role and side).
    const ROLES: &'static [&'static str];
    /// How many of [`GamePosition::ROLES`] this position's game uses: all of them, except for
    /// games read from rule files (their own pieces, up to 16, in one position type).
    fn role_count(&self) -> usize {
        Self::ROLES.len()
    }
    /// How many choices this position's game gives a move between two squares (see
    /// [`GameMove::CHOICES`]): all of them, except for games read from rule files (1 plus
    /// their largest promotion's pieces, up to 13, in one move type).
    fn move_choices(&self) -> usize {
        <Self::Move as GameMove>::CHOICES
    }
    /// Does the game drop pieces from the hands (a game read from rule files with drops)? Its
    /// observation then has hand planes.
    fn drops_from_hands(&self) -> bool {
        false
    }
    /// How many pieces of `role` `side` holds to drop (0 in games without drops).
    fn held(&self, _side: Side, _role: usize) -> u32 {
        0
    }
    /// The piece on `square`: its owner and its role's index in [`GamePosition::ROLES`].
    fn piece_role(&self, square: Self::Square) -> Option<(Side, usize)>;
    /// Calls `visit` with every occupied square (ascending), its piece's owner and role index,
    /// as [`GamePosition::piece_role`] gives them; the games override it to walk their
    /// occupied squares only.
    fn for_each_piece(&self, mut visit: impl FnMut(Self::Square, Side, usize)) {
        for i in 0..Self::Square::COUNT {
            if let Some(sq) = Self::Square::from_index(i) {
                if let Some((side, role)) = self.piece_role(sq) {
                    visit(sq, side, role);
                }
            }
        }
    }

    // ----- moves ------------------------------------------------------------------------

    /// Appends the legal moves (history aside) to `out`; none when [`GamePosition::outcome`]
    /// is decided by the position before moving.
    fn legal_moves_into(&self, out: &mut Self::Moves);
    /// Appends the moves the pieces may make here even when the position alone has ended
    /// the game (a move limit reached, too little material left), history aside: what an
    /// engine plays when a GUI sends such a position. None when a side has lost its general
    /// (nothing is left to play for) or when the side to move has no move at all.
    ///
    /// The default is [`GamePosition::legal_moves_into`], for games whose positions never
    /// end the game before moving.
    fn moves_past_end_into(&self, out: &mut Self::Moves) {
        self.legal_moves_into(out);
    }
    /// Does `m` capture?
    fn is_capture(&self, m: Self::Move) -> bool;
    /// `Ok` when `m` is legal here (history aside), else why not.
    fn check_move(&self, m: Self::Move) -> Result<(), MoveError>;
    /// Plays a legal move in place (copy-make search calls this on a clone).
    fn play_unchecked(&mut self, m: Self::Move);

    /// The notations this game writes, its default (PMN) first.
    fn notations() -> &'static [MoveNotation];
    /// `m` written in `notation`, or [`MoveError::UnsupportedNotation`].
    fn move_to_text(&self, m: Self::Move, notation: MoveNotation) -> Result<String, MoveError>;
    /// Reads a move written in `notation` and checks it is legal here (history aside).
    fn parse_move_as(&self, text: &str, notation: MoveNotation) -> Result<Self::Move, MoveError>;

    // ----- provided ---------------------------------------------------------------------

    /// The name of the game and rule set (`xiongqi`, `xiangqi`, `xiangqi-capture`).
    fn game_name(&self) -> &'static str {
        self.kind().name()
    }

    /// The legal moves (history aside).
    fn legal_moves(&self) -> Self::Moves {
        let mut list = Self::Moves::default();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal moves from `square`.
    fn moves_from(&self, square: Self::Square) -> Self::Moves {
        let mut list = self.legal_moves();
        list.retain(|m| m.from() == square);
        list
    }

    /// The legal moves to `square`.
    fn moves_to(&self, square: Self::Square) -> Self::Moves {
        let mut list = self.legal_moves();
        list.retain(|m| m.to() == square);
        list
    }

    /// The position after a legal move, this one untouched.
    fn play(&self, m: Self::Move) -> Result<Self, MoveError> {
        self.check_move(m)?;
        let mut after = self.clone();
        after.play_unchecked(m);
        Ok(after)
    }

    /// Reads a move in the game's default notation (PMN; coordinates are accepted too).
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.parse_move_as(text, MoveNotation::Pmn)
    }

    /// The board as text, in Latin letters; see [`BoardText`] for Chinese characters.
    fn board(&self) -> BoardText<'_, Self> {
        BoardText::new(self)
    }

    /// The board as an SVG picture; see [`SvgBoard`] for the options.
    fn svg(&self) -> SvgBoard<'_, Self> {
        SvgBoard::new(self)
    }

    /// Perft: the number of legal move paths of `depth` plies from this position (no
    /// history). See [`crate::perft`] for perft from a game with its history.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_with_path(
            self,
            depth,
            &mut Self::perft_path_from(&History::new(self.clone())),
        )
    }

    // ----- hooks for the arbiter ([`crate::Game`]) --------------------------------------

    /// The result of the game at the last position of `history`, in the game's order,
    /// given whether the side to move has a legal move (history included).
    fn game_outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome>;

    /// Is `m` forbidden by the history (Xiongqi X6)? Such a move may still be played by a
    /// game record: it then ends the game as `repetition`, its player losing.
    fn is_forbidden_by_history(_history: &History<Self>, _m: Self::Move) -> bool {
        false
    }

    /// Removes from `moves`, the legal moves of the last position of `history` (and nothing
    /// else), those the history forbids: the same as keeping each move for which
    /// [`GamePosition::is_forbidden_by_history`] is false. A game may do it faster, looking
    /// at the history once for all the moves.
    fn retain_allowed_by_history(history: &History<Self>, moves: &mut Self::Moves) {
        moves.retain(|m| !Self::is_forbidden_by_history(history, m));
    }

    // ----- hooks for perft ([`crate::perft`]) -------------------------------------------

    /// Does a finished game (by any rule, history included) have no children? True for
    /// Xiongqi (X9); false for Xiangqi, whose perft counts legal moves only, as
    /// Fairy-Stockfish and the published tables do.
    const PERFT_STOPS_AT_GAME_END: bool;
    /// [`GamePosition::PERFT_STOPS_AT_GAME_END`] for this position's game (games read from
    /// rule files say it in their manifest).
    fn perft_stops_at_game_end(&self) -> bool {
        Self::PERFT_STOPS_AT_GAME_END
    }
    /// The path state for a game's history.
    fn perft_path_from(history: &History<Self>) -> Self::PerftPath;
    /// Does this node have no children because the game is over (X9; `xiangqi-capture`'s
    /// captured general)? Positions with no legal move need not say so.
    fn perft_over(&self) -> bool;
    /// The moves allowed here by the position alone, for perft.
    fn perft_moves(&self) -> Self::Moves;
    /// Their number, without listing them (bulk counting).
    fn perft_count(&self) -> u64;
    /// Moves the path forbids here (appended to `out`).
    fn perft_excluded(&self, _path: &Self::PerftPath, _out: &mut Vec<Self::Move>) {}
    /// Records `m` (played here, giving `child`) on the path.
    fn perft_path_push(&self, _path: &mut Self::PerftPath, _m: Self::Move, _child: &Self) {}
    /// Forgets the last recorded move.
    fn perft_path_pop(_path: &mut Self::PerftPath) {}
}

/// A position format the game does not write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no {format}; use feen")]
pub struct UnsupportedFormat {
    /// The game's name.
    pub game: &'static str,
    /// The format asked for.
    pub format: &'static str,
}

/// The games chuhe knows, by name: the one place that maps a name to its implementation.
/// The three native games are closed variants; a game read from rule files at run time is
/// [`GameKind::Rules`], carrying its compiled tables ([`crate::rules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// `xiongqi`: Xiongqi (熊棋), 8×8.
    Xiongqi,
    /// `xiangqi`: Xiangqi (象棋), 9×10, standard rules as Fairy-Stockfish plays them.
    Xiangqi,
    /// `xiangqi-capture`: Xiangqi with the capture-the-king teaching rules.
    XiangqiCapture,
    /// A game read from a directory of rule files (GGN, FEEN, manifest), by its manifest's
    /// name.
    Rules(crate::rules::RulesHandle),
}

/// Written as its name; only the native games are read back by name (a game read from rule
/// files needs its directory).
#[cfg(feature = "serde")]
impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Code generic over [`GamePosition`], run for a game chosen at run time by
/// [`GameKind::visit`].
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the game's position type and rule set.
    fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output;
}

impl GameKind {
    /// Every game, in registry order.
    pub const ALL: [GameKind; 3] = [
        GameKind::Xiongqi,
        GameKind::Xiangqi,
        GameKind::XiangqiCapture,
    ];

    /// The name (`xiongqi`, `xiangqi`, `xiangqi-capture`, or a rules game's own).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Xiongqi => "xiongqi",
            GameKind::Xiangqi => "xiangqi",
            GameKind::XiangqiCapture => "xiangqi-capture",
            GameKind::Rules(handle) => handle.name(),
        }
    }

    /// The notations this game writes, its default first.
    pub fn notations(self) -> &'static [MoveNotation] {
        struct Notations;
        impl GameVisitor for Notations {
            type Output = &'static [MoveNotation];
            fn visit<P: GamePosition>(self, _: P::Config) -> &'static [MoveNotation] {
                P::notations()
            }
        }
        self.visit(Notations)
    }

    /// Runs `visitor` with this game's position type and rule set.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        use crate::{xiangqi, xiongqi};
        match self {
            GameKind::Xiongqi => visitor.visit::<xiongqi::Position>(()),
            GameKind::Xiangqi => visitor.visit::<xiangqi::Position>(xiangqi::RuleSet::Standard),
            GameKind::XiangqiCapture => {
                visitor.visit::<xiangqi::Position>(xiangqi::RuleSet::Capture)
            }
            GameKind::Rules(handle) => {
                use crate::rules::{Position, RulesConfig, RulesHandle};
                match handle {
                    RulesHandle::Narrow(c) => visitor.visit::<Position<u64>>(RulesConfig(c)),
                    RulesHandle::Broad(c) => visitor.visit::<Position<u128>>(RulesConfig(c)),
                    RulesHandle::Wide(c) => {
                        visitor.visit::<Position<crate::rules::Wide>>(RulesConfig(c))
                    }
                }
            }
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (xiongqi, xiangqi, xiangqi-capture)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGame(chuhe_notation::error::shorten(s).into_owned()))
    }
}

/// Splits the coordinate form `e3e4` / `e7e8e` / `b3b10` into origin, destination and an
/// optional trailing letter (Xiongqi's promotion).
pub(crate) fn split_coordinates(text: &str) -> Option<(&str, &str, Option<char>)> {
    let b = text.as_bytes();
    let cell_end = |start: usize| -> Option<usize> {
        let mut i = start;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let d = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > d).then_some(i)
    };
    let first = cell_end(0)?;
    let second = cell_end(first)?;
    match &b[second..] {
        [] => Some((&text[..first], &text[first..second], None)),
        [c] if c.is_ascii_alphabetic() => {
            Some((&text[..first], &text[first..second], Some(*c as char)))
        }
        _ => None,
    }
}

/// Reads a CELL square (`e4`, `b10`) of `S`'s board; `text` is the whole input, for messages.
pub(crate) fn parse_square<S: GameSquare>(cell_text: &str, text: &str) -> Result<S, MoveError> {
    let cell = chuhe_notation::Cell::parse(cell_text).map_err(|e| MoveError::Syntax {
        text: chuhe_notation::error::shorten(text).into_owned(),
        reason: e.to_string(),
    })?;
    u8::try_from(cell.file())
        .ok()
        .zip(u8::try_from(cell.rank()).ok())
        .and_then(|(file, rank)| S::from_coords(file, rank))
        .ok_or(MoveError::UnknownSquare {
            square: chuhe_notation::error::shorten(&cell.to_string()).into_owned(),
            board: S::RANGE,
        })
}

/// Implements [`GameSquare`] and `FromStr` (CELL) for a game's square type from its inherent
/// `index`, `new`, `file` and `rank`.
macro_rules! impl_game_square {
    ($square:ty, files: $files:expr, ranks: $ranks:expr, range: $range:expr) => {
        impl $crate::variant::GameSquare for $square {
            const FILES: u8 = $files;
            const RANKS: u8 = $ranks;
            const RANGE: &'static str = $range;
            #[inline(always)]
            fn index(self) -> usize {
                <$square>::index(self)
            }
            #[inline]
            fn from_index(index: usize) -> Option<Self> {
                u8::try_from(index).ok().and_then(<$square>::new)
            }
            #[inline(always)]
            fn file(self) -> u8 {
                <$square>::file(self)
            }
            #[inline(always)]
            fn rank(self) -> u8 {
                <$square>::rank(self)
            }
        }

        /// Reads a CELL coordinate: `e4`.
        impl std::str::FromStr for $square {
            type Err = $crate::MoveError;
            fn from_str(s: &str) -> Result<Self, $crate::MoveError> {
                $crate::variant::parse_square(s, s)
            }
        }
    };
}
pub(crate) use impl_game_square;
