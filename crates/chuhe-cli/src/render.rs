//! Boards as text for `chuhe show`.

use chuhe::xiongqi::{Game, Square};
use chuhe::Side;

use crate::Glyphs;

/// Draws a Xiongqi game: board (rank 8 on top), side to move, check, status, FEEN.
pub fn xiongqi(game: &Game, glyphs: Glyphs) -> String {
    let pos = game.position();
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let cell = match (pos.piece_at(sq), glyphs) {
                (None, Glyphs::Latin) => "  .".to_string(),
                (None, Glyphs::Chinese) => " ・".to_string(),
                (Some(p), Glyphs::Latin) => format!("{:>3}", p.to_string()),
                (Some(p), Glyphs::Chinese) => format!(" {}", p.chinese()),
            };
            out.push_str(&cell);
        }
        out.push('\n');
        if rank == 4 {
            out.push_str("  ~~~~~~~~~~~~~~~~~~~~~~~~ river\n");
        }
    }
    out.push_str(match glyphs {
        Glyphs::Latin => "    a  b  c  d  e  f  g  h\n",
        Glyphs::Chinese => "   a  b  c  d  e  f  g  h\n",
    });
    let turn = match pos.turn() {
        Side::First => "first (South)",
        Side::Second => "second (North)",
    };
    out.push_str(&format!("turn: {turn}\n"));
    out.push_str(&format!(
        "check: {}\n",
        if game.is_check() { "yes" } else { "no" }
    ));
    match game.outcome() {
        Some(o) => out.push_str(&format!(
            "status: {} (winner: {})\n",
            o.status,
            o.winner_str()
        )),
        None => out.push_str("status: ongoing\n"),
    }
    out.push_str(&format!("halfmove: {}\n", pos.halfmove()));
    out.push_str(&format!("feen: {}\n", pos.to_feen()));
    out
}
