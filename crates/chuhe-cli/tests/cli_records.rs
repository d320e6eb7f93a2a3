//! Game records: `chuhe pcn` writes them, `chuhe replay RECORD` checks them move by move.

#[allow(dead_code)]
mod common;

use common::{fails, ok};
use serde_json::Value;

/// A record in a temporary file, removed when dropped.
struct TempRecord(std::path::PathBuf);

impl TempRecord {
    fn new(name: &str, text: &str) -> TempRecord {
        let path = std::env::temp_dir().join(format!("chuhe-{}-{name}.pcn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempRecord(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempRecord {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_written_record_replays_to_its_result() {
    let pcn = ok(&[
        "pcn",
        "--game",
        "xiangqi",
        "--moves",
        "C2=5 H8+7",
        "--notation",
        "wxf",
        "--times",
        "1.5 2",
        "--first",
        "Alice",
        "--second",
        "Bob",
        "--status",
        "resignation",
        "--winner",
        "first",
    ]);
    let value: Value = serde_json::from_str(&pcn).unwrap();
    assert_eq!(value["meta"]["game"], "xiangqi");
    assert_eq!(value["moves"][0][0], "h3-e3");
    assert_eq!(value["moves"][1][1], 2.0);
    assert_eq!(value["sides"]["second"]["name"], "Bob");
    let file = TempRecord::new("written", &pcn);
    let plies: Value = serde_json::from_str(&ok(&["replay", file.path()])).unwrap();
    let plies = plies.as_array().unwrap();
    assert_eq!(plies.len(), 3);
    assert_eq!(plies[2]["status"], "resignation");
    assert_eq!(plies[2]["winner"], "first");
    // A finished game's record: the status comes from the rules.
    let mate = ok(&[
        "pcn",
        "--game",
        "xiangqi",
        "--position",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        "--moves",
        "a1d1",
    ]);
    let value: Value = serde_json::from_str(&mate).unwrap();
    assert_eq!(
        (value["status"].as_str(), value["winner"].as_str()),
        (Some("checkmate"), Some("first"))
    );
}

#[test]
fn replay_names_the_first_illegal_move_of_a_record() {
    let pcn = ok(&["pcn", "--moves", "e3-e4 e6-e5 e4+e5"]).replace("e4+e5", "e4+e6");
    let file = TempRecord::new("illegal", &pcn);
    let err = fails(&["replay", file.path()]);
    assert!(err.contains("illegal move 'e4+e6' at ply 3"), "{err}");
    // The same through standard input.
    let r = common::chuhe_with_input(&["replay", "-"], &pcn);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("at ply 3"), "{}", r.stderr);
}

#[test]
fn records_and_pcn_flags_that_make_no_sense_are_refused() {
    let err = fails(&["replay", "/nonexistent/game.pcn"]);
    assert!(err.contains("cannot read the record"), "{err}");
    let bad = TempRecord::new("bad", "{\"moves\": []}");
    let err = fails(&["replay", bad.path()]);
    assert!(err.contains("invalid PCN"), "{err}");
    let claims = TempRecord::new(
        "claims",
        r#"{"setup": "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x", "moves": [["e3-e4", 1]], "status": "checkmate", "winner": "first"}"#,
    );
    let err = fails(&["replay", claims.path()]);
    assert!(err.contains("not over"), "{err}");
    let err = fails(&["pcn", "--status", "checkmate", "--winner", "first"]);
    assert!(err.contains("decided by the rules"), "{err}");
    let err = fails(&["pcn", "--status", "resignation"]);
    assert!(err.contains("go together"), "{err}");
    let err = fails(&["pcn", "--moves", "e3-e4", "--times", "1 2"]);
    assert!(err.contains("2 times for 1 moves"), "{err}");
    let err = fails(&["pcn", "--moves", "e3-e4", "--times=-1"]);
    assert!(err.contains("--times"), "{err}");
    let err = fails(&["pcn", "--status", "resignation", "--winner", "red"]);
    assert!(err.contains("'red'"), "{err}");
}

/// A game as pychess.org exports it (its SAN is Fairy-Stockfish's).
const PYCHESS_PGN: &str =
    "[Event \"PyChess casual game\"]\n[Site \"https://www.pychess.org/abcd\"]\n\
[Date \"2024.05.01\"]\n[Round \"-\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\
[TimeControl \"300+3\"]\n[Variant \"Xiangqi\"]\n\n1. Che3 Hg8 2. Hg3 Rh10 3. Ri2 Ci8 *\n";

#[test]
fn pgn_records_convert_to_pcn_and_back() {
    let dir = std::env::temp_dir();
    let pgn = dir.join(format!("chuhe-{}-game.pgn", std::process::id()));
    std::fs::write(&pgn, PYCHESS_PGN).unwrap();
    let r = common::chuhe(&["record", pgn.to_str().unwrap(), "--to", "pcn"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let pcn: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(pcn["moves"][0][0], "h3-e3");
    assert_eq!(pcn["sides"]["first"]["name"], "Alice");
    assert_eq!(pcn["meta"]["pgn"]["TimeControl"], "300+3");
    let pcn_path = dir.join(format!("chuhe-{}-game.pcn", std::process::id()));
    std::fs::write(&pcn_path, &r.stdout).unwrap();
    let back = common::chuhe(&["record", pcn_path.to_str().unwrap(), "--to", "pgn"]);
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    for line in [
        "[Event \"PyChess casual game\"]",
        "[Date \"2024.05.01\"]",
        "[White \"Alice\"]",
        "[TimeControl \"300+3\"]",
        "[Variant \"Xiangqi\"]",
        "1. Che3 Hg8 2. Hg3 Rh10 3. Ri2 Ci8 *",
    ] {
        assert!(back.stdout.contains(line), "{line} in {}", back.stdout);
    }
    // replay reads PGN too.
    let replay = common::chuhe(&["replay", pgn.to_str().unwrap(), "--notation", "san"]);
    assert_eq!(replay.code, Some(0), "{}", replay.stderr);
    let plies: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(plies.as_array().unwrap().len(), 7);
    assert_eq!(plies[0]["move"]["san"], "Che3");
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(pcn_path);
}

#[test]
fn bad_pgn_is_refused_with_the_ply() {
    let dir = std::env::temp_dir();
    let pgn = dir.join(format!("chuhe-{}-bad.pgn", std::process::id()));
    std::fs::write(&pgn, "[Variant \"Xiangqi\"]\n\n1. Che3 Hg8 2. Rh9 *\n").unwrap();
    let r = common::chuhe(&["record", pgn.to_str().unwrap(), "--to", "pcn"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("ply 3") && r.stderr.contains("Rh9"),
        "{}",
        r.stderr
    );
    let xiongqi = common::chuhe_with_input(&["record", "-", "--to", "pgn"], "{\"setup\": \"rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x\", \"moves\": []}");
    assert_eq!(xiongqi.code, Some(2));
    assert!(
        xiongqi.stderr.contains("Xiangqi only"),
        "{}",
        xiongqi.stderr
    );
    let _ = std::fs::remove_file(pgn);
}
