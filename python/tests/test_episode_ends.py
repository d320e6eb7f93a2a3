"""Where episodes end (issue 45): a finished position is refused at construction and reset,
never stepped; after an illegal action the env's game ends as the env does; a `Game` seeds
an episode with its start and history; fresh arrays from `sample_legal_actions`; every
submodule reachable as an attribute of `chuhe`."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

import chuhe
from chuhe.envs import ChuheEnv
from chuhe.pettingzoo import xiangqi_v0
from chuhe.vector import ChuheVectorEnv

# Red (to move) is mated: the example.
MATED = "2b1k4/9/9/1P7/2b3p2/9/9/B4R3/4rK3/6p2 w - - 0 130"
# Two generals and an advisor: drawn by the material alone.
DRAWN = "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"
# Xiongqi: the fifth move repeats (move, position) — forbidden by X6.
XIONGQI_CYCLE = ["a1-a2", "a8-a7", "a2-a1", "a7-a8", "a1-a2"]


@pytest.mark.parametrize("fen, words", [(MATED, "wins by checkmate"), (DRAWN, "draw")])
def test_finished_positions_are_refused_at_reset(fen, words):
    env = ChuheEnv("xiangqi")
    env.reset(seed=0)
    with pytest.raises(chuhe.InvalidPositionError, match=f"already over.*{words}"):
        env.reset(options={"position": fen})
    # Nothing changed: the episode before goes on.
    assert env.game.fen == chuhe.Game("xiangqi").fen
    env.step(env.legal_actions()[0])

    venv = ChuheVectorEnv("xiangqi", num_envs=3, threads=2)
    venv.reset(seed=0)
    with pytest.raises(chuhe.InvalidPositionError, match="already over"):
        venv.reset(options={"position": fen})

    aec = xiangqi_v0.env()
    with pytest.raises(chuhe.InvalidPositionError, match="already over"):
        aec.reset(options={"position": fen})

    with pytest.raises(chuhe.InvalidPositionError, match="already over"):
        env.reset(options={"position": chuhe.Game("xiangqi", fen)})


@pytest.mark.parametrize("make", [ChuheEnv, ChuheVectorEnv, xiangqi_v0.env])
def test_finished_start_positions_are_refused_at_construction(make):
    kwargs = {"num_envs": 2} if make is ChuheVectorEnv else {}
    game = {} if make is xiangqi_v0.env else {"game": "xiangqi"}
    with pytest.raises(chuhe.InvalidPositionError, match="already over"):
        make(position=MATED, **game, **kwargs)


def test_vector_env_refuses_finished_states_and_never_steps_one():
    single = ChuheEnv("xiongqi")
    single.reset(seed=0)
    for move in XIONGQI_CYCLE[:4]:
        single.step(single.encode_move(move))
    single.step(single.encode_move(XIONGQI_CYCLE[4]))
    finished = single.get_state()
    venv = ChuheVectorEnv("xiongqi", num_envs=2, threads=1)
    venv.reset(seed=0)
    live = venv.get_state()
    with pytest.raises(ValueError, match=r"states\[1\] is of a finished episode"):
        venv.set_state([live[0], finished])
    # Refused as a whole: both environments play on.
    obs, rewards, term, trunc, info = venv.step(venv.sample_legal_actions())
    assert not term.any() and info["action_mask"].sum(axis=1).min() > 0


def test_an_illegal_action_ends_the_game_as_the_env():
    # A move the history forbids (X6): the game ends by repetition, as a Game given it does.
    env = ChuheEnv("xiongqi")
    env.reset(seed=0)
    for move in XIONGQI_CYCLE[:4]:
        _, reward, term, _, info = env.step(env.encode_move(move))
        assert not term
    _, reward, term, trunc, info = env.step(env.encode_move(XIONGQI_CYCLE[4]))
    assert (reward, term, trunc, info.get("illegal_action")) == (-1.0, True, False, True)
    game = chuhe.Game("xiongqi")
    for move in XIONGQI_CYCLE:
        game.push(move)
    assert (game.status, game.winner) == ("repetition", "second")
    assert (env.game.status, env.game.winner) == (game.status, game.winner)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)

    # Any other illegal action loses by an illegal move; pickling keeps the result.
    env = ChuheEnv("xiangqi", opponent="random", agent_side="second")
    env.reset(seed=1)
    mover = env.game.turn
    bad = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, term, _, info = env.step(bad)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, True)
    loser_wins = {"first": "second", "second": "first"}
    assert (env.game.status, env.game.winner) == ("illegalmove", loser_wins[mover])
    again = pickle.loads(pickle.dumps(env))
    assert (again.game.status, again.game.winner) == ("illegalmove", loser_wins[mover])


def test_a_game_seeds_an_episode_with_its_history():
    # The first four moves of the cycle, then the env: the fifth is not offered (X6).
    game = chuhe.Game("xiongqi")
    for move in XIONGQI_CYCLE[:4]:
        game.push(move)
    env = ChuheEnv("xiongqi", history=2, max_plies=3)
    obs, info = env.reset(seed=0, options={"position": game})
    assert env.game.move_stack == game.move_stack
    forbidden = env.encode_move(XIONGQI_CYCLE[4])
    assert info["action_mask"][forbidden] == 0
    assert int(info["action_mask"].sum()) == len(game.legal_moves)

    # The observation equals that of the same moves played in the env, history planes too.
    played = ChuheEnv("xiongqi", history=2)
    played.reset(seed=0)
    for move in XIONGQI_CYCLE[:4]:
        expected, *_ = played.step(played.encode_move(move))
    assert np.array_equal(obs, expected)

    # max_plies counts the episode's moves, not the game's.
    truncated = []
    for _ in range(3):
        _, _, term, trunc, _ = env.step(env.legal_actions()[0])
        assert not term
        truncated.append(trunc)
    assert truncated == [False, False, True]
    # The state keeps where the episode began.
    again = pickle.loads(pickle.dumps(env.get_state()))
    assert again.moves == env.get_state().moves

    # A vector env, and a game of another kind refused.
    venv = ChuheVectorEnv("xiongqi", num_envs=2, threads=1)
    obs_v, info_v = venv.reset(seed=0, options={"position": game})
    assert (info_v["action_mask"][:, forbidden] == 0).all()
    with pytest.raises(chuhe.InvalidPositionError, match="xiangqi game, not xiongqi"):
        venv.reset(options={"position": chuhe.Game("xiangqi")})
    with pytest.raises(TypeError, match="not a str"):
        env.reset(options={"position": 42})


def test_sample_legal_actions_returns_a_new_array_each_call():
    venv = ChuheVectorEnv("xiangqi", num_envs=4, threads=1)
    venv.reset(seed=0)
    first = venv.sample_legal_actions()
    kept = first.copy()
    second = venv.sample_legal_actions()
    assert first is not second and not np.shares_memory(first, second)
    assert np.array_equal(first, kept)


def test_every_submodule_is_an_attribute():
    names = ["envs", "vector", "gym_xiangqi", "pettingzoo", "augment", "mcts", "data"]
    code = "import chuhe\n" + "\n".join(f"chuhe.{n}" for n in names) + "\nprint('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    # chuhe.sb3 needs Stable-Baselines3: an ImportError that names it, not an AttributeError.
    code = "import chuhe\ntry:\n    chuhe.sb3\nexcept ImportError as e:\n    print(e.name)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() in ("", "stable_baselines3")


def test_vector_set_state_of_some_environments():
    venv = ChuheVectorEnv("xiangqi", num_envs=4, threads=2)
    venv.reset(seed=0)
    for _ in range(3):
        venv.step(venv.sample_legal_actions())
    single = ChuheEnv("xiangqi")
    single.reset(seed=5)
    single.step(single.legal_actions()[0])
    before = venv.get_state()
    obs, info = venv.set_state([single.get_state(), before[0]], indices=[2, 3])
    after = venv.get_state()
    assert after[2].moves == single.get_state().moves and after[3].moves == before[0].moves
    assert [s.moves for s in after[:2]] == [s.moves for s in before[:2]]
    expected = chuhe.observe([after[2], after[3]])
    assert np.array_equal(obs[2:], expected[0]) and np.array_equal(info["action_mask"][2:],
                                                                    expected[1])
    with pytest.raises(ValueError, match="repeated"):
        venv.set_state([before[0], before[1]], indices=[1, 1])
    with pytest.raises(ValueError, match="out of range"):
        venv.set_state([before[0]], indices=[4])
    with pytest.raises(ValueError, match="2 states given for 1 indices"):
        venv.set_state(before[:2], indices=[0])
    with pytest.raises(ValueError, match="name their indices"):
        venv.set_state(before[:2])
    assert [s.moves for s in venv.get_state()] == [s.moves for s in after]
