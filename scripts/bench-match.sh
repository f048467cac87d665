#!/bin/sh
# Benchmark of `shogi match`: the referee's own overhead per move and losses on time (issue
# 20's measurement), and games per minute against cshogi's `cli` on the same engines and time
# control, in one run: fairy-stockfish against itself at a short byoyomi.
#
#   scripts/bench-match.sh [GAMES] [BYOYOMI_MS] [MAX_PLIES]     (defaults 200 100 256)
#
# The measurement: `shogi match --jobs 2` (2 games at once on the machine's cores), GAMES games
# at --byoyomi BYOYOMI_MS, draw at MAX_PLIES plies; it prints how many games were lost on time
# and our overhead per move (from the reader thread's reading a `bestmove` to having written
# the next `go`): median, p99, p99.9 and max over every move, with the same split into steps
# (hand-off to the game thread, referee, `position`+`go` written) from SHOGI_MATCH_TRACE.
#
# COMPARE=1 (the default) then runs the comparisons in the same run: `shogi match --jobs 1`
# (overhead with a core to spare, so what `--jobs 2` adds is the scheduler's), and unless
# CSHOGI=0, cshogi `cli` and cshogi `cli --keep-process`, each with its wall time and games per
# minute. COMPARE=0 runs the measurement alone (200 games take about 7 minutes on an idle
# 2-core machine). cshogi (PyPI)
# is installed into a scratch virtualenv ($VENV, default /tmp/cshogi-venv) on first use.
# Records go to a scratch folder, deleted at the end. The machine's load is printed before and
# after: compare numbers taken at the same load only.
set -eu
GAMES=${1:-200}
BYO=${2:-100}
PLIES=${3:-256}
COMPARE=${COMPARE:-1}
CSHOGI=${CSHOGI:-1}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
VENV=${VENV:-/tmp/cshogi-venv}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
# SHOGI=path/to/shogi runs that binary instead of building the release one.
if [ -z "${SHOGI:-}" ]; then
    (cd "$ROOT" && cargo build --release -q -p shogi-cli)
    SHOGI=$TARGET/release/shogi
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { python3 -c 'import time; print(time.time())'; }
rate() { python3 -c "g=$1; t=$2; print(f'{t:.1f} s, {g*60/t:.2f} games/min')"; }

ours() { # ours JOBS: one match, its summary, trace and wall time in $WORK
    t0=$(now)
    SHOGI_MATCH_TRACE="$WORK/trace$1.jsonl" "$SHOGI" match --engine a="$FAIRY" \
        --engine b="$FAIRY" --games "$GAMES" --jobs "$1" --byoyomi "$BYO" \
        --max-plies "$PLIES" --out "$WORK/ours$1.csa" --format json \
        > "$WORK/ours$1.json" 2> "$WORK/ours$1.log"
    t1=$(now)
    python3 - "$WORK/ours$1.json" "$WORK/trace$1.jsonl" "$1" "$GAMES" "$t0" "$t1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
jobs, games, t0, t1 = sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
lost = s["terminations"].get("time_up", 0)
print(f"shogi match --jobs {jobs}: {t1 - t0:.1f} s, {games * 60 / (t1 - t0):.2f} games/min, "
      f"{s['games']} games, time losses: {lost}")
print(f"  overhead per move: median {s['overhead_us_median']} us, p99 {s['overhead_us_p99']} us, "
      f"p99.9 {s['overhead_us_p999']} us, max {s['overhead_us_max']} us "
      f"over {s['overhead_samples']} moves")
rows = [json.loads(l) for l in open(sys.argv[2])]
def pct(v, q):
    v = sorted(v)
    return v[round((len(v) - 1) * q)] if v else None
for k in ("handoff_us", "referee_us", "write_us"):
    v = [r[k] for r in rows]
    print(f"    {k[:-3]:8}: median {pct(v, .5)} us, p99 {pct(v, .99)} us, max {max(v, default=None)} us")
slow = sorted(rows, key=lambda r: -r["total_us"])[:5]
print("    slowest:", "; ".join(
    f"game {r['game']} ply {r['ply']}: {r['total_us']} us "
    f"({r['handoff_us']}+{r['referee_us']}+{r['write_us']})" for r in slow))
if lost:
    for line in open(sys.argv[1].replace(".json", ".log")):
        if "time" in line.lower() and "ms" in line:
            print("    " + line.strip())
PY
}

echo "load: $(uptime)"
echo "fairy-stockfish vs itself, $GAMES games, byoyomi $BYO ms, draw at $PLIES plies"
ours 2
if [ "$COMPARE" = 1 ]; then
    ours 1
fi
if [ "$COMPARE" = 1 ] && [ "$CSHOGI" = 1 ]; then
    if [ ! -x "$VENV/bin/python" ]; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q cshogi
    fi
    for keep in "" "--keep-process"; do
        t0=$(now)
        (cd "$WORK" && "$VENV/bin/python" -m cshogi.cli "$FAIRY" "$FAIRY" --games "$GAMES" \
            --byoyomi "$BYO" --draw "$PLIES" --csa "$WORK/cshogi$keep" $keep \
            > "$WORK/cshogi.log" 2>&1)
        t1=$(now)
        echo "cshogi cli $keep: $(rate "$GAMES" "$(python3 -c "print($t1-$t0)")"), time losses: \
$(grep -l TIME_UP "$WORK/cshogi$keep"/* 2>/dev/null | wc -l)"
    done
fi
echo "load: $(uptime)"
