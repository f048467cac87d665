"""shogitk.match: a match between fake engines, and fairy-stockfish against itself."""

import os

import pytest

import shogitk
from test_engine import fake, fairy  # noqa: F401 (the fixture)


def test_fake_match_returns_summary_and_records(fake):  # noqa: F811
    summary, records = shogitk.match(
        [f"a={fake}", f"b={fake},arg=--bestmove,arg=resign"], games=4, jobs=2, byoyomi=500
    )
    assert summary["games"] == 4
    assert summary["engines"][0]["name"] == "a"
    assert summary["engines"][0]["wins"] == 4
    assert summary["pairings"][0]["pairs"] == 2
    assert len(records) == 4
    for r in records:
        assert r.valid
        assert r.header["先手"] in ("a", "b")


def test_bad_arguments_raise_value_error(fake):  # noqa: F811
    with pytest.raises(ValueError, match="no time control"):
        shogitk.match([f"a={fake}", f"b={fake}"])
    with pytest.raises(ValueError, match="sprt"):
        shogitk.match([f"a={fake}", f"b={fake}"], byoyomi=100, sprt=(5, 0))
    with pytest.raises(ValueError, match="unknown SPRT model"):
        shogitk.match([f"a={fake}", f"b={fake}"], byoyomi=100, sprt=(0, 5), sprt_model="gsprt")
    with pytest.raises(RuntimeError, match="does not exist"):
        shogitk.match(["a=/no/such/engine", f"b={fake}"], byoyomi=100)


def test_settings_errors_name_the_keyword(fake):  # noqa: F811
    # The library names the setting; Python words it as its keyword (the CLI: its flag).
    with pytest.raises(shogitk.MatchError) as e:
        shogitk.match([f"a={fake}", f"b={fake}"], movetime=10, nodes=10)
    assert str(e.value) == "movetime= and nodes= exclude each other"
    assert e.value.parameter == "movetime"
    assert e.value.parameters == ["movetime", "nodes"]
    assert isinstance(e.value, ValueError)
    with pytest.raises(shogitk.MatchError, match="games= 0: nothing to play") as e:
        shogitk.match([f"a={fake}", f"b={fake}"], byoyomi=100, games=0)
    assert e.value.parameter == "games"
    # An engine that cannot play is the engine layer's error, named as in the match.
    with pytest.raises(shogitk.EngineError, match="engine a ") as e:
        shogitk.match(["a=/no/such/engine", f"b={fake}"], byoyomi=100)
    assert e.value.kind == "spawn"



BOOK = """#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d none 0 0 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f none 50 0 1
2g2f none 10 0 9
"""


def test_openings_walked_through_a_book_as_in_the_cli(fake, tmp_path):  # noqa: F811
    # The library walks the book (as `shogi match --book`): the best line, 7g7f 3c3d, twice.
    book = tmp_path / "b.db"
    book.write_text(BOOK)
    engines = [f"a={fake}", f"b={fake}"]
    summary, records = shogitk.match(
        engines, games=2, byoyomi=500, max_plies=6, book=book, book_plies=4, book_pick="best"
    )
    assert [r.moves[:2] for r in records] == [["7g7f", "3c3d"]] * 2
    assert all(r.moves[2:] for r in records)
    # At most book_plies book moves.
    _, records = shogitk.match(
        engines, games=2, byoyomi=500, max_plies=6, book=str(book), book_plies=1,
        book_pick="best",
    )
    assert [r.moves[0] for r in records] == ["7g7f"] * 2
    # The book's settings are checked by the library and named by their keyword.
    with pytest.raises(shogitk.MatchError, match="book= ") as e:
        shogitk.match(engines, byoyomi=100, book=tmp_path / "none.db")
    assert e.value.parameter == "book"
    with pytest.raises(shogitk.MatchError, match="standard shogi only") as e:
        shogitk.match(engines, byoyomi=100, variant="mini", book=book)
    assert e.value.parameter == "book"
    with pytest.raises(ValueError, match="book_pick"):
        shogitk.match(engines, byoyomi=100, book=book, book_pick="worst")

def test_games_default_with_sprt_as_in_the_cli(fake):  # noqa: F811
    # 20,000 games by default with an SPRT, stopped at its decision long before.
    summary, records = shogitk.match(
        [f"a={fake}", f"b={fake},arg=--bestmove,arg=resign"], byoyomi=500, jobs=2, sprt=(0, 5)
    )
    assert summary["stopped_by_sprt"]
    assert 2 <= summary["games"] < 400
    assert len(records) == summary["games"]


def test_fairy_mini_shogi():
    path = fairy()
    summary, records = shogitk.match(
        [f"a={path}", f"b={path}"], variant="mini", games=2, jobs=2, movetime=20, max_plies=60
    )
    assert summary["games"] == 2
    assert all(r.valid for r in records)
