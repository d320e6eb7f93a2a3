"""chuhe.sb3.ChuheVecEnv: the Stable-Baselines3 VecEnv conventions, and sb3-contrib's
MaskablePPO training on it with the masks honoured.

Skipped where stable-baselines3, sb3-contrib or torch does not import, except under
CHUHE_REQUIRE_SB3=1, where that is a failure: scripts/test runs this file so in a venv of its
own, on Debian's CPU build of PyTorch (PyPI's Linux torch brings a few GB of CUDA libraries)."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("CHUHE_REQUIRE_SB3") == "1":
    import sb3_contrib
    import stable_baselines3  # noqa: F401
    import torch  # noqa: F401
else:
    pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    sb3_contrib = pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from chuhe import Game  # noqa: E402
from chuhe.envs import ChuheEnv  # noqa: E402
from chuhe.sb3 import ChuheVecEnv  # noqa: E402


def test_vec_env_conventions():
    env = ChuheVecEnv("xiangqi", num_envs=4, threads=1, max_plies=6)
    assert isinstance(env, VecEnv)
    assert env.observation_space.shape == (16, 10, 9)
    assert env.action_space.n == 8100
    env.seed(3)
    obs = env.reset()
    assert obs.shape == (4, 16, 10, 9)
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (4, 8100) and masks.dtype == bool
    # Seeded as single envs are: game i plays as ChuheEnv reset with seed 3 + i.
    single = ChuheEnv("xiangqi", max_plies=6)
    o, info = single.reset(seed=5)
    assert np.array_equal(obs[2], o)
    assert np.array_equal(masks[2], info["action_mask"].astype(bool))
    assert np.array_equal(env.reset_infos[2]["action_mask"], info["action_mask"])
    ended = 0
    for ply in range(6):
        actions = env.sample_legal_actions()
        assert all(masks[i, a] for i, a in enumerate(actions))
        single_action = int(actions[2])
        obs, rewards, dones, infos = env.step(actions)
        o, r, t, u, info = single.step(single_action)
        assert len(infos) == 4 and rewards.shape == (4,) and dones.dtype == bool
        assert rewards[2] == r and dones[2] == (t or u)
        if dones[2]:
            # The game restarted in the same step; its last observation is kept.
            assert np.array_equal(infos[2]["terminal_observation"], o)
            assert infos[2]["TimeLimit.truncated"] == (u and not t)
        else:
            assert np.array_equal(obs[2], o)
        ended += int(dones.sum())
        masks = get_action_masks(env)
    # max_plies=6 in self-play: every game is cut at the sixth ply unless it ended before.
    assert ended == 4
    assert all(i["TimeLimit.truncated"] for i in infos)
    with pytest.raises(AttributeError, match="no_such_attribute"):
        env.get_attr("no_such_attribute")
    assert env.env_is_wrapped(VecMonitor) == [False] * 4
    fen = "4k4/9/9/9/9/9/9/9/4A4/R2K5 w"
    env.set_options({"position": fen})
    env.reset()
    legal = len(Game("xiangqi", position=fen).legal_moves)
    assert get_action_masks(env).sum(axis=1).tolist() == [legal] * 4


def test_an_illegal_action_is_reported():
    env = ChuheVecEnv("xiangqi", num_envs=2, threads=1)
    env.reset()
    masks = env.action_masks()
    illegal = int(np.flatnonzero(~masks[0])[0])
    obs, rewards, dones, infos = env.step(np.array([illegal, env.sample_legal_actions()[1]]))
    assert dones.tolist() == [True, False]
    assert rewards[0] == -1.0
    assert infos[0]["illegal_action"] is True and "illegal_action" not in infos[1]


class _IllegalActionCounter(BaseCallback):
    """Counts the steps, and the actions the env reported as illegal."""

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0
        self.illegal = 0
        self.episodes = 0

    def _on_step(self) -> bool:
        self.steps += 1
        for info in self.locals["infos"]:
            self.illegal += int(info.get("illegal_action", False))
            self.episodes += int("episode" in info)
        return True


def test_maskable_ppo_trains_on_it():
    """A tiny MaskablePPO run (CPU, 512 steps over 4 games against the random opponent):
    it trains, and no action it plays is illegal (an illegal one would end the game with
    info["illegal_action"])."""
    import torch

    torch.set_num_threads(1)
    env = VecMonitor(ChuheVecEnv("xiangqi", num_envs=4, threads=1, opponent="random",
                                 max_plies=20))
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=64,
        n_epochs=2,
        policy_kwargs={"net_arch": [32]},
        seed=0,
        device="cpu",
    )
    counter = _IllegalActionCounter()
    model.learn(total_timesteps=512, callback=counter)
    assert model.num_timesteps == 512
    assert counter.steps == 128
    assert counter.illegal == 0
    assert counter.episodes > 0  # the games ended (max_plies) and VecMonitor saw them
    # predict with the masks picks legal actions; without them an untrained policy over
    # 8,100 actions would almost surely not.
    obs = env.reset()
    masks = get_action_masks(env)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
    assert all(masks[i, a] for i, a in enumerate(actions))
