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
