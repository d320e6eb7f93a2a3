"""chuhe's UCI engine driven as a GUI drives it, by a runner that is not chuhe's.

Games between `chuhe uci` and Debian's Fairy-Stockfish, refereed by pyffish: before every
move the side to move gets the whole game (`position fen … moves …`) and `go nodes N`, as
GUIs send it. The runner never stops a game where the rules would: it forces repetitions
(both sides shuffle a piece out and back, so the position occurs three times and more) and
starts some games with a half-move clock near the move limit, then plays on. Every
`bestmove` chuhe gives must be legal, by pyffish, in the position sent; `(none)` only where
pyffish has no legal move.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

pyffish = pytest.importorskip("pyffish")

VARIANT = "xiangqi"
GAMES = 100
MAX_PLIES = 60
NODES = 400
# Half-move clocks near the 60-move count (Fairy-Stockfish, 120 plies) and chuhe's 100-ply
# limit: the games cross both.
CLOCKS = (0, 95, 118)


def fairy_stockfish() -> str:
    """$FAIRY_STOCKFISH, `fairy-stockfish` on PATH or Debian's /usr/games one."""
    for path in (os.environ.get("FAIRY_STOCKFISH"), shutil.which("fairy-stockfish")):
        if path:
            return path
    if os.access("/usr/games/fairy-stockfish", os.X_OK):
        return "/usr/games/fairy-stockfish"
    pytest.fail(
        "Fairy-Stockfish is missing (scripts/test installs Debian's fairy-stockfish)",
        pytrace=False,
    )


class Gui:
    """The GUI's side of one engine: a child process spoken to in UCI."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.tell("uci")
        self.wait_for("uciok")
        self.tell(f"setoption name UCI_Variant value {VARIANT}")
        self.tell("ucinewgame")
        self.tell("isready")
        self.wait_for("readyok")

    def tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def wait_for(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        seen = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"the engine closed its output before '{word}': {seen[-5:]}")
            seen.append(line.rstrip("\n"))
            if line.split()[:1] == [word]:
                return seen

    def best_move(self, fen: str, moves: list[str]) -> tuple[str, list[str]]:
        """The engine's answer to the whole game so far: its move (or `(none)`) and lines."""
        self.tell(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.tell(f"go nodes {NODES}")
        lines = self.wait_for("bestmove")
        return lines[-1].split()[1], lines

    def close(self) -> None:
        self.tell("quit")
        self.proc.wait(timeout=20)


def reverse(move: str) -> str:
    """The move back: `h1g3` → `g3h1` (ranks may have two digits)."""
    files = [i for i, c in enumerate(move) if c.isalpha()]
    return move[files[1] :] + move[: files[1]]


def shuffle_moves(fen: str, moves: list[str]) -> list[str] | None:
    """Four plies that bring the position back: a quiet move of each side, then both back.
    None when none is found from here."""

    def quiet(line: list[str]):
        for m in sorted(pyffish.legal_moves(VARIANT, fen, line)):
            if not is_capture(fen, line, m) and not pyffish.gives_check(VARIANT, fen, line + [m]):
                yield m

    for first in quiet(moves):
        for second in quiet(moves + [first]):
            line = moves + [first, second]
            back = [reverse(first), reverse(second)]
            legal_back = pyffish.legal_moves(VARIANT, fen, line)
            if back[0] in legal_back and back[1] in pyffish.legal_moves(
                VARIANT, fen, line + back[:1]
            ):
                return [first, second] + back
    return None


def is_capture(fen: str, moves: list[str], move: str) -> bool:
    before = pyffish.get_fen(VARIANT, fen, moves).split()[0]
    after = pyffish.get_fen(VARIANT, fen, moves + [move]).split()[0]
    return sum(c.isalpha() for c in after) < sum(c.isalpha() for c in before)


def test_every_bestmove_is_legal_in_the_position_sent(chuhe_bin: pathlib.Path) -> None:
    chuhe = Gui([str(chuhe_bin), "uci"])
    fsf = Gui([fairy_stockfish()])
    past_end = 0  # chuhe moves asked for after the rules' end (repetition or move count)
    forced_cycles = 0
    try:
        for game in range(GAMES):
            start = pyffish.start_fen(VARIANT).split()
            start[4] = str(CLOCKS[game % len(CLOCKS)])
            fen = " ".join(start)
            moves: list[str] = []
            chuhe_plays = 0 if game % 2 == 0 else 1  # the side index chuhe has
            forced: list[str] = []
            while len(moves) < MAX_PLIES:
                legal = pyffish.legal_moves(VARIANT, fen, moves)
                if not legal:
                    break
                # Twice per game, a forced shuffle that repeats the position three times.
                if not forced and len(moves) in (6, 20):
                    cycle = shuffle_moves(fen, moves)
                    if cycle:
                        forced = cycle * 2
                        forced_cycles += 1
                if forced:
                    moves.append(forced.pop(0))
                    continue
                engine = chuhe if len(moves) % 2 == chuhe_plays else fsf
                best, lines = engine.best_move(fen, moves)
                if engine is chuhe:
                    ended, _ = pyffish.is_optional_game_end(VARIANT, fen, moves)
                    past_end += ended or pyffish.game_result(VARIANT, fen, moves) != 0
                    assert best in legal, (
                        f"game {game}, ply {len(moves)}: chuhe answered {best}, not legal in "
                        f"position fen {fen} moves {' '.join(moves)}; its lines: {lines[-3:]}"
                    )
                else:
                    assert best in legal, f"Fairy-Stockfish answered {best}: {lines[-3:]}"
                moves.append(best)
    finally:
        chuhe.close()
        fsf.close()
    # The runner really went past the rules' ends, many times.
    assert forced_cycles >= GAMES
    assert past_end >= GAMES
    print(f"\nGUI conformance: {GAMES} games, {forced_cycles} forced repetition cycles, "
          f"{past_end} chuhe moves asked for past the rules' end, every bestmove legal")
