//! Texel tuning of the evaluations: self-play data, the logistic fit, the weights file, and
//! matches between two weight tables.
//!
//! 1. [`generate`] plays games with the engine ([`crate::Engine`]) at a fixed node budget
//!    per move, after a few random plies, and writes every searched position (FEEN) with the
//!    game's result.
//! 2. [`Dataset::load`] keeps the positions whose side to move is not in check, replaces
//!    each by the leaf of a capture search (so that every sample is quiet), and records its
//!    sparse feature vector through the evaluation itself ([`super::Evaluation::features`]).
//! 3. [`fit_k`] scales the evaluation to the results: result ≈ σ(K · eval / 400).
//!    Where the data also holds a reference engine's score of each position
//!    (`examples/label.rs` in chuhe-match), [`Dataset::blend_reference`] makes the target a
//!    mix of the result and that score, turned into an expected result the same way.
//! 4. [`optimise`] minimises the mean squared error between the results and σ(K · eval /
//!    400) over the weights with Adam, on full batches.
//! 5. [`weights_source`] writes the table back as Rust (`src/eval/<game>_weights.rs`).
//!
//! [`play_match`] pits the compiled weights against another table (the hand-set ones) with
//! the same search, colours swapped on each opening.
//!
//! `examples/tune.rs` is the command-line driver; `docs/TUNING.md` says how to run it.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Instant;

use chuhe::{GameKind, Side};

use super::{Block, Evaluation, FeatureVector, Weight};
use crate::{Engine, Limits, Networks, Score, SearchGame};

/// A small deterministic random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

/// How games are played, for data and for matches.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// Nodes per move (each move draws a budget within ±25 % of it).
    pub nodes: u64,
    /// Random plies at the start of each game: at least `random_plies.0`, at most
    /// `random_plies.1`.
    pub random_plies: (u32, u32),
    /// A game is given to a side once the search has scored it at least this much (its own
    /// view) for `adjudicate_plies` plies in a row, both sides agreeing.
    pub adjudicate_cp: i32,
    /// See `adjudicate_cp`.
    pub adjudicate_plies: u32,
    /// A game still running after this many plies is a draw.
    pub max_plies: u32,
    /// Transposition table size per engine (MB).
    pub hash_mb: usize,
}

impl Default for PlaySettings {
    fn default() -> Self {
        PlaySettings {
            nodes: 3000,
            random_plies: (2, 8),
            adjudicate_cp: 1500,
            adjudicate_plies: 8,
            max_plies: 400,
            hash_mb: 8,
        }
    }
}

/// The result of one game, for the first player: 1, ½ or 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult(pub f64);

/// A search score as centipawns for the first player (forced ends far out).
fn first_player_cp(score: Score, turn_first: bool) -> i32 {
    let own = match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000,
        Score::Mate(_) => -30_000,
    };
    if turn_first {
        own
    } else {
        -own
    }
}

/// A random opening of `plies` legal moves (fewer if the game ends first).
fn random_opening(engine: &mut Engine, plies: u32, rng: &mut Rng) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if engine.set_position("start", &refs).is_err() || engine.outcome().is_some() {
            break;
        }
        let legal = engine.legal_moves();
        if legal.is_empty() {
            break;
        }
        let pick = legal[rng.below(legal.len() as u64) as usize].clone();
        moves.push(pick);
    }
    // Do not start from a finished game.
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    if engine.set_position("start", &refs).is_err() || engine.outcome().is_some() {
        moves.clear();
    }
    moves
}

/// Plays one game from `opening`; `engines[0]` plays the first player and `engines[1]` the
/// second (they may be one engine: pass the same index twice through `select`). Before each
/// search `before_search(side)` runs (the matches set the weights there). `on_position` gets
/// every searched position.
fn play_game(
    engines: &mut [Engine],
    select: [usize; 2],
    opening: &[String],
    settings: &PlaySettings,
    rng: &mut Rng,
    mut before_search: impl FnMut(Side),
    mut on_position: impl FnMut(SearchedPosition),
) -> GameResult {
    let mut moves: Vec<String> = opening.to_vec();
    let mut streak: (i32, u32) = (0, 0);
    loop {
        let turn = if moves.len() % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let engine = &mut engines[select[turn.index()]];
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if engine.set_position("start", &refs).is_err() {
            return GameResult(0.5);
        }
        if let Some(o) = engine.outcome() {
            return GameResult(match o.winner {
                Some(Side::First) => 1.0,
                Some(Side::Second) => 0.0,
                None => 0.5,
            });
        }
        if moves.len() as u32 >= settings.max_plies {
            return GameResult(0.5);
        }
        let jitter = settings.nodes / 4;
        let nodes = settings.nodes - jitter + rng.below(2 * jitter + 1);
        before_search(turn);
        let best = match engine.search(Limits::nodes(nodes.max(1))) {
            Ok(b) => b,
            Err(_) => return GameResult(0.5),
        };
        let Some(mv) = best.best else {
            return GameResult(0.5);
        };
        let cp = first_player_cp(best.score, turn == Side::First);
        on_position(SearchedPosition {
            ply: moves.len() as u32,
            feen: engine.position_feen(),
            turn,
            score: best.score,
        });
        // Adjudication: a big score for one side, both sides agreeing, several plies on.
        let sign = if cp >= settings.adjudicate_cp {
            1
        } else if cp <= -settings.adjudicate_cp {
            -1
        } else {
            0
        };
        streak = if sign != 0 && sign == streak.0 {
            (sign, streak.1 + 1)
        } else {
            (sign, u32::from(sign != 0))
        };
        if streak.0 != 0 && streak.1 >= settings.adjudicate_plies {
            return GameResult(if streak.0 > 0 { 1.0 } else { 0.0 });
        }
        moves.push(mv);
    }
}

/// A position a self-play game searched, with the search's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchedPosition {
    /// Plies played from the start position (the random opening included).
    pub ply: u32,
    /// The position (FEEN).
    pub feen: String,
    /// The side to move.
    pub turn: Side,
    /// The search's score, from the side to move's view.
    pub score: Score,
}

/// What [`generate`] produced.
#[derive(Clone, Debug, Default)]
pub struct GenerateStats {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Wins of the first player, draws, wins of the second.
    pub results: [u64; 3],
    /// Seconds spent.
    pub seconds: f64,
}

/// Plays `games` self-play games of `kind` and writes one line per searched position:
/// `game<TAB>result<TAB>FEEN`, the game numbered from `first_game`, the result for the first
/// player (`1`, `0.5`, `0`); positions scored as a forced end are left out. With `scores`,
/// a fourth column holds the self-play search's own score of the position, in centipawns
/// from the first player's view: the reference-score column that `label` writes, so the
/// games come scored without a second pass. `progress` is called after each game.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    kind: GameKind,
    first_game: u64,
    games: u64,
    settings: &PlaySettings,
    seed: u64,
    scores: bool,
    out: &mut impl Write,
    mut progress: impl FnMut(&GenerateStats),
) -> io::Result<GenerateStats> {
    let mut written = 0;
    let played = self_play(
        kind,
        games,
        settings,
        seed,
        |g, positions, result, stats| {
            for p in positions {
                let cp = first_player_cp(p.score, p.turn == Side::First);
                if cp.abs() < 20_000 {
                    write!(out, "{}\t{}\t{}", first_game + g, result.0, p.feen)?;
                    if scores {
                        write!(out, "\t{cp}")?;
                    }
                    writeln!(out)?;
                    written += 1;
                }
            }
            progress(&GenerateStats {
                positions: written,
                ..stats.clone()
            });
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(GenerateStats {
        positions: written,
        ..played
    })
}

/// Plays `games` self-play games of `kind` (one engine, [`PlaySettings`], random openings
/// drawn from `seed`) and hands each finished game to `on_game`: its index from 0, every
/// position searched, its result for the first player, and the statistics so far
/// (`positions` counts every searched position; [`generate`]'s counts those it wrote). An error from `on_game` stops the games.
pub fn self_play(
    kind: GameKind,
    games: u64,
    settings: &PlaySettings,
    seed: u64,
    mut on_game: impl FnMut(u64, &[SearchedPosition], GameResult, &GenerateStats) -> io::Result<()>,
) -> io::Result<GenerateStats> {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut engines = [Engine::new(kind)];
    // A small table clears fast between games.
    let _ = engines[0].set_hash(settings.hash_mb);
    let mut stats = GenerateStats::default();
    let mut positions: Vec<SearchedPosition> = Vec::new();
    for g in 0..games {
        let _ = engines[0].new_game();
        let (lo, hi) = settings.random_plies;
        let plies = lo + rng.below(u64::from(hi.saturating_sub(lo)) + 1) as u32;
        let opening = random_opening(&mut engines[0], plies, &mut rng);
        positions.clear();
        let result = play_game(
            &mut engines,
            [0, 0],
            &opening,
            settings,
            &mut rng,
            |_| {},
            |p| positions.push(p),
        );
        stats.games += 1;
        stats.positions += positions.len() as u64;
        stats.results[match result.0 {
            r if r > 0.75 => 0,
            r if r < 0.25 => 2,
            _ => 1,
        }] += 1;
        stats.seconds = start.elapsed().as_secs_f64();
        on_game(g, &positions, result, &stats)?;
    }
    Ok(stats)
}

/// The number after the highest game number of a data file (0 for none): where appended
/// games start.
pub fn next_game_number(input: impl BufRead) -> io::Result<u64> {
    let mut next = 0;
    for line in input.lines() {
        if let Some(Ok(g)) = line?.split('\t').next().map(str::parse::<u64>) {
            next = next.max(g + 1);
        }
    }
    Ok(next)
}

/// One position of the data set: its features, phase and result.
#[derive(Clone, Copy, Debug)]
struct Sample {
    start: u32,
    len: u32,
    phase: i32,
    /// What the evaluation is fitted to: the game's result, or a blend with `reference`.
    result: f64,
    /// A reference engine's score in centipawns (first player's view), when the data has one.
    reference: Option<f64>,
    validation: bool,
}

/// Labelled positions as sparse feature vectors, ready to tune.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    params: usize,
    phase_max: i32,
    features: Vec<(u32, i32)>,
    samples: Vec<Sample>,
    /// Lines read.
    pub lines: u64,
    /// Positions left out: unreadable, side to move in check, a capture search leading to a
    /// check or a decided game.
    pub skipped: u64,
    /// Positions replaced by the quiet leaf of their capture search.
    pub resolved: u64,
}

/// The leaf of a capture search (fail-hard alpha-beta over the legal captures, stand pat on
/// the evaluation under `net`): the position whose evaluation the search's score comes from.
/// Which leaf that is depends on the evaluation, the network's term included.
fn quiet_leaf<P: SearchGame>(
    pos: &P,
    net: &P::Network,
    alpha: i32,
    beta: i32,
    depth: u32,
    leaf: &mut P,
) -> i32 {
    if pos.terminal_capturable() {
        return 30_000;
    }
    if let Some(o) = pos.node_outcome() {
        return match o {
            crate::NodeOutcome::Win => 30_000,
            crate::NodeOutcome::Loss => -30_000,
            crate::NodeOutcome::Draw => 0,
        };
    }
    let stand = pos.evaluate_with_state(net, &pos.eval_state(net));
    *leaf = pos.clone();
    if stand >= beta || depth == 0 {
        return stand;
    }
    let mut alpha = alpha.max(stand);
    let mut moves = P::Moves::default();
    pos.captures_into(&mut moves);
    // Most valuable victim first.
    let mut order: Vec<(i32, P::Move)> = moves
        .iter()
        .map(|&m| {
            use chuhe::GameMove;
            (
                pos.piece_value(m.to()) * 16 - pos.piece_value(m.from()) / 64,
                m,
            )
        })
        .collect();
    order.sort_by_key(|&(k, _)| -k);
    for (_, m) in order {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let mut child_leaf = child.clone();
        let v = -quiet_leaf(&child, net, -beta, -alpha, depth - 1, &mut child_leaf);
        if v > alpha {
            alpha = v;
            *leaf = child_leaf;
            if v >= beta {
                break;
            }
        }
    }
    alpha
}

/// One line of a data file made ready for fitting: the quiet leaf of the position's capture
/// search, with the line's labels.
#[derive(Clone, Debug)]
pub struct QuietSample<P> {
    /// The game's number (the validation split goes by it).
    pub game: u64,
    /// The game's result for the first player (1, ½ or 0).
    pub result: f64,
    /// A reference engine's score in centipawns (first player's view), when the line has one.
    pub reference: Option<f64>,
    /// The quiet position whose evaluation stands for the line's position.
    pub leaf: P,
    /// Whether a capture search changed the position (`leaf` is not the line's position).
    pub resolved: bool,
}

impl<P: SearchGame> QuietSample<P> {
    /// Reads one line of [`generate`] (`game`, `result`, position, optional reference score,
    /// tab-separated) for the rule set `config`. `None` for a line that cannot be used:
    /// unreadable, the side to move in check, or a capture search that ends in check or
    /// decides the game.
    pub fn parse(line: &str, config: P::Config) -> Option<QuietSample<P>> {
        QuietSample::parse_under(line, config, P::network(&Networks::default()))
    }

    /// [`QuietSample::parse`] with the capture search evaluating under `net` instead of the
    /// embedded network: the quiet positions a network was trained on were picked by the
    /// evaluation of its time (`tune --dump-net --eval-file`).
    pub fn parse_under(line: &str, config: P::Config, net: &P::Network) -> Option<QuietSample<P>> {
        let mut fields = line.splitn(4, '\t');
        let game = fields.next()?.parse::<u64>().ok()?;
        let result = fields.next()?.parse::<f64>().ok()?;
        let feen = fields.next()?;
        let reference = match fields.next() {
            None => None,
            Some(score) => Some(score.parse::<f64>().ok()?),
        };
        let pos = P::from_text(feen, config).ok()?;
        if pos.is_check() {
            return None;
        }
        let mut leaf = pos.clone();
        let v = quiet_leaf(&pos, net, -30_000, 30_000, 12, &mut leaf);
        if v.abs() >= 20_000 || leaf.is_check() {
            return None;
        }
        let resolved = !leaf.same_identity(&pos);
        Some(QuietSample {
            game,
            result,
            reference,
            leaf,
            resolved,
        })
    }
}

impl Dataset {
    /// Reads the lines of [`generate`] for the game of `P` (rule set `config`), keeping every
    /// `validation_every`-th game apart for validation (0: none).
    pub fn load<P: Evaluation>(
        input: impl BufRead,
        config: P::Config,
        validation_every: u64,
    ) -> io::Result<Dataset> {
        Dataset::load_with(
            input,
            config,
            validation_every,
            P::PARAMS,
            P::PHASE_MAX,
            |leaf: &P, fv| leaf.features(fv),
        )
    }

    /// [`Dataset::load`] for any game whose evaluation is linear in `params` parameters:
    /// `features` sends a position's terms (first player's view) and returns its phase, out
    /// of `phase_max` (a game without phases: `phase_max` 1, every phase 1, only the
    /// middlegame half of each weight used). Games read from rule files load this way.
    pub fn load_with<P: SearchGame>(
        input: impl BufRead,
        config: P::Config,
        validation_every: u64,
        params: usize,
        phase_max: i32,
        mut features: impl FnMut(&P, &mut FeatureVector) -> i32,
    ) -> io::Result<Dataset> {
        let mut data = Dataset {
            params,
            phase_max,
            ..Dataset::default()
        };
        let mut fv = FeatureVector::new(params);
        for line in input.lines() {
            let line = line?;
            data.lines += 1;
            let Some(QuietSample {
                game,
                result,
                reference,
                leaf,
                resolved,
            }) = QuietSample::<P>::parse(&line, config)
            else {
                data.skipped += 1;
                continue;
            };
            if resolved {
                data.resolved += 1;
            }
            fv.clear();
            let phase = features(&leaf, &mut fv);
            let start = data.features.len() as u32;
            data.features
                .extend(fv.entries().map(|(p, c)| (p as u32, c)));
            data.samples.push(Sample {
                start,
                len: data.features.len() as u32 - start,
                phase,
                result,
                reference,
                validation: validation_every > 0 && game % validation_every == 0,
            });
        }
        Ok(data)
    }

    /// Samples that carry a reference score.
    pub fn referenced_len(&self) -> usize {
        self.samples
            .iter()
            .filter(|s| s.reference.is_some())
            .count()
    }

    /// Makes the target of every sample with a reference score `(1 − weight) · result +
    /// weight · σ(K_ref · score / 400)`, where K_ref (returned) turns the reference engine's
    /// scores into expected results as well as they can: the K with the least squared error
    /// against the results on the training samples. Scores beyond ±3000 (mates) count as
    /// ±3000. Returns `None` when no sample has a score.
    pub fn blend_reference(&mut self, weight: f64) -> Option<f64> {
        const CAP: f64 = 3000.0;
        let scored: Vec<(f64, f64)> = self
            .samples
            .iter()
            .filter(|s| !s.validation)
            .filter_map(|s| s.reference.map(|r| (r.clamp(-CAP, CAP), s.result)))
            .collect();
        if scored.is_empty() {
            return None;
        }
        let k_ref = golden_section(0.05, 10.0, |k| {
            scored
                .iter()
                .map(|&(r, result)| (sigmoid(k * r / 400.0) - result).powi(2))
                .sum::<f64>()
        });
        for s in &mut self.samples {
            if let Some(r) = s.reference {
                let expected = sigmoid(k_ref * r.clamp(-CAP, CAP) / 400.0);
                s.result = (1.0 - weight) * s.result + weight * expected;
            }
        }
        Some(k_ref)
    }

    /// Samples for training.
    pub fn training_len(&self) -> usize {
        self.samples.iter().filter(|s| !s.validation).count()
    }

    /// Samples kept for validation.
    pub fn validation_len(&self) -> usize {
        self.samples.iter().filter(|s| s.validation).count()
    }

    /// The evaluation of a sample (first player's view, unrounded) under `w`.
    #[inline]
    fn eval(&self, s: &Sample, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(p, c) in &self.features[s.start as usize..(s.start + s.len) as usize] {
            let wp = w[p as usize];
            mg += wp[0] * f64::from(c);
            eg += wp[1] * f64::from(c);
        }
        let ph = f64::from(s.phase) / f64::from(self.phase_max);
        mg * ph + eg * (1.0 - ph)
    }

    /// Mean squared error of σ(K · eval / 400) against the results, on the training
    /// (`validation` false) or validation samples.
    pub fn mse(&self, w: &[[f64; 2]], k: f64, validation: bool) -> f64 {
        let mut sum = 0.0;
        let mut n = 0usize;
        for s in self.samples.iter().filter(|s| s.validation == validation) {
            let e = sigmoid(k * self.eval(s, w) / 400.0) - s.result;
            sum += e * e;
            n += 1;
        }
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Weights as floating point, for the optimiser.
pub fn to_float(w: &[Weight]) -> Vec<[f64; 2]> {
    w.iter()
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect()
}

/// Weights rounded to integers.
pub fn to_int(w: &[[f64; 2]]) -> Vec<Weight> {
    w.iter()
        .map(|p| [p[0].round() as i32, p[1].round() as i32])
        .collect()
}

/// The K minimising the training error under `w` (golden-section search over 0.05–10).
pub fn fit_k(data: &Dataset, w: &[[f64; 2]]) -> f64 {
    golden_section(0.05, 10.0, |k| data.mse(w, k, false))
}

/// The minimum of a function with one minimum on `[a, b]` (golden-section search).
fn golden_section(mut a: f64, mut b: f64, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Settings of [`optimise`].
#[derive(Clone, Debug)]
pub struct OptimiseSettings {
    /// Full passes over the training samples.
    pub epochs: u32,
    /// Adam's step size (centipawns).
    pub learning_rate: f64,
    /// Pull toward the starting weights (L2, per parameter; 0: none).
    pub l2: f64,
    /// Per parameter, whether it may change (empty: all may); the others keep their
    /// starting value and the free ones are fitted around them.
    pub free: Vec<bool>,
}

impl Default for OptimiseSettings {
    fn default() -> Self {
        OptimiseSettings {
            epochs: 2000,
            learning_rate: 1.0,
            l2: 0.0,
            free: Vec::new(),
        }
    }
}

/// What [`optimise`] found.
#[derive(Clone, Debug)]
pub struct Optimised {
    /// The weights: those of the epoch with the lowest validation error when there are
    /// validation samples (early stopping), else the last epoch's.
    pub weights: Vec<[f64; 2]>,
    /// The epoch the weights come from.
    pub epoch: u32,
}

/// Minimises the training error (plus the L2 pull) from `start` with Adam on full batches;
/// every 10 epochs it measures the validation error, keeps the best weights so far, and
/// calls `progress(epoch, training error, validation error)`. Parameters that no sample uses
/// keep their starting value.
pub fn optimise(
    data: &Dataset,
    start: &[[f64; 2]],
    k: f64,
    settings: &OptimiseSettings,
    mut progress: impl FnMut(u32, f64, f64),
) -> Optimised {
    let n = data.params;
    let mut w = start.to_vec();
    let mut m = vec![[0.0f64; 2]; n];
    let mut v = vec![[0.0f64; 2]; n];
    let mut grad = vec![[0.0f64; 2]; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let train = data.training_len().max(1) as f64;
    let phase_max = f64::from(data.phase_max);
    let has_validation = data.validation_len() > 0;
    let mut best = Optimised {
        weights: w.clone(),
        epoch: 0,
    };
    let mut best_validation = if has_validation {
        data.mse(&w, k, true)
    } else {
        f64::INFINITY
    };
    for epoch in 1..=settings.epochs {
        for g in grad.iter_mut() {
            *g = [0.0, 0.0];
        }
        for s in data.samples.iter().filter(|s| !s.validation) {
            let sig = sigmoid(k * data.eval(s, &w) / 400.0);
            let d = 2.0 * (sig - s.result) * sig * (1.0 - sig) * k / 400.0 / train;
            let ph = f64::from(s.phase) / phase_max;
            let (dm, de) = (d * ph, d * (1.0 - ph));
            for &(p, c) in &data.features[s.start as usize..(s.start + s.len) as usize] {
                let c = f64::from(c);
                let g = &mut grad[p as usize];
                g[0] += dm * c;
                g[1] += de * c;
            }
        }
        let t = f64::from(epoch);
        let (c1, c2) = (1.0 - b1.powf(t), 1.0 - b2.powf(t));
        for i in 0..n {
            if settings.free.get(i) == Some(&false) {
                continue;
            }
            for j in 0..2 {
                let mut g = grad[i][j];
                if g == 0.0 && m[i][j] == 0.0 {
                    continue;
                }
                g += settings.l2 * (w[i][j] - start[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let step = settings.learning_rate * (m[i][j] / c1) / ((v[i][j] / c2).sqrt() + eps);
                w[i][j] -= step;
            }
        }
        if epoch % 10 == 0 || epoch == settings.epochs {
            let validation = if has_validation {
                data.mse(&w, k, true)
            } else {
                0.0
            };
            if !has_validation || validation < best_validation {
                best_validation = validation;
                best.weights.clone_from(&w);
                best.epoch = epoch;
            }
            progress(epoch, data.mse(&w, k, false), validation);
        }
    }
    best
}

/// The Rust source of a weights file: `module` is the game's module (`xiangqi`), `notes`
/// lines of the module comment (what the last run measured).
pub fn weights_source(module: &str, blocks: &[Block], w: &[Weight], notes: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The {module} evaluation's weights, `[middlegame, endgame]` in centipawns, in the order of\n\
         //! `super::{module}::BLOCKS`. Generated by the tuner (`examples/tune.rs`; see\n\
         //! `docs/TUNING.md`): rerun it rather than editing by hand."
    );
    if !notes.is_empty() {
        let _ = writeln!(s, "//!");
        for n in notes {
            let _ = writeln!(s, "//! {n}");
        }
    }
    let _ = writeln!(s, "\nuse super::Weight;\n");
    let _ = writeln!(
        s,
        "/// The weights, block by block (see the block's documentation)."
    );
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(
        s,
        "pub const WEIGHTS: [Weight; super::{module}::PARAMS] = ["
    );
    for b in blocks {
        let _ = writeln!(s, "    // {} ({})", b.name, b.len);
        for row in w[b.start..b.end()].chunks(b.row.max(1)) {
            let cells: Vec<String> = row
                .iter()
                .map(|p| format!("[{}, {}]", p[0], p[1]))
                .collect();
            let _ = writeln!(s, "    {},", cells.join(", "));
        }
    }
    let _ = writeln!(s, "];");
    s
}

/// A parameter-by-parameter report of two tables (for the log): the blocks whose weights
/// moved, with the largest change.
pub fn describe_changes(blocks: &[Block], before: &[Weight], after: &[Weight]) -> Vec<String> {
    let mut out = Vec::new();
    for b in blocks {
        let mut worst = (0, 0usize);
        for i in b.start..b.end() {
            for j in 0..2 {
                let d = (after[i][j] - before[i][j]).abs();
                if d > worst.0 {
                    worst = (d, i - b.start);
                }
            }
        }
        if worst.0 > 0 {
            let i = b.start + worst.1;
            out.push(format!(
                "{}: largest change at {} ({:?} -> {:?})",
                b.name, worst.1, before[i], after[i]
            ));
        }
    }
    out
}

/// The score of a match, for the first table ("A").
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's points per game (0–1).
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// The Elo difference the score suggests (±∞ clipped to ±999).
    pub fn elo(&self) -> f64 {
        let p = self.score().clamp(0.001, 0.999);
        (-400.0 * (1.0 / p - 1.0).log10()).clamp(-999.0, 999.0)
    }
}

/// Plays `pairs` pairs of games, A against B, on random openings (each opening twice, the
/// colours swapped); `None` for a table means the compiled weights. Every Xiangqi or
/// Xiongqi evaluation in the process follows the override while this runs.
pub fn play_match<P: Evaluation>(
    kind: GameKind,
    pairs: u64,
    settings: &PlaySettings,
    a: Option<&[Weight]>,
    b: Option<&[Weight]>,
    seed: u64,
    mut progress: impl FnMut(&MatchScore),
) -> MatchScore {
    let mut rng = Rng::new(seed);
    let mut engines = [Engine::new(kind), Engine::new(kind)];
    for e in &mut engines {
        let _ = e.set_hash(settings.hash_mb);
    }
    let tables = [a, b];
    let mut score = MatchScore::default();
    for _ in 0..pairs {
        let (lo, hi) = settings.random_plies;
        let plies = lo + rng.below(u64::from(hi.saturating_sub(lo)) + 1) as u32;
        let opening = random_opening(&mut engines[0], plies, &mut rng);
        for a_side in [Side::First, Side::Second] {
            for e in &mut engines {
                let _ = e.new_game();
            }
            // engines[0] is A, engines[1] is B.
            let select = if a_side == Side::First {
                [0, 1]
            } else {
                [1, 0]
            };
            let result = play_game(
                &mut engines,
                select,
                &opening,
                settings,
                &mut rng,
                |turn| P::set_weights_override(tables[select[turn.index()]]),
                |_| {},
            );
            let for_a = if a_side == Side::First {
                result.0
            } else {
                1.0 - result.0
            };
            if for_a > 0.75 {
                score.wins += 1;
            } else if for_a < 0.25 {
                score.losses += 1;
            } else {
                score.draws += 1;
            }
            progress(&score);
        }
    }
    P::set_weights_override(None);
    score
}
