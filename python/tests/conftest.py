"""Shared set-up for the package tests: the chuhe binary for the differential test."""

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
