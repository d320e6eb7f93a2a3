//! The search, written once for every game: iterative deepening over a principal-variation
//! alpha-beta search with aspiration windows, a shared transposition table, quiescence
//! search, null-move pruning, late-move reductions and pruning, killer / history /
//! countermove ordering, check extensions, MultiPV, and the games' history rules (Xiongqi's
//! forbidden repetitions, Xiangqi's perpetual check) applied along the searched line.
//!
//! One [`Searcher`] runs on each thread; threads share the [`Shared`] state (Lazy SMP).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use chuhe::{Game, GameMove, GameSquare, MoveBuffer};

use crate::game::{HistoryRule, NodeOutcome, SearchGame};
use crate::history::SearchTables;
use crate::limits::TimeBudget;
use crate::score::{self, mate_in, mated_in, DRAW, INFINITE, MATE_BOUND};
use crate::tt::{Bound, Entry, TableAllocError, TranspositionTable};

/// The deepest line the search follows.
pub const MAX_PLY: usize = 128;

/// What every search thread shares.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched by all threads (updated in batches).
    pub nodes: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` MB (aborts if the memory cannot be had: see
    /// [`Shared::try_new`]).
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(TranspositionTable::new(hash_mb))
    }

    /// Shared state with a table of `hash_mb` MB, or why its memory cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Shared, TableAllocError> {
        Ok(Shared::with_table(TranspositionTable::try_new(hash_mb)?))
    }

    fn with_table(tt: TranspositionTable) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

/// How one search runs.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// The deepest iteration.
    pub max_depth: i32,
    /// Time limits, measured from `start`.
    pub budget: TimeBudget,
    /// When the search started.
    pub start: Instant,
    /// Stop after this many nodes (all threads).
    pub node_limit: Option<u64>,
    /// Stop once a win in this many moves is proven.
    pub mate_limit: Option<u32>,
    /// Lines to search.
    pub multipv: usize,
    /// Is this the thread that decides (and checks the clock)?
    pub main_thread: bool,
    /// Evaluate by material alone.
    pub material_only: bool,
}

/// One line found by an iteration.
#[derive(Clone, Debug)]
pub struct LineReport<M> {
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score from the side to move's view (internal scale; see `score::Score`).
    pub score: i32,
    /// Whether the score is exact, a lower or an upper bound (after a failed aspiration).
    pub bound: Bound,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchOutcome<M> {
    /// The lines of the last completed iteration, best first.
    pub lines: Vec<LineReport<M>>,
    /// The depth last completed.
    pub depth: i32,
    /// Nodes searched by this thread.
    pub nodes: u64,
}

#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    prev_score: i32,
    pv: Vec<M>,
    seldepth: usize,
}

/// What [`Searcher::prunable`] knows of a move and its node.
#[derive(Clone, Copy)]
struct Pruning {
    depth: i32,
    /// The move's ordering score (negative: a capture that loses by exchange).
    order: i32,
    tactical: bool,
    /// A killer or the countermove.
    is_killerish: bool,
    gives_check: bool,
    /// Moves searched so far at the node.
    searched: usize,
    improving: bool,
    static_eval: i32,
    alpha: i32,
    /// The move's continuation histories, summed.
    cont: i32,
}

/// One position of the searched line (game history included), for the history rules.
#[derive(Clone, Copy, Debug, Default)]
struct LineEntry {
    /// Zobrist hash of the position.
    hash: u64,
    /// `SearchGame::move_key` of the move that led here (0 for the first and after a pass).
    key: u32,
    /// Is the side to move here in check (did the move that led here give check)?
    check: bool,
    /// Was the move that led here irreversible (or a pass)? No earlier position recurs.
    irreversible: bool,
}

#[derive(Clone, Copy, Default)]
struct PlyState<M> {
    killers: [M; 2],
    eval: i32,
    mv: Option<M>,
    /// The move made here as (piece kind, destination), for continuation history.
    cont: Option<usize>,
    null: bool,
}

/// An evaluation `v` scaled down linearly with the plies played toward the move limit
/// (`plies`, drawn at 100; `None`: the game has no limit): at 50 plies it counts three
/// quarters. A side ahead then prefers the capture that restarts the count to shuffling
/// into the draw, a side behind the reverse.
#[inline]
fn damped_by_move_limit(v: i32, plies: Option<u32>) -> i32 {
    match plies {
        Some(p) if p > 0 => v * (200 - p.min(100) as i32) / 200,
        _ => v,
    }
}

/// Late-move reductions by depth and move number.
fn reduction(depth: i32, moves: usize) -> i32 {
    if depth < 3 || moves < 2 {
        return 0;
    }
    let r = 0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25;
    r as i32
}

/// The static evaluation `eval` refined by the table's score `tt_value` of the same position
/// where its bound says the truth lies beyond `eval` (mate scores left out).
#[inline]
fn refined_eval(eval: i32, entry: Option<Entry>, tt_value: Option<i32>) -> i32 {
    match (entry, tt_value) {
        (Some(e), Some(v)) if v.abs() < MATE_BOUND => match e.bound {
            Bound::Exact => v,
            Bound::Lower if v > eval => v,
            Bound::Upper if v < eval => v,
            _ => eval,
        },
        _ => eval,
    }
}

/// Ordering score of captures and promotions that do not lose material.
const GOOD_TACTICAL: i32 = 1 << 26;
/// Ordering score of killers and the countermove.
const REFUTATION: i32 = 1 << 25;
/// Ordering score of captures that lose material by exchange (below every quiet move).
const BAD_CAPTURE: i32 = -(1 << 24);

/// Could a piece arriving at or leaving `sq` give check to a terminal piece on `target`?
/// A cheap filter before trying the move: the square shares a file, rank or diagonal with
/// the target, or is within two files and two ranks of it (steps, leaps, horse legs).
#[inline]
fn may_check<S: GameSquare>(sq: S, target: S) -> bool {
    let df = sq.file().abs_diff(target.file());
    let dr = sq.rank().abs_diff(target.rank());
    df == 0 || dr == 0 || df == dr || (df <= 2 && dr <= 2)
}

/// The search of one thread.
pub struct Searcher<'a, P: SearchGame> {
    shared: &'a Shared,
    /// The network the evaluation reads ([`SearchGame::Network`]).
    net: &'a P::Network,
    params: SearchParams,
    root: P,
    root_moves: Vec<RootMove<P::Move>>,
    line: Vec<LineEntry>,
    root_line_len: usize,
    stack: Vec<PlyState<P::Move>>,
    /// The evaluation state of the position at each ply of the searched line
    /// ([`SearchGame::EvalState`]), brought up to date as moves are entered.
    eval_states: Vec<P::EvalState>,
    pv: Vec<Vec<P::Move>>,
    /// Move-ordering and correction statistics, kept between the searches of a game.
    tables: &'a mut SearchTables<P>,
    buffers: Vec<Vec<(P::Move, i32)>>,
    nodes: u64,
    unreported_nodes: u64,
    /// Nodes between two looks at the limits and the stop flag (fewer under a small node
    /// limit, so that it holds closely).
    poll_interval: u64,
    seldepth: usize,
    stopped: bool,
    rule: HistoryRule,
    root_depth: i32,
    /// How the clock is read between iterations (see [`ClockSignals`]).
    clock: ClockSignals,
}

/// What the iterations of a search say about how long to think: a best move that keeps
/// changing or a score that falls asks for more time, a best move that has stood for many
/// iterations for less. Only the soft limit (when to start another iteration) scales.
#[derive(Clone, Debug, Default)]
struct ClockSignals {
    /// Changes of the best move at the root, halved at each new iteration.
    best_changes: f64,
    /// The last iteration in which a move other than the first took the lead at the root.
    changed_at: i32,
    /// The best score of each completed iteration.
    scores: Vec<i32>,
}

impl ClockSignals {
    /// The factor of the soft limit after an iteration of `depth` with the best score
    /// `best`; `previous` is the previous search's score for the same side, if any.
    fn scale(&self, depth: i32, best: i32, previous: Option<i32>) -> f64 {
        let clip = |v: i32| v.clamp(-1000, 1000);
        let best = clip(best);
        let earlier = self
            .scores
            .len()
            .checked_sub(4)
            .map_or(best, |i| clip(self.scores[i]));
        let fall = (clip(previous.unwrap_or(best)) - best) + (earlier - best);
        let falling = (1.0 + f64::from(fall) / 60.0).clamp(0.8, 2.0);
        let stable = if depth >= self.changed_at + 8 {
            0.75
        } else {
            1.0
        };
        (falling * stable * (1.0 + self.best_changes)).min(3.0)
    }
}

impl<'a, P: SearchGame> Searcher<'a, P> {
    /// A searcher for the current position of `game`, its history included; `only` limits
    /// the root moves (empty: every move of [`Game::moves_past_end`], which are the legal
    /// moves while the game goes on). It learns into `tables` and evaluates with `net`.
    pub fn new(
        shared: &'a Shared,
        tables: &'a mut SearchTables<P>,
        params: SearchParams,
        game: &Game<P>,
        only: &[P::Move],
        net: &'a P::Network,
    ) -> Self {
        let root = game.position().clone();
        let mut legal = game.moves_past_end();
        if !only.is_empty() {
            legal.retain(|m| only.contains(&m));
        }
        let root_moves = legal
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        let positions = game.positions();
        let moves = game.moves();
        let mut line = Vec::with_capacity(positions.len() + MAX_PLY + 2);
        for (i, pos) in positions.iter().enumerate() {
            let (key, irreversible) = if i == 0 {
                (0, true)
            } else {
                let before = &positions[i - 1];
                let m = moves[i - 1];
                (before.move_key(m), before.is_irreversible(m))
            };
            line.push(LineEntry {
                hash: pos.zobrist_hash(),
                key,
                check: pos.is_check(),
                irreversible,
            });
        }
        let root_line_len = line.len();
        let poll_interval = params.node_limit.map_or(1024, |n| (n / 16).clamp(1, 1024));
        Searcher {
            shared,
            net,
            params,
            rule: root.history_rule(),
            root_moves,
            line,
            root_line_len,
            stack: vec![PlyState::default(); MAX_PLY + 4],
            eval_states: vec![root.eval_state(net); MAX_PLY + 2],
            root,
            pv: vec![Vec::new(); MAX_PLY + 2],
            tables,
            buffers: vec![Vec::new(); MAX_PLY + 2],
            nodes: 0,
            unreported_nodes: 0,
            poll_interval,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            clock: ClockSignals::default(),
        }
    }

    /// Nodes searched by this thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Runs iterative deepening; `report` gets every line of every completed iteration (and
    /// of interrupted ones, marked by their bound). Returns the last completed iteration.
    pub fn run(&mut self, report: &mut dyn FnMut(&LineReport<P::Move>)) -> SearchOutcome<P::Move> {
        let mut completed: Vec<LineReport<P::Move>> = Vec::new();
        let mut completed_depth = 0;
        if self.root_moves.is_empty() {
            return SearchOutcome {
                lines: completed,
                depth: 0,
                nodes: 0,
            };
        }
        let multipv = self.params.multipv.clamp(1, self.root_moves.len());
        // A single legal move needs no thinking under a clock.
        let single = self.root_moves.len() == 1 && self.params.budget.soft.is_some();
        for depth in 1..=self.params.max_depth.max(1) {
            self.root_depth = depth;
            self.clock.best_changes *= 0.5;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            let mut bounds = Vec::with_capacity(multipv);
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                let mut bound;
                loop {
                    let score = self.root_search(depth, alpha, beta, pv_idx);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        bound = Bound::Exact;
                        break;
                    }
                    if score <= alpha {
                        bound = Bound::Upper;
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta {
                        bound = Bound::Lower;
                        beta = (score + delta).min(INFINITE);
                    } else {
                        bound = Bound::Exact;
                        break;
                    }
                    if self.params.main_thread && depth > 1 {
                        self.flush_nodes();
                        report(&self.line_report(pv_idx, depth, bound));
                    }
                    delta += delta / 2 + 5;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
                bounds.push(bound);
            }
            if self.stopped {
                // An interrupted iteration keeps what it found: the root moves are sorted
                // with every finished result, so the first is the best move known.
                let best = self.line_report(0, completed_depth.max(1), Bound::Exact);
                match completed.first_mut() {
                    Some(first) => {
                        first.pv = best.pv;
                        first.score = best.score;
                    }
                    None => completed.push(best),
                }
                break;
            }
            // The lines as they stand once every one is searched (a later line may have
            // overtaken an earlier one).
            let lines: Vec<_> = (0..multipv)
                .map(|i| self.line_report(i, depth, bounds[i]))
                .collect();
            self.flush_nodes();
            for l in &lines {
                report(l);
            }
            completed = lines;
            completed_depth = depth;
            self.clock.scores.push(self.root_moves[0].score);
            if self.params.main_thread && self.iteration_limits_reached(depth, single) {
                break;
            }
        }
        if let Some(first) = completed.first() {
            self.tables.remember_score(self.root.turn(), first.score);
        }
        SearchOutcome {
            lines: completed,
            depth: completed_depth,
            nodes: self.nodes,
        }
    }

    fn line_report(&self, pv_idx: usize, depth: i32, bound: Bound) -> LineReport<P::Move> {
        let rm = &self.root_moves[pv_idx];
        let score = match (rm.score, rm.prev_score) {
            (s, _) if s > -INFINITE => s,
            (_, p) if p > -INFINITE => p,
            _ => DRAW, // nothing finished yet: no opinion
        };
        LineReport {
            multipv: pv_idx + 1,
            depth,
            seldepth: rm.seldepth.max(1),
            score,
            bound,
            pv: rm.pv.clone(),
        }
    }

    /// Limits checked between iterations (main thread): soft time, mate found.
    fn iteration_limits_reached(&self, depth: i32, single: bool) -> bool {
        if single && depth >= 4 {
            return true;
        }
        let best = self.root_moves[0].score;
        if let Some(n) = self.params.mate_limit {
            if best >= MATE_BOUND && (score::MATE - best + 1) / 2 <= n as i32 {
                return true;
            }
        }
        if let Some(soft) = self.params.budget.soft {
            let elapsed = self.params.start.elapsed();
            // The next iteration takes longer than all before it: start it only with time.
            let best = self.root_moves[0].score;
            let scale = self
                .clock
                .scale(depth, best, self.tables.previous_score(self.root.turn()));
            if elapsed >= soft.mul_f64(0.6 * scale) {
                return true;
            }
        }
        false
    }

    // ----- limits ---------------------------------------------------------------------

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.unreported_nodes >= self.poll_interval {
            self.poll();
        }
    }

    /// Adds this thread's nodes to the shared count (reports read it).
    fn flush_nodes(&mut self) -> u64 {
        let total = self
            .shared
            .nodes
            .fetch_add(self.unreported_nodes, Ordering::Relaxed)
            + self.unreported_nodes;
        self.unreported_nodes = 0;
        total
    }

    fn poll(&mut self) {
        let total = self.flush_nodes();
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.params.main_thread {
            return;
        }
        // A node limit holds from the first iteration on (a weak opponent may be given a
        // handful of nodes); the clock lets the first iteration finish.
        let over_nodes = self.params.node_limit.is_some_and(|n| total >= n);
        let over_time = self.root_depth > 1
            && self
                .params
                .budget
                .hard
                .is_some_and(|h| self.params.start.elapsed() >= h);
        if over_nodes || over_time {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    // ----- history rules --------------------------------------------------------------

    /// Would the move with `key`, reaching `child_hash`, repeat an earlier (move, position)
    /// pair of the line (Xiongqi X6)?
    fn forbidden(&self, key: u32, child_hash: u64) -> bool {
        for e in self.line.iter().rev() {
            if e.hash == child_hash && e.key == key {
                return true;
            }
            if e.irreversible {
                break;
            }
        }
        false
    }

    /// The score of the current node (the last of the line) if it repeats an earlier
    /// position and the game's rules say what that means.
    fn repetition_score(&self, ply: usize) -> Option<i32> {
        let n = self.line.len();
        let current = self.line[n - 1];
        if current.irreversible || self.rule == HistoryRule::ForbiddenRepeat {
            return None;
        }
        let mut i = n - 1;
        let mut earlier_matches = 0;
        // Walk back over reversible moves only, two plies at a time (same side to move).
        loop {
            if self.line[i].irreversible || i < 2 || self.line[i - 1].irreversible {
                return None;
            }
            i -= 2;
            if self.line[i].hash != current.hash {
                continue;
            }
            let in_search = i + 1 >= self.root_line_len;
            earlier_matches += 1;
            // Inside the search one repetition ends the line; before the root the game's
            // own count must be reached.
            if !in_search && earlier_matches < 2 {
                continue;
            }
            return Some(match self.rule {
                HistoryRule::PerpetualCheck => self.judge_cycle(i, ply),
                _ => DRAW,
            });
        }
    }

    /// S3 for the cycle from line position `from` to the current one: the side that gave
    /// check with every move of the cycle, while the other did not, loses.
    fn judge_cycle(&self, from: usize, ply: usize) -> i32 {
        let n = self.line.len();
        // Moves leading to positions n-1, n-3, … were the opponent's; n-2, n-4, … ours.
        let mut theirs_all_check = true;
        let mut ours_all_check = true;
        for j in from + 1..n {
            let check = self.line[j].check;
            if (n - 1 - j) % 2 == 0 {
                theirs_all_check &= check;
            } else {
                ours_all_check &= check;
            }
        }
        match (ours_all_check, theirs_all_check) {
            (false, true) => mate_in(ply),
            (true, false) => mated_in(ply),
            _ => DRAW,
        }
    }

    fn push_line(&mut self, entry: LineEntry) {
        self.line.push(entry);
    }

    fn pop_line(&mut self) {
        self.line.pop();
    }

    // ----- move ordering --------------------------------------------------------------

    #[inline]
    fn history_index(pos: &P, m: P::Move) -> usize {
        let count = <P::Square as GameSquare>::COUNT;
        (pos.turn().index() * count + m.from().index()) * count + m.to().index()
    }

    /// The continuation key of `m` played in `pos`: the moving piece's kind and destination.
    #[inline]
    fn cont_key(pos: &P, m: P::Move) -> usize {
        pos.piece_kind_at(m.from()) * <P::Square as GameSquare>::COUNT + m.to().index()
    }

    /// The continuation-history cells of a move with key `key` at `ply`: after the moves one
    /// and two plies earlier.
    #[inline]
    fn cont_cells(&self, ply: usize, key: usize) -> [Option<usize>; 2] {
        let width = P::PIECE_KINDS * <P::Square as GameSquare>::COUNT;
        let at = |back: usize| {
            (ply >= back)
                .then(|| self.stack[ply - back].cont)
                .flatten()
                .map(|prev| prev * width + key)
        };
        [at(1), at(2)]
    }

    /// The continuation histories of a quiet move, summed.
    #[inline]
    fn cont_score(&self, pos: &P, m: P::Move, ply: usize) -> i32 {
        self.cont_cells(ply, Self::cont_key(pos, m))
            .into_iter()
            .flatten()
            .map(|cell| self.tables.continuation[cell])
            .sum()
    }

    /// The ordering score of a quiet move: its history and continuation histories.
    #[inline]
    fn quiet_score(&self, pos: &P, m: P::Move, ply: usize) -> i32 {
        self.tables.history[Self::history_index(pos, m)] + self.cont_score(pos, m, ply)
    }

    #[inline]
    fn counter_index(m: P::Move) -> usize {
        m.from().index() * <P::Square as GameSquare>::COUNT + m.to().index()
    }

    fn score_moves(
        &self,
        pos: &P,
        moves: &[P::Move],
        tt_move: Option<P::Move>,
        ply: usize,
        out: &mut Vec<(P::Move, i32)>,
    ) {
        out.clear();
        let killers = self.stack[ply].killers;
        let counter = if ply > 0 {
            self.stack[ply - 1]
                .mv
                .map(|pm| self.tables.counter[Self::counter_index(pm)])
        } else {
            None
        };
        for &m in moves {
            let s = if Some(m) == tt_move {
                1 << 29
            } else {
                let victim = pos.piece_value(m.to());
                let gain = pos.promotion_gain(m);
                if victim > 0 || gain > 0 {
                    // Captures that hold up under exchange first, the most valuable victim
                    // first, then by how such captures fared; losing ones after the quiet
                    // moves.
                    let order = (victim + gain) * 16
                        + self.tables.capture[SearchTables::capture_index(pos, m)] / 8;
                    if gain > 0 || pos.see_ge(m, 0) {
                        GOOD_TACTICAL + order
                    } else {
                        BAD_CAPTURE + order
                    }
                } else if m == killers[0] {
                    REFUTATION + 2
                } else if m == killers[1] {
                    REFUTATION + 1
                } else if Some(m) == counter {
                    REFUTATION
                } else {
                    self.quiet_score(pos, m, ply)
                }
            };
            out.push((m, s));
        }
    }

    /// Moves the best-scored remaining move to `i` and returns it.
    #[inline]
    fn pick(list: &mut [(P::Move, i32)], i: usize) -> (P::Move, i32) {
        let mut best = i;
        for j in i + 1..list.len() {
            if list[j].1 > list[best].1 {
                best = j;
            }
        }
        list.swap(i, best);
        list[i]
    }

    /// The statistics after `best` caused a cutoff at `ply`: a bonus for it, a malus for the
    /// moves tried before it (quiet moves in the quiet tables, captures in the capture
    /// table), killers and countermove for a quiet best move.
    #[allow(clippy::too_many_arguments)]
    fn update_cutoff_stats(
        &mut self,
        pos: &P,
        best: P::Move,
        best_is_quiet: bool,
        quiets: &[P::Move],
        captures: &[P::Move],
        depth: i32,
        ply: usize,
    ) {
        let bonus = (depth * depth * 8).min(1200);
        if best_is_quiet {
            for (m, b) in std::iter::once((best, bonus))
                .chain(quiets.iter().filter(|&&m| m != best).map(|&m| (m, -bonus)))
            {
                let idx = Self::history_index(pos, m);
                SearchTables::<P>::age(&mut self.tables.history[idx], b);
                for cell in self
                    .cont_cells(ply, Self::cont_key(pos, m))
                    .into_iter()
                    .flatten()
                {
                    SearchTables::<P>::age(&mut self.tables.continuation[cell], b);
                }
            }
            let killers = &mut self.stack[ply].killers;
            if killers[0] != best {
                killers[1] = killers[0];
                killers[0] = best;
            }
            if ply > 0 {
                if let Some(pm) = self.stack[ply - 1].mv {
                    self.tables.counter[Self::counter_index(pm)] = best;
                }
            }
        } else {
            let idx = SearchTables::capture_index(pos, best);
            SearchTables::<P>::age(&mut self.tables.capture[idx], bonus);
        }
        for &m in captures.iter().filter(|&&m| m != best) {
            let idx = SearchTables::capture_index(pos, m);
            SearchTables::<P>::age(&mut self.tables.capture[idx], -bonus);
        }
    }

    // ----- the search -----------------------------------------------------------------

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let root = self.root.clone();
        let mut best = -INFINITE;
        self.stack[0].null = false;
        self.stack[0].mv = None;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.count_node();
            let Some((child, gives_check)) = self.enter(&root, m, 0) else {
                continue;
            };
            let new_depth = depth - 1 + i32::from(gives_check);
            let mut score;
            if i == pv_idx {
                score = -self.search(&child, new_depth, -beta, -alpha, 1, true, false);
            } else {
                let r = if depth >= 3 && !root.is_capture(m) && !gives_check && i > pv_idx + 3 {
                    (reduction(depth, i - pv_idx) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search(&child, new_depth - r, -alpha - 1, -alpha, 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(&child, new_depth, -alpha - 1, -alpha, 1, false, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, 1, true, false);
                }
            }
            self.leave();
            if self.stopped {
                return best;
            }
            if pv_idx == 0 && i > 0 && score > alpha {
                self.clock.best_changes += 1.0;
                self.clock.changed_at = depth;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The static evaluation of `pos` at `ply` (or the material balance alone, for the
    /// baseline engine).
    #[inline]
    fn evaluate(&self, pos: &P, ply: usize) -> i32 {
        if self.params.material_only {
            crate::see::material(pos)
        } else {
            let state = &self.eval_states[ply];
            debug_assert!(
                *state == pos.eval_state(self.net),
                "evaluation state out of date at ply {ply}"
            );
            pos.evaluate_with_state(self.net, state)
        }
    }

    /// The raw evaluation `raw` of `pos` adjusted by the correction history, then drawn
    /// toward a draw as the move limit nears (see [`damped_by_move_limit`]).
    #[inline]
    fn corrected(&self, pos: &P, raw: i32) -> i32 {
        if self.params.material_only {
            return raw;
        }
        let c = self
            .tables
            .correction(pos.turn().index(), pos.structure_key());
        let v = damped_by_move_limit(raw + c, pos.plies_toward_move_limit());
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn outcome_score(o: NodeOutcome, ply: usize) -> i32 {
        match o {
            NodeOutcome::Win => mate_in(ply),
            NodeOutcome::Loss => mated_in(ply),
            NodeOutcome::Draw => DRAW,
        }
    }

    /// Plays `m` from `pos` at `ply`, with the searched line and the stack brought up to
    /// date: the child position and whether its side to move is in check. `None` when the
    /// game's history forbids the move (Xiongqi X6); nothing changed then.
    #[inline]
    fn enter(&mut self, pos: &P, m: P::Move, ply: usize) -> Option<(P, bool)> {
        let mut child = pos.clone();
        let key = pos.move_key(m);
        let irreversible = pos.is_irreversible(m);
        child.play_unchecked(m);
        let hash = child.zobrist_hash();
        if self.rule == HistoryRule::ForbiddenRepeat && !irreversible && self.forbidden(key, hash) {
            return None;
        }
        let check = child.is_check();
        let (parent, rest) = self.eval_states.split_at_mut(ply + 1);
        pos.eval_state_after(self.net, &parent[ply], m, &mut rest[0]);
        self.push_line(LineEntry {
            hash,
            key,
            check,
            irreversible,
        });
        self.stack[ply].mv = Some(m);
        self.stack[ply].cont = Some(Self::cont_key(pos, m));
        Some((child, check))
    }

    /// Undoes [`Searcher::enter`] (the position itself is the caller's copy).
    #[inline]
    fn leave(&mut self) {
        self.pop_line();
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &P,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(o) = pos.node_outcome() {
            return Self::outcome_score(o, ply);
        }
        if pos.terminal_capturable() {
            return mate_in(ply + 1);
        }
        if let Some(s) = self.repetition_score(ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, true);
        }
        self.count_node();
        if self.stopped {
            return DRAW;
        }

        let key = pos.zobrist_hash();
        let entry = self.shared.tt.probe(key);
        // Only ordering uses the table's move: one that is not among the generated moves (a
        // hash collision) is never played.
        let tt_move = entry
            .filter(|e| e.mv != 0)
            .and_then(|e| P::Move::from_bits(e.mv));
        let tt_value = entry.map(|e| score::from_tt(e.score, ply));
        if let (Some(e), Some(v)) = (entry, tt_value) {
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
        }

        let in_check = pos.is_check();
        // The evaluation as computed (`raw_eval`, what the table keeps), corrected by what
        // searches of similar positions found (`static_eval`), and refined by the table's
        // score where its bound says the truth lies beyond (`eval`, for pruning).
        let (raw_eval, static_eval, eval) = if in_check {
            (0, -INFINITE, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw);
            (raw, corrected, refined_eval(corrected, entry, tt_value))
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Razoring: so far below alpha that only a capture could help.
            if depth <= 3 && eval + 250 + 200 * depth * depth < alpha {
                let v = self.qsearch(pos, alpha - 1, alpha, ply, true);
                if self.stopped {
                    return DRAW;
                }
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta with little depth left.
            if depth <= 6 && eval - 85 * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Null move.
            if depth >= 3 && eval >= beta && !self.stack[ply - 1].null && pos.null_move_ok() {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let child = pos.pass();
                let (parent, rest) = self.eval_states.split_at_mut(ply + 1);
                rest[0].clone_from(&parent[ply]);
                self.stack[ply].null = true;
                self.stack[ply].mv = None;
                self.stack[ply].cont = None;
                self.push_line(LineEntry {
                    hash: child.zobrist_hash(),
                    key: 0,
                    check: false,
                    irreversible: true,
                });
                let v = -self.search(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.pop_line();
                self.stack[ply].null = false;
                if self.stopped {
                    return DRAW;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
            // ProbCut: a capture that holds well above beta in a reduced search refutes the
            // previous move.
            let pc_beta = beta + 180 - 50 * i32::from(improving);
            if depth >= 5
                && !entry.is_some_and(|e| e.depth >= depth - 3 && tt_value < Some(pc_beta))
            {
                if let Some(v) = self.probcut(
                    pos,
                    key,
                    depth,
                    pc_beta,
                    static_eval,
                    raw_eval,
                    ply,
                    cut_node,
                ) {
                    return v;
                }
            }
        }
        // Without a move from the table, search a little shallower (internal reduction).
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        let mut moves = P::Moves::default();
        pos.legal_moves_into(&mut moves);
        let mut list = std::mem::take(&mut self.buffers[ply]);
        self.score_moves(pos, &moves, tt_move, ply, &mut list);
        drop(moves);
        self.stack[ply + 1].killers = [P::Move::default(); 2];
        let tt_capture = tt_move.is_some_and(|m| pos.is_capture(m));

        let mut best_score = -INFINITE;
        let mut best_move: Option<P::Move> = None;
        let mut searched = 0usize;
        let mut quiets = [P::Move::default(); 64];
        let mut quiet_count = 0;
        let mut captures = [P::Move::default(); 32];
        let mut capture_count = 0;

        for i in 0..list.len() {
            let (m, order) = Self::pick(&mut list, i);
            let tactical = pos.is_capture(m) || pos.promotion_gain(m) > 0;
            let is_killerish = !tactical && (REFUTATION..GOOD_TACTICAL).contains(&order);
            let (hist, cont) = if tactical {
                (0, 0)
            } else {
                (
                    self.tables.history[Self::history_index(pos, m)],
                    self.cont_score(pos, m, ply),
                )
            };
            // The move is played before the pruning decision, so that moves giving check
            // are known and spared.
            let Some((child, gives_check)) = self.enter(pos, m, ply) else {
                continue;
            };
            if !pv_node
                && !in_check
                && best_score > -MATE_BOUND
                && depth <= 8
                && self.prunable(
                    pos,
                    m,
                    Pruning {
                        depth,
                        order,
                        tactical,
                        is_killerish,
                        gives_check,
                        searched,
                        improving,
                        static_eval,
                        alpha,
                        cont,
                    },
                )
            {
                self.leave();
                continue;
            }
            let extension =
                i32::from(gives_check && ply < 2 * self.root_depth as usize && pos.see_ge(m, 0));
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node, false);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > usize::from(pv_node) && !tactical {
                    r = reduction(depth, searched);
                    r += i32::from(!pv_node) + i32::from(cut_node);
                    r -= i32::from(improving) + i32::from(is_killerish);
                    r -= i32::from(in_check || gives_check);
                    r += i32::from(tt_capture);
                    r -= (hist + cont) / 12_000;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.search(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true, false);
                }
            }
            self.leave();
            if self.stopped {
                self.buffers[ply] = list;
                return DRAW;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        let (q, c) = (&quiets[..quiet_count], &captures[..capture_count]);
                        self.update_cutoff_stats(pos, m, !tactical, q, c, depth, ply);
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical && quiet_count < quiets.len() {
                quiets[quiet_count] = m;
                quiet_count += 1;
            } else if tactical && capture_count < captures.len() {
                captures[capture_count] = m;
                capture_count += 1;
            }
        }
        self.buffers[ply] = list;

        if searched == 0 {
            // No legal move: a loss in the native games (checkmate, stalemate, X7 4).
            return Self::outcome_score(pos.no_move_outcome(), ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // What this search found beyond the evaluation, for positions like this one: not
        // after a capture (the evaluation is not meant to see it), nor where the bound
        // leaves the difference unknown.
        let tells_more = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > static_eval,
            Bound::Upper => best_score < static_eval,
        };
        let tactical_best =
            best_move.is_some_and(|m| pos.is_capture(m) || pos.promotion_gain(m) > 0);
        if tells_more
            && !in_check
            && !self.params.material_only
            && best_score.abs() < MATE_BOUND
            && !tactical_best
        {
            self.tables.update_correction(
                pos.turn().index(),
                pos.structure_key(),
                best_score - raw_eval,
                depth,
            );
        }
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move.map_or(0, |m| m.bits()),
                score: score::to_tt(best_score, ply),
                eval: raw_eval,
                depth,
                bound,
            },
        );
        best_score
    }

    /// Whether a move of a non-PV node not in check may be left unsearched: late quiet
    /// moves (move-count pruning), quiet moves that cannot lift the score to alpha
    /// (futility), that fared badly after the previous moves (continuation history), or
    /// that lose material by exchange. Checks are spared all but the move count and a
    /// large material loss.
    fn prunable(&self, pos: &P, m: P::Move, p: Pruning) -> bool {
        let lmr_depth = (p.depth - 1 - reduction(p.depth, p.searched + 1)).max(0);
        if p.tactical {
            // Captures that lose much by exchange, unless they give check: a sacrifice
            // that opens the palace is how many Xiangqi attacks begin.
            return p.depth <= 6 && !p.gives_check && p.order < 0 && !pos.see_ge(m, -100 * p.depth);
        }
        let lmp = 3 + (p.depth * p.depth) as usize * if p.improving { 2 } else { 1 };
        if p.depth <= 5 && p.searched >= lmp {
            return true;
        }
        if p.gives_check {
            return !pos.see_ge(m, -100 * p.depth);
        }
        if !p.is_killerish {
            if lmr_depth < 3 && p.cont < -2000 * p.depth {
                return true;
            }
            if lmr_depth <= 5 && p.static_eval + 90 + 110 * lmr_depth <= p.alpha {
                return true;
            }
        }
        !pos.see_ge(m, -25 * lmr_depth * lmr_depth)
    }

    /// ProbCut at a node of `depth` (see [`Searcher::search`]): the score of a capture that
    /// holds at or above `pc_beta`, first in quiescence, then in a search 4 plies shallower;
    /// `None` when none does.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &P,
        key: u64,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        raw_eval: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let mut moves = P::Moves::default();
        pos.captures_into(&mut moves);
        let mut list = std::mem::take(&mut self.buffers[ply]);
        self.score_moves(pos, &moves, None, ply, &mut list);
        drop(moves);
        let mut found = None;
        for i in 0..list.len() {
            let (m, order) = Self::pick(&mut list, i);
            if order < GOOD_TACTICAL || !pos.see_ge(m, pc_beta - static_eval) {
                continue;
            }
            let Some((child, _)) = self.enter(pos, m, ply) else {
                continue;
            };
            let mut v = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1, false);
            if v >= pc_beta {
                v = -self.search(
                    &child,
                    depth - 4,
                    -pc_beta,
                    -pc_beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                );
            }
            self.leave();
            if self.stopped {
                break;
            }
            if v >= pc_beta {
                self.shared.tt.store(
                    key,
                    Entry {
                        mv: m.bits(),
                        score: score::to_tt(v, ply),
                        eval: raw_eval,
                        depth: depth - 3,
                        bound: Bound::Lower,
                    },
                );
                found = Some(v);
                break;
            }
        }
        self.buffers[ply] = list;
        if self.stopped {
            return Some(DRAW);
        }
        found
    }

    /// Quiescence search: captures that hold up by exchange (every move when in check) and,
    /// with `checks` (the first ply below the main search), quiet moves that give check.
    fn qsearch(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return DRAW;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(o) = pos.node_outcome() {
            return Self::outcome_score(o, ply);
        }
        if pos.terminal_capturable() {
            return mate_in(ply + 1);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.is_check();
        let key = pos.zobrist_hash();
        let entry = self.shared.tt.probe(key);
        let tt_value = entry.map(|e| score::from_tt(e.score, ply));
        if let (Some(e), Some(v)) = (entry, tt_value) {
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            } {
                return v;
            }
        }
        let tt_move = entry
            .filter(|e| e.mv != 0)
            .and_then(|e| P::Move::from_bits(e.mv));
        // The depth of what this node stores: below every main-search depth.
        let tt_depth = if in_check || checks { 0 } else { -1 };
        let old_alpha = alpha;
        let mut best;
        let stand_pat;
        let raw_eval;
        if in_check {
            best = -INFINITE;
            stand_pat = -INFINITE;
            raw_eval = 0;
        } else {
            raw_eval = entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw_eval);
            stand_pat = refined_eval(corrected, entry, tt_value);
            if stand_pat >= beta {
                if entry.is_none() {
                    self.shared.tt.store(
                        key,
                        Entry {
                            mv: 0,
                            score: score::to_tt(stand_pat, ply),
                            eval: raw_eval,
                            depth: tt_depth,
                            bound: Bound::Lower,
                        },
                    );
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut moves = P::Moves::default();
        if in_check {
            pos.legal_moves_into(&mut moves);
        } else if checks {
            pos.legal_moves_into(&mut moves);
            let target = pos.opponent_terminal();
            moves.retain(|m| {
                pos.is_capture(m)
                    || pos.promotion_gain(m) > 0
                    || target.is_some_and(|t| may_check(m.from(), t) || may_check(m.to(), t)) && {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        child.is_check()
                    }
            });
        } else {
            pos.captures_into(&mut moves);
        }
        let mut list = std::mem::take(&mut self.buffers[ply]);
        self.score_moves(pos, &moves, tt_move, ply, &mut list);
        drop(moves);
        let mut searched = 0;
        let mut best_move = None;
        for i in 0..list.len() {
            let (m, order) = Self::pick(&mut list, i);
            if !in_check {
                let victim = pos.piece_value(m.to());
                let gain = pos.promotion_gain(m);
                if victim > 0 || gain > 0 {
                    // Captures that lose material by exchange.
                    if order < BAD_CAPTURE / 2 {
                        continue;
                    }
                    // Delta pruning: even the captured piece cannot lift us to alpha.
                    if stand_pat + victim + gain + 150 <= alpha
                        && victim < crate::game::TERMINAL_VALUE
                    {
                        continue;
                    }
                } else if !pos.see_ge(m, 0) {
                    // A quiet check that loses the checking piece.
                    continue;
                }
            }
            let Some((child, _)) = self.enter(pos, m, ply) else {
                continue;
            };
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, false);
            self.leave();
            if self.stopped {
                self.buffers[ply] = list;
                return DRAW;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = list;
        if in_check && searched == 0 {
            return Self::outcome_score(pos.no_move_outcome(), ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move.map_or(0, |m: P::Move| m.bits()),
                score: score::to_tt(best, ply),
                eval: raw_eval,
                depth: tt_depth,
                bound,
            },
        );
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe::{xiangqi, xiongqi, GamePosition};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn params() -> SearchParams {
        SearchParams {
            max_depth: 1,
            budget: TimeBudget {
                soft: None,
                hard: None,
            },
            start: Instant::now(),
            node_limit: None,
            mate_limit: None,
            multipv: 1,
            main_thread: true,
            material_only: false,
        }
    }

    /// A random game that often undoes its own last move, so that positions repeat.
    fn cycling_game<P: SearchGame + StartKind>(
        seed: u64,
        plies: usize,
        mut visit: impl FnMut(&Game<P>),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::<P>::start(P::config_for(P::start_kind()).unwrap());
        for _ in 0..plies {
            visit(&game);
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let n = game.moves().len();
            let back = (n >= 2 && rng.gen_bool(0.7))
                .then(|| game.moves()[n - 2])
                .and_then(|m| {
                    moves
                        .iter()
                        .copied()
                        .find(|r| r.from() == m.to() && r.to() == m.from())
                });
            let m = back.unwrap_or_else(|| moves[rng.gen_range(0..moves.len())]);
            game.play(m).unwrap();
        }
    }

    trait StartKind {
        fn start_kind() -> chuhe::GameKind;
    }
    impl StartKind for xiongqi::Position {
        fn start_kind() -> chuhe::GameKind {
            chuhe::GameKind::Xiongqi
        }
    }
    impl StartKind for xiangqi::Position {
        fn start_kind() -> chuhe::GameKind {
            chuhe::GameKind::Xiangqi
        }
    }

    #[test]
    fn x6_the_search_forbids_exactly_the_moves_the_arbiter_forbids() {
        let shared = Shared::new(1);
        let mut forbidden_seen = 0;
        for seed in 0..20 {
            cycling_game::<xiongqi::Position>(seed, 120, |game| {
                let mut tables = SearchTables::new();
                let searcher = Searcher::new(&shared, &mut tables, params(), game, &[], &());
                let pos = game.position();
                for &m in pos.legal_moves().iter() {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    let by_search = !pos.is_irreversible(m)
                        && searcher.forbidden(pos.move_key(m), child.zobrist_hash());
                    assert_eq!(
                        by_search,
                        game.is_repetitive(m),
                        "{m} after {:?}",
                        game.moves()
                    );
                    forbidden_seen += usize::from(by_search);
                }
            });
        }
        assert!(
            forbidden_seen > 50,
            "the games repeat too rarely: {forbidden_seen}"
        );
    }

    fn xiangqi_game(fen: &str, moves: &str) -> Game<xiangqi::Position> {
        let mut g = Game::<xiangqi::Position>::from_text(fen, xiangqi::RuleSet::Standard).unwrap();
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn s3_perpetual_check_is_judged_as_the_arbiter_judges_it() {
        let net = crate::eval::xiangqi_net::XiangqiNet::embedded();
        let shared = Shared::new(1);
        for (fen, cycle, expected) in [
            // Red checks with every move: Red, to move at the repetition, loses.
            (
                "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
                "a9a10 e10e9 a10a9 e9e10",
                mated_in(4),
            ),
            // Nobody checks: a draw.
            (
                "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1",
                "a6a5 e10e9 a5a6 e9e10",
                DRAW,
            ),
        ] {
            // The game's own verdict after the third occurrence.
            let full = xiangqi_game(fen, &format!("{cycle} {cycle}"));
            let verdict = full.outcome().unwrap();
            // In the search: one cycle before the root, the second one searched (a repetition
            // inside the search ends the line at once).
            let root = xiangqi_game(fen, cycle);
            let mut tables = SearchTables::new();
            let mut s = Searcher::new(&shared, &mut tables, params(), &root, &[], &net);
            assert_eq!(
                s.repetition_score(0),
                None,
                "one occurrence before the root is no end"
            );
            let positions = full.positions();
            for (i, pos) in positions.iter().enumerate().skip(5) {
                let before = &positions[i - 1];
                let m = full.moves()[i - 1];
                s.push_line(LineEntry {
                    hash: pos.zobrist_hash(),
                    key: before.move_key(m),
                    check: pos.is_check(),
                    irreversible: before.is_irreversible(m),
                });
            }
            assert_eq!(s.repetition_score(4), Some(expected), "{fen}");
            // The same sign as the arbiter: Red (to move) loses, or a draw.
            match verdict.winner {
                Some(chuhe::Side::Second) => assert!(expected < 0),
                None => assert_eq!(expected, DRAW),
                Some(chuhe::Side::First) => unreachable!(),
            }
            // With both cycles before the root, the game's third occurrence is judged too.
            let mut tables = SearchTables::new();
            let s = Searcher::new(&shared, &mut tables, params(), &full, &[], &net);
            assert_eq!(
                s.repetition_score(0),
                Some(if expected == DRAW { DRAW } else { mated_in(0) })
            );
        }
    }

    #[test]
    fn repetitions_are_never_judged_across_an_irreversible_move() {
        let net = crate::eval::xiangqi_net::XiangqiNet::embedded();
        let shared = Shared::new(1);
        let mut ends = 0;
        for seed in 0..10 {
            cycling_game::<xiangqi::Position>(seed, 100, |game| {
                let mut tables = SearchTables::new();
                let s = Searcher::new(&shared, &mut tables, params(), game, &[], &net);
                let verdict = s.repetition_score(0);
                ends += usize::from(verdict.is_some());
                // Before the root only the game's own third occurrence counts: the search
                // calls it an end exactly when the arbiter does.
                let ended_by_repetition = game
                    .outcome()
                    .is_some_and(|o| o.status == chuhe::Status::Repetition);
                assert_eq!(verdict.is_some(), ended_by_repetition, "{:?}", game.moves());
            });
        }
        assert!(ends >= 5, "too few games ended by repetition: {ends}");
    }

    #[test]
    fn the_clock_asks_for_more_time_when_the_score_falls_or_the_best_move_wavers() {
        let steady = ClockSignals {
            best_changes: 0.0,
            changed_at: 2,
            scores: vec![30, 32, 31, 30, 30, 31, 30, 30, 31, 30],
        };
        // A best move standing since depth 2, a steady score: less than the budget.
        assert!(steady.scale(12, 30, Some(30)) < 1.0);
        // The same, but the score fell 80 cp since the last search and since depth 9.
        let falling = steady.scale(12, -50, Some(30));
        assert!(falling >= 1.5, "{falling}");
        // A fall seen only within this search counts too, less.
        let within = steady.scale(12, -10, None);
        assert!(within > 1.0 && within < falling, "{within}");
        // A rising score never asks for less than a steady one much.
        assert!(steady.scale(12, 300, Some(30)) >= 0.75 * 0.8 - 1e-9);
        // The best move changed twice lately.
        let wavering = ClockSignals {
            best_changes: 2.0,
            changed_at: 12,
            ..steady.clone()
        };
        assert!(wavering.scale(12, 30, Some(30)) > 2.5);
        // Bounded, whatever the signals, and mates do not count as falls of millions.
        let worst = ClockSignals {
            best_changes: 10.0,
            changed_at: 12,
            scores: vec![MATE_BOUND; 10],
        };
        assert_eq!(worst.scale(12, -MATE_BOUND, Some(MATE_BOUND)), 3.0);
    }

    #[test]
    fn the_evaluation_is_drawn_toward_a_draw_as_the_move_limit_nears() {
        assert_eq!(damped_by_move_limit(400, None), 400);
        assert_eq!(damped_by_move_limit(400, Some(0)), 400);
        assert_eq!(damped_by_move_limit(400, Some(50)), 300);
        assert_eq!(damped_by_move_limit(-400, Some(50)), -300);
        assert_eq!(damped_by_move_limit(400, Some(100)), 200);
        assert_eq!(damped_by_move_limit(400, Some(u32::MAX)), 200);
        // Standard Xiangqi and Xiongqi have the limit; the capture-the-king rules do not.
        let fen = "3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 40 30";
        let standard = xiangqi::Position::from_text(fen, xiangqi::RuleSet::Standard).unwrap();
        assert_eq!(standard.plies_toward_move_limit(), Some(40));
        let capture = xiangqi::Position::from_text(fen, xiangqi::RuleSet::Capture).unwrap();
        assert_eq!(capture.plies_toward_move_limit(), None);
        assert_eq!(
            xiongqi::Position::start().plies_toward_move_limit(),
            Some(0)
        );
    }
}
