//! `chuhe match`: games between UCI engines, judged by chuhe (see the `chuhe-match` crate).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chuhe_match::{
    BookFormat, DrawAdjudication, EloModel, EngineLog, EngineSpec, Figures, MatchConfig,
    MatchEvent, OpeningOrder, Openings, PairStats, PlayedGame, Sprt, Summary, TimeControl,
    Tournament,
};

use crate::output::{CliError, Output};
use crate::GameKind;

/// The flags of `chuhe match`. A flag given twice takes its last value (so scripts can
/// append overrides); `--engine` adds an engine each time.
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: GameKind,
    /// Judge the game of a rules directory (its GGN, FEEN and `rules.json` manifest, as in
    /// `games/`) instead of `--game`; the engines must play it too (`chuhe uci --rules DIR`).
    #[arg(long, value_name = "DIR", conflicts_with = "game")]
    rules: Option<PathBuf>,
    /// An engine, at least twice: `"cmd=PROGRAM [arg=A]… [name=N] [option.NAME=VALUE]… [tc=B+I | movetime=MS | nodes=N | depth=N] [ranks=0]"`, split into words as a shell does (quote a value or a whole `option.NAME=VALUE` with spaces); its own time control overrides the match's; `ranks=0` for an engine whose moves count ranks from 0 (Pikafish: `h2e2`).
    #[arg(long = "engine", required = true, num_args = 1, action = clap::ArgAction::Append)]
    engines: Vec<String>,
    /// Settings for every engine, written as in `--engine` (options, arguments, a time control); an engine's own settings win.
    #[arg(long)]
    each: Option<String>,
    /// With more than two engines: `round-robin` (everyone meets everyone) or `gauntlet` (the first engine meets each other one).
    #[arg(long, value_enum, default_value = "round-robin")]
    tournament: TournamentArg,
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
    /// Rounds; in each, every pair plays one opening twice, colours swapped.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Begin at this round (from 1), playing exactly what the whole match would from there (openings, random lines, game numbers): continues a match stopped after the round before.
    #[arg(long, default_value_t = 1)]
    from_round: u32,
    /// An opening book: EPD/FEN/FEEN lines (`start` too; `#` comments), a PGN file (`.pgn`) or PCN records (`.pcn`).
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// How the book is written, when its name does not say: `lines` (EPD/FEN/FEEN), `pgn` or `pcn`.
    #[arg(long, value_enum, requires = "openings")]
    openings_format: Option<BookFormatArg>,
    /// The book's order: `sequential` (as written) or `random` (shuffled by --seed).
    #[arg(long, value_enum, default_value = "sequential")]
    openings_order: OrderArg,
    /// Openings of this many random plies from the start position.
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Seed of the random openings and of the shuffled book.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (at least 1).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A game reaching this many plies is a draw (`movelimit`).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Score adjudication `CP,MOVES`: a side both engines see ahead by CP centipawns for MOVES
    /// moves each wins.
    #[arg(long)]
    resign: Option<String>,
    /// Draw adjudication `MOVENUMBER,MOVECOUNT,SCORE`: from move MOVENUMBER on, both engines' scores within SCORE centipawns of 0 for MOVECOUNT moves each is a draw.
    #[arg(long)]
    draw: Option<String>,
    /// Milliseconds of grace beyond the clock before a time forfeit.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Stop early by an SPRT on game pairs: `elo0,elo1,alpha,beta`.
    #[arg(long)]
    sprt: Option<String>,
    /// The Elo of --sprt's bounds: `normalized` (as fastchess) or `logistic` (as cutechess-cli).
    #[arg(long, value_enum, default_value = "normalized")]
    sprt_model: ModelArg,
    /// Write every game as a PCN file into this folder.
    #[arg(long)]
    pcn_dir: Option<PathBuf>,
    /// Write every game into this PGN file (Xiangqi only), as pychess writes PGN.
    #[arg(long)]
    pgn_out: Option<PathBuf>,
    /// Write every line sent to and received from each engine into this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// When standard error is not a terminal: the standings every N finished games (0: never).
    #[arg(long, default_value_t = 10)]
    report_every: u32,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

/// The flags of `chuhe tally`.
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct TallyArgs {
    /// PCN records of finished games, as `chuhe match --pcn-dir` writes them: files (one record or several) or folders (their `.pcn` files, by name). Each path is one group: a round's two games pair up within it.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The SPRT to report on the game pairs: `elo0,elo1,alpha,beta`.
    #[arg(long)]
    sprt: Option<String>,
    /// The Elo of --sprt's bounds: `normalized` (as fastchess) or `logistic` (as cutechess-cli).
    #[arg(long, value_enum, default_value = "normalized")]
    sprt_model: ModelArg,
    /// Print the summary as one JSON object, as `chuhe match --json` does.
    #[arg(long)]
    json: bool,
}

/// `chuhe tally`: the summary `chuhe match` would give of games already played.
pub fn tally(args: &TallyArgs, out: &mut Output) -> Result<(), CliError> {
    let sprt = sprt_of(args.sprt.as_deref(), args.sprt_model)?;
    let mut games = Vec::new();
    for (group, path) in args.paths.iter().enumerate() {
        let files = if path.is_dir() {
            let entries = std::fs::read_dir(path)
                .map_err(|e| user(format!("cannot read {}: {e}", path.display())))?;
            let mut files = Vec::new();
            for entry in entries {
                let entry =
                    entry.map_err(|e| user(format!("cannot read {}: {e}", path.display())))?;
                let file = entry.path();
                if file.extension().is_some_and(|x| x == "pcn") {
                    files.push(file);
                }
            }
            if files.is_empty() {
                return Err(user(format!("{}: no .pcn files in it", path.display())));
            }
            files.sort();
            files
        } else {
            vec![path.clone()]
        };
        for file in files {
            read_records(&file, group, &mut games)?;
        }
    }
    let summary = chuhe_match::tally(&games, sprt).map_err(user)?;
    for warning in &summary.warnings {
        eprintln!("warning: {warning}");
    }
    if args.json {
        let value = serde_json::to_value(&summary).map_err(user)?;
        return out.write(&format!("{value}\n"));
    }
    out.write(&summary_text(&summary, u64::from(summary.games)))
}

/// Appends the records of one PCN file to `games`.
fn read_records(
    file: &std::path::Path,
    group: usize,
    games: &mut Vec<PlayedGame>,
) -> Result<(), CliError> {
    let reader = std::fs::File::open(file)
        .map(std::io::BufReader::new)
        .map_err(|e| user(format!("cannot read {}: {e}", file.display())))?;
    let before = games.len();
    for text in chuhe::record_stream::texts(reader) {
        let text = text.map_err(|e| user(format!("{}: {e}", file.display())))?;
        let label = if text.index == 1 {
            file.display().to_string()
        } else {
            format!("{} (record {})", file.display(), text.index)
        };
        let pcn = chuhe::notation::pcn::Pcn::from_json(&text.text)
            .map_err(|e| user(format!("{label}: {e}")))?;
        games.push(PlayedGame { label, group, pcn });
    }
    if games.len() == before {
        return Err(user(format!("{}: no PCN record in it", file.display())));
    }
    Ok(())
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum TournamentArg {
    RoundRobin,
    Gauntlet,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum BookFormatArg {
    Lines,
    Epd,
    Fen,
    Pgn,
    Pcn,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum OrderArg {
    Sequential,
    Random,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ModelArg {
    Normalized,
    Logistic,
}

fn user(e: impl ToString) -> CliError {
    CliError::user(e.to_string())
}

/// The SPRT of `--sprt` and `--sprt-model`.
fn sprt_of(text: Option<&str>, model: ModelArg) -> Result<Option<Sprt>, CliError> {
    let sprt = text.map(Sprt::parse).transpose().map_err(user)?;
    Ok(sprt.map(|mut s| {
        s.model = match model {
            ModelArg::Normalized => EloModel::Normalized,
            ModelArg::Logistic => EloModel::Logistic,
        };
        s
    }))
}

/// Two or three numbers separated by commas.
fn numbers<const N: usize>(text: &str) -> Option<[i64; N]> {
    let values: Vec<i64> = text
        .split(',')
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    values.try_into().ok()
}

fn engines(args: &MatchArgs) -> Result<Vec<EngineSpec>, CliError> {
    let shared = args
        .each
        .as_deref()
        .map(EngineSpec::parse_settings)
        .transpose()
        .map_err(|e| user(format!("--each: {e}")))?;
    let mut specs: Vec<EngineSpec> = Vec::new();
    for text in &args.engines {
        let mut spec = EngineSpec::parse_settings(text).map_err(user)?;
        if let Some(shared) = &shared {
            spec = spec.with_shared(shared).map_err(user)?;
        }
        let mut spec = spec.finish(text).map_err(user)?;
        // Two engines of the same name (self-play of one program) get numbered.
        let base = spec.name.clone();
        let mut k = 2;
        while specs.iter().any(|s| s.name == spec.name) {
            spec.name = format!("{base}-{k}");
            k += 1;
        }
        specs.push(spec);
    }
    if specs.len() < 2 {
        return Err(user(format!(
            "match needs at least two --engine, found {}",
            specs.len()
        )));
    }
    Ok(specs)
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    let engines = engines(args)?;
    if args.concurrency == 0 {
        return Err(user(
            "--concurrency 0: at least one game must be played at a time",
        ));
    }
    let time_control = match (&args.tc, args.movetime, args.nodes, args.depth) {
        (Some(tc), ..) => TimeControl::parse_clock(tc).map_err(user)?,
        (None, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, None, Some(n), _) => TimeControl::Nodes(n),
        (None, None, None, Some(d)) => TimeControl::Depth(d),
        (None, None, None, None) => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    let game = match &args.rules {
        Some(dir) => crate::rules_kind(dir)?,
        None => args.game.kind(),
    };
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| user(format!("cannot read {}: {e}", path.display())))?;
            let format = match args.openings_format {
                None => BookFormat::of_path(path),
                Some(BookFormatArg::Pgn) => BookFormat::Pgn,
                Some(BookFormatArg::Pcn) => BookFormat::Pcn,
                Some(_) => BookFormat::Lines,
            };
            let openings = chuhe_match::read_book(game, &text, format)
                .map_err(|e| user(format!("--openings {}: {e}", path.display())))?;
            Openings::Book {
                openings,
                order: match args.openings_order {
                    OrderArg::Sequential => OpeningOrder::Sequential,
                    OrderArg::Random => OpeningOrder::Random { seed: args.seed },
                },
            }
        }
        None if args.random_plies > 0 => Openings::RandomPlies {
            plies: args.random_plies,
            seed: args.seed,
        },
        None => Openings::positions(&["start"]),
    };
    let resign = match &args.resign {
        None => None,
        Some(text) => Some(
            numbers::<2>(text)
                .and_then(|[cp, n]| Some((i32::try_from(cp).ok()?, u32::try_from(n).ok()?)))
                .ok_or_else(|| {
                    user(format!(
                        "--resign '{}' is not CP,MOVES (e.g. 1000,3)",
                        chuhe::quote_input(text)
                    ))
                })?,
        ),
    };
    let draw = match &args.draw {
        None => None,
        Some(text) => Some(
            numbers::<3>(text)
                .and_then(|[number, count, score]| {
                    Some(DrawAdjudication {
                        move_number: u32::try_from(number).ok()?,
                        move_count: u32::try_from(count).ok().filter(|&c| c > 0)?,
                        score: i32::try_from(score).ok().filter(|&s| s >= 0)?,
                    })
                })
                .ok_or_else(|| {
                    user(format!(
                        "--draw '{}' is not MOVENUMBER,MOVECOUNT,SCORE (e.g. 40,8,10; MOVECOUNT at least 1, SCORE at least 0)",
                        chuhe::quote_input(text)
                    ))
                })?,
        ),
    };
    let sprt = sprt_of(args.sprt.as_deref(), args.sprt_model)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(user(
            "--sprt tests one engine against another: give exactly two --engine",
        ));
    }
    if args.pgn_out.is_some() && game != chuhe::GameKind::Xiangqi {
        return Err(user(format!(
            "--pgn-out: chuhe writes PGN for Xiangqi only, not {game}; use --pcn-dir"
        )));
    }
    let log = match &args.log {
        None => None,
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| user(format!("cannot create {}: {e}", path.display())))?;
            Some(EngineLog::new(Box::new(file)))
        }
    };
    Ok(MatchConfig {
        game,
        engines,
        tournament: match args.tournament {
            TournamentArg::RoundRobin => Tournament::RoundRobin,
            TournamentArg::Gauntlet => Tournament::Gauntlet,
        },
        time_control,
        rounds: args.rounds,
        first_round: args.from_round,
        openings,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        resign,
        draw,
        time_margin: Duration::from_millis(args.time_margin),
        sprt,
        event: format!("chuhe match ({game})"),
        log,
    })
}

/// `+3 =4 -3, score 50.0%, Elo +0.0 ± 120.3`
fn figures_text(f: &Figures) -> String {
    let t = f.tally;
    let elo = chuhe_match::EloEstimate {
        elo: f.elo,
        error: f.elo_error,
    };
    format!(
        "+{} ={} -{}, score {:.1}%, {}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * f.score,
        elo.describe(f.score)
    )
}

/// `pairs [LL, LD, DD+WL, WD, WW] [0, 2, 1, 2, 0] (DD 1, WL 0), Elo …, nElo …`
fn pentanomial_text(f: &Figures) -> String {
    let p = &f.pentanomial;
    let elo = chuhe_match::EloEstimate {
        elo: p.elo,
        error: p.elo_error,
    };
    let pair_score = if p.pairs == 0 {
        0.5
    } else {
        (p.counts[1] as f64 * 0.25
            + p.counts[2] as f64 * 0.5
            + p.counts[3] as f64 * 0.75
            + p.counts[4] as f64)
            / p.pairs as f64
    };
    let nelo = match (p.nelo, p.nelo_error) {
        (Some(n), Some(e)) => format!("nElo {:+.1} ± {e:.1}", chuhe_match::tidy(n, 1)),
        _ => "nElo n/a (every pair scored the same)".to_string(),
    };
    format!(
        "pairs [LL, LD, DD+WL, WD, WW] {:?} (DD {}, WL {}), {}, {nelo}",
        p.counts,
        p.dd,
        p.wl,
        elo.describe(pair_score)
    )
}

fn sprt_text(f: &Figures) -> Option<String> {
    let s = f.sprt.as_ref()?;
    let model = match s.model {
        EloModel::Normalized => "normalized",
        EloModel::Logistic => "logistic",
    };
    Some(format!(
        "SPRT ({model} Elo {} vs {}, alpha {}, beta {}): llr {:.2} ({:.2}, {:.2}) {} (single games: llr {:.2})",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        s.llr,
        s.lower,
        s.upper,
        match s.verdict {
            chuhe_match::SprtVerdict::Continue => "continue",
            chuhe_match::SprtVerdict::H0 => "H0 accepted",
            chuhe_match::SprtVerdict::H1 => "H1 accepted",
        },
        s.llr_trinomial
    ))
}

/// One line of a pair's standing so far.
fn pair_line(names: &[String], pair: &PairStats, sprt: Option<&Sprt>) -> String {
    let f = pair.figures(sprt);
    let mut line = format!(
        "{} vs {}: {} games, {}, ptnml {:?}",
        names[pair.engines[0]],
        names[pair.engines[1]],
        pair.tally.games(),
        figures_text(&f),
        f.pentanomial.counts
    );
    if let Some(s) = &f.sprt {
        line.push_str(&format!(
            ", SPRT llr {:.2} ({:.2}, {:.2})",
            s.llr, s.lower, s.upper
        ));
    }
    line
}

/// Runs `chuhe match`.
pub fn run(args: &MatchArgs, out: &mut Output) -> Result<(), CliError> {
    let config = config(args)?;
    if let Some(dir) = &args.pcn_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| user(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut pgn_file = match &args.pgn_out {
        None => None,
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| user(format!("cannot create {}: {e}", path.display())))?,
        ),
    };
    let pair_count = match config.tournament {
        _ if config.engines.len() == 2 => 1,
        Tournament::Gauntlet => config.engines.len() as u64 - 1,
        Tournament::RoundRobin => {
            let n = config.engines.len() as u64;
            n * (n - 1) / 2
        }
    };
    let total = u64::from(config.rounds) * 2 * pair_count;
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:25} {pos}/{len} {msg}") {
            bar.set_style(style);
        }
        bar
    });
    let mut write_error = None;
    let sprt = config.sprt;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    // The latest line of every pair, for the periodic report.
    let mut latest: Vec<Option<String>> = vec![None; pair_count as usize];
    let report_every = args.report_every;
    let mut on_event = |event: MatchEvent<'_>| match event {
        MatchEvent::Warning(text) => match &bar {
            Some(bar) => bar.suspend(|| eprintln!("warning: {text}")),
            None => eprintln!("warning: {text}"),
        },
        MatchEvent::Game {
            report,
            pair,
            finished,
        } => {
            let line = pair_line(&names, pair, sprt.as_ref());
            if let Some(slot) = latest.get_mut(report.pair) {
                *slot = Some(line.clone());
            }
            match &bar {
                Some(bar) => {
                    bar.inc(1);
                    bar.set_message(line);
                }
                None => {
                    eprintln!(
                        "game {}: {} vs {}: {} ({})",
                        report.index + 1,
                        names[report.engines[0]],
                        names[report.engines[1]],
                        report.result(),
                        report.reason
                    );
                    if report_every > 0 && finished % report_every == 0 {
                        eprintln!("after {finished} games:");
                        for line in latest.iter().flatten() {
                            eprintln!("  {line}");
                        }
                    }
                }
            }
            if let Some(dir) = &args.pcn_dir {
                let path = dir.join(format!("game-{:04}.pcn", report.index + 1));
                if let Err(e) = std::fs::write(&path, report.pcn.to_json_pretty()) {
                    write_error
                        .get_or_insert(user(format!("cannot write {}: {e}", path.display())));
                }
            }
            if let (Some(file), Some(pgn)) = (pgn_file.as_mut(), &report.pgn) {
                if let Err(e) = writeln!(file, "{pgn}") {
                    write_error.get_or_insert(user(format!("cannot write the PGN file: {e}")));
                }
            }
        }
    };
    let interrupt = Interrupt::watch()?;
    let summary =
        chuhe_match::run_match(&config, interrupt.stop.clone(), &mut on_event).map_err(user)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    if args.json {
        let value = serde_json::to_value(&summary).map_err(user)?;
        out.write(&format!("{value}\n"))?;
    } else {
        out.write(&summary_text(&summary, total))?;
    }
    match interrupt.finish() {
        Some(signal) if summary.interrupted => {
            out.flush()?;
            Err(CliError::Interrupted(signal))
        }
        _ => Ok(()),
    }
}

/// SIGINT (Ctrl-C) and SIGTERM during a match: the first stops it gracefully (no new round
/// starts, the games in play finish, the summary is written); a second ends the program at
/// once with exit code 128 + the signal. The engines run in their own process groups, so a
/// Ctrl-C in the terminal does not reach them.
struct Interrupt {
    stop: Arc<AtomicBool>,
    /// The first signal received, if any.
    received: Arc<AtomicI32>,
    handle: signal_hook::iterator::Handle,
    watcher: std::thread::JoinHandle<()>,
}

impl Interrupt {
    fn watch() -> Result<Interrupt, CliError> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
            .map_err(|e| user(format!("cannot watch for Ctrl-C: {e}")))?;
        let handle = signals.handle();
        let stop = Arc::new(AtomicBool::new(false));
        let received = Arc::new(AtomicI32::new(0));
        let watcher = {
            let (stop, received) = (stop.clone(), received.clone());
            std::thread::spawn(move || {
                for signal in signals.forever() {
                    if received.swap(signal, Ordering::SeqCst) != 0 {
                        std::process::exit(128 + signal);
                    }
                    stop.store(true, Ordering::SeqCst);
                    eprintln!(
                        "interrupted: no new round starts; the games in play finish, then the summary (interrupt again to stop at once)"
                    );
                }
            })
        };
        Ok(Interrupt {
            stop,
            received,
            handle,
            watcher,
        })
    }

    /// Stops watching; the first signal received, if any.
    fn finish(self) -> Option<i32> {
        self.handle.close();
        let _ = self.watcher.join();
        Some(self.received.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }
}

/// The summary in words; `total` is the number of games the match was to play.
fn summary_text(summary: &Summary, total: u64) -> String {
    let mut text = String::new();
    if summary.interrupted {
        text.push_str(&format!(
            "interrupted after {} of {total} games (every round begun was played out)\n",
            summary.games
        ));
    }
    if let Some(head) = &summary.head {
        text.push_str(&format!(
            "{} vs {} ({}): {} games, {}\n  {}\n",
            summary.engines[0],
            summary.engines[1],
            summary.game,
            summary.games,
            figures_text(head),
            pentanomial_text(head)
        ));
        for (reason, n) in &summary.endings {
            text.push_str(&format!("  {n} × {reason}\n"));
        }
        if let Some(line) = sprt_text(head) {
            text.push_str(&line);
            text.push('\n');
        }
        return text;
    }
    let kind = match summary.tournament {
        Tournament::RoundRobin => "round-robin",
        Tournament::Gauntlet => "gauntlet",
    };
    text.push_str(&format!(
        "{kind} of {} engines ({}): {} games\n",
        summary.engines.len(),
        summary.game,
        summary.games
    ));
    for p in &summary.pairs {
        text.push_str(&format!(
            "  {} vs {}: {} games, {}\n",
            p.engines[0],
            p.engines[1],
            p.games,
            figures_text(&p.figures)
        ));
    }
    let width = summary
        .standings
        .iter()
        .map(|s| s.engine.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    text.push_str(&format!(
        "standings:\n  {:>2}  {:<width$}  {:>5}  {:>6}  {:>6}  {:>11}  Elo\n",
        "#", "engine", "games", "points", "score", "+/=/-"
    ));
    for (i, s) in summary.standings.iter().enumerate() {
        let elo = chuhe_match::EloEstimate {
            elo: s.elo,
            error: s.elo_error,
        };
        let wdl = format!("{}/{}/{}", s.tally.wins, s.tally.draws, s.tally.losses);
        text.push_str(&format!(
            "  {:>2}  {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {:>11}  {}\n",
            i + 1,
            s.engine,
            s.games,
            s.points,
            100.0 * s.score,
            wdl,
            elo.describe(s.score).trim_start_matches("Elo ")
        ));
    }
    text.push_str("endings:\n");
    for (reason, n) in &summary.endings {
        text.push_str(&format!("  {n} × {reason}\n"));
    }
    text
}
