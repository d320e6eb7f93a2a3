//! Perft shared by every game: count the legal move paths of a given depth, with bulk
//! counting at the last ply and an optional path state for history-dependent rules.

use std::ops::ControlFlow;

use crate::game::Game;
use crate::variant::GamePosition;

/// Perft from a position without history (X8 for Xiongqi): the same as
/// [`GamePosition::perft`].
///
/// ```
/// use chuhe::{xiangqi, xiongqi};
/// assert_eq!(xiongqi::perft(&xiongqi::Position::start(), 2), 676);
/// assert_eq!(xiangqi::perft(&xiangqi::Position::start(), 2), 1920);
/// ```
pub fn perft<P: GamePosition>(pos: &P, depth: u32) -> u64 {
    pos.perft(depth)
}

/// Perft from the current position of a game, its history counting where the rules say so.
pub fn perft_game<P: GamePosition>(game: &Game<P>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(game, depth).iter().map(|(_, n)| n).sum()
}

/// Perft split by root move: each move with the count below it.
pub fn divide<P: GamePosition>(game: &Game<P>, depth: u32) -> Vec<(P::Move, u64)> {
    let mut out = Vec::new();
    divide_each(game, depth, |m, n| {
        out.push((m, n));
        ControlFlow::Continue(())
    });
    out
}

/// The root moves perft counts from a game's current position (none at depth 0 or when the
/// count stops there): what [`divide_each`] will report, in its order.
pub fn root_moves<P: GamePosition>(game: &Game<P>, depth: u32) -> Vec<P::Move> {
    let pos = game.position();
    if depth == 0 || pos.perft_over() || (pos.perft_stops_at_game_end() && game.outcome().is_some())
    {
        return Vec::new();
    }
    let path = P::perft_path_from(game.history());
    let mut excluded = Vec::new();
    pos.perft_excluded(&path, &mut excluded);
    pos.perft_moves()
        .iter()
        .copied()
        .filter(|m| !excluded.contains(m))
        .collect()
}

/// Perft split by root move, calling `on_move(move, count)` as each root move finishes (for
/// streaming output and progress); `on_move` returns `ControlFlow::Break` to stop early.
pub fn divide_each<P: GamePosition>(
    game: &Game<P>,
    depth: u32,
    mut on_move: impl FnMut(P::Move, u64) -> ControlFlow<()>,
) {
    let pos = game.position();
    let mut path = P::perft_path_from(game.history());
    let mut scratch = Vec::new();
    for m in root_moves(game, depth) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        pos.perft_path_push(&mut path, m, &child);
        let n = perft_inner(&child, depth - 1, &mut path, &mut scratch);
        P::perft_path_pop(&mut path);
        if on_move(m, n).is_break() {
            return;
        }
    }
}

/// Perft below `pos` with a path state.
pub fn perft_with_path<P: GamePosition>(pos: &P, depth: u32, path: &mut P::PerftPath) -> u64 {
    let mut scratch = Vec::new();
    perft_inner(pos, depth, path, &mut scratch)
}

fn perft_inner<P: GamePosition>(
    pos: &P,
    depth: u32,
    path: &mut P::PerftPath,
    scratch: &mut Vec<P::Move>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.perft_over() {
        return 0;
    }
    scratch.clear();
    pos.perft_excluded(path, scratch);
    if depth == 1 {
        return pos.perft_count() - scratch.len() as u64;
    }
    let excluded = std::mem::take(scratch);
    let mut total = 0;
    for &m in pos.perft_moves().iter() {
        if excluded.contains(&m) {
            continue;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        pos.perft_path_push(path, m, &child);
        total += perft_inner(&child, depth - 1, path, scratch);
        P::perft_path_pop(path);
    }
    *scratch = excluded;
    total
}
