//! Helpers shared by the `chuhe` command-line integration tests (`cli_xiongqi.rs`,
//! `cli_xiangqi.rs`): running the real binary, the success and one-line-error contracts, and
//! the game-independent shape checks of the JSON answers.
//!
//! Each test binary compiles this module on its own.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

/// What one run of the binary gave back.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `chuhe ARGS…`.
pub fn chuhe(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .output()
        .expect("the chuhe binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `chuhe ARGS…` with `input` on standard input.
#[allow(dead_code)] // not every test binary feeds standard input
pub fn chuhe_with_input(args: &[&str], input: &str) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chuhe binary runs");
    // A command may stop reading early: a closed pipe is not the test's concern.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("the chuhe binary finishes");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs a command that must succeed; returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let r = chuhe(args);
    assert_eq!(
        r.code,
        Some(0),
        "chuhe {args:?} failed: stderr = {:?}",
        r.stderr
    );
    assert!(
        r.stderr.is_empty(),
        "chuhe {args:?} wrote on stderr: {:?}",
        r.stderr
    );
    r.stdout
}

/// Runs a `--json` command that must succeed and print exactly one JSON value on one line.
pub fn ok_value(args: &[&str]) -> Value {
    let out = ok(args);
    assert!(out.ends_with('\n'), "no final newline: {out:?}");
    assert_eq!(out.lines().count(), 1, "not one line: {out:?}");
    serde_json::from_str(&out).expect("stdout is JSON")
}

/// Like [`ok_value`], and the value must be an object.
pub fn ok_json(args: &[&str]) -> Value {
    let value = ok_value(args);
    assert!(value.is_object(), "not an object: {value}");
    value
}

/// Runs a command that must fail with exit code 2, nothing on stdout and exactly one line on
/// stderr; returns that line (without its newline).
pub fn fails(args: &[&str]) -> String {
    let r = chuhe(args);
    assert_eq!(
        r.code,
        Some(2),
        "chuhe {args:?}: stdout = {:?}, stderr = {:?}",
        r.stdout,
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "chuhe {args:?} wrote on stdout: {:?}",
        r.stdout
    );
    assert!(
        r.stderr.ends_with('\n'),
        "stderr lacks its newline: {:?}",
        r.stderr
    );
    assert_eq!(
        r.stderr.matches('\n').count(),
        1,
        "chuhe {args:?}: stderr is not one line: {:?}",
        r.stderr
    );
    let line = r.stderr.trim_end_matches('\n').to_string();
    assert!(!line.trim().is_empty(), "empty error line");
    line
}

/// The `moves` array of a `moves --json` answer.
pub fn move_list(value: &Value) -> Vec<String> {
    strings(&value["moves"])
}

/// An array of strings.
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|m| m.as_str().expect("a move is a string").to_string())
        .collect()
}

/// The field names of an object.
pub fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// A set of field names or moves.
pub fn set<'a>(items: &[&'a str]) -> BTreeSet<&'a str> {
    items.iter().copied().collect()
}

/// Checks a list of moves: sorted, no duplicates.
pub fn check_sorted(list: &[String]) {
    let mut sorted = list.to_vec();
    sorted.sort();
    assert_eq!(list, sorted, "moves are not sorted");
    let unique: BTreeSet<&String> = list.iter().collect();
    assert_eq!(unique.len(), list.len(), "duplicate moves: {list:?}");
}

/// Checks status and winner: both null, or both strings, the status one of `statuses` (the
/// game's CGSN words), and a finished game lists no moves.
pub fn check_outcome(value: &Value, list: &[String], statuses: &[&str]) {
    match (&value["status"], &value["winner"]) {
        (Value::Null, Value::Null) => {}
        (Value::String(status), Value::String(winner)) => {
            assert!(statuses.contains(&status.as_str()), "status = {status}");
            assert!(
                ["first", "second", "none"].contains(&winner.as_str()),
                "winner = {winner}"
            );
            assert!(list.is_empty(), "a finished game lists moves: {list:?}");
        }
        (s, w) => panic!("status {s} and winner {w} must be both null or both strings"),
    }
}

/// Checks the field set and the types of a `perft --json` answer; with `divide`, that the
/// split sums to the node count.
pub fn check_perft_shape(value: &Value, divide: bool) {
    let mut expected = set(&["depth", "nodes", "seconds", "nodes_per_second"]);
    if divide {
        expected.insert("divide");
    }
    assert_eq!(keys(value), expected, "perft JSON fields: {value}");
    assert!(value["depth"].is_u64(), "depth = {}", value["depth"]);
    assert!(value["nodes"].is_u64(), "nodes = {}", value["nodes"]);
    assert!(
        value["seconds"].is_number(),
        "seconds = {}",
        value["seconds"]
    );
    assert!(value["seconds"].as_f64().unwrap() >= 0.0);
    assert!(
        value["nodes_per_second"].is_number(),
        "nodes_per_second = {}",
        value["nodes_per_second"]
    );
    assert!(value["nodes_per_second"].as_f64().unwrap() >= 0.0);
    if divide {
        let sum: u64 = value["divide"]
            .as_object()
            .expect("divide is an object")
            .values()
            .map(|n| n.as_u64().expect("a divide count is an integer"))
            .sum();
        assert_eq!(Some(sum), value["nodes"].as_u64(), "divide sum: {value}");
    }
}

/// `chuhe perft DEPTH --json EXTRA…`, shape checked.
pub fn perft_json(depth: u32, extra: &[&str]) -> Value {
    let depth = depth.to_string();
    let mut all = vec!["perft", depth.as_str(), "--json"];
    all.extend_from_slice(extra);
    let value = ok_json(&all);
    check_perft_shape(&value, extra.contains(&"--divide"));
    value
}
