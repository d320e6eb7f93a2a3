//! Sashité notations for chuhe: CELL, PIN/EPIN, SIN/SNN, QPI, FEEN, PMN,
//! CGSN, GGN and PCN — syntax only, game-agnostic, no I/O and no rules.
//!
//! Every text parser returns a [`ParseError`] that names the notation, the
//! field, the byte offset, what was expected and what was found, plus the
//! canonical spelling of the whole input when the input only breaks a
//! canonical-form rule. No parser panics, whatever the input. Every value
//! prints in canonical form, and parsing canonical text then printing it
//! gives back the same text.
//!
//! ```
//! use chuhe_notation::{Cell, Feen, Pmn, Side};
//!
//! let feen: Feen = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x".parse()?;
//! assert_eq!(feen.side_to_move(), Side::First);
//! let general = feen.placement.get(Cell::parse("e1")?).unwrap();
//! assert!(general.pin.is_terminal());
//!
//! let mv: Pmn = "e3-e4".parse()?;
//! assert_eq!(mv.to_string(), "e3-e4");
//!
//! // Non-canonical FEEN is refused, with a message a person understands.
//! let err = Feen::parse("8/8/8/8/8/8/8/8 1s/ X/x").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid FEEN (hands) at offset 16: expected a count of at least 2, found '1s'; \
//!      canonical form: '8/8/8/8/8/8/8/8 s/ X/x'"
//! );
//! # Ok::<(), chuhe_notation::ParseError>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// Implements serde `Serialize`/`Deserialize` through `Display`/`FromStr`.
macro_rules! serde_as_string {
    ($ty:ty, $what:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                crate::error::deserialize_parsed(deserializer, $what)
            }
        }
    };
}

pub mod cell;
pub mod cgsn;
pub mod error;
pub mod feen;
pub mod ggn;
pub mod pcn;
pub mod pin;
pub mod pmn;
pub mod side;
pub mod style;

pub use cell::Cell;
pub use cgsn::Status;
pub use error::{Notation, ParseError};
pub use feen::{Feen, Hand, Placement, StyleTurn};
pub use pin::{Epin, PieceState, Pin};
pub use pmn::{MoveOp, Pmn};
pub use side::Side;
pub use style::{Qpi, Sin, Snn};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

serde_as_string!(Feen, "a FEEN position");
serde_as_string!(Pmn, "a PMN move such as \"e3-e4\"");
