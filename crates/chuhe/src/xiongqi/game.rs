//! Xiongqi's rules for the shared arbiter: repetition (X6) and the end of the game (X7).

use chuhe_notation::{Side, Status};

use super::bitboard::Square;
use super::perft::{self, PathEntry};
use super::position::Position;
use super::types::{Move, MoveList};
use crate::board::BoardGeometry;
use crate::game::History;
use crate::variant::{GameKind, GamePosition, MoveNotation, PositionFormat, RuleOptionError};
use crate::{MoveError, Outcome, SetupError, UnsupportedFormat};

/// A Xiongqi game: the shared arbiter with Xiongqi's rules.
///
/// ```
/// use chuhe::xiongqi::Game;
/// use chuhe::Status;
/// let mut game = Game::new();
/// for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] {
///     game.play_text(m).unwrap();
/// }
/// // Playing a1-a2 again would repeat the move that led to the same position (X6).
/// let again = game.position().parse_move("a1-a2").unwrap();
/// assert!(game.is_repetitive(again));
/// assert!(!game.legal_moves().contains(&again));
/// game.play(again).unwrap(); // a record may still play it: its player loses
/// assert_eq!(game.outcome().unwrap().status, Status::Repetition);
/// ```
pub type Game = crate::Game<Position>;

impl crate::Game<Position> {
    /// A game from the start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a FEEN (no history, clock 0: X8).
    pub fn from_feen(text: &str) -> Result<Game, SetupError> {
        Ok(Game::from_position(Position::from_feen(text)?))
    }
}

impl Default for crate::Game<Position> {
    fn default() -> Self {
        Game::new()
    }
}

/// The X6 identity of a move: the moving piece (before moving), origin, destination, promotion.
#[inline]
pub(crate) fn move_key(pos: &Position, m: Move) -> u32 {
    let piece = pos.board[m.from().index()] as u32;
    (piece << 16) | m.bits() as u32
}

impl GamePosition for Position {
    type Square = Square;
    type Move = Move;
    type Moves = MoveList;
    type Config = ();
    type PerftPath = Vec<PathEntry>;

    fn kind(&self) -> GameKind {
        GameKind::Xiongqi
    }

    fn config(&self) {}

    fn config_for(kind: GameKind) -> Option<()> {
        (kind == GameKind::Xiongqi).then_some(())
    }

    fn start((): ()) -> Position {
        Position::start()
    }

    /// `start` or a FEEN (Xiongqi has no FEN).
    fn from_text(text: &str, (): ()) -> Result<Position, SetupError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Position::start());
        }
        if crate::text::is_keyword_like(text) {
            return Err(SetupError::UnknownKeyword {
                word: chuhe_notation::error::shorten(text).into_owned(),
                formats: "FEEN",
            });
        }
        Position::from_feen(text)
    }

    fn to_feen(&self) -> String {
        Position::to_feen(self)
    }

    fn position_formats() -> &'static [PositionFormat] {
        &[PositionFormat::Feen]
    }

    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat> {
        match format {
            PositionFormat::Feen => Ok(self.to_feen()),
            PositionFormat::Fen => Err(UnsupportedFormat {
                game: "xiongqi",
                format: "fen",
            }),
        }
    }

    fn halfmove(&self) -> u32 {
        Position::halfmove(self)
    }

    fn set_halfmove(&mut self, halfmove: u32) {
        Position::set_halfmove(self, halfmove)
    }

    fn set_repetition_fold(&mut self, _fold: u8) -> Result<(), RuleOptionError> {
        Err(RuleOptionError {
            game: "xiongqi",
            message: "Xiongqi has no repetition count: a move that repeats an earlier \
                      (move, position) pair is forbidden (X6)"
                .into(),
        })
    }

    #[inline]
    fn turn(&self) -> Side {
        self.turn
    }

    #[inline]
    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    #[inline]
    fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    fn same_identity(&self, other: &Self) -> bool {
        Position::same_identity(self, other)
    }

    fn piece_glyphs(&self, square: Square) -> Option<(String, char)> {
        self.piece_at(square).map(|p| (p.to_string(), p.chinese()))
    }

    fn terminal_square(&self, side: Side) -> Option<Square> {
        self.terminal(side)
    }

    /// `Role::ALL` in order.
    const ROLES: &'static [&'static str] = &[
        "general",
        "dragon",
        "advisor",
        "bear",
        "chariot",
        "cannon",
        "horse",
        "empress",
        "soldier",
        "crossed-soldier",
    ];

    fn piece_role(&self, square: Square) -> Option<(Side, usize)> {
        self.piece_at(square).map(|p| (p.side, p.role as usize))
    }

    #[inline]
    fn for_each_piece(&self, mut visit: impl FnMut(Square, Side, usize)) {
        for sq in super::bitboard::squares(self.occupied()) {
            let p = super::Piece::from_index(self.board[sq.index()] as usize);
            visit(sq, p.side, p.role as usize);
        }
    }

    fn geometry() -> BoardGeometry {
        BoardGeometry {
            river_below_rank: 4,
            palaces: false,
            points: false,
        }
    }

    #[inline]
    fn legal_moves_into(&self, out: &mut MoveList) {
        if !self.is_over_before_moving() {
            self.generate_moves(out);
        }
    }

    fn moves_past_end_into(&self, out: &mut MoveList) {
        if self.terminal(Side::First).is_some() && self.terminal(Side::Second).is_some() {
            self.generate_moves(out);
        }
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        Position::is_capture(self, m)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if let Some(outcome) = self.static_outcome() {
            return Err(MoveError::GameOver { outcome });
        }
        self.check_movement(m)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m)
    }

    fn notations() -> &'static [MoveNotation] {
        &[MoveNotation::Pmn, MoveNotation::Uci]
    }

    fn move_to_text(&self, m: Move, notation: MoveNotation) -> Result<String, MoveError> {
        match notation {
            MoveNotation::Pmn => Ok(self.to_pmn(m)),
            MoveNotation::Uci => Ok(m.to_string()),
            other => Err(MoveError::UnsupportedNotation {
                game: "xiongqi",
                notation: other,
            }),
        }
    }

    /// PMN (coordinates accepted too) or the coordinate form.
    fn parse_move_as(&self, text: &str, notation: MoveNotation) -> Result<Move, MoveError> {
        match notation {
            MoveNotation::Pmn | MoveNotation::Uci => Position::parse_move(self, text),
            other => Err(MoveError::UnsupportedNotation {
                game: "xiongqi",
                notation: other,
            }),
        }
    }

    /// X7 in order: mareking, insufficient, stalemate (repetitive moves do not count), movelimit.
    fn game_outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome> {
        let pos = history.current();
        if let Some(o) = pos.static_outcome() {
            return Some(o);
        }
        (!has_legal_move).then(|| Outcome::win(Status::Stalemate, !pos.turn))
    }

    /// X6: the same move (piece, origin, destination, promotion) leading to the same position
    /// (placement and side to move) as an earlier entry of the history.
    fn is_forbidden_by_history(history: &History<Self>, m: Move) -> bool {
        let pos = history.current();
        // A repetitive move never captures: pieces never come back to the board.
        if history.moves().is_empty() || pos.is_capture(m) {
            return false;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let key = move_key(pos, m);
        let positions = history.positions();
        let moves = history.moves();
        let repeated = history
            .occurrences(&after)
            .any(|i| i > 0 && move_key(&positions[i - 1], moves[i - 1]) == key);
        repeated
    }

    /// X6 for all the moves at once: only a move played before by the side to move, from
    /// the same piece on the same square, can repeat a (move, position) pair, and only one
    /// played since the last capture (pieces never come back, so no earlier position can
    /// recur). Those few are played and compared; the rest are kept without playing them.
    fn retain_allowed_by_history(history: &History<Self>, moves: &mut MoveList) {
        let pos = history.current();
        let positions = history.positions();
        let played = history.moves();
        let mut forbidden = MoveList::new();
        // `played[i]` led from `positions[i]` to `positions[i + 1]`; those of the side to
        // move are every other one, counting back from the last but one.
        for (back, i) in (0..played.len()).rev().enumerate() {
            let (before, m) = (&positions[i], played[i]);
            if back % 2 == 1
                && before.board[m.from().index()] == pos.board[m.from().index()]
                && moves.contains(&m)
                && !forbidden.contains(&m)
            {
                let mut after = pos.clone();
                after.play_unchecked(m);
                if after.same_identity(&positions[i + 1]) {
                    forbidden.push(m);
                }
            }
            if before.is_capture(m) {
                break;
            }
        }
        if !forbidden.is_empty() {
            moves.retain(|m| !forbidden.contains(&m));
        }
    }

    const PERFT_STOPS_AT_GAME_END: bool = true;

    fn perft_path_from(history: &History<Self>) -> Vec<PathEntry> {
        perft::path_from(history)
    }

    #[inline]
    fn perft_over(&self) -> bool {
        self.is_over_before_moving()
    }

    #[inline]
    fn perft_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    #[inline]
    fn perft_count(&self) -> u64 {
        self.count_moves()
    }

    fn perft_excluded(&self, path: &Vec<PathEntry>, out: &mut Vec<Move>) {
        perft::excluded_moves(self, path, out)
    }

    #[inline]
    fn perft_path_push(&self, path: &mut Vec<PathEntry>, m: Move, child: &Self) {
        path.push(PathEntry::new(self, m, child));
    }

    #[inline]
    fn perft_path_pop(path: &mut Vec<PathEntry>) {
        path.pop();
    }
}
