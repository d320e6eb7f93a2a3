"""Shared set-up for the package tests: the chuhe binary for the differential test, and a
place of each test's own for Stable-Baselines3's logs."""

from __future__ import annotations

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def chuhe_bin() -> pathlib.Path:
    """CHUHE_BIN, or target/debug/chuhe of the repository."""
    env = os.environ.get("CHUHE_BIN")
    path = pathlib.Path(env) if env else REPO / "target" / "debug" / "chuhe"
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"the chuhe binary is missing: {path} (cargo build -p chuhe-cli, or set CHUHE_BIN)",
            pytrace=False,
        )
    return path


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stable-Baselines3 makes a log folder for every model that learns (`/tmp/SB3-<time>`
    unless `SB3_LOGDIR` names one): here it goes under the test's own temporary folder."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
