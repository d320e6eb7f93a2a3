"""The moves that lost chuhe its Xiangqi games against an anchor engine, as a test suite.

``find`` reads the PCN records of strength runs (``scripts/strength xiangqi`` or
``pikafish``) and, in every game chuhe lost, has a judge engine (``--judge``: Fairy-Stockfish
by default, or Pikafish-HCE with ``--judge-ranks-from-zero``) score each position where chuhe
was to move (``--movetime`` ms, scores for chuhe). A move is kept when the score two plies
later is at least ``--drop`` cp lower, the game was not already lost (score above −150) and
the judge preferred another move (scores capped at ±2000, so a mate counts as a large score).
The scan starts after the opening's first eight plies and stops once the game is lost (below
−400). Writes a JSON list of {fen, played, judge_best, before, after, game, ply} (files
written before the judge could be chosen call the judge's move ``fsf_best``).

``check`` asks a chuhe binary for its move in each of those positions (a fresh search of
``--movetime`` ms) and counts how often it still plays the losing move, and how often it plays
the judge's.

    python3 scripts/lost_moves.py find target/strength/xiangqi-…/xiangqi --out lost.json
    python3 scripts/lost_moves.py find target/strength/pikafish-…/pikafish --out lost.json \\
        --judge target/anchors/Pikafish-HCE/src/pikafish --judge-ranks-from-zero
    python3 scripts/lost_moves.py check lost.json --chuhe target/release/chuhe --movetime 400
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from misjudged_positions import UciEngine, replayed_records  # noqa: E402

LOST = -400
NOT_YET_LOST = -150
SCORE_CAP = 2000
OPENING_PLIES = 8


def find(args: argparse.Namespace) -> int:
    judge = UciEngine([args.judge], args.movetime, args.judge_ranks_from_zero)
    found = []
    for path, side, plies in replayed_records(args.runs, args.chuhe):
        if plies[-1]["winner"] in (None, "none", side):
            continue
        previous = None
        first = OPENING_PLIES + (0 if side == "first" else 1)
        for i in range(first, len(plies) - 1, 2):
            score, _, best = judge.score(plies[i]["fen"])
            score = max(-SCORE_CAP, min(SCORE_CAP, score))
            if previous is not None:
                j, before, judge_best = previous
                played = plies[j]["move"]["uci"]
                if before > NOT_YET_LOST and before - score >= args.drop and played != judge_best:
                    found.append(
                        {
                            "fen": plies[j]["fen"],
                            "played": played,
                            "judge_best": judge_best,
                            "before": before,
                            "after": score,
                            "game": path,
                            "ply": j,
                        }
                    )
                    print(f"{path} ply {j}: {played} ({before} -> {score}), "
                          f"the judge {judge_best}", flush=True)
            if score < LOST:
                break
            previous = (i, score, best)
    judge.close()
    with open(args.out, "w") as f:
        json.dump(found, f, indent=1)
    print(f"{len(found)} losing moves written to {args.out}")
    return 0


def check(args: argparse.Namespace) -> int:
    with open(args.suite, encoding="utf-8") as f:
        suite = json.load(f)
    chuhe = UciEngine([args.chuhe, "uci"], args.movetime)
    repeated = agreed = 0
    for row in suite:
        _, _, best = chuhe.score(row["fen"])
        repeated += best == row["played"]
        agreed += best == row.get("judge_best", row.get("fsf_best"))
    chuhe.close()
    print(f"{len(suite)} positions at {args.movetime} ms: the losing move {repeated}, "
          f"the judge's move {agreed}, another move {len(suite) - repeated - agreed}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("find", help="find the losing moves of strength runs")
    f.add_argument("runs", nargs="+", help="directories of PCN records")
    f.add_argument("--out", required=True, help="the JSON file to write")
    f.add_argument("--chuhe", default="target/release/chuhe", help="for `chuhe replay`")
    f.add_argument("--judge", "--fsf", default="/usr/games/fairy-stockfish",
                   help="the engine that scores the positions")
    f.add_argument("--judge-ranks-from-zero", action="store_true",
                   help="the judge's moves count ranks from 0 (Pikafish)")
    f.add_argument("--movetime", type=int, default=150)
    f.add_argument("--drop", type=int, default=150)
    c = sub.add_parser("check", help="how often a chuhe binary still plays the losing moves")
    c.add_argument("suite", help="a file written by `find`")
    c.add_argument("--chuhe", default="target/release/chuhe")
    c.add_argument("--movetime", type=int, default=400)
    args = ap.parse_args()
    return find(args) if args.command == "find" else check(args)


if __name__ == "__main__":
    sys.exit(main())
