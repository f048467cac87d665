#!/bin/sh
# Seeds fuzz/corpus/TARGET/ for every fuzz target from samples/, tests/fixtures/ and, when
# present, ../shared (records, USI and SFEN lines, perft positions), through the same
# function the plain tests replay (shogi_tests::invariants::seeds). The corpus is not
# committed (fuzz/.gitignore).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
SHOGI_FUZZ_CORPUS="$here/corpus" cargo test --manifest-path "$here/../Cargo.toml" \
    -p shogi-tests --test e2e -- --ignored fuzz_replay::write_seed_corpus
