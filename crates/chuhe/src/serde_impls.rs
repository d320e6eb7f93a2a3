//! The optional `serde` feature: moves and squares as their coordinate text, outcomes as
//! `{"status": "checkmate", "winner": "first"}` (plus `"reason"` for a Xiangqi repetition),
//! positions as FEEN, and games as records (`{"game", "start", "moves", "status", "winner"}`)
//! that replay through the arbiter.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::variant::{GameKind, GamePosition};
use crate::{xiangqi, xiongqi, Game, MoveNotation, Outcome, RepetitionRule, Side, Status};

/// Serializes as `Display`, deserializes with `FromStr`.
macro_rules! serde_as_text {
    ($($ty:ty),*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(D::Error::custom)
            }
        }
    )*};
}

serde_as_text!(
    xiongqi::Move,
    xiongqi::Square,
    xiongqi::Position,
    xiangqi::Move,
    xiangqi::Square
);

/// A Xiangqi position as FEEN; read back from FEEN or FEN under the standard rules.
impl Serialize for xiangqi::Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_feen())
    }
}

impl<'de> Deserialize<'de> for xiangqi::Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
struct OutcomeRecord {
    status: String,
    winner: Option<Side>,
    /// Only for a Xiangqi repetition; absent otherwise (and in records written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OutcomeRecord {
            status: self.status.as_str().to_string(),
            winner: self.winner,
            reason: self.reason.map(|r| r.as_str().to_string()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = OutcomeRecord::deserialize(d)?;
        let status: Status = r.status.parse().map_err(D::Error::custom)?;
        let reason = match r.reason {
            Some(text) => Some(text.parse::<RepetitionRule>().map_err(D::Error::custom)?),
            None => None,
        };
        Ok(Outcome {
            status,
            winner: r.winner,
            reason,
        })
    }
}

/// A game as a record: the game's name, the start position (FEEN), the moves in coordinate
/// form, and the result.
#[derive(Serialize, Deserialize)]
struct GameRecord {
    game: GameKind,
    start: String,
    moves: Vec<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    winner: Option<Side>,
}

/// ```
/// use chuhe::xiongqi::Game;
/// let mut game = Game::new();
/// game.play_text("e3-e4").unwrap();
/// let json = serde_json::to_string(&game).unwrap();
/// assert!(json.contains(r#""moves":["e3e4"]"#));
/// let back: Game = serde_json::from_str(&json).unwrap();
/// assert_eq!(back.position(), game.position());
/// ```
impl<P: GamePosition> Serialize for Game<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let outcome = self.outcome();
        GameRecord {
            game: self.position().kind(),
            start: self.start_position().to_feen(),
            moves: self.moves().iter().map(|m| m.to_string()).collect(),
            status: outcome.map(|o| o.status.as_str().to_string()),
            winner: outcome.and_then(|o| o.winner),
        }
        .serialize(s)
    }
}

/// Replays the record's moves through the arbiter (an illegal move is an error naming its
/// ply) and re-declares a resignation, time loss or agreed draw.
impl<'de, P: GamePosition> Deserialize<'de> for Game<P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = GameRecord::deserialize(d)?;
        let config = P::config_for(r.game).ok_or_else(|| {
            D::Error::custom(format!("a {} record cannot be read as this game", r.game))
        })?;
        let mut game = Game::<P>::from_text(&r.start, config).map_err(D::Error::custom)?;
        for (i, text) in r.moves.iter().enumerate() {
            let m = game
                .position()
                .parse_move_as(text, MoveNotation::Uci)
                .and_then(|m| game.play(m))
                .map_err(|e| {
                    D::Error::custom(format!("illegal move '{text}' at ply {}: {e}", i + 1))
                });
            m?;
        }
        if game.outcome().is_none() {
            let status = r.status.as_deref().map(str::parse::<Status>).transpose();
            match (status.map_err(D::Error::custom)?, r.winner) {
                (Some(Status::Resignation), Some(w)) => game.resign(!w),
                (Some(Status::Timelimit), Some(w)) => game.time_out(!w),
                (Some(Status::Agreement), None) => game.agree_draw(),
                _ => {}
            }
        }
        Ok(game)
    }
}
