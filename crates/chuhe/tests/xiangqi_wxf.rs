//! WXF notation for Xiangqi (`shared/docs/xiangqi-rules.md`, Notations: WXF).
//!
//! Every expected string below was checked against pyffish 0.0.90:
//! `pyffish.get_san('xiangqi', fen, uci, False, pyffish.NOTATION_XIANGQI_WXF)`.

use chuhe::xiangqi::{Move, MoveNotation, Position, Role, RuleSet, START_FEN};
use chuhe::GamePosition;
use chuhe::MoveError;
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

/// Each `(uci, wxf)` pair: the move is written as `wxf` and `wxf` reads back as the move.
fn check(fen: &str, table: &[(&str, &str)]) {
    let p = pos(fen);
    for &(coords, wxf) in table {
        let m = uci(&p, coords);
        assert_eq!(
            p.move_to_text(m, MoveNotation::Wxf).unwrap(),
            wxf,
            "{fen}: {coords} written"
        );
        assert_eq!(
            p.parse_move_as(wxf, MoveNotation::Wxf),
            Ok(m),
            "{fen}: {wxf} read"
        );
    }
}

/// Reads `text` and returns the move in UCI coordinates.
fn read(fen: &str, text: &str) -> Result<String, MoveError> {
    pos(fen)
        .parse_move_as(text, MoveNotation::Wxf)
        .map(|m| m.to_string())
}

/// The error message for `text`.
fn error(fen: &str, text: &str) -> String {
    match read(fen, text) {
        Ok(m) => panic!("{fen}: '{text}' was read as {m}"),
        Err(e) => e.to_string(),
    }
}

// ----- writing and reading the ordinary forms ----------------------------------------------

#[test]
fn classic_openings_for_red() {
    check(
        START_FEN,
        &[
            ("h3e3", "C2=5"),
            ("b3e3", "C8=5"),
            ("h1g3", "H2+3"),
            ("b1c3", "H8+7"),
            ("a1a2", "R9+1"),
            ("i1i3", "R1+2"),
            ("c1e3", "E7+5"),
            ("g1e3", "E3+5"),
            ("d1e2", "A6+5"),
            ("e1e2", "K5+1"),
            ("a4a5", "P9+1"),
            ("g4g5", "P3+1"),
            ("h3h10", "C2+7"),
        ],
    );
}

#[test]
fn black_counts_files_from_its_own_right() {
    check(
        START_BLACK,
        &[
            ("h8e8", "C8=5"),
            ("b8e8", "C2=5"),
            ("b10c8", "H2+3"),
            ("h10g8", "H8+7"),
            ("a10a9", "R1+1"),
            ("c10e8", "E3+5"),
            ("d10e9", "A4+5"),
            ("e10e9", "K5+1"),
            ("a7a6", "P1+1"),
            ("b8b1", "C2+7"),
        ],
    );
    // After 1. C2=5 the classic reply is the "same-direction cannons", C8=5 for Black.
    let after_central_cannon =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    check(after_central_cannon, &[("h8e8", "C8=5"), ("b10c8", "H2+3")]);
}

#[test]
fn backward_moves_and_the_general() {
    // Red: K e2; chariot a1.
    check(
        "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1",
        &[("e2e1", "K5-1"), ("e2e3", "K5+1"), ("e2f2", "K5=4")],
    );
    // Black: k e9, backward is toward rank 10.
    check(
        "9/4k4/9/9/9/9/9/9/9/3K4R b - - 0 1",
        &[("e9e10", "K5-1"), ("e9e8", "K5+1"), ("e9f9", "K5=6")],
    );
}

// ----- tandem pieces -------------------------------------------------------------------------

#[test]
fn tandem_chariots_use_plus_and_minus_for_front_and_rear() {
    // Red chariots on c6 and c3 (file 7).
    check(
        "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1",
        &[
            ("c6c7", "R++1"),
            ("c6c10", "R++4"),
            ("c6a6", "R+=9"),
            ("c6c5", "R+-1"),
            ("c3c2", "R--1"),
            ("c3c5", "R-+2"),
            ("c3a3", "R-=9"),
            ("c3c1", "R--2"),
        ],
    );
    // Black chariots on c6 and c3: the front one is the one nearer rank 1.
    check(
        "3k5/9/9/9/2r6/9/9/2r6/9/4K4 b - - 0 1",
        &[
            ("c6c7", "R--1"),
            ("c6a6", "R-=1"),
            ("c6c5", "R-+1"),
            ("c3c2", "R++1"),
            ("c3c5", "R+-2"),
            ("c3a3", "R+=1"),
            ("c3c1", "R++2"),
            ("c6c10", "R--4"),
        ],
    );
}

#[test]
fn tandem_form_only_when_the_twin_could_make_the_same_move() {
    // Red chariots on c1 and c9: c1-c5 would take the twin off the board (c13), so the file
    // is written; c9-c10 could be mirrored by c1-c2, so it is R++1.
    check(
        "3k5/2R6/9/9/9/9/9/9/9/2R1K4 w - - 0 1",
        &[
            ("c1c5", "R7+4"),
            ("c9c5", "R7-4"),
            ("c9c10", "R++1"),
            ("c1a1", "R-=9"),
            ("c1c2", "R-+1"),
        ],
    );
    // Horses on c1 and c9.
    check(
        "3k5/2N6/9/9/9/9/9/9/9/2N1K4 w - - 0 1",
        &[
            ("c1d3", "H7+6"),
            ("c1b3", "H7+8"),
            ("c1e2", "H-+5"),
            ("c9d7", "H7-6"),
            ("c9b7", "H7-8"),
            ("c9e10", "H++5"),
            ("c9a10", "H++9"),
            ("c9e8", "H7-5"),
            ("c9a8", "H7-9"),
        ],
    );
}

#[test]
fn tandem_horses() {
    // Red horses on c3 and c5.
    check(
        "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1",
        &[
            ("c3d5", "H-+6"),
            ("c3b5", "H-+8"),
            ("c3e4", "H-+5"),
            ("c3e2", "H--5"),
            ("c3a4", "H-+9"),
            ("c3d1", "H--6"),
            ("c3b1", "H--8"),
            ("c5d7", "H++6"),
            ("c5e6", "H++5"),
            ("c5e4", "H+-5"),
            ("c5d3", "H+-6"),
            ("c5b3", "H+-8"),
            ("c5b7", "H++8"),
            ("c5a6", "H++9"),
            ("c5a4", "H+-9"),
        ],
    );
    // Black horses on c3 and c5: c3 is Black's front horse.
    check(
        "3k5/9/9/9/9/2n6/9/2n6/9/4K4 b - - 0 1",
        &[
            ("c3d5", "H+-4"),
            ("c3e2", "H++5"),
            ("c3b1", "H++2"),
            ("c5d7", "H--4"),
            ("c5e4", "H-+5"),
            ("c5a6", "H--1"),
        ],
    );
}

#[test]
fn tandem_cannons() {
    check(
        "3k5/9/9/9/7C1/9/9/7C1/9/4K4 w - - 0 1",
        &[
            ("h6h10", "C++4"),
            ("h6e6", "C+=5"),
            ("h6h7", "C++1"),
            ("h6h4", "C+-2"),
            ("h3e3", "C-=5"),
            ("h3h5", "C-+2"),
            ("h3h1", "C--2"),
        ],
    );
    check(
        "3k5/9/7c1/9/9/9/7c1/9/9/4K4 b - - 0 1",
        &[
            ("h8e8", "C-=5"),
            ("h8h10", "C--2"),
            ("h8h9", "C--1"),
            ("h4e4", "C+=5"),
            ("h4h1", "C++3"),
            ("h4h6", "C+-2"),
        ],
    );
}

#[test]
fn advisors_and_elephants_on_one_file_keep_the_file() {
    // Their twin can never make the same-looking move inside its area, so the file is written.
    check(
        "3k5/9/9/9/9/9/9/3A5/9/3AK3R w - - 0 1",
        &[("d1e2", "A6+5"), ("d3e2", "A6-5")],
    );
    check(
        "3a1k2r/9/3a5/9/9/9/9/9/9/4K4 b - - 0 1",
        &[("d10e9", "A4+5"), ("d8e9", "A4-5")],
    );
    check(
        "3k5/9/9/9/9/2B6/9/9/9/2B1K3R w - - 0 1",
        &[
            ("c1e3", "E7+5"),
            ("c1a3", "E7+9"),
            ("c5e3", "E7-5"),
            ("c5a3", "E7-9"),
        ],
    );
    check(
        "2b1k4/9/9/9/2b6/8p/9/9/9/3K5 b - - 0 1",
        &[
            ("c10e8", "E3+5"),
            ("c10a8", "E3+1"),
            ("c6e8", "E3-5"),
            ("c6a8", "E3-1"),
        ],
    );
}

#[test]
fn tandem_piece_moving_toward_the_edge_keeps_its_file() {
    // The cases of docs/pyffish-xiangqi.md: the twin shifted the same way would leave the board.
    check(
        "3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1",
        &[
            ("a5a10", "R++5"),
            ("a1a3", "R-+2"),
            ("a5c5", "R+=7"),
            ("a1b1", "R-=8"),
            ("a5a2", "R9-3"),
        ],
    );
    check(
        "r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1",
        &[
            ("a6a1", "R++5"),
            ("a10a8", "R-+2"),
            ("a6c6", "R+=3"),
            ("a10b10", "R-=2"),
            ("a6a9", "R1-3"),
            ("a6a7", "R1-1"),
        ],
    );
    check(
        "5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1",
        &[
            ("e4f6", "H++4"),
            ("e4g3", "H+-3"),
            ("e2c3", "H-+7"),
            ("e2c1", "H--7"),
            ("e4d2", "H5-6"),
        ],
    );
    check(
        "5k3/9/9/9/9/9/9/4N4/9/3KN4 w - - 0 1",
        &[("e3f1", "H5-4"), ("e3c2", "H5-7"), ("e1g2", "H-+3")],
    );
    check(
        "3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1",
        &[
            ("b7b9", "C++2"),
            ("b3b5", "C-+2"),
            ("b7e7", "C+=5"),
            ("b3a3", "C-=9"),
            ("b3b1", "C--2"),
            ("b7b4", "C8-3"),
        ],
    );
    // Two soldiers, the front one on the last rank: the rear one advancing writes its file.
    check(
        "4P4/3k5/9/4P4/9/9/9/9/9/4K4 w - - 0 1",
        &[("e7e8", "P5+1"), ("e10f10", "P+=4")],
    );
}

// ----- soldiers ------------------------------------------------------------------------------

#[test]
fn two_soldiers_on_a_file_are_tandem_pieces() {
    check(
        "3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e7e8", "P++1"),
            ("e7d7", "P+=6"),
            ("e6d6", "P-=6"),
            ("e6f6", "P-=4"),
        ],
    );
    // One soldier not yet across the river (e4) behind one across it (e6).
    check(
        "3k5/9/9/9/4P4/9/4P4/9/9/5K3 w - - 0 1",
        &[("e6d6", "P+=6"), ("e6e7", "P++1"), ("e4e5", "P-+1")],
    );
}

#[test]
fn three_soldiers_on_a_file_are_counted_from_the_front() {
    check(
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e8e9", "15+1"),
            ("e8d8", "15=6"),
            ("e7d7", "25=6"),
            ("e7f7", "25=4"),
            ("e6d6", "35=6"),
            ("e6f6", "35=4"),
        ],
    );
    check(
        "5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1",
        &[
            ("e3e2", "15+1"),
            ("e3d3", "15=4"),
            ("e4d4", "25=4"),
            ("e5f5", "35=6"),
            ("e5d5", "35=4"),
        ],
    );
}

#[test]
fn two_files_with_two_soldiers_are_counted_from_the_front() {
    // Red soldiers on c7, c6, e7, e6 and g6: the pairs are numbered, the lone one is not.
    check(
        "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1",
        &[
            ("e7e8", "15+1"),
            ("e7d7", "15=6"),
            ("e6d6", "25=6"),
            ("e6f6", "25=4"),
            ("c7c8", "17+1"),
            ("c6b6", "27=8"),
            ("c6d6", "27=6"),
            ("g6g7", "P3+1"),
            ("g6h6", "P3=2"),
        ],
    );
    check(
        "5k3/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b - - 0 1",
        &[
            ("e4e3", "15+1"),
            ("e4f4", "15=6"),
            ("e5d5", "25=4"),
            ("c4c3", "13+1"),
            ("c5b5", "23=2"),
            ("c5d5", "23=4"),
        ],
    );
    // Fairy-Stockfish's own test positions.
    check(
        "rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1",
        &[
            ("e7d7", "15=6"),
            ("e6d6", "25=6"),
            ("e4e5", "35+1"),
            ("a4a5", "P9+1"),
        ],
    );
    check(
        "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
        &[
            ("d8d9", "16+1"),
            ("d7e7", "26=5"),
            ("f7g7", "14=3"),
            ("f6e6", "24=5"),
            ("h7h8", "P2+1"),
        ],
    );
    // Three on one file and two on another.
    check(
        "4k4/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b - - 0 1",
        &[
            ("e3e2", "15+1"),
            ("e4d4", "25=4"),
            ("e5f5", "35=6"),
            ("c5b5", "23=2"),
            ("c4c3", "13+1"),
        ],
    );
}

// ----- input forms ---------------------------------------------------------------------------

#[test]
fn input_accepts_lowercase_dots_aliases_and_the_tandem_prefix() {
    assert_eq!(read(START_FEN, "C2.5").unwrap(), "h3e3");
    assert_eq!(read(START_FEN, "c2=5").unwrap(), "h3e3");
    assert_eq!(read(START_FEN, " N8+7 ").unwrap(), "b1c3");
    assert_eq!(read(START_FEN, "B3+5").unwrap(), "g1e3");
    // playOK writes Black's moves in lowercase.
    assert_eq!(read(START_BLACK, "h2+3").unwrap(), "b10c8");
    assert_eq!(read(START_BLACK, "c8.5").unwrap(), "h8e8");
    assert_eq!(read(START_BLACK, "b3+5").unwrap(), "c10e8");
    assert_eq!(read(START_BLACK, "b7+5").unwrap(), "g10e8");
    assert_eq!(read(START_BLACK, "p1+1").unwrap(), "a7a6");
    // Tandem marker before or after the letter.
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    assert_eq!(read(chariots, "+R=9").unwrap(), "c6a6");
    assert_eq!(read(chariots, "-R.9").unwrap(), "c3a3");
    assert_eq!(read(chariots, "r-+2").unwrap(), "c3c5");
}

#[test]
fn non_canonical_forms_are_read_when_they_name_one_move() {
    // The file form for a tandem chariot whose twin cannot make the move.
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    assert_eq!(read(chariots, "R7+4").unwrap(), "c6c10");
    // The tandem form where the file is written (the rear chariot of c1 and c9).
    assert_eq!(
        read("3k5/2R6/9/9/9/9/9/9/9/2R1K4 w - - 0 1", "R-+4").unwrap(),
        "c1c5"
    );
    // P5+1 with three soldiers on file 5 of which only the front one can advance.
    let three = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(read(three, "P5+1").unwrap(), "e8e9");
    assert_eq!(read(three, "P+=6").unwrap(), "e8d8");
    assert_eq!(read(three, "P-=4").unwrap(), "e6f6");
    // The numbered form with only two soldiers on the file.
    let two = "3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(read(two, "25=6").unwrap(), "e6d6");
}

// ----- errors --------------------------------------------------------------------------------

#[test]
fn unknown_letters_and_bad_syntax_are_refused() {
    for (text, part) in [
        ("Q2=5", "'Q' is not a WXF piece letter"),
        ("X+=5", "'X' is not a WXF piece letter"),
        ("C2*5", "'*' is not a WXF operator"),
        ("C0=5", "expected a file number (1–9), or + or -"),
        (
            "C2=0",
            "a number of points or a file number (1–9), found '0'",
        ),
        ("00=5", "a soldier's place in its file (1–9), found '0'"),
        ("C2=", "four characters"),
        ("C2=55", "four characters"),
        ("", "four characters"),
        ("*C=5", "cannot start a WXF move"),
    ] {
        let e = pos(START_FEN).parse_move_as(text, MoveNotation::Wxf);
        assert!(
            matches!(e, Err(MoveError::Syntax { .. })),
            "{text}: {e:?} should be a syntax error"
        );
        let msg = e.unwrap_err().to_string();
        assert!(msg.contains(part), "{text}: {msg}");
    }
}

#[test]
fn a_missing_piece_is_named() {
    assert_eq!(error(START_FEN, "H5+3"), "there is no Red horse on file 5");
    assert_eq!(
        error(START_BLACK, "R5+1"),
        "there is no Black chariot on file 5"
    );
    let msg = error(START_FEN, "R+=5");
    assert!(msg.contains("no two Red chariots share a file"), "{msg}");
    let msg = error("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1", "45+1");
    assert!(msg.contains("Red has only 3 soldiers there"), "{msg}");
    let msg = error(START_FEN, "15+1");
    assert!(msg.contains("only one soldier"), "{msg}");
}

#[test]
fn impossible_destinations_say_why() {
    assert_eq!(
        error(START_FEN, "R9-1"),
        "the chariot on a1 (file 9) cannot move 1 point backward: there is no point behind it"
    );
    assert_eq!(
        error("3k5/9/9/9/9/R8/9/9/9/4K4 w - - 0 1", "R9+6"),
        "the chariot on a5 (file 9) cannot move 6 points forward: there are only 5 points in front of it"
    );
    assert_eq!(
        error("3k5/9/9/9/9/r8/9/9/9/4K4 b - - 0 1", "R1+5"),
        "the chariot on a5 (file 1) cannot move 5 points forward: there are only 4 points in front of it"
    );
    assert_eq!(
        error(START_FEN, "H8+5"),
        "the horse on b1 (file 8) cannot land on file 5: horses land one or two files over"
    );
    let msg = error(START_FEN, "E7=5");
    assert!(msg.contains("moves diagonally, never sideways"), "{msg}");
    let msg = error(START_FEN, "E7+8");
    assert!(msg.contains("elephants land two files over"), "{msg}");
    let msg = error(START_FEN, "C2=2");
    assert!(msg.contains("already on file 2"), "{msg}");
    // Movement rules: the chariot is blocked by its own soldier.
    let msg = error(START_FEN, "R9+4");
    assert!(msg.contains("cannot go to a5"), "{msg}");
    // A move that would expose the general: the e6 soldier screens the generals' file.
    let fen = "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1";
    let msg = error(fen, "P5=4");
    assert!(msg.contains("check or face the other general"), "{msg}");
    // Elephants cannot cross the river.
    assert_eq!(
        error("3k5/9/9/9/9/2B6/9/9/9/4K3R w - - 0 1", "E7+5"),
        "the elephant on c5 cannot go to e7 by its movement rules"
    );
}

#[test]
fn ambiguous_text_lists_the_moves_it_could_mean() {
    let chariots = "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1";
    assert_eq!(
        error(chariots, "R7+1"),
        "'R7+1' is ambiguous: it could be c6-c7 (R++1) or c3-c4 (R-+1)"
    );
    let horses = "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1";
    let msg = error(horses, "H7+6");
    assert!(msg.starts_with("'H7+6' is ambiguous:"), "{msg}");
    assert!(msg.contains("(H-+6)") && msg.contains("(H++6)"), "{msg}");
    // P5=6 with three soldiers on file 5: all three can step sideways.
    let msg = error("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1", "P5=6");
    assert!(msg.contains("(15=6)") && msg.contains("(25=6)"), "{msg}");
    assert!(msg.contains("(35=6)"), "{msg}");
}

#[test]
fn a_finished_game_takes_no_move() {
    // Generals and advisors only: insufficient material (S5).
    let e = pos("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").parse_move_as("A6+5", MoveNotation::Wxf);
    assert!(matches!(e, Err(MoveError::GameOver { .. })), "{e:?}");
}

// ----- round trips ---------------------------------------------------------------------------

/// Writes every legal move of `p` and reads it back; also checks that no two moves share a
/// spelling.
fn round_trip_all(p: &Position) -> usize {
    let moves = p.legal_moves();
    let mut seen = std::collections::HashSet::new();
    for &m in moves.iter() {
        let text = p.move_to_text(m, MoveNotation::Wxf).unwrap();
        assert!(seen.insert(text.clone()), "{}: '{text}' twice", p.to_fen());
        assert_eq!(
            p.parse_move_as(&text, MoveNotation::Wxf),
            Ok(m),
            "{}: {m} written '{text}'",
            p.to_fen()
        );
    }
    moves.len()
}

/// Seeded random games from the start; with `soldiers`, quiet soldier moves are preferred so
/// that soldiers pile up on files.
fn random_games(seeds: std::ops::Range<u64>, plies: usize, soldiers: bool) -> (usize, usize) {
    let (mut positions, mut moves_checked) = (0, 0);
    for seed in seeds {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut p = Position::start();
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            let moves = p.legal_moves();
            positions += 1;
            moves_checked += round_trip_all(&p);
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
    (positions, moves_checked)
}

#[test]
fn every_legal_move_round_trips_in_random_games() {
    let (positions, moves) = random_games(0..8, 60, false);
    assert!(positions >= 300, "{positions}");
    assert!(moves > 5_000, "{moves}");
}

#[test]
fn every_legal_move_round_trips_when_soldiers_pile_up() {
    let (positions, _) = random_games(100..108, 80, true);
    assert!(positions >= 400, "{positions}");
}

#[test]
fn the_crafted_positions_round_trip_too() {
    for fen in [
        START_FEN,
        START_BLACK,
        "3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1",
        "3k5/9/9/9/2r6/9/9/2r6/9/4K4 b - - 0 1",
        "3k5/2R6/9/9/9/9/9/9/9/2R1K4 w - - 0 1",
        "3k5/2N6/9/9/9/9/9/9/9/2N1K4 w - - 0 1",
        "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/2n6/9/2n6/9/4K4 b - - 0 1",
        "3k5/9/9/9/7C1/9/9/7C1/9/4K4 w - - 0 1",
        "3k5/9/7c1/9/9/9/7c1/9/9/4K4 b - - 0 1",
        "3k5/9/9/9/9/9/9/3A5/9/3AK3R w - - 0 1",
        "3k5/9/9/9/9/2B6/9/9/9/2B1K3R w - - 0 1",
        "3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1",
        "4k4/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b - - 0 1",
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1",
    ] {
        assert!(round_trip_all(&pos(fen)) > 0, "{fen}");
    }
}
