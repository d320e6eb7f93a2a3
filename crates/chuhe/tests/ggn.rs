//! GGN: the examples of the Xiongqi rule page (seed 000) and of the notation digest,
//! interpreted as they say and found in chuhe's tables; the tables against the bitboard move
//! generators on positions from random games; snapshots of table entries.

use std::collections::BTreeSet;

use chuhe::ggn;
use chuhe::notation::ggn::{Ggn, GgnMove, Possibility};
use chuhe::notation::{Cell, Epin, Feen, Hand, Placement, Qpi, Side, Sin, StyleTurn};
use chuhe::xiangqi::{self, RuleSet};
use chuhe::xiongqi;
use chuhe::{Game, GameKind, GamePosition};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn cell(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

fn qpi(s: &str) -> Qpi {
    Qpi::parse(s).unwrap()
}

/// A FEEN position on a `files × ranks` board with these pieces (square, EPIN), styles `X/x`.
fn board(files: u16, ranks: u16, pieces: &[(&str, &str)], turn: Side) -> Feen {
    let mut placement = Placement::empty(files, ranks);
    for &(square, piece) in pieces {
        placement.set(cell(square), Some(Epin::parse(piece).unwrap()));
    }
    let x = Sin::new(b'X', Side::First);
    Feen {
        placement,
        hands: [Hand::new(), Hand::new()],
        style_turn: StyleTurn::new(x, x, turn),
    }
}

/// A Xiongqi board, South to move.
fn south(pieces: &[(&str, &str)]) -> Feen {
    board(8, 8, pieces, Side::First)
}

fn pmn(moves: &[GgnMove]) -> Vec<String> {
    moves.iter().map(|m| m.pmn().to_string()).collect()
}

fn json(p: &[Possibility]) -> String {
    serde_json::to_string(p).unwrap()
}

/// How much of chuhe's table a seed example shows.
#[derive(Clone, Copy, PartialEq)]
enum Shows {
    /// Every destination of each source, each with all its possibilities.
    Everything,
    /// Some destinations, each with all its possibilities.
    Destinations,
    /// Some possibilities of some destinations ("patterns shown are representative").
    Possibilities,
}

/// Checks a seed example against chuhe's table, written the same way (key order included:
/// possibilities are compared as JSON text).
fn found_in(seed: &Ggn, table: &Ggn, shows: Shows) {
    for (&piece, sources) in &seed.0 {
        for (&from, destinations) in sources {
            let ours = table
                .destinations(piece, from)
                .unwrap_or_else(|| panic!("{piece} {from} is not in the table"));
            if shows == Shows::Everything {
                assert_eq!(
                    ours.keys().collect::<Vec<_>>(),
                    destinations.keys().collect::<Vec<_>>(),
                    "{piece} {from}"
                );
            }
            for (&to, possibilities) in destinations {
                let ours = table.possibilities(piece, from, to);
                if shows == Shows::Possibilities {
                    for p in possibilities {
                        let text = json(std::slice::from_ref(p));
                        assert!(
                            ours.iter().any(|o| json(std::slice::from_ref(o)) == text),
                            "{piece} {from}→{to}: {text} not among {}",
                            json(ours)
                        );
                    }
                } else {
                    assert_eq!(json(ours), json(possibilities), "{piece} {from}→{to}");
                }
            }
        }
    }
}

// ------------------------------------------------------------------ seed 000, section 5

const GENERAL: &str = r#"{
"X:G^": {
"e4": {
"d4": [{ "must": { "d4": "empty" } }, { "must": { "d4": "enemy" } }],
"e3": [{ "must": { "e3": "empty" } }, { "must": { "e3": "enemy" } }],
"e5": [{ "must": { "e5": "empty" } }, { "must": { "e5": "enemy" } }],
"f4": [{ "must": { "f4": "empty" } }, { "must": { "f4": "enemy" } }]
}
}
}"#;

/// 5.1: one square orthogonally, no palace restriction.
#[test]
fn seed_5_1_general() {
    let seed = Ggn::from_json(GENERAL).unwrap();
    assert_eq!(
        pmn(&seed.moves(&south(&[("e4", "G^")]))),
        ["e4-d4", "e4-e3", "e4-e5", "e4-f4"]
    );
    // An enemy is taken, an own piece is not.
    let pos = south(&[("e4", "G^"), ("d4", "s"), ("f4", "S")]);
    assert_eq!(pmn(&seed.moves(&pos)), ["e4+d4", "e4-e3", "e4-e5"]);
    // Nothing moves for the side not to move.
    assert!(seed
        .moves(&board(8, 8, &[("e4", "G^")], Side::Second))
        .is_empty());
    found_in(&seed, &ggn::xiongqi_table(), Shows::Everything);
}

const DRAGON: &str = r#"{
"X:D^": {
"e4": {
"d4": [{ "must": { "d4": "empty" } }],
"e3": [{ "must": { "e3": "empty" } }],
"e5": [{ "must": { "e5": "empty" } }],
"f4": [{ "must": { "f4": "empty" } }],
"a4": [{ "must": { "b4": "empty", "c4": "empty", "d4": "empty", "a4": "enemy" } }],
"e1": [{ "must": { "e2": "empty", "e3": "empty", "e1": "enemy" } }]
}
}
}"#;

/// 5.2: quiet one step; captures at any distance along a clear line. The seed's steps show
/// only the quiet move; chuhe's table adds the adjacent capture (xiongqi-rules.md: "adjacent
/// capture included").
#[test]
fn seed_5_2_dragon() {
    let seed = Ggn::from_json(DRAGON).unwrap();
    let pos = south(&[("e4", "D^"), ("a4", "r"), ("e1", "s"), ("h4", "r")]);
    assert_eq!(
        pmn(&seed.moves(&pos)),
        ["e4+a4", "e4-d4", "e4+e1", "e4-e3", "e4-e5", "e4-f4"]
    );
    // No quiet move beyond one step, no capture through a piece.
    let pos = south(&[("e4", "D^"), ("a4", "r"), ("c4", "S"), ("e2", "s")]);
    assert_eq!(pmn(&seed.moves(&pos)), ["e4-d4", "e4-e3", "e4-e5", "e4-f4"]);
    let table = ggn::xiongqi_table();
    found_in(&seed, &table, Shows::Possibilities);
    let dragon = qpi("X:D^");
    for far in ["a4", "e1"] {
        assert_eq!(
            json(table.possibilities(dragon, cell("e4"), cell(far))),
            json(seed.possibilities(dragon, cell("e4"), cell(far)))
        );
    }
    assert_eq!(
        json(table.possibilities(dragon, cell("e4"), cell("d4"))),
        r#"[{"must":{"d4":"empty"}},{"must":{"d4":"enemy"}}]"#
    );
    let next_to = south(&[("e4", "D^"), ("d4", "s")]);
    assert!(!pmn(&seed.moves(&next_to)).contains(&"e4+d4".to_string()));
    assert!(pmn(&table.moves(&next_to)).contains(&"e4+d4".to_string()));
}

const ADVISOR: &str = r#"{
"X:A": {
"e4": {
"d3": [{ "must": { "d3": "empty" } }, { "must": { "d3": "enemy" } }],
"d5": [{ "must": { "d5": "empty" } }, { "must": { "d5": "enemy" } }],
"f3": [{ "must": { "f3": "empty" } }, { "must": { "f3": "enemy" } }],
"f5": [{ "must": { "f5": "empty" } }, { "must": { "f5": "enemy" } }]
}
}
}"#;

/// 5.3: one square diagonally, no palace restriction.
#[test]
fn seed_5_3_advisor() {
    let seed = Ggn::from_json(ADVISOR).unwrap();
    let pos = south(&[("e4", "A"), ("d5", "H"), ("f3", "h")]);
    assert_eq!(pmn(&seed.moves(&pos)), ["e4-d3", "e4+f3", "e4-f5"]);
    found_in(&seed, &ggn::xiongqi_table(), Shows::Everything);
}

const BEAR: &str = r#"{
"X:B": {
"c1": {
"f4": [
{ "must": { "d2": "empty", "e3": "empty", "f4": "empty" } },
{ "must": { "d2": "empty", "e3": "empty", "f4": "enemy" } }
]
}
}
}"#;

/// 5.4: any distance diagonally, clear path.
#[test]
fn seed_5_4_bear() {
    let seed = Ggn::from_json(BEAR).unwrap();
    assert_eq!(pmn(&seed.moves(&south(&[("c1", "B")]))), ["c1-f4"]);
    assert_eq!(
        pmn(&seed.moves(&south(&[("c1", "B"), ("f4", "c")]))),
        ["c1+f4"]
    );
    assert!(seed
        .moves(&south(&[("c1", "B"), ("e3", "c"), ("f4", "c")]))
        .is_empty());
    assert!(seed.moves(&south(&[("c1", "B"), ("f4", "C")])).is_empty());
    found_in(&seed, &ggn::xiongqi_table(), Shows::Destinations);
}

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

/// 5.5: quiet moves like a chariot; a capture jumps exactly one screen. The seed shows one
/// screen square; chuhe's table has one possibility for each square the screen may be on.
#[test]
fn seed_5_5_cannon() {
    let seed = Ggn::from_json(CANNON).unwrap();
    assert_eq!(pmn(&seed.moves(&south(&[("c2", "C")]))), ["c2-c5"]);
    // Any piece can be the screen.
    for screen in ["s", "S"] {
        let pos = south(&[("c2", "C"), ("c7", screen), ("c8", "r")]);
        assert_eq!(pmn(&seed.moves(&pos)), ["c2-c5", "c2+c8"]);
    }
    // No screen, two screens, or an own piece to take: no capture.
    assert_eq!(
        pmn(&seed.moves(&south(&[("c2", "C"), ("c8", "r")]))),
        ["c2-c5"]
    );
    let two = south(&[("c2", "C"), ("c6", "s"), ("c7", "s"), ("c8", "r")]);
    assert_eq!(pmn(&seed.moves(&two)), ["c2-c5"]);
    let own = south(&[("c2", "C"), ("c7", "s"), ("c8", "R")]);
    assert_eq!(pmn(&seed.moves(&own)), ["c2-c5"]);

    let table = ggn::xiongqi_table();
    found_in(&seed, &table, Shows::Possibilities);
    // The full entry: the quiet move, then a screen on each of c3…c7.
    let c8 = table.possibilities(qpi("X:C"), cell("c2"), cell("c8"));
    assert_eq!(c8.len(), 6);
    assert_eq!(
        json(&c8[1..2]),
        r#"[{"must":{"c4":"empty","c5":"empty","c6":"empty","c7":"empty","c8":"enemy"},"deny":{"c3":"empty"}}]"#
    );
    // The screen may stand anywhere between.
    let pos = south(&[("c2", "C"), ("c4", "s"), ("c8", "r")]);
    assert!(!pmn(&seed.moves(&pos)).contains(&"c2+c8".to_string()));
    assert!(pmn(&table.moves(&pos)).contains(&"c2+c8".to_string()));
}

const EMPRESS: &str = r#"{
"X:E": {
"d4": {
"d8": [{ "must": { "d5": "empty", "d6": "empty", "d7": "empty", "d8": "empty" } }, { "must": { "d5": "empty", "d6": "empty", "d7": "empty", "d8": "enemy" } }],
"c2": [{ "must": { "c2": "empty" } }, { "must": { "c2": "enemy" } }],
"e2": [{ "must": { "e2": "empty" } }, { "must": { "e2": "enemy" } }],
"b3": [{ "must": { "b3": "empty" } }, { "must": { "b3": "enemy" } }],
"f3": [{ "must": { "f3": "empty" } }, { "must": { "f3": "enemy" } }],
"b5": [{ "must": { "b5": "empty" } }, { "must": { "b5": "enemy" } }],
"f5": [{ "must": { "f5": "empty" } }, { "must": { "f5": "enemy" } }],
"c6": [{ "must": { "c6": "empty" } }, { "must": { "c6": "enemy" } }],
"e6": [{ "must": { "e6": "empty" } }, { "must": { "e6": "enemy" } }]
}
}
}"#;

/// 5.6: chariot moves plus the eight knight leaps, which jump freely.
#[test]
fn seed_5_6_empress() {
    let seed = Ggn::from_json(EMPRESS).unwrap();
    // Surrounded on all eight neighbours: the slide is blocked, the leaps are not.
    let mut pieces = vec![("d4", "E"), ("c2", "s")];
    for n in ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"] {
        pieces.push((n, "S"));
    }
    let moves = pmn(&seed.moves(&south(&pieces)));
    assert_eq!(
        moves,
        ["d4-b3", "d4-b5", "d4+c2", "d4-c6", "d4-e2", "d4-e6", "d4-f3", "d4-f5"]
    );
    assert!(pmn(&seed.moves(&south(&[("d4", "E"), ("d8", "r")]))).contains(&"d4+d8".to_string()));
    found_in(&seed, &ggn::xiongqi_table(), Shows::Destinations);
}

const HORSE: &str = r#"{
"X:H": {
"b1": {
"a3": [{ "must": { "b2": "empty", "a3": "empty" } }, { "must": { "b2": "empty", "a3": "enemy" } }],
"c3": [{ "must": { "b2": "empty", "c3": "empty" } }, { "must": { "b2": "empty", "c3": "enemy" } }],
"d2": [{ "must": { "c1": "empty", "d2": "empty" } }, { "must": { "c1": "empty", "d2": "enemy" } }]
}
}
}"#;

/// 5.7: an orthogonal step then a diagonal one; the leg must be empty.
#[test]
fn seed_5_7_horse() {
    let seed = Ggn::from_json(HORSE).unwrap();
    assert_eq!(
        pmn(&seed.moves(&south(&[("b1", "H")]))),
        ["b1-a3", "b1-c3", "b1-d2"]
    );
    // A piece of either side on b2 blocks the two northern leaps.
    for leg in ["S", "s"] {
        let pos = south(&[("b1", "H"), ("b2", leg), ("d2", "r")]);
        assert_eq!(pmn(&seed.moves(&pos)), ["b1+d2"]);
    }
    found_in(&seed, &ggn::xiongqi_table(), Shows::Everything);
}

const CHARIOT: &str = r#"{
"X:R": {
"a1": {
"a4": [
{ "must": { "a2": "empty", "a3": "empty", "a4": "empty" } },
{ "must": { "a2": "empty", "a3": "empty", "a4": "enemy" } }
]
}
}
}"#;

/// 5.8: any number of squares orthogonally, clear path.
#[test]
fn seed_5_8_chariot() {
    let seed = Ggn::from_json(CHARIOT).unwrap();
    assert_eq!(
        pmn(&seed.moves(&south(&[("a1", "R"), ("a4", "s")]))),
        ["a1+a4"]
    );
    assert!(seed
        .moves(&south(&[("a1", "R"), ("a3", "s"), ("a4", "s")]))
        .is_empty());
    found_in(&seed, &ggn::xiongqi_table(), Shows::Destinations);
}

const SOLDIER: &str = r#"{
"X:S": {
"e3": {
"e4": [{ "must": { "e4": "empty" } }, { "must": { "e4": "enemy" } }]
}
}
}"#;

/// 5.9: one square forward only before the river (the mutation S → +S on crossing is the
/// rules' business, X1).
#[test]
fn seed_5_9_soldier() {
    let seed = Ggn::from_json(SOLDIER).unwrap();
    assert_eq!(pmn(&seed.moves(&south(&[("e3", "S")]))), ["e3-e4"]);
    assert_eq!(
        pmn(&seed.moves(&south(&[("e3", "S"), ("e4", "s")]))),
        ["e3+e4"]
    );
    // The crossed soldier is another identity: the seed's S entry says nothing of +S.
    assert!(seed.moves(&south(&[("e3", "+S")])).is_empty());
    found_in(&seed, &ggn::xiongqi_table(), Shows::Everything);
    // North's soldier goes the other way.
    let table = ggn::xiongqi_table();
    let north = board(8, 8, &[("e6", "s")], Side::Second);
    assert_eq!(pmn(&table.moves(&north)), ["e6-e5"]);
}

const CROSSED_SOLDIER: &str = r#"{
"X:+S": {
"e5": {
"d5": [{ "must": { "d5": "empty" } }, { "must": { "d5": "enemy" } }],
"e6": [{ "must": { "e6": "empty" } }, { "must": { "e6": "enemy" } }],
"f5": [{ "must": { "f5": "empty" } }, { "must": { "f5": "enemy" } }]
}
}
}"#;

/// 5.10: one square forward or sideways after the river, never backward.
#[test]
fn seed_5_10_crossed_soldier() {
    let seed = Ggn::from_json(CROSSED_SOLDIER).unwrap();
    let pos = south(&[("e5", "+S"), ("e4", "s"), ("f5", "s")]);
    assert_eq!(pmn(&seed.moves(&pos)), ["e5-d5", "e5-e6", "e5+f5"]);
    found_in(&seed, &ggn::xiongqi_table(), Shows::Everything);
}

/// The digest (sashite-notations.md, GGN): "the cannon's capture c2→c8 needs c3–c6 empty,
/// c8 enemy, and c7 *not* empty"; a move is pseudo-legal when one possibility holds.
#[test]
fn digest_cannon_capture() {
    let seed = Ggn::from_json(CANNON).unwrap();
    let cannon = qpi("X:C");
    let p = &seed.possibilities(cannon, cell("c2"), cell("c8"))[0];
    for c in ["c3", "c4", "c5", "c6"] {
        assert_eq!(p.must[&cell(c)].to_string(), "empty");
    }
    assert_eq!(p.must[&cell("c8")].to_string(), "enemy");
    assert_eq!(p.deny[&cell("c7")].to_string(), "empty");
    let with = south(&[("c2", "C"), ("c7", "h"), ("c8", "g^")]);
    let m = seed
        .moves(&with)
        .into_iter()
        .find(|m| m.to == cell("c8"))
        .unwrap();
    assert_eq!(m.captured, Some(qpi("x:g^")));
    // Its effect: the general goes to South's hand, the cannon to c8, North to move.
    assert_eq!(
        m.apply(&with).unwrap().to_string(),
        "2C5/2h5/8/8/8/8/8/8 g^/ x/X"
    );
}

// ------------------------------------------------------------------ the tables' shape

/// Snapshots of a few entries of each table, exactly as written.
#[test]
fn table_snapshots() {
    let x = ggn::xiongqi_table();
    let entry = |t: &Ggn, piece: &str, from: &str| {
        serde_json::to_string(t.destinations(qpi(piece), cell(from)).unwrap()).unwrap()
    };
    assert_eq!(
        entry(&x, "x:+s", "a1"),
        r#"{"b1":[{"must":{"b1":"empty"}},{"must":{"b1":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&x, "x:s", "h5"),
        r#"{"h4":[{"must":{"h4":"empty"}},{"must":{"h4":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&x, "X:G^", "a1"),
        r#"{"a2":[{"must":{"a2":"empty"}},{"must":{"a2":"enemy"}}],"b1":[{"must":{"b1":"empty"}},{"must":{"b1":"enemy"}}]}"#
    );
    assert_eq!(
        serde_json::to_string(x.possibilities(qpi("x:c"), cell("h8"), cell("h5"))).unwrap(),
        r#"[{"must":{"h6":"empty","h7":"empty","h5":"empty"}},{"must":{"h6":"empty","h5":"enemy"},"deny":{"h7":"empty"}},{"must":{"h7":"empty","h5":"enemy"},"deny":{"h6":"empty"}}]"#
    );
    assert_eq!(
        serde_json::to_string(x.possibilities(qpi("x:d^"), cell("h8"), cell("h7"))).unwrap(),
        r#"[{"must":{"h7":"empty"}},{"must":{"h7":"enemy"}}]"#
    );
    assert_eq!(
        serde_json::to_string(x.possibilities(qpi("x:d^"), cell("h8"), cell("f8"))).unwrap(),
        r#"[{"must":{"g8":"empty","f8":"enemy"}}]"#
    );
    // No soldier before the river stands across it, and the reverse.
    assert!(x.destinations(qpi("X:S"), cell("e5")).is_none());
    assert!(x.destinations(qpi("X:+S"), cell("e4")).is_none());
    // On the far rank a crossed soldier only goes sideways.
    assert_eq!(
        entry(&x, "X:+S", "h8"),
        r#"{"g8":[{"must":{"g8":"empty"}},{"must":{"g8":"enemy"}}]}"#
    );

    let q = ggn::xiangqi_table(RuleSet::Standard);
    assert_eq!(
        entry(&q, "X:A", "d1"),
        r#"{"e2":[{"must":{"e2":"empty"}},{"must":{"e2":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&q, "x:e", "e8"),
        r#"{"c6":[{"must":{"d7":"empty","c6":"empty"}},{"must":{"d7":"empty","c6":"enemy"}}],"c10":[{"must":{"d9":"empty","c10":"empty"}},{"must":{"d9":"empty","c10":"enemy"}}],"g6":[{"must":{"f7":"empty","g6":"empty"}},{"must":{"f7":"empty","g6":"enemy"}}],"g10":[{"must":{"f9":"empty","g10":"empty"}},{"must":{"f9":"empty","g10":"enemy"}}]}"#
    );
    // The elephant never crosses the river, the general never leaves its palace.
    assert_eq!(q.destinations(qpi("X:E"), cell("c5")).unwrap().len(), 2);
    assert_eq!(
        entry(&q, "X:G^", "d3"),
        r#"{"d2":[{"must":{"d2":"empty"}},{"must":{"d2":"enemy"}}],"e3":[{"must":{"e3":"empty"}},{"must":{"e3":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&q, "X:H", "a1"),
        r#"{"b3":[{"must":{"a2":"empty","b3":"empty"}},{"must":{"a2":"empty","b3":"enemy"}}],"c2":[{"must":{"b1":"empty","c2":"empty"}},{"must":{"b1":"empty","c2":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&q, "X:+S", "a10"),
        r#"{"b10":[{"must":{"b10":"empty"}},{"must":{"b10":"enemy"}}]}"#
    );
    assert_eq!(
        entry(&q, "X:S", "c5"),
        r#"{"c6":[{"must":{"c6":"empty"}},{"must":{"c6":"enemy"}}]}"#
    );
    // Where no piece of that kind can stand, no entry.
    for (piece, from) in [
        ("X:A", "e1"),
        ("X:E", "e1"),
        ("X:G^", "c1"),
        ("X:S", "e3"),
        ("X:+S", "e5"),
        ("x:s", "e8"),
    ] {
        assert!(
            q.destinations(qpi(piece), cell(from)).is_none(),
            "{piece} {from}"
        );
    }
    assert!(q
        .possibilities(qpi("X:G^"), cell("e1"), cell("e10"))
        .is_empty());

    // xiangqi-capture: the flying capture of C2, onto the enemy general only.
    let c = ggn::xiangqi_table(RuleSet::Capture);
    assert_eq!(
        serde_json::to_string(c.possibilities(qpi("x:g^"), cell("d8"), cell("d3"))).unwrap(),
        r#"[{"must":{"d4":"empty","d5":"empty","d6":"empty","d7":"empty","d3":"X:G^"}}]"#
    );
    assert_eq!(c.destinations(qpi("X:G^"), cell("e1")).unwrap().len(), 6);
    let mut without = c.clone();
    for side in ["X:G^", "x:g^"] {
        without.0.remove(&qpi(side));
    }
    let mut standard = q.clone();
    for side in ["X:G^", "x:g^"] {
        standard.0.remove(&qpi(side));
    }
    assert_eq!(
        without, standard,
        "the rule sets differ by the general only"
    );
}

/// Both sides have the same table, ranks mirrored; the tables are deterministic.
#[test]
fn tables_are_symmetric_and_deterministic() {
    for kind in GameKind::ALL {
        let table = ggn::table(kind);
        assert_eq!(table.to_json(), ggn::table(kind).to_json(), "{kind}");
        let ranks = if kind == GameKind::Xiongqi { 8 } else { 10 };
        let flip = |c: Cell| Cell::new(c.file(), ranks - 1 - c.rank());
        let mut entries = 0;
        for (&piece, sources) in &table.0 {
            let other = Qpi {
                sin: piece.sin.with_side(!piece.side()),
                pin: piece.pin.with_side(!piece.side()),
            };
            for (&from, destinations) in sources {
                for (&to, possibilities) in destinations {
                    let mirrored = table.possibilities(other, flip(from), flip(to));
                    assert_eq!(mirrored.len(), possibilities.len(), "{piece} {from} {to}");
                    for (p, m) in possibilities.iter().zip(mirrored) {
                        let flipped: Vec<_> = p.must.iter().map(|(c, _)| flip(c)).collect();
                        let theirs: Vec<_> = m.must.iter().map(|(c, _)| c).collect();
                        let (mut a, mut b) = (flipped.clone(), theirs.clone());
                        a.sort();
                        b.sort();
                        assert_eq!(a, b, "{piece} {from} {to}");
                        assert_eq!(p.deny.len(), m.deny.len());
                    }
                    entries += 1;
                }
            }
        }
        assert!(entries > 7000, "{kind}: {entries} entries");
    }
}

// ------------------------------------------------------------------ against the bitboards

/// (from, to) pairs.
type Pairs = BTreeSet<(Cell, Cell)>;

/// The interpreter's moves as pairs; each pair at most once, and a capture only of an enemy.
fn interpreted<P: GamePosition>(table: &Ggn, pos: &P) -> Pairs {
    let moves = ggn::moves(table, pos);
    let pairs: Pairs = moves.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(pairs.len(), moves.len(), "duplicates in {}", pos.to_feen());
    for m in &moves {
        assert_eq!(m.piece.side(), pos.turn());
        if let Some(victim) = m.captured {
            assert_ne!(victim.side(), pos.turn(), "{m:?} in {}", pos.to_feen());
        }
    }
    pairs
}

/// The two sets are equal; else the pairs only one has, written `from-to`.
fn assert_same(got: Pairs, expected: Pairs, context: &str) {
    let show = |pairs: Vec<&(Cell, Cell)>| {
        pairs
            .iter()
            .map(|(f, t)| format!("{f}-{t}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        got == expected,
        "{context}: only GGN: [{}]; only bitboards: [{}]",
        show(got.difference(&expected).collect()),
        show(expected.difference(&got).collect())
    );
}

/// Plays `games` seeded random games of `plies` plies through the arbiter and calls `check` on
/// every position reached.
fn random_positions<P: GamePosition>(
    config: P::Config,
    games: u64,
    plies: usize,
    mut check: impl FnMut(&P),
) -> usize {
    let mut positions = 0;
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(0x6767_6E00 + seed);
        let mut game = Game::<P>::start(config);
        check(game.position());
        positions += 1;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.gen_range(0..moves.len())])
                .expect("a generated move plays");
            check(game.position());
            positions += 1;
        }
    }
    positions
}

/// What the positions exercised, so that the agreement means something.
#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    captures: usize,
    identities: BTreeSet<String>,
    cannon_captures: usize,
    flying: usize,
}

impl Seen {
    fn note<P: GamePosition>(&mut self, pos: &P, table: &Ggn) {
        let moves = ggn::moves(table, pos);
        self.moves += moves.len();
        for m in moves {
            self.identities.insert(m.piece.to_string());
            if let Some(victim) = m.captured {
                self.captures += 1;
                if m.piece.pin.letter().eq_ignore_ascii_case(&'C') {
                    self.cannon_captures += 1;
                }
                if m.piece.pin.is_terminal() && victim.pin.is_terminal() {
                    self.flying += 1;
                }
            }
        }
    }
}

/// Xiongqi: on every position of 200 random games of 100 plies, with either side to move, the
/// interpreter with chuhe's table lists exactly the (from, to) pairs of
/// `xiongqi::Position::generate_moves` — the movement rules, before:
/// - promotion choices (X2: one GGN move stands for the seven generated moves of a soldier
///   reaching the far rank, so pairs are compared);
/// - repetition (X6: a history constraint, applied by `Game`);
/// - the end of the game (X7: `legal_moves` is empty in a finished position, the movement
///   table is not).
///
/// The river crossing (X1) and the face-to-face transformation (X3) are effects of a move,
/// never a reason to forbid one: nothing to exclude.
#[test]
fn xiongqi_table_agrees_with_the_bitboards() {
    let table = ggn::xiongqi_table();
    let mut seen = Seen::default();
    let positions = random_positions::<xiongqi::Position>((), 200, 100, |pos| {
        for side in Side::BOTH {
            let pos = pos.with_turn(side);
            let mut list = xiongqi::MoveList::new();
            pos.generate_moves(&mut list);
            let expected: Pairs = list
                .iter()
                .map(|m| (m.from().cell(), m.to().cell()))
                .collect();
            assert_same(interpreted(&table, &pos), expected, &pos.to_feen());
            seen.note(&pos, &table);
        }
    });
    assert!(positions > 15_000, "{positions} positions");
    eprintln!("xiongqi: {positions} positions, {seen:?}");
    for identity in [
        "X:G^", "x:g^", "X:D^", "x:d^", "X:E", "x:e", "X:+S", "x:+s", "X:B", "x:h",
    ] {
        assert!(seen.identities.contains(identity), "{identity} never moved");
    }
    assert!(
        seen.cannon_captures > 1000 && seen.captures > 10_000,
        "{seen:?}"
    );
}

/// Xiangqi: on every position of 200 random games of 100 plies (half under each rule set), with
/// either side to move, the interpreter with each rule set's table lists exactly the pairs of
/// `xiangqi::Position::generate_pseudo_legal` under that rule set — the movement rules before:
/// - S1 (`xiangqi`): a move leaving one's own general attacked, or the generals facing, is
///   pseudo-legal; the flying general is a check, not a move, so the table has no such move;
/// - the ends of game (S2–S6, C3–C4).
///
/// Under `xiangqi-capture` the flying capture of the general (C2) is a move and is in the
/// table.
#[test]
fn xiangqi_tables_agree_with_the_bitboards() {
    let standard = ggn::xiangqi_table(RuleSet::Standard);
    let capture = ggn::xiangqi_table(RuleSet::Capture);
    let mut seen = Seen::default();
    let mut positions = 0;
    for rules in [RuleSet::Standard, RuleSet::Capture] {
        positions += random_positions::<xiangqi::Position>(rules, 100, 100, |pos| {
            for side in Side::BOTH {
                for (rules, table) in [(RuleSet::Standard, &standard), (RuleSet::Capture, &capture)]
                {
                    let pos = pos.with_turn(side).with_rules(rules);
                    let mut list = xiangqi::MoveList::new();
                    pos.generate_pseudo_legal(&mut list);
                    let expected: Pairs = list
                        .iter()
                        .map(|m| (m.from().cell(), m.to().cell()))
                        .collect();
                    let context = format!("{rules:?} {}", pos.to_feen());
                    assert_same(interpreted(table, &pos), expected, &context);
                    if rules == RuleSet::Capture {
                        seen.note(&pos, table);
                    }
                }
            }
        });
    }
    assert!(positions > 15_000, "{positions} positions");
    eprintln!("xiangqi: {positions} positions, {seen:?}");
    for identity in [
        "X:G^", "x:g^", "X:A", "x:e", "X:H", "x:r", "X:C", "X:S", "x:s", "X:+S", "x:+s",
    ] {
        assert!(seen.identities.contains(identity), "{identity} never moved");
    }
    assert!(
        seen.flying > 0,
        "no flying capture was ever possible: {seen:?}"
    );
    assert!(seen.cannon_captures > 1000, "{seen:?}");
}

/// The start positions, through [`ggn::moves`] and the game's own FEEN.
#[test]
fn start_positions() {
    let x = ggn::moves(&ggn::xiongqi_table(), &xiongqi::Position::start());
    assert_eq!(x.len(), 26);
    let q = ggn::moves(
        &ggn::xiangqi_table(RuleSet::Standard),
        &xiangqi::Position::start(),
    );
    assert_eq!(q.len(), 44);
    assert_eq!(q.iter().filter(|m| m.is_capture()).count(), 2);
}
