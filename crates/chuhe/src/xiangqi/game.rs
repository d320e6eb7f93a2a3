//! Xiangqi's rules for the shared arbiter: checkmate and stalemate (S2), repetition with
//! perpetual check (S3) and perpetual chase (S6, the chases themselves in `chase`), the
//! 100-ply rule (S4), insufficient material (S5); and the teaching rules' ends (C3, C4).

use chuhe_notation::{Side, Status};

use super::bitboard::Square;
use super::position::Position;
use super::types::{Move, RuleSet};
use super::MoveList;
use crate::board::BoardGeometry;
use crate::game::History;
use crate::variant::{GameKind, GamePosition, MoveNotation, PositionFormat, RuleOptionError};
use crate::{MoveError, Outcome, SetupError, UnsupportedFormat};

/// A Xiangqi game: the shared arbiter with Xiangqi's rules (either rule set).
pub type Game = crate::Game<Position>;

impl crate::Game<Position> {
    /// A standard game from the start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }
}

impl Default for crate::Game<Position> {
    fn default() -> Self {
        Game::new()
    }
}

/// S3 and S6: the outcome when the current position occurs for the `fold`-th time, judged
/// over the moves since the first of those occurrences as pyffish judges them (see
/// [`crate::ends::fold_repetition`]): perpetual check first, then perpetual chase.
pub(crate) fn repetition_outcome(history: &History<Position>) -> Option<Outcome> {
    let fold = history.current().repetition_fold() as usize;
    let chase = |first: usize, last: usize| chase_verdict(history, first, last);
    crate::ends::fold_repetition(history, fold, true, Some(&chase))
}

/// S6 for a repetition cycle from position `first` to `last`: who chased perpetually (the
/// side that made the last move, the other). Games read from rule files with Xiangqi's
/// pieces are judged by it.
pub(crate) fn chase_verdict(
    history: &History<Position>,
    first: usize,
    last: usize,
) -> (bool, bool) {
    (
        chases_perpetually(history, first, last),
        chases_perpetually(history, first, last - 1),
    )
}

/// S6: did the side whose move reached position `to` chase at least one piece with that move
/// and with each of its earlier moves back to the cycle's start? A chased piece is followed
/// back through the victim's moves (a piece that moved is traced to its origin). As in
/// pyffish, the chaser that made the last move is also judged by its move into `first`,
/// unless `first` is the game's start (no move reached it).
fn chases_perpetually(history: &History<Position>, first: usize, to: usize) -> bool {
    let positions = history.positions();
    let moves = history.moves();
    let chased = |t: usize| positions[t].chased_by(&positions[t - 1], moves[t - 1]);
    let mut set = chased(to);
    let mut t = to;
    while set != 0 && t >= first + 2 {
        // Back through the victim's move (position t-2 to t-1), to before the chaser's.
        let reply = moves[t - 2];
        if set & reply.to().bb() != 0 {
            set = (set & !reply.to().bb()) | reply.from().bb();
        }
        t -= 2;
        if t == 0 {
            break;
        }
        set &= chased(t);
    }
    set != 0
}

/// S4 as Fairy-Stockfish applies it, with its allowance for checks
/// ([`crate::ends::move_limit_reached`]).
fn move_limit_reached(history: &History<Position>, checkmated: bool) -> bool {
    crate::ends::move_limit_reached(history, 100, true, checkmated)
}

impl GamePosition for Position {
    type Square = Square;
    type Move = Move;
    type Moves = MoveList;
    type Config = RuleSet;
    type PerftPath = ();

    fn kind(&self) -> GameKind {
        match self.rules() {
            RuleSet::Standard => GameKind::Xiangqi,
            RuleSet::Capture => GameKind::XiangqiCapture,
        }
    }

    fn config(&self) -> RuleSet {
        self.rules()
    }

    fn config_for(kind: GameKind) -> Option<RuleSet> {
        match kind {
            GameKind::Xiangqi => Some(RuleSet::Standard),
            GameKind::XiangqiCapture => Some(RuleSet::Capture),
            GameKind::Xiongqi | GameKind::Rules(_) => None,
        }
    }

    fn start(rules: RuleSet) -> Position {
        Position::start_with(rules)
    }

    /// `start`, a standard FEN or a FEEN.
    fn from_text(text: &str, rules: RuleSet) -> Result<Position, SetupError> {
        Position::from_text(text, rules)
    }

    fn to_feen(&self) -> String {
        Position::to_feen(self)
    }

    fn position_formats() -> &'static [PositionFormat] {
        &[PositionFormat::Feen, PositionFormat::Fen]
    }

    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat> {
        Ok(match format {
            PositionFormat::Feen => self.to_feen(),
            PositionFormat::Fen => self.to_fen(),
        })
    }

    fn halfmove(&self) -> u32 {
        Position::halfmove(self)
    }

    fn set_halfmove(&mut self, halfmove: u32) {
        Position::set_halfmove(self, halfmove)
    }

    fn set_repetition_fold(&mut self, fold: u8) -> Result<(), RuleOptionError> {
        Position::set_repetition_fold(self, fold).map_err(|e| RuleOptionError {
            game: self.rules().name(),
            message: e.to_string(),
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
        self.piece_at(square)
            .map(|p| (p.fen_char().to_string(), p.chinese()))
    }

    fn terminal_square(&self, side: Side) -> Option<Square> {
        self.general(side)
    }

    /// `Role::ALL` in order.
    const ROLES: &'static [&'static str] = &[
        "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
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
            river_below_rank: 5,
            palaces: true,
            points: true,
        }
    }

    #[inline]
    fn legal_moves_into(&self, out: &mut MoveList) {
        if self.static_outcome().is_none() {
            self.generate_moves(out);
        }
    }

    fn moves_past_end_into(&self, out: &mut MoveList) {
        if self.general(Side::First).is_some() && self.general(Side::Second).is_some() {
            self.generate_moves(out);
        }
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        Position::is_capture(self, m)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        Position::check_move(self, m)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m)
    }

    fn notations() -> &'static [MoveNotation] {
        &MoveNotation::ALL
    }

    fn move_to_text(&self, m: Move, notation: MoveNotation) -> Result<String, MoveError> {
        Ok(self.write_move(m, notation))
    }

    fn parse_move_as(&self, text: &str, notation: MoveNotation) -> Result<Move, MoveError> {
        self.read_move(text, notation)
    }

    /// `xiangqi` (in pyffish's order): S5; S4 unless checkmated; S3; no legal move (S2:
    /// checkmate or stalemate, the side to move loses).
    /// `xiangqi-capture`: the general captured (C3), 100 plies (C4), no move at all (C3).
    fn game_outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome> {
        let pos = history.current();
        if let Some(o) = pos.static_outcome() {
            return Some(o);
        }
        let standard = pos.rules() == RuleSet::Standard;
        if standard {
            let checkmated = !has_legal_move && pos.is_check();
            if move_limit_reached(history, checkmated) {
                return Some(Outcome::draw(Status::Movelimit));
            }
            if let Some(o) = repetition_outcome(history) {
                return Some(o);
            }
        }
        if !has_legal_move {
            let status = if standard && pos.is_check() {
                Status::Checkmate
            } else {
                Status::Stalemate
            };
            return Some(Outcome::win(status, !pos.turn()));
        }
        None
    }

    /// Perft counts legal moves only, as Fairy-Stockfish does.
    const PERFT_STOPS_AT_GAME_END: bool = false;

    fn perft_path_from(_history: &History<Self>) {}

    /// A captured general (`xiangqi-capture`) ends the line.
    #[inline]
    fn perft_over(&self) -> bool {
        self.rules() == RuleSet::Capture && self.static_outcome().is_some()
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
}
