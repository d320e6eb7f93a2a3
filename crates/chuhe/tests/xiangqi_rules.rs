//! One test per rule decision of `shared/docs/xiangqi-rules.md` (S1–S6, C1–C4), each with a
//! hand-built position.

use chuhe::xiangqi::{perft, squares, Game, MoveNotation, Position, RuleSet, SetupError};
use chuhe::GamePosition;
use chuhe::{Outcome, RepetitionRule, Side, Status};

fn standard(fen: &str) -> Game {
    Game::from_text(fen, RuleSet::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn capture(fen: &str) -> Game {
    Game::from_text(fen, RuleSet::Capture).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves_from(game: &Game, from: &str) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_moves()
        .iter()
        .filter(|m| m.from().to_string() == from)
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn s1_no_move_may_leave_the_general_attacked() {
    // A chariot pins the horse on e3: it may not move at all.
    let g = standard("3k5/9/4r4/9/9/9/9/4N4/9/4K4 w - - 0 1");
    assert!(moves_from(&g, "e3").is_empty());
    // The general may not step onto d1: the generals would face each other on the open d-file.
    assert_eq!(moves_from(&g, "e1"), ["e1e2", "e1f1"]);

    // Two pieces between a cannon and the general: either one leaving the file is a check.
    let g = standard("3k5/9/4c4/9/4P4/9/9/4N4/9/4K4 w - - 0 1");
    assert!(
        moves_from(&g, "e3").is_empty(),
        "{:?}",
        moves_from(&g, "e3")
    );
    assert_eq!(moves_from(&g, "e6"), ["e6e7"]);
    // No piece between: putting one there makes a screen, which is a check too.
    let g = standard("3k5/9/4c4/9/9/9/9/2N6/9/4K4 w - - 0 1");
    assert_eq!(
        moves_from(&g, "c3"),
        ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5"]
    );

    // A horse leg: the chariot on f2 blocks the horse on f3 from e1; it may only take the horse.
    let g = standard("3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1");
    assert_eq!(moves_from(&g, "f2"), ["f2f3"]);

    // In check, only answers are legal.
    let g = standard("3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1");
    assert!(g.is_check());
    assert_eq!(moves_from(&g, "e1"), ["e1e2"]);
}

#[test]
fn s1_the_side_not_to_move_is_never_in_check() {
    // Whatever attacks it, the general of the side that has just moved cannot be attacked
    // (S1): such a FEN is refused, at the general's square. The teaching rules read it.
    let cases = [
        (
            "4k4/9/9/9/9/9/9/9/4R4/3K5 w",
            "e10",
            "is attacked by the chariot on e2",
        ),
        (
            "4k4/9/3N5/9/9/9/9/9/9/3K5 w",
            "e10",
            "is attacked by the horse on d8",
        ),
        (
            "4k4/9/9/9/4P4/9/9/4C4/9/3K5 w",
            "e10",
            "is attacked by the cannon on e3",
        ),
        (
            "4k4/4P4/9/9/9/9/9/9/9/3K5 w",
            "e10",
            "is attacked by the soldier on e9",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            "e10",
            "faces the general on e1 on an open file",
        ),
        (
            "4k4/9/3N5/9/9/9/9/9/9/R3K4 w",
            "e10",
            "is attacked by the horse on d8 and faces the general on e1 on an open file",
        ),
        (
            "5k3/9/9/9/9/9/9/9/9/3Kr4 b",
            "d1",
            "is attacked by the chariot on e1",
        ),
        // Only the side to move is in check: ordinary positions.
        ("3k5/9/9/9/9/9/9/9/9/3RK4 b", "", ""),
        ("4k4/9/9/9/9/9/9/9/4r4/3K5 w", "", ""),
    ];
    for (fen, general, how) in cases {
        let fen = format!("{fen} - - 0 1");
        let read = Position::from_text(&fen, RuleSet::Standard);
        let capture = Position::from_text(&fen, RuleSet::Capture).expect(&fen);
        if general.is_empty() {
            assert!(read.is_ok(), "{fen}: {read:?}");
            continue;
        }
        let side = if fen.contains(" w") { "Black" } else { "Red" };
        let err = match read {
            Err(SetupError::Invalid(e)) => e,
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(err.problems.len(), 1, "{fen}: {err}");
        assert_eq!(err.problems[0].location.to_string(), general);
        assert!(
            err.problems[0].message.starts_with(&format!(
                "the side not to move ({side}) is in check: its general on {general} {how}"
            )),
            "{fen}: {err}"
        );
        // The same, colours and ranks swapped: the other side's general, the mirrored square.
        let mirrored = capture.mirrored().to_fen();
        let err = Position::from_text(&mirrored, RuleSet::Standard)
            .expect_err(&mirrored)
            .to_string();
        assert!(err.contains("the side not to move"), "{mirrored}: {err}");
    }
}

#[test]
fn s2_checkmate_and_stalemate_lose_for_the_side_to_move() {
    let g = standard("R3k4/8R/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(g.is_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Checkmate, Side::First))
    );
    let g = standard("4k4/9/2N6/9/9/9/9/5R3/3R5/3K5 b - - 0 1");
    assert!(!g.is_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Stalemate, Side::First))
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn s3_repetition_perpetual_check_loses_otherwise_draw() {
    // Red checks with every move: on the third occurrence Red loses.
    let mut g = standard("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1");
    play(&mut g, "a9a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Repetition, Side::Second).by(RepetitionRule::PerpetualCheck))
    );
    // Nobody checks: a draw.
    let mut g = standard("4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1");
    play(&mut g, "a6a5 e10e9 a5a6 e9e10 a6a5 e10e9 a5a6 e9e10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Status::Repetition).by(RepetitionRule::Plain))
    );
    // The fold count is a parameter.
    let mut pos =
        Position::from_text("4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1", RuleSet::Standard).unwrap();
    pos.set_repetition_fold(4).unwrap();
    // Every count below 2 is refused and changes nothing; every other one is taken as given.
    for fold in 0..=u8::MAX {
        let mut p = pos.clone();
        match p.set_repetition_fold(fold) {
            Ok(()) => assert!(fold >= 2 && p.repetition_fold() == fold, "{fold}"),
            Err(e) => {
                assert!(fold < 2, "{fold}: {e}");
                assert_eq!(e.fold, fold);
                assert_eq!(p, pos);
                assert!(e.to_string().contains("at least 2"), "{e}");
            }
        }
    }
    let mut g = Game::from_position(pos);
    play(&mut g, "a6a5 e10e9 a5a6 e9e10 a6a5 e10e9 a5a6 e9e10");
    assert_eq!(g.outcome(), None);
    play(&mut g, "a6a5 e10e9 a5a6 e9e10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Status::Repetition).by(RepetitionRule::Plain))
    );
}

#[test]
fn s4_a_hundred_plies_without_capture_draw() {
    let mut g = standard("4k4/9/9/9/R8/9/9/9/9/3K5 w - - 99 60");
    play(&mut g, "a6a5");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Movelimit)));
    // A capture resets the count.
    let mut g = standard("4k4/9/9/9/R3p4/9/9/9/9/3K5 w - - 99 60");
    play(&mut g, "a6e6");
    assert_eq!(g.position().halfmove(), 0);
    assert_eq!(g.outcome(), None);
}

#[test]
fn s5_no_chariot_horse_cannon_or_soldier_is_a_draw() {
    let g = standard("4k4/4a4/9/9/9/9/9/9/4A4/3K2B2 w - - 0 1");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Insufficient)));
    // The last attacking piece taken: the general takes the checking soldier.
    let mut g = standard("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1");
    assert!(g.is_check());
    assert_eq!(g.outcome(), None);
    play(&mut g, "e1e2");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Insufficient)));
}

#[test]
fn c1_every_movement_valid_move_is_legal() {
    // The pinned horse of S1 may move under the teaching rules.
    let g = capture("3k5/9/4r4/9/9/9/9/4N4/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&g, "e3").len(), 8);
    assert!(moves_from(&g, "e1").contains(&"e1d1".to_string()));
}

#[test]
fn c2_facing_generals_may_fly_and_capture() {
    let mut g = capture("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert!(moves_from(&g, "e1").contains(&"e1e10".to_string()));
    play(&mut g, "e1e10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Mareking, Side::First))
    );
    // The finished position reads back from its FEEN and FEN.
    for text in [g.position().to_feen(), g.position().to_fen()] {
        let back = Position::from_text(&text, RuleSet::Capture).unwrap();
        assert!(back.same_identity(g.position()), "{text}");
    }
    // Under standard rules the facing generals are a check on the side not to move, which no
    // game reaches: the position is refused; and nothing flies.
    let err = Position::from_text("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", RuleSet::Standard)
        .unwrap_err()
        .to_string();
    assert!(err.contains("faces the general on e1"), "{err}");
    let g = Game::from_position(
        capture("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
            .position()
            .with_rules(RuleSet::Standard),
    );
    assert!(!moves_from(&g, "e1").contains(&"e1e10".to_string()));
}

#[test]
fn c3_capturing_the_general_wins_and_no_move_loses() {
    let mut g = capture("3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1");
    play(&mut g, "d1d10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Mareking, Side::First))
    );
    assert!(g.legal_moves().is_empty());
    assert_eq!(perft(g.position(), 1), 0);
    // No move at all loses: Black's general, advisors and horse are all boxed in.
    let g = capture("3aka3/3RnR3/4C4/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(g.position().legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Stalemate, Side::First))
    );
}

#[test]
fn c4_fifty_moves_each_draw() {
    // Move 50 with Black to move: ply 99; one more ply ends the game.
    let mut g = capture("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 50");
    assert_eq!(g.position().ply(), 99);
    play(&mut g, "e10e9");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Movelimit)));
    // Captures do not reset it.
    let mut g = capture("4k4/9/9/9/R3p4/9/9/9/9/3K5 w - - 0 50");
    play(&mut g, "a6e6");
    assert_eq!(g.outcome(), None);
    play(&mut g, "e10e9");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Movelimit)));
}

#[test]
fn notations_round_trip_on_the_start_position() {
    let pos = Position::start();
    for &m in pos.legal_moves().iter() {
        for n in [
            MoveNotation::Pmn,
            MoveNotation::Uci,
            MoveNotation::Iccs,
            MoveNotation::Teaching,
        ] {
            let text = pos.move_to_text(m, n).unwrap();
            assert_eq!(pos.parse_move_as(&text, n), Ok(m), "{n}: {text}");
        }
    }
    let m = pos.parse_move_as("h2e2", MoveNotation::Iccs).unwrap();
    assert_eq!(pos.move_to_text(m, MoveNotation::Uci).unwrap(), "h3e3");
    let m = pos.parse_move_as("h1g3", MoveNotation::Teaching).unwrap();
    assert_eq!(pos.move_to_text(m, MoveNotation::Pmn).unwrap(), "h1-g3");
    let m = pos.parse_move_as("b3b10", MoveNotation::Uci).unwrap();
    assert_eq!(pos.move_to_text(m, MoveNotation::Pmn).unwrap(), "b3+b10");
    assert_eq!(pos.move_to_text(m, MoveNotation::Teaching).unwrap(), "b3b0");
    assert_eq!(pos.move_to_text(m, MoveNotation::Iccs).unwrap(), "b2b9");
}

#[test]
fn fen_errors_name_what_and_where() {
    let cases = [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
            "9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
            "'X'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1",
            "2 generals",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
            "no general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w - - 0 1",
            "a2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w - - 0 1",
            "advisor",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1B3C1/9/RN1AKABNR w - - 0 1",
            "elephant",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w - - 0 1",
            "behind",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
            "'w' or 'b'",
        ),
    ];
    for (fen, needle) in cases {
        let err = Position::from_text(fen, RuleSet::Standard)
            .expect_err(fen)
            .to_string();
        assert!(err.contains(needle), "{fen}: {err}");
    }
    // Accepted variants: h/e letters, 'r' for Red, only two fields.
    let a = Position::from_text(
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
        RuleSet::Standard,
    )
    .unwrap();
    assert_eq!(a, Position::start());
}

#[test]
fn crowded_positions_list_every_move() {
    // More chariots than a real game has: the move list must not overflow or drop moves.
    let fen = "3k5/8R/7R1/6R2/5C3/3C5/2R6/1R7/R8/4K4 w - - 0 1";
    let pos = Position::from_text(fen, RuleSet::Standard).unwrap();
    let listed = pos.legal_moves().len() as u64;
    assert_eq!(pos.count_moves(), listed);
    assert!(listed > 120, "{listed}");
}

/// The FEN reader's error for `fen` under the standard rules, as text.
fn fen_error(fen: &str) -> String {
    Position::from_text(fen, RuleSet::Standard)
        .expect_err(fen)
        .to_string()
}

const START_PLACEMENT: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

#[test]
fn fen_zero_is_never_a_count_of_empty_points() {
    // A 0 wherever it stands in the placement: before or after a piece, a digit or a '/'.
    for (i, _) in START_PLACEMENT.char_indices() {
        let fen = format!(
            "{}0{} w - - 0 1",
            &START_PLACEMENT[..i],
            &START_PLACEMENT[i..]
        );
        assert_eq!(
            fen_error(&fen),
            format!(
                "invalid FEN at offset {i}: '0' is not a valid count of empty points: \
                 a count is one digit from 1 to 9"
            )
        );
    }
}

#[test]
fn fen_errors_quote_the_whole_character() {
    // Any character that is not a piece letter, wherever it stands, is quoted whole (not as
    // the first byte of its UTF-8 form), at its byte offset.
    for c in ['è', 'ß', '帥', '😀', 'x', '\u{301}', '\u{7}'] {
        for (i, _) in START_PLACEMENT.char_indices() {
            let fen = format!(
                "{}{c}{} w - - 0 1",
                &START_PLACEMENT[..i],
                &START_PLACEMENT[i..]
            );
            assert_eq!(
                fen_error(&fen),
                format!(
                    "invalid FEN at offset {i}: '{}' is not a Xiangqi piece (letters k a b n r c p, or e h)",
                    c.escape_debug()
                ),
                "{fen}"
            );
        }
    }
}

/// `1 ranks`, `1 points`…: a count of one with a plural noun.
fn singular_with_plural(message: &str) -> Option<String> {
    let words: Vec<&str> = message
        .split(|c: char| c.is_whitespace() || c == '(')
        .collect();
    words.windows(2).find_map(|w| {
        let plural = ["ranks", "points", "pieces", "squares", "generals"];
        (w[0] == "1"
            && plural
                .iter()
                .any(|p| w[1].trim_end_matches([',', ';', ')']) == *p))
        .then(|| format!("{} {}", w[0], w[1]))
    })
}

#[test]
fn fen_errors_count_in_words() {
    // Every cut of the placement, and every rank one point short: one rank, one point.
    for (i, _) in START_PLACEMENT.char_indices().skip(1) {
        let err = fen_error(&format!("{} w - - 0 1", &START_PLACEMENT[..i]));
        assert_eq!(singular_with_plural(&err), None, "{err}");
    }
    assert_eq!(
        fen_error("rnbakabnr w"),
        "invalid FEN at offset 9: the placement has 1 rank, the last with 9 points; \
         expected 10 ranks of 9 points"
    );
    assert_eq!(
        fen_error("1/9/9/9/9/9/9/9/9/9 w"),
        "invalid FEN at offset 1: rank 10 has 1 point; every rank has 9"
    );
    for rank in ["1", "r", "8", "r7", "1r6"] {
        let fen = START_PLACEMENT.replacen("9", rank, 1);
        let err = fen_error(&format!("{fen} w - - 0 1"));
        assert_eq!(singular_with_plural(&err), None, "{err}");
    }
}

#[test]
fn fen_move_number_and_clock_are_never_clamped() {
    let fen = |clocks: &str| format!("{START_PLACEMENT} w - - {clocks}");
    assert_eq!(
        fen_error(&fen("0 4294967295")),
        "invalid FEN at offset 68: the move number must be from 1 to 2147483648, found 4294967295"
    );
    assert_eq!(
        fen_error(&fen("0 0")),
        "invalid FEN at offset 68: the move number must be from 1 to 2147483648, found 0"
    );
    assert_eq!(
        fen_error(&fen("4294967296 1")),
        "invalid FEN at offset 66: the half-move clock must be from 0 to 4294967295, found 4294967296"
    );
    assert_eq!(
        fen_error(&fen("+3 1")),
        "invalid FEN at offset 66: expected the half-move clock (digits), found '+3'"
    );
    assert_eq!(
        fen_error(&fen("0 01")),
        "invalid FEN at offset 68: the move number is written without leading zeros, found '01'"
    );
    // The extremes that fit, for either side to move, come back as they were.
    for turn in ["w", "b"] {
        let text = format!("{START_PLACEMENT} {turn} - - 4294967295 2147483648");
        let pos = Position::from_text(&text, RuleSet::Standard).unwrap();
        assert_eq!(pos.to_fen(), text);
        assert_eq!(pos.halfmove(), u32::MAX);
    }
}

#[test]
fn feen_hands_hold_only_what_captures_can_put_there() {
    const START_BOARD: &str = "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR";
    // Refused under both rule sets, at the hand, with the reason.
    let both = [
        (
            format!("{START_BOARD} S/ X/x"),
            "first hand: 'S' is Red's own: a captured piece goes unchanged to the capturer's \
             hand, so Red's hand holds only Black's pieces",
        ),
        (
            format!("{START_BOARD} /c X/x"),
            "second hand: 'c' is Black's own: a captured piece goes unchanged to the capturer's \
             hand, so Black's hand holds only Red's pieces",
        ),
        (
            "3g^5/9/9/9/9/9/9/9/9/4G^4 6S/ X/x".to_string(),
            "first hand: '6S' is Red's own: a captured piece goes unchanged to the capturer's \
             hand, so Red's hand holds only Black's pieces",
        ),
    ];
    for (feen, problem) in &both {
        for rules in [RuleSet::Standard, RuleSet::Capture] {
            match Position::from_text(feen, rules) {
                Err(SetupError::Invalid(e)) => {
                    assert_eq!(e.problems.len(), 1, "{feen}: {e}");
                    assert_eq!(e.problems[0].to_string(), *problem, "{feen}");
                }
                other => panic!("{feen}: {other:?}"),
            }
        }
    }
    // A general in a hand: never under the standard rules; under the teaching rules only when
    // the game ended by its capture (C3): its side has none on the board, the capturer has its
    // own.
    let generals = [
        (
            "3g^5/9/9/9/9/9/9/9/9/4G^4 g^/ X/x",
            "first hand: 'g^': Black's general is still on the board",
        ),
        (
            "9/9/9/9/9/9/9/9/9/4G^4 2g^/ x/X",
            "first hand: '2g^': Black has only one general",
        ),
        (
            "9/9/9/9/9/9/9/9/9/9 g^/ x/X",
            "first hand: 'g^': capturing a general ends the game (C3), so Red's general cannot \
             be missing from the board too",
        ),
    ];
    for (feen, problem) in generals {
        let err = Position::from_text(feen, RuleSet::Capture).expect_err(feen);
        assert!(err.to_string().ends_with(problem), "{feen}: {err}");
    }
    for feen in [
        "9/9/9/9/9/9/9/9/9/4G^4 g^/ x/X",
        "4G^4/9/9/9/9/9/9/9/9/R8 g^/ x/X",
    ] {
        let pos = Position::from_text(feen, RuleSet::Capture).expect(feen);
        assert_eq!(pos.to_feen(), feen);
        let err = Position::from_text(feen, RuleSet::Standard)
            .expect_err(feen)
            .to_string();
        assert!(
            err.contains("'g^': a general is never captured under the standard rules (S1)"),
            "{err}"
        );
    }
    // What captures leave is read: every piece of the other side, as many as it has.
    let all = "3g^5/9/9/9/9/9/9/9/9/4G^4 5s2a2c2e2h2r/5S2A2C2E2H2R X/x";
    assert_eq!(
        Position::from_text(all, RuleSet::Standard)
            .unwrap()
            .to_feen(),
        all
    );
}

/// Plays `cycle` twice from `fen` (the position before it then occurs for the third time) and
/// returns the outcome. Every case below was checked against pyffish 0.0.90
/// (`tests/python/test_xiangqi_chase.py` checks them again, through the CLI).
fn cycle_outcome(fen: &str, cycle: &str) -> Option<Outcome> {
    let mut g = standard(fen);
    play(&mut g, &format!("{cycle} {cycle}"));
    g.outcome()
}

fn chaser_loses(winner: Side) -> Option<Outcome> {
    Some(Outcome::win(Status::Repetition, winner).by(RepetitionRule::PerpetualChase))
}

fn plain_draw() -> Option<Outcome> {
    Some(Outcome::draw(Status::Repetition).by(RepetitionRule::Plain))
}

#[test]
fn s6_an_unprotected_horse_chased_by_a_chariot_loses_for_the_chaser() {
    // The chariot follows the horse (c8, then a7) with every move: Red loses.
    let out = cycle_outcome(
        "3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
        "a2c2 c8a7 c2a2 a7c8",
    );
    assert_eq!(out, chaser_loses(Side::Second));
}

#[test]
fn s6_a_protected_piece_is_not_chased() {
    // The chariot on c10 protects the horse on c8: one red move does not chase.
    let out = cycle_outcome(
        "2rk5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
        "a2c2 c8a7 c2a2 a7c8",
    );
    assert_eq!(out, plain_draw());
}

#[test]
fn s6_a_horse_chases_a_chariot_even_when_it_is_protected() {
    // The chariot on e10 protects e6 and e7; a horse attacking a chariot chases all the same.
    let out = cycle_outcome(
        "4rk3/9/9/9/4r1N2/9/9/9/9/3K2R2 w - - 0 1",
        "g6f4 e6e7 f4g6 e7e6",
    );
    assert_eq!(out, chaser_loses(Side::Second));
}

#[test]
fn s6_like_pieces_attacking_each_other_do_not_chase() {
    // Chariot against chariot: each attacks the other, no chase.
    let out = cycle_outcome(
        "3k5/9/2r6/9/9/9/9/9/R8/4K4 w - - 0 1",
        "a2c2 c8a8 c2a2 a8c8",
    );
    assert_eq!(out, plain_draw());
}

#[test]
fn s6_an_asymmetric_horse_chases_a_horse_that_cannot_attack_back() {
    // The soldiers (a6, c7) block the black horse's legs towards the red horse.
    let out = cycle_outcome(
        "3k5/9/9/n1p6/p2N5/9/9/9/9/4K4 w - - 0 1",
        "d6b5 a7c8 b5d6 c8a7",
    );
    assert_eq!(out, chaser_loses(Side::Second));
    // Without them the horses attack each other: no chase.
    let out = cycle_outcome(
        "3k5/9/9/n8/3N5/9/9/9/9/4K4 w - - 0 1",
        "d6b5 a7c8 b5d6 c8a7",
    );
    assert_eq!(out, plain_draw());
}

#[test]
fn s6_a_pinned_defender_does_not_protect() {
    // The chariot on c10 would protect the horse, but it is pinned by the chariot on a10.
    let out = cycle_outcome(
        "R1rk5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
        "a2c2 c8a7 c2a2 a7c8",
    );
    assert_eq!(out, chaser_loses(Side::Second));
}

#[test]
fn s6_a_general_that_would_face_the_other_general_does_not_protect() {
    // Black's general protects the horse on e10 only by taking on e10, where it would face
    // Red's general on e1: the horse is chased.
    let out = cycle_outcome(
        "3kn4/9/9/9/9/5R3/9/9/9/4K4 w - - 0 1",
        "f5e5 e10f8 e5f5 f8e10",
    );
    assert_eq!(out, chaser_loses(Side::Second));
    // With Red's general on f1 the recapture is safe: protected, no chase.
    let out = cycle_outcome(
        "3kn4/9/9/9/9/5R3/9/9/9/5K3 w - - 0 1",
        "f5e5 e10f8 e5f5 f8e10",
    );
    assert_eq!(out, plain_draw());
}

#[test]
fn s6_a_discovered_attack_chases() {
    // The horse leaving c5 opens the chariot's rank onto the cannon; coming back, it attacks
    // the cannon itself.
    let out = cycle_outcome(
        "5k3/9/9/9/9/R1N1c4/9/9/9/3K5 w - - 0 1",
        "c5b7 e5e6 b7c5 e6e5",
    );
    assert_eq!(out, chaser_loses(Side::Second));
}

#[test]
fn s6_perpetual_check_is_judged_before_chasing() {
    // Red checks with every move (and chases nothing): Red loses by perpetual check.
    let out = cycle_outcome(
        "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a9a10 e10e9 a10a9 e9e10",
    );
    assert_eq!(
        out,
        Some(Outcome::win(Status::Repetition, Side::Second).by(RepetitionRule::PerpetualCheck))
    );
}

/// The pieces each move of `moves` chases (`Position::chased_by`), as square names.
fn chased_per_move(fen: &str, moves: &str) -> Vec<Vec<String>> {
    let mut pos: Position = fen.parse().unwrap();
    moves
        .split_whitespace()
        .map(|text| {
            let m = pos.parse_move_as(text, MoveNotation::Uci).unwrap();
            let before = pos.clone();
            pos.play_unchecked(m);
            squares(pos.chased_by(&before, m))
                .map(|s| s.to_string())
                .collect()
        })
        .collect()
}

fn chase_draw() -> Option<Outcome> {
    Some(Outcome::draw(Status::Repetition).by(RepetitionRule::PerpetualChase))
}

fn checker_loses(winner: Side) -> Option<Outcome> {
    Some(Outcome::win(Status::Repetition, winner).by(RepetitionRule::PerpetualCheck))
}

#[test]
fn s6_both_sides_chasing_is_a_draw() {
    // Each horse leaves one of its chariots' lines and closes the other's: every red move
    // newly attacks the cannon on g7, every black move the cannon on c4 (the position is
    // symmetric), both unprotected.
    let (fen, cycle) = (
        "5k3/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/3K5 w - - 0 1",
        "f7g5 d4c6 g5f7 c6d4",
    );
    assert_eq!(
        chased_per_move(fen, cycle),
        [vec!["g7"], vec!["c4"], vec!["g7"], vec!["c4"]]
    );
    assert_eq!(cycle_outcome(fen, cycle), chase_draw());
    // Either chase alone loses: a red chariot on c1 protects c4, a black one on g10 g7.
    let out = cycle_outcome("5k3/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/2RK5 w - - 0 1", cycle);
    assert_eq!(out, chaser_loses(Side::Second));
    let out = cycle_outcome("5kr2/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/3K5 w - - 0 1", cycle);
    assert_eq!(out, chaser_loses(Side::First));
}

#[test]
fn s6_a_chariot_and_a_horse_chasing_each_other_is_a_draw() {
    // i8i10 newly attacks the horse on i6 (moving away along the line, through the square it
    // left, is a new attack); the horse attacks the chariot from h8; i10i8 attacks the horse
    // on h8; h8i6 makes the horse the screen of the cannon on i5, onto the chariot.
    let (fen, cycle) = (
        "9/4k4/8R/9/8n/8c/9/9/9/3K5 w - - 0 1",
        "i8i10 i6h8 i10i8 h8i6",
    );
    assert_eq!(
        chased_per_move(fen, cycle),
        [vec!["i6"], vec!["i10"], vec!["h8"], vec!["i8"]]
    );
    assert_eq!(cycle_outcome(fen, cycle), chase_draw());
    // Without the cannon only Red chases, and loses.
    let out = cycle_outcome("9/4k4/8R/9/8n/9/9/9/9/3K5 w - - 0 1", cycle);
    assert_eq!(out, chaser_loses(Side::Second));
}

#[test]
fn s6_a_general_move_chases_by_discovery() {
    // Leaving e10 (e9), the general leaves the cannon on i10 (i9) a single screen, the soldier
    // on c10 (c9), and it attacks the chariot on a10 (a9): Black chases, Red does not.
    let (fen, cycle) = (
        "2P1k3c/R1P5c/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a9a10 e10e9 a10a9 e9e10",
    );
    let chased = chased_per_move(fen, cycle);
    assert!(chased[1].contains(&"a10".to_string()) && chased[3] == ["a9"]);
    assert!(chased[0].is_empty() && chased[2].is_empty());
    assert_eq!(cycle_outcome(fen, cycle), chaser_loses(Side::First));
}

#[test]
fn s6_perpetual_check_is_judged_before_a_perpetual_chase() {
    // The same chase with the screens on g10 and g9: every red move now checks. Red, the
    // checker, loses, although Black chased with every move.
    let (fen, cycle) = (
        "4k1P1c/R5P1c/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a9a10 e10e9 a10a9 e9e10",
    );
    assert_eq!(
        chased_per_move(fen, cycle),
        [vec![], vec!["a10"], vec![], vec!["a9"]]
    );
    assert_eq!(cycle_outcome(fen, cycle), checker_loses(Side::Second));
}

#[test]
fn s6_checking_and_chasing_with_every_move_is_perpetual_check() {
    // Every red horse move checks and opens a chariot (f7, then c10) onto the unprotected
    // horse on f10: Red loses by perpetual check.
    let (fen, cycle) = (
        "2R2n3/9/3k1N3/5R3/9/9/9/9/9/4K4 w - - 0 1",
        "f8e10 d8d9 e10f8 d9d8",
    );
    assert_eq!(
        chased_per_move(fen, cycle),
        [vec!["f10"], vec![], vec!["f10"], vec![]]
    );
    assert_eq!(cycle_outcome(fen, cycle), checker_loses(Side::Second));
}

#[test]
fn s6_mutual_perpetual_check_is_a_draw() {
    // pyffish's own case: both sides check with every move.
    let out = cycle_outcome(
        "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        "e4d4 d7e7 d4e4 e7d7",
    );
    assert_eq!(
        out,
        Some(Outcome::draw(Status::Repetition).by(RepetitionRule::PerpetualCheck))
    );
}

#[test]
fn s6_xiangqi_capture_has_no_chasing_rule() {
    // The teaching rules end at 100 plies, not by repetition: the chase goes on.
    let mut g = Game::from_text("3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1", RuleSet::Capture).unwrap();
    play(&mut g, "a2c2 c8a7 c2a2 a7c8 a2c2 c8a7 c2a2 a7c8");
    assert_eq!(g.outcome(), None);
}
