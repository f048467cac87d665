#!/usr/bin/env python3
"""A year of Floodgate end to end on one machine (issue 29, item 4).

Builds a Floodgate-like yearly archive from games our own tools generate (gen_games plays
them, `shogi convert --to csa` writes them), rewritten in Floodgate's naming and dialect
(`YYYY/wdoor+floodgate-300-10F+black+white+YYYYMMDDhhmmss.csa`, `'Max_Moves`, `'Increment`,
`$EVENT`, `$START_TIME`, `'rating`/`'black_rate`/`'white_rate`, `T` times, `'**` comments
with a score and a PV after each move, `'summary` and `'$END_TIME`), packed with 7-Zip
into one `.7z`, then runs `check`, `stats`, `index`, and `explore` (without and with
filters) on the archive itself, and prints each step's wall time, peak memory (RSS of the
child), games/s, and the sizes of the archive, the CSA text and the database.

    scripts/bench-floodgate.py [--games 100000] [--work DIR] [--jobs 2] [--no-build] [--clean]

At 100,000 games the work folder peaks at about 3 GB while the archive is made (the CSA
files before 7-Zip packs them); `--clean` deletes it at the end.

Needs 7z (Debian's p7zip-full or 7zip). The work folder defaults to ~/.cache/shogi-bench-floodgate.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchkit import GEN, SHOGI, cache, ensure_built, sh  # noqa: E402

GAME_NAMES = ["floodgate-300-10F", "floodgate-600-10F", "floodgate-900-0"]


def run_timed(cmd):
    """Runs cmd under os.wait4: (wall seconds, peak RSS MB, exit code, stdout, stderr)."""
    print("+", " ".join(cmd), file=sys.stderr)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, p.returncode, out.decode(), err.decode()


def floodgate_text(csa, rng, player_ratings, when, game_name):
    """The CSA text `csa` (as `shogi convert --to csa` writes it) in Floodgate's dialect."""
    lines = csa.splitlines()
    moves = [l for l in lines if len(l) == 7 and l[0] in "+-" and l[1:5].isdigit()]
    ending = next((l for l in lines if l.startswith("%")), None)
    (black, brate), (white, wrate) = rng.sample(player_ratings, 2)
    stamp = when.strftime("%Y%m%d%H%M%S")
    game_id = f"wdoor+{game_name}+{black}+{white}+{stamp}"
    out = [f"'{game_id}", "V2", f"N+{black}", f"N-{white}", "'Max_Moves:256", "'Least_Time_Per_Move:0"]
    if game_name.endswith("F"):
        out.append("'Increment:" + game_name.split("-")[2].rstrip("F"))
    out += [f"$EVENT:{game_id}", "$START_TIME:" + when.strftime("%Y/%m/%d %H:%M:%S")]
    out += ["P1-KY-KE-GI-KI-OU-KI-GI-KE-KY", "P2 * -HI *  *  *  *  * -KA * ",
            "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU", "P4 *  *  *  *  *  *  *  *  * ",
            "P5 *  *  *  *  *  *  *  *  * ", "P6 *  *  *  *  *  *  *  *  * ",
            "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU", "P8 * +KA *  *  *  *  * +HI * ",
            "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY", "+"]
    bid, wid = f"{black}+{rng.getrandbits(128):032x}", f"{white}+{rng.getrandbits(128):032x}"
    out.append(f"'rating:{bid}:{wid}")
    if brate:
        out.append(f"'black_rate:{bid}:{brate:.1f}")
    if wrate:
        out.append(f"'white_rate:{wid}:{wrate:.1f}")
    score = 0
    for i, m in enumerate(moves):
        out.append(m)
        out.append(f"T{rng.randint(0, 20)}")
        if rng.random() < 0.9:
            score += rng.randint(-150, 150)
            pv = " ".join(moves[i + 1:i + 1 + rng.randint(0, 6)])
            out.append(f"'** {score} {pv}".rstrip())
    if ending:
        out.append(ending)
    side = "+" if len(moves) % 2 == 0 else "-"
    loser, winner = (black, white) if side == "+" else (white, black)
    out.append(f"'summary:toryo:{loser} lose:{winner} win")
    out.append("'$END_TIME:" + when.strftime("%Y/%m/%d %H:%M:%S"))
    return game_id, "\n".join(out) + "\n"


def build_archive(work, games, jobs):
    """The .7z of `games` Floodgate-like games of year 2020 under `work`; returns its path and
    the size of the CSA text."""
    import datetime

    kif, csa, year = (os.path.join(work, d) for d in ("kif", "csa", "fg"))
    archive = os.path.join(work, "wdoor2020.7z")
    if os.path.exists(archive):
        return archive, None
    for d in (kif, csa, year):
        shutil.rmtree(d, ignore_errors=True)
    sh([GEN, "--out", kif, "--games", str(games), "--seed", "29", "--min-plies", "60",
        "--max-plies", "160"])
    sh([SHOGI, "convert", kif, "--to", "csa", "--out-dir", csa, "--jobs", str(jobs)],
       stdout=subprocess.DEVNULL)
    shutil.rmtree(kif)
    rng = random.Random(29)
    # Sixty players; every seventh is unrated (no rate line, as Floodgate writes none for 0).
    players = [(f"engine{i:02}", 0 if i % 7 == 0 else round(rng.uniform(1500, 4000), 1))
               for i in range(60)]
    start = datetime.datetime(2020, 1, 1)
    text_bytes = 0
    os.makedirs(os.path.join(year, "2020"))
    for i, name in enumerate(sorted(os.listdir(csa))):
        with open(os.path.join(csa, name), encoding="utf-8") as f:
            text = f.read()
        when = start + datetime.timedelta(seconds=int(i * 366 * 86400 / games))
        game_id, fg = floodgate_text(text, rng, players, when, rng.choice(GAME_NAMES))
        data = fg.encode()
        text_bytes += len(data)
        with open(os.path.join(year, "2020", game_id + ".csa"), "wb") as f:
            f.write(data)
    shutil.rmtree(csa)
    sh(["7z", "a", "-t7z", "-mx=5", "-bd", archive, "2020"], cwd=year, stdout=subprocess.DEVNULL)
    shutil.rmtree(year)
    with open(archive + ".textbytes", "w") as f:
        f.write(str(text_bytes))
    return archive, text_bytes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--work", default=cache("shogi-bench-floodgate"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    ap.add_argument("--clean", action="store_true",
                    help="delete the work folder (archive, database, CSV) at the end")
    a = ap.parse_args()
    if not shutil.which("7z"):
        sys.exit("bench-floodgate: needs 7z (apt-get install p7zip-full)")
    if not a.no_build:
        ensure_built()
    os.makedirs(a.work, exist_ok=True)
    t0 = time.perf_counter()
    archive, text_bytes = build_archive(a.work, a.games, a.jobs)
    if text_bytes is None:
        with open(archive + ".textbytes") as f:
            text_bytes = int(f.read())
    print(f"archive: {archive}, {os.path.getsize(archive) / 1e6:.1f} MB "
          f"({text_bytes / 1e6:.1f} MB of CSA text), made in {time.perf_counter() - t0:.0f} s")
    db = os.path.join(a.work, "wdoor2020.sqlite")
    for p in (db, os.path.join(a.work, "stats.csv")):
        if os.path.exists(p):
            os.remove(p)
    j = ["--jobs", str(a.jobs)]
    steps = [
        ("check", [SHOGI, "check", archive, "--quiet"] + j, True),
        ("stats", [SHOGI, "stats", archive, "-o", os.path.join(a.work, "stats.csv")] + j, True),
        ("index", [SHOGI, "index", archive, "--db", db] + j, True),
        ("explore startpos", [SHOGI, "explore", "startpos", "--db", db], False),
        ("explore startpos --time-control floodgate-300-10F --since 2020-06 --min-rating 2500",
         [SHOGI, "explore", "startpos", "--db", db, "--time-control", "floodgate-300-10F",
          "--since", "2020-06", "--min-rating", "2500"], False),
    ]
    for name, cmd, per_game in steps:
        wall, rss, code, out, err = run_timed(cmd)
        if code not in (0, 1):
            sys.exit(f"{name}: exit {code}\n{err[-2000:]}")
        rate = f", {a.games / wall:,.0f} games/s" if per_game else ""
        print(f"{name}: {wall:.2f} s, peak RSS {rss:.0f} MB{rate}")
    size = os.path.getsize(db)
    print(f"database: {size / 1e6:.1f} MB = {size / os.path.getsize(archive):.2f}x the archive, "
          f"{size / text_bytes:.2f}x the CSA text")
    if a.clean:
        shutil.rmtree(a.work)


if __name__ == "__main__":
    main()
