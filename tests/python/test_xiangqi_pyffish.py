"""Differential test of chuhe's standard `xiangqi` rules against pyffish (Fairy-Stockfish).

What pyffish does, and why the expectations below are what they are, is written down in
docs/pyffish-xiangqi.md. Run with

    pip install -r tests/python/requirements.txt
    cargo build -p chuhe-cli
    python -m pytest tests/python

Environment: CHUHE_BIN (default target/debug/chuhe), XIANGQI_DIFF_GAMES (number of random
games, default 60), XIANGQI_DIFF_SEED (first seed, default 1000).

Per ply of every game the test compares chuhe's `replay --json` output with pyffish: the legal
moves (as sets; chuhe lists them sorted and lists none once the game is over), the FEN, the
check flag, the move texts (UCI, ICCS, PMN, WXF, SAN) and, at the last ply, the status and winner.
The one deliberate difference (docs/xiangqi-rules.md) is built in: chuhe ends the game on bare
generals (S5, status `insufficient`) where pyffish only reports has_insufficient_material.
Perpetual chases (S6) are judged by both alike (test_xiangqi_chase.py has the details).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess

import pytest

try:
    import pyffish as sf
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail("pyffish is not installed: pip install -r tests/python/requirements.txt",
                pytrace=False)

import xiangqi_oracle as xo
from conftest import REPO, STATS

V = xo.VARIANT
START = xo.START_FEN
N_GAMES = int(os.environ.get("XIANGQI_DIFF_GAMES", "60"))
FIRST_SEED = int(os.environ.get("XIANGQI_DIFF_SEED", "1000"))
STYLE_NAMES = sorted(xo.STYLES)
MAX_ERRORS = 8


# ---------------------------------------------------------------------------------------------
# Running chuhe


def run_chuhe(chuhe_bin, *args, check=True):
    proc = subprocess.run([str(chuhe_bin), *args], capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        pytest.fail(f"chuhe {' '.join(args)}\nexit {proc.returncode}\nstderr: {proc.stderr}",
                    pytrace=False)
    return proc


def replay(chuhe_bin, fen, moves, *extra, check=True):
    proc = run_chuhe(chuhe_bin, "replay", "--game", "xiangqi", "--position", fen,
                     "--moves", " ".join(moves), "--notation", "uci", "--json", *extra,
                     check=check)
    if not check:
        return proc
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        pytest.fail(f"chuhe replay printed no JSON ({e}): {proc.stdout[:500]!r}", pytrace=False)
    assert isinstance(data, list), f"replay must print one JSON array, got {type(data)}"
    return data


def nfold_args(rec):
    return () if rec.nfold == 3 else ("--repetition-count", str(rec.nfold))


# ---------------------------------------------------------------------------------------------
# Comparing one replay with the oracle record


class Differences:
    """Differences by kind, so that e.g. WXF noise does not hide a wrong status."""

    def __init__(self, header: str = ""):
        self.header = header
        self.by_kind: dict[str, list[str]] = {}

    def add(self, kind: str, text: str):
        self.by_kind.setdefault(kind, []).append(text)

    def __bool__(self):
        return bool(self.by_kind)

    def report(self) -> str:
        out = [self.header] if self.header else []
        order = ["plies", "status", "legal", "check", "fen", "halfmove", "ply", "game over"]
        kinds = sorted(self.by_kind, key=lambda k: (order.index(k) if k in order else 99, k))
        for kind in kinds:
            items = self.by_kind[kind]
            out.append(f"== {kind}: {len(items)} difference(s)")
            out.extend(items[:MAX_ERRORS])
            if len(items) > MAX_ERRORS:
                out.append(f"   ... {len(items) - MAX_ERRORS} more")
        return "\n".join(out)


def compare(rec: xo.GameRecord, plies: list) -> Differences:
    """All differences between chuhe's replay output and pyffish."""
    args = ["chuhe replay --game xiangqi --notation uci --json", *nfold_args(rec),
            f"--position '{rec.fen0}'", f"--moves '{rec.moves_str()}'"]
    diff = Differences(f"[{rec.label}] " + " ".join(args))

    def where(k):
        return f"ply {k} (FEN {rec.boards[k].fen()})"

    if len(plies) != rec.n + 1:
        diff.add("plies", f"replay printed {len(plies)} plies for {rec.n} moves")
        return diff
    final = xo.expected_verdict(rec, rec.n)
    for k, obj in enumerate(plies):
        board = rec.boards[k]
        if obj.get("ply") != k:
            diff.add("ply", f"{where(k)}: 'ply' is {obj.get('ply')!r}")
        if obj.get("fen") != board.fen():
            diff.add("fen", f"{where(k)}: chuhe FEN {obj.get('fen')!r}")
        if "halfmove" in obj and obj["halfmove"] != board.halfmove:
            diff.add("halfmove", f"{where(k)}: halfmove {obj['halfmove']!r}, "
                                 f"pyffish {board.halfmove}")
        verdict = final if k == rec.n else xo.Verdict(None, None)
        if (obj.get("status"), obj.get("winner")) != (verdict.status, verdict.winner):
            extra = f" (pyffish: {verdict.note})" if verdict.note else ""
            diff.add("status", f"{where(k)}: status/winner {obj.get('status')!r}/"
                               f"{obj.get('winner')!r}, expected {verdict.status!r}/"
                               f"{verdict.winner!r}{extra}")
        if verdict.status != "repetition" and obj.get("reason") is not None:
            diff.add("status", f"{where(k)}: reason {obj.get('reason')!r} without a repetition")
        if verdict.reason and obj.get("reason") != verdict.reason:
            diff.add("status", f"{where(k)}: reason {obj.get('reason')!r}, "
                               f"expected {verdict.reason!r}")
        legal = obj.get("legal")
        if not isinstance(legal, list):
            diff.add("legal", f"{where(k)}: 'legal' is {legal!r}")
        else:
            # once the game is over chuhe lists no legal move (pyffish keeps listing them
            # after a repetition or the 100-ply rule: those ends are "optional" there)
            want = [] if verdict.status else rec.legal[k]
            if legal != sorted(legal) or len(set(legal)) != len(legal):
                diff.add("legal", f"{where(k)}: legal moves not sorted/unique: {legal}")
            if set(legal) != set(want):
                only_pf = sorted(set(want) - set(legal))
                only_chuhe = sorted(set(legal) - set(want))
                diff.add("legal", f"{where(k)}: legal moves differ; only pyffish: {only_pf}; "
                                  f"only chuhe: {only_chuhe}")
        if obj.get("check") is not rec.in_check[k]:
            diff.add("check", f"{where(k)}: check {obj.get('check')!r}, "
                              f"pyffish {rec.in_check[k]}")
        move = obj.get("move")
        if k == rec.n:
            if move is not None:
                diff.add("move", f"{where(k)}: last ply has move {move!r}")
            continue
        uci = rec.moves[k]
        want_texts = {
            "uci": uci,
            "iccs": xo.uci_to_iccs(uci),
            "pmn": xo.uci_to_pmn(uci, rec.captures[k]),
            "wxf": rec.wxf[k],
            "san": rec.san[k],
        }
        if not isinstance(move, dict):
            diff.add("move", f"{where(k)}: move {move!r}, expected {want_texts}")
            continue
        for name, want in want_texts.items():
            if move.get(name) != want:
                diff.add(f"move {name}", f"{where(k)}: move {uci}: chuhe {move.get(name)!r}, "
                                         f"expected {want!r}")
    return diff


def check_game(chuhe_bin, rec: xo.GameRecord, extra_args=()):
    plies = replay(chuhe_bin, rec.fen0, rec.moves, *nfold_args(rec), *extra_args)
    diff = compare(rec, plies)
    verdict = xo.expected_verdict(rec, rec.n)
    if verdict.status == "insufficient":
        got = sf.has_insufficient_material(rec.variant, rec.fen0, rec.moves)
        if tuple(got) != (True, True):
            diff.add("oracle", f"S5 says insufficient but pyffish "
                               f"has_insufficient_material = {got}")
    if verdict.status and rec.legal[rec.n]:
        # a move after the end is an error
        after = rec.legal[rec.n][0]
        proc = replay(chuhe_bin, rec.fen0, rec.moves + [after], *nfold_args(rec), check=False)
        if proc.returncode == 0:
            diff.add("game over", f"chuhe accepted {after} after the game "
                                  f"ended ({verdict.status}) at ply {rec.n}")
    if diff:
        pytest.fail(diff.report(), pytrace=False)
    return plies, verdict


# ---------------------------------------------------------------------------------------------
# Random games


@pytest.mark.parametrize("index", range(N_GAMES))
def test_random_game(chuhe_bin, index):
    seed = FIRST_SEED + index
    style = STYLE_NAMES[index % len(STYLE_NAMES)]
    rec = xo.generate(seed, style)
    verdict = xo.expected_verdict(rec, rec.n)
    STATS[f"verdict {verdict.status or 'ply cap'}"
          f"{'/' + verdict.winner if verdict.winner not in (None, 'none') else ''}"] += 1
    if verdict.note == "chase":
        STATS["perpetual chases"] += 1
    check_game(chuhe_bin, rec)


# ---------------------------------------------------------------------------------------------
# Hand-written end-of-game cases (docs/pyffish-xiangqi.md has the same examples)

PERP = "3k5/4a4/9/9/4r4/9/9/9/R8/5K3 w - - 0 1"  # red chariot a2 against black general d10
C1 = ["d10d9", "a10a9", "d9d10", "a9a10"]  # every red move checks
C2 = ["d10d9", "a10a8", "d9d10", "a8a10"]  # a10a8 does not check


def expect(chuhe_bin, fen, moves, status, winner, *, nfold=3, variant=V, label=""):
    """Checks first that pyffish (through the oracle) gives `status`/`winner` at the last ply,
    then that chuhe agrees on every ply."""
    rec = xo.record_from_moves(fen, moves, variant=variant, nfold=nfold,
                               label=label or str(status))
    verdict = xo.expected_verdict(rec, rec.n)
    assert (verdict.status, verdict.winner) == (status, winner), (
        f"pyffish's verdict changed: {verdict} (is_optional_game_end {rec.opt.get(rec.n)})")
    plies, _ = check_game(chuhe_bin, rec)
    return rec, plies


def test_start_position_and_uci_format(chuhe_bin):
    assert sf.start_fen(V) == START
    legal = sf.legal_moves(V, START, [])
    assert len(legal) == 44 and "b3b10" in legal and "h3h10" in legal and "h1g3" in legal
    plies = replay(chuhe_bin, START, [])
    assert plies[0]["fen"] == START
    assert sorted(plies[0]["legal"]) == sorted(legal)


def test_threefold_repetition_is_a_draw_on_the_third_occurrence(chuhe_bin):
    rec, plies = expect(chuhe_bin, START, ["h1g3", "h10g8", "g3h1", "g8h10"] * 2,
                        "repetition", "none")
    assert all(p["status"] is None for p in plies[:-1])


def test_perpetual_check_loses(chuhe_bin):
    # the position after a2a10 occurs at plies 1, 5, 9; red checked with every move
    expect(chuhe_bin, PERP, ["a2a10"] + C1 + C1, "repetition", "second")


def test_perpetual_check_from_the_first_occurrence(chuhe_bin):
    # one quiet red move (a10a8) anywhere since the first occurrence makes it a draw
    expect(chuhe_bin, PERP, ["a2a10"] + C2 + C1, "repetition", "none", label="C2 C1")
    expect(chuhe_bin, PERP, ["a2a10"] + C1 + C2, "repetition", "none", label="C1 C2")


def test_perpetual_check_by_second_player_loses(chuhe_bin):
    # pyffish's own test: black checks with every move, red only with some
    expect(chuhe_bin, "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
           ["d7e7", "e5d5", "e7d7", "d5e5"] * 2, "repetition", "first")


def test_mutual_perpetual_check_is_a_draw(chuhe_bin):
    expect(chuhe_bin, "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
           ["e4d4", "d7e7", "d4e4", "e7d7"] * 2, "repetition", "none")


def test_perpetual_chase_loses(chuhe_bin):
    # S6 (AXF chasing, as pyffish judges it): the chariot chasing the horse loses
    fen = "3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1"
    moves = ["a2c2", "c8a7", "c2a2", "a7c8"] * 2
    assert sf.is_optional_game_end(V, fen, moves) == (True, -sf.VALUE_MATE)
    _, plies = expect(chuhe_bin, fen, moves, "repetition", "second")
    assert plies[-1]["reason"] == "perpetual chase"


def test_repetition_count_parameter(chuhe_bin):
    sf.load_variant_config("[xiangqi4fold:xiangqi]\nnFoldRule = 4\n")
    shuffle = ["h1g3", "h10g8", "g3h1", "g8h10"]
    assert sf.is_optional_game_end("xiangqi4fold", START, shuffle * 2)[0] is False
    expect(chuhe_bin, START, shuffle * 3, "repetition", "none", nfold=4,
           variant="xiangqi4fold", label="4-fold draw")
    expect(chuhe_bin, PERP, ["a2a10"] + C1 * 3, "repetition", "second", nfold=4,
           variant="xiangqi4fold", label="4-fold perpetual check")


def test_checkmate(chuhe_bin):
    expect(chuhe_bin, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", ["a1d1"], "checkmate", "first")


def test_stalemate_loses(chuhe_bin):
    expect(chuhe_bin, "3k5/9/2R6/9/9/9/9/9/9/4K4 w - - 0 1", ["c8c9"], "stalemate", "first")


def test_movelimit_counts_plies_since_capture(chuhe_bin):
    f99 = START.replace(" 0 1", " 99 50")
    expect(chuhe_bin, f99, ["h1g3"], "movelimit", "none", label="quiet move")
    expect(chuhe_bin, f99, ["c4c5"], "movelimit", "none", label="soldier move does not reset")
    rec, plies = expect(chuhe_bin, f99, ["h3h10"], None, None, label="capture resets")
    assert plies[-1]["fen"].endswith(" b - - 0 50")


def test_movelimit_from_the_fen_counter(chuhe_bin):
    expect(chuhe_bin, "3k5/9/2R6/9/9/9/9/9/9/4K4 w - - 120 1", [], "movelimit", "none")


def quiet_walk(fen, plies, seed):
    """A deterministic game without captures, checks or repeated positions."""
    rng = random.Random(seed)
    rec = xo.start_record(fen, label=f"quiet walk {seed}")
    seen = {rec.boards[0].key()}
    while rec.n < plies:
        k, board = rec.n, rec.boards[rec.n]
        cands = [m for m in rec.legal[k]
                 if not board.is_capture(m) and board.play(m).key() not in seen]
        rng.shuffle(cands)
        move = next(m for m in cands if not sf.gives_check(V, fen, rec.moves + [m]))
        xo.push(rec, move)
        seen.add(rec.boards[-1].key())
    return rec.moves


def test_movelimit_after_one_hundred_quiet_plies(chuhe_bin):
    fen = "3ak4/4a4/9/9/2n6/9/6N2/9/4A4/3AK4 w - - 0 1"
    moves = quiet_walk(fen, 100, seed=7)
    expect(chuhe_bin, fen, moves[:99], None, None, label="99 plies")
    expect(chuhe_bin, fen, moves, "movelimit", "none", label="100 plies")


def test_mate_on_the_hundredth_ply_wins(chuhe_bin):
    expect(chuhe_bin, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 1", ["a1d1"], "checkmate", "first")


def test_stalemate_on_the_hundredth_ply_is_a_movelimit_draw(chuhe_bin):
    # pyffish: the 100-ply rule yields only to checkmate, not to stalemate
    fen = "3k5/9/2R6/9/9/9/9/9/9/4K4 w - - 99 1"
    assert sf.is_optional_game_end(V, fen, ["c8c9"]) == (True, 0)
    assert sf.legal_moves(V, fen, ["c8c9"]) == []
    expect(chuhe_bin, fen, ["c8c9"], "movelimit", "none")


def test_movelimit_before_repetition_on_the_same_ply(chuhe_bin):
    # third occurrence (perpetual check by red) on the ply where the counter reaches 100
    expect(chuhe_bin, PERP.replace(" 0 1", " 91 1"), ["a2a10"] + C1 + C1, "movelimit", "none")
    expect(chuhe_bin, PERP.replace(" 0 1", " 90 1"), ["a2a10"] + C1 + C1, "repetition",
           "second", label="one ply earlier")


CHECK_ALLOWANCE_MOVES = (
    "a1a10 e10e9 a10a9 e9e10 a9e9 e10f10 e9f9 f10e10 f9f10 e10e9 f10f9 e9e8 f9e9 e8f8 e9e8 f8f9 "
    "e8e9 f9f10 e9e10 f10f9 e10f10 f9e9 f10e10 e9f9 e10a10 f9f8 a10a8 f8f9 a8a9 f9f8 a9c9 f8e8 "
    "c9c6 e8f8 c6a6 f8f9 a6a5 f9e9 a5a8 e9e10 a8b8 e10f10 b8b10 f10f9 d1d2 f9e9 b10b9 e9e10 b9b1 "
    "e10e9 b1f1 e9e10").split()


def test_movelimit_check_allowance(chuhe_bin):
    # counter 60 + 40 plies = 100 at ply 40, but red gave 14 checks (> 10): every check beyond
    # ten adds two plies; the game ends at ply 52 (counter 112, 16 checks: 112 - 12 = 100)
    fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 60 1"
    rec, plies = expect(chuhe_bin, fen, CHECK_ALLOWANCE_MOVES, "movelimit", "none")
    assert rec.boards[40].halfmove == 100 and plies[40]["status"] is None
    assert rec.n == 52 and rec.boards[52].halfmove == 112


def test_insufficient_material_ends_the_game(chuhe_bin):
    # the red general takes the last black soldier: only generals and an advisor remain
    fen = "5k3/4a4/9/9/9/9/9/9/9/3pK4 w - - 0 1"
    assert sf.has_insufficient_material(V, fen, []) == (True, False)  # (red, black)
    assert sf.has_insufficient_material(V, fen, ["e1d1"]) == (True, True)
    assert sf.is_optional_game_end(V, fen, ["e1d1"])[0] is False  # pyffish plays on
    rec, plies = expect(chuhe_bin, fen, ["e1d1"], "insufficient", "none")
    assert plies[0]["check"] is True


def test_illegal_move_is_an_error(chuhe_bin):
    proc = replay(chuhe_bin, START, ["h3e3", "h10h9"], check=False)
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(r"^illegal move 'h10h9' at ply 2: ", lines[0]), lines


def test_moves_command(chuhe_bin):
    moves = ["h3e3", "h10g8", "e3e7"]  # the cannon takes the e7 soldier
    proc = run_chuhe(chuhe_bin, "moves", "--game", "xiangqi", "--position", START,
                     "--moves", " ".join(moves), "--notation", "uci", "--json")
    obj = json.loads(proc.stdout)
    assert obj["game"] == "xiangqi"
    assert obj["fen"] == sf.get_fen(V, START, moves)
    assert obj["turn"] == "second"
    assert obj["halfmove"] == 0
    assert sorted(obj["moves"]) == sorted(sf.legal_moves(V, START, moves))
    assert obj["check"] is bool(sf.gives_check(V, START, moves))
    assert obj["status"] is None and obj["winner"] is None
    assert isinstance(obj["position"], str) and obj["position"].count("/") >= 9


def perft_records():
    records, current = [], None
    for line in (REPO / "data" / "perft-xiangqi.txt").read_text().splitlines():
        parts = line.split(None, 1)
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0] == "id":
            current = {"id": parts[1], "fen": None, "perft": {}}
            records.append(current)
        elif parts[0] == "fen":
            current["fen"] = parts[1]
        elif parts[0] == "perft":
            d, n = parts[1].split()
            current["perft"][int(d)] = int(n)
    return records


@pytest.mark.parametrize("record", perft_records(), ids=lambda r: r["id"])
def test_perft_small_depths(chuhe_bin, record):
    for depth, nodes in sorted(record["perft"].items()):
        if nodes > 100_000:
            break
        proc = run_chuhe(chuhe_bin, "perft", str(depth), "--game", "xiangqi", "--position",
                         record["fen"], "--json")
        obj = json.loads(proc.stdout)
        assert obj["depth"] == depth and obj["nodes"] == nodes, (record["id"], obj)
        assert "seconds" in obj and "nodes_per_second" in obj
        if depth == 1:
            assert nodes == len(sf.legal_moves(V, record["fen"], [])), record


# ---------------------------------------------------------------------------------------------
# WXF edge cases (FEN, UCI move, pyffish's WXF)

WXF_CASES = [
    # tandem chariots: +/- names the front/rear one, unless the other one's shifted target
    # square is off the board (then the file is written)
    ("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "a5a10", "R++5"),
    ("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "a1a3", "R-+2"),
    ("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "a5c5", "R+=7"),
    ("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "a1b1", "R-=8"),
    ("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "a5a2", "R9-3"),
    ("r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1", "a6a1", "R++5"),
    ("r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1", "a10a8", "R-+2"),
    ("r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1", "a6c6", "R+=3"),
    ("r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1", "a6a9", "R1-3"),
    ("r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1", "a6a7", "R1-1"),
    # tandem horses
    ("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1", "e4f6", "H++4"),
    ("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1", "e4g3", "H+-3"),
    ("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1", "e2c3", "H-+7"),
    ("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1", "e2c1", "H--7"),
    ("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w - - 0 1", "e4d2", "H5-6"),
    ("5k3/9/9/9/9/9/9/4N4/9/3KN4 w - - 0 1", "e3f1", "H5-4"),
    ("5k3/9/9/9/9/9/9/4N4/9/3KN4 w - - 0 1", "e1g2", "H-+3"),
    # tandem cannons
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b7b9", "C++2"),
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b3b5", "C-+2"),
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b7e7", "C+=5"),
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b3a3", "C-=9"),
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b3b1", "C--2"),
    ("3k5/9/9/1C7/9/9/9/1C7/9/4K4 w - - 0 1", "b7b4", "C8-3"),
    # two soldiers on one file
    ("3k5/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e7e8", "P++1"),
    ("3k5/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e7d7", "P+=6"),
    ("3k5/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e6f6", "P-=4"),
    ("4P4/3k5/9/4P4/9/9/9/9/9/4K4 w - - 0 1", "e7e8", "P5+1"),
    ("4P4/3k5/9/4P4/9/9/9/9/9/4K4 w - - 0 1", "e10f10", "P+=4"),
    # three soldiers on one file: index from the front + file, no letter
    ("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1", "e7d7", "15=6"),
    ("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1", "e6d6", "25=6"),
    ("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1", "e4e5", "35+1"),
    ("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1", "a4a5", "P9+1"),
    ("4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1", "e3e2", "15+1"),
    ("4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1", "e5f5", "35=6"),
    # two files with two soldiers each: the same index form on both files
    ("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1", "d8d9", "16+1"),
    ("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1", "d7e7", "26=5"),
    ("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1", "f7g7", "14=3"),
    ("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1", "f6e6", "24=5"),
    ("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1", "h7h8", "P2+1"),
    ("4k4/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b - - 0 1", "c5b5", "23=2"),
    ("4k4/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b - - 0 1", "e4e3", "15+1"),
    # advisors and elephants always name their file, even two on one file
    ("3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1", "c5e3", "E7-5"),
    ("3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1", "c1e3", "E7+5"),
    ("3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1", "c5a3", "E7-9"),
    ("3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1", "d1e2", "A6+5"),
    ("3k5/9/9/8p/9/2B6/9/3A5/9/2BAK4 w - - 0 1", "d3e2", "A6-5"),
    ("2bak4/9/3a5/9/2b6/9/8P/9/9/5K3 b - - 0 1", "c6e8", "E3-5"),
    ("2bak4/9/3a5/9/2b6/9/8P/9/9/5K3 b - - 0 1", "c10e8", "E3+5"),
    ("2bak4/9/3a5/9/2b6/9/8P/9/9/5K3 b - - 0 1", "d10e9", "A4+5"),
    ("2bak4/9/3a5/9/2b6/9/8P/9/9/5K3 b - - 0 1", "d8e9", "A4-5"),
    # generals; the opening moves of pyffish's own test
    ("3k5/9/9/8p/9/9/9/9/4K4/9 w - - 0 1", "e2e1", "K5-1"),
    ("3k5/9/9/8p/9/9/9/9/4K4/9 w - - 0 1", "e2f2", "K5=4"),
    ("9/4k4/9/9/9/9/P8/9/9/3K5 b - - 0 1", "e9e8", "K5+1"),
    (START, "h3e3", "C2=5"),
    (START, "h1g3", "H2+3"),
    (START, "c1e3", "E7+5"),
    (START, "h3h10", "C2+7"),
    (START, "a1a3", "R9+2"),
]


@pytest.mark.parametrize("fen,uci,wxf", WXF_CASES, ids=[f"{c[1]}={c[2]}" for c in WXF_CASES])
def test_wxf_edge_cases(chuhe_bin, fen, uci, wxf):
    assert sf.get_san(V, fen, uci, False, sf.NOTATION_XIANGQI_WXF) == wxf, "pyffish changed"
    plies = replay(chuhe_bin, fen, [uci])
    assert plies[0]["move"]["wxf"] == wxf, (fen, uci, plies[0]["move"])
