#!/usr/bin/env python3
"""Cross-check `shogi mate` against cshogi (installed in a scratch venv).

Positions: every position of the records in ../shared/corpus (through `shogi convert --to
positions`) and the last plies of random games played with cshogi. Positions where the side
to move is in check are left out (cshogi's mate_move expects a side not in check).

1. For N in 1, 3, 5, 7: our "mate within N plies" (`shogi mate --depth N`) must equal
   cshogi's exhaustive answer (mate_move_in_1ply for 1, mate_move(N) otherwise).
2. Every mate we report is replayed with cshogi: every move legal, the attacker's checks,
   the last position checkmate.
3. On positions where we find a mate longer than 7 plies (unbounded search), cshogi's DfPn is
   asked too; every disagreement is listed.

Usage: python3 scripts/mate-crosscheck.py --shogi target/release/shogi [--random-games 300]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import scratch_venv


def ensure_cshogi(venv):
    """cshogi as the running Python has it, else from a scratch venv (this script re-runs there)."""
    try:
        import cshogi  # noqa: F401
    except ImportError:
        scratch_venv.rerun_in(venv, ["cshogi"])


def corpus_positions(shogi, corpus):
    out = []
    files = []
    for root, _, names in os.walk(corpus):
        for n in sorted(names):
            if n.endswith((".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".json")):
                files.append(os.path.join(root, n))
    for f in sorted(files):
        r = subprocess.run([shogi, "convert", f, "--to", "positions"], capture_output=True)
        for line in r.stdout.decode("utf-8", "replace").splitlines():
            sfen = line.split("\t")[0]
            if sfen.count("/") == 8:
                out.append(sfen)
    return out


def random_positions(games, seed):
    import cshogi
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        b = cshogi.Board()
        seen = []
        for _ in range(300):
            moves = list(b.legal_moves)
            if not moves:
                break
            # A bias towards captures and checks ends random games sooner, in mating nets.
            rng.shuffle(moves)
            m = moves[0]
            for c in moves[:8]:
                if b.is_check() or cshogi.move_is_drop(c) is False and b.piece(cshogi.move_to(c)) != 0:
                    m = c
                    break
            b.push(m)
            seen.append(b.sfen())
        out.extend(seen[-30:])
    return out


def run_ours(shogi, sfens, extra, jobs):
    with tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False) as f:
        f.write("\n".join(sfens) + "\n")
        path = f.name
    try:
        r = subprocess.run([shogi, "mate", path, "--format", "json", "--jobs", str(jobs)] + extra,
                           capture_output=True)
    finally:
        os.unlink(path)
    rows = {}
    for line in r.stdout.decode().splitlines():
        o = json.loads(line)
        rows[int(o["problem"]) - 1] = o
    if len(rows) != len(sfens):
        sys.exit(f"shogi mate answered {len(rows)} of {len(sfens)} problems: {r.stderr.decode()[:500]}")
    return rows


def replay(sfen, pv):
    import cshogi
    b = cshogi.Board(sfen)
    for i, u in enumerate(pv):
        m = b.move_from_usi(u)
        if m == 0 or not b.is_legal(m):
            return f"move {i + 1} {u} illegal"
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return f"move {i + 1} {u} not a check"
    if not (b.is_check() and len(list(b.legal_moves)) == 0):
        return "does not end in checkmate"
    return None


def all_moves(b):
    """cshogi's legal moves plus the legal non-promotions it leaves out."""
    import cshogi
    out = list(b.legal_moves)
    have = set(out)
    for m in list(out):
        u = cshogi.move_to_usi(m)
        if u.endswith("+"):
            n = b.move_from_usi(u[:-1])
            if n and n not in have and b.is_legal(n):
                out.append(n)
                have.add(n)
    return out


def forced_mate(b, n, budget):
    """Exhaustive AND/OR search with cshogi's rules: does the side to move mate within n plies?
    `budget` is a one-element list of nodes left (None when it runs out)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TimeoutError
    if n <= 0:
        return False
    checks = []
    for m in all_moves(b):
        b.push(m)
        if b.is_check():
            if not list(b.legal_moves) and not [x for x in all_moves(b)]:
                b.pop()
                return True
            checks.append(m)
        b.pop()
    if n < 3:
        return False
    for m in checks:
        b.push(m)
        ok = True
        for r in all_moves(b):
            b.push(r)
            ok = forced_mate(b, n - 2, budget)
            b.pop()
            if not ok:
                break
        b.pop()
        if ok:
            return True
    return False


def confirm(sfen, n):
    import cshogi
    try:
        return forced_mate(cshogi.Board(sfen), n, [2_000_000])
    except TimeoutError:
        return None


def why_missed(sfen, pv):
    """Why cshogi's mate search may skip a line: its move generator leaves out non-promotions
    of pawns, bishops and rooks that could promote, and its one-ply mate test looks at checks
    from adjacent squares and drops only."""
    import cshogi
    b = cshogi.Board(sfen)
    reasons = []
    for i, u in enumerate(pv):
        m = b.move_from_usi(u)
        if not cshogi.move_is_drop(m) and not u.endswith("+"):
            zone = "abc" if b.turn == cshogi.BLACK else "ghi"
            if (u[1] in zone or u[3] in zone) and (b.piece(cshogi.move_from(m)) & 15) in (1, 5, 6):
                reasons.append(f"ply {i + 1} {u} does not promote")
            if i % 2 == 0 and (b.piece(cshogi.move_from(m)) & 15) == 8:
                reasons.append(f"ply {i + 1} {u} is a king move giving discovered check")
        b.push(m)
    if not reasons:
        last = pv[-1]
        reasons.append(f"none of the known gaps (non-promotions, king moves); the mating move is {last}")
    return "; ".join(reasons)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shogi", default="target/release/shogi")
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--random-games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "shogi-mate-venv"))
    args = ap.parse_args()
    ensure_cshogi(args.venv)
    import cshogi

    t0 = time.time()
    sfens = corpus_positions(args.shogi, args.corpus) if os.path.isdir(args.corpus) else []
    n_real = len(sfens)
    sfens += random_positions(args.random_games, args.seed)
    # Unique positions, side to move not in check.
    seen, pos = set(), []
    for s in sfens:
        key = " ".join(s.split()[:3])
        if key in seen:
            continue
        seen.add(key)
        if not cshogi.Board(s).is_check():
            pos.append(s)
    print(f"{len(pos)} positions ({n_real} real-game positions before de-duplication, "
          f"{len(sfens) - n_real} random-game), side to move not in check")

    failures = 0
    mates_by_n = {}
    for n in (1, 3, 5, 7):
        ours = run_ours(args.shogi, pos, ["--depth", str(n), "--nodes", str(args.nodes)], args.jobs)
        agree = disagree = unknown = mates = missed_by_cshogi = 0
        for i, s in enumerate(pos):
            b = cshogi.Board(s)
            theirs = (b.mate_move_in_1ply() if n == 1 else b.mate_move(n)) != 0
            o = ours[i]
            if o["result"].startswith("unknown"):
                unknown += 1
                continue
            we = o["result"] == "mate"
            if we:
                mates += 1
                why = replay(s, o["pv_usi"].split())
                if why:
                    failures += 1
                    print(f"  REPLAY FAILS depth {n}: {s}: {o['pv_usi']}: {why}")
            if we == theirs:
                agree += 1
            elif we and replay(s, o["pv_usi"].split()) is None and confirm(s, n):
                # Our line is a mate by cshogi's own rules, and an exhaustive search over
                # cshogi's move generator (with the non-promotions it leaves out) confirms the
                # mate is forced: cshogi's mate search did not look at it.
                missed_by_cshogi += 1
                print(f"  cshogi misses depth {n} (forced mate confirmed by exhaustive search on cshogi's rules): "
                      f"{s}: {o['pv_usi']} ({why_missed(s, o['pv_usi'].split())})")
            else:
                disagree += 1
                failures += 1
                print(f"  DISAGREE depth {n}: {s}: ours {o['result']} {o['pv_usi']}, cshogi {'mate' if theirs else 'no mate'}")
        mates_by_n[n] = mates
        print(f"mate within {n}: {agree} agree, {disagree} disagree, {unknown} unknown; {mates} mates; "
              f"{missed_by_cshogi} verified mates cshogi's mate_move does not find")

    # Longer mates: our unbounded search against cshogi's DfPn.
    ours = run_ours(args.shogi, pos, ["--nodes", str(args.nodes)], args.jobs)
    longer = [(i, o) for i, o in ours.items() if o["result"] == "mate" and o["length"] > 7]
    dfpn_agree = 0
    notes = []
    for i, o in sorted(longer):
        s = pos[i]
        why = replay(s, o["pv_usi"].split())
        if why:
            failures += 1
            print(f"  REPLAY FAILS unbounded: {s}: {why}")
        b = cshogi.Board(s)
        d = cshogi.DfPn(depth=255, nodes=args.nodes)
        found = d.search(b)
        if found:
            dfpn_agree += 1
        else:
            limit = "node limit" if d.searched_node >= args.nodes else "depth limit or no proof"
            notes.append(f"  cshogi DfPn finds no mate ({limit}, {d.searched_node} nodes) where we find {o['length']} plies (line replays): {s}")
    # And the other way: mates cshogi's DfPn finds that we do not.
    missed = 0
    for i, o in ours.items():
        if o["result"] == "mate":
            continue
        b = cshogi.Board(pos[i])
        d = cshogi.DfPn(depth=31, nodes=100_000)
        if d.search(b):
            pv = [cshogi.move_to_usi(m) for m in d.get_pv(b)]
            why = replay(pos[i], pv)
            missed += 1
            notes.append(f"  cshogi DfPn finds a mate we report as {o['result']}: {pos[i]}: {' '.join(pv)} (its line {'replays' if why is None else 'fails: ' + why})")
            if why is None and o["result"].startswith("nomate"):
                failures += 1
    print(f"unbounded: {len(longer)} mates longer than 7 plies, cshogi DfPn agrees on {dfpn_agree}; "
          f"{missed} mates found by cshogi DfPn (depth 31, 100000 nodes) that we do not report")
    for n in notes:
        print(n)
    print(f"{failures} failures, {time.time() - t0:.0f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
