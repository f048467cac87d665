#!/usr/bin/env python3
"""Differential testing of legal move generation against independent programs.

Plays random games and compares, in every position met, the legal moves of shogi-core with those
of an independent program:

  * standard shogi: cshogi (PyPI; C++, derived from Apery),
  * Mini Shogi: minishogilib (PyPI; Rust) in every position, and pyffish (PyPI; Fairy-Stockfish,
    variant "minishogi") in every position too unless --pyffish-every says otherwise (it takes
    milliseconds a call).

shogi-core answers through `cargo run --release -p shogi-core --example legal_moves`, one process
for the whole run (SFEN lines in, sorted USI moves out).

The references are installed into a scratch virtual environment under
~/.cache/shogi-differential/ on first use (only PyPI is contacted).

Games are random but biased toward captures, drops, promotions and checks, so hands fill up and
the rule cases come up often: drops of every kind (nifu, dead-piece squares), promotion both taken
and declined where optional, checks, evasions, double checks, pawn drops that would mate. Half of
the games follow the reference's move list, half shogi-core's.

Known fault of the Mini Shogi references, handled narrowly: both minishogilib and
Fairy-Stockfish's "minishogi" let a pawn drop give mate (uchifuzume is forbidden in Mini Shogi as
in shogi). A move that a Mini Shogi reference lists and shogi-core does not is accepted only when
shogi-core lists nothing the reference lacks and the move is a pawn drop after which, by
shogi-core, the opponent is in check and has no legal move; such moves are counted and reported
separately, per reference. Every other difference is a failure, printed with the SFEN and the
differing moves, and makes the exit code 1. (minishogilib also keeps stale check information when
one Position is reused after do_move; the script uses a fresh Position for every query.)

With --write-dataset DIR it also writes a stratified sample of the positions met, with the
reference's legal moves, to DIR/legal_moves_standard.txt and DIR/legal_moves_mini.txt (the data
that shogi-core/tests/core/differential.rs compares).

Usage:
  python3 scripts/differential.py [--standard N] [--mini N] [--seed S] [--pyffish-every K]
                                  [--write-dataset DIR] [--dataset-standard N]
                                  [--dataset-mini N]
"""

import argparse
import os
import random
import subprocess
import sys
import time

import scratch_venv

VENV = os.path.expanduser("~/.cache/shogi-differential/venv")
PACKAGES = ["cshogi==1.1.0", "minishogilib==0.6.17", "pyffish==0.0.90"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_venv():
    """Re-runs this script inside the scratch venv, creating it first if needed."""
    scratch_venv.rerun_in(VENV, PACKAGES)


# --- shogi-core ------------------------------------------------------------------------------


class Ours:
    """The shogi-core example `legal_moves --info`, one process for the whole run."""

    def __init__(self):
        subprocess.check_call(
            ["cargo", "build", "--quiet", "--release", "-p", "shogi-core", "--example", "legal_moves"],
            cwd=ROOT,
        )
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        exe = os.path.join(target, "release", "examples", "legal_moves")
        self.proc = subprocess.Popen(
            [exe, "--info"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 20
        )

    def query(self, sfens):
        """(checkers, sorted move list) for each SFEN."""
        self.proc.stdin.write("".join(s + "\n" for s in sfens))
        self.proc.stdin.flush()
        out = []
        for s in sfens:
            line = self.proc.stdout.readline()
            if not line.endswith("\n"):
                raise SystemExit(f"shogi-core stopped answering at {s}")
            line = line[:-1]
            if line.startswith("error:"):
                raise SystemExit(f"shogi-core refused a position the reference reached: {s}\n{line}")
            checkers, _, moves = line.partition("\t")
            out.append((int(checkers), moves.split() if moves else []))
        return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# --- SFEN helpers ----------------------------------------------------------------------------


def sfen_key(sfen):
    """The SFEN without its move number: equal for the same position."""
    return sfen.rsplit(" ", 1)[0]


def parse_board(sfen):
    """{(file, rank): piece letter(s)} with rank 1 = 'a', and the board size."""
    board_part, side, hand, *_ = sfen.split()
    rows = board_part.split("/")
    size = len(rows)
    board = {}
    for r, row in enumerate(rows):
        f = size
        promoted = False
        for ch in row:
            if ch == "+":
                promoted = True
            elif ch.isdigit():
                f -= int(ch)
            else:
                board[(f, r + 1)] = ("+" if promoted else "") + ch
                f -= 1
                promoted = False
    return board, size, side, hand


def pawn_drop_mate_candidate(sfen, legal):
    """The pawn drop in front of the opponent king that is excluded only because it would mate.

    When the side to move is not in check, has a pawn in hand, the square in front of the enemy
    king is empty and on a file without an own unpromoted pawn, and is not the last rank, a drop
    there gives check and breaks no drop rule, so it is illegal exactly when it is uchifuzume.
    Returns the USI drop when it is absent from `legal` under those conditions, else None.
    """
    board, size, side, hand = parse_board(sfen)
    pawn = "P" if side == "b" else "p"
    if pawn not in hand:
        return None
    enemy_king = "k" if side == "b" else "K"
    ks = next((sq for sq, p in board.items() if p == enemy_king), None)
    if ks is None:
        return None
    f, r = ks
    r2 = r + 1 if side == "b" else r - 1
    if not 1 <= r2 <= size or (f, r2) in board:
        return None
    if (side == "b" and r2 == 1) or (side == "w" and r2 == size):
        return None
    if any(board.get((f, rr)) == pawn for rr in range(1, size + 1)):
        return None
    usi = f"P*{f}{chr(ord('a') + r2 - 1)}"
    return None if usi in legal else usi


# --- references ------------------------------------------------------------------------------


class CshogiGame:
    """A standard shogi game on cshogi's board."""

    def __init__(self):
        import cshogi

        self.cshogi = cshogi
        self.board = cshogi.Board()

    def sfen(self):
        return self.board.sfen()

    def references(self):
        return [("cshogi", self.legal)]

    def legal(self):
        usi = self.cshogi.move_to_usi
        return sorted(usi(m) for m in self.board.legal_moves)

    def checks(self):
        usi = self.cshogi.move_to_usi
        return [usi(m) for m in self.board.check_moves]

    def play(self, usi):
        m = self.board.move_from_usi(usi)
        if not m or not self.board.is_legal(m):
            return False
        self.board.push(m)
        return True


FILES = "abcde"


def fsf_to_usi(m):
    """A Fairy-Stockfish Mini Shogi move (a1 = sente's bottom left) in USI (5e)."""
    promo = m.endswith("+")
    m = m.rstrip("+=")
    sq = lambda s: f"{5 - FILES.index(s[0])}{chr(ord('a') + 5 - int(s[1]))}"
    if "@" in m:
        return f"{m[0].upper()}*{sq(m[2:4])}"
    return sq(m[0:2]) + sq(m[2:4]) + ("+" if promo else "")


def usi_to_fsf(m):
    sq = lambda s: f"{FILES[5 - int(s[0])]}{5 - (ord(s[1]) - ord('a'))}"
    if "*" in m:
        return f"{m[0]}@{sq(m[2:4])}"
    return sq(m[0:2]) + sq(m[2:4]) + ("+" if m.endswith("+") else "")


def sfen_to_fsf(sfen):
    board, side, hand, *_ = sfen.split()
    pieces = ""
    n = 0
    for ch in hand if hand != "-" else "":
        if ch.isdigit():
            n = n * 10 + int(ch)
        else:
            pieces += ch * (n or 1)
            n = 0
    return f"{board}[{pieces}] {'w' if side == 'b' else 'b'} - - 0 1"


def normalize_hand(sfen):
    """The SFEN with its hand written the usual way (minishogilib writes `1P` for one pawn)."""
    board, side, hand, *rest = sfen.split()
    counts = {}
    n = 0
    for ch in hand if hand != "-" else "":
        if ch.isdigit():
            n = n * 10 + int(ch)
        else:
            counts[ch] = counts.get(ch, 0) + (n or 1)
            n = 0
    order = "RBGSNLPrbgsnlp"
    h = "".join((str(counts[c]) if counts[c] > 1 else "") + c for c in order if counts.get(c))
    return " ".join([board, side, h or "-", *rest])


class MiniGame:
    """A Mini Shogi game kept as an SFEN, played with minishogilib, also asked of pyffish."""

    START = "rbsgk/4p/5/P4/KGSBR b - 1"

    def __init__(self):
        import minishogilib
        import pyffish

        self.sf = pyffish
        self.msl = minishogilib
        self.current = self.START
        self.ply = 1
        self.use_pyffish = True

    def sfen(self):
        return self.current

    def _set(self):
        # A fresh Position each time: minishogilib's set_sfen after do_move keeps stale check
        # information (it then lists moves that leave the king in check).
        self.pos = self.msl.Position()
        self.pos.set_sfen(self.current.rsplit(" ", 1)[0] + " 1")
        return self.pos

    def _moves(self):
        return {m.sfen(): m for m in self._set().generate_moves()}

    def legal(self):
        return sorted(self._moves())

    def references(self):
        refs = [("minishogilib", self.legal)]
        if self.use_pyffish:
            refs.append(("pyffish", self.legal_pyffish))
        return refs

    def legal_pyffish(self):
        fen = sfen_to_fsf(self.current)
        return sorted(fsf_to_usi(m) for m in self.sf.legal_moves("minishogi", fen, []))

    def checks(self):
        pos = self._set()
        out = []
        for m in pos.generate_moves():
            pos.do_move(m)
            if pos.is_in_check():
                out.append(m.sfen())
            pos.undo_move()
        return out

    def after(self, usi):
        """SFEN after a move minishogilib accepts (None if it does not)."""
        m = self._moves().get(usi)
        if m is None:
            return None
        self.pos.do_move(m)
        sfen = normalize_hand(self.pos.sfen(False))
        return sfen.rsplit(" ", 1)[0] + f" {self.ply + 1}"

    def play(self, usi):
        after = self.after(usi)
        if after is None:
            return False
        self.current = after
        self.ply += 1
        return True


# --- the run ---------------------------------------------------------------------------------


def choose(rng, sfen, moves, checks):
    """A random move biased toward checks, captures, drops and promotions."""
    if checks and rng.random() < 0.4:
        return rng.choice(checks)
    board = parse_board(sfen)[0]
    weights = []
    for m in moves:
        w = 1.0
        if "*" in m:
            w = 3.0
        else:
            to = (int(m[2]), ord(m[3]) - ord("a") + 1)
            if to in board:
                w = 6.0
            if m.endswith("+"):
                w += 2.0
        weights.append(w)
    return rng.choices(moves, weights)[0]


CATEGORIES = [
    "no legal move",
    "double check",
    "pawn drop would mate",
    "check",
    "promotion optional",
    "drops",
    "other",
]
QUOTAS = {
    "no legal move": 0.03,
    "double check": 0.08,
    "pawn drop would mate": 0.10,
    "check": 0.25,
    "promotion optional": 0.20,
    "drops": 0.24,
    "other": 0.10,
}


def category(sfen, checkers, moves, uchifuzume):
    if not moves:
        return "no legal move"
    if checkers >= 2:
        return "double check"
    if uchifuzume:
        return "pawn drop would mate"
    if checkers == 1:
        return "check"
    ms = set(moves)
    if any(m + "+" in ms for m in moves):
        return "promotion optional"
    if any("*" in m for m in moves):
        return "drops"
    return "other"


class Stats:
    def __init__(self, name):
        self.name = name
        self.positions = 0
        self.distinct = set()
        self.moves = 0
        self.failures = 0
        self.known_fault = {}
        self.known_fault_examples = []
        self.cats = {c: 0 for c in CATEGORIES}
        self.in_check = 0
        self.with_drops = 0
        self.games = 0
        self.plies_max = 0
        self.samples = {c: [] for c in CATEGORIES}
        self.seen_by_cat = {c: 0 for c in CATEGORIES}


def run(variant, target, seed, ours, sample_size, log, pyffish_every=1):
    rng = random.Random(seed)
    stats = Stats(variant)
    make = CshogiGame if variant == "standard" else MiniGame
    batch = 128 if variant == "standard" else 64
    games = []
    started = 0

    def new_game():
        nonlocal started
        g = make()
        g.chooser = "ours" if started % 2 else "reference"
        g.max_plies = rng.choice([150, 300, 600, 1000])
        g.plies = 0
        started += 1
        return g

    games = [new_game() for _ in range(batch)]
    t0 = time.time()
    next_report = max(target // 10, 10_000)
    while stats.positions < target:
        sfens = [g.sfen() for g in games]
        answers = ours.query(sfens)
        for i, (g, sfen, (checkers, mine)) in enumerate(zip(games, sfens, answers)):
            if variant == "mini":
                g.use_pyffish = stats.positions % pyffish_every == 0
            stats.positions += 1
            stats.distinct.add(hash(sfen_key(sfen)))
            ok = True
            expected = None
            for name, legal in g.references():
                theirs = legal()
                stats.moves += len(theirs)
                if mine == theirs:
                    expected = expected or theirs
                    continue
                mset, tset = set(mine), set(theirs)
                extra = sorted(tset - mset)
                missing = sorted(mset - tset)
                faults = []
                if variant == "mini" and not missing:
                    for m in extra:
                        after = g.after(m) if m.startswith("P*") else None
                        if after is not None:
                            c2, replies = ours.query([after])[0]
                            if c2 >= 1 and not replies:
                                faults.append(m)
                if faults and faults == extra:
                    stats.known_fault[name] = stats.known_fault.get(name, 0) + len(faults)
                    if len(stats.known_fault_examples) < 6:
                        stats.known_fault_examples.append((name, sfen, faults))
                    expected = mine
                else:
                    ok = False
                    stats.failures += 1
                    print(
                        f"DIFFERENCE ({variant}, {name}) {sfen}\n"
                        f"  only the reference: {' '.join(extra) or '-'}\n"
                        f"  only shogi-core:    {' '.join(missing) or '-'}",
                        file=log,
                        flush=True,
                    )
            if not ok:
                expected = mine
            uch = pawn_drop_mate_candidate(sfen, set(expected)) if checkers == 0 else None
            cat = category(sfen, checkers, expected, uch)
            stats.cats[cat] += 1
            stats.in_check += checkers > 0
            stats.with_drops += any("*" in m for m in expected)
            if ok and sample_size:
                # Reservoir sample of each category (distinctness is settled at the end).
                stats.seen_by_cat[cat] += 1
                res = stats.samples[cat]
                cap = sample_size
                line = (cat, f"{sfen}\t{' '.join(expected)}")
                if len(res) < cap:
                    res.append(line)
                else:
                    j = rng.randrange(stats.seen_by_cat[cat])
                    if j < cap:
                        res[j] = line
            # Next move, or a new game.
            source = mine if g.chooser == "ours" else expected
            g.plies += 1
            if not ok or not source or g.plies >= g.max_plies:
                stats.games += 1
                stats.plies_max = max(stats.plies_max, g.plies)
                games[i] = new_game()
                continue
            checks = g.checks()
            m = choose(rng, sfen, source, checks)
            if not g.play(m):
                print(f"DIFFERENCE ({variant}) {sfen}\n  reference refuses {m}", file=log)
                stats.failures += 1
                games[i] = new_game()
        if stats.positions >= next_report:
            next_report += max(target // 10, 10_000)
            el = time.time() - t0
            print(
                f"  {variant}: {stats.positions} positions, {stats.failures} differences, {el:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    stats.elapsed = time.time() - t0
    return stats


def select_dataset(stats, size, rng):
    """A stratified, distinct sample of `size` lines."""
    chosen = []
    seen = set()

    def take(cat, n):
        pool = stats.samples[cat][:]
        rng.shuffle(pool)
        got = 0
        for cat_line in pool:
            if got >= n:
                break
            key = sfen_key(cat_line[1].split("\t")[0])
            if key not in seen:
                seen.add(key)
                chosen.append(cat_line)
                got += 1
        return got

    for cat in CATEGORIES:
        take(cat, int(size * QUOTAS[cat]))
    for cat in ["drops", "promotion optional", "check", "other", "double check"]:
        if len(chosen) < size:
            take(cat, size - len(chosen))
    chosen.sort(key=lambda cat_line: cat_line[1])
    return chosen


def report(stats):
    lines = [
        f"{stats.name}: {stats.positions} positions ({len(stats.distinct)} distinct) in "
        f"{stats.games} finished games (longest {stats.plies_max} plies), "
        f"{stats.moves} moves compared, "
        f"{stats.failures} differences, {stats.elapsed:.0f} s",
        f"  in check {stats.in_check}, with legal drops {stats.with_drops}; by category: "
        + ", ".join(f"{c} {n}" for c, n in stats.cats.items()),
    ]
    if stats.name == "mini":
        lines.append(
            "  references' known fault (a pawn drop that mates listed as legal): "
            + (", ".join(f"{n} {k} moves" for n, k in stats.known_fault.items()) or "none met")
        )
        for name, sfen, faults in stats.known_fault_examples:
            lines.append(f"    e.g. {name}: {sfen}  {' '.join(faults)}")
    return "\n".join(lines)


def main():
    ensure_venv()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--standard", type=int, default=1_000_000, help="standard positions")
    ap.add_argument("--mini", type=int, default=100_000, help="Mini Shogi positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--pyffish-every",
        type=int,
        default=1,
        metavar="K",
        help="ask pyffish (slow: milliseconds a call) about every K-th Mini Shogi position",
    )
    ap.add_argument("--write-dataset", metavar="DIR")
    ap.add_argument("--dataset-standard", type=int, default=20_000)
    ap.add_argument("--dataset-mini", type=int, default=5_000)
    args = ap.parse_args()

    ours = Ours()
    results = []
    for variant, n, ds in [
        ("standard", args.standard, args.dataset_standard),
        ("mini", args.mini, args.dataset_mini),
    ]:
        if n <= 0:
            continue
        sample = ds if args.write_dataset else 0
        stats = run(variant, n, args.seed, ours, sample, sys.stdout, args.pyffish_every)
        print(report(stats), flush=True)
        results.append(stats)
        if args.write_dataset:
            lines = select_dataset(stats, ds, random.Random(args.seed))
            ref = (
                "cshogi 1.1.0"
                if variant == "standard"
                else "minishogilib 0.6.17 (agreeing with pyffish 0.0.90 where it was asked)"
            )
            os.makedirs(args.write_dataset, exist_ok=True)
            path = os.path.join(args.write_dataset, f"legal_moves_{variant}.txt")
            with open(path, "w") as f:
                f.write(
                    f"# Legal moves by {ref}, from random games of scripts/differential.py "
                    f"--seed {args.seed}.\n# One position a line: SFEN, a tab, the sorted USI "
                    f"legal moves. {len(lines)} distinct positions, stratified:\n# "
                    + ", ".join(f"{c} {n}" for c, n in count_cats(lines).items())
                    + ".\n"
                )
                if variant == "mini":
                    f.write(
                        "# Pawn drops that mate, which both references list (their known fault), "
                        "are left out.\n"
                    )
                for _, line in lines:
                    f.write(line + "\n")
            print(f"wrote {len(lines)} positions to {path}")
    ours.close()
    sys.exit(1 if any(s.failures for s in results) else 0)


def count_cats(chosen):
    counts = {c: 0 for c in CATEGORIES}
    for cat, _ in chosen:
        counts[cat] += 1
    return counts


if __name__ == "__main__":
    main()
