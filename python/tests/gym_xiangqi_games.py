"""Random games through gym-xiangqi 0.5.0 itself, written as JSON lines for
test_gym_xiangqi_differential.py. Runs in gym-xiangqi's own virtual environment:

    python gym_xiangqi_games.py GAMES SEED MAX_STEPS ALLY_COLOR [checks]
    python gym_xiangqi_games.py script ALLY_COLOR < actions.json

Each game is a line: the board after reset, the legal actions of the side to move, and for
each step the action, then the board, reward, done, turn and the action lists of both sides
(``ally_actions`` and ``enemy_actions``, also once the game is over), the piece objects'
rows, columns and states, and ``get_possible_actions_by_piece`` of two pieces. About one action in
eight is a random action of the whole space (almost always illegal, to test the penalty);
the others are drawn from the legal ones. With ``checks``, the side that moves first picks,
when it can, a move after which it gives check (without taking the general), so that
perpetual checks (-100) happen.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from gym_xiangqi.envs import XiangQiEnv  # noqa: E402
from gym_xiangqi_views import action_lists, by_piece, legal, pieces  # noqa: E402


def step_record(env, action, obs, reward, done) -> dict:
    """One step: the action, then the board, reward, done, turn and both sides' action
    lists as the env holds them (after the end too: gym-xiangqi keeps listing moves once a
    general is taken)."""
    ally, enemy = action_lists(env)
    return {
        "action": action,
        "obs": obs.tolist(),
        "reward": float(reward),
        "done": bool(done),
        "turn": int(env.turn),
        "ally": ally,
        "enemy": enemy,
        "pieces": pieces(env),
        "by_piece": by_piece(env),
    }


def checking_moves(env, moves: list[int], rng: random.Random) -> list[int]:
    """Up to 12 of ``moves`` (the general's capture left out) after which the mover
    attacks the enemy general, found by playing each on a copy of the env."""
    general = env.enemy_piece[1] if env.turn == 1 else env.ally_piece[1]
    target = general.row * 9 + general.col
    found = []
    for action in rng.sample(moves, min(len(moves), 12)):
        if action % 90 == target:
            continue
        trial = copy.deepcopy(env)
        _, _, done, _ = trial.step(action)
        if done:
            continue
        trial._turn = -trial._turn
        if trial.check_jiang():
            found.append(action)
    return found


def record_steps(env, actions) -> dict:
    """The record of one game: the actions given, played from the start."""
    obs = env.reset()
    record = {"reset": obs.tolist(), "turn": int(env.turn), "legal": legal(env), "steps": []}
    for action in actions:
        obs, reward, done, info = env.step(action)
        record["steps"].append(step_record(env, action, obs, reward, done))
        if done:
            break
    return record


def main() -> None:
    if sys.argv[1] == "script":
        env = XiangQiEnv(ally_color=int(sys.argv[2]))
        print(json.dumps(record_steps(env, json.load(sys.stdin))))
        return
    games, seed, max_steps, ally_color = (int(x) for x in sys.argv[1:5])
    seek_checks = sys.argv[5:6] == ["checks"]
    rng = random.Random(seed)
    env = XiangQiEnv(ally_color=ally_color)
    for _ in range(games):
        obs = env.reset()
        record = {"reset": obs.tolist(), "turn": int(env.turn), "legal": legal(env), "steps": []}
        for _ in range(max_steps):
            moves = legal(env)
            if not moves:
                break
            checks = []
            if seek_checks and env.turn == record["turn"]:
                checks = checking_moves(env, moves, rng)
            if checks:
                action = rng.choice(checks)
            elif rng.random() < 0.125:
                action = rng.randrange(env.action_space.n)
            else:
                action = rng.choice(moves)
            obs, reward, done, info = env.step(action)
            record["steps"].append(step_record(env, action, obs, reward, done))
            if done:
                break
        print(json.dumps(record))


if __name__ == "__main__":
    main()
