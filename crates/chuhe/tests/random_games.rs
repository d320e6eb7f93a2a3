//! Property tests on seeded random Xiongqi games.

use chuhe::xiongqi::{Game, Move, Piece, Position, Role, SetupError, Square};
use chuhe::{Location, Side};
use chuhe_notation::Epin;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_game(seed: u64, plies: usize, mut check: impl FnMut(&Game)) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new();
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

/// Some move that is not generated here (or None if every candidate is legal).
fn non_generated_move(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let legal = game.legal_moves();
    for _ in 0..64 {
        let from = Square::new(rng.gen_range(0..64)).unwrap();
        let to = Square::new(rng.gen_range(0..64)).unwrap();
        let promo = if rng.gen_bool(0.1) {
            Some(Role::Empress)
        } else {
            None
        };
        let m = Move::new(from, to, promo);
        if !legal.contains(&m) {
            return Some(m);
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn feen_round_trips_and_hash_is_incremental_at_every_ply(seed in any::<u64>()) {
        random_game(seed, 160, |g| {
            let pos = g.position();
            let feen = pos.to_feen();
            let back = Position::from_feen(&feen).expect("own FEEN reads back");
            assert_eq!(back.to_feen(), feen);
            assert!(back.same_identity(pos));
            assert_eq!(pos.hash(), pos.compute_hash(), "{feen}");
        });
    }

    #[test]
    fn illegal_moves_fail_and_leave_the_game_unchanged(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed ^ 0xABCD);
        let mut game = random_game(seed, rng.gen_range(0..80), |_| {});
        if let Some(m) = non_generated_move(&game, &mut rng) {
            let before = game.position().clone();
            let plies = game.moves().len();
            let outcome = game.outcome();
            if !game.is_repetitive(m) {
                prop_assert!(game.play(m).is_err(), "{m} was accepted in {before:?}");
            }
            prop_assert_eq!(game.position(), &before);
            prop_assert_eq!(game.moves().len(), plies);
            prop_assert_eq!(game.outcome(), outcome);
        }
    }

    #[test]
    fn mirroring_preserves_move_counts(seed in any::<u64>()) {
        random_game(seed, 120, |g| {
            let pos = g.position();
            let mirror = pos.mirrored();
            assert_eq!(pos.legal_moves().len(), mirror.legal_moves().len(), "{pos:?}");
            assert_eq!(pos.is_check(), mirror.is_check());
            assert_eq!(mirror.mirrored().to_feen(), pos.to_feen());
        });
    }

    #[test]
    fn every_generated_move_resolves_from_its_pmn(seed in any::<u64>()) {
        random_game(seed, 100, |g| {
            let pos = g.position();
            for &m in g.legal_moves().iter() {
                let pmn = pos.to_pmn(m);
                assert_eq!(pos.parse_move(&pmn), Ok(m), "{pmn} in {pos:?}");
                assert_eq!(pos.parse_move(&m.to_string()), Ok(m));
            }
        });
    }

    #[test]
    fn check_agrees_with_the_opponents_captures(seed in any::<u64>()) {
        random_game(seed, 100, |g| {
            let pos = g.position();
            let Some(terminal) = pos.terminal(pos.turn()) else { return };
            // Pass the move to the opponent and see whether one of its moves takes the terminal.
            let other = pos.with_turn(!pos.turn());
            let mut replies = chuhe::xiongqi::MoveList::new();
            other.generate_moves(&mut replies);
            let takes = replies.iter().any(|m| m.to() == terminal);
            assert_eq!(pos.is_check(), takes, "{pos:?}");
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// `generate_captures` is `generate_moves` restricted to captures, and `attacks_from`
    /// holds exactly the destinations a piece could capture on, own pieces' squares included.
    #[test]
    fn captures_and_attacks_agree_with_the_move_list(seed in any::<u64>()) {
        random_game(seed, 120, |g| {
            let pos = g.position();
            let mut all = chuhe::xiongqi::MoveList::new();
            pos.generate_moves(&mut all);
            let mut captures = chuhe::xiongqi::MoveList::new();
            pos.generate_captures(&mut captures);
            // The same moves; the order of generation is not part of the contract.
            let mut expected: Vec<Move> = all.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let mut got = captures.to_vec();
            expected.sort_by_key(|m| m.to_string());
            got.sort_by_key(|m| m.to_string());
            assert_eq!(got, expected, "{pos:?}");
            // Every capture target is attacked from its origin; every attacked enemy square is
            // a capture target.
            for sq in chuhe::xiongqi::squares(pos.side_bb(pos.turn())) {
                let attacked = pos.attacks_from(sq) & pos.side_bb(!pos.turn());
                let targets = captures
                    .iter()
                    .filter(|m| m.from() == sq)
                    .fold(0u64, |bb, m| bb | m.to().bb());
                assert_eq!(attacked, targets, "{sq} in {pos:?}");
            }
            // `attackers_to` is the reverse of `attacks_from`, on the board as it stands and
            // with pieces taken away.
            let occ = pos.occupied();
            for target in chuhe::xiongqi::squares(occ) {
                let expected = chuhe::xiongqi::squares(occ)
                    .filter(|&from| pos.attacks_from(from) & target.bb() != 0)
                    .fold(0u64, |bb, from| bb | from.bb());
                assert_eq!(pos.attackers_to(target, occ), expected, "{target} in {pos:?}");
            }
        });
    }
}

/// Could some game reach `pos` with one more `piece` in `owner`'s hand? Written from the rules
/// text: a capture puts the victim unchanged into the capturer's hand (X5); capturing a
/// terminal piece ends the game (X7), and generals turn into dragons together (X3). Counts are
/// not limited (X8 accepts boards with more pieces of a kind than the start).
fn one_more_is_reachable(pos: &Position, owner: Side, piece: Piece) -> bool {
    let victim = piece.side;
    if victim == owner {
        return false;
    }
    let with_extra = |role: Role| {
        (pos.role_bb(role) & pos.side_bb(victim)).count_ones()
            + u32::from(pos.hand_count(owner, Piece::new(victim, role)))
            + u32::from(role == piece.role)
    };
    if piece.role.is_terminal() {
        // The victim's terminal pieces, board and hand, this one included.
        let held = with_extra(Role::General) + with_extra(Role::Dragon);
        let victim_on_board = pos.terminal(victim).is_some();
        let mine = pos.terminal(owner).and_then(|s| pos.piece_at(s));
        return !victim_on_board && held == 1 && mine.is_some_and(|m| m.role == piece.role);
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Hands hold exactly what captures can put there: at every position of random games, one
    /// more piece of any kind (promoted ones, `+S`, dragons included), of either side, in
    /// either hand, is read when a game could reach that, and refused at that hand when none
    /// could.
    #[test]
    fn hands_hold_exactly_what_captures_can_put_there(seed in any::<u64>()) {
        random_game(seed, 160, |g| {
            let pos = g.position();
            for owner in Side::BOTH {
                for side in Side::BOTH {
                    for role in Role::ALL {
                        let piece = Piece::new(side, role);
                        let mut feen = pos.to_feen_value();
                        feen.hands[owner.index()].add(Epin::native(piece.pin()));
                        let text = feen.to_string();
                        let reachable = one_more_is_reachable(pos, owner, piece);
                        match Position::from_feen(&text) {
                            Ok(_) => assert!(reachable, "{text} read"),
                            Err(SetupError::Invalid(e)) => {
                                assert!(!reachable, "{text}: {e}");
                                assert!(
                                    e.problems.iter().all(|p| p.location == Location::Hand(owner)),
                                    "{text}: {e}"
                                );
                            }
                            Err(e) => panic!("{text}: {e}"),
                        }
                    }
                }
            }
        });
    }
}
