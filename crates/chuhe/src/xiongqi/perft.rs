//! Perft (X9) for Xiongqi: repetition (X6) along the searched path, and no children at a
//! finished game (X7 1, 3, 5).

use super::game::{move_key, Game};
use super::position::Position;
use super::types::{Move, MoveList};
use crate::game::History;
use crate::perft::PerftRules;

/// One (move, resulting position) pair of the searched path.
#[derive(Clone, Copy, Debug)]
pub struct PathEntry {
    key: u32,
    hash: u64,
    capture: bool,
}

impl PerftRules for Position {
    const STOPS_AT_GAME_END: bool = true;

    type Path = Vec<PathEntry>;

    fn path_from(history: &History<Self>) -> Vec<PathEntry> {
        let positions = history.positions();
        history
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| PathEntry {
                key: move_key(&positions[i], m),
                hash: positions[i + 1].hash(),
                capture: positions[i].is_capture(m),
            })
            .collect()
    }

    #[inline]
    fn perft_over(&self) -> bool {
        self.is_over_before_moving()
    }

    #[inline]
    fn perft_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    #[inline]
    fn perft_count(&self) -> u64 {
        self.count_moves()
    }

    /// The distinct moves that would repeat a (move, position) pair of the path. Only entries
    /// made by the side to move since the last capture can match: a repetitive move never
    /// captures, and pieces never come back.
    fn excluded_moves(&self, path: &Vec<PathEntry>, out: &mut Vec<Move>) {
        let n = path.len();
        for (back, e) in path.iter().rev().enumerate() {
            if back % 2 == 1 {
                if let Some(m) = Move::from_bits(e.key as u16) {
                    if self.board[m.from().index()] as u32 == e.key >> 16
                        && self.is_pseudo_legal(m)
                        && !out.contains(&m)
                    {
                        let mut after = self.clone();
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

    #[inline]
    fn path_push(&self, path: &mut Vec<PathEntry>, m: Move, child: &Self) {
        path.push(PathEntry {
            key: move_key(self, m),
            hash: child.hash(),
            capture: self.is_capture(m),
        });
    }

    #[inline]
    fn path_pop(path: &mut Vec<PathEntry>) {
        path.pop();
    }
}

/// Perft from a position without history (X8, X9).
///
/// ```
/// use chuhe::xiongqi::{perft, Position};
/// assert_eq!(perft(&Position::start(), 2), 676);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    crate::perft::perft_with_path(pos, depth, &mut Vec::new())
}

/// Perft from the current position of a game, its history counting for repetition.
pub fn perft_game(game: &Game, depth: u32) -> u64 {
    crate::perft::perft_game(game, depth)
}

/// Perft split by root move.
pub fn divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    crate::perft::divide(game, depth)
}
