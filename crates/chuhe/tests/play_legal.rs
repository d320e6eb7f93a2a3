//! `Game::play_legal` (one move generation per ply), `Game::restart`, and the search's walk
//! (`Game::replay_ongoing`, `Game::undo_ongoing`) agree with
//! `Game::play` then `Game::legal_moves`, which agrees with the position's moves less those
//! `Game::is_repetitive` forbids one by one (X6 as one look at the history), the history's repetition look-up agrees with a
//! scan of every position (undo included), and `for_each_piece` with `piece_role`, on seeded
//! random games of every game. Some of the moves undo the mover's previous move when they
//! can, so that positions repeat (Xiangqi's S3 and S6, Xiongqi's X6).

use chuhe::xiangqi::RuleSet;
use chuhe::{Game, GameMove, GamePosition, GameSquare};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn scan<P: GamePosition>(game: &Game<P>) -> Vec<usize> {
    let now = game.position();
    (0..game.positions().len())
        .filter(|&i| game.positions()[i].same_identity(now))
        .collect()
}

fn check_history<P: GamePosition>(game: &Game<P>) {
    let mut found: Vec<usize> = game.history().occurrences(game.position()).collect();
    assert!(
        found.windows(2).all(|w| w[0] > w[1]),
        "latest first: {found:?}"
    );
    found.reverse();
    assert_eq!(found, scan(game));
    // The pieces as the games walk them, and square by square.
    let pos = game.position();
    let mut walked = Vec::new();
    pos.for_each_piece(|sq, side, role| walked.push((sq.index(), side, role)));
    let squares: Vec<_> = (0..P::Square::COUNT)
        .filter_map(|i| {
            let (side, role) = pos.piece_role(P::Square::from_index(i)?)?;
            Some((i, side, role))
        })
        .collect();
    assert_eq!(walked, squares);
}

/// Plays the games; returns how many ended, how many plies repeated a position, the plies
/// played, and how many moves the history forbade.
fn random_games<P: GamePosition>(
    start: P,
    seeds: u64,
    plies: usize,
    back_rate: f64,
) -> (usize, usize, usize, usize) {
    let (mut ended, mut repeated, mut played, mut forbidden) = (0, 0, 0, 0);
    for seed in 0..seeds {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut reference = Game::from_position(start.clone());
        let mut fast = Game::from_position(start.clone());
        // A game restarted from a played one must be the fresh game.
        if seed % 2 == 1 {
            let mut other = Game::from_position(start.clone());
            for _ in 0..7 {
                let moves = other.legal_moves();
                if moves.is_empty() {
                    break;
                }
                other.play(moves[rng.gen_range(0..moves.len())]).unwrap();
            }
            other.restart(start.clone());
            fast = other;
        }
        let mut next = fast.legal_moves();
        for ply in 0..plies {
            let legal = reference.legal_moves();
            assert_eq!(&legal[..], &next[..], "seed {seed} ply {ply}");
            if reference.outcome().is_none() {
                let all = reference.position().legal_moves();
                let allowed: Vec<P::Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| !reference.is_repetitive(m))
                    .collect();
                assert_eq!(&legal[..], &allowed[..], "seed {seed} ply {ply}");
                forbidden += all.len() - allowed.len();
            }
            assert_eq!(reference.outcome(), fast.outcome(), "seed {seed} ply {ply}");
            assert_eq!(reference.positions().len(), fast.positions().len());
            assert!(reference.position().same_identity(fast.position()));
            check_history(&fast);
            if legal.is_empty() {
                ended += 1;
                break;
            }
            // Back where the mover came from, when that is legal; else a random move.
            let back = reference.moves().len().checked_sub(2).and_then(|i| {
                let m = reference.moves()[i];
                P::Move::with_choice(m.to(), m.from(), 0).filter(|b| legal.contains(b))
            });
            let m = match back {
                Some(b) if rng.gen_bool(back_rate) => b,
                _ => legal[rng.gen_range(0..legal.len())],
            };
            reference.play(m).unwrap();
            played += 1;
            fast.play_legal(m, &mut next);
            if fast.history().occurrences(fast.position()).count() > 1 {
                repeated += 1;
            }
            // Now and then, an undo and a replay on a copy: the look-up follows.
            if ply % 5 == 0 {
                let mut copy = fast.clone();
                copy.undo();
                check_history(&copy);
                // undo_ongoing and replay_ongoing (a search's walk) agree with undo and play.
                let mut walk = fast.clone();
                assert_eq!(walk.undo_ongoing(), Some(m));
                assert_eq!(walk.outcome(), copy.outcome());
                assert!(walk.position().same_identity(copy.position()));
                check_history(&walk);
                if fast.outcome().is_none() {
                    walk.replay_ongoing(m);
                    assert_eq!(walk.outcome(), None);
                    assert_eq!(walk.positions(), fast.positions());
                    check_history(&walk);
                }
                copy.undo();
                check_history(&copy);
            }
        }
    }
    (ended, repeated, played, forbidden)
}

#[test]
fn xiongqi() {
    let (ended, repeated, played, forbidden) =
        random_games(chuhe::xiongqi::Position::start(), 24, 300, 0.5);
    eprintln!("{ended} ended, {repeated} repeated, {played} plies, {forbidden} moves forbidden");
    assert!(ended > 0 && repeated > 0 && played > 1000 && forbidden > 100);
}

#[test]
fn xiangqi() {
    let (ended, repeated, played, forbidden) = random_games(
        chuhe::xiangqi::Position::start_with(RuleSet::Standard),
        24,
        400,
        0.1,
    );
    eprintln!("{ended} ended, {repeated} repeated, {played} plies");
    assert!(ended > 0 && repeated > 0 && played > 1000 && forbidden == 0);
}

#[test]
fn xiangqi_capture() {
    let (ended, repeated, played, forbidden) = random_games(
        chuhe::xiangqi::Position::start_with(RuleSet::Capture),
        24,
        300,
        0.5,
    );
    eprintln!("{ended} ended, {repeated} repeated, {played} plies");
    assert!(ended > 0 && repeated > 0 && played > 1000 && forbidden == 0);
}
