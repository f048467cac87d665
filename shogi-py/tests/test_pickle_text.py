"""Records pickle whole (Dask, multiprocessing), and moves read as text."""

import pickle

import pytest

import shogitk

from conftest import FIXTURES, SAMPLES

STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def _all_records(corpus):
    return list(shogitk.read_many([SAMPLES, FIXTURES, corpus], jobs=2))


def test_records_pickle_whole(corpus):
    records = _all_records(corpus)
    assert len(records) > 200 and any(not r.valid for r in records)
    for r in records:
        back = pickle.loads(pickle.dumps(r))
        assert back == r and back is not r, r.path
        assert (back.moves, back.comments, back.times, back.header_items) == (
            r.moves, r.comments, r.times, r.header_items)
        assert (back.valid, str(back.error), list(map(str, back.diagnostics))) == (
            r.valid, str(r.error), list(map(str, r.diagnostics)))
        assert back.stats_row() == r.stats_row()
        assert back.write("jkf") == r.write("jkf") if r.error is None else True
    # Different games are not equal.
    assert records[0] != records[-1] and records[0] != "a record"


def test_bad_pickles_raise():
    [r] = shogitk.read(SAMPLES / "game.kif")
    state = r.__reduce__()[1][0]
    for bad in [b"", b"\x02" + state[1:], state[:-1], state + b"\x00", state[: len(state) // 2]]:
        with pytest.raises(ValueError, match="not a pickled shogitk Record"):
            shogitk._record_from_state(bad)


def test_moves_text():
    [r] = shogitk.read(SAMPLES / "game.kif")
    assert r.moves_text() == r.moves
    assert r.moves_text("japanese")[:4] == ["▲７六歩", "△８四歩", "▲２六歩", "△８五歩"]
    assert r.moves_text("western")[:5] == ["P-7f", "P-8d", "P-2f", "P-8e", "B-7g"]
    with pytest.raises(ValueError, match="unknown notation"):
        r.moves_text("pgn")


def test_japanese_moves_read_back_as_ki2(corpus):
    """The Japanese text of every even-start main line, as a KI2 record, reads back to the
    same moves."""
    checked = 0
    for r in _all_records(corpus):
        if r.start_sfen != STARTPOS or not r.moves or r.error is not None:
            continue
        # A recorded foul move (二歩, …) reads back only with the ending that declares it.
        if (r.ending or "").startswith("foul"):
            continue
        if any(d.severity == "error" for d in r.diagnostics):
            continue
        text = "手合割：平手\n" + "\n".join(r.moves_text("japanese")) + "\n"
        [back] = shogitk.read(text, format="ki2")
        assert back.moves == r.moves, r.path
        checked += 1
    assert checked > 100


def test_position_move_text():
    pos = shogitk.Position.startpos()
    assert pos.move_text("7g7f") == "7g7f"
    assert pos.move_text("7g7f", "japanese") == "▲７六歩"
    pos.push("7g7f")
    pos.push("3c3d")
    assert pos.move_text("8h2b+", "japanese") == "▲２二角成"
    assert pos.move_text("8h2b+", "western") == "Bx2b+"
    assert pos.move_text("8h2b", "western") == "Bx2b="
    pos.push("8h2b+")
    assert pos.move_text("3a2b", "japanese") == "△同銀"
    assert pos.move_text("3a2b", "western") == "Sx2b"
    # Two golds can reach 5h: the one that moves is named.
    g = shogitk.Position("4k4/9/9/9/9/9/9/9/3GKG3 b - 1")
    assert g.move_text("6i5h", "western") == "G6i-5h"
    assert g.move_text("6i5h", "japanese") == "▲５八金左"
    with pytest.raises(shogitk.IllegalMoveError):
        pos.move_text("5a5c", "japanese")
    with pytest.raises(ValueError, match="unknown notation"):
        pos.move_text("3a2b", "kanji-ish")
