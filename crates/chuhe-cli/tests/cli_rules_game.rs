//! Lantern (`examples/rules/lantern`), a game invented to test the rules pipeline, played to
//! its end by its own rules — no ply cap — through every front end that takes `--rules DIR`:
//! two people at `chuhe play`, the engine against itself through `chuhe uci`, and two engines
//! judged by `chuhe match`.

#[allow(dead_code)]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use chuhe::{GameKind, MoveNotation};

/// The invented game's directory.
fn lantern() -> String {
    format!(
        "{}/../../examples/rules/lantern",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// How a game may end by the rules (a match's `move cap` or an illegal move are not among
/// them).
const NATURAL: [&str; 6] = [
    "mareking",
    "checkmate",
    "stalemate",
    "repetition",
    "movelimit",
    "insufficient",
];

#[test]
fn the_compact_description_writes_the_shipped_table() {
    // lantern.ggn.json is `chuhe ggn --pieces pieces.json --pretty`, not written by hand.
    let dir = lantern();
    let written = common::ok(&["ggn", "--pieces", &format!("{dir}/pieces.json"), "--pretty"]);
    let shipped = std::fs::read_to_string(format!("{dir}/lantern.ggn.json")).unwrap();
    assert_eq!(written.trim_end(), shipped.trim_end());
    let perft = common::ok(&["perft", "3", "--rules", &dir]);
    assert!(perft.starts_with("perft 3: 12306 nodes"), "{perft}");
}

#[test]
fn two_people_play_lantern_to_a_promotion_that_captures_the_lord() {
    let dir = lantern();
    let save = std::env::temp_dir()
        .join(format!("chuhe-lantern-{}.pcn", std::process::id()))
        .to_string_lossy()
        .into_owned();
    // The first player's lantern-bearer walks up the d-file, takes a bearer and then the lord
    // on the last rank, where it must become a tiger or a catapult: the bare move is refused
    // and the promotion named.
    let input = "d2-d3\na7-a6\nd3d4\na6-a5\nd4-d5\nmoves\na5-a4\nd5+d6\ng7-g6\nd6+d7\nd6+d7=T\n";
    let run = common::chuhe_with_input(
        &[
            "play", "--rules", &dir, "--vs", "human", "--glyphs", "latin", "--save", &save,
        ],
        input,
    );
    let record = std::fs::read_to_string(&save);
    let _ = std::fs::remove_file(&save);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let out = run.stdout;
    assert!(out.contains("21 legal moves: a5-a4"), "{out}");
    assert!(
        out.contains("write the promotion as one of d6+d7=T, d6+d7=C"),
        "{out}"
    );
    assert!(out.contains("5. d6+d7=T"), "{out}");
    assert!(out.contains("game over: first (South/Red) wins"), "{out}");
    let record: serde_json::Value = serde_json::from_str(&record.unwrap()).unwrap();
    assert_eq!(record["meta"]["game"], "lantern");
    assert_eq!(record["status"], "mareking");
    assert_eq!(record["winner"], "first");
    assert_eq!(record["moves"].as_array().unwrap().len(), 9);
}

/// Reads the engine's lines until `bestmove`; returns its move.
fn best_move(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> String {
    for line in lines.by_ref() {
        let line = line.expect("the engine writes lines");
        if let Some(rest) = line.strip_prefix("bestmove ") {
            return rest.split_whitespace().next().unwrap_or("").to_string();
        }
    }
    panic!("the engine stopped before its bestmove");
}

#[test]
fn the_engine_plays_lantern_against_itself_to_the_end_through_uci() {
    let dir = lantern();
    let mut engine = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["uci", "--rules", &dir])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the chuhe binary runs");
    let mut to = engine.stdin.take().unwrap();
    let mut lines = BufReader::new(engine.stdout.take().unwrap()).lines();
    // The arbiter: chuhe's own game of the same directory.
    let kind = GameKind::Rules(chuhe::rules::load_dir(&dir).unwrap());
    let mut game = kind.new_game("start").unwrap();
    writeln!(to, "uci\nucinewgame").unwrap();
    // Different depths for the two sides, so that the game is not a mirror.
    let mut ply = 0;
    while game.outcome().is_none() {
        assert!(
            ply < 600,
            "no end after {ply} plies: {:?}",
            game.moves_uci()
        );
        let depth = if ply % 2 == 0 { 3 } else { 1 };
        let moves = game.moves_uci().join(" ");
        writeln!(to, "position startpos moves {moves}\ngo depth {depth}").unwrap();
        let m = best_move(&mut lines);
        game.play_text(&m, MoveNotation::Uci)
            .unwrap_or_else(|e| panic!("ply {ply}: the engine's {m}: {e}"));
        ply += 1;
    }
    writeln!(to, "quit").unwrap();
    let _ = engine.wait();
    let outcome = game.outcome().unwrap();
    assert!(
        NATURAL.contains(&outcome.status.as_str()),
        "{outcome:?} after {ply} plies"
    );
}

#[test]
fn two_engines_play_lantern_to_its_ends_in_a_match() {
    engines_play_to_the_ends(&lantern(), "lantern", &[], &[]);
}

/// Minishogi drops pieces from the hands: the engines play them, the arbiter judges them, and
/// the records read back (a checkmate by a pawn drop, lost by the dropper, is an end too).
#[test]
fn two_engines_play_minishogi_with_drops_to_its_ends_in_a_match() {
    let dir = format!("{}/../../games/minishogi", env!("CARGO_MANIFEST_DIR"));
    let drops = engines_play_to_the_ends(
        &dir,
        "minishogi",
        &["--random-plies", "4"],
        &["illegalmove"],
    );
    assert!(drops > 0, "no piece was dropped");
}

/// Two engines (depth 4 and 1) play two rounds of the game of `dir`; every game ends by the
/// rules (or by one of `also`, where the game's rules give it: Minishogi's pawn drop that
/// checkmates loses as an illegal move) and its record replays and is written again by
/// `chuhe record` with the directory. The drops played (PMN `P*e5`).
fn engines_play_to_the_ends(dir: &str, name: &str, more: &[&str], also: &[&str]) -> usize {
    let natural = |e: &str| NATURAL.contains(&e) || also.contains(&e);
    let dir = dir.to_string();
    let pcn = std::env::temp_dir().join(format!("chuhe-{name}-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&pcn);
    let engine = |name: &str, depth: u32| {
        format!(
            "cmd='{}' arg=uci arg=--rules arg='{dir}' name={name} depth={depth}",
            env!("CARGO_BIN_EXE_chuhe")
        )
    };
    let (deep, shallow) = (engine("deep", 4), engine("shallow", 1));
    let pcn_arg = pcn.display().to_string();
    let mut args = vec![
        "match",
        "--rules",
        &dir,
        "--engine",
        &deep,
        "--engine",
        &shallow,
        "--rounds",
        "2",
        "--max-plies",
        "1000",
        "--pcn-dir",
        &pcn_arg,
        "--json",
    ];
    args.extend_from_slice(more);
    let run = common::chuhe(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["game"], name);
    assert_eq!(summary["games"], 4);
    // Every game ended by the rules: no move cap, no engine losing on an illegal move.
    let endings = summary["endings"].as_object().unwrap();
    assert!(
        endings.keys().all(|e| natural(e)),
        "{endings:?}\n{}",
        run.stderr
    );
    let mut records = 0;
    let mut drops = 0;
    for entry in std::fs::read_dir(&pcn).unwrap() {
        let entry_path = entry.unwrap().path();
        let text = std::fs::read_to_string(&entry_path).unwrap();
        let record: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(record["meta"]["game"], name);
        drops += record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m[0].as_str().is_some_and(|t| t.contains('*')))
            .count();
        let status = record["status"].as_str().unwrap();
        assert!(natural(status), "{text}");
        if status == "illegalmove" {
            let moves = record["moves"].as_array().unwrap();
            let last = moves.last().unwrap()[0].as_str().unwrap();
            assert!(last.starts_with("P*") || last.starts_with("p*"), "{text}");
        }
        // The record reads back move by move with the game's directory, to the same end.
        let file = entry_path.display().to_string();
        let run = common::chuhe(&["replay", &file, "--rules", &dir]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let plies: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let last = plies.as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["status"], record["status"], "{file}");
        assert_eq!(
            plies.as_array().unwrap().len(),
            record["moves"].as_array().unwrap().len() + 1
        );
        // Without it, the game's name is unknown, and said so.
        let line = common::fails(&["replay", &file]);
        assert!(line.contains(&format!("unknown game '{name}'")), "{line}");
        // `chuhe record` checks it by the same rules and writes it again as it was.
        let run = common::chuhe(&["record", &file, "--to", "pcn", "--rules", &dir]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let again: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(again["moves"], record["moves"], "{file}");
        assert_eq!(again["status"], record["status"], "{file}");
        records += 1;
    }
    let _ = std::fs::remove_dir_all(&pcn);
    assert_eq!(records, 4);
    drops
}

#[test]
fn a_bad_rules_directory_is_one_line_naming_file_and_key() {
    let line = common::fails(&[
        "match",
        "--rules",
        "/nonexistent",
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
    ]);
    assert!(
        line.contains("--rules: /nonexistent/rules.json: cannot be read"),
        "{line}"
    );
    // A directory and a game are one too many (clap's own message).
    let run = common::chuhe(&[
        "match",
        "--rules",
        &lantern(),
        "--game",
        "xiangqi",
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("cannot be used with '--game <GAME>'"),
        "{}",
        run.stderr
    );
}
