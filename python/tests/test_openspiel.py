"""chuhe.openspiel: chuhe's games registered in OpenSpiel, and OpenSpiel's own code run on
them — its consistency check (``random_sim_test``), its Python ``MCTSBot`` with its random
rollout evaluator (the mate found, whole games through ``evaluate_bots``), and its AlphaZero
(jax) for two learning steps — and a differential against OpenSpiel's own ``xiangqi``: the
same legal actions at every ply of random games, the same ends where its rules have them.

Skipped where OpenSpiel (or, for AlphaZero, jax and flax) does not import, except under
CHUHE_REQUIRE_OPENSPIEL=1, where that is a failure (scripts/test sets it)."""

from __future__ import annotations

import collections
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

if os.environ.get("CHUHE_REQUIRE_OPENSPIEL") == "1":
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

import chuhe  # noqa: E402
import chuhe.openspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

NAMES = ["chuhe_xiangqi", "chuhe_xiangqi_capture", "chuhe_xiongqi"]
XIANGQI_MATE = ("1nb2ar2/9/4ka2b/4C4/2C3p1p/p1r1p1B2/4P1P1c/1R7/1N2A4/3K1A1NR w - - 6 41", 4279)
XIONGQI_WIN = ("8/2ag^1r2/1H1b1h2/sr1s1Cs+S/S4SS1/1S3c2/R3B3/3A1G^HR 5sbch/2SBC+S X/x", 18725)
HERE = pathlib.Path(__file__).resolve().parent


@pytest.mark.parametrize("name", NAMES)
def test_registered_and_openspiel_consistency_check(name):
    assert name in pyspiel.registered_names()
    game = pyspiel.load_game(f"{name}(max_plies=80)")
    chuhe_name = chuhe.openspiel.GAMES[name]
    files, ranks, planes, _c, actions = chuhe._chuhe.env_spec(chuhe_name)
    assert game.num_distinct_actions() == actions
    assert game.observation_tensor_shape() == [planes + 1, ranks, files]
    assert game.max_game_length() == 80
    state = game.new_initial_state()
    assert state.legal_actions() == chuhe.Game(chuhe_name).legal_actions()
    obs = np.asarray(state.observation_tensor()).reshape(planes + 1, ranks, files)
    assert np.array_equal(obs[:-1], chuhe.Game(chuhe_name).observation())
    assert (obs[-1] == 1).all()  # the first player's view
    # OpenSpiel's own check: random games, clones, legal actions, returns.
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


@pytest.mark.parametrize("name, position", [("chuhe_xiangqi", XIANGQI_MATE),
                                            ("chuhe_xiongqi", XIONGQI_WIN)])
def test_openspiel_mcts_finds_the_win(name, position):
    fen, winning = position
    game = pyspiel.load_game(name, {"position": fen, "max_plies": 60})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 200, evaluator, solve=True,
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    assert bot.step(state) == winning
    state.apply_action(winning)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_bots_play_whole_games(name):
    game = pyspiel.load_game(f"{name}(max_plies=40)")
    rng = np.random.RandomState(1)
    bots = [
        mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        uniform_random.UniformRandomBot(1, rng),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == 0 and returns[0] in (-1.0, 0.0, 1.0)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="already over"):
        pyspiel.load_game("chuhe_xiangqi", {"position": "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"})
    with pytest.raises(ValueError, match="max_plies"):
        pyspiel.load_game("chuhe_xiongqi(max_plies=0)")
    with pytest.raises(chuhe.InvalidPositionError):
        pyspiel.load_game("chuhe_xiangqi", {"position": "9/9 w"})


def _openspiel_square(square: str) -> int:
    """OpenSpiel's xiangqi square of a chuhe square (`e3`): row 0 is Black's back rank."""
    return (10 - int(square[1:])) * 9 + ord(square[0]) - ord("a")


def test_differential_against_openspiel_xiangqi():
    """Random games played in both: the legal actions are equal at every ply while chuhe's
    game goes on; a checkmate or stalemate ends both alike; chuhe's other ends (the rules
    OpenSpiel's xiangqi lacks) and OpenSpiel's 500-ply cap are counted by cause."""
    theirs_game = pyspiel.load_game("xiangqi")
    rng = np.random.default_rng(0)
    ends = collections.Counter()
    plies = 0
    for _ in range(30):
        ours, theirs = chuhe.Game("xiangqi"), theirs_game.new_initial_state()
        while True:
            if ours.is_over():
                if ours.status in ("checkmate", "stalemate"):
                    assert theirs.is_terminal(), ours.fen
                    winner = "first" if theirs.returns()[0] > 0 else "second"
                    assert winner == ours.winner
                    ends[ours.status] += 1
                else:
                    # Rules OpenSpiel's xiangqi does not have: it plays on (or stops at its
                    # cap on the same ply).
                    assert ours.status in ("movelimit", "insufficient", "repetition")
                    assert not theirs.is_terminal() or theirs.move_number() >= 500
                    ends[f"chuhe only: {ours.status}"] += 1
                break
            if theirs.is_terminal():
                assert theirs.move_number() == 500 and theirs.returns() == [0.0, 0.0]
                ends["OpenSpiel only: its 500-ply cap"] += 1
                break
            mine = {_openspiel_square(m.from_square) * 90 + _openspiel_square(m.to_square): m
                    for m in ours.legal_moves}
            assert sorted(mine) == theirs.legal_actions(), ours.fen
            action = int(rng.choice(theirs.legal_actions()))
            theirs.apply_action(action)
            ours.push(mine[action])
            plies += 1
    assert plies > 5000 and ends["checkmate"] > 0
    print(f"{plies} plies; ends: {dict(ends)}")


@pytest.mark.parametrize("name", ["chuhe_xiongqi(max_plies=20)", "chuhe_xiangqi(max_plies=20)"])
def test_openspiel_alpha_zero_learns_two_steps(name, tmp_path):
    if os.environ.get("CHUHE_REQUIRE_OPENSPIEL") != "1":
        pytest.importorskip("jax")
        pytest.importorskip("flax")
    out = tmp_path / "az"
    run = subprocess.run(
        [sys.executable, str(HERE / "openspiel_alpha_zero.py"), name, str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    steps = [json.loads(line) for line in (out / "learner.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    for s in steps:
        assert s["total_states"] > 0 and sum(s["outcomes"]["counts"]) > 0
        assert all(math.isfinite(s["loss"][k]) for k in ("policy", "value", "sum"))
    actor_log = (out / "log-actor-0.txt").read_text()
    assert "Game 1: Returns:" in actor_log
