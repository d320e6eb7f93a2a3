"""scripts/fit_wdl.py: it recovers the parameters that generated the data, prints the Rust
constant, and names the line of a malformed input."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "fit_wdl.py"
spec = importlib.util.spec_from_file_location("fit_wdl", SCRIPT)
fit_wdl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit_wdl)

# The truth: a(x) = 300 − 100 x, b(x) = 120 + 60 x, x = material / 30.
A = np.array([300.0, -100.0])
B = np.array([120.0, 60.0])


def synthetic(n: int = 40_000, seed: int = 5):
    rng = np.random.default_rng(seed)
    material = rng.integers(2, 31, n).astype(float)
    score = rng.normal(0, 300, n).round()
    x = material / 30
    a, b = A[0] + A[1] * x, B[0] + B[1] * x
    pw = 1 / (1 + np.exp((a - score) / b))
    pl = 1 / (1 + np.exp((a + score) / b))
    u = rng.random(n)
    result = np.where(u < pw, 1.0, np.where(u < pw + pl, 0.0, 0.5))
    return material, score, result


def test_the_fit_recovers_the_generating_parameters():
    material, score, result = synthetic()
    ca, cb, ll = fit_wdl.fit(material, score, result, norm=30, degree=1)
    assert np.allclose(ca, A, atol=25), ca
    assert np.allclose(cb, B, atol=15), cb
    constant = fit_wdl.constant_ll(result, result)
    assert ll > constant + 0.2 * len(score)


def test_the_script_prints_the_constant_and_refuses_bad_lines(tmp_path):
    material, score, result = synthetic(n=6_000)
    data = tmp_path / "data.tsv"
    lines = ["# game ply material score result"]
    for i, (m, s, r) in enumerate(zip(material, score, result)):
        lines.append(f"{i // 100}\t{i % 100}\t{m:.0f}\t{s:.0f}\t{r:g}")
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(data), "--norm", "30", "--name", "TEST"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "pub const TEST: WdlModel = WdlModel {" in run.stdout
    assert "b > 0 and a >= 0 at every material 0..30: yes" in run.stdout
    assert "calibration" in run.stdout

    bad = tmp_path / "bad.tsv"
    bad.write_text("0\t1\t30\t20\t1\n0\t2\t30\t15\t0.7\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(bad), "--norm", "30"], capture_output=True, text=True
    )
    assert run.returncode != 0
    assert "bad.tsv:2: result 0.7 is not 1, 0.5 or 0" in run.stderr
    assert "Traceback" not in run.stderr
