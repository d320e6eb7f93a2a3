"""Every ```python block of README.md runs as written, and prints what its comments say.

A block that imports torch or ray is skipped, with the reason, only when that package does
not import here; under CHUHE_REQUIRE_SB3=1 (scripts/test's Stable-Baselines3 venv) a missing
torch, stable-baselines3 or sb3-contrib is a failure instead."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
OPTIONAL = ("torch", "ray", "stable_baselines3", "sb3_contrib")
SB3 = ("torch", "stable_baselines3", "sb3_contrib")


def python_blocks() -> list[tuple[int, str]]:
    """The README's ```python blocks with the line each starts on."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M):
        line = text.count("\n", 0, match.start()) + 2
        blocks.append((line, match.group(1)))
    return blocks


BLOCKS = python_blocks()


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 2


def _missing_optional(code: str) -> list[str]:
    imported = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    return [
        name
        for name in OPTIONAL
        if name in imported and importlib.util.find_spec(name) is None
    ]


@pytest.mark.parametrize("line, code", BLOCKS, ids=[f"README.md:{n}" for n, _ in BLOCKS])
def test_readme_python_block_runs(line, code):
    missing = _missing_optional(code)
    if os.environ.get("CHUHE_REQUIRE_SB3") == "1":
        assert not set(missing) & set(SB3), f"README.md:{line} needs {missing}"
    if missing:
        pytest.skip(f"README.md:{line} imports {', '.join(missing)}, not installed here")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "__readme__"})
    # A `print(…)  # expected` line states its output: the printed line must equal it.
    printed = out.getvalue().splitlines()
    expected = [
        c.strip()
        for c in re.findall(r"^print\(.*?\)\s*#\s*(.+)$", code, re.M)
    ]
    for want in expected:
        assert want in printed, f"README.md:{line}: printed {printed!r}, not {want!r}"
