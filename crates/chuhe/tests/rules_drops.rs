//! Drops from the hands (`games/minishogi`): captured pieces join the capturer's hand, demoted,
//! and come back onto the board as Fairy-Stockfish's `minishogi` plays them — perft from the
//! start, the pawn's rules (not twice on a file, never where it could not move, its drop that
//! checkmates loses), promotion into, within and out of the zone, the hands in FEN and FEEN, the
//! 16-bit move codes, and the manifest's errors. `tests/python/test_rules_pyffish.py` compares
//! random games with pyffish itself.

use chuhe::rules::{self, Position, RulesHandle};
use chuhe::{GameKind, GameMove, GamePosition, MoveNotation, Side, Status};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn games_dir(name: &str) -> String {
    format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn minishogi() -> GameKind {
    GameKind::Rules(rules::load_dir(games_dir("minishogi")).unwrap_or_else(|e| panic!("{e}")))
}

fn legal(game: &dyn chuhe::AnyGame) -> Vec<String> {
    let mut moves = game.legal_moves_text(MoveNotation::Uci).unwrap();
    moves.sort();
    moves
}

#[test]
fn minishogi_perft_from_the_start_is_fairy_stockfish_s() {
    // pyffish 0.0.90's `minishogi`: 14, 181, 2,512, 35,401.
    let game = minishogi().new_game("start").unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| game.perft(d)).collect();
    assert_eq!(counts, [14, 181, 2_512, 35_401]);
}

#[test]
fn a_capture_joins_the_capturer_s_hand_demoted_and_is_dropped_back() {
    let mut game = minishogi().new_game("start").unwrap();
    // Red's bishop takes Black's pawn; Black's bishop takes it back.
    for m in ["d1a4", "b5a4"] {
        game.play_text(m, MoveNotation::Uci).unwrap();
    }
    assert_eq!(game.to_feen(), "r1sgk^/b3p/5/P4/K^GS1R /b S/s");
    let fen = game.to_text(chuhe::PositionFormat::Fen).unwrap();
    assert_eq!(fen, "r1sgk/b3p/5/P4/KGS1R[b] w - - 2 1");
    // Red holds nothing: no drop; Black's bishop comes back after Red's move.
    assert!(legal(&*game).iter().all(|m| !m.contains('@')));
    game.play_text("e1e2", MoveNotation::Uci).unwrap();
    let drops: Vec<String> = legal(&*game)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(drops.len(), 14, "every empty square: {drops:?}");
    assert!(drops.iter().all(|m| m.starts_with("B@")), "{drops:?}");
    let texts = game.play_text("b*c3", MoveNotation::Pmn).unwrap();
    assert_eq!(
        (texts["uci"].as_str(), texts["pmn"].as_str()),
        ("B@c3", "b*c3")
    );
    assert_eq!(game.to_feen(), "r1sgk^/b3p/2b2/P3R/K^GS2 / S/s");
    // A promoted piece goes back to the hand as it was first.
    let mut game = minishogi()
        .new_game("k4/5/5/1+r3/K1B2[] w - - 0 1")
        .unwrap();
    game.play_text("c1b2", MoveNotation::Uci).unwrap();
    assert_eq!(
        game.to_text(chuhe::PositionFormat::Fen).unwrap(),
        "k4/5/5/1B3/K4[R] b - - 1 1"
    );
}

#[test]
fn the_pawn_is_not_dropped_twice_on_a_file_nor_where_it_could_not_move() {
    // Red holds a pawn and has one on file a: no drop on file a, none on rank 5.
    let game = minishogi().new_game("4k/5/5/P4/K4[P] w - - 0 1").unwrap();
    let drops: Vec<String> = legal(&*game)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert!(
        drops
            .iter()
            .all(|m| !m.starts_with("P@a") && !m.ends_with('5')),
        "{drops:?}"
    );
    assert_eq!(drops.len(), 4 * 4, "files b-e, ranks 1-4: {drops:?}");
    let mut g = minishogi().new_game("4k/5/5/P4/K4[P] w - - 0 1").unwrap();
    let e = g
        .play_text("P@a3", MoveNotation::Uci)
        .unwrap_err()
        .to_string();
    assert!(e.contains("may not be dropped on a3"), "{e}");
    let e = g
        .play_text("P@b5", MoveNotation::Uci)
        .unwrap_err()
        .to_string();
    assert!(e.contains("may not be dropped on b5"), "{e}");
    let e = g
        .play_text("S@b3", MoveNotation::Uci)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds no silver"), "{e}");
    let e = g
        .play_text("P@e5", MoveNotation::Uci)
        .unwrap_err()
        .to_string();
    assert!(e.contains("e5 is not empty"), "{e}");
    // A pawn reaching the last rank must promote; a silver may stay as it is, even leaving
    // the zone (a move from the zone promotes too).
    let game = minishogi().new_game("2k2/P4/5/1S3/4K[] w - - 0 1").unwrap();
    let moves = legal(&*game);
    assert!(moves.contains(&"a4a5+".to_string()) && !moves.contains(&"a4a5".to_string()));
    let game = minishogi().new_game("1Sk2/5/5/5/4K[] w - - 0 1").unwrap();
    let moves = legal(&*game);
    for m in ["b5a4", "b5a4+", "b5c4", "b5c4+"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
}

#[test]
fn a_pawn_drop_that_checkmates_loses_as_fairy_stockfish_plays_it() {
    // pyffish lists P@a2 here, and after it scores the position a win for Red, who is mated.
    let mut game = minishogi()
        .new_game("3gk/4p/2sb1/1rG1B/K2SR[p] b - - 3 6")
        .unwrap();
    assert!(legal(&*game).contains(&"P@a2".to_string()));
    game.play_text("P@a2", MoveNotation::Uci).unwrap();
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.status, outcome.winner),
        (Status::Illegalmove, Some(Side::First))
    );
    // The same mate by a dropped silver is a plain checkmate.
    let mut game = minishogi()
        .new_game("3gk/4p/2sb1/1rG1B/K2SR[s] b - - 3 6")
        .unwrap();
    game.play_text("S@a2", MoveNotation::Uci)
        .unwrap_or_else(|e| panic!("{e}"));
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.status, outcome.winner),
        (Status::Checkmate, Some(Side::Second))
    );
}

#[test]
fn drops_read_back_their_16_bit_codes_in_random_games() {
    let RulesHandle::Narrow(game) = rules::load_dir(games_dir("minishogi")).unwrap() else {
        panic!("minishogi is 5x5");
    };
    let mut rng = SmallRng::seed_from_u64(7);
    let mut drops = 0;
    for _ in 0..40 {
        let mut pos = Position::start(game);
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            for &m in moves.iter() {
                assert_eq!(GameMove::from_bits(m.bits()), Some(m), "{m}");
                drops += usize::from(m.is_drop());
                let fen = pos
                    .play(m)
                    .unwrap()
                    .to_text(chuhe::PositionFormat::Fen)
                    .unwrap();
                let back = Position::from_fen(game, &fen).unwrap();
                assert_eq!(back.to_feen(), pos.play(m).unwrap().to_feen(), "{fen}");
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
    }
    assert!(drops > 1_000, "{drops} drops seen");
}

#[test]
fn a_fen_plus_that_marks_no_piece_is_refused_where_it_stands() {
    let RulesHandle::Narrow(game) = rules::load_dir(games_dir("minishogi")).unwrap() else {
        panic!("minishogi is 5x5");
    };
    // A promoted pawn (`+p`, Fairy-Stockfish's token) reads back.
    let good = Position::from_fen(game, "rbsgk/4+p/5/P4/KGSBR[-] w 0 1").unwrap();
    assert_eq!(
        good.to_fen().as_deref(),
        Some("rbsgk/4+p/5/P4/KGSBR[] w - - 0 1")
    );
    // A '+' before a run of empty squares, at the end of a rank or before another '+' was
    // once dropped without a word; it names no piece.
    for (fen, offset) in [
        ("rbsgk/+4p/5/P4/KGSBR[-] w 0 1", 6),
        ("rbsgk/4p+/5/P4/KGSBR[-] w 0 1", 8),
        ("rbsgk/4++p/5/P4/KGSBR[-] w 0 1", 7),
    ] {
        let err = Position::from_fen(game, fen).unwrap_err().to_string();
        assert!(
            err.contains("'+' must stand before a piece's letter"),
            "{fen}: {err}"
        );
        assert!(
            err.contains(&format!("at offset {offset}:")),
            "{fen}: {err}"
        );
    }
}

#[test]
fn drop_rules_are_checked_with_their_key() {
    let dir = std::env::temp_dir().join(format!("chuhe-drops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = games_dir("minishogi");
    std::fs::copy(
        format!("{source}/minishogi.ggn.json"),
        dir.join("minishogi.ggn.json"),
    )
    .unwrap();
    let manifest = std::fs::read_to_string(format!("{source}/rules.json")).unwrap();
    let cases = [
        (
            r#""join": true"#,
            r#""join": false"#,
            "drops need captured pieces to join",
        ),
        (
            r#"{ "piece": "S" }"#,
            r#"{ "piece": "K^" }"#,
            "drops[1].piece: K^ is royal",
        ),
        (
            r#""checkmate": "loses""#,
            r#""checkmate": "never""#,
            "'never' is not allowed or loses",
        ),
        (
            r#"{ "piece": "G" }"#,
            r#"{ "piece": "G", "from": "a1" }"#,
            "drops[2].from: unknown key",
        ),
        (
            r#"{ "piece": "G" }"#,
            r#"{ "piece": "S" }"#,
            "S is listed twice",
        ),
    ];
    for (from, to, why) in cases {
        assert!(manifest.contains(from), "{from}");
        std::fs::write(dir.join("rules.json"), manifest.replace(from, to)).unwrap();
        let e = rules::load_dir(&dir).unwrap_err().to_string();
        assert!(e.contains("rules.json") && e.contains(why), "{to}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
