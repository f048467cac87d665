#!/bin/sh
# Benchmark of `shogi match` against cshogi's `cli`, in one run, on the same engines and time
# control: fairy-stockfish against itself at a short byoyomi.
#
#   scripts/bench-match.sh [GAMES] [BYOYOMI_MS] [MAX_PLIES]     (defaults 10 100 256)
#
# Prints the machine's load, then for each runner the wall time and games per minute:
#   shogi match --jobs 1, shogi match --jobs 2, cshogi cli, cshogi cli --keep-process
# and our referee's overhead per move (from reading a `bestmove` to having written the next
# `go`: median and 99th percentile over every move, from the JSON summary of the --jobs 2 run),
# and how many games each runner lost on time. cshogi (PyPI) is installed into a scratch
# virtualenv ($VENV, default /tmp/cshogi-venv) on first use. Records go to a scratch folder.
set -eu
GAMES=${1:-10}
BYO=${2:-100}
PLIES=${3:-256}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
VENV=${VENV:-/tmp/cshogi-venv}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
# SHOGI=path/to/shogi runs that binary instead of building the release one.
if [ -z "${SHOGI:-}" ]; then
    (cd "$ROOT" && cargo build --release -q -p shogi-cli)
    SHOGI=$TARGET/release/shogi
fi
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q cshogi
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { python3 -c 'import time; print(time.time())'; }
rate() { python3 -c "import sys; g=$1; t=$2; print(f'{t:.1f} s, {g*60/t:.2f} games/min')"; }

echo "load: $(uptime)"
echo "fairy-stockfish vs itself, $GAMES games, byoyomi $BYO ms, draw at $PLIES plies"

for jobs in 1 2; do
    t0=$(now)
    "$SHOGI" match --engine a="$FAIRY" --engine b="$FAIRY" --games "$GAMES" --jobs "$jobs" \
        --byoyomi "$BYO" --max-plies "$PLIES" --out "$WORK/ours$jobs.csa" --format json \
        > "$WORK/ours$jobs.json" 2> "$WORK/ours$jobs.log"
    t1=$(now)
    echo "shogi match --jobs $jobs: $(rate "$GAMES" "$(python3 -c "print($t1-$t0)")"), time losses: \
$(python3 -c "import json; print(json.load(open('$WORK/ours$jobs.json'))['terminations'].get('time_up', 0))")"
done
python3 - "$WORK/ours2.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"our overhead per move (--jobs 2): median {s['overhead_us_median']} us, "
      f"p99 {s['overhead_us_p99']} us over {s['overhead_samples']} moves")
PY

for keep in "" "--keep-process"; do
    t0=$(now)
    (cd "$WORK" && "$VENV/bin/python" -m cshogi.cli "$FAIRY" "$FAIRY" --games "$GAMES" \
        --byoyomi "$BYO" --draw "$PLIES" --csa "$WORK/cshogi" $keep > "$WORK/cshogi.log" 2>&1)
    t1=$(now)
    echo "cshogi cli $keep: $(rate "$GAMES" "$(python3 -c "print($t1-$t0)")"), time losses: \
$(grep -l TIME_UP "$WORK"/cshogi/* 2>/dev/null | wc -l)"
done
echo "load: $(uptime)"
