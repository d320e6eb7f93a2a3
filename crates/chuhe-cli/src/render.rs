//! Boards as text for `chuhe show`.

use chuhe::{xiangqi, xiongqi, Outcome, Side};

use crate::Glyphs;

/// Draws a Xiongqi game: board (rank 8 on top), side to move, check, status, FEEN.
pub fn xiongqi(game: &xiongqi::Game, glyphs: Glyphs) -> String {
    let pos = game.position();
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let sq = xiongqi::Square::from_coords(file, rank).expect("on the board");
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
    footer(
        &mut out,
        pos.turn(),
        game.is_check(),
        game.outcome(),
        pos.halfmove(),
    );
    out.push_str(&format!("feen: {}\n", pos.to_feen()));
    out
}

fn footer(out: &mut String, turn: Side, check: bool, outcome: Option<Outcome>, halfmove: u32) {
    let turn = match turn {
        Side::First => "first (South/Red)",
        Side::Second => "second (North/Black)",
    };
    out.push_str(&format!("turn: {turn}\n"));
    out.push_str(&format!("check: {}\n", if check { "yes" } else { "no" }));
    match outcome {
        Some(o) => out.push_str(&format!(
            "status: {} (winner: {})\n",
            o.status,
            o.winner_str()
        )),
        None => out.push_str("status: ongoing\n"),
    }
    out.push_str(&format!("halfmove: {halfmove}\n"));
}

/// Draws a Xiangqi game: board (rank 10 on top, the river between 5 and 6), side to move,
/// check, status, FEN and FEEN.
pub fn xiangqi(game: &xiangqi::Game, glyphs: Glyphs) -> String {
    let pos = game.position();
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..9u8 {
            let sq = xiangqi::Square::from_coords(file, rank).expect("on the board");
            let cell = match (pos.piece_at(sq), glyphs) {
                (None, Glyphs::Latin) => "  .".to_string(),
                (None, Glyphs::Chinese) => " ・".to_string(),
                (Some(p), Glyphs::Latin) => format!("  {}", p.fen_char()),
                (Some(p), Glyphs::Chinese) => format!(" {}", p.chinese()),
            };
            out.push_str(&cell);
        }
        out.push('\n');
        if rank == 5 {
            out.push_str("   ~~~~~~~~~~~~~~~~~~~~~~~~~~~ river\n");
        }
    }
    out.push_str(match glyphs {
        Glyphs::Latin => "     a  b  c  d  e  f  g  h  i\n",
        Glyphs::Chinese => "    a  b  c  d  e  f  g  h  i\n",
    });
    footer(
        &mut out,
        pos.turn(),
        game.is_check(),
        game.outcome(),
        pos.halfmove(),
    );
    out.push_str(&format!("fen: {}\n", pos.to_fen()));
    out.push_str(&format!("feen: {}\n", pos.to_feen()));
    out
}
