#!/usr/bin/env python3
"""Read-and-validate throughput of `shogi check` against cshogi's KIF reader, in one run.

The collection is made by the project itself: N games of seeded random legal play written as
KIF by `cargo run --release -p shogi-kif --example gen_games` (Shift_JIS `.kif` by default,
which is what cshogi's `KIF.Parser.parse_file` expects; `--encoding utf8` writes UTF-8 `.kifu`
instead, which cshogi also reads as UTF-8 by its extension).

Both sides do the same work: read every file, decode it, parse every move, and check each
move for legality on a board while replaying (`shogi check` also checks repetitions and the
ending; cshogi's parser calls `Board.is_legal` before `Board.push` for every move, and this
script replays its moves once more with `is_legal` first, as a validator must).

Timing: whole-process wall time and CPU time (user + system) of each command, run
interleaved (ours -j1, ours -j2, cshogi, then again) and the median of --runs taken. The
machine may be shared: the CPU-time ratio is the steadier number.

Each command's files (the folder's records, or the archive) are read once just before it is
timed, so that every reader is timed on a warm page cache: the benchmark measures reading
and checking, not the disk. (A virtual machine's host may trim an idle guest's page cache: on
ours 1.7% of the 10,000 files were gone 5 s after a run, so the run after cshogi's 4.5 s
read a few hundred files from the disk, in system time.)

With --tar-zst the same files are also packed into DIR.tar.zst (`tar` and `zstd -3`) and
`shogi check` reads the archive itself, at --jobs 1 and 2: the ratio of archive to files in
the same run is the archive reader's cost (issue 29 asks for at least 0.8x).

With --compare BASE (another build of `shogi`, e.g. one of main copied aside before a change to
the reader) BASE's `check --jobs 1` is timed in the same runs (interleaved with ours: the ratio
of the pair is the change's speed-up), and the timings are preceded (unless
--same-results-unchecked) by a check that the change altered no result: `check`
(text and jsonl) and `stats` of both binaries over samples/, ../shared/corpus, the fixtures
and the benchmark's files must give the same bytes, exit codes and summaries (timings aside).

With --instructions the timings are followed by the instructions `shogi check --jobs 1`
executes on the files, counted by valgrind's cachegrind (and of BASE_SHOGI with --compare), with
the functions that execute most of them: on a loaded machine CPU times vary by 20% from run to
run, while these counts change only with the code, so a step of a few percent can be seen.

Usage (from the workspace root):
  python3 scripts/bench-kif.py [--games 10000] [--runs 3] [--encoding sjis|utf8]
  [--dir DIR] [--python PY] [--tar-zst] [--compare BASE_SHOGI] [--instructions]

Needs cshogi (PyPI) in the Python given by --python, or in a venv that this script makes at
~/.cache/shogi-kif-bench/venv on first use (`pip install cshogi==1.1.0`).
"""
import argparse
import os
import re
import subprocess
import sys

import benchkit
import scratch_venv

CACHE = benchkit.cache("shogi-kif-bench")
SHOGI, GEN = benchkit.SHOGI, benchkit.GEN
sh, timed, ensure_built = benchkit.sh, benchkit.timed, benchkit.ensure_built

# Run by the cshogi interpreter: read every file with cshogi's KIF reader, replay with
# legality checks, and report counts so that both sides can be seen to read the same moves.
CSHOGI_READER = r"""
import sys, os, cshogi, cshogi.KIF
d = sys.argv[1]
files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(('.kif', '.kifu')))
games = plies = illegal = 0
for f in files:
    p = cshogi.KIF.Parser.parse_file(f)
    board = cshogi.Board(p.sfen)
    for m in p.moves:
        if not board.is_legal(m):
            illegal += 1
            break
        board.push(m)
    games += 1
    plies += len(p.moves)
print(games, plies, illegal)
"""


def warm(paths):
    """Reads every file of `paths` (into nothing), so that the next command finds them in the
    page cache."""
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def ensure_python(py):
    """`py`, or the python of a scratch venv with cshogi 1.1.0 (bench-stats.py uses it too)."""
    return py or scratch_venv.python_in(os.path.join(CACHE, "venv"), ["cshogi==1.1.0"])


def ensure_corpus(d, games, encoding, given=False):
    """Writes the games into `d` unless they are there. In the default folder a rebuilt
    generator (new mtime) writes them again; a folder given with --dir is used as it is when
    it holds the same number of games in the same encoding, so that several builds (worktrees,
    each with its own generator) time and compare the very same files."""
    stamp = os.path.join(d, ".complete")
    if os.path.exists(stamp):
        with open(stamp) as f:
            have = f.read().split()
        if given and have[:2] == [str(games), encoding]:
            return
    want = f"{games} {encoding} {int(os.path.getmtime(GEN))}"
    if os.path.exists(stamp):
        if " ".join(have) == want:
            return
        for name in os.listdir(d):
            if name.endswith((".kif", ".kifu")):
                os.remove(os.path.join(d, name))
    sh([GEN, "--out", d, "--games", str(games), "--encoding", encoding])
    if encoding == "utf8":
        # cshogi reads `.kifu` as UTF-8 and `.kif` as CP932.
        for name in os.listdir(d):
            if name.endswith(".kif"):
                os.rename(os.path.join(d, name), os.path.join(d, name + "u"))
    with open(stamp, "w") as f:
        f.write(want + "\n")


def compare(base, d):
    """Exits with the differences when `base` and our `shogi` read any record differently."""
    root = benchkit.ROOT
    places = [os.path.join(root, p) for p in ("samples", "shogi-kif/tests/fixtures", "tests/fixtures")]
    places += [os.path.join(root, "..", "shared", "corpus"), d]
    runs = [["check"], ["check", "--format", "jsonl"], ["stats"]]
    differ = []
    for place in places:
        if not os.path.isdir(place):
            print(f"compare: {place} is not here; skipped", file=sys.stderr)
            continue
        for args in runs:
            got = []
            for binary in (base, SHOGI):
                p = subprocess.run([binary, *args, place, "--jobs", "2"], capture_output=True)
                # The summary line ends with the time taken: everything else must agree.
                err = re.sub(rb" \(\d+\.\d+s\)", b"", p.stderr)
                got.append((p.returncode, p.stdout, err))
            if got[0] != got[1]:
                differ.append(f"{' '.join(args)} {place}")
            else:
                print(f"compare: same {' '.join(args)} {place} ({len(got[0][1])} bytes)", file=sys.stderr)
    if differ:
        sys.exit("results differ from the base binary: " + "; ".join(differ))


def instructions(binary, d, games, top=12):
    """Instructions executed by `binary check d --jobs 1`, and the lines of the functions
    executing the most of them (cachegrind's counts: the same on every run)."""
    out = os.path.join(CACHE, "cachegrind.out")
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
           binary, "check", d, "--jobs", "1", "--quiet"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    if not m or f"checked {games} record(s)" not in p.stderr:
        sys.exit(f"cachegrind of {binary} failed: {p.stderr.strip()[-300:]}")
    total = int(m.group(1).replace(",", ""))
    report = subprocess.run(["cg_annotate", out], capture_output=True, text=True).stdout
    lines = report.split("file:function", 1)[-1].splitlines()
    rows = [ln.strip().replace("???:", "") for ln in lines if re.match(r"\s*[\d,]+ \(", ln)]
    os.remove(out)
    return total, rows[:top]


def print_instructions(base, d, games):
    subjects = [("shogi check --jobs 1", SHOGI)] + ([("base check --jobs 1", base)] if base else [])
    totals = {}
    for name, binary in subjects:
        total, rows = instructions(binary, d, games)
        totals[name] = total
        print(f"{name}: {total / 1e6:,.0f} M instructions, {total / games:,.0f} a game; most in")
        for row in rows:
            print(f"  {row}")
    if base:
        ratio = totals["shogi check --jobs 1"] / totals["base check --jobs 1"]
        print(f"instructions, ours / base: {ratio:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--encoding", choices=["sjis", "utf8"], default="sjis")
    ap.add_argument("--dir", help="where the games are (default ~/.cache/shogi-kif-bench/games-N-ENC)")
    ap.add_argument("--python", help="a Python with cshogi installed")
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    ap.add_argument("--tar-zst", action="store_true", help="also read the files packed as one .tar.zst")
    ap.add_argument("--compare", metavar="BASE_SHOGI", help="first check that this build of shogi gives the same results")
    ap.add_argument("--same-results-unchecked", action="store_true",
                    help="with --compare: time BASE without first checking that it gives the same results "
                         "(for a base older than features that changed outputs, e.g. the build an issue was filed at)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of check --jobs 1 (valgrind), and BASE's with --compare")
    a = ap.parse_args()

    py = ensure_python(a.python)
    if not a.no_build:
        ensure_built()
    d = a.dir or os.path.join(CACHE, f"games-{a.games}-{a.encoding}")
    ensure_corpus(d, a.games, a.encoding, given=bool(a.dir))
    if a.compare and not a.same_results_unchecked:
        compare(a.compare, d)
    names = [n for n in os.listdir(d) if n.endswith((".kif", ".kifu"))]
    mb = sum(os.path.getsize(os.path.join(d, n)) for n in names) / 1e6
    games = len(names)
    reader = os.path.join(CACHE, "cshogi_reader.py")
    os.makedirs(CACHE, exist_ok=True)
    with open(reader, "w") as f:
        f.write(CSHOGI_READER)

    subjects = [
        ("shogi check --jobs 1", [SHOGI, "check", d, "--jobs", "1", "--quiet"]),
        ("shogi check --jobs 2", [SHOGI, "check", d, "--jobs", "2", "--quiet"]),
        ("cshogi 1.1.0 KIF reader", [py, reader, d]),
    ]
    if a.compare:
        # The base build timed in the same runs: its speed and ours are a pair.
        subjects.insert(1, ("base check --jobs 1", [a.compare, "check", d, "--jobs", "1", "--quiet"]))
    if a.tar_zst:
        packed = d.rstrip("/") + ".tar.zst"
        if not os.path.exists(packed) or os.path.getmtime(packed) < os.path.getmtime(os.path.join(d, ".complete")):
            listing = os.path.join(CACHE, "tar-files.txt")
            with open(listing, "w") as f:
                f.write("".join(n + "\n" for n in sorted(names)))
            sh(["tar", "-C", d, "-I", "zstd -3 -q", "-cf", packed, "-T", listing])
        print(f"{packed}: {os.path.getsize(packed) / 1e6:.1f} MB", file=sys.stderr)
        subjects[2:2] = [
            ("shogi check .tar.zst -j1", [SHOGI, "check", packed, "--jobs", "1", "--quiet"]),
            ("shogi check .tar.zst -j2", [SHOGI, "check", packed, "--jobs", "2", "--quiet"]),
        ]
    results = {name: [] for name, _ in subjects}
    folder_files = [os.path.join(d, n) for n in names]
    for run in range(a.runs):
        for name, cmd in subjects:
            warm([packed] if ".tar.zst" in name else folder_files)
            wall, cpu, code, out, err = timed(cmd)
            if name.startswith(("shogi", "base")):
                m = re.search(r"checked (\d+) record\(s\) in \d+ file\(s\): (\d+) valid", err)
                if code != 0 or not m or int(m.group(2)) != games:
                    sys.exit(f"{name}: not every game valid (exit {code}): {err.strip()[-300:]}")
            else:
                got = out.split()
                if code != 0 or len(got) != 3 or int(got[0]) != games or got[2] != "0":
                    sys.exit(f"{name}: did not read every game legally (exit {code}): {out} {err[-300:]}")
            results[name].append((wall, cpu))
            print(f"  run {run + 1}: {name:26s} wall {wall:7.3f}s  cpu {cpu:7.3f}s", file=sys.stderr)

    print(f"{games} KIF games of random play, {mb:.1f} MB ({a.encoding}), median of {a.runs} runs")
    print(f"{'reader':26s} {'wall s':>8s} {'games/s':>9s} {'MB/s':>7s} {'cpu s':>8s} {'games/cpu-s':>12s}")
    med = benchkit.medians(results)
    for name, (wall, cpu) in med.items():
        print(f"{name:26s} {wall:8.3f} {games / wall:9.0f} {mb / wall:7.1f} {cpu:8.3f} {games / cpu:12.0f}")
    ours = ["shogi check --jobs 1", "shogi check --jobs 2"] + (["base check --jobs 1"] if a.compare else [])
    benchkit.print_ratios(med, "cshogi 1.1.0 KIF reader", ours)
    if a.compare:
        ours, base = med["shogi check --jobs 1"], med["base check --jobs 1"]
        print(f"shogi check --jobs 1 / base, same runs: {base[0] / ours[0]:.3f}x wall, "
              f"{base[1] / ours[1]:.3f}x cpu")
    if a.tar_zst:
        for jobs in (1, 2):
            files, packed = med[f"shogi check --jobs {jobs}"], med[f"shogi check .tar.zst -j{jobs}"]
            print(f"archive / files at --jobs {jobs}: wall {files[0] / packed[0]:.2f}x, "
                  f"cpu {files[1] / packed[1]:.2f}x (speed of reading the .tar.zst relative to the files)")
    if a.instructions:
        print_instructions(a.compare, d, games)


if __name__ == "__main__":
    main()
