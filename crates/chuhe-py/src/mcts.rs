//! Batched Monte Carlo tree search: many games searched in lockstep, the leaves of one round
//! (one per game) evaluated together by one call of a network outside (Python), the tree
//! work on the pool's threads.
//!
//! A round: every tree walks from its root to a leaf ([`Tree::select`]) and writes the
//! leaf's observation and mask into its row of the batch (a leaf where the game ends is
//! scored by the rules and backed up at once); the network maps the rows to policy logits
//! and values; every tree expands its leaf with the softmax of the logits of its legal
//! actions as priors and backs the value up its path ([`Tree::expand`]). Two algorithms:
//!
//! - PUCT (AlphaZero): a child scores `Q + c_puct · P · √N(parent) / (1 + N)`, `Q` from the
//!   parent's mover's view, 0 when unvisited; Dirichlet noise mixed into the root's priors
//!   when exploring; the move drawn ∝ `N^(1/temperature)` (or the most visited).
//! - Gumbel (Gumbel MuZero, Danihelka et al. 2022): at the root, sequential halving over the
//!   actions with the largest `g + logit` (Gumbel noise `g` when exploring), each simulation
//!   visiting the best of the actions with the visit count the halving schedule names, by
//!   `g + logit + σ(q̂)`; below the root the action maximising `π'(a) − N(a) / (1 + ΣN)` with
//!   `π' = softmax(logit + σ(q̂))`; `q̂` the completed Q values (the mixed value for the
//!   unvisited), scaled to [0, 1], `σ(q̂) = (c_visit + max N) · c_scale · q̂`. The policy
//!   target is `π'` at the root.
//!
//! Trees are kept between searches: a game that continues the last search's root by moves
//! the tree holds is searched from that subtree (copied to the front of a fresh arena).
//! A tree walks down its lines on one `Game` (the root's, with its history), with
//! `Game::replay_ongoing` on the way down and `Game::undo_ongoing` back up: only the leaf's
//! move generates moves.

use chuhe::{Game, GameKind, GameMove, GamePosition, GameVisitor, MoveBuffer, Outcome, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::core::DynGame;
use crate::env::{encode_move, write_observation, Layout, Spec};
use crate::pool::{for_each_chunk, Pool};

/// The search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// AlphaZero's PUCT with Dirichlet noise at the root.
    Puct,
    /// Gumbel MuZero's sequential halving at the root and deterministic selection below.
    Gumbel,
}

/// The settings of a search.
#[derive(Clone, Debug)]
pub struct Config {
    pub algorithm: Algorithm,
    /// Simulations per search (the root's evaluation not counted).
    pub simulations: u32,
    pub c_puct: f32,
    pub dirichlet_alpha: f64,
    pub dirichlet_fraction: f32,
    pub max_considered: usize,
    pub c_visit: f32,
    pub c_scale: f32,
    /// Earlier positions in the observation.
    pub history: usize,
}

/// What one search is asked for.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Noise at the root (Dirichlet for PUCT, Gumbel for Gumbel) and a drawn move (PUCT).
    pub explore: bool,
    /// PUCT's move is drawn ∝ `N^(1/temperature)` when exploring; 0 takes the most visited.
    pub temperature: f32,
}

/// A node: the move that leads to it and its statistics. Children are contiguous.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The first child's index; 0 while the node is not expanded (the root is node 0).
    first_child: u32,
    children: u16,
    /// The move from the parent (its 16-bit encoding) and its action in the parent's view.
    bits: u16,
    action: u16,
    /// The game is over here; `raw_value` is then its result.
    terminal: bool,
    visits: u32,
    /// The sum of the values backed up, from the view of the side that moved into the node.
    value_sum: f32,
    prior: f32,
    /// The prior's logarithm (Gumbel's scores add it).
    logit: f32,
    /// The network's value of the node (or the result where the game ended), from the view
    /// of the side to move here.
    raw_value: f32,
}

impl Node {
    fn q(&self) -> f32 {
        self.value_sum / self.visits as f32
    }
}

/// A result as a value for `side` (to move): +1 a win, −1 a loss, 0 a draw.
fn value_for(outcome: Outcome, side: Side) -> f32 {
    match outcome.winner {
        Some(w) if w == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The visit count that each simulation of a search of `n` simulations gives its root
/// action at most, with `m` actions considered: sequential halving's schedule (every
/// remaining action gets the same number of visits per phase, the number of actions halved
/// after each phase, about `n / log2(m)` simulations per phase).
fn halving_schedule(m: usize, n: u32) -> Vec<u32> {
    let n = n as usize;
    if m <= 1 {
        return (0..n as u32).collect();
    }
    let phases = (m as f64).log2().ceil().max(1.0) as usize;
    let mut schedule = Vec::with_capacity(n);
    let mut visits = 0u32;
    let mut considered = m;
    while schedule.len() < n {
        let per_action = (n / (phases * considered)).max(1);
        for _ in 0..per_action {
            schedule.extend(std::iter::repeat(visits).take(considered));
            visits += 1;
        }
        considered = (considered / 2).max(2);
    }
    schedule.truncate(n);
    schedule
}

/// A Gamma(`alpha`, 1) draw (Marsaglia and Tsang's method; `alpha < 1` through
/// `Gamma(alpha + 1) · U^(1/alpha)`).
fn gamma(rng: &mut SmallRng, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal draw (Box–Muller).
        let u1: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
        let u2: f64 = rng.gen();
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A standard Gumbel draw.
fn gumbel(rng: &mut SmallRng) -> f32 {
    let u: f64 = rng.gen::<f64>().clamp(1e-12, 1.0 - 1e-12);
    (-(-u.ln()).ln()) as f32
}

/// The tree of one game.
struct Tree<P: GamePosition> {
    /// The game at the root; walked down and back up by each simulation.
    game: Game<P>,
    nodes: Vec<Node>,
    /// A second arena, to copy a reused subtree into.
    spare: Vec<Node>,
    /// Per root child, this search: the priors the root's selection uses (noised), the
    /// Gumbel draws, the visits of this search (Gumbel's schedule counts these).
    root_prior: Vec<f32>,
    root_gumbel: Vec<f32>,
    root_visits: Vec<u32>,
    schedule: Vec<u32>,
    /// Simulations done in this search.
    done: u32,
    /// The walk of the current simulation: node indices from the root.
    path: Vec<u32>,
    legal: P::Moves,
    /// The leaf waiting for the network, and its legal moves (encoding, action).
    pending: Option<u32>,
    pending_moves: Vec<(u16, u16)>,
    /// Its row in this round's batch.
    row: usize,
    rng: SmallRng,
    /// Scratch for completed Q values.
    scratch: Vec<f32>,
}

impl<P: GamePosition> Tree<P> {
    fn new(game: Game<P>, seed: u64) -> Tree<P> {
        Tree {
            game,
            nodes: vec![Node::default()],
            spare: Vec::new(),
            root_prior: Vec::new(),
            root_gumbel: Vec::new(),
            root_visits: Vec::new(),
            schedule: Vec::new(),
            done: 0,
            path: Vec::new(),
            legal: P::Moves::default(),
            pending: None,
            pending_moves: Vec::new(),
            row: 0,
            rng: SmallRng::seed_from_u64(seed),
            scratch: Vec::new(),
        }
    }

    /// Starts a search of `game`: from the subtree of the moves played since the last root
    /// when the tree holds them (and `reuse`), else from a fresh root.
    fn start(&mut self, game: &Game<P>, reuse: bool) {
        self.pending = None;
        self.done = 0;
        let old = self.game.moves().len();
        let continues = reuse
            && game.moves().len() >= old
            && game.start_position() == self.game.start_position()
            && game.moves()[..old] == self.game.moves()[..];
        let mut at = 0u32;
        if continues {
            for &m in &game.moves()[old..] {
                let node = self.nodes[at as usize];
                let bits = m.bits();
                let found = (node.first_child..node.first_child + u32::from(node.children))
                    .find(|&c| self.nodes[c as usize].bits == bits);
                match found {
                    Some(c) if !self.nodes[c as usize].terminal => at = c,
                    _ => {
                        at = u32::MAX;
                        break;
                    }
                }
            }
        }
        self.game = game.clone();
        if !continues || at == u32::MAX {
            self.nodes.clear();
            self.nodes.push(Node::default());
        } else if at != 0 {
            self.reroot(at);
        }
    }

    /// Makes node `at` the root: its subtree is copied, breadth first, into the spare arena,
    /// which becomes the tree.
    fn reroot(&mut self, at: u32) {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.push(self.nodes[at as usize]);
        let mut next = 0usize;
        let mut from = vec![at];
        while next < out.len() {
            let old = self.nodes[from[next] as usize];
            if old.first_child != 0 {
                let first = out.len() as u32;
                for c in old.first_child..old.first_child + u32::from(old.children) {
                    out.push(self.nodes[c as usize]);
                    from.push(c);
                }
                out[next].first_child = first;
            }
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, out);
    }

    fn children(&self, node: u32) -> std::ops::Range<usize> {
        let n = self.nodes[node as usize];
        n.first_child as usize..n.first_child as usize + usize::from(n.children)
    }

    /// Sets up the root's statistics of this search: its priors (Dirichlet noise mixed in
    /// for PUCT when exploring), Gumbel draws, and the halving schedule.
    fn prepare_root(&mut self, cfg: &Config, opts: Options) {
        let kids = self.children(0);
        let n = kids.len();
        self.root_prior.clear();
        self.root_prior
            .extend(self.nodes[kids.clone()].iter().map(|c| c.prior));
        self.root_visits.clear();
        self.root_visits.resize(n, 0);
        self.root_gumbel.clear();
        self.root_gumbel.resize(n, 0.0);
        match cfg.algorithm {
            Algorithm::Puct => {
                if opts.explore && cfg.dirichlet_fraction > 0.0 && n > 1 {
                    let noise: Vec<f64> = (0..n)
                        .map(|_| gamma(&mut self.rng, cfg.dirichlet_alpha))
                        .collect();
                    let total: f64 = noise.iter().sum::<f64>().max(f64::MIN_POSITIVE);
                    let eps = cfg.dirichlet_fraction;
                    for (p, x) in self.root_prior.iter_mut().zip(noise) {
                        *p = (1.0 - eps) * *p + eps * (x / total) as f32;
                    }
                }
            }
            Algorithm::Gumbel => {
                if opts.explore {
                    for g in &mut self.root_gumbel {
                        *g = gumbel(&mut self.rng);
                    }
                }
                self.schedule = halving_schedule(cfg.max_considered.min(n), cfg.simulations);
            }
        }
    }

    /// The completed, scaled Q values of `node`'s children (from its mover's view) into
    /// `self.scratch`: `σ(q̂)` of the Gumbel paper.
    fn sigma_q(&mut self, cfg: &Config, node: u32) {
        let kids = self.children(node);
        let raw = self.nodes[node as usize].raw_value;
        let (mut visits, mut weighted, mut mass, mut most) = (0u32, 0f32, 0f32, 0u32);
        for c in &self.nodes[kids.clone()] {
            if c.visits > 0 {
                visits += c.visits;
                weighted += c.prior * c.q();
                mass += c.prior;
                most = most.max(c.visits);
            }
        }
        let mixed = if visits == 0 || mass <= 0.0 {
            raw
        } else {
            (raw + visits as f32 * weighted / mass) / (1.0 + visits as f32)
        };
        self.scratch.clear();
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for c in &self.nodes[kids] {
            let q = if c.visits > 0 { c.q() } else { mixed };
            lo = lo.min(q);
            hi = hi.max(q);
            self.scratch.push(q);
        }
        let scale = (cfg.c_visit + most as f32) * cfg.c_scale / (hi - lo).max(1e-8);
        for q in &mut self.scratch {
            *q = (*q - lo) * scale;
        }
    }

    fn pick_puct(&self, cfg: &Config, node: u32) -> u32 {
        let kids = self.children(node);
        let sqrt_n = (self.nodes[node as usize].visits.max(1) as f32).sqrt();
        let mut best = (f32::NEG_INFINITY, kids.start);
        for (i, c) in self.nodes[kids.clone()].iter().enumerate() {
            let prior = if node == 0 {
                self.root_prior[i]
            } else {
                c.prior
            };
            let q = if c.visits > 0 { c.q() } else { 0.0 };
            let score = q + cfg.c_puct * prior * sqrt_n / (1.0 + c.visits as f32);
            if score > best.0 {
                best = (score, kids.start + i);
            }
        }
        best.1 as u32
    }

    fn pick_gumbel_root(&mut self, cfg: &Config) -> u32 {
        self.sigma_q(cfg, 0);
        let kids = self.children(0);
        let index = (self.done as usize - 1).min(self.schedule.len().saturating_sub(1));
        let considered = self.schedule.get(index).copied().unwrap_or(0);
        let mut best = (f32::NEG_INFINITY, usize::MAX);
        let mut fallback = (f32::NEG_INFINITY, kids.start);
        for i in 0..kids.len() {
            let c = &self.nodes[kids.start + i];
            let score = self.root_gumbel[i] + c.logit + self.scratch[i];
            if self.root_visits[i] == considered && score > best.0 {
                best = (score, kids.start + i);
            }
            if score > fallback.0 {
                fallback = (score, kids.start + i);
            }
        }
        // With a reused root every count may be off the schedule: the best action then.
        if best.1 == usize::MAX {
            best = fallback;
        }
        best.1 as u32
    }

    fn pick_gumbel_interior(&mut self, cfg: &Config, node: u32) -> u32 {
        self.sigma_q(cfg, node);
        let kids = self.children(node);
        let nodes = &self.nodes[kids.clone()];
        let top = nodes
            .iter()
            .zip(&self.scratch)
            .map(|(c, s)| c.logit + s)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0f32;
        let mut visits = 0u32;
        for (c, s) in nodes.iter().zip(self.scratch.iter_mut()) {
            *s = (c.logit + *s - top).exp();
            total += *s;
            visits += c.visits;
        }
        let mut best = (f32::NEG_INFINITY, kids.start);
        for (i, (c, p)) in nodes.iter().zip(&self.scratch).enumerate() {
            let score = p / total - c.visits as f32 / (1.0 + visits as f32);
            if score > best.0 {
                best = (score, kids.start + i);
            }
        }
        best.1 as u32
    }

    /// Backs `value` (for the side to move at the end of the path) up the path.
    fn back_up(&mut self, value: f32) {
        let mut v = -value;
        for &n in self.path.iter().rev() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.value_sum += v;
            v = -v;
        }
        if let Some(&first) = self.path.get(1) {
            let i = first as usize - self.nodes[0].first_child as usize;
            if let Some(r) = self.root_visits.get_mut(i) {
                *r += 1;
            }
        }
    }

    /// Writes the observation and mask of the game's position (a leaf) and keeps its legal
    /// moves (in `self.legal`) for the expansion.
    fn write_leaf(&mut self, leaf: u32, cfg: &Config, obs: &mut [f32], mask: &mut [i8]) {
        let side = self.game.position().turn();
        let layout = Layout::of(self.game.position());
        write_observation(&self.game, side, cfg.history, obs);
        mask.fill(0);
        self.pending_moves.clear();
        for &m in self.legal.iter() {
            // Below 65,536: a larger action space is refused when the search is made.
            let a = encode_move::<P>(layout, m, side);
            mask[a] = 1;
            self.pending_moves.push((m.bits(), a as u16));
        }
        self.pending = Some(leaf);
    }

    /// One simulation's walk (or the root's evaluation): `true` when a leaf waits for the
    /// network (its observation and mask written), `false` when there was nothing to do or
    /// the walk ended where the game ends (backed up already).
    fn select(&mut self, cfg: &Config, obs: &mut [f32], mask: &mut [i8]) -> bool {
        self.pending = None;
        self.path.clear();
        self.path.push(0);
        if self.nodes[0].first_child == 0 {
            self.legal.clear();
            self.game.legal_moves_into(&mut self.legal);
            self.write_leaf(0, cfg, obs, mask);
            return true;
        }
        if self.done >= cfg.simulations {
            return false;
        }
        self.done += 1;
        let mut node = 0u32;
        let mut depth = 0usize;
        let waits = loop {
            let child = match (cfg.algorithm, node) {
                (Algorithm::Puct, _) => self.pick_puct(cfg, node),
                (Algorithm::Gumbel, 0) => self.pick_gumbel_root(cfg),
                (Algorithm::Gumbel, _) => self.pick_gumbel_interior(cfg, node),
            };
            self.path.push(child);
            let c = self.nodes[child as usize];
            if c.terminal {
                self.back_up(c.raw_value);
                break false;
            }
            let Some(m) = P::Move::from_bits(c.bits) else {
                // Every child was made from a move of the game: unreachable.
                self.path.pop();
                break false;
            };
            if c.first_child == 0 {
                self.game.play_legal(m, &mut self.legal);
                depth += 1;
                if let Some(outcome) = self.game.outcome() {
                    let v = value_for(outcome, self.game.position().turn());
                    let n = &mut self.nodes[child as usize];
                    n.terminal = true;
                    n.raw_value = v;
                    self.back_up(v);
                    break false;
                }
                self.write_leaf(child, cfg, obs, mask);
                break true;
            }
            self.game.replay_ongoing(m);
            depth += 1;
            node = child;
        };
        for _ in 0..depth {
            self.game.undo_ongoing();
        }
        waits
    }

    /// Expands the waiting leaf with the network's `logits` (one per action) and backs its
    /// `value` up. An error names a logit or value that is not a finite number.
    fn expand(
        &mut self,
        cfg: &Config,
        opts: Options,
        logits: &[f32],
        value: f32,
    ) -> Result<(), String> {
        let Some(leaf) = self.pending.take() else {
            return Ok(());
        };
        if !value.is_finite() {
            return Err(format!("the value is {value}"));
        }
        // Children in action order: ties go the same way whatever the move generator's order.
        self.pending_moves.sort_unstable_by_key(|&(_, a)| a);
        let mut top = f32::NEG_INFINITY;
        for &(_, a) in &self.pending_moves {
            let l = logits[usize::from(a)];
            if !l.is_finite() {
                return Err(format!("the logit of legal action {a} is {l}"));
            }
            top = top.max(l);
        }
        let first = self.nodes.len() as u32;
        let mut total = 0f32;
        for &(bits, a) in &self.pending_moves {
            let p = (logits[usize::from(a)] - top).exp();
            total += p;
            self.nodes.push(Node {
                bits,
                action: a,
                prior: p,
                logit: logits[usize::from(a)] - top,
                ..Node::default()
            });
        }
        let log_total = total.ln();
        for n in &mut self.nodes[first as usize..] {
            n.prior /= total;
            n.logit = (n.logit - log_total).max(-1e30);
        }
        let node = &mut self.nodes[leaf as usize];
        node.first_child = first;
        node.children = self.pending_moves.len() as u16;
        node.raw_value = value;
        self.back_up(value);
        if leaf == 0 {
            self.prepare_root(cfg, opts);
        }
        Ok(())
    }

    /// The search's results: visit counts and the policy target at the root's actions, the
    /// root's value for its side to move, and the action chosen.
    fn results(
        &mut self,
        cfg: &Config,
        opts: Options,
        visits: &mut [f32],
        policy: &mut [f32],
    ) -> (f32, i64) {
        visits.fill(0.0);
        policy.fill(0.0);
        let root = self.nodes[0];
        let value = if root.visits > 0 { -root.q() } else { 0.0 };
        let kids = self.children(0);
        if kids.is_empty() {
            return (value, -1);
        }
        let mut total = 0f32;
        for c in &self.nodes[kids.clone()] {
            visits[usize::from(c.action)] = c.visits as f32;
            total += c.visits as f32;
        }
        let action = match cfg.algorithm {
            Algorithm::Puct => {
                for c in &self.nodes[kids.clone()] {
                    policy[usize::from(c.action)] = c.visits as f32 / total.max(1.0);
                }
                let most = self.nodes[kids.clone()]
                    .iter()
                    .enumerate()
                    .max_by(|(_, a), (_, b)| {
                        (a.visits, a.prior)
                            .partial_cmp(&(b.visits, b.prior))
                            .unwrap_or(std::cmp::Ordering::Equal)
                    })
                    .map_or(0, |(i, _)| i);
                let pick = if opts.explore && opts.temperature > 0.0 && total > 0.0 {
                    let weights: Vec<f64> = self.nodes[kids.clone()]
                        .iter()
                        .map(|c| {
                            (f64::from(c.visits) / f64::from(total))
                                .powf(1.0 / f64::from(opts.temperature))
                        })
                        .collect();
                    let sum: f64 = weights.iter().sum();
                    let mut x = self.rng.gen::<f64>() * sum;
                    let mut chosen = most;
                    for (i, w) in weights.iter().enumerate() {
                        if x < *w {
                            chosen = i;
                            break;
                        }
                        x -= w;
                    }
                    chosen
                } else {
                    most
                };
                self.nodes[kids.start + pick].action
            }
            Algorithm::Gumbel => {
                self.sigma_q(cfg, 0);
                let mut top = f32::NEG_INFINITY;
                for (c, s) in self.nodes[kids.clone()].iter().zip(&self.scratch) {
                    top = top.max(c.logit + s);
                }
                let mut sum = 0f32;
                for (c, s) in self.nodes[kids.clone()].iter().zip(&self.scratch) {
                    let p = (c.logit + s - top).exp();
                    policy[usize::from(c.action)] = p;
                    sum += p;
                }
                for c in &self.nodes[kids.clone()] {
                    policy[usize::from(c.action)] /= sum;
                }
                let most = self.root_visits.iter().copied().max().unwrap_or(0);
                let mut best = (f32::NEG_INFINITY, 0usize);
                for i in 0..kids.len() {
                    let c = &self.nodes[kids.start + i];
                    let score =
                        self.root_gumbel.get(i).copied().unwrap_or(0.0) + c.logit + self.scratch[i];
                    let eligible = self.root_visits.get(i).map_or(true, |&v| v == most);
                    if eligible && score > best.0 {
                        best = (score, i);
                    }
                }
                self.nodes[kids.start + best.1].action
            }
        };
        (value, i64::from(action))
    }
}

/// The search of many games of one kind, object-safe for the Python class.
pub trait DynSearch: Send + Sync {
    /// The shape of an observation and the actions.
    fn spec(&self) -> Spec;
    /// Starts a search of `games` (copied in; none may be over): each game `i` in tree `i`,
    /// which is reused when the game continues its last root.
    fn begin(&mut self, games: &[&dyn DynGame], opts: Options, reuse: bool) -> Result<(), String>;
    /// One round's walks on the pool's threads: the waiting leaves' observations and masks
    /// go to the first rows of `obs` and `mask` (`len(games)` rows each); returns how many,
    /// and whether the search is complete.
    fn select(&mut self, pool: &mut Pool, obs: &mut [f32], mask: &mut [i8]) -> (usize, bool);
    /// Expands the waiting leaves with the network's outputs for those rows.
    fn expand(&mut self, pool: &mut Pool, logits: &[f32], values: &[f32]) -> Result<(), String>;
    /// Writes each game's visit counts and policy target (`len(games)` rows of actions),
    /// root value and chosen action.
    fn results(
        &mut self,
        visits: &mut [f32],
        policy: &mut [f32],
        values: &mut [f32],
        actions: &mut [i64],
    );
    /// The nodes of each tree and the root's visits (to see the reuse).
    fn sizes(&self) -> Vec<(usize, u32)>;
    /// Forgets every tree.
    fn clear(&mut self);
}

struct Search<P: GamePosition> {
    kind: GameKind,
    /// The observation's and actions' sizes.
    spec: Spec,
    cfg: Config,
    opts: Options,
    trees: Vec<Tree<P>>,
    /// The trees searched now (the first `active` of `trees`).
    active: usize,
    seed: u64,
    /// Trees made so far (each gets its own random source).
    made: u64,
}

/// A run of trees with their rows of the batch and whether each waits for the network.
struct Walks<'a, P: GamePosition> {
    trees: &'a mut [Tree<P>],
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    waits: &'a mut [bool],
}

/// The trees per chunk of work: a few chunks per thread, so that the threads even out.
fn trees_per_chunk(n: usize, threads: usize) -> usize {
    if threads <= 1 {
        n.max(1)
    } else {
        (n / (4 * threads)).clamp(1, 16)
    }
}

impl<P: GamePosition> DynSearch for Search<P> {
    fn spec(&self) -> Spec {
        self.spec
    }

    fn begin(&mut self, games: &[&dyn DynGame], opts: Options, reuse: bool) -> Result<(), String> {
        let mut typed = Vec::with_capacity(games.len());
        for (i, g) in games.iter().enumerate() {
            let game = g
                .as_any()
                .downcast_ref::<Game<P>>()
                .filter(|_| g.kind() == self.kind())
                .ok_or_else(|| format!("games[{i}] is a {} game, not {}", g.kind(), self.kind()))?;
            if let Some(o) = game.outcome() {
                return Err(format!(
                    "games[{i}] is over ({}): there is nothing to search",
                    o.in_words()
                ));
            }
            typed.push(game);
        }
        self.opts = opts;
        while self.trees.len() < typed.len() {
            let seed = self.seed ^ self.made.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.made += 1;
            self.trees
                .push(Tree::new(typed[self.trees.len()].clone(), seed));
        }
        for (tree, game) in self.trees.iter_mut().zip(&typed) {
            tree.start(game, reuse);
            if tree.nodes[0].first_child != 0 {
                tree.prepare_root(&self.cfg, opts);
            }
        }
        self.active = typed.len();
        Ok(())
    }

    fn select(&mut self, pool: &mut Pool, obs: &mut [f32], mask: &mut [i8]) -> (usize, bool) {
        let n = self.active;
        let spec = self.spec();
        let (ol, ml) = (spec.obs_len(), spec.actions);
        let cfg = &self.cfg;
        let threads = pool.threads();
        let per = trees_per_chunk(n, threads);
        let mut waits = vec![false; n];
        {
            let mut chunks: Vec<Walks<'_, P>> = self.trees[..n]
                .chunks_mut(per)
                .zip(obs[..n * ol].chunks_mut(per * ol))
                .zip(mask[..n * ml].chunks_mut(per * ml))
                .zip(waits.chunks_mut(per))
                .map(|(((trees, obs), mask), waits)| Walks {
                    trees,
                    obs,
                    mask,
                    waits,
                })
                .collect();
            let run = |c: &mut Walks<'_, P>| {
                for (((t, o), m), w) in c
                    .trees
                    .iter_mut()
                    .zip(c.obs.chunks_mut(ol))
                    .zip(c.mask.chunks_mut(ml))
                    .zip(c.waits.iter_mut())
                {
                    *w = t.select(cfg, o, m);
                }
            };
            if chunks.len() == 1 {
                run(&mut chunks[0]);
            } else {
                for_each_chunk(pool, &mut chunks, run);
            }
        }
        // The waiting rows moved to the front, in order.
        let mut rows = 0;
        for (i, &w) in waits.iter().enumerate() {
            if !w {
                continue;
            }
            if i != rows {
                obs.copy_within(i * ol..(i + 1) * ol, rows * ol);
                mask.copy_within(i * ml..(i + 1) * ml, rows * ml);
            }
            self.trees[i].row = rows;
            rows += 1;
        }
        let complete = rows == 0
            && self.trees[..n]
                .iter()
                .all(|t| t.nodes[0].first_child != 0 && t.done >= cfg.simulations);
        (rows, complete)
    }

    fn expand(&mut self, pool: &mut Pool, logits: &[f32], values: &[f32]) -> Result<(), String> {
        let n = self.active;
        let actions = self.spec().actions;
        let (cfg, opts) = (&self.cfg, self.opts);
        let per = trees_per_chunk(n, pool.threads());
        let mut errors: Vec<Option<String>> = vec![None; n];
        {
            let mut chunks: Vec<_> = self.trees[..n]
                .chunks_mut(per)
                .zip(errors.chunks_mut(per))
                .collect();
            let run = |trees: &mut [Tree<P>], errs: &mut [Option<String>]| {
                for (t, e) in trees.iter_mut().zip(errs.iter_mut()) {
                    if t.pending.is_none() {
                        continue;
                    }
                    let r = t.row;
                    let row = &logits[r * actions..(r + 1) * actions];
                    if let Err(msg) = t.expand(cfg, opts, row, values[r]) {
                        *e = Some(format!("the network's row {r}: {msg}"));
                    }
                }
            };
            if chunks.len() == 1 {
                let (t, e) = &mut chunks[0];
                run(t, e);
            } else {
                for_each_chunk(pool, &mut chunks, |(t, e)| run(t, e));
            }
        }
        match errors.into_iter().flatten().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn results(
        &mut self,
        visits: &mut [f32],
        policy: &mut [f32],
        values: &mut [f32],
        actions: &mut [i64],
    ) {
        let a = self.spec().actions;
        let (cfg, opts) = (&self.cfg, self.opts);
        for (i, t) in self.trees[..self.active].iter_mut().enumerate() {
            let (v, act) = t.results(
                cfg,
                opts,
                &mut visits[i * a..(i + 1) * a],
                &mut policy[i * a..(i + 1) * a],
            );
            values[i] = v;
            actions[i] = act;
        }
    }

    fn sizes(&self) -> Vec<(usize, u32)> {
        self.trees[..self.active]
            .iter()
            .map(|t| (t.nodes.len(), t.nodes[0].visits))
            .collect()
    }

    fn clear(&mut self) {
        self.trees.clear();
        self.active = 0;
    }
}

impl<P: GamePosition> Search<P> {
    fn kind(&self) -> GameKind {
        self.kind
    }
}

/// A search of games of `kind`; `seed` seeds the trees' random sources.
pub fn new_search(kind: GameKind, cfg: Config, seed: u64) -> Box<dyn DynSearch> {
    struct Make(GameKind, Config, u64);
    impl GameVisitor for Make {
        type Output = Box<dyn DynSearch>;
        fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
            Box::new(Search::<P> {
                kind: self.0,
                spec: Layout::of(&P::start(config)).spec(self.1.history),
                cfg: self.1,
                opts: Options {
                    explore: false,
                    temperature: 0.0,
                },
                trees: Vec::new(),
                active: 0,
                seed: self.2,
                made: 0,
            })
        }
    }
    kind.visit(Make(kind, cfg, seed))
}

// ---- the Python class ----------------------------------------------------------------------

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::game::{check_history, parse_kind};
use crate::pyenv::{buffer, items};

/// A readable, C-contiguous buffer of `len` items of `T` (read-only arrays too).
fn readable<T: pyo3::buffer::Element>(
    obj: &Bound<'_, PyAny>,
    len: usize,
    what: &str,
) -> PyResult<pyo3::buffer::PyBuffer<T>> {
    let b = pyo3::buffer::PyBuffer::<T>::get(obj).map_err(|e| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what}: not an array of the expected dtype ({e})"
        ))
    })?;
    if !b.is_c_contiguous() || b.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a C-contiguous array of {len} items, not {}",
            b.item_count()
        )));
    }
    Ok(b)
}

/// The native part of `chuhe.mcts.MCTS`: the trees and the rounds; the Python class calls
/// the network between `select` and `expand`.
#[pyclass(module = "chuhe._chuhe")]
pub struct MctsCore {
    search: Box<dyn DynSearch>,
    pool: Pool,
    /// Games of the search begun.
    games: usize,
    /// The leaves the last `select` wrote, until `expand` takes them.
    waiting: Option<usize>,
}

fn positive(name: &str, v: f64) -> PyResult<()> {
    if !(v.is_finite() && v > 0.0) {
        return Err(PyValueError::new_err(format!(
            "{name} must be a positive number, not {v}"
        )));
    }
    Ok(())
}

#[pymethods]
impl MctsCore {
    #[new]
    #[pyo3(signature = (game, algorithm = "puct", simulations = 100, c_puct = 1.25,
                        dirichlet_alpha = 0.3, dirichlet_fraction = 0.25, max_considered = 16,
                        c_visit = 50.0, c_scale = 0.1, history = 0, threads = 1, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        algorithm: &str,
        simulations: u32,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        max_considered: usize,
        c_visit: f64,
        c_scale: f64,
        history: usize,
        threads: usize,
        seed: u64,
    ) -> PyResult<MctsCore> {
        let kind = parse_kind(game)?;
        let actions = crate::env::spec_of(kind).actions;
        if actions > usize::from(u16::MAX) + 1 {
            return Err(PyValueError::new_err(format!(
                "the {kind} game has {actions} actions: chuhe.mcts searches games of at most \
                 65,536"
            )));
        }
        let algorithm = match algorithm {
            "puct" => Algorithm::Puct,
            "gumbel" => Algorithm::Gumbel,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown algorithm '{}' (puct, gumbel)",
                    chuhe::quote_input(other)
                )))
            }
        };
        if simulations == 0 {
            return Err(PyValueError::new_err("simulations must be at least 1"));
        }
        positive("c_puct", c_puct)?;
        positive("dirichlet_alpha", dirichlet_alpha)?;
        if !(0.0..=1.0).contains(&dirichlet_fraction) {
            return Err(PyValueError::new_err(format!(
                "dirichlet_fraction must be 0 to 1, not {dirichlet_fraction}"
            )));
        }
        if max_considered == 0 {
            return Err(PyValueError::new_err("max_considered must be at least 1"));
        }
        if !(c_visit.is_finite() && c_visit >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "c_visit must be a number of at least 0, not {c_visit}"
            )));
        }
        positive("c_scale", c_scale)?;
        check_history(history)?;
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let cfg = Config {
            algorithm,
            simulations,
            c_puct: c_puct as f32,
            dirichlet_alpha,
            dirichlet_fraction: dirichlet_fraction as f32,
            max_considered,
            c_visit: c_visit as f32,
            c_scale: c_scale as f32,
            history,
        };
        Ok(MctsCore {
            search: new_search(kind, cfg, seed),
            pool: Pool::new(threads - 1),
            games: 0,
            waiting: None,
        })
    }

    /// `(files, ranks, planes, choices, actions)`.
    fn spec(&self) -> (usize, usize, usize, usize, usize) {
        let s = self.search.spec();
        (s.files, s.ranks, s.planes, s.choices, s.actions)
    }

    /// Starts a search of `games` (none over, all of this game).
    #[pyo3(signature = (games, explore = true, temperature = 1.0, reuse = true))]
    fn begin(
        &mut self,
        games: Vec<PyRef<'_, crate::game::Game>>,
        explore: bool,
        temperature: f64,
        reuse: bool,
    ) -> PyResult<()> {
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "temperature must be a number of at least 0, not {temperature}"
            )));
        }
        let inner: Vec<&dyn DynGame> = games.iter().map(|g| g.inner.as_ref()).collect();
        let opts = Options {
            explore,
            temperature: temperature as f32,
        };
        self.games = 0;
        self.waiting = None;
        self.search
            .begin(&inner, opts, reuse)
            .map_err(PyValueError::new_err)?;
        self.games = games.len();
        Ok(())
    }

    /// One round of walks (GIL released): the leaves' observations and masks go to the first
    /// rows of `obs` (`float32[games, …]`) and `mask`; returns `(rows, complete)`.
    fn select(
        &mut self,
        py: Python<'_>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<(usize, bool)> {
        let s = self.search.spec();
        let n = self.games;
        let ob = buffer::<f32>(obs, n * s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, n * s.actions, "mask")?;
        // SAFETY: the buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        if let Some(rows) = self.waiting {
            return Err(PyValueError::new_err(format!(
                "the {rows} leaves of the last select wait for expand"
            )));
        }
        let (search, pool) = (&mut self.search, &mut self.pool);
        let (rows, complete) = py.allow_threads(|| search.select(pool, o, m));
        if rows > 0 {
            self.waiting = Some(rows);
        }
        Ok((rows, complete))
    }

    /// Expands the round's leaves with the network's `logits` (`float32[rows, actions]`)
    /// and `values` (`float32[rows]`), GIL released.
    fn expand(
        &mut self,
        py: Python<'_>,
        logits: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        rows: usize,
    ) -> PyResult<()> {
        let s = self.search.spec();
        if self.waiting != Some(rows) {
            return Err(PyValueError::new_err(match self.waiting {
                Some(w) => format!("rows={rows}: the last select wrote {w} leaves"),
                None => "no leaves wait: call select first".to_string(),
            }));
        }
        let lb = readable::<f32>(logits, rows * s.actions, "logits")?;
        let vb = readable::<f32>(values, rows, "values")?;
        // SAFETY: the buffers are held for the call and only read.
        let (l, v): (&[f32], &[f32]) = unsafe { (items(&lb), items(&vb)) };
        let (search, pool) = (&mut self.search, &mut self.pool);
        self.waiting = None;
        py.allow_threads(|| search.expand(pool, l, v))
            .map_err(PyValueError::new_err)
    }

    /// Writes the results of the search: `visits` and `policy` (`float32[games, actions]`),
    /// `values` (`float32[games]`), `actions` (`int64[games]`).
    fn results(
        &mut self,
        visits: &Bound<'_, PyAny>,
        policy: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = self.search.spec();
        let n = self.games;
        let vb = buffer::<f32>(visits, n * s.actions, "visits")?;
        let pb = buffer::<f32>(policy, n * s.actions, "policy")?;
        let valb = buffer::<f32>(values, n, "values")?;
        let ab = buffer::<i64>(actions, n, "actions")?;
        // SAFETY: the buffers are held for the call and are distinct arrays.
        unsafe {
            self.search
                .results(items(&vb), items(&pb), items(&valb), items(&ab));
        }
        Ok(())
    }

    /// `(nodes, root visits)` of each tree of the search begun.
    fn tree_sizes(&self) -> Vec<(usize, u32)> {
        self.search.sizes()
    }

    /// Forgets every tree.
    fn clear(&mut self) {
        self.search.clear();
        self.games = 0;
        self.waiting = None;
    }
}
