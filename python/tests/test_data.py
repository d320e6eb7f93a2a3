"""chuhe.data: the loader of the labelled Xiangqi positions in the source tree
(data/xiangqi-fsf8-700k.txt.xz) and of files of its format."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import chuhe
from chuhe.data import ScoredPositions

DATA = pathlib.Path(__file__).resolve().parents[2] / "data" / "xiangqi-fsf8-700k.txt.xz"


def test_reads_the_data_set_of_the_tree():
    data = ScoredPositions.read(DATA, limit=3000)
    assert len(data) == 3000
    assert set(np.unique(data.results)) <= {0.0, 0.5, 1.0}
    assert np.isfinite(data.scores).mean() > 0.9
    turns = [chuhe.Game("xiangqi", p).turn == "first" for p in data.positions]
    assert data.first_to_move.tolist() == turns
    values = data.values()
    first = 2 * data.results - 1
    assert np.array_equal(values[data.first_to_move], first[data.first_to_move])
    assert np.array_equal(values[~data.first_to_move], -first[~data.first_to_move])
    seen = 0
    for obs, mask, value in data.batches(1024, seed=0):
        assert obs.shape[1:] == (16, 10, 9) and mask.shape[1] == 8100
        assert (mask.sum(axis=1) > 0).all() and value.dtype == np.float32
        seen += len(obs)
    assert seen == 3000
    first_batch = next(data.batches(4))
    expected = chuhe.observe(data.positions[:4], game="xiangqi")
    assert np.array_equal(first_batch[0], expected[0])


def test_format_errors_name_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    good = "0\t1\trheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\t20\n"
    path.write_text(good + "0\t2\tstart\n")
    with pytest.raises(ValueError, match="line 2: result '2'"):
        ScoredPositions.read(path)
    path.write_text(good + "just text\n")
    with pytest.raises(ValueError, match="line 2: 1 fields"):
        ScoredPositions.read(path)
    path.write_text(good)
    data = ScoredPositions.read(path)
    assert data.scores.tolist() == [20.0] and data.values().tolist() == [1.0]


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi-capture"])
def test_engine_games_of_the_tree(game):
    from chuhe.data import EngineGames

    path = DATA.parent / f"{game}-engine-games.jsonl.xz"
    games = EngineGames.read(path)  # every move replayed, every policy checked
    assert games.game == game and len(games.records) == 2000 and len(games) > 100_000
    winners = {r["winner"] for r in games.records}
    assert {"first", "second"} <= winners
    seen = 0
    for obs, mask, policy, value in games.batches(512, history=2, seed=1):
        assert ((policy > 0) <= (mask == 1)).all()  # targets on legal actions only
        assert np.allclose(policy.sum(axis=1), 1, atol=1e-3)
        assert set(np.unique(value)) <= {-1.0, 0.0, 1.0}
        seen += len(obs)
        if seen >= 2048:
            break
    # The first position of the first game, replayed by hand.
    record = games.records[0]
    obs, mask, policy, value = next(games.batches(1, history=2))
    start = chuhe.Game(game, record["start"])
    expected = chuhe.observe([start], history=2)
    assert np.array_equal(obs, expected[0]) and np.array_equal(mask, expected[1])
    top = max(record["policies"][0], key=lambda ap: ap[1])[0]
    assert policy[0].argmax() == top


def test_engine_games_errors(tmp_path):
    from chuhe.data import EngineGames

    path = tmp_path / "g.jsonl"
    record = {"game": "xiongqi", "start": chuhe.Game("xiongqi").feen, "moves": ["a1a2"],
              "policies": [[[0, 1.0]]], "winner": None}
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="game 1: ply 1: the policy names an action"):
        EngineGames.read(path)
    record["policies"] = [[[chuhe.Game("xiongqi").encode_move("a1a2"), 0.5]]]
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="sums to 0.5"):
        EngineGames.read(path)
