//! The command line's rough edges, for every command and game: a reader that closes the pipe
//! early, a full disk, `perft --moves` with and without history, divide totals, rule options,
//! long input in messages, help, position keywords, and how a finished game is reported.

#[allow(dead_code)]
mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use chuhe::{GameKind, MoveNotation};
use common::*;
use serde_json::Value;

const GAMES: [&str; 3] = ["xiongqi", "xiangqi", "xiangqi-capture"];

/// A long legal game of `game` (PMN, space-separated), chosen deterministically, stopping
/// before the game ends.
fn long_game(game: &str, plies: usize) -> String {
    let kind: GameKind = game.parse().unwrap();
    let mut g = kind.new_game("start").unwrap();
    let mut played: Vec<String> = Vec::new();
    for i in 0..plies {
        let moves = g.legal_moves_text(MoveNotation::Pmn).unwrap();
        // Prefer moves that keep the game going.
        let mut chosen = None;
        for k in 0..moves.len() {
            let m = &moves[(i * 7 + k * 13 + 3) % moves.len()];
            let mut probe = kind.new_game("start").unwrap();
            for p in &played {
                probe.play_text(p, MoveNotation::Pmn).unwrap();
            }
            probe.play_text(m, MoveNotation::Pmn).unwrap();
            if probe.outcome().is_none() {
                chosen = Some(m.clone());
                break;
            }
        }
        let Some(m): Option<String> = chosen else {
            break;
        };
        g.play_text(&m, MoveNotation::Pmn).unwrap();
        played.push(m);
    }
    played.join(" ")
}

/// One command line per command for `game`, each with plenty of output.
fn every_command(game: &str, moves: &str) -> Vec<Vec<String>> {
    let first: Vec<&str> = moves.split_whitespace().take(6).collect();
    let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut convert = args(&["convert", "--game", game, "--from", "pmn", "--to", "uci"]);
    convert.extend(moves.split_whitespace().map(str::to_string));
    vec![
        args(&["perft", "4", "--divide", "--game", game]),
        args(&["perft", "3", "--divide", "--json", "--game", game]),
        args(&["moves", "--game", game, "--moves", &first.join(" ")]),
        args(&[
            "show", "--game", game, "--glyphs", "chinese", "--moves", moves,
        ]),
        args(&["replay", "--game", game, "--moves", moves]),
        args(&["replay", "--game", game, "--moves", moves, "--json"]),
        convert,
        args(&["convert", "--game", game, "--to", "feen", "start"]),
    ]
}

#[test]
fn a_reader_closing_the_pipe_early_is_not_an_error() {
    for game in GAMES {
        let moves = long_game(game, 120);
        for args in every_command(game, &moves) {
            let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
                .args(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdout = child.stdout.take().unwrap();
            let mut first = [0u8; 10];
            stdout.read_exact(&mut first).unwrap();
            drop(stdout);
            let out = child.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "chuhe {args:?}: stderr = {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                out.stderr.is_empty(),
                "chuhe {args:?}: stderr = {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn a_full_disk_is_exit_code_3_and_one_line() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for game in GAMES {
        let moves = long_game(game, 20);
        let mut commands = every_command(game, &moves);
        commands.push(vec![
            "perft".into(),
            "2".into(),
            "--game".into(),
            game.into(),
        ]);
        for args in commands {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
                .args(&args)
                .stdout(Stdio::from(full))
                .output()
                .unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(3), "chuhe {args:?}: {stderr}");
            assert!(stderr.ends_with('\n'), "chuhe {args:?}: {stderr:?}");
            assert_eq!(stderr.lines().count(), 1, "chuhe {args:?}: {stderr:?}");
            assert!(stderr.contains("cannot write"), "{stderr}");
        }
    }
}

fn nodes(depth: u32, extra: &[&str]) -> u64 {
    perft_json(depth, extra)["nodes"].as_u64().unwrap()
}

#[test]
fn perft_after_moves_is_perft_of_the_position_reached() {
    // Xiangqi's perft never depends on the history; Xiongqi's does (X6), except where no
    // earlier position can come back: here, after a capture.
    let cases = [
        ("xiongqi", "e3-e4 e6-e5 e4+e5".to_string()),
        ("xiangqi", long_game("xiangqi", 30)),
        ("xiangqi-capture", long_game("xiangqi-capture", 30)),
    ];
    for (game, moves) in cases {
        let reached = ok_json(&["moves", "--game", game, "--moves", &moves, "--json"]);
        assert!(reached["status"].is_null(), "{game}: {reached}");
        // Xiangqi's FEN carries both clocks; Xiongqi's FEEN none, so the clock is given.
        let position = reached
            .get("fen")
            .unwrap_or(&reached["position"])
            .as_str()
            .unwrap()
            .to_string();
        let halfmove = reached["halfmove"].to_string();
        for depth in 1..=3 {
            let with_moves = nodes(depth, &["--game", game, "--moves", &moves]);
            let from_position = nodes(
                depth,
                &[
                    "--game",
                    game,
                    "--position",
                    &position,
                    "--halfmove",
                    &halfmove,
                ],
            );
            assert_eq!(
                with_moves, from_position,
                "{game} depth {depth} after {moves}"
            );
            assert!(with_moves > 0);
        }
    }
    // Along a long Xiongqi game, the history can only take moves away.
    let moves = long_game("xiongqi", 30);
    let reached = ok_json(&["moves", "--moves", &moves, "--json"]);
    let position = reached["position"].as_str().unwrap();
    let halfmove = reached["halfmove"].to_string();
    let with_moves = nodes(3, &["--moves", &moves]);
    let bare = nodes(3, &["--position", position, "--halfmove", &halfmove]);
    assert!(with_moves <= bare, "{with_moves} > {bare}");
}

#[test]
fn perft_after_moves_counts_xiongqi_history() {
    // Back at the start after four moves: repeating a1-a2 would be repetitive (X6), so the
    // game with its history has one root move fewer than the bare start position.
    let moves = "a1-a2 a8-a7 a2-a1 a7-a8";
    let reached = ok_json(&["moves", "--moves", moves, "--json"]);
    let position = reached["position"].as_str().unwrap();
    assert_eq!(
        position,
        "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x"
    );
    assert_eq!(nodes(1, &["--position", position, "--halfmove", "4"]), 26);
    assert_eq!(nodes(1, &["--moves", moves]), 25);
    let with_history = perft_json(1, &["--moves", moves, "--divide"]);
    assert!(with_history["divide"].get("a1-a2").is_none());
    for depth in 2..=3 {
        let bare = nodes(depth, &["--position", position, "--halfmove", "4"]);
        let history = nodes(depth, &["--moves", moves]);
        assert!(history < bare, "depth {depth}: {history} vs {bare}");
    }
    // Xiangqi perft does not depend on history.
    let x = "h3-e3 h8-e8 e3-h3 e8-h8";
    assert_eq!(
        nodes(2, &["--game", "xiangqi", "--moves", x]),
        nodes(2, &["--game", "xiangqi"])
    );
}

#[test]
fn perft_divide_totals_and_json_seconds() {
    for game in GAMES {
        let out = ok(&["perft", "3", "--divide", "--game", game]);
        let mut lines = out.lines();
        let mut sum = 0u64;
        let mut count = 0;
        for line in lines.by_ref() {
            if line.is_empty() {
                break;
            }
            let (_, n) = line.rsplit_once(": ").unwrap_or_else(|| panic!("{line}"));
            sum += n.parse::<u64>().unwrap();
            count += 1;
        }
        let total = lines.next().unwrap();
        assert!(
            total.starts_with(&format!("perft 3: {sum} nodes in ")),
            "{game}: {total} vs {sum}"
        );
        assert_eq!(lines.next(), None);
        assert!(count > 20, "{game}: {count} root moves");

        for extra in [&["--divide"][..], &[]] {
            let mut args = vec!["perft", "3", "--json", "--game", game];
            args.extend_from_slice(extra);
            let raw = ok(&args);
            let seconds = raw
                .split("\"seconds\":")
                .nth(1)
                .and_then(|s| s.split([',', '}']).next())
                .unwrap();
            let decimals = seconds.split_once('.').map_or(0, |(_, d)| d.len());
            assert!(!seconds.contains('e'), "{seconds}");
            assert!(decimals <= 6, "seconds = {seconds}");
            let value: Value = serde_json::from_str(&raw).unwrap();
            check_perft_shape(&value, !extra.is_empty());
        }
    }
}

#[test]
fn repetition_count_is_for_xiangqi_only() {
    for command in [&["moves"][..], &["perft", "1"], &["show"], &["replay"]] {
        let mut args = command.to_vec();
        args.extend(["--repetition-count", "3"]);
        let line = fails(&args);
        assert!(line.contains("repetition"), "{line}");
        assert!(line.contains("xiongqi"), "{line}");
        assert!(line.starts_with("--repetition-count: "), "{line}");
        for game in ["xiangqi", "xiangqi-capture"] {
            for bad in ["0", "1"] {
                let mut args = command.to_vec();
                args.extend(["--game", game, "--repetition-count", bad]);
                let line = fails(&args);
                assert!(line.contains("repetition fold count"), "{line}");
                assert!(!line.contains("invalid position"), "{line}");
            }
            let mut args = command.to_vec();
            args.extend(["--game", game, "--repetition-count", "2"]);
            ok(&args);
        }
    }
    // Twofold repetition ends a Xiangqi game when the count is 2.
    let moves = "h3-e3 h8-e8 e3-h3 e8-h8";
    let value = ok_json(&[
        "moves",
        "--game",
        "xiangqi",
        "--moves",
        moves,
        "--repetition-count",
        "2",
        "--json",
    ]);
    assert_eq!(value["status"], "repetition", "{value}");
    let value = ok_json(&["moves", "--game", "xiangqi", "--moves", moves, "--json"]);
    assert!(value["status"].is_null(), "{value}");
}

#[test]
fn long_input_is_cut_in_messages() {
    let long = "x".repeat(10_000);
    let long_move = format!("a1-a{}", "2".repeat(10_000));
    let long_feen = format!("{} / X/x", "8/".repeat(5_000));
    for game in GAMES {
        let cases: Vec<Vec<&str>> = vec![
            vec!["moves", "--game", game, "--moves", &long],
            vec!["moves", "--game", game, "--moves", &long_move],
            vec!["show", "--game", game, "--moves", &long],
            vec!["replay", "--game", game, "--moves", &long_move],
            vec!["perft", "1", "--game", game, "--moves", &long],
            vec!["perft", "1", "--game", game, "--position", &long],
            vec!["moves", "--game", game, "--position", &long_feen],
            vec!["show", "--game", game, "--position", &long],
            vec!["convert", "--game", game, "--to", "feen", &long],
            vec!["convert", "--game", game, "--to", "feen", &long_feen],
            vec![
                "convert", "--game", game, "--from", "pmn", "--to", "uci", &long,
            ],
            vec![
                "convert", "--game", game, "--from", "pmn", "--to", &long, "a1-a2",
            ],
        ];
        for args in cases {
            let line = fails(&args);
            assert!(line.len() < 300, "{} bytes: {line}", line.len());
            assert!(
                line.matches("characters)").count() <= 1,
                "quoted twice: {line}"
            );
        }
    }
}

#[test]
fn help_lists_every_command() {
    let help = ok(&["--help"]);
    for command in ["perft", "moves", "show", "replay", "convert"] {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("{command} "))),
            "--help lacks {command}: {help}"
        );
        let sub = ok(&[command, "--help"]);
        assert!(sub.contains("Usage: chuhe"), "{command} --help: {sub}");
        for flag in ["--game", "--position", "--halfmove", "--repetition-count"] {
            assert!(sub.contains(flag), "{command} --help lacks {flag}");
        }
    }
    assert!(ok(&["perft", "--help"]).contains("--moves"));
    ok(&["--version"]);
    ok(&["help", "perft"]);
}

#[test]
fn unknown_position_keywords_are_named() {
    for game in GAMES {
        for word in ["START", "xyz", "Start"] {
            let line = fails(&["moves", "--game", game, "--position", word]);
            assert!(
                line.contains("unknown position keyword"),
                "{game} {word}: {line}"
            );
        }
        // `start` itself, with spaces around it, is the start position.
        ok(&["moves", "--game", game, "--position", " start "]);
    }
}

#[test]
fn moves_text_says_how_a_finished_game_ended() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--moves", "a1-a2 a8-a7 a2-a1 a7-a8 a1-a2"],
            "repetition, second wins",
        ),
        (
            &[
                "--position",
                "4g^3/4R3/8/8/8/8/8/G^7 / X/x",
                "--moves",
                "e7+e8",
            ],
            "mareking, first wins",
        ),
        (
            &[
                "--game",
                "xiangqi",
                "--position",
                "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
                "--moves",
                "a1d1",
            ],
            "checkmate, first wins",
        ),
        (
            &[
                "--game",
                "xiangqi",
                "--moves",
                "h3-e3 h8-e8 e3-h3 e8-h8 h3-e3 h8-e8 e3-h3 e8-h8",
            ],
            "repetition, draw",
        ),
        (
            &[
                "--game",
                "xiangqi-capture",
                "--position",
                "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                "--moves",
                "e1e10",
            ],
            "first wins",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["moves"];
        args.extend_from_slice(extra);
        let out = ok(&args);
        assert!(
            out.starts_with("no legal moves: the game is over (") && out.contains(expected),
            "{args:?}: {out}"
        );
        assert_eq!(out.lines().count(), 1, "{out}");
    }
}
