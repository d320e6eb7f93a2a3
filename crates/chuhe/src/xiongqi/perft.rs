//! Perft (X9): legal move paths counted with repetition along the searched path.

use super::game::{move_key, Game};
use super::position::Position;
use super::types::{Move, MoveList};

#[derive(Clone, Copy)]
struct Entry {
    key: u32,
    hash: u64,
    capture: bool,
}

/// The searched path: (move, resulting position) pairs, as X6 needs them.
struct Path {
    entries: Vec<Entry>,
}

impl Path {
    fn from_game(game: &Game) -> Path {
        let mut entries = Vec::new();
        let positions = game.positions();
        for (i, &m) in game.moves().iter().enumerate() {
            entries.push(Entry {
                key: move_key(&positions[i], m),
                hash: positions[i + 1].hash(),
                capture: positions[i].is_capture(m),
            });
        }
        Path { entries }
    }

    /// The distinct moves that would repeat a (move, position) pair of the path from `pos`.
    /// Only entries made by the side to move since the last capture can match: a repetitive
    /// move never captures, and pieces never come back.
    fn repetitive_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        let n = self.entries.len();
        let mut i = n;
        while i > 0 {
            i -= 1;
            let e = self.entries[i];
            if (n - 1 - i) % 2 == 1 {
                let m = Move::from_bits(e.key as u16);
                if let Some(m) = m {
                    if (pos.board[m.from().index()] as u32) == e.key >> 16
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
            if e.capture {
                break;
            }
        }
    }
}

/// Perft from a position without history.
///
/// ```
/// use chuhe::xiongqi::{perft, Position};
/// assert_eq!(perft(&Position::start(), 2), 676);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut path = Path {
        entries: Vec::new(),
    };
    let mut scratch = Vec::new();
    perft_inner(pos, depth, &mut path, &mut scratch)
}

/// Perft from the current position of a game, its history counting for repetition.
pub fn perft_game(game: &Game, depth: u32) -> u64 {
    if game.outcome().is_some() {
        return u64::from(depth == 0);
    }
    let mut path = Path::from_game(game);
    let mut scratch = Vec::new();
    perft_inner(game.position(), depth, &mut path, &mut scratch)
}

/// Perft split by root move: each legal move with the count below it.
pub fn divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut path = Path::from_game(game);
    let mut scratch = Vec::new();
    let pos = game.position();
    let mut out = Vec::new();
    for &m in game.legal_moves().iter() {
        path.entries.push(entry(pos, m));
        let mut child = pos.clone();
        child.play_unchecked(m);
        out.push((m, perft_inner(&child, depth - 1, &mut path, &mut scratch)));
        path.entries.pop();
    }
    out
}

#[inline]
fn entry(pos: &Position, m: Move) -> Entry {
    let mut after = pos.clone();
    after.play_unchecked(m);
    Entry {
        key: move_key(pos, m),
        hash: after.hash(),
        capture: pos.is_capture(m),
    }
}

fn perft_inner(pos: &Position, depth: u32, path: &mut Path, scratch: &mut Vec<Move>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over_before_moving() {
        return 0;
    }
    path.repetitive_moves(pos, scratch);
    if depth == 1 {
        return pos.count_moves() - scratch.len() as u64;
    }
    let excluded = std::mem::take(scratch);
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut total = 0;
    for &m in list.iter() {
        if excluded.contains(&m) {
            continue;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        path.entries.push(Entry {
            key: move_key(pos, m),
            hash: child.hash(),
            capture: pos.is_capture(m),
        });
        total += perft_inner(&child, depth - 1, path, scratch);
        path.entries.pop();
    }
    *scratch = excluded;
    total
}
