"""How good chuhe's moves are, as Fairy-Stockfish judges them: a paired comparison of two
builds on the same positions, cheaper than a match (see docs/STRENGTH.md for what it
resolves).

``sample`` draws positions where chuhe was to move from the PCN records of strength runs
(``scripts/strength xiangqi``), between ``--from`` and ``--to`` plies, with a seed.

``judge`` has a chuhe binary choose its move in each (a fresh search of ``--nodes`` nodes,
``ucinewgame`` before each, so a build always makes the same choice), then has
Fairy-Stockfish search the position after that move to ``--depth`` and the position itself
(its best move's score). A move's loss is the best score minus the score after the move,
both for chuhe, clipped to 0..1000 cp (mates count ±2000). Fairy-Stockfish's verdicts are kept
in a cache file, so a second build pays only for the moves the first did not choose; two
builds differ only where they choose differently, which is what makes the comparison paired.
``--against`` (another build's ``--moves-out``) prints the mean difference of the losses with
its 95% interval.

    python3 scripts/move_quality.py sample target/strength/xiangqi-…/xiangqi --count 400 \\
        --out target/quality/positions.json
    python3 scripts/move_quality.py judge target/quality/positions.json \\
        --chuhe target/release/chuhe --nodes 300000 --depth 12 --moves-out old.json
    python3 scripts/move_quality.py judge target/quality/positions.json \\
        --chuhe NEW/chuhe --against old.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from misjudged_positions import UciEngine, replayed_records  # noqa: E402

CAP = 2000
MAX_LOSS = 1000


def sample(args: argparse.Namespace) -> int:
    found = []
    for path, side, plies in replayed_records(args.runs, args.chuhe):
        first = args.from_ply + (0 if side == "first" else 1)
        for i in range(first, min(args.to_ply, len(plies) - 1), 2):
            found.append({"fen": plies[i]["fen"], "game": path, "ply": i})
    if not found:
        raise SystemExit("no positions: no readable records of strength runs in " +
                         ", ".join(args.runs))
    rng = random.Random(args.seed)
    chosen = rng.sample(found, min(args.count, len(found)))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(chosen, f, indent=1)
    print(f"{len(chosen)} of {len(found)} positions written to {args.out}")
    return 0


def read_json(path: str, what: str):
    """The JSON in `path`; a SystemExit that names the file and says what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise SystemExit(f"{path}: not a readable {what} ({e})") from None


def read_moves(path: str, count: int) -> list[str]:
    """The moves of a `--moves-out` file, one for each of `count` positions."""
    moves = read_json(path, "moves file")
    if not isinstance(moves, list) or len(moves) != count:
        raise SystemExit(f"{path}: expected a list of {count} moves, one per position")
    return moves


def judge(args: argparse.Namespace) -> int:
    positions = read_json(args.positions, "positions file (from `sample`)")
    if not isinstance(positions, list) or not all(isinstance(p, dict) and "fen" in p
                                                  for p in positions):
        raise SystemExit(f"{args.positions}: expected a list of {{\"fen\": …}} entries")
    cache_path = args.cache or os.path.splitext(args.positions)[0] + f"-fsf-d{args.depth}.json"
    cache: dict[str, int] = {}
    if os.path.exists(cache_path):
        cache = read_json(cache_path, "verdict cache")
    other = read_moves(args.against, len(positions)) if args.against else None
    if args.moves_in:
        moves = read_moves(args.moves_in, len(positions))
    else:
        chuhe = UciEngine([args.chuhe, "uci"], 0)
        moves = [chuhe.go(f"fen {p['fen']}", f"nodes {args.nodes}")[2] for p in positions]
        chuhe.close()
    if args.moves_out:
        with open(args.moves_out, "w") as f:
            json.dump(moves, f)
    if args.pick_only:
        return 0
    fsf = UciEngine([args.fsf], 0)

    def verdict(position: str) -> int:
        score = fsf.go(position, f"depth {args.depth}")[0]
        return max(-CAP, min(CAP, score))

    def loss(p: dict, move: str) -> int:
        root_key = p["fen"]
        if root_key not in cache:
            cache[root_key] = verdict(f"fen {p['fen']}")
        key = f"{p['fen']} moves {move}"
        if key not in cache:
            cache[key] = -verdict(f"fen {p['fen']} moves {move}")
        return max(0, min(MAX_LOSS, cache[root_key] - cache[key]))

    losses = [loss(p, move) for p, move in zip(positions, moves)]
    if other is not None:
        other_losses = [loss(p, move) for p, move in zip(positions, other)]
    fsf.close()
    with open(cache_path, "w") as f:
        json.dump(cache, f)
    blunders = sum(1 for v in losses if v >= 100)
    print(
        f"{len(losses)} positions, {args.nodes} nodes a move: mean loss "
        f"{statistics.mean(losses):.1f} cp, median {statistics.median(losses):.0f}, "
        f"losses of 100 cp or more {blunders}"
    )
    if other is not None:
        diffs = [a - b for a, b in zip(losses, other_losses)]
        error = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        changed = sum(1 for a, b in zip(moves, other) if a != b)
        print(
            f"against {args.against}: mean loss {statistics.mean(other_losses):.1f} cp; "
            f"difference {statistics.mean(diffs):+.2f} ± {error:.2f} cp "
            f"(negative: this build's moves are better), other moves in {changed} positions"
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="draw positions from strength runs")
    s.add_argument("runs", nargs="+", help="directories of PCN records")
    s.add_argument("--out", required=True)
    s.add_argument("--count", type=int, default=400)
    s.add_argument("--from", dest="from_ply", type=int, default=10)
    s.add_argument("--to", dest="to_ply", type=int, default=120)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--chuhe", default="target/release/chuhe", help="for `chuhe replay`")
    j = sub.add_parser("judge", help="score a chuhe binary's moves")
    j.add_argument("positions", help="a file written by `sample`")
    j.add_argument("--chuhe", default="target/release/chuhe")
    j.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    j.add_argument("--nodes", type=int, default=300_000)
    j.add_argument("--depth", type=int, default=12)
    j.add_argument("--cache", help="Fairy-Stockfish's verdicts (default: beside the positions)")
    j.add_argument("--moves-out", help="write the chosen moves here (a JSON list)")
    j.add_argument("--moves-in", help="judge these moves (from --moves-out) instead of choosing")
    j.add_argument("--against", help="another build's chosen moves, for a paired difference")
    j.add_argument("--pick-only", action="store_true", help="choose the moves, judge nothing")
    args = ap.parse_args()
    return sample(args) if args.command == "sample" else judge(args)


if __name__ == "__main__":
    sys.exit(main())
