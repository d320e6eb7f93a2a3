//! # chuhe-match — games between UCI engines, judged by chuhe
//!
//! Plays rounds of games between UCI engines (chuhe itself, Fairy-Stockfish, any other) in
//! any game of [`chuhe::GameKind`], with chuhe's arbiter deciding legality, repetition and
//! every ending. Two engines, or more in a round-robin or a gauntlet; in each round every
//! pair plays one opening twice, colours swapped. Time controls, opening books (EPD/FEN,
//! PGN, PCN; in order or shuffled by a seed) or random opening plies, concurrency, a move
//! cap, draw and resign adjudication, Elo with its error from single games and from game
//! pairs (pentanomial), an SPRT on the pairs that stops early, a log of every line to and
//! from the engines; every game comes back as a PCN record (and PGN for Xiangqi). An engine
//! that crashes loses its game and is started again for the next one. Games already played
//! are counted again from their PCN records by [`tally`] (a match run in several slices).
//!
//! The `chuhe match` command is a thin user of this crate.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod openings;
mod stats;
mod tally;
mod uci;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use chuhe::notation::pcn::{Meta, Pcn, SideInfo, Sides};
use chuhe::{AnyGame, GameKind, MoveNotation, Outcome, PositionFormat, Side, Status};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

pub use openings::{read_book, BookFormat, Opening};
pub use stats::{
    elo_to_score, score_to_elo, tidy, EloEstimate, EloModel, Pentanomial, Sprt, SprtVerdict, Tally,
};
pub use tally::{tally, PlayedGame};
pub use uci::{EngineError, EngineLog, EngineSpec, UciEngine};

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
    /// A book, used one opening per round, in `order`.
    Book {
        /// The openings.
        openings: Vec<Opening>,
        /// In which order.
        order: OpeningOrder,
    },
    /// The start position followed by this many random legal plies, one line per round.
    RandomPlies {
        /// Plies.
        plies: u32,
        /// Seed of the random choice.
        seed: u64,
    },
}

impl Openings {
    /// Positions with no moves, in order (`start`, FEEN, or FEN for Xiangqi).
    pub fn positions(list: &[&str]) -> Openings {
        Openings::Book {
            openings: list.iter().map(|p| Opening::position(p)).collect(),
            order: OpeningOrder::Sequential,
        }
    }
}

/// The order a book's openings are played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    /// As written, starting again at the top when the rounds outnumber them.
    Sequential,
    /// Shuffled once by this seed (the same seed, the same order), then in turn.
    Random {
        /// Seed.
        seed: u64,
    },
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tournament {
    /// Every engine against every other one.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Draw adjudication as cutechess-cli's `-draw movenumber=N movecount=M score=S`: from
/// move `move_number` on, a game in which both engines' scores stay within `score`
/// centipawns of 0 for `move_count` consecutive moves each is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// The first move number (counting from 1, one move = both sides) it applies to.
    pub move_number: u32,
    /// Consecutive moves of each engine.
    pub move_count: u32,
    /// Centipawns either side of 0.
    pub score: i32,
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The engines (two or more); names must differ.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom when there are more than two engines.
    pub tournament: Tournament,
    /// How long each move may take.
    pub time_control: TimeControl,
    /// Rounds; in each, every pair plays the round's opening twice, colours swapped.
    pub rounds: u32,
    /// The first round to play, from 1: a match from round `n` plays exactly what a match from
    /// round 1 would have played from its round `n` on (openings, random lines, game and round
    /// numbers), so that a match stopped after round `n − 1` can be continued.
    pub first_round: u32,
    /// Openings.
    pub openings: Openings,
    /// Games played at once (at least 1).
    pub concurrency: usize,
    /// A game reaching this many plies is adjudicated a draw (`movelimit`).
    pub max_plies: u32,
    /// Score adjudication: when both engines report a score beyond this many centipawns for
    /// the same side for `moves` consecutive moves each, that side wins.
    pub resign: Option<(i32, u32)>,
    /// Draw adjudication by score and move number.
    pub draw: Option<DrawAdjudication>,
    /// Grace beyond the clock before a move counts as a time loss.
    pub time_margin: Duration,
    /// Stop as soon as this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Name of the event in the records.
    pub event: String,
    /// Where every line to and from the engines is written.
    pub log: Option<EngineLog>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Index from 0, in the order games were scheduled.
    pub index: usize,
    /// The round, from 1.
    pub round: u32,
    /// The pair of engines (an index into [`Summary::pairs`]).
    pub pair: usize,
    /// The engines (indexes into [`MatchConfig::engines`]) that played the first and the
    /// second side.
    pub engines: [usize; 2],
    /// How it ended.
    pub outcome: Outcome,
    /// Why, in words (`checkmate`, `illegal move e3e9 by fsf`, `time forfeit by chuhe`, …).
    pub reason: String,
    /// The record.
    pub pcn: Pcn,
    /// The game in PGN (Xiangqi only: PGN has no other variant of these).
    pub pgn: Option<String>,
}

impl GameReport {
    /// The game's score for engine `engine`: 1, ½ or 0 (0 when it did not play).
    pub fn score_for(&self, engine: usize) -> f64 {
        let side = if self.engines[0] == engine {
            Side::First
        } else if self.engines[1] == engine {
            Side::Second
        } else {
            return 0.0;
        };
        match self.outcome.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The result for the first side: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.outcome.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Results of one pair of engines, from the first one's view.
#[derive(Clone, Debug, Default)]
pub struct PairStats {
    /// The two engines (indexes into [`MatchConfig::engines`]).
    pub engines: [usize; 2],
    /// Single games.
    pub tally: Tally,
    /// Finished game pairs (both games of a round).
    pub pentanomial: Pentanomial,
    /// Games by how they ended.
    pub endings: BTreeMap<String, u32>,
    /// Rounds with one game finished: its score.
    half_pairs: BTreeMap<u32, f64>,
}

impl PairStats {
    fn add(&mut self, report: &GameReport) {
        let score = report.score_for(self.engines[0]);
        self.tally.add(score);
        *self.endings.entry(report.reason.clone()).or_insert(0) += 1;
        match self.half_pairs.remove(&report.round) {
            Some(other) => self.pentanomial.add(other, score),
            None => {
                self.half_pairs.insert(report.round, score);
            }
        }
    }

    /// The figures of the pair.
    pub fn figures(&self, sprt: Option<&Sprt>) -> Figures {
        let sprt = sprt.map(|s| {
            let llr = s.llr_pentanomial(&self.pentanomial);
            let (lower, upper) = s.bounds();
            SprtReport {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                model: s.model,
                llr: tidy(llr, 3),
                llr_trinomial: tidy(s.llr(&self.tally), 3),
                lower: tidy(lower, 3),
                upper: tidy(upper, 3),
                verdict: s.verdict_of(llr),
            }
        });
        let elo = self.tally.elo();
        let penta_elo = self.pentanomial.elo();
        let nelo = self.pentanomial.normalized_elo();
        Figures {
            tally: self.tally,
            score: tidy(self.tally.score(), 4),
            elo: elo.elo,
            elo_error: elo.error,
            pentanomial: PentanomialReport {
                counts: self.pentanomial.counts(),
                dd: self.pentanomial.dd,
                wl: self.pentanomial.wl,
                pairs: self.pentanomial.pairs(),
                elo: penta_elo.elo,
                elo_error: penta_elo.error,
                nelo: nelo.map(|n| n.0),
                nelo_error: nelo.map(|n| n.1),
            },
            sprt,
        }
    }
}

/// The figures of a pair, from its first engine's view. Elo is logistic; `None` (JSON
/// `null`) is an unbounded Elo or interval (every game won or lost), never NaN.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Figures {
    /// Wins, draws, losses.
    pub tally: Tally,
    /// Score, 0 to 1.
    pub score: f64,
    /// Elo from the single games.
    pub elo: Option<f64>,
    /// Half-width of its 95% interval (trinomial variance).
    pub elo_error: Option<f64>,
    /// Game pairs.
    pub pentanomial: PentanomialReport,
    /// The SPRT, when one ran.
    pub sprt: Option<SprtReport>,
}

/// Game-pair figures.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PentanomialReport {
    /// Pairs worth 0, ½, 1, 1½, 2 points: `[LL, LD, DD+WL, WD, WW]`.
    pub counts: [u32; 5],
    /// Of the one-point pairs, both drawn.
    pub dd: u32,
    /// Of the one-point pairs, one won and one lost.
    pub wl: u32,
    /// Pairs finished.
    pub pairs: u32,
    /// Logistic Elo from the pairs.
    pub elo: Option<f64>,
    /// Half-width of its 95% interval (pentanomial variance).
    pub elo_error: Option<f64>,
    /// Normalized Elo from the pairs.
    pub nelo: Option<f64>,
    /// Half-width of its 95% interval.
    pub nelo_error: Option<f64>,
}

/// Where the SPRT stands.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SprtReport {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The scale of `elo0`, `elo1`.
    pub model: EloModel,
    /// The log-likelihood ratio of the game pairs (the one the test decides by).
    pub llr: f64,
    /// The log-likelihood ratio of the single games, for comparison.
    pub llr_trinomial: f64,
    /// Accept H0 at or below.
    pub lower: f64,
    /// Accept H1 at or above.
    pub upper: f64,
    /// The verdict.
    pub verdict: SprtVerdict,
}

/// One pair in the summary.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PairSummary {
    /// The two engines' names.
    pub engines: [String; 2],
    /// Games played.
    pub games: u32,
    /// The figures.
    #[serde(flatten)]
    pub figures: Figures,
    /// Games by how they ended.
    pub endings: BTreeMap<String, u32>,
}

/// One engine's line of the standings.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Standing {
    /// The engine.
    pub engine: String,
    /// Games played.
    pub games: u32,
    /// Wins, draws, losses.
    pub tally: Tally,
    /// Points (1 a win, ½ a draw).
    pub points: f64,
    /// Points per game, 0 to 1.
    pub score: f64,
    /// Elo against the engines it met (logistic), `None` when unbounded.
    pub elo: Option<f64>,
    /// Half-width of its 95% interval.
    pub elo_error: Option<f64>,
}

/// The result of a match.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The game.
    pub game: GameKind,
    /// The engines' names.
    pub engines: Vec<String>,
    /// Who played whom.
    pub tournament: Tournament,
    /// Games played.
    pub games: u32,
    /// Whether the match was stopped from outside (the `stop` flag of [`run_match`]) before
    /// its last round: the rounds in play were finished, later ones not started.
    pub interrupted: bool,
    /// With two engines: the first one's figures against the second.
    #[serde(flatten)]
    pub head: Option<Figures>,
    /// Each pair of engines.
    pub pairs: Vec<PairSummary>,
    /// The engines by points, best first.
    pub standings: Vec<Standing>,
    /// Games by how they ended.
    pub endings: BTreeMap<String, u32>,
    /// Warnings given during the match (also given as [`MatchEvent::Warning`]).
    pub warnings: Vec<String>,
}

/// What happens during a match.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// Something the user should know: an option an engine does not know, games that will
    /// all be the same.
    Warning(&'a str),
    /// A game finished; `pair` holds its pair's results so far.
    Game {
        /// The game.
        report: &'a GameReport,
        /// Its pair's results, this game included.
        pair: &'a PairStats,
        /// Games finished in the whole match.
        finished: u32,
    },
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
    /// A game record that [`tally`] cannot count.
    #[error("{label}: {message}")]
    Record {
        /// Where it was read.
        label: String,
        /// What is wrong.
        message: String,
    },
}

/// A scheduled game: its opening, its pair and who plays first.
#[derive(Clone, Debug)]
struct Scheduled {
    /// Index from 0 among all the games of a match from round 1.
    index: usize,
    round: u32,
    pair: usize,
    engines: [usize; 2],
    /// The first of the pair's two games of the round.
    opens_pair: bool,
    opening: Opening,
}

/// The next game to play, taken from the schedule: none when all are taken or, once `stop`
/// is set, when the next one would begin a new pair (the second game of a pair begun is
/// still played, so that the pair is whole).
fn next_game<'a>(
    schedule: &'a [Scheduled],
    next: &Mutex<usize>,
    stop: &AtomicBool,
) -> Option<&'a Scheduled> {
    let mut next = next.lock().unwrap_or_else(PoisonError::into_inner);
    let job = schedule.get(*next)?;
    if job.opens_pair && stop.load(Ordering::Relaxed) {
        return None;
    }
    *next += 1;
    Some(job)
}

/// The pairs of engines that meet.
fn pairings(count: usize, tournament: Tournament) -> Vec<[usize; 2]> {
    match tournament {
        Tournament::Gauntlet => (1..count).map(|j| [0, j]).collect(),
        Tournament::RoundRobin => (0..count)
            .flat_map(|i| (i + 1..count).map(move |j| [i, j]))
            .collect(),
    }
}

/// Would every game of a pair be the same move for move (deterministic engines)?
fn games_repeat(config: &MatchConfig) -> bool {
    let one_opening = match &config.openings {
        Openings::Book { openings, .. } => openings.iter().all(|o| *o == openings[0]),
        Openings::RandomPlies { .. } => false,
    };
    let fixed = |tc: TimeControl| matches!(tc, TimeControl::Depth(_) | TimeControl::Nodes(_));
    one_opening
        && config.rounds > 1
        && config
            .engines
            .iter()
            .all(|e| fixed(e.time_control.unwrap_or(config.time_control)))
}

/// The highest round a match may reach (`--from-round` + `--rounds` − 1). Every round is
/// scheduled up front, and random opening lines are drawn in turn from round 1, so a bound
/// keeps a mistyped number from filling memory or drawing lines for hours.
pub const MAX_ROUND: u32 = 1_000_000;

/// Plays the match, calling `on_event` with warnings and with each finished game (in the
/// order games finish). Stops early when the SPRT decides (no game starts after that) or when
/// `stop` is set: then no new round starts, the games of the rounds in play are played to
/// their end (so every pair of games is whole), and the summary says `interrupted`.
pub fn run_match(
    config: &MatchConfig,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(MatchEvent<'_>),
) -> Result<Summary, MatchError> {
    if config.rounds == 0 {
        return Err(MatchError::Config("--rounds must be at least 1".into()));
    }
    if config.first_round == 0 {
        return Err(MatchError::Config("--from-round must be at least 1".into()));
    }
    let last_round = u64::from(config.first_round) + u64::from(config.rounds) - 1;
    if last_round > u64::from(MAX_ROUND) {
        return Err(MatchError::Config(format!(
            "--from-round {} and --rounds {} reach round {last_round}; a match has at most {MAX_ROUND} rounds",
            config.first_round, config.rounds
        )));
    }
    if config.concurrency == 0 {
        return Err(MatchError::Config(
            "--concurrency must be at least 1 (games played at once)".into(),
        ));
    }
    if config.engines.len() < 2 {
        return Err(MatchError::Config(format!(
            "a match needs at least two engines, found {}",
            config.engines.len()
        )));
    }
    for (i, e) in config.engines.iter().enumerate() {
        if config.engines[..i].iter().any(|o| o.name == e.name) {
            return Err(MatchError::Config(format!(
                "two engines are named '{}'; give each its own name=",
                e.name
            )));
        }
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err(MatchError::Config(
            "--sprt tests one engine against another: give exactly two engines".into(),
        ));
    }
    let mut warnings = Vec::new();
    for spec in &config.engines {
        let engine = UciEngine::start(spec, Some(config.game.name()), config.log.clone()).map_err(
            |source| MatchError::Engine {
                name: spec.name.clone(),
                source,
            },
        )?;
        warnings.extend(engine.warnings.iter().cloned());
        engine.quit();
    }
    if games_repeat(config) {
        warnings.push(
            "every game of a pair may be the same: one opening, no random plies, and a fixed depth or node limit (deterministic engines repeat their moves); give --openings or --random-plies".to_string(),
        );
    }
    for w in &warnings {
        on_event(MatchEvent::Warning(w));
    }
    let pairs_of_engines = pairings(config.engines.len(), config.tournament);
    let schedule = Arc::new(schedule(config, &pairs_of_engines)?);
    let next = Arc::new(Mutex::new(0_usize));
    // Set when the SPRT decides: workers start no game after that.
    let decided = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameReport>();
    let workers = config.concurrency.min(64).min(schedule.len());
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (schedule, next, tx) = (schedule.clone(), next.clone(), tx.clone());
        let (stop, decided) = (stop.clone(), decided.clone());
        let config = config.clone();
        handles.push(thread::spawn(move || {
            let mut engines: HashMap<usize, UciEngine> = HashMap::new();
            loop {
                if decided.load(Ordering::Relaxed) {
                    break;
                }
                let Some(job) = next_game(&schedule, &next, &stop) else {
                    break;
                };
                let Some(report) = play_game(&config, job, &mut engines) else {
                    continue;
                };
                if tx.send(report).is_err() {
                    break;
                }
            }
            for (_, engine) in engines.drain() {
                engine.quit();
            }
        }));
    }
    drop(tx);
    let mut pairs: Vec<PairStats> = pairs_of_engines
        .iter()
        .map(|&engines| PairStats {
            engines,
            ..PairStats::default()
        })
        .collect();
    let mut finished = 0;
    for report in rx {
        finished += 1;
        let pair = &mut pairs[report.pair];
        pair.add(&report);
        on_event(MatchEvent::Game {
            report: &report,
            pair,
            finished,
        });
        if let Some(sprt) = &config.sprt {
            if sprt.verdict_of(sprt.llr_pentanomial(&pair.pentanomial)) != SprtVerdict::Continue {
                decided.store(true, Ordering::Relaxed);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let names = config.engines.iter().map(|e| e.name.clone()).collect();
    let summary = summarize(
        config.game,
        config.tournament,
        names,
        &pairs,
        config.sprt.as_ref(),
    );
    Ok(Summary {
        interrupted: stop.load(Ordering::Relaxed)
            && !decided.load(Ordering::Relaxed)
            && (finished as usize) < schedule.len(),
        warnings,
        ..summary
    })
}

/// The summary of the games counted in `pairs` (`interrupted` false, no warnings): each
/// pair's figures, the standings, the endings.
fn summarize(
    game: GameKind,
    tournament: Tournament,
    names: Vec<String>,
    pairs: &[PairStats],
    sprt: Option<&Sprt>,
) -> Summary {
    let mut standings: Vec<Standing> = (0..names.len())
        .map(|i| {
            let mut tally = Tally::default();
            for p in pairs {
                if p.engines[0] == i {
                    tally.wins += p.tally.wins;
                    tally.draws += p.tally.draws;
                    tally.losses += p.tally.losses;
                } else if p.engines[1] == i {
                    tally.wins += p.tally.losses;
                    tally.draws += p.tally.draws;
                    tally.losses += p.tally.wins;
                }
            }
            let elo = tally.elo();
            Standing {
                engine: names[i].clone(),
                games: tally.games(),
                tally,
                points: tally.wins as f64 + 0.5 * tally.draws as f64,
                score: tidy(tally.score(), 4),
                elo: elo.elo,
                elo_error: elo.error,
            }
        })
        .collect();
    standings.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.games.cmp(&b.games)));
    let mut endings = BTreeMap::new();
    for p in pairs {
        for (reason, n) in &p.endings {
            *endings.entry(reason.clone()).or_insert(0) += n;
        }
    }
    let pair_summaries: Vec<PairSummary> = pairs
        .iter()
        .map(|p| PairSummary {
            engines: [names[p.engines[0]].clone(), names[p.engines[1]].clone()],
            games: p.tally.games(),
            figures: p.figures(sprt),
            endings: p.endings.clone(),
        })
        .collect();
    Summary {
        game,
        tournament,
        games: pairs.iter().map(|p| p.tally.games()).sum(),
        interrupted: false,
        head: (names.len() == 2).then(|| pair_summaries[0].figures.clone()),
        engines: names,
        pairs: pair_summaries,
        standings,
        endings,
        warnings: Vec::new(),
    }
}

/// Every game of the match: per round one opening, which each pair plays twice, colours
/// swapped.
fn schedule(config: &MatchConfig, pairs: &[[usize; 2]]) -> Result<Vec<Scheduled>, MatchError> {
    let mut out = Vec::new();
    let book: Vec<Opening> = match &config.openings {
        Openings::Book { openings, .. } if openings.is_empty() => {
            return Err(MatchError::Config("the openings book is empty".into()))
        }
        Openings::Book { openings, order } => {
            for (i, o) in openings.iter().enumerate() {
                o.check(config.game)
                    .map_err(|message| MatchError::Opening {
                        index: i + 1,
                        message,
                    })?;
            }
            let mut list = openings.clone();
            if let OpeningOrder::Random { seed } = order {
                list.shuffle(&mut SmallRng::seed_from_u64(*seed));
            }
            list
        }
        Openings::RandomPlies { .. } => Vec::new(),
    };
    let mut rng = match &config.openings {
        Openings::RandomPlies { seed, .. } => SmallRng::seed_from_u64(*seed),
        Openings::Book { .. } => SmallRng::seed_from_u64(0),
    };
    let first = config.first_round.saturating_sub(1);
    // A book's round is its index; random lines are drawn in turn, so earlier rounds' lines
    // are drawn (and dropped) to reach round `first`'s.
    let drawn_from = match config.openings {
        Openings::Book { .. } => first,
        Openings::RandomPlies { .. } => 0,
    };
    for round in drawn_from..first.saturating_add(config.rounds) {
        let opening = match &config.openings {
            Openings::Book { .. } => book[round as usize % book.len()].clone(),
            Openings::RandomPlies { plies, .. } => Opening {
                start: "start".into(),
                moves: random_line(config.game, *plies, &mut rng),
            },
        };
        if round < first {
            continue; // played before: only its random line is drawn, to keep the sequence
        }
        for (pair, &[a, b]) in pairs.iter().enumerate() {
            for (k, engines) in [[a, b], [b, a]].into_iter().enumerate() {
                out.push(Scheduled {
                    index: (round as usize * pairs.len() + pair) * 2 + k,
                    round: round + 1,
                    pair,
                    engines,
                    opens_pair: k == 0,
                    opening: opening.clone(),
                });
            }
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

/// The running engine `i` of this worker, started (again) when it is not running.
fn engine<'a>(
    engines: &'a mut HashMap<usize, UciEngine>,
    config: &MatchConfig,
    i: usize,
) -> Result<&'a mut UciEngine, EngineError> {
    if let std::collections::hash_map::Entry::Vacant(slot) = engines.entry(i) {
        slot.insert(UciEngine::start(
            &config.engines[i],
            Some(config.game.name()),
            config.log.clone(),
        )?);
    }
    engines.get_mut(&i).ok_or(EngineError::Crashed)
}

/// Plays one game; an engine that fails loses the game, and is stopped and started again
/// for its next game.
fn play_game(
    config: &MatchConfig,
    job: &Scheduled,
    engines: &mut HashMap<usize, UciEngine>,
) -> Option<GameReport> {
    let engine_of = |side: Side| job.engines[side.index()];
    // Openings were checked when the schedule was made.
    let mut game: Box<dyn AnyGame> = config.game.new_game(&job.opening.start).ok()?;
    let setup = game.to_feen();
    let position_head = if job.opening.start == "start" {
        "position startpos".to_string()
    } else {
        let text = game
            .to_text(PositionFormat::Fen)
            .unwrap_or_else(|_| game.to_feen());
        format!("position fen {text}")
    };
    let mut moves: Vec<(String, f64)> = Vec::new();
    for m in &job.opening.moves {
        if let Ok(texts) = game.play_text(m, MoveNotation::Uci) {
            moves.push((texts.get("pmn").cloned().unwrap_or_else(|| m.clone()), 0.0));
        }
    }
    for i in job.engines {
        if let Ok(e) = engine(engines, config, i) {
            if e.send("ucinewgame").and_then(|()| e.sync()).is_err() {
                engines.remove(&i);
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
    let mut resign_streak = [0u32; 2];
    let mut draw_streak = 0u32;
    while game.outcome().is_none() {
        if game.plies() >= config.max_plies as usize {
            game.declare(Outcome::draw(Status::Movelimit));
            reason = Some("move cap".to_string());
            break;
        }
        let side = game.turn();
        let who = engine_of(side);
        let name = config.engines[who].name.clone();
        let spec = &config.engines[who];
        let played: Vec<String> = game.moves_uci().iter().map(|m| spec.to_engine(m)).collect();
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
            Ok((text, score)) => (spec.from_engine(&text), score),
            Err(EngineError::Timeout(_)) => {
                engines.remove(&who);
                game.declare(Outcome::win(Status::Timelimit, !side));
                reason = Some(format!("time forfeit by {name}"));
                break;
            }
            Err(e) => {
                engines.remove(&who);
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
        if game.outcome().is_some() {
            break;
        }
        if let (Some((threshold, needed)), Some(score)) = (config.resign, score) {
            // Scores are from the mover's view: positive favours `side`.
            let streak = &mut resign_streak;
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
        if let Some(draw) = config.draw {
            // The move number of the move just played (both sides' moves make one).
            let move_number = (game.plies() as u32).div_ceil(2);
            match score {
                Some(s) if move_number >= draw.move_number && s.abs() <= draw.score => {
                    draw_streak += 1;
                }
                _ => draw_streak = 0,
            }
            if draw_streak >= 2 * draw.move_count {
                game.declare(Outcome::draw(Status::Agreement));
                reason = Some("draw adjudication".to_string());
                break;
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
            first: Some(side_info(job.engines[0])),
            second: Some(side_info(job.engines[1])),
        }),
        setup,
        moves,
        status: Some(outcome.status),
        winner: Some(chuhe::record::winner_of(outcome.winner)),
    };
    let pgn = (config.game == GameKind::Xiangqi)
        .then(|| {
            let mut tags = chuhe::pgn::tags_of_pcn(&pcn);
            tags.push(("Termination".into(), reason.clone()));
            chuhe::pgn::write(game.as_ref(), &tags).ok()
        })
        .flatten();
    Some(GameReport {
        index: job.index,
        round: job.round,
        pair: job.pair,
        engines: job.engines,
        outcome,
        reason,
        pcn,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn once_stopped_only_the_second_game_of_a_begun_pair_starts() {
        let config = MatchConfig {
            game: GameKind::Xiangqi,
            engines: Vec::new(),
            tournament: Tournament::RoundRobin,
            time_control: TimeControl::Depth(1),
            rounds: 3,
            first_round: 1,
            openings: Openings::positions(&["start"]),
            concurrency: 3,
            max_plies: 10,
            resign: None,
            draw: None,
            time_margin: Duration::ZERO,
            sprt: None,
            event: String::new(),
            log: None,
        };
        let schedule = schedule(&config, &[[0, 1]]).unwrap();
        let (next, stop) = (Mutex::new(0), AtomicBool::new(false));
        let take = || next_game(&schedule, &next, &stop).map(|g| g.index);
        // Three games at once: both of round 1, the first of round 2.
        assert_eq!([take(), take(), take()], [Some(0), Some(1), Some(2)]);
        stop.store(true, Ordering::Relaxed);
        // Round 2's second game still starts; round 3 does not, however often asked.
        assert_eq!([take(), take(), take()], [Some(3), None, None]);
    }
}
