//! WXF move notation, written exactly as Fairy-Stockfish (pyffish's
//! `get_san(…, NOTATION_XIANGQI_WXF)`) writes it, and read leniently.
//!
//! A move is four characters: the piece, the file it stands on, an operator and a number.
//!
//! - **Piece**: `K A E H R C P` (general, advisor, elephant, horse, chariot, cannon,
//!   soldier), uppercase for both sides.
//! - **Files** are numbered 1–9 from each player's *own* right: Red's file `a` is 9 and its
//!   file `i` is 1; Black's file `a` is 1 and its file `i` is 9.
//! - **Operator**: `+` forward (toward the opponent), `-` backward, `=` sideways.
//! - **Number**: for a general, chariot, cannon or soldier moving along its file, the number
//!   of points moved; otherwise (sideways, and every advisor, elephant and horse move) the
//!   file it lands on.
//!
//! Two pieces of one kind on one file (tandem pieces) are told apart by `+` (the front one,
//! nearer the opponent) or `-` (the rear one) in place of the file: `R++1`, `R-=9`, `H+-5`.
//! Fairy-Stockfish writes this form only when the other piece of the pair could make the
//! same-looking move on the board (its landing point lies on the board and, for the general,
//! advisors and elephants, in their area); otherwise the file is written, which is then
//! already unambiguous (`R7+4` for the rear of chariots on c1 and c9 going to c5).
//!
//! When three or more pieces of one kind stand on a file, or two or more files each hold two
//! or more of them (in practice: soldiers), the letter is replaced by the piece's place in its
//! file counted from the front (1 = nearest the opponent), followed by the file: `15+1` is the
//! frontmost soldier on file 5 moving one point forward, `27=6` the second soldier on file 7
//! stepping to file 6 (2018 World Xiangqi Rules, as Fairy-Stockfish implements them).
//!
//! No check or mate suffix is written.
//!
//! Input accepts everything written above and also: lowercase letters (playOK writes Black's
//! moves that way; the side to move decides whose piece it is, whatever the case), `.` for
//! `=`, the letters `B` (elephant) and `N` (horse), the tandem marker before the letter
//! (`+R=6` as well as `R+=6`), and surrounding spaces. A form that is not the canonical one is
//! accepted when it names exactly one legal move (`P5+1` with two soldiers on file 5 of which
//! only one can advance); otherwise the error lists the moves it could mean.
//!
//! ```
//! use chuhe::xiangqi::{MoveNotation, Position};
//! use chuhe::GamePosition;
//! let pos = Position::start();
//! let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
//! assert_eq!(pos.move_to_text(m, MoveNotation::Wxf).unwrap(), "C2=5");
//! assert_eq!(pos.parse_move_as("C2.5", MoveNotation::Wxf).unwrap(), m);
//! let horse = pos.parse_move_as("N8+7", MoveNotation::Wxf).unwrap();
//! assert_eq!(horse.to_string(), "b1c3");
//! assert!(pos.parse_move_as("H8+6", MoveNotation::Wxf).is_err());
//! ```

use chuhe_notation::Side;

use super::bitboard::{file_bb, squares, Square};
use super::notation::role_name;
use super::position::Position;
use super::types::{Move, Role};
use crate::MoveError;

/// Writes a legal move of `pos` in WXF, as Fairy-Stockfish does.
pub(crate) fn to_wxf(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        // Not a move of this position: fall back to coordinates rather than panic.
        return m.to_string();
    };
    let (us, role) = (piece.side, piece.role);
    let file_mates = on_file_front_first(pos, us, role, from.file());
    let place = file_mates.iter().position(|&s| s == from).unwrap_or(0);
    let tandems = multi_tandem(pos, us, role);
    let mut out = String::with_capacity(4);
    if file_mates.len() >= 3 || (file_mates.len() >= 2 && tandems) {
        out.push_str(&(place + 1).to_string());
        out.push_str(&wxf_file(us, from.file()).to_string());
    } else {
        out.push(letter(role));
        let twin_could_too = file_mates.len() == 2 && {
            let other = file_mates[1 - place];
            let rank = to.rank() as i32 + other.rank() as i32 - from.rank() as i32;
            (0..10).contains(&rank)
                && Square::from_coords(to.file(), rank as u8).is_some_and(|s| in_area(us, role, s))
        };
        if twin_could_too {
            out.push(if place == 0 { '+' } else { '-' });
        } else {
            out.push_str(&wxf_file(us, from.file()).to_string());
        }
    }
    out.push(if from.rank() == to.rank() {
        '='
    } else if forward_steps(us, from, to) > 0 {
        '+'
    } else {
        '-'
    });
    if from.file() == to.file() {
        out.push_str(&from.rank().abs_diff(to.rank()).to_string());
    } else {
        out.push_str(&wxf_file(us, to.file()).to_string());
    }
    out
}

/// Reads a WXF move (see the module documentation for the forms accepted) as a legal move of
/// `pos`.
pub(crate) fn parse_wxf(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if let Some(o) = pos.static_outcome() {
        return Err(MoveError::GameOver { outcome: o });
    }
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 4 {
        return Err(syntax(
            text,
            "WXF has four characters: piece, file, operator (+ - =) and a number, like C2=5 or H8+7",
        ));
    }
    let us = pos.turn();
    let who = side_name(us);
    let piece_of = |c: char| -> Result<Role, MoveError> {
        role_of_letter(c).ok_or_else(|| {
            syntax(
                text,
                &format!(
                    "'{c}' is not a WXF piece letter (K A E H R C P, also B for the elephant and N for the horse)"
                ),
            )
        })
    };
    let digit = |c: char, what: &str| -> Result<u8, MoveError> {
        match c {
            '1'..='9' => Ok(c as u8 - b'0'),
            _ => Err(syntax(text, &format!("expected {what}, found '{c}'"))),
        }
    };

    // The pieces the first two characters name.
    let candidates: Vec<Square> = match (chars[0], chars[1]) {
        (c0, c1) if c0.is_ascii_digit() => {
            let place = digit(c0, "a soldier's place in its file (1–9)")?;
            let file_no = digit(c1, "a file number (1–9)")?;
            let file = board_file(us, file_no);
            let counted = |role: Role| {
                let mates = on_file_front_first(pos, us, role, file);
                (mates.len() >= 3 || (mates.len() >= 2 && multi_tandem(pos, us, role)))
                    .then_some(mates)
            };
            let mut found = Vec::new();
            let mut any_counted = false;
            for role in Role::ALL {
                if let Some(mates) = counted(role) {
                    any_counted = true;
                    if let Some(&s) = mates.get(place as usize - 1) {
                        found.push(s);
                    }
                }
            }
            if !any_counted {
                // Not the canonical situation; still accept it for soldiers when it names one.
                let soldiers = on_file_front_first(pos, us, Role::Soldier, file);
                if soldiers.len() >= 2 {
                    if let Some(&s) = soldiers.get(place as usize - 1) {
                        found.push(s);
                    }
                }
            }
            if found.is_empty() {
                let n = on_file_front_first(pos, us, Role::Soldier, file).len();
                return Err(MoveError::illegal(format!(
                    "'{t}' names the soldier number {place} from the front on file {file_no}, but {who} has {} there",
                    count_soldiers(n)
                )));
            }
            found
        }
        (c0 @ ('+' | '-'), c1) | (c1, c0 @ ('+' | '-')) if c1.is_ascii_alphabetic() => {
            let role = piece_of(c1)?;
            let front = c0 == '+';
            let mut found = Vec::new();
            for file in 0..9 {
                let mates = on_file_front_first(pos, us, role, file);
                if mates.len() >= 2 {
                    found.push(if front { mates[0] } else { mates[mates.len() - 1] });
                }
            }
            if found.is_empty() {
                return Err(MoveError::illegal(format!(
                    "'{c0}' names the {} {} of two on one file, but no two {who} {}s share a file: write the file instead",
                    if front { "front" } else { "rear" },
                    role_name(role),
                    role_name(role)
                )));
            }
            found
        }
        (c0, c1) if c0.is_ascii_alphabetic() => {
            let role = piece_of(c0)?;
            let file_no = digit(
                c1,
                "a file number (1–9), or + or - for the front or rear of two pieces on a file",
            )?;
            let found: Vec<Square> = on_file_front_first(pos, us, role, board_file(us, file_no));
            if found.is_empty() {
                return Err(MoveError::illegal(format!(
                    "there is no {who} {} on file {file_no}",
                    role_name(role)
                )));
            }
            found
        }
        (c0, _) => {
            return Err(syntax(
                text,
                &format!("'{c0}' cannot start a WXF move: expected a piece letter such as R, or a soldier's place in its file"),
            ))
        }
    };
    let op = match chars[2] {
        '+' => Op::Forward,
        '-' => Op::Backward,
        '=' | '.' => Op::Sideways,
        c => {
            return Err(syntax(
                text,
                &format!("'{c}' is not a WXF operator: + forward, - backward, = (or .) sideways"),
            ))
        }
    };
    let number = digit(chars[3], "a number of points or a file number (1–9)")?;

    let mut legal = Vec::new();
    let mut reasons = Vec::new();
    for &from in &candidates {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        match destination(us, piece.role, from, op, number) {
            Err(reason) => reasons.push(reason),
            Ok(to) => {
                let m = Move::new(from, to);
                match pos.check_move(m) {
                    Ok(()) => legal.push(m),
                    Err(e) => reasons.push(e.to_string()),
                }
            }
        }
    }
    match legal.as_slice() {
        [m] => Ok(*m),
        [] if reasons.len() == 1 => Err(MoveError::illegal(reasons.remove(0))),
        [] => Err(MoveError::illegal(format!(
            "no {who} piece can play '{t}': {}",
            reasons.join("; ")
        ))),
        many => {
            let options: Vec<String> = many
                .iter()
                .map(|&m| format!("{} ({})", pos.to_pmn(m), to_wxf(pos, m)))
                .collect();
            Err(MoveError::illegal(format!(
                "'{t}' is ambiguous: it could be {}",
                options.join(" or ")
            )))
        }
    }
}

/// A WXF operator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Forward,
    Backward,
    Sideways,
}

/// Where the piece of `role` on `from` lands for `op` and `number`, or why it cannot.
fn destination(us: Side, role: Role, from: Square, op: Op, number: u8) -> Result<Square, String> {
    let name = role_name(role);
    let here = format!("the {name} on {from} (file {})", wxf_file(us, from.file()));
    let ahead = |steps: i32| -> Option<u8> {
        let rank = from.rank() as i32 + steps * forward(us);
        (0..10).contains(&rank).then_some(rank as u8)
    };
    let way = if op == Op::Forward {
        "forward"
    } else {
        "backward"
    };
    let sign = if op == Op::Forward { 1 } else { -1 };
    let target_file = board_file(us, number);
    match role {
        Role::General | Role::Chariot | Role::Cannon | Role::Soldier => {
            if op == Op::Sideways {
                if target_file == from.file() {
                    return Err(format!(
                        "{here} is already on file {number}: '=' moves it sideways to another file"
                    ));
                }
                return Ok(Square::from_coords(target_file, from.rank()).expect("on the board"));
            }
            match ahead(sign * number as i32) {
                Some(rank) => Ok(Square::from_coords(from.file(), rank).expect("on the board")),
                None => {
                    let room = room(us, from, op);
                    let side = if op == Op::Forward {
                        "in front of"
                    } else {
                        "behind"
                    };
                    let left = match room {
                        0 => format!("there is no point {side} it"),
                        1 => format!("there is only 1 point {side} it"),
                        r => format!("there are only {r} points {side} it"),
                    };
                    Err(format!(
                        "{here} cannot move {number} point{} {way}: {left}",
                        if number == 1 { "" } else { "s" },
                    ))
                }
            }
        }
        Role::Advisor | Role::Elephant | Role::Horse => {
            if op == Op::Sideways {
                return Err(format!(
                    "{here} moves diagonally, never sideways: write + or - and the file it lands on"
                ));
            }
            let files = from.file().abs_diff(target_file);
            let ranks = match (role, files) {
                (Role::Advisor, 1) => 1,
                (Role::Elephant, 2) => 2,
                (Role::Horse, 1) => 2,
                (Role::Horse, 2) => 1,
                _ => {
                    let over = match role {
                        Role::Advisor => "one file",
                        Role::Elephant => "two files",
                        _ => "one or two files",
                    };
                    return Err(format!(
                        "{here} cannot land on file {number}: {}s land {over} over",
                        name
                    ));
                }
            };
            match ahead(sign * ranks) {
                Some(rank) => Ok(Square::from_coords(target_file, rank).expect("on the board")),
                None => Err(format!(
                    "{here} cannot move {way} to file {number}: that is off the board"
                )),
            }
        }
    }
}

/// How many points lie between `from` and the board's edge in the direction of `op`.
fn room(us: Side, from: Square, op: Op) -> u8 {
    let toward_top = (op == Op::Forward) == (us == Side::First);
    if toward_top {
        9 - from.rank()
    } else {
        from.rank()
    }
}

/// `+1` for Red (toward rank 10), `-1` for Black.
fn forward(us: Side) -> i32 {
    match us {
        Side::First => 1,
        Side::Second => -1,
    }
}

/// How far forward (for `us`) `to` lies from `from`, in ranks.
fn forward_steps(us: Side, from: Square, to: Square) -> i32 {
    (to.rank() as i32 - from.rank() as i32) * forward(us)
}

/// The WXF file number (1–9, from the player's own right) of a board file (0 = `a`).
fn wxf_file(us: Side, file: u8) -> u8 {
    match us {
        Side::First => 9 - file,
        Side::Second => file + 1,
    }
}

/// The board file (0 = `a`) of a WXF file number 1–9.
fn board_file(us: Side, number: u8) -> u8 {
    match us {
        Side::First => 9 - number,
        Side::Second => number - 1,
    }
}

/// `us`'s pieces of `role` on a board file, the most advanced (nearest the opponent) first.
fn on_file_front_first(pos: &Position, us: Side, role: Role, file: u8) -> Vec<Square> {
    let bb = pos.side_bb(us) & pos.role_bb(role) & file_bb(file);
    let mut v: Vec<Square> = squares(bb).collect();
    v.sort_by_key(|s| -(s.rank() as i32) * forward(us));
    v
}

/// Do two or more files each hold two or more of `us`'s pieces of `role`?
fn multi_tandem(pos: &Position, us: Side, role: Role) -> bool {
    let bb = pos.side_bb(us) & pos.role_bb(role);
    (0..9)
        .filter(|&f| (bb & file_bb(f)).count_ones() >= 2)
        .count()
        >= 2
}

/// May a piece of `role` stand on `sq` at all (general and advisors in the palace, elephants
/// on their own side of the river)?
fn in_area(us: Side, role: Role, sq: Square) -> bool {
    let own_ranks = |lo: u8, hi: u8| match us {
        Side::First => (lo..=hi).contains(&sq.rank()),
        Side::Second => (9 - hi..=9 - lo).contains(&sq.rank()),
    };
    match role {
        Role::General | Role::Advisor => (3..=5).contains(&sq.file()) && own_ranks(0, 2),
        Role::Elephant => own_ranks(0, 4),
        _ => true,
    }
}

/// The WXF letter of a role.
fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// The role of a WXF letter, either case, with the aliases `B` (elephant) and `N` (horse).
fn role_of_letter(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::General,
        'A' => Role::Advisor,
        'E' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Chariot,
        'C' => Role::Cannon,
        'P' => Role::Soldier,
        _ => return None,
    })
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Black",
    }
}

fn count_soldiers(n: usize) -> String {
    match n {
        0 => "no soldier".to_string(),
        1 => "only one soldier".to_string(),
        n => format!("only {n} soldiers"),
    }
}

fn syntax(text: &str, reason: &str) -> MoveError {
    MoveError::Syntax {
        text: chuhe_notation::error::shorten(text).into_owned(),
        reason: reason.to_string(),
    }
}
