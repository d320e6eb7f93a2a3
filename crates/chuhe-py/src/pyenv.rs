//! `EnvCore` (one environment) and `VecCore` (N environments stepped in Rust): the native
//! parts of `chuhe.envs` and `chuhe.vector`. Arrays are NumPy arrays allocated in Python and
//! written in place through the buffer protocol.

use chuhe::{GameKind, Side};
use chuhe_engine::Limits;
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

use crate::core::DynGame;
use crate::engine::limits;
use crate::env::{
    finished_message, new_env, DynEnv, DynEpisode, EngineSettings, EpisodeData, Opponent, Start,
    StepOut,
};
use crate::errors::{position_error, InvalidMoveError, InvalidPositionError};
use crate::game::{parse_kind, Game, Move};
use crate::pool::{for_each_chunk, Pool};

/// A writable, C-contiguous buffer of `len` items of `T`.
pub(crate) fn buffer<T: Element>(
    obj: &Bound<'_, PyAny>,
    len: usize,
    what: &str,
) -> PyResult<PyBuffer<T>> {
    let b = PyBuffer::<T>::get(obj).map_err(|e| {
        PyTypeError::new_err(format!("{what}: not an array of the expected dtype ({e})"))
    })?;
    if b.readonly() || !b.is_c_contiguous() || b.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a writable C-contiguous array of {len} items"
        )));
    }
    Ok(b)
}

/// The buffer's items as a slice.
///
/// # Safety
/// The buffer must stay alive and unaliased while the slice is used.
#[allow(clippy::mut_from_ref)]
pub(crate) unsafe fn items<T: Element>(b: &PyBuffer<T>) -> &mut [T] {
    std::slice::from_raw_parts_mut(b.buf_ptr() as *mut T, b.item_count())
}

/// The opponent and episode settings of an environment, as the Python classes pass them.
#[derive(Clone, Debug)]
struct Settings {
    opponent: Option<String>,
    engine_nodes: Option<u64>,
    engine_depth: Option<u32>,
    engine_level: u8,
    engine_temperature: Option<f64>,
    engine_lines: usize,
    agent_side: Option<Side>,
    max_plies: Option<usize>,
    history: usize,
}

fn opponent(kind: GameKind, s: &Settings) -> PyResult<Opponent> {
    match s.opponent.as_deref() {
        None | Some("none") => Ok(Opponent::None),
        Some("random") => Ok(Opponent::Random),
        Some("engine") => {
            let limits: Limits = if s.engine_nodes.is_none() && s.engine_depth.is_none() {
                limits(None, Some(1000), None)?
            } else {
                limits(s.engine_depth, s.engine_nodes, None)?
            };
            if let Some(t) = s.engine_temperature {
                if !(t.is_finite() && t > 0.0) {
                    return Err(PyValueError::new_err(format!(
                        "engine_temperature must be a positive number, not {t}"
                    )));
                }
            }
            if !(1..=64).contains(&s.engine_lines) {
                return Err(PyValueError::new_err(format!(
                    "engine_lines must be 1 to 64, not {}",
                    s.engine_lines
                )));
            }
            let settings = EngineSettings {
                limits,
                level: s.engine_level,
                temperature: s.engine_temperature,
                lines: s.engine_lines,
            };
            let engine = settings.engine(kind).map_err(PyValueError::new_err)?;
            Ok(Opponent::Engine(Some(Box::new(engine)), settings))
        }
        Some(other) => Err(PyValueError::new_err(format!(
            "unknown opponent '{}' (None, 'random', 'engine')",
            chuhe::quote_input(other)
        ))),
    }
}

fn agent_side(name: &str) -> PyResult<Option<Side>> {
    match name {
        "first" => Ok(Some(Side::First)),
        "second" => Ok(Some(Side::Second)),
        "random" => Ok(None),
        other => Err(PyValueError::new_err(format!(
            "unknown agent_side '{}' (first, second, random)",
            chuhe::quote_input(other)
        ))),
    }
}

fn side_of(name: &str) -> PyResult<Side> {
    agent_side(name)?.ok_or_else(|| PyValueError::new_err("side is 'first' or 'second'"))
}

fn make(game: &str, position: Option<&str>, s: &Settings) -> PyResult<Box<dyn DynEnv>> {
    let kind = parse_kind(game)?;
    if s.max_plies == Some(0) {
        return Err(PyValueError::new_err("max_plies must be at least 1"));
    }
    let opp = opponent(kind, s)?;
    let text = position.unwrap_or("start");
    if s.history > 64 {
        return Err(PyValueError::new_err(format!(
            "history must be 0 to 64, not {}",
            s.history
        )));
    }
    let env = new_env(kind, text, opp, s.agent_side, s.max_plies, s.history)
        .map_err(|e| position_error(&e, kind.name(), text))?;
    if let Some(outcome) = env.game().outcome() {
        let what = format!("'{}'", chuhe::quote_input(text));
        return Err(InvalidPositionError::new_err(finished_message(
            kind, &what, outcome,
        )));
    }
    Ok(env)
}

/// The start of a `reset`: a position text or a `Game` (copied, so that the GIL can be
/// released).
enum StartArg {
    Default,
    Text(String),
    Game(Box<dyn DynGame>),
}

impl StartArg {
    fn read(obj: Option<&Bound<'_, PyAny>>) -> PyResult<StartArg> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(StartArg::Default);
        };
        if let Ok(game) = obj.downcast::<Game>() {
            return Ok(StartArg::Game(game.borrow().inner.clone_box()));
        }
        if let Ok(text) = obj.extract::<String>() {
            return Ok(StartArg::Text(text));
        }
        Err(PyTypeError::new_err(format!(
            "position: {} is not a str (FEN or FEEN) or a chuhe.Game",
            obj.repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "?".into())
        )))
    }

    fn start(&self) -> Start<'_> {
        match self {
            StartArg::Default => Start::Default,
            StartArg::Text(t) => Start::Text(t),
            StartArg::Game(g) => Start::Game(g.as_ref()),
        }
    }
}

/// Reads an action: an integer (Python's, NumPy's) in `0..actions`.
pub(crate) fn read_action(obj: &Bound<'_, PyAny>, actions: usize) -> PyResult<i64> {
    if let Ok(v) = obj.extract::<i64>() {
        if (0..actions as i64).contains(&v) {
            return Ok(v);
        }
        return Err(PyValueError::new_err(format!(
            "action {v} is outside the action space Discrete({actions})"
        )));
    }
    let text = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    if obj.call_method0("__index__").is_ok() {
        // An integer too large for 64 bits.
        return Err(PyValueError::new_err(format!(
            "action {text} is outside the action space Discrete({actions})"
        )));
    }
    Err(PyTypeError::new_err(format!(
        "action {text} is not an integer of the action space Discrete({actions})"
    )))
}

/// A saved episode of an environment (`get_state()`); pickles as its moves.
#[pyclass(module = "chuhe._chuhe", frozen)]
pub struct EnvState {
    episode: Box<dyn DynEpisode>,
}

fn data_tuple(d: &EpisodeData) -> StateTuple {
    (
        crate::rules::game_id(d.kind),
        d.start.clone(),
        d.halfmove,
        d.moves.clone(),
        d.agent.as_str(),
        d.ended,
        d.rng.0,
        d.rng.1,
    )
}

/// What a pickle adds to [`StateTuple`] (pickles made before it was added have none): the
/// game's result (status, winner) once over, and the ply the episode began at.
type StateExtra = (Option<(String, Option<String>)>, usize);

type StateTuple = (
    String,
    String,
    u32,
    Vec<String>,
    &'static str,
    bool,
    u64,
    u64,
);

impl EnvState {
    /// The episode's game.
    pub(crate) fn dyn_game(&self) -> &dyn DynGame {
        self.episode.game()
    }
}

#[pymethods]
impl EnvState {
    /// The game.
    #[getter]
    fn game(&self) -> &'static str {
        self.episode.kind().name()
    }

    /// The name that `Game(...)` and the environments read back: the game's name, or
    /// `rules:DIR` for a game read from rule files.
    #[getter]
    fn _game_id(&self) -> String {
        crate::rules::game_id(self.episode.kind())
    }

    /// The moves of the episode, in coordinate form.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.episode.data().moves
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (StateTuple, StateExtra))> {
        let py = slf.py();
        let restore = py.import("chuhe._chuhe")?.getattr("_env_state")?.unbind();
        let data = slf.get().episode.data();
        let outcome = data.outcome.map(|o| {
            (
                o.status.as_str().to_string(),
                o.winner.map(|w| w.as_str().to_string()),
            )
        });
        Ok((restore, (data_tuple(&data), (outcome, data.first_ply))))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        // Frozen: a saved episode never changes, so a copy may share it.
        slf
    }
}

/// Rebuilds a saved episode from its pickled form (the moves are replayed and checked).
#[pyfunction]
#[pyo3(signature = (data, extra = None))]
pub fn _env_state(
    data: (String, String, u32, Vec<String>, String, bool, u64, u64),
    extra: Option<StateExtra>,
) -> PyResult<EnvState> {
    let (game, start, halfmove, moves, agent, ended, seed, draws) = data;
    let (outcome, first_ply) = extra.unwrap_or((None, 0));
    let outcome = match outcome {
        Some((status, winner)) => {
            let status = status
                .parse::<chuhe::Status>()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let winner = winner.as_deref().map(side_of).transpose()?;
            Some(chuhe::Outcome::new(status, winner))
        }
        None => None,
    };
    let kind = parse_kind(&game)?;
    let data = EpisodeData {
        kind,
        start,
        halfmove,
        moves,
        agent: side_of(&agent)?,
        ended,
        rng: (seed, draws),
        outcome,
        first_ply,
    };
    let mut env = new_env(kind, "start", Opponent::None, None, None, 0)
        .map_err(|e| position_error(&e, kind.name(), "start"))?;
    env.load(&data).map_err(PyValueError::new_err)?;
    Ok(EnvState {
        episode: env.save(),
    })
}

/// `(files, ranks, planes, choices, actions)` of a game, the planes with `history` earlier
/// positions.
#[pyfunction]
#[pyo3(signature = (game, history = 0))]
pub fn env_spec(game: &str, history: usize) -> PyResult<(usize, usize, usize, usize, usize)> {
    let s = crate::env::spec_for(parse_kind(game)?, history);
    Ok((s.files, s.ranks, s.planes, s.choices, s.actions))
}

/// One environment; see `chuhe.envs.ChuheEnv`.
#[pyclass(module = "chuhe._chuhe")]
pub struct EnvCore {
    env: Mutex<Box<dyn DynEnv>>,
    searches: bool,
}

impl EnvCore {
    fn env(&self) -> MutexGuard<'_, Box<dyn DynEnv>> {
        self.env.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn env_mut(&mut self) -> &mut Box<dyn DynEnv> {
        self.env.get_mut().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl EnvCore {
    #[new]
    #[pyo3(signature = (game, position = None, opponent = None, engine_nodes = None,
                        engine_depth = None, agent_side = "first", max_plies = None,
                        engine_level = 20, engine_temperature = None, engine_lines = 8,
                        history = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        position: Option<&str>,
        opponent: Option<String>,
        engine_nodes: Option<u64>,
        engine_depth: Option<u32>,
        agent_side: &str,
        max_plies: Option<usize>,
        engine_level: u8,
        engine_temperature: Option<f64>,
        engine_lines: usize,
        history: usize,
    ) -> PyResult<EnvCore> {
        let searches = opponent.as_deref() == Some("engine");
        let settings = Settings {
            opponent,
            engine_nodes,
            engine_depth,
            engine_level,
            engine_temperature,
            engine_lines,
            agent_side: self::agent_side(agent_side)?,
            max_plies,
            history,
        };
        Ok(EnvCore {
            env: Mutex::new(make(game, position, &settings)?),
            searches,
        })
    }

    /// A copy: the same settings and episode (an engine opponent starts afresh, with an
    /// empty hash table).
    fn clone(&self) -> EnvCore {
        EnvCore {
            env: Mutex::new(self.env().clone_box()),
            searches: self.searches,
        }
    }

    /// The episode so far, to restore with `restore`.
    fn save(&self) -> EnvState {
        EnvState {
            episode: self.env().save(),
        }
    }

    /// Restores an episode saved from an environment of the same game; writes its
    /// observation and mask.
    fn restore(
        &mut self,
        state: &EnvState,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = self.env().spec();
        let ob = buffer::<f32>(obs, s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, s.actions, "mask")?;
        let env = self.env_mut();
        env.restore(state.episode.as_ref())
            .map_err(PyValueError::new_err)?;
        // SAFETY: both buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        env.current(o, m);
        Ok(())
    }

    /// Writes the observation and mask of the current position.
    fn current(&self, obs: &Bound<'_, PyAny>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        let env = self.env();
        let s = env.spec();
        let ob = buffer::<f32>(obs, s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, s.actions, "mask")?;
        // SAFETY: as in `restore`.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        env.current(o, m);
        Ok(())
    }

    /// `(files, ranks, planes, choices, actions)`.
    fn spec(&self) -> (usize, usize, usize, usize, usize) {
        let s = self.env().spec();
        (s.files, s.ranks, s.planes, s.choices, s.actions)
    }

    /// Starts an episode (from `position` when given: a FEN or FEEN, or a `Game` with its
    /// history); writes the observation and mask. A finished position is refused.
    #[pyo3(signature = (seed, obs, mask, position = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let start = StartArg::read(position)?;
        let s = self.env().spec();
        let ob = buffer::<f32>(obs, s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, s.actions, "mask")?;
        // SAFETY: both buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        let searches = self.searches;
        let env = self.env_mut();
        let done = if searches {
            py.allow_threads(|| env.reset(seed, start.start(), o, m))
        } else {
            env.reset(seed, start.start(), o, m)
        };
        done.map_err(InvalidPositionError::new_err)
    }

    /// Plays `action` (and the opponent's reply); returns `(reward, terminated, truncated,
    /// illegal)`.
    fn step(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<(f32, bool, bool, bool)> {
        let s = self.env().spec();
        let action = read_action(action, s.actions)?;
        let ob = buffer::<f32>(obs, s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, s.actions, "mask")?;
        // SAFETY: as in `reset`.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        let searches = self.searches;
        let env = self.env_mut();
        let out = if searches {
            py.allow_threads(|| env.step(action, o, m))
        } else {
            env.step(action, o, m)
        };
        let StepOut {
            reward,
            terminated,
            truncated,
            illegal,
        } = out.map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
        Ok((reward, terminated, truncated, illegal))
    }

    /// The action of a move of the current position (a `Move` or its text).
    fn encode(&self, m: &Bound<'_, PyAny>) -> PyResult<usize> {
        let game = Game {
            inner: self.env().game().clone_box(),
        };
        let bits = game.read_move(m, None)?;
        self.env()
            .encode(bits)
            .ok_or_else(|| InvalidMoveError::new_err("not a move of this game"))
    }

    /// The move of an action in the current position (legal or not), or `None` when the
    /// number encodes no move (its squares are the same); an action outside the space is a
    /// `ValueError`.
    fn decode(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
        let env = self.env();
        let action = read_action(action, env.spec().actions)?;
        Ok(env.decode(action).map(|bits| Move {
            pos: env.game().position(),
            bits,
        }))
    }

    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.env().legal_actions()
    }

    /// A uniformly random legal action, or `None` when there is none.
    fn sample(&mut self) -> Option<usize> {
        self.env_mut().sample()
    }

    /// A copy of the game so far.
    fn game(&self) -> Game {
        Game {
            inner: self.env().game().clone_box(),
        }
    }

    /// Writes the observation from `side`'s view (`"first"` or `"second"`).
    fn observe(&self, side: &str, obs: &Bound<'_, PyAny>) -> PyResult<()> {
        let side = side_of(side)?;
        let env = self.env();
        let ob = buffer::<f32>(obs, env.spec().obs_len(), "obs")?;
        // SAFETY: the buffer is held for the call.
        env.observe(side, unsafe { items(&ob) });
        Ok(())
    }

    /// The side to move: `"first"` or `"second"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.env().game().turn().as_str()
    }

    /// Is the episode over?
    #[getter]
    fn done(&self) -> bool {
        self.env().done()
    }

    /// The board as text.
    fn board(&self) -> String {
        self.env().game().board_text(chuhe::Glyphs::Latin)
    }

    /// The FEEN of the current position.
    #[getter]
    fn feen(&self) -> String {
        self.env().game().to_feen()
    }

    /// The pieces for drawing: `(square index, side 0/1, role index)` for every piece.
    fn pieces(&self) -> Vec<(usize, u8, usize)> {
        self.env().pieces()
    }

    /// The agent's side: `"first"` or `"second"`.
    #[getter]
    fn agent(&self) -> &'static str {
        self.env().agent().as_str()
    }
}

/// N environments stepped together in Rust; see `chuhe.vector.ChuheVectorEnv`.
#[pyclass(module = "chuhe._chuhe")]
pub struct VecCore {
    envs: Mutex<Vec<Box<dyn DynEnv>>>,
    spec: crate::env::Spec,
    threads: usize,
    /// `threads - 1` workers, started once (the calling thread is the other one).
    pool: Pool,
    /// The addresses of the observation and mask arrays of the last call that wrote them:
    /// when the next call gives the same ones (`chuhe.vector` always does, and hands out
    /// read-only views of them), each environment clears only what it wrote there.
    kept_at: Option<(usize, usize)>,
}

/// Tells every environment whether `obs` and `mask` are the arrays of the last call, and
/// remembers them.
fn keep_buffers(
    envs: &mut [Box<dyn DynEnv>],
    kept_at: &mut Option<(usize, usize)>,
    obs: &[f32],
    mask: &[i8],
) {
    let at = (obs.as_ptr() as usize, mask.as_ptr() as usize);
    let same = *kept_at == Some(at);
    for env in envs {
        env.keep_buffers(same);
    }
    *kept_at = Some(at);
}

/// A run of environments with their parts of the arrays (the step's outputs empty in
/// `reset`).
struct Chunk<'a> {
    start: usize,
    envs: &'a mut [Box<dyn DynEnv>],
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    out: Outputs<'a>,
}

/// The step's outputs per environment: reward, flags, and the final observation and mask
/// of an episode that ended (written only then).
#[derive(Default)]
struct Outputs<'a> {
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    illegal: &'a mut [u8],
    final_obs: &'a mut [f32],
    final_mask: &'a mut [i8],
}

impl<'a> Outputs<'a> {
    /// The first `k` environments' outputs and the rest (`ol`, `ml`: the lengths of one
    /// observation and one mask).
    fn split(self, k: usize, ol: usize, ml: usize) -> (Outputs<'a>, Outputs<'a>) {
        let k = if self.rewards.is_empty() { 0 } else { k };
        let (r1, r2) = self.rewards.split_at_mut(k);
        let (t1, t2) = self.terminated.split_at_mut(k);
        let (u1, u2) = self.truncated.split_at_mut(k);
        let (i1, i2) = self.illegal.split_at_mut(k);
        let (o1, o2) = self.final_obs.split_at_mut(k * ol);
        let (m1, m2) = self.final_mask.split_at_mut(k * ml);
        (
            Outputs {
                rewards: r1,
                terminated: t1,
                truncated: u1,
                illegal: i1,
                final_obs: o1,
                final_mask: m1,
            },
            Outputs {
                rewards: r2,
                terminated: t2,
                truncated: u2,
                illegal: i2,
                final_obs: o2,
                final_mask: m2,
            },
        )
    }
}

/// The environments per chunk: a few chunks per thread, so that the threads even out.
fn chunk_len(n: usize, threads: usize) -> usize {
    if threads <= 1 {
        n.max(1)
    } else {
        (n / (8 * threads)).clamp(1, 32)
    }
}

/// Environments and their slots of the actions, sampled by one thread at a time.
type SampleChunk<'a> = (&'a mut [Box<dyn DynEnv>], &'a mut [i64]);

/// What one environment's part of a step gets: its index, the environment, its observation
/// and mask, and its final observation and mask (empty in `reset`).
struct Slot<'s> {
    index: usize,
    env: &'s mut Box<dyn DynEnv>,
    obs: &'s mut [f32],
    mask: &'s mut [i8],
    final_obs: &'s mut [f32],
    final_mask: &'s mut [i8],
}

/// Runs `f` on every environment on the pool's threads; `f`'s result goes to the rewards
/// and flags where they are given.
fn par_each<F>(
    pool: &mut Pool,
    threads: usize,
    envs: &mut [Box<dyn DynEnv>],
    obs: &mut [f32],
    mask: &mut [i8],
    out: Outputs<'_>,
    f: F,
) where
    F: Fn(Slot<'_>) -> StepOut + Sync,
{
    let n = envs.len();
    let ol = obs.len() / n.max(1);
    let ml = mask.len() / n.max(1);
    let per = chunk_len(n, threads);
    let outputs = !out.rewards.is_empty();
    let mut chunks: Vec<Chunk<'_>> = Vec::with_capacity(n.div_ceil(per));
    let (mut e, mut o, mut m, mut rest) = (envs, obs, mask, out);
    let mut start = 0;
    while !e.is_empty() {
        let k = per.min(e.len());
        let (e1, e2) = e.split_at_mut(k);
        let (o1, o2) = o.split_at_mut(k * ol);
        let (m1, m2) = m.split_at_mut(k * ml);
        let (out1, out2) = rest.split(k, ol, ml);
        chunks.push(Chunk {
            start,
            envs: e1,
            obs: o1,
            mask: m1,
            out: out1,
        });
        (e, o, m, rest) = (e2, o2, m2, out2);
        start += k;
    }
    let run = |c: &mut Chunk<'_>| {
        let out = &mut c.out;
        let mut fo = out.final_obs.chunks_mut(ol.max(1));
        let mut fm = out.final_mask.chunks_mut(ml.max(1));
        for (k, ((env, o), m)) in c
            .envs
            .iter_mut()
            .zip(c.obs.chunks_mut(ol))
            .zip(c.mask.chunks_mut(ml))
            .enumerate()
        {
            let res = f(Slot {
                index: c.start + k,
                env,
                obs: o,
                mask: m,
                final_obs: fo.next().unwrap_or_default(),
                final_mask: fm.next().unwrap_or_default(),
            });
            if outputs {
                out.rewards[k] = res.reward;
                out.terminated[k] = u8::from(res.terminated);
                out.truncated[k] = u8::from(res.truncated);
                out.illegal[k] = u8::from(res.illegal);
            }
        }
    };
    if chunks.len() == 1 {
        run(&mut chunks[0]);
    } else {
        for_each_chunk(pool, &mut chunks, run);
    }
}

#[pymethods]
impl VecCore {
    #[new]
    #[pyo3(signature = (game, num_envs, position = None, opponent = None, engine_nodes = None,
                        engine_depth = None, agent_side = "first", max_plies = None,
                        threads = None, engine_level = 20, engine_temperature = None,
                        engine_lines = 8, history = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        num_envs: usize,
        position: Option<&str>,
        opponent: Option<String>,
        engine_nodes: Option<u64>,
        engine_depth: Option<u32>,
        agent_side: &str,
        max_plies: Option<usize>,
        threads: Option<usize>,
        engine_level: u8,
        engine_temperature: Option<f64>,
        engine_lines: usize,
        history: usize,
    ) -> PyResult<VecCore> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let settings = Settings {
            opponent,
            engine_nodes,
            engine_depth,
            engine_level,
            engine_temperature,
            engine_lines,
            agent_side: self::agent_side(agent_side)?,
            max_plies,
            history,
        };
        let first = make(game, position, &settings)?;
        let mut envs = Vec::with_capacity(num_envs);
        for _ in 1..num_envs {
            envs.push(first.clone_box());
        }
        envs.push(first);
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, num_envs);
        let spec = envs[0].spec();
        Ok(VecCore {
            envs: Mutex::new(envs),
            spec,
            threads,
            pool: Pool::new(threads - 1),
            kept_at: None,
        })
    }

    /// Starts every episode, environment `i` with `seeds[i]` (`None`: its random source goes
    /// on), from `position` when given (a FEN or FEEN, or a `Game` with its history). A
    /// finished position is refused.
    #[pyo3(signature = (seeds, obs, mask, position = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Vec<Option<u64>>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let start = StartArg::read(position)?;
        let s = self.spec;
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        if seeds.len() != n {
            return Err(PyValueError::new_err(format!(
                "seeds: {} given for {n} environments",
                seeds.len()
            )));
        }
        // Checked once before any environment changes.
        envs[0]
            .check_start(start.start())
            .map_err(InvalidPositionError::new_err)?;
        let ob = buffer::<f32>(obs, n * s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, n * s.actions, "mask")?;
        // SAFETY: the buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        keep_buffers(envs, &mut self.kept_at, o, m);
        let (threads, pool) = (self.threads, &mut self.pool);
        let seeds = &seeds;
        let start = &start;
        py.allow_threads(|| {
            par_each(pool, threads, envs, o, m, Outputs::default(), |slot| {
                // The start checked above: it is accepted here too.
                let _ = slot
                    .env
                    .reset(seeds[slot.index], start.start(), slot.obs, slot.mask);
                StepOut::default()
            })
        });
        Ok(())
    }

    /// Steps every environment with its action; a finished episode is reset in the same
    /// step (its reward and flags are the finished episode's, the observation and mask the
    /// new episode's; its last observation and mask go to `final_obs` and `final_mask`). An
    /// illegal action loses its episode (`illegal` set).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        illegal: &Bound<'_, PyAny>,
        final_obs: &Bound<'_, PyAny>,
        final_mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = self.spec;
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        let ab = buffer::<i64>(actions, n, "actions")?;
        let ob = buffer::<f32>(obs, n * s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, n * s.actions, "mask")?;
        let rb = buffer::<f32>(rewards, n, "rewards")?;
        let tb = buffer::<u8>(terminated, n, "terminated (a uint8 view)")?;
        let ub = buffer::<u8>(truncated, n, "truncated (a uint8 view)")?;
        let ib = buffer::<u8>(illegal, n, "illegal (a uint8 view)")?;
        let fob = buffer::<f32>(final_obs, n * s.obs_len(), "final_obs")?;
        let fmb = buffer::<i8>(final_mask, n * s.actions, "final_mask")?;
        // SAFETY: the buffers are held for the call; the caller passes distinct arrays.
        let (a, o, m) = unsafe { (items(&ab), items(&ob), items(&mb)) };
        let a: &[i64] = a;
        keep_buffers(envs, &mut self.kept_at, o, m);
        if let Some(i) = envs.iter().position(|e| e.done()) {
            // Only a restored state can be finished (episodes that end restart at once).
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "environment {i}: the episode is over; call reset() first"
            )));
        }
        if let Some((i, v)) = a
            .iter()
            .enumerate()
            .find(|(_, &v)| !(0..s.actions as i64).contains(&v))
        {
            return Err(PyValueError::new_err(format!(
                "actions[{i}] = {v} is outside the action space Discrete({})",
                s.actions
            )));
        }
        let out = unsafe {
            Outputs {
                rewards: items(&rb),
                terminated: items(&tb),
                truncated: items(&ub),
                illegal: items(&ib),
                final_obs: items(&fob),
                final_mask: items(&fmb),
            }
        };
        let (threads, pool) = (self.threads, &mut self.pool);
        py.allow_threads(|| {
            par_each(pool, threads, envs, o, m, out, |slot| {
                let env = slot.env;
                let res: StepOut = env
                    .step(a[slot.index], slot.obs, slot.mask)
                    .unwrap_or_default();
                if res.terminated || res.truncated || env.done() {
                    slot.final_obs.copy_from_slice(slot.obs);
                    slot.final_mask.copy_from_slice(slot.mask);
                    let _ = env.reset(None, Start::Default, slot.obs, slot.mask);
                }
                res
            })
        });
        Ok(())
    }

    /// Writes a uniformly random legal action of every environment into `actions` (on the
    /// pool's threads: each environment draws from its own generator, so the actions do not
    /// depend on the threads).
    fn sample(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        let ab = buffer::<i64>(actions, n, "actions")?;
        // SAFETY: the buffer is held for the call.
        let a = unsafe { items(&ab) };
        let per = chunk_len(n, self.threads);
        let mut chunks: Vec<SampleChunk<'_>> =
            envs.chunks_mut(per).zip(a.chunks_mut(per)).collect();
        let pool = &mut self.pool;
        py.allow_threads(|| {
            for_each_chunk(pool, &mut chunks, |(envs, actions)| {
                for (slot, env) in actions.iter_mut().zip(envs.iter_mut()) {
                    *slot = env.sample().map_or(0, |x| x as i64);
                }
            })
        });
        Ok(())
    }

    /// The episodes of every environment, to restore with `restore`.
    fn save(&self) -> Vec<EnvState> {
        let envs = self.envs.lock().unwrap_or_else(|e| e.into_inner());
        envs.iter()
            .map(|e| EnvState { episode: e.save() })
            .collect()
    }

    /// Restores saved episodes of the same game: one per environment, or into the
    /// environments `indices` (distinct) only; writes their observations and masks. On
    /// error nothing changed.
    #[pyo3(signature = (states, obs, mask, indices = None))]
    fn restore(
        &mut self,
        states: Vec<PyRef<'_, EnvState>>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        indices: Option<Vec<usize>>,
    ) -> PyResult<()> {
        let s = self.spec;
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        let indices = match indices {
            Some(ix) => {
                if ix.len() != states.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} states given for {} indices",
                        states.len(),
                        ix.len()
                    )));
                }
                let mut seen = vec![false; n];
                for &i in &ix {
                    if i >= n || std::mem::replace(&mut seen[i], true) {
                        return Err(PyValueError::new_err(format!(
                            "indices: {i} is {} (0 to {} for {n} environments, each once)",
                            if i >= n { "out of range" } else { "repeated" },
                            n - 1
                        )));
                    }
                }
                ix
            }
            None if states.len() != n => {
                return Err(PyValueError::new_err(format!(
                    "{} states given for {n} environments (name their indices to set \
                     some of them)",
                    states.len()
                )));
            }
            None => (0..n).collect(),
        };
        let ob = buffer::<f32>(obs, n * s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, n * s.actions, "mask")?;
        let kind = envs[0].game().kind();
        if let Some(bad) = states.iter().find(|st| st.episode.kind() != kind) {
            return Err(PyValueError::new_err(format!(
                "the state is of a {} episode, not {kind}",
                bad.episode.kind()
            )));
        }
        if let Some(i) = states.iter().position(|st| st.episode.ended()) {
            return Err(PyValueError::new_err(format!(
                "states[{i}] is of a finished episode: a vector environment holds none (an \
                 episode that ends restarts in the same step)"
            )));
        }
        // SAFETY: the buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        let (ol, ml) = (s.obs_len(), s.actions);
        keep_buffers(envs, &mut self.kept_at, o, m);
        for (&i, st) in indices.iter().zip(&states) {
            let env = &mut envs[i];
            env.restore(st.episode.as_ref())
                .map_err(PyValueError::new_err)?;
            env.current(&mut o[i * ol..(i + 1) * ol], &mut m[i * ml..(i + 1) * ml]);
            // Written whole, without marks: its next write is whole too.
            env.keep_buffers(false);
        }
        Ok(())
    }

    /// `(files, ranks, planes, choices, actions)`.
    fn spec(&self) -> (usize, usize, usize, usize, usize) {
        let s = self.spec;
        (s.files, s.ranks, s.planes, s.choices, s.actions)
    }

    /// The number of environments.
    fn __len__(&self) -> usize {
        self.envs.lock().map_or(0, |e| e.len())
    }
}
