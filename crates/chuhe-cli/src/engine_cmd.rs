//! The engine's commands: `chuhe uci` (the UCI / UCCI protocol on standard input and
//! output), `chuhe bench` (the fixed-depth bench) and `chuhe analyze` (a search for people).

use std::io;
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use chuhe::{AnyGame, GameOptions, MoveNotation};
use chuhe_engine::eval::xiangqi_net::XiangqiNet;
use chuhe_engine::{
    bench, BestMove, Engine, Limits, Networks, Score, ScoreBound, SearchEvent, SearchInfo,
};
use serde_json::{json, Map, Value};

use crate::output::{CliError, Output};
use crate::{GameKind, Notation, PositionArgs};

/// `chuhe uci`: the protocol driver on standard input and output until `quit` or the end of
/// the input.
pub fn uci(game: chuhe::GameKind) -> Result<(), CliError> {
    chuhe_engine::uci::run(game, io::BufReader::new(io::stdin()), io::stdout())
        .map_err(CliError::Write)
}

// ----- bench ------------------------------------------------------------------------------

/// The flags of `chuhe bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Depth of every search, in plies.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Only this game's positions (default: xiongqi, then xiangqi).
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// The Xiangqi evaluation's network file (default: the network built in).
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
}

/// The Xiangqi network of `--eval-file`, if given: a file that cannot be loaded is an error
/// that names the flag.
fn load_eval_file(command: &str, path: Option<&PathBuf>) -> Result<Networks, CliError> {
    let mut networks = Networks::default();
    if let Some(path) = path {
        let net = XiangqiNet::load(path)
            .map_err(|e| CliError::user(format!("{command}: --eval-file: {e}")))?;
        networks.xiangqi = Arc::new(net);
    }
    Ok(networks)
}

/// `chuhe bench`.
pub fn bench(args: &BenchArgs, out: &mut Output) -> Result<(), CliError> {
    let games: Vec<chuhe::GameKind> = match args.game {
        Some(g) => vec![g.kind()],
        None => vec![chuhe::GameKind::Xiongqi, chuhe::GameKind::Xiangqi],
    };
    let networks = load_eval_file("bench", args.eval_file.as_ref())?;
    if !args.json {
        out.write_now(&format!(
            "bench: depth {}, 1 thread, a fresh {} MB table per position\n",
            args.depth,
            bench::HASH_MB
        ))?;
        if let Some(path) = &args.eval_file {
            out.write_now(&format!(
                "bench: Xiangqi network {:08x} from {}\n",
                networks.xiangqi.checksum(),
                path.display()
            ))?;
        }
    }
    let mut write_error = None;
    let report = bench::run_with(&games, args.depth, &networks, |p| {
        if args.json || write_error.is_some() {
            return;
        }
        let count = bench::positions(p.game).len();
        let line = format!(
            "{} {}/{count} {}: {} nodes, {:.3} s, bestmove {} ({})\n",
            p.game,
            p.index + 1,
            p.position.name,
            p.nodes,
            p.time.as_secs_f64(),
            p.best.as_deref().unwrap_or("(none)"),
            p.score
        );
        if let Err(e) = out.write_now(&line) {
            write_error = Some(e);
        }
    })
    .map_err(|e| CliError::user(format!("bench: {e}")))?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if args.json {
        let games: Vec<Value> = report
            .games
            .iter()
            .map(|g| {
                let positions: Vec<Value> = g
                    .positions
                    .iter()
                    .map(|p| {
                        json!({
                            "name": p.position.name,
                            "position": p.position.position,
                            "nodes": p.nodes,
                            "seconds": seconds(p.time),
                            "best": p.best,
                            "score": score_json(p.score),
                        })
                    })
                    .collect();
                json!({
                    "game": g.game.name(),
                    "positions": positions,
                    "nodes": g.nodes(),
                    "seconds": seconds(g.time()),
                    "nodes_per_second": g.nodes_per_second(),
                })
            })
            .collect();
        let value = json!({
            "depth": report.depth,
            "threads": 1,
            "hash_mb": bench::HASH_MB,
            "xiangqi_network": format!("{:08x}", networks.xiangqi.checksum()),
            "games": games,
            "nodes": report.nodes(),
            "seconds": seconds(report.time()),
            "nodes_per_second": report.nodes_per_second(),
        });
        return out.write(&format!("{value}\n"));
    }
    let mut text = String::new();
    let block = |title: Option<&str>, nodes: u64, time: Duration, nps: u64| {
        let mut s = String::from("\n===========================\n");
        if let Some(title) = title {
            s.push_str(&format!("Game            : {title}\n"));
        }
        s.push_str(&format!(
            "Total time (ms) : {}\nNodes searched  : {nodes}\nNodes/second    : {nps}\n",
            time.as_millis()
        ));
        s
    };
    for g in &report.games {
        text.push_str(&block(
            Some(g.game.name()),
            g.nodes(),
            g.time(),
            g.nodes_per_second(),
        ));
    }
    if report.games.len() > 1 {
        text.push_str(&block(
            None,
            report.nodes(),
            report.time(),
            report.nodes_per_second(),
        ));
    }
    out.write(&text)
}

/// Seconds with at most 6 decimals (microseconds), as `perft --json` writes them.
fn seconds(time: Duration) -> f64 {
    time.as_micros() as f64 / 1e6
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(v) => json!({ "cp": v }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

// ----- analyze ----------------------------------------------------------------------------

/// The flags of `chuhe analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves to play first, separated by spaces.
    #[arg(long, default_value = "")]
    moves: String,
    /// How `--moves` is read.
    #[arg(long, value_enum, default_value = "pmn")]
    notation: Notation,
    /// Search to this depth (plies).
    #[arg(long, conflicts_with_all = ["movetime", "nodes"],
          value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search this many milliseconds (the default is 3000 when no limit is given).
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Lines shown (1–64).
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads (1–256).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB (1–65536).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// One JSON object per line: each line of the search, then the result.
    #[arg(long)]
    json: bool,
    /// The Xiangqi evaluation's network file (default: the network built in).
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
}

/// The default analysis time.
const DEFAULT_MOVETIME: Duration = Duration::from_millis(3000);

/// `chuhe analyze`.
pub fn analyze(args: &AnalyzeArgs, out: &mut Output) -> Result<(), CliError> {
    let game = crate::open(&args.position, &args.moves, args.notation)?;
    let kind = game.kind();
    let networks = load_eval_file("analyze", args.eval_file.as_ref())?;
    let mut engine = Engine::new(kind);
    let setting = |flag: &str, e: chuhe_engine::EngineError| CliError::user(format!("{flag}: {e}"));
    engine
        .set_xiangqi_network(networks.xiangqi)
        .map_err(|e| setting("--eval-file", e))?;
    engine
        .set_hash(args.hash)
        .map_err(|e| setting("--hash", e))?;
    engine
        .set_threads(args.threads)
        .map_err(|e| setting("--threads", e))?;
    engine
        .set_multipv(args.multipv)
        .map_err(|e| setting("--multipv", e))?;
    let moves = game.moves_uci();
    let move_refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let options = GameOptions {
        halfmove: args.position.halfmove,
        repetition_fold: args.position.repetition_count,
    };
    engine
        .set_position_with(&args.position.position, options, &move_refs)
        .map_err(|e| CliError::user(format!("analyze: {e}")))?;

    let view = View {
        engine: &engine,
        game: game.as_ref(),
    };
    if let Some(outcome) = game.outcome() {
        if args.json {
            let mut obj = view.header_json("bestmove");
            obj.insert("best".into(), Value::Null);
            obj.insert("ponder".into(), Value::Null);
            obj.insert("status".into(), json!(outcome.status.as_str()));
            obj.insert("winner".into(), json!(outcome.winner_str()));
            obj.insert("reason".into(), json!(outcome.reason.map(|r| r.as_str())));
            return out.write(&format!("{}\n", Value::Object(obj)));
        }
        return out.write(&format!(
            "the game is over ({}): no move to analyze\n",
            crate::outcome_text(outcome)
        ));
    }

    let limits = match (args.depth, args.movetime, args.nodes) {
        (Some(d), _, _) => Limits::depth(d),
        (None, Some(ms), _) => Limits::movetime(Duration::from_millis(ms)),
        (None, None, Some(n)) => Limits::nodes(n),
        (None, None, None) => Limits::movetime(DEFAULT_MOVETIME),
    };
    if !args.json {
        let limit = match (args.depth, args.movetime, args.nodes) {
            (Some(d), _, _) => format!("depth {d}"),
            (None, Some(ms), _) => format!("{ms} ms"),
            (None, None, Some(n)) => format!("{n} nodes"),
            (None, None, None) => format!("{} ms", DEFAULT_MOVETIME.as_millis()),
        };
        out.write_now(&format!(
            "analyzing {kind} {} ({limit}, {} thread{}, {} MB)\n",
            game.to_feen(),
            args.threads,
            if args.threads == 1 { "" } else { "s" },
            args.hash
        ))?;
    }

    let (tx, rx) = mpsc::channel();
    engine
        .go(limits, move |event| {
            let _ = tx.send(event);
        })
        .map_err(|e| CliError::user(format!("analyze: {e}")))?;
    let view = View {
        engine: &engine,
        game: game.as_ref(),
    };
    let mut result = Ok(());
    for event in rx {
        let written = match event {
            SearchEvent::Info(info) => out.write_now(&if args.json {
                format!("{}\n", view.info_json(&info))
            } else {
                view.info_text(&info, args.multipv > 1)
            }),
            SearchEvent::BestMove(best) => {
                let text = if args.json {
                    format!("{}\n", view.best_json(&best))
                } else {
                    view.best_text(&best)
                };
                result = out.write_now(&text);
                break;
            }
        };
        if let Err(e) = written {
            result = Err(e);
            break;
        }
    }
    engine.stop();
    engine.wait();
    result
}

/// Writes lines of a search from the analyzed position.
struct View<'a> {
    engine: &'a Engine,
    game: &'a dyn AnyGame,
}

impl View<'_> {
    /// A line (engine coordinates) in another notation.
    fn line(&self, pv: &[String], notation: MoveNotation) -> Vec<String> {
        self.engine.line_in(pv, notation)
    }

    fn is_xiangqi(&self) -> bool {
        self.game.notations().contains(&MoveNotation::Wxf)
    }

    /// A line in every notation of the game.
    fn line_json(&self, pv: &[String]) -> Value {
        let obj: Map<String, Value> = self
            .game
            .notations()
            .iter()
            .map(|&n| (n.name().to_string(), json!(self.line(pv, n))))
            .collect();
        Value::Object(obj)
    }

    /// Win, draw and loss in permille for the side to move at `score`, by the engine's
    /// fitted model (what `UCI_ShowWDL` prints).
    fn wdl_json(&self, score: Score) -> Value {
        let (win, draw, loss) = self.engine.wdl(score);
        json!({"win": win, "draw": draw, "loss": loss})
    }

    fn header_json(&self, kind: &str) -> Map<String, Value> {
        let mut obj = Map::new();
        obj.insert("type".into(), json!(kind));
        obj.insert("game".into(), json!(self.game.kind().name()));
        obj.insert("position".into(), json!(self.game.to_feen()));
        obj
    }

    fn info_json(&self, info: &SearchInfo) -> Value {
        let mut obj = Map::new();
        obj.insert("type".into(), json!("info"));
        obj.insert("depth".into(), json!(info.depth));
        obj.insert("seldepth".into(), json!(info.seldepth));
        obj.insert("multipv".into(), json!(info.multipv));
        obj.insert("score".into(), score_json(info.score));
        obj.insert("wdl".into(), self.wdl_json(info.score));
        obj.insert(
            "bound".into(),
            match info.bound {
                None => Value::Null,
                Some(ScoreBound::Lower) => json!("lower"),
                Some(ScoreBound::Upper) => json!("upper"),
            },
        );
        obj.insert("nodes".into(), json!(info.nodes));
        obj.insert("nps".into(), json!(info.nps));
        obj.insert("seconds".into(), json!(seconds(info.time)));
        obj.insert("hashfull".into(), json!(info.hashfull));
        obj.insert("pv".into(), self.line_json(&info.pv));
        Value::Object(obj)
    }

    fn info_text(&self, info: &SearchInfo, multipv: bool) -> String {
        let bound = match info.bound {
            None => "",
            Some(ScoreBound::Lower) => ", lower bound",
            Some(ScoreBound::Upper) => ", upper bound",
        };
        let mut head = format!("depth {}", info.depth);
        if multipv {
            head.push_str(&format!("  line {}", info.multipv));
        }
        head.push_str(&format!(
            "  score {}  ({}{bound})  nodes {}  nps {}  pv ",
            human_score(info.score),
            info.score,
            info.nodes,
            info.nps
        ));
        let mut text = format!(
            "{head}{}\n",
            self.line(&info.pv, MoveNotation::Pmn).join(" ")
        );
        if self.is_xiangqi() {
            let pad = head.chars().count().saturating_sub(4);
            text.push_str(&format!(
                "{:pad$}wxf {}\n",
                "",
                self.line(&info.pv, MoveNotation::Wxf).join(" ")
            ));
        }
        text
    }

    fn best_json(&self, best: &BestMove) -> Value {
        let mut obj = self.header_json("bestmove");
        let single = |m: &Option<String>, index: usize| -> Value {
            match m {
                None => Value::Null,
                Some(_) => {
                    let texts: Map<String, Value> = self
                        .game
                        .notations()
                        .iter()
                        .filter_map(|&n| {
                            let line = self.line(&best.pv, n);
                            line.get(index).map(|t| (n.name().to_string(), json!(t)))
                        })
                        .collect();
                    Value::Object(texts)
                }
            }
        };
        obj.insert("best".into(), single(&best.best, 0));
        obj.insert("ponder".into(), single(&best.ponder, 1));
        obj.insert("score".into(), score_json(best.score));
        obj.insert("wdl".into(), self.wdl_json(best.score));
        obj.insert("depth".into(), json!(best.depth));
        obj.insert("nodes".into(), json!(best.nodes));
        obj.insert("seconds".into(), json!(seconds(best.time)));
        obj.insert(
            "nodes_per_second".into(),
            json!(per_second(best.nodes, best.time)),
        );
        obj.insert("pv".into(), self.line_json(&best.pv));
        obj.insert("status".into(), Value::Null);
        obj.insert("winner".into(), Value::Null);
        Value::Object(obj)
    }

    fn best_text(&self, best: &BestMove) -> String {
        let Some(uci) = &best.best else {
            return "no move found\n".to_string();
        };
        let pmn = self.line(&best.pv, MoveNotation::Pmn);
        let mut text = format!(
            "bestmove {}",
            pmn.first().map_or(uci.as_str(), String::as_str)
        );
        if self.is_xiangqi() {
            if let Some(w) = self.line(&best.pv, MoveNotation::Wxf).first() {
                text.push_str(&format!(" ({w})"));
            }
        }
        if let Some(p) = pmn.get(1) {
            text.push_str(&format!("  ponder {p}"));
        }
        text.push_str(&format!(
            "  score {}  ({})  depth {}  nodes {}  time {:.3} s  nps {}\n",
            human_score(best.score),
            best.score,
            best.depth,
            best.nodes,
            best.time.as_secs_f64(),
            per_second(best.nodes, best.time)
        ));
        text
    }
}

/// `+0.35`, `-1.20`, `#3`, `#-2`: a score for people (pawns, or moves to a forced end).
fn human_score(score: Score) -> String {
    match score {
        Score::Cp(v) => format!(
            "{}{}.{:02}",
            if v < 0 { "-" } else { "+" },
            v.abs() / 100,
            v.abs() % 100
        ),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn per_second(nodes: u64, time: Duration) -> u64 {
    let s = time.as_secs_f64();
    if s > 0.0 {
        (nodes as f64 / s).round() as u64
    } else {
        0
    }
}
