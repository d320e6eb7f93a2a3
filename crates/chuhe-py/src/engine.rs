//! `chuhe.Engine`: the search, reached through the engine façade.

use std::time::Duration;

use chuhe::{GameOptions, MoveNotation};
use chuhe_engine::{BestMove, Engine as Searcher, Limits, Score, SearchEvent, SearchInfo};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::core::DynGame;
use crate::game::{Game, Move};

/// Search limits from optional keyword arguments: at least one is needed.
pub fn limits(depth: Option<u32>, nodes: Option<u64>, movetime: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        return Err(PyValueError::new_err(
            "give a search limit: depth=…, nodes=… or movetime=… (seconds)",
        ));
    }
    if depth == Some(0) || nodes == Some(0) {
        return Err(PyValueError::new_err("depth and nodes must be at least 1"));
    }
    let movetime = match movetime {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(PyValueError::new_err(format!(
                "movetime must be a positive number of seconds, not {s}"
            )))
        }
        Some(s) => Some(Duration::from_secs_f64(s.min(1e6))),
        None => None,
    };
    Ok(Limits {
        depth,
        nodes,
        movetime,
        ..Limits::default()
    })
}

/// Sets `engine` to `game`'s start position and moves, then searches, giving each event to
/// `listener` (the caller releases the GIL around this).
pub fn search(
    engine: &mut Searcher,
    game: &dyn DynGame,
    limits: Limits,
    listener: impl FnMut(SearchEvent) + Send + 'static,
) -> Result<BestMove, String> {
    let kind = game.kind();
    if engine.game() != kind {
        engine.set_game(kind).map_err(|e| e.to_string())?;
    }
    let (start, halfmove) = game.start();
    let moves = game.moves_uci();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let options = GameOptions {
        halfmove: Some(halfmove),
        ..GameOptions::default()
    };
    engine
        .set_position_with(&start, options, &moves)
        .map_err(|e| e.to_string())?;
    engine
        .search_with(limits, listener)
        .map_err(|e| e.to_string())
}

/// Searches as [`search`] does and collects the engine's lines (MultiPV): the last exact
/// report of each, one per first move, best first.
pub fn search_lines(
    engine: &mut Searcher,
    game: &dyn DynGame,
    limits: Limits,
) -> Result<(BestMove, Vec<SearchInfo>), String> {
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<SearchInfo>::new()));
    let sink = std::sync::Arc::clone(&lines);
    let best = search(engine, game, limits, move |e| {
        if let SearchEvent::Info(info) = e {
            if info.bound.is_none() && !info.pv.is_empty() {
                let mut l = sink.lock().unwrap_or_else(|e| e.into_inner());
                match l.iter_mut().find(|x| x.multipv == info.multipv) {
                    Some(x) => *x = info,
                    None => l.push(info),
                }
            }
        }
    })?;
    let mut lines = std::mem::take(&mut *lines.lock().unwrap_or_else(|e| e.into_inner()));
    lines.sort_by_key(|l| l.multipv);
    // Distinct first moves only (reports of different depths may share one).
    let mut seen: Vec<String> = Vec::new();
    lines.retain(|l| {
        let first = &l.pv[0];
        let new = !seen.contains(first);
        if new {
            seen.push(first.clone());
        }
        new
    });
    Ok((best, lines))
}

/// chuhe's engine: `Engine(hash_mb=16, threads=1, level=20)` (level 0 is the weakest, 20
/// full strength). `analyse` and `play` release the GIL while searching.
#[pyclass(module = "chuhe")]
pub struct Engine {
    engine: std::sync::Mutex<Searcher>,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (hash_mb = 16, threads = 1, level = 20))]
    fn new(hash_mb: usize, threads: usize, level: usize) -> PyResult<Engine> {
        let mut engine = Searcher::new(chuhe::GameKind::Xiongqi);
        engine
            .set_level(level)
            .map_err(|e| PyValueError::new_err(format!("level: {e}")))?;
        engine
            .set_hash(hash_mb)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        engine
            .set_threads(threads)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Engine {
            engine: std::sync::Mutex::new(engine),
        })
    }

    /// Searches `game`'s position; returns `(best, kind, value, depth, nodes, seconds, pv)`
    /// where `kind` is `"cp"` or `"mate"` (the Python wrapper builds an `Analysis`).
    #[pyo3(signature = (game, depth = None, nodes = None, movetime = None))]
    #[allow(clippy::type_complexity)]
    fn _search(
        &mut self,
        py: Python<'_>,
        game: &Game,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<(Option<Move>, &'static str, i32, u32, u64, f64, Vec<Move>)> {
        let limits = limits(depth, nodes, movetime)?;
        if let Some(o) = game.inner.outcome() {
            return Err(PyValueError::new_err(format!(
                "the game is over ({o}); there is nothing to search"
            )));
        }
        let engine = self.engine.get_mut().unwrap_or_else(|e| e.into_inner());
        let inner: &dyn DynGame = game.inner.as_ref();
        let best = py
            .allow_threads(|| search(engine, inner, limits, |_| {}))
            .map_err(PyRuntimeError::new_err)?;
        let mut replay = game.inner.clone_box();
        let mut pv = Vec::new();
        for text in &best.pv {
            let Ok(bits) = replay.parse(text, Some(MoveNotation::Uci)) else {
                break;
            };
            let pos = replay.position();
            if replay.push_bits(bits).is_err() {
                break;
            }
            pv.push(Move { pos, bits });
        }
        let first = match &best.best {
            Some(text) => {
                let bits = game
                    .inner
                    .parse(text, Some(MoveNotation::Uci))
                    .map_err(|e| PyRuntimeError::new_err(format!("engine move {text}: {e}")))?;
                Some(Move {
                    pos: game.inner.position(),
                    bits,
                })
            }
            None => None,
        };
        let (kind, value) = match best.score {
            Score::Cp(v) => ("cp", v),
            Score::Mate(n) => ("mate", n),
        };
        Ok((
            first,
            kind,
            value,
            best.depth,
            best.nodes,
            best.time.as_secs_f64(),
            pv,
        ))
    }

    /// The engine's `multipv` best moves in `game`'s position, best first: `(move, kind,
    /// value)` with `kind` `"cp"` or `"mate"` (the Python wrapper builds `Line`s).
    #[pyo3(signature = (game, multipv, depth = None, nodes = None, movetime = None))]
    fn _lines(
        &mut self,
        py: Python<'_>,
        game: &Game,
        multipv: usize,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<Vec<(Move, &'static str, i32)>> {
        let limits = limits(depth, nodes, movetime)?;
        if let Some(o) = game.inner.outcome() {
            return Err(PyValueError::new_err(format!(
                "the game is over ({o}); there is nothing to search"
            )));
        }
        let engine = self.engine.get_mut().unwrap_or_else(|e| e.into_inner());
        let before = engine.options().multipv;
        engine
            .set_multipv(multipv)
            .map_err(|e| PyValueError::new_err(format!("multipv: {e}")))?;
        let inner: &dyn DynGame = game.inner.as_ref();
        let found = py.allow_threads(|| search_lines(engine, inner, limits));
        let _ = engine.set_multipv(before);
        let (_, lines) = found.map_err(PyRuntimeError::new_err)?;
        let pos = game.inner.position();
        let mut out = Vec::new();
        for line in lines {
            let bits = game
                .inner
                .parse(&line.pv[0], Some(MoveNotation::Uci))
                .map_err(|e| PyRuntimeError::new_err(format!("engine move {}: {e}", line.pv[0])))?;
            let (kind, value) = match line.score {
                Score::Cp(v) => ("cp", v),
                Score::Mate(n) => ("mate", n),
            };
            out.push((
                Move {
                    pos: pos.clone(),
                    bits,
                },
                kind,
                value,
            ));
        }
        Ok(out)
    }
}
