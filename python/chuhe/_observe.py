"""``chuhe.observe``: observations and masks of any batch, as the environments write them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _checks
from ._chuhe import EnvState, Game, _observe_into, env_spec


def observe(
    items: Sequence[Game | EnvState | str],
    *,
    game: str | None = None,
    history: int = 0,
    out: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The observations and legal-action masks of ``items``, one row each:
    ``(float32[N, planes, ranks, files], int8[N, actions])``, from each position's side to
    move, with the piece planes of ``history`` earlier positions, exactly as the
    environments give them (:mod:`chuhe.envs`).

    ``items`` are :class:`chuhe.Game` objects (their history counts), env states
    (``env.get_state()``) or FEN/FEEN strings (``game`` names their game; games and states
    name their own, and a batch holds one game). The arrays are NumPy's, written in place in
    Rust; torch and JAX take them without a copy (``torch.from_dlpack(obs)``,
    ``jax.dlpack.from_dlpack(obs)``). ``out=(obs, mask)`` writes into arrays of yours
    instead (C-contiguous, of those shapes and dtypes) and returns them::

        obs, mask = chuhe.observe([chuhe.Game("xiangqi")] * 8, history=2)
        obs.shape, mask.shape      # (8, 44, 10, 9), (8, 8100)
    """
    items = list(items)
    _checks.integer("history", history, 0, 64)
    kinds = {item._game_id for item in items if isinstance(item, (Game, EnvState))}
    if game is not None:
        _checks.game_name(game)
        kinds.add(game)
    if len(kinds) > 1:
        raise ValueError(f"the items are of several games ({', '.join(sorted(kinds))}): "
                         "a batch holds one game")
    if not kinds:
        if items:
            raise ValueError("game: name the game of the FEN/FEEN strings (game='xiangqi', …)")
        raise ValueError("no items, and no game named: the shapes are unknown")
    (kind,) = kinds
    files, ranks, planes, _choices, actions = env_spec(kind, history)
    shapes = ((len(items), planes, ranks, files), (len(items), actions))
    if out is None:
        obs = np.empty(shapes[0], np.float32)
        mask = np.empty(shapes[1], np.int8)
    else:
        obs, mask = out
        for name, array, shape, dtype in (("obs", obs, shapes[0], np.float32),
                                          ("mask", mask, shapes[1], np.int8)):
            _check_out(name, array, shape, dtype)
    _observe_into(items, kind, history, obs, mask)
    return obs, mask


def _check_out(name: str, array: Any, shape: tuple[int, ...], dtype: Any) -> None:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"out: {name} is a {type(array).__name__}, not a NumPy array")
    if array.shape != shape or array.dtype != dtype or not array.flags.c_contiguous:
        raise ValueError(
            f"out: {name} must be a C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
            f"not {array.dtype.name} {array.shape}"
        )


def read_pgn(text: str) -> list[Game]:
    """Every game of a PGN text (Xiangqi), each move checked by the rules; a game that the
    rules refuse raises ``ValueError`` naming it and where. ``Game.from_pgn`` reads the first
    game, ``Game.to_pgn`` writes one; ``Game.from_pcn`` / ``Game.to_pcn`` do PCN."""
    from ._chuhe import _read_pgn

    if not isinstance(text, str):
        raise TypeError(f"text is a {type(text).__name__}, not a str (read the file first)")
    return _read_pgn(text)
