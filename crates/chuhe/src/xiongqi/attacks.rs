//! Precomputed attack tables (built by `const fn` at compile time) and sliding attacks.
//!
//! Sliding pieces use hyperbola quintessence on files and diagonals and a small
//! occupancy table on ranks.

use super::bitboard::{file_bb, Square};

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i8;
        let rank = (sq / 8) as i8;
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let f = file + deltas[i].0;
            let r = rank + deltas[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = bb;
        sq += 1;
    }
    table
}

/// One orthogonal step (general, dragon's quiet move).
pub static ORTHOGONAL_STEPS: [u64; 64] = step_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
/// One diagonal step (advisor).
pub static DIAGONAL_STEPS: [u64; 64] = step_table(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
/// The eight knight leaps (empress, which jumps freely).
pub static KNIGHT_LEAPS: [u64; 64] = step_table(&[
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
]);

/// A horse's move in one direction: the leg square that blocks it and the two targets.
#[derive(Clone, Copy, Debug)]
pub struct HorseLeg {
    /// The orthogonally adjacent square that must be empty.
    pub leg: u64,
    /// The targets reached through this leg.
    pub targets: u64,
}

const fn horse_table() -> [[HorseLeg; 4]; 64] {
    let mut table = [[HorseLeg { leg: 0, targets: 0 }; 4]; 64];
    // (leg delta, target deltas)
    type Delta = (i8, i8);
    let dirs: [(Delta, [Delta; 2]); 4] = [
        ((0, 1), [(-1, 2), (1, 2)]),
        ((0, -1), [(-1, -2), (1, -2)]),
        ((1, 0), [(2, 1), (2, -1)]),
        ((-1, 0), [(-2, 1), (-2, -1)]),
    ];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i8;
        let rank = (sq / 8) as i8;
        let mut d = 0;
        while d < 4 {
            let (leg, targets) = dirs[d];
            let lf = file + leg.0;
            let lr = rank + leg.1;
            if lf >= 0 && lf < 8 && lr >= 0 && lr < 8 {
                let mut t = 0u64;
                let mut i = 0;
                while i < 2 {
                    let f = file + targets[i].0;
                    let r = rank + targets[i].1;
                    if f >= 0 && f < 8 && r >= 0 && r < 8 {
                        t |= 1u64 << (r * 8 + f);
                    }
                    i += 1;
                }
                table[sq][d] = HorseLeg {
                    leg: 1u64 << (lr * 8 + lf),
                    targets: t,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Horse moves per square: four legs with their targets.
pub static HORSE_LEGS: [[HorseLeg; 4]; 64] = horse_table();

/// Soldier steps before the river: `[side][square]` one step forward.
pub static SOLDIER_STEPS: [[u64; 64]; 2] = [step_table(&[(0, 1)]), step_table(&[(0, -1)])];
/// Soldier steps after the river: forward or sideways.
pub static CROSSED_SOLDIER_STEPS: [[u64; 64]; 2] = [
    step_table(&[(0, 1), (1, 0), (-1, 0)]),
    step_table(&[(0, -1), (1, 0), (-1, 0)]),
];

const fn line_table(df: i8, dr: i8) -> [u64; 64] {
    // Both directions of a line through the square, the square itself excluded.
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i8;
        let rank = (sq / 8) as i8;
        let mut bb = 0u64;
        let mut sign = 0;
        while sign < 2 {
            let (sf, sr) = if sign == 0 { (df, dr) } else { (-df, -dr) };
            let mut f = file + sf;
            let mut r = rank + sr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1u64 << (r * 8 + f);
                f += sf;
                r += sr;
            }
            sign += 1;
        }
        table[sq] = bb;
        sq += 1;
    }
    table
}

static FILE_LINES: [u64; 64] = line_table(0, 1);
static DIAGONAL_LINES: [u64; 64] = line_table(1, 1);
static ANTI_DIAGONAL_LINES: [u64; 64] = line_table(1, -1);

/// `RANK_ATTACKS[file][inner occupancy]`: attacks along an 8-square rank, where the inner
/// occupancy holds the bits of files b..g (6 bits).
static RANK_ATTACKS: [[u8; 64]; 8] = rank_attack_table();

const fn rank_attack_table() -> [[u8; 64]; 8] {
    let mut table = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut occ6 = 0;
        while occ6 < 64 {
            let occ: u32 = (occ6 as u32) << 1;
            let mut attacks = 0u32;
            let mut f = file as i32 + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            table[file][occ6] = attacks as u8;
            occ6 += 1;
        }
        file += 1;
    }
    table
}

#[inline(always)]
fn line_attacks(sq: Square, occupied: u64, mask: u64) -> u64 {
    let bit = sq.bb();
    let o = occupied & mask;
    let r = o.swap_bytes();
    let forward = o.wrapping_sub(bit.wrapping_mul(2));
    let reverse = r.wrapping_sub(bit.swap_bytes().wrapping_mul(2));
    (forward ^ reverse.swap_bytes()) & mask
}

#[inline(always)]
fn rank_attacks(sq: Square, occupied: u64) -> u64 {
    let shift = 8 * sq.rank() as u32;
    let occ6 = ((occupied >> (shift + 1)) & 63) as usize;
    (RANK_ATTACKS[sq.file() as usize][occ6] as u64) << shift
}

/// Squares a rook on `sq` reaches: up to and including the first piece in each direction.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    line_attacks(sq, occupied, FILE_LINES[sq.index()]) | rank_attacks(sq, occupied)
}

/// Squares a bear (bishop) on `sq` reaches.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    line_attacks(sq, occupied, DIAGONAL_LINES[sq.index()])
        | line_attacks(sq, occupied, ANTI_DIAGONAL_LINES[sq.index()])
}

/// Pieces a cannon on `sq` may capture (of any side): the first piece beyond exactly one screen.
#[inline(always)]
pub fn cannon_captures(sq: Square, occupied: u64) -> u64 {
    let direct = rook_attacks(sq, occupied);
    let screens = direct & occupied;
    let beyond = rook_attacks(sq, occupied & !screens);
    beyond & !direct & occupied
}

/// Squares a horse on `sq` reaches given the occupancy of its legs.
#[inline(always)]
pub fn horse_attacks(sq: Square, occupied: u64) -> u64 {
    let legs = &HORSE_LEGS[sq.index()];
    let mut bb = 0;
    for leg in legs {
        if leg.leg & occupied == 0 {
            bb |= leg.targets;
        }
    }
    bb
}

/// The squares strictly between two squares of the same file (empty otherwise).
pub fn between_on_file(a: Square, b: Square) -> u64 {
    if a.file() != b.file() {
        return 0;
    }
    let (lo, hi) = if a.rank() < b.rank() { (a, b) } else { (b, a) };
    if hi.rank() - lo.rank() < 2 {
        return 0;
    }
    let ranks =
        ((1u64 << (8 * hi.rank() as u32)) - 1) & !((1u64 << (8 * (lo.rank() as u32 + 1))) - 1);
    ranks & file_bb(a.file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_coords(b[0] - b'a', b[1] - b'1').unwrap()
    }

    fn slow_slide(from: Square, occ: u64, dirs: &[(i8, i8)]) -> u64 {
        let mut bb = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (from.file() as i8 + df, from.rank() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_coords(f as u8, r as u8).unwrap();
                bb |= s.bb();
                if occ & s.bb() != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        bb
    }

    #[test]
    fn sliding_attacks_match_a_slow_reference() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(11);
            for s in Square::all() {
                let rook = slow_slide(s, occ, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
                let bishop = slow_slide(s, occ, &[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
                assert_eq!(rook_attacks(s, occ), rook, "rook {s} {occ:#x}");
                assert_eq!(bishop_attacks(s, occ), bishop, "bishop {s} {occ:#x}");
            }
        }
    }

    #[test]
    fn cannon_needs_exactly_one_screen() {
        let c2 = sq("c2");
        let occ = sq("c4").bb() | sq("c7").bb() | sq("c8").bb() | sq("f2").bb();
        // c4 screens c7; c8 is behind two pieces; f2 has no screen.
        assert_eq!(cannon_captures(c2, occ), sq("c7").bb());
    }

    #[test]
    fn horse_is_blocked_by_its_leg() {
        let b1 = sq("b1");
        assert_eq!(
            horse_attacks(b1, 0),
            sq("a3").bb() | sq("c3").bb() | sq("d2").bb()
        );
        assert_eq!(horse_attacks(b1, sq("b2").bb()), sq("d2").bb());
        assert_eq!(between_on_file(sq("e1"), sq("e8")).count_ones(), 6);
        assert_eq!(between_on_file(sq("e2"), sq("e3")), 0);
    }
}
