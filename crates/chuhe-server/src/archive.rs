//! The archive: records in and out. An imported record (PGN, PCN, XQF or a FEN/FEEN) becomes
//! a stored game that opens as a review board; a game goes out as PCN or PGN with its
//! players' names, date, time control and ratings.

use chuhe::notation::pcn::{Meta, Pcn, SideInfo, Sides};
use chuhe::{AnyGame, GameKind};
use serde_json::json;

use crate::ids::{random_id, random_token};
use crate::round::{start_with_counters, Round};
use crate::store::{Opponent, StoredGame, StoredMove, StoredResult};

/// The longest time a move of an imported record may have taken: 30 days.
pub const MAX_MOVE_SECONDS: f64 = 30.0 * 86_400.0;

/// The formats an import reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Portable Chess Notation (JSON).
    Pcn,
    /// PGN (pychess.org's Xiangqi, or the Chinese programs' with a `Format` tag).
    Pgn,
    /// XQStudio's binary records.
    Xqf,
    /// A position only: a FEN (Xiangqi) or FEEN.
    Position,
}

impl Format {
    /// `pcn`, `pgn`, `xqf`, `fen`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Pcn => "pcn",
            Format::Pgn => "pgn",
            Format::Xqf => "xqf",
            Format::Position => "fen",
        }
    }
}

/// Why a record could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ImportError(pub String);

/// A record read: the game and what the record said besides its moves.
pub struct Imported {
    /// Which format it was.
    pub format: Format,
    /// The game, every move checked.
    pub game: Box<dyn AnyGame>,
    /// The record as PCN (its metadata and players).
    pub pcn: Pcn,
}

/// Reads a record: XQF by its `XQ` signature, PCN when it is a JSON object, PGN when it has
/// tags or moves, else a position (`start`, FEN or FEEN; `game` says which game a FEEN is).
pub fn read(bytes: &[u8], game: Option<GameKind>) -> Result<Imported, ImportError> {
    read_in(bytes, game, &crate::kinds::Kinds::default())
}

/// [`read`] among the games `kinds` offers: a PCN record of a game read from rule files
/// names it in `meta.game`, which is looked up there.
pub fn read_in(
    bytes: &[u8],
    game: Option<GameKind>,
    kinds: &crate::kinds::Kinds,
) -> Result<Imported, ImportError> {
    let bad = |e: &dyn std::fmt::Display| ImportError(e.to_string());
    if bytes.starts_with(b"XQ") {
        let xqf = chuhe::xqf::read(bytes).map_err(|e| bad(&e))?;
        let pcn = xqf.to_pcn();
        return Ok(Imported {
            format: Format::Xqf,
            game: xqf.record.game,
            pcn,
        });
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ImportError("the record is neither XQF nor UTF-8 text".into()))?
        .trim();
    if text.is_empty() {
        return Err(ImportError("the record is empty".into()));
    }
    if text.starts_with('{') {
        let pcn = Pcn::from_json(text).map_err(|e| bad(&e))?;
        let game = chuhe::record::game_of_among(&pcn, &kinds.all()).map_err(|e| bad(&e))?;
        return Ok(Imported {
            format: Format::Pcn,
            game,
            pcn,
        });
    }
    let one_line = !text.contains('\n');
    let looks_like_position = one_line && !text.starts_with('[') && !text.contains("1.");
    if looks_like_position {
        let kind = game.unwrap_or(GameKind::Xiangqi);
        let game = kind.new_game(text).map_err(|e| bad(&e))?;
        let pcn = chuhe::record::to_pcn(game.as_ref(), &[]);
        return Ok(Imported {
            format: Format::Position,
            game,
            pcn,
        });
    }
    let pgn = chuhe::pgn::read(text).map_err(|e| bad(&e))?;
    let pcn = chuhe::pgn::to_pcn(&pgn);
    Ok(Imported {
        format: Format::Pgn,
        game: pgn.game,
        pcn,
    })
}

/// What a record says besides its moves (its players, its metadata but the game's kind),
/// kept to be given back on export; `None` when it says nothing more.
fn record_info_of(pcn: &Pcn) -> Option<String> {
    let mut meta = pcn.meta.clone();
    meta.extra.remove("game");
    if meta.is_empty() && pcn.sides.is_none() {
        return None;
    }
    Some(json!({"meta": meta, "sides": pcn.sides}).to_string())
}

/// The stored game of an imported record: a review board that nobody plays.
pub fn stored_of(imported: &Imported) -> Result<StoredGame, ImportError> {
    let times = imported
        .pcn
        .moves
        .iter()
        .enumerate()
        .map(|(i, (_, seconds))| move_time_ms(i, *seconds))
        .collect::<Result<Vec<u64>, ImportError>>()?;
    let game = imported.game.as_ref();
    let moves = game
        .moves_uci()
        .into_iter()
        .zip(times.into_iter().chain(std::iter::repeat(0)))
        .map(|(uci, time_ms)| StoredMove { uci, time_ms })
        .collect();
    let now = crate::store::now_ms();
    Ok(StoredGame {
        id: random_id(10),
        game: game.kind().name().to_string(),
        start: start_with_counters(game),
        opponent: Opponent::Record,
        creator: chuhe::Side::First,
        tokens: [random_token(), random_token()],
        result: game.outcome().map(|o| StoredResult {
            status: o.status.as_str().to_string(),
            winner: o.winner_str().to_string(),
            reason: o.reason.map(|r| r.as_str().to_string()),
        }),
        created_ms: now,
        updated_ms: now,
        moves,
        record_info: record_info_of(&imported.pcn),
        ..StoredGame::default()
    })
}

/// The milliseconds of an imported move's time: a finite number of seconds from 0 to
/// [`MAX_MOVE_SECONDS`].
fn move_time_ms(index: usize, seconds: f64) -> Result<u64, ImportError> {
    if !(seconds.is_finite() && (0.0..=MAX_MOVE_SECONDS).contains(&seconds)) {
        return Err(ImportError(format!(
            "move {}: its time must be 0 to {MAX_MOVE_SECONDS} seconds, not {seconds}",
            index + 1
        )));
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// The players and metadata kept from an imported record.
fn stored_info(round: &Round) -> (Meta, Option<Sides>) {
    let parsed = round
        .record()
        .record_info
        .as_deref()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
    let Some(mut info) = parsed else {
        return (Meta::default(), None);
    };
    let meta = serde_json::from_value(info["meta"].take()).unwrap_or_default();
    let sides = serde_json::from_value(info["sides"].take()).unwrap_or_default();
    (meta, sides)
}

/// The name a seat is written under in records: its player, the engine with its level, or
/// `?`.
pub fn seat_name(round: &Round, side: chuhe::Side) -> Option<String> {
    let r = round.record();
    if let Some(p) = &r.players[side.index()] {
        return Some(p.name.clone());
    }
    match r.opponent {
        Opponent::Engine { level, side: s } if s == side => Some(format!("chuhe level {level}")),
        _ => None,
    }
}

/// The game as PCN: the players' names, when it began, where, with the metadata of the
/// record it was imported from.
pub fn pcn_of(round: &Round, site: &str) -> Pcn {
    let mut pcn = chuhe::record::to_pcn(round.game(), &round.times());
    let (meta, sides) = stored_info(round);
    let game = pcn.meta.extra.remove("game");
    pcn.meta = meta;
    if let Some(game) = game {
        pcn.meta.extra.insert("game".into(), game);
    }
    if round.record().opponent != Opponent::Record {
        pcn.meta.started_at = Some(iso_datetime(round.record().created_ms));
        if let Some(tc) = round.record().clock {
            pcn.meta
                .extra
                .insert("time_control".into(), json!(tc.to_string()));
        }
        if round.record().rated {
            pcn.meta.extra.insert("rated".into(), json!(true));
        }
    }
    if pcn.meta.location.is_none() && !pcn.meta.extra.contains_key("site") {
        pcn.meta.extra.insert("site".into(), json!(site));
    }
    pcn.sides = sides.or_else(|| {
        let info = |side| {
            seat_name(round, side).map(|name| SideInfo {
                name: Some(name),
                ..SideInfo::default()
            })
        };
        let (first, second) = (info(chuhe::Side::First), info(chuhe::Side::Second));
        (first.is_some() || second.is_some()).then_some(Sides { first, second })
    });
    pcn
}

/// The PGN tags of the game (pychess.org's dialect: `White` is Red): those of the record it
/// was imported from, or the players' names, the date, the time control (`180+2`) and the
/// ratings of a game played here.
pub fn pgn_tags(round: &Round, site: &str) -> Vec<(String, String)> {
    let (meta, sides) = stored_info(round);
    let mut tags = Vec::new();
    let mut tag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            tags.push((name.to_string(), v));
        }
    };
    let r = round.record();
    let played_here = r.opponent != Opponent::Record;
    tag(
        "Event",
        meta.event.clone().or_else(|| {
            played_here.then(|| {
                let kind = if r.rated { "Rated" } else { "Casual" };
                format!("{kind} game")
            })
        }),
    );
    tag(
        "Site",
        Some(meta.location.clone().unwrap_or_else(|| site.to_string())),
    );
    if played_here {
        tag(
            "Date",
            Some(iso_datetime(r.created_ms)[..10].replace('-', ".")),
        );
    }
    tag("Round", meta.round.map(|x| x.to_string()));
    let imported = |info: Option<&SideInfo>| info.and_then(|i| i.name.clone());
    let first = imported(sides.as_ref().and_then(|s| s.first.as_ref()))
        .or_else(|| seat_name(round, chuhe::Side::First));
    let second = imported(sides.as_ref().and_then(|s| s.second.as_ref()))
        .or_else(|| seat_name(round, chuhe::Side::Second));
    tag("White", first);
    tag("Black", second);
    if played_here {
        if let Some(tc) = r.clock {
            tag("TimeControl", Some(tc.to_string()));
        }
        for (side, name) in [(0, "White"), (1, "Black")] {
            if let Some(rating) = r.ratings[side] {
                tag(&format!("{name}Elo"), Some(rating.rating.to_string()));
                if let Some(diff) = rating.diff {
                    tag(&format!("{name}RatingDiff"), Some(format!("{diff:+}")));
                }
            }
        }
    }
    if let Some(serde_json::Value::Object(rest)) = meta.extra.get("pgn") {
        for (k, v) in rest {
            if let Some(v) = v.as_str() {
                tags.push((k.clone(), v.to_string()));
            }
        }
    }
    tags
}

/// Milliseconds since the epoch as ISO 8601 UTC: `2026-11-28T09:30:00Z`.
///
/// ```
/// use chuhe_server::archive::iso_datetime;
/// assert_eq!(iso_datetime(0), "1970-01-01T00:00:00Z");
/// assert_eq!(iso_datetime(1_795_859_400_000), "2026-11-28T09:50:00Z");
/// ```
pub fn iso_datetime(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a count of days since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The days since 1970-01-01 of a date (the inverse of `civil_from_days`), for the
/// archive's date filters.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A date `YYYY-MM-DD` as milliseconds since the epoch at its start (UTC).
pub fn date_ms(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=9999).contains(&y) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    (civil_from_days(days) == (y, m, d)).then_some(days * 86_400_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_go_both_ways() {
        for days in [-800_000, -1, 0, 1, 59, 60, 11_016, 20_785, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(date_ms("2026-11-28"), Some(20_785 * 86_400_000));
        assert_eq!(
            date_ms("2024-02-29").map(|ms| ms / 86_400_000),
            Some(19_782)
        );
        for bad in ["2026-02-30", "2026-13-01", "x", "2026-1", ""] {
            assert_eq!(date_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn records_are_read_by_what_they_are() {
        let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(read(fen.as_bytes(), None).unwrap().format, Format::Position);
        let pgn = "[Variant \"Xiangqi\"]\n\n1. Che3 *";
        assert_eq!(read(pgn.as_bytes(), None).unwrap().format, Format::Pgn);
        let pcn = r#"{"setup": "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x", "meta": {"game": "xiangqi"}, "moves": [["h3-e3", 1.0]]}"#;
        let read_pcn = read(pcn.as_bytes(), None).unwrap();
        assert_eq!((read_pcn.format, read_pcn.game.plies()), (Format::Pcn, 1));
        assert!(read(b"XQ\x0a", None).is_err());
        assert!(read(b"", None).is_err());
        assert!(read(&[0xff, 0xfe], None).is_err());
        assert!(read(b"not a record", None).is_err());
    }
}
