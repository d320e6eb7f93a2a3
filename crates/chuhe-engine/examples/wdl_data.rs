//! Data for the win/draw/loss model (`chuhe_engine::wdl`, `scripts/fit_wdl.py`): self-play
//! games at a fixed node budget from random openings (`chuhe_engine::eval::tune::self_play`,
//! the Texel tuner's games), one line per searched position after the opening:
//!
//! ```text
//! game<TAB>ply<TAB>material<TAB>score<TAB>result
//! ```
//!
//! `material` is the number of pieces on the board other than the two terminal pieces
//! (generals, dragons): [`chuhe_engine::wdl::material`]; `score` the search's centipawns from
//! the side to move's view (positions scored as a forced end are left out); `result` the
//! game's result from the side to move's view: `1`, `0.5` or `0`. See `docs/TUNING.md`,
//! "Win/draw/loss model".
//!
//! ```text
//! cargo run --release -p chuhe-engine --example wdl_data -- --game xiangqi --games 800 \
//!     --seed 7 --out target/wdl/xiangqi.tsv
//! ```

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use chuhe::{xiangqi, xiongqi, GameKind, GamePosition, Side};
use chuhe_engine::eval::tune::{self, PlaySettings, SearchedPosition};
use chuhe_engine::{wdl, Score};

const USAGE: &str = "\
usage: wdl_data --game xiangqi|xiongqi --out PATH [options]

  --games N             self-play games [20]
  --nodes N             nodes per move (each move draws within ±25 %) [3000]
  --random-plies A-B    random plies at the start of each game [2-8]
  --seed N              random seed [1]
";

struct Args {
    game: GameKind,
    out: PathBuf,
    games: u64,
    nodes: u64,
    random: (u32, u32),
    seed: u64,
}

fn parse_args() -> Result<Args, String> {
    let (mut game, mut out) = (None, None);
    let mut a = Args {
        game: GameKind::Xiangqi,
        out: PathBuf::new(),
        games: 20,
        nodes: 3000,
        random: (2, 8),
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("{flag}: bad value {v:?}"))
        }
        match flag.as_str() {
            "--game" => game = Some(value()?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--games" => a.games = num(&flag, value()?)?,
            "--nodes" => a.nodes = num(&flag, value()?)?,
            "--seed" => a.seed = num(&flag, value()?)?,
            "--random-plies" => {
                let v = value()?;
                let (lo, hi) = v.split_once('-').unwrap_or((&v, &v));
                a.random = (num(&flag, lo.to_string())?, num(&flag, hi.to_string())?);
                if a.random.0 > a.random.1 {
                    return Err(format!("{flag}: {v} is an empty range"));
                }
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    a.game = match game.as_deref() {
        Some("xiangqi") => GameKind::Xiangqi,
        Some("xiongqi") => GameKind::Xiongqi,
        Some(g) => return Err(format!("--game: {g:?} is not xiangqi or xiongqi")),
        None => return Err("--game is required".into()),
    };
    a.out = out.ok_or("--out is required")?;
    Ok(a)
}

/// The material of a FEEN of `kind`, as the engine counts it for its WDL figures.
fn material_of(kind: GameKind, feen: &str) -> Option<u32> {
    match kind {
        GameKind::Xiongqi => xiongqi::Position::from_text(feen, ())
            .ok()
            .map(|p| wdl::material(&p)),
        _ => xiangqi::Position::from_text(feen, xiangqi::RuleSet::Standard)
            .ok()
            .map(|p| wdl::material(&p)),
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("wdl_data: {e}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wdl_data: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let path = &args.out;
    let io_err = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut out = BufWriter::new(File::create(path).map_err(io_err)?);
    writeln!(
        out,
        "# wdl_data --game {} --games {} --nodes {} --random-plies {}-{} --seed {}\n\
         # game\tply\tmaterial\tscore\tresult",
        args.game.name(),
        args.games,
        args.nodes,
        args.random.0,
        args.random.1,
        args.seed
    )
    .map_err(io_err)?;
    let settings = PlaySettings {
        nodes: args.nodes,
        random_plies: args.random,
        ..PlaySettings::default()
    };
    let mut written = 0u64;
    let kind = args.game;
    let stats = tune::self_play(
        kind,
        args.games,
        &settings,
        args.seed,
        |g, positions, result, stats| {
            for p in positions {
                if let Some(line) = data_line(kind, g, p, result.0) {
                    writeln!(out, "{line}")?;
                    written += 1;
                }
            }
            if stats.games % 20 == 0 {
                eprintln!(
                    "  {} games, {written} positions, results +{} ={} -{}, {:.0} s",
                    stats.games,
                    stats.results[0],
                    stats.results[1],
                    stats.results[2],
                    stats.seconds
                );
            }
            Ok(())
        },
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    eprintln!(
        "{} {} games, {written} positions (first player +{} ={} -{}) in {:.0} s into {}",
        stats.games,
        kind.name(),
        stats.results[0],
        stats.results[1],
        stats.results[2],
        stats.seconds,
        path.display()
    );
    Ok(())
}

/// The data line of one searched position, `None` for a forced-end score.
fn data_line(kind: GameKind, game: u64, p: &SearchedPosition, first_result: f64) -> Option<String> {
    let Score::Cp(cp) = p.score else {
        return None;
    };
    let material = material_of(kind, &p.feen)?;
    let result = match p.turn {
        Side::First => first_result,
        Side::Second => 1.0 - first_result,
    };
    Some(format!("{game}\t{}\t{material}\t{cp}\t{result}", p.ply))
}
