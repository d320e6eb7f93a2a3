//! The validated Xiangqi position and its move generation, for both rule sets.

use chuhe_notation::{Side, Status};

use super::attacks::{
    cannon_captures, elephant_attacks, file_attacks, horse_attackers, horse_attacks, line_pieces,
    own_half, rook_attacks, soldier_steps, ADVISOR_STEPS, GENERAL_STEPS, HORSE_ATTACKERS,
    HORSE_ATTACKER_POINTS, SOLDIER_ATTACKERS, SOLDIER_STEPS,
};
use super::bitboard::{squares, Square};
use super::types::{Move, Piece, Role, RuleSet};
use super::MoveList;
use crate::zobrist;
use crate::Outcome;

const EMPTY: u8 = u8::MAX;

static PIECE_KEYS: [u64; 14 * 90] = zobrist::keys(0x5869_616E_6771_6921);
const SIDE_KEY: u64 = zobrist::splitmix64(0x0000_5245_4442_4C4B).1;

#[inline(always)]
fn piece_key(piece_index: usize, sq: Square) -> u64 {
    PIECE_KEYS[piece_index * 90 + sq.index()]
}

/// A Xiangqi position, valid by construction (see [`Position::from_text`]).
///
/// ```
/// use chuhe::xiangqi::{perft, Position};
/// let pos = Position::start();
/// assert_eq!(pos.legal_moves().len(), 44);
/// assert_eq!(perft(&pos, 3), 79666);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_role: [u128; 7],
    pub(crate) by_side: [u128; 2],
    pub(crate) board: [u8; 90],
    /// `hands[owner][piece index]`: captured pieces (FEEN only; they never return).
    pub(crate) hands: [[u8; 14]; 2],
    pub(crate) turn: Side,
    /// Plies since the last capture (S4), from the FEN's half-move field.
    pub(crate) halfmove: u32,
    /// Plies since the game's start (C4, and the FEN's move number).
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) rules: RuleSet,
    /// S3's fold count: the game ends when a position occurs this many times.
    pub(crate) fold: u8,
}

impl Position {
    pub(crate) fn empty(rules: RuleSet) -> Position {
        Position {
            by_role: [0; 7],
            by_side: [0; 2],
            board: [EMPTY; 90],
            hands: [[0; 14]; 2],
            turn: Side::First,
            halfmove: 0,
            ply: 0,
            hash: 0,
            rules,
            fold: 3,
        }
    }

    /// The standard start position.
    pub fn start() -> Position {
        Position::start_with(RuleSet::Standard)
    }

    /// The start position under a rule set.
    pub fn start_with(rules: RuleSet) -> Position {
        let mut pos = Position::empty(rules);
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::General,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
        ];
        for (f, &role) in back.iter().enumerate() {
            let f = f as u8;
            pos.put(sq(f, 0), Piece::new(Side::First, role));
            pos.put(sq(f, 9), Piece::new(Side::Second, role));
        }
        for f in [1, 7] {
            pos.put(sq(f, 2), Piece::new(Side::First, Role::Cannon));
            pos.put(sq(f, 7), Piece::new(Side::Second, Role::Cannon));
        }
        for f in [0, 2, 4, 6, 8] {
            pos.put(sq(f, 3), Piece::new(Side::First, Role::Soldier));
            pos.put(sq(f, 6), Piece::new(Side::Second, Role::Soldier));
        }
        pos.hash = pos.compute_hash();
        pos
    }

    // ----- accessors -------------------------------------------------------------------

    /// The side to move (`First` = Red).
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Plies since the last capture (S4).
    #[inline]
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Sets the plies-since-capture clock.
    pub fn set_halfmove(&mut self, halfmove: u32) {
        self.halfmove = halfmove;
    }

    /// Plies played since the start of the game (C4; FEN move number = `ply / 2 + 1`).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Sets the game's ply count.
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// The rule set.
    #[inline]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// S3's fold count (3 by default, as pyffish; the online site claims at 4).
    #[inline]
    pub fn repetition_fold(&self) -> u8 {
        self.fold
    }

    /// Sets S3's fold count: the game ends when a position occurs this many times. A count
    /// below 2 is refused (a position always occurs once), and the position is unchanged.
    ///
    /// ```
    /// use chuhe::xiangqi::Position;
    /// let mut pos = Position::start();
    /// assert!(pos.set_repetition_fold(4).is_ok());
    /// assert_eq!(pos.repetition_fold(), 4);
    /// assert!(pos.set_repetition_fold(1).is_err());
    /// assert_eq!(pos.repetition_fold(), 4);
    /// ```
    pub fn set_repetition_fold(&mut self, fold: u8) -> Result<(), RepetitionFoldError> {
        if fold < 2 {
            return Err(RepetitionFoldError { fold });
        }
        self.fold = fold;
        Ok(())
    }

    /// The same position under another rule set.
    pub fn with_rules(&self, rules: RuleSet) -> Position {
        let mut p = self.clone();
        p.rules = rules;
        p
    }

    /// Zobrist hash of placement and side to move (the repetition identity).
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

    /// All occupied points.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_side[0] | self.by_side[1]
    }

    /// One side's pieces.
    #[inline]
    pub fn side_bb(&self, side: Side) -> u128 {
        self.by_side[side.index()]
    }

    /// Pieces of a role (both sides).
    #[inline]
    pub fn role_bb(&self, role: Role) -> u128 {
        self.by_role[role.index()]
    }

    #[inline(always)]
    fn pieces(&self, side: Side, role: Role) -> u128 {
        self.by_role[role.index()] & self.by_side[side.index()]
    }

    /// The square of a side's general.
    #[inline]
    pub fn general(&self, side: Side) -> Option<Square> {
        squares(self.pieces(side, Role::General)).next()
    }

    /// How many of `piece` the `owner` holds (captured pieces, shown in FEEN).
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

    /// Same placement and side to move (the repetition identity)?
    pub fn same_identity(&self, other: &Position) -> bool {
        self.by_role == other.by_role && self.by_side == other.by_side && self.turn == other.turn
    }

    /// Is a soldier on `sq` of `side` across the river?
    pub fn is_across_river(side: Side, sq: Square) -> bool {
        own_half(side.index()) & sq.bb() == 0
    }

    // ----- editing ------------------------------------------------------------------------

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

    /// The hash from scratch (tests compare it with the incremental one).
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

    pub(crate) fn set_turn(&mut self, turn: Side) {
        self.turn = turn;
        self.hash = self.compute_hash();
    }

    /// The same position with `side` to move (for analysis; it may not be reachable).
    pub fn with_turn(&self, side: Side) -> Position {
        let mut p = self.clone();
        p.set_turn(side);
        p
    }

    // ----- attacks ------------------------------------------------------------------------

    /// Is `target` attacked by `attacker`'s pieces given `occ` and the attacker's pieces
    /// `theirs` (so a move can be tested before it is made)? The facing general counts (S1).
    #[inline(always)]
    pub(crate) fn attacked_with(
        &self,
        target: Square,
        attacker: Side,
        occ: u128,
        theirs: u128,
    ) -> bool {
        let r = |role: Role| self.by_role[role.index()] & theirs;
        rook_attacks(target, occ) & r(Role::Chariot) != 0
            || cannon_captures(target, occ) & r(Role::Cannon) != 0
            || horse_attackers(target, r(Role::Horse), occ) != 0
            || SOLDIER_ATTACKERS[attacker.index()][target.index()] & r(Role::Soldier) != 0
            || file_attacks(target, occ) & r(Role::General) != 0
    }

    /// Is the square attacked by `attacker` (flying general included)?
    pub fn is_attacked(&self, target: Square, attacker: Side) -> bool {
        self.attacked_with(
            target,
            attacker,
            self.occupied(),
            self.by_side[attacker.index()],
        )
    }

    /// Is the side to move's general attacked (or facing the other general)?
    pub fn is_check(&self) -> bool {
        self.general(self.turn)
            .is_some_and(|g| self.is_attacked(g, !self.turn))
    }

    // ----- move generation ------------------------------------------------------------------

    /// Destinations of the piece on `from` by the movement rules (own pieces excluded).
    #[inline(always)]
    fn targets(&self, from: Square, piece: Piece, occ: u128) -> u128 {
        let side = piece.side.index();
        let own = self.by_side[side];
        let enemy = self.by_side[side ^ 1];
        let i = from.index();
        match piece.role {
            Role::General => {
                let mut t = GENERAL_STEPS[side][i] & !own;
                if self.rules == RuleSet::Capture {
                    // C2: the flying capture of the facing general.
                    t |= file_attacks(from, occ) & self.pieces(!piece.side, Role::General);
                }
                t
            }
            Role::Advisor => ADVISOR_STEPS[side][i] & !own,
            Role::Elephant => elephant_attacks(side, from, occ) & !own,
            Role::Horse => horse_attacks(from, occ) & !own,
            Role::Chariot => rook_attacks(from, occ) & !own,
            Role::Cannon => (rook_attacks(from, occ) & !occ) | (cannon_captures(from, occ) & enemy),
            Role::Soldier => SOLDIER_STEPS[side][i] & !own,
        }
    }

    /// Would the mover's general be safe after `from → to` (S1)?
    #[inline(always)]
    fn is_safe(&self, from: Square, to: Square, general: Square) -> bool {
        let us = self.turn;
        let king = if general == from { to } else { general };
        let occ = (self.occupied() & !from.bb()) | to.bb();
        let theirs = self.by_side[(!us).index()] & !to.bb();
        !self.attacked_with(king, !us, occ, theirs)
    }

    /// What the safety of the mover's general on `general` asks of the moves (S1), found once
    /// per position from the lines through the general, the horses around it and the soldiers
    /// next to it.
    #[inline(always)]
    fn guard(&self, general: Square) -> GeneralGuard {
        let them = !self.turn;
        let ours = self.by_side[self.turn.index()];
        let occ = self.occupied();
        let chariots = self.pieces(them, Role::Chariot);
        let cannons = self.pieces(them, Role::Cannon);
        let mut guard = GeneralGuard {
            in_check: false,
            evasion: u128::MAX,
            screens: 0,
            pinned: 0,
            screen_points: 0,
        };
        for (ray, line) in line_pieces(general, occ).iter().enumerate() {
            // The facing generals (S1) act as a chariot along the file.
            let sliders = if ray < 2 {
                chariots | self.pieces(them, Role::General)
            } else {
                chariots
            };
            let [first, second, third] = line.pieces;
            if first & sliders != 0 {
                guard.check(line.reach[0]);
            } else if second & cannons != 0 {
                guard.check(line.reach[1]);
                guard.screens |= first & ours;
            } else {
                // Leaving the line would let a chariot through or leave a cannon one screen.
                if second & sliders != 0 {
                    guard.pinned |= first & ours;
                }
                if third & cannons != 0 {
                    guard.pinned |= (first | second) & ours;
                }
                // A piece arriving between the general and a cannon becomes its screen.
                if first & cannons != 0 {
                    guard.screen_points |= line.reach[0] & !first;
                }
            }
        }
        let horses = self.pieces(them, Role::Horse);
        if HORSE_ATTACKER_POINTS[general.index()] & horses != 0 {
            for attacker in &HORSE_ATTACKERS[general.index()] {
                if attacker.targets & horses != 0 {
                    if attacker.block & occ == 0 {
                        guard.check(attacker.block | attacker.targets);
                    } else {
                        // An own piece on the horse's leg may not leave it.
                        guard.pinned |= attacker.block & ours;
                    }
                }
            }
        }
        let soldiers =
            SOLDIER_ATTACKERS[them.index()][general.index()] & self.pieces(them, Role::Soldier);
        for soldier in squares(soldiers) {
            guard.check(soldier.bb());
        }
        guard
    }

    /// Visits every legal move to a point of `mask`: `visit(from, to_set)` gets each piece's
    /// legal destinations within `mask`.
    ///
    /// Under the standard rules [`Position::guard`] sorts the moves first: out of check, a
    /// piece that is not pinned moving to a point where it screens no cannon is legal as it
    /// is; in check, a piece other than the general and a cannon's screen must take a checker
    /// or block it. What remains (the general's moves, pinned pieces, new screens, the answers
    /// to a check) is tried on the board by [`Position::is_safe`].
    #[inline(always)]
    fn for_each_legal(&self, mask: u128, mut visit: impl FnMut(Square, u128)) {
        let us = self.turn;
        let occ = self.occupied();
        if self.rules == RuleSet::Capture {
            for from in squares(self.by_side[us.index()]) {
                let piece = Piece::from_index(self.board[from.index()] as usize);
                visit(from, self.targets(from, piece, occ) & mask);
            }
            return;
        }
        let Some(general) = self.general(us) else {
            return;
        };
        let guard = self.guard(general);
        for from in squares(self.by_side[us.index()]) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            let targets = self.targets(from, piece, occ) & mask;
            if targets != 0 {
                visit(
                    from,
                    self.keep_legal(from, piece.role, targets, &guard, general),
                );
            }
        }
    }

    /// The legal ones among `targets`, the destinations of the mover's `role` on `from` by
    /// the movement rules (standard rules; `guard` is [`Position::guard`] of `general`).
    #[inline(always)]
    fn keep_legal(
        &self,
        from: Square,
        role: Role,
        targets: u128,
        guard: &GeneralGuard,
        general: Square,
    ) -> u128 {
        let (mut safe, unsure) = if role == Role::General {
            (0, targets)
        } else if guard.in_check {
            if guard.screens & from.bb() != 0 {
                (0, targets)
            } else {
                (0, targets & guard.evasion)
            }
        } else if guard.pinned & from.bb() != 0 {
            (0, targets)
        } else {
            (
                targets & !guard.screen_points,
                targets & guard.screen_points,
            )
        };
        for to in squares(unsure) {
            if self.is_safe(from, to, general) {
                safe |= to.bb();
            }
        }
        safe
    }

    /// The number of legal moves of the mover's pieces of `role` on `from_set` (standard
    /// rules). `free`: the general is not in check and none of them is pinned, so only an
    /// arrival on a screen point needs a try.
    #[inline(always)]
    fn count_role(
        &self,
        role: Role,
        from_set: u128,
        free: bool,
        guard: &GeneralGuard,
        general: Square,
    ) -> u32 {
        let piece = Piece::new(self.turn, role);
        let occ = self.occupied();
        let mut n = 0;
        for from in squares(from_set) {
            let targets = self.targets(from, piece, occ);
            if free {
                let unsure = targets & guard.screen_points;
                n += (targets ^ unsure).count_ones();
                for to in squares(unsure) {
                    n += u32::from(self.is_safe(from, to, general));
                }
            } else {
                n += self
                    .keep_legal(from, role, targets, guard, general)
                    .count_ones();
            }
        }
        n
    }

    /// [`Position::count_role`] for the soldiers: out of check, all of them at once.
    #[inline(always)]
    fn count_soldiers(
        &self,
        soldiers: u128,
        free: bool,
        guard: &GeneralGuard,
        general: Square,
    ) -> u32 {
        if !free {
            return self.count_role(Role::Soldier, soldiers, false, guard, general);
        }
        let own = self.by_side[self.turn.index()];
        let mut n = 0;
        for (steps, delta) in soldier_steps(self.turn.index(), soldiers) {
            let targets = steps & !own;
            let unsure = targets & guard.screen_points;
            n += (targets ^ unsure).count_ones();
            for to in squares(unsure) {
                let from = Square::from_index_unchecked((to.index() as i32 - delta) as u8);
                n += u32::from(self.is_safe(from, to, general));
            }
        }
        n
    }

    /// Appends the legal moves (S1 for `xiangqi`; every movement-valid move for
    /// `xiangqi-capture`, C1–C2). No game-end check.
    pub fn generate_moves(&self, list: &mut MoveList) {
        self.for_each_legal(u128::MAX, |from, targets| {
            for to in squares(targets) {
                list.push(Move::new(from, to));
            }
        });
    }

    /// Appends every move the movement rules allow the side to move, the general's safety
    /// aside: what the GGN table lists ([`crate::ggn::xiangqi_table`]). For `xiangqi` these are
    /// [`Position::generate_moves`] before S1 (a move may leave the own general attacked or
    /// facing the other); for `xiangqi-capture` the two are the same (C1), the flying capture
    /// of C2 included. No game-end check.
    ///
    /// ```
    /// use chuhe::xiangqi::{MoveList, Position, RuleSet};
    /// // Black's general on d10: Red's general stepping from e1 to d1 would face it.
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", RuleSet::Standard).unwrap();
    /// let (mut pseudo, mut legal) = (MoveList::new(), MoveList::new());
    /// pos.generate_pseudo_legal(&mut pseudo);
    /// pos.generate_moves(&mut legal);
    /// assert_eq!(pseudo.len(), 3); // d1, e2, f1
    /// assert_eq!(legal.len(), 2); // e2, f1 (S1)
    /// ```
    pub fn generate_pseudo_legal(&self, list: &mut MoveList) {
        let occ = self.occupied();
        for from in squares(self.by_side[self.turn.index()]) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            for to in squares(self.targets(from, piece, occ)) {
                list.push(Move::new(from, to));
            }
        }
    }

    /// Appends the legal captures: [`Position::generate_moves`] restricted to moves that take
    /// a piece (for quiescence search).
    ///
    /// ```
    /// use chuhe::xiangqi::{MoveList, Position};
    /// let pos = Position::start();
    /// let mut captures = MoveList::new();
    /// pos.generate_captures(&mut captures);
    /// assert_eq!(captures.len(), 2); // the cannons take the horses
    /// ```
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.for_each_legal(self.by_side[(!self.turn).index()], |from, targets| {
            for to in squares(targets) {
                list.push(Move::new(from, to));
            }
        });
    }

    /// Every piece (of both sides) in `occ` that attacks `sq` when exactly the points of
    /// `occ` are occupied (`sq` counts as occupied: it holds the piece to capture): pieces
    /// outside `occ` count as gone, and lines, screens, legs and
    /// eyes are judged by `occ`. With `occ = self.occupied()` it holds the pieces whose
    /// [`Position::attacks_from`] contains `sq`; static exchange evaluation removes captured
    /// pieces from `occ` one by one.
    ///
    /// ```
    /// use chuhe::xiangqi::{Position, Square};
    /// let pos = Position::start();
    /// let b10: Square = "b10".parse().unwrap();
    /// // Red's cannon on b3 (over the screen on b8) and Black's chariot on a10 (a defender).
    /// assert_eq!(pos.attackers_to(b10, pos.occupied()).count_ones(), 2);
    /// ```
    pub fn attackers_to(&self, sq: Square, occ: u128) -> u128 {
        let i = sq.index();
        let r = |role: Role| self.by_role[role.index()] & occ;
        let of = |side: Side, role: Role| r(role) & self.by_side[side.index()];
        let mut bb = rook_attacks(sq, occ) & r(Role::Chariot)
            | cannon_captures(sq, occ) & r(Role::Cannon)
            | horse_attackers(sq, r(Role::Horse), occ);
        for side in [Side::First, Side::Second] {
            let s = side.index();
            bb |= SOLDIER_ATTACKERS[s][i] & of(side, Role::Soldier)
                | ADVISOR_STEPS[s][i] & of(side, Role::Advisor)
                | elephant_attacks(s, sq, occ) & of(side, Role::Elephant)
                | GENERAL_STEPS[s][i] & of(side, Role::General);
        }
        if self.rules == RuleSet::Capture {
            // C2: a general facing the enemy general on an open file attacks it.
            if let Some(victim) = self.piece_at(sq).filter(|p| p.role == Role::General) {
                bb |= file_attacks(sq, occ) & of(!victim.side, Role::General);
            }
        }
        bb
    }

    /// The points the piece on `sq` attacks: where it could capture an enemy piece by the
    /// movement rules, own pieces' points included (those it protects), the general's safety
    /// aside. Empty for an empty point.
    ///
    /// ```
    /// use chuhe::xiangqi::{Position, Square};
    /// let pos = Position::start();
    /// let cannon: Square = "b3".parse().unwrap();
    /// // Over Black's cannon on b8 (the screen) onto the horse on b10.
    /// assert!(pos.attacks_from(cannon) & "b10".parse::<Square>().unwrap().bb() != 0);
    /// ```
    pub fn attacks_from(&self, sq: Square) -> u128 {
        let Some(piece) = self.piece_at(sq) else {
            return 0;
        };
        let side = piece.side.index();
        let occ = self.occupied();
        let i = sq.index();
        match piece.role {
            Role::General => {
                let mut t = GENERAL_STEPS[side][i];
                if self.rules == RuleSet::Capture {
                    t |= file_attacks(sq, occ) & self.pieces(!piece.side, Role::General);
                }
                t
            }
            Role::Advisor => ADVISOR_STEPS[side][i],
            Role::Elephant => elephant_attacks(side, sq, occ),
            Role::Horse => horse_attacks(sq, occ),
            Role::Chariot => rook_attacks(sq, occ),
            Role::Cannon => cannon_captures(sq, occ),
            Role::Soldier => SOLDIER_STEPS[side][i],
        }
    }

    /// The number of moves [`Position::generate_moves`] would produce.
    ///
    /// Perft's last ply: the pieces are taken role by role (no branch on each piece's role).
    pub fn count_moves(&self) -> u64 {
        if self.rules == RuleSet::Capture {
            let mut n = 0u64;
            self.for_each_legal(u128::MAX, |_, targets| n += targets.count_ones() as u64);
            return n;
        }
        let Some(general) = self.general(self.turn) else {
            return 0;
        };
        let guard = self.guard(general);
        let free = !guard.in_check;
        let unpinned = |role: Role| self.pieces(self.turn, role) & !guard.pinned;
        let mut n = 0;
        n += self.count_role(
            Role::Chariot,
            unpinned(Role::Chariot),
            free,
            &guard,
            general,
        );
        n += self.count_role(Role::Cannon, unpinned(Role::Cannon), free, &guard, general);
        n += self.count_role(Role::Horse, unpinned(Role::Horse), free, &guard, general);
        n += self.count_soldiers(unpinned(Role::Soldier), free, &guard, general);
        n += self.count_role(
            Role::Elephant,
            unpinned(Role::Elephant),
            free,
            &guard,
            general,
        );
        n += self.count_role(
            Role::Advisor,
            unpinned(Role::Advisor),
            free,
            &guard,
            general,
        );
        n += self.count_role(
            Role::General,
            unpinned(Role::General),
            false,
            &guard,
            general,
        );
        for from in squares(guard.pinned) {
            let piece = Piece::from_index(self.board[from.index()] as usize);
            let targets = self.targets(from, piece, self.occupied());
            n += self
                .keep_legal(from, piece.role, targets, &guard, general)
                .count_ones();
        }
        u64::from(n)
    }

    /// Is `m` a legal move here (ignoring game end and history)?
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.side != self.turn
            || self.targets(m.from(), piece, self.occupied()) & m.to().bb() == 0
        {
            return false;
        }
        match (self.rules, self.general(self.turn)) {
            (RuleSet::Capture, _) => true,
            (RuleSet::Standard, Some(g)) => self.is_safe(m.from(), m.to(), g),
            (RuleSet::Standard, None) => false,
        }
    }

    /// The legal moves, or none when the game is over by the position alone.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.static_outcome().is_none() {
            self.generate_moves(&mut list);
        }
        list
    }

    /// Does `m` capture?
    pub fn is_capture(&self, m: Move) -> bool {
        self.by_side[(!self.turn).index()] & m.to().bb() != 0
    }

    /// Does `m` give check (the opponent's general attacked afterwards)?
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.is_check()
    }

    // ----- making moves ----------------------------------------------------------------------

    /// Plays a move without checking it (it must come from [`Position::generate_moves`]).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let p = self.board[from.index()];
        if p == EMPTY {
            return;
        }
        let piece = Piece::from_index(p as usize);
        self.remove(from, piece);
        let c = self.board[to.index()];
        if c != EMPTY {
            self.remove(to, Piece::from_index(c as usize));
            self.hands[piece.side.index()][c as usize] += 1;
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.put(to, piece);
        self.ply = self.ply.saturating_add(1);
        self.turn = !self.turn;
        self.hash ^= SIDE_KEY;
    }

    // ----- status -------------------------------------------------------------------------

    /// Does neither side have a chariot, horse, cannon or soldier (S5)?
    pub fn is_insufficient_material(&self) -> bool {
        let attackers = self.by_role[Role::Chariot.index()]
            | self.by_role[Role::Horse.index()]
            | self.by_role[Role::Cannon.index()]
            | self.by_role[Role::Soldier.index()];
        attackers == 0
    }

    /// The outcome decided by the position alone, before looking at the moves:
    /// `xiangqi`: S5 insufficient material; `xiangqi-capture`: a captured general (C3) and the
    /// 100-ply limit (C4). The plies-since-capture limit (S4) needs the move list: see
    /// [`Position::outcome`].
    pub fn static_outcome(&self) -> Option<Outcome> {
        match self.rules {
            RuleSet::Standard => self
                .is_insufficient_material()
                .then(|| Outcome::draw(Status::Insufficient)),
            RuleSet::Capture => {
                match (self.general(Side::First), self.general(Side::Second)) {
                    (Some(_), None) => return Some(Outcome::win(Status::Mareking, Side::First)),
                    (None, Some(_)) => return Some(Outcome::win(Status::Mareking, Side::Second)),
                    (None, None) => return Some(Outcome::draw(Status::Mareking)),
                    _ => {}
                }
                (self.ply >= 100).then(|| Outcome::draw(Status::Movelimit))
            }
        }
    }

    /// The outcome without history, in the order of [`crate::xiangqi::Game`]: the static
    /// ones, the 100-ply rule unless checkmated (S4), then no legal move (S2 / C3).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.static_outcome() {
            return Some(o);
        }
        let no_moves = self.count_moves() == 0;
        let standard = self.rules == RuleSet::Standard;
        if standard && self.halfmove >= 100 && !(no_moves && self.is_check()) {
            return Some(Outcome::draw(Status::Movelimit));
        }
        no_moves.then(|| {
            let status = if standard && self.is_check() {
                Status::Checkmate
            } else {
                Status::Stalemate
            };
            Outcome::win(status, !self.turn)
        })
    }

    /// Ranks flipped and sides swapped, the other side to move.
    pub fn mirrored(&self) -> Position {
        let mut m = Position::empty(self.rules);
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
        m.ply = self.ply;
        m.set_turn(!self.turn);
        m
    }
}

/// The constraints the mover's general puts on the other moves (standard rules), from
/// [`Position::guard`]. A move it does not flag is legal; a flagged one is tried on the board.
struct GeneralGuard {
    /// The general is attacked (or faces the other general).
    in_check: bool,
    /// In check: the points where a piece other than the general must arrive to answer every
    /// checker (take it, or stand between it and the general or on its horse leg).
    evasion: u128,
    /// In check by a cannon: the own screen, which may also answer by leaving the line.
    screens: u128,
    /// Own pieces whose leaving may expose the general: alone before a chariot or the other
    /// general, one of two screens before a cannon, on the leg of a horse aimed at the general.
    pinned: u128,
    /// Empty points between the general and a cannon with nothing between them.
    screen_points: u128,
}

impl GeneralGuard {
    /// Records a checker: a move answers it only by reaching a point of `answers`.
    #[inline(always)]
    fn check(&mut self, answers: u128) {
        self.in_check = true;
        self.evasion &= answers;
    }
}

/// A repetition fold count below 2, refused by [`Position::set_repetition_fold`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the repetition fold count must be at least 2 (a position occurring that many times ends the game), not {fold}")]
pub struct RepetitionFoldError {
    /// The count given.
    pub fold: u8,
}

#[inline]
fn sq(file: u8, rank: u8) -> Square {
    Square::from_index_unchecked(rank * 9 + file)
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod legality_tests {
    use super::*;

    /// Make-and-test: the moves the movement rules allow after which the mover's general is
    /// not attacked (nor facing the other one).
    fn safe_moves(pos: &Position) -> Vec<Move> {
        let mut pseudo = MoveList::new();
        pos.generate_pseudo_legal(&mut pseudo);
        pseudo
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                after
                    .general(pos.turn)
                    .is_some_and(|g| !after.is_attacked(g, !pos.turn))
            })
            .collect()
    }

    /// The pinned pieces, screens and evasions of [`Position::guard`] give exactly the moves
    /// that make-and-test gives, on random games whose positions are thinned out at random
    /// (open lines: many pins, cannon screens, checks and double checks).
    #[test]
    fn guarded_generation_equals_make_and_test() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut compared, mut in_check) = (0, 0);
        for _game in 0..1500 {
            let mut pos = Position::start();
            for _ply in 0..(next() % 120) {
                let mut thinned = pos.clone();
                let keep = 1 + next() % 3;
                for sq in squares(pos.occupied() & !pos.role_bb(Role::General)) {
                    if next() % 4 < keep {
                        continue;
                    }
                    thinned.remove(sq, Piece::from_index(thinned.board[sq.index()] as usize));
                }
                for candidate in [&pos, &thinned] {
                    let idle = !candidate.turn;
                    if candidate
                        .general(idle)
                        .is_some_and(|g| candidate.is_attacked(g, !idle))
                    {
                        continue; // not a position of the game (the side not to move in check)
                    }
                    let mut legal = MoveList::new();
                    candidate.generate_moves(&mut legal);
                    assert_eq!(&legal[..], &safe_moves(candidate)[..], "{candidate:?}");
                    assert_eq!(candidate.count_moves(), legal.len() as u64);
                    compared += 1;
                    in_check += usize::from(candidate.is_check());
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            }
        }
        assert!(
            compared > 5000 && in_check > 300,
            "{compared} positions, {in_check} in check"
        );
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
                    .fold(0u128, |bb, from| bb | from.bb());
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
