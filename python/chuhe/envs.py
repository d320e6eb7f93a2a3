"""Gymnasium environments of every chuhe game (one class, the game chosen by name).

Observation: ``float32[2*R + 2, RANKS, FILES]`` from the side to move's view (R roles: 10 for
Xiongqi, 7 for Xiangqi). Plane ``r`` marks the side to move's pieces of role ``r``, plane
``R + r`` the opponent's; plane ``2R`` is filled with the earlier occurrences of the position
(0, 1/3, 2/3, 1 for three or more), plane ``2R + 1`` with the half-move clock / 200 (at most
1). Row 0 is the side to move's own back rank (the board is flipped rank-wise for the second
player; files are not mirrored). Shapes: Xiongqi ``(22, 8, 8)``, Xiangqi ``(16, 10, 9)``.
With ``history=k`` the ``2R`` piece planes of each of the ``k`` earlier positions follow
(latest first, in the same view as the current position, zeros before the game's start):
Xiangqi ``(16 + 14k, 10, 9)``. A game read from rule files with drops from the hands
(Minishogi) has ``2R`` hand planes after the clock plane (the side to move's pieces of each
role in hand / 8, at most 1, then the opponent's); its drops are the actions from a square to
itself with the drop rule's number as the choice. :mod:`chuhe.augment` mirrors observations,
actions and masks left to right.

Action: ``Discrete(SQUARES * SQUARES * CHOICES)``, action ``(from * SQUARES + to) * CHOICES +
choice`` with squares ``rank * FILES + file`` in the same view as the observation. ``choice``
is 0, or for Xiongqi 1-6 for a promotion to E, A, C, R, B, H (X2). Xiongqi: 64*64*7 = 28672
actions; Xiangqi: 90*90 = 8100. :meth:`ChuheEnv.encode_move` and
:meth:`ChuheEnv.decode_action` convert. ``info["action_mask"]`` (``int8``) and
:meth:`ChuheEnv.action_masks` give the legal actions.

A game read from rule files (``rules=DIR`` or ``game="rules:DIR"``, docs/RULES.md) has the
same encoding on its own board: ``R`` is its number of pieces in ``rules.json``'s order,
``FILES`` x ``RANKS`` its board, ``CHOICES`` 1 plus its largest promotion's ``into`` list
(choice ``c`` >= 1 promotes into the ``c``-th; a compulsory promotion into one piece is choice
1). Minixiangqi: ``(12, 7, 7)``, 49*49 = 2401 actions; Makruk: ``(14, 8, 8)``, 64*64*2 = 8192.

Rewards: +1 win, -1 loss, 0 draw or game going on, from the view of the agent (the side that
moved, in self-play). An illegal action ends the episode with -1 and
``info["illegal_action"] = True``, and the game with it (``env.game``): a move that the
rules forbid by the history alone (Xiongqi's X6) is played and loses by ``repetition``, any
other loses by ``illegalmove``. ``max_plies`` truncates the episode, not the game.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _checks
from ._chuhe import EnvCore, EnvState, Game, Move

__all__ = ["ChuheEnv"]


class ChuheEnv(gym.Env):
    """A chuhe game as a Gymnasium environment.

    ``opponent``: ``None`` (self-play: each step is one move of the side to move),
    ``"random"`` (a random legal reply), or ``"engine"`` (chuhe's engine with
    ``engine_nodes`` or ``engine_depth``, 1000 nodes when neither is given, at strength
    ``engine_level`` 0-20; with ``engine_temperature`` ``t`` its reply is drawn among its
    ``engine_lines`` best moves with probabilities proportional to ``exp(score / (100 t))``,
    scores in centipawns, instead of always its best). ``agent_side``: ``"first"``,
    ``"second"`` or ``"random"`` (with an opponent). ``max_plies`` truncates. ``history``:
    the earlier positions the observation shows (see the module's help). ``rules``: a game
    directory (``games/<name>/``: ``rules.json`` and its GGN table, docs/RULES.md) to play
    instead of ``game`` (a directory that does not compile raises ``chuhe.RulesError``
    naming the file, the key and what is wrong); the spaces are those of its board, pieces
    and promotions, and ``game_name`` is its manifest's name.

    ``reset(options={"position": FEN or FEEN})`` starts that episode from the position;
    ``reset(options={"position": game})`` from a :class:`chuhe.Game`'s last position, with
    its start and history (the history planes and the repetition rules see them). A
    finished position or game is refused with ``chuhe.InvalidPositionError``, and so is a
    finished ``position`` at construction: an episode never starts at its end.
    ``clone()``, ``get_state()`` / ``set_state()`` and pickling copy the episode (an engine
    opponent's copy starts with an empty hash table, so its replies may differ).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str = "xiongqi",
        position: str | None = None,
        opponent: str | None = None,
        engine_nodes: int | None = None,
        engine_depth: int | None = None,
        agent_side: str = "first",
        max_plies: int | None = None,
        render_mode: str | None = None,
        engine_level: int = 20,
        engine_temperature: float | None = None,
        engine_lines: int = 8,
        history: int = 0,
        rules: str | os.PathLike | None = None,
    ) -> None:
        game, short = _checks.rules_game(game, rules)
        self._args = dict(
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
        _checks.env_arguments(**self._args)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not one of None, 'ansi', 'rgb_array'")
        self.game_name = short or game
        self.render_mode = render_mode
        self._core = EnvCore(**self._args)
        files, ranks, planes, choices, actions = self._core.spec()
        self.files, self.ranks, self.choices = files, ranks, choices
        self.observation_space = spaces.Box(0.0, 1.0, (planes, ranks, files), np.float32)
        self.action_space = spaces.Discrete(actions)
        self._shape = (planes, ranks, files)
        self._mask = np.zeros(actions, np.int8)
        self._seeded = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        position = _checks.reset_options(options)
        super().reset(seed=seed)
        core_seed = None
        if seed is not None or not self._seeded:
            core_seed = int(self.np_random.integers(2**63))
            self._seeded = True
        obs = np.empty(self._shape, np.float32)
        mask = np.empty(self.action_space.n, np.int8)
        self._core.reset(core_seed, obs, mask, position)
        self._mask = mask
        return obs, {"action_mask": mask}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays ``action`` (an int in the action space; others raise ``ValueError`` or
        ``TypeError``) and the opponent's reply."""
        obs = np.empty(self._shape, np.float32)
        mask = np.empty(self.action_space.n, np.int8)
        reward, terminated, truncated, illegal = self._core.step(action, obs, mask)
        self._mask = mask
        info: dict[str, Any] = {"action_mask": mask}
        if illegal:
            info["illegal_action"] = True
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending."""
        return self._core.legal_actions()

    def sample_legal_action(self) -> int | None:
        """A uniformly random legal action (drawn in Rust), ``None`` when there is none."""
        return self._core.sample()

    def encode_move(self, move: Move | str) -> int:
        """The action of a move of the current position (a ``Move`` or its text)."""
        return self._core.encode(move)

    def decode_action(self, action: int) -> Move | None:
        """The move an action stands for in the current position (legal or not), or ``None``
        when the action joins a square to itself (no move); an action outside the space
        raises ``ValueError``."""
        return self._core.decode(action)

    @property
    def game(self) -> Game:
        """A copy of the game so far."""
        return self._core.game()

    @property
    def agent_side(self) -> str:
        """The agent's side this episode: ``"first"`` or ``"second"``."""
        return self._core.agent

    # ---- state ---------------------------------------------------------------------------
    def get_state(self) -> EnvState:
        """The episode so far (picklable; cheap: a copy in memory), for :meth:`set_state`."""
        return self._core.save()

    def set_state(self, state: EnvState) -> tuple[np.ndarray, dict[str, Any]]:
        """Restores an episode saved by :meth:`get_state` of an env of the same game; returns
        its observation and ``{"action_mask": …}``."""
        obs = np.empty(self._shape, np.float32)
        mask = np.empty(self.action_space.n, np.int8)
        self._core.restore(state, obs, mask)
        self._mask = mask
        return obs, {"action_mask": mask}

    def clone(self) -> ChuheEnv:
        """An independent copy at the same point of the episode, made in Rust (the random
        generator of ``reset(seed=…)`` is shared; an engine opponent starts afresh)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._core = self._core.clone()
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> ChuheEnv:
        new = self.clone()
        new._np_random = copy.deepcopy(self._np_random, memo)
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.save()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._core = EnvCore(**self._args)
        obs = np.empty(self._shape, np.float32)
        self._mask = np.empty(self.action_space.n, np.int8)
        self._core.restore(state["_core"], obs, self._mask)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self._core.board() + "\n"
        if self.render_mode == "rgb_array":
            return draw_board(self.files, self.ranks, self._core.pieces())
        return None


_CELL = 32


def draw_board(files: int, ranks: int, pieces: list[tuple[int, int, int]]) -> np.ndarray:
    """A simple raster of the board (rank 1 at the bottom): grid lines, a disc per piece, red
    for the first player and black for the second, with a light ring per role index."""
    h, w = ranks * _CELL, files * _CELL
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (222, 184, 135)
    img[_CELL // 2 :: _CELL, _CELL // 2 : w - _CELL // 2 + 1] = (90, 60, 30)
    img[_CELL // 2 : h - _CELL // 2 + 1, _CELL // 2 :: _CELL] = (90, 60, 30)
    yy, xx = np.mgrid[0:_CELL, 0:_CELL]
    d2 = (yy - _CELL / 2 + 0.5) ** 2 + (xx - _CELL / 2 + 0.5) ** 2
    disc = d2 <= (_CELL * 0.42) ** 2
    for index, side, role in pieces:
        f, r = index % files, index // files
        y0, x0 = (ranks - 1 - r) * _CELL, f * _CELL
        cell = img[y0 : y0 + _CELL, x0 : x0 + _CELL]
        cell[disc] = (200, 30, 30) if side == 0 else (30, 30, 30)
        ring = np.abs(np.sqrt(d2) - (2 + role) * 1.2) < 0.6
        cell[ring & disc] = (250, 240, 220)
    return img
