#!/usr/bin/env python3
"""Which between-position commands give an engine the state of a fresh process?

For each position, the reference is a fresh process (start, options, `isready`, `position sfen`,
`go`). Then one process per method searches all positions in turn, doing the method's commands
before each, and every result (bestmove, final score, PV, nodes) is compared with the reference.
The time each method's commands take (until `readyok`) is reported too.

    scripts/fresh-state-check.py --engine /usr/games/fairy-stockfish --positions FILE \
        --nodes 10000 --option Threads=1 --option Hash=16 \
        --method none --method usinewgame --method threads --method threads+usinewgame

Methods: `none`, `usinewgame` (+ isready), `isready`, `threads` (`setoption Threads` + isready),
`threads+usinewgame`, `usinewgame-only` (no isready), `hash+usinewgame-only` (the hash option
set again to its value, then usinewgame, no isready), `threads-only` and `threads+usinewgame-only`
(`setoption Threads` without isready: YaneuraOu rebuilds its threads and hash on the setoption line
itself). Positions: one SFEN per line.
This is how the engine layer's per-engine reset (shogi-usi `FreshState`) was chosen.
"""
import argparse
import subprocess
import sys
import time


class Engine:
    def __init__(self, path, options, args=()):
        self.p = subprocess.Popen([path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd="/tmp")
        self.send("usi")
        self.wait("usiok")
        for k, v in options:
            self.send(f"setoption name {k} value {v}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine exited while waiting for {token}")
            line = line.strip()
            lines.append(line)
            if line.startswith(token):
                return lines

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def search(self, sfen, go):
        self.send(f"position sfen {sfen}")
        self.send(go)
        lines = self.wait("bestmove")
        best = lines[-1].split()[1]
        last = [l for l in lines if l.startswith("info") and " pv " in l and " score " in l]
        info = last[-1].split() if last else []
        def field(name, n=1):
            if name in info:
                i = info.index(name)
                return " ".join(info[i + 1:i + 1 + n])
            return None
        pv = " ".join(info[info.index("pv") + 1:]) if "pv" in info else ""
        return (best, field("score", 2), pv, field("nodes"))

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def reset(engine, method, threads, hash_option=None):
    if method == "none":
        return
    if method.startswith("hash"):
        # Setting the hash size again (YaneuraOu's USI_Hash, Stockfish's Hash): does it clear?
        name, value = hash_option
        engine.send(f"setoption name {name} value {value}")
    if method.startswith("threads"):
        engine.send(f"setoption name Threads value {threads}")
    if "usinewgame" in method:
        engine.send("usinewgame")
    if not method.endswith("-only"):
        engine.ready()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--positions", required=True)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--go", help="the go command (default: go nodes N); gpsusi aborts on go nodes, "
                    "so give it --go 'go byoyomi 60000' --arg=--node-count-hard-limit --arg=20000")
    ap.add_argument("--arg", action="append", default=[], help="a command-line argument of the engine")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, sent at start")
    ap.add_argument("--method", action="append", default=[])
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    a = ap.parse_args()
    options = [tuple(o.split("=", 1)) for o in a.option]
    threads = dict(options).get("Threads", "1")
    hash_option = next(((k, v) for k, v in options if k in ("USI_Hash", "Hash")), ("USI_Hash", "16"))
    sfens = [l.strip() for l in open(a.positions, encoding="utf-8") if l.strip()]
    if a.limit:
        sfens = sfens[:a.limit]
    go = a.go or f"go nodes {a.nodes}"
    ref = []
    t0 = time.time()
    for s in sfens:
        e = Engine(a.engine, options, a.arg)
        ref.append(e.search(s, go))
        e.quit()
    print(f"fresh process per position: {len(sfens)} positions, {time.time() - t0:.2f} s")
    for method in a.method or ["none", "usinewgame"]:
        e = Engine(a.engine, options, a.arg)
        same = same_move = 0
        reset_time = search_time = 0.0
        diffs = []
        for s, r in zip(sfens, ref):
            t = time.perf_counter()
            reset(e, method, threads, hash_option)
            reset_time += time.perf_counter() - t
            t = time.perf_counter()
            got = e.search(s, go)
            search_time += time.perf_counter() - t
            same += got == r
            same_move += got[0] == r[0]
            if got != r and len(diffs) < 3:
                diffs.append((s, r, got))
        e.quit()
        n = len(sfens)
        print(f"{method:20} equal {same}/{n} (same move {same_move}/{n}); "
              f"reset {1000 * reset_time / n:.2f} ms, search {1000 * search_time / n:.2f} ms a position")
        for s, r, got in diffs:
            print(f"    {s}\n      fresh {r}\n      got   {got}")


if __name__ == "__main__":
    main()
