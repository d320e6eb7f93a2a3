//! The UCI / UCCI driver in process: commands go in through a channel, answers come back
//! line by line, and every answer is checked against the rules library.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use chuhe::{xiangqi, xiongqi, GameKind, GamePosition, MoveNotation};
use chuhe_engine::uci;

/// Input fed line by line from the test.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(bytes) => {
                    self.buf = bytes;
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.buf.len());
    }
}

/// Output handed to the test one line at a time.
struct ChannelWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.partial))
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A running driver.
struct Session {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    driver: Option<JoinHandle<io::Result<()>>>,
}

const WAIT: Duration = Duration::from_secs(60);

impl Session {
    fn start(game: GameKind) -> Session {
        let (in_tx, in_rx) = mpsc::channel();
        let (out_tx, out_rx) = mpsc::channel();
        let reader = ChannelReader {
            rx: in_rx,
            buf: Vec::new(),
            pos: 0,
        };
        let writer = ChannelWriter {
            tx: out_tx,
            partial: Vec::new(),
        };
        let driver = std::thread::spawn(move || uci::run(game, reader, writer));
        Session {
            input: Some(in_tx),
            output: out_rx,
            driver: Some(driver),
        }
    }

    fn send(&self, line: &str) {
        if let Some(tx) = &self.input {
            tx.send(format!("{line}\n").into_bytes())
                .expect("driver alive");
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    lines.push(line);
                    if stop {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time; so far: {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the driver ended; so far: {lines:?}")
                }
            }
        }
    }

    /// Sends `isready` and returns what came before `readyok`.
    fn sync(&self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines up to the best move; returns them and the move (`None` for `(none)`).
    fn best_move(&self) -> (Vec<String>, Option<String>) {
        let lines = self.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        let last = lines.last().cloned().unwrap_or_default();
        let best = last
            .split_whitespace()
            .nth(1)
            .filter(|m| *m != "(none)")
            .map(str::to_string);
        (lines, best)
    }

    /// The FEEN that `d` shows.
    fn feen(&self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("feen: "));
        lines.last().unwrap()["feen: ".len()..].to_string()
    }

    /// Closes the input and waits for the driver.
    fn finish(mut self) -> (Vec<String>, io::Result<()>) {
        self.input.take();
        let result = self.driver.take().unwrap().join().expect("no panic");
        let rest = self.output.try_iter().collect();
        (rest, result)
    }
}

/// Is `text` a legal move after `moves` from `position`, in `notation`?
fn legal(
    game: GameKind,
    position: &str,
    moves: &[&str],
    notation: MoveNotation,
    text: &str,
) -> bool {
    let mut g = game.new_game(position).unwrap();
    for m in moves {
        g.play_text(m, notation).unwrap();
    }
    g.legal_moves_text(notation)
        .unwrap()
        .iter()
        .any(|m| m == text)
}

const XIANGQI_START_FEEN: &str =
    "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x";
const XIONGQI_START_FEEN: &str = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x";

#[test]
fn handshake_names_the_engine_and_every_option() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name chuhe "), "{lines:?}");
    assert!(lines.contains(&"id author the chuhe developers".to_string()));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Skill Level",
        "Move Overhead",
        "UCI_Variant",
        "Clear Hash",
        "Evaluation",
        "Ponder",
        "UCI_AnalyseMode",
        "UCI_ShowWDL",
        "EvalFile",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {lines:?}"
        );
    }
    let variant = lines.iter().find(|l| l.contains("UCI_Variant")).unwrap();
    assert!(variant.contains("type combo default xiangqi"), "{variant}");
    for g in ["xiongqi", "xiangqi", "xiangqi-capture"] {
        assert!(variant.contains(&format!("var {g}")), "{variant}");
    }
    assert!(s.sync().is_empty());
    s.send("quit");
    let (_, result) = s.finish();
    assert!(result.is_ok());
}

#[test]
fn the_variant_default_follows_the_game_given() {
    let s = Session::start(GameKind::Xiongqi);
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.contains("UCI_Variant type combo default xiongqi")));
    assert_eq!(s.feen(), XIONGQI_START_FEEN);
}

#[test]
fn a_search_from_a_position_gives_a_legal_move_and_info_lines() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("position startpos moves h3e3 h10g8");
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    let best = best.expect("a move");
    assert!(
        legal(
            GameKind::Xiangqi,
            "start",
            &["h3e3", "h10g8"],
            MoveNotation::Uci,
            &best
        ),
        "{best}"
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for info in &infos {
        for field in [
            "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull",
        ] {
            assert!(info.contains(&format!(" {field} ")), "{field}: {info}");
        }
    }
    assert!(
        infos.last().unwrap().starts_with("info depth 3 "),
        "{infos:?}"
    );
    let pv: Vec<&str> = infos
        .last()
        .unwrap()
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(pv[0], best);
}

#[test]
fn a_fen_with_spaces_and_slashes_is_read_whole() {
    let s = Session::start(GameKind::Xiangqi);
    s.send(&format!("position fen {XIANGQI_START_FEEN} moves h3e3"));
    assert!(s.sync().is_empty());
    assert_eq!(
        s.feen(),
        "rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / x/X"
    );
    s.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert!(s.sync().is_empty());
    assert_eq!(s.feen(), XIANGQI_START_FEEN);
}

#[test]
fn bad_input_is_one_info_string_and_changes_nothing() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("position startpos moves h3e3");
    assert!(s.sync().is_empty());
    let before = s.feen();
    let long = "x".repeat(500);
    let bad = [
        "frobnicate".to_string(),
        long.clone(),
        "setoption name Hash value lots".to_string(),
        "setoption name Hash value 0".to_string(),
        "setoption name Threads value -3".to_string(),
        "setoption name Skill Level value 21".to_string(),
        "setoption name UCI_Variant value chess".to_string(),
        "setoption name NoSuchOption value 1".to_string(),
        "setoption name Hash".to_string(),
        "setoption".to_string(),
        "go depth".to_string(),
        "go depth deep".to_string(),
        "go sideways".to_string(),
        "go wtime 10 btime".to_string(),
        "go searchmoves".to_string(),
        "go searchmoves a1a1 depth 2".to_string(),
        "go time 1000".to_string(),
        format!("go {long}"),
    ];
    for command in &bad {
        s.send(command);
        let lines = s.sync();
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        assert!(lines[0].starts_with("info string "), "{command}: {lines:?}");
        assert!(
            lines[0].len() < 300,
            "{command}: not cut short: {}",
            lines[0]
        );
        assert_eq!(s.feen(), before, "{command} changed the position");
    }
    // Still usable, still at the same position, options unchanged.
    assert_plays_after_h3e3(&s);
    let lines = handshake(&s);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin default 16 ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Skill Level type spin default 20 ")));
}

/// A refused `position` is said at once, and the next `go` answers for no position at all:
/// never a move for the position before it.
#[test]
fn a_refused_position_leaves_no_position_to_search() {
    let s = Session::start(GameKind::Xiangqi);
    let long = "x".repeat(500);
    let bad = [
        "position startpos moves h10g8 h3e3".to_string(),
        "position startpos moves b3b10 zz".to_string(),
        "position fen rheag^aehr/9/oops / X/x".to_string(),
        "position fen".to_string(),
        "position".to_string(),
        "position sideways".to_string(),
        "position startpos h3e3".to_string(),
        format!("position fen {long}"),
    ];
    for command in &bad {
        s.send("position startpos moves h3e3");
        assert!(s.sync().is_empty());
        s.send(command);
        let lines = s.sync();
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        assert!(
            lines[0].starts_with("info string position refused: ") && lines[0].len() < 300,
            "{command}: {lines:?}"
        );
        s.send("go depth 2");
        let (lines, best) = s.best_move();
        assert_eq!(best, None, "{command}: {lines:?}");
        assert!(
            lines[0].starts_with("info string no position to search"),
            "{command}: {lines:?}"
        );
    }
    // A position accepted again is searched.
    s.send("position startpos moves h3e3");
    assert_plays_after_h3e3(&s);
}

/// `go depth 2` answers a legal move of the Xiangqi position after `h3e3`.
fn assert_plays_after_h3e3(s: &Session) {
    s.send("go depth 2");
    let (_, best) = s.best_move();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3"],
        MoveNotation::Uci,
        &best.unwrap()
    ));
}

#[test]
fn options_are_set_by_case_insensitive_names() {
    let s = Session::start(GameKind::Xiangqi);
    for command in [
        "setoption name hash value 8",
        "setoption name THREADS value 2",
        "setoption name multipv value 3",
        "setoption name skill level value 20",
        "setoption name Move Overhead value 30",
        "setoption name clear hash",
        "setoption name uci_variant value XIONGQI",
        "setoption name evaluation value Material",
        "setoption name Ponder value true",
        "setoption name UCI_AnalyseMode value true",
    ] {
        s.send(command);
        assert!(s.sync().is_empty(), "{command}");
    }
    assert_refused(
        &s,
        "setoption name Evaluation value sometimes",
        "Evaluation",
    );
    let lines = handshake(&s);
    for expected in [
        "option name Hash type spin default 8 ",
        "option name Threads type spin default 2 ",
        "option name MultiPV type spin default 3 ",
        "option name Move Overhead type spin default 30 ",
        "option name UCI_Variant type combo default xiongqi ",
        "option name Evaluation type combo default material ",
        "option name Ponder type check default true",
        "option name UCI_AnalyseMode type check default true",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(expected)),
            "{expected}: {lines:?}"
        );
    }
    // MultiPV 3: three lines at the last depth.
    s.send("setoption name Threads value 1");
    s.send("go depth 2");
    let (lines, _) = s.best_move();
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 2 ") && l.contains(&format!(" multipv {k} "))),
            "{k}: {lines:?}"
        );
    }
}

#[test]
fn the_variant_switches_between_every_game() {
    let s = Session::start(GameKind::Xiangqi);
    for (game, feen, position) in [
        (GameKind::Xiongqi, XIONGQI_START_FEEN, "e3e4"),
        (GameKind::XiangqiCapture, XIANGQI_START_FEEN, "h3e3"),
        (GameKind::Xiangqi, XIANGQI_START_FEEN, "h3e3"),
    ] {
        s.send(&format!("setoption name UCI_Variant value {}", game.name()));
        assert!(s.sync().is_empty(), "{game}");
        s.send("d");
        let lines = s.until(|l| l.starts_with("feen: "));
        assert!(lines.contains(&format!("game: {game}")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("feen: {feen}"));
        s.send(&format!("position startpos moves {position}"));
        s.send("go depth 2");
        let (_, best) = s.best_move();
        let best = best.unwrap();
        assert!(
            legal(game, "start", &[position], MoveNotation::Uci, &best),
            "{game}: {best}"
        );
    }
}

#[test]
fn xiongqi_promotions_are_written_with_the_piece_letter() {
    let s = Session::start(GameKind::Xiongqi);
    // South's soldier on e7 promotes on e8; North's general is far away.
    let position = "g^7/4+S3/8/8/8/8/8/7G^ / X/x";
    s.send(&format!("position fen {position}"));
    s.send("go depth 1 searchmoves e7e8e");
    let (_, best) = s.best_move();
    assert_eq!(best.as_deref(), Some("e7e8e"));
    assert!(legal(
        GameKind::Xiongqi,
        position,
        &[],
        MoveNotation::Uci,
        "e7e8e"
    ));
    s.send(&format!("position fen {position} moves e7e8r"));
    assert!(s.sync().is_empty());
    assert_eq!(s.feen(), "g^3R3/8/8/8/8/8/8/7G^ / x/X");
    // A search may choose any promotion; whatever it writes is a legal move.
    s.send(&format!("position fen {position}"));
    s.send("go depth 3");
    let (_, best) = s.best_move();
    assert!(legal(
        GameKind::Xiongqi,
        position,
        &[],
        MoveNotation::Uci,
        &best.unwrap()
    ));
}

#[test]
fn a_finished_game_has_no_best_move() {
    let s = Session::start(GameKind::Xiangqi);
    // Checkmate: Black to move, mated by the chariot on d1.
    s.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1");
    s.send("go depth 5");
    let (lines, best) = s.best_move();
    assert_eq!(best, None);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score mate 0"),
        "{lines:?}"
    );
    // Xiongqi: North's general was taken.
    s.send("setoption name UCI_Variant value xiongqi");
    s.send("position fen 8/8/8/8/8/8/8/3RG^3 / x/X");
    s.send("go infinite");
    let (_, best) = s.best_move();
    assert_eq!(best, None);
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_it() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let before = s.sync();
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")));
    s.send("stop");
    let (_, best) = s.best_move();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &[],
        MoveNotation::Uci,
        &best.unwrap()
    ));
    // movetime ends by itself.
    let started = Instant::now();
    s.send("go movetime 200");
    let (_, best) = s.best_move();
    assert!(best.is_some());
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn commands_sent_during_a_search_run_after_it() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("go infinite");
    s.send("position startpos moves h3e3");
    s.send("setoption name UCI_Variant value xiongqi");
    s.send("position startpos moves d3d4");
    s.send("d");
    std::thread::sleep(Duration::from_millis(100));
    s.send("stop");
    let lines = s.until(|l| l.starts_with("feen: "));
    let best_at = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let game_at = lines.iter().position(|l| l == "game: xiongqi").unwrap();
    assert!(best_at < game_at, "{lines:?}");
    // The best move is one of Xiangqi's start position, searched before the change.
    let best = lines[best_at].split_whitespace().nth(1).unwrap();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &[],
        MoveNotation::Uci,
        best
    ));
    assert_eq!(
        lines.last().unwrap(),
        "feen: rhbag^bhr/2c2c2/ssssssss/8/3S4/SSS1SSSS/2C2C2/RHBAG^BHR / x/X"
    );
}

#[test]
fn pondering_waits_for_ponderhit() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("position startpos moves h3e3");
    s.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    let lines = s.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    s.send("ponderhit");
    let (_, best) = s.best_move();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3"],
        MoveNotation::Uci,
        &best.unwrap()
    ));
    // A ponder miss: stop answers at once.
    s.send("go ponder wtime 2000 btime 2000");
    s.send("stop");
    let (_, best) = s.best_move();
    assert!(best.is_some());
}

#[test]
fn a_go_without_limits_searches_until_stop() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("go");
    std::thread::sleep(Duration::from_millis(200));
    let lines = s.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    s.send("stop");
    let (_, best) = s.best_move();
    assert!(best.is_some());
}

#[test]
fn a_short_infinite_search_holds_its_move_until_stop() {
    let s = Session::start(GameKind::Xiongqi);
    // A nearly empty board: a depth-2 search ends at once.
    s.send("position fen 7g^/8/8/8/8/8/S7/G^7 / X/x");
    s.send("go infinite depth 2");
    std::thread::sleep(Duration::from_millis(300));
    let lines = s.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    s.send("stop");
    let (_, best) = s.best_move();
    assert!(best.is_some());
}

#[test]
fn perft_counts_from_the_position() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("go perft 2");
    let lines = s.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    let moves = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"));
    assert_eq!(moves.count(), 44);
}

#[test]
fn ucci_speaks_iccs_and_says_bye() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("ucci");
    let lines = s.until(|l| l == "ucciok");
    assert!(lines[0].starts_with("id name chuhe "));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option usemillisec type check")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option hashsize type spin")));
    s.send("setoption usemillisec true");
    s.send("setoption hashsize 0");
    assert!(s.sync().is_empty());
    s.send("position startpos moves h2e2 h9g7");
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    let best = best.unwrap();
    assert!(
        legal(
            GameKind::Xiangqi,
            "start",
            &["h2e2", "h9g7"],
            MoveNotation::Iccs,
            &best
        ),
        "{best}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 3 score ") && l.contains(" pv ")));
    // Clock in milliseconds (usemillisec): a short think.
    let started = Instant::now();
    s.send("go time 3000 increment 0 opptime 3000");
    let (_, best) = s.best_move();
    assert!(best.is_some());
    assert!(started.elapsed() < Duration::from_secs(3));
    // banmoves: only the moves left may be played.
    s.send("position startpos");
    s.send("banmoves h2e2");
    s.send("go depth 2 searchmoves h2e2 b2e2");
    let (_, best) = s.best_move();
    assert_eq!(best.as_deref(), Some("b2e2"));
    // A finished game.
    s.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1");
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    assert_eq!(best, None);
    assert_eq!(lines.last().unwrap(), "nobestmove");
    s.send("quit");
    let lines = s.until(|l| l == "bye");
    assert_eq!(lines, ["bye"]);
    let (_, result) = s.finish();
    assert!(result.is_ok());
}

#[test]
fn the_end_of_input_lets_a_search_finish() {
    let input = "position startpos moves h3e3\ngo depth 3\nd\n";
    let mut out = Vec::new();
    uci::run_blocking(GameKind::Xiangqi, input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best move");
    let best = best.split_whitespace().next().unwrap();
    assert!(legal(
        GameKind::Xiangqi,
        "start",
        &["h3e3"],
        MoveNotation::Uci,
        best
    ));
    assert!(text.contains("info depth 3 "), "{text}");
    assert!(text.trim_end().ends_with("/ x/X"), "{text}");
    // An infinite search at the end of the input is stopped.
    let mut out = Vec::new();
    uci::run_blocking(GameKind::Xiongqi, b"go infinite\n", &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("bestmove "));
}

/// A writer that always fails.
struct Broken;

impl Write for Broken {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("disk full"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_output_that_cannot_be_written_ends_the_driver_with_its_error() {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = ChannelReader {
        rx,
        buf: Vec::new(),
        pos: 0,
    };
    tx.send(b"uci\n".to_vec()).unwrap();
    // The input stays open: the driver must end on the write error alone.
    let result = uci::run(GameKind::Xiangqi, reader, Broken);
    assert_eq!(result.unwrap_err().to_string(), "disk full");
    drop(tx);
}

#[test]
fn random_input_never_breaks_the_driver() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    const WORDS: [&str; 44] = [
        "uci",
        "ucci",
        "isready",
        "ucinewgame",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "Skill",
        "Level",
        "UCI_Variant",
        "xiongqi",
        "xiangqi-capture",
        "usemillisec",
        "position",
        "startpos",
        "fen",
        "moves",
        "h3e3",
        "e3e4",
        "h2e2",
        "e7e8e",
        "b3b10",
        "/",
        "X/x",
        "rheag^aehr/9",
        "go",
        "depth",
        "nodes",
        "movetime",
        "searchmoves",
        "ponder",
        "infinite",
        "perft",
        "time",
        "banmoves",
        "stop",
        "ponderhit",
        "d",
        "0",
        "2",
        "-1",
    ];
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..50 {
        let mut input = String::new();
        for _ in 0..40 {
            let n = rng.gen_range(1..6);
            let line: Vec<&str> = (0..n)
                .map(|_| WORDS[rng.gen_range(0..WORDS.len())])
                .collect();
            input.push_str(&line.join(" "));
            input.push('\n');
        }
        input.push_str("isready\n");
        let mut out = Vec::new();
        uci::run_blocking(GameKind::Xiangqi, input.as_bytes(), &mut out)
            .unwrap_or_else(|e| panic!("{e}: {input}"));
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.trim_end().ends_with("readyok") || text.contains("bestmove"),
            "{input}\n{text}"
        );
    }
}

// ----- the position is the GUI's (issue 28) --------------------------------------------------

/// Sends `command`, which must be refused by one `info string` line that names `naming`.
fn assert_refused(s: &Session, command: &str, naming: &str) {
    s.send(command);
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string") && said[0].contains(naming),
        "{command}: {said:?}"
    );
}

/// Does the `uci` handshake hold a line that starts with `prefix`?
fn announces(s: &Session, prefix: &str) -> bool {
    handshake(s).iter().any(|l| l.starts_with(prefix))
}

/// The lines of the `uci` handshake, `uciok` last.
fn handshake(s: &Session) -> Vec<String> {
    s.send("uci");
    s.until(|l| l == "uciok")
}

/// The side to move in the position `d` shows, from its FEEN's last field.
fn side_to_move(s: &Session) -> char {
    let feen = s.feen();
    let last = feen.rsplit(' ').next().unwrap();
    // FEEN's style field: upper case first names the side to move (South/Red).
    if last.chars().next().unwrap().is_ascii_uppercase() {
        'w'
    } else {
        'b'
    }
}

/// The moves the pieces can make in `feen` for the side to move, written in `notation`,
/// asked of the position alone (no history, no game result).
fn position_moves<P: GamePosition>(
    feen: &str,
    config: P::Config,
    notation: MoveNotation,
) -> Vec<String> {
    let p = P::from_text(feen, config).unwrap();
    p.legal_moves()
        .iter()
        .map(|&m| p.move_to_text(m, notation).unwrap())
        .collect()
}

/// `go depth D` answers a move, and a move of the side to move in the position `d` shows.
fn assert_answers_for_the_side_to_move(
    s: &Session,
    game: GameKind,
    notation: MoveNotation,
    depth: u32,
) {
    s.send(&format!("go depth {depth}"));
    let (lines, best) = s.best_move();
    let best = best.unwrap_or_else(|| panic!("no move: {lines:?}"));
    assert!(
        mover_is_side_to_move(s, game, notation, &best),
        "{best} is not a move of the side to move: {lines:?}"
    );
}

/// Is `text` (in `notation`) a move of the side to move in the position `d` shows?
fn mover_is_side_to_move(s: &Session, game: GameKind, notation: MoveNotation, text: &str) -> bool {
    let feen = s.feen();
    let moves = match game {
        GameKind::Xiongqi => position_moves::<xiongqi::Position>(&feen, (), notation),
        GameKind::Xiangqi => {
            position_moves::<xiangqi::Position>(&feen, xiangqi::RuleSet::Standard, notation)
        }
        GameKind::XiangqiCapture => {
            position_moves::<xiangqi::Position>(&feen, xiangqi::RuleSet::Capture, notation)
        }
        GameKind::Rules(_) => game
            .new_game(&feen)
            .ok()
            .and_then(|g| g.legal_moves_text(notation).ok())
            .unwrap_or_default(),
    };
    moves.iter().any(|m| m == text)
}

#[test]
fn a_move_list_past_a_claimable_repetition_is_searched_as_sent() {
    let s = Session::start(GameKind::Xiangqi);
    // The third occurrence of the start position with Red's horse back: the arbiter calls
    // the game drawn, yet it is Black's move and Black has 44 moves.
    s.send("position startpos moves h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10 h1g3");
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string the rules see the game as over"),
        "{said:?}"
    );
    assert_eq!(side_to_move(&s), 'b');
    assert_answers_for_the_side_to_move(&s, GameKind::Xiangqi, MoveNotation::Uci, 3);
    // One more repetition and more moves after it are accepted too.
    s.send("position startpos moves h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10 b1c3");
    assert_eq!(s.sync().len(), 1);
    assert_answers_for_the_side_to_move(&s, GameKind::Xiangqi, MoveNotation::Uci, 2);
}

#[test]
fn a_move_list_past_the_move_limit_is_searched_as_sent_in_uci_and_ucci() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99 60";
    let s = Session::start(GameKind::Xiangqi);
    s.send(&format!("position fen {fen} moves h3e3 h8e8"));
    assert_eq!(s.sync().len(), 1);
    assert_eq!(side_to_move(&s), 'w');
    assert_answers_for_the_side_to_move(&s, GameKind::Xiangqi, MoveNotation::Uci, 3);

    let s = Session::start(GameKind::Xiangqi);
    s.send("ucci");
    s.until(|l| l == "ucciok");
    s.send(&format!("position fen {fen} moves h2e2 h7e7"));
    assert_eq!(s.sync().len(), 1);
    assert_answers_for_the_side_to_move(&s, GameKind::Xiangqi, MoveNotation::Iccs, 3);
}

#[test]
fn bestmove_none_only_without_a_move() {
    // Generals and one advisor: drawn by the rules (S3), but Red's general can step.
    let s = Session::start(GameKind::Xiangqi);
    s.send("position fen 3ak4/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    s.sync();
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    let best = best.unwrap_or_else(|| panic!("no move: {lines:?}"));
    assert!(["f1f2", "f1e1"].contains(&best.as_str()), "{best}");
    // Checkmated: no move at all.
    s.send("position fen R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    s.sync();
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    assert_eq!(best, None, "{lines:?}");
}

#[test]
fn xiongqi_lists_through_an_x6_repetition_are_the_guis_to_judge() {
    let s = Session::start(GameKind::Xiongqi);
    // The chariots shuffle: the second a1-a2 repeats move and position (X6), which the
    // arbiter calls a loss; the GUI sent it, and it is Black's move.
    let shuffle = "a1a2 a8a7 a2a1 a7a8 a1a2";
    s.send(&format!("position startpos moves {shuffle}"));
    let said = s.sync();
    assert!(
        said.iter().all(|l| l.starts_with("info string")),
        "{said:?}"
    );
    assert_answers_for_the_side_to_move(&s, GameKind::Xiongqi, MoveNotation::Uci, 2);
}

#[test]
fn a_hash_size_that_cannot_be_had_is_refused_and_the_table_kept() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("setoption name Hash value 8");
    assert!(s.sync().is_empty());
    assert_refused(&s, "setoption name Hash value 65536", "65536");
    assert!(announces(&s, "option name Hash type spin default 8 "));
    s.send("go depth 2");
    assert!(s.best_move().1.is_some());
}

#[test]
fn the_end_of_input_stops_a_finite_search() {
    let started = Instant::now();
    let (out_tx, out_rx) = mpsc::channel();
    let writer = ChannelWriter {
        tx: out_tx,
        partial: Vec::new(),
    };
    let input = io::Cursor::new(b"position startpos\ngo depth 1000\n".to_vec());
    uci::run(GameKind::Xiangqi, input, writer).unwrap();
    let lines: Vec<String> = out_rx.try_iter().collect();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    // Depth 1000 takes forever; the end of the input ended it.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn the_best_move_is_the_first_move_of_the_last_line_shown() {
    let s = Session::start(GameKind::Xiangqi);
    for round in 0..12 {
        s.send("position startpos");
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(20 + 15 * round));
        s.send("stop");
        let (lines, best) = s.best_move();
        let best = best.unwrap();
        let last_pv = lines
            .iter()
            .rev()
            .find_map(|l| l.split(" pv ").nth(1))
            .unwrap_or_else(|| panic!("no line shown: {lines:?}"));
        assert_eq!(last_pv.split(' ').next(), Some(best.as_str()), "{lines:?}");
    }
    // A weakened choice is shown too.
    s.send("setoption name Skill Level value 3");
    for _ in 0..5 {
        s.send("go depth 3");
        let (lines, best) = s.best_move();
        let last_pv = lines
            .iter()
            .rev()
            .find_map(|l| l.split(" pv ").nth(1))
            .unwrap();
        assert_eq!(last_pv.split(' ').next(), best.as_deref(), "{lines:?}");
    }
}

#[test]
fn isready_waits_for_the_commands_before_it_but_not_for_the_search() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("go infinite");
    s.send("isready");
    assert_eq!(s.until(|l| l == "readyok").last().unwrap(), "readyok");
    s.send("setoption name MultiPV value 2");
    s.send("isready");
    // The option waits for the search, and so does the readyok behind it.
    let early: Vec<String> = s
        .output
        .recv_timeout(Duration::from_millis(300))
        .into_iter()
        .filter(|l| l == "readyok")
        .collect();
    assert!(early.is_empty());
    s.send("stop");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert!(announces(&s, "option name MultiPV type spin default 2 "));
}

#[test]
fn node_limits_hold_from_one_node_up() {
    let s = Session::start(GameKind::Xiangqi);
    for limit in [1u64, 10, 100, 1000, 5000] {
        s.send("position startpos");
        s.send(&format!("go nodes {limit}"));
        let (lines, best) = s.best_move();
        assert!(best.is_some(), "{lines:?}");
        let nodes: u64 = lines
            .iter()
            .rev()
            .find_map(|l| {
                let mut words = l.split(' ').skip_while(|w| *w != "nodes");
                words.nth(1).and_then(|n| n.parse().ok())
            })
            .unwrap_or_else(|| panic!("no nodes shown: {lines:?}"));
        assert!(
            nodes <= limit + limit / 8 + 64,
            "go nodes {limit} searched {nodes}: {lines:?}"
        );
    }
}

#[test]
fn uci_limit_strength_plays_at_the_level_of_the_elo_asked_for() {
    use chuhe_engine::{ranges, Options, LEVEL_ELO};
    let s = Session::start(GameKind::Xiangqi);
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    let expected = format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        ranges::ELO.start(),
        ranges::ELO.start(),
        ranges::ELO.end()
    );
    assert!(lines.contains(&expected), "{lines:?}");
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    // Out of the scale: refused, nothing changes.
    s.send(&format!(
        "setoption name UCI_Elo value {}",
        ranges::ELO.end() + 1
    ));
    assert_eq!(s.sync().len(), 1);
    s.send("setoption name UCI_LimitStrength value true");
    s.send(&format!("setoption name UCI_Elo value {}", LEVEL_ELO[0]));
    assert!(s.sync().is_empty());
    // Level 0 searches one ply deep whatever the limit.
    s.send("go depth 6");
    let (lines, best) = s.best_move();
    assert!(best.is_some());
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    // Every Elo of the scale maps to the highest level at or below it.
    for (level, &elo) in LEVEL_ELO.iter().enumerate() {
        let options = Options {
            limit_strength: true,
            elo: elo as u32,
            ..Options::default()
        };
        assert_eq!(usize::from(options.playing_level()), level);
        let between = Options {
            elo: elo as u32 + 1,
            ..options
        };
        assert_eq!(usize::from(between.playing_level()), level);
    }
    assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
}

// ----- UCI_ShowWDL ---------------------------------------------------------------------------

/// The `wdl W D L` of an info line, if it has one, checked to follow the score.
fn wdl_of(line: &str) -> Option<(u32, u32, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "wdl")?;
    assert_eq!(words[i - 3], "score", "wdl right after the score: {line}");
    let n = |k: usize| words[i + k].parse::<u32>().expect("a number");
    Some((n(1), n(2), n(3)))
}

#[test]
fn show_wdl_adds_win_draw_loss_to_every_scored_line_only_while_on() {
    let s = Session::start(GameKind::Xiangqi);
    assert!(announces(
        &s,
        "option name UCI_ShowWDL type check default false"
    ));
    s.send("position startpos moves h3e3");
    s.send("go depth 4");
    let (lines, _) = s.best_move();
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");

    s.send("setoption name UCI_ShowWDL value true");
    assert!(s.sync().is_empty());
    assert!(announces(
        &s,
        "option name UCI_ShowWDL type check default true"
    ));
    s.send("setoption name MultiPV value 3");
    s.send("go depth 4");
    let (lines, _) = s.best_move();
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(scored.len() >= 4, "{lines:?}");
    for line in &scored {
        let (w, d, l) = wdl_of(line).unwrap_or_else(|| panic!("no wdl: {line}"));
        assert_eq!(w + d + l, 1000, "{line}");
    }
    // Higher scores of one search (same root, same material): at least as good odds.
    let mut by_score: Vec<(i32, (u32, u32, u32))> = scored
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "cp")?;
            Some((words[i + 1].parse().ok()?, wdl_of(l)?))
        })
        .collect();
    by_score.sort();
    for pair in by_score.windows(2) {
        let ((_, (w0, _, l0)), (_, (w1, _, l1))) = (pair[0], pair[1]);
        assert!(w1 >= w0 && l1 <= l0, "{by_score:?}");
    }

    // A won position (Red: two chariots against a bare general): W well above L.
    s.send("setoption name MultiPV value 1");
    s.send("position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1");
    s.send("go depth 3");
    let (lines, _) = s.best_move();
    let last = lines.iter().rfind(|l| l.contains(" score ")).unwrap();
    let (w, _, l) = wdl_of(last).unwrap();
    assert!(w > 900 && l < 50, "{last}");

    // A finished game: the result is certain.
    s.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 1 1");
    s.send("go depth 3");
    let (lines, _) = s.best_move();
    assert!(
        lines
            .iter()
            .any(|l| l == "info depth 0 score mate 0 wdl 0 0 1000"),
        "{lines:?}"
    );

    // Off again: no wdl.
    s.send("setoption name uci_showwdl value false");
    s.send("position startpos");
    s.send("go depth 2");
    let (lines, _) = s.best_move();
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    assert_refused(&s, "setoption name UCI_ShowWDL value maybe", "UCI_ShowWDL");
    assert_refused(&s, "setoption name UCI_ShowWLD value true", "UCI_ShowWDL");
}

#[test]
fn ucci_lines_carry_no_wdl() {
    let s = Session::start(GameKind::Xiangqi);
    s.send("ucci");
    let lines = s.until(|l| l == "ucciok");
    assert!(lines.iter().all(|l| !l.contains("WDL")), "{lines:?}");
    s.send("setoption name UCI_ShowWDL value true");
    s.send("position startpos");
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    assert!(best.is_some());
    assert!(lines.iter().any(|l| l.contains(" score ")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

#[test]
fn show_wdl_works_in_xiongqi() {
    let s = Session::start(GameKind::Xiongqi);
    s.send("setoption name UCI_ShowWDL value true");
    s.send("position startpos moves e3e4");
    s.send("go depth 3");
    let (lines, best) = s.best_move();
    assert!(best.is_some());
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty());
    for line in scored {
        let (w, d, l) = wdl_of(line).unwrap_or_else(|| panic!("no wdl: {line}"));
        assert_eq!(w + d + l, 1000, "{line}");
    }
}

/// `EvalFile` loads a network file and says which; a file that cannot be loaded is one
/// `info string` and the engine keeps its network (and the option its value).
#[test]
fn eval_file_loads_a_network_or_keeps_the_one_it_has() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("nets")
        .join(chuhe_engine::eval::xiangqi_net::EMBEDDED_NAME);
    let checksum = format!(
        "{:08x}",
        chuhe_engine::eval::xiangqi_net::XiangqiNet::embedded().checksum()
    );
    let s = Session::start(GameKind::Xiangqi);
    assert!(handshake(&s).contains(&"option name EvalFile type string default <embedded>".into()));
    s.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(
        s.sync(),
        [format!(
            "info string EvalFile: Xiangqi network {checksum} from {}",
            file.display()
        )]
    );
    s.send("setoption name EvalFile value /no/such/net.nnue");
    let lines = s.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(
            "info string setoption refused: cannot read the network file /no/such/net.nnue: "
        ),
        "{lines:?}"
    );
    assert!(
        lines[0].ends_with("; the option keeps its value"),
        "{lines:?}"
    );
    s.send(&format!(
        "setoption name EvalFile value {}",
        env!("CARGO_MANIFEST_DIR")
    ));
    let lines = s.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    s.send("setoption name EvalFile");
    let lines = s.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("needs a file name or <embedded>"),
        "{lines:?}"
    );
    // The file loaded first is still the engine's.
    let expected = format!(
        "option name EvalFile type string default {}",
        file.display()
    );
    assert!(handshake(&s).contains(&expected));
    s.send("position startpos moves h3e3");
    assert_plays_after_h3e3(&s);
    s.send("setoption name evalfile value <EMBEDDED>");
    assert_eq!(
        s.sync(),
        [format!(
            "info string EvalFile: Xiangqi network {checksum} from <embedded>"
        )]
    );
}

/// A network file whose path holds runs of spaces loads under UCI and under UCCI: the
/// option's value is the rest of the line as the GUI sent it.
#[test]
fn eval_file_paths_keep_their_spaces_under_uci_and_ucci() {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("nets")
        .join(chuhe_engine::eval::xiangqi_net::EMBEDDED_NAME);
    let dir = std::env::temp_dir().join(format!("chuhe nets  {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("my  net.nnue");
    std::fs::copy(&source, &file).unwrap();
    let checksum = format!(
        "{:08x}",
        chuhe_engine::eval::xiangqi_net::XiangqiNet::embedded().checksum()
    );
    let loaded = format!(
        "info string EvalFile: Xiangqi network {checksum} from {}",
        file.display()
    );

    let s = Session::start(GameKind::Xiangqi);
    s.send(&format!(
        "setoption name EvalFile value {}  ",
        file.display()
    ));
    assert_eq!(s.sync(), std::slice::from_ref(&loaded));

    let s = Session::start(GameKind::Xiangqi);
    s.send("ucci");
    let lines = s.until(|l| l == "ucciok");
    assert!(
        lines.contains(&"option evalfile type string default <embedded>".to_string()),
        "{lines:?}"
    );
    s.send(&format!("setoption evalfile {}", file.display()));
    assert_eq!(s.sync(), [loaded]);
    s.send("ucci");
    let lines = s.until(|l| l == "ucciok");
    let expected = format!("option evalfile type string default {}", file.display());
    assert!(lines.contains(&expected), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `eval` prints the static evaluation from the side to move's view: the evaluation's own
/// value, and in Xiangqi the same number for a position and its colour-swapped image.
#[test]
fn eval_prints_the_static_evaluation_for_the_side_to_move() {
    let eval = |s: &Session| -> i32 {
        s.send("eval");
        let lines = s.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        let text = lines[0]
            .strip_prefix("static evaluation: ")
            .and_then(|t| t.strip_suffix(" cp (side to move)"))
            .unwrap_or_else(|| panic!("{lines:?}"));
        text.parse().unwrap()
    };
    let s = Session::start(GameKind::Xiangqi);
    let start = eval(&s);
    assert_eq!(
        start,
        chuhe_engine::eval::xiangqi::evaluate(&xiangqi::Position::start())
    );
    s.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    let red_centred = eval(&s);
    assert_ne!(red_centred, start);
    s.send("position fen rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1");
    assert_eq!(eval(&s), red_centred);
    let s = Session::start(GameKind::Xiongqi);
    let start = xiongqi::Position::start();
    assert_eq!(eval(&s), chuhe_engine::eval::xiongqi::evaluate(&start));
}
