"""chuhe: Xiongqi (熊棋) and Xiangqi (象棋) for Python.

The rules, notations and engine are chuhe's Rust core (``chuhe._chuhe``); this package adds
the Python face: :class:`Game`, :class:`Move`, :class:`Engine`, the Gymnasium environments
``chuhe/Xiongqi-v0``, ``chuhe/Xiangqi-v0``, ``chuhe/XiangqiCapture-v0`` (registered on import),
the vector environment :class:`chuhe.vector.ChuheVectorEnv`, the PettingZoo environments in
:mod:`chuhe.pettingzoo`, :func:`observe` (the observations and masks of any batch of games)
and the records (``Game.to_pcn``/``from_pcn``, ``Game.to_pgn``/``from_pgn``, :func:`read_pgn`).
Games read from rule files (``games/<name>/``, docs/RULES.md): :func:`make_env` with
``rules=DIR`` makes any of the environments, :func:`load_rules` names the game for ``Game``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ._chuhe import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    RulesError,
)
from ._chuhe import Engine as _NativeEngine
from ._observe import observe, read_pgn

__all__ = [
    "GAMES",
    "Analysis",
    "Line",
    "Engine",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "RulesError",
    "load_rules",
    "make_env",
    "observe",
    "read_pgn",
]

#: The games, by the names ``Game`` and the environments take.
GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")


@dataclass(frozen=True)
class Analysis:
    """The result of :meth:`Engine.analyse`.

    ``score`` is in centipawns from the side to move's view (``None`` when a forced end was
    found); ``mate`` is the number of moves to a forced end (positive: the side to move wins).
    """

    best: Move | None
    score: int | None
    mate: int | None
    depth: int
    nodes: int
    seconds: float
    pv: list[Move]


@dataclass(frozen=True)
class Line:
    """One of the engine's best moves (:meth:`Engine.lines`): ``score`` in centipawns from
    the side to move's view, or ``mate`` in moves (positive: the side to move wins)."""

    move: Move
    score: int | None
    mate: int | None


class Engine:
    """chuhe's engine. ``Engine(hash_mb=16, threads=1, level=20)`` (``level`` 0 is the
    weakest, 20 full strength); searches release the GIL."""

    def __init__(self, hash_mb: int = 16, threads: int = 1, level: int = 20) -> None:
        self._native = _NativeEngine(hash_mb, threads, level)

    def analyse(
        self,
        game: Game,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
    ) -> Analysis:
        """Searches ``game``'s position (history included) within the limits given
        (``movetime`` in seconds)."""
        best, kind, value, d, n, secs, pv = self._native._search(game, depth, nodes, movetime)
        return Analysis(
            best=best,
            score=value if kind == "cp" else None,
            mate=value if kind == "mate" else None,
            depth=d,
            nodes=n,
            seconds=secs,
            pv=pv,
        )

    def lines(
        self,
        game: Game,
        multipv: int,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
    ) -> list[Line]:
        """The engine's ``multipv`` (1-64) best moves in ``game``'s position, best first,
        each with its score (fewer when the position has fewer moves or the search ended
        before it scored them)."""
        found = self._native._lines(game, multipv, depth, nodes, movetime)
        return [
            Line(move=m, score=v if kind == "cp" else None, mate=v if kind == "mate" else None)
            for m, kind, v in found
        ]

    def play(
        self,
        game: Game,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
    ) -> Move:
        """The engine's move in ``game``'s position."""
        best = self.analyse(game, depth=depth, nodes=nodes, movetime=movetime).best
        if best is None:  # pragma: no cover - a game with moves always has a best one
            raise ValueError("the engine found no move")
        return best


def load_rules(directory: str | os.PathLike) -> str:
    """Compiles the game directory ``directory`` (``rules.json`` and the GGN table it names,
    docs/RULES.md) and returns the game's name for :class:`Game` and the environments:
    ``"rules:"`` and the directory's absolute path (``Game(chuhe.load_rules("games/makruk"))``).
    A directory that does not compile raises :class:`RulesError`, whose message names the
    file, the key and what is wrong."""
    from ._checks import rules_game

    name, _short = rules_game("xiongqi", directory)
    return name


#: What :func:`make_env` makes, by its ``api``.
APIS = ("gymnasium", "vector", "aec", "parallel")


def make_env(
    game: str = "xiongqi",
    *,
    rules: str | os.PathLike | None = None,
    api: str = "gymnasium",
    **kwargs: Any,
) -> Any:
    """An environment of ``game``, or of the game read from the rules directory ``rules``
    (``games/<name>/``; a bad one raises :class:`RulesError`): with ``api="gymnasium"`` a
    :class:`chuhe.envs.ChuheEnv`, ``"vector"`` a :class:`chuhe.vector.ChuheVectorEnv`
    (``num_envs=…``), ``"aec"`` a PettingZoo AEC env (order-enforcing, as the ``env()`` of
    :mod:`chuhe.pettingzoo`'s modules) and ``"parallel"`` a PettingZoo parallel env. The other
    keyword arguments are the class's.

    ```python
    env = chuhe.make_env(rules="games/minixiangqi", opponent="random")
    obs, info = env.reset(seed=0)           # obs.shape == (12, 7, 7)
    ```
    """
    from . import _checks

    _checks.choice("api", api, APIS)
    if api == "gymnasium":
        from .envs import ChuheEnv

        return ChuheEnv(game, rules=rules, **kwargs)
    if api == "vector":
        from .vector import ChuheVectorEnv

        return ChuheVectorEnv(game, rules=rules, **kwargs)
    from pettingzoo.utils import wrappers

    from .pettingzoo._aec import ChuheAEC, ChuheParallel

    if api == "aec":
        return wrappers.OrderEnforcingWrapper(ChuheAEC(game, rules=rules, **kwargs))
    return ChuheParallel(game, rules=rules, **kwargs)


def _register() -> None:
    import gymnasium

    for env_id, game in (
        ("chuhe/Xiongqi-v0", "xiongqi"),
        ("chuhe/Xiangqi-v0", "xiangqi"),
        ("chuhe/XiangqiCapture-v0", "xiangqi-capture"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="chuhe.envs:ChuheEnv",
                vector_entry_point="chuhe.vector:make_vector",
                kwargs={"game": game},
            )
    if "chuhe/GymXiangqi-v0" not in gymnasium.registry:
        gymnasium.register(id="chuhe/GymXiangqi-v0", entry_point="chuhe.gym_xiangqi:GymXiangqiEnv")


_register()

_SUBMODULES = (
    "envs", "vector", "gym_xiangqi", "pettingzoo", "augment", "sb3", "mcts", "data", "openspiel",
)


def __getattr__(name: str):
    """The submodules (``chuhe.envs``, ``chuhe.vector``, ``chuhe.gym_xiangqi``,
    ``chuhe.pettingzoo``, ``chuhe.augment``, ``chuhe.sb3``, ``chuhe.mcts``, ``chuhe.data``,
    ``chuhe.openspiel``) as attributes, imported on first use (``chuhe.sb3`` needs
    Stable-Baselines3, ``chuhe.openspiel`` OpenSpiel)."""
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
