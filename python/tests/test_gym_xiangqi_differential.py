"""chuhe.gym_xiangqi.XiangQiEnv against gym-xiangqi 0.5.0 itself: the same actions through
both, and every step's board, reward, end, side to move and legal actions equal.

gym-xiangqi runs in its own virtual environment (it needs gym 0.26 and pygame), which
scripts/test makes: GYM_XIANGQI_PYTHON, or .bench/venv-gym-xiangqi-0.5.0/bin/python.
gym_xiangqi_games.py plays the games there and writes them as JSON lines.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sysconfig

import numpy as np
import pytest

from chuhe.gym_xiangqi import XiangQiEnv

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
VENV_PYTHON = REPO / ".bench" / "venv-gym-xiangqi-0.5.0" / "bin" / "python"


@pytest.fixture(scope="module")
def gym_xiangqi_python() -> str:
    python = os.environ.get("GYM_XIANGQI_PYTHON", str(VENV_PYTHON))
    if not pathlib.Path(python).exists():
        pytest.fail(
            f"gym-xiangqi's Python is missing: {python} (scripts/test makes it: "
            "python3 -m venv .bench/venv-gym-xiangqi-0.5.0 && .bench/venv-gym-xiangqi-0.5.0/"
            "bin/pip install gym-xiangqi==0.5.0 gym==0.26.2 pygame==2.6.1)",
            pytrace=False,
        )
    return python


def run(python: str, *args: str, stdin: str | None = None) -> list[dict]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run(
        [python, str(HERE / "gym_xiangqi_games.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def legal(env: XiangQiEnv) -> list[int]:
    actions = env.ally_actions if env.turn == 1 else env.enemy_actions
    return [int(a) for a in np.flatnonzero(actions == 1)]


def replay(record: dict, ally_color: int) -> int:
    """Plays a game of gym-xiangqi's through chuhe's env, asserting every step equal;
    returns the number of steps."""
    env = XiangQiEnv(ally_color=ally_color)
    obs = env.reset()
    assert obs.tolist() == record["reset"]
    assert env.turn == record["turn"]
    assert legal(env) == record["legal"]
    for i, step in enumerate(record["steps"]):
        obs, reward, done, info = env.step(step["action"])
        where = f"step {i} (action {step['action']})"
        assert obs.tolist() == step["obs"], where
        assert (reward, done, env.turn) == (step["reward"], step["done"], step["turn"]), where
        assert info == {}
        if step["legal"] is not None:
            assert legal(env) == step["legal"], where
    return len(record["steps"])


@pytest.mark.parametrize("ally_color, games, seed", [(0, 8, 1), (1, 4, 2)])
def test_random_games_equal_gym_xiangqi(gym_xiangqi_python, ally_color, games, seed):
    records = run(gym_xiangqi_python, str(games), str(seed), "200", str(ally_color))
    assert len(records) == games
    rewards = set()
    for record in records:
        replay(record, ally_color)
        rewards |= {s["reward"] for s in record["steps"]}
    # The games cover captures and illegal actions, and some end by a general's capture.
    assert -10.0 in rewards and 9.0 in rewards and len(rewards) >= 5


def _action(piece, start, end):
    return (piece - 1) * 8100 + (start[0] * 9 + start[1]) * 90 + end[0] * 9 + end[1]


def test_perpetual_check_equals_gym_xiangqi(gym_xiangqi_python):
    """A cannon checks from two squares in turn while the enemy's horse shuffles: the
    fourth new check ends the game with -100, in both."""
    script = [
        _action(10, (7, 1), (7, 4)),
        _action(14, (3, 4), (4, 4)),
        _action(9, (9, 8), (8, 8)),
        _action(14, (4, 4), (5, 4)),
        _action(9, (8, 8), (9, 8)),
        _action(14, (5, 4), (5, 3)),
    ]
    for _ in range(4):
        script += [
            _action(10, (7, 4), (8, 4)),
            _action(7, (0, 1), (2, 2)),
            _action(10, (8, 4), (7, 4)),
            _action(7, (2, 2), (0, 1)),
        ]
    [record] = run(gym_xiangqi_python, "script", "0", stdin=json.dumps(script))
    assert replay(record, 0) == 19
    assert (record["steps"][-1]["reward"], record["steps"][-1]["done"]) == (-100.0, True)
    env = XiangQiEnv()
    env.reset()
    for action in script[:19]:
        env.step(action)
    with pytest.raises(AssertionError):  # as gym-xiangqi's own step after that end
        env.step(script[19])


def test_gym_xiangqi_random_agent_plays_on_chuhe(gym_xiangqi_python):
    """gym-xiangqi's own RandomAgent and utils drive chuhe's XiangQiEnv to the end of a
    game, as its agent_v_agent demo does (the environment made by XiangQiEnv())."""
    script = f"""
import random, sys
sys.path.append({sysconfig.get_paths()["purelib"]!r})  # chuhe and Gymnasium, after the venv's
sys.path.append({sysconfig.get_paths()["platlib"]!r})
from gym_xiangqi.agents.random_agent import RandomAgent
from gym_xiangqi.constants import ALLY, PIECE_ID_TO_NAME
from gym_xiangqi.utils import action_space_to_move
from chuhe.gym_xiangqi import XiangQiEnv
random.seed(4)
env = XiangQiEnv()
env.render()
agent = RandomAgent()
done, rounds, total = False, 0, 0.0
while not done and rounds < 2000:
    action = agent.move(env)
    _, reward, done, _ = env.step(action)
    turn = "Agent" if env.turn == ALLY else "Enemy"
    piece, start, end = action_space_to_move(action)
    assert PIECE_ID_TO_NAME[piece]
    total += reward
    rounds += 1
env.render()
env.close()
print("END", rounds, done, total)
"""
    out = subprocess.run(
        [gym_xiangqi_python, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )
    assert out.returncode == 0, out.stderr[-2000:]
    last = out.stdout.splitlines()[-1].split()
    assert last[0] == "END" and last[2] == "True", out.stdout[-500:]
