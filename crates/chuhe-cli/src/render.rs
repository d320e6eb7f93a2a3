//! Boards as text for `chuhe show`.

use chuhe::{xiangqi, xiongqi, Outcome, Side};

use crate::Glyphs;

/// A piece as drawn: its Latin text (PIN or FEN letter) and its Chinese character.
type Drawn = (String, char);

/// Draws a board: rank `ranks` on top, the river below rank index `river_above`, files under.
fn grid(
    files: u8,
    ranks: u8,
    river_above: u8,
    glyphs: Glyphs,
    piece: impl Fn(u8, u8) -> Option<Drawn>,
) -> String {
    let label = ranks.to_string().len();
    let mut out = String::new();
    for rank in (0..ranks).rev() {
        out.push_str(&format!("{:>label$} ", rank + 1));
        for file in 0..files {
            let cell = match (piece(file, rank), glyphs) {
                (None, Glyphs::Latin) => "  .".to_string(),
                (None, Glyphs::Chinese) => " ・".to_string(),
                (Some((latin, _)), Glyphs::Latin) => format!("{latin:>3}"),
                (Some((_, chinese)), Glyphs::Chinese) => format!(" {chinese}"),
            };
            out.push_str(&cell);
        }
        out.push('\n');
        if rank == river_above {
            let width = 3 * files as usize;
            out.push_str(&format!("{:label$} {:~<width$} river\n", "", ""));
        }
    }
    let indent = label + if glyphs == Glyphs::Latin { 3 } else { 2 };
    let names: Vec<String> = (0..files)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect();
    out.push_str(&format!("{:indent$}{}\n", "", names.join("  ")));
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

/// Draws a Xiongqi game: board (rank 8 on top), side to move, check, status, FEEN.
pub fn xiongqi(game: &xiongqi::Game, glyphs: Glyphs) -> String {
    let pos = game.position();
    let mut out = grid(8, 8, 4, glyphs, |file, rank| {
        let sq = xiongqi::Square::from_coords(file, rank)?;
        pos.piece_at(sq).map(|p| (p.to_string(), p.chinese()))
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

/// Draws a Xiangqi game: board (rank 10 on top, the river between 5 and 6), side to move,
/// check, status, FEN and FEEN.
pub fn xiangqi(game: &xiangqi::Game, glyphs: Glyphs) -> String {
    let pos = game.position();
    let mut out = grid(9, 10, 5, glyphs, |file, rank| {
        let sq = xiangqi::Square::from_coords(file, rank)?;
        pos.piece_at(sq)
            .map(|p| (p.fen_char().to_string(), p.chinese()))
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
