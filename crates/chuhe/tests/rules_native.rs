//! The games of `games/xiongqi` and `games/xiangqi`, read from their rule files, against the
//! native code: the shared perft tables, and seeded random games in which every ply's legal
//! moves (history included), outcome and FEEN must be equal.
//!
//! `CHUHE_RULES_GAMES=1000 cargo test --release -p chuhe --test rules_native` plays the full
//! 1,000 games per game (scripts/rules-differential); the normal run plays fewer.

use chuhe::suite::{parse_suite, SuitePosition};
use chuhe::{rules, xiangqi, AnyGame, GameKind, GameOptions, MoveNotation};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const NODE_CAP: u64 = 500_000;

fn games_dir(name: &str) -> String {
    format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn rules_kind(name: &str) -> GameKind {
    GameKind::Rules(rules::load_dir(games_dir(name)).unwrap_or_else(|e| panic!("{e}")))
}

fn data(name: &str) -> String {
    let path = format!("{}/../../data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every row of a shared perft table up to `NODE_CAP`, from the rules directory.
fn table_rows(table: &str, game: &str) -> usize {
    let kind = rules_kind(game);
    let mut checked = 0;
    for record in parse_suite(&data(table)).unwrap() {
        let feen = match &record.position {
            SuitePosition::Feen(feen) => feen.clone(),
            SuitePosition::Fen(fen) => xiangqi::Position::from_fen(fen, xiangqi::RuleSet::Standard)
                .unwrap()
                .to_feen(),
        };
        let options = GameOptions {
            halfmove: Some(record.halfmove),
            repetition_fold: None,
        };
        let game = kind.new_game_with(&feen, options).unwrap();
        for &(depth, nodes) in &record.expected {
            if nodes <= NODE_CAP {
                assert_eq!(
                    game.perft(depth),
                    nodes,
                    "{table} {} perft {depth}",
                    record.id
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn xiongqi_rules_directory_gives_the_shared_perft_table() {
    assert!(table_rows("perft-xiongqi.txt", "xiongqi") >= 20);
}

#[test]
fn xiangqi_rules_directory_gives_the_shared_perft_table() {
    assert!(table_rows("perft-xiangqi.txt", "xiangqi") >= 12);
}

fn sorted_moves(game: &dyn AnyGame) -> Vec<String> {
    let mut moves = game.legal_moves_text(MoveNotation::Uci).unwrap();
    moves.sort();
    moves
}

/// Plays `games` seeded random games of at most `plies` plies in both, comparing each ply.
fn differential(native: GameKind, game: &str, games: usize, plies: usize) -> (usize, usize) {
    let generic = rules_kind(game);
    let mut ends = 0;
    let mut total_plies = 0;
    for seed in 0..games as u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut a = native.new_game("start").unwrap();
        let mut b = generic.new_game("start").unwrap();
        for ply in 0..plies {
            let here = format!("{game} seed {seed} ply {ply}: {:?}", a.moves_uci());
            assert_eq!(a.to_feen(), b.to_feen(), "FEEN, {here}");
            assert_eq!(a.halfmove(), b.halfmove(), "half-move clock, {here}");
            assert_eq!(a.outcome(), b.outcome(), "outcome, {here}");
            assert_eq!(a.is_check(), b.is_check(), "check, {here}");
            let moves = sorted_moves(a.as_ref());
            assert_eq!(moves, sorted_moves(b.as_ref()), "legal moves, {here}");
            let pmn_a = a.legal_moves_text(MoveNotation::Pmn).unwrap();
            let pmn_b = b.legal_moves_text(MoveNotation::Pmn).unwrap();
            assert_eq!(pmn_a, pmn_b, "PMN, {here}");
            if a.outcome().is_some() {
                ends += 1;
                break;
            }
            let m = &moves[rng.gen_range(0..moves.len())];
            a.play_text(m, MoveNotation::Uci).unwrap();
            b.play_text(m, MoveNotation::Uci).unwrap();
            total_plies += 1;
        }
    }
    (ends, total_plies)
}

fn game_count(default: usize) -> usize {
    std::env::var("CHUHE_RULES_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn xiongqi_rules_directory_plays_as_the_native_code_in_random_games() {
    let (ends, plies) = differential(GameKind::Xiongqi, "xiongqi", game_count(40), 400);
    assert!(plies > 1000, "{plies} plies compared");
    assert!(ends > 0, "some games end ({ends})");
}

#[test]
fn xiangqi_rules_directory_plays_as_the_native_code_in_random_games() {
    let (ends, plies) = differential(GameKind::Xiangqi, "xiangqi", game_count(20), 400);
    assert!(plies > 1000, "{plies} plies compared");
    assert!(ends > 0, "some games end ({ends})");
}

/// Every position of seeded random games, written in FEN and read back, is the same position
/// (hands aside: FEN has none), for each shipped game whose pieces all have FEN letters.
#[test]
fn rules_positions_read_back_the_fen_they_write() {
    for game in ["minixiangqi", "manchu", "shatranj", "makruk", "xiangqi"] {
        let kind = rules_kind(game);
        let mut read = 0;
        for seed in 0..8u64 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut g = kind.new_game("start").unwrap();
            for _ in 0..120 {
                let fen = g.to_text(chuhe::PositionFormat::Fen).unwrap();
                let back = kind
                    .new_game(&fen)
                    .unwrap_or_else(|e| panic!("{game}: {fen}: {e}"));
                let without_hands = |feen: String| {
                    let f: Vec<&str> = feen.split(' ').collect();
                    format!("{} {}", f[0], f[2])
                };
                assert_eq!(
                    without_hands(back.to_feen()),
                    without_hands(g.to_feen()),
                    "{game}: {fen}"
                );
                assert_eq!(back.halfmove(), g.halfmove(), "{game}: {fen}");
                read += 1;
                let moves = sorted_moves(g.as_ref());
                if moves.is_empty() || g.outcome().is_some() {
                    break;
                }
                g.play_text(&moves[rng.gen_range(0..moves.len())], MoveNotation::Uci)
                    .unwrap();
            }
        }
        assert!(read > 100, "{game}: {read} positions");
    }
}

/// A FEN that is not one of the game's positions is refused with the place and the reason.
#[test]
fn a_bad_fen_of_a_rules_game_is_refused_with_its_reason() {
    let kind = rules_kind("minixiangqi");
    let cases = [
        ("rcnkncr/p1ppp1p/7/7/7/P1PPP1P w - - 0 1", "6 ranks"),
        (
            "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR x - - 0 1",
            "side to move 'x'",
        ),
        (
            "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCQ w - - 0 1",
            "'Q' is no piece's FEN letter",
        ),
        (
            "rcnkncr/p1ppp1p/8/7/7/P1PPP1P/RCNKNCR w - - 0 1",
            "more than 7 squares",
        ),
        (
            "rcnkncr/p1ppp1p/6/7/7/P1PPP1P/RCNKNCR w - - 0 1",
            "6 squares",
        ),
        (
            "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - x 1",
            "'x' is not a count",
        ),
        ("rcn1ncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1", "royal"),
    ];
    for (fen, why) in cases {
        let e = kind
            .new_game(fen)
            .err()
            .unwrap_or_else(|| panic!("{fen} was read"));
        assert!(e.to_string().contains(why), "{fen}: {e}");
    }
}
