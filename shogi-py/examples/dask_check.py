#!/usr/bin/env python3
"""Check a folder of game records and write training positions on a Dask cluster.

One task per record file: each task reads its file with shogitk (in Rust), and returns one
row per game (path, game index, validity, plies, ending, winner, first error) and one line
per position of every valid game (SFEN, a tab, the move played). The results are gathered
in file order, so the output is byte for byte the output of the single-process run
(`--local`), whatever the number of workers.

  python dask_check.py RECORDS_DIR OUT_DIR [--workers 2] [--local]
  python dask_check.py RECORDS_DIR OUT_DIR --scheduler tcp://host:8786

OUT_DIR receives games.tsv and positions.txt. On a real cluster, every worker needs shogitk
installed (`pip install ./shogi-py`) and the records on a shared path.
"""

import argparse
import os
import sys

import shogitk

GAME_COLUMNS = ["path", "index", "valid", "plies", "ending", "winner", "error"]


def check_file(path):
    """One task: the game rows and the position lines of one record file."""
    rows, positions = [], []
    try:
        records = shogitk.read(path)
    except (shogitk.ReadError, OSError) as e:
        # A file that cannot be read at all is one row with its error.
        return [[path, 0, False, 0, "", "", str(e)]], []
    for r in records:
        errors = r.errors
        rows.append([
            path,
            r.index,
            r.valid,
            len(r),
            r.ending or "",
            r.winner or "",
            str(errors[0]) if errors else "",
        ])
        if r.valid:
            positions.extend(f"{sfen}\t{move}" for sfen, move in r.positions())
    return rows, positions


def write_outputs(results, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "games.tsv"), "w", encoding="utf-8", newline="\n") as g, \
            open(os.path.join(out_dir, "positions.txt"), "w", encoding="utf-8", newline="\n") as p:
        g.write("\t".join(GAME_COLUMNS) + "\n")
        for rows, positions in results:
            for row in rows:
                g.write("\t".join(str(v).replace("\t", " ").replace("\n", " ") for v in row) + "\n")
            for line in positions:
                p.write(line + "\n")


def run_local(records_dir, out_dir):
    """The single-process run."""
    write_outputs((check_file(f) for f in shogitk.files(records_dir)), out_dir)


def run_dask(records_dir, out_dir, client):
    """The same on a Dask cluster: one task per file, results gathered in file order."""
    # The workers need this module to run check_file.
    client.upload_file(os.path.abspath(__file__))
    files = shogitk.files(records_dir)
    futures = client.map(check_file, files, pure=False)
    write_outputs(client.gather(futures), out_dir)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records")
    ap.add_argument("out")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="address of a running Dask scheduler")
    ap.add_argument("--local", action="store_true", help="no Dask: one process")
    args = ap.parse_args(argv)
    if args.local:
        run_local(args.records, args.out)
        return 0
    from distributed import Client, LocalCluster

    if args.scheduler:
        with Client(args.scheduler) as client:
            run_dask(args.records, args.out, client)
    else:
        with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            run_dask(args.records, args.out, client)
    return 0


if __name__ == "__main__":
    sys.exit(main())
