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

from ._shogitk import (
    Diagnostic,
    GameIterator,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveIterator,
    MoveList,
    Position,
    ReadError,
    Record,
    SfenError,
    ShogiError,
    __version__,
    files,
    read,
    read_many,
    write,
)

__all__ = [
    "Diagnostic",
    "GameIterator",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveIterator",
    "MoveList",
    "Position",
    "ReadError",
    "Record",
    "SfenError",
    "ShogiError",
    "__version__",
    "files",
    "read",
    "read_many",
    "write",
]
