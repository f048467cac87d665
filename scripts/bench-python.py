#!/usr/bin/env python3
"""shogitk against cshogi from Python, in one process and one run.

1. Per-call cost of the legal moves of a position: shogitk's `Position.legal_moves()` (a list
   of Move objects) against cshogi's `board.legal_moves` (a LegalMoveList) and
   `list(board.legal_moves)` (the moves as ints), on the start position, a middle game
   (matsuri) and the position with the most legal moves known (593).
2. With --games DIR: reading and validating a folder of KIF files with `read_many(jobs=1)` and
   `read_many(jobs=2)` against a loop of cshogi's `KIF.Parser.parse_file` that replays each
   game with `Board.is_legal` (the same work as scripts/bench-kif.py, without process start).
3. With --hcpe DIR: writing hcpe training data for a folder of UTF-8 KIF games with
   `read_many(jobs=1|2)` and `Record.training("hcpe", keep_unfinished=True)` against the
   cshogi `csa_to_hcpe`-style writer scripts/cshogi_hcpe.py (bench-training.py runs it too: parse, `is_legal`,
   `to_hcp`, `move16`, `push`, a numpy `HuffmanCodedPosAndEval` array), both in this process;
   the outputs must be byte-identical. The folder is the one bench-training.py generates
   (`~/.cache/shogi-training-bench/games-10000-seed1`: gen_games, 10,000 games, seed 1, UTF-8).

Needs shogitk and cshogi importable by the running Python (e.g. the venv of
scripts/test-python.sh, plus `pip install cshogi`). Times are the best of --repeat runs of
timeit (calls) and the median of --runs (reading), interleaved; CPU time is reported too
because the machine may be shared.

Usage:
  python scripts/bench-python.py [--repeat 7] [--games DIR] [--hcpe DIR] [--runs 3]
"""

import argparse
import os
import statistics
import sys
import time
import timeit

import cshogi
import cshogi.KIF

import shogitk
from cshogi_hcpe import hcpe_bytes

POSITIONS = {
    "startpos": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "matsuri": "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "maxmoves": "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
}


def per_call(stmt, number, repeat):
    """Best time per call in nanoseconds, and the CPU time per call."""
    timer = timeit.Timer(stmt)
    wall = min(timer.repeat(repeat=repeat, number=number)) / number * 1e9
    t0 = time.process_time()
    timer.timeit(number=number)
    cpu = (time.process_time() - t0) / number * 1e9
    return wall, cpu


def legal_moves(repeat):
    print("legal moves per call, ns (wall: best of %d; CPU in brackets, steadier when the "
          "machine is shared)" % repeat)
    print(f"{'position':10} {'moves':>5}  {'shogitk legal_moves()':>22} {'cshogi legal_moves':>20}"
          f"  {'shogitk list(...)':>18} {'cshogi list(...)':>18}  CPU ratios call / list")
    for name, sfen in POSITIONS.items():
        pos = shogitk.Position(sfen)
        board = cshogi.Board(sfen)
        ours = sorted(str(m) for m in pos.legal_moves())
        theirs = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        assert ours == theirs, name
        number = 20000 if len(ours) < 300 else 4000
        a = per_call(pos.legal_moves, number, repeat)
        c = per_call(lambda: board.legal_moves, number, repeat)
        al = per_call(lambda: list(pos.legal_moves()), number // 4, repeat)
        cl = per_call(lambda: list(board.legal_moves), number // 4, repeat)
        print(f"{name:10} {len(ours):5}  {a[0]:13.0f} [{a[1]:6.0f}] {c[0]:11.0f} [{c[1]:6.0f}]"
              f"  {al[0]:9.0f} [{al[1]:6.0f}] {cl[0]:9.0f} [{cl[1]:6.0f}]  "
              f"{a[1] / c[1]:5.2f} / {al[1] / cl[1]:5.2f}")


def cshogi_read(files):
    games = plies = 0
    for f in files:
        p = cshogi.KIF.Parser.parse_file(f)
        board = cshogi.Board(p.sfen)
        for m in p.moves:
            if not board.is_legal(m):
                break
            board.push(m)
        games += 1
        plies += len(p.moves)
    return games, plies


def ours_read(files, jobs):
    games = plies = 0
    for r in shogitk.read_many(files, jobs=jobs):
        games += 1
        plies += len(r)
    return games, plies


def interleaved(subjects, runs):
    """Runs each (name, fn) of `subjects` in turn, `runs` times over; returns each one's last
    result and its (wall s, CPU s) per run, both by name."""
    last, times = {}, {name: [] for name, _ in subjects}
    for _ in range(runs):
        for name, fn in subjects:
            w0, c0 = time.perf_counter(), time.process_time()
            last[name] = fn()
            times[name].append((time.perf_counter() - w0, time.process_time() - c0))
    return last, times


def report(times, note):
    """One line per subject: median wall and CPU seconds, `note(name)`, the speed-up on cshogi."""
    base = statistics.median(w for w, _ in times["cshogi"])
    base_cpu = statistics.median(c for _, c in times["cshogi"])
    for name, rs in times.items():
        w = statistics.median(x for x, _ in rs)
        c = statistics.median(x for _, x in rs)
        print(f"  {name:15} {w:7.3f} s {c:7.3f} s CPU  {note(name)}speed-up {base / w:5.1f}x "
              f"wall, {base_cpu / c:5.1f}x CPU")


def reading(folder, runs):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.endswith((".kif", ".kifu")))
    print(f"reading {len(files)} files (median of {runs}; wall s / CPU s)")
    counts, results = interleaved([("shogitk jobs=1", lambda: ours_read(files, 1)),
                                   ("shogitk jobs=2", lambda: ours_read(files, 2)),
                                   ("cshogi", lambda: cshogi_read(files))], runs)
    report(results, lambda name: f"games, plies = {counts[name]}  ")


def ours_hcpe(files, jobs):
    out = bytearray()
    for r in shogitk.read_many(files, jobs=jobs):
        out += r.training("hcpe", keep_unfinished=True)
    return bytes(out)


def hcpe(folder, runs):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".kif"))
    print(f"writing hcpe for {len(files)} files (median of {runs}; wall s / CPU s of this "
          "process, all threads)")
    subjects = [("shogitk jobs=1", lambda: ours_hcpe(files, 1)),
                ("shogitk jobs=2", lambda: ours_hcpe(files, 2)),
                ("cshogi", lambda: hcpe_bytes(files))]
    outputs, results = interleaved(subjects, runs)
    want = outputs["cshogi"]
    for name, got in outputs.items():
        if got != want:
            first = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), None)
            sys.exit(f"{name}: {len(got)} bytes differ from cshogi's {len(want)} (first at "
                     f"byte {first})")
    print(f"  {len(want) // 38} entries, byte-identical to cshogi's")
    report(results, lambda _: "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--games", help="a folder of .kif (Shift_JIS) or .kifu (UTF-8) games")
    ap.add_argument("--hcpe", help="a folder of UTF-8 .kif games to write hcpe for")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}, shogitk {shogitk.__version__}, "
          f"cshogi {getattr(cshogi, '__version__', '?')}")
    legal_moves(args.repeat)
    if args.games:
        reading(args.games, args.runs)
    if args.hcpe:
        hcpe(args.hcpe, args.runs)


if __name__ == "__main__":
    main()
