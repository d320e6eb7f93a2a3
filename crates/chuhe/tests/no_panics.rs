//! Every entry point that takes text returns a value or a typed error, never a panic.

use chuhe::xiangqi::{self, MoveNotation, RuleSet};
use chuhe::xiongqi;
use chuhe::GamePosition;
use proptest::prelude::*;

/// Text made of the characters positions and moves are written with, plus some others.
fn notation_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('a'),
            Just('e'),
            Just('h'),
            Just('i'),
            Just('z'),
            Just('R'),
            Just('C'),
            Just('H'),
            Just('P'),
            Just('G'),
            Just('S'),
            Just('k'),
            Just('K'),
            Just('0'),
            Just('1'),
            Just('5'),
            Just('9'),
            Just('-'),
            Just('+'),
            Just('='),
            Just('.'),
            Just('~'),
            Just('/'),
            Just('^'),
            Just(' '),
            Just('*'),
            Just('é'),
            Just('帥'),
        ],
        0..16,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn move_parsers_never_panic(text in prop_oneof![notation_text(), any::<String>()]) {
        let xo = xiongqi::Position::start();
        let _ = xo.parse_move(&text);
        let mut game = xiongqi::Game::new();
        let _ = game.play_text(&text);
        let xq = xiangqi::Position::start();
        for n in MoveNotation::ALL {
            let _ = xq.parse_move_as(&text, n);
        }
        let crowded = xiangqi::Position::from_text(
            "3k5/9/4P4/2P1P4/4P4/9/9/9/9/5K3 w - - 0 1",
            RuleSet::Standard,
        )
        .unwrap();
        for n in MoveNotation::ALL {
            let _ = crowded.parse_move_as(&text, n);
        }
    }

    #[test]
    fn position_parsers_never_panic(text in prop_oneof![notation_text(), any::<String>()]) {
        let _ = xiongqi::Position::from_feen(&text);
        let _ = xiangqi::Position::from_text(&text, RuleSet::Standard);
        let _ = xiangqi::Position::from_text(&text, RuleSet::Capture);
        let fen = format!("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR {text}");
        let _ = xiangqi::Position::from_fen(&fen, RuleSet::Standard);
        let _ = chuhe::suite::parse_suite(&text);
    }
}

/// Every error message the library gives for `text` in any of its text entry points.
fn every_error(text: &str) -> Vec<String> {
    let start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let start_feen = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR";
    let mut errors = Vec::new();
    let mut push = |e: Option<String>| errors.extend(e);
    push(
        xiongqi::Position::start()
            .parse_move(text)
            .err()
            .map(|e| e.to_string()),
    );
    push(
        xiongqi::Game::new()
            .play_text(text)
            .err()
            .map(|e| e.to_string()),
    );
    for feen in [
        text.to_string(),
        format!("{start_feen} {text}/ X/x"),
        format!("{start_feen} / {text}"),
    ] {
        push(
            xiongqi::Position::from_feen(&feen)
                .err()
                .map(|e| e.to_string()),
        );
    }
    let xq = xiangqi::Position::start();
    for n in MoveNotation::ALL {
        push(xq.parse_move_as(text, n).err().map(|e| e.to_string()));
    }
    push(xq.parse_move(text).err().map(|e| e.to_string()));
    push(
        xiangqi::Game::new()
            .play_text(text)
            .err()
            .map(|e| e.to_string()),
    );
    push(text.parse::<MoveNotation>().err().map(|e| e.to_string()));
    for rules in [RuleSet::Standard, RuleSet::Capture] {
        for position in [
            text.to_string(),
            format!("{start_fen} {text}"),
            format!("{start_fen} w {text}"),
            format!("{start_fen} w - - {text}"),
            format!("{start_fen} w - - 0 {text}"),
            format!("{start_fen} w - - 0 1 {text}"),
            format!("{text} w - - 0 1"),
            format!("{start_feen} {text}/ X/x"),
        ] {
            push(
                xiangqi::Position::from_text(&position, rules)
                    .err()
                    .map(|e| e.to_string()),
            );
        }
    }
    for suite in [
        text.to_string(),
        format!("id {text}\n"),
        format!("id x\n{text} 1\n"),
        format!("id x\nfen {start_fen} w - - 0 1\nperft {text}\n"),
        format!("id x\nfen {start_fen} w - - 0 1\nhalfmove {text}\n"),
    ] {
        push(
            chuhe::suite::parse_suite(&suite)
                .err()
                .map(|e| e.to_string()),
        );
    }
    errors
}

/// Long text: a short piece of notation-like or arbitrary text, repeated.
fn long_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![notation_text(), any::<String>()].prop_filter("not empty", |s| !s.is_empty()),
        200usize..3000,
    )
        .prop_map(|(unit, n)| unit.repeat(n / unit.chars().count() + 1))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The class: however long the input, a message quotes at most 40 characters of it.
    #[test]
    fn long_input_is_cut_short_in_every_message(text in long_text()) {
        for message in every_error(&text) {
            prop_assert!(
                message.chars().count() <= 600,
                "{} characters: {}",
                message.chars().count(),
                message.chars().take(700).collect::<String>()
            );
        }
    }
}

#[test]
fn a_long_move_is_quoted_by_its_first_forty_characters_and_its_length() {
    let long = "e".repeat(10_000);
    let err = xiangqi::Position::start().parse_move(&long).unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "'{}… (10000 characters)' is not a move",
            "e".repeat(40)
        )),
        "{err}"
    );
    // Never inside a character.
    let long = "帥".repeat(10_000);
    let err = xiongqi::Position::start().parse_move(&long).unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "'{}… (10000 characters)' is not a move",
            "帥".repeat(40)
        )),
        "{err}"
    );
}

/// Does `text` start like a square (lowercase letters, then a digit)?
fn starts_with_square(text: &str) -> bool {
    let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
    letters > 0 && text.as_bytes().get(letters).is_some_and(u8::is_ascii_digit)
}

/// `1 ranks`, `1 points`…: a count of one with a plural noun.
fn singular_with_plural(message: &str) -> Option<String> {
    let words: Vec<&str> = message
        .split(|c: char| c.is_whitespace() || c == '(')
        .collect();
    words.windows(2).find_map(|w| {
        let plural = [
            "ranks",
            "points",
            "pieces",
            "squares",
            "characters",
            "bytes",
        ];
        (w[0] == "1"
            && plural
                .iter()
                .any(|p| w[1].trim_end_matches([',', ';', ')']) == *p))
        .then(|| format!("{} {}", w[0], w[1]))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    /// Neither game has drops: text that is not a move at all is answered with what a move of
    /// the game looks like, never with the PMN reader's guess that it is a drop.
    #[test]
    fn move_errors_say_what_a_move_of_the_game_looks_like(
        text in prop_oneof![notation_text(), any::<String>()]
    ) {
        let xo = xiongqi::Position::start().parse_move(&text).err().map(|e| e.to_string());
        let xq = xiangqi::Position::start().parse_move(&text).err().map(|e| e.to_string());
        for (message, example) in [(xo, "e3-e4 or e3e4"), (xq, "h3-e3 or h3e3")] {
            let Some(message) = message else { continue };
            prop_assert!(!message.contains("dropped piece"), "{text:?}: {message}");
            if !starts_with_square(&text) && message.contains("is not a move") {
                prop_assert!(
                    message.ends_with(&format!("expected a move such as {example}")),
                    "{text:?}: {message}"
                );
            }
        }
    }

    /// A count of one takes the singular, in every message.
    #[test]
    fn counts_of_one_are_singular(text in prop_oneof![notation_text(), any::<String>()]) {
        for message in every_error(&text) {
            prop_assert!(singular_with_plural(&message).is_none(), "{message}");
        }
    }
}

#[test]
fn text_that_is_no_move_at_all_is_told_what_a_move_looks_like() {
    for text in ["xyz", "", "é", "E3-E4", "..", "x-y", "Ke2", "3e-4e"] {
        let err = xiongqi::Position::start().parse_move(text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("'{text}' is not a move: expected a move such as e3-e4 or e3e4")
        );
        let err = xiangqi::Position::start().parse_move(text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("'{text}' is not a move: expected a move such as h3-e3 or h3e3")
        );
    }
}
