//! Integration tests of the `chuhe` command line against its contract (the README's
//! "command line" section): flags, JSON fields and types, exit codes, one-line errors.
//!
//! Every test runs the real binary. The whole file stays well under a few seconds.

mod common;

use common::*;
use serde_json::Value;

const START: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";

/// A middle-game position with a horse between the generals (from the perft suite).
const MIDGAME: &str = "2b1g^2r/2c2s2/s2a3s/4H3/1S4+s1/2S3S1/1C1A3R/R3G^2r / X/x";

/// Generals on the e-file with a South chariot between them on e4.
const FACE: &str = "4g^3/8/8/8/4R3/8/8/4G^3 / X/x";

/// A South soldier on e7, one step from the far rank.
const PROMOTE_SOUTH: &str = "g^7/4+S3/8/8/8/8/8/7G^ / X/x";

/// A North soldier on d2, one step from the far rank; North to move.
const PROMOTE_NORTH: &str = "7g^/8/8/8/8/8/3+s4/G^7 / x/X";

/// A South chariot on e7 next to North's general on e8.
const CAPTURE_GENERAL: &str = "4g^3/4R3/8/8/8/8/8/G^7 / X/x";

/// The 26 legal moves of the start position, sorted.
const START_MOVES: [&str; 26] = [
    "a1-a2", "a3-a4", "b3-b4", "c1-b2", "c1-d2", "c2+c6", "c2-a2", "c2-b2", "c2-d2", "c2-e2",
    "c3-c4", "d1-e2", "d3-d4", "e1-e2", "e3-e4", "f1-e2", "f1-g2", "f2+f6", "f2-d2", "f2-e2",
    "f2-g2", "f2-h2", "f3-f4", "g3-g4", "h1-h2", "h3-h4",
];

/// The CGSN status words a Xiongqi game may end with (no checkmate: the general is captured).
const STATUSES: [&str; 8] = [
    "mareking",
    "stalemate",
    "repetition",
    "resignation",
    "timelimit",
    "insufficient",
    "movelimit",
    "agreement",
];

/// `chuhe moves --json ARGS…`.
fn moves_json(args: &[&str]) -> Value {
    let mut all = vec!["moves", "--json"];
    all.extend_from_slice(args);
    ok_json(&all)
}

/// Checks the field set and the types of a `moves --json` answer.
fn check_moves_shape(value: &Value) {
    assert_eq!(
        keys(value),
        set(&[
            "game", "position", "turn", "halfmove", "moves", "check", "status", "winner", "reason"
        ]),
        "moves JSON fields: {value}"
    );
    // Xiongqi's repetitions (X6) carry no deciding rule.
    assert_eq!(value["reason"], Value::Null, "{value}");
    assert_eq!(value["game"], "xiongqi");
    assert!(value["position"].is_string());
    let turn = value["turn"].as_str().expect("turn is a string");
    assert!(turn == "first" || turn == "second", "turn = {turn}");
    assert!(
        value["halfmove"].is_u64(),
        "halfmove = {}",
        value["halfmove"]
    );
    let list = move_list(value);
    check_sorted(&list);
    assert!(value["check"].is_boolean());
    check_outcome(value, &list, &STATUSES);
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_start_text() {
    for (depth, nodes) in [("1", "26"), ("2", "676"), ("3", "17585"), ("4", "458226")] {
        let out = ok(&["perft", depth]);
        assert!(
            out.contains(nodes),
            "perft {depth} text lacks {nodes}: {out:?}"
        );
        let out = ok(&["perft", depth, "--game", "xiongqi", "--position", "start"]);
        assert!(out.contains(nodes), "perft {depth} text lacks {nodes}");
    }
}

#[test]
fn perft_start_json() {
    for (depth, nodes) in [(1, 26u64), (2, 676), (3, 17585), (4, 458226)] {
        let value = perft_json(depth, &[]);
        assert_eq!(value["depth"], depth);
        assert_eq!(value["nodes"], nodes);
    }
    // The start position given as a FEEN counts the same.
    let value = perft_json(3, &["--position", START]);
    assert_eq!(value["nodes"], 17585);
}

#[test]
fn perft_depth_zero_is_one_node() {
    let value = perft_json(0, &[]);
    assert_eq!(value["nodes"], 1);
}

#[test]
fn perft_divide_json_sums_to_nodes() {
    for (depth, nodes) in [(1, 26u64), (2, 676), (3, 17585)] {
        let value = perft_json(depth, &["--divide"]);
        assert_eq!(value["nodes"], nodes);
        let split = value["divide"].as_object().unwrap();
        assert_eq!(split.len(), 26, "divide {depth} keys");
        let keys: Vec<&str> = split.keys().map(String::as_str).collect();
        let mut expected = START_MOVES.to_vec();
        expected.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, expected, "divide keys are the legal moves");
        if depth == 1 {
            assert!(split.values().all(|n| n == 1));
        }
        if depth == 2 {
            assert!(split.values().all(|n| n == 26), "{value}");
        }
    }
}

#[test]
fn perft_divide_text_lists_each_move() {
    let out = ok(&["perft", "2", "--divide"]);
    for m in START_MOVES {
        assert!(
            out.lines().any(|l| l.starts_with(m) && l.contains("26")),
            "divide text lacks {m}: {out}"
        );
    }
    assert!(out.contains("676"));
}

#[test]
fn perft_position_and_halfmove() {
    let value = perft_json(2, &["--position", MIDGAME, "--halfmove", "99"]);
    assert_eq!(value["nodes"], 236);
    let value = perft_json(2, &["--position", MIDGAME, "--halfmove", "99", "--divide"]);
    assert_eq!(value["nodes"], 236);
    assert_eq!(value["divide"].as_object().unwrap().len(), 36);

    // At 100 half-moves the game is drawn (X7 5): no children (X9).
    let value = perft_json(1, &["--position", MIDGAME, "--halfmove", "100"]);
    assert_eq!(value["nodes"], 0);
    let value = perft_json(1, &["--position", MIDGAME, "--halfmove", "100", "--divide"]);
    assert_eq!(value["nodes"], 0);
    assert_eq!(value["divide"], serde_json::json!({}));

    let out = ok(&["perft", "2", "--position", MIDGAME, "--halfmove", "99"]);
    assert!(out.contains("236"), "{out}");
}

#[test]
fn perft_finished_position_has_no_children() {
    // X8: North has no terminal piece: a finished game.
    let value = perft_json(1, &["--position", "8/8/8/8/8/8/8/4G^3 / X/x"]);
    assert_eq!(value["nodes"], 0);
}

#[test]
fn perft_bad_position_fails() {
    let line = fails(&["perft", "2", "--position", "xyz"]);
    assert!(line.contains("position"), "{line}");
    fails(&["perft", "2", "--json", "--position", "xyz"]);
}

// ---------------------------------------------------------------- moves

#[test]
fn moves_json_at_start() {
    for args in [
        &[][..],
        &["--game", "xiongqi"][..],
        &["--position", "start"][..],
        &["--position", START][..],
    ] {
        let value = moves_json(args);
        check_moves_shape(&value);
        assert_eq!(value["position"], START);
        assert_eq!(value["turn"], "first");
        assert_eq!(value["halfmove"], 0);
        assert_eq!(value["check"], false);
        assert_eq!(value["status"], Value::Null);
        assert_eq!(value["winner"], Value::Null);
        assert_eq!(move_list(&value), START_MOVES);
    }
}

#[test]
fn moves_text_matches_json() {
    let out = ok(&["moves"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, START_MOVES);
    let out = ok(&["moves", "--moves", "e3-e4 e6-e5"]);
    let value = moves_json(&["--moves", "e3-e4 e6-e5"]);
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    assert_eq!(lines, move_list(&value));
}

#[test]
fn moves_after_a_sequence() {
    let value = moves_json(&["--moves", "a1-a2"]);
    check_moves_shape(&value);
    assert_eq!(
        value["position"],
        "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/R1C2C2/1HBAG^BHR / x/X"
    );
    assert_eq!(value["turn"], "second");
    assert_eq!(value["halfmove"], 1);
    assert_eq!(move_list(&value).len(), 26);

    // The clock starts at --halfmove and a soldier move resets it.
    let value = moves_json(&["--halfmove", "10", "--moves", "a1-a2"]);
    assert_eq!(value["halfmove"], 11);
    let value = moves_json(&["--halfmove", "10", "--moves", "a1-a2 a6-a5"]);
    assert_eq!(value["halfmove"], 0);
    assert_eq!(value["turn"], "first");
    assert_eq!(
        value["position"],
        "rhbag^bhr/2c2c2/1sssssss/s7/8/SSSSSSSS/R1C2C2/1HBAG^BHR / X/x"
    );

    // A capture (X1 crossing, X5 hand) resets it too.
    let value = moves_json(&["--halfmove", "7", "--moves", "e3-e4 e6-e5 e4+e5"]);
    check_moves_shape(&value);
    assert_eq!(
        value["position"],
        "rhbag^bhr/2c2c2/ssss1sss/4+S3/8/SSSS1SSS/2C2C2/RHBAG^BHR s/ x/X"
    );
    assert_eq!(value["halfmove"], 0);
    assert_eq!(value["turn"], "second");
    assert_eq!(move_list(&value).len(), 29);
}

#[test]
fn moves_coordinate_input_printed_as_pmn() {
    let pmn = moves_json(&["--moves", "e3-e4 e6-e5 e4+e5"]);
    let coords = moves_json(&["--moves", "e3e4 e6e5 e4e5"]);
    assert_eq!(pmn, coords);
    // The river crossing may be spelt out.
    let value = moves_json(&["--moves", "e3-e4 a6-a5 e4-e5=+S"]);
    assert_eq!(
        value["position"],
        "rhbag^bhr/2c2c2/1sssssss/s3+S3/8/SSSS1SSS/2C2C2/RHBAG^BHR / x/X"
    );
    // Whitespace of any kind separates moves.
    let spaced = moves_json(&["--moves", "  e3e4\te6e5 \n e4e5 "]);
    assert_eq!(spaced, coords);
}

#[test]
fn moves_promotion_lists_seven_choices() {
    let value = moves_json(&["--position", PROMOTE_SOUTH]);
    check_moves_shape(&value);
    assert_eq!(
        move_list(&value),
        [
            "e7-d7", "e7-e8", "e7-e8=A", "e7-e8=B", "e7-e8=C", "e7-e8=E", "e7-e8=H", "e7-e8=R",
            "e7-f7", "h1-g1", "h1-h2"
        ]
    );
    let value = moves_json(&["--position", PROMOTE_NORTH]);
    check_moves_shape(&value);
    assert_eq!(value["turn"], "second");
    let promotions: Vec<String> = move_list(&value)
        .into_iter()
        .filter(|m| m.starts_with("d2-d1"))
        .collect();
    assert_eq!(
        promotions,
        ["d2-d1", "d2-d1=a", "d2-d1=b", "d2-d1=c", "d2-d1=e", "d2-d1=h", "d2-d1=r"]
    );
}

#[test]
fn moves_promotion_input_forms() {
    let expected = "g^3E3/8/8/8/8/8/8/7G^ / x/X";
    for m in ["e7-e8=E", "e7e8e", "e7e8E"] {
        let value = moves_json(&["--position", PROMOTE_SOUTH, "--moves", m]);
        assert_eq!(value["position"], expected, "{m}");
        assert_eq!(value["halfmove"], 0, "{m}");
    }
    let value = moves_json(&["--position", PROMOTE_SOUTH, "--moves", "e7-e8"]);
    assert_eq!(value["position"], "g^3+S3/8/8/8/8/8/8/7G^ / x/X");
    // Never a general (X2).
    let line = fails(&["moves", "--position", PROMOTE_SOUTH, "--moves", "e7-e8=G"]);
    assert!(
        line.starts_with("illegal move 'e7-e8=G' at ply 1:"),
        "{line}"
    );
}

#[test]
fn moves_face_to_face_written_with_tilde() {
    let value = moves_json(&["--position", FACE]);
    check_moves_shape(&value);
    let list = move_list(&value);
    assert!(list.contains(&"e4~a4".to_string()), "{list:?}");
    for m in [
        "e4~a4", "e4~b4", "e4~c4", "e4~d4", "e4~f4", "e4~g4", "e4~h4",
    ] {
        assert!(list.contains(&m.to_string()), "{m} in {list:?}");
        assert!(!list.contains(&m.replace('~', "-")), "{m} twice");
    }
    assert!(list.contains(&"e4-e5".to_string()));

    // `~`, plain `-` and coordinates all play it (X3).
    for m in ["e4~a4", "e4-a4", "e4a4"] {
        let value = moves_json(&["--position", FACE, "--moves", m]);
        check_moves_shape(&value);
        assert_eq!(value["position"], "4d^3/8/8/8/R7/8/8/4D^3 / x/X", "{m}");
        assert_eq!(value["turn"], "second");
        assert_eq!(value["halfmove"], 1);
        // North's dragon now attacks South's along the file.
        assert_eq!(value["check"], true);
        assert!(move_list(&value).contains(&"e8+e1".to_string()));
    }
}

#[test]
fn moves_capture_of_the_general_is_mareking() {
    let value = moves_json(&["--position", CAPTURE_GENERAL, "--moves", "e7+e8"]);
    check_moves_shape(&value);
    assert_eq!(value["status"], "mareking");
    assert_eq!(value["winner"], "first");
    assert!(move_list(&value).is_empty());
    assert_eq!(value["position"], "4R3/8/8/8/8/8/8/G^7 g^/ x/X");
    assert_eq!(value["turn"], "second");
    // Text mode says how the game ended and who won.
    let out = ok(&["moves", "--position", CAPTURE_GENERAL, "--moves", "e7+e8"]);
    assert_eq!(
        out,
        "no legal moves: the game is over (mareking, first wins)\n"
    );
}

#[test]
fn moves_repetition_is_accepted_and_loses() {
    // X6: the fifth move repeats the first (same move, same resulting position).
    let value = moves_json(&["--moves", "a1-a2 a8-a7 a2-a1 a7-a8 a1-a2"]);
    check_moves_shape(&value);
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "second");
    assert!(move_list(&value).is_empty());
    assert_eq!(value["halfmove"], 5);
    assert_eq!(value["turn"], "second");

    // Before it, the repetitive move is not generated.
    let value = moves_json(&["--moves", "a1-a2 a8-a7 a2-a1 a7-a8"]);
    check_moves_shape(&value);
    assert_eq!(value["position"], START);
    assert_eq!(value["status"], Value::Null);
    let list = move_list(&value);
    assert_eq!(list.len(), 25);
    assert!(!list.contains(&"a1-a2".to_string()));

    // North repeating loses too.
    let value = moves_json(&["--moves", "a1-a2 a8-a7 a2-a1 a7-a8 h1-h2 a8-a7 h2-h1 a7-a8"]);
    assert_eq!(value["status"], "repetition");
    assert_eq!(value["winner"], "first");
}

#[test]
fn moves_draws_have_winner_none() {
    // X7 5: the 100th half-move without capture or soldier move.
    let value = moves_json(&[
        "--position",
        MIDGAME,
        "--halfmove",
        "99",
        "--moves",
        "e1-d1",
    ]);
    check_moves_shape(&value);
    assert_eq!(value["status"], "movelimit");
    assert_eq!(value["winner"], "none");
    assert_eq!(value["halfmove"], 100);
    let value = moves_json(&["--position", MIDGAME, "--halfmove", "100"]);
    assert_eq!(value["status"], "movelimit");
    assert_eq!(value["winner"], "none");
    // A soldier move resets the clock instead.
    let value = moves_json(&[
        "--position",
        MIDGAME,
        "--halfmove",
        "99",
        "--moves",
        "b4-b5",
    ]);
    assert_eq!(value["status"], Value::Null);
    assert_eq!(value["halfmove"], 0);

    // X7 3: only the terminal pieces left.
    let value = moves_json(&[
        "--position",
        "3g^4/8/8/8/8/8/4r3/4G^3 / X/x",
        "--moves",
        "e1+e2",
    ]);
    check_moves_shape(&value);
    assert_eq!(value["status"], "insufficient");
    assert_eq!(value["winner"], "none");
}

#[test]
fn moves_check_is_reported() {
    let value = moves_json(&["--position", MIDGAME, "--halfmove", "99"]);
    check_moves_shape(&value);
    assert_eq!(value["check"], true);
    assert_eq!(value["status"], Value::Null);
    assert_eq!(move_list(&value).len(), 36);
    // The horse leaving the e-file makes the generals face each other.
    assert!(move_list(&value).contains(&"e5~c4".to_string()));
}

// ---------------------------------------------------------------- errors

#[test]
fn error_illegal_move_names_move_and_ply() {
    let line = fails(&["moves", "--moves", "e3-e5"]);
    assert!(line.starts_with("illegal move 'e3-e5' at ply 1:"), "{line}");
    let line = fails(&["moves", "--json", "--moves", "e3-e4 e6-e5 e3-e5"]);
    assert!(line.starts_with("illegal move 'e3-e5' at ply 3:"), "{line}");
    let line = fails(&["show", "--moves", "e3-e5"]);
    assert!(line.starts_with("illegal move 'e3-e5' at ply 1:"), "{line}");
}

#[test]
fn error_move_after_the_end() {
    let line = fails(&[
        "moves",
        "--json",
        "--position",
        CAPTURE_GENERAL,
        "--moves",
        "e7+e8 e8-e7",
    ]);
    assert!(line.starts_with("illegal move 'e8-e7' at ply 2:"), "{line}");
    let line = fails(&["moves", "--moves", "a1-a2 a8-a7 a2-a1 a7-a8 a1-a2 h8-h7"]);
    assert!(line.starts_with("illegal move 'h8-h7' at ply 6:"), "{line}");
    let line = fails(&[
        "moves",
        "--position",
        MIDGAME,
        "--halfmove",
        "100",
        "--moves",
        "e1-d1",
    ]);
    assert!(line.starts_with("illegal move 'e1-d1' at ply 1:"), "{line}");
    // A FEEN without North's terminal piece is a finished game (X8).
    let line = fails(&[
        "moves",
        "--position",
        "8/8/8/8/8/8/8/4G^3 / X/x",
        "--moves",
        "e1-e2",
    ]);
    assert!(line.starts_with("illegal move 'e1-e2' at ply 1:"), "{line}");
}

#[test]
fn error_unknown_square() {
    for (m, sq) in [("z9-a1", "z9"), ("a1-a9", "a9"), ("i1-a1", "i1")] {
        let line = fails(&["moves", "--moves", m]);
        assert!(
            line.starts_with(&format!("illegal move '{m}' at ply 1:")),
            "{line}"
        );
        assert!(line.contains(sq), "{line}");
    }
}

#[test]
fn error_no_piece_on_the_square() {
    let line = fails(&["moves", "--json", "--moves", "e4-e5"]);
    assert!(line.starts_with("illegal move 'e4-e5' at ply 1:"), "{line}");
    assert!(line.contains("e4"), "{line}");
}

#[test]
fn error_wrong_sides_piece() {
    let line = fails(&["moves", "--moves", "e6-e5"]);
    assert!(line.starts_with("illegal move 'e6-e5' at ply 1:"), "{line}");
    let line = fails(&["moves", "--moves", "e3-e4 e4-e5"]);
    assert!(line.starts_with("illegal move 'e4-e5' at ply 2:"), "{line}");
}

#[test]
fn error_garbage_text() {
    for m in [
        "hello", "e3", "e3-", "=", "e3xe4", "e3-e4-e5", "S*e4", "...",
    ] {
        let line = fails(&["moves", "--moves", m]);
        assert!(
            line.starts_with(&format!("illegal move '{m}' at ply 1:")),
            "{line}"
        );
    }
    let line = fails(&["moves", "--moves", "e3-e4 hello"]);
    assert!(line.starts_with("illegal move 'hello' at ply 2:"), "{line}");
}

#[test]
fn error_wrong_capture_sign() {
    // A quiet move written as a capture and the other way round.
    let line = fails(&["moves", "--moves", "e3+e4"]);
    assert!(line.starts_with("illegal move 'e3+e4' at ply 1:"), "{line}");
    let line = fails(&["moves", "--moves", "c2-c6"]);
    assert!(line.starts_with("illegal move 'c2-c6' at ply 1:"), "{line}");
}

#[test]
fn error_bad_positions() {
    for (feen, hint) in [
        ("xyz", ""),
        ("", ""),
        ("4g^3/8/8/8/8/8/8/3G^4", ""),
        ("4g^3/8/8/8/8/8/8/3G^4 / X/x extra", ""),
        // X8: unknown letter, G without ^, ^ on another piece, two terminal pieces,
        // general against dragon, generals face to face, soldiers on the wrong bank.
        ("4q^3/8/8/8/8/8/8/3G^4 / X/x", "e8"),
        ("4g3/8/8/8/8/8/8/3G^4 / X/x", "e8"),
        ("4a^3/8/8/8/8/8/8/3G^4 / X/x", "e8"),
        ("4g^3/4d^3/8/8/8/8/8/3G^4 / X/x", ""),
        ("4g^3/8/8/8/8/8/8/3D^4 / X/x", "d1"),
        ("4g^3/8/8/8/8/8/8/4G^3 / X/x", "e1"),
        ("S7/8/8/8/8/8/8/4G^3 / X/x", "a8"),
        ("4g^3/8/8/8/8/8/8/+S2G^4 / X/x", "a1"),
        ("4g^3/8/8/8/8/8/8/8/3G^4 / X/x", ""),
        ("4g^3/8/8/8/8/8/8/3G^4 / Y/y", ""),
    ] {
        for cmd in ["moves", "show"] {
            let line = fails(&[cmd, "--position", feen]);
            assert!(line.contains("position"), "{feen}: {line}");
            assert!(line.contains(hint), "{feen}: {line} lacks {hint}");
        }
        fails(&["moves", "--json", "--position", feen]);
        fails(&["perft", "1", "--position", feen]);
    }
}

#[test]
fn error_bad_game_is_a_usage_error() {
    for args in [
        &["moves", "--game", "chess"][..],
        &["perft", "1", "--game", "chess"][..],
        &["show", "--game", "shogi"][..],
    ] {
        let r = chuhe(args);
        assert_eq!(r.code, Some(2), "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}: {:?}", r.stdout);
        assert!(r.stderr.contains(args[args.len() - 1]), "{:?}", r.stderr);
    }
    // Other usage errors are exit 2 as well.
    for args in [
        &["perft"][..],
        &["perft", "abc"][..],
        &["moves", "--glyphs", "chinese"][..],
        &["show", "--glyphs", "klingon"][..],
    ] {
        let r = chuhe(args);
        assert_eq!(r.code, Some(2), "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}");
    }
}

// ---------------------------------------------------------------- show

fn show_lines(out: &str) -> Vec<&str> {
    out.lines().collect()
}

fn has_line(out: &str, prefix: &str) -> bool {
    show_lines(out).iter().any(|l| l.starts_with(prefix))
}

#[test]
fn show_latin_by_default() {
    let out = ok(&["show"]);
    assert_eq!(
        out,
        ok(&["show", "--game", "xiongqi", "--position", "start"])
    );
    for piece in [
        "G^", "g^", "R", "r", "H", "h", "B", "b", "A", "a", "C", "c", "S", "s",
    ] {
        assert!(out.contains(piece), "show lacks {piece}: {out}");
    }
    assert!(!out.contains('帥'));
    assert!(has_line(&out, "turn"), "{out}");
    assert!(has_line(&out, "check"), "{out}");
    assert!(has_line(&out, "status"), "{out}");
    let turn = show_lines(&out)
        .into_iter()
        .find(|l| l.starts_with("turn"))
        .unwrap();
    assert!(turn.contains("first"), "{turn}");
    // Rank 8 is drawn above rank 1.
    let top = out.find("g^").unwrap();
    let bottom = out.find("G^").unwrap();
    assert!(top < bottom, "{out}");
}

#[test]
fn show_chinese_glyphs() {
    let out = ok(&["show", "--glyphs", "chinese"]);
    for glyph in ['帥', '將', '兵', '卒', '俥', '車'] {
        assert!(
            out.contains(glyph),
            "show --glyphs chinese lacks {glyph}: {out}"
        );
    }
    assert_eq!(out.matches('兵').count(), 8);
    assert_eq!(out.matches('卒').count(), 8);
    // The board itself (the ranks) has no PIN letters.
    let board: String = show_lines(&out)
        .into_iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(
        board.matches(|c: char| "GgRrSs^".contains(c)).count(),
        0,
        "{out}"
    );
    assert!(has_line(&out, "turn"));
    assert!(has_line(&out, "check"));
    assert!(has_line(&out, "status"));
    assert_eq!(
        out,
        ok(&["show", "--glyphs", "chinese", "--position", START])
    );
    assert_eq!(ok(&["show", "--glyphs", "latin"]), ok(&["show"]));
}

#[test]
fn show_after_moves() {
    let out = ok(&["show", "--moves", "e3-e4"]);
    let turn = show_lines(&out)
        .into_iter()
        .find(|l| l.starts_with("turn"))
        .unwrap();
    assert!(turn.contains("second"), "{turn}");

    // Generals gone after the face to face (X3).
    let out = ok(&[
        "show",
        "--position",
        FACE,
        "--moves",
        "e4~a4",
        "--glyphs",
        "chinese",
    ]);
    assert!(!out.contains('帥') && !out.contains('將'), "{out}");
    let check = show_lines(&out)
        .into_iter()
        .find(|l| l.starts_with("check"))
        .unwrap();
    assert!(check.contains("yes"), "{check}");

    // A finished game says so.
    let out = ok(&["show", "--position", CAPTURE_GENERAL, "--moves", "e7+e8"]);
    let status = show_lines(&out)
        .into_iter()
        .find(|l| l.starts_with("status"))
        .unwrap();
    assert!(status.contains("mareking"), "{status}");
    let out = ok(&["show", "--moves", "a1-a2 a8-a7 a2-a1 a7-a8 a1-a2"]);
    let status = show_lines(&out)
        .into_iter()
        .find(|l| l.starts_with("status"))
        .unwrap();
    assert!(status.contains("repetition"), "{status}");
}

#[test]
fn coordinate_notation_reads_and_prints_the_coordinate_form() {
    let pmn = move_list(&ok_json(&["moves", "--moves", "e3-e4 e6-e5", "--json"]));
    let uci = move_list(&ok_json(&[
        "moves",
        "--moves",
        "e3e4 e6e5",
        "--notation",
        "uci",
        "--json",
    ]));
    assert_eq!(pmn.len(), uci.len());
    assert!(uci.contains(&"e4e5".to_string()), "{uci:?}");
    assert!(pmn.contains(&"e4+e5".to_string()), "{pmn:?}");
    check_sorted(&uci);
    assert_eq!(
        ok(&["convert", "--from", "pmn", "--to", "uci", "e3-e4", "e6-e5"]),
        "e3e4\ne6e5\n"
    );
    // Xiangqi's notations are refused for Xiongqi, even with no moves to read.
    for notation in ["iccs", "wxf", "teaching", "chinese", "san"] {
        let err = fails(&["moves", "--notation", notation]);
        assert!(err.contains("only xiangqi"), "{err}");
    }
}
