"""Analysis of a collection on a Dask cluster: one shard per task, each with its own engine
pool and its own cache; the caches merged into one; the table from the merged cache with no
engine (``analyze_on_dask``)."""

import os
from typing import Any, Dict, Iterable, List, Union

from ._table import Table

_Path = Union[str, "os.PathLike[str]"]

# Keywords of `analyze` that set up the engine or its searches: the caches' configuration.
# The table made from the merged cache takes the others (selection, mode, multipv, classes…).
_ENGINE_KEYWORDS = ("nodes", "depth", "movetime", "byoyomi", "options", "engine_arg",
                    "threads", "search_timeout", "start_timeout", "jobs")


def shard_caches(cache_dir: _Path, shards: int) -> List[str]:
    """The cache file of each shard, 1 to ``shards``, under ``cache_dir``."""
    return [os.path.join(os.fspath(cache_dir), f"shard-{k}-of-{shards}.sqlite")
            for k in range(1, shards + 1)]


def analyze_shard(paths: Any, engine: _Path, shard: int, shards: int, cache: _Path,
                  keywords: Dict[str, Any]) -> str:
    """One task: shard ``shard`` of ``shards`` of ``paths`` analysed into ``cache`` with the
    ``analyze`` keywords ``keywords`` (results are committed one by one, so a task run again
    after its worker died searches only what the cache lacks). Returns the cache's path."""
    from . import analyze

    analyze(paths, engine, cache=cache, shard=(shard, shards), **keywords)
    return os.fspath(cache)


def analyze_on_dask(
    client: Any,
    paths: Union[_Path, Iterable[_Path]],
    engine: _Path,
    *,
    shards: int,
    cache_dir: _Path,
    merged: Union[_Path, None] = None,
    **keywords: Any,
) -> Table:
    """The table of ``analyze(paths, engine, **keywords)``, with the searches run on the Dask
    cluster of ``client``.

    The inputs are split into ``shards`` shards (as ``shard=(k, shards)`` splits them: by
    file or archive member). Each shard is one task, run by a worker with its own engine pool
    (``jobs`` engines) and its own cache, ``cache_dir/shard-K-of-N.sqlite``: ``cache_dir``
    must be a folder every worker can write, and ``paths`` readable by every worker. A task
    whose worker dies is run again by Dask; it finds the results its cache committed and
    searches only the positions that were in flight. The caches are then merged into
    ``merged`` (default ``cache_dir/merged.sqlite``, replaced if it is there; the
    merge refuses caches of different engine configurations) and the table is made from
    the merged cache alone, with no engine: the same rows as a run on one machine.

    >>> from distributed import Client, LocalCluster                 # doctest: +SKIP
    >>> with LocalCluster(n_workers=4, threads_per_worker=1) as c, Client(c) as client:
    ...     t = analyze_on_dask(client, ["games"], "/usr/games/fairy-stockfish",
    ...                         nodes=100000, shards=64, cache_dir="caches")  # doctest: +SKIP
    """
    from . import analyze, merge_caches

    os.makedirs(cache_dir, exist_ok=True)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    caches = shard_caches(cache_dir, shards)
    futures = [
        client.submit(analyze_shard, paths, os.fspath(engine), k, shards, cache, keywords,
                      pure=False)
        for k, cache in enumerate(caches, start=1)
    ]
    client.gather(futures)
    if merged is None:
        merged = os.path.join(os.fspath(cache_dir), "merged.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(merged + suffix):
                os.remove(merged + suffix)
    # A shard with no games leaves a cache with no results: nothing to merge from it.
    merge_caches([c for c in caches if os.path.exists(c)], merged)
    table_keywords = {k: v for k, v in keywords.items() if k not in _ENGINE_KEYWORDS}
    return analyze(paths, None, cache=merged, **table_keywords)
