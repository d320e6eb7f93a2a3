//! Xiongqi evaluation.
//!
//! Terms, each a block of the weight table ([`BLOCKS`]): material (the terminal pieces
//! excluded; the soldier before and after the river), piece-square tables folded left/right
//! (files a–h onto a–d), mobility of chariots, bears, cannons, horses and empresses, the
//! terminal piece's safety (there is no check rule: an attacked terminal piece that cannot
//! get away is captured, so what counts is the attackers around it, its escape squares and
//! how open its lines are), lines from cannons, chariots and empresses to the enemy terminal
//! piece, soldiers about to promote (X2: an empress is worth most of a game), soldier
//! structure, the bear pair, chariots on open files, hanging and threatened pieces, and a
//! tempo bonus. South is the first player.

use chuhe::xiongqi::{
    bishop_attacks, horse_attacks, rank_bb, rook_attacks, squares, Position, Role, Square,
};
use chuhe::Side;

use super::xiongqi_weights::WEIGHTS;
use super::{
    layout, pack_table, taper, Accumulator, Block, Evaluation, PackedSum, Weight, WeightSum,
    WeightsOverride,
};

layout! {
    /// Material by material slot: advisor, bear, chariot, cannon, horse, empress,
    /// soldier before the river, soldier across it (terminal pieces have none).
    MATERIAL[8; 8],
    /// The general's piece-square table: [`pst_index`] (relative rank × 4 + folded file).
    PST_GENERAL[32; 4],
    /// The dragon's piece-square table.
    PST_DRAGON[32; 4],
    /// The advisor's piece-square table.
    PST_ADVISOR[32; 4],
    /// The bear's piece-square table.
    PST_BEAR[32; 4],
    /// The chariot's piece-square table.
    PST_CHARIOT[32; 4],
    /// The cannon's piece-square table.
    PST_CANNON[32; 4],
    /// The horse's piece-square table.
    PST_HORSE[32; 4],
    /// The empress's piece-square table.
    PST_EMPRESS[32; 4],
    /// The soldier's piece-square table (before the river).
    PST_SOLDIER[32; 4],
    /// The crossed soldier's piece-square table.
    PST_CROSSED_SOLDIER[32; 4],
    /// A chariot's mobility by its number of destinations (0–14).
    MOB_CHARIOT[15; 8],
    /// A bear's mobility (0–13).
    MOB_BEAR[14; 7],
    /// A cannon's mobility: its quiet moves (0–14).
    MOB_CANNON[15; 8],
    /// A horse's mobility: destinations not attacked by enemy soldiers (0–8).
    MOB_HORSE[9; 9],
    /// An empress's mobility (0–22).
    MOB_EMPRESS[23; 8],
    /// Per occupied leg square of a horse (a leg that leads onto the board).
    HORSE_BLOCKED_LEG[1; 1],
    /// Both bears, on squares of both colours.
    BEAR_PAIR[1; 1],
    /// A chariot on a file without soldiers (open), or without its own soldiers (half-open).
    CHARIOT_FILE[2; 2],
    /// Enemy pieces attacking the terminal piece's square or its eight neighbours, by role
    /// (chariot, empress, bear, cannon, horse, soldier, dragon) × own defenders in that zone
    /// (0–3 or more): the row is the role, the column the defenders.
    TERMINAL_ATTACKERS[28; 4],
    /// The terminal piece's escapes: orthogonal neighbours free of own pieces and of enemy
    /// attacks (0–4).
    TERMINAL_ESCAPES[5; 5],
    /// The terminal piece's exposure: the squares a chariot on its square would reach
    /// (0–14).
    TERMINAL_EXPOSURE[15; 8],
    /// Per square of the enemy terminal piece's zone (itself and its neighbours) attacked.
    TERMINAL_PRESSURE[1; 1],
    /// A cannon (first row) or a chariot or empress (second row) on the enemy terminal
    /// piece's file or rank, by the pieces between them (0, 1, 2, 3 or more).
    LINE_TO_TERMINAL[8; 4],
    /// Crossed soldiers one move from promoting (X2: a step onto the far rank, or along it),
    /// to a square the enemy does not attack (first) or attacks (second): for the side to
    /// move (first row), then for the other side.
    PROMOTION[4; 2],
    /// Pairs of crossed soldiers side by side.
    SOLDIER_CONNECTED[1; 1],
    /// Soldiers defended by a soldier.
    SOLDIER_PROTECTED[1; 1],
    /// Pieces attacked and not defended, by material slot: the side to move's, then the
    /// other side's.
    HANGING[16; 8],
    /// Empresses, chariots and minor pieces (bear, cannon, horse) attacked by a cheaper
    /// piece: the side to move's, then the other side's.
    ATTACKED_BY_LESSER[6; 3],
    /// The side to move's bonus.
    TEMPO[1; 1],
}

const _: () = assert!(PST_CROSSED_SOLDIER.start == PST_GENERAL.start + 9 * 32);
const _: () = assert!(WEIGHTS.len() == PARAMS);

/// The phase of the full starting material (empress 6, chariot 4, bear, cannon and horse
/// 2 each).
pub const PHASE_MAX: i32 = 40;

/// The material slot of a non-terminal role.
const fn material_slot(role: Role) -> usize {
    match role {
        Role::General | Role::Dragon | Role::Advisor => 0,
        Role::Bear => 1,
        Role::Chariot => 2,
        Role::Cannon => 3,
        Role::Horse => 4,
        Role::Empress => 5,
        Role::Soldier => 6,
        Role::CrossedSoldier => 7,
    }
}

/// Material value of a role in centipawns, from the tuned weights (middlegame and endgame
/// averaged): move ordering, pruning and the promotion gain use it. Terminal pieces are worth
/// [`crate::game::TERMINAL_VALUE`].
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General | Role::Dragon => crate::game::TERMINAL_VALUE,
        _ => {
            let w = WEIGHTS[MATERIAL.start + material_slot(role)];
            let v = (w[0] + w[1]) / 2;
            if v < 10 {
                10
            } else {
                v
            }
        }
    }
}

/// The compiled weights, in one place in memory.
static COMPILED: [Weight; PARAMS] = WEIGHTS;

/// The compiled weights packed for play ([`super::pack`]).
static PACKED: [i64; PARAMS] = pack_table(&WEIGHTS);

/// The run-time replacement of the weights, for experiments.
static OVERRIDE: WeightsOverride = WeightsOverride::new();

/// The evaluation from the side to move's point of view, in centipawns.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    if let Some(v) = OVERRIDE.with(PARAMS, |w| evaluate_packed(pos, w)) {
        return v;
    }
    evaluate_packed(pos, &PACKED)
}

/// The evaluation under packed weights (the fast path of [`evaluate`]).
#[inline(always)]
fn evaluate_packed(pos: &Position, packed: &[i64]) -> i32 {
    let mut sum = PackedSum::new(packed);
    let phase = features(pos, &mut sum);
    let (mg, eg) = sum.halves();
    let v = taper(mg, eg, phase, PHASE_MAX);
    if pos.turn() == Side::First {
        v
    } else {
        -v
    }
}

/// The evaluation from the side to move's point of view under `weights` (the compiled
/// [`PARAMS`] weights or a table of the same layout).
#[inline]
pub fn evaluate_with(pos: &Position, weights: &[Weight]) -> i32 {
    let mut sum = WeightSum::new(weights);
    let phase = features(pos, &mut sum);
    let v = taper(sum.mg, sum.eg, phase, PHASE_MAX);
    if pos.turn() == Side::First {
        v
    } else {
        -v
    }
}

/// Replaces the compiled weights at run time for every Xiongqi evaluation in the process
/// (`None`: back to the compiled ones). For experiments such as the tuner's matches.
pub fn set_weights_override(weights: Option<&[Weight]>) {
    OVERRIDE.set(weights);
}

/// The piece-square index of a square for a side: relative rank (0 = own back rank) × 4 +
/// the file folded onto a–d (a and h → 0, d and e → 3).
pub const fn pst_index(side: usize, square: usize) -> usize {
    let file = square % 8;
    let rank = square / 8;
    let rel = if side == 0 { rank } else { 7 - rank };
    let folded = if file > 3 { 7 - file } else { file };
    rel * 4 + folded
}

const fn pst_table() -> [[u8; 64]; 2] {
    let mut t = [[0u8; 64]; 2];
    let mut s = 0;
    while s < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[s][sq] = pst_index(s, sq) as u8;
            sq += 1;
        }
        s += 1;
    }
    t
}

static PST_INDEX: [[u8; 64]; 2] = pst_table();

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if on_board(nf, nr) {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static ORTHO: [u64; 64] = step_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
static DIAG: [u64; 64] = step_table(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
]);
/// A soldier's step forward, for each side.
static FORWARD: [[u64; 64]; 2] = [step_table(&[(0, 1)]), step_table(&[(0, -1)])];
/// Sideways steps (a crossed soldier's).
static SIDEWAYS: [u64; 64] = step_table(&[(1, 0), (-1, 0)]);

/// The leg squares of a horse on each square whose leap lands on the board.
const fn horse_leg_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let dirs: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let (lf, lr) = (f + df, r + dr);
            let (a, b) = if df != 0 {
                ((f + 2 * df, r + 1), (f + 2 * df, r - 1))
            } else {
                ((f + 1, r + 2 * dr), (f - 1, r + 2 * dr))
            };
            if on_board(lf, lr) && (on_board(a.0, a.1) || on_board(b.0, b.1)) {
                t[sq] |= 1u64 << (lr * 8 + lf);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static HORSE_LEGS: [u64; 64] = horse_leg_table();

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Squares of one colour (a1's).
const DARK: u64 = 0xAA55_AA55_AA55_AA55;
/// The rank one step from the far rank, and the far rank, for each side.
const PRE_FAR: [u64; 2] = [rank_bb(6), rank_bb(1)];
const FAR: [u64; 2] = [rank_bb(7), rank_bb(0)];
const SIGN: [i32; 2] = [1, -1];

/// The number of squares in a set (the full population count: mobility).
#[inline(always)]
fn count(bb: u64) -> i32 {
    bb.count_ones() as i32
}

/// The number of squares in a set that is usually empty or nearly so (threats, legs):
/// cheaper than a population count on targets without one.
#[inline(always)]
fn count_sparse(mut bb: u64) -> i32 {
    let mut n = 0;
    while bb != 0 {
        bb &= bb - 1;
        n += 1;
    }
    n
}

/// The squares strictly between two squares on one file or rank.
#[inline(always)]
fn between(a: Square, b: Square) -> u64 {
    let (lo, hi) = if a.index() < b.index() {
        (a.index(), b.index())
    } else {
        (b.index(), a.index())
    };
    let span = (1u64 << hi) - (1u64 << (lo + 1));
    if a.rank() == b.rank() {
        span
    } else {
        span & (FILE_A << a.file())
    }
}

/// Sends every term of the evaluation to `acc` (South's point of view: South's terms count
/// +1, North's −1) and returns the game phase (0..=[`PHASE_MAX`]).
#[inline(always)]
pub fn features<A: Accumulator>(pos: &Position, acc: &mut A) -> i32 {
    let occ = pos.occupied();
    let sides = [pos.side_bb(Side::First), pos.side_bb(Side::Second)];
    let bb = |r: Role| pos.role_bb(r);
    let terminals = bb(Role::General) | bb(Role::Dragon);
    let dragons = bb(Role::Dragon);
    let advisors = bb(Role::Advisor);
    let bears = bb(Role::Bear);
    let chariots = bb(Role::Chariot);
    let cannons = bb(Role::Cannon);
    let horses = bb(Role::Horse);
    let empresses = bb(Role::Empress);
    let soldiers = bb(Role::Soldier);
    let crossed = bb(Role::CrossedSoldier);
    let all_soldiers = soldiers | crossed;
    let turn = pos.turn().index();

    // Each side's terminal piece and its zone (its square and the eight around it).
    let mut terminal = [None; 2];
    let mut zone = [0u64; 2];
    for s in 0..2 {
        if let Some(t) = squares(terminals & sides[s]).next() {
            terminal[s] = Some(t);
            zone[s] = ORTHO[t.index()] | DIAG[t.index()] | t.bb();
        }
    }

    // Pieces by material slot, counted as the loops meet them.
    let mut n = [[0i32; 8]; 2];
    // Attack maps: all, by soldiers and advisors ("low"), by bears, cannons and horses
    // ("mid"), by chariots, and by soldiers alone.
    let mut att = [0u64; 2];
    let mut att_low = [0u64; 2];
    let mut att_mid = [0u64; 2];
    let mut att_chariot = [0u64; 2];
    let mut soldier_att = [0u64; 2];
    // Pieces reaching the enemy terminal piece's zone, by role: chariot, empress, bear,
    // cannon (beyond its screen), horse, soldier, dragon.
    let mut aims = [[0i32; 7]; 2];

    // Piece-square tables of the short-range pieces and their attacks.
    for s in 0..2 {
        let sg = SIGN[s];
        let own = sides[s];
        let pst = &PST_INDEX[s];
        let their_zone = zone[s ^ 1];
        for sq in squares(terminals & own) {
            let i = sq.index();
            if dragons & sq.bb() != 0 {
                acc.add(PST_DRAGON.at(pst[i] as usize), sg);
                let a = rook_attacks(sq, occ);
                att[s] |= a;
                aims[s][6] += i32::from(a & their_zone != 0);
            } else {
                acc.add(PST_GENERAL.at(pst[i] as usize), sg);
                att[s] |= ORTHO[i];
            }
        }
        for sq in squares(advisors & own) {
            acc.add(PST_ADVISOR.at(pst[sq.index()] as usize), sg);
            att_low[s] |= DIAG[sq.index()];
            n[s][0] += 1;
        }
        for sq in squares(soldiers & own) {
            acc.add(PST_SOLDIER.at(pst[sq.index()] as usize), sg);
            let a = FORWARD[s][sq.index()];
            soldier_att[s] |= a;
            aims[s][5] += i32::from(a & their_zone != 0);
            n[s][6] += 1;
        }
        for sq in squares(crossed & own) {
            acc.add(PST_CROSSED_SOLDIER.at(pst[sq.index()] as usize), sg);
            let a = FORWARD[s][sq.index()] | SIDEWAYS[sq.index()];
            soldier_att[s] |= a;
            aims[s][5] += i32::from(a & their_zone != 0);
            n[s][7] += 1;
        }
        att_low[s] |= soldier_att[s];
        let own_bears = bears & own;
        if own_bears & DARK != 0 && own_bears & !DARK != 0 {
            acc.add(BEAR_PAIR.at(0), sg);
        }
        let c = crossed & own;
        acc.add(
            SOLDIER_CONNECTED.at(0),
            sg * count_sparse(c & (c >> 1) & !FILE_H),
        );
        acc.add(
            SOLDIER_PROTECTED.at(0),
            sg * count_sparse(all_soldiers & own & soldier_att[s]),
        );
    }

    // Long-range pieces: mobility, files, lines to the enemy terminal piece.
    for s in 0..2 {
        let sg = SIGN[s];
        let e = s ^ 1;
        let own = sides[s];
        let pst = &PST_INDEX[s];
        let safe = !own & !soldier_att[e];
        let their_zone = zone[e];
        let their_terminal = terminal[e];

        for sq in squares(chariots & own) {
            acc.add(PST_CHARIOT.at(pst[sq.index()] as usize), sg);
            n[s][2] += 1;
            let a = rook_attacks(sq, occ);
            att_chariot[s] |= a;
            aims[s][0] += i32::from(a & their_zone != 0);
            acc.add(MOB_CHARIOT.at(count(a & !own) as usize), sg);
            let file = FILE_A << sq.file();
            if file & all_soldiers == 0 {
                acc.add(CHARIOT_FILE.at(0), sg);
            } else if file & all_soldiers & own == 0 {
                acc.add(CHARIOT_FILE.at(1), sg);
            }
            line_to(acc, sg, sq, their_terminal, occ, 4);
        }
        for sq in squares(empresses & own) {
            acc.add(PST_EMPRESS.at(pst[sq.index()] as usize), sg);
            n[s][5] += 1;
            let a = rook_attacks(sq, occ) | KNIGHT[sq.index()];
            att[s] |= a;
            aims[s][1] += i32::from(a & their_zone != 0);
            acc.add(MOB_EMPRESS.at(count(a & !own) as usize), sg);
            line_to(acc, sg, sq, their_terminal, occ, 4);
        }
        for sq in squares(bears & own) {
            acc.add(PST_BEAR.at(pst[sq.index()] as usize), sg);
            n[s][1] += 1;
            let a = bishop_attacks(sq, occ);
            att_mid[s] |= a;
            aims[s][2] += i32::from(a & their_zone != 0);
            acc.add(MOB_BEAR.at(count(a & !own) as usize), sg);
        }
        for sq in squares(cannons & own) {
            acc.add(PST_CANNON.at(pst[sq.index()] as usize), sg);
            n[s][3] += 1;
            let slide = rook_attacks(sq, occ);
            acc.add(MOB_CANNON.at(count(slide & !occ) as usize), sg);
            // Beyond the screens: up to and including the next piece on each line (that
            // piece is what the cannon captures); the rest is what it aims at.
            let beyond = rook_attacks(sq, occ & !(slide & occ)) & !slide;
            att_mid[s] |= beyond & occ;
            aims[s][3] += i32::from(beyond & their_zone != 0);
            line_to(acc, sg, sq, their_terminal, occ, 0);
        }
        for sq in squares(horses & own) {
            acc.add(PST_HORSE.at(pst[sq.index()] as usize), sg);
            n[s][4] += 1;
            let a = horse_attacks(sq, occ);
            att_mid[s] |= a;
            aims[s][4] += i32::from(a & their_zone != 0);
            acc.add(MOB_HORSE.at(count(a & safe) as usize), sg);
            acc.add(
                HORSE_BLOCKED_LEG.at(0),
                sg * count_sparse(HORSE_LEGS[sq.index()] & occ),
            );
        }
        att[s] |= att_low[s] | att_mid[s] | att_chariot[s];
    }

    // Material, the terminal piece's safety, promotions and threats, for each defending
    // side `d`.
    for d in 0..2 {
        let e = d ^ 1;
        let (sgd, sge) = (SIGN[d], SIGN[e]);
        let own = sides[d];
        let row = if d == turn { 0 } else { 1 };
        for (slot, &k) in n[d].iter().enumerate() {
            acc.add(MATERIAL.at(slot), sgd * k);
        }

        if let Some(t) = terminal[d] {
            let z = zone[d];
            let defenders = count_sparse(z & own & !t.bb()).min(3) as usize;
            for (k, &a) in aims[e].iter().enumerate() {
                if a != 0 {
                    acc.add(TERMINAL_ATTACKERS.at(k * 4 + defenders), sge * a);
                }
            }
            let escapes = count_sparse(ORTHO[t.index()] & !own & !att[e]) as usize;
            acc.add(TERMINAL_ESCAPES.at(escapes), sgd);
            let exposure = count(rook_attacks(t, occ) & !own) as usize;
            acc.add(TERMINAL_EXPOSURE.at(exposure), sgd);
            acc.add(TERMINAL_PRESSURE.at(0), sge * count_sparse(att[e] & z));
        }

        // Soldiers one move from promoting: a forward step onto the far rank, or a step
        // along it.
        let mut promo = [0i32; 2];
        for sq in squares(crossed & own & (PRE_FAR[d] | FAR[d])) {
            let targets = if FAR[d] & sq.bb() != 0 {
                SIDEWAYS[sq.index()] & !own
            } else {
                FORWARD[d][sq.index()] & !own
            };
            if targets & !att[e] != 0 {
                promo[0] += 1;
            } else if targets != 0 {
                promo[1] += 1;
            }
        }
        acc.add(PROMOTION.at(row * 2), sgd * promo[0]);
        acc.add(PROMOTION.at(row * 2 + 1), sgd * promo[1]);

        let hanging = own & att[e] & !att[d];
        if hanging != 0 {
            let by_slot = [
                advisors, bears, chariots, cannons, horses, empresses, soldiers, crossed,
            ];
            for (slot, &m) in by_slot.iter().enumerate() {
                acc.add(HANGING.at(row * 8 + slot), sgd * count_sparse(hanging & m));
            }
        }
        let low = att_low[e];
        let mid = att_mid[e];
        let lesser = [
            empresses & own & (low | mid | att_chariot[e]),
            chariots & own & (low | mid),
            (bears | cannons | horses) & own & low,
        ];
        for (slot, &m) in lesser.iter().enumerate() {
            if m != 0 {
                acc.add(ATTACKED_BY_LESSER.at(row * 3 + slot), sgd * count_sparse(m));
            }
        }
    }

    acc.add(TEMPO.at(0), SIGN[turn]);

    let t = |slot: usize| n[0][slot] + n[1][slot];
    (6 * t(5) + 4 * t(2) + 2 * (t(1) + t(3) + t(4))).min(PHASE_MAX)
}

/// A line piece on `sq` sharing a file or rank with the enemy terminal piece on `terminal`:
/// counts [`LINE_TO_TERMINAL`] at `row` by the pieces between them.
#[inline(always)]
fn line_to<A: Accumulator>(
    acc: &mut A,
    sg: i32,
    sq: Square,
    terminal: Option<Square>,
    occ: u64,
    row: usize,
) {
    if let Some(t) = terminal {
        if t.file() == sq.file() || t.rank() == sq.rank() {
            let k = count_sparse(between(sq, t) & occ).min(3) as usize;
            acc.add(LINE_TO_TERMINAL.at(row + k), sg);
        }
    }
}

/// The hand-set weights the first tuning started from (and the baseline of the tuner's
/// matches).
pub fn initial_weights() -> Vec<Weight> {
    let mut w = vec![[0, 0]; PARAMS];
    let mat = [
        [150, 170],
        [400, 450],
        [850, 950],
        [450, 400],
        [380, 420],
        [1300, 1400],
        [80, 100],
        [140, 180],
    ];
    w[MATERIAL.start..MATERIAL.end()].copy_from_slice(&mat);
    for rel in 0..8 {
        for f in 0..4 {
            let i = rel * 4 + f;
            let centre = f as i32; // 0 on the edge, 3 in the middle
            let r = rel as i32;
            w[PST_GENERAL.at(i)] = [-15 * r, -3 * r + 3 * centre];
            w[PST_DRAGON.at(i)] = [-10 * r, 3 * centre];
            w[PST_ADVISOR.at(i)] = [if rel < 3 { 0 } else { -5 }, 0];
            w[PST_BEAR.at(i)] = [5 * centre, 5 * centre];
            let chariot = [0, 0, 0, 5, 5, 10, 20, 5][rel];
            w[PST_CHARIOT.at(i)] = [chariot + 2 * centre, chariot / 2];
            w[PST_CANNON.at(i)] = [3 * centre + [0, 5, 5, 5, 5, 0, -5, 0][rel], 0];
            let horse = [-15, -5, 0, 10, 15, 20, 15, 0][rel] + 5 * centre - 5;
            w[PST_HORSE.at(i)] = [horse, horse / 2];
            w[PST_EMPRESS.at(i)] = [3 * centre, 3 * centre];
            w[PST_SOLDIER.at(i)] = [if rel == 3 { 5 + 2 * centre } else { 0 }, 0];
            let crossed = match rel {
                4 => 10,
                5 => 30,
                6 => 60,
                7 => 40,
                _ => 0,
            };
            w[PST_CROSSED_SOLDIER.at(i)] = [crossed + 3 * centre, crossed + 20];
        }
    }
    for n in 0..15 {
        w[MOB_CHARIOT.at(n)] = [5 * (n as i32 - 6), 5 * (n as i32 - 6)];
        w[MOB_CANNON.at(n)] = [3 * (n as i32 - 5), 2 * (n as i32 - 5)];
    }
    for n in 0..14 {
        w[MOB_BEAR.at(n)] = [5 * (n as i32 - 5), 5 * (n as i32 - 5)];
    }
    for n in 0..9 {
        w[MOB_HORSE.at(n)] = [10 * (n as i32 - 3), 8 * (n as i32 - 3)];
    }
    for n in 0..23 {
        w[MOB_EMPRESS.at(n)] = [4 * (n as i32 - 10), 4 * (n as i32 - 10)];
    }
    w[HORSE_BLOCKED_LEG.at(0)] = [-6, -4];
    w[BEAR_PAIR.at(0)] = [30, 50];
    w[CHARIOT_FILE.at(0)] = [15, 10];
    w[CHARIOT_FILE.at(1)] = [8, 5];
    let base = [
        [25, 10],
        [35, 15],
        [15, 8],
        [20, 8],
        [15, 8],
        [15, 10],
        [20, 10],
    ];
    for (k, b) in base.iter().enumerate() {
        for def in 0..4 {
            w[TERMINAL_ATTACKERS.at(k * 4 + def)] = [b[0] - 4 * def as i32, b[1] - 2 * def as i32];
        }
    }
    for n in 0..5 {
        w[TERMINAL_ESCAPES.at(n)] = [10 * (n as i32 - 2), 5 * (n as i32 - 2)];
    }
    for n in 0..15 {
        w[TERMINAL_EXPOSURE.at(n)] = [-3 * n as i32, 0];
    }
    w[TERMINAL_PRESSURE.at(0)] = [5, 2];
    let lines = [
        [20, 10],
        [30, 20],
        [25, 10],
        [10, 5],
        [40, 30],
        [15, 10],
        [8, 5],
        [0, 0],
    ];
    w[LINE_TO_TERMINAL.start..LINE_TO_TERMINAL.end()].copy_from_slice(&lines);
    let promo = [[500, 600], [30, 40], [150, 200], [20, 30]];
    w[PROMOTION.start..PROMOTION.end()].copy_from_slice(&promo);
    w[SOLDIER_CONNECTED.at(0)] = [10, 20];
    w[SOLDIER_PROTECTED.at(0)] = [8, 12];
    let hanging_later = [-30, -60, -120, -60, -60, -200, -15, -25];
    for slot in 0..8 {
        w[HANGING.at(slot)] = [-5, -5];
        let v = hanging_later[slot];
        w[HANGING.at(8 + slot)] = [v, v];
    }
    let lesser_later = [-150, -80, -40];
    for slot in 0..3 {
        w[ATTACKED_BY_LESSER.at(slot)] = [-10, -10];
        let v = lesser_later[slot];
        w[ATTACKED_BY_LESSER.at(3 + slot)] = [v, v];
    }
    w[TEMPO.at(0)] = [20, 10];
    w
}

impl Evaluation for Position {
    const BLOCKS: &'static [Block] = BLOCKS;
    const PARAMS: usize = PARAMS;
    const PHASE_MAX: i32 = PHASE_MAX;
    const MODULE: &'static str = "xiongqi";
    const WEIGHTS_FILE: &'static str = "src/eval/xiongqi_weights.rs";

    fn weights() -> &'static [Weight] {
        &COMPILED
    }

    fn initial_weights() -> Vec<Weight> {
        initial_weights()
    }

    fn features<A: Accumulator>(&self, acc: &mut A) -> i32 {
        features(self, acc)
    }

    fn evaluate_with(&self, weights: &[Weight]) -> i32 {
        evaluate_with(self, weights)
    }

    fn set_weights_override(weights: Option<&[Weight]>) {
        set_weights_override(weights);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn pst_index_folds_files_and_mirrors_ranks() {
        for i in 0..64u8 {
            let s = Square::new(i).unwrap();
            let across = Square::from_coords(7 - s.file(), s.rank()).unwrap();
            assert_eq!(pst_index(0, s.index()), pst_index(0, across.index()));
            assert_eq!(pst_index(0, s.index()), pst_index(1, s.flip_rank().index()));
            assert!(pst_index(0, s.index()) < 32);
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(ORTHO[sq("a1").index()], sq("b1").bb() | sq("a2").bb());
        assert_eq!(KNIGHT[sq("d4").index()].count_ones(), 8);
        assert_eq!(FORWARD[0][sq("e5").index()], sq("e6").bb());
        assert_eq!(FORWARD[1][sq("e5").index()], sq("e4").bb());
        assert_eq!(SIDEWAYS[sq("h3").index()], sq("g3").bb());
        assert_eq!(HORSE_LEGS[sq("b1").index()], sq("c1").bb() | sq("b2").bb());
        assert_eq!(between(sq("e1"), sq("e8")).count_ones(), 6);
        assert_eq!(between(sq("a4"), sq("h4")).count_ones(), 6);
    }

    #[test]
    fn start_position_phase_is_full() {
        let mut fv = super::super::FeatureVector::new(PARAMS);
        assert_eq!(features(&Position::start(), &mut fv), PHASE_MAX);
        // The start is symmetric under the colour flip, so only the tempo is left.
        let left: Vec<(usize, i32)> = fv.entries().collect();
        assert_eq!(left, vec![(TEMPO.at(0), 1)]);
    }
}
