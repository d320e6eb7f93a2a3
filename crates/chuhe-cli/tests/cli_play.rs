//! `chuhe play` driven through standard input (its plain mode): moves in any notation, the
//! commands, a message for every bad input, the result in words, the game saved as PCN.

#[allow(dead_code)]
mod common;

use std::process::Command;

/// Runs `chuhe play ARGS` with `input` on standard input: (exit code, stdout, stderr).
fn play(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let r = common::chuhe_with_input(&all, input);
    (r.code, r.stdout, r.stderr)
}

fn temp_path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("chuhe-play-{}-{name}.pcn", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn two_people_play_a_mate_in_every_notation_and_the_record_replays() {
    let save = temp_path("mate");
    let (code, out, _) = play(
        &[
            "--game",
            "xiangqi",
            "--vs",
            "human",
            "--position",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "--save",
            &save,
        ],
        "nonsense\nmoves\nR9=6\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("? 'nonsense' is not a move"), "{out}");
    assert!(out.contains("in WXF:"), "{out}");
    assert!(out.contains("1. a1-d1"), "{out}");
    assert!(
        out.contains("game over: first (South/Red) wins by checkmate"),
        "{out}"
    );
    let replay = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["replay", &save])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&save);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let plies: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(plies[1]["status"], "checkmate");
}

#[test]
fn moves_may_be_typed_in_chinese() {
    let (code, out, _) = play(
        &[
            "--game",
            "xiangqi",
            "--vs",
            "human",
            "--position",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "--save",
            "-",
        ],
        "车九平十\nmoves\n车九平六\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("expected a number of points or a file number"),
        "{out}"
    );
    assert!(
        out.contains("in Chinese:") && out.contains("车九平六"),
        "{out}"
    );
    assert!(out.contains("1. a1-d1"), "{out}");
    assert!(
        out.contains("game over: first (South/Red) wins by checkmate"),
        "{out}"
    );
}

#[test]
fn against_the_engine_undo_resign_and_save() {
    let save = temp_path("engine");
    let (code, out, _) = play(
        &["--movetime", "20", "--level", "5", "--save", &save],
        "e3-e4\nundo\ne3e4\nresign\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out.matches("chuhe\n").count(),
        2,
        "the engine replied twice: {out}"
    );
    assert!(out.contains("move taken back"), "{out}");
    assert!(
        out.contains("second (North/Black) wins by resignation"),
        "{out}"
    );
    let pcn: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let _ = std::fs::remove_file(&save);
    assert_eq!(pcn["moves"].as_array().unwrap().len(), 2);
    assert_eq!(pcn["status"], "resignation");
    assert_eq!(pcn["meta"]["game"], "xiongqi");
}

#[test]
fn the_engine_can_move_first_and_input_may_end_early() {
    let (code, out, _) = play(&["--side", "second", "--movetime", "20", "--save", "-"], "");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("1. "), "the engine opened: {out}");
    assert!(out.contains("end of input"), "{out}");
    assert!(!out.contains("saved"), "--save - saves nothing: {out}");
    let (code, _, err) = play(&["--level", "99"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("--level"), "{err}");
}

#[test]
fn undo_before_the_persons_first_move_takes_nothing_back() {
    let save = temp_path("undo-first");
    let (code, out, _) = play(
        &["--side", "second", "--movetime", "20", "--save", &save],
        "undo\nresign\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("? there is no move of yours to take back"),
        "{out}"
    );
    assert_eq!(out.matches("chuhe\n").count(), 1, "{out}");
    let pcn: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let _ = std::fs::remove_file(&save);
    // The engine's opening move stays.
    assert_eq!(pcn["moves"].as_array().unwrap().len(), 1);
}

#[test]
fn moves_are_numbered_per_move_and_times_saved_as_plain_decimals() {
    let save = temp_path("numbers");
    let (code, out, _) = play(
        &["--game", "xiangqi", "--vs", "human", "--save", &save],
        "h3e3\nh10g8\nh1g3\nresign\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1. h3-e3\n"), "{out}");
    assert!(out.contains("1... h10-g8\n"), "{out}");
    assert!(out.contains("2. h1-g3\n"), "{out}");
    let text = std::fs::read_to_string(&save).unwrap();
    let _ = std::fs::remove_file(&save);
    assert!(!text.contains("e-"), "a time in exponent notation: {text}");
    // Black to move first: its move opens with `1... `.
    let (_, out, _) = play(
        &[
            "--game",
            "xiangqi",
            "--vs",
            "human",
            "--position",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
            "--save",
            "-",
        ],
        "h10g8\nh1g3\n",
    );
    assert!(
        out.contains("1... h10-g8\n") && out.contains("2. h1-g3\n"),
        "{out}"
    );
}
