//! More than two engines, game pairs, crash recovery, the engine log, opening books, draw
//! adjudication and option warnings, with mock UCI engines written in Python.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chuhe::{GameKind, Status};
use chuhe_match::{
    read_book, run_match, tally, BookFormat, DrawAdjudication, EngineLog, EngineSpec, GameReport,
    MatchConfig, MatchEvent, OpeningOrder, Openings, PlayedGame, Summary, TimeControl, Tournament,
    MAX_ROUND,
};

/// A mock engine that lists the option `Hash`, refuses any other `setoption` with an
/// `info string`, and on `go` runs `on_go` (Python with `moves`, `out(text)` and `line`).
fn mock(name: &str, on_go: &str) -> EngineSpec {
    let script = format!(
        r#"
import sys, time, os
def out(t):
    sys.stdout.write(t + "\n"); sys.stdout.flush()
moves = []
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "uci": out("id name {name}"); out("option name Hash type spin default 16 min 1 max 64"); out("uciok")
    elif w[0] == "isready": out("readyok")
    elif w[0] == "setoption":
        opt = line.split(" name ", 1)[1].split(" value ")[0].strip()
        if opt != "Hash": out("info string unknown option " + opt)
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

/// Shuffles a chariot (a1a2/a2a1 for the first side, a10a9/a9a10 for the second) and
/// reports `score cp SCORE`.
fn shuffle(score: i32) -> String {
    format!(
        r#"        first = len(moves) % 2 == 0
        k = len(moves) // 2
        out("info depth 1 score cp {score}")
        if first: out("bestmove " + ("a1a2" if k % 2 == 0 else "a2a1"))
        else: out("bestmove " + ("a10a9" if k % 2 == 0 else "a9a10"))"#
    )
}

/// Plays an illegal move at once: loses every game.
const LOSER: &str = r#"        out("bestmove a1a5")"#;

fn config(engines: Vec<EngineSpec>) -> MatchConfig {
    MatchConfig {
        game: GameKind::Xiangqi,
        engines,
        tournament: Tournament::RoundRobin,
        time_control: TimeControl::Depth(1),
        rounds: 1,
        first_round: 1,
        openings: Openings::positions(&["start"]),
        concurrency: 1,
        max_plies: 6,
        resign: None,
        draw: None,
        time_margin: Duration::from_millis(50),
        sprt: None,
        event: "test".into(),
        log: None,
    }
}

fn play(config: &MatchConfig) -> (Summary, Vec<GameReport>, Vec<String>) {
    let mut reports = Vec::new();
    let mut warnings = Vec::new();
    let summary = run_match(config, Arc::new(AtomicBool::new(false)), &mut |e| match e {
        MatchEvent::Game { report, .. } => reports.push(report.clone()),
        MatchEvent::Warning(w) => warnings.push(w.to_string()),
    })
    .expect("the match runs");
    reports.sort_by_key(|r| r.index);
    (summary, reports, warnings)
}

#[test]
fn a_gauntlet_and_a_round_robin_pair_the_engines() {
    let engines = vec![
        mock("a", &shuffle(0)),
        mock("b", LOSER),
        mock("c", &shuffle(0)),
    ];
    let mut cfg = config(engines);
    // Three games at once: pairs are counted by round whatever order games finish in.
    cfg.concurrency = 3;
    let (summary, reports, _) = play(&cfg);
    // Round-robin of three: a-b, a-c, b-c, two games each.
    assert_eq!(summary.games, 6);
    assert_eq!(summary.pairs.len(), 3);
    assert!(summary.head.is_none());
    let names: Vec<_> = summary.pairs.iter().map(|p| p.engines.clone()).collect();
    assert_eq!(
        names,
        [["a", "b"], ["a", "c"], ["b", "c"]].map(|p| p.map(String::from))
    );
    // b loses all four games; a and c draw theirs (the move cap) and beat b.
    assert_eq!(summary.standings[2].engine, "b");
    assert_eq!(summary.standings[2].points, 0.0);
    assert_eq!(summary.standings[2].elo, None, "every game lost: unbounded");
    assert_eq!(summary.standings[0].points, 3.0);
    assert_eq!(summary.standings[1].points, 3.0);
    // a vs b as one pair: both games won by a, one WW pair.
    let ab = &summary.pairs[0].figures;
    assert_eq!(ab.tally.wins, 2);
    assert_eq!(ab.pentanomial.counts, [0, 0, 0, 0, 1]);
    assert_eq!(ab.elo, None);
    // Every game has its pair and colours swapped within a round.
    assert_eq!(reports[0].engines, [0, 1]);
    assert_eq!(reports[1].engines, [1, 0]);
    assert_eq!(reports[5].engines, [2, 1]);
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["pairs"][0]["elo"], serde_json::Value::Null);
    assert_eq!(json["standings"][0]["points"], 3.0);
    cfg.tournament = Tournament::Gauntlet;
    let (summary, _, _) = play(&cfg);
    assert_eq!(summary.games, 4, "a-b and a-c only");
    assert_eq!(summary.pairs.len(), 2);
}

#[test]
fn a_crashed_engine_loses_and_is_started_again_and_the_log_has_every_line() {
    // Crashes on its first `go` ever (a marker file), then plays normally.
    let marker = std::env::temp_dir().join(format!("chuhe-crash-once-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let crash_once = mock(
        "crash-once",
        &format!(
            "        if not os.path.exists({marker:?}):\n            open({marker:?}, 'w').close(); sys.exit(1)\n{}",
            shuffle(0)
        ),
    );
    let mut cfg = config(vec![crash_once, mock("steady", &shuffle(0))]);
    cfg.rounds = 2;
    let log = Arc::new(Mutex::new(Vec::<u8>::new()));
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    cfg.log = Some(EngineLog::new(Box::new(Shared(log.clone()))));
    let (summary, reports, _) = play(&cfg);
    assert_eq!(summary.games, 4);
    assert_eq!(reports[0].outcome.status, Status::Resignation);
    assert!(
        reports[0].reason.contains("crash-once failed"),
        "{}",
        reports[0].reason
    );
    for r in &reports[1..] {
        assert_eq!(r.reason, "move cap", "game {}: {}", r.index, r.reason);
    }
    let text = String::from_utf8(log.lock().unwrap().clone()).unwrap();
    assert!(
        text.lines().any(|l| l.contains(" steady > go depth 1")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.contains(" crash-once < uciok")),
        "{text}"
    );
    // Every line starts with seconds since the log opened.
    for l in text.lines() {
        let secs = l.split_whitespace().next().unwrap();
        assert!(secs.parse::<f64>().is_ok(), "{l}");
    }
    // The crashed engine was started again: more than two handshakes for it (the check at
    // the start, the first game, the restart).
    let handshakes = text
        .lines()
        .filter(|l| l.contains("crash-once > uci"))
        .count();
    assert!(handshakes >= 3, "{handshakes}: {text}");
    let _ = std::fs::remove_file(&marker);
}

#[test]
fn unknown_options_are_warned_about() {
    let mut a = mock("a", &shuffle(0));
    a.options = vec![
        ("Hash".into(), "8".into()),
        ("Skill Level".into(), "3".into()),
    ];
    let cfg = config(vec![a, mock("b", &shuffle(0))]);
    let (summary, _, warnings) = play(&cfg);
    // One warning for the option: not listed, and refused in the engine's words.
    assert_eq!(
        warnings,
        ["engine 'a' does not list option 'Skill Level' (set to '3'); it may ignore it; it answered: info string unknown option Skill Level"]
    );
    assert_eq!(summary.warnings, warnings);
}

#[test]
fn identical_games_are_warned_about() {
    let mut cfg = config(vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))]);
    cfg.rounds = 2;
    let (_, _, warnings) = play(&cfg);
    assert!(
        warnings.iter().any(|w| w.contains("may be the same")),
        "{warnings:?}"
    );
    cfg.openings = Openings::RandomPlies { plies: 2, seed: 3 };
    let (_, _, warnings) = play(&cfg);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn draws_are_adjudicated_by_score_and_move_number() {
    let mut cfg = config(vec![mock("a", &shuffle(5)), mock("b", &shuffle(-5))]);
    cfg.max_plies = 100;
    // From move 2 on, 1 move each within 10 cp: the game ends after ply 4 (move 2, both
    // sides), before the repetition at ply 8.
    cfg.draw = Some(DrawAdjudication {
        move_number: 2,
        move_count: 1,
        score: 10,
    });
    let (_, reports, _) = play(&cfg);
    for r in &reports {
        assert_eq!(r.reason, "draw adjudication");
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.pcn.moves.len(), 4);
    }
    // Scores beyond the window never adjudicate: the repetition ends the game.
    cfg.draw = Some(DrawAdjudication {
        move_number: 1,
        move_count: 1,
        score: 4,
    });
    let (_, reports, _) = play(&cfg);
    assert_eq!(
        reports[0].outcome.status,
        Status::Repetition,
        "{}",
        reports[0].reason
    );
}

#[test]
fn books_are_read_in_every_format_and_order() {
    let game = GameKind::Xiangqi;
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let epd =
        format!("# a comment\n{start} w - - bm h2e2; id \"one\";\n{start} b - - 0 1\nstart\n");
    let book = read_book(game, &epd, BookFormat::Lines).unwrap();
    assert_eq!(book.len(), 3);
    assert_eq!(book[0].start, format!("{start} w - - 0 1"));
    assert!(read_book(game, "not a position\n", BookFormat::Lines)
        .unwrap_err()
        .contains("opening 1"));
    let pgn = "[Event \"x\"]\n[Variant \"Xiangqi\"]\n\n1. Che3 Hg8 *\n\n[Event \"y\"]\n[Variant \"Xiangqi\"]\n\n1. Hg3 *\n";
    let book = read_book(game, pgn, BookFormat::Pgn).unwrap();
    assert_eq!(book.len(), 2);
    assert_eq!(book[0].moves, ["h3e3", "h10g8"]);
    assert_eq!(book[1].moves, ["h1g3"]);
    // A PCN record: its setup and moves.
    let mut g = game.new_game("start").unwrap();
    g.play_text("h3e3", chuhe::MoveNotation::Uci).unwrap();
    let pcn = chuhe::record::to_pcn(g.as_ref(), &[]);
    let book = read_book(game, &pcn.to_json_pretty(), BookFormat::Pcn).unwrap();
    assert_eq!(book[0].moves, ["h3e3"]);
    // The games start from the book: the PGN's moves come first in every record.
    let mut cfg = config(vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))]);
    cfg.openings = Openings::Book {
        openings: read_book(game, pgn, BookFormat::Pgn).unwrap(),
        order: OpeningOrder::Sequential,
    };
    cfg.rounds = 2;
    cfg.max_plies = 1;
    // The mocks' shuffle is illegal after these openings for some; only the records' first
    // moves matter here.
    let (_, reports, _) = play(&cfg);
    assert_eq!(reports[0].pcn.moves[0].0, "h3-e3");
    assert_eq!(reports[2].pcn.moves[0].0, "h1-g3");
    // A random order is a seeded shuffle: the same seed, the same order.
    let first_moves = [
        "a1a2", "b1c3", "c1e3", "d1e2", "e1e2", "g1e3", "h1g3", "i1i2", "b3e3", "h3e3",
    ];
    let order = |seed| {
        let mut cfg = config(vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))]);
        cfg.max_plies = 0;
        cfg.rounds = 10;
        cfg.openings = Openings::Book {
            openings: first_moves
                .iter()
                .map(|m| chuhe_match::Opening {
                    start: "start".into(),
                    moves: vec![m.to_string()],
                })
                .collect(),
            order: OpeningOrder::Random { seed },
        };
        let (_, reports, _) = play(&cfg);
        reports
            .iter()
            .step_by(2)
            .map(|r| r.pcn.moves[0].0.clone())
            .collect::<Vec<_>>()
    };
    let first = order(7);
    assert_eq!(first, order(7));
    assert_ne!(first, order(8));
    let mut sorted = first.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 10, "every opening once");
}

/// What identifies a game across two matches: its number, round, start and moves.
fn game_key(r: &GameReport) -> (usize, u32, String, Vec<String>) {
    let moves = r.pcn.moves.iter().map(|(m, _)| m.clone()).collect();
    (r.index, r.round, r.pcn.setup.clone(), moves)
}

#[test]
fn a_match_from_round_n_plays_what_the_whole_match_plays_from_there() {
    let engines = || vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))];
    let books = [
        Openings::positions(&[
            "start",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        ]),
        Openings::RandomPlies { plies: 4, seed: 7 },
    ];
    for openings in books {
        let mut whole = config(engines());
        whole.rounds = 4;
        whole.openings = openings.clone();
        let (_, all, _) = play(&whole);
        let mut rest = config(engines());
        rest.rounds = 2;
        rest.first_round = 3;
        rest.openings = openings;
        let (summary, later, _) = play(&rest);
        assert_eq!(summary.games, 4);
        assert!(!summary.interrupted);
        let expected: Vec<_> = all[4..].iter().map(game_key).collect();
        let got: Vec<_> = later.iter().map(game_key).collect();
        assert_eq!(
            got, expected,
            "rounds 3 and 4, numbered as in the whole match"
        );
        // Rounds 3 and 4 are not rounds 1 and 2 again.
        let opening = |k: &(usize, u32, String, Vec<String>)| (k.2.clone(), k.3.clone());
        assert_ne!(opening(&game_key(&all[0])), opening(&got[0]));
    }
    let mut bad = config(engines());
    bad.first_round = 0;
    assert!(
        run_match(&bad, Arc::new(AtomicBool::new(false)), &mut |_| {})
            .unwrap_err()
            .to_string()
            .contains("--from-round")
    );
}

#[test]
fn a_match_past_the_last_round_is_refused_at_once() {
    // Random lines are drawn in turn from round 1: a mistyped --from-round would draw them
    // for hours, and every round is scheduled up front. Refused before any engine starts.
    let refusal = |first_round: u32, rounds: u32| {
        let mut cfg = config(vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))]);
        cfg.openings = Openings::RandomPlies { plies: 4, seed: 7 };
        cfg.first_round = first_round;
        cfg.rounds = rounds;
        run_match(&cfg, Arc::new(AtomicBool::new(false)), &mut |_| {})
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        refusal(4_000_000_000, 1).as_deref(),
        Some(
            "--from-round 4000000000 and --rounds 1 reach round 4000000000; \
             a match has at most 1000000 rounds"
        )
    );
    assert_eq!(
        refusal(u32::MAX, u32::MAX).as_deref(),
        Some(
            "--from-round 4294967295 and --rounds 4294967295 reach round 8589934589; \
             a match has at most 1000000 rounds"
        )
    );
    assert!(
        refusal(MAX_ROUND, 2).is_some_and(|e| e.contains("reach round 1000001;")),
        "one round past the last"
    );
}

#[test]
fn a_stopped_match_plays_out_the_rounds_begun_and_says_so() {
    // Stopped before it begins: no game, and the summary says it was interrupted.
    let mut cfg = config(vec![mock("a", &shuffle(0)), mock("b", &shuffle(0))]);
    cfg.rounds = 3;
    let summary = run_match(&cfg, Arc::new(AtomicBool::new(true)), &mut |_| {}).unwrap();
    assert_eq!((summary.games, summary.interrupted), (0, true));

    // Stopped when the first game ends, three games at once: whatever the timing, the pairs
    // begun are played out and no new one begins (the order itself is tested in the crate).
    cfg.concurrency = 3;
    let stop = Arc::new(AtomicBool::new(false));
    let mut finished = Vec::new();
    let summary = run_match(&cfg, stop.clone(), &mut |e| {
        if let MatchEvent::Game { report, .. } = e {
            stop.store(true, Ordering::SeqCst);
            finished.push(report.index);
        }
    })
    .unwrap();
    finished.sort();
    let head = summary.head.as_ref().unwrap();
    assert_eq!(summary.games % 2, 0, "whole pairs only: {finished:?}");
    assert_eq!(head.pentanomial.pairs * 2, summary.games);
    assert_eq!(summary.interrupted, summary.games < 6);
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["interrupted"], summary.interrupted);
}

#[test]
fn tally_counts_the_records_of_a_match_as_the_match_did() {
    let mut cfg = config(vec![
        mock("a", &shuffle(0)),
        mock("b", LOSER),
        mock("c", &shuffle(0)),
    ]);
    cfg.rounds = 2;
    let (summary, reports, _) = play(&cfg);
    // Read back in another order, as files of a folder may be: the same figures.
    let mut games: Vec<PlayedGame> = reports
        .iter()
        .map(|r| PlayedGame {
            label: format!("game-{}", r.index + 1),
            group: 0,
            pcn: r.pcn.clone(),
        })
        .collect();
    games.reverse();
    let again = tally(&games, None).unwrap();
    assert_eq!(again.games, 12);
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.endings, summary.endings);
    // Ties stand in the engines' order, which differs (the records name c first, the match
    // a): compare by name.
    let standings = |s: &Summary| {
        let value = serde_json::to_value(s).unwrap();
        let mut list = value["standings"].as_array().unwrap().clone();
        list.sort_by_key(|e| e["engine"].to_string());
        list
    };
    assert_eq!(standings(&again), standings(&summary));
    for pair in &summary.pairs {
        let same = again
            .pairs
            .iter()
            .find(|p| {
                p.engines == pair.engines || p.engines == [1, 0].map(|i| pair.engines[i].clone())
            })
            .unwrap();
        let (t, u) = (&same.figures.tally, &pair.figures.tally);
        let counts = same.figures.pentanomial.counts;
        if same.engines == pair.engines {
            assert_eq!((t.wins, t.draws, t.losses), (u.wins, u.draws, u.losses));
            assert_eq!(counts, pair.figures.pentanomial.counts);
        } else {
            assert_eq!((t.wins, t.draws, t.losses), (u.losses, u.draws, u.wins));
            let mut reversed = pair.figures.pentanomial.counts;
            reversed.reverse();
            assert_eq!(counts, reversed);
        }
    }
}

#[test]
fn tally_refuses_records_it_cannot_pair_and_names_the_file() {
    let start = "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / X/x";
    let record = |label: &str, round: &str, first: &str, second: &str, end: &str| PlayedGame {
        label: label.into(),
        group: 0,
        pcn: chuhe::notation::pcn::Pcn::from_json(&format!(
            r#"{{"meta": {{"game": "xiangqi"{round}}},
                "sides": {{"first": {{"name": "{first}"}}, "second": {{"name": "{second}"}}}},
                "setup": "{start}", "moves": [["h1-g3", 1.0]]{end}}}"#
        ))
        .unwrap(),
    };
    let won = r#", "status": "resignation", "winner": "first""#;
    let r1 = r#", "round": 1"#;
    let refusal = |games: &[PlayedGame]| tally(games, None).unwrap_err().to_string();
    let ab = record("g1", r1, "a", "b", won);
    let ba = record("g2", r1, "b", "a", won);
    // A round's second game with the same colours, a third game, no round, no result.
    let again = record("g3", r1, "a", "b", won);
    assert!(refusal(&[ab.clone(), again.clone()])
        .starts_with("g3: round 1: 'a' had the first move in both"));
    let third = record("g3", r1, "b", "a", won);
    assert!(refusal(&[ab.clone(), ba.clone(), third]).contains("g3: a third game of round 1"));
    assert!(refusal(&[record("g4", "", "a", "b", won)]).contains("g4: no meta.round"));
    assert!(refusal(&[record("g5", r1, "a", "b", "")]).contains("g5: the game is not finished"));
    assert!(refusal(&[record("g6", r1, "a", "a", won)]).contains("played both sides"));
    // A result the rules contradict: the record is replayed.
    let mate = r#", "status": "checkmate", "winner": "first""#;
    assert!(refusal(&[record("g7", r1, "a", "b", mate)]).starts_with("g7: "));
    assert!(refusal(&[]).contains("no game records"));
    // The same round in another group is another pair; a lone game is a warning.
    let other = PlayedGame { group: 1, ..again };
    let summary = tally(&[ab, ba, other], None).unwrap();
    let head = summary.head.unwrap();
    assert_eq!((summary.games, head.pentanomial.pairs), (3, 1));
    assert_eq!(
        head.pentanomial.counts,
        [0, 0, 1, 0, 0],
        "a won once each way"
    );
    assert_eq!(
        summary.warnings,
        ["round 1 of a vs b (group 2): one game only, left out of the game pairs"]
    );
}

/// Pikafish's coordinates: ranks counted from 0 (`a0a1`, `a9a8`). The mock plays a chariot
/// shuffle in them, and answers an illegal move if it is ever sent a rank 10 or a move it
/// did not play (so a match that did not translate both ways is lost at once).
const RANKS_FROM_ZERO: &str = r#"        first = len(moves) % 2 == 0
        k = len(moves) // 2
        mine = [("a0a1" if i % 2 == 0 else "a1a0") for i in range(k + 1)]
        theirs = [("a9a8" if i % 2 == 0 else "a8a9") for i in range(k + 1)]
        expected = [m for pair in zip(mine, theirs) for m in pair][:len(moves)] if first else None
        if any("10" in m for m in moves) or (first and moves != expected):
            out("bestmove a0a5")
        elif first: out("bestmove " + mine[k])
        else: out("bestmove " + theirs[k])"#;

#[test]
fn an_engine_whose_ranks_start_at_zero_is_spoken_to_in_its_coordinates() {
    let mut zero = mock("zero", RANKS_FROM_ZERO);
    zero.first_rank = 0;
    let mut cfg = config(vec![zero.clone(), zero]);
    cfg.engines[1].name = "zero-2".into();
    let (summary, reports, _) = play(&cfg);
    assert_eq!(summary.games, 2);
    for r in &reports {
        assert_eq!(r.reason, "move cap", "game {}: {}", r.index, r.reason);
        // The record keeps chuhe's coordinates.
        assert_eq!(r.pcn.moves[0].0, "a1-a2");
    }
    // Without ranks=0 the same engine's first move is read as chuhe's a0: illegal.
    let (_, reports, _) = play(&config(vec![
        mock("zero", RANKS_FROM_ZERO),
        mock("b", &shuffle(0)),
    ]));
    assert!(
        reports[0].reason.contains("illegal move 'a0a1'"),
        "{}",
        reports[0].reason
    );
}
