"""Measures random legal play with masks (see scripts/bench-python)."""

from __future__ import annotations

import argparse
import time

import numpy as np

from chuhe.envs import ChuheEnv
from chuhe.vector import ChuheVectorEnv

GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")


def single(game: str, seconds: float, python_choice: bool) -> float:
    """Steps/s of one unwrapped env; the action is drawn in Rust (sample_legal_action) or in
    NumPy from info["action_mask"]."""
    env = ChuheEnv(game)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            if python_choice:
                a = rng.choice(np.flatnonzero(info["action_mask"]))
            else:
                a = env.sample_legal_action()
            _, _, term, trunc, info = env.step(a)
            if term or trunc:
                _, info = env.reset()
        steps += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def vector(game: str, seconds: float, n: int, threads: int | None) -> float:
    """Steps/s (all environments together) of the vector env, actions drawn in Rust."""
    venv = ChuheVectorEnv(game, num_envs=n, threads=threads)
    venv.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(10):
            venv.step(venv.sample_legal_actions())
        steps += 10 * n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--envs", type=int, default=512)
    p.add_argument("--threads", type=int, default=None)
    args = p.parse_args()
    print(f"{'game':16} {'env (Rust pick)':>16} {'env (NumPy pick)':>17} {'vector env':>14}")
    for game in GAMES:
        a = single(game, args.seconds, python_choice=False)
        b = single(game, args.seconds, python_choice=True)
        c = vector(game, args.seconds, args.envs, args.threads)
        print(f"{game:16} {a:16,.0f} {b:17,.0f} {c:14,.0f}")


if __name__ == "__main__":
    main()
