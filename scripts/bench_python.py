"""Measures random legal play with masks (see scripts/bench-python): chuhe's environments,
then, in the same run, gym-xiangqi and OpenSpiel's ``xiangqi`` where they install, each in
its own virtual environment under ``.bench/`` (made once, reused while it imports). Last, when
Ray RLlib and PyTorch import in this Python, a tiny PPO training (examples/rllib/train.py)
and its env steps per second."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from chuhe.envs import ChuheEnv
from chuhe.gym_xiangqi import GymXiangqiEnv
from chuhe.vector import ChuheVectorEnv

GAMES = ("xiongqi", "xiangqi", "xiangqi-capture")
ROOT = Path(__file__).resolve().parent.parent


def single(game: str, seconds: float, python_choice: bool) -> float:
    """Steps/s of one unwrapped env; the action is drawn in Rust (sample_legal_action) or in
    NumPy from info["action_mask"]."""
    env = ChuheEnv(game)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            if python_choice:
                a = rng.choice(np.flatnonzero(info["action_mask"]))
            else:
                a = env.sample_legal_action()
            _, _, term, trunc, info = env.step(a)
            if term or trunc:
                _, info = env.reset()
        steps += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def gym_compatible(seconds: float) -> float:
    """Steps/s of chuhe/GymXiangqi-v0 (gym-xiangqi's encodings over chuhe's rules), unwrapped,
    each action drawn from its legal actions as the gym-xiangqi reference does."""
    env = GymXiangqiEnv()
    rng = random.Random(0)
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(100):
            legal = env.legal_actions()
            _, _, term, trunc, _ = env.step(legal[rng.randrange(len(legal))])
            if term or trunc:
                env.reset()
        steps += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def vector(game: str, seconds: float, n: int, threads: int | None) -> tuple[float, float]:
    """Steps/s (all environments together) of the vector env, actions drawn in Rust, and the
    cores it had on average (the process's CPU time over the wall time)."""
    venv = ChuheVectorEnv(game, num_envs=n, threads=threads)
    venv.reset(seed=0)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for _ in range(10):
            venv.step(venv.sample_legal_actions())
        steps += 10 * n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, (time.process_time() - cpu) / elapsed


def mcts_rate(game: str, algorithm: str, seconds: float, n: int, simulations: int,
              threads: int | None, network=None) -> tuple[float, float, float]:
    """Simulations/s of chuhe.mcts over whole searches of ``n`` games (the moves chosen
    played, finished games restarted, the trees reused), the cores it had (CPU time over
    wall time), and the share of the wall time spent outside ``network`` (the trivial
    network when None)."""
    from chuhe import Game
    from chuhe.mcts import MCTS, uniform_network

    timed = [0.0]
    if network is None:
        network = uniform_network

    def timed_network(obs, mask):
        start = time.perf_counter()
        out = network(obs, mask)
        timed[0] += time.perf_counter() - start
        return out

    mcts = MCTS(game, algorithm=algorithm, simulations=simulations, threads=threads, seed=0)
    games = [Game(game) for _ in range(n)]
    searches, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        result = mcts.search(games, timed_network)
        searches += 1
        for i, (g, a) in enumerate(zip(games, result.actions)):
            g.play_action(int(a))
            if g.is_over() or len(g.move_stack) >= 200:
                games[i] = Game(game)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return (searches * n * simulations / elapsed,
                    (time.process_time() - cpu) / elapsed, 1 - timed[0] / elapsed)


def small_torch_network(game: str):
    """A small convolutional network in PyTorch on the CPU (three 3×3 convolutions of 32
    channels; a policy head of 1×1 convolutions giving every start square a logit per
    target square and choice, the actions' order, as examples/alphazero's; a value head), as
    ``network(obs, mask)`` for chuhe.mcts; or None when torch does not import."""
    try:
        import torch
    except ImportError:
        return None
    from chuhe import _chuhe

    files, ranks, planes, _choices, actions = _chuhe.env_spec(game)
    torch.manual_seed(0)
    nn = torch.nn
    body = nn.Sequential(
        nn.Conv2d(planes, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
    )
    policy = nn.Conv2d(32, actions // (files * ranks), 1)
    value = nn.Sequential(nn.Conv2d(32, 1, 1), nn.Flatten(), nn.Linear(files * ranks, 32),
                          nn.ReLU(), nn.Linear(32, 1), nn.Tanh())
    for m in (body, policy, value):
        m.eval()

    def network(obs, mask):
        with torch.no_grad():
            x = body(torch.from_numpy(obs))
            logits = policy(x).flatten(2).transpose(1, 2).reshape(len(obs), -1)
            return logits.numpy(), value(x).numpy()

    return network


# ---- the references ----------------------------------------------------------------------


@dataclass
class Reference:
    name: str  # as bench_python_refs.py knows it
    label: str
    venv: str  # under .bench/
    packages: list[str]
    probe: str  # Python code that succeeds once the reference is usable


REFERENCES = [
    # gym-xiangqi 0.5.0 imports gym and pygame; it predates gym 0.26 and NumPy 2.
    Reference(
        "gym-xiangqi",
        "gym-xiangqi",
        "venv-gym-xiangqi",
        ["gym-xiangqi", "gym<0.26", "numpy<2"],
        "import gym_xiangqi.envs.xiangqi_env",
    ),
    Reference(
        "open-spiel",
        "OpenSpiel xiangqi",
        "venv-open-spiel",
        ["open_spiel"],
        "import pyspiel; pyspiel.load_game('xiangqi')",
    ),
]

REF_ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def ensure(ref: Reference) -> tuple[Path | None, str]:
    """The Python of the reference's virtual environment, made and installed when it does not
    import yet; or None and why not."""
    venv = ROOT / ".bench" / ref.venv
    python = venv / "bin" / "python"

    def usable() -> bool:
        if not python.exists():
            return False
        r = subprocess.run(
            [str(python), "-c", ref.probe], env=REF_ENV, capture_output=True, timeout=120
        )
        return r.returncode == 0

    if usable():
        return python, "cached"
    print(f"  installing {ref.label} into .bench/{ref.venv} ({' '.join(ref.packages)}) ...",
          flush=True)
    try:
        r = subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(venv)], capture_output=True, text=True,
            timeout=300,
        )
        if r.returncode != 0:
            return None, f"python -m venv failed: {last_line(r.stderr + r.stdout)}"
        r = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--timeout", "20", "--retries", "1", *ref.packages],
            capture_output=True, text=True, timeout=900,
        )
        if r.returncode != 0:
            return None, f"pip install failed: {last_line(r.stderr + r.stdout)}"
        if not usable():
            r = subprocess.run(
                [str(python), "-c", ref.probe], env=REF_ENV, capture_output=True, text=True,
                timeout=120,
            )
            return None, f"installed but does not load: {last_line(r.stderr)}"
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"could not be installed: {e}"
    return python, "installed"


def measure_reference(ref: Reference, python: Path, seconds: float) -> tuple[dict | None, str]:
    """Runs the reference for `seconds` in its virtual environment: its result, or None and
    why not."""
    try:
        r = subprocess.run(
            [str(python), str(ROOT / "scripts" / "bench_python_refs.py"), ref.name, str(seconds)],
            env=REF_ENV, capture_output=True, text=True, timeout=seconds + 300,
        )
    except subprocess.TimeoutExpired:
        return None, "the measurement timed out"
    if r.returncode != 0:
        return None, f"the measurement failed: {last_line(r.stderr + r.stdout)}"
    return json.loads(r.stdout.strip().splitlines()[-1]), "measured"


# ---- a tiny training with Ray RLlib ------------------------------------------------------

RLLIB_TINY = [
    "--game", "xiangqi", "--env", "pettingzoo", "--iterations", "2", "--num-env-runners", "0",
    "--envs-per-runner", "4", "--batch-size", "1000", "--minibatch-size", "250",
    "--epochs", "1", "--channels", "32", "--blocks", "2", "--torch-threads", "1",
]


def rllib_missing() -> str | None:
    """What keeps the RLlib training from running in this Python, or None."""
    for module in ("torch", "ray"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed"
    if importlib.util.find_spec("ray.rllib") is None:
        return "ray is installed without RLlib"
    return None


def rllib_tiny() -> None:
    """Runs examples/rllib/train.py for two small iterations (self-play on the PettingZoo
    env, sampling in this process) and prints its lines: returns, lengths, steps/s."""
    print()
    missing = rllib_missing()
    if missing is not None:
        print(f"RLlib: skipped, {missing} in {sys.executable} "
              "(pip install -r examples/rllib/requirements.txt)")
        return
    command = [sys.executable, str(ROOT / "examples" / "rllib" / "train.py"), *RLLIB_TINY]
    print("RLlib, a tiny PPO training: examples/rllib/train.py " + " ".join(RLLIB_TINY),
          flush=True)
    start = time.perf_counter()
    r = subprocess.run(command, capture_output=True, text=True, timeout=900)
    ours = ("PPO on", "iter ", "done:")
    for line in r.stdout.splitlines():
        if line.startswith(ours):
            print(f"  {line}")
    if r.returncode != 0:
        print(f"  the training failed: {last_line(r.stderr + r.stdout)}")
        return
    print(f"  {time.perf_counter() - start:.1f} s in all, Python, Ray and torch start included")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load average {os.getloadavg()[0]:.1f}"
    return f"{cpu}, {os.cpu_count()} cores{load}, Python {platform.python_version()}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=2.0, help="per measurement and round")
    p.add_argument(
        "--rounds", type=int, default=3,
        help="every measurement is repeated this many times, in turn, and its best kept "
        "(a shared machine's load comes and goes)",
    )
    p.add_argument("--envs", type=int, default=512)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument(
        "--no-references", action="store_true",
        help="measure chuhe only (no gym-xiangqi, no OpenSpiel)",
    )
    p.add_argument(
        "--mcts", choices=("auto", "skip", "only"), default="auto",
        help="the batched search (chuhe.mcts) against OpenSpiel's MCTSBot: auto measures it "
        "after the environments, only measures it alone",
    )
    p.add_argument("--mcts-games", type=int, default=256, help="games searched in lockstep")
    p.add_argument("--mcts-simulations", type=int, default=200, help="simulations per search")
    p.add_argument(
        "--rllib", choices=("auto", "skip", "only"), default="auto",
        help="the tiny RLlib training: auto runs it after the measurements when ray[rllib] "
        "and torch import (and says why not otherwise), only runs it alone",
    )
    args = p.parse_args()
    if args.rllib == "only":
        print(f"machine: {machine()}")
        rllib_tiny()
        return
    threads = args.threads or os.cpu_count() or 1
    refs = [] if args.no_references else REFERENCES
    if args.mcts == "only":
        print(f"machine: {machine()}")
        bench_mcts(args, threads, refs)
        return
    print(f"machine: {machine()}")
    print(f"random legal play with masks, steps/s, the best of {args.rounds} rounds of "
          f"{args.seconds:g} s (vector env: {args.envs} envs, {threads} threads)")

    best: dict[str, float] = {}
    cores: dict[str, float] = {}
    versions: dict[str, str] = {}
    why_not: dict[str, str] = {}
    pythons: dict[str, Path] = {}

    def keep(key: str, value: float) -> None:
        best[key] = max(best.get(key, 0.0), value)

    if refs:
        print("references (each in its own virtual environment under .bench/):")
        for ref in refs:
            python, why = ensure(ref)
            if python is None:
                why_not[ref.name] = why
                print(f"  {ref.label}: not measured, {why}; the benchmark goes on without it")
            else:
                pythons[ref.name] = python
                print(f"  {ref.label}: {why}")
    for r in range(args.rounds):
        for game in GAMES:
            keep(f"{game}/single", single(game, args.seconds, python_choice=False))
            keep(f"{game}/numpy", single(game, args.seconds, python_choice=True))
            v, c = vector(game, args.seconds, args.envs, args.threads)
            if v > best.get(f"{game}/vector", 0.0):
                cores[game] = c
            keep(f"{game}/vector", v)
        if refs:
            keep("gym-compatible", gym_compatible(args.seconds))
        for ref in refs:
            if ref.name in why_not:
                continue
            result, why = measure_reference(ref, pythons[ref.name], args.seconds)
            if result is None:
                why_not[ref.name] = why
                print(f"  {ref.label}: not measured, {why}; the benchmark goes on without it")
                continue
            keep(ref.name, result["steps_per_s"])
            versions[ref.name] = result["version"]
        print(f"  round {r + 1} of {args.rounds} done", flush=True)

    print()
    print(f"{'game':16} {'env (Rust pick)':>16} {'env (NumPy pick)':>17} {'vector env':>14}"
          f" {'(cores used)':>13}")
    for game in GAMES:
        print(f"{game:16} {best[game + '/single']:16,.0f} {best[game + '/numpy']:17,.0f} "
              f"{best[game + '/vector']:14,.0f} {cores[game]:13.2f}")
    if refs:
        print()
        print("standard Xiangqi side by side, steps/s (ratio: chuhe / reference)")
        measured = [r for r in refs if r.name in versions]
        header = f"{'':44} {'steps/s':>12}"
        for r in measured:
            header += f" {'/ ' + r.label.split()[0]:>14}"
        print(header)
        rows = [
            ("chuhe env, unwrapped (Rust pick)", best["xiangqi/single"], True),
            ("chuhe env, unwrapped (NumPy pick from mask)", best["xiangqi/numpy"], True),
            (f"chuhe vector env ({args.envs} envs, {threads} thr.)", best["xiangqi/vector"], True),
            ("chuhe GymXiangqi-v0 (gym-xiangqi's coding)", best["gym-compatible"], True),
        ]
        rows += [(versions[r.name], best[r.name], False) for r in measured]
        for label, value, is_chuhe in rows:
            line = f"{label:44} {value:12,.0f}"
            if is_chuhe:
                for r in measured:
                    line += f" {value / best[r.name]:13,.1f}x"
            print(line)
        missing = [r.label for r in refs if r.name not in versions]
        if missing:
            print(f"(not measured: {', '.join(missing)}; see above)")

    if args.mcts == "auto":
        print()
        bench_mcts(args, threads, refs)
    if args.rllib == "auto":
        rllib_tiny()


def bench_mcts(args: argparse.Namespace, threads: int, refs: list[Reference]) -> None:
    """chuhe.mcts with the trivial network (uniform priors, value 0), PUCT and Gumbel, each
    game; OpenSpiel's MCTSBot on its own xiangqi in the same run; chuhe.mcts with a small
    torch network where torch imports, with the share of time outside the network."""
    n, sims = args.mcts_games, args.mcts_simulations
    print(f"batched MCTS (chuhe.mcts), simulations/s, the best of {args.rounds} rounds of "
          f"{args.seconds:g} s: {n} games in lockstep, {sims} simulations per search, "
          f"{threads} threads, the trivial network (uniform priors, value 0)")
    best: dict[str, tuple[float, float, float]] = {}
    ref = next((r for r in refs if r.name == "open-spiel"), None)
    python = None
    if ref is not None:
        python, why = ensure(ref)
        if python is None:
            print(f"  OpenSpiel: not measured, {why}")
    spiel: dict[str, float] = {}
    version = ""
    for _ in range(args.rounds):
        for game in GAMES:
            for algorithm in ("puct", "gumbel"):
                key = f"{game}/{algorithm}"
                got = mcts_rate(game, algorithm, args.seconds, n, sims, args.threads)
                if got[0] > best.get(key, (0.0,))[0]:
                    best[key] = got
        if python is not None:
            result, why = measure_reference(
                Reference("open-spiel-mcts", "OpenSpiel MCTSBot", ref.venv, ref.packages,
                          ref.probe), python, args.seconds)
            if result is None:
                print(f"  OpenSpiel MCTSBot: not measured, {why}")
                python = None
            else:
                version = result["version"]
                for k in ("python_trivial", "cpp_rollout"):
                    spiel[k] = max(spiel.get(k, 0.0), result[k])
    print(f"{'game':16} {'PUCT':>12} {'(cores)':>8} {'Gumbel':>12} {'(cores)':>8}")
    for game in GAMES:
        p, g = best[f"{game}/puct"], best[f"{game}/gumbel"]
        print(f"{game:16} {p[0]:12,.0f} {p[1]:8.2f} {g[0]:12,.0f} {g[1]:8.2f}")
    if spiel:
        print()
        print(f"standard Xiangqi against {version}'s MCTSBot on its own xiangqi "
              "(200 simulations per move), simulations/s (ratio: chuhe PUCT / OpenSpiel)")
        ours = best["xiangqi/puct"][0]
        for label, k in (("Python MCTSBot, the trivial evaluator", "python_trivial"),
                         ("C++ MCTSBot, RandomRolloutEvaluator(1)", "cpp_rollout")):
            print(f"  {label:44} {spiel[k]:12,.0f}   {ours / spiel[k]:10,.0f}x")
    network = small_torch_network("xiangqi")
    print()
    if network is None:
        print(f"small torch network: skipped, torch does not import in {sys.executable} "
              "(PYTHON=.bench/venv-sb3/bin/python scripts/bench-python --mcts only)")
        return
    import torch

    torch.set_num_threads(threads)
    for algorithm in ("puct", "gumbel"):
        rate, cores, outside = mcts_rate("xiangqi", algorithm, args.seconds * 2, n, sims,
                                         args.threads, network)
        print(f"xiangqi, {algorithm}, a small torch network (3 conv layers of 32, 1x1 "
              f"policy and value heads, torch "
              f"{torch.__version__}, {threads} threads): {rate:,.0f} simulations/s, "
              f"{outside:.1%} of the time outside the network")


if __name__ == "__main__":
    main()
