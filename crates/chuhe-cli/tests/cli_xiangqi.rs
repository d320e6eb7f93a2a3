//! Integration tests of the `chuhe` command line for Xiangqi (`--game xiangqi` and
//! `--game xiangqi-capture`) against its contract: perft, moves in every notation, convert,
//! replay, show, the end-of-game rules S1–S5 and C1–C4 (`/work/shared/docs/xiangqi-rules.md`,
//! `docs/pyffish-xiangqi.md`), and one-line errors with exit code 2.
//!
//! Every test runs the real binary; the whole file stays well under a few seconds.
//! The WXF cases are in the tests named `wxf_…`, the Chinese notation's in `chinese_…`.

mod common;

use std::collections::BTreeSet;

use common::*;
use serde_json::Value;

const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const START_FEEN: &str = "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x";
/// The start placement without the other FEN fields.
const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// `a1d1` mates the general on d10 (S2): e10 would face the red general.
const MATE: &str = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
/// `c8c9` leaves Black without a move, not in check (S2 stalemate).
const STALEMATE: &str = "3k5/9/2R6/9/9/9/9/9/9/4K4 w - - 0 1";
/// A red chariot against the black general (pyffish-xiangqi.md, "Perpetual check").
const PERP: &str = "3k5/4a4/9/9/4r4/9/9/9/R8/5K3 w - - 0 1";
/// Both red moves of this cycle give check.
const C1: &str = "d10d9 a10a9 d9d10 a9a10";
/// `a10a8` does not give check.
const C2: &str = "d10d9 a10a8 d9d10 a8a10";
/// The generals face each other on the e-file (C2: flying general capture).
const FLYING: &str = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
/// A horse shuffle that brings the start position back twice (plies 4 and 8).
const SHUFFLE: &str = "h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10";
/// A several-move opening, in UCI (pyffish-xiangqi.md, last row of the WXF table).
const OPENING_UCI: [&str; 6] = ["h3e3", "h10g8", "h1g3", "c10e8", "a1a3", "i10h10"];

/// The 44 legal moves of the start position in every notation, sorted as the CLI prints them.
const START_UCI: [&str; 44] = [
    "a1a2", "a1a3", "a4a5", "b1a3", "b1c3", "b3a3", "b3b10", "b3b2", "b3b4", "b3b5", "b3b6",
    "b3b7", "b3c3", "b3d3", "b3e3", "b3f3", "b3g3", "c1a3", "c1e3", "c4c5", "d1e2", "e1e2", "e4e5",
    "f1e2", "g1e3", "g1i3", "g4g5", "h1g3", "h1i3", "h3c3", "h3d3", "h3e3", "h3f3", "h3g3",
    "h3h10", "h3h2", "h3h4", "h3h5", "h3h6", "h3h7", "h3i3", "i1i2", "i1i3", "i4i5",
];
const START_PMN: [&str; 44] = [
    "a1-a2", "a1-a3", "a4-a5", "b1-a3", "b1-c3", "b3+b10", "b3-a3", "b3-b2", "b3-b4", "b3-b5",
    "b3-b6", "b3-b7", "b3-c3", "b3-d3", "b3-e3", "b3-f3", "b3-g3", "c1-a3", "c1-e3", "c4-c5",
    "d1-e2", "e1-e2", "e4-e5", "f1-e2", "g1-e3", "g1-i3", "g4-g5", "h1-g3", "h1-i3", "h3+h10",
    "h3-c3", "h3-d3", "h3-e3", "h3-f3", "h3-g3", "h3-h2", "h3-h4", "h3-h5", "h3-h6", "h3-h7",
    "h3-i3", "i1-i2", "i1-i3", "i4-i5",
];
const START_ICCS: [&str; 44] = [
    "a0a1", "a0a2", "a3a4", "b0a2", "b0c2", "b2a2", "b2b1", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9",
    "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "c0a2", "c0e2", "c3c4", "d0e1", "e0e1", "e3e4", "f0e1",
    "g0e2", "g0i2", "g3g4", "h0g2", "h0i2", "h2c2", "h2d2", "h2e2", "h2f2", "h2g2", "h2h1", "h2h3",
    "h2h4", "h2h5", "h2h6", "h2h9", "h2i2", "i0i1", "i0i2", "i3i4",
];
const START_TEACHING: [&str; 44] = [
    "a1a2", "a1a3", "a4a5", "b1a3", "b1c3", "b3a3", "b3b0", "b3b2", "b3b4", "b3b5", "b3b6", "b3b7",
    "b3c3", "b3d3", "b3e3", "b3f3", "b3g3", "c1a3", "c1e3", "c4c5", "d1e2", "e1e2", "e4e5", "f1e2",
    "g1e3", "g1i3", "g4g5", "h1g3", "h1i3", "h3c3", "h3d3", "h3e3", "h3f3", "h3g3", "h3h0", "h3h2",
    "h3h4", "h3h5", "h3h6", "h3h7", "h3i3", "i1i2", "i1i3", "i4i5",
];
const START_WXF: [&str; 44] = [
    "A4+5", "A6+5", "C2+1", "C2+2", "C2+3", "C2+4", "C2+7", "C2-1", "C2=1", "C2=3", "C2=4", "C2=5",
    "C2=6", "C2=7", "C8+1", "C8+2", "C8+3", "C8+4", "C8+7", "C8-1", "C8=3", "C8=4", "C8=5", "C8=6",
    "C8=7", "C8=9", "E3+1", "E3+5", "E7+5", "E7+9", "H2+1", "H2+3", "H8+7", "H8+9", "K5+1", "P1+1",
    "P3+1", "P5+1", "P7+1", "P9+1", "R1+1", "R1+2", "R9+1", "R9+2",
];

const NOTATIONS: [&str; 7] = ["pmn", "uci", "iccs", "wxf", "teaching", "chinese", "san"];

/// The CGSN status words a Xiangqi game may end with.
const STATUSES: [&str; 9] = [
    "checkmate",
    "stalemate",
    "repetition",
    "movelimit",
    "insufficient",
    "mareking",
    "resignation",
    "timelimit",
    "agreement",
];

// ---------------------------------------------------------------- helpers

/// Asserts that an error line reads `illegal move 'MOVE' at ply PLY: …`.
fn assert_illegal(line: &str, mv: &str, ply: usize) {
    let prefix = format!("illegal move '{mv}' at ply {ply}: ");
    assert!(
        line.starts_with(&prefix),
        "expected {prefix:?}…, got {line:?}"
    );
    assert!(line.len() > prefix.len(), "no reason given: {line:?}");
}

/// `chuhe moves --json --game GAME --position POSITION --notation NOTATION --moves MOVES`
/// with the shape of the answer checked.
fn moves_in(game: &str, position: &str, moves: &str, notation: &str) -> Value {
    let value = ok_json(&[
        "moves",
        "--json",
        "--game",
        game,
        "--position",
        position,
        "--notation",
        notation,
        "--moves",
        moves,
    ]);
    check_moves_shape(&value, game);
    value
}

/// Standard Xiangqi, UCI moves.
fn xq(position: &str, moves: &str) -> Value {
    moves_in("xiangqi", position, moves, "uci")
}

/// Teaching rules (`xiangqi-capture`), UCI moves.
fn xqc(position: &str, moves: &str) -> Value {
    moves_in("xiangqi-capture", position, moves, "uci")
}

/// Checks the field set and the types of a Xiangqi `moves --json` answer.
fn check_moves_shape(value: &Value, game: &str) {
    assert_eq!(
        keys(value),
        set(&[
            "game", "position", "fen", "turn", "halfmove", "moves", "check", "status", "winner",
            "reason"
        ]),
        "moves JSON fields: {value}"
    );
    // The deciding rule, for a repetition only.
    match value["status"].as_str() {
        Some("repetition") => assert!(
            ["perpetual check", "perpetual chase", "plain repetition"]
                .contains(&value["reason"].as_str().unwrap_or("")),
            "{value}"
        ),
        _ => assert_eq!(value["reason"], Value::Null, "{value}"),
    }
    assert_eq!(value["game"], game);
    let feen = value["position"].as_str().expect("position is a string");
    assert_eq!(feen.split(' ').count(), 3, "position is a FEEN: {feen}");
    let fen = value["fen"].as_str().expect("fen is a string");
    assert_eq!(fen.split(' ').count(), 6, "fen has six fields: {fen}");
    let turn = value["turn"].as_str().expect("turn is a string");
    match turn {
        "first" => assert_eq!(fen.split(' ').nth(1), Some("w"), "{fen}"),
        "second" => assert_eq!(fen.split(' ').nth(1), Some("b"), "{fen}"),
        _ => panic!("turn = {turn}"),
    }
    let halfmove = value["halfmove"].as_u64().expect("halfmove is an integer");
    assert_eq!(
        fen.split(' ').nth(4),
        Some(halfmove.to_string().as_str()),
        "the FEN's counter is the halfmove: {value}"
    );
    assert!(value["check"].is_boolean());
    let list = move_list(value);
    check_sorted(&list);
    check_outcome(value, &list, &STATUSES);
}

fn fen_of(value: &Value) -> &str {
    value["fen"].as_str().expect("fen is a string")
}

/// `chuhe replay --json …` as an array of ply objects, shape checked.
fn replay(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["replay", "--json"];
    all.extend_from_slice(args);
    let value = ok_value(&all);
    let plies = value.as_array().expect("replay prints one array").clone();
    assert!(!plies.is_empty(), "replay has at least ply 0");
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(
            keys(ply),
            set(&[
                "ply", "position", "fen", "turn", "halfmove", "legal", "check", "status", "winner",
                "reason", "move"
            ]),
            "replay fields: {ply}"
        );
        assert_eq!(ply["ply"], i, "{ply}");
        assert!(ply["position"].is_string() && ply["fen"].is_string());
        assert!(ply["halfmove"].is_u64() && ply["check"].is_boolean());
        let legal = strings(&ply["legal"]);
        check_sorted(&legal);
        check_outcome(ply, &legal, &STATUSES);
        if i + 1 == plies.len() {
            assert_eq!(ply["move"], Value::Null, "the last ply has no move");
        } else {
            assert_eq!(keys(&ply["move"]), set(&NOTATIONS), "{ply}");
            for n in NOTATIONS {
                assert!(ply["move"][n].is_string(), "{ply}");
            }
            assert_eq!(ply["status"], Value::Null, "a move after the end: {ply}");
        }
    }
    plies
}

/// `chuhe convert --game xiangqi [--position P] --from N1 --to N2 MOVE…`, one line per move.
fn convert(position: &str, from: &str, to: &str, moves: &[&str]) -> Vec<String> {
    let mut all = vec![
        "convert",
        "--game",
        "xiangqi",
        "--position",
        position,
        "--from",
        from,
        "--to",
        to,
    ];
    all.extend_from_slice(moves);
    let out = ok(&all);
    assert!(out.is_empty() || out.ends_with('\n'), "{out:?}");
    out.lines().map(str::to_string).collect()
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_start_position() {
    for (depth, nodes) in [(1, 44u64), (2, 1920), (3, 79666), (4, 3290240)] {
        for position in ["start", START_FEN, START_FEEN] {
            let value = perft_json(depth, &["--game", "xiangqi", "--position", position]);
            assert_eq!(value["depth"], depth);
            assert_eq!(value["nodes"], nodes, "perft {depth} from {position}");
        }
        let out = ok(&["perft", &depth.to_string(), "--game", "xiangqi"]);
        assert!(
            out.contains(&format!("perft {depth}: {nodes} nodes")),
            "{out}"
        );
    }
}

#[test]
fn perft_data_rows_up_to_depth_3() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft-xiangqi.txt");
    let text = std::fs::read_to_string(path).expect("data/perft-xiangqi.txt");
    let mut fen = String::new();
    let mut checked = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
            let depth: u32 = depth.parse().unwrap();
            let nodes: u64 = nodes.parse().unwrap();
            if depth <= 3 {
                let value = perft_json(depth, &["--game", "xiangqi", "--position", &fen]);
                assert_eq!(value["nodes"], nodes, "perft {depth} of {fen}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 15, "five positions, depths 1 to 3");
}

#[test]
fn perft_divide_in_each_notation() {
    for (notation, moves) in [
        ("pmn", START_PMN),
        ("uci", START_UCI),
        ("iccs", START_ICCS),
        ("wxf", START_WXF),
        ("teaching", START_TEACHING),
    ] {
        let value = perft_json(
            2,
            &["--game", "xiangqi", "--divide", "--notation", notation],
        );
        assert_eq!(value["nodes"], 1920);
        let split = value["divide"].as_object().unwrap();
        let got: BTreeSet<&str> = split.keys().map(String::as_str).collect();
        assert_eq!(got, set(&moves), "divide keys in {notation}");
    }
    // A cannon taking a horse on the back rank pins the elephant and advisor beside it:
    // Black then has 41 replies, not 44 (c10a8, c10e8 and d10e9 would uncover the general).
    let value = perft_json(2, &["--game", "xiangqi", "--divide", "--notation", "uci"]);
    assert_eq!(value["divide"]["b3b10"], 41);
    assert_eq!(value["divide"]["h3h10"], 41);
    assert_eq!(value["divide"]["a1a2"], 44);
    let out = ok(&["perft", "2", "--game", "xiangqi", "--divide"]);
    assert!(out.lines().any(|l| l == "b3+b10: 41"), "{out}");
    assert!(out.contains("perft 2: 1920 nodes"), "{out}");
}

#[test]
fn perft_capture_rules() {
    // C1: every movement-valid move counts, so the three pinned replies above are legal there.
    let value = perft_json(1, &["--game", "xiangqi-capture"]);
    assert_eq!(value["nodes"], 44);
    let value = perft_json(
        2,
        &["--game", "xiangqi-capture", "--divide", "--notation", "uci"],
    );
    assert_eq!(value["nodes"], 1926);
    assert_eq!(value["divide"]["b3b10"], 44);
    assert_eq!(value["divide"]["h3h10"], 44);
    for (depth, standard) in [(3, 79666u64), (4, 3290240)] {
        let value = perft_json(depth, &["--game", "xiangqi-capture", "--divide"]);
        assert!(value["nodes"].as_u64().unwrap() > standard, "{value}");
        let again = perft_json(
            depth,
            &["--game", "xiangqi-capture", "--position", START_FEN],
        );
        assert_eq!(again["nodes"], value["nodes"]);
    }
}

// ---------------------------------------------------------------- moves

#[test]
fn moves_start_in_each_notation() {
    for (notation, expected) in [
        ("pmn", START_PMN),
        ("uci", START_UCI),
        ("iccs", START_ICCS),
        ("teaching", START_TEACHING),
    ] {
        for position in ["start", START_FEN, START_FEEN] {
            let value = moves_in("xiangqi", position, "", notation);
            assert_eq!(move_list(&value), expected, "{notation} from {position}");
            assert_eq!(value["position"], START_FEEN);
            assert_eq!(value["fen"], START_FEN);
            assert_eq!(value["turn"], "first");
            assert_eq!(value["halfmove"], 0);
            assert_eq!(value["check"], false);
            assert_eq!(value["status"], Value::Null);
            assert_eq!(value["winner"], Value::Null);
        }
        let out = ok(&["moves", "--game", "xiangqi", "--notation", notation]);
        assert_eq!(out.lines().collect::<Vec<_>>(), expected, "text {notation}");
    }
    // The default notation is PMN.
    let value = ok_json(&["moves", "--game", "xiangqi", "--json"]);
    assert_eq!(move_list(&value), START_PMN);
}

#[test]
fn wxf_moves_start() {
    let value = moves_in("xiangqi", "start", "", "wxf");
    assert_eq!(move_list(&value), START_WXF);
    let out = ok(&["moves", "--game", "xiangqi", "--notation", "wxf"]);
    assert_eq!(out.lines().collect::<Vec<_>>(), START_WXF);
}

#[test]
fn chinese_moves_start_and_moves_read_in_chinese() {
    let out = ok(&["moves", "--game", "xiangqi", "--notation", "chinese"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 44, "{out}");
    for m in [
        "炮二平五",
        "马二进三",
        "马八进七",
        "兵七进一",
        "相三进五",
        "仕四进五",
        "车一进一",
    ] {
        assert!(lines.contains(&m), "{m}: {out}");
    }
    // The same 44 moves as WXF, one for one.
    let value = moves_in("xiangqi", "start", "", "chinese");
    assert_eq!(move_list(&value).len(), 44);
    // --moves in Chinese, both sides' numerals, and the traditional glyphs.
    for moves in ["炮二平五 马8进7", "炮二平五  馬８進７", "砲二平五 马八进七"]
    {
        let value = moves_in("xiangqi", "start", moves, "chinese");
        assert_eq!(
            value["fen"], "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
            "{moves}"
        );
        assert!(
            move_list(&value).contains(&"马二进三".to_string()),
            "{value}"
        );
    }
    // The same moves in UCI give the same position.
    assert_eq!(
        moves_in("xiangqi", "start", "炮二平五 马8进7", "chinese")["fen"],
        xq("start", "h3e3 h10g8")["fen"]
    );
    // An illegal or unreadable Chinese move is one line, naming the ply.
    let err = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--notation",
        "chinese",
        "--moves",
        "炮二平五 马8进5",
    ]);
    assert_illegal(&err, "马8进5", 2);
    assert!(err.contains("horses land one or two files over"), "{err}");
    let err = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--notation",
        "chinese",
        "--moves",
        "王二平五",
    ]);
    assert!(err.contains("'王' is not a Chinese piece name"), "{err}");
    // The capture rules write it too.
    let value = moves_in("xiangqi-capture", "start", "炮二平五", "chinese");
    assert!(move_list(&value).contains(&"马8进7".to_string()), "{value}");
}

#[test]
fn chinese_convert_and_replay() {
    let chinese = [
        "炮二平五",
        "马8进7",
        "马二进三",
        "象3进5",
        "车九进二",
        "车9平8",
    ];
    let wxf = ["C2=5", "H8+7", "H2+3", "E3+5", "R9+2", "R9=8"];
    assert_eq!(convert("start", "uci", "chinese", &OPENING_UCI), chinese);
    assert_eq!(convert("start", "chinese", "uci", &chinese), OPENING_UCI);
    assert_eq!(convert("start", "chinese", "wxf", &chinese), wxf);
    assert_eq!(convert("start", "wxf", "chinese", &wxf), chinese);
    assert_eq!(
        convert("start", "chinese", "chinese", &[&chinese.join(" ")]),
        chinese
    );
    // replay writes every move in Chinese too.
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--moves",
        &chinese.join(" "),
        "--notation",
        "chinese",
    ]);
    let written: Vec<&str> = plies[..6]
        .iter()
        .map(|p| p["move"]["chinese"].as_str().unwrap())
        .collect();
    assert_eq!(written, chinese);
    assert!(strings(&plies[6]["legal"])
        .iter()
        .all(|m| m.chars().count() == 4));
}

#[test]
fn moves_same_move_in_each_notation() {
    // h3e3 (uci) = h2e2 (iccs) = h3-e3 (pmn) = h3e3 (teaching); b3b10 = b3+b10 = b2b9 = b3b0.
    for (uci, pmn, iccs, teaching) in [
        ("h3e3", "h3-e3", "h2e2", "h3e3"),
        ("b3b10", "b3+b10", "b2b9", "b3b0"),
        ("h1g3", "h1-g3", "h0g2", "h1g3"),
    ] {
        let expected = xq("start", uci);
        for (notation, text) in [
            ("uci", uci),
            ("pmn", pmn),
            ("iccs", iccs),
            ("teaching", teaching),
        ] {
            let value = moves_in("xiangqi", "start", text, notation);
            assert_eq!(value["position"], expected["position"], "{notation} {text}");
            assert_eq!(value["fen"], expected["fen"], "{notation} {text}");
        }
    }
    // Every start move names the same move in every notation (replay writes them all):
    // ICCS is UCI with ranks one lower, the teaching notation writes rank 10 as 0, PMN puts
    // `-` (or `+` for a capture) between the points.
    for uci in START_UCI {
        let plies = replay(&["--game", "xiangqi", "--notation", "uci", "--moves", uci]);
        let texts = &plies[0]["move"];
        assert_eq!(texts["uci"], uci);
        let (from, to) = split_points(uci);
        let iccs = format!("{}{}", lower_rank(from), lower_rank(to));
        assert_eq!(texts["iccs"], iccs, "{texts}");
        assert_eq!(texts["teaching"], uci.replace("10", "0"), "{texts}");
        let sep = if to.ends_with("10") { '+' } else { '-' };
        assert_eq!(texts["pmn"], format!("{from}{sep}{to}"), "{texts}");
        for (list, n) in [
            (&START_PMN, "pmn"),
            (&START_ICCS, "iccs"),
            (&START_TEACHING, "teaching"),
        ] {
            assert!(list.contains(&texts[n].as_str().unwrap()), "{texts}");
        }
    }
}

/// `b3b10` → (`b3`, `b10`).
fn split_points(uci: &str) -> (&str, &str) {
    let at = uci[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
    uci.split_at(at)
}

/// A UCI point with the ICCS rank (one lower).
fn lower_rank(point: &str) -> String {
    let rank: u32 = point[1..].parse().unwrap();
    format!("{}{}", &point[..1], rank - 1)
}

#[test]
fn wxf_same_move_in_each_notation() {
    for (uci, wxf) in [("h3e3", "C2=5"), ("b3b10", "C8+7"), ("h1g3", "H2+3")] {
        let expected = xq("start", uci);
        let value = moves_in("xiangqi", "start", wxf, "wxf");
        assert_eq!(value["fen"], expected["fen"], "{wxf}");
    }
    let mut seen = BTreeSet::new();
    for uci in START_UCI {
        let plies = replay(&["--game", "xiangqi", "--notation", "uci", "--moves", uci]);
        let wxf = plies[0]["move"]["wxf"].as_str().unwrap().to_string();
        assert!(START_WXF.contains(&wxf.as_str()), "{uci}: {wxf}");
        seen.insert(wxf);
    }
    assert_eq!(seen.len(), 44, "one WXF text per move");
}

#[test]
fn moves_fen_and_feen_agree() {
    let midgame_fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1";
    let from_fen = xq(midgame_fen, "b1c3 i10h10");
    let feen = xq(midgame_fen, "")["position"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        feen,
        "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / X/x"
    );
    let from_feen = xq(&feen, "b1c3 i10h10");
    assert_eq!(from_fen, from_feen);
    for notation in ["pmn", "uci", "iccs", "teaching"] {
        assert_eq!(
            moves_in("xiangqi", START_FEN, "", notation),
            moves_in("xiangqi", START_FEEN, "", notation)
        );
    }
    // The same in the capture rules.
    assert_eq!(xqc(START_FEN, "h3e3"), xqc(START_FEEN, "h3e3"));
    assert_eq!(xqc("start", "h3e3"), xqc(START_FEEN, "h3e3"));
}

#[test]
fn moves_fen_input_variants() {
    let canonical = xq(START_FEN, "h3e3");
    for variant in [
        // `h` horse and `e` elephant.
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        // `r` for Red's turn.
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        // Only two fields.
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
    ] {
        assert_eq!(xq(variant, "h3e3"), canonical, "{variant}");
        let value = xq(variant, "");
        assert_eq!(value["fen"], START_FEN, "written canonically: {variant}");
        assert_eq!(value["position"], START_FEEN);
    }
    let value = xq(&format!("{START_BOARD} b"), "");
    assert_eq!(value["turn"], "second");
    assert_eq!(value["fen"], format!("{START_BOARD} b - - 0 1"));
    assert_eq!(value["position"], START_FEEN.replace("X/x", "x/X"));
    assert_eq!(move_list(&value).len(), 44);
}

#[test]
fn moves_fen_fields_after_moves() {
    let one = xq("start", "h3e3");
    assert_eq!(
        one["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    assert_eq!(one["turn"], "second");
    assert_eq!(one["halfmove"], 1);
    let two = xq("start", "h3e3 h10g8");
    assert_eq!(
        two["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(
        two["position"],
        "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / X/x"
    );
    assert_eq!(two["turn"], "first");
    assert_eq!(two["halfmove"], 2);
    assert_eq!(move_list(&two).len(), 35);
    // The same after PMN input, and from a FEEN.
    assert_eq!(
        moves_in("xiangqi", START_FEEN, "h3-e3 h10-g8", "pmn")["fen"],
        two["fen"]
    );
    // Soldier moves do not reset the counter (S4); captures do and go to the capturer's hand.
    assert_eq!(xq("start", "c4c5 c7c6")["halfmove"], 2);
    let capture = xq("start", "h3e3 h10g8 b3b10");
    assert_eq!(capture["halfmove"], 0);
    assert_eq!(
        capture["fen"],
        "rCbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR b - - 0 2"
    );
    assert!(
        capture["position"].as_str().unwrap().ends_with(" h/ x/X"),
        "{capture}"
    );
    // The FEN's own counter and move number carry on; --halfmove overrides the counter.
    let value = xq(&format!("{START_BOARD} w - - 7 3"), "h3e3");
    assert_eq!(
        fen_of(&value),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 8 3"
    );
    let value = ok_json(&[
        "moves",
        "--json",
        "--game",
        "xiangqi",
        "--position",
        &format!("{START_BOARD} w - - 7 3"),
        "--halfmove",
        "10",
    ]);
    check_moves_shape(&value, "xiangqi");
    assert_eq!(value["halfmove"], 10);
}

#[test]
fn moves_text_matches_json() {
    for notation in NOTATIONS {
        let out = ok(&[
            "moves",
            "--game",
            "xiangqi",
            "--notation",
            notation,
            "--position",
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        ]);
        let value = moves_in(
            "xiangqi",
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
            "",
            notation,
        );
        let lines: Vec<String> = out.lines().map(str::to_string).collect();
        assert_eq!(lines, move_list(&value), "{notation}");
        assert_eq!(lines.len(), 35);
    }
}

#[test]
fn s1_generals_may_not_face() {
    // e1d1 would put the red general on the open d-file facing d10: not listed, refused.
    let value = xq(MATE, "");
    let list = move_list(&value);
    assert_eq!(value["check"], false);
    assert!(!list.contains(&"e1d1".to_string()), "{list:?}");
    for m in ["e1e2", "e1f1", "a1d1", "a1a10"] {
        assert!(list.contains(&m.to_string()), "{m} in {list:?}");
    }
    assert_eq!(list.len(), 14);
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "e1d1",
    ]);
    assert_illegal(&line, "e1d1", 1);
    // The only piece between the generals may not leave the file.
    let value = xq("4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", "");
    assert_eq!(
        move_list(&value),
        ["e1d1", "e1f1", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8", "e2e9"]
    );
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        "4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1",
        "--moves",
        "e2-a2",
    ]);
    assert_illegal(&line, "e2-a2", 1);
    // Facing generals count as check: with Red to move, Black would be in check, which no
    // game reaches, so the position is refused.
    let line = fails(&["moves", "--game", "xiangqi", "--position", FLYING]);
    assert!(
        line.starts_with("invalid position: ") && line.contains("faces the general on e1"),
        "{line}"
    );
    // A move that leaves the general attacked is not listed either.
    let value = xq("3k5/9/3a5/9/9/9/9/9/4r4/3RK4 w - - 0 1", "");
    assert_eq!(value["check"], true);
    assert_eq!(move_list(&value), ["e1e2", "e1f1"]);
}

#[test]
fn s2_checkmate_and_stalemate_lose() {
    let value = xq(MATE, "a1d1");
    assert_eq!(value["status"], "checkmate");
    assert_eq!(value["winner"], "first");
    assert_eq!(value["check"], true);
    assert_eq!(value["turn"], "second");
    assert_eq!(value["fen"], "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1");
    assert!(move_list(&value).is_empty());

    // Text mode says how a finished game ended and who won.
    let out = ok(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "a1d1",
    ]);
    assert_eq!(
        out,
        "no legal moves: the game is over (checkmate, first wins)\n"
    );

    let value = xq(STALEMATE, "c8c9");
    assert_eq!(value["status"], "stalemate");
    assert_eq!(value["winner"], "first");
    assert_eq!(value["check"], false);
    assert_eq!(value["fen"], "3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 1 1");
    assert!(move_list(&value).is_empty());

    // Before the mate the game goes on.
    let value = xq(MATE, "");
    assert_eq!(value["status"], Value::Null);
    // A mate given by Black: winner second.
    let value = xq("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", "a10d10");
    assert_eq!(value["status"], "checkmate");
    assert_eq!(value["winner"], "second");
    assert_eq!(value["turn"], "first");
    assert_eq!(value["fen"], "3rk4/9/9/9/9/9/9/9/9/3K5 w - - 1 2");
}

#[test]
fn s3_perpetual_check_loses() {
    // a2a10 C1 C1: Red checked with every move since the first occurrence: Red loses.
    let value = xq(PERP, &format!("a2a10 {C1} {C1}"));
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
    assert_eq!(value["reason"], "perpetual check");
    assert_eq!(value["halfmove"], 9);
    assert_eq!(value["check"], true);
    assert!(move_list(&value).is_empty());
    // One ply earlier the game goes on.
    let moves = format!("a2a10 {C1} {C1}");
    let earlier: Vec<&str> = moves.split(' ').collect();
    let value = xq(PERP, &earlier[..8].join(" "));
    assert_eq!(value["status"], Value::Null);
    // A quiet move anywhere since the first occurrence makes it a draw.
    for moves in [format!("a2a10 {C2} {C1}"), format!("a2a10 {C1} {C2}")] {
        let value = xq(PERP, &moves);
        assert_eq!(value["status"], "repetition", "{moves}");
        assert_eq!(value["winner"], "none", "{moves}");
        assert_eq!(value["reason"], "plain repetition", "{moves}");
    }
    // Black checks every time, Red only every other time: Red wins.
    let value = xq(
        "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        "d7e7 e5d5 e7d7 d5e5 d7e7 e5d5 e7d7 d5e5",
    );
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "first");
    // Both sides check every move: a draw.
    let value = xq(
        "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        "e4d4 d7e7 d4e4 e7d7 e4d4 d7e7 d4e4 e7d7",
    );
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "none");
    // No move after the end.
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        PERP,
        "--notation",
        "uci",
        "--moves",
        &format!("a2a10 {C1} {C1} d10d9"),
    ]);
    assert_illegal(&line, "d10d9", 10);
}

#[test]
fn s3_threefold_draw_and_repetition_count() {
    let moves: Vec<&str> = SHUFFLE.split(' ').collect();
    // The 2nd occurrence (ply 4) does not end the game, the 3rd (ply 8) does.
    let value = xq("start", &moves[..4].join(" "));
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value), START_UCI);
    let value = xq("start", SHUFFLE);
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "none");
    assert_eq!(value["fen"], format!("{START_BOARD} w - - 8 5"));
    assert!(move_list(&value).is_empty());
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--notation",
        "uci",
        "--moves",
        &format!("{SHUFFLE} h1g3"),
    ]);
    assert_illegal(&line, "h1g3", 9);

    // --repetition-count 4: the 3rd occurrence is not the end, the 4th is.
    let four = |moves: &str| {
        let value = ok_json(&[
            "moves",
            "--json",
            "--game",
            "xiangqi",
            "--repetition-count",
            "4",
            "--notation",
            "uci",
            "--moves",
            moves,
        ]);
        check_moves_shape(&value, "xiangqi");
        value
    };
    let value = four(SHUFFLE);
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value), START_UCI);
    let value = four(&format!("{SHUFFLE} h1g3 h10g8 g3h1 g8h10"));
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "none");
    assert_eq!(value["halfmove"], 12);
    // The perpetual check also waits for the 4th occurrence.
    let perp = |count: &str, moves: &str| {
        let value = ok_json(&[
            "moves",
            "--json",
            "--game",
            "xiangqi",
            "--position",
            PERP,
            "--repetition-count",
            count,
            "--notation",
            "uci",
            "--moves",
            moves,
        ]);
        check_moves_shape(&value, "xiangqi");
        value
    };
    let value = perp("4", &format!("a2a10 {C1} {C1}"));
    assert_eq!(value["status"], Value::Null);
    let value = perp("4", &format!("a2a10 {C1} {C1} {C1}"));
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
    // 2 ends it at the second occurrence.
    let value = perp("2", &format!("a2a10 {C1}"));
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
}

#[test]
fn s4_hundred_plies_without_capture() {
    // The FEN counter counts: 99 + one quiet move (also a soldier move) = 100 → draw.
    for mv in ["h1g3", "c4c5"] {
        let value = xq(&format!("{START_BOARD} w - - 99 50"), mv);
        assert_eq!(value["status"], "movelimit", "{mv}");
        assert_eq!(value["winner"], "none");
        assert_eq!(value["halfmove"], 100);
        assert!(fen_of(&value).ends_with(" b - - 100 50"), "{value}");
        assert!(move_list(&value).is_empty());
    }
    // 98: the first move does not end it, the second does.
    let value = xq(&format!("{START_BOARD} w - - 98 50"), "h1g3");
    assert_eq!(value["status"], Value::Null);
    assert_eq!(value["halfmove"], 99);
    let value = xq(&format!("{START_BOARD} w - - 98 50"), "h1g3 h10g8");
    assert_eq!(value["status"], "movelimit");
    assert!(fen_of(&value).ends_with(" w - - 100 51"), "{value}");
    // A capture resets the counter.
    let value = xq(&format!("{START_BOARD} w - - 99 50"), "h3h10");
    assert_eq!(value["status"], Value::Null);
    assert_eq!(value["halfmove"], 0);
    // A counter of 100 in the FEN ends the game at once.
    let value = xq(&format!("{START_BOARD} w - - 100 1"), "");
    assert_eq!(value["status"], "movelimit");
    assert!(move_list(&value).is_empty());
    // On the 100th ply, checkmate still wins but stalemate is a 100-ply draw.
    let value = xq("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 1", "a1d1");
    assert_eq!(value["status"], "checkmate");
    assert_eq!(value["winner"], "first");
    let value = xq("3k5/9/2R6/9/9/9/9/9/9/4K4 w - - 99 1", "c8c9");
    assert_eq!(value["status"], "movelimit");
    assert_eq!(value["winner"], "none");
    // The 100-ply rule comes before a perpetual check on the same ply.
    let value = xq(
        "3k5/4a4/9/9/4r4/9/9/9/R8/5K3 w - - 91 1",
        &format!("a2a10 {C1} {C1}"),
    );
    assert_eq!(value["status"], "movelimit");
    assert_eq!(value["winner"], "none");
    let value = xq(
        "3k5/4a4/9/9/4r4/9/9/9/R8/5K3 w - - 90 1",
        &format!("a2a10 {C1} {C1}"),
    );
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
    // A move after the 100-ply draw is refused.
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        &format!("{START_BOARD} w - - 99 50"),
        "--notation",
        "uci",
        "--moves",
        "h1g3 h10g8",
    ]);
    assert_illegal(&line, "h10g8", 2);
}

#[test]
fn s4_check_allowance() {
    // pyffish-xiangqi.md, test_movelimit_check_allowance: 14 red checks at ply 40 keep the
    // game going at counter 100; it ends at ply 52 (counter 112, 16 checks).
    let moves = "a1a10 e10e9 a10a9 e9e10 a9e9 e10f10 e9f9 f10e10 f9f10 e10e9 f10f9 e9e8 f9e9 \
                 e8f8 e9e8 f8f9 e8e9 f9f10 e9e10 f10f9 e10f10 f9e9 f10e10 e9f9 e10a10 f9f8 \
                 a10a8 f8f9 a8a9 f9f8 a9c9 f8e8 c9c6 e8f8 c6a6 f8f9 a6a5 f9e9 a5a8 e9e10 \
                 a8b8 e10f10 b8b10 f10f9 d1d2 f9e9 b10b9 e9e10 b9b1 e10e9 b1f1 e9e10";
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--position",
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 60 1",
        "--notation",
        "uci",
        "--moves",
        moves,
    ]);
    assert_eq!(plies.len(), 53);
    assert_eq!(plies[40]["halfmove"], 100);
    assert_eq!(plies[40]["status"], Value::Null);
    assert_eq!(plies[52]["halfmove"], 112);
    assert_eq!(plies[52]["status"], "movelimit");
    assert_eq!(plies[52]["winner"], "none");
}

#[test]
fn s5_insufficient_material() {
    let fen = "5k3/4a4/9/9/9/9/9/9/9/3pK4 w - - 0 1";
    let value = xq(fen, "");
    assert_eq!(value["check"], true);
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value), ["e1d1", "e1e2"]);
    let value = xq(fen, "e1d1");
    assert_eq!(value["status"], "insufficient");
    assert_eq!(value["winner"], "none");
    assert_eq!(value["fen"], "5k3/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(move_list(&value).is_empty());
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        fen,
        "--moves",
        "e1+d1 f10-f9",
    ]);
    assert_illegal(&line, "f10-f9", 2);
}

#[test]
fn capture_rules_flying_general_and_check() {
    // C2: the general flies along the open file and takes the other (C3: mareking).
    let value = xqc(FLYING, "");
    let list = move_list(&value);
    assert!(list.contains(&"e1e10".to_string()), "{list:?}");
    assert_eq!(list.len(), 16);
    let value = xqc(FLYING, "e1e10");
    assert_eq!(value["status"], "mareking");
    assert_eq!(value["winner"], "first");
    assert_eq!(value["fen"], "4K4/9/9/9/9/9/9/9/9/R8 b - - 0 1");
    assert_eq!(value["position"], "4G^4/9/9/9/9/9/9/9/9/R8 g^/ x/X");
    assert!(move_list(&value).is_empty());
    let value = moves_in("xiangqi-capture", FLYING, "e1+e10", "pmn");
    assert_eq!(value["status"], "mareking");
    // Under the standard rules there is no such capture: the facing generals are a check on
    // the side not to move, and the position is refused.
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        FLYING,
        "--notation",
        "uci",
        "--moves",
        "e1e10",
    ]);
    assert!(line.contains("is in check"), "{line}");
    // No move after the general is taken.
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi-capture",
        "--position",
        FLYING,
        "--notation",
        "uci",
        "--moves",
        "e1e10 a1a2",
    ]);
    assert_illegal(&line, "a1a2", 2);

    // C1: moves that leave or put one's own general in check are legal.
    let value = xqc("3k5/9/9/9/9/9/9/9/4r4/3RK4 w - - 0 1", "");
    assert_eq!(move_list(&value).len(), 14);
    assert!(move_list(&value).contains(&"d1d5".to_string()));
    let value = xqc(MATE, "e1d1");
    assert_eq!(value["status"], Value::Null);
    assert!(move_list(&value).contains(&"d10d1".to_string()));
    let value = xqc(MATE, "e1d1 d10d1");
    assert_eq!(value["status"], "mareking");
    assert_eq!(value["winner"], "second");
    let value = xqc("4k4/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "");
    assert_eq!(move_list(&value).len(), 18);
}

#[test]
fn capture_rules_hundred_plies_in_total() {
    // C4: 50 moves each. `b … 50` means 99 plies have been played; one more ends the game.
    let value = xqc(&format!("{START_BOARD} b - - 0 50"), "h10g8");
    assert_eq!(value["status"], "movelimit");
    assert_eq!(value["winner"], "none");
    assert!(move_list(&value).is_empty());
    assert!(fen_of(&value).ends_with(" w - - 1 51"), "{value}");
    // Whatever the capture counter says.
    let value = xqc(&format!("{START_BOARD} b - - 77 50"), "h10g8");
    assert_eq!(value["status"], "movelimit");
    // One ply earlier it goes on.
    let value = xqc(&format!("{START_BOARD} w - - 0 50"), "h1g3");
    assert_eq!(value["status"], Value::Null);
    // (43: the h8 cannon no longer takes a horse on h1.)
    assert_eq!(move_list(&value).len(), 43);
    let value = xqc(&format!("{START_BOARD} b - - 0 49"), "h10g8");
    assert_eq!(value["status"], Value::Null);
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi-capture",
        "--position",
        &format!("{START_BOARD} b - - 0 50"),
        "--notation",
        "uci",
        "--moves",
        "h10g8 h1g3",
    ]);
    assert_illegal(&line, "h1g3", 2);
}

#[test]
fn capture_rules_have_no_standard_endings() {
    // C1–C4 are the whole of the teaching rules: no repetition, no mate or stalemate while
    // the general can still be taken or move, no 100-ply capture rule, no S5.
    let value = xqc("start", SHUFFLE);
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value).len(), 44);
    let value = xqc(MATE, "a1d1");
    assert_eq!(value["status"], Value::Null);
    assert_eq!(value["check"], true);
    assert_eq!(move_list(&value), ["d10d9", "d10e10"]);
    let value = xqc(STALEMATE, "c8c9");
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value), ["d10d9", "d10e10"]);
    let value = xqc("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 1", "a1a2");
    assert_eq!(value["status"], Value::Null);
    assert_eq!(value["halfmove"], 100);
    let value = xqc("5k3/4a4/9/9/9/9/9/9/9/3pK4 w - - 0 1", "e1d1");
    assert_eq!(value["status"], Value::Null);
}

// ---------------------------------------------------------------- convert

#[test]
fn convert_opening_round_trips() {
    let expected = [
        (
            "pmn",
            ["h3-e3", "h10-g8", "h1-g3", "c10-e8", "a1-a3", "i10-h10"],
        ),
        ("uci", OPENING_UCI),
        ("iccs", ["h2e2", "h9g7", "h0g2", "c9e7", "a0a2", "i9h9"]),
        ("teaching", ["h3e3", "h0g8", "h1g3", "c0e8", "a1a3", "i0h0"]),
    ];
    for (from, moves) in expected {
        for (to, want) in expected {
            let got = convert("start", from, to, &moves);
            assert_eq!(got, want, "{from} → {to}");
        }
        // The moves may also come as one argument.
        assert_eq!(
            convert("start", from, "uci", &[&moves.join(" ")]),
            OPENING_UCI
        );
    }
    // From a FEN and a FEEN alike.
    assert_eq!(
        convert(START_FEN, "uci", "iccs", &OPENING_UCI),
        convert(START_FEEN, "uci", "iccs", &OPENING_UCI)
    );
    // No moves, no lines.
    assert!(convert("start", "uci", "pmn", &[]).is_empty());
}

#[test]
fn wxf_convert_opening_round_trips() {
    let wxf = ["C2=5", "H8+7", "H2+3", "E3+5", "R9+2", "R9=8"];
    for from in ["pmn", "uci", "iccs", "teaching"] {
        let moves = convert("start", "uci", from, &OPENING_UCI);
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        assert_eq!(convert("start", from, "wxf", &moves), wxf, "{from} → wxf");
        assert_eq!(convert("start", "wxf", from, &wxf), moves, "wxf → {from}");
    }
    assert_eq!(convert("start", "wxf", "wxf", &wxf), wxf);
    // `.` for `=`, lowercase letters for Black, and the N/B aliases are read too.
    assert_eq!(
        convert(
            "start",
            "wxf",
            "uci",
            &["C2.5", "h8+7", "N2+3", "b3+5", "R9+2", "R9.8"]
        ),
        OPENING_UCI
    );
}

#[test]
fn wxf_table_of_the_doc() {
    // pyffish-xiangqi.md, "WXF": FEN, then (uci, wxf) pairs, each one move from the FEN.
    let table: [(&str, &[(&str, &str)]); 15] = [
        (
            "3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1",
            &[
                ("a5a10", "R++5"),
                ("a1a3", "R-+2"),
                ("a5c5", "R+=7"),
                ("a1b1", "R-=8"),
                ("a5a2", "R9-3"),
            ],
        ),
        (
            "r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1",
            &[
                ("a6a1", "R++5"),
                ("a10a8", "R-+2"),
                ("a6c6", "R+=3"),
                ("a10b10", "R-=2"),
                ("a6a9", "R1-3"),
                ("a6a7", "R1-1"),
            ],
        ),
        (
            "5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1",
            &[
                ("e4f6", "H++4"),
                ("e4g3", "H+-3"),
                ("e2c3", "H-+7"),
                ("e2c1", "H--7"),
                ("e4d2", "H5-6"),
            ],
        ),
        (
            "5k3/9/9/9/9/9/9/4N4/9/3KN4 w - - 0 1",
            &[("e3f1", "H5-4"), ("e3c2", "H5-7"), ("e1g2", "H-+3")],
        ),
        (
            "3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1",
            &[
                ("b7b9", "C++2"),
                ("b3b5", "C-+2"),
                ("b7e7", "C+=5"),
                ("b3a3", "C-=9"),
                ("b3b1", "C--2"),
                ("b7b4", "C8-3"),
            ],
        ),
        (
            "3k5/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
            &[("e7e8", "P++1"), ("e7d7", "P+=6"), ("e6f6", "P-=4")],
        ),
        (
            "4P4/3k5/9/4P4/9/9/9/9/9/4K4 w - - 0 1",
            &[("e7e8", "P5+1"), ("e10f10", "P+=4")],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1",
            &[
                ("e7d7", "15=6"),
                ("e6d6", "25=6"),
                ("e4e5", "35+1"),
                ("a4a5", "P9+1"),
            ],
        ),
        (
            "4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1",
            &[("e3e2", "15+1"), ("e4d4", "25=4"), ("e5f5", "35=6")],
        ),
        (
            "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
            &[
                ("d8d9", "16+1"),
                ("d7e7", "26=5"),
                ("f7g7", "14=3"),
                ("f6e6", "24=5"),
                ("h7h8", "P2+1"),
            ],
        ),
        (
            "4k4/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b - - 0 1",
            &[
                ("c4c3", "13+1"),
                ("c5b5", "23=2"),
                ("e4e3", "15+1"),
                ("e5d5", "25=4"),
            ],
        ),
        (
            "3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1",
            &[
                ("c5e3", "E7-5"),
                ("c1e3", "E7+5"),
                ("c5a3", "E7-9"),
                ("c1a3", "E7+9"),
                ("d1e2", "A6+5"),
                ("d3e2", "A6-5"),
            ],
        ),
        (
            "2bak4/9/3a5/9/2b6/9/8P/9/9/5K3 b - - 0 1",
            &[
                ("c6e8", "E3-5"),
                ("c10e8", "E3+5"),
                ("d10e9", "A4+5"),
                ("d8e9", "A4-5"),
            ],
        ),
        (
            "3k5/9/9/8p/9/9/9/9/4K4/9 w - - 0 1",
            &[("e2e1", "K5-1"), ("e2f2", "K5=4")],
        ),
        (
            "9/4k4/9/9/9/9/P8/9/9/3K5 b - - 0 1",
            &[("e9e8", "K5+1"), ("e9f9", "K5=6"), ("e9e10", "K5-1")],
        ),
    ];
    for (fen, cases) in table {
        let listed = move_list(&moves_in("xiangqi", fen, "", "wxf"));
        for &(uci, wxf) in cases {
            assert_eq!(convert(fen, "uci", "wxf", &[uci]), [wxf], "{fen} {uci}");
            assert_eq!(convert(fen, "wxf", "uci", &[wxf]), [uci], "{fen} {wxf}");
            assert!(
                listed.contains(&wxf.to_string()),
                "{fen}: {wxf} in {listed:?}"
            );
            // --moves in WXF plays the same move as in UCI.
            assert_eq!(
                moves_in("xiangqi", fen, wxf, "wxf")["fen"],
                xq(fen, uci)["fen"],
                "{fen} {wxf}"
            );
        }
    }
}

#[test]
fn convert_positions_fen_and_feen() {
    let fen_to =
        |to: &str, position: &str| ok(&["convert", "--game", "xiangqi", "--to", to, position]);
    assert_eq!(fen_to("feen", START_FEN), format!("{START_FEEN}\n"));
    assert_eq!(fen_to("fen", START_FEEN), format!("{START_FEN}\n"));
    assert_eq!(fen_to("fen", START_FEN), format!("{START_FEN}\n"));
    assert_eq!(fen_to("feen", START_FEEN), format!("{START_FEEN}\n"));
    assert_eq!(fen_to("fen", "start"), format!("{START_FEN}\n"));
    // Accepted FEN variants come out canonical.
    assert_eq!(
        fen_to(
            "fen",
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r"
        ),
        format!("{START_FEN}\n")
    );
    // Black to move, counters kept in FEN → FEN; a FEEN has none (0 1).
    let black = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 5 9";
    let black_feen = "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / x/X";
    assert_eq!(fen_to("fen", black), format!("{black}\n"));
    assert_eq!(fen_to("feen", black), format!("{black_feen}\n"));
    assert_eq!(
        fen_to("fen", black_feen),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\n"
    );
    // Soldiers across the river are +S in FEEN.
    let crossed = "3k5/9/9/4P4/4P4/9/9/4p4/9/4K4 w - - 0 1";
    let crossed_feen = fen_to("feen", crossed);
    assert_eq!(crossed_feen, "3g^5/9/9/4+S4/4+S4/9/9/4+s4/9/4G^4 / X/x\n");
    assert_eq!(
        fen_to("fen", crossed_feen.trim_end()),
        format!("{crossed}\n")
    );
    // The capture rules read and write the same.
    assert_eq!(
        ok(&[
            "convert",
            "--game",
            "xiangqi-capture",
            "--to",
            "feen",
            START_FEN
        ]),
        format!("{START_FEEN}\n")
    );
    // Xiongqi has no FEN.
    let line = fails(&[
        "convert",
        "--to",
        "fen",
        "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x",
    ]);
    assert!(line.contains("xiongqi"), "{line}");
    // One position exactly.
    fails(&["convert", "--game", "xiangqi", "--to", "fen"]);
    fails(&[
        "convert", "--game", "xiangqi", "--to", "fen", START_FEN, START_FEN,
    ]);
    let line = fails(&["convert", "--game", "xiangqi", "--to", "feen", "garbage"]);
    assert!(line.contains("position"), "{line}");
}

// ---------------------------------------------------------------- replay

#[test]
fn replay_plies() {
    let moves = OPENING_UCI.join(" ");
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--position",
        START_FEN,
        "--notation",
        "uci",
        "--moves",
        &moves,
    ]);
    assert_eq!(plies.len(), 7);
    assert_eq!(plies[0]["fen"], START_FEN);
    assert_eq!(plies[0]["position"], START_FEEN);
    assert_eq!(strings(&plies[0]["legal"]), START_UCI);
    let pmn = ["h3-e3", "h10-g8", "h1-g3", "c10-e8", "a1-a3", "i10-h10"];
    let iccs = ["h2e2", "h9g7", "h0g2", "c9e7", "a0a2", "i9h9"];
    let teaching = ["h3e3", "h0g8", "h1g3", "c0e8", "a1a3", "i0h0"];
    for i in 0..6 {
        let ply = &plies[i];
        let texts = &ply["move"];
        assert_eq!(texts["uci"], OPENING_UCI[i]);
        assert_eq!(texts["pmn"], pmn[i]);
        assert_eq!(texts["iccs"], iccs[i]);
        assert_eq!(texts["teaching"], teaching[i]);
        assert!(strings(&ply["legal"]).contains(&OPENING_UCI[i].to_string()));
        // Each ply agrees with `moves --json` after the same prefix.
        let value = xq(START_FEN, &OPENING_UCI[..i].join(" "));
        for key in [
            "position", "fen", "turn", "halfmove", "check", "status", "winner", "reason",
        ] {
            assert_eq!(ply[key], value[key], "ply {i} {key}");
        }
        assert_eq!(ply["legal"], value["moves"], "ply {i}");
        assert_eq!(ply["turn"], if i % 2 == 0 { "first" } else { "second" });
        assert_eq!(ply["halfmove"], i);
    }
    assert_eq!(
        plies[6]["fen"],
        "rn1akabr1/9/1c2b1nc1/p1p1p1p1p/9/9/P1P1P1P1P/RC2C1N2/9/1NBAKAB1R w - - 6 4"
    );
    assert_eq!(plies[6]["fen"], xq("start", &moves)["fen"]);
    // Without moves: just ply 0.
    let plies = replay(&["--game", "xiangqi", "--notation", "uci"]);
    assert_eq!(plies.len(), 1);
    assert_eq!(plies[0]["fen"], START_FEN);
}

#[test]
fn wxf_replay_plies() {
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--notation",
        "uci",
        "--moves",
        &OPENING_UCI.join(" "),
    ]);
    let wxf = ["C2=5", "H8+7", "H2+3", "E3+5", "R9+2", "R9=8"];
    for (ply, want) in plies.iter().zip(wxf) {
        assert_eq!(ply["move"]["wxf"], want, "{ply}");
    }
    // With --notation wxf the moves are read and the legal moves written in WXF.
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--notation",
        "wxf",
        "--moves",
        &wxf.join(" "),
    ]);
    assert_eq!(strings(&plies[0]["legal"]), START_WXF);
    assert_eq!(plies[6]["fen"], xq("start", &OPENING_UCI.join(" "))["fen"]);
}

#[test]
fn replay_finished_game() {
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "a1d1",
    ]);
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0]["status"], Value::Null);
    assert_eq!(plies[0]["move"]["pmn"], "a1-d1");
    assert_eq!(plies[0]["move"]["wxf"], "R9=6");
    assert_eq!(plies[1]["status"], "checkmate");
    assert_eq!(plies[1]["winner"], "first");
    assert_eq!(plies[1]["check"], true);
    assert_eq!(plies[1]["legal"], serde_json::json!([]));
    // The perpetual check: status only on the last ply.
    let plies = replay(&[
        "--game",
        "xiangqi",
        "--position",
        PERP,
        "--notation",
        "uci",
        "--moves",
        &format!("a2a10 {C1} {C1}"),
    ]);
    assert_eq!(plies.len(), 10);
    assert_eq!(plies[9]["status"], "repetition");
    assert_eq!(plies[9]["winner"], "second");
    for ply in &plies[1..9] {
        assert_eq!(ply["turn"] == "second", ply["check"] == true, "{ply}");
    }
    // One more move is refused, with its ply.
    let line = fails(&[
        "replay",
        "--json",
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "a1d1 d10e10",
    ]);
    assert_illegal(&line, "d10e10", 2);
    let line = fails(&[
        "replay",
        "--json",
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "a1a2 e1d1",
    ]);
    assert_illegal(&line, "e1d1", 2);
    // The capture rules' mareking.
    let plies = replay(&[
        "--game",
        "xiangqi-capture",
        "--position",
        FLYING,
        "--notation",
        "uci",
        "--moves",
        "e1e10",
    ]);
    assert_eq!(plies[1]["status"], "mareking");
    assert_eq!(plies[1]["winner"], "first");
}

// ---------------------------------------------------------------- show

fn line_with<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in {out}"))
}

#[test]
fn show_board() {
    let out = ok(&["show", "--game", "xiangqi"]);
    assert_eq!(
        out,
        ok(&["show", "--game", "xiangqi", "--position", START_FEN])
    );
    assert_eq!(
        out,
        ok(&["show", "--game", "xiangqi", "--position", START_FEEN])
    );
    let lines: Vec<&str> = out.lines().collect();
    // Rank 10 on top, rank 1 at the bottom of the board.
    let top = lines
        .iter()
        .position(|l| l.trim_start().starts_with("10"))
        .expect("rank 10");
    let bottom = lines
        .iter()
        .position(|l| l.trim_start().starts_with("1 "))
        .expect("rank 1");
    assert!(top < bottom, "{out}");
    assert!(
        lines[top].contains('r') && lines[top].contains('k'),
        "{out}"
    );
    assert!(
        lines[bottom].contains('R') && lines[bottom].contains('K'),
        "{out}"
    );
    assert!(line_with(&out, "turn").contains("first"), "{out}");
    assert!(line_with(&out, "check").contains("no"), "{out}");
    assert!(line_with(&out, "status").contains("ongoing"), "{out}");
    assert_eq!(line_with(&out, "fen:"), format!("fen: {START_FEN}"));
    assert_eq!(line_with(&out, "feen:"), format!("feen: {START_FEEN}"));

    let out = ok(&["show", "--game", "xiangqi", "--glyphs", "chinese"]);
    for glyph in [
        '帥', '將', '俥', '車', '傌', '馬', '相', '象', '仕', '士', '炮', '砲',
    ] {
        assert!(out.contains(glyph), "lacks {glyph}: {out}");
    }
    assert_eq!(out.matches('兵').count(), 5);
    assert_eq!(out.matches('卒').count(), 5);
    assert_eq!(line_with(&out, "fen:"), format!("fen: {START_FEN}"));
    let top = out.find('將').unwrap();
    let bottom = out.find('帥').unwrap();
    assert!(top < bottom, "{out}");
}

#[test]
fn show_after_moves() {
    let out = ok(&[
        "show",
        "--game",
        "xiangqi",
        "--position",
        MATE,
        "--notation",
        "uci",
        "--moves",
        "a1d1",
    ]);
    assert!(line_with(&out, "turn").contains("second"), "{out}");
    assert!(line_with(&out, "check").contains("yes"), "{out}");
    let status = line_with(&out, "status");
    assert!(
        status.contains("checkmate") && status.contains("first"),
        "{status}"
    );
    assert_eq!(
        line_with(&out, "fen:"),
        "fen: 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1"
    );
    let out = ok(&[
        "show",
        "--game",
        "xiangqi",
        "--notation",
        "iccs",
        "--moves",
        "h2e2 h9g7",
    ]);
    assert_eq!(
        line_with(&out, "fen:"),
        "fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    let out = ok(&[
        "show",
        "--game",
        "xiangqi-capture",
        "--position",
        FLYING,
        "--notation",
        "uci",
        "--moves",
        "e1e10",
    ]);
    assert!(line_with(&out, "status").contains("mareking"), "{out}");
    let line = fails(&["show", "--game", "xiangqi", "--moves", "h3-h9"]);
    assert_illegal(&line, "h3-h9", 1);
}

// ---------------------------------------------------------------- errors

#[test]
fn error_bad_fen() {
    for (fen, hints) in [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
            &["offset 58"][..],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w - - 0 1",
            &["offset 59", "rank 1"][..],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKQBNR w - - 0 1",
            &["offset 55", "'Q'"][..],
        ),
        (
            "3k5/9/9/9/9/9/9/9/9/4K4 x - - 0 1",
            &["offset 24", "'x'"][..],
        ),
        ("3k5/9/9/9/9/9/9/9/9/4K4", &["offset 23"][..]),
        ("3k5/9/9/9/9/9/9/9/9 w - - 0 1", &["offset"][..]),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", &["offset 30"][..]),
        ("xyz", &["unknown position keyword 'xyz'", "start"][..]),
        ("START", &["unknown position keyword 'START'"][..]),
        ("xyz/9", &["offset"][..]),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKKABNR w - - 0 1",
            &["2 generals"][..],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
            &["no general"][..],
        ),
        ("3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1", &["a1", "palace"][..]),
        (
            "3k5/9/9/9/9/9/9/9/B8/4K4 w - - 0 1",
            &["a2", "elephant"][..],
        ),
        ("3k5/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", &["e1", "advisor"][..]),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1", &["a2", "soldier"][..]),
        ("3k5/9/9/9/9/9/9/9/9/4K4 / X/x", &[][..]),
        (
            "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / Y/y",
            &[][..],
        ),
    ] {
        for cmd in ["moves", "show"] {
            let line = fails(&[cmd, "--game", "xiangqi", "--position", fen]);
            assert!(line.contains("position"), "{fen}: {line}");
            for hint in hints {
                assert!(line.contains(hint), "{fen}: {line} lacks {hint}");
            }
        }
        fails(&["moves", "--json", "--game", "xiangqi", "--position", fen]);
        if !hints.contains(&"no general") {
            // (The capture rules read a position without a general as a finished game.)
            fails(&[
                "moves",
                "--json",
                "--game",
                "xiangqi-capture",
                "--position",
                fen,
            ]);
        }
        fails(&["perft", "1", "--game", "xiangqi", "--position", fen]);
        fails(&["replay", "--json", "--game", "xiangqi", "--position", fen]);
        fails(&["convert", "--game", "xiangqi", "--to", "feen", fen]);
        fails(&[
            "convert",
            "--game",
            "xiangqi",
            "--position",
            fen,
            "--from",
            "uci",
            "--to",
            "pmn",
            "h3e3",
        ]);
    }
}

#[test]
fn error_illegal_moves() {
    for (notation, moves, bad, ply) in [
        ("uci", "h3h9", "h3h9", 1),
        ("uci", "h3e3 h3e3", "h3e3", 2),
        ("uci", "h3e3 h10g8 e1e3", "e1e3", 3),
        ("uci", "b3b11", "b3b11", 1),
        ("uci", "j1j2", "j1j2", 1),
        ("pmn", "h3-h10", "h3-h10", 1),
        ("pmn", "h3+h9", "h3+h9", 1),
        ("pmn", "hello", "hello", 1),
        ("iccs", "h2e2 h2e2", "h2e2", 2),
        ("teaching", "h3h0 h3h0", "h3h0", 2),
        ("teaching", "a4a6", "a4a6", 1),
    ] {
        let line = fails(&[
            "moves",
            "--game",
            "xiangqi",
            "--notation",
            notation,
            "--moves",
            moves,
        ]);
        assert_illegal(&line, bad, ply);
        let line = fails(&[
            "moves",
            "--json",
            "--game",
            "xiangqi",
            "--notation",
            notation,
            "--moves",
            moves,
        ]);
        assert_illegal(&line, bad, ply);
        let line = fails(&[
            "convert", "--game", "xiangqi", "--from", notation, "--to", "uci", moves,
        ]);
        assert_illegal(&line, bad, ply);
        let line = fails(&[
            "replay",
            "--json",
            "--game",
            "xiangqi",
            "--notation",
            notation,
            "--moves",
            moves,
        ]);
        assert_illegal(&line, bad, ply);
    }
}

#[test]
fn error_notation_mismatch() {
    for (notation, text) in [
        ("uci", "C2=5"),
        ("uci", "h3-e3"),
        ("uci", "b3b0"),
        ("uci", "h2e2"),
        ("iccs", "b3b10"),
        ("iccs", "C2=5"),
        ("teaching", "b3b10"),
        ("teaching", "h3-e3"),
        ("teaching", "C2=5"),
        ("pmn", "C2=5"),
        ("pmn", "b3b0"),
    ] {
        for cmd in [&["moves"][..], &["moves", "--json"], &["show"]] {
            let mut args = cmd.to_vec();
            args.extend(["--game", "xiangqi", "--notation", notation, "--moves", text]);
            let line = fails(&args);
            assert_illegal(&line, text, 1);
        }
        let line = fails(&[
            "convert", "--game", "xiangqi", "--from", notation, "--to", "pmn", text,
        ]);
        assert_illegal(&line, text, 1);
    }
}

#[test]
fn wxf_notation_mismatch() {
    for text in [
        "h3e3", "h3-e3", "b3b10", "h2e2", "b3b0", "C2=10", "C2=5+", "XYZ",
    ] {
        let line = fails(&[
            "moves",
            "--game",
            "xiangqi",
            "--notation",
            "wxf",
            "--moves",
            text,
        ]);
        assert_illegal(&line, text, 1);
        let line = fails(&[
            "convert", "--game", "xiangqi", "--from", "wxf", "--to", "uci", text,
        ]);
        assert_illegal(&line, text, 1);
    }
    // A well-formed WXF move that is not legal: the cannon cannot go 5 back.
    let line = fails(&[
        "moves",
        "--game",
        "xiangqi",
        "--notation",
        "wxf",
        "--moves",
        "C2=5 H8+7 C5-5",
    ]);
    assert_illegal(&line, "C5-5", 3);
}

#[test]
fn error_usage() {
    for args in [
        &["moves", "--game", "xiangqi", "--notation", "lan"][..],
        &["moves", "--game", "xiangqi", "--repetition-count", "1"][..],
        &["perft", "x", "--game", "xiangqi"][..],
        &["convert", "--game", "xiangqi", "--to", "uci", "h3e3"][..],
        &[
            "convert", "--game", "xiangqi", "--from", "uci", "--to", "lan", "h3e3",
        ][..],
        &["show", "--game", "xiangqi", "--glyphs", "klingon"][..],
    ] {
        let r = chuhe(args);
        assert_eq!(r.code, Some(2), "{args:?}: {:?}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {:?}", r.stdout);
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn s6_perpetual_chase_loses_and_says_so() {
    // The chariot follows the unprotected horse with every move (pyffish: Red loses).
    let fen = "3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1";
    let cycle = "a2c2 c8a7 c2a2 a7c8";
    let value = xq(fen, &format!("{cycle} {cycle}"));
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
    assert_eq!(value["reason"], "perpetual chase");
    // The text forms name the rule too.
    let text = ok(&[
        "show",
        "--game",
        "xiangqi",
        "--position",
        fen,
        "--notation",
        "uci",
        "--moves",
        &format!("{cycle} {cycle}"),
    ]);
    assert!(
        text.contains("status: repetition (winner: second)\nreason: perpetual chase\n"),
        "{text}"
    );
    let text = ok(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        fen,
        "--notation",
        "uci",
        "--moves",
        &format!("{cycle} {cycle}"),
    ]);
    assert_eq!(
        text,
        "no legal moves: the game is over (repetition, second wins by perpetual chase)\n"
    );
}
