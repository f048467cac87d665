#!/usr/bin/env python3
"""Writes the regression fixtures of three dialects of real records (issue 19) into
shogi-kif/tests/fixtures/dialects/, each in UTF-8 and in Shift_JIS (CP932) bytes:

* line ends: a bare CR on every line (classic Mac OS, Kifu for Macintosh), and LF, CRLF and
  CR mixed in one file, in KIF, KI2 and CSA;
* a KIF move naming the unpromoted piece while its source square holds the promoted one
  (`１一角(22)` for a 馬 on 22), as one web app writes them;
* a final foul move (a nifu pawn drop) followed by a closing line that leaves it out of its
  count, said by the closing line (`まで8手で後手の反則勝ち`) or by a comment (`*二歩`,
  then `まで8手で後手の勝ち`), in KIF and KI2.

The games are made up here. Run from the repository root: python3 scripts/make-dialect-fixtures.py
"""

from pathlib import Path

OUT = Path("shogi-kif/tests/fixtures/dialects")

# Nine plies: sente wins a pawn on the 2-file, then drops it on the 7-file, where its own
# pawn still stands (二歩).
FOUL_KIF_MOVES = [
    "   1 ２六歩(27)",
    "   2 ３四歩(33)",
    "   3 ２五歩(26)",
    "   4 ８四歩(83)",
    "   5 ２四歩(25)",
    "   6 同　歩(23)",
    "   7 同　飛(28)",
    "   8 ８五歩(84)",
    "   9 ７五歩打",
]
FOUL_KI2_MOVES = [
    "▲２六歩    △３四歩    ▲２五歩    △８四歩    ▲２四歩    △同　歩",
    "▲同　飛    △８五歩    ▲７五歩",
]


def kif_header(title):
    return [
        "# ---- 方言の回帰テスト (shogi toolkit) ----",
        f"表題：{title}",
        "手合割：平手",
        "先手：先手",
        "後手：後手",
    ]


def foul_kif(said_by_comment):
    lines = kif_header("反則の手で終わる棋譜") + ["手数----指手---------消費時間--"]
    lines += FOUL_KIF_MOVES
    if said_by_comment:
        lines += ["*二歩", "まで8手で後手の勝ち"]
    else:
        lines += ["まで8手で後手の反則勝ち"]
    return lines


def foul_ki2(said_by_comment):
    lines = kif_header("反則の手で終わる棋譜") + [""] + FOUL_KI2_MOVES
    if said_by_comment:
        lines += ["*二歩", "まで8手で後手の勝ち"]
    else:
        lines += ["まで8手で後手の反則勝ち"]
    return lines


def promoted_source_kif():
    # The bishop promotes on 22 (taking gote's bishop); from then on the horse's moves are
    # written with the bishop's name, as one web app writes them.
    return kif_header("成った駒を元の名前で書く棋譜") + [
        "手数----指手---------消費時間--",
        "   1 ７六歩(77)",
        "   2 ３四歩(33)",
        "   3 ２二角成(88)",
        "   4 ６二銀(71)",
        "   5 １一角(22)",
        "   6 ４二玉(51)",
        "   7 ２二角(11)",
        "   8 投了",
        "まで7手で先手の勝ち",
    ]


# An 11-ply game, long enough that a reader that does not split the lines keeps nothing.
CR_KIF_MOVES = [
    "   1 ７六歩(77)   ( 0:01/00:00:01)",
    "   2 ３四歩(33)   ( 0:02/00:00:02)",
    "   3 ２六歩(27)   ( 0:01/00:00:02)",
    "   4 ４四歩(43)   ( 0:03/00:00:05)",
    "   5 ２五歩(26)   ( 0:01/00:00:03)",
    "   6 ３三角(22)   ( 0:02/00:00:07)",
    "   7 ４八銀(39)   ( 0:04/00:00:07)",
    "   8 ３二飛(82)   ( 0:01/00:00:08)",
    "   9 ６八玉(59)   ( 0:02/00:00:09)",
    "  10 ６二玉(51)   ( 0:01/00:00:09)",
    "  11 ７八玉(68)   ( 0:03/00:00:12)",
    "  12 投了         ( 0:05/00:00:14)",
]
CR_KI2_MOVES = [
    "▲７六歩    △３四歩    ▲２六歩    △４四歩    ▲２五歩    △３三角",
    "▲４八銀    △３二飛    ▲６八玉    △６二玉    ▲７八玉",
]


def cr_kif():
    return (
        kif_header("行末が CR だけの棋譜")
        + ["開始日時：1999/07/15 19:07:12", "手数----指手---------消費時間--"]
        + CR_KIF_MOVES
        + ["*後手の投了", "まで11手で先手の勝ち"]
    )


def cr_ki2():
    return (
        kif_header("行末が CR だけの棋譜")
        + [""]
        + CR_KI2_MOVES
        + ["*コメント", "まで11手で先手の勝ち"]
    )


def cr_csa():
    return [
        "V2.2",
        "N+sente",
        "N-gote",
        "PI",
        "+",
        "+7776FU",
        "-3334FU",
        "+2726FU",
        "%TORYO",
        "/",
        "PI",
        "+",
        "+2726FU",
        "-8384FU",
        "%CHUDAN",
    ]


def mixed(lines):
    """Line ends cycling LF, CRLF, CR (and no line end after the last line)."""
    ends = ["\n", "\r\n", "\r"]
    return "".join(l + ends[i % 3] for i, l in enumerate(lines[:-1])) + lines[-1]


def write(name, text, encoding):
    data = text.encode(encoding)
    (OUT / name).write_bytes(data)
    print(f"{OUT / name}: {len(data)} bytes, {encoding}")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    cr = lambda lines: "".join(l + "\r" for l in lines)
    lf = lambda lines: "".join(l + "\n" for l in lines)
    # Line ends.
    write("cr_mac.kif", cr(cr_kif()), "cp932")
    write("cr_mac.kifu", cr(cr_kif()), "utf-8")
    write("cr_mac.ki2", cr(cr_ki2()), "cp932")
    write("cr_mac.ki2u", cr(cr_ki2()), "utf-8")
    write("cr_mac.csa", cr(cr_csa()), "ascii")
    write("eol_mixed.kif", mixed(cr_kif()), "cp932")
    write("eol_mixed.kifu", mixed(cr_kif()), "utf-8")
    write("eol_mixed.ki2u", mixed(cr_ki2()), "utf-8")
    write("eol_mixed.csa", mixed(cr_csa()), "ascii")
    # The promoted piece named unpromoted (KIF only: KI2 has no source square).
    write("promoted_source.kif", lf(promoted_source_kif()), "cp932")
    write("promoted_source.kifu", lf(promoted_source_kif()), "utf-8")
    # The foul left out of the closing line's count.
    for by_comment, stem in [(False, "foul_closing"), (True, "foul_comment")]:
        write(f"{stem}.kif", lf(foul_kif(by_comment)), "cp932")
        write(f"{stem}.kifu", lf(foul_kif(by_comment)), "utf-8")
        write(f"{stem}.ki2", lf(foul_ki2(by_comment)), "cp932")
        write(f"{stem}.ki2u", lf(foul_ki2(by_comment)), "utf-8")


if __name__ == "__main__":
    main()
