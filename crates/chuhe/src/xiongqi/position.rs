//! The validated Xiongqi position: board, hands, side to move, half-move clock, hash.

use chuhe_notation::{Side, Status};

use super::attacks::{
    between_on_file, bishop_attacks, cannon_captures, horse_attacks, rook_attacks,
    CROSSED_SOLDIER_STEPS, DIAGONAL_STEPS, KNIGHT_LEAPS, ORTHOGONAL_STEPS, SOLDIER_STEPS,
};
use super::bitboard::{rank_bb, squares, Square};
use super::types::{Move, MoveList, Piece, Role};
use crate::zobrist;
use crate::Outcome;

const EMPTY: u8 = u8::MAX;

static PIECE_KEYS: [u64; 20 * 64] = zobrist::keys(0x5869_6F6E_6771_6921);
const SIDE_KEY: u64 = zobrist::splitmix64(0x0042_4541_5253).1;

#[inline(always)]
fn piece_key(piece_index: usize, sq: Square) -> u64 {
    PIECE_KEYS[piece_index * 64 + sq.index()]
}

/// The far rank where a soldier may promote (X2): rank 8 for South, rank 1 for North.
#[inline(always)]
pub(crate) const fn far_rank(side: Side) -> u64 {
    match side {
        Side::First => rank_bb(7),
        Side::Second => rank_bb(0),
    }
}

/// The ranks "after the river" for a side's soldiers (X1).
#[inline(always)]
pub(crate) const fn across_river(side: Side) -> u64 {
    match side {
        Side::First => 0xFFFF_FFFF_0000_0000,
        Side::Second => 0x0000_0000_FFFF_FFFF,
    }
}

/// A Xiongqi position, always valid by construction (see [`crate::xiongqi::Setup`]).
///
/// It knows the placement, both hands, the side to move and the half-move clock; the history
/// needed for repetition (X6) lives in [`crate::xiongqi::Game`].
///
/// ```
/// use chuhe::xiongqi::Position;
/// let pos = Position::start();
/// assert_eq!(pos.legal_moves().len(), 26);
/// assert_eq!(pos.to_feen(), "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_role: [u64; 10],
    pub(crate) by_side: [u64; 2],
    pub(crate) board: [u8; 64],
    /// `hands[owner][piece index]`: counts of captured pieces.
    pub(crate) hands: [[u8; 20]; 2],
    pub(crate) turn: Side,
    pub(crate) halfmove: u32,
    pub(crate) hash: u64,
}

impl Position {
    /// An empty board, South to move (used by setups).
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [0; 10],
            by_side: [0; 2],
            board: [EMPTY; 64],
            hands: [[0; 20]; 2],
            turn: Side::First,
            halfmove: 0,
            hash: 0,
        }
    }

    /// The start position.
    pub fn start() -> Position {
        let mut pos = Position::empty();
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Bear,
            Role::Advisor,
            Role::General,
            Role::Bear,
            Role::Horse,
            Role::Chariot,
        ];
        for (file, &role) in back.iter().enumerate() {
            let f = file as u8;
            pos.put(sq(f, 0), Piece::new(Side::First, role));
            pos.put(sq(f, 7), Piece::new(Side::Second, role));
            pos.put(sq(f, 2), Piece::new(Side::First, Role::Soldier));
            pos.put(sq(f, 5), Piece::new(Side::Second, Role::Soldier));
        }
        for f in [2, 5] {
            pos.put(sq(f, 1), Piece::new(Side::First, Role::Cannon));
            pos.put(sq(f, 6), Piece::new(Side::Second, Role::Cannon));
        }
        pos.hash = pos.compute_hash();
        pos
    }

    // ----- accessors -------------------------------------------------------------------

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The half-move clock (X7 5): plies since the last capture or soldier move.
    #[inline]
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Sets the half-move clock (a FEEN holds none, X8).
    pub fn set_halfmove(&mut self, halfmove: u32) {
        self.halfmove = halfmove;
    }

    /// The Zobrist hash of the position identity of X6: placement and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        (p != EMPTY).then(|| Piece::from_index(p as usize))
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.by_side[0] | self.by_side[1]
    }

    /// The squares of one side's pieces.
    #[inline]
    pub fn side_bb(&self, side: Side) -> u64 {
        self.by_side[side.index()]
    }

    /// The squares of pieces with this role (both sides).
    #[inline]
    pub fn role_bb(&self, role: Role) -> u64 {
        self.by_role[role.index()]
    }

    /// The square of a side's terminal piece (general or dragon), if it has one.
    pub fn terminal(&self, side: Side) -> Option<Square> {
        let bb = (self.by_role[Role::General.index()] | self.by_role[Role::Dragon.index()])
            & self.by_side[side.index()];
        squares(bb).next()
    }

    /// How many of `piece` the `owner` holds in hand.
    pub fn hand_count(&self, owner: Side, piece: Piece) -> u8 {
        self.hands[owner.index()][piece.index()]
    }

    /// The pieces in `owner`'s hand with their counts.
    pub fn hand(&self, owner: Side) -> impl Iterator<Item = (Piece, u8)> + '_ {
        self.hands[owner.index()]
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| (Piece::from_index(i), n))
    }

    /// Do two positions have the same identity for repetition (placement and side to move)?
    pub fn same_identity(&self, other: &Position) -> bool {
        self.by_role == other.by_role && self.by_side == other.by_side && self.turn == other.turn
    }

    // ----- board editing -----------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let b = sq.bb();
        self.by_role[piece.role.index()] |= b;
        self.by_side[piece.side.index()] |= b;
        self.board[sq.index()] = piece.index() as u8;
        self.hash ^= piece_key(piece.index(), sq);
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square, piece: Piece) {
        let b = sq.bb();
        self.by_role[piece.role.index()] ^= b;
        self.by_side[piece.side.index()] ^= b;
        self.board[sq.index()] = EMPTY;
        self.hash ^= piece_key(piece.index(), sq);
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in squares(self.occupied()) {
            h ^= piece_key(self.board[s.index()] as usize, s);
        }
        if self.turn == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// The same placement and hands with `side` to move (any side may be to move in Xiongqi).
    pub fn with_turn(&self, side: Side) -> Position {
        let mut p = self.clone();
        p.set_turn(side);
        p
    }

    pub(crate) fn set_turn(&mut self, turn: Side) {
        self.turn = turn;
        self.hash = self.compute_hash();
    }

    // ----- move generation ---------------------------------------------------------------

    /// Destinations of the piece on `from` (own pieces excluded), by the movement rules.
    #[inline(always)]
    fn targets(&self, from: Square, piece: Piece) -> u64 {
        let side = piece.side.index();
        let own = self.by_side[side];
        let enemy = self.by_side[side ^ 1];
        let occ = own | enemy;
        let i = from.index();
        match piece.role {
            Role::General => ORTHOGONAL_STEPS[i] & !own,
            Role::Dragon => (ORTHOGONAL_STEPS[i] & !occ) | (rook_attacks(from, occ) & enemy),
            Role::Advisor => DIAGONAL_STEPS[i] & !own,
            Role::Bear => bishop_attacks(from, occ) & !own,
            Role::Chariot => rook_attacks(from, occ) & !own,
            Role::Cannon => (rook_attacks(from, occ) & !occ) | (cannon_captures(from, occ) & enemy),
            Role::Horse => horse_attacks(from, occ) & !own,
            Role::Empress => (rook_attacks(from, occ) | KNIGHT_LEAPS[i]) & !own,
            Role::Soldier => SOLDIER_STEPS[side][i] & !own,
            Role::CrossedSoldier => CROSSED_SOLDIER_STEPS[side][i] & !own,
        }
    }

    /// Appends every move of the side to move allowed by the movement rules (GGN), with the
    /// seven choices of X2 for soldiers reaching the far rank. No game-end or repetition check.
    pub fn generate_moves(&self, list: &mut MoveList) {
        let side = self.turn;
        let far = far_rank(side);
        for from in squares(self.by_side[side.index()]) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            let targets = self.targets(from, piece);
            if piece.role.is_soldier() {
                for to in squares(targets & !far) {
                    list.push(Move::raw(from, to, 7));
                }
                for to in squares(targets & far) {
                    list.push(Move::raw(from, to, 7));
                    for code in 0..6 {
                        list.push(Move::raw(from, to, code));
                    }
                }
            } else {
                for to in squares(targets) {
                    list.push(Move::raw(from, to, 7));
                }
            }
        }
    }

    /// Appends the captures among [`Position::generate_moves`] (with their promotion choices):
    /// for quiescence search.
    ///
    /// ```
    /// use chuhe::xiongqi::{MoveList, Position};
    /// let mut captures = MoveList::new();
    /// Position::start().generate_captures(&mut captures);
    /// assert_eq!(captures.len(), 2); // the cannons take the soldiers on c6 and f6
    /// ```
    pub fn generate_captures(&self, list: &mut MoveList) {
        let side = self.turn;
        let far = far_rank(side);
        let enemy = self.by_side[(!side).index()];
        for from in squares(self.by_side[side.index()]) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            let targets = self.targets(from, piece) & enemy;
            for to in squares(targets) {
                list.push(Move::raw(from, to, 7));
                if piece.role.is_soldier() && far & to.bb() != 0 {
                    for code in 0..6 {
                        list.push(Move::raw(from, to, code));
                    }
                }
            }
        }
    }

    /// Every piece (of both sides) in `occ` that attacks `sq` when exactly the squares of
    /// `occ` are occupied (`sq` counts as occupied: it holds the piece to capture): pieces
    /// outside `occ` count as gone, and lines, screens and legs are
    /// judged by `occ`. With `occ = self.occupied()` it holds the pieces whose
    /// [`Position::attacks_from`] contains `sq`; static exchange evaluation removes captured
    /// pieces from `occ` one by one.
    ///
    /// ```
    /// use chuhe::xiongqi::{Position, Square};
    /// let pos = Position::start();
    /// let c6: Square = "c6".parse().unwrap();
    /// // South's cannon on c2 (over the screen on c3), and North's horse on b8 (through its
    /// // free leg b7) defending.
    /// assert_eq!(pos.attackers_to(c6, pos.occupied()).count_ones(), 2);
    /// ```
    pub fn attackers_to(&self, sq: Square, occ: u64) -> u64 {
        let i = sq.index();
        let r = |role: Role| self.by_role[role.index()] & occ;
        let of = |side: Side, role: Role| r(role) & self.by_side[side.index()];
        let rook = rook_attacks(sq, occ);
        let mut bb = ORTHOGONAL_STEPS[i] & r(Role::General)
            | rook & (r(Role::Dragon) | r(Role::Chariot) | r(Role::Empress))
            | KNIGHT_LEAPS[i] & r(Role::Empress)
            | DIAGONAL_STEPS[i] & r(Role::Advisor)
            | bishop_attacks(sq, occ) & r(Role::Bear)
            | cannon_captures(sq, occ) & r(Role::Cannon);
        for horse in squares(r(Role::Horse)) {
            if horse_attacks(horse, occ) & sq.bb() != 0 {
                bb |= horse.bb();
            }
        }
        for side in Side::BOTH {
            // A soldier of `side` attacks `sq` from where the other side's soldier would step.
            let other = (!side).index();
            bb |= SOLDIER_STEPS[other][i] & of(side, Role::Soldier)
                | CROSSED_SOLDIER_STEPS[other][i] & of(side, Role::CrossedSoldier);
        }
        bb
    }

    /// The squares the piece on `sq` attacks: where it could capture an enemy piece by the
    /// movement rules, own pieces' squares included (those it protects). Empty for an empty
    /// square.
    ///
    /// ```
    /// use chuhe::xiongqi::{Position, Square};
    /// let pos = Position::start();
    /// let horse: Square = "b1".parse().unwrap();
    /// // Through the free leg b2 onto a3 and c3, where its own soldiers stand.
    /// assert_eq!(pos.attacks_from(horse).count_ones(), 2);
    /// ```
    pub fn attacks_from(&self, sq: Square) -> u64 {
        let Some(piece) = self.piece_at(sq) else {
            return 0;
        };
        let occ = self.occupied();
        let side = piece.side.index();
        let i = sq.index();
        match piece.role {
            Role::General => ORTHOGONAL_STEPS[i],
            Role::Dragon | Role::Chariot => rook_attacks(sq, occ),
            Role::Advisor => DIAGONAL_STEPS[i],
            Role::Bear => bishop_attacks(sq, occ),
            Role::Cannon => cannon_captures(sq, occ),
            Role::Horse => horse_attacks(sq, occ),
            Role::Empress => rook_attacks(sq, occ) | KNIGHT_LEAPS[i],
            Role::Soldier => SOLDIER_STEPS[side][i],
            Role::CrossedSoldier => CROSSED_SOLDIER_STEPS[side][i],
        }
    }

    /// The number of moves [`Position::generate_moves`] would produce, without listing them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let side = self.turn;
        let far = far_rank(side);
        let mut n = 0u64;
        for from in squares(self.by_side[side.index()]) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            let targets = self.targets(from, piece);
            n += targets.count_ones() as u64;
            if piece.role.is_soldier() {
                n += 6 * (targets & far).count_ones() as u64;
            }
        }
        n
    }

    /// Is `m` allowed by the movement rules here (ignoring game end and repetition)?
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.side != self.turn || self.targets(m.from(), piece) & m.to().bb() == 0 {
            return false;
        }
        m.promotion().is_none()
            || (piece.role.is_soldier() && far_rank(piece.side) & m.to().bb() != 0)
    }

    /// The legal moves when no history is known (X8): every movement-legal move, or none when
    /// the game is over (X7). [`crate::xiongqi::Game::legal_moves`] also applies repetition (X6).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if !self.is_over_before_moving() {
            self.generate_moves(&mut list);
        }
        list
    }

    // ----- making moves ------------------------------------------------------------------

    /// Plays a move without checking it. `m` must come from [`Position::generate_moves`] for
    /// this position; anything else leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        let p = self.board[from.index()];
        if p == EMPTY {
            return;
        }
        let piece = Piece::from_index(p as usize);
        let side = piece.side;
        self.remove(from, piece);
        let c = self.board[to.index()];
        let captured = c != EMPTY;
        if captured {
            let victim = Piece::from_index(c as usize);
            self.remove(to, victim);
            self.hands[side.index()][c as usize] += 1;
        }
        let role = match m.promotion() {
            Some(r) => r,
            None if piece.role == Role::Soldier && across_river(side) & to.bb() != 0 => {
                Role::CrossedSoldier
            }
            None => piece.role,
        };
        self.put(to, Piece::new(side, role));
        if captured || piece.role.is_soldier() {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.apply_face_to_face();
        self.turn = !self.turn;
        self.hash ^= SIDE_KEY;
    }

    /// X3: generals on one file, South's below North's, nothing between → both become dragons.
    #[inline(always)]
    fn apply_face_to_face(&mut self) {
        let generals = self.by_role[Role::General.index()];
        if generals == 0 {
            return;
        }
        let south = generals & self.by_side[0];
        let north = generals & self.by_side[1];
        if south == 0 || north == 0 {
            return;
        }
        let s = Square::from_index_unchecked(south.trailing_zeros() as u8);
        let n = Square::from_index_unchecked(north.trailing_zeros() as u8);
        if Self::generals_face(s, n, self.occupied()) {
            for (sq, side) in [(s, Side::First), (n, Side::Second)] {
                self.remove(sq, Piece::new(side, Role::General));
                self.put(sq, Piece::new(side, Role::Dragon));
            }
        }
    }

    /// Would generals on `south` and `north` be face to face (X3)?
    pub(crate) fn generals_face(south: Square, north: Square, occupied: u64) -> bool {
        south.file() == north.file()
            && south.rank() < north.rank()
            && between_on_file(south, north) & occupied == 0
    }

    /// Does `m` capture?
    pub fn is_capture(&self, m: Move) -> bool {
        self.by_side[(!self.turn).index()] & m.to().bb() != 0
    }

    /// Does `m` trigger the face-to-face transformation (X3)? Such moves are written with `~`.
    pub fn triggers_face_to_face(&self, m: Move) -> bool {
        if self.by_role[Role::General.index()].count_ones() != 2 {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        after.by_role[Role::Dragon.index()] != 0 && self.by_role[Role::Dragon.index()] == 0
    }

    // ----- status ------------------------------------------------------------------------

    /// Is the square attacked by a piece of `attacker` (a pseudo-legal capture onto it)?
    pub fn is_attacked(&self, target: Square, attacker: Side) -> bool {
        let a = self.by_side[attacker.index()];
        let occ = self.occupied();
        let t = target.index();
        let r = |role: Role| self.by_role[role.index()] & a;
        if ORTHOGONAL_STEPS[t] & r(Role::General) != 0
            || DIAGONAL_STEPS[t] & r(Role::Advisor) != 0
            || KNIGHT_LEAPS[t] & r(Role::Empress) != 0
            || rook_attacks(target, occ) & (r(Role::Dragon) | r(Role::Chariot) | r(Role::Empress))
                != 0
            || bishop_attacks(target, occ) & r(Role::Bear) != 0
            || cannon_captures(target, occ) & r(Role::Cannon) != 0
            || SOLDIER_STEPS[(!attacker).index()][t] & r(Role::Soldier) != 0
        {
            return true;
        }
        // A crossed soldier attacks forward and sideways: reverse of "forward" is the other
        // side's forward step; sideways is symmetric.
        let crossed_from = SOLDIER_STEPS[(!attacker).index()][t]
            | (CROSSED_SOLDIER_STEPS[0][t] & rank_bb(target.rank()));
        if crossed_from & r(Role::CrossedSoldier) != 0 {
            return true;
        }
        squares(r(Role::Horse)).any(|h| horse_attacks(h, occ) & target.bb() != 0)
    }

    /// Is the side to move's terminal piece attacked (CGSN `check`, informative only: X4)?
    pub fn is_check(&self) -> bool {
        self.terminal(self.turn)
            .is_some_and(|sq| self.is_attacked(sq, !self.turn))
    }

    /// Is the game over before the side to move plays, by X7 1, 3 or 5 (not by stalemate)?
    #[inline]
    pub fn is_over_before_moving(&self) -> bool {
        self.static_outcome().is_some()
    }

    /// The outcome decided by the position alone, by X7 1 (`mareking`), 3 (`insufficient`) and
    /// 5 (`movelimit`), in that order. Stalemate needs the legal moves: see [`Position::outcome`].
    pub fn static_outcome(&self) -> Option<Outcome> {
        let south = self.terminal(Side::First);
        let north = self.terminal(Side::Second);
        match (south, north) {
            (Some(_), None) => return Some(Outcome::win(Status::Mareking, Side::First)),
            (None, Some(_)) => return Some(Outcome::win(Status::Mareking, Side::Second)),
            (None, None) => return Some(Outcome::draw(Status::Mareking)),
            _ => {}
        }
        if self.occupied().count_ones() == 2 {
            return Some(Outcome::draw(Status::Insufficient));
        }
        if self.halfmove >= 100 {
            // X7 4 comes before 5: a side with no move at all loses even at the move limit.
            if self.count_moves() == 0 {
                return Some(Outcome::win(Status::Stalemate, !self.turn));
            }
            return Some(Outcome::draw(Status::Movelimit));
        }
        None
    }

    /// The outcome of this position without history: X7 in order, stalemate included.
    pub fn outcome(&self) -> Option<Outcome> {
        self.static_outcome().or_else(|| {
            (self.count_moves() == 0).then(|| Outcome::win(Status::Stalemate, !self.turn))
        })
    }

    /// The position with ranks flipped and sides swapped (hands swapped, other side to move).
    pub fn mirrored(&self) -> Position {
        let mut m = Position::empty();
        for s in squares(self.occupied()) {
            let p = Piece::from_index(self.board[s.index()] as usize);
            m.put(s.flip_rank(), Piece::new(!p.side, p.role));
        }
        for owner in [Side::First, Side::Second] {
            for (p, n) in self.hand(owner) {
                m.hands[(!owner).index()][Piece::new(!p.side, p.role).index()] = n;
            }
        }
        m.halfmove = self.halfmove;
        m.set_turn(!self.turn);
        m
    }
}

#[inline]
fn sq(file: u8, rank: u8) -> Square {
    Square::from_index_unchecked(rank * 8 + file)
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_feen())
    }
}

#[cfg(test)]
mod attackers_tests {
    use super::*;

    /// `attackers_to` with pieces taken out of the occupancy equals the reverse of
    /// `attacks_from` on the position with those pieces really removed.
    #[test]
    fn attackers_to_sees_through_removed_pieces() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _game in 0..40 {
            let mut pos = Position::start();
            for _ply in 0..(next() % 80) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            }
            let mut thinned = pos.clone();
            let mut occ = pos.occupied();
            for sq in squares(pos.occupied()) {
                if next() % 3 == 0 {
                    thinned.remove(sq, Piece::from_index(thinned.board[sq.index()] as usize));
                    occ &= !sq.bb();
                }
            }
            for target in squares(occ) {
                let expected = squares(occ)
                    .filter(|&from| thinned.attacks_from(from) & target.bb() != 0)
                    .fold(0u64, |bb, from| bb | from.bb());
                assert_eq!(
                    pos.attackers_to(target, occ),
                    expected,
                    "{target} in {pos:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 500);
    }
}
