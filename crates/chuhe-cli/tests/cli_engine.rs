//! The engine's commands through the real binary: `chuhe uci` spoken to over pipes (UCI and
//! UCCI), `chuhe bench`, `chuhe analyze`, and a `chuhe match` between two `chuhe uci`
//! processes whose records replay legally.

#[allow(dead_code)]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use chuhe::{GameKind, MoveNotation};
use common::{chuhe, fails, ok, ok_json};
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(60);

/// `chuhe uci …` as a child process.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chuhe uci starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("the engine reads");
        stdin.flush().unwrap();
    }

    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut lines = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    let stop = done(&line);
                    lines.push(line);
                    if stop {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time: {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine ended: {lines:?}"),
            }
        }
    }

    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    fn best_move(&self) -> (Vec<String>, Option<String>) {
        let lines = self.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .filter(|m| *m != "(none)")
            .map(str::to_string);
        (lines, best)
    }

    fn feen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("feen: "));
        lines.last().unwrap()["feen: ".len()..].to_string()
    }

    /// Waits for the process to end; its exit code and what it wrote on stderr.
    fn wait(&mut self) -> (Option<i32>, String) {
        self.stdin.take();
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut stderr = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    std::io::Read::read_to_string(&mut e, &mut stderr).unwrap();
                }
                return (status.code(), stderr);
            }
            assert!(Instant::now() < deadline, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn legal(
    game: GameKind,
    position: &str,
    moves: &[&str],
    notation: MoveNotation,
    text: &str,
) -> bool {
    let mut g = game.new_game(position).unwrap();
    for m in moves {
        g.play_text(m, notation).unwrap();
    }
    g.legal_moves_text(notation)
        .unwrap()
        .iter()
        .any(|m| m == text)
}

#[test]
fn uci_over_a_pipe() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name chuhe "), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo default xiangqi ")));
    assert!(e.sync().is_empty());

    // A search from a position with moves.
    e.send("ucinewgame");
    e.send("position startpos moves h3e3 h10g8");
    e.send("go depth 3");
    let (lines, best) = e.best_move();
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
    let best = best.unwrap();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3", "h10g8"],
        MoveNotation::Uci,
        &best
    ));

    // A long search is stopped.
    e.send("go movetime 60000");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("stop");
    let (_, best) = e.best_move();
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3", "h10g8"],
        MoveNotation::Uci,
        &best.unwrap()
    ));

    // Bad input: one info string each; the position and the engine stay.
    let before = e.feen();
    for bad in [
        "hello",
        "setoption name Hash value huge",
        "setoption name MultiPV value 0",
        "setoption name UCI_Variant value shogi",
        "setoption name Frobnication value 1",
        "go depth many",
        "go backwards",
        "go searchmoves i10i9",
        // A refused position is said at once (the next `go` then answers `(none)`).
        "position startpos moves h3e3 h3e3",
        "position fen rheag^aehr/9/1c5c1/s1s1s1s1s / X/x",
        "position fen",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string "), "{bad}: {lines:?}");
        assert_eq!(e.feen(), before, "{bad}");
    }
    e.send("go depth 2");
    assert_eq!(e.best_move().1, None);
    e.send("position startpos moves h3e3 h10g8");
    e.send("go depth 2");
    let (_, best) = e.best_move();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3", "h10g8"],
        MoveNotation::Uci,
        &best.unwrap()
    ));

    // Every game through UCI_Variant.
    for (game, first) in [
        (GameKind::Xiongqi, "e3e4"),
        (GameKind::XiangqiCapture, "b3b10"),
        (GameKind::Xiangqi, "h3e3"),
    ] {
        e.send(&format!("setoption name UCI_Variant value {}", game.name()));
        e.send(&format!("position startpos moves {first}"));
        e.send("go depth 2");
        let (_, best) = e.best_move();
        assert!(
            legal(
                game,
                "start",
                &[first],
                MoveNotation::Uci,
                &best.clone().unwrap()
            ),
            "{game}: {best:?}"
        );
    }

    // Xiongqi promotion text.
    e.send("setoption name UCI_Variant value xiongqi");
    e.send("position fen g^7/4+S3/8/8/8/8/8/7G^ / X/x");
    e.send("go depth 1 searchmoves e7e8e");
    let (_, best) = e.best_move();
    assert_eq!(best.as_deref(), Some("e7e8e"));

    // A finished game.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1");
    e.send("go depth 3");
    let (lines, best) = e.best_move();
    assert_eq!(best, None);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");

    e.send("quit");
    let (code, stderr) = e.wait();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn ucci_over_a_pipe() {
    let mut e = Engine::start(&["--game", "xiangqi"]);
    e.send("ucci");
    let lines = e.until(|l| l == "ucciok");
    assert!(lines[0].starts_with("id name chuhe "));
    e.send("setoption usemillisec true");
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    e.send("go depth 3");
    let (_, best) = e.best_move();
    let best = best.unwrap();
    assert!(
        legal(
            GameKind::Xiangqi,
            "start",
            &["h2e2"],
            MoveNotation::Iccs,
            &best
        ),
        "{best}"
    );
    assert_eq!(
        e.feen(),
        "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / x/X"
    );
    e.send("go time 2000 increment 0");
    let (_, best) = e.best_move();
    assert!(best.is_some());
    e.send("quit");
    assert_eq!(e.until(|l| l == "bye"), ["bye"]);
    let (code, _) = e.wait();
    assert_eq!(code, Some(0));
}

#[test]
fn uci_ends_at_the_end_of_its_input() {
    let mut e = Engine::start(&["--game", "xiongqi"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo default xiongqi ")));
    e.send("go depth 2");
    // The input ends: the search finishes, then the process.
    let (code, stderr) = e.wait();
    assert_eq!(code, Some(0), "{stderr}");
    let (_, best) = e.best_move();
    assert!(legal(
        GameKind::Xiongqi,
        "start",
        &[],
        MoveNotation::Uci,
        &best.unwrap()
    ));
    usage_error(&["uci", "--game", "chess"], "chess");
}

/// A usage error: clap's message on stderr, exit code 2, nothing on stdout.
fn usage_error(args: &[&str], hint: &str) {
    let run = chuhe(args);
    assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    assert!(run.stderr.contains(hint), "{args:?}: {}", run.stderr);
}

#[test]
fn uci_on_a_closed_output_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = writeln!(stdin, "uci");
    let _ = writeln!(stdin, "go depth 3");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ----- bench ------------------------------------------------------------------------------

#[test]
fn bench_is_a_deterministic_signature() {
    let a = ok_json(&["bench", "--depth", "4", "--json"]);
    let b = ok_json(&["bench", "--depth", "4", "--json"]);
    assert_eq!(a["nodes"], b["nodes"]);
    for key in [
        "depth",
        "threads",
        "hash_mb",
        "games",
        "nodes",
        "seconds",
        "nodes_per_second",
    ] {
        assert!(!a[key].is_null(), "{key}: {a}");
    }
    assert_eq!(a["depth"], 4);
    assert_eq!(a["threads"], 1);
    let games = a["games"].as_array().unwrap();
    assert_eq!(
        games
            .iter()
            .map(|g| g["game"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["xiongqi", "xiangqi"]
    );
    let mut total = 0;
    for (g, h) in games.iter().zip(b["games"].as_array().unwrap()) {
        assert_eq!(g["nodes"], h["nodes"]);
        let positions = g["positions"].as_array().unwrap();
        assert!(positions.len() >= 6, "{g}");
        let sum: u64 = positions.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
        assert_eq!(g["nodes"].as_u64(), Some(sum));
        for p in positions {
            assert!(p["best"].is_string(), "{p}");
            assert!(p["score"].is_object(), "{p}");
        }
        total += sum;
    }
    assert_eq!(a["nodes"].as_u64(), Some(total));

    let text = ok(&["bench", "--depth", "3", "--game", "xiangqi"]);
    let nodes = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .expect("the node count");
    let json = ok_json(&["bench", "--depth", "3", "--game", "xiangqi", "--json"]);
    assert_eq!(json["nodes"].to_string(), nodes);
    assert!(text.contains("Nodes/second    : "), "{text}");
    assert!(text.contains("Total time (ms) : "), "{text}");

    usage_error(&["bench", "--depth", "0"], "--depth");
    usage_error(&["bench", "--game", "chess"], "chess");
}

/// `--eval-file`: the repository's network file gives the built-in network's bench; a
/// missing or damaged file is a user error that names the flag and the fault.
#[test]
fn bench_and_analyze_load_a_network_file() {
    use chuhe_engine::eval::xiangqi_net::{XiangqiNet, EMBEDDED_NAME};
    let path = format!(
        "{}/../chuhe-engine/nets/{EMBEDDED_NAME}",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = path.as_str();
    let crc = format!("{:08x}", XiangqiNet::embedded().checksum());
    let base = ["bench", "--depth", "5", "--game", "xiangqi", "--json"];
    let built_in = ok_json(&base);
    let loaded = ok_json(&[&base[..], &["--eval-file", file]].concat());
    assert_eq!(loaded["nodes"], built_in["nodes"]);
    assert_eq!(loaded["xiangqi_network"], crc.as_str());
    assert_eq!(built_in["xiangqi_network"], crc.as_str());
    let text = ok(&[
        "bench",
        "--depth",
        "2",
        "--game",
        "xiangqi",
        "--eval-file",
        file,
    ]);
    assert!(
        text.contains(&format!("bench: Xiangqi network {crc} from {file}\n")),
        "{text}"
    );
    let missing = fails(&["bench", "--eval-file", "/no/such/net.nnue"]);
    assert!(
        missing.contains("bench: --eval-file: cannot read the network file /no/such/net.nnue"),
        "{missing}"
    );
    let damaged =
        std::env::temp_dir().join(format!("chuhe-cli-damaged-{}.nnue", std::process::id()));
    let mut bytes = std::fs::read(file).unwrap();
    bytes.truncate(5000);
    std::fs::write(&damaged, &bytes).unwrap();
    let damaged_name = damaged.to_str().unwrap();
    let truncated = fails(&["analyze", "--depth", "2", "--eval-file", damaged_name]);
    std::fs::remove_file(&damaged).unwrap();
    assert!(
        truncated.contains("analyze: --eval-file: the network file is truncated: 5000 bytes"),
        "{truncated}"
    );
    let analyzed = ok(&["analyze", "--depth", "3", "--eval-file", file]);
    assert!(!analyzed.is_empty());
}

// ----- analyze ----------------------------------------------------------------------------

#[test]
fn analyze_finds_a_chariot_taking_the_general() {
    let position = "3g^4/8/8/8/8/8/8/3RG^3 / X/x";
    let text = ok(&["analyze", "--position", position, "--depth", "3"]);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("bestmove d1+d8"), "{text}");
    assert!(last.contains("(mate 1)"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("depth 1  score #1")),
        "{text}"
    );

    let out = ok(&["analyze", "--position", position, "--depth", "3", "--json"]);
    let values: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let (last, infos) = values.split_last().unwrap();
    assert!(!infos.is_empty());
    for info in infos {
        assert_eq!(info["type"], "info", "{info}");
        for key in [
            "depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "seconds", "pv",
        ] {
            assert!(!info[key].is_null(), "{key}: {info}");
        }
        let wdl = &info["wdl"];
        let sum: u64 = ["win", "draw", "loss"]
            .iter()
            .map(|k| wdl[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{info}");
    }
    assert_eq!(last["type"], "bestmove");
    assert_eq!(last["best"]["pmn"], "d1+d8");
    assert_eq!(last["best"]["uci"], "d1d8");
    assert_eq!(last["score"]["mate"], 1);
    // A forced win is a certain one.
    assert_eq!(
        last["wdl"],
        serde_json::json!({"win": 1000, "draw": 0, "loss": 0})
    );
    assert_eq!(last["game"], "xiongqi");
}

#[test]
fn analyze_reuses_the_position_flags_and_writes_wxf_for_xiangqi() {
    let text = ok(&[
        "analyze",
        "--game",
        "xiangqi",
        "--moves",
        "C2=5 H8+7",
        "--notation",
        "wxf",
        "--depth",
        "3",
        "--multipv",
        "2",
    ]);
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("wxf ")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.contains("  line 2  ")), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("bestmove "), "{text}");

    let out = ok(&[
        "analyze",
        "--game",
        "xiangqi",
        "--position",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "--halfmove",
        "10",
        "--nodes",
        "2000",
        "--json",
    ]);
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let best = last["best"]["uci"].as_str().unwrap();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &[],
        MoveNotation::Uci,
        best
    ));
    for notation in ["pmn", "uci", "iccs", "wxf", "teaching", "chinese", "san"] {
        assert!(last["best"][notation].is_string(), "{notation}: {last}");
        assert!(last["pv"][notation].is_array(), "{notation}: {last}");
    }

    // A finished game: nothing to search, exit 0.
    let out = ok_json(&[
        "analyze",
        "--game",
        "xiangqi",
        "--position",
        "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1",
        "--json",
    ]);
    assert_eq!(out["best"], Value::Null);
    assert_eq!(out["status"], "checkmate");
    assert_eq!(out["winner"], "first");
}

#[test]
fn analyze_refuses_bad_input_with_exit_2() {
    for (args, hint) in [
        (
            vec!["analyze", "--position", "nonsense/8"],
            "invalid position",
        ),
        (vec!["analyze", "--moves", "e3-e5"], "illegal move"),
        (vec!["analyze", "--notation", "wxf"], "not a notation"),
        (vec!["analyze", "--multipv", "0"], "--multipv"),
        (vec!["analyze", "--threads", "0"], "--threads"),
        (vec!["analyze", "--hash", "0"], "--hash"),
        (
            vec!["analyze", "--game", "xiangqi", "--repetition-count", "1"],
            "--repetition-count",
        ),
        (
            vec!["analyze", "--repetition-count", "3"],
            "--repetition-count",
        ),
    ] {
        let line = fails(&args);
        assert!(line.contains(hint), "{args:?}: {line}");
    }
    usage_error(&["analyze", "--depth", "0"], "--depth");
    usage_error(&["analyze", "--depth", "3", "--nodes", "10"], "--nodes");
    usage_error(&["analyze", "--movetime", "x"], "--movetime");
}

#[test]
fn analyze_passes_the_clock_and_the_repetition_count_to_the_engine() {
    // At the move limit a Xiongqi game is over before anyone moves (X7 5).
    let run = chuhe(&["analyze", "--halfmove", "100", "--depth", "2"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("movelimit"), "{}", run.stdout);
    // Two occurrences end a Xiangqi game when the count is 2.
    let run = chuhe(&[
        "analyze",
        "--game",
        "xiangqi",
        "--repetition-count",
        "2",
        "--moves",
        "h3h4 h8h7 h4h3 h7h8",
        "--depth",
        "2",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("repetition"), "{}", run.stdout);
}

// ----- match ------------------------------------------------------------------------------

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-cli-engine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Replays every PCN record of `dir` with the library; returns how many there were.
fn replay_records(dir: &std::path::Path, game: GameKind) -> usize {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let record: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(record["meta"]["game"], game.name());
        let setup = record["setup"].as_str().unwrap();
        let mut g = game.new_game(setup).unwrap();
        let moves = record["moves"].as_array().unwrap();
        for (i, m) in moves.iter().enumerate() {
            let text = m[0].as_str().unwrap();
            g.play_text(text, MoveNotation::Pmn)
                .unwrap_or_else(|e| panic!("{}: ply {}: {text}: {e}", path.display(), i + 1));
        }
        assert!(!moves.is_empty(), "{}", path.display());
        count += 1;
    }
    count
}

/// Runs a `chuhe match` that must succeed with nothing on stderr but its line per finished
/// game (`game N: A vs B: …`); returns its stdout.
fn match_ok(args: &[&str]) -> String {
    let r = chuhe(args);
    assert_eq!(r.code, Some(0), "chuhe {args:?} failed: {}", r.stderr);
    assert!(
        r.stderr.lines().all(|l| l.starts_with("game ")),
        "chuhe {args:?} wrote on stderr: {}",
        r.stderr
    );
    r.stdout
}

/// [`match_ok`] with `--json`: its one JSON object.
fn match_json(args: &[&str]) -> serde_json::Value {
    let out = match_ok(args);
    assert_eq!(out.lines().count(), 1, "not one line: {out:?}");
    serde_json::from_str(&out).expect("stdout is JSON")
}

#[test]
fn a_match_between_two_chuhe_engines_records_legal_games() {
    let exe = env!("CARGO_BIN_EXE_chuhe");
    let dir = temp_dir("xiongqi");
    let dir_text = dir.to_str().unwrap();
    let a = format!("cmd={exe} arg=uci arg=--game arg=xiongqi name=a");
    let b = format!("cmd={exe} arg=uci name=b option.UCI_Variant=xiongqi");
    let text = match_ok(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "2",
        "--rounds",
        "1",
        "--game",
        "xiongqi",
        "--pcn-dir",
        dir_text,
    ]);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("a vs b (xiongqi): 2 games, "), "{text}");
    assert!(!text.contains("failed"), "{text}");
    assert!(!text.contains("forfeit"), "{text}");
    assert_eq!(replay_records(&dir, GameKind::Xiongqi), 2);
    let _ = std::fs::remove_dir_all(&dir);

    // Xiangqi, the engine's default game, with a JSON summary.
    let dir = temp_dir("xiangqi");
    let a = format!("cmd={exe} arg=uci name=a");
    let b = format!("cmd={exe} arg=uci name=b option.Hash=8");
    let summary = match_json(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--nodes",
        "3000",
        "--rounds",
        "1",
        "--max-plies",
        "60",
        "--game",
        "xiangqi",
        "--pcn-dir",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(summary["games"], 2, "{summary}");
    assert_eq!(replay_records(&dir, GameKind::Xiangqi), 2);
    let _ = std::fs::remove_dir_all(&dir);

    // Engines told nothing about the game: the match sets UCI_Variant, which chuhe offers,
    // so both play the match's game (not their default, Xiangqi) in every game.
    for game in ["xiongqi", "xiangqi-capture"] {
        let a = format!("cmd={exe} arg=uci name=a");
        let summary = match_json(&[
            "match",
            "--engine",
            &a,
            "--engine",
            &a,
            "--depth",
            "1",
            "--rounds",
            "1",
            "--max-plies",
            "40",
            "--game",
            game,
            "--json",
        ]);
        assert_eq!(summary["games"], 2, "{summary}");
        let endings = summary["endings"].as_object().unwrap();
        assert!(
            endings
                .keys()
                .all(|why| !why.contains("illegal") && !why.contains("failed")),
            "{game}: {summary}"
        );
    }
}

#[test]
fn the_help_lists_the_engine_commands() {
    let help = ok(&["--help"]);
    for command in ["uci", "bench", "analyze"] {
        assert!(help.contains(command), "{help}");
    }
    let run = chuhe(&["analyze", "--help"]);
    assert_eq!(run.code, Some(0));
    for flag in [
        "--game",
        "--position",
        "--moves",
        "--notation",
        "--halfmove",
        "--depth",
        "--movetime",
        "--nodes",
        "--multipv",
        "--threads",
        "--hash",
        "--json",
        "--eval-file",
    ] {
        assert!(run.stdout.contains(flag), "{flag}");
    }
}
