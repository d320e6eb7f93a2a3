"""scripts/train_xiangqi_net.py: it learns what the data says, writes a network file whose
integer tables compute what the float network computes (in the engine's own file format, byte
for byte), and names the line of a malformed input."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
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


def integer_correction(w: dict[str, np.ndarray], board: list[int]) -> int:
    """What eval/xiangqi_net/ computes, in the same integer steps."""
    red = w["B1"].copy()
    black = w["B1"].copy()
    for point, code in enumerate(board):
        if code:
            piece = code - 1
            swapped = piece - 7 if piece >= 7 else piece + 7
            red = red + w["W1"][piece * 90 + point]
            black = black + w["W1"][swapped * 90 + trainer.FLIP_RANK[point]]
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
    for path in nets:
        data = path.read_bytes()
        w = trainer.read_network(data)
        assert (w["version"], w["game"], w["HIDDEN"]) == (1, 1, 64)
        again = trainer.network_bytes(w["W1"], w["B1"], w["W2"], w["description"])
        assert again == data
        assert path.name == f"xiangqi-{trainer.zlib.crc32(data[:-4]):08x}.nnue"


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
    "flag", [["--hidden", "0"], ["--hidden", "7"], ["--score-weight", "2"], ["--decay", "-1"]]
)
def test_bad_settings_are_refused(tmp_path, flag):
    with pytest.raises(SystemExit) as e:
        trainer.main([str(tmp_path / "x.txt"), *flag])
    assert e.value.code == 2
