#!/usr/bin/env python3
"""Longer mates: `shogi mate` (unbounded) against cshogi's DfPn on a set of SFENs (default
shogi-mate/bench/tsume-hard.sfen, mates of 11+ plies), and every disagreement explained.

Both get the same node budget (--nodes). For each problem where one solver reports a mate
and the other does not, the reason is looked for, in this order:
  * the other solver's node limit (ours: unknown:nodes; cshogi: searched_node reached the
    budget), then the same problem is given ten times the budget to see whether it agrees;
  * a reported line that does not replay as a mate with cshogi's rules (a false mate);
  * cshogi's depth limit (--depth, 255 plies here) or a line cshogi's move generator cannot
    play (a non-promotion it leaves out: see mate-crosscheck.py's why_missed);
  * otherwise: unexplained (a failure: exit status 1).
The output is the markdown kept in shogi-mate/bench/README.md.

Usage: python3 scripts/mate-compare-long.py --shogi target/release/shogi [--nodes 100000]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "..", "shogi-mate", "bench", "tsume-hard.sfen")


def crosscheck():
    """scripts/mate-crosscheck.py as a module (its venv set-up, replay and why_missed)."""
    spec = importlib.util.spec_from_file_location("crosscheck", os.path.join(HERE, "mate-crosscheck.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ours(shogi, sfens, nodes):
    with tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False) as f:
        f.write("\n".join(sfens) + "\n")
        path = f.name
    try:
        r = subprocess.run([shogi, "mate", path, "--format", "json", "--jobs", "1",
                            "--nodes", str(nodes)], capture_output=True)
    finally:
        os.unlink(path)
    rows = [json.loads(line) for line in r.stdout.decode().splitlines()]
    rows.sort(key=lambda o: int(o["problem"]))
    if len(rows) != len(sfens):
        sys.exit(f"shogi mate answered {len(rows)} of {len(sfens)}: {r.stderr.decode()[:300]}")
    return rows


def dfpn(sfen, nodes, depth):
    import cshogi
    b = cshogi.Board(sfen)
    d = cshogi.DfPn(depth=depth, nodes=nodes)
    found = d.search(b)
    pv = [cshogi.move_to_usi(m) for m in d.get_pv(b)] if found else []
    return found, pv, d.searched_node


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--set", default=SET)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--depth", type=int, default=255, help="cshogi DfPn's depth limit")
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "shogi-mate-venv"))
    args = ap.parse_args()
    cc = crosscheck()
    cc.ensure_cshogi(args.venv)

    sfens = [line.strip() for line in open(args.set) if line.strip()]
    rows = ours(args.shogi, sfens, args.nodes)
    both = only_ours = only_theirs = neither = 0
    ours_shorter = theirs_shorter = same_length = 0
    lines = []
    failures = 0
    retry = []
    for i, (s, o) in enumerate(zip(sfens, rows), 1):
        found, pv, cnodes = dfpn(s, args.nodes, args.depth)
        we = o["result"] == "mate"
        if we:
            why = cc.replay(s, o["pv_usi"].split())
            if why:
                failures += 1
                lines.append(f"| {i} | ours {o['length']} | our line fails its replay: {why} |")
        if found:
            why = cc.replay(s, pv)
            if why:
                lines.append(f"| {i} | cshogi {len(pv)} | cshogi's PV is no mate ({why}): a DfPn false mate |")
                found = False
        if we and found:
            both += 1
            if o["length"] < len(pv):
                ours_shorter += 1
            elif o["length"] > len(pv):
                theirs_shorter += 1
            else:
                same_length += 1
        elif we:
            only_ours += 1
            if cnodes >= args.nodes:
                retry.append((i, s, "cshogi's node limit", o))
            elif o["length"] > args.depth:
                lines.append(f"| {i} | ours {o['length']} | longer than cshogi's depth limit ({args.depth}) |")
            else:
                why = cc.why_missed(s, o["pv_usi"].split())
                known = "does not promote" in why or "king move" in why
                if not known:
                    failures += 1
                lines.append(f"| {i} | ours {o['length']} | cshogi disproves within {cnodes} nodes: {why}"
                             f"{'' if known else ' (UNEXPLAINED)'} |")
        elif found:
            only_theirs += 1
            if o["result"].startswith("unknown"):
                retry.append((i, s, f"our limit ({o['result']})", None))
            else:
                failures += 1
                lines.append(f"| {i} | cshogi {len(pv)} | we say {o['result']} but cshogi's line replays (UNEXPLAINED) |")
        else:
            neither += 1
    # Each disagreement due to a node limit, again with ten times the budget for both.
    if retry:
        again = ours(args.shogi, [r[1] for r in retry], args.nodes * 10)
        for (i, s, why, _), o in zip(retry, again):
            found, pv, cnodes = dfpn(s, args.nodes * 10, args.depth)
            res = f"ours {o['result']}{' ' + str(o['length']) if o['length'] else ''}, " \
                  f"cshogi {'mate ' + str(len(pv)) if found else 'none'} ({cnodes} nodes)"
            lines.append(f"| {i} | {why} | at {args.nodes * 10} nodes: {res} |")
    print(f"{len(sfens)} problems of {os.path.basename(args.set)}, {args.nodes} nodes each; "
          f"load {os.getloadavg()[0]:.1f}\n")
    print(f"- both find a mate: {both} (our first line shorter {ours_shorter}, cshogi's shorter "
          f"{theirs_shorter}, same length {same_length}; neither proves its line minimal here)")
    print(f"- only ours: {only_ours}; only cshogi: {only_theirs}; neither: {neither}")
    print(f"- unexplained disagreements or failed replays: {failures}\n")
    if lines:
        print("| problem | who, length | why |")
        print("|---|---|---|")
        for line in lines:
            print(line)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
