//! One test per rule decision of `shared/docs/xiongqi-rules.md` (X1–X9).

use chuhe::xiongqi::{perft, Game, Position, Role, Square};
use chuhe::{Outcome, Side, Status};

fn sq(name: &str) -> Square {
    let cell = chuhe_notation::Cell::parse(name).unwrap();
    Square::from_cell(cell).unwrap()
}

fn game(feen: &str) -> Game {
    Game::from_feen(feen).unwrap_or_else(|e| panic!("{feen}: {e}"))
}

fn moves_from(game: &Game, from: &str) -> Vec<String> {
    let pos = game.position();
    let mut v: Vec<String> = game
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|&m| pos.to_pmn(m))
        .collect();
    v.sort();
    v
}

#[test]
fn x1_river_crossing_makes_the_soldier_plus_s_for_good() {
    let mut g = game("7g^/8/8/3s4/4S3/8/8/G^7 / X/x");
    g.play_text("e4-e5").unwrap();
    assert_eq!(g.position().to_feen(), "7g^/8/8/3s+S3/8/8/8/G^7 / x/X");
    // North crosses the other way; the implied suffix is accepted on input.
    g.play_text("d5-d4=+s").unwrap();
    assert_eq!(g.position().to_feen(), "7g^/8/8/4+S3/3+s4/8/8/G^7 / X/x");
    // After the river: forward and sideways, never backward, and it stays +S.
    assert_eq!(moves_from(&g, "e5"), ["e5-d5", "e5-e6", "e5-f5"]);
    g.play_text("e5-d5").unwrap();
    assert_eq!(
        g.position().piece_at(sq("d5")).map(|p| p.role),
        Some(Role::CrossedSoldier)
    );
    // Before the river: one step forward only.
    let g2 = game("7g^/8/8/8/8/4S3/8/G^7 / X/x");
    assert_eq!(moves_from(&g2, "e3"), ["e3-e4"]);
}

#[test]
fn x2_promotion_is_optional_and_has_seven_choices() {
    let g = game("3g^r3/4+S3/8/8/8/8/8/G^7 / X/x");
    assert_eq!(
        moves_from(&g, "e7"),
        [
            "e7+e8", "e7+e8=A", "e7+e8=B", "e7+e8=C", "e7+e8=E", "e7+e8=H", "e7+e8=R", "e7-d7",
            "e7-f7"
        ]
    );
    // Sideways along the far rank may promote too; North promotes on rank 1 in its own case.
    let g = game("6g^1/8/8/8/8/8/8/G^2+s4 / x/X");
    let moves = moves_from(&g, "d1");
    assert_eq!(moves.len(), 7 + 7, "{moves:?}"); // c1 and e1, seven ways each; never backward
    assert!(moves.contains(&"d1-e1=e".to_string()));
    // Never to General or Dragon.
    let pos = Position::from_feen("3g^4/4+S3/8/8/8/8/8/G^7 / X/x").unwrap();
    assert!(pos.parse_move("e7-e8=G").is_err());
    assert!(pos.parse_move("e7-e8=D").is_err());
    assert!(pos.parse_move("e7-e8=E").is_ok());
    // Only on the far rank.
    assert!(pos.parse_move("e7-f7=E").is_err());
}

#[test]
fn x3_face_to_face_turns_both_generals_into_dragons() {
    // A blocker steps away: whoever moves, both transform; written with '~'.
    let mut g = game("4g^3/8/8/8/4R3/8/8/4G^3 / X/x");
    let m = g.position().parse_move("e4-a4").unwrap();
    assert_eq!(g.position().to_pmn(m), "e4~a4");
    g.play(m).unwrap();
    assert_eq!(g.position().to_feen(), "4d^3/8/8/8/R7/8/8/4D^3 / x/X");
    // A general steps onto the file.
    let mut g = game("3g^4/7s/8/8/8/S7/8/4G^3 / x/X");
    assert_eq!(g.play_text("d8~e8").map(|_| ()), Ok(()));
    assert_eq!(g.position().to_feen(), "4d^3/7s/8/8/8/S7/8/4D^3 / X/x");
    // Dragons: quiet one step, capture along lines at any distance.
    assert_eq!(moves_from(&g, "e1"), ["e1+e8", "e1-d1", "e1-e2", "e1-f1"]);
    // South above North: nothing happens.
    let mut g = game("4G^3/7s/8/8/8/S7/8/4g^3 / X/x");
    g.play_text("e8-d8").unwrap();
    g.play_text("e1-d1").unwrap();
    assert_eq!(g.position().to_feen(), "3G^4/7s/8/8/8/S7/8/3g^4 / X/x");
    // The '~' form is also read from '-'.
    let pos = Position::from_feen("4g^3/8/8/8/4R3/8/8/4G^3 / X/x").unwrap();
    assert_eq!(pos.parse_move("e4-a4"), pos.parse_move("e4~a4"));
    assert!(pos.parse_move("e4~e5").is_err());
}

#[test]
fn x4_no_check_constraint_check_is_only_reported() {
    let g = game("7g^/8/8/8/8/8/8/r3G^3 / X/x");
    assert!(g.is_check());
    // The general may stay in check (d1 is attacked as well) and other moves are allowed.
    assert_eq!(moves_from(&g, "e1"), ["e1-d1", "e1-e2", "e1-f1"]);
    let mut g = game("7g^/8/8/8/8/8/r7/4G^3 / X/x");
    assert!(!g.is_check());
    g.play_text("e1-e2").unwrap(); // steps into the chariot's line
    g.play_text("a2+e2").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Mareking, Side::Second))
    );
}

#[test]
fn x5_captured_pieces_go_unchanged_to_the_hand_and_are_never_dropped() {
    let mut g = game("7g^/8/8/8/8/+s7/8/R2G^4 / X/x");
    g.play_text("a1+a3").unwrap();
    assert_eq!(g.position().to_feen(), "7g^/8/8/8/8/R7/8/3G^4 +s/ x/X");
    assert_eq!(
        g.position().hand_count(
            Side::First,
            chuhe::xiongqi::Piece::new(Side::Second, Role::CrossedSoldier)
        ),
        1
    );
    for drop in ["S*e5", "*d4", "+d4", "e4=+S", "..."] {
        assert!(g.position().parse_move(drop).is_err(), "{drop}");
    }
    // Hands are in the FEEN and count for nothing else: same moves with or without them.
    let a = Position::from_feen("7g^/8/8/8/8/R7/8/3G^4 +s/ X/x").unwrap();
    let b = Position::from_feen("7g^/8/8/8/8/R7/8/3G^4 / X/x").unwrap();
    assert_eq!(a.legal_moves().len(), b.legal_moves().len());
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn x5_hands_hold_only_what_captures_can_put_there() {
    // Refused, at the hand, with the reason.
    let cases = [
        // One's own piece: captures go to the capturer's hand unchanged.
        (
            "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR S/ X/x",
            "first hand: 'S' is first's own: a captured piece goes unchanged to the capturer's \
             hand (X5), so first's hand holds only second's pieces",
        ),
        (
            "3g^4/8/8/8/8/8/8/4G^3 /s X/x",
            "second hand: 's' is second's own: a captured piece goes unchanged to the \
             capturer's hand (X5), so second's hand holds only first's pieces",
        ),
        // A terminal piece still on the board, twice captured, or its capturer gone too.
        (
            "3g^4/8/8/8/8/8/8/4G^3 g^/ x/X",
            "first hand: 'g^': second's terminal piece is still on the board (d8)",
        ),
        (
            "8/8/8/8/8/8/8/4G^3 2g^/ x/X",
            "first hand: '2g^': second has only one terminal piece",
        ),
        (
            "8/8/8/8/8/8/8/8 g^/ x/X",
            "first hand: 'g^': capturing a terminal piece ends the game (X7), so first's cannot \
             be missing from the board too",
        ),
        // Generals and dragons change together (X3): a general is taken by a general, a
        // dragon by a dragon.
        (
            "8/8/8/8/8/8/8/4D^3 g^/ x/X",
            "first hand: 'g^': a captured general means first's terminal piece was a general \
             too (generals turn into dragons together, X3), but first's is a dragon",
        ),
        (
            "3d^4/8/8/8/8/8/8/8 /G^ X/x",
            "second hand: 'G^': a captured general means second's terminal piece was a general \
             too (generals turn into dragons together, X3), but second's is a dragon",
        ),
    ];
    for (feen, problem) in cases {
        match Position::from_feen(feen) {
            Err(chuhe::SetupError::Invalid(e)) => {
                assert_eq!(e.problems.len(), 1, "{feen}: {e}");
                assert_eq!(e.problems[0].to_string(), problem, "{feen}");
            }
            other => panic!("{feen}: {other:?}"),
        }
    }
    // Reachable hands are read: promoted soldiers and +S unchanged (three chariots, two
    // empresses, a crossed soldier: four of second's soldiers), a dragon taken by a dragon, a
    // general by a general.
    for feen in [
        "3g^4/8/8/8/8/8/8/4G^3 3r2e+s/ X/x",
        "3g^4/4ssss/8/8/8/8/8/4G^3 3r2e+s/ X/x",
        "8/8/8/8/8/8/8/4D^3 d^/ x/X",
        "4g^3/8/8/8/8/8/8/8 /G^ X/x",
        "r2e1g^2/8/c2+S1s2/8/3C2E1/1+s6/8/1G^4R1 2sh/B x/X",
    ] {
        let pos = Position::from_feen(feen).unwrap_or_else(|e| panic!("{feen}: {e}"));
        assert_eq!(pos.to_feen(), feen);
    }
}

#[test]
fn x6_repetitive_moves_are_illegal_and_lose_when_played() {
    let mut g = Game::new();
    for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] {
        g.play_text(m).unwrap();
    }
    let again = g.position().parse_move("a1-a2").unwrap();
    assert!(g.is_repetitive(again));
    assert_eq!(g.legal_moves().len(), 25);
    // Another move to the same kind of position is fine; the same move is not.
    assert!(!g.is_repetitive(g.position().parse_move("h1-h2").unwrap()));
    g.play(again).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Repetition, Side::Second))
    );
    assert!(g.play_text("a8-a7").is_err());
    // Undo takes it back.
    g.undo();
    assert_eq!(g.outcome(), None);
    assert!(g.is_repetitive(again));

    // The move identity ignores whether it captured: the chariot that took on a5 may not
    // later go quietly a1-a5 into the same position.
    let mut g = game("7g^/8/8/h7/8/8/8/R2G^4 / X/x");
    for m in ["a1+a5", "h8-g8", "a5-a1", "g8-h8"] {
        g.play_text(m).unwrap();
    }
    assert!(g.is_repetitive(g.position().parse_move("a1-a5").unwrap()));
    assert!(!g.is_repetitive(g.position().parse_move("a1-a4").unwrap()));

    // Repetitive moves do not count against stalemate: the only move left is repetitive.
    let mut g = game("7g^/8/8/8/8/+s7/H+s6/G^7 / X/x");
    for m in ["a1-b1", "h8-g8", "b1-a1", "g8-h8"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Stalemate, Side::Second))
    );
}

#[test]
fn x7_end_of_game_in_order() {
    // 1. Capturing the terminal piece wins (and does not trigger face to face).
    let mut g = game("R2g^4/8/8/8/8/8/8/4G^3 / X/x");
    g.play_text("a8+d8").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Mareking, Side::First))
    );
    assert!(g.legal_moves().is_empty());
    // 3. Only the terminal pieces left: draw.
    let mut g = game("7g^/8/8/8/8/8/3r4/3G^4 / X/x");
    g.play_text("d1+d2").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Insufficient)));
    // 4. No legal move: the side to move loses.
    let stuck = "7g^/8/8/8/8/+s7/H+s6/G^H+s5 / X/x";
    let g = game(stuck);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Stalemate, Side::Second))
    );
    // ... even with the clock at 100 (4 comes before 5).
    let mut pos = Position::from_feen(stuck).unwrap();
    pos.set_halfmove(100);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Status::Stalemate, Side::Second))
    );
    // 5. 100 half-moves without capture or soldier move: draw.
    let mut pos = Position::from_feen("7g^/8/8/8/8/4S3/8/G^7 / X/x").unwrap();
    pos.set_halfmove(99);
    let mut g = Game::from_position(pos.clone());
    g.play_text("a1-b1").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Movelimit)));
    let mut g = Game::from_position(pos);
    g.play_text("e3-e4").unwrap(); // a soldier move resets the clock
    assert_eq!(g.position().halfmove(), 0);
    assert_eq!(g.outcome(), None);
    // Declared results.
    let mut g = Game::new();
    g.resign(Side::First);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Resignation, Side::Second))
    );
    let mut g = Game::new();
    g.time_out(Side::Second);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Status::Timelimit, Side::First))
    );
    let mut g = Game::new();
    g.agree_draw();
    assert_eq!(g.outcome(), Some(Outcome::draw(Status::Agreement)));
}

#[test]
fn x8_positions_from_feen_are_validated_with_every_reason() {
    let cases = [
        ("7g^/8/8/8/8/8/8/3Z^G^3 / X/x", "d1"),  // unknown letter
        ("4g^3/8/8/8/8/8/8/4G3 / X/x", "e1"),    // G without ^
        ("4g^3/8/8/8/8/8/8/R^3G^3 / X/x", "a1"), // ^ on another piece
        ("4g^3/8/8/8/8/8/8/G^3G^3 / X/x", "at most one"), // two terminals (one side)
        ("3d^4/8/8/8/8/8/8/4G^3 / X/x", "dragon"), // general vs dragon
        ("4g^3/8/8/8/8/8/8/4G^3 / X/x", "face"), // already face to face
        ("4g^3/8/8/4S3/8/8/8/3G^4 / X/x", "e5"), // S across the river
        ("4g^3/8/8/8/4+S3/8/8/3G^4 / X/x", "e4"), // +S before the river
        ("4g^3/8/8/8/8/8/8/3G^4 / Y/y", "style"), // not Xiongqi's style
        ("4g^3/8/8/8/8/8/3G^4 / X/x", "8×8"),    // not 8×8 (7 ranks)
    ];
    for (feen, needle) in cases {
        let err = Position::from_feen(feen).expect_err(feen).to_string();
        assert!(err.contains(needle), "{feen}: {err}");
    }
    // All reasons, not just the first.
    let err = Position::from_feen("4g^3/8/8/4S3/4+S3/8/8/3G^4 / X/x").unwrap_err();
    match err {
        chuhe::SetupError::Invalid(e) => assert_eq!(e.problems.len(), 2, "{e}"),
        other => panic!("{other}"),
    }
    // More pieces than squares is refused (by the notation layer's cardinality rule).
    assert!(Position::from_feen("ssssssss/8/8/8/8/8/8/G^g^6 64S/ X/x").is_err());
    // No terminal piece: a finished game with no legal moves, clock 0.
    let pos = Position::from_feen("8/8/8/8/8/8/8/4G^3 / x/X").unwrap();
    assert_eq!(pos.halfmove(), 0);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Status::Mareking, Side::First))
    );
}

#[test]
fn x9_perft_counts_repetition_on_the_path_and_stops_at_game_end() {
    let start = Position::start();
    assert_eq!(perft(&start, 1), 26);
    assert_eq!(perft(&start, 4), 458_226);
    // Without X6, depth 5 would be 12,060,531.
    assert_eq!(perft(&start, 5), 12_060_275);
    // Game-over nodes have no children: the move limit (X7 5).
    let mut pos =
        Position::from_feen("2b1g^2r/2c2s2/s2a3s/4H3/1S4+s1/2S3S1/1C1A3R/R3G^2r / X/x").unwrap();
    pos.set_halfmove(99);
    assert_eq!(perft(&pos, 1), 36);
    assert_eq!(perft(&pos, 2), 236);
    pos.set_halfmove(100);
    assert_eq!(perft(&pos, 1), 0);
    // ... and the capture of a terminal piece (X7 1).
    let pos = Position::from_feen("R2g^4/8/8/8/8/8/8/4G^3 / X/x").unwrap();
    let after_capture = {
        let mut p = pos.clone();
        p.play_unchecked(pos.parse_move("a8+d8").unwrap());
        p
    };
    assert_eq!(perft(&after_capture, 1), 0);
}
