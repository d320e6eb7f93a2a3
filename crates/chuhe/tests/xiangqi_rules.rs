//! One test per rule decision of `shared/docs/xiangqi-rules.md` (S1–S5, C1–C4), each with a
//! hand-built position.

use chuhe::xiangqi::{perft, Game, MoveNotation, Position, RuleSet};
use chuhe::GamePosition;
use chuhe::{Outcome, Side, Status};

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
        Some(Outcome::win(Status::Repetition, Side::Second))
    );
    // Nobody checks: a draw.
    let mut g = standard("4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1");
    play(&mut g, "a6a5 e10e9 a5a6 e9e10 a6a5 e10e9 a5a6 e9e10");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Repetition)));
    // The fold count is a parameter.
    let mut pos =
        Position::from_text("4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1", RuleSet::Standard).unwrap();
    pos.set_repetition_fold(4);
    let mut g = Game::from_position(pos);
    play(&mut g, "a6a5 e10e9 a5a6 e9e10 a6a5 e10e9 a5a6 e9e10");
    assert_eq!(g.outcome(), None);
    play(&mut g, "a6a5 e10e9 a5a6 e9e10");
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Repetition)));
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
    let g = standard("3k5/4a4/9/9/9/9/9/9/4A4/3K2B2 w - - 0 1");
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
    // Under standard rules such a position is a check; nothing flies.
    let g = standard("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
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
