//! # chuhe-match — games between UCI engines, judged by chuhe
//!
//! Plays rounds of games between two UCI engines (chuhe itself, Fairy-Stockfish, any other)
//! in any game of [`chuhe::GameKind`], with chuhe's arbiter deciding legality, repetition and
//! every ending. Each round plays one opening twice, colours swapped. Time controls, openings
//! (a list of positions, or random opening plies), concurrency, a move cap, Elo with its
//! error and an SPRT that stops early; every game comes back as a PCN record.
//!
//! The `chuhe match` command is a thin user of this crate.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod stats;
mod uci;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use chuhe::notation::pcn::{Meta, Pcn, SideInfo, Sides};
use chuhe::{AnyGame, GameKind, MoveNotation, Outcome, PositionFormat, Side, Status};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

pub use stats::{elo_to_score, score_to_elo, Sprt, SprtVerdict, Tally};
pub use uci::{EngineError, EngineSpec, UciEngine};

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` for the game plus `increment` per move (`10+0.1`).
    Clock {
        /// Time for the whole game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
    /// A node budget per move (`go nodes`).
    Nodes(u64),
    /// A depth per move (`go depth`).
    Depth(u32),
}

impl TimeControl {
    /// Reads a clock `BASE+INC` in seconds (`10+0.1`, `60`).
    ///
    /// ```
    /// use chuhe_match::TimeControl;
    /// use std::time::Duration;
    /// assert_eq!(TimeControl::parse_clock("10+0.1").unwrap(), TimeControl::Clock {
    ///     base: Duration::from_secs(10), increment: Duration::from_millis(100) });
    /// assert!(TimeControl::parse_clock("fast").is_err());
    /// ```
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| -> Option<Duration> {
            let v: f64 = s.trim().parse().ok()?;
            (v.is_finite() && (0.0..1e7).contains(&v)).then(|| Duration::from_secs_f64(v))
        };
        match (seconds(base), seconds(inc)) {
            (Some(base), Some(increment)) if !base.is_zero() => {
                Ok(TimeControl::Clock { base, increment })
            }
            _ => Err(format!(
                "--tc '{}' is not BASE+INCREMENT in seconds (e.g. 10+0.1)",
                chuhe::quote_input(text)
            )),
        }
    }
}

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Positions (`start`, FEEN, or FEN for Xiangqi), used in turn, one per round.
    Positions(Vec<String>),
    /// The start position followed by this many random legal plies, one line per round.
    RandomPlies {
        /// Plies.
        plies: u32,
        /// Seed of the random choice.
        seed: u64,
    },
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The two engines; results are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// How long each move may take.
    pub time_control: TimeControl,
    /// Rounds; each plays its opening twice, colours swapped.
    pub rounds: u32,
    /// Openings.
    pub openings: Openings,
    /// Games played at once.
    pub concurrency: usize,
    /// A game reaching this many plies is adjudicated a draw (`movelimit`).
    pub max_plies: u32,
    /// Score adjudication: when both engines report a score beyond this many centipawns for
    /// the same side for `moves` consecutive moves each, that side wins.
    pub resign: Option<(i32, u32)>,
    /// Grace beyond the clock before a move counts as a time loss.
    pub time_margin: Duration,
    /// Stop as soon as this test decides.
    pub sprt: Option<Sprt>,
    /// Name of the event in the records.
    pub event: String,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Index from 0, in the order games were scheduled.
    pub index: usize,
    /// The round, from 1.
    pub round: u32,
    /// Which engine (0 or 1) played the first side.
    pub first_engine: usize,
    /// How it ended.
    pub outcome: Outcome,
    /// Why, in words (`checkmate`, `illegal move e3e9 by fsf`, `time forfeit by chuhe`, …).
    pub reason: String,
    /// The record.
    pub pcn: Pcn,
}

impl GameReport {
    /// The game's score for engine 0: 1, ½ or 0.
    pub fn score_for_first_engine(&self) -> f64 {
        match self.outcome.winner {
            None => 0.5,
            Some(side) => {
                let winner_engine = if side == Side::First {
                    self.first_engine
                } else {
                    1 - self.first_engine
                };
                if winner_engine == 0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// The result of a match.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The game.
    pub game: GameKind,
    /// The engines' names.
    pub engines: [String; 2],
    /// Games played.
    pub games: u32,
    /// From the first engine's point of view.
    pub tally: Tally,
    /// The first engine's score, 0 to 1.
    pub score: f64,
    /// Elo of the first engine over the second.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub elo_error: f64,
    /// The SPRT's log-likelihood ratio, its bounds and verdict, when one ran.
    pub sprt: Option<serde_json::Value>,
    /// Games by how they ended.
    pub endings: std::collections::BTreeMap<String, u32>,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An opening is not a position of the game.
    #[error("opening {index}: {message}")]
    Opening {
        /// Which, from 1.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// An engine could not be started at all.
    #[error("engine '{name}': {source}")]
    Engine {
        /// The engine's name.
        name: String,
        /// Why.
        source: EngineError,
    },
    /// Nothing to play.
    #[error("{0}")]
    Config(String),
}

/// A scheduled game: its opening and who plays first.
#[derive(Clone, Debug)]
struct Scheduled {
    index: usize,
    round: u32,
    first_engine: usize,
    start: String,
    opening_moves: Vec<String>,
}

/// Plays the match, calling `on_game` with each finished game and the tally so far (in the
/// order games finish). Stops early when the SPRT decides or `stop` is set.
pub fn run_match(
    config: &MatchConfig,
    stop: Arc<AtomicBool>,
    on_game: &mut dyn FnMut(&GameReport, &Tally),
) -> Result<Summary, MatchError> {
    if config.rounds == 0 {
        return Err(MatchError::Config("--rounds must be at least 1".into()));
    }
    for spec in &config.engines {
        UciEngine::start(spec, Some(config.game.name()))
            .map_err(|source| MatchError::Engine {
                name: spec.name.clone(),
                source,
            })?
            .quit();
    }
    let schedule = Arc::new(schedule(config)?);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<GameReport>();
    let workers = config.concurrency.clamp(1, 64).min(schedule.len());
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (schedule, next, tx, stop) = (schedule.clone(), next.clone(), tx.clone(), stop.clone());
        let config = config.clone();
        handles.push(thread::spawn(move || {
            let mut engines: [Option<UciEngine>; 2] = [None, None];
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = schedule.get(i) else { break };
                let Some(report) = play_game(&config, job, &mut engines) else {
                    continue;
                };
                if tx.send(report).is_err() {
                    break;
                }
            }
            for engine in engines.into_iter().flatten() {
                engine.quit();
            }
        }));
    }
    drop(tx);
    let mut tally = Tally::default();
    let mut endings = std::collections::BTreeMap::new();
    for report in rx {
        match report.score_for_first_engine() {
            s if s > 0.75 => tally.wins += 1,
            s if s < 0.25 => tally.losses += 1,
            _ => tally.draws += 1,
        }
        *endings.entry(report.reason.clone()).or_insert(0) += 1;
        on_game(&report, &tally);
        if let Some(sprt) = &config.sprt {
            if sprt.verdict(&tally) != SprtVerdict::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let (elo, elo_error) = tally.elo();
    let sprt = config.sprt.map(|s| {
        let (lower, upper) = s.bounds();
        json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": s.llr(&tally), "lower": lower, "upper": upper, "verdict": s.verdict(&tally),
        })
    });
    Ok(Summary {
        game: config.game,
        engines: [
            config.engines[0].name.clone(),
            config.engines[1].name.clone(),
        ],
        games: tally.games(),
        score: tally.score(),
        tally,
        elo,
        elo_error,
        sprt,
        endings,
    })
}

/// Every game of the match: each round's opening twice, colours swapped.
fn schedule(config: &MatchConfig) -> Result<Vec<Scheduled>, MatchError> {
    let mut out = Vec::new();
    let mut rng = match &config.openings {
        Openings::RandomPlies { seed, .. } => SmallRng::seed_from_u64(*seed),
        Openings::Positions(_) => SmallRng::seed_from_u64(0),
    };
    for round in 0..config.rounds {
        let (start, opening_moves) = match &config.openings {
            Openings::Positions(list) if list.is_empty() => {
                return Err(MatchError::Config(
                    "the openings file has no positions".into(),
                ))
            }
            Openings::Positions(list) => {
                let i = round as usize % list.len();
                config
                    .game
                    .new_game(&list[i])
                    .map_err(|e| MatchError::Opening {
                        index: i + 1,
                        message: e.to_string(),
                    })?;
                (list[i].clone(), Vec::new())
            }
            Openings::RandomPlies { plies, .. } => (
                String::from("start"),
                random_line(config.game, *plies, &mut rng),
            ),
        };
        for first_engine in [0, 1] {
            out.push(Scheduled {
                index: out.len(),
                round: round + 1,
                first_engine,
                start: start.clone(),
                opening_moves: opening_moves.clone(),
            });
        }
    }
    Ok(out)
}

/// A random line of legal moves from the start (shorter if the game ends).
fn random_line(game: GameKind, plies: u32, rng: &mut SmallRng) -> Vec<String> {
    let Ok(mut g) = game.new_game("start") else {
        return Vec::new();
    };
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = g.legal_moves_text(MoveNotation::Uci).unwrap_or_default();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())].clone();
        if g.play_text(&m, MoveNotation::Uci).is_err() {
            break;
        }
        if g.outcome().is_some() {
            g.undo();
            break;
        }
        line.push(m);
    }
    line
}

fn engine<'a>(
    engines: &'a mut [Option<UciEngine>; 2],
    config: &MatchConfig,
    i: usize,
) -> Result<&'a mut UciEngine, EngineError> {
    if engines[i].is_none() {
        engines[i] = Some(UciEngine::start(
            &config.engines[i],
            Some(config.game.name()),
        )?);
    }
    engines[i].as_mut().ok_or(EngineError::Crashed)
}

/// Plays one game; engines that fail are dropped and restarted for the next game.
fn play_game(
    config: &MatchConfig,
    job: &Scheduled,
    engines: &mut [Option<UciEngine>; 2],
) -> Option<GameReport> {
    let engine_of = |side: Side| match side {
        Side::First => job.first_engine,
        Side::Second => 1 - job.first_engine,
    };
    // Openings were read when the schedule was made.
    let mut game: Box<dyn AnyGame> = config.game.new_game(&job.start).ok()?;
    let setup = game.to_feen();
    let position_head = if job.start == "start" {
        "position startpos".to_string()
    } else {
        let text = game
            .to_text(PositionFormat::Fen)
            .unwrap_or_else(|_| game.to_feen());
        format!("position fen {text}")
    };
    let mut moves: Vec<(String, f64)> = Vec::new();
    for m in &job.opening_moves {
        if let Ok(texts) = game.play_text(m, MoveNotation::Uci) {
            moves.push((texts.get("pmn").cloned().unwrap_or_else(|| m.clone()), 0.0));
        }
    }
    for i in 0..2 {
        if let Ok(e) = engine(engines, config, i) {
            if e.send("ucinewgame").and_then(|()| e.sync()).is_err() {
                engines[i] = None;
            }
        }
    }
    // Each engine may have its own time control (`tc=`, `nodes=`… in its spec).
    let tc_of = |side: Side| {
        config.engines[engine_of(side)]
            .time_control
            .unwrap_or(config.time_control)
    };
    let clock_of = |side: Side| match tc_of(side) {
        TimeControl::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = [clock_of(Side::First).0, clock_of(Side::Second).0];
    let increments = [clock_of(Side::First).1, clock_of(Side::Second).1];
    let mut reason = None;
    let mut adjudication_streak = [0u32; 2];
    while game.outcome().is_none() {
        if game.plies() >= config.max_plies as usize {
            game.declare(Outcome::draw(Status::Movelimit));
            reason = Some("move cap".to_string());
            break;
        }
        let side = game.turn();
        let who = engine_of(side);
        let name = config.engines[who].name.clone();
        let played = game.moves_uci();
        let position = if played.is_empty() {
            position_head.clone()
        } else {
            format!("{position_head} moves {}", played.join(" "))
        };
        let (go, deadline) = match tc_of(side) {
            TimeControl::Clock { .. } => {
                let (w, b) = (clocks[0].as_millis(), clocks[1].as_millis());
                let (wi, bi) = (increments[0].as_millis(), increments[1].as_millis());
                (
                    format!("go wtime {w} btime {b} winc {wi} binc {bi}"),
                    clocks[side.index()] + config.time_margin,
                )
            }
            TimeControl::MoveTime(t) => (
                format!("go movetime {}", t.as_millis()),
                t + config.time_margin + Duration::from_secs(1),
            ),
            TimeControl::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(120)),
            TimeControl::Depth(d) => (format!("go depth {d}"), Duration::from_secs(300)),
        };
        let started = Instant::now();
        let answer = engine(engines, config, who)
            .and_then(|e| e.best_move(&position, &go, started + deadline));
        let spent = started.elapsed();
        let (text, score) = match answer {
            Ok(a) => a,
            Err(EngineError::Timeout(_)) => {
                engines[who] = None;
                game.declare(Outcome::win(Status::Timelimit, !side));
                reason = Some(format!("time forfeit by {name}"));
                break;
            }
            Err(e) => {
                engines[who] = None;
                game.declare(Outcome::win(Status::Resignation, !side));
                reason = Some(format!("{name} failed: {e}"));
                break;
            }
        };
        if let TimeControl::Clock { increment, .. } = tc_of(side) {
            let clock = &mut clocks[side.index()];
            if spent > *clock + config.time_margin {
                game.declare(Outcome::win(Status::Timelimit, !side));
                reason = Some(format!("time forfeit by {name}"));
                break;
            }
            *clock = clock.saturating_sub(spent) + increment;
        }
        match game.play_text(&text, MoveNotation::Uci) {
            Ok(texts) => moves.push((
                texts.get("pmn").cloned().unwrap_or(text),
                (spent.as_secs_f64() * 1000.0).round() / 1000.0,
            )),
            Err(e) => {
                game.declare(Outcome::win(Status::Illegalmove, !side));
                reason = Some(format!(
                    "illegal move '{}' by {name}: {e}",
                    chuhe::quote_input(&text)
                ));
                break;
            }
        }
        if let (Some((threshold, needed)), Some(score)) = (config.resign, score) {
            // Scores are from the mover's view: positive favours `side`.
            let streak = &mut adjudication_streak;
            if score.abs() >= threshold {
                let favoured = if score > 0 { side } else { !side };
                let k = favoured.index();
                streak[k] += 1;
                streak[1 - k] = 0;
                if streak[k] >= 2 * needed {
                    game.declare(Outcome::win(Status::Resignation, favoured));
                    reason = Some("score adjudication".to_string());
                    break;
                }
            } else {
                *streak = [0, 0];
            }
        }
    }
    let outcome = game.outcome().unwrap_or(Outcome::draw(Status::Movelimit));
    let reason = reason.unwrap_or_else(|| outcome.status.as_str().to_string());
    let side_info = |i: usize| SideInfo {
        name: Some(config.engines[i].name.clone()),
        ..SideInfo::default()
    };
    let mut meta = Meta {
        event: Some(config.event.clone()),
        round: Some(job.round),
        ..Meta::default()
    };
    meta.extra.insert("game".into(), json!(config.game.name()));
    meta.extra.insert("termination".into(), json!(reason));
    let pcn = Pcn {
        meta,
        sides: Some(Sides {
            first: Some(side_info(job.first_engine)),
            second: Some(side_info(1 - job.first_engine)),
        }),
        setup,
        moves,
        status: Some(outcome.status),
        winner: Some(chuhe::record::winner_of(outcome.winner)),
    };
    Some(GameReport {
        index: job.index,
        round: job.round,
        first_engine: job.first_engine,
        outcome,
        reason,
        pcn,
    })
}
