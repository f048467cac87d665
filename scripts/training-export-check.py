#!/usr/bin/env python3
"""Check `shogi convert --to hcpe|psv` against cshogi, game by game, on real records.

Usage: scripts/training-export-check.py [--shogi PATH] [PATH ...]
       (default paths: ../shared/corpus, samples, tests/fixtures)

Installs cshogi 1.1.0 and numpy from PyPI into the scratch virtualenv
~/.cache/shogi-training-crosscheck/venv (shared with training-crosscheck.py) on first use and
re-runs itself there. For every record file:

1. our CLI writes `--to hcpe`, `--to psv` (both with `--keep-unfinished`, so every standard
   game with moves gives entries) and `--to usi` (the main line of each readable record);
2. cshogi replays each main line from its start with its own rules (`Board.push_usi`, refusing
   illegal moves) and reads our entries: `Board.set_hcp` / `set_psfen` must give the position
   cshogi reached (board, hands, side; psv also the ply), `move_from_move16` /
   `move_from_psv` the move played, psv's result must be hcpe's seen from the side to move,
   and hcpe's eval psv's score (below 32000);
3. where cshogi's own KIF or CSA parser reads the file to the same main line, the game's
   result must be cshogi's `win` (when cshogi has one: cshogi knows %TORYO, %KACHI, time-up,
   fouls and a few KIF words), and for CSA the eval must be what DLShogi's csa_to_hcpe.py
   writes: cshogi's `'**` score, clamped to +-32767, negated when gote is to move.

A game the CLI leaves out (Mini Shogi, no king, extra pieces) must be one cshogi cannot
encode either. Exit status 0 only if every comparison matched; totals at the end.
"""

import argparse
import os
import subprocess
import sys

import scratch_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.expanduser("~/.cache/shogi-training-crosscheck/venv")
scratch_venv.rerun_in(VENV, ["cshogi==1.1.0", "numpy"])

import cshogi  # noqa: E402
import cshogi.CSA  # noqa: E402
import cshogi.KIF  # noqa: E402
import numpy as np  # noqa: E402

HCPE = 38
PSV = 40
# cshogi's `win` values.
RESULT_NAMES = {0: "draw", 1: "sente", 2: "gote"}


def run(shogi, path, to):
    out = subprocess.run(
        [shogi, "convert", path, "--to", to] + (["--keep-unfinished"] if to != "usi" else []),
        capture_output=True,
    )
    if out.returncode > 1:
        raise SystemExit(f"{path}: shogi convert --to {to} failed: {out.stderr.decode()}")
    return out.stdout


def text_of(path):
    data = open(path, "rb").read()
    for enc in ("utf-8-sig", "cp932", "euc-jp"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return None


CORPUS = os.path.realpath(os.path.join(ROOT, "..", "shared", "corpus"))


def cshogi_status():
    """cshogi's status per corpus file (REFERENCE.tsv): its parser crashes the process on
    three of them, so it only reads the ones it read fine there."""
    status = {}
    try:
        with open(os.path.join(CORPUS, "REFERENCE.tsv"), encoding="utf-8") as f:
            cols = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(cols, line.rstrip("\n").split("\t")))
                if row.get("parser", "").startswith("cshogi"):
                    status[os.path.join(CORPUS, row["path"])] = row.get("status")
    except OSError:
        pass
    return status


STATUS = cshogi_status()


def cshogi_games(path):
    """cshogi's own reading of the file: [(start, usi moves, win, scores or None)], or None."""
    real = os.path.realpath(path)
    if real.startswith(CORPUS + os.sep) and STATUS.get(real) != "ok":
        return None
    ext = os.path.splitext(path)[1].lower()
    text = text_of(path)
    if text is None:
        return None
    try:
        if ext in (".kif", ".kifu"):
            k = cshogi.KIF.Parser.parse_str(text)
            return [(k.sfen, [cshogi.move_to_usi(m) for m in k.moves], k.win, None, k.endgame)]
        if ext == ".csa":
            return [
                (
                    g.sfen,
                    [cshogi.move_to_usi(m) for m in g.moves],
                    g.win,
                    list(g.scores),
                    g.endgame,
                )
                for g in cshogi.CSA.Parser.parse_str(text)
            ]
    except Exception:
        return None
    return None


SET = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}


def encodable(sfen):
    """Standard shogi with one king a side and at most one set of pieces (what hcp holds)."""
    fields = sfen.split()
    rows = fields[0].split("/")
    if len(rows) != 9:
        return False
    count = {}
    for ch in fields[0].replace("+", ""):
        if ch.isalpha():
            count[ch] = count.get(ch, 0) + 1
    hands = fields[2] if len(fields) > 2 else "-"
    n = ""
    for ch in hands if hands != "-" else "":
        if ch.isdigit():
            n += ch
        else:
            count[ch] = count.get(ch, 0) + int(n or 1)
            n = ""
    if count.get("K", 0) != 1 or count.get("k", 0) != 1:
        return False
    return all(count.get(k, 0) + count.get(k.upper(), 0) <= v for k, v in SET.items())


def left_out(start_sfen, where, totals, problems):
    totals["games_left_out"] += 1
    if encodable(start_sfen):
        problems.append(f"{where}: left out, yet its start {start_sfen} is encodable")


def board_key(sfen):
    """Board, side and hands (hcp holds no move number)."""
    return " ".join(sfen.split()[:3])


def check_file(shogi, path, totals, problems):
    hcpe = run(shogi, path, "hcpe")
    psv = run(shogi, path, "psv")
    usi = run(shogi, path, "usi").decode("utf-8").splitlines()
    if len(hcpe) % HCPE or len(psv) % PSV or len(hcpe) // HCPE != len(psv) // PSV:
        problems.append(f"{path}: {len(hcpe)} hcpe bytes and {len(psv)} psv bytes")
        return
    h = np.frombuffer(hcpe, dtype=cshogi.HuffmanCodedPosAndEval)
    p = np.frombuffer(psv, dtype=cshogi.PackedSfenValue)
    theirs = cshogi_games(path)
    i = 0
    board = cshogi.Board()
    for g, line in enumerate(usi):
        words = line.split()
        if words[:2] == ["position", "startpos"]:
            start, rest = "startpos", words[2:]
        elif words[:2] == ["position", "sfen"]:
            start, rest = " ".join(words[2:6]), words[6:]
        else:
            problems.append(f"{path}: game {g + 1}: unexpected --to usi line {line!r}")
            return
        moves = rest[1:] if rest[:1] == ["moves"] else []
        try:
            board.set_position(start if start == "startpos" else "sfen " + start)
        except Exception:
            board = cshogi.Board()
            totals["games_cshogi_cannot_start"] += 1
            continue
        start_sfen = board.sfen()
        if not moves:
            continue
        # Our entries for this game start here, or the game was left out.
        if i >= len(h):
            left_out(start_sfen, f"{path}: game {g + 1}", totals, problems)
            continue
        probe = cshogi.Board()
        try:
            probe.set_hcp(np.array(h[i]["hcp"]))
            matches = board_key(probe.sfen()) == board_key(start_sfen)
        except Exception:
            matches = False
        if not matches:
            left_out(start_sfen, f"{path}: game {g + 1}", totals, problems)
            continue
        result = int(h[i]["gameResult"])
        evals = []
        for ply, usi_move in enumerate(moves):
            e = i + ply
            if e >= len(h):
                problems.append(f"{path}: game {g + 1}: entries end at ply {ply + 1}")
                return
            where = f"{path}: game {g + 1} ply {ply + 1}"
            want = board.sfen()
            hb = cshogi.Board()
            hb.set_hcp(np.array(h[e]["hcp"]))
            pb = cshogi.Board()
            pb.set_psfen(np.array(p[e]["sfen"]))
            if board_key(hb.sfen()) != board_key(want):
                problems.append(f"{where}: hcp {hb.sfen()} != {want}")
            if board_key(pb.sfen()) != board_key(want):
                problems.append(f"{where}: psfen {pb.sfen()} != {want}")
            if int(p[e]["gamePly"]) != int(want.split()[3]):
                problems.append(f"{where}: gamePly {p[e]['gamePly']} != {want.split()[3]}")
            m16 = int(h[e]["bestMove16"]) & 0xFFFF
            if cshogi.move_to_usi(hb.move_from_move16(m16)) != usi_move:
                problems.append(f"{where}: move16 {m16:#06x} is not {usi_move}")
            pm = int(p[e]["move"])
            if cshogi.move_to_usi(pb.move_from_psv(pm)) != usi_move:
                problems.append(f"{where}: psv move {pm:#06x} is not {usi_move}")
            if int(h[e]["gameResult"]) != result:
                problems.append(f"{where}: result changes within the game")
            turn = board.turn
            rel = 0 if result == 0 else (1 if result - 1 == turn else -1)
            if int(p[e]["game_result"]) != rel:
                problems.append(f"{where}: psv result {p[e]['game_result']} != {rel}")
            ev, sc = int(h[e]["eval"]), int(p[e]["score"])
            if abs(ev) < 32000 and ev != sc:
                problems.append(f"{where}: hcpe eval {ev} != psv score {sc}")
            evals.append((turn, ev))
            move = board.move_from_usi(usi_move)
            if not move or not board.is_legal(move):
                problems.append(f"{where}: cshogi finds {usi_move} illegal")
                return
            board.push(move)
            totals["entries"] += 1
        i += len(moves)
        totals["games"] += 1
        # Against cshogi's own parser, where it reads the same game.
        if theirs is not None and g < len(theirs) and len(theirs) == len(usi):
            t_sfen, t_moves, t_win, t_scores, t_endgame = theirs[g]
            same = t_moves == moves and board_key(cshogi.Board(t_sfen).sfen()) == board_key(
                start_sfen
            )
            if not same:
                totals["games_cshogi_reads_otherwise"] += 1
                continue
            totals["games_cshogi_parser"] += 1
            if t_endgame == "%KACHI":
                # cshogi's parser trusts the declaration; its own 27-point rule judges it
                # here, as ours does.
                declarer = board.turn
                t_win = declarer + 1 if board.is_nyugyoku() else 2 - declarer
                totals["declarations_judged"] += 1
            if t_win is not None and t_win != result:
                # cshogi's default is a draw (0) for endings it does not know.
                if t_win == 0:
                    totals["results_differ_cshogi_draw"] += 1
                    notes.append(
                        f"{path}: game {g + 1}: result {RESULT_NAMES[result]}; cshogi, which "
                        f"does not know this ending, says draw"
                    )
                else:
                    totals["results_differ_result"] += 1
                    problems.append(
                        f"{path}: game {g + 1}: result {RESULT_NAMES[result]}, cshogi says "
                        f"{RESULT_NAMES.get(t_win, t_win)}"
                    )
            else:
                totals["results_agree"] += 1
            if t_scores is not None:
                for ply, ((turn, ev), score) in enumerate(zip(evals, t_scores)):
                    want = max(-32767, min(32767, score))
                    want = want if turn == cshogi.BLACK else -want
                    if ev != want:
                        problems.append(
                            f"{path}: game {g + 1} ply {ply + 1}: eval {ev}, csa_to_hcpe {want}"
                        )
                    totals["evals_checked"] += 1
                    totals["evals_nonzero"] += ev != 0
    if i != len(h):
        problems.append(f"{path}: {len(h) - i} entries left over")


notes = []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shogi", default=None, help="the shogi binary (default: build release)")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    shogi = args.shogi
    if shogi is None:
        subprocess.run(
            ["cargo", "build", "--release", "-q", "-p", "shogi-cli"], cwd=ROOT, check=True
        )
        shogi = os.path.join(ROOT, "target", "release", "shogi")
    paths = args.paths or [
        os.path.join(ROOT, "..", "shared", "corpus"),
        os.path.join(ROOT, "samples"),
        os.path.join(ROOT, "tests", "fixtures"),
    ]
    files = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                files += [
                    os.path.join(d, n) for n in names if not n.endswith((".md", ".tsv", ".snap"))
                ]
        elif os.path.exists(p):
            files.append(p)
    files.sort()
    totals = {
        k: 0
        for k in [
            "files",
            "games",
            "entries",
            "games_left_out",
            "games_cshogi_cannot_start",
            "games_cshogi_parser",
            "games_cshogi_reads_otherwise",
            "results_agree",
            "declarations_judged",
            "results_differ_result",
            "results_differ_cshogi_draw",
            "evals_checked",
            "evals_nonzero",
        ]
    }
    problems = []
    for f in files:
        totals["files"] += 1
        check_file(shogi, f, totals, problems)
    for n in notes:
        print("note:", n)
    for pr in problems:
        print("MISMATCH:", pr)
    for k, v in totals.items():
        print(f"{k}: {v}")
    print("OK" if not problems else f"{len(problems)} mismatches")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
