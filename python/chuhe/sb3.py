"""chuhe's Rust vector environment as a Stable-Baselines3 ``VecEnv``.

:class:`ChuheVecEnv` hands :class:`chuhe.vector.ChuheVectorEnv` (N games stepped inside Rust)
to Stable-Baselines3 without its ``DummyVecEnv`` or ``SubprocVecEnv``, and gives
sb3-contrib's ``MaskablePPO`` the legal-action masks through ``action_masks()``::

    from sb3_contrib import MaskablePPO
    from chuhe.sb3 import ChuheVecEnv

    env = ChuheVecEnv("xiangqi", num_envs=16, opponent="random", max_plies=200)
    model = MaskablePPO("MlpPolicy", env, n_steps=128).learn(100_000)

It follows Stable-Baselines3's conventions: ``reset()`` returns the observations only (the
masks are in ``reset_infos``), ``step`` returns ``dones`` and one ``info`` dict per game, an
ended game restarts in the same step with its last observation in
``info["terminal_observation"]`` and ``info["TimeLimit.truncated"]`` set when ``max_plies``
cut it. The seeds of ``seed(s)`` (game ``i`` gets ``s + i``) and the options of
``set_options`` apply at the next ``reset()``. Observations are copies (the vector env's own
buffers are overwritten by each step).

Needs ``stable-baselines3`` (and ``sb3-contrib`` for ``MaskablePPO``); neither is a
dependency of chuhe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from .vector import ChuheVectorEnv

__all__ = ["ChuheVecEnv"]


class ChuheVecEnv(VecEnv):
    """``num_envs`` games of ``game`` as a Stable-Baselines3 ``VecEnv``; the other arguments
    are :class:`chuhe.vector.ChuheVectorEnv`'s (``opponent``, ``max_plies``, ``threads``, …).
    """

    def __init__(self, game: str = "xiangqi", num_envs: int = 16, **kwargs: Any) -> None:
        self.venv = ChuheVectorEnv(game, num_envs, **kwargs)
        self.render_mode = None
        self._actions: np.ndarray | None = None
        super().__init__(
            num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )

    # ---- the VecEnv API ------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Starts every game (with the seeds of :meth:`seed` and the options of
        ``set_options``, if given since the last reset); returns the observations."""
        seeds: list[int | None] | None = list(self._seeds)
        if all(s is None for s in seeds):
            seeds = None
        options = self._common_options()
        obs, info = self.venv.reset(seed=seeds, options=options)
        self._reset_seeds()
        self._reset_options()
        mask = info["action_mask"]
        self.reset_infos = [{"action_mask": mask[i].copy()} for i in range(self.num_envs)]
        self._actions = None
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Keeps the actions (one per game) for :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(-1)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Plays the actions of :meth:`step_async`; returns observations, rewards, dones and
        one info dict per game."""
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions) before it")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs = info["final_obs"]
            illegal = info["final_info"].get("illegal_action")
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if illegal is not None and illegal[i]:
                    infos[i]["illegal_action"] = True
        return obs.copy(), rewards.copy(), dones, infos

    def close(self) -> None:
        """Nothing to release (the games live in the vector env)."""

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, ``bool[num_envs, actions]`` (what
        ``MaskablePPO`` reads)."""
        return self.venv.action_masks()

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, drawn in Rust (a copy, ``int64[N]``)."""
        return self.venv.sample_legal_actions()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of each game: ``action_masks`` (a function giving that game's mask)
        and ``render_mode`` per game; any other of the vector env's attributes, shared by
        every game, repeated."""
        rows = self._indices(indices)
        if attr_name == "action_masks":
            return [_RowMask(self, i) for i in rows]
        if attr_name == "render_mode":
            return [None for _ in rows]
        value = getattr(self.venv, attr_name)  # raises AttributeError, as VecEnv expects
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Refused: the games share one vector env whose settings are fixed at construction."""
        raise AttributeError(
            f"set_attr({attr_name!r}): ChuheVecEnv's games share the settings given to its "
            "constructor; make a new ChuheVecEnv to change them"
        )

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks`` (each game's mask, as ``MaskablePPO`` asks for them) and
        ``sample_legal_action`` per game; other names raise ``AttributeError``."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        if method_name == "sample_legal_action":
            actions = self.venv.sample_legal_actions()
            return [int(actions[i]) for i in rows]
        raise AttributeError(
            f"env_method({method_name!r}): ChuheVecEnv's games have the methods "
            "'action_masks' and 'sample_legal_action'"
        )

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """Always ``False``: the games are stepped in Rust, inside no Gymnasium wrapper
        (use SB3's ``VecMonitor`` for episode statistics)."""
        return [False for _ in self._indices(indices)]

    # ---- helpers -------------------------------------------------------------------------
    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            rows: Iterable[int] = [int(indices)]
        else:
            rows = [int(i) for i in indices]
        rows = list(rows)
        for i in rows:
            if not 0 <= i < self.num_envs:
                raise IndexError(f"env index {i} outside 0..{self.num_envs - 1}")
        return rows

    def _common_options(self) -> dict[str, Any] | None:
        options = [o or {} for o in self._options]
        if not any(options):
            return None
        if any(o != options[0] for o in options):
            raise ValueError(
                "set_options: ChuheVecEnv resets every game with the same options; "
                f"got different ones per game: {options!r}"
            )
        return dict(options[0])


class _RowMask:
    """``get_attr("action_masks")``'s per-game callable: the mask of game ``row``."""

    def __init__(self, env: ChuheVecEnv, row: int) -> None:
        self._env = env
        self._row = row

    def __call__(self) -> np.ndarray:
        return self._env.venv.action_masks()[self._row]
