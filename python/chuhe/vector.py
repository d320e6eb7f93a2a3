"""A Gymnasium ``VectorEnv`` that steps N games inside Rust, the GIL released, on several
threads, writing NumPy arrays in place.

Spaces, observation planes, actions and rewards are those of :mod:`chuhe.envs`. Autoreset is
Gymnasium's ``SAME_STEP`` mode: a finished episode's reward and ``terminated``/``truncated``
flags are returned with the first observation of the next episode. The arrays returned by
``reset`` and ``step`` are the environment's own buffers, overwritten by the next step: copy
them to keep them. ``info["action_mask"]`` is one ``int8[N, actions]`` array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._chuhe import VecCore

__all__ = ["ChuheVectorEnv"]


class ChuheVectorEnv(VectorEnv):
    """``ChuheVectorEnv("xiangqi", num_envs=256, opponent=None, threads=None)``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

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
    ) -> None:
        self._core = VecCore(
            game,
            num_envs,
            position,
            opponent,
            engine_nodes,
            engine_depth,
            agent_side,
            max_plies,
            threads,
        )
        files, ranks, planes, _choices, actions = self._core.spec()
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, (planes, ranks, files), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, planes, ranks, files), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._actions = np.zeros(num_envs, np.int64)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._core.reset(seed, self._obs, self._mask)
        return self._obs, {"action_mask": self._mask}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = np.ascontiguousarray(actions, dtype=np.int64)
        self._core.step(
            a,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated.view(np.uint8),
            self._truncated.view(np.uint8),
        )
        info = {"action_mask": self._mask}
        return self._obs, self._rewards, self._terminated, self._truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, ``bool[N, actions]``."""
        return self._mask.astype(bool)

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action per environment (drawn in Rust), ``int64[N]``."""
        self._core.sample(self._actions)
        return self._actions
