//! Xiangqi games in PGN, as pychess.org writes and reads them: the seven tag roster,
//! `[Variant "Xiangqi"]`, `[FEN …]` with `[SetUp "1"]` for a game that does not start from
//! the start position, and the moves in Fairy-Stockfish's SAN ([`MoveNotation::San`]).
//!
//! Nothing a game's text says is dropped in silence:
//!
//! - **Results**: the `Result` tag and the result marker that ends the movetext must agree;
//!   a result the rules see (a mate, a repetition) must be the rules' own; a result they
//!   cannot see (a resignation, a loss on time, an agreed draw) is declared, its status read
//!   from the `Termination` tag (see [`termination_status`]; without one, a win is a
//!   resignation and a draw an agreement). Writing adds `Termination` for a finished game.
//! - **Counters**: the `FEN` tag's half-move clock and move number are the game's, and are
//!   written back; moves are numbered from the move number, and a game where Black moves
//!   first is numbered as pychess writes it (`1. Kd9 Ra9+ 2. Ke9`).
//! - **Annotations**: comments (`{…}`, `;…`), NAGs (`$1`, and `!`, `?`, `!!`, `??`, `!?`, `?!`
//!   read as `$1`–`$6`) and variations (kept as written, not checked) are read into
//!   [`Note`]s and written back.
//! - **Malformed text** is an error with its line and column: an unclosed comment, tag or
//!   variation, a text with no game, anything after the result. A UTF-8 byte-order mark is
//!   skipped.
//!
//! A text may hold many games: [`games`] reads them one at a time from any reader (memory
//! grows with the longest game, not with the file), [`read_all`] from a string.
//!
//! Moves are read in SAN, coordinates or WXF.
//!
//! ```
//! use chuhe::{pgn, GameKind, MoveNotation};
//! let mut game = GameKind::Xiangqi.new_game("start").unwrap();
//! game.play_text("h3e3", MoveNotation::Uci).unwrap();
//! game.play_text("h10g8", MoveNotation::Uci).unwrap();
//! let text = pgn::write(game.as_ref(), &[("White".into(), "Red player".into())]).unwrap();
//! assert!(text.contains("[Variant \"Xiangqi\"]"));
//! assert!(text.contains("1. Che3 Hg8 *"));
//! let back = pgn::read(&text).unwrap();
//! assert_eq!(back.game.moves_uci(), ["h3e3", "h10g8"]);
//! assert_eq!(back.tag("White"), Some("Red player"));
//! ```

use std::io::BufRead;

use crate::{
    AnyGame, GameKind, MoveError, MoveNotation, Outcome, PositionFormat, SetupError, Side, Status,
};

/// A game read from PGN: its tags in order, the game, the result it claims, and its
/// annotations.
pub struct PgnGame {
    /// The tags, in the order they were written.
    pub tags: Vec<(String, String)>,
    /// The game, every move checked; a result the text claims and the rules cannot see is
    /// declared on it.
    pub game: Box<dyn AnyGame>,
    /// `Some(Some(side))` for a win, `Some(None)` for a draw, `None` when unfinished (`*`).
    pub result: Option<Option<Side>>,
    /// The annotations: `notes[0]` before the first move, `notes[i]` after move `i`; as long
    /// as the game has plies plus one.
    pub notes: Vec<Note>,
    /// The line the game starts on in its text (from 1).
    pub line: usize,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_of(&self.tags, name)
    }
}

/// What a PGN text says at one place of a game besides the moves: NAGs, comments and
/// variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// Numeric annotation glyphs (`$1` is 1; `!` is read as 1, `?` 2, `!!` 3, `??` 4, `!?` 5,
    /// `?!` 6).
    pub nags: Vec<u8>,
    /// Comments, as written between the braces (or after `;`), clock commands included.
    pub comments: Vec<String>,
    /// Variations, as written between the parentheses (their moves are not checked).
    pub variations: Vec<String>,
}

impl Note {
    /// Nothing noted?
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// Why a text is not a Xiangqi game in PGN.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The text is not PGN.
    #[error("PGN line {line}, column {column}: {message}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// The column (in characters), from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The game is not Xiangqi.
    #[error("PGN is written for Xiangqi only, not {0}")]
    NotXiangqi(String),
    /// The `FEN` tag is not a position.
    #[error("PGN FEN tag: {0}")]
    Setup(SetupError),
    /// A move cannot be played where it stands (`ply` from 1).
    #[error("PGN line {line}, column {column}: illegal move '{text}' at ply {ply}: {error}")]
    Move {
        /// The move's number, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: Box<MoveError>,
        /// Its line, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
    },
    /// The result does not match the game, or the tags and the movetext disagree.
    #[error("PGN: {0}")]
    Result(String),
    /// The text could not be read.
    #[error("PGN: cannot read the text: {0}")]
    Io(String),
    /// Moves cannot be written in PGN in this notation.
    #[error("PGN moves are written in SAN, ICCS, WXF, Chinese or UCI, not {0}")]
    Notation(MoveNotation),
}

impl PgnError {
    /// Where the error is, when the text says: line and column, from 1.
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            PgnError::Syntax { line, column, .. } | PgnError::Move { line, column, .. } => {
                Some((*line, *column))
            }
            _ => None,
        }
    }
}

/// A game of a many-game text that could not be read: its number and where.
#[derive(Debug, thiserror::Error)]
#[error("game {game} (line {line}, column {column}): {error}")]
pub struct Refusal {
    /// The game's number in the text, from 1.
    pub game: usize,
    /// The line of the error (or of the game's start), from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// Why.
    pub error: Box<PgnError>,
}

/// The PGN result token of a winner (`None`: a draw).
fn token_of(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::First) => "1-0",
        Some(Side::Second) => "0-1",
        None => "1/2-1/2",
    }
}

/// The winner a result token names (`None` for `*` and anything else).
fn winner_of_token(token: &str) -> Option<Option<Side>> {
    [Some(Side::First), Some(Side::Second), None]
        .into_iter()
        .find(|&w| token_of(w) == token)
}

/// The status a `Termination` tag names, if it names one: `checkmate`, `stalemate`,
/// `resignation` (also `resign`, `abandoned`), `time forfeit` (also `timeout`, `time`,
/// `timelimit`, `flag`), `agreement` (also `draw agreed`, `mutual agreement`), `rules
/// infraction` or `illegal move`, `move limit` (also `movelimit`, `50 move rule`, `60 move
/// rule`), `repetition` (also `threefold repetition`, `perpetual check`, `perpetual
/// chase`). Case and spaces, hyphens and underscores do not matter. `normal`, `unterminated`
/// and anything else name none.
pub fn termination_status(text: &str) -> Option<Status> {
    let key: String = text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "checkmate" | "mate" => Status::Checkmate,
        "stalemate" => Status::Stalemate,
        "resignation" | "resign" | "resigned" | "abandoned" => Status::Resignation,
        "timeforfeit" | "timeout" | "time" | "timelimit" | "flag" | "lostontime" => {
            Status::Timelimit
        }
        "agreement" | "drawagreed" | "mutualagreement" | "drawbyagreement" => Status::Agreement,
        "rulesinfraction" | "illegalmove" | "illegal" => Status::Illegalmove,
        "movelimit" | "50moverule" | "60moverule" | "fiftymoverule" | "sixtymoverule" => {
            Status::Movelimit
        }
        "repetition"
        | "threefoldrepetition"
        | "3foldrepetition"
        | "perpetualcheck"
        | "perpetualchase" => Status::Repetition,
        _ => return None,
    })
}

/// The `Termination` tag chuhe writes for a status: `normal` for a result the position
/// shows (a mate, no legal move), else the word [`termination_status`] reads back.
pub fn termination_of(status: Status) -> &'static str {
    match status {
        Status::Resignation => "resignation",
        Status::Timelimit => "time forfeit",
        Status::Agreement => "agreement",
        Status::Illegalmove => "rules infraction",
        Status::Movelimit => "move limit",
        Status::Repetition => "repetition",
        _ => "normal",
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

fn tag_of<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Writes a Xiangqi game as PGN. `tags` adds to or replaces the defaults (`Event`, `Site`,
/// `Date`, `Round`, `White`, `Black`, then `Variant`); `Result`, `FEN` and `SetUp` are
/// always the game's own, and so is `Termination` unless `tags` gives one that agrees.
pub fn write(game: &dyn AnyGame, tags: &[(String, String)]) -> Result<String, PgnError> {
    write_annotated(game, tags, &[], &[])
}

/// [`write()`] with annotations (`notes[0]` before the first move, `notes[i]` after move `i`)
/// and the seconds spent on each move: a move with a time and no clock comment gets a
/// `{[%emt H:MM:SS]}` comment.
pub fn write_annotated(
    game: &dyn AnyGame,
    tags: &[(String, String)],
    notes: &[Note],
    times: &[f64],
) -> Result<String, PgnError> {
    write_in(game, tags, notes, times, MoveNotation::San)
}

/// [`write_annotated`] with the moves in `notation`: SAN (pychess.org's PGN), or ICCS, WXF,
/// Chinese or UCI coordinates with the `Format` tag that names it (as the Chinese programs'
/// PGN does; [`read`] reads the moves by it). Any `Format` in `tags` gives way.
pub fn write_in(
    game: &dyn AnyGame,
    tags: &[(String, String)],
    notes: &[Note],
    times: &[f64],
    notation: MoveNotation,
) -> Result<String, PgnError> {
    if ![
        MoveNotation::San,
        MoveNotation::Iccs,
        MoveNotation::Wxf,
        MoveNotation::Chinese,
        MoveNotation::Uci,
    ]
    .contains(&notation)
    {
        return Err(PgnError::Notation(notation));
    }
    if game.kind() != GameKind::Xiangqi {
        return Err(PgnError::NotXiangqi(game.kind().name().to_string()));
    }
    let start_fen = game
        .start_text(PositionFormat::Fen)
        .map_err(|e| PgnError::NotXiangqi(e.to_string()))?;
    let standard = GameKind::Xiangqi
        .new_game("start")
        .ok()
        .and_then(|g| g.to_text(PositionFormat::Fen).ok());
    let mut all: Vec<(String, String)> = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "-"),
        ("White", "?"),
        ("Black", "?"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let outcome = game.outcome();
    for (k, v) in tags {
        if ["Result", "FEN", "SetUp", "Variant", "Format"].contains(&k.as_str()) {
            continue;
        }
        if k == "Termination" {
            // A kept termination that the result contradicts gives way to the game's own.
            let agrees = match (outcome, termination_status(v)) {
                (Some(o), Some(s)) => s == o.status,
                _ => true,
            };
            if !agrees {
                continue;
            }
        }
        match all.iter_mut().find(|(name, _)| name == k) {
            Some(slot) => slot.1 = v.clone(),
            None => all.push((k.clone(), v.clone())),
        }
    }
    let result = outcome.map_or("*", |o| token_of(o.winner));
    all.insert(6, ("Result".into(), result.into()));
    if let (Some(o), None) = (outcome, tag_of(&all, "Termination")) {
        all.push(("Termination".into(), termination_of(o.status).into()));
    }
    all.push(("Variant".into(), "Xiangqi".into()));
    if let Some(format) = format_of(notation) {
        all.push(("Format".into(), format.into()));
    }
    if standard.as_deref() != Some(start_fen.as_str()) {
        all.push(("FEN".into(), start_fen.clone()));
        all.push(("SetUp".into(), "1".into()));
    }
    let mut out = String::new();
    for (k, v) in &all {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    // Move numbers follow the FEN's move number; a number is written before the first move
    // and before every move of the side that moved first (pychess: `1. Kd9 Ra9+ 2. Ke9`).
    let mut number: u32 = start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut replay = game.start_game();
    let first_side = replay.turn();
    let mut tokens = Vec::new();
    let empty = Note::default();
    let note = |i: usize| notes.get(i).unwrap_or(&empty);
    let mut interrupted = push_note(&mut tokens, note(0), None);
    for (i, uci) in game.moves_uci().iter().enumerate() {
        let mover = replay.turn();
        let texts = replay
            .play_text(uci, MoveNotation::Uci)
            .map_err(|error| PgnError::Move {
                ply: i + 1,
                text: uci.clone(),
                error: Box::new(error),
                line: 0,
                column: 0,
            })?;
        let san = texts
            .get(notation.name())
            .cloned()
            .unwrap_or_else(|| uci.clone());
        if i > 0 && mover == first_side {
            number += 1;
        }
        if i == 0 || mover == first_side {
            tokens.push(format!("{number}. {san}"));
        } else if interrupted {
            // After a comment or variation, a move of the second side is numbered again.
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san);
        }
        interrupted = push_note(&mut tokens, note(i + 1), times.get(i).copied());
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.chars().count() + 1 + t.chars().count() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
        if t.starts_with(';') {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// Appends a note's NAGs, comments and variations; `time`, the seconds the move took, as an
/// `%emt` comment when it is above 0 and no comment carries a clock. Whether it wrote a
/// comment or variation (after which a move is numbered again).
fn push_note(tokens: &mut Vec<String>, note: &Note, time: Option<f64>) -> bool {
    let before = tokens.len();
    for n in &note.nags {
        tokens.push(format!("${n}"));
    }
    for c in &note.comments {
        // A comment with a `}` (read from a `;` comment) is written as one: it ends its line.
        if c.contains('}') {
            tokens.push(format!("; {}", c.replace('\n', " ")));
        } else {
            tokens.push(format!("{{{c}}}"));
        }
    }
    let has_clock = note
        .comments
        .iter()
        .any(|c| c.contains("[%clk") || c.contains("[%emt"));
    if let (Some(t), false) = (time, has_clock) {
        if t > 0.0 && t.is_finite() {
            tokens.push(format!("{{[%emt {}]}}", clock_text(t)));
        }
    }
    for v in &note.variations {
        tokens.push(format!("({v})"));
    }
    tokens.len() > before + note.nags.len()
}

/// Seconds as `H:MM:SS`, with the fraction when there is one (`0:00:01.5`).
fn clock_text(seconds: f64) -> String {
    let whole = seconds.trunc() as u64;
    let fraction = seconds - whole as f64;
    let mut text = format!("{}:{:02}:{:02}", whole / 3600, whole / 60 % 60, whole % 60);
    if fraction > 0.0 {
        let f = format!("{fraction:.3}");
        text.push_str(f.trim_start_matches('0').trim_end_matches('0'));
    }
    text
}

/// `H:MM:SS` or `M:SS` or `SS`, each with an optional fraction, as seconds.
fn parse_clock(text: &str) -> Option<f64> {
    let mut seconds = 0.0;
    for part in text.trim().split(':') {
        let v: f64 = part.parse().ok()?;
        if !(v.is_finite() && v >= 0.0) {
            return None;
        }
        seconds = seconds * 60.0 + v;
    }
    Some(seconds)
}

/// The value of a `[%name value]` command in a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let start = comment.find(&format!("[%{name}"))? + name.len() + 2;
    let rest = &comment[start..];
    let end = rest.find(']')?;
    Some(rest[..end].trim())
}

/// The seconds spent on each move of a game read from PGN: `[%emt …]` where given, else the
/// difference between a side's `[%clk …]` readings (its previous one, or the `TimeControl`
/// tag's base time, plus the increment); 0 where neither says.
pub fn move_times(pgn: &PgnGame) -> Vec<f64> {
    let (base, increment) = pgn
        .tag("TimeControl")
        .and_then(|tc| {
            let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
            Some((
                base.trim().parse::<f64>().ok()?,
                inc.trim().parse::<f64>().ok()?,
            ))
        })
        .map_or((None, 0.0), |(b, i)| (Some(b), i));
    let mut last_clock = [base, base];
    let first = pgn.game.start_game().turn();
    (0..pgn.game.plies())
        .map(|i| {
            let note = pgn.notes.get(i + 1);
            let find = |name: &str| {
                note.and_then(|n| n.comments.iter().find_map(|c| command(c, name)))
                    .and_then(parse_clock)
            };
            let side = usize::from((i % 2 == 1) != (first == Side::Second));
            let clock = find("clk");
            let spent = find("emt").or_else(|| {
                let (before, now) = (last_clock[side]?, clock?);
                let spent = before + increment - now;
                (spent >= 0.0).then_some(spent)
            });
            if clock.is_some() {
                last_clock[side] = clock;
            }
            spent.unwrap_or(0.0)
        })
        .collect()
}

/// Reads the first game of a PGN text (an error when the text holds none).
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    match read_all(text).next() {
        Some(result) => result.map_err(|r| *r.error),
        None => Err(no_game()),
    }
}

fn no_game() -> PgnError {
    PgnError::Syntax {
        line: 1,
        column: 1,
        message: "the text holds no game".into(),
    }
}

/// Every game of a PGN text, in order (see [`games`]).
pub fn read_all(text: &str) -> Games<&[u8]> {
    games(text.as_bytes())
}

/// Every game of a PGN text read from `reader`, one at a time: memory grows with the longest
/// game, not with the text. Each is a game or the reason it was refused; a text with no game
/// at all gives one refusal.
pub fn games<R: BufRead>(reader: R) -> Games<R> {
    Games {
        texts: GameTexts {
            reader,
            line: 0,
            pending: None,
            done: false,
            started: false,
        },
        index: 0,
    }
}

/// The games of a PGN text (see [`games`]).
pub struct Games<R: BufRead> {
    texts: GameTexts<R>,
    index: usize,
}

impl<R: BufRead> Games<R> {
    /// The next game's text without reading its moves: its number (from 1), its first line
    /// and its text; `None` at the end. Cheaper than [`Iterator::next`] for skipping games.
    pub fn next_text(&mut self) -> Option<Result<(usize, usize, String), Refusal>> {
        let next = self.texts.next_game();
        let index = self.index + 1;
        match next {
            Ok(None) => {
                if self.index == 0 {
                    self.index = 1;
                    return Some(Err(Refusal {
                        game: 1,
                        line: 1,
                        column: 1,
                        error: Box::new(no_game()),
                    }));
                }
                None
            }
            Ok(Some((line, text))) => {
                self.index = index;
                Some(Ok((index, line, text)))
            }
            Err(e) => {
                self.index = index;
                self.texts.done = true;
                Some(Err(Refusal {
                    game: index,
                    line: self.texts.line.max(1),
                    column: 1,
                    error: Box::new(PgnError::Io(e.to_string())),
                }))
            }
        }
    }
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = Result<PgnGame, Refusal>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.next_text()? {
            Err(r) => Err(r),
            Ok((index, line, text)) => read_at(&text, line, index),
        })
    }
}

/// Reads the text of one game (as [`Games::next_text`] gives it): `line` is the line it
/// starts on in its file, `game` its number there (for the refusal).
pub fn read_at(text: &str, line: usize, game: usize) -> Result<PgnGame, Refusal> {
    parse_game(text, line).map_err(|error| {
        let (line, column) = error.location().unwrap_or((line, 1));
        Refusal {
            game,
            line,
            column,
            error: Box::new(error),
        }
    })
}

/// Splits a PGN text into the texts of its games, line by line: a game ends where a tag
/// line follows its movetext (outside comments and variations).
struct GameTexts<R: BufRead> {
    reader: R,
    /// Lines read so far.
    line: usize,
    /// The tag line that began the next game, and its number.
    pending: Option<(usize, String)>,
    done: bool,
    started: bool,
}

impl<R: BufRead> GameTexts<R> {
    fn next_game(&mut self) -> std::io::Result<Option<(usize, String)>> {
        let mut text = String::new();
        let mut first_line = 0;
        let (mut in_brace, mut depth, mut has_moves) = (false, 0usize, false);
        if let Some((n, line)) = self.pending.take() {
            first_line = n;
            text.push_str(&line);
        }
        let mut line = String::new();
        while !self.done {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 {
                self.done = true;
                break;
            }
            self.line += 1;
            if !self.started {
                self.started = true;
                if let Some(rest) = line.strip_prefix('\u{feff}') {
                    line = rest.to_string();
                }
            }
            let trimmed = line.trim_start();
            if first_line == 0 {
                if trimmed.is_empty() {
                    continue;
                }
                first_line = self.line;
            }
            if !in_brace && depth == 0 && trimmed.starts_with('[') {
                if has_moves {
                    self.pending = Some((self.line, std::mem::take(&mut line)));
                    return Ok(Some((first_line, text)));
                }
                text.push_str(&line);
                continue;
            }
            if !in_brace && trimmed.starts_with('%') && line.starts_with('%') {
                text.push_str(&line);
                continue;
            }
            for c in line.chars() {
                if in_brace {
                    in_brace = c != '}';
                    continue;
                }
                match c {
                    '{' => (in_brace, has_moves) = (true, true),
                    ';' => {
                        has_moves = true;
                        break;
                    }
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    c if !c.is_whitespace() => has_moves = true,
                    _ => {}
                }
            }
            text.push_str(&line);
        }
        Ok((first_line > 0).then_some((first_line, text)))
    }
}

/// A lexical token of PGN.
#[derive(Debug)]
enum Token {
    Tag(String, String),
    Comment(String),
    Nag(u8),
    Variation(String),
    /// A result marker: `1-0`, `0-1`, `1/2-1/2`, `*`.
    Result(String),
    /// A move number (`12.`, `12...`).
    Number,
    Move(String),
}

/// Reads the tokens of one game's text, with their lines and columns.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
    /// Tokens split off a symbol (`1.Che3!`: the move and the NAG after the number).
    queued: std::collections::VecDeque<(Token, usize, usize)>,
}

impl Lexer<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(line: usize, column: usize, message: impl Into<String>) -> PgnError {
        PgnError::Syntax {
            line,
            column,
            message: message.into(),
        }
    }

    /// The next token and where it starts; `None` at the end.
    fn next_token(&mut self) -> Result<Option<(Token, usize, usize)>, PgnError> {
        loop {
            let Some(&c) = self.chars.peek() else {
                return Ok(None);
            };
            let (line, column) = (self.line, self.column);
            if c.is_whitespace() {
                self.bump();
                continue;
            }
            if c == '%' && column == 1 {
                while self.bump().is_some_and(|c| c != '\n') {}
                continue;
            }
            let token = match c {
                '[' => self.tag(line, column)?,
                '{' => {
                    self.bump();
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            None => {
                                return Err(Self::error(
                                    line,
                                    column,
                                    "the comment opened by '{' here is never closed by '}'",
                                ))
                            }
                            Some('}') => break,
                            Some(c) => text.push(c),
                        }
                    }
                    Token::Comment(text.trim().to_string())
                }
                ';' => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.chars.peek().copied().filter(|&c| c != '\n') {
                        self.bump();
                        text.push(c);
                    }
                    Token::Comment(text.trim().to_string())
                }
                '(' => self.variation(line, column)?,
                ')' => {
                    return Err(Self::error(
                        line,
                        column,
                        "')' closes no variation (no '(' before it)",
                    ))
                }
                '$' => {
                    self.bump();
                    let mut digits = String::new();
                    while let Some(d) = self.chars.peek().copied().filter(char::is_ascii_digit) {
                        self.bump();
                        digits.push(d);
                    }
                    let nag = digits.parse::<u8>().map_err(|_| {
                        Self::error(line, column, "'$' must be followed by a NAG number 0-255")
                    })?;
                    Token::Nag(nag)
                }
                '}' | ']' => {
                    return Err(Self::error(
                        line,
                        column,
                        format!(
                            "'{c}' closes nothing (no '{}' before it)",
                            if c == '}' { '{' } else { '[' }
                        ),
                    ))
                }
                _ => {
                    let mut symbol = String::new();
                    while let Some(c) = self
                        .chars
                        .peek()
                        .copied()
                        .filter(|c| !c.is_whitespace() && !"{}()[];$".contains(*c))
                    {
                        self.bump();
                        symbol.push(c);
                    }
                    self.symbol(symbol, line, column)?
                }
            };
            return Ok(Some((token, line, column)));
        }
    }

    /// A symbol: a result, a move number, a move (a move number written against it and
    /// `!`/`?` marks after it come apart).
    fn symbol(&mut self, symbol: String, line: usize, column: usize) -> Result<Token, PgnError> {
        if winner_of_token(&symbol).is_some() || symbol == "*" {
            return Ok(Token::Result(symbol));
        }
        let digits = symbol.chars().take_while(char::is_ascii_digit).count();
        let dots = symbol[digits..].chars().take_while(|&c| c == '.').count();
        if digits > 0 && (dots > 0 || digits == symbol.len()) {
            let rest = &symbol[digits + dots..];
            if rest.is_empty() {
                return Ok(Token::Number);
            }
            // `1.Che3`: the number, then the move on its own.
            let column = column + digits + dots;
            let token = self.symbol(rest.to_string(), line, column)?;
            self.queued.push_front((token, line, column));
            return Ok(Token::Number);
        }
        let bare = symbol.trim_end_matches(['!', '?']);
        let marks = &symbol[bare.len()..];
        if bare.is_empty() {
            return nag_of_marks(marks).map(Token::Nag).ok_or_else(|| {
                Self::error(line, column, format!("'{marks}' is not an annotation"))
            });
        }
        if !marks.is_empty() {
            if let Some(nag) = nag_of_marks(marks) {
                let at = column + bare.chars().count();
                self.queued.push_back((Token::Nag(nag), line, at));
            }
        }
        Ok(Token::Move(bare.to_string()))
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes, on one line.
    fn tag(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        let mut raw = String::new();
        let mut quoted = false;
        let mut escaped = false;
        loop {
            match self.chars.peek().copied() {
                None | Some('\n') => {
                    return Err(Self::error(
                        line,
                        column,
                        format!(
                            "the tag '{}' is never closed by ']'",
                            chuhe_notation::error::shorten(raw.trim())
                        ),
                    ))
                }
                Some(c) => {
                    self.bump();
                    raw.push(c);
                    if escaped {
                        escaped = false;
                    } else if c == '\\' && quoted {
                        escaped = true;
                    } else if c == '"' {
                        quoted = !quoted;
                    } else if c == ']' && !quoted {
                        break;
                    }
                }
            }
        }
        let (name, value) = parse_tag(&raw).ok_or_else(|| {
            Self::error(
                line,
                column,
                format!(
                    "'{}' is not a tag like [Event \"…\"]",
                    chuhe_notation::error::shorten(&raw)
                ),
            )
        })?;
        Ok(Token::Tag(name, value))
    }

    /// `( … )`, nested, as written inside.
    fn variation(&mut self, line: usize, column: usize) -> Result<Token, PgnError> {
        self.bump();
        let mut text = String::new();
        let mut depth = 1;
        let mut in_brace = false;
        loop {
            let Some(c) = self.bump() else {
                return Err(Self::error(
                    line,
                    column,
                    "the variation opened by '(' here is never closed by ')'",
                ));
            };
            if in_brace {
                in_brace = c != '}';
            } else if c == '{' {
                in_brace = true;
            } else if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            text.push(c);
        }
        Ok(Token::Variation(
            text.split_whitespace().collect::<Vec<_>>().join(" "),
        ))
    }
}

/// The NAG of the marks `!`, `?`, `!!`, `??`, `!?`, `?!`.
fn nag_of_marks(marks: &str) -> Option<u8> {
    Some(match marks {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

impl Lexer<'_> {
    /// The next token, split-off parts first.
    fn next(&mut self) -> Result<Option<(Token, usize, usize)>, PgnError> {
        if let Some(t) = self.queued.pop_front() {
            return Ok(Some(t));
        }
        self.next_token()
    }
}

/// Reads one game's text; `first_line` is the line it starts on in the whole text.
fn parse_game(text: &str, first_line: usize) -> Result<PgnGame, PgnError> {
    let mut tokens = Lexer {
        chars: text.chars().peekable(),
        line: first_line,
        column: 1,
        queued: Default::default(),
    };
    let mut tags = Vec::new();
    let mut first = None;
    while let Some((token, line, column)) = tokens.next()? {
        match token {
            Token::Tag(k, v) => tags.push((k, v)),
            other => {
                first = Some((other, line, column));
                break;
            }
        }
    }
    if let Some(v) = tag_of(&tags, "Variant") {
        if !v.eq_ignore_ascii_case("xiangqi") {
            return Err(PgnError::NotXiangqi(format!("the variant '{v}'")));
        }
    }
    let fen = tag_of(&tags, "FEN").unwrap_or("start");
    let mut game = GameKind::Xiangqi.new_game(fen).map_err(PgnError::Setup)?;
    let notations = notations_of_format(tag_of(&tags, "Format"));
    let mut notes = vec![Note::default()];
    let mut marker: Option<(String, usize, usize)> = None;
    let mut next = first;
    while let Some((token, line, column)) = next.take() {
        let note = notes.last_mut().expect("never empty");
        match token {
            Token::Comment(c) => note.comments.push(c),
            Token::Nag(n) => note.nags.push(n),
            Token::Variation(v) => note.variations.push(v),
            Token::Number => {}
            Token::Tag(..) => {
                return Err(PgnError::Syntax {
                    line,
                    column,
                    message: "a tag after the moves: a game's tags come before its moves \
                              (or the game before it has no result)"
                        .into(),
                })
            }
            _ if marker.is_some() => {
                return Err(PgnError::Syntax {
                    line,
                    column,
                    message: format!(
                        "'{}' after the result",
                        chuhe_notation::error::shorten(&token_text(&token))
                    ),
                })
            }
            Token::Result(r) => marker = Some((r, line, column)),
            Token::Move(m) => {
                let ply = game.plies() + 1;
                // In the notation the Format tag names; without one, SAN as pychess writes
                // it, then coordinates, WXF and Chinese from other programs. (A move that
                // fails leaves the game as it was; the first notation's error is the one
                // told.)
                // The Chinese programs write ICCS as `H2-E2`.
                let m = if notations == [MoveNotation::Iccs] {
                    m.to_ascii_lowercase().replace('-', "")
                } else {
                    m
                };
                let played = notations[1..]
                    .iter()
                    .fold(game.play_text(&m, notations[0]), |first, &n| {
                        first.or_else(|e| game.play_text(&m, n).map_err(|_| e))
                    });
                played.map_err(|error| PgnError::Move {
                    ply,
                    text: m.clone(),
                    error: Box::new(error),
                    line,
                    column,
                })?;
                notes.push(Note::default());
            }
        }
        next = tokens.next()?;
    }
    if tags.is_empty() && game.plies() == 0 && marker.is_none() {
        return Err(PgnError::Syntax {
            line: first_line,
            column: 1,
            message: "no game here: no tag, move or result, only comments".into(),
        });
    }
    let result = settle_result(game.as_mut(), &tags, marker.as_ref())?;
    Ok(PgnGame {
        tags,
        game,
        result,
        notes,
        line: first_line,
    })
}

/// The notations moves are read in, by the `Format` tag of the Chinese programs' PGN
/// (`ICCS`, read as `h2e2` or `H2-E2`; `WXF`, `Chinese`; `UCI`, `SAN`); SAN, UCI, WXF and
/// Chinese without one.
fn notations_of_format(format: Option<&str>) -> Vec<MoveNotation> {
    let key = format.map(|f| f.trim().to_ascii_lowercase());
    match key.as_deref() {
        Some("iccs" | "ucci") => vec![MoveNotation::Iccs],
        Some("wxf") => vec![MoveNotation::Wxf],
        Some("chinese" | "中文" | "cn" | "zh") => vec![MoveNotation::Chinese],
        Some("uci") => vec![MoveNotation::Uci],
        _ => vec![
            MoveNotation::San,
            MoveNotation::Uci,
            MoveNotation::Wxf,
            MoveNotation::Chinese,
        ],
    }
}

/// The `Format` tag of moves written in `notation` (none for SAN, pychess's PGN).
fn format_of(notation: MoveNotation) -> Option<&'static str> {
    match notation {
        MoveNotation::Iccs => Some("ICCS"),
        MoveNotation::Wxf => Some("WXF"),
        MoveNotation::Chinese => Some("Chinese"),
        MoveNotation::Uci => Some("UCI"),
        _ => None,
    }
}

fn token_text(token: &Token) -> String {
    match token {
        Token::Move(m) => m.clone(),
        Token::Result(r) => r.clone(),
        Token::Nag(n) => format!("${n}"),
        _ => String::new(),
    }
}

/// Checks the result the tag and the marker claim against each other and the rules, and
/// declares a result the rules cannot see.
pub(crate) fn settle_result(
    game: &mut dyn AnyGame,
    tags: &[(String, String)],
    marker: Option<&(String, usize, usize)>,
) -> Result<Option<Option<Side>>, PgnError> {
    let tag = tag_of(tags, "Result").filter(|t| winner_of_token(t).is_some() || *t == "*");
    if let (Some(tag), Some((marker, line, column))) = (tag, marker) {
        if tag != marker {
            return Err(PgnError::Result(format!(
                "the Result tag says {tag} but the moves end with {marker} \
                 (line {line}, column {column})"
            )));
        }
    }
    let claimed = marker
        .map(|(m, ..)| m.as_str())
        .or(tag)
        .and_then(winner_of_token);
    let termination = tag_of(tags, "Termination");
    let named = termination.and_then(termination_status);
    let plies = game.plies();
    match (game.outcome(), claimed) {
        (Some(actual), Some(w)) if w != actual.winner => Err(PgnError::Result(format!(
            "the result says {} but the game ended: {actual}",
            token_of(w)
        ))),
        (Some(actual), _) => match named {
            Some(s) if s != actual.status && claimed.is_some() => Err(PgnError::Result(format!(
                "the Termination tag says '{}' but the game ended: {actual}",
                termination.unwrap_or_default()
            ))),
            _ => Ok(claimed.or(Some(actual.winner))),
        },
        (None, Some(winner)) => {
            let status = named.unwrap_or(if winner.is_some() {
                Status::Resignation
            } else {
                Status::Agreement
            });
            if status.is_inferable() {
                return Err(PgnError::Result(format!(
                    "the result says {} by {} (Termination '{}') but the position shows no \
                     {} after its {plies} moves",
                    token_of(winner),
                    status.as_str(),
                    termination.unwrap_or_default(),
                    status.as_str()
                )));
            }
            game.declare(Outcome::new(status, winner));
            Ok(Some(winner))
        }
        (None, None) => Ok(None),
    }
}

/// PGN tags for a PCN record's metadata: `Event`, `Site` (its location or link), `Round`,
/// `Date` (from `started_at`), `White` and `Black` (the players' names), and the tags kept
/// under `meta.pgn`.
pub fn tags_of_pcn(pcn: &chuhe_notation::pcn::Pcn) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            tags.push((k.to_string(), v));
        }
    };
    put("Event", pcn.meta.event.clone());
    put("Site", pcn.meta.location.clone().or(pcn.meta.href.clone()));
    put(
        "Date",
        pcn.meta
            .started_at
            .as_ref()
            .and_then(|d| d.get(..10))
            .map(|d| d.replace('-', ".")),
    );
    put("Round", pcn.meta.round.map(|r| r.to_string()));
    let name =
        |info: &Option<chuhe_notation::pcn::SideInfo>| info.as_ref().and_then(|i| i.name.clone());
    if let Some(sides) = &pcn.sides {
        put("White", name(&sides.first));
        put("Black", name(&sides.second));
    }
    // Tags kept from an earlier PGN (see [`to_pcn`]); the result is always the game's own.
    if let Some(serde_json::Value::Object(kept)) = pcn.meta.extra.get("pgn") {
        for (k, v) in kept {
            if let (Some(v), false) = (v.as_str(), k == "Result") {
                match tags.iter_mut().find(|(name, _)| name == k) {
                    Some(slot) => slot.1 = v.to_string(),
                    None => tags.push((k.clone(), v.to_string())),
                }
            }
        }
    }
    tags
}

/// The annotations a PCN record keeps under `meta.annotations` (see [`to_pcn`]), as notes
/// for [`write_annotated`]: `notes[0]` before the first move, `notes[i]` after move `i`.
pub fn notes_of_pcn(pcn: &chuhe_notation::pcn::Pcn) -> Vec<Note> {
    let mut notes = vec![Note::default(); pcn.moves.len() + 1];
    let Some(serde_json::Value::Array(list)) = pcn.meta.extra.get("annotations") else {
        return notes;
    };
    let strings = |v: Option<&serde_json::Value>| -> Vec<String> {
        v.and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    for entry in list {
        let Some(ply) = entry.get("ply").and_then(|p| p.as_u64()) else {
            continue;
        };
        let Some(note) = notes.get_mut(ply as usize) else {
            continue;
        };
        note.comments = strings(entry.get("comments"));
        note.variations = strings(entry.get("variations"));
        note.nags = entry
            .get("nags")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_u64().and_then(|n| u8::try_from(n).ok()))
                    .collect()
            })
            .unwrap_or_default();
    }
    notes
}

/// The PGN text of a PCN record: its game (checked), its tags ([`tags_of_pcn`]), its
/// annotations ([`notes_of_pcn`]) and its move times.
pub fn of_pcn(pcn: &chuhe_notation::pcn::Pcn) -> Result<String, PgnError> {
    of_pcn_in(pcn, MoveNotation::San)
}

/// [`of_pcn`] with the moves in `notation` (see [`write_in`]).
pub fn of_pcn_in(
    pcn: &chuhe_notation::pcn::Pcn,
    notation: MoveNotation,
) -> Result<String, PgnError> {
    let game = crate::record::game_of(pcn).map_err(|e| PgnError::Result(e.to_string()))?;
    let times: Vec<f64> = pcn.moves.iter().map(|(_, t)| *t).collect();
    write_in(
        game.as_ref(),
        &tags_of_pcn(pcn),
        &notes_of_pcn(pcn),
        &times,
        notation,
    )
}

/// The PCN record of a game read from PGN: its moves with the times its clock comments give
/// ([`move_times`]), its result (status and winner, declared ones included), its counters,
/// and the tags as metadata (`Event`, `Site` as the location, `Round`, `White` and `Black`
/// as the players' names; every other tag but `Result`, `FEN`, `SetUp` and `Variant` kept
/// under `meta.pgn`; `Format` names the notation of the moves, which PCN writes in PMN); its annotations under `meta.annotations`, a list of
/// `{"ply": i, "nags": […], "comments": […], "variations": […]}` (ply 0: before the first
/// move), only where there are some.
pub fn to_pcn(pgn: &PgnGame) -> chuhe_notation::pcn::Pcn {
    use chuhe_notation::pcn::{SideInfo, Sides};
    let mut pcn = crate::record::to_pcn(pgn.game.as_ref(), &move_times(pgn));
    let mut rest = serde_json::Map::new();
    for (k, v) in &pgn.tags {
        match k.as_str() {
            "Event" => pcn.meta.event = Some(v.clone()),
            "Site" => pcn.meta.location = Some(v.clone()),
            "Round" if v.parse::<u32>().is_ok_and(|r| r > 0) => pcn.meta.round = v.parse().ok(),
            "White" | "Black" => {
                let info = Some(SideInfo {
                    name: Some(v.clone()),
                    ..SideInfo::default()
                });
                let sides = pcn.sides.get_or_insert_with(Sides::default);
                if k == "White" {
                    sides.first = info;
                } else {
                    sides.second = info;
                }
            }
            "FEN" | "SetUp" | "Variant" | "Result" | "Format" => {}
            _ => {
                rest.insert(k.clone(), serde_json::Value::String(v.clone()));
            }
        }
    }
    if !rest.is_empty() {
        pcn.meta
            .extra
            .insert("pgn".into(), serde_json::Value::Object(rest));
    }
    let annotations: Vec<serde_json::Value> = pgn
        .notes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_empty())
        .map(|(ply, n)| {
            let mut entry = serde_json::Map::new();
            entry.insert("ply".into(), ply.into());
            if !n.nags.is_empty() {
                entry.insert("nags".into(), n.nags.clone().into());
            }
            if !n.comments.is_empty() {
                entry.insert("comments".into(), n.comments.clone().into());
            }
            if !n.variations.is_empty() {
                entry.insert("variations".into(), n.variations.clone().into());
            }
            serde_json::Value::Object(entry)
        })
        .collect();
    if !annotations.is_empty() {
        pcn.meta
            .extra
            .insert("annotations".into(), annotations.into());
    }
    pcn
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(t: &str) -> Option<(String, String)> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else if c == '"' {
            return None;
        } else {
            value.push(c);
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_from_a_fen_numbers_moves_from_its_counter() {
        let mut game = GameKind::Xiangqi
            .new_game("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 12")
            .unwrap();
        game.play_text("d10d9", MoveNotation::Uci).unwrap();
        game.play_text("a1a9", MoveNotation::Uci).unwrap();
        let text = write(game.as_ref(), &[]).unwrap();
        assert!(text.contains("[SetUp \"1\"]"), "{text}");
        assert!(
            text.contains("[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 12\"]"),
            "{text}"
        );
        // As pyffish writes them: get_san_moves(…, ["d10d9", "a1a9"]) == ["Kd9", "Ra9+"].
        assert!(text.contains("12. Kd9 Ra9+ *"), "{text}");
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(!text.contains("Termination"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.game.moves_uci(), game.moves_uci());
        assert_eq!(back.result, None);
    }

    #[test]
    fn move_numbers_written_against_moves_and_marks_come_apart() {
        let g = read("1.Che3 Hg8!? 2.Hg3?? 15+1x *").err().unwrap();
        // `15+1` is a WXF counted soldier, not a move number: it is read as a move.
        assert!(
            g.to_string().contains("illegal move '15+1x' at ply 4"),
            "{g}"
        );
        let g = read("1.Che3 Hg8!? 2.Hg3?? *").unwrap();
        assert_eq!(g.game.moves_uci(), ["h3e3", "h10g8", "h1g3"]);
        assert_eq!(g.notes[2].nags, [5]);
        assert_eq!(g.notes[3].nags, [4]);
    }

    #[test]
    fn termination_words_read_back_as_their_status() {
        for status in Status::ALL {
            let word = termination_of(status);
            if word != "normal" {
                assert_eq!(termination_status(word), Some(status), "{word}");
            }
        }
        assert_eq!(termination_status("Time forfeit"), Some(Status::Timelimit));
        assert_eq!(termination_status("normal"), None);
        assert_eq!(termination_status("unterminated"), None);
    }

    #[test]
    fn clock_texts_read_back() {
        for (seconds, text) in [
            (0.5, "0:00:00.5"),
            (62.0, "0:01:02"),
            (3725.25, "1:02:05.25"),
        ] {
            assert_eq!(clock_text(seconds), text);
            assert_eq!(parse_clock(text), Some(seconds));
        }
        assert_eq!(parse_clock("4:58"), Some(298.0));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("-1"), None);
    }

    #[test]
    fn a_start_date_of_any_text_becomes_a_date_tag_without_panicking() {
        let mut pcn = chuhe_notation::pcn::Pcn::from_json(
            r#"{"setup": "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x"}"#,
        )
        .unwrap();
        for (started, date) in [
            ("2024-05-01T10:00:00Z", Some("2024.05.01")),
            ("xéééééé", None),
            ("2024", None),
        ] {
            pcn.meta.started_at = Some(started.to_string());
            let tags = tags_of_pcn(&pcn);
            let got = tags
                .iter()
                .find(|(k, _)| k == "Date")
                .map(|(_, v)| v.as_str());
            assert_eq!(got, date, "{started}");
        }
    }

    #[test]
    fn errors_say_where() {
        let e = read("[Variant \"Janggi\"]\n\n1. a1 *").err().unwrap();
        assert!(e.to_string().contains("Janggi"), "{e}");
        let e = read("[Event unquoted]\n").err().unwrap();
        assert!(e.to_string().contains("line 1"), "{e}");
        let x = GameKind::Xiongqi.new_game("start").unwrap();
        assert!(matches!(
            write(x.as_ref(), &[]),
            Err(PgnError::NotXiangqi(_))
        ));
    }
}
