"""Differential test of chuhe's Chinese move notation against the `cchess` package (PyPI).

On random games (legal moves drawn with pyffish, the positions and chuhe's texts from one
`chuhe replay` per game), every move chuhe writes in Chinese is compared with the text cchess
writes for the same move on the same board, and cchess must read chuhe's text back as that
move. Run with

    pip install -r tests/python/requirements.txt
    cargo build -p chuhe-cli
    python -m pytest tests/python/test_xiangqi_cchess.py

The conventions in which the two differ, each allowed below and counted:

- Black's numbers: cchess writes full-width digits (马８进７), chuhe ASCII digits (马8进7);
  compared after turning full-width digits into ASCII.
- Four or five soldiers on one file: chuhe numbers them from the front (一兵 二兵 三兵 四兵,
  the traditional form for four or five), cchess writes 前 二 三 后 (前 二 三 四 后).
- Two or more files each holding two or more soldiers: chuhe writes the place and the file
  (前五进一, 后七平六), as the traditional notation does so that the text names one soldier;
  cchess writes the place and the piece (前兵进一), which does not say which file.
- Reading: cchess picks 前/后 among all pieces of the kind on the board, not on the file, so
  it reads 前兵/后兵 right only when the side has exactly two soldiers; and of two advisors or
  elephants on one file it tries only the first (仕六退五 fails when that one cannot go
  back). chuhe's other forms are read back.

Everything else must be equal: in particular front and rear (前车, 后马) whenever two pieces
of a kind share a file, whether or not the other could make the same-looking move, and the
file for advisors and elephants. Environment: CHUHE_BIN, CCHESS_DIFF_GAMES (default 80),
CCHESS_DIFF_SEED (default 7000).
"""

from __future__ import annotations

import collections
import json
import os
import random
import re
import subprocess

import pytest

try:
    import cchess
    import pyffish as sf
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail("cchess or pyffish is missing: pip install -r tests/python/requirements.txt",
                pytrace=False)

from xiangqi_oracle import START_FEN  # noqa: E402 (after the guarded imports)

START = START_FEN
N_GAMES = int(os.environ.get("CCHESS_DIFF_GAMES", "80"))
FIRST_SEED = int(os.environ.get("CCHESS_DIFF_SEED", "7000"))
PLY_CAP = 90
FULL_WIDTH = str.maketrans("１２３４５６７８９", "123456789")
RED_NUMERALS = "一二三四五六七八九"


def random_moves(seed: int) -> list[str]:
    """A random legal game from the start, in UCI coordinates; every other game prefers quiet
    soldier moves so that soldiers pile up on files."""
    rng = random.Random(seed)
    soldiers = seed % 2 == 1
    moves: list[str] = []
    fen = START
    for _ in range(PLY_CAP):
        legal = sf.legal_moves("xiangqi", fen, [])
        if not legal:
            break
        choice = legal
        if soldiers and rng.random() < 0.8:
            board = board_of(fen)
            quiet = [m for m in legal
                     if board.get(square(m)) in ("P", "p") and destination(m) not in board]
            choice = quiet or legal
        move = rng.choice(choice)
        moves.append(move)
        fen = after(fen, move)
    return moves


def after(fen: str, uci: str) -> str:
    """The FEN (placement and side to move) after a legal move."""
    board = board_of(fen)
    board[destination(uci)] = board.pop(square(uci))
    rows = []
    for rank in range(10, 0, -1):
        row, empty = "", 0
        for file in range(9):
            piece = board.get((file, rank))
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    turn = "b" if fen.split()[1] == "w" else "w"
    return f"{'/'.join(rows)} {turn} - - 0 1"


def square(text: str) -> tuple[int, int]:
    """The origin of a UCI move (`h3e3`, `b10b3`) as (file, rank from 1)."""
    m = re.match(r"([a-i])(\d+)", text)
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def destination(uci: str) -> tuple[int, int]:
    """The destination of a UCI move as (file, rank from 1)."""
    m = re.match(r"[a-i]\d+([a-i])(\d+)$", uci)
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def board_of(fen: str) -> dict:
    board = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, 10 - row)] = ch
                file += 1
    return board


def replay(chuhe_bin, moves: list[str]) -> list[dict]:
    """chuhe's plies for the moves, cut where chuhe's rules end the game earlier."""
    while True:
        proc = subprocess.run(
            [str(chuhe_bin), "replay", "--game", "xiangqi", "--position", START, "--moves",
             " ".join(moves), "--notation", "uci"],
            capture_output=True, text=True, timeout=60)
        if proc.returncode == 0:
            return json.loads(proc.stdout)
        found = re.search(r"at ply (\d+): .*game is over", proc.stderr)
        if not found:
            pytest.fail(f"chuhe replay failed: {proc.stderr}", pytrace=False)
        moves = moves[: int(found.group(1)) - 1]


def soldiers_by_file(board: dict, red: bool) -> collections.Counter:
    piece = "P" if red else "p"
    return collections.Counter(f for (f, _), p in board.items() if p == piece)


def allowed_difference(chuhe_text: str, board: dict, red: bool, piece: str) -> str | None:
    """The documented convention that explains a different text, or None."""
    if piece not in "Pp":
        return None
    counts = soldiers_by_file(board, red)
    if sum(1 for n in counts.values() if n >= 2) >= 2:
        return "several files with two or more soldiers"
    if max(counts.values()) >= 4:
        return "four or five soldiers on a file"
    return None


def test_chinese_notation_agrees_with_cchess(chuhe_bin):
    stats = collections.Counter()
    errors = []
    for seed in range(FIRST_SEED, FIRST_SEED + N_GAMES):
        plies = replay(chuhe_bin, random_moves(seed))
        for ply in plies:
            move = ply.get("move")
            if not move:
                continue
            fen, text, iccs, wxf = ply["fen"], move["chinese"], move["iccs"], move["wxf"]
            board = board_of(fen)
            red = fen.split()[1] == "w"
            p_from, p_to = cchess.iccs2pos(iccs)
            theirs_board = cchess.ChessBoard(fen)
            if not theirs_board.is_valid_move(p_from, p_to):
                errors.append(f"{fen}: cchess refuses {iccs} ({text})")
                continue
            # The move as cchess describes it (a Move without playing it: no mate search).
            theirs = cchess.Move(theirs_board, p_from, p_to)
            their_text = theirs.to_text().translate(FULL_WIDTH)
            piece = board[(p_from[0], p_from[1] + 1)]
            stats["moves"] += 1
            if their_text == text:
                if text[0] in "前后" and wxf[1].isdigit():
                    # Front and rear where WXF writes the file: the other piece could not
                    # make the same-looking move (the case this convention is about).
                    stats["front/rear where WXF writes the file"] += 1
            else:
                why = allowed_difference(text, board, red, piece)
                if why is None:
                    errors.append(f"{fen}: {iccs}: chuhe {text}, cchess {their_text}")
                    continue
                stats[why] += 1
                continue
            # cchess reads chuhe's text back, except 前/后 soldiers beside other soldiers.
            side_soldiers = sum(soldiers_by_file(board, red).values())
            if text[0] in "前后中" and piece in "Pp" and side_soldiers != 2:
                stats["not read back: soldiers elsewhere"] += 1
                continue
            same_file = sum(1 for (f, _), p in board.items() if f == p_from[0] and p == piece)
            if piece in "AaBb" and same_file == 2:
                stats["not read back: two advisors or elephants on a file"] += 1
                continue
            read = cchess.Move.from_text(theirs_board, text)
            if read is None or tuple(read) != (p_from, p_to):
                got = None if read is None else cchess.pos2iccs(*read)
                errors.append(f"{fen}: cchess reads chuhe's {text} as {got}, not {iccs}")
            else:
                stats["read back by cchess"] += 1
        if len(errors) >= 8:
            break
    print("\ncchess differential:", dict(stats))
    assert not errors, "\n".join(errors[:8])
    assert stats["moves"] > 3000, stats
    assert stats["front/rear where WXF writes the file"] > 0, stats
    assert stats["read back by cchess"] > 0, stats
