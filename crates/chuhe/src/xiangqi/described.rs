//! A move as the file notations describe it: which piece (by its file, its place among
//! pieces of its kind on one file, or both), which way it goes, and a number.
//!
//! WXF (`C2=5`, `R++1`, `15+1`) and the Chinese notation (炮二平五, 前车进一, 前五进一) carry
//! exactly this information, spelled differently: [`describe`] works it out for a legal move
//! once, and each notation only writes it; each notation reads its text into a [`Named`]
//! piece, a [`Direction`] and a number, and [`resolve`] finds the legal move they mean, with
//! messages spelled in the notation's own [`Style`].

use chuhe_notation::Side;

use super::bitboard::{file_bb, squares, Square};
use super::notation::role_name;
use super::position::Position;
use super::types::{Move, Role};
use crate::MoveError;

/// How a legal move is described (what [`describe`] returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    /// Whose move it is.
    pub side: Side,
    /// The piece that moves.
    pub role: Role,
    /// How that piece is told from the others of its kind.
    pub which: Which,
    /// Forward, backward or sideways.
    pub direction: Direction,
    /// The points moved along the file (a general, chariot, cannon or soldier going forward
    /// or backward), otherwise the file it lands on (1–9 from the player's own right).
    pub number: u8,
}

/// How the piece that moves is told from the others of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    /// By its file, 1–9 from the player's own right (WXF `C2`, Chinese 炮二).
    File(u8),
    /// The front (nearer the opponent) or rear of two of its kind on its file: in WXF when
    /// the other one could make the same-looking move (`R+`), in Chinese whenever they share
    /// the file (前车; see [`describe_traditional`]).
    Tandem {
        /// The front one?
        front: bool,
    },
    /// Its place, from 1 at the front, among the `of` pieces of its kind on `file`: when
    /// three or more share a file, or when two or more files each hold two or more
    /// (`several_files`; in practice soldiers). WXF `15`, Chinese 前兵 or 前五.
    Counted {
        /// 1 = nearest the opponent.
        place: u8,
        /// How many pieces of its kind stand on its file (at least 2).
        of: u8,
        /// Its file, 1–9 from the player's own right.
        file: u8,
        /// Do two or more files each hold two or more of them?
        several_files: bool,
    },
}

/// Forward (toward the opponent), backward or sideways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// WXF `+`, Chinese 进.
    Forward,
    /// WXF `-`, Chinese 退.
    Backward,
    /// WXF `=`, Chinese 平.
    Sideways,
}

/// Describes a move of `pos` as Fairy-Stockfish's WXF does; `None` when no piece stands on
/// its origin.
pub(crate) fn describe(pos: &Position, m: Move) -> Option<Description> {
    let (from, to) = (m.from(), m.to());
    let piece = pos.piece_at(from)?;
    let (us, role) = (piece.side, piece.role);
    let file_mates = on_file_front_first(pos, us, role, from.file());
    let place = file_mates.iter().position(|&s| s == from).unwrap_or(0);
    let several_files = multi_tandem(pos, us, role);
    let which = if file_mates.len() >= 3 || (file_mates.len() >= 2 && several_files) {
        Which::Counted {
            place: place as u8 + 1,
            of: file_mates.len() as u8,
            file: own_file(us, from.file()),
            several_files,
        }
    } else {
        let twin_could_too = file_mates.len() == 2 && {
            let other = file_mates[1 - place];
            let rank = to.rank() as i32 + other.rank() as i32 - from.rank() as i32;
            (0..10).contains(&rank)
                && Square::from_coords(to.file(), rank as u8).is_some_and(|s| in_area(us, role, s))
        };
        if twin_could_too {
            Which::Tandem { front: place == 0 }
        } else {
            Which::File(own_file(us, from.file()))
        }
    };
    let direction = if from.rank() == to.rank() {
        Direction::Sideways
    } else if forward_steps(us, from, to) > 0 {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let number = if from.file() == to.file() {
        from.rank().abs_diff(to.rank())
    } else {
        own_file(us, to.file())
    };
    Some(Description {
        side: us,
        role,
        which,
        direction,
        number,
    })
}

/// Describes a move of `pos` as the traditional Chinese notation does: as [`describe`], but
/// two chariots, horses, cannons or soldiers on one file are always told apart by front and
/// rear (前车, 后马), whether or not the other could make the same-looking move. Advisors and
/// elephants keep their file: which way they go tells them apart.
pub(crate) fn describe_traditional(pos: &Position, m: Move) -> Option<Description> {
    let mut d = describe(pos, m)?;
    if matches!(d.which, Which::File(_))
        && matches!(
            d.role,
            Role::Chariot | Role::Horse | Role::Cannon | Role::Soldier
        )
    {
        let mates = on_file_front_first(pos, d.side, d.role, m.from().file());
        if mates.len() == 2 {
            d.which = Which::Tandem {
                front: mates[0] == m.from(),
            };
        }
    }
    Some(d)
}

/// A place among pieces of one kind on one file, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The front one (WXF `+` or `1`, Chinese 前).
    Front,
    /// The middle one of three (Chinese 中).
    Middle,
    /// The rear one (WXF `-`, Chinese 后).
    Rear,
    /// The n-th from the front, from 1 (WXF `2` in `25=6`, Chinese 二).
    Nth(u8),
}

impl Place {
    /// The piece this place names among `mates` (front first; at least two of them).
    fn pick(self, mates: &[Square]) -> Option<Square> {
        if mates.len() < 2 {
            return None;
        }
        match self {
            Place::Front => mates.first().copied(),
            Place::Rear => mates.last().copied(),
            Place::Middle => (mates.len() == 3).then(|| mates[1]),
            Place::Nth(n) => mates.get((n as usize).checked_sub(1)?).copied(),
        }
    }

    /// The place in words: `the front soldier`, `the soldier number 2 from the front`.
    fn words(self, role: &str) -> String {
        match self {
            Place::Front => format!("the front {role}"),
            Place::Middle => format!("the middle {role} of three"),
            Place::Rear => format!("the rear {role}"),
            Place::Nth(n) => format!("the {role} number {n} from the front"),
        }
    }

    /// How many pieces on the file this place needs.
    fn needs(self) -> usize {
        match self {
            Place::Front | Place::Rear => 2,
            Place::Middle => 3,
            Place::Nth(n) => (n as usize).max(2),
        }
    }
}

/// The piece a move's text names, as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// A piece of `role` on `file` (1–9 from the player's own right): `C2`, 炮二.
    OnFile {
        /// The piece's kind.
        role: Role,
        /// Its file.
        file: u8,
    },
    /// The piece of `role` at `place` on whichever file holds two or more of them: `R+`,
    /// 前车, 中兵, 二兵. `mark` is the character that names the place (for messages).
    Placed {
        /// The piece's kind.
        role: Role,
        /// Its place on its file.
        place: Place,
        /// The character written for the place.
        mark: char,
    },
    /// The piece at `place` on `file`, of whichever kind is counted there (three or more on
    /// the file, or two or more on each of two files; soldiers also when only two share the
    /// file): `15`, 前五, 二五.
    Counted {
        /// Its place on its file.
        place: Place,
        /// Its file, 1–9 from the player's own right.
        file: u8,
    },
}

/// How a notation spells the parts of a move that [`resolve`]'s messages mention.
pub(crate) struct Style {
    /// A file number (1–9, the player's own), as the notation writes it for `side`.
    pub file: fn(Side, u8) -> String,
    /// The sideways operator, quoted: `'='`, `'平'`.
    pub sideways: &'static str,
    /// The forward and backward operators: `+ or -`, `进 or 退`.
    pub along: &'static str,
    /// How the notation writes a legal move (to list the moves ambiguous text could mean).
    pub write: fn(&Position, Move) -> String,
}

/// The legal move of `pos` that `named`, `direction` and `number` describe; `text` is the
/// move as written (trimmed), for messages.
pub(crate) fn resolve(
    pos: &Position,
    text: &str,
    named: Named,
    direction: Direction,
    number: u8,
    style: &Style,
) -> Result<Move, MoveError> {
    let us = pos.turn();
    let who = side_name(us);
    let file_text = |n: u8| (style.file)(us, n);
    let candidates: Vec<Square> = match named {
        Named::OnFile { role, file } => {
            let found = on_file_front_first(pos, us, role, board_file(us, file));
            if found.is_empty() {
                return Err(MoveError::illegal(format!(
                    "there is no {who} {} on file {}",
                    role_name(role),
                    file_text(file)
                )));
            }
            found
        }
        Named::Placed { role, place, mark } => {
            let found: Vec<Square> = (0..9)
                .filter_map(|file| place.pick(&on_file_front_first(pos, us, role, file)))
                .collect();
            if found.is_empty() {
                let name = role_name(role);
                return Err(MoveError::illegal(match place {
                    Place::Front | Place::Rear => format!(
                        "'{mark}' names the {} {name} of two on one file, but no two {who} {name}s share a file: write the file instead",
                        if place == Place::Front { "front" } else { "rear" },
                    ),
                    _ => format!(
                        "'{mark}' names {}, but no file holds {} {who} {name}s",
                        place.words(name),
                        if place == Place::Middle {
                            "exactly three".to_string()
                        } else {
                            format!("{} or more", place.needs())
                        }
                    ),
                }));
            }
            found
        }
        Named::Counted { place, file } => {
            let board = board_file(us, file);
            let mut found = Vec::new();
            let mut any_counted = false;
            for role in Role::ALL {
                let mates = on_file_front_first(pos, us, role, board);
                if mates.len() >= 3 || (mates.len() >= 2 && multi_tandem(pos, us, role)) {
                    any_counted = true;
                    found.extend(place.pick(&mates));
                }
            }
            if !any_counted {
                // Not the canonical situation; still accept it for soldiers when it names one.
                found.extend(place.pick(&on_file_front_first(pos, us, Role::Soldier, board)));
            }
            if found.is_empty() {
                let n = on_file_front_first(pos, us, Role::Soldier, board).len();
                let has = if place == Place::Middle && n > 3 {
                    format!("{n} soldiers, not three")
                } else {
                    count_soldiers(n)
                };
                return Err(MoveError::illegal(format!(
                    "'{text}' names {} on file {}, but {who} has {has} there",
                    place.words("soldier"),
                    file_text(file)
                )));
            }
            found
        }
    };

    let mut legal = Vec::new();
    let mut reasons = Vec::new();
    for &from in &candidates {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        match destination(us, piece.role, from, direction, number, style) {
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
            "no {who} piece can play '{text}': {}",
            reasons.join("; ")
        ))),
        many => {
            let options: Vec<String> = many
                .iter()
                .map(|&m| format!("{} ({})", pos.to_pmn(m), (style.write)(pos, m)))
                .collect();
            Err(MoveError::illegal(format!(
                "'{text}' is ambiguous: it could be {}",
                options.join(" or ")
            )))
        }
    }
}

/// Where the piece of `role` on `from` lands for `direction` and `number`, or why it cannot.
fn destination(
    us: Side,
    role: Role,
    from: Square,
    direction: Direction,
    number: u8,
    style: &Style,
) -> Result<Square, String> {
    let name = role_name(role);
    let here = format!(
        "the {name} on {from} (file {})",
        (style.file)(us, own_file(us, from.file()))
    );
    let number_file = (style.file)(us, number);
    let ahead = |steps: i32| -> Option<u8> {
        let rank = from.rank() as i32 + steps * forward(us);
        (0..10).contains(&rank).then_some(rank as u8)
    };
    let way = if direction == Direction::Forward {
        "forward"
    } else {
        "backward"
    };
    let sign = if direction == Direction::Forward {
        1
    } else {
        -1
    };
    let target_file = board_file(us, number);
    match role {
        Role::General | Role::Chariot | Role::Cannon | Role::Soldier => {
            if direction == Direction::Sideways {
                if target_file == from.file() {
                    return Err(format!(
                        "{here} is already on file {number_file}: {} moves it sideways to another file",
                        style.sideways
                    ));
                }
                return Ok(Square::from_coords(target_file, from.rank()).expect("on the board"));
            }
            match ahead(sign * number as i32) {
                Some(rank) => Ok(Square::from_coords(from.file(), rank).expect("on the board")),
                None => {
                    let room = room(us, from, direction);
                    let side = if direction == Direction::Forward {
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
            if direction == Direction::Sideways {
                return Err(format!(
                    "{here} moves diagonally, never sideways: write {} and the file it lands on",
                    style.along
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
                        "{here} cannot land on file {number_file}: {name}s land {over} over"
                    ));
                }
            };
            match ahead(sign * ranks) {
                Some(rank) => Ok(Square::from_coords(target_file, rank).expect("on the board")),
                None => Err(format!(
                    "{here} cannot move {way} to file {number_file}: that is off the board"
                )),
            }
        }
    }
}

/// How many points lie between `from` and the board's edge in `direction`.
fn room(us: Side, from: Square, direction: Direction) -> u8 {
    let toward_top = (direction == Direction::Forward) == (us == Side::First);
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

/// The file number (1–9, from the player's own right) of a board file (0 = `a`).
fn own_file(us: Side, file: u8) -> u8 {
    match us {
        Side::First => 9 - file,
        Side::Second => file + 1,
    }
}

/// The board file (0 = `a`) of a file number 1–9.
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
