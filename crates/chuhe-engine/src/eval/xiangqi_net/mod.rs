//! A network's term in the Xiangqi evaluation: a correction to the weighted terms, or the
//! whole evaluation.
//!
//! One hidden layer over (piece, point) inputs, 14 × 90 of them, evaluated from both sides
//! with the same input weights: Red's view sees the board as it is, Black's with the colours
//! swapped and the ranks flipped. A network of format 2 or 3 has one input table per point
//! of the palace where the viewing side's general stands ([`PALACE_BUCKETS`] buckets,
//! [`palace_bucket`]): each side sees the board through its own general's placement.
//!
//! - Formats 1 and 2 (a correction): `N = h(red) − h(black)` from Red's side, where
//!   `h(x) = W2 · clamp(W1 x + B1, 0, 1)`.
//! - Format 3: both views' units feed the output, the side to move's first,
//!   `N = W2 · [clamp(us); clamp(them)] + B2` from the side to move's side; its file says
//!   whether that is a correction added to the weighted terms or the whole evaluation
//!   ([`NetworkRole`]), and how many hidden units it has (a multiple of [`LANES`], at most
//!   [`MAX_HIDDEN`]).
//!
//! Swapping the colours swaps the two views, so the output changes sign exactly, as the
//! evaluation must; the trainer ties the hidden units in mirror pairs, so it is also exactly
//! left/right symmetric. The weights are integers, read from a network file ([`mod@file`])
//! written by `scripts/train_xiangqi_net.py` (see `docs/TUNING.md`); the engine's default is
//! embedded in the binary ([`XiangqiNet::embedded`], `nets/xiangqi-*.nnue`), and another can
//! be loaded at run time ([`XiangqiNet::load`], the UCI option `EvalFile`). The search keeps
//! the hidden sums up to date move by move ([`Accumulator`]); [`XiangqiNet::correction`]
//! computes them from scratch. The inner loops use AVX2 where the CPU has it ([`Kernel`]),
//! with the same results to the bit.
//!
//! ```
//! use chuhe::xiangqi::Position;
//! use chuhe::Side;
//! use chuhe_engine::eval::xiangqi_net::{correction, XiangqiNet};
//! // The starting position with Black to move is the same one with the colours swapped:
//! // from Red's side, its output is the negation.
//! let start = Position::start();
//! let net = XiangqiNet::embedded();
//! assert_eq!(net.correction(&start), correction(&start));
//! assert_eq!(net.correction(&start), -net.correction(&start.with_turn(Side::Second)));
//! ```

use std::sync::{Arc, OnceLock};

use chuhe::xiangqi::{squares, Move, Position, Role, Square};
use chuhe::Side;

pub mod file;
mod kernels;

pub use file::NetworkError;
pub use kernels::Kernel;

/// Hidden units in a 256-bit register: a network's hidden units come in whole chunks of
/// this many.
pub const LANES: usize = 16;
/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 512;
/// Points of the board.
const POINTS: usize = 90;
/// Inputs: a (piece, point) pair each, row `piece index × 90 + point` (per bucket).
pub const INPUTS: usize = 14 * POINTS;
/// Input tables of a bucketed network (formats 2 and 3): one per point of the palace.
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
        "xiangqi-307c5578.nnue"
    };
}

/// The network file compiled into the binary: the engine's default network.
pub const EMBEDDED_FILE: &[u8] = include_bytes!(concat!("../../../nets/", embedded_name!()));
/// The embedded file's name in the repository (under `crates/chuhe-engine/nets/`).
pub const EMBEDDED_NAME: &str = embedded_name!();

/// [`LANES`] 16-bit weights or sums, aligned for 256-bit loads: a row of a network's table
/// is a run of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Lanes(pub(crate) [i16; LANES]);

/// `values` (a multiple of [`LANES`] long) in chunks.
pub(crate) fn chunked(values: &[i16]) -> Vec<Lanes> {
    values
        .chunks_exact(LANES)
        .map(|c| Lanes(c.try_into().expect("chunks_exact gives LANES values")))
        .collect()
}

/// What a network's output is to the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkRole {
    /// Added to the weighted terms (formats 1 and 2 always; code 0 in format 3).
    Correction,
    /// The whole evaluation: the weighted terms are not computed (code 1 in format 3).
    Evaluation,
}

/// A Xiangqi network: its integer tables and how its inner loops run.
#[derive(Clone)]
pub struct XiangqiNet {
    /// The file format it was read from or is written in: 1, 2 or 3.
    format: u32,
    /// Hidden units per view.
    hidden: usize,
    /// Input tables: 1, or [`PALACE_BUCKETS`].
    buckets: usize,
    /// A correction or the evaluation.
    role: NetworkRole,
    /// Input weights, row `bucket × 1260 + piece × 90 + point`, each `hidden / LANES`
    /// chunks.
    w1: Vec<Lanes>,
    /// Hidden biases.
    b1: Vec<Lanes>,
    /// Output weights of the first view's units: Red's (formats 1 and 2, the file's `W2`),
    /// the side to move's (format 3).
    w2_first: Vec<Lanes>,
    /// Output weights of the second view's units: the other side's (format 3; empty in
    /// formats 1 and 2, whose second view counts against the first with the same weights).
    w2_second: Vec<Lanes>,
    /// The output's bias, in the output sum's units (`SCALE × OUT_SCALE` a centipawn; 0
    /// before format 3).
    b2: i32,
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

/// The network's identity, not its weights.
impl std::fmt::Debug for XiangqiNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XiangqiNet")
            .field("checksum", &format_args!("{:08x}", self.checksum))
            .field("format", &self.format)
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("role", &self.role)
            .field("scale", &self.scale)
            .field("out_scale", &self.out_scale)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

/// Two networks are equal when their shapes, tables and scales are (the kernel and
/// description aside).
impl PartialEq for XiangqiNet {
    fn eq(&self, other: &XiangqiNet) -> bool {
        self.format == other.format
            && self.hidden == other.hidden
            && self.buckets == other.buckets
            && self.role == other.role
            && self.w1 == other.w1
            && self.b1 == other.b1
            && self.w2_first == other.w2_first
            && self.w2_second == other.w2_second
            && self.b2 == other.b2
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

    /// Input tables: 1, or [`PALACE_BUCKETS`].
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Hidden units per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The file format: 1, 2 (buckets) or 3 (any size, both views into the output).
    pub fn format(&self) -> u32 {
        self.format
    }

    /// A correction to the weighted terms, or the whole evaluation.
    pub fn role(&self) -> NetworkRole {
        self.role
    }

    /// Chunks of [`LANES`] in a row.
    #[inline(always)]
    fn chunks(&self) -> usize {
        self.hidden / LANES
    }

    /// The input row of a piece of dense index `piece` (side × 7 + role) on `point`
    /// (rank × 9 + file, a1 = 0) in the table of `bucket`.
    #[inline(always)]
    fn input(&self, bucket: usize, piece: usize, point: usize) -> &[Lanes] {
        let n = self.chunks();
        let row = bucket * INPUTS + piece * POINTS + point;
        &self.w1[row * n..(row + 1) * n]
    }

    /// The buckets Red and Black see `pos` through (both 0 for a network without buckets).
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

    /// The network's output in centipawns for `pos`, from the first player's (Red's) point
    /// of view, computed from scratch: a correction, or the whole evaluation
    /// ([`XiangqiNet::role`]).
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        Accumulator::new(self, pos).output(self, pos.turn())
    }
}

/// The output of the embedded network ([`XiangqiNet::correction`]).
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
/// assert_eq!(after.output(&net, child.turn()), net.correction(&child));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Red's sums, then Black's: `hidden / LANES` chunks each.
    sums: Vec<Lanes>,
}

/// `sums += row`, lane by lane (wrapping, as the kernels do).
#[inline(always)]
fn add(sums: &mut [Lanes], row: &[Lanes]) {
    for (s, w) in sums.iter_mut().zip(row) {
        for (a, b) in s.0.iter_mut().zip(w.0) {
            *a = a.wrapping_add(b);
        }
    }
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
        let mut acc = Accumulator { sums: Vec::new() };
        acc.compute(net, pos);
        acc
    }

    /// Makes these the sums of `pos` under `net`, from scratch, in the same memory.
    fn compute(&mut self, net: &XiangqiNet, pos: &Position) {
        self.sums.clear();
        self.sums.extend_from_slice(&net.b1);
        self.sums.extend_from_slice(&net.b1);
        let (red_bucket, black_bucket) = net.buckets_of(pos);
        let (red, black) = self.views_mut();
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_at(sq) {
                let (bp, bsq) = seen_from_black(piece.index(), sq);
                add(red, net.input(red_bucket, piece.index(), sq.index()));
                add(black, net.input(black_bucket, bp, bsq));
            }
        }
    }

    /// Red's sums and Black's.
    #[inline(always)]
    fn views(&self) -> (&[Lanes], &[Lanes]) {
        self.sums.split_at(self.sums.len() / 2)
    }

    #[inline(always)]
    fn views_mut(&mut self) -> (&mut [Lanes], &mut [Lanes]) {
        let half = self.sums.len() / 2;
        self.sums.split_at_mut(half)
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
            out.compute(net, &child);
            return;
        }
        let (rb, bb) = net.buckets_of(pos);
        let mover = mover_piece.index();
        let (from, to) = (m.from(), m.to());
        let (black_mover, black_from) = seen_from_black(mover, from);
        let (_, black_to) = seen_from_black(mover, to);
        let kernel = net.kernel;
        let (red, black) = self.views();
        let (out_red, out_black) = out.views_mut();
        match pos.piece_at(to) {
            None => {
                kernel.update(
                    red,
                    out_red,
                    &[net.input(rb, mover, from.index())],
                    net.input(rb, mover, to.index()),
                );
                kernel.update(
                    black,
                    out_black,
                    &[net.input(bb, black_mover, black_from)],
                    net.input(bb, black_mover, black_to),
                );
            }
            Some(victim) => {
                let victim = victim.index();
                let (black_victim, _) = seen_from_black(victim, to);
                kernel.update(
                    red,
                    out_red,
                    &[
                        net.input(rb, mover, from.index()),
                        net.input(rb, victim, to.index()),
                    ],
                    net.input(rb, mover, to.index()),
                );
                kernel.update(
                    black,
                    out_black,
                    &[
                        net.input(bb, black_mover, black_from),
                        net.input(bb, black_victim, black_to),
                    ],
                    net.input(bb, black_mover, black_to),
                );
            }
        }
    }

    /// The network's output in centipawns under `net`, from the first player's (Red's)
    /// point of view, in a position where `turn` is to move.
    #[inline]
    pub fn output(&self, net: &XiangqiNet, turn: Side) -> i32 {
        let (red, black) = self.views();
        if net.format < 3 {
            return net
                .kernel
                .output_difference(red, black, &net.w2_first, net.scale)
                / net.divisor;
        }
        let (us, them) = match turn {
            Side::First => (red, black),
            Side::Second => (black, red),
        };
        let v = net
            .kernel
            .output(us, them, &net.w2_first, &net.w2_second, net.scale)
            .wrapping_add(net.b2)
            / net.divisor;
        match turn {
            Side::First => v,
            Side::Second => -v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network of format 1 (one table, a correction, 64 units): the one embedded until
    /// 2026-11-29, kept in `data/` as the network its successor's data was picked under.
    pub(super) const FORMAT_1_FILE: &[u8] =
        include_bytes!("../../../../../data/xiangqi-eb4886bc.nnue");

    pub(super) fn format_1() -> XiangqiNet {
        XiangqiNet::from_bytes(FORMAT_1_FILE).unwrap()
    }

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
                let c = acc_fast.output(fast, pos.turn());
                assert_eq!(
                    c,
                    acc_scalar.output(&scalar, pos.turn()),
                    "{}",
                    pos.to_fen()
                );
                visit(&pos, c);
            }
        }
    }

    /// A format-2 network made from [`format_1`]'s: bucket `b`'s table is its table with
    /// each row's lanes rotated by `b`, so that every bucket sees the board differently.
    pub(super) fn bucketed() -> XiangqiNet {
        let base = format_1();
        let n = base.chunks();
        let mut w1 = Vec::with_capacity(PALACE_BUCKETS * INPUTS * n);
        for b in 0..PALACE_BUCKETS {
            for row in base.w1.chunks(n) {
                let mut values: Vec<i16> = row.iter().flat_map(|c| c.0).collect();
                values.rotate_left(b);
                w1.extend(chunked(&values));
            }
        }
        XiangqiNet {
            format: 2,
            w1,
            buckets: PALACE_BUCKETS,
            ..base
        }
    }

    /// A format-3 network of `hidden` units over `buckets` tables, its weights drawn from a
    /// fixed generator within bounds that keep every sum exact, written and read back
    /// through its file (so the loader's checks pass on it).
    pub(super) fn perspective(hidden: usize, buckets: usize, role: NetworkRole) -> XiangqiNet {
        let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ (hidden * 31 + buckets) as u64;
        let mut draw = |lo: i16, hi: i16| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            lo + (seed % (hi - lo + 1) as u64) as i16
        };
        let values = |n: usize, lo: i16, hi: i16, draw: &mut dyn FnMut(i16, i16) -> i16| {
            chunked(&(0..n).map(|_| draw(lo, hi)).collect::<Vec<i16>>())
        };
        let w1 = values(buckets * INPUTS * hidden, -60, 60, &mut draw);
        let b1 = values(hidden, -100, 400, &mut draw);
        let w2_first = values(hidden, -40, 40, &mut draw);
        let w2_second = values(hidden, -40, 40, &mut draw);
        let net = XiangqiNet {
            format: 3,
            hidden,
            buckets,
            role,
            w1,
            b1,
            w2_first,
            w2_second,
            b2: 12_345,
            scale: 512,
            out_scale: 16,
            divisor: 512 * 16,
            description: format!("test: {hidden} units, {buckets} buckets, {role:?}"),
            checksum: 0,
            kernel: Kernel::detect(),
        };
        XiangqiNet::from_bytes(&net.to_bytes()).expect("the test network is exact")
    }

    /// The values of a run of chunks.
    fn values(chunks: &[Lanes]) -> Vec<i32> {
        chunks.iter().flat_map(|c| c.0).map(i32::from).collect()
    }

    /// What the network computes, written out plainly from its definition: each side's
    /// general picks the table its side's view reads.
    fn reference_output(net: &XiangqiNet, pos: &Position) -> i32 {
        let mut general = [None, None];
        for sq in squares(pos.occupied()) {
            let piece = pos.piece_at(sq).unwrap();
            if piece.role == Role::General {
                general[piece.side.index()] = Some(sq);
            }
        }
        let (red_bucket, black_bucket) = if net.buckets == 1 {
            (0, 0)
        } else {
            (
                general[0].map_or(1, |sq| palace_bucket(sq.index())),
                general[1].map_or(1, |sq| palace_bucket(sq.flip_rank().index())),
            )
        };
        let mut red = values(&net.b1);
        let mut black = red.clone();
        let n = net.chunks();
        let row = |bucket: usize, piece: usize, point: usize| {
            let r = bucket * INPUTS + piece * POINTS + point;
            values(&net.w1[r * n..(r + 1) * n])
        };
        for sq in squares(pos.occupied()) {
            let piece = pos.piece_at(sq).unwrap().index();
            let swapped = (piece + 7) % 14;
            let r = row(red_bucket, piece, sq.index());
            let b = row(black_bucket, swapped, sq.flip_rank().index());
            for h in 0..net.hidden {
                red[h] += r[h];
                black[h] += b[h];
            }
        }
        let scale = i32::from(net.scale);
        let (first, second) = (values(&net.w2_first), values(&net.w2_second));
        if net.format < 3 {
            let sum: i32 = (0..net.hidden)
                .map(|h| (red[h].clamp(0, scale) - black[h].clamp(0, scale)) * first[h])
                .sum();
            return sum / net.divisor;
        }
        let (us, them) = if pos.turn() == Side::First {
            (&red, &black)
        } else {
            (&black, &red)
        };
        let sum: i32 = (0..net.hidden)
            .map(|h| us[h].clamp(0, scale) * first[h] + them[h].clamp(0, scale) * second[h])
            .sum();
        let v = (sum + net.b2) / net.divisor;
        if pos.turn() == Side::First {
            v
        } else {
            -v
        }
    }

    /// Format 2: the sums kept move by move (general moves and all, under both kernels)
    /// equal the sums from scratch, the correction is the plain definition's, it changes
    /// sign with the colours, and the buckets matter.
    #[test]
    fn a_bucketed_network_follows_its_generals() {
        let fast = bucketed();
        let flat = format_1();
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
                assert_eq!(c, reference_output(&fast, pos), "{}", pos.to_fen());
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

    /// A format-1 network is the plain definition with one bucket, and the same under nine
    /// identical buckets.
    #[test]
    fn the_flat_network_is_its_definition() {
        let net = format_1();
        let flat = XiangqiNet {
            format: 2,
            buckets: PALACE_BUCKETS,
            w1: net.w1.repeat(PALACE_BUCKETS),
            ..net.clone()
        };
        let mut pos = Position::start();
        for ply in 0..80usize {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(ply * 5 + 2) % moves.len()]);
            assert_eq!(net.correction(&pos), reference_output(&net, &pos));
            assert_eq!(net.correction(&pos), reference_output(&flat, &pos));
        }
    }

    /// Format 3, with and without buckets, of several sizes: the sums kept move by move
    /// under both kernels equal the sums from scratch, the output is the plain definition's
    /// (both views into the output, the side to move's first, plus the bias), it changes
    /// sign with the colours, and whose turn it is matters.
    #[test]
    fn a_format_3_network_is_its_definition() {
        for (hidden, buckets) in [(16, 1), (128, PALACE_BUCKETS), (MAX_HIDDEN, 1)] {
            let net = perspective(hidden, buckets, NetworkRole::Correction);
            assert_eq!(
                (net.format(), net.hidden(), net.buckets()),
                (3, hidden, buckets)
            );
            let mut turn_matters = 0;
            walk_checking_sums(
                &net,
                3,
                120,
                |pos, moves, ply, game| {
                    moves
                        .iter()
                        .copied()
                        .find(|&m| (ply + game) % 3 == 0 && pos.is_capture(m))
                        .unwrap_or(moves[(ply * 17 + game * 3 + 2) % moves.len()])
                },
                |pos, c| {
                    assert_eq!(c, reference_output(&net, pos), "{}", pos.to_fen());
                    assert_eq!(c, -net.correction(&pos.mirrored()), "{}", pos.to_fen());
                    let fen = pos.to_fen();
                    let other_turn = match fen.split_once(" w ") {
                        Some((board, rest)) => format!("{board} b {rest}"),
                        None => fen.replacen(" b ", " w ", 1),
                    };
                    if let Ok(flipped) =
                        Position::from_fen(&other_turn, chuhe::xiangqi::RuleSet::Standard)
                    {
                        turn_matters += usize::from(net.correction(&flipped) != c);
                    }
                },
            );
            assert!(
                turn_matters > 100,
                "the side to move changed only {turn_matters} outputs"
            );
        }
    }

    /// A format-3 network's file reads back to the same network and the same bytes, its
    /// role included.
    #[test]
    fn a_format_3_network_round_trips_through_its_file() {
        for role in [NetworkRole::Correction, NetworkRole::Evaluation] {
            let net = perspective(64, PALACE_BUCKETS, role);
            let bytes = net.to_bytes();
            let read = XiangqiNet::from_bytes(&bytes).unwrap();
            assert_eq!(read, net);
            assert_eq!(read.role(), role);
            assert_eq!(read.to_bytes(), bytes);
        }
    }

    /// Extreme sums: every lane at the ends of its range, where clamping and the 16-bit
    /// products matter most, in a format-1 and a format-3 network.
    #[test]
    fn both_kernels_agree_on_extreme_sums() {
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
        let nets = [
            (*XiangqiNet::embedded()).clone(),
            format_1(),
            perspective(96, 1, NetworkRole::Evaluation),
        ];
        for fast in nets {
            let scalar = fast.clone().with_scalar_kernel();
            let n = fast.chunks();
            for shift in 0..values.len() {
                let lanes: Vec<i16> = (0..2 * fast.hidden)
                    .map(|h| values[(h * 7 + h / fast.hidden * 3 + shift) % values.len()])
                    .collect();
                let acc = Accumulator {
                    sums: chunked(&lanes),
                };
                for turn in [Side::First, Side::Second] {
                    assert_eq!(acc.output(&fast, turn), acc.output(&scalar, turn));
                }
                let (mut out_fast, mut out_scalar) = (acc.clone(), acc.clone());
                let row = |r: usize| &fast.w1[r * n..(r + 1) * n];
                let rows = [row(shift), row(100 + shift)];
                let (red, _) = acc.views();
                fast.kernel
                    .update(red, out_fast.views_mut().0, &rows, row(900));
                scalar
                    .kernel
                    .update(red, out_scalar.views_mut().0, &rows, row(900));
                assert_eq!(out_fast, out_scalar);
            }
        }
    }
}
