//! # chuhe — rules for the Chinese-chess family
//!
//! The rules core: exact move generation, game arbiters and perft for [Xiongqi](xiongqi)
//! (熊棋, 8×8) and [Xiangqi](xiangqi) (象棋, 9×10, standard and teaching rules). No I/O: the
//! notations come from [`notation`] (the `chuhe-notation` crate), and the command line,
//! engine and server are thin users of this crate.
//!
//! Every game is used through one trait, [`GamePosition`]; [`GameKind`] chooses a game by
//! name at run time, and [`Game`] is the arbiter (history, repetition, results) for any game.
//!
//! Xiongqi:
//!
//! ```
//! use chuhe::xiongqi::{Game, Position};
//! use chuhe::GamePosition;
//! let mut game = Game::new();
//! game.play_text("e3-e4").unwrap();
//! assert_eq!(game.position().to_feen(),
//!            "rhbag^bhr/2c2c2/ssssssss/8/4S3/SSSS1SSS/2C2C2/RHBAG^BHR / x/X");
//! assert_eq!(Position::start().perft(3), 17585);
//! ```
//!
//! Xiangqi, its moves in every notation it has:
//!
//! ```
//! use chuhe::xiangqi::{Game, Position};
//! use chuhe::{GamePosition, MoveNotation};
//! let pos = Position::start();
//! let m = pos.parse_move_as("C2=5", MoveNotation::Wxf).unwrap();
//! assert_eq!(pos.move_to_text(m, MoveNotation::Uci).unwrap(), "h3e3");
//! assert_eq!(pos.move_to_text(m, MoveNotation::Iccs).unwrap(), "h2e2");
//! assert_eq!(pos.move_to_text(m, MoveNotation::Chinese).unwrap(), "炮二平五");
//! let mut game = Game::new();
//! game.play(m).unwrap();
//! assert_eq!(Position::start().perft(2), 1920);
//! ```
//!
//! A game chosen by name:
//!
//! ```
//! use chuhe::{AnyGame, GameKind, MoveNotation};
//! let mut game = GameKind::XiangqiCapture.new_game("start").unwrap();
//! game.play_text("e1e2", MoveNotation::Uci).unwrap();
//! assert_eq!(game.turn(), chuhe::Side::Second);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod any_game;
pub mod board;
mod ends;
mod error;
mod feen_out;
pub mod game;
pub mod ggn;
mod movelist;
pub mod perft;
pub mod pgn;
pub mod record;
pub mod record_stream;
pub mod rules;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup_error;
pub mod suite;
pub mod svg;
mod text;
mod variant;
pub mod xiangqi;
pub mod xiongqi;
pub mod xqf;
mod zobrist;

pub use any_game::{AnyGame, GameOptions, MoveTexts};
pub use board::{BoardGeometry, BoardText, Glyphs};
pub use error::MoveError;
pub use game::{Game, History};
pub use movelist::MoveList;
pub use setup_error::{FenSyntaxError, Location, PositionError, Problem, SetupError};
pub use svg::{SvgBoard, SvgOptions};
pub use text::quote_input;
pub use variant::{
    GameKind, GameMove, GamePosition, GameSquare, GameVisitor, MoveBuffer, MoveNotation,
    PositionFormat, RuleOptionError, UnknownGame, UnknownNotation, UnsupportedFormat,
};

/// The Sashité notations (the `chuhe-notation` crate): FEEN, PIN, CELL, PMN, CGSN, GGN, PCN.
pub use chuhe_notation as notation;
pub use chuhe_notation::{Side, Status};

/// How a game ended: a CGSN status word, the winner (`None` for a draw) and, for a Xiangqi
/// repetition, the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game ended.
    pub status: Status,
    /// Who won; `None` is a draw.
    pub winner: Option<Side>,
    /// Which rule decided a repetition of standard Xiangqi (S3, S6); `None` for every other
    /// end, and for Xiongqi's repetitions (X6).
    pub reason: Option<RepetitionRule>,
}

/// The rule that decided a Xiangqi repetition (`status` `repetition`).
///
/// ```
/// use chuhe::RepetitionRule;
/// assert_eq!(RepetitionRule::PerpetualChase.as_str(), "perpetual chase");
/// assert_eq!("plain repetition".parse(), Ok(RepetitionRule::Plain));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// S3: one side gave check with every move of the cycle and loses; when both did, a draw.
    PerpetualCheck,
    /// S6: nobody checked perpetually, and one side chased with every move of the cycle and
    /// loses; when both did, a draw.
    PerpetualChase,
    /// Neither rule applies: a draw.
    Plain,
}

impl RepetitionRule {
    /// All three, in the order the rules are applied.
    pub const ALL: [RepetitionRule; 3] = [
        RepetitionRule::PerpetualCheck,
        RepetitionRule::PerpetualChase,
        RepetitionRule::Plain,
    ];

    /// `perpetual check`, `perpetual chase` or `plain repetition` (the CLI's `"reason"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            RepetitionRule::PerpetualCheck => "perpetual check",
            RepetitionRule::PerpetualChase => "perpetual chase",
            RepetitionRule::Plain => "plain repetition",
        }
    }
}

impl std::fmt::Display for RepetitionRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no [`RepetitionRule`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown repetition rule '{0}' (perpetual check, perpetual chase, plain repetition)")]
pub struct UnknownRepetitionRule(pub String);

impl std::str::FromStr for RepetitionRule {
    type Err = UnknownRepetitionRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RepetitionRule::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRepetitionRule(text::quote_input(s).into_owned()))
    }
}

impl Outcome {
    /// The game ended by `status`, won by `winner` (`None`: a draw).
    ///
    /// ```
    /// use chuhe::{Outcome, Side, Status};
    /// assert_eq!(Outcome::new(Status::Resignation, Some(Side::First)), Outcome::win(Status::Resignation, Side::First));
    /// assert!(Outcome::new(Status::Agreement, None).is_draw());
    /// ```
    pub const fn new(status: Status, winner: Option<Side>) -> Outcome {
        Outcome {
            status,
            winner,
            reason: None,
        }
    }

    /// `winner` won by `status`.
    pub const fn win(status: Status, winner: Side) -> Outcome {
        Outcome {
            status,
            winner: Some(winner),
            reason: None,
        }
    }

    /// A draw by `status`.
    pub const fn draw(status: Status) -> Outcome {
        Outcome {
            status,
            winner: None,
            reason: None,
        }
    }

    /// The same outcome, decided by the repetition rule `reason`.
    ///
    /// ```
    /// use chuhe::{Outcome, RepetitionRule, Side, Status};
    /// let o = Outcome::win(Status::Repetition, Side::First).by(RepetitionRule::PerpetualChase);
    /// assert_eq!(o.reason, Some(RepetitionRule::PerpetualChase));
    /// ```
    pub const fn by(self, reason: RepetitionRule) -> Outcome {
        Outcome {
            reason: Some(reason),
            ..self
        }
    }

    /// Is it a draw?
    pub const fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// The result in words, for people: `first (South/Red) wins by checkmate`,
    /// `second (North/Black) wins by repetition (perpetual chase)`, `draw by agreement`.
    ///
    /// ```
    /// use chuhe::{Outcome, Side, Status};
    /// let o = Outcome::win(Status::Timelimit, Side::Second);
    /// assert_eq!(o.in_words(), "second (North/Black) wins on time");
    /// assert_eq!(Outcome::draw(Status::Agreement).in_words(), "draw by agreement");
    /// ```
    pub fn in_words(&self) -> String {
        let how = match self.status {
            Status::Checkmate => "by checkmate",
            Status::Stalemate => "by stalemate (no legal move)",
            Status::Nomove => "as the other side has no legal move",
            Status::Bareking => "by bare king",
            Status::Mareking => "as the general was captured",
            Status::Insufficient => "as neither side can win",
            Status::Resignation => "by resignation",
            Status::Illegalmove => "by an illegal move",
            Status::Timelimit => "on time",
            Status::Movelimit => "by the move limit",
            Status::Repetition => "by repetition",
            Status::Agreement => "by agreement",
            Status::Check | Status::Stale => self.status.as_str(),
        };
        let how = match self.reason {
            Some(rule) => format!("{how} ({})", rule.as_str()),
            None => how.to_string(),
        };
        match self.winner {
            Some(Side::First) => format!("first (South/Red) wins {how}"),
            Some(Side::Second) => format!("second (North/Black) wins {how}"),
            None => format!("draw {how}"),
        }
    }

    /// The winner as the CLI and PCN write it: `first`, `second` or `none`.
    pub fn winner_str(&self) -> &'static str {
        match self.winner {
            Some(side) => side.as_str(),
            None => "none",
        }
    }
}

/// `checkmate, first wins`; `repetition, draw`.
///
/// ```
/// use chuhe::{Outcome, Side, Status};
/// assert_eq!(Outcome::win(Status::Checkmate, Side::First).to_string(), "checkmate, first wins");
/// assert_eq!(Outcome::draw(Status::Movelimit).to_string(), "movelimit, draw");
/// ```
impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{}, {} wins", self.status, side.as_str()),
            None => write!(f, "{}, draw", self.status),
        }
    }
}
