"""Clones per second of chuhe's environments (for MCTS): `python3 python/benchmarks/clones.py`.

Each figure is the best of three timed runs of a mid-game position (40 plies of random
legal play in), printed beside the load average.
"""

from __future__ import annotations

import os
import pickle
import time

import numpy as np

import chuhe
from chuhe.envs import ChuheEnv


def rate(fn, seconds: float = 0.5) -> float:
    best = 0.0
    for _ in range(3):
        n, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            for _ in range(100):
                fn()
            n += 100
        best = max(best, n / elapsed)
    return best


def mid_game(game: str, **kwargs) -> ChuheEnv:
    env = ChuheEnv(game, **kwargs)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, _, term, trunc, _ = env.step(int(rng.choice(env.legal_actions())))
        if term or trunc:
            env.reset()
    return env


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f}, chuhe {chuhe.__file__}")
    for game in ("xiangqi", "xiongqi"):
        env = mid_game(game)
        state = env.get_state()
        blob = pickle.dumps(state)
        g = env.game
        print(f"{game}: {len(g.move_stack)} plies played")
        print(f"  env.clone()                 {rate(env.clone):>12,.0f} /s")
        print(f"  env.get_state()             {rate(env.get_state):>12,.0f} /s")
        print(f"  env.set_state(state)        {rate(lambda: env.set_state(state)):>12,.0f} /s")
        print(f"  pickle.dumps(state)         {rate(lambda: pickle.dumps(state)):>12,.0f} /s")
        print(f"  pickle.loads(state)         {rate(lambda: pickle.loads(blob)):>12,.0f} /s")
        print(f"  game.copy()                 {rate(g.copy):>12,.0f} /s")
    env = mid_game("xiangqi", opponent="engine", engine_nodes=100)
    print(f"  xiangqi vs engine clone()   {rate(env.clone):>12,.0f} /s")


if __name__ == "__main__":
    main()
