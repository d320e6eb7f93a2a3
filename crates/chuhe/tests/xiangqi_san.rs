//! Xiangqi SAN (`MoveNotation::San`) against the strings pyffish 0.0.90 writes
//! (`get_san` / `get_san_moves`, noted beside each case). The random-game differential test
//! (tests/python/test_xiangqi_pyffish.py) compares every move played there as well.

use chuhe::xiangqi::Position;
use chuhe::{GamePosition, MoveNotation};

/// `(FEN, UCI move, SAN)` as pyffish writes them.
const CASES: &[(&str, &str, &str)] = &[
    // get_san_moves(start, [h3e3]) and the black reply.
    ("start", "h3e3", "Che3"),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "h10g8",
        "Hg8",
    ),
    // Both elephants reach e3, both advisors e2: the file tells them apart.
    ("start", "c1e3", "Ece3"),
    (
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR w - - 2 2",
        "d1e2",
        "Ade2",
    ),
    // Captures.
    ("start", "b3b10", "Cxb10"),
    // Chariots on one file: the rank; on one rank: the file.
    ("3k5/9/9/R8/9/9/9/R8/9/4K4 w - - 0 1", "a3a5", "R3a5"),
    ("3k5/9/9/R8/9/9/9/R8/9/4K4 w - - 0 1", "a7a5", "R7a5"),
    ("3k5/9/9/9/9/9/9/9/R7R/4K4 w - - 0 1", "a2e2", "Rae2"),
    // Three horses: file, rank, or both.
    ("3k5/9/9/9/9/2N6/9/2N3N2/9/4K4 w - - 0 1", "c3e4", "Hc3e4"),
    ("3k5/9/9/9/9/2N6/9/2N3N2/9/4K4 w - - 0 1", "g3e4", "Hge4"),
    ("3k5/9/9/9/9/2N6/9/2N3N2/9/4K4 w - - 0 1", "c5e4", "H5e4"),
    ("3k5/9/9/9/9/9/2N1N4/9/9/4K4 w - - 0 1", "c4d6", "Hcd6"),
    // Check and mate; soldiers have a letter.
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a1a10", "Ra10+"),
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a1d1", "Rd1#"),
    ("3k5/4P4/9/9/9/9/9/9/9/R3K4 w - - 0 1", "e9d9", "Pd9+"),
    ("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 12", "d10d9", "Kd9"),
];

fn position(fen: &str) -> Position {
    Position::from_text(fen, Default::default()).unwrap()
}

#[test]
fn san_is_written_as_pyffish_writes_it_and_read_back() {
    for &(fen, uci, san) in CASES {
        let pos = position(fen);
        let m = pos.parse_move_as(uci, MoveNotation::Uci).unwrap();
        assert_eq!(
            pos.move_to_text(m, MoveNotation::San).unwrap(),
            san,
            "{fen} {uci}"
        );
        assert_eq!(
            pos.parse_move_as(san, MoveNotation::San).unwrap(),
            m,
            "{fen} {san}"
        );
    }
}

#[test]
fn lenient_input() {
    let pos = Position::start();
    let m = pos.parse_move_as("h3e3", MoveNotation::Uci).unwrap();
    for text in ["Che3", "Ch3e3", "Che3+", " Che3 ", "Ch3xe3"] {
        assert_eq!(pos.parse_move_as(text, MoveNotation::San), Ok(m), "{text}");
    }
    // FEN letters for the horse and the elephant, and a soldier without its letter.
    let h = pos.parse_move_as("h1g3", MoveNotation::Uci).unwrap();
    assert_eq!(pos.parse_move_as("Ng3", MoveNotation::San), Ok(h));
    let e = pos.parse_move_as("c1e3", MoveNotation::Uci).unwrap();
    assert_eq!(pos.parse_move_as("Bce3", MoveNotation::San), Ok(e));
    let p = pos.parse_move_as("c4c5", MoveNotation::Uci).unwrap();
    assert_eq!(pos.parse_move_as("c5", MoveNotation::San), Ok(p));
    assert_eq!(pos.parse_move_as("Pc5", MoveNotation::San), Ok(p));
}

#[test]
fn errors_say_what_is_wrong() {
    let pos = Position::start();
    for (text, says) in [
        ("Ce3", "ambiguous: it could be Cbe3 or Che3"),
        ("Rh5", "no legal move of a chariot reaches h5"),
        ("Qe3", "the piece letter is one of"),
        ("Cj3", "ends with the destination point"),
        ("Ce11", "ends with the destination point"),
        ("C12e3", "a rank is 1 to 10"),
        ("炮二平五", "ASCII"),
        ("", "ASCII"),
    ] {
        let e = pos.parse_move_as(text, MoveNotation::San).unwrap_err();
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
}

#[test]
fn every_legal_move_has_its_own_san_on_random_games() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..60 {
        let mut pos = Position::start();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut seen = std::collections::HashSet::new();
            for &m in moves.iter() {
                let san = pos.move_to_text(m, MoveNotation::San).unwrap();
                assert!(seen.insert(san.clone()), "{san} twice in {}", pos.to_feen());
                assert_eq!(pos.parse_move_as(&san, MoveNotation::San), Ok(m), "{san}");
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos = pos.play(m).unwrap();
        }
    }
}
