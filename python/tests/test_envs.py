"""The environments, checked with Gymnasium's and PettingZoo's own checkers, and by hand."""

from __future__ import annotations

import pathlib

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import chuhe
from chuhe.envs import ChuheEnv
from chuhe.pettingzoo import xiangqi_capture_v0, xiangqi_v0, xiongqi_v0
from chuhe.vector import ChuheVectorEnv

#: Lantern, the invented game of examples/rules/lantern, by the name the envs take.
LANTERN = chuhe.load_rules(pathlib.Path(__file__).resolve().parents[2] / "examples/rules/lantern")
IDS = ["chuhe/Xiongqi-v0", "chuhe/Xiangqi-v0", "chuhe/XiangqiCapture-v0"]
SHAPES = {"xiongqi": ((22, 8, 8), 28672), "xiangqi": ((16, 10, 9), 8100)}


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    check_env(gym.make(env_id, opponent="random").unwrapped)


@pytest.mark.parametrize("module", [xiongqi_v0, xiangqi_v0, xiangqi_capture_v0])
def test_pettingzoo_api_test(module):
    api_test(module.env(), num_cycles=200)


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi", "xiangqi-capture"])
def test_spaces_masks_and_encoding(game):
    env = ChuheEnv(game)
    shape, n = SHAPES[game.split("-")[0]]
    assert env.observation_space.shape == shape and env.action_space.n == n
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]
    assert obs.dtype == np.float32 and mask.dtype == np.int8
    legal = env.game.legal_moves
    assert int(mask.sum()) == len(legal) == len(env.legal_actions())
    for m in legal:
        a = env.encode_move(m)
        assert mask[a] == 1 and env.decode_action(a) == m
    assert np.array_equal(np.flatnonzero(env.action_masks()), env.legal_actions())
    # The side to move's pieces are in the first planes, its back rank in row 0.
    assert obs[: shape[0] // 2 - 1, 0].sum() > 0 and obs[: shape[0] // 2 - 1, -1].sum() == 0


def test_second_player_view_is_flipped():
    env = ChuheEnv("xiangqi")
    obs0, _ = env.reset(seed=0)
    a = env.encode_move("h3e3")
    obs1, *_ = env.step(a)
    # After a symmetric reply the second player's view of the start would equal the first's;
    # here: its own general (plane 0) is on row 0, file e.
    assert obs1[0, 0, 4] == 1.0 and obs0[0, 0, 4] == 1.0
    assert env.encode_move("h8e8") == a  # the mirrored move has the same action


def test_random_games_end_with_rewards_and_illegal_actions_lose():
    env = ChuheEnv("xiangqi-capture", opponent="random")
    rewards = set()
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            a = env.sample_legal_action()
            obs, r, term, trunc, info = env.step(a)
            done = term or trunc
        rewards.add(r)
    assert rewards <= {-1.0, 0.0, 1.0}
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, r, term, _, info = env.step(illegal)
    assert (r, term, info.get("illegal_action")) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_engine_opponent_and_agent_side():
    env = ChuheEnv("xiongqi", opponent="engine", engine_nodes=300, agent_side="second")
    _, info = env.reset(seed=3)
    assert env.agent_side == "second" and len(env.game.move_stack) == 1
    obs, r, term, trunc, info = env.step(env.sample_legal_action())
    assert len(env.game.move_stack) == 3
    with pytest.raises(ValueError, match="opponent"):
        ChuheEnv("xiongqi", opponent="grandmaster")


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi"])
def test_seeded_episodes_against_the_engine_repeat(game):
    # The engine learns during an episode; reset makes it forget, so a seed fixes the episode.
    env = ChuheEnv(game, opponent="engine", engine_nodes=400)

    def episode(seed):
        env.reset(seed=seed)
        for _ in range(12):
            _, _, term, trunc, _ = env.step(env.sample_legal_action())
            if term or trunc:
                break
        return [m.uci for m in env.game.move_stack]

    first = episode(5)
    episode(6)
    assert episode(5) == first
    with pytest.raises(chuhe.InvalidPositionError):
        ChuheEnv("xiangqi", position="nonsense/")


def test_render_modes():
    env = ChuheEnv("xiangqi", render_mode="ansi")
    env.reset(seed=0)
    assert "R" in env.render()
    env = ChuheEnv("xiongqi", render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.shape == (8 * 32, 8 * 32, 3) and img.dtype == np.uint8


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi"])
def test_vector_env_autoresets(game):
    venv = ChuheVectorEnv(game, num_envs=8, threads=2, max_plies=40)
    obs, info = venv.reset(seed=5)
    assert obs.shape == (8, *venv.single_observation_space.shape)
    assert info["action_mask"].shape == (8, venv.single_action_space.n)
    finished = 0
    for _ in range(100):
        actions = venv.sample_legal_actions()
        assert all(info["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, rewards, term, trunc, info = venv.step(actions)
        finished += int(term.sum() + trunc.sum())
    assert finished >= 8
    assert venv.action_masks().dtype == bool


def test_sampled_actions_do_not_depend_on_the_threads():
    """sample_legal_actions draws on the pool's threads, each environment from its own
    generator: the same seed gives the same actions with one thread or three."""
    venvs = [ChuheVectorEnv("xiangqi", num_envs=37, threads=t, max_plies=50) for t in (1, 3)]
    for v in venvs:
        v.reset(seed=11)
    for _ in range(120):
        a, b = (v.sample_legal_actions() for v in venvs)
        assert np.array_equal(a, b)
        for v in venvs:
            v.step(a)


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("game", ["xiongqi", "xiangqi", "xiangqi-capture", LANTERN])
def test_vector_env_steps_as_single_envs(game, threads):
    """Threads and chunks change nothing: the vector env (more environments than chunks)
    gives, step by step, the observations, masks, rewards and flags of single environments
    given the same actions, its same-step autoreset included."""
    n = 37
    venv = ChuheVectorEnv(game, num_envs=n, threads=threads, max_plies=60)
    envs = [ChuheEnv(game, max_plies=60) for _ in range(n)]
    obs, info = venv.reset(seed=1)
    singles = [e.reset(seed=i) for i, e in enumerate(envs)]
    for i, (o, inf) in enumerate(singles):
        assert np.array_equal(obs[i], o)
        assert np.array_equal(info["action_mask"][i], inf["action_mask"])
    finished = 0
    for _ in range(150):
        actions = venv.sample_legal_actions().copy()
        obs, rewards, term, trunc, info = venv.step(actions)
        for i, e in enumerate(envs):
            o, r, t, u, inf = e.step(int(actions[i]))
            assert (rewards[i], term[i], trunc[i]) == (r, t, u)
            if t or u:
                finished += 1
                o, inf = e.reset()
            assert np.array_equal(obs[i], o)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
    assert finished >= n
