"""PettingZoo environments of xiangqi: ``env()`` (AEC, order enforced), ``raw_env()`` and
``parallel_env()``; see :mod:`chuhe.pettingzoo._aec`."""

from ._aec import make_env, make_parallel_env

env, raw_env = make_env("xiangqi", "chuhe_xiangqi_v0")
parallel_env = make_parallel_env("xiangqi", "chuhe_xiangqi_v0")

__all__ = ["env", "parallel_env", "raw_env"]
