//! GGN: pseudo-legal movement tables (JSON).
//!
//! `{ QPI: { from: { to: [ {"must": {cell: cond}, "deny": {cell: cond}}, … ] } } }`.
//! A move is pseudo-legal when at least one possibility holds: every `must`
//! condition is true and no `deny` condition is true. GGN describes movement
//! only: no promotion, no capture routing, no check.
//!
//! The interpreter, [`Ggn::moves`], lists the pseudo-legal moves of the side
//! to move in a FEEN position from any table, each with the actions GGN
//! implies ([`GgnMove::actions`]). The key order of a `must` or `deny`
//! object is kept from reading to writing ([`Conditions`]).
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
use crate::feen::{Feen, StyleTurn};
use crate::pin::Epin;
use crate::pmn::Pmn;
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

    /// Writes the document as indented JSON laid out as the seed writes it: one line per
    /// destination, its possibilities inline.
    ///
    /// ```
    /// use chuhe_notation::ggn::Ggn;
    /// let ggn = Ggn::from_json(r#"{"X:S": {"e3": {"e4": [{"must": {"e4": "empty"}}, {"must": {"e4": "enemy"}}]}}}"#).unwrap();
    /// assert_eq!(ggn.to_json_pretty(), r#"{
    ///   "X:S": {
    ///     "e3": {
    ///       "e4": [{ "must": { "e4": "empty" } }, { "must": { "e4": "enemy" } }]
    ///     }
    ///   }
    /// }"#);
    /// ```
    pub fn to_json_pretty(&self) -> String {
        // QPI, CELL and condition texts never need escaping in JSON.
        fn object<'a, T: 'a>(
            out: &mut String,
            indent: usize,
            entries: impl ExactSizeIterator<Item = (String, &'a T)>,
            mut value: impl FnMut(&mut String, &'a T),
        ) {
            if entries.len() == 0 {
                out.push_str("{}");
                return;
            }
            out.push_str("{\n");
            let count = entries.len();
            for (i, (key, v)) in entries.enumerate() {
                out.push_str(&"  ".repeat(indent + 1));
                out.push_str(&format!("\"{key}\": "));
                value(out, v);
                out.push_str(if i + 1 < count { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        fn conditions(name: &str, conditions: &Conditions) -> String {
            let inner: Vec<String> = conditions
                .iter()
                .map(|(cell, condition)| format!("\"{cell}\": \"{condition}\""))
                .collect();
            format!("\"{name}\": {{ {} }}", inner.join(", "))
        }
        fn possibility(p: &Possibility) -> String {
            let mut parts = Vec::new();
            if !p.must.is_empty() {
                parts.push(conditions("must", &p.must));
            }
            if !p.deny.is_empty() {
                parts.push(conditions("deny", &p.deny));
            }
            if parts.is_empty() {
                "{}".to_string()
            } else {
                format!("{{ {} }}", parts.join(", "))
            }
        }
        let mut out = String::new();
        let pieces = self.0.iter().map(|(piece, v)| (piece.to_string(), v));
        object(&mut out, 0, pieces, |out, sources| {
            let sources = sources.iter().map(|(from, v)| (from.to_string(), v));
            object(out, 1, sources, |out, destinations| {
                let destinations = destinations.iter().map(|(to, v)| (to.to_string(), v));
                object(out, 2, destinations, |out, possibilities| {
                    let list: Vec<String> = possibilities.iter().map(possibility).collect();
                    out.push_str(&format!("[{}]", list.join(", ")));
                });
            });
        });
        out
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

    /// The interpreter: the pseudo-legal moves of the side to move in
    /// `position`, sorted by source then destination.
    ///
    /// Each piece of the side to move is looked up under its QPI — its style
    /// (the owner's style from the style-turn field, or the other player's for
    /// a derived `'` piece) and its PIN — and each destination of its square
    /// that lies on the board is a move when at least one possibility holds.
    /// Squares off the board read as empty. GGN describes movement only: what
    /// the rules add (promotion, a change of state on the way, check,
    /// repetition) is not here.
    ///
    /// ```
    /// use chuhe_notation::ggn::Ggn;
    /// use chuhe_notation::Feen;
    /// let ggn = Ggn::from_json(r#"{"X:R": {"a1": {
    ///     "a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
    ///     "a3": [{"must": {"a2": "empty", "a3": "empty"}}, {"must": {"a2": "empty", "a3": "enemy"}}],
    ///     "b1": [{"must": {"b1": "empty"}}, {"must": {"b1": "enemy"}}]}}}"#).unwrap();
    /// // A rook on a1, a black soldier on a2: it takes the soldier or goes to b1.
    /// let feen = Feen::parse("3/s2/R2 / X/x").unwrap();
    /// let moves: Vec<String> = ggn.moves(&feen).iter().map(|m| m.pmn().to_string()).collect();
    /// assert_eq!(moves, ["a1+a2", "a1-b1"]);
    /// let feen = Feen::parse("3/3/R1s / X/x").unwrap(); // no entry for the soldier's side
    /// assert_eq!(ggn.moves(&feen).len(), 3);
    /// ```
    pub fn moves(&self, position: &Feen) -> Vec<GgnMove> {
        let styles = position.style_turn;
        let placement = &position.placement;
        let lookup = |cell: Cell| placement.get(cell).map(|epin| qpi_of(styles, epin));
        let pieces = placement
            .iter()
            .map(|(cell, epin)| (cell, qpi_of(styles, epin)));
        let mut moves = self.moves_with(position.side_to_move(), pieces, lookup);
        moves.retain(|m| placement.contains(m.to));
        moves
    }

    /// The interpreter on any board: the pseudo-legal moves of `side`, whose
    /// pieces are `pieces` (square and QPI; the other side's are skipped), the
    /// board being seen through `lookup`. Sorted by source then destination;
    /// every destination the table lists is tried (the caller drops those off
    /// its board).
    pub fn moves_with(
        &self,
        side: Side,
        pieces: impl IntoIterator<Item = (Cell, Qpi)>,
        lookup: impl Fn(Cell) -> Option<Qpi>,
    ) -> Vec<GgnMove> {
        let mut moves = Vec::new();
        for (from, piece) in pieces {
            if piece.side() != side {
                continue;
            }
            let Some(destinations) = self.destinations(piece, from) else {
                continue;
            };
            for (&to, possibilities) in destinations {
                if possibilities.iter().any(|p| p.holds(side, &lookup)) {
                    moves.push(GgnMove {
                        from,
                        to,
                        piece,
                        captured: lookup(to),
                    });
                }
            }
        }
        moves.sort();
        moves
    }
}

/// The QPI of a piece on a FEEN board: its PIN with its owner's style, or the
/// other player's style for a derived (`'`) piece.
fn qpi_of(styles: StyleTurn, epin: Epin) -> Qpi {
    let owner = epin.side();
    let style = match (owner, epin.derived) {
        (Side::First, false) | (Side::Second, true) => styles.first_style(),
        (Side::Second, false) | (Side::First, true) => styles.second_style(),
    };
    Qpi {
        sin: style.with_side(owner),
        pin: epin.pin,
    }
}

/// A pseudo-legal move found by the interpreter ([`Ggn::moves`]).
///
/// Ordered by source, then destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GgnMove {
    /// The source square.
    pub from: Cell,
    /// The destination square.
    pub to: Cell,
    /// The moving piece (the table's key).
    pub piece: Qpi,
    /// The piece on the destination, which the move captures.
    pub captured: Option<Qpi>,
}

/// Where a piece is, in the Game Protocol: on a square or in a player's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// A square of the board.
    Square(Cell),
    /// The hand of a player.
    Hand(Side),
}

/// One atomic action of a move: `piece` goes from one location to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// The piece that goes.
    pub piece: Qpi,
    /// Where it was.
    pub from: Location,
    /// Where it goes.
    pub to: Location,
}

impl GgnMove {
    /// Does the move capture?
    pub fn is_capture(&self) -> bool {
        self.captured.is_some()
    }

    /// The move in PMN: `e3-e4`, or `e4+e5` for a capture. Changes the rules
    /// add (a promotion, the river crossing) are theirs to write.
    pub fn pmn(&self) -> Pmn {
        if self.is_capture() {
            Pmn::capture(self.from, self.to)
        } else {
            Pmn::quiet(self.from, self.to)
        }
    }

    /// The move's actions as GGN implies them, in order: a captured piece
    /// goes from the destination into the mover's hand, unchanged; then the
    /// piece goes from its source to the destination, unchanged.
    ///
    /// ```
    /// use chuhe_notation::ggn::{Action, GgnMove, Location};
    /// use chuhe_notation::{Cell, Qpi, Side};
    /// let (e4, e5) = (Cell::parse("e4").unwrap(), Cell::parse("e5").unwrap());
    /// let (piece, victim) = (Qpi::parse("X:R").unwrap(), Qpi::parse("x:s").unwrap());
    /// let m = GgnMove { from: e4, to: e5, piece, captured: Some(victim) };
    /// assert_eq!(m.pmn().to_string(), "e4+e5");
    /// assert_eq!(m.actions(), [
    ///     Action { piece: victim, from: Location::Square(e5), to: Location::Hand(Side::First) },
    ///     Action { piece, from: Location::Square(e4), to: Location::Square(e5) },
    /// ]);
    /// ```
    pub fn actions(&self) -> Vec<Action> {
        let mut actions = Vec::with_capacity(2);
        if let Some(victim) = self.captured {
            actions.push(Action {
                piece: victim,
                from: Location::Square(self.to),
                to: Location::Hand(self.piece.side()),
            });
        }
        actions.push(Action {
            piece: self.piece,
            from: Location::Square(self.from),
            to: Location::Square(self.to),
        });
        actions
    }

    /// The position after the move's [actions](GgnMove::actions), the other
    /// player to move: movement only, without what the rules add. `None` when
    /// the source is empty or a square is off the board (the move was not
    /// found in `position`).
    ///
    /// ```
    /// use chuhe_notation::ggn::Ggn;
    /// use chuhe_notation::Feen;
    /// let ggn = Ggn::from_json(r#"{"X:R": {"a1": {"a2": [{"must": {"a2": "enemy"}}]}}}"#).unwrap();
    /// let before = Feen::parse("2/s1/R1 / X/x").unwrap();
    /// let m = ggn.moves(&before)[0];
    /// assert_eq!(m.apply(&before).unwrap().to_string(), "2/R1/2 s/ x/X");
    /// ```
    pub fn apply(&self, position: &Feen) -> Option<Feen> {
        let placement = &position.placement;
        if !placement.contains(self.to) {
            return None;
        }
        let mover = placement.get(self.from)?;
        let mut after = position.clone();
        if let Some(victim) = placement.get(self.to) {
            after.hand_mut(mover.side()).add(victim);
        }
        after.placement.set(self.from, None);
        after.placement.set(self.to, Some(mover));
        after.style_turn = position.style_turn.flipped();
        Some(after)
    }
}

/// One way a move can be pseudo-legal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Possibility {
    /// Conditions that must all be true.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub must: Conditions,
    /// Conditions none of which may be true.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub deny: Conditions,
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
            .all(|(cell, cond)| cond.holds(actor_side, lookup(cell)))
            && !self
                .deny
                .iter()
                .any(|(cell, cond)| cond.holds(actor_side, lookup(cell)))
    }
}

/// The conditions of a `must` or `deny` object: at most one per square, kept
/// in the order they are written.
///
/// GGN writes them as a JSON object. Its key order means nothing to the
/// rules, but chuhe keeps it through reading and writing, so that a table can
/// be written as the seed writes it — a path's squares from the moving piece
/// outward, the destination last (`{"b4": "empty", "c4": "empty", "d4":
/// "empty", "a4": "enemy"}`). Equality ignores the order. A square named
/// twice in one object is an error.
///
/// ```
/// use chuhe_notation::ggn::{Condition, Conditions};
/// use chuhe_notation::Cell;
/// let (b4, a4) = (Cell::parse("b4").unwrap(), Cell::parse("a4").unwrap());
/// let c: Conditions = [(b4, Condition::Empty), (a4, Condition::Enemy)].into();
/// assert_eq!(c[&a4], Condition::Enemy);
/// assert_eq!(c.iter().map(|(cell, _)| cell.to_string()).collect::<Vec<_>>(), ["b4", "a4"]);
/// assert_eq!(c, [(a4, Condition::Enemy), (b4, Condition::Empty)].into());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Conditions(Vec<(Cell, Condition)>);

impl Conditions {
    /// No condition.
    pub const fn new() -> Conditions {
        Conditions(Vec::new())
    }

    /// The number of conditions.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no condition.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The condition on `cell`, if any.
    pub fn get(&self, cell: &Cell) -> Option<&Condition> {
        self.0.iter().find(|(c, _)| c == cell).map(|(_, cond)| cond)
    }

    /// Whether `cell` has a condition.
    pub fn contains(&self, cell: &Cell) -> bool {
        self.get(cell).is_some()
    }

    /// Sets the condition on `cell`: replaced where it stands if `cell` has
    /// one already (which is returned), else appended.
    pub fn insert(&mut self, cell: Cell, condition: Condition) -> Option<Condition> {
        match self.0.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, old)) => Some(std::mem::replace(old, condition)),
            None => {
                self.0.push((cell, condition));
                None
            }
        }
    }

    /// The conditions in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Cell, Condition)> + '_ {
        self.0.iter().copied()
    }
}

impl PartialEq for Conditions {
    fn eq(&self, other: &Conditions) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(cell, cond)| other.get(&cell) == Some(&cond))
    }
}

impl Eq for Conditions {}

impl std::ops::Index<&Cell> for Conditions {
    type Output = Condition;

    /// # Panics
    ///
    /// If `cell` has no condition.
    fn index(&self, cell: &Cell) -> &Condition {
        self.get(cell)
            .unwrap_or_else(|| panic!("no condition on {cell}"))
    }
}

impl FromIterator<(Cell, Condition)> for Conditions {
    /// Later conditions on a square replace earlier ones.
    fn from_iter<I: IntoIterator<Item = (Cell, Condition)>>(iter: I) -> Conditions {
        let mut conditions = Conditions::new();
        conditions.extend(iter);
        conditions
    }
}

impl Extend<(Cell, Condition)> for Conditions {
    fn extend<I: IntoIterator<Item = (Cell, Condition)>>(&mut self, iter: I) {
        for (cell, condition) in iter {
            self.insert(cell, condition);
        }
    }
}

impl<const N: usize> From<[(Cell, Condition); N]> for Conditions {
    fn from(pairs: [(Cell, Condition); N]) -> Conditions {
        pairs.into_iter().collect()
    }
}

impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (cell, condition) in self.iter() {
            map.serialize_entry(&cell, &condition)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Conditions {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Conditions, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Conditions;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of square conditions such as {\"e4\": \"empty\"}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Conditions, A::Error> {
                let mut conditions = Conditions::new();
                while let Some((cell, condition)) = map.next_entry::<Cell, Condition>()? {
                    if conditions.insert(cell, condition).is_some() {
                        return Err(serde::de::Error::custom(format_args!(
                            "square {cell} named twice in one condition object"
                        )));
                    }
                }
                Ok(conditions)
            }
        }
        deserializer.deserialize_map(Visit)
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
