#!/usr/bin/env python3
"""Our books against the real YaneuraOu (not a CI test: CI has no YaneuraOu).

    python3 scripts/book-yaneuraou.py --engine /work/yaneuraou/source/YaneuraOu-by-gcc \
        [--shogi target/release/shogi] [--records ../shared/corpus-openings] [--max-ply 24] [--book BOOK.db]

1. Builds a text book from the records with `shogi book build` (or takes --book).
2. Copies the engine binary into a scratch folder (YaneuraOu finds books at
   <binary folder>/<BookDir>/<BookFile>), loads the book with BookFile/BookDir, as text, as
   .ybb (converted by us) and as Apery's book.bin (converted by us), and checks each time that
   `go` at the start position answers a move the book lists, with YaneuraOu's book output
   (`info` lines of 0 nodes) and no `Illegal Move In Book DB` error. The value filter is
   opened (BookEvalBlackLimit and BookEvalWhiteLimit at their minimum, -99999): under the
   defaults (Black 0, White -140, BookEvalDiff 30) a book move valued below the limit is
   dropped and YaneuraOu searches instead (it says `info string BookEvalDiff = 30 ,
   BookEvalBlackLimit = 0 , 1 moves to 0 moves.`), which tests its policy, not our file:
   the random books of book-bench.py value moves uniformly in -1000..1000, so their start
   position's only move is as likely to be negative as not. Each format's lines of
   YaneuraOu's about the book (`info string`, the book's `info` lines) are printed.
3. Runs `makebook peta_shock` on the same book and `shogi book backup` on it, and compares
   the two books move by move (value and depth of every move of every position, and the
   best's). Moves of equal value and depth may come in another order (YaneuraOu's follows its
   move generator and std::sort): counted apart, not a difference. Prints the number of
   positions and moves compared and each difference (the first 20); exit 1 on any.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def read_db(path):
    """{sfen: [(move, value, depth)]} of a text book."""
    book, cur = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("//"):
                continue
            if line.startswith("sfen "):
                cur = book.setdefault(line[5:], [])
                continue
            w = line.split()
            cur.append((w[0], int(w[2]) if len(w) > 2 else 0, int(w[3]) if len(w) > 3 else 0))
    return book


def usi(engine_dir, commands, timeout=600):
    r = subprocess.run(
        ["./" + os.path.basename(ENGINE)],
        cwd=engine_dir,
        input="".join(c + "\n" for c in commands).encode(),
        capture_output=True,
        timeout=timeout,
    )
    return r.stdout.decode("utf-8", "replace")


def main():
    global ENGINE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--records", default="../shared/corpus-openings")
    ap.add_argument("--max-ply", type=int, default=24)
    ap.add_argument("--book", help="a text book to use instead of building one")
    ap.add_argument("--play-only", action="store_true", help="skip the peta_shock comparison (step 3)")
    args = ap.parse_args()
    ENGINE = os.path.abspath(args.engine)
    shogi = os.path.abspath(args.shogi)
    work = tempfile.mkdtemp(prefix="book-yaneuraou-")
    os.makedirs(os.path.join(work, "book"))
    shutil.copy(ENGINE, work)
    db = os.path.join(work, "book", "user_book1.db")
    if args.book:
        shutil.copy(args.book, db)
    else:
        subprocess.run([shogi, "book", "build", args.records, "-o", db, "--max-ply", str(args.max_ply)], check=True)
    failures = 0

    # 2. The engine plays a book move at the start position, from each of our three formats
    # (.ybb through YaneuraOu's fallback from user_book1.db; book.bin read as Apery's).
    listed = [m for m, _, _ in read_db(db).get(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", [])]
    for fmt, book_file in (("db", "user_book1.db"), ("ybb", "user_book1.db"), ("bin", "book.bin")):
        play = os.path.join(work, "play")
        shutil.rmtree(play, ignore_errors=True)
        os.makedirs(os.path.join(play, "book"))
        shutil.copy(ENGINE, play)
        target = os.path.join(play, "book", "book.bin" if fmt == "bin" else f"user_book1.{fmt}")
        subprocess.run([shogi, "book", "convert", db, target], check=True, capture_output=True)
        out = usi(play, [
            "usi", "setoption name USI_Hash value 16", "setoption name BookDir value book",
            f"setoption name BookFile value {book_file}", "setoption name BookDepthLimit value 0",
            "setoption name BookEvalBlackLimit value -99999", "setoption name BookEvalWhiteLimit value -99999",
            "isready", "usinewgame", "position startpos", "go btime 1000 wtime 1000 byoyomi 100", "quit",
        ], timeout=60)
        best = [l.split()[1] for l in out.splitlines() if l.startswith("bestmove")]
        book_info = [l for l in out.splitlines() if l.startswith("info depth") and "multipv" in l and " nodes 0 " in l]
        illegal = [l for l in out.splitlines() if "Illegal Move In Book" in l]
        ok = bool(best) and best[0] in listed and book_info and not illegal
        print(f"{fmt}: go at startpos: bestmove {best[0] if best else None}; book moves {listed}; "
              f"{len(book_info)} book info lines; {len(illegal)} illegal-move errors -> {'ok' if ok else 'FAILED'}")
        for l in out.splitlines():
            if l.startswith("info string") and ("book" in l.lower()) or l in book_info:
                print("    " + l)
        failures += not ok

    if args.play_only:
        shutil.rmtree(work)
        return 1 if failures else 0

    # 3. peta_shock against ours.
    log = usi(work, [
        "setoption name USI_Hash value 16", "setoption name BookDir value book",
        "setoption name BookFile value no_book", "setoption name FlippedBook value true",
        "makebook peta_shock user_book1.db peta.db", "quit",
    ])
    summary = [l for l in log.splitlines() if ":" in l and l.split(":")[0].strip() in (
        "write book nodes", "const_nodes", "non-const_nodes", "in-check nodes",
        "check-loops nodes1", "check-loops nodes2", "converged_moves")]
    print("YaneuraOu peta_shock: " + "; ".join(" ".join(s.split()) for s in summary))
    ours_path = os.path.join(work, "ours.db")
    r = subprocess.run([shogi, "book", "backup", db, ours_path], capture_output=True, text=True)
    print("shogi book backup: " + r.stderr.strip().splitlines()[-1])
    theirs, ours = read_db(os.path.join(work, "book", "peta.db")), read_db(ours_path)
    diffs, tie_order = [], 0
    for sfen in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(sfen), ours.get(sfen)
        if a is None or b is None:
            diffs.append(f"{sfen}: only in {'ours' if a is None else 'YaneuraOu'}")
        elif sorted(a) != sorted(b):
            diffs.append(f"{sfen}: YaneuraOu {a} ours {b}")
        elif a[0][1:] != b[0][1:]:
            diffs.append(f"{sfen}: best: YaneuraOu {a[0]} ours {b[0]}")
        elif a != b:
            tie_order += 1
    moves = sum(len(v) for v in theirs.values())
    print(f"compared {len(theirs)} positions, {moves} moves: {len(diffs)} positions differ in a value or depth; "
          f"{tie_order} list moves of equal value and depth in another order (YaneuraOu's move generator's)")
    for d in diffs[:20]:
        print("  " + d)
    failures += bool(diffs)
    shutil.rmtree(work)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
