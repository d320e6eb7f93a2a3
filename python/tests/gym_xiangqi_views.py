"""What the gym-xiangqi differential test compares, read the same way from gym-xiangqi 0.5.0's
env (in its own venv, by gym_xiangqi_games.py) and from chuhe's (by the test): both envs
have the same attributes, so one set of readers serves both. Needs only NumPy."""

from __future__ import annotations

import numpy as np


def legal(env) -> list[int]:
    """The side to move's legal actions."""
    actions = env.ally_actions if env.turn == 1 else env.enemy_actions
    return [int(a) for a in np.flatnonzero(actions == 1)]


def action_lists(env) -> tuple[list[int], list[int]]:
    """Both sides' action lists as the env holds them (after the end too)."""
    return (
        [int(a) for a in np.flatnonzero(env.ally_actions == 1)],
        [int(a) for a in np.flatnonzero(env.enemy_actions == 1)],
    )


def pieces(env) -> list[list[int]]:
    """Row, column and state of every piece object, the ally's then the enemy's."""
    return [[p.row, p.col, int(p.state)] for p in env.ally_piece[1:] + env.enemy_piece[1:]]


def by_piece(env) -> list:
    """``get_possible_actions_by_piece`` of the side to move's chariot and cannon (ids 8, 10)."""
    out = []
    for piece_id in (8, 10):
        env.get_possible_actions_by_piece(piece_id * env.turn)
        moves = (env.ally_piece if env.turn == 1 else env.enemy_piece)[piece_id].legal_moves
        out.append([[list(map(int, a)), list(map(int, b))] for a, b in moves])
    return out
