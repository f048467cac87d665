"""Openings and castles: Record.tags() and the tag columns and filters of stats(), the same
recogniser and values as `shogi stats --tags`."""

import json
import os

import pytest

import shogitk

from conftest import ROOT, SAMPLES, SHARED

# Sente's 四間飛車 with a 片美濃囲い (the CLI's `show --tags` test game).
SHIKEN = "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 5i4h 5a4b 4h3h 4b3b 3h2h 7a7b 3i3h"
# The same rook move by gote, mirrored: 四間飛車 at ply 6.
GOTE_SHIKEN = "position startpos moves 2g2f 3c3d 2f2e 4c4d 1g1f 8b4b"
# A rule file of the CLI's test: a tag of its own over the built-in rules.
GOOD_RULES = "opening 早指し四間 < 四間飛車\n  main 99\n  rule\n    ply <= 5\n    requires 四間飛車\n"


@pytest.fixture(scope="module")
def labelled():
    path = SHARED / "corpus-openings" / "files"
    if not path.is_dir():
        pytest.skip("../shared/corpus-openings not found")
    return path


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    # The `path` column is the path as given: both sides are given the same relative path.
    monkeypatch.chdir(ROOT)


def _rel(path):
    return os.path.relpath(path, ROOT)


def _cli_rows(shogi_cli, *args):
    code, out, err = shogi_cli("stats", *args, "--format", "jsonl", cwd=ROOT)
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


def _one(text):
    [rec] = shogitk.read(text.encode(), format="usi")
    return rec


def test_record_tags_are_typed():
    tags = _one(SHIKEN).tags()
    assert isinstance(tags, shogitk.Tags) and tags.applies
    assert tags.opening == "四間飛車"
    assert (tags.game_class, tags.sente_class, tags.gote_class) == ("対抗形", "振り飛車", "居飛車")
    assert [(t.name, t.ply) for t in tags.sente_openings] == [("四間飛車", 5), ("ノーマル四間飛車", 5)]
    [castle] = tags.sente_castles
    assert (castle.name, castle.side, castle.kind, castle.ply) == ("片美濃囲い", "sente", "castle", 13)
    assert castle.within("美濃") and not castle.within("矢倉")
    normal = tags.sente_openings[1]
    assert isinstance(normal, shogitk.Tag) and normal.kind == "opening"
    assert normal.family == ["四間飛車", "振り飛車"]
    assert tags.gote_openings == [] and tags.gote_castles == []
    assert len(tags) == 3 and [t.name for t in tags] == [t.name for t in tags.tags]
    assert tags.tags[-1] == castle
    assert tags.names("sente", "opening") == ["四間飛車", "ノーマル四間飛車"]
    assert tags.names("gote") == []
    assert "四間飛車" in repr(tags) and repr(castle).startswith("Tag('片美濃囲い'")


def test_gote_gets_the_mirrored_tag():
    tags = _one(GOTE_SHIKEN).tags()
    assert [(t.name, t.side, t.ply) for t in tags.gote_openings][:1] == [("四間飛車", "gote", 6)]
    assert tags.sente_openings == [] and tags.gote_class == "振り飛車"


def test_no_tags_where_the_taxonomy_does_not_apply():
    [mini] = shogitk.read(SAMPLES / "mini.kif")
    two_pieces = shogitk.read("手合割：二枚落ち\n   1 ６二銀(71)\n   2 投了\n".encode(), format="kif")[0]
    for rec in (mini, two_pieces):
        tags = rec.tags()
        assert not tags.applies and len(tags) == 0 and list(tags) == []
        assert (tags.opening, tags.game_class, tags.sente_class) == (None, None, None)


def test_record_tags_are_the_stats_columns(labelled):
    table = shogitk.stats(_rel(labelled), jobs=2, tags=True)
    records = list(shogitk.read_many(_rel(labelled), jobs=2))
    assert len(records) == len(table) > 300
    for rec, row in zip(records, table):
        tags = rec.tags()
        assert rec.path == row["path"]
        assert tags.opening == row["opening"] and tags.game_class == row["game_class"]
        assert (tags.sente_class, tags.gote_class) == (row["sente_class"], row["gote_class"])
        for side in ("sente", "gote"):
            for kind in ("opening", "castle"):
                assert tags.names(side, kind) == row[f"{side}_{kind}s"], rec.path


def test_tag_columns_equal_the_cli(shogi_cli, labelled):
    for folder in (labelled, SAMPLES):
        want = _cli_rows(shogi_cli, _rel(folder), "--tags")
        got = shogitk.stats(_rel(folder), jobs=2, tags=True)
        assert list(got) == want and len(want) > 0
        assert got.columns[-9:] == ["opening", "game_class", "sente_class", "gote_class",
                                    "sente_openings", "gote_openings", "sente_castles",
                                    "gote_castles", "opening_header"]
        assert isinstance(got[0]["sente_openings"], list)


TAG_FILTERS = [
    (dict(opening="振り飛車"), ["--opening", "振り飛車"]),
    (dict(opening="四間飛車", side="gote"), ["--opening", "四間飛車", "--side", "gote"]),
    (dict(castle="美濃囲い", side="sente"), ["--castle", "美濃囲い", "--side", "sente"]),
    (dict(class_="相振り飛車"), ["--class", "相振り飛車"]),
    (dict(class_="振り飛車", side="gote", castle="穴熊"),
     ["--class", "振り飛車", "--side", "gote", "--castle", "穴熊"]),
    (dict(opening="角換わり", min_plies=60), ["--opening", "角換わり", "--min-plies", "60"]),
    (dict(event="ウォーズ", until="2030-12"), ["--event", "ウォーズ", "--until", "2030-12"]),
]


@pytest.mark.parametrize("kwargs,flags", TAG_FILTERS, ids=[" ".join(f) for _, f in TAG_FILTERS])
def test_tag_filters_are_the_cli_flags(shogi_cli, labelled, kwargs, flags):
    arg = _rel(labelled)
    want = _cli_rows(shogi_cli, arg, "--tags", *flags)
    got = list(shogitk.stats(arg, jobs=2, tags=True, **kwargs))
    assert got == want
    assert 0 < len(got) < 337, "the filter keeps some games, not all"


RATING_FILTERS = [
    (dict(min_rating=3400), ["--min-rating", "3400"]),
    (dict(max_rating=3500, min_rating=3000), ["--max-rating", "3500", "--min-rating", "3000"]),
    (dict(min_rating=3500, rating_of="average"), ["--min-rating", "3500", "--rating-of", "average"]),
    (dict(time_control="floodgate-300-10F"), ["--time-control", "floodgate-300-10F"]),
    (dict(event="world computer", since="2000-01"), ["--event", "world computer", "--since", "2000-01"]),
]


@pytest.mark.parametrize("kwargs,flags", RATING_FILTERS, ids=[" ".join(f) for _, f in RATING_FILTERS])
def test_explorer_filters_are_the_cli_flags(shogi_cli, corpus, kwargs, flags):
    arg = _rel(corpus)
    want = _cli_rows(shogi_cli, arg, *flags)
    got = list(shogitk.stats(arg, jobs=2, **kwargs))
    assert got == want and len(got) > 0


def test_user_rules(shogi_cli, labelled, tmp_path):
    good = tmp_path / "good.rules"
    good.write_text(GOOD_RULES, encoding="utf-8")
    tags = _one(SHIKEN).tags(tag_rules=good)
    assert tags.opening == "早指し四間"
    assert tags.sente_openings[-1].family == ["四間飛車", "振り飛車"]
    assert _one(SHIKEN).tags().opening == "四間飛車", "the built-in rules are unchanged"
    arg = _rel(labelled)
    flags = ["--tags", "--tag-rules", str(good), "--opening", "四間飛車"]
    got = list(shogitk.stats(arg, jobs=2, tags=True, tag_rules=str(good), opening="四間飛車"))
    assert got == _cli_rows(shogi_cli, arg, *flags) and len(got) > 0


def test_bad_rules_are_located(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("opening 五間飛車 < 振り飛車\n  rule\n    moved 飛 at 5十\n", encoding="utf-8")
    for call in (lambda: _one(SHIKEN).tags(tag_rules=bad),
                 lambda: shogitk.stats(SAMPLES, tags=True, tag_rules=bad)):
        with pytest.raises(shogitk.TagRulesError) as e:
            call()
        assert (e.value.path, e.value.line, e.value.column) == (str(bad), 3, 16)
        assert "unknown square `5十`" in e.value.reason
        assert str(e.value).startswith(f"{bad}:3:16: ")
        assert isinstance(e.value, ValueError)
    with pytest.raises(FileNotFoundError):
        _one(SHIKEN).tags(tag_rules=tmp_path / "missing.rules")


def test_bad_filters_are_typed_errors_naming_the_keyword():
    for kwargs, keyword, reason in [
        (dict(opening="五間飛車"), "opening", "nearest: 四間飛車, 三間飛車"),
        (dict(castle="矢蔵"), "castle", "unknown castle"),
        (dict(class_="居玉"), "class", "unknown class"),
        (dict(opening="四間飛車", side="left"), "side", "not a side"),
        (dict(max_rating="high"), "max_rating", ""),
        (dict(rating_of="sente"), "rating_of", "not mover, both or average"),
        (dict(rating_of="mover", min_rating=1), "rating_of", "position"),
        (dict(time_control="10 minutes"), "time_control", ""),
        (dict(since="2021-13"), "since", ""),
        (dict(min_plies="many"), "min_plies", ""),
    ]:
        with pytest.raises(shogitk.FilterError, match=f"^{keyword}: ") as e:
            shogitk.stats(SAMPLES, **kwargs)
        assert e.value.keyword == keyword and reason in e.value.reason, e.value
    with pytest.raises(TypeError, match="clas"):
        shogitk.stats(SAMPLES, clas="対抗形")
    # The tag filters need tagged rows: elsewhere they are not keywords.
    with pytest.raises(TypeError, match="opening"):
        shogitk.Book.from_db(SAMPLES / "none.db", opening="四間飛車")
