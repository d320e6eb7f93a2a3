"""chuhe.mcts: the batched search in Rust against a plain Python PUCT over chuhe.Game (the
same visit counts, exactly), mates found, Gumbel's sequential halving, tree reuse, the
network's inputs, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import chuhe
from chuhe.mcts import MCTS, uniform_network

# A unique mating move among 47 (Xiangqi) and a unique winning move among 30 (Xiongqi),
# found in seeded random games.
XIANGQI_MATE = ("1nb2ar2/9/4ka2b/4C4/2C3p1p/p1r1p1B2/4P1P1c/1R7/1N2A4/3K1A1NR w - - 6 41", 4279)
XIONGQI_WIN = ("8/2ag^1r2/1H1b1h2/sr1s1Cs+S/S4SS1/1S3c2/R3B3/3A1G^HR 5sbch/2SBC+S X/x", 18725)
ROLES = {"xiongqi": 10, "xiangqi": 7, "xiangqi-capture": 7}


def material_network(game):
    """Uniform logits; the value is the material count of the side to move less the other's,
    over 16 (exact in float32)."""
    r = ROLES[game]

    def network(obs, mask):
        own = obs[:, :r].sum(axis=(1, 2, 3))
        other = obs[:, r : 2 * r].sum(axis=(1, 2, 3))
        return np.zeros(mask.shape, np.float32), ((own - other) / 16).astype(np.float32)

    return network


class _Node:
    __slots__ = ("children", "visits", "value_sum", "prior", "terminal", "raw")

    def __init__(self, prior):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value_sum = np.float32(0)
        self.prior = prior
        self.terminal = False
        self.raw = np.float32(0)


def reference_puct(game, simulations, c_puct, network):
    """PUCT as chuhe.mcts documents it, in Python over chuhe.Game, float32 like the Rust
    search: the root's visit counts by action, and its value."""
    f32 = np.float32
    c = f32(c_puct)

    def evaluate(g):
        obs, mask = chuhe.observe([g])
        logits, values = network(obs, mask)
        actions = g.legal_actions()
        prior = f32(1) / f32(len(actions))  # uniform logits
        assert not logits.any()
        return values[0], {a: _Node(prior) for a in actions}

    def back_up(path, value):
        v = f32(-value)
        for node in reversed(path):
            node.visits += 1
            node.value_sum = f32(node.value_sum + v)
            v = f32(-v)

    root = _Node(f32(1))
    value, root.children = evaluate(game)
    back_up([root], value)
    for _ in range(simulations):
        g = game.copy()
        node, path = root, [root]
        while True:
            sqrt_n = np.sqrt(f32(max(node.visits, 1)))
            best, best_score = None, None
            for a in sorted(node.children):
                ch = node.children[a]
                q = f32(ch.value_sum / f32(ch.visits)) if ch.visits else f32(0)
                score = f32(q + f32(f32(c * ch.prior) * sqrt_n) / f32(1 + ch.visits))
                if best_score is None or score > best_score:
                    best, best_score = a, score
            child = node.children[best]
            path.append(child)
            if child.terminal:
                back_up(path, child.raw)
                break
            g.play_action(best)
            if not child.children:
                if g.is_over():
                    child.terminal = True
                    child.raw = f32(0 if g.winner is None else (1 if g.winner == g.turn else -1))
                    back_up(path, child.raw)
                else:
                    value, child.children = evaluate(g)
                    back_up(path, value)
                break
            node = child
    visits = {a: ch.visits for a, ch in root.children.items()}
    return visits, f32(-root.value_sum / f32(root.visits))


@pytest.mark.parametrize(
    "game, position, simulations",
    [("xiangqi", None, 120), ("xiangqi", XIANGQI_MATE[0], 150), ("xiongqi", None, 80),
     ("xiongqi", XIONGQI_WIN[0], 100), ("xiangqi-capture", None, 80)],
)
def test_puct_equals_a_python_reference(game, position, simulations):
    network = material_network(game)
    start = chuhe.Game(game, position)
    expected, value = reference_puct(start, simulations, 1.25, network)
    mcts = MCTS(game, simulations=simulations, threads=2, seed=0)
    # Two copies in one batch: the lockstep rounds give each its own tree.
    result = mcts.search([start, start.copy()], network, explore=False)
    for row in range(2):
        got = {int(a): int(result.visits[row, a]) for a in np.flatnonzero(result.visits[row])}
        assert got == {a: v for a, v in expected.items() if v}
        assert result.values[row] == value
        assert result.actions[row] == max(expected, key=lambda a: (expected[a], -a))
        assert np.isclose(result.policy[row].sum(), 1.0)
    assert result.network_calls == simulations + 1 or result.network_calls <= simulations + 1


@pytest.mark.parametrize("algorithm", ["puct", "gumbel"])
@pytest.mark.parametrize("game, position", [("xiangqi", XIANGQI_MATE), ("xiongqi", XIONGQI_WIN)])
def test_the_winning_move_is_found(algorithm, game, position):
    fen, winning = position
    # Every root action considered (Gumbel, no noise, uniform priors: else only the first 16).
    mcts = MCTS(game, algorithm=algorithm, simulations=200, max_considered=64, threads=2, seed=1)
    result = mcts.search([chuhe.Game(game, fen)] * 3, uniform_network, explore=False)
    assert (result.actions == winning).all()
    # The search sees the win (Gumbel's root mean is diluted by the halving's first visits).
    assert (result.values > (0.5 if algorithm == "puct" else 0.1)).all()
    assert (result.policy.argmax(axis=1) == winning).all()


def test_gumbel_halves_the_considered_actions():
    # 4 actions considered, 16 simulations: 2 phases; 2 visits each to 4, then 4 more each
    # to the best 2.
    mcts = MCTS("xiangqi", algorithm="gumbel", simulations=16, max_considered=4, seed=2)
    result = mcts.search([chuhe.Game("xiangqi")], uniform_network, explore=True)
    assert sorted(result.visits[0][result.visits[0] > 0].tolist()) == [2, 2, 6, 6]
    assert result.visits[0, result.actions[0]] == 6
    # The improved policy covers every legal action.
    legal = chuhe.Game("xiangqi").legal_actions()
    assert np.flatnonzero(result.policy[0]).tolist() == legal
    assert np.isclose(result.policy[0].sum(), 1.0)


@pytest.mark.parametrize("algorithm", ["puct", "gumbel"])
def test_trees_are_reused_when_the_game_goes_on(algorithm):
    games = [chuhe.Game("xiangqi") for _ in range(4)]
    mcts = MCTS("xiangqi", algorithm=algorithm, simulations=60, threads=2, seed=3)
    result = mcts.search(games, uniform_network)
    assert [v for _, v in mcts.tree_sizes()] == [61] * 4
    kept = [int(result.visits[i, a]) for i, a in enumerate(result.actions)]
    for g, a in zip(games, result.actions):
        g.play_action(int(a))
    # Another game in slot 3 (not a continuation of its last root): a fresh tree.
    games[3] = chuhe.Game("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 0 1")
    result = mcts.search(games, uniform_network)
    roots = [v for _, v in mcts.tree_sizes()]
    assert roots == [k + 60 for k in kept[:3]] + [61]
    # Two moves on: the search goes on from the subtree two plies down where there is one.
    for g, a in zip(games, result.actions):
        g.play_action(int(a))
        g.play_action(g.legal_actions()[0])
    mcts.search(games, uniform_network)
    assert all(v >= 61 for _, v in mcts.tree_sizes())
    mcts.clear()
    mcts.search(games, uniform_network)
    assert [v for _, v in mcts.tree_sizes()] == [61] * 4


def test_the_network_sees_the_leaves_as_observe_writes_them():
    games = [chuhe.Game("xiongqi"), chuhe.Game("xiongqi")]
    games[1].push("a1-a2")
    seen = []

    def network(obs, mask):
        seen.append((obs.copy(), mask.copy()))
        return uniform_network(obs, mask)

    mcts = MCTS("xiongqi", simulations=5, history=2, seed=4)
    mcts.search(games, network)
    first_obs, first_mask = seen[0]
    obs, mask = chuhe.observe(games, history=2)
    assert np.array_equal(first_obs, obs) and np.array_equal(first_mask, mask)
    for obs, mask in seen[1:]:
        assert obs.shape[1:] == (22 + 20 * 2, 8, 8)
        assert (mask.sum(axis=1) > 0).all()
    assert len(seen) == 6


def test_repeated_runs_with_a_seed_agree_and_explore_draws():
    def run(seed, explore):
        mcts = MCTS("xiangqi", simulations=40, seed=seed, threads=2)
        return mcts.search([chuhe.Game("xiangqi")] * 8, uniform_network, explore=explore)

    a, b = run(5, True), run(5, True)
    assert np.array_equal(a.visits, b.visits) and np.array_equal(a.actions, b.actions)
    c = run(6, False)
    # Without noise every copy searches alike; with Dirichlet noise they differ.
    assert all(np.array_equal(c.visits[0], v) for v in c.visits)
    assert not all(np.array_equal(a.visits[0], v) for v in a.visits)


def test_errors_name_the_problem():
    mcts = MCTS("xiangqi", simulations=3, seed=0)
    over = chuhe.Game("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    with pytest.raises(ValueError, match=r"games\[1\] is over"):
        mcts.search([chuhe.Game("xiangqi"), over], uniform_network)
    with pytest.raises(ValueError, match=r"games\[0\] is a xiongqi game, not xiangqi"):
        mcts.search([chuhe.Game("xiongqi")], uniform_network)
    with pytest.raises(TypeError, match="not a chuhe.Game"):
        mcts.search(["start"], uniform_network)
    with pytest.raises(ValueError, match=r"logits have shape \(1, 10\)"):
        mcts.search([chuhe.Game("xiangqi")], lambda o, m: (np.zeros((1, 10)), np.zeros(1)))

    def nan_value(obs, mask):
        return np.zeros(mask.shape, np.float32), np.full(len(mask), np.nan, np.float32)

    with pytest.raises(ValueError, match="the value is NaN"):
        mcts.search([chuhe.Game("xiangqi")], nan_value)
    # After an error the next search works.
    assert mcts.search([chuhe.Game("xiangqi")], uniform_network).visits.sum() == 3
    for bad in (dict(algorithm="alphabeta"), dict(simulations=0), dict(c_puct=-1.0),
                dict(dirichlet_fraction=2.0), dict(history=99), dict(game="chess")):
        with pytest.raises(ValueError):
            MCTS(**{"game": "xiangqi", **bad})


def test_the_native_rounds_refuse_misuse():
    from chuhe._chuhe import MctsCore

    core = MctsCore("xiangqi", "puct", 4)
    core.begin([chuhe.Game("xiangqi")] * 2)
    obs = np.zeros((2, 16, 10, 9), np.float32)
    mask = np.zeros((2, 8100), np.int8)
    logits, values = np.zeros((2, 8100), np.float32), np.zeros(2, np.float32)
    with pytest.raises(ValueError, match="call select first"):
        core.expand(logits, values, 2)
    assert core.select(obs, mask) == (2, False)
    with pytest.raises(ValueError, match="wait for expand"):
        core.select(obs, mask)
    with pytest.raises(ValueError, match="rows=1: the last select wrote 2"):
        core.expand(logits[:1], values[:1], 1)
    with pytest.raises(ValueError, match="logits: expected a C-contiguous array of 16200"):
        core.expand(logits[:, :10], values, 2)
    core.expand(logits, values, 2)  # the leaves still waited
    rounds = 1
    while True:
        rows, complete = core.select(obs, mask)
        if complete:
            break
        if rows:
            core.expand(logits[:rows], values[:rows], rows)
            rounds += 1
    assert rounds == 5 and [v for _, v in core.tree_sizes()] == [5, 5]
