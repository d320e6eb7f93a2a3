//! The evaluations of both games: colour and left/right symmetry, feature extraction against
//! evaluation, and sanity of the numbers.

use chuhe::{xiangqi, xiongqi, GamePosition, Side};
use chuhe_engine::eval::tune::{self, Dataset};
use chuhe_engine::eval::{self, Evaluation, FeatureVector};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions from seeded random games (every position along each game).
fn random_positions<P: GamePosition>(start: P, games: usize, plies: usize, seed: u64) -> Vec<P> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            out.push(pos.clone());
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play_unchecked(m);
        }
    }
    out
}

fn xiangqi_positions(rules: xiangqi::RuleSet) -> Vec<xiangqi::Position> {
    random_positions(xiangqi::Position::start_with(rules), 40, 200, 7)
}

fn xiongqi_positions() -> Vec<xiongqi::Position> {
    random_positions(xiongqi::Position::start(), 40, 200, 11)
}

/// The evaluation rebuilt from the recorded features: dot product, taper, side to move.
fn from_features<P: Evaluation>(pos: &P) -> i32 {
    let mut fv = FeatureVector::new(P::PARAMS);
    let phase = pos.features(&mut fv);
    assert!((0..=P::PHASE_MAX).contains(&phase));
    let (mg, eg) = fv.dot(P::weights());
    let white = eval::taper(mg as i32, eg as i32, phase, P::PHASE_MAX);
    if pos.turn() == Side::First {
        white
    } else {
        -white
    }
}

/// Writes runs of `1` (one empty point each) as one count.
fn collapse_empty(cells: &str) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for c in cells.chars() {
        if c == '1' {
            empty += 1;
        } else {
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
        }
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

/// A Xiangqi position with its files reversed (a ↔ i), through FEN.
fn xiangqi_file_mirror(pos: &xiangqi::Position) -> xiangqi::Position {
    let fen = pos.to_fen();
    let (placement, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = placement
        .split('/')
        .map(|rank| {
            let mut cells = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat('1').take(n as usize)),
                    None => cells.push(c),
                }
            }
            let reversed: String = cells.chars().rev().collect();
            collapse_empty(&reversed)
        })
        .collect();
    xiangqi::Position::from_fen(&format!("{} {rest}", ranks.join("/")), pos.rules()).unwrap()
}

/// A Xiongqi position with its files reversed (a ↔ h), through FEEN.
fn xiongqi_file_mirror(pos: &xiongqi::Position) -> xiongqi::Position {
    let feen = pos.to_feen();
    let (placement, rest) = feen.split_once(' ').unwrap();
    let ranks: Vec<String> = placement
        .split('/')
        .map(|rank| {
            // Tokens: a run of digits (empty squares) or one piece (`+`? letter `^`?).
            let mut tokens: Vec<String> = Vec::new();
            let chars: Vec<char> = rank.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if let Some(n) = chars[i].to_digit(10) {
                    let mut n = n;
                    while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                        i += 1;
                        n = n * 10 + chars[i].to_digit(10).unwrap();
                    }
                    tokens.extend(std::iter::repeat("1".to_string()).take(n as usize));
                    i += 1;
                } else {
                    let mut t = String::new();
                    if chars[i] == '+' {
                        t.push('+');
                        i += 1;
                    }
                    t.push(chars[i]);
                    i += 1;
                    if i < chars.len() && chars[i] == '^' {
                        t.push('^');
                        i += 1;
                    }
                    tokens.push(t);
                }
            }
            tokens.reverse();
            collapse_empty(&tokens.concat())
        })
        .collect();
    xiongqi::Position::from_feen(&format!("{} {rest}", ranks.join("/"))).unwrap()
}

#[test]
fn xiangqi_colour_symmetry() {
    for rules in [xiangqi::RuleSet::Standard, xiangqi::RuleSet::Capture] {
        for pos in xiangqi_positions(rules) {
            let m = pos.mirrored();
            assert_eq!(
                eval::xiangqi::evaluate(&pos),
                eval::xiangqi::evaluate(&m),
                "{}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn xiongqi_colour_symmetry() {
    for pos in xiongqi_positions() {
        let m = pos.mirrored();
        assert_eq!(
            eval::xiongqi::evaluate(&pos),
            eval::xiongqi::evaluate(&m),
            "{}",
            pos.to_feen()
        );
    }
}

#[test]
fn xiangqi_left_right_symmetry() {
    // The weighted terms are exactly symmetric, and so is the network: its hidden units come
    // in mirror pairs (scripts/train_xiangqi_net.py), so a file-mirrored position scores the
    // same.
    let positions = xiangqi_positions(xiangqi::RuleSet::Standard);
    let mut corrected = 0;
    for pos in &positions {
        let m = xiangqi_file_mirror(pos);
        assert_eq!(
            eval::xiangqi::evaluate_linear(pos),
            eval::xiangqi::evaluate_linear(&m),
            "{} / {}",
            pos.to_fen(),
            m.to_fen()
        );
        let correction = eval::xiangqi_net::correction(pos);
        assert_eq!(
            correction,
            eval::xiangqi_net::correction(&m),
            "{} / {}",
            pos.to_fen(),
            m.to_fen()
        );
        corrected += usize::from(correction != 0);
    }
    assert!(
        corrected > positions.len() / 2,
        "the network corrected {corrected} positions"
    );
}

#[test]
fn xiongqi_left_right_symmetry() {
    // The start position is not symmetric (advisor and general), but every term of the
    // evaluation is, so a file-mirrored position scores the same.
    for pos in xiongqi_positions() {
        let m = xiongqi_file_mirror(&pos);
        assert_eq!(
            eval::xiongqi::evaluate(&pos),
            eval::xiongqi::evaluate(&m),
            "{} / {}",
            pos.to_feen(),
            m.to_feen()
        );
    }
}

#[test]
fn features_reproduce_the_evaluation() {
    // Xiangqi's evaluation is the weighted terms plus the network's correction.
    for pos in xiangqi_positions(xiangqi::RuleSet::Standard) {
        let correction = eval::xiangqi_net::correction(&pos);
        let linear = eval::xiangqi::evaluate_linear(&pos);
        let sign = if pos.turn() == Side::First { 1 } else { -1 };
        assert_eq!(from_features(&pos), sign * linear, "{}", pos.to_fen());
        assert_eq!(
            sign * (linear + correction),
            eval::xiangqi::evaluate(&pos),
            "{}",
            pos.to_fen()
        );
    }
    for pos in xiongqi_positions() {
        assert_eq!(
            from_features(&pos),
            eval::xiongqi::evaluate(&pos),
            "{}",
            pos.to_feen()
        );
    }
}

#[test]
fn weight_tables_have_the_layout() {
    assert_eq!(
        eval::xiangqi::initial_weights().len(),
        eval::xiangqi::PARAMS
    );
    assert_eq!(
        eval::xiongqi::initial_weights().len(),
        eval::xiongqi::PARAMS
    );
    for blocks in [eval::xiangqi::BLOCKS, eval::xiongqi::BLOCKS] {
        let mut next = 0;
        for b in blocks {
            assert_eq!(b.start, next, "{}", b.name);
            next = b.end();
        }
    }
    assert_eq!(
        eval::xiangqi::BLOCKS.last().unwrap().end(),
        eval::xiangqi::PARAMS
    );
    assert_eq!(
        eval::xiongqi::BLOCKS.last().unwrap().end(),
        eval::xiongqi::PARAMS
    );
}

#[test]
fn start_positions_are_nearly_level() {
    let x = eval::xiangqi::evaluate(&xiangqi::Position::start());
    assert!(x.abs() <= 50, "xiangqi start {x}");
    let y = eval::xiongqi::evaluate(&xiongqi::Position::start());
    assert!(y.abs() <= 50, "xiongqi start {y}");
}

#[test]
fn a_chariot_up_is_clearly_better() {
    // Black's a10 chariot removed: Red to move, and Black to move.
    for (fen, sign) in [
        (
            "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            1,
        ),
        (
            "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
            -1,
        ),
    ] {
        let pos = xiangqi::Position::from_fen(fen, xiangqi::RuleSet::Standard).unwrap();
        let v = sign * eval::xiangqi::evaluate(&pos);
        assert!(v > 500, "{fen}: {v}");
    }
    for (feen, sign) in [
        (
            "1hbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x",
            1,
        ),
        (
            "1hbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / x/X",
            -1,
        ),
    ] {
        let pos = xiongqi::Position::from_feen(feen).unwrap();
        let v = sign * eval::xiongqi::evaluate(&pos);
        assert!(v > 500, "{feen}: {v}");
    }
}

#[test]
fn xiongqi_soldier_about_to_promote_is_worth_a_lot() {
    // South's crossed soldier on d7 steps onto d8 next move (nothing guards d8).
    let with = xiongqi::Position::from_feen("6g^1/3+S4/8/8/8/8/8/3G^4 / X/x").unwrap();
    let without = xiongqi::Position::from_feen("6g^1/8/8/8/8/8/8/3G^4 / X/x").unwrap();
    let gain = eval::xiongqi::evaluate(&with) - eval::xiongqi::evaluate(&without);
    assert!(gain > eval::xiongqi::piece_value(xiongqi::Role::CrossedSoldier) + 200);
}

#[test]
fn piece_values_follow_the_material_weights() {
    use xiangqi::Role as X;
    assert!(eval::xiangqi::piece_value(X::Chariot) > eval::xiangqi::piece_value(X::Horse));
    assert!(eval::xiangqi::piece_value(X::Horse) > eval::xiangqi::piece_value(X::Soldier));
    assert_eq!(
        eval::xiangqi::piece_value(X::General),
        chuhe_engine::game::TERMINAL_VALUE
    );
    use xiongqi::Role as Y;
    assert!(eval::xiongqi::piece_value(Y::Empress) > eval::xiongqi::piece_value(Y::Chariot));
    assert!(eval::xiongqi::piece_value(Y::Chariot) > eval::xiongqi::piece_value(Y::Horse));
    assert_eq!(
        eval::xiongqi::piece_value(Y::Dragon),
        chuhe_engine::game::TERMINAL_VALUE
    );
}

#[test]
fn weights_override_switches_and_restores() {
    // A local override (the global ones would disturb the tests running beside this one).
    let pos = xiongqi::Position::from_feen("6g^1/3+S4/8/8/8/8/8/3G^4 / X/x").unwrap();
    let table = eval::WeightsOverride::new();
    let params = eval::xiongqi::PARAMS;
    let run = |t: &eval::WeightsOverride| {
        t.with(params, |packed| {
            let mut sum = eval::PackedSum::new(packed);
            eval::xiongqi::features(&pos, &mut sum);
            sum.halves()
        })
    };
    assert_eq!(run(&table), None);
    let zero = vec![[0, 0]; params];
    table.set(Some(&zero));
    assert_eq!(run(&table), Some((0, 0)));
    // A table of another length is ignored.
    table.set(Some(&zero[1..]));
    assert_eq!(run(&table), None);
    table.set(None);
    assert_eq!(run(&table), None);
    assert_eq!(
        eval::xiongqi::evaluate_with(&pos, <xiongqi::Position as Evaluation>::weights()),
        eval::xiongqi::evaluate(&pos)
    );
}

#[test]
fn weights_source_round_trips_the_table() {
    let w = eval::xiangqi::initial_weights();
    let src = tune::weights_source("xiangqi", eval::xiangqi::BLOCKS, &w, &[]);
    let numbers: Vec<i32> = src
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .flat_map(|l| {
            l.split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .filter(|t| !t.is_empty())
                .map(|t| t.parse::<i32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    let flat: Vec<i32> = w.iter().flat_map(|p| [p[0], p[1]]).collect();
    assert_eq!(numbers, flat);
}

#[test]
fn dataset_loads_and_the_fit_improves_on_a_toy_set() {
    // Red a chariot up wins, Black a chariot up wins: K and the error are finite, and a few
    // epochs lower the error.
    let lines = "\
0\t1\t1heag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x
1\t0\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/1HEAG^AEHR / X/x
2\t0.5\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x
";
    let data = Dataset::load::<xiangqi::Position>(lines.as_bytes(), xiangqi::RuleSet::Standard, 0)
        .unwrap();
    assert_eq!(data.training_len(), 3);
    let w = tune::to_float(<xiangqi::Position as Evaluation>::weights());
    let k = tune::fit_k(&data, &w);
    assert!(k.is_finite() && k > 0.0);
    let before = data.mse(&w, k, false);
    let settings = tune::OptimiseSettings {
        epochs: 50,
        learning_rate: 2.0,
        l2: 0.0,
        free: Vec::new(),
    };
    let found = tune::optimise(&data, &w, k, &settings, |_, _, _| {});
    assert_eq!(found.epoch, 50);
    assert!(data.mse(&found.weights, k, false) <= before);

    // Only the material block free: it moves, every other parameter keeps its value.
    let material = eval::xiangqi::BLOCKS
        .iter()
        .find(|b| b.name == "MATERIAL")
        .unwrap();
    let mut free = vec![false; w.len()];
    free[material.start..material.end()].fill(true);
    let only_material = tune::OptimiseSettings { free, ..settings };
    let found = tune::optimise(&data, &w, k, &only_material, |_, _, _| {});
    let moved: Vec<usize> = (0..w.len()).filter(|&i| found.weights[i] != w[i]).collect();
    assert!(!moved.is_empty());
    assert!(moved
        .iter()
        .all(|i| (material.start..material.end()).contains(i)));
    assert!(data.mse(&found.weights, k, false) <= before);
}

#[test]
fn reference_scores_blend_into_the_targets() {
    // The fourth column is a reference engine's score. Red won the first two games, where the
    // reference liked Red; Black won the third, where it liked Black. K_ref is fitted to
    // that; with weight 1 the targets are the scores' expected results (between 0 and 1,
    // ordered as the scores), with weight 0 they stay the results.
    let lines = "\
0\t1\t1heag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\t900
1\t1\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\t40
2\t0\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/1HEAG^AEHR / X/x\t-100000
3\t1\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\tnot-a-score
";
    let load = || {
        Dataset::load::<xiangqi::Position>(lines.as_bytes(), xiangqi::RuleSet::Standard, 0).unwrap()
    };
    let w = tune::to_float(<xiangqi::Position as Evaluation>::weights());
    let mut data = load();
    assert_eq!((data.training_len(), data.referenced_len()), (3, 3));
    assert_eq!(data.skipped, 1, "an unreadable score leaves the line out");
    let results_only = data.mse(&w, 1.0, false);
    assert!(data.blend_reference(0.0).is_some());
    assert_eq!(data.mse(&w, 1.0, false), results_only);

    let mut blended = load();
    let k_ref = blended.blend_reference(1.0).unwrap();
    assert!(k_ref > 0.0 && k_ref.is_finite());
    assert_ne!(blended.mse(&w, 1.0, false), results_only);

    let without = "0\t1\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\n";
    let mut plain =
        Dataset::load::<xiangqi::Position>(without.as_bytes(), xiangqi::RuleSet::Standard, 0)
            .unwrap();
    assert_eq!(plain.blend_reference(0.5), None);
}

#[test]
fn packed_weights_add_both_halves_exactly() {
    let table = [
        eval::pack([-300, 7]),
        eval::pack([5, -9000]),
        eval::pack([-1, -1]),
    ];
    let mut sum = eval::PackedSum::new(&table);
    use eval::Accumulator;
    sum.add(0, 3);
    sum.add(1, -2);
    sum.add(2, 5);
    sum.add(7, 1); // outside the table: ignored
    assert_eq!(sum.halves(), (-900 - 10 - 5, 21 + 18000 - 5));
}

/// The self-play games of the tuner and of the WDL data: each searched position comes after
/// the opening, in ply order, its FEEN's side to move the one recorded; `generate` writes the
/// same games (the same seed) with the forced-end scores left out.
#[test]
fn self_play_reports_every_searched_position_in_order() {
    use chuhe::GameKind;
    let settings = tune::PlaySettings {
        nodes: 200,
        max_plies: 60,
        ..tune::PlaySettings::default()
    };
    let mut reported = Vec::new();
    let mut reported_cp = Vec::new();
    let stats = tune::self_play(
        GameKind::Xiangqi,
        3,
        &settings,
        11,
        |g, positions, result, _| {
            assert!(!positions.is_empty());
            assert!(positions[0].ply >= settings.random_plies.0);
            for pair in positions.windows(2) {
                assert_eq!(pair[1].ply, pair[0].ply + 1);
            }
            for p in positions {
                let pos =
                    xiangqi::Position::from_text(&p.feen, xiangqi::RuleSet::Standard).unwrap();
                assert_eq!(pos.turn(), p.turn);
                let first_to_move = p.ply % 2 == 0;
                assert_eq!(p.turn == Side::First, first_to_move);
                if let chuhe_engine::Score::Cp(cp) = p.score {
                    reported.push(format!("{g}\t{}\t{}", result.0, p.feen));
                    reported_cp.push(if p.turn == Side::First { cp } else { -cp });
                }
            }
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(stats.games, 3);
    // The same three games written by `generate`, without and with the scores column.
    let generate = |scores: bool| {
        let mut out = Vec::new();
        let stats = tune::generate(
            GameKind::Xiangqi,
            0,
            3,
            &settings,
            11,
            scores,
            &mut out,
            |_| {},
        )
        .unwrap();
        (String::from_utf8(out).unwrap(), stats)
    };
    let (written, generated) = generate(false);
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines, reported);
    assert_eq!(generated.positions, lines.len() as u64);
    // With scores: the same lines, each with the search's score for the first player.
    let (scored, _) = generate(true);
    let scored: Vec<&str> = scored.lines().collect();
    assert_eq!(scored.len(), reported.len());
    for ((line, plain), expected) in scored.iter().zip(&reported).zip(&reported_cp) {
        let (head, cp) = line.rsplit_once('\t').unwrap();
        assert_eq!(head, plain);
        assert_eq!(cp.parse::<i32>().unwrap(), *expected);
    }
}
