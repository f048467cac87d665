#!/bin/sh
# What the reader makes of every record at hand, on a base commit and on the working tree,
# compared: the shared corpus (../shared/corpus), the project's fixtures, samples/ and the fuzz
# regression files, one JSON line per game (valid or not, the error, every diagnostic, the
# main line's moves, fouls and ending, the final position; see
# shogi-kif/examples/dump_reads.rs). Prints the lines that differ; a change to the reader
# should show only the records it means to read differently.
#
#   scripts/compare-reads.sh [BASE]          # BASE: a commit or branch, main by default
#
# The base is checked out in a temporary git worktree and built in its own target dir
# ($CARGO_TARGET_DIR/compare-base): two trees built into one target dir can each take the
# other's artifacts as fresh. REPO names the git repository when the tree run from is a copy.
# The two outputs stay in $OUT (default /tmp/compare-reads).
set -eu
base=${1:-main}
root=$(cd "$(dirname "$0")/.." && pwd)
repo=${REPO:-$root}
target=${CARGO_TARGET_DIR:-$root/target}
out=${OUT:-/tmp/compare-reads}
mkdir -p "$out"
tree=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tree/base" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT
git -C "$repo" worktree add --detach "$tree/base" "$base" >/dev/null 2>&1
cp "$root/shogi-kif/examples/dump_reads.rs" "$tree/base/shogi-kif/examples/"
(cd "$tree/base" && CARGO_TARGET_DIR="$target/compare-base" cargo build -q -p shogi-kif --example dump_reads)
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q -p shogi-kif --example dump_reads)
cd "$root"
paths="../shared/corpus shogi-kif/tests/fixtures tests/fixtures samples fuzz/regressions"
# shellcheck disable=SC2086
"$target/compare-base/debug/examples/dump_reads" $paths >"$out/before.jsonl"
# shellcheck disable=SC2086
"$target/debug/examples/dump_reads" $paths >"$out/after.jsonl"
diff "$out/before.jsonl" "$out/after.jsonl" >"$out/diff.txt" || true
# Games paired by file and number: each one read differently, with the fields that differ.
python3 - "$out/before.jsonl" "$out/after.jsonl" "$base" <<'PY'
import json, sys

def load(path):
    games = {}
    for line in open(path, encoding="utf-8"):
        g = json.loads(line)
        games[(g["path"], g.get("game", 0))] = g
    return games

def short(v, n=150):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."

before, after = load(sys.argv[1]), load(sys.argv[2])
files = {k[0] for k in after} | {k[0] for k in before}
print(f"{len(files)} files; games read: {len(before)} with {sys.argv[3]}, {len(after)} now")
changed = [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
print(f"games read differently: {len(changed)}")
for k in changed:
    b, a = before.get(k), after.get(k)
    if b is None or a is None:
        print(f"{k[0]} game {k[1]}: only {'now' if b is None else 'before'}: {short(a or b)}")
        continue
    print(f"{k[0]} game {k[1]}:")
    for f in sorted(set(a) | set(b)):
        if a.get(f) != b.get(f):
            print(f"    {f}: {short(b.get(f))}")
            print(f"    {' ' * len(f)}  -> {short(a.get(f))}")
PY
