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
