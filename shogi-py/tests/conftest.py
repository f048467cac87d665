"""Shared fixtures: the workspace root, ../shared, and the `shogi` CLI to compare against;
optional modules (`require`) and random positions (`random_positions`)."""

import importlib
import os
import pathlib
import random
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SAMPLES = ROOT / "samples"
FIXTURES = ROOT / "tests" / "fixtures" / "records"


def _find_cli():
    env = os.environ.get("SHOGI_BIN")
    if env:
        return pathlib.Path(env).resolve()
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "shogi"
        if p.is_file():
            return p
    return None


@pytest.fixture(scope="session")
def shogi_cli():
    """Run the `shogi` CLI; returns (exit code, stdout, stderr)."""
    exe = _find_cli()
    if exe is None:
        pytest.skip("no shogi CLI: build it (cargo build -p shogi-cli) or set SHOGI_BIN")

    def run(*args, cwd=None):
        p = subprocess.run(
            [str(exe), *map(str, args)],
            capture_output=True,
            cwd=cwd,
            timeout=600,
        )
        return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")

    return run


@pytest.fixture(scope="session")
def corpus():
    path = SHARED / "corpus"
    if not path.is_dir():
        pytest.skip("../shared/corpus not found")
    return path


def require(module, flag=None):
    """`module` imported; when it is not installed the test is skipped, unless the environment
    variable SHOGI_PY_REQUIRE_<FLAG> (FLAG: `module` by default) is set, which makes the import
    error fail it (scripts/test-python.sh sets them, so that no test is skipped unnoticed)."""
    if os.environ.get(f"SHOGI_PY_REQUIRE_{(flag or module).upper()}"):
        return importlib.import_module(module)
    return pytest.importorskip(module)


def random_positions(count, seed, plies, variant="standard"):
    """`count` positions, each after a random number of random legal moves (drawn from
    range(*plies); a game that ends sooner stops there) from the start of `variant`."""
    from shogitk import Position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.startpos(variant)
        for _ in range(rng.randrange(*plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


@pytest.fixture(scope="session")
def fake():
    """The workspace's fake USI engine (SHOGI_FAKE_USI, or built here when missing)."""
    path = os.environ.get("SHOGI_FAKE_USI")
    if path:
        return path
    subprocess.run(["cargo", "build", "--quiet", "-p", "shogi-usi", "--bin", "fake-usi"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "debug", "fake-usi")
