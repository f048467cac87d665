#!/bin/bash
# Runs one fuzz target for SECONDS (wall) at low priority, with the limits the issue sets
# (10 s per input, 512 MB), from its seeded corpus (fuzz/seed.sh); prints libFuzzer's final
# stats and the CPU time used. Crashes land in fuzz/artifacts/TARGET/.
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
set -u
here=$(cd "$(dirname "$0")" && pwd)
t=$1
secs=$2
shift 2
mkdir -p "$here/logs" "$here/corpus/$t"
cd "$here"
TIMEFORMAT="cpu: user %U s, sys %S s, wall %R s"
{ time nice -n 10 cargo fuzz run "$t" --sanitizer none -- -timeout=10 -rss_limit_mb=512 \
    -max_total_time="$secs" -print_final_stats=1 "$@" > "logs/$t.log" 2>&1 ; } 2>> "logs/$t.log"
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|cpu:)|SUMMARY|crash-|timeout-|oom-" "logs/$t.log"
