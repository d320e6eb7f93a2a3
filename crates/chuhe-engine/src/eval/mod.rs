//! Static evaluation, one module per game, written once for play and for tuning.
//!
//! Each game's evaluation is a linear function of its parameters: every term says "feature
//! `param` occurs `count` times" to an [`Accumulator`] (positive counts for the first player,
//! negative for the second), and the game phase, computed from the material on the board,
//! blends the middlegame and endgame halves of each [`Weight`] ([`taper`]).
//!
//! - For play, [`WeightSum`] adds up the weights as the terms arrive: after inlining, the
//!   evaluation is straight-line code over bitboards with no allocation.
//! - For tuning, [`FeatureVector`] records the sparse feature vector instead, so that the
//!   tuner ([`tune`]) sees exactly what the evaluation computes: there is one code path.
//!
//! The weights live in generated files (`xiangqi_weights.rs`, `xiongqi_weights.rs`), which
//! the tuner rewrites; the names and places of the parameters ([`Block`]) are declared in
//! each game's module.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

pub mod tune;
pub mod xiangqi;
pub mod xiangqi_net;
mod xiangqi_weights;
pub mod xiongqi;
mod xiongqi_weights;

/// A parameter's weight: `[middlegame, endgame]` in centipawns.
pub type Weight = [i32; 2];

/// Receives the terms of an evaluation: feature `param` occurs `count` times (counted
/// positive for the first player, negative for the second).
pub trait Accumulator {
    /// Adds `count` occurrences of parameter `param`.
    fn add(&mut self, param: usize, count: i32);
}

/// The accumulator of play: sums the weights of the features as they arrive.
#[derive(Clone, Copy, Debug)]
pub struct WeightSum<'a> {
    weights: &'a [Weight],
    /// The middlegame sum so far.
    pub mg: i32,
    /// The endgame sum so far.
    pub eg: i32,
}

impl<'a> WeightSum<'a> {
    /// An empty sum over `weights`.
    #[inline(always)]
    pub fn new(weights: &'a [Weight]) -> WeightSum<'a> {
        WeightSum {
            weights,
            mg: 0,
            eg: 0,
        }
    }
}

impl Accumulator for WeightSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        if let Some(w) = self.weights.get(param) {
            self.mg += w[0] * count;
            self.eg += w[1] * count;
        }
    }
}

/// A weight packed into one integer: the endgame half × 2³² + the middlegame half, so that
/// one multiply-add per feature accumulates both halves exactly (see [`PackedSum`]).
#[inline(always)]
pub const fn pack(w: Weight) -> i64 {
    ((w[1] as i64) << 32) + w[0] as i64
}

/// The accumulator of play over packed weights ([`pack`]): one multiply-add per feature.
/// Exact while each half of the sum stays within ±2³¹.
#[derive(Clone, Copy, Debug)]
pub struct PackedSum<'a> {
    weights: &'a [i64],
    total: i64,
}

impl<'a> PackedSum<'a> {
    /// An empty sum over packed `weights`.
    #[inline(always)]
    pub fn new(weights: &'a [i64]) -> PackedSum<'a> {
        PackedSum { weights, total: 0 }
    }

    /// The (middlegame, endgame) sums.
    #[inline(always)]
    pub fn halves(&self) -> (i32, i32) {
        let mg = self.total as i32;
        let eg = (self.total.wrapping_sub(i64::from(mg)) >> 32) as i32;
        (mg, eg)
    }
}

impl Accumulator for PackedSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        if let Some(&w) = self.weights.get(param) {
            self.total = self.total.wrapping_add(w.wrapping_mul(i64::from(count)));
        }
    }
}

/// Packs a table at compile time ([`pack`]).
pub const fn pack_table<const N: usize>(w: &[Weight; N]) -> [i64; N] {
    let mut out = [0i64; N];
    let mut i = 0;
    while i < N {
        out[i] = pack(w[i]);
        i += 1;
    }
    out
}

/// The accumulator of tuning: the sparse feature vector (parameter, total count), with the
/// counts of a parameter that occurs for both sides added together.
#[derive(Clone, Debug, Default)]
pub struct FeatureVector {
    dense: Vec<i32>,
    seen: Vec<bool>,
    touched: Vec<u32>,
}

impl FeatureVector {
    /// An empty vector over `params` parameters.
    pub fn new(params: usize) -> FeatureVector {
        FeatureVector {
            dense: vec![0; params],
            seen: vec![false; params],
            touched: Vec::new(),
        }
    }

    /// Forgets the recorded features (keeps the memory).
    pub fn clear(&mut self) {
        for &p in &self.touched {
            self.dense[p as usize] = 0;
            self.seen[p as usize] = false;
        }
        self.touched.clear();
    }

    /// The nonzero features as (parameter, count), in the order they first occurred.
    pub fn entries(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.touched
            .iter()
            .map(|&p| (p as usize, self.dense[p as usize]))
            .filter(|&(_, c)| c != 0)
    }

    /// The count of one parameter.
    pub fn count(&self, param: usize) -> i32 {
        self.dense.get(param).copied().unwrap_or(0)
    }

    /// The (middlegame, endgame) sums of the features under `weights`.
    pub fn dot(&self, weights: &[Weight]) -> (i64, i64) {
        let (mut mg, mut eg) = (0i64, 0i64);
        for (p, c) in self.entries() {
            if let Some(w) = weights.get(p) {
                mg += i64::from(w[0]) * i64::from(c);
                eg += i64::from(w[1]) * i64::from(c);
            }
        }
        (mg, eg)
    }
}

impl Accumulator for FeatureVector {
    #[inline]
    fn add(&mut self, param: usize, count: i32) {
        if count == 0 {
            return;
        }
        if let (Some(slot), Some(seen)) = (self.dense.get_mut(param), self.seen.get_mut(param)) {
            if !*seen {
                *seen = true;
                self.touched.push(param as u32);
            }
            *slot += count;
        }
    }
}

/// Blends a middlegame and an endgame score by `phase` (0 = bare endgame, `max` = all the
/// material of the start): `(mg·phase + eg·(max − phase)) / max`, rounded toward zero so that
/// the result is odd in (mg, eg) — swapping the sides negates it exactly.
#[inline(always)]
pub const fn taper(mg: i32, eg: i32, phase: i32, max: i32) -> i32 {
    (mg * phase + eg * (max - phase)) / max
}

/// A named run of parameters in a game's weight table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// The name, as the weights file and the tuner's report write it.
    pub name: &'static str,
    /// Index of the first parameter.
    pub start: usize,
    /// Number of parameters.
    pub len: usize,
    /// How many parameters the weights file writes on one line (a PST: one rank).
    pub row: usize,
}

impl Block {
    /// The index of the block's `i`-th parameter.
    #[inline(always)]
    pub const fn at(self, i: usize) -> usize {
        self.start + i
    }

    /// One past the block's last parameter.
    pub const fn end(self) -> usize {
        self.start + self.len
    }
}

/// Declares a game's parameter blocks back to back: `NAME[len / row]` defines
/// `pub const NAME: Block` at the next free index, then `BLOCKS` (all of them in order) and
/// `PARAMS` (their total).
macro_rules! layout {
    ($($(#[$m:meta])* $name:ident [$len:expr ; $row:expr]),* $(,)?) => {
        layout!(@at 0usize; $($(#[$m])* $name [$len ; $row],)*);
        /// Every block, in table order.
        pub const BLOCKS: &[Block] = &[$($name),*];
    };
    (@at $off:expr;) => {
        /// The number of parameters.
        pub const PARAMS: usize = $off;
    };
    (@at $off:expr; $(#[$m:meta])* $name:ident [$len:expr ; $row:expr], $($rest:tt)*) => {
        $(#[$m])*
        pub const $name: Block = Block {
            name: stringify!($name),
            start: $off,
            len: $len,
            row: $row,
        };
        layout!(@at $off + $len; $($rest)*);
    };
}
pub(crate) use layout;

/// A weight table that replaces a game's compiled weights at run time (for experiments: the
/// tuner's matches between two evaluations). Off, it costs one relaxed atomic load.
#[derive(Debug)]
pub struct WeightsOverride {
    on: AtomicBool,
    /// The table, packed ([`pack`]).
    table: RwLock<Vec<i64>>,
}

impl WeightsOverride {
    /// No override.
    pub const fn new() -> WeightsOverride {
        WeightsOverride {
            on: AtomicBool::new(false),
            table: RwLock::new(Vec::new()),
        }
    }

    /// Uses `weights` from now on (`None`: the compiled weights again). A table of the wrong
    /// length is ignored by the evaluation.
    pub fn set(&self, weights: Option<&[Weight]>) {
        match weights {
            Some(w) => {
                if let Ok(mut t) = self.table.write() {
                    t.clear();
                    t.extend(w.iter().map(|&p| pack(p)));
                    self.on.store(true, Ordering::SeqCst);
                }
            }
            None => self.on.store(false, Ordering::SeqCst),
        }
    }

    /// Runs `f` with the override table, packed ([`pack`]), if one is set and has `len`
    /// parameters.
    #[inline(always)]
    pub fn with<R>(&self, len: usize, f: impl FnOnce(&[i64]) -> R) -> Option<R> {
        if !self.on.load(Ordering::Relaxed) {
            return None;
        }
        self.with_slow(len, f)
    }

    #[cold]
    fn with_slow<R>(&self, len: usize, f: impl FnOnce(&[i64]) -> R) -> Option<R> {
        let t = self.table.read().ok()?;
        (t.len() == len).then(|| f(&t))
    }
}

impl Default for WeightsOverride {
    fn default() -> Self {
        WeightsOverride::new()
    }
}

/// What the tuner and the tests need of a game's evaluation, beyond the search's view.
pub trait Evaluation: crate::SearchGame {
    /// The parameter blocks, in table order.
    const BLOCKS: &'static [Block];
    /// The number of parameters.
    const PARAMS: usize;
    /// The phase of the full starting material.
    const PHASE_MAX: i32;
    /// The game's module under `eval` (`xiangqi`, `xiongqi`).
    const MODULE: &'static str;
    /// The weights file, relative to the crate's root (`src/eval/...`).
    const WEIGHTS_FILE: &'static str;
    /// The compiled weights.
    fn weights() -> &'static [Weight];
    /// The hand-set weights the tuning started from.
    fn initial_weights() -> Vec<Weight>;
    /// Sends the evaluation's terms to `acc` (first player's view); returns the phase.
    fn features<A: Accumulator>(&self, acc: &mut A) -> i32;
    /// The evaluation from the side to move's view under `weights`.
    fn evaluate_with(&self, weights: &[Weight]) -> i32;
    /// Replaces the compiled weights at run time (`None`: back to the compiled ones).
    fn set_weights_override(weights: Option<&[Weight]>);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_vector_sums_and_clears() {
        let mut fv = FeatureVector::new(8);
        fv.add(3, 2);
        fv.add(5, 1);
        fv.add(3, -2); // cancels
        fv.add(9, 1); // outside: ignored
        fv.add(5, 0);
        assert_eq!(fv.entries().collect::<Vec<_>>(), vec![(5, 1)]);
        assert_eq!(fv.count(3), 0);
        assert_eq!(fv.dot(&[[10, 20]; 8]), (10, 20));
        fv.clear();
        assert_eq!(fv.entries().count(), 0);
        fv.add(3, 4);
        assert_eq!(fv.entries().collect::<Vec<_>>(), vec![(3, 4)]);
    }

    #[test]
    fn taper_is_odd_and_blends() {
        assert_eq!(taper(100, 50, 32, 32), 100);
        assert_eq!(taper(100, 50, 0, 32), 50);
        assert_eq!(taper(100, 50, 16, 32), 75);
        for (mg, eg, ph) in [(7, -3, 5), (-101, 33, 17), (1, 0, 1)] {
            assert_eq!(taper(-mg, -eg, ph, 32), -taper(mg, eg, ph, 32));
        }
    }

    #[test]
    fn packed_and_plain_sums_agree() {
        let w: Vec<Weight> = (0..20).map(|i| [i * 37 - 300, 500 - i * 53]).collect();
        let packed: Vec<i64> = w.iter().map(|&p| pack(p)).collect();
        let mut a = WeightSum::new(&w);
        let mut b = PackedSum::new(&packed);
        for (i, c) in [(0, 1), (7, -3), (19, 2), (4, -1), (7, 5)] {
            a.add(i, c);
            b.add(i, c);
        }
        assert_eq!(b.halves(), (a.mg, a.eg));
    }
}
