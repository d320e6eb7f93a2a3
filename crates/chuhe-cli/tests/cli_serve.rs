//! `chuhe serve` as a process: it prints its address, keeps every acknowledged move through
//! `kill -9` and a restart, and refuses bad options with a message.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

fn temp_db(tag: &str) -> String {
    std::env::temp_dir()
        .join(format!("chuhe-serve-{}-{tag}.sqlite3", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

/// Removes the database at `db` and the files SQLite keeps beside it (the lock file's
/// journal too, which a `kill -9` leaves behind).
fn remove_db(db: &str) {
    for ext in ["", "-wal", "-shm", "-lock", "-lock-journal"] {
        let _ = std::fs::remove_file(format!("{db}{ext}"));
    }
}

/// Starts `chuhe serve` on a free loopback port; the child and its base URL.
fn serve(db: &str) -> (Child, String) {
    serve_on("127.0.0.1:0", db)
}

/// Starts `chuhe serve` on `addr`; the child and its base URL.
fn serve_on(addr: &str, db: &str) -> (Child, String) {
    serve_with(addr, db, &[])
}

/// Starts `chuhe serve` on `addr` with more flags; the child and its base URL.
fn serve_with(addr: &str, db: &str, more: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["serve", "--addr", addr, "--db", db])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(line.contains("sqlite"), "{line}");
    (child, url)
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .build()
}

fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = agent().post(url);
    if let Some(t) = token {
        request = request.set("Authorization", &format!("Bearer {t}"));
    }
    let response = match request.send_json(body) {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST {url}: {e}"),
    };
    (response.status(), response.into_json().unwrap())
}

#[test]
fn kill_dash_nine_loses_no_acknowledged_move() {
    let db = temp_db("kill");
    let (mut child, base) = serve(&db);
    let (status, created) = post(
        &format!("{base}/api/games"),
        None,
        json!({"game": "xiangqi", "opponent": "friend"}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let code = created["game"]["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap();
    let (status, joined) = post(
        &format!("{base}/api/games/{id}/join"),
        None,
        json!({"invite": code}),
    );
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().unwrap().to_string();
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b8b4"];
    for (i, m) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &red } else { &black };
        let (status, body) = post(
            &format!("{base}/api/games/{id}/move"),
            Some(token),
            json!({"move": m}),
        );
        assert_eq!(status, 200, "{m}: {body}");
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    let (mut child, base) = serve(&db);
    let state: Value = agent()
        .get(&format!("{base}/api/games/{id}"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    let played: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"]["uci"].as_str().unwrap())
        .collect();
    assert_eq!(played, moves);
    // The game goes on with the same tokens.
    let (status, body) = post(
        &format!("{base}/api/games/{id}/move"),
        Some(&red),
        json!({"move": "g4g5"}),
    );
    assert_eq!(status, 200, "{body}");
    child.kill().unwrap();
    child.wait().unwrap();
    remove_db(&db);
}

#[test]
fn bad_options_are_refused_with_a_message() {
    for (args, expected) in [
        (vec!["serve", "--addr", "nowhere"], "is not an address"),
        (vec!["serve", "--addr", "::1:8080"], "is not an address"),
        (vec!["serve", "--addr", "localhost"], "is not an address"),
        (
            vec!["serve", "--addr", "no-such-host.invalid:8080"],
            "cannot find the host",
        ),
        (
            vec!["serve", "--addr", "127.0.0.1:0", "--db", ""],
            "--db is empty",
        ),
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--allowed-origin",
                "evil.example/x",
            ],
            "is not an origin",
        ),
        (
            vec!["serve", "--addr", "127.0.0.1:0", "--db", "  "],
            "--db is empty",
        ),
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                "/nonexistent-dir/a/b.sqlite3",
            ],
            "cannot open",
        ),
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                "postgres://x@127.0.0.1:1/none",
            ],
            "cannot connect",
        ),
        (vec!["serve", "--engine-movetime", "0"], "engine-movetime"),
        (vec!["serve", "--abort-after", "0"], "abort-after"),
        (vec!["serve", "--abort-after", "1e9"], "abort-after"),
        (vec!["serve", "--engine-threads", "0"], "engine-threads"),
        (vec!["serve", "--engine-threads", "257"], "engine-threads"),
        (vec!["serve", "--analysis-seconds", "0"], "analysis-seconds"),
        (
            vec!["serve", "--analysis-per-address", "0"],
            "analysis-per-address",
        ),
        (vec!["serve", "--analysis-queue", "0"], "analysis-queue"),
        (vec!["serve", "--review-nodes", "10"], "review-nodes"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        if !stderr.starts_with("error: invalid value") {
            // clap's own messages add a hint line; the server's are one line.
            assert_eq!(
                stderr.trim().lines().count(),
                1,
                "{args:?}: one line: {stderr}"
            );
        }
    }
}

#[test]
fn host_names_and_ipv6_addresses_are_listened_on() {
    for (addr, shown) in [("localhost:0", "http://"), ("[::1]:0", "http://[::1]:")] {
        let db = temp_db(&format!("addr{}", addr.len()));
        let (mut child, base) = serve_on(addr, &db);
        assert!(base.starts_with(shown), "{addr}: {base}");
        let (status, created) = post(
            &format!("{base}/api/games"),
            None,
            json!({"game": "xiangqi", "opponent": "friend"}),
        );
        assert_eq!(status, 201, "{addr}: {created}");
        child.kill().unwrap();
        child.wait().unwrap();
        remove_db(&db);
    }
}

#[test]
fn a_second_server_on_one_sqlite_file_is_refused() {
    let db = temp_db("second");
    let (mut first, base) = serve(&db);
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("in use by another chuhe serve") && stderr.contains("PostgreSQL"),
        "{stderr}"
    );
    // The first goes on serving.
    let (status, body) = post(
        &format!("{base}/api/games"),
        None,
        json!({"game": "xiangqi", "opponent": "friend"}),
    );
    assert_eq!(status, 201, "{body}");
    first.kill().unwrap();
    first.wait().unwrap();
    // Once it is gone (even killed), the file is free again.
    let (mut next, _) = serve(&db);
    next.kill().unwrap();
    next.wait().unwrap();
    remove_db(&db);
}

/// A directory of the repository (the tests run in the crate's directory).
fn repo_dir(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

fn get(url: &str) -> (u16, Value) {
    let response = match agent().get(url).call() {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {url}: {e}"),
    };
    (response.status(), response.into_json().unwrap())
}

#[test]
fn bad_rules_directories_are_refused_with_a_message() {
    let broken = std::env::temp_dir().join(format!("chuhe-serve-{}-broken", std::process::id()));
    std::fs::create_dir_all(&broken).unwrap();
    let lantern = std::fs::read_to_string(repo_dir("examples/rules/lantern/rules.json")).unwrap();
    std::fs::write(
        broken.join("rules.json"),
        lantern.replace(
            "\"capture\": \"hand\"",
            "\"capture\": \"hand\", \"colour\": 1",
        ),
    )
    .unwrap();
    let broken = broken.to_string_lossy().into_owned();
    // Read before the database is opened: nothing is made.
    let db = temp_db("never");
    for (dir, expected) in [
        (
            "/nonexistent-rules-dir".to_string(),
            "rules.json: cannot be read",
        ),
        (broken.clone(), "rules.json: colour: unknown key"),
        (
            repo_dir("games/xiangqi"),
            "named 'xiangqi', which is one of chuhe's own games",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                &db,
                "--rules",
                &dir,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{dir}: {stderr}");
        assert!(
            stderr.contains("--rules") && stderr.contains(expected),
            "{dir}: {stderr}"
        );
        assert_eq!(
            stderr.trim().lines().count(),
            1,
            "{dir}: one line: {stderr}"
        );
    }
    assert!(!std::path::Path::new(&db).exists());
    let _ = std::fs::remove_dir_all(&broken);
}

/// A copy of the Lantern directory whose lantern-bearer may only capture, its GGN written
/// again by `chuhe ggn --pieces`.
fn changed_lantern(lantern: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chuhe-lantern-changed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["rules.json", "pieces.json"] {
        std::fs::copy(format!("{lantern}/{file}"), dir.join(file)).unwrap();
    }
    let pieces = dir.join("pieces.json");
    let text = std::fs::read_to_string(&pieces).unwrap();
    let changed = text.replace(
        "\"move:step:fwd capture:step:fwd,fwd-diag\"",
        "\"capture:step:fwd,fwd-diag\"",
    );
    assert_ne!(
        changed, text,
        "the lantern-bearer's moves are in pieces.json"
    );
    std::fs::write(&pieces, changed).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["ggn", "--pieces"])
        .arg(&pieces)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(dir.join("lantern.ggn.json"), out.stdout).unwrap();
    dir.to_string_lossy().into_owned()
}

#[test]
fn a_rules_game_is_served_and_kept_when_its_rules_are_not() {
    let db = temp_db("rules");
    let lantern = repo_dir("examples/rules/lantern");
    let (mut child, base) = serve_with("127.0.0.1:0", &db, &["--rules", &lantern]);
    let (status, kinds) = get(&format!("{base}/api/kinds"));
    assert_eq!(status, 200, "{kinds}");
    let names: Vec<&str> = kinds["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["xiongqi", "xiangqi", "xiangqi-capture", "lantern"]);
    // Against the engine, which answers in the rules game.
    let (status, created) = post(
        &format!("{base}/api/games"),
        None,
        json!({"game": "lantern", "opponent": "engine", "level": 0}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let (status, moved) = post(
        &format!("{base}/api/games/{id}/move"),
        Some(&token),
        json!({"move": "b2b3", "ply": 0}),
    );
    assert_eq!(status, 200, "{moved}");
    let mut plies = 0;
    for _ in 0..100 {
        let (_, state) = get(&format!("{base}/api/games/{id}"));
        plies = state["moves"].as_array().map_or(0, Vec::len);
        if plies == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(plies, 2, "the engine answered");
    child.kill().unwrap();
    child.wait().unwrap();
    // Started again without --rules: the game is kept, and said to need its rules.
    let (mut child, base) = serve(&db);
    let (status, body) = get(&format!("{base}/api/games/{id}"));
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "game_not_served", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'lantern'"),
        "{body}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // And with them again, it goes on where it was.
    let (mut child, base) = serve_with("127.0.0.1:0", &db, &["--rules", &lantern]);
    let (status, state) = get(&format!("{base}/api/games/{id}"));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2), "{state}");
    child.kill().unwrap();
    child.wait().unwrap();
    // Rule files changed under the same name (the lantern-bearer only captures now, so the
    // stored b2b3 is refused): the game is kept, and said to need the rules it was played
    // under — not a database failure.
    let changed = changed_lantern(&lantern);
    let (mut child, base) = serve_with("127.0.0.1:0", &db, &["--rules", &changed]);
    let (status, body) = get(&format!("{base}/api/games/{id}"));
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "rules_changed", "{body}");
    assert_eq!(body["error"]["params"]["game"], "lantern", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("move 1 ('b2b3')"), "{body}");
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, base) = serve_with("127.0.0.1:0", &db, &["--rules", &lantern]);
    let (status, state) = get(&format!("{base}/api/games/{id}"));
    assert_eq!(status, 200, "the record is untouched: {state}");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2), "{state}");
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&changed);
    remove_db(&db);
}
