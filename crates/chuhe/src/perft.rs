//! Perft shared by every game: count the legal move paths of a given depth, with bulk
//! counting at the last ply and an optional path state for history-dependent rules.

use crate::game::{Game, GameRules, History};

/// What perft needs beyond [`GameRules`].
pub trait PerftRules: GameRules {
    /// Does a finished game (by any rule, history included) have no children? True for
    /// Xiongqi (X9); false for Xiangqi, whose perft counts legal moves only, as
    /// Fairy-Stockfish and the published tables do.
    const STOPS_AT_GAME_END: bool;

    /// State kept along the searched path (Xiongqi's X6 entries; `()` when the rules need none).
    type Path;

    /// The path state for a game's history.
    fn path_from(history: &History<Self>) -> Self::Path;
    /// Does this node have no children because the game is over (X9; `xiangqi-capture`'s
    /// captured general)? Positions with no legal move need not say so.
    fn perft_over(&self) -> bool;
    /// The moves allowed here by the position alone.
    fn perft_moves(&self) -> Self::Moves;
    /// Their number, without listing them (bulk counting).
    fn perft_count(&self) -> u64;
    /// Moves the path forbids here (appended to `out`).
    fn excluded_moves(&self, _path: &Self::Path, _out: &mut Vec<Self::Move>) {}
    /// Records `m` (played here, giving `child`) on the path.
    fn path_push(&self, _path: &mut Self::Path, _m: Self::Move, _child: &Self) {}
    /// Forgets the last recorded move.
    fn path_pop(_path: &mut Self::Path) {}
}

/// Perft from the current position of a game, its history counting where the rules say so.
pub fn perft_game<P: PerftRules>(game: &Game<P>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(game, depth).iter().map(|(_, n)| n).sum()
}

/// Perft split by root move: each move with the count below it.
pub fn divide<P: PerftRules>(game: &Game<P>, depth: u32) -> Vec<(P::Move, u64)> {
    let pos = game.position();
    if depth == 0 || pos.perft_over() || (P::STOPS_AT_GAME_END && game.outcome().is_some()) {
        return Vec::new();
    }
    let mut path = P::path_from(game.history());
    let mut excluded = Vec::new();
    pos.excluded_moves(&path, &mut excluded);
    let mut scratch = Vec::new();
    let mut out = Vec::new();
    for &m in pos.perft_moves().iter() {
        if excluded.contains(&m) {
            continue;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        pos.path_push(&mut path, m, &child);
        out.push((m, perft_inner(&child, depth - 1, &mut path, &mut scratch)));
        P::path_pop(&mut path);
    }
    out
}

/// Perft below `pos` with a path state.
pub fn perft_with_path<P: PerftRules>(pos: &P, depth: u32, path: &mut P::Path) -> u64 {
    let mut scratch = Vec::new();
    perft_inner(pos, depth, path, &mut scratch)
}

fn perft_inner<P: PerftRules>(
    pos: &P,
    depth: u32,
    path: &mut P::Path,
    scratch: &mut Vec<P::Move>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.perft_over() {
        return 0;
    }
    scratch.clear();
    pos.excluded_moves(path, scratch);
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
        pos.path_push(path, m, &child);
        total += perft_inner(&child, depth - 1, path, scratch);
        P::path_pop(path);
    }
    *scratch = excluded;
    total
}
