"""Small Xiangqi positions with repetition cycles, for the perpetual-chase differential test.

A position has both generals and one to four other pieces a side, most of them near one point
so that they meet. A cycle is four plies, each side moving a piece and back (`m1 m2 r1 r2`),
played twice so that the position before it occurs for the third time; one or two random moves
may come first, so that the cycle does not always start at the given FEN. Moves are picked to
make chases likely: a move that attacks an enemy piece is preferred, and the reply often moves
the attacked piece away (the classic chase: the chaser follows it and both go back).

Legality comes from pyffish; the board is tracked here to tell quiet moves from captures.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pyffish as sf

VARIANT = "xiangqi"
FILES = "abcdefghi"
UCI_RE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
RED_ELEPHANT = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
RED_ADVISOR = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


@dataclass
class Cycle:
    fen: str
    moves: list  # UCI, prefix then the cycle twice
    prefix: int  # moves before the cycle


def square(f: int, r: int) -> str:
    return f"{FILES[f]}{r + 1}"


def parse(uci: str):
    m = UCI_RE.match(uci)
    return (FILES.index(m.group(1)), int(m.group(2)) - 1), (FILES.index(m.group(3)), int(m.group(4)) - 1)


def reverse(uci: str) -> str:
    (a, b) = parse(uci)
    return square(*b) + square(*a)


def fen_of(board: dict, red: bool) -> str:
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if red else " b") + " - - 0 1"


def on_board(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def attacks(board: dict, at) -> set:
    """Squares the piece on `at` could capture on (the movement rules, without check)."""
    p = board[at]
    red = p.isupper()
    kind = p.upper()
    f, r = at
    out = set()
    if kind in "RC":
        for df, dr in ORTHO:
            x, y, screens = f + df, r + dr, 0
            while on_board(x, y):
                if (x, y) in board:
                    if kind == "R" or screens == 1:
                        out.add((x, y))
                        break
                    screens += 1
                x, y = x + df, y + dr
    elif kind == "N":
        for df, dr in ORTHO:
            if on_board(f + df, r + dr) and (f + df, r + dr) not in board:
                for side in (-1, 1):
                    x, y = (f + 2 * df + side * dr, r + 2 * dr + side * df)
                    if on_board(x, y):
                        out.add((x, y))
    elif kind == "B":
        for df, dr in DIAG:
            x, y = f + 2 * df, r + 2 * dr
            if on_board(x, y) and (f + df, r + dr) not in board and (y <= 4) == red:
                out.add((x, y))
    elif kind == "A":
        for df, dr in DIAG:
            x, y = f + df, r + dr
            if 3 <= x <= 5 and (y <= 2 if red else y >= 7):
                out.add((x, y))
    return out


def threats(board: dict, at) -> set:
    """Enemy pieces other than the general that the piece on `at` attacks."""
    red = board[at].isupper()
    return {s for s in attacks(board, at)
            if s in board and board[s].isupper() != red and board[s].upper() != "K"}


def steps(board: dict, at) -> set:
    """Empty squares the piece on `at` might move to (roughly: no check, no soldiers)."""
    if board[at].upper() != "C":
        return {s for s in attacks(board, at) if s not in board}
    f, r = at
    out = set()
    for df, dr in ORTHO:
        x, y = f + df, r + dr
        while on_board(x, y) and (x, y) not in board:
            out.add((x, y))
            x, y = x + df, y + dr
    return out


def can_flee_and_be_caught(board: dict, chaser_move: str) -> bool:
    """After `chaser_move`, can a piece it attacks step where the chaser, back home, attacks
    it again?"""
    home, at = parse(chaser_move)
    for t in likely_chases(board, at):
        for y in steps(board, t):
            after = dict(board)
            after[y] = after.pop(t)
            after[home] = after.pop(at)
            if y in likely_chases(after, home):
                return True
    return False


def likely_chases(board: dict, at) -> set:
    """The pieces attacked from `at` that are probably chased: a chariot attacked by a horse
    or cannon, or a piece of another kind that nothing protects (pins ignored)."""
    kind = board[at].upper()
    out = set()
    for t in threats(board, at):
        target = board[t].upper()
        red = board[t].isupper()
        if target == "P" and (t[1] <= 4) == red:
            continue  # before the river
        if kind in "NC" and target == "R":
            out.add(t)
            continue
        if target == kind:
            continue
        rest = {s: p for s, p in board.items() if s != at}
        if not any(t in attacks(rest, s) for s, p in rest.items() if p.isupper() == red):
            out.add(t)
    return out


def position(rng: random.Random) -> dict:
    board = {(rng.randint(3, 5), rng.randint(0, 2)): "K", (rng.randint(3, 5), rng.randint(7, 9)): "k"}
    cf, cr = rng.randint(1, 7), rng.randint(2, 7)
    for side in (0, 1):
        for _ in range(rng.randint(1, 4)):
            role = rng.choice("RRNNCCPAB")
            for _try in range(20):
                if role == "A":
                    f, r = rng.choice(RED_ADVISOR)
                elif role == "B":
                    f, r = rng.choice(RED_ELEPHANT)
                elif rng.random() < 0.75:
                    f, r = cf + rng.randint(-2, 2), cr + rng.randint(-2, 2)
                else:
                    f, r = rng.randint(0, 8), rng.randint(0, 9)
                if role in "AB" and side == 1:
                    r = 9 - r
                if not on_board(f, r) or (f, r) in board:
                    continue
                if role == "P" and (r < 3 if side == 0 else r > 6):
                    continue
                board[(f, r)] = role if side == 0 else role.lower()
                break
    return board


def play(board: dict, uci: str) -> dict:
    a, b = parse(uci)
    board = dict(board)
    board[b] = board.pop(a)
    return board


def pick(rng, board, moves, chaser_move=None):
    """A quiet move, preferring ones that attack something. As the reply to `chaser_move`,
    preferring to move an attacked piece where the chaser, back on its square, attacks it
    again."""
    quiet = [m for m in moves if parse(m)[1] not in board]
    if not quiet:
        return None
    weights = []
    for m in quiet:
        after = play(board, m)
        w = 30 if likely_chases(after, parse(m)[1]) else 3 if threats(after, parse(m)[1]) else 1
        if w == 30 and not chaser_move and can_flee_and_be_caught(after, m):
            w = 300
        if chaser_move:
            home, chaser = parse(chaser_move)
            if parse(m)[0] in threats(board, chaser):
                w += 30
                if parse(m)[1] in threats(play(after, reverse(chaser_move)), home):
                    w += 300
        weights.append(w)
    return rng.choices(quiet, weights)[0]


def generals_face(board: dict) -> bool:
    (kf, kr), = [s for s, p in board.items() if p == "K"]
    (gf, gr), = [s for s, p in board.items() if p == "k"]
    return kf == gf and not any((kf, r) in board for r in range(kr + 1, gr))


def legal(fen, moves):
    return sf.legal_moves(VARIANT, fen, moves)


def cycle(rng: random.Random) -> Cycle | None:
    """One random cycle, or None when the attempt failed (the caller tries again)."""
    board = position(rng)
    if not any(p.upper() in "RNCP" for p in board.values()):
        return None  # bare generals end the game at once in chuhe (S5), not in pyffish
    red = rng.random() < 0.5
    fen = fen_of(board, red)
    # The side not to move may not be in check (pyffish would not refuse it).
    if generals_face(board) or sf.gives_check(VARIANT, fen_of(board, not red), []):
        return None
    moves = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        m = pick(rng, board, legal(fen, moves))
        if m is None:
            return None
        moves.append(m)
        board = play(board, m)
    prefix = len(moves)
    m1 = pick(rng, board, legal(fen, moves))
    if m1 is None:
        return None
    b1 = play(board, m1)
    m2 = pick(rng, b1, [m for m in legal(fen, moves + [m1]) if parse(m)[1] != parse(m1)[0]],
              chaser_move=m1)
    if m2 is None:
        return None
    r1, r2 = reverse(m1), reverse(m2)
    # Keep only some of the cycles that do not look like a chase (so that many are decisive).
    b3 = play(play(b1, m2), r1)
    if not likely_chases(b3, parse(r1)[1]) and rng.random() < 0.7:
        return None
    if r1 not in legal(fen, moves + [m1, m2]) or r2 not in legal(fen, moves + [m1, m2, r1]):
        return None
    # An earlier repetition (the cycle undoing the first moves) would end the game sooner.
    moves += [m1, m2, r1, r2] * 2
    if sf.is_optional_game_end(VARIANT, fen, moves[:-1])[0]:
        return None
    return Cycle(fen, moves, prefix)
