"""The Ray RLlib example, examples/rllib/train.py: the model's action masking, and one small
PPO iteration on each set-up. Skipped unless ray[rllib] and torch import (CI installs
neither; examples/rllib/requirements.txt has the versions it was run with)."""

from __future__ import annotations

import importlib.util
import math
import pathlib
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ray.rllib")

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def train():
    spec = importlib.util.spec_from_file_location(
        "chuhe_rllib_train", REPO / "examples" / "rllib" / "train.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # Ray sends the module to its workers by value
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi"])
def test_module_samples_legal_actions_only(train, game):
    env = train.make_gym_env(
        {"game": game, "opponent": "random", "engine_nodes": None, "max_plies": 60}
    )
    module = train.BoardModule(
        observation_space=env.observation_space,
        action_space=env.action_space,
        model_config={"channels": 8, "blocks": 1, "head_dim": 8},
    )
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        batch = {"obs": {k: torch.from_numpy(np.asarray(v))[None] for k, v in obs.items()}}
        logits = module.forward_exploration(batch)["action_dist_inputs"]
        assert logits.shape == (1, env.action_space.n)
        legal = np.flatnonzero(obs["action_mask"])
        dist = torch.distributions.Categorical(logits=logits)
        drawn = dist.sample((64,)).flatten().numpy()
        assert set(drawn) <= set(legal)
        # the probability is shared among the legal actions only
        assert math.isclose(float(dist.probs[0, legal].sum()), 1.0, rel_tol=1e-5)
        values = module.compute_values(batch)
        assert values.shape == (1,)
        obs, _, terminated, truncated, info = env.step(int(drawn[0]))
        assert not info.get("illegal_action")
        if terminated or truncated:
            obs, _ = env.reset()


@pytest.mark.parametrize(("env", "runners"), [("pettingzoo", "1"), ("gym", "0")])
def test_one_small_iteration_trains(train, env, runners):
    history = train.main(
        [
            "--env", env, "--game", "xiangqi-capture", "--iterations", "1",
            "--num-env-runners", runners, "--envs-per-runner", "2", "--batch-size", "200",
            "--minibatch-size", "100", "--epochs", "1", "--channels", "8", "--blocks", "1",
            "--head-dim", "8", "--max-plies", "60", "--torch-threads", "1",
            "--eval-games", "2",
        ]
    )
    assert len(history) == 1
    figures = history[0]
    assert figures["env_steps"] >= 200
    assert math.isfinite(figures["policy_loss"])
    assert math.isfinite(figures["vf_loss"])
    # a masked policy's entropy is at most the log of the number of legal moves (< 200)
    assert 0 < figures["entropy"] < math.log(200)
    assert figures["wins"] + figures["draws"] + figures["losses"] == 2
