#!/usr/bin/env python3
"""hcpe writing throughput: `shogi convert --to hcpe` against a cshogi `csa_to_hcpe`-style
script over the same KIF games, in one run.

The games: N games of seeded random legal play written as (UTF-8) KIF by
`cargo run --release -p shogi-kif --example gen_games -- --out DIR --games N --seed S`.

Both sides do the same work: read every file, parse and check every move, and write one
38-byte hcpe entry per position before each move (position, move played, result, eval 0, as
DLShogi's csa_to_hcpe.py does with --out_noeval), into one file. cshogi's side:
`KIF.Parser.parse_file`, then per move `board.is_legal`, `board.to_hcp`, `cshogi.move16`,
`board.push` (for 詰み, which cshogi's KIF parser gives no result, the result comes from
cshogi's `is_game_over` on the final position), entries in a numpy `HuffmanCodedPosAndEval` array written with `tofile`. Ours:
`shogi convert DIR --to hcpe --output FILE --keep-unfinished` with --jobs 1 and 2 (games
without a result are written as draws, which is cshogi's `win` for them too). The two files
must be byte-identical.

Timing: wall and CPU time (user + system) of each whole process, run interleaved, median of
--runs. The machine may be shared: the CPU-time ratio is the steadier number.

Usage (from the workspace root):
  python3 scripts/bench-training.py [--games 10000] [--seed 1] [--runs 3] [--no-build]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "shogi-training-bench"
)
VENV_PY = os.path.expanduser("~/.cache/shogi-training-crosscheck/venv/bin/python")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SHOGI = os.path.join(TARGET, "release", "shogi")
GEN = os.path.join(TARGET, "release", "examples", "gen_games")

CSHOGI_WRITER = r"""
import sys, os, numpy as np, cshogi, cshogi.KIF
d, out = sys.argv[1], sys.argv[2]
files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.kif'))
chunks = []
entries = 0
for f in files:
    # gen_games writes UTF-8 KIF; parse_file would decode `.kif` as CP932 (it opens the file
    # and calls parse_str, as here).
    with open(f, encoding='utf-8') as t:
        kif = cshogi.KIF.Parser.parse_str(t.read())
    board = cshogi.Board(kif.sfen)
    win = kif.win
    if win is None:
        # cshogi's KIF parser gives no result for 詰み: the side to move at the end is mated.
        end = cshogi.Board(kif.sfen)
        for m in kif.moves:
            end.push(m)
        win = (2 - end.turn) if end.is_game_over() else 0
    hcpes = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
    for i, move in enumerate(kif.moves):
        if not board.is_legal(move):
            sys.exit(f"{f}: illegal move {i + 1}")
        board.to_hcp(hcpes[i]['hcp'])
        hcpes[i]['bestMove16'] = cshogi.move16(move)
        hcpes[i]['gameResult'] = win
        board.push(move)
    chunks.append(hcpes)
    entries += len(hcpes)
np.concatenate(chunks).tofile(out)
print(len(files), entries)
"""


def sh(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def ensure_python():
    if not os.path.exists(VENV_PY):
        venv = os.path.dirname(os.path.dirname(VENV_PY))
        sh([sys.executable, "-m", "venv", venv])
        sh([VENV_PY, "-m", "pip", "install", "-q", "cshogi==1.1.0", "numpy"])
    return VENV_PY


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({p.returncode}): {p.stderr[-500:]}")
    return wall, cpu, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    a = ap.parse_args()

    py = ensure_python()
    if not a.no_build:
        env = dict(os.environ, CARGO_TARGET_DIR=TARGET)
        sh(["cargo", "build", "--release", "-q", "-p", "shogi-cli"], cwd=ROOT, env=env)
        sh(["cargo", "build", "--release", "-q", "-p", "shogi-kif", "--example", "gen_games"],
           cwd=ROOT, env=env)
    d = os.path.join(CACHE, f"games-{a.games}-seed{a.seed}")
    if not os.path.exists(os.path.join(d, ".complete")):
        os.makedirs(d, exist_ok=True)
        sh([GEN, "--out", d, "--games", str(a.games), "--seed", str(a.seed)])
        open(os.path.join(d, ".complete"), "w").close()
    writer = os.path.join(CACHE, "cshogi_to_hcpe.py")
    with open(writer, "w") as f:
        f.write(CSHOGI_WRITER)
    outs = {k: os.path.join(CACHE, f"{k}.hcpe") for k in ("j1", "j2", "cshogi")}
    subjects = [
        ("shogi convert --to hcpe -j1", "j1",
         [SHOGI, "convert", d, "--to", "hcpe", "--keep-unfinished", "--jobs", "1",
          "--output", outs["j1"]]),
        ("shogi convert --to hcpe -j2", "j2",
         [SHOGI, "convert", d, "--to", "hcpe", "--keep-unfinished", "--jobs", "2",
          "--output", outs["j2"]]),
        ("cshogi 1.1.0 csa_to_hcpe-style", "cshogi", [py, writer, d, outs["cshogi"]]),
    ]
    results = {name: [] for name, _, _ in subjects}
    for run in range(a.runs):
        for name, _, cmd in subjects:
            wall, cpu, out, err = timed(cmd)
            results[name].append((wall, cpu))
            print(f"  run {run + 1}: {name:32s} wall {wall:7.3f}s  cpu {cpu:7.3f}s",
                  file=sys.stderr)
    ours = open(outs["j1"], "rb").read()
    if ours != open(outs["j2"], "rb").read():
        sys.exit("--jobs 1 and --jobs 2 wrote different files")
    theirs = open(outs["cshogi"], "rb").read()
    if ours != theirs:
        first = next((i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y), None)
        sys.exit(f"ours ({len(ours)} bytes) and cshogi's ({len(theirs)} bytes) differ "
                 f"(first at byte {first}, entry {first // 38 if first is not None else '-'})")
    entries = len(ours) // 38
    print(f"{a.games} KIF games of random play (seed {a.seed}), {entries} hcpe entries, "
          f"byte-identical; median of {a.runs} runs")
    print(f"{'writer':32s} {'wall s':>8s} {'entries/s':>11s} {'cpu s':>8s} {'entries/cpu-s':>14s}")
    med = {}
    for name, _, _ in subjects:
        wall = statistics.median(r[0] for r in results[name])
        cpu = statistics.median(r[1] for r in results[name])
        med[name] = (wall, cpu)
        print(f"{name:32s} {wall:8.3f} {entries / wall:11.0f} {cpu:8.3f} {entries / cpu:14.0f}")
    cs = med["cshogi 1.1.0 csa_to_hcpe-style"]
    for name in ("shogi convert --to hcpe -j1", "shogi convert --to hcpe -j2"):
        w, c = med[name]
        print(f"ratio {name} / cshogi: {cs[0] / w:5.1f}x wall, {cs[1] / c:5.1f}x cpu")


if __name__ == "__main__":
    main()
