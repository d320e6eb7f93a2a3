//! The client of the scale-out test (`scripts/scale-out`, which starts the servers, the
//! balancer and PostgreSQL, and kills and restarts them while this plays).
//!
//! `scale_out play --balancer http://HOST:PORT --out FILE [--games N] [--workers N]
//! [--plies N] [--engine-percent P] [--seed N] [--progress FILE]`: plays N games through the
//! balancer, W at a time (friend games and, P % of them (default 25), games against the engine
//! at level 0; Xiangqi and Xiongqi), with random
//! legal moves, draw offers accepted and declined, resignations and take-backs, each action
//! sent over HTTP or over the game's WebSocket in turn. The client keeps its own copy of each
//! game (replayed with the chuhe library) and changes it only on an acknowledgement (a 2xx
//! answer, a WebSocket `ack`); every answer's state is compared with that copy. When an answer
//! is lost (a connection cut, a 5xx, a socket closed before its `ack`) the game is read back
//! through the balancer: it must be either as before (the action is sent again) or as after
//! the action; anything else is a lost change. Writes the games as the client knows them to
//! `--out` and prints one line of figures (JSON).
//!
//! With `--think-ms T` each player waits 0 to 2T ms before each action, as people think.
//! With `--players N` it plays a lobby instead: N accounts sign up, and each game is a rated
//! game between two idle ones, made by a seek of one (through the balancer, so on one server)
//! and its acceptance by the other (through the balancer again, most often on another), with
//! an `Idempotency-Key`; both then act with their session cookies.
//!
//! `scale_out check --db postgres://… --servers URL,URL,… --expected FILE [--ratings yes]`:
//! every game of the file must be in the database exactly as the client knows it; every game
//! in the database is replayed (no illegal move, no result lost or contradicted by the moves)
//! and every server must show it as the database holds it; with `--ratings`, every rated game
//! is rated exactly once and the ratings computed again from the stored results equal the
//! stored ones. Exits 1 on any difference.

use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chuhe::{AnyGame, GameKind, MoveNotation, Outcome, Side, Status};
use chuhe_server::store::{self, prelude::*};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::Message;

type Socket = tungstenite::WebSocket<TcpStream>;

/// How long one request or one WebSocket answer may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a game may stay unreadable (every server down, the database away).
const READ_BACK_LIMIT: Duration = Duration::from_secs(90);
/// How many times one action is sent before the game is given up.
const MAX_TRIES: u32 = 12;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("play") => Options::parse(&args[1..]).and_then(|o| play(&o)),
        Some("check") => Options::parse(&args[1..]).and_then(|o| check(&o)),
        _ => Err(
            "usage: scale_out play --balancer URL --out FILE [--games N] [--workers N] \
                  [--plies N] [--engine-percent P] [--seed N] [--progress FILE] | scale_out check --db URL \
                  --servers URL,URL --expected FILE"
                .into(),
        ),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("scale_out: {e}");
            ExitCode::from(2)
        }
    }
}

/// The command line: `--name value` pairs.
struct Options(BTreeMap<String, String>);

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut map = BTreeMap::new();
        let mut it = args.iter();
        while let Some(name) = it.next() {
            let key = name
                .strip_prefix("--")
                .ok_or_else(|| format!("'{name}' is not an option (--name value)"))?;
            let value = it.next().ok_or_else(|| format!("{name} needs a value"))?;
            map.insert(key.to_string(), value.clone());
        }
        Ok(Options(map))
    }

    fn text(&self, name: &str) -> Result<String, String> {
        self.0
            .get(name)
            .cloned()
            .ok_or_else(|| format!("--{name} is missing"))
    }

    fn number(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.0.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name} '{v}' is not a number")),
        }
    }
}

/// A result as `(status, winner)`.
type ResultPair = (String, String);

fn pair(outcome: &Outcome) -> ResultPair {
    (
        outcome.status.as_str().to_string(),
        outcome.winner_str().to_string(),
    )
}

/// A game as the client knows it from acknowledged actions.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    kind: GameKind,
    moves: Vec<String>,
    result: Option<ResultPair>,
    draw_offer: Option<Side>,
}

/// What a player does.
#[derive(Clone, Debug)]
enum Action {
    Move(String),
    Resign,
    Draw(&'static str),
    TakeBack,
}

impl Action {
    fn name(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Resign => "resign",
            Action::Draw(_) => "draw",
            Action::TakeBack => "takeback",
        }
    }
}

/// The side that plays ply `index` (0-based) from the start position.
fn mover(index: usize) -> Side {
    if index % 2 == 0 {
        Side::First
    } else {
        Side::Second
    }
}

impl Model {
    fn position(&self) -> Box<dyn AnyGame> {
        let mut game = self.kind.new_game("start").expect("the start position");
        for m in &self.moves {
            game.play_text(m, MoveNotation::Uci)
                .expect("a move the model accepted");
        }
        game
    }

    fn turn(&self) -> Side {
        mover(self.moves.len())
    }

    /// Plays a move; false when the library refuses it.
    fn play(&mut self, uci: &str) -> bool {
        let mut game = self.position();
        if game.play_text(uci, MoveNotation::Uci).is_err() {
            return false;
        }
        self.moves.push(uci.to_string());
        self.draw_offer = None;
        self.result = game.outcome().as_ref().map(pair);
        true
    }

    /// The game after `side`'s `action`.
    fn after(&self, side: Side, action: &Action) -> Model {
        let mut next = self.clone();
        match action {
            Action::Move(m) => {
                next.play(m);
            }
            Action::Resign => {
                next.result = Some(pair(&Outcome::win(Status::Resignation, !side)));
                next.draw_offer = None;
            }
            Action::Draw("offer") => next.draw_offer = Some(side),
            Action::Draw("accept") => {
                next.result = Some(pair(&Outcome::draw(Status::Agreement)));
                next.draw_offer = None;
            }
            Action::Draw(_) => next.draw_offer = None,
            Action::TakeBack => {
                let keep = (0..next.moves.len()).rev().find(|&p| mover(p) == side);
                next.moves.truncate(keep.unwrap_or(0));
                next.result = None;
                next.draw_offer = None;
            }
        }
        next
    }
}

/// A game as a server's JSON state (or the database) shows it.
#[derive(Debug, PartialEq)]
struct Shown {
    moves: Vec<String>,
    result: Option<ResultPair>,
    draw_offer: Option<String>,
    thinking: bool,
}

fn shown(state: &Value) -> Shown {
    Shown {
        moves: state["moves"]
            .as_array()
            .map(|ms| {
                ms.iter()
                    .map(|m| m["text"]["uci"].as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default(),
        result: state["result"].as_object().map(|r| {
            (
                r["status"].as_str().unwrap_or("?").to_string(),
                r["winner"].as_str().unwrap_or("?").to_string(),
            )
        }),
        draw_offer: state["draw_offer"].as_str().map(String::from),
        thinking: state["thinking"].as_bool().unwrap_or(false),
    }
}

impl Shown {
    /// Whether this is `model` (the moves exactly, or, with `engine_reply`, followed by at most
    /// one more move: the engine's answer).
    fn is(&self, model: &Model, engine_reply: bool) -> bool {
        let extra = self.moves.len().checked_sub(model.moves.len());
        let moves_ok = match extra {
            Some(0) => self.moves == model.moves,
            Some(1) if engine_reply => self.moves.starts_with(&model.moves),
            _ => false,
        };
        moves_ok
            && (extra == Some(1) || self.result == model.result)
            && self.draw_offer.as_deref() == model.draw_offer.map(Side::as_str)
    }
}

/// The answer to one try of an action.
enum Sent {
    /// Acknowledged: the HTTP answer's state, or the WebSocket's `ack`.
    Acked(Value),
    /// Refused with this error code: nothing changed.
    Refused(String),
    /// No answer that says what happened.
    Lost(String),
}

/// What every worker adds up.
#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    move_latencies_ms: Vec<f64>,
    acked: BTreeMap<String, u64>,
    errors: BTreeMap<String, u64>,
    applied_without_ack: u64,
    /// The lost answers after which the action was found applied, by what was lost.
    found_applied_after: BTreeMap<String, u64>,
    resent: u64,
    expected_refusals: BTreeMap<String, u64>,
    problems: Vec<String>,
    served_by: BTreeMap<String, u64>,
    games: Vec<Value>,
    given_up: u64,
}

struct Shared {
    balancer: String,
    ws_base: String,
    addr: SocketAddr,
    tally: Mutex<Tally>,
    next_game: AtomicUsize,
    finished: AtomicUsize,
    games: usize,
    plies: usize,
    /// The share of games against the engine, in percent.
    engine_percent: u64,
    seed: u64,
    progress: Option<String>,
    /// How long players think before each action, on average (ms).
    think_ms: u64,
    /// The accounts of a lobby run (`--players N`): games are rated, between two of them,
    /// made by a seek and its acceptance.
    players: Mutex<Vec<Player>>,
}

impl Shared {
    fn players(&self) -> std::sync::MutexGuard<'_, Vec<Player>> {
        self.players.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn error(&self, what: String) {
        *self.tally().errors.entry(what).or_default() += 1;
    }

    fn problem(&self, what: String) {
        eprintln!("scale_out: PROBLEM: {what}");
        self.tally().problems.push(what);
    }
}

/// How a player acts in a game: with its seat's token (`Authorization: Bearer`, or `?token=`
/// on the WebSocket), or as the account signed in (its session cookie).
#[derive(Clone, Debug)]
enum Cred {
    Token(String),
    Session(String),
}

impl Cred {
    /// Sets the credential on an HTTP request.
    fn on(&self, request: ureq::Request) -> ureq::Request {
        match self {
            Cred::Token(t) => request.set("Authorization", &format!("Bearer {t}")),
            Cred::Session(s) => request.set("Cookie", &format!("chuhe_session={s}")),
        }
    }
}

/// An account of the lobby run, and whether it is in a game now.
struct Player {
    name: String,
    session: String,
    busy: bool,
}

/// One game being played.
struct Table<'a> {
    shared: &'a Shared,
    agent: ureq::Agent,
    rng: SmallRng,
    id: String,
    creds: [Cred; 2],
    /// The two accounts (indices into the lobby's players), in a lobby game.
    players: Option<[usize; 2]>,
    sockets: [Option<Socket>; 2],
    model: Model,
    engine: Option<Side>,
    sends: u64,
}

fn play(options: &Options) -> Result<bool, String> {
    let balancer = options.text("balancer")?.trim_end_matches('/').to_string();
    let host = balancer
        .strip_prefix("http://")
        .ok_or("--balancer must be http://HOST:PORT")?;
    let addr = host
        .to_socket_addrs()
        .map_err(|e| format!("--balancer {host}: {e}"))?
        .next()
        .ok_or("--balancer has no address")?;
    let shared = Shared {
        ws_base: format!("ws://{host}"),
        balancer: balancer.clone(),
        addr,
        tally: Mutex::new(Tally::default()),
        next_game: AtomicUsize::new(0),
        finished: AtomicUsize::new(0),
        games: options.number("games", 200)? as usize,
        plies: options.number("plies", 30)?.max(4) as usize,
        engine_percent: options.number("engine-percent", 25)?.min(100),
        seed: options.number("seed", 1)?,
        progress: options.0.get("progress").cloned(),
        players: Mutex::new(Vec::new()),
        think_ms: options.number("think-ms", 0)?,
    };
    let workers = options.number("workers", 16)?.max(1) as usize;
    let out = options.text("out")?;
    let wanted = options.number("players", 0)? as usize;
    if wanted > 0 {
        sign_up_all(&shared, wanted, workers)?;
    }
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| worker(&shared));
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let mut tally = shared.tally();
    std::fs::write(
        &out,
        Value::Array(std::mem::take(&mut tally.games)).to_string(),
    )
    .map_err(|e| format!("cannot write {out}: {e}"))?;
    let moves = tally.acked.get("move").copied().unwrap_or(0);
    let summary = json!({
        "games": shared.games,
        "workers": workers,
        "engine_percent": shared.engine_percent,
        "players": shared.players().len(),
        "seconds": (wall * 100.0).round() / 100.0,
        "moves_acked": moves,
        "moves_per_s": (moves as f64 / wall).round(),
        "move_latency_ms": percentiles(&mut tally.move_latencies_ms),
        "action_latency_ms": percentiles(&mut tally.latencies_ms),
        "acked": tally.acked,
        "errors": tally.errors,
        "resent": tally.resent,
        "applied_without_ack": tally.applied_without_ack,
        "found_applied_after": tally.found_applied_after,
        "expected_refusals": tally.expected_refusals,
        "given_up": tally.given_up,
        "served_by": tally.served_by,
        "problems": tally.problems.len(),
    });
    println!("{summary}");
    for p in &tally.problems {
        eprintln!("scale_out: problem: {p}");
    }
    Ok(tally.problems.is_empty())
}

fn percentiles(v: &mut [f64]) -> Value {
    v.sort_by(f64::total_cmp);
    let at = |p: f64| {
        if v.is_empty() {
            0.0
        } else {
            (v[((v.len() - 1) as f64 * p).round() as usize] * 10.0).round() / 10.0
        }
    };
    json!({"p50": at(0.5), "p99": at(0.99), "max": at(1.0)})
}

fn worker(shared: &Shared) {
    loop {
        let n = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if n >= shared.games {
            return;
        }
        let mut rng = SmallRng::seed_from_u64(shared.seed.wrapping_mul(1_000_003) + n as u64);
        let opened = if shared.players().is_empty() {
            Table::open(shared, &mut rng)
        } else {
            Table::open_lobby(shared, &mut rng)
        };
        match opened {
            Ok(mut table) => {
                table.rng = rng;
                let finished = table.run();
                table.close();
                if let Some(seats) = table.players {
                    let mut players = shared.players();
                    for i in seats {
                        players[i].busy = false;
                    }
                }
                let record = json!({
                    "id": table.id,
                    "game": table.model.kind.name(),
                    "moves": table.model.moves,
                    "result": table.model.result.as_ref().map(|(s, w)| json!({"status": s, "winner": w})),
                    "draw_offer": table.model.draw_offer.map(Side::as_str),
                    "complete": finished,
                    "players": table.players.map(|seats| {
                        let players = shared.players();
                        seats.map(|i| players[i].name.clone())
                    }),
                });
                let mut tally = shared.tally();
                tally.games.push(record);
                if !finished {
                    tally.given_up += 1;
                }
            }
            Err(e) => shared.error(format!("create given up: {e}")),
        }
        let done = shared.finished.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(path) = &shared.progress {
            let tmp = format!("{path}.tmp");
            if std::fs::write(&tmp, format!("{done} {}\n", shared.games)).is_ok() {
                let _ = std::fs::rename(&tmp, path);
            }
        }
    }
}

/// Signs up `n` accounts through the balancer, `workers` at a time, and keeps their sessions.
fn sign_up_all(shared: &Shared, n: usize, workers: usize) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let agent = ureq::AgentBuilder::new().timeout(ANSWER_TIMEOUT).build();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        return;
                    }
                    let name = format!("P{}-{i}", shared.seed);
                    let url = format!("{}/api/signup", shared.balancer);
                    let body = json!({"name": name, "password": "scale-out password"});
                    match post_once(
                        shared,
                        &agent,
                        &url,
                        &body,
                        &format!("signup-{name}"),
                        "signup",
                        None,
                    ) {
                        Ok((_, Some(session))) => shared.players().push(Player {
                            name,
                            session,
                            busy: false,
                        }),
                        Ok((_, None)) => failed.lock().unwrap().push(format!("{name}: no session")),
                        Err(e) => failed.lock().unwrap().push(format!("{name}: {e}")),
                    }
                }
            });
        }
    });
    let failed = failed.into_inner().unwrap_or_default();
    if !failed.is_empty() {
        return Err(format!("sign-ups failed: {}", failed.join("; ")));
    }
    Ok(())
}

/// POSTs `body` through the balancer with an `Idempotency-Key` (and as `cred`, if given),
/// trying again (with the same key) while the answer is lost or the database is away; the
/// answer's JSON and the session it set, if any.
fn post_once(
    shared: &Shared,
    agent: &ureq::Agent,
    url: &str,
    body: &Value,
    key: &str,
    what: &str,
    cred: Option<&Cred>,
) -> Result<(Value, Option<String>), String> {
    for attempt in 0..MAX_TRIES {
        let mut request = agent
            .post(url)
            .set("Origin", &shared.balancer)
            .set("Idempotency-Key", key);
        if let Some(cred) = cred {
            request = cred.on(request);
        }
        let answer = request.send_json(body.clone());
        match answer {
            Ok(r) => {
                note_server(shared, &r);
                let session = r.all("set-cookie").iter().find_map(|c| {
                    c.strip_prefix("chuhe_session=")
                        .and_then(|v| v.split(';').next())
                        .filter(|v| !v.is_empty())
                        .map(str::to_string)
                });
                return r
                    .into_json()
                    .map(|v| (v, session))
                    .map_err(|e| e.to_string());
            }
            Err(ureq::Error::Status(code, r)) if code >= 500 => {
                shared.error(format!(
                    "{what}: http {code} {}",
                    code_of(&r.into_json().unwrap_or(Value::Null))
                ));
            }
            Err(ureq::Error::Status(code, r)) => {
                return Err(format!(
                    "{what} refused with {code}: {}",
                    r.into_string().unwrap_or_default()
                ))
            }
            Err(ureq::Error::Transport(t)) => {
                shared.error(format!("{what}: {:?}", t.kind()));
            }
        }
        std::thread::sleep(backoff(attempt));
    }
    Err(format!("{what}: no server answered"))
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis((50u64 << attempt.min(5)).min(1500))
}

/// The error code of a JSON error body.
fn code_of(body: &Value) -> String {
    body["error"]["code"]
        .as_str()
        .unwrap_or("no_code")
        .to_string()
}

impl<'a> Table<'a> {
    /// A rated game between two idle accounts of the lobby run: one seeks (its seek goes
    /// through the balancer to one server), the other accepts that seek (through the balancer,
    /// most often on another server), with an `Idempotency-Key`.
    fn open_lobby(shared: &'a Shared, rng: &mut SmallRng) -> Result<Table<'a>, String> {
        let agent = ureq::AgentBuilder::new().timeout(ANSWER_TIMEOUT).build();
        let (seeker, acceptor) = loop {
            {
                let mut players = shared.players();
                let idle: Vec<usize> = (0..players.len()).filter(|&i| !players[i].busy).collect();
                if idle.len() >= 2 {
                    let a = idle[rng.gen_range(0..idle.len())];
                    let mut b = idle[rng.gen_range(0..idle.len())];
                    while b == a {
                        b = idle[rng.gen_range(0..idle.len())];
                    }
                    players[a].busy = true;
                    players[b].busy = true;
                    break (a, b);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let cred = |i: usize| Cred::Session(shared.players()[i].session.clone());
        let free = || {
            let mut players = shared.players();
            players[seeker].busy = false;
            players[acceptor].busy = false;
        };
        let kind = if rng.gen_bool(0.7) {
            GameKind::Xiangqi
        } else {
            GameKind::Xiongqi
        };
        let seek = json!({"game": kind.name(), "rated": true, "color": "random",
                          "clock": {"initial_s": 600, "increment_s": 5}});
        let url = format!("{}/api/seeks", shared.balancer);
        let key = format!("seek-{}-{}", shared.seed, rng.gen::<u64>());
        let sought = post_once(
            shared,
            &agent,
            &url,
            &seek,
            &key,
            "seek",
            Some(&cred(seeker)),
        );
        let (sought, _) = sought.inspect_err(|_| free())?;
        let seek_id = sought["seek"]["id"]
            .as_str()
            .ok_or("no seek id")?
            .to_string();
        let url = format!("{}/api/seeks/{seek_id}/accept", shared.balancer);
        let key = format!("accept-{}-{}", shared.seed, rng.gen::<u64>());
        let accepted = post_once(
            shared,
            &agent,
            &url,
            &json!({}),
            &key,
            "accept",
            Some(&cred(acceptor)),
        );
        let (accepted, _) = accepted.inspect_err(|_| free())?;
        let id = accepted["game"]["id"]
            .as_str()
            .ok_or("no game id")?
            .to_string();
        let acceptor_side = match accepted["game"]["you"].as_str() {
            Some("first") => Side::First,
            Some("second") => Side::Second,
            other => return Err(format!("the acceptor's seat is {other:?}")),
        };
        if accepted["game"]["rated"] != true {
            shared.problem(format!("game {id}: a rated seek made an unrated game"));
        }
        let (creds, players) = match acceptor_side {
            Side::First => ([cred(acceptor), cred(seeker)], [acceptor, seeker]),
            Side::Second => ([cred(seeker), cred(acceptor)], [seeker, acceptor]),
        };
        *shared
            .tally()
            .acked
            .entry("seek accepted".into())
            .or_default() += 1;
        Ok(Table {
            shared,
            agent,
            rng: SmallRng::seed_from_u64(0),
            id,
            creds,
            players: Some(players),
            sockets: [None, None],
            model: Model {
                kind,
                moves: Vec::new(),
                result: None,
                draw_offer: None,
            },
            engine: None,
            sends: 0,
        })
    }

    /// Creates a game through the balancer.
    fn open(shared: &'a Shared, rng: &mut SmallRng) -> Result<Table<'a>, String> {
        let agent = ureq::AgentBuilder::new().timeout(ANSWER_TIMEOUT).build();
        let kind = if rng.gen_bool(0.7) {
            GameKind::Xiangqi
        } else {
            GameKind::Xiongqi
        };
        let engine = rng.gen_range(0..100) < shared.engine_percent;
        let creator = if engine && rng.gen_bool(0.5) {
            Side::Second
        } else {
            Side::First
        };
        let body = if engine {
            json!({"game": kind.name(), "opponent": "engine", "level": 0, "side": creator.as_str()})
        } else {
            json!({"game": kind.name(), "opponent": "friend"})
        };
        let url = format!("{}/api/games", shared.balancer);
        // One key for every try: a creation whose answer was lost is not made twice.
        let key = format!("create-{}-{}", shared.seed, rng.gen::<u64>());
        let (created, _) = post_once(shared, &agent, &url, &body, &key, "create", None)?;
        let id = created["game"]["id"].as_str().ok_or("no id")?.to_string();
        let own = created["token"].as_str().ok_or("no token")?.to_string();
        let other = match created["game"]["invite"].as_str() {
            Some(link) => {
                let code = link.split("invite=").nth(1).unwrap_or_default();
                let join = format!("{}/api/games/{id}/join", shared.balancer);
                let key = format!("join-{}-{}", shared.seed, rng.gen::<u64>());
                let (joined, _) = post_once(
                    shared,
                    &agent,
                    &join,
                    &json!({"invite": code}),
                    &key,
                    "join",
                    None,
                )?;
                joined["token"].as_str().ok_or("no token")?.to_string()
            }
            None => String::new(),
        };
        let tokens = match creator {
            Side::First => [own, other],
            Side::Second => [other, own],
        };
        let creds = tokens.map(Cred::Token);
        *shared.tally().acked.entry("create".into()).or_default() += 1;
        Ok(Table {
            shared,
            agent,
            rng: SmallRng::seed_from_u64(0),
            id,
            creds,
            players: None,
            sockets: [None, None],
            model: Model {
                kind,
                moves: Vec::new(),
                result: None,
                draw_offer: None,
            },
            engine: engine.then_some(!creator),
            sends: 0,
        })
    }

    fn close(&mut self) {
        for s in self.sockets.iter_mut() {
            if let Some(mut ws) = s.take() {
                let _ = ws.close(None);
                let _ = ws.flush();
            }
        }
    }

    /// Plays the game to its end or its planned length; false when it was given up.
    fn run(&mut self) -> bool {
        let length = self.rng.gen_range(4..=self.shared.plies);
        loop {
            if let Some(engine) = self.engine {
                if self.model.result.is_none()
                    && self.model.turn() == engine
                    && !self.await_engine()
                {
                    return false;
                }
            }
            if self.model.result.is_some() || self.model.moves.len() >= length {
                break;
            }
            if self.shared.think_ms > 0 {
                // A player thinks before acting (0 to twice --think-ms).
                let ms = self.rng.gen_range(0..2 * self.shared.think_ms);
                std::thread::sleep(Duration::from_millis(ms));
            }
            let side = self.model.turn();
            let roll = self.rng.gen_range(0..100);
            let ok = if self.engine.is_some()
                && roll < 12
                && self
                    .model
                    .moves
                    .iter()
                    .enumerate()
                    .any(|(p, _)| mover(p) == side)
            {
                self.act(side, Action::TakeBack)
            } else if self.engine.is_none() && roll < 4 {
                let answer = if self.rng.gen_bool(0.4) {
                    "accept"
                } else {
                    "decline"
                };
                self.act(side, Action::Draw("offer")) && self.act(!side, Action::Draw(answer))
            } else {
                let legal = self
                    .model
                    .position()
                    .legal_moves_text(MoveNotation::Uci)
                    .unwrap_or_default();
                if legal.is_empty() {
                    self.shared
                        .problem(format!("game {}: no legal move and no result", self.id));
                    return false;
                }
                let m = legal[self.rng.gen_range(0..legal.len())].clone();
                self.act(side, Action::Move(m))
            };
            if !ok {
                return false;
            }
        }
        if self.model.result.is_none() {
            let side = self.model.turn();
            let roll = self.rng.gen_range(0..100);
            let ok = if roll < 40 {
                let ok = self.act(side, Action::Resign);
                // The result is final: a take-back after it is refused, wherever it lands.
                if ok && self.engine.is_some() && roll < 10 && !self.model.moves.is_empty() {
                    self.act(side, Action::TakeBack)
                } else {
                    ok
                }
            } else if roll < 60 && self.engine.is_none() {
                self.act(side, Action::Draw("offer")) && self.act(!side, Action::Draw("accept"))
            } else {
                true
            };
            if !ok {
                return false;
            }
        }
        if self.model.result.is_some() {
            // A move after the result is refused, wherever it lands.
            let side = self.model.turn();
            let legal = self
                .model
                .position()
                .legal_moves_text(MoveNotation::Uci)
                .unwrap_or_default();
            let m = legal.first().cloned().unwrap_or_else(|| "a1a2".into());
            if self.engine != Some(side) && !self.act(side, Action::Move(m)) {
                return false;
            }
        }
        true
    }

    /// Sends `side`'s action until it is acknowledged or refused; false when the game must be
    /// given up (no answer after [`MAX_TRIES`], or a problem found).
    fn act(&mut self, side: Side, action: Action) -> bool {
        // After the result every action is refused (`game_over`): a result is final.
        let expect_refusal = self.model.result.is_some();
        for attempt in 0..MAX_TRIES {
            let over_ws = self.sends % 2 == 1;
            self.sends += 1;
            let sent_at = Instant::now();
            let answer = if over_ws {
                self.send_ws(side, &action)
            } else {
                self.send_http(side, &action)
            };
            let elapsed_ms = sent_at.elapsed().as_secs_f64() * 1e3;
            match answer {
                Sent::Acked(body) => {
                    if expect_refusal {
                        self.shared.problem(format!(
                            "game {}: {} after the result {:?} was acknowledged: {body}",
                            self.id,
                            action.name(),
                            self.model.result
                        ));
                        return false;
                    }
                    let next = self.model.after(side, &action);
                    let agrees = if over_ws {
                        body["ply"].as_u64() == Some(next.moves.len() as u64)
                    } else {
                        shown(&body).is(&next, false)
                    };
                    if !agrees {
                        self.shared.problem(format!(
                            "game {}: {} by {} acknowledged with {body}, expected {next:?}",
                            self.id,
                            action.name(),
                            side.as_str()
                        ));
                        return false;
                    }
                    self.model = next;
                    let mut tally = self.shared.tally();
                    *tally.acked.entry(action.name().into()).or_default() += 1;
                    tally.latencies_ms.push(elapsed_ms);
                    if matches!(action, Action::Move(_)) {
                        tally.move_latencies_ms.push(elapsed_ms);
                    }
                    return true;
                }
                Sent::Refused(code) => {
                    let expected = (expect_refusal && code == "game_over")
                        || (self.engine.is_some()
                            && matches!(code.as_str(), "engine_thinking" | "not_your_turn"));
                    if !expected {
                        self.shared.problem(format!(
                            "game {}: {} by {} refused with '{code}' (model {:?})",
                            self.id,
                            action.name(),
                            side.as_str(),
                            self.model
                        ));
                        return false;
                    }
                    *self
                        .shared
                        .tally()
                        .expected_refusals
                        .entry(code.clone())
                        .or_default() += 1;
                    if code == "game_over" {
                        return true;
                    }
                    // Another server's stale search of this game: wait and send again.
                    std::thread::sleep(backoff(attempt));
                }
                Sent::Lost(why) => {
                    self.shared.error(why.clone());
                    std::thread::sleep(backoff(attempt));
                    let Some(state) = self.read_back() else {
                        return false;
                    };
                    let now = shown(&state);
                    let next = self.model.after(side, &action);
                    if !expect_refusal
                        && now.is(
                            &next,
                            self.engine.is_some() && matches!(action, Action::Move(_)),
                        )
                    {
                        self.model = next;
                        let mut tally = self.shared.tally();
                        tally.applied_without_ack += 1;
                        *tally
                            .acked
                            .entry(format!("{} (found applied)", action.name()))
                            .or_default() += 1;
                        *tally.found_applied_after.entry(why).or_default() += 1;
                        return true;
                    }
                    if !now.is(&self.model, false) {
                        self.shared.problem(format!(
                            "game {}: after an unanswered {} by {}, the game is {now:?}, \
                             neither {:?} nor {next:?}",
                            self.id,
                            action.name(),
                            side.as_str(),
                            self.model
                        ));
                        return false;
                    }
                    self.shared.tally().resent += 1;
                }
            }
        }
        self.shared.error(format!(
            "{} given up after {MAX_TRIES} tries",
            action.name()
        ));
        false
    }

    /// The game's state read through the balancer, retried while no server can answer.
    fn read_back(&mut self) -> Option<Value> {
        let started = Instant::now();
        let url = format!("{}/api/games/{}", self.shared.balancer, self.id);
        let mut attempt = 0;
        while started.elapsed() < READ_BACK_LIMIT {
            match self.agent.get(&url).call() {
                Ok(r) => {
                    note_server(self.shared, &r);
                    match r.into_json::<Value>() {
                        Ok(v) => return Some(v),
                        Err(e) => self.shared.error(format!("read back: body {}", e.kind())),
                    }
                }
                Err(ureq::Error::Status(code, r)) => self.shared.error(format!(
                    "read back: http {code} {}",
                    code_of(&r.into_json().unwrap_or(Value::Null))
                )),
                Err(ureq::Error::Transport(t)) => {
                    self.shared.error(format!("read back: {:?}", t.kind()))
                }
            }
            attempt += 1;
            std::thread::sleep(backoff(attempt));
        }
        self.shared.problem(format!(
            "game {}: unreadable for {READ_BACK_LIMIT:?}",
            self.id
        ));
        None
    }

    /// Waits until the engine has answered (polling through the balancer), and takes its move
    /// into the model; false when it never does.
    fn await_engine(&mut self) -> bool {
        let started = Instant::now();
        loop {
            let Some(state) = self.read_back() else {
                return false;
            };
            let now = shown(&state);
            if !now.moves.starts_with(&self.model.moves)
                || now.moves.len() > self.model.moves.len() + 1
            {
                self.shared.problem(format!(
                    "game {}: waiting for the engine, the game is {now:?}, the client's {:?}",
                    self.id, self.model
                ));
                return false;
            }
            if now.moves.len() == self.model.moves.len() + 1 {
                let reply = now.moves[self.model.moves.len()].clone();
                if !self.model.play(&reply) {
                    self.shared.problem(format!(
                        "game {}: the engine's move {reply} is illegal",
                        self.id
                    ));
                    return false;
                }
                *self
                    .shared
                    .tally()
                    .acked
                    .entry("engine move".into())
                    .or_default() += 1;
                return true;
            }
            if started.elapsed() > Duration::from_secs(60) {
                self.shared
                    .error("the engine did not answer in 60 s".into());
                return false;
            }
            std::thread::sleep(Duration::from_millis(if now.thinking { 20 } else { 100 }));
        }
    }

    fn send_http(&mut self, side: Side, action: &Action) -> Sent {
        let (path, body) = match action {
            Action::Move(m) => ("move", json!({"move": m, "ply": self.model.moves.len()})),
            Action::Resign => ("resign", json!({})),
            Action::Draw(a) => ("draw", json!({"action": a})),
            Action::TakeBack => ("takeback", json!({})),
        };
        let url = format!("{}/api/games/{}/{path}", self.shared.balancer, self.id);
        let answer = self.creds[side.index()]
            .on(self.agent.post(&url))
            .set("Origin", &self.shared.balancer)
            .send_json(body);
        match answer {
            Ok(r) => {
                note_server(self.shared, &r);
                match r.into_json() {
                    Ok(v) => Sent::Acked(v),
                    Err(e) => Sent::Lost(format!("http: answer cut ({})", e.kind())),
                }
            }
            Err(ureq::Error::Status(code, r)) => {
                note_server(self.shared, &r);
                let body = r.into_json().unwrap_or(Value::Null);
                if code >= 500 {
                    Sent::Lost(format!("http {code} {}", code_of(&body)))
                } else {
                    Sent::Refused(code_of(&body))
                }
            }
            Err(ureq::Error::Transport(t)) => Sent::Lost(format!("http: {:?}", t.kind())),
        }
    }

    /// The player's socket, opened (through the balancer) when it is not.
    fn socket(&mut self, side: Side) -> Result<&mut Socket, String> {
        if self.sockets[side.index()].is_none() {
            let stream = TcpStream::connect_timeout(&self.shared.addr, Duration::from_secs(5))
                .map_err(|e| format!("ws connect: {:?}", e.kind()))?;
            let _ = stream.set_read_timeout(Some(ANSWER_TIMEOUT));
            let _ = stream.set_write_timeout(Some(ANSWER_TIMEOUT));
            let _ = stream.set_nodelay(true);
            let cred = self.creds[side.index()].clone();
            let url = match &cred {
                Cred::Token(t) => {
                    format!("{}/api/games/{}/ws?token={t}", self.shared.ws_base, self.id)
                }
                Cred::Session(_) => format!("{}/api/games/{}/ws", self.shared.ws_base, self.id),
            };
            let mut request = url
                .into_client_request()
                .map_err(|e| format!("ws request: {e}"))?;
            if let Cred::Session(session) = &cred {
                request.headers_mut().insert(
                    "Cookie",
                    format!("chuhe_session={session}")
                        .parse()
                        .map_err(|_| "ws cookie")?,
                );
            }
            request.headers_mut().insert(
                "Origin",
                self.shared.balancer.parse().map_err(|_| "ws origin")?,
            );
            let (mut ws, response) = tungstenite::client::client(request, stream)
                .map_err(|e| format!("ws handshake: {}", short(&e.to_string())))?;
            if let Some(server) = response.headers().get("x-chuhe-server") {
                let name = server.to_str().unwrap_or("?").to_string();
                *self
                    .shared
                    .tally()
                    .served_by
                    .entry(format!("ws {name}"))
                    .or_default() += 1;
            }
            // The first message is the game's state.
            match ws.read() {
                Ok(Message::Text(_)) => {}
                Ok(other) => return Err(format!("ws: first message {other:?}")),
                Err(e) => return Err(format!("ws first state: {}", short(&e.to_string()))),
            }
            self.sockets[side.index()] = Some(ws);
        }
        Ok(self.sockets[side.index()].as_mut().expect("opened above"))
    }

    fn send_ws(&mut self, side: Side, action: &Action) -> Sent {
        let message = match action {
            Action::Move(m) => json!({"type": "move", "move": m, "ply": self.model.moves.len()}),
            Action::Resign => json!({"type": "resign"}),
            Action::Draw(a) => json!({"type": "draw", "action": a}),
            Action::TakeBack => json!({"type": "takeback"}),
        };
        let answer = (|| -> Result<Sent, String> {
            let ws = self.socket(side)?;
            ws.send(Message::Text(message.to_string().into()))
                .map_err(|e| format!("ws send: {}", short(&e.to_string())))?;
            loop {
                let text = match ws.read() {
                    Ok(Message::Text(t)) => t,
                    Ok(Message::Close(_)) => return Err("ws closed".into()),
                    Ok(_) => continue,
                    Err(e) => return Err(format!("ws read: {}", short(&e.to_string()))),
                };
                let v: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
                match v["type"].as_str() {
                    Some("ack") => return Ok(Sent::Acked(v)),
                    Some("error") => {
                        let code = code_of(&v);
                        return Ok(
                            if matches!(code.as_str(), "database_unavailable" | "internal") {
                                Sent::Lost(format!("ws error {code}"))
                            } else {
                                Sent::Refused(code)
                            },
                        );
                    }
                    _ => continue,
                }
            }
        })();
        match answer {
            Ok(Sent::Lost(why)) => {
                self.sockets[side.index()] = None;
                Sent::Lost(why)
            }
            Ok(sent) => sent,
            Err(why) => {
                self.sockets[side.index()] = None;
                Sent::Lost(why)
            }
        }
    }
}

/// The first words of an error (no addresses or tokens), for counting.
fn short(text: &str) -> String {
    text.split([':', '('])
        .next()
        .unwrap_or(text)
        .trim()
        .to_string()
}

fn note_server(shared: &Shared, response: &ureq::Response) {
    if let Some(name) = response.header("x-chuhe-server") {
        *shared
            .tally()
            .served_by
            .entry(format!("http {name}"))
            .or_default() += 1;
    }
}

/// The database's games against the client's file and every server.
fn check(options: &Options) -> Result<bool, String> {
    let db = options.text("db")?;
    let servers: Vec<String> = options
        .text("servers")?
        .split(',')
        .map(|s| s.trim_end_matches('/').to_string())
        .collect();
    let expected_path = options.text("expected")?;
    let expected: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(&expected_path)
            .map_err(|e| format!("cannot read {expected_path}: {e}"))?,
    )
    .map_err(|e| format!("{expected_path}: {e}"))?;
    let store = store::PostgresStore::connect(&db).map_err(|e| e.to_string())?;
    let mut problems = Vec::new();

    // Every game the client played is stored as the client knows it.
    for game in &expected {
        let id = game["id"].as_str().unwrap_or_default();
        let Some(stored) = store.load(id).map_err(|e| e.to_string())? else {
            problems.push(format!("game {id}: not in the database"));
            continue;
        };
        let moves: Vec<&str> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
        let want: Vec<&str> = game["moves"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let result = stored
            .result
            .as_ref()
            .map(|r| (r.status.as_str(), r.winner.as_str()));
        let want_result = game["result"].as_object().map(|r| {
            (
                r["status"].as_str().unwrap_or("?"),
                r["winner"].as_str().unwrap_or("?"),
            )
        });
        let offer = stored.draw_offer.map(Side::as_str);
        if moves != want || result != want_result || offer != game["draw_offer"].as_str() {
            problems.push(format!(
                "game {id}: the database holds {moves:?} {result:?} offer {offer:?}, the client \
                 acknowledged {want:?} {want_result:?} offer {:?}",
                game["draw_offer"]
            ));
        }
    }

    // Every stored game is consistent, and every server shows it as stored.
    let agent = ureq::AgentBuilder::new().timeout(ANSWER_TIMEOUT).build();
    let (mut games, mut offset, mut views) = (0usize, 0usize, 0usize);
    loop {
        let page = store.list(500, offset).map_err(|e| e.to_string())?;
        if page.is_empty() {
            break;
        }
        offset += page.len();
        for summary in page {
            games += 1;
            let id = summary.id;
            let Some(stored) = store.load(&id).map_err(|e| e.to_string())? else {
                problems.push(format!("game {id}: listed but not loadable"));
                continue;
            };
            if let Some(p) = contradiction(&stored) {
                problems.push(format!("game {id}: {p}"));
            }
            let want = Shown {
                moves: stored.moves.iter().map(|m| m.uci.clone()).collect(),
                result: stored
                    .result
                    .as_ref()
                    .map(|r| (r.status.clone(), r.winner.clone())),
                draw_offer: stored.draw_offer.map(|s| s.as_str().to_string()),
                thinking: false,
            };
            for server in &servers {
                let url = format!("{server}/api/games/{id}");
                let state: Value = match agent.get(&url).call() {
                    Ok(r) => r.into_json().map_err(|e| format!("{url}: {e}"))?,
                    Err(e) => {
                        problems.push(format!("game {id}: {server} answered {e}"));
                        continue;
                    }
                };
                views += 1;
                let mut seen = shown(&state);
                seen.thinking = false;
                if seen != want {
                    problems.push(format!(
                        "game {id}: {server} shows {seen:?}, the database holds {want:?}"
                    ));
                }
            }
        }
    }
    let ratings = if options.0.contains_key("ratings") {
        Some(check_ratings(&store, &mut problems)?)
    } else {
        None
    };
    println!(
        "{}",
        json!({
            "games_in_database": games,
            "games_played": expected.len(),
            "server_views_compared": views,
            "ratings": ratings,
            "problems": problems.len(),
        })
    );
    for p in problems.iter().take(30) {
        eprintln!("scale_out check: {p}");
    }
    Ok(problems.is_empty())
}

/// The ratings against the games: every rated game with a result that counts (not aborted)
/// rated exactly once (two history rows, one per player, and its `rated_ms`), every other game
/// not at all; and the ratings computed again from the stored results, game after game in the
/// order they were rated, equal to each history row and to the stored ratings (with the
/// players' records). What was checked, as JSON.
fn check_ratings(
    store: &store::PostgresStore,
    problems: &mut Vec<String>,
) -> Result<Value, String> {
    use chuhe_server::rating::{rate, Perf, PerfRating, Score};
    let log = store.rating_log().map_err(|e| e.to_string())?;
    // The games in the order of their first rating change, with their changes.
    let mut order: Vec<String> = Vec::new();
    let mut changes: BTreeMap<String, Vec<&store::RatingChange>> = BTreeMap::new();
    for change in &log {
        if !changes.contains_key(&change.game_id) {
            order.push(change.game_id.clone());
        }
        changes
            .entry(change.game_id.clone())
            .or_default()
            .push(change);
    }
    let (mut rated, mut unrated, mut offset) = (0usize, 0usize, 0usize);
    let mut users = std::collections::BTreeSet::new();
    loop {
        let page = store.list(500, offset).map_err(|e| e.to_string())?;
        if page.is_empty() {
            break;
        }
        offset += page.len();
        for g in page {
            let counts = g.rated
                && g.result.as_ref().is_some_and(|r| r.status != "aborted")
                && g.players.iter().all(Option::is_some);
            let n = changes.get(&g.id).map_or(0, Vec::len);
            if counts {
                rated += 1;
                if n != 2 {
                    problems.push(format!(
                        "game {}: rated {n} times, not once (two changes)",
                        g.id
                    ));
                }
            } else {
                unrated += 1;
                if n != 0 {
                    problems.push(format!(
                        "game {}: {n} rating changes for a game that counts for none",
                        g.id
                    ));
                }
            }
            for p in g.players.iter().flatten() {
                users.insert(p.id.clone());
            }
        }
    }
    let mut computed: BTreeMap<(String, String), PerfRating> = BTreeMap::new();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
    for id in &order {
        let Some(game) = store.load(id).map_err(|e| e.to_string())? else {
            problems.push(format!("game {id}: rated but not stored"));
            continue;
        };
        if game.rated_ms.is_none() {
            problems.push(format!("game {id}: rating changes without rated_ms"));
        }
        let (Some(first), Some(second), Some(result), Some(tc)) =
            (&game.players[0], &game.players[1], &game.result, game.clock)
        else {
            problems.push(format!(
                "game {id}: rated without two players, a result and a clock"
            ));
            continue;
        };
        let Ok(kind) = game.game.parse() else {
            continue;
        };
        let perf = Perf::new(kind, tc).to_string();
        let key = |p: &store::PlayerRef| (p.id.clone(), perf.clone());
        let before = [first, second].map(|p| computed.get(&key(p)).copied().unwrap_or_default());
        let (a, b) = rate(&before[0], &before[1], Score::of_winner(&result.winner));
        for (p, after) in [(first, a), (second, b)] {
            let stored = changes[id].iter().find(|c| c.user_id == p.id);
            match stored {
                Some(c)
                    if close(c.rating.rating, after.rating)
                        && close(c.rating.deviation, after.deviation)
                        && close(c.rating.volatility, after.volatility) => {}
                other => problems.push(format!(
                    "game {id}: {} computed again is {after:?}, the history holds {:?}",
                    p.name,
                    other.map(|c| c.rating)
                )),
            }
            computed.insert(key(p), after);
        }
    }
    for user in &users {
        for (perf, stored) in store.ratings_of(user).map_err(|e| e.to_string())? {
            let want = computed
                .remove(&(user.clone(), perf.to_string()))
                .unwrap_or_default();
            let same = close(stored.rating, want.rating)
                && close(stored.deviation, want.deviation)
                && close(stored.volatility, want.volatility)
                && (stored.games, stored.wins, stored.losses, stored.draws)
                    == (want.games, want.wins, want.losses, want.draws);
            if !same {
                problems.push(format!(
                    "player {user} {perf}: stored {stored:?}, computed {want:?}"
                ));
            }
        }
    }
    for ((user, perf), want) in computed {
        problems.push(format!(
            "player {user} {perf}: computed {want:?}, none stored"
        ));
    }
    Ok(json!({"rated_games": rated, "unrated_games": unrated, "rating_changes": log.len()}))
}

/// What is wrong with a stored game: a move the rules refuse, a result the moves contradict
/// (a game over by the rules with another result or none, a rules result the moves do not
/// reach).
fn contradiction(stored: &store::StoredGame) -> Option<String> {
    let kind: GameKind = stored.game.parse().ok()?;
    let mut game = match kind.new_game(&stored.start) {
        Ok(g) => g,
        Err(e) => return Some(format!("its start does not read: {e}")),
    };
    for (i, m) in stored.moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Some(format!(
                "move {} ({}) comes after the end of the game",
                i + 1,
                m.uci
            ));
        }
        if let Err(e) = game.play_text(&m.uci, MoveNotation::Uci) {
            return Some(format!("move {} ({}) is illegal: {e}", i + 1, m.uci));
        }
    }
    let stored_result = stored
        .result
        .as_ref()
        .map(|r| (r.status.clone(), r.winner.clone()));
    match (game.outcome().as_ref().map(pair), stored_result) {
        (Some(by_rules), Some(kept)) if by_rules != kept => Some(format!(
            "the moves end in {by_rules:?} but {kept:?} is stored"
        )),
        (Some(by_rules), None) => Some(format!("the result {by_rules:?} was lost")),
        (None, Some((status, _)))
            if !matches!(
                status.as_str(),
                "resignation" | "agreement" | "timelimit" | "aborted"
            ) =>
        {
            Some(format!(
                "'{status}' is stored, but the moves do not end the game"
            ))
        }
        _ => None,
    }
}
