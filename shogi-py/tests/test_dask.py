"""examples/dask_check.py on a LocalCluster of 2 workers writes what the single-process run writes."""

import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, SAMPLES, SHARED, require

EXAMPLE = ROOT / "shogi-py" / "examples" / "dask_check.py"


def _run(*args):
    p = subprocess.run([sys.executable, str(EXAMPLE), *map(str, args)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return p


@pytest.mark.parametrize("folder", ["samples", "fixtures", "corpus"])
def test_dask_run_equals_single_process(folder, tmp_path):
    require("distributed", "dask")
    records = {"samples": SAMPLES, "fixtures": FIXTURES, "corpus": SHARED / "corpus"}[folder]
    if not records.is_dir():
        pytest.skip(f"{records} not found")
    _run(records, tmp_path / "local", "--local")
    _run(records, tmp_path / "dask", "--workers", "2")
    for name in ["games.tsv", "positions.txt"]:
        local = (tmp_path / "local" / name).read_text(encoding="utf-8")
        dask = (tmp_path / "dask" / name).read_text(encoding="utf-8")
        assert local == dask, name
    games = (tmp_path / "local" / "games.tsv").read_text(encoding="utf-8").splitlines()
    positions = (tmp_path / "local" / "positions.txt").read_text(encoding="utf-8").splitlines()
    assert len(games) > 1 and positions
    # Every position line is an SFEN and a move legal in it.
    import shogitk

    for line in positions[:: max(1, len(positions) // 200)]:
        sfen, move = line.split("\t")
        assert shogitk.Position(sfen, relax="permissive").is_legal(move), line
