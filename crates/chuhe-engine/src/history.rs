//! What the search learns from its own results and keeps from one search to the next of a
//! game: move-ordering statistics (history, continuation history, capture history,
//! countermoves) and the correction history, which nudges the static evaluation toward what
//! searches of similar positions (the same soldiers) found.
//!
//! Each search thread owns one [`SearchTables`]; the engine keeps them between the moves of
//! a game and clears them for a new one.
//!
//! ```
//! use chuhe_engine::history::SearchTables;
//! use chuhe::xiangqi;
//! let mut tables = SearchTables::<xiangqi::Position>::new();
//! tables.clear();
//! assert_eq!(tables.correction(0, 12345), 0);
//! ```

use chuhe::{GameMove, GameSquare, Side};

use crate::game::SearchGame;

/// The bound of every history value.
pub const HISTORY_MAX: i32 = 16_384;

/// Entries of each side's correction table (a power of two).
const CORRECTION_SIZE: usize = 16_384;
/// The scale of a correction entry: an entry of `CORRECTION_GRAIN` is one centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_LIMIT: i32 = 128;

/// The statistics of one search thread (see the module's description).
pub struct SearchTables<P: SearchGame> {
    /// How quiet moves fared, by side, origin and destination.
    pub(crate) history: Vec<i32>,
    /// The quiet move that last refuted each move (origin, destination).
    pub(crate) counter: Vec<P::Move>,
    /// How a quiet move (piece kind, destination) fared after the move one or two plies
    /// earlier (piece kind, destination).
    pub(crate) continuation: Vec<i32>,
    /// How captures fared, by capturing piece kind, destination and captured piece kind.
    pub(crate) capture: Vec<i32>,
    /// By side to move and soldier structure: the search's score minus the static
    /// evaluation, averaged (in 1/[`CORRECTION_GRAIN`] centipawns).
    correction: Vec<i32>,
    /// The score the last search found, with the side it searched for (its index).
    previous_score: Option<(usize, i32)>,
}

impl<P: SearchGame> Default for SearchTables<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: SearchGame> SearchTables<P> {
    /// Empty tables.
    pub fn new() -> Self {
        let count = <P::Square as GameSquare>::COUNT;
        let kinds = P::PIECE_KINDS;
        SearchTables {
            history: vec![0; 2 * count * count],
            counter: vec![P::Move::default(); count * count],
            continuation: vec![0; (kinds * count).pow(2)],
            capture: vec![0; kinds * count * kinds],
            correction: vec![0; 2 * CORRECTION_SIZE],
            previous_score: None,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.counter.fill(P::Move::default());
        self.continuation.fill(0);
        self.capture.fill(0);
        self.correction.fill(0);
        self.previous_score = None;
    }

    /// The score of the last search, if it searched for `side` (time management compares
    /// it with what the next search finds).
    pub fn previous_score(&self, side: Side) -> Option<i32> {
        self.previous_score
            .and_then(|(s, v)| (s == side.index()).then_some(v))
    }

    /// Remembers the score of a search for `side`.
    pub(crate) fn remember_score(&mut self, side: Side, score: i32) {
        self.previous_score = Some((side.index(), score));
    }

    /// Moves `cell` toward `bonus`'s sign by `bonus`, less the more it already holds: the
    /// values stay within ±[`HISTORY_MAX`].
    #[inline]
    pub(crate) fn age(cell: &mut i32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *cell += bonus - *cell * bonus.abs() / HISTORY_MAX;
    }

    /// The index of a capture `m` in `pos` in the capture history.
    #[inline]
    pub(crate) fn capture_index(pos: &P, m: P::Move) -> usize {
        let count = <P::Square as GameSquare>::COUNT;
        (pos.piece_kind_at(m.from()) * count + m.to().index()) * P::PIECE_KINDS
            + pos.piece_kind_at(m.to())
    }

    /// The correction, in centipawns, for the side to move (`turn`, 0 or 1) in positions
    /// with the soldier structure `key`.
    #[inline]
    pub fn correction(&self, turn: usize, key: u64) -> i32 {
        self.correction[Self::correction_index(turn, key)] / CORRECTION_GRAIN
    }

    /// Learns that a search of `depth` found `diff` centipawns more than the raw static
    /// evaluation said: the entry is a running average, the deeper searches weighing more.
    #[inline]
    pub(crate) fn update_correction(&mut self, turn: usize, key: u64, diff: i32, depth: i32) {
        let cell = &mut self.correction[Self::correction_index(turn, key)];
        let weight = (depth + 1).min(16);
        let target = diff.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        *cell = (*cell * (256 - weight) + target * weight) / 256;
    }

    #[inline]
    fn correction_index(turn: usize, key: u64) -> usize {
        turn * CORRECTION_SIZE + (key as usize & (CORRECTION_SIZE - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe::xiangqi;

    #[test]
    fn history_values_stay_within_their_bound() {
        let mut cell = 0;
        for _ in 0..1000 {
            SearchTables::<xiangqi::Position>::age(&mut cell, 5000);
            assert!(cell <= HISTORY_MAX);
        }
        assert!(cell > HISTORY_MAX / 2);
        for _ in 0..1000 {
            SearchTables::<xiangqi::Position>::age(&mut cell, -5000);
            assert!(cell >= -HISTORY_MAX);
        }
        assert!(cell < -HISTORY_MAX / 2);
    }

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let mut t = SearchTables::<xiangqi::Position>::new();
        for _ in 0..200 {
            t.update_correction(0, 7, 40, 8);
        }
        let c = t.correction(0, 7);
        assert!((30..=40).contains(&c), "{c}");
        // The other side and other structures learnt nothing.
        assert_eq!(t.correction(1, 7), 0);
        assert_eq!(t.correction(0, 8), 0);
        for _ in 0..1000 {
            t.update_correction(1, 9, -5000, 20);
        }
        // However large the surprise, the correction stays within its limit (and near it).
        let c = t.correction(1, 9);
        assert!(
            (-CORRECTION_LIMIT..=-CORRECTION_LIMIT + 2).contains(&c),
            "{c}"
        );
        t.clear();
        assert_eq!(t.correction(0, 7), 0);
    }
}
