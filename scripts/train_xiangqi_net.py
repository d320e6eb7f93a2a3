#!/usr/bin/env python3
"""Trains the Xiangqi evaluation's network: a correction added to the weighted terms.

The network has one hidden layer over (piece, point) features, 14 × 90 inputs, and is
evaluated from both sides with the same weights: N(board) = h(board) − h(board seen from
Black), where h(x) = w2 · clamp(W1 x + b1, 0, 1). So the correction changes sign when the
colours are swapped, as the evaluation must; its hidden units come in mirror pairs, so it is
also exactly the same for a position and its mirror image. It is fitted the way the Texel
tuner fits the weighted terms (docs/TUNING.md): the mean squared error of σ(K · (linear + N) / 400) against
(1 − X) · result + X · σ(K_ref · reference / 400), with the linear evaluation as it is, K
fitted to it first, the input weights decayed apart from Adam's steps (AdamW: a decay inside
the gradient would shrink a unit that has yet to learn to nothing), every 10th game held out
for validation, and the epoch with the lowest validation error written out.

With `--buckets 9` the input layer has one table per placement of the side's own general
("king-relative" buckets: the nine palace points, seen from that side); each view uses its
own general's bucket. The data is small, so the table is factorised: a feature's weight is a
shared weight plus its bucket's own (the latter starting at zero), and the file holds their
sums (network file format 2). The default, one bucket, writes format 1 as before.

With `--format 3` both views feed the output, the side to move's units first:
N = w2_us · clamp(W1 x_us + b1) + w2_them · clamp(W1 x_them + b1) + b2 from the side to
move's point of view (so it needs the dump's sixth field, the side to move), with or without
buckets, and `--role evaluation` fits it as the whole evaluation (the linear terms left out)
instead of a correction to them. The engine reads a multiple of 16 hidden units, at most 512.

The input comes from the tuner (`tune --dump-net`, one quiet position per line); the output
is a network file, `crates/chuhe-engine/nets/xiangqi-<CRC-32>.nnue`: the network's weights as
integers in the binary format the engine reads (`crates/chuhe-engine/src/eval/xiangqi_net/
file.rs`; docs/TUNING.md). The engine loads it with the UCI option `EvalFile` or `chuhe bench
--eval-file`; the file named in `xiangqi_net/mod.rs` is the one compiled in. The same data and
seed write the same bytes.

    cargo run --release -p chuhe-engine --example tune -- --game xiangqi \\
        --data target/tune/xiangqi-fsf8.txt --dump-net target/tune/xiangqi-net.txt
    python3 scripts/train_xiangqi_net.py target/tune/xiangqi-net.txt
    python3 scripts/train_xiangqi_net.py target/tune/xiangqi-net.txt --buckets 9 --out target/tune/

The compiled network's settings are those of scripts/regenerate-xiangqi-net (`--format 3
--hidden 128 --score-weight 0.75`, on chuhe's own depth-8 scores); the defaults are those of
the network before it (docs/TUNING.md).

`--backend torch` trains format 3 with PyTorch instead (`--threads N`): the same data, target,
K, initial weights, shuffles and update rule, with a sparse first layer (`embedding_bag`) and
float32, several times faster on large dumps (docs/TUNING.md, "A PyTorch trainer"); its files
are not byte for byte the numpy trainer's, but the same data, seed and threads write the same
bytes.

Needs numpy only; PyTorch for `--backend torch`.
"""

from __future__ import annotations

import argparse
import math
import struct
import zlib
import sys
import time
from pathlib import Path

import numpy as np

POINTS = 90
PIECES = 14
INPUTS = PIECES * POINTS
# Points a1..i10 (index rank × 9 + file) seen from the other side: rank r becomes 9 − r.
FLIP_RANK = np.array([(9 - p // 9) * 9 + p % 9 for p in range(POINTS)])
# Points seen in a mirror: file f becomes 8 − f.
MIRROR_FILE = np.array([(p // 9) * 9 + 8 - p % 9 for p in range(POINTS)])
# The fixed-point scale of the hidden layer (activation 1.0 = SCALE) and of the output
# weights (1 cp = OUT_SCALE); eval/xiangqi_net/ divides by both.
SCALE = 512
OUT_SCALE = 16
# The network file (crates/chuhe-engine/src/eval/xiangqi_net/file.rs): magic, format version,
# game code (1 = Xiangqi).
MAGIC = b"CHUHENET"
FORMAT_VERSION = 1
# Format 2: the input tables per bucket of the side's general's placement.
FORMAT_VERSION_BUCKETED = 2
# Format 3: both views into the output, any number of units, a correction or the evaluation.
FORMAT_VERSION_VIEWS = 3
ROLES = {"correction": 0, "evaluation": 1}
GAME_XIANGQI = 1
# Pieces on the board at most (the padding feature has zero weight).
MAX_PIECES = 32
PAD = INPUTS
# General-placement buckets (format 2): the nine palace points, seen from the side's own
# end, rank × 3 + (file − 3); a general anywhere else (or none) counts as on its home point
# e1, bucket 1.
BUCKETS = 9
HOME_BUCKET = 1
# Dump codes of the generals.
RED_GENERAL = 1
BLACK_GENERAL = 8


def bucket_of_point(point: int) -> int:
    """The bucket of a general on `point` (seen from its own side: rank 0 its back rank)."""
    rank, file = divmod(point, 9)
    if rank <= 2 and 3 <= file <= 5:
        return rank * 3 + file - 3
    return HOME_BUCKET


BUCKET_OF_POINT = np.array([bucket_of_point(p) for p in range(POINTS)])
# Buckets seen in a mirror: a palace point's file f becomes 8 − f.
MIRROR_BUCKET = np.array([(b // 3) * 3 + 2 - b % 3 for b in range(BUCKETS)])
# The padding feature of the bucket table (zero weight).
BUCKET_PAD = BUCKETS * INPUTS


class DataError(Exception):
    """A dump line that cannot be read: the file, line number and what is wrong."""


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def load(path: Path) -> dict[str, np.ndarray]:
    """Reads `tune --dump-net` lines: game, result, reference or '-', linear eval, 90 points,
    and the side to move (`w` or `b`; dumps written before it was added have five fields,
    which leave it unknown, 0)."""
    games, results, refs, linear, boards, turns = [], [], [], [], [], []
    try:
        lines = path.open(encoding="utf-8")
    except OSError as e:
        raise DataError(f"{path}: {e.strerror or e}") from e
    with lines:
        for n, line in enumerate(lines, 1):
            fields = line.rstrip("\n").split("\t")
            try:
                if len(fields) not in (5, 6):
                    raise ValueError(f"{len(fields)} tab-separated fields, expected 5 or 6")
                points = [int(v) for v in fields[4].split(",")]
                if len(points) != POINTS or not all(0 <= v <= PIECES for v in points):
                    raise ValueError(f"expected {POINTS} points each 0–{PIECES}")
                turn = {"w": 1, "b": -1}.get(fields[5]) if len(fields) == 6 else 0
                if turn is None:
                    raise ValueError(f"the side to move is {fields[5]!r}, expected w or b")
                games.append(int(fields[0]))
                results.append(float(fields[1]))
                refs.append(math.nan if fields[2] == "-" else float(fields[2]))
                linear.append(float(fields[3]))
                boards.append(points)
                turns.append(turn)
            except ValueError as e:
                raise DataError(f"{path}:{n}: {e}") from e
    if not games:
        raise DataError(f"{path}: no positions")
    return {
        "game": np.array(games),
        "result": np.array(results),
        "reference": np.array(refs),
        "linear": np.array(linear),
        "board": np.array(boards, dtype=np.int16),
        "turn": np.array(turns, dtype=np.int8),
    }


def golden_section(f, lo: float, hi: float, steps: int = 60) -> float:
    """The minimum of a unimodal `f` over [lo, hi]."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def features(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each board's active inputs from Red's side and from Black's (padded with PAD)."""
    n = len(boards)
    red = np.full((n, MAX_PIECES), PAD, dtype=np.int32)
    black = np.full((n, MAX_PIECES), PAD, dtype=np.int32)
    for i, board in enumerate(boards):
        occupied = np.nonzero(board)[0]
        piece = board[occupied].astype(np.int32) - 1
        swapped = np.where(piece >= 7, piece - 7, piece + 7)
        red[i, : len(occupied)] = piece * POINTS + occupied
        black[i, : len(occupied)] = swapped * POINTS + FLIP_RANK[occupied]
    return red, black


def general_buckets(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each board's bucket from Red's side (Red's general's point) and from Black's (Black's
    general's point with the ranks flipped); the home bucket where that general is absent."""
    red = np.full(len(boards), HOME_BUCKET, dtype=np.int32)
    black = np.full(len(boards), HOME_BUCKET, dtype=np.int32)
    for i, board in enumerate(boards):
        (at,) = np.nonzero(board == RED_GENERAL)
        if len(at):
            red[i] = BUCKET_OF_POINT[at[0]]
        (at,) = np.nonzero(board == BLACK_GENERAL)
        if len(at):
            black[i] = BUCKET_OF_POINT[FLIP_RANK[at[0]]]
    return red, black


def bucketed(features_: np.ndarray, buckets: np.ndarray) -> np.ndarray:
    """A view's features as rows of the bucket table, bucket × 1260 + feature (the padding
    stays padding)."""
    rows = buckets[:, None] * INPUTS + features_
    return np.where(features_ == PAD, BUCKET_PAD, rows).astype(np.int32)


# Each input (piece × 90 + point, and the padding) seen in a mirror.
MIRROR_INPUT = np.array(
    [(k // POINTS) * POINTS + MIRROR_FILE[k % POINTS] for k in range(INPUTS)] + [PAD]
)
# Each row of the bucket table (bucket × 1260 + input, and the padding) seen in a mirror.
MIRROR_BUCKET_INPUT = np.array(
    [MIRROR_BUCKET[r // INPUTS] * INPUTS + MIRROR_INPUT[r % INPUTS]
     for r in range(BUCKETS * INPUTS)] + [BUCKET_PAD]
)


class Net:
    """h(x) = w2 · clamp(W1 x + b1, 0, 1); N = h(red) − h(black), in centipawns.

    The hidden units come in mirror pairs: the second half of the units has the first half's
    weights with the files mirrored (and the same bias and output weight), so N is exactly
    the same for a position and its mirror image. Only the first half is trained.

    With buckets (`buckets` = 9) a feature's input weight is the shared weight `w1[f]` plus
    its bucket's `wb[bucket × 1260 + f]`; the bucket table starts at zero. A view is then
    given as its features and its bucket-table rows (`bucketed`).
    """

    def __init__(self, hidden: int, rng: np.random.Generator, buckets: int = 1):
        half = hidden // 2
        self.buckets = buckets
        self.w1 = np.zeros((INPUTS + 1, half), np.float32)
        self.w1[:INPUTS] = rng.normal(0, 0.05, (INPUTS, half))
        # Units start in the middle of their range, where they learn.
        self.b1 = np.full(half, 0.5, np.float32)
        self.w2 = rng.normal(0, 30, half).astype(np.float32)
        self.wb = np.zeros((BUCKET_PAD + 1, half), np.float32) if buckets > 1 else None

    def params(self) -> list[np.ndarray]:
        """The trained arrays; the decayed input tables are `w1` and, with buckets, `wb`."""
        shared = [self.w1, self.b1, self.w2]
        return shared if self.wb is None else shared + [self.wb]

    def set_params(self, params: list[np.ndarray]) -> None:
        self.w1, self.b1, self.w2 = params[:3]
        if self.wb is not None:
            self.wb = params[3]

    def decay_inputs(self, factor: float, bucket_factor: float | None = None) -> None:
        """Weight decay apart from Adam's step: the shared input table shrinks by `factor`,
        the bucket tables by `bucket_factor` (the same when not given)."""
        self.w1 *= factor
        if self.wb is not None:
            self.wb *= factor if bucket_factor is None else bucket_factor

    def full(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every unit's weights: the trained half and its mirror image."""
        return (
            np.concatenate([self.w1, self.w1[MIRROR_INPUT]], 1),
            np.concatenate([self.b1, self.b1]),
            np.concatenate([self.w2, self.w2]),
        )

    def full_buckets(self) -> np.ndarray:
        """Every unit's bucket table: the trained half and its mirror image."""
        return np.concatenate([self.wb, self.wb[MIRROR_BUCKET_INPUT]], 1)

    def merged_w1(self) -> np.ndarray:
        """The input table as the file holds it: rows bucket × 1260 + feature, each the
        shared weight plus its bucket's (1260 rows without buckets)."""
        w1 = self.full()[0][:INPUTS]
        if self.wb is None:
            return w1
        return np.tile(w1, (self.buckets, 1)) + self.full_buckets()[:BUCKET_PAD]

    @staticmethod
    def hidden(w1, b1, f: np.ndarray, wb=None, fb=None) -> tuple[np.ndarray, np.ndarray]:
        pre = w1[f].sum(1) + b1
        if wb is not None:
            pre += wb[fb].sum(1)
        return pre, np.clip(pre, 0.0, 1.0)

    def correction(self, red, black, red_b=None, black_b=None, sign=None) -> np.ndarray:
        """N for each board (Red's point of view), from each view's features (and
        bucket-table rows), in parts of 20,000 boards; `sign` is for `ViewsNet` (N here does
        not depend on the side to move)."""
        w1, b1, w2 = self.full()
        wb = None if self.wb is None else self.full_buckets()
        out = []
        for s in range(0, len(red), 20000):
            part = slice(s, s + 20000)
            rb = None if wb is None else red_b[part]
            bb = None if wb is None else black_b[part]
            _, a = self.hidden(w1, b1, red[part], wb, rb)
            _, c = self.hidden(w1, b1, black[part], wb, bb)
            out.append(self.output(a, c, w2, None if sign is None else sign[part]))
        return np.concatenate(out)

    def output(self, a, c, w2, sign) -> np.ndarray:
        """N from the two views' activations: h(red) − h(black)."""
        return (a - c) @ w2

    def gradients(self, red, black, linear, target, k, red_b=None, black_b=None, sign=None):
        """The loss's gradients on one batch (mean squared error of the expected result),
        for the trained half: each mirrored unit's gradient folded back onto its twin."""
        w1, b1, w2 = self.full()
        wb = None if self.wb is None else self.full_buckets()
        pre_r, a = self.hidden(w1, b1, red, wb, red_b)
        pre_b, c = self.hidden(w1, b1, black, wb, black_b)
        p = sigmoid(k * (linear + (a - c) @ w2) / 400)
        d_out = 2 * (p - target) * p * (1 - p) * k / 400 / len(red)
        g_w2 = (a - c).T @ d_out
        d_hidden = np.outer(d_out, w2)
        d_red = d_hidden * ((pre_r > 0) & (pre_r < 1))
        d_black = -d_hidden * ((pre_b > 0) & (pre_b < 1))
        g_b1 = d_red.sum(0) + d_black.sum(0)
        g_w1, g_wb = input_gradients(red, black, d_red, d_black, red_b, black_b, wb is not None)
        grads = [fold(g_w1, MIRROR_INPUT), fold(g_b1), fold(g_w2)]
        if wb is not None:
            grads.append(fold(g_wb, MIRROR_BUCKET_INPUT))
        return grads


def fold(g: np.ndarray, mirror: np.ndarray | None = None) -> np.ndarray:
    """A gradient over every unit folded onto the trained half: each mirrored unit's (rows
    seen in the mirror, when `mirror` maps them) added to its twin's."""
    half = g.shape[-1] // 2
    if mirror is None:
        return g[..., :half] + g[..., half:]
    return g[:, :half] + g[mirror, half:]


def input_gradients(first, second, d_first, d_second, first_b, second_b, buckets: bool):
    """The gradients of the input table (and of the bucket table, with `buckets`) from the
    two views' features and the loss's slopes at their hidden sums (padding rows zero)."""
    units = d_first.shape[1]
    # float32, as the tables: the same arithmetic, and so the same bytes, as ever.
    g_w1 = np.empty((INPUTS + 1, units), np.float32)
    g_wb = np.empty((BUCKET_PAD + 1, units), np.float32) if buckets else None
    idx = np.concatenate([first.ravel(), second.ravel()])
    if buckets:
        idx_b = np.concatenate([first_b.ravel(), second_b.ravel()])
    for h in range(units):
        w = np.concatenate(
            [np.repeat(d_first[:, h], MAX_PIECES), np.repeat(d_second[:, h], MAX_PIECES)]
        )
        g_w1[:, h] = np.bincount(idx, weights=w, minlength=INPUTS + 1)
        if buckets:
            g_wb[:, h] = np.bincount(idx_b, weights=w, minlength=BUCKET_PAD + 1)
    g_w1[PAD] = 0
    if buckets:
        g_wb[BUCKET_PAD] = 0
    return g_w1, g_wb


class ViewsNet(Net):
    """Format 3: N = w2_us · clamp(W1 x_us + b1, 0, 1) + w2_them · clamp(W1 x_them + b1, 0, 1)
    + b2 in centipawns from the side to move's point of view, where x_us is the side to
    move's view (Red's view when Red moves: Red's own features; Black's view: the colours
    swapped and the ranks flipped). The methods take the views as `first` (the side to
    move's) and `second`, and `sign`: +1 where Red moves, −1 where Black does, which turns N
    into Red's point of view. The units come in mirror pairs as in `Net`, both output weights
    tied."""

    def __init__(self, hidden: int, rng: np.random.Generator, buckets: int = 1):
        super().__init__(hidden, rng, buckets)
        half = hidden // 2
        self.w2_them = rng.normal(0, 30, half).astype(np.float32)
        self.b2 = np.zeros(1, np.float32)

    def params(self) -> list[np.ndarray]:
        """As `Net`'s, then the other side's output weights and the output bias."""
        return super().params() + [self.w2_them, self.b2]

    def set_params(self, params: list[np.ndarray]) -> None:
        super().set_params(params[:-2])
        self.w2_them, self.b2 = params[-2:]

    def full_them(self) -> np.ndarray:
        return np.concatenate([self.w2_them, self.w2_them])

    def output(self, a, c, w2, sign) -> np.ndarray:
        """N from Red's point of view, from the side to move's activations `a` and the other
        side's `c` (`correction` takes the views in that order)."""
        return sign * (a @ w2 + c @ self.full_them() + self.b2[0])

    def gradients(self, first, second, linear, target, k, first_b=None, second_b=None,
                  sign=None):
        w1, b1, w2 = self.full()
        w2_them = self.full_them()
        wb = None if self.wb is None else self.full_buckets()
        pre_f, a = self.hidden(w1, b1, first, wb, first_b)
        pre_s, c = self.hidden(w1, b1, second, wb, second_b)
        n = sign * (a @ w2 + c @ w2_them + self.b2[0])
        p = sigmoid(k * (linear + n) / 400)
        d_v = 2 * (p - target) * p * (1 - p) * k / 400 / len(first) * sign
        d_first = np.outer(d_v, w2) * ((pre_f > 0) & (pre_f < 1))
        d_second = np.outer(d_v, w2_them) * ((pre_s > 0) & (pre_s < 1))
        g_w1, g_wb = input_gradients(first, second, d_first, d_second, first_b, second_b,
                                     wb is not None)
        grads = [fold(g_w1, MIRROR_INPUT), fold(d_first.sum(0) + d_second.sum(0)),
                 fold(a.T @ d_v)]
        if wb is not None:
            grads.append(fold(g_wb, MIRROR_BUCKET_INPUT))
        return grads + [fold(c.T @ d_v), np.array([d_v.sum()])]


def network_bytes(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, description: str,
                  views: dict | None = None) -> bytes:
    """Integer tables as a network file: the header, the description, W1 (rows × hidden),
    B1 and W2 as little-endian i16, then the CRC-32 of everything before it.

    W1 with 1260 rows writes format 1; with 9 × 1260 rows (bucket × 1260 + feature) it
    writes format 2, whose header adds the bucket count after the hidden units. With `views`
    ({"w2_them", "b2", "role"}) it writes format 3 (1260 or 9 × 1260 rows): the header adds
    the buckets and the role, W2 is followed by the other side's output weights and the
    output bias B2 (i32)."""
    hidden = len(b1)
    rows = len(w1)
    text = description.encode("utf-8")
    if rows not in (INPUTS, BUCKETS * INPUTS):
        raise ValueError(f"W1 has {rows} rows: expected {INPUTS} or {BUCKETS * INPUTS}")
    buckets = rows // INPUTS
    if views is not None:
        header = struct.pack(
            "<9I", FORMAT_VERSION_VIEWS, GAME_XIANGQI, INPUTS, hidden, buckets,
            ROLES[views["role"]], SCALE, OUT_SCALE, len(text),
        )
    elif buckets == 1:
        header = struct.pack(
            "<7I", FORMAT_VERSION, GAME_XIANGQI, INPUTS, hidden, SCALE, OUT_SCALE, len(text)
        )
    else:
        header = struct.pack(
            "<8I", FORMAT_VERSION_BUCKETED, GAME_XIANGQI, INPUTS, hidden, BUCKETS, SCALE,
            OUT_SCALE, len(text),
        )
    out = MAGIC + header + text
    tables = (w1, b1, w2) if views is None else (w1, b1, w2, views["w2_them"])
    for table in tables:
        out += np.asarray(table, dtype="<i2").tobytes()
    if views is not None:
        out += struct.pack("<i", int(views["b2"]))
    return out + struct.pack("<I", zlib.crc32(out))


def read_network(data: bytes) -> dict:
    """The fields of a network file, format 1, 2 or 3 (for tests and inspection); checks the
    checksum and the length. W1 has BUCKETS × 1260 rows (BUCKETS = 1 in format 1); format 3
    adds ROLE, W2_THEM and B2."""
    if len(data) < 40 or data[:8] != MAGIC:
        raise ValueError("not a chuhe network file")
    (version,) = struct.unpack_from("<I", data, 8)
    role = "correction"
    if version == FORMAT_VERSION:
        game, inputs, hidden, scale, out_scale, n = struct.unpack_from("<6I", data, 12)
        buckets, at = 1, 36
    elif version == FORMAT_VERSION_BUCKETED:
        game, inputs, hidden, buckets, scale, out_scale, n = struct.unpack_from("<7I", data, 12)
        at = 40
    elif version == FORMAT_VERSION_VIEWS:
        game, inputs, hidden, buckets, code, scale, out_scale, n = struct.unpack_from(
            "<8I", data, 12)
        roles = {v: k for k, v in ROLES.items()}
        if code not in roles:
            raise ValueError(f"role {code}: this trainer knows 0 and 1")
        role = roles[code]
        at = 44
    else:
        raise ValueError(f"format version {version}: this trainer reads 1, 2 and 3")
    if zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        raise ValueError("checksum mismatch")
    rows = buckets * inputs
    outputs, bias = (2, 4) if version == FORMAT_VERSION_VIEWS else (1, 0)
    if len(data) != at + n + 2 * (rows * hidden + (1 + outputs) * hidden) + bias + 4:
        raise ValueError("the file's length does not match its header")
    tables = np.frombuffer(data[at + n : len(data) - 4 - bias], dtype="<i2").astype(int)
    fields = {
        "version": version, "game": game, "INPUTS": inputs, "HIDDEN": hidden,
        "BUCKETS": buckets, "SCALE": scale, "OUT_SCALE": out_scale, "ROLE": role,
        "description": data[at : at + n].decode("utf-8"),
        "W1": tables[: rows * hidden].reshape(rows, hidden),
        "B1": tables[rows * hidden : rows * hidden + hidden],
        "W2": tables[rows * hidden + hidden : rows * hidden + 2 * hidden],
    }
    if version == FORMAT_VERSION_VIEWS:
        fields["W2_THEM"] = tables[rows * hidden + 2 * hidden :]
        (fields["B2"],) = struct.unpack_from("<i", data, len(data) - 8)
    return fields


def write_network(net: Net, out: Path, notes: list[str], role: str = "correction") -> Path:
    """The network as a network file (format 2 with buckets, format 3 for a `ViewsNet`);
    `out` a directory names it `xiangqi-<CRC-32>.nnue`. Returns the path written."""
    _, full_b1, full_w2 = net.full()
    w1 = np.clip(np.round(net.merged_w1() * SCALE), -32767, 32767).astype(int)
    b1 = np.clip(np.round(full_b1 * SCALE), -32767, 32767).astype(int)
    w2 = np.round(full_w2 * OUT_SCALE).astype(int)
    hidden = len(b1)
    views = None
    output_bound = int(abs(w2).max()) * SCALE * hidden
    if isinstance(net, ViewsNet):
        w2_them = np.round(net.full_them() * OUT_SCALE).astype(int)
        b2 = int(np.round(net.b2[0] * SCALE * OUT_SCALE))
        views = {"w2_them": w2_them, "b2": b2, "role": role}
        w2_max = max(int(abs(w2).max()), int(abs(w2_them).max()))
        output_bound = 2 * w2_max * SCALE * hidden + abs(b2)
    # What the engine's loader checks: each hidden sum fits 16 bits whatever the placement
    # (the bias plus, at each point, the largest weight a piece has there), in every bucket;
    # the output weights fit 16 bits and the output sum 32.
    reach = np.abs(b1) + np.abs(w1).reshape(-1, PIECES, POINTS, hidden).max(1).sum(1)
    if reach.max() > 32767:
        raise SystemExit("train_xiangqi_net: the hidden sums could overflow 16 bits")
    w2_all = w2 if views is None else np.concatenate([w2, views["w2_them"]])
    if int(abs(w2_all).max()) > 32767 or output_bound >= 2**31:
        raise SystemExit("train_xiangqi_net: the output weights would overflow")
    data = network_bytes(w1, b1, w2, "\n".join(notes), views)
    path = out / f"xiangqi-{zlib.crc32(data[:-4]):08x}.nnue" if out.is_dir() else out
    path.write_bytes(data)
    return path


class Prepared:
    """What both backends train on: the target, K, the held-out rows, each board's two views
    in the order the network takes them (features, bucket rows, sign) and the errors without
    the network."""

    def __init__(self, args: argparse.Namespace, data: dict[str, np.ndarray]):
        self.val = data["game"] % args.validation == 0
        self.train = ~self.val
        linear, result = data["linear"], data["result"]
        target = result.copy()
        scored = ~np.isnan(data["reference"])
        if args.score_weight > 0 and scored.any():
            ref = np.clip(np.nan_to_num(data["reference"]), -3000, 3000)
            m = scored & self.train
            k_ref = golden_section(
                lambda k: float(np.mean((sigmoid(k * ref[m] / 400) - result[m]) ** 2)),
                0.05, 10.0,
            )
            blend = ((1 - args.score_weight) * result
                     + args.score_weight * sigmoid(k_ref * ref / 400))
            target = np.where(scored, blend, result)
            print(f"K_ref = {k_ref:.4f} ({scored.sum()} positions with a reference score)")
        train = self.train
        self.k = golden_section(
            lambda k: float(np.mean((sigmoid(k * linear[train] / 400) - target[train]) ** 2)),
            0.05, 10.0,
        )
        if args.role == "evaluation":
            # The network is the whole evaluation: nothing under it (K, the scale of
            # centipawns to results, stays the linear evaluation's).
            linear = np.zeros_like(linear)
        self.linear, self.target = linear, target
        self.base_train = self.mse(np.zeros(train.sum()), train)
        self.base_val = self.mse(np.zeros(self.val.sum()), self.val)
        print(f"{len(linear)} positions ({self.val.sum()} validation), K = {self.k:.4f}")
        print(f"without the network: MSE training {self.base_train:.6f}, "
              f"validation {self.base_val:.6f}")

        # The network is exactly left/right symmetric, so mirror images would add nothing.
        red, black = features(data["board"])
        # With buckets, each view's features also as rows of the bucket table.
        red_b = black_b = None
        if args.buckets > 1:
            red_bucket, black_bucket = general_buckets(data["board"])
            red_b, black_b = bucketed(red, red_bucket), bucketed(black, black_bucket)
        # The views in the order the network takes them: Red's then Black's (formats 1 and
        # 2), or the side to move's first (format 3, with the sign that turns its output to
        # Red's side).
        sign = None
        if args.format == FORMAT_VERSION_VIEWS:
            to_move = data["turn"][:, None] > 0
            red, black = np.where(to_move, red, black), np.where(to_move, black, red)
            if args.buckets > 1:
                red_b, black_b = (np.where(to_move, red_b, black_b),
                                  np.where(to_move, black_b, red_b))
            sign = data["turn"].astype(np.float64)
        self.views = (red, black, red_b, black_b, sign)

    def rows(self, which: np.ndarray) -> tuple:
        """The views of the rows `which` (a mask or indices): first, second, their bucket
        rows and the sign (None where the network has none)."""
        return tuple(None if v is None else v[which] for v in self.views)

    def mse(self, net_out: np.ndarray, rows: np.ndarray) -> float:
        return float(np.mean(
            (sigmoid(self.k * (self.linear[rows] + net_out) / 400) - self.target[rows]) ** 2))

    def report(self, epoch: int, out_train: np.ndarray, out_val: np.ndarray, t0: float) -> float:
        """Prints an epoch's errors; returns the validation error."""
        e_val = self.mse(out_val, self.val)
        print(
            f"epoch {epoch}: MSE training {self.mse(out_train, self.train):.6f}, validation "
            f"{e_val:.6f}, correction sd {out_val.std():.0f} cp ({time.time() - t0:.0f} s)",
            flush=True,
        )
        return e_val


def train_numpy(args, d: Prepared, bucket_decay: float, t0: float) -> tuple:
    """Trains with numpy; returns the best validation error, its parameters (None where no
    epoch beat the evaluation without the network), its epoch and the network."""
    tr_red, tr_black, tr_red_b, tr_black_b, tr_sign = d.rows(d.train)
    tr_linear, tr_target = d.linear[d.train], d.target[d.train]
    views = args.format == FORMAT_VERSION_VIEWS
    rng = np.random.default_rng(args.seed)
    net = (ViewsNet if views else Net)(args.hidden, rng, args.buckets)
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in net.params()]
    # The output weights are in centipawns, the others near 1: their steps differ as much.
    step_scale = [1.0, 1.0, 100.0] + [1.0] * (args.buckets > 1) + [100.0, 100.0] * views
    best = (d.base_val, None, 0)
    step = 0
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(tr_red))
        for s in range(0, len(order), args.batch):
            b = order[s : s + args.batch]
            if args.buckets > 1:
                grads = net.gradients(tr_red[b], tr_black[b], tr_linear[b], tr_target[b], d.k,
                                      tr_red_b[b], tr_black_b[b],
                                      None if tr_sign is None else tr_sign[b])
            else:
                grads = net.gradients(tr_red[b], tr_black[b], tr_linear[b], tr_target[b], d.k,
                                      sign=None if tr_sign is None else tr_sign[b])
            net.decay_inputs(1 - args.lr * args.decay, 1 - args.lr * bucket_decay)
            step += 1
            for p, g, (m1, m2), scale in zip(net.params(), grads, moments, step_scale):
                m1 *= 0.9
                m1 += 0.1 * g
                m2 *= 0.999
                m2 += 0.001 * g * g
                m_hat = m1 / (1 - 0.9**step)
                v_hat = m2 / (1 - 0.999**step)
                p -= args.lr * scale * m_hat / (np.sqrt(v_hat) + 1e-8)
        out_val = net.correction(*d.rows(d.val))
        out_train = net.correction(*d.rows(d.train))
        e_val = d.report(epoch, out_train, out_val, t0)
        if e_val < best[0]:
            best = (e_val, [p.copy() for p in net.params()], epoch)
    return best + (net,)


class TorchViews:
    """A `ViewsNet` in PyTorch, for `--backend torch`: its parameters as tensors of the same
    shapes, the first layer a sparse sum of the pieces' table rows (`embedding_bag`; the
    padding is left out, so its rows stay zero). The mirror twin of a unit is computed from
    the mirrored rows of the free half's table, so autograd folds its gradient onto the free
    half; both twins share the output weights. The activation is `hardtanh(0, 1)`, whose
    slope is 0 at both ends, as the numpy network's."""

    def __init__(self, net: ViewsNet, dtype):
        import torch

        self.torch = torch
        self.dtype = dtype
        self.bucketed = net.wb is not None
        self.params = [torch.tensor(p, dtype=dtype, requires_grad=True) for p in net.params()]

    def table_sums(self, rows: np.ndarray, pad: int, mirror: np.ndarray, table) -> "torch.Tensor":
        """The sums of `table`'s rows for each line of `rows` (padded with `pad`), then for
        each line seen in the mirror."""
        torch = self.torch
        real = rows != pad
        flat = rows[real]
        starts = np.zeros(len(rows), np.int64)
        np.cumsum(real.sum(1)[:-1], out=starts[1:])
        index = torch.from_numpy(np.concatenate([flat, mirror[flat]]).astype(np.int64))
        offsets = torch.from_numpy(np.concatenate([starts, starts + len(flat)]))
        return torch.nn.functional.embedding_bag(index, table, offsets, mode="sum")

    def activations(self, f: np.ndarray, fb: np.ndarray | None) -> "torch.Tensor":
        """Each line's clamped hidden sums, a unit and its twin added (they share an output
        weight), from its features `f` and bucket rows `fb`."""
        w1, b1 = self.params[:2]
        pre = self.table_sums(f, PAD, MIRROR_INPUT, w1)
        if self.bucketed:
            pre = pre + self.table_sums(fb, BUCKET_PAD, MIRROR_BUCKET_INPUT, self.params[3])
        a = self.torch.nn.functional.hardtanh(pre + b1, 0.0, 1.0)
        return a[: len(f)] + a[len(f) :]

    def output(self, first, second, first_b=None, second_b=None, sign=None) -> "torch.Tensor":
        """N from Red's point of view, as `ViewsNet.correction` (numpy arrays in)."""
        torch = self.torch
        n = len(first)
        a = self.activations(np.concatenate([first, second]),
                             None if first_b is None else np.concatenate([first_b, second_b]))
        w2, w2_them, b2 = self.params[2], self.params[-2], self.params[-1]
        sign = torch.from_numpy(np.asarray(sign)).to(self.dtype)
        return sign * (a[:n] @ w2 + a[n:] @ w2_them + b2)

    def loss(self, first, second, linear, target, k, first_b=None, second_b=None,
             sign=None) -> "torch.Tensor":
        """The mean squared error of the expected result, as `ViewsNet.gradients` takes it."""
        torch = self.torch
        n = self.output(first, second, first_b, second_b, sign)
        linear = torch.from_numpy(np.asarray(linear)).to(self.dtype)
        target = torch.from_numpy(np.asarray(target)).to(self.dtype)
        return torch.mean((torch.sigmoid(k * (linear + n) / 400) - target) ** 2)

    def correction(self, first, second, first_b=None, second_b=None, sign=None) -> np.ndarray:
        """N for each board, in parts of 20,000 boards, as float64 numpy."""
        out = []
        with self.torch.no_grad():
            for s in range(0, len(first), 20000):
                part = slice(s, s + 20000)
                out.append(self.output(first[part], second[part],
                                       None if first_b is None else first_b[part],
                                       None if second_b is None else second_b[part],
                                       sign[part]).numpy())
        return np.concatenate(out).astype(np.float64)

    def numpy_params(self) -> list[np.ndarray]:
        """The parameters as the numpy network's float32 arrays (for `ViewsNet.set_params`)."""
        return [p.detach().numpy().astype(np.float32) for p in self.params]


def train_torch(args, d: Prepared, bucket_decay: float, t0: float) -> tuple:
    """As `train_numpy`, format 3 only, with PyTorch (float32): the same initial weights
    (`ViewsNet`'s, drawn from the seed) and shuffles (numpy's), autograd for the gradients and
    `torch.optim.AdamW` for the steps (the same rule: the input tables decayed apart from
    Adam's step, the output weights' steps 100 times as large)."""
    import torch

    torch.manual_seed(args.seed)
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    net = ViewsNet(args.hidden, rng, args.buckets)
    model = TorchViews(net, torch.float32)
    w1, b1, w2 = model.params[:3]
    groups = [
        {"params": [w1], "weight_decay": args.decay},
        {"params": [b1], "weight_decay": 0.0},
        {"params": [w2] + model.params[-2:], "lr": 100 * args.lr, "weight_decay": 0.0},
    ]
    if args.buckets > 1:
        groups.append({"params": [model.params[3]], "weight_decay": bucket_decay})
    opt = torch.optim.AdamW(groups, lr=args.lr, betas=(0.9, 0.999), eps=1e-8)
    tr_first, tr_second, tr_first_b, tr_second_b, tr_sign = d.rows(d.train)
    tr_linear, tr_target = d.linear[d.train], d.target[d.train]
    best = (d.base_val, None, 0)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(tr_first))
        for s in range(0, len(order), args.batch):
            b = order[s : s + args.batch]
            opt.zero_grad()
            model.loss(tr_first[b], tr_second[b], tr_linear[b], tr_target[b], d.k,
                       None if tr_first_b is None else tr_first_b[b],
                       None if tr_second_b is None else tr_second_b[b], tr_sign[b]).backward()
            opt.step()
        out_val = model.correction(*d.rows(d.val))
        out_train = model.correction(*d.rows(d.train))
        e_val = d.report(epoch, out_train, out_val, t0)
        if e_val < best[0]:
            best = (e_val, model.numpy_params(), epoch)
    return best + (net,)


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="positions from `tune --dump-net`")
    ap.add_argument(
        "--hidden", type=int, default=64, help="hidden units, an even number (mirror pairs) [64]"
    )
    ap.add_argument("--epochs", type=int, default=12, help="passes over the data [12]")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam step size [0.001]")
    ap.add_argument(
        "--decay", type=float, default=0.1,
        help="weight decay of the input weights, apart from Adam's step (AdamW) [0.1]",
    )
    ap.add_argument(
        "--bucket-decay", type=float, default=None,
        help="weight decay of the bucket tables (--buckets 9), which a larger value keeps "
        "close to the shared table [the --decay value]",
    )
    ap.add_argument("--batch", type=int, default=1024, help="positions per step [1024]")
    ap.add_argument(
        "--score-weight", type=float, default=1.0,
        help="X: the reference score's share of the target [1]",
    )
    ap.add_argument("--validation", type=int, default=10, help="hold out every N-th game [10]")
    ap.add_argument("--seed", type=int, default=1, help="random seed [1]")
    ap.add_argument(
        "--buckets", type=int, choices=(1, BUCKETS), default=1,
        help=f"input tables per placement of the side's general: 1, or {BUCKETS} (the palace "
        "points; writes network file format 2) [1]",
    )
    ap.add_argument(
        "--format", type=int, choices=(1, FORMAT_VERSION_VIEWS), default=1,
        help="3: both views into the output, the side to move's first (network file format "
        "3, with or without buckets; needs the dump's side to move); 1: the formats 1 and 2 "
        "[1]",
    )
    ap.add_argument(
        "--role", choices=tuple(ROLES), default="correction",
        help="format 3: a correction added to the weighted terms, or the whole evaluation "
        "(fitted without them) [correction]",
    )
    ap.add_argument(
        "--backend", choices=("numpy", "torch"), default="numpy",
        help="numpy, or PyTorch (format 3 only; imported only then) [numpy]",
    )
    ap.add_argument(
        "--threads", type=int, default=None,
        help="--backend torch: threads (torch.set_num_threads) [torch's default]",
    )
    ap.add_argument(
        "--out", type=Path,
        default=root / "crates/chuhe-engine/nets",
        help="network file, or a directory to write xiangqi-<CRC-32>.nnue in "
        "[crates/chuhe-engine/nets]",
    )
    args = ap.parse_args(argv)
    if args.hidden < 2 or args.hidden % 2 or args.epochs < 1 or args.batch < 1:
        ap.error("--hidden must be even and at least 2, --epochs and --batch at least 1")
    if args.validation < 2 or args.decay < 0:
        ap.error("--validation must be at least 2, --decay at least 0")
    if args.bucket_decay is not None and args.bucket_decay < 0:
        ap.error("--bucket-decay must be at least 0")
    if args.role != "correction" and args.format != FORMAT_VERSION_VIEWS:
        ap.error("--role evaluation needs --format 3")
    if args.backend == "torch" and args.format != FORMAT_VERSION_VIEWS:
        ap.error("--backend torch trains format 3 only: add --format 3")
    if args.threads is not None and (args.backend != "torch" or args.threads < 1):
        ap.error("--threads is for --backend torch, and at least 1")
    bucket_decay = args.decay if args.bucket_decay is None else args.bucket_decay
    if not 0.0 <= args.score_weight <= 1.0:
        ap.error("--score-weight must lie in 0..1")
    try:
        data = load(args.data)
    except DataError as e:
        print(f"train_xiangqi_net: {e}", file=sys.stderr)
        return 1
    t0 = time.time()
    val = data["game"] % args.validation == 0
    if not val.any() or val.all():
        print("train_xiangqi_net: need both training and validation games", file=sys.stderr)
        return 1
    views = args.format == FORMAT_VERSION_VIEWS
    if views and not data["turn"].all():
        print(f"train_xiangqi_net: {args.data}: format 3 needs the side to move, the sixth "
              "field (dumps of `tune --dump-net` have it)", file=sys.stderr)
        return 1
    if args.backend == "torch":
        try:
            import torch  # noqa: F401
        except ImportError as e:
            print(f"train_xiangqi_net: --backend torch: {e}", file=sys.stderr)
            return 1
    d = Prepared(args, data)
    train = train_torch if args.backend == "torch" else train_numpy
    *best, net = train(args, d, bucket_decay, t0)
    if best[1] is None:
        print("train_xiangqi_net: no epoch beat the evaluation without the network; "
              "weights not written", file=sys.stderr)
        return 1
    net.set_params(best[1])
    # One bucket keeps the notes (and so the file) exactly as before buckets existed.
    units = f"{args.hidden} hidden units"
    if views:
        units += (f" per view, both views into the output (format 3, {args.buckets} "
                  f"bucket{'s' * (args.buckets > 1)}, the {args.role})")
        if args.buckets > 1:
            units += f", bucket decay {bucket_decay}"
    elif args.buckets > 1:
        units += (f" in {args.buckets} general-placement buckets (format 2), bucket decay "
                  f"{bucket_decay}")
    if args.backend == "torch":
        units += ", PyTorch (float32)"
    notes = [
        f"{args.data.name}: {len(d.linear)} positions, {val.sum()} held out (every "
        f"{args.validation}th game); {units}, epoch {best[2]} of "
        f"{args.epochs}, lr {args.lr}, decay {args.decay}, score weight {args.score_weight}, "
        f"seed {args.seed}",
        f"K = {d.k:.4f}; validation MSE {d.base_val:.6f} without the network, "
        f"{best[0]:.6f} with it",
    ]
    path = write_network(net, args.out, notes, args.role)
    print(f"epoch {best[2]} written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
