#!/usr/bin/env python3
"""`shogi stats` with the opening and castle columns (--tags) against without, on real games.

The games are the main lines of ../shared/corpus-openings (337 real games, median 97 plies),
written once as USI lines by `shogi convert --to usi`, and repeated to --games games (default
10,000) in files of 100 lines each, so that every game has a real opening and a real length.
Each run times `stats -j1` without and with --tags, interleaved, by its rusage (CSV to
/dev/null); the medians of --runs give games per second per core and the ratio (the issue's
target: at most 1.5x). With --instructions each is also run once under valgrind's callgrind
and the instructions counted: a ratio the load of a shared machine does not move (runs by
time vary by about 0.1 here), though instructions are not time.

    python3 scripts/openings-bench.py [--games 10000] [--runs 3] [--kif] [--instructions] [--shogi target/release/shogi]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def timed(cmd):
    """(wall, cpu) seconds of one run; cpu is user + system from the child's rusage (finer
    than /usr/bin/time's hundredths, which are 5% of a 10,000-game run)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{cmd}: exit {code}: {err.decode(errors='replace')}")
    return wall, ru.ru_utime + ru.ru_stime


def instructions(cmd):
    """Instructions the program executes (callgrind's `Collected`)."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       capture_output=True, text=True)
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    sys.exit(f"valgrind {cmd}: no count: {p.stderr[-500:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shogi", default=os.path.join(ROOT, "target", "release", "shogi"))
    ap.add_argument("--instructions", action="store_true", help="also count instructions under valgrind (one run each)")
    ap.add_argument("--kif", action="store_true", help="one KIF file per game (as collections are) instead of USI lines")
    args = ap.parse_args()
    out = subprocess.run([args.shogi, "convert", os.path.join(SHARED, "corpus-openings", "files"), "--to", "usi"], capture_output=True, text=True)
    lines = [l for l in out.stdout.splitlines() if l.startswith("position")]
    if not lines:
        sys.exit("no games converted")
    plies = sum(len(l.split()) - 3 for l in lines) / len(lines)
    with tempfile.TemporaryDirectory() as d:
        games = [lines[i % len(lines)] for i in range(args.games)]
        if args.kif:
            kif = os.path.join(d, "kif")
            subprocess.run([args.shogi, "convert", os.path.join(SHARED, "corpus-openings", "files"), "--to", "kif", "--out-dir", kif, "--lossy"], capture_output=True, check=True)
            files = sorted(os.listdir(kif))
            for i in range(args.games):
                os.link(os.path.join(kif, files[i % len(files)]), os.path.join(d, f"g{i:06}.kif"))
            import shutil
            shutil.rmtree(kif)
        else:
            for k in range(0, len(games), 100):
                with open(os.path.join(d, f"g{k // 100:05}.usi"), "w") as f:
                    f.write("\n".join(games[k:k + 100]) + "\n")
        base = [args.shogi, "stats", d, "-j", "1", "-o", "/dev/null"]
        res = {"without": [], "with --tags": []}
        for _ in range(args.runs):
            res["without"].append(timed(base))
            res["with --tags"].append(timed(base + ["--tags"]))
        ins = [instructions(base), instructions(base + ["--tags"])] if args.instructions else None
    form = "one KIF file per game" if args.kif else "USI lines, 100 a file"
    print(f"{args.games} games ({len(lines)} distinct, mean {plies:.0f} plies, {form}), stats -j1, median of {args.runs} runs")
    cpu = {}
    for name, runs in res.items():
        wall = statistics.median(r[0] for r in runs)
        cpu[name] = statistics.median(r[1] for r in runs)
        print(f"  {name:12} wall {wall:6.2f} s  cpu {cpu[name]:6.2f} s  {args.games / cpu[name]:8.0f} games/s per core")
    print(f"  ratio (cpu, with / without): {cpu['with --tags'] / cpu['without']:.2f}")
    print("  ratio of each run: " + " ".join(f"{t[1] / w[1]:.2f}" for w, t in zip(res["without"], res["with --tags"])))
    if ins:
        print(f"  instructions: without {ins[0]:,}, with --tags {ins[1]:,}, ratio {ins[1] / ins[0]:.3f}")


if __name__ == "__main__":
    main()
