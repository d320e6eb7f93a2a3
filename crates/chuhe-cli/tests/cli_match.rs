//! `chuhe match`: bad settings are one line on stderr and exit code 2; a match between two
//! scripted engines writes its summary and PCN records.

#[allow(dead_code)]
mod common;

use common::{chuhe, fails};

#[test]
fn match_settings_are_checked() {
    for (args, hint) in [
        (vec!["match", "--engine", "cmd=x"], "exactly two"),
        (
            vec!["match", "--engine", "name=x", "--engine", "cmd=y"],
            "no cmd",
        ),
        (
            vec![
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--tc", "fast",
            ],
            "--tc",
        ),
        (
            vec![
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--sprt", "1,2",
            ],
            "--sprt",
        ),
        (
            vec![
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--resign", "x",
            ],
            "--resign",
        ),
        (
            vec!["match", "--engine", "cmd=a b", "--engine", "cmd=b"],
            "key=value",
        ),
        (
            vec![
                "match",
                "--engine",
                "cmd=/nonexistent/engine",
                "--engine",
                "cmd=/nonexistent/engine",
            ],
            "cannot start",
        ),
    ] {
        let line = fails(&args);
        assert!(line.contains(hint), "{args:?}: {line}");
    }
    let run = chuhe(&[
        "match",
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
        "--openings",
        "/nonexistent",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
}
