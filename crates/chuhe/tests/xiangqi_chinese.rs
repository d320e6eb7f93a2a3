//! The Chinese move notation for Xiangqi (炮二平五, 马8进7, 前车进一): the classic examples,
//! the forms for pieces sharing a file, lenient input, typed errors, and, on random games,
//! that it reads back and says exactly what WXF says.

use chuhe::xiangqi::{Move, MoveNotation, Position, Role, RuleSet, Square, START_FEN};
use chuhe::{GamePosition, MoveError, Side};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const START_BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, RuleSet::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(p: &Position, text: &str) -> Move {
    p.parse_move_as(text, MoveNotation::Uci)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Each `(uci, chinese, wxf)`: the move is written as `chinese` (and `wxf`), and `chinese`
/// reads back as the move.
fn check(fen: &str, table: &[(&str, &str, &str)]) {
    let p = pos(fen);
    for &(coords, chinese, wxf) in table {
        let m = uci(&p, coords);
        assert_eq!(
            p.move_to_text(m, MoveNotation::Chinese).unwrap(),
            chinese,
            "{fen}: {coords} written"
        );
        assert_eq!(
            p.move_to_text(m, MoveNotation::Wxf).unwrap(),
            wxf,
            "{fen}: {coords} in WXF"
        );
        assert_eq!(
            p.parse_move_as(chinese, MoveNotation::Chinese),
            Ok(m),
            "{fen}: {chinese} read"
        );
    }
}

/// Reads `text` and returns the move in UCI coordinates.
fn read(fen: &str, text: &str) -> Result<String, MoveError> {
    pos(fen)
        .parse_move_as(text, MoveNotation::Chinese)
        .map(|m| m.to_string())
}

/// The error message for `text`.
fn error(fen: &str, text: &str) -> String {
    match read(fen, text) {
        Ok(m) => panic!("{fen}: '{text}' was read as {m}"),
        Err(e) => e.to_string(),
    }
}

// ----- the classic moves ---------------------------------------------------------------------

#[test]
fn an_opening_played_in_chinese() {
    let mut p = Position::start();
    for (coords, chinese, wxf) in [
        ("h3e3", "炮二平五", "C2=5"),
        ("h10g8", "马8进7", "H8+7"),
        ("h1g3", "马二进三", "H2+3"),
        ("i10h10", "车9平8", "R9=8"),
        ("i1h1", "车一平二", "R1=2"),
        ("c7c6", "卒3进1", "P3+1"),
        ("c4c5", "兵七进一", "P7+1"),
        ("g10e8", "象7进5", "E7+5"),
        ("g1i3", "相三进一", "E3+1"),
        ("f10e9", "士6进5", "A6+5"),
        ("f1e2", "仕四进五", "A4+5"),
        ("b8b4", "炮2进4", "C2+4"),
        ("h1h7", "车二进六", "R2+6"),
        ("h10h9", "车8进1", "R8+1"),
        ("h7h8", "车二进一", "R2+1"),
        ("h9h8", "车8进1", "R8+1"),
        ("e3e7", "炮五进四", "C5+4"),
        ("h8h10", "车8退2", "R8-2"),
    ] {
        let m = uci(&p, coords);
        assert_eq!(p.move_to_text(m, MoveNotation::Chinese).unwrap(), chinese);
        assert_eq!(p.move_to_text(m, MoveNotation::Wxf).unwrap(), wxf);
        assert_eq!(p.parse_move_as(chinese, MoveNotation::Chinese), Ok(m));
        p = p.play(m).unwrap();
    }
}

#[test]
fn every_first_move_for_both_sides() {
    check(
        START_FEN,
        &[
            ("h3e3", "炮二平五", "C2=5"),
            ("b3e3", "炮八平五", "C8=5"),
            ("h1g3", "马二进三", "H2+3"),
            ("b1c3", "马八进七", "H8+7"),
            ("a1a2", "车九进一", "R9+1"),
            ("i1i3", "车一进二", "R1+2"),
            ("c1e3", "相七进五", "E7+5"),
            ("g1e3", "相三进五", "E3+5"),
            ("d1e2", "仕六进五", "A6+5"),
            ("e1e2", "帅五进一", "K5+1"),
            ("a4a5", "兵九进一", "P9+1"),
            ("g4g5", "兵三进一", "P3+1"),
            ("h3h10", "炮二进七", "C2+7"),
        ],
    );
    check(
        START_BLACK,
        &[
            ("h8e8", "炮8平5", "C8=5"),
            ("b8e8", "炮2平5", "C2=5"),
            ("b10c8", "马2进3", "H2+3"),
            ("h10g8", "马8进7", "H8+7"),
            ("a10a9", "车1进1", "R1+1"),
            ("c10e8", "象3进5", "E3+5"),
            ("d10e9", "士4进5", "A4+5"),
            ("e10e9", "将5进1", "K5+1"),
            ("a7a6", "卒1进1", "P1+1"),
            ("b8b1", "炮2进7", "C2+7"),
        ],
    );
}

#[test]
fn the_general_backward_and_sideways() {
    check(
        "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1",
        &[
            ("e2e1", "帅五退一", "K5-1"),
            ("e2e3", "帅五进一", "K5+1"),
            ("e2f2", "帅五平四", "K5=4"),
        ],
    );
    check(
        "9/4k4/9/9/9/9/9/9/9/3K4R b - - 0 1",
        &[
            ("e9e10", "将5退1", "K5-1"),
            ("e9e8", "将5进1", "K5+1"),
            ("e9f9", "将5平6", "K5=6"),
        ],
    );
}

// ----- pieces sharing a file -----------------------------------------------------------------

#[test]
fn front_and_rear_chariots_and_cannons() {
    check(
        "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1",
        &[
            ("c6c7", "前车进一", "R++1"),
            ("c6a6", "前车平九", "R+=9"),
            ("c6c5", "前车退一", "R+-1"),
            ("c3c5", "后车进二", "R-+2"),
            ("c3a3", "后车平九", "R-=9"),
            ("c3c1", "后车退二", "R--2"),
        ],
    );
    // Black's front chariot is the one nearer rank 1.
    check(
        "3k5/9/9/9/2r6/9/9/2r6/9/4K4 b - - 0 1",
        &[
            ("c6c7", "后车退1", "R--1"),
            ("c6a6", "后车平1", "R-=1"),
            ("c3c2", "前车进1", "R++1"),
            ("c3a3", "前车平1", "R+=1"),
        ],
    );
    check(
        "3k5/9/9/9/7C1/9/9/7C1/9/4K4 w - - 0 1",
        &[
            ("h3e3", "后炮平五", "C-=5"),
            ("h6e6", "前炮平五", "C+=5"),
            ("h6h10", "前炮进四", "C++4"),
            ("h3h1", "后炮退二", "C--2"),
        ],
    );
    // The rear of chariots on c1 and c9 going to c5: the twin could not, so WXF writes the
    // file; the traditional Chinese notation names front and rear whenever two share a file.
    check(
        "3k5/2R6/9/9/9/9/9/9/9/2R1K4 w - - 0 1",
        &[
            ("c1c5", "后车进四", "R7+4"),
            ("c9c5", "前车退四", "R7-4"),
            ("c9c10", "前车进一", "R++1"),
        ],
    );
    // Chariots on a1 and a10, the front one going back eight points: 前车退八, not 车九退八.
    check(
        "R8/5k3/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        &[("a10a2", "前车退八", "R9-8"), ("a1a2", "后车进一", "R9+1")],
    );
    // The file form is still read when it names one move.
    assert_eq!(
        read("R8/5k3/9/9/9/9/9/9/9/R3K4 w - - 0 1", "车九退八").unwrap(),
        "a10a2"
    );
    // Horses.
    check(
        "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1",
        &[("c3d5", "后马进六", "H-+6"), ("c5e4", "前马退五", "H+-5")],
    );
}

#[test]
fn advisors_and_elephants_sharing_a_file_keep_the_file() {
    check(
        "3k5/9/9/9/9/9/9/3A5/9/3AK3R w - - 0 1",
        &[("d1e2", "仕六进五", "A6+5"), ("d3e2", "仕六退五", "A6-5")],
    );
    check(
        "3a1k2r/9/3a5/9/9/9/9/9/9/4K4 b - - 0 1",
        &[("d10e9", "士4进5", "A4+5"), ("d8e9", "士4退5", "A4-5")],
    );
    check(
        "3k5/9/9/9/9/2B6/9/9/9/2B1K3R w - - 0 1",
        &[("c1e3", "相七进五", "E7+5"), ("c5e3", "相七退五", "E7-5")],
    );
}

#[test]
fn two_soldiers_on_a_file() {
    check(
        "3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e7e8", "前兵进一", "P++1"),
            ("e7d7", "前兵平六", "P+=6"),
            ("e6d6", "后兵平六", "P-=6"),
            ("e6f6", "后兵平四", "P-=4"),
        ],
    );
}

#[test]
fn three_soldiers_on_a_file_are_front_middle_and_rear() {
    check(
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e8e9", "前兵进一", "15+1"),
            ("e8d8", "前兵平六", "15=6"),
            ("e7d7", "中兵平六", "25=6"),
            ("e7f7", "中兵平四", "25=4"),
            ("e6d6", "后兵平六", "35=6"),
            ("e6f6", "后兵平四", "35=4"),
        ],
    );
    check(
        "5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1",
        &[
            ("e3e2", "前卒进1", "15+1"),
            ("e3d3", "前卒平4", "15=4"),
            ("e4d4", "中卒平4", "25=4"),
            ("e5f5", "后卒平6", "35=6"),
        ],
    );
}

#[test]
fn four_soldiers_on_a_file_are_numbered_from_the_front() {
    check(
        "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e9e10", "一兵进一", "15+1"),
            ("e9d9", "一兵平六", "15=6"),
            ("e8d8", "二兵平六", "25=6"),
            ("e7f7", "三兵平四", "35=4"),
            ("e6d6", "四兵平六", "45=6"),
        ],
    );
}

#[test]
fn two_files_with_two_soldiers_write_the_place_and_the_file() {
    check(
        "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e7e8", "前五进一", "15+1"),
            ("e7d7", "前五平六", "15=6"),
            ("e6d6", "后五平六", "25=6"),
            ("c7c8", "前七进一", "17+1"),
            ("c6b6", "后七平八", "27=8"),
            ("g6g7", "兵三进一", "P3+1"),
        ],
    );
    check(
        "5k3/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b - - 0 1",
        &[
            ("e4e3", "前5进1", "15+1"),
            ("e5d5", "后5平4", "25=4"),
            ("c4c3", "前3进1", "13+1"),
            ("c5b5", "后3平2", "23=2"),
        ],
    );
    // Three on one file and two on another.
    check(
        "4k4/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b - - 0 1",
        &[
            ("e3e2", "前5进1", "15+1"),
            ("e4d4", "中5平4", "25=4"),
            ("e5f5", "后5平6", "35=6"),
            ("c5b5", "后3平2", "23=2"),
            ("c4c3", "前3进1", "13+1"),
        ],
    );
    // Fairy-Stockfish's test position: soldiers on d8, d7 (file 六) and f7, f6 (file 四).
    check(
        "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
        &[
            ("d8d9", "前六进一", "16+1"),
            ("d7e7", "后六平五", "26=5"),
            ("f7g7", "前四平三", "14=3"),
            ("f6e6", "后四平五", "24=5"),
            ("h7h8", "兵二进一", "P2+1"),
        ],
    );
}

// ----- input forms ---------------------------------------------------------------------------

#[test]
fn input_accepts_traditional_glyphs_and_every_kind_of_digit() {
    for text in [
        "炮二平五",
        "砲二平五",
        "包二平五",
        "炮2平5",
        "炮２平５",
        " 炮二平五 ",
    ] {
        assert_eq!(read(START_FEN, text).unwrap(), "h3e3", "{text}");
    }
    assert_eq!(read(START_FEN, "傌八進七").unwrap(), "b1c3");
    assert_eq!(read(START_FEN, "馬八进七").unwrap(), "b1c3");
    assert_eq!(read(START_FEN, "俥九進一").unwrap(), "a1a2");
    assert_eq!(read(START_FEN, "車九进一").unwrap(), "a1a2");
    assert_eq!(read(START_FEN, "帥五進一").unwrap(), "e1e2");
    assert_eq!(read(START_FEN, "將五進一").unwrap(), "e1e2");
    assert_eq!(read(START_FEN, "卒七进一").unwrap(), "c4c5");
    assert_eq!(read(START_FEN, "士四进五").unwrap(), "f1e2");
    assert_eq!(read(START_FEN, "象三进五").unwrap(), "g1e3");
    for text in ["马8进7", "馬８進７", "傌8进7", "马八进七", "馬8進7"] {
        assert_eq!(read(START_BLACK, text).unwrap(), "h10g8", "{text}");
    }
    assert_eq!(read(START_BLACK, "砲8平5").unwrap(), "h8e8");
    assert_eq!(read(START_BLACK, "兵3进1").unwrap(), "c7c6");
    assert_eq!(read(START_BLACK, "帅5进1").unwrap(), "e10e9");
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    assert_eq!(read(chariots, "後車進二").unwrap(), "c3c5");
    assert_eq!(read(chariots, "前俥平九").unwrap(), "c6a6");
}

#[test]
fn non_canonical_forms_are_read_when_they_name_one_move() {
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    // The file where the twin cannot make the move.
    assert_eq!(read(chariots, "车七进四").unwrap(), "c6c10");
    let three = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
    // Only the front soldier can advance.
    assert_eq!(read(three, "兵五进一").unwrap(), "e8e9");
    // The place and the file (the form for soldiers on two files), and numbers for three.
    assert_eq!(read(three, "前五平六").unwrap(), "e8d8");
    assert_eq!(read(three, "中五平六").unwrap(), "e7d7");
    assert_eq!(read(three, "三兵平四").unwrap(), "e6f6");
    assert_eq!(read(three, "二兵平四").unwrap(), "e7f7");
    // The place before the piece on two files, when only one of them can do it.
    let two_files = "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(read(two_files, "后兵平八").unwrap(), "c6b6");
    // Numbers for the places, in digits for Red too.
    assert_eq!(read(two_files, "1五进一").unwrap(), "e7e8");
}

// ----- errors --------------------------------------------------------------------------------

#[test]
fn bad_text_is_a_syntax_error_that_says_what_is_wrong() {
    for (text, part) in [
        ("王二平五", "'王' is not a Chinese piece name"),
        ("C2=5", "'C' is not a Chinese piece name"),
        ("炮二走五", "'走' is not an action of the Chinese notation"),
        ("炮零平五", "expected the file the piece stands on"),
        ("炮二平十", "expected a number of points or a file number"),
        ("炮二平0", "expected a number of points or a file number"),
        (
            "前后进一",
            "expected a piece (车 马 炮 兵 …) or a file number after '前'",
        ),
        ("炮二平", "four characters"),
        ("炮二平五五", "four characters"),
        ("", "four characters"),
    ] {
        let e = pos(START_FEN).parse_move_as(text, MoveNotation::Chinese);
        assert!(
            matches!(e, Err(MoveError::Syntax { .. })),
            "{text}: {e:?} should be a syntax error"
        );
        let msg = e.unwrap_err().to_string();
        assert!(msg.contains(part), "{text}: {msg}");
    }
}

#[test]
fn a_missing_piece_is_named_in_the_notation_s_numbers() {
    assert_eq!(
        error(START_FEN, "马五进三"),
        "there is no Red horse on file 五"
    );
    assert_eq!(
        error(START_BLACK, "车5进1"),
        "there is no Black chariot on file 5"
    );
    assert_eq!(
        error(START_FEN, "前车进一"),
        "'前' names the front chariot of two on one file, but no two Red chariots share a file: write the file instead"
    );
    assert_eq!(
        error(START_FEN, "中兵进一"),
        "'中' names the middle soldier of three, but no file holds exactly three Red soldiers"
    );
    let msg = error("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1", "四五进一");
    assert!(msg.contains("Red has only 3 soldiers there"), "{msg}");
    let msg = error(START_FEN, "前五进一");
    assert!(msg.contains("only one soldier"), "{msg}");
}

#[test]
fn impossible_moves_say_why() {
    assert_eq!(
        error(START_FEN, "车九退一"),
        "the chariot on a1 (file 九) cannot move 1 point backward: there is no point behind it"
    );
    assert_eq!(
        error(START_FEN, "马八进五"),
        "the horse on b1 (file 八) cannot land on file 五: horses land one or two files over"
    );
    assert_eq!(
        error(START_FEN, "相七平五"),
        "the elephant on c1 (file 七) moves diagonally, never sideways: write 进 or 退 and the file it lands on"
    );
    let msg = error(START_FEN, "炮二平二");
    assert!(
        msg.contains("already on file 二: '平' moves it sideways"),
        "{msg}"
    );
    let msg = error(START_FEN, "车九进四");
    assert!(msg.contains("cannot go to a5"), "{msg}");
    let msg = error("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "兵五平四");
    assert!(msg.contains("check or face the other general"), "{msg}");
    // Every error here is typed: Illegal, not Syntax.
    let e = pos(START_FEN).parse_move_as("马五进三", MoveNotation::Chinese);
    assert!(matches!(e, Err(MoveError::Illegal { .. })), "{e:?}");
}

#[test]
fn ambiguous_text_lists_the_moves_in_chinese() {
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    assert_eq!(
        error(chariots, "车七进一"),
        "'车七进一' is ambiguous: it could be c6-c7 (前车进一) or c3-c4 (后车进一)"
    );
    let msg = error("3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1", "前兵进一");
    assert!(
        msg.contains("(前五进一)") && msg.contains("(前七进一)"),
        "{msg}"
    );
}

#[test]
fn a_finished_game_takes_no_move() {
    let e = pos("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1")
        .parse_move_as("仕六进五", MoveNotation::Chinese);
    assert!(matches!(e, Err(MoveError::GameOver { .. })), "{e:?}");
}

// ----- the same information as WXF, on random games ----------------------------------------

/// Chinese numerals for Red, ASCII digits for Black (the written convention).
fn number(side: Side, c: char) -> u8 {
    let n = match side {
        Side::First => "一二三四五六七八九".chars().position(|x| x == c),
        Side::Second => "123456789".chars().position(|x| x == c),
    };
    n.unwrap_or_else(|| panic!("'{c}' is not a number {side:?} writes")) as u8 + 1
}

/// The WXF letter of a glyph, checking that the side's own glyph was written.
fn letter(side: Side, c: char) -> Option<char> {
    let (glyphs, letters) = match side {
        Side::First => ("帅仕相马车炮兵", "KAEHRCP"),
        Side::Second => ("将士象马车炮卒", "KAEHRCP"),
    };
    let i = glyphs.chars().position(|x| x == c)?;
    letters.chars().nth(i)
}

/// `side`'s soldiers on each file, by the file's own number (index 1–9).
fn soldiers_per_file(p: &Position, side: Side) -> [u8; 10] {
    let mut count = [0; 10];
    for file in 0..9u8 {
        for rank in 0..10 {
            let sq = Square::from_coords(file, rank).unwrap();
            if p.piece_at(sq)
                .is_some_and(|q| q.side == side && q.role == Role::Soldier)
            {
                let own = if side == Side::First {
                    9 - file
                } else {
                    file + 1
                };
                count[own as usize] += 1;
            }
        }
    }
    count
}

/// The WXF of a move written in Chinese, translated character by character (the position
/// only tells the place of 后 and the file a soldier's place leaves out).
fn chinese_to_wxf(p: &Position, text: &str) -> String {
    let us = p.turn();
    let c: Vec<char> = text.chars().collect();
    assert_eq!(c.len(), 4, "{text}");
    let soldiers = soldiers_per_file(p, us);
    let place = |word: char, of: u8| -> u8 {
        match word {
            '前' => 1,
            '中' => 2,
            '后' => of,
            _ => {
                "一二三四五六七八九"
                    .chars()
                    .position(|x| x == word)
                    .unwrap() as u8
                    + 1
            }
        }
    };
    let head = match (letter(us, c[0]), letter(us, c[1])) {
        (Some(l), None) => format!("{l}{}", number(us, c[1])),
        (None, Some('P')) if soldiers.iter().any(|&n| n >= 3) => {
            // The only file with two or more soldiers; the place before the piece.
            let file = soldiers.iter().position(|&n| n >= 2).unwrap() as u8;
            format!("{}{file}", place(c[0], soldiers[file as usize]))
        }
        (None, Some(l)) => match c[0] {
            '前' => format!("{l}+"),
            '后' => format!("{l}-"),
            other => panic!("{text}: '{other}' before a piece"),
        },
        (None, None) => {
            let file = number(us, c[1]);
            format!("{}{file}", place(c[0], soldiers[file as usize]))
        }
        (Some(_), Some(_)) => panic!("{text}: two pieces"),
    };
    let op = match c[2] {
        '进' => '+',
        '退' => '-',
        '平' => '=',
        other => panic!("{text}: '{other}'"),
    };
    format!("{head}{op}{}", number(us, c[3]))
}

/// The WXF of a move with the one documented difference of the Chinese notation: where two
/// chariots, horses, cannons or soldiers share a file and WXF writes the file (`R7+4`: the
/// other could not make the same-looking move), the Chinese names front or rear (`R-+4`).
fn tandem_wxf(p: &Position, m: Move, wxf: &str) -> String {
    let w: Vec<char> = wxf.chars().collect();
    let piece = p.piece_at(m.from()).unwrap();
    let shares_with_one = |role: Role| {
        let on_file: Vec<u8> = (0..10)
            .filter(|&rank| {
                p.piece_at(Square::from_coords(m.from().file(), rank).unwrap())
                    .is_some_and(|q| q.side == piece.side && q.role == role)
            })
            .collect();
        (on_file.len() == 2).then_some(on_file)
    };
    let file_form = "RHCP".contains(w[0]) && w[1].is_ascii_digit();
    let several_files = soldiers_per_file(p, piece.side)
        .iter()
        .filter(|&&n| n >= 2)
        .count()
        >= 2;
    match shares_with_one(piece.role) {
        Some(ranks) if file_form && !(piece.role == Role::Soldier && several_files) => {
            let other = if ranks[0] == m.from().rank() {
                ranks[1]
            } else {
                ranks[0]
            };
            let front = (other < m.from().rank()) == (piece.side == Side::First);
            let mark = if front { '+' } else { '-' };
            format!("{}{mark}{}", w[0], w[2..].iter().collect::<String>())
        }
        _ => wxf.to_string(),
    }
}

/// Writes every legal move of `p` in Chinese: it reads back, no two moves share a text, and
/// it translates to the WXF of the move. Returns the number of moves and of counted forms.
fn check_all(p: &Position) -> (usize, usize) {
    let moves = p.legal_moves();
    let mut seen = std::collections::HashSet::new();
    let mut counted = 0;
    for &m in moves.iter() {
        let text = p.move_to_text(m, MoveNotation::Chinese).unwrap();
        let wxf = p.move_to_text(m, MoveNotation::Wxf).unwrap();
        assert!(seen.insert(text.clone()), "{}: '{text}' twice", p.to_fen());
        assert_eq!(
            p.parse_move_as(&text, MoveNotation::Chinese),
            Ok(m),
            "{}: {m} written '{text}'",
            p.to_fen()
        );
        assert_eq!(
            chinese_to_wxf(p, &text),
            tandem_wxf(p, m, &wxf),
            "{}: {m} written '{text}'",
            p.to_fen()
        );
        counted += usize::from(wxf.starts_with(|c: char| c.is_ascii_digit()));
    }
    (moves.len(), counted)
}

/// Seeded random games from the start, `plies` at most; with `soldiers`, quiet soldier moves
/// are preferred so that soldiers pile up on files. Returns positions, moves and counted forms.
fn random_games(seeds: std::ops::Range<u64>, plies: usize, soldiers: bool) -> [usize; 3] {
    let mut totals = [0; 3];
    for seed in seeds {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut p = Position::start();
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            let (moves_checked, counted) = check_all(&p);
            totals[0] += 1;
            totals[1] += moves_checked;
            totals[2] += counted;
            let moves = p.legal_moves();
            let quiet_soldier: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    p.piece_at(m.from()).map(|q| q.role) == Some(Role::Soldier) && !p.is_capture(m)
                })
                .collect();
            let m = if soldiers && !quiet_soldier.is_empty() && rng.gen_bool(0.6) {
                quiet_soldier[rng.gen_range(0..quiet_soldier.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            p.play_unchecked(m);
        }
    }
    totals
}

#[test]
fn random_games_read_back_and_say_what_wxf_says() {
    let [positions, moves, counted] = random_games(0..200, 150, false);
    eprintln!("{positions} positions, {moves} moves, {counted} counted forms");
    assert!(positions >= 10_000, "{positions}");
    assert!(moves > 200_000, "{moves}");
}

#[test]
fn random_games_with_soldiers_piling_up_read_back_and_say_what_wxf_says() {
    let [positions, moves, counted] = random_games(1000..1100, 150, true);
    eprintln!("{positions} positions, {moves} moves, {counted} counted forms");
    assert!(positions >= 5_000, "{positions}");
    assert!(counted > 100, "{counted}");
}

#[test]
fn the_crafted_positions_say_what_wxf_says_too() {
    for fen in [
        START_FEN,
        START_BLACK,
        "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1",
        "3k5/9/9/9/2r6/9/9/2r6/9/4K4 b - - 0 1",
        "3k5/2R6/9/9/9/9/9/9/9/2R1K4 w - - 0 1",
        "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1",
        "3k5/9/9/9/7C1/9/9/7C1/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/3A5/9/3AK3R w - - 0 1",
        "3k5/9/9/9/9/2B6/9/9/9/2B1K3R w - - 0 1",
        "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1",
        "4k4/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b - - 0 1",
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
    ] {
        assert!(check_all(&pos(fen)).0 > 0, "{fen}");
    }
}

// ----- never a panic -----------------------------------------------------------------------

/// Text made of the characters of the Chinese notation, and a few others.
fn chinese_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            proptest::sample::select(
                "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒王"
                    .chars()
                    .collect::<Vec<_>>()
            ),
            proptest::sample::select("前中后後进進退平".chars().collect::<Vec<_>>()),
            proptest::sample::select(
                "一二三四五六七八九十〇零0159１５９"
                    .chars()
                    .collect::<Vec<_>>()
            ),
            proptest::sample::select(vec![' ', '+', '=', 'C', 'é', '\u{3000}', '\u{0}']),
        ],
        0..7,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, .. ProptestConfig::default() })]

    #[test]
    fn the_chinese_reader_never_panics(text in prop_oneof![chinese_text(), any::<String>()]) {
        for fen in [
            START_FEN,
            START_BLACK,
            "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1",
            "4k4/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b - - 0 1",
            "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
            "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1",
        ] {
            let p = pos(fen);
            match p.parse_move_as(&text, MoveNotation::Chinese) {
                // What is read is legal, and is written back as one of the legal moves.
                Ok(m) => prop_assert!(p.legal_moves().contains(&m)),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
}
