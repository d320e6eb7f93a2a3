//! The shared perft table (`data/perft-xiongqi.txt`, a copy of `shared/data`), every record.
//!
//! Rows up to `NODE_CAP` nodes run in the normal test run; `cargo test -- --ignored` runs
//! every row (or use `chuhe perft`).

use chuhe::suite::{parse_suite, SuitePosition};
use chuhe::xiongqi::{perft, Position};

const NODE_CAP: u64 = 3_000_000;

fn suite_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft-xiongqi.txt");
    std::fs::read_to_string(path).expect("data/perft-xiongqi.txt")
}

fn run(max_nodes: u64) -> usize {
    let records = parse_suite(&suite_text()).expect("the suite parses");
    assert!(records.len() >= 8, "all records read");
    let mut checked = 0;
    for record in records {
        let SuitePosition::Feen(feen) = &record.position else {
            panic!("{}: Xiongqi records use feen", record.id)
        };
        let mut pos = Position::from_feen(feen).unwrap_or_else(|e| panic!("{}: {e}", record.id));
        pos.set_halfmove(record.halfmove);
        for &(depth, nodes) in &record.expected {
            if nodes > max_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} perft {depth}", record.id);
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_table_rows_under_the_node_cap() {
    assert!(run(NODE_CAP) >= 25);
}

#[test]
#[ignore = "deep rows: minutes in debug builds; run with --ignored --release"]
fn perft_table_every_row() {
    run(u64::MAX);
}

#[test]
fn vendored_table_matches_shared_when_present() {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/perft-xiongqi.txt"
    );
    if let Ok(text) = std::fs::read_to_string(shared) {
        assert_eq!(
            text,
            suite_text(),
            "data/perft-xiongqi.txt differs from shared/data"
        );
    }
}
