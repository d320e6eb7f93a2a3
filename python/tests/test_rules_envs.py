"""The environments of games read from rule files (``chuhe.make_env(rules=DIR)``): Gymnasium's
and PettingZoo's checkers, the spaces of the game's own board, pieces and promotions, errors
of a bad directory, and whole games of the invented game in examples/rules/lantern."""

from __future__ import annotations

import json
import pathlib
import pickle
import shutil

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import chuhe
from chuhe.envs import ChuheEnv
from chuhe.vector import ChuheVectorEnv

REPO = pathlib.Path(__file__).resolve().parents[2]
GAMES = REPO / "games"
LANTERN = REPO / "examples" / "rules" / "lantern"
#: Each game's observation shape and action count: ``2R + 2`` planes of its board, ``squares²
#: × choices`` actions.
SPACES = {
    GAMES / "minixiangqi": ((12, 7, 7), 49 * 49),  # 5 pieces, no promotion
    GAMES / "makruk": ((14, 8, 8), 64 * 64 * 2),  # 6 pieces, the bia's one promotion
    LANTERN: ((12, 7, 7), 49 * 49 * 3),  # 5 pieces, a promotion into one of two
    # 10 pieces, and 2R hand planes; choices: 1 plus its five drop rules.
    GAMES / "minishogi": ((42, 5, 5), 25 * 25 * 6),
}
#: Games that drop pieces from the hands (their observations have hand planes).
DROPS = {GAMES / "minishogi"}
#: The ends a game reaches by its rules (not a ply cap or an illegal action).
NATURAL = {"checkmate", "stalemate", "mareking", "repetition", "movelimit", "insufficient",
           "bareking"}


@pytest.mark.parametrize("rules", list(SPACES), ids=lambda p: p.name)
def test_gymnasium_check_env(rules):
    env = chuhe.make_env(rules=rules, render_mode="rgb_array")
    check_env(env, skip_render_check=False)
    check_env(chuhe.make_env(rules=rules, opponent="random"))
    assert env.game_name == rules.name


@pytest.mark.parametrize("rules", list(SPACES), ids=lambda p: p.name)
def test_pettingzoo_api_tests(rules):
    api_test(chuhe.make_env(rules=rules, api="aec"), num_cycles=200)
    parallel_api_test(chuhe.make_env(rules=rules, api="parallel", max_plies=60), num_cycles=200)


@pytest.mark.parametrize("rules", list(SPACES), ids=lambda p: p.name)
def test_spaces_are_the_games_own_and_every_move_encodes(rules):
    shape, n = SPACES[rules]
    env = ChuheEnv(rules=rules)
    assert env.observation_space.shape == shape and env.action_space.n == n
    assert (env.files, env.ranks) == (shape[2], shape[1])
    obs, info = env.reset(seed=3)
    for _ in range(30):
        mask = info["action_mask"]
        legal = env.game.legal_moves
        assert int(mask.sum()) == len(legal) == len(env.legal_actions()) > 0
        for m in legal:
            a = env.encode_move(m)
            assert mask[a] == 1 and env.decode_action(a) == m
        # The side to move's pieces (planes 0..R-1) are all on the board's own squares.
        roles = (shape[0] - 2) // (4 if rules in DROPS else 2)
        mine = obs[:roles].sum()
        assert mine == sum(1 for _, side, _ in env._core.pieces()
                           if side == (0 if env.game.turn == "first" else 1))
        obs, _, term, trunc, info = env.step(env.sample_legal_action())
        if term or trunc:
            obs, info = env.reset()


def test_drops_are_actions_and_the_hands_are_seen():
    """Minishogi: a drop is the action from its square to itself, its choice the drop rule's
    number (P, S, G, B, R: 1-5); the hand planes hold the pieces held / 8."""
    env = ChuheEnv(rules=GAMES / "minishogi")
    obs, info = env.reset(options={"position": "k4/5/5/P4/4K[GP] w - - 0 1"})
    roles, n = 10, 25
    hands = obs[2 * roles + 2:]
    assert hands.shape == (2 * roles, 5, 5)
    # Red to move holds a gold (role 3) and a pawn (role 5); Black nothing.
    assert set(np.flatnonzero(hands.reshape(2 * roles, -1).max(axis=1))) == {3, 5}
    assert hands[3].min() == hands[5].min() == 1 / 8
    drops = {m.uci: m for m in env.game.legal_moves if "@" in m.uci}
    # The pawn: files b-e below the far rank (e1 is taken); the gold: any of the 22 empty squares.
    assert len(drops) == 15 + 22
    a = env.encode_move(drops["G@c3"])
    square, choice = divmod(a, 6)
    assert choice == 3 and square // n == square % n == 2 * 5 + 2
    assert info["action_mask"][a] == 1 and env.decode_action(a) == drops["G@c3"]
    obs, _, term, _, info = env.step(a)
    assert not term and env.game.move_stack[-1].text() == "G*c3"
    # Black to move now: its own hand planes empty, Red's (the opponent's) pawn.
    hands = obs[2 * roles + 2:]
    assert hands[:roles].max() == 0 and hands[roles + 5].min() == 1 / 8 and hands[roles + 3].max() == 0


def test_the_second_players_view_is_flipped_on_the_games_board():
    env = ChuheEnv(rules=LANTERN)
    obs0, _ = env.reset(seed=0)
    # The lord (role 0, first in rules.json) of the side to move: row 0, file d.
    assert obs0[0, 0, 3] == 1.0 and obs0[0].sum() == 1.0
    a = env.encode_move("b2b3")
    obs1, *_ = env.step(a)
    assert obs1[0, 0, 3] == 1.0 and obs1[0].sum() == 1.0
    # The second player's mirrored move has the same action.
    assert env.encode_move("b6b5") == a


def test_promotion_choices_are_actions():
    env = ChuheEnv(rules=LANTERN)
    env.reset(seed=0, options={"position": "3k^3/P6/7/7/7/7/3K^3 / L/l"})
    promotions = {m.uci: env.encode_move(m) for m in env.game.legal_moves if m.choice}
    # Into a tiger (choice 1) or a catapult (choice 2): neighbouring actions.
    assert set(promotions) == {"a6a7t", "a6a7c"}
    assert promotions["a6a7c"] == promotions["a6a7t"] + 1
    assert promotions["a6a7t"] % 3 == 1
    obs, *_ = env.step(promotions["a6a7c"])
    assert env.game.move_stack[-1].text() == "a6-a7=C"
    # Makruk's compulsory promotion into a met is its one choice, 1.
    env = ChuheEnv(rules=GAMES / "makruk")
    env.reset(options={"position": "4k^3/8/8/P7/8/8/8/4K^3 / M/m"})
    (m,) = [m for m in env.game.legal_moves if m.from_square == "a5"]
    assert m.choice == 1 and env.encode_move(m) % 2 == 1


def _broken(tmp_path, change):
    game = tmp_path / "broken"
    shutil.copytree(GAMES / "minixiangqi", game)
    manifest = json.loads((game / "rules.json").read_text())
    change(manifest)
    (game / "rules.json").write_text(json.dumps(manifest))
    return game


def test_a_bad_directory_is_a_rules_error_naming_file_and_key(tmp_path):
    bad_rule = _broken(tmp_path, lambda m: m["royal"].update(rule="nonsense"))
    for api in ("gymnasium", "vector", "aec", "parallel"):
        with pytest.raises(chuhe.RulesError, match=r"rules\.json: royal\.rule: 'nonsense'"):
            chuhe.make_env(rules=bad_rule, api=api)
    bad_key = _broken(tmp_path / "k", lambda m: m["pieces"]["R"].update(valu=3))
    with pytest.raises(chuhe.RulesError, match=r"rules\.json: pieces\.R\.valu: unknown key"):
        ChuheVectorEnv(rules=bad_key, num_envs=2)
    with pytest.raises(chuhe.RulesError, match="cannot be read"):
        chuhe.load_rules(tmp_path / "nowhere")
    # A RulesError is a ValueError; other mistakes are named.
    assert issubclass(chuhe.RulesError, ValueError)
    with pytest.raises(ValueError, match="give a game or a rules directory"):
        ChuheEnv("xiangqi", rules=LANTERN)
    with pytest.raises(TypeError, match="rules=5"):
        ChuheEnv(rules=5)
    with pytest.raises(ValueError, match="api"):
        chuhe.make_env(rules=LANTERN, api="gym")


def test_random_games_of_the_invented_game_end_by_its_rules():
    """Lantern (examples/rules/lantern, invented for this) played to its end: random legal
    moves, no ply cap, until the rules end the game."""
    env = chuhe.make_env(rules=LANTERN)
    statuses = set()
    for seed in range(6):
        _, info = env.reset(seed=seed)
        terminated = truncated = False
        plies = 0
        while not (terminated or truncated):
            assert info["action_mask"].sum() > 0
            _, reward, terminated, truncated, info = env.step(env.sample_legal_action())
            plies += 1
        game = env.game
        assert terminated and not truncated and "illegal_action" not in info
        assert game.status in NATURAL, game.status
        assert len(game.move_stack) == plies
        # Self-play: the reward is the last mover's.
        last_mover = "second" if plies % 2 == 0 else "first"
        assert reward == (0.0 if game.winner is None else 1.0 if game.winner == last_mover else -1.0)
        statuses.add(game.status)
    assert statuses  # at least one natural end was seen


def test_states_games_and_pickles_carry_the_rules_directory():
    env = ChuheEnv(rules=LANTERN, opponent="random")
    env.reset(seed=4)
    for _ in range(6):
        env.step(env.sample_legal_action())
    copy = pickle.loads(pickle.dumps(env))
    assert copy.game.move_stack == env.game.move_stack
    state = pickle.loads(pickle.dumps(env.get_state()))
    assert state.game == "lantern" and state.moves == [m.uci for m in env.game.move_stack]
    fresh = ChuheEnv(rules=LANTERN)
    obs, info = fresh.set_state(state)
    assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
    # A Game of the rules game, by the name load_rules gives.
    name = chuhe.load_rules(LANTERN)
    assert name == "rules:" + str(LANTERN.resolve())
    game = chuhe.Game(name)
    assert game.game == "lantern" and len(game.legal_moves) == 23
    assert pickle.loads(pickle.dumps(env.game)).move_stack == env.game.move_stack
    assert chuhe.observe([game], game=name)[0].shape == (1, 12, 7, 7)
    # A state of another game is refused.
    with pytest.raises(ValueError, match="lantern"):
        ChuheEnv(rules=GAMES / "minixiangqi").set_state(state)


def test_the_engine_plays_a_rules_game_as_an_opponent_and_in_analysis():
    env = ChuheEnv(rules=LANTERN, opponent="engine", engine_nodes=200, agent_side="second")
    env.reset(seed=2)
    assert env.agent_side == "second" and len(env.game.move_stack) == 1
    env.step(env.sample_legal_action())
    assert len(env.game.move_stack) == 3
    analysis = chuhe.Engine().analyse(env.game, nodes=500)
    assert analysis.best in env.game.legal_moves
    # After a promotion: the engine is given the moves as the game writes them (a6a7t).
    game = chuhe.Game(chuhe.load_rules(LANTERN), "3k^3/P6/7/7/7/7/3K^3 / L/l")
    game.push("a6a7t")
    assert [m.uci for m in game.move_stack] == ["a6a7t"]
    assert chuhe.Engine().analyse(game, nodes=300).best in game.legal_moves
    restored = pickle.loads(pickle.dumps(game))
    assert restored.move_stack == game.move_stack and restored.feen == game.feen
