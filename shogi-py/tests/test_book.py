"""Book: opening books opened in any of the three formats, probed with typed moves, iterated,
built from records and from the game database (the same book `shogi book build` writes), and
written."""

import pytest

import shogitk

from conftest import FIXTURES, SAMPLES

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def _records(*folders):
    return [r for f in folders for r in shogitk.read_many([str(f)], jobs=1)]


def test_build_equals_the_cli_and_probes_typed_moves(shogi_cli, tmp_path):
    cli = tmp_path / "cli.db"
    code, _, err = shogi_cli("book", "build", SAMPLES, FIXTURES, "-o", cli, "--max-ply", "10")
    assert code == 0, err
    book = shogitk.Book.build(_records(SAMPLES, FIXTURES), max_ply=10)
    ours = tmp_path / "py.db"
    assert book.write(str(ours)) == []
    assert ours.read_bytes() == cli.read_bytes()
    moves = book.probe(shogitk.Position.startpos())
    assert moves == book.probe("startpos") == book.probe(START)
    assert all(isinstance(m, shogitk.BookMove) for m in moves)
    first = moves[0]
    assert isinstance(first.move, shogitk.Move) and first.ponder is None
    assert isinstance(first.value, int) and first.depth == 0
    # Counts are games: the counts of the start position's moves add up to the games that
    # reached it with a move.
    code, out, _ = shogi_cli("book", "probe", cli, "startpos")
    cli_counts = {l.split("\t")[0]: int(l.split("\t")[4]) for l in out.splitlines()[1:]}
    assert {str(m.move): m.count for m in moves} == cli_counts
    # Not in the book: no moves; a move number that differs matters unless ignore_ply.
    assert book.probe(START[:-1] + "9") == []
    assert book.probe(START[:-1] + "9", ignore_ply=True) == moves


def test_every_format_opens_and_iterates(tmp_path):
    book = shogitk.Book.build(_records(SAMPLES, FIXTURES), max_ply=8)
    text = tmp_path / "b.db"
    book.write(str(text))
    items = list(book)
    assert len(items) == len(book) > 0
    assert sum(len(moves) for _, moves in items) == book.moves
    sfen, moves = items[0]
    assert isinstance(sfen, str) and isinstance(moves[0], shogitk.BookMove)
    for ext in ("ybb", "bin"):
        other = tmp_path / f"b.{ext}"
        notes = book.write(str(other))
        assert all("warning" in n for n in notes)
        back = shogitk.Book.open(str(other))
        start = shogitk.Position.startpos()
        want = [(str(m.move), m.value) for m in book.probe(start)]
        assert [(str(m.move), m.value) for m in back.probe(start, ignore_ply=True)] == want
    assert list(shogitk.Book.open(str(text))) == items


def test_from_the_database_with_filters(shogi_cli, tmp_path):
    db = tmp_path / "g.sqlite"
    code, _, err = shogi_cli("index", SAMPLES, FIXTURES, "--db", db)
    assert code == 0, err
    from_db = shogitk.Book.from_db(str(db), max_ply=10)
    from_records = shogitk.Book.build(_records(SAMPLES, FIXTURES), max_ply=10)
    assert list(from_db) == list(from_records)
    assert len(shogitk.Book.from_db(str(db), player="nobody at all")) == 0
    with pytest.raises(ValueError, match="since"):
        shogitk.Book.from_db(str(db), since="not a date")


def test_bad_books_raise_located_errors(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_text("#YANEURAOU-DB2016 1.00\nsfen " + START + "\n7g7f 3c3d x\n")
    with pytest.raises(shogitk.ShogiError, match=r"bad\.db:3"):
        shogitk.Book.open(str(bad))
    with pytest.raises(shogitk.ShogiError, match="no such"):
        shogitk.Book.from_analysis(str(tmp_path / "missing.sqlite"))
    odd = tmp_path / "book.bin"
    odd.write_bytes(b"\0" * 17)
    with pytest.raises(shogitk.ShogiError, match="16"):
        shogitk.Book.open(str(odd))


def test_from_rows_builds_a_book_and_locates_bad_rows(tmp_path):
    after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    rows = [
        ("startpos", "2g2f", 20, 10, 3),
        (START, "7g7f", 30, 12, 5),
        ("sfen " + after, "3c3d"),
    ]
    book = shogitk.Book.from_rows(rows)
    assert len(book) == 2 and book.moves == 3
    got = [(str(m.move), m.value, m.depth, m.count) for m in book.probe("startpos")]
    # Sorted as YaneuraOu writes them: count first.
    assert got == [("7g7f", 30, 12, 5), ("2g2f", 20, 10, 3)]
    assert [(str(m.move), m.value, m.depth, m.count) for m in book.probe(after)] == [
        ("3c3d", 0, 0, 1)
    ]
    # A Table's rows (mappings) give the same book, and it writes as the CLI reads it.
    table = shogitk.Table(
        ["sfen", "move", "value", "depth", "count"],
        [(s, m, *rest) if rest else (s, m, 0, 0, 1) for s, m, *rest in rows],
    )
    same = shogitk.Book.from_rows(table)
    assert list(same) == list(book)
    out = tmp_path / "rows.db"
    assert book.write(str(out)) == []
    assert list(shogitk.Book.open(str(out))) == list(book)
    # Bad rows: the row (from 1) and the field are named.
    bad = [
        ([("startpos", "7g7f"), ("startpos", "5e5d")], 2, "move"),
        ([("not a position", "7g7f")], 1, "sfen"),
        ([("startpos", "7g7f"), ("startpos", "7g7f")], 2, "move"),
        ([("startpos", "7g7f", "high")], 1, "value"),
        ([("startpos", "7g7f", 0, 0, -1)], 1, "count"),
        ([("startpos",)], 1, "row"),
        ([{"move": "7g7f"}], 1, "sfen"),
        ([("4k/5/5/5/K4 b - 1", "5e4e")], 1, "sfen"),
    ]
    for rows, row, field in bad:
        with pytest.raises(shogitk.BookRowError) as e:
            shogitk.Book.from_rows(rows)
        assert (e.value.row, e.value.field) == (row, field), str(e.value)
        assert str(e.value).startswith(f"row {row}: {field}: ")
        assert isinstance(e.value, shogitk.ShogiError)


def test_from_analysis_is_the_bounded_build_of_the_cli(shogi_cli, fake, tmp_path):
    cache = tmp_path / "cache.sqlite"
    game = SAMPLES / "game.kif"
    code, _, err = shogi_cli("analyze", game, "--engine", fake, "--nodes", "1", "--cache", cache)
    assert code in (0, 1), err
    cli = tmp_path / "cli.db"
    code, _, err = shogi_cli("book", "build", "--analysis", cache, "-o", cli, "--max-ply", "20")
    assert code == 0, err
    # Sorted in memory, and with no memory at all (every search in a run on disk): the book
    # the CLI writes.
    for memory in (512, 0):
        book = shogitk.Book.from_analysis(str(cache), max_ply=20, memory=memory)
        ours = tmp_path / f"py-{memory}.db"
        assert book.write(str(ours)) == []
        assert ours.read_bytes() == cli.read_bytes()
    assert len(book) > 10
