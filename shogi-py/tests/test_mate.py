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
    assert shogitk.Position(T7, relax="tsume").mate(depth=5) == ("nomate", None, [])
    assert shogitk.Position(T7, relax="tsume").mate(nodes=2)[0] == "unknown:nodes"
    assert shogitk.Position.startpos().mate(nodes=10000)[0] in ("nomate", "unknown:nodes", "unknown:depth")
