#!/usr/bin/env python3
"""Cross-check shogi-core's training-data codecs (hcp/hcpe, PackedSfen/psv, move16) with cshogi.

Usage: scripts/training-crosscheck.py [--positions N] [--seed S] [--legal-every K] [--bench-out FILE]

Installs cshogi 1.1.0 (and numpy) from PyPI into a scratch virtualenv under
~/.cache/shogi-training-crosscheck/ on first use and re-runs itself there. It then:

1. plays random games with cshogi (even and handicap starts, either side to move, captures
   preferred half of the time so hands fill up) until N positions are collected;
2. ours -> cshogi: feeds SFEN, move played, score and result to
   `cargo run --release -p shogi-train --example pack -- encode hcpe|psv`, and checks every
   entry against cshogi: the bytes equal `to_hcp`/`to_psfen`, `set_hcp`/`set_psfen` give the
   SFEN, `move_from_move16`/`move_from_psv` give the move, and score, ply and result fields
   follow each format's convention;
3. cshogi -> ours: writes hcpe/psv entries with cshogi (`to_hcp`, `to_psfen`, `move16`,
   `move16_to_psv`) and decodes them with `pack decode hcpe|psv`;
4. for every K-th position, compares the 16-bit codes of every legal move (`pack legal`)
   with `cshogi.move16` and `move16_to_psv`;
5. times cshogi's `to_hcp` over the same positions, and `pack bench` over them.

Exit status 0 only if every comparison matched. Totals are printed at the end.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import scratch_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.expanduser("~/.cache/shogi-training-crosscheck/venv")
scratch_venv.rerun_in(VENV, ["cshogi==1.1.0", "numpy"])

import cshogi  # noqa: E402
import numpy as np  # noqa: E402

STARTS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # even
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # lance
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # bishop
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # rook
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # 2 pieces
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # 4 pieces
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # 6 pieces
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # 10 pieces
]


def normalize(sfen):
    """Board, side and hand counts of an SFEN (ignoring the move number and hand order)."""
    f = sfen.split()
    counts = {}
    n = ""
    if f[2] != "-":
        for ch in f[2]:
            if ch.isdigit():
                n += ch
            else:
                counts[ch] = counts.get(ch, 0) + (int(n) if n else 1)
                n = ""
    return f[0], f[1], tuple(sorted(counts.items()))


def play_games(n_positions, rng):
    """Random games: a list of dicts with sfen, usi, m16, psv16, score, result, ply, hcp, psfen."""
    recs = []
    games = []
    board = cshogi.Board()
    g = 0
    hcp = np.zeros(32, np.uint8)
    psfen = np.zeros(32, np.uint8)
    while len(recs) < n_positions:
        start = STARTS[g % len(STARTS)] + (" w" if g % 3 == 1 else " b") + " - 1"
        board.set_sfen(start)
        result = rng.randrange(3)
        game_moves = []
        for _ in range(rng.randrange(40, 320)):
            moves = list(board.legal_moves)
            if not moves:
                break
            caps = [m for m in moves if cshogi.move_cap(m)]
            m = rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(moves)
            board.to_hcp(hcp)
            board.to_psfen(psfen)
            recs.append(
                dict(
                    sfen=board.sfen(),
                    usi=cshogi.move_to_usi(m),
                    m16=cshogi.move16(m),
                    psv16=cshogi.move16_to_psv(cshogi.move16(m)),
                    score=rng.randrange(-32768, 32768),
                    result=result,
                    ply=board.move_number,
                    turn=board.turn,
                    hcp=hcp.tobytes(),
                    psfen=psfen.tobytes(),
                )
            )
            game_moves.append(m)
            board.push(m)
        games.append((start, game_moves))
        g += 1
    return recs, games


def pack(args, data):
    exe = os.path.join(ROOT, "target", "release", "examples", "pack")
    r = subprocess.run([exe] + args, input=data, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"pack {' '.join(args)} failed: {r.stderr.decode()}")
    return r.stdout


def relative(result, turn):
    # hcpe_to_psv: 1 if turn == gameResult-1, -1 if turn == 2-gameResult, else 0.
    return 1 if turn == result - 1 else -1 if turn == 2 - result else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=120_000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--legal-every", type=int, default=5)
    ap.add_argument("--bench-out", default=None)
    a = ap.parse_args()

    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "shogi-core", "--example", "pack"],
        cwd=ROOT,
        check=True,
    )
    rng = random.Random(a.seed)
    t = time.time()
    recs, games = play_games(a.positions, rng)
    print(f"cshogi {cshogi.__version__ if hasattr(cshogi, '__version__') else '1.1.0'}: "
          f"{len(recs)} positions from {len(games)} random games ({time.time() - t:.1f}s)")
    cov = dict(
        white_to_move=sum(r["turn"] == 1 for r in recs),
        with_box=sum(box_nonempty(r["sfen"]) for r in recs),
        drops_played=sum("*" in r["usi"] for r in recs),
        promotions_played=sum(r["usi"].endswith("+") for r in recs),
        max_in_hand=max(hand_total(r["sfen"]) for r in recs),
        promoted_kinds=len(set(c for r in recs for c in promoted_pieces(r["sfen"]))),
    )
    print("coverage:", ", ".join(f"{k} {v}" for k, v in cov.items()))

    lines = "".join(
        f"{r['sfen']}\t{r['usi']}\t{r['score']}\t{r['result']}\n" for r in recs
    ).encode()
    fails = {}

    def fail(kind, i, msg):
        fails[kind] = fails.get(kind, 0) + 1
        if fails[kind] <= 5:
            print(f"MISMATCH {kind} at {i}: {msg}")

    # 2. ours -> cshogi.
    board = cshogi.Board()
    hcpe = np.frombuffer(pack(["encode", "hcpe"], lines), cshogi.HuffmanCodedPosAndEval)
    psv = np.frombuffer(pack(["encode", "psv"], lines), cshogi.PackedSfenValue)
    assert len(hcpe) == len(recs) and len(psv) == len(recs)
    checked = dict(hcpe=0, psv=0)
    for i, r in enumerate(recs):
        want = normalize(r["sfen"])
        e = hcpe[i]
        if e["hcp"].tobytes() != r["hcp"]:
            fail("hcp bytes", i, r["sfen"])
        board.set_hcp(e["hcp"].copy())
        if normalize(board.sfen()) != want:
            fail("hcp decode", i, f"{r['sfen']} -> {board.sfen()}")
        if cshogi.move_to_usi(board.move_from_move16(int(e["bestMove16"]))) != r["usi"]:
            fail("hcpe move", i, f"{r['usi']} {int(e['bestMove16']):#x}")
        if int(e["bestMove16"]) != r["m16"] or int(e["eval"]) != r["score"]:
            fail("hcpe fields", i, r["sfen"])
        if int(e["gameResult"]) != r["result"] or int(e["dummy"]) != 0:
            fail("hcpe result", i, r["sfen"])
        checked["hcpe"] += 1
        e = psv[i]
        if e["sfen"].tobytes() != r["psfen"]:
            fail("psfen bytes", i, r["sfen"])
        board.set_psfen(e["sfen"].copy())
        if normalize(board.sfen()) != want:
            fail("psfen decode", i, f"{r['sfen']} -> {board.sfen()}")
        if cshogi.move_to_usi(board.move_from_psv(int(e["move"]))) != r["usi"]:
            fail("psv move", i, f"{r['usi']} {int(e['move']):#x}")
        if int(e["move"]) != r["psv16"] or int(e["score"]) != r["score"]:
            fail("psv fields", i, r["sfen"])
        if int(e["gamePly"]) != r["ply"]:
            fail("psv ply", i, f"{int(e['gamePly'])} != {r['ply']}")
        if int(e["game_result"]) != relative(r["result"], r["turn"]) or int(e["padding"]) != 0:
            fail("psv result", i, r["sfen"])
        checked["psv"] += 1
    print(f"ours -> cshogi: {checked['hcpe']} hcpe and {checked['psv']} psv entries checked")

    # 3. cshogi -> ours.
    ch = np.zeros(len(recs), cshogi.HuffmanCodedPosAndEval)
    cp = np.zeros(len(recs), cshogi.PackedSfenValue)
    ch["hcp"] = np.frombuffer(b"".join(r["hcp"] for r in recs), np.uint8).reshape(-1, 32)
    ch["eval"] = [r["score"] for r in recs]
    ch["bestMove16"] = [r["m16"] for r in recs]
    ch["gameResult"] = [r["result"] for r in recs]
    cp["sfen"] = np.frombuffer(b"".join(r["psfen"] for r in recs), np.uint8).reshape(-1, 32)
    cp["score"] = [r["score"] for r in recs]
    cp["move"] = [r["psv16"] for r in recs]
    cp["gamePly"] = [r["ply"] for r in recs]
    cp["game_result"] = [relative(r["result"], r["turn"]) for r in recs]
    back = {}
    for fmt, arr in (("hcpe", ch), ("psv", cp)):
        out = pack(["decode", fmt], arr.tobytes()).decode().splitlines()
        assert len(out) == len(recs)
        for i, (line, r) in enumerate(zip(out, recs)):
            sfen, usi, score, result = line.split("\t")
            if normalize(sfen) != normalize(r["sfen"]):
                fail(f"{fmt} decode (ours)", i, f"{r['sfen']} -> {sfen}")
            if fmt == "psv" and sfen.split()[3] != str(r["ply"]):
                fail("psv ply (ours)", i, f"{sfen} ply {r['ply']}")
            if (usi, int(score), int(result)) != (r["usi"], r["score"], r["result"]):
                fail(f"{fmt} fields (ours)", i, f"{line} vs {r['usi']} {r['score']} {r['result']}")
        back[fmt] = len(out)
    print(f"cshogi -> ours: {back['hcpe']} hcpe and {back['psv']} psv entries decoded")

    # 4. every legal move of every K-th position.
    subset = recs[:: a.legal_every]
    out = pack(["legal"], "".join(r["sfen"] + "\n" for r in subset).encode()).decode()
    n_moves = 0
    for i, (line, r) in enumerate(zip(out.splitlines(), subset)):
        board.set_sfen(r["sfen"])
        want = set()
        for m in board.legal_moves:
            m16 = cshogi.move16(m)
            want.add(f"{cshogi.move_to_usi(m)}:{m16:04x}:{cshogi.move16_to_psv(m16):04x}")
        got = set(line.split()) if line else set()
        if got != want:
            fail("legal move16", i, f"{r['sfen']}: only ours {sorted(got - want)[:3]}, "
                 f"only cshogi {sorted(want - got)[:3]}")
        n_moves += len(want)
    print(f"legal moves: {n_moves} moves in {len(subset)} positions, move16 and psv16 compared")

    # 5. speed: cshogi to_hcp over the same positions (replaying the games).
    def replay(with_hcp):
        b = cshogi.Board()
        arr = np.zeros(len(recs), cshogi.HuffmanCodedPosAndEval)
        hcps, moves16 = arr["hcp"], arr["bestMove16"]
        i = 0
        t = time.perf_counter()
        for start, moves in games:
            b.set_sfen(start)
            for m in moves:
                if with_hcp:
                    b.to_hcp(hcps[i])
                    moves16[i] = cshogi.move16(m)
                    i += 1
                b.push(m)
        return time.perf_counter() - t

    t_push = min(replay(False) for _ in range(3))
    t_full = min(replay(True) for _ in range(3))
    mid = cshogi.Board(recs[len(recs) // 2]["sfen"])
    buf = np.zeros(32, np.uint8)
    reps = 200_000
    t = time.perf_counter()
    for _ in range(reps):
        mid.to_hcp(buf)
    t_call = time.perf_counter() - t
    n = len(recs)
    print(f"cshogi speed: replay + to_hcp + move16 into an hcpe array {n / t_full / 1e6:.3f} M entries/s; "
          f"without push {n / (t_full - t_push) / 1e6:.3f} M entries/s; "
          f"to_hcp alone into one buffer {reps / t_call / 1e6:.3f} M calls/s")
    bench_file = a.bench_out or os.path.join(tempfile.gettempdir(), "training-crosscheck-positions.tsv")
    with open(bench_file, "wb") as f:
        f.write(lines)
    print(f"positions written to {bench_file}; ours: "
          f"target/release/examples/pack bench {bench_file}")
    print(pack(["bench", bench_file], b"").decode(), end="")

    total = sum(fails.values())
    print(f"TOTAL: {len(recs)} positions, {checked['hcpe'] + checked['psv']} entries ours->cshogi, "
          f"{back['hcpe'] + back['psv']} entries cshogi->ours, {n_moves} legal moves; "
          f"{total} mismatches {fails if fails else ''}")
    return 1 if total else 0


def hand_total(sfen):
    return sum(c for _, c in normalize(sfen)[2])


def box_nonempty(sfen):
    full = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}
    counts = {k: 0 for k in full}
    for ch in sfen.split()[0]:
        if ch.lower() in counts:
            counts[ch.lower()] += 1
    for k, c in normalize(sfen)[2]:
        counts[k.lower()] += c
    return any(counts[k] < full[k] for k in full)


def promoted_pieces(sfen):
    b = sfen.split()[0]
    return [b[i:i + 2] for i in range(len(b) - 1) if b[i] == "+"]


if __name__ == "__main__":
    sys.exit(main())
