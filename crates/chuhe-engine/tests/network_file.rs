//! The network file in the repository against the network compiled in: loaded from disk, it
//! must give exactly the embedded network's results (the CI check of the file format and the
//! loader), and a different file must change them (the search really reads the loaded one).

use std::path::PathBuf;
use std::sync::Arc;

use chuhe::xiangqi::Position;
use chuhe::GameKind;
use chuhe_engine::bench::{self, BenchReport};
use chuhe_engine::eval::xiangqi_net::{XiangqiNet, EMBEDDED_FILE, EMBEDDED_NAME};
use chuhe_engine::{Engine, EngineError, Limits, Networks};

/// The embedded network's file in the repository.
fn repository_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("nets")
        .join(EMBEDDED_NAME)
}

/// Node count, best move and score of each bench position.
fn signature(report: &BenchReport) -> Vec<(u64, Option<String>, String)> {
    report.games[0]
        .positions
        .iter()
        .map(|p| (p.nodes, p.best.clone(), p.score.to_string()))
        .collect()
}

fn xiangqi_bench(net: Arc<XiangqiNet>) -> BenchReport {
    let networks = Networks { xiangqi: net };
    bench::run_with(&[GameKind::Xiangqi], 10, &networks, |_| {}).unwrap()
}

#[test]
fn the_repository_file_gives_the_embedded_network_s_results() {
    let loaded = XiangqiNet::load(&repository_file()).unwrap();
    let embedded = XiangqiNet::embedded();
    assert!(std::fs::read(repository_file()).unwrap() == EMBEDDED_FILE);
    assert_eq!(loaded, *embedded);
    assert_eq!(loaded.checksum(), embedded.checksum());
    // The same corrections along a game with captures.
    let mut pos = Position::start();
    for ply in 0..120usize {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves
            .iter()
            .copied()
            .find(|&m| ply % 4 == 0 && pos.is_capture(m))
            .unwrap_or(moves[(ply * 13 + 1) % moves.len()]);
        pos.play_unchecked(m);
        assert_eq!(loaded.correction(&pos), embedded.correction(&pos));
    }
    // The same searches: node counts, best moves and scores of the bench at depth 10, with
    // either kernel.
    let reference = signature(&xiangqi_bench(embedded));
    let scalar = loaded.clone().with_scalar_kernel();
    assert_eq!(signature(&xiangqi_bench(Arc::new(loaded))), reference);
    assert_eq!(signature(&xiangqi_bench(Arc::new(scalar))), reference);
}

#[test]
fn another_network_changes_the_search() {
    // The embedded file with its output weights (and, in format 3, both views' weights and
    // the output's bias) zeroed: no correction at all.
    let embedded = XiangqiNet::embedded();
    let (format, hidden) = (embedded.format(), embedded.hidden());
    let mut bytes = EMBEDDED_FILE.to_vec();
    let output_bytes = match format {
        3 => 2 * 2 * hidden + 4,
        _ => 2 * hidden,
    };
    let end = bytes.len() - 4;
    bytes[end - output_bytes..end].fill(0);
    let checksum = crc32(&bytes[..end]);
    bytes[end..].copy_from_slice(&checksum.to_le_bytes());
    let flat = XiangqiNet::from_bytes(&bytes).unwrap();
    // After each first move: never a correction from the flat network, some from the
    // embedded one (a single position may happen to get exactly 0 from it).
    let pos: Position = Position::start();
    let mut corrected = 0;
    for &m in pos.legal_moves().iter() {
        let mut moved = pos.clone();
        moved.play_unchecked(m);
        assert_eq!(flat.correction(&moved), 0);
        corrected += usize::from(XiangqiNet::embedded().correction(&moved) != 0);
    }
    assert!(
        corrected > 0,
        "the embedded network corrects no position after a first move"
    );
    let embedded = signature(&xiangqi_bench(XiangqiNet::embedded()));
    assert_ne!(signature(&xiangqi_bench(Arc::new(flat))), embedded);
}

#[test]
fn the_engine_loads_a_file_or_keeps_its_network() {
    let mut engine = Engine::new(GameKind::Xiangqi);
    engine.load_eval_file(Some(&repository_file())).unwrap();
    assert_eq!(engine.eval_file(), Some(repository_file().as_path()));
    let before = engine.search(Limits::depth(5)).unwrap();
    engine.new_game().unwrap();
    let damaged = std::env::temp_dir().join(format!("chuhe-damaged-{}.nnue", std::process::id()));
    let mut bytes = EMBEDDED_FILE.to_vec();
    bytes[1000] ^= 4;
    std::fs::write(&damaged, &bytes).unwrap();
    let refused = engine.load_eval_file(Some(&damaged));
    std::fs::remove_file(&damaged).unwrap();
    let Err(EngineError::Network(e)) = refused else {
        panic!("a damaged file was accepted: {refused:?}");
    };
    assert!(e.to_string().contains("damaged"), "{e}");
    // Still the file loaded before, and the same search.
    assert_eq!(engine.eval_file(), Some(repository_file().as_path()));
    let after = engine.search(Limits::depth(5)).unwrap();
    assert_eq!((after.best, after.nodes), (before.best, before.nodes));
    engine.load_eval_file(None).unwrap();
    assert_eq!(engine.eval_file(), None);
}

/// CRC-32 (IEEE), written out here so that the test does not share the loader's code.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
