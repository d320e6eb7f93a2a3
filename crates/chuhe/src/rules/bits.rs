//! Square sets for the boards of games read from rule files: one bit a square, the index
//! `rank × files + file` of the game's own board, in the narrowest integer that holds the
//! board (`u64` up to 64 squares, `u128` up to 128, [`Wide`] up to 12 × 12).

use std::fmt::Debug;
use std::hash::Hash;

/// A set of squares (bit `i` = square index `i`).
pub trait Bits: Copy + Eq + Hash + Default + Debug + Send + Sync + 'static {
    /// How many squares the set can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// The set of one square.
    fn bit(i: usize) -> Self;
    /// Union.
    fn or(self, other: Self) -> Self;
    /// Intersection.
    fn and(self, other: Self) -> Self;
    /// `self` without `other`.
    fn and_not(self, other: Self) -> Self;
    /// Is the set empty?
    fn is_empty(self) -> bool;
    /// The number of squares.
    fn count(self) -> u32;
    /// The lowest square, removed from the set (`None` when empty).
    fn pop(&mut self) -> Option<usize>;
    /// Does the set hold square `i`?
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        !self.and(Self::bit(i)).is_empty()
    }
    /// Adds square `i`.
    #[inline(always)]
    fn set(&mut self, i: usize) {
        *self = self.or(Self::bit(i));
    }
    /// Removes square `i`.
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        *self = self.and_not(Self::bit(i));
    }
}

macro_rules! impl_bits {
    ($t:ty, $n:expr) => {
        impl Bits for $t {
            const CAPACITY: usize = $n;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn and_not(self, other: Self) -> Self {
                self & !other
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn pop(&mut self) -> Option<usize> {
                if *self == 0 {
                    return None;
                }
                let i = self.trailing_zeros() as usize;
                *self &= *self - 1;
                Some(i)
            }
        }
    };
}

impl_bits!(u64, 64);
impl_bits!(u128, 128);

/// A square set for boards of 129 to 144 squares (up to 12 × 12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wide(pub u128, pub u16);

impl Bits for Wide {
    const CAPACITY: usize = 144;
    const EMPTY: Self = Wide(0, 0);
    #[inline(always)]
    fn bit(i: usize) -> Self {
        if i < 128 {
            Wide(1 << i, 0)
        } else {
            Wide(0, 1 << (i - 128))
        }
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Wide(self.0 | o.0, self.1 | o.1)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Wide(self.0 & o.0, self.1 & o.1)
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        Wide(self.0 & !o.0, self.1 & !o.1)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0 == 0 && self.1 == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.count_ones() + self.1.count_ones()
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        if self.0 != 0 {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        } else if self.1 != 0 {
            let i = self.1.trailing_zeros() as usize;
            self.1 &= self.1 - 1;
            Some(128 + i)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk<B: Bits>(squares: &[usize]) -> Vec<usize> {
        let mut b = B::EMPTY;
        for &i in squares {
            b.set(i);
        }
        assert_eq!(b.count() as usize, squares.len());
        let mut out = Vec::new();
        while let Some(i) = b.pop() {
            out.push(i);
        }
        out
    }

    #[test]
    fn every_width_pops_its_squares_in_order() {
        assert_eq!(walk::<u64>(&[63, 0, 7]), [0, 7, 63]);
        assert_eq!(walk::<u128>(&[127, 64, 3]), [3, 64, 127]);
        assert_eq!(walk::<Wide>(&[143, 127, 128, 0]), [0, 127, 128, 143]);
        let mut w = Wide::bit(130).or(Wide::bit(5));
        w.clear(130);
        assert!(w.has(5) && !w.has(130));
    }
}
