//! Property tests on seeded random Xiangqi games, both rule sets.

use chuhe::xiangqi::{
    Game, Move, MoveNotation, Piece, Position, Role, RuleSet, SetupError, Square,
};
use chuhe::Side;
use chuhe::{GamePosition, Location};
use chuhe_notation::Epin;
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

    /// chuhe never writes a position it cannot read: under either rule set, the FEN and the
    /// FEEN of every position a game reaches (finished ones included: a general captured under
    /// the teaching rules) read back to an equal position: the FEEN with everything but the
    /// clocks, which it does not hold; the FEN with everything but the hands.
    #[test]
    fn every_reached_position_reads_back_equal_from_its_fen_and_feen(
        seed in any::<u64>(),
        capture in any::<bool>(),
    ) {
        let rules = if capture { RuleSet::Capture } else { RuleSet::Standard };
        random_game(seed, rules, 150, |g| {
            let pos = g.position();
            let feen = pos.to_feen();
            let mut back = Position::from_text(&feen, rules)
                .unwrap_or_else(|e| panic!("{feen} does not read back: {e}"));
            back.set_halfmove(pos.halfmove());
            back.set_ply(pos.ply());
            assert_eq!(&back, pos, "{feen}");
            let fen = pos.to_fen();
            let back = Position::from_text(&fen, rules)
                .unwrap_or_else(|e| panic!("{fen} does not read back: {e}"));
            assert!(back.same_identity(pos), "{fen}");
            assert_eq!(back.to_fen(), fen);
            assert_eq!((back.halfmove(), back.ply(), back.rules()), (pos.halfmove(), pos.ply(), rules));
            assert_eq!(back.hash(), pos.hash());
        });
    }

    /// S1 makes the side that has just moved never in check, so a standard FEN where it is
    /// names no reachable position: every placement a game reaches, with the other side to
    /// move, is refused exactly when the side then not to move is in check. The teaching rules
    /// read it either way.
    #[test]
    fn the_side_not_to_move_is_never_in_check_under_standard_rules(seed in any::<u64>()) {
        random_game(seed, RuleSet::Standard, 150, |g| {
            let pos = g.position();
            let flipped = pos.with_turn(!pos.turn()).to_fen();
            let read = Position::from_text(&flipped, RuleSet::Standard);
            match (&read, pos.is_check()) {
                (Ok(_), false) => {}
                (Err(e), true) => {
                    let general = pos.general(pos.turn()).unwrap();
                    let message = e.to_string();
                    assert!(message.contains("is in check"), "{flipped}: {message}");
                    assert!(message.contains(&format!("{general}: ")), "{flipped}: {message}");
                }
                (read, check) => panic!("{flipped} (check: {check}): {read:?}"),
            }
            assert!(Position::from_text(&flipped, RuleSet::Capture).is_ok(), "{flipped}");
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

    /// `generate_captures` is `generate_moves` restricted to captures; `attacks_from` covers
    /// every capture by the movement rules (legality aside).
    #[test]
    fn captures_and_attacks_agree_with_the_move_list(seed in any::<u64>(), capture in any::<bool>()) {
        let rules = if capture { RuleSet::Capture } else { RuleSet::Standard };
        random_game(seed, rules, 150, |g| {
            let pos = g.position();
            let mut all = chuhe::xiangqi::MoveList::new();
            pos.generate_moves(&mut all);
            let mut captures = chuhe::xiangqi::MoveList::new();
            pos.generate_captures(&mut captures);
            // The same moves; the order of generation is not part of the contract.
            let mut expected: Vec<Move> = all.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let mut got = captures.to_vec();
            expected.sort_by_key(|m| m.to_string());
            got.sort_by_key(|m| m.to_string());
            assert_eq!(got, expected, "{pos:?}");
            let pseudo = pos.with_rules(RuleSet::Capture);
            let mut pseudo_moves = chuhe::xiangqi::MoveList::new();
            pseudo.generate_captures(&mut pseudo_moves);
            for sq in chuhe::xiangqi::squares(pos.side_bb(pos.turn())) {
                let attacked = pos.attacks_from(sq) & pos.side_bb(!pos.turn());
                let targets = pseudo_moves
                    .iter()
                    .filter(|m| m.from() == sq)
                    .fold(0u128, |bb, m| bb | m.to().bb());
                assert_eq!(attacked, targets, "{sq} in {pos:?}");
            }
            // `attackers_to` is the reverse of `attacks_from`.
            let occ = pos.occupied();
            for target in chuhe::xiangqi::squares(occ) {
                let expected = chuhe::xiangqi::squares(occ)
                    .filter(|&from| pos.attacks_from(from) & target.bb() != 0)
                    .fold(0u128, |bb, from| bb | from.bb());
                assert_eq!(pos.attackers_to(target, occ), expected, "{target} in {pos:?}");
            }
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

/// The start placement, for FENs that differ only in their clocks.
const PLACEMENT: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// Reads `fen`: written back unchanged, or refused at the offset of `field` (3: half-move
/// clock, 4: move number) with the field named.
fn clocks_read_back_or_are_refused(fen: &str, accept: bool, bad_field: usize) {
    match Position::from_text(fen, RuleSet::Standard) {
        Ok(pos) => {
            assert!(accept, "{fen} accepted as {}", pos.to_fen());
            assert_eq!(pos.to_fen(), fen);
        }
        Err(chuhe::xiangqi::SetupError::Fen(e)) => {
            assert!(!accept, "{fen}: {e}");
            let offset: usize = fen
                .split(' ')
                .take(bad_field + 1)
                .map(|f| f.len() + 1)
                .sum();
            assert_eq!(e.offset, offset, "{fen}: {e}");
            let name = ["the half-move clock", "the move number"][bad_field - 3];
            assert!(e.message.contains(name), "{fen}: {e}");
        }
        Err(e) => panic!("{fen}: {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    /// No clock is clamped: every number is written back as it was read, or refused.
    #[test]
    fn fen_clocks_are_written_back_as_read_or_refused(
        half in prop_oneof![any::<u64>(), 0u64..300, Just(u64::from(u32::MAX)), Just(1 << 32)],
        full in prop_oneof![
            any::<u64>(),
            0u64..300,
            (1u64 << 31) - 2..(1u64 << 31) + 2,
            Just(u64::from(u32::MAX)),
        ],
        black in any::<bool>(),
    ) {
        let turn = if black { 'b' } else { 'w' };
        let fen = format!("{PLACEMENT} {turn} - - {half} {full}");
        let half_ok = half <= u64::from(u32::MAX);
        let full_ok = (1..=1u64 << 31).contains(&full);
        let bad_field = if half_ok { 4 } else { 3 };
        clocks_read_back_or_are_refused(&fen, half_ok && full_ok, bad_field);
    }

    /// Anything but plain decimal digits is refused too (signs, leading zeros, other digits).
    #[test]
    fn fen_clocks_are_plain_decimal_numbers(
        text in "[-+0-9a٣]{1,6}",
        field in 3usize..5,
    ) {
        let plain = text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
        let in_range = match text.parse::<u64>() {
            Ok(n) if field == 3 => n <= u64::from(u32::MAX),
            Ok(n) => (1..=1u64 << 31).contains(&n),
            Err(_) => false,
        };
        let (half, full) = if field == 3 { (text.as_str(), "1") } else { ("0", text.as_str()) };
        let fen = format!("{PLACEMENT} w - - {half} {full}");
        clocks_read_back_or_are_refused(&fen, plain && in_range, field);
    }
}

/// Could some game reach `pos` with one more `piece` in `owner`'s hand? Written from the rules
/// text: a capture puts the victim unchanged into the capturer's hand; a general is captured
/// only under the teaching rules, which ends the game (C3). Counts are not limited: boards
/// with more pieces of a kind than the start are accepted, and captures put them into hands.
fn one_more_is_reachable(pos: &Position, owner: Side, piece: Piece) -> bool {
    let victim = piece.side;
    if victim == owner {
        return false;
    }
    let on_board = (pos.role_bb(piece.role) & pos.side_bb(victim)).count_ones();
    let held = u32::from(pos.hand_count(owner, piece));
    if piece.role == Role::General {
        return pos.rules() == RuleSet::Capture
            && on_board == 0
            && held == 0
            && pos.general(owner).is_some();
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Hands hold exactly what captures can put there: at every position of random games of
    /// both rule sets, one more piece of any kind, of either side, in either hand, is read
    /// when a game could reach that, and refused at that hand when none could.
    #[test]
    fn hands_hold_exactly_what_captures_can_put_there(seed in any::<u64>(), capture in any::<bool>()) {
        let rules = if capture { RuleSet::Capture } else { RuleSet::Standard };
        random_game(seed, rules, 150, |g| {
            let pos = g.position();
            for owner in Side::BOTH {
                for side in Side::BOTH {
                    for role in Role::ALL {
                        let piece = Piece::new(side, role);
                        let mut feen = pos.to_feen_value();
                        feen.hands[owner.index()].add(Epin::native(piece.pin(false)));
                        let text = feen.to_string();
                        let reachable = one_more_is_reachable(pos, owner, piece);
                        match Position::from_text(&text, rules) {
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
