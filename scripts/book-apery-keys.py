#!/usr/bin/env python3
"""Apery book keys: ours against cshogi's `Board.book_key()` over random positions.

    python3 scripts/book-apery-keys.py [--shogi target/release/shogi] [--positions 5000] [--seed 1]
    python3 scripts/book-apery-keys.py --write-vector shogi-book/tests/data/apery-keys.tsv --positions 300

Positions come from random games played by cshogi (every legal move equally likely, up to 250
plies, so hands fill up and pieces promote), sampled along the way. cshogi (from PyPI, in a
scratch venv under ~/.cache/shogi-book/venv) gives each position's key; `shogi book key` gives
ours. Any difference is printed and the exit status is 1. `--write-vector` writes the (SFEN,
key) table the Rust tests read instead (cshogi's keys only: no binary of ours is needed).
"""

import argparse
import os
import random
import subprocess
import sys

import scratch_venv

VENV = os.path.expanduser("~/.cache/shogi-book/venv")
CSHOGI = "cshogi==1.1.0"


def positions(n, seed):
    import cshogi

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = cshogi.Board()
        for _ in range(rng.randrange(1, 250)):
            moves = list(board.legal_moves)
            if not moves or board.is_draw() != cshogi.NOT_REPETITION:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.1:
                out.append((board.sfen(), board.book_key()))
        out.append((board.sfen(), board.book_key()))
    return out[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--positions", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write-vector", metavar="PATH")
    args = ap.parse_args()
    scratch_venv.rerun_in(VENV, [CSHOGI])
    import cshogi

    table = positions(args.positions, args.seed)
    start = cshogi.Board().book_key()
    assert start == 0xEEBE8EE7E1AD7E15, hex(start)
    if args.write_vector:
        with open(args.write_vector, "w") as f:
            f.write(f"# Apery book keys by {CSHOGI} Board.book_key(), scripts/book-apery-keys.py --seed {args.seed}\n")
            for sfen, key in table:
                f.write(f"{sfen}\t{key:016x}\n")
        print(f"wrote {len(table)} keys to {args.write_vector}")
        return 0
    text = "".join(s + "\n" for s, _ in table)
    r = subprocess.run([args.shogi, "book", "key", "-"], input=text.encode(), capture_output=True)
    if r.returncode != 0:
        print(r.stderr.decode(), file=sys.stderr)
        return 2
    ours = r.stdout.decode().split()
    bad = 0
    for (sfen, key), mine in zip(table, ours):
        if int(mine, 16) != key:
            bad += 1
            if bad <= 10:
                print(f"differs: {sfen}: cshogi {key:016x}, ours {mine}")
    if len(ours) != len(table):
        print(f"ours gave {len(ours)} keys for {len(table)} positions")
        bad += 1
    print(f"{len(table)} positions, {bad} differences ({CSHOGI})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
