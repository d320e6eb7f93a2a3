//! Writing a position as FEEN, shared by the games.

use chuhe_notation::{Cell, Epin, Feen, Hand, Pin, Placement, Side, Sin, StyleTurn};

/// A FEEN in chuhe's style (`X`/`x`, used by both games): a `width`×`height` board with
/// `pieces`, each side's hand as (piece, count) pairs from `hand`, and `turn` to move.
pub(crate) fn x_style_feen<H: IntoIterator<Item = (Pin, u8)>>(
    (width, height): (u16, u16),
    pieces: impl IntoIterator<Item = (Cell, Pin)>,
    hand: impl Fn(Side) -> H,
    turn: Side,
) -> Feen {
    let mut placement = Placement::empty(width, height);
    for (cell, pin) in pieces {
        placement.set(cell, Some(Epin::native(pin)));
    }
    let mut hands = [Hand::new(), Hand::new()];
    for owner in Side::BOTH {
        for (pin, n) in hand(owner) {
            hands[owner.index()].add_n(Epin::native(pin), u32::from(n));
        }
    }
    let style = Sin::new(b'X', Side::First);
    Feen {
        placement,
        hands,
        style_turn: StyleTurn::new(style, style, turn),
    }
}
