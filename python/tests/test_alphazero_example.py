"""The AlphaZero example, examples/alphazero/train.py: the network's policy in the actions'
order with illegal actions masked, and a tiny run of the whole loop (engine games written
by engine_games.py to pre-train on, self-play with chuhe.mcts, training, evaluation against
the random player and the engine).

Skipped where torch does not import, except under CHUHE_REQUIRE_SB3=1 (scripts/test's venv
with Debian's CPU PyTorch), where that is a failure."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

if os.environ.get("CHUHE_REQUIRE_SB3") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import chuhe  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "examples" / "alphazero" / "train.py"


def load():
    spec = importlib.util.spec_from_file_location("chuhe_alphazero_train", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi-capture"])
def test_policy_head_follows_the_action_order(game):
    train = load()
    torch.manual_seed(0)
    model = train.Network(game, channels=8, blocks=1).eval()
    games = [chuhe.Game(game), chuhe.Game(game)]
    games[1].play_action(games[1].legal_actions()[3])
    obs, mask = chuhe.observe(games)
    logits, value = train.as_search_network(model, "cpu")(obs, mask)
    assert logits.shape == mask.shape and value.shape == (2,)
    assert (np.abs(value) <= 1).all()
    assert (logits[mask == 0] <= -1e8).all() and (logits[mask == 1] > -1e8).all()
    # The policy conv's channel t * choices + c at start square f is action (f * S + t) * C + c.
    files, ranks, _planes, choices, _actions = chuhe._chuhe.env_spec(game)
    with torch.no_grad():
        raw = model.policy(model.tower(model.stem(torch.from_numpy(obs))))
    a = games[0].legal_actions()[0]
    square, choice = divmod(a, choices)
    start, target = divmod(square, files * ranks)
    assert np.isclose(raw[0, target * choices + choice].flatten()[start].item(), logits[0, a])


def test_a_tiny_training_run(tmp_path):
    # Two engine games to pre-train on, as engine_games.py writes them.
    games = tmp_path / "games.jsonl"
    made = subprocess.run(
        [sys.executable, str(SCRIPT.parent / "engine_games.py"), str(games), "--game",
         "xiongqi", "--games", "2", "--nodes", "16", "--max-plies", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    log = tmp_path / "log.jsonl"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "xiongqi", "--minutes", "0.05",
         "--games", "4", "--simulations", "4", "--max-plies", "24", "--channels", "8",
         "--blocks", "1", "--batch", "16", "--moves-per-round", "6",
         "--updates-per-round", "2", "--eval-games", "2", "--engine-nodes", "8",
         "--threads", "1", "--log", str(log), "--pretrain", str(games)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "pretrained on" in run.stdout
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(lines) >= 2 and lines[0]["minutes"] == 0
    last = lines[-1]
    assert last["games"] > 0 and last["updates"] > 0
    assert math.isfinite(last["policy_loss"]) and math.isfinite(last["value_loss"])
    for line in lines:
        assert 0 <= line["random"] <= 1 and 0 <= line["engine_8"] <= 1


def test_self_play_in_ray_actors(tmp_path):
    """Ray's own actors run the self-play workers (Ray imports here only where installed;
    CHUHE_REQUIRE_RAY=1, as scripts/test sets in the venv with torch, makes its absence a
    failure)."""
    if os.environ.get("CHUHE_REQUIRE_RAY") != "1":
        pytest.importorskip("ray")
    log = tmp_path / "log.jsonl"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "xiangqi-capture", "--minutes", "0.05",
         "--games", "3", "--simulations", "4", "--max-plies", "20", "--channels", "8",
         "--blocks", "1", "--batch", "16", "--moves-per-round", "10",
         "--updates-per-round", "2", "--eval-games", "2", "--engine-nodes", "8",
         "--threads", "1", "--actors", "2", "--actor-cpus", "1", "--log", str(log)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    # Both actors' games: 2 x 3 games of at most 20 plies end within the run.
    assert lines[-1]["games"] >= 6 and lines[-1]["updates"] > 0
