//! The Chinese move notation (中文纵线记谱): 炮二平五, 马8进7, 前车进一. It says what WXF says
//! (both are written from one description of the move), in Chinese words and numbers.
//!
//! A move is four characters: the piece and the file it stands on, an action and a number.
//!
//! - **Piece**: Red 帅 仕 相 马 车 炮 兵, Black 将 士 象 马 车 炮 卒 (general, advisor,
//!   elephant, horse, chariot, cannon, soldier).
//! - **Files** are numbered from each player's *own* right, as in WXF: Red writes them in
//!   Chinese numerals 一 to 九 (Red's file `a` is 九, its file `i` is 一), Black in Arabic
//!   digits 1 to 9 (Black's file `a` is 1). chuhe writes ASCII digits for Black, as most
//!   online sites do.
//! - **Action**: 进 forward (toward the opponent), 退 backward, 平 sideways.
//! - **Number**, in the mover's numerals: for a general, chariot, cannon or soldier moving
//!   along its file, the number of points moved; otherwise (平, and every advisor, elephant
//!   and horse move) the file it lands on.
//!
//! Two chariots, horses, cannons or soldiers on one file are told apart by 前 (the front one,
//! nearer the opponent) or 后 (the rear one), written before the piece in place of the file:
//! 前车进一, 后炮平五, 后车进四. As the traditional notation does (and unlike WXF, which writes
//! `R+` only when the other piece could make the same-looking move), this form is written
//! whenever the two share the file. Advisors and elephants sharing a file keep their file
//! (仕四进五, 仕四退五): which way they go tells them apart.
//!
//! Three or more pieces of one kind on one file (in practice soldiers), where WXF writes the
//! place and the file (`15+1`):
//!
//! - when that is the only file holding two or more of them, the place is written before
//!   the piece, the file left out: 前兵, 中兵, 后兵 for three; 一兵, 二兵, 三兵, 四兵 (and 五兵)
//!   from the front for four or five;
//! - when two or more files each hold two or more of them, the place replaces the piece and
//!   the file is written: 前五进一, 后五平四 for two on file 五, 前七 中七 后七 for three,
//!   二七 for the second of four. (WXF: `15+1`, `25=4`, …)
//!
//! The places are Chinese words and numerals for both sides (前卒, 二卒, 前5进1).
//!
//! No check or mate mark is written.
//!
//! Input accepts everything written above and also: the traditional and variant glyphs
//! (帥 將 傌 馬 俥 車 砲 包, and either side's glyph for the side to move: 車二進一 for Red),
//! 進 for 进 and 後 for 后, and for every file, number and place Chinese numerals, ASCII
//! digits or full-width digits (１–９) whichever side moves; surrounding spaces. A form that
//! is not the canonical one is accepted when it names exactly one legal move (兵五进一 with
//! two soldiers on file 五 of which only one can advance, 前兵 for 前五); otherwise the error
//! lists the moves it could mean.
//!
//! ```
//! use chuhe::xiangqi::{MoveNotation, Position};
//! use chuhe::GamePosition;
//! let pos = Position::start();
//! let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
//! assert_eq!(pos.move_to_text(m, MoveNotation::Chinese).unwrap(), "炮二平五");
//! assert_eq!(pos.move_to_text(m, MoveNotation::Wxf).unwrap(), "C2=5");
//! assert_eq!(pos.parse_move_as("砲二平五", MoveNotation::Chinese).unwrap(), m);
//! let after = pos.play(m).unwrap();
//! let reply = after.parse_move_as("马8进7", MoveNotation::Chinese).unwrap();
//! assert_eq!(reply.to_string(), "h10g8");
//! assert_eq!(after.parse_move_as("馬８進７", MoveNotation::Chinese).unwrap(), reply);
//! assert!(pos.parse_move_as("马八进六", MoveNotation::Chinese).is_err());
//! ```

use chuhe_notation::Side;

use super::described::{describe_traditional, resolve, Direction, Named, Place, Style, Which};
use super::position::Position;
use super::types::{Move, Role};
use crate::MoveError;

/// How the Chinese notation spells what [`resolve`]'s messages mention.
const CHINESE: Style = Style {
    file: number,
    sideways: "'平'",
    along: "进 or 退",
    write: to_chinese,
};

/// Chinese numerals, 1 to 10.
const NUMERALS: [char; 10] = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/// Writes a legal move of `pos` in the Chinese notation.
pub(crate) fn to_chinese(pos: &Position, m: Move) -> String {
    let Some(d) = describe_traditional(pos, m) else {
        // Not a move of this position: fall back to coordinates rather than panic.
        return m.to_string();
    };
    let mut out = String::with_capacity(12);
    match d.which {
        Which::File(file) => {
            out.push(glyph(d.side, d.role));
            out.push_str(&number(d.side, file));
        }
        Which::Tandem { front } => {
            out.push(if front { '前' } else { '后' });
            out.push(glyph(d.side, d.role));
        }
        Which::Counted {
            place,
            of,
            file,
            several_files,
        } => {
            out.push(place_word(place, of));
            if several_files {
                out.push_str(&number(d.side, file));
            } else {
                out.push(glyph(d.side, d.role));
            }
        }
    }
    out.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    out.push_str(&number(d.side, d.number));
    out
}

/// Reads a move in the Chinese notation (see the module documentation for the forms
/// accepted) as a legal move of `pos`.
pub(crate) fn parse_chinese(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if let Some(o) = pos.static_outcome() {
        return Err(MoveError::GameOver { outcome: o });
    }
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 4 {
        return Err(MoveError::syntax(
            text,
            "the Chinese notation has four characters: the piece and its file (or 前, 中 or 后 and the piece), 进, 退 or 平, and a number, like 炮二平五 or 马8进7",
        ));
    }
    let file_of = |c: char| -> Result<u8, MoveError> {
        numeral(c).ok_or_else(|| {
            MoveError::syntax(
                text,
                &format!(
                    "expected the file the piece stands on (一 to 九 for Red, 1 to 9 for Black), found '{c}'"
                ),
            )
        })
    };

    // The piece the first two characters name.
    let named = match (role_of_glyph(chars[0]), place_of(chars[0])) {
        (Some(role), _) => Named::OnFile {
            role,
            file: file_of(chars[1])?,
        },
        (None, Some(place)) => match role_of_glyph(chars[1]) {
            Some(role) => Named::Placed {
                role,
                place,
                mark: chars[0],
            },
            None => Named::Counted {
                place,
                file: numeral(chars[1]).ok_or_else(|| {
                    MoveError::syntax(
                        text,
                        &format!(
                            "expected a piece (车 马 炮 兵 …) or a file number after '{}', found '{}'",
                            chars[0], chars[1]
                        ),
                    )
                })?,
            },
        },
        (None, None) => {
            return Err(MoveError::syntax(
                text,
                &format!(
                    "'{}' is not a Chinese piece name (帅 仕 相 马 车 炮 兵, 将 士 象 卒, or the traditional 帥 將 傌 馬 俥 車 砲 包) nor a place (前 中 后, or 一 to 五)",
                    chars[0]
                ),
            ))
        }
    };
    let direction = match chars[2] {
        '进' | '進' => Direction::Forward,
        '退' => Direction::Backward,
        '平' => Direction::Sideways,
        c => {
            return Err(MoveError::syntax(
                text,
                &format!("'{c}' is not an action of the Chinese notation: 进 forward, 退 backward, 平 sideways"),
            ))
        }
    };
    let number = numeral(chars[3]).ok_or_else(|| {
        MoveError::syntax(
            text,
            &format!(
                "expected a number of points or a file number (一 to 九 for Red, 1 to 9 for Black), found '{}'",
                chars[3]
            ),
        )
    })?;
    resolve(pos, t, named, direction, number, &CHINESE)
}

/// The glyph chuhe writes for a piece: Red 帅仕相马车炮兵, Black 将士象马车炮卒.
fn glyph(side: Side, role: Role) -> char {
    let red = side == Side::First;
    match role {
        Role::General => {
            if red {
                '帅'
            } else {
                '将'
            }
        }
        Role::Advisor => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        Role::Elephant => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        Role::Horse => '马',
        Role::Chariot => '车',
        Role::Cannon => '炮',
        Role::Soldier => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

/// The role of a glyph, simplified, traditional or variant, of either side.
fn role_of_glyph(c: char) -> Option<Role> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Role::General,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '马' | '馬' | '傌' => Role::Horse,
        '车' | '車' | '俥' | '伡' => Role::Chariot,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Soldier,
        _ => return None,
    })
}

/// A number 1–9 as `side` writes it: Red in Chinese numerals, Black in ASCII digits.
fn number(side: Side, n: u8) -> String {
    match side {
        Side::First => NUMERALS
            .get((n as usize).wrapping_sub(1))
            .map_or_else(|| n.to_string(), char::to_string),
        Side::Second => n.to_string(),
    }
}

/// A number 1–9 in Chinese numerals, ASCII or full-width digits.
fn numeral(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        _ => NUMERALS[..9]
            .iter()
            .position(|&x| x == c)
            .map(|i| i as u8 + 1),
    }
}

/// A place among pieces on one file, as read: 前 中 后 (後), or a number from the front.
fn place_of(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '中' => Some(Place::Middle),
        '后' | '後' => Some(Place::Rear),
        _ => numeral(c).map(Place::Nth),
    }
}

/// How the place `place` (from 1, the front) of `of` pieces on a file is written: 前 and 后
/// for two, 前 中 后 for three, numerals from the front for more.
fn place_word(place: u8, of: u8) -> char {
    match (place, of) {
        (1, 2 | 3) => '前',
        (2, 3) => '中',
        (p, o) if p == o && o <= 3 => '后',
        (p, _) => NUMERALS
            .get((p as usize).wrapping_sub(1))
            .copied()
            .unwrap_or('十'),
    }
}
