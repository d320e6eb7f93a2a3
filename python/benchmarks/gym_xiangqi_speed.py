"""Steps per second of random legal play in gym-xiangqi 0.5.0's environment, chuhe's
(``chuhe.gym_xiangqi.XiangQiEnv``) or gym-xiangqi's own, with the load average:

    python3 python/benchmarks/gym_xiangqi_speed.py chuhe
    .bench/venv-gym-xiangqi-0.5.0/bin/python python/benchmarks/gym_xiangqi_speed.py gym-xiangqi

Each action is drawn among the side to move's legal ones (``ally_actions`` or
``enemy_actions``), as gym-xiangqi's RandomAgent draws it; a game ends at its end or after
300 steps (random play can leave two bare generals shuffling for ever).
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "chuhe"
    if which == "chuhe":
        from chuhe.gym_xiangqi import XiangQiEnv
    elif which == "gym-xiangqi":
        from gym_xiangqi.envs import XiangQiEnv
    else:
        sys.exit(f"unknown environment {which!r}: chuhe or gym-xiangqi")
    env = XiangQiEnv()
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < 5.0:
        env.reset()
        for _ in range(300):
            actions = env.ally_actions if env.turn == 1 else env.enemy_actions
            _, _, done, _ = env.step(int(rng.choice(np.flatnonzero(actions == 1))))
            steps += 1
            if done:
                break
    rate = steps / (time.perf_counter() - start)
    print(f"{which}: {rate:,.0f} steps/s; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
