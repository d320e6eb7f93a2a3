//! Xiangqi evaluation (both rule sets).

use chuhe::xiangqi::{squares, Position, Role};
use chuhe::Side;

/// Material value of a role in centipawns (the general: see `game::TERMINAL_VALUE`).
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General => crate::game::TERMINAL_VALUE,
        Role::Advisor => 200,
        Role::Elephant => 200,
        Role::Horse => 400,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Soldier => 100,
    }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for side in [Side::First, Side::Second] {
        for sq in squares(pos.side_bb(side)) {
            let Some(p) = pos.piece_at(sq) else { continue };
            if p.role == Role::General {
                continue;
            }
            let mut v = piece_value(p.role);
            if p.role == Role::Soldier && Position::is_across_river(side, sq) {
                v += 80;
            }
            score[side.index()] += v;
        }
    }
    let white = score[0] - score[1];
    if pos.turn() == Side::First {
        white
    } else {
        -white
    }
}
