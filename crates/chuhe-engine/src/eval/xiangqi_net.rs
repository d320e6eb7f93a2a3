//! A small network's correction to the Xiangqi evaluation's weighted terms.
//!
//! One hidden layer over (piece, point) inputs, 14 × 90 of them, evaluated from both sides
//! with the same weights: `N = h(board) − h(board seen from Black)`, where
//! `h(x) = W2 · clamp(W1 x + B1, 0, 1)`. Swapping the colours swaps the two halves, so the
//! correction changes sign exactly, as the evaluation must; the trainer ties the hidden
//! units in mirror pairs, so it is also exactly left/right symmetric. The weights are integers
//! (`xiangqi_net_weights.rs`), written by `scripts/train_xiangqi_net.py` (see
//! `docs/TUNING.md`). The search keeps the hidden sums up to date move by move
//! ([`Accumulator`]); [`correction`] computes them from scratch.
//!
//! ```
//! use chuhe::xiangqi::Position;
//! use chuhe_engine::eval::xiangqi_net::correction;
//! // The starting position looks the same from either side.
//! assert_eq!(correction(&Position::start()), 0);
//! ```

use chuhe::xiangqi::{squares, Move, Position, Square};

#[allow(clippy::unreadable_literal)]
mod weights {
    include!("xiangqi_net_weights.rs");
}
pub use weights::HIDDEN;
use weights::{B1, OUT_SCALE, SCALE, W1, W2};

/// The network's input for a piece of dense index `piece` (side × 7 + role) on `point`
/// (rank × 9 + file, a1 = 0).
#[inline(always)]
fn input(piece: usize, point: usize) -> &'static [i16; HIDDEN] {
    &W1[piece * 90 + point]
}

/// The correction in centipawns, from the first player's (Red's) point of view.
#[inline]
pub fn correction(pos: &Position) -> i32 {
    Accumulator::new(pos).correction()
}

/// The hidden layer's sums (before clamping) from both sides, which a move changes in at
/// most three inputs: the search carries one per ply instead of summing every piece at
/// every evaluation.
///
/// ```
/// use chuhe::xiangqi::Position;
/// use chuhe_engine::eval::xiangqi_net::{correction, Accumulator};
/// let pos = Position::start();
/// let m = pos.legal_moves()[0];
/// let before = Accumulator::new(&pos);
/// let mut after = before.clone(); // a slot to write into, as the search keeps one per ply
/// before.after(&pos, m, &mut after);
/// let mut child = pos.clone();
/// child.play_unchecked(m);
/// assert_eq!(after, Accumulator::new(&child));
/// assert_eq!(after.correction(), correction(&child));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    red: [i32; HIDDEN],
    black: [i32; HIDDEN],
}

/// The input index of a piece of dense index `piece` on `sq` seen from Black: the other
/// side's piece on the point with ranks flipped.
#[inline(always)]
fn seen_from_black(piece: usize, sq: Square) -> (usize, usize) {
    let swapped = if piece < 7 { piece + 7 } else { piece - 7 };
    (swapped, sq.flip_rank().index())
}

impl Accumulator {
    /// The sums of `pos`, from scratch.
    pub fn new(pos: &Position) -> Accumulator {
        let bias = B1.map(i32::from);
        let mut acc = Accumulator {
            red: bias,
            black: bias,
        };
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_at(sq) {
                acc.add(piece.index(), sq, 1);
            }
        }
        acc
    }

    /// Adds (`sign` 1) or removes (`sign` −1) the piece of dense index `piece` on `sq`.
    #[inline(always)]
    fn add(&mut self, piece: usize, sq: Square, sign: i32) {
        let r = input(piece, sq.index());
        let (bp, bsq) = seen_from_black(piece, sq);
        let b = input(bp, bsq);
        for h in 0..HIDDEN {
            self.red[h] += sign * i32::from(r[h]);
            self.black[h] += sign * i32::from(b[h]);
        }
    }

    /// Writes into `out` the sums after `m` is played from `pos`, whose sums these are.
    #[inline]
    pub fn after(&self, pos: &Position, m: Move, out: &mut Accumulator) {
        out.clone_from(self);
        let Some(mover) = pos.piece_at(m.from()) else {
            return;
        };
        out.add(mover.index(), m.from(), -1);
        if let Some(victim) = pos.piece_at(m.to()) {
            out.add(victim.index(), m.to(), -1);
        }
        out.add(mover.index(), m.to(), 1);
    }

    /// The correction in centipawns, from the first player's (Red's) point of view.
    #[inline]
    pub fn correction(&self) -> i32 {
        let mut out = 0i32;
        for ((&r, &b), &w) in self.red.iter().zip(&self.black).zip(&W2) {
            out += (r.clamp(0, SCALE) - b.clamp(0, SCALE)) * w;
        }
        out / (SCALE * OUT_SCALE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_accumulator_kept_move_by_move_equals_one_computed_from_scratch() {
        let mut pos = Position::start();
        let mut acc = Accumulator::new(&pos);
        let mut captures = 0;
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so that victims leave the sums too.
            let m = moves
                .iter()
                .copied()
                .find(|&m| ply % 3 == 0 && pos.is_capture(m))
                .unwrap_or(moves[(ply * 11 + 5) % moves.len()]);
            captures += usize::from(pos.is_capture(m));
            let mut next = acc.clone();
            acc.after(&pos, m, &mut next);
            pos.play_unchecked(m);
            acc = next;
            assert_eq!(acc, Accumulator::new(&pos), "{}", pos.to_fen());
        }
        assert!(captures > 3, "the walk captured only {captures} times");
    }
}
