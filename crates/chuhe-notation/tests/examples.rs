//! Every valid and invalid example of `docs/sashite-notations.md` (the shared
//! digest) and of the Xiongqi rule page (seed 000), as tests.

use chuhe_notation::ggn::{Action, Condition, Conditions, Ggn, GgnMove, Location, Possibility};
use chuhe_notation::pcn::{Pcn, Winner};
use chuhe_notation::*;

fn cell(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

// ---------------------------------------------------------------- CELL

#[test]
fn cell_valid_examples() {
    assert_eq!(cell("a1"), Cell::new(0, 0));
    assert_eq!(cell("h8"), Cell::new(7, 7));
    assert_eq!(cell("i10"), Cell::new(8, 9));
    assert_eq!(cell("e4"), Cell::new(4, 3));
    for s in [
        "a1",
        "h8",
        "i10",
        "e4",
        "z26",
        "aa1",
        "az3",
        "ba99",
        "zz100",
        "crxp65536",
    ] {
        assert_eq!(cell(s).to_string(), s);
    }
    assert_eq!(cell("aa1").file(), 26);
    assert_eq!(cell("crxp65536"), Cell::new(u16::MAX, u16::MAX));
}

#[test]
fn cell_invalid_examples() {
    for s in [
        "a0", "a01", "A1", "1a", "", "a", "4", "a-1", "a+1", "e4 ", " e4", "crxq1", "a65537", "é4",
    ] {
        assert!(Cell::parse(s).is_err(), "{s:?} should be rejected");
    }
}

#[test]
fn cell_xiongqi_and_xiangqi_boards() {
    let mut n = 0;
    for rank in 0..10u16 {
        for file in 0..9u16 {
            let c = Cell::new(file, rank);
            assert_eq!(Cell::parse(&c.to_string()), Ok(c));
            assert_eq!(Cell::from_index(c.to_index(9), 9), c);
            assert_eq!(c.to_index(9), n);
            n += 1;
        }
    }
    assert_eq!(cell("i10").to_index(9), 89);
    assert_eq!(Cell::from_index(63, 8), cell("h8"));
}

// ---------------------------------------------------------------- PIN / EPIN

#[test]
fn pin_valid_examples() {
    let g = Pin::parse("G^").unwrap();
    assert_eq!(
        (g.letter(), g.side(), g.state(), g.is_terminal()),
        ('G', Side::First, PieceState::Normal, true)
    );
    let s = Pin::parse("+s").unwrap();
    assert_eq!(
        (s.letter(), s.side(), s.state(), s.is_terminal()),
        ('S', Side::Second, PieceState::Enhanced, false)
    );
    let d = Pin::parse("d^").unwrap();
    assert_eq!(
        (d.letter(), d.side(), d.state(), d.is_terminal()),
        ('D', Side::Second, PieceState::Normal, true)
    );
    for t in ["G^", "+s", "d^", "-P", "+S", "a", "Z", "-z^"] {
        assert_eq!(Pin::parse(t).unwrap().to_string(), t);
    }
}

#[test]
fn pin_invalid_examples() {
    for t in ["+", "^G", "G^^", "GG", "", "-", "+-G", "G'", "1", "G ", "é"] {
        assert!(Pin::parse(t).is_err(), "{t:?} should be rejected");
    }
}

#[test]
fn epin_examples() {
    for t in ["G^", "+s", "S'", "+S^'", "d^'"] {
        assert_eq!(Epin::parse(t).unwrap().to_string(), t);
    }
    assert!(Epin::parse("S'").unwrap().derived);
    assert!(!Epin::parse("S").unwrap().derived);
    for t in ["'S", "S''", "S'^", "", "+", "GG"] {
        assert!(Epin::parse(t).is_err(), "{t:?} should be rejected");
    }
}

#[test]
fn xiongqi_piece_table_parses() {
    for t in [
        "G^", "D^", "A", "B", "C", "E", "H", "R", "S", "+S", "g^", "d^", "a", "b", "c", "e", "h",
        "r", "s", "+s",
    ] {
        let pin = Pin::parse(t).unwrap();
        assert_eq!(pin.to_string(), t);
        assert_eq!(
            pin.side(),
            if t.chars().any(|c| c.is_ascii_uppercase()) {
                Side::First
            } else {
                Side::Second
            }
        );
    }
}

// ---------------------------------------------------------------- SIN / SNN / QPI

#[test]
fn sin_examples() {
    assert_eq!(Sin::parse("X").unwrap().side(), Side::First);
    assert_eq!(Sin::parse("x").unwrap().side(), Side::Second);
    assert_eq!(Sin::parse("x").unwrap().letter(), 'X');
    for t in ["", "XX", "1", "+", "X/x"] {
        assert!(Sin::parse(t).is_err(), "{t:?} should be rejected");
    }
}

#[test]
fn snn_examples() {
    for t in ["Xiongqi", "Xiangqi", "Chess960", "Chess", "X", "Go9"] {
        assert_eq!(Snn::parse(t).unwrap().as_str(), t);
    }
    for t in [
        "xiongqi",
        "XIONG-QI",
        "",
        "9Chess",
        "Chess9a",
        "Xiong qi",
        "Xiongqi\n",
    ] {
        assert!(Snn::parse(t).is_err(), "{t:?} should be rejected");
    }
}

#[test]
fn qpi_examples() {
    let q = Qpi::parse("X:G^").unwrap();
    assert_eq!(
        (q.sin, q.pin),
        (Sin::parse("X").unwrap(), Pin::parse("G^").unwrap())
    );
    assert_eq!(Qpi::parse("x:+s").unwrap().to_string(), "x:+s");
    for t in ["X:g^", "x:G^", "X", "X:", "XG^", "X:G^^", ":G", "X::G"] {
        assert!(Qpi::parse(t).is_err(), "{t:?} should be rejected");
    }
}

// ---------------------------------------------------------------- FEEN

const XIONGQI_START: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";
const XIANGQI_START: &str = "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x";
const MIDGAME_1: &str = "r2ag^2r/1e3c2/s1s1hs1s/3E4/2+s5/S2SS2S/2C1A1H1/R1B1G^B1R 2b2sch/3SCH x/X";
const MIDGAME_2: &str = "r1b1d^1hr/2c2c2/s1ss1sss/4s3/3S4/SS3SS1/2C2C2/RHB1D^BHR as/3SA X/x";

#[test]
fn feen_examples_round_trip() {
    for s in [XIONGQI_START, XIANGQI_START, MIDGAME_1, MIDGAME_2] {
        let feen = Feen::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(feen.to_string(), s);
        assert_eq!(s.parse::<Feen>().unwrap(), feen);
    }
}

#[test]
fn feen_xiongqi_start_contents() {
    let feen = Feen::parse(XIONGQI_START).unwrap();
    let p = &feen.placement;
    assert_eq!((p.width(), p.height()), (8, 8));
    assert_eq!(p.get(cell("e1")).unwrap().to_string(), "G^");
    assert_eq!(p.get(cell("e8")).unwrap().to_string(), "g^");
    assert_eq!(p.get(cell("a1")).unwrap().to_string(), "R");
    assert_eq!(p.get(cell("c2")).unwrap().to_string(), "C");
    assert_eq!(p.get(cell("f7")).unwrap().to_string(), "c");
    assert_eq!(p.get(cell("d3")).unwrap().to_string(), "S");
    assert_eq!(p.get(cell("d4")), None);
    assert_eq!(p.get(cell("i1")), None); // off-board
    assert_eq!(p.piece_count(), 36);
    assert!(feen.hands.iter().all(Hand::is_empty));
    assert_eq!(feen.side_to_move(), Side::First);
    assert_eq!(feen.style_turn.first_style().to_string(), "X");
    assert_eq!(feen.style_turn.to_string(), "X/x");
}

#[test]
fn feen_xiangqi_start_contents() {
    let feen = Feen::parse(XIANGQI_START).unwrap();
    let p = &feen.placement;
    assert_eq!((p.width(), p.height()), (9, 10));
    assert_eq!(p.get(cell("e1")).unwrap().to_string(), "G^");
    assert_eq!(p.get(cell("e10")).unwrap().to_string(), "g^");
    assert_eq!(p.get(cell("b3")).unwrap().to_string(), "C");
    assert_eq!(p.get(cell("i4")).unwrap().to_string(), "S");
    assert_eq!(p.get(cell("h8")).unwrap().to_string(), "c");
    assert_eq!(p.piece_count(), 32);
}

#[test]
fn feen_midgame_contents() {
    let feen = Feen::parse(MIDGAME_1).unwrap();
    assert_eq!(feen.side_to_move(), Side::Second);
    assert_eq!(feen.style_turn.first_style().to_string(), "X");
    assert_eq!(feen.hands[0].to_string(), "2b2sch");
    assert_eq!(feen.hands[1].to_string(), "3SCH");
    assert_eq!(feen.hand(Side::First).len(), 6);
    assert_eq!(feen.hand(Side::Second).count(Epin::parse("S").unwrap()), 3);
    assert_eq!(feen.placement.get(cell("c4")).unwrap().to_string(), "+s");
    let feen = Feen::parse(MIDGAME_2).unwrap();
    assert_eq!(feen.placement.get(cell("e1")).unwrap().to_string(), "D^");
    assert_eq!(feen.hands[1].to_string(), "3SA");
}

/// The digest's hand example is `3s2hc/+SR`. Its first hand is canonical.
/// Its second hand is not: by the digest's own order (letter A→Z before
/// state), `R` sorts before `+S`, so the canonical spelling is `R+S` — the
/// reference crate `sashite-feen` 0.2 rejects `+SR` too.
#[test]
fn feen_hand_example() {
    let ok = Feen::parse("8/8/8/8/8/8/8/8 3s2hc/R+S X/x").unwrap();
    assert_eq!(ok.hands[0].to_string(), "3s2hc");
    assert_eq!(ok.hands[1].to_string(), "R+S");
    let s = Epin::parse("s").unwrap();
    assert_eq!(ok.hands[0].iter().collect::<Vec<_>>()[0], (s, 3));

    let err = Feen::parse("8/8/8/8/8/8/8/8 3s2hc/+SR X/x").unwrap_err();
    assert_eq!(err.field, Some("hands"));
    assert_eq!(err.offset, 24);
    assert_eq!(
        err.canonical.as_deref(),
        Some("8/8/8/8/8/8/8/8 3s2hc/R+S X/x")
    );
}

#[test]
fn feen_style_turn_examples() {
    assert_eq!(
        Feen::parse("8/8 / X/x").unwrap().side_to_move(),
        Side::First
    );
    assert_eq!(
        Feen::parse("8/8 / x/X").unwrap().side_to_move(),
        Side::Second
    );
    for s in [
        "8/8 / X/X",
        "8/8 / x/x",
        "8/8 / X",
        "8/8 / Xx",
        "8/8 / X/x/",
        "8/8 / 1/x",
    ] {
        assert!(Feen::parse(s).is_err(), "{s:?} should be rejected");
    }
}

#[test]
fn feen_invalid_examples() {
    for s in [
        "",
        "8/8",
        "8/8 /",
        "8/8 / X/x ",
        " 8/8 / X/x",
        "8/8  / X/x",
        "8/8 /  X/x",
        "8//8 / X/x",
        "/8 / X/x",
        "8/ / X/x",
        "8/7 / X/x",
        "8/9 / X/x",
        "8/08 / X/x",
        "8/0 / X/x",
        "8/r0h6 / X/x",
        "8/8 1s/ X/x",
        "8/8 ss/ X/x",
        "8/8 hc/ X/x",
        "8/8 c2h/ X/x",
        "8/8 0s/ X/x",
        "8/8 s / X/x",
        "8/8 s/s/s X/x",
        "2/2 5s/ X/x",
        "ss/2 3s/ X/x",
        "8/8 / X/x\n",
        "8/8\t/ X/x",
        "8/8 / X/é",
        "8/8 2/ X/x",
        "8/8 / X/x extra",
        "8/G^^6 / X/x",
    ] {
        assert!(Feen::parse(s).is_err(), "{s:?} should be rejected");
    }
}

#[test]
fn feen_canonical_suggestions() {
    let cases = [
        ("8/08 / X/x", "8/8 / X/x"),
        ("8/r0h6 / X/x", "8/rh6 / X/x"),
        ("8/8 1s/ X/x", "8/8 s/ X/x"),
        ("8/8 ss/ X/x", "8/8 2s/ X/x"),
        ("8/8 sS/ X/x", "8/8 Ss/ X/x"),
        ("8/8 c2h/ X/x", "8/8 2hc/ X/x"),
        ("8/8 02s/ X/x", "8/8 2s/ X/x"),
        ("8/8 s2s/ X/x", "8/8 3s/ X/x"),
        ("8/8 0s/ X/x", "8/8 / X/x"),
        ("8/8 S^S/ X/x", "8/8 SS^/ X/x"),
        ("8/8 S+S-S/ X/x", "8/8 -S+SS/ X/x"),
        ("8/8 S'S/ X/x", "8/8 SS'/ X/x"),
        ("8/8 /3SA X/x", "8/8 /3SA X/x"),
    ];
    for (input, canonical) in cases {
        match Feen::parse(input) {
            Ok(feen) => assert_eq!((input, feen.to_string().as_str()), (canonical, canonical)),
            Err(e) => {
                assert_eq!(e.canonical.as_deref(), Some(canonical), "{input}: {e}");
                assert_eq!(Feen::parse(canonical).unwrap().to_string(), canonical);
            }
        }
    }
    // No canonical form exists for these.
    for input in ["8/8 / X/X", "8/44 / X/x", "8/0 / X/x", "8/08 / X/X"] {
        assert_eq!(Feen::parse(input).unwrap_err().canonical, None, "{input}");
    }
}

#[test]
fn feen_board_sizes() {
    assert_eq!(Feen::parse("1 / X/x").unwrap().placement.len(), 1);
    assert_eq!(Feen::parse("G^ / X/x").unwrap().placement.len(), 1);
    let wide = Feen::parse("26/26 / X/x").unwrap();
    assert_eq!((wide.placement.width(), wide.placement.height()), (26, 2));
    let huge = Feen::parse("1000/1000 / X/x").unwrap();
    assert_eq!(huge.placement.width(), 1000);
    // One rank over the square budget, without allocating it.
    let too_many = vec!["65535"; 17].join("/") + " / X/x";
    assert!(Feen::parse(&too_many).is_err());
    assert!(Feen::parse("65536 / X/x").is_err());
    assert!(Feen::parse("99999999999999999999999999 / X/x").is_err());
    assert!(Feen::parse("8/8 99999999999999999999999s/ X/x").is_err());
}

#[test]
fn feen_cardinality() {
    assert!(Feen::parse("s1/2 3s/ X/x").is_ok());
    assert!(Feen::parse("ss/2 3s/ X/x").is_err());
    assert!(Feen::parse("ss/2 2s/2S X/x").is_err());
    assert!(Feen::parse("2/2 2s/2S X/x").is_ok());
}

// ---------------------------------------------------------------- PMN

#[test]
fn pmn_table_examples() {
    let e3 = cell("e3");
    let e4 = cell("e4");
    assert_eq!(Pmn::parse("e3-e4").unwrap(), Pmn::quiet(e3, e4));
    assert_eq!(
        Pmn::parse("d7-d8=E").unwrap(),
        Pmn::Move {
            from: cell("d7"),
            to: cell("d8"),
            op: MoveOp::Quiet,
            transform: Some(Epin::parse("E").unwrap()),
            captured: None
        }
    );
    assert_eq!(Pmn::parse("e4+e5").unwrap(), Pmn::capture(e4, cell("e5")));
    assert_eq!(
        Pmn::parse("d7+e8=R").unwrap(),
        Pmn::Move {
            from: cell("d7"),
            to: cell("e8"),
            op: MoveOp::Capture,
            transform: Some(Epin::parse("R").unwrap()),
            captured: None
        }
    );
    assert_eq!(
        Pmn::parse("d1~e1").unwrap(),
        Pmn::Move {
            from: cell("d1"),
            to: cell("e1"),
            op: MoveOp::Special,
            transform: None,
            captured: None
        }
    );
    assert_eq!(Pmn::parse("...").unwrap(), Pmn::Pass);
    assert_eq!(
        Pmn::parse("P*e5").unwrap(),
        Pmn::Drop {
            piece: Some(Epin::parse("P").unwrap()),
            to: cell("e5"),
            capture: false,
            transform: None,
            captured: None
        }
    );
    assert_eq!(
        Pmn::parse("+d4").unwrap(),
        Pmn::StaticCapture {
            square: cell("d4"),
            captured: None
        }
    );
    assert_eq!(
        Pmn::parse("e4=+P").unwrap(),
        Pmn::Mutation {
            square: e4,
            piece: Epin::parse("+P").unwrap()
        }
    );
}

#[test]
fn pmn_round_trips() {
    for s in [
        "e3-e4",
        "d7-d8=E",
        "e4+e5",
        "d7+e8=R",
        "d1~e1",
        "...",
        "P*e5",
        "+d4",
        "e4=+P",
        "e4+e5/P",
        "*d4",
        "L.b4",
        "L.b4/p",
        ".b4",
        "+d4/p",
        "e4~e4",
        "e4-e5",
        "i10+i1",
        "d7+e8=R/p",
        "+S^'*aa100=-s",
        "p*e5",
        "+s*e5",
        "-s.e5",
    ] {
        assert_eq!(
            Pmn::parse(s)
                .unwrap_or_else(|e| panic!("{s}: {e}"))
                .to_string(),
            s
        );
    }
}

#[test]
fn pmn_invalid_examples() {
    for s in [
        "",
        "e3",
        "e3-",
        "e3-e4/p",
        "e3-e4=S/p",
        "e4+e5/P=Q",
        "e0-e1",
        "e01-e1",
        "E3-e4",
        "e3 e4",
        "e3-e4 ",
        "..",
        "....",
        "P*e5/p",
        "+d4=P",
        "e4=+P/p",
        "e4=",
        "ab*c3",
        "x",
        "e3-e4x",
        "e3+e4/S/x",
        "P",
        "*",
        "+",
        "e3--e4",
        "e8-e8/E",
    ] {
        assert!(Pmn::parse(s).is_err(), "{s:?} should be rejected");
    }
    let long = "a".repeat(60) + "1-a2";
    assert!(Pmn::parse(&long).is_err());
}

/// The seed's rule page writes promotion as `e8-e8/E` (an older PMN form).
/// In the current form `/P` names a captured piece, so a quiet move cannot
/// carry it; chuhe writes promotion with `=`.
#[test]
fn seed_special_move_notation() {
    assert_eq!(Pmn::parse("e4-e5").unwrap().to_string(), "e4-e5");
    assert_eq!(Pmn::parse("e4~e4").unwrap().to_string(), "e4~e4");
    assert!(Pmn::parse("e8-e8/E").is_err());
    assert_eq!(Pmn::parse("e7-e8=E").unwrap().to_string(), "e7-e8=E");
}

// ---------------------------------------------------------------- CGSN

#[test]
fn cgsn_words() {
    let inferable = [
        "check",
        "stale",
        "checkmate",
        "stalemate",
        "nomove",
        "bareking",
        "mareking",
        "insufficient",
    ];
    let explicit = [
        "resignation",
        "illegalmove",
        "timelimit",
        "movelimit",
        "repetition",
        "agreement",
    ];
    for w in inferable {
        let st = Status::parse(w).unwrap();
        assert!(st.is_inferable() && !st.is_explicit());
        assert_eq!(st.to_string(), w);
    }
    for w in explicit {
        let st = Status::parse(w).unwrap();
        assert!(st.is_explicit() && !st.is_inferable());
        assert_eq!(st.as_str(), w);
    }
    assert_eq!(Status::ALL.len(), 14);
    for st in Status::ALL {
        assert_eq!(st.as_str().parse::<Status>(), Ok(st));
    }
    for w in ["Check", "CHECKMATE", "draw", "", "check ", "in_progress"] {
        assert!(Status::parse(w).is_err(), "{w:?} should be rejected");
    }
}

// ---------------------------------------------------------------- GGN

const CANNON: &str = r#"{
"X:C": {
"c2": {
"c5": [{ "must": { "c3": "empty", "c4": "empty", "c5": "empty" } }],
"c8": [
{ "must": { "c3": "empty", "c4": "empty", "c5": "empty", "c6": "empty", "c8": "enemy" }, "deny": { "c7": "empty" } }
]
}
}
}"#;

#[test]
fn ggn_seed_cannon_capture() {
    let ggn = Ggn::from_json(CANNON).unwrap();
    let cannon = Qpi::parse("X:C").unwrap();
    let (c2, c8) = (cell("c2"), cell("c8"));
    let possibilities = ggn.possibilities(cannon, c2, c8);
    assert_eq!(possibilities.len(), 1);
    let p = &possibilities[0];
    assert_eq!(p.must.len(), 5);
    assert_eq!(p.must[&cell("c8")], Condition::Enemy);
    assert_eq!(p.deny[&cell("c7")], Condition::Empty);

    let screen = Qpi::parse("x:s").unwrap();
    let target = Qpi::parse("x:r").unwrap();
    let own = Qpi::parse("X:R").unwrap();
    let board = |screen_at: Option<Qpi>, at_c8: Option<Qpi>| {
        move |c: Cell| match c.to_string().as_str() {
            "c7" => screen_at,
            "c8" => at_c8,
            _ => None,
        }
    };
    // A screen on c7 and an enemy on c8: the capture holds.
    assert!(p.holds(Side::First, board(Some(screen), Some(target))));
    assert!(ggn.is_pseudo_legal(cannon, c2, c8, board(Some(screen), Some(target))));
    // Any piece can be the screen, even one's own.
    assert!(p.holds(Side::First, board(Some(own), Some(target))));
    // No screen: denied.
    assert!(!p.holds(Side::First, board(None, Some(target))));
    // Own piece on c8: not an enemy.
    assert!(!p.holds(Side::First, board(Some(screen), Some(own))));
    // Empty c8: nothing to capture.
    assert!(!p.holds(Side::First, board(Some(screen), None)));
    // Seen from the second side, the lowercase rook is not an enemy.
    assert!(!p.holds(Side::Second, board(Some(screen), Some(target))));
    // A path square occupied.
    let blocked = |c: Cell| match c.to_string().as_str() {
        "c4" => Some(screen),
        "c7" => Some(screen),
        "c8" => Some(target),
        _ => None,
    };
    assert!(!ggn.is_pseudo_legal(cannon, c2, c8, blocked));
    // No entry for other moves.
    assert!(ggn.possibilities(cannon, c2, cell("c6")).is_empty());
    assert!(!ggn.is_pseudo_legal(cannon, c2, cell("c6"), |_| None));
    // The quiet move c2-c5 on an empty file.
    assert!(ggn.is_pseudo_legal(cannon, c2, cell("c5"), |_| None));
}

#[test]
fn ggn_round_trip_and_piece_condition() {
    let ggn = Ggn::from_json(CANNON).unwrap();
    let again = Ggn::from_json(&ggn.to_json()).unwrap();
    assert_eq!(again, ggn);
    assert_eq!(Ggn::from_json(&ggn.to_json_pretty()).unwrap(), ggn);
    assert!(!ggn.to_json().contains("deny\":{}"));

    let json = r#"{"x:+s":{"e5":{"e4":[{"must":{"e4":"X:G^"}}]}}}"#;
    let ggn = Ggn::from_json(json).unwrap();
    assert_eq!(ggn.to_json(), json);
    let soldier = Qpi::parse("x:+s").unwrap();
    let general = Qpi::parse("X:G^").unwrap();
    assert!(ggn.is_pseudo_legal(soldier, cell("e5"), cell("e4"), |_| Some(general)));
    assert!(
        !ggn.is_pseudo_legal(soldier, cell("e5"), cell("e4"), |_| Some(
            Qpi::parse("X:D^").unwrap()
        ))
    );
    assert_eq!(
        Possibility::default(),
        Possibility {
            must: Default::default(),
            deny: Default::default()
        }
    );
}

#[test]
fn ggn_seed_tables_parse() {
    let tables = [
        r#"{"X:G^": {"e4": {"d4": [{ "must": { "d4": "empty" } }, { "must": { "d4": "enemy" } }],
            "e3": [{ "must": { "e3": "empty" } }, { "must": { "e3": "enemy" } }]}}}"#,
        r#"{"X:D^": {"e4": {"a4": [{ "must": { "b4": "empty", "c4": "empty", "d4": "empty", "a4": "enemy" } }],
            "e1": [{ "must": { "e2": "empty", "e3": "empty", "e1": "enemy" } }]}}}"#,
        r#"{"X:H": {"b1": {"a3": [{ "must": { "b2": "empty", "a3": "empty" } }, { "must": { "b2": "empty", "a3": "enemy" } }]}}}"#,
        r#"{"X:+S": {"e5": {"d5": [{ "must": { "d5": "empty" } }, { "must": { "d5": "enemy" } }]}}}"#,
    ];
    for t in tables {
        Ggn::from_json(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    let horse = Ggn::from_json(tables[2]).unwrap();
    let h = Qpi::parse("X:H").unwrap();
    let blocker = Qpi::parse("X:S").unwrap();
    assert!(horse.is_pseudo_legal(h, cell("b1"), cell("a3"), |_| None));
    assert!(
        !horse.is_pseudo_legal(h, cell("b1"), cell("a3"), |c| (c == cell("b2"))
            .then_some(blocker))
    );
}

#[test]
fn ggn_invalid_documents() {
    for json in [
        r#"{"X:g": {}}"#,
        r#"{"X:G": {"e0": {}}}"#,
        r#"{"X:G": {"e1": {"e2": [{"must": {"e2": "vacant"}}]}}}"#,
        r#"{"X:G": {"e1": {"e2": [{"mustt": {"e2": "empty"}}]}}}"#,
        r#"{"X:G": {"e1": {"e2": {}}}}"#,
        r#"[]"#,
        "",
    ] {
        assert!(Ggn::from_json(json).is_err(), "{json} should be rejected");
    }
    let err = Ggn::from_json(r#"{"X:g": {}}"#).unwrap_err().to_string();
    assert!(err.contains("invalid QPI at offset 2"), "{err}");
}

#[test]
fn ggn_duplicate_square_in_one_condition_object() {
    let err =
        Ggn::from_json(r#"{"X:R": {"a1": {"a3": [{"must": {"a2": "empty", "a2": "enemy"}}]}}}"#)
            .unwrap_err()
            .to_string();
    assert!(err.contains("square a2 named twice"), "{err}");
    // The same square in `must` and in `deny` is two objects: allowed.
    Ggn::from_json(
        r#"{"X:R": {"a1": {"a3": [{"must": {"a2": "empty"}, "deny": {"a2": "x:s"}}]}}}"#,
    )
    .unwrap();
}

/// Seed 000's key order (a path from the piece outward, the destination last)
/// is kept from reading to writing; equality ignores it.
#[test]
fn ggn_condition_order_is_kept() {
    let seed = r#"{"X:D^":{"e4":{"a4":[{"must":{"b4":"empty","c4":"empty","d4":"empty","a4":"enemy"}}]}}}"#;
    let ggn = Ggn::from_json(seed).unwrap();
    assert_eq!(ggn.to_json(), seed);
    let p = &ggn.possibilities(Qpi::parse("X:D^").unwrap(), cell("e4"), cell("a4"))[0];
    let order: Vec<String> = p.must.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(order, ["b4", "c4", "d4", "a4"]);
    let sorted = r#"{"X:D^":{"e4":{"a4":[{"must":{"a4":"enemy","b4":"empty","c4":"empty","d4":"empty"}}]}}}"#;
    let other = Ggn::from_json(sorted).unwrap();
    assert_eq!(other, ggn);
    assert_eq!(other.to_json(), sorted);
    let mut c = Conditions::new();
    assert_eq!(c.insert(cell("b4"), Condition::Empty), None);
    assert_eq!(c.insert(cell("a4"), Condition::Enemy), None);
    assert_eq!(
        c.insert(cell("b4"), Condition::Enemy),
        Some(Condition::Empty)
    );
    assert_eq!(c.len(), 2);
    assert_eq!(c.iter().next(), Some((cell("b4"), Condition::Enemy)));
    assert!(c.contains(&cell("a4")) && !c.contains(&cell("c4")));
    assert_ne!(c, Conditions::from([(cell("b4"), Condition::Enemy)]));
}

/// The interpreter on a FEEN: only the side to move's pieces, looked up by
/// their QPI; destinations off the board are dropped; derived pieces carry
/// the other player's style.
#[test]
fn ggn_interpreter_on_feen_positions() {
    let ggn = Ggn::from_json(
        r#"{
        "X:S": {"a1": {"a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}]}},
        "X:K": {"b1": {"b2": [{"must": {"b2": "y:q"}}], "b3": [{"must": {"b3": "empty"}}]}},
        "y:s": {"b2": {"b1": [{"must": {"b1": "enemy"}}]}},
        "Y:S": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}
    }"#,
    )
    .unwrap();
    // Styles X (first) and Y (second): a 2×2 board, the first player to move.
    let feen = Feen::parse("qs/SK / X/y").unwrap();
    let moves = ggn.moves(&feen);
    // S a1→a2 captures the enemy queen; K b1→b2 needs exactly the piece Y:q
    // there (the soldier is there); b3 is off the 2×2 board.
    assert_eq!(
        moves,
        [GgnMove {
            from: cell("a1"),
            to: cell("a2"),
            piece: Qpi::parse("X:S").unwrap(),
            captured: Some(Qpi::parse("y:q").unwrap()),
        }]
    );
    // The second player to move: its soldier on b2 is `y:s`.
    let feen = Feen::parse("qs/SK / y/X").unwrap();
    let moves: Vec<String> = ggn
        .moves(&feen)
        .iter()
        .map(|m| m.pmn().to_string())
        .collect();
    assert_eq!(moves, ["b2+b1"]);
    // A derived first-player soldier (S') is written in the second player's style: Y:S.
    let feen = Feen::parse("2/S'1 / X/y").unwrap();
    let m = ggn.moves(&feen);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].piece.to_string(), "Y:S");
    assert_eq!(m[0].apply(&feen).unwrap().to_string(), "S'1/2 / y/X");
    assert_eq!(
        m[0].actions(),
        [Action {
            piece: m[0].piece,
            from: Location::Square(cell("a1")),
            to: Location::Square(cell("a2"))
        }]
    );
    // An empty table lists nothing.
    assert!(Ggn::default().moves(&feen).is_empty());
}

// ---------------------------------------------------------------- PCN

const PCN_EXAMPLE: &str = r#"{ "meta": {"event": "…", "started_at": "2026-11-22T10:00:00Z"},
  "sides": {"first": {"name": "…", "style": "Xiongqi"}, "second": {"name": "…", "style": "Xiongqi"}},
  "setup": "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x",
  "moves": [["e3-e4", 2.5], ["e6-e5", 1.0]],
  "status": "resignation", "winner": "first" }"#;

#[test]
fn pcn_example() {
    let pcn = Pcn::from_json(PCN_EXAMPLE).unwrap();
    assert_eq!(pcn.meta.event.as_deref(), Some("…"));
    assert_eq!(pcn.meta.started_at.as_deref(), Some("2026-11-22T10:00:00Z"));
    let sides = pcn.sides.as_ref().unwrap();
    assert_eq!(
        sides
            .first
            .as_ref()
            .unwrap()
            .style
            .as_ref()
            .unwrap()
            .as_str(),
        "Xiongqi"
    );
    assert_eq!(sides.second.as_ref().unwrap().name.as_deref(), Some("…"));
    assert_eq!(pcn.setup_feen().unwrap().to_string(), XIONGQI_START);
    assert_eq!(
        pcn.moves,
        vec![("e3-e4".to_string(), 2.5), ("e6-e5".to_string(), 1.0)]
    );
    assert_eq!(pcn.pmn_moves().unwrap()[1].to_string(), "e6-e5");
    assert_eq!(pcn.status, Some(Status::Resignation));
    assert_eq!(pcn.winner, Some(Winner::First));

    let written = pcn.to_json_pretty();
    assert_eq!(Pcn::from_json(&written).unwrap(), pcn);
}

#[test]
fn pcn_unknown_meta_keys_survive() {
    let json = r#"{"meta": {"event": "Club", "zeta": 1, "alpha": {"nested": [true, null]}, "round": 3},
        "sides": {"first": {"name": "A", "elo": 1500}},
        "setup": "8/8 / X/x", "moves": []}"#;
    let pcn = Pcn::from_json(json).unwrap();
    assert_eq!(pcn.meta.round, Some(3));
    assert_eq!(pcn.meta.extra.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
    let written = pcn.to_json_pretty();
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(value["meta"]["zeta"], 1);
    assert_eq!(value["meta"]["alpha"]["nested"][0], true);
    assert_eq!(value["sides"]["first"]["elo"], 1500);
    assert_eq!(Pcn::from_json(&written).unwrap(), pcn);
    // Minimal record: only the setup.
    let minimal = Pcn::from_json(r#"{"setup": "8/8 / X/x"}"#).unwrap();
    assert!(minimal.moves.is_empty() && minimal.status.is_none() && minimal.winner.is_none());
    assert_eq!(
        minimal.to_json_pretty(),
        "{\n  \"setup\": \"8/8 / X/x\",\n  \"moves\": []\n}"
    );
}

#[test]
fn pcn_invalid_records() {
    use chuhe_notation::pcn::PcnError;
    assert!(matches!(
        Pcn::from_json(r#"{"moves": []}"#),
        Err(PcnError::Json(_))
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/X"}"#),
        Err(PcnError::Setup(_))
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/x", "moves": [["e1-e2", 1], ["e2-e3/p", 1]]}"#),
        Err(PcnError::Move { index: 1, .. })
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/x", "moves": [["e1-e2", -1]]}"#),
        Err(PcnError::Time { index: 0, .. })
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/x", "status": "draw"}"#),
        Err(PcnError::Json(_))
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/x", "winner": "both"}"#),
        Err(PcnError::Json(_))
    ));
    assert!(matches!(
        Pcn::from_json(r#"{"setup": "8/8 / X/x", "sides": {"first": {"style": "xiongqi"}}}"#),
        Err(PcnError::Json(_))
    ));
    for winner in ["first", "second", "none"] {
        let json = format!(r#"{{"setup": "8/8 / X/x", "winner": "{winner}"}}"#);
        assert!(Pcn::from_json(&json).is_ok());
    }
}

/// The indented form lays destinations out one per line, as seed 000 does: the seed's
/// general, written back, is the seed's text with indentation.
#[test]
fn ggn_pretty_is_the_seed_layout() {
    let seed = r#"{
"X:G^": {
"e4": {
"d4": [{ "must": { "d4": "empty" } }, { "must": { "d4": "enemy" } }],
"e3": [{ "must": { "e3": "empty" } }, { "must": { "e3": "enemy" } }],
"e5": [{ "must": { "e5": "empty" } }, { "must": { "e5": "enemy" } }],
"f4": [{ "must": { "f4": "empty" } }, { "must": { "f4": "enemy" } }]
}
}
}"#;
    let ggn = Ggn::from_json(seed).unwrap();
    let pretty = ggn.to_json_pretty();
    let unindented: Vec<&str> = pretty.lines().map(str::trim_start).collect();
    assert_eq!(unindented.join("\n"), seed);
    let cannon = Ggn::from_json(CANNON).unwrap().to_json_pretty();
    assert!(cannon.contains(
        r#""c8": [{ "must": { "c3": "empty", "c4": "empty", "c5": "empty", "c6": "empty", "c8": "enemy" }, "deny": { "c7": "empty" } }]"#
    ));
    // Empty maps and lists, and a possibility without conditions.
    for json in [
        "{}",
        r#"{"X:R":{}}"#,
        r#"{"X:R":{"a1":{}}}"#,
        r#"{"X:R":{"a1":{"a2":[]}}}"#,
        r#"{"X:R":{"a1":{"a2":[{}]}}}"#,
    ] {
        let ggn = Ggn::from_json(json).unwrap();
        assert_eq!(
            Ggn::from_json(&ggn.to_json_pretty()).unwrap(),
            ggn,
            "{json}"
        );
    }
    assert_eq!(Ggn::default().to_json_pretty(), "{}");
}
