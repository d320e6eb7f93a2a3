"""Python and the CLI agree: move lists, statuses, winners and FEENs on seeded random games."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

import chuhe


def cli_replay(chuhe_bin, game: str, moves: list[str]) -> list[dict]:
    out = subprocess.run(
        [str(chuhe_bin), "replay", "--game", game, "--moves", " ".join(moves), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi", "xiangqi-capture"])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_agree_with_cli(chuhe_bin, game, seed):
    rng = random.Random(seed)
    g = chuhe.Game(game)
    states = []
    while not g.is_over() and len(g.move_stack) < 150:
        states.append((g.feen, [str(m) for m in g.legal_moves], g.status, g.winner))
        g.push(rng.choice(g.legal_moves))
    states.append((g.feen, [str(m) for m in g.legal_moves], g.status, g.winner))
    plies = cli_replay(chuhe_bin, game, [m.uci for m in g.move_stack])
    assert len(plies) == len(states)
    for ply, (feen, legal, status, winner) in zip(plies, states):
        assert ply["position"] == feen
        assert ply["legal"] == legal
        assert ply["status"] == status
        assert (None if ply["winner"] in (None, "none") else ply["winner"]) == winner
