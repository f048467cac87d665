#!/usr/bin/env bash
# Builds `shogi` optimised with a profile of its own reading (profile-guided optimisation):
# target/pgo/release/shogi, the same program as `cargo build --release -p shogi-cli`, laid out
# for the paths that reading records takes. Measured: 0.95x the instructions and 1.08x-1.10x the
# CPU speed of the release build on `check` of 10,000 KIF files, then 1.01x after the next
# round's changes to the reader and the allocator (README, "Record throughput").
#
# Needs llvm-profdata of the compiler's LLVM: `rustup component add llvm-tools`, or
# LLVM_PROFDATA=/path/to/llvm-profdata (a distribution's llvm-profdata of another LLVM
# version cannot read rustc's profiles).
#
# The training run reads games of our own making only (gen_games with a seed the benchmarks
# do not use, written as Shift_JIS KIF, UTF-8 KIF, and converted to CSA and KI2), the shipped
# samples, and `stats` of the same games: no record of the benchmarks is in the profile.
#
# Usage (from anywhere): scripts/build-pgo.sh [GAMES]   (default 3000 games a format)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
games=${1:-3000}
work=$root/target/pgo-work

profdata=${LLVM_PROFDATA:-}
if [ -z "$profdata" ]; then
    profdata=$(find "$(rustc --print sysroot)/lib/rustlib" -name llvm-profdata -type f 2>/dev/null | head -1)
fi
if [ -z "$profdata" ] || [ ! -x "$profdata" ]; then
    echo "build-pgo: llvm-profdata not found: run 'rustup component add llvm-tools'" \
        "or set LLVM_PROFDATA" >&2
    exit 1
fi

rm -rf "$work"
mkdir -p "$work/profiles"
export CARGO_INCREMENTAL=0

echo "== training games ($games a format)"
cargo build --release -q -p shogi-kif --example gen_games
gen=$root/target/release/examples/gen_games
"$gen" --out "$work/kif-sjis" --games "$games" --seed 7 --encoding sjis
"$gen" --out "$work/kif-utf8" --games "$games" --seed 8 --encoding utf8

echo "== instrumented build"
RUSTFLAGS="-Cprofile-generate=$work/profiles" \
    cargo build --release -q -p shogi-cli --target-dir "$work/instrumented"
shogi=$work/instrumented/release/shogi

echo "== training run"
"$shogi" convert "$work/kif-utf8" --to csa --out-dir "$work/csa" > /dev/null
"$shogi" convert "$work/kif-utf8" --to ki2 --out-dir "$work/ki2" > /dev/null
for d in kif-sjis kif-utf8 csa ki2; do
    "$shogi" check "$work/$d" --jobs 1 --quiet
done
"$shogi" check samples --jobs 1 --quiet
"$shogi" stats "$work/kif-sjis" --jobs 1 > /dev/null

echo "== merge"
"$profdata" merge -o "$work/merged.profdata" "$work/profiles"
rm -rf "$work/instrumented" "$work/profiles"  # a few hundred MB, not needed again

echo "== optimised build"
RUSTFLAGS="-Cprofile-use=$work/merged.profdata" \
    cargo build --release -q -p shogi-cli --target-dir "$root/target/pgo"
echo "built $root/target/pgo/release/shogi"
