"""The library API: games, moves in every notation, history, results, errors, the engine."""

from __future__ import annotations

import copy

import pytest

import chuhe
from chuhe import Game, IllegalMoveError, InvalidMoveError, InvalidPositionError

XIONGQI_START = "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x"
XIANGQI_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_start_positions_and_move_counts():
    assert len(Game("xiongqi").legal_moves) == 26
    assert len(Game("xiangqi").legal_moves) == 44
    assert len(Game("xiangqi-capture").legal_moves) == 44
    assert Game("xiangqi").fen == XIANGQI_START_FEN
    assert Game().game == "xiongqi"


def test_moves_as_objects_and_text_in_every_notation():
    g = Game("xiangqi")
    m = g.parse_move("C2=5")
    assert str(m) == "h3-e3"
    assert m.text("uci") == "h3e3" and m.uci == "h3e3"
    assert m.text("iccs") == "h2e2"
    assert m.text("wxf") == "C2=5"
    assert m.text("chinese") == "炮二平五"
    assert (m.from_square, m.to_square, m.choice) == ("h3", "e3", 0)
    assert repr(m) == "Move('h3-e3')"
    assert m in g.legal_moves
    assert g.notations == ["pmn", "uci", "iccs", "wxf", "teaching", "chinese", "san"]
    assert m.text("san") == "Che3"
    played = g.push("h3e3")
    assert played == m and hash(played) == hash(m)
    g.push("H8+7", notation="wxf")
    assert [str(x) for x in g.move_stack] == ["h3-e3", "h10-g8"]
    g.push("马二进三", notation="chinese")
    assert str(g.move_stack[-1]) == "h1-g3"


def test_push_pop_and_history():
    g = Game("xiongqi")
    g.push("e3-e4")
    g.push("e6e5")
    assert g.feen != XIONGQI_START
    assert str(g.pop()) == "e6-e5"
    assert str(g.pop()) == "e3-e4"
    assert g.feen == XIONGQI_START
    with pytest.raises(IndexError):
        g.pop()


def test_promotion_choices_in_xiongqi():
    g = Game("xiongqi", "4g^3/4+S3/8/8/8/8/8/G^7 / X/x")
    # The soldier reaching the far rank: plain, or one of six promotions.
    ups = [m for m in g.legal_moves if m.from_square == "e7" and m.to_square == "e8"]
    assert sorted(m.choice for m in ups) == [0, 1, 2, 3, 4, 5, 6]
    assert {m.text("uci") for m in ups} >= {"e7e8", "e7e8e", "e7e8h"}


def test_status_winner_check_and_copy():
    g = Game("xiangqi-capture", "4k4/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert g.status is None and g.winner is None and not g.is_over()
    h = copy.copy(g)
    g.push("e10e9")  # the general takes the chariot
    assert h.feen != g.feen
    assert Game("xiangqi", "4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1").is_check()
    mate = Game("xiangqi", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert mate.status == "checkmate" and mate.winner == "first" and mate.legal_moves == []


def test_perft_and_board():
    assert Game("xiongqi").perft(3) == 17585
    assert Game("xiangqi").perft(2) == 1920
    g = Game("xiangqi")
    assert "R" in str(g) and "Game('xiangqi'" in repr(g)
    assert "車" in g.board("chinese") or "俥" in g.board("chinese")
    with pytest.raises(ValueError, match="glyphs"):
        g.board("runes")


def test_svg_boards_for_notebooks():
    g = Game("xiangqi")
    g.push("h3e3")
    svg = g.svg(arrows=["h10g8"])
    assert svg.startswith("<svg") and svg.count('class="piece"') == 32
    assert svg.count('class="last-move"') == 2 and svg.count('class="arrow"') == 1
    assert g._repr_svg_().count('class="last-move"') == 2
    assert 'width="200"' in Game("xiongqi").svg(glyphs="latin", flipped=True, size=200)
    with pytest.raises(ValueError, match="arrows"):
        g.svg(arrows=["h10"])
    with pytest.raises(ValueError, match="size"):
        g.svg(size=5)


def test_errors_are_typed_and_name_move_and_position():
    g = Game("xiangqi")
    with pytest.raises(InvalidMoveError, match="zz") as e:
        g.push("zz9")
    assert isinstance(e.value, ValueError)
    assert g.feen in str(e.value)
    with pytest.raises(IllegalMoveError, match="h3-h9") as e:
        g.push("h3-h9")  # the cannon cannot pass its own cannon
    assert "h3" in str(e.value) and g.feen in str(e.value)
    with pytest.raises(IllegalMoveError, match="a10"):
        g.push("a10a9")  # the opponent's piece
    with pytest.raises(InvalidMoveError, match="not written in wxf"):
        Game("xiongqi").push("e3e4", notation="wxf")
    with pytest.raises(InvalidMoveError):
        g.parse_move("e3e4", notation="klingon")
    with pytest.raises(InvalidMoveError, match="xiongqi"):
        g.push(Game("xiongqi").legal_moves[0])
    with pytest.raises(TypeError):
        g.push(42)
    with pytest.raises(InvalidPositionError, match="xiangqi") as e:
        Game("xiangqi", "not a position/")
    assert isinstance(e.value, ValueError)
    with pytest.raises(InvalidPositionError):
        Game("xiongqi", "8/8/8/8/8/8/8/8 / X/x extra")
    with pytest.raises(ValueError, match="unknown game"):
        Game("chess")
    with pytest.raises(ValueError, match="fen"):
        _ = Game("xiongqi").fen
    over = Game("xiangqi", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    with pytest.raises(IllegalMoveError, match="over"):
        over.push("d10e10")


def test_engine_analyse_and_play():
    engine = chuhe.Engine(hash_mb=4, threads=1)
    g = Game("xiangqi", "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    a = engine.analyse(g, depth=4)
    assert a.best in g.legal_moves
    assert a.depth >= 1 and a.nodes > 0 and a.pv and a.pv[0] == a.best
    assert (a.score is None) != (a.mate is None)
    m = engine.play(Game("xiongqi"), nodes=2000)
    assert m in Game("xiongqi").legal_moves
    assert engine.play(Game("xiangqi"), movetime=0.05) in Game("xiangqi").legal_moves
    with pytest.raises(ValueError, match="limit"):
        engine.analyse(g)
    with pytest.raises(ValueError, match="over"):
        engine.analyse(Game("xiangqi", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1"), depth=2)
    with pytest.raises(ValueError):
        chuhe.Engine(hash_mb=0)
