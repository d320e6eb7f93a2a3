//! Static exchange evaluation: the material balance of the captures and recaptures on one
//! square, each side taking with its least valuable attacker and free to stop, written once
//! for every game over [`Exchange`].
//!
//! Attackers are found afresh after every capture, so lines that open behind a capturer
//! (x-rays), and cannon screens that appear or vanish, are counted as they are.

use std::ops::{BitAnd, BitOr, BitXor, Not};

use chuhe::Side;

/// A set of squares as bits (the games' bitboards).
pub trait BitSet:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// No square.
    const EMPTY: Self;
    /// The square with this index.
    fn bit(index: usize) -> Self;
    /// The index of the lowest square, if any.
    fn lowest(self) -> Option<usize>;
    /// Without the lowest square.
    fn without_lowest(self) -> Self;
}

macro_rules! bitset {
    ($t:ty) => {
        impl BitSet for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(index: usize) -> Self {
                1 << index
            }
            #[inline(always)]
            fn lowest(self) -> Option<usize> {
                (self != 0).then(|| self.trailing_zeros() as usize)
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
bitset!(u64);
bitset!(u128);

/// What exchange evaluation needs of a position.
pub trait Exchange {
    /// The game's bitboard.
    type Bits: BitSet;
    /// Every occupied square.
    fn occupied_bits(&self) -> Self::Bits;
    /// The squares of `side`'s pieces.
    fn side_bits(&self, side: Side) -> Self::Bits;
    /// Pieces of `occ` (either side) attacking `target` when exactly `occ` is occupied.
    fn attackers_bits(&self, target: usize, occ: Self::Bits) -> Self::Bits;
    /// The exchange value of the piece on square `index` (the terminal piece above all).
    fn value_at(&self, index: usize) -> i32;
    /// Is the piece on `index` a terminal piece (general, dragon)?
    fn is_terminal_at(&self, index: usize) -> bool;
    /// The side to move.
    fn mover(&self) -> Side;
}

/// Does the capture (or move) `from → to` win at least `threshold` by exchange, both sides
/// recapturing with their least valuable piece as long as it pays?
#[inline]
pub fn see_ge<E: Exchange>(pos: &E, from: usize, to: usize, threshold: i32) -> bool {
    let mut swap = pos.value_at(to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = pos.value_at(from) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied_bits() ^ E::Bits::bit(from) ^ E::Bits::bit(to);
    let mut side = pos.mover();
    // 1 while the side that made the last capture is ahead of the threshold.
    let mut result = 1;
    loop {
        side = !side;
        let attackers = pos.attackers_bits(to, occ) & occ;
        let ours = attackers & pos.side_bits(side);
        let Some(mut least) = ours.lowest() else {
            break;
        };
        let mut rest = ours.without_lowest();
        while let Some(sq) = rest.lowest() {
            if pos.value_at(sq) < pos.value_at(least) {
                least = sq;
            }
            rest = rest.without_lowest();
        }
        result ^= 1;
        if pos.is_terminal_at(least) {
            // The terminal piece takes only when nothing can take it back.
            let theirs = attackers & pos.side_bits(!side) & !E::Bits::bit(least);
            return if theirs != E::Bits::EMPTY {
                result ^ 1 == 1
            } else {
                result == 1
            };
        }
        swap = pos.value_at(least) - swap;
        if swap < result {
            break;
        }
        occ = occ ^ E::Bits::bit(least);
    }
    result == 1
}

/// The material balance from the side to move's point of view: the exchange values of its
/// pieces minus the opponent's (terminal pieces cancel out).
pub fn material<E: Exchange>(pos: &E) -> i32 {
    let sum = |side: Side| {
        let mut bits = pos.side_bits(side);
        let mut total = 0;
        while let Some(sq) = bits.lowest() {
            total += pos.value_at(sq);
            bits = bits.without_lowest();
        }
        total
    };
    sum(pos.mover()) - sum(!pos.mover())
}
