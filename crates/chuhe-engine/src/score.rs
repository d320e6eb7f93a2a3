//! Search scores: centipawns, and the band of scores that mean a forced end of the game.

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// The score of a won game at the root: a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at least this large (in absolute value) are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The score of a draw.
pub const DRAW: i32 = 0;

/// A score as the engine reports it.
///
/// ```
/// use chuhe_engine::Score;
/// assert_eq!(Score::from_internal(31_000 - 5), Score::Mate(3));
/// assert_eq!(Score::from_internal(-(31_000 - 4)), Score::Mate(-2));
/// assert_eq!(Score::from_internal(57), Score::Cp(57));
/// assert_eq!(Score::Mate(-2).to_string(), "mate -2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns, from the side to move's point of view.
    Cp(i32),
    /// A forced end in this many moves (not plies): positive when the side to move wins.
    Mate(i32),
}

impl Score {
    /// The report for an internal score (mate scores count plies from the root).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }

    /// A comparable number: centipawns, or ±(100000 − moves) for a forced end.
    pub fn sort_key(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// `cp 57`, `mate 3`, `mate -2`: the UCI form.
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// A win `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A loss `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A score as stored in the transposition table: mate scores relative to the node.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// A score read from the transposition table at `ply`.
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}
