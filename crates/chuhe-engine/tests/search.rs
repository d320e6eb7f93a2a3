//! The search against independent checks: forced wins verified by brute force over the
//! arbiter's own rules, the façade's promises (MultiPV, search moves, errors, stop).

use std::time::Duration;

use chuhe::{Game, GameKind, GamePosition, MoveNotation};
use chuhe_engine::{Engine, Limits, Score, SearchEvent};

/// Can the side to move force a win within `plies` plies (the arbiter decides every end)?
fn wins_within<P: GamePosition>(game: &Game<P>, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mover = game.position().turn();
    game.legal_moves().iter().any(|&m| {
        let mut g = game.clone();
        g.play(m).unwrap();
        match g.outcome() {
            Some(o) => o.winner == Some(mover),
            None => plies >= 3 && loses_within(&g, plies - 1),
        }
    })
}

/// Does the side to move lose within `plies` plies whatever it plays?
fn loses_within<P: GamePosition>(game: &Game<P>, plies: u32) -> bool {
    let mover = game.position().turn();
    if let Some(o) = game.outcome() {
        return o.winner.is_some_and(|w| w != mover);
    }
    game.legal_moves().iter().all(|&m| {
        let mut g = game.clone();
        g.play(m).unwrap();
        match g.outcome() {
            Some(o) => o.winner.is_some_and(|w| w != mover),
            None => wins_within(&g, plies - 1),
        }
    })
}

/// The shortest forced win, in moves of the winner, up to `max_moves`.
fn shortest_win<P: GamePosition>(game: &Game<P>, max_moves: u32) -> Option<u32> {
    (1..=max_moves).find(|&n| wins_within(game, 2 * n - 1))
}

fn check_forced_wins<P: GamePosition>(config: P::Config, kind: GameKind, positions: &[&str]) {
    for &text in positions {
        let game = Game::<P>::from_text(text, config).unwrap();
        let expected = shortest_win(&game, 3).unwrap_or_else(|| panic!("no short win in {text}"));
        let mut engine = Engine::new(kind);
        engine.set_position(text, &[]).unwrap();
        // Reductions and pruning may hide a quiet first move for a few iterations.
        let best = engine.search(Limits::depth(2 * expected + 8)).unwrap();
        assert_eq!(best.score, Score::Mate(expected as i32), "{text}: {best:?}");
        // The move chosen really wins that fast.
        let m = game
            .position()
            .parse_move_as(best.best.as_deref().unwrap(), MoveNotation::Uci)
            .unwrap();
        let mut after = game.clone();
        after.play(m).unwrap();
        let mover = game.position().turn();
        let wins = after.outcome().is_some_and(|o| o.winner == Some(mover))
            || loses_within(&after, 2 * expected - 2);
        assert!(
            wins,
            "{text}: {} does not win in {expected}",
            best.best.unwrap()
        );
    }
}

#[test]
fn xiangqi_checkmates_are_found_at_their_distance() {
    check_forced_wins::<chuhe::xiangqi::Position>(
        chuhe::xiangqi::RuleSet::Standard,
        GameKind::Xiangqi,
        &[
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1",
            "3ak4/4a4/9/9/9/9/9/9/9/3RK1R2 w - - 0 1",
            "4k4/4a4/3a5/9/9/9/9/9/4R4/3K1R3 w - - 0 1",
        ],
    );
}

#[test]
fn xiangqi_capture_rules_general_captures_are_found() {
    check_forced_wins::<chuhe::xiangqi::Position>(
        chuhe::xiangqi::RuleSet::Capture,
        GameKind::XiangqiCapture,
        &[
            // The flying general (C2).
            "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        ],
    );
}

#[test]
fn xiongqi_terminal_captures_are_found_at_their_distance() {
    check_forced_wins::<chuhe::xiongqi::Position>(
        (),
        GameKind::Xiongqi,
        &[
            "3g^4/8/8/8/8/8/8/3RG^3 / X/x",
            "7g^/8/6+S1/8/8/8/R7/4G^3 / X/x",
            "7g^/8/8/8/8/8/8/RR2G^3 / X/x",
            // North to move: its empress takes South's general in two.
            "4g^3/8/8/8/8/3e4/8/G^7 / x/X",
        ],
    );
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut engine = Engine::new(GameKind::Xiangqi);
    engine.set_multipv(3).unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = std::sync::Arc::clone(&lines);
    engine
        .search_with(Limits::depth(5), move |e| {
            if let SearchEvent::Info(i) = e {
                if i.bound.is_none() {
                    sink.lock().unwrap().push(i);
                }
            }
        })
        .unwrap();
    let lines = lines.lock().unwrap();
    let last: Vec<_> = lines.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: std::collections::BTreeSet<_> = last.iter().map(|i| i.pv[0].clone()).collect();
    assert_eq!(firsts.len(), 3, "{last:?}");
    for w in last.windows(2) {
        assert!(w[0].score.sort_key() >= w[1].score.sort_key(), "{last:?}");
    }
}

#[test]
fn search_moves_restrict_the_root() {
    let mut engine = Engine::new(GameKind::Xiongqi);
    let limits = Limits {
        search_moves: vec!["a3a4".into(), "h3h4".into()],
        ..Limits::depth(4)
    };
    let best = engine.search(limits).unwrap();
    assert!(["a3a4", "h3h4"].contains(&best.best.as_deref().unwrap()));
    let bad = Limits {
        search_moves: vec!["a3a5".into()],
        ..Limits::depth(4)
    };
    assert!(engine.search(bad).is_err());
}

#[test]
fn bad_positions_and_moves_leave_the_position_unchanged() {
    let mut engine = Engine::new(GameKind::Xiongqi);
    engine.set_position("start", &["e3e4"]).unwrap();
    let before = engine.position_feen();
    assert!(engine.set_position("start", &["e3e4", "e3e4"]).is_err());
    assert!(engine.set_position("not a position", &[]).is_err());
    assert!(engine
        .set_position("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &[])
        .is_err());
    assert_eq!(engine.position_feen(), before);
    assert!(engine.set_move_notation(MoveNotation::Wxf).is_err());
    assert!(engine.set_hash(0).is_err());
    assert!(engine.set_threads(0).is_err());
    assert!(engine.set_level(21).is_err());
}

#[test]
fn a_finished_game_has_no_best_move() {
    let mut engine = Engine::new(GameKind::Xiangqi);
    engine
        .set_position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", &["a1d1"])
        .unwrap();
    assert!(engine.outcome().is_some());
    let best = engine.search(Limits::depth(3)).unwrap();
    assert_eq!(best.best, None);
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let mut engine = Engine::new(GameKind::Xiangqi);
    engine.set_threads(2).unwrap();
    engine
        .go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            |_| {},
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.is_searching());
    engine.stop();
    let best = engine.wait().unwrap();
    assert!(engine.legal_moves().contains(best.best.as_ref().unwrap()));
    assert!(best.depth >= 2, "{best:?}");
}

#[test]
fn time_and_node_limits_are_kept() {
    let mut engine = Engine::new(GameKind::Xiangqi);
    let t = std::time::Instant::now();
    let best = engine
        .search(Limits::movetime(Duration::from_millis(150)))
        .unwrap();
    let spent = t.elapsed();
    assert!(spent < Duration::from_millis(400), "{spent:?}");
    assert!(best.best.is_some());
    let best = engine.search(Limits::nodes(20_000)).unwrap();
    assert!(best.nodes < 40_000, "{best:?}");
}

#[test]
fn every_game_searches_from_random_positions() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    for kind in GameKind::ALL {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..6 {
            let mut game = kind.new_game("start").unwrap();
            for _ in 0..rng.gen_range(0..60) {
                let moves = game.legal_moves_text(MoveNotation::Uci).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.gen_range(0..moves.len())];
                game.play_text(m, MoveNotation::Uci).unwrap();
            }
            let mut engine = Engine::new(kind);
            let played = game.moves_uci();
            let played: Vec<&str> = played.iter().map(String::as_str).collect();
            engine.set_position("start", &played).unwrap();
            let best = engine.search(Limits::depth(4)).unwrap();
            match game.outcome() {
                Some(_) => assert_eq!(best.best, None),
                None => {
                    let legal = game.legal_moves_text(MoveNotation::Uci).unwrap();
                    assert!(
                        legal.contains(best.best.as_ref().unwrap()),
                        "{kind}: {best:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_material_only_baseline_counts_material_alone() {
    // At the start nothing can be won: the material-only engine sees exactly 0; the full
    // evaluation sees more than material (placement, mobility, tempo).
    for kind in [GameKind::Xiangqi, GameKind::Xiongqi] {
        let mut engine = Engine::new(kind);
        engine.set_material_only(true).unwrap();
        assert_eq!(engine.search(Limits::depth(1)).unwrap().score, Score::Cp(0));
    }
    // A free chariot is won by both.
    let mut baseline = Engine::new(GameKind::Xiangqi);
    baseline.set_material_only(true).unwrap();
    let mut full = Engine::new(GameKind::Xiangqi);
    let free = "3k5/9/9/9/9/9/r8/9/R8/4K4 w - - 0 1";
    for engine in [&mut baseline, &mut full] {
        engine.set_position(free, &[]).unwrap();
        match engine.search(Limits::depth(3)).unwrap().score {
            Score::Cp(cp) => assert!(cp > 700, "{cp}"),
            Score::Mate(n) => assert!(n > 0, "{n}"),
        }
    }
}

#[test]
fn a_new_game_forgets_what_earlier_searches_learnt() {
    // Searches learn into the hash table and the move-ordering tables, and keep them for the
    // next move of the same game; a new game starts from nothing again, so a single-threaded
    // search repeats itself exactly after it.
    for kind in [GameKind::Xiangqi, GameKind::Xiongqi] {
        let mut engine = Engine::new(kind);
        let first = engine.search(Limits::depth(9)).unwrap();
        let again = engine.search(Limits::depth(9)).unwrap();
        // What the first search learnt changes the second (with the tables kept, it is not
        // a repetition of the first; fewer nodes, usually, but the learnt ordering may also
        // lead it down another line).
        assert_ne!(
            (again.nodes, &again.best, again.score),
            (first.nodes, &first.best, first.score),
            "{kind:?}: the second search learnt nothing from the first"
        );
        engine.new_game().unwrap();
        let fresh = engine.search(Limits::depth(9)).unwrap();
        assert_eq!(
            (fresh.nodes, &fresh.best, fresh.score),
            (first.nodes, &first.best, first.score),
            "{kind:?}"
        );
    }
}
