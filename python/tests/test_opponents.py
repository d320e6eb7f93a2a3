"""Every opponent kind of every environment steps: self-play, random, the engine."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from chuhe.envs import ChuheEnv
from chuhe.gym_xiangqi import GymXiangqiEnv
from chuhe.vector import ChuheVectorEnv

GAMES = ["xiongqi", "xiangqi", "xiangqi-capture"]
OPPONENTS = [None, "random", "engine"]


def plies_per_step(opponent):
    """Moves added to the game by one agent step: the agent's, then the reply."""
    return 1 if opponent is None else 2


@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.parametrize("game", GAMES)
def test_chuhe_env_opponents(game, opponent):
    env = ChuheEnv(game, opponent=opponent, engine_nodes=40)
    env.reset(seed=2)
    for step in range(1, 4):
        _, _, term, trunc, info = env.step(env.sample_legal_action())
        assert "illegal_action" not in info and not trunc
        if term:  # the agent's random move may lose at once (xiangqi-capture)
            assert env.game.is_over()
            break
        assert len(env.game.move_stack) == step * plies_per_step(opponent)


@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.parametrize("color", ["red", "black"])
def test_gym_xiangqi_opponents(opponent, color):
    """The engine opponent of chuhe/GymXiangqi-v0 used to raise AttributeError on step."""
    env = gym.make("chuhe/GymXiangqi-v0", opponent=opponent, agent_color=color, engine_nodes=40)
    _, info = env.reset(seed=1)
    moved_first = 1 if (color == "black" and opponent is not None) else 0
    assert len(env.unwrapped.game.move_stack) == moved_first
    for step in range(1, 4):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, term, _, info = env.step(action)
        assert "illegal_action" not in info and not term
        assert len(env.unwrapped.game.move_stack) == moved_first + step * plies_per_step(opponent)


def test_gym_xiangqi_engine_opponent_direct():
    env = GymXiangqiEnv(opponent="engine", engine_nodes=40)
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert len(env.game.move_stack) == 2


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_vector_env_opponents(opponent):
    """Each environment of the vector env answers as a single env seeded alike does."""
    n = 3
    venv = ChuheVectorEnv("xiangqi", num_envs=n, opponent=opponent, engine_nodes=40, threads=2)
    envs = [ChuheEnv("xiangqi", opponent=opponent, engine_nodes=40) for _ in range(n)]
    obs, _ = venv.reset(seed=10)
    for i, env in enumerate(envs):
        assert np.array_equal(env.reset(seed=10 + i)[0], obs[i])
    rng = np.random.default_rng(0)  # not the envs' own source: the singles must not lag
    for _ in range(3):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, _, term, trunc, _ = venv.step(actions)
        assert not term.any() and not trunc.any()
        for i, env in enumerate(envs):
            assert np.array_equal(env.step(int(actions[i]))[0], obs[i])
    assert all(len(e.game.move_stack) == 3 * plies_per_step(opponent) for e in envs)
