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


def test_fairy_mini_shogi():
    path = fairy()
    summary, records = shogitk.match(
        [f"a={path}", f"b={path}"], variant="mini", games=2, jobs=2, movetime=20, max_plies=60
    )
    assert summary["games"] == 2
    assert all(r.valid for r in records)
