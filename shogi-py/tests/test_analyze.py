"""analyze(): the per-ply table of `shogi analyze`, the same columns and values as its JSON
lines, with the fake engine and (when installed) fairy-stockfish."""

import json
import os
import shutil

import pytest

import shogitk

from conftest import ROOT, SAMPLES

FAIRY = "/usr/games/fairy-stockfish"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)



def _cli_rows(shogi_cli, *args):
    code, out, err = shogi_cli("analyze", *args, "--format", "jsonl", cwd=ROOT)
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


def test_analyze_equals_the_cli_with_the_fake_engine(shogi_cli, fake):
    game = os.path.relpath(os.path.join(SAMPLES, "game.kif"), ROOT)
    want = _cli_rows(shogi_cli, game, "--engine", fake, "--nodes", "1")
    table = shogitk.analyze([game], fake, nodes=1)
    assert len(table) == len(want) == 30
    assert list(table) == want
    assert table.columns[:4] == ["path", "game", "ply", "side"]
    assert all(r["engine"] == "fake-usi" for r in table)
    summary = shogitk.analyze([game], fake, nodes=1, summary=True)
    assert [r["scope"] for r in summary] == ["game", "game", "player", "player"]


def test_analyze_errors(fake):
    game = os.path.join(SAMPLES, "game.kif")
    with pytest.raises(ValueError, match="NoSuch"):
        shogitk.analyze([game], fake, nodes=1, options={"NoSuch": 1})
    with pytest.raises(ValueError, match="one limit"):
        shogitk.analyze([game], fake, nodes=1, depth=2)


def test_analyze_errors_are_typed(fake):
    """The library's typed errors reach Python as exceptions with attributes, worded with the
    keywords (not the CLI's flags)."""
    game = os.path.join(SAMPLES, "game.kif")
    with pytest.raises(shogitk.OptionError) as refused:
        shogitk.analyze([game], fake, nodes=1, options={"NoSuch": 1})
    assert refused.value.name == "NoSuch"
    assert refused.value.available, "the engine's own options are listed"
    assert all(isinstance(o, str) for o in refused.value.available)
    with pytest.raises(shogitk.AnalysisError) as bad:
        shogitk.analyze([game], fake, nodes=1, multipv=0)
    assert bad.value.parameter == "multipv"
    assert "--" not in str(bad.value)
    with pytest.raises(shogitk.AnalysisError) as bad:
        shogitk.analyze([game], fake, nodes=1, mistake=1.0)
    assert "mistake" in bad.value.parameter
    with pytest.raises(shogitk.AnalysisError) as bad:
        shogitk.analyze([game], fake, nodes=1, options={"UCI_Variant": "shogi"})
    assert bad.value.parameter == "options"
    with pytest.raises(TypeError, match="no_such_filter"):
        shogitk.analyze([game], fake, nodes=1, no_such_filter=3)
    assert issubclass(shogitk.AnalysisError, ValueError)
    assert issubclass(shogitk.OptionError, shogitk.ShogiError)


def test_analyze_keywords_reach_the_library(fake, shogi_cli):
    """Selection, mode and thresholds given as keywords give the CLI's rows for its flags."""
    game = os.path.relpath(os.path.join(SAMPLES, "game.kif"), ROOT)
    want = _cli_rows(shogi_cli, game, "--engine", fake, "--nodes", "1", "--mode", "game",
                     "--mistake", "15", "--min-plies", "5")
    got = shogitk.analyze([game], fake, nodes=1, mode="game", mistake=15, min_plies=5)
    assert list(got) == want
    assert list(shogitk.analyze([game], fake, nodes=1, min_plies=1000)) == []


@pytest.mark.skipif(not os.path.exists(FAIRY) and not os.environ.get("CI"), reason="fairy-stockfish missing")
def test_analyze_with_fairy_stockfish():
    table = shogitk.analyze([os.path.join(SAMPLES, "mini.kif")], FAIRY, nodes=1000, jobs=2)
    assert len(table) > 0
    assert all(r["error"] is None for r in table)


def test_eval_graph_is_the_cli_graph(fake, shogi_cli, tmp_path):
    """shogitk.eval_graph draws with the code of the annotated copies' graphs: from the
    table's scores and classes it gives the very SVG `--annotate-dir` wrote."""
    game = os.path.relpath(os.path.join(SAMPLES, "game.kif"), ROOT)
    out = tmp_path / "annotated"
    code, _, err = shogi_cli("analyze", game, "--engine", fake, "--nodes", "1", "--annotate-dir",
                             str(out), "--graph", "win", "-o", os.devnull, cwd=ROOT)
    assert code in (0, 1), err
    written = [p for p in out.rglob("*.svg")]
    assert len(written) == 1
    rows = list(shogitk.analyze([game], fake, nodes=1))
    scores = [r["best_cp_sente"] for r in rows] + [rows[-1]["played_cp_sente"]]
    record = shogitk.read(game)[0]
    svg = shogitk.eval_graph(scores, title=f"{game} #1", sente=record.black, gote=record.white,
                             classes=[r["class"] for r in rows], view="win")
    assert svg == written[0].read_text()
    assert "win probability" in svg
    with pytest.raises(ValueError, match="not a class"):
        shogitk.eval_graph([0, 10], classes=["awful"])
