//! One harness over the shared perft tables, `data/perft-xiongqi.txt` and
//! `data/perft-xiangqi.txt` (copies of `shared/data`), every record of both.
//!
//! Rows up to `NODE_CAP` nodes run in the normal test run; `cargo test --release -- --ignored`
//! runs every row (or use `chuhe perft`).

use chuhe::suite::{parse_suite, PerftRecord, SuitePosition};
use chuhe::{xiangqi, xiongqi};

const NODE_CAP: u64 = 3_000_000;

fn data(name: &str) -> String {
    let path = format!("{}/../../data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Perft of a record's position at `depth`, by the game its position notation names.
fn perft(record: &PerftRecord, depth: u32) -> u64 {
    match &record.position {
        SuitePosition::Feen(feen) => {
            let mut pos =
                xiongqi::Position::from_feen(feen).unwrap_or_else(|e| panic!("{}: {e}", record.id));
            pos.set_halfmove(record.halfmove);
            xiongqi::perft(&pos, depth)
        }
        SuitePosition::Fen(fen) => {
            let pos = xiangqi::Position::from_fen(fen, xiangqi::RuleSet::Standard)
                .unwrap_or_else(|e| panic!("{}: {e}", record.id));
            xiangqi::perft(&pos, depth)
        }
    }
}

/// Checks every row of a table up to `max_nodes`; returns how many rows ran.
fn run(name: &str, max_nodes: u64) -> usize {
    let records = parse_suite(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!records.is_empty(), "{name} has records");
    let mut checked = 0;
    for record in &records {
        for &(depth, nodes) in &record.expected {
            if nodes <= max_nodes {
                assert_eq!(
                    perft(record, depth),
                    nodes,
                    "{name} {} perft {depth}",
                    record.id
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn xiongqi_table_rows_under_the_node_cap() {
    assert!(run("perft-xiongqi.txt", NODE_CAP) >= 25);
}

#[test]
fn xiangqi_table_rows_under_the_node_cap() {
    assert!(run("perft-xiangqi.txt", NODE_CAP) >= 15);
}

#[test]
#[ignore = "deep rows: about 2 minutes in release builds"]
fn every_row_of_both_tables() {
    run("perft-xiongqi.txt", u64::MAX);
    run("perft-xiangqi.txt", u64::MAX);
}

#[test]
fn vendored_files_match_shared_when_present() {
    for (folder, name) in [
        ("data", "perft-xiongqi.txt"),
        ("data", "perft-xiangqi.txt"),
        ("anchors", "xiongqi-fsf.ini"),
    ] {
        let shared = format!(
            "{}/../../../shared/{folder}/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        if let Ok(text) = std::fs::read_to_string(shared) {
            assert_eq!(text, data(name), "data/{name} differs from shared/{folder}");
        }
    }
}
