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
import warnings
from typing import Any, Dict, Iterable, Optional, Tuple, Union

from ._table import Table
from ._shogitk import _analyze, _record_from_state, _stats  # noqa: F401 (pickle finds it here)
from ._shogitk import (
    AnalysisError,
    Book,
    BookMove,
    BookRowError,
    Diagnostic,
    Engine,
    EngineError,
    eval_graph,
    FilterError,
    GameIterator,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveIterator,
    MoveList,
    OptionError,
    Position,
    PovScore,
    ReadError,
    Record,
    Score,
    SfenError,
    ShogiError,
    Tag,
    TagRulesError,
    Tags,
    __version__,
    files,
    match,
    MatchError,
    merge_caches,
    read,
    read_many,
    serve,
    write,
)
from ._cluster import analyze_on_dask

__all__ = [
    "AnalysisError",
    "Book",
    "BookMove",
    "BookRowError",
    "Diagnostic",
    "Engine",
    "EngineError",
    "FilterError",
    "GameIterator",
    "IllegalMoveError",
    "InvalidMoveError",
    "MatchError",
    "Move",
    "MoveIterator",
    "MoveList",
    "OptionError",
    "Position",
    "PovScore",
    "ReadError",
    "Record",
    "Score",
    "SfenError",
    "ShogiError",
    "Table",
    "Tag",
    "TagRulesError",
    "Tags",
    "__version__",
    "analyze",
    "analyze_on_dask",
    "eval_graph",
    "files",
    "match",
    "merge_caches",
    "read",
    "read_many",
    "serve",
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
    mate: bool = False,
    mate_plies: int = 10,
    mate_length: int = 7,
    *,
    tags: bool = False,
    tag_rules: Optional[_Path] = None,
    player: Union[str, Iterable[str], None] = None,
    sente: Optional[str] = None,
    gote: Optional[str] = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    ending: Union[str, Iterable[str], None] = None,
    winner: Optional[str] = None,
    variant: Optional[str] = None,
    handicap: Optional[str] = None,
    valid: Optional[bool] = None,
    min_rating: Optional[float] = None,
    max_rating: Optional[float] = None,
    rating_of: Optional[str] = None,
    time_control: Optional[str] = None,
    event: Optional[str] = None,
    position: Optional[str] = None,
    opening: Optional[str] = None,
    castle: Optional[str] = None,
    class_: Optional[str] = None,
    side: Optional[str] = None,
) -> Table:
    """The rows of ``shogi stats`` for ``paths``: one per game, the same columns and values
    as ``shogi stats --format jsonl`` (path, game, line, format, ..., winner, valid,
    first_error, ..., key, duplicate_of), in input order (folders walked in sorted order).

    ``jobs`` threads read (None: all cores); ``shard`` ("I/N" or (I, N)) keeps the CLI's
    ``--shard`` share of the files; ``dedup`` (True or "exact", or "prefix") fills in
    ``duplicate_of``; ``moves`` ("usi", "japanese" or "western") adds the column of
    ``--moves``: the main line as text in that notation. ``mate=True`` adds the columns of
    ``--mate`` (missed_mate_ply, missed_mate_side, missed_mate_length, missed_mate_pv: the
    first of the last ``mate_plies`` positions where the loser of a game lost by resignation
    or time had a mate in at most ``mate_length`` plies; None when there is none).
    ``tags=True`` adds the columns of ``--tags``: opening (the main 戦型), game_class,
    sente_class, gote_class, sente_openings, gote_openings, sente_castles, gote_castles
    (lists of names) and opening_header; ``tag_rules`` a rule file over the built-in rules
    (``--tag-rules``; a mistake raises ``TagRulesError``).

    The other keywords are the selection flags of ``shogi stats``: player (a name or a list
    of names), sente, gote, since, until (YYYY-MM-DD or YYYY-MM), min_plies, max_plies,
    ending ("resign,checkmate" or a list), winner, variant, handicap, valid (True:
    ``--valid``, False: ``--invalid``), min_rating, max_rating, rating_of ("both",
    "average", "mover" with position), time_control ("300+10F"), event, position (SFEN or
    "startpos"), opening, castle, class_ (``--class``: 居飛車, 振り飛車, 相居飛車, 対抗形,
    相振り飛車, 力戦) and side ("sente", "gote" or "either": whose tags opening, castle and
    a side's class look at). A bad value raises ``FilterError`` (a ValueError; attributes
    keyword, value, reason; an unknown opening or castle name lists the nearest ones); a
    path that is not there, FileNotFoundError.

    >>> t = stats(["samples"], min_plies=10, tags=True)        # doctest: +SKIP
    >>> t.to_pandas().groupby("opening").size()                 # doctest: +SKIP
    """
    given = dict(player=player, sente=sente, gote=gote, since=since, until=until,
                 min_plies=min_plies, max_plies=max_plies, ending=ending, winner=winner,
                 variant=variant, handicap=handicap, valid=valid, min_rating=min_rating,
                 max_rating=max_rating, rating_of=rating_of, time_control=time_control,
                 event=event, position=position, opening=opening, castle=castle,
                 side=side)
    given["class"] = class_
    filters: Dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    if isinstance(filters.get("ending"), (list, tuple)):
        filters["ending"] = ",".join(filters["ending"])
    columns, rows = _stats(paths, jobs=jobs, shard=shard, dedup=dedup, moves=moves,
                           mate=mate, mate_plies=mate_plies, mate_length=mate_length,
                           tags=tags, tag_rules=tag_rules, filters=filters)
    return Table(columns, rows)


def analyze(
    paths: Union[_Path, Iterable[_Path]],
    engine: Optional[_Path] = None,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    movetime: Optional[int] = None,
    byoyomi: Optional[int] = None,
    options: Optional[Dict[str, Any]] = None,
    multipv: int = 1,
    jobs: int = 1,
    cache: Optional[_Path] = None,
    summary: bool = False,
    from_comments: bool = False,
    notation: str = "japanese",
    annotate_dir: Optional[_Path] = None,
    **flags: Any,
) -> Table:
    """The per-ply table of ``shogi analyze`` for ``paths`` (the same columns and values as
    ``shogi analyze --format jsonl``: path, game, ply, side, move_usi, move, best_usi, best,
    best_cp, ..., loss, class, pv, depth, nodes, engine, error), or with ``summary=True`` the
    rows of ``--summary``.

    ``engine`` is the USI program; one limit of ``nodes``, ``depth``, ``movetime`` (ms) or
    ``byoyomi`` (ms, the one gpsusi accepts); ``options`` engine options as a dict;
    ``jobs`` engines in parallel; ``cache`` an SQLite file reused across runs;
    ``from_comments=True`` reads the evaluations the records carry, with no engine;
    ``cache`` with no engine reads every result from the cache alone (a merged cache:
    ``merge_caches``, ``analyze_on_dask``), a position it lacks being a failed one.
    Other ``shogi analyze`` flags are keywords (``min_plies=40``, ``search_timeout=10``,
    ``mistake=25``, ``engine_arg=[...]``, ``mode="game"``, ``shard=(1, 4)``, ``dedup=True``).
    A keyword out of range raises ``shogitk.AnalysisError`` (a ValueError; attribute
    ``parameter``), an option the engine refuses ``shogitk.OptionError`` (a ValueError;
    attributes ``name``, ``value``, ``available``: the options the engine offers), an engine
    that cannot start ``shogitk.EngineError``. A position or game that failed is in the
    ``error`` column, and its full engine error comes as a RuntimeWarning. The analysis runs
    in-process (the library ``shogi analyze`` runs too); the GIL is released while the
    engines think.

    >>> t = analyze(["games"], "/usr/games/fairy-stockfish", nodes=10000)  # doctest: +SKIP
    >>> t.to_pandas().groupby("class").size()                              # doctest: +SKIP
    """
    limits = [(k, v) for k, v in (("nodes", nodes), ("depth", depth), ("movetime", movetime), ("byoyomi", byoyomi)) if v is not None]
    if len(limits) > 1:
        raise ValueError("give one limit: nodes, depth, movetime or byoyomi")
    limit = (limits[0][0], int(limits[0][1])) if limits else None
    opts = [(str(k), "" if v is None else str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (options or {}).items()]
    engine_args = flags.pop("engine_arg", None) or []
    if isinstance(engine_args, str):
        engine_args = [engine_args]
    thresholds = tuple(float(flags.pop(k, d)) for k, d in (("inaccuracy", 5.0), ("dubious", 10.0), ("mistake", 20.0), ("blunder", 50.0)))
    typed = {k: flags.pop(k) for k in ("threads", "mode", "graph", "sigmoid", "mate_cp", "search_timeout", "start_timeout", "shard", "dedup") if k in flags}
    if flags.get("ending") is not None and isinstance(flags["ending"], (list, tuple)):
        flags["ending"] = ",".join(flags["ending"])
    columns, rows, messages = _analyze(
        paths,
        engine=os.fspath(engine) if engine is not None else None,
        limit=limit,
        options=opts,
        engine_args=[str(a) for a in engine_args],
        multipv=multipv,
        jobs=jobs,
        cache=os.fspath(cache) if cache is not None else None,
        summary=summary,
        from_comments=from_comments,
        notation=notation,
        annotate_dir=os.fspath(annotate_dir) if annotate_dir is not None else None,
        thresholds=thresholds,
        filters=flags,
        **typed,
    )
    for kind, text in messages:
        if kind == "error":
            warnings.warn(f"analyze: {text}", RuntimeWarning, stacklevel=2)
    return Table(columns, rows)
