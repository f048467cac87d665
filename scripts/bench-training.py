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
cshogi's `is_game_over` on the final position), entries in a numpy `HuffmanCodedPosAndEval` array (scripts/cshogi_hcpe.py). Ours:
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
import sys

import benchkit
import scratch_venv

CACHE = benchkit.cache("shogi-training-bench")
# The venv of training-crosscheck.py.
VENV = os.path.expanduser("~/.cache/shogi-training-crosscheck/venv")
SHOGI, GEN, sh = benchkit.SHOGI, benchkit.GEN, benchkit.sh


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    a = ap.parse_args()

    py = scratch_venv.python_in(VENV, ["cshogi==1.1.0", "numpy"])
    if not a.no_build:
        benchkit.ensure_built()
    d = os.path.join(CACHE, f"games-{a.games}-seed{a.seed}")
    if not os.path.exists(os.path.join(d, ".complete")):
        os.makedirs(d, exist_ok=True)
        sh([GEN, "--out", d, "--games", str(a.games), "--seed", str(a.seed)])
        open(os.path.join(d, ".complete"), "w").close()
    writer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cshogi_hcpe.py")
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
            wall, cpu, code, _, err = benchkit.timed(cmd)
            if code != 0:
                sys.exit(f"{cmd[0]} failed ({code}): {err[-500:]}")
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
    med = benchkit.medians(results)
    for name, (wall, cpu) in med.items():
        print(f"{name:32s} {wall:8.3f} {entries / wall:11.0f} {cpu:8.3f} {entries / cpu:14.0f}")
    benchkit.print_ratios(med, "cshogi 1.1.0 csa_to_hcpe-style", [n for n, _, _ in subjects[:2]])


if __name__ == "__main__":
    main()
