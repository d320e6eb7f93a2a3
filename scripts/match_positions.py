#!/usr/bin/env python3
"""Positions of recorded Xiangqi games, as tuning data.

Replays every PCN record under the given directories (the `xiangqi/` folders that
`scripts/strength` and `chuhe match --pcn-dir` write) with `chuhe replay`, and writes one line
per position in the tuner's data format (docs/TUNING.md):

    game<TAB>result<TAB>FEEN

`game` numbers the records in the order read (so the tuner's validation split stays by game),
`result` is the game's result for the first player (1, 0.5, 0). Positions of the first
`--skip` plies (the shared openings) and positions already written are left out.

    scripts/match_positions.py --chuhe target/release/chuhe --skip 8 \
        target/strength/xiangqi-*/xiangqi > target/tune/xiangqi-matches.txt
"""
import argparse
import json
import pathlib
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=pathlib.Path, help="folders of PCN records")
    ap.add_argument("--chuhe", default="target/release/chuhe", help="the chuhe binary")
    ap.add_argument("--game", default="xiangqi", help="the game of the records")
    ap.add_argument("--skip", type=int, default=8, help="opening plies left out")
    args = ap.parse_args()

    seen = set()
    game_no = 0
    written = 0
    for folder in args.dirs:
        for record in sorted(folder.glob("*.pcn")):
            try:
                pcn = json.loads(record.read_text())
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
                print(f"{record}: not a readable PCN record ({e}); left out", file=sys.stderr)
                continue
            winner = pcn.get("winner")
            if pcn.get("status") is None:
                continue  # an unfinished record has no result to learn from
            result = {"first": "1", "second": "0"}.get(winner, "0.5")
            replay = subprocess.run(
                [args.chuhe, "replay", "--game", args.game, str(record)],
                capture_output=True, text=True,
            )
            if replay.returncode != 0:
                print(f"{record}: {replay.stderr.strip()}", file=sys.stderr)
                continue
            game_no += 1
            for ply in json.loads(replay.stdout):
                if ply["ply"] < args.skip or ply["status"] is not None:
                    continue
                feen = ply["position"]
                if feen in seen:
                    continue
                seen.add(feen)
                print(f"{game_no}\t{result}\t{feen}")
                written += 1
    print(f"{game_no} games, {written} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
