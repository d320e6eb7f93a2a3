"""A Gymnasium ``VectorEnv`` that steps N games inside Rust, the GIL released, on several
threads, writing NumPy arrays in place.

Spaces, observation planes, actions and rewards are those of :mod:`chuhe.envs`. Autoreset is
Gymnasium's ``SAME_STEP`` mode, with the same ``info`` as Gymnasium's own ``SyncVectorEnv``
in that mode gives for :class:`chuhe.envs.ChuheEnv`: when episode ``i`` ends, the step returns
its reward and ``terminated``/``truncated`` flags with the *first* observation of the next
episode, and ``info["final_obs"][i]`` (an object array, ``None`` elsewhere) holds the last
observation of the finished episode, ``info["final_info"]`` its last ``info`` (its
``action_mask`` and, after an illegal action, ``illegal_action``), each with Gymnasium's
boolean mask of the environments it holds (``info["_final_obs"]``,
``info["_final_info"]``, ``info["final_info"]["_action_mask"]``, …).

The observation, reward and flag arrays returned by ``reset`` and ``step`` (and
``info["final_info"]["action_mask"]``) are the environment's own buffers, overwritten by
the next step: copy them to keep them.
``info["action_mask"]`` is one ``int8[N, actions]`` array.
The observations and ``info["action_mask"]`` are read-only views (NumPy refuses writes into
them): each step clears only the entries the last one set, so a change made to them would
stay in the next step's. ``np.array(obs)`` gives a copy to change.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

try:
    from gymnasium.vector import AutoresetMode

    SAME_STEP: Any = AutoresetMode.SAME_STEP
except ImportError:  # Gymnasium 1.0 names no modes: the value 1.1's enum gives SAME_STEP
    SAME_STEP = "SameStep"

from . import _checks
from ._chuhe import EnvState, VecCore

__all__ = ["ChuheVectorEnv", "make_vector"]


class ChuheVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` stepped together in Rust on ``threads`` threads (the
    machine's cores when ``None``).

    The other arguments are :class:`chuhe.envs.ChuheEnv`'s (``rules`` too: a game
    directory to play instead of ``game``), applied to every environment.
    ``reset(seed=s)`` seeds environment ``i`` with ``s + i``, ``reset(seed=[s0, s1, …])``
    each with its own (``None`` entries keep their random source): environment ``i`` then
    plays as a ``ChuheEnv`` reset with the same seed. ``reset(options={"position": FEN})``
    starts every episode of that reset from the position (later ones from the usual
    start); a :class:`chuhe.Game` there starts them from its last position with its history
    (the history planes and the repetition rules see it). A finished position is refused
    (``chuhe.InvalidPositionError``), at construction too. Other option keys are refused.
    """

    metadata = {"autoreset_mode": SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str = "xiongqi",
        num_envs: int = 16,
        position: str | None = None,
        opponent: str | None = None,
        engine_nodes: int | None = None,
        engine_depth: int | None = None,
        agent_side: str = "first",
        max_plies: int | None = None,
        threads: int | None = None,
        engine_level: int = 20,
        engine_temperature: float | None = None,
        engine_lines: int = 8,
        history: int = 0,
        rules: str | os.PathLike | None = None,
    ) -> None:
        game, short = _checks.rules_game(game, rules)
        settings = dict(
            game=game,
            position=position,
            opponent=opponent,
            engine_nodes=engine_nodes,
            engine_depth=engine_depth,
            agent_side=agent_side,
            max_plies=max_plies,
            engine_level=engine_level,
            engine_temperature=engine_temperature,
            engine_lines=engine_lines,
            history=history,
        )
        _checks.env_arguments(**settings)
        _checks.integer("num_envs", num_envs, minimum=1)
        _checks.integer("threads", threads, minimum=1, optional=True)
        self._args = dict(settings, num_envs=num_envs, threads=threads)
        self._core = VecCore(**self._args)
        files, ranks, planes, _choices, actions = self._core.spec()
        self.num_envs = num_envs
        self.game_name = short or game
        self.single_observation_space = spaces.Box(0.0, 1.0, (planes, ranks, files), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, planes, ranks, files), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        # What callers get: views they cannot write through (see the module's help).
        self._obs_out = self._obs.view()
        self._obs_out.flags.writeable = False
        self._mask_out = self._mask.view()
        self._mask_out.flags.writeable = False
        self._rewards = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._final_obs = np.zeros_like(self._obs)
        self._final_mask = np.zeros_like(self._mask)
        self._ended_rows = np.zeros(0, np.int64)
        self._all = np.ones(num_envs, np.bool_)
        self._seeded = False

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts every episode; returns the first observations and
        ``{"action_mask": int8[N, actions], "_action_mask": bool[N]}``.

        ``seed``: ``None`` (the random sources go on; fresh random ones on the first reset),
        an int ``s`` (environment ``i`` gets ``s + i``) or a list of ``num_envs`` ints or
        ``None``s. ``options``: ``{"position": FEN, FEEN or chuhe.Game}`` or nothing.
        """
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        elif isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(
                    f"seed: a list of {len(seeds)} seeds for num_envs={n} environments"
                )
        else:
            raise TypeError(f"seed {seed!r} is not None, an int or a list of num_envs ints")
        core_seeds = []
        for i, s in enumerate(seeds):
            if s is None:
                core_seeds.append(None if self._seeded else _fresh_seed())
            else:
                if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
                    raise ValueError(f"seed[{i}] = {s!r} is not a non-negative int or None")
                core_seeds.append(_core_seed(int(s)))
        self._seeded = True
        position = _checks.reset_options(options)
        self._core.reset(core_seeds, self._obs, self._mask, position)
        return self._obs_out, {"action_mask": self._mask_out, "_action_mask": self._all}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action per environment (``int[N]``, each in ``0..actions``); an ended
        episode restarts in the same step, its last observation and info in
        ``info["final_obs"]`` and ``info["final_info"]``."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(
                f"actions of shape {a.shape}: the action space {self.action_space} takes "
                f"shape ({self.num_envs},)"
            )
        if a.dtype.kind not in "iu":
            raise TypeError(
                f"actions of dtype {a.dtype}: the action space {self.action_space} takes "
                "integers"
            )
        a = np.ascontiguousarray(a, dtype=np.int64)
        # The final masks are written only for the episodes that end; the rows of the last
        # step's are cleared first, so that every other row is zero.
        if self._ended_rows.size:
            self._final_mask[self._ended_rows] = 0
        self._core.step(
            a,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated.view(np.uint8),
            self._truncated.view(np.uint8),
            self._illegal.view(np.uint8),
            self._final_obs,
            self._final_mask,
        )
        info: dict[str, Any] = {"action_mask": self._mask_out, "_action_mask": self._all}
        ended = self._terminated | self._truncated
        self._ended_rows = np.flatnonzero(ended)
        if self._ended_rows.size:
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in self._ended_rows:
                final_obs[i] = self._final_obs[i].copy()
            final_info: dict[str, Any] = {"action_mask": self._final_mask, "_action_mask": ended}
            if self._illegal.any():
                final_info["illegal_action"] = self._illegal.copy()
                final_info["_illegal_action"] = self._illegal.copy()
            info["final_obs"] = final_obs
            info["_final_obs"] = ended.copy()
            info["final_info"] = final_info
            info["_final_info"] = ended.copy()
        return self._obs_out, self._rewards, self._terminated, self._truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, ``bool[N, actions]``."""
        return self._mask.astype(bool)

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action per environment (drawn in Rust), ``int64[N]``: a
        new array on every call."""
        actions = np.empty(self.num_envs, np.int64)
        self._core.sample(actions)
        return actions

    # ---- state ---------------------------------------------------------------------------
    def get_state(self) -> list[EnvState]:
        """The episodes of every environment (picklable), for :meth:`set_state`."""
        return self._core.save()

    def set_state(
        self, state: list[EnvState], indices: list[int] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Restores episodes saved by :meth:`get_state` (of any env of the same game): one
        per environment, or into the environments ``indices`` only (the others go on);
        returns every observation and mask as ``reset`` does."""
        if indices is not None:
            indices = [_checks.index("indices", i, self.num_envs) for i in indices]
        self._core.restore(list(state), self._obs, self._mask, indices)
        return self._obs_out, {"action_mask": self._mask_out, "_action_mask": self._all}

    def clone(self) -> ChuheVectorEnv:
        """An independent copy at the same point of every episode (engine opponents start
        with empty hash tables)."""
        new = ChuheVectorEnv(**self._args)
        new.set_state(self.get_state())
        new._seeded = self._seeded
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"args": self._args, "episodes": self.get_state(), "seeded": self._seeded}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["args"])
        self.set_state(state["episodes"])
        self._seeded = state["seeded"]


def _core_seed(seed: int) -> int:
    """The Rust source's seed of a Gymnasium seed, drawn as :class:`chuhe.envs.ChuheEnv` draws
    it (so that a vector env and single envs seeded alike play alike)."""
    rng, _ = seeding.np_random(seed)
    return int(rng.integers(2**63))


def _fresh_seed() -> int:
    return int(np.random.default_rng().integers(2**63))


def make_vector(game: str = "xiongqi", num_envs: int = 16, **kwargs: Any) -> ChuheVectorEnv:
    """The vector entry point of the registered environments:
    ``gym.make_vec("chuhe/Xiangqi-v0", num_envs=N, vectorization_mode="vector_entry_point")``
    returns a :class:`ChuheVectorEnv`."""
    render_mode = kwargs.pop("render_mode", None)
    if render_mode is not None:
        raise ValueError(f"render_mode {render_mode!r}: the vector env does not render")
    return ChuheVectorEnv(game, num_envs, **kwargs)
