//! The analysis board under load (`scripts/bench-analysis`, which starts the server): are the
//! engine players still served on time while many pages analyse, and how soon does a page see
//! its first line?
//!
//! `analysis_load --server http://HOST:PORT [--games G] [--moves M] [--pages P] [--trials T]
//! [--seed N]`, against a `chuhe serve --trust-forwarded-for` (each page and each game comes
//! from an address of its own in `X-Forwarded-For`, as from P different players):
//!
//! 1. **alone**: G games against the engine (Xiangqi, level 20, so each engine move takes the
//!    server's `--engine-movetime`), M moves each, the player's move a random legal one; the
//!    time from sending a move to seeing the engine's answer is recorded.
//! 2. **with pages**: the same while P analysis pages ask at once (each a position a few random
//!    moves from the start, MultiPV 1) and keep reading their lines; the time to each page's
//!    first line (every page keeps its analysis until all have had a first line, up to two
//!    minutes), the depth each reached, and whether it was queued first or refused
//!    (`analysis_busy`).
//! 3. **room**: T times one page alone on an idle pool: the time to its first line.
//!
//! Prints one JSON line: the engine's move times (p50, p90, max, mean) alone and with the
//! pages and their ratio, the pages' first lines (p50, p90, max; queued, refused), the room's
//! first lines. Exits 1 when something failed (a refused move, a socket error).

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use chuhe::{AnyGame, GameKind, MoveNotation};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::Message;

type Socket = tungstenite::WebSocket<TcpStream>;

/// How long any one answer may take before the run is called failed.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

struct Options {
    server: String,
    addr: SocketAddr,
    games: usize,
    moves: usize,
    pages: usize,
    trials: usize,
    seed: u64,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut server = None;
        let (mut games, mut moves, mut pages, mut trials, mut seed) = (4, 6, 50, 20, 1);
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().ok_or(format!("{flag} needs a value"))?;
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{flag} takes a number, not '{value}'"))
            };
            match flag.as_str() {
                "--server" => server = Some(value.trim_end_matches('/').to_string()),
                "--games" => games = number()? as usize,
                "--moves" => moves = number()? as usize,
                "--pages" => pages = number()? as usize,
                "--trials" => trials = number()? as usize,
                "--seed" => seed = number()?,
                _ => return Err(format!("unknown option {flag}")),
            }
        }
        let server = server.ok_or("--server http://HOST:PORT is needed")?;
        let host = server
            .strip_prefix("http://")
            .ok_or("--server must be an http:// URL")?;
        let addr = host
            .to_socket_addrs()
            .map_err(|e| format!("{host}: {e}"))?
            .next()
            .ok_or(format!("{host}: no address"))?;
        Ok(Options {
            server,
            addr,
            games,
            moves,
            pages,
            trials,
            seed,
        })
    }

    /// A WebSocket to `path`, as a page from `address` would open it.
    fn socket(&self, path: &str, address: &str) -> Result<Socket, String> {
        let stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))
            .map_err(|e| format!("connect: {e}"))?;
        stream.set_read_timeout(Some(ANSWER_TIMEOUT)).ok();
        stream.set_nodelay(true).ok();
        let url = format!("ws{}{path}", &self.server[4..]);
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        let headers = request.headers_mut();
        headers.insert("Origin", self.server.parse().map_err(|_| "origin")?);
        headers.insert("X-Forwarded-For", address.parse().map_err(|_| "address")?);
        let (ws, _) = tungstenite::client::client(request, stream)
            .map_err(|e| format!("handshake {path}: {e}"))?;
        Ok(ws)
    }
}

fn read_json(ws: &mut Socket) -> Result<Value, String> {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                return serde_json::from_str(t.as_str()).map_err(|e| format!("bad JSON: {e}"))
            }
            Ok(Message::Close(_)) => return Err("the socket was closed".into()),
            Ok(_) => continue,
            Err(e) => return Err(format!("read: {e}")),
        }
    }
}

fn send_json(ws: &mut Socket, v: Value) -> Result<(), String> {
    ws.send(Message::Text(v.to_string().into()))
        .map_err(|e| format!("send: {e}"))
}

/// Plays one game against the engine; the time (ms) of each engine answer.
fn engine_game(o: &Options, index: usize, rng: &mut SmallRng) -> Result<Vec<f64>, String> {
    let address = format!("10.1.{}.{}", index / 250, index % 250 + 1);
    let created: Value = ureq::post(&format!("{}/api/games", o.server))
        .set("Origin", &o.server)
        .set("X-Forwarded-For", &address)
        .send_json(json!({"game": "xiangqi", "opponent": "engine", "level": 20, "side": "first"}))
        .map_err(|e| format!("create: {e}"))?
        .into_json()
        .map_err(|e| format!("create: {e}"))?;
    let id = created["game"]["id"].as_str().ok_or("no game id")?;
    let token = created["token"].as_str().ok_or("no token")?;
    let mut ws = o.socket(&format!("/api/games/{id}/ws?token={token}"), &address)?;
    read_json(&mut ws)?; // the game as it stands
    let mut position = start_position()?;
    let mut times = Vec::new();
    for _ in 0..o.moves {
        let legal = position
            .legal_moves_text(MoveNotation::Uci)
            .map_err(|e| e.to_string())?;
        let Some(mine) = legal.choose(rng).cloned() else {
            break;
        };
        let ply = position.plies();
        let sent = Instant::now();
        send_json(&mut ws, json!({"type": "move", "move": mine, "ply": ply}))?;
        position
            .play_text(&mine, MoveNotation::Uci)
            .map_err(|e| e.to_string())?;
        loop {
            let v = read_json(&mut ws).map_err(|e| format!("game {id}, ply {ply}: {e}"))?;
            if v["type"] == "error" {
                return Err(format!("the move {mine} was refused: {v}"));
            }
            if v["type"] != "state" {
                continue;
            }
            let state = &v["state"];
            if state["result"].is_object() {
                return Ok(times);
            }
            let Some(moves) = state["moves"].as_array() else {
                continue;
            };
            if moves.len() == ply + 2 {
                times.push(sent.elapsed().as_secs_f64() * 1000.0);
                let reply = moves[ply + 1]["text"]["uci"].as_str().ok_or("no reply")?;
                position
                    .play_text(reply, MoveNotation::Uci)
                    .map_err(|e| e.to_string())?;
                break;
            }
        }
        if position.outcome().is_some() {
            break;
        }
    }
    Ok(times)
}

/// All games at once; every engine answer's time (ms).
fn engine_games(o: &Options, salt: u64) -> Result<Vec<f64>, String> {
    let results: Vec<Result<Vec<f64>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..o.games)
            .map(|g| {
                s.spawn(move || {
                    let mut rng = SmallRng::seed_from_u64(o.seed * 1000 + salt * 100 + g as u64);
                    engine_game(o, g + salt as usize * 100, &mut rng)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}

/// What one analysis page saw.
#[derive(Default)]
struct PageSeen {
    first_line_ms: Option<f64>,
    /// The deepest line it saw, and the `done` it got (its reason).
    depth: f64,
    done: Option<String>,
    queued: bool,
    refused: bool,
}

fn start_position() -> Result<Box<dyn AnyGame>, String> {
    GameKind::Xiangqi
        .new_game("start")
        .map_err(|e| e.to_string())
}

/// One page's socket and the moves of its position (a few random ones from the start).
fn open_page(o: &Options, index: usize) -> Result<(Socket, Vec<String>), String> {
    let address = format!("10.2.{}.{}", index / 250, index % 250 + 1);
    let ws = o.socket("/api/analysis/ws", &address)?;
    let mut rng = SmallRng::seed_from_u64(o.seed * 7 + index as u64);
    let mut position = start_position()?;
    let mut moves = Vec::new();
    for _ in 0..(2 + index % 6) {
        let legal = position
            .legal_moves_text(MoveNotation::Uci)
            .map_err(|e| e.to_string())?;
        let Some(m) = legal.choose(&mut rng).cloned() else {
            break;
        };
        position
            .play_text(&m, MoveNotation::Uci)
            .map_err(|e| e.to_string())?;
        moves.push(m);
    }
    Ok((ws, moves))
}

/// One page: waits for the others, asks for its analysis and reads until `stop` is set and
/// every page has had its first line (or its analysis is done).
fn page(
    o: &Options,
    index: usize,
    start: &Barrier,
    stop: &AtomicBool,
    lined: &AtomicUsize,
) -> Result<PageSeen, String> {
    let opened = open_page(o, index);
    start.wait(); // even when the page failed to open: the others must not wait for it
    let (mut ws, moves) = opened.inspect_err(|_| {
        lined.fetch_add(1, Ordering::Relaxed);
    })?;
    let sent = Instant::now();
    send_json(
        &mut ws,
        json!({"type": "analyse", "id": 1, "game": "xiangqi", "position": "start",
               "moves": moves, "multipv": 1}),
    )?;
    let mut seen = PageSeen::default();
    // Short reads, so that the page notices the end of the run.
    ws.get_ref()
        .set_read_timeout(Some(Duration::from_millis(200)))
        .ok();
    // Until the engine games are over and every page has had its first line (or two
    // minutes): no page leaves early and makes room for the others.
    while !(stop.load(Ordering::Relaxed) && lined.load(Ordering::Relaxed) >= o.pages)
        && sent.elapsed() < Duration::from_secs(120)
    {
        let v = match ws.read() {
            Ok(Message::Text(t)) => {
                serde_json::from_str::<Value>(t.as_str()).unwrap_or(Value::Null)
            }
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(e) => return Err(format!("page {index}: {e}")),
        };
        match v["type"].as_str() {
            Some("queued") => seen.queued = true,
            Some("line") => {
                if seen.first_line_ms.is_none() {
                    seen.first_line_ms = Some(sent.elapsed().as_secs_f64() * 1000.0);
                    lined.fetch_add(1, Ordering::Relaxed);
                }
                seen.depth = seen.depth.max(v["depth"].as_f64().unwrap_or(0.0));
            }
            Some("error") if v["error"]["code"] == "analysis_busy" => {
                seen.refused = true;
                lined.fetch_add(1, Ordering::Relaxed);
                break;
            }
            Some("error") => return Err(format!("page {index}: {v}")),
            Some("done") => {
                if seen.first_line_ms.is_none() {
                    lined.fetch_add(1, Ordering::Relaxed);
                }
                seen.done = v["reason"].as_str().map(String::from);
                break;
            }
            _ => {}
        }
    }
    let _ = ws.close(None);
    let _ = ws.flush();
    Ok(seen)
}

fn summary(v: &mut [f64]) -> Value {
    if v.is_empty() {
        return json!(null);
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| (v[((v.len() - 1) as f64 * q).round() as usize] * 10.0).round() / 10.0;
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    json!({"n": v.len(), "p50": at(0.5), "p90": at(0.9), "max": at(1.0),
           "mean": (mean * 10.0).round() / 10.0})
}

fn run(o: &Options) -> Result<Value, String> {
    // 1. The engine players alone.
    let mut alone = engine_games(o, 1).map_err(|e| format!("engine games alone: {e}"))?;
    // 2. The same with the pages asking at once.
    let stop = AtomicBool::new(false);
    let lined = AtomicUsize::new(0);
    let start = Barrier::new(o.pages + 1);
    let seen: Mutex<Vec<PageSeen>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut loaded = std::thread::scope(|s| {
        for p in 0..o.pages {
            let (start, stop, lined, seen, errors) = (&start, &stop, &lined, &seen, &errors);
            s.spawn(move || match page(o, p, start, stop, lined) {
                Ok(v) => seen.lock().unwrap().push(v),
                Err(e) => errors.lock().unwrap().push(e),
            });
        }
        start.wait();
        let games = engine_games(o, 2).map_err(|e| format!("engine games with pages: {e}"));
        stop.store(true, Ordering::Relaxed);
        games
    })?;
    let errors = errors.into_inner().unwrap();
    if let Some(e) = errors.first() {
        return Err(format!("{} page(s) failed, the first: {e}", errors.len()));
    }
    let seen = seen.into_inner().unwrap();
    let mut firsts: Vec<f64> = seen.iter().filter_map(|p| p.first_line_ms).collect();
    let queued = seen.iter().filter(|p| p.queued).count();
    let refused = seen.iter().filter(|p| p.refused).count();
    let without = seen
        .iter()
        .filter(|p| p.first_line_ms.is_none() && !p.refused)
        .count();
    let mut depths: Vec<f64> = seen.iter().map(|p| p.depth).collect();
    let done = seen.iter().filter(|p| p.done.is_some()).count();
    // 3. One page on an idle pool.
    let mut room = Vec::new();
    for t in 0..o.trials {
        let mut ws = o.socket("/api/analysis/ws", &format!("10.3.0.{}", t % 250 + 1))?;
        let sent = Instant::now();
        send_json(
            &mut ws,
            json!({"type": "analyse", "id": 1, "game": "xiangqi", "position": "start",
                   "moves": [], "multipv": 1}),
        )?;
        loop {
            let v = read_json(&mut ws).map_err(|e| format!("room trial {t}: {e}"))?;
            if v["type"] == "line" {
                room.push(sent.elapsed().as_secs_f64() * 1000.0);
                break;
            }
            if v["type"] == "error" {
                return Err(format!("room trial {t}: {v}"));
            }
        }
        let _ = ws.close(None);
        let _ = ws.flush();
        // The next trial finds the pool idle again.
        std::thread::sleep(Duration::from_millis(150));
    }
    let (a, l) = (summary(&mut alone), summary(&mut loaded));
    let ratio = match (a["mean"].as_f64(), l["mean"].as_f64()) {
        (Some(a), Some(l)) if a > 0.0 => json!((l / a * 1000.0).round() / 1000.0),
        _ => json!(null),
    };
    Ok(json!({
        "games": o.games, "moves": o.moves, "pages": o.pages,
        "engine_move_ms_alone": a, "engine_move_ms_with_pages": l, "mean_ratio": ratio,
        "pages_first_line_ms": summary(&mut firsts),
        "pages_queued_first": queued, "pages_refused": refused, "pages_without_a_line": without,
        "pages_depth_reached": summary(&mut depths), "pages_done": done,
        "idle_pool_first_line_ms": summary(&mut room),
    }))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match Options::parse(&args).and_then(|o| run(&o)) {
        Ok(figures) => {
            println!("{figures}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("analysis_load: {e}");
            ExitCode::FAILURE
        }
    }
}
