"""Data for supervised training.

:class:`EngineGames`: games of chuhe's engine with a policy target at every position (its
MultiPV lines' scores as a distribution), as ``examples/alphazero/engine_games.py`` writes
them; the positions are replayed, so the observations may show the history::

    from chuhe.data import EngineGames

    games = EngineGames.read("data/xiongqi-engine-games.jsonl.xz")
    for obs, mask, policy, value in games.batches(256, history=2, seed=0):
        ...   # policy: float32[B, actions]; value: the result for the side to move

:class:`ScoredPositions`: labelled positions, as the Xiangqi data set in chuhe's source tree,
``data/xiangqi-fsf8-700k.txt.xz`` (702,735 positions of chuhe's self-play games, each with
its game's result and Fairy-Stockfish's score at depth 8), or any file of the same format
(one position per line, tab-separated: the game's number, its result for the first player
— 1, 0.5 or 0 —, the position as FEEN, and optionally a score in centipawns from the first
player's view, a mate as ±100000; plain text or ``.xz``)::

    from chuhe.data import ScoredPositions

    data = ScoredPositions.read("data/xiangqi-fsf8-700k.txt.xz")
    for obs, mask, value in data.batches(256, seed=0):   # value: the result, −1..1, for
        ...                                               # the side to move

The observations and masks are :func:`chuhe.observe`'s (no history: a FEEN holds none).
"""

from __future__ import annotations

import json
import lzma
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ._chuhe import Game, env_spec
from ._observe import observe

__all__ = ["EngineGames", "ScoredPositions"]


@dataclass(frozen=True)
class ScoredPositions:
    """Positions with their games' results and reference scores (see the module's help)."""

    #: chuhe's name of the game (the rules the positions are read with).
    game: str
    #: The positions, as FEEN.
    positions: list[str]
    #: ``int64[N]``: the game each position comes from.
    games: np.ndarray
    #: ``float32[N]``: the game's result for the first player (1, 0.5, 0).
    results: np.ndarray
    #: ``float32[N]``: the reference score in centipawns, first player's view (NaN: none).
    scores: np.ndarray
    #: ``bool[N]``: is the first player to move?
    first_to_move: np.ndarray

    @classmethod
    def read(cls, path: str | os.PathLike, game: str = "xiangqi",
             limit: int | None = None) -> ScoredPositions:
        """Reads a file (``.xz`` or plain text); ``limit`` keeps its first positions. A line
        that is not of the format raises ``ValueError`` naming the line."""
        opener = lzma.open if str(path).endswith(".xz") else open
        positions, games, results, scores, first = [], [], [], [], []
        with opener(path, "rt", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if limit is not None and len(positions) >= limit:
                    break
                line = line.rstrip("\n")
                if not line:
                    continue
                fields = line.split("\t")
                try:
                    if len(fields) not in (3, 4):
                        raise ValueError(f"{len(fields)} fields, not 3 or 4")
                    games.append(int(fields[0]))
                    result = float(fields[1])
                    if result not in (0.0, 0.5, 1.0):
                        raise ValueError(f"result {fields[1]!r} is not 1, 0.5 or 0")
                    results.append(result)
                    scores.append(float(fields[3]) if len(fields) == 4 else np.nan)
                except ValueError as e:
                    raise ValueError(f"{path}, line {number}: {e}") from None
                feen = fields[2]
                positions.append(feen)
                # A FEEN's side to move: its last field names the mover first (X: the
                # first player, x: the second).
                first.append(feen.rsplit(" ", 1)[-1][:1].isupper())
        return cls(game, positions, np.array(games, np.int64), np.array(results, np.float32),
                   np.array(scores, np.float32), np.array(first, bool))

    def __len__(self) -> int:
        return len(self.positions)

    def values(self) -> np.ndarray:
        """``float32[N]``: each game's result for the side to move, in −1..1."""
        first = 2 * self.results - 1
        return np.where(self.first_to_move, first, -first).astype(np.float32)

    def batches(self, size: int, *, seed: int | None = None,
                history: int = 0) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``(observations, masks, values)`` in batches of ``size`` (the last may be
        smaller), in a random order when ``seed`` is given (else in the file's); values
        from :meth:`values`."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size={size!r}: a whole number of at least 1")
        order = np.arange(len(self))
        if seed is not None:
            np.random.default_rng(seed).shuffle(order)
        values = self.values()
        for start in range(0, len(order), size):
            idx = order[start:start + size]
            obs, mask = observe([self.positions[i] for i in idx], game=self.game,
                                history=history)
            yield obs, mask, values[idx]


@dataclass(frozen=True)
class EngineGames:
    """Engine games with a policy target at every position (see the module's help)."""

    #: chuhe's name of the game.
    game: str
    #: One dict per game: ``start`` (FEEN), ``moves`` (coordinate form), ``policies`` (per
    #: move, ``[action, probability]`` pairs), ``winner``.
    records: list[dict]

    @classmethod
    def read(cls, path: str | os.PathLike) -> EngineGames:
        """Reads a file (``.xz`` or plain JSON lines); every game's moves are replayed and
        checked, and every policy's actions must be legal where they stand (``ValueError``
        naming the game and ply otherwise)."""
        opener = lzma.open if str(path).endswith(".xz") else open
        records = []
        with opener(path, "rt", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                record = json.loads(line)
                _check(record, f"{path}, game {number}")
                records.append(record)
        games = {r["game"] for r in records}
        if len(games) != 1:
            raise ValueError(f"{path}: games of {sorted(games)}: a file holds one game")
        return cls(games.pop(), records)

    def __len__(self) -> int:
        """The positions (moves) in all the games."""
        return sum(len(r["moves"]) for r in self.records)

    def batches(self, size: int, *, history: int = 0, seed: int | None = None
                ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """``(observations, masks, policies, values)`` in batches of ``size`` over every
        position, in a random order when ``seed`` is given; ``policies`` dense
        ``float32[B, actions]``, ``values`` the game's result for the side to move."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size={size!r}: a whole number of at least 1")
        actions = env_spec(self.game)[4]
        index = [(g, ply) for g, r in enumerate(self.records) for ply in range(len(r["moves"]))]
        if seed is not None:
            np.random.default_rng(seed).shuffle(index)
        for start in range(0, len(index), size):
            chunk = index[start:start + size]
            games: list[Game | None] = [None] * len(chunk)
            policies = np.zeros((len(chunk), actions), np.float32)
            values = np.zeros(len(chunk), np.float32)
            # Each game of the batch is replayed once, copied at the plies wanted.
            wanted: dict[int, list[tuple[int, int]]] = {}
            for row, (g, ply) in enumerate(chunk):
                wanted.setdefault(g, []).append((ply, row))
            for g, plies in wanted.items():
                record = self.records[g]
                game = Game(self.game, record["start"])
                played = 0
                for ply, row in sorted(plies):
                    for move in record["moves"][played:ply]:
                        game.push(move, "uci")
                    played = ply
                    games[row] = game.copy()
                    for action, probability in record["policies"][ply]:
                        policies[row, action] = probability
                    winner = record["winner"]
                    values[row] = 0.0 if winner is None else (1.0 if winner == game.turn else -1.0)
            obs, mask = observe(games, history=history)
            yield obs, mask, policies, values


def _check(record: dict, where: str) -> None:
    """Replays a record: its moves legal, each policy over legal actions summing to 1."""
    try:
        game = Game(record["game"], record["start"])
        moves, policies = record["moves"], record["policies"]
        if len(moves) != len(policies):
            raise ValueError(f"{len(moves)} moves but {len(policies)} policies")
        if record["winner"] not in ("first", "second", None):
            raise ValueError(f"winner {record['winner']!r}")
        for ply, (move, policy) in enumerate(zip(moves, policies), 1):
            legal = set(game.legal_actions())
            if not policy or any(a not in legal for a, _ in policy):
                raise ValueError(f"ply {ply}: the policy names an action that is not legal")
            if abs(sum(p for _, p in policy) - 1) > 1e-3:
                raise ValueError(f"ply {ply}: the policy sums to {sum(p for _, p in policy)}")
            game.push(move, "uci")
    except (KeyError, TypeError) as e:
        raise ValueError(f"{where}: not a record of engine_games.py ({e!r})") from None
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
