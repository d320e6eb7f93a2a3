//! GGN: the complete pseudo-legal movement table of each game, and the interpreter on a
//! game's positions.
//!
//! [`table`] writes, from the movement rules alone, every piece identity of both sides
//! (`X:G^`, `x:d^`, `X:+S`, …), every square where the game lets it stand, every destination
//! and the conditions that make the move pseudo-legal, in the style of the Xiongqi rule page
//! (seed 000):
//!
//! - a step or leap: `[{"must": {to: "empty"}}, {"must": {to: "enemy"}}]`;
//! - a slide (chariot, bear, empress, the dragon's capture): the squares between
//!   `"empty"`, in CELL order as the seed lists them, then the destination — the dragon's
//!   e4→a4: `{"must": {"b4": "empty", "c4": "empty", "d4": "empty", "a4": "enemy"}}`;
//! - a horse's leg or an elephant's eye: the blocking square `"empty"` before the
//!   destination;
//! - a cannon's capture: one possibility per square between that may hold the screen, that
//!   square in `deny` as `"empty"` (it must hold a piece, of either side) and every other
//!   square between in `must` as `"empty"`;
//! - the flying general of `xiangqi-capture` (C2): the squares between `"empty"` and the
//!   destination holding exactly the enemy general, an exact QPI (`"x:g^"`);
//! - palaces, the river and the elephant's seven points: squares and destinations that the
//!   rules forbid are simply not listed.
//!
//! Possibilities come quiet move first, then the captures (a cannon's by the screen's
//! distance from the cannon); pieces, sources and destinations in QPI and CELL order.
//!
//! GGN is movement only. Not in the tables, and left to the rules: Xiongqi's promotion
//! choices (X2), river crossing (X1) and face-to-face transformation (X3), which change a
//! piece but never forbid a move, and repetition (X6); Xiangqi's S1 (the own general left
//! attacked, the generals facing); and every end of game.
//!
//! ```
//! use chuhe::ggn;
//! use chuhe::xiongqi::Position;
//! use chuhe::GameKind;
//! let table = ggn::table(GameKind::Xiongqi);
//! let moves = ggn::moves(&table, &Position::start());
//! assert_eq!(moves.len(), 26); // the start position's moves, as the bitboards count them
//! assert_eq!(moves[0].pmn().to_string(), "a1-a2");
//! ```

use chuhe_notation::ggn::{Condition, Conditions, Ggn, GgnMove, Possibility};
use chuhe_notation::{Cell, Feen, Qpi, Side, Sin};

use crate::xiangqi::{self, RuleSet};
use crate::xiongqi;
use crate::{GameKind, GamePosition};

/// The complete GGN table of a game and rule set: `xiangqi` and `xiangqi-capture` differ by
/// the flying capture of the general (C2).
///
/// ```
/// use chuhe::{ggn, GameKind};
/// use chuhe::notation::{Cell, Qpi};
/// let xiangqi = ggn::table(GameKind::Xiangqi);
/// let general = Qpi::parse("X:G^").unwrap();
/// let e1 = Cell::parse("e1").unwrap();
/// assert_eq!(xiangqi.destinations(general, e1).unwrap().len(), 3); // d1, e2, f1
/// let capture = ggn::table(GameKind::XiangqiCapture);
/// assert_eq!(capture.destinations(general, e1).unwrap().len(), 6); // and e8, e9, e10
/// ```
pub fn table(kind: GameKind) -> Ggn {
    match kind {
        GameKind::Xiongqi => xiongqi_table(),
        GameKind::Xiangqi => xiangqi_table(RuleSet::Standard),
        GameKind::XiangqiCapture => xiangqi_table(RuleSet::Capture),
        GameKind::Rules(handle) => handle.info().ggn.clone(),
    }
}

/// The interpreter on a game's position: the pseudo-legal moves of the side to move that
/// `table` lists, read through the position's FEEN ([`Ggn::moves`]), sorted by source then
/// destination.
pub fn moves<P: GamePosition>(table: &Ggn, position: &P) -> Vec<GgnMove> {
    match Feen::parse(&position.to_feen()) {
        Ok(feen) => table.moves(&feen),
        // A position's FEEN always reads back (GamePosition::to_feen).
        Err(_) => Vec::new(),
    }
}

/// A step on the board: (files, ranks).
pub(crate) type Delta = (i32, i32);

const ORTHOGONAL: [Delta; 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [Delta; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [Delta; 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];
/// A horse's orthogonal first step (its leg) and the two destinations beyond it.
const HORSE: [(Delta, [Delta; 2]); 4] = [
    ((0, 1), [(-1, 2), (1, 2)]),
    ((0, -1), [(-1, -2), (1, -2)]),
    ((1, 0), [(2, 1), (2, -1)]),
    ((-1, 0), [(-2, 1), (-2, -1)]),
];

/// A table being written for a board of `files × ranks` (also the compact description's
/// writer, [`crate::rules::compact`]).
pub(crate) struct Builder {
    pub(crate) files: u16,
    pub(crate) ranks: u16,
    pub(crate) ggn: Ggn,
}

impl Builder {
    pub(crate) fn new(files: u16, ranks: u16) -> Builder {
        Builder {
            files,
            ranks,
            ggn: Ggn::default(),
        }
    }

    /// Every square, in CELL order.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Cell> {
        let ranks = self.ranks;
        (0..self.files).flat_map(move |f| (0..ranks).map(move |r| Cell::new(f, r)))
    }

    /// The square `(df, dr)` away from `from`, if on the board.
    pub(crate) fn offset(&self, from: Cell, (df, dr): Delta) -> Option<Cell> {
        let f = u16::try_from(i32::from(from.file()) + df).ok()?;
        let r = u16::try_from(i32::from(from.rank()) + dr).ok()?;
        (f < self.files && r < self.ranks).then(|| Cell::new(f, r))
    }

    /// The squares from `from` (excluded) to the edge in direction `d`.
    pub(crate) fn ray(&self, from: Cell, d: Delta) -> Vec<Cell> {
        std::iter::successors(self.offset(from, d), |&c| self.offset(c, d)).collect()
    }

    pub(crate) fn add(&mut self, piece: Qpi, from: Cell, to: Cell, possibility: Possibility) {
        self.ggn
            .0
            .entry(piece)
            .or_default()
            .entry(from)
            .or_default()
            .entry(to)
            .or_default()
            .push(possibility);
    }

    /// `path` empty (listed in CELL order, as the seed does), then `last` on `to` (and
    /// `deny` as given).
    pub(crate) fn add_path(
        &mut self,
        piece: Qpi,
        from: Cell,
        path: &[Cell],
        to: Cell,
        last: Condition,
        deny: Conditions,
    ) {
        let mut path = path.to_vec();
        path.sort();
        let must = path
            .into_iter()
            .map(|c| (c, Condition::Empty))
            .chain([(to, last)])
            .collect();
        self.add(piece, from, to, Possibility { must, deny });
    }

    /// A quiet move onto an empty `to` once `path` is empty.
    pub(crate) fn quiet(&mut self, piece: Qpi, from: Cell, path: &[Cell], to: Cell) {
        self.add_path(piece, from, path, to, Condition::Empty, Conditions::new());
    }

    /// A capture of an enemy on `to` once `path` is empty.
    pub(crate) fn capture(&mut self, piece: Qpi, from: Cell, path: &[Cell], to: Cell) {
        self.add_path(piece, from, path, to, Condition::Enemy, Conditions::new());
    }

    /// Move or capture onto `to` once `path` is empty (the two possibilities of the seed).
    pub(crate) fn move_or_capture(&mut self, piece: Qpi, from: Cell, path: &[Cell], to: Cell) {
        self.quiet(piece, from, path, to);
        self.capture(piece, from, path, to);
    }

    /// One step or free leap by each of `deltas`, staying in `region`.
    pub(crate) fn steps(
        &mut self,
        piece: Qpi,
        from: Cell,
        deltas: &[Delta],
        region: impl Fn(Cell) -> bool,
    ) {
        for &d in deltas {
            if let Some(to) = self.offset(from, d).filter(|&c| region(c)) {
                self.move_or_capture(piece, from, &[], to);
            }
        }
    }

    /// Slides along each of `directions` with a clear path, moving or capturing.
    pub(crate) fn slides(&mut self, piece: Qpi, from: Cell, directions: &[Delta]) {
        for &d in directions {
            let ray = self.ray(from, d);
            for (k, &to) in ray.iter().enumerate() {
                self.move_or_capture(piece, from, &ray[..k], to);
            }
        }
    }

    /// The dragon: a quiet step onto an empty neighbour, captures along the rank and file at
    /// any distance with a clear path (the neighbour included).
    fn dragon(&mut self, piece: Qpi, from: Cell) {
        for d in ORTHOGONAL {
            let ray = self.ray(from, d);
            for (k, &to) in ray.iter().enumerate() {
                if k == 0 {
                    self.quiet(piece, from, &[], to);
                }
                self.capture(piece, from, &ray[..k], to);
            }
        }
    }

    /// The cannon: quiet moves like a chariot; a capture over exactly one screen, one
    /// possibility for each square between that may hold it.
    pub(crate) fn cannon(&mut self, piece: Qpi, from: Cell) {
        for d in ORTHOGONAL {
            let ray = self.ray(from, d);
            for (k, &to) in ray.iter().enumerate() {
                let between = &ray[..k];
                self.quiet(piece, from, between, to);
                for (s, &screen) in between.iter().enumerate() {
                    let path: Vec<Cell> = between
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| i != s)
                        .map(|(_, &c)| c)
                        .collect();
                    let deny = [(screen, Condition::Empty)].into();
                    self.add_path(piece, from, &path, to, Condition::Enemy, deny);
                }
            }
        }
    }

    /// The horse: an orthogonal step onto its empty leg, then a diagonal step outward.
    pub(crate) fn horse(&mut self, piece: Qpi, from: Cell) {
        for (leg, targets) in HORSE {
            let Some(leg) = self.offset(from, leg) else {
                continue;
            };
            for t in targets {
                if let Some(to) = self.offset(from, t) {
                    self.move_or_capture(piece, from, &[leg], to);
                }
            }
        }
    }
}

/// The QPI `X:…` / `x:…` of a piece with this PIN.
fn qpi(pin: chuhe_notation::Pin) -> Qpi {
    Qpi {
        sin: Sin::new(b'X', pin.side()),
        pin,
    }
}

/// One rank forward for `side`.
fn forward(side: Side) -> i32 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

/// Xiongqi's table: every piece anywhere on the 8×8 board, soldiers `S` before the river
/// and `+S` after it (X1, X8).
///
/// ```
/// use chuhe::ggn;
/// use chuhe::notation::{Cell, Qpi};
/// let table = ggn::xiongqi_table();
/// assert_eq!(table.0.len(), 20); // ten identities per side
/// let dragon = Qpi::parse("X:D^").unwrap();
/// let (e4, a4) = (Cell::parse("e4").unwrap(), Cell::parse("a4").unwrap());
/// assert_eq!(
///     serde_json::to_string(table.possibilities(dragon, e4, a4)).unwrap(),
///     r#"[{"must":{"b4":"empty","c4":"empty","d4":"empty","a4":"enemy"}}]"#
/// );
/// ```
pub fn xiongqi_table() -> Ggn {
    use xiongqi::{Piece, Role};
    let mut t = Builder::new(8, 8);
    let cells: Vec<Cell> = t.cells().collect();
    for side in Side::BOTH {
        let fwd = forward(side);
        // Ranks 1–4 are before the river for South, 5–8 for North.
        let before_river = move |c: Cell| (c.rank() < 4) == (side == Side::First);
        for role in Role::ALL {
            let piece = qpi(Piece::new(side, role).pin());
            for &from in &cells {
                match role {
                    Role::General => t.steps(piece, from, &ORTHOGONAL, |_| true),
                    Role::Dragon => t.dragon(piece, from),
                    Role::Advisor => t.steps(piece, from, &DIAGONAL, |_| true),
                    Role::Bear => t.slides(piece, from, &DIAGONAL),
                    Role::Chariot => t.slides(piece, from, &ORTHOGONAL),
                    Role::Cannon => t.cannon(piece, from),
                    Role::Horse => t.horse(piece, from),
                    Role::Empress => {
                        t.slides(piece, from, &ORTHOGONAL);
                        t.steps(piece, from, &KNIGHT, |_| true);
                    }
                    Role::Soldier if before_river(from) => {
                        t.steps(piece, from, &[(0, fwd)], |_| true)
                    }
                    Role::CrossedSoldier if !before_river(from) => {
                        t.steps(piece, from, &[(0, fwd), (-1, 0), (1, 0)], |_| true)
                    }
                    Role::Soldier | Role::CrossedSoldier => {}
                }
            }
        }
    }
    t.ggn
}

/// Xiangqi's table for a rule set: generals and advisors in their palace (advisors on its
/// corners and centre), elephants on their seven points and never across the river, soldiers
/// `S` on their side from their start rank on and `+S` across the river; under
/// `xiangqi-capture` the general's flying capture of the facing general (C2) too.
///
/// ```
/// use chuhe::ggn;
/// use chuhe::notation::{Cell, Qpi};
/// use chuhe::xiangqi::RuleSet;
/// let table = ggn::xiangqi_table(RuleSet::Standard);
/// let elephant = Qpi::parse("X:E").unwrap();
/// let (c1, e3) = (Cell::parse("c1").unwrap(), Cell::parse("e3").unwrap());
/// assert_eq!(
///     serde_json::to_string(table.possibilities(elephant, c1, e3)).unwrap(),
///     r#"[{"must":{"d2":"empty","e3":"empty"}},{"must":{"d2":"empty","e3":"enemy"}}]"#
/// );
/// ```
pub fn xiangqi_table(rules: RuleSet) -> Ggn {
    use xiangqi::{Piece, Role};
    let mut t = Builder::new(9, 10);
    let cells: Vec<Cell> = t.cells().collect();
    for side in Side::BOTH {
        let fwd = forward(side);
        // Rank index as seen from `side`'s back rank (0 = its back rank).
        let own_rank = move |c: Cell| match side {
            Side::First => c.rank(),
            Side::Second => 9 - c.rank(),
        };
        let in_palace = move |c: Cell| (3..=5).contains(&c.file()) && own_rank(c) <= 2;
        let own_half = move |c: Cell| own_rank(c) <= 4;
        let advisor_point = move |c: Cell| {
            in_palace(c) && (c.file() == 4) == (own_rank(c) == 1) // corners and centre
        };
        // c1, g1, a3, e3, i3, c5, g5 for Red.
        let elephant_point = move |c: Cell| {
            let file = if own_rank(c) % 4 == 0 { 2 } else { 0 };
            own_half(c) && own_rank(c) % 2 == 0 && c.file() % 4 == file
        };
        let enemy_general = qpi(Piece::new(!side, Role::General).pin(false));
        for role in Role::ALL {
            for &from in &cells {
                let piece = qpi(Piece::new(side, role).pin(false));
                match role {
                    Role::General if in_palace(from) => {
                        t.steps(piece, from, &ORTHOGONAL, in_palace);
                        if rules == RuleSet::Capture {
                            // C2: along the file into the enemy palace, onto its general.
                            let ray = t.ray(from, (0, fwd));
                            for (k, &to) in ray.iter().enumerate() {
                                if own_rank(to) >= 7 {
                                    t.add_path(
                                        piece,
                                        from,
                                        &ray[..k],
                                        to,
                                        Condition::Piece(enemy_general),
                                        Conditions::new(),
                                    );
                                }
                            }
                        }
                    }
                    Role::Advisor if advisor_point(from) => {
                        t.steps(piece, from, &DIAGONAL, in_palace)
                    }
                    Role::Elephant if elephant_point(from) => {
                        for (df, dr) in DIAGONAL {
                            let eye = t.offset(from, (df, dr));
                            let to = t.offset(from, (2 * df, 2 * dr)).filter(|&c| own_half(c));
                            if let (Some(eye), Some(to)) = (eye, to) {
                                t.move_or_capture(piece, from, &[eye], to);
                            }
                        }
                    }
                    Role::Horse => t.horse(piece, from),
                    Role::Chariot => t.slides(piece, from, &ORTHOGONAL),
                    Role::Cannon => t.cannon(piece, from),
                    Role::Soldier if own_half(from) => {
                        // Before the river, from its start rank (rank 4 for Red) on.
                        if own_rank(from) >= 3 {
                            t.steps(piece, from, &[(0, fwd)], |_| true);
                        }
                    }
                    Role::Soldier => {
                        let crossed = qpi(Piece::new(side, role).pin(true));
                        t.steps(crossed, from, &[(0, fwd), (-1, 0), (1, 0)], |_| true);
                    }
                    Role::General | Role::Advisor | Role::Elephant => {}
                }
            }
        }
    }
    t.ggn
}
