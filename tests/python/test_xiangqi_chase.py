"""Perpetual chase (rule S6): chuhe's repetition verdicts against pyffish (Fairy-Stockfish).

Run as the other differential test (CHUHE_BIN, see test_xiangqi_pyffish.py). Two parts:

* hand-built positions, one or two per clause of S6 (docs/xiangqi-rules.md), each checked
  against pyffish in the test itself before chuhe is asked;
* `test_random_cycles`: CHASE_CYCLES (default 1000) repetition cycles in small random positions
  (tests/python/chase_cycles.py), seeds from CHASE_SEED (default 7); every verdict of pyffish's
  `is_optional_game_end` must be chuhe's, and a good share must be decisive.
"""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess

import pytest
import pyffish as sf

import chase_cycles as cc
from conftest import STATS

V = "xiangqi"
MATE = sf.VALUE_MATE
N_CYCLES = int(os.environ.get("CHASE_CYCLES", "1000"))
SEED = int(os.environ.get("CHASE_SEED", "7"))


def chuhe_final(chuhe_bin, fen, moves):
    """chuhe's state after `moves` (`moves --json`), or the error line."""
    proc = subprocess.run([str(chuhe_bin), "moves", "--game", "xiangqi", "--position", fen,
                           "--moves", " ".join(moves), "--notation", "uci", "--json"],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        return proc.stderr.strip()
    return json.loads(proc.stdout)


def pyffish_verdict(fen, moves):
    """(status, winner) by pyffish at the end of `moves`, winner as chuhe writes it."""
    ended, value = sf.is_optional_game_end(V, fen, moves)
    if not ended:
        return None
    red_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
    if value == 0:
        return "repetition", "none"
    return "repetition", "first" if (value > 0) == red_to_move else "second"


def chuhe_verdict(chuhe_bin, fen, moves):
    got = chuhe_final(chuhe_bin, fen, moves)
    if isinstance(got, str):
        return got, None
    return (got["status"], got["winner"]), got["reason"]


CASES = [
    # (name, fen, cycle, pyffish's verdict, chuhe's reason)
    ("unprotected horse chased by a chariot", "3k5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
     "a2c2 c8a7 c2a2 a7c8", "second", "perpetual chase"),
    ("protected horse", "2rk5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
     "a2c2 c8a7 c2a2 a7c8", "none", "plain repetition"),
    ("chariot chased by a horse while protected", "4rk3/9/9/9/4r1N2/9/9/9/9/3K2R2 w - - 0 1",
     "g6f4 e6e7 f4g6 e7e6", "second", "perpetual chase"),
    ("mutual attack of like pieces", "3k5/9/2r6/9/9/9/9/9/R8/4K4 w - - 0 1",
     "a2c2 c8a8 c2a2 a8c8", "none", "plain repetition"),
    ("asymmetric horse", "3k5/9/9/n1p6/p2N5/9/9/9/9/4K4 w - - 0 1",
     "d6b5 a7c8 b5d6 c8a7", "second", "perpetual chase"),
    ("symmetric horses", "3k5/9/9/n8/3N5/9/9/9/9/4K4 w - - 0 1",
     "d6b5 a7c8 b5d6 c8a7", "none", "plain repetition"),
    ("pinned defender", "R1rk5/9/2n6/9/9/9/9/9/R8/4K4 w - - 0 1",
     "a2c2 c8a7 c2a2 a7c8", "second", "perpetual chase"),
    ("defender only the general, facing the other general",
     "3kn4/9/9/9/9/5R3/9/9/9/4K4 w - - 0 1", "f5e5 e10f8 e5f5 f8e10", "second",
     "perpetual chase"),
    ("defender only the general, not facing", "3kn4/9/9/9/9/5R3/9/9/9/5K3 w - - 0 1",
     "f5e5 e10f8 e5f5 f8e10", "none", "plain repetition"),
    ("discovered attack", "5k3/9/9/9/9/R1N1c4/9/9/9/3K5 w - - 0 1",
     "c5b7 e5e6 b7c5 e6e5", "second", "perpetual chase"),
    ("perpetual check first", "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
     "a9a10 e10e9 a10a9 e9e10", "second", "perpetual check"),
    # An attack kept while the attacker shuttles along the line is not a new attack.
    ("kept attacks on both sides", "5k3/6r2/2n6/9/9/9/9/6N2/2R6/3K5 w - - 0 1",
     "c2c3 g9g8 c3c2 g8g9", "none", "plain repetition"),
    ("a kept attack on one side", "5k3/6r2/2n6/9/9/9/9/9/2R6/3K5 w - - 0 1",
     "c2c3 g9g8 c3c2 g8g9", "none", "plain repetition"),
    # Every red move attacks a horse, but not the same one: no piece is chased throughout.
    ("a new victim every move", "5k3/7r1/1nn6/9/9/9/9/6NN1/1R7/3K5 w - - 0 1",
     "b2c2 h9g9 c2b2 g9h9", "none", "plain repetition"),
    # Both sides chase: each horse leaves one of its chariots' lines and closes the other's, so
    # every move newly attacks the same unprotected cannon (g7 by Red, c4 by Black; the
    # position is symmetric). Both chasing is a draw; the next two cases protect one cannon
    # each and show that each side's chase alone loses.
    ("a chase by both sides", "5k3/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/3K5 w - - 0 1",
     "f7g5 d4c6 g5f7 c6d4", "none", "perpetual chase"),
    ("the same, c4 protected: Red chases alone",
     "5k3/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/2RK5 w - - 0 1",
     "f7g5 d4c6 g5f7 c6d4", "second", "perpetual chase"),
    ("the same, g7 protected: Black chases alone",
     "5kr2/9/2r6/1R3Nc2/9/9/2Cn3r1/6R2/9/3K5 w - - 0 1",
     "f7g5 d4c6 g5f7 c6d4", "first", "perpetual chase"),
    # Chariot and horse chase each other: i8i10 newly attacks the horse on i6 (a move away
    # along the line, through the square it left, counts as a new attack), the horse attacks
    # the chariot from h8, i10i8 attacks the horse on h8, and h8i6 screens the cannon on i5
    # onto the chariot.
    ("chariot and horse chase each other", "9/4k4/8R/9/8n/8c/9/9/9/3K5 w - - 0 1",
     "i8i10 i6h8 i10i8 h8i6", "none", "perpetual chase"),
    ("the same without the cannon: Red chases alone", "9/4k4/8R/9/8n/9/9/9/9/3K5 w - - 0 1",
     "i8i10 i6h8 i10i8 h8i6", "second", "perpetual chase"),
    # The general's moves chase by discovery: leaving e10 (e9) leaves the cannon on i10 (i9)
    # one screen, the soldier on c10 (c9), and it attacks the chariot on a10 (a9).
    ("the general's moves chase by discovery", "2P1k3c/R1P5c/9/9/9/9/9/9/9/3K5 w - - 0 1",
     "a9a10 e10e9 a10a9 e9e10", "first", "perpetual chase"),
    # The same chase with the screens on g10 and g9: now every red move checks. Perpetual
    # check is judged first: the checker loses, not the chaser.
    ("perpetual check against a perpetual chase", "4k1P1c/R5P1c/9/9/9/9/9/9/9/3K5 w - - 0 1",
     "a9a10 e10e9 a10a9 e9e10", "second", "perpetual check"),
    # Each red horse move checks and opens a chariot onto the unprotected horse on f10.
    ("the same side checks and chases", "2R2n3/9/3k1N3/5R3/9/9/9/9/9/4K4 w - - 0 1",
     "f8e10 d8d9 e10f8 d9d8", "second", "perpetual check"),
    ("both sides check perpetually", "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
     "e4d4 d7e7 d4e4 e7d7", "none", "perpetual check"),
]


@pytest.mark.parametrize("name,fen,cycle,winner,reason", CASES, ids=[c[0] for c in CASES])
def test_s6_clause(chuhe_bin, name, fen, cycle, winner, reason):
    moves = cycle.split() * 2
    assert pyffish_verdict(fen, moves) == ("repetition", winner), "pyffish changed its mind"
    assert not sf.is_optional_game_end(V, fen, moves[:-1])[0]
    got, got_reason = chuhe_verdict(chuhe_bin, fen, moves)
    assert got == ("repetition", winner), f"{name}: chuhe {got}"
    assert got_reason == reason


def test_s6_the_move_into_the_first_occurrence_counts_for_the_last_mover(chuhe_bin):
    # The cycle starts after one red move; Red also made the last move. pyffish judges Red by
    # that first move too: e2c2 chases the horse (Red loses), c1c2 along the file does not
    # (a draw, although every red move inside the cycle chases).
    cycle = ["c8a7", "c2a2", "a7c8", "a2c2"] * 2
    for fen, first, winner, reason in [
        ("3k5/9/2n6/9/9/9/9/9/4R4/4K4 w - - 0 1", "e2c2", "second", "perpetual chase"),
        ("3k5/9/2n6/9/9/9/9/9/9/2R1K4 w - - 0 1", "c1c2", "none", "plain repetition"),
    ]:
        moves = [first] + cycle
        assert pyffish_verdict(fen, moves) == ("repetition", winner)
        assert chuhe_verdict(chuhe_bin, fen, moves) == (("repetition", winner), reason)


def test_random_cycles(chuhe_bin):
    rng = random.Random(SEED)
    counts = collections.Counter()
    disagreements = []
    while counts["cycles"] < N_CYCLES:
        c = cc.cycle(rng)
        if c is None:
            continue
        want = pyffish_verdict(c.fen, c.moves)
        if want is None:
            continue  # cannot happen with the cycle played twice; pyffish decides
        counts["cycles"] += 1
        counts["decisive" if want[1] != "none" else "draws"] += 1
        got, reason = chuhe_verdict(chuhe_bin, c.fen, c.moves)
        counts[reason or "error"] += 1
        if got != want:
            disagreements.append(f"{c.fen!r} [{' '.join(c.moves)}]: pyffish {want}, chuhe {got}")
    STATS["chase cycles"] = counts["cycles"]
    STATS["chase cycles decisive"] = counts["decisive"]
    STATS["chase cycles disagreeing"] = len(disagreements)
    assert not disagreements, f"{len(disagreements)} of {counts['cycles']}:\n" + "\n".join(
        disagreements[:10])
    assert counts["decisive"] >= counts["cycles"] // 6, counts
    assert counts["perpetual chase"] >= counts["cycles"] // 8, counts
