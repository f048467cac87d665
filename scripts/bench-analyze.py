#!/usr/bin/env python3
"""Benchmarks of `shogi analyze` (issue 17), all in one run so the numbers share the load:

1. our overhead: the whole collection at `--nodes 1` with the fake engine (an engine that
   answers at once, so the time is ours), and with fairy-stockfish on a subset;
2. our CPU against the engine's at `--nodes 10000` (fairy-stockfish, one thread);
3. 2 engines against 1 (`--jobs 2` vs `--jobs 1`) at `--nodes 10000`;
4. the way people do it today: a minimal Python loop over the USI protocol (and cshogi's
   usi.Engine when it is installed) on the same positions, same engine, same nodes, with a
   new game per position as we do; wall time and positions per second, and ours with the
   cache's effect (a position met in several games is searched once).

Games: the valid standard games of at least 30 moves in ../shared/corpus (as many as there
are, up to --games), read in place (the corpus is not copied).

5. with --yaneuraou PATH (built from its source: not packaged, not in CI): our overhead per
   position against the engine's bare search loop at 20,000 and 100,000 nodes (fairy-stockfish
   at 100,000 beside it), and 2 jobs against 1.

    scripts/bench-analyze.py [--games 100] [--subset 10] [--nodes 10000] [--shogi PATH]
                             [--yaneuraou PATH]

Prints one line per measurement and `uptime` before and after.
"""

import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAIRY = "/usr/games/fairy-stockfish"


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def clk():
    return os.sysconf("SC_CLK_TCK")


def self_cpu(pid):
    """utime + stime of `pid` alone (seconds), from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / clk()
    except OSError:
        return None


def run_shogi(shogi, args):
    """Runs `shogi args`; returns (wall s, own CPU s, engines' CPU s, stdout, stderr)."""
    t0 = time.perf_counter()
    p = subprocess.Popen([shogi, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    own = [0.0]
    done = threading.Event()

    def poll():
        while not done.is_set():
            c = self_cpu(p.pid)
            if c is not None:
                own[0] = c
            time.sleep(0.02)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    out_chunks, err_chunks = [], []
    to = threading.Thread(target=lambda: out_chunks.append(p.stdout.read()), daemon=True)
    te = threading.Thread(target=lambda: err_chunks.append(p.stderr.read()), daemon=True)
    to.start()
    te.start()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    to.join()
    te.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    total = ru.ru_utime + ru.ru_stime  # the process and the engines it waited for
    own_cpu = own[0]
    out = out_chunks[0].decode() if out_chunks else ""
    err = err_chunks[0].decode() if err_chunks else ""
    if p.returncode not in (0, 1):
        sys.exit(f"shogi {' '.join(args)} failed ({p.returncode}): {err}")
    return wall, own_cpu, max(total - own_cpu, 0.0), out, err


def games(shogi, limit, corpus=None):
    if corpus is None:
        # ../shared beside the project, or one level up for a git worktree in a folder of them.
        near = os.path.join(ROOT, "..", "shared", "corpus")
        corpus = near if os.path.isdir(near) else os.path.join(ROOT, "..", "..", "shared", "corpus")
    out = subprocess.run(
        [shogi, "stats", corpus, "--variant", "standard", "--valid", "--min-plies", "30"],
        capture_output=True, text=True,
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    # One game per file (the analysis takes every game of a file).
    paths = []
    for r in rows:
        if r["game"] == "1" and r["path"] not in paths:
            paths.append(r["path"])
    return paths[:limit]


def positions(shogi, paths):
    """Every position of every game as a `position` command (start + moves so far)."""
    out = []
    for p in paths:
        text = subprocess.run([shogi, "convert", p, "--to", "usi", "--lossy"], capture_output=True, text=True).stdout
        for line in text.splitlines():
            if not line.startswith("position"):
                continue
            head, _, moves = line.partition(" moves ")
            moves = moves.split() if moves else []
            for k in range(len(moves) + 1):
                out.append(head + (" moves " + " ".join(moves[:k]) if k else ""))
    return out


def python_loop(cmds, nodes, engine=FAIRY, options=(("Threads", "1"),), fresh=True, search_only=False):
    """The minimal loop people write: one engine, new game + position + go per position.
    Without `fresh`, only position + go: the engine's search time and the pipe, the anchor of
    a warm hash (searches that are not those of a fresh state: at a fixed node count they cost
    less, the hash answering part of the work). With `search_only`, the sum of the `position`
    + `go` to `bestmove` intervals alone: the engine's search of a fresh state and the pipe,
    without the fresh state's own cost, the anchor of our overhead."""
    e = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        e.stdin.write(s + "\n")
        e.stdin.flush()

    def until(word):
        while True:
            line = e.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            if line.startswith(word):
                return line

    send("usi")
    until("usiok")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    t0 = time.perf_counter()
    searching = 0.0
    for c in cmds:
        if fresh:
            send("usinewgame")
            send("isready")
            until("readyok")
        s0 = time.perf_counter()
        send(c)
        send(f"go nodes {nodes}")
        until("bestmove")
        searching += time.perf_counter() - s0
    wall = time.perf_counter() - t0
    send("quit")
    e.wait()
    return searching if search_only else wall


def cshogi_loop(cmds, nodes):
    try:
        from cshogi.usi import Engine
    except ImportError:
        return None
    eng = Engine(FAIRY)
    eng.setoption("Threads", 1)
    eng.isready()
    t0 = time.perf_counter()
    for c in cmds:
        eng.usinewgame()
        eng.isready()
        if c.startswith("position startpos"):
            moves = c.split(" moves ")[1].split() if " moves " in c else []
            eng.position(moves=moves)
        else:
            sfen, _, rest = c[len("position sfen "):].partition(" moves ")
            eng.position(moves=rest.split() if rest else [], sfen=sfen)
        eng.go(nodes=nodes)
    wall = time.perf_counter() - t0
    eng.quit()
    return wall


def distinct(err):
    for part in err.split(";"):
        if "distinct positions" in part:
            return part.strip()
    return err.strip().splitlines()[-1] if err.strip() else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--subset", type=int, default=10, help="games for the fairy-stockfish runs")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--shogi", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "shogi"))
    ap.add_argument("--fake", default=None)
    ap.add_argument("--corpus", default=None, help="the corpus folder (default ../shared/corpus)")
    ap.add_argument("--yaneuraou", default=None, help="a YaneuraOu binary: adds its measurements (5.)")
    a = ap.parse_args()
    shogi = a.shogi
    fake = a.fake or os.path.join(os.path.dirname(shogi), "fake-usi")
    print("load before:", uptime())
    print("engine:", FAIRY, "; shogi:", shogi)
    all_games = games(shogi, a.games, a.corpus)
    subset = all_games[: a.subset]
    every = positions(shogi, all_games)
    sub_pos = positions(shogi, subset)
    print(f"games: {len(all_games)} ({len(every)} positions); subset {len(subset)} ({len(sub_pos)} positions)")

    w, own, eng, out, err = run_shogi(shogi, ["analyze", *all_games, "--engine", fake, "--nodes", "1", "-o", os.devnull])
    print(f"1. fake engine, all games, --nodes 1: {w:.2f} s wall, {len(every) / w:.0f} positions/s (of the games), our CPU {own:.2f} s, engine CPU {eng:.2f} s; {distinct(err)}")
    if not os.path.exists(FAIRY):
        print("fairy-stockfish missing: the engine measurements are skipped")
        return
    w, own, eng, out, err = run_shogi(shogi, ["analyze", *subset, "--engine", FAIRY, "--nodes", "1", "-o", os.devnull])
    print(f"1b. fairy-stockfish, subset, --nodes 1: {w:.2f} s wall, {len(sub_pos) / w:.0f} positions/s, our CPU {own:.2f} s, engine CPU {eng:.2f} s")

    n = str(a.nodes)
    w1, own1, eng1, out1, err1 = run_shogi(shogi, ["analyze", *subset, "--engine", FAIRY, "--nodes", n, "--jobs", "1"])
    print(f"2. fairy-stockfish, subset, --nodes {n}, --jobs 1: {w1:.2f} s wall, {len(sub_pos) / w1:.1f} positions/s; our CPU {own1:.2f} s = {100 * own1 / max(eng1, 1e-9):.2f} % of the engine's {eng1:.2f} s; {distinct(err1)}")
    w2, own2, eng2, out2, err2 = run_shogi(shogi, ["analyze", *subset, "--engine", FAIRY, "--nodes", n, "--jobs", "2"])
    print(f"3. --jobs 2: {w2:.2f} s wall, {len(sub_pos) / w2:.1f} positions/s: {w1 / w2:.2f}x --jobs 1; same table: {out1 == out2}")

    with tempfile.TemporaryDirectory() as d:
        cache = os.path.join(d, "c.sqlite")
        wc, *_ = run_shogi(shogi, ["analyze", *subset, "--engine", FAIRY, "--nodes", n, "--jobs", "1", "--cache", cache, "-o", os.devnull])
        wc2, *_ = run_shogi(shogi, ["analyze", *subset, "--engine", FAIRY, "--nodes", n, "--jobs", "1", "--cache", cache, "-o", os.devnull])
    print(f"   with --cache: first run {wc:.2f} s, second run {wc2:.2f} s")

    wp = python_loop(sub_pos, a.nodes)
    print(f"4. minimal Python USI loop, subset, nodes {n}: {wp:.2f} s wall, {len(sub_pos) / wp:.1f} positions/s (every position searched; ours --jobs 1: {w1:.2f} s, {wp / w1:.2f}x faster)")
    wcs = cshogi_loop(sub_pos, a.nodes)
    if wcs is None:
        print("   cshogi not installed: its loop skipped")
    else:
        print(f"   cshogi usi.Engine loop: {wcs:.2f} s wall, {len(sub_pos) / wcs:.1f} positions/s")
    if a.yaneuraou:
        yaneuraou(shogi, subset, sub_pos, a)
    print("load after:", uptime())


def overhead(shogi, engine, options, subset, sub_pos, nodes):
    """Our wall time per position (--jobs 1) against the engine's searches of a fresh state
    (the time from `position` + `go` to `bestmove`, each search after `usinewgame` and
    `isready`, those not counted) at `nodes`: everything else (the fresh state, the pool, our
    reading and writing) is overhead, the target at most 10 % at 100,000 nodes."""
    bare = python_loop(sub_pos, nodes, engine, options, fresh=True, search_only=True)
    flags = [x for k, v in options for x in ("--option", f"{k}={v}") if k != "Threads"]
    w1, *_ = run_shogi(shogi, ["analyze", *subset, "--engine", engine, *flags, "--nodes", str(nodes), "--jobs", "1", "-o", os.devnull])
    n = len(sub_pos)
    return bare, w1, f"the engine's fresh searches {bare:.2f} s ({1000 * bare / n:.1f} ms/position), ours --jobs 1 {w1:.2f} s ({1000 * w1 / n:.1f} ms/position): overhead {100 * (w1 - bare) / bare:+.1f} %"


def yaneuraou(shogi, subset, sub_pos, a):
    """5. YaneuraOu (built from its source; not in CI): overhead at 20,000 and 100,000 nodes,
    fairy-stockfish's at 100,000 beside it, and 2 jobs against 1."""
    ya = a.yaneuraou
    opts = (("USI_Hash", "16"), ("Threads", "1"))
    for nodes in (20000, 100000):
        print(f"5. YaneuraOu, subset, --nodes {nodes}: {overhead(shogi, ya, opts, subset, sub_pos, nodes)[2]}")
    print(f"5b. fairy-stockfish, subset, --nodes 100000: {overhead(shogi, FAIRY, (('Threads', '1'),), subset, sub_pos, 100000)[2]}")
    flags = ["--option", "USI_Hash=16", "--nodes", "20000"]
    w1, own1, eng1, out1, _ = run_shogi(shogi, ["analyze", *subset, "--engine", ya, *flags, "--jobs", "1"])
    w2, _, _, out2, _ = run_shogi(shogi, ["analyze", *subset, "--engine", ya, *flags, "--jobs", "2"])
    print(f"5c. YaneuraOu --nodes 20000: --jobs 1 {w1:.2f} s, our CPU {100 * own1 / max(eng1, 1e-9):.2f} % of the engines'; --jobs 2 {w2:.2f} s: {w1 / w2:.2f}x; same table: {out1 == out2}")


if __name__ == "__main__":
    main()
