//! The one library face, tested once for every game: each check is generic over
//! [`GamePosition`] and runs for every entry of [`GameKind::ALL`] through a [`GameVisitor`].

use std::collections::BTreeSet;

use chuhe::perft::{divide, perft_game};
use chuhe::{
    Game, GameKind, GameMove, GamePosition, GameSquare, GameVisitor, MoveError, MoveNotation,
    Outcome, PositionFormat, Side, Status,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Runs a generic check (a unit-struct visitor) for every game of the registry.
fn for_every_game<V: GameVisitor<Output = ()> + Copy>(check: V) {
    for kind in GameKind::ALL {
        kind.visit(check);
    }
}

/// Plays a seeded random game through the arbiter, calling `check` at every ply; returns the
/// game (over, or `max_plies` long).
fn random_game<P: GamePosition>(
    config: P::Config,
    seed: u64,
    max_plies: usize,
    mut check: impl FnMut(&Game<P>),
) -> Game<P> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::<P>::start(config);
    check(&game);
    for _ in 0..max_plies {
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

/// Everything that must hold of one position.
fn check_position<P: GamePosition>(pos: &P) {
    let name = pos.game_name();
    let feen = pos.to_feen();
    let legal = pos.legal_moves();
    let legal_set: BTreeSet<P::Move> = legal.iter().copied().collect();
    assert_eq!(
        legal_set.len(),
        legal.len(),
        "{name} {feen}: duplicate moves"
    );

    // Positions read back from every format they are written in.
    let back = P::from_text(&feen, pos.config()).expect("own FEEN reads back");
    assert_eq!(back.to_feen(), feen);
    assert!(back.same_identity(pos), "{name} {feen}");
    assert_eq!(back.turn(), pos.turn());
    assert_eq!(back.zobrist_hash(), pos.zobrist_hash(), "{name} {feen}");
    assert_eq!(back.kind(), pos.kind());
    if pos.kind() == GameKind::Xiongqi {
        // A Xiongqi FEEN carries all but the clock. (A Xiangqi FEEN has no move number, and
        // a FEN no captured pieces, so those read back equal in what they carry only.)
        let mut clocked = back.clone();
        clocked.set_halfmove(pos.halfmove());
        assert_eq!(clocked, *pos, "{feen}");
    }
    assert_eq!(P::position_formats()[0], PositionFormat::Feen);
    for &format in P::position_formats() {
        let text = pos.to_text(format).expect("a listed format writes");
        let back = P::from_text(&text, pos.config())
            .unwrap_or_else(|e| panic!("{name} {format:?} '{text}' reads back: {e}"));
        assert!(back.same_identity(pos), "{name} {format:?} {text}");
        assert_eq!(back.turn(), pos.turn());
        assert_eq!(back.to_text(format).unwrap(), text);
        if format == PositionFormat::Fen {
            assert_eq!(back.halfmove(), pos.halfmove(), "a FEN carries the clock");
        }
    }
    for format in [PositionFormat::Feen, PositionFormat::Fen] {
        if !P::position_formats().contains(&format) {
            assert!(pos.to_text(format).is_err(), "{name} writes {format:?}");
        }
    }

    // moves_from / moves_to partition the legal moves.
    let mut from_all = Vec::new();
    let mut to_all = Vec::new();
    for i in 0..P::Square::COUNT {
        let sq = P::Square::from_index(i).unwrap();
        from_all.extend(pos.moves_from(sq).iter().copied());
        to_all.extend(pos.moves_to(sq).iter().copied());
    }
    for part in [&mut from_all, &mut to_all] {
        assert_eq!(part.len(), legal.len(), "{name} {feen}: not a partition");
        assert_eq!(
            part.iter().copied().collect::<BTreeSet<_>>(),
            legal_set,
            "{name} {feen}"
        );
    }

    for &m in legal.iter() {
        // Text in every notation of the game reads back to the same move.
        for &n in P::notations() {
            let text = pos
                .move_to_text(m, n)
                .unwrap_or_else(|e| panic!("{name} {feen}: {m} in {n}: {e}"));
            assert_eq!(
                pos.parse_move_as(&text, n),
                Ok(m),
                "{name} {feen}: '{text}' ({n})"
            );
        }
        for n in MoveNotation::ALL {
            if !P::notations().contains(&n) {
                let unsupported = MoveError::UnsupportedNotation {
                    game: name,
                    notation: n,
                };
                assert_eq!(pos.move_to_text(m, n), Err(unsupported.clone()));
                assert_eq!(pos.parse_move_as(&m.to_string(), n), Err(unsupported));
            }
        }
        // The compact encoding and the coordinate form.
        assert_eq!(P::Move::from_bits(m.bits()), Some(m), "{name}: bits of {m}");
        assert!(
            m.to_string().parse::<P::Move>().ok() == Some(m),
            "{name}: {m}"
        );
        assert_eq!(pos.parse_move_as(&m.to_string(), MoveNotation::Uci), Ok(m));
        // play(&self) is clone + play_unchecked.
        let played = pos.play(m).expect("a legal move plays");
        let mut by_hand = pos.clone();
        by_hand.play_unchecked(m);
        assert_eq!(played, by_hand, "{name} {feen}: {m}");
        assert_eq!(pos.check_move(m), Ok(()));
    }
}

#[derive(Clone, Copy)]
struct RandomGames;
impl GameVisitor for RandomGames {
    type Output = ();
    fn visit<P: GamePosition>(self, config: P::Config) {
        let mut finished = 0;
        for seed in 0..6 {
            let game = random_game::<P>(config, seed, 400, |g| check_position(g.position()));
            if let Some(outcome) = game.outcome() {
                finished += 1;
                check_game_over(&game, outcome);
            }
        }
        assert!(finished > 0, "no random game ended");
    }
}

/// A finished game refuses every move, naming how it ended.
fn check_game_over<P: GamePosition>(game: &Game<P>, outcome: Outcome) {
    assert!(game.legal_moves().is_empty());
    let mut probe = game.clone();
    let moves = game.position().legal_moves();
    let m = moves.first().copied().unwrap_or_default();
    assert_eq!(probe.play(m), Err(MoveError::GameOver { outcome }));
    assert_eq!(
        probe.play_text("a1a2").unwrap_err(),
        MoveError::GameOver { outcome }
    );
    assert_eq!(
        probe.moves().len(),
        game.moves().len(),
        "the game is unchanged"
    );
}

#[test]
fn random_games_keep_every_promise_of_the_face() {
    for_every_game(RandomGames);
}

#[derive(Clone, Copy)]
struct Squares;
impl GameVisitor for Squares {
    type Output = ();
    fn visit<P: GamePosition>(self, _: P::Config) {
        type S<P> = <P as GamePosition>::Square;
        assert_eq!(
            S::<P>::COUNT,
            S::<P>::FILES as usize * S::<P>::RANKS as usize
        );
        for i in 0..S::<P>::COUNT {
            let sq = S::<P>::from_index(i).unwrap();
            assert_eq!(sq.index(), i);
            assert_eq!(S::<P>::from_coords(sq.file(), sq.rank()), Some(sq));
            let text = sq.to_string();
            assert!(text.parse::<S<P>>().ok() == Some(sq), "{text}");
        }
        assert_eq!(S::<P>::from_index(S::<P>::COUNT), None);
        assert_eq!(S::<P>::from_coords(S::<P>::FILES, 0), None);
        assert_eq!(S::<P>::from_coords(0, S::<P>::RANKS), None);
        assert!("z99".parse::<S<P>>().is_err());
    }
}

#[test]
fn squares_round_trip() {
    for_every_game(Squares);
}

/// The numbers of the `id start` record of a perft table.
fn start_perft_from_table(table: &str) -> Vec<(u32, u64)> {
    let mut out = Vec::new();
    let mut in_start = false;
    for line in table.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["id", id] => in_start = *id == "start",
            ["perft", d, n] if in_start => out.push((d.parse().unwrap(), n.parse().unwrap())),
            _ => {}
        }
    }
    assert!(!out.is_empty(), "no start record");
    out
}

/// Perft the naive way: recursion over `legal_moves`.
fn naive_perft<P: GamePosition>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| naive_perft(&pos.play(m).unwrap(), depth - 1))
        .sum()
}

#[derive(Clone, Copy)]
struct StartPerft;
impl GameVisitor for StartPerft {
    type Output = ();
    fn visit<P: GamePosition>(self, config: P::Config) {
        let start = P::start(config);
        let game = Game::from_position(start.clone());
        let known = match start.kind() {
            GameKind::Xiongqi => {
                start_perft_from_table(include_str!("../../../data/perft-xiongqi.txt"))
            }
            GameKind::Xiangqi => {
                start_perft_from_table(include_str!("../../../data/perft-xiangqi.txt"))
            }
            // Rules games check their tables in tests/rules_native.rs.
            GameKind::XiangqiCapture | GameKind::Rules(_) => Vec::new(),
        };
        for depth in 1..=3 {
            let n = start.perft(depth);
            assert_eq!(
                n,
                naive_perft(&start, depth),
                "{} depth {depth}",
                start.game_name()
            );
            if let Some(&(_, expected)) = known.iter().find(|(d, _)| *d == depth) {
                assert_eq!(n, expected, "{} depth {depth}", start.game_name());
            }
            assert_eq!(chuhe::perft::perft(&start, depth), n);
            assert_eq!(perft_game(&game, depth), n);
            let split = divide(&game, depth);
            assert_eq!(split.iter().map(|(_, c)| c).sum::<u64>(), n);
            assert_eq!(split.len(), start.legal_moves().len());
        }
        assert_eq!(start.perft(0), 1);
        if start.kind() == GameKind::XiangqiCapture {
            // Movement is the same as standard Xiangqi's in the first plies, without the
            // flying-general and self-check limits: 44 moves from the start either way.
            assert_eq!(start.perft(1), 44);
        }
    }
}

#[test]
fn start_perft_matches_the_tables_and_a_naive_count() {
    for_every_game(StartPerft);
}

#[derive(Clone, Copy)]
struct Transpositions;
impl GameVisitor for Transpositions {
    type Output = ();
    fn visit<P: GamePosition>(self, config: P::Config) {
        // a1 b a2 and a2 b a1 from the start: where both are legal, they reach the same
        // placement with the same side to move, and the hashes agree.
        let start = P::start(config);
        let firsts = start.legal_moves();
        let mut found = 0;
        for (i, &a1) in firsts.iter().enumerate() {
            for &a2 in firsts.iter().skip(i + 1).step_by(3) {
                let p1 = start.play(a1).unwrap();
                let Some(&b) = p1.legal_moves().first() else {
                    continue;
                };
                let x = p1.play(b).ok().and_then(|p| p.play(a2).ok());
                let y = start
                    .play(a2)
                    .ok()
                    .and_then(|p| p.play(b).ok())
                    .and_then(|p| p.play(a1).ok());
                if let (Some(x), Some(y)) = (x, y) {
                    if x.same_identity(&y) {
                        assert_eq!(x.zobrist_hash(), y.zobrist_hash(), "{a1} {b} {a2}");
                        found += 1;
                    } else {
                        assert_ne!(x.zobrist_hash(), y.zobrist_hash(), "{a1} {b} {a2}");
                    }
                }
            }
        }
        assert!(
            found > 10,
            "{}: only {found} transpositions",
            start.game_name()
        );
    }
}

#[test]
fn transpositions_hash_alike() {
    for_every_game(Transpositions);
}

#[derive(Clone, Copy)]
struct RuleOptions;
impl GameVisitor for RuleOptions {
    type Output = ();
    fn visit<P: GamePosition>(self, config: P::Config) {
        let mut pos = P::start(config);
        let name = pos.game_name();
        for fold in [0, 1, 2, 3, 5, 255] {
            let result = pos.set_repetition_fold(fold);
            match pos.kind() {
                GameKind::Xiongqi => {
                    let e = result.expect_err("Xiongqi has no repetition count");
                    assert_eq!(e.game, "xiongqi");
                    assert!(e.to_string().contains("repetition"), "{e}");
                }
                _ if fold < 2 => {
                    let e = result.expect_err("a count below 2");
                    assert_eq!(e.game, name);
                    assert!(e.to_string().contains(&fold.to_string()), "{e}");
                }
                _ => assert_eq!(result, Ok(()), "{name} fold {fold}"),
            }
        }
        let mut clocked = P::start(config);
        clocked.set_halfmove(7);
        assert_eq!(clocked.halfmove(), 7);
    }
}

#[test]
fn repetition_count_is_an_option_of_xiangqi_only() {
    for_every_game(RuleOptions);
}

#[test]
fn game_names_parse_back() {
    for kind in GameKind::ALL {
        assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        assert_eq!(kind.to_string(), kind.name());
        assert_eq!(kind.notations()[0], MoveNotation::Pmn);
    }
    for bad in [
        "",
        "chess",
        "Xiangqi",
        "xiangqi ",
        "xiangqi_capture",
        "shogi",
    ] {
        let e = bad.parse::<GameKind>().expect_err(bad);
        assert!(e.to_string().contains("unknown game"), "{e}");
    }
    let long = "x".repeat(10_000);
    assert!(long.parse::<GameKind>().unwrap_err().to_string().len() < 300);
    for n in MoveNotation::ALL {
        assert_eq!(n.name().parse::<MoveNotation>(), Ok(n));
    }
    assert!("lan".parse::<MoveNotation>().is_err());
}

#[test]
fn outcome_display() {
    let cases = [
        (
            Outcome::win(Status::Checkmate, Side::First),
            "checkmate, first wins",
        ),
        (
            Outcome::win(Status::Repetition, Side::Second),
            "repetition, second wins",
        ),
        (
            Outcome::win(Status::Stalemate, Side::Second),
            "stalemate, second wins",
        ),
        (Outcome::draw(Status::Movelimit), "movelimit, draw"),
        (Outcome::draw(Status::Repetition), "repetition, draw"),
    ];
    for (outcome, text) in cases {
        assert_eq!(outcome.to_string(), text);
        assert_eq!(outcome.is_draw(), outcome.winner.is_none());
    }
    assert_eq!(Outcome::draw(Status::Agreement).winner_str(), "none");
    assert_eq!(
        Outcome::win(Status::Resignation, Side::First).winner_str(),
        "first"
    );
}

#[test]
fn game_over_carries_the_outcome() {
    // Xiongqi: a repetitive move (X6) ends the game, its player losing.
    let mut game = chuhe::xiongqi::Game::new();
    for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8", "a1-a2"] {
        game.play_text(m).unwrap();
    }
    let outcome = Outcome::win(Status::Repetition, Side::Second);
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(
        game.play_text("a7-a6"),
        Err(MoveError::GameOver { outcome })
    );
    // Xiangqi: checkmate.
    let mut game = chuhe::xiangqi::Game::from_text(
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        chuhe::xiangqi::RuleSet::Standard,
    )
    .unwrap();
    game.play_text("a1d1").unwrap();
    let outcome = Outcome::win(Status::Checkmate, Side::First);
    assert_eq!(game.outcome(), Some(outcome));
    check_game_over(&game, outcome);
    // A declared result, for every game.
    for_every_game(Resigns);
}

#[derive(Clone, Copy)]
struct Resigns;
impl GameVisitor for Resigns {
    type Output = ();
    fn visit<P: GamePosition>(self, config: P::Config) {
        let mut game = Game::<P>::start(config);
        game.resign(Side::Second);
        let outcome = Outcome::win(Status::Resignation, Side::First);
        assert_eq!(game.outcome(), Some(outcome));
        check_game_over(&game, outcome);
        let mut game = Game::<P>::start(config);
        game.agree_draw();
        check_game_over(&game, Outcome::draw(Status::Agreement));
    }
}

#[cfg(feature = "serde")]
mod serde_round_trips {
    use super::*;
    use chuhe::{xiangqi, xiongqi};
    use serde::de::DeserializeOwned;
    use serde::Serialize;

    fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
        let json = serde_json::to_string(value).unwrap();
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn check<P>(config: P::Config)
    where
        P: GamePosition + Serialize + DeserializeOwned,
        P::Move: Serialize + DeserializeOwned,
        P::Square: Serialize + DeserializeOwned,
    {
        for seed in 0..3 {
            let game = random_game::<P>(config, seed, 300, |g| {
                let pos = g.position();
                // A bare position is its FEEN, which holds no rule set: Xiangqi positions read
                // back under the standard rules, so a teaching-rules position may not (a game
                // record names its game and round-trips whole, below).
                if pos.kind() != GameKind::XiangqiCapture {
                    let back = round_trip(pos);
                    assert_eq!(back.to_feen(), pos.to_feen());
                    assert!(back.same_identity(pos));
                    assert_eq!(back.turn(), pos.turn());
                }
                for &m in pos.legal_moves().iter() {
                    assert_eq!(round_trip(&m), m);
                    let json = serde_json::to_string(&m).unwrap();
                    assert_eq!(json, format!("\"{m}\""));
                }
            });
            let back: Game<P> = round_trip(&game);
            assert_eq!(back.moves(), game.moves());
            assert_eq!(back.positions(), game.positions());
            assert_eq!(back.outcome(), game.outcome());
            assert_eq!(back.position().kind(), game.position().kind());
        }
        for i in 0..P::Square::COUNT {
            let sq = P::Square::from_index(i).unwrap();
            assert_eq!(round_trip(&sq), sq);
        }
        // Declared results come back.
        let mut game = Game::<P>::start(config);
        game.resign(Side::First);
        let back: Game<P> = round_trip(&game);
        assert_eq!(back.outcome(), game.outcome());
        // A record with an illegal move names its ply.
        let kind = P::start(config).kind();
        let first = P::start(config).legal_moves()[0];
        let record =
            format!(r#"{{"game":"{kind}","start":"start","moves":["{first}","{first}"]}}"#);
        let e = serde_json::from_str::<Game<P>>(&record).unwrap_err();
        assert!(e.to_string().contains("at ply 2"), "{e}");
        // A record of another game is refused.
        let other = GameKind::ALL
            .into_iter()
            .find(|&k| P::config_for(k).is_none());
        if let Some(other) = other {
            let record = format!(r#"{{"game":"{other}","start":"start","moves":[]}}"#);
            assert!(serde_json::from_str::<Game<P>>(&record).is_err());
        }
    }

    #[test]
    fn moves_squares_positions_and_games_round_trip() {
        check::<xiongqi::Position>(());
        check::<xiangqi::Position>(xiangqi::RuleSet::Standard);
        check::<xiangqi::Position>(xiangqi::RuleSet::Capture);
    }

    #[test]
    fn outcomes_round_trip() {
        for outcome in [
            Outcome::win(Status::Checkmate, Side::First),
            Outcome::win(Status::Repetition, Side::Second),
            Outcome::draw(Status::Movelimit),
        ] {
            assert_eq!(round_trip(&outcome), outcome);
        }
        let json = serde_json::to_string(&Outcome::draw(Status::Agreement)).unwrap();
        assert_eq!(json, r#"{"status":"agreement","winner":null}"#);
        assert!(serde_json::from_str::<Outcome>(r#"{"status":"nonsense","winner":null}"#).is_err());
    }
}

/// Moves rebuild from `(from, to, choice)` (the fixed action encoding of the Python
/// environments), and `piece_role` agrees with the drawn pieces and their owners.
#[test]
fn moves_rebuild_from_choices_and_roles_match_pieces() {
    #[derive(Clone, Copy)]
    struct Check;
    impl GameVisitor for Check {
        type Output = ();
        fn visit<P: GamePosition>(self, config: P::Config) {
            for seed in 0..4 {
                random_game::<P>(config, seed, 120, |game| {
                    let pos = game.position();
                    for &m in game.legal_moves().iter() {
                        assert!(m.choice() < P::Move::CHOICES);
                        assert_eq!(P::Move::with_choice(m.from(), m.to(), m.choice()), Some(m));
                    }
                    let any = game.legal_moves().first().copied().unwrap_or_default();
                    let too_far = P::Move::with_choice(any.from(), any.to(), P::Move::CHOICES);
                    assert_eq!(too_far, None);
                    for i in 0..P::Square::COUNT {
                        let sq = P::Square::from_index(i).unwrap();
                        let role = pos.piece_role(sq);
                        assert_eq!(role.is_some(), pos.piece_glyphs(sq).is_some());
                        if let Some((side, r)) = role {
                            assert!(r < P::ROLES.len());
                            let (text, _) = pos.piece_glyphs(sq).unwrap();
                            let first = text.chars().rev().find(|c| c.is_ascii_alphabetic());
                            let upper = first.unwrap().is_ascii_uppercase();
                            assert_eq!(upper, side == Side::First, "{text} at {sq}");
                        }
                    }
                });
            }
        }
    }
    for_every_game(Check);
    assert_eq!(chuhe::xiongqi::Move::CHOICES, 7);
    assert_eq!(chuhe::xiangqi::Move::CHOICES, 1);
}
