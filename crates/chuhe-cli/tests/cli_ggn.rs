//! `chuhe ggn`: the movement table of each game, read back by the notation crate's GGN
//! parser, identical to the library's table, and written back byte for byte.

#[allow(dead_code)]
mod common;

use chuhe::notation::ggn::Ggn;
use chuhe::notation::{Cell, Qpi};
use chuhe::GameKind;
use common::{chuhe, ok};

#[test]
fn ggn_writes_each_table_and_it_round_trips() {
    for kind in GameKind::ALL {
        let out = ok(&["ggn", "--game", kind.name()]);
        assert!(out.ends_with('\n'), "{kind}: no final newline");
        assert_eq!(out.lines().count(), 1, "{kind}: not one line");
        let table = Ggn::from_json(&out).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(table, chuhe::ggn::table(kind), "{kind}");
        assert_eq!(table.to_json(), out.trim_end(), "{kind}: not the same text");

        let pretty = ok(&["ggn", "--game", kind.name(), "--pretty"]);
        assert!(pretty.lines().count() > 1000, "{kind}: not indented");
        let again = Ggn::from_json(&pretty).unwrap();
        assert_eq!(again, table, "{kind}");
        assert_eq!(again.to_json_pretty(), pretty.trim_end(), "{kind}");
    }
}

#[test]
fn ggn_defaults_to_xiongqi_and_keeps_the_seed_order() {
    let out = ok(&["ggn"]);
    assert_eq!(out, ok(&["ggn", "--game", "xiongqi"]));
    // Seed 000's dragon: the squares between in CELL order, then the destination.
    assert!(
        out.contains(r#""a4":[{"must":{"b4":"empty","c4":"empty","d4":"empty","a4":"enemy"}}]"#),
        "the dragon's e4→a4 is not written as the seed writes it"
    );
    let table = Ggn::from_json(&out).unwrap();
    let general = Qpi::parse("x:g^").unwrap();
    assert_eq!(
        table
            .destinations(general, Cell::parse("h8").unwrap())
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn ggn_usage_errors() {
    for args in [
        &["ggn", "--game", "chess"][..],
        &["ggn", "--pretty", "yes"][..],
        &["ggn", "--position", "start"][..],
    ] {
        let r = chuhe(args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
    }
    assert!(chuhe(&["ggn", "--game", "chess"]).stderr.contains("chess"));
    let help = ok(&["--help"]);
    assert!(
        help.lines().any(|l| l.trim_start().starts_with("ggn ")),
        "--help lacks ggn: {help}"
    );
    assert!(ok(&["ggn", "--help"]).contains("--pretty"));
}
