"""The vector env against Gymnasium's own SyncVectorEnv of the single env in SAME_STEP mode."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

import chuhe
from chuhe.envs import ChuheEnv
from chuhe.vector import ChuheVectorEnv


def assert_info_equal(ours, theirs, path="info"):
    """The same keys at every level, and equal values (object arrays entry by entry)."""
    assert sorted(ours) == sorted(theirs), path
    for key in theirs:
        a, b = ours[key], theirs[key]
        where = f"{path}[{key!r}]"
        if isinstance(b, dict):
            assert_info_equal(a, b, where)
        elif b.dtype == object:
            assert a.dtype == object and a.shape == b.shape, where
            for x, y in zip(a, b):
                assert (x is None and y is None) or np.array_equal(x, y), where
        else:
            assert a.shape == b.shape, where
            assert np.array_equal(a, b), where


@pytest.mark.parametrize(
    "game, opponent, max_plies", [("xiangqi", "random", 12), ("xiongqi", None, 9)]
)
def test_same_step_autoreset_matches_sync_vector_env(game, opponent, max_plies):
    # Gymnasium 1.0 (the oldest chuhe supports, run by scripts/test's SB3 step) has only the
    # next-step mode in its SyncVectorEnv: there is nothing of its own to compare with.
    AutoresetMode = getattr(gym.vector, "AutoresetMode", None)
    if AutoresetMode is None:
        pytest.skip(f"Gymnasium {gym.__version__} has no SAME_STEP SyncVectorEnv")
    n = 5
    ours = ChuheVectorEnv(game, num_envs=n, opponent=opponent, max_plies=max_plies, threads=2)
    theirs = SyncVectorEnv(
        [lambda: ChuheEnv(game, opponent=opponent, max_plies=max_plies)] * n,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    obs, info = ours.reset(seed=[3, 1, 4, 1, 5])
    obs2, info2 = theirs.reset(seed=[3, 1, 4, 1, 5])
    assert np.array_equal(obs, obs2)
    assert_info_equal(info, info2)
    rng = np.random.default_rng(0)
    ended = illegal = 0
    for step in range(40):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        if step % 7 == 3:  # an illegal action now and then
            actions[step % n] = int(np.flatnonzero(mask[step % n] == 0)[0])
        obs, rew, term, trunc, info = ours.step(actions)
        obs2, rew2, term2, trunc2, info2 = theirs.step(actions)
        assert np.array_equal(obs, obs2)
        assert np.array_equal(rew, rew2)
        assert np.array_equal(term, term2) and np.array_equal(trunc, trunc2)
        assert_info_equal(info, info2)
        ended += int((term | trunc).sum())
        illegal += int(info.get("final_info", {}).get("illegal_action", np.zeros(n)).sum())
    assert ended >= n and illegal >= 3


def test_final_observation_and_info_of_a_truncated_episode():
    venv = ChuheVectorEnv("xiangqi", num_envs=2, max_plies=2, threads=1)
    single = ChuheEnv("xiangqi", max_plies=2)
    venv.reset(seed=0)
    single.reset(seed=0)
    a = single.encode_move("h3e3")
    venv.step(np.array([a, a]))
    single.step(a)
    b = single.encode_move("h10g8")
    last_obs, _, _, trunc, last_info = single.step(b)
    obs, _, _, truncated, info = venv.step(np.array([b, b]))
    assert trunc and truncated.all()
    assert info["_final_obs"].all() and info["_final_info"].all()
    assert np.array_equal(info["final_obs"][1], last_obs)
    assert np.array_equal(info["final_info"]["action_mask"][0], last_info["action_mask"])
    assert "illegal_action" not in info["final_info"]
    # The observation returned is the new episode's first.
    assert np.array_equal(obs[0], single.reset(seed=0)[0])


def test_reset_seeds_and_options():
    venv = ChuheVectorEnv("xiangqi", num_envs=3, opponent="random", agent_side="random")
    singles = [ChuheEnv("xiangqi", opponent="random", agent_side="random") for _ in range(3)]
    obs, _ = venv.reset(seed=[7, None, 9])
    assert np.array_equal(obs[0], singles[0].reset(seed=7)[0])
    assert np.array_equal(obs[2], singles[2].reset(seed=9)[0])
    with pytest.raises(ValueError, match="num_envs"):
        venv.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seed"):
        venv.reset(seed=[1, -2, 3])
    fen = "3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 0 1"  # live (finished ones are refused)
    obs, info = venv.reset(seed=0, options={"position": fen})
    game = chuhe.Game("xiangqi", fen)
    for move in venv.get_state()[0].moves:  # the opponent's reply when it moved first
        game.push(move, "uci")
    assert int(info["action_mask"][0].sum()) == len(game.legal_moves) > 0
    with pytest.raises(ValueError, match="reset option"):
        venv.reset(options={"positon": fen})
    with pytest.raises(chuhe.InvalidPositionError):
        venv.reset(options={"position": "nonsense"})


def test_actions_are_checked():
    venv = ChuheVectorEnv("xiangqi", num_envs=2)
    venv.reset(seed=0)
    for bad in ([0, -1], [8100, 0], [10**12, 0]):
        with pytest.raises(ValueError, match=r"Discrete\(8100\)"):
            venv.step(np.array(bad))
    with pytest.raises(TypeError, match="dtype float64"):
        venv.step(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"shape \(1, 2\)"):
        venv.step(np.array([[1, 2]]))


@pytest.mark.parametrize("env_id", ["chuhe/Xiangqi-v0", "chuhe/Xiongqi-v0"])
def test_make_vec_returns_the_rust_vector_env(env_id):
    venv = gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(venv, ChuheVectorEnv) and venv.num_envs == 4
    assert venv.single_action_space == gym.make(env_id).action_space
    venv = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                        opponent="random", max_plies=10)
    _, info = venv.reset(seed=0)
    assert info["action_mask"].shape[0] == 2


def test_own_docstrings():
    for name in ("reset", "step"):
        doc = getattr(ChuheVectorEnv, name).__doc__
        assert doc is not getattr(gym.vector.VectorEnv, name).__doc__
    assert "final_obs" in ChuheVectorEnv.step.__doc__
    assert "seed" in ChuheVectorEnv.reset.__doc__


@pytest.mark.parametrize("game", ["xiongqi", "xiangqi"])
def test_sample_legal_actions_is_legal_seeded_and_uniform(game):
    """sample_legal_actions() draws one legal action per game in Rust: from the mask, the
    same draws after the same seed, and every legal action of a position about equally
    often."""
    first = ChuheVectorEnv(game, num_envs=64, threads=2)
    second = ChuheVectorEnv(game, num_envs=64, threads=1)
    _, info = first.reset(seed=11)
    second.reset(seed=11)
    for _ in range(30):
        a = first.sample_legal_actions().copy()
        assert a.dtype == np.int64 and a.shape == (64,)
        assert info["action_mask"][np.arange(64), a].all()
        assert np.array_equal(a, second.sample_legal_actions())
        _, _, _, _, info = first.step(a)
        second.step(a)
    other = ChuheVectorEnv(game, num_envs=64, threads=2)
    other.reset(seed=12)
    first.reset(seed=11)
    assert not np.array_equal(first.sample_legal_actions(), other.sample_legal_actions())
    # Uniform: 64 games at the start position, 100 draws each.
    _, info = first.reset(seed=3)
    legal = np.flatnonzero(info["action_mask"][0])
    counts = np.zeros(first.single_action_space.n, np.int64)
    for _ in range(100):
        np.add.at(counts, first.sample_legal_actions(), 1)
    assert counts[legal].sum() == 6400 and counts.sum() == 6400
    expected = 6400 / len(legal)
    assert counts[legal].min() > expected * 0.6 and counts[legal].max() < expected * 1.4


@pytest.mark.parametrize("game", ["xiangqi", "xiongqi"])
def test_observations_and_masks_are_whole_after_every_kind_of_write(game):
    """Each step clears only what the last one set in the env's arrays; whatever wrote
    there before (a step, an autoreset, a reset from a position, a restored state), they
    must equal observations written whole, and callers cannot write into them."""
    n, history = 6, 2
    venv = ChuheVectorEnv(game, num_envs=n, max_plies=30, threads=2, history=history)
    obs, info = venv.reset(seed=list(range(n)))

    def check(obs, mask, what):
        whole_obs, whole_mask = chuhe.observe(venv.get_state(), history=history)
        assert np.array_equal(obs, whole_obs), what
        assert np.array_equal(mask, whole_mask), what

    check(obs, info["action_mask"], "reset")
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0, 0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        info["action_mask"][0, 0] = 1
    saved = venv.get_state()
    ended = 0
    for step in range(120):
        obs, _, term, trunc, info = venv.step(venv.sample_legal_actions())
        ended += int((term | trunc).sum())
        check(obs, info["action_mask"], f"step {step}")
        if step == 40:
            obs, info = venv.set_state(saved[:2], indices=[3, 5])
            check(obs, info["action_mask"], "set_state")
        if step == 80:
            game_ = chuhe.Game(game)
            for _ in range(4):
                game_.play_action(game_.legal_actions()[0])
            obs, info = venv.reset(options={"position": game_})
            check(obs, info["action_mask"], "reset from a game")
    assert ended > n
