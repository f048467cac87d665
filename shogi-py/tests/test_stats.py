"""stats(): the rows of `shogi stats`, the same columns and values as its JSON lines."""

import json
import os
import sys

import pytest

import shogitk

from conftest import FIXTURES, ROOT, SAMPLES, require


def _cli_rows(shogi_cli, *args):
    code, out, err = shogi_cli("stats", *args, "--format", "jsonl", cwd=ROOT)
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


def _rel(path):
    return os.path.relpath(path, ROOT)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    # The `path` column is the path as given: both sides are given the same relative path.
    monkeypatch.chdir(ROOT)


def test_stats_equals_the_cli_on_samples_and_fixtures(shogi_cli):
    for folder in (SAMPLES, FIXTURES):
        want = _cli_rows(shogi_cli, _rel(folder))
        table = shogitk.stats([_rel(folder)], jobs=2)
        assert len(table) == len(want) > 0
        assert list(table) == want
        assert table.columns == list(want[0])


def test_stats_equals_the_cli_on_the_corpus(shogi_cli, corpus):
    arg = _rel(corpus)
    want = _cli_rows(shogi_cli, arg)
    got = shogitk.stats(arg, jobs=2)
    assert len(got) >= 199 and list(got) == want
    # jobs does not change the rows.
    assert shogitk.stats(arg, jobs=1) == got


FILTERED = [
    (dict(min_plies=50, max_plies=120), ["--min-plies", "50", "--max-plies", "120"]),
    (dict(winner="gote", valid=True), ["--winner", "gote", "--valid"]),
    (dict(valid=False), ["--invalid"]),
    (dict(ending=["resign", "checkmate"]), ["--ending", "resign,checkmate"]),
    (dict(player=["a", "b"]), ["--player", "a", "--player", "b"]),
    (dict(since="2000-01-01", until="2030-12-31"), ["--since", "2000-01-01", "--until", "2030-12-31"]),
    (dict(handicap="平手", variant="standard"), ["--handicap", "平手", "--variant", "standard"]),
    (dict(min_rating=1000), ["--min-rating", "1000"]),
    (dict(position="startpos"), ["--position", "startpos"]),
    (dict(dedup=True), ["--dedup"]),
    (dict(dedup="prefix"), ["--dedup", "prefix"]),
    (dict(shard="2/3"), ["--shard", "2/3"]),
    (dict(shard=(1, 3), min_plies=20), ["--shard", "1/3", "--min-plies", "20"]),
]


@pytest.mark.parametrize("kwargs,flags", FILTERED, ids=[" ".join(f) for _, f in FILTERED])
def test_filters_are_the_cli_flags(shogi_cli, corpus, kwargs, flags):
    arg = _rel(corpus)
    want = _cli_rows(shogi_cli, arg, "--jobs", "2", *flags)
    got = list(shogitk.stats(arg, jobs=2, **kwargs))
    assert got == want
    if "dedup" in kwargs:
        assert any(r["duplicate_of"] for r in got), "the corpus holds copies"


@pytest.mark.parametrize("notation", ["usi", "japanese", "western"])
def test_moves_column_is_the_cli_one(shogi_cli, corpus, notation):
    arg = _rel(corpus)
    want = _cli_rows(shogi_cli, arg, "--jobs", "2", "--moves", notation)
    got = shogitk.stats(arg, jobs=2, moves=notation)
    assert list(got) == want
    assert got.columns[-1] == "moves" and "moves" not in shogitk.stats(SAMPLES).columns
    assert sum(len(r["moves"].split(" ")) for r in got if r["moves"]) == sum(
        r["plies"] for r in got if r["moves"]
    )
    with pytest.raises(ValueError, match="moves"):
        shogitk.stats(SAMPLES, moves="chess")


def test_bad_filters_raise_naming_them(tmp_path):
    for kwargs, name in [
        (dict(min_plies="many"), "min_plies"),
        (dict(since="yesterday"), "since"),
        (dict(winner="nobody"), "winner"),
        (dict(ending="stalemate"), "ending"),
        (dict(position="not a position"), "position"),
        (dict(min_rating="high"), "min_rating"),
        (dict(valid="yes"), "valid"),
        (dict(shard="5/4"), "shard"),
        (dict(dedup="fuzzy"), "dedup"),
        (dict(max_plies=True), "max_plies"),
    ]:
        with pytest.raises(ValueError, match=f"^{name}: "):
            shogitk.stats(SAMPLES, **kwargs)
    with pytest.raises(TypeError, match="min_ply"):
        shogitk.stats(SAMPLES, min_ply=3)
    with pytest.raises(FileNotFoundError):
        shogitk.stats([SAMPLES, tmp_path / "missing"])
    with pytest.raises(ValueError):
        shogitk.stats(SAMPLES, jobs=0)


def test_table_is_list_like():
    t = shogitk.stats(SAMPLES)
    assert isinstance(t, shogitk.Table) and len(t) == 6
    assert t[0]["path"].endswith("game.csa") and t[-1] == list(t)[-1]
    assert t["plies"] == [r["plies"] for r in t] == [30, 30, 30, 30, 30, 9]
    assert len(t[:2]) == 2 and t[:2].columns == t.columns
    assert len(t.rows) == 6 and len(t.rows[0]) == len(t.columns)
    with pytest.raises(KeyError):
        t["no such column"]
    assert "6 rows" in repr(t)
    assert len(shogitk.stats(SAMPLES, min_plies=31)) == 0


def test_to_pandas():
    pd = require("pandas")
    t = shogitk.stats(SAMPLES)
    df = t.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == t.columns and len(df) == 6
    assert df["valid"].all() and df.loc[0, "winner"] == "gote"


def test_to_arrow():
    pa = require("pyarrow")
    t = shogitk.stats([SAMPLES, FIXTURES])
    at = t.to_arrow()
    assert isinstance(at, pa.Table) and at.column_names == t.columns and at.num_rows == len(t)
    assert at.column("plies").to_pylist() == t["plies"]


def test_missing_optional_modules_say_what_to_install(monkeypatch):
    t = shogitk.stats(SAMPLES)
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        t.to_pandas()
    with pytest.raises(ImportError, match="pip install pyarrow"):
        t.to_arrow()


def test_record_winner_is_the_stats_winner(corpus):
    rows = list(shogitk.stats([SAMPLES, FIXTURES, corpus]))
    records = list(shogitk.read_many([SAMPLES, FIXTURES, corpus], jobs=2))
    assert len(rows) == len(records)
    for row, r in zip(rows, records):
        assert r.winner == (None if row["winner"] == "none" else row["winner"]), row["path"]
        assert r.winner in (None, "sente", "gote", "draw")
        assert r.stats_row() == row, row["path"]


def test_ctrl_c_stops_a_long_stats(corpus):
    """The rows are made with the GIL released, yet Ctrl-C (SIGINT) gets through."""
    import signal
    import threading
    import time

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            shogitk.stats([corpus] * 200, jobs=1)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 30
    # The next call is not disturbed by the one stopped.
    assert len(shogitk.stats(SAMPLES)) == 6


def test_stats_mate_equals_the_cli(shogi_cli, tmp_path):
    # Sente, to move, had S*1b 2a1b G*2b (mate in 3), played 5i4h, and resigned two plies on.
    csa = ("V2.2\nP1 *  *  *  *  *  *  * -GI-OU\n" + "".join(f"P{r} " + " * " * 9 + "\n" for r in (2,))
           + "P3 *  *  *  *  *  *  * +FU+FU\n"
           + "".join(f"P{r} " + " * " * 9 + "\n" for r in (4, 5, 6, 7, 8))
           + "P9 *  *  *  * +OU *  *  *  * \nP+00KI00GI\n+\n+5948OU\n-2132GI\n%TORYO\n")
    path = tmp_path / "resigned.csa"
    path.write_text(csa)
    quiet = tmp_path / "quiet.kif"
    quiet.write_text("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n", encoding="utf-8")
    want = _cli_rows(shogi_cli, str(path), str(quiet), "--mate", "--mate-length", "3")
    got = shogitk.stats([str(path), str(quiet)], mate=True, mate_length=3)
    assert list(got) == want
    first, second = got[0], got[1]
    assert (first["missed_mate_ply"], first["missed_mate_side"], first["missed_mate_length"],
            first["missed_mate_pv"]) == (0, "sente", 3, "S*1b 2a1b G*2b")
    assert second["missed_mate_ply"] is None and second["missed_mate_pv"] is None
    assert got.columns[-4:] == ["missed_mate_ply", "missed_mate_side", "missed_mate_length",
                                "missed_mate_pv"]
    # Without mate=True the columns are not there.
    assert "missed_mate_ply" not in shogitk.stats([str(path)]).columns
