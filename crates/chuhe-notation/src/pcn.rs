//! PCN: game records (JSON).
//!
//! ```
//! use chuhe_notation::pcn::{Pcn, Winner};
//! use chuhe_notation::Status;
//! let pcn = Pcn::from_json(r#"{
//!   "setup": "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x",
//!   "moves": [["e3-e4", 2.5], ["e6-e5", 1.0]],
//!   "status": "resignation", "winner": "first" }"#).unwrap();
//! assert_eq!(pcn.moves.len(), 2);
//! assert_eq!(pcn.status, Some(Status::Resignation));
//! assert_eq!(pcn.winner, Some(Winner::First));
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::cgsn::Status;
use crate::error::ParseError;
use crate::feen::Feen;
use crate::pmn::Pmn;
use crate::style::Snn;

/// A PCN game record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pcn {
    /// Metadata; unknown keys are kept.
    #[serde(default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// The players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<Sides>,
    /// The initial position, a FEEN string (checked by [`Pcn::validate`]).
    pub setup: String,
    /// The moves: `[PMN, seconds spent]` each (checked by [`Pcn::validate`]).
    #[serde(default)]
    pub moves: Vec<(String, f64)>,
    /// The game status, a CGSN word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The winner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Winner>,
}

/// PCN metadata: the usual fields, plus any other keys kept as they were.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// A name for the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Where the game was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The round (from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// When the game started (ISO 8601 text, kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// A link to the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// Every other key, in input order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Meta {
    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        self == &Meta::default()
    }
}

/// The two players.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sides {
    /// The first player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<SideInfo>,
    /// The second player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<SideInfo>,
}

/// One player.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    /// The player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The player's style, an SNN name (`Xiongqi`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Snn>,
    /// Every other key (ratings, clocks…), in input order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The winner of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// `"first"`.
    First,
    /// `"second"`.
    Second,
    /// `"none"`: a draw.
    None,
}

/// Why a PCN record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PcnError {
    /// Malformed JSON, or JSON without the PCN shape.
    #[error("invalid PCN: {}", crate::error::json_message(.0))]
    Json(#[from] serde_json::Error),
    /// `setup` is not a valid FEEN.
    #[error("invalid PCN setup: {0}")]
    Setup(#[source] ParseError),
    /// A move is not valid PMN (`index` counts from 0).
    #[error("invalid PCN moves[{index}]: {source}")]
    Move {
        /// Position of the move in `moves`, from 0.
        index: usize,
        /// The PMN error.
        #[source]
        source: ParseError,
    },
    /// A move's time is negative or not finite.
    #[error("invalid PCN moves[{index}]: expected a time of at least 0 seconds, found {seconds}")]
    Time {
        /// Position of the move in `moves`, from 0.
        index: usize,
        /// The time found.
        seconds: f64,
    },
}

impl Pcn {
    /// Reads a PCN record and checks it with [`Pcn::validate`].
    ///
    /// ```
    /// use chuhe_notation::pcn::{Pcn, PcnError};
    /// let bad = Pcn::from_json(r#"{"setup": "8/8 / X/x", "moves": [["e0-e1", 1]]}"#);
    /// assert!(matches!(bad, Err(PcnError::Move { index: 0, .. })));
    /// ```
    pub fn from_json(json: &str) -> Result<Pcn, PcnError> {
        let pcn: Pcn = serde_json::from_str(json)?;
        pcn.validate()?;
        Ok(pcn)
    }

    /// Writes the record as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        // Every map key is a string and no value can fail to serialize.
        serde_json::to_string_pretty(self).expect("a PCN record always serializes")
    }

    /// Checks that `setup` is a FEEN, every move a PMN and every time a
    /// finite number of at least 0 seconds.
    pub fn validate(&self) -> Result<(), PcnError> {
        self.setup_feen()?;
        for (index, (text, seconds)) in self.moves.iter().enumerate() {
            Pmn::parse(text).map_err(|source| PcnError::Move { index, source })?;
            if !(seconds.is_finite() && *seconds >= 0.0) {
                return Err(PcnError::Time {
                    index,
                    seconds: *seconds,
                });
            }
        }
        Ok(())
    }

    /// The parsed `setup` position.
    pub fn setup_feen(&self) -> Result<Feen, PcnError> {
        Feen::parse(&self.setup).map_err(PcnError::Setup)
    }

    /// The parsed moves.
    pub fn pmn_moves(&self) -> Result<Vec<Pmn>, PcnError> {
        self.moves
            .iter()
            .enumerate()
            .map(|(index, (text, _))| {
                Pmn::parse(text).map_err(|source| PcnError::Move { index, source })
            })
            .collect()
    }
}
