#!/usr/bin/env python3
"""Whether two `shogi` binaries give byte-identical tags: the check for a change that should
only make the recogniser faster.

Runs `shogi stats --tags -j1` (CSV) with both binaries over ../shared/corpus-openings,
../shared/corpus and the games openings-bench.py generates (the corpus-openings main lines as
USI lines, so the tags of a line read as USI are checked too), and compares the outputs byte
for byte. Exit 0 when every output is identical, 1 with the first differing lines otherwise.

    scripts/openings-tags-diff.py --base /tmp/shogi-before [--shogi target/release/shogi]
"""

import argparse
import difflib
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def stats(shogi, path):
    p = subprocess.run([shogi, "stats", path, "--tags", "-j", "1"], capture_output=True)
    if p.returncode not in (0, 1):
        sys.exit(f"{shogi} stats {path}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the binary before the change")
    ap.add_argument("--shogi", default=os.path.join(ROOT, "target", "release", "shogi"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([args.base, "convert", os.path.join(SHARED, "corpus-openings", "files"), "--to", "usi"],
                             capture_output=True, text=True)
        lines = [l for l in out.stdout.splitlines() if l.startswith("position")]
        if not lines:
            sys.exit("no games converted")
        usi = os.path.join(d, "games.usi")
        with open(usi, "w") as f:
            f.write("\n".join(lines) + "\n")
        inputs = [os.path.join(SHARED, "corpus-openings", "files"), os.path.join(SHARED, "corpus"), usi]
        bad = 0
        for path in inputs:
            before, after = stats(args.base, path), stats(args.shogi, path)
            rows = before.count(b"\n") - 1
            if before == after:
                print(f"identical  {rows:5} games  {path}")
                continue
            bad += 1
            print(f"DIFFERENT  {rows:5} games  {path}")
            diff = difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(), "before", "after", lineterm="", n=0)
            for line in list(diff)[:20]:
                print("  " + line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
