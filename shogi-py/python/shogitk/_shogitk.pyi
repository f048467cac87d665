"""Type stubs of the extension module shogitk._shogitk (re-exported by shogitk)."""

import os
from typing import Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

__version__: str

Color = Literal["black", "white"]
Variant = Literal["standard", "mini"]
FormatName = Literal["kif", "ki2", "csa", "usi", "sfen", "jkf"]
StrPath = Union[str, "os.PathLike[str]"]

class ShogiError(ValueError):
    """Base class of the errors of shogitk: bad input (a ValueError)."""

class SfenError(ShogiError):
    """A malformed or illegal SFEN. ``str()``: ``bad SFEN <field> at byte N: <reason>``."""

    sfen: str
    field: str
    position: int
    reason: str

class InvalidMoveError(ShogiError):
    """Text that is not a USI move. ``str()``: ``bad USI move at byte N: <reason>``."""

    move: str
    position: int
    reason: str

class IllegalMoveError(ShogiError):
    """A move that breaks a rule in the position. ``str()``: ``illegal move <usi>: <reason>``."""

    move: str
    sfen: str
    reason: str

class ReadError(ShogiError):
    """A record that could not be read. ``str()`` is the CLI's ``path:line:col: error: reason``."""

    path: Optional[str]
    line: Optional[int]
    column: Optional[int]
    kind: str
    ply: Optional[int]
    written: Optional[str]
    reason: str
    line_text: str
    context: str

class Move:
    """A move; ``str()`` is its USI text. Equal to a Move with the same USI text and to that
    text itself, and hashed like it."""

    def __init__(self, usi: str) -> None: ...
    @property
    def usi(self) -> str: ...
    @property
    def from_square(self) -> Optional[str]: ...
    @property
    def to_square(self) -> str: ...
    @property
    def is_promotion(self) -> bool: ...
    @property
    def is_drop(self) -> bool: ...
    @property
    def drop_piece(self) -> Optional[str]: ...
    def move16(self, format: Literal["cshogi", "yaneuraou"] = "cshogi") -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class MoveList(Sequence[Move]):
    """The legal moves of a position: a read-only sequence of Move objects, each made when it
    is looked at. ``in`` takes a Move or USI text; equal to a sequence of the same moves."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> List[Move]: ...
    def __contains__(self, item: object) -> bool: ...
    def __iter__(self) -> "MoveIterator": ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def usi(self) -> List[str]: ...

class MoveIterator(Iterator[Move]):
    """An iterator over a MoveList."""

    def __iter__(self) -> "MoveIterator": ...
    def __next__(self) -> Move: ...

class Position:
    """A legal shogi or Mini Shogi position, with the moves pushed on it."""

    def __init__(
        self, sfen: Optional[str] = None, *, relax: Optional[Literal["tsume", "permissive"]] = None
    ) -> None: ...
    @staticmethod
    def startpos(variant: Variant = "standard") -> "Position": ...
    @staticmethod
    def from_usi(line: str, variant: Variant = "standard") -> "Position": ...
    def sfen(self) -> str: ...
    def packed(self, format: Literal["hcp", "psfen"] = "hcp") -> bytes: ...
    @staticmethod
    def from_packed(data: bytes, format: Literal["hcp", "psfen"] = "hcp") -> "Position": ...
    def move_from_move16(
        self, value: int, format: Literal["cshogi", "yaneuraou"] = "cshogi"
    ) -> Move: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def turn(self) -> Color: ...
    @property
    def move_number(self) -> int: ...
    @property
    def key(self) -> int: ...
    def legal_moves(self) -> MoveList: ...
    def is_legal(self, move: Union[Move, str]) -> bool: ...
    def push(self, move: Union[Move, str]) -> None: ...
    def play(self, move: Union[Move, str]) -> None: ...
    def move_text(
        self, move: Union[Move, str], notation: Literal["usi", "japanese", "western"] = "usi"
    ) -> str:
        """A legal move as text: USI, Japanese (KI2 style: ▲７六歩, 同 after a pushed move
        to that square) or Western (Hodges: P-7f)."""
    def pop(self) -> Move: ...
    @property
    def move_stack(self) -> List[Move]: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def outcome(self) -> Optional[Dict[str, Optional[str]]]: ...
    def perft(self, depth: int) -> int: ...
    def mate(
        self,
        nodes: int = 1000000,
        shortest: bool = False,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        memory_mb: int = 64,
    ) -> Tuple[str, Optional[int], List[str]]: ...
    def piece_at(self, square: str) -> Optional[str]: ...
    def board(self) -> List[List[Optional[str]]]: ...
    def hand(self, color: str) -> Dict[str, int]: ...
    @property
    def hands(self) -> Dict[str, Dict[str, int]]: ...
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: object) -> "Position": ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

class Diagnostic:
    """A remark about a record, located as ``shogi check`` locates it."""

    @property
    def severity(self) -> Literal["error", "warning", "note"]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...
    @property
    def line_text(self) -> str: ...
    def render(self) -> str: ...

class Record:
    """One game of a record file."""

    def to_html(self, *, analysis: Optional[StrPath] = None) -> str:
        """The page `shogi view RECORD -o FILE.html` writes: board, moves, comments, tags and
        evaluation graph in one self-contained HTML file (no external request)."""
        ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def index(self) -> int: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def encoding(self) -> Optional[Literal["utf-8", "shift_jis", "euc-jp"]]: ...
    @property
    def format(self) -> Optional[FormatName]: ...
    @property
    def header(self) -> Dict[str, str]: ...
    @property
    def header_items(self) -> List[Tuple[str, str]]: ...
    @property
    def black(self) -> Optional[str]: ...
    @property
    def white(self) -> Optional[str]: ...
    @property
    def variant(self) -> Optional[Variant]: ...
    @property
    def handicap(self) -> Optional[str]: ...
    @property
    def start_sfen(self) -> Optional[str]: ...
    @property
    def final_sfen(self) -> Optional[str]: ...
    def start_position(self) -> Optional[Position]: ...
    def position_at(self, ply: int) -> Optional[Position]: ...
    def final_position(self) -> Optional[Position]: ...
    def positions(self) -> List[Tuple[str, str]]: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def times(self) -> List[Optional[int]]: ...
    @property
    def total_times(self) -> List[Optional[int]]: ...
    @property
    def comments(self) -> List[List[str]]: ...
    @property
    def start_comments(self) -> List[str]: ...
    @property
    def ending(self) -> Optional[str]: ...
    @property
    def ending_ja(self) -> Optional[str]: ...
    @property
    def winner(self) -> Optional[Literal["sente", "gote", "draw"]]:
        """The `winner` column of `shogi stats` ("none" is None). Earlier versions said
        "black"/"white" (None for a draw): `result` still does."""
    def moves_text(
        self, notation: Literal["usi", "japanese", "western"] = "usi"
    ) -> List[str]:
        """The main line in USI, Japanese (KI2 style, with ▲/△) or Western (Hodges)."""
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]: ...
    def __eq__(self, other: object) -> bool: ...
    def stats_row(self) -> Dict[str, Any]:
        """The game's row of `shogi stats` (see `shogitk.stats`)."""
    def tags(self, tag_rules: Optional[StrPath] = None) -> Tags:
        """The openings and castles each side formed, as `shogi stats --tags` recognises them."""
    @property
    def result(self) -> Optional[Literal["black", "white", "draw"]]: ...
    @overload
    def training(
        self,
        format: Literal["hcpe", "psv"],
        *,
        skip_first: int = 0,
        skip_draws: bool = False,
        skip_declarations: bool = False,
        keep_unfinished: bool = False,
    ) -> bytes: ...
    @overload
    def training(
        self,
        format: Literal["positions"],
        *,
        skip_first: int = 0,
        skip_draws: bool = False,
        skip_declarations: bool = False,
        keep_unfinished: bool = False,
    ) -> str: ...
    @property
    def valid(self) -> bool: ...
    @property
    def error(self) -> Optional[ReadError]: ...
    @property
    def errors(self) -> List[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    def raise_for_error(self) -> None: ...
    def write(self, format: FormatName) -> str: ...
    def losses(self, format: FormatName) -> List[str]: ...
    def __len__(self) -> int: ...

class BookMove:
    """One move of a book position: the move, the expected reply, the value after the move
    (mover's view), the search depth behind it and how many games played it."""

    @property
    def move(self) -> Move: ...
    @property
    def ponder(self) -> Optional[Move]: ...
    @property
    def value(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def count(self) -> int: ...

class BookRowError(ShogiError):
    """A row of Book.from_rows that cannot be a book move. Attributes: row (its number, from
    1), field (sfen, move, value, depth, count or row), reason."""

    row: int
    field: str
    reason: str

class Book:
    """An opening book: YaneuraOu's text and .ybb books, Apery's book.bin."""

    def __init__(self) -> None: ...
    @staticmethod
    def open(path: StrPath) -> Book: ...
    @staticmethod
    def build(
        records: Iterable[Record],
        *,
        max_ply: int = 32,
        min_games: int = 1,
        analysis: Optional[StrPath] = None,
    ) -> Book: ...
    @staticmethod
    def from_db(
        path: StrPath,
        *,
        max_ply: int = 32,
        min_games: int = 1,
        analysis: Optional[StrPath] = None,
        **filters: Any,
    ) -> Book: ...
    @staticmethod
    def from_analysis(path: StrPath, *, max_ply: int = 32, memory: int = 512) -> Book: ...
    @staticmethod
    def from_rows(
        rows: Iterable[Union[Sequence[Any], Mapping[str, Any]]],
    ) -> Book: ...
    def probe(
        self, position: Union[Position, str], *, ignore_ply: bool = False, flipped: bool = True
    ) -> List[BookMove]: ...
    def write(self, path: StrPath) -> List[str]: ...
    @property
    def moves(self) -> int: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Tuple[str, List[BookMove]]]: ...

class GameIterator(Iterator[Record]):
    """The games of many files, read in parallel in Rust, in input order."""

    def __iter__(self) -> "GameIterator": ...
    def __next__(self) -> Record: ...

class EngineError(RuntimeError):
    """An engine failed: it could not start, crashed, hung, broke the protocol, refused an
    option or answered an illegal move."""

    kind: str
    engine: str
    last_lines: List[str]
    last_command: Optional[str]

class AnalysisError(ShogiError):
    """An analysis that could not run: a keyword out of range, a cache that is not usable, an
    annotated copy that would replace an input."""

    parameter: Optional[str]
    reason: str

class MatchError(ShogiError):
    """A match that cannot start for its settings: a keyword out of range, keywords that
    exclude each other, an openings file that cannot be used."""

    parameter: Optional[str]
    parameters: List[str]
    reason: str

class OptionError(ShogiError):
    """An engine option the engine does not offer or whose value it refuses."""

    name: str
    value: Optional[str]
    available: Optional[List[str]]

class TagRulesError(ShogiError):
    """A rule file (`tag_rules=`) with a mistake, located as `shogi --tag-rules` locates it."""

    path: str
    line: int
    column: int
    reason: str

class FilterError(ShogiError):
    """A selection filter with a bad value; `str()` is `keyword: reason`."""

    keyword: str
    value: str
    reason: str

class Tag:
    """One opening (戦法) or castle (囲い) a side formed."""

    @property
    def name(self) -> str:
        """The canonical name (`四間飛車`, `美濃囲い`)."""
    @property
    def side(self) -> Literal["sente", "gote"]:
        """Whose (the 下手 and the 上手 in a lance handicap)."""
    @property
    def kind(self) -> Literal["opening", "castle"]: ...
    @property
    def ply(self) -> int:
        """The ply (from 1) of the move that first completed it."""
    @property
    def family(self) -> List[str]:
        """Its family line above it, nearest first, ending at its class."""
    @property
    def english(self) -> Optional[str]: ...
    def within(self, name: str) -> bool:
        """Whether the tag is `name` or a descendant of it."""
    def __eq__(self, other: object) -> bool: ...

class Tags:
    """A game's openings and castles with its classes and main 戦型 (the values of the tag
    columns of `shogi stats --tags`, each tag typed); empty where the taxonomy does not
    apply (Mini Shogi, handicaps other than the lance ones)."""

    @property
    def applies(self) -> bool: ...
    @property
    def opening(self) -> Optional[str]:
        """The main 戦型: a tag's name, `力戦` where no opening formed, or None."""
    @property
    def game_class(self) -> Optional[Literal["相居飛車", "対抗形", "相振り飛車", "力戦"]]: ...
    @property
    def sente_class(self) -> Optional[Literal["居飛車", "振り飛車"]]: ...
    @property
    def gote_class(self) -> Optional[Literal["居飛車", "振り飛車"]]: ...
    @property
    def sente_openings(self) -> List[Tag]: ...
    @property
    def gote_openings(self) -> List[Tag]: ...
    @property
    def sente_castles(self) -> List[Tag]: ...
    @property
    def gote_castles(self) -> List[Tag]: ...
    @property
    def tags(self) -> List[Tag]:
        """Every tag of both sides, by the ply it formed."""
    def names(
        self, side: Literal["sente", "gote"], kind: Optional[Literal["opening", "castle"]] = None
    ) -> List[str]: ...
    def __iter__(self) -> Iterator[Tag]: ...
    def __len__(self) -> int: ...

class Score:
    """An evaluation from one side's view: centipawns or mate (its own kind)."""

    @property
    def kind(self) -> Literal["cp", "mate", "mate_unknown", "mate_given"]: ...
    @property
    def cp(self) -> Optional[int]: ...
    @property
    def mate(self) -> Optional[int]: ...
    @property
    def winning(self) -> Optional[bool]: ...

class PovScore:
    """A score as the engine sent it (side to move's view) with both sides' views."""

    @property
    def relative(self) -> Score: ...
    @property
    def sente(self) -> Score: ...
    @property
    def gote(self) -> Score: ...
    @property
    def turn(self) -> Color: ...
    @property
    def bound(self) -> Literal["exact", "lower", "upper"]: ...
    @property
    def sente_bound(self) -> Literal["exact", "lower", "upper"]: ...

class Engine:
    """A USI engine process; a context manager."""

    def __init__(
        self,
        path: StrPath,
        options: Optional[Dict[str, Union[bool, int, str, None]]] = None,
        *,
        args: Optional[List[str]] = None,
        threads: Optional[int] = 1,
        fresh: bool = False,
        timeout: Optional[float] = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def options(self) -> List[Dict[str, Any]]: ...
    def set_option(self, name: str, value: Union[bool, int, str, None]) -> None: ...
    def analyse(
        self,
        position: Union[Position, str],
        *,
        nodes: Optional[int] = None,
        depth: Optional[int] = None,
        movetime: Optional[int] = None,
        byoyomi: Optional[int] = None,
        multipv: int = 1,
    ) -> List[Dict[str, Any]]: ...
    def play(
        self,
        position: Union[Position, str],
        *,
        nodes: Optional[int] = None,
        depth: Optional[int] = None,
        movetime: Optional[int] = None,
        byoyomi: Optional[int] = None,
    ) -> Union[Move, Literal["resign", "win"]]: ...
    def new_game(self) -> None: ...
    def quit(self) -> None: ...
    def __enter__(self) -> "Engine": ...
    def __exit__(self, *exc: Any) -> bool: ...

def read(
    source: Union[StrPath, bytes],
    *,
    format: Optional[FormatName] = None,
    encoding: Optional[str] = None,
    strict: bool = False,
) -> List[Record]: ...
def read_many(
    paths: Union[StrPath, Iterable[StrPath]],
    *,
    jobs: Optional[int] = None,
    format: Optional[FormatName] = None,
    encoding: Optional[str] = None,
) -> GameIterator: ...
def files(paths: Union[StrPath, Iterable[StrPath]]) -> List[str]: ...
def write(record: Record, format: FormatName) -> str: ...
def serve(
    db: StrPath,
    *,
    analysis: Optional[StrPath] = None,
    book: Optional[StrPath] = None,
    bind: str = "127.0.0.1:8080",
    threads: int = 4,
) -> None:
    """Serves `shogi serve`'s explorer and game viewer over the game database `db` (the
    address is printed once bound; port 0 picks a free one) until stopped (Ctrl-C), then
    returns. The GIL is released while serving."""
    ...
def _stats(
    paths: Union[StrPath, Iterable[StrPath]],
    *,
    jobs: Optional[int] = 1,
    shard: Union[str, Tuple[int, int], None] = None,
    dedup: Union[bool, str, None] = None,
    moves: Optional[str] = None,
    mate: bool = False,
    mate_plies: int = 10,
    mate_length: int = 7,
    tags: bool = False,
    tag_rules: Optional[StrPath] = None,
    filters: Optional[Dict[str, Any]] = None,
) -> Tuple[List[str], List[Tuple[Any, ...]]]:
    """The columns and rows of `shogi stats` (`shogitk.stats` wraps them in a Table)."""
def eval_graph(
    scores: List[Optional[int]],
    *,
    title: str = "",
    sente: Optional[str] = None,
    gote: Optional[str] = None,
    classes: List[Optional[str]] = ...,
    view: str = "cp",
    range: int = 2000,
    sigmoid: float = 600.0,
) -> str:
    """One game's evaluation graph as SVG (the graphs of `shogi analyze --annotate-dir`):
    sente's centipawns after each ply, mistakes and blunders marked, view "cp" or "win"."""

def _analyze(
    paths: Union[StrPath, Iterable[StrPath]],
    *,
    engine: Optional[str] = None,
    limit: Optional[Tuple[str, int]] = None,
    options: List[Tuple[str, str]] = ...,
    engine_args: List[str] = ...,
    threads: int = 1,
    multipv: int = 1,
    jobs: int = 1,
    cache: Optional[str] = None,
    summary: bool = False,
    from_comments: bool = False,
    notation: str = "japanese",
    annotate_dir: Optional[str] = None,
    mode: str = "position",
    graph: str = "cp",
    sigmoid: float = 600.0,
    mate_cp: int = 30000,
    thresholds: Tuple[float, float, float, float] = (5.0, 10.0, 20.0, 50.0),
    search_timeout: Optional[float] = None,
    start_timeout: Optional[float] = None,
    shard: Any = None,
    dedup: Any = None,
    filters: Optional[Dict[str, Any]] = None,
) -> Tuple[List[str], List[Tuple[Any, ...]], List[Tuple[str, str]]]:
    """The columns and rows of an analysis and its messages (`shogitk.analyze` wraps them)."""
def merge_caches(caches: List[StrPath], output: StrPath) -> Tuple[int, int]:
    """Merges analysis caches (each worker's of a cluster run) into the new file `output`:
    (results read, distinct positions). Refuses caches of different engine configurations and
    positions whose results differ (AnalysisError, attribute `reason`)."""
def _record_from_state(state: bytes) -> Record:
    """A Record from its pickled form (what `Record.__reduce__` gives)."""
def match(
    engines: List[str],
    *,
    games: Optional[int] = None,
    jobs: int = 1,
    pairing: Literal["head_to_head", "gauntlet", "round_robin"] = "head_to_head",
    byoyomi: Optional[int] = None,
    time: Optional[int] = None,
    inc: Optional[int] = None,
    movetime: Optional[int] = None,
    nodes: Optional[int] = None,
    time_margin: int = 100,
    move_timeout: int = 60000,
    variant: Literal["standard", "mini"] = "standard",
    openings: Optional[str] = None,
    opening_plies: Optional[int] = None,
    seed: Optional[int] = None,
    book: Optional[StrPath] = None,
    book_plies: int = 16,
    book_pick: Literal["weighted", "uniform", "best"] = "weighted",
    max_plies: int = 320,
    declaration: int = 27,
    resign: Optional[Tuple[int, int]] = None,
    draw: Optional[Tuple[int, int]] = None,
    sprt: Optional[Sequence[float]] = None,
    sprt_model: Optional[Literal["normalized", "logistic", "bayesian", "cutechess"]] = None,
    engine_sched: Literal["batch", "normal"] = "batch",
    event: str = "shogi match",
) -> Tuple[Dict[str, Any], List[Record]]:
    """An engine match as `shogi match` plays it: engines as "NAME=PATH[,opt=val...]"; returns
    the summary (the dict `--format json` prints) and the games as Records, in game order."""
