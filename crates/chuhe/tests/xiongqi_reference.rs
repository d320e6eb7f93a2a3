//! A deliberately naive, independent reference of Xiongqi's move rules, and a differential
//! test of `chuhe::xiongqi` against it.
//!
//! The reference is written from `shared/docs/xiongqi-rules.md` (X1–X9) and the two seed texts
//! only: an 8×8 mailbox, pieces stepped square by square, its own small FEEN reader and writer,
//! its own repetition history (X6), face-to-face (X3), promotion (X2), river crossing (X1),
//! hands (X5) and end-of-game verdicts (X7). It shares no code with the crate.
//!
//! Seeded random games (uniform, and biased toward captures / soldier moves / promotions, or
//! toward back-and-forth shuffling that provokes repetition and the move limit) run from the
//! start, from every FEEN of `data/perft-xiongqi.txt` (with its half-move clock), from
//! hand-built positions and from random positions that X8 accepts. At every ply: the legal move sets agree, the placement, hands, side to move and half-move clock after
//! the move agree, the canonical PMN (with `~` exactly when the reference sees face-to-face)
//! agrees, check agrees, and the game-over verdict and winner agree. Moves the reference calls
//! repetitive are also played on a copy of the real game, which must end it as `repetition`.
//! The reference's own perft is checked against the shared table's small rows, and a few of
//! its answers against the rules text's examples.
//!
//! Run with `-- --nocapture` to see how many plies, captures, promotions, face-to-face
//! transformations, repetitive moves and endings of each kind were covered.

use chuhe::xiongqi::{Game, Move, Position, Role, Square};
use chuhe::Side;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    General,
    Dragon,
    Advisor,
    Bear,
    Chariot,
    Cannon,
    Horse,
    Empress,
    Soldier,
}

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::General => 'G',
            Kind::Dragon => 'D',
            Kind::Advisor => 'A',
            Kind::Bear => 'B',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Horse => 'H',
            Kind::Empress => 'E',
            Kind::Soldier => 'S',
        }
    }

    fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'G' => Kind::General,
            'D' => Kind::Dragon,
            'A' => Kind::Advisor,
            'B' => Kind::Bear,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'H' => Kind::Horse,
            'E' => Kind::Empress,
            'S' => Kind::Soldier,
            _ => return None,
        })
    }

    fn is_terminal(self) -> bool {
        matches!(self, Kind::General | Kind::Dragon)
    }
}

/// X2: the six promotion choices (besides not promoting).
const PROMOTIONS: [Kind; 6] = [
    Kind::Empress,
    Kind::Advisor,
    Kind::Cannon,
    Kind::Chariot,
    Kind::Bear,
    Kind::Horse,
];

/// A piece: its side, kind, and `+` (only a soldier across the river has it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Man {
    south: bool,
    kind: Kind,
    crossed: bool,
}

impl Man {
    /// Its EPIN token: `+` prefix, letter in the side's case, `^` on terminals.
    fn token(self) -> String {
        let mut s = String::new();
        if self.crossed {
            s.push('+');
        }
        let c = self.kind.letter();
        s.push(if self.south {
            c
        } else {
            c.to_ascii_lowercase()
        });
        if self.kind.is_terminal() {
            s.push('^');
        }
        s
    }
}

/// `board[rank][file]`, rank 0 = rank 1, file 0 = file a.
type Board = [[Option<Man>; 8]; 8];

/// (file, rank), both 0..8.
type Sq = (i8, i8);

fn on_board((f, r): Sq) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn get(b: &Board, (f, r): Sq) -> Option<Man> {
    b[r as usize][f as usize]
}

fn set(b: &mut Board, (f, r): Sq, m: Option<Man>) {
    b[r as usize][f as usize] = m;
}

fn sq_name((f, r): Sq) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct RefMove {
    from: Sq,
    to: Sq,
    promo: Option<Kind>,
}

impl RefMove {
    /// Coordinate form, `e3e4`, `e7e8e`.
    fn coord(self) -> String {
        let mut s = sq_name(self.from) + &sq_name(self.to);
        if let Some(k) = self.promo {
            s.push(k.letter().to_ascii_lowercase());
        }
        s
    }
}

const ORTHO: [Sq; 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const LEAPS: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn add((f, r): Sq, (df, dr): Sq) -> Sq {
    (f + df, r + dr)
}

/// X1: is rank `r` across the river for this side?
fn across_river(south: bool, r: i8) -> bool {
    if south {
        r >= 4
    } else {
        r <= 3
    }
}

/// X2: the far rank.
fn far_rank(south: bool) -> i8 {
    if south {
        7
    } else {
        0
    }
}

/// Destination squares of the piece on `from`, by its movement rules only (no promotion
/// expansion, no history). A destination is empty or holds an enemy.
fn destinations(b: &Board, from: Sq) -> Vec<Sq> {
    let me = get(b, from).expect("a piece on from");
    let enemy = |s: Sq| get(b, s).is_some_and(|o| o.south != me.south);
    let empty = |s: Sq| get(b, s).is_none();
    let mut out = Vec::new();
    // One step: move or capture.
    let step = |out: &mut Vec<Sq>, d: Sq| {
        let t = add(from, d);
        if on_board(t) && (empty(t) || enemy(t)) {
            out.push(t);
        }
    };
    // A slide: empties, then the first piece if it is an enemy.
    let slide = |out: &mut Vec<Sq>, d: Sq| {
        let mut t = add(from, d);
        while on_board(t) {
            if empty(t) {
                out.push(t);
            } else {
                if enemy(t) {
                    out.push(t);
                }
                break;
            }
            t = add(t, d);
        }
    };
    match me.kind {
        Kind::General => {
            for d in ORTHO {
                step(&mut out, d);
            }
        }
        Kind::Dragon => {
            for d in ORTHO {
                // Quiet: one step onto an empty square.
                let t = add(from, d);
                if on_board(t) && empty(t) {
                    out.push(t);
                }
                // Capture: the first piece along the line, if it is an enemy.
                let mut t = add(from, d);
                while on_board(t) {
                    if !empty(t) {
                        if enemy(t) {
                            out.push(t);
                        }
                        break;
                    }
                    t = add(t, d);
                }
            }
        }
        Kind::Advisor => {
            for d in DIAG {
                step(&mut out, d);
            }
        }
        Kind::Bear => {
            for d in DIAG {
                slide(&mut out, d);
            }
        }
        Kind::Chariot => {
            for d in ORTHO {
                slide(&mut out, d);
            }
        }
        Kind::Cannon => {
            for d in ORTHO {
                let mut t = add(from, d);
                // Quiet moves up to the screen.
                while on_board(t) && empty(t) {
                    out.push(t);
                    t = add(t, d);
                }
                // `t` is the screen (or off the board); the target is the next piece beyond.
                if on_board(t) {
                    let mut u = add(t, d);
                    while on_board(u) && empty(u) {
                        u = add(u, d);
                    }
                    if on_board(u) && enemy(u) {
                        out.push(u);
                    }
                }
            }
        }
        Kind::Horse => {
            for (df, dr) in ORTHO {
                let leg = add(from, (df, dr));
                if !on_board(leg) || !empty(leg) {
                    continue;
                }
                for s in [-1, 1] {
                    // Two along the leg's direction, one across it.
                    step(&mut out, (2 * df + s * dr, 2 * dr + s * df));
                }
            }
        }
        Kind::Empress => {
            for d in ORTHO {
                slide(&mut out, d);
            }
            for d in LEAPS {
                step(&mut out, d);
            }
        }
        Kind::Soldier => {
            let fwd = if me.south { 1 } else { -1 };
            step(&mut out, (0, fwd));
            if me.crossed {
                step(&mut out, (1, 0));
                step(&mut out, (-1, 0));
            }
        }
    }
    out
}

/// Every move of `south`'s pieces by the movement rules, promotions expanded (X2).
fn pseudo_moves(b: &Board, south: bool) -> Vec<RefMove> {
    let mut out = Vec::new();
    for r in 0..8 {
        for f in 0..8 {
            let from = (f, r);
            let Some(me) = get(b, from) else { continue };
            if me.south != south {
                continue;
            }
            for to in destinations(b, from) {
                out.push(RefMove {
                    from,
                    to,
                    promo: None,
                });
                if me.kind == Kind::Soldier && to.1 == far_rank(south) {
                    for k in PROMOTIONS {
                        out.push(RefMove {
                            from,
                            to,
                            promo: Some(k),
                        });
                    }
                }
            }
        }
    }
    out
}

fn terminal_square(b: &Board, south: bool) -> Option<Sq> {
    for r in 0..8 {
        for f in 0..8 {
            if get(b, (f, r)).is_some_and(|m| m.south == south && m.kind.is_terminal()) {
                return Some((f, r));
            }
        }
    }
    None
}

/// X3: both terminals are generals, on one file, South's below North's, nothing between.
fn facing_generals(b: &Board) -> Option<(Sq, Sq)> {
    let s = terminal_square(b, true)?;
    let n = terminal_square(b, false)?;
    let both_generals =
        get(b, s).unwrap().kind == Kind::General && get(b, n).unwrap().kind == Kind::General;
    let facing = both_generals
        && s.0 == n.0
        && s.1 < n.1
        && (s.1 + 1..n.1).all(|r| get(b, (s.0, r)).is_none());
    facing.then_some((s, n))
}

struct Applied {
    board: Board,
    mover: Man,
    captured: Option<Man>,
    transformed: bool,
}

/// Applies a move to a board: capture, river crossing (X1), promotion (X2), face to face (X3).
fn apply(b: &Board, m: RefMove) -> Applied {
    let mut nb = *b;
    let mover = get(&nb, m.from).expect("a piece to move");
    let captured = get(&nb, m.to);
    set(&mut nb, m.from, None);
    let mut moved = mover;
    if moved.kind == Kind::Soldier && across_river(moved.south, m.to.1) {
        moved.crossed = true;
    }
    if let Some(k) = m.promo {
        moved = Man {
            south: moved.south,
            kind: k,
            crossed: false,
        };
    }
    set(&mut nb, m.to, Some(moved));
    let mut transformed = false;
    if !captured.is_some_and(|c| c.kind.is_terminal()) {
        if let Some((south, north)) = facing_generals(&nb) {
            for t in [south, north] {
                let g = get(&nb, t).unwrap();
                set(
                    &mut nb,
                    t,
                    Some(Man {
                        kind: Kind::Dragon,
                        ..g
                    }),
                );
            }
            transformed = true;
        }
    }
    Applied {
        board: nb,
        mover,
        captured,
        transformed,
    }
}

/// Is the terminal of `south` attacked by the other side's pieces (movement rules only)?
fn terminal_attacked(b: &Board, south: bool) -> bool {
    match terminal_square(b, south) {
        Some(t) => pseudo_moves(b, !south).iter().any(|m| m.to == t),
        None => false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Verdict {
    status: &'static str,
    /// `Some(true)` South won, `Some(false)` North won, `None` a draw.
    south_wins: Option<bool>,
}

/// One X6 history entry: the move (piece before moving, from, to, promotion) and the position
/// it led to (placement and side to move).
#[derive(Clone)]
struct Entry {
    mover: Man,
    mv: RefMove,
    board: Board,
    south_to_move: bool,
}

#[derive(Clone)]
struct Ref {
    board: Board,
    south_to_move: bool,
    /// Hands: 0 = first (South), 1 = second (North).
    hands: [Vec<Man>; 2],
    halfmove: u32,
    history: Vec<Entry>,
    legal: Vec<RefMove>,
    over: Option<Verdict>,
}

/// Reads one EPIN token (`+s`, `g^`, `R`) from the front of `chars`.
fn read_token(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Man {
    let crossed = if chars.peek() == Some(&'+') {
        chars.next();
        true
    } else {
        false
    };
    let c = chars.next().expect("a letter");
    let kind = Kind::from_letter(c).unwrap_or_else(|| panic!("unknown letter {c}"));
    let terminal = if chars.peek() == Some(&'^') {
        chars.next();
        true
    } else {
        false
    };
    assert_eq!(terminal, kind.is_terminal(), "`^` on {c}");
    assert!(!crossed || kind == Kind::Soldier, "`+` on {c}");
    Man {
        south: c.is_ascii_uppercase(),
        kind,
        crossed,
    }
}

impl Ref {
    /// From a FEEN (placement, hands, style-turn), with the half-move clock given.
    fn from_feen(feen: &str, halfmove: u32) -> Ref {
        let fields: Vec<&str> = feen.split(' ').collect();
        assert_eq!(fields.len(), 3, "{feen}");
        let mut board: Board = [[None; 8]; 8];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 8, "{feen}");
        for (i, text) in ranks.iter().enumerate() {
            let r = 7 - i as i8;
            let mut f = 0i8;
            let mut chars = text.chars().peekable();
            while let Some(&c) = chars.peek() {
                if let Some(d) = c.to_digit(10) {
                    chars.next();
                    f += d as i8;
                } else {
                    let man = read_token(&mut chars);
                    set(&mut board, (f, r), Some(man));
                    f += 1;
                }
            }
            assert_eq!(f, 8, "{feen}: rank {}", r + 1);
        }
        let (first, second) = fields[1].split_once('/').expect("hands");
        let hands = [parse_hand(first), parse_hand(second)];
        let south_to_move = match fields[2] {
            "X/x" => true,
            "x/X" => false,
            other => panic!("style-turn {other}"),
        };
        let mut r = Ref {
            board,
            south_to_move,
            hands,
            halfmove,
            history: Vec::new(),
            legal: Vec::new(),
            over: None,
        };
        r.settle();
        r
    }

    fn placement(&self) -> String {
        placement_of(&self.board)
    }

    fn hands_text(&self) -> String {
        format!(
            "{}/{}",
            hand_text(&self.hands[0]),
            hand_text(&self.hands[1])
        )
    }

    fn turn_text(&self) -> &'static str {
        if self.south_to_move {
            "X/x"
        } else {
            "x/X"
        }
    }

    fn is_repetitive(&self, m: RefMove) -> bool {
        let a = apply(&self.board, m);
        let next = !self.south_to_move;
        self.history.iter().any(|e| {
            e.mover == a.mover && e.mv == m && e.south_to_move == next && e.board == a.board
        })
    }

    /// Recomputes the legal moves and the verdict (X7) for the current position.
    fn settle(&mut self) {
        let side = self.south_to_move;
        self.legal = pseudo_moves(&self.board, side)
            .into_iter()
            .filter(|&m| !self.is_repetitive(m))
            .collect();
        let has_terminal = |s: bool| terminal_square(&self.board, s).is_some();
        let only_terminal = (0..8)
            .flat_map(|r| (0..8).map(move |f| (f, r)))
            .filter_map(|s| get(&self.board, s))
            .all(|m| m.kind.is_terminal());
        self.over = if !has_terminal(side) {
            Some(Verdict {
                status: "mareking",
                south_wins: Some(!side),
            })
        } else if !has_terminal(!side) {
            Some(Verdict {
                status: "mareking",
                south_wins: Some(side),
            })
        } else if only_terminal {
            Some(Verdict {
                status: "insufficient",
                south_wins: None,
            })
        } else if self.legal.is_empty() {
            Some(Verdict {
                status: "stalemate",
                south_wins: Some(!side),
            })
        } else if self.halfmove >= 100 {
            Some(Verdict {
                status: "movelimit",
                south_wins: None,
            })
        } else {
            None
        };
        if self.over.is_some() {
            self.legal.clear();
        }
    }

    /// Plays a legal move.
    fn play(&mut self, m: RefMove) -> Applied {
        assert!(
            self.legal.contains(&m),
            "reference: {} not legal",
            m.coord()
        );
        let a = apply(&self.board, m);
        if let Some(c) = a.captured {
            self.hands[usize::from(!self.south_to_move)].push(c);
        }
        if a.captured.is_some() || a.mover.kind == Kind::Soldier {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.board = a.board;
        self.south_to_move = !self.south_to_move;
        self.history.push(Entry {
            mover: a.mover,
            mv: m,
            board: self.board,
            south_to_move: self.south_to_move,
        });
        self.settle();
        a
    }

    fn in_check(&self) -> bool {
        terminal_attacked(&self.board, self.south_to_move)
    }

    /// The canonical PMN the crate should write for `m`.
    fn pmn(&self, m: RefMove) -> String {
        let a = apply(&self.board, m);
        let sep = if a.transformed {
            '~'
        } else if a.captured.is_some() {
            '+'
        } else {
            '-'
        };
        let mut s = format!("{}{sep}{}", sq_name(m.from), sq_name(m.to));
        if let Some(k) = m.promo {
            let c = k.letter();
            s.push('=');
            s.push(if a.mover.south {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
        s
    }
}

fn placement_of(b: &Board) -> String {
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut run = 0;
        for f in 0..8 {
            match get(b, (f, r)) {
                None => run += 1,
                Some(m) => {
                    if run > 0 {
                        write!(s, "{run}").unwrap();
                        run = 0;
                    }
                    s += &m.token();
                }
            }
        }
        if run > 0 {
            write!(s, "{run}").unwrap();
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

fn parse_hand(text: &str) -> Vec<Man> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while chars.peek().is_some() {
        let mut count = 0u32;
        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            chars.next();
            count = count * 10 + d;
        }
        let man = read_token(&mut chars);
        for _ in 0..count.max(1) {
            out.push(man);
        }
    }
    out
}

/// A hand in the canonical order of the notation notes: count descending; letter A→Z ignoring
/// case; uppercase first; `+` before none; non-terminal before `^`.
fn hand_text(hand: &[Man]) -> String {
    let mut groups: Vec<(Man, usize)> = Vec::new();
    for &m in hand {
        match groups.iter_mut().find(|(g, _)| *g == m) {
            Some((_, n)) => *n += 1,
            None => groups.push((m, 1)),
        }
    }
    groups.sort_by_key(|&(m, n)| {
        (
            std::cmp::Reverse(n),
            m.kind.letter(),
            !m.south,
            !m.crossed,
            m.kind.is_terminal(),
        )
    });
    let mut s = String::new();
    for (m, n) in groups {
        if n > 1 {
            write!(s, "{n}").unwrap();
        }
        s += &m.token();
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Bridging to the crate
// ---------------------------------------------------------------------------------------------

fn real_move(m: RefMove) -> Move {
    let sq = |(f, r): Sq| Square::from_coords(f as u8, r as u8).unwrap();
    let role = m.promo.map(|k| match k {
        Kind::Empress => Role::Empress,
        Kind::Advisor => Role::Advisor,
        Kind::Cannon => Role::Cannon,
        Kind::Chariot => Role::Chariot,
        Kind::Bear => Role::Bear,
        Kind::Horse => Role::Horse,
        other => panic!("no promotion to {other:?}"),
    });
    Move::new(sq(m.from), sq(m.to), role)
}

fn real_verdict(game: &Game) -> Option<Verdict> {
    game.outcome().map(|o| Verdict {
        status: match o.status.as_str() {
            "mareking" => "mareking",
            "insufficient" => "insufficient",
            "stalemate" => "stalemate",
            "movelimit" => "movelimit",
            "repetition" => "repetition",
            other => panic!("unexpected status {other}"),
        },
        south_wins: o.winner.map(|w| w == Side::First),
    })
}

#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Any legal move.
    Uniform,
    /// Prefers promotions, captures and soldier moves.
    Eager,
    /// Prefers undoing its own last move, replaying its move of four plies ago, and quiet
    /// non-soldier moves: provokes repetition (X6) and the move limit.
    Shuffle,
}

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    captures: usize,
    promotions: usize,
    crossings: usize,
    face_to_face: usize,
    face_to_face_captures: usize,
    checks: usize,
    repetitive_seen: usize,
    repetitive_played: usize,
    endings: std::collections::BTreeMap<&'static str, usize>,
}

struct Trail<'a> {
    start: &'a str,
    halfmove: u32,
    played: &'a [String],
    real: &'a Game,
}

impl Trail<'_> {
    fn context(&self) -> String {
        format!(
            "start FEEN: {}\nstart half-move clock: {}\nmoves: {}\ncurrent FEEN: {}",
            self.start,
            self.halfmove,
            self.played.join(" "),
            self.real.position().to_feen()
        )
    }
}

fn pick(rng: &mut SmallRng, v: &[RefMove]) -> RefMove {
    v[rng.gen_range(0..v.len())]
}

fn choose(r: &Ref, rng: &mut SmallRng, policy: Policy, played: &[RefMove]) -> RefMove {
    let legal = &r.legal;
    let filtered = |keep: &dyn Fn(&RefMove) -> bool| -> Vec<RefMove> {
        legal.iter().copied().filter(|m| keep(m)).collect()
    };
    match policy {
        Policy::Uniform => pick(rng, legal),
        Policy::Eager => {
            let promos = filtered(&|m| m.promo.is_some());
            let captures = filtered(&|m| get(&r.board, m.to).is_some());
            let soldiers = filtered(&|m| get(&r.board, m.from).unwrap().kind == Kind::Soldier);
            if !promos.is_empty() && rng.gen_bool(0.7) {
                pick(rng, &promos)
            } else if !captures.is_empty() && rng.gen_bool(0.6) {
                pick(rng, &captures)
            } else if !soldiers.is_empty() && rng.gen_bool(0.6) {
                pick(rng, &soldiers)
            } else {
                pick(rng, legal)
            }
        }
        Policy::Shuffle => {
            let n = played.len();
            if n >= 2 {
                let last = played[n - 2];
                let back = RefMove {
                    from: last.to,
                    to: last.from,
                    promo: None,
                };
                if legal.contains(&back) && rng.gen_bool(0.8) {
                    return back;
                }
            }
            if n >= 4 && legal.contains(&played[n - 4]) && rng.gen_bool(0.8) {
                return played[n - 4];
            }
            let quiet = filtered(&|m| {
                get(&r.board, m.to).is_none()
                    && get(&r.board, m.from).unwrap().kind != Kind::Soldier
            });
            if !quiet.is_empty() && rng.gen_bool(0.9) {
                pick(rng, &quiet)
            } else {
                pick(rng, legal)
            }
        }
    }
}

/// Compares everything observable about the current position.
fn compare_now(r: &Ref, game: &Game, f: &Trail<'_>, stats: &mut Stats) {
    let real_set: BTreeSet<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    let ref_set: BTreeSet<String> = r.legal.iter().map(|m| m.coord()).collect();
    if real_set != ref_set {
        let only_real: Vec<_> = real_set.difference(&ref_set).collect();
        let only_ref: Vec<_> = ref_set.difference(&real_set).collect();
        panic!(
            "legal moves differ\n{}\nonly in chuhe: {only_real:?}\nonly in reference: {only_ref:?}",
            f.context()
        );
    }
    assert_eq!(
        game.legal_moves().len(),
        real_set.len(),
        "duplicate moves\n{}",
        f.context()
    );
    let feen = game.position().to_feen();
    let fields: Vec<&str> = feen.split(' ').collect();
    assert_eq!(fields.len(), 3, "{feen}");
    assert_eq!(fields[0], r.placement(), "placement\n{}", f.context());
    assert_eq!(fields[1], r.hands_text(), "hands\n{}", f.context());
    assert_eq!(fields[2], r.turn_text(), "side to move\n{}", f.context());
    assert_eq!(
        game.position().halfmove(),
        r.halfmove,
        "half-move clock\n{}",
        f.context()
    );
    assert_eq!(real_verdict(game), r.over, "verdict\n{}", f.context());
    let check = r.in_check();
    assert_eq!(game.is_check(), check, "check\n{}", f.context());
    stats.checks += usize::from(check && r.over.is_none());
}

/// Plays one seeded game on both sides, comparing at every ply.
fn differential_game(
    start: &str,
    halfmove: u32,
    seed: u64,
    policy: Policy,
    max_plies: usize,
    stats: &mut Stats,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::from_feen(start).unwrap_or_else(|e| panic!("{start}: {e}"));
    pos.set_halfmove(halfmove);
    let mut game = Game::from_position(pos);
    let mut r = Ref::from_feen(start, halfmove);
    let mut played: Vec<String> = Vec::new();
    let mut played_ref: Vec<RefMove> = Vec::new();
    stats.games += 1;
    loop {
        let f = Trail {
            start,
            halfmove,
            played: &played,
            real: &game,
        };
        compare_now(&r, &game, &f, stats);
        if let Some(v) = r.over {
            *stats.endings.entry(v.status).or_default() += 1;
            break;
        }
        if played.len() >= max_plies {
            *stats.endings.entry("(ply cap)").or_default() += 1;
            break;
        }

        // X6: moves the reference calls repetitive are forbidden by the crate's history too,
        // and playing one (as a game record may) ends the game as `repetition`.
        let repetitive: Vec<RefMove> = pseudo_moves(&r.board, r.south_to_move)
            .into_iter()
            .filter(|m| !r.legal.contains(m))
            .collect();
        for &m in &repetitive {
            assert!(r.is_repetitive(m));
            assert!(
                game.is_repetitive(real_move(m)),
                "{} should be repetitive\n{}",
                m.coord(),
                f.context()
            );
        }
        stats.repetitive_seen += repetitive.len();
        if !repetitive.is_empty() {
            let m = pick(&mut rng, &repetitive);
            let mut copy = game.clone();
            copy.play(real_move(m)).unwrap_or_else(|e| {
                panic!("repetitive {} refused: {e}\n{}", m.coord(), f.context())
            });
            assert_eq!(
                real_verdict(&copy),
                Some(Verdict {
                    status: "repetition",
                    south_wins: Some(!r.south_to_move),
                }),
                "after the repetitive {}\n{}",
                m.coord(),
                f.context()
            );
            stats.repetitive_played += 1;
        }

        let m = choose(&r, &mut rng, policy, &played_ref);
        let real = game
            .legal_moves()
            .iter()
            .copied()
            .find(|x| x.to_string() == m.coord())
            .expect("sets agree");
        assert!(!game.is_repetitive(real), "{}\n{}", m.coord(), f.context());
        let expected_pmn = r.pmn(m);
        let pmn = game.position().to_pmn(real);
        assert_eq!(pmn, expected_pmn, "PMN of {}\n{}", m.coord(), f.context());
        let a = r.play(m);
        if let Err(e) = game.play(real) {
            panic!(
                "{pmn}: {e}\nstart FEEN: {start}\nmoves: {}",
                played.join(" ")
            );
        }
        played.push(pmn);
        played_ref.push(m);
        stats.plies += 1;
        stats.captures += usize::from(a.captured.is_some());
        stats.promotions += usize::from(m.promo.is_some());
        stats.face_to_face += usize::from(a.transformed);
        stats.face_to_face_captures += usize::from(a.transformed && a.captured.is_some());
        stats.crossings += usize::from(
            a.mover.kind == Kind::Soldier
                && !a.mover.crossed
                && across_river(a.mover.south, m.to.1),
        );
    }
}

fn run_games(
    start: &str,
    halfmove: u32,
    seed: u64,
    counts: [usize; 3],
    max_plies: usize,
    stats: &mut Stats,
) {
    let policies = [Policy::Uniform, Policy::Eager, Policy::Shuffle];
    for (p, &count) in policies.iter().zip(counts.iter()) {
        for i in 0..count {
            let s = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add((i as u64) << 8 | *p as u64);
            differential_game(start, halfmove, s, *p, max_plies, stats);
        }
    }
}

const START: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";

/// A record of the perft table: FEEN, half-move clock, `(depth, nodes)` rows.
type PerftRecord = (String, u32, Vec<(u32, u64)>);

/// Every record of `data/perft-xiongqi.txt`.
fn perft_table() -> Vec<PerftRecord> {
    let path = format!(
        "{}/../../data/perft-xiongqi.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<PerftRecord> = Vec::new();
    for line in text.lines() {
        if let Some(feen) = line.strip_prefix("feen ") {
            out.push((feen.trim().to_string(), 0, Vec::new()));
        } else if let Some(n) = line.strip_prefix("halfmove ") {
            out.last_mut().expect("a record").1 = n.trim().parse().unwrap();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.trim().split_once(' ').unwrap();
            out.last_mut()
                .expect("a record")
                .2
                .push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    assert!(out.len() >= 5, "{path}: records");
    out
}

/// Hand-built positions: crossed soldiers near promotion, generals one step from facing,
/// dragons, empresses, cannons with screens.
const HAND_BUILT: [&str; 9] = [
    // Crossed soldiers on the 7th and 8th ranks of both sides; the generals one file apart.
    "+S4g^1r/1+S1+S4/8/8/8/8/2+s2+s2/R3G^2+s / X/x",
    // Generals on the e-file with one blocker (an advisor), others about to step in.
    "r3g^3/2c5/4a3/2s5/5S2/3B4/1H6/4G^2R / x/X",
    // Generals on adjacent files, nothing else between: a sideways step faces them.
    "3g^4/2s5/8/1C6/6c1/8/5S2/4G^3 / X/x",
    // Dragons with chariots and cannons on their lines.
    "2d^5/1e2c3/8/2C1s3/1S3+s2/4E3/2c5/3D^4 / X/x",
    // Empresses and cannons with screens, North to move, with hands.
    "r2e1g^2/8/c2+S1s2/8/3C2E1/1+s6/8/1G^4R1 2sh/B x/X",
    // Soldiers about to cross the river, horses with blocked legs.
    "1h2g^3/8/2h5/1s1s1s2/1S1S1HS1/1H6/8/3G^4 / X/x",
    // The only blocker between the generals is a crossed soldier that can capture sideways
    // (`e5~d5`); another one is a step from promoting.
    "8/3+Sg^3/8/3a+Sh2/8/3+s4/4G^3/8 / X/x",
    // South walled into a1 by its own cannons, which the crossed soldiers screen: no move.
    "7g^/8/8/8/8/+s7/C+s6/G^C+s5 / X/x",
    // The same with North to move: most North moves leave South stalemated.
    "7g^/7r/8/8/8/+s7/C+s6/G^C+s5 / x/X",
];

/// Do `south`'s pieces on the board and in `hand` fit in a starting set (2 chariots, horses,
/// bears and cannons, 1 advisor, 8 soldiers), each piece beyond it counting as a promoted
/// soldier?
fn within_starting_set(b: &Board, hand: &[Man], south: bool) -> bool {
    let pieces: Vec<&Man> = b
        .iter()
        .flatten()
        .flatten()
        .chain(hand)
        .filter(|m| m.south == south)
        .collect();
    let n = |k: Kind| pieces.iter().filter(|m| m.kind == k).count() as u32;
    let beyond = [
        (Kind::Chariot, 2),
        (Kind::Horse, 2),
        (Kind::Bear, 2),
        (Kind::Cannon, 2),
        (Kind::Advisor, 1),
        (Kind::Empress, 0),
    ]
    .iter()
    .map(|&(k, start)| n(k).saturating_sub(start))
    .sum::<u32>();
    n(Kind::Soldier) + beyond <= 8
}

/// A random position that X8 accepts: one terminal each (both generals not facing, or both
/// dragons), soldiers marked `+` exactly across the river, small hands of enemy pieces.
fn random_position(rng: &mut SmallRng) -> String {
    const KINDS: [Kind; 8] = [
        Kind::Advisor,
        Kind::Bear,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Horse,
        Kind::Empress,
        Kind::Soldier,
        Kind::Soldier,
    ];
    loop {
        let mut b: Board = [[None; 8]; 8];
        let mut free: Vec<Sq> = (0..8).flat_map(|r| (0..8).map(move |f| (f, r))).collect();
        let mut take = |rng: &mut SmallRng| free.swap_remove(rng.gen_range(0..free.len()));
        let terminal = if rng.gen_bool(0.4) {
            Kind::Dragon
        } else {
            Kind::General
        };
        for south in [true, false] {
            let sq = take(rng);
            let man = Man {
                south,
                kind: terminal,
                crossed: false,
            };
            set(&mut b, sq, Some(man));
        }
        for _ in 0..rng.gen_range(1..=16) {
            let sq = take(rng);
            let south = rng.gen_bool(0.5);
            let kind = KINDS[rng.gen_range(0..KINDS.len())];
            let crossed = kind == Kind::Soldier && across_river(south, sq.1);
            set(
                &mut b,
                sq,
                Some(Man {
                    south,
                    kind,
                    crossed,
                }),
            );
        }
        if facing_generals(&b).is_some() {
            continue;
        }
        let mut hands: [Vec<Man>; 2] = [Vec::new(), Vec::new()];
        for (i, hand) in hands.iter_mut().enumerate() {
            for _ in 0..rng.gen_range(0..4) {
                let kind = KINDS[rng.gen_range(0..KINDS.len())];
                hand.push(Man {
                    south: i == 1,
                    kind,
                    crossed: kind == Kind::Soldier && rng.gen_bool(0.5),
                });
            }
            // Captured pieces and those on the board are at most a side's starting set, where
            // only soldiers can have become other pieces (X2): a hand beyond it is unreachable.
            if !within_starting_set(&b, hand, i == 1) {
                hand.clear();
            }
        }
        let turn = if rng.gen_bool(0.5) { "X/x" } else { "x/X" };
        return format!(
            "{} {}/{} {turn}",
            placement_of(&b),
            hand_text(&hands[0]),
            hand_text(&hands[1])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

fn moves_from(r: &Ref, from: &str) -> BTreeSet<String> {
    r.legal
        .iter()
        .filter(|m| m.coord().starts_with(from))
        .map(|m| m.coord()[2..].to_string())
        .collect()
}

fn set_of(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The reference itself, on the rules text's own examples (so that a disagreement later is
/// the crate's or the reference's, and not both wrong the same way).
#[test]
fn reference_follows_the_rules_text() {
    // Start: 26 moves (perft 1), and the placement writes back.
    let start = Ref::from_feen(START, 0);
    assert_eq!(start.legal.len(), 26);
    assert_eq!(start.placement(), START.split(' ').next().unwrap());

    // Seed 5.2: a dragon at e4 steps to empty neighbours and captures along its lines.
    let r = Ref::from_feen("7d^/8/8/8/r3D^3/8/8/4h3 / X/x", 0);
    assert_eq!(
        moves_from(&r, "e4"),
        set_of(&["a4", "d4", "e1", "e3", "e5", "f4"])
    );

    // Seed 5.5: the cannon on c2 jumps the screen on c7 to capture c8.
    let r = Ref::from_feen("2r1g^3/2s5/8/8/8/8/2C5/4G^3 / X/x", 0);
    let c = moves_from(&r, "c2");
    assert!(c.contains("c8") && !c.contains("c7") && c.contains("c6") && c.contains("a2"));

    // Seed 5.7: horse on b1, leg c1 blocked: no d2; a3 and c3 free.
    let r = Ref::from_feen("4g^3/8/8/8/8/8/8/1HA1G^3 / X/x", 0);
    assert_eq!(moves_from(&r, "b1"), set_of(&["a3", "c3"]));

    // Seed 5.6: an empress on d4 (rook + 8 leaps over anything).
    let r = Ref::from_feen("4g^3/8/8/3SS3/2SE4/3S4/8/4G^3 / X/x", 0);
    assert_eq!(
        moves_from(&r, "d4"),
        set_of(&["e4", "f4", "g4", "h4", "b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"])
    );

    // X1/X2: a crossed soldier on the 7th rank has 7 forward moves and sideways moves.
    let r = Ref::from_feen("4g^3/1+S6/8/8/8/8/8/4G^3 / X/x", 0);
    assert_eq!(moves_from(&r, "b7").len(), 7 + 1 + 1);
    // A soldier before the river only goes forward; stepping onto rank 5 crosses.
    let mut r = Ref::from_feen("3g^4/8/8/8/1S6/8/8/4G^3 / X/x", 0);
    assert_eq!(moves_from(&r, "b4"), set_of(&["b5"]));
    let m = r
        .legal
        .iter()
        .copied()
        .find(|m| m.coord() == "b4b5")
        .unwrap();
    r.play(m);
    assert_eq!(r.placement(), "3g^4/8/8/1+S6/8/8/8/4G^3");

    // X3: a general stepping onto the file faces; the move is written with `~`.
    let mut r = Ref::from_feen("4g^3/8/s7/8/8/S7/8/3G^4 / X/x", 0);
    let m = r
        .legal
        .iter()
        .copied()
        .find(|m| m.coord() == "d1e1")
        .unwrap();
    assert_eq!(r.pmn(m), "d1~e1");
    r.play(m);
    assert_eq!(r.placement(), "4d^3/8/s7/8/8/S7/8/4D^3");
    // ... but not when South's general is above North's.
    let r = Ref::from_feen("4G^3/8/s7/8/8/S7/8/3g^4 / x/X", 0);
    let m = r
        .legal
        .iter()
        .copied()
        .find(|m| m.coord() == "d1e1")
        .unwrap();
    assert_eq!(r.pmn(m), "d1-e1");

    // X6: out and back twice by both sides: the fifth move repeats the first.
    let mut r = Ref::from_feen("3g^3r/8/8/8/8/8/8/R3G^3 / X/x", 0);
    for c in ["a1a2", "h8h7", "a2a1", "h7h8"] {
        let m = r.legal.iter().copied().find(|m| m.coord() == c).unwrap();
        r.play(m);
    }
    assert!(!r.legal.iter().any(|m| m.coord() == "a1a2"));
    assert!(r.legal.iter().any(|m| m.coord() == "a1a3"));

    // X7: insufficient material.
    let mut r = Ref::from_feen("7g^/8/8/3s4/3G^4/8/8/8 / X/x", 0);
    let m = r
        .legal
        .iter()
        .copied()
        .find(|m| m.coord() == "d4d5")
        .unwrap();
    r.play(m);
    assert_eq!(r.over.unwrap().status, "insufficient");
}

/// The reference's own perft (X9) matches the shared table at small depths.
#[test]
fn reference_perft_matches_the_table() {
    fn perft(r: &Ref, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return r.legal.len() as u64;
        }
        r.legal
            .iter()
            .map(|&m| {
                let mut c = r.clone();
                c.play(m);
                perft(&c, depth - 1)
            })
            .sum()
    }
    let mut rows = 0;
    for (feen, halfmove, expected) in perft_table() {
        let r = Ref::from_feen(&feen, halfmove);
        for (depth, nodes) in expected {
            if nodes <= 70_000 {
                assert_eq!(
                    perft(&r, depth),
                    nodes,
                    "{feen} (clock {halfmove}) depth {depth}"
                );
                rows += 1;
            }
        }
    }
    assert!(rows >= 15, "{rows} rows");
}

#[test]
fn differential_random_games_from_the_start() {
    let mut stats = Stats::default();
    run_games(START, 0, 1, [300, 100, 100], 300, &mut stats);
    eprintln!("from the start: {stats:?}");
    assert!(stats.plies > 20_000, "{stats:?}");
    assert!(stats.face_to_face > 0 && stats.promotions > 0, "{stats:?}");
    assert!(stats.repetitive_played > 0, "{stats:?}");
    assert!(stats.endings.contains_key("movelimit"), "{stats:?}");
}

#[test]
fn differential_random_games_from_the_perft_table() {
    let mut stats = Stats::default();
    for (i, (feen, halfmove, _)) in perft_table().iter().enumerate() {
        run_games(
            feen,
            *halfmove,
            1000 + i as u64,
            [25, 15, 15],
            300,
            &mut stats,
        );
    }
    eprintln!("from the perft table: {stats:?}");
    assert!(stats.plies > 5_000, "{stats:?}");
}

#[test]
fn differential_random_games_from_hand_built_positions() {
    let mut stats = Stats::default();
    for (i, feen) in HAND_BUILT.iter().enumerate() {
        run_games(feen, 0, 2000 + i as u64, [30, 20, 20], 300, &mut stats);
    }
    eprintln!("from hand-built positions: {stats:?}");
    assert!(stats.face_to_face > 0 && stats.promotions > 0, "{stats:?}");
    assert!(stats.face_to_face_captures > 0, "{stats:?}");
    assert!(stats.endings.contains_key("stalemate"), "{stats:?}");
}

#[test]
fn differential_random_games_from_random_positions() {
    let mut stats = Stats::default();
    let mut rng = SmallRng::seed_from_u64(3000);
    let policies = [Policy::Uniform, Policy::Eager, Policy::Shuffle];
    for i in 0..800 {
        let feen = random_position(&mut rng);
        differential_game(
            &feen,
            0,
            3000 + i,
            policies[i as usize % 3],
            200,
            &mut stats,
        );
    }
    eprintln!("from random positions: {stats:?}");
    assert!(stats.endings.contains_key("stalemate"), "{stats:?}");
}
