//! Exact error messages: their wording is part of the crate's interface.

use chuhe_notation::*;

fn feen_err(s: &str) -> String {
    Feen::parse(s).unwrap_err().to_string()
}

const START: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR";

#[test]
fn feen_count_of_one_in_hand() {
    let err = Feen::parse(&format!("{START} 1s/ X/x")).unwrap_err();
    assert_eq!(err.notation, Notation::Feen);
    assert_eq!(err.field, Some("hands"));
    assert_eq!(err.offset, 54);
    assert_eq!(err.expected, "a count of at least 2");
    assert_eq!(err.found, "'1s'");
    assert_eq!(
        err.canonical.as_deref(),
        Some(format!("{START} s/ X/x").as_str())
    );
    assert_eq!(
        err.to_string(),
        "invalid FEEN (hands) at offset 54: expected a count of at least 2, found '1s'; \
         canonical form: 'rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR s/ X/x'"
    );
}

#[test]
fn feen_wrong_hand_order() {
    assert_eq!(
        feen_err(&format!("{START} c2h3s/+SR X/x")),
        "invalid FEEN (hands) at offset 55: expected hand items in canonical order (larger counts first, \
         then by piece), found '2h' after 'c'; \
         canonical form: 'rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR 3s2hc/R+S X/x'"
    );
}

#[test]
fn feen_unaggregated_hand() {
    assert_eq!(
        feen_err("8/8 s2s/ X/x"),
        "invalid FEEN (hands) at offset 5: expected identical pieces aggregated into one count, \
         found 's' listed again; canonical form: '8/8 3s/ X/x'"
    );
}

#[test]
fn feen_leading_zero_run() {
    assert_eq!(
        feen_err("rhbag^bhr/2c2c2/ssssssss/8/08/SSSSSSSS/2C2C2/RHBAG^BHR / X/x"),
        "invalid FEEN (placement) at offset 27: expected an empty-square count from 1 without leading \
         zeros, found '08'; canonical form: 'rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x'"
    );
}

#[test]
fn feen_bad_width() {
    assert_eq!(
        feen_err("rhbag^bhr/2c2c2/ssssssss/8/44/SSSSSSSS/2C2C2/RHBAG^BHR / X/x"),
        "invalid FEEN (placement) at offset 27: expected a rank of 8 squares like the first rank, \
         found a rank of 44 squares"
    );
    assert_eq!(
        feen_err("8/7 / X/x"),
        "invalid FEEN (placement) at offset 2: expected a rank of 8 squares like the first rank, \
         found a rank of 7 squares"
    );
}

#[test]
fn feen_same_case_turn() {
    let err = Feen::parse(&format!("{START} / X/X")).unwrap_err();
    assert_eq!(
        (err.field, err.offset, err.canonical.as_deref()),
        (Some("style-turn"), 58, None)
    );
    assert_eq!(
        err.to_string(),
        "invalid FEEN (style-turn) at offset 58: expected a style letter of the opposite case to 'X', found 'X'"
    );
}

#[test]
fn feen_structure_errors() {
    assert_eq!(
        feen_err(START),
        "invalid FEEN (placement) at offset 53: expected a piece, an empty-square count, '/' or ' ', found end of input"
    );
    assert_eq!(
        feen_err("8//8 / X/x"),
        "invalid FEEN (placement) at offset 2: expected a piece or an empty-square count, found '/'"
    );
    assert_eq!(
        feen_err("8/8 / X/x\n"),
        "invalid FEEN (style-turn) at offset 9: expected end of input, found '\\n'"
    );
    assert_eq!(
        feen_err("8/8 / X/é"),
        "invalid FEEN at offset 8: expected ASCII text (FEEN is ASCII only), found 'é'"
    );
    assert_eq!(
        feen_err("ss/2 3s/ X/x"),
        "invalid FEEN at offset 5: expected at most 4 pieces in all (one per square), \
         found 5 pieces (2 on the board, 3 in hand)"
    );
    assert_eq!(
        feen_err("8/8 99s/ X/x"),
        "invalid FEEN (hands) at offset 4: expected a count of at most 16 (the number of squares), found '99'"
    );
    assert_eq!(
        feen_err("99999999999999999999/8 / X/x"),
        "invalid FEEN (placement) at offset 0: expected an empty-square count of at most 65535, \
         found '99999999999999999999'"
    );
    assert_eq!(
        feen_err("8/8 / Xx"),
        "invalid FEEN (style-turn) at offset 7: expected '/' between the two style letters, found 'x'"
    );
    assert_eq!(
        feen_err("8/8 X/x"),
        "invalid FEEN (hands) at offset 7: expected a hand piece, a count or ' ', found end of input"
    );
}

#[test]
fn cell_errors() {
    assert_eq!(
        Cell::parse("a0").unwrap_err().to_string(),
        "invalid CELL at offset 1: expected a rank number from 1 without leading zeros, found '0'"
    );
    assert_eq!(
        Cell::parse("a01").unwrap_err().to_string(),
        "invalid CELL at offset 1: expected a rank number from 1 without leading zeros, found '01'; canonical form: 'a1'"
    );
    assert_eq!(
        Cell::parse("A1").unwrap_err().to_string(),
        "invalid CELL at offset 0: expected a lowercase file letter a-z, found 'A'"
    );
    assert_eq!(
        Cell::parse("").unwrap_err().to_string(),
        "invalid CELL at offset 0: expected a lowercase file letter a-z, found end of input"
    );
    assert_eq!(
        Cell::parse("crxq1").unwrap_err().to_string(),
        "invalid CELL at offset 0: expected a file of at most 65536 (letters up to 'crxp'), found 'crxq'"
    );
}

#[test]
fn pin_errors() {
    assert_eq!(
        Pin::parse("^G").unwrap_err().to_string(),
        "invalid PIN at offset 0: expected '+', '-' or a piece letter, found '^'"
    );
    assert_eq!(
        Pin::parse("+").unwrap_err().to_string(),
        "invalid PIN at offset 1: expected a piece letter A-Z or a-z, found end of input"
    );
    assert_eq!(
        Pin::parse("G^^").unwrap_err().to_string(),
        "invalid PIN at offset 2: expected end of input, found '^'"
    );
    assert_eq!(
        Pin::parse("GG").unwrap_err().to_string(),
        "invalid PIN at offset 1: expected '^' or end of input, found 'G'"
    );
    assert_eq!(
        Epin::parse("Sx").unwrap_err().to_string(),
        "invalid EPIN at offset 1: expected '^', an apostrophe or end of input, found 'x'"
    );
}

#[test]
fn style_errors() {
    assert_eq!(
        Qpi::parse("X:g^").unwrap_err().to_string(),
        "invalid QPI at offset 2: expected an uppercase piece letter, like the style 'X', found 'g'"
    );
    assert_eq!(
        Snn::parse("XIONG-QI").unwrap_err().to_string(),
        "invalid SNN at offset 5: expected a letter, a digit or end of input, found '-'"
    );
    assert_eq!(
        Snn::parse("xiongqi").unwrap_err().to_string(),
        "invalid SNN at offset 0: expected an uppercase letter A-Z starting the style name, found 'x'"
    );
    assert_eq!(
        Sin::parse("XX").unwrap_err().to_string(),
        "invalid SIN at offset 1: expected end of input, found 'X'"
    );
}

#[test]
fn pmn_errors() {
    assert_eq!(
        Pmn::parse("e3-e4/p").unwrap_err().to_string(),
        "invalid PMN at offset 5: expected '=' or end of input (a quiet move '-' captures nothing, \
         so it has no '/'), found '/'"
    );
    assert_eq!(
        Pmn::parse("e3").unwrap_err().to_string(),
        "invalid PMN at offset 2: expected '-', '+', '~' or '=' after the square, found end of input"
    );
    assert_eq!(
        Pmn::parse("e01-e2").unwrap_err().to_string(),
        "invalid PMN at offset 1: expected a rank number from 1 without leading zeros, found '01'; \
         canonical form: 'e1-e2'"
    );
    assert_eq!(
        Pmn::parse(&"a".repeat(70)).unwrap_err().to_string(),
        "invalid PMN at offset 64: expected a move of at most 64 bytes, found 70 bytes"
    );
}

#[test]
fn cgsn_errors() {
    assert_eq!(
        Status::parse("Resignation").unwrap_err().to_string(),
        "invalid CGSN at offset 0: expected a CGSN status word (check, stale, checkmate, stalemate, nomove, \
         bareking, mareking, insufficient, resignation, illegalmove, timelimit, movelimit, repetition, \
         agreement), found 'Resignation'; canonical form: 'resignation'"
    );
}

#[test]
fn pcn_errors() {
    use chuhe_notation::pcn::Pcn;
    let err = Pcn::from_json(r#"{"setup": "8/8 / X/x", "moves": [["e1-e2", 1], ["e2-e3/p", 1]]}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid PCN moves[1]: invalid PMN at offset 5: expected '=' or end of input (a quiet move '-' \
         captures nothing, so it has no '/'), found '/'"
    );
    let err = Pcn::from_json(r#"{"setup": "8/8 / X/X"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid PCN setup: invalid FEEN (style-turn) at offset 8: expected a style letter of the opposite \
         case to 'X', found 'X'"
    );
}

/// Every message each parser gives for `text`, as one list.
fn every_error(text: &str) -> Vec<String> {
    use chuhe_notation::ggn::Ggn;
    use chuhe_notation::pcn::Pcn;
    let json = |s: &str| serde_json::to_string(s).unwrap();
    let start = format!("{START} / X/x");
    let mut errors: Vec<String> = [
        Cell::parse(text).err().map(|e| e.to_string()),
        Pin::parse(text).err().map(|e| e.to_string()),
        Epin::parse(text).err().map(|e| e.to_string()),
        Sin::parse(text).err().map(|e| e.to_string()),
        Snn::parse(text).err().map(|e| e.to_string()),
        Qpi::parse(text).err().map(|e| e.to_string()),
        Pmn::parse(text).err().map(|e| e.to_string()),
        Status::parse(text).err().map(|e| e.to_string()),
        Feen::parse(text).err().map(|e| e.to_string()),
        Feen::parse(&format!("{text} / X/x"))
            .err()
            .map(|e| e.to_string()),
        Feen::parse(&format!("8/8 {text}/ X/x"))
            .err()
            .map(|e| e.to_string()),
        Feen::parse(&format!("8/8 / {text}"))
            .err()
            .map(|e| e.to_string()),
        Pcn::from_json(text).err().map(|e| e.to_string()),
        Pcn::from_json(&format!(r#"{{"setup": {}}}"#, json(text)))
            .err()
            .map(|e| e.to_string()),
        Pcn::from_json(&format!(
            r#"{{"setup": {}, "moves": [[{}, 1]]}}"#,
            json(&start),
            json(text)
        ))
        .err()
        .map(|e| e.to_string()),
        Pcn::from_json(&format!(
            r#"{{"setup": {}, "moves": [["e3-e4", {}]]}}"#,
            json(&start),
            json(text)
        ))
        .err()
        .map(|e| e.to_string()),
        Pcn::from_json(&format!(
            r#"{{"setup": {}, "status": {}, "winner": {}}}"#,
            json(&start),
            json(text),
            json(text)
        ))
        .err()
        .map(|e| e.to_string()),
        Pcn::from_json(&format!(
            r#"{{"setup": {}, "winner": {}}}"#,
            json(&start),
            json(text)
        ))
        .err()
        .map(|e| e.to_string()),
        Ggn::from_json(&format!(r#"{{{}: {{}}}}"#, json(text)))
            .err()
            .map(|e| e.to_string()),
        Ggn::from_json(&format!(
            r#"{{"X:R": {{"a1": {{"a2": [{{"must": {{"a2": {}}}}}]}}}}}}"#,
            json(text)
        ))
        .err()
        .map(|e| e.to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    errors.retain(|e| !e.is_empty());
    errors
}

#[test]
fn long_input_is_cut_short_in_every_message() {
    // The class: whatever a parser is given, its message quotes at most 40 characters of any
    // one piece of input (canonical forms and JSON messages: 256), never the whole of it.
    for unit in [
        "e", "é", "帥", "S", "8/", "a1", "e3-e4", "+", "X/", "\"", "\\",
    ] {
        let long = unit.repeat(10_000 / unit.len() + 1);
        let errors = every_error(&long);
        assert!(errors.len() >= 10, "{unit}: {errors:?}");
        for message in errors {
            assert!(
                message.chars().count() <= 600,
                "{unit}: {} characters: {}",
                message.chars().count(),
                message.chars().take(700).collect::<String>()
            );
        }
    }
    // The form: the first 40 characters, an ellipsis and the length, never splitting a
    // character.
    let long = format!("{}帥{}", "é".repeat(39), "x".repeat(60));
    assert_eq!(
        Status::parse(&long).unwrap_err().found,
        format!("'{}帥… (100 characters)'", "é".repeat(39))
    );
    // Short input is quoted whole.
    assert_eq!(Status::parse("é").unwrap_err().found, "'é'");
}

#[test]
fn counts_of_one_are_singular() {
    assert_eq!(
        feen_err("1 S/s X/x"),
        "invalid FEEN at offset 2: expected at most 1 piece in all (one per square), \
         found 2 pieces (0 on the board, 2 in hand)"
    );
    assert_eq!(
        error::shorten_to("ab", 0),
        "… (2 characters)",
        "an ellipsis and the length"
    );
    assert_eq!(error::shorten_to("a", 0), "… (1 character)");
}
