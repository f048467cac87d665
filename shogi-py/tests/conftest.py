"""Shared fixtures: the workspace root, ../shared, and the `shogi` CLI to compare against."""

import os
import pathlib
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
