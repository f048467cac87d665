#!/usr/bin/env python3
"""Times `shogi book` on large generated books, with anchors measured in the same run.

    python3 scripts/book-bench.py [--shogi target/release/shogi] [--positions 10000000]
        [--memory 256] [--backup-positions 1000000] [--engine YaneuraOu-by-gcc] [--work DIR]
        [--games 100000,1000000] [--build-memory 512] [--min-plies 40] [--max-plies 80] [--profile release]
        [--probes 200] [--db games-1m.sqlite]

1. Writes an unsorted text book of POSITIONS random-walk positions (the shogi-book example
   `book_gen`, built in release).
2. Sorts it with `shogi book convert --sort --memory MEMORY` (on disk, in runs) and reports the
   time, the peak resident memory (`/usr/bin/time`), positions per second and the number of
   runs; anchor: GNU `sort` of the same file's lines (`LC_ALL=C sort -S MEMORY`), i.e. a
   byte sort of text with no parsing, in the same memory.
3. Backs up the first BACKUP_POSITIONS positions with `shogi book backup`, and with
   YaneuraOu's `makebook peta_shock` when --engine is given (the anchor).
4. `shogi book probe` on the sorted book (a whole text book is read: the time of one probe
   from the command line).
5. With --games N[,N...] (0 skips it): for each N, N games of random legal play of MIN_PLIES to
   MAX_PLIES moves (shogi-kif's gen_games example, one KIF file each, seed 1), a book built from
   them with `shogi book build --max-ply 32 --memory BUILD_MEMORY`, against `shogi stats` reading the same files (the
   anchor: reading and replaying alone); then the same games indexed (`shogi index`, timed for
   information) and the book built from the database (`shogi book build --db`), against the
   same anchor; then from the database as `.ybb` and `book.bin`, at BUILD_MEMORY and at 8 MiB
   (the same bytes). Time, peak memory, book positions per second.
6. With --probes N (0 skips it): `shogi book probe` latency on the sorted book of step 2 (in
   --work, made by an earlier run when --positions is 0), in each format (converted to .ybb
   and book.bin, timed): N positions of the book, one process each, median and 99th
   percentile of the wall time; anchor: `shogi moves startpos` run as often (a process doing
   next to nothing).
7. With --db FILE: `shogi book build --db FILE` (time, peak memory), e.g. the 1,000,000-game
   database.
--positions 0 skips 1-4.
Numbers are printed; nothing is asserted.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def timed(cmd, **kw):
    """(seconds, peak RSS in MiB, completed process) of a command under /usr/bin/time -v."""
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, **kw)
    secs = time.perf_counter() - t
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    r.stderr = r.stderr.split("\tCommand being timed:")[0]
    if r.returncode != 0:
        print(r.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return secs, int(m.group(1)) / 1024 if m else float("nan"), r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--positions", type=int, default=10_000_000)
    ap.add_argument("--memory", type=int, default=256, help="MiB for the sort")
    ap.add_argument("--backup-positions", type=int, default=1_000_000)
    ap.add_argument("--engine", help="YaneuraOu (material edition) for the backup anchor")
    ap.add_argument("--work", help="folder for the books (default: a temporary one)")
    ap.add_argument("--build-memory", type=int, default=512, help="MiB of positions for book build (--memory)")
    ap.add_argument("--games", default="0", help="games for the build benchmark, comma-separated (0: none)")
    ap.add_argument("--min-plies", type=int, default=40, help="shortest generated game")
    ap.add_argument("--max-plies", type=int, default=80, help="longest generated game")
    ap.add_argument("--profile", default="release", help="cargo profile of the generators (dev is optimized too)")
    ap.add_argument("--probes", type=int, default=0, help="positions probed per format (0: no probe latency)")
    ap.add_argument("--db", help="a game database to build a book from (time, peak memory)")
    args = ap.parse_args()
    shogi = os.path.abspath(args.shogi)
    work = args.work or tempfile.mkdtemp(prefix="book-bench-")
    os.makedirs(work, exist_ok=True)
    if args.positions:
        bench_books(args, shogi, work)
    for n in (int(g) for g in args.games.split(",") if int(g) > 0):
        bench_build(args, shogi, work, n)
    if args.probes:
        bench_probe(args, shogi, work)
    if args.db:
        out = os.path.join(work, "built-from-db.db")
        secs, rss, r = timed([shogi, "book", "build", "--db", args.db, "-o", out, "--max-ply", "32",
                              "--memory", str(args.build_memory)])
        said = r.stderr.strip().splitlines()[-1]
        m = re.search(r"(\d+) positions", said)
        positions = int(m.group(1)) if m else 0
        print(f"book build --db {args.db}: {secs:.1f}s, peak {rss:,.0f} MiB, {positions / secs:,.0f} book positions/s; {said}")
    if not args.work:
        shutil.rmtree(work)


def peak(cmd):
    """(seconds, peak RSS in MiB) of a command whose output is not kept."""
    t = time.perf_counter()
    a = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.perf_counter() - t
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", a.stderr)
    return secs, int(m.group(1)) / 1024 if m else float("nan")


def bench_build(args, shogi, work, n):
    games = os.path.join(work, f"games-{n}")
    if not os.path.isdir(games):
        subprocess.run(["cargo", "run", "--profile", args.profile, "-q", "-p", "shogi-kif", "--example", "gen_games", "--",
                        "--out", games, "--games", str(n), "--seed", "1",
                        "--min-plies", str(args.min_plies), "--max-plies", str(args.max_plies)], check=True)
    asecs, arss = peak([shogi, "stats", games])
    print(f"{n:,} games ({args.min_plies}-{args.max_plies} plies, max ply 32):")
    print(f"  anchor shogi stats of the same files: {asecs:.1f}s, peak {arss:,.0f} MiB")
    out = os.path.join(work, f"built-{n}.db")
    secs, rss, r = timed([shogi, "book", "build", games, "-o", out, "--max-ply", "32",
                              "--memory", str(args.build_memory)])
    said = r.stderr.strip().splitlines()[-1]
    m = re.search(r"(\d+) positions", said)
    positions = int(m.group(1)) if m else 0
    print(f"  book build from the files: {secs:.1f}s ({secs / asecs:.2f}x the anchor), peak {rss:,.0f} MiB "
          f"({rss / arss:.2f}x), {positions / secs:,.0f} book positions/s; {said}")
    db = os.path.join(work, f"games-{n}.sqlite")
    if os.path.exists(db):
        os.remove(db)
    isecs, irss = peak([shogi, "index", games, "--db", db])
    print(f"  (shogi index of the same files: {isecs:.1f}s, peak {irss:,.0f} MiB)")
    out_db = os.path.join(work, f"built-db-{n}.db")
    secs, rss, r = timed([shogi, "book", "build", "--db", db, "-o", out_db, "--max-ply", "32",
                              "--memory", str(args.build_memory)])
    said = r.stderr.strip().splitlines()[-1]
    same = open(out, "rb").read() == open(out_db, "rb").read()
    print(f"  book build --db: {secs:.1f}s ({secs / asecs:.2f}x the anchor), peak {rss:,.0f} MiB ({rss / arss:.2f}x), "
          f"{positions / secs:,.0f} book positions/s; same book as from the files: {same}; {said}")
    # The binary formats, written through their bounded sorts: at --build-memory, and again
    # with 8 MiB (many runs on disk), which must give the same bytes.
    for ext in ("ybb", "bin"):
        out_bin = os.path.join(work, f"built-db-{n}.{ext}")
        secs, rss, r = timed([shogi, "book", "build", "--db", db, "-o", out_bin, "--max-ply", "32",
                                  "--memory", str(args.build_memory)])
        small = os.path.join(work, f"built-db-{n}-small.{ext}")
        ssecs, srss, _ = timed([shogi, "book", "build", "--db", db, "-o", small, "--max-ply", "32", "--memory", "8"])
        same = open(out_bin, "rb").read() == open(small, "rb").read()
        print(f"  book build --db -o .{ext}: {secs:.1f}s ({secs / asecs:.2f}x the anchor), peak {rss:,.0f} MiB "
              f"({rss / arss:.2f}x); with --memory 8: {ssecs:.1f}s, peak {srss:,.0f} MiB, same bytes: {same}")


def bench_books(args, shogi, work):
    big, srt = os.path.join(work, "big.db"), os.path.join(work, "sorted.db")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "shogi-book", "--example", "book_gen"], check=True)
    gen = os.path.join("target", "release", "examples", "book_gen")
    secs, _, _ = timed([gen, str(args.positions), "1", big])
    size = os.path.getsize(big) / 2**20
    print(f"generated {args.positions:,} positions, {size:,.0f} MiB, in {secs:.1f}s")

    secs, rss, r = timed([shogi, "book", "convert", big, srt, "--sort", "--memory", str(args.memory)])
    line = r.stderr.strip().splitlines()
    said = [l for l in line if l.startswith("wrote ")]
    anchor, arss, _ = timed(["sort", "-S", f"{args.memory}M", "-T", work, "-o", os.path.join(work, "gnu.txt"), big],
                            env={**os.environ, "LC_ALL": "C"})
    os.remove(os.path.join(work, "gnu.txt"))
    print(f"sort: {secs:.1f}s, peak {rss:,.0f} MiB (bound {args.memory} MiB of records), "
          f"{args.positions / secs:,.0f} positions/s; {said[0] if said else ''}")
    print(f"  anchor GNU sort of the lines: {anchor:.1f}s, peak {arss:,.0f} MiB: ours {secs / anchor:.2f}x its time")

    # Backup of the first positions (the sorted book cut after N positions).
    small = os.path.join(work, "user_book1.db")
    n = 0
    with open(srt) as f, open(small, "w") as out:
        for l in f:
            if l.startswith("sfen "):
                n += 1
                if n > args.backup_positions:
                    break
            out.write(l)
    secs, rss, r = timed([shogi, "book", "backup", small, os.path.join(work, "ours-peta.db")])
    print(f"backup of {min(n, args.backup_positions):,} positions: {secs:.1f}s, peak {rss:,.0f} MiB ({r.stderr.strip().splitlines()[-1]})")
    if args.engine:
        yo = os.path.join(work, "yo")
        os.makedirs(os.path.join(yo, "book"), exist_ok=True)
        shutil.copy(args.engine, yo)
        shutil.copy(small, os.path.join(yo, "book", "user_book1.db"))
        cmds = "".join(c + "\n" for c in [
            "setoption name USI_Hash value 16", "setoption name BookFile value no_book",
            "setoption name FlippedBook value true", "makebook peta_shock user_book1.db peta.db", "quit"])
        ysecs, yrss, _ = timed(["./" + os.path.basename(args.engine)], cwd=yo, input=cmds)
        print(f"  anchor YaneuraOu makebook peta_shock: {ysecs:.1f}s, peak {yrss:,.0f} MiB: ours {secs / ysecs:.2f}x its time")

    secs, rss, _ = timed([shogi, "book", "probe", srt, "startpos"])
    print(f"probe of the start position (a binary search of the sorted {args.positions:,}-position book on disk, the process included): {secs:.3f}s, peak {rss:,.0f} MiB")
    anchor, _, _ = timed([shogi, "moves", "startpos"])
    print(f"  anchor shogi moves startpos (a process doing next to nothing): {anchor:.3f}s")


def bench_probe(args, shogi, work):
    srt = os.path.join(work, "sorted.db")
    sfens = []
    with open(srt) as f:
        for l in f:
            if l.startswith("sfen "):
                sfens.append(l[5:].strip())
    step = max(1, len(sfens) // args.probes)
    sample = sfens[::step][:args.probes]
    books = {"db": srt}
    for ext in ("ybb", "bin"):
        books[ext] = os.path.join(work, f"sorted.{ext}")
        if not os.path.exists(books[ext]):
            secs, rss, _ = timed([shogi, "book", "convert", srt, books[ext], "--memory", str(args.memory)])
            print(f"convert of the {len(sfens):,}-position book to .{ext}: {secs:.1f}s, peak {rss:,.0f} MiB")

    def latencies(cmds):
        out = []
        for c in cmds:
            t = time.perf_counter()
            r = subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            out.append(time.perf_counter() - t)
            if r.returncode not in (0, 1):
                raise SystemExit(f"failed: {' '.join(c)}")
        out.sort()
        return out[len(out) // 2], out[min(len(out) - 1, (len(out) * 99) // 100)]

    amed, ap99 = latencies([[shogi, "moves", "startpos"]] * len(sample))
    print(f"probe latency over {len(sample)} positions of the {len(sfens):,}-position book, one process each "
          f"(anchor shogi moves startpos: median {amed * 1000:.1f} ms, p99 {ap99 * 1000:.1f} ms):")
    for ext, book in books.items():
        med, p99 = latencies([[shogi, "book", "probe", book, "sfen " + s] for s in sample])
        _, rss, _ = timed([shogi, "book", "probe", book, "sfen " + sample[0]])
        print(f"  .{ext}: median {med * 1000:.1f} ms ({med / amed:.2f}x the anchor), p99 {p99 * 1000:.1f} ms, "
              f"peak {rss:,.0f} MiB")


if __name__ == "__main__":
    sys.exit(main())
