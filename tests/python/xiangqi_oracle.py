"""pyffish as an oracle for standard `xiangqi`, plus a model of its end-of-game rules.

pyffish (Fairy-Stockfish's Python binding, 0.0.90) answers "is the game over, and with what
value" but not *why*, and every call rebuilds the position from the start FEN (about 1 ms per
call). This module therefore

* tracks the board, the FEN counters and the position keys itself (cheap), and cross-checks that
  tracking against ``pyffish.get_fen``;
* asks pyffish for the legal moves of every ply, for the check flags (SAN suffixes) and the WXF
  strings of a whole game in one call each, and for ``is_optional_game_end`` only at plies where
  the game *can* end (a repeated position or a 100-ply counter); a sample of other plies is
  probed as well to show that nothing else ends a game;
* models the rules described in docs/pyffish-xiangqi.md (repetition with perpetual check,
  the 100-ply rule with its check allowance, mate and stalemate) and asserts that the model gives
  exactly pyffish's verdict, so that the status word and winner expected from chuhe are known.

The model does not judge chases (S6): where pyffish's value for a repetition is decisive and
perpetual check does not explain it, the verdict is pyffish's, marked as a chase (chuhe judges
chases as pyffish does; tests/python/test_xiangqi_chase.py tests them). The only place where the
expected chuhe verdict differs from pyffish is the deliberate difference of
docs/xiangqi-rules.md: S5 (bare generals end the game in chuhe; pyffish only reports
``has_insufficient_material``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pyffish as sf

VARIANT = "xiangqi"
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MATE = sf.VALUE_MATE
FILES = "abcdefghi"
UCI_RE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
ATTACKERS = set("RNHCP")  # chariot, horse, cannon, soldier (S5)


class OracleError(AssertionError):
    """The model of pyffish's rules disagrees with pyffish itself."""


# --------------------------------------------------------------------------------------------
# Board tracking


@dataclass
class Board:
    grid: dict  # (file 0..8, rank 1..10) -> FEN letter
    red_to_move: bool
    halfmove: int
    fullmove: int

    @classmethod
    def from_fen(cls, fen: str) -> "Board":
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != 10:
            raise ValueError(f"bad xiangqi FEN {fen!r}")
        grid = {}
        for i, row in enumerate(rows):
            rank = 10 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    grid[(f, rank)] = ch
                    f += 1
        side = fields[1] if len(fields) > 1 else "w"
        half = int(fields[4]) if len(fields) > 4 else 0
        full = int(fields[5]) if len(fields) > 5 else 1
        return cls(grid, side in ("w", "r"), half, full)

    def placement(self) -> str:
        rows = []
        for rank in range(10, 0, -1):
            row, empty = "", 0
            for f in range(9):
                ch = self.grid.get((f, rank))
                if ch is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += ch
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def key(self) -> str:
        return self.placement() + (" w" if self.red_to_move else " b")

    def fen(self) -> str:
        return f"{self.key()} - - {self.halfmove} {self.fullmove}"

    def is_capture(self, uci: str) -> bool:
        _, to = parse_uci(uci)
        return to in self.grid

    def play(self, uci: str) -> "Board":
        frm, to = parse_uci(uci)
        grid = dict(self.grid)
        piece = grid.pop(frm)
        captured = to in grid
        grid[to] = piece
        return Board(
            grid,
            not self.red_to_move,
            0 if captured else self.halfmove + 1,
            self.fullmove + (0 if self.red_to_move else 1),
        )

    def insufficient(self) -> bool:
        """S5: neither side has a chariot, horse, cannon or soldier."""
        return not any(ch.upper() in ATTACKERS for ch in self.grid.values())


def parse_uci(uci: str):
    m = UCI_RE.match(uci)
    if not m:
        raise ValueError(f"not a xiangqi UCI move: {uci!r}")
    return (FILES.index(m[1]), int(m[2])), (FILES.index(m[3]), int(m[4]))


def uci_to_iccs(uci: str) -> str:
    (ff, fr), (tf, tr) = parse_uci(uci)
    return f"{FILES[ff]}{fr - 1}{FILES[tf]}{tr - 1}"


def uci_to_pmn(uci: str, capture: bool) -> str:
    (ff, fr), (tf, tr) = parse_uci(uci)
    return f"{FILES[ff]}{fr}{'+' if capture else '-'}{FILES[tf]}{tr}"


# --------------------------------------------------------------------------------------------
# Game record and the rule model


@dataclass
class Verdict:
    status: str | None  # CGSN word or None
    winner: str | None  # "first" | "second" | "none" | None
    note: str = ""  # "chase" when pyffish decided a perpetual chase (the model does not)
    reason: str | None = None  # chuhe's "reason" when the model knows it


@dataclass
class GameRecord:
    fen0: str
    moves: list = field(default_factory=list)
    boards: list = field(default_factory=list)  # Board per ply
    legal: list = field(default_factory=list)  # sorted pyffish legal moves per ply
    opt: dict = field(default_factory=dict)  # ply -> (bool, value) from is_optional_game_end
    in_check: list = field(default_factory=list)
    wxf: list = field(default_factory=list)
    san: list = field(default_factory=list)
    captures: list = field(default_factory=list)
    variant: str = VARIANT
    nfold: int = 3
    label: str = ""

    @property
    def n(self) -> int:
        return len(self.moves)

    def moves_str(self, upto: int | None = None) -> str:
        return " ".join(self.moves[: self.n if upto is None else upto])


def side_name(red: bool) -> str:
    return "first" if red else "second"


def maybe_ends(rec: GameRecord, k: int) -> bool:
    """Necessary condition for pyffish.is_optional_game_end at ply k (n-move or n-fold)."""
    b = rec.boards[k]
    if b.halfmove >= 100:
        return True
    end = min(b.halfmove, k)
    key = b.key()
    hits = sum(1 for i in range(4, end + 1, 2) if rec.boards[k - i].key() == key)
    return hits + 1 >= rec.nfold


def model_optional(rec: GameRecord, k: int):
    """pyffish's is_optional_game_end at ply k, as modelled: (reason, value) or None.

    value is from the point of view of the side to move at ply k (pyffish's convention).
    Needs rec.in_check and rec.legal up to ply k.
    """
    chk = rec.in_check
    b = rec.boards[k]
    r50 = b.halfmove
    no_moves = not rec.legal[k]
    # 100-ply rule: captures reset the counter (soldier moves do not); a mate on the last ply
    # wins instead; checks beyond 10 by one side in the counted window extend the limit.
    if r50 >= 100 and not (chk[k] and no_moves):
        offset = 0
        if k >= 20:
            end = min(r50, k)
            window = [k, k - 1] + [p for i in range(2, end, 2) for p in (k - i, k - i - 1)]
            them = sum(1 for p in window if (k - p) % 2 == 0 and chk[p])
            us = sum(1 for p in window if (k - p) % 2 == 1 and chk[p])
            offset = 2 * max(0, max(them, us) - 10)
        if r50 - offset >= 100:
            return ("movelimit", 0)
    # repetition: the nfold-th occurrence of placement + side to move since the last capture
    end = min(r50, k)
    if end >= 4:
        key = b.key()
        count = 0
        for i in range(4, end + 1, 2):
            if rec.boards[k - i].key() == key:
                count += 1
                if count + 1 >= rec.nfold:
                    # i = distance back to the first of the nfold occurrences
                    them = all(chk[k - t] for t in range(0, i + 1, 2))  # side that just moved
                    us = all(chk[k - t] for t in range(1, i, 2))  # side to move
                    value = MATE if them and not us else -MATE if us and not them else 0
                    return ("repetition", value)
    return None


def pyffish_result_to_winner(value: int, red_to_move: bool) -> str:
    if value == 0:
        return "none"
    return side_name(red_to_move if value > 0 else not red_to_move)


# --------------------------------------------------------------------------------------------
# Building records with pyffish


def pf_legal(rec: GameRecord, k: int):
    return sorted(sf.legal_moves(rec.variant, rec.fen0, rec.moves[:k]))


def pf_optional(rec: GameRecord, k: int):
    got = sf.is_optional_game_end(rec.variant, rec.fen0, rec.moves[:k])
    rec.opt[k] = (bool(got[0]), int(got[1]) if got[0] else 0)
    return rec.opt[k]


def start_record(fen0: str, variant: str = VARIANT, nfold: int = 3, label: str = "") -> GameRecord:
    rec = GameRecord(fen0=fen0, variant=variant, nfold=nfold, label=label)
    rec.boards.append(Board.from_fen(fen0))
    rec.legal.append(pf_legal(rec, 0))
    return rec


def push(rec: GameRecord, uci: str):
    k = rec.n
    if uci not in rec.legal[k]:
        raise ValueError(f"{uci} is not legal at ply {k} of {rec.fen0!r} after [{rec.moves_str()}]")
    rec.captures.append(rec.boards[k].is_capture(uci))
    rec.boards.append(rec.boards[k].play(uci))
    rec.moves.append(uci)
    rec.legal.append(pf_legal(rec, k + 1))


def pyffish_ended(rec: GameRecord, k: int) -> bool:
    """Ask pyffish (only where needed) whether the game is over at ply k."""
    if not rec.legal[k]:
        return True
    if maybe_ends(rec, k):
        return pf_optional(rec, k)[0]
    return False


def finish(rec: GameRecord, probe_every: int = 17):
    """Fetch check flags and WXF for the whole game, cross-check the FEN tracking and probe
    is_optional_game_end at a sample of plies where the model says it cannot fire."""
    v, f0, ms = rec.variant, rec.fen0, rec.moves
    san = sf.get_san_moves(v, f0, ms) if ms else []
    rec.in_check = [bool(sf.gives_check(v, f0, []))] + [s.endswith(("+", "#")) for s in san]
    rec.wxf = sf.get_san_moves(v, f0, ms, False, sf.NOTATION_XIANGQI_WXF) if ms else []
    rec.san = san
    for k in sorted({rec.n, rec.n // 2}):
        want = sf.get_fen(v, f0, ms[:k])
        if rec.boards[k].fen() != want:
            raise OracleError(f"FEN tracking differs from pyffish at ply {k}: "
                              f"{rec.boards[k].fen()} vs {want}")
    for k in range(0, rec.n + 1, probe_every):
        if k not in rec.opt and not maybe_ends(rec, k):
            if pf_optional(rec, k)[0]:
                raise OracleError(f"pyffish ends the game at ply {k} where the model cannot: "
                                  f"{f0!r} [{' '.join(ms[:k])}]")
    # every pyffish answer collected so far must agree with the model
    for k, (ended, value) in sorted(rec.opt.items()):
        model = model_optional(rec, k)
        if not ended:
            if model is not None:
                raise OracleError(f"model ends at ply {k} ({model}) but pyffish does not: "
                                  f"{f0!r} [{' '.join(ms[:k])}]")
        elif model is None:
            raise OracleError(f"pyffish ends at ply {k} (value {value}) but the model does not: "
                              f"{f0!r} [{' '.join(ms[:k])}]")
        elif model[1] != value and not (model[0] == "repetition" and model[1] == 0):
            raise OracleError(f"model value {model} != pyffish {value} at ply {k}: "
                              f"{f0!r} [{' '.join(ms[:k])}]")
    return rec


def expected_verdict(rec: GameRecord, k: int) -> Verdict:
    """The status/winner chuhe must report at ply k (None, None if the game goes on)."""
    b = rec.boards[k]
    if b.insufficient():
        return Verdict("insufficient", "none")
    model = model_optional(rec, k)
    if model is not None:
        reason, value = model
        if k in rec.opt:
            pf = rec.opt[k]
            if not pf[0]:
                raise OracleError(f"model ends at ply {k} but pyffish does not")
            if reason == "repetition" and value == 0 and pf[1] != 0:
                # pyffish decided a perpetual chase (S6), which the model does not judge
                return Verdict("repetition", pyffish_result_to_winner(pf[1], b.red_to_move),
                               note="chase", reason="perpetual chase")
        why = "perpetual check" if reason == "repetition" and value != 0 else None
        return Verdict(reason, pyffish_result_to_winner(value, b.red_to_move), reason=why)
    if not rec.legal[k]:
        value = sf.game_result(rec.variant, rec.fen0, rec.moves[:k])
        if value != -MATE:
            raise OracleError(f"game_result {value} at ply {k}, expected {-MATE}")
        return Verdict("checkmate" if rec.in_check[k] else "stalemate",
                       side_name(not b.red_to_move))
    return Verdict(None, None)


def record_from_moves(fen0: str, moves, variant: str = VARIANT, nfold: int = 3,
                      label: str = "") -> GameRecord:
    """A hand-written game: every ply is checked with pyffish (short games only)."""
    rec = start_record(fen0, variant, nfold, label)
    for k, m in enumerate(moves):
        if rec.boards[k].insufficient() or pyffish_ended(rec, k):
            raise ValueError(f"{label}: the game is over at ply {k}, before {m}")
        push(rec, m)
    for k in range(rec.n + 1):
        if k not in rec.opt:
            pf_optional(rec, k)
    pyffish_ended(rec, rec.n)
    return finish(rec)


# --------------------------------------------------------------------------------------------
# Random games

# A style is a list of (from_ply, (p_reverse, p_check, p_capture, p_avoid_capture)).
# p_reverse: play back one's own previous move (provokes repetitions); in "perpetual" the
# reverse is only played when it gives check or answers a check (provokes perpetual check).
STYLES = {
    "random": [(0, (0.0, 0.0, 0.0, 0.0))],
    "repeat": [(0, (0.6, 0.0, 0.0, 0.5))],
    "check": [(0, (0.3, 0.6, 0.3, 0.0))],
    "quiet": [(0, (0.05, 0.0, 0.5, 0.0)), (30, (0.05, 0.0, 0.0, 0.995))],
    "capture": [(0, (0.0, 0.4, 0.8, 0.0))],
    "perpetual": [(0, (0.9, 0.9, 0.2, 0.3))],
    "late-repeat": [(0, (0.0, 0.2, 0.7, 0.0)), (40, (0.7, 0.0, 0.0, 0.9))],
}


def generate(seed: int, style: str | None = None, ply_cap: int = 200,
             fen0: str = START_FEN) -> GameRecord:
    """A seeded random game, played with pyffish's legal moves until pyffish (or S5) ends it."""
    rng = random.Random(seed)
    style = style or rng.choice(sorted(STYLES))
    phases = STYLES[style]
    rec = start_record(fen0, label=f"seed {seed} ({style})")
    checking = bool(sf.gives_check(rec.variant, rec.fen0, []))  # is the side to move in check
    while rec.n < ply_cap:
        k = rec.n
        board = rec.boards[k]
        if board.insufficient() or pyffish_ended(rec, k):
            break
        legal = rec.legal[k]
        p_rev, p_check, p_cap, p_avoid = [params for start, params in phases if k >= start][-1]
        move, gives = None, None
        if k >= 2 and rng.random() < p_rev:
            (ff, fr), (tf, tr) = parse_uci(rec.moves[k - 2])
            back = f"{FILES[tf]}{tr}{FILES[ff]}{fr}"
            if back in legal and not board.is_capture(back):
                if style != "perpetual" or checking:
                    move = back
                elif sf.gives_check(rec.variant, rec.fen0, rec.moves + [back]):
                    move, gives = back, True
        if move is None and rng.random() < p_check:
            for cand in rng.sample(legal, min(4, len(legal))):
                if sf.gives_check(rec.variant, rec.fen0, rec.moves + [cand]):
                    move, gives = cand, True
                    break
        if move is None:
            caps = [m for m in legal if board.is_capture(m)]
            quiet = [m for m in legal if not board.is_capture(m)]
            if caps and rng.random() < p_cap:
                move = rng.choice(caps)
            elif quiet and rng.random() < p_avoid:
                move = rng.choice(quiet)
            else:
                move = rng.choice(legal)
        push(rec, move)
        if style == "perpetual":
            checking = gives if gives is not None else bool(
                sf.gives_check(rec.variant, rec.fen0, rec.moves))
    return finish(rec)
