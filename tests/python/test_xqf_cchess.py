"""Differential test of chuhe's XQF reader against the `cchess` package (PyPI, its
`read_from_xqf`).

XQF files are written by `xqf_writer.py` (this folder), from the public description of the
format: version 10 (XQF 1.0, not encrypted) and versions 11 to 18 (encrypted, random keys).
The games are random legal games drawn with pyffish, half from the start position and half
from a position reached by random play (pieces missing, Red or Black to move), with Chinese
comments, header texts and results, and in about half of them variations (some nested).
Each file is read by cchess and by `chuhe replay FILE` and `chuhe record FILE --to pcn`,
and both must give what was written:

- the start position (placement and side to move) and the main line, compared in ICCS;
- the comment before the first move and the comment of every main-line move;
- the number of lines (cchess: `dump_iccs_moves`; chuhe: 1 + the variations of its PGN
  notes, nested ones counted by their parentheses);
- the header's title, event, Red's and Black's names and the result (cchess: `info`;
  chuhe: PCN `meta.event`, `sides`, `meta.pgn.Title`, `status`/`winner`).

No difference is allowed; where the two could differ, the writer keeps to what both do:

- The side to move is not in the file: both take the side of the piece the first move moves
  (Red when there is no move), so every game from a Black-to-move position has a move.
- chuhe checks the header's result against the rules (a mate must be the mate's winner), and
  keeps one the position does not show as declared (a win as a resignation, a draw as an
  agreement); cchess keeps the result byte as text. The writer writes the mate's winner after
  a mate, and any result otherwise; compared as the winner (or none).
- Random lines stop before a position comes again, so no repetition rule ends a game (cchess
  has none, chuhe applies Xiangqi's).

Environment: CHUHE_BIN, XQF_DIFF_FILES (default 200), XQF_DIFF_SEED (default 9100).
"""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess

import pytest

import xqf_writer
from conftest import STATS

try:
    import cchess
    import pyffish as sf
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail("cchess or pyffish is missing: pip install -r tests/python/requirements.txt",
                pytrace=False)

from xiangqi_oracle import START_FEN  # noqa: E402 (after the guarded imports)

START = START_FEN
N_FILES = int(os.environ.get("XQF_DIFF_FILES", "200"))
FIRST_SEED = int(os.environ.get("XQF_DIFF_SEED", "9100"))
WORDS = ["好棋", "失误", "攻势", "弃子", "先手", "均势", "good", "note 1", "红优", "黑方反击"]
NAMES = ["柳大华", "吕钦", "胡荣华", "许银川", "Li", "Wang Tianyi", "赵国荣"]


def play(fen: str, moves: list[str]) -> str:
    """The FEN (placement and side to move) after legal moves: a move only carries a piece
    (Xiangqi has no other kind), so this is done here rather than by a pyffish call."""
    board = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        x = 0
        for ch in text:
            if ch.isdigit():
                x += int(ch)
            else:
                board[x * 10 + 9 - row] = ch
                x += 1
    for move in moves:
        frm, to = xqf_writer.move_points(move)
        board[to] = board.pop(frm)
    rows = []
    for y in range(9, -1, -1):
        row, empty = "", 0
        for x in range(9):
            piece = board.get(x * 10 + y)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    black = (fen.split()[1] == "b") != (len(moves) % 2 == 1)
    return f"{'/'.join(rows)} {'b' if black else 'w'} - - 0 1"


def random_line(rng: random.Random, fen: str, plies: int) -> list[str]:
    """Random legal moves from `fen`, stopping before a position would come again (so that
    no repetition rule ends the game)."""
    moves: list[str] = []
    seen = {" ".join(fen.split()[:2])}
    for _ in range(plies):
        legal = sf.legal_moves("xiangqi", fen, [])
        if not legal:
            break
        move = rng.choice(legal)
        fen = play(fen, [move])
        key = " ".join(fen.split()[:2])
        if key in seen:
            break
        seen.add(key)
        moves.append(move)
    return moves


def to_iccs(uci: str) -> str:
    frm, to = xqf_writer.move_points(uci)
    return f"{chr(97 + frm // 10)}{frm % 10}{chr(97 + to // 10)}{to % 10}"


def comment(rng: random.Random) -> str | None:
    return " ".join(rng.sample(WORDS, rng.randint(1, 3))) if rng.random() < 0.3 else None


def variation(rng: random.Random, fen: str, before: list[str], avoid: str,
              depth: int) -> xqf_writer.Node | None:
    """An alternative to `avoid` after `before`, continued a few moves (maybe with its own
    alternative)."""
    legal = [m for m in sf.legal_moves("xiangqi", fen, before) if m != avoid]
    if not legal:
        return None
    first = rng.choice(legal)
    rest = random_line(rng, play(fen, before + [first]), rng.randint(0, 4))
    nodes = [xqf_writer.Node(m, comment(rng)) for m in [first] + rest]
    for a, b in zip(nodes, nodes[1:]):
        a.children.append(b)
    if depth < 2 and len(nodes) > 1 and rng.random() < 0.4:
        inner = variation(rng, fen, before + [first], nodes[1].move, depth + 1)
        if inner:
            nodes[0].children.append(inner)
    return nodes[0]


def lines_of(node: xqf_writer.Node) -> int:
    """Leaves of the tree below (and with) a node: the number of lines."""
    stack, leaves = [node], 0
    while stack:
        n = stack.pop()
        leaves += not n.children
        stack.extend(n.children)
    return leaves


def make_game(seed: int) -> dict:
    rng = random.Random(seed)
    while True:
        fen = START
        if seed % 2:
            fen = play(START, random_line(rng, START, rng.randint(6, 16)))
        black = fen.split()[1] == "b"
        main = random_line(rng, fen, rng.randint(1 if black else 0, 30))
        if black and not main or sf.legal_moves("xiangqi", fen, []) == []:
            seed += 10_000
            continue
        break
    root = xqf_writer.Node(None, comment(rng))
    parent, nodes = root, []
    for m in main:
        node = xqf_writer.Node(m, comment(rng))
        parent.children.append(node)
        nodes.append((parent, node))
        parent = node
    for _ in range(rng.choice([0, 0, 1, 2])):
        if not main:
            break
        i = rng.randrange(len(main))
        alt = variation(rng, fen, main[:i], main[i], 0)
        if alt:
            nodes[i][0].children.append(alt)
    ended = not sf.legal_moves("xiangqi", fen, main)
    if ended:
        # The side that made the last move won.
        mover_red = (len(main) % 2 == 1) != (fen.split()[1] == "b")
        result = 1 if mover_red else 2
    else:
        result = rng.choice([0, 0, 1, 2, 3])
    texts = {
        "title": rng.choice(["中炮对屏风马", "仙人指路", "残局练习", ""]),
        "event": rng.choice(["全国象棋个人赛", "友谊赛", ""]),
        "date": "2001年4月16日",
        "site": rng.choice(["北京", "上海", ""]),
        "red": rng.choice(NAMES),
        "black": rng.choice(NAMES),
    }
    texts = {k: v for k, v in texts.items() if v}
    version = [10, 11, 12, 18, rng.randint(13, 17)][seed % 5]
    data = xqf_writer.write(version, fen, root, texts, result,
                            0 if fen == START else 3, rng)
    return {"fen": fen, "main": main, "root": root, "texts": texts, "result": result,
            "version": version, "data": data, "lines": lines_of(root) if main else 1}


def cchess_view(path: str) -> dict:
    game = cchess.read_from_xqf(path)
    moves = list(game.iter_moves())
    return {
        "fen": game.init_board.to_fen(),
        "main": [m.to_iccs() for m in moves],
        "comments": [game.annote] + [m.annote or None for m in moves],
        "lines": max(1, len(game.dump_iccs_moves())),
        "title": game.info.get("title"),
        "event": game.info.get("event"),
        "red": game.info.get("red"),
        "black": game.info.get("black"),
        "winner": {"1-0": "red", "0-1": "black", "1/2-1/2": "draw"}.get(game.info["result"]),
    }


def chuhe_view(chuhe_bin, path: str) -> dict:
    replay = subprocess.run([str(chuhe_bin), "replay", path, "--notation", "iccs"],
                            capture_output=True, text=True, timeout=60)
    record = subprocess.run([str(chuhe_bin), "record", path, "--to", "pcn"],
                            capture_output=True, text=True, timeout=60)
    if replay.returncode or record.returncode:
        return {"error": replay.stderr + record.stderr}
    plies = json.loads(replay.stdout)
    pcn = json.loads(record.stdout)
    notes = {a["ply"]: a for a in pcn.get("meta", {}).get("annotations", [])}
    comments = [(notes.get(i, {}).get("comments") or [None])[0] for i in range(len(plies))]
    variations = [v for a in notes.values() for v in a.get("variations", [])]
    sides = pcn.get("sides", {})
    status, winner = pcn.get("status"), pcn.get("winner")
    return {
        "fen": " ".join(plies[0]["fen"].split()[:2]),
        "main": [p["move"]["iccs"] for p in plies if p.get("move")],
        "comments": comments,
        "lines": 1 + len(variations) + sum(v.count("(") for v in variations),
        "title": pcn.get("meta", {}).get("pgn", {}).get("Title"),
        "event": pcn.get("meta", {}).get("event"),
        "red": sides.get("first", {}).get("name"),
        "black": sides.get("second", {}).get("name"),
        "winner": None if status in (None, "ongoing")
        else {"first": "red", "second": "black", "none": "draw"}.get(winner),
    }


def test_xqf_reading_agrees_with_cchess(chuhe_bin, tmp_path):
    stats = collections.Counter()
    mismatches = []
    for seed in range(FIRST_SEED, FIRST_SEED + N_FILES):
        game = make_game(seed)
        path = tmp_path / f"game-{seed}.xqf"
        path.write_bytes(game["data"])
        texts = game["texts"]
        written_comments = [game["root"].comment]
        node = game["root"]
        while node.children:
            node = node.children[0]
            written_comments.append(node.comment)
        expected = {
            "fen": " ".join(game["fen"].split()[:2]),
            "main": [to_iccs(m) for m in game["main"]],
            "comments": written_comments,
            "lines": game["lines"],
            "title": texts.get("title"),
            "event": texts.get("event"),
            "red": texts.get("red"),
            "black": texts.get("black"),
            "winner": {0: None, 1: "red", 2: "black", 3: "draw"}[game["result"]],
        }
        views = {"cchess": cchess_view(str(path)), "chuhe": chuhe_view(chuhe_bin, str(path))}
        stats[f"version {game['version']}"] += 1
        stats["variations"] += game["lines"] - 1
        stats["plies"] += len(game["main"])
        stats["custom start"] += game["fen"] != START
        for who, view in views.items():
            if "error" in view:
                mismatches.append(f"seed {seed} ({who}): {view['error'].strip()}")
                continue
            for key, want in expected.items():
                if view[key] != want:
                    mismatches.append(f"seed {seed} v{game['version']} {key}: {who} "
                                      f"{view[key]!r}, written {want!r}")
    STATS["xqf files"] = N_FILES  # printed by conftest.py at the end of the run
    for k, v in stats.items():
        STATS[f"xqf {k}"] = v
    STATS["xqf mismatches"] = len(mismatches)
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches[:20])
