"""State for search: games, moves and every env pickle, deep-copy and clone exactly."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

import chuhe
from chuhe import Game
from chuhe.envs import ChuheEnv
from chuhe.gym_xiangqi import GymXiangqiEnv
from chuhe.pettingzoo import xiangqi_v0
from chuhe.vector import ChuheVectorEnv


def roundtrips(obj):
    return [pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj), copy.copy(obj)]


def test_game_keeps_history_counters_and_result():
    g = Game("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 1")
    for m in ("h3e3", "h10g8", "h1g3", "b10c8"):
        g.push(m)
    for h in roundtrips(g):
        assert [m.uci for m in h.move_stack] == [m.uci for m in g.move_stack]
        assert h.feen == g.feen and h.halfmove == g.halfmove == 11
        h.pop()
        h.pop()
        h.pop()
        h.pop()
        assert h.halfmove == 7  # the start's clock came through
    # The move number of a FEN comes through too.
    g = Game("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 2 2")
    for h in roundtrips(g):
        assert h.fen.endswith(" w - - 2 2"), h.fen
    g.resign("first")
    for h in roundtrips(g):
        assert (h.status, h.winner) == ("resignation", "second") and h.is_over()
    g = Game("xiongqi")
    g.push("e3e4")
    g.agree_draw()
    h = pickle.loads(pickle.dumps(g))
    assert (h.status, h.winner, len(h.move_stack)) == ("agreement", None, 1)


def test_game_result_by_the_rules_survives():
    # Two rooks: the rook on a9 holds the ninth rank, the other mates on the tenth.
    g = Game("xiangqi", "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1")
    g.push("a1a10")
    assert g.status == "checkmate"
    h = pickle.loads(pickle.dumps(g))
    assert (h.status, h.winner) == ("checkmate", "first")


def test_moves_pickle_with_their_position():
    g = Game("xiongqi")
    for m in g.legal_moves[:5]:
        for x in roundtrips(m):
            assert x == m and x.text() == m.text() and x.position == m.position
    m = Game("xiangqi").parse_move("C2=5")
    assert pickle.loads(pickle.dumps(m)).text("wxf") == "C2=5"


def play(env, steps, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        a = int(rng.choice(env.legal_actions()))
        obs, r, term, trunc, info = env.step(a)
        out.append((obs, r, term, trunc))
        if term or trunc:
            break
    return out


def same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert np.array_equal(x[0], y[0]) and x[1:] == y[1:]


@pytest.mark.parametrize("opponent", [None, "random"])
@pytest.mark.parametrize("game", ["xiongqi", "xiangqi", "xiangqi-capture"])
def test_env_copies_continue_alike(game, opponent):
    env = ChuheEnv(game, opponent=opponent, max_plies=60)
    env.reset(seed=4)
    play(env, 5, seed=1)
    copies = [env.clone(), *roundtrips(env)]
    state = env.get_state()
    restored = ChuheEnv(game, opponent=opponent, max_plies=60)
    restored.reset(seed=99)
    obs, info = restored.set_state(pickle.loads(pickle.dumps(state)))
    assert np.array_equal(info["action_mask"], env.action_masks())
    reference = play(env, 30, seed=2)
    for c in [*copies, restored]:
        assert [m.uci for m in c.game.move_stack][:5] == [m.uci for m in env.game.move_stack][:5]
        same(play(c, 30, seed=2), reference)
    # get_state / set_state rewinds the env itself.
    env.set_state(state)
    same(play(env, 30, seed=2), reference)


def test_state_of_another_game_is_refused():
    state = ChuheEnv("xiongqi").get_state()
    with pytest.raises(ValueError, match="xiongqi"):
        ChuheEnv("xiangqi").set_state(state)


def test_engine_opponent_env_copies():
    env = ChuheEnv("xiangqi", opponent="engine", engine_nodes=30)
    env.reset(seed=0)
    env.step(env.sample_legal_action())
    for c in [env.clone(), *roundtrips(env)]:
        assert c.game.feen == env.game.feen and len(c.game.move_stack) == 2
        c.step(c.sample_legal_action())
        assert len(c.game.move_stack) == 4 and len(env.game.move_stack) == 2


def test_vector_env_copies_continue_alike():
    venv = ChuheVectorEnv("xiangqi", num_envs=4, opponent="random", max_plies=30, threads=2)
    venv.reset(seed=1)
    rng = np.random.default_rng(0)

    def run(v, seed):
        r = np.random.default_rng(seed)
        out = []
        for _ in range(40):
            acts = np.array([r.choice(np.flatnonzero(m)) for m in v.action_masks()])
            obs, rew, term, trunc, _ = v.step(acts)
            out.append((obs.copy(), rew.copy(), term.copy(), trunc.copy()))
        return out

    run(venv, 5)
    copies = [venv.clone(), *roundtrips(venv)[:2]]
    ref = run(venv, 6)
    for c in copies:
        for x, y in zip(run(c, 6), ref):
            assert all(np.array_equal(p, q) for p, q in zip(x, y))
    del rng


def test_gym_xiangqi_and_pettingzoo_copies():
    env = gym.make("chuhe/GymXiangqi-v0", opponent="random").unwrapped
    _, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for c in [env.clone(), *roundtrips(env)]:
        assert np.array_equal(c.state, env.state) and c.game.feen == env.game.feen
    state = env.get_state()
    board = env.state.copy()
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.set_state(pickle.loads(pickle.dumps(state)))
    assert np.array_equal(env.state, board)
    assert isinstance(GymXiangqiEnv().clone(), GymXiangqiEnv)

    aec = xiangqi_v0.raw_env()
    aec.reset(seed=0)
    aec.step(int(np.flatnonzero(aec.observe("player_0")["action_mask"])[0]))
    for c in roundtrips(aec)[:2]:
        assert c.agent_selection == "player_1"
        assert np.array_equal(c.observe("player_1")["action_mask"],
                              aec.observe("player_1")["action_mask"])


def test_wrapped_and_parallel_envs_pickle():
    env = gym.make("chuhe/Xiangqi-v0", opponent="random")
    env.reset(seed=1)
    env.step(env.unwrapped.sample_legal_action())
    for c in roundtrips(env)[:2]:
        assert c.unwrapped.game.feen == env.unwrapped.game.feen
        c.step(c.unwrapped.sample_legal_action())
    aec = xiangqi_v0.env()
    aec.reset(seed=0)
    assert pickle.loads(pickle.dumps(aec)).unwrapped.agent_selection == "player_0"
    par = xiangqi_v0.parallel_env()
    obs, _ = par.reset(seed=0)
    legal = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    par.step({"player_0": legal, "player_1": 0})
    for c in roundtrips(par)[:2]:
        o = c._aec.observe("player_1")
        assert np.array_equal(o["action_mask"], par._aec.observe("player_1")["action_mask"])
        assert c.agents == par.agents


def test_xiangqi_state_is_refused_by_xiangqi_capture():
    """The two games share a position type in Rust; their states still do not mix."""
    state = ChuheEnv("xiangqi-capture").get_state()
    with pytest.raises(ValueError, match="xiangqi-capture"):
        ChuheEnv("xiangqi").set_state(state)
    with pytest.raises(ValueError, match="xiangqi-capture"):
        ChuheEnv("xiangqi").set_state(pickle.loads(pickle.dumps(state)))
    venv = ChuheVectorEnv("xiangqi-capture", num_envs=2)
    with pytest.raises(ValueError, match="xiangqi"):
        venv.set_state(ChuheVectorEnv("xiangqi", num_envs=2).get_state())
