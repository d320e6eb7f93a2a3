"""Arguments are checked and errors name them; reset options; engine levels and the softmax
opponent; the lazy submodules; PettingZoo's parallel API."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

import chuhe
from chuhe.envs import ChuheEnv
from chuhe.gym_xiangqi import GymXiangqiEnv
from chuhe.pettingzoo import xiangqi_capture_v0, xiangqi_v0, xiongqi_v0
from chuhe.vector import ChuheVectorEnv

# A live position (the reset tests below refuse finished ones).
FEN = "3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 0 1"


@pytest.mark.parametrize("make", [lambda: ChuheEnv("xiangqi"), GymXiangqiEnv])
def test_actions_outside_the_space_raise(make):
    env = make()
    env.reset(seed=0)
    n = env.action_space.n
    for bad in (-1, n, 10**12, 10**30):
        with pytest.raises(ValueError, match=rf"action {bad} .*Discrete\({n}\)"):
            env.step(bad)
    for bad in (3.0, np.float64(3), "3", None, np.array([3])):
        with pytest.raises(TypeError, match=rf"Discrete\({n}\)"):
            env.step(bad)
    # Nothing was played: a legal action still works, NumPy integers included.
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, _, term, _, info = env.step(np.int64(legal))
    assert not term and "illegal_action" not in info


def test_decode_action():
    env = ChuheEnv("xiangqi")
    env.reset(seed=0)
    assert env.decode_action(0) is None  # a1 to a1 is no move
    assert str(env.decode_action(env.encode_move("h3e3"))) == "h3-e3"
    with pytest.raises(ValueError, match="Discrete"):
        env.decode_action(8100)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"max_plies": -1}, "max_plies"),
        ({"max_plies": 0}, "max_plies"),
        ({"max_plies": 2.5}, "max_plies"),
        ({"engine_nodes": 0}, "engine_nodes"),
        ({"engine_depth": -3}, "engine_depth"),
        ({"engine_level": 21}, "engine_level"),
        ({"engine_temperature": 0.0}, "engine_temperature"),
        ({"engine_temperature": float("nan")}, "engine_temperature"),
        ({"engine_lines": 0}, "engine_lines"),
        ({"agent_side": "north"}, "agent_side"),
        ({"opponent": "grandmaster"}, "opponent"),
        ({"game": "chess"}, "game"),
        ({"position": 5}, "position"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_constructor_arguments_are_named(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        ChuheEnv(**{"game": "xiangqi", **kwargs})
    if name != "render_mode":
        with pytest.raises((ValueError, TypeError), match=name):
            ChuheVectorEnv(**{"game": "xiangqi", "num_envs": 2, **kwargs})
    with pytest.raises(ValueError, match="num_envs"):
        ChuheVectorEnv("xiangqi", num_envs=0)
    with pytest.raises(ValueError, match="threads"):
        ChuheVectorEnv("xiangqi", num_envs=2, threads=0)


def test_other_constructors_name_their_arguments():
    with pytest.raises(ValueError, match="max_plies"):
        xiangqi_v0.raw_env(max_plies=-1)
    with pytest.raises(ValueError, match="engine_nodes"):
        GymXiangqiEnv(engine_nodes=-5)
    with pytest.raises(ValueError, match="agent_color"):
        GymXiangqiEnv(agent_color="green")
    with pytest.raises(ValueError, match="level"):
        chuhe.Engine(level=99)


@pytest.mark.parametrize("make", [lambda: ChuheEnv("xiangqi"), GymXiangqiEnv])
def test_reset_from_a_position(make):
    env = make()
    _, info = env.reset(seed=0, options={"position": FEN})
    assert int(info["action_mask"].sum()) == len(chuhe.Game("xiangqi", FEN).legal_moves)
    assert env.game.fen == FEN
    _, info = env.reset(seed=0)  # the next reset starts from the usual start again
    assert int(info["action_mask"].sum()) == 44
    with pytest.raises(ValueError, match="positon"):
        env.reset(options={"positon": FEN})
    with pytest.raises(chuhe.InvalidPositionError):
        env.reset(options={"position": "9/9 w"})


def test_chuhe_envs_without_importing_it():
    code = "import chuhe; print(chuhe.envs.ChuheEnv.__name__, chuhe.vector.ChuheVectorEnv.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["ChuheEnv", "ChuheVectorEnv"]
    with pytest.raises(AttributeError):
        chuhe.no_such_thing  # noqa: B018


def test_engine_levels_and_limits_pass_through():
    for level in (0, 10, 20):
        env = ChuheEnv("xiangqi", opponent="engine", engine_nodes=1, engine_level=level)
        env.reset(seed=0)
        env.step(env.encode_move("h3e3"))
        assert len(env.game.move_stack) == 2


def test_softmax_opponent():
    def replies(temperature, seeds):
        env = ChuheEnv("xiangqi", opponent="engine", engine_depth=2,
                       engine_temperature=temperature, engine_lines=12)
        out = []
        for s in seeds:
            env.reset(seed=s)
            env.step(env.encode_move("h3e3"))
            out.append(env.game.move_stack[1].uci)
        return out

    hot = replies(1000.0, range(12))
    assert len(set(hot)) >= 4  # nearly uniform over twelve lines
    assert replies(1000.0, range(12)) == hot  # the seed fixes the draw
    cold = replies(0.001, range(6))
    # All but the best lines weigh nothing: every cold reply scores the top score (lines
    # that tie for it share the draw).
    game = chuhe.Game("xiangqi")
    game.push(game.parse_move("h3e3"))
    lines = chuhe.Engine().lines(game, 12, depth=2)
    top = max(line.score for line in lines)
    best = {line.move.uci for line in lines if line.score == top}
    assert len(best) < len(lines) // 2
    assert set(cold) <= best


@pytest.mark.parametrize("module", [xiongqi_v0, xiangqi_v0, xiangqi_capture_v0])
def test_pettingzoo_parallel_api(module):
    par = module.parallel_env(max_plies=60)
    assert par.metadata["is_parallelizable"]
    parallel_api_test(par, num_cycles=200)
    # Back to AEC through PettingZoo's own wrapper: its API test passes too.
    api_test(parallel_to_aec(module.parallel_env(max_plies=60)), num_cycles=100)
    # The turn-based AEC env is not parallelizable: aec_to_parallel refuses it.
    assert not module.raw_env().metadata["is_parallelizable"]
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(module.raw_env())


def test_parallel_env_plays_the_mover():
    par = xiangqi_v0.parallel_env()
    obs, _ = par.reset(seed=0)
    assert obs["player_1"]["action_mask"].sum() == 0
    legal = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    obs, rewards, terms, truncs, _ = par.step({"player_0": legal, "player_1": 0})
    assert obs["player_0"]["action_mask"].sum() == 0 and obs["player_1"]["action_mask"].sum() > 0
    assert rewards == {"player_0": 0.0, "player_1": 0.0} and not any(terms.values())
    with pytest.raises(ValueError, match="player_1"):
        par.step({"player_0": legal})


def test_engine_lines():
    g = chuhe.Game("xiangqi")
    lines = chuhe.Engine(hash_mb=1).lines(g, 6, depth=3)
    assert len(lines) == 6 and len({x.move for x in lines}) == 6
    assert all(x.move in g.legal_moves and x.mate is None for x in lines)
    scores = [x.score for x in lines]
    assert scores == sorted(scores, reverse=True)
    with pytest.raises(ValueError, match="multipv"):
        chuhe.Engine().lines(g, 0, depth=1)


def test_gym_xiangqi_softmax_opponent():
    # 1,000 nodes: the engine's node limit is strict, and 300 nodes no longer finish one
    # ply of all ten lines (Engine.lines then gives only the lines it finished).
    # A fresh environment each time: the engine's tables carry over between episodes, so
    # one environment's searches after the first need not find the same best line.
    def replies(temperature):
        out = []
        for s in range(10):
            env = GymXiangqiEnv(opponent="engine", engine_nodes=1000,
                                engine_temperature=temperature, engine_lines=10)
            _, info = env.reset(seed=s)
            env.step(env.encode_move("h3e3"))
            out.append(env.game.move_stack[1].uci)
        return out

    hot = replies(1000.0)
    assert len(set(hot)) >= 4 and replies(1000.0) == hot
    assert len(set(replies(0.001))) == 1
    with pytest.raises(ValueError, match="engine_temperature"):
        GymXiangqiEnv(engine_temperature=-1.0)
