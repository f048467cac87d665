#!/usr/bin/env python3
"""Does tsshogi read back the evaluations `shogi analyze --annotate-dir` writes into KIF?

Issue 17 asks that an annotated KIF, read back by our reader and by tsshogi (the library inside
ShogiHome), carries each evaluation at its move. Our reader's side is tested in
shogi-cli/tests/cli/analyze/; this is tsshogi's side:

  1. the KIF records (samples/game.kif and the .kif/.kifu files of ../shared/corpus) are copied
     into a scratch folder and analysed in one run, `shogi analyze --format jsonl --annotate-dir`,
     with the scripted engine fake-usi (shogi-usi) sending a cycle of centipawn and mate scores
     (both signs, a mate at an unknown distance and `mate 0`), or with `--engine PATH` another one;
  2. every annotated KIF is read by tsshogi's importKIF (npm, installed on first use as
     scripts/interop.py does: its `ensure_tsshogi`);
  3. for every row of the table (one per ply), the comment tsshogi gives that ply's move must hold
     as its last `#評価値=` / `#詰み=` line exactly what the row says in sente's view
     (`played_cp_sente` -> `#評価値=V`; `played_mate_sente` N / -N / +0 / -0 / + / - ->
     `#詰み=先手勝ち:N手` / `後手勝ち:N手` / `先手勝ち:0手` / `後手勝ち:0手` / `先手勝ち` /
     `後手勝ち`), and tsshogi's move at that ply must be the row's `move_usi`.
     A row with no score (a failed position) is counted as unchecked.

Prints `N passed, N failed` (and every mismatch); exit status 1 on any mismatch, 2 on setup
errors.

Usage (from the workspace root):
  python3 scripts/interop-annotate.py [--shogi PATH --fake-usi PATH] [--corpus ../shared/corpus]
      [--engine PATH --nodes N] [--jobs 2] [--limit N] [--work DIR]
Without --shogi, `cargo build --release` builds shogi and fake-usi first.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/ from importing interop
sys.path.insert(0, str(Path(__file__).resolve().parent))
from interop import ensure_tsshogi, log  # noqa: E402  (same folder; one tsshogi install)

# Scores fake-usi sends, one per `go`, cycling: both signs, both kinds, the odd mate forms.
FAKE_SCORES = "cp 42,mate 3,cp -317,mate -2,cp 0,mate +,cp 1999,mate -,mate 0,cp -5,mate 11"

# Reads records with tsshogi: stdin is [{"id", "text"}], stdout [{"id", "ok", "error"?,
# "moves"?: [{"usi", "comment"}]}] for the main line (ply 1 first).
NODE_READER = r"""
import { pathToFileURL } from "node:url";
const ts = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((e) => {
  let record;
  try { record = ts.importKIF(e.text); } catch (err) {
    return { id: e.id, ok: false, error: `exception: ${err && err.message ? err.message : err}` };
  }
  if (record instanceof Error) return { id: e.id, ok: false, error: record.message };
  const moves = [];
  for (let node = record.first.next; node; node = node.next) {
    if (!(node.move instanceof ts.Move)) break;
    moves.push({ usi: node.move.usi, comment: node.comment });
  }
  return { id: e.id, ok: true, moves };
});
process.stdout.write(JSON.stringify(out));
"""

EVAL_LINE = re.compile(r"^#(評価値|詰み)=(.*)$")


def expected_text(row):
    """The comment line our table implies for this ply, or None when it has no score."""
    cp, mate = row.get("played_cp_sente"), row.get("played_mate_sente")
    if cp is not None:
        return f"#評価値={cp}"
    if mate is None:
        return None
    if mate in ("+", "-"):
        return "#詰み=" + ("先手勝ち" if mate == "+" else "後手勝ち")
    winner = "後手勝ち" if mate.startswith("-") else "先手勝ち"
    return f"#詰み={winner}:{int(mate.lstrip('+-'))}手"


def last_eval_line(comment):
    """The last `#評価値=` / `#詰み=` line of a comment (ours is appended after any kept)."""
    found = None
    for line in (comment or "").splitlines():
        if EVAL_LINE.match(line.strip()):
            found = line.strip()
    return found


def decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp932", errors="replace")


def annotated_name(rel: str, game: int) -> str:
    """The file name `--annotate-dir` gives game `game` of input `rel` (KIF keeps its name)."""
    p = Path(rel)
    return p.name if game <= 1 else f"{p.stem}-{game}{p.suffix}"


def build(root: Path):
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    log("building shogi and fake-usi (release)")
    subprocess.run(
        ["cargo", "build", "--release", "-p", "shogi-cli", "--bin", "shogi",
         "-p", "shogi-usi", "--bin", "fake-usi"],
        cwd=root, check=True,
    )
    return target / "release" / "shogi", target / "release" / "fake-usi"


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shogi", type=Path, help="the shogi binary (default: build it)")
    ap.add_argument("--fake-usi", type=Path, help="the fake-usi binary (default: beside --shogi)")
    ap.add_argument("--engine", type=Path, help="a real USI engine instead of fake-usi")
    ap.add_argument("--nodes", type=int, default=2000, help="search limit (default 2000)")
    ap.add_argument("--corpus", type=Path, default=root.parent / "shared" / "corpus")
    ap.add_argument("--jobs", type=int, default=2, help="engines in parallel (default 2)")
    ap.add_argument("--limit", type=int, help="at most N corpus KIF files (sorted by path)")
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "shogi-interop",
                    help="where tsshogi is installed (shared with scripts/interop.py)")
    args = ap.parse_args()

    if args.shogi:
        shogi = args.shogi
        fake = args.fake_usi or shogi.with_name("fake-usi")
    else:
        shogi, fake = build(root)
    engine = args.engine or fake
    for p in (shogi, engine):
        if not p.exists():
            log(f"error: {p} does not exist")
            return 2
    try:
        entry = ensure_tsshogi(args.cache)
    except (OSError, subprocess.CalledProcessError) as e:
        log(f"error: cannot install tsshogi: {e}")
        return 2

    work = args.work or Path(tempfile.mkdtemp(prefix="interop-annotate-"))
    inputs, out = work / "in", work / "out"
    for d in (inputs, out):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    records = sorted(
        p for p in args.corpus.rglob("*") if p.suffix in (".kif", ".kifu") and p.is_file()
    )
    if args.limit is not None:
        records = records[: args.limit]
    records.insert(0, root / "samples" / "game.kif")
    origin = {}
    for i, src in enumerate(records):
        name = f"{i:03d}-{src.name}"
        shutil.copyfile(src, inputs / name)
        origin[name] = src

    table = work / "table.jsonl"
    cmd = [str(shogi), "analyze", str(inputs), "--engine", str(engine),
           "--nodes", str(args.nodes), "--jobs", str(args.jobs),
           "--format", "jsonl", "--annotate-dir", str(out), "-o", str(table)]
    if not args.engine:
        cmd += ["--engine-arg=--score", f"--engine-arg={FAKE_SCORES}"]
    log(" ".join(cmd))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    except subprocess.TimeoutExpired:
        log("error: shogi analyze did not finish in 30 minutes")
        return 2
    # 1: some game or position failed (corpus files our reader refuses); those rows are unchecked.
    if r.returncode not in (0, 1):
        log(f"error: shogi analyze exited {r.returncode}:\n{r.stderr}")
        return 2
    log(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "")

    games = {}
    for line in table.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rel = Path(row["path"]).name
        games.setdefault((rel, row["game"]), []).append(row)

    manifest, missing = [], []
    for (rel, game), rows in games.items():
        path = out / annotated_name(rel, game)
        if path.exists():
            manifest.append({"id": f"{rel}#{game}", "text": decode(path.read_bytes())})
        elif any(expected_text(x) for x in rows):
            missing.append(f"{rel}#{game}")
    try:
        res = subprocess.run(
            ["node", "--input-type=module", "-e", NODE_READER, str(entry)],
            input=json.dumps(manifest), capture_output=True, text=True, timeout=600, check=True,
        )
        read = {x["id"]: x for x in json.loads(res.stdout)}
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        log(f"error: reading with tsshogi failed: {e}")
        return 2

    passed, unchecked, failures = 0, 0, []
    for key in missing:
        failures.append(f"{key}: scored moves but no annotated file")
    for (rel, game), rows in games.items():
        key = f"{rel}#{game}"
        got = read.get(key)
        where = f"{origin[rel]} (game {game})"
        for row in rows:
            want = expected_text(row)
            if want is None:
                unchecked += 1
                continue
            if got is None or not got["ok"]:
                failures.append(f"{where} ply {row['ply']}: tsshogi: "
                                f"{got['error'] if got else 'not read'}")
                continue
            ply = row["ply"]
            if ply > len(got["moves"]):
                failures.append(f"{where} ply {ply}: tsshogi has only {len(got['moves'])} moves")
                continue
            mv = got["moves"][ply - 1]
            line = last_eval_line(mv["comment"])
            if mv["usi"] != row["move_usi"]:
                failures.append(f"{where} ply {ply}: move {mv['usi']} != {row['move_usi']}")
            elif line != want:
                failures.append(f"{where} ply {ply}: comment has {line!r}, table says {want!r}")
            else:
                passed += 1
    files = len(manifest)
    mates = sum(1 for rows in games.values() for x in rows if x.get("played_mate_sente"))
    print(f"{files} annotated KIF files ({len(games)} games of {len(records)} records) read by "
          f"tsshogi; {unchecked} rows without a score unchecked; {mates} of the checked are mates")
    for f in failures:
        print("MISMATCH", f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
