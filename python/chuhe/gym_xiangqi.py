"""gym-xiangqi 0.5.0's environment, and standard Xiangqi with gym-xiangqi's encodings.

Two environments:

- :class:`XiangQiEnv` is gym-xiangqi 0.5.0's environment: its constructor
  (``XiangQiEnv(ally_color=RED)``, RED = 0, BLACK = 1), gym's older API (``reset()`` returns
  the board, ``step`` returns ``(board, reward, done, {})``), ``turn`` (ALLY = 1, ENEMY =
  -1), ``ally_actions`` / ``enemy_actions`` (0/1 arrays of the 129,600 actions),
  ``ally_color``, ``enemy_color``, ``state``, the piece objects ``ally_piece`` /
  ``enemy_piece`` (row, col, state, name, ``legal_moves``), ``get_possible_actions``,
  ``get_possible_actions_by_piece`` and ``check_jiang``, and its rules and rewards, which
  differ from the standard game: a move may leave or put one's own general attacked (only a
  move after which the two generals face each other is refused); the game ends when a
  general is taken (reward 100) or at a side's fourth new check in an unbroken run of checks
  (gym-xiangqi's perpetual check: -100 to the side that checked); there is no checkmate,
  stalemate, repetition or move-count draw; a capture earns the piece's points (advisor and
  elephant 2, horse 4, chariot 9, cannon 4.5, soldier 1, or 2 when the enemy takes an ally
  soldier that had crossed the river), to whichever side moved; an illegal action earns -10
  and changes nothing. Its quirks are kept too: after a general's capture both sides' moves
  are still listed (the side that lost its general cannot take the other one, nor capture
  with it as a cannon's screen), and ``reset`` leaves the other side's list of the last
  game. In the games that ``python/tests/test_gym_xiangqi_differential.py`` plays through
  both (random games from either colour sharing one env, some actions illegal, some ending
  by a general's capture, and a perpetual check) every step's board, reward, end, side to
  move, both sides' action lists, piece objects and moves by piece equal gym-xiangqi 0.5.0's
  own. Its moves come from chuhe's ``xiangqi-capture`` rules. It does not draw with pygame:
  ``render()`` prints the board's ids; ``step_user`` (a person playing in gym-xiangqi's
  window) and ``game`` (its pygame window) are absent, and the pieces carry no images or
  sounds. An action outside the space raises an error that is both a ``ValueError``
  (``TypeError`` for a non-integer) and, as gym-xiangqi's failed ``assert``, an
  ``AssertionError``. gym-xiangqi 0.5.0's own ``examples/agent_v_agent_demo.py``, with only
  its ``gym.make`` line changed to ``env = XiangQiEnv()``, plays its games to the end on it
  (tested; gym 0.26, which gym-xiangqi's installer brings, refuses that demo's ``render``
  before ``reset`` in ``gym.make``'s wrappers, so the line constructs the environment
  directly).

- :class:`GymXiangqiEnv` (``gym.make("chuhe/GymXiangqi-v0")``) is standard Xiangqi, chuhe's
  full rules, with gym-xiangqi's observation and action encodings and Gymnasium's API; code
  written for gym-xiangqi does not run on it unchanged. The rest of this text is about it.

Observation: ``int64[10, 9]``, the board from the agent's side: row 0 is the far back rank,
row 9 the agent's own, column 0 the agent's left. Each piece is its gym-xiangqi id, positive
for the agent's pieces and negative for the enemy's: 1 general, 2-3 advisors, 4-5 elephants,
6-7 horses, 8-9 chariots, 10-11 cannons, 12-16 soldiers (the ids of the start position are
exactly gym-xiangqi's ``initial_board``; a piece keeps its id as it moves).

Action: ``Discrete(129600)``, ``(id - 1) * 8100 + (row * 9 + col) * 90 + (row2 * 9 + col2)``
(gym-xiangqi's ``move_to_action_space``): which piece (its id, without the sign), from where,
to where, in the observation's coordinates. :func:`move_to_action` and
:func:`action_to_move` convert, as gym-xiangqi's ``utils`` do.

Differences from gym-xiangqi, all on chuhe's side of correctness: the rules are chuhe's
(perpetual check and chase, repetitions, the 60-move rule, stalemate lost), the API is
Gymnasium's (``reset`` returns ``(obs, info)``, ``step`` five values), rewards are +1 / -1 /
0 for a win, a loss, a draw or a game going on (from the view of the side that moved), and
``info["action_mask"]`` / :meth:`GymXiangqiEnv.action_masks` give the legal actions. As in
gym-xiangqi, without an opponent each step is a move of the side to move (self-play: the
enemy moves its negative pieces with the same encoding) and an illegal action changes nothing
and is answered with a penalty (``illegal_reward``, default -1) and
``info["illegal_action"]``.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import Engine, _checks
from ._chuhe import Game, Move
from ._gym_xiangqi_compat import XiangQiEnv

__all__ = [
    "GymXiangqiEnv",
    "XiangQiEnv",
    "move_to_action",
    "action_to_move",
    "INITIAL_BOARD",
]

ROWS, COLS = 10, 9
TOTAL_POS = ROWS * COLS
PIECE_CNT = 16
N_ACTIONS = PIECE_CNT * TOTAL_POS * TOTAL_POS  # 129600

#: gym-xiangqi's start position: the agent's pieces at the bottom.
INITIAL_BOARD = np.array(
    [
        [-9, -7, -5, -3, -1, -2, -4, -6, -8],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, -11, 0, 0, 0, 0, 0, -10, 0],
        [-16, 0, -15, 0, -14, 0, -13, 0, -12],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [12, 0, 13, 0, 14, 0, 15, 0, 16],
        [0, 10, 0, 0, 0, 0, 0, 11, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [8, 6, 4, 2, 1, 3, 5, 7, 9],
    ],
    dtype=np.int64,
)

# The ids of each role, in the order they are given to pieces of a position that is not the
# start position (left to right from the owner's side, back rank first).
_IDS = {"K": [1], "A": [2, 3], "B": [4, 5], "N": [6, 7], "R": [8, 9], "C": [10, 11],
        "P": [12, 13, 14, 15, 16]}


def move_to_action(piece_id: int, start: tuple[int, int], end: tuple[int, int]) -> int:
    """gym-xiangqi's ``move_to_action_space``: the action of piece ``piece_id`` (sign
    ignored) going from ``start`` to ``end`` (``(row, col)`` each)."""
    pid = abs(int(piece_id))
    if not 1 <= pid <= PIECE_CNT:
        raise ValueError(f"piece id {piece_id} is not 1-16 (or -1 to -16)")
    for r, c in (start, end):
        if not (0 <= r < ROWS and 0 <= c < COLS):
            raise ValueError(f"({r}, {c}) is not a point of the 10 x 9 board")
    return (pid - 1) * TOTAL_POS * TOTAL_POS + (start[0] * COLS + start[1]) * TOTAL_POS + (
        end[0] * COLS + end[1]
    )


def action_to_move(action: int) -> tuple[int, list[int], list[int]]:
    """gym-xiangqi's ``action_space_to_move``: ``(piece_id, [row, col], [row2, col2])``."""
    action = int(action)
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action} is not in 0..{N_ACTIONS - 1}")
    pid, rest = divmod(action, TOTAL_POS * TOTAL_POS)
    start, end = divmod(rest, TOTAL_POS)
    return pid + 1, list(divmod(start, COLS)), list(divmod(end, COLS))


def _action(action: Any) -> int:
    """An action of ``Discrete(129600)``; anything else raises, naming it."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        if not (isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"):
            raise TypeError(
                f"action {action!r} is not an integer of the action space Discrete({N_ACTIONS})"
            )
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} is outside the action space Discrete({N_ACTIONS})")
    return a


class GymXiangqiEnv(gym.Env):
    """Standard Xiangqi with gym-xiangqi's observation and action encodings.

    ``agent_color``: ``"red"`` (or gym-xiangqi's ``RED = 0``) or ``"black"`` (``BLACK = 1``).
    ``opponent``: ``None`` (self-play, as gym-xiangqi), ``"random"`` or ``"engine"``
    (``engine_nodes``, default 1000, at strength ``engine_level`` 0-20; with
    ``engine_temperature`` ``t`` its reply is drawn among its ``engine_lines`` best moves with
    probabilities proportional to ``exp(score / (100 t))``). ``position``: a FEN
    or FEEN to start from (``reset(options={"position": …})`` for one episode).
    ``clone()``, ``get_state()`` / ``set_state()`` and pickling copy the episode.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        agent_color: str | int = "red",
        opponent: str | None = None,
        engine_nodes: int = 1000,
        position: str | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        engine_level: int = 20,
        engine_temperature: float | None = None,
        engine_lines: int = 8,
    ) -> None:
        colors = {"red": "first", 0: "first", "black": "second", 1: "second"}
        if isinstance(agent_color, bool) or agent_color not in colors:
            raise ValueError(f"agent_color={agent_color!r} is not 'red' (0) or 'black' (1)")
        _checks.choice("opponent", opponent, _checks.OPPONENTS)
        _checks.integer("engine_nodes", engine_nodes, 1)
        _checks.integer("engine_level", engine_level, 0, 20)
        _checks.temperature(engine_temperature)
        _checks.integer("engine_lines", engine_lines, 1, 64)
        _checks.text("position", position)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise TypeError(f"illegal_reward={illegal_reward!r} is not a number")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r} is not one of None, 'ansi'")
        self.agent = colors[agent_color]
        self.opponent = opponent
        self.engine_nodes = engine_nodes
        self.engine_level = engine_level
        self.engine_temperature = engine_temperature
        self.engine_lines = engine_lines
        self.position = position
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-PIECE_CNT, PIECE_CNT, (ROWS, COLS), np.int64)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._engine: Engine | None = None
        self._rng = random.Random()
        self._game = Game("xiangqi", position)
        self.state = np.zeros((ROWS, COLS), np.int64)
        self._mask = np.zeros(N_ACTIONS, np.int8)
        self._legal: dict[int, Move] = {}

    # ---- coordinates ------------------------------------------------------------------
    def _point(self, square: str) -> tuple[int, int]:
        """The (row, col) of a square name (``e3``, ``b10``) in the agent's view."""
        file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
        if self.agent == "first":
            return ROWS - 1 - rank, file
        return rank, COLS - 1 - file

    def _square(self, row: int, col: int) -> str:
        if self.agent == "first":
            file, rank = col, ROWS - 1 - row
        else:
            file, rank = COLS - 1 - col, row
        return f"{chr(ord('a') + file)}{rank + 1}"

    def _sign(self, side: str) -> int:
        return 1 if side == self.agent else -1

    # ---- the board of ids -------------------------------------------------------------
    def _assign_ids(self) -> None:
        """Gives every piece of the position its id (the start position: gym-xiangqi's)."""
        placement = self._game.fen.split()[0]
        if placement == Game("xiangqi").fen.split()[0]:
            self.state = INITIAL_BOARD.copy()
            return
        self.state = np.zeros((ROWS, COLS), np.int64)
        pieces: list[tuple[str, str]] = []  # (letter, square)
        for i, row in enumerate(placement.split("/")):
            rank = ROWS - i
            file = 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                else:
                    pieces.append((ch, f"{chr(ord('a') + file)}{rank}"))
                    file += 1
        for side, upper in (("first", True), ("second", False)):
            own = [(ch.upper(), sq) for ch, sq in pieces if ch.isupper() == upper]
            # From the owner's side: its back rank first, then left to right.
            def key(item: tuple[str, str]) -> tuple[int, int]:
                file, rank = ord(item[1][0]) - ord("a"), int(item[1][1:])
                return (rank, file) if side == "first" else (-rank, -file)

            next_id = {k: list(v) for k, v in _IDS.items()}
            for letter, sq in sorted(own, key=key):
                ids = next_id.get({"E": "B", "H": "N"}.get(letter, letter))
                if not ids:
                    raise ValueError(
                        f"the position has more {letter} pieces than gym-xiangqi has ids for"
                    )
                r, c = self._point(sq)
                self.state[r, c] = self._sign(side) * ids.pop(0)

    def _refresh(self) -> None:
        """The legal actions of the side to move."""
        self._mask = np.zeros(N_ACTIONS, np.int8)
        self._legal = {}
        if self._game.is_over():
            return
        for m in self._game.legal_moves:
            start, end = self._point(m.from_square), self._point(m.to_square)
            action = move_to_action(self.state[start], start, end)
            self._mask[action] = 1
            self._legal[action] = m

    def _apply(self, m: Move) -> None:
        start, end = self._point(m.from_square), self._point(m.to_square)
        self._game.push(m)
        self.state[end] = self.state[start]
        self.state[start] = 0

    # ---- Gymnasium --------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        position = _checks.reset_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        self._game = Game("xiangqi", position if position is not None else self.position)
        self._assign_ids()
        if self.opponent is not None and self._game.turn != self.agent:
            self._opponent_move()
        self._refresh()
        return self.state.copy(), {"action_mask": self._mask.copy()}

    def _opponent_move(self) -> None:
        if self._game.is_over():
            return
        if self.opponent == "random":
            m = self._rng.choice(self._game.legal_moves)
        else:
            if self._engine is None:
                self._engine = Engine(level=self.engine_level)
            if self.engine_temperature is None:
                m = self._engine.play(self._game, nodes=self.engine_nodes)
            else:
                m = self._softmax_reply()
        self._apply(m)

    def _softmax_reply(self) -> Move:
        """A move drawn among the engine's best, with probabilities proportional to
        ``exp(score / (100 * engine_temperature))``."""
        lines = self._engine.lines(self._game, self.engine_lines, nodes=self.engine_nodes)
        values = [
            float(x.score) if x.mate is None else (1e5 - x.mate if x.mate > 0 else -1e5 - x.mate)
            for x in lines
        ]
        top = max(values)
        weights = [math.exp((v - top) / (100.0 * self.engine_temperature)) for v in values]
        return self._rng.choices([x.move for x in lines], weights=weights)[0]

    def _reward(self, side: str) -> float:
        winner = self._game.winner
        if winner is None or winner == "none":
            return 0.0
        return 1.0 if winner == side else -1.0

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = _action(action)
        if self._game.is_over():
            raise RuntimeError("the game is over: call reset()")
        mover = self._game.turn
        m = self._legal.get(action)
        if m is None:
            info = {"action_mask": self._mask.copy(), "illegal_action": True}
            return self.state.copy(), self.illegal_reward, False, False, info
        self._apply(m)
        if self.opponent is not None:
            self._opponent_move()
        self._refresh()
        terminated = self._game.is_over()
        reward = self._reward(mover) if terminated else 0.0
        info = {"action_mask": self._mask.copy()}
        if terminated:
            info["status"] = self._game.status
        return self.state.copy(), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending."""
        return sorted(self._legal)

    def decode_action(self, action: int) -> Move | None:
        """The legal move an action stands for, or ``None``."""
        return self._legal.get(_action(action))

    def encode_move(self, move: Move | str) -> int:
        """The action of a legal move (a ``Move`` or its text in any notation)."""
        m = self._game.parse_move(move)
        start, end = self._point(m.from_square), self._point(m.to_square)
        return move_to_action(self.state[start], start, end)

    @property
    def game(self) -> Game:
        """A copy of the game so far."""
        return self._game.copy()

    # ---- state ---------------------------------------------------------------------------
    def get_state(self) -> tuple:
        """The episode so far (picklable), for :meth:`set_state`."""
        return (self._game.copy(), self.state.copy(), self._rng.getstate())

    def set_state(self, state: tuple) -> tuple[np.ndarray, dict[str, Any]]:
        """Restores an episode saved by :meth:`get_state`; returns its observation and
        ``{"action_mask": …}``."""
        game, board, rng = state
        if not isinstance(game, Game) or game.game != "xiangqi":
            raise ValueError(f"{state!r} is not a state of GymXiangqiEnv")
        self._game = game.copy()
        self.state = np.array(board, np.int64)
        self._rng.setstate(rng)
        self._refresh()
        return self.state.copy(), {"action_mask": self._mask.copy()}

    def clone(self) -> GymXiangqiEnv:
        """An independent copy at the same point of the episode."""
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_engine"] = None  # made again when needed (an empty hash table)
        return state

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._game.board() + "\n"
        return None
