//! A UCI engine as a child process: start, options, `position` + `go`, `bestmove` with a
//! deadline. A crash, a closed pipe or a missed deadline is an [`EngineError`], never a panic.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine and what to tell it first.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EngineSpec {
    /// The name in results and records.
    pub name: String,
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// UCI options, sent in order after `uciok`.
    pub options: Vec<(String, String)>,
    /// Its own time control (`tc=`, `movetime=`, `nodes=`, `depth=`), instead of the match's.
    #[serde(skip)]
    pub time_control: Option<crate::TimeControl>,
    /// The number its move texts give the first rank (`ranks=`): 1 as chuhe and
    /// Fairy-Stockfish write them (`h3e3`), or 0 as Pikafish does (`h2e2`).
    #[serde(skip_serializing_if = "is_one")]
    pub first_rank: u8,
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

impl EngineSpec {
    /// Reads the cutechess/fastchess style `cmd=PROG arg=A name=N option.X=Y …`, split into
    /// words as a POSIX shell splits them (so `cmd='/path with spaces/eng'` and
    /// `"option.Skill Level=3"` are one word each); `cmd` is required. `tc=BASE+INC`,
    /// `movetime=MS`, `nodes=N` or `depth=N` give this engine its own time control.
    ///
    /// ```
    /// use chuhe_match::EngineSpec;
    /// let e = EngineSpec::parse("cmd=/usr/games/fairy-stockfish name=fsf option.UCI_Variant=xiangqi").unwrap();
    /// assert_eq!(e.name, "fsf");
    /// assert_eq!(e.options, vec![("UCI_Variant".to_string(), "xiangqi".to_string())]);
    /// assert!(EngineSpec::parse("name=x").is_err());
    /// let weak = EngineSpec::parse("cmd=chuhe arg=uci nodes=1000 'option.Skill Level=3'").unwrap();
    /// assert_eq!(weak.time_control, Some(chuhe_match::TimeControl::Nodes(1000)));
    /// assert_eq!(weak.options, vec![("Skill Level".to_string(), "3".to_string())]);
    /// ```
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let spec = Self::parse_settings(text)?;
        spec.finish(text)
    }

    /// Reads settings without requiring `cmd=` (as `--each` gives them).
    pub fn parse_settings(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            command: String::new(),
            args: Vec::new(),
            options: Vec::new(),
            time_control: None,
            first_rank: 1,
        };
        let words = shlex::split(text).ok_or_else(|| {
            format!(
                "engine '{}' has an unclosed quote or a trailing backslash",
                chuhe::quote_input(text)
            )
        })?;
        for token in &words {
            let (key, value) = token.split_once('=').ok_or_else(|| {
                format!(
                    "engine setting '{}' is not key=value (cmd=, arg=, name=, option.NAME=, tc=, movetime=, nodes=, depth=, ranks=; quote a value with spaces)",
                    chuhe::quote_input(token)
                )
            })?;
            match key {
                "cmd" => spec.command = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "name" => spec.name = value.to_string(),
                "tc" | "movetime" | "nodes" | "depth" => {
                    spec.time_control = Some(Self::time_control(key, value)?)
                }
                "ranks" => {
                    spec.first_rank = match value {
                        "0" => 0,
                        "1" => 1,
                        _ => {
                            return Err(format!(
                                "engine setting ranks='{}' is not 0 or 1 (the number the engine gives the first rank: 0 for Pikafish's h2e2, 1 for h3e3)",
                                chuhe::quote_input(value)
                            ))
                        }
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.trim().is_empty() => {
                        spec.options.push((option.trim().to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine setting '{}' (cmd=, arg=, name=, option.NAME=, tc=, movetime=, nodes=, depth=, ranks=)",
                            chuhe::quote_input(key)
                        ))
                    }
                },
            }
        }
        Ok(spec)
    }

    /// Applies settings shared by every engine (`--each`): its options come before the
    /// engine's own (so the engine's own win), its arguments before the engine's, and its
    /// program and time control count where the engine has none. A shared `name=` is refused.
    pub fn with_shared(mut self, shared: &EngineSpec) -> Result<EngineSpec, String> {
        if !shared.name.is_empty() {
            return Err("--each cannot set name= (every engine needs its own)".into());
        }
        if self.command.is_empty() {
            self.command = shared.command.clone();
        }
        let mut args = shared.args.clone();
        args.append(&mut self.args);
        self.args = args;
        let mut options = shared.options.clone();
        options.append(&mut self.options);
        self.options = options;
        self.time_control = self.time_control.or(shared.time_control);
        if self.first_rank == 1 {
            self.first_rank = shared.first_rank;
        }
        Ok(self)
    }

    /// Checks that a program is named and names the engine after it when `name=` is missing.
    pub fn finish(mut self, text: &str) -> Result<EngineSpec, String> {
        if self.command.is_empty() {
            return Err(format!(
                "engine '{}' has no cmd=PROGRAM",
                chuhe::quote_input(text)
            ));
        }
        if self.name.is_empty() {
            self.name = self
                .command
                .rsplit('/')
                .next()
                .unwrap_or(&self.command)
                .to_string();
        }
        Ok(self)
    }

    /// A move text of chuhe's UCI (`h3e3`, first rank 1) in this engine's coordinates.
    ///
    /// ```
    /// use chuhe_match::EngineSpec;
    /// let pikafish = EngineSpec::parse("cmd=pikafish ranks=0").unwrap();
    /// assert_eq!(pikafish.to_engine("h3e3"), "h2e2");
    /// assert_eq!(pikafish.to_engine("a10a9"), "a9a8");
    /// assert_eq!(pikafish.from_engine("a9a8"), "a10a9");
    /// assert_eq!(pikafish.from_engine("(none)"), "(none)");
    /// ```
    pub fn to_engine(&self, uci: &str) -> String {
        shift_ranks(uci, i32::from(self.first_rank) - 1)
    }

    /// A move text of this engine in chuhe's UCI coordinates (first rank 1). A text that is
    /// not two squares comes back as it is (the arbiter then refuses it as a move).
    pub fn from_engine(&self, text: &str) -> String {
        shift_ranks(text, 1 - i32::from(self.first_rank))
    }

    fn time_control(key: &str, value: &str) -> Result<crate::TimeControl, String> {
        use crate::TimeControl;
        let number = |what: &str| -> Result<u64, String> {
            value.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                format!(
                    "engine setting {key}='{}' is not a positive {what}",
                    chuhe::quote_input(value)
                )
            })
        };
        Ok(match key {
            "tc" => TimeControl::parse_clock(value)?,
            "movetime" => TimeControl::MoveTime(std::time::Duration::from_millis(number(
                "number of milliseconds",
            )?)),
            "nodes" => TimeControl::Nodes(number("number of nodes")?),
            _ => TimeControl::Depth(
                u32::try_from(number("depth")?)
                    .map_err(|_| format!("{key}={value} is too deep"))?,
            ),
        })
    }
}

/// `text` with the rank numbers of its two squares moved by `by` (`h3e3`, +1: `h4e4`); the
/// text unchanged when `by` is 0 or it does not start with two squares (a letter, then a
/// number) or a rank would fall below 0.
fn shift_ranks(text: &str, by: i32) -> String {
    if by == 0 {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 2);
    let mut rest = text;
    for _ in 0..2 {
        let mut chars = rest.char_indices();
        let Some((_, file)) = chars.next().filter(|(_, c)| c.is_ascii_lowercase()) else {
            return text.to_string();
        };
        let digits_end = rest[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| i + 1);
        let Some(rank) = rest[1..digits_end]
            .parse::<i32>()
            .ok()
            .map(|r| r + by)
            .filter(|r| *r >= 0)
        else {
            return text.to_string();
        };
        out.push(file);
        out.push_str(&rank.to_string());
        rest = &rest[digits_end..];
    }
    out.push_str(rest);
    out
}

/// Why an engine failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// It could not be started.
    #[error("cannot start '{command}': {reason}")]
    Start {
        /// The program.
        command: String,
        /// Why.
        reason: String,
    },
    /// It exited or closed its output.
    #[error("the engine stopped (crashed or exited)")]
    Crashed,
    /// It did not answer in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
}

/// A log of every line sent to and received from the engines: one line each, with the
/// seconds since the log was opened, the engine's name, `>` for a line sent to the engine
/// and `<` for a line it wrote (`  12.345 fsf > go depth 3`).
#[derive(Clone)]
pub struct EngineLog {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    opened: Instant,
}

impl std::fmt::Debug for EngineLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EngineLog")
    }
}

impl EngineLog {
    /// A log written to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> EngineLog {
        EngineLog {
            out: Arc::new(Mutex::new(out)),
            opened: Instant::now(),
        }
    }

    /// Writes one line (errors writing the log do not stop a match).
    fn line(&self, engine: &str, direction: char, text: &str) {
        let seconds = self.opened.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{seconds:9.3} {engine} {direction} {text}");
            let _ = out.flush();
        }
    }
}

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
    log: Option<EngineLog>,
    /// The engine's own name (`id name`), if it gave one.
    pub id_name: Option<String>,
    /// What went wrong with the options at the start: an option the engine does not list
    /// after `uci`, or an answer of the engine to a `setoption` that refuses it.
    pub warnings: Vec<String>,
}

/// How long an engine may take to start and to answer `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// The option name of an `option name NAME type …` line.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("option name ")?;
    Some(
        rest.split_once(" type ")
            .map_or(rest, |(name, _)| name)
            .trim(),
    )
}

/// Does this line, written in answer to `setoption`, refuse an option?
fn refuses_option(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let complaint = [
        "no such option",
        "unknown option",
        "refused",
        "invalid",
        "error",
        "not supported",
    ]
    .iter()
    .any(|w| lower.contains(w));
    complaint && (lower.starts_with("info string") || lower.starts_with("no such option"))
}

impl UciEngine {
    /// Starts the engine, waits for `uciok`, sends the options and waits for `readyok`.
    /// When the engine offers `UCI_Variant` with `variant` among its values and the spec
    /// does not set it, the engine is told to play `variant` (after the spec's options, so
    /// that a `VariantPath` comes first), as cutechess does. An option the engine does not
    /// list, or one it refuses in its answer, is noted in [`UciEngine::warnings`].
    pub fn start(
        spec: &EngineSpec,
        variant: Option<&str>,
        log: Option<EngineLog>,
    ) -> Result<UciEngine, EngineError> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a Ctrl-C in the terminal goes to the match runner, which
        // lets the games in play finish, not to the engines playing them.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| EngineError::Start {
            command: spec.command.clone(),
            reason: e.to_string(),
        })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                return Err(EngineError::Start {
                    command: spec.command.clone(),
                    reason: "no pipes".into(),
                });
            }
        };
        let (tx, lines) = mpsc::channel();
        let (reader_log, reader_name) = (log.clone(), spec.name.clone());
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(log) = &reader_log {
                    log.line(&reader_name, '<', &line);
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            child,
            stdin,
            lines,
            name: spec.name.clone(),
            log,
            id_name: None,
            warnings: Vec::new(),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut offers_variant = false;
        let mut listed = Vec::new();
        loop {
            let line = engine.next_line(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(name.trim().to_string());
            }
            if let Some(name) = option_name(&line) {
                listed.push(name.to_ascii_lowercase());
            }
            if let (Some(v), Some(rest)) = (variant, line.strip_prefix("option name UCI_Variant "))
            {
                let mut words = rest.split_whitespace();
                while let Some(w) = words.next() {
                    if w == "var" && words.next() == Some(v) {
                        offers_variant = true;
                    }
                }
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        // Options the engine does not list, with the warning each gets.
        let mut unlisted: Vec<(String, String)> = Vec::new();
        for (name, value) in &spec.options {
            if !listed.contains(&name.to_ascii_lowercase()) {
                unlisted.push((
                    name.clone(),
                    format!(
                        "engine '{}' does not list option '{}' (set to '{}'); it may ignore it",
                        spec.name, name, value
                    ),
                ));
            }
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        let variant_set = spec
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("UCI_Variant"));
        if let (Some(v), true, false) = (variant, offers_variant, variant_set) {
            engine.send(&format!("setoption name UCI_Variant value {v}"))?;
        }
        let mut refusals = Vec::new();
        for line in engine.sync_lines()? {
            if !refuses_option(&line) {
                continue;
            }
            // A refusal of an unlisted option joins that option's warning.
            match unlisted
                .iter_mut()
                .find(|(name, _)| line.contains(name.as_str()))
            {
                Some((_, warning)) => {
                    warning.push_str(&format!("; it answered: {}", line.trim()));
                }
                None => refusals.push(format!(
                    "engine '{}' answered a setoption: {}",
                    spec.name,
                    line.trim()
                )),
            }
        }
        engine
            .warnings
            .extend(unlisted.into_iter().map(|(_, warning)| warning));
        engine.warnings.extend(refusals);
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.line(&self.name, '>', line);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(left)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed),
        }
    }

    /// `isready` → `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.sync_lines().map(|_| ())
    }

    /// `isready` → `readyok`, giving back the lines the engine wrote before `readyok`.
    fn sync_lines(&mut self) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut before = Vec::new();
        loop {
            let line = self.next_line(deadline)?;
            if line.trim() == "readyok" {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// Sends `position …` and `go …`, and waits until `deadline` for `bestmove`. Returns the
    /// move text and the last score the engine reported (centipawns, mate as ±100000).
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<(String, Option<i32>), EngineError> {
        self.send(position)?;
        self.send(go)?;
        let mut score = None;
        loop {
            let line = self.next_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let m = words.next().unwrap_or("(none)").to_string();
                    return Ok((m, score));
                }
                Some("info") => {
                    if let Some(s) = parse_score(&line) {
                        score = Some(s);
                    }
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, and makes sure it does.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The score of an `info` line: `score cp N` or `score mate N` (as ±100000 ∓ N).
fn parse_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(100_000 - value),
        "mate" => Some(-100_000 - value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{option_name, parse_score, refuses_option};

    #[test]
    fn option_lines_and_refusals_are_read() {
        assert_eq!(
            option_name("option name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level")
        );
        assert_eq!(
            option_name("option name Clear Hash type button"),
            Some("Clear Hash")
        );
        assert_eq!(option_name("id name x"), None);
        // Fairy-Stockfish's and chuhe's answers to an unknown option.
        assert!(refuses_option("No such option: Nope"));
        assert!(refuses_option(
            "info string setoption refused: no option 'Foo' (Hash, Threads); the option keeps its value"
        ));
        assert!(!refuses_option(
            "info string variant xiangqi files 9 ranks 10"
        ));
        assert!(!refuses_option("info depth 1 score cp 0"));
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(parse_score("info depth 3 score cp -25 nodes 10"), Some(-25));
        assert_eq!(
            parse_score("info depth 9 score mate 2 pv a1a2"),
            Some(99_998)
        );
        assert_eq!(parse_score("info depth 9 score mate -1"), Some(-99_999));
        assert_eq!(parse_score("info string hello"), None);
        assert_eq!(parse_score("info score"), None);
    }
}
