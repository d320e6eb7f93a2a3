//! A fixed-capacity move list shared by the games: no allocation on the hot path.

use std::fmt;

/// Up to `N` moves of type `M`, on the stack.
///
/// ```
/// use chuhe::MoveList;
/// let mut list: MoveList<u16, 4> = MoveList::new();
/// list.push(7);
/// list.push(9);
/// list.retain(|m| m > 8);
/// assert_eq!(&*list, &[9]);
/// ```
#[derive(Clone)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// The capacity.
    pub const CAPACITY: usize = N;

    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        MoveList {
            moves: [M::default(); N],
            len: 0,
        }
    }

    /// Appends a move; a full list ignores it (capacities are above any legal position's maximum).
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        if self.len < N {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<M: Copy + Default, const N: usize> std::ops::Deref for MoveList<M, N> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M: Copy + Default, const N: usize> std::ops::DerefMut for MoveList<M, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
