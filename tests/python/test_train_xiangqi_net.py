"""scripts/train_xiangqi_net.py: it learns what the data says, writes a network file whose
integer tables compute what the float network computes (in the engine's own file format, byte
for byte), and names the line of a malformed input; with general-placement buckets
(`--buckets 9`) it writes format 2, whose tables follow the bucket rule."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import struct
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORMAT_1_NET = ROOT / "data/xiangqi-eb4886bc.nnue"
spec = importlib.util.spec_from_file_location(
    "train_xiangqi_net", ROOT / "scripts" / "train_xiangqi_net.py"
)
trainer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trainer)

# The starting position, a1..i10, as `tune --dump-net` writes it (0 empty, 1 + side × 7 + role;
# roles general, advisor, elephant, horse, chariot, cannon, soldier).
START = [
    5, 4, 3, 2, 1, 2, 3, 4, 5,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 6, 0, 0, 0, 0, 0, 6, 0,
    7, 0, 7, 0, 7, 0, 7, 0, 7,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    14, 0, 14, 0, 14, 0, 14, 0, 14,
    0, 13, 0, 0, 0, 0, 0, 13, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    12, 11, 10, 9, 8, 9, 10, 11, 12,
]


def synthetic_dump(path: pathlib.Path, games: int = 400, seed: int = 3) -> None:
    """Positions with a rule the linear evaluation (0 here) misses: a Red cannon moved to
    the centre file (b3 to e3) is worth 150 cp, and the reference score says so; Black's
    mirror image (b8 to e8) counts as much against Red."""
    rng = np.random.default_rng(seed)
    lines = []
    for game in range(games):
        board = list(START)
        score = 0
        if rng.random() < 0.5:  # Red cannon b3 -> e3
            board[19], board[22] = 0, 6
            score += 150
        if rng.random() < 0.5:  # Black cannon b8 -> e8
            board[64], board[67] = 0, 13
            score -= 150
        result = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        for _ in range(3):
            lines.append(f"{game}\t{result}\t{score}\t0\t{','.join(map(str, board))}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_weights(path: pathlib.Path) -> dict:
    return trainer.read_network(path.read_bytes())


def flip_rank(point: int) -> int:
    return (9 - point // 9) * 9 + point % 9


def palace_bucket(point: int) -> int:
    """Format 2's bucket of a general on `point` seen from its own side: the palace points
    rank × 3 + (file − 3), anywhere else the home point e1's bucket, 1."""
    rank, file = divmod(point, 9)
    return rank * 3 + file - 3 if rank <= 2 and 3 <= file <= 5 else 1


def view_buckets(board: list[int]) -> tuple[int, int]:
    """The bucket of Red's view (Red's general, code 1) and of Black's (code 8, ranks
    flipped); 1 where that general is absent."""
    red = palace_bucket(board.index(1)) if 1 in board else 1
    black = palace_bucket(flip_rank(board.index(8))) if 8 in board else 1
    return red, black


def integer_sums(w: dict[str, np.ndarray], board: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Red's view's hidden sums and Black's, as eval/xiangqi_net/ adds them (rows
    bucket × 1260 + piece × 90 + point, each view in its own general's bucket; bucket 0
    without buckets)."""
    red = w["B1"].copy()
    black = w["B1"].copy()
    red_row = black_row = 0
    if w["BUCKETS"] == 9:
        red_bucket, black_bucket = view_buckets(board)
        red_row, black_row = red_bucket * 1260, black_bucket * 1260
    else:
        assert w["BUCKETS"] == 1
    for point, code in enumerate(board):
        if code:
            piece = code - 1
            swapped = piece - 7 if piece >= 7 else piece + 7
            red = red + w["W1"][red_row + piece * 90 + point]
            black = black + w["W1"][black_row + swapped * 90 + flip_rank(point)]
    return red, black


def integer_correction(w: dict[str, np.ndarray], board: list[int]) -> int:
    """What eval/xiangqi_net/ computes for a format-1 or -2 file, in the same integer steps."""
    red, black = integer_sums(w, board)
    s = w["SCALE"]
    total = int(((np.clip(red, 0, s) - np.clip(black, 0, s)) * w["W2"]).sum())
    return int(total / (s * w["OUT_SCALE"]))  # truncation toward zero, as Rust's `/`


def test_the_network_learns_a_rule_and_its_tables_compute_it(tmp_path):
    dump = tmp_path / "dump.txt"
    synthetic_dump(dump)
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--epochs", "40", "--hidden", "8", "--lr", "0.01",
                         "--score-weight", "1", "--out", str(out)]) == 0
    w = read_weights(out)
    assert w["HIDDEN"] == 8
    start = integer_correction(w, START)
    assert start == 0  # the same from either side
    red_centre = list(START)
    red_centre[19], red_centre[22] = 0, 6
    black_centre = list(START)
    black_centre[64], black_centre[67] = 0, 13
    gain = integer_correction(w, red_centre)
    assert gain > 60, gain  # learnt: the centred cannon is worth something to Red
    assert integer_correction(w, black_centre) == -gain  # and as much to Black
    # Mirror pairs of units: a position and its mirror image get the same correction, in
    # the integer tables too (the rule was only ever seen on the b-file cannon).
    rng = np.random.default_rng(5)
    for _ in range(20):
        board = list(START)
        for _ in range(6):  # shuffle some pieces around
            a, b = rng.integers(0, 90, 2)
            board[a], board[b] = board[b], board[a]
        mirrored = [board[trainer.MIRROR_FILE[p]] for p in range(90)]
        assert integer_correction(w, mirrored) == integer_correction(w, board)
    from_h_file = list(START)
    from_h_file[25], from_h_file[22] = 0, 6  # Red cannon h3 -> e3
    assert integer_correction(w, from_h_file) == gain


def test_the_writer_gives_the_engine_s_file_byte_for_byte():
    nets = sorted((ROOT / "crates/chuhe-engine/nets").glob("xiangqi-*.nnue"))
    assert nets, "no network file in crates/chuhe-engine/nets"
    # The embedded network (format 3, 128 units) and the one before it (format 1, 64 units),
    # kept in data/ as the network its successor's data was dumped under.
    kinds = set()
    for path in nets + [FORMAT_1_NET]:
        data = path.read_bytes()
        w = trainer.read_network(data)
        kinds.add((w["version"], w["game"], w["HIDDEN"]))
        views = None
        if w["version"] == trainer.FORMAT_VERSION_VIEWS:
            views = {"w2_them": w["W2_THEM"], "b2": w["B2"], "role": w["ROLE"]}
        again = trainer.network_bytes(w["W1"], w["B1"], w["W2"], w["description"], views)
        assert again == data
        assert path.name == f"xiangqi-{trainer.zlib.crc32(data[:-4]):08x}.nnue"
    assert kinds == {(3, 1, 128), (1, 1, 64)}


def test_a_directory_gets_a_file_named_by_its_checksum(tmp_path):
    dump = tmp_path / "dump.txt"
    synthetic_dump(dump, games=100)
    assert trainer.main([str(dump), "--epochs", "10", "--hidden", "4", "--lr", "0.01",
                         "--out", str(tmp_path)]) == 0
    (written,) = tmp_path.glob("xiangqi-*.nnue")
    assert trainer.read_network(written.read_bytes())["HIDDEN"] == 4


def test_the_same_data_and_seed_write_the_same_bytes(tmp_path):
    dump = tmp_path / "dump.txt"
    synthetic_dump(dump, games=100)
    written = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.nnue"
        assert trainer.main([str(dump), "--epochs", "4", "--hidden", "4", "--lr", "0.01",
                             "--seed", "9", "--out", str(out)]) == 0
        written.append(out.read_bytes())
    assert written[0] == written[1]


def test_a_malformed_line_is_named(tmp_path, capsys):
    dump = tmp_path / "bad.txt"
    good = f"1\t0.5\t-\t0\t{','.join(map(str, START))}"
    dump.write_text(good + "\n" + "2\t0.5\t-\t0\t1,2,3\n", encoding="utf-8")
    assert trainer.main([str(dump), "--out", str(tmp_path / "w.nnue")]) == 1
    err = capsys.readouterr().err
    assert "bad.txt:2" in err and "90 points" in err
    assert not (tmp_path / "w.nnue").exists()


def test_a_missing_file_is_named(tmp_path, capsys):
    missing = tmp_path / "none.txt"
    assert trainer.main([str(missing)]) == 1
    assert "none.txt" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flag",
    [["--hidden", "0"], ["--hidden", "7"], ["--score-weight", "2"], ["--decay", "-1"],
     ["--buckets", "4"], ["--buckets", "0"],
     ["--bucket-decay", "-1"], ["--backend", "torch"], ["--threads", "2"],
     ["--backend", "torch", "--format", "3", "--threads", "0"], ["--backend", "jax"]],
)
def test_bad_settings_are_refused(tmp_path, flag):
    with pytest.raises(SystemExit) as e:
        trainer.main([str(tmp_path / "x.txt"), *flag])
    assert e.value.code == 2


# Format 2: general-placement buckets.


def colour_swapped(board: list[int]) -> list[int]:
    """The same position with the colours swapped: each piece to the other side's point."""
    out = [0] * 90
    for point, code in enumerate(board):
        if code:
            out[flip_rank(point)] = code - 7 if code > 7 else code + 7
    return out


def mirrored(board: list[int]) -> list[int]:
    return [board[(p // 9) * 9 + 8 - p % 9] for p in range(90)]


def with_generals(red_at: int | None, black_at: int | None, board=START) -> list[int]:
    """`board` with Red's general moved to `red_at` and Black's to `black_at` (None: taken
    off the board), whatever stood there before removed."""
    out = [0 if code in (1, 8) else code for code in board]
    if red_at is not None:
        out[red_at] = 1
    if black_at is not None:
        out[black_at] = 8
    return out


E1, E2, E9, E10 = 4, 13, 76, 85


def palace_dump(path: pathlib.Path, games: int = 400, seed: int = 4) -> None:
    """Positions with a rule that depends on where a general stands: Red's cannon moved to
    the centre file (b3 to e3) is worth 150 cp while Red's general stands on e2 (bucket 4)
    and nothing otherwise; Black's mirror image (b8 to e8, general on e9) as much against
    Red. The linear evaluation is 0 and the reference score says so."""
    rng = np.random.default_rng(seed)
    lines = []
    for game in range(games):
        red_up, red_centre, black_up, black_centre = rng.random(4) < 0.5
        board = with_generals(E2 if red_up else E1, E9 if black_up else E10)
        if red_centre:
            board[19], board[22] = 0, 6
        if black_centre:
            board[64], board[67] = 0, 13
        score = 150 * int(red_up and red_centre) - 150 * int(black_up and black_centre)
        result = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        for _ in range(3):
            lines.append(f"{game}\t{result}\t{score}\t0\t{','.join(map(str, board))}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def shuffled_palace_boards(count: int, seed: int) -> list[list[int]]:
    """Start positions with a few pieces swapped around and each general on a random point
    of its palace, now and then elsewhere or off the board."""
    rng = np.random.default_rng(seed)
    red_palace = [r * 9 + f for r in range(3) for f in range(3, 6)]
    black_palace = [flip_rank(p) for p in red_palace]
    boards = []
    # Now and then elsewhere: e5 and e6 (outside the palaces), or off the board.
    red_choices = red_palace + [40, None]
    black_choices = black_palace + [49, None]
    for _ in range(count):
        red_at = red_choices[rng.integers(len(red_choices))]
        black_at = black_choices[rng.integers(len(black_choices))]
        board = with_generals(red_at, black_at)
        for _ in range(6):
            a, b = rng.integers(0, 90, 2)
            if board[a] not in (1, 8) and board[b] not in (1, 8):
                board[a], board[b] = board[b], board[a]
        boards.append(board)
    return boards


def test_the_bucket_rule_is_format_2_s():
    # Red's view: the general's own point; Black's: ranks flipped; home bucket 1 elsewhere.
    boards = np.array(shuffled_palace_boards(60, seed=8), dtype=np.int16)
    red, black = trainer.general_buckets(boards)
    assert [tuple(v) for v in zip(red, black)] == [view_buckets(list(b)) for b in boards]
    assert {int(b) for b in red} | {int(b) for b in black} == set(range(9))
    # Named points: d1 0, e1 1, f1 2, d2 3, e2 4, f3 8; Black's e10 1, e9 4, d8 6.
    assert [trainer.BUCKET_OF_POINT[p] for p in (3, 4, 5, 12, 13, 23)] == [0, 1, 2, 3, 4, 8]
    assert [trainer.BUCKET_OF_POINT[trainer.FLIP_RANK[p]] for p in (85, 76, 66)] == [1, 4, 6]
    assert list(trainer.MIRROR_BUCKET) == [2, 1, 0, 5, 4, 3, 8, 7, 6]


def test_bucketed_gradients_are_the_loss_s_slope():
    rng = np.random.default_rng(2)
    net = trainer.Net(4, rng, buckets=9)
    net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.05, net.wb[: trainer.BUCKET_PAD].shape)
    net.set_params([p.astype(np.float64) for p in net.params()])
    boards = np.array(shuffled_palace_boards(6, seed=3), dtype=np.int16)
    red, black = trainer.features(boards)
    red_bucket, black_bucket = trainer.general_buckets(boards)
    red_b, black_b = trainer.bucketed(red, red_bucket), trainer.bucketed(black, black_bucket)
    linear = rng.normal(0, 100, len(boards))
    target = rng.random(len(boards))
    k = 1.3

    def loss() -> float:
        out = net.correction(red, black, red_b, black_b)
        return float(np.mean((trainer.sigmoid(k * (linear + out) / 400) - target) ** 2))

    grads = net.gradients(red, black, linear, target, k, red_b, black_b)
    # Rows of the bucket table the boards use, for both the unit and its mirror twin.
    for row in [red_b[0, 0], black_b[1, 3], trainer.MIRROR_BUCKET_INPUT[red_b[2, 5]]]:
        for unit in range(2):
            eps = 1e-6
            net.wb[row, unit] += eps
            up = loss()
            net.wb[row, unit] -= 2 * eps
            down = loss()
            net.wb[row, unit] += eps
            assert grads[3][row, unit] == pytest.approx((up - down) / (2 * eps), rel=1e-4,
                                                        abs=1e-12)
    assert np.any(grads[3] != 0) and np.all(grads[3][trainer.BUCKET_PAD] == 0)


def test_the_decay_shrinks_the_shared_and_the_bucket_table():
    rng = np.random.default_rng(4)
    net = trainer.Net(4, rng, buckets=9)
    net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.05, net.wb[: trainer.BUCKET_PAD].shape)
    before = [p.copy() for p in net.params()]
    net.decay_inputs(0.5)
    w1, b1, w2, wb = net.params()
    assert np.allclose(w1, before[0] * 0.5) and np.allclose(wb, before[3] * 0.5)
    assert np.any(wb != 0)
    assert np.array_equal(b1, before[1]) and np.array_equal(w2, before[2])
    # --bucket-decay: the bucket tables shrink by their own factor.
    net.decay_inputs(0.5, 0.25)
    assert np.allclose(net.w1, before[0] * 0.25) and np.allclose(net.wb, before[3] * 0.125)


def test_the_v2_tables_compute_what_the_float_network_computes(tmp_path):
    rng = np.random.default_rng(6)
    net = trainer.Net(8, rng, buckets=9)
    net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.05, net.wb[: trainer.BUCKET_PAD].shape)
    path = trainer.write_network(net, tmp_path / "net.nnue", ["random"])
    w = read_weights(path)
    boards = shuffled_palace_boards(40, seed=7)
    array = np.array(boards, dtype=np.int16)
    red, black = trainer.features(array)
    red_bucket, black_bucket = trainer.general_buckets(array)
    floats = net.correction(red, black, trainer.bucketed(red, red_bucket),
                            trainer.bucketed(black, black_bucket))
    integers = np.array([integer_correction(w, b) for b in boards])
    assert np.abs(floats).max() > 20  # the buckets matter: a real correction to compare
    assert np.abs(floats - integers).max() < 3, np.abs(floats - integers).max()


def test_a_bucketed_network_learns_a_rule_of_the_general_s_placement(tmp_path):
    dump = tmp_path / "palace.txt"
    palace_dump(dump)
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--buckets", "9", "--epochs", "40", "--hidden", "8",
                         "--lr", "0.01", "--out", str(out)]) == 0
    w = read_weights(out)
    assert (w["version"], w["BUCKETS"], w["HIDDEN"]) == (2, 9, 8)
    assert w["W1"].shape == (9 * 1260, 8)

    def centred(board: list[int]) -> list[int]:
        board = list(board)
        board[19], board[22] = 0, 6
        return board

    up = with_generals(E2, E10)
    home = with_generals(E1, E10)
    gain = integer_correction(w, centred(up))
    assert gain > 110, gain  # learnt: the centred cannon with the general on e2
    assert abs(integer_correction(w, centred(home))) < 20  # and nothing with it on e1
    assert abs(integer_correction(w, up)) < 20  # nor for the general on e2 alone
    # As much to Black, with Black's general on e9; exactly, by construction.
    assert integer_correction(w, colour_swapped(centred(up))) == -gain
    # The file's tables differ by bucket where the rule does: cannon e3 in bucket 4 and 1.
    cannon_e3 = 5 * 90 + 22
    assert np.any(w["W1"][4 * 1260 + cannon_e3] != w["W1"][1 * 1260 + cannon_e3])
    for board in shuffled_palace_boards(30, seed=9):
        correction = integer_correction(w, board)
        assert integer_correction(w, colour_swapped(board)) == -correction
        assert integer_correction(w, mirrored(board)) == correction
    # The rule was only ever seen on the b-file cannon: the h-file's counts as much.
    from_h_file = list(up)
    from_h_file[25], from_h_file[22] = 0, 6
    assert integer_correction(w, from_h_file) == gain

    # One bucket, the same data and settings: its hidden units fit the rule far worse.
    def error(w: dict) -> int:
        return max(abs(integer_correction(w, board) - want) for board, want in
                   [(centred(up), 150), (centred(home), 0), (up, 0), (home, 0)])

    assert trainer.main([str(dump), "--epochs", "40", "--hidden", "8", "--lr", "0.01",
                         "--out", str(out)]) == 0
    assert error(read_weights(out)) > 2 * error(w) + 20, (error(read_weights(out)), error(w))


def test_a_v2_file_round_trips_with_its_header_as_specified(tmp_path):
    dump = tmp_path / "palace.txt"
    palace_dump(dump, games=100)
    assert trainer.main([str(dump), "--buckets", "9", "--epochs", "3", "--hidden", "4",
                         "--lr", "0.01", "--out", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("xiangqi-*.nnue")
    data = path.read_bytes()
    assert path.name == f"xiangqi-{trainer.zlib.crc32(data[:-4]):08x}.nnue"
    assert int.from_bytes(data[-4:], "little") == trainer.zlib.crc32(data[:-4])
    assert data[:8] == b"CHUHENET"
    # version, game, inputs per bucket, hidden, buckets, SCALE, OUT_SCALE, description length
    header = trainer.struct.unpack_from("<8I", data, 8)
    assert header[:7] == (2, 1, 1260, 4, 9, 512, 16)
    n = header[7]
    description = data[40 : 40 + n].decode("utf-8")
    assert "9 general-placement buckets" in description
    assert len(data) == 40 + n + 2 * (9 * 1260 * 4 + 4 + 4) + 4
    w = trainer.read_network(data)
    assert (w["version"], w["BUCKETS"], w["INPUTS"], w["description"]) == (2, 9, 1260, description)
    assert w["W1"].shape == (9 * 1260, 4) and len(w["B1"]) == len(w["W2"]) == 4
    assert trainer.network_bytes(w["W1"], w["B1"], w["W2"], w["description"]) == data
    damaged = bytearray(data)
    damaged[50] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        trainer.read_network(bytes(damaged))


def test_one_bucket_writes_format_1_as_before(tmp_path):
    dump = tmp_path / "dump.txt"
    synthetic_dump(dump, games=100)
    written = []
    for flags in ([], ["--buckets", "1"]):
        out = tmp_path / f"net{len(flags)}.nnue"
        assert trainer.main([str(dump), "--epochs", "3", "--hidden", "4", "--lr", "0.01",
                             *flags, "--out", str(out)]) == 0
        written.append(out.read_bytes())
    assert written[0] == written[1]
    w = trainer.read_network(written[0])
    assert (w["version"], w["BUCKETS"], w["W1"].shape) == (1, 1, (1260, 4))
    assert "bucket" not in w["description"]


def test_a_bucket_whose_sums_could_overflow_is_refused(tmp_path):
    net = trainer.Net(4, np.random.default_rng(1), buckets=9)
    net.w1[:] = 0
    # Only bucket 7 reaches too far: 90 points × 1.0 × 512 > 32,767.
    net.wb[7 * 1260 : 7 * 1260 + 90, 0] = 1.0
    with pytest.raises(SystemExit, match="overflow"):
        trainer.write_network(net, tmp_path / "w.nnue", [])
    assert not (tmp_path / "w.nnue").exists()
    net.wb[:] = 0
    path = trainer.write_network(net, tmp_path / "w.nnue", [])
    assert trainer.read_network(path.read_bytes())["BUCKETS"] == 9


def test_another_format_version_is_refused():
    data = bytearray((ROOT / "crates/chuhe-engine/nets").glob("xiangqi-*.nnue").__next__()
                     .read_bytes())
    data[8:12] = (4).to_bytes(4, "little")
    with pytest.raises(ValueError, match="format version 4"):
        trainer.read_network(bytes(data))


# Positions of real games (chuhe against Fairy-Stockfish), the generals on many points of
# their palaces, both sides to move.
ENGINE_FENS = [
    "2bk1a3/4a4/4b4/4P4/9/6B2/9/2p1Bn3/5K3/9 b - - 1 63",
    "5k3/4a4/4R4/9/9/9/9/9/4A4/2BK1AB2 w - - 3 85",
    "3k1ab2/9/5a3/3PPN3/9/3n5/9/4B4/4A4/2BK1A3 w - - 33 51",
    "3ak1b2/9/9/9/6b2/9/5R3/5K3/9/3n2r2 b - - 7 113",
    "1r1k1ab2/2R1C4/4b4/n8/5R2p/2p3B2/3r5/9/4A4/3A1K3 b - - 0 43",
    "3a5/5R3/4k4/1Nn6/p4P3/5C3/5c3/4B4/4A4/2BAK4 w - - 2 49",
    "6b2/3ka4/b4a3/4C4/3PP4/8P/9/4B4/4A4/3AK4 w - - 7 56",
    "5kb2/4a4/3ab4/9/9/9/4N4/1nNK4B/4A3n/2p6 w - - 60 89",
    "3k1a3/4a4/b3c4/R2Cr4/PC4b2/6N1P/9/4B4/3K5/6B2 b - - 9 52",
    "9/4k4/R2a1a3/9/9/9/9/9/4A4/2BK1AB2 b - - 14 82",
    "2ba1k3/6R2/9/p1r6/1n7/9/P4n3/4B4/4A4/2BA1K3 w - - 5 34",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
]
FEN_CODES = {c: i + 1 for i, c in enumerate("kabnrcp")} | {"e": 3, "h": 4}


def board_of_fen(fen: str) -> list[int]:
    """The 90 points (a1 first, 0 empty, 1 + side × 7 + role) of a Xiangqi FEN."""
    board = [0] * 90
    for row, text in enumerate(fen.split()[0].split("/")):
        rank, file = 9 - row, 0
        for c in text:
            if c.isdigit():
                file += int(c)
                continue
            code = FEN_CODES[c.lower()]
            board[rank * 9 + file] = code if c.isupper() else code + 7
            file += 1
    return board


def engine_evaluations(chuhe_bin, eval_file: str, fens: list[str]) -> list[int]:
    """`chuhe uci`'s `eval` of each position under the network file `eval_file`."""
    lines = [f"setoption name EvalFile value {eval_file}"]
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    proc = subprocess.run([str(chuhe_bin), "uci", "--game", "xiangqi"],
                          input="\n".join(lines + ["quit"]) + "\n",
                          capture_output=True, text=True, timeout=60, check=True)
    out = [line for line in proc.stdout.splitlines() if line.startswith("static evaluation:")]
    assert len(out) == len(fens), proc.stdout
    assert "EvalFile: Xiangqi network" in proc.stdout, proc.stdout
    return [int(line.split()[2]) for line in out]


def test_the_engine_computes_what_the_trainer_wrote(tmp_path, chuhe_bin):
    """Across the languages: the engine's evaluation under a format-2 file the trainer wrote
    differs from its evaluation under a format-1 network by exactly the difference of the
    two networks' corrections as the trainer's tables compute them (the weighted terms are
    the same under both)."""
    dump = tmp_path / "dump.txt"
    palace_dump(dump)
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--epochs", "10", "--hidden", "64", "--buckets", "9",
                         "--lr", "0.01", "--out", str(out)]) == 0
    bucketed = read_weights(out)
    assert bucketed["BUCKETS"] == 9
    flat = read_weights(FORMAT_1_NET)
    with_bucketed = engine_evaluations(chuhe_bin, str(out), ENGINE_FENS)
    with_flat = engine_evaluations(chuhe_bin, str(FORMAT_1_NET), ENGINE_FENS)
    differences = 0
    for fen, new, old in zip(ENGINE_FENS, with_bucketed, with_flat):
        board = board_of_fen(fen)
        to_move = 1 if fen.split()[1] == "w" else -1
        expected = integer_correction(bucketed, board) - integer_correction(flat, board)
        assert new - old == to_move * expected, fen
        differences += expected != 0
    assert differences >= len(ENGINE_FENS) - 2


# Format 3: both views into the output, the side to move's first.

def integer_views_output(w: dict, board: list[int], red_to_move: bool) -> int:
    """What eval/xiangqi_net/ computes for a format-3 file, in the same integer steps: the
    side to move's clamped sums times W2 plus the other side's times W2_THEM plus B2, divided
    by SCALE × OUT_SCALE (truncated), from Red's point of view."""
    red, black = integer_sums(w, board)
    s = w["SCALE"]
    us, them = (red, black) if red_to_move else (black, red)
    total = int((np.clip(us, 0, s) * w["W2"]).sum() + (np.clip(them, 0, s) * w["W2_THEM"]).sum())
    v = int((total + w["B2"]) / (s * w["OUT_SCALE"]))
    return v if red_to_move else -v


def tempo_dump(path: pathlib.Path, games: int = 300, seed: int = 5,
               linear: bool = False) -> None:
    """Positions whose value is the side to move's: 120 cp for whoever moves, and a Red
    cannon on e3 worth 150 (the reference score says so; the linear evaluation is 0, or with
    `linear` half the value give or take 100). A network without the side to move cannot
    learn the first part."""
    rng = np.random.default_rng(seed)
    lines = []
    for game in range(games):
        board = list(START)
        score = 0
        if rng.random() < 0.5:
            board[19], board[22] = 0, 6
            score += 150
        for turn in ("w", "b"):
            value = score + (120 if turn == "w" else -120)
            result = 1.0 if value > 0 else 0.0 if value < 0 else 0.5
            guess = round(value / 2 + rng.uniform(-100, 100)) if linear else 0
            lines.append(f"{game}\t{result}\t{value}\t{guess}\t{','.join(map(str, board))}"
                         f"\t{turn}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def views_of(boards: np.ndarray, turns: np.ndarray, buckets: int):
    """The side to move's features and the other side's (and bucket rows), and the sign."""
    red, black = trainer.features(boards)
    to_move = turns[:, None] > 0
    first, second = np.where(to_move, red, black), np.where(to_move, black, red)
    if buckets == 1:
        return first, second, None, None, turns.astype(np.float64)
    red_bucket, black_bucket = trainer.general_buckets(boards)
    red_b, black_b = trainer.bucketed(red, red_bucket), trainer.bucketed(black, black_bucket)
    return (first, second, np.where(to_move, red_b, black_b), np.where(to_move, black_b, red_b),
            turns.astype(np.float64))


def test_format_3_gradients_are_the_loss_s_slope():
    rng = np.random.default_rng(12)
    net = trainer.ViewsNet(4, rng, buckets=9)
    net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.05, net.wb[: trainer.BUCKET_PAD].shape)
    net.b2[0] = 7.0
    net.set_params([p.astype(np.float64) for p in net.params()])
    boards = np.array(shuffled_palace_boards(6, seed=4), dtype=np.int16)
    turns = np.array([1, -1, -1, 1, -1, 1])
    first, second, first_b, second_b, sign = views_of(boards, turns, 9)
    linear = rng.normal(0, 100, len(boards))
    target = rng.random(len(boards))
    k = 1.1

    def loss() -> float:
        out = net.correction(first, second, first_b, second_b, sign)
        return float(np.mean((trainer.sigmoid(k * (linear + out) / 400) - target) ** 2))

    grads = net.gradients(first, second, linear, target, k, first_b, second_b, sign)
    params = net.params()
    assert len(grads) == len(params) == 6
    # Entries of every table: the shared input table, the biases, both output weights, the
    # bucket table and the output bias.
    probes = [(0, (first[0, 0], 1)), (0, (trainer.MIRROR_INPUT[second[3, 2]], 0)),
              (1, (1,)), (2, (0,)), (3, (first_b[4, 1], 1)), (4, (1,)), (5, (0,))]
    for which, at in probes:
        eps = 1e-6
        params[which][at] += eps
        up = loss()
        params[which][at] -= 2 * eps
        down = loss()
        params[which][at] += eps
        assert grads[which][at] == pytest.approx((up - down) / (2 * eps), rel=1e-4,
                                                 abs=1e-12), (which, at)


def test_format_3_learns_whose_turn_it_is_and_formats_1_cannot(tmp_path):
    dump = tmp_path / "dump.txt"
    tempo_dump(dump)
    views, flat = tmp_path / "views.nnue", tmp_path / "flat.nnue"
    assert trainer.main([str(dump), "--format", "3", "--epochs", "30", "--hidden", "8",
                         "--lr", "0.01", "--validation", "5", "--out", str(views)]) == 0
    assert trainer.main([str(dump), "--epochs", "30", "--hidden", "8", "--lr", "0.01",
                         "--validation", "5", "--out", str(flat)]) == 0
    w = read_weights(views)
    assert (w["version"], w["ROLE"], w["BUCKETS"], w["HIDDEN"]) == (3, "correction", 1, 8)
    assert "format 3" in w["description"]

    def error(description: str) -> float:
        # "... validation MSE <without> without the network, <with> with it"
        return float(description.split("validation MSE ")[1].split()[4])

    # The flat network cannot tell whose turn it is; the two views can.
    assert error(w["description"]) < 0.7 * error(read_weights(flat)["description"])
    board = list(START)
    board[19], board[22] = 0, 6
    red_moves, black_moves = (integer_views_output(w, board, t) for t in (True, False))
    # 150 for the cannon plus 120 for Red's move, 150 − 120 when Black moves (Red's view):
    # 240 apart when learnt whole; a network blind to the turn gives the same for both.
    assert red_moves - black_moves > 100, (red_moves, black_moves)


def test_format_3_needs_the_side_to_move(tmp_path, capsys):
    dump = tmp_path / "dump.txt"
    synthetic_dump(dump)  # five fields: no side to move
    assert trainer.main([str(dump), "--format", "3", "--out", str(tmp_path)]) == 1
    assert "side to move" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("1\t1\t0\t0\t" + ",".join(map(str, START)) + "\tx\n", encoding="utf-8")
    assert trainer.main([str(bad), "--format", "3", "--out", str(tmp_path)]) == 1
    assert "bad.txt:1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        trainer.main([str(dump), "--role", "evaluation", "--out", str(tmp_path)])


def test_a_v3_file_round_trips_with_its_header_as_specified(tmp_path):
    rng = np.random.default_rng(9)
    net = trainer.ViewsNet(16, rng, buckets=9)
    net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.05, net.wb[: trainer.BUCKET_PAD].shape)
    net.b2[0] = -33.0
    path = trainer.write_network(net, tmp_path / "net.nnue", ["v3"], "evaluation")
    data = path.read_bytes()
    header = struct.unpack_from("<9I", data, 8)
    assert header[:6] == (3, 1, 1260, 16, 9, 1)  # version, game, inputs, units, buckets, role
    w = read_weights(path)
    assert w["B2"] == -33 * 512 * 16 and len(w["W2_THEM"]) == 16
    assert len(data) == 44 + 2 + 2 * (9 * 1260 * 16 + 3 * 16) + 4 + 4
    assert trainer.network_bytes(w["W1"], w["B1"], w["W2"], "v3", {
        "w2_them": w["W2_THEM"], "b2": w["B2"], "role": "evaluation"}) == data
    # The integer tables compute what the float network computes.
    boards = shuffled_palace_boards(30, seed=2)
    turns = np.array([1 if i % 3 else -1 for i in range(len(boards))])
    first, second, first_b, second_b, sign = views_of(np.array(boards, dtype=np.int16), turns, 9)
    floats = net.correction(first, second, first_b, second_b, sign)
    integers = np.array([integer_views_output(w, b, t > 0) for b, t in zip(boards, turns)])
    assert np.abs(floats).max() > 20
    assert np.abs(floats - integers).max() < 3, np.abs(floats - integers).max()


def assert_engine_computes(chuhe_bin, out, w):
    """The engine's `eval` under the format-3 network file `out` (weights `w`) is the
    trainer's integer computation, in all but at most two of ENGINE_FENS not zero."""
    evaluations = engine_evaluations(chuhe_bin, str(out), ENGINE_FENS)
    nonzero = 0
    for fen, value in zip(ENGINE_FENS, evaluations):
        red_to_move = fen.split()[1] == "w"
        expected = integer_views_output(w, board_of_fen(fen), red_to_move)
        assert value == (expected if red_to_move else -expected), fen
        nonzero += expected != 0
    assert nonzero >= len(ENGINE_FENS) - 2


def test_the_engine_evaluates_with_a_format_3_network_as_the_trainer_computes(
        tmp_path, chuhe_bin):
    """Across the languages: a format-3 network that is the whole evaluation, with buckets;
    the engine's static evaluation (side to move's view) is exactly the trainer's integer
    computation."""
    dump = tmp_path / "dump.txt"
    palace_dump(dump)
    lines = dump.read_text(encoding="utf-8").splitlines()
    dump.write_text("".join(f"{line}\t{'wb'[i % 2]}\n" for i, line in enumerate(lines)),
                    encoding="utf-8")
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--format", "3", "--role", "evaluation", "--epochs", "12",
                         "--hidden", "32", "--buckets", "9", "--lr", "0.01",
                         "--out", str(out)]) == 0
    w = read_weights(out)
    assert (w["version"], w["ROLE"], w["BUCKETS"]) == (3, "evaluation", 9)
    assert_engine_computes(chuhe_bin, out, w)


# --backend torch: format 3 in PyTorch.


@pytest.fixture(scope="module")
def torch():
    """PyTorch: the tests that need it skip where it does not import, except under
    CHUHE_REQUIRE_TORCH=1 (scripts/test sets it for Debian's torch), where that fails."""
    if os.environ.get("CHUHE_REQUIRE_TORCH") == "1":
        import torch

        return torch
    return pytest.importorskip("torch")


@pytest.mark.parametrize("buckets", [1, 9])
@pytest.mark.parametrize("role", ["correction", "evaluation"])
def test_torch_loss_and_gradients_are_the_numpy_network_s(torch, buckets, role):
    rng = np.random.default_rng(20 + buckets)
    net = trainer.ViewsNet(16, rng, buckets=buckets)
    # Larger input weights than at the start: many hidden sums outside 0..1, many inside.
    net.w1[: trainer.PAD] = rng.normal(0, 0.15, net.w1[: trainer.PAD].shape)
    if buckets > 1:
        net.wb[: trainer.BUCKET_PAD] = rng.normal(0, 0.1, net.wb[: trainer.BUCKET_PAD].shape)
    net.b2[0] = -11.0
    net.set_params([p.astype(np.float64) for p in net.params()])
    boards = np.array(shuffled_palace_boards(64, seed=buckets), dtype=np.int16)
    turns = rng.choice([1, -1], len(boards))
    first, second, first_b, second_b, sign = views_of(boards, turns, buckets)
    # The evaluation role fits with nothing under the network.
    linear = rng.normal(0, 100, len(boards)) * (role == "correction")
    target = rng.random(len(boards))
    k = 0.9
    pre, _ = trainer.Net.hidden(*net.full()[:2], first, None if buckets == 1 else
                                net.full_buckets(), first_b)
    assert 0.2 < np.mean((pre > 0) & (pre < 1)) < 0.8

    model = trainer.TorchViews(net, torch.float64)
    loss = model.loss(first, second, linear, target, k, first_b, second_b, sign)
    out = net.correction(first, second, first_b, second_b, sign)
    expected = np.mean((trainer.sigmoid(k * (linear + out) / 400) - target) ** 2)
    assert float(loss) == pytest.approx(expected, rel=1e-12)
    loss.backward()
    grads = net.gradients(first, second, linear, target, k, first_b, second_b, sign)
    assert len(grads) == len(model.params) == 5 + (buckets > 1)
    tables = {0, 3} if buckets > 1 else {0}
    for which, (mine, theirs) in enumerate(zip(model.params, grads)):
        got = mine.grad.numpy()
        assert got.shape == theirs.shape
        assert np.abs(theirs).max() > 0, which
        # The numpy network adds its input tables' gradients up in float32; the rest are
        # float64 on both sides.
        tol = 1e-6 if which in tables else 1e-9
        np.testing.assert_allclose(got, theirs, rtol=tol, atol=tol * np.abs(theirs).max(),
                                   err_msg=str(which))
    # The padding rows get nothing, so they stay zero.
    assert not model.params[0].grad[trainer.PAD].any()
    if buckets > 1:
        assert not model.params[3].grad[trainer.BUCKET_PAD].any()
    # The whole network's output for the boards, in the numpy network's terms.
    assert np.allclose(model.correction(first, second, first_b, second_b, sign), out,
                       rtol=1e-12, atol=1e-9)


def validation_errors(description: str) -> tuple[float, float]:
    """The validation errors without the network and with it, from a file's notes."""
    words = description.split("validation MSE ")[1].split()
    return float(words[0]), float(words[4])


def test_torch_learns_whose_turn_it_is_and_writes_a_file_that_round_trips(torch, tmp_path):
    dump = tmp_path / "dump.txt"
    tempo_dump(dump)
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--backend", "torch", "--threads", "1", "--format", "3",
                         "--epochs", "30", "--hidden", "16", "--lr", "0.01", "--validation",
                         "5", "--out", str(out)]) == 0
    data = out.read_bytes()
    w = trainer.read_network(data)
    assert (w["version"], w["ROLE"], w["BUCKETS"], w["HIDDEN"]) == (3, "correction", 1, 16)
    assert "PyTorch" in w["description"]
    assert trainer.network_bytes(w["W1"], w["B1"], w["W2"], w["description"], {
        "w2_them": w["W2_THEM"], "b2": w["B2"], "role": w["ROLE"]}) == data
    without, with_net = validation_errors(w["description"])
    assert with_net < 0.7 * without, (without, with_net)
    board = list(START)
    board[19], board[22] = 0, 6
    red_moves, black_moves = (integer_views_output(w, board, t) for t in (True, False))
    assert red_moves - black_moves > 100, (red_moves, black_moves)
    # Mirror pairs: exactly the same for a position and its mirror image.
    for board in shuffled_palace_boards(20, seed=6):
        for t in (True, False):
            assert integer_views_output(w, mirrored(board), t) == integer_views_output(w, board, t)


def test_torch_writes_the_same_bytes_for_the_same_seed_and_threads(torch, tmp_path):
    dump = tmp_path / "dump.txt"
    tempo_dump(dump)
    written = []
    for run, seed in (("a", "9"), ("b", "9"), ("c", "10")):
        out = tmp_path / f"{run}.nnue"
        assert trainer.main([str(dump), "--backend", "torch", "--threads", "2", "--format",
                             "3", "--buckets", "9", "--epochs", "3", "--hidden", "16", "--lr",
                             "0.003", "--batch", "64", "--validation", "5", "--seed", seed,
                             "--out", str(out)]) == 0
        written.append(out.read_bytes())
    assert written[0] == written[1]
    assert written[0] != written[2]


def test_the_engine_evaluates_with_a_torch_trained_network_as_the_trainer_computes(
        torch, tmp_path, chuhe_bin):
    """As the numpy network's test above: a torch-trained format-3 network that is the whole
    evaluation, with buckets; the engine's evaluation is the trainer's integer computation."""
    dump = tmp_path / "dump.txt"
    palace_dump(dump)
    lines = dump.read_text(encoding="utf-8").splitlines()
    dump.write_text("".join(f"{line}\t{'wb'[i % 2]}\n" for i, line in enumerate(lines)),
                    encoding="utf-8")
    out = tmp_path / "net.nnue"
    assert trainer.main([str(dump), "--backend", "torch", "--format", "3", "--role",
                         "evaluation", "--epochs", "12", "--hidden", "32", "--buckets", "9",
                         "--lr", "0.01", "--out", str(out)]) == 0
    w = read_weights(out)
    assert (w["version"], w["ROLE"], w["BUCKETS"], w["HIDDEN"]) == (3, "evaluation", 9, 32)
    without, with_net = validation_errors(w["description"])
    assert with_net < without
    assert_engine_computes(chuhe_bin, out, w)


def test_the_numpy_backend_does_not_import_torch(tmp_path):
    dump = tmp_path / "dump.txt"
    tempo_dump(dump, games=60)
    script = ROOT / "scripts" / "train_xiangqi_net.py"
    code = (f"import runpy, sys; main = runpy.run_path({str(script)!r})['main']; "
            f"assert main([{str(dump)!r}, '--format', '3', '--epochs', '1', '--hidden', '4', "
            f"'--lr', '0.01', '--out', {str(tmp_path)!r}]) == 0; "
            f"assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_torch_follows_the_numpy_trainer_epoch_by_epoch(torch, tmp_path, capsys):
    """The same initial weights, shuffles, steps and decays: both backends' errors after each
    epoch agree (float32 sums in different orders, so not to the last digit)."""
    dump = tmp_path / "dump.txt"
    tempo_dump(dump, linear=True)
    errors = {}
    for backend in ("numpy", "torch"):
        assert trainer.main([str(dump), "--backend", backend, "--format", "3", "--buckets",
                             "9", "--epochs", "4", "--hidden", "16", "--lr", "0.003",
                             "--batch", "32", "--decay", "5", "--bucket-decay", "40",
                             "--validation", "5", "--out", str(tmp_path / f"{backend}.nnue")]) == 0
        errors[backend] = [
            (float(line.split()[4].rstrip(",")), float(line.split()[6].rstrip(",")))
            for line in capsys.readouterr().out.splitlines() if line.startswith("epoch ")
            and "MSE" in line]
    assert len(errors["numpy"]) == 4
    np.testing.assert_allclose(errors["torch"], errors["numpy"], rtol=1e-3)
