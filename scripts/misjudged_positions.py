"""Where chuhe's judgement and Fairy-Stockfish's part, in the Xiangqi games of a strength run.

For every game of RUN (a directory of PCN records from ``scripts/strength xiangqi``) that
ended by checkmate within ``--max-plies``, lost by chuhe (or, with ``--won``, won by it), the
positions 4, 10 and 20 plies before the mate are searched by both engines for ``--movetime``
milliseconds each, with the side to move of the mated position to move. Prints one line per
game and a summary: how much kinder chuhe's score is to that side than Fairy-Stockfish's.
The scales of two evaluations differ, so the summary points at positions worth reading; it
is not a measurement of either engine.

    python3 scripts/misjudged_positions.py target/strength/xiangqi-…/xiangqi \\
        --chuhe target/release/chuhe --fsf /usr/games/fairy-stockfish
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import statistics
import subprocess
import sys

MATE = 100_000
BACK = (4, 10, 20)


def shift_ranks(moves: str, by: int) -> str:
    """Coordinate moves (`h3e3`) with every rank moved by `by`: chuhe counts ranks from 1,
    Pikafish from 0 (`h2e2`)."""
    return re.sub(
        r"\b([a-i])(\d+)([a-i])(\d+)\b",
        lambda m: f"{m[1]}{int(m[2]) + by}{m[3]}{int(m[4]) + by}",
        moves,
    )


class UciEngine:
    """A UCI engine as a child process, set to standard Xiangqi. With `ranks_from_zero` its
    moves count ranks from 0 (Pikafish); they are translated both ways, so that callers see
    chuhe's coordinates only."""

    def __init__(self, cmd: list[str], movetime: int, ranks_from_zero: bool = False) -> None:
        self.movetime = movetime
        self.rank_shift = 1 if ranks_from_zero else 0
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.read_until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"the engine ended before '{prefix}'")

    def score(self, fen: str) -> tuple[int, int, str]:
        """(score for the side to move, mates as ±MATE; depth; best move)."""
        return self.go(f"fen {fen}", f"movetime {self.movetime}")

    def go(self, position: str, limit: str) -> tuple[int, int, str]:
        """A fresh search (`ucinewgame`) of `position fen … [moves …]` under a `go` limit:
        (the last exact score for the side to move, mates as ±MATE; its depth; best move)."""
        self.send("ucinewgame")
        if self.rank_shift and " moves " in position:
            head, moves = position.split(" moves ", 1)
            position = f"{head} moves {shift_ranks(moves, -self.rank_shift)}"
        self.send(f"position {position}")
        self.send(f"go {limit}")
        lines = self.read_until("bestmove")
        score, depth = 0, 0
        for line in lines:
            m = re.search(r"\bdepth (\d+)\b.*\bscore (cp|mate) (-?\d+)", line)
            if m and "bound" not in line:
                depth = int(m.group(1))
                value = int(m.group(3))
                score = value if m.group(2) == "cp" else (MATE if value > 0 else -MATE)
        return score, depth, shift_ranks(lines[-1].split()[1], self.rank_shift)

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def replay(chuhe: str, path: str) -> list[dict]:
    """Every ply of a PCN record (position, FEN, move, result), as `chuhe replay` prints it."""
    out = subprocess.run(
        [chuhe, "replay", "--game", "xiangqi", path], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def replayed_records(runs: list[str], chuhe: str):
    """Every PCN record of the strength runs `runs` (directories), in order, as
    (path, the side chuhe played, the replayed plies). A record that cannot be read or
    replayed is reported on stderr and left out."""
    for run in runs:
        for path in sorted(glob.glob(f"{run}/*.pcn")):
            try:
                with open(path, encoding="utf-8") as f:
                    record = json.load(f)
                side = chuhe_side(record)
                plies = replay(chuhe, path)
            except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
                    subprocess.CalledProcessError) as e:
                print(f"{path}: not a readable strength-run record ({e}); left out",
                      file=sys.stderr)
                continue
            yield path, side, plies


def chuhe_side(record: dict) -> str:
    """The side ("first" or "second") chuhe played in a record of a strength run."""
    return "first" if record["sides"]["first"]["name"] == "chuhe" else "second"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="directory of PCN records (chuhe against fairy-stockfish)")
    ap.add_argument("--chuhe", default="target/release/chuhe")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--movetime", type=int, default=500, help="milliseconds per search")
    ap.add_argument("--max-plies", type=int, default=100)
    ap.add_argument("--won", action="store_true", help="chuhe's wins instead of its losses")
    args = ap.parse_args()

    chuhe = UciEngine([args.chuhe, "uci"], args.movetime)
    fsf = UciEngine([args.fsf], args.movetime)
    gaps: dict[int, list[int]] = {b: [] for b in BACK}
    records = sorted(glob.glob(f"{args.run}/*.pcn"))
    if not records:
        print(f"no PCN records in {args.run}", file=sys.stderr)
        return 2
    for path in records:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        if record["meta"].get("termination") != "checkmate":
            continue
        if len(record["moves"]) >= args.max_plies:
            continue
        side = chuhe_side(record)
        plies = replay(args.chuhe, path)
        winner = plies[-1]["winner"]
        if (winner == side) != args.won:
            continue
        row = [path.rsplit("/", 1)[-1]]
        for back in BACK:
            i = len(plies) - 1 - back
            if i < 0:
                continue
            fen = plies[i]["fen"]
            c, f_ = chuhe.score(fen), fsf.score(fen)
            row.append(f"{back}: chuhe {c[0]} (d{c[1]} {c[2]}) fsf {f_[0]} (d{f_[1]} {f_[2]})")
            if abs(c[0]) < MATE and abs(f_[0]) < MATE:
                gaps[back].append(c[0] - f_[0])
        print(" | ".join(row), flush=True)
    chuhe.close()
    fsf.close()
    for back in BACK:
        g = gaps[back]
        if g:
            print(
                f"{back} plies before the mate: {len(g)} positions, chuhe kinder to the mated "
                f"side by {statistics.mean(g):.0f} cp on average (median {statistics.median(g):.0f}); "
                f"by 100 cp or more in {sum(x >= 100 for x in g)}, "
                f"harsher by 100 or more in {sum(x <= -100 for x in g)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
