//! The engine on games read from rule files: [`SearchGame`] for the generic position, with a
//! generic evaluation — material by the manifest's piece values, and mobility (pseudo-legal
//! moves of each side, 4 centipawns each).

use chuhe::rules::{Move, Moves, Position, Square, Width};
use chuhe::{GameMove, GamePosition, Side};

use crate::game::{HistoryRule, NodeOutcome, SearchGame, TERMINAL_VALUE};
use crate::Networks;

/// Centipawns per pseudo-legal move.
const MOBILITY: i32 = 4;

fn value<B: Width>(pos: &Position<B>, kind: usize) -> i32 {
    let k = &pos.game().info.kinds[kind];
    if k.royal {
        TERMINAL_VALUE
    } else {
        k.value
    }
}

/// The generic evaluation, from the side to move's point of view.
pub fn evaluate<B: Width>(pos: &Position<B>) -> i32 {
    let info = &pos.game().info;
    let mut score = 0;
    for (_, k) in pos.pieces() {
        let kind = &info.kinds[k];
        if !kind.royal {
            score += if kind.side == Side::First {
                kind.value
            } else {
                -kind.value
            };
        }
    }
    score += MOBILITY * (pos.mobility(Side::First) as i32 - pos.mobility(Side::Second) as i32);
    if pos.turn() == Side::First {
        score
    } else {
        -score
    }
}

impl<B: Width> crate::see::Exchange for Position<B> {
    type Bits = u64;
    fn occupied_bits(&self) -> u64 {
        0
    }
    fn side_bits(&self, _side: Side) -> u64 {
        0
    }
    fn attackers_bits(&self, _target: usize, _occ: u64) -> u64 {
        0
    }
    fn value_at(&self, _index: usize) -> i32 {
        0
    }
    fn is_terminal_at(&self, _index: usize) -> bool {
        false
    }
    fn mover(&self) -> Side {
        self.turn()
    }
}

impl<B: Width> SearchGame for Position<B> {
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
    type Network = ();
    fn network(_networks: &Networks) -> &() {
        &()
    }
    type EvalState = ();
    fn eval_state(&self, _net: &()) {}
    fn eval_state_after(&self, _net: &(), _state: &(), _m: Move, _after: &mut ()) {}
    fn evaluate_with_state(&self, _net: &(), _state: &()) -> i32 {
        evaluate(self)
    }
    const PIECE_KINDS: usize = 33;
    fn piece_kind_at(&self, square: Square) -> usize {
        self.kind_on(square).map_or(0, |k| k + 1)
    }
    fn piece_value(&self, square: Square) -> i32 {
        self.kind_on(square).map_or(0, |k| value(self, k))
    }
    fn captures_into(&self, out: &mut Moves) {
        let mut all = Moves::new();
        self.legal_moves_into(&mut all);
        for &m in all.iter() {
            if self.is_capture(m) || m.choice() > 0 {
                out.push(m);
            }
        }
    }
    fn attacked_by_opponent(&self, square: Square) -> bool {
        self.is_attacked(square, !self.turn())
    }
    /// A simple exchange: the capture wins the victim; if the destination is defended, the
    /// mover is lost in return.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let gain = self.piece_value(m.to());
        if gain - threshold < 0 {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        if !after.is_attacked(m.to(), !self.turn()) {
            return true;
        }
        gain - self.piece_value(m.from()) >= threshold
    }
    fn promotion_gain(&self, m: Move) -> i32 {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.piece_value(m.to()) - self.piece_value(m.from())
    }
    fn history_rule(&self) -> HistoryRule {
        use chuhe::rules::manifest::Repetition;
        match self.game().info.manifest.session.repetition {
            Repetition::ForbiddenMove => HistoryRule::ForbiddenRepeat,
            Repetition::Fold {
                perpetual_check: true,
                ..
            } => HistoryRule::PerpetualCheck,
            _ => HistoryRule::None,
        }
    }
    fn node_outcome(&self) -> Option<NodeOutcome> {
        self.ends_before_moving()
            .map(|o| NodeOutcome::relative(o, self.turn()))
    }
    fn opponent_terminal(&self) -> Option<Square> {
        self.terminal_square(!self.turn())
    }
    fn terminal_capturable(&self) -> bool {
        use chuhe::rules::manifest::RoyalRule;
        self.game().info.manifest.royal.rule == RoyalRule::Capture
            && self
                .terminal_square(!self.turn())
                .is_some_and(|t| self.is_attacked(t, self.turn()))
    }
    fn move_key(&self, m: Move) -> u32 {
        let piece = self.kind_on(m.from()).map_or(0, |k| k as u32 + 1);
        (piece << 16) | u32::from(m.bits())
    }
    fn is_irreversible(&self, m: Move) -> bool {
        self.is_capture(m) || m.choice() > 0
    }
    fn null_move_ok(&self) -> bool {
        let info = &self.game().info;
        let turn = self.turn();
        self.pieces()
            .iter()
            .filter(|&&(_, k)| info.kinds[k].side == turn && !info.kinds[k].royal)
            .count()
            >= 3
    }
    fn pass(&self) -> Position<B> {
        self.with_turn(!self.turn())
    }
    fn structure_key(&self) -> u64 {
        0
    }
    fn plies_toward_move_limit(&self) -> Option<u32> {
        let limit = self.game().info.manifest.session.move_limit.as_ref()?;
        // The search damps toward a draw near 100 plies: scale the count to that.
        Some(self.halfmove() * 100 / limit.plies.max(1))
    }
}
