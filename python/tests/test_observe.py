"""The observation API of issue 45: `chuhe.observe` for any batch of games, env states or
texts, equal to what the environments give; `Game.observation`, `legal_actions`,
`play_action`, `encode_move`/`decode_action`; DLPack; PCN and PGN from Python."""

from __future__ import annotations

import os

import numpy as np
import pytest

import chuhe
from chuhe.envs import ChuheEnv

GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")


def random_games(game, count, plies, seed, history):
    """`count` self-play envs played `plies` random moves each (fewer where a game ends):
    each env with its last observation and mask."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        env = ChuheEnv(game, history=history)
        obs, info = env.reset(seed=seed + k)
        for _ in range(int(rng.integers(0, plies))):
            obs, _, term, trunc, info = env.step(int(rng.choice(env.legal_actions())))
            if term or trunc:
                obs, info = env.reset()
        out.append((env, obs, info["action_mask"]))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("history", [0, 3])
def test_observe_equals_the_environments(game, history):
    played = random_games(game, 12, 60, seed=7, history=history)
    games = [env.game for env, _, _ in played]
    states = [env.get_state() for env, _, _ in played]
    expected_obs = np.stack([o for _, o, _ in played])
    expected_mask = np.stack([m for _, _, m in played])
    for items in (games, states, games[:6] + states[6:]):
        obs, mask = chuhe.observe(items, history=history)
        assert obs.dtype == np.float32 and mask.dtype == np.int8
        assert np.array_equal(obs, expected_obs)
        assert np.array_equal(mask, expected_mask)
    for g, o, m in zip(games, expected_obs, expected_mask):
        assert np.array_equal(g.observation(history=history), o)
        actions = g.legal_actions()
        assert actions == sorted(actions) == np.flatnonzero(m).tolist()
        assert actions == sorted(g.encode_move(mv) for mv in g.legal_moves)
    # Texts: no history, so the same as games started there.
    texts = [g.feen for g in games]
    obs, mask = chuhe.observe(texts, game=game, history=history)
    fresh = chuhe.observe([chuhe.Game(game, t) for t in texts], history=history)
    assert np.array_equal(obs, fresh[0]) and np.array_equal(mask, fresh[1])


def test_observe_writes_into_given_arrays_and_checks_them():
    games = [chuhe.Game("xiangqi") for _ in range(3)]
    obs = np.full((3, 16, 10, 9), 7.0, np.float32)
    mask = np.full((3, 8100), 7, np.int8)
    got = chuhe.observe(games, out=(obs, mask))
    assert got[0] is obs and got[1] is mask
    assert set(np.unique(obs)) <= {0.0, 1.0} and int(mask.sum()) == 3 * 44
    with pytest.raises(ValueError, match=r"shape \(3, 16, 10, 9\)"):
        chuhe.observe(games, out=(np.empty((2, 16, 10, 9), np.float32), mask))
    with pytest.raises(ValueError, match="int8"):
        chuhe.observe(games, out=(obs, mask.astype(np.int64)))
    with pytest.raises(ValueError, match="several games"):
        chuhe.observe([chuhe.Game("xiangqi"), chuhe.Game("xiongqi")])
    with pytest.raises(ValueError, match="name the game"):
        chuhe.observe(["start"])
    with pytest.raises(ValueError, match=r"items\[1\].*invalid xiangqi position"):
        chuhe.observe(["start", "9/9 w"], game="xiangqi")
    with pytest.raises(TypeError, match=r"items\[0\]: 3 is not"):
        chuhe.observe([3], game="xiangqi")
    with pytest.raises(ValueError, match="history"):
        chuhe.observe(games, history=65)
    obs, mask = chuhe.observe([], game="xiongqi")
    assert obs.shape == (0, 22, 8, 8) and mask.shape == (0, 28672)


def test_observations_go_to_dlpack_consumers_without_a_copy():
    obs, mask = chuhe.observe([chuhe.Game("xiangqi")] * 2)
    for array in (obs, mask):
        view = np.from_dlpack(array)
        assert np.shares_memory(view, array)
    if os.environ.get("CHUHE_REQUIRE_SB3") == "1":
        import torch
    else:
        torch = pytest.importorskip("torch")
    tensor = torch.from_dlpack(obs)
    assert tuple(tensor.shape) == obs.shape and tensor.dtype == torch.float32
    obs[1, 0, 0, 0] = 5.0
    assert float(tensor[1, 0, 0, 0]) == 5.0  # the same memory
    assert torch.equal(torch.from_dlpack(mask).sum(dim=1), torch.tensor([44, 44], dtype=torch.int64))


@pytest.mark.parametrize("game", GAMES)
def test_play_action_plays_as_push(game):
    rng = np.random.default_rng(1)
    by_action, by_move = chuhe.Game(game), chuhe.Game(game)
    while not by_action.is_over() and len(by_action.move_stack) < 80:
        a = int(rng.choice(by_action.legal_actions()))
        move = by_action.decode_action(a)
        assert by_action.encode_move(move) == a
        played = by_action.play_action(np.int64(a))
        assert played == move
        by_move.push(move.uci, "uci")
        assert by_action.feen == by_move.feen
    assert by_action.move_stack == by_move.move_stack
    assert by_action.status == by_move.status


def test_play_action_errors():
    game = chuhe.Game("xiangqi")
    n = 8100
    with pytest.raises(chuhe.IllegalMoveError, match="stands for no move"):
        game.play_action(0)
    illegal = next(a for a in range(n) if a not in set(game.legal_actions())
                   and game.decode_action(a) is not None)
    with pytest.raises(chuhe.IllegalMoveError, match=rf"action {illegal}"):
        game.play_action(illegal)
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(8100\)"):
        game.play_action(n)
    with pytest.raises(TypeError):
        game.play_action("h3e3")
    assert game.move_stack == []
    # Xiongqi's forbidden repetition (X6) is played and loses, as push does.
    xq = chuhe.Game("xiongqi")
    for move in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"]:
        xq.push(move)
    forbidden = xq.encode_move("a1-a2")
    assert forbidden not in xq.legal_actions()
    xq.play_action(forbidden)
    assert (xq.status, xq.winner) == ("repetition", "second")


@pytest.mark.parametrize("game", GAMES)
def test_pcn_round_trip(game):
    rng = np.random.default_rng(3)
    for k in range(4):
        g = chuhe.Game(game)
        for _ in range(int(rng.integers(0, 120))):
            if g.is_over():
                break
            g.play_action(int(rng.choice(g.legal_actions())))
        if k == 3 and not g.is_over():
            g.resign("first")
        again = chuhe.Game.from_pcn(g.to_pcn())
        assert again.game == game
        assert again.move_stack == g.move_stack
        assert (again.status, again.winner) == (g.status, g.winner)
        assert again.feen == g.feen
    with pytest.raises(ValueError, match="PCN record"):
        chuhe.Game.from_pcn('{"setup": "start", "moves": [["a1-a5", 0]]}')


def test_pgn_round_trip_and_errors():
    rng = np.random.default_rng(4)
    games = []
    for _ in range(3):
        g = chuhe.Game("xiangqi")
        for _ in range(int(rng.integers(1, 90))):
            if g.is_over():
                break
            g.play_action(int(rng.choice(g.legal_actions())))
        games.append(g)
    text = "\n".join(g.to_pgn(tags=[("White", "me")]) for g in games)
    assert '[White "me"]' in text and '[Black "you"]' in games[0].to_pgn({"Black": "you"})
    read = chuhe.read_pgn(text)
    assert [r.move_stack for r in read] == [g.move_stack for g in games]
    assert [(r.status, r.winner) for r in read] == [(g.status, g.winner) for g in games]
    assert chuhe.Game.from_pgn(games[1].to_pgn(notation="iccs")).move_stack == games[1].move_stack
    with pytest.raises(ValueError, match="Xiangqi only"):
        chuhe.Game("xiongqi").to_pgn()
    with pytest.raises(ValueError, match="PGN game 4: .*illegal move 'Ra5'"):
        chuhe.read_pgn(text + '\n[Variant "Xiangqi"]\n\n1. Ra5 *\n')
    with pytest.raises(TypeError, match="not a str"):
        chuhe.read_pgn(b"1. Ra2 *")
