"""Argument checks shared by the environments: each error names the argument and its value."""

from __future__ import annotations

import math
import os
from typing import Any

GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")
#: A game read from rule files is named ``rules:`` and its directory's absolute path.
RULES_PREFIX = "rules:"
OPPONENTS = (None, "random", "engine")
SIDES = ("first", "second", "random")
#: The engine's strength levels (0 weakest, 20 full strength).
LEVELS = range(0, 21)


def integer(name: str, value: Any, minimum: int, maximum: int | None = None,
            optional: bool = False) -> None:
    """``value`` is an int (not a bool) in ``minimum..=maximum``, or ``None`` if optional."""
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        kind = "an int or None" if optional else "an int"
        raise TypeError(f"{name}={value!r} is not {kind}")
    if value < minimum or (maximum is not None and value > maximum):
        top = "" if maximum is None else f" and at most {maximum}"
        raise ValueError(f"{name}={value!r}: it must be at least {minimum}{top}")


def index(name: str, value: Any, size: int) -> int:
    """``value`` as an index into ``size`` items (an int, NumPy's too, not a bool)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name}: {value!r} is not an int")
    i = value.__index__()
    if not 0 <= i < size:
        raise ValueError(f"{name}: {i} is out of range (0 to {size - 1})")
    return i


def choice(name: str, value: Any, allowed: tuple) -> None:
    if value not in allowed or isinstance(value, bool):
        names = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name}={value!r} is not one of {names}")


def game_name(value: Any) -> None:
    """``game``: a native game's name, or ``rules:DIR`` (a game directory's name, as
    :func:`chuhe.load_rules` gives it)."""
    if isinstance(value, str) and value.startswith(RULES_PREFIX):
        return
    choice("game", value, GAMES)


def rules_game(game: Any, rules: Any, default: str = "xiongqi") -> tuple[Any, str | None]:
    """The game an environment plays: ``(game, None)`` when ``rules`` is ``None``, else the
    directory ``rules`` loaded (``chuhe.RulesError`` when it does not compile) as ``(its
    name, the manifest's short name)``; ``game`` must then be left at its default."""
    if rules is None:
        return game, None
    if isinstance(rules, bool) or not isinstance(rules, (str, os.PathLike)):
        raise TypeError(f"rules={rules!r} is not a directory (a str or a path) or None")
    if game != default:
        raise ValueError(f"game={game!r} and rules={rules!r}: give a game or a rules directory")
    from ._chuhe import _load_rules

    name, _title, short = _load_rules(os.fspath(rules))
    return name, short


def text(name: str, value: Any, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise TypeError(f"{name}={value!r} is not a str" + (" or None" if optional else ""))


def temperature(value: Any) -> None:
    """``engine_temperature``: a positive finite number or ``None``."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"engine_temperature={value!r} is not a number or None")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"engine_temperature={value!r}: it must be a positive number")


def env_arguments(
    *,
    game: Any,
    position: Any,
    opponent: Any,
    engine_nodes: Any,
    engine_depth: Any,
    agent_side: Any,
    max_plies: Any,
    engine_level: Any,
    engine_temperature: Any,
    engine_lines: Any,
    history: Any = 0,
) -> None:
    """Checks the arguments that every Gymnasium env of chuhe takes."""
    game_name(game)
    text("position", position)
    choice("opponent", opponent, OPPONENTS)
    integer("engine_nodes", engine_nodes, 1, optional=True)
    integer("engine_depth", engine_depth, 1, 255, optional=True)
    choice("agent_side", agent_side, SIDES)
    integer("max_plies", max_plies, 1, optional=True)
    integer("engine_level", engine_level, LEVELS.start, LEVELS.stop - 1)
    temperature(engine_temperature)
    integer("engine_lines", engine_lines, 1, 64)
    integer("history", history, 0, 64)


def reset_options(options: Any, strict: bool = True) -> Any:
    """The start of ``reset(options=…)``: ``{"position": FEN, FEEN or chuhe.Game}`` (a game
    keeps its start and history), or ``None``; any other key is refused when ``strict``
    (PettingZoo's ``api_test`` requires its environments to accept any option, so they pass
    ``strict=False``)."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options={options!r} is not a dict or None")
    unknown = sorted(set(options) - {"position"}, key=str)
    if unknown and strict:
        raise ValueError(f"unknown reset option(s) {unknown!r}: the only option is 'position'")
    position = options.get("position")
    from ._chuhe import Game

    if position is not None and not isinstance(position, (str, Game)):
        raise TypeError(
            f"options['position']={position!r} is not a str (FEN or FEEN), a chuhe.Game or None"
        )
    return position
