"""PettingZoo AEC environment of xiongqi: ``env()`` (order enforced) and ``raw_env()``; see
:mod:`chuhe.pettingzoo._aec`."""

from ._aec import make_env

env, raw_env = make_env("xiongqi", "chuhe_xiongqi_v0")

__all__ = ["env", "raw_env"]
