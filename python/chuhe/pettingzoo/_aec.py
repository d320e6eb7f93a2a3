"""The PettingZoo environments of every chuhe game (one class per API, the game chosen by
name): :class:`ChuheAEC` (agents take turns) and :class:`ChuheParallel` (the parallel API).

Agents ``player_0`` (first player: Xiangqi's red, Xiongqi's South) and ``player_1``. Each
observation is ``{"observation": float32[planes, ranks, files], "action_mask": int8[actions]}``
from that agent's view, with the planes and the action encoding of :mod:`chuhe.envs`; the mask
is all zeros for the agent not to move. Rewards +1/-1/0 at the end; an illegal action loses.

The AEC env is not marked ``is_parallelizable``: PettingZoo's ``aec_to_parallel`` would play
both agents' actions in one parallel step, the second chosen before it saw the first move,
and a game that ends on the first agent's move would leave the second acting after its end.
:class:`ChuheParallel` is the parallel form of a turn-based game instead: each step is one
move, the action of the agent to move; the other agent's action is ignored (its mask is all
zeros).

Both take ``rules=DIR`` (or ``game="rules:DIR"``) to play a game read from rule files
(docs/RULES.md) instead of a native one; :func:`chuhe.make_env` makes either.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .. import _checks
from .._chuhe import EnvCore
from ..envs import draw_board

_SIDES = {"first": "player_0", "second": "player_1"}


class ChuheAEC(AECEnv):
    """Two agents playing a chuhe game in turn."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "chuhe_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "xiongqi",
        position: str | None = None,
        max_plies: int | None = None,
        render_mode: str | None = None,
        rules: str | os.PathLike | None = None,
    ) -> None:
        super().__init__()
        game, short = _checks.rules_game(game, rules)
        _checks.game_name(game)
        _checks.text("position", position)
        _checks.integer("max_plies", max_plies, 1, optional=True)
        _checks.choice("render_mode", render_mode, (None, "ansi", "rgb_array"))
        self.game_name = short or game
        self.render_mode = render_mode
        self._args = (game, position, None, None, None, "first", max_plies)
        self._core = EnvCore(*self._args)
        files, ranks, planes, _choices, actions = self._core.spec()
        self.files, self.ranks = files, ranks
        self._shape = (planes, ranks, files)
        self._n = actions
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self._shape, np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._obs = np.zeros(self._shape, np.float32)
        self._mask = np.zeros(actions, np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.empty(self._shape, np.float32)
        self._core.observe("first" if agent == "player_0" else "second", obs)
        if agent == self.agent_selection and not self.terminations.get(agent, False):
            mask = self._mask.copy()
        else:
            mask = np.zeros(self._n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a game; ``options={"position": FEN or FEEN}`` starts it from there (other
        keys are ignored, as PettingZoo's ``api_test`` requires)."""
        position = _checks.reset_options(options, strict=False)
        self._core.reset(seed, self._obs, self._mask, position)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = _SIDES[self._core.turn]

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        reward, terminated, truncated, illegal = self._core.step(
            int(action), self._obs, self._mask
        )
        other = "player_1" if agent == "player_0" else "player_0"
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {agent: float(reward), other: -float(reward)}
        if illegal:
            self.infos[agent] = {"illegal_action": True}
        for a in self.agents:
            self.terminations[a] = terminated
            self.truncations[a] = truncated
        self.agent_selection = _SIDES[self._core.turn]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self._core.board() + "\n"
        if self.render_mode == "rgb_array":
            return draw_board(self.files, self.ranks, self._core.pieces())
        return None

    def close(self) -> None:
        pass

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.save()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._core = EnvCore(*self._args)
        self._core.restore(state["_core"], self._obs, self._mask)


class ChuheParallel(ParallelEnv):
    """Two agents playing a chuhe game through PettingZoo's parallel API: each step plays
    the action of the agent to move (the other's is ignored)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "chuhe_v0",
        "is_parallelizable": True,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "xiongqi",
        position: str | None = None,
        max_plies: int | None = None,
        render_mode: str | None = None,
        rules: str | os.PathLike | None = None,
    ) -> None:
        self._aec = ChuheAEC(game, position, max_plies, render_mode, rules)
        self.render_mode = render_mode
        self.possible_agents = self._aec.possible_agents[:]
        self.agents: list[str] = []
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return {a: self._aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        """Plays the action of the agent to move (``actions`` must hold it)."""
        aec = self._aec
        mover = aec.agent_selection
        if mover not in actions:
            raise ValueError(f"actions {actions!r} hold no action for {mover}, the agent to move")
        aec.step(actions[mover])
        observations = {a: aec.observe(a) for a in self.agents}
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in self.agents}
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        infos = {a: dict(aec.infos.get(a, {})) for a in self.agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """The first player's view of the board (the planes of its observation)."""
        return self._aec.observe("player_0")["observation"]


def make_parallel_env(game: str, name: str):
    """The ``parallel_env`` constructor of a game's module."""

    def parallel_env(**kwargs: Any) -> ChuheParallel:
        env = ChuheParallel(game, **kwargs)
        env.metadata = {**ChuheParallel.metadata, "name": name}
        return env

    return parallel_env


def make_env(game: str, name: str):
    """The ``env`` and ``raw_env`` constructors of a game's module."""

    def raw_env(**kwargs: Any) -> ChuheAEC:
        env = ChuheAEC(game, **kwargs)
        env.metadata = {**ChuheAEC.metadata, "name": name}
        return env

    def env(**kwargs: Any) -> AECEnv:
        return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))

    return env, raw_env
