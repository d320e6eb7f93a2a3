//! `record` and `replay RECORD`: files of one or many games, PGN or PCN, or one game in
//! XQF (XQStudio's binary records, told by their first bytes `XQ`).
//!
//! A PGN file is read one game at a time (memory grows with the longest game, not with the
//! file). A PCN file holds one JSON record or several written one after another. Each game is
//! checked; a refused game is reported with its number, line and column and the others are
//! still written. A file of several games gets a summary on standard error; any refusal makes
//! the exit code 2.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

use chuhe::notation::pcn::Pcn;
use chuhe::AnyGame;

use super::{CliError, Notation, Output, RecordFormat};

/// Where `record` writes its games.
pub enum Destination {
    /// Standard output.
    Stdout,
    /// One file for every game.
    File(PathBuf),
    /// One file per game in a folder.
    Folder(PathBuf),
}

impl Destination {
    /// The destination the flags name.
    pub fn of(output: Option<PathBuf>, output_dir: Option<PathBuf>) -> Destination {
        match (output, output_dir) {
            (Some(file), _) => Destination::File(file),
            (None, Some(dir)) => Destination::Folder(dir),
            (None, None) => Destination::Stdout,
        }
    }
}

/// One game of a record file, read or refused.
enum Item {
    Pgn(Box<chuhe::pgn::PgnGame>),
    /// A record and the line it starts on.
    Pcn(Box<Pcn>, usize),
}

impl Item {
    /// The line the game starts on.
    fn line(&self) -> usize {
        match self {
            Item::Pgn(g) => g.line,
            Item::Pcn(_, line) => *line,
        }
    }
}

/// A refused game: its number, where, and why.
struct Refused {
    game: usize,
    line: usize,
    column: usize,
    message: String,
}

/// The games of a record file, in order.
enum Source {
    Pgn(chuhe::pgn::Games<Box<dyn BufRead>>),
    Pcn(chuhe::record_stream::RecordTexts<Box<dyn BufRead>>),
    /// An XQF file's bytes, until its one game is read.
    Xqf(Option<Vec<u8>>),
}

impl Source {
    /// Opens a file, or standard input for `-`; XQF when the bytes start with `XQ`, PCN when
    /// the text starts with `{`.
    fn open(path: &str) -> Result<Source, CliError> {
        let failed =
            |e: std::io::Error| CliError::user(format!("cannot read the record '{path}': {e}"));
        let raw: Box<dyn Read> = if path == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).map_err(failed)?)
        };
        let mut reader: Box<dyn BufRead> = Box::new(BufReader::with_capacity(1 << 16, raw));
        let head = reader.fill_buf().map_err(failed)?;
        if head.starts_with(b"XQ") {
            let mut bytes = Vec::new();
            reader.read_to_end(&mut bytes).map_err(failed)?;
            return Ok(Source::Xqf(Some(bytes)));
        }
        let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
        let is_pcn = head
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
        if !is_pcn {
            return Ok(Source::Pgn(chuhe::pgn::games(reader)));
        }
        Ok(Source::Pcn(chuhe::record_stream::texts(reader)))
    }

    /// The next game (`index` from 1): read, refused, or skipped unread when `wanted` says
    /// it is not needed (`Ok(None)` then).
    fn next(
        &mut self,
        wanted: impl Fn(usize) -> bool,
        rules: &[chuhe::GameKind],
    ) -> Option<(usize, Result<Option<Item>, Refused>)> {
        match self {
            Source::Xqf(bytes) => {
                let bytes = bytes.take()?;
                if !wanted(1) {
                    return Some((1, Ok(None)));
                }
                let read = chuhe::xqf::read(&bytes)
                    .map(|g| Some(Item::Pgn(Box::new(g.record))))
                    .map_err(|e| Refused {
                        game: 1,
                        line: 1,
                        column: 1,
                        message: e.to_string(),
                    });
                Some((1, read))
            }
            Source::Pgn(games) => {
                let refused = |r: chuhe::pgn::Refusal| Refused {
                    game: r.game,
                    line: r.line,
                    column: r.column,
                    message: r.error.to_string(),
                };
                match games.next_text()? {
                    Err(r) => Some((r.game, Err(refused(r)))),
                    Ok((index, _, _)) if !wanted(index) => Some((index, Ok(None))),
                    Ok((index, line, text)) => {
                        let read = chuhe::pgn::read_at(&text, line, index)
                            .map(|g| Some(Item::Pgn(Box::new(g))))
                            .map_err(refused);
                        Some((index, read))
                    }
                }
            }
            Source::Pcn(records) => {
                let record = match records.next()? {
                    Ok(record) => record,
                    Err(e) => {
                        let refused = Refused {
                            game: e.index,
                            line: e.line,
                            column: e.column,
                            message: e.message,
                        };
                        return Some((e.index, Err(refused)));
                    }
                };
                let (index, line, column) = (record.index, record.line, record.column);
                if !wanted(index) {
                    return Some((index, Ok(None)));
                }
                let read = Pcn::from_json(&record.text)
                    .map_err(|e| pcn_refusal(&e, index, line, column))
                    .and_then(|pcn| {
                        chuhe::record::game_of_among(&pcn, rules)
                            .map(|_| pcn)
                            .map_err(|e| Refused {
                                game: index,
                                line,
                                column,
                                message: e.to_string(),
                            })
                    })
                    .map(|pcn| Some(Item::Pcn(Box::new(pcn), line)));
                Some((index, read))
            }
        }
    }
}

/// A record refused by the PCN reader, placed in the file: a JSON error's line and column
/// are counted from the record's start (`line`, `column`) by serde_json.
fn pcn_refusal(
    e: &chuhe::notation::pcn::PcnError,
    game: usize,
    line: usize,
    column: usize,
) -> Refused {
    if let chuhe::notation::pcn::PcnError::Json(json) = e {
        let (el, ec) = (json.line(), json.column());
        let at_line = line + el.max(1) - 1;
        let at_column = if el <= 1 { column + ec.max(1) - 1 } else { ec };
        let text = json.to_string();
        let what = text.rsplit_once(" at line ").map_or(&*text, |(w, _)| w);
        return Refused {
            game,
            line: at_line,
            column: at_column,
            message: format!("invalid PCN: {what} at line {at_line} column {at_column}"),
        };
    }
    Refused {
        game,
        line,
        column,
        message: e.to_string(),
    }
}

/// The PCN record of a game read.
fn pcn_of(item: &Item) -> Pcn {
    match item {
        Item::Pgn(g) => chuhe::pgn::to_pcn(g),
        Item::Pcn(p, _) => (**p).clone(),
    }
}

/// Reads every game (or only `game_index`), handing each to `each`; then the summary.
fn for_each_game(
    path: &str,
    game_index: Option<u64>,
    rules: &[chuhe::GameKind],
    mut each: impl FnMut(usize, &Item) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut source = Source::open(path)?;
    let wanted = |i: usize| game_index.map_or(true, |n| n == i as u64);
    let (mut read, mut refused, mut seen) = (0usize, Vec::new(), 0usize);
    while let Some((index, result)) = source.next(wanted, rules) {
        seen = index;
        match result {
            Ok(None) => {}
            Ok(Some(item)) => {
                read += 1;
                if let Err(e) = each(index, &item) {
                    match e {
                        CliError::User(message) => refused.push(Refused {
                            game: index,
                            line: item.line(),
                            column: 1,
                            message,
                        }),
                        e => return Err(e),
                    }
                }
            }
            Err(r) if wanted(r.game) => refused.push(r),
            Err(_) => {}
        }
        if game_index.is_some_and(|n| n == index as u64) {
            break;
        }
    }
    if let Some(n) = game_index {
        if (seen as u64) < n {
            return Err(CliError::user(format!(
                "{path}: --game-index {n}: the record holds {seen} game{}",
                if seen == 1 { "" } else { "s" }
            )));
        }
    }
    let several = seen > 1 && game_index.is_none();
    if !several {
        return match refused.pop() {
            Some(r) => Err(CliError::user(format!("{path}: {}", r.message))),
            None => Ok(()),
        };
    }
    let mut stderr = std::io::stderr().lock();
    for r in &refused {
        let _ = writeln!(
            stderr,
            "{path}: game {}, line {}, column {}: {}",
            r.game,
            r.line,
            r.column,
            r.message.replace('\n', " ")
        );
    }
    let summary = format!(
        "{path}: {} games: {read} read, {} refused",
        seen,
        refused.len()
    );
    if refused.is_empty() {
        let _ = writeln!(stderr, "{summary}");
        Ok(())
    } else {
        Err(CliError::user(summary))
    }
}

/// `record`: every game (or one) checked and written as PCN or PGN.
pub fn convert_records(
    path: &str,
    to: RecordFormat,
    game_index: Option<u64>,
    destination: Destination,
    notation: chuhe::MoveNotation,
    rules: Option<chuhe::GameKind>,
    out: &mut Output,
) -> Result<(), CliError> {
    let rules: Vec<chuhe::GameKind> = rules.into_iter().collect();
    if to == RecordFormat::Pgn {
        // Refuse a notation PGN cannot carry before reading anything.
        let probe = chuhe::GameKind::Xiangqi
            .new_game("start")
            .map_err(|e| CliError::user(e.to_string()))?;
        chuhe::pgn::write_in(probe.as_ref(), &[], &[], &[], notation)
            .map_err(|e| CliError::user(format!("--notation: {e}")))?;
    }
    let mut file = match &destination {
        Destination::File(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| CliError::user(format!("cannot write '{}': {e}", p.display())))?,
        )),
        Destination::Folder(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| {
                CliError::user(format!("cannot create the folder '{}': {e}", dir.display()))
            })?;
            None
        }
        Destination::Stdout => None,
    };
    let extension = match to {
        RecordFormat::Pcn => "pcn",
        RecordFormat::Pgn => "pgn",
    };
    let mut written = 0usize;
    for_each_game(path, game_index, &rules, |index, item| {
        let pcn = pcn_of(item);
        let text = match to {
            RecordFormat::Pcn => format!("{}\n", pcn.to_json_pretty()),
            RecordFormat::Pgn => {
                chuhe::pgn::of_pcn_in(&pcn, notation).map_err(|e| CliError::user(e.to_string()))?
            }
        };
        // Games after the first are set apart by a blank line (PGN) or follow on (PCN).
        let separator = if written > 0 && to == RecordFormat::Pgn {
            "\n"
        } else {
            ""
        };
        match &destination {
            Destination::Stdout => out.write(&format!("{separator}{text}"))?,
            Destination::File(p) => {
                let f = file.as_mut().expect("opened above");
                f.write_all(format!("{separator}{text}").as_bytes())
                    .map_err(|e| CliError::user(format!("cannot write '{}': {e}", p.display())))?;
            }
            Destination::Folder(dir) => {
                let p = dir.join(format!("game-{index:05}.{extension}"));
                std::fs::write(&p, &text)
                    .map_err(|e| CliError::user(format!("cannot write '{}': {e}", p.display())))?;
            }
        }
        written += 1;
        Ok(())
    })?;
    if let (Some(f), Destination::File(p)) = (file.as_mut(), &destination) {
        f.flush()
            .map_err(|e| CliError::user(format!("cannot write '{}': {e}", p.display())))?;
    }
    Ok(())
}

/// `replay RECORD`: every ply of every game (or one), one JSON array per game.
pub fn replay_records(
    path: &str,
    game_index: Option<u64>,
    notation: Notation,
    rules: Option<chuhe::GameKind>,
    out: &mut Output,
) -> Result<(), CliError> {
    let rules: Vec<chuhe::GameKind> = rules.into_iter().collect();
    for_each_game(path, game_index, &rules, |_, item| {
        let from_pcn;
        let recorded: &dyn AnyGame = match item {
            Item::Pgn(g) => g.game.as_ref(),
            Item::Pcn(p, _) => {
                from_pcn = chuhe::record::game_of_among(p, &rules)
                    .map_err(|e| CliError::user(e.to_string()))?;
                from_pcn.as_ref()
            }
        };
        let start = recorded.start_game();
        let moves = recorded.moves_pmn();
        super::replay(
            start,
            &moves,
            Notation::Pmn,
            notation,
            recorded.outcome(),
            out,
        )
    })
}
