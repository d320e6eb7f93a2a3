"""PettingZoo AEC environments: ``xiongqi_v0``, ``xiangqi_v0``, ``xiangqi_capture_v0``."""

from . import xiangqi_capture_v0, xiangqi_v0, xiongqi_v0

__all__ = ["xiangqi_capture_v0", "xiangqi_v0", "xiongqi_v0"]
