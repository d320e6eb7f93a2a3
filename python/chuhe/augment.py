"""Left-right mirroring of observations, actions and masks, for data augmentation.

Mirroring maps file ``f`` to ``FILES - 1 - f`` on every plane and in both squares of an
action (the choice, a promotion, is kept). Each function is its own inverse. Standard
Xiangqi's rules and start position are left-right symmetric, so a mirrored position is as
legal as the original and the mirrored mask is the mask of the mirrored position (the
tests check this on positions of random games). Xiongqi's start position is not symmetric
(its advisor and general stand on d and e): a mirrored Xiongqi sample is a position the
game could reach only in principle.

Each function takes one sample or a batch (leading axes are kept)::

    from chuhe import augment
    obs_m = augment.mirror_observation(obs)              # [..., planes, ranks, files]
    act_m = augment.mirror_action(action, "xiangqi")     # int or int array
    mask_m = augment.mirror_mask(mask, "xiangqi")        # [..., actions]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._chuhe import env_spec

__all__ = ["mirror_action", "mirror_mask", "mirror_observation"]


def mirror_observation(obs: np.ndarray) -> np.ndarray:
    """The observation (or batch) with its files reversed: ``obs[..., ::-1]``, a copy."""
    return np.ascontiguousarray(np.asarray(obs)[..., ::-1])


@lru_cache(maxsize=None)
def _permutation(game: str) -> np.ndarray:
    files, ranks, _planes, choices, actions = env_spec(game)
    squares = files * ranks
    a = np.arange(actions, dtype=np.int64)
    choice = a % choices
    pair = a // choices
    frm, to = pair // squares, pair % squares

    def flip(sq: np.ndarray) -> np.ndarray:
        return (sq // files) * files + (files - 1 - sq % files)

    perm = (flip(frm) * squares + flip(to)) * choices + choice
    perm.setflags(write=False)
    return perm


def mirror_action(action, game: str):
    """The mirrored action (an int, or an int array of any shape) of ``game``."""
    perm = _permutation(game)
    a = np.asarray(action)
    if a.dtype.kind not in "iu":
        raise TypeError(f"action {action!r} is not an integer (or integer array)")
    if a.size and (a.min() < 0 or a.max() >= perm.size):
        raise ValueError(f"action {action!r} is outside the action space Discrete({perm.size})")
    out = perm[a]
    return int(out) if out.ndim == 0 else out


def mirror_mask(mask: np.ndarray, game: str) -> np.ndarray:
    """The mask (or batch of masks, actions on the last axis) of the mirrored position."""
    perm = _permutation(game)
    m = np.asarray(mask)
    if m.shape[-1:] != perm.shape:
        raise ValueError(f"mask of shape {m.shape}: the last axis must hold {perm.size} actions")
    # The permutation is an involution: entry a of the mirror is entry mirror(a).
    return m[..., perm]
