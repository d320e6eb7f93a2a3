"""chuhe.gym_xiangqi.XiangQiEnv against gym-xiangqi 0.5.0 itself: the same actions through
both, and every step's board, reward, end, side to move, both sides' action lists (after the
end too), piece objects and moves by piece equal.

gym-xiangqi runs in its own virtual environment (it needs gym 0.26 and pygame), which
scripts/test makes: GYM_XIANGQI_PYTHON, or .bench/venv-gym-xiangqi-0.5.0/bin/python.
gym_xiangqi_games.py plays the games there and writes them as JSON lines.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from chuhe.gym_xiangqi import XiangQiEnv
from gym_xiangqi_views import action_lists, by_piece, legal, pieces

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


def replay(record: dict, env: XiangQiEnv) -> int:
    """Plays a game of gym-xiangqi's through chuhe's env, asserting every step equal;
    returns the number of steps. The games of one run share an env, as they did in
    gym-xiangqi (its ``reset`` leaves the other side's action list of the last game)."""
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
        assert action_lists(env) == (step["ally"], step["enemy"]), where
        assert pieces(env) == step["pieces"], where
        assert by_piece(env) == step["by_piece"], where
    return len(record["steps"])


@pytest.mark.parametrize("ally_color, games, seed", [(0, 20, 7), (1, 10, 8)])
def test_random_games_equal_gym_xiangqi(gym_xiangqi_python, ally_color, games, seed):
    records = run(gym_xiangqi_python, str(games), str(seed), "300", str(ally_color))
    assert len(records) == games
    rewards = set()
    env = XiangQiEnv(ally_color=ally_color)
    for record in records:
        replay(record, env)
        rewards |= {s["reward"] for s in record["steps"]}
    # The games cover captures and illegal actions, and some end by a general's capture,
    # after which gym-xiangqi still lists both sides' moves.
    assert {-10.0, 2.0, 9.0, 100.0} <= rewards and len(rewards) >= 6
    ends = [r["steps"][-1] for r in records if r["steps"][-1]["reward"] == 100.0]
    assert ends and all(end["ally"] and end["enemy"] for end in ends)


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
    assert replay(record, XiangQiEnv(ally_color=0)) == 19
    assert (record["steps"][-1]["reward"], record["steps"][-1]["done"]) == (-100.0, True)
    env = XiangQiEnv()
    env.reset()
    for action in script[:19]:
        env.step(action)
    with pytest.raises(AssertionError):  # as gym-xiangqi's own step after that end
        env.step(script[19])


DEMO_RUNNER = """
import pathlib, random, sys, time
sys.path.extend(TEST_PATH)  # chuhe and Gymnasium as the tests import them, after the venv's own
import gym_xiangqi
demo = pathlib.Path(gym_xiangqi.__file__).parent / "examples" / "agent_v_agent_demo.py"
source = demo.read_text()
line = "env = gym.make('gym_xiangqi:xiangqi-v0')"
assert source.count(line) == 1, "the demo's gym.make line is not as expected"
source = source.replace(line, "env = __import__('chuhe.gym_xiangqi').gym_xiangqi.XiangQiEnv()")
time.sleep = lambda seconds: None  # the demo waits a second a round, for a person to watch
random.seed(SEED)
namespace = {"__name__": "demo"}
exec(compile(source, str(demo), "exec"), namespace)
namespace["main"]()
print("DEMO ENDED")
"""


@pytest.mark.parametrize("seed", [4, 5])
def test_gym_xiangqi_demo_runs_on_chuhe(gym_xiangqi_python, seed):
    """gym-xiangqi 0.5.0's own examples/agent_v_agent_demo.py (two of its RandomAgents), with
    only its gym.make line changed to chuhe's XiangQiEnv(), plays a game to its end (its
    one-second pause per round skipped)."""
    runner = (
        DEMO_RUNNER.replace("TEST_PATH", repr([p for p in sys.path if p]))
        .replace("SEED", str(seed))
    )
    out = subprocess.run(
        [gym_xiangqi_python, "-c", runner],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[-1] == "DEMO ENDED"
    rewards = [line for line in lines if line.startswith("Reward: ")]
    assert rewards[-1] in ("Reward: 100.0", "Reward: -100.0"), lines[-12:]
    assert sum(line.startswith("Round: ") for line in lines) == len(rewards) > 1
