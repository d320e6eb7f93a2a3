//! Adds a reference engine's score to the positions of a tuning data file, for the tuner's
//! `--score-weight` (docs/TUNING.md): each line `game<TAB>result<TAB>FEEN` becomes
//! `game<TAB>result<TAB>FEEN<TAB>score`, the score in centipawns from the first player's view
//! (a mate as ±100000), found by the engine searching the position with the given `go`
//! arguments. Positions are shared among several instances of the engine.
//!
//! ```text
//! cargo run --release -p chuhe-match --example label -- --game xiangqi \
//!     --engine "cmd=/usr/games/fairy-stockfish option.UCI_Variant=xiangqi" --go "depth 5" \
//!     --every 2 --jobs 2 target/tune/xiangqi.txt target/tune/xiangqi-scored.txt
//! ```

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chuhe::{GameKind, PositionFormat, Side};
use chuhe_match::{EngineSpec, UciEngine};

const USAGE: &str = "\
usage: label --game G --engine SPEC [--go ARGS] [--every N] [--jobs N] IN OUT

  --game G        xiangqi | xiangqi-capture | xiongqi
  --engine SPEC   the reference engine, as for `chuhe match` (cmd=… option.X=Y …)
  --go ARGS       what follows `go` for each position [depth 5]
  --every N       score every N-th line only; the others are left out of OUT [1]
  --jobs N        engine instances searching side by side [1]
";

struct Args {
    game: GameKind,
    engine: EngineSpec,
    go: String,
    every: usize,
    jobs: usize,
    input: String,
    output: String,
}

fn parse_args() -> Result<Args, String> {
    let mut game = None;
    let mut engine = None;
    let mut go = "depth 5".to_string();
    let mut every = 1;
    let mut jobs = 1;
    let mut files = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--game" => game = Some(value()?.parse::<GameKind>().map_err(|e| e.to_string())?),
            "--engine" => engine = Some(EngineSpec::parse(&value()?)?),
            "--go" => go = value()?,
            "--every" => every = value()?.parse().map_err(|_| "--every needs a number")?,
            "--jobs" => jobs = value()?.parse().map_err(|_| "--jobs needs a number")?,
            "-h" | "--help" => return Err(String::new()),
            f if f.starts_with("--") => return Err(format!("unknown flag {f}")),
            _ => files.push(flag),
        }
    }
    let [input, output]: [String; 2] = files
        .try_into()
        .map_err(|_| "give the input and output files".to_string())?;
    Ok(Args {
        game: game.ok_or("--game is required")?,
        engine: engine.ok_or("--engine is required")?,
        go,
        every: every.max(1),
        jobs: jobs.max(1),
        input,
        output,
    })
}

/// The engine's score of one data line, from the first player's view; `None` when the line
/// cannot be read or the engine has nothing to say (no legal move).
fn score_line(engine: &mut UciEngine, game: GameKind, go: &str, line: &str) -> Option<i32> {
    let feen = line.splitn(3, '\t').nth(2)?;
    let position = game.new_game(feen).ok()?;
    let text = position
        .to_text(PositionFormat::Fen)
        .unwrap_or_else(|_| position.to_feen());
    let deadline = Instant::now() + Duration::from_secs(60);
    let (_, score) = engine
        .best_move(
            &format!("position fen {text}"),
            &format!("go {go}"),
            deadline,
        )
        .ok()?;
    let score = score?;
    Some(match position.turn() {
        Side::First => score,
        Side::Second => -score,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("label: {e}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let lines: Vec<String> = match File::open(&args.input) {
        Ok(f) => BufReader::new(f)
            .lines()
            .map_while(Result::ok)
            .step_by(args.every)
            .collect(),
        Err(e) => {
            eprintln!("label: {}: {e}", args.input);
            return ExitCode::FAILURE;
        }
    };
    let scores: Vec<Mutex<Option<i32>>> = lines.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let failed = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.jobs)
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let mut engine = UciEngine::start(&args.engine, Some(args.game.name()), None)
                        .map_err(|e| e.to_string())?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(line) = lines.get(i) else { break };
                        let score = score_line(&mut engine, args.game, &args.go, line);
                        if let Ok(mut slot) = scores[i].lock() {
                            *slot = score;
                        }
                        if i % 5000 == 0 && i > 0 {
                            eprintln!(
                                "  {i} of {} positions, {:.0} s",
                                lines.len(),
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    engine.quit();
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| w.join().ok().and_then(Result::err))
            .inspect(|e| eprintln!("label: engine: {e}"))
            .count()
    });
    if failed == args.jobs {
        return ExitCode::FAILURE;
    }
    let write = || -> std::io::Result<usize> {
        let mut out = BufWriter::new(File::create(&args.output)?);
        let mut written = 0;
        for (line, score) in lines.iter().zip(&scores) {
            if let Some(s) = score.lock().ok().and_then(|s| *s) {
                writeln!(out, "{line}\t{s}")?;
                written += 1;
            }
        }
        out.flush()?;
        Ok(written)
    };
    match write() {
        Ok(n) => {
            eprintln!(
                "scored {n} of {} positions in {:.0} s into {}",
                lines.len(),
                started.elapsed().as_secs_f64(),
                args.output
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("label: {}: {e}", args.output);
            ExitCode::FAILURE
        }
    }
}
