//! Xiangqi evaluation (both rule sets share it).
//!
//! Terms, each a block of the weight table ([`BLOCKS`]): material (the soldier before and
//! after the river), piece-square tables folded left/right (the board is symmetric, so
//! files a–i map onto a–e), mobility of chariots, horses (destinations not attacked by enemy
//! soldiers; blocked legs) and cannons, the general's safety (enemy pieces aiming at the
//! palace against the advisors and elephants left), cannons on the enemy general's file or
//! rank with their screens, chariots on open files, connected soldiers, hanging and
//! threatened pieces, and a tempo bonus. Red is the first player.

use chuhe::xiangqi::{
    elephant_attacks, horse_attacks, palace, rook_attacks, squares, Position, Role, Square,
    ADVISOR_STEPS, GENERAL_STEPS, SOLDIER_STEPS,
};
use chuhe::Side;

use super::xiangqi_weights::WEIGHTS;
use super::{
    layout, pack_table, taper, Accumulator, Block, Evaluation, PackedSum, Weight, WeightSum,
    WeightsOverride,
};

layout! {
    /// Material by material slot: advisor, elephant, horse, chariot, cannon, soldier
    /// before the river, soldier across it (the general has none).
    MATERIAL[7; 7],
    /// The general's piece-square table: [`pst_index`] (relative rank × 5 + folded file).
    PST_GENERAL[50; 5],
    /// The advisor's piece-square table.
    PST_ADVISOR[50; 5],
    /// The elephant's piece-square table.
    PST_ELEPHANT[50; 5],
    /// The horse's piece-square table.
    PST_HORSE[50; 5],
    /// The chariot's piece-square table.
    PST_CHARIOT[50; 5],
    /// The cannon's piece-square table.
    PST_CANNON[50; 5],
    /// The soldier's piece-square table.
    PST_SOLDIER[50; 5],
    /// A chariot's mobility by the number of its destinations (0–17).
    MOB_CHARIOT[18; 9],
    /// A horse's mobility: destinations not attacked by enemy soldiers (0–8).
    MOB_HORSE[9; 9],
    /// A cannon's mobility: its quiet moves (0–17).
    MOB_CANNON[18; 9],
    /// Per occupied leg point of a horse (a leg that leads onto the board).
    HORSE_BLOCKED_LEG[1; 1],
    /// Enemy pieces aiming at the palace, by role (chariot, horse, cannon, crossed soldier)
    /// × the defenders missing (0–4 of the two advisors and two elephants): the row is the
    /// role, the column the missing defenders.
    KING_ATTACKERS[20; 5],
    /// Missing advisors (first row), then missing elephants (second row), each times the
    /// enemy's chariots, horses, cannons and crossed soldiers.
    MISSING_DEFENDERS[8; 4],
    /// Per palace point the enemy attacks.
    PALACE_PRESSURE[1; 1],
    /// A cannon on the enemy general's file (first row) or rank (second row), by the pieces
    /// between them (0, 1, 2, 3 or more).
    CANNON_LINE[8; 4],
    /// A chariot on a file without soldiers (open), or without its own soldiers (half-open).
    CHARIOT_FILE[2; 2],
    /// Pairs of crossed soldiers side by side.
    SOLDIER_CONNECTED[1; 1],
    /// Pieces attacked and not defended, by material slot (a soldier either side of the
    /// river counts as one slot, 5): first the side to move's, then the other side's.
    HANGING[12; 6],
    /// Horses, chariots and cannons attacked by a cheaper piece (a chariot by anything but
    /// a chariot or the general; a horse or cannon by a soldier, advisor or elephant): the
    /// side to move's, then the other side's.
    ATTACKED_BY_LESSER[6; 3],
    /// The side to move's bonus.
    TEMPO[1; 1],
}

const _: () = assert!(PST_SOLDIER.start == PST_GENERAL.start + 6 * 50);
const _: () = assert!(WEIGHTS.len() == PARAMS);

/// The phase of the full starting material (chariot 4, horse and cannon 2 each).
pub const PHASE_MAX: i32 = 32;

/// The material slot of a role (soldiers: before the river; `+ 1` for across).
const fn material_slot(role: Role) -> usize {
    match role {
        Role::General | Role::Advisor => 0,
        Role::Elephant => 1,
        Role::Horse => 2,
        Role::Chariot => 3,
        Role::Cannon => 4,
        Role::Soldier => 5,
    }
}

/// Material value of a role in centipawns, from the tuned weights (the middlegame and
/// endgame values averaged; a soldier before the river): move ordering and pruning use it.
/// The general is worth [`crate::game::TERMINAL_VALUE`].
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General => crate::game::TERMINAL_VALUE,
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

/// The evaluation from the side to move's point of view, in centipawns, under the embedded
/// network ([`super::xiangqi_net`]): the weighted terms plus its correction, or its output
/// alone for a network that is the whole evaluation.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let net = super::xiangqi_net::XiangqiNet::embedded();
    with_network(pos, &net, net.correction(pos))
}

/// [`evaluate`] under `net` with its hidden sums kept up to date by the search: the same
/// value (under the embedded network), without walking the pieces through the network
/// again.
#[inline]
pub fn evaluate_with_accumulator(
    pos: &Position,
    net: &super::xiangqi_net::XiangqiNet,
    acc: &super::xiangqi_net::Accumulator,
) -> i32 {
    with_network(pos, net, acc.output(net, pos.turn()))
}

/// The evaluation from the side to move's point of view given `net`'s `output` for `pos`
/// (first player's view): added to the weighted terms, or the whole evaluation.
#[inline(always)]
fn with_network(pos: &Position, net: &super::xiangqi_net::XiangqiNet, output: i32) -> i32 {
    match net.role() {
        super::xiangqi_net::NetworkRole::Correction => evaluate_corrected(pos, output),
        super::xiangqi_net::NetworkRole::Evaluation => {
            if pos.turn() == Side::First {
                output
            } else {
                -output
            }
        }
    }
}

/// The weighted terms (compiled or overridden) plus `correction`, from the side to move's
/// point of view.
#[inline(always)]
fn evaluate_corrected(pos: &Position, correction: i32) -> i32 {
    if let Some(v) = OVERRIDE.with(PARAMS, |w| evaluate_packed(pos, w, correction)) {
        return v;
    }
    evaluate_packed(pos, &PACKED, correction)
}

/// The evaluation under packed weights (the fast path of [`evaluate`]).
#[inline(always)]
fn evaluate_packed(pos: &Position, packed: &[i64], correction: i32) -> i32 {
    let v = weighted_terms(pos, packed) + correction;
    if pos.turn() == Side::First {
        v
    } else {
        -v
    }
}

/// The weighted terms under packed weights, from the first player's point of view.
#[inline(always)]
fn weighted_terms(pos: &Position, packed: &[i64]) -> i32 {
    let mut sum = PackedSum::new(packed);
    let phase = features(pos, &mut sum);
    let (mg, eg) = sum.halves();
    taper(mg, eg, phase, PHASE_MAX)
}

/// The compiled weighted terms alone, without the network, from the first player's point of
/// view: what the network's trainer corrects (`tune --dump-net`).
pub fn evaluate_linear(pos: &Position) -> i32 {
    weighted_terms(pos, &PACKED)
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

/// Replaces the compiled weights at run time for every Xiangqi evaluation in the process
/// (`None`: back to the compiled ones). For experiments such as the tuner's matches.
pub fn set_weights_override(weights: Option<&[Weight]>) {
    OVERRIDE.set(weights);
}

/// The piece-square index of a point for a side: relative rank (0 = own back rank) × 5 +
/// the file folded onto a–e (a and i → 0, e → 4).
pub const fn pst_index(side: usize, square: usize) -> usize {
    let file = square % 9;
    let rank = square / 9;
    let rel = if side == 0 { rank } else { 9 - rank };
    let folded = if file > 4 { 8 - file } else { file };
    rel * 5 + folded
}

const fn pst_table() -> [[u8; 90]; 2] {
    let mut t = [[0u8; 90]; 2];
    let mut s = 0;
    while s < 2 {
        let mut sq = 0;
        while sq < 90 {
            t[s][sq] = pst_index(s, sq) as u8;
            sq += 1;
        }
        s += 1;
    }
    t
}

static PST_INDEX: [[u8; 90]; 2] = pst_table();

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

/// The leg points of a horse on each point whose leap lands on the board.
const fn horse_leg_table() -> [u128; 90] {
    let mut t = [0u128; 90];
    let dirs: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let (lf, lr) = (f + df, r + dr);
            // The two landing points beyond the leg.
            let (a, b) = if df != 0 {
                ((f + 2 * df, r + 1), (f + 2 * df, r - 1))
            } else {
                ((f + 1, r + 2 * dr), (f - 1, r + 2 * dr))
            };
            if on_board(lf, lr) && (on_board(a.0, a.1) || on_board(b.0, b.1)) {
                t[sq] |= 1u128 << (lr * 9 + lf);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static HORSE_LEGS: [u128; 90] = horse_leg_table();

const PALACE: [u128; 2] = [palace(0), palace(1)];
const FILE_I: u128 = {
    let mut bb = 0u128;
    let mut r = 0;
    while r < 10 {
        bb |= 1u128 << (r * 9 + 8);
        r += 1;
    }
    bb
};
const FILE_A: u128 = FILE_I >> 8;
/// Points across the river for each side (where its soldiers have crossed).
const ACROSS: [u128; 2] = [
    !((1u128 << 45) - 1) & ((1u128 << 90) - 1),
    (1u128 << 45) - 1,
];
const SIGN: [i32; 2] = [1, -1];

/// The number of points in a set (the full population count: mobility).
#[inline(always)]
fn count(bb: u128) -> i32 {
    bb.count_ones() as i32
}

/// The number of points in a set that is usually empty or nearly so (threats, legs):
/// cheaper than a population count on targets without one.
#[inline(always)]
fn count_sparse(mut bb: u128) -> i32 {
    let mut n = 0;
    while bb != 0 {
        bb &= bb - 1;
        n += 1;
    }
    n
}

/// The points strictly between two points on one file or rank.
#[inline(always)]
fn between(a: Square, b: Square) -> u128 {
    let (lo, hi) = if a.index() < b.index() {
        (a.index(), b.index())
    } else {
        (b.index(), a.index())
    };
    let span = (1u128 << hi) - (1u128 << (lo + 1));
    if a.rank() == b.rank() {
        span
    } else {
        span & (FILE_A << a.file())
    }
}

/// Sends every term of the evaluation to `acc` (Red's point of view: Red's terms count +1,
/// Black's −1) and returns the game phase (0..=[`PHASE_MAX`]).
#[inline(always)]
pub fn features<A: Accumulator>(pos: &Position, acc: &mut A) -> i32 {
    let occ = pos.occupied();
    let sides = [pos.side_bb(Side::First), pos.side_bb(Side::Second)];
    let generals = pos.role_bb(Role::General);
    let advisors = pos.role_bb(Role::Advisor);
    let elephants = pos.role_bb(Role::Elephant);
    let horses = pos.role_bb(Role::Horse);
    let chariots = pos.role_bb(Role::Chariot);
    let cannons = pos.role_bb(Role::Cannon);
    let soldiers = pos.role_bb(Role::Soldier);
    let turn = pos.turn().index();

    // Pieces by material slot (advisor, elephant, horse, chariot, cannon, soldier, crossed
    // soldier), counted as the loops meet them.
    let mut n = [[0i32; 7]; 2];
    // Attack maps: all of a side's attacks, those of soldiers, advisors and elephants
    // ("low"), of horses and cannons ("mid"), and of soldiers alone.
    let mut att = [0u128; 2];
    let mut att_low = [0u128; 2];
    let mut att_mid = [0u128; 2];
    let mut soldier_att = [0u128; 2];
    // Pieces aiming at the enemy palace: chariots, horses, cannons, crossed soldiers.
    let mut aims = [[0i32; 4]; 2];

    // Piece-square tables and the short-range attacks.
    for s in 0..2 {
        let sg = SIGN[s];
        let own = sides[s];
        let pst = &PST_INDEX[s];
        let their_palace = PALACE[s ^ 1];

        for sq in squares(generals & own) {
            acc.add(PST_GENERAL.at(pst[sq.index()] as usize), sg);
            att[s] |= GENERAL_STEPS[s][sq.index()];
        }
        for sq in squares(advisors & own) {
            acc.add(PST_ADVISOR.at(pst[sq.index()] as usize), sg);
            att_low[s] |= ADVISOR_STEPS[s][sq.index()];
            n[s][0] += 1;
        }
        for sq in squares(elephants & own) {
            acc.add(PST_ELEPHANT.at(pst[sq.index()] as usize), sg);
            att_low[s] |= elephant_attacks(s, sq, occ);
            n[s][1] += 1;
        }
        let crossed = soldiers & own & ACROSS[s];
        for sq in squares(soldiers & own) {
            acc.add(PST_SOLDIER.at(pst[sq.index()] as usize), sg);
            let steps = SOLDIER_STEPS[s][sq.index()];
            soldier_att[s] |= steps;
            if crossed & sq.bb() == 0 {
                n[s][5] += 1;
            } else {
                n[s][6] += 1;
                if (steps | sq.bb()) & their_palace != 0 {
                    aims[s][3] += 1;
                }
            }
        }
        // Crossed soldiers side by side (bit i and i + 1 on one rank).
        let pairs = crossed & (crossed >> 1) & !FILE_I;
        acc.add(SOLDIER_CONNECTED.at(0), sg * count_sparse(pairs));
        att_low[s] |= soldier_att[s];
    }

    // Chariots, horses and cannons: mobility (a horse's counts the enemy soldiers' steps),
    // files, lines to the enemy general.
    for s in 0..2 {
        let sg = SIGN[s];
        let e = s ^ 1;
        let own = sides[s];
        let pst = &PST_INDEX[s];
        let their_palace = PALACE[e];
        let own_soldiers = soldiers & own;
        let their_general = generals & sides[e];

        for sq in squares(chariots & own) {
            acc.add(PST_CHARIOT.at(pst[sq.index()] as usize), sg);
            n[s][3] += 1;
            let a = rook_attacks(sq, occ);
            att[s] |= a;
            acc.add(MOB_CHARIOT.at(count(a & !own) as usize), sg);
            let file = FILE_A << sq.file();
            if file & soldiers == 0 {
                acc.add(CHARIOT_FILE.at(0), sg);
            } else if file & own_soldiers == 0 {
                acc.add(CHARIOT_FILE.at(1), sg);
            }
            if a & their_palace != 0 {
                aims[s][0] += 1;
            }
        }
        for sq in squares(horses & own) {
            acc.add(PST_HORSE.at(pst[sq.index()] as usize), sg);
            n[s][2] += 1;
            let a = horse_attacks(sq, occ);
            att_mid[s] |= a;
            acc.add(MOB_HORSE.at(count(a & !own & !soldier_att[e]) as usize), sg);
            acc.add(
                HORSE_BLOCKED_LEG.at(0),
                sg * count_sparse(HORSE_LEGS[sq.index()] & occ),
            );
            if a & their_palace != 0 {
                aims[s][1] += 1;
            }
        }
        for sq in squares(cannons & own) {
            acc.add(PST_CANNON.at(pst[sq.index()] as usize), sg);
            n[s][4] += 1;
            let slide = rook_attacks(sq, occ);
            acc.add(MOB_CANNON.at(count(slide & !occ) as usize), sg);
            // Beyond the screens: up to and including the next piece on each line (that
            // piece is what the cannon captures); the rest is what it aims at.
            let beyond = rook_attacks(sq, occ & !(slide & occ)) & !slide;
            att_mid[s] |= beyond & occ;
            if beyond & their_palace != 0 {
                aims[s][2] += 1;
            }
            for g in squares(their_general) {
                let row = if g.file() == sq.file() {
                    0
                } else if g.rank() == sq.rank() {
                    4
                } else {
                    continue;
                };
                let screens = count_sparse(between(sq, g) & occ).min(3) as usize;
                acc.add(CANNON_LINE.at(row + screens), sg);
            }
        }
        att[s] |= att_low[s] | att_mid[s];
    }

    // Material, the general's safety and the threats, for each defending side `d`.
    for d in 0..2 {
        let e = d ^ 1;
        let (sgd, sge) = (SIGN[d], SIGN[e]);
        let own = sides[d];
        for (slot, &k) in n[d].iter().enumerate() {
            acc.add(MATERIAL.at(slot), sgd * k);
        }
        let adv = n[d][0].min(2);
        let ele = n[d][1].min(2);
        let missing = (4 - adv - ele) as usize;
        for (k, &a) in aims[e].iter().enumerate() {
            if a != 0 {
                acc.add(KING_ATTACKERS.at(k * 5 + missing), sge * a);
            }
        }
        // The enemy's chariots, horses, cannons, crossed soldiers.
        let enemy = [n[e][3], n[e][2], n[e][4], n[e][6]];
        for (k, &c) in enemy.iter().enumerate() {
            acc.add(MISSING_DEFENDERS.at(k), sge * (2 - adv) * c);
            acc.add(MISSING_DEFENDERS.at(4 + k), sge * (2 - ele) * c);
        }
        acc.add(
            PALACE_PRESSURE.at(0),
            sge * count_sparse(att[e] & PALACE[d]),
        );

        let row = if d == turn { 0 } else { 1 };
        let hanging = own & att[e] & !att[d];
        if hanging != 0 {
            let by_role = [advisors, elephants, horses, chariots, cannons, soldiers];
            for (slot, &bb) in by_role.iter().enumerate() {
                acc.add(HANGING.at(row * 6 + slot), sgd * count_sparse(hanging & bb));
            }
        }
        let low = att_low[e];
        let lesser = [
            horses & own & low,
            chariots & own & (low | att_mid[e]),
            cannons & own & low,
        ];
        for (slot, &bb) in lesser.iter().enumerate() {
            if bb != 0 {
                acc.add(
                    ATTACKED_BY_LESSER.at(row * 3 + slot),
                    sgd * count_sparse(bb),
                );
            }
        }
    }

    acc.add(TEMPO.at(0), SIGN[turn]);

    let phase = 4 * (n[0][3] + n[1][3]) + 2 * (n[0][2] + n[1][2] + n[0][4] + n[1][4]);
    phase.min(PHASE_MAX)
}

/// The hand-set weights the first tuning started from (and the baseline of the tuner's
/// matches).
pub fn initial_weights() -> Vec<Weight> {
    let mut w = vec![[0, 0]; PARAMS];
    let mat = [
        [180, 200],
        [180, 200],
        [420, 460],
        [950, 1000],
        [480, 420],
        [70, 90],
        [160, 200],
    ];
    w[MATERIAL.start..MATERIAL.end()].copy_from_slice(&mat);
    for rel in 0..10 {
        for f in 0..5 {
            let i = rel * 5 + f;
            let centre = f as i32; // 0 at the edge, 4 on the central file
                                   // General: best on the back rank, in the middle.
            if rel < 3 && f >= 3 {
                let v = -10 * rel as i32 - if f == 3 { 10 } else { 0 };
                w[PST_GENERAL.at(i)] = [v, v / 2];
            }
            if rel == 2 && f == 4 {
                w[PST_ELEPHANT.at(i)] = [10, 5];
            }
            if rel == 1 && f == 4 {
                w[PST_ADVISOR.at(i)] = [5, 5];
            }
            let horse_rank = [-20, -10, 0, 5, 10, 20, 25, 25, 15, 0][rel];
            let horse_file = [-10, -5, 0, 5, 5][f];
            w[PST_HORSE.at(i)] = [horse_rank + horse_file, (horse_rank + horse_file) / 2];
            let chariot_rank = [0, 5, 0, 0, 5, 10, 10, 15, 20, 5][rel];
            w[PST_CHARIOT.at(i)] = [chariot_rank + 2 * centre, chariot_rank / 2];
            let cannon_rank = [0, 0, 5, 5, 5, 5, 5, 0, -5, 5][rel];
            let cannon_file = [0, 0, 0, 5, 10][f];
            w[PST_CANNON.at(i)] = [cannon_rank + cannon_file, cannon_rank / 2];
            let soldier = match rel {
                3 | 4 => [if f == 4 { 5 } else { 0 }, 0],
                5..=8 => {
                    let r = [20, 40, 50, 40][rel - 5] + 5 * centre;
                    [r, r + 10]
                }
                9 => [-10, 0],
                _ => [0, 0],
            };
            w[PST_SOLDIER.at(i)] = soldier;
        }
    }
    for n in 0..18 {
        let v = 5 * (n as i32 - 7);
        w[MOB_CHARIOT.at(n)] = [v, v];
        let v = 3 * (n as i32 - 6);
        w[MOB_CANNON.at(n)] = [v, 2 * (n as i32 - 6)];
    }
    for n in 0..9 {
        w[MOB_HORSE.at(n)] = [12 * (n as i32 - 3), 10 * (n as i32 - 3)];
    }
    w[HORSE_BLOCKED_LEG.at(0)] = [-8, -6];
    let base = [[20, 10], [15, 8], [15, 5], [15, 10]];
    for (k, b) in base.iter().enumerate() {
        for m in 0..5 {
            w[KING_ATTACKERS.at(k * 5 + m)] = [b[0] + 10 * m as i32, b[1] + 5 * m as i32];
        }
    }
    let missing = [
        [10, 5],
        [20, 10],
        [5, 3],
        [10, 8],
        [5, 3],
        [5, 3],
        [20, 10],
        [5, 3],
    ];
    w[MISSING_DEFENDERS.start..MISSING_DEFENDERS.end()].copy_from_slice(&missing);
    w[PALACE_PRESSURE.at(0)] = [6, 3];
    let lines = [
        [40, 10],
        [20, 10],
        [30, 10],
        [10, 5],
        [15, 5],
        [10, 5],
        [15, 5],
        [5, 0],
    ];
    w[CANNON_LINE.start..CANNON_LINE.end()].copy_from_slice(&lines);
    w[CHARIOT_FILE.at(0)] = [15, 10];
    w[CHARIOT_FILE.at(1)] = [8, 5];
    w[SOLDIER_CONNECTED.at(0)] = [10, 25];
    let hanging_later = [-20, -20, -40, -80, -40, -10];
    for slot in 0..6 {
        w[HANGING.at(slot)] = [-5, -5];
        let v = hanging_later[slot];
        w[HANGING.at(6 + slot)] = [v, v];
    }
    let lesser_later = [-40, -80, -40];
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
    const MODULE: &'static str = "xiangqi";
    const WEIGHTS_FILE: &'static str = "src/eval/xiangqi_weights.rs";

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
        for i in 0..90u8 {
            let s = Square::new(i).unwrap();
            let across = Square::from_coords(8 - s.file(), s.rank()).unwrap();
            assert_eq!(pst_index(0, s.index()), pst_index(0, across.index()));
            assert_eq!(pst_index(0, s.index()), pst_index(1, s.flip_rank().index()));
            assert!(pst_index(0, s.index()) < 50);
        }
        assert_eq!(pst_index(0, sq("e1").index()), 4);
        assert_eq!(pst_index(1, sq("a10").index()), 0);
    }

    #[test]
    fn horse_legs_lead_onto_the_board() {
        // In the corner both legs lead somewhere; on b1 the leg a1 leads off the board.
        assert_eq!(HORSE_LEGS[sq("a1").index()], sq("b1").bb() | sq("a2").bb());
        assert_eq!(HORSE_LEGS[sq("b1").index()], sq("c1").bb() | sq("b2").bb());
        assert_eq!(HORSE_LEGS[sq("e5").index()].count_ones(), 4);
    }

    #[test]
    fn between_counts_the_points_of_a_line() {
        assert_eq!(between(sq("e1"), sq("e10")).count_ones(), 8);
        assert_eq!(between(sq("e10"), sq("e1")), between(sq("e1"), sq("e10")));
        assert_eq!(between(sq("a1"), sq("i1")).count_ones(), 7);
        assert_eq!(between(sq("c3"), sq("d3")), 0);
        assert_eq!(between(sq("b3"), sq("b8")) & sq("b5").bb(), sq("b5").bb());
    }

    /// The position with colours swapped and the board turned (FEN text: ranks reversed,
    /// letter case swapped, the other side to move).
    fn colour_flipped(pos: &Position) -> Position {
        let fen = pos.to_fen();
        let mut fields = fen.split(' ');
        let placement: Vec<String> = fields
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let turn = if fields.next() == Some("w") { "b" } else { "w" };
        let flipped = format!("{} {turn} - - 0 1", placement.join("/"));
        Position::from_fen(&flipped, pos.rules()).unwrap()
    }

    #[test]
    fn evaluation_is_the_same_for_either_colour() {
        let mut rng = super::super::tune::Rng::new(7);
        for game in 0..40 {
            let mut pos = Position::start();
            for _ in 0..(20 + game * 3) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play_unchecked(m);
                let flipped = colour_flipped(&pos);
                assert_eq!(
                    evaluate(&pos),
                    evaluate(&flipped),
                    "{} vs {}",
                    pos.to_fen(),
                    flipped.to_fen()
                );
            }
        }
    }

    #[test]
    fn start_position_features_cancel_but_for_tempo() {
        let mut fv = super::super::FeatureVector::new(PARAMS);
        let phase = features(&Position::start(), &mut fv);
        assert_eq!(phase, PHASE_MAX);
        let left: Vec<(usize, i32)> = fv.entries().collect();
        assert_eq!(left, vec![(TEMPO.at(0), 1)]);
    }
}
