//! The value types: sides, orders, hands, placements, serde.

use chuhe_notation::*;

fn epin(s: &str) -> Epin {
    Epin::parse(s).unwrap()
}

#[test]
fn side_basics() {
    assert_eq!(Side::First.opponent(), Side::Second);
    assert_eq!(!Side::First, Side::Second);
    assert_eq!((Side::First.index(), Side::Second.index()), (0, 1));
    assert_eq!(Side::Second.as_str(), "second");
    assert_eq!("first".parse::<Side>(), Ok(Side::First));
    assert!("First".parse::<Side>().is_err());
    assert_eq!(serde_json::to_string(&Side::Second).unwrap(), "\"second\"");
    assert_eq!(
        serde_json::from_str::<Side>("\"first\"").unwrap(),
        Side::First
    );
    assert!(Side::First < Side::Second);
}

#[test]
fn epin_order_is_the_feen_hand_order() {
    let ordered = [
        "-A", "+A", "A", "A'", "A^", "A^'", "-a", "+a", "a", "a^", "B", "b", "-S", "+S", "S", "s",
        "Z", "z",
    ];
    for pair in ordered.windows(2) {
        assert!(epin(pair[0]) < epin(pair[1]), "{} < {}", pair[0], pair[1]);
    }
    let mut shuffled: Vec<Epin> = ordered.iter().rev().map(|s| epin(s)).collect();
    shuffled.sort();
    assert_eq!(
        shuffled.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ordered
    );
}

#[test]
fn pin_constructors() {
    let p = Pin::new(b's', Side::First, PieceState::Enhanced, false);
    assert_eq!(p.letter(), 'S');
    assert_eq!(p.to_string(), "+S");
    assert_eq!(p.with_side(Side::Second).to_string(), "+s");
    assert_eq!(p.with_state(PieceState::Diminished).to_string(), "-S");
    assert_eq!(p.with_terminal(true).to_string(), "+S^");
    assert_eq!(Epin::native(p).to_string(), "+S");
    assert_eq!(Epin::new(p, true).to_string(), "+S'");
    assert_eq!(Epin::from(p).with_side(Side::Second).to_string(), "+s");
}

#[test]
fn hand_operations() {
    let mut hand = Hand::new();
    assert!(hand.is_empty());
    assert_eq!(hand.to_string(), "");
    hand.add(epin("c"));
    hand.add_n(epin("s"), 3);
    hand.add(epin("h"));
    hand.add(epin("h"));
    hand.add_n(epin("r"), 0);
    assert_eq!(hand.to_string(), "3s2hc");
    assert_eq!(hand.len(), 6);
    assert_eq!(hand.count(epin("s")), 3);
    assert_eq!(hand.count(epin("r")), 0);
    assert!(hand.remove(epin("s")));
    assert!(hand.remove(epin("s")));
    assert_eq!(hand.to_string(), "2hcs");
    assert!(!hand.remove(epin("R")));
    assert!(hand.remove(epin("c")));
    assert!(hand.remove(epin("s")));
    assert_eq!(hand.iter().collect::<Vec<_>>(), vec![(epin("h"), 2)]);
    let other: Hand = [epin("h"), epin("h")].into_iter().collect();
    assert_eq!(hand, other);
}

#[test]
fn placement_operations() {
    let mut p = Placement::empty(9, 10);
    assert_eq!((p.width(), p.height(), p.len()), (9, 10, 90));
    let e1 = Cell::parse("e1").unwrap();
    let i10 = Cell::parse("i10").unwrap();
    assert!(p.contains(i10));
    assert!(!p.contains(Cell::parse("j1").unwrap()));
    assert!(!p.contains(Cell::parse("a11").unwrap()));
    p.set(e1, Some(epin("G^")));
    p.set(i10, Some(epin("r")));
    assert_eq!(p.get(e1), Some(epin("G^")));
    assert_eq!(p.get(Cell::parse("z99").unwrap()), None);
    assert_eq!(
        p.iter().collect::<Vec<_>>(),
        vec![(e1, epin("G^")), (i10, epin("r"))]
    );
    assert_eq!(p.squares()[e1.to_index(9)], Some(epin("G^")));
    assert_eq!(p.to_string(), "8r/9/9/9/9/9/9/9/9/4G^4");
    p.set(i10, None);
    assert_eq!(p.piece_count(), 1);
}

#[test]
#[should_panic(expected = "off the")]
fn placement_set_off_board_panics() {
    Placement::empty(8, 8).set(Cell::new(8, 0), None);
}

#[test]
fn feen_built_in_code_prints_canonically() {
    let mut placement = Placement::empty(8, 8);
    placement.set(Cell::parse("e1").unwrap(), Some(epin("G^")));
    placement.set(Cell::parse("e8").unwrap(), Some(epin("g^")));
    let x = Sin::new(b'x', Side::First);
    let mut feen = Feen {
        placement,
        hands: [Hand::new(), Hand::new()],
        style_turn: StyleTurn::new(x, x, Side::Second),
    };
    feen.hand_mut(Side::First).add_n(epin("s"), 2);
    assert_eq!(feen.to_string(), "4g^3/8/8/8/8/8/8/4G^3 2s/ x/X");
    assert_eq!(feen.side_to_move(), Side::Second);
    assert_eq!(feen.style_turn.first_style().to_string(), "X");
    assert_eq!(feen.style_turn.second_style().to_string(), "x");
    assert_eq!(feen.style_turn.flipped().to_string(), "X/x");
    assert_eq!(Feen::parse(&feen.to_string()).unwrap(), feen);
}

#[test]
fn serde_as_strings() {
    let q = Qpi::parse("X:G^").unwrap();
    assert_eq!(serde_json::to_string(&q).unwrap(), "\"X:G^\"");
    assert_eq!(
        serde_json::from_str::<Qpi>("\"x:+s\"").unwrap().to_string(),
        "x:+s"
    );
    assert!(serde_json::from_str::<Qpi>("\"X:g\"").is_err());
    let c = Cell::parse("i10").unwrap();
    assert_eq!(serde_json::to_string(&c).unwrap(), "\"i10\"");
    assert_eq!(serde_json::from_str::<Cell>("\"i10\"").unwrap(), c);
    assert_eq!(
        serde_json::to_string(&Status::Mareking).unwrap(),
        "\"mareking\""
    );
    assert_eq!(
        serde_json::from_str::<Status>("\"stalemate\"").unwrap(),
        Status::Stalemate
    );
    assert_eq!(
        serde_json::to_string(&Snn::parse("Xiongqi").unwrap()).unwrap(),
        "\"Xiongqi\""
    );
    let m = Pmn::parse("d7+e8=R").unwrap();
    assert_eq!(
        serde_json::from_str::<Pmn>(&serde_json::to_string(&m).unwrap()).unwrap(),
        m
    );
    let f = Feen::parse("8/8 / X/x").unwrap();
    assert_eq!(serde_json::to_string(&f).unwrap(), "\"8/8 / X/x\"");
}

#[test]
fn cell_helpers() {
    let e4 = Cell::parse("e4").unwrap();
    assert_eq!(e4.offset(1, -1), Some(Cell::parse("f3").unwrap()));
    assert_eq!(Cell::new(0, 0).offset(-1, 0), None);
    assert!(Cell::parse("a2").unwrap() < Cell::parse("b1").unwrap());
}
