"""shogitk.analyze_on_dask on a LocalCluster with the fake engine: the table from the merged
caches equals one run on one machine, and a worker killed mid-shard loses only the positions
in flight (the task run again finds the rest in its cache)."""

import os
import signal
import sqlite3
import threading
import time

import pytest

import shogitk

from conftest import SAMPLES, require

# The standard-shogi samples (the fake engine plays no Mini Shogi): 4 games, 30 plies each.
GAMES = [str(SAMPLES / n) for n in ("game.kif", "game.csa", "game.usi", "game.jkf")]



@pytest.fixture(scope="module")
def client():
    """One LocalCluster of 2 workers for the module (starting one is most of the time)."""
    require("distributed", "dask")
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def _counts(cache):
    """(rows, most searches of a row) of a cache, (0, 0) before it has its table."""
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as c:
            return c.execute("SELECT count(*), coalesce(max(searches), 0) FROM analysis_results").fetchone()
    except sqlite3.Error:
        return (0, 0)


def test_merged_table_equals_one_machine(fake, client, tmp_path):
    one = shogitk.analyze(GAMES, fake, nodes=1, cache=tmp_path / "one.sqlite")
    assert len(one) == 120
    table = shogitk.analyze_on_dask(client, GAMES, fake, nodes=1, shards=3,
                                    cache_dir=tmp_path / "caches")
    assert list(table) == list(one)
    # The merge holds every distinct position of the run once.
    merged = tmp_path / "caches" / "merged.sqlite"
    assert _counts(merged)[0] == _counts(tmp_path / "one.sqlite")[0] > 0
    other = tmp_path / "other.sqlite"
    shogitk.analyze(GAMES[:1], fake, nodes=2, cache=other)
    with pytest.raises(shogitk.AnalysisError, match="different engine configurations"):
        shogitk.merge_caches([merged, other], tmp_path / "refused.sqlite")
    assert not (tmp_path / "refused.sqlite").exists()


def test_a_worker_killed_mid_shard_loses_only_positions_in_flight(fake, client, tmp_path):
    one = shogitk.analyze(GAMES, fake, nodes=1)
    cache = tmp_path / "caches" / "shard-1-of-1.sqlite"
    # The one shard runs on either worker: both are killed (their nannies restart them).
    pids = list(client.run(os.getpid).values())
    at_kill = []

    def kill_mid_shard():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rows, _ = _counts(cache)
            if rows >= 5:
                at_kill.append(rows)
                for pid in pids:
                    os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_mid_shard)
    killer.start()
    # 40 ms a search: the shard's 31 positions take over a second, the kill lands inside.
    table = shogitk.analyze_on_dask(client, GAMES, fake, nodes=1, shards=1,
                                    cache_dir=tmp_path / "caches", engine_arg=["--think", "40"])
    killer.join()
    assert at_kill, "the worker was not killed"
    rows, most = _counts(cache)
    assert at_kill[0] < rows, "killed mid-shard"
    # No committed result was searched again after the kill: only the one in flight was lost.
    assert most == 1
    assert list(table) == list(one)
