//! Opening books: EPD/FEN/FEEN lines, PGN games and PCN records, each read as a start
//! position and the moves played from it.

use chuhe::notation::pcn::Pcn;
use chuhe::{GameKind, MoveNotation, PositionFormat};

/// Where a game starts: a position and moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `start`, a FEEN, or for Xiangqi a FEN.
    pub start: String,
    /// Moves from `start`, in UCI coordinates.
    pub moves: Vec<String>,
}

impl Opening {
    /// A position with no moves.
    pub fn position(start: &str) -> Opening {
        Opening {
            start: start.to_string(),
            moves: Vec::new(),
        }
    }

    /// Checks that the position reads and the moves are legal, the game still going.
    pub fn check(&self, game: GameKind) -> Result<(), String> {
        let mut g = game.new_game(&self.start).map_err(|e| e.to_string())?;
        for (i, m) in self.moves.iter().enumerate() {
            g.play_text(m, MoveNotation::Uci)
                .map_err(|e| format!("move {} '{}': {e}", i + 1, chuhe::quote_input(m)))?;
        }
        if let Some(outcome) = g.outcome() {
            return Err(format!(
                "the game is over after the opening's moves ({})",
                outcome.status.as_str()
            ));
        }
        Ok(())
    }
}

/// How a book's file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// One position per line: `start`, FEEN, FEN, or EPD (the FEN's first four fields and
    /// operations such as `bm …; id "…";`). `#` starts a comment line.
    Lines,
    /// PGN games (Xiangqi, as pychess writes them): each the start position (its `FEN` tag)
    /// and its moves.
    Pgn,
    /// PCN records, one JSON object per file or one per line: each its setup and moves.
    Pcn,
}

impl BookFormat {
    /// The format a file name suggests: `.pgn`, `.pcn` (or `.json`), lines otherwise.
    pub fn of_path(path: &std::path::Path) -> BookFormat {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("pgn") => BookFormat::Pgn,
            Some("pcn") | Some("json") | Some("jsonl") => BookFormat::Pcn,
            _ => BookFormat::Lines,
        }
    }
}

/// Reads a book. Errors name the entry (from 1) and what is wrong with it.
///
/// ```
/// use chuhe::GameKind;
/// use chuhe_match::{read_book, BookFormat};
/// let epd = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"start\";\n";
/// let book = read_book(GameKind::Xiangqi, epd, BookFormat::Lines).unwrap();
/// assert_eq!(book.len(), 1);
/// assert!(book[0].start.ends_with(" w - - 0 1"));
/// ```
pub fn read_book(game: GameKind, text: &str, format: BookFormat) -> Result<Vec<Opening>, String> {
    let openings = match format {
        BookFormat::Lines => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|line| Opening::position(&position_of_line(game, line)))
            .collect::<Vec<_>>(),
        BookFormat::Pgn => split_pgn(text)
            .iter()
            .enumerate()
            .map(|(i, one)| {
                let read = chuhe::pgn::read(one).map_err(|e| format!("game {}: {e}", i + 1))?;
                opening_of_game(read.game.as_ref())
            })
            .collect::<Result<Vec<_>, String>>()?,
        BookFormat::Pcn => {
            let records: Vec<Pcn> = match Pcn::from_json(text) {
                Ok(one) => vec![one],
                Err(_) => text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .enumerate()
                    .map(|(i, l)| Pcn::from_json(l).map_err(|e| format!("record {}: {e}", i + 1)))
                    .collect::<Result<_, _>>()?,
            };
            records
                .iter()
                .enumerate()
                .map(|(i, pcn)| {
                    let mut g = game
                        .new_game(&pcn.setup)
                        .map_err(|e| format!("record {}: {e}", i + 1))?;
                    for (pmn, _) in &pcn.moves {
                        g.play_text(pmn, MoveNotation::Pmn)
                            .map_err(|e| format!("record {}: move '{pmn}': {e}", i + 1))?;
                    }
                    opening_of_game(g.as_ref())
                })
                .collect::<Result<Vec<_>, String>>()?
        }
    };
    for (i, opening) in openings.iter().enumerate() {
        opening
            .check(game)
            .map_err(|e| format!("opening {}: {e}", i + 1))?;
    }
    if openings.is_empty() {
        return Err("the book has no openings".into());
    }
    Ok(openings)
}

/// The position of a book line: the line itself when the game reads it, else (an EPD line)
/// its first four fields with a half-move clock of 0 and move number 1.
fn position_of_line(game: GameKind, line: &str) -> String {
    if game.new_game(line).is_ok() {
        return line.to_string();
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() >= 4 {
        let fen = format!("{} 0 1", fields[..4].join(" "));
        if game.new_game(&fen).is_ok() {
            return fen;
        }
    }
    line.to_string()
}

/// The start position of a game (FEN when the game has one) and its moves.
fn opening_of_game(game: &dyn chuhe::AnyGame) -> Result<Opening, String> {
    let start = game
        .kind()
        .new_game(&game.start_feen())
        .map_err(|e| e.to_string())?;
    Ok(Opening {
        start: start
            .to_text(PositionFormat::Fen)
            .unwrap_or_else(|_| game.start_feen()),
        moves: game.moves_uci(),
    })
}

/// Splits a PGN file into games: a tag line after movetext starts a new game.
fn split_pgn(text: &str) -> Vec<String> {
    let mut games = Vec::new();
    let mut current = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && in_moves {
            games.push(std::mem::take(&mut current));
            in_moves = false;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('[') {
            in_moves = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        games.push(current);
    }
    games
}
