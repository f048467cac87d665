#!/usr/bin/env python3
"""`shogi stats` against `shogi check` and cshogi's KIF reader, on the same files, in one run.

The collections are those of scripts/bench-kif.py (N games of seeded random legal play written
as Shift_JIS KIF by the project's gen_games example, one file per game), at each size given
(default 10,000 and 100,000). For each size the subjects run interleaved (check -j1, check -j2,
stats -j1, stats -j2, cshogi, then again), each under `/usr/bin/time` for its wall time, CPU
time (user + system) and peak resident set size; the medians of --runs are printed.

stats writes its CSV to /dev/null (the rows are made and formatted; only the bytes are not
kept). cshogi's side is bench-kif.py's: parse every file and replay every move with is_legal,
as a validator must; it makes no row, so it is the reading-only reference.

Usage (from the workspace root):
  python3 scripts/bench-stats.py [--sizes 10000,100000] [--runs 3] [--python PY] [--no-build]

Needs cshogi (PyPI) in the Python given by --python, or in the venv bench-kif.py makes at
~/.cache/shogi-kif-bench/venv (`pip install cshogi==1.1.0`).
"""
import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_kif", os.path.join(HERE, "bench-kif.py"))
bench_kif = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_kif)

TIME = "/usr/bin/time"


def measured(cmd):
    """Run cmd under /usr/bin/time: (wall s, cpu s, peak RSS MB, exit code, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        p = subprocess.run([TIME, "-f", "%e %U %S %M", "-o", t.name] + cmd,
                           capture_output=True, text=True)
        fields = t.read().split()
    wall, user, system, rss_kb = (float(x) for x in fields[-4:])
    return wall, user + system, rss_kb / 1024, p.returncode, p.stdout, p.stderr


def check_output(name, games, code, out, err):
    """Exit with a message unless the subject read every game as valid."""
    if name.startswith("shogi check"):
        m = re.search(r"checked (\d+) record\(s\) in \d+ file\(s\): (\d+) valid", err)
        ok = code == 0 and m and int(m.group(2)) == games
    elif name.startswith("shogi stats"):
        ok = code == 0
    else:
        got = out.split()
        ok = code == 0 and len(got) == 3 and int(got[0]) == games and got[2] == "0"
    if not ok:
        sys.exit(f"{name}: not every game read (exit {code}): {out[-200:]} {err.strip()[-300:]}")


def rows_written(shogi, d):
    """The number of rows stats writes for d (a separate run, so the timed runs write nothing)."""
    p = subprocess.run([shogi, "stats", d, "--jobs", "2"], capture_output=True, text=True)
    return max(0, len(p.stdout.splitlines()) - 1)


def bench_size(games, runs, py, reader):
    d = os.path.join(bench_kif.CACHE, f"games-{games}-sjis")
    bench_kif.ensure_corpus(d, games, "sjis")
    names = [n for n in os.listdir(d) if n.endswith(".kif")]
    if len(names) != games:
        sys.exit(f"{d}: {len(names)} games, expected {games}")
    rows = rows_written(bench_kif.SHOGI, d)
    if rows != games:
        sys.exit(f"shogi stats wrote {rows} rows for {games} games")
    mb = sum(os.path.getsize(os.path.join(d, n)) for n in names) / 1e6
    shogi = bench_kif.SHOGI
    subjects = [
        ("shogi check --jobs 1", [shogi, "check", d, "--jobs", "1", "--quiet"]),
        ("shogi check --jobs 2", [shogi, "check", d, "--jobs", "2", "--quiet"]),
        ("shogi stats --jobs 1", [shogi, "stats", d, "--jobs", "1", "-o", "/dev/null"]),
        ("shogi stats --jobs 2", [shogi, "stats", d, "--jobs", "2", "-o", "/dev/null"]),
        ("cshogi 1.1.0 KIF reader", [py, reader, d]),
    ]
    results = {name: [] for name, _ in subjects}
    for run in range(runs):
        for name, cmd in subjects:
            wall, cpu, rss, code, out, err = measured(cmd)
            check_output(name, games, code, out, err)
            results[name].append((wall, cpu, rss))
            print(f"  {games} run {run + 1}: {name:24s} wall {wall:7.2f}s cpu {cpu:7.2f}s "
                  f"rss {rss:6.1f} MB", file=sys.stderr)
    print(f"\n{games} KIF games of random play, {mb:.1f} MB (Shift_JIS), median of {runs} runs")
    print(f"{'subject':24s} {'wall s':>8s} {'games/s':>9s} {'cpu s':>8s} {'games/cpu-s':>12s} "
          f"{'peak RSS MB':>12s}")
    med = {}
    for name, _ in subjects:
        wall, cpu, rss = (statistics.median(r[i] for r in results[name]) for i in range(3))
        med[name] = (wall, cpu, rss)
        print(f"{name:24s} {wall:8.2f} {games / wall:9.0f} {cpu:8.2f} {games / cpu:12.0f} "
              f"{rss:12.1f}")
    for jobs in (1, 2):
        c, s = med[f"shogi check --jobs {jobs}"], med[f"shogi stats --jobs {jobs}"]
        print(f"stats/check --jobs {jobs}: {s[1] / c[1]:.3f}x cpu, {s[0] / c[0]:.3f}x wall")
    cs = med["cshogi 1.1.0 KIF reader"]
    for name in ("shogi stats --jobs 1", "shogi stats --jobs 2"):
        w, c, _ = med[name]
        print(f"cshogi / {name}: {cs[0] / w:5.1f}x wall, {cs[1] / c:5.1f}x cpu")
    return med


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,100000",
                    help="comma-separated numbers of games (default 10000,100000)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", help="a Python with cshogi installed")
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    a = ap.parse_args()
    if not os.path.exists(TIME):
        sys.exit(f"{TIME} is needed for peak RSS (Debian: apt-get install time)")
    py = bench_kif.ensure_python(a.python)
    if not a.no_build:
        bench_kif.ensure_built()
    reader = os.path.join(bench_kif.CACHE, "cshogi_reader.py")
    os.makedirs(bench_kif.CACHE, exist_ok=True)
    with open(reader, "w") as f:
        f.write(bench_kif.CSHOGI_READER)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    meds = {n: bench_size(n, a.runs, py, reader) for n in sizes}
    if len(sizes) > 1:
        print("\npeak RSS (MB) by size: " + ", ".join(
            f"{name}: " + " / ".join(f"{meds[n][name][2]:.1f}" for n in sizes)
            for name in ("shogi check --jobs 1", "shogi stats --jobs 1", "shogi stats --jobs 2")))


if __name__ == "__main__":
    main()
