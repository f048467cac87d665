#!/usr/bin/env python3
"""Does tsshogi read back the evaluations `shogi match` writes into its KIF records?

Issue 27 asks that a match record's evaluations be written as ShogiHome writes a playing
engine's (`**評価値=V` / `**詰み=先手勝ち:N手`, sente's view) and read back by tsshogi (the
library inside ShogiHome), as scripts/interop-annotate.py checks for `analyze --annotate-dir`:

  1. one-game matches between two scripted fake-usi engines (shogi-usi), each sending one
     score at every `go`, over pairs of centipawn and mate scores (both signs, a mate at an
     unknown distance, `mate 0`), written with `--out-format kif`;
  2. every record is read by tsshogi's importKIF (installed on first use as scripts/interop.py
     does: `ensure_tsshogi`);
  3. the comment tsshogi gives ply k must hold, as its last `*評価値=` / `*詰み=` line, the
     score the mover's engine sent for its search before that move, turned to sente's view.

Prints `N passed, N failed` (and every mismatch); exit status 1 on any mismatch, 2 on setup
errors.

Usage (from the workspace root):
  python3 scripts/interop-match.py [--shogi PATH --fake-usi PATH] [--plies 40] [--work DIR]
Without --shogi, `cargo build --release` builds shogi and fake-usi first.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from interop import ensure_tsshogi, log  # noqa: E402
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "interop_annotate", Path(__file__).resolve().parent / "interop-annotate.py")
_annotate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_annotate)
NODE_READER, build, decode = _annotate.NODE_READER, _annotate.build, _annotate.decode

# (sente's engine, gote's engine): the score each sends at every `go` (the match's engine
# specification is comma-separated, so one score per engine and match).
PAIRS = [
    ("cp 42", "mate -"),
    ("mate 3", "cp 250"),
    ("cp -317", "mate 5"),
    ("mate +", "cp -1500"),
    ("cp 0", "mate 0"),
    ("mate -2", "cp 1999"),
]
PLAYER_LINE = re.compile(r"^\*(評価値|詰み)=(.*)$")


def sente_line(score: str, sente_moves: bool) -> str:
    """The `*…` line ShogiHome writes for a USI score of the mover (sente when sente_moves)."""
    kind, v = score.split(" ", 1)
    if kind == "cp":
        cp = int(v) if sente_moves else -int(v)
        return f"*評価値={cp}"
    if v in ("+", "-"):
        win = (v == "+") == sente_moves
        return "*詰み=" + ("先手勝ち" if win else "後手勝ち")
    n = int(v)
    # `mate 0`: the mover is mated now (fairy-stockfish's form).
    mover_wins = n > 0
    win = mover_wins == sente_moves
    return f"*詰み={'先手勝ち' if win else '後手勝ち'}:{abs(n)}手"


def last_player_line(comment):
    found = None
    for line in (comment or "").splitlines():
        if PLAYER_LINE.match(line.strip()):
            found = line.strip()
    return found


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shogi", type=Path, help="the shogi binary (default: build it)")
    ap.add_argument("--fake-usi", type=Path, help="the fake-usi binary (default: beside --shogi)")
    ap.add_argument("--plies", type=int, default=40, help="the move limit (default 40)")
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "shogi-interop",
                    help="where tsshogi is installed (shared with scripts/interop.py)")
    args = ap.parse_args()
    if args.shogi:
        shogi, fake = args.shogi, args.fake_usi or args.shogi.with_name("fake-usi")
    else:
        shogi, fake = build(root)
    for p in (shogi, fake):
        if not p.exists():
            log(f"error: {p} does not exist")
            return 2
    try:
        entry = ensure_tsshogi(args.cache)
    except (OSError, subprocess.CalledProcessError) as e:
        log(f"error: cannot install tsshogi: {e}")
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="interop-match-"))
    manifest, order = [], {}
    for k, pair in enumerate(PAIRS):
        out = work / f"pair-{k}"
        shutil.rmtree(out, ignore_errors=True)
        # --play last: the fake engines shuffle pieces, so the game reaches the move limit.
        engines = []
        for name, score in zip("ab", pair):
            engines += ["--engine", f"{name}={fake},arg=--play,arg=last,arg=--score,arg={score}"]
        cmd = [str(shogi), "match", *engines, "--games", "1", "--byoyomi", "200",
               "--max-plies", str(args.plies), "--out-dir", str(out), "--out-format", "kif"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            log(f"error: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}")
            return 2
        for path in sorted(out.glob("*.kifu")):
            manifest.append({"id": str(path), "text": decode(path.read_bytes())})
            order[str(path)] = pair
    res = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_READER, str(entry)],
        input=json.dumps(manifest), capture_output=True, text=True, timeout=600, check=True,
    )
    passed, failures, mates = 0, [], 0
    for got in json.loads(res.stdout):
        if not got["ok"]:
            failures.append(f"{got['id']}: tsshogi: {got['error']}")
            continue
        pair = order[got["id"]]
        for ply, mv in enumerate(got["moves"], start=1):
            sente_moves = ply % 2 == 1
            want = sente_line(pair[0] if sente_moves else pair[1], sente_moves)
            line = last_player_line(mv["comment"])
            if line != want:
                failures.append(f"{got['id']} ply {ply}: comment has {line!r}, want {want!r}")
            else:
                passed += 1
                mates += want.startswith("*詰み")
    print(f"{len(manifest)} match records read by tsshogi; {mates} of the checked are mates")
    for f in failures:
        print("MISMATCH", f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
