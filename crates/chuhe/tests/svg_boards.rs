//! SVG boards: snapshots of a few pictures (rewrite them with `UPDATE_SNAPSHOTS=1`), each
//! parsed as XML, with the pieces, marks and arrows counted.

use std::path::PathBuf;

use chuhe::{xiangqi, xiongqi, GamePosition, Glyphs};

/// Compares `svg` with the stored snapshot `name` (or stores it under `UPDATE_SNAPSHOTS=1`).
fn snapshot(name: &str, svg: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    assert!(
        stored == svg,
        "{name} differs from its snapshot; look at the new picture and rerun with \
         UPDATE_SNAPSHOTS=1 if it is right"
    );
}

/// Parses `svg` and counts the elements with `class`.
fn count_class(svg: &str, class: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    root.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

#[test]
fn xiangqi_start_in_chinese() {
    let svg = xiangqi::Position::start()
        .svg()
        .glyphs(Glyphs::Chinese)
        .to_string();
    assert_eq!(count_class(&svg, "piece"), 32);
    assert!(svg.contains("楚河") && svg.contains("帥") && svg.contains("將"));
    snapshot("xiangqi-start-chinese.svg", &svg);
}

#[test]
fn xiangqi_check_last_move_and_arrow() {
    let pos: xiangqi::Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".parse().unwrap();
    let m = pos.parse_move("e2-d2").unwrap();
    let after = pos.play(m).unwrap();
    assert!(after.is_check());
    let d10: xiangqi::Square = "d10".parse().unwrap();
    let e10: xiangqi::Square = "e10".parse().unwrap();
    let svg = after
        .svg()
        .last_move(m.from(), m.to())
        .arrow(d10, e10)
        .size(300)
        .to_string();
    assert_eq!(count_class(&svg, "piece"), 3);
    assert_eq!(count_class(&svg, "check"), 1);
    assert_eq!(count_class(&svg, "last-move"), 2);
    assert_eq!(count_class(&svg, "arrow"), 1);
    assert!(svg.contains(r#"width="300""#));
    snapshot("xiangqi-check.svg", &svg);
}

#[test]
fn xiongqi_flipped_in_latin() {
    let pos = xiongqi::Position::start();
    let svg = pos.svg().flipped(true).to_string();
    assert_eq!(count_class(&svg, "piece"), 36);
    assert_eq!(count_class(&svg, "check"), 0);
    // PIN letters, the terminal piece marked.
    assert!(svg.contains(">G^<") && svg.contains(">g^<"));
    snapshot("xiongqi-start-flipped.svg", &svg);
}

/// A game read from rule files whose manifest declares no river gets none: no river line on
/// a board of squares (Lantern), no river band nor its words on a board of points
/// (Minixiangqi), and the inner files run through.
#[test]
fn rules_boards_without_a_river_draw_none() {
    let dir = |d: &str| format!("{}/../../{d}", env!("CARGO_MANIFEST_DIR"));
    for (game, pieces) in [("examples/rules/lantern", 20), ("games/minixiangqi", 24)] {
        let kind = chuhe::GameKind::Rules(chuhe::rules::load_dir(dir(game)).unwrap());
        let svg = kind
            .new_game("start")
            .unwrap()
            .board_svg(&chuhe::SvgOptions::default())
            .unwrap();
        assert_eq!(count_class(&svg, "piece"), pieces, "{game}");
        assert!(!svg.contains("#8fb8d8"), "{game}: no river");
        assert!(!svg.contains("楚河"), "{game}: no river's words");
    }
    // Xiangqi read from its rule files keeps its river.
    let kind = chuhe::GameKind::Rules(chuhe::rules::load_dir(dir("games/xiangqi")).unwrap());
    let svg = kind
        .new_game("start")
        .unwrap()
        .board_svg(&chuhe::SvgOptions::default())
        .unwrap();
    assert!(svg.contains("#8fb8d8") && svg.contains("楚河"));
}
