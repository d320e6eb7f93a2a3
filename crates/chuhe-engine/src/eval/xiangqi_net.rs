//! A small network's correction to the Xiangqi evaluation's weighted terms.
//!
//! One hidden layer over (piece, point) inputs, 14 × 90 of them, evaluated from both sides
//! with the same weights: `N = h(board) − h(board seen from Black)`, where
//! `h(x) = W2 · clamp(W1 x + B1, 0, 1)`. Swapping the colours swaps the two halves, so the
//! correction changes sign exactly, as the evaluation must. The weights are integers
//! (`xiangqi_net_weights.rs`), written by `scripts/train_xiangqi_net.py` (see
//! `docs/TUNING.md`); evaluating the network walks the pieces once, without incremental
//! updates.
//!
//! ```
//! use chuhe::xiangqi::Position;
//! use chuhe_engine::eval::xiangqi_net::correction;
//! // The starting position looks the same from either side.
//! assert_eq!(correction(&Position::start()), 0);
//! ```

use chuhe::xiangqi::{squares, Position};

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
    let mut red = [0i32; HIDDEN];
    let mut black = [0i32; HIDDEN];
    for h in 0..HIDDEN {
        red[h] = i32::from(B1[h]);
        black[h] = i32::from(B1[h]);
    }
    for sq in squares(pos.occupied()) {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let i = piece.index();
        // Seen from Black: the other side's piece on the point with ranks flipped.
        let swapped = if i < 7 { i + 7 } else { i - 7 };
        let r = input(i, sq.index());
        let b = input(swapped, sq.flip_rank().index());
        for h in 0..HIDDEN {
            red[h] += i32::from(r[h]);
            black[h] += i32::from(b[h]);
        }
    }
    let mut out = 0i32;
    for h in 0..HIDDEN {
        out += (red[h].clamp(0, SCALE) - black[h].clamp(0, SCALE)) * W2[h];
    }
    out / (SCALE * OUT_SCALE)
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
}
