"""Batched Monte Carlo tree search in Rust, with the network in Python.

:class:`MCTS` searches many games in lockstep: each round walks every game's tree to a leaf
(in Rust, on ``threads`` threads, the GIL released), calls the network **once** with all the
leaves, and expands and backs them up. The network is any callable

    ``network(obs, mask) -> (logits, values)``

with ``obs`` ``float32[B, planes, ranks, files]`` and ``mask`` ``int8[B, actions]`` (the
environments' encoding, :mod:`chuhe.envs`, from the side to move's view; NumPy arrays that
``torch.from_numpy`` / ``torch.from_dlpack`` take without a copy, overwritten by the next
round), and ``logits`` ``[B, actions]`` (only the legal actions' are read; the priors are
their softmax) and ``values`` ``[B]`` (or ``[B, 1]``) in −1..1 for the side to move: NumPy
arrays, or anything ``np.asarray`` reads (torch CPU tensors, JAX arrays).

Two algorithms: ``"puct"`` (AlphaZero: PUCT, Dirichlet noise at the root when exploring, the
move drawn by visit counts with ``temperature``) and ``"gumbel"`` (Gumbel MuZero: sequential
halving over ``max_considered`` root actions with Gumbel noise when exploring, the improved
policy ``softmax(logits + σ(completed Q))`` as the target). Trees are kept between searches:
a game that continues the last search of its slot by moves the tree holds is searched from
that subtree. Both games and Xiangqi's capture-the-king rules; repetitions and every other
rule are the arbiter's (the history of each game counts)::

    import chuhe
    from chuhe.mcts import MCTS, uniform_network

    games = [chuhe.Game("xiangqi") for _ in range(64)]
    mcts = MCTS("xiangqi", simulations=200, seed=0)
    result = mcts.search(games, uniform_network)
    for game, action in zip(games, result.actions):
        game.play_action(int(action))          # then search again: the trees are reused

``result.visits`` (root visit counts) and ``result.policy`` (the policy target: the visit
distribution for PUCT, the improved policy for Gumbel) are ``float32[N, actions]``,
``result.values`` the root values for the side to move, ``result.actions`` the moves chosen.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _checks
from ._chuhe import Game, MctsCore

__all__ = ["MCTS", "SearchResult", "uniform_network"]

Network = Callable[[np.ndarray, np.ndarray], tuple[Any, Any]]


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`MCTS.search` returns, one row per game (new arrays each search)."""

    #: ``float32[N, actions]``: the root's visit counts (reused subtrees' visits included).
    visits: np.ndarray
    #: ``float32[N, actions]``: the policy target (PUCT: the visits normalised; Gumbel: the
    #: improved policy).
    policy: np.ndarray
    #: ``float32[N]``: each root's mean value, for its side to move.
    values: np.ndarray
    #: ``int64[N]``: the action chosen in each game.
    actions: np.ndarray
    #: Calls of the network this search (rounds with leaves to evaluate).
    network_calls: int
    #: Leaves the network evaluated this search.
    evaluations: int


class MCTS:
    """A batched tree search of games of ``game`` (``"xiongqi"``, ``"xiangqi"``,
    ``"xiangqi-capture"``).

    ``simulations`` per game and search; ``c_puct``; ``dirichlet_alpha`` and
    ``dirichlet_fraction`` (PUCT's root noise when exploring); ``max_considered``,
    ``c_visit``, ``c_scale`` (Gumbel's root actions and ``σ``); ``history`` earlier positions
    in the observation; ``threads`` for the tree work (the machine's cores when ``None``);
    ``seed`` for the noise and the drawn moves; ``reuse`` keeps the trees between searches.
    """

    def __init__(
        self,
        game: str = "xiangqi",
        *,
        algorithm: str = "puct",
        simulations: int = 100,
        c_puct: float = 1.25,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.25,
        max_considered: int = 16,
        c_visit: float = 50.0,
        c_scale: float = 0.1,
        history: int = 0,
        threads: int | None = None,
        seed: int | None = None,
        reuse: bool = True,
    ) -> None:
        _checks.game_name(game)
        _checks.choice("algorithm", algorithm, ("puct", "gumbel"))
        _checks.integer("simulations", simulations, 1)
        _checks.integer("max_considered", max_considered, 1)
        _checks.integer("history", history, 0, 64)
        _checks.integer("threads", threads, 1, optional=True)
        _checks.integer("seed", seed, 0, 2**64 - 1, optional=True)
        for name, value in (("c_puct", c_puct), ("dirichlet_alpha", dirichlet_alpha),
                            ("dirichlet_fraction", dirichlet_fraction), ("c_visit", c_visit),
                            ("c_scale", c_scale)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name}={value!r} is not a number")
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        self.game = game
        self.algorithm = algorithm
        self.simulations = simulations
        self.reuse = bool(reuse)
        self._core = MctsCore(
            game, algorithm, simulations, float(c_puct), float(dirichlet_alpha),
            float(dirichlet_fraction), max_considered, float(c_visit), float(c_scale), history,
            threads or os.cpu_count() or 1, seed,
        )
        files, ranks, planes, _choices, actions = self._core.spec()
        #: The shape of one observation, and the number of actions.
        self.observation_shape = (planes, ranks, files)
        self.num_actions = actions
        self._obs = np.zeros((0, *self.observation_shape), np.float32)
        self._mask = np.zeros((0, actions), np.int8)

    def search(
        self,
        games: Sequence[Game],
        network: Network,
        *,
        explore: bool = True,
        temperature: float = 1.0,
    ) -> SearchResult:
        """Searches every game of ``games`` (none may be over) with ``network``.

        ``explore``: root noise (Dirichlet or Gumbel) and, for PUCT, the move drawn
        ∝ ``visits^(1/temperature)`` (``temperature=0``: the most visited); without it the
        search is deterministic. Game ``i`` reuses the tree of the last search's game ``i``
        when it continues it."""
        games = list(games)
        for i, g in enumerate(games):
            if not isinstance(g, Game):
                raise TypeError(f"games[{i}] is a {type(g).__name__}, not a chuhe.Game")
        if not callable(network):
            raise TypeError(f"network {network!r} is not callable")
        n = len(games)
        self._core.begin(games, bool(explore), float(temperature), self.reuse)
        if self._obs.shape[0] != n:
            self._obs = np.zeros((n, *self.observation_shape), np.float32)
            self._mask = np.zeros((n, self.num_actions), np.int8)
        calls = evaluations = 0
        while True:
            rows, complete = self._core.select(self._obs, self._mask)
            if complete:
                break
            if rows == 0:
                continue
            logits, values = network(self._obs[:rows], self._mask[:rows])
            logits = _float32(logits, (rows, self.num_actions), "logits")
            values = _float32(values, (rows,), "values")
            self._core.expand(logits, values, rows)
            calls += 1
            evaluations += rows
        visits = np.empty((n, self.num_actions), np.float32)
        policy = np.empty((n, self.num_actions), np.float32)
        root_values = np.empty(n, np.float32)
        actions = np.empty(n, np.int64)
        self._core.results(visits, policy, root_values, actions)
        return SearchResult(visits, policy, root_values, actions, calls, evaluations)

    def clear(self) -> None:
        """Forgets every tree (the next search starts afresh)."""
        self._core.clear()

    def tree_sizes(self) -> list[tuple[int, int]]:
        """``(nodes, root visits)`` of each game's tree after the last search."""
        return self._core.tree_sizes()


def _float32(x: Any, shape: tuple[int, ...], name: str) -> np.ndarray:
    """The network's output as a C-contiguous ``float32`` array of ``shape`` (``[B, 1]``
    values are read as ``[B]``)."""
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu()
    a = np.asarray(x, dtype=np.float32)
    if a.shape != shape and a.size == int(np.prod(shape)) and a.ndim == len(shape) + 1:
        a = a.reshape(shape)
    if a.shape != shape:
        raise ValueError(f"the network's {name} have shape {a.shape}, not {shape}")
    return np.ascontiguousarray(a)


_UNIFORM: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def uniform_network(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The trivial network: the same logit for every action (uniform priors) and value 0;
    for tests and for measuring the search alone."""
    b, actions = mask.shape
    key = (b, actions)
    if key not in _UNIFORM:
        _UNIFORM[key] = (np.zeros((b, actions), np.float32), np.zeros(b, np.float32))
    return _UNIFORM[key]
