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

/// A file in a fresh temporary folder, removed with the folder when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("chuhe-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Three games, the second with an illegal move on line 7, column 13.
const THREE_GAMES: &str = "[Event \"one\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n\
1. Che3 Hg8 1-0\n\n\
[Event \"two\"]\n1. Che3 Hg8 2. Rz9 *\n\n\
[Event \"three\"]\n\n1. Hg3 {a comment} Hg8 $2 *\n";

#[test]
fn every_game_of_a_file_is_written_with_a_summary_of_refusals() {
    let dir = TempDir::new("three");
    let pgn = dir.file("three.pgn", THREE_GAMES);
    let r = common::chuhe(&["record", &pgn, "--to", "pgn"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!(
            "{pgn}: game 2, line 8, column 16: PGN line 8, column 16: illegal move 'Rz9' at \
             ply 3: 'Rz9' is not a move: SAN ends with the destination point, a1 to i10 (like \
             Che3)\n{pgn}: 3 games: 2 read, 1 refused\n"
        )
    );
    assert!(r.stderr.contains("line 8, column 16"), "{}", r.stderr);
    assert_eq!(r.stdout.matches("[Variant \"Xiangqi\"]").count(), 2);
    assert!(r.stdout.contains("[Event \"one\"]"), "{}", r.stdout);
    assert!(
        r.stdout.contains("[Termination \"time forfeit\"]"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("1. Che3 Hg8 1-0\n\n[Event"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("1. Hg3 {a comment} 1... Hg8 $2 *"),
        "{}",
        r.stdout
    );
    // One game by its number, to a file; every game to a folder.
    let one = dir.path("one.pcn");
    let r = common::chuhe(&[
        "record",
        &pgn,
        "--to",
        "pcn",
        "--game-index",
        "1",
        "--output",
        &one,
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (Some(0), "", "")
    );
    let pcn: Value = serde_json::from_str(&std::fs::read_to_string(&one).unwrap()).unwrap();
    assert_eq!(
        (pcn["status"].as_str(), pcn["winner"].as_str()),
        (Some("timelimit"), Some("first"))
    );
    let folder = dir.path("games");
    let r = common::chuhe(&["record", &pgn, "--to", "pgn", "--output-dir", &folder]);
    assert_eq!(r.code, Some(2));
    let mut names: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["game-00001.pgn", "game-00003.pgn"]);
    let err = fails(&["record", &pgn, "--to", "pgn", "--game-index", "4"]);
    assert_eq!(
        err,
        format!("{pgn}: --game-index 4: the record holds 3 games")
    );
    // replay: one JSON array per game, one per line.
    let r = common::chuhe(&["replay", &pgn, "--game-index", "3"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 1);
    let r = common::chuhe(&["replay", &pgn]);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout.lines().count(), 2);
    let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first[2]["status"], "timelimit");
}

#[test]
fn several_pcn_records_in_one_file_are_read_in_turn() {
    let one = ok(&["pcn", "--game", "xiangqi", "--moves", "h3-e3"]);
    let two = ok(&["pcn", "--game", "xiangqi", "--moves", "h3-e3 h10-g8"]);
    let dir = TempDir::new("pcns");
    let path = dir.file("two.pcn", &format!("{one}{two}{{\"setup\": 1}}\n"));
    let r = common::chuhe(&["record", &path, "--to", "pgn"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stdout.contains("1. Che3 *\n\n[Event"), "{}", r.stdout);
    assert!(r.stdout.contains("1. Che3 Hg8 *"), "{}", r.stdout);
    let line = one.lines().count() + two.lines().count() + 1;
    assert!(
        r.stderr.contains(&format!(
            "{path}: game 3, line {line}, column 11: invalid PCN: invalid type: integer `1`, \
             expected a string at line {line} column 11"
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .ends_with(&format!("{path}: 3 games: 2 read, 1 refused\n")),
        "{}",
        r.stderr
    );
    // Broken JSON in the second record: its place in the file, not in the record.
    let broken = dir.file(
        "broken.pcn",
        &format!("{one}{{\"setup\": \"x\",\n  oops}}\n"),
    );
    let r = common::chuhe(&["record", &broken, "--to", "pcn"]);
    assert_eq!(r.code, Some(2));
    let line = one.lines().count() + 2;
    assert_eq!(
        r.stderr,
        format!(
            "{broken}: game 2, line {line}, column 3: invalid PCN: key must be a string at \
             line {line} column 3\n{broken}: 2 games: 1 read, 1 refused\n"
        )
    );
}

#[test]
fn malformed_pgn_files_are_errors_with_line_and_column() {
    let dir = TempDir::new("malformed");
    for (name, text, message) in [
        ("empty", "", "PGN line 1, column 1: the text holds no game"),
        (
            "brace",
            "[Event \"x\"]\n\n1. Che3 {never closed Hg8 *\n\n[Event \"y\"]\n\n1. Che3 *\n",
            "PGN line 3, column 9: the comment opened by '{' here is never closed by '}'",
        ),
        (
            "paren",
            "1. Che3 (1. Hg3 Hg8 *\n",
            "PGN line 1, column 9: the variation opened by '(' here is never closed by ')'",
        ),
        (
            "trailing",
            "1. Che3 Hg8 * garbage\n",
            "PGN line 1, column 15: 'garbage' after the result",
        ),
    ] {
        let path = dir.file(&format!("{name}.pgn"), text);
        let r = common::chuhe(&["record", &path, "--to", "pcn"]);
        assert_eq!(r.code, Some(2), "{name}");
        assert_eq!(r.stderr, format!("{path}: {message}\n"), "{name}");
        assert_eq!(r.stdout, "", "{name}");
    }
    let bom = dir.file("bom.pgn", "\u{feff}[Event \"x\"]\n\n1. Che3 *\n");
    let pcn: Value = serde_json::from_str(&ok(&["record", &bom, "--to", "pcn"])).unwrap();
    assert_eq!(pcn["meta"]["event"], "x");
    assert_eq!(pcn["moves"][0][0], "h3-e3");
}

#[test]
fn replay_counts_from_the_half_move_clock_of_the_fen() {
    let dir = TempDir::new("clock");
    let pgn = dir.file(
        "clock.pgn",
        "[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 96 60\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n\
         60. Ra2 Kd9 61. Ra1 Kd10 1/2-1/2\n",
    );
    let plies: Value = serde_json::from_str(&ok(&["replay", &pgn])).unwrap();
    let clocks: Vec<u64> = plies
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["halfmove"].as_u64().unwrap())
        .collect();
    assert_eq!(clocks, [96, 97, 98, 99, 100]);
    assert_eq!(plies[4]["status"], "movelimit");
    assert_eq!(plies[0]["fen"], "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 96 60");
    let pcn_text = ok(&["record", &pgn, "--to", "pcn"]);
    let pcn = dir.file("clock.pcn", &pcn_text);
    let back = ok(&["record", &pcn, "--to", "pgn"]);
    assert!(back.contains("[Result \"1/2-1/2\"]"), "{back}");
    assert!(
        back.contains("[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 96 60\"]"),
        "{back}"
    );
    assert!(back.contains("60. Ra2 Kd9 61. Ra1 Kd10 1/2-1/2"), "{back}");
}

#[test]
fn a_wxf_move_of_the_rear_piece_is_an_argument_not_a_flag() {
    let position = "3k5/9/9/9/9/9/9/R8/9/R3K4 w - - 0 1";
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "convert",
            "--game",
            "xiangqi",
            "--position",
            position,
            "--from",
            "wxf",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        ok(&refs)
    };
    assert_eq!(run(&["-R+1", "K4+1", "--to", "uci"]), "a1a2\nd10d9\n");
    assert_eq!(run(&["--to", "chinese", "-R+1"]), "后车进一\n");
    assert_eq!(run(&["-R+1 K4+1", "--to", "iccs"]), "a0a1\nd9d8\n");
    let moves = ok(&[
        "moves",
        "--game",
        "xiangqi",
        "--position",
        position,
        "--notation",
        "wxf",
        "--moves",
        "-R+1 K4+1",
    ]);
    assert!(moves.lines().any(|m| m == "R-=8"), "{moves}");
}

#[test]
fn pgn_is_written_in_the_notation_asked_for_with_its_format_tag() {
    let dir = TempDir::new("formats");
    let pgn = dir.file("game.pgn", PYCHESS_PGN);
    let chinese = ok(&["record", &pgn, "--to", "pgn", "--notation", "chinese"]);
    assert!(chinese.contains("[Format \"Chinese\"]"), "{chinese}");
    assert!(
        chinese.contains("1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一进一 炮8平9 *"),
        "{chinese}"
    );
    let again = dir.file("chinese.pgn", &chinese);
    let san = ok(&["record", &again, "--to", "pgn"]);
    assert!(
        san.contains("1. Che3 Hg8 2. Hg3 Rh10 3. Ri2 Ci8 *"),
        "{san}"
    );
    assert!(!san.contains("Format"), "{san}");
    let err = fails(&["record", &pgn, "--to", "pgn", "--notation", "teaching"]);
    assert_eq!(
        err,
        "--notation: PGN moves are written in SAN, ICCS, WXF, Chinese or UCI, not teaching"
    );
}

/// An XQF 1.0 file (built byte by byte from the published layout): the start position,
/// Red "Alice", Black "Bob", the title 好棋, then 1. c4c5 {好棋} 1... h10g8 with the
/// alternative 1... b10c8.
fn xqf_file() -> Vec<u8> {
    let mut bytes = vec![0u8; 0x400];
    bytes[..3].copy_from_slice(b"XQ\x0a");
    let places: [u8; 32] = [
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, //
        9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];
    bytes[0x10..0x30].copy_from_slice(&places);
    let good_move = [0xba, 0xc3, 0xc6, 0xe5]; // 好棋 in GB18030
    bytes[0x50] = 4;
    bytes[0x51..0x55].copy_from_slice(&good_move);
    bytes[0x130] = 5;
    bytes[0x131..0x136].copy_from_slice(b"Alice");
    bytes[0x140] = 3;
    bytes[0x141..0x144].copy_from_slice(b"Bob");
    // Each record: origin + 24, destination + 32 (points x·10 + y), the tag (0xF0: a next
    // move follows; 0x0F: a variation follows), a reserved byte, the comment's length.
    bytes.extend([0x18, 0x20, 0xf0, 0xff, 0, 0, 0, 0]);
    bytes.extend([23 + 24, 24 + 32, 0xf0, 0, 4, 0, 0, 0]);
    bytes.extend(good_move);
    bytes.extend([79 + 24, 67 + 32, 0x0f, 0, 0, 0, 0, 0]);
    bytes.extend([19 + 24, 27 + 32, 0x00, 0, 0, 0, 0, 0]);
    bytes
}

#[test]
fn xqf_files_convert_to_pgn_and_pcn() {
    let path = std::env::temp_dir().join(format!("chuhe-{}-game.xqf", std::process::id()));
    std::fs::write(&path, xqf_file()).unwrap();
    let file = path.to_str().unwrap();
    let pgn = ok(&["record", file, "--to", "pgn"]);
    assert!(
        pgn.contains("[White \"Alice\"]\n[Black \"Bob\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains("[Title \"好棋\"]"), "{pgn}");
    assert!(
        pgn.ends_with("\n1. Pc5 {好棋} 1... Hg8 (1... Hc8) *\n"),
        "{pgn}"
    );
    let pcn: Value = serde_json::from_str(&ok(&["record", file, "--to", "pcn"])).unwrap();
    assert_eq!(pcn["moves"][0][0], "c4-c5");
    assert_eq!(pcn["meta"]["annotations"][0]["comments"][0], "好棋");
    assert_eq!(pcn["meta"]["annotations"][1]["variations"][0], "1... Hc8");
    let plies: Value = serde_json::from_str(&ok(&["replay", file])).unwrap();
    assert_eq!(plies.as_array().unwrap().len(), 3);
    // One game only.
    let run = fails(&["record", file, "--to", "pgn", "--game-index", "2"]);
    assert!(run.contains("holds 1 game"), "{run}");

    // Cut inside the last record: the byte offset is told, exit code 2.
    let mut cut = xqf_file();
    cut.truncate(cut.len() - 6);
    std::fs::write(&path, &cut).unwrap();
    let run = common::chuhe(&["record", file, "--to", "pgn"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("XQF byte 0x041c: the file ends inside a move record"),
        "{}",
        run.stderr
    );
    // An illegal move names its ply.
    let mut bad = xqf_file();
    bad[0x415] = 70 + 32; // the second move, the horse from h10, goes to h1
    std::fs::write(&path, &bad).unwrap();
    let run = common::chuhe(&["record", file, "--to", "pgn"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("illegal move h10h1 at ply 2"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_file(&path);
}
