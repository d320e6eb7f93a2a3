//! `EnvCore` (one environment) and `VecCore` (N environments stepped in Rust): the native
//! parts of `chuhe.envs` and `chuhe.vector`. Arrays are NumPy arrays allocated in Python and
//! written in place through the buffer protocol.

use chuhe::{GameKind, Side};
use chuhe_engine::{Engine as Searcher, Limits};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

use crate::engine::limits;
use crate::env::{new_env, spec_of, DynEnv, Opponent, StepOut};
use crate::errors::{position_error, InvalidMoveError};
use crate::game::{parse_kind, Game, Move};
use crate::pool::{for_each_chunk, Pool};

/// A writable, C-contiguous buffer of `len` items of `T`.
fn buffer<T: Element>(obj: &Bound<'_, PyAny>, len: usize, what: &str) -> PyResult<PyBuffer<T>> {
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
unsafe fn items<T: Element>(b: &PyBuffer<T>) -> &mut [T] {
    std::slice::from_raw_parts_mut(b.buf_ptr() as *mut T, b.item_count())
}

fn opponent(
    kind: GameKind,
    name: Option<&str>,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> PyResult<Opponent> {
    match name {
        None | Some("none") => Ok(Opponent::None),
        Some("random") => Ok(Opponent::Random),
        Some("engine") => {
            let limits: Limits = if nodes.is_none() && depth.is_none() {
                limits(None, Some(1000), None)?
            } else {
                limits(depth, nodes, None)?
            };
            let mut engine = Searcher::new(kind);
            engine
                .set_hash(1)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(Opponent::Engine(Box::new(engine), limits))
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

#[allow(clippy::too_many_arguments)]
fn make(
    game: &str,
    position: Option<&str>,
    opponent_name: Option<&str>,
    engine_nodes: Option<u64>,
    engine_depth: Option<u32>,
    agent: &str,
    max_plies: Option<usize>,
) -> PyResult<Box<dyn DynEnv>> {
    let kind = parse_kind(game)?;
    let opp = opponent(kind, opponent_name, engine_nodes, engine_depth)?;
    let side = agent_side(agent)?;
    let text = position.unwrap_or("start");
    new_env(kind, text, opp, side, max_plies).map_err(|e| position_error(&e, kind.name(), text))
}

/// `(files, ranks, planes, choices, actions)` of a game.
#[pyfunction]
pub fn env_spec(game: &str) -> PyResult<(usize, usize, usize, usize, usize)> {
    let s = spec_of(parse_kind(game)?);
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
                        engine_depth = None, agent_side = "first", max_plies = None))]
    fn new(
        game: &str,
        position: Option<&str>,
        opponent: Option<&str>,
        engine_nodes: Option<u64>,
        engine_depth: Option<u32>,
        agent_side: &str,
        max_plies: Option<usize>,
    ) -> PyResult<EnvCore> {
        Ok(EnvCore {
            env: Mutex::new(make(
                game,
                position,
                opponent,
                engine_nodes,
                engine_depth,
                agent_side,
                max_plies,
            )?),
            searches: opponent == Some("engine"),
        })
    }

    /// `(files, ranks, planes, choices, actions)`.
    fn spec(&self) -> (usize, usize, usize, usize, usize) {
        let s = self.env().spec();
        (s.files, s.ranks, s.planes, s.choices, s.actions)
    }

    /// Starts an episode; writes the observation and mask.
    #[pyo3(signature = (seed, obs, mask))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = self.env().spec();
        let ob = buffer::<f32>(obs, s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, s.actions, "mask")?;
        // SAFETY: both buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        let searches = self.searches;
        let env = self.env_mut();
        if searches {
            py.allow_threads(|| env.reset(seed, o, m));
        } else {
            env.reset(seed, o, m);
        }
        Ok(())
    }

    /// Plays `action` (and the opponent's reply); returns `(reward, terminated, truncated,
    /// illegal)`.
    fn step(
        &mut self,
        py: Python<'_>,
        action: i64,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<(f32, bool, bool, bool)> {
        let s = self.env().spec();
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
    /// number encodes no move.
    fn decode(&self, action: i64) -> Option<Move> {
        let env = self.env();
        let bits = env.decode(action)?;
        Some(Move {
            pos: env.game().position(),
            bits,
        })
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
        let side = agent_side(side)?
            .ok_or_else(|| PyValueError::new_err("side is 'first' or 'second'"))?;
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
}

/// A run of environments with their parts of the arrays (the step's outputs empty in
/// `reset`).
struct Chunk<'a> {
    start: usize,
    envs: &'a mut [Box<dyn DynEnv>],
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
}

/// The environments per chunk: a few chunks per thread, so that the threads even out.
fn chunk_len(n: usize, threads: usize) -> usize {
    if threads <= 1 {
        n.max(1)
    } else {
        (n / (8 * threads)).clamp(1, 32)
    }
}

/// Runs `f` on every environment (its index, the environment, its observation and mask),
/// on the pool's threads; `f`'s result goes to the rewards and flags where they are given.
#[allow(clippy::too_many_arguments)]
fn par_each<F>(
    pool: &mut Pool,
    threads: usize,
    envs: &mut [Box<dyn DynEnv>],
    obs: &mut [f32],
    mask: &mut [i8],
    rewards: &mut [f32],
    terminated: &mut [u8],
    truncated: &mut [u8],
    f: F,
) where
    F: Fn(usize, &mut Box<dyn DynEnv>, &mut [f32], &mut [i8]) -> StepOut + Sync,
{
    let n = envs.len();
    let ol = obs.len() / n.max(1);
    let ml = mask.len() / n.max(1);
    let per = chunk_len(n, threads);
    let outputs = !rewards.is_empty();
    let mut chunks: Vec<Chunk<'_>> = Vec::with_capacity(n.div_ceil(per));
    let (mut e, mut o, mut m) = (envs, obs, mask);
    let (mut r, mut t, mut u) = (rewards, terminated, truncated);
    let mut start = 0;
    while !e.is_empty() {
        let k = per.min(e.len());
        let (e1, e2) = e.split_at_mut(k);
        let (o1, o2) = o.split_at_mut(k * ol);
        let (m1, m2) = m.split_at_mut(k * ml);
        let ko = if outputs { k } else { 0 };
        let (r1, r2) = r.split_at_mut(ko);
        let (t1, t2) = t.split_at_mut(ko);
        let (u1, u2) = u.split_at_mut(ko);
        chunks.push(Chunk {
            start,
            envs: e1,
            obs: o1,
            mask: m1,
            rewards: r1,
            terminated: t1,
            truncated: u1,
        });
        (e, o, m, r, t, u) = (e2, o2, m2, r2, t2, u2);
        start += k;
    }
    let run = |c: &mut Chunk<'_>| {
        for (k, ((env, o), m)) in c
            .envs
            .iter_mut()
            .zip(c.obs.chunks_mut(ol))
            .zip(c.mask.chunks_mut(ml))
            .enumerate()
        {
            let res = f(c.start + k, env, o, m);
            if outputs {
                c.rewards[k] = res.reward;
                c.terminated[k] = u8::from(res.terminated);
                c.truncated[k] = u8::from(res.truncated);
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
                        engine_depth = None, agent_side = "first", max_plies = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        num_envs: usize,
        position: Option<&str>,
        opponent: Option<&str>,
        engine_nodes: Option<u64>,
        engine_depth: Option<u32>,
        agent_side: &str,
        max_plies: Option<usize>,
        threads: Option<usize>,
    ) -> PyResult<VecCore> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let envs = (0..num_envs)
            .map(|_| {
                make(
                    game,
                    position,
                    opponent,
                    engine_nodes,
                    engine_depth,
                    agent_side,
                    max_plies,
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, num_envs);
        let spec = envs[0].spec();
        Ok(VecCore {
            envs: Mutex::new(envs),
            spec,
            threads,
            pool: Pool::new(threads - 1),
        })
    }

    /// Starts every episode (environment `i` seeded with `seed + i`).
    #[pyo3(signature = (seed, obs, mask))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = self.spec;
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        let ob = buffer::<f32>(obs, n * s.obs_len(), "obs")?;
        let mb = buffer::<i8>(mask, n * s.actions, "mask")?;
        // SAFETY: the buffers are held for the call and are distinct arrays.
        let (o, m) = unsafe { (items(&ob), items(&mb)) };
        let (threads, pool) = (self.threads, &mut self.pool);
        py.allow_threads(|| {
            par_each(
                pool,
                threads,
                envs,
                o,
                m,
                &mut [],
                &mut [],
                &mut [],
                |i, env, o, m| {
                    env.reset(seed.map(|s| s.wrapping_add(i as u64)), o, m);
                    StepOut::default()
                },
            )
        });
        Ok(())
    }

    /// Steps every environment with its action; a finished episode is reset in the same
    /// step (its reward and flags are the finished episode's, the observation and mask the
    /// new episode's). An illegal action loses its episode.
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
        // SAFETY: the buffers are held for the call; the caller passes distinct arrays.
        let (a, o, m) = unsafe { (items(&ab), items(&ob), items(&mb)) };
        let (r, t, u) = unsafe { (items(&rb), items(&tb), items(&ub)) };
        let (threads, pool) = (self.threads, &mut self.pool);
        let a: &[i64] = a;
        py.allow_threads(|| {
            par_each(pool, threads, envs, o, m, r, t, u, |i, env, o, m| {
                let res: StepOut = env.step(a[i], o, m).unwrap_or_default();
                if res.terminated || res.truncated || env.done() {
                    env.reset(None, o, m);
                }
                res
            })
        });
        Ok(())
    }

    /// Writes a uniformly random legal action of every environment into `actions`.
    fn sample(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let envs = self.envs.get_mut().unwrap_or_else(|e| e.into_inner());
        let n = envs.len();
        let ab = buffer::<i64>(actions, n, "actions")?;
        // SAFETY: the buffer is held for the call.
        let a = unsafe { items(&ab) };
        for (slot, env) in a.iter_mut().zip(envs.iter_mut()) {
            *slot = env.sample().map_or(0, |x| x as i64);
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
