//! CGSN: game status words.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{quote, Fail, Notation, ParseError};

/// A CGSN game status.
///
/// The first eight are *inferable* from a position alone; the last six are
/// *explicit* (they need history, clocks or a declaration). Each game maps
/// them to results. Serialized (serde) as the lowercase word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// `check`: the terminal piece of the side to move is attacked.
    Check,
    /// `stale`: the side to move has no legal move (neutral observation).
    Stale,
    /// `checkmate`: in check with no legal move.
    Checkmate,
    /// `stalemate`: not in check, with no legal move.
    Stalemate,
    /// `nomove`: no legal move, however the rules classify it.
    Nomove,
    /// `bareking`: a side has only its terminal piece left.
    Bareking,
    /// `mareking`: a side has no terminal piece left.
    Mareking,
    /// `insufficient`: neither side can force a win.
    Insufficient,
    /// `resignation`: a player resigned.
    Resignation,
    /// `illegalmove`: a player made an illegal move.
    Illegalmove,
    /// `timelimit`: a player ran out of time.
    Timelimit,
    /// `movelimit`: a move-count limit was reached.
    Movelimit,
    /// `repetition`: a repetition rule applied.
    Repetition,
    /// `agreement`: the players agreed (typically to a draw).
    Agreement,
}

impl Status {
    /// All fourteen statuses, inferable ones first, in specification order.
    pub const ALL: [Status; 14] = [
        Status::Check,
        Status::Stale,
        Status::Checkmate,
        Status::Stalemate,
        Status::Nomove,
        Status::Bareking,
        Status::Mareking,
        Status::Insufficient,
        Status::Resignation,
        Status::Illegalmove,
        Status::Timelimit,
        Status::Movelimit,
        Status::Repetition,
        Status::Agreement,
    ];

    /// The CGSN word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Check => "check",
            Status::Stale => "stale",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::Nomove => "nomove",
            Status::Bareking => "bareking",
            Status::Mareking => "mareking",
            Status::Insufficient => "insufficient",
            Status::Resignation => "resignation",
            Status::Illegalmove => "illegalmove",
            Status::Timelimit => "timelimit",
            Status::Movelimit => "movelimit",
            Status::Repetition => "repetition",
            Status::Agreement => "agreement",
        }
    }

    /// Whether the status can be inferred from a position alone.
    pub const fn is_inferable(self) -> bool {
        matches!(
            self,
            Status::Check
                | Status::Stale
                | Status::Checkmate
                | Status::Stalemate
                | Status::Nomove
                | Status::Bareking
                | Status::Mareking
                | Status::Insufficient
        )
    }

    /// Whether the status needs history, clocks or a declaration.
    pub const fn is_explicit(self) -> bool {
        !self.is_inferable()
    }

    /// Reads a CGSN word (lowercase only; a differently cased known word is
    /// rejected with the canonical spelling attached).
    ///
    /// ```
    /// use chuhe_notation::Status;
    /// assert_eq!(Status::parse("mareking"), Ok(Status::Mareking));
    /// assert!(Status::parse("mareking").unwrap().is_inferable());
    /// let err = Status::parse("Resignation").unwrap_err();
    /// assert_eq!(err.canonical.as_deref(), Some("resignation"));
    /// ```
    pub fn parse(s: &str) -> Result<Status, ParseError> {
        if let Some(status) = Status::ALL.into_iter().find(|st| st.as_str() == s) {
            return Ok(status);
        }
        let canonical = Status::ALL
            .into_iter()
            .find(|st| st.as_str().eq_ignore_ascii_case(s))
            .map(|st| st.as_str().to_string());
        let found = if s.is_empty() {
            "end of input".to_string()
        } else {
            quote(s)
        };
        Err(Fail::with(0, "a CGSN status word (check, stale, checkmate, stalemate, nomove, bareking, mareking, insufficient, resignation, illegalmove, timelimit, movelimit, repetition, agreement)", found)
            .into_error(Notation::Cgsn, canonical))
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Status, ParseError> {
        Status::parse(s)
    }
}

impl Serialize for Status {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Status, D::Error> {
        crate::error::deserialize_parsed(deserializer, "a CGSN status word such as \"checkmate\"")
    }
}
