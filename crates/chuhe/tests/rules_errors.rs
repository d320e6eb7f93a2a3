//! Bad rule files give typed errors that name the file, the key and what is wrong; never a
//! panic. Each case starts from a good game (games/minixiangqi) and spoils one thing.

use chuhe::rules::{self, compact, RulesError, RulesProblem};

fn game_file(name: &str) -> String {
    let path = format!(
        "{}/../../games/minixiangqi/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(manifest: &str, ggn: &str) -> Result<(), RulesError> {
    rules::load("rules.json", manifest, "minixiangqi.ggn.json", ggn).map(|_| ())
}

/// The manifest with `from` replaced by `to` (which must occur).
fn manifest_with(from: &str, to: &str) -> String {
    let text = game_file("rules.json");
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[track_caller]
fn expect(result: Result<(), RulesError>, file: &str, key: &str, problem: RulesProblem) {
    let e = result.expect_err("an error");
    assert_eq!(
        (e.file.as_str(), e.key.as_str(), &e.problem),
        (file, key, &problem),
        "{e}"
    );
}

fn invalid(result: Result<(), RulesError>, file: &str, key: &str, says: &str) {
    let e = result.expect_err("an error");
    assert_eq!((e.file.as_str(), e.key.as_str()), (file, key), "{e}");
    match &e.problem {
        RulesProblem::Invalid(m) => assert!(m.contains(says), "{e}: wants '{says}'"),
        other => panic!("{e}: {other:?}"),
    }
    assert!(
        e.to_string().starts_with(&format!("{file}: {key}: ")),
        "{e}"
    );
}

#[test]
fn the_good_game_loads() {
    load(&game_file("rules.json"), &game_file("minixiangqi.ggn.json")).unwrap();
}

#[test]
fn manifest_errors_name_the_key() {
    let ggn = game_file("minixiangqi.ggn.json");
    expect(
        load(
            &manifest_with("\"drops\": [],", "\"drops\": [], \"castling\": true,"),
            &ggn,
        ),
        "rules.json",
        "castling",
        RulesProblem::UnknownKey,
    );
    expect(
        load(&manifest_with("\"stalemate\": \"loss\",", ""), &ggn),
        "rules.json",
        "session.stalemate",
        RulesProblem::Missing,
    );
    invalid(
        load(
            &manifest_with("\"stalemate\": \"loss\"", "\"stalemate\": \"lose\""),
            &ggn,
        ),
        "rules.json",
        "session.stalemate",
        "'lose' is not loss, draw or win",
    );
    expect(
        load(
            &manifest_with("\"fold\": 3,", "\"fold\": 3, \"folds\": 2,"),
            &ggn,
        ),
        "rules.json",
        "session.repetition.folds",
        RulesProblem::UnknownKey,
    );
    invalid(
        load(&manifest_with("\"files\": 7", "\"files\": 13"), &ggn),
        "rules.json",
        "board.files",
        "out of range",
    );
    invalid(
        load(
            &manifest_with(
                "\"format\": \"chuhe.rules/1\"",
                "\"format\": \"chuhe.rules/9\"",
            ),
            &ggn,
        ),
        "rules.json",
        "format",
        "is not chuhe.rules/1",
    );
    let e = load("{\"format\": ", &ggn).unwrap_err();
    assert!(matches!(e.problem, RulesProblem::NotJson(_)), "{e}");
}

#[test]
fn a_piece_in_the_start_that_the_manifest_does_not_have_is_an_error() {
    let ggn = game_file("minixiangqi.ggn.json");
    invalid(
        load(&manifest_with("rchg^hcr/", "rchg^hcq/"), &ggn),
        "rules.json",
        "start",
        "is not a piece of the manifest",
    );
    invalid(
        load(
            &manifest_with("\"start\": \"rchg^hcr/", "\"start\": \"rchg^hcr/7/"),
            &ggn,
        ),
        "rules.json",
        "start",
        "",
    );
}

#[test]
fn ggn_errors_name_the_ggn_file() {
    let manifest = game_file("rules.json");
    // A square off the 7x7 board.
    let ggn = game_file("minixiangqi.ggn.json").replacen("\"a1\"", "\"a9\"", 1);
    invalid(
        load(&manifest, &ggn),
        "minixiangqi.ggn.json",
        "X:C.a9",
        "square a9 is off the 7x7 board",
    );
    // A piece of the start that no GGN entry moves: the chariots' entries removed.
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&game_file("minixiangqi.ggn.json")).unwrap();
    let without: serde_json::Map<_, _> = table
        .into_iter()
        .filter(|(k, _)| !k.ends_with(":R") && !k.ends_with(":r"))
        .collect();
    invalid(
        load(&manifest, &serde_json::Value::Object(without).to_string()),
        "rules.json",
        "start",
        "R on a1: no entry of minixiangqi.ggn.json moves it (X:R)",
    );
    let e = load(&manifest, "[1, 2").unwrap_err();
    assert_eq!(e.file, "minixiangqi.ggn.json");
    assert!(matches!(e.problem, RulesProblem::NotJson(_)), "{e}");
}

#[test]
fn compact_description_errors_name_the_key() {
    let text = game_file("pieces.json");
    let bad = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        compact::ggn("pieces.json", &text.replacen(from, to, 1)).map(|_| ())
    };
    invalid(
        bad("slide:orth", "slide:sideways"),
        "pieces.json",
        "pieces.R.moves",
        "unknown direction 'sideways'",
    );
    invalid(
        bad("\"palace\": \"c1-e3\"", "\"palace\": \"c1-e9\""),
        "pieces.json",
        "pieces.G^.on",
        "off the 7x7 board",
    );
    expect(
        bad("\"style\": \"X\",", "\"style\": \"X\", \"colour\": 1,"),
        "pieces.json",
        "colour",
        RulesProblem::UnknownKey,
    );
    expect(
        bad("\"moves\": \"horse\"", "\"move\": \"horse\""),
        "pieces.json",
        "pieces.H.move",
        RulesProblem::UnknownKey,
    );
}

#[test]
fn the_shipped_games_ggn_files_are_the_tools_output() {
    for game in ["makruk", "manchu", "minixiangqi", "shatranj"] {
        let dir = format!("{}/../../games/{game}", env!("CARGO_MANIFEST_DIR"));
        let pieces = std::fs::read_to_string(format!("{dir}/pieces.json")).unwrap();
        let file = std::fs::read_to_string(format!("{dir}/{game}.ggn.json")).unwrap();
        let written = compact::ggn("pieces.json", &pieces).unwrap();
        let shipped = chuhe_notation::ggn::Ggn::from_json(&file).unwrap();
        assert!(
            written == shipped,
            "{game}: {game}.ggn.json is not `chuhe ggn --pieces` output"
        );
        rules::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The tuner's rewrite of a manifest changes the values asked for and adds or changes
/// `mobility`, nothing else; a piece the manifest does not have is an error naming it.
#[test]
fn the_tuner_rewrites_only_the_engine_values() {
    use chuhe::rules::manifest::{with_engine_values, Manifest};
    for game in [
        "minixiangqi",
        "manchu",
        "shatranj",
        "makruk",
        "xiangqi",
        "xiongqi",
    ] {
        let path = format!(
            "{}/../../games/{game}/rules.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let original = Manifest::from_json("rules.json", &text).unwrap();
        let values: Vec<(String, i32)> = original
            .pieces
            .iter()
            .filter(|p| !p.royal)
            .map(|p| (p.pin.to_string(), p.value + 7))
            .collect();
        let asked: Vec<(&str, i32)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let tuned = with_engine_values("rules.json", &text, &asked, 9)
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        let m = Manifest::from_json("rules.json", &tuned).unwrap();
        assert_eq!(m.mobility, 9, "{game}");
        for (before, after) in original.pieces.iter().zip(&m.pieces) {
            let want = if before.royal {
                before.value
            } else {
                before.value + 7
            };
            assert_eq!(after.value, want, "{game} {}", before.pin);
        }
        // Only numbers and one added line changed: the rest of the text is as it was.
        let strip = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.contains("\"mobility\""))
                .collect::<String>()
                .chars()
                .filter(|c| !c.is_ascii_digit() && *c != '-')
                .collect()
        };
        assert_eq!(strip(&tuned), strip(&text), "{game}");
        // Again on the tuned text: `mobility` is now replaced, not added.
        let again = with_engine_values("rules.json", &tuned, &asked, 5).unwrap();
        assert_eq!(again.matches("\"mobility\"").count(), 1, "{game}");
        assert_eq!(
            Manifest::from_json("rules.json", &again).unwrap().mobility,
            5
        );
    }
    let text = std::fs::read_to_string(format!(
        "{}/../../games/shatranj/rules.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let e = with_engine_values("rules.json", &text, &[("Z", 900)], 4).unwrap_err();
    assert!(e.to_string().contains("pieces.Z"), "{e}");
}
