//! `chuhe match`: bad settings are one line on stderr and exit code 2; a match between two
//! scripted engines writes its summary and PCN records.

#[allow(dead_code)]
mod common;

use common::{chuhe, fails};

#[test]
fn match_settings_are_checked() {
    for (args, hint) in [
        (vec!["match", "--engine", "cmd=x"], "at least two"),
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
            "quote a value with spaces",
        ),
        (
            vec![
                "match",
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "--from-round",
                "0",
            ],
            "--from-round must be at least 1",
        ),
        (
            vec![
                "match",
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "--random-plies",
                "4",
                "--from-round",
                "4000000000",
            ],
            "a match has at most 1000000 rounds",
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

/// `chuhe uci` of this build, as an engine spec with `extra` settings.
fn chuhe_engine(name: &str, extra: &str) -> String {
    format!(
        "cmd='{}' arg=uci name={name} {extra}",
        env!("CARGO_BIN_EXE_chuhe")
    )
}

#[test]
fn concurrency_zero_and_bad_draw_settings_are_refused() {
    let a = chuhe_engine("a", "");
    let b = chuhe_engine("b", "");
    for (extra, hint) in [
        (vec!["--concurrency", "0"], "--concurrency 0"),
        (vec!["--draw", "40,0,10"], "--draw"),
        (vec!["--draw", "x"], "MOVENUMBER,MOVECOUNT,SCORE"),
        (
            vec!["--game", "xiongqi", "--pgn-out", "/tmp/x.pgn"],
            "Xiangqi only",
        ),
        (vec!["--each", "name=z"], "--each cannot set name="),
        (
            vec!["--sprt", "0,10,0.05,0.05", "--engine", "cmd=c"],
            "exactly two",
        ),
    ] {
        let mut args = vec!["match", "--engine", &a, "--engine", &b, "--depth", "1"];
        args.extend(extra.iter().copied());
        let line = fails(&args);
        assert!(line.contains(hint), "{extra:?}: {line}");
    }
    // The same program twice, unnamed: the second is numbered.
    let same = format!("cmd='{}' arg=uci", env!("CARGO_BIN_EXE_chuhe"));
    let run = chuhe(&[
        "match",
        "--engine",
        &same,
        "--engine",
        &same,
        "--depth",
        "1",
        "--max-plies",
        "2",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.starts_with(
            "chuhe vs chuhe-2 (xiangqi): 2 games, +0 =2 -0, score 50.0%, Elo +0.0 ± 0.0\n"
        ),
        "{}",
        run.stdout
    );
    let line = fails(&["match", "--engine", "cmd='unclosed", "--engine", "cmd=b"]);
    assert!(line.contains("unclosed quote"), "{line}");
}

#[test]
fn quoted_specs_each_and_game_lines_when_not_a_terminal() {
    // The engine's path has a space in it; an option name has one too.
    let dir = std::env::temp_dir().join(format!("chuhe match {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("my engine");
    let _ = std::fs::remove_file(&program);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_chuhe"), &program).unwrap();
    let a = format!(
        "cmd='{}' arg=uci name=spaced \"option.Skill Level=3\" option.Bogus=1",
        program.display()
    );
    let b = chuhe_engine("plain", "");
    let pgn = dir.join("games.pgn");
    let log = dir.join("engines.log");
    let pgn_arg = pgn.display().to_string();
    let log_arg = log.display().to_string();
    let run = chuhe(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "option.Hash=8 depth=1",
        "--rounds",
        "2",
        "--max-plies",
        "6",
        "--report-every",
        "2",
        "--pgn-out",
        &pgn_arg,
        "--log",
        &log_arg,
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The unknown option is named, with the engine; Skill Level and Hash are not.
    assert!(
        run.stderr
            .contains("warning: engine 'spaced' does not list option 'Bogus'"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("'Skill Level'"), "{}", run.stderr);
    assert!(!run.stderr.contains("'Hash'"), "{}", run.stderr);
    // One start position and a fixed depth for both: every game may be the same.
    assert!(run.stderr.contains("may be the same"), "{}", run.stderr);
    // A line per game and the standings every two games.
    for (n, pairing) in [
        (1, "spaced vs plain"),
        (2, "plain vs spaced"),
        (3, "spaced vs plain"),
        (4, "plain vs spaced"),
    ] {
        assert!(
            run.stderr
                .contains(&format!("game {n}: {pairing}: 1/2-1/2 (move cap)")),
            "{}",
            run.stderr
        );
    }
    assert_eq!(
        run.stderr.matches("after 2 games:").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("after 4 games:\n  spaced vs plain: 4 games, +0 =4 -0, score 50.0%, Elo +0.0 ± 0.0, ptnml [0, 0, 2, 0, 0]"), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["elo"], 0.0);
    assert!(!run.stdout.contains("-0"), "{}", run.stdout);
    assert_eq!(
        v["pentanomial"]["counts"],
        serde_json::json!([0, 0, 2, 0, 0])
    );
    assert_eq!(v["standings"][0]["points"], 2.0);
    // The PGN file: four games, pychess style.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"Xiangqi\"]").count(), 4, "{text}");
    assert_eq!(text.matches("[Result \"1/2-1/2\"]").count(), 4, "{text}");
    assert!(text.contains("[White \"spaced\"]") && text.contains("[Termination \"move cap\"]"));
    // The log: both engines, both directions, the shared option sent to each.
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("spaced > setoption name Hash value 8"),
        "{log_text}"
    );
    assert!(
        log_text.contains("plain > setoption name Hash value 8"),
        "{log_text}"
    );
    assert!(
        log_text.contains("spaced > setoption name Skill Level value 3"),
        "{log_text}"
    );
    assert!(log_text.contains("plain < bestmove"), "{log_text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn all_games_lost_is_an_unbounded_elo_never_nan() {
    // An engine that answers every `go` with an illegal move loses every game.
    let dir = std::env::temp_dir().join(format!("chuhe-match-loser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("loser.py");
    std::fs::write(
        &script,
        "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if not w: continue\n    if w[0] == 'uci': print('uciok', flush=True)\n    elif w[0] == 'isready': print('readyok', flush=True)\n    elif w[0] == 'go': print('bestmove a1a5', flush=True)\n    elif w[0] == 'quit': break\n",
    )
    .unwrap();
    let loser = format!("cmd=python3 arg='{}' name=loser", script.display());
    let winner = chuhe_engine("winner", "");
    let args = [
        "match", "--engine", &loser, "--engine", &winner, "--depth", "1",
    ];
    let run = chuhe(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.starts_with("loser vs winner (xiangqi): 2 games, +0 =0 -2, score 0.0%, Elo unbounded (every game lost)"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("NaN") && !run.stdout.contains("inf"),
        "{}",
        run.stdout
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let run = chuhe(&json_args);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["elo"], serde_json::Value::Null);
    assert_eq!(v["elo_error"], serde_json::Value::Null);
    assert_eq!(v["tally"]["losses"], 2);
    // A one-sided match: the pentanomial SPRT accepts H1 long before 100 rounds.
    let run = chuhe(&[
        "match",
        "--engine",
        &winner,
        "--engine",
        &loser,
        "--depth",
        "1",
        "--rounds",
        "100",
        "--sprt",
        "0,10,0.05,0.05",
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["sprt"]["verdict"], "h1", "{v}");
    assert_eq!(v["sprt"]["model"], "normalized", "{v}");
    assert!(v["games"].as_u64().unwrap() < 20, "{v}");
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["upper"].as_f64().unwrap());
    // Three engines in a gauntlet: the first meets each other one; standings at the end.
    let other = chuhe_engine("other", "");
    let run = chuhe(&[
        "match",
        "--engine",
        &winner,
        "--engine",
        &loser,
        "--engine",
        &other,
        "--tournament",
        "gauntlet",
        "--depth",
        "1",
        "--max-plies",
        "4",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("gauntlet of 3 engines (xiangqi): 4 games\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "  winner vs loser: 2 games, +2 =0 -0, score 100.0%, Elo unbounded (every game won)"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("  winner vs other: 2 games, +0 =2 -0"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("loser vs other"), "{}", run.stdout);
    let standings = run.stdout.split("standings:\n").nth(1).unwrap();
    let first = standings.lines().nth(1).unwrap();
    assert!(
        first.contains(" 1  winner ") && first.contains("3.0"),
        "{standings}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn books_are_read_from_epd_and_pgn_files() {
    let dir = std::env::temp_dir().join(format!("chuhe-match-books-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let epd = dir.join("book.epd");
    // An EPD line with operations, a FEN with Black to move.
    std::fs::write(
        &epd,
        format!("{start} w - - bm h2e2; id \"first\";\n{start} b - - 0 1\n"),
    )
    .unwrap();
    let pgn = dir.join("book.pgn");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n[Variant \"Xiangqi\"]\n\n1. Che3 Hg8 *\n\n[Event \"b\"]\n[Variant \"Xiangqi\"]\n\n1. Hg3 *\n",
    )
    .unwrap();
    let a = chuhe_engine("a", "");
    let b = chuhe_engine("b", "");
    let play = |book: &std::path::Path, extra: &[&str]| -> Vec<serde_json::Value> {
        let records = dir.join(format!("pcn-{}", extra.len()));
        let _ = std::fs::remove_dir_all(&records);
        let book_arg = book.display().to_string();
        let records_arg = records.display().to_string();
        let mut args = vec![
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--depth",
            "1",
            "--max-plies",
            "3",
            "--rounds",
            "2",
            "--openings",
            &book_arg,
            "--pcn-dir",
            &records_arg,
        ];
        args.extend_from_slice(extra);
        let run = chuhe(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        (1..=4)
            .map(|i| {
                let text =
                    std::fs::read_to_string(records.join(format!("game-{i:04}.pcn"))).unwrap();
                serde_json::from_str(&text).unwrap()
            })
            .collect()
    };
    let games = play(&epd, &[]);
    // Round 1 from the EPD line (Red to move), round 2 from the FEN with Black to move.
    assert!(
        games[0]["setup"].as_str().unwrap().ends_with(" / X/x"),
        "{}",
        games[0]
    );
    assert!(
        games[2]["setup"].as_str().unwrap().ends_with(" / x/X"),
        "{}",
        games[2]
    );
    let games = play(&pgn, &[]);
    let first_moves: Vec<&str> = games
        .iter()
        .map(|g| g["moves"][0][0].as_str().unwrap())
        .collect();
    assert_eq!(first_moves, ["h3-e3", "h3-e3", "h1-g3", "h1-g3"]);
    assert_eq!(games[0]["moves"][1][0], "h10-g8");
    // Named by --openings-format, in a seeded random order (same seed, same order).
    let plain = dir.join("book.txt");
    std::fs::copy(&pgn, &plain).unwrap();
    let shuffled = |seed: &str| {
        play(
            &plain,
            &[
                "--openings-format",
                "pgn",
                "--openings-order",
                "random",
                "--seed",
                seed,
            ],
        )
        .iter()
        .map(|g| g["moves"][0][0].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
    };
    let once = shuffled("5");
    assert_eq!(once, shuffled("5"));
    let mut sorted = once.clone();
    sorted.sort();
    assert_eq!(sorted, ["h1-g3", "h1-g3", "h3-e3", "h3-e3"]);
    let line = fails(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--openings",
        &plain.display().to_string(),
    ]);
    assert!(
        line.contains("--openings") && line.contains("opening 1"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `chuhe match --json` between two `chuhe uci` engines (20 rounds, short games) in
/// a process group of its own, as a shell starts a job; Ctrl-C in a terminal signals the
/// whole group.
fn interruptible_match() -> std::process::Child {
    use std::os::unix::process::CommandExt;
    let (a, b) = (chuhe_engine("a", ""), chuhe_engine("b", ""));
    let args = [
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--movetime",
        "25",
        "--max-plies",
        "12",
        "--rounds",
        "20",
        "--concurrency",
        "2",
        "--random-plies",
        "2",
        "--json",
    ];
    std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// Sends SIGINT to the process group `child` leads once its first game has ended; returns
/// the exit code, standard output and standard error.
fn interrupt_after_first_game(
    mut child: std::process::Child,
    signals: usize,
) -> (Option<i32>, String, String) {
    use std::io::{BufRead, Read};
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    let mut seen = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push_str(&line);
        seen.push('\n');
        if line.starts_with("game ") {
            break;
        }
    }
    for _ in 0..signals {
        let group = format!("-{}", child.id());
        let sent = std::process::Command::new("kill")
            .args(["-INT", "--", &group])
            .status()
            .unwrap();
        assert!(sent.success());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    for line in lines {
        seen.push_str(&line.unwrap());
        seen.push('\n');
    }
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let code = child.wait().unwrap().code();
    (code, stdout, seen)
}

#[test]
fn ctrl_c_lets_the_games_in_play_finish_then_writes_the_summary() {
    let (code, stdout, stderr) = interrupt_after_first_game(interruptible_match(), 1);
    assert_eq!(code, Some(130), "128 + SIGINT\n{stderr}");
    assert!(
        stderr.contains("interrupted: no new round starts"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    assert_eq!(v["interrupted"], true, "{stdout}");
    let games = v["games"].as_u64().unwrap();
    assert!(games < 40 && games % 2 == 0, "whole pairs only: {stdout}");
    assert_eq!(v["pentanomial"]["pairs"].as_u64().unwrap() * 2, games);
    // The engines did not get the Ctrl-C: no game was lost by a dead engine.
    let endings = v["endings"].as_object().unwrap();
    assert!(
        endings.keys().all(|k| !k.contains("failed")),
        "{stdout}\n{stderr}"
    );
    assert_eq!(stderr.matches("game ").count() as u64, games, "{stderr}");
}

#[test]
fn a_second_ctrl_c_stops_at_once() {
    let (code, stdout, stderr) = interrupt_after_first_game(interruptible_match(), 2);
    assert_eq!(code, Some(130), "{stderr}");
    assert_eq!(stdout, "", "no summary");
}

#[test]
fn a_match_in_two_slices_tallies_as_the_whole_match() {
    let dir = std::env::temp_dir().join(format!("chuhe-tally-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (a, b) = (chuhe_engine("a", ""), chuhe_engine("b", ""));
    let play = |name: &str, rounds: &[&str]| -> serde_json::Value {
        let records = dir.join(name).display().to_string();
        let flags = "--depth 1 --max-plies 9 --random-plies 3 --seed 5 --json";
        let mut args = vec!["match", "--engine", &a, "--engine", &b];
        args.extend(["--pcn-dir", &records]);
        args.extend(flags.split(' '));
        args.extend_from_slice(rounds);
        let run = chuhe(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    };
    let whole = play("whole", &["--rounds", "3"]);
    let later = play("later", &["--from-round", "2", "--rounds", "2"]);
    assert_eq!(later["games"], 4);
    // The later slice is the whole match's rounds 2 and 3, numbered as there.
    let record = |slice: &str, n: usize| {
        std::fs::read_to_string(dir.join(slice).join(format!("game-{n:04}.pcn"))).unwrap()
    };
    let without_times = |text: String| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for m in v["moves"].as_array_mut().unwrap() {
            *m = m[0].clone();
        }
        v
    };
    for n in 3..=6 {
        assert_eq!(
            without_times(record("later", n)),
            without_times(record("whole", n)),
            "game {n}"
        );
    }
    // Round 1 of the whole match and the later slice, in one folder: the whole match.
    let joined = dir.join("joined");
    std::fs::create_dir_all(&joined).unwrap();
    for n in 1..=2 {
        std::fs::write(joined.join(format!("game-{n:04}.pcn")), record("whole", n)).unwrap();
    }
    for n in 3..=6 {
        std::fs::write(joined.join(format!("game-{n:04}.pcn")), record("later", n)).unwrap();
    }
    let joined_arg = joined.display().to_string();
    let run = chuhe(&["tally", &joined_arg, "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let tallied: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    for key in [
        "games",
        "tally",
        "score",
        "elo",
        "pentanomial",
        "endings",
        "standings",
    ] {
        assert_eq!(tallied[key], whole[key], "{key}");
    }
    assert_eq!(tallied["interrupted"], false);
    // In words, as `chuhe match` writes its summary.
    let text = chuhe(&["tally", &joined_arg]);
    assert!(
        text.stdout.starts_with("a vs b (xiangqi): 6 games, "),
        "{}",
        text.stdout
    );
    // A lone game is counted and named; what is not a record is refused with its name.
    let lone = joined.join("game-0006.pcn").display().to_string();
    let run = chuhe(&["tally", &lone]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("warning: round 3 of "),
        "{}",
        run.stderr
    );
    std::fs::write(joined.join("game-0007.pcn"), "{\"setup\": 5}").unwrap();
    let line = fails(&["tally", &joined_arg]);
    assert!(line.contains("game-0007.pcn"), "{line}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(fails(&["tally", &empty.display().to_string()]).contains("no .pcn files"));
    assert!(fails(&["tally", "/nonexistent/records"]).contains("cannot read"));
    let _ = std::fs::remove_dir_all(&dir);
}
