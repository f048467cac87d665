#!/usr/bin/env python3
"""Famous long tsume (shogi-mate/bench/famous.tsv): `shogi mate` on each, one at a time, with a
node and time budget; prints the result, the line's length against the stated one, nodes and
time. ミクロコスモス takes about 157 million nodes, too many for a test, so this is a benchmark
(寿, 8 million nodes, is also a test in shogi-mate/tests/known.rs).

With --replay, each line found is also replayed by cshogi (installed in a scratch venv if the
running Python lacks it), an independent program: every move must be legal there, every
attacker's move a check, and the last position checkmate.

Usage: python3 scripts/mate-famous.py --shogi target/release/shogi [--time 300] [--memory 2048]
       [--shortest] [--only NAME] [--replay]
"""
import argparse
import json
import os
import importlib.util
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "..", "shogi-mate", "bench", "famous.tsv")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--nodes", type=int, default=500_000_000)
    ap.add_argument("--time", type=float, default=300)
    ap.add_argument("--memory", type=int, default=2048, help="table MiB")
    ap.add_argument("--shortest", action="store_true")
    ap.add_argument("--only", help="run only the problems whose name contains this")
    ap.add_argument("--replay", action="store_true", help="replay each line found in cshogi")
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "shogi-mate-venv"))
    args = ap.parse_args()
    cc = crosscheck() if args.replay else None
    if cc:
        cc.ensure_cshogi(args.venv)
    failed = False
    print(f"load: {open('/proc/loadavg').read().split()[0]}")
    for line in open(SET, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, stated, sfen = line.rstrip("\n").split("\t")
        if args.only and args.only not in name:
            continue
        cmd = [args.shogi, "mate", sfen, "--nodes", str(args.nodes), "--time", str(args.time),
               "--memory", str(args.memory), "--jobs", "1", "--format", "json"]
        if args.shortest:
            cmd.append("--shortest")
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time + 120)
        rows = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
        if not rows:
            print(f"{name}: no answer (exit {out.returncode}): {out.stderr.strip()[:200]}")
            continue
        r = rows[0]
        length = r.get("length")
        plies = len(r["pv_usi"].split()) if r["pv_usi"] else 0
        verdict = "" if length is None else ("= stated" if length == int(stated) else f"stated {stated}")
        print(f"{name}: {r['result']} length {length} ({plies} plies, minimal {r['minimal']}) "
              f"{verdict}; {r['nodes']} nodes, {r['time_s']:.1f} s")
        if cc and r["pv_usi"]:
            pv = r["pv_usi"].split()
            problem = "an even number of moves" if len(pv) % 2 == 0 else cc.replay(sfen, pv)
            print(f"  cshogi replay: {problem or 'every move legal, every attacker move a check, checkmate at the end'}")
            failed |= problem is not None
    if failed:
        sys.exit(1)


def crosscheck():
    """scripts/mate-crosscheck.py as a module (its venv set-up and its cshogi replay)."""
    spec = importlib.util.spec_from_file_location("crosscheck", os.path.join(HERE, "mate-crosscheck.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


if __name__ == "__main__":
    main()
