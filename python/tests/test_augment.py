"""History planes and the left-right mirror helpers."""

from __future__ import annotations

import numpy as np
import pytest

from chuhe import augment
from chuhe.envs import ChuheEnv
from chuhe.vector import ChuheVectorEnv

GAMES = ["xiongqi", "xiangqi", "xiangqi-capture"]


def test_history_planes_show_earlier_positions():
    env = ChuheEnv("xiangqi", history=2)
    assert env.observation_space.shape == (16 + 2 * 14, 10, 9)
    start, _ = env.reset(seed=0)
    assert not start[16:].any()  # nothing before the start
    env.step(env.encode_move("h3e3"))
    obs, *_ = env.step(env.encode_move("h10g8"))
    # Red to move again: two plies back is the start, seen as red saw it.
    assert np.array_equal(obs[16 + 14 :], start[:14])
    # One ply back differs from the start by the cannon's move h3 -> e3 only (rows from
    # red's side: rank 3 is row 2; files h = 7, e = 4).
    diff = obs[16 : 16 + 14] - start[:14]
    nz = np.argwhere(diff)
    assert len(nz) == 2
    assert {(r, f, diff[p, r, f]) for p, r, f in nz} == {(2, 7, -1.0), (2, 4, 1.0)}
    with pytest.raises(ValueError, match="history"):
        ChuheEnv("xiangqi", history=-1)


def test_vector_env_history_planes_match_single_envs():
    n = 3
    venv = ChuheVectorEnv("xiongqi", num_envs=n, history=3, max_plies=8, threads=2)
    envs = [ChuheEnv("xiongqi", history=3, max_plies=8) for _ in range(n)]
    obs, _ = venv.reset(seed=0)
    for i, e in enumerate(envs):
        assert np.array_equal(e.reset(seed=i)[0], obs[i])
    rng = np.random.default_rng(1)
    for _ in range(12):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, _, term, trunc, info = venv.step(actions)
        for i, e in enumerate(envs):
            o, _, t, u, _ = e.step(int(actions[i]))
            if t or u:
                assert np.array_equal(info["final_obs"][i], o)
                o, _ = e.reset()
            assert np.array_equal(obs[i], o)


@pytest.mark.parametrize("game", GAMES)
def test_mirrors_are_exact_involutions(game):
    env = ChuheEnv(game)
    n = env.action_space.n
    actions = np.arange(n)
    once = augment.mirror_action(actions, game)
    assert sorted(once) == list(actions)  # a permutation
    assert np.array_equal(augment.mirror_action(once, game), actions)
    assert (once != actions).any()
    obs, info = env.reset(seed=0)
    batch = np.stack([obs, np.random.default_rng(0).random(obs.shape, np.float32)])
    assert np.array_equal(augment.mirror_observation(augment.mirror_observation(batch)), batch)
    masks = np.stack([info["action_mask"], (np.arange(n) % 3 == 0).astype(np.int8)])
    assert np.array_equal(augment.mirror_mask(augment.mirror_mask(masks, game), game), masks)
    a = env.legal_actions()[0]
    assert isinstance(augment.mirror_action(a, game), int)
    with pytest.raises(ValueError, match="Discrete"):
        augment.mirror_action(n, game)
    with pytest.raises(ValueError, match="actions"):
        augment.mirror_mask(np.zeros(5), game)


def mirror_fen(fen: str) -> str:
    placement, rest = fen.split(" ", 1)
    return " ".join(["/".join(rank_mirror(r) for r in placement.split("/")), rest])


def rank_mirror(rank: str) -> str:
    cells: list[str] = []
    for ch in rank:
        cells.extend(["1"] * int(ch) if ch.isdigit() else [ch])
    out, run = "", 0
    for c in reversed(cells):
        if c == "1":
            run += 1
            continue
        out += (str(run) if run else "") + c
        run = 0
    return out + (str(run) if run else "")


def test_xiangqi_mirror_is_the_mirrored_position():
    """Xiangqi is left-right symmetric: the mirrored mask and piece planes are those of the
    mirrored position, along random games."""
    env = ChuheEnv("xiangqi")
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=0)
    checked = 0
    for _ in range(120):
        fen = env.game.fen
        other = ChuheEnv("xiangqi", position=mirror_fen(fen))
        o2, i2 = other.reset(seed=0)
        assert np.array_equal(augment.mirror_mask(info["action_mask"], "xiangqi"),
                              i2["action_mask"])
        assert np.array_equal(augment.mirror_observation(obs)[:14], o2[:14])
        checked += 1
        obs, _, term, trunc, info = env.step(int(rng.choice(env.legal_actions())))
        if term or trunc:
            obs, info = env.reset()
    assert checked == 120
