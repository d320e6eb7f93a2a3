//! `chuhe play`: a game at the terminal, against the engine or between two people at one
//! keyboard. Moves are typed in any notation of the game (PMN, coordinates, WXF, ICCS,
//! Chinese); the board is drawn in colour on a terminal and plainly otherwise, so the command
//! can be scripted: it reads one command or move per line from standard input until the game
//! ends or the input does, then saves the game as a PCN record.

use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

use chuhe::{AnyGame, MoveNotation, Side};
use chuhe_engine::{Engine, Limits, MAX_LEVEL};

use crate::output::{CliError, Output};
use crate::{Glyphs, PositionArgs};

/// Who plays the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// Two people at one keyboard.
    Human,
    /// chuhe's engine.
    Engine,
}

/// Which side the person plays against the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Colour {
    /// The first player (South / Red), who moves first.
    First,
    /// The second player (North / Black).
    Second,
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves played before the game starts, separated by spaces (PMN or coordinates).
    #[arg(long, default_value = "")]
    moves: String,
    /// The opponent.
    #[arg(long, value_enum, default_value = "engine")]
    vs: Opponent,
    /// Against the engine: the side you play.
    #[arg(long, value_enum, default_value = "first")]
    side: Colour,
    /// Against the engine: its strength, 0 (weakest) to 20 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=20))]
    level: u8,
    /// Against the engine: its thinking time per move in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=600_000))]
    movetime: u64,
    /// Latin letters or Chinese characters.
    #[arg(long, value_enum, default_value = "chinese")]
    glyphs: Glyphs,
    /// Where the game is saved as PCN at the end (default: chuhe-game-<time>.pcn in the
    /// current directory); `-` saves nothing.
    #[arg(long)]
    save: Option<String>,
    /// No colours, no prompts, no board after each move (the default when standard input is
    /// not a terminal).
    #[arg(long)]
    plain: bool,
}

const HELP: &str = "\
moves       list the legal moves (PMN and, for Xiangqi, WXF and Chinese)
undo        take back your last move (and the engine's reply)
resign      give up the game
draw        offer a draw (the engine accepts when it does not see itself ahead)
board       draw the board again
help        this list
quit        stop here (the game is saved unfinished)
anything else is read as a move: PMN (e3-e4, h3-e3), coordinates (e3e4, h3e3), WXF (C2=5),
            Chinese (炮二平五, 马8进7)";

struct Session {
    game: Box<dyn AnyGame>,
    engine: Option<(Engine, Side)>,
    movetime: Duration,
    glyphs: Glyphs,
    plain: bool,
    /// Seconds spent on each move, for the record.
    times: Vec<f64>,
}

pub fn play(args: &PlayArgs, out: &mut Output) -> Result<(), CliError> {
    let game = crate::open(&args.position, &args.moves, crate::Notation::Pmn)?;
    let plain = args.plain || !std::io::stdin().is_terminal();
    let engine = match args.vs {
        Opponent::Human => None,
        Opponent::Engine => {
            let mut engine = Engine::new(game.kind());
            engine
                .set_level(usize::from(args.level.min(MAX_LEVEL)))
                .map_err(|e| CliError::user(format!("--level: {e}")))?;
            let side = match args.side {
                Colour::First => Side::Second,
                Colour::Second => Side::First,
            };
            Some((engine, side))
        }
    };
    let mut session = Session {
        times: vec![0.0; game.plies()],
        game,
        engine,
        movetime: Duration::from_millis(args.movetime),
        glyphs: args.glyphs,
        plain,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    session.show(out)?;
    let mut asked = Instant::now();
    loop {
        if let Some(outcome) = session.game.outcome() {
            out.write_now(&format!("game over: {}\n", outcome.in_words()))?;
            break;
        }
        if session.engine_to_move() {
            session.engine_moves(out)?;
            asked = Instant::now();
            continue;
        }
        if !session.plain {
            let who = match session.game.turn() {
                Side::First => "first (South/Red)",
                Side::Second => "second (North/Black)",
            };
            out.write_now(&format!("{who} to move> "))?;
        }
        let Some(line) = lines.next() else {
            out.write_now("\nend of input: the game stops here\n")?;
            break;
        };
        let line = line.map_err(|e| CliError::user(format!("cannot read standard input: {e}")))?;
        let command = line.trim();
        match command {
            "" => {}
            "quit" | "exit" => break,
            "help" | "?" => out.write_now(&format!("{HELP}\n"))?,
            "board" => session.show(out)?,
            "moves" => session.list_moves(out)?,
            "undo" => session.undo(out)?,
            "resign" => {
                let side = session.game.turn();
                session.game.resign(side);
            }
            "draw" => session.offer_draw(out)?,
            text => {
                let spent = asked.elapsed().as_secs_f64();
                match session.play_text(text) {
                    Ok(pmn) => {
                        session.times.push(spent);
                        out.write_now(&format!("{}{pmn}\n", session.last_move_number()))?;
                        if !session.plain {
                            session.show(out)?;
                        }
                    }
                    Err(why) => {
                        out.write_now(&format!("? {why} (type help for the commands)\n"))?
                    }
                }
                asked = Instant::now();
            }
        }
    }
    session.save(args.save.as_deref(), out)
}

impl Session {
    fn engine_to_move(&self) -> bool {
        self.engine
            .as_ref()
            .is_some_and(|(_, side)| *side == self.game.turn())
    }

    /// The engine thinks and plays.
    fn engine_moves(&mut self, out: &mut Output) -> Result<(), CliError> {
        let Some((engine, _)) = self.engine.as_mut() else {
            return Ok(());
        };
        let moves = self.game.moves_uci();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine
            .set_position(&self.game.start_feen(), &refs)
            .map_err(|e| CliError::user(format!("the engine refused the position: {e}")))?;
        let started = Instant::now();
        let best = engine
            .search(Limits::movetime(self.movetime))
            .map_err(|e| CliError::user(format!("the engine failed: {e}")))?;
        let Some(m) = best.best else {
            return Ok(());
        };
        let texts = self
            .game
            .play_text(&m, MoveNotation::Uci)
            .map_err(|e| CliError::user(format!("the engine's move {m} was refused: {e}")))?;
        self.times.push(started.elapsed().as_secs_f64());
        let pmn = texts.get("pmn").cloned().unwrap_or(m);
        let wxf = texts
            .get("wxf")
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        out.write_now(&format!("{}{pmn}{wxf}  chuhe\n", self.last_move_number()))?;
        if !self.plain {
            self.show(out)?;
        }
        Ok(())
    }

    /// Plays a move written in any notation of the game; its PMN, or why not.
    fn play_text(&mut self, text: &str) -> Result<String, String> {
        let mut first_error = None;
        for &notation in self.game.notations() {
            match self.game.play_text(text, notation) {
                Ok(texts) => return Ok(texts.get("pmn").cloned().unwrap_or_default()),
                Err(chuhe::MoveError::GameOver { outcome }) => {
                    return Err(format!("the game is over ({outcome})"))
                }
                // A move that reads in a notation but is illegal says more than a syntax
                // error in another notation. Text in Chinese characters gets the Chinese
                // notation's syntax error, the others the first notation's.
                Err(e @ chuhe::MoveError::Syntax { .. }) => {
                    if notation == MoveNotation::Chinese && !text.is_ascii() {
                        first_error = Some(e.to_string());
                    } else {
                        first_error.get_or_insert(e.to_string());
                    }
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        Err(first_error.unwrap_or_else(|| format!("'{text}' is not a move")))
    }

    fn list_moves(&self, out: &mut Output) -> Result<(), CliError> {
        let pmn = self
            .game
            .legal_moves_text(MoveNotation::Pmn)
            .map_err(|e| CliError::user(e.to_string()))?;
        let mut text = format!("{} legal moves: {}\n", pmn.len(), pmn.join(" "));
        if let Ok(wxf) = self.game.legal_moves_text(MoveNotation::Wxf) {
            text.push_str(&format!("in WXF: {}\n", wxf.join(" ")));
        }
        if let Ok(chinese) = self.game.legal_moves_text(MoveNotation::Chinese) {
            text.push_str(&format!("in Chinese: {}\n", chinese.join(" ")));
        }
        out.write_now(&text)
    }

    /// The side that made the first move of the game.
    fn first_mover(&self) -> Side {
        if self.game.plies() % 2 == 0 {
            self.game.turn()
        } else {
            !self.game.turn()
        }
    }

    /// The number of the last move played, as game records write it: `12. ` before the
    /// first player's move, `12... ` before the second's (a move is a pair of plies, the first
    /// player's first; a game where the second player starts begins with `1... `).
    fn last_move_number(&self) -> String {
        let offset = usize::from(self.first_mover() == Side::Second);
        let index = self.game.plies().saturating_sub(1) + offset;
        let number = index / 2 + 1;
        if index % 2 == 0 {
            format!("{number}. ")
        } else {
            format!("{number}... ")
        }
    }

    /// Takes back the last move; against the engine, back to the person's turn.
    fn undo(&mut self, out: &mut Output) -> Result<(), CliError> {
        let person_has_moved = match &self.engine {
            // Only the engine's first move so far: nothing of the person's to take back.
            Some((_, engine_side)) => {
                self.game.plies() >= 2
                    || (self.game.plies() == 1 && self.first_mover() != *engine_side)
            }
            None => self.game.plies() > 0,
        };
        if !person_has_moved {
            return out.write_now("? there is no move of yours to take back\n");
        }
        self.game.undo();
        self.times.pop();
        if self.engine_to_move() && self.game.plies() > 0 {
            self.game.undo();
            self.times.pop();
        }
        if self.engine_to_move() {
            // The engine had the first move: it plays it again.
            return Ok(());
        }
        out.write_now("move taken back\n")?;
        if !self.plain {
            self.show(out)?;
        }
        Ok(())
    }

    fn offer_draw(&mut self, out: &mut Output) -> Result<(), CliError> {
        let Some((engine, _)) = self.engine.as_mut() else {
            // Two people at one keyboard: an offer made there is accepted there.
            self.game.agree_draw();
            return Ok(());
        };
        let moves = self.game.moves_uci();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine
            .set_position(&self.game.start_feen(), &refs)
            .map_err(|e| CliError::user(format!("the engine refused the position: {e}")))?;
        let verdict = engine
            .search(Limits::movetime(self.movetime / 2))
            .map_err(|e| CliError::user(format!("the engine failed: {e}")))?;
        // The score is the side to move's: the person's. The engine accepts when the person
        // is not behind.
        if verdict.score.sort_key() >= 0 {
            self.game.agree_draw();
            out.write_now("chuhe accepts the draw\n")
        } else {
            out.write_now("chuhe declines the draw\n")
        }
    }

    fn show(&self, out: &mut Output) -> Result<(), CliError> {
        if self.plain {
            return Ok(());
        }
        let latin = self.game.board_text(chuhe::Glyphs::Latin);
        let text = match self.glyphs {
            Glyphs::Latin => colour_board(&latin, &latin, 3),
            Glyphs::Chinese => {
                colour_board(&self.game.board_text(chuhe::Glyphs::Chinese), &latin, 2)
            }
        };
        let check = if self.game.is_check() { "  check!" } else { "" };
        out.write_now(&format!("\n{text}{check}\n"))
    }

    fn save(&self, path: Option<&str>, out: &mut Output) -> Result<(), CliError> {
        if path == Some("-") {
            return Ok(());
        }
        let path = path.map_or_else(
            || {
                let secs = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                format!("chuhe-game-{secs}.pcn")
            },
            String::from,
        );
        // Seconds to the millisecond, so that the record holds plain decimals (`0.004`, not
        // `4.1e-6`).
        let times: Vec<f64> = self
            .times
            .iter()
            .map(|t| (t * 1000.0).round() / 1000.0)
            .collect();
        let mut pcn = chuhe::record::to_pcn(self.game.as_ref(), &times);
        pcn.meta.event = Some("chuhe play".into());
        let written = std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(format!("{}\n", pcn.to_json_pretty()).as_bytes()));
        match written {
            Ok(()) => out.write_now(&format!("saved {path}\n")),
            Err(e) => Err(CliError::user(format!(
                "cannot save the game to '{path}': {e}"
            ))),
        }
    }
}

/// The board `text` with each piece coloured by its side, read from the `latin` drawing of
/// the same board (uppercase: the first player, in red; lowercase: the second, in bold).
/// `width` is the number of characters of one square in `text` after the rank label.
fn colour_board(text: &str, latin: &str, width: usize) -> String {
    const RED: &str = "\x1b[1;31m";
    const DARK: &str = "\x1b[1;34m";
    const RESET: &str = "\x1b[0m";
    let mut out = String::new();
    for (line, latin_line) in text.lines().zip(latin.lines()) {
        let label = latin_line.find(' ').unwrap_or(0) + 1;
        let is_rank = latin_line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()));
        if !is_rank {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let cells: Vec<char> = line.chars().skip(label).collect();
        let latin_cells: Vec<char> = latin_line.chars().skip(label).collect();
        out.extend(line.chars().take(label));
        for (cell, latin_cell) in cells.chunks(width).zip(latin_cells.chunks(3)) {
            let colour = latin_cell
                .iter()
                .find(|c| c.is_ascii_alphabetic())
                .map(|c| if c.is_ascii_uppercase() { RED } else { DARK });
            let cell: String = cell.iter().collect();
            match colour {
                Some(c) => out.push_str(&format!("{c}{cell}{RESET}")),
                None => out.push_str(&cell),
            }
        }
        out.push('\n');
    }
    out
}
