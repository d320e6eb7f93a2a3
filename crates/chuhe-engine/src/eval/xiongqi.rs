//! Xiongqi evaluation.

use chuhe::xiongqi::{squares, Position, Role};
use chuhe::Side;

/// Material value of a role in centipawns (terminal pieces: see `game::TERMINAL_VALUE`).
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General | Role::Dragon => crate::game::TERMINAL_VALUE,
        Role::Advisor => 200,
        Role::Bear => 450,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Empress => 1300,
        Role::Soldier => 100,
        Role::CrossedSoldier => 180,
    }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for side in [Side::First, Side::Second] {
        for sq in squares(pos.side_bb(side)) {
            let Some(p) = pos.piece_at(sq) else { continue };
            if p.role.is_terminal() {
                continue;
            }
            score[side.index()] += piece_value(p.role);
        }
    }
    let white = score[0] - score[1];
    if pos.turn() == Side::First {
        white
    } else {
        -white
    }
}
