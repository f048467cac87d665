"""What the command-line benchmarks (bench-kif.py, bench-training.py) share: building the
release binaries, timing a child process, and the medians and speed ratios they print.

Imported by the scripts beside it; it is not a script itself.
"""

import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SHOGI = os.path.join(TARGET, "release", "shogi")
GEN = os.path.join(TARGET, "release", "examples", "gen_games")


def cache(name):
    """A folder of ours under the user's cache folder (XDG_CACHE_HOME or ~/.cache)."""
    return os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), name)


def sh(cmd, **kw):
    """Runs cmd, echoed on stderr; a failure ends the script."""
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def ensure_built():
    """Builds `shogi` and the game generator gen_games in release mode."""
    env = dict(os.environ, CARGO_TARGET_DIR=TARGET)
    sh(["cargo", "build", "--release", "-q", "-p", "shogi-cli"], cwd=ROOT, env=env)
    sh(["cargo", "build", "--release", "-q", "-p", "shogi-kif", "--example", "gen_games"],
       cwd=ROOT, env=env)


def timed(cmd):
    """Runs cmd; returns (wall seconds, cpu seconds, exit code, stdout, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode, p.stdout, p.stderr


def medians(results):
    """{name: [(wall, cpu), ...]} -> {name: (median wall, median cpu)}."""
    return {
        name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
        for name, runs in results.items()
    }


def print_ratios(med, base, names):
    """One line per name in `names`: how many times faster than `base` it was."""
    bw, bc = med[base]
    for name in names:
        w, c = med[name]
        print(f"ratio {name} / cshogi: {bw / w:5.1f}x wall, {bc / c:5.1f}x cpu")
