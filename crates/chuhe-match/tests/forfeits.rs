//! Losses that are not decided on the board: an illegal move, a crash, a time forfeit, and
//! the move cap, with mock UCI engines written in Python (python3 runs the test suite).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use chuhe::{GameKind, Status};
use chuhe_match::{
    run_match, EngineSpec, GameReport, MatchConfig, MatchEvent, Openings, TimeControl, Tournament,
};

/// A mock engine: answers the handshake, then on `go` does what `on_go` says (Python code
/// with `moves`, the list of moves of the last `position` command, and `out(text)`).
fn mock(name: &str, on_go: &str) -> EngineSpec {
    let script = format!(
        r#"
import sys, time
def out(t):
    sys.stdout.write(t + "\n"); sys.stdout.flush()
moves = []
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "uci": out("id name {name}"); out("uciok")
    elif w[0] == "isready": out("readyok")
    elif w[0] == "position": moves = w[w.index("moves") + 1:] if "moves" in w else []
    elif w[0] == "go":
{on_go}
    elif w[0] == "quit": break
"#
    );
    EngineSpec {
        name: name.to_string(),
        // The script goes on the command line (`python3 -c`): no file is left behind.
        command: "python3".into(),
        args: vec!["-c".into(), script],
        options: Vec::new(),
        time_control: None,
        first_rank: 1,
    }
}

/// Shuffles a chariot: a1a2, a2a1, … for the first side; a10a9, a9a10 for the second.
const SHUFFLE: &str = r#"        first = len(moves) % 2 == 0
        k = len(moves) // 2
        if first: out("bestmove " + ("a1a2" if k % 2 == 0 else "a2a1"))
        else: out("bestmove " + ("a10a9" if k % 2 == 0 else "a9a10"))"#;

fn play(engines: [EngineSpec; 2], tc: TimeControl, max_plies: u32) -> Vec<GameReport> {
    let config = MatchConfig {
        game: GameKind::Xiangqi,
        engines: engines.to_vec(),
        tournament: Tournament::RoundRobin,
        time_control: tc,
        rounds: 1,
        first_round: 1,
        openings: Openings::positions(&["start"]),
        concurrency: 1,
        max_plies,
        resign: None,
        draw: None,
        time_margin: Duration::from_millis(50),
        sprt: None,
        event: "test".into(),
        log: None,
    };
    let mut reports = Vec::new();
    let summary = run_match(&config, Arc::new(AtomicBool::new(false)), &mut |e| {
        if let MatchEvent::Game { report, .. } = e {
            reports.push(report.clone())
        }
    })
    .expect("the match runs");
    assert_eq!(summary.games, 2);
    reports.sort_by_key(|r| r.index);
    reports
}

#[test]
fn an_illegal_move_loses_and_is_recorded() {
    let bad = mock("bad", r#"        out("bestmove a1a5")"#);
    let good = mock("good", SHUFFLE);
    let reports = play(
        [bad, good],
        TimeControl::MoveTime(Duration::from_millis(10)),
        50,
    );
    for r in &reports {
        assert_eq!(r.outcome.status, Status::Illegalmove, "{}", r.reason);
        assert!(
            r.reason.contains("illegal move 'a1a5' by bad"),
            "{}",
            r.reason
        );
        assert_eq!(r.score_for(0), 0.0);
    }
    // As the first side "bad" moves at once; as the second it answers one good move.
    assert_eq!(reports[0].pcn.moves.len(), 0);
    assert_eq!(reports[1].pcn.moves.len(), 1);
}

#[test]
fn a_crash_and_a_time_forfeit_lose() {
    let crash = mock("crash", "        sys.exit(1)");
    let good = mock("good", SHUFFLE);
    for r in play(
        [good.clone(), crash],
        TimeControl::MoveTime(Duration::from_millis(10)),
        50,
    ) {
        assert_eq!(r.outcome.status, Status::Resignation, "{}", r.reason);
        assert!(r.reason.contains("crash failed"), "{}", r.reason);
        assert_eq!(r.score_for(0), 1.0);
    }
    let slow = mock("slow", "        time.sleep(0.5); out(\"bestmove a1a2\")");
    let clock = TimeControl::Clock {
        base: Duration::from_millis(200),
        increment: Duration::ZERO,
    };
    for r in play([good, slow], clock, 50) {
        assert_eq!(r.outcome.status, Status::Timelimit, "{}", r.reason);
        assert!(r.reason.contains("time forfeit by slow"), "{}", r.reason);
        assert_eq!(r.score_for(0), 1.0);
    }
}

#[test]
fn repetition_and_the_move_cap_are_judged_by_chuhe() {
    let a = mock("a", SHUFFLE);
    let b = mock("b", SHUFFLE);
    let reports = play([a.clone(), b.clone()], TimeControl::Nodes(1), 400);
    for r in &reports {
        // The chariots shuffle: the start position comes back a third time after 8 plies.
        assert_eq!(r.outcome.status, Status::Repetition, "{}", r.reason);
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.pcn.moves.len(), 8);
        assert_eq!(r.pcn.moves[0].0, "a1-a2");
        // The record replays legally to the same ending.
        let mut game = GameKind::Xiangqi
            .new_game(&r.pcn.setup)
            .expect("setup reads");
        for (pmn, _) in &r.pcn.moves {
            game.play_text(pmn, chuhe::MoveNotation::Pmn)
                .expect("recorded move is legal");
        }
        assert_eq!(game.outcome(), Some(r.outcome));
        assert_eq!(r.pcn.status, Some(Status::Repetition));
    }
    for r in play([a, b], TimeControl::Depth(1), 3) {
        assert_eq!(r.outcome.status, Status::Movelimit);
        assert_eq!(r.reason, "move cap");
        assert_eq!(r.pcn.moves.len(), 3);
        assert_eq!(r.pcn.winner, Some(chuhe::notation::pcn::Winner::None));
    }
}

#[test]
fn an_engine_may_have_its_own_time_control() {
    // Each mock plays legally only when its `go` carries its own limit; otherwise it plays an
    // illegal move, which would end the game at once.
    let check = |limit: &str| {
        format!(
            "        if \"{limit}\" not in line: out(\"bestmove a1a5\")\n        else:\n{}",
            SHUFFLE
                .lines()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    };
    let mut by_nodes = mock("by-nodes", &check("nodes 777"));
    by_nodes.time_control = Some(TimeControl::Nodes(777));
    let by_clock = mock("by-clock", &check("winc 0 binc 0"));
    let reports = play(
        [by_nodes, by_clock],
        TimeControl::Clock {
            base: Duration::from_secs(5),
            increment: Duration::ZERO,
        },
        6,
    );
    for r in &reports {
        assert_eq!(r.reason, "move cap", "{}", r.reason);
        assert_eq!(r.pcn.moves.len(), 6);
    }
}
