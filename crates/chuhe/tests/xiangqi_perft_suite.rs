//! The shared Xiangqi perft table (`data/perft-xiangqi.txt`, a copy of `shared/data`).
//!
//! Rows up to `NODE_CAP` nodes run in the normal test run; `--ignored` runs every row.

use chuhe::suite::{parse_suite, SuitePosition};
use chuhe::xiangqi::{perft, Position, RuleSet};

const NODE_CAP: u64 = 3_000_000;

fn suite_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft-xiangqi.txt");
    std::fs::read_to_string(path).expect("data/perft-xiangqi.txt")
}

fn run(max_nodes: u64) -> usize {
    let records = parse_suite(&suite_text()).expect("the suite parses");
    assert!(records.len() >= 5, "all records read");
    let mut checked = 0;
    for record in records {
        let SuitePosition::Fen(fen) = &record.position else {
            panic!("{}: Xiangqi records use fen", record.id)
        };
        let pos = Position::from_fen(fen, RuleSet::Standard)
            .unwrap_or_else(|e| panic!("{}: {e}", record.id));
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
fn xiangqi_perft_table_rows_under_the_node_cap() {
    assert!(run(NODE_CAP) >= 15);
}

#[test]
#[ignore = "deep rows: run with --ignored --release"]
fn xiangqi_perft_table_every_row() {
    run(u64::MAX);
}

#[test]
fn vendored_xiangqi_table_matches_shared_when_present() {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/perft-xiangqi.txt"
    );
    if let Ok(text) = std::fs::read_to_string(shared) {
        assert_eq!(
            text,
            suite_text(),
            "data/perft-xiangqi.txt differs from shared/data"
        );
    }
}
