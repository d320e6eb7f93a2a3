"""PettingZoo AEC environment of xiangqi: ``env()`` (order enforced) and ``raw_env()``; see
:mod:`chuhe.pettingzoo._aec`."""

from ._aec import make_env

env, raw_env = make_env("xiangqi", "chuhe_xiangqi_v0")

__all__ = ["env", "raw_env"]
