"""Random legal play in a reference Xiangqi environment, run by scripts/bench_python.py in the
reference's own virtual environment: ``python bench_python_refs.py gym-xiangqi|open-spiel
SECONDS``. Prints one JSON line: steps per second, steps, finished games, the version.

- gym-xiangqi: its ``XiangQiEnv`` unwrapped (self-play, the old gym API). Each action is drawn
  uniformly from the legal actions of its mask (``ally_actions`` / ``enemy_actions``, a float
  array of 129,600 entries, 1 for a legal action), as its own ``RandomAgent`` does; the game
  restarts when ``done`` or when the side to move has no action.
- open-spiel: ``pyspiel.load_game("xiangqi")``; each action is drawn uniformly from
  ``state.legal_actions()`` and played with ``apply_action``; a terminal state restarts.
- open-spiel-mcts: OpenSpiel's MCTS on its own ``xiangqi``, simulations per second over whole
  searches (``SIMULATIONS`` each, the move played, a finished game restarted): its Python
  ``MCTSBot`` with the trivial evaluator (every legal action the same prior, value 0: what
  chuhe's search gets from ``uniform_network``), and its C++ ``pyspiel.MCTSBot`` with
  ``RandomRolloutEvaluator(1)`` (pyspiel's ``Evaluator`` cannot be subclassed from Python, so
  the C++ bot takes no trivial evaluator; each of its simulations plays one random game).

Only the standard library and the reference's packages are imported here.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from importlib import metadata


def gym_xiangqi(seconds: float) -> dict:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import numpy as np
    from gym_xiangqi.constants import ALLY
    from gym_xiangqi.envs.xiangqi_env import XiangQiEnv

    env = XiangQiEnv()
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while True:
        for _ in range(100):
            mask = env.ally_actions if env.turn == ALLY else env.enemy_actions
            legal = np.flatnonzero(mask)
            if len(legal) == 0:
                env.reset()
                games += 1
                continue
            _, _, done, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if done:
                env.reset()
                games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "steps_per_s": steps / elapsed,
        "steps": steps,
        "games": games,
        "version": f"gym-xiangqi {metadata.version('gym-xiangqi')}, gym {metadata.version('gym')}, "
        f"numpy {metadata.version('numpy')}",
    }


def open_spiel(seconds: float) -> dict:
    import pyspiel

    if "xiangqi" not in pyspiel.registered_names():
        raise SystemExit(f"open_spiel {metadata.version('open_spiel')} has no game 'xiangqi'")
    game = pyspiel.load_game("xiangqi")
    rng = random.Random(0)
    state = game.new_initial_state()
    steps = games = 0
    start = time.perf_counter()
    while True:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
                games += 1
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "steps_per_s": steps / elapsed,
        "steps": steps,
        "games": games,
        "version": f"open_spiel {metadata.version('open_spiel')}",
    }


def open_spiel_mcts(seconds: float) -> dict:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("xiangqi")

    class Trivial(mcts.Evaluator):
        def evaluate(self, state):
            return np.zeros(2)

        def prior(self, state):
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    def rate(bot, simulations: float, budget: float) -> float:
        state = game.new_initial_state()
        done, start = 0, time.perf_counter()
        while True:
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(bot.step(state))
            done += 1
            elapsed = time.perf_counter() - start
            if elapsed >= budget:
                return done * simulations / elapsed

    python_bot = mcts.MCTSBot(game, 1.25, 200, Trivial(), random_state=np.random.RandomState(0))
    cpp_bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.25, 200, 1000,
                              False, 0, False)
    return {
        "python_trivial": rate(python_bot, 200, seconds),
        "cpp_rollout": rate(cpp_bot, 200, seconds),
        "simulations": 200,
        "version": f"open_spiel {metadata.version('open_spiel')}",
    }


def main() -> None:
    which, seconds = sys.argv[1], float(sys.argv[2])
    run = {"gym-xiangqi": gym_xiangqi, "open-spiel": open_spiel,
           "open-spiel-mcts": open_spiel_mcts}[which]
    print(json.dumps(run(seconds)))


if __name__ == "__main__":
    main()
