//! Game records: complete games in PCN (setup, moves with times, status, winner, metadata),
//! read with every move checked by the rules, and written from a game.
//!
//! A PCN setup is a FEEN, which does not say which rules apply: the metadata key `game`
//! (`xiongqi`, `xiangqi`, `xiangqi-capture`) does, as `chuhe match` and [`to_pcn`] write it;
//! without it an 8×8 board is Xiongqi and a 9×10 board standard Xiangqi.
//!
//! A FEEN holds no counters: the start position's half-move clock is kept in `meta.halfmove`
//! and (Xiangqi) its FEN move number in `meta.move_number`, each written only when it is not
//! the default (0 and 1).
//!
//! ```
//! use chuhe::{record, GameKind, MoveNotation};
//! let mut game = GameKind::Xiangqi.new_game("start").unwrap();
//! game.play_text("C2=5", MoveNotation::Wxf).unwrap();
//! game.resign(chuhe::Side::Second);
//! let pcn = record::to_pcn(game.as_ref(), &[1.5]);
//! assert_eq!(pcn.moves, vec![("h3-e3".to_string(), 1.5)]);
//!
//! let again = record::read(&pcn.to_json_pretty()).unwrap();
//! assert_eq!(again.outcome(), game.outcome());
//! assert!(record::read(r#"{"setup": "start", "moves": []}"#).is_err());
//! ```

use chuhe_notation::pcn::{Pcn, PcnError, Winner};
use chuhe_notation::{Side, Status};
use serde_json::json;

use crate::{AnyGame, GameKind, MoveError, MoveNotation, Outcome, PositionFormat, SetupError};

/// Why a record is not a game of these rules.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not PCN (malformed JSON, a bad FEEN or PMN, a negative time).
    #[error(transparent)]
    Pcn(#[from] PcnError),
    /// The metadata names a game chuhe does not know.
    #[error("meta.game: unknown game '{0}' (expected xiongqi, xiangqi or xiangqi-capture)")]
    UnknownGame(String),
    /// The setup is not a position of the game.
    #[error("setup: {0}")]
    Setup(SetupError),
    /// A move is not legal where it is played (`ply` counts from 1).
    #[error("illegal move '{text}' at ply {ply}: {error}")]
    Move {
        /// The move's number, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it is not legal there.
        error: MoveError,
    },
    /// The status or winner does not match the game the moves make.
    #[error("{0}")]
    Result(String),
    /// A counter of the metadata (`meta.halfmove`, `meta.move_number`) is not one.
    #[error("{0}")]
    Counter(String),
}

/// The game a record describes: its setup, every move checked, and its status and winner
/// checked against the rules (a status the rules cannot see, such as a resignation, is
/// declared).
pub fn read(json: &str) -> Result<Box<dyn AnyGame>, RecordError> {
    game_of(&Pcn::from_json(json)?)
}

/// The game of a record already read (see [`read`]).
pub fn game_of(pcn: &Pcn) -> Result<Box<dyn AnyGame>, RecordError> {
    game_of_in(pcn, &|name| name.parse::<GameKind>().ok())
}

/// The game of a record read, its `meta.game` looked up by `kind_named` (a front end that
/// also knows games read from rule files: the server's `--rules`); a name it does not know
/// is [`RecordError::UnknownGame`].
pub fn game_of_in(
    pcn: &Pcn,
    kind_named: &dyn Fn(&str) -> Option<GameKind>,
) -> Result<Box<dyn AnyGame>, RecordError> {
    let kind = match pcn.meta.extra.get("game") {
        Some(name) => {
            let name = name.as_str().unwrap_or_default();
            kind_named(name).ok_or_else(|| RecordError::UnknownGame(name.to_string()))?
        }
        None => kind_of_setup(&pcn.setup),
    };
    let mut game = start_of(kind, pcn)?;
    for (i, (text, _)) in pcn.moves.iter().enumerate() {
        game.play_text(text, MoveNotation::Pmn)
            .map_err(|error| RecordError::Move {
                ply: i + 1,
                text: text.clone(),
                error,
            })?;
    }
    check_result(game.as_mut(), pcn.status, pcn.winner)?;
    Ok(game)
}

/// The start of a record's game: its setup with the counters of its metadata.
fn start_of(kind: GameKind, pcn: &Pcn) -> Result<Box<dyn AnyGame>, RecordError> {
    let counter = |key: &str, least: u64| -> Result<Option<u32>, RecordError> {
        match pcn.meta.extra.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|&n| n >= least)
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| {
                    RecordError::Counter(format!(
                        "meta.{key}: {v} is not a whole number of at least {least}"
                    ))
                }),
        }
    };
    let halfmove = counter("halfmove", 0)?;
    let move_number = counter("move_number", 1)?;
    let options = crate::GameOptions {
        halfmove,
        ..Default::default()
    };
    let game = kind
        .new_game_with(&pcn.setup, options)
        .map_err(RecordError::Setup)?;
    let Some(number) = move_number else {
        return Ok(game);
    };
    // The move number lives in the FEN (the games that have one).
    let fen = game.to_text(PositionFormat::Fen).map_err(|_| {
        RecordError::Counter(format!(
            "meta.move_number: {} positions have no move number",
            kind.name()
        ))
    })?;
    let fields: Vec<&str> = fen.split(' ').collect();
    let fen = format!("{} {number}", fields[..fields.len() - 1].join(" "));
    kind.new_game(&fen).map_err(RecordError::Setup)
}

/// The game of a FEEN setup by its board: 8 ranks for Xiongqi, else standard Xiangqi.
fn kind_of_setup(setup: &str) -> GameKind {
    let placement = setup.split(' ').next().unwrap_or_default();
    if placement.split('/').count() == 8 {
        GameKind::Xiongqi
    } else {
        GameKind::Xiangqi
    }
}

/// Checks the record's `status` and `winner` against the game after its moves, declaring a
/// result the rules cannot see.
fn check_result(
    game: &mut dyn AnyGame,
    status: Option<Status>,
    winner: Option<Winner>,
) -> Result<(), RecordError> {
    let winner = winner.map(side_of_winner);
    let plies = game.plies();
    match (game.outcome(), status) {
        (Some(actual), Some(claimed)) if actual.status != claimed => {
            Err(RecordError::Result(format!(
                "the record says '{}' but after its {plies} moves the game is over: {actual}",
                claimed.as_str()
            )))
        }
        (Some(actual), _) => match winner {
            Some(w) if w != actual.winner => Err(RecordError::Result(format!(
                "the record names the winner '{}' but the game ended: {actual}",
                winner_word(w)
            ))),
            _ => Ok(()),
        },
        (None, None) => match winner {
            Some(w) => Err(RecordError::Result(format!(
                "the record names the winner '{}' but gives no status, and the game is not over \
                 after its {plies} moves",
                winner_word(w)
            ))),
            None => Ok(()),
        },
        (None, Some(Status::Check)) if game.is_check() => Ok(()),
        (None, Some(claimed)) if claimed.is_inferable() => Err(RecordError::Result(format!(
            "the record says '{}' but the game is not over after its {plies} moves",
            claimed.as_str()
        ))),
        (None, Some(claimed)) => {
            let Some(winner) = winner else {
                return Err(RecordError::Result(format!(
                    "the record says '{}' but names no winner ('first', 'second' or 'none')",
                    claimed.as_str()
                )));
            };
            game.declare(Outcome::new(claimed, winner));
            Ok(())
        }
    }
}

/// `first`, `second` or `none`, as records write a winner.
fn winner_word(winner: Option<Side>) -> &'static str {
    winner.map_or("none", Side::as_str)
}

/// A record's winner for a game's (`None`: a draw).
pub fn winner_of(winner: Option<Side>) -> Winner {
    match winner {
        Some(Side::First) => Winner::First,
        Some(Side::Second) => Winner::Second,
        None => Winner::None,
    }
}

/// The game's winner for a record's (`None`: a draw).
pub fn side_of_winner(winner: Winner) -> Option<Side> {
    match winner {
        Winner::First => Some(Side::First),
        Winner::Second => Some(Side::Second),
        Winner::None => None,
    }
}

/// The record of a game: its start, its moves in PMN with the seconds spent on each
/// (`times`, 0 where missing), its status and winner once over, and the game's name in
/// `meta.game`. Add players and other metadata to the result.
pub fn to_pcn(game: &dyn AnyGame, times: &[f64]) -> Pcn {
    let mut pcn = Pcn {
        setup: game.start_feen(),
        moves: game
            .moves_pmn()
            .into_iter()
            .enumerate()
            .map(|(i, m)| {
                (
                    m,
                    times
                        .get(i)
                        .copied()
                        .filter(|t| t.is_finite() && *t >= 0.0)
                        .unwrap_or(0.0),
                )
            })
            .collect(),
        ..Pcn::default()
    };
    pcn.meta
        .extra
        .insert("game".into(), json!(game.kind().name()));
    let halfmove = game.start_halfmove();
    if halfmove != 0 {
        pcn.meta.extra.insert("halfmove".into(), json!(halfmove));
    }
    let move_number = game
        .start_text(PositionFormat::Fen)
        .ok()
        .and_then(|fen| fen.rsplit(' ').next().and_then(|n| n.parse::<u32>().ok()));
    if let Some(n) = move_number.filter(|&n| n != 1) {
        pcn.meta.extra.insert("move_number".into(), json!(n));
    }
    if let Some(outcome) = game.outcome() {
        pcn.status = Some(outcome.status);
        pcn.winner = Some(winner_of(outcome.winner));
    }
    pcn
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(setup: &str, moves: &[&str], status: &str, winner: &str) -> String {
        let moves: Vec<_> = moves.iter().map(|m| json!([m, 1.0])).collect();
        let mut v = json!({"setup": setup, "moves": moves});
        if !status.is_empty() {
            v["status"] = json!(status);
        }
        if !winner.is_empty() {
            v["winner"] = json!(winner);
        }
        v.to_string()
    }

    const XIONGQI: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";

    /// The error of a record that must not read.
    fn refused(json: &str) -> RecordError {
        match read(json) {
            Ok(game) => panic!("read as a game at {}", game.to_feen()),
            Err(e) => e,
        }
    }

    #[test]
    fn the_first_illegal_move_is_named_with_its_ply() {
        let err = refused(&record(XIONGQI, &["e3-e4", "e6-e5", "e4-e6"], "", ""));
        match err {
            RecordError::Move { ply, text, .. } => assert_eq!((ply, text.as_str()), (3, "e4-e6")),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn results_are_checked_against_the_rules() {
        // A mate on the board: the status must say so, and the winner must be right.
        let mate = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let feen = GameKind::Xiangqi.new_game(mate).unwrap().to_feen();
        assert!(read(&record(&feen, &["a1-d1"], "checkmate", "first")).is_ok());
        assert!(read(&record(&feen, &["a1-d1"], "", "")).is_ok());
        let wrong = refused(&record(&feen, &["a1-d1"], "resignation", "second"));
        assert!(wrong.to_string().contains("checkmate"), "{wrong}");
        let wrong = refused(&record(&feen, &["a1-d1"], "checkmate", "second"));
        assert!(matches!(wrong, RecordError::Result(_)), "{wrong}");
        // Not over: a claimed mate is wrong; a resignation is declared.
        assert!(read(&record(XIONGQI, &["e3-e4"], "checkmate", "first")).is_err());
        let game = read(&record(XIONGQI, &["e3-e4"], "resignation", "first")).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Status::Resignation, Side::First))
        );
        assert!(read(&record(XIONGQI, &["e3-e4"], "resignation", "")).is_err());
        assert!(read(&record(XIONGQI, &["e3-e4"], "", "first")).is_err());
    }

    #[test]
    fn the_game_comes_from_the_metadata_or_the_board() {
        let capture = r#"{"meta": {"game": "xiangqi-capture"}, "setup": "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x", "moves": []}"#;
        assert_eq!(read(capture).unwrap().kind(), GameKind::XiangqiCapture);
        let unknown = capture.replace("xiangqi-capture", "chess");
        assert!(matches!(read(&unknown), Err(RecordError::UnknownGame(_))));
        assert_eq!(
            read(&record(XIONGQI, &[], "", "")).unwrap().kind(),
            GameKind::Xiongqi
        );
    }

    #[test]
    fn a_written_record_reads_back_as_the_same_game() {
        let mut game = GameKind::Xiongqi.new_game("start").unwrap();
        for m in ["e3-e4", "e6-e5", "e4+e5"] {
            game.play_text(m, MoveNotation::Pmn).unwrap();
        }
        game.agree_draw();
        let pcn = to_pcn(game.as_ref(), &[0.5, f64::NAN]);
        assert_eq!(pcn.moves[1].1, 0.0);
        assert_eq!(pcn.moves[2].0, "e4+e5");
        let back = read(&pcn.to_json_pretty()).unwrap();
        assert_eq!(back.to_feen(), game.to_feen());
        assert_eq!(back.outcome(), Some(Outcome::draw(Status::Agreement)));
    }
}
