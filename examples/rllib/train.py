"""PPO with action masking on a chuhe game, with Ray RLlib (new API stack), on one machine
or on a Ray cluster.

Two set-ups (``--env``):

* ``pettingzoo`` (default): self-play on :mod:`chuhe.pettingzoo` through RLlib's
  ``PettingZooEnv`` wrapper, both players mapped to one shared policy. Observations are
  already ``{"observation", "action_mask"}``. The two players' returns always add up to
  0, so the episode return is no measure of progress here: the script prints the first
  player's mean return and the episode length, and with ``--eval-games N`` the policy
  plays N games against the random opponent after each iteration.
* ``gym``: the Gymnasium env (``chuhe.envs.ChuheEnv``) against chuhe's random or engine
  opponent (``--opponent``), the agent's side drawn at random each game; a thin wrapper
  moves ``info["action_mask"]`` into the observation. The mean return (+1 win, -1 loss,
  0 draw or truncated at ``--max-plies``) climbs from about 0 as the policy learns.

RLlib vectorizes the env itself (``--envs-per-runner`` copies per env runner, stepped one
after the other). chuhe's Rust vector env is not used: it resets finished games in the
same step (Gymnasium's ``SAME_STEP`` autoreset), and RLlib's env runners expect the reset
observation one step later.

The model (``BoardModule``): a few 3x3 convolutions over the board planes, then a policy
head that scores a move as the dot product of a "from" vector of its start square and a
"to" vector of its target square (one per promotion choice), so that its size does not
grow with the number of actions; and a value head over the convolution features. Illegal
actions get the lowest logit, so they are never sampled and carry no probability in the
loss.

One machine (Ray starts and stops with the script)::

    python examples/rllib/train.py --env gym --game xiangqi-capture   # learns to beat random
    python examples/rllib/train.py --game xiangqi --eval-games 20     # self-play

A cluster: the same Python environment, chuhe included, on every machine, and Ray 2.60's
token (``~/.ray/auth_token``, made on the head by ``ray get-auth-token --generate``, copied
to the others) with ``RAY_AUTH_MODE=token`` in the environment of every command::

    ray start --head --port=6379                 # on the head machine
    ray start --address=HEAD_IP:6379             # on each other machine
    python examples/rllib/train.py --address auto --num-env-runners 32 ...   # on the head

Each env runner takes one CPU wherever the cluster has one free.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import math
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.metrics.metrics_logger import DEFAULT_STATS_CLS_LOOKUP
from ray.rllib.utils.metrics.stats.ema import EmaStats
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env
from torch import nn

GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")
SHARED = "shared_policy"  # the one policy both players use in self-play


# ---- environments --------------------------------------------------------------------------


class MaskInObservation(gym.Wrapper):
    """``ChuheEnv`` with the legal-action mask moved into the observation:
    ``{"observation": float32[planes, ranks, files], "action_mask": int8[actions]}``, the
    same keys as chuhe's PettingZoo envs."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = spaces.Dict(
            {
                "observation": env.observation_space,
                "action_mask": spaces.Box(0, 1, (env.action_space.n,), np.int8),
            }
        )

    @staticmethod
    def _split(obs: np.ndarray, info: dict) -> tuple[dict, dict]:
        # the mask leaves the info dict: RLlib keeps infos in its episodes
        info = dict(info)
        mask = info.pop("action_mask")
        return {"observation": obs, "action_mask": mask}, info

    def reset(self, **kwargs: Any):
        return self._split(*self.env.reset(**kwargs))

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        obs, info = self._split(obs, info)
        return obs, reward, terminated, truncated, info


def make_gym_env(config: dict) -> gym.Env:
    from chuhe.envs import ChuheEnv  # imported in each env runner's process

    env = ChuheEnv(
        config["game"],
        opponent=config["opponent"],
        engine_nodes=config.get("engine_nodes"),
        agent_side="random",
        max_plies=config["max_plies"],
    )
    return MaskInObservation(env)


def make_pettingzoo_env(config: dict) -> PettingZooEnv:
    module = importlib.import_module(f"chuhe.pettingzoo.{config['game'].replace('-', '_')}_v0")
    return PettingZooEnv(module.env(max_plies=config["max_plies"]))


# ---- the model -----------------------------------------------------------------------------


class BoardModule(TorchRLModule, ValueFunctionAPI):
    """Convolutions over the board, a from-square x to-square policy head with the action
    mask applied, and a value head. ``model_config``: ``channels``, ``blocks`` (number of
    convolutions), ``head_dim`` (size of the from/to vectors)."""

    def setup(self) -> None:
        obs_space = self.observation_space["observation"]
        planes, ranks, files = obs_space.shape
        self.squares = ranks * files
        actions = self.action_space.n
        self.choices = actions // (self.squares * self.squares)
        assert self.squares * self.squares * self.choices == actions, "unexpected encoding"
        channels = self.model_config.get("channels", 32)
        blocks = self.model_config.get("blocks", 2)
        self.head_dim = self.model_config.get("head_dim", 32)

        layers: list[nn.Module] = []
        width = planes
        for _ in range(blocks):
            layers += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        self.trunk = nn.Sequential(*layers)
        self.from_vectors = nn.Conv2d(channels, self.head_dim, 1)
        self.to_vectors = nn.Conv2d(channels, self.head_dim * self.choices, 1)
        self.value_head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(channels * self.squares, 128),
            nn.ReLU(),
            nn.Linear(128, 1),
        )

    def _logits(self, features: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b = features.shape[0]
        frm = self.from_vectors(features).reshape(b, self.head_dim, self.squares)
        to = self.to_vectors(features).reshape(b, self.choices, self.head_dim, self.squares)
        # logits[b, from, to, choice]; flattened, the index is (from * S + to) * C + choice,
        # chuhe's action encoding.
        logits = torch.einsum("bds,bcdt->bstc", frm, to) / math.sqrt(self.head_dim)
        logits = logits.reshape(b, -1)
        return logits.masked_fill(mask == 0, FLOAT_MIN)

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        obs = batch[Columns.OBS]
        features = self.trunk(obs["observation"])
        return {Columns.ACTION_DIST_INPUTS: self._logits(features, obs["action_mask"])}

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        obs = batch[Columns.OBS]
        features = self.trunk(obs["observation"])
        return {
            Columns.ACTION_DIST_INPUTS: self._logits(features, obs["action_mask"]),
            Columns.EMBEDDINGS: features,
        }

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings = self.trunk(batch[Columns.OBS]["observation"])
        return self.value_head(embeddings).squeeze(-1)


# ---- the run -------------------------------------------------------------------------------


class LatestValueStats(EmaStats):
    """RLlib's timers are moving averages (weight 0.01 for each new value), so the sampling
    time of iteration 5 would be mostly that of iteration 1; this keeps the latest value,
    so that each iteration's line reports its own timings."""

    def __init__(self, ema_coeff: float = 1.0, *args: Any, **kwargs: Any) -> None:
        super().__init__(1.0, *args, **kwargs)


def build_config(args: argparse.Namespace) -> PPOConfig:
    env_config = {
        "game": args.game,
        "opponent": args.opponent,
        "engine_nodes": args.engine_nodes,
        "max_plies": args.max_plies,
    }
    model_config = {"channels": args.channels, "blocks": args.blocks, "head_dim": args.head_dim}
    module = RLModuleSpec(module_class=BoardModule, model_config=model_config)
    config = (
        PPOConfig()
        .environment(f"chuhe-{args.env}", env_config=env_config)
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.envs_per_runner,
        )
        .learners(num_learners=args.num_learners)
        .training(
            train_batch_size_per_learner=args.batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.epochs,
            lr=args.lr,
            entropy_coeff=args.entropy_coeff,
            gamma=0.99,
            lambda_=0.95,
        )
        .reporting(custom_stats_cls_lookup={**DEFAULT_STATS_CLS_LOOKUP, "ema": LatestValueStats})
        .debugging(seed=args.seed)
    )
    if args.env == "pettingzoo":
        config = config.multi_agent(
            policies={SHARED},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: SHARED,
        ).rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED: module}))
    else:
        config = config.rl_module(rl_module_spec=module)
    return config


def report(i: int, n: int, result: dict, env: str) -> dict[str, float]:
    runners = result.get("env_runners", {})
    steps = runners.get("num_env_steps_sampled", 0)
    seconds = result.get("time_this_iter_s", float("nan"))
    sample_s = result.get("timers", {}).get("env_runner_sampling_timer", float("nan"))
    learner = result.get("learners", {}).get(SHARED if env == "pettingzoo" else DEFAULT_MODULE_ID)
    learner = learner or {}
    if env == "pettingzoo":
        ret = runners.get("agent_episode_returns_mean", {}).get("player_0", float("nan"))
        ret_label = "first player's return"
    else:
        ret = runners.get("episode_return_mean", float("nan"))
        ret_label = "return"
    figures = {
        "return": ret,
        "length": runners.get("episode_len_mean", float("nan")),
        "episodes": runners.get("num_episodes", 0),
        "env_steps": steps,
        "seconds": seconds,
        "steps_per_s": steps / seconds if seconds else float("nan"),
        "sampled_steps_per_s": steps / sample_s if sample_s else float("nan"),
        "policy_loss": learner.get("policy_loss", float("nan")),
        "vf_loss": learner.get("vf_loss", float("nan")),
        "entropy": learner.get("entropy", float("nan")),
    }
    print(
        f"iter {i}/{n}: {ret_label} mean {figures['return']:+.3f}, "
        f"length mean {figures['length']:.1f}, {figures['episodes']} episodes, "
        f"{steps} env steps in {seconds:.1f} s "
        f"({figures['steps_per_s']:,.0f} steps/s; sampling alone "
        f"{figures['sampled_steps_per_s']:,.0f} steps/s); "
        f"policy loss {figures['policy_loss']:+.4f}, value loss {figures['vf_loss']:.4f}, "
        f"entropy {figures['entropy']:.3f}",
        flush=True,
    )
    return figures


def evaluate(algo, args: argparse.Namespace, games: int) -> tuple[int, int, int]:
    """Wins, draws and losses of the policy, its most likely legal move each turn, in
    ``games`` games against the random opponent (the side drawn at random each game)."""
    module = algo.get_module(SHARED if args.env == "pettingzoo" else DEFAULT_MODULE_ID)
    env = make_gym_env(
        {"game": args.game, "opponent": "random", "engine_nodes": None,
         "max_plies": args.max_plies}
    )
    score = [0, 0, 0]
    obs, _ = env.reset(seed=args.seed + 1_000_003 * algo.iteration)
    with torch.no_grad():
        while sum(score) < games:
            batch = {Columns.OBS: {k: torch.from_numpy(v)[None] for k, v in obs.items()}}
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            obs, reward, terminated, truncated, _ = env.step(int(logits.argmax(-1)))
            if terminated or truncated:
                score[0 if reward > 0 else 2 if reward < 0 else 1] += 1
                obs, _ = env.reset()
    env.close()
    return score[0], score[1], score[2]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="PPO with action masking on a chuhe game, with Ray RLlib.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--game", choices=GAMES, default="xiangqi")
    p.add_argument(
        "--env", choices=("pettingzoo", "gym"), default="pettingzoo",
        help="pettingzoo: self-play, one shared policy; gym: against --opponent",
    )
    p.add_argument("--opponent", choices=("random", "engine"), default="random",
                   help="the opponent with --env gym")
    p.add_argument("--engine-nodes", type=int, default=1000,
                   help="the engine opponent's nodes per move")
    p.add_argument("--max-plies", type=int, default=200,
                   help="a game is truncated (reward 0) after this many plies")
    p.add_argument("--iterations", type=int, default=40)
    p.add_argument("--eval-games", type=int, default=0,
                   help="after each iteration, play this many games against the random "
                   "opponent (the progress measure of self-play)")
    p.add_argument("--num-env-runners", type=int, default=2,
                   help="sampling workers (Ray actors; 0 samples in this process)")
    p.add_argument("--envs-per-runner", type=int, default=8)
    p.add_argument("--num-learners", type=int, default=0,
                   help="learner actors (0: learn in this process)")
    p.add_argument("--batch-size", type=int, default=1000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=250)
    p.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--entropy-coeff", type=float, default=0.01)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=2)
    p.add_argument("--head-dim", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--torch-threads", type=int, default=0,
                   help="torch threads in this process (0: torch's default); env runner "
                   "actors get Ray's default of one each")
    p.add_argument("--address", default=None,
                   help="a Ray cluster to join ('auto': the one `ray start` runs on this "
                   "machine, or HOST:PORT); none: a Ray of its own for this run")
    p.add_argument("--checkpoint-dir", type=Path, default=None,
                   help="save a checkpoint here after the last iteration")
    p.add_argument("--checkpoint-every", type=int, default=0,
                   help="also save every N iterations (with --checkpoint-dir)")
    p.add_argument("--restore", type=Path, default=None,
                   help="continue from a checkpoint directory this script saved (with the same "
                   "--game, --env and model options)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    args = parse_args(argv)
    if __name__ != "__main__":
        # imported (by a test, say): Ray ships this module's env makers and model to its
        # worker processes by value, as it does for a script run directly
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    register_env("chuhe-gym", make_gym_env)
    register_env("chuhe-pettingzoo", make_pettingzoo_env)
    start = time.perf_counter()
    # without --address a Ray of its own, even where `ray start` left a cluster running
    ray.init(address=args.address or "local", logging_level=logging.WARNING)
    ray_s = time.perf_counter() - start
    algo = build_config(args).build_algo()
    if args.restore is not None:
        algo.restore_from_path(args.restore.resolve())
        print(f"restored from {args.restore}")
    print(
        f"PPO on {args.game} ({args.env}"
        + (f" against {args.opponent}" if args.env == "gym" else ", self-play")
        + f"), {args.num_env_runners} env runners x {args.envs_per_runner} envs, "
        f"{args.batch_size} env steps per iteration; Ray up in {ray_s:.1f} s, PPO built in "
        f"{time.perf_counter() - start - ray_s:.1f} s",
        flush=True,
    )
    history = []
    for i in range(1, args.iterations + 1):
        history.append(report(i, args.iterations, algo.train(), args.env))
        if args.eval_games:
            wins, draws, losses = evaluate(algo, args, args.eval_games)
            history[-1].update(wins=wins, draws=draws, losses=losses)
            print(f"  against random, the most likely move each turn: {wins} won, {draws} "
                  f"drawn, {losses} lost", flush=True)
        if args.checkpoint_dir and args.checkpoint_every and i % args.checkpoint_every == 0:
            algo.save_to_path(args.checkpoint_dir.resolve())
    if args.checkpoint_dir:
        path = algo.save_to_path(args.checkpoint_dir.resolve())
        print(f"checkpoint: {path}")
    total_steps = sum(h["env_steps"] for h in history)
    print(f"done: {len(history)} iterations, {total_steps} env steps, "
          f"{time.perf_counter() - start:.1f} s wall time from Ray's start", flush=True)
    algo.stop()
    ray.shutdown()
    return history


if __name__ == "__main__":
    main()
