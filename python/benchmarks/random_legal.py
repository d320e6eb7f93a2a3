"""A random-legal rollout loop over the vector env, the action picked three ways:
`python3 python/benchmarks/random_legal.py [--envs N] [--threads T] [--seconds S]`.

- ``sample_legal_actions()``: one legal action per game, drawn in Rust;
- NumPy, vectorized: ``argmax(random * mask)`` over the ``[N, actions]`` mask (uniform
  among the legal actions), the fastest pick in NumPy alone;
- NumPy, per game: ``rng.choice(flatnonzero(mask[i]))`` for each game, as a policy loop
  written one game at a time does.

Each figure is steps (moves of one game) per second, the best of three runs, printed beside
the load average; with the release build installed (``scripts/bench-python`` installs it).
With ``--maskable-ppo`` (needs torch and sb3-contrib) it then times sb3-contrib's
``MaskablePPO`` on :class:`chuhe.sb3.ChuheVecEnv` (a small MLP, on the CPU): env steps per
second of ``learn`` (its rollouts and its updates) and of its rollouts alone.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import chuhe
from chuhe.vector import ChuheVectorEnv


def rollout(venv: ChuheVectorEnv, pick, seconds: float) -> float:
    best = 0.0
    for _ in range(3):
        _, info = venv.reset(seed=0)
        steps, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            _, _, _, _, info = venv.step(pick(info["action_mask"]))
            steps += venv.num_envs
        best = max(best, steps / elapsed)
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", default="xiangqi")
    p.add_argument("--envs", type=int, default=512)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--maskable-ppo", action="store_true")
    args = p.parse_args()
    venv = ChuheVectorEnv(args.game, num_envs=args.envs, threads=args.threads)
    rng = np.random.default_rng(0)

    def rust(_mask):
        return venv.sample_legal_actions()

    def numpy_vectorized(mask):
        return np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)

    def numpy_per_game(mask):
        return np.array([rng.choice(np.flatnonzero(row)) for row in mask])

    print(
        f"load average {os.getloadavg()[0]:.2f}; {args.game}, {args.envs} envs, "
        f"{args.threads} threads; chuhe {chuhe.__file__}"
    )
    for name, pick in (
        ("sample_legal_actions() (Rust)", rust),
        ("NumPy argmax(random * mask)", numpy_vectorized),
        ("NumPy choice per game", numpy_per_game),
    ):
        print(f"  {name:<32} {rollout(venv, pick, args.seconds):>12,.0f} steps/s", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")
    if args.maskable_ppo:
        maskable_ppo(args)


def maskable_ppo(args) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from chuhe.sb3 import ChuheVecEnv

    torch.set_num_threads(1)
    n_envs, n_steps = 16, 128
    env = ChuheVecEnv(args.game, num_envs=n_envs, threads=args.threads, opponent="random",
                      max_plies=200)
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=512, n_epochs=1,
                        policy_kwargs={"net_arch": [64]}, seed=0, device="cpu")
    steps = 4 * n_envs * n_steps
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    learn = steps / (time.perf_counter() - start)
    model._setup_learn(n_envs * n_steps, callback=None)
    from stable_baselines3.common.callbacks import CallbackList

    callback = CallbackList([])
    callback.init_callback(model)
    start = time.perf_counter()
    model.collect_rollouts(env, callback, model.rollout_buffer, n_rollout_steps=n_steps)
    rollout = n_envs * n_steps / (time.perf_counter() - start)
    print(
        f"MaskablePPO on ChuheVecEnv ({n_envs} envs vs random, MLP [64], torch 1 thread): "
        f"learn {learn:,.0f} env steps/s, rollouts alone {rollout:,.0f} env steps/s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
