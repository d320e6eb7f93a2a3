//! Xiangqi attack tables (built by `const fn`) and sliding attacks on 128-bit boards.

use super::bitboard::Square;

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn bit(f: i32, r: i32) -> u128 {
    1u128 << (r * 9 + f)
}

/// The palace of a side (files d–f; ranks 1–3 for Red, 8–10 for Black).
pub const fn palace(side: usize) -> u128 {
    let mut bb = 0u128;
    let mut r = 0;
    while r < 3 {
        let mut f = 3;
        while f < 6 {
            let rank = if side == 0 { r } else { 9 - r };
            bb |= bit(f, rank);
            f += 1;
        }
        r += 1;
    }
    bb
}

/// A side's own half of the board (before the river).
pub const fn own_half(side: usize) -> u128 {
    let low = (1u128 << 45) - 1;
    if side == 0 {
        low
    } else {
        super::bitboard::BOARD & !low
    }
}

const fn steps_in(deltas: &[(i32, i32)], region: u128) -> [u128; 90] {
    let mut table = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        if region & (1u128 << sq) != 0 {
            let mut i = 0;
            while i < deltas.len() {
                let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
                if on_board(nf, nr) && region & bit(nf, nr) != 0 {
                    table[sq] |= bit(nf, nr);
                }
                i += 1;
            }
        }
        sq += 1;
    }
    table
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// General steps inside its palace: `[side][square]`.
pub static GENERAL_STEPS: [[u128; 90]; 2] =
    [steps_in(&ORTHO, palace(0)), steps_in(&ORTHO, palace(1))];
/// Advisor steps inside its palace: `[side][square]`.
pub static ADVISOR_STEPS: [[u128; 90]; 2] =
    [steps_in(&DIAG, palace(0)), steps_in(&DIAG, palace(1))];

/// A blockable two-step move: the square that must be empty and the targets behind it.
#[derive(Clone, Copy, Debug)]
pub struct Blockable {
    /// The horse's leg or the elephant's eye.
    pub block: u128,
    /// Targets reached when `block` is empty.
    pub targets: u128,
}

const EMPTY_BLOCK: Blockable = Blockable {
    block: 0,
    targets: 0,
};

const fn elephant_table(side: usize) -> [[Blockable; 4]; 90] {
    let mut table = [[EMPTY_BLOCK; 4]; 90];
    let half = own_half(side);
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            let (tf, tr) = (f + 2 * df, r + 2 * dr);
            if on_board(tf, tr) && half & bit(tf, tr) != 0 && half & (1u128 << sq) != 0 {
                table[sq][d] = Blockable {
                    block: bit(f + df, r + dr),
                    targets: bit(tf, tr),
                };
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Elephant moves: `[side][square]`, four (eye, target) pairs, never across the river.
pub static ELEPHANT_MOVES: [[[Blockable; 4]; 90]; 2] = [elephant_table(0), elephant_table(1)];

const fn horse_table() -> [[Blockable; 4]; 90] {
    let mut table = [[EMPTY_BLOCK; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (lf, lr) = ORTHO[d];
            if on_board(f + lf, r + lr) {
                let mut targets = 0u128;
                let mut s = -1;
                while s <= 1 {
                    // Two steps along the leg direction, one step sideways.
                    let (tf, tr) = if lf != 0 {
                        (f + 2 * lf, r + s)
                    } else {
                        (f + s, r + 2 * lr)
                    };
                    if on_board(tf, tr) {
                        targets |= bit(tf, tr);
                    }
                    s += 2;
                }
                table[sq][d] = Blockable {
                    block: bit(f + lf, r + lr),
                    targets,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Horse moves per square: four (leg, targets) pairs.
pub static HORSE_MOVES: [[Blockable; 4]; 90] = horse_table();

const fn horse_attacker_table() -> [[Blockable; 8]; 90] {
    // For a target T: a horse on T + (df, dr) attacks T when its leg, the square next to the
    // horse toward T along the long direction, is empty.
    let mut table = [[EMPTY_BLOCK; 8]; 90];
    let offsets: [(i32, i32); 8] = [
        (1, 2),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (2, -1),
        (-2, 1),
        (-2, -1),
    ];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut i = 0;
        while i < 8 {
            let (df, dr) = offsets[i];
            let (hf, hr) = (f + df, r + dr);
            if on_board(hf, hr) {
                let (lf, lr) = if dr == 2 || dr == -2 {
                    (hf, hr - dr / 2)
                } else {
                    (hf - df / 2, hr)
                };
                table[sq][i] = Blockable {
                    block: bit(lf, lr),
                    targets: bit(hf, hr),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Reverse horse table: for a target, the eight squares a horse could attack it from
/// (`targets`) with the leg that must be empty (`block`).
pub static HORSE_ATTACKERS: [[Blockable; 8]; 90] = horse_attacker_table();

const fn horse_attacker_points_table() -> [u128; 90] {
    let mut table = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < 8 {
            table[sq] |= HORSE_ATTACKERS[sq][i].targets;
            i += 1;
        }
        sq += 1;
    }
    table
}

/// For a target, every point a horse could attack it from, legs aside (the union of its
/// [`HORSE_ATTACKERS`] entries): most of the time no horse stands on one, and the entries need
/// no look.
pub static HORSE_ATTACKER_POINTS: [u128; 90] = horse_attacker_points_table();

const fn soldier_table(side: usize) -> [u128; 90] {
    let mut table = [0u128; 90];
    let forward: i32 = if side == 0 { 1 } else { -1 };
    let home = own_half(side);
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        if on_board(f, r + forward) {
            table[sq] |= bit(f, r + forward);
        }
        if home & (1u128 << sq) == 0 {
            if on_board(f + 1, r) {
                table[sq] |= bit(f + 1, r);
            }
            if on_board(f - 1, r) {
                table[sq] |= bit(f - 1, r);
            }
        }
        sq += 1;
    }
    table
}

/// Soldier moves: `[side][square]`, forward, and sideways once across the river.
pub static SOLDIER_STEPS: [[u128; 90]; 2] = [soldier_table(0), soldier_table(1)];

/// The steps of all of a side's soldiers at once, by direction: forward, east, west (east and
/// west only across the river). Within one direction no two soldiers share a destination, so
/// each bitboard's popcount is its number of moves; `to - delta` is where a step came from.
#[inline(always)]
pub fn soldier_steps(side: usize, soldiers: u128) -> [(u128, i32); 3] {
    const FILE_A: u128 = super::bitboard::file_bb(0);
    const FILE_I: u128 = super::bitboard::file_bb(8);
    let (forward, delta) = if side == 0 {
        ((soldiers << 9) & super::bitboard::BOARD, 9)
    } else {
        (soldiers >> 9, -9)
    };
    let across = soldiers & !own_half(side);
    [
        (forward, delta),
        ((across & !FILE_I) << 1, 1),
        ((across & !FILE_A) >> 1, -1),
    ]
}

const fn soldier_attacker_table(side: usize) -> [u128; 90] {
    let mut table = [0u128; 90];
    let mut from = 0;
    while from < 90 {
        let mut targets = soldier_table(side)[from];
        let mut t = 0;
        while targets != 0 {
            if targets & 1 != 0 {
                table[t] |= 1u128 << from;
            }
            targets >>= 1;
            t += 1;
        }
        from += 1;
    }
    table
}

/// Reverse soldier table: `[attacker side][target]` → squares a soldier of that side attacks it from.
pub static SOLDIER_ATTACKERS: [[u128; 90]; 2] =
    [soldier_attacker_table(0), soldier_attacker_table(1)];

const fn ray_table(df: i32, dr: i32) -> [u128; 128] {
    let mut table = [0u128; 128];
    let mut sq = 0;
    while sq < 90 {
        let (mut f, mut r) = ((sq % 9) as i32 + df, (sq / 9) as i32 + dr);
        while on_board(f, r) {
            table[sq] |= bit(f, r);
            f += df;
            r += dr;
        }
        sq += 1;
    }
    table
}

/// Rays toward higher indices (north, east) and lower indices (south, west). Each table has
/// 128 entries so that the index of any bit of a `u128` reads one: the entries past the board
/// are empty, and so are `a1`'s southward and westward rays.
static RAY_NORTH: [u128; 128] = ray_table(0, 1);
static RAY_EAST: [u128; 128] = ray_table(1, 0);
static RAY_SOUTH: [u128; 128] = ray_table(0, -1);
static RAY_WEST: [u128; 128] = ray_table(-1, 0);

/// The nearest point of `bb` along a ray, or the ray's sentinel when `bb` is empty: the
/// lowest index on increasing rays (north, east), sentinel 127; the highest on decreasing
/// ones (south, west), sentinel 0 (`a1`, which no decreasing ray passes beyond). The rays
/// from a sentinel are empty, so a missing blocker needs no branch: the ray from "the
/// nearest blocker" is then empty and the whole ray counts as reached.
#[inline(always)]
fn nearest<const INCREASING: bool>(bb: u128) -> usize {
    if INCREASING {
        (bb | 1 << 127).trailing_zeros() as usize
    } else {
        127 - (bb | 1).leading_zeros() as usize
    }
}

/// Squares reached along one ray, up to and including the first blocker.
#[inline(always)]
fn ray<const INCREASING: bool>(ray: &[u128; 128], sq: usize, occ: u128) -> u128 {
    let r = ray[sq];
    r ^ ray[nearest::<INCREASING>(r & occ)]
}

/// The first piece beyond the first piece (the screen) along one ray, if any.
#[inline(always)]
fn screened<const INCREASING: bool>(ray: &[u128; 128], sq: usize, occ: u128) -> u128 {
    let beyond_screen = ray[nearest::<INCREASING>(ray[sq] & occ)] & occ;
    // `beyond_screen` is empty when there is no screen or nothing behind it; the sentinel bit
    // (127, or 0 which is then not in `beyond_screen`) is masked off.
    (1u128 << nearest::<INCREASING>(beyond_screen)) & beyond_screen
}

/// The first pieces met along one ray from a point, nearest first.
#[derive(Clone, Copy, Debug, Default)]
pub struct RayPieces {
    /// The first three pieces as one-point bitboards (0 where the ray holds fewer).
    pub pieces: [u128; 3],
    /// For each piece present, the points from the origin (excluded) up to and including it:
    /// what a piece must reach to stand between the origin and it, or to take it. (Where the
    /// piece is absent it holds the rest of the ray, and means nothing.)
    pub reach: [u128; 3],
}

#[inline(always)]
fn ray_pieces<const INCREASING: bool>(ray: &[u128; 128], sq: usize, occ: u128) -> RayPieces {
    let mut out = RayPieces::default();
    let mut rest = ray[sq] & occ;
    for slot in 0..3 {
        let i = nearest::<INCREASING>(rest);
        out.pieces[slot] = (1u128 << i) & rest;
        out.reach[slot] = ray[sq] ^ ray[i];
        rest &= ray[i];
    }
    out
}

/// The first three pieces of `occ` along the four rays from `sq`: north and south (the file,
/// where the generals face each other) at indices 0 and 1, east and west (the rank) at 2 and 3.
/// Chariots check through none of them, cannons through exactly one.
#[inline(always)]
pub fn line_pieces(sq: Square, occ: u128) -> [RayPieces; 4] {
    let i = sq.index();
    [
        ray_pieces::<true>(&RAY_NORTH, i, occ),
        ray_pieces::<false>(&RAY_SOUTH, i, occ),
        ray_pieces::<true>(&RAY_EAST, i, occ),
        ray_pieces::<false>(&RAY_WEST, i, occ),
    ]
}

/// Squares a chariot on `sq` reaches: up to and including the first piece in each direction.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u128) -> u128 {
    let i = sq.index();
    ray::<true>(&RAY_NORTH, i, occ)
        | ray::<true>(&RAY_EAST, i, occ)
        | ray::<false>(&RAY_SOUTH, i, occ)
        | ray::<false>(&RAY_WEST, i, occ)
}

/// The squares along the file from `sq`, up to and including the first piece each way.
#[inline(always)]
pub fn file_attacks(sq: Square, occ: u128) -> u128 {
    let i = sq.index();
    ray::<true>(&RAY_NORTH, i, occ) | ray::<false>(&RAY_SOUTH, i, occ)
}

/// Pieces a cannon on `sq` may capture (of any side): the first piece beyond exactly one screen.
#[inline(always)]
pub fn cannon_captures(sq: Square, occ: u128) -> u128 {
    let i = sq.index();
    screened::<true>(&RAY_NORTH, i, occ)
        | screened::<true>(&RAY_EAST, i, occ)
        | screened::<false>(&RAY_SOUTH, i, occ)
        | screened::<false>(&RAY_WEST, i, occ)
}

/// Squares a horse on `sq` reaches given its legs.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: u128) -> u128 {
    let mut bb = 0;
    for m in &HORSE_MOVES[sq.index()] {
        if m.block & occ == 0 {
            bb |= m.targets;
        }
    }
    bb
}

/// Squares an elephant of `side` on `sq` reaches given its eyes.
#[inline(always)]
pub fn elephant_attacks(side: usize, sq: Square, occ: u128) -> u128 {
    let mut bb = 0;
    for m in &ELEPHANT_MOVES[side][sq.index()] {
        if m.block & occ == 0 {
            bb |= m.targets;
        }
    }
    bb
}

/// Horses in `horses` that attack `target` given the occupancy.
#[inline(always)]
pub fn horse_attackers(target: Square, horses: u128, occ: u128) -> u128 {
    let mut bb = 0;
    if HORSE_ATTACKER_POINTS[target.index()] & horses == 0 {
        return bb;
    }
    for a in &HORSE_ATTACKERS[target.index()] {
        if a.targets & horses != 0 && a.block & occ == 0 {
            bb |= a.targets;
        }
    }
    bb
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_cell(chuhe_notation::Cell::parse(name).unwrap()).unwrap()
    }

    #[test]
    fn tables_have_the_expected_sizes() {
        assert_eq!(palace(0).count_ones(), 9);
        assert_eq!(GENERAL_STEPS[0][sq("e2").index()].count_ones(), 4);
        assert_eq!(GENERAL_STEPS[0][sq("d1").index()].count_ones(), 2);
        assert_eq!(ADVISOR_STEPS[0][sq("e2").index()].count_ones(), 4);
        assert_eq!(
            elephant_attacks(0, sq("c1"), 0),
            sq("a3").bb() | sq("e3").bb()
        );
        assert_eq!(elephant_attacks(0, sq("c1"), sq("d2").bb()), sq("a3").bb());
        assert_eq!(elephant_attacks(0, sq("e3"), 0).count_ones(), 4);
        // Never across the river.
        assert_eq!(
            elephant_attacks(0, sq("c5"), 0),
            sq("a3").bb() | sq("e3").bb()
        );
        assert_eq!(
            horse_attacks(sq("b1"), 0),
            sq("a3").bb() | sq("c3").bb() | sq("d2").bb()
        );
        assert_eq!(horse_attacks(sq("b1"), sq("b2").bb()), sq("d2").bb());
        assert_eq!(SOLDIER_STEPS[0][sq("e4").index()], sq("e5").bb());
        assert_eq!(SOLDIER_STEPS[0][sq("e6").index()].count_ones(), 3);
        assert_eq!(SOLDIER_STEPS[0][sq("e10").index()].count_ones(), 2);
    }

    #[test]
    fn reverse_tables_agree_with_forward_ones() {
        for t in Square::all() {
            for h in Square::all() {
                for occ in [
                    0u128,
                    0x1234_5678_9ABC_DEF0_1357_9BDF_0246 & super::super::bitboard::BOARD,
                ] {
                    let occ = occ & !h.bb() & !t.bb();
                    let forward = horse_attacks(h, occ) & t.bb() != 0;
                    let reverse = horse_attackers(t, h.bb(), occ) != 0;
                    assert_eq!(forward, reverse, "horse {h} → {t}");
                }
                for side in 0..2 {
                    let forward = SOLDIER_STEPS[side][h.index()] & t.bb() != 0;
                    let reverse = SOLDIER_ATTACKERS[side][t.index()] & h.bb() != 0;
                    assert_eq!(forward, reverse);
                }
            }
        }
    }

    #[test]
    fn line_pieces_lists_the_first_three_each_way() {
        // From e1: e4, e7, e10 up the file; nothing down; d1 and i1 along the rank.
        let occ = sq("e4").bb() | sq("e7").bb() | sq("e10").bb() | sq("d1").bb() | sq("i1").bb();
        let [north, south, east, west] = line_pieces(sq("e1"), occ);
        assert_eq!(north.pieces, [sq("e4").bb(), sq("e7").bb(), sq("e10").bb()]);
        assert_eq!(
            north.reach[1],
            ["e2", "e3", "e4", "e5", "e6", "e7"]
                .iter()
                .fold(0, |bb, name| bb | sq(name).bb())
        );
        assert_eq!(south.pieces, [0; 3]);
        assert_eq!(east.pieces, [sq("i1").bb(), 0, 0]);
        assert_eq!(east.reach[0].count_ones(), 4);
        assert_eq!(
            (west.pieces[0], west.reach[0]),
            (sq("d1").bb(), sq("d1").bb())
        );
    }

    #[test]
    fn soldier_steps_at_once_equal_the_table() {
        for (side, table) in SOLDIER_STEPS.iter().enumerate() {
            for from in Square::all() {
                let mut union = 0;
                for (to_set, delta) in soldier_steps(side, from.bb()) {
                    for to in 0..90i32 {
                        if to_set & (1u128 << to) != 0 {
                            assert_eq!(to - delta, from.index() as i32);
                        }
                    }
                    union |= to_set;
                }
                assert_eq!(union, table[from.index()], "{side} {from}");
            }
        }
    }

    #[test]
    fn sliders_and_cannon_screens() {
        let occ = sq("b5").bb() | sq("b8").bb() | sq("b10").bb() | sq("e3").bb();
        assert_eq!(cannon_captures(sq("b3"), occ), sq("b8").bb());
        assert_eq!(rook_attacks(sq("b3"), occ) & sq("b5").bb(), sq("b5").bb());
        assert_eq!(rook_attacks(sq("b3"), occ).count_ones(), 2 + 3 + 1 + 2);
    }
}
