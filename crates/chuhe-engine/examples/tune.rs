//! The Texel tuner's command line: self-play data, the fit, the weights file, and a match of
//! the tuned weights against the hand-set ones. See `docs/TUNING.md`.
//!
//! ```text
//! cargo run --release -p chuhe-engine --example tune -- --game xiangqi --games 2000
//! cargo run --release -p chuhe-engine --example tune -- --rules games/shatranj --games 400 --epochs 400
//! ```

use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use chuhe::rules::{self, RulesHandle, Width};
use chuhe::{xiangqi, xiongqi, GameKind, GamePosition};
use chuhe_engine::eval::tune::{self, Dataset, OptimiseSettings, PlaySettings, QuietSample};
use chuhe_engine::eval::{Accumulator, Block, Evaluation, Weight};

const USAGE: &str = "\
usage: tune --game xiangqi|xiongqi [options]
       tune --rules DIR [--games N --nodes N --random-plies A-B --seed N --data PATH --append
                         --epochs N --lr X --l2 X --validation N --no-write]

  --rules DIR           a game read from rule files: learns its pieces' values and its
                        mobility weight, written into DIR/rules.json (docs/TUNING.md)

  --init                write the hand-set weights to the weights file and stop
  --bench-eval          time the evaluation on positions of random games and stop
  --games N             self-play games to generate (0: use the data file as it is) [0]
  --nodes N             nodes per move in self-play [3000]
  --random-plies A-B    random plies at the start of each game [2-8]
  --seed N              random seed [1]
  --data PATH           data file [target/tune/<game>.txt]
  --append              add the new games to the data file instead of replacing it
  --scores              write each position's self-play search score as a fourth column
                        (centipawns, first player's view: the reference score `label` writes)
  --epochs N            Adam epochs (0: no tuning) [0]
  --lr X                Adam step size in centipawns [1]
  --l2 X                pull toward the starting weights [0]
  --validation N        keep every N-th game for validation (0: none) [10]
  --score-weight X      fit to (1 - X) * result + X * the expected result of the reference
                        score in the data's fourth column (chuhe-match's `label`) [0]
  --only B,B…           fit only these blocks (names as the weights file writes them,
                        e.g. KING_ATTACKERS); the others keep their values [all]
  --from-initial        start from the hand-set weights instead of the compiled ones
  --no-write            do not rewrite the weights file
  --match PAIRS         then play PAIRS pairs of games: the newest weights (tuned in this
                        run, else the compiled ones) against the hand-set ones [0]
  --match-nodes N       nodes per move in the match [the --nodes value]
  --against-compiled    the match opponent is the compiled table, not the hand-set one
  --dump-net PATH       (xiangqi) write the data's quiet positions for the network's trainer
                        (scripts/train_xiangqi_net.py) to PATH and stop
  --eval-file PATH      (with --dump-net) the network file under which the capture search
                        picks each quiet position, which depends on the evaluation
                        [the embedded network]
";

struct Args {
    game: GameKind,
    rules_dir: Option<PathBuf>,
    init: bool,
    bench: bool,
    games: u64,
    nodes: u64,
    random: (u32, u32),
    seed: u64,
    data: Option<PathBuf>,
    append: bool,
    scores: bool,
    epochs: u32,
    lr: f64,
    l2: f64,
    validation: u64,
    score_weight: f64,
    only: Vec<String>,
    from_initial: bool,
    write: bool,
    pairs: u64,
    match_nodes: Option<u64>,
    against_compiled: bool,
    dump_net: Option<PathBuf>,
    eval_file: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        game: GameKind::Xiangqi,
        rules_dir: None,
        init: false,
        bench: false,
        games: 0,
        nodes: 3000,
        random: (2, 8),
        seed: 1,
        data: None,
        append: false,
        scores: false,
        epochs: 0,
        lr: 1.0,
        l2: 0.0,
        validation: 10,
        score_weight: 0.0,
        only: Vec::new(),
        from_initial: false,
        write: true,
        pairs: 0,
        match_nodes: None,
        against_compiled: false,
        dump_net: None,
        eval_file: None,
    };
    let mut game = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("{flag}: bad value {v:?}"))
        }
        match flag.as_str() {
            "--game" => game = Some(value()?),
            "--rules" => a.rules_dir = Some(PathBuf::from(value()?)),
            "--init" => a.init = true,
            "--bench-eval" => a.bench = true,
            "--games" => a.games = num(&flag, value()?)?,
            "--nodes" => a.nodes = num(&flag, value()?)?,
            "--random-plies" => {
                let v = value()?;
                let (lo, hi) = v.split_once('-').unwrap_or((&v, &v));
                a.random = (num(&flag, lo.to_string())?, num(&flag, hi.to_string())?);
                if a.random.0 > a.random.1 {
                    return Err(format!("{flag}: {v} is an empty range"));
                }
            }
            "--seed" => a.seed = num(&flag, value()?)?,
            "--data" => a.data = Some(PathBuf::from(value()?)),
            "--append" => a.append = true,
            "--scores" => a.scores = true,
            "--epochs" => a.epochs = num(&flag, value()?)?,
            "--lr" => a.lr = num(&flag, value()?)?,
            "--l2" => a.l2 = num(&flag, value()?)?,
            "--validation" => a.validation = num(&flag, value()?)?,
            "--score-weight" => a.score_weight = num(&flag, value()?)?,
            "--only" => {
                a.only = value()?.split(',').map(|b| b.trim().to_string()).collect();
            }
            "--from-initial" => a.from_initial = true,
            "--no-write" => a.write = false,
            "--dump-net" => a.dump_net = Some(PathBuf::from(value()?)),
            "--eval-file" => a.eval_file = Some(PathBuf::from(value()?)),
            "--match" => a.pairs = num(&flag, value()?)?,
            "--match-nodes" => a.match_nodes = Some(num(&flag, value()?)?),
            "--against-compiled" => a.against_compiled = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    a.game = match (game.as_deref(), &a.rules_dir) {
        (Some(_), Some(_)) => return Err("--game and --rules: give one of them".into()),
        (None, Some(dir)) => {
            GameKind::Rules(rules::load_dir(dir).map_err(|e| format!("--rules: {e}"))?)
        }
        (game, None) => match game {
            Some("xiangqi") => GameKind::Xiangqi,
            Some("xiongqi") => GameKind::Xiongqi,
            Some(g) => return Err(format!("--game: {g:?} is not xiangqi or xiongqi")),
            None => return Err("--game or --rules is required".into()),
        },
    };
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("tune: {e}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match args.game {
        _ if args.eval_file.is_some() && args.dump_net.is_none() => {
            Err("--eval-file goes with --dump-net".to_string())
        }
        GameKind::Rules(handle) => run_rules(&args, handle),
        _ if args.dump_net.is_some() => dump_net(&args),
        GameKind::Xiongqi => run::<xiongqi::Position>(&args, ()),
        _ => run::<xiangqi::Position>(&args, xiangqi::RuleSet::Standard),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--dump-net`: the quiet leaf of every usable line of the Xiangqi data file, one per line
/// for `scripts/train_xiangqi_net.py`: the game's number, its result, the reference score
/// (`-` when the line has none), the evaluation without the network (first player's view),
/// the 90 points a1, b1, … i10 as `0` (empty) or 1 + the piece's index (side × 7 + role),
/// and the side to move (`w` or `b`).
fn dump_net(args: &Args) -> Result<(), String> {
    if args.game == GameKind::Xiongqi {
        return Err("--dump-net: the network is Xiangqi's (--game xiangqi)".to_string());
    }
    let (Some(data), Some(out)) = (&args.data, &args.dump_net) else {
        return Err("--dump-net needs --data (the labelled positions)".to_string());
    };
    let net = match &args.eval_file {
        Some(path) => std::sync::Arc::new(
            chuhe_engine::eval::xiangqi_net::XiangqiNet::load(path).map_err(|e| e.to_string())?,
        ),
        None => chuhe_engine::eval::xiangqi_net::XiangqiNet::embedded(),
    };
    let input = File::open(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let file = File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    let (mut kept, mut skipped) = (0u64, 0u64);
    let write_err = |e: std::io::Error| format!("{}: {e}", out.display());
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| format!("{}: {e}", data.display()))?;
        let Some(s) =
            QuietSample::<xiangqi::Position>::parse_under(&line, xiangqi::RuleSet::Standard, &net)
        else {
            skipped += 1;
            continue;
        };
        let linear = chuhe_engine::eval::xiangqi::evaluate_linear(&s.leaf);
        let points: Vec<String> = xiangqi::Square::all()
            .map(|sq| s.leaf.piece_at(sq).map_or(0, |p| p.index() + 1).to_string())
            .collect();
        let reference = s.reference.map_or("-".to_string(), |r| r.to_string());
        let turn = if s.leaf.turn() == chuhe::Side::First {
            'w'
        } else {
            'b'
        };
        writeln!(
            w,
            "{}\t{}\t{reference}\t{linear}\t{}\t{turn}",
            s.game,
            s.result,
            points.join(",")
        )
        .map_err(write_err)?;
        kept += 1;
    }
    w.flush().map_err(write_err)?;
    eprintln!(
        "{kept} positions written to {} ({skipped} lines left out)",
        out.display()
    );
    Ok(())
}

/// Which parameters `--only` leaves free to change (every one when `only` is empty).
fn free_mask(blocks: &[Block], only: &[String]) -> Result<Vec<bool>, String> {
    if only.is_empty() {
        return Ok(Vec::new());
    }
    let params = blocks.iter().map(|b| b.end()).max().unwrap_or(0);
    let mut free = vec![false; params];
    for name in only {
        let Some(block) = blocks.iter().find(|b| b.name == name) else {
            let names: Vec<&str> = blocks.iter().map(|b| b.name).collect();
            return Err(format!(
                "--only: no block {name:?} (blocks: {})",
                names.join(", ")
            ));
        };
        free[block.start..block.end()].fill(true);
    }
    Ok(free)
}

fn weights_path<P: Evaluation>() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(P::WEIGHTS_FILE)
}

fn write_weights<P: Evaluation>(w: &[Weight], notes: &[String]) -> Result<(), String> {
    let path = weights_path::<P>();
    let src = tune::weights_source(P::MODULE, P::BLOCKS, w, notes);
    fs::write(&path, src).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// Times the evaluation on the positions of 200 random games (at most 120 plies each).
fn bench_eval<P: Evaluation>(config: P::Config) {
    let mut rng = tune::Rng::new(12345);
    let mut positions: Vec<P> = Vec::new();
    for _ in 0..200 {
        let mut pos = P::start(config);
        for _ in 0..120 {
            if pos.outcome().is_some() {
                break;
            }
            positions.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
    let rounds = 200;
    let t0 = Instant::now();
    let mut sink = 0i64;
    for _ in 0..rounds {
        for p in &positions {
            sink = sink.wrapping_add(i64::from(std::hint::black_box(p).evaluate()));
        }
    }
    let ns = t0.elapsed().as_nanos() as f64 / (rounds as f64 * positions.len() as f64);
    println!(
        "{}: {ns:.1} ns per evaluation over {} positions (checksum {sink})",
        P::MODULE,
        positions.len()
    );
}

/// The data file (`--data`, else `target/tune/<name>.txt`) and the self-play settings; plays
/// `--games` games into it first when asked.
fn prepare_data(args: &Args, name: &str) -> Result<(PathBuf, PlaySettings), String> {
    let data_path = args.data.clone().unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/tune")
            .join(format!("{name}.txt"))
    });
    let settings = PlaySettings {
        nodes: args.nodes,
        random_plies: args.random,
        ..PlaySettings::default()
    };
    if args.games > 0 {
        generate_data(args, name, &data_path, &settings)?;
    }
    Ok((data_path, settings))
}

/// What [`fit`] found: K, the errors (training, validation) before, and the optimiser's
/// best weights.
struct Fit {
    k: f64,
    before: (f64, f64),
    found: tune::Optimised,
}

/// K for `start`, then Adam from `start` over the parameters `free` leaves free (empty: all),
/// with its progress every 200 epochs.
fn fit(args: &Args, data: &Dataset, start: &[[f64; 2]], free: Vec<bool>) -> Fit {
    let k = tune::fit_k(data, start);
    let before = (data.mse(start, k, false), data.mse(start, k, true));
    eprintln!(
        "K = {k:.4}; MSE before: training {:.6}, validation {:.6}",
        before.0, before.1
    );
    let opt = OptimiseSettings {
        epochs: args.epochs,
        learning_rate: args.lr,
        l2: args.l2,
        free,
    };
    let found = tune::optimise(data, start, k, &opt, |epoch, train, validation| {
        if epoch % 200 == 0 || epoch == args.epochs {
            eprintln!("  epoch {epoch}: MSE training {train:.6}, validation {validation:.6}");
        }
    });
    Fit { k, before, found }
}

/// What loading the data gave, and how long it took.
fn report_loaded(data: &Dataset, started: Instant) {
    eprintln!(
        "loaded {} lines: {} training and {} validation positions ({} skipped, {} resolved by captures) in {:.1} s",
        data.lines,
        data.training_len(),
        data.validation_len(),
        data.skipped,
        data.resolved,
        started.elapsed().as_secs_f64()
    );
}

/// Plays `args.games` self-play games of `args.game` into the data file (appended with
/// `--append`, the game numbers going on).
fn generate_data(
    args: &Args,
    name: &str,
    data_path: &std::path::Path,
    settings: &PlaySettings,
) -> Result<(), String> {
    if let Some(dir) = data_path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let first_game = if args.append && data_path.exists() {
        let file = File::open(data_path).map_err(|e| format!("{}: {e}", data_path.display()))?;
        tune::next_game_number(BufReader::new(file))
            .map_err(|e| format!("{}: {e}", data_path.display()))?
    } else {
        0
    };
    let file = fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(args.append)
        .truncate(!args.append)
        .open(data_path)
        .map_err(|e| format!("{}: {e}", data_path.display()))?;
    let mut out = BufWriter::new(file);
    eprintln!(
        "generating {} {name} games at {} nodes per move into {}",
        args.games,
        args.nodes,
        data_path.display()
    );
    let stats = tune::generate(
        args.game,
        first_game,
        args.games,
        settings,
        args.seed,
        args.scores,
        &mut out,
        |s| {
            if s.games % 50 == 0 {
                eprintln!(
                    "  {} games, {} positions, results +{} ={} -{}, {:.0} s",
                    s.games, s.positions, s.results[0], s.results[1], s.results[2], s.seconds
                );
            }
        },
    )
    .map_err(|e| format!("{}: {e}", data_path.display()))?;
    eprintln!(
        "generated {} games, {} positions (first player +{} ={} -{}) in {:.0} s",
        stats.games,
        stats.positions,
        stats.results[0],
        stats.results[1],
        stats.results[2],
        stats.seconds
    );
    Ok(())
}

fn run<P: Evaluation>(args: &Args, config: P::Config) -> Result<(), String> {
    let name = P::MODULE;
    if args.init {
        let notes = vec!["Hand-set (not tuned): `tune --init`.".to_string()];
        return write_weights::<P>(&P::initial_weights(), &notes);
    }
    if args.bench {
        bench_eval::<P>(config);
        return Ok(());
    }
    // A misspelt block name fails before any work.
    let free = free_mask(P::BLOCKS, &args.only)?;
    let (data_path, settings) = prepare_data(args, name)?;

    let mut newest: Option<Vec<Weight>> = None;
    if args.epochs > 0 {
        let t0 = Instant::now();
        let file = File::open(&data_path).map_err(|e| format!("{}: {e}", data_path.display()))?;
        let mut data = Dataset::load::<P>(BufReader::new(file), config, args.validation)
            .map_err(|e| format!("{}: {e}", data_path.display()))?;
        report_loaded(&data, t0);
        let mut blend_note = String::new();
        if args.score_weight > 0.0 {
            let Some(k_ref) = data.blend_reference(args.score_weight) else {
                return Err(format!(
                    "--score-weight: {} has no reference scores (a fourth column)",
                    data_path.display()
                ));
            };
            blend_note = format!(
                " targets {:.2} result + {:.2} reference score (K_ref = {k_ref:.4}, {} scored);",
                1.0 - args.score_weight,
                args.score_weight,
                data.referenced_len()
            );
            eprintln!("reference scores:{blend_note}");
        }
        let start_int: Vec<Weight> = if args.from_initial {
            P::initial_weights()
        } else {
            P::weights().to_vec()
        };
        let start = tune::to_float(&start_int);
        let t1 = Instant::now();
        let Fit { k, before, found } = fit(args, &data, &start, free);
        eprintln!("kept the weights of epoch {}", found.epoch);
        let tuned_int = tune::to_int(&found.weights);
        let rounded = tune::to_float(&tuned_int);
        let after = (data.mse(&rounded, k, false), data.mse(&rounded, k, true));
        let seconds = t1.elapsed().as_secs_f64();
        eprintln!(
            "MSE after: training {:.6}, validation {:.6} ({} epochs in {seconds:.0} s)",
            after.0, after.1, args.epochs
        );
        for line in tune::describe_changes(P::BLOCKS, &start_int, &tuned_int) {
            eprintln!("  {line}");
        }
        if args.write {
            let notes = vec![
                format!(
                    "Last run: {} training + {} validation positions from {}; K = {k:.4};{blend_note}",
                    data.training_len(),
                    data.validation_len(),
                    data_path.file_name().map_or("?".into(), |n| n.to_string_lossy()),
                ),
                format!(
                    "MSE training {:.6} -> {:.6}, validation {:.6} -> {:.6}; epoch {} of {}, lr {}, l2 {}.",
                    before.0, after.0, before.1, after.1, found.epoch, args.epochs, args.lr, args.l2
                ),
            ];
            write_weights::<P>(&tuned_int, &notes)?;
        }
        newest = Some(tuned_int);
    }

    if args.pairs > 0 {
        let match_settings = PlaySettings {
            nodes: args.match_nodes.unwrap_or(args.nodes),
            ..settings
        };
        let (opponent, opponent_label) = if args.against_compiled {
            (P::weights().to_vec(), "compiled")
        } else {
            (P::initial_weights(), "hand-set")
        };
        let label = if newest.is_some() {
            "tuned (this run)"
        } else {
            "compiled"
        };
        eprintln!(
            "match: {label} against {opponent_label}, {} games at {} nodes per move",
            2 * args.pairs,
            match_settings.nodes
        );
        let t0 = Instant::now();
        let score = tune::play_match::<P>(
            args.game,
            args.pairs,
            &match_settings,
            newest.as_deref(),
            Some(&opponent),
            args.seed.wrapping_add(1_000_003),
            |s| {
                if s.games() % 10 == 0 {
                    eprintln!(
                        "  {} games: +{} ={} -{} ({:.1} %)",
                        s.games(),
                        s.wins,
                        s.draws,
                        s.losses,
                        100.0 * s.score()
                    );
                }
            },
        );
        println!(
            "{name}: {label} vs {opponent_label}: +{} ={} -{} in {} games, score {:.1} %, Elo {:+.0} ({:.0} s)",
            score.wins,
            score.draws,
            score.losses,
            score.games(),
            100.0 * score.score(),
            score.elo(),
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `--rules DIR`: self-play data of a game read from rule files, and the fit of its linear
/// evaluation (the pieces' values and the mobility weight), written into `DIR/rules.json`.
fn run_rules(args: &Args, handle: RulesHandle) -> Result<(), String> {
    let refused = [
        (args.init, "--init"),
        (args.bench, "--bench-eval"),
        (args.dump_net.is_some(), "--dump-net"),
        (!args.only.is_empty(), "--only"),
        (args.pairs > 0, "--match (play the tuned directory against a copy of the old one with chuhe match, docs/TUNING.md)"),
        (args.score_weight > 0.0, "--score-weight"),
        (args.from_initial, "--from-initial"),
        (args.against_compiled, "--against-compiled"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("--rules: {flag} is for the native games only"));
    }
    let name = handle.name();
    let (data_path, _) = prepare_data(args, name)?;
    if args.epochs == 0 {
        return Ok(());
    }
    match handle {
        RulesHandle::Narrow(game) => fit_rules(args, game, &data_path),
        RulesHandle::Broad(game) => fit_rules(args, game, &data_path),
        RulesHandle::Wide(game) => fit_rules(args, game, &data_path),
    }
}

fn fit_rules<B: Width>(
    args: &Args,
    game: &'static rules::Compiled<B>,
    data_path: &std::path::Path,
) -> Result<(), String> {
    use chuhe_engine::rules_game;
    let start = rules::Position::start(game);
    let params = rules_game::parameters(&start);
    let t0 = Instant::now();
    let file = File::open(data_path).map_err(|e| format!("{}: {e}", data_path.display()))?;
    let data = Dataset::load_with(
        BufReader::new(file),
        start.config(),
        args.validation,
        params,
        1,
        |leaf: &rules::Position<B>, fv| {
            rules_game::terms(leaf, |p, c| fv.add(p, c));
            1
        },
    )
    .map_err(|e| format!("{}: {e}", data_path.display()))?;
    report_loaded(&data, t0);
    if data.training_len() == 0 {
        return Err(format!("{}: no usable position", data_path.display()));
    }
    let manifest = &game.info.manifest;
    let start_int: Vec<Weight> = rules_game::parameter_values(&start)
        .into_iter()
        .map(|v| [v, v])
        .collect();
    // The royal pieces' values are not the evaluation's (their loss ends the game).
    let mut free: Vec<bool> = manifest.pieces.iter().map(|p| !p.royal).collect();
    free.push(true);
    let w0 = tune::to_float(&start_int);
    let Fit { k, found, .. } = fit(args, &data, &w0, free);
    // Only the middlegame half is used (no phases); the mobility weight stays in the
    // manifest's range.
    let mut tuned: Vec<i32> = tune::to_int(&found.weights).iter().map(|w| w[0]).collect();
    if let Some(m) = tuned.last_mut() {
        *m = (*m).clamp(0, 1000);
    }
    let rounded: Vec<[f64; 2]> = tuned.iter().map(|&v| [f64::from(v); 2]).collect();
    let after = (data.mse(&rounded, k, false), data.mse(&rounded, k, true));
    eprintln!(
        "kept the weights of epoch {}; MSE after: training {:.6}, validation {:.6}",
        found.epoch, after.0, after.1
    );
    let mut values = Vec::new();
    for (piece, (&old, &new)) in manifest
        .pieces
        .iter()
        .zip(start_int.iter().map(|w| &w[0]).zip(&tuned))
    {
        if !piece.royal {
            println!(
                "{:>4} {:<28} {old:>6} -> {new:>6}",
                piece.pin.to_string(),
                piece.name
            );
            values.push((piece.pin.to_string(), new));
        }
    }
    let mobility = *tuned.last().unwrap_or(&manifest.mobility);
    println!(
        "     {:<28} {:>6} -> {mobility:>6}",
        "mobility (per move)", manifest.mobility
    );
    // A piece worth nothing or less is no value the data supports: nothing is written.
    let pieces = manifest.pieces.iter().filter(|p| !p.royal);
    if let Some((piece, (_, v))) = pieces.zip(&values).find(|(_, (_, v))| *v <= 0) {
        return Err(format!(
            "the fit gives {} ({}) the value {v}: the data does not pin the values down (play \
             more games, at more nodes, or pull toward the starting values with --l2); \
             nothing written",
            piece.pin, piece.name
        ));
    }
    if args.write {
        let Some(dir) = &args.rules_dir else {
            return Ok(());
        };
        let path = dir.join(rules::MANIFEST_FILE);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let asked: Vec<(&str, i32)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let out = rules::manifest::with_engine_values(
            &path.display().to_string(),
            &text,
            &asked,
            mobility,
        )
        .map_err(|e| e.to_string())?;
        fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
