"""gym-xiangqi 0.5.0's environment, its API and its rules, over chuhe's move generation.

:class:`XiangQiEnv` is exported as :class:`chuhe.gym_xiangqi.XiangQiEnv`; see that module.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._chuhe import Game, _capture_moves_past_end

ROWS, COLS = 10, 9
TOTAL_POS = ROWS * COLS
PIECE_CNT = 16
N_ACTIONS = PIECE_CNT * TOTAL_POS * TOTAL_POS

RED, BLACK = 0, 1
ALLY, ENEMY = 1, -1
DEAD, ALIVE = 0, 1
GENERAL = 1
CANNON_1, CANNON_2 = 10, 11
SOLDIER_1, SOLDIER_5 = 12, 16
RIVER_LOW = 4
ILLEGAL_MOVE = -10.0
LOSE = -100.0
MAX_PERPETUAL_JIANG = 4
#: Points of a captured piece, by id (a soldier across the river may add 1, see ``step``).
PIECE_POINTS = (
    (0.0, 100.0)  # empty, general
    + (2.0, 2.0, 2.0, 2.0)  # advisors, elephants
    + (4.0, 4.0, 9.0, 9.0, 4.5, 4.5)  # horses, chariots, cannons
    + (1.0,) * 5  # soldiers
)
#: The FEN letter of each piece id (upper case: the side at the bottom of the board).
_LETTERS = " KAABBNNRRCCPPPPP"
_FILES = "abcdefghi"

INITIAL_BOARD = (
    (-9, -7, -5, -3, -1, -2, -4, -6, -8),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, -11, 0, 0, 0, 0, 0, -10, 0),
    (-16, 0, -15, 0, -14, 0, -13, 0, -12),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (12, 0, 13, 0, 14, 0, 15, 0, 16),
    (0, 10, 0, 0, 0, 0, 0, 11, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (8, 6, 4, 2, 1, 3, 5, 7, 9),
)


def move_to_action_space(piece_id: int, start, end) -> int:
    """The action of piece ``piece_id`` (1-16) moving from ``start`` to ``end`` (``(row,
    col)`` pairs), as gym-xiangqi's ``utils.move_to_action_space``."""
    return (piece_id - 1) * TOTAL_POS * TOTAL_POS + (start[0] * COLS + start[1]) * TOTAL_POS + (
        end[0] * COLS + end[1]
    )


def action_space_to_move(action: int) -> tuple[int, list[int], list[int]]:
    """``(piece_id, [row, col], [row2, col2])`` of an action, as gym-xiangqi's
    ``utils.action_space_to_move``."""
    piece, rest = divmod(int(action), TOTAL_POS * TOTAL_POS)
    start, end = divmod(rest, TOTAL_POS)
    return piece + 1, list(divmod(start, COLS)), list(divmod(end, COLS))


def _square(row: int, col: int) -> str:
    return f"{_FILES[col]}{ROWS - row}"


def _point(square: str) -> tuple[int, int]:
    return ROWS - int(square[1:]), _FILES.index(square[0])


def _fen(board: np.ndarray, mover: int) -> str:
    """The board as a FEN of chuhe's ``xiangqi-capture``: the bottom side (the ally) as red,
    ``mover`` (ALLY or ENEMY) to move, the clocks at zero."""
    rows = []
    for r in range(ROWS):
        text, empty = "", 0
        for c in range(COLS):
            v = int(board[r, c])
            if v == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = _LETTERS[abs(v)]
            text += letter if v > 0 else letter.lower()
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows) + (" w" if mover == ALLY else " b") + " - - 0 1"


def _generals_face(board: np.ndarray) -> bool:
    """Whether the two generals stand on one file with nothing between them."""
    top = np.argwhere(board[0:3, 3:6] == -GENERAL)
    bottom = np.argwhere(board[7:10, 3:6] == GENERAL)
    if len(top) == 0 or len(bottom) == 0:
        return False
    (tr, tc), (br, bc) = top[0], bottom[0]
    if tc != bc:
        return False
    return not board[tr + 1 : br + 7, tc + 3].any()


def _moves(board: np.ndarray, mover: int) -> list[int]:
    """gym-xiangqi's legal actions of ``mover`` on ``board``: every move the pieces can make
    (chuhe's ``xiangqi-capture`` moves, where one's own general may be left attacked) except
    those after which the generals face each other."""
    game = Game("xiangqi-capture", position=_fen(board, mover))
    # Only a general's move, or a move from between the generals on their shared file, can
    # make them face.
    (top_row, top_col), (bottom_row, bottom_col) = (
        tuple(np.argwhere(board == -GENERAL)[0]),
        tuple(np.argwhere(board == GENERAL)[0]),
    )
    shared = top_col if top_col == bottom_col else None
    actions = []
    for m in game.legal_moves:
        start, end = _point(m.from_square), _point(m.to_square)
        piece = int(board[start])
        if abs(piece) == GENERAL or (start[1] == shared and top_row < start[0] < bottom_row):
            after = board.copy()
            after[start] = 0
            after[end] = piece
            if _generals_face(after):
                continue
        actions.append(move_to_action_space(abs(piece), start, end))
    return actions


def _moves_past_end(board: np.ndarray, mover: int) -> list[int]:
    """What gym-xiangqi lists once a general is taken and the game is over: every move of
    ``mover``'s pieces, except, for the side that lost its general, a move that takes the
    other general or a cannon's capture with that general as its screen. (gym-xiangqi's
    facing-generals test counts a board with no general at all as the generals facing: the
    ray of a piece stops at the general, and a cannon's capture beyond it is refused.)"""
    theirs = np.argwhere(board == -mover * GENERAL)
    general = tuple(theirs[0]) if len(theirs) and not (board == mover * GENERAL).any() else None
    actions = []
    for start_square, end_square in _capture_moves_past_end(_fen(board, mover)):
        start, end = _point(start_square), _point(end_square)
        piece = abs(int(board[start]))
        if general is not None and (end == general or (
            piece in (CANNON_1, CANNON_2) and _between(start, end, general)
        )):
            continue
        actions.append(move_to_action_space(piece, start, end))
    return actions


def _between(start: tuple[int, int], end: tuple[int, int], point: tuple[int, int]) -> bool:
    """Whether ``point`` lies strictly between ``start`` and ``end`` on their rank or file."""
    if start[0] == end[0] == point[0]:
        return min(start[1], end[1]) < point[1] < max(start[1], end[1])
    if start[1] == end[1] == point[1]:
        return min(start[0], end[0]) < point[0] < max(start[0], end[0])
    return False


class ActionValueError(ValueError, AssertionError):
    """An action outside the space: a ``ValueError`` as chuhe's envs raise, and an
    ``AssertionError`` as gym-xiangqi's ``assert`` raises, so either ``except`` catches it."""


class ActionTypeError(TypeError, AssertionError):
    """An action that is not an integer: a ``TypeError``, and an ``AssertionError`` as in
    gym-xiangqi."""


#: gym-xiangqi's short name of each piece id's kind.
_NAMES = (None, "GEN", "ADV", "ADV", "ELE", "ELE", "HRS", "HRS", "CHR", "CHR", "CAN", "CAN") + (
    "SOL",
) * 5


class Piece:
    """A piece as gym-xiangqi's piece objects describe it, without pygame's images and
    sounds: ``color`` (RED or BLACK), ``row``, ``col``, ``state`` (ALIVE or DEAD), ``name``
    (``"GEN"``, ``"CHR"``…) and ``legal_moves`` (filled by
    :meth:`XiangQiEnv.get_possible_actions_by_piece`)."""

    def __init__(self, color: int, row: int, col: int, name: str) -> None:
        self.color = color
        self.row = row
        self.col = col
        self.name = name
        self.state = ALIVE
        self.legal_moves: list[tuple[list[int], list[int]]] | None = None

    def move(self, new_row: int, new_col: int) -> None:
        self.row = new_row
        self.col = new_col

    def is_alive(self) -> int:
        return self.state

    @property
    def coor(self) -> tuple[int, int]:
        """``(col, row)``, as gym-xiangqi's."""
        return (self.col, self.row)

    def __repr__(self) -> str:
        state = "alive" if self.state == ALIVE else "dead"
        return f"Piece({self.name}, row={self.row}, col={self.col}, {state})"


class XiangQiEnv:
    """gym-xiangqi 0.5.0's ``XiangQiEnv``; see :mod:`chuhe.gym_xiangqi`."""

    metadata = {"render.modes": ["human", "ansi"]}

    def __init__(self, ally_color: int = RED) -> None:
        if ally_color not in (RED, BLACK):
            raise ValueError(f"ally_color {ally_color!r} is not RED (0) or BLACK (1)")
        from gymnasium import spaces

        self._ally_color = ally_color
        self._enemy_color = BLACK if ally_color == RED else RED
        self.observation_space = spaces.Box(-PIECE_CNT, PIECE_CNT, (ROWS, COLS), np.int64)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._ally_actions = np.zeros(N_ACTIONS)
        self._enemy_actions = np.zeros(N_ACTIONS)
        self.reset()

    # ---- gym-xiangqi's API ---------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """The start position, the ally at the bottom; returns the board (gym's old API)."""
        self._done = False
        self._done_warned = False
        self._ended_by_perpetual_check = False
        self._state = np.array(INITIAL_BOARD, dtype=np.int64)
        self._init_pieces()
        self._jiang_history = {ALLY: {}, ENEMY: {}}
        self._turn = ALLY if self._ally_color == RED else ENEMY
        self._compute_actions(self._turn)
        return np.array(self._state)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, dict]:
        """One move of the side to move; returns ``(board, reward, done, {})``.

        Reward: the captured piece's points (+1 for an ally soldier across the river), 100
        for the general (which ends the game); -100 (and the end) for the fourth check of a
        perpetual check (a step after that end raises ``AssertionError``, as gym-xiangqi's
        does); -10 for an illegal action, which changes nothing; 0 (and a warning) once the
        game has ended."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ActionTypeError(f"action {action!r} is not an int of Discrete({N_ACTIONS})")
        if not 0 <= action < N_ACTIONS:
            raise ActionValueError(f"action {action} is outside Discrete({N_ACTIONS})")
        action = int(action)
        if self._ended_by_perpetual_check:
            # gym-xiangqi returns that end before it records the board, and its next step
            # fails this check of its own.
            raise AssertionError("Error! Game state changed illegally!")
        if self._done:
            if not self._done_warned:
                self._done_warned = True
                print("WARN: the episode has ended (done == True); call reset()")
            return np.array(self._state), 0, self._done, {}
        mover = self._turn
        possible = self._ally_actions if mover == ALLY else self._enemy_actions
        if possible[action] == 0:
            return np.array(self._state), ILLEGAL_MOVE, False, {}
        # As gym-xiangqi, the checks before the move come from the mover's moves computed
        # again (not from its list, which a caller may have edited).
        before = self.check_jiang()

        piece, start, end = action_space_to_move(action)
        pieces = self._ally_piece if mover == ALLY else self._enemy_piece
        pieces[piece].move(*end)
        captured = int(self._state[end[0], end[1]])
        self._state[start[0], start[1]] = 0
        self._state[end[0], end[1]] = piece * mover
        if captured:
            (self._ally_piece if captured > 0 else self._enemy_piece)[abs(captured)].state = DEAD
        reward = PIECE_POINTS[abs(captured)]
        # gym-xiangqi adds 1 for a captured ally soldier that had crossed the river (its row
        # at most 4); for an enemy soldier its test reads another piece, which is never across.
        if captured > 0 and SOLDIER_1 <= captured <= SOLDIER_5 and end[0] <= RIVER_LOW:
            reward += 1
        if abs(captured) == GENERAL:
            self._done = True

        after = self.check_jiang()
        history = self._jiang_history[mover]
        if after:
            for a in after:
                if a in before:
                    continue
                history[a] = history.get(a, 0) + 1
                if history[a] == MAX_PERPETUAL_JIANG:
                    self._done = True
                    self._ended_by_perpetual_check = True
                    return np.array(self._state), LOSE, self._done, {}
        else:
            self._jiang_history[mover] = {}
        self._turn = -mover
        self._compute_actions(self._turn)
        return np.array(self._state), reward, self._done, {}

    def render(self, mode: str = "human") -> str | None:
        """The board as text (gym-xiangqi draws it with pygame): printed for ``"human"``,
        returned for ``"ansi"``."""
        text = "\n".join(" ".join(f"{v:3d}" for v in row) for row in self._state)
        if mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seeds ``np_random`` (the environment itself draws nothing)."""
        self.np_random = np.random.default_rng(seed)
        return [seed]

    @property
    def ally_color(self) -> int:
        return self._ally_color

    @property
    def enemy_color(self) -> int:
        return self._enemy_color

    @property
    def turn(self) -> int:
        """``ALLY`` (1) or ``ENEMY`` (-1): the side to move."""
        return self._turn

    @property
    def state(self) -> np.ndarray:
        return self._state

    @property
    def ally_actions(self) -> np.ndarray:
        """1 for each legal action of the ally (when it is the ally's turn; after the enemy's
        move it keeps the ally's moves as last computed, as in gym-xiangqi)."""
        return self._ally_actions

    @property
    def enemy_actions(self) -> np.ndarray:
        """1 for each legal action of the enemy (its pieces' ids without the sign)."""
        return self._enemy_actions

    @property
    def done(self) -> bool:
        return self._done

    @property
    def ally_piece(self) -> list[Piece | None]:
        """The ally's pieces by id (index 0 is None); a taken piece stays, DEAD."""
        return self._ally_piece

    @property
    def enemy_piece(self) -> list[Piece | None]:
        """The enemy's pieces by id (index 0 is None)."""
        return self._enemy_piece

    def get_possible_actions(self, player: int) -> None:
        """Fills ``player``'s (ALLY or ENEMY) action list for the board as it is."""
        self._compute_actions(player)

    def get_possible_actions_by_piece(self, piece_id: int) -> None:
        """Sets ``legal_moves`` of the piece ``piece_id`` (positive: the ally's, negative:
        the enemy's) to its ``([row, col], [row2, col2])`` moves in its side's action list."""
        pieces, actions = (
            (self._ally_piece, self._ally_actions)
            if piece_id > 0
            else (self._enemy_piece, self._enemy_actions)
        )
        first = (abs(piece_id) - 1) * TOTAL_POS * TOTAL_POS
        legal = np.flatnonzero(actions[first : first + TOTAL_POS * TOTAL_POS] == 1) + first
        pieces[abs(piece_id)].legal_moves = [action_space_to_move(a)[1:] for a in legal]

    def check_jiang(self) -> list[int]:
        """The side to move's actions (its list computed again) that reach the other
        general's square (as last seen, should it have been taken): gym-xiangqi's checks."""
        general = (self._enemy_piece if self._turn == ALLY else self._ally_piece)[GENERAL]
        target = general.row * COLS + general.col
        return [a for a in self._compute_actions(self._turn) if a % TOTAL_POS == target]

    # ---- inside --------------------------------------------------------------------------
    def _compute_actions(self, side: int) -> list[int]:
        actions = self._ally_actions if side == ALLY else self._enemy_actions
        actions.fill(0)
        if self._has_generals():
            legal = _moves(self._state, side)
        else:
            legal = _moves_past_end(self._state, side)
        actions[legal] = 1
        return legal

    def _has_generals(self) -> bool:
        return bool((self._state == GENERAL).any() and (self._state == -GENERAL).any())

    def _init_pieces(self) -> None:
        self._ally_piece: list[Piece | None] = [None] * (PIECE_CNT + 1)
        self._enemy_piece: list[Piece | None] = [None] * (PIECE_CNT + 1)
        for (row, col), piece in np.ndenumerate(self._state):
            if piece > 0:
                self._ally_piece[piece] = Piece(self._ally_color, row, col, _NAMES[piece])
            elif piece < 0:
                self._enemy_piece[-piece] = Piece(self._enemy_color, row, col, _NAMES[-piece])
