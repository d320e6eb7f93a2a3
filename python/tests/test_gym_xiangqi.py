"""The gym-xiangqi-compatible environment: gym-xiangqi's observation and action encodings
over chuhe's rules."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import chuhe
from chuhe.gym_xiangqi import INITIAL_BOARD, GymXiangqiEnv, action_to_move, move_to_action


def test_check_env():
    check_env(gym.make("chuhe/GymXiangqi-v0").unwrapped)
    check_env(GymXiangqiEnv(opponent="random"))


def test_spaces_and_start_position_are_gym_xiangqi_s():
    env = GymXiangqiEnv()
    assert env.action_space.n == 129600
    assert env.observation_space.shape == (10, 9)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.int64
    np.testing.assert_array_equal(obs, INITIAL_BOARD)
    assert info["action_mask"].sum() == 44
    # gym-xiangqi's own formula: (id - 1) * 8100 + (r * 9 + c) * 90 + (r2 * 9 + c2).
    cannon = move_to_action(11, (7, 7), (7, 4))  # the right cannon to the centre: h3e3
    assert cannon == 10 * 8100 + (7 * 9 + 7) * 90 + (7 * 9 + 4)
    assert action_to_move(cannon) == (11, [7, 7], [7, 4])
    assert env.decode_action(cannon).uci == "h3e3"
    assert env.encode_move("C2=5") == cannon
    with pytest.raises(ValueError):
        move_to_action(17, (0, 0), (0, 1))
    with pytest.raises(ValueError):
        action_to_move(129600)


def test_pieces_keep_their_ids_and_illegal_actions_change_nothing():
    env = GymXiangqiEnv()
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.step(move_to_action(11, (7, 7), (7, 4)))
    assert (reward, term, trunc) == (0.0, False, False)
    assert obs[7, 4] == 11 and obs[7, 7] == 0
    # Self-play: the enemy moves its negative pieces in the same frame (horse h10-g8).
    before = obs.copy()
    bad = move_to_action(7, (0, 7), (1, 7))
    obs, reward, term, _, info = env.step(bad)
    assert info["illegal_action"] and reward == -1.0 and not term
    np.testing.assert_array_equal(obs, before)
    obs, *_ = env.step(move_to_action(6, (0, 7), (2, 6)))
    assert obs[2, 6] == -6 and env.game.fen.startswith("rnbakab1r/9/1c4nc1")


def test_black_agent_sees_its_pieces_at_the_bottom():
    env = GymXiangqiEnv(agent_color="black", opponent="random")
    obs, info = env.reset(seed=3)
    # Red moved first; the board is turned so that Black's pieces are positive at the bottom.
    assert (obs[6:] > 0).sum() == 16 and (obs[:4] < 0).sum() == 16
    assert env.game.turn == "second"
    for action in np.flatnonzero(info["action_mask"]):
        pid, start, _ = action_to_move(action)
        assert obs[start[0], start[1]] == pid


def test_random_games_agree_with_the_library():
    env = GymXiangqiEnv()
    rng = np.random.default_rng(5)
    for episode in range(4):
        obs, info = env.reset(seed=episode)
        game = chuhe.Game("xiangqi")
        for _ in range(300):
            legal = np.flatnonzero(info["action_mask"])
            assert len(legal) == len(game.legal_moves)
            action = int(rng.choice(legal))
            game.push(env.decode_action(action))
            obs, reward, term, trunc, info = env.step(action)
            assert env.game.fen == game.fen
            # Every piece on the board has its id once.
            ids = obs[obs != 0]
            assert len(set(ids.tolist())) == len(ids)
            if term:
                assert game.is_over() and reward in (-1.0, 0.0, 1.0)
                break


def test_positions_other_than_the_start_get_ids_by_role():
    # Ids by role, back rank first, then left to right from the owner's side.
    env = GymXiangqiEnv(position="3k5/9/9/9/9/9/9/9/4R4/4KR3 w - - 0 1")
    obs, info = env.reset(seed=0)
    assert sorted(obs[obs != 0].tolist()) == [-1, 1, 8, 9]
    assert obs[9, 4] == 1 and obs[9, 5] == 8 and obs[8, 4] == 9 and obs[0, 3] == -1
    with pytest.raises(ValueError):
        GymXiangqiEnv(agent_color="green")


def test_xiangqi_env_copies_and_checks_its_arguments():
    """chuhe.gym_xiangqi.XiangQiEnv (gym-xiangqi's own API; its transitions are tested
    against gym-xiangqi in test_gym_xiangqi_differential.py): copies play on alike, and bad
    arguments are refused by name."""
    import copy
    import pickle

    from chuhe.gym_xiangqi import XiangQiEnv

    env = XiangQiEnv()
    rng = np.random.default_rng(0)
    for _ in range(10):
        legal = np.flatnonzero(env.ally_actions if env.turn == 1 else env.enemy_actions)
        env.step(int(rng.choice(legal)))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert np.array_equal(twin.state, env.state) and twin.turn == env.turn
        legal = np.flatnonzero(env.ally_actions if env.turn == 1 else env.enemy_actions)
        a = int(legal[0])
        mine, theirs = copy.deepcopy(env).step(a), twin.step(a)
        assert np.array_equal(mine[0], theirs[0]) and mine[1:] == theirs[1:]
    with pytest.raises(ValueError, match="ally_color"):
        XiangQiEnv(ally_color=2)
    with pytest.raises(ValueError, match="129600"):
        env.step(129600)
    with pytest.raises(TypeError, match="129600"):
        env.step(1.5)
    # gym-xiangqi fails an assert there: code that catches AssertionError still does.
    for bad in (-1, 129600, 1.5, "3"):
        with pytest.raises(AssertionError):
            env.step(bad)
    assert XiangQiEnv(ally_color=1).turn == -1  # the enemy (red, at the top) moves first
