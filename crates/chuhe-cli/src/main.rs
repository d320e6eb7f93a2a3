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

use games::{open_game, GameSession};

/// chuhe — rules, notations and perft for Xiongqi (and the Chinese-chess family).
#[derive(Parser, Debug)]
#[command(name = "chuhe", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Xiongqi (熊棋), 8×8.
    Xiongqi,
}

/// How pieces are drawn by `show`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Glyphs {
    /// PIN letters (uppercase = first player).
    Latin,
    /// The Chinese characters of the rules text.
    Chinese,
}

#[derive(clap::Args, Debug)]
struct PositionArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiongqi")]
    game: GameKind,
    /// `start` or a FEEN.
    #[arg(long, default_value = "start")]
    position: String,
    /// The half-move clock of the position (a FEEN holds none).
    #[arg(long, default_value_t = 0)]
    halfmove: u32,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the legal move paths of a given depth (X9).
    Perft {
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Replays moves and lists the legal moves there, sorted, in canonical PMN.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, separated by spaces (PMN or coordinates).
        #[arg(long, default_value = "")]
        moves: String,
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
        /// Latin letters or Chinese characters.
        #[arg(long, value_enum, default_value = "latin")]
        glyphs: Glyphs,
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
            eprintln!("{message}");
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
            json,
        } => {
            let session = open(&position, "")?;
            perft(session.as_ref(), depth, divide, json)
        }
        Command::Moves {
            position,
            moves,
            json,
        } => {
            let session = open(&position, &moves)?;
            Ok(list_moves(session.as_ref(), json))
        }
        Command::Show {
            position,
            moves,
            glyphs,
        } => {
            let session = open(&position, &moves)?;
            Ok(session.render(glyphs))
        }
    }
}

fn open(args: &PositionArgs, moves: &str) -> Result<Box<dyn GameSession>, UserError> {
    let mut session = open_game(args.game, &args.position, args.halfmove)
        .map_err(|e| UserError(format!("invalid position: {e}")))?;
    for (i, text) in moves.split_whitespace().enumerate() {
        session
            .play(text)
            .map_err(|e| UserError(format!("illegal move '{text}' at ply {}: {e}", i + 1)))?;
    }
    Ok(session)
}

fn perft(
    session: &dyn GameSession,
    depth: u32,
    divide: bool,
    json: bool,
) -> Result<String, UserError> {
    let start = Instant::now();
    let (nodes, split) = if divide {
        let split = session.divide(depth);
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

fn list_moves(session: &dyn GameSession, json: bool) -> String {
    let moves = session.legal_moves();
    let outcome = session.outcome();
    if json {
        let value = json!({
            "game": session.game_name(),
            "position": session.feen(),
            "turn": session.turn().as_str(),
            "halfmove": session.halfmove(),
            "moves": moves,
            "check": session.is_check(),
            "status": outcome.map(|o| o.status.as_str()),
            "winner": outcome.map(|o| o.winner_str()),
        });
        return format!("{value}\n");
    }
    let mut out = String::new();
    for m in &moves {
        out.push_str(m);
        out.push('\n');
    }
    out
}
