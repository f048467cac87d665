"""The shogi toolkit from Python.

Positions, legal moves and perft (``Position``, ``Move``), and game records in KIF, KI2,
CSA, USI/SFEN and JKF read, checked and written by the Rust crates (``read``,
``read_many``, ``write``, ``Record``). Errors are ``ValueError`` subclasses carrying the
file, line, column and reason that the ``shogi`` command prints.

>>> import shogitk
>>> pos = shogitk.Position.startpos()
>>> len(pos.legal_moves())
30
>>> pos.push("7g7f")
>>> pos.sfen()
'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
"""

import os
from typing import Any, Iterable, Optional, Tuple, Union

from ._table import Table
from ._shogitk import _record_from_state, _stats  # noqa: F401 (pickle finds it here)
from ._shogitk import (
    Diagnostic,
    Engine,
    EngineError,
    GameIterator,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveIterator,
    MoveList,
    Position,
    PovScore,
    ReadError,
    Record,
    Score,
    SfenError,
    ShogiError,
    __version__,
    files,
    match,
    read,
    read_many,
    write,
)

__all__ = [
    "Diagnostic",
    "Engine",
    "EngineError",
    "GameIterator",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveIterator",
    "MoveList",
    "Position",
    "PovScore",
    "ReadError",
    "Record",
    "Score",
    "SfenError",
    "ShogiError",
    "Table",
    "__version__",
    "files",
    "match",
    "read",
    "read_many",
    "stats",
    "write",
]

_Path = Union[str, "os.PathLike[str]"]


def stats(
    paths: Union[_Path, Iterable[_Path]],
    jobs: Optional[int] = 1,
    shard: Union[str, Tuple[int, int], None] = None,
    dedup: Union[bool, str, None] = None,
    moves: Optional[str] = None,
    **filters: Any,
) -> Table:
    """The rows of ``shogi stats`` for ``paths``: one per game, the same columns and values
    as ``shogi stats --format jsonl`` (path, game, line, format, ..., winner, valid,
    first_error, ..., key, duplicate_of), in input order (folders walked in sorted order).

    ``jobs`` threads read (None: all cores); ``shard`` ("I/N" or (I, N)) keeps the CLI's
    ``--shard`` share of the files; ``dedup`` (True or "exact", or "prefix") fills in
    ``duplicate_of``; ``moves`` ("usi", "japanese" or "western") adds the column of
    ``--moves``: the main line as text in that notation. ``filters`` are the selection flags
    of ``shogi stats`` as keywords: player (a name or a list of names), sente, gote, since,
    until (YYYY-MM-DD), min_plies, max_plies, ending ("resign,checkmate" or a list), winner,
    variant, handicap, valid (True: ``--valid``, False: ``--invalid``), min_rating, position
    (SFEN or "startpos").
    A bad value raises ValueError naming the filter; a path that is not there,
    FileNotFoundError.

    >>> t = stats(["samples"], min_plies=10)       # doctest: +SKIP
    >>> t.to_pandas().groupby("winner").size()      # doctest: +SKIP
    """
    if isinstance(filters.get("ending"), (list, tuple)):
        filters["ending"] = ",".join(filters["ending"])
    columns, rows = _stats(paths, jobs=jobs, shard=shard, dedup=dedup, moves=moves, filters=filters)
    return Table(columns, rows)
