//! What the search asks of a game beyond chuhe's one face ([`GamePosition`]): its evaluation,
//! piece values for move ordering, and its ending rules as the search applies them.
//!
//! The search ([`crate::search`]) is written once over [`SearchGame`]; each game implements
//! it here, next to the rules it encodes, with its evaluation in [`crate::eval`].

use std::sync::Arc;

use chuhe::{xiangqi, xiongqi, GamePosition, GameSquare, Outcome};

use crate::eval::xiangqi_net::XiangqiNet;

/// The networks the engine evaluates with, one per game that has one (Xiangqi today):
/// shared by every search thread, replaced whole when another file is loaded.
///
/// ```
/// use chuhe_engine::Networks;
/// use chuhe_engine::eval::xiangqi_net::XiangqiNet;
/// assert_eq!(*Networks::default().xiangqi, *XiangqiNet::embedded());
/// ```
#[derive(Clone, Debug)]
pub struct Networks {
    /// The Xiangqi evaluation's network (both rule sets).
    pub xiangqi: Arc<XiangqiNet>,
}

impl Default for Networks {
    /// The networks embedded in the binary.
    fn default() -> Networks {
        Networks {
            xiangqi: XiangqiNet::embedded(),
        }
    }
}

/// How the history of a game constrains play, as the search applies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryRule {
    /// Xiongqi (X6): a move that repeats an earlier (move, resulting position) pair is
    /// illegal; a repeated position is not in itself an end.
    ForbiddenRepeat,
    /// Standard Xiangqi (S3): a repeated position ends the game; the side that checked with
    /// every move of the cycle loses (perpetual check), otherwise it is a draw.
    PerpetualCheck,
    /// No repetition rule (Xiangqi's teaching rules): the search scores a cycle as a draw,
    /// since either side can keep repeating until the move limit.
    None,
}

/// An end of the game seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeOutcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

impl NodeOutcome {
    /// An outcome from the point of view of the side to move, `turn`.
    pub fn relative(outcome: Outcome, turn: chuhe::Side) -> NodeOutcome {
        match outcome.winner {
            None => NodeOutcome::Draw,
            Some(w) if w == turn => NodeOutcome::Win,
            Some(_) => NodeOutcome::Loss,
        }
    }
}

/// A game the engine can search.
pub trait SearchGame: GamePosition + crate::see::Exchange {
    /// The static evaluation in centipawns, from the side to move's point of view, with
    /// the embedded network.
    fn evaluate(&self) -> i32;
    /// What the evaluation reads besides the position and its weights: the Xiangqi network;
    /// `()` for a game without one.
    type Network: Send + Sync + 'static;
    /// This game's network among the engine's.
    fn network(networks: &Networks) -> &Self::Network;
    /// What the evaluation keeps up to date from move to move (the Xiangqi network's hidden
    /// sums); `()` for a game that evaluates each position from scratch.
    type EvalState: Clone + PartialEq;
    /// This position's evaluation state under `net`, computed from scratch.
    fn eval_state(&self, net: &Self::Network) -> Self::EvalState;
    /// Writes into `after` the evaluation state once `m` is played from this position, whose
    /// state is `state` (under `net`).
    fn eval_state_after(
        &self,
        net: &Self::Network,
        state: &Self::EvalState,
        m: Self::Move,
        after: &mut Self::EvalState,
    );
    /// The static evaluation under `net`, given this position's evaluation state
    /// ([`SearchGame::evaluate`] when `net` is the embedded network).
    fn evaluate_with_state(&self, net: &Self::Network, state: &Self::EvalState) -> i32;
    /// How many kinds of piece (side and role) there are: [`SearchGame::piece_kind_at`] is
    /// below this.
    const PIECE_KINDS: usize;
    /// The kind (side and role) of the piece on `square`, 0 when empty (for the history
    /// tables of move ordering).
    fn piece_kind_at(&self, square: Self::Square) -> usize;
    /// The value of the piece on `square` for move ordering and pruning (0 when empty; a
    /// terminal piece is worth more than everything else together).
    fn piece_value(&self, square: Self::Square) -> i32;
    /// Appends the legal captures (with their promotion choices) to `out`.
    fn captures_into(&self, out: &mut Self::Moves);
    /// Does the opponent of the side to move attack `square`?
    fn attacked_by_opponent(&self, square: Self::Square) -> bool;
    /// Does `m` win at least `threshold` by static exchange on its destination (see
    /// [`crate::see`])?
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// Extra value a move gets beyond its capture: a promotion's gain (Xiongqi), else 0.
    fn promotion_gain(&self, m: Self::Move) -> i32;
    /// How the history constrains play in this position's rule set.
    fn history_rule(&self) -> HistoryRule;
    /// An end decided before the side to move plays, without looking at its moves (a
    /// captured terminal piece, insufficient material, the move limit).
    fn node_outcome(&self) -> Option<NodeOutcome>;
    /// The end when the side to move has no legal move: a loss in the native games
    /// (checkmate, stalemate, X7 4); a game read from rule files may say otherwise (a
    /// stalemate drawn, a checkmate by a pawn drop lost by the dropper).
    fn no_move_outcome(&self) -> NodeOutcome {
        NodeOutcome::Loss
    }
    /// The square of the opponent's terminal piece (general or dragon), if it has one.
    fn opponent_terminal(&self) -> Option<Self::Square>;
    /// Can the side to move capture the opponent's terminal piece (and so win at once)?
    /// Only in games without a check rule (Xiongqi, Xiangqi's teaching rules).
    fn terminal_capturable(&self) -> bool;
    /// The identity of a move for [`HistoryRule::ForbiddenRepeat`]: the moving piece and
    /// the move.
    fn move_key(&self, m: Self::Move) -> u32;
    /// Can no earlier position recur after `m` (a capture, a soldier's forward step)?
    fn is_irreversible(&self, m: Self::Move) -> bool;
    /// Is passing (the null move) a safe guess here: the side to move has pieces besides
    /// its terminal piece, advisors and soldiers, so that zugzwang is unlikely?
    fn null_move_ok(&self) -> bool;
    /// The same placement with the other side to move (the null move).
    fn pass(&self) -> Self;
    /// A hash of the soldiers' placement (both sides): positions with the same key share
    /// a correction of their evaluation ([`crate::history`]).
    fn structure_key(&self) -> u64;
    /// Plies played since the last capture when the game is drawn at 100 of them (the
    /// move limit), `None` when no capture restarts the count (the capture-the-king rules
    /// draw at the 100th ply of the game, C4). For the search's evaluation only: standard
    /// Xiangqi's allowance for checks (S4) is the arbiter's, not counted here.
    fn plies_toward_move_limit(&self) -> Option<u32>;
}

/// Value of a terminal piece for ordering: more than all other material together.
pub const TERMINAL_VALUE: i32 = 20_000;

impl SearchGame for xiongqi::Position {
    const PIECE_KINDS: usize = 20;

    #[inline]
    fn piece_kind_at(&self, square: xiongqi::Square) -> usize {
        self.piece_at(square).map_or(0, |p| p.index())
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::xiongqi::evaluate(self)
    }

    type Network = ();

    fn network(_networks: &Networks) -> &() {
        &()
    }

    type EvalState = ();

    #[inline]
    fn eval_state(&self, _net: &()) {}

    #[inline]
    fn eval_state_after(&self, _net: &(), _state: &(), _m: xiongqi::Move, _after: &mut ()) {}

    #[inline]
    fn evaluate_with_state(&self, _net: &(), _state: &()) -> i32 {
        self.evaluate()
    }

    #[inline]
    fn piece_value(&self, square: xiongqi::Square) -> i32 {
        self.piece_at(square)
            .map_or(0, |p| crate::eval::xiongqi::piece_value(p.role))
    }

    #[inline]
    fn captures_into(&self, out: &mut xiongqi::MoveList) {
        if !self.is_over_before_moving() {
            self.generate_captures(out);
        }
    }

    #[inline]
    fn attacked_by_opponent(&self, square: xiongqi::Square) -> bool {
        self.is_attacked(square, !self.turn())
    }

    #[inline]
    fn see_ge(&self, m: xiongqi::Move, threshold: i32) -> bool {
        crate::see::see_ge(self, m.from().index(), m.to().index(), threshold)
    }

    #[inline]
    fn promotion_gain(&self, m: xiongqi::Move) -> i32 {
        match m.promotion() {
            Some(role) => {
                crate::eval::xiongqi::piece_value(role)
                    - crate::eval::xiongqi::piece_value(xiongqi::Role::CrossedSoldier)
            }
            None => 0,
        }
    }

    fn history_rule(&self) -> HistoryRule {
        HistoryRule::ForbiddenRepeat
    }

    #[inline]
    fn plies_toward_move_limit(&self) -> Option<u32> {
        Some(self.halfmove())
    }

    #[inline]
    fn node_outcome(&self) -> Option<NodeOutcome> {
        self.static_outcome()
            .map(|o| NodeOutcome::relative(o, self.turn()))
    }

    #[inline]
    fn opponent_terminal(&self) -> Option<xiongqi::Square> {
        self.terminal(!self.turn())
    }

    #[inline]
    fn terminal_capturable(&self) -> bool {
        self.terminal(!self.turn())
            .is_some_and(|t| self.is_attacked(t, self.turn()))
    }

    #[inline]
    fn move_key(&self, m: xiongqi::Move) -> u32 {
        let piece = self.piece_at(m.from()).map_or(0, |p| p.index() as u32 + 1);
        (piece << 16) | u32::from(m.bits())
    }

    #[inline]
    fn is_irreversible(&self, m: xiongqi::Move) -> bool {
        // Captures lower the piece count for good; a soldier never steps back, but a crossed
        // soldier's sideways step can be undone.
        self.is_capture(m)
            || self.piece_at(m.from()).is_some_and(|p| {
                p.role == xiongqi::Role::Soldier
                    || (p.role == xiongqi::Role::CrossedSoldier && m.from().file() == m.to().file())
            })
    }

    fn null_move_ok(&self) -> bool {
        use xiongqi::Role;
        let own = self.side_bb(self.turn());
        let big = self.role_bb(Role::Chariot)
            | self.role_bb(Role::Cannon)
            | self.role_bb(Role::Horse)
            | self.role_bb(Role::Empress)
            | self.role_bb(Role::Bear);
        big & own != 0
    }

    #[inline]
    fn structure_key(&self) -> u64 {
        use xiongqi::Role;
        let soldiers = self.role_bb(Role::Soldier) | self.role_bb(Role::CrossedSoldier);
        let south = soldiers & self.side_bb(chuhe::Side::First);
        let north = soldiers & self.side_bb(chuhe::Side::Second);
        mix(mix(south) ^ north)
    }

    fn pass(&self) -> xiongqi::Position {
        self.with_turn(!self.turn())
    }
}

impl SearchGame for xiangqi::Position {
    const PIECE_KINDS: usize = 14;

    #[inline]
    fn piece_kind_at(&self, square: xiangqi::Square) -> usize {
        self.piece_at(square).map_or(0, |p| p.index())
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::xiangqi::evaluate(self)
    }

    type Network = XiangqiNet;

    fn network(networks: &Networks) -> &XiangqiNet {
        &networks.xiangqi
    }

    type EvalState = crate::eval::xiangqi_net::Accumulator;

    #[inline]
    fn eval_state(&self, net: &XiangqiNet) -> Self::EvalState {
        crate::eval::xiangqi_net::Accumulator::new(net, self)
    }

    #[inline]
    fn eval_state_after(
        &self,
        net: &XiangqiNet,
        state: &Self::EvalState,
        m: xiangqi::Move,
        after: &mut Self::EvalState,
    ) {
        state.after(net, self, m, after);
    }

    #[inline]
    fn evaluate_with_state(&self, net: &XiangqiNet, state: &Self::EvalState) -> i32 {
        crate::eval::xiangqi::evaluate_with_accumulator(self, net, state)
    }

    #[inline]
    fn piece_value(&self, square: xiangqi::Square) -> i32 {
        self.piece_at(square)
            .map_or(0, |p| crate::eval::xiangqi::piece_value(p.role))
    }

    #[inline]
    fn captures_into(&self, out: &mut xiangqi::MoveList) {
        if self.static_outcome().is_none() {
            self.generate_captures(out);
        }
    }

    #[inline]
    fn attacked_by_opponent(&self, square: xiangqi::Square) -> bool {
        use xiangqi::Role;
        let them = !self.turn();
        let side = them.index();
        let theirs = |role: Role| self.role_bb(role) & self.side_bb(them);
        let i = square.index();
        // `is_attacked` covers the pieces that can reach a general; advisors, elephants and
        // the general's own steps guard the rest of their side.
        self.is_attacked(square, them)
            || xiangqi::ADVISOR_STEPS[side][i] & theirs(Role::Advisor) != 0
            || xiangqi::GENERAL_STEPS[side][i] & theirs(Role::General) != 0
            || xiangqi::elephant_attacks(side, square, self.occupied()) & theirs(Role::Elephant)
                != 0
    }

    #[inline]
    fn see_ge(&self, m: xiangqi::Move, threshold: i32) -> bool {
        crate::see::see_ge(self, m.from().index(), m.to().index(), threshold)
    }

    #[inline]
    fn promotion_gain(&self, _m: xiangqi::Move) -> i32 {
        0
    }

    fn history_rule(&self) -> HistoryRule {
        match self.rules() {
            xiangqi::RuleSet::Standard => HistoryRule::PerpetualCheck,
            xiangqi::RuleSet::Capture => HistoryRule::None,
        }
    }

    #[inline]
    fn plies_toward_move_limit(&self) -> Option<u32> {
        (self.rules() == xiangqi::RuleSet::Standard).then(|| self.halfmove())
    }

    #[inline]
    fn node_outcome(&self) -> Option<NodeOutcome> {
        if let Some(o) = self.static_outcome() {
            return Some(NodeOutcome::relative(o, self.turn()));
        }
        // S4: 100 plies without a capture draw, unless the side to move is checkmated.
        if self.rules() == xiangqi::RuleSet::Standard && self.halfmove() >= 100 {
            if self.is_check() && self.count_moves() == 0 {
                return Some(NodeOutcome::Loss);
            }
            return Some(NodeOutcome::Draw);
        }
        None
    }

    #[inline]
    fn opponent_terminal(&self) -> Option<xiangqi::Square> {
        self.general(!self.turn())
    }

    #[inline]
    fn terminal_capturable(&self) -> bool {
        // Only the teaching rules let a general be attacked by the side to move; the flying
        // capture counts (C2).
        self.rules() == xiangqi::RuleSet::Capture
            && self
                .general(!self.turn())
                .is_some_and(|g| self.is_attacked(g, self.turn()))
    }

    #[inline]
    fn move_key(&self, m: xiangqi::Move) -> u32 {
        let piece = self.piece_at(m.from()).map_or(0, |p| p.index() as u32 + 1);
        (piece << 16) | u32::from(m.bits())
    }

    #[inline]
    fn is_irreversible(&self, m: xiangqi::Move) -> bool {
        self.is_capture(m)
            || self.piece_at(m.from()).is_some_and(|p| {
                p.role == xiangqi::Role::Soldier && m.from().file() == m.to().file()
            })
    }

    fn null_move_ok(&self) -> bool {
        use xiangqi::Role;
        let big =
            self.role_bb(Role::Chariot) | self.role_bb(Role::Cannon) | self.role_bb(Role::Horse);
        big & self.side_bb(self.turn()) != 0
    }

    #[inline]
    fn structure_key(&self) -> u64 {
        let soldiers = self.role_bb(xiangqi::Role::Soldier);
        let red = soldiers & self.side_bb(chuhe::Side::First);
        let black = soldiers & self.side_bb(chuhe::Side::Second);
        mix(mix(red as u64 ^ ((red >> 64) as u64).rotate_left(32)) ^ black as u64)
            ^ mix(((black >> 64) as u64) ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn pass(&self) -> xiangqi::Position {
        self.with_turn(!self.turn())
    }
}

/// A 64-bit finaliser (SplitMix64's): every input bit affects every output bit.
#[inline]
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The exchange view of each game (one generic evaluation in [`crate::see`]).
macro_rules! exchange {
    ($game:ident, $bits:ty) => {
        impl crate::see::Exchange for $game::Position {
            type Bits = $bits;
            #[inline]
            fn occupied_bits(&self) -> $bits {
                self.occupied()
            }
            #[inline]
            fn side_bits(&self, side: chuhe::Side) -> $bits {
                self.side_bb(side)
            }
            #[inline]
            fn attackers_bits(&self, target: usize, occ: $bits) -> $bits {
                $game::Square::from_index(target).map_or(0, |sq| self.attackers_to(sq, occ))
            }
            #[inline]
            fn value_at(&self, index: usize) -> i32 {
                $game::Square::from_index(index).map_or(0, |sq| self.piece_value(sq))
            }
            #[inline]
            fn is_terminal_at(&self, index: usize) -> bool {
                self.value_at(index) >= TERMINAL_VALUE
            }
            #[inline]
            fn mover(&self) -> chuhe::Side {
                self.turn()
            }
        }
    };
}
exchange!(xiongqi, u64);
exchange!(xiangqi, u128);
