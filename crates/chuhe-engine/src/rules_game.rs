//! The engine on games read from rule files: [`SearchGame`] for the generic position, with a
//! generic evaluation — material by the manifest's piece values, and mobility (pseudo-legal
//! moves of each side, the manifest's `mobility` centipawns each, 4 unless it says). Both are
//! linear, so the Texel tuner learns them from self-play (`examples/tune.rs --rules DIR`,
//! docs/TUNING.md).

use chuhe::rules::{Move, Moves, Position, Square, Width};
use chuhe::{GameMove, GamePosition, Side};

use crate::game::{HistoryRule, NodeOutcome, SearchGame, TERMINAL_VALUE};
use crate::Networks;

fn value<B: Width>(pos: &Position<B>, kind: usize) -> i32 {
    let k = &pos.game().info.kinds[kind];
    if k.royal {
        TERMINAL_VALUE
    } else {
        k.value
    }
}

/// The parameters of a game's evaluation, for tuning: one per piece of the manifest (its
/// value; by role index, royal pieces unused), then the mobility weight.
pub fn parameters<B: Width>(pos: &Position<B>) -> usize {
    pos.game().info.manifest.pieces.len() + 1
}

/// The parameter values the game's files give (see [`parameters`]).
pub fn parameter_values<B: Width>(pos: &Position<B>) -> Vec<i32> {
    let manifest = &pos.game().info.manifest;
    let mut values: Vec<i32> = manifest.pieces.iter().map(|p| p.value).collect();
    values.push(manifest.mobility);
    values
}

/// The evaluation's terms, first player's view: `term(parameter, count)` for each piece's
/// value (+1 for a first player's piece, −1 for a second's, on the board and, in games with
/// drops, in the hand) and for mobility (the difference of the sides' pseudo-legal moves). The
/// evaluation and the tuner both read this.
#[inline]
pub fn terms<B: Width>(pos: &Position<B>, mut term: impl FnMut(usize, i32)) {
    let info = &pos.game().info;
    for (_, k) in pos.pieces() {
        let kind = &info.kinds[k];
        if !kind.royal {
            term(kind.role, if kind.side == Side::First { 1 } else { -1 });
        }
    }
    for side in Side::BOTH {
        let sign = if side == Side::First { 1 } else { -1 };
        for (k, n) in pos.droppable(side) {
            term(info.kinds[k].role, sign * i32::from(n));
        }
    }
    let mobility = pos.mobility(Side::First) as i32 - pos.mobility(Side::Second) as i32;
    term(info.manifest.pieces.len(), mobility);
}

/// The generic evaluation, from the side to move's point of view.
///
/// ```
/// # let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/minixiangqi");
/// let game = chuhe::rules::load_dir(dir).unwrap();
/// let chuhe::rules::RulesHandle::Narrow(compiled) = game else { unreachable!() };
/// let start = chuhe::rules::Position::start(compiled);
/// // The start is symmetric: material and mobility cancel.
/// assert_eq!(chuhe_engine::rules_game::evaluate(&start), 0);
/// ```
pub fn evaluate<B: Width>(pos: &Position<B>) -> i32 {
    let manifest = &pos.game().info.manifest;
    let mut score = 0;
    terms(pos, |parameter, count| {
        let weight = match manifest.pieces.get(parameter) {
            Some(piece) => piece.value,
            None => manifest.mobility,
        };
        score += weight * count;
    });
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
            if (self.is_capture(m) || m.choice() > 0) && !m.is_drop() {
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
        if m.is_drop() {
            return 0;
        }
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
    fn no_move_outcome(&self) -> NodeOutcome {
        NodeOutcome::relative(self.outcome_without_moves(), self.turn())
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
        // Where pieces come back from the hands, a position may recur after anything.
        !self.drops_pieces() && (self.is_capture(m) || m.choice() > 0)
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
