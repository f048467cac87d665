#!/usr/bin/env python3
"""Benchmark `shogi mate` against cshogi's DfPn on the same tsume set, same machine, same run.

The set (shogi-mate/bench/tsume.sfen, one SFEN per line) is made by `--make-set`: random games
played with cshogi (seeded), and from their last 40 positions every one where `shogi mate`
(unbounded, --set-nodes, default 2,000,000) finds a mate of 3 to 15 plies with the side to move not in check.

For each problem both solvers get the same node budget (--nodes; our nodes are positions
expanded, cshogi's are its searched_node: comparable in kind, not identical) and we report
problems solved, total nodes and time, and nodes per second. Ours runs as one `shogi mate`
process on one job (its own per-problem times and nodes are used); cshogi's DfPn is timed
per search in Python (the call overhead is negligible next to a search).

With --repeat N the two solvers run N times in turn (ours, cshogi, ours, ...): each round's
times and ratio are printed, and the summary takes each solver's best time (the searches are
deterministic, so the rounds differ only in how much the machine's other work slowed them).

Usage: python3 scripts/bench-mate.py --shogi target/release/shogi [--nodes 100000] [--set FILE]
                                     [--repeat 3]
       python3 scripts/bench-mate.py --shogi target/release/shogi --make-set --games 40 \
           --set-nodes 100000                                    (tsume.sfen)
       python3 scripts/bench-mate.py --shogi target/release/shogi --make-set --games 300 \
           --seed 11 --last 60 --set-nodes 300000 --min-length 11 --max-length 999 \
           --set shogi-mate/bench/tsume-hard.sfen                (tsume-hard.sfen)
"""
import argparse
import json
import os
import random
import subprocess
import tempfile
import time

import scratch_venv

SET = os.path.join(os.path.dirname(__file__), "..", "shogi-mate", "bench", "tsume.sfen")


def ensure_cshogi(venv):
    """cshogi as the running Python has it, else from a scratch venv (this script re-runs there)."""
    try:
        import cshogi  # noqa: F401
    except ImportError:
        scratch_venv.rerun_in(venv, ["cshogi"])


def ours(shogi, sfens, nodes, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False) as f:
        f.write("\n".join(sfens) + "\n")
        path = f.name
    try:
        t = time.time()
        r = subprocess.run([shogi, "mate", path, "--format", "json", "--jobs", "1",
                            "--nodes", str(nodes), *extra], capture_output=True)
        wall = time.time() - t
    finally:
        os.unlink(path)
    rows = [json.loads(l) for l in r.stdout.decode().splitlines()]
    rows.sort(key=lambda o: int(o["problem"]))
    return rows, wall


def make_set(shogi, games, seed, set_nodes, last, min_len, max_len, out):
    """Random games (cshogi, seeded, uniformly random legal moves, up to 400 plies); of each
    game's last `last` positions with the side to move not in check, those with a mate of
    min_len to max_len plies: found by `shogi mate` within set_nodes, or (where ours gave
    unknown) by cshogi's DfPn within set_nodes, so that the set is not chosen by our solver
    alone."""
    import cshogi
    rng = random.Random(seed)
    cands = []
    for _ in range(games):
        b = cshogi.Board()
        seen = []
        for _ in range(400):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
            if not b.is_check():
                seen.append(b.sfen())
        cands.extend(seen[-last:])
    cands = list(dict.fromkeys(cands))
    rows, _ = ours(shogi, cands, set_nodes)
    chosen = []
    by_cshogi = 0
    for s, o in zip(cands, rows):
        if o["result"] == "mate":
            if min_len <= o["length"] <= max_len:
                chosen.append(s)
        elif o["result"].startswith("unknown"):
            b = cshogi.Board(s)
            d = cshogi.DfPn(depth=255, nodes=set_nodes)
            if d.search(b) and min_len <= len(d.get_pv(b)) <= max_len:
                chosen.append(s)
                by_cshogi += 1
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(chosen) + "\n")
    print(f"{len(chosen)} problems of {len(cands)} candidates written to {out} "
          f"({by_cshogi} found by cshogi's DfPn only)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--make-set", action="store_true")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--set-nodes", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--last", type=int, default=40, help="positions kept from each game's end")
    ap.add_argument("--min-length", type=int, default=3)
    ap.add_argument("--max-length", type=int, default=15)
    ap.add_argument("--set", default=SET, help="the SFEN file to run (default: tsume.sfen; "
                    "shogi-mate/bench/tsume-hard.sfen is the harder one)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds, each running ours then cshogi; the best time of each is kept")
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "shogi-mate-venv"))
    args = ap.parse_args()
    ensure_cshogi(args.venv)
    import cshogi
    if args.make_set:
        make_set(args.shogi, args.games, args.seed, args.set_nodes, args.last,
                 args.min_length, args.max_length, args.set)
        return
    sfens = [l.strip() for l in open(args.set) if l.strip()]
    print(f"{len(sfens)} problems, node budget {args.nodes} each; load: {os.getloadavg()}")
    rounds = []
    for r in range(args.repeat):
        rows, wall = ours(args.shogi, sfens, args.nodes)
        o_time = sum(o["time_s"] for o in rows)
        c_found, c_nodes, c_time = theirs(cshogi, sfens, args.nodes)
        rounds.append((o_time, wall, c_time))
        if args.repeat > 1:
            print(f"round {r + 1}: ours {o_time:.2f} s, cshogi {c_time:.2f} s, "
                  f"ratio {c_time / max(o_time, 1e-9):.2f}; load {os.getloadavg()[0]:.1f}")
    o_solved = sum(1 for o in rows if o["result"] == "mate")
    o_nodes = sum(o["nodes"] for o in rows)
    c_solved = sum(c_found)
    # Both searches are deterministic: the rounds differ in time only, so the best time of
    # each solver is the least disturbed by the machine's other work.
    o_time = min(t for t, _, _ in rounds)
    wall = min(w for _, w, _ in rounds)
    c_time = min(t for _, _, t in rounds)
    only_ours = [s for s, o, f in zip(sfens, rows, c_found) if o["result"] == "mate" and not f]
    only_theirs = [s for s, o, f in zip(sfens, rows, c_found) if f and o["result"] != "mate"]
    best = " (best of each solver's rounds)" if args.repeat > 1 else ""
    print(f"ours:   {o_solved} solved, {o_nodes} nodes, {o_time:.2f} s in the solver "
          f"({wall:.2f} s wall for the process){best}, {o_nodes / max(o_time, 1e-9):,.0f} nodes/s")
    print(f"cshogi: {c_solved} solved, {c_nodes} nodes, {c_time:.2f} s{best}, "
          f"{c_nodes / max(c_time, 1e-9):,.0f} nodes/s")
    print(f"time ratio (cshogi / ours): {c_time / max(o_time, 1e-9):.2f}; "
          f"solved only by us {len(only_ours)}, only by cshogi {len(only_theirs)}")
    for s in only_theirs[:20]:
        print(f"  only cshogi: {s}")


def theirs(cshogi, sfens, nodes):
    """cshogi's DfPn on every problem: whether it found a mate, its nodes, its search time."""
    found, total_nodes, total_time = [], 0, 0.0
    for s in sfens:
        b = cshogi.Board(s)
        d = cshogi.DfPn(depth=255, nodes=nodes)
        t = time.perf_counter()
        f = d.search(b)
        total_time += time.perf_counter() - t
        total_nodes += d.searched_node
        found.append(bool(f))
    return found, total_nodes, total_time

if __name__ == "__main__":
    main()
