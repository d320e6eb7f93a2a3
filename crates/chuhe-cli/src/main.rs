//! `chuhe`: the command line of the chuhe toolkit.
//!
//! The command-line contract (flags, JSON fields, exit codes) is used by tools outside the
//! project: see the README before changing anything here.

mod games;
mod render;

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Map, Value};

use games::{open_game, GameSession, Opening};

/// chuhe — rules, notations and perft for Xiongqi and Xiangqi.
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
    /// The `--game` name.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Xiongqi => "xiongqi",
            GameKind::Xiangqi => "xiangqi",
            GameKind::XiangqiCapture => "xiangqi-capture",
        }
    }
}

/// How moves are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// Sashité PMN (`e3-e4`, `h3-e3`); coordinates are accepted on input too.
    Pmn,
    /// UCI coordinates, ranks from 1 (`h3e3`, `b3b10`).
    Uci,
    /// ICCS / UCCI coordinates, ranks from 0 (`h2e2`).
    Iccs,
    /// WXF (`C2=5`, `H8+7`).
    Wxf,
    /// The teaching notation (`h1g3`, rank 10 written 0).
    Teaching,
}

impl Notation {
    /// The flag value.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Pmn => "pmn",
            Notation::Uci => "uci",
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Teaching => "teaching",
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

/// What `convert --to` may produce for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PositionFormat {
    /// Standard Xiangqi FEN.
    Fen,
    /// Sashité FEEN.
    Feen,
}

#[derive(clap::Args, Debug)]
struct PositionArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiongqi")]
    game: GameKind,
    /// `start`, a FEEN, or (Xiangqi) a FEN.
    #[arg(long, default_value = "start")]
    position: String,
    /// The half-move clock of the position (a FEEN holds none; a FEN's own is used otherwise).
    #[arg(long)]
    halfmove: Option<u32>,
    /// Xiangqi: a position occurring this many times ends the game (S3).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..))]
    repetition_count: u8,
}

impl PositionArgs {
    fn opening(&self) -> Opening<'_> {
        Opening {
            game: self.game,
            position: &self.position,
            halfmove: self.halfmove,
            repetition_count: self.repetition_count,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the legal move paths of a given depth.
    Perft {
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// How `--divide` writes moves.
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
        #[arg(long, default_value = "")]
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
        #[arg(long, default_value = "")]
        moves: String,
        /// How `--moves` is read.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Latin letters or Chinese characters.
        #[arg(long, value_enum, default_value = "latin")]
        glyphs: Glyphs,
    },
    /// Replays moves and prints, for every ply, the position, legal moves, status and the
    /// move played there in every notation (one JSON array).
    Replay {
        #[command(flatten)]
        position: PositionArgs,
        /// The moves, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// How moves are read and the legal moves printed.
        #[arg(long, value_enum, default_value = "pmn")]
        notation: Notation,
        /// Print JSON (the only output format).
        #[arg(long)]
        json: bool,
    },
    /// Converts moves from one notation to another (played in order from the position), or
    /// a position (the positional argument) to FEN or FEEN.
    Convert {
        #[command(flatten)]
        position: PositionArgs,
        /// The notation of the moves given.
        #[arg(long, value_enum)]
        from: Option<Notation>,
        /// `pmn`, `uci`, `iccs`, `wxf`, `teaching` for moves; `fen` or `feen` for a position.
        #[arg(long)]
        to: String,
        /// The moves (or, with `--to fen|feen`, the position).
        items: Vec<String>,
    },
}

/// An error for the user: one line on stderr, exit code 2.
#[derive(Debug)]
struct UserError(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(UserError(message)) => {
            eprintln!("{}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<String, UserError> {
    match cli.command {
        Command::Perft {
            depth,
            position,
            divide,
            notation,
            json,
        } => {
            let (session, _) = open(&position, "", notation)?;
            perft(session.as_ref(), depth, divide, notation, json)
        }
        Command::Moves {
            position,
            moves,
            notation,
            json,
        } => {
            let (session, _) = open(&position, &moves, notation)?;
            Ok(list_moves(session.as_ref(), notation, json))
        }
        Command::Show {
            position,
            moves,
            notation,
            glyphs,
        } => {
            let (session, _) = open(&position, &moves, notation)?;
            Ok(session.render(glyphs))
        }
        Command::Replay {
            position,
            moves,
            notation,
            json: _,
        } => replay(&position, &moves, notation),
        Command::Convert {
            position,
            from,
            to,
            items,
        } => convert(&position, from, &to, &items),
    }
}

fn open(
    args: &PositionArgs,
    moves: &str,
    notation: Notation,
) -> Result<(Box<dyn GameSession>, Vec<games::MoveTexts>), UserError> {
    let mut session =
        open_game(&args.opening()).map_err(|e| UserError(format!("invalid position: {e}")))?;
    session.check_notation(notation).map_err(UserError)?;
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let texts = session
            .play(text, notation)
            .map_err(|e| UserError(format!("illegal move '{text}' at ply {}: {e}", i + 1)))?;
        played.push(texts);
    }
    Ok((session, played))
}

fn perft(
    session: &dyn GameSession,
    depth: u32,
    divide: bool,
    notation: Notation,
    json: bool,
) -> Result<String, UserError> {
    let start = Instant::now();
    let (nodes, split) = if divide {
        let split = session.divide(depth, notation);
        let nodes = if depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        };
        (nodes, Some(split))
    } else {
        (session.perft(depth), None)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds).round() as u64
    } else {
        0
    };
    if json {
        let mut obj = Map::new();
        obj.insert("depth".into(), json!(depth));
        obj.insert("nodes".into(), json!(nodes));
        obj.insert("seconds".into(), json!(seconds));
        obj.insert("nodes_per_second".into(), json!(nps));
        if let Some(split) = split {
            let mut d = Map::new();
            for (m, n) in split {
                d.insert(m, json!(n));
            }
            obj.insert("divide".into(), Value::Object(d));
        }
        return Ok(format!("{}\n", Value::Object(obj)));
    }
    let mut out = String::new();
    if let Some(split) = split {
        for (m, n) in split {
            out.push_str(&format!("{m}: {n}\n"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.1} million nodes/s)\n",
        nps as f64 / 1e6
    ));
    Ok(out)
}

/// The JSON fields describing the current position (shared by `moves` and `replay`).
fn state_fields(session: &dyn GameSession, obj: &mut Map<String, Value>) {
    let outcome = session.outcome();
    if let Some(fen) = session.fen() {
        obj.insert("fen".into(), json!(fen));
    }
    obj.insert("check".into(), json!(session.is_check()));
    obj.insert("status".into(), json!(outcome.map(|o| o.status.as_str())));
    obj.insert("winner".into(), json!(outcome.map(|o| o.winner_str())));
}

fn list_moves(session: &dyn GameSession, notation: Notation, json: bool) -> String {
    let moves = session.legal_moves(notation);
    if json {
        let mut obj = Map::new();
        obj.insert("game".into(), json!(session.game_name()));
        obj.insert("position".into(), json!(session.feen()));
        obj.insert("turn".into(), json!(session.turn().as_str()));
        obj.insert("halfmove".into(), json!(session.halfmove()));
        obj.insert("moves".into(), json!(moves));
        state_fields(session, &mut obj);
        return format!("{}\n", Value::Object(obj));
    }
    moves.iter().map(|m| format!("{m}\n")).collect()
}

fn replay(args: &PositionArgs, moves: &str, notation: Notation) -> Result<String, UserError> {
    let (mut session, _) = open(args, "", notation)?;
    let mut plies = Vec::new();
    let describe = |session: &dyn GameSession, ply: usize| {
        let mut obj = Map::new();
        obj.insert("ply".into(), json!(ply));
        obj.insert("position".into(), json!(session.feen()));
        obj.insert("turn".into(), json!(session.turn().as_str()));
        obj.insert("halfmove".into(), json!(session.halfmove()));
        obj.insert("legal".into(), json!(session.legal_moves(notation)));
        state_fields(session, &mut obj);
        obj
    };
    for (i, text) in moves.split_whitespace().enumerate() {
        let mut obj = describe(session.as_ref(), i);
        let texts = session
            .play(text, notation)
            .map_err(|e| UserError(format!("illegal move '{text}' at ply {}: {e}", i + 1)))?;
        obj.insert("move".into(), json!(texts));
        plies.push(Value::Object(obj));
    }
    let mut last = describe(session.as_ref(), plies.len());
    last.insert("move".into(), Value::Null);
    plies.push(Value::Object(last));
    Ok(format!("{}\n", Value::Array(plies)))
}

fn convert(
    args: &PositionArgs,
    from: Option<Notation>,
    to: &str,
    items: &[String],
) -> Result<String, UserError> {
    if let Ok(format) = PositionFormat::from_str(to, true) {
        let [position] = items else {
            return Err(UserError(format!(
                "convert --to {to} takes one position (a FEN or FEEN in quotes), found {} arguments",
                items.len()
            )));
        };
        let mut opening = args.opening();
        opening.position = position;
        let session =
            open_game(&opening).map_err(|e| UserError(format!("invalid position: {e}")))?;
        return match format {
            PositionFormat::Feen => Ok(format!("{}\n", session.feen())),
            PositionFormat::Fen => session.fen().map(|f| format!("{f}\n")).ok_or_else(|| {
                UserError(format!("{} has no FEN; use --to feen", args.game.name()))
            }),
        };
    }
    let to = Notation::from_str(to, true).map_err(|_| {
        UserError(format!(
            "--to '{to}' is not a notation (pmn, uci, iccs, wxf, teaching, fen, feen)"
        ))
    })?;
    let from = from.ok_or_else(|| UserError("convert needs --from for moves".to_string()))?;
    let (_, played) = open(args, &items.join(" "), from)?;
    let mut out = String::new();
    for texts in played {
        let text = texts.get(to.name()).ok_or_else(|| {
            UserError(format!(
                "{} moves cannot be written in {}",
                args.game.name(),
                to.name()
            ))
        })?;
        out.push_str(text);
        out.push('\n');
    }
    Ok(out)
}
