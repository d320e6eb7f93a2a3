//! Perft (X9) for Xiongqi: repetition (X6) along the searched path, and no children at a
//! finished game (X7 1, 3, 5).

use super::game::move_key;
use super::position::Position;
use super::types::Move;
use crate::game::History;

/// One (move, resulting position) pair of the searched path.
#[derive(Clone, Copy, Debug)]
pub struct PathEntry {
    key: u32,
    hash: u64,
    capture: bool,
}

impl PathEntry {
    /// The entry for `m`, played in `pos`, giving `child`.
    #[inline]
    pub(crate) fn new(pos: &Position, m: Move, child: &Position) -> PathEntry {
        PathEntry {
            key: move_key(pos, m),
            hash: child.hash(),
            capture: pos.is_capture(m),
        }
    }
}

/// The path of a game's history.
pub(crate) fn path_from(history: &History<Position>) -> Vec<PathEntry> {
    let positions = history.positions();
    history
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| PathEntry::new(&positions[i], m, &positions[i + 1]))
        .collect()
}

/// The distinct moves that would repeat a (move, position) pair of the path. Only entries
/// made by the side to move since the last capture can match: a repetitive move never
/// captures, and pieces never come back.
pub(crate) fn excluded_moves(pos: &Position, path: &[PathEntry], out: &mut Vec<Move>) {
    let n = path.len();
    for (back, e) in path.iter().rev().enumerate() {
        if back % 2 == 1 {
            if let Some(m) = Move::from_bits(e.key as u16) {
                if pos.board[m.from().index()] as u32 == e.key >> 16
                    && pos.is_pseudo_legal(m)
                    && !out.contains(&m)
                {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    if after.hash() == e.hash {
                        out.push(m);
                    }
                }
            }
        }
        if e.capture || back + 1 == n {
            break;
        }
    }
}
