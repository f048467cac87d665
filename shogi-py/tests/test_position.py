"""Position and Move: the Rust engine seen from Python, compared with the CLI and perft truth."""

import copy
import pickle
import xml.etree.ElementTree as ET

import pytest

import shogitk
from shogitk import IllegalMoveError, InvalidMoveError, Move, Position, SfenError, ShogiError

from conftest import SHARED, random_positions

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MINI_START = "rbsgk/4p/5/P4/KGSBR b - 1"


def test_start_positions():
    assert Position().sfen() == START
    assert Position("startpos").sfen() == START
    assert Position.startpos().sfen() == START
    assert Position(START) == Position.startpos()
    assert len(Position.startpos().legal_moves()) == 30
    mini = Position.startpos("mini")
    assert mini.sfen() == MINI_START
    assert mini.variant == "mini"
    assert len(mini.legal_moves()) == 14
    with pytest.raises(ValueError, match="unknown variant"):
        Position.startpos("chess")


def test_push_pop_and_stack():
    pos = Position.startpos()
    pos.push("7g7f")
    pos.play(Move("3c3d"))
    assert pos.turn == "black"
    assert pos.move_number == 3
    assert pos.move_stack == ["7g7f", "3c3d"]
    pos.push("8h2b+")
    assert pos.piece_at("2b") == "+B"
    assert pos.hand("black")["B"] == 1
    assert pos.hands["white"]["B"] == 0
    assert pos.pop() == "8h2b+"
    assert pos.piece_at("2b") == "b"
    assert pos.pop() == "3c3d"
    assert pos.pop() == "7g7f"
    assert pos == Position.startpos()
    with pytest.raises(IndexError):
        pos.pop()


def test_key_is_the_position():
    a = Position.startpos()
    for m in ["7g7f", "3c3d", "2g2f"]:
        a.push(m)
    b = Position.startpos()
    for m in ["2g2f", "3c3d", "7g7f"]:
        b.push(m)
    assert a.key == b.key
    assert a.key != Position.startpos().key
    assert 0 <= a.key < 2**64
    b.pop()
    assert a.key != b.key


def test_move_equality_and_hash():
    m = Move("7g7f")
    assert str(m) == "7g7f" and m.usi == "7g7f" and repr(m) == "Move('7g7f')"
    assert m == "7g7f" and m == Move("7g7f")
    assert m != "7g7e" and m != Move("2g2f") and m != 77
    assert hash(m) == hash("7g7f")
    assert {m: 1}["7g7f"] == 1
    assert "7g7f" in Position.startpos().legal_moves()
    assert "7g7e" not in Position.startpos().legal_moves()
    assert (m.from_square, m.to_square, m.is_drop, m.is_promotion) == ("7g", "7f", False, False)
    d = Move("P*5e")
    assert (d.from_square, d.to_square, d.is_drop, d.drop_piece) == (None, "5e", True, "P")
    assert Move("8h2b+").is_promotion
    assert pickle.loads(pickle.dumps(m)) == m


def test_illegal_move_raises_with_the_rule():
    pos = Position.startpos()
    with pytest.raises(IllegalMoveError) as e:
        pos.push("7g7e")
    err = e.value
    assert isinstance(err, ValueError) and isinstance(err, ShogiError)
    assert err.reason == "the piece does not move that way"
    assert err.move == "7g7e" and err.sfen == START
    assert str(err) == "illegal move 7g7e: the piece does not move that way"
    with pytest.raises(IllegalMoveError, match="belongs to the opponent"):
        pos.push("8c8d")
    assert pos.sfen() == START, "a refused move leaves the position unchanged"
    with pytest.raises(IllegalMoveError, match="not in hand"):
        pos.push("P*5e")
    pos2 = Position("4k4/9/4p4/9/9/9/9/9/4K4 b P 1")
    with pytest.raises(IllegalMoveError, match="nifu"):
        Position("4k4/9/4p4/9/9/9/4P4/9/4K4 b P 1").push("P*5e")
    assert pos2.is_legal("P*5e") and not pos2.is_legal("P*5a")
    with pytest.raises(IllegalMoveError, match="off the board"):
        Position.startpos("mini").push("9i9h")


@pytest.mark.parametrize("text", ["", "zz", "7g7", "7g7f++", "P*", "X*5e", "0a1b", "7g7f "])
def test_bad_usi_text_raises_invalid_move(text):
    pos = Position.startpos()
    with pytest.raises(InvalidMoveError) as e:
        pos.push(text)
    assert isinstance(e.value, ValueError)
    assert e.value.move == text
    assert str(e.value).startswith("bad USI move at byte ")
    assert not pos.is_legal(text)
    with pytest.raises(InvalidMoveError):
        Move(text)


def test_move_of_wrong_type():
    with pytest.raises(TypeError):
        Position.startpos().push(76)


BAD_SFENS = [
    "",
    "lnsgkgsnl",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Q 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 extra",
    "lnsgkgsnl/1r5b1/ppppppppp/10/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNK b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 99P 1",
    "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
    "4k4/4G4/9/9/9/9/9/9/4K4 b - 1",
    "rbsgk/4p/5/P4/KGSB b - 1",
    "\u30fc" * 20,
]


@pytest.mark.parametrize("sfen", BAD_SFENS)
def test_bad_sfen_raises_like_the_cli(sfen, shogi_cli):
    with pytest.raises(SfenError) as e:
        Position(sfen)
    err = e.value
    assert isinstance(err, ValueError)
    assert err.sfen == sfen.strip()
    assert isinstance(err.position, int) and err.field
    assert str(err).startswith("bad SFEN ")
    # The CLI says the same thing (`error: <message>`).
    if sfen.strip():
        code, out, errtext = shogi_cli("moves", sfen)
        assert code == 2
        assert errtext.strip() == f"error: {err}"


def test_check_mate_and_outcome():
    # White king 1a; black gold 1b, defended by the silver on 2c: mate.
    mate = Position("8k/8G/7S1/9/9/9/9/9/K8 w - 1")
    assert mate.is_check() and mate.is_checkmate()
    assert mate.legal_moves() == []
    assert mate.outcome() == {"reason": "checkmate", "winner": "black"}
    # Without the silver the king takes the gold.
    escape = Position("8k/8G/9/9/9/9/9/9/K8 w - 1")
    assert escape.is_check() and not escape.is_checkmate()
    assert escape.outcome() is None
    assert "1a1b" in escape.legal_moves()
    assert Position.startpos().outcome() is None
    assert not Position.startpos().is_check()


def _suite_cases(name, max_nodes):
    path = SHARED / "perft" / name
    if not path.is_file():
        pytest.skip(f"../shared/perft/{name} not found")
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        sfen, *depths = line.split(";")
        for d in depths:
            depth, nodes = d.strip()[1:].split()
            if int(nodes) <= max_nodes:
                cases.append((sfen.strip(), int(depth), int(nodes)))
    assert cases
    return cases


@pytest.mark.parametrize("suite", ["standard.suite", "minishogi.suite"])
def test_perft_matches_the_ground_truth(suite):
    for sfen, depth, nodes in _suite_cases(suite, 300_000):
        assert Position(sfen).perft(depth) == nodes, (sfen, depth)


def test_perft_bounds():
    assert Position.startpos().perft(0) == 1
    with pytest.raises(ValueError, match="too deep"):
        Position.startpos().perft(40)
    with pytest.raises(OverflowError):
        Position.startpos().perft(-1)


@pytest.mark.parametrize("variant", ["standard", "mini"])
def test_legal_moves_equal_the_cli_on_random_positions(variant, shogi_cli):
    for pos in random_positions(25, 12 if variant == "standard" else 5, (1, 120), variant):
        sfen = pos.sfen()
        code, out, err = shogi_cli("moves", sfen)
        assert code == 0, err
        assert sorted(str(m) for m in pos.legal_moves()) == sorted(out.split()), sfen
        # Every legal move is legal, and the SFEN reads back to the same position.
        assert all(pos.is_legal(m) for m in pos.legal_moves())
        assert Position(sfen) == pos and Position(sfen).key == pos.key


def test_from_usi():
    pos = Position.from_usi("position startpos moves 7g7f 3c3d")
    assert pos.move_stack == ["7g7f", "3c3d"]
    assert pos.pop() == "3c3d"
    mini = Position.from_usi("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d", "mini")
    assert mini.piece_at("4d") == "K"
    with pytest.raises(ShogiError):
        Position.from_usi("position startpos moves 7g7f 7g7f")
    with pytest.raises(ShogiError):
        Position.from_usi("nonsense")


def test_board_and_hands():
    pos = Position("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")
    rows = pos.board()
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    assert rows[0][4] == "k" and rows[8][4] == "K"
    assert sum(p is not None for r in rows for p in r) == 2
    assert pos.hand("black") == {"R": 0, "B": 0, "G": 0, "S": 0, "N": 0, "L": 0, "P": 2}
    assert pos.piece_at("5i") == "K" and pos.piece_at("5e") is None
    with pytest.raises(ValueError):
        pos.piece_at("0z")
    with pytest.raises(ValueError):
        pos.hand("red")
    mini = Position.startpos("mini")
    assert len(mini.board()) == 5 and mini.board()[4] == ["K", "G", "S", "B", "R"]
    assert set(mini.hand("white")) == {"R", "B", "G", "S", "P"}
    with pytest.raises(ValueError):
        mini.piece_at("9i")


def test_copy_and_pickle():
    pos = Position.startpos()
    pos.push("7g7f")
    c = pos.copy()
    c.push("3c3d")
    assert pos.sfen() != c.sfen()
    assert copy.copy(pos) == pos and copy.deepcopy(pos) == pos
    assert pickle.loads(pickle.dumps(pos)) == pos


def test_repr_is_a_diagram():
    pos = Position("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")
    text = repr(pos)
    lines = text.splitlines()
    assert lines[0] == "Position('4k4/9/9/9/9/9/9/9/4K4 b 2P 1')"
    assert lines[3].split() == ["a", ".", ".", ".", ".", "k", ".", ".", ".", "."]
    assert "black hand: P2" in text and "white hand: -" in text
    assert lines[-1] == "black to move"


def _svg_texts(svg):
    root = ET.fromstring(svg)
    return [t for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_svg_board():
    pos = Position.startpos()
    pos.push("7g7f")
    pos.push("3c3d")
    pos.push("8h2b+")
    texts = _svg_texts(pos._repr_svg_())
    pieces = [t for t in texts if t.get("font-size") == "28"]
    assert len(pieces) == 39
    rotated = [t for t in pieces if "rotate(180" in (t.get("transform") or "")]
    assert len(rotated) == 19, "white's pieces are turned"
    assert [t.text for t in pieces if t.get("fill") == "#c00000"] == ["馬"]
    hands = [t.text for t in texts if t.get("font-size") == "16"]
    assert any("☗" in h and "角" in h for h in hands)
    assert any("☖" in h and "なし" in h and "手番" in h for h in hands)
    html = pos._repr_html_()
    assert html.startswith("<div") and pos.sfen() in html
    mini = _svg_texts(Position.startpos("mini")._repr_svg_())
    assert len([t for t in mini if t.get("font-size") == "28"]) == 12


def test_version():
    assert isinstance(shogitk.__version__, str) and shogitk.__version__


def test_move_list_is_a_sequence():
    moves = Position.startpos().legal_moves()
    assert isinstance(moves, shogitk.MoveList)
    assert len(moves) == 30 and bool(moves)
    assert moves[0] == list(moves)[0] and moves[-1] == list(moves)[-1]
    assert moves[1:4] == list(moves)[1:4] and moves[::-1] == list(moves)[::-1]
    with pytest.raises(IndexError):
        moves[30]
    with pytest.raises(TypeError):
        moves["a"]
    assert "2g2f" in moves and Move("2g2f") in moves and "zz" not in moves and 5 not in moves
    assert moves.usi() == [str(m) for m in moves]
    assert moves == moves.usi() and moves == list(moves) and moves != moves.usi()[:-1]
    assert moves != "7g7f"
    assert moves == Position.startpos().legal_moves()
    it = iter(moves)
    assert iter(it) is it and next(it) == moves[0]
    assert repr(moves).startswith("MoveList([Move('")
    assert not Position("8k/8G/7S1/9/9/9/9/9/K8 w - 1").legal_moves()


def test_relaxed_setups():
    tsume = "4k4/9/4P4/9/9/9/9/9/9 b G 1"
    with pytest.raises(SfenError, match="no king"):
        Position(tsume)
    pos = Position(tsume, relax="tsume")
    assert "G*5b" in pos.legal_moves()
    pos.push("G*5b")
    assert pos.is_checkmate()
    nifu = "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1"
    with pytest.raises(SfenError):
        Position(nifu, relax="tsume")
    assert Position(nifu, relax="permissive").sfen() == nifu
    with pytest.raises(ValueError, match="unknown relax"):
        Position(nifu, relax="loose")
