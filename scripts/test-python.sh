#!/usr/bin/env bash
# Builds the Python package shogitk (shogi-py/) in a fresh virtualenv and runs its pytest suite.
#
#   scripts/test-python.sh [pytest args...]
#
# The virtualenv is target/py-venv (SHOGI_PY_VENV overrides it); maturin and pytest come from
# PyPI. The wheel is built as users get it (maturin build, then pip install the wheel), and the
# tests compare the bindings with the `shogi` CLI built from the same tree.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="${SHOGI_PY_VENV:-$root/target/py-venv}"
python="${PYTHON:-python3}"

# `--venv-only` makes the virtualenv and stops (.ci/run does so while cargo compiles, then runs
# this script again with SHOGI_PY_VENV_READY=1, which keeps the virtualenv made).
make_venv() {
    echo "== virtualenv $venv"
    "$python" -m venv --clear "$venv"
    # dask[distributed] runs examples/dask_check.py on a LocalCluster; cshogi reads back our
    # packed positions and move16 values; pandas runs the README example and pyarrow
    # Table.to_arrow(). All are required here, so that their tests cannot be skipped unnoticed.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2" pytest "dask[distributed]" cshogi pandas pyarrow
}
if [ "${1:-}" = "--venv-only" ]; then
    make_venv
    exit 0
fi
if [ "${SHOGI_PY_VENV_READY:-0}" = 1 ] && [ -x "$venv/bin/maturin" ]; then
    echo "== virtualenv $venv (made already)"
else
    make_venv
fi
export SHOGI_PY_REQUIRE_DASK=1 SHOGI_PY_REQUIRE_CSHOGI=1 SHOGI_PY_REQUIRE_PANDAS=1 SHOGI_PY_REQUIRE_PYARROW=1

echo "== shogi CLI (to compare against) and the fake USI engine (tests/test_engine.py)"
target="${CARGO_TARGET_DIR:-$root/target}"
# .ci/run has just run `cargo test --workspace`, which built both programs from this tree (the
# integration tests run them): it says so with SHOGI_PY_BINS_BUILT=1, and they are not built
# again in another profile (a second compile of every crate, about 1.5 minutes on CI).
if [ "${SHOGI_PY_BINS_BUILT:-0}" = 1 ] && [ -x "$target/debug/shogi" ] && [ -x "$target/debug/fake-usi" ]; then
    echo "(reusing $target/debug/shogi and fake-usi from cargo test)"
else
    cargo build --locked --quiet -p shogi-cli -p shogi-usi
fi
export SHOGI_BIN="$target/debug/shogi" SHOGI_FAKE_USI="$target/debug/fake-usi"

# SHOGI_PY_PROFILE picks the cargo profile of the wheel: `release` (the default, as users get it),
# `py-test` (the same code without fat LTO, several times quicker to build) or `dev` (the tests'
# settings, so after `cargo test` only shogi-py and pyo3 are compiled; .ci/run uses it).
profile="${SHOGI_PY_PROFILE:-release}"
echo "== wheel (profile $profile)"
rm -rf "$root/target/wheels"
"$venv/bin/maturin" build --locked --quiet --profile "$profile" --manifest-path shogi-py/Cargo.toml --out "$root/target/wheels"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall "$root"/target/wheels/shogitk-*.whl

echo "== pytest"
cd "$root/shogi-py"
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" tests || status=$?
if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
