"""Records: read, read_many and write from Python give what the `shogi` CLI gives."""

import os
import pathlib
import random

import pytest

import shogitk
from shogitk import ReadError, Record

from conftest import FIXTURES, ROOT, SAMPLES, require


def _cli_lines(records):
    """What `shogi check` prints (text, first lines) for these records."""
    out = []
    for r in records:
        if r.error is not None:
            out.append(str(r.error))
        else:
            out.extend(str(d) for d in r.diagnostics)
    return out


def _compare_with_cli(folder, shogi_cli, jobs=2):
    """read_many over `folder` against `shogi check` and `shogi convert --to sfen` of it, both
    run from the workspace root with the same relative path (so that the names agree)."""
    arg = os.path.relpath(folder, ROOT)
    os.chdir(ROOT)
    records = list(shogitk.read_many([arg], jobs=jobs))
    assert records, f"no record in {folder}"
    assert all(isinstance(r, Record) for r in records)

    code, out, err = shogi_cli("check", arg, cwd=ROOT)
    assert code in (0, 1), err
    assert out.splitlines() == _cli_lines(records)
    summary = err.strip().splitlines()[-1]
    invalid = sum(not r.valid for r in records)
    assert f"checked {len(records)} record(s)" in summary
    assert f"{len(records) - invalid} valid, {invalid} invalid" in summary

    code, out, err = shogi_cli("convert", arg, "--to", "sfen", "--mainline", cwd=ROOT)
    want = [r.final_sfen for r in records if r.error is None and r.final_sfen is not None]
    assert out.splitlines() == want
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert errors == [str(r.error) for r in records if r.error is not None]
    return records


@pytest.fixture(autouse=True)
def _keep_cwd(monkeypatch):
    monkeypatch.chdir(os.getcwd())


def test_samples_equal_the_cli(shogi_cli):
    records = _compare_with_cli(SAMPLES, shogi_cli)
    assert len(records) == 6 and all(r.valid for r in records)


def test_fixtures_equal_the_cli(shogi_cli):
    records = _compare_with_cli(FIXTURES, shogi_cli, jobs=1)
    assert any(not r.valid for r in records)


def test_corpus_equals_the_cli(shogi_cli, corpus):
    records = _compare_with_cli(corpus, shogi_cli)
    assert len(records) >= 199


def test_read_many_is_ordered_and_parallel_runs_agree(corpus):
    one = [(r.path, r.index, r.final_sfen, str(r.error)) for r in shogitk.read_many(corpus, jobs=1)]
    two = [(r.path, r.index, r.final_sfen, str(r.error)) for r in shogitk.read_many([corpus], jobs=2)]
    assert one == two
    # read() of each file gives the same games.
    by_file = []
    for path in dict.fromkeys(p for p, *_ in one):
        by_file.extend((r.path, r.index, r.final_sfen, str(r.error)) for r in shogitk.read(path))
    assert by_file == one


def test_corpus_final_positions_match_the_consensus(corpus):
    """Where the reference parsers agree on a final SFEN, we give it too (or a located error)."""
    rows = (corpus / "REFERENCE_CONSENSUS.tsv").read_text(encoding="utf-8").splitlines()
    head = rows[0].split("\t")
    checked = 0
    for line in rows[1:]:
        row = dict(zip(head, line.split("\t")))
        want = row.get("final_sfen_canonical")
        if not want:
            continue
        records = shogitk.read(corpus / row["path"])
        got = records[0]
        if got.final_sfen is None:
            continue
        # The consensus SFENs leave out the move number.
        if " ".join(got.final_sfen.split()[:3]) == want:
            checked += 1
    assert checked > 100


def test_sample_record_properties():
    [r] = shogitk.read(SAMPLES / "game.kif")
    assert r.format == "kif" and r.path == str(SAMPLES / "game.kif") and r.index == 1
    assert r.line == 1 and r.encoding == "utf-8"
    assert r.header["先手"] == "Sente" and r.black == "Sente" and r.white == "Gote"
    assert ("後手", "Gote") in r.header_items
    assert r.variant == "standard" and r.handicap == "平手"
    assert r.start_sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert len(r) == 30 and len(r.moves) == 30 and r.moves[:2] == ["7g7f", "8c8d"]
    assert len(r.times) == 30 and len(r.comments) == 30
    assert r.ending == "resign" and r.ending_ja == "投了"
    # Black is to move after 30 moves and resigns.
    assert r.winner == "gote" and r.result == "white"
    assert r.valid and r.error is None and r.errors == [] and r.warnings == []
    assert r.final_position().sfen() == r.final_sfen
    assert r.position_at(0).sfen() == r.start_sfen
    assert r.position_at(1).sfen() == shogitk.Position.from_usi("startpos moves 7g7f").sfen()
    assert r.position_at(31) is None
    assert "Sente vs Gote, 30 moves, resign" in repr(r)


def test_the_same_game_in_every_format_reads_the_same():
    finals = {}
    for name in ["game.kif", "game.ki2", "game.csa", "game.usi", "game.jkf"]:
        [r] = shogitk.read(SAMPLES / name)
        assert r.valid, name
        finals[name] = (r.moves, r.final_sfen)
    assert len(set(map(repr, finals.values()))) == 1


def test_sources_bytes_text_and_paths_agree():
    path = SAMPLES / "game.csa"
    data = path.read_bytes()
    a = shogitk.read(path)[0]
    b = shogitk.read(str(path))[0]
    c = shogitk.read(data)[0]
    d = shogitk.read(data.decode("utf-8"))[0]
    assert a.final_sfen == b.final_sfen == c.final_sfen == d.final_sfen
    assert c.path is None and d.path is None
    # Shift_JIS bytes are detected, or named.
    kif = (SAMPLES / "game.kif").read_text(encoding="utf-8")
    sjis = kif.encode("cp932")
    assert shogitk.read(sjis)[0].final_sfen == a.final_sfen
    assert shogitk.read(sjis)[0].encoding == "shift_jis"
    assert shogitk.read(sjis, encoding="shift_jis")[0].final_sfen == a.final_sfen
    # A one-line USI record given as text needs its line break (a str without one is a path).
    assert shogitk.read("position startpos moves 7g7f\n")[0].moves == ["7g7f"]
    assert shogitk.read(b"position startpos moves 7g7f", format="usi")[0].moves == ["7g7f"]


def test_multi_game_files():
    games = shogitk.read(FIXTURES / "more" / "two-games.csa")
    assert [g.index for g in games] == [1, 2]
    assert games[0].line == 1 and games[1].line > games[0].line
    good, bad = games
    assert good.valid and not bad.valid
    # The record as far as it was read: the move before the illegal one.
    assert len(bad.moves) == 1 and bad.final_sfen is not None
    err = bad.error
    assert isinstance(err, ReadError) and isinstance(err, ValueError)
    assert (err.line, err.column, err.kind, err.ply) == (17, 1, "illegal-move", 2)
    assert err.reason == "move 2 -3344FU: the piece does not move that way"
    assert err.written == "-3344FU"
    assert str(err).endswith("two-games.csa:17:1: error: move 2 -3344FU: the piece does not move that way")
    assert "^" in err.context and "-3344FU" in err.line_text
    [e] = bad.errors
    assert (e.severity, e.line, e.column) == ("error", 17, 1)
    with pytest.raises(ReadError) as raised:
        bad.raise_for_error()
    assert str(raised.value) == str(err)
    good.raise_for_error()
    with pytest.raises(ReadError, match="17:1: error"):
        shogitk.read(FIXTURES / "more" / "two-games.csa", strict=True)


def test_validation_warnings_are_diagnostics():
    # The record says 詰み but the side to move is not mated: a warning, as `shogi check` says.
    text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 詰み\n"
    [r] = shogitk.read(text)
    assert r.error is None and r.valid and r.errors == []
    [w] = r.warnings
    assert w.severity == "warning" and w.line == 4 and "詰み" in str(w)
    assert str(w).startswith("<input>:4:")
    assert w in r.diagnostics or str(w) in map(str, r.diagnostics)
    shogitk.read(text, strict=True)


def test_write_round_trips():
    [r] = shogitk.read(SAMPLES / "game.kif")
    for fmt in ["kif", "ki2", "csa", "usi", "sfen", "jkf"]:
        text = shogitk.write(r, fmt)
        assert text == r.write(fmt)
        [back] = shogitk.read(text + "\n", format=fmt)
        assert back.moves == r.moves, fmt
        assert back.final_sfen == r.final_sfen, fmt
    with pytest.raises(ValueError, match="unknown format"):
        shogitk.write(r, "pgn")


def test_losses_name_what_a_format_cannot_hold():
    text = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:03/00:00:03)\n*a note\n"
    [r] = shogitk.read(text, format="kif")
    assert r.losses("kif") == []
    assert r.losses("ki2") == ["1 time"]
    assert r.losses("usi") == ["1 comment", "1 time"]
    with pytest.raises(ValueError, match="unknown format"):
        r.losses("pgn")


def test_input_errors_raise(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        shogitk.read(tmp_path / "missing.kif")
    assert e.value.filename == str(tmp_path / "missing.kif")
    with pytest.raises(IsADirectoryError):
        shogitk.read(tmp_path)
    with pytest.raises(ReadError) as e:
        shogitk.read(b"hello world\nthis is not a record\n")
    assert e.value.kind == "unknown-format"
    assert str(e.value) == "<input>: error: the format of the input is not recognised"
    with pytest.raises(ReadError) as e:
        shogitk.read(b"")
    assert e.value.kind == "truncated"
    (tmp_path / "x.kif").write_bytes(b"\xff\xfe\xfd\x80\n")
    with pytest.raises(ReadError) as e:
        shogitk.read(tmp_path / "x.kif", encoding="utf-8")
    assert e.value.path == str(tmp_path / "x.kif") and e.value.kind == "encoding"
    assert str(e.value).startswith(f"{tmp_path / 'x.kif'}:1:1: error: the bytes are not valid UTF-8")
    with pytest.raises(ValueError, match="unknown encoding"):
        shogitk.read(SAMPLES / "game.kif", encoding="latin-9")
    with pytest.raises(ValueError, match="unknown format"):
        shogitk.read(SAMPLES / "game.kif", format="pgn")
    with pytest.raises(TypeError):
        shogitk.read(42)


def test_read_many_never_dies_of_one_file(tmp_path):
    (tmp_path / "a.kif").write_bytes((SAMPLES / "game.kif").read_bytes())
    (tmp_path / "b.kif").write_bytes(b"\xff\xfe\x00garbage")
    (tmp_path / "c.csa").write_bytes((SAMPLES / "game.csa").read_bytes())
    (tmp_path / "notes.txt").write_text("not a record")
    paths = [tmp_path, tmp_path / "missing.kif", SAMPLES / "game.usi"]
    records = list(shogitk.read_many(paths, jobs=2))
    names = [pathlib.Path(r.path).name for r in records]
    assert names == ["a.kif", "b.kif", "c.csa", "missing.kif", "game.usi"]
    assert [r.valid for r in records] == [True, False, True, False, True]
    assert records[3].error.kind == "io"
    assert str(records[3].error).endswith("missing.kif: error: no such file or directory")
    # A single path, and the iterator protocol.
    it = shogitk.read_many(str(SAMPLES / "game.kif"))
    assert iter(it) is it
    assert next(it).valid
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(ValueError):
        shogitk.read_many([SAMPLES], jobs=0)
    # Dropping an iterator early stops its reader.
    for _ in range(3):
        it = shogitk.read_many([SAMPLES] * 50, jobs=2)
        next(it)
        del it


def test_garbage_never_crashes_the_interpreter():
    """Mutated records: read() returns records or raises ReadError, nothing else."""
    rng = random.Random(7)
    seeds = [p.read_bytes() for p in sorted(SAMPLES.iterdir()) if p.is_file() and p.suffix != ".md"]
    for i in range(400):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randrange(1, 12)):
            op = rng.randrange(4)
            at = rng.randrange(len(data) + 1)
            if op == 0 and data:
                del data[at : at + rng.randrange(1, 40)]
            elif op == 1:
                data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
            elif op == 2 and data:
                j = rng.randrange(len(data))
                data[j] = rng.choice(b"0123456789+-*/:%PLNSGBRK \n\r\t")
            else:
                data[at:at] = data[: rng.randrange(0, 200)]
        try:
            records = shogitk.read(bytes(data))
        except ReadError as e:
            assert e.kind and isinstance(str(e), str)
            continue
        for r in records:
            if not r.valid:
                assert r.errors, i
                assert all(isinstance(str(d), str) for d in r.errors)
            else:
                assert r.final_sfen is None or shogitk.Position(r.final_sfen).sfen() == r.final_sfen


def test_readme_pandas_example(monkeypatch):
    """The five lines of the workspace README run (with pandas when it is installed)."""
    pd = require("pandas")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    # The first Python block of the README's "Python" section.
    section = text.split("\n## Python\n", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(block.replace('["records/"]', '["samples"]'), scope)
    df = scope["df"]
    assert isinstance(df, pd.DataFrame) and len(df) == 6 and df["valid"].all()


def test_errors_pickle_with_their_attributes():
    """Dask and multiprocessing send exceptions between processes by pickle."""
    import pickle

    bad = shogitk.read(FIXTURES / "more" / "two-games.csa")[1]
    err = pickle.loads(pickle.dumps(bad.error))
    assert type(err) is ReadError
    assert (err.line, err.column, err.kind, err.reason) == (
        bad.error.line, bad.error.column, bad.error.kind, bad.error.reason)
    assert str(err) == str(bad.error)
    try:
        shogitk.Position("nonsense")
    except shogitk.SfenError as e:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is shogitk.SfenError and back.field == e.field and str(back) == str(e)


def test_empty_and_blank_files_are_errors_as_in_the_cli(tmp_path, shogi_cli):
    """Files are read through shogi-batch, as `shogi check` reads them: nothing but white
    space is not a game."""
    for name, data in [("empty.kif", b""), ("blank.csa", b" \n\r\n\t\n")]:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(ReadError) as e:
            shogitk.read(path)
        assert e.value.kind == "truncated" and e.value.path == str(path)
        [r] = shogitk.read_many([path])
        assert not r.valid and r.index == 0 and str(r.error) == str(e.value)
        code, out, _ = shogi_cli("check", path)
        assert code == 1 and out.splitlines() == [str(e.value)]
