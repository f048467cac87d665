"""Position.mate: the df-pn solver of shogi-mate."""
import shogitk

T7 = "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP2+P1kL/9/4+PsP2/6G1g b S2rb2nl3p 1519"


def test_mate_in_one():
    pos = shogitk.Position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert pos.mate() == ("mate", 1, ["G*5b"])


def test_shortest_gives_the_composed_line():
    result, length, pv = shogitk.Position(T7, relax="tsume").mate(shortest=True)
    assert (result, length) == ("mate", 7)
    assert pv == ["4f3f", "2f1g", "S*2h", "1g1h", "2h1i", "1h1i", "G*2i"]


def test_no_mate_and_limits():
    assert shogitk.Position(T7, relax="tsume").mate(depth=5) == ("nomate within 5", None, [])
    assert shogitk.Position(T7, relax="tsume").mate(nodes=2)[0] == "unknown:nodes"
    assert shogitk.Position.startpos().mate(nodes=10000)[0] in ("nomate", "unknown:nodes", "unknown:depth")


def test_answers_do_not_depend_on_earlier_calls_or_threads():
    # Each thread keeps its solver and table between calls: what one call left in the table
    # must not change the next answer, in any order, with any table size, on any thread.
    from concurrent.futures import ThreadPoolExecutor

    cases = [
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", None, {}),
        (T7, "tsume", {"shortest": True}),
        (T7, "tsume", {"depth": 5}),
        (T7, "tsume", {}),
        (T7, "tsume", {"memory_mb": 1}),
        ("4k4/9/4P4/9/9/9/9/9/4K4 b - 1", None, {"nodes": 5000}),
    ]

    def run(case):
        sfen, relax, kwargs = case
        return shogitk.Position(sfen, relax=relax).mate(**kwargs)

    first = [run(c) for c in cases]
    assert first[0] == ("mate", 1, ["G*5b"])
    assert first[1][:2] == ("mate", 7) and first[2] == ("nomate within 5", None, [])
    assert [run(c) for c in reversed(cases)][::-1] == first
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert list(pool.map(run, cases * 3)) == first * 3
