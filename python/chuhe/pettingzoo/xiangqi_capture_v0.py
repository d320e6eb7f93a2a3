"""PettingZoo AEC environment of xiangqi-capture: ``env()`` (order enforced) and ``raw_env()``; see
:mod:`chuhe.pettingzoo._aec`."""

from ._aec import make_env

env, raw_env = make_env("xiangqi-capture", "chuhe_xiangqi_capture_v0")

__all__ = ["env", "raw_env"]
