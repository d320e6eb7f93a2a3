//! `chuhe match`: games between two UCI engines, judged by chuhe (see the `chuhe-match` crate).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use chuhe_match::{EngineSpec, MatchConfig, Openings, Sprt, TimeControl};

use crate::output::{CliError, Output};
use crate::GameKind;

/// The flags of `chuhe match`. A flag given twice takes its last value (so scripts can
/// append overrides).
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: GameKind,
    /// An engine, twice: `"cmd=PROGRAM [arg=A]… [name=N] [option.NAME=VALUE]… [tc=B+I | movetime=MS | nodes=N | depth=N]"` (its own time control overrides the match's).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Clock per game, `BASE+INCREMENT` in seconds (`10+0.1`).
    #[arg(long, conflicts_with_all = ["movetime", "nodes", "depth"])]
    tc: Option<String>,
    /// Milliseconds per move.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Rounds; each plays one opening twice, colours swapped.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// A file of opening positions (`start`, FEEN, or FEN for Xiangqi), one per line.
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Openings of this many random plies from the start position.
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A game reaching this many plies is a draw (`movelimit`).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Score adjudication `CP,MOVES`: a side both engines see ahead by CP centipawns for MOVES
    /// moves each wins.
    #[arg(long)]
    resign: Option<String>,
    /// Milliseconds of grace beyond the clock before a time forfeit.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Stop early by an SPRT: `elo0,elo1,alpha,beta`.
    #[arg(long)]
    sprt: Option<String>,
    /// Write every game as a PCN file into this folder.
    #[arg(long)]
    pcn_dir: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

fn user(e: impl ToString) -> CliError {
    CliError::user(e.to_string())
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    let engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_, _>>()
        .map_err(user)?;
    let [a, b] = <[EngineSpec; 2]>::try_from(engines).map_err(|v| {
        user(format!(
            "match needs exactly two --engine, found {}",
            v.len()
        ))
    })?;
    let time_control = match (&args.tc, args.movetime, args.nodes, args.depth) {
        (Some(tc), ..) => TimeControl::parse_clock(tc).map_err(user)?,
        (None, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, None, Some(n), _) => TimeControl::Nodes(n),
        (None, None, None, Some(d)) => TimeControl::Depth(d),
        (None, None, None, None) => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| user(format!("cannot read {}: {e}", path.display())))?;
            Openings::Positions(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(String::from)
                    .collect(),
            )
        }
        None if args.random_plies > 0 => Openings::RandomPlies {
            plies: args.random_plies,
            seed: args.seed,
        },
        None => Openings::Positions(vec!["start".into()]),
    };
    let resign = match &args.resign {
        None => None,
        Some(text) => {
            let parsed = text
                .split_once(',')
                .and_then(|(cp, n)| Some((cp.trim().parse().ok()?, n.trim().parse().ok()?)));
            Some(parsed.ok_or_else(|| {
                user(format!(
                    "--resign '{}' is not CP,MOVES (e.g. 1000,3)",
                    chuhe::quote_input(text)
                ))
            })?)
        }
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(user)?;
    Ok(MatchConfig {
        game: args.game.kind(),
        engines: [a, b],
        time_control,
        rounds: args.rounds,
        openings,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        resign,
        time_margin: Duration::from_millis(args.time_margin),
        sprt,
        event: format!("chuhe match ({})", args.game.kind()),
    })
}

/// Runs `chuhe match`.
pub fn run(args: &MatchArgs, out: &mut Output) -> Result<(), CliError> {
    let config = config(args)?;
    if let Some(dir) = &args.pcn_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| user(format!("cannot create {}: {e}", dir.display())))?;
    }
    let total = u64::from(config.rounds) * 2;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:25} {pos}/{len} {msg}") {
            bar.set_style(style);
        }
        bar
    });
    let mut write_error = None;
    let sprt = config.sprt;
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let mut on_game = |report: &chuhe_match::GameReport, tally: &chuhe_match::Tally| {
        let (elo, err) = tally.elo();
        let mut line = format!(
            "{} vs {}: +{} ={} -{}  score {:.1}%  Elo {elo:+.1} ± {err:.1}",
            names[0],
            names[1],
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score()
        );
        if let Some(sprt) = &sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!(
                "  SPRT llr {:.2} ({lower:.2}, {upper:.2})",
                sprt.llr(tally)
            ));
        }
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(line);
        }
        if let Some(dir) = &args.pcn_dir {
            let path = dir.join(format!("game-{:04}.pcn", report.index + 1));
            if let Err(e) = std::fs::write(&path, report.pcn.to_json_pretty()) {
                write_error.get_or_insert(user(format!("cannot write {}: {e}", path.display())));
            }
        }
    };
    let summary = chuhe_match::run_match(&config, Arc::new(AtomicBool::new(false)), &mut on_game)
        .map_err(user)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    if args.json {
        let value = serde_json::to_value(&summary).map_err(user)?;
        return out.write(&format!("{value}\n"));
    }
    let t = summary.tally;
    let mut text = format!(
        "{} vs {} ({}): {} games, +{} ={} -{}, score {:.1}%, Elo {:+.1} ± {:.1}\n",
        summary.engines[0],
        summary.engines[1],
        summary.game,
        summary.games,
        t.wins,
        t.draws,
        t.losses,
        100.0 * summary.score,
        summary.elo,
        summary.elo_error
    );
    for (reason, n) in &summary.endings {
        text.push_str(&format!("  {n} × {reason}\n"));
    }
    if let Some(sprt) = &summary.sprt {
        text.push_str(&format!(
            "SPRT: llr {:.2} ({:.2}, {:.2}) {}\n",
            sprt["llr"].as_f64().unwrap_or(0.0),
            sprt["lower"].as_f64().unwrap_or(0.0),
            sprt["upper"].as_f64().unwrap_or(0.0),
            sprt["verdict"].as_str().unwrap_or("")
        ));
    }
    out.write(&text)
}
