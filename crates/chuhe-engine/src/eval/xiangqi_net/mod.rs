//! A small network's correction to the Xiangqi evaluation's weighted terms.
//!
//! One hidden layer over (piece, point) inputs, 14 × 90 of them, evaluated from both sides
//! with the same weights: `N = h(board) − h(board seen from Black)`, where
//! `h(x) = W2 · clamp(W1 x + B1, 0, 1)`. Swapping the colours swaps the two halves, so the
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

use chuhe::xiangqi::{squares, Move, Position, Square};

pub mod file;
mod kernels;

pub use file::NetworkError;
pub use kernels::Kernel;

/// Hidden units.
pub const HIDDEN: usize = 64;
/// Points of the board.
const POINTS: usize = 90;
/// Inputs: a (piece, point) pair each, row `piece index × 90 + point`.
pub const INPUTS: usize = 14 * POINTS;

/// The name of the network file compiled in, under `crates/chuhe-engine/nets/`: the one
/// place to change to embed another (its name carries its CRC-32, which a test checks).
macro_rules! embedded_name {
    () => {
        "xiangqi-eed2d658.nnue"
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
    /// Input weights, row `piece × 90 + point`.
    w1: Vec<Row>,
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

    /// The input row of a piece of dense index `piece` (side × 7 + role) on `point`
    /// (rank × 9 + file, a1 = 0).
    #[inline(always)]
    fn input(&self, piece: usize, point: usize) -> &Row {
        &self.w1[piece * POINTS + point]
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
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_at(sq) {
                let (bp, bsq) = seen_from_black(piece.index(), sq);
                let red = acc.red;
                net.kernel.update(
                    &red,
                    &mut acc.red,
                    &[],
                    net.input(piece.index(), sq.index()),
                );
                let black = acc.black;
                net.kernel
                    .update(&black, &mut acc.black, &[], net.input(bp, bsq));
            }
        }
        acc
    }

    /// Writes into `out` the sums after `m` is played from `pos`, whose sums these are.
    #[inline]
    pub fn after(&self, net: &XiangqiNet, pos: &Position, m: Move, out: &mut Accumulator) {
        let Some(mover) = pos.piece_at(m.from()) else {
            out.clone_from(self);
            return;
        };
        let mover = mover.index();
        let (from, to) = (m.from(), m.to());
        let (black_mover, black_from) = seen_from_black(mover, from);
        let (_, black_to) = seen_from_black(mover, to);
        let kernel = net.kernel;
        match pos.piece_at(to) {
            None => {
                kernel.update(
                    &self.red,
                    &mut out.red,
                    &[net.input(mover, from.index())],
                    net.input(mover, to.index()),
                );
                kernel.update(
                    &self.black,
                    &mut out.black,
                    &[net.input(black_mover, black_from)],
                    net.input(black_mover, black_to),
                );
            }
            Some(victim) => {
                let victim = victim.index();
                let (black_victim, _) = seen_from_black(victim, to);
                kernel.update(
                    &self.red,
                    &mut out.red,
                    &[
                        net.input(mover, from.index()),
                        net.input(victim, to.index()),
                    ],
                    net.input(mover, to.index()),
                );
                kernel.update(
                    &self.black,
                    &mut out.black,
                    &[
                        net.input(black_mover, black_from),
                        net.input(black_victim, black_to),
                    ],
                    net.input(black_mover, black_to),
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
        for game in 0..12usize {
            let mut pos = Position::start();
            let mut acc_fast = Accumulator::new(&fast, &pos);
            let mut acc_scalar = Accumulator::new(&scalar, &pos);
            for ply in 0..200usize {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures now and then, so that victims leave the sums too.
                let m = moves
                    .iter()
                    .copied()
                    .find(|&m| (ply + game) % 3 == 0 && pos.is_capture(m))
                    .unwrap_or(moves[(ply * 11 + game * 5 + 5) % moves.len()]);
                captures += usize::from(pos.is_capture(m));
                let mut next = acc_fast.clone();
                acc_fast.after(&fast, &pos, m, &mut next);
                acc_fast = next;
                let mut next = acc_scalar.clone();
                acc_scalar.after(&scalar, &pos, m, &mut next);
                acc_scalar = next;
                pos.play_unchecked(m);
                let fresh = Accumulator::new(&scalar, &pos);
                assert_eq!(acc_fast, fresh, "{}", pos.to_fen());
                assert_eq!(acc_scalar, fresh, "{}", pos.to_fen());
                let c = acc_scalar.correction(&scalar);
                assert_eq!(acc_fast.correction(&fast), c, "{}", pos.to_fen());
                corrections.insert(c);
            }
        }
        assert!(captures > 50, "the walks captured only {captures} times");
        assert!(corrections.len() > 50, "too few distinct corrections");
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
