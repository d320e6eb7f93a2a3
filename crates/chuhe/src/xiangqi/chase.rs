//! S6, chasing, as Fairy-Stockfish (pyffish 0.0.90) judges it: the pieces a move chases, and
//! which side chased with every move of a repetition cycle.
//!
//! Nothing here runs while moves are generated or played: the sets are computed from the
//! positions of the game's history only when a repetition is judged.
//!
//! Terms: after a move, the *victim* is the side to move and the *chaser* the side that
//! moved. Attacks come in two kinds, as in Fairy-Stockfish: *region-bound* attacks (what the
//! piece could capture by the movement rules; elephants stay on their side of the river,
//! advisors and generals in the palace, soldiers before the river only go forward) and *raw*
//! attacks (the same steps without the regions), which Fairy-Stockfish uses for discovered
//! attacks and for the pieces a newly pinned piece used to protect.

use chuhe_notation::Side;

use super::attacks::{cannon_captures, horse_attacks, own_half, rook_attacks, GENERAL_STEPS};
use super::bitboard::{file_bb, rank_bb, squares, Square};
use super::position::Position;
use super::types::{Move, Piece, Role};

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The square `(df, dr)` away from `sq`, if it is on the board.
fn offset(sq: Square, (df, dr): (i32, i32)) -> Option<Square> {
    let (f, r) = (i32::from(sq.file()) + df, i32::from(sq.rank()) + dr);
    let on_board = (0..9).contains(&f) && (0..10).contains(&r);
    on_board
        .then(|| Square::from_coords(f as u8, r as u8))
        .flatten()
}

/// The squares at the given offsets from `sq` that are on the board.
fn offsets(sq: Square, deltas: &[(i32, i32)]) -> u128 {
    deltas
        .iter()
        .filter_map(|&d| offset(sq, d))
        .fold(0, |bb, s| bb | s.bb())
}

/// The file and rank through `sq`, without `sq`.
fn lines(sq: Square) -> u128 {
    (file_bb(sq.file()) | rank_bb(sq.rank())) & !sq.bb()
}

/// The squares strictly between `a` and `b` when they share a file or rank, else none.
fn between(a: Square, b: Square) -> u128 {
    if a.file() != b.file() && a.rank() != b.rank() {
        return 0;
    }
    rook_attacks(a, b.bb()) & rook_attacks(b, a.bb())
}

/// An elephant's two-step diagonal targets with free eyes, river ignored.
fn raw_elephant(sq: Square, occ: u128) -> u128 {
    DIAGONAL
        .iter()
        .filter(|&&d| offset(sq, d).is_some_and(|eye| eye.bb() & occ == 0))
        .filter_map(|&(df, dr)| offset(sq, (2 * df, 2 * dr)))
        .fold(0, |bb, s| bb | s.bb())
}

/// Raw attacks of `piece` on `sq` with occupancy `occ` (no regions; a soldier steps forward
/// and sideways wherever it stands).
fn raw_attacks(piece: Piece, sq: Square, occ: u128) -> u128 {
    match piece.role {
        Role::General => offsets(sq, &ORTHOGONAL),
        Role::Advisor => offsets(sq, &DIAGONAL),
        Role::Elephant => raw_elephant(sq, occ),
        Role::Horse => horse_attacks(sq, occ),
        Role::Chariot => rook_attacks(sq, occ),
        Role::Cannon => cannon_captures(sq, occ),
        Role::Soldier => {
            let forward = if piece.side == Side::First { 1 } else { -1 };
            offsets(sq, &[(0, forward), (1, 0), (-1, 0)])
        }
    }
}

impl Position {
    fn role_of(&self, side: Side, role: Role) -> u128 {
        self.role_bb(role) & self.side_bb(side)
    }

    /// `side`'s pieces that no chase may target: its general and its soldiers that have not
    /// crossed the river.
    fn unchaseable(&self, side: Side) -> u128 {
        let uncrossed = self.role_of(side, Role::Soldier) & own_half(side.index());
        self.role_of(side, Role::General) | uncrossed
    }

    /// Pieces of either side that shield `side`'s general from an attack of the other side's
    /// chariot, cannon (one of its two screens) or horse (on its leg): Fairy-Stockfish's
    /// "blockers for king". Empty without a general.
    pub(crate) fn blockers_for_general(&self, side: Side) -> u128 {
        let Some(king) = self.general(side) else {
            return 0;
        };
        let them = !side;
        let occ = self.occupied();
        let line = lines(king);
        let chariots = line & self.role_of(them, Role::Chariot) & !rook_attacks(king, occ);
        let cannons = line & self.role_of(them, Role::Cannon) & !cannon_captures(king, occ);
        let horses = squares(offsets(king, &KNIGHT) & self.role_of(them, Role::Horse))
            .filter(|&h| horse_attacks(h, occ) & king.bb() == 0)
            .fold(0u128, |bb, h| bb | h.bb());
        // Sliding snipers (chariots, horses) do not block each other.
        let occupancy = occ ^ chariots ^ horses;
        let mut blockers = 0;
        for sniper in squares(chariots) {
            let b = between(king, sniper) & occupancy;
            if b.count_ones() == 1 {
                blockers |= b;
            }
        }
        for sniper in squares(cannons) {
            let b = between(king, sniper) & occ;
            if (1..=2).contains(&b.count_ones()) {
                blockers |= b;
            }
        }
        for sniper in squares(horses) {
            let b = offsets(sniper, &ORTHOGONAL) & offsets(king, &DIAGONAL) & occupancy;
            if b.count_ones() == 1 {
                blockers |= b;
            }
        }
        blockers
    }

    /// The pieces of the side to move that the last move, `m` played from `before`, chases
    /// (rule S6 as pyffish judges it): a bit set of their squares in this position.
    ///
    /// `self` must be `before` after `m`. Only meaningful under the standard rules.
    ///
    /// ```
    /// use chuhe::xiangqi::{Position, Square};
    /// use chuhe::GamePosition;
    /// let before: Position =
    ///     "3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
    /// let m = before.parse_move_as("a2c2", chuhe::MoveNotation::Uci).unwrap();
    /// let mut after = before.clone();
    /// after.play_unchecked(m);
    /// // The chariot attacks the unprotected horse on c8.
    /// let c8: Square = "c8".parse().unwrap();
    /// assert_eq!(after.chased_by(&before, m), c8.bb());
    /// ```
    pub fn chased_by(&self, before: &Position, m: Move) -> u128 {
        let victim = self.turn();
        let chaser = !victim;
        let (from, to) = (m.from(), m.to());
        let Some(moved) = self.piece_at(to) else {
            return 0;
        };
        let occ = self.occupied();
        let ours = self.side_bb(victim);
        let chaser_general = self.general(chaser);
        let blockers = self.blockers_for_general(victim);
        let mut pins = blockers;
        if let Some(g) = chaser_general {
            // The one piece of the victim on the chaser general's file, with its own general.
            let on_file = file_bb(g.file()) & ours;
            let generals = self.role_bb(Role::General);
            if on_file & generals != 0 && (on_file & !generals).count_ones() <= 1 {
                pins |= on_file & !generals;
            }
        }
        let mut chased = 0u128;
        let mut add = |attacker: Square, role: Role, mut attacks: u128| {
            if attacks & !chased == 0 {
                return;
            }
            attacks &= !self.unchaseable(victim);
            // Attacks on stronger pieces count whether they are protected or not.
            match role {
                Role::Horse | Role::Cannon => {
                    chased |= attacks & self.role_of(victim, Role::Chariot);
                }
                Role::Elephant | Role::Advisor => {
                    chased |= attacks
                        & (self.role_of(victim, Role::Chariot)
                            | self.role_of(victim, Role::Cannon)
                            | self.role_of(victim, Role::Horse));
                }
                _ => {}
            }
            // Like attacking like is no chase, unless the target is pinned; a horse with a
            // piece next to it diagonally only spares the horses that attack it back.
            if role == Role::Horse && offsets(attacker, &DIAGONAL) & occ != 0 {
                for h in squares(attacks & self.role_of(victim, Role::Horse)) {
                    if horse_attacks(h, occ) & attacker.bb() != 0 {
                        attacks &= !h.bb();
                    }
                }
            } else {
                attacks &= !self.role_of(victim, role) | pins;
            }
            // Any other target is chased when nothing protects it.
            let without = occ & !attacker.bb();
            for s in squares(attacks) {
                let roots = self.attackers_to(s, without) & ours & !pins;
                let only_general = roots != 0 && roots == self.role_of(victim, Role::General);
                let general_exposed = only_general
                    && chaser_general.is_some_and(|g| rook_attacks(g, without) & s.bb() != 0);
                if roots == 0 || general_exposed {
                    chased |= s.bb();
                }
            }
        };

        // 1. Direct attacks of the moved piece (new ones only for lines it moved along).
        if !matches!(moved.role, Role::General | Role::Soldier) {
            let mut direct = self.attacks_from(to) & ours;
            if matches!(moved.role, Role::Chariot | Role::Cannon) {
                direct &= !line_through(from, to);
            }
            add(to, moved.role, direct);
        }

        // 2. Discovered attacks: lines, legs, eyes and screens the move changed.
        let candidates = (offsets(from, &ORTHOGONAL) & self.role_of(chaser, Role::Horse))
            | (offsets(from, &DIAGONAL) & self.role_of(chaser, Role::Elephant))
            | (lines(from)
                & (self.role_of(chaser, Role::Cannon) | self.role_of(chaser, Role::Chariot)))
            | (lines(to) & self.role_of(chaser, Role::Cannon));
        let captured = before.piece_at(to).is_some();
        let occ_before = if captured { occ } else { occ ^ to.bb() } ^ from.bb();
        for s in squares(candidates) {
            let Some(piece) = self.piece_at(s) else {
                continue;
            };
            let discovered = ours & raw_attacks(piece, s, occ) & !raw_attacks(piece, s, occ_before);
            add(s, piece.role, discovered);
        }

        // 3. Protectors newly pinned, and discovered checks in waiting.
        let new_blockers = blockers & !before.blockers_for_general(victim);
        let chaser_pinned = self.blockers_for_general(chaser);
        for s in squares(new_blockers & ours) {
            let Some(piece) = self.piece_at(s) else {
                continue;
            };
            let unprotected = ours & !self.unchaseable(victim) & raw_attacks(piece, s, occ);
            for s2 in squares(unprotected) {
                if self.attackers_to(s2, occ) & self.side_bb(chaser) & !chaser_pinned != 0 {
                    chased |= s2.bb();
                }
            }
        }
        if let Some(king) = self.general(victim) {
            let king_steps = GENERAL_STEPS[victim.index()][king.index()];
            for s in squares(new_blockers & self.side_bb(chaser)) {
                let attacks = self.attacks_from(s) & ours;
                chased |= attacks & !king_steps;
                let without = occ ^ s.bb() ^ king.bb();
                for s2 in squares(attacks & king_steps) {
                    if self.attackers_to(s2, without) & self.side_bb(chaser) & !s.bb() != 0 {
                        chased |= s2.bb();
                    }
                }
            }
        }
        chased
    }
}

/// The whole file or rank through `a` and `b` (both included), or none.
fn line_through(a: Square, b: Square) -> u128 {
    if a.file() == b.file() {
        file_bb(a.file())
    } else if a.rank() == b.rank() {
        rank_bb(a.rank())
    } else {
        0
    }
}
