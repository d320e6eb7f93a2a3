//! GGN: pseudo-legal movement tables (JSON).
//!
//! `{ QPI: { from: { to: [ {"must": {cell: cond}, "deny": {cell: cond}}, … ] } } }`.
//! A move is pseudo-legal when at least one possibility holds: every `must`
//! condition is true and no `deny` condition is true. GGN describes movement
//! only: no promotion, no capture routing, no check.
//!
//! ```
//! use chuhe_notation::ggn::Ggn;
//! use chuhe_notation::{Cell, Qpi, Side};
//!
//! let ggn = Ggn::from_json(r#"{"X:R": {"a1": {"a3": [
//!     {"must": {"a2": "empty", "a3": "empty"}},
//!     {"must": {"a2": "empty", "a3": "enemy"}}]}}}"#).unwrap();
//! let rook = Qpi::parse("X:R").unwrap();
//! let enemy = Qpi::parse("x:s").unwrap();
//! let board = |cell: Cell| (cell == Cell::parse("a3").unwrap()).then_some(enemy);
//! let (a1, a3) = (Cell::parse("a1").unwrap(), Cell::parse("a3").unwrap());
//! assert!(ggn.is_pseudo_legal(rook, a1, a3, board));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cell::Cell;
use crate::side::Side;
use crate::style::Qpi;

/// The destinations of one piece from one square: destination → possibilities.
pub type Destinations = BTreeMap<Cell, Vec<Possibility>>;

/// A GGN document: piece → source square → destination square →
/// possibilities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ggn(pub BTreeMap<Qpi, BTreeMap<Cell, Destinations>>);

/// Why a GGN document could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GgnError {
    /// The JSON is malformed or does not have the GGN shape (the message
    /// includes any QPI, CELL or condition parse error, with line and column).
    #[error("invalid GGN: {}", crate::error::json_message(.0))]
    Json(#[from] serde_json::Error),
}

impl Ggn {
    /// Reads a GGN document.
    ///
    /// ```
    /// use chuhe_notation::ggn::Ggn;
    /// let ggn = Ggn::from_json(r#"{"X:S": {"e3": {"e4": [{"must": {"e4": "empty"}}]}}}"#).unwrap();
    /// assert_eq!(ggn.to_json(), r#"{"X:S":{"e3":{"e4":[{"must":{"e4":"empty"}}]}}}"#);
    /// assert!(Ggn::from_json(r#"{"X:g": {}}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<Ggn, GgnError> {
        Ok(serde_json::from_str(json)?)
    }

    /// Writes the document as compact JSON (keys in [`Qpi`] / [`Cell`] order).
    pub fn to_json(&self) -> String {
        // Every key serializes as a string and no value can fail to serialize.
        serde_json::to_string(self).expect("a GGN document always serializes")
    }

    /// Writes the document as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a GGN document always serializes")
    }

    /// The possibilities listed for `piece` moving `from` → `to` (empty when
    /// the table has none).
    pub fn possibilities(&self, piece: Qpi, from: Cell, to: Cell) -> &[Possibility] {
        self.0
            .get(&piece)
            .and_then(|sources| sources.get(&from))
            .and_then(|destinations| destinations.get(&to))
            .map_or(&[], Vec::as_slice)
    }

    /// The destinations listed for `piece` on `from`.
    pub fn destinations(&self, piece: Qpi, from: Cell) -> Option<&Destinations> {
        self.0.get(&piece).and_then(|sources| sources.get(&from))
    }

    /// Whether `piece` may move `from` → `to` given the board seen through
    /// `lookup` (the piece on a square, `None` if empty): at least one
    /// possibility holds.
    pub fn is_pseudo_legal(
        &self,
        piece: Qpi,
        from: Cell,
        to: Cell,
        lookup: impl Fn(Cell) -> Option<Qpi>,
    ) -> bool {
        self.possibilities(piece, from, to)
            .iter()
            .any(|possibility| possibility.holds(piece.side(), &lookup))
    }
}

/// One way a move can be pseudo-legal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Possibility {
    /// Conditions that must all be true.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub must: BTreeMap<Cell, Condition>,
    /// Conditions none of which may be true.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deny: BTreeMap<Cell, Condition>,
}

impl Possibility {
    /// Whether the possibility holds for a piece of `actor_side`, the board
    /// being seen through `lookup`: every `must` condition true and no `deny`
    /// condition true.
    ///
    /// ```
    /// use chuhe_notation::ggn::{Condition, Possibility};
    /// use chuhe_notation::{Cell, Side};
    /// let d4 = Cell::parse("d4").unwrap();
    /// let p = Possibility { must: [(d4, Condition::Empty)].into(), deny: Default::default() };
    /// assert!(p.holds(Side::First, |_| None));
    /// ```
    pub fn holds(&self, actor_side: Side, lookup: impl Fn(Cell) -> Option<Qpi>) -> bool {
        self.must
            .iter()
            .all(|(&cell, cond)| cond.holds(actor_side, lookup(cell)))
            && !self
                .deny
                .iter()
                .any(|(&cell, cond)| cond.holds(actor_side, lookup(cell)))
    }
}

/// A condition on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// `"empty"`: no piece on the square.
    Empty,
    /// `"enemy"`: a piece of the other side than the moving piece.
    Enemy,
    /// A QPI string: exactly that piece.
    Piece(Qpi),
}

impl Condition {
    /// Whether the condition is true for a piece of `actor_side` when the
    /// square holds `occupant`.
    pub fn holds(self, actor_side: Side, occupant: Option<Qpi>) -> bool {
        match self {
            Condition::Empty => occupant.is_none(),
            Condition::Enemy => occupant.is_some_and(|q| q.side() != actor_side),
            Condition::Piece(piece) => occupant == Some(piece),
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Empty => f.write_str("empty"),
            Condition::Enemy => f.write_str("enemy"),
            Condition::Piece(piece) => piece.fmt(f),
        }
    }
}

impl Serialize for Condition {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Condition {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Condition, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Condition;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"empty\", \"enemy\" or a QPI piece such as \"x:C\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Condition, E> {
                match v {
                    "empty" => Ok(Condition::Empty),
                    "enemy" => Ok(Condition::Enemy),
                    _ => Qpi::parse(v).map(Condition::Piece).map_err(E::custom),
                }
            }
        }
        deserializer.deserialize_str(Visit)
    }
}
