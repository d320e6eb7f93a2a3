//! `chuhe`: the command line of the chuhe toolkit.
//!
//! The command-line contract (flags, JSON fields, exit codes) is used by tools outside the
//! project: see the README before changing anything here. Every command works for every game
//! through [`chuhe::AnyGame`]; nothing here depends on which game is played.
//!
//! Exit codes: 0 success (also when the reader of standard output closed it early), 2 bad
//! input (one line on standard error), 3 output could not be written (one line on standard
//! error).

mod engine_cmd;
mod match_cmd;
mod output;
mod play_cmd;
mod records;
mod serve_cmd;

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use chuhe::{AnyGame, GameOptions, Glyphs as BoardGlyphs, MoveNotation, PositionFormat};
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Map, Value};

use output::{CliError, Output};

/// chuhe — rules, notations, perft and an engine for Xiongqi and Xiangqi: perft, moves, show,
/// replay, convert, ggn, match, uci, bench, analyze.
#[derive(Parser, Debug)]
#[command(name = "chuhe", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which game (and rule set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Xiongqi (熊棋), 8×8.
    Xiongqi,
    /// Xiangqi (象棋), 9×10, standard rules (as Fairy-Stockfish plays them).
    Xiangqi,
    /// Xiangqi with the capture-the-king teaching rules.
    XiangqiCapture,
}

impl GameKind {
    /// The library's registry entry.
    fn kind(self) -> chuhe::GameKind {
        match self {
            GameKind::Xiongqi => chuhe::GameKind::Xiongqi,
            GameKind::Xiangqi => chuhe::GameKind::Xiangqi,
            GameKind::XiangqiCapture => chuhe::GameKind::XiangqiCapture,
        }
    }
}

/// How moves are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// Sashité PMN (`e3-e4`, `h3-e3`); coordinates are accepted on input too.
    Pmn,
    /// UCI coordinates, ranks from 1 (`h3e3`, `b3b10`; Xiongqi `e3e4`, `e7e8e`).
    Uci,
    /// Xiangqi: ICCS / UCCI coordinates, ranks from 0 (`h2e2`).
    Iccs,
    /// Xiangqi: WXF (`C2=5`, `H8+7`).
    Wxf,
    /// Xiangqi: the teaching notation (`h1g3`, rank 10 written 0).
    Teaching,
    /// Xiangqi: the Chinese notation (`炮二平五`, `马8进7`, `前车进一`).
    Chinese,
    /// Xiangqi: SAN as Fairy-Stockfish and pychess.org write it (`Che3`, `Hg8`, `Cxb10`).
    San,
}

impl Notation {
    fn notation(self) -> MoveNotation {
        match self {
            Notation::Pmn => MoveNotation::Pmn,
            Notation::Uci => MoveNotation::Uci,
            Notation::Iccs => MoveNotation::Iccs,
            Notation::Wxf => MoveNotation::Wxf,
            Notation::Teaching => MoveNotation::Teaching,
            Notation::Chinese => MoveNotation::Chinese,
            Notation::San => MoveNotation::San,
        }
    }
}

/// How pieces are drawn by `show`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Glyphs {
    /// Letters (uppercase = first player).
    Latin,
    /// Chinese characters.
    Chinese,
}

impl Glyphs {
    fn board(self) -> BoardGlyphs {
        match self {
            Glyphs::Latin => BoardGlyphs::Latin,
            Glyphs::Chinese => BoardGlyphs::Chinese,
        }
    }
}

/// What `convert --to` may produce for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PositionFormatArg {
    /// Standard Xiangqi FEN.
    Fen,
    /// Sashité FEEN.
    Feen,
}

#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiongqi")]
    game: GameKind,
    /// `start`, a FEEN, or (Xiangqi) a FEN.
    #[arg(long, default_value = "start")]
    position: String,
    /// The half-move clock of the position (a FEEN holds none; a FEN's own is used otherwise).
    #[arg(long)]
    halfmove: Option<u32>,
    /// Xiangqi: a position occurring this many times ends the game (S3; default 3, at least 2).
    #[arg(long)]
    repetition_count: Option<u8>,
    /// Play the game of a rules directory (its GGN, FEEN and `rules.json` manifest, as in
    /// `games/`) instead of `--game`.
    #[arg(long, value_name = "DIR", conflicts_with = "game")]
    rules: Option<std::path::PathBuf>,
}

impl PositionArgs {
    /// The game: `--rules DIR` compiled, else `--game`.
    pub fn kind(&self) -> Result<chuhe::GameKind, CliError> {
        match &self.rules {
            Some(dir) => rules_kind(dir),
            None => Ok(self.game.kind()),
        }
    }
}

/// The game of a rules directory, or the error naming its file, key and problem.
pub fn rules_kind(dir: &std::path::Path) -> Result<chuhe::GameKind, CliError> {
    chuhe::rules::load_dir(dir)
        .map(chuhe::GameKind::Rules)
        .map_err(|e| CliError::user(format!("--rules: {e}")))
}

#[derive(clap::Args, Debug)]
struct PcnArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The moves, separated by spaces.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    moves: String,
    /// How `--moves` is read.
    #[arg(long, value_enum, default_value = "pmn")]
    notation: Notation,
    /// Seconds spent on each move, separated by spaces (0 for moves without one).
    #[arg(long, default_value = "")]
    times: String,
    /// The event (`meta.event`).
    #[arg(long)]
    event: Option<String>,
    /// The first player's name.
    #[arg(long)]
    first: Option<String>,
    /// The second player's name.
    #[arg(long)]
    second: Option<String>,
    /// How the game ended when the rules do not say (a CGSN word: resignation, timelimit,
    /// agreement, illegalmove, movelimit, repetition); with `--winner`.
    #[arg(long)]
    status: Option<String>,
    /// Who won a game ended by `--status`: first, second or none.
    #[arg(long)]
    winner: Option<String>,
}

/// What `record` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RecordFormat {
    /// Sashité PCN (JSON), every game.
    Pcn,
    /// PGN as pychess.org writes it (Xiangqi): tags, `[Variant "Xiangqi"]`, SAN moves.
    Pgn,
}

/// What `render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ImageFormat {
    /// A self-contained SVG document.
    Svg,
    /// A PNG image, rasterised from the SVG (text drawn with the system's fonts).
    Png,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the legal move paths of a given depth.
    Perft {
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first (their history counts where the rules say so).
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// Print the count below each legal move, each line as soon as it is known.
        #[arg(long)]
        divide: bool,
        /// How `--moves` is read and `--divide` writes moves.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Replays moves and lists the legal moves there, sorted.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// How moves are read and printed.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Draws the board with side to move, check and status.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// How `--moves` is read.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Latin letters or Chinese characters.
        #[arg(long, value_enum, default_value = "latin")]
        glyphs: Glyphs,
    },
    /// Draws the board as an SVG picture on standard output (`chuhe render > board.svg`).
    Render {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// How `--moves` is read.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Mark the last of `--moves`.
        #[arg(long)]
        last_move: bool,
        /// Arrows, separated by commas, each two squares: `e3e5,b10b3` (or `e3-e5`).
        #[arg(long, default_value = "")]
        arrows: String,
        /// Put the second player at the bottom.
        #[arg(long)]
        flip: bool,
        /// Latin letters or Chinese characters.
        #[arg(long, value_enum, default_value = "chinese")]
        glyphs: Glyphs,
        /// The picture's width in pixels (16–4096).
        #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(16..=4096))]
        size: u32,
        /// SVG text, or a PNG image (binary: redirect it to a file).
        #[arg(long, value_enum, default_value = "svg")]
        format: ImageFormat,
    },
    /// Replays moves and prints, for every ply, the position, legal moves, status and the
    /// move played there in every notation (one JSON array).
    Replay {
        /// A game record to check move by move, PCN or (Xiangqi) PGN or XQF (a file, or `-`
        /// for standard input): its setup and moves take the place of the position flags and
        /// `--moves`. A file of several games gives one JSON array per game, one per line.
        record: Option<String>,
        /// Only this game of the record (counted from 1).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        game_index: Option<u64>,
        #[command(flatten)]
        position: PositionArgs,
        /// The moves, separated by spaces.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// How moves are read and the legal moves printed.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// JSON output (the default and only format; accepted for scripts that pass it).
        #[arg(long)]
        json: bool,
    },
    /// Checks a game record move by move (PCN, or PGN or XQF for Xiangqi) and writes it as
    /// PCN or as PGN in pychess.org's form.
    Record {
        /// The record: a file, or `-` for standard input (XQF when it starts with the bytes
        /// `XQ`, PCN when it starts with `{`, else PGN); PGN and PCN may hold many games.
        record: String,
        /// The format to write.
        #[arg(long, value_enum)]
        to: RecordFormat,
        /// Only this game of the record (counted from 1).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        game_index: Option<u64>,
        /// Write every game to this file instead of standard output.
        #[arg(long, conflicts_with = "output_dir")]
        output: Option<std::path::PathBuf>,
        /// Write each game to its own file in this folder (`game-00001.pgn`, …), created if
        /// missing.
        #[arg(long)]
        output_dir: Option<std::path::PathBuf>,
        /// PGN's moves: SAN (pychess.org), or iccs, wxf, chinese or uci with the `[Format …]`
        /// tag of the Chinese programs' PGN.
        #[arg(long, value_enum, default_value = "san")]
        notation: Notation,
        /// The records are of the game of this rules directory (as in `games/`): PCN records
        /// that name it in `meta.game` are checked by its rules.
        #[arg(long, value_name = "DIR")]
        rules: Option<std::path::PathBuf>,
    },
    /// Converts moves from one notation to another (played in order from the position), or
    /// a position (the positional argument) to FEN or FEEN.
    Convert {
        #[command(flatten)]
        position: PositionArgs,
        /// The notation of the moves given.
        #[arg(long, value_enum)]
        from: Option<Notation>,
        /// `pmn`, `uci`, `iccs`, `wxf`, `teaching`, `chinese`, `san` for moves; `fen` or `feen` for a
        /// position.
        #[arg(long)]
        to: String,
        /// The moves (or, with `--to fen|feen`, the position); a move may begin with `-`
        /// (WXF `-R+1`).
        items: Vec<String>,
    },
    /// Writes a PCN game record of moves played from a position, with players, times and
    /// the result.
    Pcn(PcnArgs),
    /// Writes the game's complete pseudo-legal movement table in GGN (JSON): every piece of
    /// both sides, every square it may stand on, every destination with its `must`/`deny`
    /// conditions.
    Ggn {
        /// The game (`xiangqi` and `xiangqi-capture` differ by the flying general's capture).
        #[arg(long, value_enum, default_value = "xiongqi")]
        game: GameKind,
        /// The table of a rules directory (as it reads it) instead of `--game`'s.
        #[arg(long, value_name = "DIR", conflicts_with = "game")]
        rules: Option<std::path::PathBuf>,
        /// Writes the table of a compact description of a game's pieces (`pieces.json`,
        /// docs/RULES.md) instead.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "rules"])]
        pieces: Option<std::path::PathBuf>,
        /// Indented JSON instead of one line.
        #[arg(long)]
        pretty: bool,
    },
    /// Plays games between two UCI engines, judged by chuhe: W/D/L, Elo, SPRT, PCN records.
    Match(match_cmd::MatchArgs),
    /// Counts games already played from their PCN records (`match --pcn-dir`), as `match` counts them: a match played in slices.
    Tally(match_cmd::TallyArgs),
    /// Speaks UCI (or, after the command `ucci`, UCCI) on standard input and output: the
    /// engine for GUIs and match runners.
    Uci {
        /// The game at the start (the default of the option `UCI_Variant`).
        #[arg(long, value_enum, default_value = "xiangqi")]
        game: GameKind,
        /// Play the game of a rules directory instead of `--game`.
        #[arg(long, value_name = "DIR", conflicts_with = "game")]
        rules: Option<std::path::PathBuf>,
    },
    /// Searches a fixed set of positions to a fixed depth, single-threaded: the total nodes
    /// (the build's signature), the time and the speed.
    Bench(engine_cmd::BenchArgs),
    /// Analyzes a position: each line of the search as it comes, then the best move.
    Analyze(engine_cmd::AnalyzeArgs),
    /// Plays a game at the terminal, against the engine or between two people; reads moves
    /// and commands from standard input (scriptable) and saves the game as PCN.
    Play(play_cmd::PlayArgs),
    /// Serves the site where people play in the browser: accounts and guests, a lobby of
    /// seeks and challenges, games against the engine or each other, ratings, an archive;
    /// every game kept in a database; prints the address.
    Serve(serve_cmd::ServeArgs),
    /// The site's accounts, for its administrator: create, set a password, disable, enable,
    /// list (`--signup closed` leaves account making to this).
    User(serve_cmd::UserArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(mark_rear_moves(std::env::args_os().collect())) {
        Ok(cli) => cli,
        Err(e) => {
            // Help, version and usage errors: clap's text, clap's exit code (0 or 2).
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let mut out = Output::stdout();
    let result = run(cli, &mut out).and_then(|()| out.flush());
    output::finish(result)
}

/// Marks a WXF move for the rear of two pieces on a file (`-R+1`, `-C=5`) given to `convert`
/// as an argument, which clap would take for a flag: [`unmark_rear_move`] restores it. Only
/// arguments that are no option's value, and begin with `-`, a letter and `+`, `-`, `=` or
/// `.`, are marked (no flag looks like that).
fn mark_rear_moves(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).and_then(|a| a.to_str()) != Some("convert") {
        return args;
    }
    const TAKES_VALUE: [&str; 6] = [
        "--game",
        "--position",
        "--halfmove",
        "--repetition-count",
        "--from",
        "--to",
    ];
    for i in 2..args.len() {
        let after_option = args[i - 1]
            .to_str()
            .is_some_and(|prev| TAKES_VALUE.contains(&prev));
        let Some(text) = args[i].to_str() else {
            continue;
        };
        let b = text.as_bytes();
        let rear =
            b.len() >= 3 && b[0] == b'-' && b[1].is_ascii_alphabetic() && b"+-=.".contains(&b[2]);
        if rear && !after_option {
            args[i] = format!("{REAR_MARK}{}", &text[1..]).into();
        }
    }
    args
}

/// Stands for the leading `-` of a marked move (a private-use character no move contains).
const REAR_MARK: char = '\u{E000}';

/// A `convert` argument as it was typed (see [`mark_rear_moves`]).
fn unmark_rear_move(item: &str) -> String {
    match item.strip_prefix(REAR_MARK) {
        Some(rest) => format!("-{rest}"),
        None => item.to_string(),
    }
}

fn run(cli: Cli, out: &mut Output) -> Result<(), CliError> {
    match cli.command {
        Command::Perft {
            depth,
            position,
            moves,
            divide,
            notation,
            json,
        } => {
            let game = open(&position, &moves, notation)?;
            perft(game.as_ref(), depth, divide, notation, json, out)
        }
        Command::Moves {
            position,
            moves,
            notation,
            json,
        } => {
            let game = open(&position, &moves, notation)?;
            list_moves(game.as_ref(), notation, json, out)
        }
        Command::Show {
            position,
            moves,
            notation,
            glyphs,
        } => {
            let game = open(&position, &moves, notation)?;
            out.write(&show(game.as_ref(), glyphs))
        }
        Command::Replay {
            record: Some(path),
            notation,
            game_index,
            position,
            ..
        } => {
            let rules = position.rules.as_deref().map(rules_kind).transpose()?;
            records::replay_records(&path, game_index, notation, rules, out)
        }
        Command::Replay {
            record: None,
            game_index: _,
            position,
            moves,
            notation,
            json: _,
        } => {
            let start = open(&position, "", notation)?;
            let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
            replay(start, &moves, notation, notation, None, out)
        }
        Command::Pcn(args) => write_record(&args, out),
        Command::Record {
            record,
            to,
            game_index,
            output,
            output_dir,
            notation,
            rules,
        } => {
            let rules = rules.as_deref().map(rules_kind).transpose()?;
            records::convert_records(
                &record,
                to,
                game_index,
                records::Destination::of(output, output_dir),
                notation.notation(),
                rules,
                out,
            )
        }
        Command::Ggn {
            game,
            rules,
            pieces,
            pretty,
        } => {
            let table = match (&rules, &pieces) {
                (_, Some(file)) => {
                    let name = file.display().to_string();
                    let text = std::fs::read_to_string(file)
                        .map_err(|e| CliError::user(format!("--pieces: {name}: {e}")))?;
                    chuhe::rules::compact::ggn(&name, &text)
                        .map_err(|e| CliError::user(format!("--pieces: {e}")))?
                }
                (Some(dir), None) => chuhe::ggn::table(rules_kind(dir)?),
                (None, None) => chuhe::ggn::table(game.kind()),
            };
            let json = if pretty {
                table.to_json_pretty()
            } else {
                table.to_json()
            };
            out.write(&json)?;
            out.write("\n")
        }
        Command::Render {
            position,
            moves,
            notation,
            last_move,
            arrows,
            flip,
            glyphs,
            size,
            format,
        } => {
            if format == ImageFormat::Png && std::io::stdout().is_terminal() {
                return Err(CliError::user(
                    "--format png writes a binary image: redirect standard output to a file \
                     (chuhe render --format png > board.png)",
                ));
            }
            let game = open(&position, &moves, notation)?;
            let options = chuhe::SvgOptions {
                glyphs: glyphs.board(),
                flipped: flip,
                size: Some(size),
                last_move,
                arrows: arrows
                    .split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect(),
                square_targets: false,
            };
            let svg = game
                .board_svg(&options)
                .map_err(|e| CliError::user(format!("--arrows: {e}")))?;
            match format {
                ImageFormat::Svg => out.write(&svg),
                ImageFormat::Png => out.write_bytes(&png_of_svg(&svg)?),
            }
        }
        Command::Convert {
            position,
            from,
            to,
            items,
        } => {
            let items: Vec<String> = items.iter().map(|i| unmark_rear_move(i)).collect();
            convert(&position, from, &to, &items, out)
        }
        Command::Match(args) => match_cmd::run(&args, out),
        Command::Tally(args) => match_cmd::tally(&args, out),
        Command::Uci { game, rules } => engine_cmd::uci(match &rules {
            Some(dir) => rules_kind(dir)?,
            None => game.kind(),
        }),
        Command::Bench(args) => engine_cmd::bench(&args, out),
        Command::Analyze(args) => engine_cmd::analyze(&args, out),
        Command::Play(args) => play_cmd::play(&args, out),
        Command::Serve(args) => serve_cmd::serve(args),
        Command::User(args) => serve_cmd::user(args, out),
    }
}

/// Opens the game of `args` at its position, refusing a notation the game lacks, and plays
/// `moves` written in `notation`.
fn open(
    args: &PositionArgs,
    moves: &str,
    notation: Notation,
) -> Result<Box<dyn AnyGame>, CliError> {
    let mut game = open_position(args, &args.position)?;
    check_notation(game.as_ref(), notation)?;
    for (i, text) in moves.split_whitespace().enumerate() {
        play(game.as_mut(), text, notation, i)?;
    }
    Ok(game)
}

fn open_position(args: &PositionArgs, position: &str) -> Result<Box<dyn AnyGame>, CliError> {
    let options = GameOptions {
        halfmove: args.halfmove,
        repetition_fold: args.repetition_count,
    };
    args.kind()?
        .new_game_with(position, options)
        .map_err(|e| match e {
            // A rule option the game refuses is not a fault of the position.
            chuhe::SetupError::Option(e) => CliError::user(format!("--repetition-count: {e}")),
            e => CliError::user(format!("invalid position: {e}")),
        })
}

fn check_notation(game: &dyn AnyGame, notation: Notation) -> Result<(), CliError> {
    if game.notations().contains(&notation.notation()) {
        return Ok(());
    }
    let notation = notation.notation();
    let names: Vec<&str> = game.notations().iter().map(|n| n.name()).collect();
    let others: Vec<&str> = chuhe::GameKind::ALL
        .into_iter()
        .filter(|g| g.notations().contains(&notation))
        .map(|g| g.name())
        .collect();
    Err(CliError::user(format!(
        "--notation {notation} is not a notation of {} (only {} write it); {} moves are written in {}",
        game.kind(),
        others.join(", "),
        game.kind(),
        names.join(", ")
    )))
}

fn play(
    game: &mut dyn AnyGame,
    text: &str,
    notation: Notation,
    index: usize,
) -> Result<chuhe::MoveTexts, CliError> {
    game.play_text(text, notation.notation()).map_err(|e| {
        // A syntax error quotes the move again: say it once.
        let why = match e {
            chuhe::MoveError::Syntax { reason, .. } => format!("not a move: {reason}"),
            e => e.to_string(),
        };
        CliError::user(format!(
            "illegal move '{}' at ply {}: {why}",
            chuhe::quote_input(text),
            index + 1
        ))
    })
}

fn perft(
    game: &dyn AnyGame,
    depth: u32,
    divide: bool,
    notation: Notation,
    json: bool,
    out: &mut Output,
) -> Result<(), CliError> {
    let start = Instant::now();
    let progress = progress_bar(game.root_move_count(depth));
    let mut split = Vec::new();
    let mut write_error = None;
    game.divide_each(depth, notation.notation(), &mut |m, n| {
        if let Some(bar) = &progress {
            bar.inc(1);
        }
        split.push((m.clone(), n));
        if divide && !json {
            if let Err(e) = out.write_now(&format!("{m}: {n}\n")) {
                // Nobody reads the rest: stop counting.
                write_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| CliError::user(e.to_string()))?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    let nodes = if depth == 0 {
        1
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let seconds = elapsed.as_micros() as f64 / 1e6;
    let nps = if seconds > 0.0 {
        (nodes as f64 / elapsed.as_secs_f64()).round() as u64
    } else {
        0
    };
    if json {
        let mut obj = Map::new();
        obj.insert("depth".into(), json!(depth));
        obj.insert("nodes".into(), json!(nodes));
        obj.insert("seconds".into(), json!(seconds));
        obj.insert("nodes_per_second".into(), json!(nps));
        if divide {
            split.sort();
            let d: Map<String, Value> = split.into_iter().map(|(m, n)| (m, json!(n))).collect();
            obj.insert("divide".into(), Value::Object(d));
        }
        return out.write(&format!("{}\n", Value::Object(obj)));
    }
    if divide {
        out.write("\n")?;
    }
    out.write(&format!(
        "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.1} million nodes/s)\n",
        nps as f64 / 1e6
    ))
}

/// A progress bar over the root moves on standard error, when it is a terminal.
fn progress_bar(root_moves: usize) -> Option<indicatif::ProgressBar> {
    if root_moves == 0 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(root_moves as u64);
    let style = indicatif::ProgressStyle::with_template(
        "perft {bar:30} {pos}/{len} root moves, {elapsed} elapsed, about {eta} left",
    );
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(bar)
}

/// The JSON fields describing the current position (shared by `moves` and `replay`).
fn state_fields(game: &dyn AnyGame, obj: &mut Map<String, Value>) {
    let outcome = game.outcome();
    if let Ok(fen) = game.to_text(PositionFormat::Fen) {
        obj.insert("fen".into(), json!(fen));
    }
    obj.insert("check".into(), json!(game.is_check()));
    obj.insert("status".into(), json!(outcome.map(|o| o.status.as_str())));
    obj.insert("winner".into(), json!(outcome.map(|o| o.winner_str())));
    // Which rule decided a Xiangqi repetition; null otherwise.
    obj.insert(
        "reason".into(),
        json!(outcome.and_then(|o| o.reason).map(|r| r.as_str())),
    );
}

/// An outcome for people: `repetition, second wins` plus the deciding rule, if any.
fn outcome_text(outcome: chuhe::Outcome) -> String {
    match outcome.reason {
        Some(reason) => format!("{outcome} by {reason}"),
        None => outcome.to_string(),
    }
}

fn legal_moves(game: &dyn AnyGame, notation: Notation) -> Result<Vec<String>, CliError> {
    game.legal_moves_text(notation.notation())
        .map_err(|e| CliError::user(e.to_string()))
}

fn list_moves(
    game: &dyn AnyGame,
    notation: Notation,
    json: bool,
    out: &mut Output,
) -> Result<(), CliError> {
    let moves = legal_moves(game, notation)?;
    if json {
        let mut obj = Map::new();
        obj.insert("game".into(), json!(game.kind().name()));
        obj.insert("position".into(), json!(game.to_feen()));
        obj.insert("turn".into(), json!(game.turn().as_str()));
        obj.insert("halfmove".into(), json!(game.halfmove()));
        obj.insert("moves".into(), json!(moves));
        state_fields(game, &mut obj);
        return out.write(&format!("{}\n", Value::Object(obj)));
    }
    if let Some(outcome) = game.outcome() {
        return out.write(&format!(
            "no legal moves: the game is over ({})\n",
            outcome_text(outcome)
        ));
    }
    let text: String = moves.iter().map(|m| format!("{m}\n")).collect();
    out.write(&text)
}

/// `show`: the board, then side to move, check, status, clock and the position's text.
fn show(game: &dyn AnyGame, glyphs: Glyphs) -> String {
    let mut out = game.board_text(glyphs.board());
    let turn = match game.turn() {
        chuhe::Side::First => "first (South/Red)",
        chuhe::Side::Second => "second (North/Black)",
    };
    out.push_str(&format!("turn: {turn}\n"));
    out.push_str(&format!(
        "check: {}\n",
        if game.is_check() { "yes" } else { "no" }
    ));
    match game.outcome() {
        Some(o) => {
            out.push_str(&format!(
                "status: {} (winner: {})\n",
                o.status,
                o.winner_str()
            ));
            if let Some(reason) = o.reason {
                out.push_str(&format!("reason: {reason}\n"));
            }
        }
        None => out.push_str("status: ongoing\n"),
    }
    out.push_str(&format!("halfmove: {}\n", game.halfmove()));
    if let Ok(fen) = game.to_text(PositionFormat::Fen) {
        out.push_str(&format!("fen: {fen}\n"));
    }
    out.push_str(&format!("feen: {}\n", game.to_feen()));
    out
}

/// `replay`: every ply of `moves` (read in `read_as`) from `game`, legal moves written in
/// `notation`; `outcome`, a result declared by a record, is applied after the last move.
pub(crate) fn replay(
    mut game: Box<dyn AnyGame>,
    moves: &[String],
    read_as: Notation,
    notation: Notation,
    outcome: Option<chuhe::Outcome>,
    out: &mut Output,
) -> Result<(), CliError> {
    let mut plies = Vec::new();
    let describe = |game: &dyn AnyGame, ply: usize| -> Result<Map<String, Value>, CliError> {
        let mut obj = Map::new();
        obj.insert("ply".into(), json!(ply));
        obj.insert("position".into(), json!(game.to_feen()));
        obj.insert("turn".into(), json!(game.turn().as_str()));
        obj.insert("halfmove".into(), json!(game.halfmove()));
        obj.insert("legal".into(), json!(legal_moves(game, notation)?));
        state_fields(game, &mut obj);
        Ok(obj)
    };
    for (i, text) in moves.iter().enumerate() {
        let mut obj = describe(game.as_ref(), i)?;
        let texts = play(game.as_mut(), text, read_as, i)?;
        obj.insert("move".into(), json!(texts));
        plies.push(Value::Object(obj));
    }
    if let Some(outcome) = outcome {
        game.declare(outcome);
    }
    let mut last = describe(game.as_ref(), plies.len())?;
    last.insert("move".into(), Value::Null);
    plies.push(Value::Object(last));
    out.write(&format!("{}\n", Value::Array(plies)))
}

fn convert(
    args: &PositionArgs,
    from: Option<Notation>,
    to: &str,
    items: &[String],
    out: &mut Output,
) -> Result<(), CliError> {
    if let Ok(format) = PositionFormatArg::from_str(to, true) {
        let [position] = items else {
            return Err(CliError::user(format!(
                "convert --to {to} takes one position (a FEN or FEEN in quotes), found {} arguments",
                items.len()
            )));
        };
        let game = open_position(args, position)?;
        let format = match format {
            PositionFormatArg::Feen => PositionFormat::Feen,
            PositionFormatArg::Fen => PositionFormat::Fen,
        };
        let text = game
            .to_text(format)
            .map_err(|e| CliError::user(e.to_string()))?;
        return out.write(&format!("{text}\n"));
    }
    let to = Notation::from_str(to, true).map_err(|_| {
        CliError::user(format!(
            "--to '{}' is not a notation (pmn, uci, iccs, wxf, teaching, chinese, san, fen, feen)",
            chuhe::quote_input(to)
        ))
    })?;
    let from = from.ok_or_else(|| CliError::user("convert needs --from for moves"))?;
    let mut game = open(args, "", from)?;
    check_notation(game.as_ref(), to)?;
    let mut text = String::new();
    for (i, item) in items.iter().flat_map(|s| s.split_whitespace()).enumerate() {
        let texts = play(game.as_mut(), item, from, i)?;
        if let Some(t) = texts.get(to.notation().name()) {
            text.push_str(t);
            text.push('\n');
        }
    }
    out.write(&text)
}

/// `pcn`: the record of `--moves` from the position, with players, times and the result.
fn write_record(args: &PcnArgs, out: &mut Output) -> Result<(), CliError> {
    use chuhe::notation::pcn::{SideInfo, Sides};
    let mut game = open(&args.position, &args.moves, args.notation)?;
    let times = args
        .times
        .split_whitespace()
        .enumerate()
        .map(|(i, t)| match t.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(CliError::user(format!(
                "--times: '{}' (move {}) is not a number of seconds of at least 0",
                chuhe::quote_input(t),
                i + 1
            ))),
        })
        .collect::<Result<Vec<f64>, CliError>>()?;
    if times.len() > game.plies() {
        return Err(CliError::user(format!(
            "--times: {} times for {} moves",
            times.len(),
            game.plies()
        )));
    }
    match (&args.status, &args.winner) {
        (None, None) => {}
        (Some(status), Some(winner)) => {
            let status = chuhe::Status::parse(status)
                .map_err(|e| CliError::user(format!("--status: {e}")))?;
            let winner = match winner.as_str() {
                "first" => Some(chuhe::Side::First),
                "second" => Some(chuhe::Side::Second),
                "none" => None,
                other => {
                    return Err(CliError::user(format!(
                        "--winner: '{}' is not first, second or none",
                        chuhe::quote_input(other)
                    )))
                }
            };
            if let Some(o) = game.outcome() {
                return Err(CliError::user(format!(
                    "--status: the game is already over by the rules ({o})"
                )));
            }
            if status.is_inferable() {
                return Err(CliError::user(format!(
                    "--status: '{}' is decided by the rules, not given; give resignation, \
                     timelimit, agreement, illegalmove, movelimit or repetition",
                    status.as_str()
                )));
            }
            game.declare(chuhe::Outcome::new(status, winner));
        }
        _ => {
            return Err(CliError::user(
                "--status and --winner go together (a result the rules cannot see)",
            ))
        }
    }
    let mut pcn = chuhe::record::to_pcn(game.as_ref(), &times);
    pcn.meta.event = args.event.clone();
    if args.first.is_some() || args.second.is_some() {
        let info = |name: &Option<String>| {
            name.as_ref().map(|n| SideInfo {
                name: Some(n.clone()),
                ..SideInfo::default()
            })
        };
        pcn.sides = Some(Sides {
            first: info(&args.first),
            second: info(&args.second),
        });
    }
    out.write(&format!("{}\n", pcn.to_json_pretty()))
}

/// Rasterises an SVG picture to PNG, its text drawn with the system's fonts.
fn png_of_svg(svg: &str) -> Result<Vec<u8>, CliError> {
    use resvg::{tiny_skia, usvg};
    let failed = |what: &str| CliError::user(format!("cannot draw the PNG image: {what}"));
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| failed(&e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| failed("the picture has no area"))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| failed(&e.to_string()))
}
