"""chuhe's games as OpenSpiel games: importing this module registers, with
``pyspiel.register_game``,

- ``chuhe_xiangqi`` — standard Xiangqi with chuhe's arbiter (perpetual check and chase, the
  60-move rule, every repetition rule),
- ``chuhe_xiangqi_capture`` — Xiangqi where the game ends when a general is captured,
- ``chuhe_xiongqi`` — Xiongqi,

so that OpenSpiel's own algorithms run on them as on its own games::

    import pyspiel
    import chuhe.openspiel  # registers the games
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("chuhe_xiangqi(max_plies=200)")
    bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator())
    state = game.new_initial_state()
    state.apply_action(bot.step(state))

Players 0 and 1 are the first (Red, South) and the second player. Actions are the
environments' (:mod:`chuhe.envs`): ``(from * SQUARES + to) * CHOICES + choice``, squares from
the view of the player to move (so the same move of the two players is a different number
on the board, and the same number in each one's view). Parameters: ``max_plies`` (default
500, as OpenSpiel's own ``xiangqi``) ends a game that reaches it as a draw — OpenSpiel needs
a bound on a game's length; ``history`` (default 0) adds earlier positions to the
observation; ``position`` (default ``start``) is the start position, a FEN or FEEN
(``pyspiel.load_game("chuhe_xiangqi", {"position": fen})``).

The observation tensor (``state.observation_tensor(player)``) is the environments'
observation from ``player``'s view with one more plane, all ones when ``player`` is the first
player: ``[planes + 1, ranks, files]``, Xiangqi ``(17, 10, 9)``, Xiongqi ``(23, 8, 8)``. (The
plane tells a network which side it sees; OpenSpiel's AlphaZero learns values from the first
player's view.) The observation string is the position's FEEN (Xiangqi: its FEN); the
information state is the game so far (perfect recall of a public game).

Needs OpenSpiel (``pip install open_spiel``); it is not a dependency of chuhe.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._chuhe import Game, env_spec

__all__ = [
    "GAMES",
    "ChuheGame",
    "ChuheState",
    "XiangqiCaptureGame",
    "XiangqiGame",
    "XiongqiGame",
]

#: The registered names and chuhe's game of each.
GAMES = {
    "chuhe_xiangqi": "xiangqi",
    "chuhe_xiangqi_capture": "xiangqi-capture",
    "chuhe_xiongqi": "xiongqi",
}

_LONG_NAMES = {
    "xiangqi": "chuhe Xiangqi (Chinese chess)",
    "xiangqi-capture": "chuhe Xiangqi, the game ends when a general is captured",
    "xiongqi": "chuhe Xiongqi",
}
_DEFAULTS = {"max_plies": 500, "history": 0, "position": "start"}


def _game_type(short_name: str, game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=_LONG_NAMES[game],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


def _parameters(params: dict[str, Any] | None) -> tuple[int, int, str]:
    """``max_plies``, ``history`` and ``position``, checked."""
    params = {**_DEFAULTS, **(params or {})}
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {unknown}: chuhe's games take max_plies, history, position"
        )
    max_plies, history, position = params["max_plies"], params["history"], params["position"]
    if not isinstance(position, str):
        raise ValueError(f"position={position!r}: a FEN or FEEN, or 'start'")
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
        raise ValueError(f"max_plies={max_plies!r}: a whole number of at least 1")
    if isinstance(history, bool) or not isinstance(history, int) or not 0 <= history <= 64:
        raise ValueError(f"history={history!r}: a whole number from 0 to 64")
    return max_plies, history, position


class ChuheGame(pyspiel.Game):
    """One of chuhe's games for OpenSpiel (see the module's help); each game is a subclass
    naming its ``short_name``. What the game needs is read from its type and parameters,
    which OpenSpiel keeps (a game sent to another process, as AlphaZero's actors get it, is
    rebuilt without this class's ``__init__``)."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        short_name = type(self).short_name
        game = GAMES[short_name]
        max_plies, history, position = _parameters(params)
        start = Game(game, position)  # the position must read, and not be over
        if start.is_over():
            raise ValueError(f"position={position!r}: the game is already over there "
                             f"({start.status})")
        _files, _ranks, _planes, _choices, actions = env_spec(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies,
        )
        super().__init__(_game_type(short_name, game), info,
                         {"max_plies": max_plies, "history": history, "position": position})

    @property
    def chuhe_game(self) -> str:
        """chuhe's name of the game (``"xiangqi"``, …)."""
        return GAMES[self.get_type().short_name]

    @property
    def settings(self) -> tuple[int, int, str]:
        """``(max_plies, history, position)``."""
        return _parameters(self.get_parameters())

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(planes + 1, ranks, files)`` of the observation tensor."""
        files, ranks, planes, _choices, _actions = env_spec(self.chuhe_game, self.settings[1])
        return (planes + 1, ranks, files)

    def new_initial_state(self) -> ChuheState:
        """The start position."""
        return ChuheState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the observation tensor and string (or, for a perfect-recall
        information state, OpenSpiel's observer of a public game)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ChuheState(pyspiel.State):
    """A position of one of chuhe's games with its history (a :class:`chuhe.Game`)."""

    def __init__(self, game: ChuheGame) -> None:
        super().__init__(game)
        max_plies, _history, position = game.settings
        self.game = Game(game.chuhe_game, position)
        self._max_plies = max_plies

    def _plies(self) -> int:
        return len(self.game.move_stack)

    def current_player(self) -> int:
        """0 (first player) or 1 to move, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self.game.turn == "first" else 1

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game.play_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        mover = 0 if self.game.turn == "first" else 1
        if player == mover and not self.game.is_over():
            move = self.game.decode_action(action)
            if move is not None:
                return str(move)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.game.is_over() or self._plies() >= self._max_plies

    def returns(self) -> list[float]:
        """+1 and −1 for a win and a loss, 0 for a draw (the ply cap included)."""
        winner = self.game.winner
        if winner == "first":
            return [1.0, -1.0]
        if winner == "second":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        return self.game.fen if self.game.game != "xiongqi" else self.game.feen


class _BoardObserver:
    """OpenSpiel's PyObserver interface: ``tensor`` and ``dict`` views of one array."""

    def __init__(self, game: ChuheGame, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not taken: {params!r}")
        self._history = game.settings[1]
        self.tensor = np.zeros(int(np.prod(game.observation_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.observation_shape)}

    def set_from(self, state: ChuheState, player: int) -> None:
        view = self.dict["observation"]
        side = "first" if player == 0 else "second"
        view[:-1] = state.game.observation(history=self._history, side=side)
        view[-1] = 1.0 if player == 0 else 0.0

    def string_from(self, state: ChuheState, player: int) -> str:
        return str(state)


class XiangqiGame(ChuheGame):
    """``chuhe_xiangqi``."""

    short_name = "chuhe_xiangqi"


class XiangqiCaptureGame(ChuheGame):
    """``chuhe_xiangqi_capture``."""

    short_name = "chuhe_xiangqi_capture"


class XiongqiGame(ChuheGame):
    """``chuhe_xiongqi``."""

    short_name = "chuhe_xiongqi"


def _register() -> None:
    # The classes themselves are the factories: a closure kept by pyspiel's registry is
    # released after the interpreter has finalized, which aborts Python at exit.
    registered = set(pyspiel.registered_names())
    for cls in (XiangqiGame, XiangqiCaptureGame, XiongqiGame):
        if cls.short_name not in registered:
            pyspiel.register_game(_game_type(cls.short_name, GAMES[cls.short_name]), cls)


_register()
