//! A small network's correction to the Xiangqi evaluation's weighted terms.
//!
//! One hidden layer over (piece, point) inputs, 14 × 90 of them, evaluated from both sides
//! with the same weights: `N = h(board) − h(board seen from Black)`, where
//! `h(x) = W2 · clamp(W1 x + B1, 0, 1)`. A format-2 network has one such input table per
//! point of the palace where the viewing side's general stands ([`PALACE_BUCKETS`] buckets,
//! [`palace_bucket`]): each side sees the board through its own general's placement.
//! Swapping the colours swaps the two halves, so the
//! correction changes sign exactly, as the evaluation must; the trainer ties the hidden
//! units in mirror pairs, so it is also exactly left/right symmetric. The weights are
//! integers, read from a network file ([`mod@file`]) written by `scripts/train_xiangqi_net.py`
//! (see `docs/TUNING.md`); the engine's default is embedded in the binary
//! ([`XiangqiNet::embedded`], `nets/xiangqi-*.nnue`), and another can be loaded at run time
//! ([`XiangqiNet::load`], the UCI option `EvalFile`). The search keeps the hidden sums up to
//! date move by move ([`Accumulator`]); [`XiangqiNet::correction`] computes them from
//! scratch. The inner loops use AVX2 where the CPU has it ([`Kernel`]), with the same
//! results to the bit.
//!
//! ```
//! use chuhe::xiangqi::Position;
//! use chuhe_engine::eval::xiangqi_net::{correction, XiangqiNet};
//! // The starting position looks the same from either side.
//! assert_eq!(correction(&Position::start()), 0);
//! let net = XiangqiNet::embedded();
//! assert_eq!(net.correction(&Position::start()), 0);
//! ```

use std::sync::{Arc, OnceLock};

use chuhe::xiangqi::{squares, Move, Position, Role, Square};
use chuhe::Side;

pub mod file;
mod kernels;

pub use file::NetworkError;
pub use kernels::Kernel;

/// Hidden units.
pub const HIDDEN: usize = 64;
/// Points of the board.
const POINTS: usize = 90;
/// Inputs: a (piece, point) pair each, row `piece index × 90 + point` (per bucket).
pub const INPUTS: usize = 14 * POINTS;
/// Input tables of a format-2 network: one per point of the palace.
pub const PALACE_BUCKETS: usize = 9;
/// The bucket of a general off the palace's nine points, or of none: its home point (e1).
const HOME_BUCKET: usize = 1;

/// The bucket of a general on `point` (rank × 9 + file, seen from its own side: rank 0 is
/// its back rank): `rank × 3 + file − 3` on the nine points of the palace, the home point's
/// (1, e1) anywhere else. Its mirror image (files swapped) is `b / 3 × 3 + 2 − b % 3`.
///
/// ```
/// use chuhe_engine::eval::xiangqi_net::palace_bucket;
/// assert_eq!(palace_bucket(3), 0); // d1
/// assert_eq!(palace_bucket(4), 1); // e1, the home point
/// assert_eq!(palace_bucket(9 + 4), 4); // e2
/// assert_eq!(palace_bucket(2 * 9 + 5), 8); // f3
/// assert_eq!(palace_bucket(40), 1); // outside the palace
/// ```
pub const fn palace_bucket(point: usize) -> usize {
    let (rank, file) = (point / 9, point % 9);
    if rank <= 2 && file >= 3 && file <= 5 {
        rank * 3 + file - 3
    } else {
        HOME_BUCKET
    }
}

/// The name of the network file compiled in, under `crates/chuhe-engine/nets/`: the one
/// place to change to embed another (its name carries its CRC-32, which a test checks).
macro_rules! embedded_name {
    () => {
        "xiangqi-eb4886bc.nnue"
    };
}

/// The network file compiled into the binary: the engine's default network.
pub const EMBEDDED_FILE: &[u8] = include_bytes!(concat!("../../../nets/", embedded_name!()));
/// The embedded file's name in the repository (under `crates/chuhe-engine/nets/`).
pub const EMBEDDED_NAME: &str = embedded_name!();

/// One row of 16-bit weights or sums, one lane per hidden unit, aligned for 256-bit loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Row(pub(crate) [i16; HIDDEN]);

impl Row {
    const ZERO: Row = Row([0; HIDDEN]);
}

/// A Xiangqi network: its integer tables and how its inner loops run.
#[derive(Clone)]
pub struct XiangqiNet {
    /// Input weights, row `bucket × 1260 + piece × 90 + point`.
    w1: Vec<Row>,
    /// Input tables: 1 (format 1), or [`PALACE_BUCKETS`] (format 2).
    buckets: usize,
    /// Hidden biases.
    b1: Row,
    /// Output weights.
    w2: Row,
    /// A hidden unit's full activation (1.0).
    scale: i16,
    /// One centipawn in the output weights.
    out_scale: i32,
    /// `scale × out_scale`: the output sum's divisor.
    divisor: i32,
    /// How it was trained (free text from the file).
    description: String,
    /// The file's CRC-32.
    checksum: u32,
    /// The inner loops' code.
    kernel: Kernel,
}

/// The network's identity, not its 80,000 weights.
impl std::fmt::Debug for XiangqiNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XiangqiNet")
            .field("checksum", &format_args!("{:08x}", self.checksum))
            .field("scale", &self.scale)
            .field("out_scale", &self.out_scale)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

/// Two networks are equal when their tables and scales are (the kernel and description
/// aside).
impl PartialEq for XiangqiNet {
    fn eq(&self, other: &XiangqiNet) -> bool {
        self.w1 == other.w1
            && self.buckets == other.buckets
            && self.b1 == other.b1
            && self.w2 == other.w2
            && self.scale == other.scale
            && self.out_scale == other.out_scale
    }
}

impl Eq for XiangqiNet {}

impl XiangqiNet {
    /// The network embedded in the binary (read once, then shared).
    pub fn embedded() -> Arc<XiangqiNet> {
        static EMBEDDED: OnceLock<Arc<XiangqiNet>> = OnceLock::new();
        Arc::clone(EMBEDDED.get_or_init(|| {
            Arc::new(
                XiangqiNet::from_bytes(EMBEDDED_FILE)
                    .expect("the embedded network file is valid (checked by the tests)"),
            )
        }))
    }

    /// The same network, its inner loops run by the portable code (for tests and
    /// measurements: the results are the same).
    pub fn with_scalar_kernel(mut self) -> XiangqiNet {
        self.kernel = Kernel::Scalar;
        self
    }

    /// The code that runs the inner loops.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The CRC-32 of the network's file (the last 4 bytes): what names the file.
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// How the network was trained, as its file says.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// A hidden unit's full activation in the integer tables.
    pub fn scale(&self) -> i32 {
        i32::from(self.scale)
    }

    /// One centipawn in the output weights.
    pub fn out_scale(&self) -> i32 {
        self.out_scale
    }

    /// Input tables: 1 for a format-1 network, [`PALACE_BUCKETS`] for format 2.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The input row of a piece of dense index `piece` (side × 7 + role) on `point`
    /// (rank × 9 + file, a1 = 0) in the table of `bucket`.
    #[inline(always)]
    fn input(&self, bucket: usize, piece: usize, point: usize) -> &Row {
        &self.w1[bucket * INPUTS + piece * POINTS + point]
    }

    /// The buckets Red and Black see `pos` through (both 0 for a format-1 network).
    #[inline]
    fn buckets_of(&self, pos: &Position) -> (usize, usize) {
        if self.buckets == 1 {
            return (0, 0);
        }
        let of = |side: Side, flip: bool| {
            pos.general(side).map_or(HOME_BUCKET, |sq| {
                palace_bucket(if flip { sq.flip_rank() } else { sq }.index())
            })
        };
        (of(Side::First, false), of(Side::Second, true))
    }

    /// The correction in centipawns for `pos`, from the first player's (Red's) point of
    /// view, computed from scratch.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        Accumulator::new(self, pos).correction(self)
    }
}

/// The correction of the embedded network ([`XiangqiNet::correction`]).
#[inline]
pub fn correction(pos: &Position) -> i32 {
    XiangqiNet::embedded().correction(pos)
}

/// The hidden layer's sums (before clamping) from both sides, which a move changes in at
/// most three inputs: the search carries one per ply instead of summing every piece at
/// every evaluation. The sums belong to one network: pass the same one to every call.
///
/// ```
/// use chuhe::xiangqi::Position;
/// use chuhe_engine::eval::xiangqi_net::{Accumulator, XiangqiNet};
/// let net = XiangqiNet::embedded();
/// let pos = Position::start();
/// let m = pos.legal_moves()[0];
/// let before = Accumulator::new(&net, &pos);
/// let mut after = before.clone(); // a slot to write into, as the search keeps one per ply
/// before.after(&net, &pos, m, &mut after);
/// let mut child = pos.clone();
/// child.play_unchecked(m);
/// assert_eq!(after, Accumulator::new(&net, &child));
/// assert_eq!(after.correction(&net), net.correction(&child));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    red: Row,
    black: Row,
}

/// The input index of a piece of dense index `piece` on `sq` seen from Black: the other
/// side's piece on the point with ranks flipped.
#[inline(always)]
fn seen_from_black(piece: usize, sq: Square) -> (usize, usize) {
    let swapped = if piece < 7 { piece + 7 } else { piece - 7 };
    (swapped, sq.flip_rank().index())
}

impl Accumulator {
    /// The sums of `pos` under `net`, from scratch.
    pub fn new(net: &XiangqiNet, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            red: net.b1,
            black: net.b1,
        };
        let (red_bucket, black_bucket) = net.buckets_of(pos);
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_at(sq) {
                let (bp, bsq) = seen_from_black(piece.index(), sq);
                let red = acc.red;
                net.kernel.update(
                    &red,
                    &mut acc.red,
                    &[],
                    net.input(red_bucket, piece.index(), sq.index()),
                );
                let black = acc.black;
                net.kernel.update(
                    &black,
                    &mut acc.black,
                    &[],
                    net.input(black_bucket, bp, bsq),
                );
            }
        }
        acc
    }

    /// Writes into `out` the sums after `m` is played from `pos`, whose sums these are.
    #[inline]
    pub fn after(&self, net: &XiangqiNet, pos: &Position, m: Move, out: &mut Accumulator) {
        let Some(mover_piece) = pos.piece_at(m.from()) else {
            out.clone_from(self);
            return;
        };
        // A general that moves or is taken changes its side's bucket: every input of that
        // side's view changes, so the sums are computed again (rare: a general's move).
        if net.buckets > 1
            && (mover_piece.role == Role::General
                || pos
                    .piece_at(m.to())
                    .is_some_and(|v| v.role == Role::General))
        {
            let mut child = pos.clone();
            child.play_unchecked(m);
            *out = Accumulator::new(net, &child);
            return;
        }
        let (rb, bb) = net.buckets_of(pos);
        let mover = mover_piece.index();
        let (from, to) = (m.from(), m.to());
        let (black_mover, black_from) = seen_from_black(mover, from);
        let (_, black_to) = seen_from_black(mover, to);
        let kernel = net.kernel;
        match pos.piece_at(to) {
            None => {
                kernel.update(
                    &self.red,
                    &mut out.red,
                    &[net.input(rb, mover, from.index())],
                    net.input(rb, mover, to.index()),
                );
                kernel.update(
                    &self.black,
                    &mut out.black,
                    &[net.input(bb, black_mover, black_from)],
                    net.input(bb, black_mover, black_to),
                );
            }
            Some(victim) => {
                let victim = victim.index();
                let (black_victim, _) = seen_from_black(victim, to);
                kernel.update(
                    &self.red,
                    &mut out.red,
                    &[
                        net.input(rb, mover, from.index()),
                        net.input(rb, victim, to.index()),
                    ],
                    net.input(rb, mover, to.index()),
                );
                kernel.update(
                    &self.black,
                    &mut out.black,
                    &[
                        net.input(bb, black_mover, black_from),
                        net.input(bb, black_victim, black_to),
                    ],
                    net.input(bb, black_mover, black_to),
                );
            }
        }
    }

    /// The correction in centipawns under `net`, from the first player's (Red's) point of
    /// view.
    #[inline]
    pub fn correction(&self, net: &XiangqiNet) -> i32 {
        net.kernel
            .output(&self.red, &self.black, &net.w2, net.scale)
            / net.divisor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded file was first written from the tables compiled in before it (commit
    /// 968096e compared them value by value); its name carries its checksum.
    #[test]
    fn the_embedded_file_is_named_by_its_checksum() {
        let net = XiangqiNet::embedded();
        let bytes = net.to_bytes();
        assert!(bytes == EMBEDDED_FILE);
        assert_eq!(
            EMBEDDED_NAME,
            format!("xiangqi-{:08x}.nnue", net.checksum()),
            "the file's name carries its checksum"
        );
        assert_eq!(net.checksum(), crc32fast::hash(&bytes[..bytes.len() - 4]));
    }

    #[test]
    fn the_correction_changes_sign_with_the_colours() {
        let mut pos = Position::start();
        let mut seen_nonzero = false;
        for ply in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // A fixed, varied walk through a game.
            pos.play_unchecked(moves[(ply * 7 + 3) % moves.len()]);
            let c = correction(&pos);
            assert_eq!(c, -correction(&pos.mirrored()), "{}", pos.to_fen());
            seen_nonzero |= c != 0;
        }
        assert!(seen_nonzero, "the network never corrected anything");
    }

    /// A long walk with captures: the accumulator kept move by move under each kernel
    /// equals the one computed from scratch, and the kernels agree to the bit.
    #[test]
    fn both_kernels_keep_the_same_sums_as_from_scratch() {
        let fast = XiangqiNet::embedded();
        let scalar = (*fast).clone().with_scalar_kernel();
        assert_eq!(scalar.kernel(), Kernel::Scalar);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(fast.kernel(), Kernel::Avx2);
        }
        let mut captures = 0;
        let mut corrections = std::collections::BTreeSet::new();
        walk_checking_sums(
            &fast,
            12,
            200,
            |pos, moves, ply, game| {
                // Prefer captures now and then, so that victims leave the sums too.
                let m = moves
                    .iter()
                    .copied()
                    .find(|&m| (ply + game) % 3 == 0 && pos.is_capture(m))
                    .unwrap_or(moves[(ply * 11 + game * 5 + 5) % moves.len()]);
                captures += usize::from(pos.is_capture(m));
                m
            },
            |_, c| {
                corrections.insert(c);
            },
        );
        assert!(captures > 50, "the walks captured only {captures} times");
        assert!(corrections.len() > 50, "too few distinct corrections");
    }

    /// Plays `games` walks of up to `plies` moves from the start, each move chosen by
    /// `choose(position, moves, ply, game)`, keeping the sums move by move under `fast`'s
    /// kernel and the scalar one: both must equal the sums from scratch and give the same
    /// correction, which `visit` then gets with the position it belongs to.
    fn walk_checking_sums(
        fast: &XiangqiNet,
        games: usize,
        plies: usize,
        mut choose: impl FnMut(&Position, &[Move], usize, usize) -> Move,
        mut visit: impl FnMut(&Position, i32),
    ) {
        let scalar = fast.clone().with_scalar_kernel();
        for game in 0..games {
            let mut pos = Position::start();
            let mut acc_fast = Accumulator::new(fast, &pos);
            let mut acc_scalar = Accumulator::new(&scalar, &pos);
            for ply in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = choose(&pos, &moves, ply, game);
                let mut next = acc_fast.clone();
                acc_fast.after(fast, &pos, m, &mut next);
                acc_fast = next;
                let mut next = acc_scalar.clone();
                acc_scalar.after(&scalar, &pos, m, &mut next);
                acc_scalar = next;
                pos.play_unchecked(m);
                let fresh = Accumulator::new(&scalar, &pos);
                assert_eq!(acc_fast, fresh, "{}", pos.to_fen());
                assert_eq!(acc_scalar, fresh, "{}", pos.to_fen());
                let c = acc_fast.correction(fast);
                assert_eq!(c, acc_scalar.correction(&scalar), "{}", pos.to_fen());
                visit(&pos, c);
            }
        }
    }

    /// A format-2 network made from the embedded one: bucket `b`'s table is the embedded
    /// table with each row's lanes rotated by `b`, so that every bucket sees the board
    /// differently.
    pub(super) fn bucketed() -> XiangqiNet {
        let base = (*XiangqiNet::embedded()).clone();
        let mut w1 = Vec::with_capacity(PALACE_BUCKETS * INPUTS);
        for b in 0..PALACE_BUCKETS {
            w1.extend(base.w1.iter().map(|row| {
                let mut row = *row;
                row.0.rotate_left(b);
                row
            }));
        }
        XiangqiNet {
            w1,
            buckets: PALACE_BUCKETS,
            ..base
        }
    }

    /// What the network computes, written out plainly from its definition: each side's
    /// general picks the table its side's view reads.
    fn reference_correction(net: &XiangqiNet, pos: &Position) -> i32 {
        let mut general = [None, None];
        for sq in squares(pos.occupied()) {
            let piece = pos.piece_at(sq).unwrap();
            if piece.role == Role::General {
                general[piece.side.index()] = Some(sq);
            }
        }
        let red_bucket = general[0].map_or(1, |sq| palace_bucket(sq.index()));
        let black_bucket = general[1].map_or(1, |sq| palace_bucket(sq.flip_rank().index()));
        let mut red: Vec<i32> = net.b1.0.iter().map(|&v| i32::from(v)).collect();
        let mut black = red.clone();
        for sq in squares(pos.occupied()) {
            let piece = pos.piece_at(sq).unwrap().index();
            let swapped = (piece + 7) % 14;
            let r = &net.w1[red_bucket * INPUTS + piece * POINTS + sq.index()];
            let b = &net.w1[black_bucket * INPUTS + swapped * POINTS + sq.flip_rank().index()];
            for h in 0..HIDDEN {
                red[h] += i32::from(r.0[h]);
                black[h] += i32::from(b.0[h]);
            }
        }
        let scale = i32::from(net.scale);
        let sum: i32 = (0..HIDDEN)
            .map(|h| (red[h].clamp(0, scale) - black[h].clamp(0, scale)) * i32::from(net.w2.0[h]))
            .sum();
        sum / net.divisor
    }

    /// Format 2: the sums kept move by move (general moves and all, under both kernels)
    /// equal the sums from scratch, the correction is the plain definition's, it changes
    /// sign with the colours, and the buckets matter.
    #[test]
    fn a_bucketed_network_follows_its_generals() {
        let fast = bucketed();
        let flat = XiangqiNet::embedded();
        let (mut general_moves, mut differ) = (0, 0);
        let is_general = |pos: &Position, m: Move| {
            pos.piece_at(m.from())
                .is_some_and(|p| p.role == Role::General)
        };
        walk_checking_sums(
            &fast,
            8,
            160,
            |pos, moves, ply, game| {
                // Generals step about the palace often, captures now and then.
                let m = moves
                    .iter()
                    .copied()
                    .find(|&m| (ply + game) % 4 == 0 && is_general(pos, m))
                    .or_else(|| {
                        moves
                            .iter()
                            .copied()
                            .find(|&m| (ply + game) % 3 == 0 && pos.is_capture(m))
                    })
                    .unwrap_or(moves[(ply * 13 + game * 7 + 1) % moves.len()]);
                general_moves += usize::from(is_general(pos, m));
                m
            },
            |pos, c| {
                assert_eq!(c, reference_correction(&fast, pos), "{}", pos.to_fen());
                assert_eq!(c, -fast.correction(&pos.mirrored()), "{}", pos.to_fen());
                differ += usize::from(c != flat.correction(pos));
            },
        );
        assert!(
            general_moves > 40,
            "the walks moved a general only {general_moves} times"
        );
        assert!(
            differ > 100,
            "the buckets changed only {differ} corrections"
        );
    }

    /// The embedded (format-1) network is the plain definition with one bucket.
    #[test]
    fn the_flat_network_is_its_definition() {
        let net = XiangqiNet::embedded();
        let flat = XiangqiNet {
            buckets: PALACE_BUCKETS,
            w1: net.w1.repeat(PALACE_BUCKETS),
            ..(*net).clone()
        };
        let mut pos = Position::start();
        for ply in 0..80usize {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(ply * 5 + 2) % moves.len()]);
            assert_eq!(net.correction(&pos), reference_correction(&flat, &pos));
        }
    }

    /// Extreme sums: every lane at the ends of its range, where clamping and the 16-bit
    /// products matter most.
    #[test]
    fn both_kernels_agree_on_extreme_sums() {
        let fast = XiangqiNet::embedded();
        let scalar = (*fast).clone().with_scalar_kernel();
        let values = [
            i16::MIN,
            -513,
            -1,
            0,
            1,
            255,
            511,
            512,
            513,
            32_000,
            i16::MAX,
        ];
        for shift in 0..values.len() {
            let lane = |h: usize, k: usize| values[(h * 7 + k + shift) % values.len()];
            let acc = Accumulator {
                red: Row(std::array::from_fn(|h| lane(h, 0))),
                black: Row(std::array::from_fn(|h| lane(h, 3))),
            };
            assert_eq!(acc.correction(&fast), acc.correction(&scalar));
            let mut out_fast = acc.clone();
            let mut out_scalar = acc.clone();
            let rows = [&fast.w1[shift], &fast.w1[100 + shift]];
            fast.kernel
                .update(&acc.red, &mut out_fast.red, &rows, &fast.w1[900]);
            scalar
                .kernel
                .update(&acc.red, &mut out_scalar.red, &rows, &fast.w1[900]);
            assert_eq!(out_fast, out_scalar);
        }
    }
}
