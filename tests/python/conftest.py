"""Shared set-up for the Python tests: the chuhe binary, pyffish, and a run summary."""

from __future__ import annotations

import collections
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# Verdicts of the random differential games, printed at the end of the run.
STATS: collections.Counter = collections.Counter()


def chuhe_path() -> pathlib.Path:
    """CHUHE_BIN, or target/debug/chuhe relative to the repository root."""
    env = os.environ.get("CHUHE_BIN")
    path = pathlib.Path(env) if env else REPO / "target" / "debug" / "chuhe"
    if not path.is_absolute():
        path = REPO / path
    return path


@pytest.fixture(scope="session")
def chuhe_bin() -> pathlib.Path:
    path = chuhe_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"the chuhe binary is missing: {path} (build it with `cargo build -p chuhe-cli`, "
            f"or point CHUHE_BIN at it)",
            pytrace=False,
        )
    return path


def pytest_sessionfinish(session):
    """Under pytest-xdist, a worker hands its verdicts to the controller, which prints them."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["chuhe_stats"] = dict(STATS)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_StatsFromWorkers())


class _StatsFromWorkers:
    """Adds up the verdicts of pytest-xdist's workers (controller side)."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        STATS.update(getattr(node, "workeroutput", {}).get("chuhe_stats", {}))


def pytest_terminal_summary(terminalreporter):
    xqf = ", ".join(f"{k[4:]}: {v}" for k, v in sorted(STATS.items()) if k.startswith("xqf "))
    if xqf:
        terminalreporter.write_line(f"xqf differential files: {xqf}")
    if any(not k.startswith("xqf ") for k in STATS):
        games = sum(v for k, v in STATS.items() if k.startswith("verdict "))
        parts = ", ".join(f"{k[8:]}: {v}" for k, v in sorted(STATS.items())
                          if k.startswith("verdict "))
        terminalreporter.write_line(f"xiangqi differential games: {games} ({parts})")
        notes = ", ".join(f"{k}: {v}" for k, v in sorted(STATS.items())
                          if not k.startswith(("verdict ", "xqf ")))
        if notes:
            terminalreporter.write_line(f"  {notes}")
