//! Property tests on seeded random Xiangqi games, both rule sets.

use chuhe::xiangqi::{Game, Move, MoveNotation, Position, RuleSet, Square};
use chuhe::GamePosition;
use chuhe::Side;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_game(seed: u64, rules: RuleSet, plies: usize, mut check: impl FnMut(&Game)) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::from_position(Position::start_with(rules));
    check(&game);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        game.play(m).expect("a generated move plays");
        check(&game);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    #[test]
    fn fen_and_feen_round_trip_and_hash_is_incremental(seed in any::<u64>()) {
        random_game(seed, RuleSet::Standard, 150, |g| {
            let pos = g.position();
            let fen = pos.to_fen();
            let back = Position::from_text(&fen, RuleSet::Standard).expect("own FEN reads back");
            assert_eq!(back.to_fen(), fen);
            let feen = pos.to_feen();
            let back = Position::from_text(&feen, RuleSet::Standard).expect("own FEEN reads back");
            assert!(back.same_identity(pos), "{feen}");
            assert_eq!(back.to_feen(), feen);
            assert_eq!(pos.hash(), pos.compute_hash());
        });
    }

    #[test]
    fn standard_moves_are_exactly_the_safe_pseudo_legal_moves(seed in any::<u64>()) {
        random_game(seed, RuleSet::Standard, 150, |g| {
            let pos = g.position();
            if g.outcome().is_some() {
                return;
            }
            let legal = pos.legal_moves();
            let pseudo = pos.with_rules(RuleSet::Capture).legal_moves();
            for &m in pseudo.iter() {
                let mut after = pos.with_rules(RuleSet::Capture);
                after.play_unchecked(m);
                let mover = pos.turn();
                let safe = after.general(mover).is_some_and(|k| !after.is_attacked(k, !mover));
                assert_eq!(legal.contains(&m), safe, "{m} in {pos:?}");
            }
            assert_eq!(pos.count_moves(), legal.len() as u64);
        });
    }

    #[test]
    fn mirroring_preserves_move_counts(seed in any::<u64>(), capture in any::<bool>()) {
        let rules = if capture { RuleSet::Capture } else { RuleSet::Standard };
        random_game(seed, rules, 120, |g| {
            let pos = g.position();
            let mirror = pos.mirrored();
            assert_eq!(pos.legal_moves().len(), mirror.legal_moves().len(), "{pos:?}");
            assert_eq!(pos.is_check(), mirror.is_check());
        });
    }

    #[test]
    fn every_move_reads_back_from_each_notation(seed in any::<u64>()) {
        random_game(seed, RuleSet::Standard, 80, |g| {
            let pos = g.position();
            for &m in g.legal_moves().iter() {
                for n in MoveNotation::ALL {
                    let text = pos.move_to_text(m, n).unwrap();
                    assert_eq!(pos.parse_move_as(&text, n), Ok(m), "{n} '{text}' in {pos:?}");
                }
            }
        });
    }

    #[test]
    fn illegal_moves_fail_and_leave_the_game_unchanged(seed in any::<u64>(), capture in any::<bool>()) {
        let rules = if capture { RuleSet::Capture } else { RuleSet::Standard };
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let mut game = random_game(seed, rules, rng.gen_range(0..60), |_| {});
        let legal = game.legal_moves();
        for _ in 0..32 {
            let m = Move::new(
                Square::new(rng.gen_range(0..90)).unwrap(),
                Square::new(rng.gen_range(0..90)).unwrap(),
            );
            if legal.contains(&m) {
                continue;
            }
            let before = game.position().clone();
            let outcome = game.outcome();
            prop_assert!(game.play(m).is_err(), "{m} accepted in {before:?}");
            prop_assert_eq!(game.position(), &before);
            prop_assert_eq!(game.outcome(), outcome);
        }
    }
}

#[test]
fn capture_games_end_when_a_general_falls() {
    let mut ended = 0;
    for seed in 0..40 {
        let g = random_game(seed, RuleSet::Capture, 400, |_| {});
        if let Some(o) = g.outcome() {
            ended += 1;
            if o.status == chuhe::Status::Mareking {
                let loser = match o.winner {
                    Some(Side::First) => Side::Second,
                    _ => Side::First,
                };
                assert!(g.position().general(loser).is_none());
            }
        }
    }
    assert_eq!(ended, 40, "every capture game ends within 100 plies (C4)");
}
