//! Xiangqi games in PGN, as pychess.org writes and reads them: the seven tag roster,
//! `[Variant "Xiangqi"]`, `[FEN …]` with `[SetUp "1"]` for a game that does not start from
//! the start position, and the moves in Fairy-Stockfish's SAN ([`MoveNotation::San`]).
//!
//! Reading is lenient in the usual PGN ways: comments (`{…}`, `;…`), variations (`(…)`,
//! skipped), NAGs (`$1`, `!?`), move numbers, and moves in SAN, UCI coordinates or WXF.
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

use crate::{AnyGame, GameKind, MoveError, MoveNotation, PositionFormat, SetupError, Side};

/// A game read from PGN: its tags in order, the game, and the result the `Result` tag (or
/// the movetext's end) claims.
pub struct PgnGame {
    /// The tags, in the order they were written.
    pub tags: Vec<(String, String)>,
    /// The game, every move checked.
    pub game: Box<dyn AnyGame>,
    /// `Some(Some(side))` for a win, `Some(None)` for a draw, `None` when unfinished (`*`).
    pub result: Option<Option<Side>>,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a text is not a Xiangqi game in PGN.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The text is not PGN.
    #[error("PGN line {line}: {message}")]
    Syntax {
        /// The line, from 1.
        line: usize,
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
    #[error("PGN: illegal move '{text}' at ply {ply}: {error}")]
    Move {
        /// The move's number, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// The result does not match the game.
    #[error("PGN: {0}")]
    Result(String),
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

/// The PGN result token of a game.
fn result_token(game: &dyn AnyGame) -> &'static str {
    game.outcome().map_or("*", |o| token_of(o.winner))
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a Xiangqi game as PGN. `tags` adds to or replaces the defaults (`Event`, `Site`,
/// `Date`, `Round`, `White`, `Black`, then `Variant`); `Result`, `FEN` and `SetUp` are
/// always the game's own.
pub fn write(game: &dyn AnyGame, tags: &[(String, String)]) -> Result<String, PgnError> {
    if game.kind() != GameKind::Xiangqi {
        return Err(PgnError::NotXiangqi(game.kind().name().to_string()));
    }
    let start = game
        .kind()
        .new_game(&game.start_feen())
        .map_err(PgnError::Setup)?;
    let start_fen = start
        .to_text(PositionFormat::Fen)
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
    for (k, v) in tags {
        if ["Result", "FEN", "SetUp", "Variant"].contains(&k.as_str()) {
            continue;
        }
        match all.iter_mut().find(|(name, _)| name == k) {
            Some(slot) => slot.1 = v.clone(),
            None => all.push((k.clone(), v.clone())),
        }
    }
    let result = result_token(game);
    all.insert(6, ("Result".into(), result.into()));
    all.push(("Variant".into(), "Xiangqi".into()));
    if standard.as_deref() != Some(start_fen.as_str()) {
        all.push(("FEN".into(), start_fen.clone()));
        all.push(("SetUp".into(), "1".into()));
    }
    let mut out = String::new();
    for (k, v) in &all {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    // Move numbers follow the FEN's full-move counter.
    let mut number: u32 = start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut turn = start.turn();
    let mut replay = start;
    let mut tokens = Vec::new();
    for (i, uci) in game.moves_uci().iter().enumerate() {
        let texts = replay
            .play_text(uci, MoveNotation::Uci)
            .map_err(|error| PgnError::Move {
                ply: i + 1,
                text: uci.clone(),
                error,
            })?;
        let san = texts.get("san").cloned().unwrap_or_else(|| uci.clone());
        match (turn, i) {
            (Side::First, _) => tokens.push(format!("{number}. {san}")),
            (Side::Second, 0) => tokens.push(format!("{number}... {san}")),
            (Side::Second, _) => tokens.push(san),
        }
        if turn == Side::Second {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// Reads the first game of a PGN text.
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    let mut tags = Vec::new();
    let mut movetext = Vec::new(); // (line, token)
    let mut lines = text.lines().enumerate().peekable();
    // Tags.
    while let Some((n, line)) = lines.peek().copied() {
        let t = line.trim();
        if t.is_empty() {
            lines.next();
            continue;
        }
        if !t.starts_with('[') {
            break;
        }
        lines.next();
        tags.push(parse_tag(t).ok_or_else(|| PgnError::Syntax {
            line: n + 1,
            message: format!(
                "'{}' is not a tag like [Event \"…\"]",
                chuhe_notation::error::shorten(t)
            ),
        })?);
    }
    // Movetext: comments and variations dropped.
    let mut depth = 0usize;
    let mut in_brace = false;
    for (n, line) in lines {
        if line.trim_start().starts_with('[') && depth == 0 && !in_brace && !movetext.is_empty() {
            break; // the next game
        }
        let mut token = String::new();
        let flush = |token: &mut String, movetext: &mut Vec<(usize, String)>| {
            if !token.is_empty() {
                movetext.push((n + 1, std::mem::take(token)));
            }
        };
        for c in line.chars() {
            if in_brace {
                in_brace = c != '}';
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut movetext);
                    in_brace = true;
                }
                ';' if depth == 0 => break,
                '(' => {
                    flush(&mut token, &mut movetext);
                    depth += 1;
                }
                ')' => {
                    flush(&mut token, &mut movetext);
                    depth = depth.saturating_sub(1);
                }
                c if c.is_whitespace() => flush(&mut token, &mut movetext),
                c if depth == 0 => token.push(c),
                _ => {}
            }
        }
        flush(&mut token, &mut movetext);
    }
    let variant = tags
        .iter()
        .find(|(k, _)| k == "Variant")
        .map(|(_, v)| v.clone());
    if let Some(v) = &variant {
        if !v.eq_ignore_ascii_case("xiangqi") {
            return Err(PgnError::NotXiangqi(format!("the variant '{v}'")));
        }
    }
    let fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map_or("start", |(_, v)| v.as_str());
    let mut game = GameKind::Xiangqi.new_game(fen).map_err(PgnError::Setup)?;
    let mut result = None;
    let mut ended = false;
    for (line, token) in movetext {
        if ended {
            return Err(PgnError::Syntax {
                line,
                message: format!("'{token}' after the result"),
            });
        }
        let bare = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let bare = bare.trim_start_matches('.');
        if let Some(winner) = winner_of_token(&token) {
            (result, ended) = (Some(winner), true);
            continue;
        }
        match token.as_str() {
            "*" => ended = true,
            t if t.starts_with('$') => {}
            _ if bare.is_empty() => {}
            _ => {
                let ply = game.plies() + 1;
                let m = bare.trim_end_matches(['!', '?']);
                // SAN as pychess writes it; coordinates and WXF from other programs.
                // (A move that fails leaves the game as it was; SAN's error is the one told.)
                let played = [MoveNotation::Uci, MoveNotation::Wxf]
                    .into_iter()
                    .fold(game.play_text(m, MoveNotation::San), |first, n| {
                        first.or_else(|e| game.play_text(m, n).map_err(|_| e))
                    });
                played.map_err(|error| PgnError::Move {
                    ply,
                    text: m.to_string(),
                    error,
                })?;
            }
        }
    }
    if let (Some(claimed), Some(actual)) = (result, game.outcome()) {
        if claimed != actual.winner {
            return Err(PgnError::Result(format!(
                "the result says {} but the game ended: {}",
                token_of(claimed),
                actual.in_words()
            )));
        }
    }
    let tag_result = tags
        .iter()
        .find(|(k, _)| k == "Result")
        .map(|(_, v)| v.as_str());
    let result = result.or(tag_result.and_then(winner_of_token));
    Ok(PgnGame { tags, game, result })
}

/// PGN tags for a PCN record's metadata: `Event`, `Site` (its location or link), `Round`,
/// `Date` (from `started_at`), `White` and `Black` (the players' names).
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

/// The PCN record of a game read from PGN: its moves (no times), its result when the rules
/// decided it, and the tags as metadata (`Event`, `Site` as the location, `Round`, `White` and
/// `Black` as the players' names; every other tag, and a result the rules cannot see, kept
/// under `meta.pgn`).
pub fn to_pcn(pgn: &PgnGame) -> chuhe_notation::pcn::Pcn {
    use chuhe_notation::pcn::{SideInfo, Sides};
    let mut pcn = crate::record::to_pcn(pgn.game.as_ref(), &[]);
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
            "FEN" | "SetUp" | "Variant" => {}
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
            text.contains("[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1\"]"),
            "{text}"
        );
        // As pyffish writes them: get_san_moves(…, ["d10d9", "a1a9"]) == ["Kd9", "Ra9+"].
        assert!(text.contains("1... Kd9 2. Ra9+ *"), "{text}");
        assert!(text.contains("[Result \"*\"]"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.game.moves_uci(), game.moves_uci());
        assert_eq!(back.result, None);
    }

    #[test]
    fn comments_variations_and_nags_are_skipped() {
        let text = "[Event \"x \\\"quoted\\\"\"]\n[Variant \"Xiangqi\"]\n\n\
                    1. Che3 {the central cannon} Hg8 (1... Ce8 2. Hg3) 2. Hg3 $1 ; a comment\n\
                    Rh10!? *\n";
        let g = read(text).unwrap();
        assert_eq!(g.tag("Event"), Some("x \"quoted\""));
        assert_eq!(g.game.moves_uci(), ["h3e3", "h10g8", "h1g3", "i10h10"]);
        assert_eq!(g.result, None);
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
        let e = read("[Variant \"Xiangqi\"]\n\n1. Che3 Hg8 2. Rz9 *")
            .err()
            .unwrap();
        assert!(e.to_string().contains("ply 3"), "{e}");
        let e = read("[Variant \"Janggi\"]\n\n1. a1 *").err().unwrap();
        assert!(e.to_string().contains("Janggi"), "{e}");
        let e = read("[Event unquoted]\n").err().unwrap();
        assert!(e.to_string().contains("line 1"), "{e}");
        let e = read("1. Che3 * Hg8").err().unwrap();
        assert!(e.to_string().contains("after the result"), "{e}");
        // Black is mated after 1. Ra10 Kd9 2. Ra9 … ; a stalemate and a mate both lose.
        let e = read("[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1\"]\n\n1... Kd9 2. Rd2+ Ke9 1-0")
            .err()
            .unwrap();
        assert!(e.to_string().contains("ply 3"), "{e}");
        let x = GameKind::Xiongqi.new_game("start").unwrap();
        assert!(matches!(
            write(x.as_ref(), &[]),
            Err(PgnError::NotXiangqi(_))
        ));
    }
}
