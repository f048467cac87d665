#!/usr/bin/env python3
"""Interoperability run: do other programs read back what `shogi convert` writes?

Every record of ../shared/corpus that `shogi check` reads as valid is converted into each of
our output formats (KIF, KI2, CSA, JKF) and read back by
  * tsshogi (npm; the library inside ShogiHome): KIF, KI2, CSA, JKF;
  * cshogi (PyPI): KIF (`cshogi.KIF.Parser`) and CSA (`cshogi.CSA.Parser`).
Each read-back is compared with what our own reader says of the original record: the start
position (SFEN, move number ignored, hands in a fixed order), the main-line moves (USI) and
the ending (each program's vocabulary mapped to ours, see ENDINGS below).

What "our reader says" comes from `shogi convert ORIGINAL --to usi` (start position and the
legal main-line moves) and `--to jkf` (the ending, and a recorded foul move that USI cannot
hold): JKF is our only machine-readable output that carries the ending.

The tools are installed on first use under ~/.cache/shogi-interop/ (a venv with cshogi, an
npm folder with tsshogi; pinned versions, reused when present). A table (format x reader:
files read back identically / total) and every mismatch are printed; `--json FILE` writes
the same as a machine-readable report.

Usage (from the workspace root):
  python3 scripts/interop.py [--shogi target/release/shogi] [--corpus ../shared/corpus]
      [--json report.json] [--work DIR] [--jobs 2]
Exit status: 0 when the run completed (mismatches are findings, not failures), 2 on setup
errors.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import scratch_venv

CSHOGI_VERSION = "1.1.0"
TSSHOGI_VERSION = "2.2.0"
FORMATS = ["kif", "ki2", "csa", "jkf"]
# The extension `convert --out-dir` gives each format (UTF-8 KIF and KI2 are .kifu and .ki2u).
EXT = {"kif": "kifu", "ki2": "ki2u", "csa": "csa", "jkf": "jkf"}
READERS = {"tsshogi": ["kif", "ki2", "csa", "jkf"], "cshogi": ["kif", "csa"]}
STANDARD_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

# ENDINGS: our vocabulary (the names of shogi-kif's EndingKind). Foul endings are compared as
# "foul" plus the side that loses by it, since programs say it relative to different sides.
JKF_SPECIAL = {
    "TORYO": "resign",
    "CHUDAN": "interrupt",
    "SENNICHITE": "repetition",
    "JISHOGI": "impasse",
    "KACHI": "declaration",
    "TIME_UP": "time_up",
    "TSUMI": "mate",
    "FUZUMI": "no_mate",
    "MAX_MOVES": "max_moves",
    "HIKIWAKE": "draw",
    "封じ手": "sealed_move",
    "不戦勝": "win_by_default",
    "不戦敗": "loss_by_default",
}
TSSHOGI_SPECIAL = {
    "resign": "resign",
    "interrupt": "interrupt",
    "repetitionDraw": "repetition",
    "impass": "impasse",
    "enteringOfKing": "declaration",
    "timeout": "time_up",
    "mate": "mate",
    "noMate": "no_mate",
    "maxMoves": "max_moves",
    "draw": "draw",
    "winByDefault": "win_by_default",
    "loseByDefault": "loss_by_default",
    "try": "try",
}
CSA_SPECIAL = {"%" + k: v for k, v in JKF_SPECIAL.items() if k.isascii()}
# tsshogi keeps a word it has no type for as {"any": word}: read it with our KIF vocabulary
# (EndingKind::from_japanese) and the CSA/JKF words.
ANY_WORD = {
    "投了": "resign",
    "中断": "interrupt",
    "千日手": "repetition",
    "持将棋": "impasse",
    "入玉勝ち": "declaration",
    "宣言勝ち": "declaration",
    "切れ負け": "time_up",
    "時間切れ": "time_up",
    "詰み": "mate",
    "詰": "mate",
    "不詰": "no_mate",
    "封じ手": "sealed_move",
    "不戦勝": "win_by_default",
    "不戦敗": "loss_by_default",
    **JKF_SPECIAL,
}

USI_PIECE = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- setup


def ensure_cshogi(cache: Path) -> Path:
    """A venv under the cache with cshogi==CSHOGI_VERSION; returns its python."""
    return Path(scratch_venv.python_in(cache / "venv", [f"cshogi=={CSHOGI_VERSION}"]))


def ensure_tsshogi(cache: Path) -> Path:
    """An npm folder under the cache with tsshogi@TSSHOGI_VERSION; returns its ESM entry."""
    folder = cache / "npm"
    pkg = folder / "node_modules" / "tsshogi"
    entry = pkg / "dist" / "esm" / "index.mjs"
    try:
        if json.loads((pkg / "package.json").read_text())["version"] == TSSHOGI_VERSION:
            return entry
    except (OSError, ValueError, KeyError):
        pass
    log(f"installing tsshogi@{TSSHOGI_VERSION} into {folder}")
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "package.json").exists():
        (folder / "package.json").write_text('{"private": true}\n')
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", f"tsshogi@{TSSHOGI_VERSION}"],
        cwd=folder,
        check=True,
    )
    return entry


# ---------------------------------------------------------------- positions and moves


def canonical_sfen(sfen: str) -> str:
    """Board, side and hands (fixed order, move number dropped) of an SFEN."""
    parts = sfen.split()
    if len(parts) < 3:
        return sfen
    board, side, hand = parts[0], parts[1], parts[2]
    counts = {}
    if hand != "-":
        n = ""
        for ch in hand:
            if ch.isdigit():
                n += ch
            else:
                counts[ch] = counts.get(ch, 0) + (int(n) if n else 1)
                n = ""
    out = ""
    for ch in "RBGSNLPrbgsnlp":
        c = counts.get(ch, 0)
        if c:
            out += (str(c) if c > 1 else "") + ch
    return f"{board} {side} {out or '-'}"


def side_after(sfen: str, plies: int) -> str:
    """The side to move ('b' or 'w') after `plies` moves from `sfen`."""
    parts = sfen.split()
    side = parts[1] if len(parts) > 1 else "b"
    if plies % 2:
        side = "w" if side == "b" else "b"
    return side


def other(side: str) -> str:
    return "w" if side == "b" else "b"


def foul(loser: str) -> str:
    return "foul(" + ("black" if loser == "b" else "white") + " loses)"


def parse_usi_line(line: str):
    """`position startpos|sfen ... [moves ...]` -> (sfen, [moves])."""
    toks = line.split()
    if len(toks) < 2 or toks[0] != "position":
        raise ValueError(f"not a USI position line: {line!r}")
    if toks[1] == "startpos":
        sfen, rest = STANDARD_SFEN, toks[2:]
    else:
        sfen, rest = " ".join(toks[2:6]), toks[6:]
    moves = rest[1:] if rest and rest[0] == "moves" else []
    return sfen, moves


def jkf_move_usi(m: dict) -> str:
    to = m["to"]
    dest = f"{to['x']}{chr(ord('a') + to['y'] - 1)}"
    if "from" not in m or m["from"] is None:
        return f"{USI_PIECE[m['piece']]}*{dest}"
    fr = m["from"]
    return f"{fr['x']}{chr(ord('a') + fr['y'] - 1)}{dest}" + ("+" if m.get("promote") else "")


def jkf_ending(special: str, sfen: str, plies: int) -> str:
    stm = side_after(sfen, plies)
    if special == "+ILLEGAL_ACTION":
        return foul("b")
    if special == "-ILLEGAL_ACTION":
        return foul("w")
    if special == "ILLEGAL_ACTION":  # foul win of the side to move
        return foul(other(stm))
    if special == "ILLEGAL_MOVE":
        return foul(stm)
    return JKF_SPECIAL.get(special, f"other({special})")


# ---------------------------------------------------------------- our side


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def convert(shogi: str, src: Path, fmt: str, out: Path, jobs: int) -> None:
    # --lossy: what a format cannot hold (variations in CSA, times in KI2, the header in USI)
    # is dropped; the comparison is about the start, the main line and the ending.
    cmd = [shogi, "convert", str(src), "--to", fmt, "--lossy", "--out-dir", str(out)]
    r = run(cmd + ["-j", str(jobs)])
    if r.returncode != 0:
        log(f"warning: shogi convert --to {fmt} exited {r.returncode}:\n{r.stderr.strip()}")


def numbered(folder: Path, stem: str, ext: str, n: int):
    """The files `convert --out-dir` writes for the n records of one input (KIF, KI2, JKF)."""
    return [folder / (f"{stem}.{ext}" if i == 0 else f"{stem}-{i + 1}.{ext}") for i in range(n)]


def reference(work: Path, stem: str, n: int):
    """What our reader says of each record of one original file."""
    lines = [x for x in (work / "usi" / f"{stem}.usi").read_text().splitlines() if x.strip()]
    if len(lines) != n:
        raise ValueError(f"{n} records but {len(lines)} USI lines")
    refs = []
    for line, jkf_path in zip(lines, numbered(work / "ref-jkf", stem, "jkf", n)):
        sfen, moves = parse_usi_line(line)
        jkf = json.loads(jkf_path.read_text())
        jmoves = [e["move"] for e in jkf.get("moves", []) if e.get("move")]
        specials = [e["special"] for e in jkf.get("moves", []) if e.get("special")]
        foul_move = None
        if len(jmoves) == len(moves) + 1:
            foul_move = jkf_move_usi(jmoves[-1])  # a recorded foul move ends the line
        elif len(jmoves) != len(moves):
            raise ValueError(f"USI has {len(moves)} moves, JKF {len(jmoves)}")
        all_moves = moves + ([foul_move] if foul_move else [])
        ending = jkf_ending(specials[-1], sfen, len(all_moves)) if specials else "none"
        refs.append(
            {"sfen": sfen, "moves": all_moves, "foul_move": foul_move, "ending": ending}
        )
    return refs


# ---------------------------------------------------------------- cshogi (worker mode)


def cshogi_worker(manifest_path: str) -> None:
    """Run inside the cshogi venv: read every manifest entry back, print JSON results."""
    import cshogi
    from cshogi import CSA, KIF

    def win_side(win):
        return {cshogi.BLACK_WIN: "b", cshogi.WHITE_WIN: "w"}.get(win)

    out = []
    for e in json.load(open(manifest_path, encoding="utf-8")):
        text = Path(e["path"]).read_text(encoding="utf-8").lstrip("\ufeff")
        try:
            if e["format"] == "kif":
                games = [KIF.Parser.parse_str(text)]
            else:
                games = CSA.Parser.parse_str(text)
            recs = []
            for p in games:
                recs.append(
                    {
                        "sfen": p.sfen,
                        "moves": [cshogi.move_to_usi(m) if m else None for m in p.moves],
                        "endgame": p.endgame or "",
                        "win": win_side(p.win),
                    }
                )
            out.append({"id": e["id"], "ok": True, "records": recs})
        except Exception as x:  # every failure of the other reader is a finding
            out.append({"id": e["id"], "ok": False, "error": f"{type(x).__name__}: {x}"})
    json.dump(out, sys.stdout, ensure_ascii=False)


def cshogi_ending(fmt: str, rec: dict, plies: int) -> str:
    g, win = rec["endgame"], rec["win"]
    if not g:
        return "none"
    stm = side_after(rec["sfen"], plies)
    if fmt == "kif":
        # cshogi's KIF reader takes the ending from the `まで` line only and names the winner
        # in `win`: `%TORYO` stands for any "X手の勝ち", `%±ILLEGAL_ACTION` for
        # "Xの反則勝ち"
        # with the sign of the *winner*, `%SENNICHITE` for 千日手 and 持将棋 alike.
        if g == "%TORYO":
            return "resign" if win == other(stm) else f"resign(win {win})"
        if g in ("%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION", "%ILLEGAL_MOVE") and win:
            return foul(other(win))
    if g == "%+ILLEGAL_ACTION":
        return foul("b")
    if g == "%-ILLEGAL_ACTION":
        return foul("w")
    if g == "%ILLEGAL_MOVE":
        return foul(stm)
    return CSA_SPECIAL.get(g, f"other({g})")


def tsshogi_ending(ending, sfen: str, plies: int) -> str:
    if ending is None:
        return "none"
    if isinstance(ending, dict):
        word = ending.get("any")
        return ANY_WORD.get(word, f"other({word})")
    stm = side_after(sfen, plies)
    if ending == "foulWin":  # the side to move wins: the previous move was a foul
        return foul(other(stm))
    if ending == "foulLose":
        return foul(stm)
    return TSSHOGI_SPECIAL.get(ending, f"other({ending})")


# ---------------------------------------------------------------- comparison


def compare(ref: dict, got: dict):
    """Differences between our reading of the original and another reader's read-back."""
    diffs = []
    if canonical_sfen(ref["sfen"]) != canonical_sfen(got["sfen"]):
        ours, theirs = canonical_sfen(ref["sfen"]), canonical_sfen(got["sfen"])
        diffs.append(f"start: ours {ours} | theirs {theirs}")
    a, b = ref["moves"], got["moves"]
    if a != b:
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        ours = a[i] if i < len(a) else "(end)"
        theirs = b[i] if i < len(b) else "(end)"
        if theirs is None:
            theirs = "(an empty move)"
        note = " (ours: a recorded foul move)" if ref["foul_move"] and i == len(a) - 1 else ""
        diffs.append(
            f"moves: {len(a)} vs {len(b)}, first difference at move {i + 1}: "
            f"ours {ours} | theirs {theirs}{note}"
        )
    if ref["ending"] != got["ending"]:
        diffs.append(f"ending: ours {ref['ending']} | theirs {got['ending']}")
    return diffs


def read_back_diffs(reader: str, fmt: str, stem: str, ref: list, results: dict):
    """(record index or None, text) for every way a reader's read-back differs from `ref`."""
    diffs = []  # (record index, text)
    if fmt == "csa":
        res = results[(reader, f"{stem}/csa/0")]
        if not res["ok"]:
            diffs.append((None, f"not read: {res['error']}"))
            got_list = []
        elif reader == "cshogi":
            got_list = res["records"]
        else:
            got_list = [res]
        if res["ok"] and len(got_list) != len(ref):
            diffs.append((None, f"{len(ref)} records written, {len(got_list)} read"))
    else:
        got_list = []
        for k in range(len(ref)):
            res = results[(reader, f"{stem}/{fmt}/{k}")]
            if not res["ok"]:
                diffs.append((k, f"not read: {res['error']}"))
                got_list.append(None)
            elif reader == "cshogi":
                got_list.append(res["records"][0])
            else:
                got_list.append(res)
    for k, (rf, got) in enumerate(zip(ref, got_list)):
        if got is None:
            continue
        norm = {"sfen": got["sfen"], "moves": got["moves"]}
        if reader == "cshogi":
            norm["ending"] = cshogi_ending(fmt, got, len(got["moves"]))
            norm["raw_ending"] = f"{got['endgame'] or '-'} win={got['win']}"
        else:
            norm["ending"] = tsshogi_ending(got["ending"], got["sfen"], len(got["moves"]))
            norm["raw_ending"] = json.dumps(got["ending"], ensure_ascii=False)
        for d in compare(rf, norm):
            if d.startswith("ending:"):
                d += f" (raw: {norm['raw_ending']})"
            diffs.append((k, d))
    return diffs


def output_path(work: Path, stem: str, fmt: str, k) -> str:
    """The file of our output that a mismatch is about."""
    ext = EXT[fmt]
    if fmt == "csa" or not k:
        return str(work / fmt / f"{stem}.{ext}")
    return str(work / fmt / f"{stem}-{k + 1}.{ext}")


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--cshogi-worker":
        cshogi_worker(sys.argv[2])
        return 0
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shogi", default=str(root / "target" / "release" / "shogi"))
    ap.add_argument("--corpus", default=str(root.parent / "shared" / "corpus"))
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "shogi-interop"))
    ap.add_argument("--work", help="keep the converted files here (default: a temporary folder)")
    ap.add_argument("--json", help="write the machine-readable report here")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    cache = Path(args.cache).expanduser()
    cache.mkdir(parents=True, exist_ok=True)
    try:
        cshogi_py = ensure_cshogi(cache)
        tsshogi_entry = ensure_tsshogi(cache)
    except (subprocess.CalledProcessError, OSError) as e:
        log(f"error: could not install the readers: {e}")
        return 2
    shogi = str(Path(args.shogi).resolve())
    corpus = Path(args.corpus).resolve()
    if not Path(shogi).is_file() or not corpus.is_dir():
        log(f"error: need the shogi binary ({shogi}) and the corpus ({corpus})")
        return 2

    tmp = None
    if args.work:
        work = Path(args.work)
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="shogi-interop-")
        work = Path(tmp.name)

    # 1. The records our reader reads as valid (whole files: every record valid).
    r = run([shogi, "check", "--format", "json", "-q", "-j", str(args.jobs), str(corpus)])
    checked = json.loads(r.stdout)
    files = sorted(
        (Path(x["path"]).resolve(), x["records"])
        for x in checked["reports"]
        if x["invalid"] == 0 and x["records"] > 0
    )
    n_records = sum(n for _, n in files)
    log(f"{len(files)} valid file(s), {n_records} record(s), of {checked['files']} file(s)")

    # 2. Stage them under unique names (the output names then follow from the stem) and convert.
    orig = work / "orig"
    orig.mkdir()
    items = []
    for i, (path, n) in enumerate(files):
        stem = f"{i:04d}"
        shutil.copyfile(path, orig / f"{stem}{path.suffix}")
        items.append({"stem": stem, "path": str(path.relative_to(corpus)), "records": n})
    convert(shogi, orig, "usi", work / "usi", args.jobs)
    convert(shogi, orig, "jkf", work / "ref-jkf", args.jobs)
    for fmt in FORMATS:
        convert(shogi, orig, fmt, work / fmt, args.jobs)

    # 3. Our reading of each original, and the files each reader gets.
    manifests = {"tsshogi": [], "cshogi": []}
    refs = {}
    setup_errors = []
    for it in items:
        try:
            refs[it["stem"]] = reference(work, it["stem"], it["records"])
        except (OSError, ValueError, KeyError) as e:
            setup_errors.append(f"{it['path']}: our own reference could not be made: {e}")
            continue
        for fmt in FORMATS:
            if fmt == "csa":
                paths = [work / "csa" / f"{it['stem']}.csa"]
            else:
                paths = numbered(work / fmt, it["stem"], EXT[fmt], it["records"])
            for reader, fmts in READERS.items():
                if fmt in fmts:
                    for k, p in enumerate(paths):
                        manifests[reader].append(
                            {"id": f"{it['stem']}/{fmt}/{k}", "format": fmt, "path": str(p)}
                        )

    # 4. Read back: one process per reader.
    results = {}
    for reader, manifest in manifests.items():
        mpath = work / f"manifest-{reader}.json"
        mpath.write_text(json.dumps(manifest, ensure_ascii=False))
        if reader == "tsshogi":
            helper = Path(__file__).resolve().with_name("interop-tsshogi.mjs")
            cmd = ["node", str(helper), str(tsshogi_entry), str(mpath)]
        else:
            cmd = [str(cshogi_py), str(Path(__file__).resolve()), "--cshogi-worker", str(mpath)]
        r = run(cmd)
        if r.returncode != 0:
            log(f"error: the {reader} reader failed:\n{r.stderr.strip()}")
            return 2
        for res in json.loads(r.stdout):
            results[(reader, res["id"])] = res

    # 5. Compare.
    checks = [(rd, f) for rd, fmts in READERS.items() for f in fmts]
    table = {(f, rd): [0, 0] for rd, f in checks}
    mismatches = []
    for it in items:
        stem = it["stem"]
        if stem not in refs:
            continue
        ref = refs[stem]
        for reader, fmt in checks:
            diffs = read_back_diffs(reader, fmt, stem, ref, results)
            cell = table[(fmt, reader)]
            cell[1] += 1
            if not diffs:
                cell[0] += 1
            for k, d in diffs:
                mismatches.append(
                    {
                        "file": it["path"],
                        "record": None if k is None else k + 1,
                        "records": it["records"],
                        "format": fmt,
                        "reader": reader,
                        "what": d,
                        "output": output_path(work, stem, fmt, k) if args.work else None,
                    }
                )

    # 6. Report.
    versions = {"tsshogi": TSSHOGI_VERSION, "cshogi": CSHOGI_VERSION}
    n_records = sum(len(v) for v in refs.values())
    print(
        f"Read back by other programs: {len(refs)} corpus files ({n_records} records) "
        "that `shogi check` reads as valid"
    )
    print()
    print("| our output | " + " | ".join(f"{rd} {versions[rd]}" for rd in READERS) + " |")
    print("|---|" + "---|" * len(READERS))
    for fmt in FORMATS:
        cells = []
        for rd, fmts in READERS.items():
            cell = table.get((fmt, rd))
            cells.append(f"{cell[0]} / {cell[1]}" if cell else "-")
        print(f"| {fmt.upper()} | " + " | ".join(cells) + " |")
    print()
    for e in setup_errors:
        print(f"setup: {e}")
    mismatches.sort(key=lambda m: (m["reader"], m["format"], m["file"], m["record"] or 0))
    if mismatches:
        print(f"{len(mismatches)} mismatch(es):")
        for m in mismatches:
            rec = ""
            if m["records"] > 1 and m["record"]:
                rec = f" record {m['record']}/{m['records']}"
            print(f"  {m['file']}{rec} [{m['format']} -> {m['reader']}] {m['what']}")
    if args.json:
        report = {
            "shogi": shogi,
            "readers": versions,
            "files": len(refs),
            "records": n_records,
            "table": [
                {"format": f, "reader": rd, "identical": v[0], "total": v[1]}
                for (f, rd), v in table.items()
            ],
            "mismatches": mismatches,
            "setup_errors": setup_errors,
        }
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
